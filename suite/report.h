/*
 * What the sections of report.md share (suite/report.c, the paper table
 * in suite/report_paper.c): the models that ran and their mean
 * utilization, the static code figures per program class, and the
 * machine the base configuration builds, so every sentence is computed
 * from the run and a sentence whose inputs are missing is left out.
 */
#ifndef US_SUITE_REPORT_H
#define US_SUITE_REPORT_H

#include "suite/suite.h"

enum { R_SCALAR, R_SIMD4, R_VLIW, R_SUPERSCALAR, R_HETERO, R_NARCH };
extern const char *const us_report_arch[R_NARCH];

struct us_report {
    const struct us_bench *b;
    int v[R_NARCH];                        /* variant, -1: not run        */
    double util[R_NARCH][US_BENCH_NCLASS]; /* us_bench_util_mean          */
    struct us_bench_code code[US_BENCH_NCLASS];
    unsigned lanes;          /* alu_lanes: the scalar machine's SPs       */
    unsigned simd4_units;    /* lanes / 4 (also vliw, superscalar)        */
    unsigned hetero_width;   /* hetero_vec_width                          */
    unsigned hetero_procs;   /* lanes / (width + 1)                       */
    unsigned lut_share;      /* SPs per shared LUT (at most lanes)        */
    unsigned luts;           /* the scalar machine's LUTs (partial SFUs)  */
    int sfu, lut;            /* knobs sfu (partial|full|pool), lut        */
};

void us_report_init(struct us_report *r, const struct us_bench *b);

static inline bool us_report_ran(const struct us_report *r, unsigned a)
{
    return r->v[a] >= 0;
}

/* Does class c (US_BENCH_VERTEX ...) have programs with useful ALU ops?
 * Its rows, columns and sentences need them. */
static inline bool us_report_has_class(const struct us_report *r, unsigned c)
{
    return r->code[c].alu_programs > 0;
}

/* The scalar machine's SFUs and LUTs in words ("8 partial SFUs on the
 * SPs' multiply-adds and 1 LUT shared by 8 SPs"). */
void us_report_scalar_sfu(const struct us_report *r, char *buf, size_t size);

/* Power against hetero, decomposed (suite/report_power.c): energy per
 * useful op by component ([0] scalar, [1] hetero), the geometric-mean
 * ratios scalar / hetero of energy, time and power, and the component
 * whose energy per op differs most. */
enum { US_POWER_PARTS = 9 };
struct us_power {
    double per_op[2][US_POWER_PARTS], total[2];
    double energy, time, power;
    unsigned top;
};
bool us_report_power(const struct us_report *r, struct us_power *p);
const char *us_power_part(unsigned k);
/* What makes the power ratio's sign: the energy, the time or both. */
const char *us_power_cause(const struct us_power *p);
void us_report_power_section(FILE *f, const struct us_report *r);

/* Section h, sensitivity (suite/report_sens.c). */
void us_report_sensitivity(FILE *f, const struct us_report *r, bool plots);

/* The knob value of section h at which the scalar SP's mean gain over
 * model a (R_SIMD4 ...) comes closest to `paper` (a ratio): its knob
 * (index into us_bench_sens), value and gain; false when none ran. */
bool us_report_sens_closest(const struct us_report *r, unsigned a,
                            double paper, unsigned *knob, int *value,
                            double *gain);

/* Section g, paper vs measured. */
void us_report_paper(FILE *f, const struct us_report *r);

#endif
