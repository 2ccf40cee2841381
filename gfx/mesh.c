/*
 * Procedural meshes.  Every surface is a grid of (u, v) samples whose
 * triangles wind counter-clockwise seen from outside ((dP/du x dP/dv)
 * points along the normal), texcoord[0] = (u, v), tangent = dP/du.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/gfx.h"

void gfx_mesh_free(struct gfx_mesh *m)
{
    free(m->verts);
    free(m->idx);
    gfx_budget_give(m->budget, m->charged);
    memset(m, 0, sizeof *m);
}

size_t gfx_mesh_bytes(size_t nverts, size_t ntris)
{
    return (nverts ? nverts : 1) * sizeof(struct gfx_vertex) +
           (ntris ? ntris : 1) * 3 * sizeof(uint32_t);
}

/* GL's current values for attributes the mesh does not define. */
static void vertex_defaults(struct gfx_vertex *v)
{
    for (int i = 0; i < GFX_ATTR_COUNT; i++) {
        v->attr[i][0] = v->attr[i][1] = v->attr[i][2] = 0.0f;
        v->attr[i][3] = 1.0f;
    }
    v->attr[GFX_ATTR_NORMAL][2] = 1.0f;
    for (int c = 0; c < 4; c++)
        v->attr[GFX_ATTR_COLOR0][c] = 1.0f;
    v->attr[GFX_ATTR_WEIGHT][0] = 1.0f;
    v->attr[GFX_ATTR_WEIGHT][3] = 0.0f;
}

static bool mesh_alloc(struct gfx_mesh *m, size_t nverts, size_t ntris,
                       struct gfx_budget *budget, struct us_diag *diag)
{
    memset(m, 0, sizeof *m);
    if (nverts > GFX_MAX_MESH_VERTS || ntris > GFX_MAX_MESH_TRIS)
        return gfx_fail(diag, 0, 0,
                        "mesh too large: %zu vertices, %zu triangles "
                        "(limits %d, %d)", nverts, ntris,
                        GFX_MAX_MESH_VERTS, GFX_MAX_MESH_TRIS);
    char what[80];
    snprintf(what, sizeof what, "a mesh of %zu vertices and %zu triangles",
             nverts, ntris);
    size_t bytes = gfx_mesh_bytes(nverts, ntris);
    if (!gfx_budget_take(budget, bytes, 1, what, diag))
        return false;
    m->budget = budget;
    m->charged = bytes;
    m->verts = gfx_huge_alloc((nverts ? nverts : 1) * sizeof *m->verts);
    m->idx = gfx_huge_alloc((ntris ? ntris : 1) * 3 * sizeof *m->idx);
    if (!m->verts || !m->idx) {
        gfx_mesh_free(m);
        return gfx_fail(diag, 0, 0, "out of memory for a mesh");
    }
    for (size_t i = 0; i < nverts; i++)
        vertex_defaults(&m->verts[i]);
    m->nverts = (unsigned)nverts;
    m->ntris = (unsigned)ntris;
    return true;
}

static void set3(float *d, float x, float y, float z, float w)
{
    d[0] = x;
    d[1] = y;
    d[2] = z;
    d[3] = w;
}

/* Meshes have one texcoord set, so texcoord[1] carries the tangent too:
 * legacy GLSL has no tangent built-in, and shaders (glmark2's) read it
 * from there.  Returns true for the constructors' tail calls. */
static bool tangent_in_texcoord1(struct gfx_mesh *m)
{
    for (unsigned i = 0; i < m->nverts; i++)
        memcpy(m->verts[i].attr[GFX_ATTR_TEXCOORD0 + 1],
               m->verts[i].attr[GFX_ATTR_TANGENT], sizeof(us_vec4));
    m->attr_mask |= 1u << (GFX_ATTR_TEXCOORD0 + 1);
    return true;
}

enum { GRID_ATTRS = 1u << GFX_ATTR_POSITION | 1u << GFX_ATTR_NORMAL |
                    1u << GFX_ATTR_TEXCOORD0 | 1u << GFX_ATTR_TANGENT };

/* A (nu+1) x (nv+1) vertex grid and its 2 nu nv triangles. */
static bool grid(struct gfx_mesh *m, unsigned nu, unsigned nv,
                 struct gfx_budget *budget, struct us_diag *diag)
{
    if (nu < 1 || nv < 1 || nu > 4096 || nv > 4096)
        return gfx_fail(diag, 0, 0, "tessellation %ux%u out of range 1..4096",
                        nu, nv);
    if (!mesh_alloc(m, (size_t)(nu + 1) * (nv + 1), (size_t)2 * nu * nv,
                    budget, diag))
        return false;
    uint32_t *ix = m->idx;
    for (unsigned j = 0; j < nv; j++)
        for (unsigned i = 0; i < nu; i++) {
            uint32_t a = j * (nu + 1) + i, b = a + 1, d = a + nu + 1, c = d + 1;
            *ix++ = a, *ix++ = b, *ix++ = c;
            *ix++ = a, *ix++ = c, *ix++ = d;
        }
    for (unsigned j = 0; j <= nv; j++)
        for (unsigned i = 0; i <= nu; i++)
            set3(m->verts[j * (nu + 1) + i].attr[GFX_ATTR_TEXCOORD0],
                 (float)i / (float)nu, (float)j / (float)nv, 0, 1);
    m->attr_mask = GRID_ATTRS;
    return true;
}

bool gfx_mesh_sphere(struct gfx_mesh *m, float r, unsigned slices,
                     unsigned stacks, struct gfx_budget *budget,
                     struct us_diag *diag)
{
    if (!grid(m, slices, stacks, budget, diag))
        return false;
    for (unsigned k = 0; k < m->nverts; k++) {
        struct gfx_vertex *v = &m->verts[k];
        float th = 2.0f * (float)GFX_PI * v->attr[GFX_ATTR_TEXCOORD0][0];
        float ph = (float)GFX_PI * v->attr[GFX_ATTR_TEXCOORD0][1];
        float n[3] = { sinf(ph) * sinf(th), -cosf(ph), sinf(ph) * cosf(th) };
        set3(v->attr[GFX_ATTR_POSITION], r * n[0], r * n[1], r * n[2], 1);
        set3(v->attr[GFX_ATTR_NORMAL], n[0], n[1], n[2], 1);
        set3(v->attr[GFX_ATTR_TANGENT], cosf(th), 0, -sinf(th), 1);
    }
    return tangent_in_texcoord1(m);
}

bool gfx_mesh_torus(struct gfx_mesh *m, float R, float r, unsigned rings,
                    unsigned sides, struct gfx_budget *budget,
                    struct us_diag *diag)
{
    if (!grid(m, rings, sides, budget, diag))
        return false;
    for (unsigned k = 0; k < m->nverts; k++) {
        struct gfx_vertex *v = &m->verts[k];
        float th = 2.0f * (float)GFX_PI * v->attr[GFX_ATTR_TEXCOORD0][0];
        float ph = 2.0f * (float)GFX_PI * v->attr[GFX_ATTR_TEXCOORD0][1];
        float n[3] = { sinf(th) * cosf(ph), sinf(ph), cosf(th) * cosf(ph) };
        set3(v->attr[GFX_ATTR_POSITION], R * sinf(th) + r * n[0], r * n[1],
             R * cosf(th) + r * n[2], 1);
        set3(v->attr[GFX_ATTR_NORMAL], n[0], n[1], n[2], 1);
        set3(v->attr[GFX_ATTR_TANGENT], cosf(th), 0, -sinf(th), 1);
    }
    return tangent_in_texcoord1(m);
}

bool gfx_mesh_plane(struct gfx_mesh *m, float size, unsigned n,
                    struct gfx_budget *budget, struct us_diag *diag)
{
    if (!grid(m, n, n, budget, diag))
        return false;
    for (unsigned k = 0; k < m->nverts; k++) {
        struct gfx_vertex *v = &m->verts[k];
        float u = v->attr[GFX_ATTR_TEXCOORD0][0];
        float w = v->attr[GFX_ATTR_TEXCOORD0][1];
        set3(v->attr[GFX_ATTR_POSITION], (u - 0.5f) * size, 0,
             (0.5f - w) * size, 1);
        set3(v->attr[GFX_ATTR_NORMAL], 0, 1, 0, 1);
        set3(v->attr[GFX_ATTR_TANGENT], 1, 0, 0, 1);
    }
    return tangent_in_texcoord1(m);
}

bool gfx_mesh_cube(struct gfx_mesh *m, float size, struct gfx_budget *budget,
                   struct us_diag *diag)
{
    /* normal, tangent (+u); the bitangent n x t is +v */
    static const float face[6][2][3] = {
        { { 1, 0, 0 }, { 0, 0, -1 } }, { { -1, 0, 0 }, { 0, 0, 1 } },
        { { 0, 1, 0 }, { 1, 0, 0 } },  { { 0, -1, 0 }, { 1, 0, 0 } },
        { { 0, 0, 1 }, { 1, 0, 0 } },  { { 0, 0, -1 }, { -1, 0, 0 } },
    };
    static const float uv[4][2] = { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 } };
    if (!mesh_alloc(m, 24, 12, budget, diag))
        return false;
    float h = 0.5f * size;
    for (unsigned f = 0; f < 6; f++) {
        const float *n = face[f][0], *t = face[f][1];
        float b[3] = { n[1] * t[2] - n[2] * t[1], n[2] * t[0] - n[0] * t[2],
                       n[0] * t[1] - n[1] * t[0] };
        for (unsigned c = 0; c < 4; c++) {
            struct gfx_vertex *v = &m->verts[4 * f + c];
            float su = 2 * uv[c][0] - 1, sv = 2 * uv[c][1] - 1;
            set3(v->attr[GFX_ATTR_POSITION], h * (n[0] + su * t[0] + sv * b[0]),
                 h * (n[1] + su * t[1] + sv * b[1]),
                 h * (n[2] + su * t[2] + sv * b[2]), 1);
            set3(v->attr[GFX_ATTR_NORMAL], n[0], n[1], n[2], 1);
            set3(v->attr[GFX_ATTR_TANGENT], t[0], t[1], t[2], 1);
            set3(v->attr[GFX_ATTR_TEXCOORD0], uv[c][0], uv[c][1], 0, 1);
        }
        uint32_t *ix = m->idx + 6 * f, a = 4 * f;
        ix[0] = a, ix[1] = a + 1, ix[2] = a + 2;
        ix[3] = a, ix[4] = a + 2, ix[5] = a + 3;
    }
    m->attr_mask = GRID_ATTRS;
    return tangent_in_texcoord1(m);
}

static void sub3(float o[3], const float *a, const float *b)
{
    o[0] = a[0] - b[0];
    o[1] = a[1] - b[1];
    o[2] = a[2] - b[2];
}

static void normalize_or(float *v, float x, float y, float z)
{
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 1e-20f) {
        v[0] /= l, v[1] /= l, v[2] /= l;
    } else {
        v[0] = x, v[1] = y, v[2] = z;
    }
}

/* Each triangle adds its unnormalized face normal (length = 2 x area) to
 * its three vertices. */
void gfx_mesh_normals(struct gfx_mesh *m)
{
    for (unsigned i = 0; i < m->nverts; i++)
        set3(m->verts[i].attr[GFX_ATTR_NORMAL], 0, 0, 0, 1);
    for (unsigned t = 0; t < m->ntris; t++) {
        const uint32_t *ix = m->idx + 3 * t;
        const float *p0 = m->verts[ix[0]].attr[GFX_ATTR_POSITION];
        const float *p1 = m->verts[ix[1]].attr[GFX_ATTR_POSITION];
        const float *p2 = m->verts[ix[2]].attr[GFX_ATTR_POSITION];
        float a[3], b[3];
        sub3(a, p1, p0);
        sub3(b, p2, p0);
        float n[3] = { a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                       a[0] * b[1] - a[1] * b[0] };
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < 3; c++)
                m->verts[ix[k]].attr[GFX_ATTR_NORMAL][c] += n[c];
    }
    for (unsigned i = 0; i < m->nverts; i++)
        normalize_or(m->verts[i].attr[GFX_ATTR_NORMAL], 0, 0, 1);
    m->attr_mask |= 1u << GFX_ATTR_NORMAL;
}

/* Tangent = dP/du solved from each triangle's texcoord differences
 * (Lengyel, "Computing Tangent Space Basis Vectors", 2001), accumulated
 * and made orthogonal to the normal (Gram-Schmidt). */
void gfx_mesh_tangents(struct gfx_mesh *m)
{
    for (unsigned i = 0; i < m->nverts; i++)
        set3(m->verts[i].attr[GFX_ATTR_TANGENT], 0, 0, 0, 1);
    /* without texture coordinates (all alike) every triangle's det is 0 */
    bool tc = m->attr_mask >> GFX_ATTR_TEXCOORD0 & 1;
    for (unsigned t = 0; tc && t < m->ntris; t++) {
        const uint32_t *ix = m->idx + 3 * t;
        const struct gfx_vertex *v0 = &m->verts[ix[0]], *v1 = &m->verts[ix[1]],
                                *v2 = &m->verts[ix[2]];
        float e1[3], e2[3];
        sub3(e1, v1->attr[GFX_ATTR_POSITION], v0->attr[GFX_ATTR_POSITION]);
        sub3(e2, v2->attr[GFX_ATTR_POSITION], v0->attr[GFX_ATTR_POSITION]);
        float du1 = v1->attr[GFX_ATTR_TEXCOORD0][0] - v0->attr[GFX_ATTR_TEXCOORD0][0];
        float dv1 = v1->attr[GFX_ATTR_TEXCOORD0][1] - v0->attr[GFX_ATTR_TEXCOORD0][1];
        float du2 = v2->attr[GFX_ATTR_TEXCOORD0][0] - v0->attr[GFX_ATTR_TEXCOORD0][0];
        float dv2 = v2->attr[GFX_ATTR_TEXCOORD0][1] - v0->attr[GFX_ATTR_TEXCOORD0][1];
        float det = du1 * dv2 - du2 * dv1;
        if (fabsf(det) < 1e-20f)
            continue;
        float r = 1.0f / det;
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < 3; c++)
                m->verts[ix[k]].attr[GFX_ATTR_TANGENT][c] +=
                    (e1[c] * dv2 - e2[c] * dv1) * r;
    }
    for (unsigned i = 0; i < m->nverts; i++) {
        float *t = m->verts[i].attr[GFX_ATTR_TANGENT];
        const float *n = m->verts[i].attr[GFX_ATTR_NORMAL];
        float d = t[0] * n[0] + t[1] * n[1] + t[2] * n[2];
        for (int c = 0; c < 3; c++)
            t[c] -= d * n[c];
        normalize_or(t, 1, 0, 0);
    }
    m->attr_mask |= 1u << GFX_ATTR_TANGENT;
    tangent_in_texcoord1(m);
}

/* Shared with obj.c and teapot.c. */
bool gfx_mesh_alloc(struct gfx_mesh *m, size_t nverts, size_t ntris,
                    struct gfx_budget *budget, struct us_diag *diag)
{
    return mesh_alloc(m, nverts, ntris, budget, diag);
}
