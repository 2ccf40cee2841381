/* C references of the compute suite (bench/compute/, docs/COMPUTE_SUITE.md).
 *
 * Each kernel bench/compute/NAME.comp has a reference here: a file
 * bench/compute/ref/ID.c defining `const struct kref kref_ID` and a line
 * KREF(ID) in list.def (KREF_BENCH(ID) for the big sizes that only the bench
 * target runs).  Several IDs may share one NAME (gemm32 .. gemm256: the size
 * is an input buffer).  tools/kref.c writes the inputs, and recomputes and
 * compares the outputs; tests/compute_suite.test.sh runs every kernel on
 * every model.  A reference must give the same bytes as the kernel whatever
 * the order of its threads (docs/COMPUTE.md "Order of execution"). */
#ifndef KREF_H
#define KREF_H

#include <stdint.h>
#include <string.h>

struct kref_buf { uint32_t binding, bytes; };

/* A scalar kernel argument: program.local[index] = value (an integer). */
struct kref_arg { uint32_t index; int32_t value; };

struct kref {
    const char *name;           /* its source in bench/compute/: NAME.comp,
                                   or NAME.cl for OpenCL C */
    uint32_t groups[3];         /* the launch */
    uint32_t local[3];          /* the workgroup size; zeros: the kernel's
                                   own (GLSL local_size, OpenCL
                                   reqd_work_group_size) */
    unsigned nargs;             /* OpenCL C scalar arguments */
    struct kref_arg arg[4];
    unsigned nbufs;
    struct kref_buf buf[8];
    void (*init)(uint8_t *const *bufs, uint64_t seed);   /* deterministic inputs */
    void (*run)(uint8_t *const *bufs);   /* in place: the buffers as the kernel must leave them */
};

/* bufs[i] is buf[i]'s bytes (not indexed by binding), zeroed before init. */

/* splitmix64 (Steele, Lea, Flood, OOPSLA 2014): the inputs' generator. */
static inline uint64_t kref_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Little-endian 32-bit words, whatever the host (memory is little-endian). */
static inline uint32_t kref_get32(const uint8_t *p, uint32_t i)
{
    p += 4u * i;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static inline void kref_put32(uint8_t *p, uint32_t i, uint32_t v)
{
    p += 4u * i;
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

#define KREF(id) extern const struct kref kref_##id;
#define KREF_BENCH(id) KREF(id)
#include "list.def"
#undef KREF
#undef KREF_BENCH

#endif
