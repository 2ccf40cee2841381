/*
 * Upstream tiny-gpu (adam-maj/tiny-gpu @02b6c2c): src/decoder.sv,
 * src/alu.sv, src/pc.sv, src/registers.sv.  docs/seeds/tinygpu.md.
 *
 *    15  12 11   8 7    4 3    0
 *   +------+------+------+------+
 *   |  op  |  rd  |  rs  |  rt  |
 *   |  op  |  rd  |    imm8     |     CONST
 *   |  op  |nzp|0 |   target8   |     BRnzp (nzp = [11:9])
 *   +------+------+------+------+
 *
 * 16 registers of 8 bits: R13 = %blockIdx, R14 = %blockDim, R15 =
 * %threadIdx (writes to them are dropped: registers.sv writes rd < 13
 * only).  256 bytes of data memory shared by both cores: buffer[0].
 *
 * CMP (alu.sv) writes {rs - rt > 0, rs - rt == 0, rs - rt < 0} with the
 * subtraction in 32-bit unsigned arithmetic (the 0 is a 32-bit integer and
 * rs, rt are unsigned), so the first is rs != rt and the last is never
 * set: BRn branches when rs != rt.  Modelled as the RTL computes it.
 */
#include <stdio.h>

#include "seeds/seeds.h"

static const struct seed_field fields[] = {
    { 'd', 8, 4 }, { 's', 4, 4 }, { 't', 0, 4 }, { 'i', 0, 8 },
    { 'T', 0, 8 },
};

#define BR(name, nzp) \
    { name, 0x1000u | (nzp) << 9, 0xff00u, "T", \
      "AND.U q.x, f.x, " #nzp " | BRA.NE.U %L, q.x, 0", NULL }

static const struct seed_form forms[] = {
    { "NOP", 0x0000, 0xffff, "", "MOV.U q.x, 0", NULL },
    BR("BRp", 1), BR("BRz", 2), BR("BRzp", 3), BR("BRn", 4), BR("BRnp", 5),
    BR("BRnz", 6), BR("BRnzp", 7),
    { "CMP", 0x2000, 0xff00, "s,t",
      "SNE.U.W32 f.x, %s, %t | AND.U f.x, f.x, 4 | "
      "SEQ.U.W32 q.x, %s, %t | AND.U q.x, q.x, 2 | OR.U f.x, f.x, q.x", NULL },
    { "ADD", 0x3000, 0xf000, "d,s,t", "ADD.U.W8 %D, %s, %t", NULL },
    { "SUB", 0x4000, 0xf000, "d,s,t", "SUB.U.W8 %D, %s, %t", NULL },
    { "MUL", 0x5000, 0xf000, "d,s,t", "MUL.U.W8 %D, %s, %t", NULL },
    /* rs / 0 is x in the RTL; DIV.U gives all ones (0xff) */
    { "DIV", 0x6000, 0xf000, "d,s,t", "DIV.U.W8 %D, %s, %t", NULL },
    { "LDR", 0x7000, 0xf00f, "d,s", "LOAD.U8 %D, %s, buffer[0]", NULL },
    /* STR Rs, Rt: mem[Rs] = Rt */
    { "STR", 0x8000, 0xff00, "s,t", "STORE.U8 buffer[0].x, %s, %t", NULL },
    { "CONST", 0x9000, 0xf000, "d,#i", "MOV.U %D, %i", NULL },
    { "RET", 0xf000, 0xffff, "", "BRA %E", NULL },
};

static const char *const alias[16] = {
    [13] = "%blockIdx", [14] = "%blockDim", [15] = "%threadIdx",
};

static bool reg(unsigned r, bool write, char *buf, size_t n, char *msg,
                size_t msgn)
{
    static const char *const ids[3] = {
        "invocation.groupid.x", "invocation.groupsize.x",
        "invocation.localid.x"
    };
    (void)msg;
    (void)msgn;
    if (r < 13)
        snprintf(buf, n, "r%u.x", r);
    else if (write)
        snprintf(buf, n, "z.x");   /* dropped, as registers.sv drops it */
    else
        snprintf(buf, n, "%s", ids[r - 13]);
    return true;
}

/* The testbench sets the thread count; the dispatcher makes blocks of
 * THREADS_PER_BLOCK = 4 (%blockDim = 4). */
static bool launch(const struct seed_launch *l, uint32_t *groups,
                   uint32_t *local, struct us_diag *d)
{
    if (l->blocks) {
        d->line = l->blocks_line;
        snprintf(d->msg, sizeof d->msg, "tinygpu: no .blocks: the dispatcher "
                 "makes blocks of 4 from .threads");
        return false;
    }
    if (!l->threads) {
        snprintf(d->msg, sizeof d->msg, "tinygpu: missing .threads (a "
                 "directive in a comment, or --threads)");
        return false;
    }
    if (l->threads % 4) {
        d->line = l->threads_line;
        snprintf(d->msg, sizeof d->msg, "tinygpu: .threads %u: a partly "
                 "filled block (threads not a multiple of 4) is not modelled",
                 l->threads);
        return false;
    }
    *groups = l->threads / 4;
    *local = 4;
    return true;
}

const struct seed_isa seed_tinygpu = {
    .name = "tinygpu", .title = "tiny-gpu", .word_bits = 16, .data_bits = 8,
    .nregs = 16, .alias = alias, .imm_signed = false,
    .fields = fields, .nfields = sizeof fields / sizeof fields[0],
    .forms = forms, .nforms = sizeof forms / sizeof forms[0],
    .temps = "f, q, z", .mem_words = 256, .per_core = false,
    .reg = reg, .launch = launch,
};
