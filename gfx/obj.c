/*
 * Wavefront OBJ loader: `v x y z [w]`, `vt u [v [w]]`, `vn x y z` and
 * `f a b c ...` with corners `v`, `v/vt`, `v//vn` or `v/vt/vn`; negative
 * indices count back from the latest element (OBJ spec, Wavefront Advanced
 * Visualizer manual, appendix B1).  Polygons are triangulated as fans from
 * their first corner.  Other statements (o, g, s, usemtl, mtllib, l, p...)
 * are ignored.  Counts are checked against GFX_MAX_MESH_VERTS/TRIS.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/gfx.h"

struct vec_list {
    float (*v)[4];
    size_t n, cap;
};

struct corner { int32_t v, t, n; };

struct obj_ctx {
    const char *p, *end, *line_start;
    unsigned line;
    struct vec_list pos, tex, nrm;
    struct corner *corners;    /* 3 per triangle */
    size_t ncorners, cap;
    struct us_diag *diag;
};

static bool err(struct obj_ctx *c, const char *at, const char *msg)
{
    return gfx_fail(c->diag, c->line, (unsigned)(at - c->line_start) + 1,
                    "%s", msg);
}

static bool push_vec(struct obj_ctx *c, struct vec_list *l, const float v[4],
                     const char *at)
{
    if (l->n >= GFX_MAX_MESH_VERTS)
        return err(c, at, "too many vertex elements for the mesh limit");
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 1024;
        void *p = realloc(l->v, cap * sizeof *l->v);
        if (!p)
            return err(c, at, "out of memory");
        l->v = p;
        l->cap = cap;
    }
    memcpy(l->v[l->n++], v, 4 * sizeof(float));
    return true;
}

static void skip_space(struct obj_ctx *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r'))
        c->p++;
}

static bool at_eol(struct obj_ctx *c)
{
    skip_space(c);
    return c->p >= c->end || *c->p == '\n' || *c->p == '#';
}

/* A number; the text is NUL-terminated by the caller's buffer. */
static bool parse_float(struct obj_ctx *c, float *out)
{
    skip_space(c);
    const char *s = c->p;
    char *e;
    errno = 0;
    double d = strtod(s, &e);
    if (e == s || (*e && *e != ' ' && *e != '\t' && *e != '\r' && *e != '\n' && *e != '#'))
        return err(c, s, "expected a number");
    if (!isfinite(d) || fabs(d) > 3.0e38)
        return err(c, s, "number out of range");
    *out = (float)d;
    c->p = e;
    return true;
}

/* vertex-statement: KEYWORD number{min,4} */
static bool parse_vec(struct obj_ctx *c, struct vec_list *l, int min,
                      int max, const float def[4])
{
    const char *start = c->p;
    float v[4];
    memcpy(v, def, sizeof v);
    int n = 0;
    while (!at_eol(c)) {
        if (n == max)
            return err(c, c->p, "too many numbers");
        if (!parse_float(c, &v[n++]))
            return false;
    }
    if (n < min)
        return err(c, c->p, "too few numbers");
    return push_vec(c, l, v, start);
}

/* One index: a non-zero integer; negative counts back from `count`.
 * Returns the 0-based index, -1 when absent (empty field). */
static bool parse_index(struct obj_ctx *c, size_t count, int32_t *out,
                        bool optional)
{
    const char *s = c->p;
    if (optional && (s >= c->end || *s == '/' || *s == ' ' || *s == '\t' ||
                     *s == '\r' || *s == '\n' || *s == '#')) {
        *out = -1;
        return true;
    }
    char *e;
    errno = 0;
    long v = strtol(s, &e, 10);
    if (e == s)
        return err(c, s, "expected a vertex index");
    if (errno || v == 0 || v > (long)count || v < -(long)count)
        return err(c, s, v == 0 ? "index 0 is not valid (OBJ counts from 1)"
                                : "index out of range");
    *out = (int32_t)(v > 0 ? v - 1 : (long)count + v);
    c->p = e;
    return true;
}

static bool parse_corner(struct obj_ctx *c, struct corner *k)
{
    k->t = k->n = -1;
    if (!parse_index(c, c->pos.n, &k->v, false))
        return false;
    if (c->p < c->end && *c->p == '/') {
        c->p++;
        if (!parse_index(c, c->tex.n, &k->t, true))
            return false;
        if (c->p < c->end && *c->p == '/') {
            c->p++;
            if (!parse_index(c, c->nrm.n, &k->n, true))
                return false;
        }
    }
    return true;
}

static bool push_corner(struct obj_ctx *c, const struct corner *k,
                        const char *at)
{
    if (c->ncorners / 3 >= GFX_MAX_MESH_TRIS)
        return err(c, at, "too many triangles for the mesh limit");
    if (c->ncorners == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 3072;
        void *p = realloc(c->corners, cap * sizeof *c->corners);
        if (!p)
            return err(c, at, "out of memory");
        c->corners = p;
        c->cap = cap;
    }
    c->corners[c->ncorners++] = *k;
    return true;
}

/* face-statement: "f" corner corner corner {corner} */
static bool parse_face(struct obj_ctx *c)
{
    struct corner first, prev, cur;
    int n = 0;
    while (!at_eol(c)) {
        const char *at = c->p;
        if (!parse_corner(c, &cur))
            return false;
        if (n >= 2 && (!push_corner(c, &first, at) ||
                       !push_corner(c, &prev, at) || !push_corner(c, &cur, at)))
            return false;
        if (n == 0)
            first = cur;
        prev = cur;
        n++;
    }
    if (n < 3)
        return err(c, c->p, "a face needs at least 3 vertices");
    return true;
}

static bool keyword(struct obj_ctx *c, const char *kw)
{
    size_t n = strlen(kw);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, kw, n))
        return false;
    char after = c->p + n < c->end ? c->p[n] : '\n';
    if (after != ' ' && after != '\t' && after != '\r' && after != '\n')
        return false;
    c->p += n;
    return true;
}

/* Unique (v, vt, vn) corners become mesh vertices (open-addressing hash). */
static bool build(struct obj_ctx *c, struct gfx_mesh *m)
{
    size_t nt = c->ncorners / 3;
    size_t hcap = 1;
    while (hcap < 2 * c->ncorners + 2)
        hcap *= 2;
    uint32_t *table = malloc(hcap * sizeof *table);
    uint32_t *remap = malloc((c->ncorners + 1) * sizeof *remap);
    size_t nv = 0;
    bool ok = table && remap;
    if (ok) {
        memset(table, 0xff, hcap * sizeof *table);
        for (size_t i = 0; i < c->ncorners; i++) {
            const struct corner *k = &c->corners[i];
            uint32_t h = (uint32_t)k->v * 2654435761u ^
                         (uint32_t)k->t * 40503u ^ (uint32_t)k->n * 97u;
            size_t slot = h & (hcap - 1);
            while (table[slot] != UINT32_MAX) {
                const struct corner *o = &c->corners[table[slot]];
                if (o->v == k->v && o->t == k->t && o->n == k->n)
                    break;
                slot = (slot + 1) & (hcap - 1);
            }
            if (table[slot] == UINT32_MAX) {
                table[slot] = (uint32_t)i;
                remap[i] = (uint32_t)nv++;
            } else {
                remap[i] = remap[table[slot]];
            }
        }
    }
    ok = ok && gfx_mesh_alloc(m, nv, nt, c->diag);
    if (ok) {
        bool have_t = false, have_n = true;
        for (size_t i = 0; i < c->ncorners; i++) {
            const struct corner *k = &c->corners[i];
            struct gfx_vertex *v = &m->verts[remap[i]];
            m->idx[i] = remap[i];
            memcpy(v->attr[GFX_ATTR_POSITION], c->pos.v[k->v], 4 * sizeof(float));
            if (k->t >= 0) {
                memcpy(v->attr[GFX_ATTR_TEXCOORD0], c->tex.v[k->t], 4 * sizeof(float));
                have_t = true;
            }
            if (k->n >= 0)
                memcpy(v->attr[GFX_ATTR_NORMAL], c->nrm.v[k->n], 4 * sizeof(float));
            else
                have_n = false;
        }
        m->attr_mask = 1u << GFX_ATTR_POSITION;
        if (have_t)
            m->attr_mask |= 1u << GFX_ATTR_TEXCOORD0;
        if (have_n && c->ncorners)
            m->attr_mask |= 1u << GFX_ATTR_NORMAL;
        else
            gfx_mesh_normals(m);
        gfx_mesh_tangents(m);
    } else if (!table || !remap) {
        gfx_fail(c->diag, 0, 0, "out of memory");
    }
    free(table);
    free(remap);
    return ok;
}

bool gfx_mesh_obj(struct gfx_mesh *m, const char *text, size_t len,
                  struct us_diag *diag)
{
    memset(m, 0, sizeof *m);
    struct obj_ctx c = { .p = text, .end = text + len, .line = 1,
                         .diag = diag };
    static const float pos_def[4] = { 0, 0, 0, 1 }, tex_def[4] = { 0, 0, 0, 1 },
                       nrm_def[4] = { 0, 0, 1, 1 };
    bool ok = true;
    while (ok && c.p < c.end) {
        c.line_start = c.p;
        skip_space(&c);
        if (keyword(&c, "v"))
            ok = parse_vec(&c, &c.pos, 3, 4, pos_def);
        else if (keyword(&c, "vt"))
            ok = parse_vec(&c, &c.tex, 1, 3, tex_def);
        else if (keyword(&c, "vn"))
            ok = parse_vec(&c, &c.nrm, 3, 3, nrm_def);
        else if (keyword(&c, "f"))
            ok = parse_face(&c);
        else if (c.p < c.end && *c.p == '\0')
            ok = err(&c, c.p, "NUL byte in OBJ text");
        /* anything else: skip the line */
        if (!ok)
            break;
        while (c.p < c.end && *c.p != '\n') {
            if (*c.p == '\0') {
                ok = err(&c, c.p, "NUL byte in OBJ text");
                break;
            }
            c.p++;
        }
        if (c.p < c.end)
            c.p++;
        c.line++;
    }
    if (ok && c.ncorners == 0)
        ok = gfx_fail(diag, 0, 0, "OBJ file has no faces");
    if (ok)
        ok = build(&c, m);
    free(c.pos.v);
    free(c.tex.v);
    free(c.nrm.v);
    free(c.corners);
    return ok;
}
