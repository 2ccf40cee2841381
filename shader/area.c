/*
 * Area and energy model (SPEC 3): every cost derives from the parameter
 * table shader/area.def; models describe their machine as component counts
 * (struct us_hw) and their run as events (struct us_activity).  The
 * partial SFU's area is built from its own logic (shifters, leading-zero
 * counter, rounding and exponent adders, operand muxes) on top of the SP's
 * shared multiplier and adder; a full SFU is its own multipliers and adder
 * plus that logic, with its LUT counted in lut_bits.  Integer ALUs,
 * load/store units and the data cache are built the same way from
 * area.def's cells (its header says how); the memory-system part says how
 * many LSUs and what cache a machine has (us_memsys_hw).
 */
#include <math.h>

#include "shader/memsys.h"
#include "shader/timing.h"

struct area_params {
#define AREA(name, value, unit, source) double name;
#include "shader/area.def"
#undef AREA
};

static const struct area_params A = {
#define AREA(name, value, unit, source) .name = value,
#include "shader/area.def"
#undef AREA
};

/* Bits of one LUT read for energy: one 64-bit SRAM read as in [H]. */
enum { LUT_READ_BITS = 64, RF_WORD_BITS = 32, INT_BITS = 32 };

double us_area_partial_sfu_logic(void)
{
    double shifter = A.partial_shifter_bits * log2(A.partial_shifter_bits) *
                     A.mux2_area;
    double lzc = (A.partial_lzc_bits - 1.0) * 2.0 * A.nand2_area;
    double adders = (A.partial_round_bits + A.partial_exp_bits) *
                    A.int_add_bit_area;
    double muxes = A.partial_operand_muxes * A.mux2_area;
    return A.partial_shifters * shifter + lzc + adders + muxes;
}

static double rf_bit_area(unsigned ports)
{
    return A.sram_bit_area * pow((ports ? ports : 2) / 2.0, A.rf_port_exponent);
}

static double control_area(void)
{
    return A.control_nand2 * A.nand2_area;
}

static double full_sfu_area(void)
{
    return A.sfu_full_muls * A.fp32_mul_area +
           A.sfu_full_adds * A.fp32_add_area + us_area_partial_sfu_logic();
}

/* The integer ALU beside its multiplier: adder, logic, barrel shifter,
 * leading-zero counter, result select. */
static double int_alu_area(void)
{
    double adder = INT_BITS * A.int_add_bit_area;
    double logic = INT_BITS * A.int_logic_nand2 * A.nand2_area;
    double shifter = INT_BITS * log2(INT_BITS) * A.mux2_area;
    double lzc = (INT_BITS - 1) * 2.0 * A.nand2_area;
    double select = INT_BITS * 3.0 * A.mux2_area;
    return adder + logic + shifter + lzc + select;
}

static double lsu_area(void)
{
    return INT_BITS * A.int_add_bit_area +
           A.lsu_entries * A.lsu_entry_bits * A.dff_area +
           A.lsu_align_muxes * A.mux2_area;
}

static double cache_area(const struct us_hw *hw)
{
    if (!hw->cache_lines)
        return 0.0;
    double cells = (double)hw->cache_lines * hw->cache_line_bits *
                   A.sram_bit_area;
    double rows = (double)hw->cache_lines * A.cache_row_nand2;
    double cols = (double)hw->cache_banks * hw->cache_line_bits *
                  A.cache_col_nand2;
    return cells + (rows + cols) * A.nand2_area;
}

struct breakdown {
    double fp, rf, lut, imem, control, sfu, ints, lsu, cache;
};

static double area_parts(const struct us_hw *hw, struct breakdown *b)
{
    b->fp = hw->fmul * A.fp32_mul_area + hw->fadd * A.fp32_add_area;
    b->rf = (double)hw->rf_bits * rf_bit_area(hw->rf_ports);
    b->lut = (double)hw->lut_bits * A.sram_bit_area +
             (double)hw->lut_xbar * A.mux2_area;
    b->imem = (double)hw->imem_bits * A.sram_bit_area;
    b->control = hw->issue_slots * control_area();
    b->sfu = hw->sfu_full * full_sfu_area() +
             hw->sfu_partial * us_area_partial_sfu_logic();
    b->ints = hw->int_alu * int_alu_area() + hw->int_mul * A.int_mul_area;
    b->lsu = hw->lsus * lsu_area();
    b->cache = cache_area(hw);
    return b->fp + b->rf + b->lut + b->imem + b->control + b->sfu + b->ints +
           b->lsu + b->cache;
}

double us_area_um2(const struct us_hw *hw)
{
    struct breakdown b;
    return area_parts(hw, &b);
}

double us_energy_split(const struct us_hw *hw, const struct us_activity *act,
                       struct us_energy_parts *p)
{
    /* The terms in one order, summed in it: the total's bits do not
     * depend on the grouping into parts. */
    const double t[] = {
        (double)act->fmul_ops * A.fp32_mul_energy,
        (double)act->fadd_ops * A.fp32_add_energy,
        (double)act->sfu_full_ops *
            (A.full_sfu_op_energy_muls * A.fp32_mul_energy +
             2.0 * A.fp32_add_energy +
             LUT_READ_BITS * A.sram_read_bit_energy),  /* its own table */
        (double)(act->rf_reads + act->rf_writes) * RF_WORD_BITS *
            A.sram_read_bit_energy,
        (double)act->lut_reads * LUT_READ_BITS * A.sram_read_bit_energy,
        (double)act->imem_bits * A.sram_read_bit_energy,
        (double)act->issues * A.control_issue_energy,
        (double)act->int_alu_ops * A.int_add_energy,
        (double)act->int_mul_ops * A.int_mul_energy,
        (double)act->mem_requests *
            (A.int_add_energy +      /* the address add */
             A.lsu_request_accesses * A.lsu_entry_bits *
                 A.sram_read_bit_energy),
        (double)act->cache_accesses * hw->cache_line_bits *
            A.sram_read_bit_energy,
    };
    *p = (struct us_energy_parts){
        .fp = t[0] + t[1], .sfu = t[2], .rf = t[3], .lut = t[4],
        .imem = t[5], .control = t[6], .ints = t[7] + t[8], .lsu = t[9],
        .cache = t[10],
    };
    double e = 0.0;
    for (unsigned k = 0; k < sizeof t / sizeof t[0]; k++)
        e += t[k];
    return e;
}

double us_energy_pj(const struct us_hw *hw, const struct us_activity *act)
{
    struct us_energy_parts p;
    return us_energy_split(hw, act, &p);
}

uint64_t us_area_lut_bits(const struct us_config *cfg)
{
    return us_sfu_lut_total_bits(&cfg->sfu);
}

void us_hw_simd4(const struct us_config *cfg, uint64_t imem_bits,
                 struct us_hw *hw)
{
    unsigned units = (unsigned)cfg->v[US_KNOB_alu_lanes] / 4;
    if (units == 0)
        units = 1;
    *hw = (struct us_hw){ 0 };
    hw->fmul = 4 * units;
    hw->fadd = (4 + 3) * units;        /* lanes + the DP4 tree's 3 adders */
    hw->rf_count = units;
    hw->rf_ports = 4;                  /* 3 vec4 reads + 1 write */
    hw->rf_bits = (uint64_t)units * (unsigned)cfg->v[US_KNOB_threads_per_proc] *
                  US_AREA_RF_VEC4_PER_THREAD * 128;
    hw->sfu_full = units;
    hw->lut_bits = us_area_lut_bits(cfg) * units;
    hw->lut_ports = units;
    hw->imem_bits = imem_bits;
    hw->issue_slots = units;
    hw->int_alu = hw->int_mul = 4 * units;   /* one per lane */
    us_memsys_hw(cfg, us_lockstep_groups(cfg, units), 4 * units, hw);
}

void us_area_report(const struct us_config *cfg, const struct us_hw *hw,
                    const struct us_activity *act, uint64_t imem_bits,
                    struct us_stats *st)
{
    (void)imem_bits;  /* hw->imem_bits already holds the model's program */
    struct breakdown b;
    double area = area_parts(hw, &b);
    double ref_imem = us_stats_get(st, "simd4_instr_mem_bits");
    struct us_hw simd;
    us_hw_simd4(cfg, isnan(ref_imem) ? hw->imem_bits : (uint64_t)ref_imem,
                &simd);
    us_stats_counter(st, "area", "core area, um^2 at 45 nm (shader/area.def)",
                     area);
    us_stats_counter(st, "area.fp", "FP32 multipliers and adders", b.fp);
    us_stats_counter(st, "area.rf", "register files", b.rf);
    us_stats_counter(st, "area.lut", "coefficient LUTs and their crossbar",
                     b.lut);
    us_stats_counter(st, "area.imem", "instruction memory", b.imem);
    us_stats_counter(st, "area.control", "issue control", b.control);
    us_stats_counter(st, "area.sfu", "full SFUs and partial-SFU logic", b.sfu);
    us_stats_counter(st, "area.int", "integer ALUs and multipliers", b.ints);
    us_stats_counter(st, "area.lsu", "load/store units", b.lsu);
    us_stats_counter(st, "area.cache", "data cache (mem_system=cache)",
                     b.cache);
    if (hw->sfu_partial) {
        double sp = (b.fp + b.rf + b.control) / hw->sfu_partial;
        us_stats_counter(st, "area.partial_sfu_share", "partial-SFU logic "
                         "over one SP's datapath, registers and control",
                         us_area_partial_sfu_logic() / sp);
    }
    us_stats_counter(st, "area_ref", "the simd4 machine's area at this "
                     "configuration", us_area_um2(&simd));
    us_stats_formula(st, "area_simd4", "area normalized to simd4",
                     "area / area_ref");
    us_stats_counter(st, "int_ops.alu", "integer components executed on "
                     "the integer ALUs (add, logic, shift, compare), all "
                     "threads", (double)act->int_alu_ops);
    us_stats_counter(st, "int_ops.mul", "integer components executed on "
                     "the multipliers (MUL, MUL.HI, DIV, MOD), all threads",
                     (double)act->int_mul_ops);
    struct us_energy_parts e;
    us_stats_counter(st, "energy", "energy of the run, pJ",
                     us_energy_split(hw, act, &e));
    us_stats_counter(st, "energy_parts.fp", "FP32 multiplies and adds", e.fp);
    us_stats_counter(st, "energy_parts.rf", "register-file reads and writes", e.rf);
    us_stats_counter(st, "energy_parts.sfu", "full-SFU operations", e.sfu);
    us_stats_counter(st, "energy_parts.lut", "coefficient-LUT reads", e.lut);
    us_stats_counter(st, "energy_parts.imem", "instruction-word fetches", e.imem);
    us_stats_counter(st, "energy_parts.control", "issue control", e.control);
    us_stats_counter(st, "energy_parts.int", "integer ALU and multiplier "
                     "operations", e.ints);
    us_stats_counter(st, "energy_parts.lsu", "load/store requests", e.lsu);
    us_stats_counter(st, "energy_parts.cache", "data-cache accesses", e.cache);
    us_stats_formula(st, "energy_per_thread", "pJ per thread",
                     "energy / threads");
    us_stats_formula(st, "area_delay", "area x cycles (um^2 cycles)",
                     "area * cycles");
}
