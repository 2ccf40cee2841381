/*
 * The vec4 back end's passes (glsl/pass_*.c): what turns the translator's
 * literal output into code of a production compiler's size.  Each pass
 * keeps every component's exact sequence of floating-point operations (no
 * reassociation, no contraction): it only removes copies and dead work,
 * folds swizzles and negations into operands, and merges independent
 * component-wise instructions into one.
 *
 * The order is in one place, glsl/passes.c:
 *   on virtual registers (before spirv_width.c and allocation):
 *     pass_constfold  products with the constant 1 are their other factor
 *     pass_copyprop   readers of a copy read its source instead; copies
 *                     from several sources split, then propagated again;
 *                     pass_constfold again for the constants it brought,
 *                     and pass_algebraic: exact identities (x + -0, a * -1,
 *                     constant operands evaluated by the micro-ops)
 *     pass_localprop  the same within straight-line code, for copies of
 *                     registers assigned more than once
 *     pass_deadstore  then writes of components nobody reads before they
 *                     are written again (straight-line code)
 *     pass_dce        instructions whose register nobody reads go
 *     pass_ifconv     a small IF of pure float arms becomes both arms and
 *                     a CMP per value (then pass_copyprop, pass_dce)
 *     pass_constprop  constants copied into a variable are read directly
 *                     in the straight-line code after (then pass_copyprop)
 *     pass_constfold  again, for the constants copy propagation brought
 *     pass_vectorize  (below) on the virtual registers and constants
 *     pass_cse        work done twice in straight-line code is done once
 *     pass_dce        again, for what pass_cse left unread
 *     pass_madfuse    a product read by one sum alone is its MAD
 *     pass_coalesce   the instruction computing a copied value writes
 *                     the copy's register
 *     pass_outputs    the instruction computing an output writes it
 *   on virtual registers cut to their widths (spirv_width.c):
 *     pass_pack       two same-operation values from the same sources
 *                     share one register, and pass_vectorize joins them
 *   on TEMPs (after regalloc.c has placed them):
 *     pass_selfmove   copies of components onto themselves go
 *     pass_vectorize  same-operation component chains become one
 *                     instruction
 *   on the finished struct us_program (its parameters laid out):
 *     pass_hoist      work on uniforms alone moves to the preshader, done
 *                     once per draw (us_program.pre)
 * The passes work on struct spv (glsl/spirv.h): insts[0 .. ninsts), and
 * for the virtual ones nvregs and vreg_ssa.  A pass never fails: out of
 * memory, it leaves the code as it was (correct, only larger).
 */
#ifndef GLSL_PASSES_H
#define GLSL_PASSES_H

#include <stdbool.h>

#include "glsl/spirv.h"

/* Before allocation; after spirv_width.c's narrowing (true when the code
 * changed: the widths are then computed again); after allocation; on the
 * finished program. */
void us_passes_virtual(struct spv *s);
bool us_passes_narrowed(struct spv *s);
void us_passes_physical(struct spv *s);
void us_passes_program(struct us_program *p);

/* The passes, each in its own file; true when the code changed. */
bool pass_constfold(struct spv *s);
bool pass_algebraic(struct spv *s);
bool pass_copyprop(struct spv *s);
bool pass_split_copies(struct spv *s);
bool pass_localprop(struct spv *s);
bool pass_deadstore(struct spv *s);
bool pass_dce(struct spv *s);
bool pass_ifconv(struct spv *s);
bool pass_constprop(struct spv *s);
bool pass_cse(struct spv *s);
bool pass_madfuse(struct spv *s);
bool pass_coalesce(struct spv *s);
bool pass_outputs(struct spv *s);
bool pass_pack(struct spv *s);
bool pass_selfmove(struct spv *s);
bool pass_vectorize(struct spv *s);
bool pass_hoist(struct us_program *p);

/* Shared by the passes (glsl/passes.c). */
bool pass_is_flow(unsigned op);
/* target[i]: some BRA jumps to instruction i; n + 1 entries. */
void pass_branch_targets(const struct spv *s, bool *target);
/* Drop the instructions marked dead (BRA targets follow); true when some
 * were.  Needs n + 1 entries of scratch; false without them. */
bool pass_compact(struct spv *s, const bool *dead);
/* Operand x reads its register's components unchanged at the positions of
 * mask (no negation, no relative address). */
bool pass_identity(const struct us_src *x, unsigned mask);
/* Whether instruction `in` writes a TEMP (not flow, KIL or a condition). */
bool pass_writes_temp(const struct us_inst *in);

#endif
