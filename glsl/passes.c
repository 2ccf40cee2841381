/*
 * The order of the vec4 back end's passes (glsl/passes.h) and what they
 * share.
 */
#include <stdlib.h>
#include <string.h>

#include "glsl/passes.h"

void us_passes_virtual(struct spv *s)
{
    pass_constfold(s);
    pass_copyprop(s);
    if (pass_split_copies(s))
        pass_copyprop(s);
    if (pass_constfold(s) | pass_algebraic(s))
        pass_copyprop(s);
    if (pass_localprop(s))
        pass_deadstore(s);
    pass_dce(s);
    if (pass_ifconv(s)) {
        pass_copyprop(s);
        pass_dce(s);
    }
    if (pass_constprop(s))
        pass_copyprop(s);
    if (pass_constfold(s)) {   /* constants copy propagation brought */
        pass_copyprop(s);
        pass_dce(s);
    }
    pass_vectorize(s);
    pass_cse(s);
    pass_dce(s);
    pass_madfuse(s);
    pass_coalesce(s);
    pass_outputs(s);
}

bool us_passes_narrowed(struct spv *s)
{
    bool changed = false;
    for (unsigned round = 0; round < 8 && pass_pack(s); round++) {
        pass_vectorize(s);
        changed = true;
    }
    return changed;
}

void us_passes_physical(struct spv *s)
{
    pass_selfmove(s);
    pass_vectorize(s);
}

void us_passes_program(struct us_program *p)
{
    pass_hoist(p);
}

bool pass_is_flow(unsigned op)
{
    return us_ops[op].format == US_FMT_FLOW ||
           us_ops[op].format == US_FMT_COND || op == US_OP_BRA;
}

bool pass_writes_temp(const struct us_inst *in)
{
    return in->dst.file == US_FILE_TEMP &&
           us_ops[in->op].format != US_FMT_FLOW &&
           us_ops[in->op].format != US_FMT_COND &&
           us_ops[in->op].format != US_FMT_KIL && in->op != US_OP_BRA;
}

void pass_branch_targets(const struct spv *s, bool *target)
{
    memset(target, 0, (s->ninsts + 1) * sizeof *target);
    for (unsigned i = 0; i < s->ninsts; i++)
        if (s->insts[i].op == US_OP_BRA && s->insts[i].target <= s->ninsts)
            target[s->insts[i].target] = true;
}

bool pass_compact(struct spv *s, const bool *dead)
{
    unsigned *map = malloc((s->ninsts + 1) * sizeof *map);
    if (!map)
        return false;
    unsigned n = 0;
    for (unsigned i = 0; i <= s->ninsts; i++) {
        map[i] = n;
        n += i < s->ninsts && !dead[i];
    }
    bool changed = n != s->ninsts;
    n = 0;
    for (unsigned i = 0; i < s->ninsts; i++) {
        if (dead[i])
            continue;
        s->insts[n] = s->insts[i];
        if (s->insts[n].op == US_OP_BRA && s->insts[n].target <= s->ninsts)
            s->insts[n].target = (uint16_t)map[s->insts[n].target];
        n++;
    }
    s->ninsts = n;
    free(map);
    return changed;
}

bool pass_identity(const struct us_src *x, unsigned mask)
{
    if (x->negate || x->rel)
        return false;
    for (unsigned c = 0; c < 4; c++)
        if ((mask & (1u << c)) && x->swz[c] != c)
            return false;
    return true;
}
