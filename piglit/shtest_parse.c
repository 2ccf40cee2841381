/*
 * Reading piglit shader_test files (the format of piglit's
 * tests/shaders/shader_runner.c).
 *
 * Sections start with a line whose first character is '['.  Lines before
 * the first section are ignored, as shader_runner ignores them; a file
 * without a [require] section is an error, as in shader_runner.  The
 * [vertex program] and [fragment program] texts, like the GLSL [vertex
 * shader] and [fragment shader] ones, run to the next section line; [test]
 * runs to the end of the file.  [vertex data] is a header of
 * "name/float/N" columns and rows of numbers.  [require] lines the model
 * does not understand are ignored like shader_runner ignores them
 * ("ARB_vertex_program", "depthbuffer"); the ones it does understand are
 * checked strictly.
 *
 * [test] commands, one per line ('#' starts a comment line):
 *   clear color R G B A | clear depth D | clear
 *   color R G B A | texcoord N (S, T, R, Q)
 *   draw rect X Y W H | draw rect tex X Y W H TX TY TW TH
 *   ortho [L R B T] | frustum L R B T N F
 *   parameter env_vp|local_vp|env_fp|local_fp N (X, Y, Z, W)
 *   probe rgba X Y R G B A | probe rgb X Y R G B | probe depth X Y D
 *   relative probe rgba (X, Y) (R, G, B, A) | relative probe rgb (X, Y) (R, G, B)
 *   probe all rgba R G B A | probe all rgb R G B
 *   texture rgbw N (W, H) | texture miptree N
 *   texture shadow1D N (W) | texture shadow2D N (W, H) | texture shadowRect N (W, H)
 *   texparameter 1D|2D|3D|Rect|Cube compare_func|depth_mode|min|mag|wrap_s|wrap_t|wrap_r VALUE
 *   enable|disable GL_DEPTH_TEST|GL_VERTEX_PROGRAM_TWO_SIDE|GL_CLIP_PLANEn
 *   clip plane N A B C D
 *   tolerance R G B A | link success | shade model smooth|flat
 * and with GLSL sections:
 *   uniform TYPE NAME[\[I\]] VALUES... (float int uint bool, vecN ivecN
 *     uvecN bvecN, matN matCxR column-major; a sampler is set as int)
 *   draw rect ortho X Y W H | draw arrays MODE FIRST COUNT
 *   probe rect rgba (X, Y, W, H) (R, G, B, A) | probe rect rgb ...
 *   relative probe rect rgba (X, Y, W, H) (R, G, B, A) | ... rgb ...
 *   texture checkerboard N LEVEL (W, H) (R, G, B, A) (R, G, B, A)
 * compute and buffer objects (any program; [compute shader] sections, or
 * one [compute program] in the model's !!USHADERcp1.0 assembly):
 *   compute X Y Z | memory barrier NAME (no effect on the model)
 *   ssbo N SIZE | ssbo N subdata float|int|double|int64|uint64 OFFSET V
 *   atomic counters N | atomic counter buffer B N | atomic counter B I V
 *   probe ssbo uint|int|float|double|int64|uint64 N OFFSET OP V
 *   probe atomic counter I OP V | probe atomic counter buffer B OFFSET OP V
 *   (OP: == != < >= > <=; integers in decimal, 0x hex or 0 octal, kept as
 *   the 32 bits shader_runner passes to GL)
 * Trailing ';' and '#' comments after a command are accepted (some piglit
 * files end probes with ';'; shader_runner's sscanf ignores the rest).
 */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "piglit/shtest.h"

/* The GL version the model stands for: a compatibility context with ARB
 * programs (every GL 2.1 feature shader_runner's ARB tests ask for) and
 * GLSL up to 4.30, the version with compute shaders in core: legacy
 * sources go through the front step (glsl/front.c), the others to
 * glslang as they are.  What the model lacks of those versions (geometry
 * and tessellation stages, doubles, images) is skipped where a file asks
 * for it, or fails with the translator's reason. */
enum { MODEL_GL_VERSION = 43, MODEL_GLSL_VERSION = 430 };

/* GL_MAX_* limits a [require] section may test: the vec4 varyings
 * (4 components each, knob varying_slots: VARYING_LIMIT stands for it),
 * 1024 program.local vec4s for uniforms, the compute limits of
 * include/ushader.h. */
enum { VARYING_LIMIT = -2 };
static const struct { const char *name; long value; } limits[] = {
    { "GL_MAX_VARYING_COMPONENTS", VARYING_LIMIT },
    { "GL_MAX_VARYING_FLOATS", VARYING_LIMIT },
    { "GL_MAX_VERTEX_UNIFORM_COMPONENTS", 4 * US_MAX_LOCAL_PARAMS },
    { "GL_MAX_FRAGMENT_UNIFORM_COMPONENTS", 4 * US_MAX_LOCAL_PARAMS },
    { "GL_MAX_COMPUTE_UNIFORM_COMPONENTS", 4 * US_MAX_LOCAL_PARAMS },
    { "GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS", US_MAX_GROUP_INVOCATIONS },
    { "GL_MAX_COMPUTE_SHARED_MEMORY_SIZE", US_MAX_SHARED_BYTES },
    /* storage buffers are buffer[0..15], counter buffers buffer[16..] of
     * which shader_runner makes 8 */
    { "GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS", US_GLSL_COUNTER_BINDING0 },
    { "GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS", SHTEST_MAX_ATOMIC_BUFFERS },
};

/* Extensions the model provides (the [require] lines it satisfies).
 * GL_ARB_texture_rg: the RED depth texture mode (other R and RG formats
 * are skipped where a test makes one). */
static const char *const extensions[] = {
    "GL_ARB_vertex_program", "GL_ARB_fragment_program",
    "GL_ARB_fragment_program_shadow", "GL_ARB_fragment_coord_conventions",
    "GL_ARB_texture_rectangle", "GL_ARB_multitexture",
    "GL_ARB_depth_texture", "GL_ARB_shadow", "GL_ARB_texture_cube_map",
    "GL_ARB_texture_mirrored_repeat", "GL_EXT_texture3D",
    "GL_NV_texture_rectangle", "GL_EXT_texture_rectangle",
    "GL_ARB_compute_shader", "GL_ARB_shader_storage_buffer_object",
    "GL_ARB_shader_atomic_counters", "GL_ARB_shader_atomic_counter_ops",
    "GL_ARB_explicit_attrib_location", "GL_ARB_texture_rg",
};

/* shader_runner commands for state the model lacks: a file using one is
 * skipped, not rejected (the first word of the command, and why). */
static const struct { const char *name, *why; } foreign_commands[] = {
    { "fb", "needs framebuffer objects, which the model lacks" },
    { "subuniform", NULL }, { "active", NULL }, { "block", NULL },
    { "blit", NULL }, { "depthfunc", NULL }, { "hint", NULL },
    { "light", NULL }, { "multidraw", NULL }, { "patch", NULL },
    { "polygon", NULL }, { "program", NULL }, { "provoking", NULL },
    { "resident", NULL }, { "ubo", NULL }, { "verify", NULL },
    { "viewport", NULL }, { "xfb", NULL }, { "bind", NULL },
    { "fbfetch", NULL }, { "blend", NULL }, { "query", NULL },
};

struct parser {
    const char *text;
    size_t len;
    struct shtest *t;
    struct us_diag *diag;
    size_t cap;
    /* the current [test] or [require] line, NUL-terminated */
    char buf[SHTEST_MAX_LINE + 1];
    size_t pos;                /* cursor in buf                          */
    size_t line_at;            /* offset of buf's line in the file       */
    unsigned line;
    bool have_require;
    unsigned varying_slots;    /* knob varying_slots                     */
    struct shtest_source *open_src;  /* the program section being read   */
    bool vdata_header;         /* [vertex data]'s column line was read   */
    size_t vdata_cap;          /* floats allocated in vdata.values       */
};

static bool fail(struct parser *p, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool fail(struct parser *p, size_t at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->diag->msg, sizeof p->diag->msg, fmt, ap);
    va_end(ap);
    p->diag->line = p->line;
    p->diag->col = (unsigned)at + 1;
    return false;
}

static void set_skip(struct parser *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void set_skip(struct parser *p, const char *fmt, ...)
{
    if (p->t->skip[0])
        return;  /* the first reason stands */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->t->skip, sizeof p->t->skip, fmt, ap);
    va_end(ap);
    p->t->skip_line = p->line;
}

/* ---- the line cursor ------------------------------------------------- */

static void ws(struct parser *p)
{
    while (p->buf[p->pos] == ' ' || p->buf[p->pos] == '\t' ||
           p->buf[p->pos] == '\r' || p->buf[p->pos] == '\v' ||
           p->buf[p->pos] == '\f')
        p->pos++;
}

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Match keyword `w` as a whole word (not a prefix of a longer word). */
static bool kw(struct parser *p, const char *w)
{
    ws(p);
    size_t n = strlen(w);
    if (strncmp(p->buf + p->pos, w, n) || ident_char(p->buf[p->pos + n]))
        return false;
    p->pos += n;
    return true;
}

/* "'c'", "\\xHH" or "end of line", for messages (in buf). */
static const char *describe(char ch, char buf[8])
{
    unsigned char c = (unsigned char)ch;
    if (!c)
        return "end of line";
    if (c < 0x20 || c >= 0x7f)
        snprintf(buf, 8, "\\x%02x", c);
    else
        snprintf(buf, 8, "'%c'", c);
    return buf;
}

static const char *what_is_here(const struct parser *p, char buf[8])
{
    return describe(p->buf[p->pos], buf);
}

static bool punct(struct parser *p, char c)
{
    char here[8];
    ws(p);
    if (p->buf[p->pos] != c)
        return fail(p, p->pos, "expected '%c', found %s", c,
                    what_is_here(p, here));
    p->pos++;
    return true;
}

static bool delimiter(char c)
{
    return c == 0 || c == ' ' || c == '\t' || c == '\r' || c == ',' ||
           c == ')' || c == '(' || c == ';' || c == '#';
}

/* A number as piglit's parse_floats reads it: strtof's syntax (decimal,
 * INF, NAN), or 0xHHHHHHHH giving the float's bit pattern. */
static bool number(struct parser *p, float *out, const char *what)
{
    char here[8];
    ws(p);
    const char *s = p->buf + p->pos;
    char *e = NULL;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        unsigned long long bits = strtoull(s, &e, 16);
        if (e <= s + 2 || bits > 0xffffffffull)
            return fail(p, p->pos, "bad hexadecimal %s", what);
        uint32_t b = (uint32_t)bits;
        memcpy(out, &b, sizeof *out);
    } else {
        if (!(isdigit((unsigned char)s[0]) || s[0] == '-' || s[0] == '+' ||
              s[0] == '.' || s[0] == 'i' || s[0] == 'I' || s[0] == 'n' ||
              s[0] == 'N'))
            return fail(p, p->pos, "expected %s, found %s", what,
                        what_is_here(p, here));
        *out = strtof(s, &e);
        if (e == s)
            return fail(p, p->pos, "expected %s", what);
    }
    if (!delimiter(*e))
        return fail(p, (size_t)(e - p->buf), "unexpected %s in %s",
                    describe(*e, here),
                    what);
    p->pos = (size_t)(e - p->buf);
    return true;
}

static bool numbers(struct parser *p, float *out, unsigned n,
                    const char *what)
{
    for (unsigned i = 0; i < n; i++)
        if (!number(p, &out[i], what))
            return false;
    return true;
}

/* "( a , b , ... )" */
static bool tuple(struct parser *p, float *out, unsigned n, const char *what)
{
    if (!punct(p, '('))
        return false;
    for (unsigned i = 0; i < n; i++) {
        if (i && !punct(p, ','))
            return false;
        if (!number(p, &out[i], what))
            return false;
    }
    return punct(p, ')');
}

/* Numbers after the ones a command reads: shader_runner's get_floats and
 * sscanf read a fixed count and ignore the rest ("probe rgb 1 1 0 1 0 1"). */
static bool extra_numbers(struct parser *p, const char *what)
{
    float extra;
    while (ws(p), p->buf[p->pos] && p->buf[p->pos] != '#' &&
           p->buf[p->pos] != ';')
        if (!number(p, &extra, what))
            return false;
    return true;
}

/* A colour "( a , b , ... )" of which shader_runner's sscanf reads n
 * components: further ", x" before the ')' are ignored. */
static bool colour_tuple(struct parser *p, float *out, unsigned n)
{
    if (!punct(p, '('))
        return false;
    for (unsigned i = 0; i < n; i++) {
        if (i && !punct(p, ','))
            return false;
        if (!number(p, &out[i], "colour component"))
            return false;
    }
    float extra;
    while (ws(p), p->buf[p->pos] == ',') {
        p->pos++;
        if (!number(p, &extra, "colour component"))
            return false;
    }
    return punct(p, ')');
}

/* A whole number in [lo, hi]. */
static bool integer(struct parser *p, int *out, long lo, long hi,
                    const char *what)
{
    char here[8];
    ws(p);
    size_t at = p->pos;
    const char *s = p->buf + at;
    if (!(isdigit((unsigned char)s[0]) || ((s[0] == '-' || s[0] == '+') &&
                                           isdigit((unsigned char)s[1]))))
        return fail(p, at, "expected %s (an integer), found %s", what,
                    what_is_here(p, here));
    char *e;
    long v = strtol(s, &e, 10);
    if (!delimiter(*e))
        return fail(p, (size_t)(e - p->buf), "unexpected %s in %s",
                    describe(*e, here),
                    what);
    if (v < lo || v > hi)
        return fail(p, at, "%s %ld is outside %ld..%ld", what, v, lo, hi);
    *out = (int)v;
    p->pos = (size_t)(e - p->buf);
    return true;
}

/* Only blanks, ';' and a '#' comment may follow a command. */
static bool end_of_command(struct parser *p)
{
    for (;;) {
        ws(p);
        char c = p->buf[p->pos];
        if (c == 0 || c == '#')
            return true;
        if (c != ';')
            return fail(p, p->pos, "unexpected text after the command");
        p->pos++;
    }
}

/* A probe coordinate given as a number (shader_runner casts floats). */
static bool pixel(struct parser *p, int *out, const char *what)
{
    ws(p);
    size_t at = p->pos;
    float f;
    if (!number(p, &f, what))
        return false;
    if (!(f >= 0.0f && f < (float)GFX_MAX_VIEWPORT))
        return fail(p, at, "%s %g is outside the window", what, (double)f);
    *out = (int)f;
    return true;
}

/* ---- [test] commands ------------------------------------------------- */

static bool keyword_of(struct parser *p, const char *const *names,
                       unsigned n, int *out, const char *what)
{
    ws(p);
    size_t at = p->pos;
    for (unsigned i = 0; i < n; i++)
        if (names[i] && kw(p, names[i])) {
            *out = (int)i;
            return true;
        }
    size_t e = at;
    while (ident_char(p->buf[e]))
        e++;
    return fail(p, at, "unknown %s '%.*s'", what, (int)(e - at),
                p->buf + at);
}

static bool parse_texparameter(struct parser *p, struct shtest_cmd *c)
{
    static const char *const targets[] = { "1D", "2D", "3D", "Rect",
                                           "Cube" };
    static const char *const foreign_targets[] = { "1DArray", "2DArray",
                                                   "CubeArray" };
    static const char *const params[] = {
        [SH_TP_COMPARE_FUNC] = "compare_func", [SH_TP_DEPTH_MODE] = "depth_mode",
        [SH_TP_MIN] = "min", [SH_TP_MAG] = "mag", [SH_TP_WRAP_S] = "wrap_s",
        [SH_TP_WRAP_T] = "wrap_t", [SH_TP_WRAP_R] = "wrap_r",
    };
    static const char *const funcs[] = {
        [GFX_CMP_LEQUAL] = "lequal", [GFX_CMP_GEQUAL] = "gequal",
        [GFX_CMP_LESS] = "less", [GFX_CMP_GREATER] = "greater",
        [GFX_CMP_EQUAL] = "equal", [GFX_CMP_NOTEQUAL] = "notequal",
        [GFX_CMP_ALWAYS] = "always", [GFX_CMP_NEVER] = "never",
    };
    static const char *const modes[] = {
        [GFX_DEPTH_LUMINANCE] = "luminance", [GFX_DEPTH_INTENSITY] = "intensity",
        [GFX_DEPTH_ALPHA] = "alpha", [GFX_DEPTH_RED] = "red",
    };
    static const char *const filters[] = {
        [SH_NEAREST_MIPMAP_NEAREST] = "nearest_mipmap_nearest",
        [SH_LINEAR_MIPMAP_NEAREST] = "linear_mipmap_nearest",
        [SH_NEAREST_MIPMAP_LINEAR] = "nearest_mipmap_linear",
        [SH_LINEAR_MIPMAP_LINEAR] = "linear_mipmap_linear",
        [SH_NEAREST] = "nearest", [SH_LINEAR] = "linear",
    };
    static const char *const wraps[] = {
        [GFX_WRAP_REPEAT] = "repeat", [GFX_WRAP_CLAMP] = "clamp_to_edge",
        [GFX_WRAP_MIRROR] = "mirrored_repeat",
    };
    for (size_t i = 0; i < sizeof foreign_targets / sizeof *foreign_targets; i++)
        if (kw(p, foreign_targets[i])) {
            set_skip(p, "texparameter on %s textures (array textures are "
                     "outside ARB programs)", foreign_targets[i]);
            return true;
        }
    int target, param, value = 0;
    if (!keyword_of(p, targets, 5, &target, "texture target"))
        return false;
    ws(p);
    size_t at = p->pos;
    if (kw(p, "lod_bias") || kw(p, "max_level") || kw(p, "base_level") ||
        kw(p, "border_color") || kw(p, "swizzle_r")) {
        set_skip(p, "texparameter '%.*s' is not modelled", (int)(p->pos - at),
                 p->buf + at);
        return true;
    }
    if (!keyword_of(p, params, sizeof params / sizeof *params, &param,
                    "texture parameter"))
        return false;
    bool ok;
    switch (param) {
    case SH_TP_COMPARE_FUNC:
        ok = keyword_of(p, funcs, 8, &value, "compare function");
        break;
    case SH_TP_DEPTH_MODE:
        ok = keyword_of(p, modes, 4, &value, "depth texture mode");
        break;
    case SH_TP_MIN:
        ok = keyword_of(p, filters, 6, &value, "minification filter");
        break;
    case SH_TP_MAG:
        ok = keyword_of(p, filters, 2, &value, "magnification filter");
        break;
    default:
        ws(p);
        if (kw(p, "clamp_to_border")) {
            set_skip(p, "GL_CLAMP_TO_BORDER is not modelled");
            return true;
        }
        ok = keyword_of(p, wraps, 3, &value, "wrap mode");
        break;
    }
    if (!ok)
        return false;
    c->op = SH_TEXPARAMETER;
    c->sub = (uint8_t)param;
    c->i[0] = target;
    c->i[1] = value;
    return true;
}

static bool parse_texture(struct parser *p, struct shtest_cmd *c)
{
    c->op = SH_TEXTURE;
    int big = GFX_MAX_TEX_SIZE;
    float wh[2];
    if (kw(p, "rgbw")) {
        c->sub = SH_TEX_RGBW;
        ws(p);
        if (kw(p, "1D") || kw(p, "3D") || kw(p, "2DArray") || kw(p, "1DArray")) {
            set_skip(p, "texture rgbw of a target other than 2D is not modelled");
            return true;
        }
    } else if (kw(p, "miptree")) {
        c->sub = SH_TEX_MIPTREE;
    } else if (kw(p, "shadow1D")) {
        c->sub = SH_TEX_SHADOW1D;
    } else if (kw(p, "shadow2D")) {
        c->sub = SH_TEX_SHADOW2D;
    } else if (kw(p, "shadowRect")) {
        c->sub = SH_TEX_SHADOWRECT;
    } else if (kw(p, "checkerboard")) {
        /* piglit_checkerboard_texture: squares of half the size */
        c->sub = SH_TEX_CHECKER;
        if (!integer(p, &c->i[0], 0, US_MAX_TEX_UNITS - 1, "texture unit") ||
            !integer(p, &c->i[3], 0, GFX_MAX_TEX_LEVELS - 1, "mipmap level"))
            return false;
        ws(p);
        size_t at = p->pos;
        if (!tuple(p, wh, 2, "texture size") ||
            !tuple(p, c->f, 4, "colour component") ||
            !tuple(p, c->f + 4, 4, "colour component"))
            return false;
        for (unsigned k = 0; k < 2; k++) {
            if (!(wh[k] >= 1.0f && wh[k] <= (float)big) ||
                wh[k] != floorf(wh[k]))
                return fail(p, at, "texture size must be whole numbers in "
                            "1..%d", big);
            c->i[1 + k] = (int)wh[k];
        }
        if (c->i[3])
            set_skip(p, "texture checkerboard of a level other than 0 is "
                     "not modelled");
        return true;
    } else {
        ws(p);
        size_t at = p->pos;
        if (kw(p, "quads") || kw(p, "integer") ||
            kw(p, "storage") || kw(p, "junk") || kw(p, "shadow1DArray") ||
            kw(p, "shadow2DArray")) {
            set_skip(p, "'texture %.*s' is not modelled", (int)(p->pos - at),
                     p->buf + at);
            return true;
        }
        return fail(p, at, "unknown texture kind");
    }
    if (!integer(p, &c->i[0], 0, US_MAX_TEX_UNITS - 1, "texture unit"))
        return false;
    c->i[1] = c->sub == SH_TEX_MIPTREE ? 8 : 1;
    c->i[2] = c->i[1];
    if (c->sub == SH_TEX_MIPTREE)
        return true;
    unsigned n = c->sub == SH_TEX_SHADOW1D ? 1 : 2;
    ws(p);
    size_t at = p->pos;
    if (!tuple(p, wh, n, "texture size"))
        return false;
    for (unsigned k = 0; k < n; k++) {
        if (!(wh[k] >= 1.0f && wh[k] <= (float)big) || wh[k] != floorf(wh[k]))
            return fail(p, at, "texture size must be whole numbers in 1..%d",
                        big);
        c->i[1 + k] = (int)wh[k];
    }
    if (c->sub == SH_TEX_RGBW) {
        /* an optional internal format: only the default GL_RGBA */
        ws(p);
        if (kw(p, "GL_RGBA") || kw(p, "GL_RGBA8"))
            return true;
        if (ident_char(p->buf[p->pos])) {
            set_skip(p, "texture rgbw with another internal format is not "
                     "modelled");
            return true;
        }
    }
    return true;
}

/* An integer as shader_runner's parse_ints / parse_uints and sscanf
 * read one (strtoll / strtoul with base 0: decimal, 0x hex, 0 octal),
 * kept as the 32 bits GL receives: "-1" of a uint is 0xffffffff,
 * "0xffffffff" of an int is -1. */
static bool int_bits(struct parser *p, uint32_t *out, const char *what)
{
    char here[8];
    ws(p);
    size_t at = p->pos;
    const char *s = p->buf + at;
    char *e;
    long long v = strtoll(s, &e, 0);
    if (e != s && *s != '-' && v == LLONG_MAX)
        v = (long long)strtoull(s, &e, 0);  /* beyond LLONG_MAX */
    if (e == s)
        return fail(p, at, "expected %s (an integer), found %s", what,
                    what_is_here(p, here));
    if (!delimiter(*e))
        return fail(p, (size_t)(e - p->buf), "unexpected %s in %s",
                    describe(*e, here), what);
    *out = (uint32_t)(unsigned long long)v;
    p->pos = (size_t)(e - p->buf);
    return true;
}

/* ---- compute and buffer objects -------------------------------------- */

/* ==, !=, <, >=, >, <= (shader_runner's parse_comparison_op, which reads
 * != as >). */
static bool comparison(struct parser *p, int *out)
{
    static const struct { const char *text; int cmp; } ops[] = {
        { "==", SH_CMP_EQ }, { "!=", SH_CMP_GT }, { "<=", SH_CMP_LE },
        { "<", SH_CMP_LT }, { ">=", SH_CMP_GE }, { ">", SH_CMP_GT },
    };
    ws(p);
    for (size_t k = 0; k < sizeof ops / sizeof *ops; k++) {
        size_t n = strlen(ops[k].text);
        if (!strncmp(p->buf + p->pos, ops[k].text, n)) {
            p->pos += n;
            *out = ops[k].cmp;
            return true;
        }
    }
    return fail(p, p->pos, "expected a comparison (==, !=, <, >=, >, <=)");
}

/* A value of `type` as shader_runner reads it, into c->u (bit patterns;
 * a 64-bit value in u[0..1], low word first). */
static bool typed_value(struct parser *p, struct shtest_cmd *c, int type)
{
    char here[8];
    ws(p);
    size_t at = p->pos;
    const char *s = p->buf + at;
    char *e = NULL;
    uint64_t bits;
    switch (type) {
    case SH_D_FLOAT:
        return number(p, &c->f[0], "value");
    case SH_D_INT:
    case SH_D_UINT:
        return int_bits(p, &c->u[0], "value");
    case SH_D_DOUBLE: {
        double d = strtod(s, &e);
        memcpy(&bits, &d, sizeof bits);
        break;
    }
    case SH_D_INT64:
        bits = (uint64_t)strtoll(s, &e, 0);
        break;
    default:
        bits = (uint64_t)strtoull(s, &e, 0);
        break;
    }
    if (e == s || !delimiter(*e))
        return fail(p, e == s ? at : (size_t)(e - p->buf),
                    "expected a value, found %s",
                    describe(e == s ? *s : *e, here));
    c->u[0] = (uint32_t)bits;
    c->u[1] = (uint32_t)(bits >> 32);
    p->pos = (size_t)(e - p->buf);
    return true;
}

/* compute X Y Z (glDispatchCompute; GL_MAX_COMPUTE_WORK_GROUP_COUNT is
 * 65535 each way). */
static bool parse_compute(struct parser *p, struct shtest_cmd *c)
{
    if (kw(p, "group")) {
        set_skip(p, "'compute group size' needs "
                 "GL_ARB_compute_variable_group_size, which the model lacks");
        return true;
    }
    c->op = SH_COMPUTE;
    return integer(p, &c->i[0], 0, 65535, "workgroup count") &&
           integer(p, &c->i[1], 0, 65535, "workgroup count") &&
           integer(p, &c->i[2], 0, 65535, "workgroup count");
}

/* ssbo N SIZE | ssbo N subdata float|int|double|int64|uint64 OFFSET VALUE
 * (shader_runner sets one value). */
static bool parse_ssbo(struct parser *p, struct shtest_cmd *c)
{
    static const char *const types[] = {
        [SH_D_INT] = "int", [SH_D_FLOAT] = "float", [SH_D_DOUBLE] = "double",
        [SH_D_INT64] = "int64", [SH_D_UINT64] = "uint64",
    };
    if (!integer(p, &c->i[0], 0, SHTEST_MAX_SSBOS - 1, "SSBO binding"))
        return false;
    if (!kw(p, "subdata")) {
        c->op = SH_SSBO;
        return integer(p, &c->i[1], 0, SHTEST_MAX_BUFFER_BYTES,
                       "buffer size");
    }
    int type;
    c->op = SH_SSBO_SUBDATA;
    if (!keyword_of(p, types, sizeof types / sizeof *types, &type,
                    "subdata type") ||
        !integer(p, &c->i[1], 0, SHTEST_MAX_BUFFER_BYTES, "byte offset"))
        return false;
    c->sub = (uint8_t)type;
    return typed_value(p, c, type);
}

/* atomic counters N | atomic counter buffer B N | atomic counter B I V */
static bool parse_atomic(struct parser *p, struct shtest_cmd *c)
{
    enum { MAX_COUNTERS = SHTEST_MAX_BUFFER_BYTES / 4 };
    if (kw(p, "counters")) {
        c->op = SH_ATOMIC_BUFFER;
        return integer(p, &c->i[1], 0, MAX_COUNTERS, "counter count");
    }
    if (!kw(p, "counter"))
        return fail(p, p->pos, "expected 'counters' or 'counter'");
    if (kw(p, "buffer")) {
        c->op = SH_ATOMIC_BUFFER;
        return integer(p, &c->i[0], 0, SHTEST_MAX_ATOMIC_BUFFERS - 1,
                       "atomic counter buffer binding") &&
               integer(p, &c->i[1], 0, MAX_COUNTERS, "counter count");
    }
    c->op = SH_ATOMIC_SET;
    return integer(p, &c->i[0], 0, SHTEST_MAX_ATOMIC_BUFFERS - 1,
                   "atomic counter buffer binding") &&
           integer(p, &c->i[1], 0, MAX_COUNTERS - 1, "counter index") &&
           int_bits(p, &c->u[0], "counter value");
}

/* probe ssbo uint|int|float|double|int64|uint64 N OFFSET OP VALUE */
static bool parse_probe_ssbo(struct parser *p, struct shtest_cmd *c)
{
    static const char *const types[] = {
        [SH_D_INT] = "int", [SH_D_UINT] = "uint", [SH_D_FLOAT] = "float",
        [SH_D_DOUBLE] = "double", [SH_D_INT64] = "int64",
        [SH_D_UINT64] = "uint64",
    };
    int type, cmp;
    c->op = SH_PROBE_SSBO;
    if (!keyword_of(p, types, sizeof types / sizeof *types, &type,
                    "probe type") ||
        !integer(p, &c->i[0], 0, SHTEST_MAX_SSBOS - 1, "SSBO binding") ||
        !integer(p, &c->i[1], 0, SHTEST_MAX_BUFFER_BYTES, "byte offset") ||
        !comparison(p, &cmp))
        return false;
    c->sub = (uint8_t)type;
    c->i[2] = cmp;
    return typed_value(p, c, type);
}

/* probe atomic counter I OP V (counter I of binding 0) |
 * probe atomic counter buffer B OFFSET OP V (a byte offset) */
static bool parse_probe_atomic(struct parser *p, struct shtest_cmd *c)
{
    int cmp;
    c->op = SH_PROBE_ATOMIC;
    if (!kw(p, "counter"))
        return fail(p, p->pos, "expected 'counter'");
    if (kw(p, "buffer")) {
        if (!integer(p, &c->i[0], 0, SHTEST_MAX_ATOMIC_BUFFERS - 1,
                     "atomic counter buffer binding") ||
            !integer(p, &c->i[1], 0, SHTEST_MAX_BUFFER_BYTES, "byte offset"))
            return false;
    } else {
        if (!integer(p, &c->i[1], 0, SHTEST_MAX_BUFFER_BYTES / 4 - 1,
                     "counter index"))
            return false;
        c->i[1] *= 4;
    }
    if (!comparison(p, &cmp))
        return false;
    c->i[2] = cmp;
    return int_bits(p, &c->u[0], "counter value");
}

/* probe rect rgb(a) (X, Y, W, H) (...): piglit_probe_rect_rgb(a), each
 * pixel compared as `probe all` compares them; relative: fractions of
 * the window. */
static bool parse_probe_rect(struct parser *p, struct shtest_cmd *c,
                             bool relative)
{
    if (kw(p, "rgba"))
        c->n = 4;
    else if (kw(p, "rgb"))
        c->n = 3;
    else
        return fail(p, p->pos, "expected 'rgba' or 'rgb'");
    if (relative) {
        c->op = SH_PROBE_RECT_REL;
        return tuple(p, &c->f[4], 4, "relative rectangle") &&
               colour_tuple(p, c->f, c->n);
    }
    c->op = SH_PROBE_RECT;
    float r[4];
    ws(p);
    size_t at = p->pos;
    if (!tuple(p, r, 4, "rectangle"))
        return false;
    for (unsigned k = 0; k < 4; k++) {
        if (!(r[k] >= 0.0f && r[k] <= (float)GFX_MAX_VIEWPORT))
            return fail(p, at, "probe rectangle outside 0..%d",
                        GFX_MAX_VIEWPORT);
        c->i[k] = (int)r[k];
    }
    return colour_tuple(p, c->f, c->n);
}

static bool parse_probe(struct parser *p, struct shtest_cmd *c, bool relative)
{
    if (kw(p, "rgba"))
        c->n = 4;
    else if (kw(p, "rgb"))
        c->n = 3;
    else if (!relative && kw(p, "depth")) {
        c->op = SH_PROBE_DEPTH;
        return pixel(p, &c->i[0], "x") && pixel(p, &c->i[1], "y") &&
               number(p, &c->f[0], "depth");
    } else if (!relative && kw(p, "all")) {
        c->op = SH_PROBE_ALL;
        if (kw(p, "rgba"))
            c->n = 4;
        else if (kw(p, "rgb"))
            c->n = 3;
        else
            return fail(p, p->pos, "expected 'rgba' or 'rgb'");
        return numbers(p, c->f, c->n, "colour component") &&
               extra_numbers(p, "colour component");
    } else {
        ws(p);
        size_t at = p->pos;
        if (kw(p, "rect"))
            return parse_probe_rect(p, c, relative);
        if (!relative && kw(p, "ssbo"))
            return parse_probe_ssbo(p, c);
        if (!relative && kw(p, "atomic"))
            return parse_probe_atomic(p, c);
        if (kw(p, "warn") || kw(p, "xfb")) {
            set_skip(p, "'probe %.*s' is not modelled", (int)(p->pos - at),
                     p->buf + at);
            return true;
        }
        return fail(p, at, "expected 'rgba' or 'rgb'%s",
                    relative ? "" : ", 'all' or 'depth'");
    }
    if (relative) {
        c->op = SH_PROBE_REL;
        ws(p);
        if (kw(p, "rect")) {
            set_skip(p, "'relative probe rect' is not modelled");
            return true;
        }
        return tuple(p, &c->f[4], 2, "relative position") &&
               colour_tuple(p, c->f, c->n);
    }
    c->op = SH_PROBE;
    return pixel(p, &c->i[0], "x") && pixel(p, &c->i[1], "y") &&
           numbers(p, c->f, c->n, "colour component") &&
           extra_numbers(p, "colour component");
}

/* uniform TYPE NAME VALUES (shader_runner's set_uniform). */
static bool parse_uniform(struct parser *p, struct shtest_cmd *c)
{
    static const struct { const char *name; uint8_t type, n, cols; } types[] = {
        { "float", SH_U_FLOAT, 1, 0 }, { "vec2", SH_U_FLOAT, 2, 0 },
        { "vec3", SH_U_FLOAT, 3, 0 }, { "vec4", SH_U_FLOAT, 4, 0 },
        { "int", SH_U_INT, 1, 0 }, { "ivec2", SH_U_INT, 2, 0 },
        { "ivec3", SH_U_INT, 3, 0 }, { "ivec4", SH_U_INT, 4, 0 },
        { "uint", SH_U_UINT, 1, 0 }, { "uvec2", SH_U_UINT, 2, 0 },
        { "uvec3", SH_U_UINT, 3, 0 }, { "uvec4", SH_U_UINT, 4, 0 },
        { "bool", SH_U_BOOL, 1, 0 }, { "bvec2", SH_U_BOOL, 2, 0 },
        { "bvec3", SH_U_BOOL, 3, 0 }, { "bvec4", SH_U_BOOL, 4, 0 },
        { "mat2", SH_U_FLOAT, 4, 2 }, { "mat3", SH_U_FLOAT, 9, 3 },
        { "mat4", SH_U_FLOAT, 16, 4 }, { "mat2x2", SH_U_FLOAT, 4, 2 },
        { "mat2x3", SH_U_FLOAT, 6, 2 }, { "mat2x4", SH_U_FLOAT, 8, 2 },
        { "mat3x2", SH_U_FLOAT, 6, 3 }, { "mat3x3", SH_U_FLOAT, 9, 3 },
        { "mat3x4", SH_U_FLOAT, 12, 3 }, { "mat4x2", SH_U_FLOAT, 8, 4 },
        { "mat4x3", SH_U_FLOAT, 12, 4 }, { "mat4x4", SH_U_FLOAT, 16, 4 },
    };
    if (!p->t->glsl) {
        set_skip(p, "shader_runner command 'uniform' is outside ARB programs");
        return true;
    }
    ws(p);
    size_t at = p->pos;
    size_t k = 0;
    for (; k < sizeof types / sizeof *types; k++)
        if (kw(p, types[k].name))
            break;
    if (k == sizeof types / sizeof *types) {
        size_t e = at;
        while (ident_char(p->buf[e]))
            e++;
        const char *t = p->buf + at;
        if (!strncmp(t, "double", 6) || !strncmp(t, "dvec", 4) ||
            !strncmp(t, "dmat", 4))
            set_skip(p, "uniform type '%.*s' needs double precision, which "
                     "the model lacks", (int)(e - at), t);
        else if (strstr(t, "64"))
            set_skip(p, "uniform type '%.*s' needs 64-bit integers, which "
                     "the model lacks", (int)(e - at), t);
        else
            set_skip(p, "uniform type '%.*s' is not modelled", (int)(e - at),
                     t);
        return true;
    }
    ws(p);
    size_t name = p->pos;
    while (p->buf[p->pos] && p->buf[p->pos] != ' ' && p->buf[p->pos] != '\t')
        p->pos++;
    if (p->pos == name || p->pos - name >= 2 * US_MAX_NAME)
        return fail(p, name, "expected a uniform name");
    c->op = SH_UNIFORM;
    c->sub = types[k].type;
    c->n = types[k].n;
    c->i[0] = (int)(p->line_at + name);
    c->i[1] = (int)(p->pos - name);
    c->i[2] = types[k].cols;
    /* shader_runner reads the values with strtod/strtol one after the
     * other: a missing or malformed one reads as 0 and the rest of the
     * line is ignored ("uniform vec4 a 0.5 1.5, 0.0" sets (0.5, 1.5, 0, 0)).
     * Integer values are kept as their 32 bits (u[]), a bool as 0 or 1. */
    bool more = true;
    for (unsigned v = 0; v < c->n; v++) {
        size_t at = p->pos;
        struct us_diag saved = *p->diag;
        more = more && (c->sub == SH_U_FLOAT
                        ? number(p, &c->f[v], "uniform value")
                        : int_bits(p, &c->u[v], "uniform value"));
        if (!more) {
            *p->diag = saved;   /* not an error: the value is 0 */
            p->pos = at;
            c->u[v] = 0;        /* 0.0f too */
        }
        if (c->sub == SH_U_BOOL)
            c->u[v] = c->u[v] != 0;
    }
    p->pos += strlen(p->buf + p->pos);
    return true;
}

/* draw arrays MODE FIRST COUNT: the [vertex data] rows. */
static bool parse_draw_arrays(struct parser *p, struct shtest_cmd *c)
{
    static const char *const modes[] = {
        [SH_PRIM_TRIANGLES] = "GL_TRIANGLES",
        [SH_PRIM_TRIANGLE_STRIP] = "GL_TRIANGLE_STRIP",
        [SH_PRIM_TRIANGLE_FAN] = "GL_TRIANGLE_FAN",
        [SH_PRIM_QUADS] = "GL_QUADS",
    };
    ws(p);
    size_t at = p->pos;
    int mode = -1;
    for (int m = 0; m < (int)(sizeof modes / sizeof *modes); m++)
        if (kw(p, modes[m]))
            mode = m;
    if (mode < 0) {
        size_t e = at;
        while (ident_char(p->buf[e]))
            e++;
        set_skip(p, "draw arrays %.*s is not modelled (triangles and "
                 "quads only)",
                 (int)(e - at), p->buf + at);
        return true;
    }
    c->op = SH_DRAW_ARRAYS;
    c->sub = (uint8_t)mode;
    return integer(p, &c->i[0], 0, GFX_MAX_MESH_VERTS, "first vertex") &&
           integer(p, &c->i[1], 1, GFX_MAX_MESH_VERTS, "vertex count");
}

static bool parse_command(struct parser *p, struct shtest_cmd *c)
{
    memset(c, 0, sizeof *c);
    c->line = p->line;
    c->col = (unsigned)p->pos + 1;
    if (kw(p, "clear")) {
        if (kw(p, "color")) {
            c->op = SH_CLEAR_COLOR;
            return numbers(p, c->f, 4, "colour component");
        }
        if (kw(p, "depth")) {
            c->op = SH_CLEAR_DEPTH;
            return number(p, &c->f[0], "depth");
        }
        c->op = SH_CLEAR;
        return true;
    }
    if (kw(p, "color")) {
        c->op = SH_COLOR;
        return numbers(p, c->f, 4, "colour component");
    }
    if (kw(p, "texcoord")) {
        c->op = SH_TEXCOORD;
        return integer(p, &c->i[0], 0, US_MAX_TEX_COORDS - 1,
                       "texture coordinate set") &&
               tuple(p, c->f, 4, "texture coordinate");
    }
    if (kw(p, "uniform"))
        return parse_uniform(p, c);
    if (kw(p, "draw")) {
        if (p->t->glsl && kw(p, "arrays"))
            return parse_draw_arrays(p, c);
        if (!kw(p, "rect")) {
            if (p->t->glsl)
                set_skip(p, "shader_runner's 'draw' commands other than "
                         "'draw rect' and 'draw arrays' are not modelled");
            else
                set_skip(p, "shader_runner's 'draw' commands other than "
                         "'draw rect' need vertex data for GLSL attributes");
            return true;
        }
        if (kw(p, "ortho")) {
            c->op = SH_DRAW_RECT_ORTHO;
            return numbers(p, c->f, 4, "rectangle coordinate");
        }
        if (kw(p, "patch")) {
            set_skip(p, "'draw rect patch' is not modelled");
            return true;
        }
        if (kw(p, "tex")) {
            c->op = SH_DRAW_RECT_TEX;
            return numbers(p, c->f, 8, "rectangle coordinate");
        }
        c->op = SH_DRAW_RECT;
        return numbers(p, c->f, 4, "rectangle coordinate");
    }
    if (kw(p, "ortho")) {
        ws(p);
        if (!p->buf[p->pos] || p->buf[p->pos] == '#' || p->buf[p->pos] == ';') {
            c->op = SH_ORTHO_WINDOW;
            return true;
        }
        c->op = SH_ORTHO;
        return numbers(p, c->f, 4, "ortho bound");
    }
    if (kw(p, "clip")) {
        if (!kw(p, "plane"))
            return fail(p, p->pos, "expected 'plane'");
        c->op = SH_CLIP_PLANE;
        if (!integer(p, &c->i[0], 0, 7, "clip plane"))
            return false;
        if (c->i[0] >= US_MAX_CLIP_PLANES)
            set_skip(p, "clip plane %d: the model has %d (GL_MAX_CLIP_PLANES)",
                     c->i[0], US_MAX_CLIP_PLANES);
        return numbers(p, c->f, 4, "plane coefficient");
    }
    if (kw(p, "frustum")) {
        c->op = SH_FRUSTUM;
        return numbers(p, c->f, 6, "frustum bound");
    }
    if (kw(p, "parameter")) {
        static const char *const kinds[] = {
            [SH_ENV_VP] = "env_vp", [SH_LOCAL_VP] = "local_vp",
            [SH_ENV_FP] = "env_fp", [SH_LOCAL_FP] = "local_fp",
        };
        int k;
        c->op = SH_PARAMETER;
        if (!keyword_of(p, kinds, 4, &k, "parameter kind"))
            return false;
        c->sub = (uint8_t)k;
        int max = k == SH_ENV_VP || k == SH_ENV_FP ? US_MAX_ENV_PARAMS
                                                    : US_MAX_LOCAL_PARAMS;
        return integer(p, &c->i[0], 0, max - 1, "parameter index") &&
               tuple(p, c->f, 4, "parameter component");
    }
    if (kw(p, "relative")) {
        if (!kw(p, "probe"))
            return fail(p, p->pos, "expected 'probe' after 'relative'");
        return parse_probe(p, c, true);
    }
    if (kw(p, "probe"))
        return parse_probe(p, c, false);
    if (kw(p, "texture"))
        return parse_texture(p, c);
    if (kw(p, "texparameter"))
        return parse_texparameter(p, c);
    bool on = kw(p, "enable");
    if (on || kw(p, "disable")) {
        c->op = SH_ENABLE;
        c->i[0] = on;
        ws(p);
        size_t at = p->pos;
        if (kw(p, "GL_DEPTH_TEST"))
            c->sub = SH_CAP_DEPTH_TEST;
        else if (kw(p, "GL_VERTEX_PROGRAM_TWO_SIDE"))
            c->sub = SH_CAP_TWO_SIDE;
        else if (!strncmp(p->buf + at, "GL_CLIP_PLANE", 13) &&
                 p->buf[at + 13] >= '0' &&
                 p->buf[at + 13] < '0' + US_MAX_CLIP_DISTANCES &&
                 !ident_char(p->buf[at + 14])) {
            c->sub = SH_CAP_CLIP_PLANE;
            c->i[1] = p->buf[at + 13] - '0';
            p->pos = at + 14;
        } else if (p->buf[at] == 'G' && p->buf[at + 1] == 'L' &&
                 p->buf[at + 2] == '_') {
            while (ident_char(p->buf[p->pos]))
                p->pos++;
            set_skip(p, "%s %.*s is not modelled", on ? "enable"
                     : "disable", (int)(p->pos - at), p->buf + at);
            return true;
        } else {
            return fail(p, at, "expected a GL_ capability name");
        }
        return true;
    }
    if (kw(p, "compute"))
        return parse_compute(p, c);
    if (kw(p, "ssbo"))
        return parse_ssbo(p, c);
    if (kw(p, "atomic"))
        return parse_atomic(p, c);
    if (kw(p, "image")) {
        /* image texture N FORMAT binds image unit N, which only image
         * variables read; the translator refuses those */
        if (!kw(p, "texture")) {
            set_skip(p, "shader_runner command 'image' needs images "
                     "(GL_ARB_shader_image_load_store), which the model "
                     "lacks");
            return true;
        }
        ws(p);
        while (p->buf[p->pos] && p->buf[p->pos] != '#')
            p->pos++;
        c->op = SH_NOP;
        return true;
    }
    if (kw(p, "memory")) {
        /* glMemoryBarrier: every access takes effect as it executes */
        if (!kw(p, "barrier"))
            return fail(p, p->pos, "expected 'barrier'");
        ws(p);
        while (ident_char(p->buf[p->pos]))
            p->pos++;
        c->op = SH_NOP;
        return true;
    }
    if (kw(p, "tolerance")) {
        c->op = SH_TOLERANCE;
        return numbers(p, c->f, 4, "tolerance");
    }
    if (kw(p, "link")) {
        if (kw(p, "success")) {
            c->op = SH_NOP;  /* ARB programs that assemble are in use */
            return true;
        }
        if (kw(p, "error")) {
            set_skip(p, "'link error' tests GLSL linking");
            return true;
        }
        return fail(p, p->pos, "expected 'success' or 'error'");
    }
    if (kw(p, "shade")) {
        if (!kw(p, "model"))
            return fail(p, p->pos, "expected 'model'");
        bool flat = kw(p, "flat");
        if (flat || kw(p, "smooth")) {
            c->op = SH_ENABLE;   /* glShadeModel */
            c->sub = SH_CAP_FLAT_SHADE;
            c->i[0] = flat;
            return true;
        }
        return fail(p, p->pos, "expected 'smooth' or 'flat'");
    }
    ws(p);
    size_t at = p->pos, e = at;
    while (ident_char(p->buf[e]))
        e++;
    for (size_t i = 0; i < sizeof foreign_commands / sizeof *foreign_commands; i++)
        if (e - at == strlen(foreign_commands[i].name) &&
            !strncmp(p->buf + at, foreign_commands[i].name, e - at)) {
            if (foreign_commands[i].why)
                set_skip(p, "shader_runner command '%.*s' %s", (int)(e - at),
                         p->buf + at, foreign_commands[i].why);
            else
                set_skip(p, "shader_runner command '%.*s' is not modelled",
                         (int)(e - at), p->buf + at);
            return true;
        }
    return fail(p, at, "unknown command '%.*s'", (int)(e > at ? e - at : 1),
                p->buf + at);
}

/* ---- [require] ------------------------------------------------------- */

static bool have_extension(const char *name, size_t n)
{
    for (size_t i = 0; i < sizeof extensions / sizeof *extensions; i++)
        if (strlen(extensions[i]) == n && !strncmp(extensions[i], name, n))
            return true;
    return false;
}

/* "GL [ES] OP MAJOR.MINOR" or "GLSL [ES] OP MAJOR.MINOR"
 * (shader_runner's parse_version_comparison). */
static bool parse_gl_version(struct parser *p, bool glsl)
{
    bool es = kw(p, "ES");
    ws(p);
    size_t at = p->pos;
    const char *s = p->buf + at;
    int op;  /* 0 ==, 1 !=, 2 <, 3 >=, 4 >, 5 <= */
    if (s[0] == '=' && s[1] == '=') op = 0, p->pos += 2;
    else if (s[0] == '!' && s[1] == '=') op = 1, p->pos += 2;
    else if (s[0] == '<' && s[1] == '=') op = 5, p->pos += 2;
    else if (s[0] == '>' && s[1] == '=') op = 3, p->pos += 2;
    else if (s[0] == '<') op = 2, p->pos += 1;
    else if (s[0] == '>') op = 4, p->pos += 1;
    else
        return fail(p, at, "expected a comparison (>=, >, ==, !=, <, <=)");
    ws(p);
    at = p->pos;
    s = p->buf + at;
    char *e;
    long major = strtol(s, &e, 10);
    if (e == s || *e != '.' || !isdigit((unsigned char)e[1]) || major < 0 ||
        major > 99)
        return fail(p, at, "expected a version MAJOR.MINOR");
    const char *m = e + 1;
    long minor = strtol(m, &e, 10);
    if (minor < 0 || minor > 99 || e - m > 2)
        return fail(p, (size_t)(m - p->buf), "bad minor version");
    p->pos = (size_t)(e - p->buf);
    if (!end_of_command(p))
        return false;
    if (es) {
        set_skip(p, glsl ? "requires GLSL ES" : "requires OpenGL ES");
        return true;
    }
    int want = (int)(glsl ? major * 100 + minor : major * 10 + minor);
    int have = glsl ? MODEL_GLSL_VERSION : MODEL_GL_VERSION;
    if (glsl && (op == 0 || op == 3) && (unsigned)want > p->t->glsl_version)
        p->t->glsl_version = (unsigned)want;
    bool ok = op == 0 ? have == want : op == 1 ? have != want
            : op == 2 ? have < want : op == 3 ? have >= want
            : op == 4 ? have > want : have <= want;
    if (!ok && glsl)
        set_skip(p, "requires GLSL %ld.%02ld; the model takes GLSL up to "
                 "%d.%02d", major, minor, MODEL_GLSL_VERSION / 100,
                 MODEL_GLSL_VERSION % 100);
    else if (!ok)
        set_skip(p, "requires GL %ld.%ld; the model stands for GL %d.%d "
                 "(compatibility profile)", major, minor,
                 MODEL_GL_VERSION / 10, MODEL_GL_VERSION % 10);
    return true;
}

/* "GL_MAX_... OP N": the limits the model has; others are unknown. */
static bool parse_limit(struct parser *p)
{
    ws(p);
    size_t at = p->pos, e = at;
    while (ident_char(p->buf[e]))
        e++;
    long have = -1;
    for (size_t i = 0; i < sizeof limits / sizeof *limits; i++)
        if (strlen(limits[i].name) == e - at &&
            !strncmp(p->buf + at, limits[i].name, e - at))
            have = limits[i].value == VARYING_LIMIT
                   ? 4 * (long)p->varying_slots : limits[i].value;
    p->pos = e;
    ws(p);
    const char *s = p->buf + p->pos;
    int op;  /* 0 >=, 1 >, 2 <=, 3 <, 4 == */
    if (s[0] == '>' && s[1] == '=') op = 0, p->pos += 2;
    else if (s[0] == '<' && s[1] == '=') op = 2, p->pos += 2;
    else if (s[0] == '=' && s[1] == '=') op = 4, p->pos += 2;
    else if (s[0] == '>') op = 1, p->pos += 1;
    else if (s[0] == '<') op = 3, p->pos += 1;
    else
        op = -1;
    int want;
    if (have < 0 || op < 0) {
        set_skip(p, "requires %.*s, a limit the model does not report",
                 (int)(e - at), p->buf + at);
        return true;
    }
    if (!integer(p, &want, 0, 1 << 30, "limit") || !end_of_command(p))
        return false;
    bool ok = op == 0 ? have >= want : op == 1 ? have > want
            : op == 2 ? have <= want : op == 3 ? have < want : have == want;
    if (!ok)
        set_skip(p, "requires %.*s %s %d; the model has %ld", (int)(e - at),
                 p->buf + at, (const char *[]){ ">=", ">", "<=", "<",
                 "==" }[op], want, have);
    return true;
}

static bool parse_requirement(struct parser *p)
{
    ws(p);
    size_t at = p->pos;
    const char *s = p->buf + at;
    if (!*s || *s == '#')
        return true;
    if (kw(p, "GLSL"))
        return parse_gl_version(p, true);
    if (!strncmp(s, "GL_MAX_", 7))
        return parse_limit(p);
    bool not = *s == '!';
    if (!strncmp(s + not, "GL_", 3)) {
        size_t e = at + not;
        while (ident_char(p->buf[e]))
            e++;
        const char *name = p->buf + at + not;
        size_t n = e - at - not;
        p->pos = e;
        if (!end_of_command(p))
            return false;
        if (not && have_extension(name, n))
            set_skip(p, "requires that %.*s be absent", (int)n, name);
        else if (!not && !have_extension(name, n))
            set_skip(p, "requires %.*s, which the model does not provide",
                     (int)n, name);
        return true;
    }
    if (kw(p, "GL"))
        return parse_gl_version(p, false);
    if (kw(p, "SIZE")) {
        int w, h;
        if (!integer(p, &w, 1, GFX_MAX_VIEWPORT, "window width") ||
            !integer(p, &h, 1, GFX_MAX_VIEWPORT, "window height") ||
            !end_of_command(p))
            return false;
        p->t->width = (unsigned)w;
        p->t->height = (unsigned)h;
        return true;
    }
    return true;  /* shader_runner ignores other lines too */
}

/* ---- sections -------------------------------------------------------- */

enum section { SEC_NONE, SEC_REQUIRE, SEC_PROGRAM, SEC_TEST, SEC_FOREIGN,
               SEC_VDATA };

/* [vertex data]: "name/float/N" (or /vecN) columns, then rows. */
static bool parse_vdata(struct parser *p)
{
    struct shtest_vdata *v = &p->t->vdata;
    ws(p);
    if (!p->buf[p->pos] || p->buf[p->pos] == '#')
        return true;
    if (!p->vdata_header) {
        p->vdata_header = true;
        while (ws(p), p->buf[p->pos] && p->buf[p->pos] != '#') {
            size_t at = p->pos;
            if (v->ncols == SHTEST_MAX_VCOLS)
                return fail(p, at, "more than %d vertex data columns",
                            SHTEST_MAX_VCOLS);
            while (ident_char(p->buf[p->pos]))
                p->pos++;
            size_t name_len = p->pos - at;
            if (!name_len || p->buf[p->pos] != '/')
                return fail(p, at, "expected NAME/TYPE/COUNT");
            p->pos++;
            uint8_t type = kw(p, "float") ? SH_V_FLOAT
                         : kw(p, "int") ? SH_V_INT
                         : kw(p, "uint") ? SH_V_UINT : SH_V_NONE;
            if (type == SH_V_NONE) {
                size_t e = p->pos;
                while (ident_char(p->buf[e]))
                    e++;
                set_skip(p, "vertex data of type '%.*s' is not modelled",
                         (int)(e - p->pos), p->buf + p->pos);
                return true;
            }
            if (p->buf[p->pos] != '/')
                return fail(p, p->pos, "expected '/' and a component count");
            p->pos++;
            /* N, or the GLSL type: float int uint, vecN ivecN uvecN */
            static const char *const scalars[] = {
                [SH_V_FLOAT] = "float", [SH_V_INT] = "int",
                [SH_V_UINT] = "uint",
            };
            const char *c = p->buf + p->pos;
            size_t sl = strlen(scalars[type]);
            unsigned comps = 1;
            if (!strncmp(c, scalars[type], sl) && !ident_char(c[sl])) {
                c += sl;
            } else {
                if (!strncmp(c, "vec", 3))
                    c += 3;
                else if ((c[0] == 'i' || c[0] == 'u') &&
                         !strncmp(c + 1, "vec", 3))
                    c += 4;
                if (*c < '1' || *c > '4' || ident_char(c[1]))
                    return fail(p, p->pos, "expected a component count 1..4");
                comps = (unsigned)(*c++ - '0');
            }
            struct shtest_vcol *col = &v->col[v->ncols++];
            col->name_at = p->line_at + at;
            col->name_len = (unsigned)name_len;
            col->type = type;
            col->comps = comps;
            col->offset = v->stride;
            v->stride += col->comps;
            p->pos = (size_t)(c - p->buf);
        }
        return true;
    }
    if (!v->ncols)
        return fail(p, p->pos, "vertex data without columns");
    if (v->nrows == GFX_MAX_MESH_VERTS)
        return fail(p, 0, "more than %d vertices", GFX_MAX_MESH_VERTS);
    size_t need = ((size_t)v->nrows + 1) * v->stride;
    if (need > p->vdata_cap) {
        size_t cap = p->vdata_cap ? 2 * p->vdata_cap : 64 * v->stride;
        float *nv = realloc(v->values, cap * sizeof *nv);
        if (!nv)
            return fail(p, 0, "out of memory");
        v->values = nv;
        p->vdata_cap = cap;
    }
    float *row = v->values + (size_t)v->nrows * v->stride;
    for (unsigned k = 0; k < v->ncols; k++) {
        const struct shtest_vcol *col = &v->col[k];
        for (unsigned j = 0; j < col->comps; j++) {
            float *at = &row[col->offset + j];
            uint32_t bits;
            if (col->type == SH_V_FLOAT) {
                if (!number(p, at, "vertex data value"))
                    return false;
            } else if (!int_bits(p, &bits, "vertex data value")) {
                return false;
            } else {
                memcpy(at, &bits, sizeof bits);  /* an integer's bits */
            }
        }
    }
    if (!end_of_command(p))
        return false;
    v->nrows++;
    return true;
}

/* Load the current line (without its newline) into p->buf. */
static bool load_line(struct parser *p, const char *b, size_t n)
{
    p->pos = 0;
    if (n > SHTEST_MAX_LINE)
        return fail(p, SHTEST_MAX_LINE, "line longer than %d characters",
                    SHTEST_MAX_LINE);
    memcpy(p->buf, b, n);
    p->buf[n] = 0;
    return true;
}

static bool contains(const char *s, size_t n, const char *w)
{
    size_t k = strlen(w);
    for (size_t i = 0; i + k <= n; i++)
        if (!memcmp(s + i, w, k))
            return true;
    return false;
}

static bool section_header(struct parser *p, const char *b, size_t n,
                           enum section *sec)
{
    const char *close = memchr(b, ']', n);
    if (!close)
        return fail(p, n, "section name without a closing ']'");
    for (const char *c = close + 1; c < b + n; c++)
        if (!isspace((unsigned char)*c))
            return fail(p, (size_t)(c - b), "text after the section name");
    const char *name = b + 1;
    size_t len = (size_t)(close - name);
#define IS(s) (len == sizeof(s) - 1 && !memcmp(name, s, len))
    struct shtest *t = p->t;
    if (IS("require")) {
        *sec = SEC_REQUIRE;
        p->have_require = true;
    } else if (IS("vertex program") || IS("fragment program") ||
               IS("compute program") || IS("vertex shader") ||
               IS("fragment shader") || IS("compute shader")) {
        enum us_stage st = name[0] == 'v' ? US_STAGE_VERTEX
                         : name[0] == 'f' ? US_STAGE_FRAGMENT
                                          : US_STAGE_COMPUTE;
        struct shtest_source *src;
        if (name[len - 1] == 'm') {
            src = st == US_STAGE_VERTEX ? &t->vp
                : st == US_STAGE_FRAGMENT ? &t->fp : &t->cp;
            if (src->text)
                return fail(p, 0, "a second [%.*s] section", (int)len, name);
        } else {
            /* GLSL: several sections of a stage make one program */
            unsigned *k = &t->nsh[st];
            if (*k == SHTEST_MAX_SHADERS)
                return fail(p, 0, "more than %d [%.*s] sections",
                            SHTEST_MAX_SHADERS, (int)len, name);
            src = &t->sh[st][(*k)++];
            t->glsl = true;
        }
        *sec = SEC_PROGRAM;
        src->text = b + n < p->text + p->len ? b + n + 1 : b + n;
        src->len = 0;
        src->line = p->line + 1;
        p->open_src = src;
    } else if (IS("vertex shader passthrough")) {
        t->vs_passthrough = t->glsl = true;
        *sec = SEC_FOREIGN;
    } else if (IS("vertex data")) {
        if (p->vdata_header)
            return fail(p, 0, "a second [vertex data] section");
        *sec = SEC_VDATA;
    } else if (IS("test")) {
        *sec = SEC_TEST;
    } else if (contains(name, len, "shader") ||
               IS("geometry layout") || IS("elements")) {
        set_skip(p, "the [%.*s] section is not modelled (vertex and "
                 "fragment stages only)", (int)len, name);
        *sec = SEC_FOREIGN;
    } else {
        return fail(p, 1, "unknown section [%.*s]", (int)len, name);
    }
#undef IS
    return true;
}

void shtest_free(struct shtest *t)
{
    free(t->cmds);
    free(t->vdata.values);
    memset(t, 0, sizeof *t);
}

bool shtest_parse(struct shtest *t, const char *text, size_t len,
                  struct us_diag *diag)
{
    return shtest_parse_slots(t, text, len, 0, diag);
}

bool shtest_parse_slots(struct shtest *t, const char *text, size_t len,
                        unsigned varying_slots, struct us_diag *diag)
{
    memset(t, 0, sizeof *t);
    t->width = t->height = SHTEST_DEFAULT_SIZE;
    t->text = text;
    struct parser *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(diag->msg, sizeof diag->msg, "out of memory");
        diag->line = diag->col = 0;
        return false;
    }
    p->text = text;
    p->len = len;
    p->t = t;
    p->diag = diag;
    p->varying_slots = varying_slots && varying_slots <= US_MAX_VARYINGS
                       ? varying_slots : US_VARYING_SLOTS_DEFAULT;
    enum section sec = SEC_NONE;
    bool ok = true;
    size_t at = 0;
    for (p->line = 1; ok && at < len; p->line++) {
        const char *b = text + at;
        const char *nl = memchr(b, '\n', len - at);
        size_t n = nl ? (size_t)(nl - b) : len - at;
        const char *nul = memchr(b, 0, n);
        if (nul) {
            ok = fail(p, (size_t)(nul - b), "NUL byte in the file");
            break;
        }
        at += n + (nl != NULL);
        if (sec != SEC_TEST && n && b[0] == '[') {
            /* a program section ends where the next section starts */
            if (p->open_src)
                p->open_src->len = (size_t)(b - p->open_src->text);
            p->open_src = NULL;
            ok = section_header(p, b, n, &sec);
            continue;
        }
        if (sec != SEC_REQUIRE && sec != SEC_TEST && sec != SEC_VDATA)
            continue;
        if (!(ok = load_line(p, b, n)))
            break;
        p->line_at = (size_t)(b - text);
        if (sec == SEC_REQUIRE) {
            ok = parse_requirement(p);
            continue;
        }
        if (sec == SEC_VDATA) {
            if (!t->skip[0])
                ok = parse_vdata(p);
            continue;
        }
        ws(p);
        if (!p->buf[p->pos] || p->buf[p->pos] == '#' || t->skip[0])
            continue;  /* blank, comment, or a skipped file's commands */
        if (t->ncmds == SHTEST_MAX_COMMANDS) {
            ok = fail(p, 0, "more than %d commands", SHTEST_MAX_COMMANDS);
            break;
        }
        if (t->ncmds == p->cap) {
            size_t cap = p->cap ? 2 * p->cap : 64;
            struct shtest_cmd *c = realloc(t->cmds, cap * sizeof *c);
            if (!c) {
                ok = fail(p, 0, "out of memory");
                break;
            }
            t->cmds = c;
            p->cap = cap;
        }
        struct shtest_cmd *c = &t->cmds[t->ncmds];
        ok = parse_command(p, c) && (t->skip[0] || end_of_command(p));
        if (ok && !t->skip[0])
            t->ncmds++;
    }
    if (ok && p->open_src)
        p->open_src->len = (size_t)(text + len - p->open_src->text);
    if (ok && t->glsl && (t->vp.text || t->fp.text || t->cp.text))
        set_skip(p, "mixes assembly programs with GLSL shaders");
    /* one program object: GL links no compute shader with graphics ones */
    bool compute = t->cp.text || t->nsh[US_STAGE_COMPUTE];
    if (ok && compute && (t->vp.text || t->fp.text || t->vs_passthrough ||
                          t->nsh[US_STAGE_VERTEX] ||
                          t->nsh[US_STAGE_FRAGMENT])) {
        p->line = 1;
        ok = fail(p, 0, "a compute program cannot be linked with vertex or "
                  "fragment stages");
    }
    if (ok && !p->have_require) {
        p->line = 1;  /* shader_runner fails such files too */
        ok = fail(p, 0, "no [require] section");
    }
    free(p);
    if (!ok)
        shtest_free(t);
    return ok;
}
