/* What `ushader piglit` (cli/cmd_piglit.c) and `ushader piglit summary`
 * (cli/cmd_piglit_summary.c) share: a file's result, as the results file
 * names it (docs/METRICS.md, schema piglit-results). */
#ifndef CLI_PIGLIT_H
#define CLI_PIGLIT_H

/* error: the file could not run (unreadable, malformed, a program that
 * does not assemble); counted as failed in the closing line. */
enum pg_result { PG_PASS, PG_FAIL, PG_SKIP, PG_ERROR, PG_NRESULTS };
extern const char *const pg_result_names[PG_NRESULTS];

/* argv[0] "piglit", argv[1] "summary" (the provenance's command). */
int cmd_piglit_summary(int argc, char **argv);

#endif
