/*
 * The interpreter's decoded instruction form (shader/decode.c builds it,
 * shader/interp.c runs it).
 *
 * Decoding resolves, once per instruction, everything the vec4 IR leaves
 * to be looked up at run time: which register an operand names (a byte
 * offset into struct us_thread, or a parameter slot), whether its swizzle
 * is the identity, a plain permutation or uses SWZ's 0 and 1, the
 * components the instruction really writes (micro_written_mask) and what
 * the destination is.  The semantics stay in isa/micro.h; a decoded
 * instruction only says where the operands are.
 */
#ifndef US_DECODE_H
#define US_DECODE_H

#include "ushader.h"

/* Where a source's register lives. */
enum us_dsrc_kind {
    US_DSRC_THREAD,      /* TEMP / INPUT / OUTPUT: byte offset in the thread */
    US_DSRC_PARAM,       /* params[slot]                                     */
    US_DSRC_PARAM_REL,   /* params[slot + A.x + offset] within the array     */
    US_DSRC_ZERO,        /* no register: reads (0, 0, 0, 0)                  */
};

/* How the swizzle and negation apply. */
enum us_dsrc_swz {
    US_DSWZ_PLAIN,       /* .xyzw, nothing negated: a copy                   */
    US_DSWZ_PERM,        /* selectors X..W only, with per-component negation */
    US_DSWZ_EXT,         /* SWZ's ZERO / ONE selectors too                   */
};

/* How the lanes of a group load a source: the common cases taken apart
 * (shader/interp.c load_lanes). */
enum us_dsrc_load {
    US_DLOAD_THREAD_PLAIN,  /* thread register, US_DSWZ_PLAIN: a copy        */
    US_DLOAD_THREAD_PERM,   /* thread register, US_DSWZ_PERM, no negation    */
    US_DLOAD_UNIFORM,       /* params[slot]: the same value in every lane    */
    US_DLOAD_GENERAL,       /* anything else, lane by lane                   */
};

struct us_dsrc {
    uint8_t load;        /* enum us_dsrc_load                                */
    uint8_t kind;        /* enum us_dsrc_kind                                */
    uint8_t swz_kind;    /* enum us_dsrc_swz                                 */
    uint8_t swz[4];      /* enum us_swz per component                        */
    uint8_t negate;      /* bit c: negate component c                        */
    bool ineg;           /* the negation is an integer one (I_SRC opcodes)   */
    uint8_t rel_addr;    /* address register (US_DSRC_PARAM_REL)             */
    uint32_t off;        /* THREAD: byte offset; PARAM*: slot                */
    int32_t rel_offset;  /* PARAM_REL: constant offset from the first slot   */
    uint32_t rel_size;   /* PARAM_REL: array length                          */
};

/* What the result goes to. */
enum us_ddst_kind {
    US_DDST_NONE,        /* nothing is written (flow control, no register)   */
    US_DDST_THREAD,      /* TEMP / OUTPUT register: byte offset in thread    */
    US_DDST_ADDR,        /* ARL: address register .x                         */
    US_DDST_KILL,        /* KIL: the thread's killed flag                    */
    US_DDST_MEMORY,      /* STORE STS: memory, components in `mask`          */
};

struct us_dinst {
    uint8_t op;          /* enum us_opcode: the executor's dispatch key      */
    uint8_t nsrc;        /* sources to load                                  */
    uint8_t mask;        /* micro_written_mask(op, dst.mask)                 */
    bool sat;
    uint8_t dst_kind;    /* enum us_ddst_kind                                */
    uint8_t tex_unit;    /* TEX: texture unit; LOAD STORE ATOM: binding      */
    uint8_t tex_target;
    uint8_t word;        /* the program's integer word width: 32, 16, 8      */
    uint8_t mtype;       /* memory instructions: enum us_mtype               */
    uint8_t sub;         /* ATOM: enum us_atom; BRA: enum us_cond            */
    uint32_t dst_off;    /* THREAD: byte offset; ADDR: register index        */
    struct us_dsrc src[3];
};

/* A whole program decoded (us_decode). */
struct us_decoded {
    const struct us_program *prog;  /* ninsts and the flow links          */
    struct us_dinst inst[];
};

/* Decode instruction `in` of a program whose integer word is `word` bits
 * (the run-time checks of the vec4 IR's limits are the asserts here). */
void us_decode_inst(const struct us_inst *in, unsigned word,
                    struct us_dinst *out);

/* us_interpret_inst of an instruction decoded once (shader/interp.c): what
 * the timing models call at each issue. */
bool us_interpret_dinst(const struct us_dinst *d,
                        const struct us_exec_env *env, struct us_thread *t);

#endif
