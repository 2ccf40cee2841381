/*
 * The memory-system parts (shader/memsys.h, docs/MEMORY.md) on
 * hand-computed request streams: each part's completion cycles and
 * counts, called as a model calls them (one instruction's requests in
 * lane order).  Defaults unless a test says otherwise: mem_latency 20,
 * mem_port_cycles 3, mem_line 128, tmcu_timeout 8, tmcu_max_cmd 32,
 * cache 16 KiB, 4 banks, 16-byte lines, hit latency 4, 1 cycle per
 * 32-bit memory transaction.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "shader/memsys.h"

#include "check_main.h"

struct run {
    const struct us_memsys_part *p;
    struct us_memsys *m;
    struct us_stats st;
};

/* The part mem_system=NAME, with up to three more knobs set. */
static void open_part(struct run *r, const char *name, const char *k1,
                      const char *k2, const char *k3)
{
    struct us_config cfg;
    struct us_diag d = { 0 };
    char kv[64];
    us_config_default(&cfg);
    snprintf(kv, sizeof kv, "mem_system=%s", name);
    ck_assert(us_config_set(&cfg, kv, &d));
    const char *ks[3] = { k1, k2, k3 };
    for (unsigned i = 0; i < 3; i++)
        if (ks[i])
            ck_assert_msg(us_config_set(&cfg, ks[i], &d), "%s", d.msg);
    r->p = us_memsys_part(&cfg);
    ck_assert_str_eq(r->p->name, name);
    r->m = r->p->create(&cfg, 2, &d);
    ck_assert_msg(r->m != NULL, "%s", d.msg);
}

static double stat(struct run *r, const char *name)
{
    us_stats_init(&r->st, r->p->name);
    r->p->stats(r->m, &r->st);
    return us_stats_get(&r->st, name);
}

static void close_part(struct run *r)
{
    r->p->destroy(r->m);
}

/* n requests at cycle `at` of `kind`, lane i at addr base + i * stride. */
static void reqs(struct us_mem_req *q, unsigned n, uint64_t at,
                 enum us_mem_kind kind, uint32_t base, uint32_t stride)
{
    for (unsigned i = 0; i < n; i++)
        q[i] = (struct us_mem_req){ at, base + i * stride, 0, 4,
                                    (uint8_t)kind, (uint8_t)i };
}

START_TEST(parts_follow_the_knob)
{
    /* us_memsys_parts[] is in the order of the knob's choices */
    const char *c = us_knobs[US_KNOB_mem_system].choices;
    unsigned i = 0;
    for (; us_memsys_parts[i]; i++) {
        size_t n = strlen(us_memsys_parts[i]->name);
        ck_assert(strncmp(c, us_memsys_parts[i]->name, n) == 0);
        ck_assert(c[n] == '|' || c[n] == '\0');
        c += n + (c[n] == '|');
    }
    ck_assert_int_eq(i, 5);
    ck_assert_int_eq(*c, '\0');
    struct us_config cfg;
    us_config_default(&cfg);
    ck_assert_str_eq(us_memsys_part(&cfg)->name, "lsu");   /* the default */
}
END_TEST

START_TEST(lsu_is_the_fixed_latency)
{
    struct run r;
    open_part(&r, "lsu", "mem_latency=7", NULL, NULL);
    struct us_mem_req q[3];
    reqs(q, 3, 0, US_MEM_LOAD, 0, 4);
    q[1].at = 5;
    q[2].at = 9;
    q[2].kind = US_MEM_STORE;
    uint64_t done[3];
    r.p->access(r.m, 0, q, 3, done);
    ck_assert_uint_eq(done[0], 7);
    ck_assert_uint_eq(done[1], 12);
    ck_assert_uint_eq(done[2], 16);
    r.p->access(r.m, 1, q, 3, done);   /* nothing is busy: the same */
    ck_assert_uint_eq(done[0], 7);
    ck_assert_uint_eq(done[1], 12);
    ck_assert_double_eq(stat(&r, "memsys.requests"), 6);
    ck_assert_double_eq(stat(&r, "memsys.transactions"), 6);
    ck_assert_double_eq(stat(&r, "memsys.stall_cycles"), 0);
    close_part(&r);
}
END_TEST

START_TEST(port_serves_lowest_lane_first)
{
    struct run r;
    open_part(&r, "port", NULL, NULL, NULL);
    struct us_mem_req q[8];
    reqs(q, 8, 0, US_MEM_LOAD, 0, 4);
    for (unsigned i = 0; i < 8; i++)
        q[i].lane = (uint8_t)(7 - i);   /* handed over highest lane first */
    uint64_t done[8];
    r.p->access(r.m, 0, q, 8, done);
    for (unsigned i = 0; i < 8; i++)
        ck_assert_uint_eq(done[i], 3 * (8 - i));   /* lane l at 3(l + 1) */
    ck_assert_double_eq(stat(&r, "memsys.stall_cycles"),
                        0 + 3 + 6 + 9 + 12 + 15 + 18 + 21);
    /* requester 1 has its own port; requester 0's is busy until 24 */
    reqs(q, 1, 10, US_MEM_LOAD, 0, 4);
    r.p->access(r.m, 1, q, 1, done);
    ck_assert_uint_eq(done[0], 13);
    r.p->access(r.m, 0, q, 1, done);
    ck_assert_uint_eq(done[0], 27);
    /* a late arrival does not hold up an earlier higher lane */
    reqs(q, 2, 100, US_MEM_LOAD, 0, 4);
    q[0].at = 101;   /* lane 0, arriving after lane 1 */
    r.p->access(r.m, 0, q, 2, done);
    ck_assert_uint_eq(done[1], 103);
    ck_assert_uint_eq(done[0], 106);
    close_part(&r);
}
END_TEST

START_TEST(port_split_writes_in_parallel)
{
    struct us_mem_req q[8];
    reqs(q, 8, 0, US_MEM_LOAD, 0, 4);
    for (unsigned i = 4; i < 8; i++)
        q[i].kind = US_MEM_STORE;
    uint64_t done[8];
    struct run r;
    open_part(&r, "port", NULL, NULL, NULL);     /* one port: serial */
    r.p->access(r.m, 0, q, 8, done);
    for (unsigned i = 0; i < 8; i++)
        ck_assert_uint_eq(done[i], 3 * (i + 1));
    close_part(&r);
    open_part(&r, "port", "mem_port_split=1", NULL, NULL);
    r.p->access(r.m, 0, q, 8, done);
    for (unsigned i = 0; i < 4; i++) {
        ck_assert_uint_eq(done[i], 3 * (i + 1));       /* read port  */
        ck_assert_uint_eq(done[4 + i], 3 * (i + 1));   /* write port */
    }
    close_part(&r);
}
END_TEST

START_TEST(port_channels_are_shared)
{
    struct run r;
    open_part(&r, "port", "mem_ports=2", NULL, NULL);
    struct us_mem_req q[3];
    reqs(q, 3, 0, US_MEM_LOAD, 0, 4);
    uint64_t done[3];
    r.p->access(r.m, 0, q, 3, done);   /* two channels: 3, 3, then 6 */
    ck_assert_uint_eq(done[0], 3);
    ck_assert_uint_eq(done[1], 3);
    ck_assert_uint_eq(done[2], 6);
    r.p->access(r.m, 1, q, 2, done);   /* another core queues behind */
    ck_assert_uint_eq(done[0], 6);
    ck_assert_uint_eq(done[1], 9);
    close_part(&r);
}
END_TEST

START_TEST(coalesce_merges_a_line)
{
    struct us_mem_req q[32];
    uint64_t done[32];
    struct run r;
    open_part(&r, "coalesce", NULL, NULL, NULL);
    reqs(q, 32, 0, US_MEM_LOAD, 0, 4);             /* 128 consecutive B */
    r.p->access(r.m, 0, q, 32, done);
    ck_assert_double_eq(stat(&r, "memsys.transactions"), 1);
    ck_assert_double_eq(stat(&r, "memsys.coalescing"), 32);
    for (unsigned i = 0; i < 32; i++)
        ck_assert_uint_eq(done[i], 20);
    close_part(&r);

    open_part(&r, "coalesce", NULL, NULL, NULL);
    reqs(q, 32, 0, US_MEM_LOAD, 0, 128);           /* one line each */
    r.p->access(r.m, 0, q, 32, done);
    ck_assert_double_eq(stat(&r, "memsys.transactions"), 32);
    for (unsigned i = 0; i < 32; i++)              /* one starts a cycle */
        ck_assert_uint_eq(done[i], 20 + i);
    close_part(&r);

    open_part(&r, "coalesce", "mem_tx_per_cycle=4", "mem_line=32", NULL);
    reqs(q, 32, 0, US_MEM_LOAD, 0, 4);             /* 4 lines of 32 B */
    r.p->access(r.m, 0, q, 32, done);
    ck_assert_double_eq(stat(&r, "memsys.transactions"), 4);
    ck_assert_uint_eq(done[31], 20);               /* all 4 start at 0 */
    reqs(q, 8, 0, US_MEM_LOAD, 0, 32);             /* 8 lines */
    r.p->access(r.m, 0, q, 8, done);
    ck_assert_double_eq(stat(&r, "memsys.transactions"), 12);
    ck_assert_uint_eq(done[3], 21);                /* 4 a cycle, from 1 */
    ck_assert_uint_eq(done[7], 22);
    reqs(q, 8, 0, US_MEM_LOAD, 0, 4);              /* one line, */
    q[1].kind = US_MEM_STORE;                      /* two kinds: 2 */
    r.p->access(r.m, 0, q, 8, done);
    ck_assert_double_eq(stat(&r, "memsys.transactions"), 14);
    ck_assert_uint_eq(done[0], 23);
    ck_assert_uint_eq(done[1], 23);
    close_part(&r);

    /* lanes 0 and 2 on one line, lane 1 on another: 2 transactions */
    open_part(&r, "coalesce", NULL, NULL, NULL);
    reqs(q, 3, 0, US_MEM_LOAD, 0, 4);
    q[1].addr = 1024;
    r.p->access(r.m, 0, q, 3, done);
    ck_assert_double_eq(stat(&r, "memsys.transactions"), 2);
    close_part(&r);
}
END_TEST

START_TEST(tmcu_merges_in_arrival_order)
{
    struct us_mem_req q[32];
    uint64_t done[32];
    struct run r;
    /* 32 consecutive 4-byte loads arrive at 0..31; 32-byte lines: each
     * line's 8 requests merge, the next line flushes it */
    open_part(&r, "tmcu", "mem_line=32", NULL, NULL);
    reqs(q, 32, 0, US_MEM_LOAD, 0, 4);
    r.p->access(r.m, 0, q, 32, done);
    ck_assert_double_eq(stat(&r, "memsys.transactions"), 4);
    ck_assert_double_eq(stat(&r, "memsys.coalescing"), 8);
    ck_assert_uint_eq(done[0], 8 + 20);     /* flushed by lane 8 at 8 */
    ck_assert_uint_eq(done[15], 16 + 20);
    ck_assert_uint_eq(done[31], 24 + 8 + 20);   /* the timeout: 24 + 8 */
    close_part(&r);

    /* lanes 0 and 2 on one line, lane 1 on another: in order, 3 */
    open_part(&r, "tmcu", NULL, NULL, NULL);
    reqs(q, 3, 0, US_MEM_LOAD, 0, 4);
    q[1].addr = 1024;
    r.p->access(r.m, 0, q, 3, done);
    ck_assert_double_eq(stat(&r, "memsys.transactions"), 3);
    ck_assert_uint_eq(done[0], 1 + 20);     /* flushed by lane 1 at 1 */
    ck_assert_uint_eq(done[1], 2 + 20);
    ck_assert_uint_eq(done[2], 2 + 8 + 20);
    close_part(&r);

    /* the timeout: 8 same-line loads, buffers of 4 cycles */
    open_part(&r, "tmcu", "tmcu_timeout=4", NULL, NULL);
    reqs(q, 8, 0, US_MEM_LOAD, 0, 4);
    r.p->access(r.m, 0, q, 8, done);
    ck_assert_double_eq(stat(&r, "memsys.transactions"), 2);
    ck_assert_uint_eq(done[3], 4 + 20);
    ck_assert_uint_eq(done[4], 8 + 20);
    ck_assert_uint_eq(done[7], 8 + 20);
    close_part(&r);

    /* max_cmd: a buffer of 2 requests goes at once */
    open_part(&r, "tmcu", "tmcu_max_cmd=2", NULL, NULL);
    reqs(q, 8, 0, US_MEM_LOAD, 0, 4);
    r.p->access(r.m, 0, q, 8, done);
    ck_assert_double_eq(stat(&r, "memsys.transactions"), 4);
    ck_assert_uint_eq(done[1], 1 + 20);
    ck_assert_uint_eq(done[7], 7 + 20);
    /* stores have their own port, atomics never merge */
    reqs(q, 4, 100, US_MEM_STORE, 0, 4);
    q[2].kind = q[3].kind = US_MEM_ATOMIC;
    r.p->access(r.m, 0, q, 4, done);
    ck_assert_double_eq(stat(&r, "memsys.transactions"), 4 + 3);
    ck_assert_uint_eq(done[2], 101 + 20);   /* atomic 2 arrives at 100,
                                               flushed by 3 at 101 */
    close_part(&r);
}
END_TEST

START_TEST(cache_fetches_a_line_once)
{
    struct us_mem_req q[4];
    uint64_t done[4];
    struct run r;
    open_part(&r, "cache", NULL, NULL, NULL);
    /* a warp's 4 lanes read one 16-byte line: one access of bank 0, one
     * miss fetching 4 words (cycles 0..4), data at 4 + 4 */
    reqs(q, 4, 0, US_MEM_LOAD, 0, 4);
    r.p->access(r.m, 0, q, 4, done);
    for (unsigned i = 0; i < 4; i++)
        ck_assert_uint_eq(done[i], 8);
    ck_assert_double_eq(stat(&r, "memsys.misses"), 1);
    ck_assert_double_eq(stat(&r, "memsys.hits"), 3);
    ck_assert_double_eq(stat(&r, "memsys.transactions"), 4);
    ck_assert_double_eq(stat(&r, "memsys.bank_conflicts"), 0);
    /* later, a hit at the hit latency */
    reqs(q, 1, 100, US_MEM_LOAD, 4, 4);
    r.p->access(r.m, 1, q, 1, done);
    ck_assert_uint_eq(done[0], 104);
    ck_assert_double_eq(stat(&r, "memsys.hits"), 4);
    close_part(&r);
}
END_TEST

START_TEST(cache_bank_conflicts)
{
    struct us_mem_req q[3];
    uint64_t done[3];
    struct run r;
    open_part(&r, "cache", NULL, NULL, NULL);
    /* lines 0 and 4 are both in bank 0 of 4; line 1 in bank 1 */
    reqs(q, 3, 0, US_MEM_LOAD, 0, 64);
    q[2].addr = 16;
    r.p->access(r.m, 0, q, 3, done);
    ck_assert_double_eq(stat(&r, "memsys.bank_conflicts"), 1);
    ck_assert_double_eq(stat(&r, "memsys.misses"), 3);
    ck_assert_double_eq(stat(&r, "memsys.transactions"), 12);
    ck_assert_uint_eq(done[0], 4 + 4);      /* fill 0..4               */
    ck_assert_uint_eq(done[1], 8 + 4);      /* bank at 1, fill 4..8    */
    ck_assert_uint_eq(done[2], 12 + 4);     /* bank 1 at 0, fill 8..12 */
    ck_assert_double_eq(stat(&r, "memsys.stall_cycles"), 0 + 4 + 8);
    close_part(&r);
}
END_TEST

START_TEST(cache_miss_in_flight_is_not_fetched_again)
{
    struct us_mem_req q[1];
    uint64_t done[1];
    struct run r;
    open_part(&r, "cache", "cache_line=32", "cache_miss_cycles=2", NULL);
    reqs(q, 1, 0, US_MEM_LOAD, 0, 4);
    r.p->access(r.m, 0, q, 1, done);        /* 8 words x 2: fill at 16 */
    ck_assert_uint_eq(done[0], 16 + 4);
    reqs(q, 1, 3, US_MEM_LOAD, 12, 4);      /* the same line, in flight */
    r.p->access(r.m, 1, q, 1, done);
    ck_assert_uint_eq(done[0], 16 + 4);
    ck_assert_double_eq(stat(&r, "memsys.misses"), 1);
    ck_assert_double_eq(stat(&r, "memsys.transactions"), 8);
    ck_assert_double_eq(stat(&r, "memsys.stall_cycles"), 13);
    close_part(&r);
}
END_TEST

START_TEST(cache_writes_through_without_allocating)
{
    struct us_mem_req q[1];
    uint64_t done[1];
    struct run r;
    open_part(&r, "cache", NULL, NULL, NULL);
    reqs(q, 1, 0, US_MEM_STORE, 32, 4);
    r.p->access(r.m, 0, q, 1, done);
    ck_assert_uint_eq(done[0], 1);          /* one word written */
    ck_assert_double_eq(stat(&r, "memsys.transactions"), 1);
    ck_assert_double_eq(stat(&r, "memsys.misses"), 0);
    reqs(q, 1, 10, US_MEM_LOAD, 32, 4);     /* not allocated: a miss */
    r.p->access(r.m, 0, q, 1, done);
    ck_assert_double_eq(stat(&r, "memsys.misses"), 1);
    ck_assert_uint_eq(done[0], 10 + 4 + 4);
    /* shared memory is not cached */
    reqs(q, 1, 50, US_MEM_LOAD, 0, 4);
    q[0].space = US_MEM_SPACE_SHARED;
    r.p->access(r.m, 0, q, 1, done);
    ck_assert_uint_eq(done[0], 54);
    ck_assert_double_eq(stat(&r, "memsys.misses"), 1);
    /* reset: empty and idle again */
    r.p->reset(r.m);
    ck_assert_double_eq(stat(&r, "memsys.requests"), 0);
    reqs(q, 1, 10, US_MEM_LOAD, 32, 4);
    r.p->access(r.m, 0, q, 1, done);
    ck_assert_double_eq(stat(&r, "memsys.misses"), 1);
    close_part(&r);
}
END_TEST

START_TEST(sizes_must_be_powers_of_two)
{
    struct us_config cfg;
    struct us_diag d = { 0 };
    us_config_default(&cfg);
    ck_assert(us_config_set(&cfg, "cache_banks=3", &d));
    ck_assert(us_memsys_cache.create(&cfg, 1, &d) == NULL);
    ck_assert(strstr(d.msg, "cache_banks=3 is not a power of two"));
    us_config_default(&cfg);
    ck_assert(us_config_set(&cfg, "mem_line=96", &d));
    ck_assert(us_memsys_coalesce.create(&cfg, 1, &d) == NULL);
    ck_assert(strstr(d.msg, "mem_line=96"));
    ck_assert(us_memsys_tmcu.create(&cfg, 1, &d) == NULL);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("memsys");
    TCase *tc = tcase_create("parts");
    tcase_add_test(tc, parts_follow_the_knob);
    tcase_add_test(tc, lsu_is_the_fixed_latency);
    tcase_add_test(tc, port_serves_lowest_lane_first);
    tcase_add_test(tc, port_split_writes_in_parallel);
    tcase_add_test(tc, port_channels_are_shared);
    tcase_add_test(tc, coalesce_merges_a_line);
    tcase_add_test(tc, tmcu_merges_in_arrival_order);
    tcase_add_test(tc, cache_fetches_a_line_once);
    tcase_add_test(tc, cache_bank_conflicts);
    tcase_add_test(tc, cache_miss_in_flight_is_not_fetched_again);
    tcase_add_test(tc, cache_writes_through_without_allocating);
    tcase_add_test(tc, sizes_must_be_powers_of_two);
    suite_add_tcase(s, tc);
    return s;
}
