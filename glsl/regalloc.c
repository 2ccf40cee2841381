/*
 * From virtual registers to the program: a linear-scan allocator over live
 * intervals of the structured code, then the parameter layout.
 *
 * Allocation is per component, as in compilers for vec4 hardware: after
 * spirv_width.c each virtual register has a set of live components (one
 * for a scalar, two for a vec2, ...), and they go to any free components
 * of a TEMP -- several scalars, or a vec3 and a scalar, share a register.
 * Component-wise and replicating instructions move with their result
 * (their operands' selectors are rearranged to match); XPD LIT DST EXP
 * LOG SCS and texture results keep their components.  A register first
 * written by a copy of a dying one takes that one's place, so the copy
 * disappears.
 *
 * Liveness: a value's interval runs from its first to its last reference
 * in program order.  Straight-line code and IF/ELSE need nothing more (an
 * arm's values die before the other arm, phi registers are written in both
 * arms and read after).  A loop repeats its body, so a value that is live
 * across the loop boundary, or a variable/phi register referenced inside
 * it (it may carry a value from one iteration to the next), is live over
 * the whole loop, BGNLOOP to ENDLOOP.  A backward BRA (a kernel's
 * unstructured loop) makes its target .. itself such a loop.
 *
 * The passes of glsl/passes.h run before allocation (copy propagation,
 * dead code, outputs written in place) and after it (self-moves,
 * vectorisation).
 *
 * Parameters: uniform slots (declared PARAMs) come first, then constants
 * in order of first use, which is how the assembler lays out the in-place
 * literals of the disassembly: the program round-trips unchanged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glsl/passes.h"
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
        } else if (s->insts[i].op == US_OP_BRA && s->insts[i].target <= i) {
            /* a backward branch repeats target..i, as a loop does */
            loops[nloops][0] = s->insts[i].target;
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

/* Where a virtual register lives: TEMP `reg`, its component c in
 * component comp[c] (NO_COMP: not live). */
struct place { uint16_t reg; uint8_t comp[4]; };

/* The physical components for live set `live` among the components free
 * at `start` in register r: the same ones when they are free (swizzles stay
 * as written), else the lowest free ones in order -- only for a register
 * whose definitions may move their results. */
static bool fit(const int busy[4], int start, unsigned live, bool movable,
                uint8_t comp[4])
{
    unsigned free_m = 0;
    for (unsigned c = 0; c < 4; c++)
        if (busy[c] <= start)
            free_m |= 1u << c;
    for (unsigned c = 0; c < 4; c++)
        comp[c] = (live >> c & 1) ? (uint8_t)c : NO_COMP;
    if ((live & free_m) == live)
        return true;
    if (!movable ||
        __builtin_popcount(free_m) < __builtin_popcount(live))
        return false;
    unsigned p = 0;
    for (unsigned c = 0; c < 4; c++) {
        if (!(live >> c & 1))
            continue;
        while (!(free_m >> p & 1))
            p++;
        comp[c] = (uint8_t)p++;
    }
    return true;
}

/* Place the register `copy` writes where the register it copies is, when
 * those components are free from `start` on (its value dies there). */
static bool coalesce(const struct place *places, const bool *placed_yet,
                     int (*busy)[4], const struct us_inst *copy, int start,
                     unsigned live, bool movable, struct place *pl)
{
    if (!copy || !placed_yet[copy->src[0].index] || copy->src[0].negate)
        return false;
    const struct place *from = &places[copy->src[0].index];
    struct place want = { .reg = from->reg, .comp = { NO_COMP, NO_COMP,
                                                      NO_COMP, NO_COMP } };
    unsigned taken = 0;
    for (unsigned c = 0; c < 4; c++) {
        if (!(live >> c & 1))
            continue;
        unsigned e = copy->src[0].swz[c];
        if (!(copy->dst.mask >> c & 1) || e >= 4 || from->comp[e] == NO_COMP)
            return false;
        unsigned p = from->comp[e];
        if ((taken >> p & 1) || busy[from->reg][p] > start ||
            (!movable && p != c))
            return false;
        taken |= 1u << p;
        want.comp[c] = (uint8_t)p;
    }
    *pl = want;
    return true;
}

/* Linear scan at component granularity: several scalars, a vec2 and a
 * scalar or a vec3 and a scalar share one register when their live
 * intervals overlap. */
static bool allocate(struct spv *s, const uint8_t *demanded,
                     struct place *places, unsigned *ntemps)
{
    struct interval *iv = malloc((s->nvregs + 1) * sizeof *iv);
    bool *fixed = calloc(s->nvregs + 1, sizeof *fixed);
    if (!iv || !fixed) {
        free(iv);
        free(fixed);
        return spv_fail(s, "out of memory");
    }
    /* A register first written by a copy of another one: the copy is gone
     * (pass_selfmove) when both land in the same components. */
    const struct us_inst **copy_of = calloc(s->nvregs + 1, sizeof *copy_of);
    if (!copy_of) {
        free(iv);
        free(fixed);
        return spv_fail(s, "out of memory");
    }
    for (unsigned i = 0; i < s->ninsts; i++) {
        const struct us_inst *in = &s->insts[i];
        if (in->dst.file != US_FILE_TEMP)
            continue;
        if (!relocatable_op(in->op))
            fixed[in->dst.index] = true;
        if ((in->op == US_OP_MOV || in->op == US_OP_MOV_U) && !in->sat &&
            in->src[0].file == US_FILE_TEMP && !copy_of[in->dst.index])
            copy_of[in->dst.index] = in;
    }
    intervals(s, iv);
    qsort(iv, s->nvregs, sizeof *iv, by_start);
    int (*busy_until)[4] = malloc(US_MAX_TEMPS * sizeof *busy_until);
    bool *placed_yet = calloc(s->nvregs + 1, sizeof *placed_yet);
    unsigned used = 0;
    bool ok = busy_until && placed_yet;
    if (!ok)
        ok = spv_fail(s, "out of memory");
    for (unsigned r = 0; ok && r < US_MAX_TEMPS; r++)
        for (unsigned c = 0; c < 4; c++)
            busy_until[r][c] = -1;
    for (unsigned i = 0; i < s->nvregs && ok; i++) {
        unsigned v = iv[i].vreg;
        struct place *pl = &places[v];
        *pl = (struct place){ .reg = 0, .comp = { 0, 1, 2, 3 } };
        if (iv[i].start < 0 || !demanded[v])
            continue;
        /* A component whose value dies at this instruction may take the
         * new one: instructions read their sources before writing. */
        unsigned r = 0;
        if (coalesce(places, placed_yet, busy_until, copy_of[v], iv[i].start,
                     demanded[v], !fixed[v], pl))
            r = pl->reg;
        else
            while (r < US_MAX_TEMPS &&
                   !fit(busy_until[r], iv[i].start, demanded[v], !fixed[v],
                        pl->comp))
                r++;
        if (r == US_MAX_TEMPS) {
            ok = spv_fail(s, "the shader needs more than %d temporaries",
                          US_MAX_TEMPS);
            break;
        }
        pl->reg = (uint16_t)r;
        placed_yet[v] = true;
        for (unsigned c = 0; c < 4; c++)
            if (pl->comp[c] != NO_COMP)
                busy_until[r][pl->comp[c]] = iv[i].end;
        if (r + 1 > used)
            used = r + 1;
    }
    free(iv);
    free(fixed);
    free(busy_until);
    free(copy_of);
    free(placed_yet);
    *ntemps = used;
    return ok;
}

/* Component e of operand x's register, where it was placed. */
static uint8_t placed(const struct place *places, const struct us_src *x,
                      uint8_t e)
{
    if (x->file != US_FILE_TEMP || e >= 4 ||
        places[x->index].comp[e] == NO_COMP)
        return e;
    return places[x->index].comp[e];
}

/* Rewrite one instruction for the placement: a component-wise result
 * moved to other components takes its operands' selectors along (ADD
 * t.y, a.x, b.z writes t's component in R0.w as ADD R0.w, a.xxxx,
 * b.zzzz); selectors read at fixed positions (DP3, SCL, texture
 * coordinates) only follow their own register's placement.  Positions the
 * instruction does not read repeat one it does, so scalar operands print
 * as ".x". */
static void place_inst(const struct place *places, struct us_inst *in)
{
    const struct us_inst old = *in;
    const struct us_opinfo *o = &us_ops[old.op];
    const uint8_t ident[4] = { 0, 1, 2, 3 };
    const uint8_t *dmap = ident;
    bool temp_dst = old.dst.file == US_FILE_TEMP &&
                    o->format != US_FMT_FLOW && o->format != US_FMT_COND &&
                    o->format != US_FMT_KIL;
    if (temp_dst) {
        dmap = places[old.dst.index].comp;
        in->dst.index = places[old.dst.index].reg;
        in->dst.mask = 0;
        for (unsigned c = 0; c < 4; c++)
            if (old.dst.mask >> c & 1)
                in->dst.mask |= (uint8_t)(1u << dmap[c]);
    }
    bool move = temp_dst && o->shape == US_SHAPE_COMP &&
                o->unit != US_UNIT_TEX;
    for (unsigned k = 0; k < o->nsrc; k++) {
        const struct us_src *x = &old.src[k];
        struct us_src *y = &in->src[k];
        bool mv = move && !fixed_operand(&old, k);
        if (!mv && x->file != US_FILE_TEMP)
            continue;
        unsigned reads = src_positions(&old, k, old.dst.mask), now = 0;
        bool whole = x->negate == 0 || x->negate == 0xf;
        if (!whole)
            y->negate = 0;
        for (unsigned p = 0; p < 4; p++) {
            if (!(reads >> p & 1))
                continue;
            unsigned q = mv ? dmap[p] : p;
            y->swz[q] = placed(places, x, x->swz[p]);
            if (!whole && (x->negate >> p & 1))
                y->negate |= (uint8_t)(1u << q);
            now |= 1u << q;
        }
        if (now) {
            unsigned first = (unsigned)__builtin_ctz(now);
            for (unsigned q = 0; q < 4; q++) {
                if (now >> q & 1)
                    continue;
                y->swz[q] = y->swz[first];
                if (!whole)
                    y->negate = (uint8_t)((y->negate & ~(1u << q)) |
                                          ((y->negate >> first & 1) << q));
            }
        }
        if (x->file == US_FILE_TEMP)
            y->index = places[x->index].reg;
    }
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
    us_passes_virtual(s);
    struct place *map = calloc(s->nvregs + 1, sizeof *map);
    uint8_t *demanded = calloc(s->nvregs + 1, 1);
    unsigned ntemps = 0;
    if (!map || !demanded) {
        free(map);
        free(demanded);
        return spv_fail(s, "out of memory");
    }
    if (!narrow_widths(s, demanded) ||
        (us_passes_narrowed(s) && !narrow_widths(s, demanded)) ||
        !allocate(s, demanded, map, &ntemps)) {
        free(map);
        free(demanded);
        return false;
    }
    free(demanded);
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
    uint64_t inputs = 0, outputs = 0;
    for (unsigned i = 0; ok && i < s->ninsts; i++) {
        struct us_inst *in = &s->insts[i];
        place_inst(map, in);
        if (in->dst.file == US_FILE_OUTPUT)
            outputs |= 1ull << in->dst.index;
        for (int k = 0; k < us_ops[in->op].nsrc; k++) {
            struct us_src *x = &in->src[k];
            if (x->file == US_FILE_INPUT)
                inputs |= 1ull << x->index;
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
        us_passes_physical(s);
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
    out->buffers_used = s->buffers_used;
    out->interp_flat = s->interp_flat & inputs;
    out->interp_linear = s->interp_linear & inputs;
    out->interp_smooth = s->interp_smooth & inputs;
    if (s->stage == US_STAGE_COMPUTE) {
        memcpy(out->group_size, s->group_size, sizeof out->group_size);
        out->shared_bytes = s->shared_bytes;
    }
    if (s->info)
        s->info->nvalues = s->nvregs;
    return true;
}
