/* Mesa's TGSI as text (suite/tgsi.c): the static figures of a program
 * softpipe printed (SOFTPIPE_DEBUG=fs,vs), counted like our vec4 code's
 * (isa/scalar_stats.c), so the glmark2 report and tools/tgsi_count can
 * set Mesa's instruction mix beside ours (issue 20). */
#ifndef US_SUITE_TGSI_H
#define US_SUITE_TGSI_H

#include <stdbool.h>
#include <stddef.h>

#include "ushader.h"

/* Counted over the numbered instruction lines; END (which our IR does not
 * have) is left out, DCL, IMM and PROPERTY lines are not instructions,
 * flow instructions (IF, UIF, ELSE, ENDIF, BGNLOOP, ENDLOOP, BRK, CONT)
 * count one each, as ours do; a loop counts its body once. */
struct us_tgsi_stats {
    unsigned instructions;
    /* as us_code_stats' width_hist: [1..4] the components an ALU
     * instruction computes (its write mask; none = four; a dot product
     * its length, RCP/RSQ/EX2/LG2/POW/SIN/COS/SQRT and ARL one, KILL_IF
     * its distinct source components); [0] texture fetches and flow */
    unsigned width_hist[5];
    unsigned tex;      /* texture fetches (TEX, TXP, TXB, TXL, TXF, ...) */
    unsigned loops;    /* BGNLOOPs: a loop one compiler unrolled and the
                        * other kept makes the static counts unlike */
    unsigned ops;      /* useful ALU ops (us_inst_useful_ops) */
    unsigned issued;   /* instructions that take an issue slot: the ALU
                        * ones and the texture fetches (us_inst_width > 0) */
};

/* The figures of one TGSI program (a block us_tgsi_block found, or a
 * file of one).  False with diag (line, column, message) on a numbered
 * line whose opcode or destination cannot be read. */
US_MUST_CHECK bool us_tgsi_stats(const char *text, size_t len,
                                 struct us_tgsi_stats *st,
                                 struct us_diag *diag);

/* The last program of `kind` ("VERT" or "FRAG") in softpipe's output
 * `log`: from its header line to the last line of TGSI text after it
 * (PROPERTY, DCL, IMM and numbered lines), so the NIR dumps, piglit's
 * lines and other blocks around it are left out.  False when `log` has
 * no such block with an instruction. */
bool us_tgsi_block(const char *log, size_t len, const char *kind,
                   const char **start, size_t *n);

#endif
