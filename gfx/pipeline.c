/*
 * Drawing one indexed mesh (SPEC §6): vertex fetch with ARB_vertex_program's
 * attribute aliasing, vertex shading in batches, primitive assembly,
 * clipping (user clip planes too), perspective divide, viewport transform,
 * fixed-point triangle setup, 2x2-quad rasterization with perspective-
 * correct interpolation (flat: the provoking vertex's value, the last of
 * the triangle as GL's default; noperspective: linear in window space),
 * fragment shading in quads, KIL, fog, depth test and blending; this
 * file is the draw level (vertices, clipping, the host threads),
 * gfx/fragment.c the fragment stage of one slice of bands.
 * Shading goes only through d->backend; batches and quads are visited in
 * submission order, so every backend sees the same threads in the same
 * order and the image does not depend on the backend.
 *
 * Host threads (gfx_draw.jobs, on gfx_draw.pool when the render keeps
 * them): the draws of a render are one chain of tasks (struct chain)
 * that the workers take in order, each waiting only for what it reads;
 * the vertex batches are dealt out in contiguous runs, one per worker,
 * each on its worker's thread records; the fragments by bands of screen
 * rows grouped in slices (band b in slice b % slices); a slice goes
 * through every triangle in submission order (past those whose bounding
 * box, computed once a draw, meets none of its bands) and shades only
 * the quads of its own bands.  A pixel is then written by one slice, in
 * the serial order of its fragments, so depth and blending see what they
 * see serially, whichever worker runs it; the counts are summed in slice
 * order, each triangle's by one slice.  A stage whose program writes
 * memory (stores, atomics) runs on one worker, in the serial order.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/fragment.h"
#include "shader/host_thread.h"
#include "shader/interp_soa.h"

/* SLICES: the fragment stage of a draw on n > 1 workers is cut into
 * SLICES * n band sets that the workers take in turn as they finish, so
 * that a worker the host preempts (or a slower set) does not hold the
 * others up at the end of the draw: the last slice leaves a core idle
 * for at most its own time.  A slice costs little past its triangles
 * (their slices are found once a draw, as bits); what costs is a
 * triangle on bands of several slices, clipped and set up by each, so
 * the bands are as tall as slice_band allows.  bunny.scn at 512x512 on
 * 2 workers, callgrind: 8 slices of 32-pixel square tiles (before the
 * bands) +0.6% instructions over 4. */
enum { VERTEX_BATCH = 32, SLICES = 4 };

void gfx_state_init(struct gfx_state *s)
{
    memset(s, 0, sizeof *s);
    s->depth_test = true;
    s->depth_write = true;
    s->cull = GFX_CULL_NONE;
}

/* ARB_vertex_program §2.14.3.1 table X.2: conventional attributes alias
 * generic ones (position = 0, weight = 1, normal = 2, color = 3, secondary
 * color = 4, fog coordinate = 5, texcoord[n] = 8 + n).  The mesh stores
 * the generic slots; both names read the same value. */
static void fetch_vertex(const struct gfx_mesh *m, unsigned v,
                         struct us_thread *t)
{
    static const uint8_t alias[][2] = {
        { US_VIN_POSITION, 0 }, { US_VIN_WEIGHT, 1 }, { US_VIN_NORMAL, 2 },
        { US_VIN_COLOR0, 3 },   { US_VIN_COLOR1, 4 }, { US_VIN_FOGCOORD, 5 },
    };
    us_vec4 *generic = &t->input[US_VIN_ATTRIB0];
    for (unsigned g = 0; g < GFX_ATTR_COUNT; g++)
        memcpy(generic[g], m->attr[g] ? m->attr[g][v] : gfx_attr_default(g),
               sizeof(us_vec4));
    for (size_t i = 0; i < sizeof alias / sizeof alias[0]; i++)
        memcpy(t->input[alias[i][0]], generic[alias[i][1]], sizeof(us_vec4));
    for (unsigned n = 0; n < US_MAX_TEX_COORDS; n++)
        memcpy(t->input[US_VIN_TEXCOORD0 + n], generic[GFX_ATTR_TEXCOORD0 + n],
               sizeof(us_vec4));
}

/* GL 3.0 §2.17: the clip distances of the enabled planes for a vertex
 * program that does not write result.clipdistance: plane . p, with p the
 * eye-space point result.clipvertex, for a position-invariant program the
 * modelview transform of the position (ARB_vertex_program), else the
 * program's result.position itself (GLSL 1.30 §7.1). */
static void clip_distances(const struct gfx_draw *d, const float *in_pos,
                           const float *clipvertex, struct gfx_cvert *o)
{
    const struct us_program *vp = d->vp;
    float eye[4];
    if (vp->outputs_written >> US_VOUT_CLIPVERTEX & 1) {
        memcpy(eye, clipvertex, sizeof eye);
    } else if (vp->options & US_OPT_POSITION_INVARIANT) {
        const float *m = d->gl->modelview, *p = in_pos;
        for (int r = 0; r < 4; r++)
            eye[r] = m[4 * r] * p[0] + m[4 * r + 1] * p[1] +
                     m[4 * r + 2] * p[2] + m[4 * r + 3] * p[3];
    } else {
        memcpy(eye, o->pos, sizeof eye);
    }
    for (unsigned i = 0; i < US_MAX_CLIP_DISTANCES; i++) {
        const float *pl = i < US_MAX_CLIP_PLANES ? d->gl->clip_plane[i]
                                                 : (const float[4]){ 0 };
        o->vary[US_VOUT_CLIPDIST0 + i / 4][i % 4] =
            pl[0] * eye[0] + pl[1] * eye[1] + pl[2] * eye[2] + pl[3] * eye[3];
    }
}

static bool finite4(const float *p)
{
    return isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]) && isfinite(p[3]);
}

/* What follows the program for vertex record o (its position and
 * results written): the position of a position-invariant program, the
 * clip distances of the enabled planes when the program writes none,
 * the colours clamped.  in_pos: the vertex's position input; clipvertex:
 * result.clipvertex. */
static void vertex_post(const struct gfx_draw *d, struct gfx_cvert *o,
                        const float *in_pos, const float *clipvertex)
{
    if (d->vp->options & US_OPT_POSITION_INVARIANT)
        us_position_invariant(d->gl, in_pos, o->pos);
    if (d->state->clip_planes &&
        !(d->vp->outputs_written & (1ull << US_VOUT_CLIPDIST0 |
                                    1ull << US_VOUT_CLIPDIST1)))
        clip_distances(d, in_pos, clipvertex, o);
    /* ARB_vertex_program §2.14.4.5: colour results are clamped to [0, 1]
     * before interpolation. */
    static const unsigned colors[] = { US_VOUT_COLOR0, US_VOUT_COLOR1,
                                       US_VOUT_BCOLOR0, US_VOUT_BCOLOR1 };
    for (size_t k = 0; k < 4; k++)
        for (int ch = 0; ch < 4; ch++) {
            float *v = &o->vary[colors[k]][ch];
            *v = gfx_clamp01(*v);
        }
}

/* The mesh attribute vertex input `in` reads (the aliases of table X.2
 * as fetch_vertex copies them). */
static unsigned vin_attr(unsigned in)
{
    if (in < US_VIN_POSITION)
        return in - US_VIN_ATTRIB0;
    if (in < US_VIN_TEXCOORD0)
        return in - US_VIN_POSITION;
    return GFX_ATTR_TEXCOORD0 + (in - US_VIN_TEXCOORD0);
}

/* The vertex stage in the SoA executor's rows (the backend's row form of
 * the program, `rows`): each chunk's inputs are written into the rows
 * straight from the mesh's attribute planes and its results read from
 * them, with no thread record to reset, fill and read (the same bits as
 * the thread records give: the executor runs the program as the
 * reference does, and straight-line code cannot go over the budget). */
static void vertex_rows(const struct gfx_draw *d, const us_vec4 *params,
                        struct us_soa *rows, char *out, unsigned nvary,
                        size_t stride, unsigned from, unsigned to)
{
    const struct gfx_mesh *m = d->mesh;
    struct us_exec_env env = { .params = params, .math = d->math,
                               .max_insts = d->backend->max_insts,
                               .mem = d->mem };
    /* the input components the program reads, and where from */
    struct in_comp {
        float *row;
        const us_vec4 *plane;     /* NULL: the attribute's current value */
        const float *def;
        unsigned c;
    } in[4 * US_VIN_COUNT];
    unsigned nin = 0;
    uint64_t given = 0;
    for (unsigned v = 0; v < US_VIN_COUNT; v++) {
        unsigned reads = us_soa_reg_reads(rows, us_soa_input_off(v));
        given |= (uint64_t)(reads != 0) << v;
        unsigned a = vin_attr(v);
        for (unsigned c = 0; c < 4; c++)
            if (reads >> c & 1)
                in[nin++] = (struct in_comp){
                    us_soa_reg_row(rows, us_soa_input_off(v), c), m->attr[a],
                    gfx_attr_default(a), c };
    }
    const float *res[US_VOUT_COUNT][4];
    for (unsigned o = 0; o < US_VOUT_COUNT; o++)
        for (unsigned c = 0; c < 4; c++)
            res[o][c] = us_soa_result_row(rows, us_soa_output_off(o), c);
    us_soa_rows_begin(rows, &env, given);
    for (unsigned base = from; base < to; base += US_SOA_WIDTH) {
        unsigned n = to - base < US_SOA_WIDTH ? to - base : US_SOA_WIDTH;
        for (unsigned k = 0; k < nin; k++) {
            const struct in_comp *ic = &in[k];
            for (unsigned l = 0; l < n; l++)
                ic->row[l] = ic->plane ? ic->plane[base + l][ic->c]
                                       : ic->def[ic->c];
        }
        us_soa_rows_run(rows, &env, n, false);
        for (unsigned l = 0; l < n; l++) {
            struct gfx_cvert *o = (struct gfx_cvert *)(out + (base + l) * stride);
            for (unsigned c = 0; c < 4; c++)
                o->pos[c] = res[US_VOUT_POSITION][c][l];
            for (unsigned i = 0; i < nvary; i++)
                for (unsigned c = 0; c < 4; c++)
                    o->vary[i][c] = res[i][c][l];
            float clipvertex[4];
            for (unsigned c = 0; c < 4; c++)
                clipvertex[c] = res[US_VOUT_CLIPVERTEX][c][l];
            vertex_post(d, o, m->attr[GFX_ATTR_POSITION]
                                  ? m->attr[GFX_ATTR_POSITION][base + l]
                                  : gfx_attr_default(GFX_ATTR_POSITION),
                        clipvertex);
        }
    }
}

/* Vertex stage: mesh vertices [from, to) (from a multiple of
 * VERTEX_BATCH), in the executor's rows when the backend has the row
 * form of the program, else the backend's vertex_batch at a time on
 * thread records; false when a vertex went over the instruction budget,
 * with the first vertex of its batch in *failed. */
static bool shade_vertices(const struct gfx_draw *d, const us_vec4 *params,
                           struct us_thread *threads, char *out,
                           unsigned nvary, size_t stride, unsigned from,
                           unsigned to, unsigned *failed,
                           struct us_diag *diag)
{
    struct us_soa *rows = d->backend->rows_open
        ? d->backend->rows_open(d->backend->ctx, d->vp) : NULL;
    if (rows) {
        vertex_rows(d, params, rows, out, nvary, stride, from, to);
        us_soa_free(rows);
        return true;
    }
    const struct gfx_mesh *m = d->mesh;
    struct us_exec_env env = { .params = params, .math = d->math,
                               .max_insts = d->backend->max_insts,
                               .mem = d->mem };
    unsigned batch = d->backend->vertex_batch ? d->backend->vertex_batch
                                              : VERTEX_BATCH;
    if (batch > 4 * QUAD_BATCH)               /* a worker's records */
        batch = 4 * QUAD_BATCH;
    for (unsigned base = from; base < to; base += batch) {
        unsigned n = to - base < batch ? to - base : batch;
        for (unsigned i = 0; i < n; i++) {
            us_thread_reset_for(&threads[i], d->vp);
            fetch_vertex(m, base + i, &threads[i]);
        }
        d->backend->shade(d->backend->ctx, d->vp, &env, threads, n, false);
        if (gfx_overrun(threads, n, &env, "vertex", diag)) {
            *failed = base;
            return false;
        }
        for (unsigned i = 0; i < n; i++) {
            const struct us_thread *t = &threads[i];
            struct gfx_cvert *o =
                (struct gfx_cvert *)(out + (base + i) * stride);
            memcpy(o->pos, t->output[US_VOUT_POSITION], sizeof o->pos);
            memcpy(o->vary, t->output, nvary * sizeof o->vary[0]);
            vertex_post(d, o, t->input[US_VIN_POSITION],
                        t->output[US_VOUT_CLIPVERTEX]);
        }
    }
    return true;
}

/* The vertex program outputs that fragment inputs `fin` (bits of enum
 * us_fin) read. */
static uint64_t vout_mask(uint64_t fin)
{
    uint64_t m = 0;
    for (unsigned in = US_FIN_COLOR0; in < US_FIN_FACING; in++) {
        if (!(fin >> in & 1))
            continue;
        if (in == US_FIN_COLOR0)
            m |= 1ull << US_VOUT_COLOR0 | 1ull << US_VOUT_BCOLOR0;
        else if (in == US_FIN_COLOR1)
            m |= 1ull << US_VOUT_COLOR1 | 1ull << US_VOUT_BCOLOR1;
        else if (in == US_FIN_FOGCOORD)
            m |= 1ull << US_VOUT_FOGCOORD;
        else
            m |= 1ull << (US_VOUT_TEXCOORD0 + in - US_FIN_TEXCOORD0);
    }
    return m;
}

/* The fragment inputs a draw interpolates: the program's, and the fog
 * coordinate when the program asks for fog. */
static uint64_t draw_fin_mask(const struct gfx_draw *d)
{
    uint64_t m = d->fp->inputs_read;
    if (d->fp->options & (US_OPT_FOG_EXP | US_OPT_FOG_EXP2 | US_OPT_FOG_LINEAR))
        m |= 1ull << US_FIN_FOGCOORD;
    return m;
}

/* The vertex results a draw keeps per vertex, vary[0 .. n): every one up
 * to the highest varying the fragment program reads (and the clip
 * distances with user clip planes), at least position and colours.  A
 * vertex record is then offsetof(vary) + n vec4s long, so a draw of a
 * few varyings keeps what it kept before the slots grew to 32. */
static unsigned draw_nvary(const struct gfx_draw *d)
{
    uint64_t m = vout_mask(draw_fin_mask(d));
    if (d->state->clip_planes)
        m |= 1ull << US_VOUT_CLIPDIST0 | 1ull << US_VOUT_CLIPDIST1;
    unsigned n = m ? 64u - (unsigned)__builtin_clzll(m) : 0;
    return n > US_VOUT_TEXCOORD0 ? n : US_VOUT_TEXCOORD0;
}

static size_t draw_stride(unsigned nvary)
{
    return offsetof(struct gfx_cvert, vary) + nvary * sizeof(us_vec4);
}

enum { NTHREADS = 4 * QUAD_BATCH > VERTEX_BATCH ? 4 * QUAD_BATCH : VERTEX_BATCH };

/* gfx.h */
bool gfx_writes_memory(const struct us_program *prog)
{
    for (unsigned i = 0; i < prog->ninsts; i++) {
        enum us_op_format f = us_ops[prog->insts[i].op].format;
        if (f == US_FMT_STORE || f == US_FMT_ATOM)
            return true;
    }
    return false;
}

/* The workers of a draw on a w x h framebuffer: d->jobs, at most one a
 * tile. */
unsigned gfx_draw_workers(unsigned jobs, unsigned w, unsigned h)
{
    size_t tiles = (size_t)((w + TILE - 1) / TILE) * ((h + TILE - 1) / TILE);
    unsigned n = jobs > 1 ? jobs : 1;
    return n < tiles ? n : tiles ? (unsigned)tiles : 1;
}

static unsigned draw_workers(const struct gfx_draw *d, unsigned w, unsigned h)
{
    return gfx_draw_workers(d->jobs, w, h);
}

/* A triangle's bands as the slices see them (the first pass of a draw
 * on several slices, shared by them): TRI_SKIP, a vertex not finite (no
 * slice draws it); TRI_ALL, every slice goes through it (a vertex not in
 * front of the eye, w <= 0, or far outside the viewport: the guard band
 * decides); else the bands [b0, b1] that the bounding box of its
 * projected vertices meets, a pixel wider on each side (what clipping
 * leaves of a triangle in front of the eye projects inside that box; the
 * rounding of clipping and set-up is far below half a pixel), empty
 * (b0 > b1) when it misses the viewport. */
struct tri_box {
    int16_t b0, b1;
};
enum { TRI_SKIP = -2, TRI_ALL = -1 };

/* A vertex's part of its triangles' boxes, found by the vertex run
 * that shaded it (its position still in cache; a triangle's box then
 * reads three of these instead of three clip-space vertices): its kind
 * (0, TRI_SKIP: not finite, TRI_ALL: w <= 0 or beyond the guard band)
 * and the floor - 1 and ceiling + 1 of its window x and y.  The box of
 * the triangle is their minimum and maximum (floor and ceiling are
 * monotonic: the box of the bounding box of the three points). */
struct vert_box {
    int32_t x0, x1, y0, y1;
    int32_t kind;
};

/* The fragment stage on several slices cuts the screen into bands of
 * `band` whole rows, band b = rows [b band, (b + 1) band), in slice
 * b % slices.  Bands rather than square tiles: a worker writes whole
 * rows of the framebuffer, so the two workers' pixels share no cache
 * line and no prefetched stream of lines (with 64-pixel square tiles in
 * diagonals the framebuffer operations took 1.6x the CPU samples on 2
 * workers as on one, fullscreen.scn at 2048x2048, docs/perf/jobs.md),
 * and a small triangle meets fewer slices. */
static unsigned bands(unsigned band, unsigned h)
{
    return (h + band - 1) / band;
}

/* The height of the bands on `workers` workers: the largest of 4, 2 and
 * 1 times TILE that leaves each slice 2 bands or more (taller bands put
 * fewer triangles on two slices, each of which sets them up). */
static unsigned slice_band(unsigned workers, unsigned h)
{
    unsigned n = workers > 1 ? SLICES * workers : 1;
    for (unsigned t = 4 * TILE; t > TILE; t /= 2)
        if (bands(t, h) >= 2 * n)
            return t;
    return TILE;
}

/* The band sets of the fragment stage on `workers` workers: SLICES a
 * worker (one on one), at most one a band while there are as many bands
 * as workers (a slice holds no band only on an image of fewer bands than
 * workers). */
static unsigned draw_slices(unsigned workers, unsigned band, unsigned h)
{
    unsigned nb = bands(band, h);
    unsigned n = workers > 1 ? SLICES * workers : 1;
    return n < nb ? n : nb > workers ? nb : workers;
}

/* One slice's counts and outcome, merged in slice order. */
struct slice {
    struct gfx_stats stats;
    bool ran, ok;
    struct us_diag diag;
};

/* The triangles a slice may touch: a bitmap of the draw's triangles a
 * slice (touch_words of them), which the slice walks with a count of
 * trailing zeros instead of testing every triangle. */
static size_t touch_words(unsigned ntris)
{
    return ((size_t)ntris + 63) / 64;
}

/* Those bitmaps and each triangle's counting slice. */
static size_t touch_bytes(unsigned slices, unsigned ntris)
{
    return slices * touch_words(ntris) * sizeof(uint64_t) +
           ntris * sizeof(uint16_t);
}

static size_t draw_bytes(const struct gfx_draw *d, unsigned workers,
                         unsigned slices)
{
    return (d->vp->nparams + 1 + d->fp->nparams + 1) * sizeof(us_vec4) +
           ((size_t)d->mesh->nverts + 1) * draw_stride(draw_nvary(d)) +
           workers * (NTHREADS * sizeof(struct us_thread) +
                      sizeof(struct frag_batch)) +
           slices * sizeof(struct slice) +
           (slices > 1 ? touch_bytes(slices, d->mesh->ntris) +
                             ((size_t)d->mesh->nverts + 1) *
                                 sizeof(struct vert_box)
                         : 0);
}

size_t gfx_draw_bytes(const struct gfx_draw *d)
{
    unsigned n = d->jobs > 1 ? d->jobs : 1;
    return draw_bytes(d, n, n > 1 ? SLICES * n : 1);
}

static struct vert_box vert_box(const struct gfx_framebuffer *fb,
                                const float *p)
{
    if (!finite4(p))
        return (struct vert_box){ .kind = TRI_SKIP };
    if (!(p[3] > 0.0f))
        return (struct vert_box){ .kind = TRI_ALL };
    const float W = (float)fb->w, H = (float)fb->h;
    float iw = 1.0f / p[3];
    float x = (p[0] * iw + 1.0f) * 0.5f * W;
    float y = (p[1] * iw + 1.0f) * 0.5f * H;
    if (!(fabsf(x) < 4.0f * W + 4.0f && fabsf(y) < 4.0f * H + 4.0f))
        return (struct vert_box){ .kind = TRI_ALL };
    /* floor and ceiling (|x| < 2^24: the truncation is exact) */
    int ix = (int)x, iy = (int)y;
    return (struct vert_box){
        ix - (x < (float)ix) - 1, ix + (x > (float)ix) + 1,
        iy - (y < (float)iy) - 1, iy + (y > (float)iy) + 1, 0,
    };
}

static struct tri_box tri_box(const struct gfx_framebuffer *fb, int band,
                              const struct vert_box *v[3])
{
    const struct tri_box all = { TRI_ALL, 0 }, none = { 0, -1 };
    if (v[0]->kind == TRI_SKIP || v[1]->kind == TRI_SKIP ||
        v[2]->kind == TRI_SKIP)
        return (struct tri_box){ TRI_SKIP, 0 };
    if (v[0]->kind || v[1]->kind || v[2]->kind)
        return all;
    int px0 = v[0]->x0, px1 = v[0]->x1, py0 = v[0]->y0, py1 = v[0]->y1;
    for (int i = 1; i < 3; i++) {
        px0 = v[i]->x0 < px0 ? v[i]->x0 : px0;
        px1 = v[i]->x1 > px1 ? v[i]->x1 : px1;
        py0 = v[i]->y0 < py0 ? v[i]->y0 : py0;
        py1 = v[i]->y1 > py1 ? v[i]->y1 : py1;
    }
    int fw = (int)fb->w, fh = (int)fb->h;
    px0 = px0 < 0 ? 0 : px0;
    py0 = py0 < 0 ? 0 : py0;
    px1 = px1 >= fw ? fw - 1 : px1;
    py1 = py1 >= fh ? fh - 1 : py1;
    if (px0 > px1 || py0 > py1)
        return none;
    return (struct tri_box){ (int16_t)(py0 / band), (int16_t)(py1 / band) };
}

/* Triangle tix, of box b, in the bitmaps (`map`, `words` words a slice)
 * of the n slices that may own a quad of it; returns the one that
 * counts its pieces: the owner of the box's lowest band (it goes through
 * the triangle), or slice 0 when the box does not apply. */
static unsigned touch(struct tri_box b, unsigned n, uint64_t *map,
                      size_t words, unsigned tix)
{
    if (b.b0 == TRI_SKIP || (b.b0 != TRI_ALL && b.b0 > b.b1))
        return 0;                  /* not drawn, or outside the viewport */
    unsigned d0 = b.b0 == TRI_ALL ? 0 : (unsigned)b.b0;
    unsigned d1 = b.b0 == TRI_ALL ? n - 1 : (unsigned)b.b1;
    uint64_t *w = map + tix / 64, bit = 1ull << (tix % 64);
    if (d1 - d0 + 1 >= n)
        for (unsigned k = 0; k < n; k++)
            w[k * words] |= bit;
    else
        for (unsigned d = d0; d <= d1; d++)
            w[d % n * words] |= bit;
    return d0 % n;
}

/* The outcome of one vertex run. */
struct vrun {
    bool ran, ok;
    unsigned vfailed;             /* the first vertex of a failed batch */
    struct us_diag diag;
};

/* One draw of a chain (gfx_draw_meshes): its tasks, numbered from
 * `first`: a prepare task (budget, memory, parameters), nv vertex runs
 * (contiguous runs of batches), nb box runs (contiguous runs of
 * triangles; none on one slice) and nslices fragment slices. */
struct draw_job {
    const struct gfx_draw *d;
    struct gfx_framebuffer *fb;
    unsigned first, ntasks, nv, nb, nslices, nw;
    int band;                     /* the rows of the slices' bands     */
    bool alone;                   /* it writes memory, or the one before
                                     does: it runs after that one only  */
    /* made by the prepare task; the big parts freed by the last task */
    size_t bytes;
    us_vec4 *vparams, *fparams;
    char *cv;                     /* the clip-space vertices            */
    unsigned nvary;
    size_t stride;
    struct draw_ctx proto;        /* the fragment stage's common part  */
    struct gfx_clip_spec spec;
    uint64_t *touch;              /* with several slices: each one's
                                     triangles (touch_words a slice) */
    uint16_t *owner;              /* and the slice that counts each     */
    struct vert_box *vbox;        /* and each vertex's part of its box  */
    struct slice *slices;         /* kept to the end: the counts        */
    struct vrun *vruns;
    /* progress, under the chain's lock */
    bool prepared, prep_ok, released;
    unsigned v_left, b_left, tasks_left;
    bool *slice_done;
    struct us_diag prep_diag;
};

/* The draws of a chain and the lock of their progress.  The tasks are
 * taken in order from one counter, each waiting for those it needs: a
 * draw's vertex runs for its prepare task, its box runs for its vertex
 * runs, its slices for its box runs and for the same slice of the draw
 * before (the same bands: their pixels see the draws' fragments in
 * order).  A worker done with the slices of a draw goes on to the next
 * draw's vertices and the slices whose bands are done, so no core waits
 * at the end of each draw.  Every task a task waits for was taken
 * before it, by a worker that runs it: no deadlock. */
struct chain {
    struct draw_job *jobs;
    unsigned n, ntasks;
    atomic_uint next;             /* the next task a worker takes       */
    atomic_bool stop;             /* a draw failed: take no more tasks  */
    unsigned first_lost;          /* the first draw that failed (or n)  */
    pthread_mutex_t mu;
    pthread_cond_t cond;          /* a task ended                        */
};

struct worker {
    struct chain *ch;
    unsigned index;
    /* thread records: touched only when the backend shades them (a core
     * model, or a program the SoA executor does not take), so that on
     * the row path their 1.4 MB cost no page clearing */
    struct us_thread *threads;
    struct frag_batch batch;
    pthread_t tid;
    bool started;                 /* tid runs it                       */
};

/* The big parts of a finished draw, and its budget (under the lock). */
static void release(struct draw_job *j)
{
    free(j->vparams);
    free(j->fparams);
    free(j->cv);
    free(j->touch);
    free(j->owner);
    free(j->vbox);
    j->vparams = j->fparams = NULL;
    j->cv = NULL;
    j->touch = NULL;
    j->owner = NULL;
    j->vbox = NULL;
    if (j->bytes)
        gfx_budget_give(j->d->budget, j->bytes);
    j->bytes = 0;
    j->released = true;
}

/* Whether the draws before job k are all finished (under the lock). */
static bool before_released(const struct chain *ch, unsigned k)
{
    return k == 0 || ch->jobs[k - 1].released;
}

static void wait_locked(struct chain *ch)
{
    pthread_cond_wait(&ch->cond, &ch->mu);
}

/* The draw's checks, budget and memory, its parameters and the
 * fragment stage's common part; false with prep_diag on failure. */
static bool prepare(struct chain *ch, struct draw_job *j, unsigned k)
{
    const struct gfx_draw *d = j->d;
    struct us_diag *diag = &j->prep_diag;
    if (d->vp->stage != US_STAGE_VERTEX || d->fp->stage != US_STAGE_FRAGMENT)
        return gfx_fail(diag, 0, 0, "draw needs a vertex and a fragment program");
    /* what an RGBA8 framebuffer may lack (gfx_fb_alloc_rgba8) */
    if (d->state->blend && !j->fb->color)
        return gfx_fail(diag, 0, 0, "a draw that blends needs a float "
                        "colour buffer");
    if (d->state->depth_test && !j->fb->depth)
        return gfx_fail(diag, 0, 0, "a draw that tests depth needs a depth "
                        "buffer");
    if (!us_check_varying_slots(d->vp, d->backend->varying_slots, diag) ||
        !us_check_varying_slots(d->fp, d->backend->varying_slots, diag))
        return false;
    const struct gfx_mesh *m = d->mesh;
    size_t bytes = draw_bytes(d, j->nw, j->nslices);
    char what[80];
    snprintf(what, sizeof what, "drawing %u vertices", m->nverts);
    /* taken as the serial draw takes it, with the draws before given
     * back: while one still runs, a refusal waits for it to finish */
    pthread_mutex_lock(&ch->mu);
    bool taken;
    while (!(taken = gfx_budget_take(d->budget, bytes, 1, what, diag)) &&
           !before_released(ch, k) && ch->first_lost > k)
        wait_locked(ch);
    pthread_mutex_unlock(&ch->mu);
    if (!taken)
        return false;
    j->bytes = bytes;
    j->vparams = malloc((d->vp->nparams + 1) * sizeof *j->vparams);
    j->fparams = malloc((d->fp->nparams + 1) * sizeof *j->fparams);
    j->nvary = draw_nvary(d);
    j->stride = draw_stride(j->nvary);
    j->cv = gfx_huge_alloc(((size_t)m->nverts + 1) * j->stride);
    bool boxes = j->nslices > 1 && m->ntris;
    if (boxes) {
        j->touch = malloc(j->nslices * touch_words(m->ntris) *
                          sizeof *j->touch);
        j->owner = malloc(m->ntris * sizeof *j->owner);
        j->vbox = malloc(((size_t)m->nverts + 1) * sizeof *j->vbox);
    }
    if (!j->vparams || !j->fparams || !j->cv ||
        (boxes && (!j->touch || !j->owner || !j->vbox)))
        return gfx_fail(diag, 0, 0, "out of memory while drawing");
    us_resolve_params(d->vp, d->gl, j->vparams);
    us_resolve_params(d->fp, d->gl, j->fparams);
    j->proto = (struct draw_ctx){
        .fb = j->fb, .d = d, .band = j->band,
        .fenv = { .params = j->fparams, .math = d->math, .sample = gfx_sample,
                  .sample_quad = gfx_sample_quad,
                  .max_insts = d->backend->max_insts, .mem = d->mem },
        .fin_mask = draw_fin_mask(d),
        .fog = (d->fp->options & (US_OPT_FOG_EXP | US_OPT_FOG_EXP2 |
                                  US_OPT_FOG_LINEAR)) != 0,
    };
    /* interpolation: the program's qualifiers; the colours without one
     * follow the shade model (GL 3.0 §2.19.7) */
    uint64_t colors = 1ull << US_FIN_COLOR0 | 1ull << US_FIN_COLOR1;
    const struct us_program *fp = d->fp;
    struct draw_ctx *p = &j->proto;
    p->fin_flat = fp->interp_flat & p->fin_mask;
    p->fin_linear = fp->interp_linear & p->fin_mask & ~p->fin_flat;
    if (d->state->flat_shade)
        p->fin_flat |= p->fin_mask & colors &
                       ~(fp->interp_smooth | fp->interp_linear);
    /* varyings the clipper must carry, the noperspective ones among them */
    j->spec = (struct gfx_clip_spec){
        .vary_mask = vout_mask(p->fin_mask),
        .linear_mask = vout_mask(p->fin_linear),
        .planes = d->state->clip_planes,
    };
    return true;
}

/* Vertex run i: a contiguous run of whole batches. */
static void vertex_run(struct worker *w, struct draw_job *j, unsigned i)
{
    unsigned nv = j->d->mesh->nverts;
    unsigned nb = (nv + VERTEX_BATCH - 1) / VERTEX_BATCH;
    unsigned b0 = (unsigned)((uint64_t)nb * i / j->nv);
    unsigned b1 = (unsigned)((uint64_t)nb * (i + 1) / j->nv);
    unsigned to = b1 * VERTEX_BATCH < nv ? b1 * VERTEX_BATCH : nv;
    struct vrun *r = &j->vruns[i];
    r->ran = true;
    r->ok = shade_vertices(j->d, j->vparams, w->threads, j->cv, j->nvary,
                           j->stride, b0 * VERTEX_BATCH, to, &r->vfailed,
                           &r->diag);
    for (unsigned v = b0 * VERTEX_BATCH; r->ok && j->vbox && v < to; v++)
        j->vbox[v] = vert_box(j->fb, ((const struct gfx_cvert *)
                                          (j->cv + v * j->stride))->pos);
}

/* Box run i: the slices of a contiguous run of triangles, whole words
 * of the bitmaps (no word is another run's). */
static void box_run(struct draw_job *j, unsigned i)
{
    const struct gfx_mesh *m = j->d->mesh;
    size_t words = touch_words(m->ntris);
    size_t w0 = words * i / j->nb, w1 = words * (i + 1) / j->nb;
    for (unsigned s = 0; s < j->nslices; s++)
        memset(j->touch + s * words + w0, 0, (w1 - w0) * sizeof *j->touch);
    unsigned t1 = 64 * w1 < m->ntris ? (unsigned)(64 * w1) : m->ntris;
    for (unsigned tix = (unsigned)(64 * w0); tix < t1; tix++) {
        const uint32_t *ix = m->idx + 3 * tix;
        const struct vert_box *in[3] = { &j->vbox[ix[0]], &j->vbox[ix[1]],
                                         &j->vbox[ix[2]] };
        j->owner[tix] = (uint16_t)touch(tri_box(j->fb, j->band, in),
                                        j->nslices, j->touch, words, tix);
    }
}

/* Every triangle in order, the quads of slice `slice`'s bands, on worker
 * w's thread records; the counts and outcome go to the slice's record
 * (built on the stack: workers write no shared cache line per fragment). */
static void fragment_slice(struct worker *w, struct draw_job *j,
                           unsigned slice)
{
    const struct gfx_draw *d = j->d;
    const struct gfx_mesh *m = d->mesh;
    struct draw_ctx c = j->proto;
    struct gfx_stats stats = { 0 };
    struct us_diag diag = { 0 };
    struct gfx_sampler sampler;
    c.stats = &stats;
    c.diag = &diag;
    c.threads = w->threads;
    c.batch = &w->batch;
    c.worker = slice;
    c.nworkers = j->nslices;
    memcpy(sampler.unit, d->state->tex, sizeof sampler.unit);
    sampler.samples = 0;
    c.fenv.sample_ctx = &sampler;
    /* the slice's triangles: every one on one slice, else its bitmap's */
    const uint64_t *bits = c.nworkers > 1
        ? j->touch + slice * touch_words(m->ntris) : NULL;
    size_t words = touch_words(m->ntris);
    uint64_t left = 0;
    unsigned tix = 0, base = 0;
    for (size_t k = 0; !c.failed;) {
        if (bits) {
            while (!left && k < words)
                left = bits[k++];
            if (!left)
                break;
            tix = (unsigned)(64 * (k - 1)) + (unsigned)__builtin_ctzll(left);
            left &= left - 1;
        } else if ((tix = base++) >= m->ntris) {
            break;
        }
        const uint32_t *ix = m->idx + 3 * tix;
        const struct gfx_cvert *in[3] = {
            (const struct gfx_cvert *)(j->cv + ix[0] * j->stride),
            (const struct gfx_cvert *)(j->cv + ix[1] * j->stride),
            (const struct gfx_cvert *)(j->cv + ix[2] * j->stride),
        };
        unsigned owner = c.nworkers > 1 ? j->owner[tix] : 0;
        if (c.nworkers == 1 && (!finite4(in[0]->pos) ||
                                !finite4(in[1]->pos) || !finite4(in[2]->pos)))
            continue;
        c.count_prims = owner == slice;
        struct gfx_cvert poly[GFX_CLIP_MAX_VERTS];
        unsigned n = gfx_clip_polygon(in, &j->spec, poly);
        if (n >= 3)
            gfx_frag_polygon(&c, poly, n, in[2]);
    }
    /* slice 0 counts the triangles, up to a failed one */
    if (slice == 0)
        stats.triangles = c.failed ? tix + 1 : m->ntris;
    struct slice *out = &j->slices[slice];
    out->ran = true;
    out->ok = !c.failed && gfx_frag_flush(&c);
    gfx_frag_end(&c);
    stats.tex_samples += sampler.samples;
    out->stats = stats;
    out->diag = diag;
}

/* Task t of job k (numbered within the draw): wait for what it needs,
 * run it unless this draw or one before failed, record its end. */
static void run_task(struct worker *w, struct chain *ch, unsigned k,
                     unsigned t)
{
    struct draw_job *j = &ch->jobs[k];
    const struct draw_job *prev = k ? &ch->jobs[k - 1] : NULL;
    enum { PREPARE, VERTEX, BOX, SLICE } kind;
    unsigned part;
    if (t == 0)
        kind = PREPARE, part = 0;
    else if (t < 1 + j->nv)
        kind = VERTEX, part = t - 1;
    else if (t < 1 + j->nv + j->nb)
        kind = BOX, part = t - 1 - j->nv;
    else
        kind = SLICE, part = t - 1 - j->nv - j->nb;
    pthread_mutex_lock(&ch->mu);
    for (;;) {
        bool ready;
        if (kind == PREPARE)
            ready = !prev || (j->alone ? prev->released : prev->prepared);
        else if (kind == VERTEX)
            ready = j->prepared;
        else if (kind == BOX)
            ready = j->prepared && !j->v_left;
        else
            ready = j->prepared && !j->v_left && !j->b_left &&
                    (!prev || prev->released ||
                     (prev->nslices == j->nslices &&
                      prev->band == j->band && !j->alone &&
                      prev->slice_done[part]));
        if (ready || ch->first_lost <= k)
            break;
        wait_locked(ch);
    }
    /* a draw's vertex runs all run, as the serial loop's batches up to
     * the first that fails: its count is the first in order */
    bool go = (ch->first_lost > k || (kind == VERTEX && ch->first_lost == k)) &&
              (kind == PREPARE || j->prep_ok);
    pthread_mutex_unlock(&ch->mu);
    bool ok = true;
    if (go) {
        if (kind == PREPARE)
            ok = prepare(ch, j, k);
        else if (kind == VERTEX) {
            vertex_run(w, j, part);
            ok = j->vruns[part].ok;
        } else if (kind == BOX) {
            box_run(j, part);
        } else {
            fragment_slice(w, j, part);
            ok = j->slices[part].ok;
        }
    }
    pthread_mutex_lock(&ch->mu);
    if (kind == PREPARE) {
        j->prepared = true;
        j->prep_ok = go && ok;
    } else if (kind == VERTEX) {
        j->v_left--;
    } else if (kind == BOX) {
        j->b_left--;
    } else {
        j->slice_done[part] = true;
    }
    if (!ok) {
        if (k < ch->first_lost)
            ch->first_lost = k;
        atomic_store(&ch->stop, true);
    }
    /* a draw after a lost one never finishes: it is released at the end */
    if (--j->tasks_left == 0 && before_released(ch, k))
        for (unsigned i = k; i < ch->n && !ch->jobs[i].tasks_left &&
                             !ch->jobs[i].released; i++)
            release(&ch->jobs[i]);
    pthread_cond_broadcast(&ch->cond);
    pthread_mutex_unlock(&ch->mu);
}

/* The tasks in turn, while no draw has failed. */
static void *chain_worker(void *arg)
{
    struct worker *w = arg;
    struct chain *ch = w->ch;
    unsigned k = 0, t;
    while (!atomic_load(&ch->stop) &&
           (t = atomic_fetch_add(&ch->next, 1)) < ch->ntasks) {
        while (t >= ch->jobs[k].first + ch->jobs[k].ntasks)
            k++;
        run_task(w, ch, k, t - ch->jobs[k].first);
    }
    us_math_thread_end();
    return NULL;
}

struct pool_job {
    struct worker *w;
    void *(*fn)(void *);
};

static void pool_job(void *arg, unsigned i)
{
    struct pool_job *r = arg;
    r->fn(&r->w[i]);
}

/* fn on workers [0, n): 1.. on host threads (the pool's, or started for
 * it), 0 on this one (and any a thread could not be started for, after
 * it). */
static void run_workers(struct gfx_pool *pool, struct worker *w, unsigned n,
                        void *(*fn)(void *))
{
    if (pool) {
        struct pool_job r = { w, fn };
        gfx_pool_run(pool, n, pool_job, &r);
        return;
    }
    for (unsigned i = 1; i < n; i++)
        w[i].started = us_thread_create(&w[i].tid, fn, &w[i], i) == 0;
    fn(&w[0]);
    for (unsigned i = 1; i < n; i++)
        if (w[i].started)
            pthread_join(w[i].tid, NULL);
        else
            fn(&w[i]);
}

/* Draw k's counts into *stats; false (with *diag) when it failed, as
 * the serial draw reports it. */
static bool merge_draw(const struct draw_job *j, struct gfx_stats *stats,
                       struct us_diag *diag)
{
    if (!j->prep_ok) {
        *diag = j->prep_diag;
        return false;
    }
    const struct vrun *vf = NULL;
    for (unsigned i = 0; i < j->nv; i++)
        if (j->vruns[i].ran && !j->vruns[i].ok && (!vf || j->vruns[i].vfailed < vf->vfailed))
            vf = &j->vruns[i];
    if (vf) {
        stats->vertices += vf->vfailed;
        *diag = vf->diag;
        return false;
    }
    stats->vertices += j->d->mesh->nverts;
    /* the counts in slice order; a failure: every slice's message is the
     * one the serial draw gives (the slices after a failed one may not
     * have run: the counts of a failed draw are not the serial ones) */
    bool ok = true;
    for (unsigned i = 0; i < j->nslices; i++) {
        const struct gfx_stats *s = &j->slices[i].stats;
        stats->triangles += s->triangles;
        stats->clipped += s->clipped;
        stats->culled += s->culled;
        stats->fragments += s->fragments;
        stats->helpers += s->helpers;
        stats->killed += s->killed;
        stats->depth_failed += s->depth_failed;
        stats->written += s->written;
        stats->tex_samples += s->tex_samples;
        if (j->slices[i].ran && !j->slices[i].ok && ok) {
            *diag = j->slices[i].diag;
            ok = false;
        }
    }
    return ok;
}

unsigned gfx_draw_meshes(struct gfx_framebuffer *fb, const struct gfx_draw *d,
                         unsigned n, struct gfx_stats *stats,
                         struct us_diag *diag)
{
    struct chain ch = { .n = n, .first_lost = n };
    ch.jobs = calloc(n ? n : 1, sizeof *ch.jobs);
    if (!ch.jobs) {
        gfx_fail(diag, 0, 0, "out of memory while drawing");
        return 0;
    }
    unsigned nw = 1;
    struct gfx_pool *pool = n ? d[0].pool : NULL;
    bool ok = true, prev_mem = false;
    for (unsigned k = 0; k < n; k++) {
        struct draw_job *j = &ch.jobs[k];
        const struct gfx_mesh *m = d[k].mesh;
        bool mem = gfx_writes_memory(d[k].vp) || gfx_writes_memory(d[k].fp);
        j->d = &d[k];
        j->fb = fb;
        j->nw = draw_workers(&d[k], fb->w, fb->h);
        unsigned nfw = gfx_writes_memory(d[k].fp) ? 1 : j->nw;
        unsigned nb = (m->nverts + VERTEX_BATCH - 1) / VERTEX_BATCH;
        j->band = (int)slice_band(nfw, fb->h);
        j->nslices = draw_slices(nfw, (unsigned)j->band, fb->h);
        j->nv = gfx_writes_memory(d[k].vp) ? 1 : j->nw < nb ? j->nw : nb ? nb : 1;
        j->nb = j->nslices > 1 ? nfw : 0;
        j->first = ch.ntasks;
        j->ntasks = j->tasks_left = 1 + j->nv + j->nb + j->nslices;
        j->v_left = j->nv;
        j->b_left = j->nb;
        j->alone = mem || prev_mem;
        prev_mem = mem;
        ch.ntasks += j->ntasks;
        j->slices = calloc(j->nslices, sizeof *j->slices);
        j->slice_done = calloc(j->nslices, sizeof *j->slice_done);
        j->vruns = calloc(j->nv, sizeof *j->vruns);
        ok = ok && j->slices && j->slice_done && j->vruns;
        nw = j->nw > nw ? j->nw : nw;
        if (d[k].pool != pool)
            pool = NULL;
    }
    struct worker *w = calloc(nw, sizeof *w);
    ok = ok && w;
    /* a worker's thread records: the pool's, kept from draw to draw */
    if (pool && nw > gfx_pool_workers(pool))
        pool = NULL;
    for (unsigned i = 0; ok && i < nw; i++) {
        w[i].ch = &ch;
        w[i].index = i;
        w[i].threads = pool ? gfx_pool_scratch(pool, i, NTHREADS *
                                                        sizeof *w[i].threads)
                            : malloc(NTHREADS * sizeof *w[i].threads);
        ok = w[i].threads;
    }
    unsigned done = 0;
    if (!ok) {
        gfx_fail(diag, 0, 0, "out of memory while drawing");
    } else {
        pthread_mutex_init(&ch.mu, NULL);
        pthread_cond_init(&ch.cond, NULL);
        atomic_init(&ch.next, 0);
        atomic_init(&ch.stop, false);
        run_workers(pool, w, nw, chain_worker);
        pthread_cond_destroy(&ch.cond);
        pthread_mutex_destroy(&ch.mu);
        while (done < n && merge_draw(&ch.jobs[done], stats, diag))
            done++;
    }
    for (unsigned k = 0; k < n; k++) {
        if (!ch.jobs[k].released)
            release(&ch.jobs[k]);
        free(ch.jobs[k].slices);
        free(ch.jobs[k].slice_done);
        free(ch.jobs[k].vruns);
    }
    for (unsigned i = 0; w && !pool && i < nw; i++)
        free(w[i].threads);
    free(w);
    free(ch.jobs);
    return done;
}

bool gfx_draw_mesh(struct gfx_framebuffer *fb, const struct gfx_draw *d,
                   struct gfx_stats *stats, struct us_diag *diag)
{
    return gfx_draw_meshes(fb, d, 1, stats, diag) == 1;
}
