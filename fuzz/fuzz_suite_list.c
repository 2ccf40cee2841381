/*
 * The benchmark list of `ushader bench --suite` (us_bench_parse_list,
 * suite/load.c): names only, no file is read.  The list is taken to be
 * bench/suite.list; a first line "#only A,B" also parses it again with
 * --only A,B.
 *
 * Properties of a list that parses: between 1 and US_BENCH_MAX_PROGRAMS
 * programs, as many as the lines that are neither blank nor comments
 * (without --only), in line order; each entry's words are whole words of
 * its line (no blank, '#' or NUL), its path and scene are the words
 * joined to bench/ (absolute ones as they are), its name the program word
 * without "programs/", its slot shorter than US_MAX_NAME; with --only,
 * every name contains one of the strings.  A failure names the list and
 * has a message (and a line, but for an empty selection).
 */
#include "fuzz/fuzz.h"
#include "suite/suite.h"

static const char list_path[] = "bench/suite.list";

static bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* Lines that hold a program: a first non-blank byte that is not '#'. */
static unsigned entries(const char *t, size_t n)
{
    unsigned k = 0;
    for (size_t i = 0; i < n;) {
        while (i < n && blank(t[i]))
            i++;
        k += i < n && t[i] != '\n' && t[i] != '#';
        while (i < n && t[i] != '\n')
            i++;
        i++;
    }
    return k;
}

static void check_word(const char *w, const char *what)
{
    if (!w || !w[0])
        fuzz_fail("missing word", what);
    for (const char *p = w; *p; p++)
        if (blank(*p) || *p == '#' || *p == '\n')
            fuzz_fail("word with a blank or '#'", what);
}

static bool any_of(const char *name, const char *only)
{
    for (const char *p = only; *p;) {
        size_t n = strcspn(p, ",");
        for (const char *q = name; n && *q; q++)
            if (!strncmp(q, p, n))
                return true;
        p += n + (p[n] == ',');
    }
    return false;
}

static void check_entry(const struct us_bench_prog *bp, unsigned last_line)
{
    check_word(bp->name, "name");
    check_word(bp->scene_name, "scene");
    check_word(bp->slot, "slot");
    if (strlen(bp->slot) >= US_MAX_NAME)
        fuzz_fail("slot too long", NULL);
    if (bp->line <= last_line)
        fuzz_fail("entries out of line order", NULL);
    const char *dir = "bench/";
    /* path = bench/ + the program word, which is the name, or
     * programs/ + the name */
    if (bp->scene_name[0] == '/' ? strcmp(bp->scene, bp->scene_name)
        : strncmp(bp->scene, dir, 6) || strcmp(bp->scene + 6, bp->scene_name))
        fuzz_fail("scene path is not the word joined to the list's dir",
                  bp->scene);
    const char *word = bp->path[0] == '/' ? bp->path : bp->path + 6;
    if (bp->path[0] != '/' && strncmp(bp->path, dir, 6))
        fuzz_fail("path not joined to the list's dir", bp->path);
    if (strcmp(word, bp->name) &&
        (strncmp(word, "programs/", 9) || strcmp(word + 9, bp->name)))
        fuzz_fail("name is not the program word", bp->name);
}

static void parse(const char *text, size_t len, const char *only)
{
    struct us_bench *b = calloc(1, sizeof *b);
    if (!b)
        fuzz_fail("out of memory", NULL);
    struct us_diag d;
    if (us_bench_parse_list(b, list_path, text, len, only, &d)) {
        if (b->nprogs < 1 || b->nprogs > US_BENCH_MAX_PROGRAMS)
            fuzz_fail("program count out of range", NULL);
        if (!only && b->nprogs != entries(text, len))
            fuzz_fail("programs and listed lines differ", NULL);
        unsigned last = 0;
        for (unsigned i = 0; i < b->nprogs; i++) {
            check_entry(&b->progs[i], last);
            last = b->progs[i].line;
            if (only && !any_of(b->progs[i].name, only))
                fuzz_fail("a program --only does not select", NULL);
        }
    } else {
        fuzz_check_diag(&d);
        if (b->err_file != list_path)
            fuzz_fail("error does not name the list", NULL);
        if (d.line == 0 && strcmp(d.msg, "no program selected") &&
            strcmp(d.msg, "out of memory"))
            fuzz_fail("error without a line", d.msg);
    }
    us_bench_free(b);
    free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* exactly `size` bytes: ASan sees any read past the end */
    char *text = malloc(size ? size : 1);
    if (!text)
        fuzz_fail("out of memory", NULL);
    memcpy(text, data, size);
    parse(text, size, NULL);
    if (size > 6 && !memcmp(text, "#only ", 6)) {
        size_t n = 6;
        while (n < size && text[n] != '\n' && text[n] != '\0')
            n++;
        char *only = fuzz_text(data + 6, n - 6);
        parse(text, size, only);
        free(only);
    }
    free(text);
    return 0;
}
