/*
 * glmark2_gen: instantiate glmark2's shader templates (Debian glmark2-data,
 * /usr/share/glmark2/shaders) into concrete GLSL ES 1.00 sources, as
 * glmark2's scenes do at run time, from the values in a catalogue
 * (bench/glmark2/pairs.txt; its header documents the directives).
 *
 *   glmark2_gen CATALOGUE SHADER_DIR OUT_DIR
 *
 * writes OUT_DIR/NAME.vert and OUT_DIR/NAME.frag for every pair,
 * OUT_DIR/index.txt ("NAME VERT FRAG BENCHMARK", one pair a line) and
 * OUT_DIR/suite.list, a `ushader bench --suite` list in which a shader
 * whose text equals an earlier one appears once.  The shader files
 * themselves are never copied into the repository: only the values live
 * there, each with the glmark2 source it comes from.
 *
 * What an instantiation does, in order (mirroring glmark2's ShaderSource):
 *   1. placeholders $KEY$ are replaced (text, a file repeated N times, or a
 *      convolution generated from a kernel), like ShaderSource::replace;
 *   2. global `bind` rules turn a declared attribute or uniform that glmark2
 *      feeds itself (positions, its matrices) into the GL built-in holding
 *      the same value: the declaration goes, the identifier is rewritten;
 *   3. `token` rules substitute glmark2's preamble macros (HIGHP_OR_DEFAULT);
 *   4. constants go after the precision statement, like add_const();
 *   5. `#version 100` and, for fragment shaders, glmark2's default
 *      `precision mediump float;` open the file.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_LINE = 4096, MAX_PAIRS = 128, MAX_EDITS = 64, MAX_RULES = 64,
       MAX_FILE = 1 << 20 };

#define GEN_NAME "glmark2_gen"
#include "tools/gen_text.h"

/* ---- the catalogue ------------------------------------------------------ */

enum stage { VERT, FRAG, NSTAGES };
static const char *const stage_ext[NSTAGES] = { "vert", "frag" };

enum edit_kind { E_TEXT, E_FILE, E_CONV, E_BLUR, E_CONST };

struct edit {
    enum edit_kind kind;
    enum stage stage;
    char key[64];             /* $KEY$, or the constant's name            */
    char type[16];            /* E_CONST                                  */
    char arg[MAX_LINE];       /* text, file name, kernel, values          */
    int count;                /* E_FILE repetitions                       */
};

struct pair {
    char name[64], file[NSTAGES][128], bench[256];
    struct edit edit[MAX_EDITS];
    unsigned nedits;
};

/* bind: declaration `QUAL TYPE NAME;` -> identifier NAME becomes `to`. */
struct rule {
    char qual[16], type[16], name[64], to[128];
};

struct catalogue {
    struct pair pair[MAX_PAIRS];
    unsigned npairs;
    struct rule bind[MAX_RULES];
    unsigned nbinds;
    struct rule token[MAX_RULES];   /* name -> to                        */
    unsigned ntokens;
};

static void copy(char *dst, size_t size, const char *src, const char *path,
                 unsigned line)
{
    if (!src || strlen(src) >= size)
        die("%s:%u: missing or overlong word", path, line);
    memcpy(dst, src, strlen(src) + 1);
}

static enum stage parse_stage(const char *w, const char *path, unsigned line)
{
    for (int s = 0; s < NSTAGES; s++)
        if (w && !strcmp(w, stage_ext[s]))
            return (enum stage)s;
    die("%s:%u: expected vert or frag", path, line);
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
        } else if (!strcmp(kw, "bind") || !strcmp(kw, "token")) {
            bool bind = kw[0] == 'b';
            struct rule *r;
            if (bind ? c->nbinds == MAX_RULES : c->ntokens == MAX_RULES)
                die("%s:%u: too many rules", path, line);
            r = bind ? &c->bind[c->nbinds++] : &c->token[c->ntokens++];
            memset(r, 0, sizeof *r);
            if (bind) {
                copy(r->qual, sizeof r->qual, next_word(&s), path, line);
                copy(r->type, sizeof r->type, next_word(&s), path, line);
            }
            copy(r->name, sizeof r->name, next_word(&s), path, line);
            copy(r->to, sizeof r->to, rest(&s), path, line);
        } else if (!strcmp(kw, "pair")) {
            if (c->npairs == MAX_PAIRS)
                die("%s:%u: too many pairs", path, line);
            cur = &c->pair[c->npairs++];
            memset(cur, 0, sizeof *cur);
            copy(cur->name, sizeof cur->name, next_word(&s), path, line);
            copy(cur->file[VERT], sizeof cur->file[VERT], next_word(&s),
                 path, line);
            copy(cur->file[FRAG], sizeof cur->file[FRAG], next_word(&s),
                 path, line);
        } else if (!cur) {
            die("%s:%u: '%s' before the first pair", path, line, kw);
        } else if (!strcmp(kw, "bench")) {
            copy(cur->bench, sizeof cur->bench, rest(&s), path, line);
        } else if (!strcmp(kw, "from")) {
            /* documentation only: the glmark2 source of the values */
        } else {
            if (cur->nedits == MAX_EDITS)
                die("%s:%u: too many edits", path, line);
            struct edit *e = &cur->edit[cur->nedits++];
            memset(e, 0, sizeof *e);
            if (!strcmp(kw, "text"))
                e->kind = E_TEXT;
            else if (!strcmp(kw, "file"))
                e->kind = E_FILE;
            else if (!strcmp(kw, "conv"))
                e->kind = E_CONV;
            else if (!strcmp(kw, "blur"))
                e->kind = E_BLUR;
            else if (!strcmp(kw, "const"))
                e->kind = E_CONST;
            else
                die("%s:%u: unknown directive '%s'", path, line, kw);
            e->stage = parse_stage(next_word(&s), path, line);
            if (e->kind == E_CONST)
                copy(e->type, sizeof e->type, next_word(&s), path, line);
            copy(e->key, sizeof e->key, next_word(&s), path, line);
            e->count = 1;
            if (e->kind == E_FILE) {
                copy(e->arg, sizeof e->arg, next_word(&s), path, line);
                char *cnt = next_word(&s);
                if (cnt) {
                    char *end;
                    long v = strtol(cnt, &end, 10);
                    if (*end || v < 0 || v > 64)
                        die("%s:%u: bad count '%s'", path, line, cnt);
                    e->count = (int)v;
                }
            } else {
                copy(e->arg, sizeof e->arg, rest(&s), path, line);
            }
        }
        if (!eol)
            break;
        p = eol + 1;
    }
    free(text);
}

/* ---- instantiation -------------------------------------------------------- */

/* Replace every occurrence of `key` in *src by `with` (ShaderSource::
 * replace); returns the number of replacements. */
static unsigned replace_all(char **src, const char *key, const char *with)
{
    struct str out = { 0 };
    unsigned n = 0;
    size_t klen = strlen(key);
    const char *p = *src;
    for (const char *hit; (hit = strstr(p, key)); p = hit + klen) {
        put(&out, p, (size_t)(hit - p));
        puts_(&out, with);
        n++;
    }
    puts_(&out, p);
    free(*src);
    *src = out.p;
    return n;
}

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Replace identifier `name` (whole tokens only, not after '.') by `with`. */
static unsigned replace_ident(char **src, const char *name, const char *with)
{
    struct str out = { 0 };
    unsigned n = 0;
    size_t len = strlen(name);
    const char *s = *src;
    for (size_t i = 0; s[i];) {
        if (ident_char(s[i]) && (i == 0 || !ident_char(s[i - 1]))) {
            size_t j = i;
            while (ident_char(s[j]))
                j++;
            bool member = false;
            for (size_t k = i; k > 0; k--) {
                if (s[k - 1] == ' ' || s[k - 1] == '\t')
                    continue;
                member = s[k - 1] == '.';
                break;
            }
            if (j - i == len && !memcmp(s + i, name, len) && !member) {
                puts_(&out, with);
                n++;
            } else {
                put(&out, s + i, j - i);
            }
            i = j;
        } else {
            put(&out, s + i, 1);
            i++;
        }
    }
    free(*src);
    *src = out.p ? out.p : strdup("");
    return n;
}

/* Remove the statement `QUAL [precision] TYPE NAME ;` (blanks between);
 * returns whether it was there. */
static bool remove_decl(char **src, const struct rule *r)
{
    static const char *const prec[] = { "", "lowp ", "mediump ", "highp " };
    for (unsigned k = 0; k < 4; k++) {
        char pat[256];
        snprintf(pat, sizeof pat, "%s %s%s %s;", r->qual, prec[k], r->type,
                 r->name);
        char *hit = strstr(*src, pat);
        if (hit && (hit == *src || !ident_char(hit[-1]))) {
            memmove(hit, hit + strlen(pat), strlen(hit + strlen(pat)) + 1);
            return true;
        }
    }
    return false;
}

/* glmark2's convolution fragment shaders (scene-effect-2d.cpp,
 * create_convolution_fragment_shader and normalize): the kernel
 * "a,b,c;d,e,f;..." (rows top first) is normalized by the sum of its
 * weights, or of its positive weights when they sum to zero; each weight
 * becomes a constant KernelI and `result` the sum of the texels at
 * (x - (w-1)/2, (h-1)/2 - y) steps of TextureStepX/Y around TextureCoord,
 * each times its weight. */
static void convolution(struct str *consts, struct str *out,
                        const char *kernel, const char *where)
{
    enum { MAXK = 81 };
    float k[MAXK];
    unsigned n = 0, width = 0, height = 0, c = 0;
    for (const char *p = kernel;;) {
        if (*p == ';' || !*p) {
            if (c) {
                if (height && c != width)
                    die("%s: kernel rows differ in length", where);
                width = c;
                height++;
                c = 0;
            }
            if (!*p)
                break;
            p++;
            continue;
        }
        if (*p == ',') {
            p++;
            continue;
        }
        char *end;
        float v = strtof(p, &end);
        if (end == p || n == MAXK)
            die("%s: bad kernel '%s'", where, kernel);
        k[n++] = v;
        c++;
        p = end;
    }
    if (!n)
        die("%s: empty kernel", where);
    float sum = 0;
    for (unsigned i = 0; i < n; i++)
        sum += k[i];
    if (sum > -1e-8f && sum < 1e-8f) {
        sum = 0;
        for (unsigned i = 0; i < n; i++)
            if (k[i] > 0)
                sum += k[i];
    }
    puts_(out, "result = ");
    for (unsigned i = 0; i < n; i++) {
        if (sum != 0)
            k[i] /= sum;
        putf(consts, "const float Kernel%u = %f;\n", i, k[i]);
        int x = (int)(i % width) - (int)(width - 1) / 2;
        int y = -((int)(i / width) - (int)(height - 1) / 2);
        putf(out, "texture2D(Texture0, TextureCoord + vec2(%.1f * "
             "TextureStepX, %.1f * TextureStepY)) * Kernel%u%s", (double)x,
             (double)y, i, i + 1 < n ? " +\n" : ";\n");
    }
}

/* glmark2's Gaussian blur fragment shaders (scene-desktop.cpp,
 * create_blur_shaders): weights KernelI = exp(-i^2 / (2 s^2)) /
 * sqrt(pi 2 s^2) for i = 0..RADIUS (s = max(SIGMA, 1)) become constants;
 * `result` sums the texels at offsets -RADIUS..RADIUS steps along x (h),
 * y (v) or both, each times its weight(s), then `+ 0.0`.
 * Arguments: "RADIUS SIGMA h|v|both". */
static void blur(struct str *consts, struct str *out, const char *args,
                 const char *where)
{
    unsigned radius;
    float sigma;
    char dir[8];
    if (sscanf(args, "%u %f %7s", &radius, &sigma, dir) != 3 || radius > 16 ||
        (strcmp(dir, "h") && strcmp(dir, "v") && strcmp(dir, "both")))
        die("%s: blur takes RADIUS SIGMA h|v|both", where);
    if (sigma < 1.0f)
        sigma = 1.0f;
    for (unsigned i = 0; i <= radius; i++) {
        float s2 = 2.0f * sigma * sigma;
        float k = 1.0f / sqrtf(3.14159265358979f * s2) *
                  expf(-(float)(i * i) / s2);
        putf(consts, "const float Kernel%u = %f;\n", i, (double)k);
    }
    puts_(out, "result = \n");
    int r = (int)radius;
    for (int i = -r; i <= r; i++) {
        if (!strcmp(dir, "h"))
            putf(out, "texture2D(Texture0, TextureCoord + vec2(%d.0 * "
                 "TextureStepX, 0.0)) * Kernel%d +\n", i, abs(i));
        else if (!strcmp(dir, "v"))
            putf(out, "texture2D(Texture0, TextureCoord + vec2(0.0, %d.0 * "
                 "TextureStepY)) * Kernel%d +\n", i, abs(i));
        else
            for (int j = -r; j <= r; j++)
                putf(out, "texture2D(Texture0, TextureCoord + vec2(%d.0 * "
                     "TextureStepX, %d.0 * TextureStepY)) * Kernel%d * "
                     "Kernel%d +\n", i, j, abs(i), abs(j));
    }
    puts_(out, "0.0 ;\n");
}

static char *instantiate(const struct catalogue *c, const struct pair *p,
                         enum stage st, const char *dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, p->file[st]);
    char *src = read_file(path);
    char where[256];
    snprintf(where, sizeof where, "pair %s (%s)", p->name, p->file[st]);
    struct str consts = { 0 };
    puts_(&consts, "");
    for (unsigned i = 0; i < p->nedits; i++) {
        const struct edit *e = &p->edit[i];
        if (e->stage != st)
            continue;
        struct str with = { 0 };
        puts_(&with, "");
        switch (e->kind) {
        case E_TEXT:
            /* "\\n" in the catalogue is a line break */
            for (const char *t = e->arg; *t; t++) {
                if (t[0] == '\\' && t[1] == 'n') {
                    puts_(&with, "\n");
                    t++;
                } else {
                    put(&with, t, 1);
                }
            }
            break;
        case E_FILE: {
            snprintf(path, sizeof path, "%s/%s", dir, e->arg);
            char *f = read_file(path);
            for (int r = 0; r < e->count; r++)
                puts_(&with, f);
            free(f);
            break;
        }
        case E_CONV:
            convolution(&consts, &with, e->arg, where);
            break;
        case E_BLUR:
            blur(&consts, &with, e->arg, where);
            break;
        case E_CONST: {
            /* add_const(): "const TYPE NAME = TYPE(v, ...);" */
            char vals[MAX_LINE];
            snprintf(vals, sizeof vals, "%s", e->arg);
            for (char *v = vals; *v; v++)
                if (*v == ' ')
                    *v = ',';
            if (!strcmp(e->type, "float") || !strcmp(e->type, "int"))
                putf(&consts, "const %s %s = %s;\n", e->type, e->key, vals);
            else
                putf(&consts, "const %s %s = %s(%s);\n", e->type, e->key,
                     e->type, vals);
            break;
        }
        }
        if (e->kind != E_CONST && !replace_all(&src, e->key, with.p))
            die("%s: no %s to replace", where, e->key);
        free(with.p);
    }
    if (strchr(src, '$') && strstr(strchr(src, '$') + 1, "$"))
        for (const char *d = strchr(src, '$'); d; d = strchr(d + 1, '$')) {
            const char *e = d + 1;
            while (*e == '_' || isupper((unsigned char)*e))
                e++;
            if (*e == '$' && e > d + 1)
                die("%s: placeholder %.*s left unset", where,
                    (int)(e - d + 1), d);
        }
    for (unsigned i = 0; i < c->nbinds; i++)
        if (remove_decl(&src, &c->bind[i]))
            replace_ident(&src, c->bind[i].name, c->bind[i].to);
    for (unsigned i = 0; i < c->ntokens; i++)
        replace_ident(&src, c->token[i].name, c->token[i].to);

    /* The header names neither the pair nor its source (index.txt does):
     * shaders instantiated alike are then the same text, one compile in
     * the SPIR-V cache (glsl/spv_cache.c keys it by the text). */
    struct str out = { 0 };
    puts_(&out, "// glmark2-data's shader instantiated by tools/glmark2_gen "
          "from bench/glmark2/pairs.txt (do not edit)\n");
    puts_(&out, "#version 100\n");
    if (st == FRAG)
        puts_(&out, "precision mediump float;\n");
    puts_(&out, consts.p);
    puts_(&out, src);
    free(consts.p);
    free(src);
    return out.p;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: glmark2_gen CATALOGUE SHADER_DIR OUT_DIR\n");
        return 2;
    }
    static struct catalogue c;
    parse_catalogue(&c, argv[1]);
    struct str index = { 0 }, suite = { 0 };
    puts_(&index, "# NAME VERT FRAG BENCHMARK (tools/glmark2_gen)\n");
    puts_(&suite, "# The glmark2 pairs as a `ushader bench --suite` list "
          "(tools/glmark2_gen):\n# PROGRAM SCENE SLOT; a shader whose text "
          "equals an earlier one is listed once.\n");
    /* instantiated texts without their first (header) line, for dedup */
    char **seen = calloc(2 * (size_t)c.npairs + 1, sizeof *seen);
    const char **seen_name = calloc(2 * (size_t)c.npairs + 1, sizeof *seen_name);
    unsigned nseen = 0;
    if (!seen || !seen_name)
        die("out of memory");
    char path[1024];
    for (unsigned i = 0; i < c.npairs; i++) {
        const struct pair *p = &c.pair[i];
        for (unsigned j = 0; j < i; j++)
            if (!strcmp(c.pair[j].name, p->name))
                die("pair %s listed twice", p->name);
        for (int st = 0; st < NSTAGES; st++) {
            char *text = instantiate(&c, p, (enum stage)st, argv[2]);
            snprintf(path, sizeof path, "%s/%s.%s", argv[3], p->name,
                     stage_ext[st]);
            write_file(path, text);
            const char *body = strchr(text, '\n');
            body = body ? body + 1 : text;
            unsigned k = 0;
            while (k < nseen && strcmp(seen[k], body))
                k++;
            if (k < nseen) {
                putf(&suite, "# %s.%s: the same as %s\n", p->name,
                     stage_ext[st], seen_name[k]);
            } else {
                seen[nseen] = strdup(body);
                seen_name[nseen++] = strdup(strrchr(path, '/') + 1);
                putf(&suite, "%s.%s ../%s.scn %s\n", p->name, stage_ext[st],
                     p->name, st == VERT ? "v" : "f");
            }
            free(text);
        }
        putf(&index, "%s %s %s %s\n", p->name, p->file[VERT], p->file[FRAG],
             p->bench[0] ? p->bench : "-");
    }
    snprintf(path, sizeof path, "%s/index.txt", argv[3]);
    write_file(path, index.p);
    snprintf(path, sizeof path, "%s/suite.list", argv[3]);
    write_file(path, suite.p);
    free(index.p);
    free(suite.p);
    for (unsigned k = 0; k < nseen; k++) {
        free(seen[k]);
        free((char *)seen_name[k]);
    }
    free(seen);
    free(seen_name);
    printf("glmark2_gen: %u pairs into %s\n", c.npairs, argv[3]);
    return 0;
}
