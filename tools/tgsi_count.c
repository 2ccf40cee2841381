/*
 * tgsi_count: Mesa's TGSI against our vec4 code (issue 20; driven by
 * bench/tgsi_compare.sh, docs/GLMARK2.md "Against Mesa's TGSI").
 *
 *   tgsi_count split LOGS GEN PAIR...
 *       for each pair, the last VERT and FRAG programs softpipe printed
 *       in LOGS/PAIR.log (the test's shaders: shader_runner's own come
 *       first) into GEN/PAIR.vert.tgsi and GEN/PAIR.frag.tgsi, both or
 *       neither; prints the pairs split, one a line, and exits 1 when
 *       one was not (its reason on stderr)
 *   tgsi_count count FILE...
 *       each TGSI file's figures: instructions (END left out), the width
 *       histogram (texture fetches and flow left out), texture fetches,
 *       useful ops and issued instructions (suite/tgsi.h)
 *   tgsi_count table GEN OUT [PAIR...]
 *       for each pair of GEN/index.txt (or those named), our instruction
 *       count for GEN/PAIR.vert and GEN/PAIR.frag (each compiled alone,
 *       as `ushader bench` does) against GEN/PAIR.vert.tgsi and
 *       GEN/PAIR.frag.tgsi: OUT/table.md and OUT/table.csv, with totals
 *       and medians over the pairs that have both, and a summary line;
 *       ours is the per-thread program, its preshader (us_program.pre,
 *       run once per draw) a column of its own, out of the ratio
 *   tgsi_count cache-get DIR ID TESTS LOGS PAIR...
 *       Mesa's log of each pair from the TGSI cache into LOGS/PAIR.log;
 *       prints the pairs it does not hold.  The entry is DIR/tgsi-KEY.log,
 *       KEY the SHA-256 of the file ID (Mesa's identity) followed by
 *       TESTS/PAIR.shader_test; its first line is the SHA-256 of the rest
 *       (the log), and an entry whose rest does not match is not held
 *   tgsi_count cache-put DIR ID TESTS LOGS PAIR...
 *       each pair's LOGS/PAIR.log into its entry, through a temporary
 *       file renamed over it (concurrent runs write the same bytes); a
 *       failure only costs a run of Mesa next time
 *
 * Exit 1 with "tgsi_count: FILE:LINE:COL: error: ..." on an error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gfx/gfx.h"
#include "glsl/spv_cache.h"
#include "suite/tgsi.h"

enum { MAX_PAIRS = 256, MAX_FILE = 64 << 20, MAX_NAME = 128 };

static int error(const char *file, const struct us_diag *d)
{
    size_t n = strlen(file);
    if (d && !d->line && !strncmp(d->msg, file, n) && d->msg[n] == ':')
        fprintf(stderr, "tgsi_count: %s: error:%s\n", file, d->msg + n + 1);
    else if (d && d->line)
        fprintf(stderr, "tgsi_count: %s:%u:%u: error: %s\n", file, d->line,
                d->col, d->msg);
    else
        fprintf(stderr, "tgsi_count: %s: error: %s\n", file,
                d ? d->msg : strerror(errno));
    return 1;
}

/* Write the n bytes of each of the k parts to path through a temporary
 * file of its own beside it (DIR/.tmp-NAME-XXXXXX), renamed over it: no
 * partial output, and concurrent writers of the same bytes (the TGSI
 * cache) are safe. */
static bool write_parts(const char *path, const char *const *data,
                        const size_t *n, int k)
{
    char tmp[4200];
    const char *slash = strrchr(path, '/');
    int dir = slash ? (int)(slash - path + 1) : 0;
    int m = snprintf(tmp, sizeof tmp, "%.*s.tmp-%s-XXXXXX", dir, path,
                     path + dir);
    if (m < 0 || (size_t)m >= sizeof tmp)
        return false;
    /* mkstemp's file is the user's alone; the output gets fopen's mode */
    mode_t mask = umask(0);
    umask(mask);
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 && fchmod(fd, 0666 & ~mask) == 0 ? fdopen(fd, "w")
                                                     : NULL;
    if (!f) {
        if (fd >= 0) {
            close(fd);
            remove(tmp);
        }
        return false;
    }
    bool ok = true;
    for (int i = 0; i < k; i++)
        ok = ok && fwrite(data[i], 1, n[i], f) == n[i];
    ok = (fclose(f) == 0) && ok;
    if (ok && rename(tmp, path) == 0)
        return true;
    remove(tmp);
    return false;
}

static bool write_file(const char *path, const char *data, size_t n)
{
    return write_parts(path, &data, &n, 1);
}

/* One pair's log into its two TGSI files, both or neither; false (with
 * the message on stderr) when the log lacks one or a file cannot be
 * written. */
static bool split_pair(const char *logs, const char *gen, const char *pair)
{
    if (strlen(pair) > MAX_NAME || strchr(pair, '/') ||
        strlen(logs) > 4000 || strlen(gen) > 4000) {
        fprintf(stderr, "tgsi_count: %s: error: not a pair's name in a "
                "directory\n", pair);
        return false;
    }
    char path[3][4200];
    snprintf(path[0], sizeof path[0], "%s/%s.log", logs, pair);
    snprintf(path[1], sizeof path[1], "%s/%s.vert.tgsi", gen, pair);
    snprintf(path[2], sizeof path[2], "%s/%s.frag.tgsi", gen, pair);
    struct us_diag d = { 0 };
    char *log;
    size_t len;
    if (!gfx_read_file(path[0], MAX_FILE, &log, &len, &d)) {
        error(path[0], &d);
        return false;
    }
    static const char *const kinds[] = { "VERT", "FRAG" };
    const char *s[2];
    size_t n[2];
    bool ok = true;
    for (int k = 0; k < 2 && ok; k++)
        if (!us_tgsi_block(log, len, kinds[k], &s[k], &n[k])) {
            fprintf(stderr, "tgsi_count: %s: error: no %s TGSI\n", path[0],
                    kinds[k]);
            ok = false;
        }
    for (int k = 0; k < 2 && ok; k++)
        if (!write_file(path[1 + k], s[k], n[k])) {
            error(path[1 + k], NULL);
            ok = false;
            if (k)
                remove(path[1]);
        }
    free(log);
    return ok;
}

static int cmd_split(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: tgsi_count split LOGS GEN PAIR...\n");
        return 2;
    }
    int rc = 0;
    for (int i = 4; i < argc; i++) {
        if (split_pair(argv[2], argv[3], argv[i]))
            printf("%s\n", argv[i]);
        else
            rc = 1;
    }
    return fflush(stdout) == 0 ? rc : error("<stdout>", NULL);
}

static bool tgsi_file(const char *path, struct us_tgsi_stats *st,
                      struct us_diag *d)
{
    char *text;
    size_t len;
    if (!gfx_read_file(path, MAX_FILE, &text, &len, d))
        return false;
    bool ok = us_tgsi_stats(text, len, st, d);
    free(text);
    return ok;
}

static int cmd_count(int argc, char **argv)
{
    for (int i = 2; i < argc; i++) {
        struct us_tgsi_stats st;
        struct us_diag d = { 0 };
        if (!tgsi_file(argv[i], &st, &d))
            return error(argv[i], &d);
        printf("%s instructions=%u w1=%u w2=%u w3=%u w4=%u tex=%u ops=%u "
               "issued=%u loops=%u\n", argv[i], st.instructions,
               st.width_hist[1], st.width_hist[2], st.width_hist[3],
               st.width_hist[4], st.tex, st.ops, st.issued, st.loops);
    }
    return 0;
}

/* ---- the per-pair table --------------------------------------------- */

struct row {
    char name[MAX_NAME];
    unsigned ours[2], mesa[2];   /* [0] vertex, [1] fragment */
    unsigned pre[2];             /* our preshader's: once per draw      */
    unsigned loops[2][2];        /* BGNLOOPs: [stage][0 ours, 1 Mesa's] */
    bool has_mesa;
};

/* Our instruction count for one shader, compiled as the bench does. */
static bool ours(const char *path, unsigned *n, unsigned *pre,
                 unsigned *loops, struct us_diag *d)
{
    char *text;
    size_t len;
    if (!gfx_read_file(path, MAX_FILE, &text, &len, d))
        return false;
    struct us_program prog;
    bool ok = us_program_from_text(path, text, len, US_STAGE_ANY, NULL,
                                   &prog, d);
    free(text);
    if (ok) {
        *n = prog.ninsts;
        *pre = prog.npre;
        *loops = 0;
        for (unsigned i = 0; i < prog.ninsts; i++)
            *loops += prog.insts[i].op == US_OP_BGNLOOP;
        us_program_free(&prog);
    }
    return ok;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, unsigned n)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Totals and medians of stage s over the rows with Mesa's figures. */
struct summary {
    unsigned n, ours, pre, mesa;
    double med_ours, med_mesa, med_ratio;
};

static void summarize(const struct row *r, unsigned n, int s,
                      struct summary *out)
{
    static double a[MAX_PAIRS], b[MAX_PAIRS], c[MAX_PAIRS];
    memset(out, 0, sizeof *out);
    for (unsigned i = 0; i < n; i++) {
        if (!r[i].has_mesa || r[i].mesa[s] == 0)
            continue;
        out->ours += r[i].ours[s];
        out->pre += r[i].pre[s];
        out->mesa += r[i].mesa[s];
        a[out->n] = r[i].ours[s];
        b[out->n] = r[i].mesa[s];
        c[out->n] = (double)r[i].ours[s] / r[i].mesa[s];
        out->n++;
    }
    out->med_ours = median(a, out->n);
    out->med_mesa = median(b, out->n);
    out->med_ratio = median(c, out->n);
}

static void write_tables(FILE *md, FILE *csv, const struct row *r,
                         unsigned n, const struct summary sm[2])
{
    fprintf(md, "# Our vec4 code against Mesa's TGSI, glmark2 pairs\n\n"
            "Static instruction counts (bench/tgsi_compare.sh, "
            "tools/tgsi_count.c): ours is the vec4 IR of each shader "
            "compiled alone, as `ushader bench` compiles it: its "
            "per-thread instructions (pre: those of its preshader, "
            "glsl/pass_hoist.c, run once per draw, not per vertex or "
            "fragment, and not in the ratio); Mesa's is "
            "the TGSI softpipe printed for the linked pair (the last VERT "
            "and FRAG blocks of shader_runner's output), END, DCL, IMM "
            "and PROPERTY lines left out; flow instructions (IF, ELSE, "
            "ENDIF, BGNLOOP, ENDLOOP, BRK) count one each on both sides, "
            "a loop its body once.  Ratio: ours / Mesa's.  Totals and "
            "medians over the %u pairs with Mesa's TGSI.\n\n"
            "| pair | vert ours | vert pre | vert Mesa | vert ratio | "
            "frag ours | frag pre | frag Mesa | frag ratio |\n"
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n", sm[0].n);
    fprintf(csv, "pair,vert_ours,vert_mesa,vert_ratio,frag_ours,"
            "frag_mesa,frag_ratio,vert_loops_ours,vert_loops_mesa,"
            "frag_loops_ours,frag_loops_mesa,vert_pre,frag_pre\n");
    unsigned unlike = 0;
    for (unsigned i = 0; i < n; i++) {
        if (!r[i].has_mesa) {
            fprintf(md, "| %s | %u | %u | - | - | %u | %u | - | - |\n",
                    r[i].name, r[i].ours[0], r[i].pre[0], r[i].ours[1],
                    r[i].pre[1]);
            fprintf(csv, "%s,%u,,,%u,,,%u,,%u,,%u,%u\n", r[i].name,
                    r[i].ours[0], r[i].ours[1], r[i].loops[0][0],
                    r[i].loops[1][0], r[i].pre[0], r[i].pre[1]);
            continue;
        }
        double q[2];
        const char *mark[2];
        for (int s = 0; s < 2; s++) {
            q[s] = r[i].mesa[s] ? (double)r[i].ours[s] / r[i].mesa[s] : 0;
            mark[s] = r[i].loops[s][0] != r[i].loops[s][1] ? " (loops)" : "";
            unlike += *mark[s] != '\0';
        }
        fprintf(md, "| %s | %u | %u | %u | %.2f%s | %u | %u | %u | "
                "%.2f%s |\n", r[i].name, r[i].ours[0], r[i].pre[0],
                r[i].mesa[0], q[0], mark[0], r[i].ours[1], r[i].pre[1],
                r[i].mesa[1], q[1], mark[1]);
        fprintf(csv, "%s,%u,%u,%.4f,%u,%u,%.4f,%u,%u,%u,%u,%u,%u\n",
                r[i].name, r[i].ours[0], r[i].mesa[0], q[0], r[i].ours[1],
                r[i].mesa[1], q[1], r[i].loops[0][0], r[i].loops[0][1],
                r[i].loops[1][0], r[i].loops[1][1], r[i].pre[0],
                r[i].pre[1]);
    }
    double t[2];
    for (int s = 0; s < 2; s++)
        t[s] = sm[s].mesa ? (double)sm[s].ours / sm[s].mesa : 0;
    fprintf(md, "| **total** | %u | %u | %u | %.2f | %u | %u | %u | %.2f |\n"
            "| **median** | %.1f | | %.1f | %.2f | %.1f | | %.1f | %.2f |\n",
            sm[0].ours, sm[0].pre, sm[0].mesa, t[0], sm[1].ours, sm[1].pre,
            sm[1].mesa, t[1],
            sm[0].med_ours, sm[0].med_mesa, sm[0].med_ratio,
            sm[1].med_ours, sm[1].med_mesa, sm[1].med_ratio);
    fprintf(md, "\nThe median ratio is the median of the per-pair "
            "ratios, not the ratio of the medians.\n");
    if (unlike)
        fprintf(md, "\n(loops): %u shader%s whose BGNLOOPs differ "
                "between the two sides: a loop with a constant trip count "
                "one compiler unrolled, or the one-trip loop glslang makes "
                "of a function with early returns.  The counts stay static "
                "(each loop body once), so there the ratio is not that of "
                "the instructions executed (the glmark2 report's Mesa "
                "section gives our executed count for them); table.csv has "
                "the loops of each side.\n", unlike, unlike == 1 ? "" : "s");
    fprintf(csv, "total,%u,%u,%.4f,%u,%u,%.4f,,,,,%u,%u\n", sm[0].ours,
            sm[0].mesa, t[0], sm[1].ours, sm[1].mesa, t[1], sm[0].pre,
            sm[1].pre);
    fprintf(csv, "median,%.1f,%.1f,%.4f,%.1f,%.1f,%.4f,,,,,,\n", sm[0].med_ours,
            sm[0].med_mesa, sm[0].med_ratio, sm[1].med_ours,
            sm[1].med_mesa, sm[1].med_ratio);
}

/* The pair names of GEN/index.txt (first word of each line). */
static bool index_pairs(const char *gen, struct row *r, unsigned *n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/index.txt", gen);
    struct us_diag d = { 0 };
    char *text;
    size_t len;
    if (!gfx_read_file(path, MAX_FILE, &text, &len, &d)) {
        error(path, &d);
        return false;
    }
    *n = 0;
    for (char *p = text, *e; p < text + len; p = e + 1) {
        e = strchr(p, '\n');
        if (!e)
            e = text + len;
        *e = '\0';
        size_t w = strcspn(p, " \t");
        if (w == 0 || *p == '#')
            continue;
        if (*n == MAX_PAIRS || w >= MAX_NAME) {
            fprintf(stderr, "tgsi_count: %s: error: too many pairs or a "
                    "name too long\n", path);
            free(text);
            return false;
        }
        memcpy(r[*n].name, p, w);
        r[(*n)++].name[w] = '\0';
    }
    free(text);
    return true;
}

static int cmd_table(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: tgsi_count table GEN OUT [PAIR...]\n");
        return 2;
    }
    const char *gen = argv[2], *out = argv[3];
    static struct row r[MAX_PAIRS];
    unsigned n = 0;
    if (argc == 4) {
        if (!index_pairs(gen, r, &n))
            return 1;
    } else {
        for (int i = 4; i < argc && n < MAX_PAIRS; i++)
            snprintf(r[n++].name, MAX_NAME, "%s", argv[i]);
    }
    static const char *const ext[] = { "vert", "frag" };
    for (unsigned i = 0; i < n; i++) {
        r[i].has_mesa = true;
        for (int s = 0; s < 2; s++) {
            char path[4096], tp[4200];
            struct us_diag d = { 0 };
            int m = snprintf(path, sizeof path, "%s/%s.%s", gen, r[i].name,
                             ext[s]);
            if (m < 0 || (size_t)m >= sizeof path) {
                fprintf(stderr, "tgsi_count: %s: error: path too long\n", gen);
                return 1;
            }
            if (!ours(path, &r[i].ours[s], &r[i].pre[s], &r[i].loops[s][0],
                      &d))
                return error(path, &d);
            snprintf(tp, sizeof tp, "%s.tgsi", path);
            struct us_tgsi_stats st;
            FILE *probe = fopen(tp, "r");
            if (!probe) {
                r[i].has_mesa = false;   /* Mesa did not run or failed */
                continue;
            }
            fclose(probe);
            if (!tgsi_file(tp, &st, &d))
                return error(tp, &d);
            r[i].mesa[s] = st.instructions;
            r[i].loops[s][1] = st.loops;
        }
    }
    struct summary sm[2];
    for (int s = 0; s < 2; s++)
        summarize(r, n, s, &sm[s]);
    char mdp[4096], csvp[4096];
    snprintf(mdp, sizeof mdp, "%s/table.md", out);
    snprintf(csvp, sizeof csvp, "%s/table.csv", out);
    char *mdb = NULL, *csvb = NULL;
    size_t mdn = 0, csvn = 0;
    FILE *md = open_memstream(&mdb, &mdn), *csv = open_memstream(&csvb, &csvn);
    if (!md || !csv) {
        fprintf(stderr, "tgsi_count: error: out of memory\n");
        return 1;
    }
    write_tables(md, csv, r, n, sm);
    fclose(md);
    fclose(csv);
    bool ok = write_file(mdp, mdb, mdn);
    int rc = ok ? 0 : error(mdp, NULL);
    if (ok && !write_file(csvp, csvb, csvn))
        rc = error(csvp, NULL);
    free(mdb);
    free(csvb);
    if (rc)
        return rc;
    for (int s = 0; s < 2; s++)
        printf("tgsi-compare: %s: ours %u (+ %u in preshaders, once per "
               "draw), Mesa %u (%.2fx), median per pair %.2fx over %u "
               "pairs\n", s ? "fragment" : "vertex", sm[s].ours, sm[s].pre,
               sm[s].mesa,
               sm[s].mesa ? (double)sm[s].ours / sm[s].mesa : 0.0,
               sm[s].med_ratio, sm[s].n);
    printf("tgsi-compare: %s, %s\n", mdp, csvp);
    return 0;
}

/* ---- the TGSI cache ---------------------------------------------------- */

static void sha256_hex(const void *data, size_t n, char hex[65])
{
    uint8_t d[32];
    spv_sha256(data, n, d);
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

/* DIR/tgsi-KEY.log of a pair into path, from Mesa's identity `id`. */
static bool entry_path(const char *dir, const char *id, size_t idn,
                       const char *tests, const char *pair, char *path,
                       size_t cap)
{
    char test[4096], *text;
    size_t n;
    struct us_diag d;
    snprintf(test, sizeof test, "%s/%s.shader_test", tests, pair);
    if (!gfx_read_file(test, MAX_FILE, &text, &n, &d))
        return false;
    char *both = malloc(idn + n + 1);
    if (both) {
        memcpy(both, id, idn);
        memcpy(both + idn, text, n);
    }
    free(text);
    if (!both)
        return false;
    char key[65];
    sha256_hex(both, idn + n, key);
    free(both);
    int m = snprintf(path, cap, "%s/tgsi-%s.log", dir, key);
    return m > 0 && (size_t)m < cap;
}

/* The log at `log` into `entry`, its SHA-256 first (a failure leaves no
 * entry). */
static void entry_put(const char *entry, const char *log)
{
    char *text, sum[65];
    size_t n;
    struct us_diag d;
    if (!gfx_read_file(log, MAX_FILE, &text, &n, &d))
        return;
    sha256_hex(text, n, sum);
    sum[64] = '\n';
    const char *part[2] = { sum, text };
    const size_t len[2] = { 65, n };
    write_parts(entry, part, len, 2);
    free(text);
}

/* The log an entry holds into `log`: false when there is none or the
 * entry is damaged. */
static bool entry_get(const char *entry, const char *log)
{
    char *text, sum[65];
    size_t n;
    struct us_diag d;
    if (!gfx_read_file(entry, MAX_FILE, &text, &n, &d))
        return false;
    const char *nl = memchr(text, '\n', n);
    bool held = false;
    if (nl && nl - text == 64) {
        sha256_hex(nl + 1, n - 65, sum);
        held = !memcmp(sum, text, 64) && write_file(log, nl + 1, n - 65);
    }
    free(text);
    return held;
}

static int cmd_cache(int argc, char **argv, bool put)
{
    if (argc < 6) {
        fprintf(stderr, "usage: tgsi_count cache-%s DIR ID TESTS LOGS "
                "PAIR...\n", put ? "put" : "get");
        return 2;
    }
    const char *dir = argv[2], *tests = argv[4], *logs = argv[5];
    char *id;
    size_t idn;
    struct us_diag d = { 0 };
    if (!gfx_read_file(argv[3], MAX_FILE, &id, &idn, &d))
        return error(argv[3], &d);
    for (int i = 6; i < argc; i++) {
        char entry[4200], log[4200];
        snprintf(log, sizeof log, "%s/%s.log", logs, argv[i]);
        bool key = entry_path(dir, id, idn, tests, argv[i], entry,
                              sizeof entry);
        if (put && key)
            entry_put(entry, log);
        else if (!put && !(key && entry_get(entry, log)))
            printf("%s\n", argv[i]);
    }
    free(id);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "cache-get"))
        return cmd_cache(argc, argv, false);
    if (argc >= 2 && !strcmp(argv[1], "cache-put"))
        return cmd_cache(argc, argv, true);
    if (argc >= 2 && !strcmp(argv[1], "split"))
        return cmd_split(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "count"))
        return cmd_count(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "table"))
        return cmd_table(argc, argv);
    fprintf(stderr, "usage: tgsi_count split|count|table|cache-get|cache-put ...\n");
    return 2;
}
