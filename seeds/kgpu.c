/*
 * kGPU (seed 003, neight777/kGPU): RTL/pkg/types.sv and the testbench's
 * enc() (Testbenches/gpu_testbench.py).  docs/seeds/kgpu.md.
 *
 *    31    26 25  21 20  16 15  11 10         0
 *   +--------+------+------+------+------------+
 *   |   op   |  rs  |  rt  |  rd  |     0      |   ADD SUB MUL DIV
 *   |   op   |  rs  |  rt  |      imm16        |   BEQ BNE BLT (target)
 *   |   op   |  rs  |  0   |      imm16        |   MOV Rs, #imm16
 *   +--------+------+------+-------------------+
 *
 * 32 registers of 16 bits per lane; r29 = %threadIdx, r30 = %blockIdx,
 * r31 = %blockDim, the others zero at launch.  Data memory: 64 Ki words
 * of 16 bits, word a at byte 2a of buffer[0].
 */
#include <stdio.h>

#include "seeds/seeds.h"

static const struct seed_field fields[] = {
    { 's', 21, 5 }, { 't', 16, 5 }, { 'd', 11, 5 }, { 'i', 0, 16 },
    { 'T', 0, 16 },
};

#define OP(n) ((uint32_t)(n) << 26)
#define R3 (OP(63) | 0x7ffu)              /* opcode, bits [10:0] zero   */
#define RI OP(63)                         /* opcode only                */

static const struct seed_form forms[] = {
    { "NOP", OP(0), 0xffffffffu, "", "MOV.U a.x, 0", NULL },
    { "ADD", OP(1), R3, "d,s,t", "ADD.U.W16 %D, %s, %t", NULL },
    { "SUB", OP(2), R3, "d,s,t", "SUB.U.W16 %D, %s, %t", NULL },
    { "MUL", OP(3), R3, "d,s,t", "MUL.U.W16 %D, %s, %t", NULL },
    /* "DIV -> NON FUNCTIONAL" (seed 003): the RTL's divider returns 0 */
    { "DIV", OP(4), R3, "d,s,t", "MOV.U %D, 0", NULL },
    /* STR: mem[Rt] = Rs; LDR: Rs = mem[Rt] (16-bit words) */
    { "STR", OP(5), OP(63) | 0xffffu, "s,t",
      "SHL.U.W32 a.x, %t, 1 | STORE.U16 buffer[0].x, a.x, %s", NULL },
    { "LDR", OP(6), OP(63) | 0xffffu, "s,t",
      "SHL.U.W32 a.x, %t, 1 | LOAD.U16 %S, a.x, buffer[0]", NULL },
    { "RET", OP(7), 0xffffffffu, "", "BRA %E", NULL },
    { "MOV", OP(8), OP(63) | (31u << 16), "s,#i", "MOV.U %S, %i", NULL },
    { "BEQ", OP(9), RI, "s,t,T", "BRA.EQ.U %L, %s, %t", NULL },
    { "BNE", OP(10), RI, "s,t,T", "BRA.NE.U %L, %s, %t", NULL },
    { "BLT", OP(11), RI, "s,t,T", "BRA.LT.S %L, %s, %t", NULL },
    { "B", OP(12), OP(63) | (0x3ffu << 16), "T", "BRA %L", NULL },
};

static const char *const alias[32] = {
    [29] = "%threadIdx", [30] = "%blockIdx", [31] = "%blockDim",
};

static bool reg(unsigned r, bool write, char *buf, size_t n, char *msg,
                size_t msgn)
{
    static const char *const ids[3] = {
        "invocation.localid.x", "invocation.groupid.x",
        "invocation.groupsize.x"
    };
    if (r < 29) {
        snprintf(buf, n, "r%u.x", r);
        return true;
    }
    if (write) {
        snprintf(msg, msgn, "writes %s (r%u): the translation reads it from "
                 "%s, so a kernel may not change it", alias[r], r, ids[r - 29]);
        return false;
    }
    snprintf(buf, n, "%s", ids[r - 29]);
    return true;
}

static bool launch(const struct seed_launch *l, uint32_t *groups,
                   uint32_t *local, struct us_diag *d)
{
    if (!l->blocks || !l->threads) {
        snprintf(d->msg, sizeof d->msg, "kgpu: missing %s (a directive or "
                 "--%s)", l->blocks ? ".threads" : ".blocks",
                 l->blocks ? "threads" : "blocks");
        return false;
    }
    if (l->threads > 32) {
        d->line = l->threads_line;
        snprintf(d->msg, sizeof d->msg, "kgpu: .threads %u: a block is one "
                 "warp of at most 32 lanes (thread_enable)", l->threads);
        return false;
    }
    *groups = l->blocks;
    *local = l->threads;
    return true;
}

const struct seed_isa seed_kgpu = {
    .name = "kgpu", .title = "kGPU", .word_bits = 32, .data_bits = 16,
    .nregs = 32, .alias = alias, .imm_signed = true,
    .fields = fields, .nfields = sizeof fields / sizeof fields[0],
    .forms = forms, .nforms = sizeof forms / sizeof forms[0],
    .temps = "a", .mem_words = 65536, .per_core = false,
    .reg = reg, .launch = launch,
};
