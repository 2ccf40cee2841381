/*
 * Memory: storage buffers (Uniform + BufferBlock, or StorageBuffer),
 * atomic counters (AtomicCounter) and shared variables (Workgroup), in the
 * IR's LOAD / STORE / ATOM on buffer[N] and LDS / STS / ATOMS on the
 * workgroup's shared memory (docs/COMPUTE.md, docs/GLSL.md "Storage
 * buffers").
 *
 * A pointer into memory is a byte address: a constant part (member
 * offsets, constant indices times strides) plus at most one integer
 * register (dynamic indices times strides, summed with MUL.U / SHL.U and
 * ADD.U).  Buffers carry glslang's explicit layout (Offset, ArrayStride,
 * MatrixStride, RowMajor: std430 or std140 as declared); shared variables
 * have none, and are laid out here by std430's rules, one after another
 * from 0, each aligned to 16 bytes.  A vector moves in one instruction,
 * its components' addresses side by side (a gather: base + (0, 4, 8, 12),
 * or a row-major matrix's column, MatrixStride apart).
 *
 * OpenCL kernels (docs/OPENCL.md): a __global pointer argument k is
 * buffer[k] (bind_kernel_args), OpPtrAccessChain's first index steps over
 * whole pointees, and a pointer cast keeps the address (pointer_cast).
 */
#include <stdio.h>
#include <string.h>

#include "glsl/spirv.h"

#define NONE ((struct us_src){ 0 })

/* Where an access goes: the memory and the byte address. */
struct maddr {
    uint8_t space, binding;
    bool dyn, row_major;   /* row_major: a matrix's columns are strided   */
    bool has_vaddr;        /* vaddr: the whole address operand, made once */
    uint32_t off, mstride;
    struct us_src addr;    /* dyn: the integer register part, replicated  */
    struct us_src vaddr;
};

static uint32_t round_up(uint32_t v, uint32_t a)
{
    return a ? (v + a - 1) / a * a : v;
}

/* Bytes of one scalar of `type` in memory (a bool takes a word). */
static uint32_t scalar_bytes(const struct spv *s, uint32_t type)
{
    const struct sid *e = &s->ids[scalar_type(s, type)];
    return e->ty == TY_INT && e->width ? e->width / 8u : 4u;
}

static bool layout(const struct spv *s, uint32_t type, uint32_t *size,
                   uint32_t *align, unsigned depth);

/* Member m's offset in struct `type`: its Offset decoration, else the
 * next std430-aligned one after member m - 1. */
static bool member_offset(const struct spv *s, uint32_t type, uint32_t m,
                          uint32_t *off, unsigned depth)
{
    const struct sid *t = &s->ids[type];
    uint32_t cur = 0;
    for (uint32_t i = 0; i <= m && i < t->len; i++) {
        const struct smember *sm = spv_member(s, type, i);
        uint32_t size, align;
        if (!layout(s, s->w[t->def + 2 + i], &size, &align, depth + 1))
            return false;
        uint32_t at = sm && sm->offset >= 0 ? (uint32_t)sm->offset
                                            : round_up(cur, align);
        if (i == m) {
            *off = at;
            return true;
        }
        cur = at + size;
    }
    return false;
}

/* The stride of an array type: ArrayStride, else std430's. */
static bool array_stride(const struct spv *s, uint32_t type, uint32_t *stride,
                         unsigned depth)
{
    const struct sid *t = &s->ids[type];
    uint32_t size, align;
    if (t->stride) {
        *stride = t->stride;
        return true;
    }
    if (!layout(s, t->elem, &size, &align, depth + 1))
        return false;
    *stride = round_up(size, align);
    return true;
}

/* The column stride of a matrix without MatrixStride: std430's, a column
 * vector's aligned size. */
static uint32_t column_stride(const struct spv *s, uint32_t type)
{
    const struct sid *t = &s->ids[type];
    uint32_t e = 4, n = t->comps;
    return (n == 3 ? 4 : n) * e;
}

static bool layout(const struct spv *s, uint32_t type, uint32_t *size,
                   uint32_t *align, unsigned depth)
{
    const struct sid *t = &s->ids[type];
    if (depth > 32)
        return false;
    switch (t->ty) {
    case TY_BOOL: case TY_INT: case TY_FLOAT:
        *size = *align = scalar_bytes(s, type);
        return true;
    case TY_VECTOR: {
        uint32_t e = scalar_bytes(s, type);
        *size = t->comps * e;
        *align = (t->comps == 3 ? 4 : t->comps) * e;
        return true;
    }
    case TY_MATRIX:
        *align = column_stride(s, type);
        *size = t->len * *align;
        return true;
    case TY_ARRAY: case TY_RUNTIME_ARRAY: {
        uint32_t stride, es, ea;
        if (!array_stride(s, type, &stride, depth) ||
            !layout(s, t->elem, &es, &ea, depth + 1))
            return false;
        *align = ea;
        *size = t->ty == TY_ARRAY ? t->len * stride : 0;
        return true;
    }
    case TY_STRUCT: {
        uint32_t end = 0, a = 1;
        for (uint32_t m = 0; m < t->len; m++) {
            uint32_t off, ms, ma;
            if (!member_offset(s, type, m, &off, depth) ||
                !layout(s, s->w[t->def + 2 + m], &ms, &ma, depth + 1))
                return false;
            if (off + ms > end)
                end = off + ms;
            if (ma > a)
                a = ma;
        }
        *align = a;
        *size = round_up(end, a);
        return true;
    }
    default:
        return false;
    }
}

static bool layout_of(struct spv *s, uint32_t type, uint32_t *size,
                      uint32_t *align)
{
    return layout(s, type, size, align, 0) ||
           spv_fail(s, "SPIR-V: type %u has no memory layout", type);
}

/* The block type behind a variable (through arrays of blocks). */
static uint32_t block_type(const struct spv *s, uint32_t var)
{
    uint32_t t = s->ids[s->ids[var].type].elem;
    while (s->ids[t].ty == TY_ARRAY)
        t = s->ids[t].elem;
    return t;
}

bool is_memory_var(const struct spv *s, uint32_t var)
{
    uint32_t sc = s->ids[s->ids[var].type].storage;
    if (sc == SpvStorageClassStorageBuffer ||
        sc == SpvStorageClassWorkgroup || sc == SpvStorageClassAtomicCounter)
        return true;
    return sc == SpvStorageClassUniform &&
           s->ids[block_type(s, var)].buffer_block;
}

/* The runner's record of buffer[binding]. */
static struct us_glsl_buffer *buffer_info(struct spv *s, unsigned binding,
                                          unsigned kind, const char *name)
{
    struct us_glsl_info *info = s->info;
    if (!info)
        return NULL;
    for (unsigned i = 0; i < info->nbuffers; i++)
        if (info->buffers[i].binding == binding)
            return &info->buffers[i];
    if (info->nbuffers == US_MAX_BUFFERS)
        return NULL;
    struct us_glsl_buffer *b = &info->buffers[info->nbuffers++];
    memset(b, 0, sizeof *b);
    snprintf(b->name, sizeof b->name, "%s", name ? name : "");
    b->binding = (uint8_t)binding;
    b->kind = (uint8_t)kind;
    b->size_local = -1;
    return b;
}

bool bind_memory(struct spv *s, uint32_t var)
{
    struct sid *v = &s->ids[var];
    uint32_t sc = s->ids[v->type].storage, type = s->ids[v->type].elem;
    const char *name = v->name && v->name[0] ? v->name : NULL;
    uint32_t size, align;
    if (s->float_ints)
        return spv_fail(s, "%s: storage buffers, shared variables and atomic "
                        "counters need GLSL 1.30 or later",
                        name ? name : "memory");
    if (!layout_of(s, type, &size, &align))
        return false;
    v->moff = 0;
    v->mdyn = false;
    v->mrow_major = false;
    v->mstride = 0;
    if (sc == SpvStorageClassWorkgroup) {
        if (s->stage != US_STAGE_COMPUTE)
            return spv_fail(s, "shared variables are only for compute "
                            "shaders");
        uint32_t base = round_up(s->shared_bytes, 16);
        if (base + size > US_MAX_SHARED_BYTES || base + size < base)
            return spv_fail(s, "shared variables take more than %d bytes",
                            US_MAX_SHARED_BYTES);
        v->space = SP_SHARED;
        v->moff = base;
        s->shared_bytes = base + size;
        return true;
    }
    bool counter = sc == SpvStorageClassAtomicCounter;
    int32_t b = v->binding < 0 ? 0 : v->binding;
    if (b >= US_GLSL_COUNTER_BINDING0)
        return spv_fail(s, "%s: binding %d is out of range (%s 0..%d)",
                        name ? name : "buffer", b,
                        counter ? "atomic counters take" :
                        "storage buffers take", US_GLSL_COUNTER_BINDING0 - 1);
    unsigned binding = counter ? US_GLSL_COUNTER_BINDING0 + (unsigned)b
                               : (unsigned)b;
    const char *block = s->ids[block_type(s, var)].name;
    struct us_glsl_buffer *bi = buffer_info(
        s, binding, counter ? US_GLSL_COUNTERS : US_GLSL_SSBO,
        counter || !block || !block[0] ? name : block);
    if (counter) {
        v->moff = v->offset >= 0 ? (uint32_t)v->offset : 0;
        if (bi && bi->size < v->moff + size)
            bi->size = v->moff + size;
    } else if (bi && bi->size < size) {
        bi->size = size;
    }
    if (s->ids[type].ty == TY_ARRAY && !counter) {
        /* An array of blocks: element i is binding N + i (constant
         * indices only, memory_chain). */
        if (binding + s->ids[type].len > US_GLSL_COUNTER_BINDING0)
            return spv_fail(s, "%s: bindings %u..%u are out of range",
                            name ? name : "buffer", binding,
                            binding + s->ids[type].len - 1);
    }
    v->space = SP_BUFFER;
    v->mbinding = (uint8_t)binding;
    s->buffers_used |= 1u << binding;
    return true;
}

static bool vector_addr(struct spv *s, const struct maddr *a, unsigned n,
                        uint32_t cs, struct us_src *out);

/* p's address plus index * stride. */
static bool add_index(struct spv *s, struct sid *p, uint32_t ix,
                      uint32_t stride)
{
    const struct sid *x = &s->ids[ix];
    if (x->op == SpvOpConstant) {
        p->moff += s->w[x->def + 3] * stride;   /* wraps like the address */
        return true;
    }
    struct us_src *v, t, k;
    uint32_t n;
    if (!value_of(s, ix, &v, &n))
        return false;
    t = src_comp(v[0], 0);
    if (stride == 0)
        return true;
    if (stride & (stride - 1)) {
        if (!const_int(s, stride, &k) ||
            !emit_new(s, US_OP_MUL_U, t, k, NONE, &t))
            return false;
    } else if (stride > 1) {
        if (!const_int(s, (uint32_t)__builtin_ctz(stride), &k) ||
            !emit_new(s, US_OP_SHL_U, t, k, NONE, &t))
            return false;
    }
    if (p->mdyn && !emit_new(s, US_OP_ADD_U, p->maddr, t, NONE, &t))
        return false;
    p->mdyn = true;
    p->maddr = src_comp(t, 0);
    return true;
}

bool memory_chain(struct spv *s, uint32_t at, struct sid *p)
{
    uint32_t base = s->w[at + 3];
    const struct sid *b = &s->ids[base];
    uint32_t root = b->op == SpvOpVariable ? base : b->root;
    bool ptr_chain = spv_op(s, at) == SpvOpPtrAccessChain ||
                     spv_op(s, at) == SpvOpInBoundsPtrAccessChain;
    p->root = root;
    p->space = b->space;
    p->mbinding = b->mbinding;
    p->moff = b->moff;
    p->mdyn = b->mdyn;
    p->maddr = b->maddr;
    p->mrow_major = b->mrow_major;
    p->mstride = b->mstride;
    p->comp = NO_COMP;
    p->dyn = p->dyn_c = p->oob = false;
    uint32_t t = s->ids[b->type].elem;
    unsigned k = 4;
    const struct sid *rv = &s->ids[root];
    if (ptr_chain && k < spv_wc(s, at)) {
        /* OpenCL's p[i]: i whole pointees on */
        uint32_t ix, size, align;
        if (!spv_id(s, at, k++, &ix) || !layout_of(s, t, &size, &align) ||
            !add_index(s, p, ix, round_up(size, align)))
            return false;
    } else if (b->op == SpvOpVariable && s->ids[t].ty == TY_ARRAY &&
        s->ids[rv->type].storage != SpvStorageClassAtomicCounter &&
        s->ids[rv->type].storage != SpvStorageClassWorkgroup &&
        k < spv_wc(s, at)) {
        /* buffer B { ... } b[n]: the first index picks the binding */
        int64_t c;
        uint32_t ix = s->w[at + k++];
        if (ix >= s->bound || s->ids[ix].op != SpvOpConstant ||
            !spv_const_int(s, ix, &c))
            return spv_fail(s, "an array of storage buffers indexed by a "
                            "value known only at run time is not "
                            "supported");
        if (c < 0 || c >= s->ids[t].len)
            return spv_fail(s, "storage buffer index %lld is out of range",
                            (long long)c);
        p->mbinding = (uint8_t)(rv->mbinding + c);
        s->buffers_used |= 1u << p->mbinding;
        t = s->ids[t].elem;
    }
    for (; k < spv_wc(s, at); k++) {
        uint32_t ix;
        if (!spv_id(s, at, k, &ix))
            return false;
        const struct sid *ty = &s->ids[t];
        bool is_const = s->ids[ix].op == SpvOpConstant;
        uint32_t stride;
        switch (ty->ty) {
        case TY_STRUCT: {
            int64_t c;
            uint32_t off;
            if (!is_const || !spv_const_int(s, ix, &c) || c < 0 ||
                c >= ty->len ||
                !member_offset(s, t, (uint32_t)c, &off, 0))
                return spv_fail(s, "SPIR-V: bad struct index");
            const struct smember *m = spv_member(s, t, (uint32_t)c);
            p->moff += off;
            p->mrow_major = m && m->row_major;
            p->mstride = m && m->matrix_stride ? m->matrix_stride : 0;
            t = s->w[ty->def + 2 + c];
            continue;
        }
        case TY_ARRAY: case TY_RUNTIME_ARRAY:
            if (!array_stride(s, t, &stride, 0) ||
                !add_index(s, p, ix, stride))
                return false;
            t = ty->elem;
            continue;
        case TY_MATRIX: {
            uint32_t ms = p->mstride ? p->mstride : column_stride(s, t);
            p->mstride = ms;
            if (!add_index(s, p, ix, p->mrow_major ? 4 : ms))
                return false;
            t = ty->elem;
            continue;
        }
        case TY_VECTOR:
            stride = p->mrow_major && p->mstride ? p->mstride
                                                  : scalar_bytes(s, t);
            if (!add_index(s, p, ix, stride))
                return false;
            t = ty->elem;
            continue;
        default:
            return spv_fail(s, "SPIR-V: bad access chain into memory");
        }
    }
    /* A row-major member's stride only matters for its matrices. */
    if (s->ids[t].ty != TY_VECTOR && s->ids[t].ty != TY_MATRIX &&
        s->ids[t].ty != TY_ARRAY)
        p->mrow_major = false;
    /* A scalar's or vector's address operand is made here, where the
     * chain dominates every load, store and atomic through it, so
     * `buf[i] += x` adds the offsets once. */
    p->has_vaddr = false;
    if (p->mdyn && (s->ids[t].ty == TY_VECTOR || s->ids[t].ty <= TY_FLOAT)) {
        unsigned nc = s->ids[t].ty == TY_VECTOR ? s->ids[t].comps : 1;
        uint32_t cs = p->mrow_major && p->mstride ? p->mstride
                                                  : scalar_bytes(s, t);
        struct maddr a = { .dyn = true, .off = p->moff, .addr = p->maddr };
        if (!vector_addr(s, &a, nc, cs, &p->vaddr))
            return false;
        p->has_vaddr = true;
    }
    return true;
}

static struct maddr addr_of(const struct sid *p)
{
    return (struct maddr){ .space = p->space, .binding = p->mbinding,
                           .dyn = p->mdyn, .row_major = p->mrow_major,
                           .off = p->moff, .mstride = p->mstride,
                           .addr = p->maddr, .has_vaddr = p->has_vaddr,
                           .vaddr = p->vaddr };
}

static enum us_mtype mtype_of(const struct spv *s, uint32_t type)
{
    const struct sid *e = &s->ids[scalar_type(s, type)];
    if (e->ty == TY_INT && e->width == 8)
        return e->is_signed ? US_MT_S8 : US_MT_U8;
    if (e->ty == TY_INT && e->width == 16)
        return e->is_signed ? US_MT_S16 : US_MT_U16;
    return US_MT_U32;
}

/* The address operand of n components `cs` bytes apart from a. */
static bool vector_addr(struct spv *s, const struct maddr *a, unsigned n,
                        uint32_t cs, struct us_src *out)
{
    if (a->has_vaddr) {
        *out = a->vaddr;
        return true;
    }
    uint32_t o[4];
    for (unsigned c = 0; c < 4; c++)
        o[c] = a->off + (c < n ? c : n - 1) * cs;
    if (!a->dyn)
        return n == 1 ? const_int(s, o[0], out) : const_ints(s, o, out);
    if (n == 1 && !o[0]) {
        *out = a->addr;
        return true;
    }
    struct us_src k;
    if (n == 1 ? !const_int(s, o[0], &k) : !const_ints(s, o, &k))
        return false;
    return emit_new(s, US_OP_ADD_U, a->addr, k, NONE, out);
}

static bool emit_mem(struct spv *s, enum us_opcode op, struct us_dst d,
                     enum us_mtype mt, const struct maddr *a,
                     struct us_src x, struct us_src y, struct us_src z)
{
    if (!emit(s, op, d, x, y, z))
        return false;
    struct us_inst *in = &s->insts[s->ninsts - 1];
    in->mtype = (uint8_t)mt;
    in->tex_unit = a->space == SP_BUFFER ? a->binding : 0;
    return true;
}

/* Walk `type` at address a, loading (or storing v[*k...]) slot by slot. */
static bool access(struct spv *s, const struct maddr *a, uint32_t type,
                   bool store, struct us_src *v, uint32_t n, uint32_t *k,
                   unsigned depth)
{
    const struct sid *t = &s->ids[type];
    bool shared = a->space == SP_SHARED;
    if (depth > 32)
        return spv_fail(s, "SPIR-V: type nested too deeply");
    switch (t->ty) {
    case TY_BOOL: case TY_INT: case TY_FLOAT: case TY_VECTOR: {
        unsigned nc = t->ty == TY_VECTOR ? t->comps : 1;
        uint32_t cs = a->row_major && a->mstride ? a->mstride
                                                 : scalar_bytes(s, type);
        enum us_mtype mt = mtype_of(s, type);
        struct us_src addr;
        if (*k >= n)
            return spv_fail(s, "SPIR-V: memory access out of range");
        if (!vector_addr(s, a, nc, cs, &addr))
            return false;
        unsigned mask = (1u << nc) - 1;
        if (store) {
            struct us_src x = v[*k];
            if (nc == 1)
                x = src_comp(x, 0);
            if (!int_data(s, type) && !plain_float(s, &x))
                return false;
            struct us_dst d = { .file = US_FILE_NULL, .mask = (uint8_t)mask };
            if (!emit_mem(s, shared ? US_OP_STS : US_OP_STORE, d, mt, a, addr,
                          x, NONE))
                return false;
        } else {
            unsigned r;
            if (!new_vreg(s, true, &r) ||
                !emit_mem(s, shared ? US_OP_LDS : US_OP_LOAD,
                          dst_vreg(r, mask), mt, a, addr, NONE, NONE))
                return false;
            v[*k] = nc == 1 ? src_comp(src_vreg(r), 0) : src_vreg(r);
        }
        (*k)++;
        return true;
    }
    case TY_MATRIX: {
        struct maddr c = *a;
        c.has_vaddr = false;
        uint32_t ms = a->mstride ? a->mstride : column_stride(s, type);
        c.mstride = ms;
        for (uint32_t j = 0; j < t->len; j++) {
            c.off = a->off + j * (a->row_major ? 4 : ms);
            if (!access(s, &c, t->elem, store, v, n, k, depth + 1))
                return false;
        }
        return true;
    }
    case TY_ARRAY: {
        uint32_t stride;
        struct maddr e = *a;
        e.has_vaddr = false;
        if (!array_stride(s, type, &stride, 0))
            return spv_fail(s, "SPIR-V: type %u has no memory layout", type);
        for (uint32_t i = 0; i < t->len; i++) {
            e.off = a->off + i * stride;
            if (!access(s, &e, t->elem, store, v, n, k, depth + 1))
                return false;
        }
        return true;
    }
    case TY_STRUCT:
        for (uint32_t m = 0; m < t->len; m++) {
            uint32_t off;
            const struct smember *sm = spv_member(s, type, m);
            if (!member_offset(s, type, m, &off, 0))
                return spv_fail(s, "SPIR-V: type %u has no memory layout",
                                type);
            struct maddr e = *a;
            e.has_vaddr = false;
            e.off = a->off + off;
            e.row_major = sm && sm->row_major;
            e.mstride = sm && sm->matrix_stride ? sm->matrix_stride : 0;
            if (!access(s, &e, s->w[t->def + 2 + m], store, v, n, k,
                        depth + 1))
                return false;
        }
        return true;
    case TY_RUNTIME_ARRAY:
        return spv_fail(s, "a runtime-sized array cannot be loaded or stored "
                        "whole");
    default:
        return spv_fail(s, "SPIR-V: cannot move type %u through memory",
                        type);
    }
}

bool memory_load(struct spv *s, const struct sid *p, uint32_t type,
                 uint32_t result)
{
    uint32_t n = s->ids[type].slots ? s->ids[type].slots : 1, at, k = 0;
    struct maddr a = addr_of(p);
    if (!alloc_vals(s, n, &at))
        return false;
    memset(&s->vals[at], 0, n * sizeof *s->vals);
    /* access() writes the slots as it goes; vals may not move meanwhile:
     * it allocates no values (constants were made up front). */
    if (!access(s, &a, type, false, &s->vals[at], n, &k, 0))
        return false;
    if (k != n)
        return spv_fail(s, "SPIR-V: type %u does not fill its slots", type);
    s->ids[result].has_val = true;
    s->ids[result].val = at;
    return true;
}

bool memory_store(struct spv *s, const struct sid *p, uint32_t type,
                  const struct us_src *v, uint32_t n)
{
    struct us_src tmp[64];
    uint32_t k = 0;
    struct maddr a = addr_of(p);
    if (n > 64)
        return spv_fail(s, "a value of more than 64 vec4 slots cannot be "
                        "stored to memory");
    memcpy(tmp, v, n * sizeof *v);
    return access(s, &a, type, true, tmp, n, &k, 0);
}

/* ---- Atomics ------------------------------------------------------------ */

static bool atomic_pointer(struct spv *s, uint32_t ptr, struct maddr *a)
{
    const struct sid *p = &s->ids[ptr];
    if (p->op == SpvOpVariable && !p->space) {
        if (!is_memory_var(s, ptr))
            return spv_fail(s, "an atomic operation on something other "
                            "than a buffer, shared variable or counter");
        if (!bind_memory(s, ptr))
            return false;
    }
    if (!p->space)
        return spv_fail(s, "an atomic operation on something other than a "
                        "buffer, shared variable or counter");
    const struct sid *e = &s->ids[s->ids[p->type].elem];
    if (e->ty != TY_INT || e->width != 32)
        return spv_fail(s, "atomic operations work on 32-bit integers only");
    *a = addr_of(p);
    return true;
}

bool atomic_op(struct spv *s, uint32_t at, unsigned op)
{
    bool store = op == SpvOpAtomicStore;
    uint32_t ptr;
    struct maddr a;
    if (!spv_id(s, at, store ? 1 : 3, &ptr) || !atomic_pointer(s, ptr, &a))
        return false;
    const struct sid *p = &s->ids[ptr];
    uint32_t type = s->ids[p->type].elem;
    if (op == SpvOpAtomicLoad)
        return memory_load(s, p, type, s->w[at + 2]);
    if (store) {
        struct us_src *v;
        uint32_t n, id;
        return spv_id(s, at, 4, &id) && value_of(s, id, &v, &n) &&
               memory_store(s, p, type, v, n);
    }
    static const struct { uint16_t op; uint8_t atom; int8_t sgn; } map[] = {
        { SpvOpAtomicExchange, US_ATOM_EXCH, 0 },
        { SpvOpAtomicCompareExchange, US_ATOM_CSWAP, 0 },
        { SpvOpAtomicIIncrement, US_ATOM_ADD, 0 },
        { SpvOpAtomicIDecrement, US_ATOM_ADD, 0 },
        { SpvOpAtomicIAdd, US_ATOM_ADD, 0 },
        { SpvOpAtomicISub, US_ATOM_ADD, 0 },
        { SpvOpAtomicSMin, US_ATOM_MIN, 1 },
        { SpvOpAtomicUMin, US_ATOM_MIN, 0 },
        { SpvOpAtomicSMax, US_ATOM_MAX, 1 },
        { SpvOpAtomicUMax, US_ATOM_MAX, 0 },
        { SpvOpAtomicAnd, US_ATOM_AND, 0 },
        { SpvOpAtomicOr, US_ATOM_OR, 0 },
        { SpvOpAtomicXor, US_ATOM_XOR, 0 },
    };
    size_t i = 0;
    while (i < sizeof map / sizeof *map && map[i].op != op)
        i++;
    if (i == sizeof map / sizeof *map)
        return spv_fail(s, "SPIR-V: bad atomic opcode %u", op);
    /* value: word 6 (CompareExchange: 7, its comparator 8); increment
     * and decrement add 1 and -1 */
    struct us_src value, compare = NONE, addr, r, *v;
    uint32_t n;
    if (op == SpvOpAtomicIIncrement || op == SpvOpAtomicIDecrement) {
        if (!const_int(s, op == SpvOpAtomicIIncrement ? 1u : ~0u, &value))
            return false;
    } else {
        unsigned k = op == SpvOpAtomicCompareExchange ? 7 : 6;
        uint32_t id;
        if (!spv_id(s, at, k, &id) || !value_of(s, id, &v, &n))
            return false;
        value = src_comp(v[0], 0);
        if (op == SpvOpAtomicISub)
            value = src_neg(value);   /* two's complement under I_SRC */
        if (op == SpvOpAtomicCompareExchange) {
            if (!spv_id(s, at, 8, &id) || !value_of(s, id, &v, &n))
                return false;
            compare = src_comp(v[0], 0);
        }
    }
    unsigned rv;
    if (!vector_addr(s, &a, 1, 4, &addr) || !new_vreg(s, true, &rv) ||
        !emit_mem(s, a.space == SP_SHARED ? US_OP_ATOMS : US_OP_ATOM,
                  dst_vreg(rv, 1),
                  map[i].sgn ? US_MT_S32 : US_MT_U32, &a, addr, value,
                  compare))
        return false;
    s->insts[s->ninsts - 1].sub = map[i].atom;
    r = src_comp(src_vreg(rv), 0);
    return set_value(s, s->w[at + 2], &r, 1);
}

/* ---- .length() ------------------------------------------------------------ */

/* (size - offset) / stride of the runtime array that is member `m` of
 * the block, the size read from the binding's size parameter. */
bool array_length(struct spv *s, uint32_t at)
{
    uint32_t ptr, m = spv_wc(s, at) > 4 ? s->w[at + 4] : 0;
    if (!spv_id(s, at, 3, &ptr))
        return false;
    const struct sid *p = &s->ids[ptr];
    if (p->op == SpvOpVariable && !p->space &&
        (!is_memory_var(s, ptr) || !bind_memory(s, ptr)))
        return false;
    if (p->space != SP_BUFFER)
        return spv_fail(s, "length() of an array that is not in a storage "
                        "buffer");
    uint32_t st = s->ids[p->type].elem;
    uint32_t off, stride;
    if (s->ids[st].ty != TY_STRUCT || m >= s->ids[st].len ||
        !member_offset(s, st, m, &off, 0) ||
        !array_stride(s, s->w[s->ids[st].def + 2 + m], &stride, 0) ||
        !stride)
        return spv_fail(s, "SPIR-V: bad OpArrayLength");
    unsigned b = p->mbinding;
    if (s->size_local[b] < 0) {
        char name[US_MAX_NAME];
        unsigned param;
        snprintf(name, sizeof name, "buffer_size_%u", b);
        if (!add_local_param(s, name, &param))
            return false;
        s->size_local[b] = (int16_t)s->params[param].index;
        s->size_param[b] = (int16_t)param;
        struct us_glsl_buffer *bi = buffer_info(s, b, US_GLSL_SSBO, NULL);
        if (bi)
            bi->size_local = s->size_local[b];
    }
    struct us_src size = { .file = US_FILE_PARAM,
                           .index = (uint16_t)s->size_param[b],
                           .swz = { 0, 0, 0, 0 } };
    struct us_src k, zero, t = size;
    off += p->moff;   /* an element of an array of blocks starts at 0 */
    if (off && (!const_int(s, off, &k) || !const_int(s, 0, &zero) ||
                !emit_new(s, US_OP_SUB_U, size, k, NONE, &t) ||
                !emit_new(s, US_OP_MAX_S, t, zero, NONE, &t)))
        return false;
    bool pow2 = !(stride & (stride - 1));
    if (!const_int(s, pow2 ? (uint32_t)__builtin_ctz(stride) : stride, &k) ||
        !emit_new(s, pow2 ? US_OP_SHR_U : US_OP_DIV_U, t, k, NONE, &t))
        return false;
    return set_value(s, s->w[at + 2], &t, 1);
}

/* OpenCL kernel arguments (docs/OPENCL.md): argument k is buffer[k] when
 * it is a __global (CrossWorkgroup) pointer, program.local[k] when it is
 * an integer or float scalar. */
bool bind_kernel_args(struct spv *s)
{
    for (uint32_t k = 0; k < s->nargs; k++) {
        uint32_t id = s->args[k];
        struct sid *a = &s->ids[id];
        const struct sid *t = &s->ids[a->type];
        const char *name = a->name && a->name[0] ? a->name : NULL;
        char what[80];
        snprintf(what, sizeof what, "kernel argument %u%s%.40s%s", k,
                 name ? " (" : "", name ? name : "", name ? ")" : "");
        if (t->ty == TY_POINTER) {
            if (t->storage != SpvStorageClassCrossWorkgroup)
                return spv_fail(s, "%s: only __global pointers are "
                                "supported", what);
            a->root = id;
            a->space = SP_BUFFER;
            a->mbinding = (uint8_t)k;
            a->moff = 0;
            a->mdyn = a->mrow_major = a->has_vaddr = false;
            a->comp = NO_COMP;
            s->buffers_used |= 1u << k;
            buffer_info(s, k, US_GLSL_SSBO, name);
            continue;
        }
        if (t->ty != TY_INT && t->ty != TY_FLOAT)
            return spv_fail(s, "%s: only pointers and scalars are "
                            "supported", what);
        /* Unnamed (clang discards value names): argK, so that the
         * printed program's PARAMs stay distinct and it assembles again. */
        char pname[16];
        snprintf(pname, sizeof pname, "arg%u", (unsigned)k);
        unsigned param;
        s->nlocals = k > s->nlocals ? k : s->nlocals;
        if (!add_local_param(s, name ? name : pname, &param))
            return false;
        struct us_src v = { .file = US_FILE_PARAM, .index = (uint16_t)param,
                            .swz = { 0, 0, 0, 0 } };
        if (!set_value(s, id, &v, 1))
            return false;
    }
    return true;
}

/* A pointer cast (OpBitcast, OpCopyObject of a pointer): the same
 * memory and address, seen as another pointee type. */
bool pointer_cast(struct spv *s, uint32_t at)
{
    uint32_t id = s->w[at + 2], base;
    if (!spv_id(s, at, 3, &base))
        return false;
    struct sid *p = &s->ids[id];
    const struct sid *b = &s->ids[base];
    if (!b->space)
        return spv_fail(s, "a cast of a pointer that is not into memory");
    p->root = b->op == SpvOpVariable ? base : b->root;
    p->space = b->space;
    p->mbinding = b->mbinding;
    p->moff = b->moff;
    p->mdyn = b->mdyn;
    p->maddr = b->maddr;
    p->mrow_major = false;
    p->mstride = 0;
    p->comp = NO_COMP;
    p->has_vaddr = false;
    if (p->mdyn && s->ids[s->ids[p->type].elem].ty <= TY_FLOAT) {
        struct maddr a = { .dyn = true, .off = p->moff, .addr = p->maddr };
        if (!vector_addr(s, &a, 1, 4, &p->vaddr))
            return false;
        p->has_vaddr = true;
    }
    return true;
}
