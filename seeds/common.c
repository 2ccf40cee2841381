/*
 * The table-driven parts every seed ISA shares (seeds/seeds.h): the
 * assembler (one line at a time: label, mnemonic, operands, launch
 * directives; label references fixed up at the end), the disassembler, the
 * translator into compute IR text and the data memory.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "seeds/seeds.h"

const struct seed_isa *seed_isa_lookup(const char *name)
{
    static const struct seed_isa *const all[] = {
        &seed_kgpu, &seed_fpga, &seed_tinygpu
    };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (!strcmp(name, all[i]->name))
            return all[i];
    return NULL;
}

const char *seed_isa_names(void)
{
    return "kgpu, fpga, tinygpu";
}

static bool fail(struct us_diag *d, unsigned line, unsigned col,
                 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static bool fail(struct us_diag *d, unsigned line, unsigned col,
                 const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    d->line = line;
    d->col = col;
    vsnprintf(d->msg, sizeof d->msg, fmt, ap);
    va_end(ap);
    return false;
}

static const struct seed_field *find_field(const struct seed_isa *isa,
                                           char name)
{
    for (unsigned i = 0; i < isa->nfields; i++)
        if (isa->fields[i].name == name)
            return &isa->fields[i];
    return NULL;
}

static uint32_t field_mask(const struct seed_field *f)
{
    return (f->width >= 32 ? 0xffffffffu : (1u << f->width) - 1) << f->pos;
}

uint32_t seed_field(const struct seed_isa *isa, char name, uint32_t word)
{
    const struct seed_field *f = find_field(isa, name);
    return f ? (word & field_mask(f)) >> f->pos : 0;
}

uint32_t seed_field_set(const struct seed_isa *isa, char name, uint32_t word,
                        uint32_t value)
{
    const struct seed_field *f = find_field(isa, name);
    return f ? (word & ~field_mask(f)) | ((value << f->pos) & field_mask(f))
             : word;
}

uint32_t seed_operand_bits(const struct seed_isa *isa,
                           const struct seed_form *form)
{
    uint32_t bits = 0;
    for (const char *p = form->operands; *p; p++) {
        const struct seed_field *f = find_field(isa, *p);
        if (f)
            bits |= field_mask(f);
    }
    return bits;
}

const struct seed_form *seed_decode(const struct seed_isa *isa, uint32_t word)
{
    for (unsigned i = 0; i < isa->nforms; i++) {
        const struct seed_form *f = &isa->forms[i];
        if (!f->expand && (word & f->mask) == f->match)
            return f;
    }
    return NULL;
}

/* ---- kernels and launches -------------------------------------------- */

static bool grow(void **p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return true;
    size_t c = *cap ? *cap * 2 : 64;
    void *q = realloc(*p, c * size);
    if (!q)
        return false;
    *p = q;
    *cap = c;
    return true;
}

bool seed_launch_add(struct seed_launch *l, uint32_t addr, uint32_t value)
{
    if (!grow((void **)&l->data, &l->cap, l->ndata, sizeof *l->data))
        return false;
    l->data[l->ndata++] = (struct seed_data){ addr, value };
    return true;
}

static bool add_word(struct seed_kernel *k, uint32_t word, unsigned line)
{
    size_t cap = k->cap;
    if (!grow((void **)&k->words, &cap, k->n, sizeof *k->words))
        return false;
    if (cap != k->cap) {
        uint32_t *l = realloc(k->lines, cap * sizeof *l);
        if (!l)
            return false;
        k->lines = l;
        k->cap = cap;
    }
    k->words[k->n] = word;
    k->lines[k->n++] = line;
    return true;
}

void seed_kernel_free(struct seed_kernel *k)
{
    free(k->words);
    free(k->lines);
    free(k->launch.data);
    memset(k, 0, sizeof *k);
}

/* ---- the assembler ---------------------------------------------------- */

struct fixup {
    size_t word;
    const struct seed_field *field;
    char name[64];
    unsigned line, col;
};

struct label {
    char name[64];
    uint32_t pc;
};

struct asm_ctx {
    const struct seed_isa *isa;
    struct seed_kernel *k;
    struct us_diag *d;
    struct label *labels;
    size_t nlabels, cap_labels;
    struct fixup *fix;
    size_t nfix, cap_fix;
    unsigned line;
};

/* A span of the current line. */
struct span {
    const char *p;
    size_t n;
    unsigned col;
};

static bool is_ident_start(char c)
{
    return isalpha((unsigned char)c) || c == '_' || c == '.';
}

static bool is_ident(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '.';
}

static bool span_eq(struct span s, const char *w)
{
    return strlen(w) == s.n && !strncasecmp(s.p, w, s.n);
}

static struct span trim(struct span s)
{
    while (s.n && isspace((unsigned char)*s.p)) {
        s.p++;
        s.n--;
        s.col++;
    }
    while (s.n && isspace((unsigned char)s.p[s.n - 1]))
        s.n--;
    return s;
}

/* A number: decimal or 0x hex, with an optional '-'. */
static bool parse_number(struct span s, long long *out)
{
    if (!s.n || s.n > 30)
        return false;
    char buf[32];
    memcpy(buf, s.p, s.n);
    buf[s.n] = '\0';
    const char *q = buf[0] == '-' ? buf + 1 : buf;
    if (!isdigit((unsigned char)*q))
        return false;
    char *end;
    long long v = strtoll(buf, &end, 0);
    if (*end)
        return false;
    *out = v;
    return true;
}

/* A register: R<n> (any case) or one of the ISA's aliases.  -1 when `s`
 * is not register-shaped; -2 out of range (message set). */
static int parse_reg(struct asm_ctx *c, struct span s)
{
    const struct seed_isa *isa = c->isa;
    if (s.n >= 2 && s.p[0] == '[' && s.p[s.n - 1] == ']') {
        s.p++;
        s.n -= 2;
        s.col++;
        s = trim(s);
    }
    if (isa->alias)
        for (unsigned r = 0; r < isa->nregs; r++)
            if (isa->alias[r] && span_eq(s, isa->alias[r]))
                return (int)r;
    if (s.n < 2 || (s.p[0] != 'R' && s.p[0] != 'r'))
        return -1;
    unsigned v = 0;
    for (size_t i = 1; i < s.n; i++) {
        if (!isdigit((unsigned char)s.p[i]) || v > 1000)
            return -1;
        v = v * 10 + (unsigned)(s.p[i] - '0');
    }
    if (v >= isa->nregs) {
        fail(c->d, c->line, s.col, "register %.*s out of range (R0..R%u)",
             (int)s.n, s.p, isa->nregs - 1);
        return -2;
    }
    return (int)v;
}

static bool out_of_memory(struct asm_ctx *c)
{
    return fail(c->d, c->line, 0, "out of memory");
}

/* Split "a, b, c" into at most 8 operand spans. */
static int split_operands(struct span s, struct span *ops)
{
    int n = 0;
    s = trim(s);
    if (!s.n)
        return 0;
    size_t start = 0;
    for (size_t i = 0; i <= s.n; i++) {
        if (i == s.n || s.p[i] == ',') {
            if (n == 8)
                return -1;
            ops[n++] = trim((struct span){ s.p + start, i - start,
                                           s.col + (unsigned)start });
            start = i + 1;
        }
    }
    return n;
}

static int count_operands(const char *spec)
{
    if (!*spec)
        return 0;
    int n = 1;
    for (; *spec; spec++)
        n += *spec == ',';
    return n;
}

/* The field letter of operand i of a spec, and what it wants. */
static char spec_item(const char *spec, int i, char *kind)
{
    while (i-- > 0)
        spec = strchr(spec, ',') + 1;
    if (*spec == '#') {
        *kind = '#';
        return spec[1];
    }
    if (*spec == '[') {
        *kind = 'r';
        return spec[1];
    }
    *kind = *spec == 'T' ? 'T' : 'r';
    return *spec;
}

static bool set_field(struct asm_ctx *c, uint32_t *word, char name,
                      long long v, struct span at, bool is_reg)
{
    const struct seed_field *f = find_field(c->isa, name);
    if (!f)
        return fail(c->d, c->line, at.col, "internal: no field '%c'", name);
    long long max = f->width >= 32 ? 0xffffffffll : (1ll << f->width) - 1;
    long long min = c->isa->imm_signed && name == 'i' ? -(max + 1) / 2 : 0;
    if (!is_reg && (v < min || v > max))
        return fail(c->d, c->line, at.col, "%s %lld out of range (%lld..%lld)",
                    name == 'T' ? "branch target" : "immediate", v, min, max);
    *word |= ((uint32_t)v << f->pos) & field_mask(f);
    return true;
}

static bool assemble_text(struct asm_ctx *c, const char *text, size_t len,
                          bool expansion);

/* A pseudo-op: its expansion text assembled in place. */
static bool expand_pseudo(struct asm_ctx *c, const struct seed_form *f,
                          struct span *ops)
{
    char buf[512];
    size_t o = 0;
    for (const char *p = f->expand; *p && o + 64 < sizeof buf; p++) {
        if (*p != '%') {
            buf[o++] = *p;
            continue;
        }
        p++;
        if (*p == 'P') {   /* %P+n: this address + n */
            int n = p[2] - '0';
            p += 2;
            o += (size_t)snprintf(buf + o, sizeof buf - o, "%zu",
                                  c->k->n + (size_t)n);
            continue;
        }
        const char *spec = f->operands;
        for (int i = 0; i < count_operands(spec); i++) {
            char kind;
            if (spec_item(spec, i, &kind) == *p && ops[i].n < 60) {
                memcpy(buf + o, ops[i].p, ops[i].n);
                o += ops[i].n;
            }
        }
    }
    buf[o] = '\0';
    return assemble_text(c, buf, o, true);
}

static bool add_fixup(struct asm_ctx *c, const struct seed_field *field,
                      struct span at)
{
    if (!grow((void **)&c->fix, &c->cap_fix, c->nfix, sizeof *c->fix))
        return out_of_memory(c);
    struct fixup *x = &c->fix[c->nfix++];
    x->word = c->k->n;
    x->field = field;
    snprintf(x->name, sizeof x->name, "%.*s", (int)at.n, at.p);
    x->line = c->line;
    x->col = at.col;
    return true;
}

/* mnemonic operands */
static bool parse_instruction(struct asm_ctx *c, struct span mn,
                              struct span rest, bool expansion)
{
    struct span ops[8];
    int nops = split_operands(rest, ops);
    if (nops < 0)
        return fail(c->d, c->line, rest.col, "too many operands");
    const struct seed_form *named = NULL;
    for (unsigned fi = 0; fi < c->isa->nforms; fi++) {
        const struct seed_form *f = &c->isa->forms[fi];
        if (!span_eq(mn, f->mnemonic))
            continue;
        named = f;
        if (count_operands(f->operands) != nops)
            continue;
        /* operand kinds first: a form matches or the next is tried */
        bool kinds = true;
        for (int i = 0; i < nops && kinds; i++) {
            char kind;
            spec_item(f->operands, i, &kind);
            bool imm = ops[i].n && ops[i].p[0] == '#';
            kinds = kind == '#' ? imm : kind == 'T' ? !imm : !imm;
        }
        if (!kinds)
            continue;
        if (f->expand)
            return expand_pseudo(c, f, ops);
        uint32_t word = f->match;
        for (int i = 0; i < nops; i++) {
            char kind, name = spec_item(f->operands, i, &kind);
            struct span o = ops[i];
            long long v;
            if (kind == 'r') {
                int r = parse_reg(c, o);
                if (r == -2)
                    return false;
                if (r < 0)
                    return fail(c->d, c->line, o.col, "%s: expected a register, "
                                "found '%.*s'", f->mnemonic, (int)o.n, o.p);
                if (!set_field(c, &word, name, r, o, true))
                    return false;
            } else if (kind == '#') {
                struct span num = { o.p + 1, o.n - 1, o.col + 1 };
                if (!parse_number(trim(num), &v))
                    return fail(c->d, c->line, o.col, "%s: bad immediate '%.*s'",
                                f->mnemonic, (int)o.n, o.p);
                if (!set_field(c, &word, name, v, o, false))
                    return false;
            } else if (parse_number(o, &v)) {
                if (!set_field(c, &word, name, v, o, false))
                    return false;
            } else {
                bool ok = o.n && is_ident_start(o.p[0]) && !expansion;
                for (size_t j = 0; ok && j < o.n; j++)
                    ok = is_ident(o.p[j]);
                if (!ok)
                    return fail(c->d, c->line, o.col, "%s: expected a label or "
                                "an address, found '%.*s'", f->mnemonic,
                                (int)o.n, o.p);
                if (!add_fixup(c, find_field(c->isa, name), o))
                    return false;
            }
        }
        return add_word(c->k, word, c->line) || out_of_memory(c);
    }
    if (!named)
        return fail(c->d, c->line, mn.col, "unknown %s instruction '%.*s'",
                    c->isa->title, (int)mn.n, mn.p);
    /* say what the first form of that name wants */
    for (unsigned fi = 0; fi < c->isa->nforms; fi++) {
        const struct seed_form *f = &c->isa->forms[fi];
        if (span_eq(mn, f->mnemonic) && count_operands(f->operands) == nops)
            for (int i = 0; i < nops; i++) {
                char kind;
                spec_item(f->operands, i, &kind);
                bool imm = ops[i].n && ops[i].p[0] == '#';
                if ((kind == '#') != imm)
                    return fail(c->d, c->line, ops[i].col, "%s: expected %s, "
                                "found '%.*s'", f->mnemonic,
                                kind == '#' ? "an immediate #n" :
                                kind == 'T' ? "a label or an address" :
                                "a register", (int)ops[i].n, ops[i].p);
            }
    }
    return fail(c->d, c->line, mn.col, "%s takes operands %s", named->mnemonic,
                *named->operands ? named->operands : "none");
}

static bool directive_value(struct asm_ctx *c, struct span *s, long long *v,
                            long long lo, long long hi, const char *what)
{
    *s = trim(*s);
    size_t n = 0;
    while (n < s->n && !isspace((unsigned char)s->p[n]))
        n++;
    struct span tok = { s->p, n, s->col };
    if (!parse_number(tok, v))
        return fail(c->d, c->line, tok.col, "%s: expected a number, found "
                    "'%.*s'", what, (int)tok.n, tok.p);
    if (*v < lo || *v > hi)
        return fail(c->d, c->line, tok.col, "%s %lld out of range (%lld..%lld)",
                    what, *v, lo, hi);
    *s = (struct span){ s->p + n, s->n - n, s->col + (unsigned)n };
    return true;
}

/* .blocks N | .threads N | .data @ADDR v... | .word V */
static bool parse_directive(struct asm_ctx *c, struct span s)
{
    size_t n = 0;
    while (n < s.n && !isspace((unsigned char)s.p[n]))
        n++;
    struct span name = { s.p, n, s.col };
    struct span rest = { s.p + n, s.n - n, s.col + (unsigned)n };
    struct seed_launch *l = &c->k->launch;
    long long v;
    if (span_eq(name, ".blocks") || span_eq(name, ".threads")) {
        bool blocks = span_eq(name, ".blocks");
        uint32_t *dst = blocks ? &l->blocks : &l->threads;
        if (*dst)
            return fail(c->d, c->line, name.col, "%.*s given twice",
                        (int)name.n, name.p);
        if (!directive_value(c, &rest, &v, 1, 65535, blocks ? ".blocks" :
                             ".threads"))
            return false;
        *dst = (uint32_t)v;
        *(blocks ? &l->blocks_line : &l->threads_line) = c->line;
    } else if (span_eq(name, ".data")) {
        rest = trim(rest);
        if (!rest.n || rest.p[0] != '@')
            return fail(c->d, c->line, rest.col, ".data: expected @ADDR");
        rest.p++;
        rest.n--;
        rest.col++;
        long long top = (1ll << c->isa->data_bits) - 1;
        if (!directive_value(c, &rest, &v, 0, (long long)c->isa->mem_words - 1,
                             ".data address"))
            return false;
        uint32_t addr = (uint32_t)v;
        for (rest = trim(rest); rest.n; rest = trim(rest)) {
            struct span at = rest;
            if (!directive_value(c, &rest, &v, -(top + 1) / 2, top,
                                 ".data value"))
                return false;
            if (addr >= c->isa->mem_words)
                return fail(c->d, c->line, at.col, ".data: word %u lies beyond "
                            "the data memory (%u words)", addr,
                            c->isa->mem_words);
            if (!seed_launch_add(l, addr++, (uint32_t)v & (uint32_t)top))
                return out_of_memory(c);
        }
    } else if (span_eq(name, ".word")) {
        long long top = c->isa->word_bits >= 32 ? 0xffffffffll :
                        (1ll << c->isa->word_bits) - 1;
        if (!directive_value(c, &rest, &v, 0, top, ".word"))
            return false;
        if (!add_word(c->k, (uint32_t)v, c->line))
            return out_of_memory(c);
    } else {
        return fail(c->d, c->line, name.col, "unknown directive '%.*s'",
                    (int)name.n, name.p);
    }
    if (trim(rest).n)
        return fail(c->d, c->line, trim(rest).col, "unexpected '%.*s'",
                    (int)trim(rest).n, trim(rest).p);
    return true;
}

/* A comment that holds a launch directive: "; .threads 8", "// .data @0 1" */
static bool comment_directive(struct span s)
{
    static const char *const names[] = { ".blocks", ".threads", ".data" };
    s = trim(s);
    for (size_t i = 0; i < 3; i++) {
        size_t n = strlen(names[i]);
        if (s.n > n && !strncasecmp(s.p, names[i], n) &&
            isspace((unsigned char)s.p[n]))
            return true;
    }
    return false;
}

static bool parse_line(struct asm_ctx *c, struct span s, bool expansion)
{
    /* the comment: ';' or "//" to the end of the line */
    size_t cut = s.n;
    for (size_t i = 0; i < s.n; i++)
        if (s.p[i] == ';' || (s.p[i] == '/' && i + 1 < s.n && s.p[i + 1] == '/')) {
            cut = i;
            break;
        }
    if (cut < s.n) {
        size_t skip = s.p[cut] == ';' ? 1 : 2;
        struct span com = { s.p + cut + skip, s.n - cut - skip,
                            s.col + (unsigned)(cut + skip) };
        if (comment_directive(com) && !parse_directive(c, trim(com)))
            return false;
        s.n = cut;
    }
    s = trim(s);
    if (!s.n)
        return true;
    /* "label:" */
    size_t n = 0;
    while (n < s.n && is_ident(s.p[n]))
        n++;
    if (n && n < s.n && s.p[n] == ':' && is_ident_start(s.p[0]) &&
        s.p[0] != '.') {
        if (expansion)
            return fail(c->d, c->line, s.col, "internal: label in a pseudo-op");
        if (n >= 64)
            return fail(c->d, c->line, s.col, "label too long");
        for (size_t i = 0; i < c->nlabels; i++)
            if (strlen(c->labels[i].name) == n &&
                !strncmp(c->labels[i].name, s.p, n))
                return fail(c->d, c->line, s.col, "label %.*s defined twice",
                            (int)n, s.p);
        if (!grow((void **)&c->labels, &c->cap_labels, c->nlabels,
                  sizeof *c->labels))
            return out_of_memory(c);
        struct label *lb = &c->labels[c->nlabels++];
        memcpy(lb->name, s.p, n);
        lb->name[n] = '\0';
        lb->pc = (uint32_t)c->k->n;
        s = trim((struct span){ s.p + n + 1, s.n - n - 1, s.col + (unsigned)n + 1 });
        if (!s.n)
            return true;
    }
    if (s.p[0] == '.')
        return parse_directive(c, s);
    n = 0;
    while (n < s.n && !isspace((unsigned char)s.p[n]))
        n++;
    struct span mn = { s.p, n, s.col };
    return parse_instruction(c, mn, (struct span){ s.p + n, s.n - n,
                                                   s.col + (unsigned)n },
                             expansion);
}

static bool assemble_text(struct asm_ctx *c, const char *text, size_t len,
                          bool expansion)
{
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && text[i] != '\n')
            continue;
        size_t end = i;
        if (end > start && text[end - 1] == '\r')
            end--;
        if (!expansion)
            c->line++;
        if (memchr(text + start, '\0', end - start))
            return fail(c->d, c->line, 0, "NUL byte in the text");
        if (!parse_line(c, (struct span){ text + start, end - start, 1 },
                        expansion))
            return false;
        start = i + 1;
    }
    return true;
}

static bool resolve(struct asm_ctx *c)
{
    for (size_t i = 0; i < c->nfix; i++) {
        struct fixup *x = &c->fix[i];
        const struct label *lb = NULL;
        for (size_t j = 0; j < c->nlabels && !lb; j++)
            if (!strcmp(c->labels[j].name, x->name))
                lb = &c->labels[j];
        if (!lb)
            return fail(c->d, x->line, x->col, "undefined label '%s'", x->name);
        uint32_t max = (uint32_t)(field_mask(x->field) >> x->field->pos);
        if (lb->pc > max)
            return fail(c->d, x->line, x->col, "label '%s' at %u is beyond "
                        "the branch target field (0..%u)", x->name, lb->pc, max);
        c->k->words[x->word] |= lb->pc << x->field->pos;
    }
    return true;
}

bool seed_assemble(const struct seed_isa *isa, const char *text, size_t len,
                   struct seed_kernel *out, struct us_diag *diag)
{
    memset(out, 0, sizeof *out);
    memset(diag, 0, sizeof *diag);
    struct asm_ctx c = { .isa = isa, .k = out, .d = diag };
    bool ok = assemble_text(&c, text, len, false) && resolve(&c);
    free(c.labels);
    free(c.fix);
    if (!ok)
        seed_kernel_free(out);
    return ok;
}

bool seed_read_hex(const struct seed_isa *isa, const char *text, size_t len,
                   struct seed_kernel *out, struct us_diag *diag)
{
    memset(out, 0, sizeof *out);
    memset(diag, 0, sizeof *diag);
    struct asm_ctx c = { .isa = isa, .k = out, .d = diag };
    size_t start = 0;
    bool ok = true;
    for (size_t i = 0; i <= len && ok; i++) {
        if (i < len && text[i] != '\n')
            continue;
        c.line++;
        struct span s = { text + start, i - start, 1 };
        start = i + 1;
        size_t cut = s.n;
        for (size_t j = 0; j < s.n; j++)
            if (s.p[j] == ';' || (s.p[j] == '/' && j + 1 < s.n && s.p[j + 1] == '/')) {
                cut = j;
                break;
            }
        if (cut < s.n) {
            size_t skip = s.p[cut] == ';' ? 1 : 2;
            struct span com = { s.p + cut + skip, s.n - cut - skip,
                                (unsigned)(cut + skip) + 1 };
            if (comment_directive(com) && !parse_directive(&c, trim(com))) {
                ok = false;
                break;
            }
            s.n = cut;
        }
        s = trim(s);
        if (!s.n)
            continue;
        const char *p = s.p;
        size_t n = s.n;
        if (n > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
            p += 2;
            n -= 2;
        }
        unsigned digits = isa->word_bits / 4;
        uint32_t w = 0;
        for (size_t j = 0; j < n && ok; j++) {
            int v = isxdigit((unsigned char)p[j]) ?
                    (isdigit((unsigned char)p[j]) ? p[j] - '0' :
                     (tolower((unsigned char)p[j]) - 'a' + 10)) : -1;
            if (v < 0 || n > digits)
                ok = fail(diag, c.line, s.col, "expected one %u-bit word in "
                          "hex (up to %u digits), found '%.*s'", isa->word_bits,
                          digits, (int)s.n, s.p);
            w = w << 4 | (uint32_t)(v & 15);
        }
        if (ok && !add_word(out, w, c.line))
            ok = fail(diag, c.line, 0, "out of memory");
    }
    if (!ok)
        seed_kernel_free(out);
    return ok;
}

/* ---- the disassembler -------------------------------------------------- */

static void reg_text(const struct seed_isa *isa, unsigned r, char *buf,
                     size_t n)
{
    if (isa->alias && r < isa->nregs && isa->alias[r])
        snprintf(buf, n, "%s", isa->alias[r]);
    else
        snprintf(buf, n, "R%u", r);
}

void seed_disassemble(const struct seed_isa *isa, uint32_t word, bool labels,
                      char *buf, size_t n)
{
    const struct seed_form *f = seed_decode(isa, word);
    if (!f) {
        snprintf(buf, n, ".word 0x%0*x", (int)isa->word_bits / 4, word);
        return;
    }
    size_t o = (size_t)snprintf(buf, n, "%s", f->mnemonic);
    int nops = count_operands(f->operands);
    for (int i = 0; i < nops && o < n; i++) {
        char kind, name = spec_item(f->operands, i, &kind);
        uint32_t v = seed_field(isa, name, word);
        char t[32];
        if (kind == 'r')
            reg_text(isa, v, t, sizeof t);
        else if (kind == '#')
            snprintf(t, sizeof t, "#%u", v);
        else
            snprintf(t, sizeof t, labels ? "L%u" : "%u", v);
        bool br = strchr(f->operands, '[') && name == 's';
        o += (size_t)snprintf(buf + o, n - o, "%s%s%s%s", i ? ", " : " ",
                              br ? "[" : "", t, br ? "]" : "");
    }
}

/* ---- the translator ----------------------------------------------------- */

struct out {
    char *buf;
    size_t len, cap;
    bool oom;
};

static void put(struct out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = o->cap - o->len;
        int n = o->oom ? 0 : vsnprintf(o->buf ? o->buf + o->len : NULL,
                                       o->buf ? room : 0, fmt, ap);
        va_end(ap);
        if (o->oom || n < 0)
            return;
        if ((size_t)n < room) {
            o->len += (size_t)n;
            return;
        }
        size_t cap = (o->cap + (size_t)n + 1) * 2;
        char *b = realloc(o->buf, cap);
        if (!b) {
            o->oom = true;
            return;
        }
        o->buf = b;
        o->cap = cap;
    }
}

static void put_label(struct out *o, uint32_t pc, size_t n)
{
    if (pc >= n)
        put(o, "end");
    else
        put(o, "L%u", pc);
}

/* One seed instruction's group from its form's template. */
static bool emit_group(const struct seed_isa *isa, const struct seed_kernel *k,
                       size_t pc, const uint32_t *join, struct out *o,
                       struct us_diag *d)
{
    uint32_t word = k->words[pc];
    unsigned line = k->lines[pc];
    const struct seed_form *f = seed_decode(isa, word);
    if (!f)
        return fail(d, line, 0, "word %zu (0x%0*x) is no %s instruction", pc,
                    (int)isa->word_bits / 4, word, isa->title);
    if (!f->ir)
        return fail(d, line, 0, "%s is not modelled by the %s front end "
                    "(docs/seeds/%s.md)", f->mnemonic, isa->title, isa->name);
    for (const char *p = f->ir; *p; p++) {
        if (*p == '|') {
            put(o, "|\n    ");
            while (p[1] == ' ')
                p++;
            continue;
        }
        if (*p != '%') {
            put(o, "%c", *p);
            continue;
        }
        char c = *++p;
        if (c == 'd' || c == 's' || c == 't' || c == 'D' || c == 'S') {
            char fld = (char)tolower((unsigned char)c), buf[64], msg[160];
            unsigned r = seed_field(isa, fld, word);
            if (!isa->reg(r, c != fld, buf, sizeof buf, msg, sizeof msg)) {
                char dis[96];
                seed_disassemble(isa, word, false, dis, sizeof dis);
                return fail(d, line, 0, "%s: %s", dis, msg);
            }
            put(o, "%s", buf);
        } else if (c == 'i' || c == 'b') {
            put(o, "%u", seed_field(isa, c, word));
        } else if (c == '8') {
            put(o, "%u", seed_field(isa, 'b', word) * 8);
        } else if (c == 'L') {
            uint32_t t = seed_field(isa, 'T', word);
            if (t > k->n)
                return fail(d, line, 0, "branch target %u lies beyond the "
                            "kernel's %zu instructions", t, k->n);
            put_label(o, t, k->n);
        } else if (c == 'E') {
            put(o, "end");
        } else if (c == 'J') {
            if (join && join[pc] != UINT32_MAX) {
                put(o, " |\n    BRA ");
                put_label(o, join[pc], k->n);
            }
        } else {
            put(o, "%%");
        }
    }
    put(o, ";\n");
    return true;
}

bool seed_translate(const struct seed_isa *isa, const struct seed_kernel *k,
                    const struct seed_launch *l, char **ir,
                    struct us_diag *diag)
{
    memset(diag, 0, sizeof *diag);
    *ir = NULL;
    uint32_t groups, local;
    if (!seed_launch_dims(isa, l, &groups, &local, diag))
        return false;
    size_t n = k->n;
    bool *target = calloc(n + 1, sizeof *target);
    uint32_t *join = isa->joins ? malloc((n + 1) * sizeof *join) : NULL;
    if (!target || (isa->joins && !join)) {
        free(target);
        free(join);
        return fail(diag, 0, 0, "out of memory");
    }
    bool ok = !isa->joins || isa->joins(isa, k, join, diag);
    for (size_t pc = 0; ok && pc < n; pc++) {
        const struct seed_form *f = seed_decode(isa, k->words[pc]);
        if (f && strchr(f->operands, 'T')) {
            uint32_t t = seed_field(isa, 'T', k->words[pc]);
            if (t <= n)
                target[t] = true;
        }
        if (join && join[pc] != UINT32_MAX)
            target[join[pc]] = true;
    }
    struct out o = { 0 };
    put(&o, "!!USHADERcp1.0\n# %s kernel of %zu words, translated by "
        "ushader's front end (docs/seeds/%s.md): each group is one %s "
        "instruction.\nOPTION USHADER_word%u;\nGROUP_SIZE %u;\nTEMP ",
        isa->title, n, isa->name, isa->title, isa->data_bits, local);
    for (unsigned r = 0; r < isa->nregs; r++)
        put(&o, "r%u, ", r);
    put(&o, "%s;\n", isa->temps);
    for (size_t pc = 0; ok && pc < n; pc++) {
        if (target[pc])
            put(&o, "L%zu:\n", pc);
        char dis[96];
        seed_disassemble(isa, k->words[pc], true, dis, sizeof dis);
        put(&o, "# %zu: %s\n", pc, dis);
        ok = emit_group(isa, k, pc, join, &o, diag);
    }
    put(&o, "end:\nEND\n");
    free(target);
    free(join);
    if (ok && o.oom)
        ok = fail(diag, 0, 0, "out of memory");
    if (!ok) {
        free(o.buf);
        return false;
    }
    *ir = o.buf;
    return true;
}

/* ---- launches and memory ------------------------------------------------ */

bool seed_launch_dims(const struct seed_isa *isa, const struct seed_launch *l,
                      uint32_t *groups, uint32_t *local, struct us_diag *diag)
{
    memset(diag, 0, sizeof *diag);
    return isa->launch(l, groups, local, diag);
}

size_t seed_memory_bytes(const struct seed_isa *isa, uint32_t blocks)
{
    return (size_t)isa->mem_words * (isa->data_bits / 8) *
           (isa->per_core ? blocks : 1);
}

bool seed_memory_init(const struct seed_isa *isa, const struct seed_launch *l,
                      uint32_t blocks, uint8_t *buf, struct us_diag *diag)
{
    unsigned bytes = isa->data_bits / 8;
    uint32_t copies = isa->per_core ? blocks : 1;
    for (size_t i = 0; i < l->ndata; i++) {
        const struct seed_data *x = &l->data[i];
        if (x->addr >= isa->mem_words)
            return fail(diag, 0, 0, "data word %u lies beyond the data memory "
                        "(%u words)", x->addr, isa->mem_words);
        for (uint32_t b = 0; b < copies; b++) {
            size_t at = ((size_t)b * isa->mem_words + x->addr) * bytes;
            for (unsigned j = 0; j < bytes; j++)
                buf[at + j] = (uint8_t)(x->value >> (8 * j));
        }
    }
    return true;
}

uint32_t seed_memory_word(const struct seed_isa *isa, const uint8_t *buf,
                          uint32_t block, uint32_t addr)
{
    unsigned bytes = isa->data_bits / 8;
    size_t at = ((size_t)(isa->per_core ? block : 0) * isa->mem_words + addr) *
                bytes;
    uint32_t v = 0;
    for (unsigned j = 0; j < bytes; j++)
        v |= (uint32_t)buf[at + j] << (8 * j);
    return v;
}
