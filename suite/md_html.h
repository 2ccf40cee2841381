/*
 * report.md as one self-contained HTML page (report.html, beside it):
 * the Markdown the bench reports write (suite/report*.c,
 * suite/compute_report.c) turned into HTML -- headings, paragraphs,
 * tables (with their column alignment), bullet lists, fenced code,
 * `code`, *emphasis*, **strong**, links -- with every image embedded as
 * a data: URI, inline CSS and no scripts, so the page fetches nothing.
 * Converting the one text keeps the two reports identical in content.
 * The subset is what the writers use; anything else is a paragraph.
 */
#ifndef SUITE_MD_HTML_H
#define SUITE_MD_HTML_H

#include <stddef.h>
#include <stdio.h>

/* The bytes of the image `src` (malloc'd, *len set), or NULL when there
 * is none: the page then says the image is missing (never a reference to
 * a file). */
typedef char *(*us_md_image_fn)(void *ctx, const char *src, size_t *len);

/* Write the page of `md` (len bytes) to f; the title is the first "# "
 * heading. */
void us_md_html(FILE *f, const char *md, size_t len, us_md_image_fn image,
                void *ctx);

#endif
