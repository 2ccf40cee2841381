/*
 * ushader stats [--json] FILE...: instruction counts of each program and
 * in total -- vec4 instructions, scalar instructions (uncompacted),
 * compacted scalar instructions (and in each compaction variant: words
 * and bits), instruction-memory bits per target
 * (isa/scalar.h documents each encoding) and the vector-width histogram
 * (us_inst_hist_width: the useful ops of each vec4 instruction, SPEC 3;
 * texture fetches left out); apart, the preshader's vec4 instructions,
 * which run once per draw (us_resolve_params), not per thread.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "isa/scalar.h"

static const char usage[] =
    "usage: ushader stats [--json] FILE...\n"
    "  Per file and in total: vec4_instructions, scalar_instructions\n"
    "  (uncompacted), compacted_instructions, instruction-memory bits per\n"
    "  target, the compaction variants (isa/scalar.h: offsets, swizzle,\n"
    "  chain) in words and bits, and the vector-width histogram (share of\n"
    "  1-, 2-, 3- and 4-component instructions), all of the per-thread\n"
    "  code; apart\n"
    "  preshader_instructions, the vec4 instructions a GLSL program's\n"
    "  preshader runs once per draw (docs/GLSL.md \"Preshader\"); for the\n"
    "  total also per vec4 opcode:\n"
    "    OP  N -> S  C (+D)  W H   N vec4 instructions of opcode OP lower\n"
    "                         to S scalar instructions uncompacted and C\n"
    "                         after compaction (each lowered alone); D = C\n"
    "                         - N, the words compaction leaves beyond one\n"
    "                         per vec4 instruction; W and H the words of\n"
    "                         the swizzle and chain variants (JSON:\n"
    "                         by_opcode)\n"
    "  --json  one JSON object: \"files\", \"programs\", \"skipped\",\n"
    "          \"total\"\n"
    "  Files that do not assemble are reported on stderr and skipped; the\n"
    "  exit status is then 1.\n";

static void add_stats(struct us_code_stats *sum, const struct us_code_stats *s)
{
    sum->vec4_instructions += s->vec4_instructions;
    sum->preshader_instructions += s->preshader_instructions;
    sum->scalar_instructions += s->scalar_instructions;
    sum->compacted_instructions += s->compacted_instructions;
    sum->vliw_bundles += s->vliw_bundles;
    sum->vliw5_bundles += s->vliw5_bundles;
    sum->hetero_bundles += s->hetero_bundles;
    for (int w = 0; w < 5; w++)
        sum->width_hist[w] += s->width_hist[w];
    for (int t = 0; t < US_TARGET_COUNT; t++)
        sum->bits[t] += s->bits[t];
    for (int f = 0; f < US_COMPACT_COUNT; f++) {
        sum->form_instructions[f] += s->form_instructions[f];
        sum->form_bits[f] += s->form_bits[f];
    }
    for (int op = 0; op < US_OP_COUNT; op++) {
        sum->op_count[op] += s->op_count[op];
        for (int f = 0; f < US_COMPACT_COUNT; f++)
            sum->op_form[f][op] += s->op_form[f][op];
    }
}

static double ratio(double a, double b)
{
    return b > 0 ? a / b : 0.0;
}

static void print_json(const char *name, const struct us_code_stats *s,
                       bool total)
{
    printf("{");
    if (name) {
        printf("\"file\": ");
        cli_json_string(stdout, name);
        printf(", ");
    }
    printf("\"vec4_instructions\": %u, \"preshader_instructions\": %u, "
           "\"scalar_instructions\": %u, "
           "\"compacted_instructions\": %u, \"vliw_bundles\": %u, "
           "\"vliw5_bundles\": %u, \"hetero_bundles\": %u, \"bits\": {",
           s->vec4_instructions, s->preshader_instructions,
           s->scalar_instructions,
           s->compacted_instructions, s->vliw_bundles, s->vliw5_bundles,
           s->hetero_bundles);
    for (int t = 0; t < US_TARGET_COUNT; t++)
        printf("%s\"%s\": %llu", t ? ", " : "", us_target_name((enum us_target)t),
               (unsigned long long)s->bits[t]);
    unsigned n = s->width_hist[1] + s->width_hist[2] + s->width_hist[3] +
                 s->width_hist[4];
    /* the one histogram shape (docs/METRICS.md): shares by width */
    /* the compaction variants (isa/scalar.h): words and bits */
    printf("}, \"compaction\": {");
    for (int f = US_COMPACT_OFFSETS; f < US_COMPACT_COUNT; f++)
        printf("%s\"%s\": {\"instructions\": %u, \"bits\": %llu}",
               f > US_COMPACT_OFFSETS ? ", " : "",
               us_compaction_name((enum us_compaction)f),
               s->form_instructions[f], (unsigned long long)s->form_bits[f]);
    printf("}, \"width\": {");
    for (int w = 1; w <= 4; w++)
        printf("%s\"%d\": %.10g", w > 1 ? ", " : "", w, ratio(s->width_hist[w], n));
    printf("}");
    if (total) {
        printf(", \"by_opcode\": {");
        const char *sep = "";
        for (int op = 0; op < US_OP_COUNT; op++) {
            if (!s->op_count[op])
                continue;
            printf("%s\"%s\": {\"vec4\": %u, \"scalar\": %u, "
                   "\"compacted\": %u, \"swizzle\": %u, \"chain\": %u}",
                   sep, us_ops[op].name, s->op_count[op],
                   s->op_form[US_COMPACT_NONE][op],
                   s->op_form[US_COMPACT_OFFSETS][op],
                   s->op_form[US_COMPACT_SWIZZLE][op],
                   s->op_form[US_COMPACT_CHAIN][op]);
            sep = ", ";
        }
        printf("}");
        double v = s->vec4_instructions;
        printf(", \"ratios\": {\"scalar_per_vec4\": %.4f, "
               "\"compacted_per_vec4\": %.4f, \"bits_per_simd4_bits\": {",
               ratio(s->scalar_instructions, v), ratio(s->compacted_instructions, v));
        for (int t = 0; t < US_TARGET_COUNT; t++)
            printf("%s\"%s\": %.4f", t ? ", " : "", us_target_name((enum us_target)t),
                   ratio((double)s->bits[t], (double)s->bits[US_TARGET_SIMD4]));
        printf("}}");
    }
    printf("}");
}

static void print_text(const char *name, const struct us_code_stats *s)
{
    unsigned n = s->width_hist[1] + s->width_hist[2] + s->width_hist[3] +
                 s->width_hist[4];
    printf("%s: vec4 %u, scalar %u (%.2fx), compacted %u (%.3fx); width "
           "1/2/3/4: %.1f%% %.1f%% %.1f%% %.1f%%\n  bits:", name,
           s->vec4_instructions, s->scalar_instructions,
           ratio(s->scalar_instructions, s->vec4_instructions),
           s->compacted_instructions,
           ratio(s->compacted_instructions, s->vec4_instructions),
           100 * ratio(s->width_hist[1], n), 100 * ratio(s->width_hist[2], n),
           100 * ratio(s->width_hist[3], n), 100 * ratio(s->width_hist[4], n));
    for (int t = 0; t < US_TARGET_COUNT; t++)
        printf(" %s %llu", us_target_name((enum us_target)t),
               (unsigned long long)s->bits[t]);
    printf("\n  compaction variants (words, bits):");
    for (int f = US_COMPACT_OFFSETS; f < US_COMPACT_COUNT; f++)
        printf(" %s %u (%.3fx) %llu", us_compaction_name((enum us_compaction)f),
               s->form_instructions[f],
               ratio(s->form_instructions[f], s->vec4_instructions),
               (unsigned long long)s->form_bits[f]);
    printf("\n");
    if (s->preshader_instructions)
        printf("  preshader: vec4 %u, once per draw\n",
               s->preshader_instructions);
}

/* Where compaction leaves more than one word per vec4 instruction. */
static void print_by_opcode(const struct us_code_stats *s)
{
    printf("  per opcode (vec4 -> scalar, compacted (+ beyond one per vec4"
           " instruction); swizzle, chain; each lowered alone):\n");
    for (int op = 0; op < US_OP_COUNT; op++)
        if (s->op_count[op])
            printf("    %-4s %5u -> %6u %6u (%+d)  %6u %6u\n", us_ops[op].name,
                   s->op_count[op], s->op_form[US_COMPACT_NONE][op],
                   s->op_form[US_COMPACT_OFFSETS][op],
                   (int)s->op_form[US_COMPACT_OFFSETS][op] - (int)s->op_count[op],
                   s->op_form[US_COMPACT_SWIZZLE][op],
                   s->op_form[US_COMPACT_CHAIN][op]);
}

int cmd_stats(int argc, char **argv)
{
    bool json = false;
    int nfiles = 0;
    static const struct cli_opt options[] = {
        { "--help", false, false, NULL }, { "--json", false, false, NULL },
        { NULL, false, false, NULL },
    };
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return 0;
        }
    if (!cli_check_options("stats", argc, argv, 1, options))
        return 2;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(argv[i], "--json")) {
            json = true;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            cli_error(NULL, 0, 0, "stats: unknown option '%s'", argv[i]);
            fputs(usage, stderr);
            return 2;
        } else {
            nfiles++;
        }
    }
    if (!nfiles) {
        fputs(usage, stderr);
        return 2;
    }
    struct us_code_stats total;
    memset(&total, 0, sizeof total);
    unsigned done = 0, failed = 0;
    if (json) {
        printf("{\n");
        cli_json_head(argc, argv, (const char *const *)argv + 1,
                      (size_t)argc - 1, NULL, NULL);
        printf("\"files\": [\n");
    }
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1])
            continue;
        struct us_program prog;
        if (!cli_load_program(argv[i], US_STAGE_ANY, &prog)) {
            failed++;
            continue;
        }
        struct us_code_stats st;
        struct us_diag d;
        if (!us_code_stats(&prog, &st, &d)) {
            cli_error(argv[i], d.line, 0, "%s", d.msg);
            failed++;
        } else {
            if (json) {
                printf("%s  ", done ? ",\n" : "");
                print_json(argv[i], &st, false);
            } else {
                print_text(argv[i], &st);
            }
            add_stats(&total, &st);
            done++;
        }
        us_program_free(&prog);
    }
    if (json) {
        printf("\n], \"programs\": %u, \"skipped\": %u, \"total\": ", done, failed);
        print_json(NULL, &total, true);
        printf("}\n");
    } else {
        print_text("total", &total);
        print_by_opcode(&total);
        printf("  programs %u, skipped %u\n", done, failed);
    }
    return failed ? 1 : 0;
}
