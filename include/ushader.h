/*
 * ushader — a model of a mobile unified shader built from scalar stream
 * processors, and the baselines it is compared against.
 *
 * This is the library's one public header.  It defines the vec4 program IR
 * that every architecture model consumes, and the entry points of the
 * assembler, disassembler, GL-like state and reference interpreter.
 *
 * Every function that can fail returns bool (true = success) and fills a
 * struct us_diag; nothing here prints, exits or keeps global state.
 */
#ifndef USHADER_H
#define USHADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define US_MUST_CHECK __attribute__((warn_unused_result))
#else
#define US_MUST_CHECK
#endif

/* The library's version (the file VERSION) and the commit it was built
 * from (`git describe --always --dirty`; "unknown" outside a checkout). */
const char *us_version(void);
const char *us_commit(void);

/* ---------------------------------------------------------------------- */
/* Limits of the modelled implementation (what glGetProgramiv would say).  */

enum {
    US_MAX_INSTRUCTIONS = 4096,  /* per program, after OPTION expansion    */
    US_MAX_TEMPS = 256,
    US_MAX_PARAMS = 1024,        /* parameter slots; equal in-place
                                    literals share one                    */
    US_MAX_ENV_PARAMS = 256,     /* program.env[0..255]                    */
    US_MAX_LOCAL_PARAMS = 1024,  /* program.local[0..1023] (piglit's
                                    big-param binds 1021)                 */
    US_MAX_ADDRESS = 1,          /* ARB_vertex_program: A0 only            */
    US_MAX_REL_OFFSET = 1023,    /* |A0.x + offset| constant: see asm/     */
    US_MAX_TEX_UNITS = 16,       /* texture image units                    */
    US_MAX_TEX_COORDS = 8,       /* texture coordinate sets: vertex.texcoord,
                                    state.matrix.texture, state.texgen   */
    /* vec4 varyings between the stages, result.texcoord[0..31] of a vertex
     * program and fragment.texcoord[0..31] of a fragment program: the
     * storage, sized for Mesa llvmpipe's GL_MAX_VARYING_VECTORS (32, 128
     * GL_MAX_VARYING_COMPONENTS), the GL limit piglit runs are compared
     * with.  How many a program may use is knob varying_slots (default
     * US_VARYING_SLOTS_DEFAULT, shader/knobs.def). */
    US_MAX_VARYINGS = 32,
    /* GLES 2.0's minimum GL_MAX_VARYING_VECTORS (OpenGL ES 2.0.25 6.2, the
     * table of implementation-dependent values): the slots every reported figure is measured with */
    US_VARYING_SLOTS_DEFAULT = 8,
    US_MAX_LIGHTS = 8,
    US_MAX_CLIP_PLANES = 6,
    US_MAX_CLIP_DISTANCES = 8,   /* gl_MaxClipDistances                    */
    US_MAX_PROGRAM_MATRICES = 8,
    US_MAX_NAME = 64,            /* identifier length, incl. the NUL       */
    /* Compute (docs/COMPUTE.md) */
    US_MAX_BUFFERS = 32,         /* buffer bindings buffer[0..31]          */
    US_MAX_SHARED_BYTES = 1 << 16,  /* SHARED_MEMORY of one workgroup      */
    US_MAX_GROUP_INVOCATIONS = 1024,  /* GROUP_SIZE x * y * z (GL's minimum
                                         MAX_COMPUTE_WORK_GROUP_INVOCATIONS) */
};

/* ---------------------------------------------------------------------- */
/* Opcodes: generated from isa/ops.def.                                    */

enum us_opcode {
#define OP(name, text, fmt, nsrc, unit, shape, stages, flags) US_OP_##name,
#include "ops.def"
#undef OP
    US_OP_COUNT
};

enum us_op_format { US_FMT_VEC, US_FMT_SCL, US_FMT_ARL, US_FMT_SWZ,
                    US_FMT_TEX, US_FMT_KIL, US_FMT_COND, US_FMT_FLOW,
                    US_FMT_LOAD, US_FMT_STORE, US_FMT_ATOM, US_FMT_BAR,
                    US_FMT_BRA };
enum us_unit { US_UNIT_ALU, US_UNIT_SFU, US_UNIT_TEX, US_UNIT_ADDR,
               US_UNIT_BRANCH, US_UNIT_LSU, US_UNIT_BARRIER, US_UNIT_COUNT };
enum us_shape { US_SHAPE_COMP, US_SHAPE_REPL, US_SHAPE_DOT, US_SHAPE_MIXED,
                US_SHAPE_NONE };
/* Stage bits of an opcode; US_EXT: only under OPTION USHADER_extensions;
 * US_CP: only in compute programs. */
enum { US_VP = 1, US_FP = 2, US_EXT = 4, US_CP = 8 };
/* Operand types of an opcode (isa/ops.def: I_SRC I_DST SIGNLESS I_MUL),
 * and US_QUAD: reads the other lanes of its fragment quad (DDX DDY). */
enum { US_I_SRC = 1, US_I_DST = 2, US_SIGNLESS = 4, US_I_MUL = 8,
       US_QUAD = 16 };

struct us_opinfo {
    const char *name;            /* the text: "ADD", "MUL.S.HI"        */
    enum us_op_format format;
    uint8_t nsrc;
    enum us_unit unit;
    enum us_shape shape;
    uint8_t stages;
    uint8_t flags;
};

/* Indexed by enum us_opcode. */
extern const struct us_opinfo us_ops[US_OP_COUNT];

/* Whether a preshader (us_program.pre) may hold opcode `op`: the float
 * ALU operations, which need no elementary function (us_resolve_params
 * runs the preshader without a struct us_math), no texture, memory,
 * quad or flow. */
bool us_op_preshader(unsigned op);


/* Opcode from a mnemonic with its modifiers but without _SAT ("ADD",
 * "ADD.S", "MUL.U.HI"; case-sensitive; a SIGNLESS opcode answers to both
 * signs), or -1. */
int us_op_lookup(const char *name, size_t len);

/* ---------------------------------------------------------------------- */
/* The vec4 IR.                                                           */

struct us_diag;

enum us_stage { US_STAGE_VERTEX, US_STAGE_FRAGMENT, US_STAGE_COMPUTE,
                US_STAGE_COUNT };

enum us_file {
    US_FILE_NULL,     /* no operand                                      */
    US_FILE_TEMP,     /* TEMP registers                                   */
    US_FILE_INPUT,    /* vertex.* / fragment.* (enum us_vin / us_fin)     */
    US_FILE_OUTPUT,   /* result.* (enum us_vout / us_fout)                */
    US_FILE_PARAM,    /* the program's parameter slots (struct us_param)  */
    US_FILE_ADDRESS,  /* ADDRESS registers (ARL destination)              */
};

/*
 * Vertex program inputs.  Generic attributes and the conventional ones are
 * distinct slots; the pipeline applies ARB_vertex_program's aliasing
 * (position = attrib[0], weight = 1, normal = 2, color = 3, secondary
 * color = 4, fogcoord = 5, texcoord[n] = 8 + n) when it fetches vertices.
 */
enum us_vin {
    US_VIN_ATTRIB0 = 0,   /* vertex.attrib[0..15] */
    US_VIN_POSITION = 16,
    US_VIN_WEIGHT,
    US_VIN_NORMAL,
    US_VIN_COLOR0,
    US_VIN_COLOR1,
    US_VIN_FOGCOORD,
    US_VIN_TEXCOORD0,     /* vertex.texcoord[0..7] */
    US_VIN_COUNT = US_VIN_TEXCOORD0 + US_MAX_TEX_COORDS,
};

enum us_fin {
    US_FIN_POSITION,      /* fragment.position (window x, y, z, 1/w) */
    US_FIN_COLOR0,
    US_FIN_COLOR1,
    US_FIN_FOGCOORD,
    US_FIN_TEXCOORD0,     /* fragment.texcoord[0..US_MAX_VARYINGS-1] */
    /* fragment.facing (OPTION USHADER_extensions): x = 1.0 on a front-
     * facing primitive, 0.0 on a back-facing one (GLSL gl_FrontFacing);
     * y = z = 0, w = 1 */
    US_FIN_FACING = US_FIN_TEXCOORD0 + US_MAX_VARYINGS,
    US_FIN_COUNT,
};

/* Compute program inputs (NV_compute_program5's invocation.*): unsigned
 * integers, x y z (LOCALINDEX: x). */
enum us_cin {
    US_CIN_GLOBALID,      /* invocation.globalid   */
    US_CIN_LOCALID,       /* invocation.localid    */
    US_CIN_GROUPID,       /* invocation.groupid    */
    US_CIN_GROUPCOUNT,    /* invocation.groupcount */
    US_CIN_GROUPSIZE,     /* invocation.groupsize  */
    US_CIN_LOCALINDEX,    /* invocation.localindex */
    US_CIN_COUNT,
};

enum us_vout {
    US_VOUT_POSITION,
    US_VOUT_COLOR0,       /* result.color.front.primary (= result.color) */
    US_VOUT_COLOR1,       /* result.color.front.secondary                */
    US_VOUT_BCOLOR0,      /* result.color.back.primary                   */
    US_VOUT_BCOLOR1,      /* result.color.back.secondary                 */
    US_VOUT_FOGCOORD,
    US_VOUT_POINTSIZE,
    US_VOUT_TEXCOORD0,    /* result.texcoord[0..US_MAX_VARYINGS-1]        */
    /* The varyings end here (US_VOUT_VARYINGS); then what only the
     * clipper reads (OPTION USHADER_extensions): GLSL's gl_ClipDistance[0..3]
     * and [4..7] (x..w), and gl_ClipVertex (eye space) */
    US_VOUT_VARYINGS = US_VOUT_TEXCOORD0 + US_MAX_VARYINGS,
    US_VOUT_CLIPDIST0 = US_VOUT_VARYINGS,  /* result.clipdistance[0] */
    US_VOUT_CLIPDIST1,                     /* result.clipdistance[1] */
    US_VOUT_CLIPVERTEX,                    /* result.clipvertex      */
    US_VOUT_COUNT,
};

enum us_fout { US_FOUT_COLOR, US_FOUT_DEPTH, US_FOUT_COUNT };

enum { US_MAX_INPUTS = (int)US_VIN_COUNT > (int)US_FIN_COUNT
                           ? (int)US_VIN_COUNT : (int)US_FIN_COUNT,
       US_MAX_OUTPUTS = US_VOUT_COUNT };

/* Swizzle selectors; ZERO and ONE only appear through SWZ. */
enum us_swz { US_SWZ_X, US_SWZ_Y, US_SWZ_Z, US_SWZ_W, US_SWZ_ZERO,
              US_SWZ_ONE };

enum us_tex_target {
    US_TEX_1D, US_TEX_2D, US_TEX_3D, US_TEX_CUBE, US_TEX_RECT,
    US_TEX_SHADOW1D, US_TEX_SHADOW2D, US_TEX_SHADOWRECT,
    US_TEX_TARGET_COUNT
};

struct us_dst {
    uint8_t file;        /* enum us_file; NULL for KIL                  */
    uint8_t mask;        /* write mask, bit 0 = x ... bit 3 = w         */
    uint16_t index;
};

struct us_src {
    uint8_t file;        /* enum us_file                                */
    uint8_t swz[4];      /* enum us_swz per result component            */
    uint8_t negate;      /* per-component negation mask, bit 0 = x      */
    bool rel;            /* relative: params[index + A[rel_addr].x + offset] */
    uint8_t rel_addr;    /* address register                            */
    uint16_t index;      /* register, or the array's first slot if rel  */
    int16_t rel_offset;  /* constant offset from the array's first slot */
    uint16_t rel_size;   /* array length: out-of-range reads give 0     */
};

/* Memory access types (LOAD.U8 ... STORE.U32; docs/COMPUTE.md). */
enum us_mtype { US_MT_U8, US_MT_S8, US_MT_U16, US_MT_S16, US_MT_U32,
                US_MT_S32, US_MT_COUNT };
/* ATOM / ATOMS operations. */
enum us_atom { US_ATOM_ADD, US_ATOM_MIN, US_ATOM_MAX, US_ATOM_AND,
               US_ATOM_OR, US_ATOM_XOR, US_ATOM_EXCH, US_ATOM_CSWAP,
               US_ATOM_COUNT };
/* BRA conditions: ALWAYS, or a comparison of the two scalar sources. */
enum us_cond { US_COND_ALWAYS, US_COND_EQ, US_COND_NE, US_COND_LT_S,
               US_COND_LE_S, US_COND_GT_S, US_COND_GE_S, US_COND_LT_U,
               US_COND_LE_U, US_COND_GT_U, US_COND_GE_U, US_COND_COUNT };

/* The modifiers these carry as fields, as the text spells them (isa/ops.c):
 * "U8" ... "S32", "ADD" ... "CSWAP", and BRA's conditions "" (always),
 * "EQ.U", ... "GE.U". */
extern const char *const us_mtype_names[US_MT_COUNT];
extern const char *const us_atom_names[US_ATOM_COUNT];
extern const char *const us_cond_names[US_COND_COUNT];

struct us_inst {
    uint8_t op;          /* enum us_opcode                              */
    bool sat;            /* _SAT: clamp results to [0, 1]               */
    uint8_t tex_unit;    /* TEX TXB TXP: texture image unit; LOAD STORE
                            ATOM: buffer binding                        */
    uint8_t tex_target;  /* TEX TXB TXP: enum us_tex_target             */
    uint8_t mtype;       /* LOAD STORE ATOM LDS STS ATOMS: enum us_mtype */
    uint8_t sub;         /* ATOM ATOMS: enum us_atom; BRA: enum us_cond  */
    uint16_t target;     /* BRA: the instruction it jumps to (0..ninsts) */
    uint8_t word;        /* integer instructions: a word width (8, 16, 32:
                            the .W8 .W16 .W32 modifiers) instead of the
                            program's; 0: the program's                */
    bool joined;         /* one source instruction with the one before
                            (a front end's "|": docs/COMPUTE.md)        */
    struct us_dst dst;
    struct us_src src[3];
    uint32_t line;       /* source line; not part of program identity   */
};

/* GL state that a PARAM slot can be bound to ("state.*"). */
enum us_state_item {
    US_STATE_MATERIAL,            /* a = face, b = property             */
    US_STATE_LIGHT,               /* a = light, b = property            */
    US_STATE_LIGHTMODEL_AMBIENT,
    US_STATE_LIGHTMODEL_SCENECOLOR, /* a = face                         */
    US_STATE_LIGHTPROD,           /* a = light, b = face, c = property  */
    US_STATE_TEXGEN,              /* a = unit, b = plane, c = coord s..q */
    US_STATE_FOG_COLOR,
    US_STATE_FOG_PARAMS,
    US_STATE_CLIP_PLANE,          /* a = plane                          */
    US_STATE_POINT_SIZE,
    US_STATE_POINT_ATTENUATION,
    US_STATE_MATRIX_ROW,          /* a = matrix, b = index, c = modifier,
                                     d = row                            */
    US_STATE_TEXENV_COLOR,        /* a = unit                           */
    US_STATE_DEPTH_RANGE,
    US_STATE_ITEM_COUNT
};

enum us_face { US_FACE_FRONT, US_FACE_BACK };

enum us_state_prop {
    US_PROP_AMBIENT, US_PROP_DIFFUSE, US_PROP_SPECULAR, US_PROP_EMISSION,
    US_PROP_SHININESS, US_PROP_POSITION, US_PROP_ATTENUATION,
    US_PROP_SPOT_DIRECTION, US_PROP_HALF, US_PROP_COUNT
};

enum us_texgen_plane { US_TEXGEN_EYE, US_TEXGEN_OBJECT };

enum us_matrix {
    US_MATRIX_MODELVIEW, US_MATRIX_PROJECTION, US_MATRIX_MVP,
    US_MATRIX_TEXTURE, US_MATRIX_PALETTE, US_MATRIX_PROGRAM,
    US_MATRIX_COUNT
};

enum us_matrix_mod { US_MOD_NONE, US_MOD_INVERSE, US_MOD_TRANSPOSE,
                     US_MOD_INVTRANS };

struct us_state_ref {
    uint8_t item;        /* enum us_state_item */
    uint8_t a, b, c, d;  /* item-specific, see above */
};

enum us_param_kind {
    US_PARAM_CONST,      /* literal                         */
    US_PARAM_ENV,        /* program.env[index]              */
    US_PARAM_LOCAL,      /* program.local[index]            */
    US_PARAM_STATE,      /* state.*                         */
    US_PARAM_PRE,        /* program.pre[index]: the preshader's
                            register `index` after it ran          */
};

/* One vec4 parameter slot.  A PARAM declaration owns a run of slots;
 * operands written in place (literals, state.*, program.*) get their own,
 * except that equal in-place literals share one slot, as constant memory
 * would hold them. */
struct us_param {
    uint8_t kind;        /* enum us_param_kind              */
    uint16_t index;      /* ENV, LOCAL                      */
    struct us_state_ref state;
    float value[4];      /* CONST; LOCAL: the initial value
                            (a GLSL uniform initializer), 0     */
    int16_t decl;        /* owning declaration, -1 in place */
};

enum us_decl_kind { US_DECL_TEMP, US_DECL_PARAM, US_DECL_ATTRIB,
                    US_DECL_OUTPUT, US_DECL_ADDRESS };

/* A named declaration; ALIAS names resolve to their target and vanish. */
struct us_decl {
    char name[US_MAX_NAME];
    uint8_t kind;        /* enum us_decl_kind                            */
    bool array;          /* declared with [] (PARAM only)                */
    uint16_t base;       /* first register / slot / input / output       */
    uint16_t size;       /* slots (PARAM arrays), else 1                 */
};

enum us_option {
    US_OPT_POSITION_INVARIANT = 1u << 0,
    US_OPT_PRECISION_FASTEST = 1u << 1,
    US_OPT_PRECISION_NICEST = 1u << 2,
    US_OPT_FOG_EXP = 1u << 3,
    US_OPT_FOG_EXP2 = 1u << 4,
    US_OPT_FOG_LINEAR = 1u << 5,
    US_OPT_FRAGMENT_SHADOW = 1u << 6,
    US_OPT_ORIGIN_UPPER_LEFT = 1u << 7,
    US_OPT_PIXEL_CENTER_INTEGER = 1u << 8,
    /* The opcodes marked EXT in isa/ops.def (comparisons, SSG, TRC, flow
     * control, integers, memory); vertex programs may then also use CMP
     * LRP SIN COS SCS and the texture instructions, as a unified shader
     * runs them anywhere.  Compute programs imply it. */
    US_OPT_USHADER_EXTENSIONS = 1u << 9,
    /* The integer machine word (docs/COMPUTE.md): 16 or 8 bits. */
    US_OPT_WORD16 = 1u << 10,
    US_OPT_WORD8 = 1u << 11,
};

struct us_program {
    enum us_stage stage;
    uint32_t options;             /* enum us_option bits                 */
    struct us_inst *insts;
    unsigned ninsts;
    struct us_param *params;
    unsigned nparams;
    struct us_decl *decls;
    unsigned ndecls;
    unsigned ntemps;              /* TEMP registers declared             */
    unsigned naddrs;              /* ADDRESS registers declared          */
    uint64_t inputs_read;         /* bit per enum us_vin / us_fin / us_cin */
    uint64_t outputs_written;     /* bit per enum us_vout / us_fout      */
    uint8_t word_bits;            /* integer machine word: 16 or 8 bits
                                     (OPTION USHADER_word16 / word8), 0
                                     for 32                             */
    uint16_t group_size[3];       /* compute: GROUP_SIZE x y z           */
    uint32_t shared_bytes;        /* compute: SHARED_MEMORY              */
    uint32_t buffers_used;        /* bit per buffer binding accessed     */
    /* Fragment programs: how the pipeline interpolates each input, bit
     * per enum us_fin (GLSL's qualifiers, SPIR-V's Flat and NoPerspective
     * decorations).  flat: the provoking vertex's value; noperspective:
     * linear in window space; smooth: perspective-correct even under
     * glShadeModel(GL_FLAT) (an explicit `smooth` on gl_Color or
     * gl_SecondaryColor).  An input in none of them is perspective-
     * correct, and the colours follow the shade model.  Not part of the
     * program text nor of us_program_equal (ARB programs have no
     * qualifiers). */
    uint64_t interp_flat, interp_linear, interp_smooth;
    struct us_flow *flow;         /* derived by us_flow_build from insts;
                                     NULL: no flow control              */
    /* The preshader (glsl/pass_hoist.c, docs/GLSL.md "Preshader"): work
     * on uniforms alone, done once per draw instead of once per thread.
     * Straight-line instructions (us_op_preshader) that read parameters
     * and its own registers 0 .. npre_temps (spelled program.pre[n] in
     * the text, a PRESHADER block), which us_resolve_params runs on the
     * reference interpreter after the other parameters; parameters of
     * kind US_PARAM_PRE take its registers' values.  The per-thread
     * program is insts; npre 0: no preshader. */
    struct us_inst *pre;
    unsigned npre;
    unsigned npre_temps;
};

/* Frees everything the program owns, flow included. */
void us_program_free(struct us_program *prog);

/* Same program: instructions, parameters, declarations and options;
 * source line numbers (and the derived flow links) are ignored. */
bool us_program_equal(const struct us_program *a, const struct us_program *b);

/* The varying slots a program uses: 1 + the highest result.texcoord[n]
 * a vertex program writes or fragment.texcoord[n] a fragment program
 * reads (0: none; compute programs have none). */
unsigned us_program_varying_slots(const struct us_program *prog);
/* False with the error when the program uses more than `slots` varying
 * slots (knob varying_slots; 0: US_VARYING_SLOTS_DEFAULT). */
US_MUST_CHECK bool us_check_varying_slots(const struct us_program *prog,
                                          unsigned slots,
                                          struct us_diag *diag);

/* Canonical binding names: "vertex.texcoord[3]", "result.color", ... */
const char *us_input_name(enum us_stage stage, unsigned slot);
const char *us_output_name(enum us_stage stage, unsigned slot);

/* ---------------------------------------------------------------------- */
/* Diagnostics.                                                           */

struct us_diag {
    unsigned line, col;  /* 1-based; 0 when the error has no position */
    char msg[256];
};

/* ---------------------------------------------------------------------- */
/* Assembler and disassembler.                                            */

enum { US_STAGE_ANY = -1 };

/*
 * Assemble ARB program text (LF or CRLF).  `stage` is US_STAGE_VERTEX or
 * US_STAGE_FRAGMENT to require that header, or US_STAGE_ANY.  On failure
 * *out is left empty and *diag says where and why.
 */
US_MUST_CHECK bool us_assemble(const char *text, size_t len, int stage,
                               struct us_program *out, struct us_diag *diag);

/* Canonical ARB text of a program (malloc'd, NUL-terminated; NULL when out
 * of memory).  Assembling it gives a program us_program_equal to `prog`. */
char *us_disassemble(const struct us_program *prog);

/* ---------------------------------------------------------------------- */
/* GL-like state that parameters bind to.                                  */

typedef float us_vec4[4];
typedef float us_mat4[16];  /* row-major: m[4 * row + col] */

struct us_light {
    us_vec4 ambient, diffuse, specular;
    us_vec4 position;         /* eye space, as GL stores it              */
    us_vec4 attenuation;      /* constant, linear, quadratic, spot exponent */
    us_vec4 spot_direction;   /* eye space xyz, w = cos(spot cutoff)      */
};

struct us_material {
    us_vec4 ambient, diffuse, specular, emission;
    float shininess;
};

struct us_glstate {
    us_mat4 modelview, projection;
    us_mat4 texture[US_MAX_TEX_COORDS];
    us_mat4 program[US_MAX_PROGRAM_MATRICES];
    struct us_light light[US_MAX_LIGHTS];
    struct us_material material[2];          /* enum us_face */
    us_vec4 lightmodel_ambient;
    us_vec4 texgen[US_MAX_TEX_COORDS][2][4]; /* unit, eye/object, s..q */
    us_vec4 fog_color;
    float fog_density, fog_start, fog_end;
    us_vec4 clip_plane[US_MAX_CLIP_PLANES];  /* eye space */
    float point_size, point_size_min, point_size_max, point_fade;
    us_vec4 point_attenuation;               /* a, b, c, 1 */
    us_vec4 texenv_color[US_MAX_TEX_UNITS];
    float depth_near, depth_far;
    us_vec4 env[US_STAGE_COUNT][US_MAX_ENV_PARAMS];     /* enum us_stage */
    us_vec4 local[US_STAGE_COUNT][US_MAX_LOCAL_PARAMS]; /* enum us_stage */
};

/* OpenGL's initial state (GL 2.1 spec, tables 6.5-6.38). */
void us_glstate_init(struct us_glstate *gl);

/* One state.* vec4 as the ARB specs define it. */
void us_glstate_fetch(const struct us_glstate *gl, struct us_state_ref ref,
                      float out[4]);

/* Fill params[0 .. prog->nparams) from the program's bindings, then run
 * the program's preshader (if any) for its US_PARAM_PRE slots: the one
 * place a preshader runs, so every executor that binds parameters (draws,
 * piglit, run, bench, compute) does it once per binding. */
void us_resolve_params(const struct us_program *prog,
                       const struct us_glstate *gl, us_vec4 *params);

/* program.local slots of `prog`'s stage that hold an initial value (a GLSL
 * uniform initializer, us_param.value) take it: what linking does. */
void us_load_initial_locals(const struct us_program *prog,
                            struct us_glstate *gl);

/* ---------------------------------------------------------------------- */
/* Arithmetic of the elementary functions.                                 */

/* The elementary functions an SFU provides; `cfg` selects a configuration.
 * RCP RSQ EX2 LG2 SIN COS POW reach the hardware only through this. */
/* The function of a us_math batch call (the members below). */
enum us_math_fn { US_MATH_RCP, US_MATH_RSQ, US_MATH_EX2, US_MATH_LG2,
                  US_MATH_SIN, US_MATH_COS, US_MATH_POW };

struct us_math {
    const char *name;
    const void *cfg;
    float (*rcp)(const void *cfg, float x);
    float (*rsq)(const void *cfg, float x);
    float (*ex2)(const void *cfg, float x);
    float (*lg2)(const void *cfg, float x);
    float (*sin)(const void *cfg, float x);
    float (*cos)(const void *cfg, float x);
    float (*pow)(const void *cfg, float x, float y);
    /* Optional (NULL: callers make one call per lane): out[i] = f(x[i])
     * (POW: f(x[i], y[i]); y is unused otherwise) for i < n, the same bits
     * as the members above; out may be x or y. */
    void (*batch)(const void *cfg, enum us_math_fn f, const float *x,
                  const float *y, float *out, unsigned n);
};

/* Correctly rounded binary32 results (MPFR decides the hard cases). */
extern const struct us_math us_math_exact;

/* Free what us_math_exact keeps per host thread (MPFR's caches): call it
 * last in a thread of yours that computed with it, or they leak when the
 * thread exits. */
void us_math_thread_end(void);

/* ---------------------------------------------------------------------- */
/* Reference interpreter.                                                  */

/* Texture lookup for TEX/TXB/TXP.  `coord` is already divided by q for TXP;
 * `lod_bias` is coord.w for TXB and 0 otherwise.  Shadow targets compare
 * coord.z (1D: .z too, per ARB_fragment_program_shadow) in the sampler. */
typedef void (*us_sample_fn)(void *ctx, unsigned unit,
                             enum us_tex_target target, const float coord[4],
                             float lod_bias, float out[4]);

/* Texture lookup for a 2x2 quad shaded in lockstep, so the sampler can take
 * screen-space derivatives for mipmapping: element i belongs to fragment i
 * (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right). */
typedef void (*us_sample_quad_fn)(void *ctx, unsigned unit,
                                  enum us_tex_target target,
                                  const float coord[4][4],
                                  const float lod_bias[4], float out[4][4]);

/* A buffer of bytes: a binding's storage, or a workgroup's shared memory
 * (docs/COMPUTE.md).  An access not wholly inside [0, size) is out of
 * bounds: it reads 0 and writes nothing. */
struct us_buffer {
    uint8_t *data;
    uint32_t size;
};

/* What memory instructions did (every executor counts alike). */
struct us_mem_counts {
    uint64_t loads, stores, atomics;   /* component accesses             */
    uint64_t bytes;                    /* bytes read and written         */
    uint64_t oob;                      /* out-of-bounds accesses         */
};

/* The buffer bindings a program sees, and its counters. */
struct us_memory {
    struct us_buffer buf[US_MAX_BUFFERS];
    struct us_mem_counts counts;
};

/* Where one instruction's accesses went, for a timing model's memory
 * system (shader/memsys.h): with us_exec_env.trace set, every executor
 * appends each access it makes (a lane's component: the interpreter's
 * lanes x then y ..., the scalar executor's repetitions), in the order it
 * makes them; the caller empties it (n = 0) before the instruction.  An
 * access past US_MEM_TRACE_MAX is counted in n but not recorded. */
enum us_mem_kind { US_MEM_LOAD, US_MEM_STORE, US_MEM_ATOMIC };
enum { US_MEM_SPACE_SHARED = 0xff,  /* a workgroup's shared memory      */
       US_MEM_TRACE_MAX = 16 };     /* a quad's 4 lanes x 4 components  */

struct us_mem_access {
    uint32_t addr;        /* byte address within its space               */
    uint8_t space;        /* buffer binding, or US_MEM_SPACE_SHARED       */
    uint8_t bytes;        /* 1, 2 or 4                                   */
    uint8_t kind;         /* enum us_mem_kind                            */
    uint8_t lane;         /* the interpreter's quad lane; 0 otherwise    */
};

struct us_mem_trace {
    unsigned n;
    struct us_mem_access a[US_MEM_TRACE_MAX];
};

struct us_exec_env {
    const us_vec4 *params;        /* resolved, prog->nparams slots      */
    const struct us_math *math;   /* &us_math_exact for the reference   */
    us_sample_fn sample;          /* NULL: every texture reads (0,0,0,1) */
    us_sample_quad_fn sample_quad;  /* us_interpret_quad; NULL: sample  */
    void *sample_ctx;
    uint32_t max_insts;           /* instruction budget per thread (see
                                     us_flow_state); 0: US_MAX_INSTS_DEFAULT */
    struct us_memory *mem;        /* buffer bindings; NULL: none (every
                                     access is out of bounds)          */
    struct us_mem_trace *trace;   /* NULL, or where accesses are noted
                                     (a timing model's)                 */
};

/* The default instruction budget of a thread (knob max_instructions). */
enum { US_MAX_INSTS_DEFAULT = 1 << 24 };

/* One thread's registers.  Every component is 32 bits: a binary32 to
 * float instructions, a uint32_t / int32_t to integer ones (the bits are
 * the same; docs/COMPUTE.md). */
struct us_thread {
    us_vec4 temp[US_MAX_TEMPS];
    us_vec4 input[US_MAX_INPUTS];
    us_vec4 output[US_MAX_OUTPUTS];
    int32_t addr[US_MAX_ADDRESS][4];
    bool killed;
    bool helper;         /* a fragment quad's lane outside the primitive:
                            it writes no memory (docs/COMPUTE.md)        */
    bool overrun;        /* stopped by the instruction budget            */
    struct us_buffer *shared;  /* its workgroup's shared memory, or NULL */
};

/* Clear registers: temps, addresses and outputs to 0, inputs to (0,0,0,1). */
void us_thread_reset(struct us_thread *t);

/* The same for the temps `prog` declares only (the rest of the thread's
 * US_MAX_TEMPS are left as they are, and the program cannot read them):
 * what a pipeline shading millions of threads needs. */
void us_thread_reset_for(struct us_thread *t, const struct us_program *prog);

/* Run the program to the end (KIL marks the thread, execution goes on;
 * a thread over the instruction budget stops, marked overrun). */
void us_interpret(const struct us_program *prog, const struct us_exec_env *env,
                  struct us_thread *t);

/* The error of a run in which thread `thread` went over env's instruction
 * budget (us_thread.overrun), for every executor alike; returns false. */
bool us_budget_error(const struct us_exec_env *env, unsigned thread,
                     struct us_diag *diag);

/* Execute instruction `pc` alone: the entry timing models call at issue.
 * True when it is an IF or BRA whose condition holds for the thread. */
bool us_interpret_inst(const struct us_program *prog,
                       const struct us_exec_env *env, struct us_thread *t,
                       unsigned pc);

/* Run four threads (a 2x2 fragment quad) instruction by instruction in
 * lockstep; texture instructions go through env->sample_quad. */
void us_interpret_quad(const struct us_program *prog,
                       const struct us_exec_env *env, struct us_thread t[4]);

/* The condition of the IF at `pc` for thread t: its scalar source (after
 * swizzle and negation) is not 0.0. */
bool us_interpret_cond(const struct us_program *prog,
                       const struct us_exec_env *env,
                       const struct us_thread *t, unsigned pc);

/* ---------------------------------------------------------------------- */
/* Compute launches (shader/compute.c, docs/COMPUTE.md).                   */

/* Work-items of a launch of groups[0] x groups[1] x groups[2] workgroups
 * of the program's GROUP_SIZE; 0 (and *diag) when a count is 0 or the
 * total exceeds `limit`. */
uint64_t us_compute_items(const struct us_program *prog,
                          const uint32_t groups[3], uint64_t limit,
                          struct us_diag *diag);

/* Thread `item` of the launch (work-items in workgroup order, local index
 * order within one): registers reset, invocation.* inputs set. */
void us_compute_thread(const struct us_program *prog, const uint32_t groups[3],
                       uint64_t item, struct us_thread *t);

/* Run the launch on the reference interpreter: workgroups in order, each
 * thread of a workgroup until its next BAR or its end, round after round
 * (docs/COMPUTE.md).  Memory is env->mem; each workgroup gets zeroed
 * shared memory.  `threads` (NULL, or one per work-item) receives every
 * thread's final registers.  False (and *diag) when memory runs out or a
 * thread goes over the instruction budget. */
US_MUST_CHECK bool us_compute_interpret(const struct us_program *prog,
                                        const struct us_exec_env *env,
                                        const uint32_t groups[3],
                                        struct us_thread *threads,
                                        struct us_diag *diag);

/* ---------------------------------------------------------------------- */
/* Flow control (shader/flow.c): structured IF/loops and BRA, one         */
/* semantics for a thread alone and for lanes in lockstep (active mask +  */
/* reconvergence stack).                                                   */

enum us_flow_kind { US_FLOW_NONE, US_FLOW_IF, US_FLOW_ELSE, US_FLOW_ENDIF,
                    US_FLOW_LOOP, US_FLOW_ENDLOOP, US_FLOW_BRK,
                    US_FLOW_CONT, US_FLOW_BRA, US_FLOW_SYNC };

enum {
    US_FLOW_NEST = 32,           /* nested IFs and loops in a program    */
    US_FLOW_DEPTH = 64,          /* frames of a sequencer: the structured
                                    ones and pending divergent BRAs      */
    US_FLOW_MAX_LANES = 32,      /* lanes of one lockstep group          */
};

/* Code of any ISA seen by the sequencer: a kind per instruction and the
 * partner it jumps to (IF: its ELSE or ENDIF; ELSE: ENDIF; BGNLOOP and
 * ENDLOOP: each other; BRK, CONT: the loop's ENDLOOP; BRA: its target,
 * 0..n).  rpc[pc] is a BRA's reconvergence point, the immediate post-
 * dominator of the branch (n: the end).  `weight` counts the vec4
 * instructions each instruction of the code stands for (scalar words and
 * issue groups carry several, or none), so that every ISA charges a
 * thread's budget alike; NULL: one each. */
struct us_flow {
    unsigned n;
    uint8_t *kind;               /* enum us_flow_kind per instruction    */
    uint32_t *partner;
    uint32_t *weight;            /* owned; NULL: 1 per instruction       */
    uint32_t *rpc;               /* owned; NULL when there is no BRA     */
    uint8_t *always;             /* owned with rpc: BRA is unconditional */
};

/* The flow kind of a vec4 opcode (US_FLOW_NONE for the datapath ones). */
enum us_flow_kind us_op_flow_kind(enum us_opcode op);

/* Fill partner[] from kind[], checking the nesting; `lines` (or NULL)
 * gives diag's line.  A BRA's partner is its target, which the caller
 * sets beforehand; us_flow_branches then finds the reconvergence points. */
US_MUST_CHECK bool us_flow_link(const uint8_t *kind, uint32_t *partner,
                                unsigned n, const uint32_t *lines,
                                struct us_diag *diag);
/* After us_flow_link, for code with BRAs (`always[pc]`: the BRA at pc
 * jumps unconditionally): f->rpc and f->always from the control-flow
 * graph's post-dominators, checking that each BRA, its target and its
 * reconvergence point lie in one structured block. */
US_MUST_CHECK bool us_flow_branches(struct us_flow *f, const uint8_t *always,
                                    const uint32_t *lines,
                                    struct us_diag *diag);
/* The immediate post-dominator of every instruction of linked code (n:
 * the end, also for an instruction from which the end cannot be
 * reached), into ipdom[0 .. n), in the graph of the pcs a lane's own
 * sequencer (a one-lane us_flow_state) stops at: where lanes that part
 * at pc meet again, for a SIMT reconvergence policy.  False when memory
 * runs out. */
US_MUST_CHECK bool us_flow_ipdoms(const struct us_flow *f, uint32_t *ipdom);
/* The flow links of a vec4 program: *out = NULL when it has no flow
 * control; otherwise free with us_flow_free (us_program_free does). */
US_MUST_CHECK bool us_flow_build(const struct us_program *prog,
                                 struct us_flow **out, struct us_diag *diag);
void us_flow_free(struct us_flow *f);

struct us_flow_frame {
    uint8_t kind;                /* US_FLOW_IF, US_FLOW_LOOP, or US_FLOW_BRA
                                    (a divergent branch)                 */
    uint32_t outer;              /* lanes active when the frame opened   */
    uint32_t other;              /* IF: lanes waiting for ELSE; loop:
                                    lanes waiting after CONT; BRA: lanes
                                    waiting at `pc` (the other path)     */
    uint32_t pc, rpc;            /* BRA: where `other` resumes, and where
                                    both paths meet again               */
};

/*
 * A lockstep group's sequencer: it issues instruction `pc` on `active`.
 *
 * A divergent BRA pushes a frame: its taken lanes run first, the others
 * wait at the fall-through; whichever path reaches the reconvergence pc
 * (or runs out of lanes) hands over to the other, and when both have, the
 * frame's lanes go on together (the immediate post-dominator stack of
 * Fung et al., MICRO 2007; DICE, seed 004).  A group that diverges more
 * than US_FLOW_DEPTH frames deep stops its active lanes as the budget
 * does.
 *
 * The instruction budget: each lane counts the (weighted) instructions it
 * executes, and at every flow instruction -- where the mask can change, and
 * which every loop passes -- a lane whose count exceeds `budget` is
 * stopped: it leaves every frame for good and joins `stopped`.  The count
 * is the lane's own path, whatever the group, so every executor stops a
 * thread at the same instruction with the same registers; it may exceed
 * the budget by one stretch of straight-line code (US_MAX_INSTRUCTIONS).
 */
struct us_flow_state {
    unsigned pc;
    uint32_t active;
    unsigned depth;
    uint32_t stopped;            /* lanes stopped by the budget          */
    uint32_t budget;
    uint32_t run;                /* issued since the last flow instruction */
    uint32_t executed[US_FLOW_MAX_LANES];  /* up to that instruction     */
    struct us_flow_frame stack[US_FLOW_DEPTH];
};

/* `budget`: instructions per lane, 0 for US_MAX_INSTS_DEFAULT. */
void us_flow_start(struct us_flow_state *s, uint32_t lanes, uint32_t budget);
/* After the group issued s->pc (`cond`: active lanes whose IF condition
 * held), move to the next instruction some lane executes.  f == NULL
 * (straight-line code) just steps. */
void us_flow_advance(struct us_flow_state *s, const struct us_flow *f,
                     uint32_t cond);
bool us_flow_done(const struct us_flow_state *s, unsigned n);

/* ---------------------------------------------------------------------- */
/* 4x4 matrices (row-major us_mat4, shader/matrix.c).                      */

void us_mat4_identity(us_mat4 out);
/* out = a * b (out may alias a or b); computed in double, rounded once. */
void us_mat4_mul(us_mat4 out, const us_mat4 a, const us_mat4 b);
void us_mat4_transpose(us_mat4 out, const us_mat4 m);
/* out = m^-1; a singular matrix gives all zeros and false. */
bool us_mat4_inverse(us_mat4 out, const us_mat4 m);

/* ---------------------------------------------------------------------- */
/* Position-invariant vertex programs (shader/invariant.c).                */

/* result.position under OPTION ARB_position_invariant (ARB_vertex_program
 * 2.14.4.5.1): the four DP4s of state.matrix.mvp's rows with the vertex
 * position, with the interpreter's arithmetic (isa/micro.h). */
void us_position_invariant(const struct us_glstate *gl, const float pos[4],
                           float out[4]);

/* ---------------------------------------------------------------------- */
/* SFU model (sfu/, documented in sfu/sfu.h): table-driven elementary     */
/* functions evaluated on the SP's own multiply-add datapath (SPEC 1, 5). */

enum us_sfu_func { US_SFU_RCP, US_SFU_RSQ, US_SFU_SQRT, US_SFU_LG2,
                   US_SFU_EX2, US_SFU_SIN, US_SFU_COS, US_SFU_NFUNC };

/* Coefficient tables of the shared LUT; SIN and COS share one. */
enum us_sfu_table { US_SFU_T_RCP, US_SFU_T_RSQ, US_SFU_T_SQRT, US_SFU_T_LG2,
                    US_SFU_T_EX2, US_SFU_T_SINCOS, US_SFU_NTABLES };

enum { US_SFU_MAX_DEGREE = 3 };

/* Keys and defaults: sfu/sfu_config.c (us_sfu_config_help). */
struct us_sfu_config {
    uint8_t k[US_SFU_NTABLES];      /* log2(segments) per table            */
    uint8_t degree[US_SFU_NTABLES]; /* polynomial degree, 1..3             */
    uint8_t width[US_SFU_MAX_DEGREE + 1]; /* bits of c0..c3, incl. sign    */
    uint8_t banks;                  /* LUT banks, 1..64                    */
};

/* One table: c_i of segment s = coef[s * (degree + 1) + i] * 2^-shift[i]. */
struct us_sfu_coeffs {
    uint8_t k, degree;
    int8_t shift[US_SFU_MAX_DEGREE + 1];
    const int32_t *coef;
};

/* An SFU instance: a configuration and its coefficient tables. */
struct us_sfu {
    struct us_sfu_config cfg;
    struct us_sfu_coeffs tab[US_SFU_NTABLES];
    int32_t *owned;                 /* generated tables; NULL = committed  */
};

/* LUT layout of one table; `base` is its first entry in the shared LUT. */
struct us_sfu_lut {
    unsigned entries, entry_bits, base;
    uint64_t bits;
};

void us_sfu_config_default(struct us_sfu_config *cfg);
/* Apply one "key=value" (keys: us_sfu_config_help()). */
US_MUST_CHECK bool us_sfu_config_set(struct us_sfu_config *cfg,
                                     const char *kv, struct us_diag *diag);
const char *us_sfu_config_help(void);
bool us_sfu_config_equal(const struct us_sfu_config *a,
                         const struct us_sfu_config *b);

/* The committed tables for the default configuration, else tables built by
 * the MPFR Remez generator (sfu/sfu_remez.c, about a second). */
US_MUST_CHECK bool us_sfu_init(struct us_sfu *sfu,
                               const struct us_sfu_config *cfg,
                               struct us_diag *diag);
void us_sfu_free(struct us_sfu *sfu);

/* Bit-exact results of the modelled hardware. */
float us_sfu_eval(const struct us_sfu *sfu, enum us_sfu_func f, float x);
/* POW = EX2(y * LG2(x)), the multiply an FP32 MUL on the datapath. */
float us_sfu_pow(const struct us_sfu *sfu, float x, float y);
/* us_math over the instance (which must outlive *out). */
void us_sfu_math(const struct us_sfu *sfu, struct us_math *out);

/* Datapath passes (multiply-adds on the SP) for the timing models. */
unsigned us_sfu_passes(const struct us_sfu_config *cfg, enum us_sfu_func f);
unsigned us_sfu_pow_passes(const struct us_sfu_config *cfg);

const char *us_sfu_func_name(enum us_sfu_func f);
const char *us_sfu_table_name(enum us_sfu_table t);
US_MUST_CHECK bool us_sfu_func_lookup(const char *name, enum us_sfu_func *f);
enum us_sfu_table us_sfu_func_table(enum us_sfu_func f);

/* The LUT entry x reads, or false when x takes a special-case path that
 * reads no entry (zero, inf, NaN, denormal, tiny sin/cos arguments...). */
bool us_sfu_segment(const struct us_sfu *sfu, enum us_sfu_func f, float x,
                    enum us_sfu_table *table, unsigned *segment);
void us_sfu_lut_layout(const struct us_sfu_config *cfg, enum us_sfu_table t,
                       struct us_sfu_lut *out);
uint64_t us_sfu_lut_total_bits(const struct us_sfu_config *cfg);
/* Bank and row of an entry with cfg->banks banks: entry g = base + segment
 * goes to bank g % banks, row g / banks (see sfu/sfu.h). */
void us_sfu_lut_map(const struct us_sfu_config *cfg, enum us_sfu_table t,
                    unsigned segment, unsigned *bank, unsigned *row);

/* ---------------------------------------------------------------------- */
/* GLSL through SPIR-V (glsl/, issue 10): legacy built-ins, translation.   */

/* How a legacy built-in binds (glsl/builtins.def). */
enum us_glsl_bind {
    US_GLSL_IN,        /* user-declared input: needs layout(location=N) */
    US_GLSL_OUT,       /* user-declared output: needs layout(location=N) */
    US_GLSL_CORE_IN,   /* glslang's own BuiltIn (gl_FragCoord)          */
    US_GLSL_CORE_OUT,  /* gl_Position gl_PointSize gl_FragDepth         */
    US_GLSL_MATRIX,    /* uniform matN: one state.matrix row per column */
    US_GLSL_STATE,     /* uniform vec4 (array): one state.* per element */
    US_GLSL_STRUCT,    /* uniform struct (array): members below         */
};

/* Struct types of the built-in uniforms, declared by the front step as
 * us_glsl_struct_text() writes them. */
enum us_glsl_struct {
    US_GLSL_S_NONE, US_GLSL_S_DEPTH_RANGE, US_GLSL_S_POINT,
    US_GLSL_S_MATERIAL, US_GLSL_S_LIGHT_SOURCE, US_GLSL_S_LIGHT_MODEL,
    US_GLSL_S_LIGHT_MODEL_PRODUCTS, US_GLSL_S_LIGHT_PRODUCTS, US_GLSL_S_FOG,
    US_GLSL_S_COUNT
};

/* Placeholders in a us_glsl_builtin/us_glsl_member state reference. */
enum { US_GLSL_ELEM = 0xfe,      /* the array element being read         */
       US_GLSL_FACE = 0xfd,      /* the built-in's face (front/back)     */
       US_GLSL_NO_STATE = 0xff   /* item: no ARB state holds the value   */ };

struct us_glsl_builtin {
    const char *name;        /* "us_gl_Vertex"; core ones "gl_Position"  */
    uint8_t stages;          /* US_VP, US_FP                             */
    const char *decl;        /* "in vec4", "uniform mat4", "uniform
                                us_gl_LightSourceParameters"; NULL: core */
    uint8_t array;           /* elements; 0 = not an array               */
    uint8_t bind;            /* enum us_glsl_bind                        */
    int16_t spv_builtin;     /* CORE: SpvBuiltIn value, else -1          */
    uint16_t slot;           /* IN/OUT/CORE: enum us_vin/us_fin/us_vout/
                                us_fout by stage                         */
    uint8_t comp;            /* first component used of that vec4        */
    uint8_t struct_type;     /* STRUCT: enum us_glsl_struct              */
    uint8_t face;            /* STRUCT: enum us_face for F placeholders  */
    struct us_state_ref ref; /* MATRIX: a = enum us_matrix, c = the ARB
                                modifier whose rows are the GLSL columns;
                                STATE: the reference (a may be ELEM)     */
};

struct us_glsl_member {
    uint8_t struct_type;     /* enum us_glsl_struct                      */
    const char *name;        /* "diffuse"                                */
    const char *type;        /* "vec4", "vec3", "float"                  */
    uint8_t comp;            /* first component of the state vec4        */
    struct us_state_ref ref; /* item NO_STATE: unavailable               */
};

/* The built-in `name` for `stage`, or NULL. */
const struct us_glsl_builtin *us_glsl_builtin_lookup(const char *name,
                                                     enum us_stage stage);
/* The whole table (every stage); *count entries. */
const struct us_glsl_builtin *us_glsl_builtins(size_t *count);
/* The built-in bound to SPIR-V BuiltIn `spv` in `stage`, or NULL. */
const struct us_glsl_builtin *us_glsl_builtin_core(int spv,
                                                   enum us_stage stage);
/* Member `name` of a built-in struct type, or NULL. */
const struct us_glsl_member *us_glsl_member_lookup(unsigned struct_type,
                                                   const char *name);
/* GLSL type name of a struct ("us_gl_LightSourceParameters"). */
const char *us_glsl_struct_name(unsigned struct_type);
/* "struct us_gl_X { vec4 a; float b; };\n" into buf (snprintf rules:
 * returns the length the whole text needs). */
size_t us_glsl_struct_text(unsigned struct_type, char *buf, size_t size);
/* The state vec4 holding `element` (array index), column `column` (matrix)
 * of a MATRIX/STATE built-in, or member `m` of a STRUCT one; false when no
 * ARB state holds it or the element is out of range. */
US_MUST_CHECK bool us_glsl_state_of(const struct us_glsl_builtin *b,
                                    const struct us_glsl_member *m,
                                    unsigned element, unsigned column,
                                    struct us_state_ref *ref);

/* A sampler uniform and the texture unit it was given. */
struct us_glsl_sampler {
    char name[US_MAX_NAME];
    uint8_t unit;
    uint8_t target;          /* enum us_tex_target                        */
};

/* How a runner writes a uniform's components (docs/GLSL.md "Integers"):
 * floats as binary32; INT and UINT as the 32 bits of the integer, stored
 * in the float slot with memcpy; BOOL as 1.0 or 0.0.  Integers of
 * sources the front step rewrote from GLSL 1.20 or earlier are floats
 * (us_glsl_info.float_integers): their uniforms are FLOAT. */
enum us_glsl_scalar { US_GLSL_FLOAT, US_GLSL_INT, US_GLSL_UINT,
                      US_GLSL_BOOL, US_GLSL_AGGREGATE };

/* A user uniform's member as a runner names it ("s.v1", "l[2].color",
 * "m"): its parameter slots, prog.params[param .. param + slots), one per
 * vec4 (matrix column, array element).  Whole variables are PARAM decls
 * too; struct members are listed here, arrays of structs per element. */
struct us_glsl_uniform {
    char name[US_MAX_NAME];
    uint16_t param, slots;
    uint8_t type;            /* enum us_glsl_scalar; AGGREGATE: a struct
                                or an array of structs (set its members) */
};

enum { US_GLSL_MAX_UNIFORMS = 256 };

/*
 * Memory a program reads and writes (docs/GLSL.md "Storage buffers"): the
 * runner binds struct us_memory buf[binding] (us_exec_env.mem).
 *   SSBO: `layout(binding = N) buffer B { ... }` is buffer[N], N < 16,
 *         with its std430 / std140 offsets.
 *   COUNTERS: the atomic counters of `layout(binding = B, offset = O)
 *         uniform atomic_uint c` live in buffer[16 + B] at byte O (an
 *         array of them 4 bytes apart), as GL's atomic counter buffer
 *         binding B holds them; counter values are uint32, little-endian.
 * `size`: the bytes the declared members need (a runtime array counts
 * none of its elements).  A program that asks for a runtime array's
 * .length() reads the buffer's size in bytes from program.local[size_local]
 * .x, which the runner sets (the uint32 bits, stored with memcpy) to
 * mem.buf[binding].size before the run; -1: not needed.
 */
enum us_glsl_buffer_kind { US_GLSL_SSBO, US_GLSL_COUNTERS };
enum { US_GLSL_COUNTER_BINDING0 = 16 };  /* buffer[16 + B]: counters' B */

struct us_glsl_buffer {
    char name[US_MAX_NAME];  /* block name ("B"), or the first counter's */
    uint8_t binding;         /* buffer[binding] of the IR                */
    uint8_t kind;            /* enum us_glsl_buffer_kind                 */
    int16_t size_local;      /* program.local index of its byte size, -1 */
    uint32_t size;           /* bytes the declared members need          */
};

/* What a translation reports besides the program. */
struct us_glsl_info {
    struct us_glsl_sampler samplers[US_MAX_TEX_UNITS];
    unsigned nsamplers;
    struct us_glsl_uniform uniforms[US_GLSL_MAX_UNIFORMS];
    unsigned nuniforms;      /* more than the array holds: the first ones */
    struct us_glsl_buffer buffers[US_MAX_BUFFERS];
    unsigned nbuffers;
    bool float_integers;     /* integers are floats (a GLSL <= 1.20 source
                                through the front step)                  */
    unsigned nvalues;        /* virtual vec4 registers before allocation */
};

struct us_glsl_options {
    bool optimize;           /* run spirv-opt -O (default on)            */
    bool preshader;          /* work on uniforms alone once per draw, in
                                the program's preshader (default on)     */
    const char *glslang;     /* NULL: "glslangValidator" from PATH       */
    const char *spirv_opt;   /* NULL: "spirv-opt" from PATH              */
    unsigned varying_slots;  /* knob varying_slots: the vec4 varyings a
                                legacy shader compiled alone may use (its
                                front step's link table); 0: 8         */
    bool no_cache;           /* bypass the SPIR-V cache (glsl/spv_cache.c;
                                also $USHADER_NO_CACHE)                  */
};

/* Defaults: optimize on, tools from PATH. */
void us_glsl_options_init(struct us_glsl_options *opt);

/*
 * Compile GLSL source for `stage` (legacy sources go through the front
 * step's rewrite first) with glslangValidator (and spirv-opt), then
 * translate.  Errors name `path_for_messages` and the source line.
 * `info` may be NULL.
 */
US_MUST_CHECK bool us_glsl_compile(const char *path_for_messages,
                                   const char *text, size_t len,
                                   enum us_stage stage,
                                   const struct us_glsl_options *opt,
                                   struct us_program *out,
                                   struct us_glsl_info *info,
                                   struct us_diag *diag);

/*
 * Compile an OpenCL C 1.2 kernel (docs/OPENCL.md) with clang-14 (-target
 * spir), opt-14 and llvm-spirv-14, then translate its Kernel SPIR-V into a
 * compute program: __global pointer argument k is buffer[k], scalar
 * argument k program.local[k].  Errors name `path_for_messages` and the
 * OpenCL source line.  `info` may be NULL.
 */
US_MUST_CHECK bool us_ocl_compile(const char *path_for_messages,
                                  const char *text, size_t len,
                                  struct us_program *out,
                                  struct us_glsl_info *info,
                                  struct us_diag *diag);

/* The same with options: only `no_cache` applies (NULL: none). */
US_MUST_CHECK bool us_ocl_compile_opt(const char *path_for_messages,
                                      const char *text, size_t len,
                                      const struct us_glsl_options *opt,
                                      struct us_program *out,
                                      struct us_glsl_info *info,
                                      struct us_diag *diag);

/* us_spirv_translate flags. */
enum {
    /* Integers are floats, exact up to 2^24 (GLSL 1.20 4.1.3 allows it):
     * how the front step's rewrites of GLSL ES 1.00, 1.10 and 1.20 sources
     * are translated, as before there were integer instructions.  Without
     * it integers are 32-bit words (docs/COMPUTE.md). */
    US_SPIRV_FLOAT_INTEGERS = 1u << 0,
    /* gl_Color / gl_SecondaryColor were declared `smooth` in the fragment
     * shader (the front step's `#pragma ushader_smooth` lines): their
     * us_program.interp_smooth bits, as SPIR-V has no Smooth decoration. */
    US_SPIRV_SMOOTH_COLOR0 = 1u << 1,
    US_SPIRV_SMOOTH_COLOR1 = 1u << 2,
    /* Keep the work on uniforms alone in the per-thread program: no
     * preshader (glsl/pass_hoist.c; `ushader glsl --no-preshader`). */
    US_SPIRV_NO_PRESHADER = 1u << 3,
};

/* Translate the entry point of a SPIR-V module for `stage` (`flags`: the
 * US_SPIRV_* bits). */
US_MUST_CHECK bool us_spirv_translate(const uint32_t *words, size_t nwords,
                                      enum us_stage stage, uint32_t flags,
                                      struct us_program *out,
                                      struct us_glsl_info *info,
                                      struct us_diag *diag);
/* ---- end of the GLSL section ------------------------------------------ */

/* ---------------------------------------------------------------------- */
/* GLSL front step (glsl/front.c, docs/GLSL.md): GLSL ES 1.00 / 1.10 /    */
/* 1.20 rewritten into the GLSL 3.30 that glslang's SPIR-V path accepts,  */
/* line for line.                                                          */

enum {
    US_GLSL_VARYING_SLOTS = US_MAX_VARYINGS,  /* vec4 varyings: the storage,
                                    texcoord[0..31]; a link uses `slots` */
    US_GLSL_ATTRIB_SLOTS = 16,   /* generic vertex attributes              */
};

/* A user varying or vertex attribute and the vec4 slots it occupies. */
struct us_glsl_slot {
    char name[US_MAX_NAME];
    uint8_t first, count;
};

/*
 * The interface of one program pair, shared by its two front steps (the
 * vertex shader's first).  A user varying named in either stage gets
 * `layout(location=K)` with K its first slot: slot K is texcoord[K] of
 * the vec4 IR.  gl_TexCoord[i] is texcoord[i] too, so user varyings are
 * given slots from the top down and must stay above the gl_TexCoord
 * elements used.  Vertex attributes get generic attributes that do not
 * alias the conventional ones the vertex shader reads (piglit_vertex is
 * attribute 0, where draw commands put the position).
 */
struct us_glsl_link {
    struct us_glsl_slot varying[US_GLSL_VARYING_SLOTS];
    unsigned nvaryings;
    unsigned slots;              /* varying slots there are: knob
                                    varying_slots (us_glsl_link_init: 8) */
    unsigned floor;              /* lowest varying slot taken; slots = none */
    unsigned texcoords;          /* gl_TexCoord[0 .. texcoords) used      */
    struct us_glsl_slot attrib[US_GLSL_ATTRIB_SLOTS];
    unsigned nattribs;
    uint32_t attribs_taken;      /* generic attributes assigned or aliased */
};

/* An empty table of US_VARYING_SLOTS_DEFAULT slots; a caller raising
 * knob varying_slots sets `slots` and `floor` to it (us_glsl_link_slots). */
void us_glsl_link_init(struct us_glsl_link *link);
void us_glsl_link_slots(struct us_glsl_link *link, unsigned slots);

/* The slot record of a varying / attribute `name`, or NULL. */
const struct us_glsl_slot *us_glsl_link_varying(const struct us_glsl_link *l,
                                                const char *name);
const struct us_glsl_slot *us_glsl_link_attrib(const struct us_glsl_link *l,
                                               const char *name);

/* The number of the text's #version directive (0 when it has none);
 * *at: the offset of its first digit. */
unsigned us_glsl_version(const char *text, size_t len, size_t *at);
/* True when `text` needs the front step: no #version, or a desktop one
 * below 300 (300, 310 and 320 are GLSL ES 3.x versions). */
bool us_glsl_is_legacy(const char *text, size_t len);
/* True for the front step's output: its integers are floats (the
 * prologue's `#pragma ushader_float_integers`, docs/GLSL.md). */
bool us_glsl_float_integers(const char *text, size_t len);
/* US_SPIRV_SMOOTH_COLOR0 / COLOR1 for the front step's output of a
 * fragment shader that declared gl_Color / gl_SecondaryColor `smooth`
 * (its `#pragma ushader_smooth` lines). */
uint32_t us_glsl_smooth_colors(const char *text, size_t len);

/*
 * Rewrite a legacy shader of `stage` (see docs/GLSL.md).  `link` may be
 * NULL for a shader compiled alone.  *out (malloc'd, NUL-terminated) keeps
 * every source line on its own line number; errors have the line and
 * column of the offending token.
 */
US_MUST_CHECK bool us_glsl_front(const char *text, size_t len,
                                 enum us_stage stage,
                                 struct us_glsl_link *link, char **out,
                                 size_t *out_len, struct us_diag *diag);
/* us_glsl_front of a shader alone (link NULL) with `slots` varying slots
 * (knob varying_slots; 0: US_VARYING_SLOTS_DEFAULT). */
US_MUST_CHECK bool us_glsl_front_alone(const char *text, size_t len,
                                       enum us_stage stage, unsigned slots,
                                       char **out, size_t *out_len,
                                       struct us_diag *diag);

/* Programs of either language (glsl/source.c): ARB text starts with
 * "!!ARB" (a compute program "!!USHADER"); anything else is GLSL. */
bool us_is_arb_text(const char *text, size_t len);
/* GLSL text must hold no NUL byte: the compiler would stop reading there
 * and drop the rest.  False with diag at the first NUL's line and column. */
US_MUST_CHECK bool us_glsl_check_nul(const char *text, size_t len,
                                     struct us_diag *diag);
/* The stage a file name implies: .vert/.vs vertex, .frag/.fs fragment,
 * .comp compute, else US_STAGE_ANY. */
int us_glsl_stage_of_path(const char *path);
/* Assemble ARB text (`stage` checked unless US_STAGE_ANY) or compile GLSL
 * for `stage`, or when that is US_STAGE_ANY the stage of `path` (legacy
 * sources through us_glsl_front alone).  `opt` NULL: the defaults. */
US_MUST_CHECK bool us_program_from_text(const char *path, const char *text,
                                        size_t len, int stage,
                                        const struct us_glsl_options *opt,
                                        struct us_program *out,
                                        struct us_diag *diag);
/* ---- end of the GLSL front step section ------------------------------- */

/* ---------------------------------------------------------------------- */
/* Pre-decoded programs (shader/decode.c, shader/interp.c): the           */
/* interpreter's fast path for a program run on many threads.             */

/* Operand lookups resolved once; `prog` must outlive the result.  NULL
 * when out of memory (the us_interpret* entry points above still work). */
struct us_decoded;
US_MUST_CHECK struct us_decoded *us_decode(const struct us_program *prog);
void us_decoded_free(struct us_decoded *d);

/* us_interpret on a decoded program: the same registers bit for bit. */
void us_interpret_decoded(const struct us_decoded *d,
                          const struct us_exec_env *env, struct us_thread *t);

/* Run one thread of a decoded program from its sequencer's state `fs`
 * (us_flow_start'ed, one lane) until it has executed a BAR -- true: it
 * waits for its workgroup (us_compute_interpret) -- or finished (false;
 * t->overrun says whether the budget stopped it). */
bool us_interpret_until_barrier(const struct us_decoded *d,
                                const struct us_exec_env *env,
                                struct us_thread *t,
                                struct us_flow_state *fs);

/* us_interpret_quad on quads t[4i .. 4i+3], i < nquads, one after the
 * other: the same registers bit for bit. */
void us_interpret_quads(const struct us_decoded *d,
                        const struct us_exec_env *env, struct us_thread *t,
                        unsigned nquads);

#endif
