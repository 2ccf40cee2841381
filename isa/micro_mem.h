/*
 * Per-lane memory micro-operations (docs/COMPUTE.md), included by
 * isa/micro.h: one component of a LOAD, STORE or ATOM on a buffer binding
 * or on a workgroup's shared memory.
 *
 * Memory is byte addressed and little-endian, with any alignment.  An
 * access whose bytes do not all lie in [0, size) is out of bounds
 * (robust buffer access): a load reads 0, a store writes nothing, an
 * atomic changes nothing and returns 0; each one is counted.  Every
 * executor calls these, so the counts agree as well as the bits.
 */
#ifndef US_MICRO_MEM_H
#define US_MICRO_MEM_H

#include <stdbool.h>
#include <stdint.h>

#include "ushader.h"
#include "isa/micro_int.h"

static inline unsigned micro_msize(enum us_mtype t)
{
    return t <= US_MT_S8 ? 1 : t <= US_MT_S16 ? 2 : 4;
}

static inline bool micro_msigned(enum us_mtype t)
{
    return t == US_MT_S8 || t == US_MT_S16 || t == US_MT_S32;
}

/* Note one access in a trace (NULL: none), whether or not it is in
 * bounds: timing sees every request. */
static inline void micro_mem_note(struct us_mem_trace *tr, uint32_t addr,
                                  unsigned space, unsigned bytes,
                                  enum us_mem_kind kind, unsigned lane)
{
    if (!tr)
        return;
    if (tr->n < US_MEM_TRACE_MAX) {
        struct us_mem_access *a = &tr->a[tr->n];
        a->addr = addr;
        a->space = (uint8_t)space;
        a->bytes = (uint8_t)bytes;
        a->kind = (uint8_t)kind;
        a->lane = (uint8_t)lane;
    }
    tr->n++;
}

/* Are bytes [addr, addr + n) inside the buffer (NULL: no buffer)? */
static inline bool micro_in_bounds(const struct us_buffer *b, uint32_t addr,
                                   unsigned n)
{
    return b && b->data && addr < b->size && b->size - addr >= n;
}

static inline uint32_t micro_mem_get(const struct us_buffer *b, uint32_t addr,
                                     enum us_mtype t)
{
    unsigned n = micro_msize(t);
    uint32_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint32_t)b->data[addr + i] << (8 * i);
    if (micro_msigned(t) && n < 4)
        v = micro_wrap(micro_sx(v, 8 * n), 32);
    return v;
}

static inline void micro_mem_put(struct us_buffer *b, uint32_t addr,
                                 enum us_mtype t, uint32_t v)
{
    unsigned n = micro_msize(t);
    for (unsigned i = 0; i < n; i++)
        b->data[addr + i] = (uint8_t)(v >> (8 * i));
}

static inline uint32_t micro_load(const struct us_buffer *b, uint32_t addr,
                                  enum us_mtype t, struct us_mem_counts *c)
{
    unsigned n = micro_msize(t);
    c->loads++;
    if (!micro_in_bounds(b, addr, n)) {
        c->oob++;
        return 0;
    }
    c->bytes += n;
    return micro_mem_get(b, addr, t);
}

static inline void micro_store(struct us_buffer *b, uint32_t addr,
                               enum us_mtype t, uint32_t v,
                               struct us_mem_counts *c)
{
    unsigned n = micro_msize(t);
    c->stores++;
    if (!micro_in_bounds(b, addr, n)) {
        c->oob++;
        return;
    }
    c->bytes += n;
    micro_mem_put(b, addr, t, v);
}

/* The new value an atomic writes (CSWAP: `value` when old == compare). */
static inline uint32_t micro_atom_new(enum us_atom op, enum us_mtype t,
                                      uint32_t old, uint32_t value,
                                      uint32_t compare)
{
    bool s = micro_msigned(t);
    switch (op) {
    case US_ATOM_ADD: return old + value;
    case US_ATOM_MIN: return s ? micro_imin_s(old, value, 32)
                               : micro_imin_u(old, value, 32);
    case US_ATOM_MAX: return s ? micro_imax_s(old, value, 32)
                               : micro_imax_u(old, value, 32);
    case US_ATOM_AND: return old & value;
    case US_ATOM_OR: return old | value;
    case US_ATOM_XOR: return old ^ value;
    case US_ATOM_EXCH: return value;
    case US_ATOM_CSWAP: return old == compare ? value : old;
    case US_ATOM_COUNT: break;
    }
    return old;
}

/* One atomic read-modify-write of a 32-bit word; the old value. */
static inline uint32_t micro_atomic(struct us_buffer *b, uint32_t addr,
                                    enum us_atom op, enum us_mtype t,
                                    uint32_t value, uint32_t compare,
                                    struct us_mem_counts *c)
{
    c->atomics++;
    if (!micro_in_bounds(b, addr, 4)) {
        c->oob++;
        return 0;
    }
    c->bytes += 8;   /* read and written */
    uint32_t old = micro_mem_get(b, addr, US_MT_U32);
    micro_mem_put(b, addr, US_MT_U32, micro_atom_new(op, t, old, value,
                                                     compare));
    return old;
}

#endif
