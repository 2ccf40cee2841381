/*
 * The fragment stage of one draw (gfx/fragment.h), for one slice of the
 * screen's bands of rows: fixed-point triangle setup, 2x2-quad
 * rasterization of the slice's bands, perspective-correct interpolation
 * (flat: the provoking vertex's value; noperspective: linear in window
 * space), shading in batches of quads through d->backend -- thread
 * records, or straight into the SoA executor's lane rows when the
 * backend takes the program (rows_open) -- then KIL, depth, fog, the
 * depth test and blending, in the quads' order.
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "gfx/divide.h"
#include "gfx/fragment.h"
#include "gfx/unorm8.h"
#include "shader/interp_soa.h"

/* Fog on the program's clamped colour: ARB_fragment_program §3.11.4.6 and
 * GL 2.1 §3.10 (f from fragment.fogcoord.x, clamped to [0, 1]). */
static void apply_fog(const struct us_program *fp, const struct us_glstate *gl,
                      float c, float color[4])
{
    float f;
    if (fp->options & US_OPT_FOG_LINEAR)
        f = gl->fog_end == gl->fog_start
                ? 1.0f : (gl->fog_end - c) / (gl->fog_end - gl->fog_start);
    else if (fp->options & US_OPT_FOG_EXP)
        f = expf(-gl->fog_density * c);
    else {
        float k = gl->fog_density * c;
        f = expf(-k * k);
    }
    f = gfx_clamp01(f);
    for (int i = 0; i < 3; i++)
        color[i] = f * color[i] + (1.0f - f) * gl->fog_color[i];
}

bool gfx_overrun(const struct us_thread *t, unsigned n,
                 const struct us_exec_env *env, const char *what,
                 struct us_diag *diag)
{
    for (unsigned i = 0; i < n; i++)
        if (t[i].overrun) {
            gfx_fail(diag, 0, 0, "the %s program does not finish: a thread "
                     "executed more than %u instructions (the budget, knob "
                     "max_instructions)", what,
                     env->max_insts ? env->max_insts : US_MAX_INSTS_DEFAULT);
            return true;
        }
    return false;
}

/* The fragment stage's per-worker part, at its first triangle: the row
 * form when the backend takes the program, and which input components
 * each quad needs. */
static void frag_setup(struct draw_ctx *c)
{
    const struct gfx_draw *d = c->d;
    c->set_up = true;
    c->rows = d->backend->rows_open
                  ? d->backend->rows_open(d->backend->ctx, d->fp) : NULL;
    uint64_t given = 0;
    for (unsigned in = 0; in < US_FIN_COUNT; in++) {
        c->in_comps[in] = 0;
        if (in != US_FIN_POSITION && !(c->fin_mask >> in & 1))
            continue;           /* stays as reset: (0, 0, 0, 1) */
        if (!c->rows) {
            c->in_comps[in] = 0xF;
            continue;
        }
        unsigned reads = us_soa_reg_reads(c->rows, us_soa_input_off(in));
        c->in_comps[in] = (uint8_t)reads;
        given |= (uint64_t)(reads != 0) << in;
        for (unsigned k = 0; k < 4; k++)
            c->in_row[in][k] = reads >> k & 1
                ? us_soa_reg_row(c->rows, us_soa_input_off(in), k) : NULL;
    }
    if (c->fog)
        c->in_comps[US_FIN_FOGCOORD] |= 1;   /* the fog stage's */
    /* the window z: the depth test's, unless the program gives the
     * depth, and fragment.position.z */
    c->need_z = (d->state->depth_test &&
                 !(d->fp->outputs_written >> US_FOUT_DEPTH & 1)) ||
                (c->in_comps[US_FIN_POSITION] & 4);
    c->in_interp = 0;
    for (unsigned in = US_FIN_COLOR0; in < US_FIN_FACING; in++)
        c->in_interp |= (uint64_t)(c->in_comps[in] != 0) << in;
    if (!c->rows)
        return;
    static const uint8_t outs[5][2] = {
        { US_FOUT_COLOR, 0 }, { US_FOUT_COLOR, 1 }, { US_FOUT_COLOR, 2 },
        { US_FOUT_COLOR, 3 }, { US_FOUT_DEPTH, 2 },
    };
    for (unsigned j = 0; j < 5; j++)
        c->out_row[j] = us_soa_result_row(c->rows,
                                          us_soa_output_off(outs[j][0]),
                                          outs[j][1]);
    us_soa_rows_begin(c->rows, &c->fenv, given);
}

void gfx_frag_end(struct draw_ctx *c)
{
    us_soa_free(c->rows);
    c->rows = NULL;
}

/* What the per-fragment operations read of the draw, fetched once per
 * flush, and their counts, added to the statistics after it. */
struct frag_ops {
    bool writes_depth, depth_test, depth_write, fog, blend;
    float *color, *depth;
    uint8_t *rgba8;               /* instead of color: image row h - 1 - y */
    size_t w, h;
    uint64_t killed, depth_failed, written;
};

static void frag_ops_begin(const struct draw_ctx *c, struct frag_ops *o)
{
    const struct gfx_draw *d = c->d;
    o->writes_depth = d->fp->outputs_written >> US_FOUT_DEPTH & 1;
    o->depth_test = d->state->depth_test;
    o->depth_write = d->state->depth_write;
    o->fog = c->fog;
    o->blend = d->state->blend;
    o->color = c->fb->color;
    o->rgba8 = c->fb->rgba8;
    o->depth = c->fb->depth;
    o->w = c->fb->w;
    o->h = c->fb->h;
    o->killed = o->depth_failed = o->written = 0;
}

static void frag_ops_end(struct draw_ctx *c, const struct frag_ops *o)
{
    c->stats->killed += o->killed;
    c->stats->depth_failed += o->depth_failed;
    c->stats->written += o->written;
}

/* The per-fragment operations on member i of quad q after shading:
 * KIL, depth (result.depth z when the program writes it), fog, depth
 * test and blending, in order, on the colour clamped to [0, 1]
 * (gfx_clamp01: the caller's, a pure function of the result). */
__attribute__((always_inline))
static inline void fragment_ops(const struct draw_ctx *c, struct frag_ops *o,
                                unsigned q, unsigned i, bool killed,
                                const float clamped[4], float depth)
{
    if (killed) {
        o->killed++;
        return;
    }
    const struct quad_info *qi = &c->batch->quad[q];
    unsigned l = 4 * q + i;
    int px = qi->x + (int)(i & 1), py = qi->y + 1 - (int)(i >> 1);
    size_t idx = (size_t)py * o->w + (size_t)px;
    if (o->depth_test) {
        float z = o->writes_depth ? gfx_clamp01(depth) : c->batch->z[l];
        if (!(z < o->depth[idx])) {  /* GL_LESS */
            o->depth_failed++;
            return;
        }
        if (o->depth_write)
            o->depth[idx] = z;
    }
    float col[4];
    memcpy(col, clamped, sizeof col);
    if (o->fog)
        apply_fog(c->d->fp, c->d->gl, c->batch->fog[l], col);
    o->written++;
    if (o->rgba8) {               /* no blending reads it (gfx_fb_alloc_rgba8) */
        uint32_t u = gfx_unorm8_pixel(col);
        memcpy(o->rgba8 + 4 * ((o->h - 1 - (size_t)py) * o->w + (size_t)px),
               &u, sizeof u);
        return;
    }
    float *dst = o->color + 4 * idx;
    if (o->blend) {
        float a = col[3];
        for (int k = 0; k < 4; k++)
            dst[k] = col[k] * a + dst[k] * (1.0f - a);
    } else {
        memcpy(dst, col, sizeof col);
    }
}

typedef float v4f __attribute__((vector_size(4 * sizeof(float))));
typedef int32_t v4i __attribute__((vector_size(4 * sizeof(int32_t))));

/* gfx_clamp01 of four lanes (NaN to 0). */
static inline v4f clamp01_v4(const float *x4)
{
    v4f x;
    memcpy(&x, x4, sizeof x);
    v4i above = x > 0.0f, below = x < 1.0f;
    v4i one = (v4i)((v4f){ 0 } + 1.0f);
    return (v4f)((((v4i)x & below) | (one & ~below)) & above);
}

/* A quad's colours from the result rows r, g, b, a (its four lanes each),
 * clamped to [0, 1], a pixel's four floats together in pixel[i]: a 4x4
 * transpose in vector registers. */
static inline void clamp_pixels(const float *r, const float *g,
                                const float *b, const float *a,
                                float pixel[4][4])
{
    v4f vr = clamp01_v4(r), vg = clamp01_v4(g), vb = clamp01_v4(b),
        va = clamp01_v4(a);
    v4f rg01 = __builtin_shufflevector(vr, vg, 0, 4, 1, 5);
    v4f rg23 = __builtin_shufflevector(vr, vg, 2, 6, 3, 7);
    v4f ba01 = __builtin_shufflevector(vb, va, 0, 4, 1, 5);
    v4f ba23 = __builtin_shufflevector(vb, va, 2, 6, 3, 7);
    v4f p[4] = {
        __builtin_shufflevector(rg01, ba01, 0, 1, 4, 5),
        __builtin_shufflevector(rg01, ba01, 2, 3, 6, 7),
        __builtin_shufflevector(rg23, ba23, 0, 1, 4, 5),
        __builtin_shufflevector(rg23, ba23, 2, 3, 6, 7),
    };
    memcpy(pixel, p, sizeof p);
}

/* A whole quad's clamped colours stored, two pairs of pixels: members
 * 2 and 3 in row y, 0 and 1 in row y + 1. */
static inline void store_quad(struct frag_ops *o, const struct quad_info *qi,
                              const float col[4][4])
{
    size_t x = (size_t)qi->x, y = (size_t)qi->y;
    o->written += 4;
    if (o->color) {
        size_t idx = y * o->w + x;
        memcpy(o->color + 4 * idx, col[2], 2 * sizeof col[0]);
        memcpy(o->color + 4 * (idx + o->w), col[0], 2 * sizeof col[0]);
        return;
    }
    size_t idx = (o->h - 1 - y) * o->w + x;
    uint8_t *top = o->rgba8 + 4 * (idx - o->w), *bottom = o->rgba8 + 4 * idx;
#ifdef __SSE2__
    /* gfx_unorm8 of colours in [0, 1] already: c * 255 + 0.5 truncated,
     * the quad at once */
    __m128i v[4];
    for (unsigned i = 0; i < 4; i++)
        v[i] = _mm_cvttps_epi32(_mm_add_ps(
            _mm_mul_ps(_mm_loadu_ps(col[i]), _mm_set1_ps(255.0f)),
            _mm_set1_ps(0.5f)));
    __m128i b = _mm_packus_epi16(_mm_packs_epi32(v[0], v[1]),
                                 _mm_packs_epi32(v[2], v[3]));
    _mm_storel_epi64((__m128i *)top, b);
    _mm_storel_epi64((__m128i *)bottom, _mm_unpackhi_epi64(b, b));
#else
    uint32_t px[4];
    for (unsigned i = 0; i < 4; i++)
        px[i] = gfx_unorm8_pixel(col[i]);
    memcpy(top, px, 2 * sizeof px[0]);
    memcpy(bottom, px + 2, 2 * sizeof px[0]);
#endif
}

bool gfx_frag_flush(struct draw_ctx *c)
{
    if (!c->nquads)
        return true;
    const struct gfx_draw *d = c->d;
    struct frag_ops o;
    frag_ops_begin(c, &o);
    if (c->rows) {
        /* straight-line code (us_soa_plan): no fragment can go over the
         * budget, as for the records on the same executor */
        unsigned nl = 4 * c->nquads;
        us_soa_rows_run(c->rows, &c->fenv, nl, true);
        const uint8_t *killed = us_soa_killed(c->rows);
        const float *r0 = c->out_row[0], *r1 = c->out_row[1],
                    *r2 = c->out_row[2], *r3 = c->out_row[3],
                    *rz = c->out_row[4];
        /* a whole quad none of whose members is killed, with neither
         * depth test, fog nor blending, is two pairs of pixels stored */
        bool plain = !o.depth_test && !o.fog && !o.blend;
        for (unsigned q = 0; q < c->nquads; q++) {
            const struct quad_info *qi = &c->batch->quad[q];
            unsigned l = 4 * q;
            float col[4][4];
            clamp_pixels(r0 + l, r1 + l, r2 + l, r3 + l, col);
            uint32_t kills;
            memcpy(&kills, killed + l, sizeof kills);
            if (plain && qi->cover == 0xF && !kills) {
                store_quad(&o, qi, col);
                continue;
            }
            for (unsigned i = 0; i < 4; i++)
                if (qi->cover >> i & 1)
                    fragment_ops(c, &o, q, i, killed[l + i], col[i],
                                 rz[l + i]);
        }
        c->nquads = 0;
        frag_ops_end(c, &o);
        return true;
    }
    d->backend->shade(d->backend->ctx, d->fp, &c->fenv, c->threads,
                      4 * c->nquads, true);
    if (gfx_overrun(c->threads, 4 * c->nquads, &c->fenv, "fragment", c->diag))
        return false;
    for (unsigned q = 0; q < c->nquads; q++) {
        const struct quad_info *qi = &c->batch->quad[q];
        for (unsigned i = 0; i < 4; i++) {
            if (!(qi->cover >> i & 1))
                continue;
            const struct us_thread *t = &c->threads[4 * q + i];
            float col[4];
            for (int k = 0; k < 4; k++)
                col[k] = gfx_clamp01(t->output[US_FOUT_COLOR][k]);
            fragment_ops(c, &o, q, i, t->killed, col,
                         t->output[US_FOUT_DEPTH][2]);
        }
    }
    c->nquads = 0;
    frag_ops_end(c, &o);
    return true;
}

/* A triangle after the viewport transform, in setup (counter-clockwise)
 * order. */
struct tri {
    struct gfx_tri_setup s;
    const struct gfx_cvert *v[3];
    const struct gfx_cvert *pv;   /* the provoking vertex (before clipping) */
    float invw[3], z[3];
};

/* How one interpolated input component (COLOR0 .. FACING - 1) of a
 * triangle is computed, set up once per triangle (interp_plan) so the
 * per-quad loop has neither the draw's flags nor the vertices to look
 * up. */
enum { COMP_PERSP, COMP_LINEAR, COMP_CONST };
struct interp_comp {
    uint8_t in, k, kind;
    bool fog;                     /* fogcoord.x, kept for the fog stage */
    float value;                  /* COMP_CONST                         */
    double a[3];                  /* the three vertices' values         */
};

static unsigned interp_plan(const struct draw_ctx *c, const struct tri *t,
                            struct interp_comp *plan)
{
    bool back = t->s.back && c->d->state->two_side;
    unsigned n = 0;
    for (uint64_t left = c->in_interp; left; left &= left - 1) {
        unsigned in = (unsigned)__builtin_ctzll(left);
        unsigned m = c->in_comps[in];
        unsigned src;
        if (in == US_FIN_COLOR0)
            src = back ? US_VOUT_BCOLOR0 : US_VOUT_COLOR0;
        else if (in == US_FIN_COLOR1)
            src = back ? US_VOUT_BCOLOR1 : US_VOUT_COLOR1;
        else if (in == US_FIN_FOGCOORD)
            src = US_VOUT_FOGCOORD;
        else
            src = US_VOUT_TEXCOORD0 + (in - US_FIN_TEXCOORD0);
        bool flat = c->fin_flat >> in & 1, linear = c->fin_linear >> in & 1;
        for (unsigned k = 0; k < 4; k++) {
            if (!(m >> k & 1))
                continue;
            struct interp_comp *e = &plan[n++];
            e->in = (uint8_t)in;
            e->k = (uint8_t)k;
            e->fog = in == US_FIN_FOGCOORD && k == 0 && c->fog;
            if (in == US_FIN_FOGCOORD && k > 0) {
                /* fragment.fogcoord is (f, 0, 0, 1) */
                e->kind = COMP_CONST;
                e->value = k == 3 ? 1.0f : 0.0f;
            } else if (flat) {
                e->kind = COMP_CONST;
                e->value = t->pv->vary[src][k];
            } else {
                e->kind = linear ? COMP_LINEAR : COMP_PERSP;
                for (int j = 0; j < 3; j++)
                    e->a[j] = t->v[j]->vary[src][k];
            }
        }
    }
    return n;
}

/* Where lanes [i0, i0 + n) of component k of fragment input `in` are
 * written: the executor's row when it reads the component, else `tmp`
 * (thread records, or fogcoord.x kept for the fog stage alone), which
 * put_records then copies into the records. */
static float *input_dst(struct draw_ctx *c, unsigned in, unsigned k,
                        float *tmp, unsigned i0)
{
    return c->rows && c->in_row[in][k] ? c->in_row[in][k] + i0 : tmp;
}

static void put_records(struct draw_ctx *c, unsigned in, unsigned k,
                        const float *v, unsigned i0, unsigned n)
{
    if (c->rows)
        return;
    for (unsigned i = 0; i < n; i++)
        c->threads[i0 + i].input[in][k] = v[i];
}

/* A triangle being rasterized: its interpolation plan, its edge steps,
 * the first of its pending quads not yet interpolated, and what the build
 * has: int64 to double in one instruction (AVX-512 DQ), FMA (divisions
 * as gfx_div_by_recip, from 1 / area2 for the weights). */
struct tri_raster {
    const struct tri *t;
    struct interp_comp plan[4 * US_FIN_COUNT];
    unsigned nplan;
    int64_t dx[3], dy[3];         /* to the pixel right, the pixel up */
    int64_t step[3][8];           /* member i % 4 less member 2       */
    unsigned first;
    bool cvt64, fma;
    double inv_area2;
};

/* interpolate8, interpolate4 and interpolate2 (raster_body takes the
 * build's) */
#define L(name) name##8
#define LANES 8
#include "gfx/interp_lanes.h"
#undef L
#undef LANES
#define L(name) name##4
#define LANES 4
#include "gfx/interp_lanes.h"
#undef L
#undef LANES
#define L(name) name##2
#define LANES 2
#include "gfx/interp_lanes.h"
#undef L
#undef LANES

/* The pending quads interpolated in vectors of `lanes` (a constant once
 * inlined). */
__attribute__((always_inline))
static inline void interpolate(struct draw_ctx *c, struct tri_raster *r,
                               unsigned lanes)
{
    if (lanes == 8)
        interpolate8(c, r);
    else if (lanes == 4)
        interpolate4(c, r);
    else
        interpolate2(c, r);
}

/* Queue the quad at (qx, qy) whose member 2 (bottom-left) has the edge
 * values e2, its coverage `cover`; when the batch is full, the
 * triangle's pending quads interpolated and the batch shaded (false when
 * a flush went over the instruction budget). */
__attribute__((always_inline))
static inline bool queue_quad(struct draw_ctx *c, struct tri_raster *r,
                              int qx, int qy, unsigned cover,
                              const int64_t e2[3], unsigned lanes)
{
    struct frag_batch *fb = c->batch;
    unsigned q = c->nquads++;
    fb->quad[q] = (struct quad_info){ .x = qx, .y = qy,
                                      .cover = (uint8_t)cover };
    for (int k = 0; k < 3; k++)
        fb->e2[k][q] = e2[k];
    unsigned batch = c->rows ? US_SOA_WIDTH / 4 : QUAD_BATCH;
    if (c->nquads < batch)
        return true;
    interpolate(c, r, lanes);
    r->first = 0;
    return gfx_frag_flush(c);
}

/* Of the quads j = 0 .. last of a row, x = x_0 + 2j, whose member 2
 * has edge values e at j = 0: [*lo, *hi], outside of which no member is
 * covered (`every` false) or inside which every member is (`every`
 * true; empty: *lo > *hi).  Over a quad, a member's e + owned - 1 is
 * member 2's plus at most the positive ones of the steps dx, dy and at
 * least the negative ones; the quads where that bound is negative for an
 * edge lie at one end of the row, since the bound is linear in j. */
static void quad_span(const struct gfx_tri_setup *s, const int64_t e[3],
                      const int64_t dx[3], const int64_t dy[3], int last,
                      bool every, int64_t *lo, int64_t *hi)
{
    *lo = 0;
    *hi = last;
    for (int k = 0; k < 3; k++) {
        int64_t m = e[k] + s->owned[k] - 1 +
                    (every ? (dx[k] < 0 ? dx[k] : 0) + (dy[k] < 0 ? dy[k] : 0)
                           : (dx[k] > 0 ? dx[k] : 0) + (dy[k] > 0 ? dy[k] : 0));
        int64_t step = 2 * dx[k];
        if (step > 0 && m < 0) {
            int64_t j = (-m + step - 1) / step;     /* first m + j step >= 0 */
            *lo = j > *lo ? j : *lo;
        } else if (step < 0) {
            int64_t j = m < 0 ? -1 : m / -step;     /* last m + j step >= 0 */
            *hi = j < *hi ? j : *hi;
        } else if (step == 0 && m < 0) {
            *hi = -1;
        }
    }
    if (*lo > last)
        *lo = last + 1;
}

/* The quads of the triangle in this slice's bands, in scanline order,
 * the edge functions stepped along each row of quads, past the quads
 * wholly outside (quad_span); each quad that covers a pixel queued
 * (queue_quad), and the triangle's quads interpolated together when
 * the batch is full and at its end. */
__attribute__((always_inline))
static inline void raster_body(struct draw_ctx *c, const struct tri *t,
                               unsigned lanes, bool cvt64, bool fma)
{
    const struct gfx_tri_setup *s = &t->s;
    struct tri_raster r = { .t = t, .first = c->nquads, .cvt64 = cvt64,
                            .fma = fma, .inv_area2 = 1.0 / (double)s->area2 };
    r.nplan = interp_plan(c, t, r.plan);
    const int64_t *dx = r.dx, *dy = r.dy;
    int64_t dx2[3];
    gfx_tri_edge_steps(s, r.dx, r.dy);
    for (int k = 0; k < 3; k++)
        dx2[k] = 2 * dx[k];
    /* a member is covered when e + owned - 1 >= 0 for the three edges
     * (gfx_tri_inside); bias[k] folds the owned - 1 in, and member i of
     * a quad is member 2's value plus step[k][i] */
    int64_t bias[3], (*step)[8] = r.step;
    for (int k = 0; k < 3; k++) {
        bias[k] = s->owned[k] - 1;
        for (unsigned i = 0; i < 8; i += 4) {
            step[k][i] = dy[k];
            step[k][i + 1] = dx[k] + dy[k];
            step[k][i + 2] = 0;
            step[k][i + 3] = dx[k];
        }
    }
    int fw = (int)c->fb->w, fh = (int)c->fb->h;
    int from = s->xmin & ~1, to = s->xmax, B = c->band;
    int n = (int)c->nworkers;
    for (int qy = s->ymin & ~1; qy <= s->ymax; qy += 2) {
        /* the rows of this slice's bands (B is even: a quad lies in one) */
        if ((qy / B) % n != (int)c->worker)
            continue;
        int64_t e[3];
        gfx_tri_edges(s, from, qy, e);
        /* the quads that may cover a pixel, and among them those whose
         * four members are covered and on the screen */
        int64_t lo, hi, flo, fhi;
        quad_span(s, e, dx, dy, (to - from) / 2, false, &lo, &hi);
        quad_span(s, e, dx, dy, (to - from) / 2, true, &flo, &fhi);
        if (qy + 1 >= fh)
            fhi = -1;
        if (fhi > (fw - 2 - from) / 2)
            fhi = (fw - 2 - from) / 2;
        for (int k = 0; k < 3; k++)
            e[k] += lo * dx2[k];
        /* members off the screen: the top row, the right column */
        unsigned rows = (qy + 1 >= fh ? 0xCu : 0xFu) & (qy >= fh ? 0x3u : 0xFu);
        for (int64_t j = lo; j <= hi; j++) {
            int qx = from + 2 * (int)j;
            unsigned cover = 0xF;
            if (j < flo || j > fhi) {
                cover = 0;
                for (unsigned i = 0; i < 4; i++) {
                    int64_t in = (e[0] + bias[0] + step[0][i]) |
                                 (e[1] + bias[1] + step[1][i]) |
                                 (e[2] + bias[2] + step[2][i]);
                    cover |= (unsigned)(in >= 0) << i;
                }
                cover &= rows & (qx + 1 >= fw ? 0x5u : 0xFu) &
                         (qx >= fw ? 0xAu : 0xFu);
            }
            if (cover && !queue_quad(c, &r, qx, qy, cover, e, lanes)) {
                c->failed = true;
                return;
            }
            for (int k = 0; k < 3; k++)
                e[k] += dx2[k];
        }
    }
    interpolate(c, &r, lanes);
}

/* raster_body built for the x86-64 baseline and, chosen at run time,
 * for AVX2 and AVX-512, the interpolation in vectors of one register of
 * doubles each: 2, 4 and 8 lanes (the baseline without FMA, so the same
 * roundings). */
static void raster_base(struct draw_ctx *c, const struct tri *t)
{
    raster_body(c, t, 2, false, false);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_AVX2 1
__attribute__((target("avx2,fma")))
static void raster_avx2(struct draw_ctx *c, const struct tri *t)
{
    raster_body(c, t, 4, false, true);
}

__attribute__((target("avx512f,avx512dq,avx512vl,fma")))
static void raster_avx512(struct draw_ctx *c, const struct tri *t)
{
    raster_body(c, t, 8, true, true);
}
#endif

/* The build of raster_body for USHADER_SOA's choice (gfx_soa_choice):
 * the best the CPU has by default; the AVX2 and AVX-512 builds use FMA
 * too, which every CPU with either has (the baseline's otherwise). */
static void (*raster_build(void))(struct draw_ctx *, const struct tri *)
{
    enum us_soa_isa isa;
    (void)gfx_soa_choice(&isa);
#ifdef HAVE_AVX2
    if (isa == US_SOA_AUTO)
        isa = us_soa_have(US_SOA_AVX512) ? US_SOA_AVX512
            : us_soa_have(US_SOA_AVX2) ? US_SOA_AVX2 : US_SOA_BASELINE;
    if (!__builtin_cpu_supports("fma"))
        return raster_base;
    if (isa == US_SOA_AVX512)
        return raster_avx512;
    if (isa == US_SOA_AVX2)
        return raster_avx2;
#endif
    return raster_base;
}

/* Perspective divide and viewport (GL 2.1 §2.11.1) of a clipped polygon,
 * then a fan of triangles from its first vertex; pv: the provoking vertex
 * of the triangle it came from. */
void gfx_frag_polygon(struct draw_ctx *c, const struct gfx_cvert *poly,
                      unsigned n, const struct gfx_cvert *pv)
{
    const struct gfx_draw *d = c->d;
    float wx[GFX_CLIP_MAX_VERTS], wy[GFX_CLIP_MAX_VERTS];
    float wz[GFX_CLIP_MAX_VERTS], iw[GFX_CLIP_MAX_VERTS];
    float hw = 0.5f * (float)c->fb->w, hh = 0.5f * (float)c->fb->h;
    float dn = d->gl->depth_near, df = d->gl->depth_far;
    for (unsigned i = 0; i < n; i++) {
        const float *p = poly[i].pos;
        iw[i] = 1.0f / p[3];
        wx[i] = (p[0] * iw[i] + 1.0f) * hw;
        wy[i] = (p[1] * iw[i] + 1.0f) * hh;
        wz[i] = p[2] * iw[i] * 0.5f * (df - dn) + 0.5f * (dn + df);
    }
    for (unsigned k = 1; k + 1 < n; k++) {
        unsigned vi[3] = { 0, k, k + 1 }, perm[3];
        float tx[3] = { wx[0], wx[k], wx[k + 1] };
        float ty[3] = { wy[0], wy[k], wy[k + 1] };
        struct tri t = { .pv = pv };
        if (!gfx_tri_setup(&t.s, tx, ty, c->fb->w, c->fb->h, perm))
            continue;
        if ((t.s.back && d->state->cull == GFX_CULL_BACK) ||
            (!t.s.back && d->state->cull == GFX_CULL_FRONT)) {
            c->stats->culled += c->count_prims;
            continue;
        }
        for (int j = 0; j < 3; j++) {
            unsigned src = vi[perm[j]];
            t.v[j] = &poly[src];
            t.invw[j] = iw[src];
            t.z[j] = wz[src];
        }
        c->stats->clipped += c->count_prims;
        if (!c->set_up) {
            frag_setup(c);
            c->raster = raster_build();
        }
        c->raster(c, &t);
    }
}
