/*
 * ushader config --list | [--config F.ini] [--set KEY=V]...
 * The core models' knobs (shader/knobs.def): --list prints each with its
 * range, default and documentation; otherwise the effective [core]
 * configuration is printed as an INI file that --config reads back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "shader/core.h"

static const char usage[] =
    "usage: ushader config --list\n"
    "       ushader config [--config F.ini] [--set KEY=V]...\n"
    "  --list    every knob of the core models: name, type and range,\n"
    "            default, documentation (SFU keys: ushader sfu --help)\n"
    "  otherwise print the effective configuration ([core] section) after\n"
    "  the INI file and the --set overrides.\n";

static void list(void)
{
    for (unsigned i = 0; i < US_KNOB_COUNT; i++) {
        const struct us_knob_info *k = &us_knobs[i];
        char def[64], range[96];
        us_knob_format(k, k->def, def, sizeof def);
        if (k->type == US_KNOB_ENUM)
            snprintf(range, sizeof range, "%s", k->choices);
        else if (k->type == US_KNOB_BOOL)
            snprintf(range, sizeof range, "0|1");
        else
            snprintf(range, sizeof range, "%d..%d", k->lo, k->hi);
        printf("%-17s %-18s default %-11s %s\n", k->name, range, def, k->doc);
    }
}

int cmd_config(int argc, char **argv)
{
    struct us_config cfg;
    struct us_diag diag;
    us_config_default(&cfg);
    static const struct cli_opt options[] = {
        { "--help", false, false, NULL }, { "--list", false, false, NULL },
        { "--config", true, false, NULL }, { "--set", true, true, NULL },
        { NULL, false, false, NULL },
    };
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return 0;
        }
    if (!cli_check_options("config", argc, argv, 1, options))
        return 2;
    bool list_only = false, configured = false;
    for (int i = 1; i < argc; i++) {
        list_only |= !strcmp(argv[i], "--list");
        configured |= !strcmp(argv[i], "--config") ||
                      !strcmp(argv[i], "--set");
    }
    if (list_only && configured) {
        cli_error(NULL, 0, 0, "config: --list prints every knob's default "
                  "and doc; without --list, config prints the configuration "
                  "--config and --set give");
        return 2;
    }

    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        if (!strcmp(opt, "--help")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(opt, "--list")) {
            list();
            return 0;
        } else if ((!strcmp(opt, "--config") || !strcmp(opt, "--set")) &&
                   i + 1 < argc) {
            const char *v = argv[++i];
            if (opt[2] == 's') {
                if (!us_config_set(&cfg, v, &diag)) {
                    cli_error(NULL, 0, 0, "config: --set: %s", diag.msg);
                    return 2;
                }
                continue;
            }
            if (!cli_load_config(v, &cfg))
                return 2;
        } else {
            cli_error(NULL, 0, 0, "config: bad argument '%s'", opt);
            fputs(usage, stderr);
            return 2;
        }
    }
    us_config_write(stdout, &cfg);
    return cli_flush_stdout() ? 0 : 1;
}
