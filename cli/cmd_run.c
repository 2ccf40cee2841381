/* ushader run PROG [--param NAME=V] [--attrib NAME=V] [--json]: the command
 * line, the pieces both forms share (cli/run.h), and one thread of a
 * program on the reference interpreter; with --arch, N threads on core
 * models (cli/run_arch.c).  The math (the configured SFU or --exact-math),
 * the textures and the inputs captured from a scene are
 * cli/run_inputs.c's. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/run.h"
#include "suite/provenance.h"

static const char usage[] =
    "usage: ushader run PROG [--param env[N]=x,y,z,w] [--param local[N]=...]\n"
    "                        [--attrib BINDING=x,y,z,w] [--exact-math]\n"
    "                        [--config F.ini] [--set KEY=V]...\n"
    "                        [--texture UNIT=FILE.png[,FILTER]]...\n"
    "                        [--inputs-from SCENE [--slot NAME]] [--json]\n"
    "  Run one thread of an ARB vertex or fragment program (or a GLSL\n"
    "  shader) on the reference interpreter with OpenGL's initial state\n"
    "  and print every result.* register the program writes, in binding\n"
    "  order; a fragment program also prints whether KIL killed it.\n"
    "  RCP RSQ EX2 LG2 SIN COS POW compute with the modelled SFU (its\n"
    "  [sfu] keys from --config and --set sfu.KEY=V; ushader sfu --help),\n"
    "  as render and piglit do, in this form and with --arch alike.\n"
    "  Values: 1 to 4 numbers separated by commas; missing ones are taken\n"
    "  from (0, 0, 0, 1).  Inputs not given are (0, 0, 0, 1).\n"
    "  --param   program.env[N] or program.local[N] of the program's stage\n"
    "            (the 'program.' prefix is optional), env N < 256, local N < 1024\n"
    "  --attrib  an input binding: vertex.position, vertex.normal,\n"
    "            vertex.color[.primary|.secondary], vertex.texcoord[N],\n"
    "            vertex.attrib[N], fragment.color[.primary|.secondary],\n"
    "            fragment.texcoord[N], fragment.position, ...\n"
    "            (generic and conventional vertex attributes do not alias)\n"
    "  --exact-math  correctly rounded functions (us_math_exact) instead\n"
    "  --config, --set  as for --arch below (here only the [sfu] keys and\n"
    "            max_instructions matter)\n"
    "  --texture bind texture unit UNIT (0..15) to a 2D texture from a PNG\n"
    "            file (its top row at t = 1, wrap repeat), FILTER nearest,\n"
    "            bilinear (the default), mipnearest or trilinear\n"
    "            (docs/SCENES.md); it replaces a scene's unit.  Unbound\n"
    "            units read (0, 0, 0, 1).  Each thread samples on its own,\n"
    "            as in bench workloads: the level of detail is the LOD bias\n"
    "            (TXB), without a quad's derivatives.\n"
    "  --inputs-from  render SCENE (docs/SCENES.md) with PROG in place of its\n"
    "            program --slot NAME (default: the first one the scene\n"
    "            declares of PROG's stage) and run on the inputs of the\n"
    "            threads it shades (vertices, or interpolated fragments in\n"
    "            2x2-quad raster order), a window from the middle as the\n"
    "            bench takes it, with the parameters the scene's GL state\n"
    "            gives PROG and the scene's texture units; this form runs\n"
    "            the window's first thread.  Not with --param or --inputs.\n"
    "  --json    one JSON object (docs/METRICS.md): \"schema_version\",\n"
    "            \"provenance\" (version, command line, configuration, the\n"
    "            files read and their hashes) and \"outputs\": [thread], a\n"
    "            thread binding name -> [x, y, z, w] (exact for binary32),\n"
    "            \"killed\" for fragment programs; a component that is not a\n"
    "            finite number (JSON has none) is null, and \"nonfinite\"\n"
    "            names it: {\"BINDING[C]\": \"inf\" | \"-inf\" | \"nan\"}.\n"
    "  Exit status: 0 success, 1 unreadable or invalid program, texture or\n"
    "  scene (also: no program of PROG's stage or no --slot NAME in it, no\n"
    "  thread shaded with PROG), 2 bad command line (unknown option, unknown\n"
    "  binding, bad number, index or unit out of range, unknown filter).\n"
    "\n"
    "       ushader run PROG --arch A[,B...]|all [--config F.ini] [--set KEY=V]...\n"
    "                        [--threads N] [--inputs FILE] [--preset F.ini]...\n"
    "                        [--param ...] [--attrib ...] [--texture ...]\n"
    "                        [--inputs-from SCENE [--slot NAME]] [--exact-math]\n"
    "                        [--time] [--json]\n"
    "                        [--trace FILE [--trace-window FROM:TO]\n"
    "                         [--trace-max-events N]]\n"
    "  Run N threads (default 64) on a core model: scalar, simd4, vliw,\n"
    "  superscalar, hetero, simt; a comma list of them or all (every model)\n"
    "  prints a comparison table.  Every model's outputs must be\n"
    "  bit-identical to the reference interpreter's, else exit 1 (the\n"
    "  interpreter, \"functional\" in render, piglit and compute, is this\n"
    "  command without --arch).  Prints the first threads' outputs and the\n"
    "  metrics of docs/METRICS.md (JSON: \"schema_version\", \"provenance\",\n"
    "  the statistics object's members and \"outputs\", one object per\n"
    "  thread; with a list, all or --preset, \"outputs_identical\",\n"
    "  \"models\": [statistics...] and \"outputs\").\n"
    "  The table's columns, one row per model (docs/METRICS.md):\n"
    "    arch        the model (simt:NAME for --preset NAME.ini)\n"
    "    cycles      simulated cycles to run every thread\n"
    "    util        utilization: useful ops / (ALU lanes x cycles)\n"
    "    thr/cyc     threads completed per cycle\n"
    "    stalls      stall cycles: dependency + sfu + lut + texture + fetch\n"
    "    instr_bits  instruction bits fetched\n"
    "    area_um2    modelled area in um^2 at 45 nm (shader/area.def)\n"
    "    area/s4     area over simd4's at the same configuration\n"
    "                (area_simd4)\n"
    "    pJ/thread   modelled energy per thread in picojoules\n"
    "    AxD/s4      area x delay relative to the simd4 row's (0 without\n"
    "                a simd4 row)\n"
    "  --config  an INI file ([core] knobs, [sfu] SFU keys; configs/*.ini)\n"
    "  --set     one knob, after --config (ushader config --list)\n"
    "  --preset  an INI file of the simt model's knobs over the defaults\n"
    "            (configs/kgpu.ini ...): one more row, simt:NAME, in the\n"
    "            table; repeatable (at most 16); without [sfu] it takes the\n"
    "            run's, and one with another [sfu] is refused (one SFU\n"
    "            computes every model's outputs) unless --exact-math\n"
    "  --threads 1..65536; without it, 64, or one per --inputs line;\n"
    "            with --inputs-from, at most the threads the scene shades\n"
    "  --inputs  one line per thread: BINDING=x,y,z,w words separated by\n"
    "            blanks ('#' starts a comment); thread i takes line i mod the\n"
    "            line count (at most 65536 lines without --threads).\n"
    "            Without it, every input the program reads gets\n"
    "            deterministic pseudo-random values in [-1, 1) per thread.\n"
    "            --attrib values apply to every thread, last.\n"
    "  The threads' records and the inputs count against the memory budget\n"
    "  of a run (1024 MiB, README \"Limits\").\n"
    "  --time    print each model's host CPU time and simulated useful ops per\n"
    "            host second on stderr (bench/core_speed.bench.sh)\n"
    "  With one model (--arch NAME, no --preset):\n"
    CLI_TRACE_USAGE;

/* "x[,y[,z[,w]]]" -> value, missing components from (0, 0, 0, 1). */
static bool parse_values(const char *opt, const char *arg, const char *s,
                         float value[4])
{
    static const float defaults[4] = { 0.0f, 0.0f, 0.0f, 1.0f };
    memcpy(value, defaults, sizeof defaults);
    for (int n = 0;; n++) {
        if (n == 4) {
            cli_error(NULL, 0, 0, "run: %s '%s': more than 4 values", opt, arg);
            return false;
        }
        char *end;
        errno = 0;
        float v = strtof(s, &end);
        if (end == s || (*end != ',' && *end != '\0') ||
            (errno == ERANGE && isinf(v))) {
            cli_error(NULL, 0, 0, "run: %s '%s': bad number '%.*s'", opt,
                      arg, (int)strcspn(s, ","), s);
            return false;
        }
        value[n] = v;
        if (*end == '\0')
            return true;
        s = end + 1;
    }
}

bool run_add_setting(const char *opt, const char *arg, struct setting *list,
                     unsigned *count)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg) {
        cli_error(NULL, 0, 0, "run: %s wants NAME=x,y,z,w, not '%s'", opt, arg);
        return false;
    }
    if (*count == MAX_SETTINGS) {
        cli_error(NULL, 0, 0, "run: more than %d %s options", MAX_SETTINGS,
                  opt);
        return false;
    }
    struct setting *s = &list[(*count)++];
    s->arg = arg;
    s->name_len = (size_t)(eq - arg);
    return parse_values(opt, arg, eq + 1, s->value);
}

/* 0 on success, else the exit status (2: usage, or 0 after --help with
 * *done set). */
static const struct cli_opt options[] = {
    { "--help", false, false, NULL }, { "--json", false, false, NULL },
    { "--time", false, false, NULL }, { "--exact-math", false, false, NULL },
    { "--param", true, true, "NAME=x,y,z,w" },
    { "--attrib", true, true, "NAME=x,y,z,w" },
    { "--arch", true, false, NULL }, { "--config", true, false, NULL },
    { "--set", true, true, NULL }, { "--threads", true, false, NULL },
    { "--inputs", true, false, NULL }, { "--preset", true, true, NULL },
    { "--texture", true, true, NULL }, { "--inputs-from", true, false, NULL },
    { "--slot", true, false, NULL }, CLI_TRACE_OPTS,
    { NULL, false, false, NULL },
};

static const char no_functional[] =
    "run without --arch runs one thread on the reference interpreter, and "
    "every --arch run checks its outputs against it";

static int parse_args(int argc, char **argv, struct run_args *a, bool *done)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            *done = true;
            return 0;
        }
    if (!cli_check_options("run", argc, argv, 1, options)) {
        fputs(usage, stderr);
        return 2;
    }
    cli_trace_args_init(&a->trace);
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        int trc;
        if (!strcmp(opt, "--help")) {
            fputs(usage, stdout);
            *done = true;
            return 0;
        } else if (i + 1 < argc &&
                   cli_trace_option("run", opt, argv[i + 1], &a->trace, &trc)) {
            if (trc)
                return trc;
            i++;
        } else if (!strcmp(opt, "--json")) {
            a->json = true;
        } else if (!strcmp(opt, "--time")) {
            a->time = true;
        } else if (!strcmp(opt, "--exact-math")) {
            a->exact = true;
        } else if (!strcmp(opt, "--param") || !strcmp(opt, "--attrib")) {
            if (i + 1 == argc) {
                cli_error(NULL, 0, 0, "run: %s needs NAME=x,y,z,w", opt);
                return 2;
            }
            bool ok = opt[2] == 'p'
                ? run_add_setting(opt, argv[++i], a->params, &a->nparams)
                : run_add_setting(opt, argv[++i], a->attribs, &a->nattribs);
            if (!ok)
                return 2;
        } else if (!strcmp(opt, "--arch") || !strcmp(opt, "--config") ||
                   !strcmp(opt, "--set") || !strcmp(opt, "--threads") ||
                   !strcmp(opt, "--inputs") || !strcmp(opt, "--preset") ||
                   !strcmp(opt, "--texture") || !strcmp(opt, "--inputs-from") ||
                   !strcmp(opt, "--slot")) {
            if (i + 1 == argc) {
                cli_error(NULL, 0, 0, "run: %s needs a value", opt);
                return 2;
            }
            const char *v = argv[++i];
            if (!strcmp(opt, "--arch")) {
                a->arch = v;
                if (!cli_parse_arch("run", v, CLI_ARCH_MANY, no_functional,
                                    &a->models))
                    return 2;
            } else if (!strcmp(opt, "--config")) {
                a->config = v;
            } else if (!strcmp(opt, "--inputs")) {
                a->inputs = v;
            } else if (!strcmp(opt, "--inputs-from")) {
                a->inputs_from = v;
            } else if (!strcmp(opt, "--slot")) {
                a->slot = v;
            } else if (!strcmp(opt, "--texture")) {
                if (a->ntextures == MAX_TEXTURES) {
                    cli_error(NULL, 0, 0, "run: more than %d --texture",
                              MAX_TEXTURES);
                    return 2;
                }
                if (!run_texture_parse(v, &a->textures[a->ntextures]))
                    return 2;
                a->ntextures++;
            } else if (!strcmp(opt, "--preset")) {
                if (a->npresets == MAX_PRESETS) {
                    cli_error(NULL, 0, 0, "run: more than %d --preset",
                              MAX_PRESETS);
                    return 2;
                }
                a->presets[a->npresets++] = v;
            } else if (!strcmp(opt, "--set")) {
                if (a->nsets == MAX_SETS) {
                    cli_error(NULL, 0, 0, "run: more than %d --set", MAX_SETS);
                    return 2;
                }
                a->sets[a->nsets++] = v;
            } else {
                char *end;
                errno = 0;
                a->threads = strtol(v, &end, 10);
                if (end == v || *end || errno || a->threads < 1 ||
                    a->threads > MAX_RUN_THREADS) {
                    cli_error(NULL, 0, 0, "run: --threads wants 1..%d, "
                              "not '%s'", MAX_RUN_THREADS, v);
                    return 2;
                }
            }
        } else if (opt[0] == '-' && opt[1]) {
            cli_error(NULL, 0, 0, "run: unknown option '%s'", opt);
            fputs(usage, stderr);
            return 2;
        } else if (a->file) {
            cli_error(NULL, 0, 0, "run: one PROG at a time");
            return 2;
        } else {
            a->file = opt;
        }
    }
    if (!a->file) {
        fputs(usage, stderr);
        return 2;
    }
    const char *clash = !a->inputs_from ? NULL
                      : a->inputs ? "--inputs" : a->nparams ? "--param" : NULL;
    if (clash) {
        cli_error(NULL, 0, 0, "run: --inputs-from takes the inputs and the "
                  "parameters from the scene: not with %s", clash);
        return 2;
    }
    int trc = cli_trace_check("run", &a->trace);
    if (trc)
        return trc;
    const char *arch_only = a->arch ? NULL : a->inputs ? "--inputs"
                          : a->npresets ? "--preset" : a->time ? "--time"
                          : a->trace.path ? "--trace" : NULL;
    if (arch_only) {
        cli_error(NULL, 0, 0, "run: %s applies to the --arch form (core "
                  "models), not to one thread on the interpreter", arch_only);
        return 2;
    }
    if (a->trace.path && (a->models.count != 1 || a->npresets)) {
        cli_error(NULL, 0, 0, "run: --trace traces one model: --arch NAME "
                  "without --preset, not '%s'%s", a->arch,
                  a->npresets ? " with --preset" : "");
        return 2;
    }
    if (a->slot && !a->inputs_from) {
        cli_error(NULL, 0, 0, "run: --slot names a program of the "
                  "--inputs-from scene");
        return 2;
    }
    return 0;
}

/* "[N]" exactly, N decimal without sign or leading junk. */
static bool parse_index(const char *s, size_t len, unsigned long *index)
{
    if (len < 3 || s[0] != '[' || s[len - 1] != ']' || s[1] < '0' ||
        s[1] > '9')
        return false;
    char *end;
    errno = 0;
    *index = strtoul(s + 1, &end, 10);
    return errno == 0 && end == s + len - 1;
}

static bool name_is(const char *name, size_t len, const char *want)
{
    return strlen(want) == len && !memcmp(name, want, len);
}

/* --param NAME: program.env[N] / program.local[N] of the program's stage. */
bool run_apply_param(const struct setting *s, enum us_stage stage,
                     struct us_glstate *gl)
{
    const char *name = s->arg;
    size_t len = s->name_len;
    if (len > 8 && !memcmp(name, "program.", 8)) {
        name += 8;
        len -= 8;
    }
    us_vec4 *bank = NULL;
    size_t base = 0;
    unsigned limit = 0;
    if (len > 3 && !memcmp(name, "env", 3)) {
        bank = gl->env[stage];
        base = 3;
        limit = US_MAX_ENV_PARAMS;
    } else if (len > 5 && !memcmp(name, "local", 5)) {
        bank = gl->local[stage];
        base = 5;
        limit = US_MAX_LOCAL_PARAMS;
    }
    unsigned long index;
    if (!bank || !parse_index(name + base, len - base, &index)) {
        cli_error(NULL, 0, 0,
                  "run: --param '%.*s': want env[N] or local[N]",
                  (int)s->name_len, s->arg);
        return false;
    }
    if (index >= limit) {
        cli_error(NULL, 0, 0, "run: --param '%.*s': index out of range "
                  "(0..%u)", (int)s->name_len, s->arg, limit - 1);
        return false;
    }
    memcpy(bank[index], s->value, sizeof bank[index]);
    return true;
}

/* Short forms the ARB grammars accept for an input binding. */
static const struct {
    enum us_stage stage;
    const char *name;
    unsigned slot;
} input_aliases[] = {
    { US_STAGE_VERTEX, "vertex.color", US_VIN_COLOR0 },
    { US_STAGE_VERTEX, "vertex.texcoord", US_VIN_TEXCOORD0 },
    { US_STAGE_FRAGMENT, "fragment.color", US_FIN_COLOR0 },
    { US_STAGE_FRAGMENT, "fragment.texcoord", US_FIN_TEXCOORD0 },
};

/* Arrays of input bindings, for "index out of range" messages. */
static const struct {
    enum us_stage stage;
    const char *name;
    unsigned count;
} input_arrays[] = {
    { US_STAGE_VERTEX, "vertex.attrib", 16 },
    { US_STAGE_VERTEX, "vertex.texcoord", US_MAX_TEX_COORDS },
    { US_STAGE_FRAGMENT, "fragment.texcoord", US_MAX_VARYINGS },
};

bool run_resolve_input(const struct setting *s, enum us_stage stage,
                       unsigned varying_slots, unsigned *slot)
{
    const char *name = s->arg;
    size_t len = s->name_len;
    unsigned n = stage == US_STAGE_VERTEX ? US_VIN_COUNT : US_FIN_COUNT;
    unsigned vary = varying_slots ? varying_slots : US_VARYING_SLOTS_DEFAULT;
    for (unsigned i = 0; i < n; i++) {
        const char *canon = us_input_name(stage, i);
        bool beyond = stage == US_STAGE_FRAGMENT &&
                      i >= US_FIN_TEXCOORD0 + vary &&
                      i < US_FIN_TEXCOORD0 + US_MAX_VARYINGS;
        if (canon && !beyond && name_is(name, len, canon)) {
            *slot = i;
            return true;
        }
    }
    for (size_t i = 0; i < sizeof input_aliases / sizeof input_aliases[0];
         i++)
        if (input_aliases[i].stage == stage &&
            name_is(name, len, input_aliases[i].name)) {
            *slot = input_aliases[i].slot;
            return true;
        }
    for (size_t i = 0; i < sizeof input_arrays / sizeof input_arrays[0];
         i++) {
        size_t blen = strlen(input_arrays[i].name);
        unsigned long index;
        if (input_arrays[i].stage == stage && len > blen &&
            !memcmp(name, input_arrays[i].name, blen) &&
            parse_index(name + blen, len - blen, &index)) {
            unsigned count = input_arrays[i].count == US_MAX_VARYINGS
                             ? vary : input_arrays[i].count;
            cli_error(NULL, 0, 0, "run: --attrib '%.*s': index out of range "
                      "(0..%u)", (int)len, name, count - 1);
            return false;
        }
    }
    const char *other = stage == US_STAGE_VERTEX ? "fragment." : "vertex.";
    if (len > strlen(other) && !memcmp(name, other, strlen(other)))
        cli_error(NULL, 0, 0, "run: --attrib '%.*s': not an input of a %s "
                  "program", (int)len, name,
                  stage == US_STAGE_VERTEX ? "vertex" : "fragment");
    else
        cli_error(NULL, 0, 0, "run: --attrib '%.*s': unknown input binding",
                  (int)len, name);
    return false;
}

/* %.9g round-trips every binary32. */
void run_print_number(float v)
{
    if (isnan(v))
        printf("nan");
    else if (isinf(v))
        printf("%sinf", v < 0 ? "-" : "");
    else
        printf("%.9g", (double)v);
}

json_t *run_json_doc(const struct run_args *a, const struct us_config *cfg)
{
    struct us_prov *p = calloc(1, sizeof *p);
    json_t *doc = json_object(), *pj = NULL;
    if (p && doc && us_prov_init(p, a->argc, a->argv)) {
        p->math = a->exact ? "exact" : "sfu";
        p->cfg = cfg;
        us_prov_add_file(p, a->file);
        us_prov_add_file(p, a->config);
        us_prov_add_file(p, a->inputs);
        us_prov_add_file(p, a->inputs_from);
        for (unsigned i = 0; i < a->ntextures; i++)
            us_prov_add_file(p, a->textures[i].file);
        for (unsigned i = 0; i < a->npresets; i++)
            us_prov_add_file(p, a->presets[i]);
        pj = us_prov_json(p);
    }
    if (p)
        us_prov_free(p);
    free(p);
    if (!pj) {
        json_decref(doc);
        return NULL;
    }
    json_object_set_new(doc, "schema_version",
                        json_integer(US_JSON_SCHEMA_VERSION));
    json_object_set_new(doc, "provenance", pj);
    return doc;
}

json_t *run_json_thread(const struct us_program *prog,
                        const struct us_thread *t, uint64_t written)
{
    unsigned n = prog->stage == US_STAGE_VERTEX ? US_VOUT_COUNT
                                                : US_FOUT_COUNT;
    json_t *o = json_object(), *nonfinite = json_object();
    if (!o || !nonfinite) {
        json_decref(o);
        json_decref(nonfinite);
        return NULL;
    }
    for (unsigned i = 0; i < n; i++) {
        if (!((written >> i) & 1))
            continue;
        const char *name = us_output_name(prog->stage, i);
        json_t *v = json_array();
        for (int c = 0; c < 4; c++) {
            float x = t->output[i][c];
            if (isfinite(x)) {
                json_array_append_new(v, json_real(x));
                continue;
            }
            char key[96];
            snprintf(key, sizeof key, "%s[%d]", name, c);
            json_object_set_new(nonfinite, key, json_string(
                isnan(x) ? "nan" : x < 0 ? "-inf" : "inf"));
            json_array_append_new(v, json_null());
        }
        json_object_set_new(o, name, v);
    }
    if (prog->stage == US_STAGE_FRAGMENT)
        json_object_set_new(o, "killed", json_boolean(t->killed));
    if (json_object_size(nonfinite))
        json_object_set_new(o, "nonfinite", nonfinite);
    else
        json_decref(nonfinite);
    return o;
}

bool run_json_print(json_t *doc)
{
    char *s = doc ? json_dumps(doc, US_JSON_FLAGS) : NULL;
    json_decref(doc);
    if (!s) {
        cli_error(NULL, 0, 0, "out of memory");
        return false;
    }
    puts(s);
    free(s);
    return true;
}

static void print_results(const struct us_program *prog,
                          const struct us_thread *t, uint64_t written)
{
    unsigned n = prog->stage == US_STAGE_VERTEX ? US_VOUT_COUNT
                                                : US_FOUT_COUNT;
    for (unsigned i = 0; i < n; i++) {
        if (!((written >> i) & 1))
            continue;
        printf("%s = (", us_output_name(prog->stage, i));
        for (int c = 0; c < 4; c++) {
            if (c)
                printf(", ");
            run_print_number(t->output[i][c]);
        }
        printf(")\n");
    }
    if (prog->stage == US_STAGE_FRAGMENT)
        printf("killed: %s\n", t->killed ? "true" : "false");
}

/* The defaults, then the INI file `path` over them. */
bool run_load_config(const char *path, struct us_config *cfg)
{
    us_config_default(cfg);
    return !path || cli_load_config(path, cfg);
}

/* The run's configuration: --config, then --set; 0 or the exit status. */
int run_config(const struct run_args *a, struct us_config *cfg)
{
    struct us_diag diag;
    if (!run_load_config(a->config, cfg))
        return 2;
    for (unsigned i = 0; i < a->nsets; i++)
        if (!us_config_set(cfg, a->sets[i], &diag)) {
            cli_error(NULL, 0, 0, "run: --set: %s", diag.msg);
            return 2;
        }
    return 0;
}

/* The math, the scene's inputs (a window of `want` threads) and the
 * textures, --texture's over the scene's; false after an error. */
bool run_setup(const struct run_args *a, const struct us_config *cfg,
               const struct us_program *prog, unsigned want,
               struct gfx_budget *mem, struct run_env *e)
{
    return run_env_math(e, cfg, a->exact) &&
           (!a->inputs_from ||
            run_env_capture(e, a->inputs_from, a->slot, a->file, prog, want,
                            mem)) &&
           run_env_textures(e, a->textures, a->ntextures, mem);
}

static int run(const struct run_args *a)
{
    struct us_config cfg;
    int rc = run_config(a, &cfg);
    if (rc)
        return rc;
    struct us_program prog;
    if (!cli_load_program_slots(a->file, US_STAGE_ANY,
                                (unsigned)cfg.v[US_KNOB_varying_slots], &prog))
        return 1;
    rc = 2;
    us_vec4 *params = NULL;
    struct run_env *e = calloc(1, sizeof *e);
    struct us_thread *t = malloc(sizeof *t);
    struct us_glstate *gl = malloc(sizeof *gl);
    struct gfx_budget mem;
    gfx_budget_init(&mem);
    if (!e || !t || !gl)
        goto oom;
    us_glstate_init(gl);
    us_load_initial_locals(&prog, gl);
    us_thread_reset(t);
    for (unsigned i = 0; i < a->nparams; i++)
        if (!run_apply_param(&a->params[i], prog.stage, gl))
            goto out;
    unsigned want = a->threads ? (unsigned)a->threads : DEFAULT_THREADS;
    if (!run_setup(a, &cfg, &prog, want, &mem, e)) {
        rc = 1;
        goto out;
    }
    if (e->ninputs)   /* the first thread of the window --arch runs */
        memcpy(t->input, e->inputs[0], sizeof t->input);
    for (unsigned i = 0; i < a->nattribs; i++) {
        unsigned slot;
        if (!run_resolve_input(&a->attribs[i], prog.stage,
                               (unsigned)cfg.v[US_KNOB_varying_slots], &slot))
            goto out;
        memcpy(t->input[slot], a->attribs[i].value, sizeof t->input[slot]);
    }
    params = calloc(prog.nparams ? prog.nparams : 1, sizeof *params);
    if (!params)
        goto oom;
    if (e->params)
        memcpy(params, e->params, prog.nparams * sizeof *params);
    else
        us_resolve_params(&prog, gl, params);

    struct us_exec_env env = { .params = params };
    run_env_apply(e, &env);
    us_config_env(&cfg, &env);
    us_interpret(&prog, &env, t);
    if (t->overrun) {
        struct us_diag d;
        (void)us_budget_error(&env, 0, &d);
        cli_error(a->file, 0, 0, "%s", d.msg);
        rc = 1;
        goto out;
    }
    uint64_t written = prog.outputs_written;
    /* OpenGL's initial matrices: a scene's are not kept with its inputs */
    if (prog.stage == US_STAGE_VERTEX && !a->inputs_from &&
        (prog.options & US_OPT_POSITION_INVARIANT)) {
        us_position_invariant(gl, t->input[US_VIN_POSITION],
                              t->output[US_VOUT_POSITION]);
        written |= 1ull << US_VOUT_POSITION;
    }
    if (a->json) {
        json_t *doc = run_json_doc(a, &cfg), *outs = json_array();
        json_t *one = run_json_thread(&prog, t, written);
        if (!doc || !outs || !one) {
            json_decref(doc);
            json_decref(outs);
            json_decref(one);
            goto oom;
        }
        json_array_append_new(outs, one);
        json_object_set_new(doc, "outputs", outs);
        if (!run_json_print(doc)) {
            rc = 1;
            goto out;
        }
    } else {
        print_results(&prog, t, written);
    }
    rc = cli_flush_stdout() ? 0 : 1;
    goto out;
oom:
    cli_error(a->file, 0, 0, "out of memory");
    rc = 1;
out:
    free(params);
    free(gl);
    free(t);
    if (e)
        run_env_free(e);
    free(e);
    us_program_free(&prog);
    return rc;
}

int cmd_run(int argc, char **argv)
{
    struct run_args *a = calloc(1, sizeof *a);
    if (!a) {
        cli_error(NULL, 0, 0, "out of memory");
        return 1;
    }
    bool done = false;
    a->argc = argc;
    a->argv = argv;
    int rc = parse_args(argc, argv, a, &done);
    if (rc == 0 && !done)
        rc = a->arch ? run_arch(a) : run(a);
    for (unsigned i = 0; i < a->ntextures; i++)
        free(a->textures[i].file);
    free(a);
    return rc;
}
