/*
 * The batched structure-of-arrays executor (shader/interp_soa.c) against
 * the reference interpreter, bit for bit, on random programs
 * (isa/randprog.c) with special values in every register: fragment
 * batches of quads (with derivatives and texture lookups per quad) and
 * vertex batches of lone threads, batches longer and shorter than a chunk,
 * the x86-64 baseline build and the AVX2 build each forced; the row form
 * (a pipeline's inputs written straight into the rows, several chunks
 * in a row) against the reference on reset threads given those inputs.
 * Also: the programs it must refuse (the caller runs those on the
 * reference).
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ushader.h"
#include "isa/scalar.h"
#include "shader/decode.h"
#include "shader/interp_soa.h"

/* A sampler whose results depend on every coordinate and, per quad, on
 * the lanes' differences; it counts its calls and sums what it saw (the
 * order of calls across quads may differ, their multiset may not). */
struct fake_tex {
    uint64_t calls, sum;
};

static uint64_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static void fake_sample(void *ctx, unsigned unit, enum us_tex_target target,
                        const float coord[4], float lod_bias, float out[4])
{
    struct fake_tex *f = ctx;
    f->calls++;
    for (int c = 0; c < 4; c++) {
        out[c] = coord[c] * 0.5f + lod_bias + (float)(unit + target);
        f->sum += bits_of(coord[c]) * (uint64_t)(c + 1);
    }
}

static void fake_sample_quad(void *ctx, unsigned unit,
                             enum us_tex_target target,
                             const float coord[4][4], const float lod_bias[4],
                             float out[4][4])
{
    struct fake_tex *f = ctx;
    float dx = coord[1][0] - coord[0][0];
    for (int i = 0; i < 4; i++) {
        fake_sample(ctx, unit, target, coord[i], lod_bias[i], out[i]);
        out[i][1] += dx;
    }
    f->calls += 100;
}

/* What the executor runs: every opcode of a random program it does not
 * serve becomes a MOV, relative reads plain ones; fragment programs get
 * derivatives (randprog leaves them out: lone threads read 0). */
static void make_soa_program(struct us_rng *r, struct us_program *p)
{
    static const uint8_t derivs[] = { US_OP_DDX, US_OP_DDY, US_OP_DDX_FINE,
                                      US_OP_DDY_FINE };
    for (unsigned i = 0; i < p->ninsts; i++) {
        struct us_inst *in = &p->insts[i];
        if (in->op == US_OP_ARL) {
            in->op = US_OP_MOV;
            in->dst.file = US_FILE_TEMP;
            in->dst.index = 0;
        }
        if (p->stage == US_STAGE_FRAGMENT && in->dst.file == US_FILE_TEMP &&
            us_rng_below(r, 6) == 0)
            in->op = derivs[us_rng_below(r, 4)];
        for (unsigned k = 0; k < 3; k++)
            in->src[k].rel = false;
    }
}

static bool same_threads(const struct us_thread *a, const struct us_thread *b,
                         unsigned n, bool temps, const char *what)
{
    for (unsigned i = 0; i < n; i++) {
        bool same = temps ? !memcmp(a[i].temp, b[i].temp, sizeof a[i].temp)
                          : true;
        same = same && !memcmp(a[i].input, b[i].input, sizeof a[i].input) &&
               !memcmp(a[i].output, b[i].output, sizeof a[i].output) &&
               !memcmp(a[i].addr, b[i].addr, sizeof a[i].addr) &&
               a[i].killed == b[i].killed && a[i].overrun == b[i].overrun;
        if (!same) {
            fprintf(stderr, "%s: thread %u differs\n", what, i);
            return false;
        }
    }
    return true;
}

/* One program on a batch of random threads: the reference, then the
 * executor with each build; true when all agree. */
static bool check_program(const struct us_program *prog, struct us_rng *r,
                          const struct us_math *math, unsigned n, bool quads)
{
    us_vec4 *params = calloc(prog->nparams ? prog->nparams : 1,
                             sizeof *params);
    struct us_thread *in = calloc(n, sizeof *in);
    struct us_thread *ref = calloc(n, sizeof *ref);
    struct us_thread *got = calloc(n, sizeof *got);
    ck_assert(params && in && ref && got);
    for (unsigned i = 0; i < prog->nparams; i++)
        memcpy(params[i], prog->params[i].value, sizeof params[i]);
    for (unsigned i = 0; i < n; i++)
        us_random_thread(r, &in[i]);
    struct fake_tex tref = { 0 }, tgot = { 0 };
    struct us_exec_env env = { .params = (const us_vec4 *)params,
                               .math = math, .sample = fake_sample,
                               .sample_quad = fake_sample_quad,
                               .sample_ctx = &tref };
    struct us_decoded *dec = us_decode(prog);
    ck_assert_ptr_nonnull(dec);
    memcpy(ref, in, n * sizeof *ref);
    if (quads)
        us_interpret_quads(dec, &env, ref, n / 4);
    else
        for (unsigned i = 0; i < n; i++)
            us_interpret_decoded(dec, &env, &ref[i]);
    struct us_soa *soa = us_soa_plan(dec);
    ck_assert_ptr_nonnull(soa);
    bool ok = true;
    static const enum us_soa_isa isas[] = { US_SOA_BASELINE, US_SOA_AVX2,
                                            US_SOA_AVX512 };
    static const char *const names[] = { "baseline", "avx2", "avx512" };
    for (unsigned k = 0; k < 3 && ok; k++) {
        if (!us_soa_have(isas[k]))
            continue;
        for (int temps = 1; temps >= 0 && ok; temps--) {
            memcpy(got, in, n * sizeof *got);
            tgot = (struct fake_tex){ 0 };
            env.sample_ctx = &tgot;
            us_soa_run(soa, &env, got, n, quads, temps, isas[k]);
            ok = same_threads(ref, got, n, temps, names[k]) &&
                 tgot.calls == tref.calls && tgot.sum == tref.sum;
            /* without `temps` the TEMPs are left as they were */
            for (unsigned i = 0; ok && !temps && i < n; i++)
                ok = !memcmp(got[i].temp, in[i].temp, sizeof in[i].temp);
        }
    }
    us_soa_free(soa);
    us_decoded_free(dec);
    free(params);
    free(in);
    free(ref);
    free(got);
    return ok;
}

static unsigned random_count(void)
{
    const char *s = getenv("US_RANDOM_PROGRAMS");
    return s ? (unsigned)strtoul(s, NULL, 10) : 400;
}

START_TEST(random_programs_match_reference)
{
    struct us_sfu sfu;
    struct us_sfu_config cfg;
    struct us_diag d;
    us_sfu_config_default(&cfg);
    ck_assert(us_sfu_init(&sfu, &cfg, &d));
    struct us_math sfu_math;
    us_sfu_math(&sfu, &sfu_math);
    struct us_rng r = { 0x50a50a };
    unsigned n = random_count(), failed = 0;
    for (unsigned k = 0; k < n; k++) {
        bool frag = k & 1;
        struct us_program p;
        ck_assert(us_random_program(&r, frag ? US_STAGE_FRAGMENT
                                              : US_STAGE_VERTEX,
                                    1 + us_rng_below(&r, 28), &p));
        make_soa_program(&r, &p);
        /* quads: 1 to 40 (past two chunks); lone threads: 1 to 100 */
        unsigned lanes = frag ? 4 * (1 + us_rng_below(&r, 40))
                              : 1 + us_rng_below(&r, 100);
        const struct us_math *m = k % 4 < 2 ? &sfu_math : &us_math_exact;
        if (!check_program(&p, &r, m, lanes, frag)) {
            failed++;
            char *text = us_disassemble(&p);
            fprintf(stderr, "SoA executor differs (%u lanes):\n%s", lanes,
                    text ? text : "");
            free(text);
        }
        us_program_free(&p);
    }
    printf("SoA executor: %u random programs, %u failed, AVX2 %s, AVX-512 "
           "%s\n", n, failed,
           us_soa_have(US_SOA_AVX2) ? "checked" : "not on this CPU",
           us_soa_have(US_SOA_AVX512) ? "checked" : "not on this CPU");
    ck_assert_uint_eq(failed, 0);
    us_sfu_free(&sfu);
}
END_TEST

/* The row form of one program: `given` inputs random, the rest as reset,
 * a few chunks of random length one after the other (rows the program
 * reads after writing them must start every chunk as reset); true when
 * every output component, the killed flags and the texture calls agree
 * with the reference on reset threads. */
static bool check_rows(const struct us_program *prog, struct us_rng *r,
                       const struct us_math *math, bool quads,
                       enum us_soa_isa isa)
{
    us_vec4 *params = calloc(prog->nparams ? prog->nparams : 1,
                             sizeof *params);
    struct us_thread *ref = calloc(US_SOA_WIDTH, sizeof *ref);
    struct us_thread *scratch = calloc(1, sizeof *scratch);
    ck_assert(params && ref && scratch);
    for (unsigned i = 0; i < prog->nparams; i++)
        memcpy(params[i], prog->params[i].value, sizeof params[i]);
    uint64_t given = 0;
    for (unsigned in = 0; in < US_MAX_INPUTS; in++)
        given |= (uint64_t)(us_rng_below(r, 3) != 0) << in;
    struct fake_tex tref = { 0 }, tgot = { 0 };
    struct us_exec_env env = { .params = (const us_vec4 *)params,
                               .math = math, .sample = fake_sample,
                               .sample_quad = fake_sample_quad };
    struct us_decoded *dec = us_decode(prog);
    struct us_soa *p = us_soa_open(prog, isa);
    ck_assert_ptr_nonnull(dec);
    ck_assert_ptr_nonnull(p);
    us_soa_rows_begin(p, &env, given);
    bool ok = true;
    for (unsigned chunk = 0; chunk < 3 && ok; chunk++) {
        unsigned n = quads ? 4 * (1 + us_rng_below(r, US_SOA_WIDTH / 4))
                           : 1 + us_rng_below(r, US_SOA_WIDTH);
        for (unsigned l = 0; l < n; l++) {
            us_thread_reset(&ref[l]);
            us_random_thread(r, scratch);
            for (unsigned in = 0; in < US_MAX_INPUTS; in++) {
                if (!(given >> in & 1))
                    continue;
                memcpy(ref[l].input[in], scratch->input[in], sizeof(us_vec4));
                uint32_t off = (uint32_t)(offsetof(struct us_thread, input) +
                                          in * sizeof(us_vec4));
                unsigned reads = us_soa_reg_reads(p, off);
                for (unsigned c = 0; c < 4; c++)
                    if (reads >> c & 1)
                        us_soa_reg_row(p, off, c)[l] = ref[l].input[in][c];
            }
        }
        env.sample_ctx = &tref;
        if (quads)
            us_interpret_quads(dec, &env, ref, n / 4);
        else
            for (unsigned l = 0; l < n; l++)
                us_interpret_decoded(dec, &env, &ref[l]);
        env.sample_ctx = &tgot;
        us_soa_rows_run(p, &env, n, quads);
        const uint8_t *killed = us_soa_killed(p);
        for (unsigned o = 0; o < US_MAX_OUTPUTS && ok; o++) {
            uint32_t off = (uint32_t)(offsetof(struct us_thread, output) +
                                      o * sizeof(us_vec4));
            unsigned named = us_soa_reg_reads(p, off) |
                             us_soa_reg_writes(p, off);
            for (unsigned l = 0; l < n && ok; l++)
                for (unsigned c = 0; c < 4 && ok; c++) {
                    float got = named >> c & 1 ? us_soa_reg_row(p, off, c)[l]
                                               : 0.0f;
                    ok = bits_of(got) == bits_of(ref[l].output[o][c]);
                    if (!ok)
                        fprintf(stderr, "rows: chunk %u lane %u output %u.%u "
                                "differs\n", chunk, l, o, c);
                }
        }
        for (unsigned l = 0; l < n && ok; l++)
            ok = (bool)killed[l] == ref[l].killed;
        ok = ok && tgot.calls == tref.calls && tgot.sum == tref.sum;
    }
    us_soa_free(p);
    us_decoded_free(dec);
    free(params);
    free(ref);
    free(scratch);
    return ok;
}

START_TEST(rows_match_reference)
{
    struct us_sfu sfu;
    struct us_sfu_config cfg;
    struct us_diag d;
    us_sfu_config_default(&cfg);
    ck_assert(us_sfu_init(&sfu, &cfg, &d));
    struct us_math sfu_math;
    us_sfu_math(&sfu, &sfu_math);
    struct us_rng r = { 0x0a5050 };
    unsigned n = random_count(), failed = 0;
    for (unsigned k = 0; k < n; k++) {
        bool frag = k & 1;
        struct us_program p;
        ck_assert(us_random_program(&r, frag ? US_STAGE_FRAGMENT
                                              : US_STAGE_VERTEX,
                                    1 + us_rng_below(&r, 28), &p));
        make_soa_program(&r, &p);
        const struct us_math *m = k % 4 < 2 ? &sfu_math : &us_math_exact;
        /* a build the CPU has, at random */
        enum us_soa_isa isa = US_SOA_BASELINE + us_rng_below(&r, 3);
        if (!us_soa_have(isa))
            isa = US_SOA_BASELINE;
        if (!check_rows(&p, &r, m, frag, isa)) {
            failed++;
            char *text = us_disassemble(&p);
            fprintf(stderr, "SoA row form differs:\n%s", text ? text : "");
            free(text);
        }
        us_program_free(&p);
    }
    printf("SoA row form: %u random programs, %u failed\n", n, failed);
    ck_assert_uint_eq(failed, 0);
    us_sfu_free(&sfu);
}
END_TEST

/* Programs the executor must leave to the reference. */
START_TEST(refuses_what_it_cannot_run)
{
    static const char *const texts[] = {
        "!!ARBvp1.0\nADDRESS a;\nPARAM c[2] = { {1,2,3,4}, {5,6,7,8} };\n"
        "ARL a.x, vertex.position.x;\nMOV result.position, c[a.x];\nEND\n",
        "!!ARBfp1.0\nOPTION USHADER_extensions;\nTEMP t;\n"
        "IF fragment.color.x;\nMOV t, fragment.color;\nENDIF;\n"
        "MOV result.color, t;\nEND\n",
        "!!ARBfp1.0\nOPTION USHADER_extensions;\nTEMP t;\n"
        "ADD.U t, fragment.color, fragment.color;\n"
        "MOV result.color, t;\nEND\n",
    };
    for (unsigned i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        struct us_program p;
        struct us_diag d;
        ck_assert_msg(us_assemble(texts[i], strlen(texts[i]), US_STAGE_ANY,
                                  &p, &d), "%u: %s", i, d.msg);
        struct us_decoded *dec = us_decode(&p);
        ck_assert_ptr_nonnull(dec);
        ck_assert_ptr_null(us_soa_plan(dec));
        us_decoded_free(dec);
        us_program_free(&p);
    }
    const char *ok = "!!ARBfp1.0\nTEMP t;\nMUL t, fragment.color, 2.0;\n"
                     "MOV result.color, t;\nEND\n";
    struct us_program p;
    struct us_diag d;
    ck_assert(us_assemble(ok, strlen(ok), US_STAGE_ANY, &p, &d));
    struct us_decoded *dec = us_decode(&p);
    struct us_soa *soa = us_soa_plan(dec);
    ck_assert_ptr_nonnull(soa);
    us_soa_free(soa);
    us_decoded_free(dec);
    us_program_free(&p);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("interp_soa");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, random_programs_match_reference);
    tcase_add_test(tc, rows_match_reference);
    tcase_add_test(tc, refuses_what_it_cannot_run);
    suite_add_tcase(s, tc);
    return s;
}

#include "check_main.h"
