/*
 * Disassembler: hand-built IR for every operand format and operand form ->
 * golden text; every golden text assembles back into the hand-built IR
 * (which pins the IR conventions the assembler and disassembler share);
 * and assemble -> print -> assemble round trips on source programs.
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ushader.h"

#include "check_main.h"

/* A program under construction; the arrays live inside it, so build it in
 * place and never copy it. */
struct builder {
    struct us_program p;
    struct us_inst insts[16];
    struct us_param params[16];
    struct us_decl decls[16];
};

static void begin(struct builder *b, enum us_stage stage)
{
    memset(b, 0, sizeof *b);
    b->p.stage = stage;
    b->p.insts = b->insts;
    b->p.params = b->params;
    b->p.decls = b->decls;
}

static int decl(struct builder *b, const char *name, enum us_decl_kind kind,
                unsigned base, unsigned size, bool array)
{
    struct us_decl *d = &b->decls[b->p.ndecls];
    strcpy(d->name, name);
    d->kind = (uint8_t)kind;
    d->base = (uint16_t)base;
    d->size = (uint16_t)size;
    d->array = array;
    if (kind == US_DECL_TEMP)
        b->p.ntemps++;
    if (kind == US_DECL_ADDRESS)
        b->p.naddrs++;
    return (int)b->p.ndecls++;
}

static unsigned param(struct builder *b, struct us_param p)
{
    b->params[b->p.nparams] = p;
    return b->p.nparams++;
}

static struct us_param konst(float x, float y, float z, float w, int owner)
{
    return (struct us_param){ .kind = US_PARAM_CONST, .value = { x, y, z, w },
                              .decl = (int16_t)owner };
}

static struct us_param state(unsigned item, unsigned a, unsigned b_,
                             unsigned c, unsigned d, int owner)
{
    return (struct us_param){
        .kind = US_PARAM_STATE, .decl = (int16_t)owner,
        .state = { (uint8_t)item, (uint8_t)a, (uint8_t)b_, (uint8_t)c,
                   (uint8_t)d } };
}

static struct us_param prog_param(unsigned kind, unsigned index, int owner)
{
    return (struct us_param){ .kind = (uint8_t)kind, .index = (uint16_t)index,
                              .decl = (int16_t)owner };
}

/* A source: swizzle as letters from "xyzw01". */
static struct us_src S(unsigned file, unsigned index, const char *swz)
{
    struct us_src s = { .file = (uint8_t)file, .index = (uint16_t)index };
    for (int c = 0; c < 4; c++)
        s.swz[c] = (uint8_t)(strchr("xyzw01", swz[c]) - "xyzw01");
    return s;
}

static struct us_src neg(struct us_src s, unsigned mask)
{
    s.negate = (uint8_t)mask;
    return s;
}

static struct us_src rel(struct us_src s, int offset, unsigned size)
{
    s.rel = true;
    s.rel_offset = (int16_t)offset;
    s.rel_size = (uint16_t)size;
    return s;
}

static struct us_dst D(unsigned file, unsigned index, unsigned mask)
{
    return (struct us_dst){ (uint8_t)file, (uint8_t)mask, (uint16_t)index };
}

static struct us_inst *inst(struct builder *b, enum us_opcode op,
                            struct us_dst dst, struct us_src s0,
                            struct us_src s1, struct us_src s2)
{
    struct us_inst *in = &b->insts[b->p.ninsts++];
    *in = (struct us_inst){ .op = (uint8_t)op, .dst = dst,
                            .src = { s0, s1, s2 } };
    if (dst.file == US_FILE_OUTPUT)
        b->p.outputs_written |= 1ull << dst.index;
    for (int i = 0; i < us_ops[op].nsrc; i++)
        if (in->src[i].file == US_FILE_INPUT)
            b->p.inputs_read |= 1ull << in->src[i].index;
    return in;
}

static const struct us_src NONE = { 0 };

/* The program prints as `want`, and `want` assembles back into it. */
static void golden(const struct us_program *p, const char *want)
{
    char *text = us_disassemble(p);
    ck_assert_ptr_nonnull(text);
    ck_assert_str_eq(text, want);
    free(text);

    struct us_program back;
    struct us_diag diag;
    bool ok = us_assemble(want, strlen(want), US_STAGE_ANY, &back, &diag);
    ck_assert_msg(ok, "golden text does not assemble: %u:%u: %s\n%s",
                  diag.line, diag.col, diag.msg, want);
    ck_assert_msg(us_program_equal(&back, p),
                  "golden text assembles into a different program:\n%s",
                  want);
    us_program_free(&back);
}

START_TEST(headers_and_options)
{
    struct builder b;
    begin(&b, US_STAGE_VERTEX);
    golden(&b.p, "!!ARBvp1.0\nEND\n");
    b.p.options = US_OPT_POSITION_INVARIANT;
    golden(&b.p, "!!ARBvp1.0\nOPTION ARB_position_invariant;\nEND\n");

    begin(&b, US_STAGE_FRAGMENT);
    b.p.options = US_OPT_FOG_EXP2 | US_OPT_FRAGMENT_SHADOW |
                  US_OPT_PRECISION_NICEST;
    golden(&b.p, "!!ARBfp1.0\n"
                 "OPTION ARB_precision_hint_nicest;\n"
                 "OPTION ARB_fog_exp2;\n"
                 "OPTION ARB_fragment_program_shadow;\n"
                 "END\n");
}
END_TEST

/* VEC format: masks, swizzles, negation, _SAT, literals, implicit
 * bindings, declared outputs and attributes. */
START_TEST(vector_operands)
{
    struct builder b;
    begin(&b, US_STAGE_FRAGMENT);
    decl(&b, "r", US_DECL_TEMP, 0, 1, false);
    decl(&b, "tc", US_DECL_ATTRIB, US_FIN_TEXCOORD0 + 2, 1, false);
    decl(&b, "depth", US_DECL_OUTPUT, US_FOUT_DEPTH, 1, false);
    unsigned lit = param(&b, konst(0.5f, 1, -2, 0.1f, -1));
    inst(&b, US_OP_MAD, D(US_FILE_TEMP, 0, 0xB),
         neg(S(US_FILE_INPUT, US_FIN_TEXCOORD0 + 1, "wzyx"), 0xF),
         S(US_FILE_TEMP, 0, "xxxx"), S(US_FILE_PARAM, lit, "xyzw"))->sat = true;
    inst(&b, US_OP_CMP, D(US_FILE_TEMP, 0, 0x4), S(US_FILE_TEMP, 0, "yyyy"),
         S(US_FILE_INPUT, US_FIN_TEXCOORD0 + 2, "xyzw"),
         neg(S(US_FILE_TEMP, 0, "xyzw"), 0xF));
    inst(&b, US_OP_MOV, D(US_FILE_OUTPUT, US_FOUT_DEPTH, 0x4),
         S(US_FILE_TEMP, 0, "zzzz"), NONE, NONE);
    inst(&b, US_OP_MOV, D(US_FILE_OUTPUT, US_FOUT_COLOR, 0xF),
         S(US_FILE_INPUT, US_FIN_COLOR0, "xyzw"), NONE, NONE);
    golden(&b.p,
           "!!ARBfp1.0\n"
           "TEMP r;\n"
           "ATTRIB tc = fragment.texcoord[2];\n"
           "OUTPUT depth = result.depth;\n"
           "MAD_SAT r.xyw, -fragment.texcoord[1].wzyx, r.x, "
           "{0.5, 1, -2, 0.100000001};\n"
           "CMP r.z, r.y, tc, -r;\n"
           "MOV depth.z, r.z;\n"
           "MOV result.color, fragment.color.primary;\n"
           "END\n");
}
END_TEST

/* SCL and ARL formats, relative addressing, PARAM arrays, implicit vertex
 * bindings. */
START_TEST(scalar_address_relative)
{
    struct builder b;
    begin(&b, US_STAGE_VERTEX);
    decl(&b, "A0", US_DECL_ADDRESS, 0, 1, false);
    decl(&b, "t", US_DECL_TEMP, 0, 1, false);
    decl(&b, "pos", US_DECL_ATTRIB, US_VIN_POSITION, 1, false);
    int m = decl(&b, "mats", US_DECL_PARAM, 0, 4, true);
    decl(&b, "oPos", US_DECL_OUTPUT, US_VOUT_POSITION, 1, false);
    for (unsigned row = 0; row < 4; row++)
        param(&b, state(US_STATE_MATRIX_ROW, US_MATRIX_MVP, 0, US_MOD_NONE,
                        row, m));
    struct us_src pos = S(US_FILE_INPUT, US_VIN_POSITION, "xyzw");
    inst(&b, US_OP_ARL, D(US_FILE_ADDRESS, 0, 0x1),
         S(US_FILE_INPUT, US_VIN_POSITION, "wwww"), NONE, NONE);
    inst(&b, US_OP_DP4, D(US_FILE_OUTPUT, US_VOUT_POSITION, 0x1),
         rel(S(US_FILE_PARAM, 0, "xyzw"), 2, 4), pos, NONE);
    inst(&b, US_OP_DP4, D(US_FILE_OUTPUT, US_VOUT_POSITION, 0x2),
         rel(S(US_FILE_PARAM, 0, "xyzw"), -1, 4), pos, NONE);
    inst(&b, US_OP_DP4, D(US_FILE_OUTPUT, US_VOUT_POSITION, 0xC),
         rel(S(US_FILE_PARAM, 0, "xyzw"), 0, 4), pos, NONE);
    inst(&b, US_OP_RCP, D(US_FILE_TEMP, 0, 0x1), S(US_FILE_PARAM, 3, "yyyy"),
         NONE, NONE);
    inst(&b, US_OP_POW, D(US_FILE_TEMP, 0, 0x2), S(US_FILE_TEMP, 0, "xxxx"),
         neg(S(US_FILE_INPUT, US_VIN_NORMAL, "zzzz"), 0xF), NONE);
    inst(&b, US_OP_EXP, D(US_FILE_TEMP, 0, 0xF), S(US_FILE_TEMP, 0, "wwww"),
         NONE, NONE);
    inst(&b, US_OP_MOV, D(US_FILE_OUTPUT, US_VOUT_BCOLOR1, 0xF),
         S(US_FILE_TEMP, 0, "xyzw"), NONE, NONE);
    golden(&b.p,
           "!!ARBvp1.0\n"
           "ADDRESS A0;\n"
           "TEMP t;\n"
           "ATTRIB pos = vertex.position;\n"
           "PARAM mats[4] = { state.matrix.mvp.row[0], "
           "state.matrix.mvp.row[1], state.matrix.mvp.row[2], "
           "state.matrix.mvp.row[3] };\n"
           "OUTPUT oPos = result.position;\n"
           "ARL A0.x, pos.w;\n"
           "DP4 oPos.x, mats[A0.x + 2], pos;\n"
           "DP4 oPos.y, mats[A0.x - 1], pos;\n"
           "DP4 oPos.zw, mats[A0.x], pos;\n"
           "RCP t.x, mats[3].y;\n"
           "POW t.y, t.x, -vertex.normal.z;\n"
           "EXP t, t.w;\n"
           "MOV result.color.back.secondary, t;\n"
           "END\n");
}
END_TEST

/* SWZ, TEX-format and KIL operands. */
START_TEST(swz_tex_kil)
{
    struct builder b;
    begin(&b, US_STAGE_FRAGMENT);
    b.p.options = US_OPT_FRAGMENT_SHADOW;
    decl(&b, "r", US_DECL_TEMP, 0, 1, false);
    inst(&b, US_OP_SWZ, D(US_FILE_TEMP, 0, 0xF),
         neg(S(US_FILE_INPUT, US_FIN_COLOR0, "x01w"), 0x9), NONE, NONE);
    inst(&b, US_OP_SWZ, D(US_FILE_TEMP, 0, 0x3),
         S(US_FILE_TEMP, 0, "zzyx"), NONE, NONE);
    struct us_inst *t;
    t = inst(&b, US_OP_TEX, D(US_FILE_TEMP, 0, 0xF),
             S(US_FILE_INPUT, US_FIN_TEXCOORD0, "xyzw"), NONE, NONE);
    t->tex_target = US_TEX_2D;
    t = inst(&b, US_OP_TXP, D(US_FILE_TEMP, 0, 0x3),
             S(US_FILE_TEMP, 0, "xyzw"), NONE, NONE);
    t->tex_unit = 15;
    t->tex_target = US_TEX_SHADOWRECT;
    t = inst(&b, US_OP_TXB, D(US_FILE_TEMP, 0, 0xF),
             S(US_FILE_TEMP, 0, "zzzz"), NONE, NONE);
    t->tex_unit = 3;
    t->tex_target = US_TEX_CUBE;
    t = inst(&b, US_OP_TEX, D(US_FILE_TEMP, 0, 0xF),
             S(US_FILE_TEMP, 0, "xyzw"), NONE, NONE);
    t->tex_unit = 4;
    t->tex_target = US_TEX_SHADOW1D;
    inst(&b, US_OP_KIL, D(US_FILE_NULL, 0, 0),
         neg(S(US_FILE_TEMP, 0, "xyzx"), 0xF), NONE, NONE);
    inst(&b, US_OP_MOV, D(US_FILE_OUTPUT, US_FOUT_COLOR, 0xF),
         S(US_FILE_TEMP, 0, "xyzw"), NONE, NONE);
    golden(&b.p,
           "!!ARBfp1.0\n"
           "OPTION ARB_fragment_program_shadow;\n"
           "TEMP r;\n"
           "SWZ r, fragment.color.primary, -x, 0, 1, -w;\n"
           "SWZ r.xy, r, z, z, y, x;\n"
           "TEX r, fragment.texcoord[0], texture[0], 2D;\n"
           "TXP r.xy, r, texture[15], SHADOWRECT;\n"
           "TXB r, r.z, texture[3], CUBE;\n"
           "TEX r, r, texture[4], SHADOW1D;\n"
           "KIL -r.xyzx;\n"
           "MOV result.color, r;\n"
           "END\n");
}
END_TEST

/* Parameter slots keep their numbers: a PARAM declaration is printed after
 * the instructions whose in-place operands took lower slots. */
START_TEST(param_kinds_and_order)
{
    struct builder b;
    begin(&b, US_STAGE_VERTEX);
    decl(&b, "t", US_DECL_TEMP, 0, 1, false);
    int c = decl(&b, "c", US_DECL_PARAM, 1, 1, false);
    int arr = decl(&b, "arr", US_DECL_PARAM, 3, 3, true);
    decl(&b, "u", US_DECL_TEMP, 1, 1, false);
    unsigned lit = param(&b, konst(1, 2, 3, 4, -1));            /* 0 */
    param(&b, prog_param(US_PARAM_ENV, 5, c));                   /* 1 */
    unsigned fog = param(&b, state(US_STATE_FOG_PARAMS, 0, 0, 0, 0, -1));
    param(&b, prog_param(US_PARAM_LOCAL, 0, arr));               /* 3 */
    param(&b, state(US_STATE_LIGHT, 1, US_PROP_SPOT_DIRECTION, 0, 0, arr));
    param(&b, konst(-1, 0, 0, 1, arr));                          /* 5 */
    unsigned env = param(&b, prog_param(US_PARAM_ENV, 9, -1));   /* 6 */
    unsigned loc = param(&b, prog_param(US_PARAM_LOCAL, 95, -1));
    inst(&b, US_OP_MOV, D(US_FILE_TEMP, 0, 0xF),
         S(US_FILE_PARAM, lit, "xyzw"), NONE, NONE);
    inst(&b, US_OP_ADD, D(US_FILE_TEMP, 0, 0xF), S(US_FILE_PARAM, 1, "xyzw"),
         S(US_FILE_PARAM, fog, "wzyx"), NONE);
    inst(&b, US_OP_MUL, D(US_FILE_TEMP, 1, 0xF), S(US_FILE_PARAM, 4, "xyzw"),
         S(US_FILE_TEMP, 0, "xyzw"), NONE);
    inst(&b, US_OP_SUB, D(US_FILE_TEMP, 1, 0xF), S(US_FILE_PARAM, env, "xyzw"),
         S(US_FILE_PARAM, loc, "xxxx"), NONE);
    inst(&b, US_OP_MOV, D(US_FILE_OUTPUT, US_VOUT_POSITION, 0xF),
         S(US_FILE_TEMP, 1, "xyzw"), NONE, NONE);
    golden(&b.p,
           "!!ARBvp1.0\n"
           "TEMP t;\n"
           "MOV t, {1, 2, 3, 4};\n"
           "PARAM c = program.env[5];\n"
           "ADD t, c, state.fog.params.wzyx;\n"
           "PARAM arr[3] = { program.local[0], "
           "state.light[1].spot.direction, {-1, 0, 0, 1} };\n"
           "TEMP u;\n"
           "MUL u, arr[1], t;\n"
           "SUB u, program.env[9], program.local[95].x;\n"
           "MOV result.position, u;\n"
           "END\n");
}
END_TEST

/* Every state.* binding prints in its explicit form. */
START_TEST(state_bindings)
{
    static const struct {
        enum us_stage stage;
        struct us_state_ref ref;
        const char *text;
    } cases[] = {
        { US_STAGE_VERTEX, { US_STATE_MATERIAL, US_FACE_FRONT,
                             US_PROP_AMBIENT, 0, 0 },
          "state.material.front.ambient" },
        { US_STAGE_VERTEX, { US_STATE_MATERIAL, US_FACE_BACK,
                             US_PROP_SHININESS, 0, 0 },
          "state.material.back.shininess" },
        { US_STAGE_FRAGMENT, { US_STATE_MATERIAL, US_FACE_BACK,
                               US_PROP_EMISSION, 0, 0 },
          "state.material.back.emission" },
        { US_STAGE_VERTEX, { US_STATE_LIGHT, 7, US_PROP_DIFFUSE, 0, 0 },
          "state.light[7].diffuse" },
        { US_STAGE_VERTEX, { US_STATE_LIGHT, 1, US_PROP_SPOT_DIRECTION, 0,
                             0 },
          "state.light[1].spot.direction" },
        { US_STAGE_VERTEX, { US_STATE_LIGHT, 0, US_PROP_HALF, 0, 0 },
          "state.light[0].half" },
        { US_STAGE_VERTEX, { US_STATE_LIGHT, 2, US_PROP_ATTENUATION, 0, 0 },
          "state.light[2].attenuation" },
        { US_STAGE_VERTEX, { US_STATE_LIGHT, 3, US_PROP_POSITION, 0, 0 },
          "state.light[3].position" },
        { US_STAGE_VERTEX, { US_STATE_LIGHTMODEL_AMBIENT, 0, 0, 0, 0 },
          "state.lightmodel.ambient" },
        { US_STAGE_VERTEX, { US_STATE_LIGHTMODEL_SCENECOLOR, US_FACE_BACK, 0,
                             0, 0 },
          "state.lightmodel.back.scenecolor" },
        { US_STAGE_VERTEX, { US_STATE_LIGHTPROD, 0, US_FACE_BACK,
                             US_PROP_DIFFUSE, 0 },
          "state.lightprod[0].back.diffuse" },
        { US_STAGE_VERTEX, { US_STATE_LIGHTPROD, 5, US_FACE_FRONT,
                             US_PROP_SPECULAR, 0 },
          "state.lightprod[5].front.specular" },
        { US_STAGE_VERTEX, { US_STATE_TEXGEN, 2, US_TEXGEN_EYE, 3, 0 },
          "state.texgen[2].eye.q" },
        { US_STAGE_VERTEX, { US_STATE_TEXGEN, 0, US_TEXGEN_OBJECT, 0, 0 },
          "state.texgen[0].object.s" },
        { US_STAGE_VERTEX, { US_STATE_FOG_COLOR, 0, 0, 0, 0 },
          "state.fog.color" },
        { US_STAGE_FRAGMENT, { US_STATE_FOG_PARAMS, 0, 0, 0, 0 },
          "state.fog.params" },
        { US_STAGE_VERTEX, { US_STATE_CLIP_PLANE, 5, 0, 0, 0 },
          "state.clip[5].plane" },
        { US_STAGE_VERTEX, { US_STATE_POINT_SIZE, 0, 0, 0, 0 },
          "state.point.size" },
        { US_STAGE_VERTEX, { US_STATE_POINT_ATTENUATION, 0, 0, 0, 0 },
          "state.point.attenuation" },
        { US_STAGE_VERTEX, { US_STATE_MATRIX_ROW, US_MATRIX_MVP, 0,
                             US_MOD_INVERSE, 2 },
          "state.matrix.mvp.inverse.row[2]" },
        { US_STAGE_VERTEX, { US_STATE_MATRIX_ROW, US_MATRIX_MODELVIEW, 0,
                             US_MOD_INVTRANS, 0 },
          "state.matrix.modelview.invtrans.row[0]" },
        { US_STAGE_VERTEX, { US_STATE_MATRIX_ROW, US_MATRIX_PROJECTION, 0,
                             US_MOD_TRANSPOSE, 3 },
          "state.matrix.projection.transpose.row[3]" },
        { US_STAGE_VERTEX, { US_STATE_MATRIX_ROW, US_MATRIX_TEXTURE, 0,
                             US_MOD_NONE, 1 },
          "state.matrix.texture[0].row[1]" },
        { US_STAGE_FRAGMENT, { US_STATE_MATRIX_ROW, US_MATRIX_TEXTURE, 7,
                               US_MOD_INVERSE, 3 },
          "state.matrix.texture[7].inverse.row[3]" },
        { US_STAGE_VERTEX, { US_STATE_MATRIX_ROW, US_MATRIX_PROGRAM, 7,
                             US_MOD_NONE, 0 },
          "state.matrix.program[7].row[0]" },
        { US_STAGE_FRAGMENT, { US_STATE_TEXENV_COLOR, 0, 0, 0, 0 },
          "state.texenv[0].color" },
        { US_STAGE_FRAGMENT, { US_STATE_TEXENV_COLOR, 3, 0, 0, 0 },
          "state.texenv[3].color" },
        { US_STAGE_FRAGMENT, { US_STATE_DEPTH_RANGE, 0, 0, 0, 0 },
          "state.depth.range" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct builder b;
        begin(&b, cases[i].stage);
        int p = decl(&b, "p", US_DECL_PARAM, 0, 1, false);
        param(&b, (struct us_param){ .kind = US_PARAM_STATE,
                                     .state = cases[i].ref,
                                     .decl = (int16_t)p });
        char want[256];
        snprintf(want, sizeof want, "%s\nPARAM p = %s;\nEND\n",
                 cases[i].stage == US_STAGE_VERTEX ? "!!ARBvp1.0"
                                                   : "!!ARBfp1.0",
                 cases[i].text);
        golden(&b.p, want);
    }
}
END_TEST

/* Literals: 9 significant digits round-trip every binary32 value. */
START_TEST(literal_values)
{
    struct builder b;
    begin(&b, US_STAGE_FRAGMENT);
    int p = decl(&b, "k", US_DECL_PARAM, 0, 2, true);
    param(&b, konst(0.1f, -0.0f, 1e10f, 1.17549435e-38f, p));
    param(&b, konst(1.40129846e-45f, -3.40282347e38f, 16777217.0f,
                    0.333333343f, p));
    golden(&b.p, "!!ARBfp1.0\n"
                 "PARAM k[2] = { {0.100000001, -0, 1e+10, 1.17549435e-38}, "
                 "{1.40129846e-45, -3.40282347e+38, 16777216, "
                 "0.333333343} };\n"
                 "END\n");

    /* No ARB spelling for infinity and NaN: infinity saturates to the
     * largest finite value, NaN prints as 0.  Only the text is checked. */
    begin(&b, US_STAGE_FRAGMENT);
    p = decl(&b, "k", US_DECL_PARAM, 0, 1, false);
    param(&b, konst(INFINITY, -INFINITY, NAN, 2, p));
    char *text = us_disassemble(&b.p);
    ck_assert_str_eq(text, "!!ARBfp1.0\n"
                           "PARAM k = {3.40282347e+38, "
                           "-3.40282347e+38, 0, 2};\n"
                           "END\n");
    free(text);
}
END_TEST

/* The text assembles, and what it assembles into prints as the same text. */
static void text_fixpoint(const char *text)
{
    struct us_program p;
    struct us_diag diag;
    bool ok = us_assemble(text, strlen(text), US_STAGE_ANY, &p, &diag);
    ck_assert_msg(ok, "%u:%u: %s\n%s", diag.line, diag.col, diag.msg, text);
    char *again = us_disassemble(&p);
    ck_assert_ptr_nonnull(again);
    ck_assert_str_eq(again, text);
    free(again);
    us_program_free(&p);
}

/* IR built without declarations (random programs, translators): the
 * printer invents TEMP Rn, ADDRESS An and PARAM Cn[] so the text is valid,
 * choosing names no declaration uses. */
START_TEST(invented_declarations)
{
    struct builder b;
    begin(&b, US_STAGE_VERTEX);
    decl(&b, "R0", US_DECL_TEMP, 1, 1, false);
    unsigned lit = param(&b, konst(1, 2, 3, 4, -1));
    for (int i = 0; i < 3; i++)
        param(&b, konst((float)i, 0, 0, 1, -1));
    inst(&b, US_OP_ARL, D(US_FILE_ADDRESS, 0, 0x1),
         S(US_FILE_INPUT, US_VIN_POSITION, "xxxx"), NONE, NONE);
    inst(&b, US_OP_MOV, D(US_FILE_TEMP, 3, 0xF),
         rel(S(US_FILE_PARAM, 1, "xyzw"), 1, 3), NONE, NONE);
    inst(&b, US_OP_ADD, D(US_FILE_TEMP, 0, 0xF), S(US_FILE_TEMP, 3, "xyzw"),
         S(US_FILE_PARAM, lit, "xyzw"), NONE);
    inst(&b, US_OP_MUL, D(US_FILE_TEMP, 1, 0xF), S(US_FILE_TEMP, 0, "xyzw"),
         S(US_FILE_PARAM, 2, "yyyy"), NONE);
    inst(&b, US_OP_MOV, D(US_FILE_OUTPUT, US_VOUT_POSITION, 0xF),
         S(US_FILE_TEMP, 1, "xyzw"), NONE, NONE);
    static const char want[] =
        "!!ARBvp1.0\n"
        "TEMP _R0;\n"
        "TEMP R3;\n"
        "ADDRESS A0;\n"
        "PARAM C1[3] = { {0, 0, 0, 1}, {1, 0, 0, 1}, {2, 0, 0, 1} };\n"
        "TEMP R0;\n"
        "ARL A0.x, vertex.position.x;\n"
        "MOV R3, C1[A0.x + 1];\n"
        "ADD _R0, R3, {1, 2, 3, 4};\n"
        "MUL R0, _R0, C1[1].y;\n"
        "MOV result.position, R0;\n"
        "END\n";
    char *text = us_disassemble(&b.p);
    ck_assert_ptr_nonnull(text);
    ck_assert_str_eq(text, want);
    free(text);
    text_fixpoint(want);
}
END_TEST

/* Source programs: assemble, print, reassemble; equal IR and fixpoint. */
static const char *const sources[] = {
    "!!ARBvp1.0\n"
    "# comment\n"
    "ATTRIB iPos = vertex.position;\n"
    "PARAM mvp[4] = { state.matrix.mvp };\n"
    "PARAM half = 0.5;\n"
    "TEMP r0, r1;\n"
    "ALIAS r2 = r1;\n"
    "DP4 result.position.x, mvp[0], iPos;\n"
    "DP4 result.position.y, mvp[1], iPos;\n"
    "DP4 result.position.z, mvp[2], iPos;\n"
    "DP4 result.position.w, mvp[3], iPos;\n"
    "MUL r0, vertex.normal, half;\n"
    "MAD r2.xyz, r0, 2.0, -vertex.color;\n"
    "MOV result.color, {1, 0.25}.xxyy;\n"
    "MOV result.texcoord[3], state.matrix.program[2].transpose.row[1];\n"
    "END\n",

    "!!ARBvp1.0\n"
    "OPTION ARB_position_invariant;\n"
    "ADDRESS a;\n"
    "PARAM arr[] = { program.env[0..3], state.light[2].half, {1,2,3} };\n"
    "TEMP t;\n"
    "ARL a.x, vertex.attrib[6].y;\n"
    "MOV t, arr[a.x + 3];\n"
    "SWZ t, arr[a.x - 2], -1, 0, z, -w;\n"
    "LIT t, program.local[4];\n"
    "LOG t, -t.z;\n"
    "XPD result.color.back, t, -state.lightprod[1].back.ambient;\n"
    "END\n",

    "!!ARBfp1.0\n"
    "OPTION ARB_fog_linear;\n"
    "OPTION ARB_precision_hint_fastest;\n"
    "PARAM k = { 0.75, -1e-3, 3.5e+2, 1e10 };\n"
    "TEMP a, b;\n"
    "OUTPUT o = result.color;\n"
    "TEX a, fragment.texcoord[1], texture[2], 3D;\n"
    "TXP b, fragment.texcoord, texture, RECT;\n"
    "LRP_SAT a, a, b, k.wzyx;\n"
    "SCS b.xy, a.w;\n"
    "KIL -b.xyzz;\n"
    "CMP o, a, state.depth.range, state.texenv.color;\n"
    "END\n",

    "!!ARBfp1.0\n"
    "OPTION ARB_fragment_program_shadow;\n"
    "TEMP t;\n"
    "PARAM c[2] = { program.local[0], state.fog.color };\n"
    "TEX t, fragment.texcoord[0], texture[1], SHADOW2D;\n"
    "DPH t.x, fragment.position, c[1];\n"
    "MOV result.depth.z, t.x;\n"
    "MOV result.color, fragment.color.secondary;\n"
    "END\n",
};

/* `a` (assembled from `what`) prints as text that assembles into an equal
 * program and prints the same again. */
static void check_round_trip(const struct us_program *a, const char *what)
{
    struct us_program b;
    struct us_diag diag;
    char *text = us_disassemble(a);
    ck_assert_ptr_nonnull(text);
    bool ok = us_assemble(text, strlen(text), US_STAGE_ANY, &b, &diag);
    ck_assert_msg(ok, "%s printed: %u:%u: %s\n%s", what, diag.line,
                  diag.col, diag.msg, text);
    ck_assert_msg(us_program_equal(a, &b),
                  "%s: printed program differs:\n%s", what, text);
    char *again = us_disassemble(&b);
    ck_assert_ptr_nonnull(again);
    ck_assert_str_eq(again, text);
    free(again);
    free(text);
    us_program_free(&b);
}

START_TEST(assembled_round_trip)
{
    for (size_t i = 0; i < sizeof sources / sizeof sources[0]; i++) {
        struct us_program a;
        struct us_diag diag;
        bool ok = us_assemble(sources[i], strlen(sources[i]), US_STAGE_ANY,
                              &a, &diag);
        ck_assert_msg(ok, "source %zu: %u:%u: %s", i, diag.line, diag.col,
                      diag.msg);
        char what[32];
        snprintf(what, sizeof what, "source %zu", i);
        check_round_trip(&a, what);
        us_program_free(&a);
    }
}
END_TEST

/* Every file of `dir` that assembles round-trips to an equal program;
 * returns how many did.  A missing directory counts 0. */
static unsigned round_trip_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    enum { MAX_TEXT = 1 << 20 };
    char *text = malloc(MAX_TEXT);
    ck_assert_ptr_nonnull(text);
    unsigned n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        size_t len = fread(text, 1, MAX_TEXT - 1, f);
        bool whole = feof(f);
        fclose(f);
        text[len] = 0;
        struct us_program a;
        struct us_diag diag;
        if (!whole || !us_assemble(text, len, US_STAGE_ANY, &a, &diag))
            continue;
        check_round_trip(&a, path);
        us_program_free(&a);
        n++;
    }
    free(text);
    closedir(d);
    return n;
}

/* The shell test (tests/roundtrip.test.sh) checks the text fixpoint; this
 * one also compares the programs themselves. */
START_TEST(suite_round_trip)
{
    static const char piglit[] =
        "/usr/lib/x86_64-linux-gnu/piglit/tests/asmparsertest/shaders";
    unsigned n = round_trip_dir("bench/programs");
    DIR *d = opendir(piglit);
    if (d) {
        closedir(d);
        unsigned vp = round_trip_dir(
            "/usr/lib/x86_64-linux-gnu/piglit/tests/asmparsertest/shaders/"
            "ARBvp1.0");
        unsigned fp = round_trip_dir(
            "/usr/lib/x86_64-linux-gnu/piglit/tests/asmparsertest/shaders/"
            "ARBfp1.0");
        ck_assert_uint_gt(vp, 0);
        ck_assert_uint_gt(fp, 0);
        n += vp + fp;
    }
    ck_assert_uint_gt(n, 0);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("disasm");
    TCase *tc = tcase_create("golden");
    tcase_add_test(tc, headers_and_options);
    tcase_add_test(tc, vector_operands);
    tcase_add_test(tc, scalar_address_relative);
    tcase_add_test(tc, swz_tex_kil);
    tcase_add_test(tc, param_kinds_and_order);
    tcase_add_test(tc, state_bindings);
    tcase_add_test(tc, literal_values);
    tcase_add_test(tc, invented_declarations);
    suite_add_tcase(s, tc);
    TCase *rt = tcase_create("round_trip");
    tcase_add_test(rt, assembled_round_trip);
    tcase_add_test(rt, suite_round_trip);
    suite_add_tcase(s, rt);
    return s;
}
