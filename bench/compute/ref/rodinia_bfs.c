/* rodinia_bfs: the reference of bench/compute/rodinia_bfs.comp, Rodinia's
 * level-synchronous BFS (cuda/bfs/kernel.cu, kernel2.cu, Rodinia 3.1; DICE,
 * seed 004): cost[v] = hops from node 0, -1 when unreachable. */
#include <string.h>

#include "kref.h"

enum { N = 32, MAXDEG = 4, EDGES = N * MAXDEG };

static int32_t get_i(const uint8_t *b, unsigned i)
{
    int32_t v;
    memcpy(&v, b + 4 * i, 4);
    return v;
}

static void put_i(uint8_t *b, unsigned i, int32_t v)
{
    memcpy(b + 4 * i, &v, 4);
}

static uint32_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(*s >> 33);
}

/* 0..4 edges a node to random targets (some nodes stay unreachable);
 * cost starts as garbage the kernel overwrites. */
static void init(uint8_t *const *b, uint64_t seed)
{
    uint64_t s = seed * 3 + 5;
    unsigned e = 0;
    memset(b[1], 0, 4 * EDGES);
    for (unsigned v = 0; v < N; v++) {
        unsigned deg = next(&s) % (MAXDEG + 1);
        put_i(b[0], 2 * v, (int32_t)e);
        put_i(b[0], 2 * v + 1, (int32_t)deg);
        for (unsigned k = 0; k < deg; k++)
            put_i(b[1], e++, (int32_t)(next(&s) % N));
    }
    for (unsigned v = 0; v < N; v++)
        put_i(b[2], v, 12345);
}

static void run(uint8_t *const *b)
{
    int32_t cost[N];
    unsigned queue[N], head = 0, tail = 0;
    for (unsigned v = 0; v < N; v++)
        cost[v] = -1;
    cost[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        unsigned v = queue[head++];
        int32_t start = get_i(b[0], 2 * v), count = get_i(b[0], 2 * v + 1);
        for (int32_t e = start; e < start + count; e++) {
            unsigned id = (unsigned)get_i(b[1], (unsigned)e);
            if (cost[id] < 0) {
                cost[id] = cost[v] + 1;
                queue[tail++] = id;
            }
        }
    }
    for (unsigned v = 0; v < N; v++)
        put_i(b[2], v, cost[v]);
}

const struct kref kref_rodinia_bfs = {
    .name = "rodinia_bfs.comp", .groups = { 1, 1, 1 }, .nbufs = 3,
    .buf = { { 0, 8 * N }, { 1, 4 * EDGES }, { 2, 4 * N } },
    .init = init, .run = run,
};
