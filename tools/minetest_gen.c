/*
 * minetest_gen: instantiate Minetest's GLSL shaders (Debian minetest-data,
 * /usr/share/games/minetest/client/shaders) into the concrete sources the
 * game compiles, from the settings and shader choices in a catalogue
 * (bench/minetest/shaders.txt; its header documents the directives).
 *
 *   minetest_gen CATALOGUE SHADER_DIR OUT_DIR
 *
 * writes OUT_DIR/NAME.vert and OUT_DIR/NAME.frag for every pair,
 * OUT_DIR/index.txt ("NAME VERT FRAG USE", one pair a line) and
 * OUT_DIR/suite.list, a `ushader bench --suite` list in which a shader
 * whose text equals an earlier one appears once.  The shader files are
 * never copied into the repository: only the values live there, each with
 * the Minetest source it comes from.
 *
 * What an instantiation does (mirroring ShaderSource::generateShader in
 * Minetest 5.6.1's src/client/shader.cpp, desktop OpenGL path):
 *   1. the common header: `#version 120`, empty lowp/mediump/highp macros,
 *      the NDT_* and TILE_MATERIAL_* enumerators, MATERIAL_TYPE, DRAW_TYPE,
 *      the settings' macros (floats printed as std::showpoint prints them:
 *      %#g), the shadow macros when dynamic shadows are on, `#line 0`;
 *   2. the vertex header (mWorldViewProj etc. as the GL built-ins);
 *   3. the shader file.  Pairs marked `raw` (the shadow shaders, loaded
 *      by ShadowRenderer::createShaders) get no header but their `prefix`
 *      lines, as that loader gives them;
 *   4. the preprocessor's conditional groups (#if, #ifdef, #ifndef, #elif,
 *      #else, #endif) are resolved with the header's and the file's own
 *      #defines, as the GL preprocessor resolves them: the lines of groups
 *      not taken, and the conditional directives, become empty lines (line
 *      numbers stay).  ushader's front step rewrites declarations before
 *      glslang preprocesses, so it would otherwise give the varyings of
 *      the shadow code (#ifdef ENABLE_DYNAMIC_SHADOWS) vec4 slots they do
 *      not take in the game.  #define lines are kept.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_LINE = 1024, MAX_PAIRS = 64, MAX_DEFS = 256, MAX_SETTINGS = 32,
       MAX_ENUMS = 64, MAX_PREFIX = 8, MAX_DEPTH = 32, MAX_FILE = 1 << 20 };

#define GEN_NAME "minetest_gen"
#include "tools/gen_text.h"

/* ---- the catalogue ------------------------------------------------------ */

struct kv {
    char name[64], value[64];
};

struct pair {
    char name[64], dir[64], file[2][64], use[256];
    char material[64], drawtype[64];
    struct kv setting[MAX_SETTINGS];     /* overrides of the defaults     */
    unsigned nsettings;
    char prefix[MAX_PREFIX][128];        /* raw pairs: the loader's lines */
    unsigned nprefix;
    bool raw;
};

struct catalogue {
    struct kv setting[MAX_SETTINGS];     /* the game's defaults           */
    unsigned nsettings;
    struct kv ndt[MAX_ENUMS], tile[MAX_ENUMS];
    unsigned nndt, ntile;
    struct pair pair[MAX_PAIRS];
    unsigned npairs;
};

static void copy(char *dst, size_t size, const char *src, const char *path,
                 unsigned line)
{
    if (!src || !*src || strlen(src) >= size)
        die("%s:%u: missing or overlong word", path, line);
    memcpy(dst, src, strlen(src) + 1);
}

static void add_kv(struct kv *v, unsigned *n, unsigned max, char **s,
                   const char *path, unsigned line)
{
    if (*n == max)
        die("%s:%u: too many entries", path, line);
    struct kv *e = &v[(*n)++];
    copy(e->name, sizeof e->name, next_word(s), path, line);
    copy(e->value, sizeof e->value, next_word(s), path, line);
    if (next_word(s))
        die("%s:%u: extra words", path, line);
}

static void parse_catalogue(struct catalogue *c, const char *path)
{
    char *text = read_file(path);
    unsigned line = 0;
    struct pair *cur = NULL;
    for (char *p = text; *p;) {
        char *eol = strchr(p, '\n');
        if (eol)
            *eol = 0;
        line++;
        strip_comment(p);
        char *s = p;
        char *kw = next_word(&s);
        if (!kw) {
            /* blank */
        } else if (!strcmp(kw, "default")) {
            add_kv(c->setting, &c->nsettings, MAX_SETTINGS, &s, path, line);
        } else if (!strcmp(kw, "ndt")) {
            add_kv(c->ndt, &c->nndt, MAX_ENUMS, &s, path, line);
        } else if (!strcmp(kw, "tile")) {
            add_kv(c->tile, &c->ntile, MAX_ENUMS, &s, path, line);
        } else if (!strcmp(kw, "pair")) {
            if (c->npairs == MAX_PAIRS)
                die("%s:%u: too many pairs", path, line);
            cur = &c->pair[c->npairs++];
            memset(cur, 0, sizeof *cur);
            copy(cur->name, sizeof cur->name, next_word(&s), path, line);
            copy(cur->dir, sizeof cur->dir, next_word(&s), path, line);
            copy(cur->file[0], sizeof cur->file[0], next_word(&s), path, line);
            copy(cur->file[1], sizeof cur->file[1], next_word(&s), path, line);
            if (next_word(&s))
                die("%s:%u: extra words", path, line);
        } else if (!cur) {
            die("%s:%u: '%s' before the first pair", path, line, kw);
        } else if (!strcmp(kw, "use")) {
            copy(cur->use, sizeof cur->use, rest(&s), path, line);
        } else if (!strcmp(kw, "from")) {
            /* documentation only: where the choice comes from */
        } else if (!strcmp(kw, "material")) {
            copy(cur->material, sizeof cur->material, next_word(&s), path,
                 line);
        } else if (!strcmp(kw, "drawtype")) {
            copy(cur->drawtype, sizeof cur->drawtype, next_word(&s), path,
                 line);
        } else if (!strcmp(kw, "set")) {
            add_kv(cur->setting, &cur->nsettings, MAX_SETTINGS, &s, path,
                   line);
        } else if (!strcmp(kw, "raw")) {
            cur->raw = true;
        } else if (!strcmp(kw, "prefix")) {
            if (cur->nprefix == MAX_PREFIX)
                die("%s:%u: too many prefix lines", path, line);
            copy(cur->prefix[cur->nprefix], sizeof cur->prefix[0], rest(&s),
                 path, line);
            cur->nprefix++;
        } else {
            die("%s:%u: unknown directive '%s'", path, line, kw);
        }
        if (!eol)
            break;
        p = eol + 1;
    }
    free(text);
    for (unsigned i = 0; i < c->npairs; i++) {
        struct pair *q = &c->pair[i];
        if (!q->raw && (!q->material[0] || !q->drawtype[0]))
            die("%s: pair %s needs material and drawtype", path, q->name);
    }
}

/* ---- the header (ShaderSource::generateShader) -------------------------- */

static const char *setting(const struct catalogue *c, const struct pair *p,
                           const char *name)
{
    for (unsigned i = 0; i < p->nsettings; i++)
        if (!strcmp(p->setting[i].name, name))
            return p->setting[i].value;
    for (unsigned i = 0; i < c->nsettings; i++)
        if (!strcmp(c->setting[i].name, name))
            return c->setting[i].value;
    die("pair %s: no value for setting %s", p->name, name);
}

static bool setting_bool(const struct catalogue *c, const struct pair *p,
                         const char *name)
{
    const char *v = setting(c, p, name);
    if (!strcmp(v, "true"))
        return true;
    if (!strcmp(v, "false"))
        return false;
    die("pair %s: setting %s is '%s', not true or false", p->name, name, v);
}

static double setting_float(const struct catalogue *c, const struct pair *p,
                            const char *name)
{
    const char *v = setting(c, p, name);
    char *end;
    double d = strtod(v, &end);
    if (end == v || *end)
        die("pair %s: setting %s is '%s', not a number", p->name, name, v);
    return d;
}

static const char *enum_value(const struct kv *v, unsigned n,
                              const char *name, const struct pair *p)
{
    for (unsigned i = 0; i < n; i++)
        if (!strcmp(v[i].name, name))
            return v[i].value;
    die("pair %s: unknown enumerator %s", p->name, name);
}

/* std::showpoint with the default precision (6) prints a float as %#g. */
static void put_float(struct str *h, const char *macro, double v)
{
    putf(h, "#define %s %#g\n", macro, v);
}

static void common_header(struct str *h, const struct catalogue *c,
                          const struct pair *p)
{
    /* the desktop path (ENABLE_GLES is off in Debian's build): no
     * USE_DISCARD, which only GLES and the GC7000 renderer get */
    puts_(h, "#version 120\n#define lowp\n#define mediump\n#define highp\n");
    for (unsigned i = 0; i < c->nndt; i++)
        putf(h, "#define %s %s\n", c->ndt[i].name, c->ndt[i].value);
    for (unsigned i = 0; i < c->ntile; i++)
        putf(h, "#define %s %s\n", c->tile[i].name, c->tile[i].value);
    putf(h, "#define MATERIAL_TYPE %s\n",
         enum_value(c->tile, c->ntile, p->material, p));
    putf(h, "#define DRAW_TYPE %s\n", enum_value(c->ndt, c->nndt, p->drawtype,
                                                 p));
    bool water = setting_bool(c, p, "enable_waving_water");
    putf(h, "#define ENABLE_WAVING_WATER %d\n", water);
    if (water) {
        put_float(h, "WATER_WAVE_HEIGHT",
                  setting_float(c, p, "water_wave_height"));
        put_float(h, "WATER_WAVE_LENGTH",
                  setting_float(c, p, "water_wave_length"));
        put_float(h, "WATER_WAVE_SPEED",
                  setting_float(c, p, "water_wave_speed"));
    }
    putf(h, "#define ENABLE_WAVING_LEAVES %d\n",
         setting_bool(c, p, "enable_waving_leaves"));
    putf(h, "#define ENABLE_WAVING_PLANTS %d\n",
         setting_bool(c, p, "enable_waving_plants"));
    putf(h, "#define ENABLE_TONE_MAPPING %d\n",
         setting_bool(c, p, "tone_mapping"));
    double fog = setting_float(c, p, "fog_start");
    fog = fog < 0 ? 0 : fog > 0.99 ? 0.99 : fog;    /* core::clamp         */
    /* the game clamps a float: print what the float holds */
    put_float(h, "FOG_START", (double)(float)fog);
    if (setting_bool(c, p, "enable_dynamic_shadows")) {
        puts_(h, "#define ENABLE_DYNAMIC_SHADOWS 1\n");
        if (setting_bool(c, p, "shadow_map_color"))
            puts_(h, "#define COLORED_SHADOWS 1\n");
        if (setting_bool(c, p, "shadow_poisson_filter"))
            puts_(h, "#define POISSON_FILTER 1\n");
        putf(h, "#define SHADOW_FILTER %d\n",
             (int)setting_float(c, p, "shadow_filters"));
        double r = setting_float(c, p, "shadow_soft_radius");
        put_float(h, "SOFTSHADOWRADIUS", r < 1.0 ? 1.0 : r);
    }
    puts_(h, "#line 0\n");
}

static const char vertex_header[] =
    "#define mWorldView gl_ModelViewMatrix\n"
    "#define mWorldViewProj gl_ModelViewProjectionMatrix\n"
    "#define mTexture (gl_TextureMatrix[0])\n"
    "#define mNormal gl_NormalMatrix\n"
    "#define inVertexPosition gl_Vertex\n"
    "#define inVertexColor gl_Color\n"
    "#define inTexCoord0 gl_MultiTexCoord0\n"
    "#define inVertexNormal gl_Normal\n"
    "#define inVertexTangent gl_MultiTexCoord1\n"
    "#define inVertexBinormal gl_MultiTexCoord2\n";

/* ---- conditional groups ----------------------------------------------- */

struct macro {
    char name[64];
    char body[256];
};

struct pp {
    struct macro m[MAX_DEFS];
    unsigned n;
    const char *where;
    unsigned line;
};

static bool ident_start(char c)
{
    return isalpha((unsigned char)c) || c == '_';
}

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

static const struct macro *find_macro(const struct pp *pp, const char *name,
                                      size_t len)
{
    for (unsigned i = pp->n; i-- > 0;)
        if (strlen(pp->m[i].name) == len && !memcmp(pp->m[i].name, name, len))
            return &pp->m[i];
    return NULL;
}

/* #define NAME BODY: the body without comments and outer blanks. */
static void define(struct pp *pp, const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    const char *e = s;
    while (ident_char(*e))
        e++;
    if (e == s || (size_t)(e - s) >= sizeof pp->m[0].name)
        die("%s:%u: bad #define", pp->where, pp->line);
    if (*e == '(')
        die("%s:%u: function-like macros are not resolved here", pp->where,
            pp->line);
    if (pp->n == MAX_DEFS)
        die("%s:%u: too many macros", pp->where, pp->line);
    struct macro *m = &pp->m[pp->n++];
    memcpy(m->name, s, (size_t)(e - s));
    m->name[e - s] = 0;
    while (*e == ' ' || *e == '\t')
        e++;
    size_t n = 0;
    for (; *e && !(e[0] == '/' && (e[1] == '/' || e[1] == '*')); e++) {
        if (n + 1 >= sizeof m->body)
            die("%s:%u: #define body too long", pp->where, pp->line);
        m->body[n++] = *e;
    }
    while (n && isspace((unsigned char)m->body[n - 1]))
        n--;
    m->body[n] = 0;
}

static void undef(struct pp *pp, const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    const char *e = s;
    while (ident_char(*e))
        e++;
    const struct macro *m = find_macro(pp, s, (size_t)(e - s));
    if (m)
        ((struct macro *)m)->name[0] = 0;
}

/* #if expressions: integers, macros (expanded; undefined names are 0),
 * defined, ! - + * / == != < > <= >= && || and parentheses. */
struct expr {
    struct pp *pp;
    const char *s;
    int depth;
};

static long parse_or(struct expr *x);

static void blanks(struct expr *x)
{
    while (*x->s == ' ' || *x->s == '\t')
        x->s++;
}

static long eval_text(struct pp *pp, const char *text, int depth);

static long parse_primary(struct expr *x)
{
    blanks(x);
    const char *s = x->s;
    if (*s == '(') {
        x->s++;
        long v = parse_or(x);
        blanks(x);
        if (*x->s != ')')
            die("%s:%u: ')' expected in #if", x->pp->where, x->pp->line);
        x->s++;
        return v;
    }
    if (*s == '!') {
        x->s++;
        return !parse_primary(x);
    }
    if (*s == '-') {
        x->s++;
        return -parse_primary(x);
    }
    if (*s == '+') {
        x->s++;
        return parse_primary(x);
    }
    if (isdigit((unsigned char)*s)) {
        char *end;
        long v = strtol(s, &end, 0);
        if (*end == '.' || *end == 'e' || *end == 'E')
            die("%s:%u: a float in #if", x->pp->where, x->pp->line);
        x->s = end;
        return v;
    }
    if (ident_start(*s)) {
        const char *e = s;
        while (ident_char(*e))
            e++;
        x->s = e;
        if (e - s == 7 && !memcmp(s, "defined", 7)) {
            blanks(x);
            bool paren = *x->s == '(';
            if (paren)
                x->s++;
            blanks(x);
            const char *n = x->s;
            while (ident_char(*x->s))
                x->s++;
            if (x->s == n)
                die("%s:%u: 'defined' without a name", x->pp->where,
                    x->pp->line);
            bool d = find_macro(x->pp, n, (size_t)(x->s - n)) != NULL;
            blanks(x);
            if (paren) {
                if (*x->s != ')')
                    die("%s:%u: ')' expected", x->pp->where, x->pp->line);
                x->s++;
            }
            return d;
        }
        const struct macro *m = find_macro(x->pp, s, (size_t)(e - s));
        if (!m)
            return 0;
        if (x->depth > 16)
            die("%s:%u: macros nest too deep", x->pp->where, x->pp->line);
        return eval_text(x->pp, m->body, x->depth + 1);
    }
    die("%s:%u: cannot read #if expression at '%s'", x->pp->where, x->pp->line,
        s);
}

static long parse_mul(struct expr *x)
{
    long v = parse_primary(x);
    for (;;) {
        blanks(x);
        char op = *x->s;
        if (op != '*' && op != '/' && op != '%')
            return v;
        x->s++;
        long r = parse_primary(x);
        if (op != '*' && r == 0)
            die("%s:%u: division by zero in #if", x->pp->where, x->pp->line);
        v = op == '*' ? v * r : op == '/' ? v / r : v % r;
    }
}

static long parse_add(struct expr *x)
{
    long v = parse_mul(x);
    for (;;) {
        blanks(x);
        char op = *x->s;
        if (op != '+' && op != '-')
            return v;
        x->s++;
        long r = parse_mul(x);
        v = op == '+' ? v + r : v - r;
    }
}

static long parse_rel(struct expr *x)
{
    long v = parse_add(x);
    for (;;) {
        blanks(x);
        const char *s = x->s;
        int op;
        if (s[0] == '<' && s[1] == '=')
            op = 1, x->s += 2;
        else if (s[0] == '>' && s[1] == '=')
            op = 2, x->s += 2;
        else if (s[0] == '<' && s[1] != '<')
            op = 3, x->s += 1;
        else if (s[0] == '>' && s[1] != '>')
            op = 4, x->s += 1;
        else
            return v;
        long r = parse_add(x);
        v = op == 1 ? v <= r : op == 2 ? v >= r : op == 3 ? v < r : v > r;
    }
}

static long parse_eq(struct expr *x)
{
    long v = parse_rel(x);
    for (;;) {
        blanks(x);
        const char *s = x->s;
        if ((s[0] != '=' && s[0] != '!') || s[1] != '=')
            return v;
        x->s += 2;
        long r = parse_rel(x);
        v = s[0] == '=' ? v == r : v != r;
    }
}

static long parse_and(struct expr *x)
{
    long v = parse_eq(x);
    for (;;) {
        blanks(x);
        if (x->s[0] != '&' || x->s[1] != '&')
            return v;
        x->s += 2;
        long r = parse_eq(x);
        v = v && r;
    }
}

static long parse_or(struct expr *x)
{
    long v = parse_and(x);
    for (;;) {
        blanks(x);
        if (x->s[0] != '|' || x->s[1] != '|')
            return v;
        x->s += 2;
        long r = parse_and(x);
        v = v || r;
    }
}

static long eval_text(struct pp *pp, const char *text, int depth)
{
    /* the expression without a trailing comment */
    char buf[MAX_LINE];
    size_t n = 0;
    for (const char *t = text; *t && !(t[0] == '/' && (t[1] == '/' ||
                                                       t[1] == '*')); t++) {
        if (n + 1 >= sizeof buf)
            die("%s:%u: #if too long", pp->where, pp->line);
        buf[n++] = *t;
    }
    buf[n] = 0;
    struct expr x = { pp, buf, depth };
    long v = parse_or(&x);
    blanks(&x);
    if (*x.s)
        die("%s:%u: unexpected '%s' in #if", pp->where, pp->line, x.s);
    return v;
}

struct group {
    bool outer;      /* the enclosing group is active                     */
    bool taken;      /* a branch of this #if was active                   */
    bool active;     /* the current branch is                             */
    bool seen_else;
};

/* Is the directive `name` at s (after '#' and blanks)?  Sets *arg. */
static bool directive(const char *s, const char *name, const char **arg)
{
    size_t n = strlen(name);
    if (strncmp(s, name, n) || ident_char(s[n]))
        return false;
    *arg = s + n;
    return true;
}

/* Resolve the conditional groups of `src` (lines of groups not taken and
 * the conditional directives become empty lines). */
static char *resolve(struct pp *pp, const char *src)
{
    struct str out = { 0 };
    puts_(&out, "");
    struct group g[MAX_DEPTH];
    int depth = 0;
    bool comment = false;          /* inside a block comment              */
    pp->line = 0;
    for (const char *p = src; *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char line[MAX_LINE];
        if (len >= sizeof line)
            die("%s:%u: line too long", pp->where, pp->line + 1);
        memcpy(line, p, len);
        line[len] = 0;
        pp->line++;
        bool active = depth == 0 || g[depth - 1].active;
        const char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        bool keep = active;
        if (!comment && *s == '#') {
            s++;
            while (*s == ' ' || *s == '\t')
                s++;
            const char *arg;
            if (directive(s, "ifdef", &arg) || directive(s, "ifndef", &arg) ||
                directive(s, "if", &arg)) {
                if (depth == MAX_DEPTH)
                    die("%s:%u: #if nests too deep", pp->where, pp->line);
                bool v = false;
                if (active) {
                    if (s[2] == 'd' || s[2] == 'n') {
                        while (*arg == ' ' || *arg == '\t')
                            arg++;
                        const char *e = arg;
                        while (ident_char(*e))
                            e++;
                        v = find_macro(pp, arg, (size_t)(e - arg)) != NULL;
                        if (s[2] == 'n')
                            v = !v;
                    } else {
                        v = eval_text(pp, arg, 0) != 0;
                    }
                }
                g[depth++] = (struct group){ active, v, v, false };
                keep = false;
            } else if (directive(s, "elif", &arg)) {
                if (!depth || g[depth - 1].seen_else)
                    die("%s:%u: #elif without #if", pp->where, pp->line);
                struct group *t = &g[depth - 1];
                t->active = false;
                if (t->outer && !t->taken && eval_text(pp, arg, 0))
                    t->active = t->taken = true;
                keep = false;
            } else if (directive(s, "else", &arg)) {
                if (!depth || g[depth - 1].seen_else)
                    die("%s:%u: #else without #if", pp->where, pp->line);
                struct group *t = &g[depth - 1];
                t->active = t->outer && !t->taken;
                t->taken = true;
                t->seen_else = true;
                keep = false;
            } else if (directive(s, "endif", &arg)) {
                if (!depth)
                    die("%s:%u: #endif without #if", pp->where, pp->line);
                depth--;
                keep = false;
            } else if (active && directive(s, "define", &arg)) {
                define(pp, arg);
            } else if (active && directive(s, "undef", &arg)) {
                undef(pp, arg);
            }
        }
        if (keep)
            put(&out, line, len);
        if (eol)
            puts_(&out, "\n");
        /* block comments (for the directives' sake: a '#' inside one is
         * no directive) */
        for (const char *t = line; *t; t++) {
            if (!comment && t[0] == '/' && t[1] == '/')
                break;
            if (!comment && t[0] == '/' && t[1] == '*') {
                comment = true;
                t++;
            } else if (comment && t[0] == '*' && t[1] == '/') {
                comment = false;
                t++;
            }
        }
        p = eol ? eol + 1 : p + len;
    }
    if (depth)
        die("%s: #if without #endif", pp->where);
    return out.p;
}

/* ---- instantiation -------------------------------------------------------- */

static char *instantiate(const struct catalogue *c, const struct pair *p,
                         int st, const char *dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/%s", dir, p->dir, p->file[st]);
    char *body = read_file(path);
    struct str src = { 0 };
    puts_(&src, "");
    if (p->raw) {
        for (unsigned i = 0; i < p->nprefix; i++)
            putf(&src, "#%s\n", p->prefix[i]);
    } else {
        common_header(&src, c, p);
        if (st == 0)
            puts_(&src, vertex_header);
    }
    puts_(&src, body);
    free(body);
    static struct pp pp;
    pp.n = 0;
    char where[256];
    snprintf(where, sizeof where, "pair %s (%s/%s)", p->name, p->dir,
             p->file[st]);
    pp.where = where;
    char *text = resolve(&pp, src.p);
    free(src.p);
    struct str out = { 0 };
    putf(&out, "// %s: %s/%s from minetest-data (generated by "
         "tools/minetest_gen from bench/minetest/shaders.txt; do not edit)\n",
         p->name, p->dir, p->file[st]);
    puts_(&out, text);
    free(text);
    return out.p;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: minetest_gen CATALOGUE SHADER_DIR OUT_DIR\n");
        return 2;
    }
    static struct catalogue c;
    parse_catalogue(&c, argv[1]);
    struct str index = { 0 }, suite = { 0 };
    puts_(&index, "# NAME VERT FRAG USE (tools/minetest_gen)\n");
    puts_(&suite, "# The Minetest shader pairs as a `ushader bench --suite` "
          "list (tools/minetest_gen):\n# PROGRAM SCENE SLOT; a shader whose "
          "text equals an earlier one is listed once.\n");
    char **seen = calloc(2 * (size_t)c.npairs + 1, sizeof *seen);
    char **seen_name = calloc(2 * (size_t)c.npairs + 1, sizeof *seen_name);
    unsigned nseen = 0;
    if (!seen || !seen_name)
        die("out of memory");
    static const char *const ext[2] = { "vert", "frag" };
    char path[1024];
    for (unsigned i = 0; i < c.npairs; i++) {
        const struct pair *p = &c.pair[i];
        for (unsigned j = 0; j < i; j++)
            if (!strcmp(c.pair[j].name, p->name))
                die("pair %s listed twice", p->name);
        for (int st = 0; st < 2; st++) {
            char *text = instantiate(&c, p, st, argv[2]);
            snprintf(path, sizeof path, "%s/%s.%s", argv[3], p->name, ext[st]);
            write_file(path, text);
            const char *body = strchr(text, '\n');
            body = body ? body + 1 : text;
            unsigned k = 0;
            while (k < nseen && strcmp(seen[k], body))
                k++;
            if (k < nseen) {
                putf(&suite, "# %s.%s: the same as %s\n", p->name, ext[st],
                     seen_name[k]);
            } else {
                seen[nseen] = strdup(body);
                seen_name[nseen++] = strdup(strrchr(path, '/') + 1);
                putf(&suite, "%s.%s ../%s.scn %s\n", p->name, ext[st],
                     p->name, st == 0 ? "v" : "f");
            }
            free(text);
        }
        putf(&index, "%s %s/%s %s/%s %s\n", p->name, p->dir, p->file[0],
             p->dir, p->file[1], p->use[0] ? p->use : "-");
    }
    snprintf(path, sizeof path, "%s/index.txt", argv[3]);
    write_file(path, index.p);
    snprintf(path, sizeof path, "%s/suite.list", argv[3]);
    write_file(path, suite.p);
    free(index.p);
    free(suite.p);
    for (unsigned k = 0; k < nseen; k++) {
        free(seen[k]);
        free(seen_name[k]);
    }
    free(seen);
    free(seen_name);
    printf("minetest_gen: %u pairs into %s\n", c.npairs, argv[3]);
    return 0;
}
