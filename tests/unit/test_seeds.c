/*
 * The seeds' front ends (seeds/seeds.h, docs/seeds/): each ISA's encoding
 * table is a partition of the word, every instruction form round-trips
 * word -> text -> word, the published kGPU encodings, assembler errors
 * with line:col, every translatable form's IR group assembles, and the
 * FPGA fork's SYNC pairing rule.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ushader.h"
#include "seeds/seeds.h"

#include "check_main.h"

static const struct seed_isa *const isas[] = {
    &seed_kgpu, &seed_fpga, &seed_tinygpu
};
enum { NISAS = sizeof isas / sizeof isas[0] };

static uint32_t full(const struct seed_isa *isa)
{
    return isa->word_bits == 32 ? 0xffffffffu : (1u << isa->word_bits) - 1;
}

/* Each form: match inside mask, operand fields disjoint from the mask and
 * from each other, and mask + fields = the whole word. */
START_TEST(encoding_tables)
{
    for (int i = 0; i < NISAS; i++) {
        const struct seed_isa *isa = isas[i];
        for (unsigned f = 0; f < isa->nforms; f++) {
            const struct seed_form *fm = &isa->forms[f];
            if (fm->expand)
                continue;
            uint32_t ops = seed_operand_bits(isa, fm);
            ck_assert_msg((fm->match & ~fm->mask) == 0, "%s %s: match outside "
                          "mask", isa->name, fm->mnemonic);
            ck_assert_msg((ops & fm->mask) == 0, "%s %s: a field overlaps the "
                          "mask", isa->name, fm->mnemonic);
            ck_assert_msg((ops | fm->mask) == full(isa), "%s %s: bits %#x "
                          "belong to nothing", isa->name, fm->mnemonic,
                          full(isa) & ~(ops | fm->mask));
        }
    }
}
END_TEST

static uint32_t assemble_one(const struct seed_isa *isa, const char *text)
{
    struct seed_kernel k;
    struct us_diag d;
    ck_assert_msg(seed_assemble(isa, text, strlen(text), &k, &d),
                  "%s: '%s': %u:%u: %s", isa->name, text, d.line, d.col, d.msg);
    ck_assert_uint_eq(k.n, 1);
    uint32_t w = k.words[0];
    seed_kernel_free(&k);
    return w;
}

/* Every form with several operand patterns: word -> text -> word. */
START_TEST(round_trips)
{
    static const uint32_t patterns[] = {
        0, 0xffffffffu, 0x55555555u, 0xaaaaaaaau, 0x12345678u, 0x0f0f0f0fu
    };
    unsigned checked = 0;
    for (int i = 0; i < NISAS; i++) {
        const struct seed_isa *isa = isas[i];
        for (unsigned f = 0; f < isa->nforms; f++) {
            const struct seed_form *fm = &isa->forms[f];
            if (fm->expand)
                continue;
            for (size_t p = 0; p < sizeof patterns / sizeof patterns[0]; p++) {
                uint32_t w = fm->match | (patterns[p] & seed_operand_bits(isa, fm));
                char text[128];
                seed_disassemble(isa, w, false, text, sizeof text);
                ck_assert_msg(seed_decode(isa, w) != NULL, "%s", text);
                uint32_t back = assemble_one(isa, text);
                ck_assert_msg(back == w, "%s: %#x -> '%s' -> %#x", isa->name,
                              w, text, back);
                checked++;
            }
        }
        /* a word no form encodes: .word, which assembles back */
        char text[64];
        uint32_t odd = isa == &seed_kgpu ? 0xfc000000u : 0x1038u;
        ck_assert_ptr_null(seed_decode(isa, odd));
        seed_disassemble(isa, odd, false, text, sizeof text);
        ck_assert_msg(!strncmp(text, ".word", 5), "%s", text);
        ck_assert_uint_eq(assemble_one(isa, text), odd);
    }
    ck_assert_uint_gt(checked, 200);
}
END_TEST

/* Seed 003's encodings (Testbenches/gpu_testbench.py enc()). */
START_TEST(kgpu_encodings)
{
    ck_assert_uint_eq(assemble_one(&seed_kgpu, "MOV R1, #5"), 0x20200005u);
    ck_assert_uint_eq(assemble_one(&seed_kgpu, "ADD R4, R3, R29"), 0x047d2000u);
    ck_assert_uint_eq(assemble_one(&seed_kgpu, "ADD R4, R3, %threadIdx"),
                      0x047d2000u);
    ck_assert_uint_eq(assemble_one(&seed_kgpu, "mul r3, %blockIdx, %blockDim"),
                      0x0fdf1800u);
    ck_assert_uint_eq(assemble_one(&seed_kgpu, "BEQ R1, R0, 7"), 0x24200007u);
    ck_assert_uint_eq(assemble_one(&seed_kgpu, "MOV R1, #-1"), 0x2020ffffu);
    char text[64];
    seed_disassemble(&seed_kgpu, 0x047d2000u, false, text, sizeof text);
    ck_assert_str_eq(text, "ADD R4, R3, %threadIdx");
    /* the fork's pseudo-op MAX: four words (software/src/main.rs) */
    const char *max = "MAX R1, R2, R3\n";
    struct seed_kernel k;
    struct us_diag d;
    ck_assert(seed_assemble(&seed_fpga, max, strlen(max), &k, &d));
    ck_assert_uint_eq(k.n, 4);
    ck_assert_uint_eq(k.words[0], 0x5280);   /* ADDI R1, R2, #0 */
    ck_assert_uint_eq(k.words[1], 0x30c2);   /* CMP R3, R2      */
    ck_assert_uint_eq(k.words[2], 0x8804);   /* BRn 4           */
    ck_assert_uint_eq(k.words[3], 0x52c0);   /* ADDI R1, R3, #0 */
    seed_kernel_free(&k);
}
END_TEST

static const struct {
    const struct seed_isa *isa;
    const char *text;
    unsigned line, col;
    const char *msg;
} asm_errors[] = {
    { &seed_kgpu, "MOV R1, #5\nFOO R1\n", 2, 1, "unknown kGPU instruction 'FOO'" },
    { &seed_kgpu, "ADD R1, R2, R32\n", 1, 13, "register R32 out of range (R0..R31)" },
    { &seed_fpga, "  ADD R1, R8, R2\n", 1, 11, "register R8 out of range (R0..R7)" },
    { &seed_fpga, "MOV R1, #64\n", 1, 9, "immediate 64 out of range (0..63)" },
    { &seed_kgpu, "MOV R1, #65536\n", 1, 9,
      "immediate 65536 out of range (-32768..65535)" },
    { &seed_tinygpu, "CONST R1, #256\n", 1, 11, "immediate 256 out of range (0..255)" },
    { &seed_tinygpu, "BRn nowhere\n", 1, 5, "undefined label 'nowhere'" },
    { &seed_kgpu, "ADD R1, R2\n", 1, 1, "ADD takes operands d,s,t" },
    { &seed_kgpu, "ADD R1, R2, #3\n", 1, 13, "ADD: expected a register, found '#3'" },
    { &seed_fpga, "x: RET\nx: RET\n", 2, 1, "label x defined twice" },
    { &seed_kgpu, ".blocks 0\n", 1, 9, ".blocks 0 out of range (1..65535)" },
    { &seed_fpga, "// .threads 4\n// .threads 8\n", 2, 4, ".threads given twice" },
    { &seed_kgpu, ".data @65535 1 2\n", 1, 16,
      ".data: word 65536 lies beyond the data memory (65536 words)" },
    { &seed_kgpu, ".fill 3\n", 1, 1, "unknown directive '.fill'" },
};

START_TEST(assembler_errors)
{
    for (size_t i = 0; i < sizeof asm_errors / sizeof asm_errors[0]; i++) {
        struct seed_kernel k;
        struct us_diag d;
        const char *t = asm_errors[i].text;
        ck_assert_msg(!seed_assemble(asm_errors[i].isa, t, strlen(t), &k, &d),
                      "accepted: %s", t);
        ck_assert_msg(d.line == asm_errors[i].line && d.col == asm_errors[i].col &&
                      !strcmp(d.msg, asm_errors[i].msg),
                      "%s-> %u:%u: %s\n(want %u:%u: %s)", t, d.line, d.col, d.msg,
                      asm_errors[i].line, asm_errors[i].col, asm_errors[i].msg);
    }
}
END_TEST

static char *translate(const struct seed_isa *isa, const char *text,
                       struct us_diag *d)
{
    struct seed_kernel k;
    ck_assert_msg(seed_assemble(isa, text, strlen(text), &k, d), "%s", d->msg);
    char *ir = NULL;
    if (!seed_translate(isa, &k, &k.launch, &ir, d))
        ir = NULL;
    seed_kernel_free(&k);
    return ir;
}

/* Every form's IR group assembles (a one-instruction kernel + RET), and
 * the group is one source instruction: joined after its first part. */
START_TEST(every_form_translates)
{
    static const char *const launch[NISAS] = {
        ".blocks 2\n.threads 4\n", "// .blocks 2\n// .threads 4\n",
        "; .threads 8\n"
    };
    for (int i = 0; i < NISAS; i++) {
        const struct seed_isa *isa = isas[i];
        for (unsigned f = 0; f < isa->nforms; f++) {
            const struct seed_form *fm = &isa->forms[f];
            if (fm->expand || !fm->ir)
                continue;
            /* registers 1, 2, 3, immediates 3 and target 1 (the RET) */
            uint32_t w = fm->match;
            char text[256], dis[96];
            for (const char *p = fm->operands; *p; p++)
                w = seed_field_set(isa, *p, w, *p == 'd' ? 1 : *p == 's' ? 2 :
                                   *p == 'T' ? 1 : 3);
            seed_disassemble(isa, w, false, dis, sizeof dis);
            snprintf(text, sizeof text, "%s%s\nRET\n", launch[i], dis);
            struct us_diag d;
            char *ir = translate(isa, text, &d);
            ck_assert_msg(ir, "%s: %s: %s", isa->name, dis, d.msg);
            struct us_program prog;
            ck_assert_msg(us_assemble(ir, strlen(ir), US_STAGE_COMPUTE, &prog, &d),
                          "%s: %s: IR %u:%u: %s\n%s", isa->name, dis, d.line,
                          d.col, d.msg, ir);
            ck_assert_uint_ge(prog.ninsts, 2);
            ck_assert(!prog.insts[0].joined);
            us_program_free(&prog);
            free(ir);
        }
    }
}
END_TEST

START_TEST(sync_pairing)
{
    struct us_diag d;
    /* divmerge (software/divmerge_kernel.asm): the taken path's SYNC goes
     * to the instruction after the stay path's SYNC */
    const char *divmerge =
        "// .blocks 1\n// .threads 4\nTID R1\nMOV R2, #2\nCMP R1, R2\n"
        "BRn t\nMOV R3, #20\nSYNC\nMOV R4, #7\nRET\nt: MOV R3, #10\nSYNC\n";
    char *ir = translate(&seed_fpga, divmerge, &d);
    ck_assert_msg(ir, "%s", d.msg);
    ck_assert_msg(strstr(ir, "SYNC |\n    BRA L6;"), "%s", ir);
    ck_assert_msg(strstr(ir, "SYNC;\nL6:"), "%s", ir);
    free(ir);
    /* divergence: the stay path ends in RET, so the join is the end */
    const char *divergence =
        "// .blocks 1\n// .threads 4\nTID R1\nMOV R2, #2\nCMP R1, R2\n"
        "BRn t\nMOV R3, #20\nRET\nt: MOV R3, #10\nSYNC\n";
    ck_assert_ptr_nonnull(ir = translate(&seed_fpga, divergence, &d));
    ck_assert_msg(strstr(ir, "SYNC |\n    BRA end;"), "%s", ir);
    free(ir);
    /* nested divergence in the stay path: refused */
    const char *nested =
        "// .blocks 1\n// .threads 4\nTID R1\nCMP R1, R2\nBRn t\nCMP R1, R3\n"
        "BRz u\nu: SYNC\nRET\nt: MOV R3, #10\nSYNC\n";
    ck_assert_ptr_null(translate(&seed_fpga, nested, &d));
    ck_assert_uint_eq(d.line, 7);
    ck_assert_msg(strstr(d.msg, "nested divergence"), "%s", d.msg);
    /* a loop (backward BR) and MAX's forward BR pair nothing */
    const char *loop = "// .blocks 1\n// .threads 4\nl: ADDI R1, R1, #1\n"
                       "CMP R1, R2\nBRn l\nMAX R3, R1, R2\nSYNC\n";
    ck_assert_ptr_nonnull(ir = translate(&seed_fpga, loop, &d));
    ck_assert_msg(!strstr(ir, "SYNC |"), "%s", ir);
    free(ir);
}
END_TEST

START_TEST(launch_errors)
{
    struct us_diag d;
    ck_assert_ptr_null(translate(&seed_kgpu, ".threads 8\nRET\n", &d));
    ck_assert_str_eq(d.msg, "kgpu: missing .blocks (a directive or --blocks)");
    ck_assert_ptr_null(translate(&seed_fpga, "// .blocks 3\n// .threads 8\nRET\n",
                                 &d));
    ck_assert_uint_eq(d.line, 1);
    ck_assert_ptr_null(translate(&seed_tinygpu, "; .threads 6\nRET\n", &d));
    ck_assert_msg(strstr(d.msg, "multiple of 4"), "%s", d.msg);
    ck_assert_ptr_null(translate(&seed_kgpu, ".blocks 1\n.threads 1\n"
                                 "MOV %threadIdx, #1\n", &d));
    ck_assert_uint_eq(d.line, 3);
    ck_assert_ptr_null(translate(&seed_kgpu, ".blocks 1\n.threads 1\nB 5\n", &d));
    ck_assert_str_eq(d.msg, "branch target 5 lies beyond the kernel's 1 "
                     "instructions");
    ck_assert_ptr_null(translate(&seed_fpga, "// .blocks 1\n// .threads 1\n"
                                 "FRST\n", &d));
    ck_assert_msg(strstr(d.msg, "FRST is not modelled"), "%s", d.msg);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("seeds");
    TCase *tc = tcase_create("seeds");
    tcase_add_test(tc, encoding_tables);
    tcase_add_test(tc, round_trips);
    tcase_add_test(tc, kgpu_encodings);
    tcase_add_test(tc, assembler_errors);
    tcase_add_test(tc, every_form_translates);
    tcase_add_test(tc, sync_pairing);
    tcase_add_test(tc, launch_errors);
    suite_add_tcase(s, tc);
    return s;
}
