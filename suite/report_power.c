/*
 * The power comparison with hetero, decomposed (report.md section f, and
 * the paper table's power row): energy per useful op by component of
 * shader/area.c's event-energy model for the scalar machine and hetero,
 * and power as energy over time with the time ratio apart, so a reader
 * sees whether the sign of the power difference comes from the energy
 * (which component) or from the time.  The model has dynamic energy
 * only: no leakage, so a machine that does the same work in less time
 * draws more power at equal energy.
 */
#include <math.h>
#include <string.h>

#include "suite/report.h"

static const struct {
    const char *key, *what;
} parts[US_POWER_PARTS] = {
    { "energy_parts.fp", "FP32 multiplies and adds" },
    { "energy_parts.rf", "register files" },
    { "energy_parts.sfu", "full SFUs" },
    { "energy_parts.lut", "coefficient LUTs" },
    { "energy_parts.imem", "instruction fetch" },
    { "energy_parts.control", "issue control" },
    { "energy_parts.int", "integer units" },
    { "energy_parts.lsu", "load/store units" },
    { "energy_parts.cache", "data cache" },
};

bool us_report_power(const struct us_report *r, struct us_power *p)
{
    memset(p, 0, sizeof *p);
    if (!us_report_ran(r, R_SCALAR) || !us_report_ran(r, R_HETERO))
        return false;
    const struct us_bench *b = r->b;
    const int v[2] = { r->v[R_SCALAR], r->v[R_HETERO] };
    for (unsigned m = 0; m < 2; m++) {
        double ops = us_bench_sum(b, v[m], US_BENCH_ALL, "useful_ops", false);
        if (!(ops > 0))
            return false;
        p->total[m] = us_bench_sum(b, v[m], US_BENCH_ALL, "energy", false) /
                      ops;
        for (unsigned k = 0; k < US_POWER_PARTS; k++) {
            double e = us_bench_sum(b, v[m], US_BENCH_ALL, parts[k].key,
                                    false);
            p->per_op[m][k] = isnan(e) ? 0 : e / ops;
        }
    }
    p->energy = us_bench_geo_ratio(b, v[0], v[1], US_BENCH_ALL, "energy");
    p->time = us_bench_geo_ratio(b, v[0], v[1], US_BENCH_ALL, "cycles");
    p->power = p->energy / p->time;
    double most = 0;
    for (unsigned k = 0; k < US_POWER_PARTS; k++) {
        double d = p->per_op[0][k] - p->per_op[1][k];
        if (fabs(d) > fabs(most)) {
            most = d;
            p->top = k;
        }
    }
    return isfinite(p->power) && isfinite(p->total[0]) &&
           isfinite(p->total[1]);
}

const char *us_power_part(unsigned k)
{
    return parts[k].what;
}

const char *us_power_cause(const struct us_power *p)
{
    if (p->power > 1)
        return p->energy <= 1 ? "the time alone: less or equal energy in "
                                "less time"
                              : p->time < 1 ? "both: more energy, in less "
                                              "time"
                                            : "the energy";
    return p->energy >= 1 ? "the time alone: more or equal energy in more "
                            "time"
                          : p->time > 1 ? "both: less energy, in more time"
                                        : "the energy";
}

void us_report_power_section(FILE *f, const struct us_report *r)
{
    struct us_power p;
    if (!us_report_power(r, &p))
        return;
    fprintf(f, "\n\n### Power against hetero, decomposed\n\n"
            "Energy per useful op in pJ (each model's energy over the "
            "programs divided by their useful ops, which are the same "
            "work on both), by component of the event-energy model "
            "(`shader/area.c`; `energy_parts.*` in docs/METRICS.md):\n\n"
            "| component | scalar | hetero | scalar - hetero |\n"
            "|---|---:|---:|---:|\n");
    for (unsigned k = 0; k < US_POWER_PARTS; k++) {
        if (p.per_op[0][k] == 0 && p.per_op[1][k] == 0)
            continue;
        fprintf(f, "| %s | %.3f | %.3f | %+.3f |\n", parts[k].what,
                p.per_op[0][k], p.per_op[1][k],
                p.per_op[0][k] - p.per_op[1][k]);
    }
    fprintf(f, "| **total** | **%.3f** | **%.3f** | **%+.3f** |\n\n",
            p.total[0], p.total[1], p.total[0] - p.total[1]);
    fprintf(f, "Geometric means of per-program ratios, scalar over hetero: "
            "energy %.3f, time (cycles) %.3f, power = energy / time "
            "%.3f (%+.1f%%).  The sign of the power difference comes from "
            "%s; the component whose energy per op differs most is %s "
            "(%+.3f pJ).  The model counts dynamic energy only, with no "
            "leakage: at equal energy, the machine that finishes first "
            "draws more power.\n",
            p.energy, p.time, p.power, 100 * (p.power - 1),
            us_power_cause(&p), parts[p.top].what,
            p.per_op[0][p.top] - p.per_op[1][p.top]);
}
