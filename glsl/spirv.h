/*
 * SPIR-V to vec4 IR translation: the state shared by glsl/spirv_*.c and
 * glsl/regalloc.c.  The module is parsed once into per-id records
 * (spirv_module.c); the entry point is then emitted block by block
 * (spirv_flow.c) into IR whose TEMP indices are virtual registers and whose
 * literal operands are constant ids (spirv_emit.c, spirv_ops.c,
 * spirv_math.c; memory in spirv_buffer.c); regalloc.c maps both to the
 * final program.  Messages name opcodes through spirv_names.c.
 */
#ifndef GLSL_SPIRV_H
#define GLSL_SPIRV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <spirv/unified1/spirv.h>

#include "ushader.h"

/* Operands with index >= CONST_BASE in US_FILE_PARAM name entry
 * index - CONST_BASE of the constant pool until regalloc.c lays them out. */
enum { CONST_BASE = 0x8000, NO_COMP = 0xff };

/* Type classes. */
enum ty { TY_NONE, TY_VOID, TY_BOOL, TY_INT, TY_FLOAT, TY_VECTOR, TY_MATRIX,
          TY_ARRAY, TY_STRUCT, TY_POINTER, TY_FUNCTION, TY_IMAGE,
          TY_SAMPLED_IMAGE, TY_SAMPLER, TY_RUNTIME_ARRAY };

/* Where a pointer's memory is (spirv_buffer.c): not memory (registers,
 * inputs, parameters), a storage buffer or atomic counter binding, or
 * the workgroup's shared memory. */
enum space { SP_NONE, SP_BUFFER, SP_SHARED };

/* One result id. */
struct sid {
    uint32_t def;          /* word offset of the defining instruction, 0  */
    uint16_t op;           /* its opcode                                   */
    uint32_t type;         /* result type id                               */
    const char *name;      /* OpName, points into the module (NUL-ended)   */
    int32_t location;      /* Location decoration, -1                      */
    int32_t builtin;       /* BuiltIn decoration, -1                       */
    int32_t binding;       /* Binding decoration, -1                       */
    int32_t offset;        /* Offset decoration (atomic counters), -1      */
    bool flat, noperspective;  /* Flat, NoPerspective decorations          */
    /* Types. */
    uint8_t ty;            /* enum ty                                      */
    uint8_t comps;         /* vector size; scalars 1                       */
    uint8_t width;         /* TY_INT, TY_FLOAT: bits (8, 16, 32)           */
    bool is_signed;        /* TY_INT                                       */
    bool buffer_block;     /* TY_STRUCT: BufferBlock (or Block of a
                              StorageBuffer variable)                      */
    uint32_t stride;       /* ArrayStride decoration, 0                    */
    uint32_t elem;         /* vector/matrix/array element, pointee          */
    uint32_t len;          /* array length, matrix columns, struct members */
    uint32_t slots;        /* vec4 slots a value of this type occupies     */
    uint32_t storage;      /* pointer storage class                        */
    /* Values: nslots operands at vals[val]; set when translated. */
    bool has_val;
    uint32_t val;
    /* Pointers (variables and access chains). */
    uint32_t root;         /* the variable                                 */
    uint32_t off;          /* constant slot offset into it                 */
    uint8_t comp;          /* component, or NO_COMP for the whole slot     */
    bool dyn;              /* + a dynamic part: dyn_src * dyn_stride slots */
    struct us_src dyn_src; /* a float index, replicated                    */
    uint32_t dyn_stride;
    bool dyn_c;            /* a dynamic vector component: dyn_comp (float) */
    bool oob;              /* a constant index out of range: undefined   */
    struct us_src dyn_comp;
    /* Pointers into memory (spirv_buffer.c): the byte address is
     * moff + (mdyn ? the integer maddr.x : 0); a matrix column reached
     * through a row-major member has its components mstride apart. */
    uint8_t space;         /* enum space                                   */
    uint8_t mbinding;      /* SP_BUFFER: buffer[mbinding]                  */
    bool mdyn, mrow_major;
    bool has_vaddr;        /* a scalar's / vector's address operand, vaddr */
    uint32_t moff, mstride;
    struct us_src maddr, vaddr;
    /* Values: a bool with an integer twin (all ones / 0, the form an
     * integer comparison computes; docs/GLSL.md "Booleans"). */
    bool has_ibool;
    struct us_src ibool;
    /* Variables. */
    int32_t var_base;      /* first param slot / vreg / -1 unbound          */
    bool var_loaded;       /* Output variables that are read back          */
    int32_t sampler_unit;  /* sampler variables: first unit, -1            */
    int32_t struct_units;  /* uniform structs holding samplers: the unit of
                            * the first, the others in slot order; -1    */
    /* A legacy shadow lookup (the front step's zero ConstOffset marker):
     * its float value is the comparison; shadow4 is the whole result
     * as the texture's depth mode expands it (GL 2.1 §3.8.14). */
    bool legacy_shadow;
    struct us_src shadow4;
    uint8_t tex_target;
};

/* One member of a struct type. */
struct smember {
    uint32_t type_id, index;
    const char *name;
    int32_t builtin;
    int32_t offset;        /* Offset decoration, -1                        */
    uint32_t matrix_stride;  /* MatrixStride decoration, 0                 */
    bool row_major;        /* RowMajor decoration                          */
};

struct block {
    uint32_t label;
    uint32_t first, term;  /* word offsets: first instruction, terminator  */
    uint32_t merge;        /* OpSelectionMerge/OpLoopMerge target, 0        */
    uint32_t cont;         /* OpLoopMerge continue target, 0                */
    uint32_t line;         /* the OpLine in force at its OpLabel, 0         */
    bool loop;
};

struct constant { float v[4]; };

/* Where the current code is, for the structurizer. */
struct flowctx {
    uint32_t loop_header, loop_merge, loop_cont;   /* innermost loop      */
    uint32_t sel_merge;    /* innermost selection's merge                 */
    bool in_continue;
    unsigned depth;        /* IF/loop nesting */
    const struct flowctx *parent;
};

/* A switch runs as a loop that leaves at its end, so a case can leave it
 * from inside nested constructs with BRK; it has no header to return to. */
enum { NO_LABEL = 0xffffffffu };

struct spv {
    const uint32_t *w;
    size_t nw;
    uint32_t bound;
    struct sid *ids;
    enum us_stage stage;
    struct us_diag *diag;
    struct us_glsl_info *info;
    uint32_t glsl_ext;     /* OpExtInstImport "GLSL.std.450" id            */
    uint32_t entry;        /* entry point function                        */
    /* OpenCL kernels (docs/OPENCL.md): the Kernel execution model, the
     * OpenCL.std import, the kernel's parameters (argument k: buffer[k]
     * or program.local[k]), and whether its flow becomes BRAs (a
     * kernel's, spirv_flow.c). */
    bool kernel, unstructured;
    uint32_t ocl_ext, debug_ext;   /* OpenCL.std, OpenCL.DebugInfo.100 */
    uint32_t entry_override;   /* the function llvm-spirv's wrapper calls */
    uint32_t nargs;
    uint32_t args[US_MAX_BUFFERS];
    struct smember *members;
    size_t nmembers, cap_members;
    struct block *blocks;
    size_t nblocks;
    /* Output. */
    struct us_inst *insts;
    unsigned ninsts, cap_insts;
    struct us_src *vals;
    uint32_t nvals, cap_vals;
    unsigned nvregs;
    uint8_t *vreg_ssa;     /* per vreg: built once (not a variable/phi)    */
    unsigned cap_vregs;
    struct constant *consts;
    unsigned nconsts, cap_consts;
    struct us_param *params;
    bool *unavailable;     /* per param: a member no ARB state holds      */
    uint8_t *param_comp;   /* per param: the component a float member is in */
    unsigned nparams;
    struct us_decl *decls;
    unsigned ndecls;
    unsigned nlocals;
    unsigned nunits;
    uint32_t options;
    /* Integers are floats (exact up to 2^24), as GLSL 1.20 4.1.3 allows:
     * sources the front step rewrote from GLSL ES 1.00, 1.10 or 1.20
     * (US_SPIRV_FLOAT_INTEGERS).  Otherwise integers are 32-bit words. */
    bool float_ints;
    uint32_t line;         /* the current OpLine's line, 0                  */
    uint16_t group_size[3];  /* LocalSize                                  */
    uint32_t shared_bytes;   /* shared variables laid out so far           */
    uint32_t buffers_used;
    uint64_t interp_flat, interp_linear, interp_smooth;  /* us_program's */
    int16_t size_local[US_MAX_BUFFERS];  /* program.local of a binding's
                                            byte size (.length()), -1      */
    int16_t size_param[US_MAX_BUFFERS];  /* its parameter slot            */
    bool uses_addr;
    bool arl_valid;        /* A0.x holds arl_src * arl_stride on this path */
    struct us_src arl_src;
    uint32_t arl_stride;
};

/* spirv_module.c */
US_MUST_CHECK bool spv_fail(struct spv *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
US_MUST_CHECK bool spv_parse(struct spv *s);
const struct smember *spv_member(const struct spv *s, uint32_t type,
                                 uint32_t index);
/* Word count and opcode of the instruction at word offset `at`. */
static inline unsigned spv_wc(const struct spv *s, uint32_t at)
{
    return s->w[at] >> 16;
}
static inline unsigned spv_op(const struct spv *s, uint32_t at)
{
    return s->w[at] & 0xffff;
}
/* Operand id `k` of instruction `at` checked to be a defined id. */
US_MUST_CHECK bool spv_id(struct spv *s, uint32_t at, unsigned k,
                          uint32_t *id);
/* The integer value of a scalar constant id. */
US_MUST_CHECK bool spv_const_int(struct spv *s, uint32_t id, int64_t *v);
struct block *spv_block(struct spv *s, uint32_t label);

/* spirv_emit.c: operands, instructions, constants, values. */
struct us_src src_vreg(unsigned vreg);
struct us_src src_comp(struct us_src a, unsigned c);
struct us_src src_swz(struct us_src a, const uint8_t sel[4]);
struct us_src src_neg(struct us_src a);
US_MUST_CHECK bool new_vreg(struct spv *s, bool ssa, unsigned *v);
US_MUST_CHECK bool emit(struct spv *s, enum us_opcode op, struct us_dst dst,
                        struct us_src a, struct us_src b, struct us_src c);
struct us_dst dst_vreg(unsigned vreg, unsigned mask);
/* op into a fresh SSA vreg (mask xyzw); *out reads it. */
US_MUST_CHECK bool emit_new(struct spv *s, enum us_opcode op,
                            struct us_src a, struct us_src b,
                            struct us_src c, struct us_src *out);
/* An SCL op applied to each of n components of `a` (and `b`). */
US_MUST_CHECK bool emit_scalar(struct spv *s, enum us_opcode op, unsigned n,
                               struct us_src a, struct us_src b,
                               struct us_src *out);
US_MUST_CHECK bool const_src(struct spv *s, const float v[4],
                             struct us_src *out);
US_MUST_CHECK bool const_scalar(struct spv *s, float v, struct us_src *out);
/* Value operands of an id (translated first if it is a constant). */
US_MUST_CHECK bool value_of(struct spv *s, uint32_t id, struct us_src **v,
                            uint32_t *n);
US_MUST_CHECK bool set_value(struct spv *s, uint32_t id,
                             const struct us_src *v, uint32_t n);
US_MUST_CHECK bool alloc_vals(struct spv *s, uint32_t n, uint32_t *at);
/* spirv_memory.c: variables, access chains, loads and stores. */
/* The texture target of a sampled image type (a sampler named `name`). */
US_MUST_CHECK bool sampler_target(struct spv *s, uint32_t type,
                                  const char *name, uint8_t *target);
/* Load through a pointer, store through one. */
bool load_ptr(struct spv *s, uint32_t ptr, uint32_t result);
US_MUST_CHECK bool store_ptr(struct spv *s, uint32_t ptr,
                             const struct us_src *v, uint32_t n);
US_MUST_CHECK bool access_chain(struct spv *s, uint32_t at);
/* A one-slot PARAM `name` = program.local[next]: *param its slot. */
US_MUST_CHECK bool add_local_param(struct spv *s, const char *name,
                                   unsigned *param);
/* Bind the initialized uniforms the code does not read: their values
 * belong to the program all the same (GLSL 1.20 4.3.5). */
US_MUST_CHECK bool bind_initialized_uniforms(struct spv *s);
/* Copy the shadowed outputs to result.* (before the final return). */
US_MUST_CHECK bool flush_outputs(struct spv *s);
/* Select among n candidates by the float index `idx` (SEQ + CMP, or
 * CMP.S for integer candidates, `ints`). */
US_MUST_CHECK bool select_chain(struct spv *s, struct us_src idx,
                                const struct us_src *cand, unsigned n,
                                bool ints, struct us_src *out);
/* Index `id` as a float (I2F of a 32-bit integer), replicated: the
 * form ARL and the select chains take. */
US_MUST_CHECK bool float_index(struct spv *s, uint32_t id,
                               struct us_src *out);

/* spirv_emit.c */
unsigned type_comps(const struct spv *s, uint32_t type);
/* The scalar type a vector, matrix or array type is made of (0: none). */
uint32_t scalar_type(const struct spv *s, uint32_t type);
/* Whether values of `type` are integer words (not float_ints). */
bool int_data(const struct spv *s, uint32_t type);
/* The vector or scalar type of slot k of `type`, and whether it holds
 * integer words. */
uint32_t slot_type(const struct spv *s, uint32_t type, uint32_t k);
bool slot_int(const struct spv *s, uint32_t type, uint32_t k);
/* The copy for `type`: MOV.U for integer words (MOV canonicalises NaN
 * patterns), MOV for floats. */
enum us_opcode move_op(const struct spv *s, uint32_t type);
/* Integer literals: their bits in a constant slot. */
US_MUST_CHECK bool const_int(struct spv *s, uint32_t v, struct us_src *out);
US_MUST_CHECK bool const_ints(struct spv *s, const uint32_t v[4],
                              struct us_src *out);

/* spirv_ops.c */
US_MUST_CHECK bool translate_inst(struct spv *s, uint32_t at);
US_MUST_CHECK bool translate_ext(struct spv *s, uint32_t at);
/* A float operand without negation (a MOV applies it): the form an
 * integer instruction may read float bits in. */
US_MUST_CHECK bool plain_float(struct spv *s, struct us_src *x);
/* A boolean's integer form (all ones / 0), if it has one. */
bool bool_raw(struct spv *s, uint32_t id, struct us_src *raw);
/* Result `id` is the boolean whose integer form is `raw`. */
US_MUST_CHECK bool set_bool(struct spv *s, uint32_t id, struct us_src raw);

/* spirv_buffer.c: storage buffers, atomic counters and shared memory. */
bool is_memory_var(const struct spv *s, uint32_t var);
US_MUST_CHECK bool bind_memory(struct spv *s, uint32_t var);
/* An access chain step into memory (p already holds the base's state). */
US_MUST_CHECK bool memory_chain(struct spv *s, uint32_t at, struct sid *p);
US_MUST_CHECK bool memory_load(struct spv *s, const struct sid *p,
                               uint32_t type, uint32_t result);
US_MUST_CHECK bool memory_store(struct spv *s, const struct sid *p,
                                uint32_t type, const struct us_src *v,
                                uint32_t n);
US_MUST_CHECK bool atomic_op(struct spv *s, uint32_t at, unsigned op);
US_MUST_CHECK bool array_length(struct spv *s, uint32_t at);
/* OpenCL kernel arguments: buffers and parameters; pointer casts. */
US_MUST_CHECK bool bind_kernel_args(struct spv *s);
US_MUST_CHECK bool pointer_cast(struct spv *s, uint32_t at);

/* spirv_names.c: names for messages. */
const char *spv_op_name(unsigned op, char *buf, size_t size);
const char *spv_std450_name(unsigned fn, char *buf, size_t size);
const char *spv_ocl_name(unsigned fn, char *buf, size_t size);

/* spirv_flow.c */
US_MUST_CHECK bool translate_function(struct spv *s);

/* spirv_width.c: cut writes down to the components someone reads;
 * demanded[v] (nvregs entries) receives each register's live components. */
US_MUST_CHECK bool narrow_widths(struct spv *s, uint8_t *demanded);
/* demanded[v] (nvregs entries): the components of vreg v that some
 * instruction whose own result is demanded (or that writes no TEMP) reads;
 * what narrow_widths narrows the write masks to. */
void spv_demanded(const struct spv *s, uint8_t *demanded);
/* Swizzle positions of source k that instruction `in` reads when it writes
 * `mask`. */
unsigned src_positions(const struct us_inst *in, unsigned k, unsigned mask);
/* Operand k of `in` is read at fixed positions whatever the write mask
 * (BFE / BFI's (bits, offset) pair). */
bool fixed_operand(const struct us_inst *in, unsigned k);
/* Memory writes, atomics and barriers: never dead code. */
bool has_side_effect(unsigned op);
/* Whether an opcode's result components may move to other components
 * (component-wise, or one value replicated) -- not XPD LIT DST EXP LOG SCS
 * or a texture fetch, whose components each have their own meaning. */
bool relocatable_op(unsigned op);

/* regalloc.c */
US_MUST_CHECK bool finish_program(struct spv *s, struct us_program *out);

#endif
