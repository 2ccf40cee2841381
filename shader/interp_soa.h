/*
 * The batched structure-of-arrays executor (shader/interp_soa.c): a
 * decoded straight-line program run over a whole batch of threads, one
 * instruction at a time over every lane, with registers held as arrays of
 * lanes (one row of US_SOA_WIDTH floats per register component).
 *
 * It gives the reference interpreter's bits (shader/interp.c): the
 * per-lane semantics are isa/micro.h's and shader/interp_ops.h's, every
 * register write goes through micro_canon or micro_sat, elementary
 * functions through env->math, textures through env->sample_quad per 2x2
 * quad (or env->sample per lane) and derivatives across each quad.  The
 * executor only takes programs it can run exactly (us_soa_plan says):
 * straight-line code (no flow control, so every lane is active at every
 * instruction and the order across lanes cannot matter) of float opcodes
 * without memory, integer operands, ARL or relative addressing; the caller
 * runs anything else on the reference.
 *
 * The loops are written for the compiler's vectoriser and built three
 * times: for the x86-64 baseline and, on x86-64, with AVX2 and with
 * AVX-512 (never FMA: no contraction of a*b+c, the build's -std=c11 keeps
 * -ffp-contract=off), chosen at run time; all give the same bits
 * (tests/unit/test_interp_soa.c).
 */
#ifndef US_INTERP_SOA_H
#define US_INTERP_SOA_H

#include "ushader.h"
#include "shader/decode.h"

/* Lanes per chunk: 32 quads.  128 rather than 64: each instruction's
 * dispatch and each SFU call over twice the lanes (fullscreen.scn 1.08x);
 * a program's rows stay in the L1 cache. */
enum { US_SOA_WIDTH = 128 };

/* Which build of the loops runs. */
enum us_soa_isa {
    US_SOA_AUTO,        /* the best build the CPU has                   */
    US_SOA_BASELINE,    /* the x86-64 baseline (SSE2) build             */
    US_SOA_AVX2,        /* the AVX2 build (the CPU must have AVX2)      */
    US_SOA_AVX512,      /* the AVX-512 build (F, VL, DQ, BW)            */
};

struct us_soa;

/* The plan for running `d` batched, or NULL when the executor does not
 * take the program (or memory runs out): the caller then runs it on the
 * reference.  It holds the chunk's registers: one plan per caller thread. */
struct us_soa *us_soa_plan(const struct us_decoded *d);
void us_soa_free(struct us_soa *p);

/* Whether the CPU can run that build (US_SOA_AUTO: always). */
bool us_soa_have(enum us_soa_isa isa);

/* Run the program on threads t[0 .. n): as us_interpret_quads on n / 4
 * quads when `quads` (n a multiple of 4), else as us_interpret_decoded on
 * each thread.  Every register the reference writes ends the same, but
 * the TEMPs only when `temps`: a pipeline reads the outputs and the killed
 * flags, and the next thread's reset clears the TEMPs anyway. */
void us_soa_run(struct us_soa *p, const struct us_exec_env *env,
                struct us_thread *t, unsigned n, bool quads, bool temps,
                enum us_soa_isa isa);

/* ---- The row form: for a caller that keeps no thread records --------
 * A pipeline writes a chunk's inputs straight into the executor's rows,
 * runs the program on them and reads the results from rows, so no
 * thread record is reset, filled or gathered from.  The plan then owns
 * its decoded program and its build of the loops. */

/* us_soa_plan of prog's decoded form run with `isa` (US_SOA_AUTO: the
 * CPU's best), or NULL when the executor does not take the program. */
struct us_soa *us_soa_open(const struct us_program *prog, enum us_soa_isa isa);

/* The row (lane l at [l], US_SOA_WIDTH lanes) of component c of the
 * register at byte offset `off` in struct us_thread (decode.h's
 * naming), or NULL when the program names no such register. */
float *us_soa_reg_row(struct us_soa *p, uint32_t off, unsigned c);
/* Bit c: the program reads component c of that register before writing
 * it (a row the caller must fill), resp. writes it (a result). */
unsigned us_soa_reg_reads(const struct us_soa *p, uint32_t off);
unsigned us_soa_reg_writes(const struct us_soa *p, uint32_t off);
/* The row a caller reads result component c of that register from:
 * us_soa_reg_row's, or a row of zeros (the reset value) when the program
 * never names it. */
const float *us_soa_result_row(struct us_soa *p, uint32_t off, unsigned c);

/* The offsets of input register i and output register o. */
static inline uint32_t us_soa_input_off(unsigned i)
{
    return (uint32_t)(offsetof(struct us_thread, input) + i * sizeof(us_vec4));
}

static inline uint32_t us_soa_output_off(unsigned o)
{
    return (uint32_t)(offsetof(struct us_thread, output) + o * sizeof(us_vec4));
}

/* Before the first chunk of a batch: the uniforms' rows from
 * env->params, and every row the program reads set as us_thread_reset
 * leaves it (inputs (0, 0, 0, 1), the rest 0) but those of the inputs
 * in `given` (a bit per input register), which the caller writes for
 * every chunk (the components us_soa_reg_reads gives). */
void us_soa_rows_begin(struct us_soa *p, const struct us_exec_env *env,
                       uint64_t given);

/* The program on lanes [0, n) of the rows (n <= US_SOA_WIDTH; `quads`:
 * n a multiple of 4, each run of four a 2x2 quad), as the reference runs
 * threads reset, given those inputs; the killed flags in
 * us_soa_killed(p)[0 .. n). */
void us_soa_rows_run(struct us_soa *p, const struct us_exec_env *env,
                     unsigned n, bool quads);
const uint8_t *us_soa_killed(const struct us_soa *p);

#endif
