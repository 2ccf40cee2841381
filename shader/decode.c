/*
 * Decoding vec4 instructions for the interpreter (shader/decode.h): the
 * operand lookups of ARB_vertex_program 2.14.4.1-2.14.4.3 resolved once
 * per instruction instead of once per component of every fragment.
 */
#include <assert.h>
#include <stddef.h>
#include <stdlib.h>

#include "shader/decode.h"
#include "isa/micro.h"

static void decode_src(const struct us_src *s, bool ineg,
                       struct us_dsrc *d)
{
    d->ineg = ineg;
    d->kind = US_DSRC_ZERO;
    d->off = 0;
    d->rel_addr = 0;
    d->rel_offset = 0;
    d->rel_size = 0;
    switch (s->file) {
    case US_FILE_TEMP:
        assert(s->index < US_MAX_TEMPS);
        d->kind = US_DSRC_THREAD;
        d->off = (uint32_t)(offsetof(struct us_thread, temp) +
                            s->index * sizeof(us_vec4));
        break;
    case US_FILE_INPUT:
        assert(s->index < US_MAX_INPUTS);
        d->kind = US_DSRC_THREAD;
        d->off = (uint32_t)(offsetof(struct us_thread, input) +
                            s->index * sizeof(us_vec4));
        break;
    case US_FILE_OUTPUT:
        assert(s->index < US_MAX_OUTPUTS);
        d->kind = US_DSRC_THREAD;
        d->off = (uint32_t)(offsetof(struct us_thread, output) +
                            s->index * sizeof(us_vec4));
        break;
    case US_FILE_PARAM:
        d->kind = s->rel ? US_DSRC_PARAM_REL : US_DSRC_PARAM;
        d->off = s->index;
        if (s->rel) {
            assert(s->rel_addr < US_MAX_ADDRESS);
            d->rel_addr = s->rel_addr;
            d->rel_offset = s->rel_offset;
            d->rel_size = s->rel_size;
        }
        break;
    default:
        break;
    }
    bool perm = true, identity = !s->negate;
    for (int c = 0; c < 4; c++) {
        assert(s->swz[c] <= US_SWZ_ONE);
        d->swz[c] = s->swz[c];
        perm = perm && s->swz[c] <= US_SWZ_W;
        identity = identity && s->swz[c] == c;
    }
    d->negate = s->negate & 0xF;
    d->swz_kind = identity ? US_DSWZ_PLAIN : perm ? US_DSWZ_PERM : US_DSWZ_EXT;
    if (d->kind == US_DSRC_THREAD && d->swz_kind == US_DSWZ_PLAIN)
        d->load = US_DLOAD_THREAD_PLAIN;
    else if (d->kind == US_DSRC_THREAD && d->swz_kind == US_DSWZ_PERM &&
             !d->negate)
        d->load = US_DLOAD_THREAD_PERM;
    else if (d->kind == US_DSRC_PARAM || d->kind == US_DSRC_ZERO)
        d->load = US_DLOAD_UNIFORM;
    else
        d->load = US_DLOAD_GENERAL;
}

void us_decode_inst(const struct us_inst *in, unsigned word,
                    struct us_dinst *out)
{
    assert(in->op < US_OP_COUNT);
    enum us_opcode op = in->op;
    out->op = in->op;
    out->nsrc = us_ops[op].nsrc;
    out->mask = (uint8_t)micro_written_mask(op, in->dst.mask);
    out->sat = in->sat;
    out->tex_unit = in->tex_unit;
    out->tex_target = in->tex_target;
    out->word = (uint8_t)(in->word ? in->word : word ? word : 32);
    out->mtype = in->mtype;
    out->sub = in->sub;
    out->dst_off = 0;
    out->dst_kind = US_DDST_NONE;
    if (us_ops[op].format == US_FMT_STORE) {
        out->dst_kind = US_DDST_MEMORY;
        out->mask = in->dst.mask & 0xFu;
    } else if (op == US_OP_ARL) {
        assert(in->dst.index < US_MAX_ADDRESS);
        out->dst_kind = US_DDST_ADDR;
        out->dst_off = in->dst.index;
    } else if (op == US_OP_KIL) {
        out->dst_kind = US_DDST_KILL;
    } else if (out->mask && in->dst.file == US_FILE_TEMP) {
        assert(in->dst.index < US_MAX_TEMPS);
        out->dst_kind = US_DDST_THREAD;
        out->dst_off = (uint32_t)(offsetof(struct us_thread, temp) +
                                  in->dst.index * sizeof(us_vec4));
    } else if (out->mask && in->dst.file == US_FILE_OUTPUT) {
        assert(in->dst.index < US_MAX_OUTPUTS);
        out->dst_kind = US_DDST_THREAD;
        out->dst_off = (uint32_t)(offsetof(struct us_thread, output) +
                                  in->dst.index * sizeof(us_vec4));
    }
    bool ineg = us_ops[op].flags & US_I_SRC;
    for (unsigned i = 0; i < 3; i++)
        decode_src(&in->src[i], ineg, &out->src[i]);
}

struct us_decoded *us_decode(const struct us_program *prog)
{
    struct us_decoded *d =
        malloc(sizeof *d + (prog->ninsts ? prog->ninsts : 1) *
                               sizeof d->inst[0]);
    if (!d)
        return NULL;
    d->prog = prog;
    for (unsigned pc = 0; pc < prog->ninsts; pc++)
        us_decode_inst(&prog->insts[pc], prog->word_bits, &d->inst[pc]);
    return d;
}

void us_decoded_free(struct us_decoded *d)
{
    free(d);
}
