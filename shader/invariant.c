/* ARB_vertex_program 2.14.4.5.1: a program with OPTION
 * ARB_position_invariant does not write result.position; the clip
 * coordinates come from the conventional transform (section 2.10),
 * clip = P * M * position.  This model evaluates it as the program
 * `DP4 result.position.x, state.matrix.mvp.row[0], vertex.position` (and
 * .y .z .w) would: the same rows from the GL state and the same micro-ops,
 * so an explicit and an invariant program give identical positions. */
#include "ushader.h"
#include "isa/micro.h"

void us_position_invariant(const struct us_glstate *gl, const float pos[4],
                           float out[4])
{
    float clip[4];
    for (unsigned row = 0; row < 4; row++) {
        struct us_state_ref ref = { .item = US_STATE_MATRIX_ROW,
                                    .a = US_MATRIX_MVP, .b = 0,
                                    .c = US_MOD_NONE, .d = (uint8_t)row };
        float m[4];
        us_glstate_fetch(gl, ref, m);
        clip[row] = micro_dp4(m, pos);
    }
    for (int c = 0; c < 4; c++)
        out[c] = clip[c];
}
