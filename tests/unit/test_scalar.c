/*
 * The scalar ISA: encode -> decode -> disassemble round trips for every
 * opcode and operand form, decoder rejection of malformed words, the vec4
 * word, the lowering and compaction of hand-built IR, the opcode table's
 * consistency with isa/ops.def, and the binary file format.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/scalar.h"

#include "check_main.h"

static const unsigned files[] = { US_FILE_TEMP, US_FILE_INPUT, US_FILE_OUTPUT,
                                  US_FILE_PARAM, US_FILE_ADDRESS, US_FILE_IMM,
                                  US_FILE_SCRATCH };

static void round_trip(const struct us_sinst *in)
{
    ck_assert_msg(us_sinst_valid(in), "%s", us_sops[in->op].name);
    us_sword w = us_sencode(in);
    struct us_sinst out;
    ck_assert(us_sdecode(w, &out));
    ck_assert(us_sinst_equal(in, &out));
    us_sword w2 = us_sencode(&out);
    ck_assert(!memcmp(&w, &w2, sizeof w));
    char a[200], b[200];
    us_sinst_format(in, a, sizeof a);
    us_sinst_format(&out, b, sizeof b);
    ck_assert_str_eq(a, b);
    ck_assert_int_gt((int)strlen(a), 2);
}

/* Every opcode x count x operand file x step x rot x neg x abs, placed in
 * each source slot in turn (the other operands fixed and valid). */
START_TEST(every_operand_form_round_trips)
{
    unsigned tried = 0;
    for (unsigned op = 0; op < US_SOP_COUNT; op++) {
        const struct us_sopinfo *o = &us_sops[op];
        for (unsigned count = 1; count <= 4; count++)
            for (unsigned slot = 0; slot < 4; slot++)          /* 3 = dst */
                for (unsigned f = 0; f < 7; f++)
                    for (unsigned form = 0; form < 32; form++) {
                        struct us_sinst in;
                        memset(&in, 0, sizeof in);
                        in.op = (uint8_t)op;
                        in.count = (uint8_t)count;
                        if (o->kind == US_SK_NOP) {
                            in.count = 1;
                        } else if (o->kind != US_SK_KIL) {
                            in.dst.file = o->kind == US_SK_ARL ? US_FILE_ADDRESS
                                                               : US_FILE_TEMP;
                            in.dst.reg = 1;
                        }
                        for (unsigned i = 0; i < o->nsrc; i++) {
                            in.src[i].file = i == 0 && o->kind == US_SK_LDR
                                                 ? US_FILE_PARAM : US_FILE_INPUT;
                            in.src[i].reg = (uint16_t)(4 * i + 2);
                        }
                        if (o->kind == US_SK_LDR) {
                            in.rel_size = 8;
                            in.rel_offset = (int16_t)(form & 1 ? -5 : 2047);
                        }
                        if (o->kind == US_SK_INT)
                            in.word = 32;
                        if (o->kind == US_SK_MEM) {
                            in.mtype = US_MT_U32;
                            if (us_sop_access((enum us_sop)op) == US_ACC_STORE)
                                in.dst.file = 0, in.dst.reg = 0;
                        }
                        if (o->kind == US_SK_TEX) {
                            in.tex_unit = (uint8_t)(form % US_MAX_TEX_UNITS);
                            in.tex_target = (uint8_t)(form % US_TEX_TARGET_COUNT);
                        }
                        struct us_sopnd *x = slot == 3 ? &in.dst
                                           : slot < o->nsrc ? &in.src[slot] : NULL;
                        if (!x || (slot == 3 && o->kind == US_SK_KIL))
                            continue;
                        x->file = (uint8_t)files[f];
                        x->reg = (uint16_t)((us_sfile_size(files[f]) - 4) | (form & 3));
                        x->step = (uint8_t)((form >> 2) & 3);
                        x->rot = (form >> 4) & 1;
                        if (slot != 3) {
                            x->neg = (form >> 1) & 1;
                            x->abs = (form >> 3) & 1;
                        }
                        in.sat = (form & 8) && o->kind != US_SK_KIL &&
                                 o->kind != US_SK_ARL && o->kind != US_SK_NOP;
                        if (!us_sinst_valid(&in))
                            continue;
                        round_trip(&in);
                        tried++;
                    }
    }
    printf("scalar round trips: %u operand forms\n", tried);
    ck_assert_uint_gt(tried, 5000);
}
END_TEST

/* Every opcode has at least one valid form, with each count it allows. */
START_TEST(every_opcode_round_trips)
{
    for (unsigned op = 0; op < US_SOP_COUNT; op++) {
        const struct us_sopinfo *o = &us_sops[op];
        struct us_sinst in;
        memset(&in, 0, sizeof in);
        in.op = (uint8_t)op;
        in.count = o->kind == US_SK_NOP || o->kind == US_SK_BAR ? 1 : 4;
        if (o->kind == US_SK_FLOW) {   /* one issue, SRC0 (IF) and TARGET */
            in.count = 1;
            in.target = (1u << SIZE_SW_TARGET) - 1 - op;
            for (unsigned i = 0; i < o->nsrc; i++)
                in.src[i] = (struct us_sopnd){ .file = US_FILE_SCRATCH,
                                               .reg = (uint16_t)(31 - i),
                                               .neg = true, .abs = i == 0 };
            if (op == US_SOP_BRA) {   /* SRC0, SRC1, COND, WORD */
                in.cond = US_COND_GE_U;
                in.word = 8;
            }
            round_trip(&in);
            continue;
        }
        if (o->kind == US_SK_MEM) {   /* MTYPE, BUF; stores have no dst */
            if (us_sop_access((enum us_sop)op) != US_ACC_STORE)
                in.dst = (struct us_sopnd){ .file = US_FILE_TEMP,
                                            .reg = 4 * 255 + 3, .step = 3 };
            for (unsigned i = 0; i < o->nsrc; i++)
                in.src[i] = (struct us_sopnd){ .file = US_FILE_INPUT,
                                               .reg = (uint16_t)(4 * i + 1),
                                               .step = (uint8_t)i,
                                               .neg = i == 1 };
            in.mtype = us_sop_access((enum us_sop)op) == US_ACC_ATOM
                           ? US_MT_S32 : US_MT_S16;
            in.buf = us_sop_shared((enum us_sop)op) ? 0 : US_MAX_BUFFERS - 1;
            round_trip(&in);
            continue;
        }
        if (o->kind == US_SK_INT)
            in.word = 16;
        if (o->kind == US_SK_ARL)
            in.dst = (struct us_sopnd){ .file = US_FILE_ADDRESS };
        else if (o->kind != US_SK_KIL && o->kind != US_SK_NOP &&
                 o->kind != US_SK_BAR)
            in.dst = (struct us_sopnd){ .file = US_FILE_OUTPUT, .reg = 9,
                                        .step = o->kind == US_SK_DOT ? 0 : 1 };
        bool sfu = o->kind == US_SK_VAL && o->unit == US_UNIT_SFU;
        for (unsigned i = 0; i < o->nsrc; i++)
            in.src[i] = (struct us_sopnd){ .file = US_FILE_TEMP, .reg = (uint16_t)(i + 4),
                                           .step = (uint8_t)(sfu ? 0 : 1),
                                           .neg = i == 1 };
        if (o->kind == US_SK_LDR) {
            in.src[0].file = US_FILE_PARAM;
            in.rel_size = 1;
            in.rel_offset = -2048;
        }
        if (o->kind == US_SK_TEX)
            in.tex_unit = 15, in.tex_target = US_TEX_SHADOWRECT;
        round_trip(&in);
    }
}
END_TEST

START_TEST(decoder_rejects_malformed_words)
{
    struct us_sinst in = { .op = US_SOP_ADD, .count = 2,
                           .dst = { .file = US_FILE_TEMP, .reg = 0, .step = 1 },
                           .src = { { .file = US_FILE_TEMP, .reg = 4, .step = 1 },
                                    { .file = US_FILE_PARAM, .reg = 8 } } };
    us_sword good = us_sencode(&in), w;
    struct us_sinst out;
    ck_assert(us_sdecode(good, &out));
    w = good;
    us_sw_set_word(&w, 1);                      /* a word width on ADD */
    ck_assert(!us_sdecode(w, &out));
    w = good;
    us_sw_set_op(&w, US_SOP_COUNT);             /* no such opcode */
    ck_assert(!us_sdecode(w, &out));
    w = good;
    us_sw_set_sfile(&w, 2, US_FILE_TEMP);       /* ADD has no third source */
    ck_assert(!us_sdecode(w, &out));
    w = good;
    us_sw_set_dfile(&w, US_FILE_PARAM);         /* PARAM is read-only */
    ck_assert(!us_sdecode(w, &out));
    w = good;
    us_sw_set_sfile(&w, 0, US_FILE_NULL);       /* a used source needs a file */
    ck_assert(!us_sdecode(w, &out));
    w = good;
    us_sw_set_cnt(&w, 0);                       /* one repetition: steps 0 */
    ck_assert(!us_sdecode(w, &out));
    w = good;
    us_sw_set_rot(&w, 1);                       /* ROT, step 1 from x: ok */
    ck_assert(us_sdecode(w, &out));
    us_sw_set_sreg(&w, 0, 7);                   /* ...but never from w */
    ck_assert(!us_sdecode(w, &out));
    w = good;
    us_sw_set_textgt(&w, 1);                    /* tex fields on an ALU op */
    ck_assert(!us_sdecode(w, &out));
}
END_TEST

START_TEST(field_helpers_straddle_words)
{
    uint32_t w[3] = { 0, 0, 0 };
    us_bits_set(w, 28, 12, 0xabc);              /* bits 28..39 */
    ck_assert_uint_eq(us_bits_get(w, 28, 12), 0xabc);
    ck_assert_uint_eq(w[0], 0xc0000000u);
    ck_assert_uint_eq(w[1], 0xabu);
    us_bits_set(w, 28, 12, 0);
    ck_assert(!w[0] && !w[1] && !w[2]);
    ck_assert_uint_eq(POS_SW_SRC0, 32);
    ck_assert_uint_eq(POS_SW_TEXT + SIZE_SW_TEXT, US_SW_BITS);
}
END_TEST

/* Scalar opcodes derived from a vec4 opcode use its unit class. */
START_TEST(opcode_table_agrees_with_ops_def)
{
    for (unsigned op = 0; op < US_SOP_COUNT; op++) {
        const struct us_sopinfo *o = &us_sops[op];
        ck_assert_ptr_nonnull(o->name);
        if (o->from >= 0)
            ck_assert_msg(us_ops[o->from].unit == o->unit, "%s", o->name);
        if (o->kind == US_SK_VAL && o->unit == US_UNIT_SFU)
            ck_assert(o->from >= 0);
    }
    ck_assert_uint_eq(us_sops[US_SOP_DOT].from, US_OP_DP4);
}
END_TEST

/* ---- lowering of hand-built IR ------------------------------------------ */

static struct us_src src(unsigned file, unsigned index, const char *swz)
{
    struct us_src s;
    memset(&s, 0, sizeof s);
    s.file = (uint8_t)file;
    s.index = (uint16_t)index;
    for (int c = 0; c < 4; c++)
        s.swz[c] = (uint8_t)(strchr("xyzw", swz[c]) - "xyzw");
    return s;
}

static struct us_inst inst(enum us_opcode op, unsigned dfile, unsigned dindex,
                           unsigned mask, struct us_src a, struct us_src b)
{
    struct us_inst in;
    memset(&in, 0, sizeof in);
    in.op = (uint8_t)op;
    in.dst.file = (uint8_t)dfile;
    in.dst.index = (uint16_t)dindex;
    in.dst.mask = (uint8_t)mask;
    in.src[0] = a;
    in.src[1] = b;
    return in;
}

/* Lower one instruction; return the compacted listing, "; "-separated. */
static char *lower_one(const struct us_inst *in, bool compact, unsigned *n)
{
    struct us_program p;
    memset(&p, 0, sizeof p);
    p.insts = (struct us_inst *)in;
    p.ninsts = 1;
    p.ntemps = 4;
    struct us_scode c;
    struct us_diag d;
    ck_assert(us_lower(&p, compact, &c, &d));
    static char text[1024];
    text[0] = '\0';
    for (unsigned i = 0; i < c.n; i++) {
        char line[160];
        us_sinst_format(&c.insts[i], line, sizeof line);
        if (i)
            strcat(text, "; ");
        strcat(text, line);
    }
    *n = c.n;
    us_scode_free(&c);
    return text;
}

#define EXPECT(in, compacted, want_text, want_scalar)                       \
    do {                                                                    \
        unsigned n_;                                                        \
        struct us_inst i_ = (in);                                           \
        ck_assert_str_eq(lower_one(&i_, true, &n_), want_text);             \
        ck_assert_uint_eq(n_, compacted);                                   \
        lower_one(&i_, false, &n_);                                         \
        ck_assert_uint_eq(n_, want_scalar);                                 \
    } while (0)

START_TEST(lowering_of_hand_built_ir)
{
    struct us_src v = src(US_FILE_INPUT, US_VIN_POSITION, "xyzw");
    struct us_src c0 = src(US_FILE_PARAM, 0, "xyzw");
    struct us_src r1 = src(US_FILE_TEMP, 1, "xyzw");
    /* dot product: one DOT accumulating in place */
    EXPECT(inst(US_OP_DP4, US_FILE_OUTPUT, 0, 1, v, c0), 1,
           "DOT[4] o0.x+0, v16.x+1, c0.x+1", 4);
    /* replicated to three components: DOT, then MOVs */
    EXPECT(inst(US_OP_DP3, US_FILE_TEMP, 0, 7, r1, r1), 2,
           "DOT[3] r0.x+0, r1.x+1, r1.x+1; MOV[2] r0.y+1, r0.x+0", 5);
    /* SFU result computed once, written to x y w (order w x y: step 1) */
    EXPECT(inst(US_OP_RCP, US_FILE_TEMP, 0, 0xb, src(US_FILE_TEMP, 1, "wwww"), c0), 1,
           "RCP[3] r0.y+3, r1.w+0", 3);
    /* every write mask is one instruction */
    for (unsigned mask = 1; mask < 16; mask++) {
        unsigned n;
        struct us_inst in = inst(US_OP_ADD, US_FILE_TEMP, 0, mask, r1, c0);
        lower_one(&in, true, &n);
        ck_assert_uint_eq(n, 1);
    }
    /* cross product: rotating offsets make MUL + MAD */
    EXPECT(inst(US_OP_XPD, US_FILE_TEMP, 0, 0xf, r1, src(US_FILE_TEMP, 2, "xyzw")), 2,
           "MUL[3] s4.x+1, r1.z+1m3, r2.y+1m3; MAD[3] r0.x+1, r1.y+1m3, r2.z+1m3, -s4.x+1", 6);
    /* a rotation of the destination itself: through SCRATCH */
    EXPECT(inst(US_OP_MOV, US_FILE_TEMP, 1, 0xf, src(US_FILE_TEMP, 1, "yzwx"), c0), 2,
           "MOV[4] s0.x+1, r1.y+1; MOV[4] r1.x+1, s0.x+1", 8);
    /* a swap needs no SCRATCH when one order is safe?  .yx is a cycle too */
    EXPECT(inst(US_OP_MOV, US_FILE_TEMP, 1, 0x3, src(US_FILE_TEMP, 1, "yxzw"), c0), 2,
           "MOV[2] s0.x+1, r1.y+3; MOV[2] r1.x+1, s0.x+1", 4);
    /* reading a component before it is overwritten: reorder, no SCRATCH */
    EXPECT(inst(US_OP_ADD, US_FILE_TEMP, 1, 0x3, src(US_FILE_TEMP, 1, "xxzw"), c0), 1,
           "ADD[2] r1.y+3, r1.x+0, c0.y+3", 2);
    /* LIT: x and w, y, z */
    EXPECT(inst(US_OP_LIT, US_FILE_TEMP, 0, 0xf, r1, c0), 3,
           "MOV[2] r0.x+3, k0.y+0; LITC r0.y, r1.x; LITZ r0.z, r1.x, r1.y, r1.w", 4);
    /* XPD .w is undefined and not written */
    EXPECT(inst(US_OP_XPD, US_FILE_TEMP, 0, 0x8, r1, r1), 0, "", 0);
}
END_TEST

START_TEST(compacting_uncompacted_code_gives_compacted_code)
{
    struct us_rng r = { 42 };
    for (unsigned k = 0; k < 300; k++) {
        struct us_program p;
        ck_assert(us_random_program(&r, k & 1 ? US_STAGE_FRAGMENT : US_STAGE_VERTEX,
                                    1 + us_rng_below(&r, 10), &p));
        struct us_scode a, b;
        struct us_diag d;
        ck_assert(us_lower(&p, false, &a, &d));
        ck_assert(us_lower(&p, true, &b, &d));
        for (unsigned i = 0; i < a.n; i++)
            ck_assert_uint_eq(a.insts[i].count, 1);
        ck_assert(us_compact(&a));
        ck_assert_uint_eq(a.n, b.n);
        for (unsigned i = 0; i < a.n; i++)
            ck_assert(us_sinst_equal(&a.insts[i], &b.insts[i]));
        us_scode_free(&a);
        us_scode_free(&b);
        us_program_free(&p);
    }
}
END_TEST

/* ---- vec4 word and binaries --------------------------------------------- */

START_TEST(vec4_words_round_trip)
{
    struct us_rng r = { 7 };
    unsigned n = 0;
    for (unsigned k = 0; k < 300; k++) {
        struct us_program p, q;
        ck_assert(us_random_program(&r, k & 1 ? US_STAGE_FRAGMENT : US_STAGE_VERTEX,
                                    8, &p));
        q = p;
        q.insts = calloc(p.ninsts, sizeof *q.insts);
        ck_assert_ptr_nonnull(q.insts);
        for (unsigned i = 0; i < p.ninsts; i++) {
            uint32_t w[4];
            char t[200];
            unsigned nrel = 0;
            for (unsigned s = 0; s < us_ops[p.insts[i].op].nsrc; s++)
                nrel += p.insts[i].src[s].rel;
            if (nrel > 1) {   /* the vec4 targets split these first */
                uint32_t w2[4];
                ck_assert(!us_vencode(&p.insts[i], w2));
                q.insts[i] = p.insts[i];
                continue;
            }
            us_inst_format(&p.insts[i], t, sizeof t);
            ck_assert_msg(us_vencode(&p.insts[i], w), "%s", t);
            ck_assert(us_vdecode(w, &q.insts[i]));
            char a[200], b[200];
            us_inst_format(&p.insts[i], a, sizeof a);
            us_inst_format(&q.insts[i], b, sizeof b);
            ck_assert_str_eq(a, b);
            n++;
        }
        ck_assert(us_program_equal(&p, &q));
        free(q.insts);
        us_program_free(&p);
    }
    ck_assert_uint_gt(n, 2000);
}
END_TEST

START_TEST(binaries_serialize_and_disassemble)
{
    struct us_rng r = { 99 };
    struct us_program p;
    ck_assert(us_random_program(&r, US_STAGE_FRAGMENT, 12, &p));
    for (int t = 0; t < US_TARGET_COUNT; t++) {
        struct us_binary b, c;
        struct us_diag d;
        ck_assert(us_encode_target(&p, (enum us_target)t, &b, &d));
        ck_assert_uint_eq(b.word_bits, us_target_word_bits((enum us_target)t));
        ck_assert_int_eq(us_target_lookup(us_target_name((enum us_target)t)), t);
        uint8_t *data;
        size_t len;
        ck_assert(us_binary_serialize(&b, &data, &len));
        ck_assert(!us_binary_parse(data, len - 1, &c, &d));   /* truncated */
        ck_assert(us_binary_parse(data, len, &c, &d));
        ck_assert_uint_eq(c.nwords, b.nwords);
        ck_assert(!memcmp(c.data, b.data,
                          b.nwords * us_binary_units(b.word_bits) * 4));
        char *text;
        ck_assert(us_binary_disassemble(&c, &text, &d));
        unsigned lines = 0;
        for (char *s = text; *s; s++)
            lines += *s == '\n';
        ck_assert_uint_eq(lines, b.nwords);
        free(text);
        free(data);
        us_binary_free(&b);
        us_binary_free(&c);
    }
    us_program_free(&p);
}
END_TEST

/* ---- flow control --------------------------------------------------------- */

static const char flow_text[] =
    "!!ARBvp1.0\n"
    "OPTION USHADER_extensions;\n"
    "TEMP r, c;\n"
    "ADDRESS a;\n"
    "PARAM k[4] = { {1, 2, 3, 4}, {0, 0, 0, 0}, {5, 6, 7, 8}, {1, 1, 1, 1} };\n"
    "MOV r, vertex.position;\n"
    "ARL a.x, vertex.color.x;\n"
    "IF k[a.x + 1].y;\n"                       /* relative: LDR, then IF */
    "  MUL r, r, r;\n"
    "ELSE;\n"
    "  BGNLOOP;\n"
    "    SGE c.x, r.x, 4.0;\n"
    "    IF c.x; BRK; ENDIF;\n"
    "    ADD r, r, k[0];\n"
    "    IF -r.y; CONT; ENDIF;\n"
    "  ENDLOOP;\n"
    "ENDIF;\n"
    "MOV result.position, r;\n"
    "END\n";

START_TEST(flow_words_lower_link_and_round_trip)
{
    struct us_program p;
    struct us_diag d;
    ck_assert_msg(us_assemble(flow_text, strlen(flow_text), US_STAGE_ANY, &p,
                              &d), "%u: %s", d.line, d.msg);
    unsigned vflow = 0;
    for (unsigned i = 0; i < p.ninsts; i++)
        vflow += us_ops[p.insts[i].op].unit == US_UNIT_BRANCH;
    for (int compact = 0; compact < 2; compact++) {
        struct us_scode c;
        ck_assert(us_lower(&p, compact, &c, &d));
        ck_assert_ptr_nonnull(c.flow);
        ck_assert_ptr_nonnull(c.vbegin);
        ck_assert_uint_eq(c.vbegin[c.n], p.ninsts);
        unsigned sflow = 0, ldr_before_if = 0;
        for (unsigned i = 0; i < c.n; i++) {
            const struct us_sinst *x = &c.insts[i];
            if (us_sops[x->op].kind != US_SK_FLOW) {
                ck_assert_uint_eq(c.flow->kind[i], US_FLOW_NONE);
                continue;
            }
            sflow++;
            /* one word per vec4 flow instruction, never merged, its
             * target the partner of the code's own links */
            ck_assert_uint_eq(x->count, 1);
            ck_assert_uint_eq(x->target, c.flow->partner[i]);
            ck_assert_uint_eq(c.flow->kind[i], us_sop_flow_kind(x->op));
            ck_assert_uint_ne(c.flow->kind[i], US_FLOW_NONE);
            ldr_before_if += x->op == US_SOP_IF && i > 0 &&
                             c.insts[i - 1].op == US_SOP_LDR &&
                             x->src[0].file == US_FILE_SCRATCH;
            us_sword w = us_sencode(x);
            struct us_sinst y;
            ck_assert(us_sdecode(w, &y));
            ck_assert(us_sinst_equal(x, &y));
            us_sword bad = w;              /* bits beyond the target */
            us_sw_set_word(&bad, 3);
            ck_assert(!us_sdecode(bad, &y));
            bad = w;
            us_sw_set_rot(&bad, 2);       /* ROT of an operand it lacks */
            ck_assert(!us_sdecode(bad, &y));
            bad = w;
            us_sw_set_cnt(&bad, 1);       /* a flow word issues once */
            ck_assert(!us_sdecode(bad, &y));
            char text[96];
            us_sinst_format(x, text, sizeof text);
            char want[16];
            snprintf(want, sizeof want, "-> %u", (unsigned)x->target);
            ck_assert_msg(strstr(text, want) != NULL, "%s", text);
        }
        ck_assert_uint_eq(sflow, vflow);
        ck_assert_uint_eq(ldr_before_if, 1);
        /* BRK and CONT jump to their loop's ENDLOOP */
        for (unsigned i = 0; i < c.n; i++)
            if (c.insts[i].op == US_SOP_BRK || c.insts[i].op == US_SOP_CONT)
                ck_assert_uint_eq(c.insts[c.insts[i].target].op, US_SOP_ENDLOOP);
        us_scode_free(&c);
    }
    /* every target's binary round-trips, and the VLIW bundles' flow
     * words point at bundles */
    for (int t = 0; t < US_TARGET_COUNT; t++) {
        struct us_binary b, c;
        ck_assert(us_encode_target(&p, (enum us_target)t, &b, &d));
        uint8_t *data;
        size_t len;
        ck_assert(us_binary_serialize(&b, &data, &len));
        ck_assert(us_binary_parse(data, len, &c, &d));
        ck_assert(!memcmp(c.data, b.data,
                          b.nwords * us_binary_units(b.word_bits) * 4));
        char *text;
        ck_assert(us_binary_disassemble(&c, &text, &d));
        if (t == US_TARGET_VLIW) {
            for (unsigned i = 0; i < b.nwords; i++) {
                us_sword w;
                struct us_sinst x;
                memcpy(w.w, b.data + (size_t)i * 12, sizeof w.w);
                ck_assert(us_sdecode(w, &x));
                if (us_sops[x.op].kind == US_SK_FLOW)
                    ck_assert_uint_lt(x.target, b.nwords);
            }
            ck_assert_ptr_nonnull(strstr(text, "BGNLOOP -> "));
        }
        free(text);
        free(data);
        us_binary_free(&b);
        us_binary_free(&c);
    }
    us_program_free(&p);
}
END_TEST

/* us_scalar_run follows the words' targets and rejects words whose target
 * is not the partner. */
START_TEST(flow_targets_are_checked)
{
    struct us_program p;
    struct us_diag d;
    ck_assert(us_assemble(flow_text, strlen(flow_text), US_STAGE_ANY, &p, &d));
    struct us_scode c;
    ck_assert(us_lower(&p, true, &c, &d));
    us_sword *w = malloc(c.n * sizeof *w);
    ck_assert_ptr_nonnull(w);
    for (unsigned i = 0; i < c.n; i++)
        w[i] = us_sencode(&c.insts[i]);
    us_vec4 params[8];
    memset(params, 0, sizeof params);
    us_resolve_params(&p, NULL, params);
    struct us_exec_env env = { .params = (const us_vec4 *)params,
                               .math = &us_math_exact };
    static struct us_thread a, b;
    us_thread_reset(&a);
    a.input[US_VIN_POSITION][0] = 0.5f;
    a.input[US_VIN_POSITION][1] = -1.0f;
    a.input[US_VIN_COLOR0][0] = 0.0f;   /* k[1].y = 0: ELSE, the loop:
                                           r.x 0.5 + 4 x 1 = 4.5 */
    b = a;
    us_interpret(&p, &env, &a);
    ck_assert(us_scalar_run(w, c.n, &env, &b));
    ck_assert(!memcmp(a.output, b.output, sizeof a.output));
    ck_assert_float_eq(b.output[US_VOUT_POSITION][0], 4.5f);
    for (unsigned i = 0; i < c.n; i++)
        if (c.insts[i].op == US_SOP_ENDIF) {
            us_sw_set_target(&w[i], c.insts[i].target + 1);
            break;
        }
    ck_assert(!us_scalar_run(w, c.n, &env, &b));
    free(w);
    us_scode_free(&c);
    us_program_free(&p);
}
END_TEST

/* Words of ARB text `text` lowered in compaction variant `form`, and the
 * variant's results against the reference interpreter's on one thread. */
static unsigned form_words(const char *text, enum us_compaction form)
{
    struct us_program p;
    struct us_diag d;
    ck_assert_msg(us_assemble(text, strlen(text), US_STAGE_ANY, &p, &d),
                  "%s", d.msg);
    struct us_scode c;
    ck_assert(us_lower(&p, form, &c, &d));
    us_vec4 params[1] = { { 0 } };
    struct us_exec_env env = { .params = (const us_vec4 *)params,
                               .math = &us_math_exact };
    static struct us_thread ti, ts;
    us_thread_reset(&ti);
    for (unsigned i = 0; i < US_MAX_INPUTS; i++)
        for (unsigned k = 0; k < 4; k++)
            ti.input[i][k] = 1.5f + (float)i - 0.25f * (float)k;
    for (unsigned i = 0; i < 4; i++)
        for (unsigned k = 0; k < 4; k++)
            ti.temp[i][k] = 0.5f * (float)(i + 1) + (float)k;
    ts = ti;
    us_interpret(&p, &env, &ti);
    ck_assert(us_scalar_exec(c.insts, c.n, &env, &ts));
    ck_assert(!memcmp(ti.temp, ts.temp, sizeof ti.temp));
    ck_assert(!memcmp(ti.output, ts.output, sizeof ti.output));
    unsigned n = c.n;
    us_scode_free(&c);
    us_program_free(&p);
    return n;
}

/* What each compaction variant merges (isa/scalar.h). */
START_TEST(compaction_variants)
{
    /* .xxyy is no progression: offsets split it, a swizzle table not */
    const char *swz = "!!ARBvp1.0\nTEMP r0;\n"
                      "MUL r0, vertex.position.xxyy, vertex.color;\n"
                      "MOV result.position, r0;\nEND\n";
    ck_assert_uint_eq(form_words(swz, US_COMPACT_OFFSETS), 3);
    ck_assert_uint_eq(form_words(swz, US_COMPACT_SWIZZLE), 2);
    ck_assert_uint_eq(form_words(swz, US_COMPACT_CHAIN), 3);
    ck_assert_uint_eq(form_words(swz, US_COMPACT_NONE), 8);
    /* a dependent chain of one operation: one word in the chain form,
     * its second repetition reading the first's result */
    const char *dep = "!!ARBvp1.0\nTEMP r0;\nMOV r0, vertex.position;\n"
                      "MUL r0.x, r0.x, r0.x;\nMUL r0.x, r0.x, r0.x;\n"
                      "MOV result.position, r0;\nEND\n";
    ck_assert_uint_eq(form_words(dep, US_COMPACT_OFFSETS), 4);
    ck_assert_uint_eq(form_words(dep, US_COMPACT_CHAIN), 3);
    /* interleaved chains: the later MUL moves up across the ADD */
    const char *ahead = "!!ARBvp1.0\nTEMP r0, r1;\n"
                        "MUL r0.x, vertex.position.x, vertex.color.x;\n"
                        "ADD r1.x, r0.x, vertex.color.y;\n"
                        "MUL r0.y, vertex.position.y, vertex.color.y;\n"
                        "ADD r1.y, r0.y, vertex.color.z;\n"
                        "MOV result.position, r1;\nEND\n";
    ck_assert_uint_eq(form_words(ahead, US_COMPACT_OFFSETS), 5);
    ck_assert_uint_eq(form_words(ahead, US_COMPACT_CHAIN), 3);
    /* ... but not across an instruction that writes what it reads */
    const char *blocked = "!!ARBvp1.0\nTEMP r0, r1;\n"
                          "MUL r0.x, vertex.position.x, vertex.color.x;\n"
                          "ADD r1.y, r0.x, vertex.color.y;\n"
                          "MUL r0.y, r1.y, vertex.color.y;\n"
                          "MOV result.position, r0;\nEND\n";
    ck_assert_uint_eq(form_words(blocked, US_COMPACT_CHAIN),
                      form_words(blocked, US_COMPACT_OFFSETS));
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("scalar");
    TCase *tc = tcase_create("isa");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, every_operand_form_round_trips);
    tcase_add_test(tc, every_opcode_round_trips);
    tcase_add_test(tc, decoder_rejects_malformed_words);
    tcase_add_test(tc, field_helpers_straddle_words);
    tcase_add_test(tc, opcode_table_agrees_with_ops_def);
    tcase_add_test(tc, lowering_of_hand_built_ir);
    tcase_add_test(tc, compacting_uncompacted_code_gives_compacted_code);
    tcase_add_test(tc, compaction_variants);
    tcase_add_test(tc, vec4_words_round_trip);
    tcase_add_test(tc, binaries_serialize_and_disassemble);
    tcase_add_test(tc, flow_words_lower_link_and_round_trip);
    tcase_add_test(tc, flow_targets_are_checked);
    suite_add_tcase(s, tc);
    return s;
}
