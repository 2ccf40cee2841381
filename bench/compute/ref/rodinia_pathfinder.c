/* rodinia_pathfinder: the reference of bench/compute/rodinia_pathfinder.comp,
 * Rodinia's pathfinder dynamic programming (cuda/pathfinder/pathfinder.cu,
 * Rodinia 3.1; PF in DICE, seed 004): per grid, cost = wall row 0, then
 * cost'[c] = wall[r][c] + min of cost[c-1..c+1] that exist. */
#include <string.h>

#include "kref.h"

enum { GRIDS = 2, ROWS = 16, COLS = 32 };

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

/* Weights 0..9 as Rodinia's (rand() % 10); a few negative ones too. */
static void init(uint8_t *const *b, uint64_t seed)
{
    uint64_t s = seed + 17;
    for (unsigned i = 0; i < GRIDS * ROWS * COLS; i++)
        put_i(b[0], i, (int32_t)(next(&s) % 12) - 2);
    memset(b[1], 0, 4 * GRIDS * COLS);
}

static void run(uint8_t *const *b)
{
    for (unsigned g = 0; g < GRIDS; g++) {
        const unsigned base = g * ROWS * COLS;
        int32_t cost[COLS], nxt[COLS];
        for (unsigned c = 0; c < COLS; c++)
            cost[c] = get_i(b[0], base + c);
        for (unsigned r = 1; r < ROWS; r++) {
            for (unsigned c = 0; c < COLS; c++) {
                int32_t best = cost[c];
                if (c > 0 && cost[c - 1] < best)
                    best = cost[c - 1];
                if (c + 1 < COLS && cost[c + 1] < best)
                    best = cost[c + 1];
                nxt[c] = get_i(b[0], base + r * COLS + c) + best;
            }
            memcpy(cost, nxt, sizeof cost);
        }
        for (unsigned c = 0; c < COLS; c++)
            put_i(b[1], g * COLS + c, cost[c]);
    }
}

const struct kref kref_rodinia_pathfinder = {
    .name = "rodinia_pathfinder.comp", .groups = { GRIDS, 1, 1 }, .nbufs = 2,
    .buf = { { 0, 4 * GRIDS * ROWS * COLS }, { 1, 4 * GRIDS * COLS } },
    .init = init, .run = run,
};
