/*
 * From virtual registers to the program: a linear-scan allocator over live
 * intervals of the structured code, then the parameter layout.
 *
 * Liveness: a value's interval runs from its first to its last reference
 * in program order.  Straight-line code and IF/ELSE need nothing more (an
 * arm's values die before the other arm, phi registers are written in both
 * arms and read after).  A loop repeats its body, so a value that is live
 * across the loop boundary, or a variable/phi register referenced inside
 * it (it may carry a value from one iteration to the next), is live over
 * the whole loop, BGNLOOP to ENDLOOP.
 *
 * Parameters: uniform slots (declared PARAMs) come first, then constants
 * in order of first use, which is how the assembler lays out the in-place
 * literals of the disassembly: the program round-trips unchanged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glsl/spirv.h"

struct interval { int start, end; unsigned vreg; };

static int by_start(const void *a, const void *b)
{
    const struct interval *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->vreg < y->vreg ? -1 : x->vreg > y->vreg;
}

static void touch(struct interval *iv, unsigned v, int i)
{
    if (iv[v].start < 0 || i < iv[v].start)
        iv[v].start = i;
    if (i > iv[v].end)
        iv[v].end = i;
}

static void intervals(struct spv *s, struct interval *iv)
{
    for (unsigned v = 0; v < s->nvregs; v++)
        iv[v] = (struct interval){ .start = -1, .end = -1, .vreg = v };
    for (unsigned i = 0; i < s->ninsts; i++) {
        const struct us_inst *in = &s->insts[i];
        if (in->dst.file == US_FILE_TEMP)
            touch(iv, in->dst.index, (int)i);
        for (int k = 0; k < us_ops[in->op].nsrc; k++)
            if (in->src[k].file == US_FILE_TEMP)
                touch(iv, in->src[k].index, (int)i);
    }
    /* Loops, innermost first as ENDLOOP closes them; repeat until no
     * interval grows (an extension can reach an enclosing loop). */
    int *open = malloc((s->ninsts + 1) * sizeof *open);
    int (*loops)[2] = malloc((s->ninsts + 1) * sizeof *loops);
    unsigned nopen = 0, nloops = 0;
    for (unsigned i = 0; open && loops && i < s->ninsts; i++) {
        if (s->insts[i].op == US_OP_BGNLOOP)
            open[nopen++] = (int)i;
        else if (s->insts[i].op == US_OP_ENDLOOP && nopen) {
            loops[nloops][0] = open[--nopen];
            loops[nloops++][1] = (int)i;
        }
    }
    for (bool grew = true; grew;) {
        grew = false;
        for (unsigned l = 0; l < nloops; l++) {
            int lb = loops[l][0], le = loops[l][1];
            for (unsigned v = 0; v < s->nvregs; v++) {
                struct interval *x = &iv[v];
                if (x->start < 0 || x->end < lb || x->start > le)
                    continue;
                bool across = x->start < lb || x->end > le;
                if (!across && s->vreg_ssa[v])
                    continue;
                if (x->start > lb || x->end < le) {
                    x->start = x->start < lb ? x->start : lb;
                    x->end = x->end > le ? x->end : le;
                    grew = true;
                }
            }
        }
    }
    free(open);
    free(loops);
}

static bool allocate(struct spv *s, unsigned *map, unsigned *ntemps)
{
    struct interval *iv = malloc((s->nvregs + 1) * sizeof *iv);
    if (!iv)
        return spv_fail(s, "out of memory");
    intervals(s, iv);
    qsort(iv, s->nvregs, sizeof *iv, by_start);
    int busy_until[US_MAX_TEMPS];
    unsigned used = 0;
    for (unsigned r = 0; r < US_MAX_TEMPS; r++)
        busy_until[r] = -1;
    bool ok = true;
    for (unsigned i = 0; i < s->nvregs && ok; i++) {
        if (iv[i].start < 0)
            continue;
        /* A register whose value dies at this instruction may take the
         * new one: instructions read their sources before writing. */
        unsigned r = 0;
        while (r < US_MAX_TEMPS && busy_until[r] > iv[i].start)
            r++;
        if (r == US_MAX_TEMPS) {
            ok = spv_fail(s, "the shader needs more than %d temporaries",
                          US_MAX_TEMPS);
            break;
        }
        busy_until[r] = iv[i].end;
        map[iv[i].vreg] = r;
        if (r + 1 > used)
            used = r + 1;
    }
    free(iv);
    *ntemps = used;
    return ok;
}

static bool is_flow(unsigned op)
{
    return us_ops[op].format == US_FMT_FLOW ||
           us_ops[op].format == US_FMT_COND;
}

static bool identity(const struct us_src *x, unsigned mask)
{
    if (x->negate || x->rel)
        return false;
    for (unsigned c = 0; c < 4; c++)
        if ((mask & (1u << c)) && x->swz[c] != c)
            return false;
    return true;
}

/*
 * Before allocation: drop instructions whose register nobody reads (dead
 * variables, a merged return's flag), and let the instruction computing an
 * output's value write result.* itself instead of a MOV copying it there.
 */
static void tidy_virtual(struct spv *s)
{
    unsigned *uses = calloc(s->nvregs + 1, sizeof *uses);
    unsigned *defs = calloc(s->nvregs + 1, sizeof *defs);
    bool *dead = calloc(s->ninsts + 1, sizeof *dead);
    if (!uses || !defs || !dead)
        goto out;
    for (unsigned i = 0; i < s->ninsts; i++) {
        const struct us_inst *in = &s->insts[i];
        if (in->dst.file == US_FILE_TEMP)
            defs[in->dst.index]++;
        for (int k = 0; k < us_ops[in->op].nsrc; k++)
            if (in->src[k].file == US_FILE_TEMP)
                uses[in->src[k].index]++;
    }
    for (bool again = true; again;) {
        again = false;
        for (unsigned i = 0; i < s->ninsts; i++) {
            const struct us_inst *in = &s->insts[i];
            if (dead[i] || in->dst.file != US_FILE_TEMP ||
                uses[in->dst.index] || is_flow(in->op))
                continue;
            dead[i] = again = true;
            for (int k = 0; k < us_ops[in->op].nsrc; k++)
                if (in->src[k].file == US_FILE_TEMP)
                    uses[in->src[k].index]--;
        }
    }
    for (unsigned i = 0; i < s->ninsts; i++) {
        struct us_inst *in = &s->insts[i];
        const struct us_src *x = &in->src[0];
        if (dead[i] || in->op != US_OP_MOV || in->sat ||
            in->dst.file != US_FILE_OUTPUT || x->file != US_FILE_TEMP ||
            !identity(x, in->dst.mask) || !s->vreg_ssa[x->index] ||
            uses[x->index] != 1 || defs[x->index] > 4)
            continue;
        /* The value's defs must be the instructions right before. */
        unsigned want = defs[x->index], got = 0, j = i, covered = 0;
        while (got < want && j-- > 0) {
            if (dead[j])
                continue;
            const struct us_inst *d = &s->insts[j];
            if (d->dst.file != US_FILE_TEMP || d->dst.index != x->index ||
                is_flow(d->op))
                break;
            covered |= d->dst.mask;
            got++;
        }
        if (got != want || (covered & in->dst.mask) != in->dst.mask)
            continue;
        for (unsigned k = j; k < i; k++) {
            struct us_inst *d = &s->insts[k];
            if (dead[k])
                continue;
            d->dst.mask &= in->dst.mask;
            d->dst.file = in->dst.file;
            d->dst.index = in->dst.index;
            if (!d->dst.mask)
                dead[k] = true;
        }
        dead[i] = true;
    }
    unsigned n = 0;
    for (unsigned i = 0; i < s->ninsts; i++)
        if (!dead[i])
            s->insts[n++] = s->insts[i];
    s->ninsts = n;
out:
    free(uses);
    free(defs);
    free(dead);
}

/* A whole-register copy between temps: MOV Rd, Rs. */
static bool reg_copy(const struct us_inst *in)
{
    return in->op == US_OP_MOV && !in->sat && in->dst.file == US_FILE_TEMP &&
           in->dst.mask == 0xf && in->src[0].file == US_FILE_TEMP &&
           identity(&in->src[0], 0xf);
}

/*
 * After allocation: a MOV of a register onto itself does nothing, and
 * neither does MOV Ra, Rb when MOV Rb, Ra came before it in the same
 * straight-line code with neither register written since (phi copies of
 * a loop's continue block and header often pair up so).
 */
static void drop_self_moves(struct spv *s)
{
    unsigned n = 0;
    for (unsigned i = 0; i < s->ninsts; i++) {
        const struct us_inst *in = &s->insts[i];
        if (in->op == US_OP_MOV && !in->sat && in->dst.file == US_FILE_TEMP &&
            in->src[0].file == US_FILE_TEMP &&
            in->src[0].index == in->dst.index &&
            identity(&in->src[0], in->dst.mask))
            continue;
        if (reg_copy(in)) {
            unsigned a = in->dst.index, b = in->src[0].index;
            bool redundant = false;
            for (unsigned j = n; j-- > 0;) {
                const struct us_inst *p = &s->insts[j];
                if (reg_copy(p) && p->dst.index == b && p->src[0].index == a) {
                    redundant = true;
                    break;
                }
                if (is_flow(p->op) || (p->dst.file == US_FILE_TEMP &&
                                       (p->dst.index == a ||
                                        p->dst.index == b)))
                    break;
            }
            if (redundant)
                continue;
        }
        s->insts[n++] = *in;
    }
    s->ninsts = n;
}

static bool add_param(struct spv *s, struct us_param **params, unsigned *n,
                      const struct us_param *p)
{
    if (*n >= US_MAX_PARAMS)
        return spv_fail(s, "more than %d parameters", US_MAX_PARAMS);
    (*params)[(*n)++] = *p;
    return true;
}

static bool name_used(const struct spv *s, const char *name)
{
    for (unsigned i = 0; i < s->ndecls; i++)
        if (!strcmp(s->decls[i].name, name))
            return true;
    return false;
}

static void reg_name(const struct spv *s, char *buf, const char *prefix,
                     unsigned i)
{
    snprintf(buf, US_MAX_NAME, "%s%u", prefix, i);
    while (name_used(s, buf) && strlen(buf) + 2 < US_MAX_NAME) {
        memmove(buf + 1, buf, strlen(buf) + 1);
        buf[0] = '_';
    }
}

bool finish_program(struct spv *s, struct us_program *out)
{
    tidy_virtual(s);
    unsigned *map = calloc(s->nvregs + 1, sizeof *map);
    unsigned ntemps = 0;
    if (!map)
        return spv_fail(s, "out of memory");
    if (!allocate(s, map, &ntemps)) {
        free(map);
        return false;
    }
    struct us_param *params = calloc(US_MAX_PARAMS, sizeof *params);
    int *const_slot = malloc((s->nconsts + 1) * sizeof *const_slot);
    struct us_decl *decls = calloc(ntemps + 1 + s->ndecls + 1, sizeof *decls);
    bool ok = params && const_slot && decls;
    if (!ok)
        ok = spv_fail(s, "out of memory");
    unsigned nparams = 0, ndecls = 0;
    for (unsigned i = 0; ok && i < s->nparams; i++)
        ok = add_param(s, &params, &nparams, &s->params[i]);
    for (unsigned i = 0; ok && i < s->nconsts; i++)
        const_slot[i] = -1;
    uint32_t inputs = 0, outputs = 0;
    for (unsigned i = 0; ok && i < s->ninsts; i++) {
        struct us_inst *in = &s->insts[i];
        if (in->dst.file == US_FILE_TEMP)
            in->dst.index = (uint16_t)map[in->dst.index];
        if (in->dst.file == US_FILE_OUTPUT)
            outputs |= 1u << in->dst.index;
        for (int k = 0; k < us_ops[in->op].nsrc; k++) {
            struct us_src *x = &in->src[k];
            if (x->file == US_FILE_TEMP)
                x->index = (uint16_t)map[x->index];
            if (x->file == US_FILE_INPUT)
                inputs |= 1u << x->index;
            if (x->file != US_FILE_PARAM || x->rel || x->index < CONST_BASE)
                continue;
            unsigned c = x->index - CONST_BASE;
            if (const_slot[c] < 0) {
                struct us_param p = { .kind = US_PARAM_CONST, .decl = -1 };
                memcpy(p.value, s->consts[c].v, sizeof p.value);
                const_slot[c] = (int)nparams;
                ok = add_param(s, &params, &nparams, &p);
            }
            x->index = (uint16_t)const_slot[c];
        }
        /* Operands an opcode does not read are left empty. */
        for (int k = us_ops[in->op].nsrc; k < 3; k++)
            memset(&in->src[k], 0, sizeof in->src[k]);
    }
    if (ok)
        drop_self_moves(s);
    for (unsigned i = 0; ok && i < ntemps; i++) {
        struct us_decl *d = &decls[ndecls++];
        reg_name(s, d->name, "R", i);
        d->kind = US_DECL_TEMP;
        d->base = (uint16_t)i;
        d->size = 1;
    }
    if (ok && s->uses_addr) {
        struct us_decl *d = &decls[ndecls++];
        reg_name(s, d->name, "A", 0);
        d->kind = US_DECL_ADDRESS;
        d->size = 1;
    }
    unsigned first_param = ndecls;
    for (unsigned i = 0; ok && i < s->ndecls; i++)
        decls[ndecls++] = s->decls[i];
    for (unsigned i = 0; ok && i < s->nparams; i++)
        params[i].decl = (int16_t)(params[i].decl + (int)first_param);
    free(map);
    free(const_slot);
    if (!ok) {
        free(params);
        free(decls);
        return false;
    }
    memset(out, 0, sizeof *out);
    out->stage = s->stage;
    out->options = s->options | US_OPT_USHADER_EXTENSIONS;
    out->insts = s->insts;
    out->ninsts = s->ninsts;
    s->insts = NULL;
    out->params = params;
    out->nparams = nparams;
    out->decls = decls;
    out->ndecls = ndecls;
    out->ntemps = ntemps;
    out->naddrs = s->uses_addr ? 1 : 0;
    out->inputs_read = inputs;
    out->outputs_written = outputs;
    if (s->info)
        s->info->nvalues = s->nvregs;
    return true;
}
