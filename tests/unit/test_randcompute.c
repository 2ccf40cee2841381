/*
 * The compute side of isa/: the vec4 word's memory and branch formats
 * (isa/baseline_simd4.c) on every opcode and on random words.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ushader.h"
#include "isa/scalar.h"

#include "check_main.h"

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
static bool inst_same(const struct us_inst *a, const struct us_inst *b)
{
    struct us_program p = { .insts = (struct us_inst *)a, .ninsts = 1 };
    struct us_program q = { .insts = (struct us_inst *)b, .ninsts = 1 };
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
            ck_assert_msg(us_vencode(&in, w), "does not encode: %s", a);
            ck_assert_msg(us_vdecode(w, &back), "does not decode: %s", a);
            us_inst_format(&back, b, sizeof b);
            ck_assert_msg(inst_same(&in, &back), "%s\n-> %s", a, b);
            ck_assert_str_eq(a, b);
            ck_assert(us_vencode(&back, again));
            ck_assert(!memcmp(w, again, sizeof w));
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
        ck_assert(us_vencode(&in, e));
        ck_assert_msg(!memcmp(w, e, sizeof w), "%08x %08x %08x %08x -> "
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

static Suite *make_suite(void)
{
    Suite *s = suite_create("randcompute");
    TCase *vw = tcase_create("vec4 word");
    tcase_set_timeout(vw, 60);
    tcase_add_test(vw, vec4_word_every_opcode);
    tcase_add_test(vw, vec4_word_refuses);
    tcase_add_test(vw, vec4_word_random_bits);
    suite_add_tcase(s, vw);
    return s;
}
