/*
 * The loops of the structure-of-arrays executor, included three times by
 * shader/interp_soa.c: SOA(name) names this build's copy (the baseline's,
 * then the AVX2 and AVX-512 ones under #pragma GCC target).  Only lane loops live
 * here; what an operation computes is isa/micro.h's and
 * shader/interp_ops.h's.  A row is US_SOA_WIDTH floats, one per lane; the
 * loops run over the chunk's n lanes.
 */

/* A source's four component rows, with negation applied (a uniform's
 * rows were filled for the run) into spare rows, or, with `sign`, left
 * to the loop: sign[i][c] is then the sign bit the lane's value takes
 * (micro_neg flips it, NaN included, so an XOR is the same bits). */
US_INLINE void SOA(sources)(struct us_soa *p, const struct soa_inst *si,
                            const float *src[3][4], uint32_t sign[3][4])
{
    for (unsigned i = 0; i < si->d->nsrc; i++) {
        const struct soa_src *s = &si->src[i];
        for (int c = 0; c < 4; c++) {
            const float *restrict a = soa_row(p, s->row[c]);
            bool neg = (s->neg >> c) & 1;
            src[i][c] = a;
            if (sign) {
                sign[i][c] = neg ? 0x80000000u : 0u;
                continue;
            }
            if (!neg)
                continue;
            float *restrict r =
                soa_row(p, SOA_ROW(p, SOA_TMP + 4 * i + (unsigned)c));
            SOA_LOOP
            for (unsigned l = 0; l < US_SOA_WIDTH; l++)
                r[l] = micro_neg(a[l]);
            src[i][c] = r;
        }
    }
}

US_INLINE float SOA(flip)(float x, uint32_t sign)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    u ^= sign;
    memcpy(&x, &u, sizeof x);
    return x;
}

US_INLINE void SOA(comp1)(unsigned mask, float *res[4],
                          const float *s[3][4], const uint32_t sg[3][4],
                          float (*f)(float), int post)
{
    for (; mask; mask &= mask - 1) {
        unsigned c = (unsigned)__builtin_ctz(mask);
        float *r = res[c];
        const float *a = s[0][c];
        uint32_t sa = sg[0][c];
        SOA_LOOP
        for (unsigned l = 0; l < US_SOA_WIDTH; l++)
            r[l] = SOA_POST(post, f(SOA(flip)(a[l], sa)));
    }
}

US_INLINE void SOA(comp2)(unsigned mask, float *res[4],
                          const float *s[3][4], const uint32_t sg[3][4],
                          float (*f)(float, float), int post)
{
    for (; mask; mask &= mask - 1) {
        unsigned c = (unsigned)__builtin_ctz(mask);
        float *r = res[c];
        const float *a = s[0][c], *b = s[1][c];
        uint32_t sa = sg[0][c], sb = sg[1][c];
        SOA_LOOP
        for (unsigned l = 0; l < US_SOA_WIDTH; l++)
            r[l] = SOA_POST(post, f(SOA(flip)(a[l], sa), SOA(flip)(b[l], sb)));
    }
}

US_INLINE void SOA(comp3)(unsigned mask, float *res[4],
                          const float *s[3][4], const uint32_t sg[3][4],
                          float (*f)(float, float, float), int post)
{
    for (; mask; mask &= mask - 1) {
        unsigned c = (unsigned)__builtin_ctz(mask);
        float *r = res[c];
        const float *a = s[0][c], *b = s[1][c], *d = s[2][c];
        uint32_t sa = sg[0][c], sb = sg[1][c], sd = sg[2][c];
        SOA_LOOP
        for (unsigned l = 0; l < US_SOA_WIDTH; l++)
            r[l] = SOA_POST(post, f(SOA(flip)(a[l], sa), SOA(flip)(b[l], sb),
                                    SOA(flip)(d[l], sd)));
    }
}

/* Elementary functions: one us_math batch call when it has one (RSQ's
 * operand is |a|, as micro_rsq passes it, taken into a spare row: source
 * 1's, unused by a one-source opcode), else one call per lane. */
US_INLINE void SOA(repl1)(struct us_soa *p, unsigned n, float *restrict r,
                          const float *s[3][4], const struct us_math *m,
                          enum us_math_fn fn,
                          float (*f)(const struct us_math *, float))
{
    const float *restrict a = s[0][0];
    if (m->batch) {
        if (fn == US_MATH_RSQ) {
            float *restrict t = soa_row(p, SOA_ROW(p, SOA_TMP + 4));
            SOA_LOOP
            for (unsigned l = 0; l < US_SOA_WIDTH; l++)
                t[l] = fabsf(a[l]);
            m->batch(m->cfg, fn, t, NULL, r, n);
        } else {
            m->batch(m->cfg, fn, a, NULL, r, n);
        }
        return;
    }
    for (unsigned l = 0; l < n; l++)
        r[l] = f(m, a[l]);
}

US_INLINE void SOA(repl2)(unsigned n, float *restrict r, const float *s[3][4],
                          const struct us_math *m, enum us_math_fn fn,
                          float (*f)(const struct us_math *, float, float))
{
    const float *restrict a = s[0][0], *restrict b = s[1][0];
    if (m->batch) {
        m->batch(m->cfg, fn, a, b, r, n);
        return;
    }
    for (unsigned l = 0; l < n; l++)
        r[l] = f(m, a[l], b[l]);
}

US_INLINE void SOA(dot)(float *r, const float *s[3][4],
                        float (*f)(const float *, const float *), int post)
{
    const float *a0 = s[0][0], *a1 = s[0][1], *a2 = s[0][2], *a3 = s[0][3];
    const float *b0 = s[1][0], *b1 = s[1][1], *b2 = s[1][2], *b3 = s[1][3];
    SOA_LOOP
    for (unsigned l = 0; l < US_SOA_WIDTH; l++) {
        const float a[4] = { a0[l], a1[l], a2[l], a3[l] };
        const float b[4] = { b0[l], b1[l], b2[l], b3[l] };
        r[l] = SOA_POST(post, f(a, b));
    }
}

/* A replicated result (a dot product's) in to[first]: straight into the
 * destination (`direct`), its other components of `mask` copies of that
 * row; else every result component that row, for SOA(write). */
US_INLINE void SOA(replicate)(bool direct, unsigned mask, float *to[4],
                              float *res[4], unsigned first)
{
    if (!direct) {
        res[0] = res[1] = res[2] = res[3] = to[first];
        return;
    }
    for (mask &= ~(1u << first); mask; mask &= mask - 1)
        memcpy(to[__builtin_ctz(mask)], to[first],
               US_SOA_WIDTH * sizeof(float));
}

/* MIXED opcodes (rare): lane by lane through us_mixed_op. */
static void SOA(mixed)(const struct us_dinst *d, const struct us_math *m,
                       unsigned n, float *res[4], const float *s[3][4])
{
    for (unsigned l = 0; l < n; l++) {
        float v[3][4] = { { 0 } }, r[4];
        for (unsigned i = 0; i < d->nsrc; i++)
            for (int c = 0; c < 4; c++)
                v[i][c] = s[i][c][l];
        us_mixed_op(d->op, m, (const float (*)[4])v, r);
        for (int c = 0; c < 4; c++)
            res[c][l] = r[c];
    }
}

/* LIT with the batch's POW (us_math.batch, the SFU's: its pows are
 * us_math.pow's bit for bit): us_mixed_op's components, micro_lit_z's
 * cases as selects around one batch (its pow taken for every lane). */
static void SOA(lit)(const struct us_math *m, unsigned n, float *res[4],
                     const float *s[3][4])
{
    float b[US_SOA_WIDTH], e[US_SOA_WIDTH], pw[US_SOA_WIDTH];
    const float *x = s[0][0], *y = s[0][1], *w = s[0][3];
    for (unsigned l = 0; l < n; l++) {
        b[l] = micro_lit_clamp0(y[l]);
        e[l] = micro_lit_clamp_exp(w[l]);
    }
    m->batch(m->cfg, US_MATH_POW, b, e, pw, n);
    for (unsigned l = 0; l < n; l++) {
        float cx = micro_lit_clamp0(x[l]);   /* read before res is written */
        res[0][l] = 1.0f;
        res[1][l] = cx;
        res[2][l] = !(cx > 0.0f) ? 0.0f
                  : b[l] == 0.0f && e[l] == 0.0f ? 1.0f : pw[l];
        res[3][l] = 1.0f;
    }
}

/* TEX TXB TXP: every lane samples (interp.c lanes_tex); a quad at a time
 * through sample_quad, else lane by lane. */
static void SOA(tex)(const struct us_dinst *d, const struct us_exec_env *env,
                     unsigned n, bool quads, float *res[4],
                     const float *s[3][4])
{
    if (quads && env->sample_quad) {
        for (unsigned q = 0; q < n; q += 4) {
            float coord[4][4], bias[4], out[4][4];
            for (unsigned k = 0; k < 4; k++) {
                const float v[4] = { s[0][0][q + k], s[0][1][q + k],
                                     s[0][2][q + k], s[0][3][q + k] };
                us_tex_coord(d->op, v, coord[k], &bias[k]);
            }
            env->sample_quad(env->sample_ctx, d->tex_unit, d->tex_target,
                             (const float (*)[4])coord, bias, out);
            for (unsigned k = 0; k < 4; k++)
                for (int c = 0; c < 4; c++)
                    res[c][q + k] = out[k][c];
        }
        return;
    }
    for (unsigned l = 0; l < n; l++) {
        const float v[4] = { s[0][0][l], s[0][1][l], s[0][2][l], s[0][3][l] };
        float coord[4], bias, out[4];
        us_tex_coord(d->op, v, coord, &bias);
        if (env->sample) {
            env->sample(env->sample_ctx, d->tex_unit, d->tex_target, coord,
                        bias, out);
        } else {
            out[0] = out[1] = out[2] = 0.0f;
            out[3] = 1.0f;
        }
        for (int c = 0; c < 4; c++)
            res[c][l] = out[c];
    }
}

/* DDX DDY across each quad's lanes (interp.c lanes_deriv); 0 alone. */
static void SOA(deriv)(enum us_opcode op, unsigned n, bool quads,
                       unsigned mask, float *res[4], const float *s[3][4])
{
    bool fine = op == US_OP_DDX_FINE || op == US_OP_DDY_FINE;
    bool dx = op == US_OP_DDX || op == US_OP_DDX_FINE;
    for (; mask; mask &= mask - 1) {
        unsigned c = (unsigned)__builtin_ctz(mask);
        float *restrict r = res[c];
        const float *restrict a = s[0][c];
        if (!quads) {
            for (unsigned l = 0; l < n; l++)
                r[l] = micro_deriv_lone(a[l]);
            continue;
        }
        for (unsigned q = 0; q < n; q += 4) {
            const float v[4] = { a[q], a[q + 1], a[q + 2], a[q + 3] };
            for (unsigned k = 0; k < 4; k++)
                r[q + k] = dx ? micro_ddx(v, k, fine) : micro_ddy(v, k, fine);
        }
    }
}

static void SOA(kil)(struct us_soa *p, const float *s[3][4])
{
    const float *restrict a0 = s[0][0], *restrict a1 = s[0][1],
                          *restrict a2 = s[0][2], *restrict a3 = s[0][3];
    uint8_t *restrict k = p->killed;
    SOA_LOOP
    for (unsigned l = 0; l < US_SOA_WIDTH; l++) {
        const float a[4] = { a0[l], a1[l], a2[l], a3[l] };
        k[l] = (uint8_t)(k[l] | micro_kil(a));
    }
}

/* Saturate or canonicalize into the destination's rows (2.14.4.3). */
US_INLINE void SOA(write)(struct us_soa *p, const struct soa_inst *si,
                          float *res[4])
{
    for (unsigned mask = si->d->mask; mask; mask &= mask - 1) {
        unsigned c = (unsigned)__builtin_ctz(mask);
        float *restrict w = soa_row(p, si->dst + c);
        const float *restrict r = res[c];
        if (si->d->sat) {
            SOA_LOOP
            for (unsigned l = 0; l < US_SOA_WIDTH; l++)
                w[l] = micro_sat(r[l]);
        } else {
            SOA_LOOP
            for (unsigned l = 0; l < US_SOA_WIDTH; l++)
                w[l] = micro_canon(r[l]);
        }
    }
}

/* One instruction on the chunk's n lanes (interp.c exec, every lane
 * active). */
static void SOA(exec)(struct us_soa *p, const struct soa_inst *si,
                      const struct us_exec_env *env, unsigned n, bool quads)
{
    const struct us_dinst *d = si->d;
    bool dst = d->dst_kind == US_DDST_THREAD;
    /* no destination: nothing to compute, but a texture unit still
     * counts its samples and KIL still kills */
    if (!dst && d->op != US_OP_KIL && us_ops[d->op].format != US_FMT_TEX)
        return;
    const float *s[3][4];
    uint32_t sign[3][4];
    /* component-wise opcodes negate in their loops */
    SOA(sources)(p, si, s, si->comp ? sign : NULL);
    float *res[4];
    for (unsigned c = 0; c < 4; c++)
        res[c] = soa_row(p, SOA_ROW(p, SOA_RES + c));
    const struct us_math *m = env->math;
    unsigned mask = d->mask;
    /* component-wise opcodes write their destination straight away
     * when no source reads it */
    float *to[4];
    for (unsigned c = 0; c < 4; c++)
        to[c] = si->direct ? soa_row(p, si->dst + c) : res[c];
    int post = !si->direct ? SOA_PLAIN : d->sat ? SOA_SAT : SOA_CANON;
    unsigned first = mask ? (unsigned)__builtin_ctz(mask) : 0;
    bool written = false;
    switch ((enum us_opcode)d->op) {
#define X(name, f) case US_OP_##name: \
    if (post == SOA_SAT) SOA(comp1)(mask, to, s, sign, f, SOA_SAT); \
    else if (post == SOA_CANON) SOA(comp1)(mask, to, s, sign, f, SOA_CANON); \
    else SOA(comp1)(mask, to, s, sign, f, SOA_PLAIN); \
    written = si->direct; break;
    COMP1_OPS(X)
#undef X
#define X(name, f) case US_OP_##name: \
    if (post == SOA_SAT) SOA(comp2)(mask, to, s, sign, f, SOA_SAT); \
    else if (post == SOA_CANON) SOA(comp2)(mask, to, s, sign, f, SOA_CANON); \
    else SOA(comp2)(mask, to, s, sign, f, SOA_PLAIN); \
    written = si->direct; break;
    COMP2_OPS(X)
#undef X
#define X(name, f) case US_OP_##name: \
    if (post == SOA_SAT) SOA(comp3)(mask, to, s, sign, f, SOA_SAT); \
    else if (post == SOA_CANON) SOA(comp3)(mask, to, s, sign, f, SOA_CANON); \
    else SOA(comp3)(mask, to, s, sign, f, SOA_PLAIN); \
    written = si->direct; break;
    COMP3_OPS(X)
#undef X
#define X(name, f) case US_OP_##name: SOA(repl1)(p, n, res[0], s, m, \
                                                US_MATH_##name, f);   \
                                      res[1] = res[2] = res[3] = res[0]; break;
    REPL1_OPS(X)
#undef X
#define X(name, f) case US_OP_##name: SOA(repl2)(n, res[0], s, m, \
                                                US_MATH_##name, f);   \
                                      res[1] = res[2] = res[3] = res[0]; break;
    REPL2_OPS(X)
#undef X
#define X(name, f) case US_OP_##name: \
    if (post == SOA_SAT) SOA(dot)(to[first], s, f, SOA_SAT); \
    else if (post == SOA_CANON) SOA(dot)(to[first], s, f, SOA_CANON); \
    else SOA(dot)(to[first], s, f, SOA_PLAIN); \
    SOA(replicate)(si->direct, mask, to, res, first); \
    written = si->direct; break;
    DOT_OPS(X)
#undef X
    case US_OP_LIT:
        if (m->batch)
            SOA(lit)(m, n, res, s);
        else
            SOA(mixed)(d, m, n, res, s);
        break;
    case US_OP_XPD: case US_OP_DST:
    case US_OP_EXP: case US_OP_LOG: case US_OP_SCS:
        SOA(mixed)(d, m, n, res, s);
        break;
    case US_OP_TEX: case US_OP_TXB: case US_OP_TXP:
        SOA(tex)(d, env, n, quads, res, s);
        break;
    case US_OP_DDX: case US_OP_DDX_FINE: case US_OP_DDY: case US_OP_DDY_FINE:
        SOA(deriv)(d->op, n, quads, mask, res, s);
        break;
    case US_OP_KIL:
        SOA(kil)(p, s);
        return;
    default:
        assert(!"us_soa_plan refuses this opcode");
        return;
    }
    if (dst && !written)
        SOA(write)(p, si, res);
}

/* The program on the rows of a chunk of n lanes. */
static void SOA(chunk)(struct us_soa *p, const struct us_exec_env *env,
                       unsigned n, bool quads)
{
    for (unsigned i = 0; i < p->ninsts; i++)
        SOA(exec)(p, &p->inst[i], env, n, quads);
}

/* The batch, a chunk of US_SOA_WIDTH lanes at a time: the register
 * components the program reads before writing them in, the program, the
 * components it writes out (TEMPs only when `temps`). */
static void SOA(run)(struct us_soa *p, const struct us_exec_env *env,
                     struct us_thread *t, unsigned n, bool quads, bool temps)
{
    for (unsigned base = 0; base < n; base += US_SOA_WIDTH) {
        unsigned w = n - base < US_SOA_WIDTH ? n - base : US_SOA_WIDTH;
        struct us_thread *tc = t + base;
        for (unsigned l = 0; l < w; l++) {
            const char *th = (const char *)&tc[l];
            for (unsigned k = 0; k < p->nslots; k++) {
                const float *reg = (const float *)(th + p->slot_off[k]);
                for (unsigned m = p->slot_load[k]; m; m &= m - 1) {
                    unsigned c = (unsigned)__builtin_ctz(m);
                    soa_row(p, 4 * k + c)[l] = reg[c];
                }
            }
            p->killed[l] = tc[l].killed;
        }
        SOA(chunk)(p, env, w, quads);
        for (unsigned l = 0; l < w; l++) {
            char *th = (char *)&tc[l];
            for (unsigned k = 0; k < p->nslots; k++) {
                if (p->slot_temp[k] && !temps)
                    continue;
                float *reg = (float *)(th + p->slot_off[k]);
                for (unsigned m = p->slot_store[k]; m; m &= m - 1) {
                    unsigned c = (unsigned)__builtin_ctz(m);
                    reg[c] = soa_row(p, 4 * k + c)[l];
                }
            }
            tc[l].killed = p->killed[l];
        }
    }
}
