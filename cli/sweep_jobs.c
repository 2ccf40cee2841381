/* The job directories of a sweep (cli/sweep_jobs.c, docs/SWEEP.md):
 * --emit-jobs (a script per point, GNU parallel's list, a Slurm array)
 * and --merge (the points' files joined into the local run's set). */
#define _XOPEN_SOURCE 700  /* realpath: glibc declares it for X/Open only */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/sweep.h"
#include "suite/provenance.h"

/* ---- Job directories ---------------------------------------------------- */

static char *path_join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", dir, name);
    return p;
}

static bool write_text(const char *dir, const char *name, const char *text)
{
    char *path = path_join(dir, name);
    bool ok = path && cli_write_file(path, text, strlen(text));
    if (!path)
        cli_error(NULL, 0, 0, "out of memory");
    free(path);
    return ok;
}

bool sw_write_json(const char *dir, const char *name, json_t *o)
{
    char *s = o ? json_dumps(o, US_JSON_FLAGS) : NULL;
    if (!s) {
        cli_error(NULL, 0, 0, "out of memory");
        return false;
    }
    size_t n = strlen(s);
    char *t = realloc(s, n + 2);
    if (!t) {
        free(s);
        cli_error(NULL, 0, 0, "out of memory");
        return false;
    }
    memcpy(t + n, "\n", 2);
    bool ok = write_text(dir, name, t);
    free(t);
    return ok;
}

/* argv shell-quoted as the provenance quotes it, argv[0] included. */
static char *quoted(unsigned argc, const char **argv)
{
    struct us_prov *p = calloc(1, sizeof *p);
    char *s = NULL;
    if (p && us_prov_init(p, (int)argc, (char *const *)argv))
        s = strdup(p->command + strlen("ushader "));
    if (p)
        us_prov_free(p);
    free(p);
    return s;
}

/* The command line of point k's job: `cd CWD && exec USHADER sweep ...
 * --point K --jobs 1 --out POINTDIR`. */
static char *job_command(const struct sw_spec *s, const char *exe,
                         const char *cwd, const char *pdir, unsigned k)
{
    const char *argv[80];
    char kbuf[16];
    snprintf(kbuf, sizeof kbuf, "%u", k);
    unsigned n = 0;
    argv[n++] = "cd";
    argv[n++] = cwd;
    char *cd = quoted(n, argv);
    n = 0;
    argv[n++] = "exec";
    argv[n++] = exe;
    n += sw_spec_argv(s, argv + n, 64);
    argv[n++] = "--point";
    argv[n++] = kbuf;
    argv[n++] = "--jobs";
    argv[n++] = "1";
    argv[n++] = "--out";
    argv[n++] = pdir;
    char *run = quoted(n, argv), *cmd = NULL;
    if (cd && run) {
        size_t len = strlen(cd) + strlen(run) + 5;
        cmd = malloc(len);
        if (cmd)
            snprintf(cmd, len, "%s && %s", cd, run);
    }
    free(cd);
    free(run);
    return cmd;
}

/* Job k's script: its provenance as comments, then its command. */
static char *job_script(const struct sw_spec *s, const json_t *prov,
                        unsigned k, const char *cmd)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    char label[512];
    sw_point_label(s, k, label, sizeof label);
    fprintf(f, "#!/bin/sh\n# ushader sweep: point %u of %u%s\n"
            "# version: %s\n# commit: %s\n# sweep: %s\n"
            "# Writes points/%04u/point.json beside this directory;\n"
            "# `ushader sweep --merge DIR` joins the points.\n"
            "set -e\n%s\n", k, s->npoints, label,
            json_string_value(json_object_get(prov, "version")),
            json_string_value(json_object_get(prov, "commit")),
            json_string_value(json_object_get(prov, "command")), k, cmd);
    if (fclose(f)) {
        free(buf);
        return NULL;
    }
    return buf;
}

static char *sbatch_script(unsigned n, const char *dir)
{
    const char *argv[] = { "cd", dir };
    char *cd = quoted(2, argv), *buf = NULL;
    size_t len = 0;
    FILE *f = cd ? open_memstream(&buf, &len) : NULL;
    if (f) {
        fprintf(f, "#!/bin/sh\n# ushader sweep as a Slurm job array: task "
                "i runs jobs/NNNN.sh (NNNN = i),\n# writing "
                "points/NNNN/point.json.  sbatch --array=0-%u %s/sweep.sbatch"
                "\n#SBATCH --job-name=ushader-sweep\n#SBATCH --array=0-%u\n"
                "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n"
                "#SBATCH --output=%s/logs/%%a.out\n"
                "set -e\n%s\nn=$(printf %%04d \"$SLURM_ARRAY_TASK_ID\")\n"
                "exec sh \"jobs/$n.sh\"\n", n - 1, dir, n - 1, dir, cd);
        if (fclose(f)) {
            free(buf);
            buf = NULL;
        }
    }
    free(cd);
    return buf;
}

/* The directory as an absolute path (created first). */
static char *abs_dir(const char *dir)
{
    if (!cli_make_dirs(dir)) {
        cli_error(dir, 0, 0, "cannot create the directory: %s",
                  strerror(errno));
        return NULL;
    }
    char *r = realpath(dir, NULL);
    if (!r)
        cli_error(dir, 0, 0, "%s", strerror(errno));
    return r;
}

int sw_emit_jobs(const struct sw_ctx *c, const char *dir_arg)
{
    const struct sw_spec *s = c->s;
    /* the suite once, for the inputs the provenance names (and so a
     * broken suite fails now, not in every job) */
    char sets[SW_MAX_AXES][SW_MAX_SET];
    struct us_bench_opts o;
    sw_point_opts(c, 0, sets, &o);
    o.nsets = 0;
    struct us_bench *b = calloc(1, sizeof *b);
    struct us_diag diag = { 0 };
    json_t *prov = NULL, *doc = NULL, *jobs = NULL;
    char *dir = NULL, *exe = NULL, *cwd = NULL, *txt = NULL;
    size_t txt_len = 0;
    FILE *tf = NULL;
    int rc = 2;
    if (!b)
        goto oom;
    if (s->compute) {
        if (!(prov = sw_compute_prov(c)))
            goto out;
    } else {
        if (!us_bench_load(b, &o, NULL, NULL, &diag)) {
            if (b->err_file)
                cli_error(b->err_file, diag.line, diag.col, "%s", diag.msg);
            else
                cli_error(NULL, 0, 0, "sweep: %s", diag.msg);
            goto out;
        }
        rc = 1;
        if (!(prov = sw_sweep_prov(c, b)))
            goto oom;
    }
    rc = 1;
    exe = realpath("/proc/self/exe", NULL);
    cwd = getcwd(NULL, 0);
    if (!exe || !cwd) {
        cli_error(NULL, 0, 0, "sweep: cannot name the ushader binary or the "
                  "working directory: %s", strerror(errno));
        goto out;
    }
    if (!(dir = abs_dir(dir_arg)))
        goto out;
    char *sub[] = { path_join(dir, "jobs"), path_join(dir, "points"),
                    path_join(dir, "logs") };
    bool made = true;
    for (unsigned i = 0; i < 3; i++) {
        if (made && (!sub[i] || !cli_make_dirs(sub[i]))) {
            cli_error(sub[i] ? sub[i] : dir, 0, 0, "cannot create the "
                      "directory: %s", strerror(errno));
            made = false;
        }
    }
    char *jobs_dir = sub[0];
    free(sub[1]);
    free(sub[2]);
    if (!made) {
        free(jobs_dir);
        goto out;
    }
    jobs = json_array();
    tf = open_memstream(&txt, &txt_len);
    bool ok = jobs && tf;
    for (unsigned k = 0; ok && k < s->npoints; k++) {
        char pname[32], sname[32];
        snprintf(pname, sizeof pname, "points/%04u", k);
        snprintf(sname, sizeof sname, "%04u.sh", k);
        char *pdir = path_join(dir, pname), *job = path_join(jobs_dir, sname);
        char *cmd = pdir ? job_command(s, exe, cwd, pdir, k) : NULL;
        char *script = cmd ? job_script(s, prov, k, cmd) : NULL;
        ok = script && job && write_text(jobs_dir, sname, script) &&
             chmod(job, 0755) == 0;
        if (ok) {
            const char *argv[] = { "sh", job };
            char *line = quoted(2, argv);
            ok = line != NULL;
            if (line)
                fprintf(tf, "%s\n", line);
            free(line);
            json_t *knobs = json_object();
            for (unsigned a = 0; knobs && a < s->naxes; a++)
                json_object_set_new(knobs, s->axes[a].key, us_json_text(
                    s->axes[a].vals[sw_point_value(s, k, a)]));
            json_array_append_new(jobs, json_pack("{s:i, s:o, s:o, s:o}",
                "index", (int)k, "knobs", knobs, "script", us_json_text(job),
                "command", us_json_text(cmd)));
        }
        free(pdir);
        free(job);
        free(cmd);
        free(script);
    }
    free(jobs_dir);
    if (tf && fclose(tf))
        ok = false;
    tf = NULL;
    if (!ok) {
        cli_error(dir, 0, 0, "sweep: writing the jobs failed");
        goto out;
    }
    doc = json_pack("{s:i, s:O, s:o, s:O}", "schema_version",
                    US_JSON_SCHEMA_VERSION, "provenance", prov, "sweep",
                    sw_spec_json(s), "jobs", jobs);
    char *sb = sbatch_script(s->npoints, dir);
    ok = doc && sb && write_text(dir, "jobs.txt", txt) &&
         write_text(dir, "sweep.sbatch", sb) &&
         sw_write_json(dir, "sweep.json", doc);
    free(sb);
    if (!ok)
        goto out;
    fprintf(stderr, "sweep: wrote %u jobs into %s: parallel --jobs N < "
            "%s/jobs.txt, or sbatch %s/sweep.sbatch; then ushader sweep "
            "--merge %s\n", s->npoints, dir_arg, dir_arg, dir_arg, dir_arg);
    rc = 0;
    goto out;
oom:
    cli_error(NULL, 0, 0, "out of memory");
    rc = 1;
out:
    if (tf)
        fclose(tf);
    free(txt);
    json_decref(jobs);
    json_decref(doc);
    json_decref(prov);
    free(dir);
    free(exe);
    free(cwd);
    if (b)
        us_bench_free(b);
    free(b);
    return rc;
}

/* ---- --merge ------------------------------------------------------------ */

static const char *jstr(const json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "?";
}

static json_t *load_json(const char *path, bool missing_ok)
{
    json_error_t e;
    json_t *j = json_load_file(path, 0, &e);
    if (!j && !(missing_ok && access(path, F_OK) != 0))
        cli_error(path, (unsigned)(e.line > 0 ? e.line : 0),
                  (unsigned)(e.column > 0 ? e.column : 0), "%s", e.text);
    return j;
}

/* Point k's file against the sweep: version, spec, provenance, index. */
static bool check_point(const char *path, unsigned k, const json_t *doc,
                        const json_t *pf)
{
    const json_t *sp = json_object_get(doc, "provenance"),
                 *pp = json_object_get(pf, "provenance");
    if (strcmp(jstr(sp, "version"), jstr(pp, "version")) ||
        strcmp(jstr(sp, "commit"), jstr(pp, "commit"))) {
        cli_error(path, 0, 0, "point %u was produced by ushader %s (commit "
                  "%s), the sweep by ushader %s (commit %s): run its job "
                  "again with this build", k, jstr(pp, "version"),
                  jstr(pp, "commit"), jstr(sp, "version"),
                  jstr(sp, "commit"));
        return false;
    }
    if (!json_equal(json_object_get(doc, "sweep"),
                    json_object_get(pf, "sweep")) ||
        strcmp(jstr(sp, "command"), jstr(pp, "command"))) {
        cli_error(path, 0, 0, "point %u belongs to another sweep spec (%s), "
                  "not this directory's (%s)", k, jstr(pp, "command"),
                  jstr(sp, "command"));
        return false;
    }
    if (!json_equal(sp, pp)) {
        cli_error(path, 0, 0, "point %u read other inputs or another base "
                  "configuration than the sweep recorded (a file changed "
                  "since --emit-jobs?): its provenance differs", k);
        return false;
    }
    const json_t *pt = json_object_get(pf, "point");
    if (json_integer_value(json_object_get(pt, "index")) != (json_int_t)k ||
        !json_is_array(json_object_get(pt, "runs"))) {
        cli_error(path, 0, 0, "not point %u of the sweep", k);
        return false;
    }
    return true;
}

int sw_merge(const char *dir, const char *out, const char *const *plots,
             unsigned nplots, bool no_plots)
{
    char *sj = path_join(dir, "sweep.json");
    struct sw_results r = { 0 };
    int rc = 1;
    json_t *doc = sj ? load_json(sj, false) : NULL;
    if (!doc)
        goto out;
    r.prov = json_incref(json_object_get(doc, "provenance"));
    r.sweep = json_incref(json_object_get(doc, "sweep"));
    json_int_t n = json_integer_value(json_object_get(r.sweep, "points"));
    if (!r.prov || !r.sweep || n < 1 || n > SW_MAX_POINTS ||
        json_integer_value(json_object_get(doc, "schema_version")) !=
            US_JSON_SCHEMA_VERSION) {
        cli_error(sj, 0, 0, "not the sweep.json of `ushader sweep "
                  "--emit-jobs` (schema_version %d)", US_JSON_SCHEMA_VERSION);
        goto out;
    }
    r.points = calloc((size_t)n, sizeof *r.points);
    if (!r.points)
        goto out;
    r.npoints = (unsigned)n;
    unsigned missing = 0, first = 0;
    bool bad = false;
    for (unsigned k = 0; k < r.npoints; k++) {
        char name[48];
        snprintf(name, sizeof name, "points/%04u/point.json", k);
        char *pp = path_join(dir, name);
        json_t *pf = pp ? load_json(pp, true) : NULL;
        if (!pf && pp && access(pp, F_OK) != 0) {
            if (!missing++)
                first = k;
        } else if (!pf || !check_point(pp, k, doc, pf)) {
            bad = true;
        } else {
            r.points[k] = json_incref(json_object_get(pf, "point"));
        }
        json_decref(pf);
        free(pp);
    }
    if (missing)
        cli_error(dir, 0, 0, "sweep --merge: %u of %u points missing (the "
                  "first: points/%04u/point.json; run jobs/%04u.sh)",
                  missing, r.npoints, first, first);
    if (missing || bad)
        goto out;
    if (!sw_set_plots(&r, plots, nplots, no_plots))
        goto out;
    const char *inputs[2] = { sj, NULL };
    rc = sw_write_results(&r, out ? out : dir, inputs, !no_plots);
    for (unsigned k = 0; rc == 0 && k < r.npoints; k++)
        if (json_integer_value(json_object_get(r.points[k], "failures")))
            rc = 1;
out:
    sw_results_free(&r);
    json_decref(doc);
    free(sj);
    return rc;
}

