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
    /* a SIGNLESS opcode answers to both signs; a signed one only to its */
    ck_assert_int_eq(us_op_lookup("ADD.S", 5), US_OP_ADD_U);
    ck_assert_int_eq(us_op_lookup("MUL.S", 5), US_OP_MUL_U);
    ck_assert_int_eq(us_op_lookup("SHR.S", 5), US_OP_SHR_S);
    ck_assert_int_eq(us_op_lookup("SHR.U", 5), US_OP_SHR_U);
    ck_assert_int_eq(us_op_lookup("DIV.S", 5), US_OP_DIV_S);
    ck_assert_int_eq(us_op_lookup("ABS.U", 5), -1);
    ck_assert_int_eq(us_op_lookup("MUL.S.HI", 8), US_OP_MUL_S_HI);
    ck_assert_int_eq(us_op_lookup("ADD.F", 5), -1);
}
END_TEST

/* ARB_vertex_program 1.0 section 2.14.5 lists 27 instructions and
 * ARB_fragment_program 1.0 section 3.11.5 lists 33; the extension adds
 * 4 comparisons, SSG, TRC and 8 flow-control instructions (IF ELSE ENDIF
 * BGNLOOP ENDLOOP BRK CONT, and SYNC for the seeds' SIMT machines), and compute
 * (docs/COMPUTE.md) 45 integer ones (counting signless pairs once), 3
 * memory ones, MEMBAR and BRA, and 4 for compute programs alone (BAR LDS
 * STS ATOMS); the 4 derivatives (DDX DDY and their .FINE forms, the
 * QUAD flag) of NV_fragment_program2 and TGSI are fragment-only
 * extensions. */
START_TEST(stage_counts_match_specs)
{
    int vp = 0, fp = 0, ext = 0, ints = 0, other = 0, cp = 0, quad = 0;
    for (int op = 0; op < US_OP_COUNT; op++) {
        const struct us_opinfo *o = &us_ops[op];
        if (o->stages == US_CP) {
            cp++;
        } else if (o->flags & US_QUAD) {
            ck_assert_int_eq(o->stages, US_FP | US_EXT);
            quad++;
        } else if (o->stages & US_EXT) {
            bool memory = o->unit == US_UNIT_LSU || o->unit == US_UNIT_BARRIER;
            if (o->flags && o->unit == US_UNIT_ALU)
                ints++;
            else if (memory || op == US_OP_BRA)
                other++;
            else
                ext++;
        } else {
            vp += !!(o->stages & US_VP);
            fp += !!(o->stages & US_FP);
        }
    }
    ck_assert_int_eq(vp, 27);
    ck_assert_int_eq(fp, 33);
    ck_assert_int_eq(ext, 14);
    ck_assert_int_eq(ints, 45);
    ck_assert_int_eq(other, 5);
    ck_assert_int_eq(cp, 4);
    ck_assert_int_eq(quad, 4);
}
END_TEST

START_TEST(formats_agree_with_sources)
{
    for (int op = 0; op < US_OP_COUNT; op++) {
        const struct us_opinfo *o = &us_ops[op];
        bool none = o->format == US_FMT_FLOW || o->format == US_FMT_BAR;
        ck_assert_int_ge(o->nsrc, none ? 0 : 1);
        ck_assert_int_le(o->nsrc, none ? 0 : 3);
        if (o->unit == US_UNIT_LSU)
            ck_assert(o->format == US_FMT_LOAD || o->format == US_FMT_STORE ||
                      o->format == US_FMT_ATOM);
        if (o->flags & US_I_DST)   /* integer results: every component */
            ck_assert(o->shape == US_SHAPE_COMP);
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
