/* ushader run PROG [--param NAME=V] [--attrib NAME=V] [--json]: one thread
 * of a program on the reference interpreter (correctly rounded binary32). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static const char usage[] =
    "usage: ushader run PROG [--param env[N]=x,y,z,w] [--param local[N]=...]\n"
    "                        [--attrib BINDING=x,y,z,w] [--json]\n"
    "  Run one thread of an ARB vertex or fragment program on the reference\n"
    "  interpreter (correctly rounded binary32) with OpenGL's initial state\n"
    "  and print every result.* register the program writes, in binding\n"
    "  order; a fragment program also prints whether KIL killed it.\n"
    "  Values: 1 to 4 numbers separated by commas; missing ones are taken\n"
    "  from (0, 0, 0, 1).  Inputs not given are (0, 0, 0, 1).\n"
    "  --param   program.env[N] or program.local[N] of the program's stage\n"
    "            (the 'program.' prefix is optional), N < 256\n"
    "  --attrib  an input binding: vertex.position, vertex.normal,\n"
    "            vertex.color[.primary|.secondary], vertex.texcoord[N],\n"
    "            vertex.attrib[N], fragment.color[.primary|.secondary],\n"
    "            fragment.texcoord[N], fragment.position, ...\n"
    "            (generic and conventional vertex attributes do not alias)\n"
    "  --json    one JSON object, binding name -> [x, y, z, w]; numbers are\n"
    "            printed with %.9g (exact for binary32) and infinities and\n"
    "            NaN, which JSON numbers cannot express, as the strings\n"
    "            \"inf\", \"-inf\" and \"nan\"; fragment programs add \"killed\".\n"
    "  Exit status: 0 success, 1 unreadable or invalid program, 2 bad command\n"
    "  line (unknown option, unknown binding, bad number, index out of range).\n";

enum { MAX_SETTINGS = 256 };

/* One --param or --attrib, kept as text until the program's stage is
 * known. */
struct setting {
    const char *arg;   /* the whole NAME=VALUES argument */
    size_t name_len;
    float value[4];
};

struct run_args {
    const char *file;
    bool json;
    struct setting params[MAX_SETTINGS], attribs[MAX_SETTINGS];
    unsigned nparams, nattribs;
};

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

static bool add_setting(const char *opt, const char *arg, struct setting *list,
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
static int parse_args(int argc, char **argv, struct run_args *a, bool *done)
{
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        if (!strcmp(opt, "--help")) {
            fputs(usage, stdout);
            *done = true;
            return 0;
        } else if (!strcmp(opt, "--json")) {
            a->json = true;
        } else if (!strcmp(opt, "--param") || !strcmp(opt, "--attrib")) {
            if (i + 1 == argc) {
                cli_error(NULL, 0, 0, "run: %s needs NAME=x,y,z,w", opt);
                return 2;
            }
            bool ok = opt[2] == 'p'
                ? add_setting(opt, argv[++i], a->params, &a->nparams)
                : add_setting(opt, argv[++i], a->attribs, &a->nattribs);
            if (!ok)
                return 2;
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
static bool apply_param(const struct setting *s, enum us_stage stage,
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
    { US_STAGE_FRAGMENT, "fragment.texcoord", US_MAX_TEX_COORDS },
};

static bool resolve_input(const struct setting *s, enum us_stage stage,
                          unsigned *slot)
{
    const char *name = s->arg;
    size_t len = s->name_len;
    unsigned n = stage == US_STAGE_VERTEX ? US_VIN_COUNT : US_FIN_COUNT;
    for (unsigned i = 0; i < n; i++) {
        const char *canon = us_input_name(stage, i);
        if (canon && name_is(name, len, canon)) {
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
            cli_error(NULL, 0, 0, "run: --attrib '%.*s': index out of range "
                      "(0..%u)", (int)len, name, input_arrays[i].count - 1);
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

/* %.9g round-trips every binary32; JSON has no inf / NaN numbers. */
static void print_number(float v, bool json)
{
    const char *q = json ? "\"" : "";
    if (isnan(v))
        printf("%snan%s", q, q);
    else if (isinf(v))
        printf("%s%sinf%s", q, v < 0 ? "-" : "", q);
    else
        printf("%.9g", (double)v);
}

static void print_results(const struct us_program *prog,
                          const struct us_thread *t, uint32_t written,
                          bool json)
{
    unsigned n = prog->stage == US_STAGE_VERTEX ? US_VOUT_COUNT
                                                : US_FOUT_COUNT;
    bool first = true;
    if (json)
        printf("{");
    for (unsigned i = 0; i < n; i++) {
        if (!((written >> i) & 1))
            continue;
        const char *name = us_output_name(prog->stage, i);
        if (json)
            printf("%s\n  \"%s\": [", first ? "" : ",", name);
        else
            printf("%s = (", name);
        for (int c = 0; c < 4; c++) {
            if (c)
                printf(", ");
            print_number(t->output[i][c], json);
        }
        printf(json ? "]" : ")\n");
        first = false;
    }
    if (prog->stage == US_STAGE_FRAGMENT) {
        if (json)
            printf("%s\n  \"killed\": %s", first ? "" : ",",
                   t->killed ? "true" : "false");
        else
            printf("killed: %s\n", t->killed ? "true" : "false");
        first = false;
    }
    if (json)
        printf("%s}\n", first ? "" : "\n");
}

static int run(const struct run_args *a)
{
    struct us_program prog;
    if (!cli_assemble_file(a->file, US_STAGE_ANY, &prog))
        return 1;
    int rc = 2;
    us_vec4 *params = NULL;
    struct us_thread *t = malloc(sizeof *t);
    struct us_glstate *gl = malloc(sizeof *gl);
    if (!t || !gl)
        goto oom;
    us_glstate_init(gl);
    us_thread_reset(t);
    for (unsigned i = 0; i < a->nparams; i++)
        if (!apply_param(&a->params[i], prog.stage, gl))
            goto out;
    for (unsigned i = 0; i < a->nattribs; i++) {
        unsigned slot;
        if (!resolve_input(&a->attribs[i], prog.stage, &slot))
            goto out;
        memcpy(t->input[slot], a->attribs[i].value, sizeof t->input[slot]);
    }
    params = calloc(prog.nparams ? prog.nparams : 1, sizeof *params);
    if (!params)
        goto oom;
    us_resolve_params(&prog, gl, params);

    struct us_exec_env env = { .params = params, .math = &us_math_exact };
    us_interpret(&prog, &env, t);
    uint32_t written = prog.outputs_written;
    if (prog.stage == US_STAGE_VERTEX &&
        (prog.options & US_OPT_POSITION_INVARIANT)) {
        us_position_invariant(gl, t->input[US_VIN_POSITION],
                              t->output[US_VOUT_POSITION]);
        written |= 1u << US_VOUT_POSITION;
    }
    print_results(&prog, t, written, a->json);
    rc = fflush(stdout) == 0 ? 0 : 1;
    if (rc)
        cli_error(NULL, 0, 0, "run: cannot write the results: %s",
                  strerror(errno));
    goto out;
oom:
    cli_error(a->file, 0, 0, "out of memory");
    rc = 1;
out:
    free(params);
    free(gl);
    free(t);
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
    int rc = parse_args(argc, argv, a, &done);
    if (rc == 0 && !done)
        rc = run(a);
    free(a);
    return rc;
}
