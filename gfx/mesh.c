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
    free(m->block);
    gfx_budget_give(m->budget, m->charged);
    memset(m, 0, sizeof *m);
}

static unsigned planes(uint32_t attrs)
{
    return (unsigned)__builtin_popcount(attrs & GFX_ALL_ATTRS);
}

size_t gfx_mesh_bytes(size_t nverts, uint32_t attrs, size_t ntris)
{
    return (nverts ? nverts : 1) * planes(attrs) * sizeof(us_vec4) +
           (ntris ? ntris : 1) * 3 * sizeof(uint32_t);
}

/* GL's current values: (0, 0, 0, 1), but normal (0, 0, 1, 1), colour
 * (1, 1, 1, 1) and vertex weight (1, 0, 0, 0). */
static const us_vec4 current[GFX_ATTR_COUNT] = {
    [GFX_ATTR_POSITION] = { 0, 0, 0, 1 }, [GFX_ATTR_WEIGHT] = { 1, 0, 0, 0 },
    [GFX_ATTR_NORMAL] = { 0, 0, 1, 1 },   [GFX_ATTR_COLOR0] = { 1, 1, 1, 1 },
    [GFX_ATTR_COLOR1] = { 0, 0, 0, 1 },   [GFX_ATTR_FOGCOORD] = { 0, 0, 0, 1 },
    [GFX_ATTR_TANGENT] = { 0, 0, 0, 1 },  [7] = { 0, 0, 0, 1 },
    [8] = { 0, 0, 0, 1 },  [9] = { 0, 0, 0, 1 },  [10] = { 0, 0, 0, 1 },
    [11] = { 0, 0, 0, 1 }, [12] = { 0, 0, 0, 1 }, [13] = { 0, 0, 0, 1 },
    [14] = { 0, 0, 0, 1 }, [15] = { 0, 0, 0, 1 },
};

const float *gfx_attr_default(unsigned a)
{
    return current[a];
}

bool gfx_mesh_alloc(struct gfx_mesh *m, size_t nverts, uint32_t attrs,
                    size_t ntris, struct gfx_budget *budget,
                    struct us_diag *diag)
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
    size_t bytes = gfx_mesh_bytes(nverts, attrs, ntris);
    if (!gfx_budget_take(budget, bytes, 1, what, diag))
        return false;
    m->budget = budget;
    m->charged = bytes;
    m->block = gfx_huge_alloc(bytes);
    if (!m->block) {
        gfx_mesh_free(m);
        return gfx_fail(diag, 0, 0, "out of memory for a mesh");
    }
    us_vec4 *plane = m->block;
    for (unsigned a = 0; a < GFX_ATTR_COUNT; a++) {
        if (!(attrs >> a & 1))
            continue;
        m->attr[a] = plane;
        for (size_t i = 0; i < nverts; i++)
            memcpy(plane[i], current[a], sizeof(us_vec4));
        plane += nverts ? nverts : 1;
    }
    m->idx = (uint32_t *)plane;
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
    memcpy(m->attr[GFX_ATTR_TEXCOORD0 + 1], m->attr[GFX_ATTR_TANGENT],
           m->nverts * sizeof(us_vec4));
    return true;
}

/* A vertex of a GFX_MESH_ATTRS mesh. */
struct grid_vertex { float *pos, *nrm, *tan, *uv; };

static struct grid_vertex grid_vertex(struct gfx_mesh *m, unsigned k)
{
    return (struct grid_vertex){
        m->attr[GFX_ATTR_POSITION][k], m->attr[GFX_ATTR_NORMAL][k],
        m->attr[GFX_ATTR_TANGENT][k], m->attr[GFX_ATTR_TEXCOORD0][k] };
}

/* A (nu+1) x (nv+1) vertex grid and its 2 nu nv triangles. */
static bool grid(struct gfx_mesh *m, unsigned nu, unsigned nv,
                 struct gfx_budget *budget, struct us_diag *diag)
{
    if (nu < 1 || nv < 1 || nu > 4096 || nv > 4096)
        return gfx_fail(diag, 0, 0, "tessellation %ux%u out of range 1..4096",
                        nu, nv);
    if (!gfx_mesh_alloc(m, (size_t)(nu + 1) * (nv + 1), GFX_MESH_ATTRS,
                        (size_t)2 * nu * nv, budget, diag))
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
            set3(m->attr[GFX_ATTR_TEXCOORD0][j * (nu + 1) + i],
                 (float)i / (float)nu, (float)j / (float)nv, 0, 1);
    return true;
}

bool gfx_mesh_sphere(struct gfx_mesh *m, float r, unsigned slices,
                     unsigned stacks, struct gfx_budget *budget,
                     struct us_diag *diag)
{
    if (!grid(m, slices, stacks, budget, diag))
        return false;
    for (unsigned k = 0; k < m->nverts; k++) {
        struct grid_vertex v = grid_vertex(m, k);
        float th = 2.0f * (float)GFX_PI * v.uv[0];
        float ph = (float)GFX_PI * v.uv[1];
        float n[3] = { sinf(ph) * sinf(th), -cosf(ph), sinf(ph) * cosf(th) };
        set3(v.pos, r * n[0], r * n[1], r * n[2], 1);
        set3(v.nrm, n[0], n[1], n[2], 1);
        set3(v.tan, cosf(th), 0, -sinf(th), 1);
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
        struct grid_vertex v = grid_vertex(m, k);
        float th = 2.0f * (float)GFX_PI * v.uv[0];
        float ph = 2.0f * (float)GFX_PI * v.uv[1];
        float n[3] = { sinf(th) * cosf(ph), sinf(ph), cosf(th) * cosf(ph) };
        set3(v.pos, R * sinf(th) + r * n[0], r * n[1], R * cosf(th) + r * n[2],
             1);
        set3(v.nrm, n[0], n[1], n[2], 1);
        set3(v.tan, cosf(th), 0, -sinf(th), 1);
    }
    return tangent_in_texcoord1(m);
}

bool gfx_mesh_plane(struct gfx_mesh *m, float size, unsigned n,
                    struct gfx_budget *budget, struct us_diag *diag)
{
    if (!grid(m, n, n, budget, diag))
        return false;
    for (unsigned k = 0; k < m->nverts; k++) {
        struct grid_vertex v = grid_vertex(m, k);
        set3(v.pos, (v.uv[0] - 0.5f) * size, 0, (0.5f - v.uv[1]) * size, 1);
        set3(v.nrm, 0, 1, 0, 1);
        set3(v.tan, 1, 0, 0, 1);
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
    if (!gfx_mesh_alloc(m, 24, GFX_MESH_ATTRS, 12, budget, diag))
        return false;
    float h = 0.5f * size;
    for (unsigned f = 0; f < 6; f++) {
        const float *n = face[f][0], *t = face[f][1];
        float b[3] = { n[1] * t[2] - n[2] * t[1], n[2] * t[0] - n[0] * t[2],
                       n[0] * t[1] - n[1] * t[0] };
        for (unsigned c = 0; c < 4; c++) {
            struct grid_vertex v = grid_vertex(m, 4 * f + c);
            float su = 2 * uv[c][0] - 1, sv = 2 * uv[c][1] - 1;
            set3(v.pos, h * (n[0] + su * t[0] + sv * b[0]),
                 h * (n[1] + su * t[1] + sv * b[1]),
                 h * (n[2] + su * t[2] + sv * b[2]), 1);
            set3(v.nrm, n[0], n[1], n[2], 1);
            set3(v.tan, t[0], t[1], t[2], 1);
            set3(v.uv, uv[c][0], uv[c][1], 0, 1);
        }
        uint32_t *ix = m->idx + 6 * f, a = 4 * f;
        ix[0] = a, ix[1] = a + 1, ix[2] = a + 2;
        ix[3] = a, ix[4] = a + 2, ix[5] = a + 3;
    }
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
    us_vec4 *nrm = m->attr[GFX_ATTR_NORMAL];
    const us_vec4 *pos = m->attr[GFX_ATTR_POSITION];
    for (unsigned i = 0; i < m->nverts; i++)
        set3(nrm[i], 0, 0, 0, 1);
    for (unsigned t = 0; t < m->ntris; t++) {
        const uint32_t *ix = m->idx + 3 * t;
        const float *p0 = pos[ix[0]], *p1 = pos[ix[1]], *p2 = pos[ix[2]];
        float a[3], b[3];
        sub3(a, p1, p0);
        sub3(b, p2, p0);
        float n[3] = { a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                       a[0] * b[1] - a[1] * b[0] };
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < 3; c++)
                nrm[ix[k]][c] += n[c];
    }
    for (unsigned i = 0; i < m->nverts; i++)
        normalize_or(nrm[i], 0, 0, 1);
}

/* Tangent = dP/du solved from each triangle's texcoord differences
 * (Lengyel, "Computing Tangent Space Basis Vectors", 2001), accumulated
 * and made orthogonal to the normal (Gram-Schmidt). */
void gfx_mesh_tangents(struct gfx_mesh *m)
{
    us_vec4 *tan = m->attr[GFX_ATTR_TANGENT];
    const us_vec4 *pos = m->attr[GFX_ATTR_POSITION],
                  *nrm = m->attr[GFX_ATTR_NORMAL],
                  *uv = m->attr[GFX_ATTR_TEXCOORD0];
    for (unsigned i = 0; i < m->nverts; i++)
        set3(tan[i], 0, 0, 0, 1);
    /* without texture coordinates (all alike) every triangle's det is 0 */
    for (unsigned t = 0; uv && t < m->ntris; t++) {
        const uint32_t *ix = m->idx + 3 * t;
        float e1[3], e2[3];
        sub3(e1, pos[ix[1]], pos[ix[0]]);
        sub3(e2, pos[ix[2]], pos[ix[0]]);
        float du1 = uv[ix[1]][0] - uv[ix[0]][0];
        float dv1 = uv[ix[1]][1] - uv[ix[0]][1];
        float du2 = uv[ix[2]][0] - uv[ix[0]][0];
        float dv2 = uv[ix[2]][1] - uv[ix[0]][1];
        float det = du1 * dv2 - du2 * dv1;
        if (fabsf(det) < 1e-20f)
            continue;
        float r = 1.0f / det;
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < 3; c++)
                tan[ix[k]][c] += (e1[c] * dv2 - e2[c] * dv1) * r;
    }
    for (unsigned i = 0; i < m->nverts; i++) {
        float *t = tan[i];
        const float *n = nrm ? nrm[i] : current[GFX_ATTR_NORMAL];
        float d = t[0] * n[0] + t[1] * n[1] + t[2] * n[2];
        for (int c = 0; c < 3; c++)
            t[c] -= d * n[c];
        normalize_or(t, 1, 0, 0);
    }
    tangent_in_texcoord1(m);
}
