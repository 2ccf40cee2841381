/*
 * Autodesk 3D Studio (.3ds) mesh loader, for the models of Debian's
 * glmark2-data (horse, cat, cube, asteroid-low/-high).
 *
 * A .3ds file is a tree of chunks: a little-endian u16 id, a u32 length
 * that counts the 6-byte header, then the body.  Only the geometry path
 * is read, every other chunk is skipped by its length:
 *
 *   0x4D4D main                  container
 *     0x3D3D editor              container
 *       0x4000 object            NUL-terminated name, then sub-chunks
 *         0x4100 triangle mesh   container
 *           0x4110 vertices      u16 n, n x (x y z) f32
 *           0x4120 faces         u16 n, n x (a b c flags) u16, sub-chunks
 *           0x4140 texcoords     u16 n, n x (u v) f32, one per vertex
 *
 * Every object's mesh is appended to one gfx_mesh (indices offset by the
 * vertices before it).  Normals are computed (area-weighted, as the file
 * has none), and tangents along +u when there are texture coordinates;
 * texcoord[1] repeats the tangent, because GLSL shaders have no built-in
 * for generic attribute 6 (docs/GLMARK2.md).  Every length, count and
 * index is checked against the bytes that hold it: a bad file is an
 * error naming the byte offset, never a crash.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/gfx.h"

enum {
    C_MAIN = 0x4D4D, C_EDITOR = 0x3D3D, C_OBJECT = 0x4000,
    C_TRIMESH = 0x4100, C_VERTICES = 0x4110, C_FACES = 0x4120,
    C_TEXCOORDS = 0x4140,
    MAX_DEPTH = 8,            /* main > editor > object > mesh: 4 levels   */
};

/* One object's geometry: pointers into the file's bytes. */
struct obj3ds {
    const uint8_t *verts, *faces, *uvs;
    unsigned nverts, nfaces, nuvs;
    size_t faces_at;          /* byte offset, for messages                */
};

struct ctx {
    const uint8_t *base;
    struct obj3ds *obj;
    size_t nobj, cap;
    struct gfx_budget *budget; /* obj is charged here                   */
    struct us_diag *diag;
};

static void free_objects(struct ctx *c)
{
    free(c->obj);
    gfx_budget_give(c->budget, c->cap * sizeof *c->obj);
    c->obj = NULL;
    c->cap = c->nobj = 0;
}

static uint16_t u16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static float f32(const uint8_t *p)
{
    uint32_t b = u32(p);
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

static bool fail_at(struct ctx *c, const uint8_t *at, const char *what)
{
    return gfx_fail(c->diag, 0, 0, "3ds: byte %zu: %s",
                    (size_t)(at - c->base), what);
}

/* A counted array "u16 n, n x size bytes" at the start of [p, end). */
static bool counted(struct ctx *c, const uint8_t *p, const uint8_t *end,
                    size_t size, unsigned *n, const char *what)
{
    if (end - p < 2)
        return fail_at(c, p, what);
    *n = u16(p);
    if ((size_t)(end - p - 2) < (size_t)*n * size)
        return fail_at(c, p, what);
    return true;
}

static struct obj3ds *cur_obj(struct ctx *c, const uint8_t *at)
{
    if (c->nobj == 0) {
        fail_at(c, at, "mesh data outside an object chunk");
        return NULL;
    }
    return &c->obj[c->nobj - 1];
}

/* Walk the chunks in [p, end) at `depth`. */
static bool walk(struct ctx *c, const uint8_t *p, const uint8_t *end,
                 unsigned depth)
{
    if (depth > MAX_DEPTH)
        return fail_at(c, p, "chunks nested too deeply");
    while (p < end) {
        if (end - p < 6)
            return fail_at(c, p, "truncated chunk header");
        uint16_t id = u16(p);
        uint32_t len = u32(p + 2);
        if (len < 6 || len > (size_t)(end - p))
            return fail_at(c, p, "chunk length outside its parent");
        const uint8_t *body = p + 6, *next = p + len;
        switch (id) {
        case C_MAIN:
        case C_EDITOR:
        case C_TRIMESH:
            if (!walk(c, body, next, depth + 1))
                return false;
            break;
        case C_OBJECT: {
            const uint8_t *q = body;
            while (q < next && *q)
                q++;
            if (q == next)
                return fail_at(c, body, "object name not terminated");
            if (c->nobj == c->cap) {
                /* objects are small in the file, not in memory: the
                 * table is charged before it grows */
                size_t cap = c->cap ? 2 * c->cap : 8;
                size_t more = (cap - c->cap) * sizeof *c->obj;
                if (!gfx_budget_take(c->budget, more, 1, "the object table",
                                     c->diag)) {
                    char m[sizeof c->diag->msg];
                    memcpy(m, c->diag->msg, sizeof m);
                    return fail_at(c, p, m);
                }
                void *o = realloc(c->obj, cap * sizeof *c->obj);
                if (!o) {
                    gfx_budget_give(c->budget, more);
                    return fail_at(c, p, "out of memory");
                }
                c->obj = o;
                c->cap = cap;
            }
            memset(&c->obj[c->nobj++], 0, sizeof *c->obj);
            if (!walk(c, q + 1, next, depth + 1))
                return false;
            break;
        }
        case C_VERTICES: {
            struct obj3ds *o = cur_obj(c, p);
            if (!o || !counted(c, body, next, 12, &o->nverts,
                               "vertex list longer than its chunk"))
                return false;
            o->verts = body + 2;
            break;
        }
        case C_FACES: {
            struct obj3ds *o = cur_obj(c, p);
            if (!o || !counted(c, body, next, 8, &o->nfaces,
                               "face list longer than its chunk"))
                return false;
            o->faces = body + 2;
            o->faces_at = (size_t)(body - c->base);
            /* material and smoothing sub-chunks follow; not needed */
            break;
        }
        case C_TEXCOORDS: {
            struct obj3ds *o = cur_obj(c, p);
            if (!o || !counted(c, body, next, 8, &o->nuvs,
                               "texture coordinates longer than their chunk"))
                return false;
            o->uvs = body + 2;
            break;
        }
        default:
            break;
        }
        p = next;
    }
    return true;
}

bool gfx_mesh_3ds(struct gfx_mesh *m, const void *data, size_t len,
                  struct gfx_budget *budget, struct us_diag *diag)
{
    memset(m, 0, sizeof *m);
    struct ctx c = { .base = data, .budget = budget, .diag = diag };
    const uint8_t *p = data;
    if (len < 6 || u16(p) != C_MAIN)
        return gfx_fail(diag, 0, 0, "3ds: not a 3D Studio file (no 0x4D4D "
                        "main chunk)");
    if (!walk(&c, p, p + len, 0)) {
        free_objects(&c);
        return false;
    }
    size_t nv = 0, nt = 0;
    bool uv = c.nobj > 0;
    for (size_t i = 0; i < c.nobj; i++) {
        const struct obj3ds *o = &c.obj[i];
        if (o->nfaces && !o->verts) {
            size_t at = o->faces_at;
            free_objects(&c);
            return gfx_fail(diag, 0, 0, "3ds: byte %zu: faces without "
                            "vertices", at);
        }
        nv += o->nverts;
        nt += o->nfaces;
        uv = uv && o->uvs && o->nuvs == o->nverts;
    }
    if (nt == 0) {
        free_objects(&c);
        return gfx_fail(diag, 0, 0, "3ds: no triangles");
    }
    /* without texture coordinates no tangents: those attributes keep
     * their current values */
    uint32_t attrs = uv ? GFX_MESH_ATTRS : GFX_ATTR_BIT(GFX_ATTR_POSITION) |
                                           GFX_ATTR_BIT(GFX_ATTR_NORMAL);
    if (!gfx_mesh_alloc(m, nv, attrs, nt, budget, diag)) {
        free_objects(&c);
        return false;
    }
    size_t v0 = 0, t = 0;
    for (size_t i = 0; i < c.nobj; i++) {
        const struct obj3ds *o = &c.obj[i];
        for (unsigned k = 0; k < o->nverts; k++) {
            float *pos = m->attr[GFX_ATTR_POSITION][v0 + k];
            for (int j = 0; j < 3; j++) {
                pos[j] = f32(o->verts + 12 * k + 4 * j);
                if (!isfinite(pos[j]) || fabsf(pos[j]) > 1e30f) {
                    free_objects(&c);
                    gfx_mesh_free(m);
                    return gfx_fail(diag, 0, 0, "3ds: object %zu vertex %u "
                                    "is not a finite coordinate", i, k);
                }
            }
            pos[3] = 1.0f;
            if (uv) {
                float *tc = m->attr[GFX_ATTR_TEXCOORD0][v0 + k];
                tc[0] = f32(o->uvs + 8 * k);
                tc[1] = f32(o->uvs + 8 * k + 4);
                if (!isfinite(tc[0]) || !isfinite(tc[1]))
                    tc[0] = tc[1] = 0.0f;
            }
        }
        for (unsigned f = 0; f < o->nfaces; f++, t++)
            for (int j = 0; j < 3; j++) {
                uint16_t ix = u16(o->faces + 8 * f + 2 * j);
                if (ix >= o->nverts) {
                    size_t at = o->faces_at + 2 + 8 * (size_t)f;
                    unsigned n = o->nverts;
                    free_objects(&c);
                    gfx_mesh_free(m);
                    return gfx_fail(diag, 0, 0, "3ds: byte %zu: face %u "
                                    "uses vertex %u of %u", at, f, ix, n);
                }
                m->idx[3 * t + j] = (uint32_t)(v0 + ix);
            }
        v0 += o->nverts;
    }
    free_objects(&c);
    gfx_mesh_normals(m);
    if (uv)
        gfx_mesh_tangents(m);
    return true;
}
