/*
 * pass_hoist: work on uniforms alone is done once per draw, in the
 * program's preshader (us_program.pre), instead of once per thread.
 *
 * GLSL's gl_ProjectionMatrix * gl_ModelViewMatrix * v is, left to right,
 * a 4x4 by 4x4 product (16 instructions) and then the product with the
 * vertex: the first part reads only GL state, and is the same for every
 * vertex of the draw.  Mesa reassociates to P * (MV * v), which changes
 * the rounding; this pass does not reassociate: it moves the instructions
 * whose every operand is (transitively) a parameter -- a literal, a
 * uniform, a state.* binding -- into the preshader, whose registers become
 * parameters of kind US_PARAM_PRE (program.pre[n]) that the remaining
 * instructions read in place of the registers they read before.
 * us_resolve_params runs the preshader on the reference interpreter after
 * binding the other parameters, so each value is computed by the same
 * micro-ops on the same operands in the same order as the per-thread code
 * computed it: every result bit stays.
 *
 * What moves: float ALU instructions of the preshader's set
 * (us_op_preshader: no elementary function -- the preshader runs without
 * the per-thread program's us_math --, texture, quad, memory or flow),
 * outside flow control (so they ran exactly once per thread), writing a
 * TEMP, whose TEMP operands read components that one preshader register
 * holds at that point.  Every moved instruction writes a fresh preshader
 * register (a partial write first copies the register's other uniform
 * components with a MOV, exact on values already written), so a
 * register's final value is the value each reader saw.
 *
 * What stays in the per-thread program as well (pinned): an instruction
 * whose result is read where the register is not that one preshader
 * register's (components mixed with per-thread ones, a read after flow
 * that may have overwritten it, a loop that writes it), and a MOV of a
 * parameter (an operand can read the parameter itself: moving it would
 * only spend a parameter slot); a pinned instruction reads its own
 * operands from the preshader's parameters.  Programs with BRA
 * (unstructured flow), with a relative read that may reach an in-place
 * slot (by position: the pass appends and reorders those), without
 * OPTION USHADER_extensions (which the preshader's text needs) or
 * compute programs are left alone; so is a
 * program whose new parameters would pass US_MAX_PARAMS, or where the
 * pass would remove nothing.
 *
 * The in-place parameter slots are then ordered as the text names them
 * first (the preshader's block, then the program), which is the order the
 * assembler gives them: us_disassemble's text assembles to an equal
 * program.
 */
#include <stdlib.h>
#include <string.h>

#include "glsl/passes.h"
#include "isa/micro.h"

enum { NONE = -1 };

/* One instruction of the per-thread program, as the pass sees it. */
struct hinst {
    bool hoist;            /* computed by the preshader                  */
    bool pinned;           /* ... and still by the per-thread program    */
    bool trivial;          /* a MOV of a parameter                       */
    int reg;               /* hoist: the preshader register it writes    */
    int merge;             /* hoist: the register a partial write copies
                              first, or NONE                            */
    int src_reg[3];        /* hoist: the preshader register each TEMP
                              operand reads, else NONE                   */
    int src_param[3];      /* the operand reads this preshader register
                              as a parameter (rewritten), else NONE      */
};

struct hoist {
    struct us_program *p;
    struct hinst *h;
    /* per TEMP component: the preshader register holding its value, and
     * the instruction that wrote it there (NONE: per-thread) */
    int ver[US_MAX_TEMPS][4];
    int def[US_MAX_TEMPS][4];
    int creator[US_MAX_TEMPS];   /* per preshader register: instruction  */
    unsigned nregs;
};

/* Components of operand k that instruction `in` reads (a conservative
 * superset outside the component-wise shape). */
static unsigned reads(const struct us_inst *in, unsigned k)
{
    const struct us_src *s = &in->src[k];
    unsigned m = 0;
    bool comp = us_ops[in->op].shape == US_SHAPE_COMP &&
                us_ops[in->op].format == US_FMT_VEC;
    for (unsigned c = 0; c < 4; c++)
        if ((!comp || (in->dst.mask >> c & 1)) && s->swz[c] <= US_SWZ_W)
            m |= 1u << s->swz[c];
    return m;
}

/* The one preshader register holding every component of `m` of TEMP r,
 * or NONE. */
static int one_reg(const struct hoist *x, unsigned r, unsigned m)
{
    int q = NONE;
    for (unsigned c = 0; c < 4; c++) {
        if (!(m >> c & 1))
            continue;
        if (x->ver[r][c] == NONE || (q != NONE && x->ver[r][c] != q))
            return NONE;
        q = x->ver[r][c];
    }
    return q;
}

static bool is_trivial(const struct us_inst *in)
{
    return in->op == US_OP_MOV && !in->sat &&
           in->src[0].file == US_FILE_PARAM;
}

static void pin(struct hoist *x, int i);

/* A per-thread reader of components m of TEMP r through operand k of
 * instruction i: it reads one preshader register's parameter, or the
 * register, which the instructions that wrote it must then write. */
static void reader(struct hoist *x, unsigned i, unsigned k, unsigned r,
                   unsigned m)
{
    int q = one_reg(x, r, m);
    if (q != NONE && !x->h[x->creator[q]].trivial) {
        x->h[i].src_param[k] = q;
        return;
    }
    for (unsigned c = 0; c < 4; c++)
        if ((m >> c & 1) && x->def[r][c] != NONE)
            pin(x, x->def[r][c]);
}

/* Instruction i runs per thread too: it reads its operands as parameters
 * (or, from a pinned MOV of a parameter, the register). */
static void pin(struct hoist *x, int i)
{
    struct hinst *h = &x->h[i];
    if (h->pinned)
        return;
    h->pinned = true;
    const struct us_inst *in = &x->p->insts[i];
    for (unsigned k = 0; k < us_ops[in->op].nsrc; k++) {
        int q = h->src_reg[k];
        if (q == NONE)
            continue;
        if (x->h[x->creator[q]].trivial)
            pin(x, x->creator[q]);
        else
            h->src_param[k] = q;
    }
}

/* Register r's components m no longer hold preshader values; flow: a
 * write inside flow control, after which the old value may still be read. */
static void clobber(struct hoist *x, unsigned r, unsigned m, bool flow)
{
    for (unsigned c = 0; c < 4; c++) {
        if (!(m >> c & 1))
            continue;
        if (flow && x->def[r][c] != NONE)
            pin(x, x->def[r][c]);
        x->ver[r][c] = x->def[r][c] = NONE;
    }
}

/* Can instruction i (at flow depth 0) be computed by the preshader? */
static bool hoistable(const struct hoist *x, const struct us_inst *in)
{
    if (!us_op_preshader(in->op) || in->dst.file != US_FILE_TEMP ||
        in->dst.index >= US_MAX_TEMPS || x->nregs >= US_MAX_TEMPS ||
        (is_trivial(in) && in->dst.mask != 0xf))
        return false;   /* a pinned MOV of a parameter: no merged part */
    for (unsigned k = 0; k < us_ops[in->op].nsrc; k++) {
        const struct us_src *s = &in->src[k];
        if (s->rel)
            return false;
        if (s->file == US_FILE_PARAM) {
            if (s->index >= x->p->nparams ||
                x->p->params[s->index].kind == US_PARAM_PRE)
                return false;
        } else if (s->file != US_FILE_TEMP || s->index >= US_MAX_TEMPS ||
                   one_reg(x, s->index, reads(in, k)) == NONE) {
            return false;
        }
    }
    return true;
}

static void hoist(struct hoist *x, unsigned i)
{
    const struct us_inst *in = &x->p->insts[i];
    struct hinst *h = &x->h[i];
    unsigned r = in->dst.index, q = x->nregs++;
    h->hoist = true;
    h->trivial = is_trivial(in);
    h->reg = (int)q;
    x->creator[q] = (int)i;
    for (unsigned k = 0; k < us_ops[in->op].nsrc; k++)
        if (in->src[k].file == US_FILE_TEMP)
            h->src_reg[k] = one_reg(x, in->src[k].index, reads(in, k));
    /* the components it leaves (XPD's w too): copied when one register
     * holds them */
    unsigned wr = micro_written_mask((enum us_opcode)in->op, in->dst.mask);
    unsigned rest = 0xfu & ~wr;
    int v = NONE;
    for (unsigned c = 0; c < 4; c++) {
        if (!(rest >> c & 1) || x->ver[r][c] == NONE)
            continue;
        if (v == NONE)
            v = x->ver[r][c];
        else if (x->ver[r][c] != v)
            v = -2;
    }
    h->merge = v >= 0 ? v : NONE;
    for (unsigned c = 0; c < 4; c++) {
        if (wr >> c & 1) {
            x->ver[r][c] = (int)q;
            x->def[r][c] = (int)i;
        } else if (x->ver[r][c] != NONE) {
            if (h->merge != NONE) {
                x->ver[r][c] = (int)q;
            } else {   /* read from the per-thread register from now on */
                pin(x, x->def[r][c]);
                x->ver[r][c] = x->def[r][c] = NONE;
            }
        }
    }
}

/* The TEMP components instructions [from, to) write. */
static void written(const struct us_program *p, unsigned from, unsigned to,
                    uint8_t *mask)
{
    for (unsigned i = from; i < to; i++)
        if (pass_writes_temp(&p->insts[i]) &&
            p->insts[i].dst.index < US_MAX_TEMPS)
            mask[p->insts[i].dst.index] |=
                micro_written_mask((enum us_opcode)p->insts[i].op,
                                   p->insts[i].dst.mask);
}

/* The end of the loop that starts at instruction i. */
static unsigned loop_end(const struct us_program *p, unsigned i)
{
    unsigned depth = 0;
    for (unsigned j = i; j < p->ninsts; j++) {
        depth += p->insts[j].op == US_OP_BGNLOOP;
        if (p->insts[j].op == US_OP_ENDLOOP && --depth == 0)
            return j;
    }
    return p->ninsts;
}

/* The walk: which instructions the preshader computes, which stay. */
static void analyse(struct hoist *x)
{
    const struct us_program *p = x->p;
    unsigned depth = 0;
    for (unsigned i = 0; i < p->ninsts; i++) {
        const struct us_inst *in = &p->insts[i];
        const struct us_opinfo *o = &us_ops[in->op];
        if (in->op == US_OP_BGNLOOP && depth == 0) {
            /* a value the loop overwrites is read by its next trip */
            uint8_t mask[US_MAX_TEMPS] = { 0 };
            written(p, i, loop_end(p, i), mask);
            for (unsigned r = 0; r < US_MAX_TEMPS; r++)
                clobber(x, r, mask[r], true);
        }
        if (in->op == US_OP_IF || in->op == US_OP_BGNLOOP)
            depth++;
        else if ((in->op == US_OP_ENDIF || in->op == US_OP_ENDLOOP) && depth)
            depth--;
        if (depth == 0 && hoistable(x, in)) {
            hoist(x, i);
            continue;
        }
        for (unsigned k = 0; k < o->nsrc; k++)
            if (in->src[k].file == US_FILE_TEMP &&
                in->src[k].index < US_MAX_TEMPS)
                reader(x, i, k, in->src[k].index, reads(in, k));
        if (pass_writes_temp(in) && in->dst.index < US_MAX_TEMPS)
            clobber(x, in->dst.index,
                    micro_written_mask((enum us_opcode)in->op, in->dst.mask),
                    depth > 0);
    }
}

/* Registers the kept preshader needs: exported ones and their operands. */
static void live_regs(const struct hoist *x, bool *live)
{
    const struct us_program *p = x->p;
    for (unsigned i = 0; i < p->ninsts; i++)
        for (unsigned k = 0; k < 3; k++)
            if (x->h[i].src_param[k] != NONE)
                live[x->h[i].src_param[k]] = true;
    for (unsigned i = p->ninsts; i-- > 0;) {
        const struct hinst *h = &x->h[i];
        if (!h->hoist || !live[h->reg])
            continue;
        if (h->merge != NONE)
            live[h->merge] = true;
        for (unsigned k = 0; k < 3; k++)
            if (h->src_reg[k] != NONE)
                live[h->src_reg[k]] = true;
    }
}

/* In-place slots in the order the text names them first: the preshader,
 * then the program (asm/disasm.c prints them so). */
static void order_inplace(struct us_program *p)
{
    unsigned n = p->nparams, npos = 0, nord = 0;
    unsigned *pos = malloc((n + 1) * sizeof *pos);
    unsigned *ord = malloc((n + 1) * sizeof *ord);
    unsigned *map = malloc((n + 1) * sizeof *map);
    bool *seen = calloc(n + 1, 1);
    struct us_param *old = malloc((n + 1) * sizeof *old);
    if (!pos || !ord || !map || !seen || !old)
        goto out;
    for (unsigned s = 0; s < n; s++)
        if (p->params[s].decl < 0)
            pos[npos++] = s;
    for (unsigned j = 0; j < p->npre + p->ninsts; j++) {
        const struct us_inst *in = j < p->npre ? &p->pre[j]
                                               : &p->insts[j - p->npre];
        for (unsigned k = 0; k < us_ops[in->op].nsrc; k++) {
            const struct us_src *s = &in->src[k];
            if (s->file == US_FILE_PARAM && !s->rel && s->index < n &&
                p->params[s->index].decl < 0 && !seen[s->index]) {
                seen[s->index] = true;
                ord[nord++] = s->index;
            }
        }
    }
    for (unsigned s = 0; s < n; s++)   /* named nowhere: after the rest */
        if (p->params[s].decl < 0 && !seen[s])
            ord[nord++] = s;
    for (unsigned s = 0; s < n; s++)
        map[s] = s;
    for (unsigned j = 0; j < npos; j++)
        map[ord[j]] = pos[j];
    memcpy(old, p->params, n * sizeof *old);
    for (unsigned s = 0; s < n; s++)
        p->params[map[s]] = old[s];
    for (unsigned j = 0; j < p->npre + p->ninsts; j++) {
        struct us_inst *in = j < p->npre ? &p->pre[j] : &p->insts[j - p->npre];
        for (unsigned k = 0; k < us_ops[in->op].nsrc; k++)
            if (in->src[k].file == US_FILE_PARAM && !in->src[k].rel &&
                in->src[k].index < n)
                in->src[k].index = (uint16_t)map[in->src[k].index];
    }
    /* slots only moved work named, now last: gone, as text has them not */
    unsigned named = 0;
    for (unsigned j = 0; j < p->npre + p->ninsts; j++) {
        const struct us_inst *in = j < p->npre ? &p->pre[j]
                                               : &p->insts[j - p->npre];
        for (unsigned k = 0; k < us_ops[in->op].nsrc; k++)
            if (in->src[k].file == US_FILE_PARAM && !in->src[k].rel &&
                in->src[k].index < n && p->params[in->src[k].index].decl < 0)
                named = named > in->src[k].index + 1u ? named
                                                      : in->src[k].index + 1u;
    }
    while (p->nparams > 0 && p->params[p->nparams - 1].decl < 0 &&
           p->nparams > named)
        p->nparams--;
out:
    free(pos);
    free(ord);
    free(map);
    free(seen);
    free(old);
}

/* TEMPs only moved work used are no longer the per-thread program's: the
 * others are renumbered in order and their declarations kept (a TEMP's
 * index is its declaration's rank, as the assembler gives it), so ntemps
 * counts what a thread holds.  Nothing changes when a TEMP declaration
 * is out of index order or names a register twice. */
static void compact_temps(struct us_program *p)
{
    bool used[US_MAX_TEMPS] = { false };
    int map[US_MAX_TEMPS];
    for (unsigned i = 0; i < p->ninsts; i++) {
        const struct us_inst *in = &p->insts[i];
        if (in->dst.file == US_FILE_TEMP && in->dst.index < US_MAX_TEMPS)
            used[in->dst.index] = true;
        for (unsigned k = 0; k < us_ops[in->op].nsrc; k++)
            if (in->src[k].file == US_FILE_TEMP &&
                in->src[k].index < US_MAX_TEMPS)
                used[in->src[k].index] = true;
    }
    unsigned n = 0, next = 0;
    for (unsigned t = 0; t < p->ntemps && t < US_MAX_TEMPS; t++)
        map[t] = used[t] ? (int)n++ : NONE;
    if (n == p->ntemps || p->ntemps > US_MAX_TEMPS)
        return;
    for (unsigned d = 0; d < p->ndecls; d++)
        if (p->decls[d].kind == US_DECL_TEMP && p->decls[d].base != next++)
            return;
    if (next != p->ntemps)
        return;
    int *newidx = malloc((p->ndecls + 1) * sizeof *newidx);
    if (!newidx)
        return;
    unsigned m = 0;
    for (unsigned d = 0; d < p->ndecls; d++) {
        struct us_decl dc = p->decls[d];
        newidx[d] = NONE;
        if (dc.kind == US_DECL_TEMP) {
            if (map[dc.base] == NONE)
                continue;
            dc.base = (uint16_t)map[dc.base];
        }
        newidx[d] = (int)m;
        p->decls[m++] = dc;
    }
    /* the parameters' owners are declaration indices (PARAMs: kept) */
    for (unsigned i = 0; i < p->nparams; i++)
        if (p->params[i].decl >= 0 && (unsigned)p->params[i].decl < p->ndecls)
            p->params[i].decl = (int16_t)newidx[p->params[i].decl];
    free(newidx);
    p->ndecls = m;
    for (unsigned i = 0; i < p->ninsts; i++) {
        struct us_inst *in = &p->insts[i];
        if (in->dst.file == US_FILE_TEMP && in->dst.index < US_MAX_TEMPS)
            in->dst.index = (uint16_t)map[in->dst.index];
        for (unsigned k = 0; k < us_ops[in->op].nsrc; k++)
            if (in->src[k].file == US_FILE_TEMP &&
                in->src[k].index < US_MAX_TEMPS)
                in->src[k].index = (uint16_t)map[in->src[k].index];
    }
    p->ntemps = n;
}

/* Build the preshader and rewrite the program; false (nothing changed)
 * when it would not pay or not fit. */
static bool apply(struct hoist *x)
{
    struct us_program *p = x->p;
    bool live[US_MAX_TEMPS] = { false };
    live_regs(x, live);
    unsigned removed = 0, nexport = 0, npre = 0;
    int newreg[US_MAX_TEMPS], slot[US_MAX_TEMPS];
    unsigned nnew = 0;
    bool exported[US_MAX_TEMPS] = { false };
    for (unsigned i = 0; i < p->ninsts; i++) {
        const struct hinst *h = &x->h[i];
        removed += h->hoist && !h->pinned;
        for (unsigned k = 0; k < 3; k++)
            if (h->src_param[k] != NONE && !exported[h->src_param[k]]) {
                exported[h->src_param[k]] = true;
                nexport++;
            }
    }
    for (unsigned q = 0; q < x->nregs; q++) {
        newreg[q] = live[q] ? (int)nnew++ : NONE;
        npre += live[q] ? 1 + (x->h[x->creator[q]].merge != NONE) : 0;
    }
    if (!removed || !npre || p->nparams + nexport > US_MAX_PARAMS)
        return false;   /* nothing moves (dead work is pass_dce's) */
    struct us_inst *pre = calloc(npre + 1, sizeof *pre);
    struct us_param *params = realloc(p->params,
                                      (p->nparams + nexport + 1) *
                                      sizeof *params);
    if (!pre || !params) {
        free(pre);
        if (params)
            p->params = params;
        return false;
    }
    p->params = params;
    /* the preshader: the live registers' instructions, in program order */
    unsigned n = 0;
    for (unsigned i = 0; i < p->ninsts; i++) {
        const struct hinst *h = &x->h[i];
        if (!h->hoist || !live[h->reg])
            continue;
        const struct us_inst *in = &p->insts[i];
        if (h->merge != NONE) {
            struct us_inst *m = &pre[n++];
            m->op = US_OP_MOV;
            m->line = in->line;
            m->dst = (struct us_dst){ .file = US_FILE_TEMP, .mask = 0xf,
                                      .index = (uint16_t)newreg[h->reg] };
            m->src[0] = (struct us_src){ .file = US_FILE_TEMP,
                                         .swz = { 0, 1, 2, 3 },
                                         .index =
                                             (uint16_t)newreg[h->merge] };
        }
        struct us_inst *c = &pre[n++];
        *c = *in;
        c->dst.index = (uint16_t)newreg[h->reg];
        for (unsigned k = 0; k < us_ops[in->op].nsrc; k++)
            if (h->src_reg[k] != NONE)
                c->src[k].index = (uint16_t)newreg[h->src_reg[k]];
    }
    /* the new parameters: the exported registers, in preshader order */
    for (unsigned q = 0; q < x->nregs; q++) {
        slot[q] = NONE;
        if (!exported[q])
            continue;
        slot[q] = (int)p->nparams;
        p->params[p->nparams++] = (struct us_param){
            .kind = US_PARAM_PRE, .index = (uint16_t)newreg[q], .decl = -1 };
    }
    /* the per-thread program: operands rewritten, moved work gone */
    unsigned m = 0;
    for (unsigned i = 0; i < p->ninsts; i++) {
        const struct hinst *h = &x->h[i];
        if (h->hoist && !h->pinned)
            continue;
        struct us_inst in = p->insts[i];
        for (unsigned k = 0; k < 3; k++) {
            if (h->src_param[k] == NONE)
                continue;
            in.src[k].file = US_FILE_PARAM;
            in.src[k].index = (uint16_t)slot[h->src_param[k]];
        }
        p->insts[m++] = in;
    }
    p->ninsts = m;
    free(p->pre);   /* empty: the pass runs on programs without a preshader */
    p->pre = pre;
    p->npre = n;
    p->npre_temps = nnew;
    order_inplace(p);
    compact_temps(p);
    return true;
}

/* A relative read reaches slots by position: only within a declared
 * array (what the pass appends and reorders is in-place slots). */
static bool rel_declared(const struct us_program *p, const struct us_inst *in)
{
    for (unsigned k = 0; k < us_ops[in->op].nsrc; k++) {
        const struct us_src *s = &in->src[k];
        if (!s->rel)
            continue;
        if (s->file != US_FILE_PARAM || !s->rel_size ||
            s->index + s->rel_size > p->nparams)
            return false;
        for (unsigned i = s->index; i < s->index + s->rel_size; i++)
            if (p->params[i].decl < 0)
                return false;
    }
    return true;
}

bool pass_hoist(struct us_program *p)
{
    if (p->npre || p->stage == US_STAGE_COMPUTE || !p->ninsts ||
        !(p->options & US_OPT_USHADER_EXTENSIONS) ||
        p->nparams >= US_MAX_PARAMS)
        return false;
    for (unsigned i = 0; i < p->ninsts; i++)
        if (p->insts[i].op == US_OP_BRA || p->insts[i].op >= US_OP_COUNT ||
            !rel_declared(p, &p->insts[i]))
            return false;
    struct hoist *x = malloc(sizeof *x);
    struct hinst *h = malloc(p->ninsts * sizeof *h);
    bool changed = false;
    if (x && h) {
        x->p = p;
        x->h = h;
        x->nregs = 0;
        for (unsigned i = 0; i < p->ninsts; i++)
            h[i] = (struct hinst){ .reg = NONE, .merge = NONE,
                                   .src_reg = { NONE, NONE, NONE },
                                   .src_param = { NONE, NONE, NONE } };
        for (unsigned r = 0; r < US_MAX_TEMPS; r++)
            for (unsigned c = 0; c < 4; c++)
                x->ver[r][c] = x->def[r][c] = NONE;
        analyse(x);
        changed = apply(x);
    }
    if (changed && p->flow) {   /* links of the instructions that moved */
        struct us_diag d;
        us_flow_free(p->flow);
        p->flow = NULL;
        if (!us_flow_build(p, &p->flow, &d))
            p->flow = NULL;   /* cannot happen: no flow instruction moved */
    }
    free(x);
    free(h);
    return changed;
}
