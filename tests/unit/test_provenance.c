/*
 * Provenance (suite/provenance.h, issue 18): the command line quoted so a
 * shell reads it back, FNV-1a 64 against its published test vector, an
 * input's size and hash, the configuration with every [sfu] key in the
 * JSON and CSV forms, and file names that are not UTF-8 kept as U+FFFD
 * (jansson takes only UTF-8).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <jansson.h>

#include "suite/provenance.h"

START_TEST(command_line_is_shell_quoted)
{
    char *argv[] = { "run", "a b.fp", "it's", "--set", "sfu.rcp.k=5", "" };
    struct us_prov *p = calloc(1, sizeof *p);
    ck_assert(p && us_prov_init(p, 6, argv));
    ck_assert_str_eq(p->command, "ushader run 'a b.fp' 'it'\\''s' --set "
                                 "sfu.rcp.k=5 ''");
    us_prov_free(p);
    free(p);
}
END_TEST

START_TEST(fnv1a64_test_vectors)
{
    /* Fowler, Noll, Vo: FNV-1a 64 of "" and "a" */
    ck_assert_uint_eq(us_fnv1a64("", 0), 0xcbf29ce484222325ull);
    ck_assert_uint_eq(us_fnv1a64("a", 1), 0xaf63dc4c8601ec8cull);
}
END_TEST

START_TEST(inputs_config_and_names)
{
    char path[] = "/tmp/us_prov_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs("a", f);
    fclose(f);
    struct us_config cfg;
    us_config_default(&cfg);
    cfg.sfu.k[0] = 5;    /* the first table's k: must show */
    char *argv[] = { "bench" };
    struct us_prov *p = calloc(1, sizeof *p);
    ck_assert(p && us_prov_init(p, 1, argv));
    p->math = "sfu";
    p->cfg = &cfg;
    us_prov_add_file(p, path);
    us_prov_add_file(p, path);          /* once */
    us_prov_add_file(p, "--json");      /* an option, not a file */
    us_prov_add_file(p, "/nonexistent/x");
    ck_assert_uint_eq(p->ninputs, 2);
    json_t *j = us_prov_json(p);
    ck_assert_ptr_nonnull(j);
    json_t *in = json_object_get(j, "inputs");
    ck_assert_int_eq(json_integer_value(json_object_get(
        json_array_get(in, 0), "bytes")), 1);
    ck_assert_str_eq(json_string_value(json_object_get(
        json_array_get(in, 0), "fnv1a64")), "af63dc4c8601ec8c");
    ck_assert_ptr_nonnull(json_object_get(json_array_get(in, 1), "error"));
    char key[32];
    snprintf(key, sizeof key, "%s.k", us_sfu_table_name(0));
    json_t *sfu = json_object_get(json_object_get(j, "config"), "sfu");
    ck_assert_int_eq(json_integer_value(json_object_get(sfu, key)), 5);
    ck_assert_ptr_nonnull(json_object_get(sfu, "banks"));
    json_decref(j);

    char *buf = NULL;
    size_t len = 0;
    f = open_memstream(&buf, &len);
    us_prov_csv(f, p);
    fclose(f);
    char line[64];
    snprintf(line, sizeof line, "\n# config.sfu.%s: 5\n", key);
    ck_assert_msg(strstr(buf, line) != NULL, "%s", buf);
    ck_assert(strstr(buf, "# command: ushader bench\n") != NULL);
    ck_assert(strstr(buf, "1 bytes fnv1a64 af63dc4c8601ec8c\n") != NULL);
    free(buf);
    us_prov_free(p);
    free(p);
    remove(path);

    json_t *s = us_json_text("a\xff" "b");
    ck_assert_str_eq(json_string_value(s), "a\xef\xbf\xbd" "b");
    json_decref(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("provenance");
    TCase *tc = tcase_create("provenance");
    tcase_add_test(tc, command_line_is_shell_quoted);
    tcase_add_test(tc, fnv1a64_test_vectors);
    tcase_add_test(tc, inputs_config_and_names);
    suite_add_tcase(s, tc);
    return s;
}

#include "check_main.h"
