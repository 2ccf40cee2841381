/*
 * Arrays of megabytes that are filled (images, meshes, a model file's
 * text, a draw's clip-space vertices): from 1 MiB up, whole 2 MiB pages
 * (at most half of one unused) that the kernel may back with transparent
 * huge pages (Linux, where enabled for madvise), so that filling one
 * takes a page fault a 2 MiB instead of 512.  On a VM a fault costs
 * microseconds: the 4,900 faults of a 512x512 render of
 * bench/scenes/bunny.scn were 38% of its time.  Not for an array touched
 * here and there (thread records): its first touch clears 2 MiB.  Freed
 * with free().
 */
#define _DEFAULT_SOURCE     /* madvise's MADV_HUGEPAGE */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "gfx/gfx.h"

enum { HUGE = 2u << 20, FROM = HUGE / 2 };

void *gfx_huge_alloc(size_t bytes)
{
    if (bytes < FROM)
        return malloc(bytes ? bytes : 1);
    size_t size = (bytes + HUGE - 1) / HUGE * HUGE;
    if (size < bytes)
        return NULL;
    void *p = aligned_alloc(HUGE, size);
#ifdef MADV_HUGEPAGE
    if (p)
        (void)madvise(p, size, MADV_HUGEPAGE);
#endif
    return p;
}

void *gfx_huge_realloc(void *p, size_t old, size_t bytes)
{
    if (bytes < FROM)
        return realloc(p, bytes ? bytes : 1);
    void *q = gfx_huge_alloc(bytes);
    if (q && p) {
        memcpy(q, p, old < bytes ? old : bytes);
        free(p);
    }
    return q;
}
