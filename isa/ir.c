/* Vec4 IR utilities: ownership, identity and binding names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ushader.h"

void us_program_free(struct us_program *prog)
{
    free(prog->insts);
    free(prog->params);
    free(prog->decls);
    free(prog->pre);
    us_flow_free(prog->flow);
    memset(prog, 0, sizeof *prog);
}

static bool src_equal(const struct us_src *a, const struct us_src *b)
{
    if (a->file != b->file || a->negate != b->negate || a->rel != b->rel ||
        a->index != b->index || memcmp(a->swz, b->swz, sizeof a->swz))
        return false;
    return !a->rel || (a->rel_addr == b->rel_addr &&
                       a->rel_offset == b->rel_offset &&
                       a->rel_size == b->rel_size);
}

static bool inst_equal(const struct us_inst *a, const struct us_inst *b)
{
    if (a->op != b->op || a->sat != b->sat || a->dst.file != b->dst.file ||
        a->dst.mask != b->dst.mask || a->dst.index != b->dst.index ||
        a->word != b->word || a->joined != b->joined)
        return false;
    enum us_op_format f = us_ops[a->op].format;
    if (f == US_FMT_TEX &&
        (a->tex_unit != b->tex_unit || a->tex_target != b->tex_target))
        return false;
    bool mem = f == US_FMT_LOAD || f == US_FMT_STORE || f == US_FMT_ATOM;
    if (mem && (a->tex_unit != b->tex_unit || a->mtype != b->mtype ||
                a->sub != b->sub))
        return false;
    if (f == US_FMT_BRA && (a->sub != b->sub || a->target != b->target))
        return false;
    for (int i = 0; i < us_ops[a->op].nsrc; i++)
        if (!src_equal(&a->src[i], &b->src[i]))
            return false;
    return true;
}

static bool param_equal(const struct us_param *a, const struct us_param *b)
{
    if (a->kind != b->kind || a->decl != b->decl)
        return false;
    switch (a->kind) {
    case US_PARAM_CONST:
        return !memcmp(a->value, b->value, sizeof a->value);
    case US_PARAM_ENV:
    case US_PARAM_LOCAL:
    case US_PARAM_PRE:
        return a->index == b->index;
    default:
        return !memcmp(&a->state, &b->state, sizeof a->state);
    }
}

static bool decl_equal(const struct us_decl *a, const struct us_decl *b)
{
    return !strcmp(a->name, b->name) && a->kind == b->kind &&
           a->array == b->array && a->base == b->base && a->size == b->size;
}

bool us_program_equal(const struct us_program *a, const struct us_program *b)
{
    if (a->stage != b->stage || a->options != b->options ||
        a->ninsts != b->ninsts || a->nparams != b->nparams ||
        a->ndecls != b->ndecls || a->ntemps != b->ntemps ||
        a->naddrs != b->naddrs || a->inputs_read != b->inputs_read ||
        a->outputs_written != b->outputs_written ||
        a->word_bits != b->word_bits || a->shared_bytes != b->shared_bytes ||
        a->buffers_used != b->buffers_used || a->npre != b->npre ||
        a->npre_temps != b->npre_temps ||
        memcmp(a->group_size, b->group_size, sizeof a->group_size))
        return false;
    for (unsigned i = 0; i < a->ninsts; i++)
        if (!inst_equal(&a->insts[i], &b->insts[i]))
            return false;
    for (unsigned i = 0; i < a->npre; i++)
        if (!inst_equal(&a->pre[i], &b->pre[i]))
            return false;
    for (unsigned i = 0; i < a->nparams; i++)
        if (!param_equal(&a->params[i], &b->params[i]))
            return false;
    for (unsigned i = 0; i < a->ndecls; i++)
        if (!decl_equal(&a->decls[i], &b->decls[i]))
            return false;
    return true;
}

static const char *const vin_names[US_VIN_COUNT] = {
    "vertex.attrib[0]", "vertex.attrib[1]", "vertex.attrib[2]",
    "vertex.attrib[3]", "vertex.attrib[4]", "vertex.attrib[5]",
    "vertex.attrib[6]", "vertex.attrib[7]", "vertex.attrib[8]",
    "vertex.attrib[9]", "vertex.attrib[10]", "vertex.attrib[11]",
    "vertex.attrib[12]", "vertex.attrib[13]", "vertex.attrib[14]",
    "vertex.attrib[15]",
    [US_VIN_POSITION] = "vertex.position",
    [US_VIN_WEIGHT] = "vertex.weight",
    [US_VIN_NORMAL] = "vertex.normal",
    [US_VIN_COLOR0] = "vertex.color.primary",
    [US_VIN_COLOR1] = "vertex.color.secondary",
    [US_VIN_FOGCOORD] = "vertex.fogcoord",
    [US_VIN_TEXCOORD0] = "vertex.texcoord[0]", "vertex.texcoord[1]",
    "vertex.texcoord[2]", "vertex.texcoord[3]", "vertex.texcoord[4]",
    "vertex.texcoord[5]", "vertex.texcoord[6]", "vertex.texcoord[7]",
};

static const char *const fin_names[US_FIN_COUNT] = {
    [US_FIN_POSITION] = "fragment.position",
    [US_FIN_COLOR0] = "fragment.color.primary",
    [US_FIN_COLOR1] = "fragment.color.secondary",
    [US_FIN_FOGCOORD] = "fragment.fogcoord",
    [US_FIN_TEXCOORD0] =
    "fragment.texcoord[0]", "fragment.texcoord[1]", "fragment.texcoord[2]",
    "fragment.texcoord[3]", "fragment.texcoord[4]", "fragment.texcoord[5]",
    "fragment.texcoord[6]", "fragment.texcoord[7]", "fragment.texcoord[8]",
    "fragment.texcoord[9]", "fragment.texcoord[10]", "fragment.texcoord[11]",
    "fragment.texcoord[12]", "fragment.texcoord[13]",
    "fragment.texcoord[14]", "fragment.texcoord[15]",
    "fragment.texcoord[16]", "fragment.texcoord[17]",
    "fragment.texcoord[18]", "fragment.texcoord[19]",
    "fragment.texcoord[20]", "fragment.texcoord[21]",
    "fragment.texcoord[22]", "fragment.texcoord[23]",
    "fragment.texcoord[24]", "fragment.texcoord[25]",
    "fragment.texcoord[26]", "fragment.texcoord[27]",
    "fragment.texcoord[28]", "fragment.texcoord[29]",
    "fragment.texcoord[30]", "fragment.texcoord[31]",
    [US_FIN_FACING] = "fragment.facing",
};

static const char *const vout_names[US_VOUT_COUNT] = {
    [US_VOUT_POSITION] = "result.position",
    [US_VOUT_COLOR0] = "result.color.front.primary",
    [US_VOUT_COLOR1] = "result.color.front.secondary",
    [US_VOUT_BCOLOR0] = "result.color.back.primary",
    [US_VOUT_BCOLOR1] = "result.color.back.secondary",
    [US_VOUT_FOGCOORD] = "result.fogcoord",
    [US_VOUT_POINTSIZE] = "result.pointsize",
    [US_VOUT_TEXCOORD0] =
    "result.texcoord[0]", "result.texcoord[1]", "result.texcoord[2]",
    "result.texcoord[3]", "result.texcoord[4]", "result.texcoord[5]",
    "result.texcoord[6]", "result.texcoord[7]", "result.texcoord[8]",
    "result.texcoord[9]", "result.texcoord[10]", "result.texcoord[11]",
    "result.texcoord[12]", "result.texcoord[13]", "result.texcoord[14]",
    "result.texcoord[15]", "result.texcoord[16]", "result.texcoord[17]",
    "result.texcoord[18]", "result.texcoord[19]", "result.texcoord[20]",
    "result.texcoord[21]", "result.texcoord[22]", "result.texcoord[23]",
    "result.texcoord[24]", "result.texcoord[25]", "result.texcoord[26]",
    "result.texcoord[27]", "result.texcoord[28]", "result.texcoord[29]",
    "result.texcoord[30]", "result.texcoord[31]",
    [US_VOUT_CLIPDIST0] = "result.clipdistance[0]",
    [US_VOUT_CLIPDIST1] = "result.clipdistance[1]",
    [US_VOUT_CLIPVERTEX] = "result.clipvertex",
};

_Static_assert(US_MAX_VARYINGS == 32, "a name per varying slot");

static const char *const fout_names[US_FOUT_COUNT] = {
    [US_FOUT_COLOR] = "result.color",
    [US_FOUT_DEPTH] = "result.depth",
};

static const char *const cin_names[US_CIN_COUNT] = {
    "invocation.globalid", "invocation.localid", "invocation.groupid",
    "invocation.groupcount", "invocation.groupsize", "invocation.localindex",
};

unsigned us_program_varying_slots(const struct us_program *prog)
{
    uint64_t m;
    unsigned first;
    if (prog->stage == US_STAGE_VERTEX) {
        m = prog->outputs_written;
        first = US_VOUT_TEXCOORD0;
    } else if (prog->stage == US_STAGE_FRAGMENT) {
        m = prog->inputs_read;
        first = US_FIN_TEXCOORD0;
    } else {
        return 0;
    }
    m = m >> first & ((UINT64_C(1) << US_MAX_VARYINGS) - 1);
    unsigned n = 0;
    for (; m; m >>= 1)
        n++;
    return n;
}

bool us_check_varying_slots(const struct us_program *prog, unsigned slots,
                            struct us_diag *diag)
{
    if (!slots)
        slots = US_VARYING_SLOTS_DEFAULT;
    unsigned n = us_program_varying_slots(prog);
    if (n <= slots)
        return true;
    memset(diag, 0, sizeof *diag);
    bool vp = prog->stage == US_STAGE_VERTEX;
    snprintf(diag->msg, sizeof diag->msg, "the %s program %s %s: %u vec4 "
             "varying slots, more than varying_slots=%u (default %d, GLES "
             "2.0's GL_MAX_VARYING_VECTORS; --set varying_slots=N up to %d)",
             vp ? "vertex" : "fragment", vp ? "writes" : "reads",
             vp ? us_output_name(prog->stage, US_VOUT_TEXCOORD0 + n - 1)
                : us_input_name(prog->stage, US_FIN_TEXCOORD0 + n - 1),
             n, slots, US_VARYING_SLOTS_DEFAULT, US_MAX_VARYINGS);
    return false;
}

const char *us_input_name(enum us_stage stage, unsigned slot)
{
    if (stage == US_STAGE_VERTEX)
        return slot < US_VIN_COUNT ? vin_names[slot] : NULL;
    if (stage == US_STAGE_COMPUTE)
        return slot < US_CIN_COUNT ? cin_names[slot] : NULL;
    return slot < US_FIN_COUNT ? fin_names[slot] : NULL;
}

const char *us_output_name(enum us_stage stage, unsigned slot)
{
    if (stage == US_STAGE_VERTEX)
        return slot < US_VOUT_COUNT ? vout_names[slot] : NULL;
    if (stage == US_STAGE_COMPUTE)
        return NULL;   /* compute programs write memory only */
    return slot < US_FOUT_COUNT ? fout_names[slot] : NULL;
}
