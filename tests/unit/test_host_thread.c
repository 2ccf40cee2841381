/* Unit tests of shader/host_thread.c: the CPU a helper starts on, and a
 * helper that runs its function with the creator's whole affinity. */
#define _GNU_SOURCE
#include <check.h>
#include <sched.h>
#include <stdint.h>

#include "shader/host_thread.h"

START_TEST(next_cpu_cycles_over_the_set)
{
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(0, &s);
    CPU_SET(2, &s);
    CPU_SET(5, &s);
    ck_assert_int_eq(us_thread_next_cpu(&s, 2, 1), 5);
    ck_assert_int_eq(us_thread_next_cpu(&s, 2, 2), 0);
    ck_assert_int_eq(us_thread_next_cpu(&s, 2, 3), 2);    /* its own */
    ck_assert_int_eq(us_thread_next_cpu(&s, 2, 4), 5);
    ck_assert_int_eq(us_thread_next_cpu(&s, 5, 1), 0);
    CPU_ZERO(&s);
    CPU_SET(3, &s);
    ck_assert_int_eq(us_thread_next_cpu(&s, 3, 1), 3);    /* one CPU */
}
END_TEST

struct seen {
    cpu_set_t set;
    int got;
};

static void *note_affinity(void *arg)
{
    struct seen *s = arg;
    s->got = pthread_getaffinity_np(pthread_self(), sizeof s->set, &s->set);
    return s;
}

/* helpers 1..9 each run fn(arg) with the creator's affinity */
static void check_helpers(const cpu_set_t *want)
{
    for (unsigned k = 1; k <= 9; k++) {
        struct seen s = { .got = -1 };
        pthread_t t;
        ck_assert_int_eq(us_thread_create(&t, note_affinity, &s, k), 0);
        void *ret = NULL;
        ck_assert_int_eq(pthread_join(t, &ret), 0);
        ck_assert_ptr_eq(ret, &s);
        ck_assert_int_eq(s.got, 0);
        ck_assert(CPU_EQUAL(&s.set, want));
    }
}

START_TEST(helpers_get_the_whole_affinity)
{
    cpu_set_t all;
    ck_assert_int_eq(sched_getaffinity(0, sizeof all, &all), 0);
    check_helpers(&all);
    /* confined to one CPU: started as pthread_create starts them */
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(sched_getcpu(), &one);
    ck_assert_int_eq(sched_setaffinity(0, sizeof one, &one), 0);
    check_helpers(&one);
    ck_assert_int_eq(sched_setaffinity(0, sizeof all, &all), 0);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("host_thread");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, next_cpu_cycles_over_the_set);
    tcase_add_test(tc, helpers_get_the_whole_affinity);
    suite_add_tcase(s, tc);
    return s;
}

#include "check_main.h"
