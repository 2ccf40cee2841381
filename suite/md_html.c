/* report.md to a self-contained report.html: suite/md_html.h.
 *
 * Block by block, one line at a time: a fenced block (```) is <pre>, a
 * "#" line a heading, a run of "|" lines a table (header row, alignment
 * row, body), a run of "- " or "* " lines a list (indented lines continue
 * an item), anything else a paragraph up to the next blank line.  Inline
 * markup is read within a block; an emphasis left open is closed at its
 * end, so the page is always well formed. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "suite/md_html.h"

struct md {
    FILE *f;
    us_md_image_fn image;
    void *ctx;
};

static const char style[] =
    "body{font-family:sans-serif;max-width:75em;margin:1.5em auto;"
    "padding:0 1em;color:#222;line-height:1.4}"
    "table{border-collapse:collapse;margin:1em 0}"
    "th,td{border:1px solid #999;padding:.2em .5em;vertical-align:top}"
    "th{background:#ddd}tr:nth-child(even) td{background:#f4f4f4}"
    "code{background:#eee;padding:0 .2em}"
    "pre{background:#eee;padding:.5em;overflow-x:auto}"
    "img{max-width:100%}figure{margin:1em 0}"
    ".missing{color:#b00}";

static void esc(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        switch (s[i]) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(s[i], f);
        }
}

static void base64(FILE *f, const unsigned char *p, size_t n)
{
    static const char a[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)p[i] << 16;
        if (i + 1 < n)
            v |= (unsigned)p[i + 1] << 8;
        if (i + 2 < n)
            v |= p[i + 2];
        fputc(a[v >> 18 & 63], f);
        fputc(a[v >> 12 & 63], f);
        fputc(i + 1 < n ? a[v >> 6 & 63] : '=', f);
        fputc(i + 2 < n ? a[v & 63] : '=', f);
    }
}

static bool ends_with(const char *s, size_t n, const char *suf)
{
    size_t k = strlen(suf);
    return n >= k && !memcmp(s + n - k, suf, k);
}

/* <img> with the image's bytes as a data: URI, or a note that it is
 * missing. */
static void image(const struct md *m, const char *alt, size_t nalt,
                  const char *src, size_t nsrc)
{
    char *name = malloc(nsrc + 1);
    size_t len = 0;
    char *data = NULL;
    if (name) {
        memcpy(name, src, nsrc);
        name[nsrc] = '\0';
        data = m->image ? m->image(m->ctx, name, &len) : NULL;
    }
    if (!data) {
        fputs("<span class=\"missing\">(the image ", m->f);
        esc(m->f, src, nsrc);
        fputs(" is missing)</span>", m->f);
    } else {
        const char *mime = ends_with(src, nsrc, ".svg") ? "image/svg+xml"
                                                        : "image/png";
        fprintf(m->f, "<img alt=\"");
        esc(m->f, alt, nalt);
        fprintf(m->f, "\" src=\"data:%s;base64,", mime);
        base64(m->f, (const unsigned char *)data, len);
        fputs("\">", m->f);
    }
    free(data);
    free(name);
}

/* "[text](target)" at s: the lengths, or false. */
static bool bracket(const char *s, size_t n, size_t *text_end,
                    size_t *target, size_t *end)
{
    if (!n || s[0] != '[')
        return false;
    const char *close = memchr(s, ']', n);
    if (!close || (size_t)(close - s) + 1 >= n || close[1] != '(')
        return false;
    const char *paren = memchr(close, ')', n - (size_t)(close - s));
    if (!paren)
        return false;
    *text_end = (size_t)(close - s);
    *target = *text_end + 2;
    *end = (size_t)(paren - s) + 1;
    return true;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\0';
}

/* Inline markup of s[0..n). */
static void inline_text(const struct md *m, const char *s, size_t n)
{
    bool em = false, strong = false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        size_t te, tg, end;
        if (c == '\\' && i + 1 < n && s[i + 1] && strchr("\\`*_|[]()#!-", s[i + 1])) {
            esc(m->f, s + ++i, 1);
        } else if (c == '`') {
            const char *close = memchr(s + i + 1, '`', n - i - 1);
            if (!close) {
                esc(m->f, s + i, 1);
                continue;
            }
            fputs("<code>", m->f);
            esc(m->f, s + i + 1, (size_t)(close - s) - i - 1);
            fputs("</code>", m->f);
            i = (size_t)(close - s);
        } else if (c == '!' && bracket(s + i + 1, n - i - 1, &te, &tg, &end)) {
            image(m, s + i + 2, te - 1, s + i + 1 + tg, end - tg - 1);
            i += end;
        } else if (c == '[' && bracket(s + i, n - i, &te, &tg, &end)) {
            fputs("<a href=\"", m->f);
            esc(m->f, s + i + tg, end - tg - 1);
            fputs("\">", m->f);
            inline_text(m, s + i + 1, te - 1);
            fputs("</a>", m->f);
            i += end - 1;
        } else if (c == '*' && i + 1 < n && s[i + 1] == '*' &&
                   (strong ? i > 0 && !is_space(s[i - 1])
                           : i + 2 < n && !is_space(s[i + 2]))) {
            fputs(strong ? "</strong>" : "<strong>", m->f);
            strong = !strong;
            i++;
        } else if (c == '*' && (em ? i > 0 && !is_space(s[i - 1])
                                   : i + 1 < n && !is_space(s[i + 1]))) {
            fputs(em ? "</em>" : "<em>", m->f);
            em = !em;
        } else {
            esc(m->f, s + i, 1);
        }
    }
    if (em)
        fputs("</em>", m->f);
    if (strong)
        fputs("</strong>", m->f);
}

/* ---- Lines and blocks ------------------------------------------------------ */

struct line {
    const char *s;
    size_t n;
};

static bool blank(struct line l)
{
    for (size_t i = 0; i < l.n; i++)
        if (!is_space(l.s[i]))
            return false;
    return true;
}

static bool starts(struct line l, const char *p)
{
    size_t k = strlen(p);
    return l.n >= k && !memcmp(l.s, p, k);
}

static bool is_item(struct line l)
{
    return starts(l, "- ") || starts(l, "* ");
}

/* The cells of a table row "| a | b |", trimmed; '\|' is no separator.
 * Returns how many (at most max). */
static unsigned cells(struct line l, struct line *c, unsigned max)
{
    size_t i = 0, n = l.n;
    while (n && is_space(l.s[n - 1]))
        n--;
    if (i < n && l.s[i] == '|')
        i++;
    if (n > i && l.s[n - 1] == '|' && !(n >= 2 && l.s[n - 2] == '\\'))
        n--;
    unsigned k = 0;
    while (i <= n && k < max) {
        size_t j = i;
        while (j < n && !(l.s[j] == '|' && (j == 0 || l.s[j - 1] != '\\')))
            j++;
        size_t a = i, b = j;
        while (a < b && is_space(l.s[a]))
            a++;
        while (b > a && is_space(l.s[b - 1]))
            b--;
        c[k++] = (struct line){ l.s + a, b - a };
        i = j + 1;
    }
    return k;
}

enum { MAX_COLS = 64 };

static void table(const struct md *m, const struct line *l, size_t n)
{
    struct line c[MAX_COLS];
    const char *align[MAX_COLS];
    unsigned ncols = cells(l[0], c, MAX_COLS);
    for (unsigned k = 0; k < MAX_COLS; k++)
        align[k] = "left";
    size_t body = 1;
    if (n > 1) {
        struct line a[MAX_COLS];
        unsigned na = cells(l[1], a, MAX_COLS);
        bool sep = na > 0;
        for (unsigned k = 0; k < na; k++)
            sep = sep && a[k].n && strspn(a[k].s, "-:") >= a[k].n;
        if (sep) {
            body = 2;
            for (unsigned k = 0; k < na; k++) {
                bool lc = a[k].s[0] == ':', rc = a[k].s[a[k].n - 1] == ':';
                align[k] = lc && rc ? "center" : rc ? "right" : "left";
            }
        }
    }
    fputs("<table>\n<thead><tr>", m->f);
    for (unsigned k = 0; k < ncols; k++) {
        fprintf(m->f, "<th style=\"text-align:%s\">", align[k]);
        inline_text(m, c[k].s, c[k].n);
        fputs("</th>", m->f);
    }
    fputs("</tr></thead>\n<tbody>\n", m->f);
    for (size_t r = body; r < n; r++) {
        unsigned nc = cells(l[r], c, MAX_COLS);
        fputs("<tr>", m->f);
        for (unsigned k = 0; k < nc; k++) {
            fprintf(m->f, "<td style=\"text-align:%s\">", align[k]);
            inline_text(m, c[k].s, c[k].n);
            fputs("</td>", m->f);
        }
        fputs("</tr>\n", m->f);
    }
    fputs("</tbody>\n</table>\n", m->f);
}

/* The text of lines l[0..n) joined by newlines, inline markup read
 * across them. */
static void joined(const struct md *m, const struct line *l, size_t n,
                   size_t skip)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += l[i].n + 1;
    char *buf = malloc(total + 1);
    if (!buf)
        return;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        size_t k = i == 0 ? skip : 0;
        struct line t = l[i];
        while (i && k < t.n && is_space(t.s[k]))
            k++;
        memcpy(buf + o, t.s + k, t.n - k);
        o += t.n - k;
        if (i + 1 < n)
            buf[o++] = '\n';
    }
    inline_text(m, buf, o);
    free(buf);
}

static void title(FILE *f, const struct line *l, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (starts(l[i], "# ")) {
            esc(f, l[i].s + 2, l[i].n - 2);
            return;
        }
    fputs("report", f);
}

void us_md_html(FILE *f, const char *md, size_t len, us_md_image_fn img,
                void *ctx)
{
    const struct md m = { f, img, ctx };
    size_t cap = 1;
    for (size_t i = 0; i < len; i++)
        cap += md[i] == '\n';
    struct line *l = malloc(cap * sizeof *l);
    if (!l)
        return;
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(md + i, '\n', len - i);
        size_t e = nl ? (size_t)(nl - md) : len;
        l[n++] = (struct line){ md + i, e - i - (e > i && md[e - 1] == '\r') };
        i = e + 1;
    }
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8"
          "\">\n<title>", f);
    title(f, l, n);
    fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n", style);
    for (size_t i = 0; i < n;) {
        struct line t = l[i];
        size_t j = i + 1;
        if (blank(t)) {
            i++;
            continue;
        }
        if (starts(t, "```")) {
            while (j < n && !starts(l[j], "```"))
                j++;
            fputs("<pre><code>", f);
            for (size_t k = i + 1; k < j; k++) {
                esc(f, l[k].s, l[k].n);
                fputc('\n', f);
            }
            fputs("</code></pre>\n", f);
            i = j + 1;
            continue;
        }
        size_t h = 0;
        while (h < t.n && h < 7 && t.s[h] == '#')
            h++;
        if (h >= 1 && h <= 6 && h < t.n && t.s[h] == ' ') {
            fprintf(f, "<h%zu>", h);
            inline_text(&m, t.s + h + 1, t.n - h - 1);
            fprintf(f, "</h%zu>\n", h);
            i++;
            continue;
        }
        if (t.s[0] == '|') {
            while (j < n && l[j].n && l[j].s[0] == '|')
                j++;
            table(&m, l + i, j - i);
            i = j;
            continue;
        }
        if (is_item(t)) {
            fputs("<ul>\n", f);
            while (i < n && is_item(l[i])) {
                j = i + 1;
                while (j < n && !blank(l[j]) && !is_item(l[j]) &&
                       (l[j].s[0] == ' ' || l[j].s[0] == '\t'))
                    j++;
                fputs("<li>", f);
                joined(&m, l + i, j - i, 2);
                fputs("</li>\n", f);
                i = j;
            }
            fputs("</ul>\n", f);
            continue;
        }
        while (j < n && !blank(l[j]) && !starts(l[j], "```") &&
               l[j].s[0] != '#' && l[j].s[0] != '|' && !is_item(l[j]))
            j++;
        /* an image alone is a figure */
        bool fig = j == i + 1 && starts(t, "![") && t.s[t.n - 1] == ')';
        fputs(fig ? "<figure>" : "<p>", f);
        joined(&m, l + i, j - i, 0);
        fputs(fig ? "</figure>\n" : "</p>\n", f);
        i = j;
    }
    fputs("</body>\n</html>\n", f);
    free(l);
}
