/*
 * The GLSL front step: legacy shaders (GLSL ES 1.00, GLSL 1.10, 1.20)
 * rewritten into the GLSL 3.30 that glslangValidator's OpenGL SPIR-V path
 * accepts (docs/GLSL.md says what changes and why).
 *
 * The rewrite works on tokens, not on raw text: comments are copied as
 * they are (GLSL has no strings), identifiers are looked at one by one,
 * and a declaration with `attribute` or `varying` is parsed whole and
 * re-emitted with an explicit location.  Every source line keeps its
 * number: the output opens with `#version 330` and the added declarations,
 * then `#line 1` (GLSL 3.30 3.3: the next line is line 1) and the source,
 * whose old #version line is left blank, so glslang's messages point into
 * the user's file.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ushader.h"

/* ---- output buffers -------------------------------------------------- */

struct buf {
    char *p;
    size_t n, cap;
    bool oom;
};

static void put(struct buf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (b->n + n + 1 > cap)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

static void puts_(struct buf *b, const char *s)
{
    put(b, s, strlen(s));
}

static void putf(struct buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void putf(struct buf *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        put(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* ---- tokens ---------------------------------------------------------- */

enum tok_kind { T_EOF, T_WS, T_COMMENT, T_DIRECTIVE, T_IDENT, T_NUMBER,
                T_PUNCT };

struct tok {
    enum tok_kind kind;
    size_t at, len;
    unsigned line, col;
};

/* The lexer's position; copied to look ahead and restored. */
struct cursor {
    size_t pos;
    unsigned line, col;
    bool line_start;     /* only blanks since the last newline */
};

enum { MAX_DECLARED = 96, FIRST_BUILTIN_LOCATION = 16 };

/* A legacy shadow lookup being rewritten (tex_funcs). */
struct shadow_call {
    int close;            /* the depth whose ')' closes it               */
    unsigned commas;      /* its arguments' commas so far                */
    bool one_d, lod;      /* shadow1D*: an int offset; *Lod: no bias     */
    bool marked;          /* the offset argument is written              */
};

struct front {
    const char *s;
    size_t n;
    struct cursor c;
    enum us_stage stage;
    struct us_glsl_link *link;
    struct us_diag *diag;
    struct buf out;        /* the rewritten body                         */
    struct buf decls;      /* declarations the body needs                */
    const struct us_glsl_builtin *declared[MAX_DECLARED];
    unsigned ndeclared;
    bool struct_declared[US_GLSL_S_COUNT];
    bool const_declared[4];
    unsigned next_location;   /* built-in inputs and outputs             */
    int depth;                /* parentheses open                        */
    struct shadow_call shadow[16];   /* open ones, innermost last     */
    bool do_pending;          /* `do` seen, its body not yet started     */
    int do_close[16];         /* depths whose ';' ends a braced do body  */
    unsigned ndo;
    unsigned nshadow;
    bool stmt_start;          /* the last token ended a statement        */
    unsigned version;         /* 100 ... 150; 0 without #version        */
    bool color_out;           /* a 1.30 fragment output declared        */
};

static bool fail(struct front *f, const struct tok *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool fail(struct front *f, const struct tok *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->diag->msg, sizeof f->diag->msg, fmt, ap);
    va_end(ap);
    f->diag->line = t ? t->line : f->c.line;
    f->diag->col = t ? t->col : f->c.col;
    return false;
}

static bool ident_start(char c)
{
    return isalpha((unsigned char)c) || c == '_';
}

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

static void advance(struct front *f, size_t k)
{
    for (size_t i = 0; i < k && f->c.pos < f->n; i++) {
        char ch = f->s[f->c.pos++];
        if (ch == '\n') {
            f->c.line++;
            f->c.col = 1;
            f->c.line_start = true;
        } else {
            f->c.col++;
            if (ch != ' ' && ch != '\t' && ch != '\r' && ch != '\f' &&
                ch != '\v')
                f->c.line_start = false;
        }
    }
}

/* The next raw token (blanks and comments included). */
static void lex(struct front *f, struct tok *t)
{
    const char *s = f->s;
    size_t p = f->c.pos, n = f->n, e = p;
    t->at = p;
    t->line = f->c.line;
    t->col = f->c.col;
    if (p >= n) {
        t->kind = T_EOF;
        t->len = 0;
        return;
    }
    char ch = s[p];
    if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\f' ||
        ch == '\v') {
        t->kind = T_WS;
        while (e < n && (s[e] == ' ' || s[e] == '\t' || s[e] == '\r' ||
                         s[e] == '\n' || s[e] == '\f' || s[e] == '\v'))
            e++;
    } else if (ch == '/' && p + 1 < n && s[p + 1] == '/') {
        t->kind = T_COMMENT;
        while (e < n && s[e] != '\n')
            e++;
    } else if (ch == '/' && p + 1 < n && s[p + 1] == '*') {
        t->kind = T_COMMENT;
        e = p + 2;
        while (e + 1 < n && !(s[e] == '*' && s[e + 1] == '/'))
            e++;
        e = e + 1 < n ? e + 2 : n;
    } else if (ch == '#' && f->c.line_start) {
        t->kind = T_DIRECTIVE;
        while (e < n && s[e] != '\n')
            e++;
    } else if (ident_start(ch)) {
        t->kind = T_IDENT;
        while (e < n && ident_char(s[e]))
            e++;
    } else if (isdigit((unsigned char)ch) ||
               (ch == '.' && p + 1 < n && isdigit((unsigned char)s[p + 1]))) {
        t->kind = T_NUMBER;
        while (e < n && (ident_char(s[e]) || s[e] == '.' ||
                         ((s[e] == '+' || s[e] == '-') &&
                          (s[e - 1] == 'e' || s[e - 1] == 'E'))))
            e++;
    } else {
        t->kind = T_PUNCT;
        e = p + 1;
    }
    t->len = e - p;
    advance(f, t->len);
}

/* The next token that is not a blank or a comment; *newlines counts the
 * line breaks skipped (so a rewrite can keep them). */
static void lex_sig(struct front *f, struct tok *t, unsigned *newlines)
{
    for (;;) {
        unsigned before = f->c.line;
        lex(f, t);
        if (newlines)
            *newlines += f->c.line - before;
        if (t->kind != T_WS && t->kind != T_COMMENT)
            return;
    }
}

static bool is_punct(const struct front *f, const struct tok *t, char c)
{
    return t->kind == T_PUNCT && f->s[t->at] == c;
}

static void copy(struct front *f, const struct tok *t)
{
    put(&f->out, f->s + t->at, t->len);
}

static void newlines(struct buf *b, unsigned k)
{
    for (unsigned i = 0; i < k; i++)
        put(b, "\n", 1);
}

/* ---- the link table -------------------------------------------------- */

void us_glsl_link_init(struct us_glsl_link *link)
{
    memset(link, 0, sizeof *link);
    us_glsl_link_slots(link, US_VARYING_SLOTS_DEFAULT);
}

void us_glsl_link_slots(struct us_glsl_link *link, unsigned slots)
{
    if (!slots || slots > US_GLSL_VARYING_SLOTS)
        slots = US_VARYING_SLOTS_DEFAULT;
    link->slots = link->floor = slots;
}

static const struct us_glsl_slot *find_slot(const struct us_glsl_slot *v,
                                            unsigned n, const char *name)
{
    for (unsigned i = 0; i < n; i++)
        if (!strcmp(v[i].name, name))
            return &v[i];
    return NULL;
}

const struct us_glsl_slot *us_glsl_link_varying(const struct us_glsl_link *l,
                                                const char *name)
{
    return find_slot(l->varying, l->nvaryings, name);
}

const struct us_glsl_slot *us_glsl_link_attrib(const struct us_glsl_link *l,
                                               const char *name)
{
    return find_slot(l->attrib, l->nattribs, name);
}

/* Generic attribute a conventional one aliases (ARB_vertex_program
 * table X.2), or -1. */
static int alias_of(unsigned vin)
{
    if (vin >= US_VIN_TEXCOORD0 && vin < US_VIN_COUNT)
        return 8 + (int)(vin - US_VIN_TEXCOORD0);
    if (vin >= US_VIN_POSITION && vin <= US_VIN_FOGCOORD)
        return (int)(vin - US_VIN_POSITION);
    return -1;
}

/* ---- built-ins ------------------------------------------------------- */

/* Core GLSL 3.30 names that stay as they are (glslang declares them). */
static const char *const core_names[] = {
    "gl_Position", "gl_PointSize", "gl_ClipDistance", "gl_VertexID",
    "gl_InstanceID", "gl_FragCoord", "gl_FrontFacing", "gl_PointCoord",
    "gl_FragDepth", "gl_MaxVertexAttribs", "gl_MaxVertexUniformComponents",
    "gl_MaxVaryingFloats", "gl_MaxVaryingComponents",
    "gl_MaxVertexTextureImageUnits", "gl_MaxCombinedTextureImageUnits",
    "gl_MaxTextureImageUnits", "gl_MaxFragmentUniformComponents",
    "gl_MaxDrawBuffers", "gl_MaxClipDistances",
};

/* Compatibility-profile constants (GLSL 1.20 7.4) with the model's
 * values (include/ushader.h limits). */
static const struct { const char *name; int value; } compat_consts[4] = {
    { "gl_MaxLights", US_MAX_LIGHTS },
    { "gl_MaxClipPlanes", US_MAX_CLIP_PLANES },
    { "gl_MaxTextureUnits", US_MAX_TEX_UNITS },
    { "gl_MaxTextureCoords", US_MAX_TEX_COORDS },
};

/* Declare built-in b once, with interpolation qualifier `interp` ("flat ",
 * NULL for none). */
static void declare_as(struct front *f, const struct us_glsl_builtin *b,
                       const char *interp)
{
    for (unsigned i = 0; i < f->ndeclared; i++)
        if (f->declared[i] == b)
            return;
    if (f->ndeclared < MAX_DECLARED)
        f->declared[f->ndeclared++] = b;
    if (b->bind == US_GLSL_STRUCT && b->struct_type < US_GLSL_S_COUNT &&
        !f->struct_declared[b->struct_type]) {
        char text[1024];
        size_t k = us_glsl_struct_text(b->struct_type, text, sizeof text);
        if (k < sizeof text)
            puts_(&f->decls, text);
        f->struct_declared[b->struct_type] = true;
    }
    if (b->bind == US_GLSL_IN || b->bind == US_GLSL_OUT) {
        /* gl_FragColor is fragment output 0; the others are matched by
         * name and only need locations of their own */
        bool color = f->stage == US_STAGE_FRAGMENT &&
                     b->bind == US_GLSL_OUT && b->slot == US_FOUT_COLOR;
        unsigned loc = color ? 0 : f->next_location;
        if (!color)
            f->next_location += b->array ? b->array : 1;
        putf(&f->decls, "layout(location=%u) ", loc);
    }
    if (interp)
        puts_(&f->decls, interp);
    putf(&f->decls, "%s %s", b->decl, b->name);
    if (b->array)
        putf(&f->decls, "[%u]", b->array);
    puts_(&f->decls, ";\n");
}

static void declare(struct front *f, const struct us_glsl_builtin *b)
{
    declare_as(f, b, NULL);
}

/* Rewrite identifier gl_X at *t (the tokens after it may be consumed). */
static bool builtin(struct front *f, const struct tok *t)
{
    char name[US_MAX_NAME];
    if (t->len >= US_MAX_NAME - 3)
        return fail(f, t, "identifier '%.*s' is too long", (int)t->len,
                    f->s + t->at);
    memcpy(name, f->s + t->at, t->len);
    name[t->len] = 0;

    if (!strcmp(name, "gl_FragData") || !strcmp(name, "gl_TexCoord")) {
        /* a constant index is looked at: gl_FragData[0] is gl_FragColor,
         * gl_TexCoord[i] reserves slots 0..i */
        struct cursor save = f->c;
        struct tok a, b, c;
        unsigned nl = 0;
        lex_sig(f, &a, &nl);
        lex_sig(f, &b, &nl);
        lex_sig(f, &c, &nl);
        long idx = -1;
        if (is_punct(f, &a, '[') && b.kind == T_NUMBER &&
            is_punct(f, &c, ']')) {
            char *e;
            idx = strtol(f->s + b.at, &e, 0);
            if (e != f->s + b.at + b.len)
                idx = -1;
        }
        if (name[3] == 'F') {
            if (idx != 0)
                return fail(f, t, "only gl_FragData[0] is available: the "
                            "model has one colour buffer");
            const struct us_glsl_builtin *fc =
                us_glsl_builtin_lookup("us_gl_FragColor", f->stage);
            if (!fc)
                return fail(f, t, "gl_FragData in a vertex shader");
            declare(f, fc);
            puts_(&f->out, "us_gl_FragColor");
            newlines(&f->out, nl);
            return true;
        }
        f->c = save;
        unsigned need = idx >= 0 && idx < US_MAX_TEX_COORDS
                        ? (unsigned)idx + 1 : US_MAX_TEX_COORDS;
        if (need > f->link->texcoords)
            f->link->texcoords = need;
        if (f->link->floor < f->link->texcoords)
            return fail(f, t, "gl_TexCoord[%u] overlaps the user varyings: "
                        "together they need more than the %u vec4 varying "
                        "slots (knob varying_slots)", need - 1,
                        f->link->slots);
    }

    char us[US_MAX_NAME + 3];
    snprintf(us, sizeof us, "us_%s", name);
    const struct us_glsl_builtin *b = us_glsl_builtin_lookup(us, f->stage);
    if (b && b->decl) {
        declare(f, b);
        puts_(&f->out, us);
        return true;
    }
    if (us_glsl_builtin_lookup(name, f->stage)) {
        copy(f, t);
        return true;
    }
    for (size_t i = 0; i < sizeof core_names / sizeof *core_names; i++)
        if (!strcmp(name, core_names[i])) {
            copy(f, t);
            return true;
        }
    for (unsigned k = 1; k < US_GLSL_S_COUNT; k++)
        if (!strcmp(us, us_glsl_struct_name(k))) {
            /* a built-in struct type named by the shader */
            if (!f->struct_declared[k]) {
                char text[1024];
                if (us_glsl_struct_text(k, text, sizeof text) < sizeof text)
                    puts_(&f->decls, text);
                f->struct_declared[k] = true;
            }
            puts_(&f->out, us);
            return true;
        }
    for (unsigned i = 0; i < 4; i++)
        if (!strcmp(name, compat_consts[i].name)) {
            if (!f->const_declared[i])
                putf(&f->decls, "const int %s = %d;\n", us,
                     compat_consts[i].value);
            f->const_declared[i] = true;
            puts_(&f->out, us);
            return true;
        }
    if (us_glsl_builtin_lookup(us, f->stage == US_STAGE_VERTEX
                                   ? US_STAGE_FRAGMENT : US_STAGE_VERTEX))
        return fail(f, t, "'%s' is not available in a %s shader", name,
                    f->stage == US_STAGE_VERTEX ? "vertex" : "fragment");
    return fail(f, t, "unknown built-in '%s' (docs/GLSL.md lists the "
                "accepted ones)", name);
}

/* ---- texture functions ----------------------------------------------- */

/* GLSL 1.20 8.7 lookups and their GLSL 3.30 overloads.  Shadow lookups
 * return a float now; the vec4 GLSL 1.20 returns is the one the
 * texture's depth mode makes (GL 2.1 §3.8.14), so shadow2D(s, p[, b])
 * becomes vec4(textureOffset(s, p, ivec2(0)[, b])): the translator takes
 * a zero offset on a shadow lookup, widened by vec4(), for the whole
 * vec4 the sampler returns. */
static const struct { const char *old, *now; bool shadow; } tex_funcs[] = {
    { "texture1D", "texture", false }, { "texture2D", "texture", false },
    { "texture3D", "texture", false }, { "textureCube", "texture", false },
    { "texture2DRect", "texture", false },
    { "texture1DProj", "textureProj", false },
    { "texture2DProj", "textureProj", false },
    { "texture3DProj", "textureProj", false },
    { "texture2DRectProj", "textureProj", false },
    { "texture1DLod", "textureLod", false },
    { "texture2DLod", "textureLod", false },
    { "texture3DLod", "textureLod", false },
    { "textureCubeLod", "textureLod", false },
    { "texture1DProjLod", "textureProjLod", false },
    { "texture2DProjLod", "textureProjLod", false },
    { "texture3DProjLod", "textureProjLod", false },
    { "shadow1D", "texture", true }, { "shadow2D", "texture", true },
    { "shadow2DRect", "texture", true },
    { "shadow1DProj", "textureProj", true },
    { "shadow2DProj", "textureProj", true },
    { "shadow2DRectProj", "textureProj", true },
    { "shadow1DLod", "textureLod", true },
    { "shadow2DLod", "textureLod", true },
    { "shadow1DProjLod", "textureProjLod", true },
    { "shadow2DProjLod", "textureProjLod", true },
};

/* ---- declarations with attribute / varying --------------------------- */

/* vec4 slots of one value of a type: matrices (matN, matNxM with N, M
 * in 2..4) take a slot per column; anything else one (a name that is no
 * type is glslang's to refuse). */
static unsigned type_slots(const char *type)
{
    if (strncmp(type, "mat", 3) || type[3] < '2' || type[3] > '4')
        return 1;
    if (!type[4] ||
        (type[4] == 'x' && type[5] >= '2' && type[5] <= '4' && !type[6]))
        return (unsigned)(type[3] - '0');
    return 1;
}

/* A word that may begin a declaration of an input or output: GLSL 1.30
 * added in and out for globals (and made the interpolation qualifiers
 * keywords). */
static bool qualifier(const struct front *f, const char *w)
{
    static const char *const q[] = { "attribute", "varying", "invariant",
                                     "centroid", "lowp", "mediump", "highp",
                                     "flat", "smooth", "noperspective" };
    for (size_t i = 0; i < sizeof q / sizeof *q; i++)
        if (!strcmp(w, q[i]))
            return true;
    return f->version >= 130 && f->depth == 0 &&
           (!strcmp(w, "in") || !strcmp(w, "out"));
}

static void word(const struct front *f, const struct tok *t, char *out,
                 size_t size)
{
    size_t k = t->len < size - 1 ? t->len : size - 1;
    memcpy(out, f->s + t->at, k);
    out[k] = 0;
}

static bool take_varying(struct front *f, const struct tok *at,
                         const char *name, unsigned slots, unsigned *loc)
{
    struct us_glsl_link *l = f->link;
    const struct us_glsl_slot *s = us_glsl_link_varying(l, name);
    if (s) {
        if (s->count != slots)
            return fail(f, at, "varying '%s' takes %u vec4 slots here but "
                        "%u in the other stage", name, slots, s->count);
        *loc = s->first;
        return true;
    }
    if (slots > l->floor || l->floor - slots < l->texcoords ||
        l->nvaryings == US_GLSL_VARYING_SLOTS)
        return fail(f, at, "varying '%s' does not fit: the varyings%s need "
                    "more than the %u vec4 varying slots (knob "
                    "varying_slots)", name,
                    l->texcoords ? " and gl_TexCoord[]" : "", l->slots);
    l->floor -= slots;
    struct us_glsl_slot *n = &l->varying[l->nvaryings++];
    snprintf(n->name, sizeof n->name, "%s", name);
    n->first = (uint8_t)l->floor;
    n->count = (uint8_t)slots;
    *loc = l->floor;
    return true;
}

static bool take_attrib(struct front *f, const struct tok *at,
                        const char *name, unsigned slots, unsigned *loc)
{
    struct us_glsl_link *l = f->link;
    const struct us_glsl_slot *s = us_glsl_link_attrib(l, name);
    if (s) {
        *loc = s->first;
        return true;
    }
    if (slots > 4)
        return fail(f, at, "attribute '%s' is an array (GLSL 1.20 4.3.3 "
                    "allows none)", name);
    /* piglit's draw commands feed piglit_vertex as attribute 0, the
     * position; other attributes avoid 0 and the conventional aliases */
    int first = -1;
    if (!strcmp(name, "piglit_vertex") && slots == 1) {
        first = 0;
    } else {
        for (unsigned a = 1; a + slots <= US_GLSL_ATTRIB_SLOTS; a++) {
            uint32_t m = ((1u << slots) - 1) << a;
            if (!(l->attribs_taken & m)) {
                first = (int)a;
                break;
            }
        }
    }
    if (first < 0 || l->nattribs == US_GLSL_ATTRIB_SLOTS)
        return fail(f, at, "attribute '%s' does not fit in the %d generic "
                    "attributes", name, US_GLSL_ATTRIB_SLOTS);
    l->attribs_taken |= ((1u << slots) - 1) << first;
    struct us_glsl_slot *n = &l->attrib[l->nattribs++];
    snprintf(n->name, sizeof n->name, "%s", name);
    n->first = (uint8_t)first;
    n->count = (uint8_t)slots;
    *loc = (unsigned)first;
    return true;
}

/* An optional "[N]" at tk[*i] with N a literal in 1..8 (varying and
 * attribute arrays cannot be larger), or gl_MaxClipDistances (8). */
static bool array_size(struct front *f, const struct tok *tk, unsigned nt,
                       unsigned *i, unsigned *count)
{
    if (*i >= nt || !is_punct(f, &tk[*i], '['))
        return true;
    if (*i + 2 < nt && tk[*i + 1].kind == T_IDENT &&
        tk[*i + 1].len == 19 &&
        !memcmp(f->s + tk[*i + 1].at, "gl_MaxClipDistances", 19) &&
        is_punct(f, &tk[*i + 2], ']')) {
        /* gl_ClipDistance sized to the maximum (GLSL 1.30 7.1) */
        *count = US_MAX_CLIP_DISTANCES;
        *i += 3;
        return true;
    }
    char *e = NULL;
    long v = *i + 2 < nt && tk[*i + 1].kind == T_NUMBER
             ? strtol(f->s + tk[*i + 1].at, &e, 0) : -1;
    if (v <= 0 || v > (long)f->link->slots ||
        e != f->s + tk[*i + 1].at + tk[*i + 1].len ||
        !is_punct(f, &tk[*i + 2], ']'))
        return fail(f, &tk[*i], "expected '[' SIZE ']' with a literal size "
                    "of 1..%u (knob varying_slots)", f->link->slots);
    *count = (unsigned)v;
    *i += 3;
    return true;
}

enum { MAX_DECL_TOKENS = 128 };

/* A GLSL 1.30 fragment shader's `out T name;`: the colour, location 0
 * (the model has one colour buffer, so one output). */
static bool fragment_output(struct front *f, const struct tok *tk,
                            unsigned nt, unsigned q, unsigned nl)
{
    if (q + 2 >= nt || tk[q].kind != T_IDENT || tk[q + 1].kind != T_IDENT ||
        !is_punct(f, &tk[q + 2], ';'))
        return fail(f, &tk[q < nt ? q : nt - 1], "expected one fragment "
                    "output: out TYPE NAME;");
    if (f->color_out)
        return fail(f, &tk[q + 1], "a second fragment output: the model has "
                    "one colour buffer");
    f->color_out = true;
    char type[US_MAX_NAME], name[US_MAX_NAME];
    word(f, &tk[q], type, sizeof type);
    word(f, &tk[q + 1], name, sizeof name);
    putf(&f->out, "layout(location=0) out %s %s; ", type, name);
    newlines(&f->out, nl);
    f->stmt_start = true;
    return true;
}

/*
 * At a statement start: a declaration whose qualifiers include attribute
 * or varying becomes one declaration per declarator with its location.
 *   decl := qualifier+ type declarator (',' declarator)* ';'
 *   declarator := IDENT ('[' NUMBER ']')?
 * Returns false with *handled unset when the statement is something else.
 */
static bool declaration(struct front *f, const struct tok *first,
                        bool *handled)
{
    *handled = false;
    struct cursor save = f->c;
    struct tok tk[MAX_DECL_TOKENS];
    unsigned nt = 0, nl = 0;
    tk[nt++] = *first;
    bool storage = false;
    for (;;) {
        if (nt == MAX_DECL_TOKENS) {
            f->c = save;
            return true;
        }
        lex_sig(f, &tk[nt], &nl);
        struct tok *t = &tk[nt++];
        if (t->kind == T_EOF || t->kind == T_DIRECTIVE ||
            is_punct(f, t, '{') || is_punct(f, t, '}')) {
            f->c = save;
            return true;
        }
        if (is_punct(f, t, ';'))
            break;
    }
    unsigned q = 0;
    bool invariant = false, centroid = false, attribute = false;
    bool color = false;   /* a GLSL 1.30 fragment output */
    const char *interp = NULL;
    for (; q < nt && tk[q].kind == T_IDENT; q++) {
        char w[32];
        word(f, &tk[q], w, sizeof w);
        if (!qualifier(f, w))
            break;
        invariant |= !strcmp(w, "invariant");
        centroid |= !strcmp(w, "centroid");
        /* 1.30: a vertex input is an attribute, a fragment output the
         * colour, the others varyings */
        bool in = !strcmp(w, "in"), out = !strcmp(w, "out");
        attribute |= !strcmp(w, "attribute") ||
                     (in && f->stage == US_STAGE_VERTEX);
        color |= out && f->stage == US_STAGE_FRAGMENT;
        storage |= attribute || color || in || out ||
                   !strcmp(w, "varying");
        if (!strcmp(w, "flat") || !strcmp(w, "smooth") ||
            !strcmp(w, "noperspective")) {
            if (f->version < 130)
                return fail(f, &tk[q], "interpolation qualifier '%s' is not "
                            "GLSL 1.20", w);
            interp = !strcmp(w, "flat") ? "flat "
                     : !strcmp(w, "smooth") ? "smooth " : "noperspective ";
        }
    }
    if (!storage) {
        f->c = save;
        return true;
    }
    *handled = true;
    if (attribute && f->stage != US_STAGE_VERTEX)
        return fail(f, first, "'attribute' in a fragment shader");
    if (color)
        return fragment_output(f, tk, nt, q, nl);
    if (q >= nt || tk[q].kind != T_IDENT)
        return fail(f, &tk[q < nt ? q : nt - 1], "expected a type");
    char type[US_MAX_NAME];
    word(f, &tk[q], type, sizeof type);
    unsigned i = q + 1, type_count = 0;
    if (!array_size(f, tk, nt, &i, &type_count))  /* "mat2[3] m;" */
        return false;
    while (i < nt) {
        const struct tok *id = &tk[i];
        if (id->kind != T_IDENT)
            return fail(f, id, "expected a name in the declaration");
        char name[US_MAX_NAME];
        if (id->len >= US_MAX_NAME)
            return fail(f, id, "name too long");
        word(f, id, name, sizeof name);
        i++;
        unsigned count = type_count;
        if (!array_size(f, tk, nt, &i, &count))
            return false;
        if (i >= nt || (!is_punct(f, &tk[i], ',') && !is_punct(f, &tk[i], ';')))
            return fail(f, &tk[i], "expected ',' or ';' in the declaration");
        i++;
        if (!strncmp(name, "gl_", 3) && f->version >= 130 &&
            strcmp(name, "gl_TexCoord")) {
            /* GLSL 1.30 7.1: a built-in varying may be redeclared with an
             * interpolation qualifier, which its declaration keeps; an
             * explicit `smooth` on a fragment colour is a pragma as well
             * (SPIR-V has no Smooth decoration, and the colours of an
             * unqualified one follow the shade model); a core one
             * (gl_ClipDistance[n]) goes to glslang as it is */
            char us[US_MAX_NAME + 3];
            snprintf(us, sizeof us, "us_%s", name);
            const struct us_glsl_builtin *b =
                us_glsl_builtin_lookup(us, f->stage);
            if (!b || !b->decl) {
                f->c = save;
                *handled = false;
                return true;
            }
            bool fcolor = f->stage == US_STAGE_FRAGMENT &&
                          b->bind == US_GLSL_IN &&
                          (b->slot == US_FIN_COLOR0 || b->slot == US_FIN_COLOR1);
            if (fcolor && interp && !strcmp(interp, "smooth "))
                putf(&f->decls, "#pragma ushader_smooth %s\n", b->name);
            declare_as(f, b, interp && b->bind == US_GLSL_IN ? interp : NULL);
            continue;
        }
        if (!strncmp(name, "gl_", 3)) {
            /* a redeclared built-in: only gl_TexCoord's size may change */
            if (strcmp(name, "gl_TexCoord") || attribute)
                return fail(f, id, "cannot redeclare '%s'", name);
            const struct us_glsl_builtin *b =
                us_glsl_builtin_lookup("us_gl_TexCoord", f->stage);
            unsigned need = count ? count : US_MAX_TEX_COORDS;
            if (need > f->link->texcoords)
                f->link->texcoords = need;
            if (!b || f->link->floor < f->link->texcoords)
                return fail(f, id, "gl_TexCoord[%u] overlaps the user "
                            "varyings", need);
            declare(f, b);
            continue;
        }
        unsigned slots = type_slots(type) * (count ? count : 1), loc = 0;
        if (attribute ? !take_attrib(f, id, name, slots, &loc)
                      : !take_varying(f, id, name, slots, &loc))
            return false;
        putf(&f->out, "layout(location=%u) ", loc);
        if (invariant && f->stage == US_STAGE_VERTEX)
            puts_(&f->out, "invariant ");
        if (interp && !attribute)
            puts_(&f->out, interp);
        if (centroid)
            puts_(&f->out, "centroid ");
        puts_(&f->out, attribute || f->stage == US_STAGE_FRAGMENT ? "in "
                                                                   : "out ");
        putf(&f->out, "%s %s", type, name);
        if (count)
            putf(&f->out, "[%u]", count);
        puts_(&f->out, "; ");
    }
    newlines(&f->out, nl);
    f->stmt_start = true;
    return true;
}

/* `precision lowp float;` is dropped, keeping its line breaks. */
static void precision(struct front *f)
{
    struct tok t;
    unsigned nl = 0;
    do
        lex_sig(f, &t, &nl);
    while (t.kind != T_EOF && !is_punct(f, &t, ';'));
    newlines(&f->out, nl);
}

/* ftransform() (GLSL 1.20 8.5) is the fixed-function transform: the
 * model's position-invariant path computes MVP * position the same way. */
static bool ftransform(struct front *f, const struct tok *t)
{
    struct tok a, b;
    unsigned nl = 0;
    lex_sig(f, &a, &nl);
    lex_sig(f, &b, &nl);
    if (!is_punct(f, &a, '(') || !is_punct(f, &b, ')'))
        return fail(f, t, "ftransform takes no arguments");
    declare(f, us_glsl_builtin_lookup("us_gl_ModelViewProjectionMatrix",
                                      US_STAGE_VERTEX));
    declare(f, us_glsl_builtin_lookup("us_gl_Vertex", US_STAGE_VERTEX));
    puts_(&f->out, "(us_gl_ModelViewProjectionMatrix * us_gl_Vertex)");
    newlines(&f->out, nl);
    return true;
}

/* ---- identifiers and directives -------------------------------------- */

/* Words that GLSL 3.30 reserves but an older source may use as names
 * ("float mat4x2 = 1.0;" is valid GLSL 1.10): renamed us_id_WORD. */
static bool renamed(const struct front *f, const char *w)
{
    static const char *const since_130[] = {
        "flat", "smooth", "noperspective", "layout", "uint", "uvec2",
        "uvec3", "uvec4", "isampler1D", "isampler2D", "isampler3D",
        "isamplerCube", "usampler1D", "usampler2D", "usampler3D",
        "usamplerCube", "sampler1DArray", "sampler2DArray",
        "sampler1DArrayShadow", "sampler2DArrayShadow", "samplerCubeShadow",
        "isampler1DArray", "isampler2DArray", "usampler1DArray",
        "usampler2DArray", "samplerBuffer", "isamplerBuffer",
        "usamplerBuffer", "sampler2DMS", "isampler2DMS", "usampler2DMS",
        "sampler2DMSArray", "isampler2DMSArray", "usampler2DMSArray",
        "isampler2DRect", "usampler2DRect",
    };
    /* GLSL 1.20 keywords, and ES 1.00's precision words, which desktop
     * GLSL 1.10 does not have (a source without #version may be ES) */
    static const char *const since_120[] = {
        "mat2x2", "mat2x3", "mat2x4", "mat3x2", "mat3x3", "mat3x4",
        "mat4x2", "mat4x3", "mat4x4",
    };
    static const char *const not_110[] = {
        "centroid", "invariant", "lowp", "mediump", "highp", "precision",
    };
    for (size_t i = 0; f->version < 130 && i < sizeof since_130 /
                                               sizeof *since_130; i++)
        if (!strcmp(w, since_130[i]))
            return true;
    if (f->version == 0 || f->version == 110)
        for (size_t i = 0; i < sizeof since_120 / sizeof *since_120; i++)
            if (!strcmp(w, since_120[i]))
                return true;
    if (f->version == 110)
        for (size_t i = 0; i < sizeof not_110 / sizeof *not_110; i++)
            if (!strcmp(w, not_110[i]))
                return true;
    return false;
}

static bool identifier(struct front *f, const struct tok *t, bool in_directive)
{
    char w[US_MAX_NAME];
    word(f, t, w, sizeof w);
    if (renamed(f, w)) {
        f->stmt_start = false;
        putf(&f->out, "us_id_%s", w);
        return true;
    }
    if (!in_directive && f->stmt_start) {
        if (!strcmp(w, "precision")) {
            precision(f);
            return true;
        }
        if (qualifier(f, w)) {
            bool handled;
            if (!declaration(f, t, &handled))
                return false;
            if (handled)
                return true;
        }
    }
    f->stmt_start = false;
    if (!in_directive && !strcmp(w, "do")) {
        copy(f, t);
        f->do_pending = true;   /* do_body() sees the next token */
        f->stmt_start = true;
        return true;
    }
    if (!strcmp(w, "lowp") || !strcmp(w, "mediump") || !strcmp(w, "highp")) {
        for (size_t i = 0; i < t->len; i++)
            put(&f->out, " ", 1);  /* columns stay where they were */
        return true;
    }
    if (!strcmp(w, "attribute") || !strcmp(w, "varying"))
        return fail(f, t, "'%s' must start a global declaration", w);
    if (!strncmp(w, "gl_", 3))
        return builtin(f, t);
    if (!strcmp(w, "ftransform") && f->stage == US_STAGE_VERTEX)
        return ftransform(f, t);
    for (size_t i = 0; i < sizeof tex_funcs / sizeof *tex_funcs; i++)
        if (!strcmp(w, tex_funcs[i].old)) {
            if (tex_funcs[i].shadow) {
                if (in_directive || f->nshadow == 16)
                    return fail(f, t, "%s here is beyond the front step", w);
                /* the ')' closing this call's '(' closes the wrapper */
                f->shadow[f->nshadow].close = f->depth + 1;
                f->shadow[f->nshadow].commas = 0;
                f->shadow[f->nshadow].one_d = !strncmp(w, "shadow1D", 8);
                f->shadow[f->nshadow].lod = strstr(w, "Lod") != NULL;
                f->shadow[f->nshadow].marked = false;
                f->nshadow++;
                puts_(&f->out, "vec4(");
            }
            puts_(&f->out, tex_funcs[i].now);
            if (tex_funcs[i].shadow)
                puts_(&f->out, "Offset");
            return true;
        }
    copy(f, t);
    return true;
}

/* Does [s, end) hold `needle`? */
static bool strstr_n(const char *s, const char *end, const char *needle)
{
    size_t n = strlen(needle);
    for (; (size_t)(end - s) >= n; s++)
        if (!memcmp(s, needle, n))
            return true;
    return false;
}

/* The number of a #version directive in [s, end), the rest of its line:
 * blanks, then decimal digits (-1 when there are none); *after is the
 * first byte past them.  Bounded by `end`: the text needs no NUL. */
static long version_number(const char *s, const char *end,
                           const char **after)
{
    while (s < end && (*s == ' ' || *s == '\t'))
        s++;
    long v = -1;
    for (; s < end && isdigit((unsigned char)*s) && v < 100000; s++)
        v = (v < 0 ? 0 : v * 10) + (*s - '0');
    *after = s;
    return v;
}

static bool directive(struct front *f, const struct tok *t)
{
    const char *s = f->s + t->at + 1, *end = f->s + t->at + t->len;
    while (s < end && (*s == ' ' || *s == '\t'))
        s++;
    const char *w = s;
    while (s < end && ident_char(*s))
        s++;
    size_t wl = (size_t)(s - w);
    if (wl == 7 && !memcmp(w, "version", 7)) {
        const char *e;
        long v = version_number(s, end, &e);
        if (!(v == 100 || v == 110 || v == 120 || v == 130 || v == 140 ||
              v == 150))
            return fail(f, t, "the front step takes #version 100, 110, 120, "
                        "130, 140 or 150 (GLSL 3.30 and later, and GLSL ES "
                        "3.x, go to glslang as they are)");
        /* the line is dropped: nothing but a profile (1.50) and a comment
         * ending on it may follow */
        while (e < end && (*e == ' ' || *e == '\t' || *e == '\r'))
            e++;
        if (v == 150 && end - e >= 4 && !memcmp(e, "core", 4))
            e += 4;
        else if (v == 150 && end - e >= 13 && !memcmp(e, "compatibility", 13))
            e += 13;
        while (e < end && (*e == ' ' || *e == '\t' || *e == '\r'))
            e++;
        bool line_comment = end - e >= 2 && e[0] == '/' && e[1] == '/';
        bool block = end - e >= 4 && e[0] == '/' && e[1] == '*' &&
                     strstr_n(e + 2, end, "*/");
        if (e < end && !line_comment && !block)
            return fail(f, t, "unexpected text after #version %ld", v);
        f->version = (unsigned)v;
        /* the prologue with #version 330 opens the output and `#line 1`
         * follows it, so the old directive leaves a blank line */
        return true;
    }
    if (wl == 6 && !memcmp(w, "define", 6)) {
        /* `#define lowp` (desktop GLSL headers for ES sources: Minetest's
         * shader.cpp): the step blanks the precision words anyway, so the
         * directive goes too, as blanks (a name-less #define is an error) */
        const char *m = s;
        while (m < end && (*m == ' ' || *m == '\t'))
            m++;
        const char *me = m;
        while (me < end && ident_char(*me))
            me++;
        char mw[16];
        size_t ml = (size_t)(me - m);
        if (ml < sizeof mw) {
            memcpy(mw, m, ml);
            mw[ml] = 0;
            if ((!strcmp(mw, "lowp") || !strcmp(mw, "mediump") ||
                 !strcmp(mw, "highp")) && !renamed(f, mw)) {
                for (size_t i = 0; i < t->len; i++)
                    put(&f->out, " ", 1);
                return true;
            }
        }
        /* the macro's body is rewritten like any other code */
        struct cursor save = f->c;
        bool stmt_start = f->stmt_start;
        f->c.pos = (size_t)(s - f->s);
        f->c.col = t->col + (unsigned)(s - (f->s + t->at));
        put(&f->out, f->s + t->at, (size_t)(s - (f->s + t->at)));
        struct tok k;
        for (;;) {
            if (f->c.pos >= save.pos) {
                break;
            }
            lex(f, &k);
            if (k.at + k.len > save.pos) {
                /* a comment running past the line: copy the rest */
                put(&f->out, f->s + k.at, save.pos - k.at);
                break;
            }
            if (k.kind == T_IDENT) {
                if (!identifier(f, &k, true))
                    return false;
            } else {
                copy(f, &k);
            }
        }
        f->c = save;
        f->stmt_start = stmt_start;
        return true;
    }
    copy(f, t);
    return true;
}

/* ---- driver ---------------------------------------------------------- */

/* The output's first lines.  The pragma tells us_glsl_compile that the
 * integers of this GLSL 1.20-or-earlier source are floats (GLSL 1.20
 * 4.1.3: integers may be emulated in floating point), as the translator
 * treated them before it had integer instructions; glslang ignores it. */
static const char prologue[] =
    "#version 330\n"
    "#extension GL_ARB_separate_shader_objects : enable\n";
static const char prologue_float_ints[] =
    "#version 330\n"
    "#extension GL_ARB_separate_shader_objects : enable\n"
    "#pragma ushader_float_integers\n";

unsigned us_glsl_version(const char *text, size_t len, size_t *at)
{
    *at = 0;
    for (size_t i = 0; i < len; i++) {
        /* the first directive on a line of its own */
        if (text[i] != '#')
            continue;
        size_t j = i;
        while (j > 0 && (text[j - 1] == ' ' || text[j - 1] == '\t'))
            j--;
        if (j > 0 && text[j - 1] != '\n')
            continue;
        i++;
        while (i < len && (text[i] == ' ' || text[i] == '\t'))
            i++;
        if (len - i >= 7 && !memcmp(text + i, "version", 7)) {
            const char *s = text + i + 7, *e;
            while (s < text + len && (*s == ' ' || *s == '\t'))
                s++;
            long v = version_number(s, text + len, &e);
            *at = (size_t)(s - text);
            return v > 0 ? (unsigned)v : 0;
        }
    }
    return 0;
}

bool us_glsl_is_legacy(const char *text, size_t len)
{
    /* 300, 310 and 320 are GLSL ES versions (desktop GLSL has none) */
    size_t at;
    return us_glsl_version(text, len, &at) < 300;
}

bool us_glsl_float_integers(const char *text, size_t len)
{
    size_t n = strlen(prologue_float_ints);
    return len >= n && !memcmp(text, prologue_float_ints, n);
}

uint32_t us_glsl_smooth_colors(const char *text, size_t len)
{
    static const char pragma[] = "\n#pragma ushader_smooth us_gl_";
    size_t n = sizeof pragma - 1;
    uint32_t flags = 0;
    /* the pragmas are among the prologue's declarations, before #line */
    for (size_t i = 0; i + n <= len; i++) {
        if (!memcmp(text + i, "\n#line ", 8))
            break;
        if (memcmp(text + i, pragma, n))
            continue;
        const char *w = text + i + n;
        size_t left = len - i - n;
        if (left >= 6 && !memcmp(w, "Color\n", 6))
            flags |= US_SPIRV_SMOOTH_COLOR0;
        else if (left >= 15 && !memcmp(w, "SecondaryColor\n", 15))
            flags |= US_SPIRV_SMOOTH_COLOR1;
    }
    return flags;
}

/* Mark the generic attributes that the conventional attributes the vertex
 * shader reads alias, before any user attribute is given a slot. */
static void reserve_aliases(struct front *f)
{
    struct cursor save = f->c;
    struct tok t;
    for (lex(f, &t); t.kind != T_EOF; lex(f, &t)) {
        if (t.kind != T_IDENT || t.len < 4 || t.len >= US_MAX_NAME ||
            memcmp(f->s + t.at, "gl_", 3))
            continue;
        char us[US_MAX_NAME + 4];
        snprintf(us, sizeof us, "us_%.*s", (int)t.len, f->s + t.at);
        const struct us_glsl_builtin *b =
            us_glsl_builtin_lookup(us, US_STAGE_VERTEX);
        int a = b && b->bind == US_GLSL_IN ? alias_of(b->slot) : -1;
        if (a >= 0)
            f->link->attribs_taken |= 1u << a;
    }
    f->c = save;
}

/* GLSL 1.20 6.3: a do-while body is a scope of its own even when it is
 * one statement, so `do int i = ...; while (i ...)` tests the outer i;
 * glslang scopes only a compound body, so a simple-statement body gets
 * braces (on the same line).  A body that is itself a selection or a loop
 * declares nothing the test could see and is left alone. */
static void do_body(struct front *f, const struct tok *t)
{
    static const char *const nested[] = { "if", "for", "while", "do",
                                          "switch", NULL };
    f->do_pending = false;
    if (is_punct(f, t, '{') || is_punct(f, t, ';') ||
        t->kind == T_DIRECTIVE ||
        f->ndo == sizeof f->do_close / sizeof *f->do_close)
        return;
    if (t->kind == T_IDENT)
        for (unsigned i = 0; nested[i]; i++)
            if (t->len == strlen(nested[i]) &&
                !memcmp(f->s + t->at, nested[i], t->len))
                return;
    puts_(&f->out, "{ ");
    f->do_close[f->ndo++] = f->depth;
}

static bool front_pass(const char *text, size_t len, enum us_stage stage,
                       struct us_glsl_link *link, char **out, size_t *out_len,
                       struct us_diag *diag)
{
    *out = NULL;
    *out_len = 0;
    memset(diag, 0, sizeof *diag);
    struct front *f = calloc(1, sizeof *f);
    if (!f) {
        snprintf(diag->msg, sizeof diag->msg, "out of memory");
        return false;
    }
    f->s = text;
    f->n = len;
    f->c = (struct cursor){ 0, 1, 1, true };
    f->stage = stage;
    f->link = link;
    f->diag = diag;
    f->next_location = FIRST_BUILTIN_LOCATION;
    f->stmt_start = true;
    if (stage == US_STAGE_VERTEX)
        reserve_aliases(f);
    bool ok = true;
    struct tok t;
    for (lex(f, &t); ok && t.kind != T_EOF; lex(f, &t)) {
        if (f->do_pending && t.kind != T_WS && t.kind != T_COMMENT)
            do_body(f, &t);
        switch (t.kind) {
        case T_WS:
        case T_COMMENT:
            copy(f, &t);
            break;
        case T_DIRECTIVE:
            ok = directive(f, &t);
            break;
        case T_IDENT:
            ok = identifier(f, &t, false);
            break;
        default:
            if (f->ndo && f->do_close[f->ndo - 1] == f->depth &&
                is_punct(f, &t, ';')) {
                copy(f, &t);
                f->ndo--;
                puts_(&f->out, " }");
                f->stmt_start = true;
                break;
            }
            if (f->nshadow && f->shadow[f->nshadow - 1].close == f->depth) {
                /* the offset goes before a bias (the third argument of a
                 * lookup without Lod), else last */
                struct shadow_call *sc = &f->shadow[f->nshadow - 1];
                bool comma = is_punct(f, &t, ',');
                if (comma && ++sc->commas == 2 && !sc->lod) {
                    puts_(&f->out, sc->one_d ? ", 0" : ", ivec2(0)");
                    sc->marked = true;
                }
                if (is_punct(f, &t, ')') && !sc->marked)
                    puts_(&f->out, sc->one_d ? ", 0" : ", ivec2(0)");
            }
            copy(f, &t);
            if (is_punct(f, &t, '(')) {
                f->depth++;
            } else if (is_punct(f, &t, ')')) {
                if (f->nshadow && f->shadow[f->nshadow - 1].close == f->depth) {
                    f->nshadow--;
                    puts_(&f->out, ")");
                }
                f->depth--;
            }
            f->stmt_start = is_punct(f, &t, ';') || is_punct(f, &t, '{') ||
                            is_punct(f, &t, '}');
            break;
        }
    }
    struct buf res = { 0 };
    if (ok) {
        /* GLSL 1.30's integers are 32 bits (4.1.3): no pragma */
        puts_(&res, f->version >= 130 ? prologue : prologue_float_ints);
        if (f->decls.n)
            put(&res, f->decls.p, f->decls.n);
        puts_(&res, "#line 1\n");
        if (f->out.n)
            put(&res, f->out.p, f->out.n);
        if (f->out.oom || f->decls.oom || res.oom)
            ok = fail(f, NULL, "out of memory");
    }
    free(f->out.p);
    free(f->decls.p);
    free(f);
    if (!ok) {
        free(res.p);
        return false;
    }
    *out = res.p;
    *out_len = res.n;
    return true;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct us_glsl_slot *)a)->name,
                  ((const struct us_glsl_slot *)b)->name);
}

static bool front_checked(const char *text, size_t len, enum us_stage stage,
                          struct us_glsl_link *link, unsigned slots,
                          char **out, size_t *out_len, struct us_diag *diag);

bool us_glsl_front(const char *text, size_t len, enum us_stage stage,
                   struct us_glsl_link *link, char **out, size_t *out_len,
                   struct us_diag *diag)
{
    if (!link)
        return us_glsl_front_alone(text, len, stage, 0, out, out_len, diag);
    return front_checked(text, len, stage, link, 0, out, out_len, diag);
}

bool us_glsl_front_alone(const char *text, size_t len, enum us_stage stage,
                         unsigned slots, char **out, size_t *out_len,
                         struct us_diag *diag)
{
    return front_checked(text, len, stage, NULL, slots, out, out_len, diag);
}

/* us_glsl_front; `slots` is the table's size when link is NULL. */
static bool front_checked(const char *text, size_t len, enum us_stage stage,
                          struct us_glsl_link *link, unsigned slots,
                          char **out, size_t *out_len, struct us_diag *diag)
{
    *out = NULL;
    *out_len = 0;
    if (!us_glsl_check_nul(text, len, diag))
        return false;
    if (stage == US_STAGE_COMPUTE) {
        memset(diag, 0, sizeof *diag);
        diag->line = 1;
        snprintf(diag->msg, sizeof diag->msg, "a compute shader needs "
                 "#version 430 (or 330 with GL_ARB_compute_shader) or "
                 "#version 310 es");
        return false;
    }
    if (link)
        return front_pass(text, len, stage, link, out, out_len, diag);
    /* Alone: a first pass finds the varyings, which then take slots in
     * name order, so two stages compiled apart agree when they declare
     * the same varyings (as a scene's program files do).  They go down
     * from slot 7 as they always did, or from the lowest top that holds
     * them all when they need more than 8 (the first pass has checked
     * that `slots` do), so a shader's slots do not depend on the knob. */
    struct us_glsl_link own;
    us_glsl_link_init(&own);
    us_glsl_link_slots(&own, slots);
    if (!front_pass(text, len, stage, &own, out, out_len, diag))
        return false;
    free(*out);
    qsort(own.varying, own.nvaryings, sizeof *own.varying, by_name);
    unsigned need = own.texcoords;
    for (unsigned i = 0; i < own.nvaryings; i++)
        need += own.varying[i].count;
    own.floor = need > US_VARYING_SLOTS_DEFAULT ? need
                                                : US_VARYING_SLOTS_DEFAULT;
    for (unsigned i = 0; i < own.nvaryings; i++) {
        own.floor -= own.varying[i].count;
        own.varying[i].first = (uint8_t)own.floor;
    }
    own.nattribs = 0;
    own.attribs_taken = 0;
    return front_pass(text, len, stage, &own, out, out_len, diag);
}
