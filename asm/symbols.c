/*
 * The assembler's tables: names (declarations and aliases), reserved
 * keywords, and the growing instruction / parameter / declaration arrays of
 * the program under construction, each checked against its limit.
 */
#include <stdlib.h>
#include <string.h>

#include "asm/asm_internal.h"

/* FNV-1a over the name's bytes. */
static uint32_t name_hash(const char *name, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)name[i]) * 16777619u;
    return h;
}

int asm_sym_lookup(struct asm_ctx *c, const struct token *at,
                   const char *what)
{
    char buf[64];
    if (at->kind != TOK_IDENT) {
        asm_error(c, at, "expected %s, found %s", what,
                  asm_describe(at, buf, sizeof buf));
        return -1;
    }
    int d = asm_sym_find(c, at->text, at->len);
    if (d < 0)
        asm_error(c, at, "undeclared identifier %s",
                  asm_describe(at, buf, sizeof buf));
    return d;
}

int asm_sym_find(const struct asm_ctx *c, const char *name, size_t len)
{
    if (!c->cap_syms)
        return -1;
    unsigned mask = c->cap_syms - 1;
    for (unsigned i = name_hash(name, len) & mask;; i = (i + 1) & mask) {
        const struct asm_sym *s = &c->syms[i];
        if (!s->name)
            return -1;
        if (s->len == len && !memcmp(s->name, name, len))
            return s->decl;
    }
}

static void sym_insert(struct asm_sym *table, unsigned cap, struct asm_sym s)
{
    unsigned mask = cap - 1;
    unsigned i = name_hash(s.name, s.len) & mask;
    while (table[i].name)
        i = (i + 1) & mask;
    table[i] = s;
}

bool asm_sym_add(struct asm_ctx *c, const struct token *name, int decl)
{
    if (c->nsyms >= ASM_MAX_NAMES)
        return asm_error(c, name, "too many names (limit %d)", ASM_MAX_NAMES);
    /* Keep the table at most half full so probes stay short. */
    if (2 * (c->nsyms + 1) > c->cap_syms) {
        unsigned cap = c->cap_syms ? 2 * c->cap_syms : 64;
        struct asm_sym *t = calloc(cap, sizeof *t);
        if (!t)
            return asm_error(c, name, "out of memory");
        for (unsigned i = 0; i < c->cap_syms; i++)
            if (c->syms[i].name)
                sym_insert(t, cap, c->syms[i]);
        free(c->syms);
        c->syms = t;
        c->cap_syms = cap;
    }
    sym_insert(c->syms, c->cap_syms,
               (struct asm_sym){ name->text, name->len, decl });
    c->nsyms++;
    return true;
}

/* ARB_vertex_program 2.14.2 and ARB_fragment_program 3.11.2 list the
 * reserved keywords: the instruction mnemonics of the language (with their
 * _SAT forms in fragment programs) and these words. */
static const char *const vp_words[] = {
    "ADDRESS", "ALIAS", "ATTRIB", "END", "OPTION", "OUTPUT", "PARAM",
    "TEMP", "program", "result", "state", "vertex", NULL
};
static const char *const fp_words[] = {
    "ALIAS", "ATTRIB", "END", "OPTION", "OUTPUT", "PARAM", "TEMP",
    "fragment", "program", "result", "state", "texture", NULL
};
static const char *const cp_words[] = {
    "ADDRESS", "ALIAS", "ATTRIB", "END", "GROUP_SIZE", "OPTION", "PARAM",
    "SHARED_MEMORY", "TEMP", "buffer", "invocation", "program", "shared",
    "state", "texture", NULL
};

bool asm_is_reserved(const struct asm_ctx *c, const struct token *t)
{
    bool fp = asm_is_fp(c);
    const char *const *words = asm_is_vp(c) ? vp_words
                             : fp ? fp_words : cp_words;
    for (const char *const *w = words; *w; w++)
        if (asm_is_word(t, *w))
            return true;
    size_t len = t->len;
    bool sat = fp && len > 4 && !memcmp(t->text + len - 4, "_SAT", 4);
    if (sat)
        len -= 4;
    int op = us_op_lookup(t->text, len);
    bool ext = c->prog.options & US_OPT_USHADER_EXTENSIONS;
    if (op < 0 || !(us_ops[op].stages & asm_stage_bit(c) ||
                    (ext && us_ops[op].stages & US_EXT)))
        return false;
    /* extension mnemonics stay free names in plain ARB programs */
    if ((us_ops[op].stages & US_EXT) && !ext)
        return false;
    return !sat || us_ops[op].shape != US_SHAPE_NONE;
}

/* Grow an array to hold n + 1 elements of `size` bytes. */
bool asm_grow(void **arr, unsigned *cap, unsigned n, size_t size)
{
    if (n < *cap)
        return true;
    unsigned ncap = *cap ? 2 * *cap : 16;
    void *p = realloc(*arr, (size_t)ncap * size);
    if (!p)
        return false;
    *arr = p;
    *cap = ncap;
    return true;
}

int asm_add_decl(struct asm_ctx *c, const struct token *name,
                 enum us_decl_kind kind, unsigned base, unsigned size,
                 bool array)
{
    struct us_program *p = &c->prog;
    if (p->ndecls >= ASM_MAX_DECLS) {
        asm_error(c, name, "too many declarations (limit %d)", ASM_MAX_DECLS);
        return -1;
    }
    if (!asm_grow((void **)&p->decls, &c->cap_decls, p->ndecls, sizeof *p->decls)) {
        asm_error(c, name, "out of memory");
        return -1;
    }
    struct us_decl *d = &p->decls[p->ndecls];
    memset(d, 0, sizeof *d);
    memcpy(d->name, name->text, name->len);  /* length checked by caller */
    d->kind = (uint8_t)kind;
    d->base = (uint16_t)base;
    d->size = (uint16_t)size;
    d->array = array;
    return (int)p->ndecls++;
}

/* Equal in-place literals share a slot (checked before the limit, so a
 * program at the limit may repeat its constants), and so do in-place
 * program.pre[n] (one register of the preshader, one slot). */
static int find_literal(const struct us_program *p, const struct us_param *q)
{
    if (q->decl != -1 || (q->kind != US_PARAM_CONST &&
                          q->kind != US_PARAM_PRE))
        return -1;
    for (unsigned i = 0; i < p->nparams; i++)
        if (p->params[i].decl == -1 && p->params[i].kind == q->kind &&
            (q->kind == US_PARAM_PRE
                 ? p->params[i].index == q->index
                 : !memcmp(p->params[i].value, q->value, sizeof q->value)))
            return (int)i;
    return -1;
}

int asm_add_param(struct asm_ctx *c, const struct token *at,
                  const struct us_param *param)
{
    struct us_program *p = &c->prog;
    int same = find_literal(p, param);
    if (same >= 0)
        return c->last_param = same;
    if (p->nparams >= c->max_params) {
        asm_error(c, at, "too many program parameters (limit %u)", c->max_params);
        return -1;
    }
    if (!asm_grow((void **)&p->params, &c->cap_params, p->nparams, sizeof *p->params)) {
        asm_error(c, at, "out of memory");
        return -1;
    }
    p->params[p->nparams] = *param;
    return c->last_param = (int)p->nparams++;
}

struct us_inst *asm_add_inst(struct asm_ctx *c, const struct token *at)
{
    struct us_program *p = &c->prog;
    if (p->ninsts >= c->max_insts) {
        asm_error(c, at, "too many instructions (limit %u)", c->max_insts);
        return NULL;
    }
    if (!asm_grow((void **)&p->insts, &c->cap_insts, p->ninsts, sizeof *p->insts)) {
        asm_error(c, at, "out of memory");
        return NULL;
    }
    struct us_inst *inst = &p->insts[p->ninsts++];
    memset(inst, 0, sizeof *inst);
    inst->line = at->line;
    return inst;
}

/* Same GL state vector (program.env/local or state.*)?  Constants may
 * repeat freely. */
static bool same_state_vector(const struct us_param *a, const struct us_param *b)
{
    if (a->kind != b->kind || a->kind == US_PARAM_CONST)
        return false;
    if (a->kind == US_PARAM_STATE)
        return !memcmp(&a->state, &b->state, sizeof a->state);
    return a->index == b->index;
}

bool asm_mark_relative(struct asm_ctx *c, const struct token *at, int decl)
{
    for (unsigned i = 0; i < c->nrel; i++)
        if (c->rel_decls[i] == decl)
            return true;
    const struct us_decl *d = &c->prog.decls[decl];
    const struct us_param *params = c->prog.params;
    for (unsigned s = d->base; s < d->base + d->size; s++) {
        for (unsigned t = d->base; t < s; t++)
            if (same_state_vector(&params[s], &params[t]))
                return asm_error(c, at, "array '%s' binds the same state vector "
                                 "twice and is used with relative addressing",
                                 d->name);
        for (unsigned i = 0; i < c->nrel; i++) {
            const struct us_decl *o = &c->prog.decls[c->rel_decls[i]];
            for (unsigned t = o->base; t < o->base + o->size; t++)
                if (same_state_vector(&params[s], &params[t]))
                    return asm_error(c, at, "arrays '%s' and '%s' bind the same "
                                     "state vector and both use relative "
                                     "addressing", o->name, d->name);
        }
    }
    if (!asm_grow((void **)&c->rel_decls, &c->cap_rel, c->nrel, sizeof *c->rel_decls))
        return asm_error(c, at, "out of memory");
    c->rel_decls[c->nrel++] = (uint16_t)decl;
    return true;
}

void asm_ctx_free(struct asm_ctx *c)
{
    free(c->syms);
    free(c->rel_decls);
    free(c->labels);
    free(c->fixups);
    c->syms = NULL;
    c->rel_decls = NULL;
    c->labels = NULL;
    c->fixups = NULL;
}
