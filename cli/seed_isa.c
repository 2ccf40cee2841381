/* The --isa forms of asm, dis and compute: the seeds' own assembly
 * languages (seeds/seeds.h, docs/seeds/). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "gfx/gfx.h"
#include "seeds/seeds.h"
#include "shader/core.h"

static const char asm_usage[] =
    "usage: ushader asm --isa kgpu|fpga|tinygpu [-S] [-o OUT] [LAUNCH] FILE\n"
    "  Assemble a seed's assembly (or read FILE.hex's words) into its binary\n"
    "  words: printed one per line in hex, or with -o written to OUT, the\n"
    "  hex file the seed's testbench reads.  -S prints the compute IR the\n"
    "  kernel translates to instead (docs/seeds/ISA.md).\n"
    "  LAUNCH: --blocks N --threads N --data @ADDR:V,V,... (over the\n"
    "  kernel's .blocks/.threads/.data directives)\n";

static const char dis_usage[] =
    "usage: ushader dis --isa kgpu|fpga|tinygpu FILE.hex\n"
    "  Print the seed's assembly of each word (labels L<n> at branch\n"
    "  targets; .word for a word no instruction encodes as).\n";

static const char compute_usage[] =
    "usage: ushader compute --isa kgpu|fpga|tinygpu FILE [LAUNCH] [--arch A]\n"
    "                       [--config F.ini] [--set KEY=V]...\n"
    "                       [--print-memory ADDR[,COUNT]]... [--dump-memory OUT]\n"
    "                       [--show-registers R3,R4,...]\n"
    "  Run a seed's kernel (assembly, or FILE.hex) with its launch: the\n"
    "  directives .blocks/.threads/.data, or LAUNCH options --blocks N\n"
    "  --threads N --data @ADDR:V,V,...  Prints the memory counts, each\n"
    "  --print-memory range of data words (the fork: per core), and with\n"
    "  --show-registers those registers of every thread.  --dump-memory\n"
    "  writes the whole data memory as hex words, one per line (the fork:\n"
    "  core 0's 8192 bytes, then core 1's).\n";

enum { MAX_SETS = 64, MAX_PRINTS = 16 };

struct seed_args {
    const struct seed_isa *isa;
    const char *file, *out, *arch, *config, *dump;
    bool listing;
    uint32_t blocks, threads;
    const char *data[MAX_SETS];
    const char *sets[MAX_SETS];
    unsigned ndata, nsets;
    uint32_t print_addr[MAX_PRINTS], print_count[MAX_PRINTS];
    unsigned nprints;
    char regs_arg[256];
    int regs[32];
    unsigned nregs;
};

static int bad(const char *cmd, const char *fmt, const char *arg)
{
    char msg[256];
    snprintf(msg, sizeof msg, fmt, arg);
    cli_error(NULL, 0, 0, "%s: %s", cmd, msg);
    return 2;
}

static bool parse_u32(const char *s, uint32_t lo, uint32_t hi, uint32_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (end == s || *end || errno || *s == '-' || v < lo || v > hi)
        return false;
    *out = (uint32_t)v;
    return true;
}

/* "R3,R4" */
static int parse_regs(struct seed_args *a, const char *s)
{
    snprintf(a->regs_arg, sizeof a->regs_arg, "%s", s);
    for (const char *p = s; *p;) {
        size_t n = strcspn(p, ",");
        uint32_t r;
        char buf[16];
        if (n == 0 || n >= sizeof buf || (p[0] != 'R' && p[0] != 'r') ||
            a->nregs == 32)
            return bad("compute", "--show-registers wants R<n>,R<n>,..., not "
                       "'%s'", s);
        memcpy(buf, p + 1, n - 1);
        buf[n - 1] = '\0';
        if (!parse_u32(buf, 0, a->isa->nregs - 1, &r))
            return bad("compute", "--show-registers: register out of range in "
                       "'%s'", s);
        a->regs[a->nregs++] = (int)r;
        p += n;
        if (*p)
            p++;
    }
    return 0;
}

#define SEED_LAUNCH \
    { "--blocks", true, false, NULL }, \
    { "--threads", true, false, NULL }, \
    { "--data", true, true, NULL }
static const struct cli_opt asm_opts[] = {
    { "--help", false, false, NULL },
    { "--isa", true, false, NULL },
    { "-S", false, false, NULL },
    { "-o", true, false, NULL }, SEED_LAUNCH, { NULL, false, false, NULL },
};
static const struct cli_opt dis_opts[] = {
    { "--help", false, false, NULL },
    { "--isa", true, false, NULL },
    { NULL, false, false, NULL },
};
static const struct cli_opt compute_opts[] = {
    { "--help", false, false, NULL },
    { "--isa", true, false, NULL }, SEED_LAUNCH,
    { "--arch", true, false, NULL }, { "--config", true, false, NULL },
    { "--set", true, true, NULL }, { "--print-memory", true, true, NULL },
    { "--dump-memory", true, false, NULL },
    { "--show-registers", true, false, NULL },
    { NULL, false, false, NULL },
};

static int parse_args(const char *cmd, int argc, char **argv,
                      struct seed_args *a, const char *usage)
{
    memset(a, 0, sizeof *a);
    a->arch = "functional";
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return -1;
        }
    char form[24];
    snprintf(form, sizeof form, "%s --isa", cmd);
    if (!cli_check_options(form, argc, argv, 1, !strcmp(cmd, "asm") ? asm_opts
                           : !strcmp(cmd, "dis") ? dis_opts : compute_opts))
        return 2;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--help")) {
            fputs(usage, stdout);
            return -1;
        }
        if (!strcmp(o, "-S") && !strcmp(cmd, "asm")) {
            a->listing = true;
            continue;
        }
        static const char *const valued[] = {
            "--isa", "-o", "--blocks", "--threads", "--data", "--arch",
            "--config", "--set", "--print-memory", "--dump-memory",
            "--show-registers", NULL
        };
        bool takes = false;
        for (int k = 0; valued[k]; k++)
            takes |= !strcmp(o, valued[k]);
        bool compute = !strcmp(cmd, "compute");
        bool launch = !strcmp(o, "--blocks") || !strcmp(o, "--threads") ||
                      !strcmp(o, "--data");
        if (takes && (!strcmp(o, "--isa") || (launch && strcmp(cmd, "dis")) ||
                      (!strcmp(o, "-o") && !strcmp(cmd, "asm")) ||
                      (compute && !launch && strcmp(o, "-o")))) {
            if (i + 1 == argc)
                return bad(cmd, "%s needs a value", o);
        } else if (o[0] == '-' && o[1]) {
            return bad(cmd, "unknown option '%s' with --isa", o);
        } else {
            if (a->file)
                return bad(cmd, "one FILE at a time ('%s')", o);
            a->file = o;
            continue;
        }
        const char *v = argv[++i];
        if (!strcmp(o, "--isa")) {
            if (!(a->isa = seed_isa_lookup(v))) {
                char msg[96];
                snprintf(msg, sizeof msg, "unknown --isa '%%s' (%s)",
                         seed_isa_names());
                return bad(cmd, msg, v);
            }
        } else if (!strcmp(o, "-o")) {
            a->out = v;
        } else if (!strcmp(o, "--blocks") || !strcmp(o, "--threads")) {
            if (!parse_u32(v, 1, 65535, !strcmp(o, "--blocks") ? &a->blocks :
                           &a->threads))
                return bad(cmd, "--blocks and --threads want 1..65535, not "
                           "'%s'", v);
        } else if (!strcmp(o, "--data") || !strcmp(o, "--set")) {
            bool data = !strcmp(o, "--data");
            unsigned *n = data ? &a->ndata : &a->nsets;
            if (*n == MAX_SETS)
                return bad(cmd, "more than 64 of %s", o);
            (data ? a->data : a->sets)[(*n)++] = v;
        } else if (!strcmp(o, "--arch")) {
            struct cli_arch m;
            a->arch = v;
            if (!cli_parse_arch(cmd, v, CLI_ARCH_ONE, NULL, &m))
                return 2;
        } else if (!strcmp(o, "--config")) {
            a->config = v;
        } else if (!strcmp(o, "--dump-memory")) {
            a->dump = v;
        } else if (!strcmp(o, "--print-memory")) {
            char buf[64];
            snprintf(buf, sizeof buf, "%s", v);
            char *comma = strchr(buf, ',');
            uint32_t addr, count = 16;
            if (comma)
                *comma = '\0';
            if (a->nprints == MAX_PRINTS || !parse_u32(buf, 0, UINT32_MAX, &addr) ||
                (comma && !parse_u32(comma + 1, 1, 1u << 20, &count)))
                return bad(cmd, "--print-memory wants ADDR[,COUNT], not '%s'",
                           v);
            a->print_addr[a->nprints] = addr;
            a->print_count[a->nprints++] = count;
        } else if (!strcmp(o, "--show-registers")) {
            if (!a->isa)
                return bad(cmd, "--isa must come before %s", o);
            int rc = parse_regs(a, v);
            if (rc)
                return rc;
        }
    }
    if (!a->isa || !a->file) {
        fputs(usage, stderr);
        return 2;
    }
    return 0;
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && !strcmp(s + n - m, tail);
}

/* The kernel of FILE (assembly, or words of a .hex), with the command
 * line's launch options over its directives. */
static bool load_kernel(const struct seed_args *a, struct seed_kernel *k)
{
    char *text;
    size_t len;
    if (!cli_read_file(a->file, &text, &len))
        return false;
    struct us_diag d;
    bool ok = ends_with(a->file, ".hex")
              ? seed_read_hex(a->isa, text, len, k, &d)
              : seed_assemble(a->isa, text, len, k, &d);
    free(text);
    if (!ok) {
        cli_error(a->file, d.line, d.col, "%s", d.msg);
        return false;
    }
    struct seed_launch *l = &k->launch;
    if (a->blocks) {
        l->blocks = a->blocks;
        l->blocks_line = 0;
    }
    if (a->threads) {
        l->threads = a->threads;
        l->threads_line = 0;
    }
    for (unsigned i = 0; i < a->ndata; i++) {
        /* "@ADDR:V,V,..." */
        const char *s = a->data[i];
        char *end;
        errno = 0;
        unsigned long addr = s[0] == '@' ? strtoul(s + 1, &end, 0) : 0;
        if (s[0] != '@' || end == s + 1 || *end != ':' || errno) {
            cli_error(NULL, 0, 0, "--data wants @ADDR:V,V,..., not '%s'", s);
            seed_kernel_free(k);
            return false;
        }
        long long top = (1ll << a->isa->data_bits) - 1;
        for (const char *p = end + 1; *p;) {
            errno = 0;
            long long v = strtoll(p, &end, 0);
            if (end == p || errno || v < -(top + 1) / 2 || v > top ||
                (*end && *end != ',') || addr >= a->isa->mem_words) {
                cli_error(NULL, 0, 0, "--data '%s': values must be %d-bit "
                          "words within the %u-word memory", s,
                          (int)a->isa->data_bits, a->isa->mem_words);
                seed_kernel_free(k);
                return false;
            }
            if (!seed_launch_add(l, (uint32_t)addr++, (uint32_t)(v & top))) {
                cli_error(NULL, 0, 0, "out of memory");
                seed_kernel_free(k);
                return false;
            }
            p = *end ? end + 1 : end;
        }
    }
    return true;
}

static bool translate(const struct seed_args *a, const struct seed_kernel *k,
                      char **ir)
{
    struct us_diag d;
    if (!seed_translate(a->isa, k, &k->launch, ir, &d)) {
        cli_error(d.line ? a->file : NULL, d.line, d.col, "%s", d.msg);
        return false;
    }
    return true;
}

static char *hex_text(const struct seed_isa *isa, const uint32_t *w, size_t n)
{
    unsigned digits = isa->word_bits / 4;
    char *s = malloc(n * (digits + 1) + 1);
    if (!s)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n; i++)
        o += (size_t)sprintf(s + o, "%0*X\n", (int)digits, w[i]);
    s[o] = '\0';
    return s;
}

int seed_cmd_asm(int argc, char **argv)
{
    struct seed_args a;
    int rc = parse_args("asm", argc, argv, &a, asm_usage);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (!cli_check_output(a.out, &a.file, 1))
        return 1;
    struct seed_kernel k;
    if (!load_kernel(&a, &k))
        return 1;
    rc = 1;
    char *text = NULL;
    if (a.listing) {
        if (translate(&a, &k, &text)) {
            fputs(text, stdout);
            rc = 0;
        }
    } else if (!(text = hex_text(a.isa, k.words, k.n))) {
        cli_error(NULL, 0, 0, "out of memory");
    } else if (a.out) {
        rc = cli_write_file(a.out, text, strlen(text)) ? 0 : 1;
    } else {
        fputs(text, stdout);
        rc = 0;
    }
    free(text);
    seed_kernel_free(&k);
    return rc;
}

int seed_cmd_dis(int argc, char **argv)
{
    struct seed_args a;
    int rc = parse_args("dis", argc, argv, &a, dis_usage);
    if (rc)
        return rc < 0 ? 0 : rc;
    char *text;
    size_t len;
    if (!cli_read_file(a.file, &text, &len))
        return 1;
    struct seed_kernel k;
    struct us_diag d;
    bool ok = seed_read_hex(a.isa, text, len, &k, &d);
    free(text);
    if (!ok) {
        cli_error(a.file, d.line, d.col, "%s", d.msg);
        return 1;
    }
    /* labels at the targets inside the kernel or just past it */
    bool *target = calloc(k.n + 1, 1);
    if (!target) {
        cli_error(NULL, 0, 0, "out of memory");
        seed_kernel_free(&k);
        return 1;
    }
    for (size_t pc = 0; pc < k.n; pc++) {
        const struct seed_form *f = seed_decode(a.isa, k.words[pc]);
        uint32_t t = seed_field(a.isa, 'T', k.words[pc]);
        if (f && strchr(f->operands, 'T') && t <= k.n)
            target[t] = true;
    }
    for (size_t pc = 0; pc <= k.n; pc++) {
        if (target[pc])
            printf("L%zu:\n", pc);
        if (pc == k.n)
            break;
        const struct seed_form *f = seed_decode(a.isa, k.words[pc]);
        uint32_t t = seed_field(a.isa, 'T', k.words[pc]);
        char buf[128];
        seed_disassemble(a.isa, k.words[pc], f && t <= k.n, buf, sizeof buf);
        printf("    %s\n", buf);
    }
    free(target);
    seed_kernel_free(&k);
    return 0;
}

static int run(const struct seed_args *a, struct seed_kernel *k)
{
    bool functional = !strcmp(a->arch, "functional");
    const struct us_core_model *model = functional ? NULL
                                                   : us_model_lookup(a->arch);
    if (!functional && !model)
        return bad("compute", "unknown --arch '%s' (functional, scalar, simd4, "
                   "vliw, superscalar, hetero)", a->arch);
    struct us_diag d = { 0 };
    struct us_config cfg;
    us_config_default(&cfg);
    if (a->config && !cli_load_config(a->config, &cfg))
        return 1;
    for (unsigned i = 0; i < a->nsets; i++)
        if (!us_config_set(&cfg, a->sets[i], &d)) {
            cli_error(NULL, 0, 0, "compute: --set %s: %s", a->sets[i], d.msg);
            return 2;
        }
    if (model && !us_core_check(model, &cfg, &d)) {
        cli_error(NULL, 0, 0, "compute: %s", d.msg);
        return 2;
    }
    uint32_t groups[3] = { 1, 1, 1 }, local;
    char *ir;
    if (!translate(a, k, &ir))
        return 1;
    if (!seed_launch_dims(a->isa, &k->launch, &groups[0], &local, &d)) {
        free(ir);
        return 1;
    }
    struct us_program prog;
    bool ok = us_assemble(ir, strlen(ir), US_STAGE_COMPUTE, &prog, &d);
    free(ir);
    if (!ok) {
        cli_error(a->file, 0, 0, "internal: the translation does not assemble: "
                  "IR line %u:%u: %s", d.line, d.col, d.msg);
        return 1;
    }
    for (unsigned i = 0; i < a->nprints; i++)
        if ((uint64_t)a->print_addr[i] + a->print_count[i] > a->isa->mem_words) {
            cli_error(NULL, 0, 0, "compute: --print-memory %u,%u goes beyond "
                      "the %u-word data memory", a->print_addr[i],
                      a->print_count[i], a->isa->mem_words);
            us_program_free(&prog);
            return 2;
        }
    uint64_t items = (uint64_t)groups[0] * local;
    size_t bytes = seed_memory_bytes(a->isa, groups[0]);
    struct us_memory mem = { 0 };
    uint8_t *buf = calloc(bytes + 1, 1);
    us_vec4 *params = calloc(prog.nparams + 1, sizeof *params);
    struct us_glstate *gl = malloc(sizeof *gl);
    struct us_thread *threads = calloc(items, sizeof *threads);
    struct us_stats *st = model ? malloc(sizeof *st) : NULL;
    int rc = 1;
    if (!buf || !params || !gl || !threads || (model && !st)) {
        cli_error(NULL, 0, 0, "compute: out of memory");
        goto out;
    }
    if (!seed_memory_init(a->isa, &k->launch, groups[0], buf, &d)) {
        cli_error(a->file, 0, 0, "%s", d.msg);
        goto out;
    }
    mem.buf[0] = (struct us_buffer){ buf, (uint32_t)bytes };
    us_glstate_init(gl);
    us_load_initial_locals(&prog, gl);
    us_resolve_params(&prog, gl, params);
    struct us_exec_env env = { .params = params, .math = &us_math_exact,
                               .mem = &mem };
    us_config_env(&cfg, &env);
    ok = functional
         ? us_compute_interpret(&prog, &env, groups, threads, &d)
         : us_core_run_compute(model, &cfg, &prog, &env, groups, threads, st,
                               &d);
    if (!ok) {
        cli_error(a->file, 0, 0, "%s", d.msg);
        goto out;
    }
    const struct us_mem_counts *mc = &mem.counts;
    printf("compute: %s (%s) on %s: %u blocks x %u threads\n", a->file,
           a->isa->name, a->arch, groups[0], local);
    printf("memory: %" PRIu64 " loads, %" PRIu64 " stores, %" PRIu64
           " bytes, %" PRIu64 " out of bounds\n", mc->loads, mc->stores,
           mc->bytes, mc->oob);
    if (st)
        us_stats_print(stdout, st, false);
    uint32_t copies = a->isa->per_core ? groups[0] : 1;
    for (unsigned i = 0; i < a->nprints; i++)
        for (uint32_t b = 0; b < copies; b++) {
            if (a->isa->per_core)
                printf("core %u ", b);
            printf("mem[%u..%u]:", a->print_addr[i],
                   a->print_addr[i] + a->print_count[i] - 1);
            for (uint32_t j = 0; j < a->print_count[i]; j++)
                printf(" %u", seed_memory_word(a->isa, buf, b,
                                               a->print_addr[i] + j));
            printf("\n");
        }
    for (uint64_t t = 0; a->nregs && t < items; t++) {
        printf("block %" PRIu64 " thread %" PRIu64 ":", t / local, t % local);
        for (unsigned i = 0; i < a->nregs; i++) {
            uint32_t v;
            memcpy(&v, &threads[t].temp[a->regs[i]][0], sizeof v);
            printf(" R%d=%u", a->regs[i], v);
        }
        printf("\n");
    }
    rc = 0;
    if (a->dump) {
        size_t words = bytes / (a->isa->data_bits / 8);
        unsigned digits = a->isa->data_bits / 4;
        char *text = malloc(words * (digits + 1) + 1);
        if (!text) {
            cli_error(NULL, 0, 0, "compute: out of memory");
            rc = 1;
        } else {
            size_t o = 0;
            for (size_t w = 0; w < words; w++)
                o += (size_t)sprintf(text + o, "%0*X\n", (int)digits,
                                     seed_memory_word(a->isa, buf,
                                         (uint32_t)(w / a->isa->mem_words),
                                         (uint32_t)(w % a->isa->mem_words)));
            rc = cli_write_file(a->dump, text, o) ? 0 : 1;
            free(text);
        }
    }
out:
    free(buf);
    free(params);
    free(gl);
    free(threads);
    free(st);
    us_program_free(&prog);
    return rc;
}

int seed_cmd_compute(int argc, char **argv)
{
    struct seed_args a;
    int rc = parse_args("compute", argc, argv, &a, compute_usage);
    if (rc)
        return rc < 0 ? 0 : rc;
    const char *inputs[2] = { a.file, a.config };
    if (a.dump && !cli_check_output(a.dump, inputs, 2))
        return 1;
    struct seed_kernel k;
    if (!load_kernel(&a, &k))
        return 1;
    rc = run(&a, &k);
    seed_kernel_free(&k);
    return rc;
}

bool seed_isa_requested(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--isa"))
            return true;
    return false;
}
