/*
 * The batch's algorithm (sfu/sfu_batch.c's header comment), written once
 * and included by sfu/sfu_batch.c for each build: W lanes, V(name) this
 * build's copy of a name (reduce4, reduce8, reduce16), FN its functions'
 * attributes, TARGET its entry's.  In GCC vector types: W 32-bit lanes
 * (vu, vs as signed), the W/2 doubles (vd) or 64-bit lanes (vq) of a half
 * of them, and a lane mask (`mask`: all ones or zero per lane, or a
 * __mmask16).  The build defines before it the types and its primitives,
 * where the instructions differ:
 *   V(gt)(a, b)                 a > b per lane (signed): a mask
 *   V(in)(v, lo, hi)            lo <= v < hi (v unsigned; 0 < lo < hi <= 2^31)
 *   V(sel)(m, a, b)             m ? a : b per lane
 *   V(any)(m)                   some lane of m set
 *   V(load)(x, left), V(store)(out, v, left)   W lanes, or the last left
 *   V(i2d)(v, h)                half h of v (lanes h W/2 ...) as doubles
 *   V(fma)(a, b, c), V(floor)(v), V(max)(a, b), V(min)(a, b)
 *                               a b + c with a b exact; floor; max; min
 *   V(narrow)(lo, hi)           two halves' doubles truncated to binary32
 *   V(fixed)(u, &lo, &hi)       ex2: the words of 1.5 2^52 + floor(x 2^32)
 *   V(lut)(p, D, K, seg, live, C), V(cof)(C, i, h)   the coefficients of
 *                               segments seg (of the lanes in live); C_i
 *                               of half h as doubles
 *   V(revolutions)(a) (baseline) or V(words)(i), V(srlv)(v, n), V(mulu)(a, b)
 *                               sin/cos's reduction, or its pieces
 */
#define vu V(vu)
#define vs V(vs)
#define vq V(vq)
#define vd V(vd)
#define mask V(mask)

/* reduce()'s results: segment, T, e2 - s0, the result's sign (rcp's,
 * sin's, cos's), the special result, lg2's e. */
struct V(red) {
    vu seg, T, adj, sgn, res, e;
    mask live;                  /* the lanes not special */
};

FN vu V(bc)(uint32_t c) { return (vu){ 0 } + c; }
FN vd V(bcd)(double c) { return (vd){ 0 } + c; }

#ifdef V_VECTOR_REVOLUTIONS
/* revolutions1 (sfu_batch.c) in 64-bit lanes: the even lanes, then the
 * odd ones (the lanes need words 0..6 of 1/(2 pi)). */
FN vu V(revolutions)(vu a)
{
    vu M = (a & 0x7fffffu) | MIN_NORMAL;
    vs E = (vs)(a >> 23) - 150;
    vu pos = (vu)(E & ~(E >> 31));                    /* j0 - 1 */
    vu rest = pos - (vu)E, w = pos >> 5, o = pos & 31u, o2 = 32u - o;
    vu v[4], t[3];
    for (unsigned k = 0; k < 4; k++)
        v[k] = V(words)(w + k);
    for (int k = 0; k < 3; k++)                       /* o2 = 32: a 0 */
        t[k] = v[k] << o | V(srlv)(v[k + 1], o2);
    vu A = t[0] >> 8, B = (t[0] & 0xffu) << 16 | t[1] >> 16,
       C = (t[1] & 0xffffu) << 8 | t[2] >> 24;
    vq R[2];
    for (int h = 0; h < 2; h++) {
        vq m = h ? (vq)M >> 32 : (vq)M;
        vq ma = V(mulu)(m, h ? (vq)A >> 32 : (vq)A);
        vq mb = V(mulu)(m, h ? (vq)B >> 32 : (vq)B);
        vq mc = V(mulu)(m, h ? (vq)C >> 32 : (vq)C);
        vq q = (ma << 8) + ((mb + (mc >> 24)) >> 16);
        R[h] = q >> (h ? (vq)rest >> 32 : (vq)rest & 0xffffffffu);
    }
    return (vu)((R[0] & 0xffffffffu) | R[1] << 32);
}
#endif

/* reduce() of W lanes (bits u): its tests in its order as selects (the
 * compares all `v > constant`: one instruction on every build), the same
 * segment and T. */
FN void V(reduce)(const struct plan *p, enum us_sfu_func F, vu u,
                  struct V(red) *r)
{
    const vu a = u & ~(uint32_t)SIGN, sign = u ^ a;
    const mask nz = V(gt)(a, V(bc)(MIN_NORMAL - 1u));   /* not FTZ's zero */
    const mask neg = V(gt)(V(bc)(0), u);
    const uint32_t kmask = (1u << p->kb) - 1u;
    vu res, frac = a;
    r->sgn = V(bc)(0);
    r->adj = V(bc)((uint32_t)p->e2off);
    switch (F) {
    case US_SFU_RCP:
        r->live = V(in)(a, MIN_NORMAL, INF);
        res = V(sel)(nz, sign, sign | INF);
        r->sgn = sign;
        r->adj = (127u + (uint32_t)p->e2off) - (a >> 23);      /* -e - s0 */
        r->seg = a >> p->rest & kmask;
        break;
    case US_SFU_RSQ:
    case US_SFU_SQRT: {
        bool rsq = F == US_SFU_RSQ;
        r->live = V(in)(u, MIN_NORMAL, INF);          /* not x < 0 */
        res = V(sel)(neg, V(bc)(DEFAULT_NAN), V(bc)(rsq ? 0u : INF));
        res = V(sel)(nz, res, rsq ? sign | INF : sign);
        /* (e - odd) / 2 = floor((bexp - 127) / 2) = ((bexp + 1) >> 1) - 64 */
        vu h = (a + MIN_NORMAL) >> 24;
        r->adj = rsq ? (64u + (uint32_t)p->e2off) - h
                     : h + ((uint32_t)p->e2off - 64u);
        /* the index bit above the fraction's is odd = !(bexp & 1), the
         * bit of a just above its fraction, flipped */
        r->seg = (a >> p->rest & (2 * kmask + 1)) ^ (kmask + 1);
        break;
    }
    case US_SFU_LG2:
        r->live = V(in)(u, MIN_NORMAL, INF);
        res = V(sel)(neg, V(bc)(DEFAULT_NAN), V(bc)(INF));
        res = V(sel)(nz, res, V(bc)(SIGN | INF));
        r->e = (a >> 23) - 127u;
        r->seg = a >> p->rest & kmask;
        break;
    case US_SFU_SIN:
    case US_SFU_COS: {
        bool cos = F == US_SFU_COS;
        /* nan, inf; |x| < 2^-12 (or zero): sin x = x, cos x = 1 */
        r->live = V(in)(a, 0x39800000u, INF);
        res = cos ? V(bc)(ONE) : V(sel)(nz, u, sign);
        res = V(sel)(V(gt)(a, V(bc)(INF - 1u)), V(bc)(DEFAULT_NAN), res);
        vu R = V(revolutions)(a);
        /* the quadrant q (cos: + 1); v = u, or ~u (30 bits) where q is
         * odd; the sign from q's bit 1 (sin: and x's) */
        vu q = (R >> 30) + (uint32_t)cos;
        frac = (R ^ (0u - (q & 1u))) & 0x3fffffffu;
        r->sgn = q << 30 & (uint32_t)SIGN;
        if (!cos)
            r->sgn ^= sign;
        r->seg = frac >> p->rest;
        break;
    }
    default: {                                /* US_SFU_EX2 */
        r->live = V(in)(a, MIN_NORMAL, 0x43000000u);
        res = V(sel)(neg, V(bc)(0), V(bc)(INF));
        res = V(sel)(nz, res, V(bc)(ONE));
        /* X = floor(x 2^32) (exact, |X| < 2^39 where not special) in
         * 1.5 2^52 + X: f is its low word, i = X >> 32 its high word less
         * 0x43380000 */
        vu hi;
        V(fixed)(u, &frac, &hi);
        r->adj = hi - (0x43380000u - (uint32_t)p->e2off);
        r->seg = frac >> p->rest;
        break;
    }
    }
    r->res = V(sel)(V(gt)(a, V(bc)(INF)), V(bc)(DEFAULT_NAN), res);
    r->T = frac >> p->tsh & p->tmask;
}

/* Horner and pack (see the top) of W reduced lanes, their coefficients
 * read. */
FN vu V(finish)(const struct plan *p, enum us_sfu_func F, int D,
                const struct V(red) *r, const struct V(coef) *C)
{
    vd b[2];
    for (int h = 0; h < 2; h++) {
        vd T = V(i2d)(r->T, h), acc = V(cof)(C, D, h);
        for (int i = D - 1; i >= 0; i--)
            acc = V(floor)(V(fma)(acc, T * p->scale[i], V(bcd)(0.5))) +
                  V(cof)(C, i, h);
        if (F == US_SFU_LG2)                  /* exact, an integer < 2^53 */
            acc = V(fma)(V(i2d)(r->e, h), V(bcd)(p->w0), acc);
        else if (F == US_SFU_SIN || F == US_SFU_COS)
            acc = V(min)(V(max)(acc, V(bcd)(0)), V(bcd)(p->w0));
        else
            acc = V(max)(acc, V(bcd)(0));
        b[h] = (vd)((vq)acc + ((uint64_t)1 << 28));
    }
    vu fb = V(narrow)(b[0], b[1]);
    /* fb * 2^adj: the exponent field E + adj, FTZ below 1 (and for 0),
     * infinity above 254 */
    vu sgn = F == US_SFU_LG2 ? fb & (uint32_t)SIGN : r->sgn;
    vu E = F == US_SFU_LG2 ? fb >> 23 & 0xffu : fb >> 23;
    vu eb = E + r->adj;
    vu v = (fb + (r->adj << 23)) | sgn;
    v = V(sel)(V(gt)(eb, V(bc)(254)), sgn | INF, v);
    v = V(sel)(V(gt)(eb, V(bc)(0)) & V(gt)(E, V(bc)(0)), v, sgn);
    return V(sel)(r->live, v, r->res);
}

/* x[0..n-1] of function F (a constant, as D: the switches fold); K the
 * default table's segment bits or 0 (its geometry then constants:
 * immediate shifts, T's shift of 0 gone: rsq 3% faster on AVX-512).  The
 * plan copied so that the stores to out cannot change it (they could
 * alias it, for the compiler: it would reload it every iteration). */
FN void V(run)(const struct plan *pp, enum us_sfu_func F, int D, unsigned K,
               const float *x, float *out, size_t n)
{
    struct plan P = *pp;
    if (D < 1 || D > US_SFU_MAX_DEGREE)       /* plan() checked it */
        __builtin_unreachable();
    if (K) {
        struct us_sfu_geom g;
        geom(func_table(F), K, &g);
        P.rest = g.fb0 - g.kb;
        P.tsh = P.rest - g.tw;
        P.tmask = (1u << g.tw) - 1u;
        P.kb = g.kb;
    }
    const struct plan *p = &P;
    for (size_t i = 0; i < n; i += W) {
        struct V(red) r;
        V(reduce)(p, F, V(load)(x + i, n - i), &r);
        /* every lane special (lg2(0), ex2(-inf), ...; the lanes past n
         * read +0, special for every function): no LUT read, no Horner */
        vu v = r.res;
        if (V(any)(r.live)) {
            struct V(coef) C;
            V(lut)(p, D, K, r.seg, r.live, &C);
            v = V(finish)(p, F, D, &r, &C);
        }
        V(store)(out + i, v, n - i);
    }
}

TARGET static void V(loops)(const struct plan *p, enum us_sfu_func f,
                            const float *restrict x, float *restrict out,
                            size_t n)
{
#define CASE(F)                                                         \
    case F:                                                             \
        if (p->soa && W == 16)                                         \
            V(run)(p, F, 2, soa_k(func_table(F)), x, out, n);           \
        else if (p->deg == 2)                                           \
            V(run)(p, F, 2, 0, x, out, n);                              \
        else                                                            \
            V(run)(p, F, (int)p->deg, 0, x, out, n);                    \
        break;
    switch (f) {
    CASE(US_SFU_RCP) CASE(US_SFU_RSQ) CASE(US_SFU_SQRT) CASE(US_SFU_LG2)
    CASE(US_SFU_EX2) CASE(US_SFU_SIN) CASE(US_SFU_COS)
    default: break;
    }
#undef CASE
}

#undef vu
#undef vs
#undef vq
#undef vd
#undef mask
