/*
 * The compute side of isa/: random programs with integers, memory,
 * barriers and BRA (isa/randcompute.c) -- each one assembles back from its
 * disassembly, and the interpreter gives the same registers and memory
 * whatever order its threads run in (single threads in two orders, quads
 * in lockstep); the vec4 word's memory and branch formats
 * (isa/baseline_simd4.c) on every opcode, on random words and on the
 * random programs; the static schedulers (isa/baseline_sched.c) keep
 * memory operations in order and nothing crosses a BAR, MEMBAR or BRA.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ushader.h"
#include "isa/scalar.h"
#include "shader/core.h"

#include "check_main.h"

/* ck_assert reports every passing check to the runner (a write each):
 * the loops below check millions of things, so they only report
 * failures. */
#define CHECK(c) \
    do { if (!(c)) ck_abort_msg("%s:%d: check failed: %s", __FILE__, __LINE__, #c); } while (0)
#define CHECK_MSG(c, ...) \
    do { if (!(c)) ck_abort_msg(__VA_ARGS__); } while (0)

/* ---- The vec4 word -------------------------------------------------------- */

static bool is_shared_op(unsigned op)
{
    return op == US_OP_LDS || op == US_OP_STS || op == US_OP_ATOMS;
}

/* A random source the vec4 word can hold: `wide` (SRC0 of a register
 * format) allows SWZ's 0/1 and a sign per component. */
static void random_vsrc(struct us_rng *r, struct us_src *s, bool wide)
{
    memset(s, 0, sizeof *s);
    s->file = (uint8_t)(1 + us_rng_below(r, US_FILE_ADDRESS));
    s->index = (uint16_t)us_rng_below(r, 1u << SIZE_VW_IDX);
    for (unsigned c = 0; c < 4; c++)
        s->swz[c] = (uint8_t)us_rng_below(r, wide ? 6 : 4);
    s->negate = wide ? (uint8_t)us_rng_below(r, 16)
                     : us_rng_below(r, 2) ? 0xf : 0;
}

/* A random instruction of opcode `op` with every field its format has
 * drawn over the field's whole range, as us_vencode must accept. */
static void random_vinst(struct us_rng *r, unsigned op, struct us_inst *in)
{
    const struct us_opinfo *o = &us_ops[op];
    memset(in, 0, sizeof *in);
    in->op = (uint8_t)op;
    bool mem = o->format == US_FMT_LOAD || o->format == US_FMT_STORE ||
               o->format == US_FMT_ATOM;
    if (o->format != US_FMT_BRA && o->format != US_FMT_BAR) {
        in->dst.file = (uint8_t)us_rng_below(r, US_FILE_ADDRESS + 1);
        in->dst.index = (uint16_t)us_rng_below(r, 1u << SIZE_VW_DIDX);
        in->dst.mask = (uint8_t)us_rng_below(r, 16);
        in->sat = !(o->flags & US_I_DST) && o->shape != US_SHAPE_NONE &&
                  us_rng_below(r, 2);
    }
    if (o->format == US_FMT_TEX) {
        in->tex_unit = (uint8_t)us_rng_below(r, US_MAX_TEX_UNITS);
        in->tex_target = (uint8_t)us_rng_below(r, US_TEX_TARGET_COUNT);
    }
    if (mem) {
        in->tex_unit = is_shared_op(op) ? 0 : (uint8_t)us_rng_below(r, US_MAX_BUFFERS);
        in->mtype = (uint8_t)us_rng_below(r, US_MT_COUNT);
        if (o->format == US_FMT_ATOM)
            in->sub = (uint8_t)us_rng_below(r, US_ATOM_COUNT);
    }
    if (o->format == US_FMT_BRA) {
        in->sub = (uint8_t)us_rng_below(r, US_COND_COUNT);
        in->target = (uint16_t)us_rng_below(r, 1u << SIZE_VW_TARGET);
    }
    for (unsigned i = 0; i < o->nsrc; i++)
        random_vsrc(r, &in->src[i], i == 0 && !mem);
    if (o->nsrc && us_rng_below(r, 3) == 0) {
        struct us_src *s = &in->src[us_rng_below(r, o->nsrc)];
        s->file = US_FILE_PARAM;
        s->rel = true;
        s->rel_offset = (int16_t)((int)us_rng_below(r, 2048) - 1024);
        s->rel_size = (uint16_t)us_rng_below(r, 2048);
    }
}

/* One instruction as a program, for us_program_equal's notion of equal
 * instructions (the fields the opcode has). */
/* The same instruction as far as a vec4 word goes: a source-instruction
 * group ("|") is no part of it (isa/scalar.h). */
static bool inst_same(const struct us_inst *a, const struct us_inst *b)
{
    struct us_inst x = *a, y = *b;
    x.joined = y.joined = false;
    struct us_program p = { .insts = &x, .ninsts = 1 };
    struct us_program q = { .insts = &y, .ninsts = 1 };
    return us_program_equal(&p, &q);
}

/* Every opcode, 2000 times with random fields: encode, decode, the same
 * instruction and the same text; encoding the decoded one gives the
 * same bits. */
START_TEST(vec4_word_every_opcode)
{
    struct us_rng r = { 0x7ec4 };
    unsigned n = 0;
    for (unsigned op = 0; op < US_OP_COUNT; op++)
        for (unsigned k = 0; k < 2000; k++) {
            struct us_inst in, back;
            uint32_t w[4], again[4];
            char a[256], b[256];
            random_vinst(&r, op, &in);
            us_inst_format(&in, a, sizeof a);
            CHECK_MSG(us_vencode(&in, w), "does not encode: %s", a);
            CHECK_MSG(us_vdecode(w, &back), "does not decode: %s", a);
            us_inst_format(&back, b, sizeof b);
            CHECK_MSG(inst_same(&in, &back), "%s\n-> %s", a, b);
            CHECK_MSG(!strcmp(a, b), "%s\n-> %s", a, b);
            CHECK(us_vencode(&back, again));
            CHECK(!memcmp(w, again, sizeof w));
            n++;
        }
    printf("vec4 word: %u instructions of all %d opcodes round trip\n", n,
           US_OP_COUNT);
}
END_TEST

/* What the word cannot hold is refused, not truncated. */
START_TEST(vec4_word_refuses)
{
    struct us_inst in;
    uint32_t w[4];
    struct us_rng r = { 3 };
    random_vinst(&r, US_OP_LOAD, &in);
    in.src[0].rel = false;
    ck_assert(us_vencode(&in, w));
    in.tex_unit = US_MAX_BUFFERS;
    ck_assert(!us_vencode(&in, w));
    in.tex_unit = 0;
    in.mtype = US_MT_COUNT;
    ck_assert(!us_vencode(&in, w));
    in.mtype = US_MT_U8;
    in.src[0].negate = 0x5;              /* an address's sign is whole */
    ck_assert(!us_vencode(&in, w));
    in.src[0].negate = 0;
    in.src[0].swz[2] = US_SWZ_ONE;       /* no 0/1 in an address */
    ck_assert(!us_vencode(&in, w));
    in.src[0].swz[2] = US_SWZ_Z;
    in.sub = 1;                          /* LOAD has no atomic operation */
    ck_assert(!us_vencode(&in, w));

    random_vinst(&r, US_OP_ATOMS, &in);
    in.src[0].rel = in.src[1].rel = in.src[2].rel = false;
    ck_assert(us_vencode(&in, w));
    in.tex_unit = 1;                     /* shared memory has no binding */
    ck_assert(!us_vencode(&in, w));
    in.tex_unit = 0;
    in.sub = US_ATOM_COUNT;
    ck_assert(!us_vencode(&in, w));

    random_vinst(&r, US_OP_BRA, &in);
    in.src[0].rel = in.src[1].rel = false;
    in.target = (1u << SIZE_VW_TARGET) - 1;
    ck_assert(us_vencode(&in, w));
    in.target = 1u << SIZE_VW_TARGET;
    ck_assert(!us_vencode(&in, w));
    in.target = US_MAX_INSTRUCTIONS;
    in.sub = US_COND_COUNT;
    ck_assert(!us_vencode(&in, w));
    in.sub = US_COND_LT_S;
    in.dst.mask = 1;                     /* BRA has no destination */
    ck_assert(!us_vencode(&in, w));

    random_vinst(&r, US_OP_ADD_U, &in);
    in.sat = true;                       /* no _SAT on integer results */
    ck_assert(!us_vencode(&in, w));
    random_vinst(&r, US_OP_BAR, &in);
    ck_assert(us_vencode(&in, w));
    ck_assert(w[0] == US_OP_BAR && !w[1] && !w[2] && !w[3]);
}
END_TEST

/* Random 128-bit words: whatever decodes encodes back to the same bits
 * (the fuzz property of fuzz/fuzz_decode.c), for every format; with the
 * opcode drawn at random, most other fields are kept and only some bits
 * flipped, so words near the valid ones are tried. */
START_TEST(vec4_word_random_bits)
{
    struct us_rng r = { 0xb175 };
    unsigned decoded[US_OP_COUNT] = { 0 }, total = 0;
    for (unsigned k = 0; k < 400000; k++) {
        struct us_inst in;
        uint32_t w[4], e[4];
        random_vinst(&r, us_rng_below(&r, US_OP_COUNT), &in);
        if (!us_vencode(&in, w))
            continue;
        for (unsigned f = us_rng_below(&r, 3); f-- > 0;) {
            unsigned bit = us_rng_below(&r, US_VW_BITS);
            w[bit / 32] ^= 1u << (bit % 32);
        }
        if (!us_vdecode(w, &in))
            continue;
        CHECK(us_vencode(&in, e));
        CHECK_MSG(!memcmp(w, e, sizeof w), "%08x %08x %08x %08x -> "
                      "%08x %08x %08x %08x", w[3], w[2], w[1], w[0], e[3],
                      e[2], e[1], e[0]);
        decoded[in.op]++;
        total++;
    }
    for (unsigned op = 0; op < US_OP_COUNT; op++)
        ck_assert_msg(decoded[op] > 0, "%s never decoded", us_ops[op].name);
    printf("vec4 word: %u random words decoded and encoded back\n", total);
}
END_TEST

/* ---- Random compute programs ---------------------------------------------- */

enum { PROGRAMS_CP = 1600, PROGRAMS_VF = 800, SIZE = 30 };

static unsigned group_threads(const struct us_program *p)
{
    return (unsigned)p->group_size[0] * p->group_size[1] * p->group_size[2];
}

/* Compute in another valid order: workgroups last to first, and in each
 * round a workgroup's threads from the last to the first. */
static void run_reversed(const struct us_rcase *c, struct us_rrun *run)
{
    const struct us_program *p = &c->prog;
    unsigned n = group_threads(p), groups = c->nthreads / n;
    struct us_decoded *d = us_decode(p);
    struct us_flow_state *fs = malloc(n * sizeof *fs);
    struct us_buffer sh = { calloc(p->shared_bytes + 1, 1), p->shared_bytes };
    CHECK(d && fs && sh.data);
    for (unsigned g = groups; g-- > 0;) {
        struct us_thread *t = &run->threads[g * n];
        memset(sh.data, 0, p->shared_bytes);
        for (unsigned i = 0; i < n; i++) {
            t[i].shared = &sh;
            us_flow_start(&fs[i], 1, run->env.max_insts);
        }
        for (bool round = true; round;) {
            round = false;
            for (unsigned i = n; i-- > 0;)
                round |= us_interpret_until_barrier(d, &run->env, &t[i], &fs[i]);
        }
        for (unsigned i = 0; i < n; i++)
            t[i].shared = NULL;
    }
    us_decoded_free(d);
    free(fs);
    free(sh.data);
}

/* Compute with workgroups of 1, 2 or 4 threads as quads in lockstep (last
 * quad first), each workgroup with its own shared memory; a last part
 * quad's workgroups in the reversed order. */
static void run_quads(const struct us_rcase *c, struct us_rrun *run)
{
    const struct us_program *p = &c->prog;
    unsigned n = group_threads(p), groups = c->nthreads / n;
    unsigned whole = c->nthreads / 4 * 4;
    struct us_buffer *sh = calloc(groups, sizeof *sh);
    CHECK(sh);
    for (unsigned g = 0; g < groups; g++) {
        sh[g] = (struct us_buffer){ calloc(p->shared_bytes + 1, 1),
                                    p->shared_bytes };
        CHECK(sh[g].data);
    }
    for (unsigned q = whole; q >= 4; q -= 4) {
        struct us_thread *t = &run->threads[q - 4];
        for (unsigned k = 0; k < 4; k++)
            t[k].shared = &sh[(q - 4 + k) / n];
        us_interpret_quad(p, &run->env, t);
        for (unsigned k = 0; k < 4; k++)
            t[k].shared = NULL;
    }
    if (whole < c->nthreads) {
        struct us_rcase tail = *c;
        struct us_rrun part = *run;
        tail.nthreads = c->nthreads - whole;
        part.threads = run->threads + whole;
        run_reversed(&tail, &part);
    }
    for (unsigned g = 0; g < groups; g++)
        free(sh[g].data);
    free(sh);
}

/* Vertex and fragment threads: last to first alone, quads in lockstep
 * (last first), quads of the decoded program. */
static void run_threads(const struct us_rcase *c, struct us_rrun *run,
                        unsigned how)
{
    const struct us_program *p = &c->prog;
    if (how == 0) {
        for (unsigned i = c->nthreads; i-- > 0;)
            us_interpret(p, &run->env, &run->threads[i]);
    } else if (how == 1) {
        for (unsigned q = c->nthreads; q >= 4; q -= 4)
            us_interpret_quad(p, &run->env, &run->threads[q - 4]);
    } else {
        struct us_decoded *d = us_decode(p);
        CHECK(d);
        us_interpret_quads(d, &run->env, run->threads, c->nthreads / 4);
        us_decoded_free(d);
    }
}

struct tally {
    unsigned programs, insts, runs, lockstep;
    unsigned op[US_OP_COUNT];
    unsigned words[3];                  /* word widths 32 16 8 */
    unsigned mtype[US_MT_COUNT], atom[US_ATOM_COUNT], cond[US_COND_COUNT];
    unsigned bar_in_if, bar_in_loop, bar_in_bra_loop;   /* BARs nested */
    uint64_t loads, stores, atomics, oob, bytes;
};

static void count(struct tally *t, const struct us_rcase *c,
                  const struct us_rrun *ref)
{
    const struct us_program *p = &c->prog;
    t->programs++;
    t->insts += p->ninsts;
    t->words[p->word_bits == 16 ? 1 : p->word_bits == 8 ? 2 : 0]++;
    for (unsigned i = 0; i < p->ninsts; i++) {
        const struct us_inst *in = &p->insts[i];
        enum us_op_format f = us_ops[in->op].format;
        t->op[in->op]++;
        if (f == US_FMT_LOAD || f == US_FMT_STORE || f == US_FMT_ATOM)
            t->mtype[in->mtype]++;
        if (f == US_FMT_ATOM)
            t->atom[in->sub]++;
        if (f == US_FMT_BRA)
            t->cond[in->sub]++;
    }
    /* where the BARs stand: in IF/ELSE bodies, structured loops, the
     * range of a backward BRA */
    unsigned ifs = 0, loops = 0;
    for (unsigned i = 0; i < p->ninsts; i++) {
        unsigned op = p->insts[i].op;
        ifs += op == US_OP_IF;
        ifs -= op == US_OP_ENDIF;
        loops += op == US_OP_BGNLOOP;
        loops -= op == US_OP_ENDLOOP;
        if (op != US_OP_BAR)
            continue;
        t->bar_in_if += ifs > 0;
        t->bar_in_loop += loops > 0;
        bool in_bra = false;
        for (unsigned j = i; j < p->ninsts && !in_bra; j++)
            in_bra = p->insts[j].op == US_OP_BRA && p->insts[j].target <= i;
        t->bar_in_bra_loop += in_bra;
    }
    t->loads += ref->mem.counts.loads;
    t->stores += ref->mem.counts.stores;
    t->atomics += ref->mem.counts.atomics;
    t->oob += ref->mem.counts.oob;
    t->bytes += ref->mem.counts.bytes;
}

static void check_same(const struct us_rcase *c, const struct us_rrun *ref,
                       const struct us_rrun *run, const char *how,
                       uint64_t seed)
{
    char why[128];
    if (!us_rrun_same(c, ref, run, why, sizeof why)) {
        char *text = us_disassemble(&c->prog);
        fprintf(stderr, "%s", text ? text : "");
        free(text);
        ck_abort_msg("seed %llu, %s: %s", (unsigned long long)seed, how, why);
    }
}

/* One random case: round trip, reference, the other orders. */
static void check_case(enum us_stage stage, uint64_t seed, struct tally *t)
{
    struct us_rng r = { seed };
    struct us_rcase c;
    CHECK(us_random_case(&r, stage, SIZE, &c));
    CHECK(c.prog.stage == stage);
    CHECK(c.prog.ninsts < 1000);

    char *text = us_disassemble(&c.prog);
    CHECK(text);
    struct us_program back;
    struct us_diag d;
    if (!us_assemble(text, strlen(text), US_STAGE_ANY, &back, &d)) {
        fprintf(stderr, "%s", text);
        ck_abort_msg("seed %llu: %u:%u: %s", (unsigned long long)seed, d.line,
                     d.col, d.msg);
    }
    if (!us_program_equal(&c.prog, &back)) {
        fprintf(stderr, "%s", text);
        ck_abort_msg("seed %llu: round trip differs", (unsigned long long)seed);
    }
    us_program_free(&back);
    free(text);

    struct us_rrun ref, run;
    CHECK(us_rrun_init(&c, &ref));
    CHECK_MSG(us_rrun_reference(&c, &ref, &d), "seed %llu: %s",
                  (unsigned long long)seed, d.msg);
    for (unsigned i = 0; i < c.nthreads; i++)
        CHECK(!ref.threads[i].overrun);
    count(t, &c, &ref);
    if (stage == US_STAGE_COMPUTE) {
        CHECK(us_rrun_init(&c, &run));
        run_reversed(&c, &run);
        check_same(&c, &ref, &run, "reversed order", seed);
        us_rrun_free(&run);
        t->runs++;
        if (4 % group_threads(&c.prog) == 0) {
            CHECK(us_rrun_init(&c, &run));
            run_quads(&c, &run);
            check_same(&c, &ref, &run, "quads in lockstep", seed);
            us_rrun_free(&run);
            t->runs++;
            t->lockstep++;
        }
    } else {
        static const char *const hows[] = { "reversed order", "quads",
                                            "decoded quads" };
        for (unsigned how = 0; how < 3; how++) {
            CHECK(us_rrun_init(&c, &run));
            run_threads(&c, &run, how);
            check_same(&c, &ref, &run, hows[how], seed);
            us_rrun_free(&run);
            t->runs++;
            t->lockstep += how > 0;
        }
    }
    us_rrun_free(&ref);
    us_rcase_free(&c);
}

static void print_tally(const struct tally *t)
{
    printf("random compute programs: %u (%u instructions; words 32/16/8: "
           "%u/%u/%u), %u other-order runs identical (%u in lockstep)\n",
           t->programs, t->insts, t->words[0], t->words[1], t->words[2],
           t->runs, t->lockstep);
    unsigned cls[8] = { 0 };   /* int float conv memory BAR MEMBAR BRA flow */
    for (unsigned op = 0; op < US_OP_COUNT; op++) {
        const struct us_opinfo *o = &us_ops[op];
        unsigned k = o->format == US_FMT_BRA ? 6
                   : op == US_OP_BAR ? 4 : op == US_OP_MEMBAR ? 5
                   : o->unit == US_UNIT_LSU ? 3
                   : o->unit == US_UNIT_BRANCH ? 7
                   : op == US_OP_I2F_S || op == US_OP_I2F_U ||
                     op == US_OP_TRUNC_S || op == US_OP_TRUNC_U ? 2
                   : o->flags & (US_I_SRC | US_I_DST) ? 0 : 1;
        cls[k] += t->op[op];
    }
    printf("  BARs in IF bodies %u, in loops %u, in BRA loops %u\n",
           t->bar_in_if, t->bar_in_loop, t->bar_in_bra_loop);
    printf("  integer %u, float %u, conversions %u, memory %u, BAR %u, "
           "MEMBAR %u, BRA %u, structured flow %u\n", cls[0], cls[1], cls[2],
           cls[3], cls[4], cls[5], cls[6], cls[7]);
    printf("  memory:");
    for (unsigned op = 0; op < US_OP_COUNT; op++)
        if (us_ops[op].unit == US_UNIT_LSU)
            printf(" %s %u", us_ops[op].name, t->op[op]);
    printf("; types");
    for (unsigned m = 0; m < US_MT_COUNT; m++)
        printf(" %s %u", us_mtype_names[m], t->mtype[m]);
    printf("\n  atomics");
    for (unsigned a = 0; a < US_ATOM_COUNT; a++)
        printf(" %s %u", us_atom_names[a], t->atom[a]);
    printf("; BRA");
    for (unsigned k = 0; k < US_COND_COUNT; k++)
        printf(" %s %u", k ? us_cond_names[k] : "always", t->cond[k]);
    printf("\n  executed: %llu loads, %llu stores, %llu atomics (%llu bytes), "
           "%llu out of bounds\n", (unsigned long long)t->loads,
           (unsigned long long)t->stores, (unsigned long long)t->atomics,
           (unsigned long long)t->bytes, (unsigned long long)t->oob);
    printf("  opcodes:");
    for (unsigned op = 0; op < US_OP_COUNT; op++)
        printf(" %s %u", us_ops[op].name, t->op[op]);
    printf("\n");
}

START_TEST(random_programs)
{
    static struct tally t;
    memset(&t, 0, sizeof t);
    for (unsigned k = 0; k < PROGRAMS_CP; k++)
        check_case(US_STAGE_COMPUTE, 0xc0de0000u + k, &t);
    for (unsigned k = 0; k < PROGRAMS_VF; k++) {
        check_case(US_STAGE_VERTEX, 0xa0000000u + k, &t);
        check_case(US_STAGE_FRAGMENT, 0xf0000000u + k, &t);
    }
    print_tally(&t);
    /* every opcode, access type, atomic operation and condition; but the
     * derivatives, whose quad results differ from a lone thread's by
     * design (test_interp's quad_derivatives) */
    for (unsigned op = 0; op < US_OP_COUNT; op++)
        CHECK_MSG(t.op[op] > 0 || (us_ops[op].flags & US_QUAD),
                  "%s never generated", us_ops[op].name);
    for (unsigned m = 0; m < US_MT_COUNT; m++)
        CHECK(t.mtype[m] > 0);
    for (unsigned a = 0; a < US_ATOM_COUNT; a++)
        CHECK(t.atom[a] > 0);
    for (unsigned k = 0; k < US_COND_COUNT; k++)
        CHECK(t.cond[k] > 0);
    CHECK(t.words[1] && t.words[2] && t.oob && t.atomics);
}
END_TEST

/* us_rrun_same (what the models will be checked with) sees one flipped
 * bit of registers, memory or counts, and us_rrun_workload hands a model
 * the case as it is. */
START_TEST(rrun_same_sees_differences)
{
    for (unsigned k = 0; k < 2; k++) {
        struct us_rng r = { 77 + k };
        struct us_rcase c;
        struct us_rrun a, b;
        struct us_diag d;
        char why[160];
        ck_assert(us_random_case(&r, k ? US_STAGE_FRAGMENT : US_STAGE_COMPUTE,
                                 SIZE, &c));
        ck_assert(us_rrun_init(&c, &a) && us_rrun_init(&c, &b));
        ck_assert(us_rrun_reference(&c, &a, &d) && us_rrun_reference(&c, &b, &d));
        ck_assert(us_rrun_same(&c, &a, &b, why, sizeof why));
        struct us_workload w;
        us_rrun_workload(&c, &b, &w);
        ck_assert(w.prog == &c.prog && w.env == &b.env &&
                  w.threads == b.threads && w.nthreads == c.nthreads &&
                  w.env->mem == &b.mem && w.env->max_insts == US_RCASE_BUDGET);

        unsigned last = c.nthreads - 1;
        b.threads[last].temp[US_MAX_TEMPS - 1][3] = 1.0f;
        ck_assert(!us_rrun_same(&c, &a, &b, why, sizeof why));
        char want[64];
        snprintf(want, sizeof want, "thread %u: TEMP 255 differs", last);
        ck_assert_str_eq(why, want);
        b.threads[last].temp[US_MAX_TEMPS - 1][3] = a.threads[last].temp[US_MAX_TEMPS - 1][3];
        b.threads[0].killed ^= 1;
        ck_assert(!us_rrun_same(&c, &a, &b, why, sizeof why));
        b.threads[0].killed ^= 1;
        struct us_buffer *buf = &b.mem.buf[c.layout.priv];
        buf->data[buf->size - 1] ^= 0x80;
        ck_assert(!us_rrun_same(&c, &a, &b, why, sizeof why));
        ck_assert(strstr(why, "differs at byte") != NULL);
        buf->data[buf->size - 1] ^= 0x80;
        b.mem.counts.oob++;
        ck_assert(!us_rrun_same(&c, &a, &b, why, sizeof why));
        b.mem.counts.oob--;
        ck_assert(us_rrun_same(&c, &a, &b, why, sizeof why));
        us_rrun_free(&a);
        us_rrun_free(&b);
        us_rcase_free(&c);
    }
}
END_TEST

/* ---- Encoding and static schedules of the random programs ------------------ */

/* Program order 0..n-1 against bundles: memory operations (mem[i]) in
 * strictly increasing bundles; an `alone` item after every earlier one
 * and before every later one; a block beginning at a BRA target t after
 * everything before t, entered at the first bundle of t's block
 * (want_entry[i] for the BRA at i, checked when not NULL); RAW and WAW
 * dependences in later bundles, WAR in the same or later. */
struct order {
    unsigned n, nb;
    const unsigned *bundle;
    const bool *mem, *alone;
    const uint32_t *target;            /* BRA: target, else UINT32_MAX   */
    const uint32_t *got_entry;         /* BRA: its remapped target       */
    const struct us_sched_item *items;
    int *writer;                       /* scratch: KEYS entries each     */
    unsigned *read_max;
};

enum { KEYS = 8 << 12 };

static void check_order(const struct order *o)
{
    unsigned n = o->n;
    unsigned *pmax = malloc((n + 1) * sizeof *pmax);   /* max of [0, i)  */
    unsigned *smin = malloc((n + 1) * sizeof *smin);   /* min of [i, n)  */
    CHECK(pmax && smin);
    pmax[0] = 0;
    for (unsigned i = 0; i < n; i++)
        pmax[i + 1] = i == 0 || o->bundle[i] > pmax[i] ? o->bundle[i] : pmax[i];
    smin[n] = o->nb;
    for (unsigned i = n; i-- > 0;)
        smin[i] = o->bundle[i] < smin[i + 1] ? o->bundle[i] : smin[i + 1];
    int last_mem = -1;
    for (unsigned i = 0; i < n; i++) {
        CHECK(o->bundle[i] < o->nb);
        if (o->mem[i]) {
            if (last_mem >= 0)
                CHECK_MSG(o->bundle[last_mem] < o->bundle[i], "memory "
                              "operations %d and %u reordered or together",
                              last_mem, i);
            last_mem = (int)i;
        }
        if (o->alone[i]) {
            CHECK_MSG(i == 0 || pmax[i] < o->bundle[i],
                          "something before %u moved across it", i);
            CHECK_MSG(smin[i + 1] > o->bundle[i],
                          "something after %u moved across it", i);
        }
        if (o->target[i] != UINT32_MAX) {
            unsigned t = o->target[i];
            CHECK(t <= n);
            CHECK_MSG(t == 0 || t == n || pmax[t] < smin[t],
                          "code moved across the label at %u", t);
            if (o->got_entry)
                CHECK(o->got_entry[i] == smin[t]);
        }
    }
    /* register dependences: last writer and the latest bundle + 1 that
     * read since (0: none), per key */
    int *writer = o->writer;
    unsigned *read_max = o->read_max;
    for (unsigned i = 0; i < n; i++) {
        const struct us_sched_item *it = &o->items[i];
        for (unsigned j = 0; j < it->nreads; j++)
            writer[it->reads[j] % KEYS] = -1, read_max[it->reads[j] % KEYS] = 0;
        for (unsigned j = 0; j < it->nwrites; j++)
            writer[it->writes[j] % KEYS] = -1, read_max[it->writes[j] % KEYS] = 0;
    }
    for (unsigned i = 0; i < n; i++) {
        const struct us_sched_item *it = &o->items[i];
        for (unsigned j = 0; j < it->nreads; j++) {
            int w = writer[it->reads[j] % KEYS];
            CHECK(w < 0 || o->bundle[w] < o->bundle[i]);
        }
        for (unsigned j = 0; j < it->nwrites; j++) {
            unsigned k = it->writes[j] % KEYS;
            CHECK(writer[k] < 0 || o->bundle[writer[k]] < o->bundle[i]);
            CHECK(read_max[k] == 0 || read_max[k] - 1 <= o->bundle[i]);
        }
        for (unsigned j = 0; j < it->nwrites; j++) {
            writer[it->writes[j] % KEYS] = (int)i;
            read_max[it->writes[j] % KEYS] = 0;
        }
        for (unsigned j = 0; j < it->nreads; j++) {
            unsigned k = it->reads[j] % KEYS;
            if (o->bundle[i] + 1 > read_max[k])
                read_max[k] = o->bundle[i] + 1;
        }
    }
    free(pmax);
    free(smin);
}

struct stally {
    unsigned programs, words, hetero, wide, lowered;
    int writer[KEYS];
    unsigned read_max[KEYS];
};

/* Every instruction (but those with two relative sources, which the vec4
 * targets split first) through the vec4 word; the three vec4 targets
 * encode the whole program and disassemble it. */
static void check_words(const struct us_program *p, struct stally *st)
{
    for (unsigned i = 0; i < p->ninsts; i++) {
        const struct us_inst *in = &p->insts[i];
        unsigned nrel = 0;
        for (unsigned k = 0; k < us_ops[in->op].nsrc; k++)
            nrel += in->src[k].rel;
        uint32_t w[4];
        if (nrel > 1) {
            CHECK(!us_vencode(in, w));
            continue;
        }
        struct us_inst back;
        char a[256], b[256];
        us_inst_format(in, a, sizeof a);
        CHECK_MSG(us_vencode(in, w), "%s", a);
        CHECK(us_vdecode(w, &back));
        us_inst_format(&back, b, sizeof b);
        CHECK_MSG(inst_same(in, &back), "%s\n-> %s", a, b);
        CHECK(!strcmp(a, b));
        st->words++;
    }
    static const enum us_target targets[] = { US_TARGET_SIMD4,
                                              US_TARGET_SUPERSCALAR,
                                              US_TARGET_HETERO };
    for (unsigned k = 0; k < 3; k++) {
        struct us_binary bin;
        struct us_diag d;
        char *text;
        CHECK_MSG(us_encode_target(p, targets[k], &bin, &d), "%s: %s",
                      us_target_name(targets[k]), d.msg);
        CHECK_MSG(us_binary_disassemble(&bin, &text, &d), "%s", d.msg);
        free(text);
        us_binary_free(&bin);
    }
}

static void vec4_items(const struct us_program *p, struct us_sched_item *items,
                       bool *mem, bool *alone, uint32_t *target, uint8_t *cut)
{
    for (unsigned i = 0; i < p->ninsts; i++) {
        const struct us_inst *in = &p->insts[i];
        enum us_unit u = us_ops[in->op].unit;
        us_sched_item_vec4(in, &items[i]);
        mem[i] = u == US_UNIT_LSU;
        alone[i] = u == US_UNIT_BRANCH || u == US_UNIT_BARRIER;
        target[i] = in->op == US_OP_BRA ? in->target : UINT32_MAX;
        cut[i] = alone[i] ? US_SCHED_ALONE : US_SCHED_PLAIN;
    }
    for (unsigned i = 0; i < p->ninsts; i++)
        if (target[i] < p->ninsts && cut[target[i]] == US_SCHED_PLAIN)
            cut[target[i]] = US_SCHED_BEGIN;
}

/* Does the scalar ISA have the program's compute opcodes yet (a scalar
 * opcode made from each)?  The lowering of the others is still to come. */
static bool lowerable(const struct us_program *p)
{
    for (unsigned i = 0; i < p->ninsts; i++) {
        const struct us_opinfo *o = &us_ops[p->insts[i].op];
        if (!(o->flags & (US_I_SRC | US_I_DST)) && o->unit != US_UNIT_LSU &&
            o->unit != US_UNIT_BARRIER)
            continue;
        bool found = false;
        for (unsigned k = 0; k < US_SOP_COUNT && !found; k++)
            found = us_sops[k].from == (int)p->insts[i].op;
        if (!found)
            return false;
    }
    return true;
}

/* Hetero pairs, and 4-wide bundles of vec4 items (the VLIW rules on vec4
 * instructions: up to four memory operations could share a bundle). */
static void check_schedules(const struct us_program *p, struct stally *st)
{
    unsigned n = p->ninsts;
    struct us_sched_item *items = malloc(n * sizeof *items);
    bool *mem = malloc(n), *alone = malloc(n);
    uint32_t *target = malloc(n * sizeof *target);
    uint32_t *entry = malloc((n + 1) * sizeof *entry);
    uint8_t *cut = malloc(n);
    unsigned *bundle = malloc(n * sizeof *bundle), *slot = malloc(n * sizeof *slot);
    CHECK(items && mem && alone && target && entry && cut && bundle && slot);
    vec4_items(p, items, mem, alone, target, cut);

    struct us_inst *slots;
    bool *empty;
    unsigned nb;
    CHECK(us_hetero_schedule(p, &slots, &empty, &nb));
    for (unsigned i = 0; i < n; i++)
        bundle[i] = UINT32_MAX;
    for (unsigned k = 0; k < 2 * nb; k++) {
        if (empty[k])
            continue;
        unsigned i = slots[k].line - 2;   /* the generator's line numbers */
        CHECK(i < n && bundle[i] == UINT32_MAX);
        bundle[i] = k / 2;
        if (slots[k].op == US_OP_BRA)
            entry[i] = slots[k].target;
        if (alone[i])
            CHECK(k % 2 == 0 && empty[k + 1]);
    }
    for (unsigned i = 0; i < n; i++)
        CHECK(bundle[i] != UINT32_MAX);
    struct order o = { n, nb, bundle, mem, alone, target, entry, items,
                       st->writer, st->read_max };
    check_order(&o);
    free(slots);
    free(empty);
    st->hetero++;

    for (unsigned i = 0; i < n; i++)
        items[i].slots = 0xf;
    uint32_t *first = malloc((n + 1) * sizeof *first);
    CHECK(first);
    nb = us_list_schedule_blocks(items, cut, n, 4, bundle, slot, first);
    CHECK(nb > 0);
    for (unsigned i = 0; i < n; i++)
        entry[i] = target[i] != UINT32_MAX ? first[target[i]] : 0;
    o.nb = nb;
    check_order(&o);
    CHECK(first[n] == nb);
    free(first);
    st->wide++;

    /* VLIW proper, once the scalar ISA lowers the program */
    struct us_scode code;
    struct us_diag d;
    if (lowerable(p) && us_lower(p, false, &code, &d)) {
        struct us_sinst *vs;
        uint32_t *origin;
        unsigned vb;
        CHECK(us_vliw_schedule(&code, 4, false, &vs, &origin, &vb));
        unsigned m = code.n;
        struct us_sched_item *si = malloc(m * sizeof *si);
        bool *smem = malloc(m), *salone = malloc(m);
        uint32_t *stgt = malloc(m * sizeof *stgt), *sent = malloc(m * sizeof *sent);
        unsigned *sb = malloc(m * sizeof *sb);
        CHECK(si && smem && salone && stgt && sent && sb);
        for (unsigned i = 0; i < m; i++) {
            const struct us_sinst *in = &code.insts[i];
            us_sched_item_scalar(in, &si[i]);
            smem[i] = us_sops[in->op].unit == US_UNIT_LSU;
            salone[i] = us_sops[in->op].kind == US_SK_FLOW ||
                        us_sop_flow_kind((enum us_sop)in->op) != US_FLOW_NONE ||
                        us_sops[in->op].unit == US_UNIT_BARRIER;
            stgt[i] = us_sop_flow_kind((enum us_sop)in->op) == US_FLOW_BRA
                          ? in->target : UINT32_MAX;
        }
        for (unsigned k = 0; k < vb * 4; k++)
            if (origin[k] != UINT32_MAX) {
                sb[origin[k]] = k / 4;
                sent[origin[k]] = vs[k].target;
            }
        struct order so = { m, vb, sb, smem, salone, stgt, sent, si,
                            st->writer, st->read_max };
        check_order(&so);
        free(si); free(smem); free(salone); free(stgt); free(sent); free(sb);
        free(vs);
        free(origin);
        us_scode_free(&code);
        st->lowered++;
    }
    free(items);
    free(mem);
    free(alone);
    free(target);
    free(entry);
    free(cut);
    free(bundle);
    free(slot);
}

START_TEST(random_programs_encode_and_schedule)
{
    static struct stally st;
    memset(&st, 0, sizeof st);
    for (unsigned k = 0; k < 1200; k++) {
        enum us_stage stage = k % 3 == 0 ? US_STAGE_VERTEX
                            : k % 3 == 1 ? US_STAGE_FRAGMENT : US_STAGE_COMPUTE;
        struct us_rng r = { 0x5c4ed000u + k };
        struct us_rcase c;
        CHECK(us_random_case(&r, stage, SIZE, &c));
        check_words(&c.prog, &st);
        check_schedules(&c.prog, &st);
        st.programs++;
        us_rcase_free(&c);
    }
    printf("random compute programs: %u, %u instructions through the vec4 "
           "word, %u hetero and %u 4-wide block schedules in order, %u "
           "lowered for VLIW\n", st.programs, st.words, st.hetero, st.wide,
           st.lowered);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("randcompute");
    TCase *vw = tcase_create("vec4 word");
    tcase_set_timeout(vw, 60);
    tcase_add_test(vw, vec4_word_every_opcode);
    tcase_add_test(vw, vec4_word_refuses);
    tcase_add_test(vw, vec4_word_random_bits);
    suite_add_tcase(s, vw);
    TCase *rp = tcase_create("random programs");
    tcase_set_timeout(rp, 120);
    tcase_add_test(rp, random_programs);
    tcase_add_test(rp, random_programs_encode_and_schedule);
    tcase_add_test(rp, rrun_same_sees_differences);
    suite_add_tcase(s, rp);
    return s;
}
