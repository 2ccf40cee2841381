/*
 * The FPGA SIMT GPU (seed 002, 123-code/gpu_design @098735a, a fork of
 * tiny-gpu): src/decoder.sv, src/alu.sv, src/lsu.sv and its assembler
 * software/src/main.rs.  docs/seeds/fpga.md.
 *
 *    15  12 11  9 8   6 5     0
 *   +------+-----+-----+-------+
 *   |  op  | rd  | rs  |  imm6 |     imm6 overlaps rt = [2:0]
 *   |  op  | nzp |   target8    |     BR{n,z,p}
 *   +------+-----+-----+-------+
 *
 * 8 addressable registers of 8 bits (R13..R15 only through TID/BID/BDIM);
 * data memory 8 KiB per core, each block on its own core with its own
 * copy: byte a of block b is byte b*8192 + a of buffer[0].  The
 * translation keeps per lane: the CMP flags (f), the read and write bases
 * of LDR/STR (rb, wb), the MAC buffer's eight pixel/weight slots and its
 * write pointer (mp0 mp1, mw0 mw1, mq).
 */
#include <stdio.h>
#include <string.h>

#include "seeds/seeds.h"

static const struct seed_field fields[] = {
    { 'd', 9, 3 }, { 's', 6, 3 }, { 't', 0, 3 }, { 'i', 0, 6 },
    { 'b', 0, 2 }, { 'T', 0, 8 },
};

#define ADDR(base) \
    "ADD.U.W32 a.x, " base ".x, %s | AND.U.W32 a.x, a.x, 8191 | " \
    "MUL.U.W32 c.x, invocation.groupid.x, 8192 | ADD.U.W32 a.x, a.x, c.x"
#define CMP_FLAGS \
    "SLT.U.W32 f.x, %s, %t | AND.U f.x, f.x, 4 | " \
    "SEQ.U.W32 q.x, %s, %t | AND.U q.x, q.x, 2 | OR.U f.x, f.x, q.x | " \
    "SGT.U.W32 q.x, %s, %t | AND.U q.x, q.x, 1 | OR.U f.x, f.x, q.x"
#define BR(name, nzp, m) \
    { name, 0x8000u | (nzp) << 9, 0xff00u, "T", \
      "AND.U q.x, f.x, " #m " | BRA.NE.U %L, q.x, 0", NULL }
/* MACL: the pair (rs, rt) into slot mq while mq < 8 (core.sv) */
#define MACL \
    "SEQ.U.W32 k0, mq.x, {0, 1, 2, 3} | SEQ.U.W32 k1, mq.x, {4, 5, 6, 7} | " \
    "CMP.S.W32 mp0, k0, %s, mp0 | CMP.S.W32 mp1, k1, %s, mp1 | " \
    "CMP.S.W32 mw0, k0, %t, mw0 | CMP.S.W32 mw1, k1, %t, mw1 | " \
    "ADD.U.W32 mq.x, mq.x, 1 | MIN.U.W32 mq.x, mq.x, 8"
/* MAC: byte b of the sum of unsigned pixel x signed weight over the eight
 * slots (vector_mac.sv); the write pointer back to 0 */
#define MAC \
    "SHL.U.W32 e0, mw0, 24 | SHR.S.W32 e0, e0, 24 | " \
    "SHL.U.W32 e1, mw1, 24 | SHR.S.W32 e1, e1, 24 | " \
    "MUL.U.W32 e0, e0, mp0 | MUL.U.W32 e1, e1, mp1 | ADD.U.W32 e0, e0, e1 | " \
    "ADD.U.W32 e0.x, e0.x, e0.y | ADD.U.W32 e0.x, e0.x, e0.z | " \
    "ADD.U.W32 e0.x, e0.x, e0.w | SHR.U.W32 e0.x, e0.x, %8 | " \
    "AND.U.W32 %D, e0.x, 255 | MOV.U mq.x, 0"

static const struct seed_form forms[] = {
    /* the FC-MAC coprocessor (opcode 0000, sub-function in [5:4]) */
    { "FRST", 0x0000, 0xffff, "", NULL, NULL },
    { "FMAC", 0x0010, 0xfe38, "s,t", NULL, NULL },
    { "FARG", 0x0020, 0xffff, "", NULL, NULL },
    { "FBEST", 0x0030, 0xf1ff, "d", NULL, NULL },
    { "ADD", 0x1000, 0xf038, "d,s,t", "ADD.U.W8 %D, %s, %t", NULL },
    /* the identity reads: MOV with rs = 1, 2, 3 (registers.sv) */
    { "TID", 0x2040, 0xf1ff, "d", "MOV.U %D, invocation.localid.x", NULL },
    { "BID", 0x2080, 0xf1ff, "d", "MOV.U %D, invocation.groupid.x", NULL },
    { "BDIM", 0x20c0, 0xf1ff, "d", "MOV.U %D, invocation.groupsize.x", NULL },
    { "MOV", 0x2000, 0xf1c0, "d,#i", "MOV.U %D, %i", NULL },
    { "CMP", 0x3000, 0xfe38, "s,t", CMP_FLAGS, NULL },
    { "LDR", 0x4000, 0xf03f, "d,[s]", ADDR("rb") " | LOAD.U8 %D, a.x, buffer[0]",
      NULL },
    { "ADDI", 0x5000, 0xf000, "d,s,#i", "ADD.U.W8 %D, %s, %i", NULL },
    { "ADD", 0x5000, 0xf000, "d,s,#i", "ADD.U.W8 %D, %s, %i", NULL },
    { "MACL", 0x6000, 0xfe3f, "s", MACL, NULL },
    { "MACL", 0x6000, 0xfe38, "s,t", MACL, NULL },
    { "MAC", 0x7000, 0xf1fc, "d,#b", MAC, NULL },
    { "MAC", 0x7000, 0xf1ff, "d", MAC, NULL },
    BR("BRp", 1, 1), BR("BRz", 2, 2), BR("BRzp", 3, 3), BR("BRn", 4, 4),
    BR("BRnp", 5, 5), BR("BRnz", 6, 6), BR("BR", 7, 7),
    { "ADDB", 0x9000, 0xffc0, "#i",
      "ADD.U.W32 rb.x, rb.x, %i | AND.U.W32 rb.x, rb.x, 8191", NULL },
    { "WBASE", 0x9800, 0xffc0, "#i",
      "ADD.U.W32 wb.x, wb.x, %i | AND.U.W32 wb.x, wb.x, 8191", NULL },
    { "MUL", 0xa000, 0xf038, "d,s,t", "MUL.U.W8 %D, %s, %t", NULL },
    /* STR Rdata, [Raddr]: rs = 63 is the UART, modelled as a plain store */
    { "STR", 0xb000, 0xfe38, "t,[s]",
      ADDR("wb") " | STORE.U8 buffer[0].x, a.x, %t", NULL },
    /* shifts by rt[2:0]: the word's width, 8 */
    { "SHR", 0xc000, 0xf038, "d,s,t", "SHR.U.W8 %D, %s, %t", NULL },
    { "SHL", 0xd000, 0xf038, "d,s,t", "SHL.U.W8 %D, %s, %t", NULL },
    { "SUB", 0xe000, 0xf038, "d,s,t", "SUB.U.W8 %D, %s, %t", NULL },
    { "RET", 0xf000, 0xffff, "", "BRA %E", NULL },
    { "SYNC", 0xf001, 0xffff, "", "SYNC%J", NULL },
    /* MAX Rd, Ra, Rb (main.rs): Rd = Ra; CMP Rb, Ra; BRn skip; Rd = Rb */
    { "MAX", 0, 0, "d,s,t", NULL,
      "ADDI %d, %s, #0\nCMP %t, %s\nBRn %P+4\nADDI %d, %t, #0" },
};

static bool reg(unsigned r, bool write, char *buf, size_t n, char *msg,
                size_t msgn)
{
    (void)write;
    (void)msg;
    (void)msgn;
    snprintf(buf, n, "r%u.x", r);
    return true;
}

static bool launch(const struct seed_launch *l, uint32_t *groups,
                   uint32_t *local, struct us_diag *d)
{
    if (!l->blocks || !l->threads) {
        snprintf(d->msg, sizeof d->msg, "fpga: missing %s (a directive in a "
                 "comment, or --%s)", l->blocks ? ".threads" : ".blocks",
                 l->blocks ? "threads" : "blocks");
        return false;
    }
    if (l->blocks > 2) {
        d->line = l->blocks_line;
        snprintf(d->msg, sizeof d->msg, "fpga: .blocks %u: the dispatcher "
                 "gives block b to core b once, and there are 2 cores",
                 l->blocks);
        return false;
    }
    if (l->threads > 64) {
        d->line = l->threads_line;
        snprintf(d->msg, sizeof d->msg, "fpga: .threads %u: BLOCK_DIM is at "
                 "most 64 here (the default build runs 8: 2 warps x 4 lanes)",
                 l->threads);
        return false;
    }
    *groups = l->blocks;
    *local = l->threads;
    return true;
}

static bool is(const struct seed_form *f, const char *name)
{
    return f && !strcmp(f->mnemonic, name);
}

static bool is_branch(const struct seed_form *f)
{
    return f && !strncmp(f->mnemonic, "BR", 2);
}

/* The SYNC pairing rule (docs/seeds/fpga.md): a forward BR whose taken
 * path (from its target, straight on) reaches a SYNC before any RET or
 * branch is a divergent branch, that SYNC its taken path's end.  The
 * hardware runs the taken lanes first and that SYNC pops to the stay path
 * (the BR's fall-through), whose own end, a SYNC (the stack is empty: all
 * lanes go on after it) or RET (the warp ends), is where a taken thread
 * resumes: join = the instruction after the stay path's SYNC, or the end.
 * A stay path that reaches the target first needs no pairing (the paths
 * meet by falling through, as MAX's); one that branches before its end
 * (nested divergence, which commit ee31d49 says the RTL does not
 * reconverge) is refused. */
static bool joins(const struct seed_isa *isa, const struct seed_kernel *k,
                  uint32_t *join, struct us_diag *d)
{
    size_t n = k->n;
    for (size_t pc = 0; pc <= n; pc++)
        join[pc] = UINT32_MAX;
    for (size_t b = 0; b < n; b++) {
        if (!is_branch(seed_decode(isa, k->words[b])))
            continue;
        uint32_t t = seed_field(isa, 'T', k->words[b]);
        if (t <= b)
            continue;   /* a loop */
        size_t s = t;
        for (; s < n; s++) {
            const struct seed_form *f = seed_decode(isa, k->words[s]);
            if (is(f, "SYNC") || is(f, "RET") || is_branch(f))
                break;
        }
        if (s >= n || !is(seed_decode(isa, k->words[s]), "SYNC"))
            continue;
        uint32_t j = (uint32_t)n;
        for (size_t p = b + 1; p < n; p++) {
            const struct seed_form *f = seed_decode(isa, k->words[p]);
            if (p == t) {
                j = UINT32_MAX;
                break;
            }
            if (is(f, "SYNC")) {
                j = (uint32_t)p + 1;
                break;
            }
            if (is(f, "RET"))
                break;
            if (is_branch(f)) {
                d->line = k->lines[p];
                snprintf(d->msg, sizeof d->msg, "fpga: the stay path of the "
                         "branch at line %u branches (at word %zu) before its "
                         "SYNC or RET: nested divergence has no join the "
                         "SYNC at line %u could go to", k->lines[b], p,
                         k->lines[s]);
                return false;
            }
        }
        if (j == UINT32_MAX)
            continue;
        if (join[s] != UINT32_MAX && join[s] != j) {
            d->line = k->lines[s];
            snprintf(d->msg, sizeof d->msg, "fpga: the SYNC at line %u closes "
                     "the taken paths of two branches with different joins "
                     "(words %u and %u)", k->lines[s], join[s], j);
            return false;
        }
        join[s] = j;
    }
    return true;
}

const struct seed_isa seed_fpga = {
    .name = "fpga", .title = "FPGA fork", .word_bits = 16, .data_bits = 8,
    .nregs = 8, .alias = NULL, .imm_signed = false,
    .fields = fields, .nfields = sizeof fields / sizeof fields[0],
    .forms = forms, .nforms = sizeof forms / sizeof forms[0],
    .temps = "f, q, a, c, rb, wb, mp0, mp1, mw0, mw1, mq, k0, k1, e0, e1",
    .mem_words = 8192, .per_core = true,
    .reg = reg, .launch = launch, .joins = joins,
};
