/*
 * Reading a SPIR-V module (SPIR-V 1.x specification, 2.3 "Physical Layout"
 * and 2.4 "Logical Layout"): every instruction's word count is checked
 * against the module, every id the translator follows against the bound
 * and its definition, so malformed input fails with a message.  An
 * OpenCL Kernel entry point is read through llvm-spirv's wrapper to the
 * kernel's own function (kernel_wrapper), its parameters noted.
 */
#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glsl/spirv.h"

/* spirv.h defines this C99 inline function; this is its one external
 * definition (C11 6.7.4p7). */
extern inline void SpvHasResultAndType(SpvOp opcode, bool *hasResult,
                                       bool *hasResultType);

enum { MAX_BOUND = 1u << 20, MAX_SLOTS = 4096 };

bool spv_fail(struct spv *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (!s->diag->msg[0]) {
        vsnprintf(s->diag->msg, sizeof s->diag->msg, fmt, ap);
        s->diag->line = s->line;   /* the GLSL line of the last OpLine */
    }
    va_end(ap);
    return false;
}

bool spv_id(struct spv *s, uint32_t at, unsigned k, uint32_t *id)
{
    if (k >= spv_wc(s, at))
        return spv_fail(s, "SPIR-V: instruction at word %u has no operand %u",
                        at, k);
    uint32_t v = s->w[at + k];
    if (v == 0 || v >= s->bound || !s->ids[v].def)
        return spv_fail(s, "SPIR-V: undefined id %u (instruction at word %u)",
                        v, at);
    *id = v;
    return true;
}

bool spv_const_int(struct spv *s, uint32_t id, int64_t *v)
{
    const struct sid *c = &s->ids[id];
    if (c->op != SpvOpConstant || c->type >= s->bound ||
        s->ids[c->type].ty != TY_INT || spv_wc(s, c->def) < 4)
        return spv_fail(s, "SPIR-V: id %u is not an integer constant", id);
    uint32_t bits = s->w[c->def + 3];
    *v = s->ids[c->type].is_signed ? (int64_t)(int32_t)bits : (int64_t)bits;
    return true;
}

struct block *spv_block(struct spv *s, uint32_t label)
{
    for (size_t i = 0; i < s->nblocks; i++)
        if (s->blocks[i].label == label)
            return &s->blocks[i];
    return NULL;
}

const struct smember *spv_member(const struct spv *s, uint32_t type,
                                 uint32_t index)
{
    for (size_t i = 0; i < s->nmembers; i++)
        if (s->members[i].type_id == type && s->members[i].index == index)
            return &s->members[i];
    return NULL;
}

static struct smember *member_slot(struct spv *s, uint32_t type,
                                   uint32_t index)
{
    for (size_t i = 0; i < s->nmembers; i++)
        if (s->members[i].type_id == type && s->members[i].index == index)
            return &s->members[i];
    if (s->nmembers == s->cap_members) {
        size_t cap = s->cap_members ? 2 * s->cap_members : 32;
        struct smember *m = realloc(s->members, cap * sizeof *m);
        if (!m)
            return NULL;
        s->members = m;
        s->cap_members = cap;
    }
    struct smember *m = &s->members[s->nmembers++];
    *m = (struct smember){ .type_id = type, .index = index, .builtin = -1,
                           .offset = -1 };
    return m;
}

/* A literal string operand starting at word `k`, NUL inside the
 * instruction (2.2.1 "Literal String"). */
static const char *string_at(struct spv *s, uint32_t at, unsigned k)
{
    unsigned wc = spv_wc(s, at);
    if (k >= wc)
        return NULL;
    const char *p = (const char *)&s->w[at + k];
    size_t max = (size_t)(wc - k) * 4;
    return memchr(p, 0, max) ? p : NULL;
}

static bool slots_of(struct spv *s, uint32_t type, uint32_t *out)
{
    const struct sid *t = &s->ids[type];
    if (t->ty == TY_NONE || t->ty == TY_VOID || t->ty == TY_FUNCTION)
        return spv_fail(s, "SPIR-V: id %u is not a data type", type);
    *out = t->slots;
    return true;
}

/* Type declarations (2.4 "all type declarations"): class, size, slots. */
static bool parse_type(struct spv *s, uint32_t at, unsigned op, uint32_t id)
{
    struct sid *t = &s->ids[id];
    unsigned wc = spv_wc(s, at);
    uint32_t e;
    /* Operands that name types: declared before this one (2.4), so type
     * walks cannot recurse forever. */
    unsigned first = 2, last = wc - 1;
    switch (op) {
    case SpvOpTypeVector: case SpvOpTypeMatrix: case SpvOpTypeSampledImage:
        last = 2;
        break;
    case SpvOpTypeArray: last = 3; break;
    case SpvOpTypeRuntimeArray: last = 2; break;
    case SpvOpTypePointer: first = last = 3; break;
    case SpvOpTypeStruct: case SpvOpTypeFunction: break;
    default: first = wc; break;
    }
    for (unsigned k = first; k <= last && k < wc; k++)
        if (s->w[at + k] < s->bound && s->ids[s->w[at + k]].def >= at)
            return spv_fail(s, "SPIR-V: type %u uses a later id", id);
    t->comps = 1;
    t->slots = 1;
    switch (op) {
    case SpvOpTypeVoid: t->ty = TY_VOID; t->slots = 0; return true;
    case SpvOpTypeBool: t->ty = TY_BOOL; return true;
    case SpvOpTypeInt:
        /* 8- and 16-bit integers only come with the storage extensions
         * (GL_EXT_shader_16bit_storage, 8bit_storage): memory holds them,
         * registers hold them as 32-bit words, sign- or zero-extended. */
        if (wc < 4 || (s->w[at + 2] != 32 && s->w[at + 2] != 16 &&
                       s->w[at + 2] != 8))
            return spv_fail(s, "%u-bit integers are not supported (8, 16 "
                            "and 32 are)", wc < 4 ? 0 : s->w[at + 2]);
        t->ty = TY_INT;
        t->width = (uint8_t)s->w[at + 2];
        t->is_signed = s->w[at + 3] != 0;
        return true;
    case SpvOpTypeFloat:
        if (wc < 3 || s->w[at + 2] != 32)
            return spv_fail(s, "%u-bit floats are not supported (only "
                            "32-bit ones are)", wc < 3 ? 0 : s->w[at + 2]);
        t->ty = TY_FLOAT;
        t->width = 32;
        return true;
    case SpvOpTypeVector:
        if (!spv_id(s, at, 2, &e) || wc < 4)
            return spv_fail(s, "SPIR-V: bad OpTypeVector");
        if (s->ids[e].ty < TY_BOOL || s->ids[e].ty > TY_FLOAT ||
            s->w[at + 3] < 2 || s->w[at + 3] > 4)
            return spv_fail(s, "SPIR-V: bad vector type %u", id);
        t->ty = TY_VECTOR;
        t->elem = e;
        t->comps = (uint8_t)s->w[at + 3];
        return true;
    case SpvOpTypeMatrix:
        if (!spv_id(s, at, 2, &e) || wc < 4 || s->ids[e].ty != TY_VECTOR ||
            s->w[at + 3] < 2 || s->w[at + 3] > 4)
            return spv_fail(s, "SPIR-V: bad matrix type %u", id);
        t->ty = TY_MATRIX;
        t->elem = e;
        t->len = s->w[at + 3];
        t->comps = s->ids[e].comps;
        t->slots = t->len;
        return true;
    case SpvOpTypeArray: {
        uint32_t n;
        int64_t len;
        if (!spv_id(s, at, 2, &e) || !spv_id(s, at, 3, &n) ||
            !slots_of(s, e, &t->slots) || !spv_const_int(s, n, &len))
            return false;
        if (len < 1 || (uint64_t)len * t->slots > MAX_SLOTS)
            return spv_fail(s, "SPIR-V: array type %u is too large", id);
        t->ty = TY_ARRAY;
        t->elem = e;
        t->len = (uint32_t)len;
        t->slots *= t->len;
        return true;
    }
    case SpvOpTypeRuntimeArray:
        /* Only in memory (a storage buffer's last member): no slots. */
        if (!spv_id(s, at, 2, &e) || !slots_of(s, e, &t->slots))
            return false;
        t->ty = TY_RUNTIME_ARRAY;
        t->elem = e;
        t->slots = 0;
        return true;
    case SpvOpTypeStruct:
        t->ty = TY_STRUCT;
        t->len = wc - 2;
        t->slots = 0;
        for (unsigned k = 2; k < wc; k++) {
            uint32_t ms = 0;
            if (!spv_id(s, at, k, &e) || !slots_of(s, e, &ms))
                return false;
            t->slots += ms;
            if (t->slots > MAX_SLOTS)
                return spv_fail(s, "SPIR-V: struct type %u is too large", id);
        }
        return true;
    case SpvOpTypePointer:
        if (wc < 4 || !spv_id(s, at, 3, &e))
            return spv_fail(s, "SPIR-V: bad OpTypePointer");
        t->ty = TY_POINTER;
        t->storage = s->w[at + 2];
        t->elem = e;
        return true;
    case SpvOpTypeFunction: t->ty = TY_FUNCTION; t->slots = 0; return true;
    case SpvOpTypeImage:
        if (wc < 9)
            return spv_fail(s, "SPIR-V: bad OpTypeImage");
        t->ty = TY_IMAGE;
        return true;
    case SpvOpTypeSampledImage:
        if (!spv_id(s, at, 2, &e) || s->ids[e].ty != TY_IMAGE)
            return spv_fail(s, "SPIR-V: bad OpTypeSampledImage");
        t->ty = TY_SAMPLED_IMAGE;
        t->elem = e;
        return true;
    case SpvOpTypeSampler: t->ty = TY_SAMPLER; return true;
    default:
        return spv_fail(s, "SPIR-V: unsupported type (opcode %u)", op);
    }
}

static bool parse_annotation(struct spv *s, uint32_t at, unsigned op)
{
    unsigned wc = spv_wc(s, at);
    uint32_t target = wc > 1 ? s->w[at + 1] : 0;
    if (target == 0 || target >= s->bound)
        return spv_fail(s, "SPIR-V: annotation of bad id %u", target);
    struct sid *t = &s->ids[target];
    switch (op) {
    case SpvOpName:
        t->name = string_at(s, at, 2);
        return t->name ? true : spv_fail(s, "SPIR-V: bad OpName");
    case SpvOpMemberName:
    case SpvOpMemberDecorate: {
        if (wc < 4)
            return spv_fail(s, "SPIR-V: bad member annotation");
        struct smember *m = member_slot(s, target, s->w[at + 2]);
        if (!m)
            return spv_fail(s, "out of memory");
        if (op == SpvOpMemberName) {
            m->name = string_at(s, at, 3);
            return m->name ? true : spv_fail(s, "SPIR-V: bad OpMemberName");
        }
        if (s->w[at + 3] == SpvDecorationBuiltIn && wc >= 5)
            m->builtin = (int32_t)s->w[at + 4];
        if (s->w[at + 3] == SpvDecorationOffset && wc >= 5)
            m->offset = (int32_t)s->w[at + 4];
        if (s->w[at + 3] == SpvDecorationMatrixStride && wc >= 5)
            m->matrix_stride = s->w[at + 4];
        if (s->w[at + 3] == SpvDecorationRowMajor)
            m->row_major = true;
        return true;
    }
    case SpvOpDecorate:
        if (wc < 3)
            return spv_fail(s, "SPIR-V: bad OpDecorate");
        if (wc >= 4 && s->w[at + 2] == SpvDecorationLocation)
            t->location = (int32_t)s->w[at + 3];
        if (wc >= 4 && s->w[at + 2] == SpvDecorationBuiltIn)
            t->builtin = (int32_t)s->w[at + 3];
        if (wc >= 4 && s->w[at + 2] == SpvDecorationBinding)
            t->binding = (int32_t)s->w[at + 3];
        if (wc >= 4 && s->w[at + 2] == SpvDecorationOffset)
            t->offset = (int32_t)s->w[at + 3];
        if (wc >= 4 && s->w[at + 2] == SpvDecorationArrayStride)
            t->stride = s->w[at + 3];
        if (s->w[at + 2] == SpvDecorationBufferBlock)
            t->buffer_block = true;
        if (s->w[at + 2] == SpvDecorationFlat)
            t->flat = true;
        if (s->w[at + 2] == SpvDecorationNoPerspective)
            t->noperspective = true;
        return true;
    default:
        return true;
    }
}

static bool add_block(struct spv *s, uint32_t label, uint32_t first)
{
    size_t n = s->nblocks + 1;
    struct block *b = realloc(s->blocks, n * sizeof *b);
    if (!b)
        return spv_fail(s, "out of memory");
    s->blocks = b;
    b[s->nblocks] = (struct block){ .label = label, .first = first };
    s->nblocks = n;
    return true;
}

/* Instructions of the entry function: blocks, merges, terminators. */
static bool parse_body(struct spv *s, uint32_t at, unsigned op)
{
    struct block *b = s->nblocks ? &s->blocks[s->nblocks - 1] : NULL;
    switch (op) {
    case SpvOpLabel:
        if (b && !b->term)
            return spv_fail(s, "SPIR-V: block %u has no terminator",
                            b->label);
        if (!add_block(s, s->w[at + 1], at + spv_wc(s, at)))
            return false;
        s->blocks[s->nblocks - 1].line = s->line;
        return true;
    case SpvOpSelectionMerge:
    case SpvOpLoopMerge:
        if (!b || b->term || spv_wc(s, at) < (op == SpvOpLoopMerge ? 4u : 3u))
            return spv_fail(s, "SPIR-V: misplaced merge instruction");
        b->merge = s->w[at + 1];
        if (op == SpvOpLoopMerge) {
            b->cont = s->w[at + 2];
            b->loop = true;
        }
        return true;
    case SpvOpLine: case SpvOpNoLine:
        /* Debug information may sit between blocks (after a terminator,
         * before the next OpLabel): the line the next block starts on.
         * A block's own lines are read when it is translated. */
        if (!b || b->term)
            s->line = op == SpvOpLine && spv_wc(s, at) >= 3 ? s->w[at + 2]
                                                            : 0;
        return true;
    case SpvOpBranch: case SpvOpBranchConditional: case SpvOpSwitch:
    case SpvOpReturn: case SpvOpReturnValue: case SpvOpKill:
    case SpvOpUnreachable: case SpvOpTerminateInvocation:
        if (!b || b->term)
            return spv_fail(s, "SPIR-V: terminator outside a block");
        b->term = at;
        return true;
    default:
        if (!b || b->term)
            return spv_fail(s, "SPIR-V: instruction outside a block");
        return true;
    }
}

static uint32_t model_of(enum us_stage stage)
{
    switch (stage) {
    case US_STAGE_VERTEX: return SpvExecutionModelVertex;
    case US_STAGE_FRAGMENT: return SpvExecutionModelFragment;
    case US_STAGE_COMPUTE: return SpvExecutionModelGLCompute;
    default: return ~0u;
    }
}

/* OpExecutionMode LocalSize x y z: the IR's GROUP_SIZE. */
static bool local_size(struct spv *s, uint32_t at)
{
    uint64_t total = 1;
    for (int d = 0; d < 3; d++) {
        uint32_t v = s->w[at + 3 + d];
        if (v < 1 || v > US_MAX_GROUP_INVOCATIONS)
            return spv_fail(s, "local size %u is out of range (1..%d)", v,
                            US_MAX_GROUP_INVOCATIONS);
        s->group_size[d] = (uint16_t)v;
        total *= v;
    }
    if (total > US_MAX_GROUP_INVOCATIONS)
        return spv_fail(s, "a workgroup of %llu invocations (limit %d)",
                        (unsigned long long)total, US_MAX_GROUP_INVOCATIONS);
    return true;
}

/* llvm-spirv's entry point is a wrapper that calls the kernel's own
 * function with its arguments: read that function instead. */
static bool kernel_wrapper(struct spv *s)
{
    uint32_t at = s->blocks[0].first;
    while (at < s->blocks[0].term && (spv_op(s, at) == SpvOpLine ||
                                      spv_op(s, at) == SpvOpNoLine ||
                                      spv_op(s, at) == SpvOpExtInst))
        at += spv_wc(s, at);
    if (at >= s->blocks[0].term || spv_op(s, at) != SpvOpFunctionCall ||
        spv_wc(s, at) != 4 + s->nargs)
        return true;
    for (uint32_t k = 0; k < s->nargs; k++)
        if (s->w[at + 4 + k] != s->args[k])
            return true;
    uint32_t callee = s->w[at + 3];
    free(s->ids);
    free(s->members);
    free(s->blocks);
    s->ids = NULL;
    s->members = NULL;
    s->blocks = NULL;
    s->nmembers = s->cap_members = s->nblocks = 0;
    s->nargs = 0;
    s->entry = 0;
    s->kernel = false;
    s->entry_override = callee;
    return spv_parse(s);
}

bool spv_parse(struct spv *s)
{
    if (s->nw < 5 || s->w[0] != SpvMagicNumber)
        return spv_fail(s, "SPIR-V: not a SPIR-V module (bad magic number)");
    s->bound = s->w[3];
    if (s->bound == 0 || s->bound > MAX_BOUND)
        return spv_fail(s, "SPIR-V: id bound %u out of range", s->bound);
    s->ids = calloc(s->bound, sizeof *s->ids);
    if (!s->ids)
        return spv_fail(s, "out of memory");
    for (uint32_t i = 0; i < s->bound; i++) {
        s->ids[i].location = s->ids[i].builtin = s->ids[i].binding = -1;
        s->ids[i].offset = -1;
        s->ids[i].var_base = s->ids[i].sampler_unit = -1;
        s->ids[i].struct_units = -1;
    }
    uint32_t in_function = 0;  /* function id being read */
    uint32_t entry_name_at = 0, entry_point = 0;
    for (uint32_t at = 5; at < s->nw;) {
        unsigned wc = spv_wc(s, at), op = spv_op(s, at);
        if (wc == 0 || wc > s->nw - at)
            return spv_fail(s, "SPIR-V: bad word count %u at word %u", wc,
                            at);
        bool has_result, has_type;
        SpvHasResultAndType((SpvOp)op, &has_result, &has_type);
        unsigned rk = has_type ? 2 : 1;
        if (has_result) {
            if (wc <= rk)
                return spv_fail(s, "SPIR-V: truncated instruction at word %u",
                                at);
            uint32_t id = s->w[at + rk];
            if (id == 0 || id >= s->bound || s->ids[id].def)
                return spv_fail(s, "SPIR-V: bad or repeated result id %u", id);
            struct sid *r = &s->ids[id];
            r->def = at;
            r->op = (uint16_t)op;
            if (has_type) {
                r->type = s->w[at + 1];
                if (r->type == 0 || r->type >= s->bound ||
                    !s->ids[r->type].def)
                    return spv_fail(s, "SPIR-V: bad result type %u for id %u",
                                    r->type, id);
            }
            if (op >= SpvOpTypeVoid && op <= SpvOpTypeForwardPointer &&
                !parse_type(s, at, op, id))
                return false;
        }
        switch (op) {
        case SpvOpExtInstImport: {
            const char *n = string_at(s, at, 2);
            if (n && !strcmp(n, "GLSL.std.450"))
                s->glsl_ext = s->w[at + 1];
            if (n && !strcmp(n, "OpenCL.std"))
                s->ocl_ext = s->w[at + 1];
            if (n && !strncmp(n, "OpenCL.DebugInfo", 16))
                s->debug_ext = s->w[at + 1];
            break;
        }
        case SpvOpEntryPoint:
            if (wc < 4)
                return spv_fail(s, "SPIR-V: bad OpEntryPoint");
            if (s->w[at + 1] == model_of(s->stage) && !s->entry) {
                s->entry = s->w[at + 2];
                entry_name_at = at;
            } else if (s->stage == US_STAGE_COMPUTE && !s->entry &&
                       s->w[at + 1] == SpvExecutionModelKernel) {
                s->kernel = true;
                entry_point = s->w[at + 2];
                s->entry = s->entry_override ? s->entry_override
                                             : entry_point;
                entry_name_at = at;
            }
            if (!entry_point)
                entry_point = s->entry;
            break;
        case SpvOpExecutionMode:
            if (wc >= 3 && s->w[at + 2] == SpvExecutionModeOriginUpperLeft)
                s->options |= US_OPT_ORIGIN_UPPER_LEFT;
            if (wc >= 3 && s->w[at + 2] == SpvExecutionModePixelCenterInteger)
                s->options |= US_OPT_PIXEL_CENTER_INTEGER;
            if (wc >= 6 && s->w[at + 2] == SpvExecutionModeLocalSize &&
                s->w[at + 1] == entry_point && !local_size(s, at))
                return false;
            break;
        case SpvOpName: case SpvOpMemberName: case SpvOpDecorate:
        case SpvOpMemberDecorate:
            if (!parse_annotation(s, at, op))
                return false;
            break;
        case SpvOpFunction:
            if (in_function)
                return spv_fail(s, "SPIR-V: nested OpFunction");
            in_function = s->w[at + 2];
            break;
        case SpvOpFunctionEnd:
            if (!in_function)
                return spv_fail(s, "SPIR-V: OpFunctionEnd outside a function");
            if (in_function == s->entry && s->nblocks &&
                !s->blocks[s->nblocks - 1].term)
                return spv_fail(s, "SPIR-V: last block has no terminator");
            in_function = 0;
            break;
        case SpvOpFunctionParameter:
            if (in_function && in_function == s->entry && s->kernel) {
                if (s->nargs == US_MAX_BUFFERS)
                    return spv_fail(s, "a kernel of more than %d arguments",
                                    US_MAX_BUFFERS);
                s->args[s->nargs++] = s->w[at + 2];
            }
            break;
        default:
            if (in_function && in_function == s->entry &&
                !parse_body(s, at, op))
                return false;
            break;
        }
        at += wc;
    }
    /* A kernel's flow is unstructured even where llvm-spirv adds an
     * OpLoopMerge (from llvm.loop metadata): its BRAs need no merges. */
    s->unstructured = s->kernel;
    s->line = 0;
    if (in_function)
        return spv_fail(s, "SPIR-V: module ends inside a function");
    static const char *const stage_names[US_STAGE_COUNT] = {
        "vertex", "fragment", "compute"
    };
    if (!entry_name_at)
        return spv_fail(s, "SPIR-V: no %s entry point",
                        s->stage < US_STAGE_COUNT ? stage_names[s->stage]
                                                  : "?");
    if (s->kernel && !s->group_size[0])
        /* no reqd_work_group_size: one work-item until --local says */
        s->group_size[0] = s->group_size[1] = s->group_size[2] = 1;
    if (s->stage == US_STAGE_COMPUTE && !s->group_size[0])
        return spv_fail(s, "SPIR-V: the compute entry point has no LocalSize "
                        "(local_size_x/y/z)");
    if (!s->nblocks)
        return spv_fail(s, "SPIR-V: the entry point has no body");
    return !s->kernel || s->entry_override || kernel_wrapper(s);
}
