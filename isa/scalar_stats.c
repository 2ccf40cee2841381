/*
 * Instruction counts, instruction-memory bits per target and the
 * vector-width histogram of a program (`ushader stats`, SPEC section 3).
 */
#include <string.h>

#include "isa/scalar.h"
#include "isa/micro.h"

unsigned us_inst_width(const struct us_inst *in)
{
    const struct us_opinfo *o = &us_ops[in->op];
    if (in->op == US_OP_KIL) {
        unsigned seen = 0, n = 0;
        for (unsigned c = 0; c < 4; c++) {
            unsigned key = 1u << (in->src[0].swz[c] % 6 + 6 * ((in->src[0].negate >> c) & 1));
            n += !(seen & key);
            seen |= key;
        }
        return n;
    }
    if (in->op == US_OP_ARL)
        return 1;
    if (o->shape == US_SHAPE_DOT)
        return in->op == US_OP_DP3 ? 3 : 4;
    if (o->shape == US_SHAPE_REPL)
        return 1;
    if (o->format == US_FMT_STORE)   /* the components it stores */
        return (unsigned)__builtin_popcount(in->dst.mask & 0xfu);
    return (unsigned)__builtin_popcount(micro_written_mask(in->op, in->dst.mask));
}

unsigned us_inst_useful_ops(const struct us_inst *in)
{
    enum us_unit u = us_ops[in->op].unit;
    return u == US_UNIT_TEX || u == US_UNIT_LSU ? 0 : us_inst_width(in);
}

unsigned us_inst_hist_width(const struct us_inst *in)
{
    return us_ops[in->op].unit == US_UNIT_TEX ? 0 : us_inst_width(in);
}

bool us_code_stats(const struct us_program *prog, struct us_code_stats *st,
                   struct us_diag *diag)
{
    memset(st, 0, sizeof *st);
    st->vec4_instructions = prog->ninsts;
    st->preshader_instructions = prog->npre;
    for (unsigned i = 0; i < prog->ninsts; i++) {
        unsigned w = us_inst_hist_width(&prog->insts[i]);
        st->width_hist[w > 4 ? 4 : w]++;
    }
    for (unsigned i = 0; i < prog->ninsts; i++) {
        struct us_program one = *prog;
        struct us_scode c;
        one.insts = &prog->insts[i];
        one.ninsts = 1;
        unsigned op = prog->insts[i].op;
        st->op_count[op]++;
        if (us_ops[op].unit == US_UNIT_BRANCH) {
            /* one flow word (after an LDR per relative source); it
             * cannot be lowered alone: its partner is elsewhere */
            const struct us_inst *in = &prog->insts[i];
            unsigned n = 1;
            bool reads = op != US_OP_BRA || in->sub != US_COND_ALWAYS;
            for (unsigned k = 0; reads && k < us_ops[op].nsrc; k++)
                n += in->src[k].rel;
            for (unsigned f = 0; f < US_COMPACT_COUNT; f++)
                st->op_form[f][op] += n;
            continue;
        }
        for (unsigned f = 0; f < US_COMPACT_COUNT; f++) {
            if (!us_lower(&one, f, &c, diag))
                return false;
            st->op_form[f][op] += c.n;
            us_scode_free(&c);
        }
    }
    for (unsigned f = 0; f < US_COMPACT_COUNT; f++) {
        struct us_scode c;
        if (!us_lower(prog, f, &c, diag))
            return false;
        st->form_instructions[f] = c.n;
        st->form_bits[f] = (uint64_t)c.n * us_compaction_word_bits(
                                               (enum us_compaction)f);
        us_scode_free(&c);
    }
    for (int t = 0; t < US_TARGET_COUNT; t++) {
        struct us_binary b;
        if (!us_encode_target(prog, (enum us_target)t, &b, diag))
            return false;
        st->bits[t] = (uint64_t)b.nwords * b.word_bits;
        switch (t) {
        case US_TARGET_SCALAR: st->compacted_instructions = b.nwords; break;
        case US_TARGET_SCALAR_NOCOMPACT: st->scalar_instructions = b.nwords; break;
        case US_TARGET_VLIW: st->vliw_bundles = b.nwords; break;
        case US_TARGET_VLIW5: st->vliw5_bundles = b.nwords; break;
        case US_TARGET_HETERO: st->hetero_bundles = b.nwords; break;
        default: break;
        }
        us_binary_free(&b);
    }
    return true;
}
