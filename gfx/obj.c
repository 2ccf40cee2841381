/*
 * Wavefront OBJ loader: `v x y z [w]`, `vt u [v [w]]`, `vn x y z` and
 * `f a b c ...` with corners `v`, `v/vt`, `v//vn` or `v/vt/vn`; negative
 * indices count back from the latest element (OBJ spec, Wavefront Advanced
 * Visualizer manual, appendix B1).  Polygons are triangulated as fans from
 * their first corner.  Other statements (o, g, s, usemtl, mtllib, l, p...)
 * are ignored.  Counts are checked against GFX_MAX_MESH_VERTS/TRIS, and
 * every array is charged to the caller's budget before it grows.
 *
 * Distinct (v, vt, vn) corners become the mesh's vertices in the order of
 * their first use.  They are found by sorting the corners (three stable
 * counting sorts, one per index; without vt and vn, a table of the v's),
 * which takes linear time whatever the indices: no input can aim at it,
 * as crafted keys could at a hash table.
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
    struct gfx_budget *budget;
    size_t charged;            /* by the arrays above                    */
    struct us_diag *diag;
};

static bool err(struct obj_ctx *c, const char *at, const char *msg)
{
    return gfx_fail(c->diag, c->line, (unsigned)(at - c->line_start) + 1,
                    "%s", msg);
}

/* Double an array of `size`-byte elements (`first` to start with), the
 * new bytes charged first. */
static bool grow(struct obj_ctx *c, const char *at, void **array,
                 size_t *cap, size_t size, size_t first)
{
    size_t ncap = *cap ? 2 * *cap : first, more = (ncap - *cap) * size;
    if (!gfx_budget_take(c->budget, more, 1, "the OBJ's arrays", c->diag)) {
        char m[sizeof c->diag->msg];
        memcpy(m, c->diag->msg, sizeof m);
        return err(c, at, m);
    }
    void *p = gfx_huge_realloc(*array, *cap * size, ncap * size);
    if (!p) {
        gfx_budget_give(c->budget, more);
        return err(c, at, "out of memory");
    }
    c->charged += more;
    *array = p;
    *cap = ncap;
    return true;
}

/* Room for `want` elements of `size` bytes in an empty array, charged,
 * when the budget has it (else the array grows as it fills, each step
 * charged then, as the serial parse needs it). */
static void reserve(struct obj_ctx *c, void **array, size_t *cap,
                    size_t size, size_t want)
{
    struct us_diag refused;
    if (!want || !gfx_budget_take(c->budget, want, size, "", &refused))
        return;
    void *p = gfx_huge_alloc(want * size);
    if (!p) {
        gfx_budget_give(c->budget, want * size);
        return;
    }
    c->charged += want * size;
    *array = p;
    *cap = want;
}

/* The arrays sized from a count of the v, vt, vn and f lines (3 corners
 * a face: all of a triangle mesh's), so that they seldom grow: each
 * doubling copies an array into memory touched for the first time. */
static void presize(struct obj_ctx *c)
{
    size_t n[4] = { 0 };          /* v, vt, vn, f */
    for (const char *p = c->p; p < c->end;) {
        while (p < c->end && (*p == ' ' || *p == '\t'))
            p++;
        if (c->end - p > 2 && p[0] == 'v' && (p[1] == ' ' || p[1] == '\t'))
            n[0]++;
        else if (c->end - p > 3 && p[0] == 'v' && (p[1] == 't' || p[1] == 'n') &&
                 (p[2] == ' ' || p[2] == '\t'))
            n[p[1] == 't' ? 1 : 2]++;
        else if (c->end - p > 2 && p[0] == 'f' && (p[1] == ' ' || p[1] == '\t'))
            n[3]++;
        const char *nl = memchr(p, '\n', (size_t)(c->end - p));
        p = nl ? nl + 1 : c->end;
    }
    struct vec_list *l[3] = { &c->pos, &c->tex, &c->nrm };
    for (int k = 0; k < 3; k++)
        reserve(c, (void **)&l[k]->v, &l[k]->cap, sizeof *l[k]->v,
                n[k] < GFX_MAX_MESH_VERTS ? n[k] : GFX_MAX_MESH_VERTS);
    reserve(c, (void **)&c->corners, &c->cap, sizeof *c->corners,
            3 * (n[3] < GFX_MAX_MESH_TRIS ? n[3] : GFX_MAX_MESH_TRIS));
}

static bool push_vec(struct obj_ctx *c, struct vec_list *l, const float v[4],
                     const char *at)
{
    if (l->n >= GFX_MAX_MESH_VERTS)
        return err(c, at, "too many vertex elements for the mesh limit");
    if (l->n == l->cap &&
        !grow(c, at, (void **)&l->v, &l->cap, sizeof *l->v, 1024))
        return false;
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

static bool delimiter(char ch)
{
    return !ch || ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' ||
           ch == '#';
}

/* strtod's value of a plain decimal [+-]digits[.digits] at s that ends
 * at a delimiter, with at most 19 digits, a mantissa m <= 2^53 and at
 * most 22 after the point (false otherwise: strtod decides): m and 10^k
 * are then exact doubles and m / 10^k is one correctly rounded
 * division, which is strtod's correctly rounded result (Clinger's fast
 * path).  An OBJ's coordinates are such numbers: strtod took 8% of
 * loading one. */
static bool plain_decimal(const char *s, double *out, const char **end)
{
    static const double pow10[] = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    };
    const char *p = s + (*s == '-' || *s == '+');
    uint64_t m = 0;
    int digits = 0, frac = -1;
    for (;; p++) {
        if (*p == '.' && frac < 0) {
            frac = 0;
            continue;
        }
        if (*p < '0' || *p > '9')
            break;
        if (++digits > 19)
            return false;
        m = 10 * m + (uint64_t)(*p - '0');
        frac += frac >= 0;
    }
    if (!digits || !delimiter(*p) || m > (1ull << 53) || frac > 22)
        return false;
    double d = frac > 0 ? (double)m / pow10[frac] : (double)m;
    *out = *s == '-' ? -d : d;
    *end = p;
    return true;
}

/* A number; the text is NUL-terminated by the caller's buffer. */
static bool parse_float(struct obj_ctx *c, float *out)
{
    skip_space(c);
    const char *s = c->p;
    char *e;
    double d;
    const char *pe;
    if (plain_decimal(s, &d, &pe)) {
        *out = (float)d;
        c->p = pe;
        return true;
    }
    errno = 0;
    d = strtod(s, &e);
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
    long v = 0;
    /* up to 18 digits (< 2^63: no overflow) without strtol, as it reads
     * them; more go to strtol, which reports the overflow */
    const char *d = s + (*s == '-' || *s == '+');
    int n = 0;
    while (n < 18 && d[n] >= '0' && d[n] <= '9')
        v = 10 * v + (d[n++] - '0');
    if (n && !(d[n] >= '0' && d[n] <= '9')) {
        v = *s == '-' ? -v : v;
        e = (char *)(d + n);
    } else {
        v = strtol(s, &e, 10);
    }
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
    if (c->ncorners == c->cap &&
        !grow(c, at, (void **)&c->corners, &c->cap, sizeof *c->corners, 3072))
        return false;
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

/* inline: the keyword's length and bytes constants (no strlen, no memcmp) */
static inline __attribute__((always_inline)) bool
keyword(struct obj_ctx *c, const char *kw)
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

/* Index f of a corner as a sort key in 0 .. range-1: v, vt + 1, vn + 1
 * (absent vt and vn are -1). */
static uint32_t key(const struct corner *k, int f)
{
    return f == 0 ? (uint32_t)k->v : f == 1 ? (uint32_t)(k->t + 1)
                                            : (uint32_t)(k->n + 1);
}

/* Stable counting sort of the corner numbers `in` by index f into `out`;
 * count has range + 1 entries. */
static void sort_by(const struct corner *k, int f, uint32_t range,
                    const uint32_t *in, uint32_t *out, size_t n,
                    uint32_t *count)
{
    memset(count, 0, ((size_t)range + 1) * sizeof *count);
    for (size_t i = 0; i < n; i++)
        count[key(&k[in[i]], f) + 1]++;
    for (uint32_t r = 0; r < range; r++)
        count[r + 1] += count[r];
    for (size_t i = 0; i < n; i++)
        out[count[key(&k[in[i]], f)]++] = in[i];
}

/* remap[i]: the vertex of corner i, vertices numbered in the order of
 * their first corner; returns the vertex count.  `order` and `count`
 * are work space (ncorners entries, and one more than the largest
 * range of an index). */
static size_t dedup(const struct obj_ctx *c, uint32_t *remap,
                    uint32_t *order, uint32_t *count)
{
    const struct corner *k = c->corners;
    size_t n = c->ncorners;
    uint32_t ranges[3] = { (uint32_t)c->pos.n, (uint32_t)c->tex.n + 1,
                           (uint32_t)c->nrm.n + 1 };
    if (ranges[1] == 1 && ranges[2] == 1) {
        /* no vt, no vn: corners are equal when their v are, so each v is
         * numbered at its first corner (count: one entry a v) */
        for (uint32_t v = 0; v < ranges[0]; v++)
            count[v] = UINT32_MAX;
        uint32_t nv = 0;
        for (size_t i = 0; i < n; i++) {
            uint32_t *num = &count[k[i].v];
            if (*num == UINT32_MAX)
                *num = nv++;
            remap[i] = *num;
        }
        return nv;
    }
    /* sort by (v, vt, vn): least significant index first; each sort is
     * stable, so equal corners stay in file order */
    uint32_t *cur = order, *other = remap;
    for (size_t i = 0; i < n; i++)
        cur[i] = (uint32_t)i;
    for (int f = 2; f >= 0; f--) {
        if (ranges[f] <= 1)
            continue;  /* one value: already in order */
        sort_by(k, f, ranges[f], cur, other, n, count);
        uint32_t *t = cur;
        cur = other;
        other = t;
    }
    /* other[i]: the first corner equal to corner i (the head of its run) */
    for (size_t j = 0, head = 0; j < n; j++) {
        const struct corner *a = &k[cur[head]], *b = &k[cur[j]];
        if (a->v != b->v || a->t != b->t || a->n != b->n)
            head = j;
        other[cur[j]] = cur[head];
    }
    /* number the vertices in the order of their first corners; first[i]
     * <= i, so its number is known when corner i needs it */
    const uint32_t *first = other;
    uint32_t *num = cur;
    size_t nv = 0;
    for (size_t i = 0; i < n; i++)
        num[i] = first[i] == i ? (uint32_t)nv++ : num[first[i]];
    if (num != remap)
        memcpy(remap, num, n * sizeof *remap);
    return nv;
}

static bool build(struct obj_ctx *c, struct gfx_mesh *m)
{
    size_t n = c->ncorners, nt = n / 3;
    uint32_t range = (uint32_t)c->pos.n;
    if (c->tex.n + 1 > range)
        range = (uint32_t)c->tex.n + 1;
    if (c->nrm.n + 1 > range)
        range = (uint32_t)c->nrm.n + 1;
    size_t work = (2 * n + (size_t)range + 1) * sizeof(uint32_t);
    if (!gfx_budget_take(c->budget, work, 1, "the OBJ's vertex sort", c->diag))
        return false;
    uint32_t *remap = gfx_huge_alloc(n * sizeof *remap);
    uint32_t *order = gfx_huge_alloc(n * sizeof *order);
    uint32_t *count = gfx_huge_alloc(((size_t)range + 1) * sizeof *count);
    bool ok = remap && order && count;
    size_t nv = ok ? dedup(c, remap, order, count) : 0;
    free(order);
    free(count);
    gfx_budget_give(c->budget, work - n * sizeof *remap);
    if (!ok) {
        free(remap);
        gfx_budget_give(c->budget, n * sizeof *remap);
        return gfx_fail(c->diag, 0, 0, "out of memory");
    }
    bool have_t = false, have_n = true;
    for (size_t i = 0; i < n; i++) {
        have_t |= c->corners[i].t >= 0;
        have_n &= c->corners[i].n >= 0;
    }
    uint32_t attrs = GFX_MESH_ATTRS;
    if (!have_t)
        attrs &= ~GFX_ATTR_BIT(GFX_ATTR_TEXCOORD0);
    ok = gfx_mesh_alloc(m, nv, attrs, nt, c->budget, c->diag);
    if (ok) {
        uint32_t next = 0;        /* the vertex the next first corner makes */
        for (size_t i = 0; i < n; i++) {
            const struct corner *k = &c->corners[i];
            m->idx[i] = remap[i];
            /* a vertex's corners are equal: its first one writes it */
            if (remap[i] != next)
                continue;
            next++;
            memcpy(m->attr[GFX_ATTR_POSITION][remap[i]], c->pos.v[k->v],
                   sizeof(us_vec4));
            if (k->t >= 0)
                memcpy(m->attr[GFX_ATTR_TEXCOORD0][remap[i]], c->tex.v[k->t],
                       sizeof(us_vec4));
            if (k->n >= 0)
                memcpy(m->attr[GFX_ATTR_NORMAL][remap[i]], c->nrm.v[k->n],
                       sizeof(us_vec4));
        }
        if (!(have_n && n))
            gfx_mesh_normals(m);
        gfx_mesh_tangents(m);
    }
    free(remap);
    gfx_budget_give(c->budget, n * sizeof *remap);
    return ok;
}

bool gfx_mesh_obj(struct gfx_mesh *m, const char *text, size_t len,
                  struct gfx_budget *budget, struct us_diag *diag)
{
    memset(m, 0, sizeof *m);
    struct obj_ctx c = { .p = text, .end = text + len, .line = 1,
                         .budget = budget, .diag = diag };
    static const float pos_def[4] = { 0, 0, 0, 1 }, tex_def[4] = { 0, 0, 0, 1 },
                       nrm_def[4] = { 0, 0, 1, 1 };
    presize(&c);
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
    gfx_budget_give(budget, c.charged);
    return ok;
}
