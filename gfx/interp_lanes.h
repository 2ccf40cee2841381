/*
 * The rasterizer's interpolation (gfx/fragment.c) in vectors of LANES
 * lanes, included by fragment.c once per width: 8 for the AVX-512 build
 * (a register of doubles), 4 for AVX2's, 2 for the baseline's.  A wider
 * GCC vector than the target's registers is kept in memory and moved in
 * pieces (stores of halves read back whole: the AVX2 build of eight
 * lanes was slower than the baseline's).  L(name) is this width's copy;
 * vd, vf, vl, vi its vectors of doubles, floats, int64 and int32.
 */
typedef double L(vd) __attribute__((vector_size(LANES * sizeof(double))));
typedef float L(vf) __attribute__((vector_size(LANES * sizeof(float))));
typedef int64_t L(vl) __attribute__((vector_size(LANES * sizeof(int64_t))));
typedef int32_t L(vi) __attribute__((vector_size(LANES * sizeof(int32_t))));
#define vd L(vd)
#define vf L(vf)
#define vl L(vl)
#define vi L(vi)

/* Some lane of mask *mp set: or'ed across the lanes in registers (a
 * loop over the lanes goes through memory; by pointer, as double_of). */
__attribute__((always_inline))
static inline bool L(any_lane)(const vl *mp)
{
    vl m = *mp;
#if LANES == 8
    m |= __builtin_shufflevector(m, m, 4, 5, 6, 7, 0, 1, 2, 3);
    m |= __builtin_shufflevector(m, m, 2, 3, 0, 1, 6, 7, 4, 5);
    m |= __builtin_shufflevector(m, m, 1, 0, 3, 2, 5, 4, 7, 6);
#elif LANES == 4
    m |= __builtin_shufflevector(m, m, 2, 3, 0, 1);
    m |= __builtin_shufflevector(m, m, 1, 0, 3, 2);
#else
    m |= __builtin_shufflevector(m, m, 1, 0);
#endif
    return m[0] != 0;
}

/* (double) of an edge function at lanes [i0, i0 + n) of the batch, n <=
 * LANES (lanes past n hold a step, never stored; by pointer: a vector
 * argument's ABI depends on the build): member i of quad q has its
 * member 2's value e2[q] plus step[i] (i < 4; step[i + 4] = step[i]).
 * Without the int64
 * conversion: the high word times 2^32 plus the low word, both exact,
 * so their sum is the lane rounded once to double, as the conversion
 * rounds it. */
__attribute__((always_inline))
static inline void L(double_of)(const int64_t *e2, const int64_t step[8],
                                unsigned i0, unsigned n, bool cvt64, vd *out)
{
    vl st, e = (vl){ 0 } + e2[i0 / 4];   /* a broadcast */
    memcpy(&st, step + i0 % 4, sizeof st);
#if LANES == 8
    /* lanes 4-7 the next quad's */
    vl b = (vl){ 0 } + (n > 4 ? e2[i0 / 4 + 1] : 0);
    e = __builtin_shufflevector(e, b, 0, 1, 2, 3, 12, 13, 14, 15);
#else
    (void)n;
#endif
    e += st;
    if (cvt64) {
        *out = __builtin_convertvector(e, vd);
        return;
    }
    vd hi = __builtin_convertvector(__builtin_convertvector(e >> 32, vi), vd);
    vi lo = __builtin_convertvector(e & 0xffffffff, vi) ^ INT32_MIN;
    *out = hi * 0x1p32 + (__builtin_convertvector(lo, vd) + 0x1p31);
}

/* Interpolate the fragment inputs of lanes [i0, i0 + n) of the batch
 * (n = LANES, or 4 after an odd number of quads: a constant once
 * inlined), all of triangle t (helpers included: their barycentrics just
 * lie outside [0, 1]), in double precision, each lane as one fragment
 * alone would be, into the executor's rows or the thread records, and
 * their window z and fog coordinate into the batch.  Single precision
 * would round differently (the weights' three products and two sums, and
 * the perspective division): not bit-identical. */
__attribute__((always_inline))
static inline void L(interp_lanes)(struct draw_ctx *c,
                                   const struct tri_raster *r, unsigned i0,
                                   unsigned n)
{
    const struct tri *t = r->t;
    struct frag_batch *fb = c->batch;
    /* the window-linear weights lw and the perspective-correct ones bw
     * (where their sum is 0, the window-linear ones) */
    const double area2 = (double)t->s.area2;
    vd lw[3], q[3], bw[3];
    for (unsigned k = 0; k < 3; k++) {
        L(double_of)(fb->e2[k], r->step[k], i0, n, r->cvt64, &lw[k]);
        if (r->fma)
            for (unsigned i = 0; i < LANES; i++)
                lw[k][i] = gfx_div_by_recip(lw[k][i], area2, r->inv_area2);
        else
            lw[k] /= area2;
        q[k] = lw[k] * (double)t->invw[k];
    }
    vd sum = (vd){ 0 } + q[0];
    sum += q[1];
    sum += q[2];
    /* q / sum from 1 / sum when every sum is finite (then so are the
     * q's, and gfx_div_by_recip's bounds hold: |q| < 2^192, |sum| >
     * 2^-265 when not 0); a lane whose sum is 0 takes lw.  Both rare:
     * one test of the two in the common case. */
    vl flat = sum == 0.0, bad = ~((sum - sum) == 0.0);   /* not finite */
    vl odd = flat | bad;
    bool plain = !L(any_lane)(&odd);
    if (r->fma && (plain || !L(any_lane)(&bad))) {
        vd y = 1.0 / sum;
        for (unsigned k = 0; k < 3; k++)
            for (unsigned i = 0; i < LANES; i++)
                bw[k][i] = gfx_div_by_recip(q[k][i], sum[i], y[i]);
    } else {
        for (unsigned k = 0; k < 3; k++)
            bw[k] = q[k] / sum;
    }
    if (!plain && L(any_lane)(&flat))
        for (unsigned k = 0; k < 3; k++)
            bw[k] = (vd)(((vl)lw[k] & flat) | ((vl)bw[k] & ~flat));
    vf z = { 0 };
    if (c->need_z) {
        z = __builtin_convertvector(lw[0] * (double)t->z[0] +
                                    lw[1] * (double)t->z[1] +
                                    lw[2] * (double)t->z[2], vf);
        for (unsigned i = 0; i < LANES; i++)
            z[i] = gfx_clamp01(z[i]);
        memcpy(fb->z + i0, &z, n * sizeof(float));
    }

    float tmp[LANES];
    const struct us_program *fp = c->d->fp;
    unsigned m = c->in_comps[US_FIN_POSITION];
    for (unsigned k = 0; k < 4; k++) {
        if (!(m >> k & 1))
            continue;
        float *v = input_dst(c, US_FIN_POSITION, k, tmp, i0);
        vf w = __builtin_convertvector(lw[0] * (double)t->invw[0] +
                                       lw[1] * (double)t->invw[1] +
                                       lw[2] * (double)t->invw[2], vf);
        for (unsigned i = 0; i < n; i++) {
            unsigned l = i0 + i;
            const struct quad_info *qi = &fb->quad[l / 4];
            float fx = (float)(qi->x + (int)(l & 1)) + 0.5f;
            float fy = (float)(qi->y + 1 - (int)(l >> 1 & 1)) + 0.5f;
            if (fp->options & US_OPT_PIXEL_CENTER_INTEGER)
                fx -= 0.5f, fy -= 0.5f;
            if (fp->options & US_OPT_ORIGIN_UPPER_LEFT)
                fy = (float)c->fb->h - fy;
            v[i] = k == 0 ? fx : k == 1 ? fy : k == 2 ? z[i] : w[i];
        }
        put_records(c, US_FIN_POSITION, k, v, i0, n);
    }

    /* fragment.facing: the primitive's orientation as culling sees it
     * (GL 2.1 §2.14.1, counter-clockwise in window space is front) */
    m = c->in_comps[US_FIN_FACING];
    for (unsigned k = 0; k < 4; k++)
        if (m >> k & 1) {
            float f = k == 0 ? (t->s.back ? 0.0f : 1.0f) : k == 3 ? 1.0f
                                                                  : 0.0f;
            float *v = input_dst(c, US_FIN_FACING, k, tmp, i0);
            for (unsigned i = 0; i < n; i++)
                v[i] = f;
            put_records(c, US_FIN_FACING, k, v, i0, n);
        }

    /* the interpolated inputs, lowest first */
    for (unsigned j = 0; j < r->nplan; j++) {
        const struct interp_comp *p = &r->plan[j];
        float *v = input_dst(c, p->in, p->k, tmp, i0);
        vf val;
        if (p->kind == COMP_CONST) {
            val = (vf){ 0 } + p->value;
        } else {
            const vd *w = p->kind == COMP_LINEAR ? lw : bw;
            val = __builtin_convertvector(w[0] * p->a[0] + w[1] * p->a[1] +
                                          w[2] * p->a[2], vf);
        }
        memcpy(v, &val, n * sizeof(float));
        if (p->fog)
            memcpy(fb->fog + i0, &val, n * sizeof(float));
        put_records(c, p->in, p->k, v, i0, n);
    }
}

/* Interpolate the pending quads of the triangle (r->first ..), LANES
 * lanes at a time (8: two quads, the last one alone). */
__attribute__((always_inline))
static inline void L(interpolate)(struct draw_ctx *c, struct tri_raster *r)
{
    const struct frag_batch *fb = c->batch;
    unsigned first = r->first;
    unsigned covered = 0;
    for (unsigned q = first; q < c->nquads; q++) {
        covered += (unsigned)__builtin_popcount(fb->quad[q].cover);
        if (!c->rows)
            for (unsigned i = 0; i < 4; i++) {
                struct us_thread *th = &c->threads[4 * q + i];
                us_thread_reset_for(th, c->d->fp);
                th->helper = !(fb->quad[q].cover >> i & 1);
            }
    }
    c->stats->fragments += covered;
    c->stats->helpers += 4 * (c->nquads - first) - covered;
    unsigned l = 4 * first, end = 4 * c->nquads;
    for (; l + LANES <= end; l += LANES)
        L(interp_lanes)(c, r, l, LANES);
    if (LANES > 4 && l < end)
        L(interp_lanes)(c, r, l, 4);
    r->first = c->nquads;
}

#undef vd
#undef vf
#undef vl
#undef vi
