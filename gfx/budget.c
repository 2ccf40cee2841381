/* The memory budget of one run (gfx/gfx.h): bytes are checked and charged
 * before the allocation they stand for. */
#include <stdint.h>

#include "gfx/gfx.h"

void gfx_budget_init(struct gfx_budget *b)
{
    b->left = (size_t)GFX_MEM_BUDGET_MIB << 20;
}

static size_t mib_up(size_t bytes)
{
    return bytes / (1u << 20) + (bytes % (1u << 20) != 0);
}

bool gfx_budget_check(const struct gfx_budget *b, size_t n, size_t size,
                      const char *what, struct us_diag *diag)
{
    if (!b)
        return true;
    if (size && n > SIZE_MAX / size)
        return gfx_fail(diag, 0, 0, "%s needs more memory than can be "
                        "counted (the memory budget is %d MiB)", what,
                        GFX_MEM_BUDGET_MIB);
    size_t bytes = n * size;
    if (bytes > b->left)
        return gfx_fail(diag, 0, 0, "%s needs %zu MiB, more than the %zu "
                        "MiB left of the %d MiB memory budget", what,
                        mib_up(bytes), b->left >> 20, GFX_MEM_BUDGET_MIB);
    return true;
}

bool gfx_budget_take(struct gfx_budget *b, size_t n, size_t size,
                     const char *what, struct us_diag *diag)
{
    if (!gfx_budget_check(b, n, size, what, diag))
        return false;
    if (b)
        b->left -= n * size;
    return true;
}

void gfx_budget_give(struct gfx_budget *b, size_t bytes)
{
    if (b)
        b->left += bytes;
}
