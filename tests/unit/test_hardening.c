/*
 * Inputs mean what they say (issue 14): the INI loader's line and NUL
 * checks, the GLSL front step's #version and varying slots (the fuzz
 * findings of fuzz/fuzz_glsl_front.c), the bench list parser
 * (us_bench_parse_list) at lengths past the old fixed buffers, and the
 * lane counts each core model can build (us_core_check).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shader/core.h"
#include "suite/suite.h"

#include "check_main.h"

/* ---- INI ---------------------------------------------------------------- */

/* "[core]\n" + a comment line of `n` bytes ending in "alu_lanes = 2". */
static char *comment_line(size_t n)
{
    char *t = malloc(n + 16);
    ck_assert_ptr_nonnull(t);
    strcpy(t, "[core]\n; ");
    size_t at = strlen(t), pad = n - 2 - 13;
    memset(t + at, 'x', pad);
    strcpy(t + at + pad, "alu_lanes = 2\n");
    return t;
}

START_TEST(ini_line_limit)
{
    struct us_config cfg;
    struct us_diag d;
    /* 198 bytes: inih reads the line whole, so it stays a comment */
    char *t = comment_line(198);
    us_config_default(&cfg);
    ck_assert_msg(us_config_load(&cfg, t, strlen(t), &d), "%s", d.msg);
    ck_assert_int_eq(cfg.v[US_KNOB_alu_lanes], 8);
    free(t);
    /* 199 bytes: inih would set alu_lanes = 2 from the tail */
    t = comment_line(199);
    us_config_default(&cfg);
    ck_assert(!us_config_load(&cfg, t, strlen(t), &d));
    ck_assert_uint_eq(d.line, 2);
    ck_assert_ptr_nonnull(strstr(d.msg, "longer than 198 bytes"));
    free(t);
    /* the last line without its newline counts the same */
    t = comment_line(199);
    t[strlen(t) - 1] = '\0';
    ck_assert(!us_config_load(&cfg, t, strlen(t), &d));
    ck_assert_uint_eq(d.line, 2);
    free(t);
}
END_TEST

START_TEST(ini_nul)
{
    static const char text[] = "[core]\nalu_lanes = 16\n\0lut_banks = 8\n";
    struct us_config cfg;
    struct us_diag d;
    us_config_default(&cfg);
    ck_assert(!us_config_load(&cfg, text, sizeof text - 1, &d));
    ck_assert_uint_eq(d.line, 3);
    ck_assert_ptr_nonnull(strstr(d.msg, "NUL"));
    /* up to the NUL the text is fine */
    ck_assert(us_config_load(&cfg, text, strlen(text), &d));
    ck_assert_int_eq(cfg.v[US_KNOB_alu_lanes], 16);
}
END_TEST

START_TEST(ini_sfu_value_whole)
{
    /* "w0 = 0...0300": 300 is out of range; cut at 160 bytes it was 30 */
    char text[256], set[256];
    memset(text, 0, sizeof text);
    strcpy(text, "[sfu]\nw0 = ");
    memset(text + strlen(text), '0', 154);
    strcat(text, "300\n");
    struct us_config cfg;
    struct us_diag d;
    us_config_default(&cfg);
    ck_assert(!us_config_load(&cfg, text, strlen(text), &d));
    ck_assert_uint_eq(d.line, 2);
    snprintf(set, sizeof set, "sfu.w0=%.154s300", text + 11);
    ck_assert(!us_config_set(&cfg, set, &d));
    snprintf(set, sizeof set, "sfu.w0=%.154s30", text + 11);
    ck_assert_msg(us_config_set(&cfg, set, &d), "%s", d.msg);
    ck_assert_int_eq(cfg.sfu.width[0], 30);
}
END_TEST

/* ---- GLSL front step ------------------------------------------------------ */

START_TEST(front_version_within_len)
{
    /* the text is "#version 1": the "20" after it is not the shader's */
    static const char text[] = "#version 120\nvoid main() {}\n";
    char *out = NULL;
    size_t n;
    struct us_diag d;
    ck_assert(!us_glsl_front(text, 10, US_STAGE_FRAGMENT, NULL, &out, &n,
                             &d));
    ck_assert_ptr_null(out);
    ck_assert(us_glsl_is_legacy(text, 10));
    /* fuzz_glsl_front's first finding: "#version" ends the buffer (an
     * exactly sized copy, so ASan sees a read past it) */
    static const char tail[] = "void main() {}\n#version";
    char *t = malloc(sizeof tail - 1);
    ck_assert_ptr_nonnull(t);
    memcpy(t, tail, sizeof tail - 1);
    ck_assert(us_glsl_is_legacy(t, sizeof tail - 1));
    ck_assert(!us_glsl_front(t, sizeof tail - 1, US_STAGE_FRAGMENT, NULL,
                             &out, &n, &d));
    ck_assert_uint_eq(d.line, 2);
    free(t);
    /* nothing but a comment may follow the number */
    static const char *const bad[] = { "#version 110garbage\n",
                                       "#version 110 es\n",
                                       "#version\n110\n",
                                       "#version 110 /* open\n*/\n" };
    for (unsigned i = 0; i < 4; i++)
        ck_assert_msg(!us_glsl_front(bad[i], strlen(bad[i]),
                                     US_STAGE_FRAGMENT, NULL, &out, &n, &d),
                      "%s", bad[i]);
    static const char *const good[] = { "#version 110\n", "#version 110\r\n",
                                        "#version 110 // x\n",
                                        "  #  version   120 /* x */\n" };
    for (unsigned i = 0; i < 4; i++) {
        ck_assert_msg(us_glsl_front(good[i], strlen(good[i]),
                                    US_STAGE_FRAGMENT, NULL, &out, &n, &d),
                      "%s: %s", good[i], d.msg);
        free(out);
    }
}
END_TEST

START_TEST(front_varying_slots)
{
    /* fuzz_glsl_front's second finding: "mat0" took 0 slots */
    static const char text[] =
        "varying vec4 a;\nvarying mat0 m;\nvarying mat3 b;\n"
        "varying mat2x4 c;\nvoid main() {}\n";
    struct us_glsl_link link;
    us_glsl_link_init(&link);
    char *out;
    size_t n;
    struct us_diag d;
    ck_assert_msg(us_glsl_front(text, sizeof text - 1, US_STAGE_FRAGMENT,
                                &link, &out, &n, &d), "%s", d.msg);
    free(out);
    ck_assert_uint_eq(link.nvaryings, 4);
    static const unsigned count[] = { 1, 1, 3, 2 };
    for (unsigned i = 0; i < 4; i++)
        ck_assert_uint_eq(link.varying[i].count, count[i]);
}
END_TEST

START_TEST(front_nul)
{
    static const char text[] = "void main()\n{\n  \0 }\n";
    char *out = NULL;
    size_t n;
    struct us_diag d;
    ck_assert(!us_glsl_front(text, sizeof text - 1, US_STAGE_VERTEX, NULL,
                             &out, &n, &d));
    ck_assert_uint_eq(d.line, 3);
    ck_assert_uint_eq(d.col, 3);
    ck_assert(!us_glsl_check_nul(text, sizeof text - 1, &d));
    ck_assert(us_glsl_check_nul(text, strlen(text), &d));
}
END_TEST

/* ---- bench list --------------------------------------------------------- */

static struct us_bench *parse(const char *text, size_t len, const char *only,
                              struct us_diag *d, bool *ok)
{
    struct us_bench *b = calloc(1, sizeof *b);
    ck_assert_ptr_nonnull(b);
    *ok = us_bench_parse_list(b, "dir/suite.list", text, len, only, d);
    return b;
}

static void done(struct us_bench *b)
{
    us_bench_free(b);
    free(b);
}

START_TEST(list_long_words)
{
    /* words of 600 and 1100 bytes (the old buffers held 511 and 1023) */
    size_t np = 600, ns = 1100;
    char *text = malloc(np + ns + 64);
    ck_assert_ptr_nonnull(text);
    char *p = text;
    p += sprintf(p, "# comment\n\n  \t\nprograms/");
    memset(p, 'p', np);
    p += np;
    *p++ = ' ';
    memset(p, 's', ns);
    p += ns;
    p += sprintf(p, "\tslot\r\n/abs/x.fp y.scn z");
    struct us_diag d;
    bool ok;
    struct us_bench *b = parse(text, (size_t)(p - text), NULL, &d, &ok);
    ck_assert_msg(ok, "%s", d.msg);
    ck_assert_uint_eq(b->nprogs, 2);
    const struct us_bench_prog *bp = &b->progs[0];
    ck_assert_uint_eq(strlen(bp->name), np);
    ck_assert_uint_eq(strlen(bp->path), 4 + 9 + np);
    ck_assert(!strncmp(bp->path, "dir/programs/", 13));
    ck_assert_uint_eq(strlen(bp->scene), 4 + ns);
    ck_assert_uint_eq(strlen(bp->scene_name), ns);
    ck_assert_str_eq(bp->slot, "slot");
    ck_assert_uint_eq(bp->line, 4);
    ck_assert_str_eq(b->progs[1].path, "/abs/x.fp");
    ck_assert_str_eq(b->progs[1].scene, "dir/y.scn");
    ck_assert_uint_eq(b->progs[1].line, 5);
    done(b);
    /* --only strings are compared whole, however long */
    char *only = malloc(np + 8);
    ck_assert_ptr_nonnull(only);
    memset(only, 'p', np);
    strcpy(only + np, "q");
    b = parse(text, (size_t)(p - text), only, &d, &ok);
    ck_assert(!ok);
    ck_assert_str_eq(d.msg, "no program selected");
    done(b);
    only[np] = '\0';
    b = parse(text, (size_t)(p - text), only, &d, &ok);
    ck_assert(ok);
    ck_assert_uint_eq(b->nprogs, 1);
    done(b);
    free(only);
    free(text);
}
END_TEST

START_TEST(list_errors)
{
    static const struct { const char *text; unsigned line, col;
                          const char *msg; } cases[] = {
        { "a b\n", 1, 0, "expected PROGRAM SCENE SLOT" },
        { "# c\na b c d\n", 2, 0, "expected PROGRAM SCENE SLOT" },
        { "a b c # comment\n", 1, 0, "expected PROGRAM SCENE SLOT" },
        { "a b c#d\n", 1, 0, "expected PROGRAM SCENE SLOT" },
        { "#only comments\n", 0, 0, "no program selected" },
        { "", 0, 0, "no program selected" },
        { "a b "
          "s123456789012345678901234567890123456789012345678901234567890123\n",
          1, 5, "slot name longer than 63 characters" },
    };
    for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct us_diag d;
        bool ok;
        struct us_bench *b = parse(cases[i].text, strlen(cases[i].text),
                                   NULL, &d, &ok);
        ck_assert_msg(!ok, "%s", cases[i].text);
        ck_assert_str_eq(d.msg, cases[i].msg);
        ck_assert_uint_eq(d.line, cases[i].line);
        ck_assert_uint_eq(d.col, cases[i].col);
        ck_assert_str_eq(b->err_file, "dir/suite.list");
        done(b);
    }
    /* a NUL ends nothing silently */
    static const char nul[] = "a b c\nd \0e f\n";
    struct us_diag d;
    bool ok;
    struct us_bench *b = parse(nul, sizeof nul - 1, NULL, &d, &ok);
    ck_assert(!ok);
    ck_assert_uint_eq(d.line, 2);
    ck_assert_uint_eq(d.col, 3);
    done(b);
    /* a 63-byte slot is fine; the 129th program is refused */
    static const char slot63[] =
        "a b s12345678901234567890123456789012345678901234567890123456789012";
    b = parse(slot63, strlen(slot63), NULL, &d, &ok);
    ck_assert_msg(ok, "%s", d.msg);
    done(b);
    size_t cap = 16 * (US_BENCH_MAX_PROGRAMS + 1);
    char *many = malloc(cap), *p = many;
    ck_assert_ptr_nonnull(many);
    for (unsigned i = 0; i <= US_BENCH_MAX_PROGRAMS; i++)
        p += sprintf(p, "p%u s x\n", i);
    b = parse(many, (size_t)(p - many), NULL, &d, &ok);
    ck_assert(!ok);
    ck_assert_uint_eq(d.line, US_BENCH_MAX_PROGRAMS + 1);
    done(b);
    free(many);
}
END_TEST

/* ---- lane counts -------------------------------------------------------- */

static bool lanes_ok(const struct us_core_model *m, const char *lanes,
                     const char *extra, struct us_diag *d)
{
    struct us_config cfg;
    us_config_default(&cfg);
    ck_assert(us_config_set(&cfg, lanes, d));
    if (extra)
        ck_assert(us_config_set(&cfg, extra, d));
    return us_core_check(m, &cfg, d);
}

START_TEST(model_lanes)
{
    struct us_diag d;
    const struct us_core_model *four[] = { &us_model_simd4, &us_model_vliw,
                                           &us_model_superscalar,
                                           &us_model_hetero };
    for (unsigned i = 0; i < 4; i++) {
        ck_assert(lanes_ok(four[i], "alu_lanes=4", NULL, &d));
        ck_assert(lanes_ok(four[i], "alu_lanes=12", NULL, &d));
        ck_assert(!lanes_ok(four[i], "alu_lanes=6", NULL, &d));
        ck_assert_ptr_nonnull(strstr(d.msg, four[i]->name));
        ck_assert_ptr_nonnull(strstr(d.msg, "multiple of 4 (4, 8, 12, ...)"));
        ck_assert(!lanes_ok(four[i], "alu_lanes=2", NULL, &d));
    }
    ck_assert(lanes_ok(&us_model_vliw, "alu_lanes=8", "vliw_tslot=1", &d));
    ck_assert(!lanes_ok(&us_model_hetero, "alu_lanes=8",
                        "hetero_vec_width=4", &d));
    ck_assert_ptr_nonnull(strstr(d.msg, "hetero 4+1"));
    ck_assert_ptr_nonnull(strstr(d.msg, "multiple of 5"));
    ck_assert(lanes_ok(&us_model_hetero, "alu_lanes=10",
                       "hetero_vec_width=4", &d));
    for (unsigned l = 1; l <= 9; l++) {
        char set[32];
        snprintf(set, sizeof set, "alu_lanes=%u", l);
        ck_assert(lanes_ok(&us_model_scalar, set, NULL, &d));
    }
    /* create refuses what check refuses */
    struct us_program prog;
    static const char text[] = "!!ARBfp1.0\nMOV result.color, "
                               "fragment.color;\nEND\n";
    ck_assert(us_assemble(text, sizeof text - 1, US_STAGE_ANY, &prog, &d));
    struct us_thread t;
    us_thread_reset(&t);
    struct us_exec_env env = { .math = &us_math_exact };
    struct us_workload w = { &prog, &env, &t, 1, NULL, NULL };
    struct us_config cfg;
    us_config_default(&cfg);
    ck_assert(us_config_set(&cfg, "alu_lanes=6", &d));
    for (unsigned i = 0; i < 4; i++) {
        ck_assert_ptr_null(four[i]->create(&cfg, &w, &d));
        ck_assert_ptr_nonnull(strstr(d.msg, "cannot be built"));
    }
    us_program_free(&prog);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("hardening");
    TCase *tc = tcase_create("all");
    tcase_add_test(tc, ini_line_limit);
    tcase_add_test(tc, ini_nul);
    tcase_add_test(tc, ini_sfu_value_whole);
    tcase_add_test(tc, front_version_within_len);
    tcase_add_test(tc, front_varying_slots);
    tcase_add_test(tc, front_nul);
    tcase_add_test(tc, list_long_words);
    tcase_add_test(tc, list_errors);
    tcase_add_test(tc, model_lanes);
    suite_add_tcase(s, tc);
    return s;
}
