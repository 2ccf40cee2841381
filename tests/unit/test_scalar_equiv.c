/*
 * Equivalence of the scalar SP with the reference interpreter: lowered
 * (uncompacted and in each compaction variant; encoded and decoded but
 * for the swizzle form, which has no encoder), executed scalar code
 * must leave every register with the interpreter's bits (NaNs included)
 * on random vec4 programs and on piglit's ARB programs.
 *
 * US_RANDOM_PROGRAMS sets the number of random programs per stage (default
 * 1000; `make stress` asks for 5000 per stage, 10,000 in total).
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/scalar.h"

#include "check_main.h"

static unsigned random_count(void);

#define PIGLIT_DIR "/usr/lib/x86_64-linux-gnu/piglit/tests/asmparsertest/shaders"

/* A deterministic texture that depends on every coordinate bit's route. */
static void fake_sample(void *ctx, unsigned unit, enum us_tex_target target,
                        const float coord[4], float lod_bias, float out[4])
{
    (void)ctx;
    for (unsigned c = 0; c < 4; c++)
        out[c] = coord[(c + target) & 3] * (float)(unit + 1) + lod_bias +
                 (float)c * 0.125f;
}

/* Bit for bit, NaNs included: every register write canonicalizes NaN
 * (micro_canon), so no model may differ even in a NaN's sign. */
static bool same_float(const float *a, const float *b)
{
    return !memcmp(a, b, sizeof *a);
}

static bool same_thread(const struct us_thread *a, const struct us_thread *b)
{
    for (unsigned i = 0; i < US_MAX_TEMPS; i++)
        for (unsigned c = 0; c < 4; c++)
            if (!same_float(&a->temp[i][c], &b->temp[i][c]))
                return false;
    for (unsigned i = 0; i < US_MAX_OUTPUTS; i++)
        for (unsigned c = 0; c < 4; c++)
            if (!same_float(&a->output[i][c], &b->output[i][c]))
                return false;
    return !memcmp(a->addr, b->addr, sizeof a->addr) && a->killed == b->killed;
}

static void dump_first_difference(const struct us_thread *a,
                                  const struct us_thread *b)
{
    for (unsigned i = 0; i < US_MAX_TEMPS; i++)
        for (unsigned c = 0; c < 4; c++)
            if (memcmp(&a->temp[i][c], &b->temp[i][c], sizeof(float)))
                fprintf(stderr, "  r%u.%c: interp %a scalar %a\n", i, "xyzw"[c],
                        a->temp[i][c], b->temp[i][c]);
    for (unsigned i = 0; i < US_MAX_OUTPUTS; i++)
        for (unsigned c = 0; c < 4; c++)
            if (memcmp(&a->output[i][c], &b->output[i][c], sizeof(float)))
                fprintf(stderr, "  o%u.%c: interp %a scalar %a\n", i, "xyzw"[c],
                        a->output[i][c], b->output[i][c]);
    if (a->killed != b->killed)
        fprintf(stderr, "  killed: interp %d scalar %d\n", a->killed, b->killed);
}

static void print_code(const struct us_scode *c)
{
    char line[160];
    for (unsigned i = 0; i < c->n; i++) {
        us_sinst_format(&c->insts[i], line, sizeof line);
        fprintf(stderr, "    %s\n", line);
    }
}

/* Run `prog` on `nthreads` random threads with the interpreter and with
 * the scalar code of both modes; true when all agree bit for bit. */
static bool check_program(const struct us_program *prog, struct us_rng *r,
                          unsigned nthreads, const char *what)
{
    us_vec4 *params = calloc(prog->nparams ? prog->nparams : 1, sizeof *params);
    ck_assert_ptr_nonnull(params);
    for (unsigned i = 0; i < prog->nparams; i++)
        for (unsigned c = 0; c < 4; c++)
            params[i][c] = prog->params[i].kind == US_PARAM_CONST
                               ? prog->params[i].value[c] : us_random_float(r);
    struct us_exec_env env = { .params = (const us_vec4 *)params,
                               .math = &us_math_exact, .sample = fake_sample };
    bool ok = true;
    for (unsigned compact = 0; compact < US_COMPACT_COUNT && ok; compact++) {
        struct us_scode code;
        struct us_diag d;
        if (!us_lower(prog, compact, &code, &d)) {
            fprintf(stderr, "%s: lowering failed: %s\n", what, d.msg);
            ok = false;
            break;
        }
        us_sword *words = malloc((code.n ? code.n : 1) * sizeof *words);
        ck_assert_ptr_nonnull(words);
        for (unsigned i = 0; compact != US_COMPACT_SWIZZLE && i < code.n; i++)
            words[i] = us_sencode(&code.insts[i]);
        static struct us_thread t0, ti, ts;
        for (unsigned k = 0; k < nthreads && ok; k++) {
            us_random_thread(r, &t0);
            ti = t0;
            ts = t0;
            us_interpret(prog, &env, &ti);
            /* the swizzle form has no encoder: its instructions run */
            bool ran = compact == US_COMPACT_SWIZZLE
                           ? us_scalar_exec(code.insts, code.n, &env, &ts)
                           : us_scalar_run(words, code.n, &env, &ts);
            if (!ran) {
                fprintf(stderr, "%s: a word does not decode\n", what);
                ok = false;
            } else if (!same_thread(&ti, &ts)) {
                fprintf(stderr, "%s (%s): scalar result differs\n", what,
                        us_compaction_name((enum us_compaction)compact));
                dump_first_difference(&ti, &ts);
                char *text = us_disassemble(prog);
                if (text)
                    fprintf(stderr, "%s", text);
                free(text);
                print_code(&code);
                ok = false;
            }
        }
        free(words);
        us_scode_free(&code);
    }
    free(params);
    return ok;
}

/* Statically scheduled code must keep the program's results: run the
 * uncompacted scalar operations bundle by bundle (within a bundle in
 * program order, which honours the reads-before-writes rule for WAR pairs)
 * for VLIW, and the vec4 instructions in hetero bundle order. */
struct order { unsigned bundle, index; };

static int by_bundle(const void *a, const void *b)
{
    const struct order *x = a, *y = b;
    if (x->bundle != y->bundle)
        return x->bundle < y->bundle ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static bool check_schedules(const struct us_program *prog, struct us_rng *r)
{
    us_vec4 *params = calloc(prog->nparams ? prog->nparams : 1, sizeof *params);
    ck_assert_ptr_nonnull(params);
    for (unsigned i = 0; i < prog->nparams; i++)
        memcpy(params[i], prog->params[i].value, sizeof params[i]);
    struct us_exec_env env = { .params = (const us_vec4 *)params,
                               .math = &us_math_exact, .sample = fake_sample };
    struct us_scode code;
    struct us_diag d;
    ck_assert(us_lower(prog, false, &code, &d));
    unsigned n = code.n > prog->ninsts ? code.n : prog->ninsts;
    struct us_sched_item *items = calloc(n + 1, sizeof *items);
    unsigned *bundle = calloc(n + 1, sizeof *bundle), *slot = calloc(n + 1, sizeof *slot);
    struct order *ord = calloc(n + 1, sizeof *ord);
    struct us_sinst *sorted = calloc(n + 1, sizeof *sorted);
    struct us_program reordered = *prog;
    reordered.insts = calloc(n + 1, sizeof *reordered.insts);
    ck_assert(items && bundle && slot && ord && sorted && reordered.insts);
    bool ok = true;
    static struct us_thread t0, ti, ts;
    for (unsigned nslots = 2; nslots <= 5 && ok; nslots += 3) {   /* 2, 5 */
        for (unsigned i = 0; i < code.n; i++) {
            us_sched_item_scalar(&code.insts[i], &items[i]);
            if (nslots == 5 && us_sops[code.insts[i].op].unit == US_UNIT_SFU)
                items[i].slots = 0x10;
        }
        unsigned nb = us_list_schedule(items, code.n, nslots, bundle, slot);
        ck_assert(code.n == 0 || nb > 0);
        for (unsigned i = 0; i < code.n; i++) {
            ord[i] = (struct order){ bundle[i], i };
            ck_assert(slot[i] < nslots && bundle[i] < nb);
        }
        qsort(ord, code.n, sizeof *ord, by_bundle);
        for (unsigned i = 0; i < code.n; i++)
            sorted[i] = code.insts[ord[i].index];
        us_random_thread(r, &t0);
        ti = t0;
        ts = t0;
        us_interpret(prog, &env, &ti);
        ok = us_scalar_exec(sorted, code.n, &env, &ts) &&
             same_thread(&ti, &ts);
    }
    if (ok) {
        for (unsigned i = 0; i < prog->ninsts; i++)
            us_sched_item_vec4(&prog->insts[i], &items[i]);
        unsigned nb = us_list_schedule(items, prog->ninsts, 2, bundle, slot);
        ck_assert(prog->ninsts == 0 || nb > 0);
        for (unsigned i = 0; i < prog->ninsts; i++)
            ord[i] = (struct order){ bundle[i], i };
        qsort(ord, prog->ninsts, sizeof *ord, by_bundle);
        for (unsigned i = 0; i < prog->ninsts; i++)
            reordered.insts[i] = prog->insts[ord[i].index];
        us_random_thread(r, &t0);
        ti = t0;
        ts = t0;
        us_interpret(prog, &env, &ti);
        us_interpret(&reordered, &env, &ts);
        ok = same_thread(&ti, &ts);
    }
    free(items); free(bundle); free(slot); free(ord); free(sorted);
    free(reordered.insts);
    free(params);
    us_scode_free(&code);
    return ok;
}

START_TEST(schedules_keep_results)
{
    struct us_rng r = { 0xabcdef };
    unsigned failed = 0, n = random_count() / 2;
    for (unsigned k = 0; k < n; k++) {
        struct us_program p;
        ck_assert(us_random_program(&r, k & 1 ? US_STAGE_FRAGMENT : US_STAGE_VERTEX,
                                    1 + us_rng_below(&r, 16), &p));
        if (!check_schedules(&p, &r)) {
            failed++;
            char *text = us_disassemble(&p);
            fprintf(stderr, "schedule changes results:\n%s", text ? text : "");
            free(text);
        }
        us_program_free(&p);
    }
    printf("scheduled programs: %u checked, %u failed\n", n, failed);
    ck_assert_uint_eq(failed, 0);
}
END_TEST

static unsigned random_count(void)
{
    const char *s = getenv("US_RANDOM_PROGRAMS");
    return s ? (unsigned)strtoul(s, NULL, 10) : 1000;
}

START_TEST(random_programs)
{
    struct us_rng r = { 0x5ca1ab1e + (uint64_t)_i };
    enum us_stage stage = _i ? US_STAGE_FRAGMENT : US_STAGE_VERTEX;
    unsigned n = random_count(), failed = 0;
    for (unsigned k = 0; k < n && failed < 3; k++) {
        struct us_program p;
        ck_assert(us_random_program(&r, stage, 1 + us_rng_below(&r, 12), &p));
        char what[64];
        snprintf(what, sizeof what, "random %s program %u",
                 stage == US_STAGE_VERTEX ? "vertex" : "fragment", k);
        failed += !check_program(&p, &r, 4, what);
        us_program_free(&p);
    }
    printf("random %s programs: %u checked, %u failed\n",
           stage == US_STAGE_VERTEX ? "vertex" : "fragment", n, failed);
    ck_assert_uint_eq(failed, 0);
}
END_TEST

/* Structured flow control: each thread follows its own path through the
 * scalar code's flow words (their targets), as through the vec4 IR. */
START_TEST(random_flow_programs)
{
    struct us_rng r = { 0xf10c0de + (uint64_t)_i };
    enum us_stage stage = _i ? US_STAGE_FRAGMENT : US_STAGE_VERTEX;
    unsigned n = random_count() / 2, failed = 0, flow_words = 0;
    for (unsigned k = 0; k < n && failed < 3; k++) {
        struct us_program p;
        ck_assert(us_random_flow_program(&r, stage, 1 + us_rng_below(&r, 24), &p));
        char what[64];
        snprintf(what, sizeof what, "random %s flow program %u",
                 stage == US_STAGE_VERTEX ? "vertex" : "fragment", k);
        failed += !check_program(&p, &r, 6, what);
        for (unsigned i = 0; i < p.ninsts; i++)
            flow_words += us_ops[p.insts[i].op].unit == US_UNIT_BRANCH;
        us_program_free(&p);
    }
    printf("random %s flow programs: %u checked (%u flow instructions), "
           "%u failed\n", stage == US_STAGE_VERTEX ? "vertex" : "fragment",
           n, flow_words, failed);
    ck_assert_uint_gt(flow_words, n);
    ck_assert_uint_eq(failed, 0);
}
END_TEST

static char *read_whole(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1 << 20);
    size_t n = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
    fclose(f);
    if (buf)
        buf[n] = '\0';
    *len = n;
    return buf;
}

/* piglit's ARB programs, and the project's benchmark and scene shaders
 * (run from the top of the tree, as tests/run.sh does). */
START_TEST(piglit_programs)
{
    static const char *const dirs[4] = {
        PIGLIT_DIR "/ARBvp1.0", PIGLIT_DIR "/ARBfp1.0", "bench/programs",
        "bench/scenes",
    };
    unsigned checked = 0, failed = 0;
    struct us_rng r = { 0xfeed };
    for (int s = 0; s < 4; s++) {
        const char *dir = dirs[s];
        DIR *d = opendir(dir);
        if (!d)
            continue;
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.')
                continue;
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            size_t len;
            char *text = read_whole(path, &len);
            if (!text)
                continue;
            struct us_program p;
            struct us_diag diag;
            if (us_assemble(text, len, US_STAGE_ANY, &p, &diag)) {
                checked++;
                failed += !check_program(&p, &r, 8, path);
                us_program_free(&p);
            }
            free(text);
        }
        closedir(d);
    }
    printf("piglit ARB and bench programs: %u checked, %u failed\n",
           checked, failed);
    ck_assert_uint_eq(failed, 0);
    /* 62 valid piglit programs plus the project's own: none may go missing. */
    ck_assert_uint_ge(checked, 90);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("scalar_equiv");
    TCase *tc = tcase_create("equivalence");
    tcase_set_timeout(tc, 3600);
    tcase_add_loop_test(tc, random_programs, 0, 2);
    tcase_add_loop_test(tc, random_flow_programs, 0, 2);
    tcase_add_test(tc, piglit_programs);
    tcase_add_test(tc, schedules_keep_results);
    suite_add_tcase(s, tc);
    return s;
}
