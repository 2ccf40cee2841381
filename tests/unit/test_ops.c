/* The opcode table is consistent with the ARB specs' instruction lists. */
#include <string.h>

#include "ushader.h"

#include "check_main.h"

START_TEST(lookup_round_trips)
{
    for (int op = 0; op < US_OP_COUNT; op++) {
        const char *name = us_ops[op].name;
        ck_assert_int_eq(us_op_lookup(name, strlen(name)), op);
    }
    ck_assert_int_eq(us_op_lookup("MOVE", 4), -1);
    ck_assert_int_eq(us_op_lookup("mov", 3), -1);
    ck_assert_int_eq(us_op_lookup("MO", 2), -1);
}
END_TEST

/* ARB_vertex_program 1.0 section 2.14.5 lists 27 instructions and
 * ARB_fragment_program 1.0 section 3.11.5 lists 33; the extension adds
 * 4 comparisons, SSG, TRC and 7 flow-control instructions. */
START_TEST(stage_counts_match_specs)
{
    int vp = 0, fp = 0, ext = 0;
    for (int op = 0; op < US_OP_COUNT; op++) {
        if (us_ops[op].stages & US_EXT) {
            ext++;
            continue;
        }
        vp += !!(us_ops[op].stages & US_VP);
        fp += !!(us_ops[op].stages & US_FP);
    }
    ck_assert_int_eq(vp, 27);
    ck_assert_int_eq(fp, 33);
    ck_assert_int_eq(ext, 13);
}
END_TEST

START_TEST(formats_agree_with_sources)
{
    for (int op = 0; op < US_OP_COUNT; op++) {
        const struct us_opinfo *o = &us_ops[op];
        ck_assert_int_ge(o->nsrc, o->format == US_FMT_FLOW ? 0 : 1);
        ck_assert_int_le(o->nsrc, o->format == US_FMT_FLOW ? 0 : 3);
        if (o->unit == US_UNIT_BRANCH)
            ck_assert_int_eq(o->shape, US_SHAPE_NONE);
        if (o->format == US_FMT_TEX)
            ck_assert_int_eq(o->unit, US_UNIT_TEX);
        if (o->shape == US_SHAPE_REPL)
            ck_assert_int_eq(o->format, US_FMT_SCL);
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("ops");
    TCase *tc = tcase_create("table");
    tcase_add_test(tc, lookup_round_trips);
    tcase_add_test(tc, stage_counts_match_specs);
    tcase_add_test(tc, formats_agree_with_sources);
    suite_add_tcase(s, tc);
    return s;
}
