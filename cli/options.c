/* The command-line conventions every subcommand shares (cli/cli.h):
 * the option table check (unknown, misplaced, repeated options, missing
 * values), --arch's model lists and --jobs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

static const struct cli_opt *find_opt(const struct cli_opt *opts,
                                      const char *name)
{
    for (; opts->name; opts++)
        if (!strcmp(opts->name, name))
            return opts;
    return NULL;
}

bool cli_check_options(const char *cmd, int argc, char **argv, int first,
                       const struct cli_opt *opts)
{
    /* counts per table entry; a table is short */
    unsigned seen[64] = { 0 };
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--"))
            return true;   /* the rest are operands (piglit's files) */
        if (a[0] != '-' || !a[1])
            continue;      /* an operand, or "-" for standard input */
        const struct cli_opt *o = find_opt(opts, a);
        if (!o) {
            cli_error(NULL, 0, 0, "%s: unknown option '%s' (ushader %s "
                      "--help lists its options)", cmd, a, cmd);
            return false;
        }
        size_t k = (size_t)(o - opts);
        if (k < sizeof seen / sizeof seen[0] && seen[k]++ && !o->repeat) {
            cli_error(NULL, 0, 0, "%s: %s given twice", cmd, a);
            return false;
        }
        if (o->value) {
            if (i + 1 == argc) {
                cli_error(NULL, 0, 0, "%s: %s needs %s", cmd, a,
                          o->what ? o->what : "a value");
                return false;
            }
            i++;
        }
    }
    return true;
}

const char *cli_option_value(int argc, char **argv, int first,
                             const struct cli_opt *opts, const char *name)
{
    const char *v = NULL;
    for (int i = first; i + 1 < argc && strcmp(argv[i], "--"); i++) {
        const struct cli_opt *o = find_opt(opts, argv[i]);
        if (o && o->value && !strcmp(o->name, name))
            v = argv[i + 1];
        if (o && o->value)
            i++;
    }
    return v;
}

/* "functional, scalar, simd4, ...[, all]" for the messages. */
static void arch_names(char *buf, size_t size, bool functional, bool many)
{
    size_t n = (size_t)snprintf(buf, size, "%s", functional ? "functional"
                                                            : "");
    for (unsigned m = 0; us_models[m] && n < size; m++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "",
                              us_models[m]->name);
    if (many && n < size)
        snprintf(buf + n, size - n, ", all or a comma list of models");
}

bool cli_parse_arch(const char *cmd, const char *spec, unsigned flags,
                    const char *no_functional, struct cli_arch *arch)
{
    bool many = flags & CLI_ARCH_MANY, func = !no_functional;
    char names[256];
    arch_names(names, sizeof names, func, many);
    memset(arch, 0, sizeof *arch);
    if (!strcmp(spec, CLI_FUNCTIONAL)) {
        if (!func) {
            cli_error(NULL, 0, 0, "%s: --arch functional: %s", cmd,
                      no_functional);
            return false;
        }
        arch->functional = true;
        return true;
    }
    if (!strcmp(spec, "all")) {
        if (!many) {
            cli_error(NULL, 0, 0, "%s: --arch takes one model here, not "
                      "all (%s); run and bench compare several", cmd, names);
            return false;
        }
        for (unsigned m = 0; us_models[m]; m++, arch->count++)
            arch->mask |= 1u << m;
        arch->all = true;
        return true;
    }
    for (const char *p = spec;;) {
        size_t n = strcspn(p, ",");
        unsigned m = 0;
        while (us_models[m] && (strlen(us_models[m]->name) != n ||
                                memcmp(us_models[m]->name, p, n)))
            m++;
        if (!us_models[m]) {
            bool isfunc = n == strlen(CLI_FUNCTIONAL) &&
                          !memcmp(p, CLI_FUNCTIONAL, n);
            if (isfunc)
                cli_error(NULL, 0, 0, "%s: --arch '%s': a list of core "
                          "models cannot hold functional (%s)", cmd, spec,
                          names);
            else
                cli_error(NULL, 0, 0, "%s: unknown --arch '%.*s'%s%s%s (%s)",
                          cmd, (int)n, p, p[n] || p != spec ? " in '" : "",
                          p[n] || p != spec ? spec : "",
                          p[n] || p != spec ? "'" : "", names);
            return false;
        }
        if (arch->mask & (1u << m)) {
            cli_error(NULL, 0, 0, "%s: --arch '%s' names %s twice", cmd, spec,
                      us_models[m]->name);
            return false;
        }
        arch->mask |= 1u << m;
        arch->count++;
        arch->one = us_models[m];
        if (!p[n])
            break;
        p += n + 1;
    }
    if (arch->count > 1 && !many) {
        cli_error(NULL, 0, 0, "%s: --arch takes one model here, not a list "
                  "(%s); run and bench compare several", cmd, names);
        return false;
    }
    if (arch->count > 1)
        arch->one = NULL;
    return true;
}

unsigned cli_default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > CLI_MAX_JOBS ? CLI_MAX_JOBS : (unsigned)n;
}

bool cli_parse_jobs(const char *cmd, const char *v, unsigned *jobs)
{
    char *end;
    errno = 0;
    unsigned long n = strtoul(v, &end, 10);
    if (errno || *v == '-' || *v == '+' || end == v || *end || n < 1 ||
        n > CLI_MAX_JOBS) {
        cli_error(NULL, 0, 0, "%s: --jobs wants 1..%d host threads, not '%s'",
                  cmd, CLI_MAX_JOBS, v);
        return false;
    }
    *jobs = (unsigned)n;
    return true;
}
