/*
 * The list scheduler behind the statically scheduled baselines (VLIW
 * bundles, hetero vector+scalar pairs; SPEC section 2): operations of one
 * thread packed into bundles at compile time, highest critical path first.
 *
 * Dependences, from the registers items read and write:
 *   RAW, WAW  the consumer / later writer goes in a later bundle;
 *   WAR       the later writer may share the reader's bundle (a bundle
 *             reads all its operands before it writes).
 * Memory operations all read and write one pseudo register, memory
 * (US_SCHED_MEMORY), so they keep their program order, each in a later
 * bundle than the one before: loads could pass loads, but the accesses
 * of one thread to one address (and the component order within an
 * instruction) must stay as the interpreter runs them, and a load's
 * address is only known at run time.
 * Each item takes one cycle; the critical path is the longest dependence
 * chain to the end of the program.
 *
 * Basic blocks: a flow instruction, BRA, BAR or MEMBAR has a bundle of its
 * own and nothing moves across it (BAR: every access before it must be
 * done when the workgroup's other threads go on), and a BRA's target
 * starts a block, so code after a label never moves above it.
 */
#include <stdlib.h>
#include <string.h>

#include "isa/scalar.h"

enum { KEYS = 8 << 12 };   /* file << 12 | scalar register */

static void add_key(uint16_t *keys, uint8_t *n, uint16_t k)
{
    for (unsigned i = 0; i < *n; i++)
        if (keys[i] == k)
            return;
    assert(*n < US_SCHED_MAX_REGS);
    if (*n < US_SCHED_MAX_REGS)
        keys[(*n)++] = k;
}

void us_sched_add_reg(struct us_sched_item *it, bool write, unsigned file,
                      unsigned reg)
{
    if (file == US_FILE_NULL || file == US_FILE_PARAM || file == US_FILE_IMM)
        return;
    if (write)
        add_key(it->writes, &it->nwrites, (uint16_t)(file << 12 | reg));
    else
        add_key(it->reads, &it->nreads, (uint16_t)(file << 12 | reg));
}

void us_sched_add_memory(struct us_sched_item *it)
{
    add_key(it->reads, &it->nreads, US_SCHED_MEMORY);
    add_key(it->writes, &it->nwrites, US_SCHED_MEMORY);
}

struct edge { unsigned from; bool strict; };

struct dag {
    struct edge *e;          /* predecessors of each item, in runs       */
    unsigned *first, *count; /* item i: e[first[i] .. first[i]+count[i]) */
    unsigned ne, cap;
};

static bool add_edge(struct dag *d, unsigned from, bool strict)
{
    if (d->ne == d->cap) {
        unsigned cap = d->cap ? 2 * d->cap : 256;
        struct edge *p = realloc(d->e, cap * sizeof *p);
        if (!p)
            return false;
        d->e = p;
        d->cap = cap;
    }
    d->e[d->ne++] = (struct edge){ from, strict };
    return true;
}

/* Per key, the last writer and the head of the list of readers since it
 * (-1: none).  Allocated once per schedule and reset key by key after each
 * block, as a program of many small blocks would otherwise clear KEYS
 * entries per block. */
struct keys { int *last_writer, *head; };

static bool keys_init(struct keys *k)
{
    k->last_writer = malloc(KEYS * sizeof *k->last_writer);
    k->head = malloc(KEYS * sizeof *k->head);
    if (!k->last_writer || !k->head)
        return false;
    for (unsigned i = 0; i < KEYS; i++)
        k->last_writer[i] = k->head[i] = -1;
    return true;
}

static void keys_free(struct keys *k)
{
    free(k->last_writer);
    free(k->head);
}

static void keys_reset(struct keys *k, const struct us_sched_item *items,
                       unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        for (unsigned j = 0; j < items[i].nreads; j++)
            k->last_writer[items[i].reads[j] % KEYS] =
                k->head[items[i].reads[j] % KEYS] = -1;
        for (unsigned j = 0; j < items[i].nwrites; j++)
            k->last_writer[items[i].writes[j] % KEYS] =
                k->head[items[i].writes[j] % KEYS] = -1;
    }
}

/* Reader lists per key (heads in struct keys), reset by each write. */
struct readers { int *head; int *next; unsigned *item; unsigned n; };

static bool build_dag(const struct us_sched_item *items, unsigned n,
                      struct dag *d, struct keys *keys)
{
    int *last_writer = keys->last_writer;
    struct readers r = { keys->head,
                         malloc((n * US_SCHED_MAX_REGS + 1) * sizeof(int)),
                         malloc((n * US_SCHED_MAX_REGS + 1) * sizeof(unsigned)), 0 };
    bool ok = r.next && r.item;
    for (unsigned i = 0; i < n && ok; i++) {
        const struct us_sched_item *it = &items[i];
        d->first[i] = d->ne;
        for (unsigned j = 0; j < it->nreads && ok; j++) {
            unsigned k = it->reads[j] % KEYS;
            if (last_writer[k] >= 0)
                ok = add_edge(d, (unsigned)last_writer[k], true);
        }
        for (unsigned j = 0; j < it->nwrites && ok; j++) {
            unsigned k = it->writes[j] % KEYS;
            if (last_writer[k] >= 0)
                ok = add_edge(d, (unsigned)last_writer[k], true);
            for (int p = r.head[k]; p >= 0 && ok; p = r.next[p])
                if (r.item[p] != i)
                    ok = add_edge(d, r.item[p], false);
        }
        d->count[i] = d->ne - d->first[i];
        /* this item's reads and writes become visible to later items */
        for (unsigned j = 0; j < it->nwrites; j++) {
            unsigned k = it->writes[j] % KEYS;
            last_writer[k] = (int)i;
            r.head[k] = -1;
        }
        for (unsigned j = 0; j < it->nreads; j++) {
            unsigned k = it->reads[j] % KEYS;
            r.item[r.n] = i;
            r.next[r.n] = r.head[k];
            r.head[k] = (int)r.n++;
        }
    }
    keys_reset(keys, items, n);
    free(r.next);
    free(r.item);
    return ok;
}

static unsigned schedule(const struct us_sched_item *items, unsigned n,
                         unsigned nslots, unsigned *bundle_of,
                         unsigned *slot_of, struct keys *keys)
{
    if (n == 0 || nslots == 0 || nslots > 8)
        return 0;
    for (unsigned i = 0; i < n; i++)
        if (!(items[i].slots & ((1u << nslots) - 1)))
            return 0;   /* an item no slot accepts */
    struct dag d = { NULL, malloc(n * sizeof(unsigned)),
                     malloc(n * sizeof(unsigned)), 0, 0 };
    unsigned *height = malloc(n * sizeof *height);
    unsigned *order = malloc(n * sizeof *order);
    bool *done = calloc(n, sizeof *done);
    unsigned bundles = 0;
    if (!d.first || !d.count || !height || !order || !done ||
        !build_dag(items, n, &d, keys))
        goto out;

    /* critical path: longest chain of strict edges to the end */
    for (unsigned i = 0; i < n; i++)
        height[i] = 1;
    for (unsigned i = n; i-- > 0;)
        for (unsigned j = 0; j < d.count[i]; j++) {
            const struct edge *e = &d.e[d.first[i] + j];
            unsigned h = height[i] + (e->strict ? 1 : 0);
            if (h > height[e->from])
                height[e->from] = h;
        }
    /* priority: height, then program order (insertion sort: stable) */
    for (unsigned i = 0; i < n; i++) {
        unsigned k = i;
        while (k > 0 && height[order[k - 1]] < height[i]) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = i;
    }

    unsigned left = n, first_open = 0;
    for (unsigned cycle = 0; left; cycle++) {
        unsigned used = 0;   /* slot bits taken this cycle */
        for (unsigned p = first_open; p < n && used != (1u << nslots) - 1; p++) {
            unsigned i = order[p];
            if (done[i])
                continue;
            bool ready = true;
            for (unsigned j = 0; j < d.count[i] && ready; j++) {
                const struct edge *e = &d.e[d.first[i] + j];
                ready = done[e->from] &&
                        (!e->strict || bundle_of[e->from] < cycle);
            }
            unsigned free_slots = items[i].slots & ~used & ((1u << nslots) - 1);
            if (!ready || !free_slots)
                continue;
            unsigned s = (unsigned)__builtin_ctz(free_slots);
            used |= 1u << s;
            done[i] = true;
            bundle_of[i] = cycle;
            slot_of[i] = s;
            left--;
        }
        while (first_open < n && done[order[first_open]])
            first_open++;
        bundles = cycle + 1;
    }
out:
    free(d.e);
    free(d.first);
    free(d.count);
    free(height);
    free(order);
    free(done);
    return bundles;
}

unsigned us_list_schedule(const struct us_sched_item *items, unsigned n,
                          unsigned nslots, unsigned *bundle_of,
                          unsigned *slot_of)
{
    struct keys keys;
    unsigned nb = keys_init(&keys) ? schedule(items, n, nslots, bundle_of,
                                              slot_of, &keys) : 0;
    keys_free(&keys);
    return nb;
}

unsigned us_list_schedule_blocks(const struct us_sched_item *items,
                                 const uint8_t *cut, unsigned n,
                                 unsigned nslots, unsigned *bundle_of,
                                 unsigned *slot_of, unsigned *entry)
{
    unsigned total = 0;
    struct keys keys;
    if (!keys_init(&keys)) {
        keys_free(&keys);
        return 0;
    }
    for (unsigned a = 0; a < n;) {
        unsigned b = a;
        while (b < n && cut[b] != US_SCHED_ALONE &&
               (b == a || cut[b] != US_SCHED_BEGIN))
            b++;
        if (b > a) {   /* the basic block a .. b-1 */
            unsigned nb = schedule(items + a, b - a, nslots, bundle_of + a,
                                   slot_of + a, &keys);
            if (!nb) {
                keys_free(&keys);
                return 0;
            }
            for (unsigned i = a; i < b; i++) {
                bundle_of[i] += total;
                if (entry)
                    entry[i] = total;
            }
            total += nb;
        }
        if (b < n && cut[b] == US_SCHED_ALONE) {   /* alone in its bundle */
            if (entry)
                entry[b] = total;
            bundle_of[b] = total++;
            slot_of[b] = 0;
            b++;
        }
        a = b;
    }
    keys_free(&keys);
    if (entry)
        entry[n] = total;
    return total;
}
