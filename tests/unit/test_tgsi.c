/* Unit tests of the TGSI text reader (suite/tgsi.c): the figures of a
 * program written here (instructions without END and declarations, the
 * width histogram from write masks with texture fetches and flow left
 * out, the useful ops and issue slots), its errors, and finding the last
 * VERT and FRAG blocks in a log like shader_runner's. */
#include <check.h>
#include <string.h>

#include "suite/tgsi.h"

/* Hand count, line by line: width (h = histogram slot), ops, issued. */
static const char prog[] =
    "FRAG\n"
    "PROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\n"
    "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
    "DCL OUT[0], COLOR\n"
    "DCL SAMP[0]\n"
    "DCL TEMP[0..2]\n"
    "IMM[0] FLT32 {    0.5000,     1.0000,     0.0000,     0.0000}\n"
    "  0: MOV TEMP[0], IN[0]\n"                     /* 4 */
    "  1: MUL TEMP[1].xy, TEMP[0].xyyy, IMM[0].xxxx\n"  /* 2 */
    "  2: DP3 TEMP[2].x, TEMP[0].xyzz, TEMP[0].xyzz\n"  /* dot: 3 */
    "  3: RSQ TEMP[2].xy, TEMP[2].xxxx\n"           /* replicated: 1 */
    "  4: TEX TEMP[1], TEMP[1], SAMP[0], 2D\n"      /* fetch: slot 0 */
    "  5: ADD_SAT TEMP[0].xyz, TEMP[0], TEMP[1]\n"  /* _SAT: 3 */
    "  6: FSLT TEMP[2].x, TEMP[2].xxxx, IMM[0].yyyy\n"  /* 1 */
    "  7: UIF TEMP[2].xxxx :9\n"                    /* flow */
    "  8:   KILL_IF -TEMP[0].xyxx\n"                /* -x, -y: 2 */
    "  9: ENDIF\n"                                  /* flow */
    " 10: BGNLOOP :0\n"                             /* flow */
    " 11:   BRK\n"                                  /* flow */
    " 12: ENDLOOP :0\n"                             /* flow */
    " 13: MOV OUT[0].w, IMM[0].yyyy\n"              /* 1 */
    " 14: DP4 OUT[0].x, TEMP[0], TEMP[1]\n"         /* dot: 4 */
    " 15: END\n";

START_TEST(test_counts)
{
    struct us_tgsi_stats st;
    struct us_diag d = { 0 };
    ck_assert(us_tgsi_stats(prog, sizeof prog - 1, &st, &d));
    ck_assert_uint_eq(st.instructions, 15);   /* 0..14: END left out */
    ck_assert_uint_eq(st.width_hist[0], 6);   /* TEX and five flow */
    ck_assert_uint_eq(st.width_hist[1], 3);   /* RSQ, FSLT, MOV .w */
    ck_assert_uint_eq(st.width_hist[2], 2);   /* MUL .xy, KILL_IF */
    ck_assert_uint_eq(st.width_hist[3], 2);   /* DP3, ADD_SAT .xyz */
    ck_assert_uint_eq(st.width_hist[4], 2);   /* MOV, DP4 */
    ck_assert_uint_eq(st.tex, 1);
    ck_assert_uint_eq(st.ops, 3 * 1 + 2 * 2 + 2 * 3 + 2 * 4);
    ck_assert_uint_eq(st.issued, 10);         /* the ALU nine and TEX */
    ck_assert_uint_eq(st.loops, 1);
}
END_TEST

START_TEST(test_errors)
{
    static const char *const bad[] = {
        "VERT\n  0: MOV TEMP[0], IN[0]\n  1: \n",        /* no opcode */
        "VERT\n  0: MOV TEMP[0], IN[0]\n  1: ADD\n",     /* no operand */
        "VERT\n  0: mov TEMP[0], IN[0]\n",               /* lower case */
    };
    static const unsigned line[] = { 3, 3, 2 };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct us_tgsi_stats st;
        struct us_diag d = { 0 };
        ck_assert_msg(!us_tgsi_stats(bad[i], strlen(bad[i]), &st, &d),
                      "%s", bad[i]);
        ck_assert_uint_eq(d.line, line[i]);
        ck_assert(strstr(d.msg, "TGSI") != NULL);
    }
}
END_TEST

/* A log as shader_runner prints it: piglit's blit shaders first, NIR
 * dumps between, the test's shaders last, piglit's result after. */
static const char log_text[] =
    "FRAG\n"
    "DCL OUT[0], COLOR\n"
    "  0: MOV OUT[0], IN[0]\n"
    "  1: END\n"
    "VERT\n"
    "DCL IN[0]\n"
    "  0: MOV OUT[0], IN[0]\n"
    "  1: END\n"
    "shader: MESA_SHADER_VERTEX\n"
    "\tvec4 32 ssa_1 = intrinsic load_deref (ssa_0) (access=0)\n"
    "\n"
    "VERT\n"
    "PROPERTY NEXT_SHADER FRAG\n"
    "DCL IN[0]\n"
    "  0: MUL TEMP[0], CONST[0][1], IN[0].yyyy\n"
    "  1: MAD OUT[0], CONST[0][0], IN[0].xxxx, TEMP[0]\n"
    "  2: END\n"
    "shader: MESA_SHADER_FRAGMENT\n"
    "FRAG\n"
    "DCL OUT[0], COLOR\n"
    "  0: MOV OUT[0].xyz, IN[0]\n"
    "  1: END\n"
    "PIGLIT: {\"result\": \"pass\" }\n";

START_TEST(test_block)
{
    const char *s;
    size_t n;
    struct us_tgsi_stats st;
    struct us_diag d = { 0 };
    ck_assert(us_tgsi_block(log_text, sizeof log_text - 1, "VERT", &s, &n));
    ck_assert(!strncmp(s, "VERT\nPROPERTY NEXT_SHADER", 25));
    ck_assert(!strncmp(s + n - 9, "  2: END\n", 9));
    ck_assert(us_tgsi_stats(s, n, &st, &d));
    ck_assert_uint_eq(st.instructions, 2);
    ck_assert_uint_eq(st.width_hist[4], 2);
    ck_assert(us_tgsi_block(log_text, sizeof log_text - 1, "FRAG", &s, &n));
    ck_assert(us_tgsi_stats(s, n, &st, &d));
    ck_assert_uint_eq(st.instructions, 1);
    ck_assert_uint_eq(st.width_hist[3], 1);   /* the test's, not the blit */
    ck_assert(strstr(s, "PIGLIT") == NULL || strstr(s, "PIGLIT") >= s + n);
    /* no block, or a header without instructions */
    ck_assert(!us_tgsi_block(log_text, sizeof log_text - 1, "GEOM", &s, &n));
    static const char empty[] = "VERT\nshader: MESA_SHADER_VERTEX\n";
    ck_assert(!us_tgsi_block(empty, sizeof empty - 1, "VERT", &s, &n));
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("tgsi");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_counts);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_block);
    suite_add_tcase(s, tc);
    return s;
}

#include "check_main.h"
