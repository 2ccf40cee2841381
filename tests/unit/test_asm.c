/* The ARB program assembler: IR produced for valid programs, diagnostics
 * (with line:col) for invalid ones, CRLF input, limits and robustness
 * against random bytes. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ushader.h"

#include "check_main.h"

static struct us_program asm_ok_stage(const char *src, int stage)
{
    struct us_program p;
    struct us_diag d;
    bool ok = us_assemble(src, strlen(src), stage, &p, &d);
    ck_assert_msg(ok, "rejected %u:%u: %s\n%s", d.line, d.col, d.msg, src);
    return p;
}

static struct us_program asm_ok(const char *src)
{
    return asm_ok_stage(src, US_STAGE_ANY);
}

/* The program must fail at line:col with a message containing `part`,
 * leaving the output empty. */
static void asm_fail_len(const char *src, size_t len, unsigned line,
                         unsigned col, const char *part)
{
    struct us_program p;
    struct us_diag d;
    memset(&p, 0x5a, sizeof p);
    bool ok = us_assemble(src, len, US_STAGE_ANY, &p, &d);
    ck_assert_msg(!ok, "accepted:\n%s", src);
    ck_assert_msg(d.line == line && d.col == col && strstr(d.msg, part),
                  "want %u:%u '%s', got %u:%u '%s' for:\n%s", line, col, part,
                  d.line, d.col, d.msg, src);
    ck_assert_ptr_null(p.insts);
    ck_assert_ptr_null(p.params);
    ck_assert_ptr_null(p.decls);
    ck_assert_uint_eq(p.ninsts + p.nparams + p.ndecls, 0);
}

static void asm_fail(const char *src, unsigned line, unsigned col,
                     const char *part)
{
    asm_fail_len(src, strlen(src), line, col, part);
}

static void check_swz(const struct us_src *s, int x, int y, int z, int w)
{
    ck_assert_int_eq(s->swz[0], x);
    ck_assert_int_eq(s->swz[1], y);
    ck_assert_int_eq(s->swz[2], z);
    ck_assert_int_eq(s->swz[3], w);
}

/* ---------------------------------------------------------------------- */

START_TEST(every_vertex_instruction)
{
    struct us_program p = asm_ok(
        "!!ARBvp1.0\n"
        "TEMP t, u;\n"
        "ADDRESS A0;\n"
        "ABS t, u;\nADD t, t, u;\nARL A0.x, t.y;\nDP3 t, t, u;\n"
        "DP4 t, t, u;\nDPH t, t, u;\nDST t, t, u;\nEX2 t, u.x;\n"
        "EXP t, u.y;\nFLR t, u;\nFRC t, u;\nLG2 t, u.z;\nLIT t, u;\n"
        "LOG t, u.w;\nMAD t, t, u, t;\nMAX t, t, u;\nMIN t, t, u;\n"
        "MOV t, u;\nMUL t, t, u;\nPOW t, t.x, u.y;\nRCP t, u.x;\n"
        "RSQ t, u.x;\nSGE t, t, u;\nSLT t, t, u;\nSUB t, t, u;\n"
        "SWZ t, u, 0, 1, -x, y;\nXPD t, t, u;\n"
        "END\n");
    static const int ops[] = { US_OP_ABS, US_OP_ADD, US_OP_ARL, US_OP_DP3,
        US_OP_DP4, US_OP_DPH, US_OP_DST, US_OP_EX2, US_OP_EXP, US_OP_FLR,
        US_OP_FRC, US_OP_LG2, US_OP_LIT, US_OP_LOG, US_OP_MAD, US_OP_MAX,
        US_OP_MIN, US_OP_MOV, US_OP_MUL, US_OP_POW, US_OP_RCP, US_OP_RSQ,
        US_OP_SGE, US_OP_SLT, US_OP_SUB, US_OP_SWZ, US_OP_XPD };
    ck_assert_uint_eq(p.ninsts, 27);
    ck_assert_int_eq(p.stage, US_STAGE_VERTEX);
    for (unsigned i = 0; i < p.ninsts; i++) {
        ck_assert_int_eq(p.insts[i].op, ops[i]);
        ck_assert_uint_eq(p.insts[i].line, 4 + i);
        ck_assert(!p.insts[i].sat);
    }
    ck_assert_uint_eq(p.ntemps, 2);
    ck_assert_uint_eq(p.naddrs, 1);
    /* ARL writes A0.x from a scalar: replicated selector. */
    const struct us_inst *arl = &p.insts[2];
    ck_assert_int_eq(arl->dst.file, US_FILE_ADDRESS);
    ck_assert_int_eq(arl->dst.index, 0);
    ck_assert_int_eq(arl->dst.mask, 1);
    check_swz(&arl->src[0], 1, 1, 1, 1);
    /* POW: two scalar sources. */
    check_swz(&p.insts[19].src[0], 0, 0, 0, 0);
    check_swz(&p.insts[19].src[1], 1, 1, 1, 1);
    /* SWZ: 0, 1, -x, y. */
    const struct us_src *s = &p.insts[25].src[0];
    check_swz(s, US_SWZ_ZERO, US_SWZ_ONE, US_SWZ_X, US_SWZ_Y);
    ck_assert_int_eq(s->negate, 4);
    ck_assert_int_eq(s->file, US_FILE_TEMP);
    ck_assert_int_eq(s->index, 1);
    us_program_free(&p);
}
END_TEST

START_TEST(every_fragment_instruction)
{
    struct us_program p = asm_ok(
        "!!ARBfp1.0\n"
        "TEMP t, u;\n"
        "ABS t, u;\nADD_SAT t, t, u;\nCMP t, t, u, t;\nCOS t, u.x;\n"
        "DP3 t, t, u;\nDP4 t, t, u;\nDPH t, t, u;\nDST t, t, u;\n"
        "EX2 t, u.r;\nFLR t, u;\nFRC t, u;\nKIL u;\nLG2 t, u.g;\n"
        "LIT t, u;\nLRP t, t, u, t;\nMAD t, t, u, t;\nMAX t, t, u;\n"
        "MIN t, t, u;\nMOV t, u;\nMUL t, t, u;\nPOW t, t.b, u.a;\n"
        "RCP t, u.x;\nRSQ t, u.x;\nSCS t.xy, u.x;\nSGE t, t, u;\n"
        "SIN t, u.x;\nSLT t, t, u;\nSUB t, t, u;\nSWZ_SAT t, u, r, g, 0, -1;\n"
        "TEX t, u, texture[1], 2D;\nTXB t, u, texture[2], CUBE;\n"
        "TXP_SAT t, u, texture, 3D;\nXPD t, t, u;\n"
        "END\n");
    static const int ops[] = { US_OP_ABS, US_OP_ADD, US_OP_CMP, US_OP_COS,
        US_OP_DP3, US_OP_DP4, US_OP_DPH, US_OP_DST, US_OP_EX2, US_OP_FLR,
        US_OP_FRC, US_OP_KIL, US_OP_LG2, US_OP_LIT, US_OP_LRP, US_OP_MAD,
        US_OP_MAX, US_OP_MIN, US_OP_MOV, US_OP_MUL, US_OP_POW, US_OP_RCP,
        US_OP_RSQ, US_OP_SCS, US_OP_SGE, US_OP_SIN, US_OP_SLT, US_OP_SUB,
        US_OP_SWZ, US_OP_TEX, US_OP_TXB, US_OP_TXP, US_OP_XPD };
    ck_assert_uint_eq(p.ninsts, 33);
    ck_assert_int_eq(p.stage, US_STAGE_FRAGMENT);
    for (unsigned i = 0; i < p.ninsts; i++)
        ck_assert_int_eq(p.insts[i].op, ops[i]);
    ck_assert(p.insts[1].sat);
    ck_assert(p.insts[28].sat);
    ck_assert(p.insts[31].sat);
    ck_assert(!p.insts[29].sat);
    const struct us_inst *kil = &p.insts[11];
    ck_assert_int_eq(kil->dst.file, US_FILE_NULL);
    ck_assert_int_eq(kil->src[0].file, US_FILE_TEMP);
    check_swz(&p.insts[20].src[0], 2, 2, 2, 2);   /* .b */
    check_swz(&p.insts[20].src[1], 3, 3, 3, 3);   /* .a */
    ck_assert_int_eq(p.insts[23].dst.mask, 3);
    const struct us_src *s = &p.insts[28].src[0];
    check_swz(s, US_SWZ_X, US_SWZ_Y, US_SWZ_ZERO, US_SWZ_ONE);
    ck_assert_int_eq(s->negate, 8);
    ck_assert_int_eq(p.insts[29].tex_unit, 1);
    ck_assert_int_eq(p.insts[29].tex_target, US_TEX_2D);
    ck_assert_int_eq(p.insts[30].tex_unit, 2);
    ck_assert_int_eq(p.insts[30].tex_target, US_TEX_CUBE);
    ck_assert_int_eq(p.insts[31].tex_unit, 0);
    ck_assert_int_eq(p.insts[31].tex_target, US_TEX_3D);
    ck_assert_uint_eq(p.insts[29].line, 32);
    us_program_free(&p);
}
END_TEST

START_TEST(texture_targets)
{
    struct us_program p = asm_ok(
        "!!ARBfp1.0\n"
        "OPTION ARB_fragment_program_shadow;\n"
        "TEMP t;\n"
        "TEX t, t, texture[0], 1D;\nTEX t, t, texture[1], 2D;\n"
        "TEX t, t, texture[2], 3D;\nTEX t, t, texture[3], CUBE;\n"
        "TEX t, t, texture[4], RECT;\nTEX t, t, texture[5], SHADOW1D;\n"
        "TEX t, t, texture[6], SHADOW2D;\nTEX t, t, texture[15], SHADOWRECT;\n"
        "TXP t, t, texture[1], 2D;\n"
        "END\n");
    static const int targets[] = { US_TEX_1D, US_TEX_2D, US_TEX_3D,
        US_TEX_CUBE, US_TEX_RECT, US_TEX_SHADOW1D, US_TEX_SHADOW2D,
        US_TEX_SHADOWRECT, US_TEX_2D };
    ck_assert_uint_eq(p.ninsts, 9);
    for (unsigned i = 0; i < 9; i++)
        ck_assert_int_eq(p.insts[i].tex_target, targets[i]);
    ck_assert_int_eq(p.insts[7].tex_unit, 15);
    ck_assert_uint_eq(p.options, US_OPT_FRAGMENT_SHADOW);
    us_program_free(&p);
}
END_TEST

START_TEST(declarations_and_params)
{
    struct us_program p = asm_ok(
        "!!ARBvp1.0\n"
        "TEMP a, b;\n"
        "PARAM c = {1, -2.5};\n"
        "PARAM m[] = { state.matrix.mvp, program.env[2..3], -3, {4} };\n"
        "ATTRIB n = vertex.normal;\n"
        "OUTPUT o = result.texcoord[2];\n"
        "ALIAS al = b;\n"
        "TEMP z;\n"
        "ADDRESS A0;\n"
        "MOV o, -program.local[7];\n"
        "MUL al.xz, 0.5, {2, 3, 4, 5}.y;\n"
        "ADD z, state.fog.color, m[5];\n"
        "END\n");
    ck_assert_uint_eq(p.ntemps, 3);
    ck_assert_uint_eq(p.ndecls, 8);
    const struct us_decl *d = p.decls;
    ck_assert_str_eq(d[0].name, "a");
    ck_assert_int_eq(d[0].kind, US_DECL_TEMP);
    ck_assert_int_eq(d[1].base, 1);
    ck_assert_str_eq(d[2].name, "c");
    ck_assert_int_eq(d[2].kind, US_DECL_PARAM);
    ck_assert_int_eq(d[2].base, 0);
    ck_assert_int_eq(d[2].size, 1);
    ck_assert(!d[2].array);
    ck_assert_str_eq(d[3].name, "m");
    ck_assert(d[3].array);
    ck_assert_int_eq(d[3].base, 1);
    ck_assert_int_eq(d[3].size, 8);
    ck_assert_int_eq(d[4].kind, US_DECL_ATTRIB);
    ck_assert_int_eq(d[4].base, US_VIN_NORMAL);
    ck_assert_int_eq(d[5].kind, US_DECL_OUTPUT);
    ck_assert_int_eq(d[5].base, US_VOUT_TEXCOORD0 + 2);
    ck_assert_str_eq(d[6].name, "z");          /* ALIAS adds no decl */
    ck_assert_int_eq(d[6].base, 2);
    ck_assert_int_eq(d[7].kind, US_DECL_ADDRESS);  /* a declaration too */
    ck_assert_int_eq(d[7].base, 0);
    ck_assert_uint_eq(p.naddrs, 1);

    const struct us_param *pa = p.params;
    ck_assert_uint_eq(p.nparams, 9 + 4);
    ck_assert_int_eq(pa[0].kind, US_PARAM_CONST);
    ck_assert_int_eq(pa[0].decl, 2);
    ck_assert(pa[0].value[0] == 1.0f && pa[0].value[1] == -2.5f &&
              pa[0].value[2] == 0.0f && pa[0].value[3] == 1.0f);
    for (int r = 0; r < 4; r++) {
        ck_assert_int_eq(pa[1 + r].kind, US_PARAM_STATE);
        ck_assert_int_eq(pa[1 + r].decl, 3);
        ck_assert_int_eq(pa[1 + r].state.item, US_STATE_MATRIX_ROW);
        ck_assert_int_eq(pa[1 + r].state.a, US_MATRIX_MVP);
        ck_assert_int_eq(pa[1 + r].state.c, US_MOD_NONE);
        ck_assert_int_eq(pa[1 + r].state.d, r);
    }
    ck_assert_int_eq(pa[5].kind, US_PARAM_ENV);
    ck_assert_int_eq(pa[5].index, 2);
    ck_assert_int_eq(pa[6].index, 3);
    ck_assert(pa[7].value[0] == -3.0f && pa[7].value[3] == -3.0f);
    ck_assert(pa[8].value[0] == 4.0f && pa[8].value[1] == 0.0f &&
              pa[8].value[3] == 1.0f);
    /* in-place operands, in order of appearance, decl = -1 */
    ck_assert_int_eq(pa[9].kind, US_PARAM_LOCAL);
    ck_assert_int_eq(pa[9].index, 7);
    ck_assert_int_eq(pa[9].decl, -1);
    ck_assert(pa[10].value[0] == 0.5f && pa[10].value[3] == 0.5f);
    ck_assert(pa[11].value[1] == 3.0f && pa[11].value[3] == 5.0f);
    ck_assert_int_eq(pa[12].state.item, US_STATE_FOG_COLOR);
    for (int i = 9; i < 13; i++)
        ck_assert_int_eq(pa[i].decl, -1);

    const struct us_inst *in = p.insts;
    ck_assert_int_eq(in[0].dst.file, US_FILE_OUTPUT);
    ck_assert_int_eq(in[0].dst.index, US_VOUT_TEXCOORD0 + 2);
    ck_assert_int_eq(in[0].src[0].file, US_FILE_PARAM);
    ck_assert_int_eq(in[0].src[0].index, 9);
    ck_assert_int_eq(in[0].src[0].negate, 0xF);
    ck_assert_int_eq(in[1].dst.file, US_FILE_TEMP);
    ck_assert_int_eq(in[1].dst.index, 1);      /* through the alias */
    ck_assert_int_eq(in[1].dst.mask, 5);
    check_swz(&in[1].src[1], 1, 1, 1, 1);
    ck_assert_int_eq(in[2].src[1].index, 1 + 5);
    ck_assert_uint_eq(p.outputs_written, 1u << (US_VOUT_TEXCOORD0 + 2));
    ck_assert_uint_eq(p.inputs_read, 0);       /* n is declared, not read */
    us_program_free(&p);
}
END_TEST

START_TEST(literal_forms)
{
    struct us_program p = asm_ok(
        "!!ARBfp1.0\n"
        "PARAM a = -1.5e1;\n"
        "PARAM b = +.25;\n"
        "PARAM c = {1e-2, 2., -.5};\n"
        "PARAM d[2] = { {1, 2, 3, 4}, 7 };\n"
        "MOV result.color, -2;\n"
        "END\n");
    const struct us_param *pa = p.params;
    ck_assert(pa[0].value[0] == -15.0f && pa[0].value[2] == -15.0f);
    ck_assert(pa[1].value[1] == 0.25f);
    ck_assert(pa[2].value[0] == 1e-2f && pa[2].value[1] == 2.0f &&
              pa[2].value[2] == -0.5f && pa[2].value[3] == 1.0f);
    ck_assert(pa[3].value[3] == 4.0f && pa[4].value[0] == 7.0f);
    /* "-2" in place: the sign negates the operand, the literal stays 2 */
    ck_assert(pa[5].value[0] == 2.0f && pa[5].value[3] == 2.0f);
    ck_assert_int_eq(p.insts[0].src[0].negate, 0xF);
    us_program_free(&p);
}
END_TEST

START_TEST(relative_addressing)
{
    struct us_program p = asm_ok(
        "!!ARBvp1.0\n"
        "PARAM one = 1;\n"
        "PARAM arr[6] = { program.env[0..5] };\n"
        "ADDRESS A0;\n"
        "TEMP t;\n"
        "ARL A0.x, vertex.attrib[6].x;\n"
        "MOV t, arr[A0.x];\n"
        "MOV t, arr[A0.x + 63];\n"
        "MOV t, -arr[A0.x-64].zyxw;\n"
        "MOV t, arr[3];\n"
        "END\n");
    const struct us_inst *in = p.insts;
    const struct us_src *s = &in[1].src[0];
    ck_assert(s->rel);
    ck_assert_int_eq(s->rel_addr, 0);
    ck_assert_int_eq(s->index, 1);
    ck_assert_int_eq(s->rel_offset, 0);
    ck_assert_int_eq(s->rel_size, 6);
    ck_assert_int_eq(in[2].src[0].rel_offset, 63);
    ck_assert_int_eq(in[3].src[0].rel_offset, -64);
    ck_assert_int_eq(in[3].src[0].negate, 0xF);
    check_swz(&in[3].src[0], 2, 1, 0, 3);
    ck_assert(!in[4].src[0].rel);
    ck_assert_int_eq(in[4].src[0].index, 4);
    ck_assert_uint_eq(p.inputs_read, 1u << 6);
    us_program_free(&p);
    /* fragment programs under the unified shader's option */
    p = asm_ok("!!ARBfp1.0\nOPTION USHADER_extensions;\n"
               "PARAM arr[2] = { program.local[0..1] };\nADDRESS A0;\n"
               "ARL A0.x, fragment.texcoord[0].x;\n"
               "MOV result.color, arr[A0.x + 1];\nEND\n");
    ck_assert_uint_eq(p.naddrs, 1);
    ck_assert(p.insts[1].src[0].rel);
    ck_assert_int_eq(p.insts[1].src[0].rel_offset, 1);
    us_program_free(&p);
}
END_TEST

START_TEST(vertex_bindings)
{
    struct us_program p = asm_ok(
        "!!ARBvp1.0\n"
        "TEMP t;\n"
        "MOV t, vertex.position;\nMOV t, vertex.weight;\nMOV t, vertex.normal;\n"
        "MOV t, vertex.color;\nMOV t, vertex.color.secondary;\n"
        "MOV t, vertex.fogcoord;\nMOV t, vertex.texcoord;\n"
        "MOV t, vertex.texcoord[7];\nMOV t, vertex.attrib[7];\n"
        "MOV t, vertex.attrib[6];\nMOV t, vertex.color.primary;\n"
        "MOV t, vertex.weight[0];\n"
        "MOV result.position, t;\nMOV result.color, t;\n"
        "MOV result.color.secondary, t;\nMOV result.color.front, t;\n"
        "MOV result.color.front.secondary, t;\nMOV result.color.back, t;\n"
        "MOV result.color.back.primary, t;\n"
        "MOV result.color.back.secondary, t;\nMOV result.fogcoord.x, t;\n"
        "MOV result.pointsize, t;\nMOV result.texcoord, t;\n"
        "MOV result.texcoord[7].xyzw, t;\n"
        "END\n");
    static const int in[] = { US_VIN_POSITION, US_VIN_WEIGHT, US_VIN_NORMAL,
        US_VIN_COLOR0, US_VIN_COLOR1, US_VIN_FOGCOORD, US_VIN_TEXCOORD0,
        US_VIN_TEXCOORD0 + 7, 7, 6, US_VIN_COLOR0, US_VIN_WEIGHT };
    static const int out[] = { US_VOUT_POSITION, US_VOUT_COLOR0,
        US_VOUT_COLOR1, US_VOUT_COLOR0, US_VOUT_COLOR1, US_VOUT_BCOLOR0,
        US_VOUT_BCOLOR0, US_VOUT_BCOLOR1, US_VOUT_FOGCOORD, US_VOUT_POINTSIZE,
        US_VOUT_TEXCOORD0, US_VOUT_TEXCOORD0 + 7 };
    uint32_t want_in = 0, want_out = 0;
    for (int i = 0; i < 12; i++) {
        ck_assert_int_eq(p.insts[i].src[0].file, US_FILE_INPUT);
        ck_assert_int_eq(p.insts[i].src[0].index, in[i]);
        want_in |= 1u << in[i];
        ck_assert_int_eq(p.insts[12 + i].dst.file, US_FILE_OUTPUT);
        ck_assert_int_eq(p.insts[12 + i].dst.index, out[i]);
        want_out |= 1u << out[i];
    }
    ck_assert_int_eq(p.insts[20].dst.mask, 1);
    ck_assert_uint_eq(p.inputs_read, want_in);
    ck_assert_uint_eq(p.outputs_written, want_out);
    us_program_free(&p);
}
END_TEST

START_TEST(fragment_bindings)
{
    struct us_program p = asm_ok(
        "!!ARBfp1.0\n"
        "TEMP t;\n"
        "ATTRIB pos = fragment.position;\n"
        "OUTPUT depth = result.depth;\n"
        "MOV t, fragment.color;\nMOV t, fragment.color.primary;\n"
        "MOV t, fragment.color.secondary;\nMOV t, fragment.texcoord;\n"
        "MOV t, fragment.texcoord[7];\nMOV t, fragment.fogcoord;\n"
        "MOV t, pos;\nMOV result.color.rgb, t;\nMOV depth.z, t;\n"
        "END\n");
    static const int in[] = { US_FIN_COLOR0, US_FIN_COLOR0, US_FIN_COLOR1,
        US_FIN_TEXCOORD0, US_FIN_TEXCOORD0 + 7, US_FIN_FOGCOORD,
        US_FIN_POSITION };
    for (int i = 0; i < 7; i++)
        ck_assert_int_eq(p.insts[i].src[0].index, in[i]);
    ck_assert_int_eq(p.insts[7].dst.index, US_FOUT_COLOR);
    ck_assert_int_eq(p.insts[7].dst.mask, 7);
    ck_assert_int_eq(p.insts[8].dst.index, US_FOUT_DEPTH);
    ck_assert_int_eq(p.insts[8].dst.mask, 4);
    ck_assert_uint_eq(p.outputs_written, 3);
    us_program_free(&p);
    /* fragment.facing: a USHADER_extensions binding */
    p = asm_ok("!!ARBfp1.0\nOPTION USHADER_extensions;\n"
               "ATTRIB f = fragment.facing;\nMOV result.color, f.x;\nEND\n");
    ck_assert_int_eq(p.insts[0].src[0].file, US_FILE_INPUT);
    ck_assert_int_eq(p.insts[0].src[0].index, US_FIN_FACING);
    ck_assert_uint_eq(p.inputs_read, 1ull << US_FIN_FACING);
    ck_assert_str_eq(us_input_name(US_STAGE_FRAGMENT, US_FIN_FACING),
                     "fragment.facing");
    us_program_free(&p);
}
END_TEST

struct state_case {
    const char *text;
    struct us_state_ref ref;
};

static void check_states(const char *header, const struct state_case *cases,
                         size_t n)
{
    char src[256];
    for (size_t i = 0; i < n; i++) {
        snprintf(src, sizeof src, "%sPARAM p = %s;\nEND\n", header, cases[i].text);
        struct us_program p = asm_ok(src);
        ck_assert_uint_eq(p.nparams, 1);
        ck_assert_int_eq(p.params[0].kind, US_PARAM_STATE);
        const struct us_state_ref *r = &p.params[0].state;
        const struct us_state_ref *w = &cases[i].ref;
        ck_assert_msg(r->item == w->item && r->a == w->a && r->b == w->b &&
                      r->c == w->c && r->d == w->d,
                      "%s: got %d %d %d %d %d", cases[i].text, r->item, r->a,
                      r->b, r->c, r->d);
        us_program_free(&p);
    }
}

START_TEST(state_bindings)
{
    static const struct state_case both[] = {
        { "state.material.ambient", { US_STATE_MATERIAL, US_FACE_FRONT, US_PROP_AMBIENT, 0, 0 } },
        { "state.material.front.diffuse", { US_STATE_MATERIAL, US_FACE_FRONT, US_PROP_DIFFUSE, 0, 0 } },
        { "state.material.back.specular", { US_STATE_MATERIAL, US_FACE_BACK, US_PROP_SPECULAR, 0, 0 } },
        { "state.material.emission", { US_STATE_MATERIAL, US_FACE_FRONT, US_PROP_EMISSION, 0, 0 } },
        { "state.material.back.shininess", { US_STATE_MATERIAL, US_FACE_BACK, US_PROP_SHININESS, 0, 0 } },
        { "state.light[7].ambient", { US_STATE_LIGHT, 7, US_PROP_AMBIENT, 0, 0 } },
        { "state.light[1].diffuse", { US_STATE_LIGHT, 1, US_PROP_DIFFUSE, 0, 0 } },
        { "state.light[1].specular", { US_STATE_LIGHT, 1, US_PROP_SPECULAR, 0, 0 } },
        { "state.light[2].position", { US_STATE_LIGHT, 2, US_PROP_POSITION, 0, 0 } },
        { "state.light[3].attenuation", { US_STATE_LIGHT, 3, US_PROP_ATTENUATION, 0, 0 } },
        { "state.light[4].spot.direction", { US_STATE_LIGHT, 4, US_PROP_SPOT_DIRECTION, 0, 0 } },
        { "state.light[5].half", { US_STATE_LIGHT, 5, US_PROP_HALF, 0, 0 } },
        { "state.lightmodel.ambient", { US_STATE_LIGHTMODEL_AMBIENT, 0, 0, 0, 0 } },
        { "state.lightmodel.scenecolor", { US_STATE_LIGHTMODEL_SCENECOLOR, US_FACE_FRONT, 0, 0, 0 } },
        { "state.lightmodel.front.scenecolor", { US_STATE_LIGHTMODEL_SCENECOLOR, US_FACE_FRONT, 0, 0, 0 } },
        { "state.lightmodel.back.scenecolor", { US_STATE_LIGHTMODEL_SCENECOLOR, US_FACE_BACK, 0, 0, 0 } },
        { "state.lightprod[0].ambient", { US_STATE_LIGHTPROD, 0, US_FACE_FRONT, US_PROP_AMBIENT, 0 } },
        { "state.lightprod[6].back.diffuse", { US_STATE_LIGHTPROD, 6, US_FACE_BACK, US_PROP_DIFFUSE, 0 } },
        { "state.lightprod[2].front.specular", { US_STATE_LIGHTPROD, 2, US_FACE_FRONT, US_PROP_SPECULAR, 0 } },
        { "state.fog.color", { US_STATE_FOG_COLOR, 0, 0, 0, 0 } },
        { "state.fog.params", { US_STATE_FOG_PARAMS, 0, 0, 0, 0 } },
        { "state.matrix.modelview.row[0]", { US_STATE_MATRIX_ROW, US_MATRIX_MODELVIEW, 0, US_MOD_NONE, 0 } },
        { "state.matrix.modelview[0].inverse.row[3]", { US_STATE_MATRIX_ROW, US_MATRIX_MODELVIEW, 0, US_MOD_INVERSE, 3 } },
        { "state.matrix.projection.transpose.row[1]", { US_STATE_MATRIX_ROW, US_MATRIX_PROJECTION, 0, US_MOD_TRANSPOSE, 1 } },
        { "state.matrix.mvp.invtrans.row[2]", { US_STATE_MATRIX_ROW, US_MATRIX_MVP, 0, US_MOD_INVTRANS, 2 } },
        { "state.matrix.texture.row[2]", { US_STATE_MATRIX_ROW, US_MATRIX_TEXTURE, 0, US_MOD_NONE, 2 } },
        { "state.matrix.texture[7].row[2]", { US_STATE_MATRIX_ROW, US_MATRIX_TEXTURE, 7, US_MOD_NONE, 2 } },
        { "state.matrix.program[7].inverse.row[0]", { US_STATE_MATRIX_ROW, US_MATRIX_PROGRAM, 7, US_MOD_INVERSE, 0 } },
    };
    static const struct state_case vp[] = {
        { "state.texgen.eye.s", { US_STATE_TEXGEN, 0, US_TEXGEN_EYE, 0, 0 } },
        { "state.texgen[3].object.q", { US_STATE_TEXGEN, 3, US_TEXGEN_OBJECT, 3, 0 } },
        { "state.texgen[7].eye.r", { US_STATE_TEXGEN, 7, US_TEXGEN_EYE, 2, 0 } },
        { "state.texgen[1].object.t", { US_STATE_TEXGEN, 1, US_TEXGEN_OBJECT, 1, 0 } },
        { "state.clip[5].plane", { US_STATE_CLIP_PLANE, 5, 0, 0, 0 } },
        { "state.point.size", { US_STATE_POINT_SIZE, 0, 0, 0, 0 } },
        { "state.point.attenuation", { US_STATE_POINT_ATTENUATION, 0, 0, 0, 0 } },
    };
    static const struct state_case fp[] = {
        { "state.texenv.color", { US_STATE_TEXENV_COLOR, 0, 0, 0, 0 } },
        { "state.texenv[7].color", { US_STATE_TEXENV_COLOR, 7, 0, 0, 0 } },
        { "state.depth.range", { US_STATE_DEPTH_RANGE, 0, 0, 0, 0 } },
    };
    check_states("!!ARBvp1.0\n", both, sizeof both / sizeof both[0]);
    check_states("!!ARBfp1.0\n", both, sizeof both / sizeof both[0]);
    check_states("!!ARBvp1.0\n", vp, sizeof vp / sizeof vp[0]);
    check_states("!!ARBfp1.0\n", fp, sizeof fp / sizeof fp[0]);
}
END_TEST

START_TEST(matrix_ranges)
{
    struct us_program p = asm_ok(
        "!!ARBvp1.0\n"
        "PARAM a[] = { state.matrix.program[0].row[1..2] };\n"
        "PARAM b[] = { state.matrix.program[0].transpose };\n"
        "PARAM c[2] = { state.matrix.texture[1].row[3], program.local[4] };\n"
        "END\n");
    ck_assert_uint_eq(p.nparams, 2 + 4 + 2);
    ck_assert_int_eq(p.decls[0].size, 2);
    ck_assert_int_eq(p.params[0].state.d, 1);
    ck_assert_int_eq(p.params[1].state.d, 2);
    ck_assert_int_eq(p.decls[1].base, 2);
    ck_assert_int_eq(p.decls[1].size, 4);
    for (int r = 0; r < 4; r++) {
        ck_assert_int_eq(p.params[2 + r].state.c, US_MOD_TRANSPOSE);
        ck_assert_int_eq(p.params[2 + r].state.d, r);
        ck_assert_int_eq(p.params[2 + r].decl, 1);
    }
    ck_assert_int_eq(p.params[6].state.b, 1);
    ck_assert_int_eq(p.params[7].kind, US_PARAM_LOCAL);
    ck_assert_int_eq(p.params[7].decl, 2);
    us_program_free(&p);
}
END_TEST

START_TEST(options)
{
    static const struct { const char *text; uint32_t bits; } cases[] = {
        { "!!ARBvp1.0\nOPTION ARB_position_invariant;\nEND", US_OPT_POSITION_INVARIANT },
        { "!!ARBfp1.0\nOPTION ARB_precision_hint_fastest;\nEND", US_OPT_PRECISION_FASTEST },
        { "!!ARBfp1.0\nOPTION ARB_precision_hint_nicest;\nOPTION ARB_precision_hint_nicest;\nEND",
          US_OPT_PRECISION_NICEST },
        { "!!ARBfp1.0\nOPTION ARB_fog_exp;\nEND", US_OPT_FOG_EXP },
        { "!!ARBfp1.0\nOPTION ARB_fog_exp2;\nEND", US_OPT_FOG_EXP2 },
        { "!!ARBfp1.0\nOPTION ARB_fog_linear;\nOPTION ARB_precision_hint_fastest;\nEND",
          US_OPT_FOG_LINEAR | US_OPT_PRECISION_FASTEST },
        { "!!ARBfp1.0\nOPTION ARB_fragment_coord_origin_upper_left;\n"
          "OPTION ARB_fragment_coord_pixel_center_integer;\n"
          "OPTION ARB_fragment_program_shadow;\nEND",
          US_OPT_ORIGIN_UPPER_LEFT | US_OPT_PIXEL_CENTER_INTEGER | US_OPT_FRAGMENT_SHADOW },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct us_program p = asm_ok(cases[i].text);
        ck_assert_uint_eq(p.options, cases[i].bits);
        ck_assert_uint_eq(p.ninsts, 0);   /* options add no instructions */
        us_program_free(&p);
    }
}
END_TEST

START_TEST(lexical_details)
{
    /* Comments, CR, tabs, names with $ and _, text after END, fragment
     * programs may use vertex-only keywords as names. */
    struct us_program p = asm_ok(
        "!!ARBfp1.0 # header comment\r"
        "TEMP\t$x_1, ADDRESS, ARL, vertex;#c\n"
        "MOV $x_1,ADDRESS ; # trailing\n"
        "END\x01\x02 garbage MOV");
    ck_assert_uint_eq(p.ntemps, 4);
    ck_assert_uint_eq(p.ninsts, 1);
    us_program_free(&p);

    struct us_program q = asm_ok("!!ARBvp1.0\nTEMP texture, SIN, fragment;\n"
                                 "MOV texture, SIN;\nEND");
    ck_assert_uint_eq(q.ntemps, 3);
    us_program_free(&q);
}
END_TEST

START_TEST(crlf_matches_lf)
{
    const char *lf =
        "!!ARBvp1.0\n"
        "# comment\n"
        "PARAM m[4] = { state.matrix.mvp };\n"
        "TEMP t;\n"
        "DP4 t.x, m[0], vertex.position;\n"
        "MOV result.color, {0.1, 0.2}.y;\n"
        "END\n";
    char crlf[512];
    size_t n = 0;
    for (const char *s = lf; *s; s++) {
        if (*s == '\n')
            crlf[n++] = '\r';
        crlf[n++] = *s;
    }
    crlf[n] = '\0';
    struct us_program a = asm_ok(lf), b = asm_ok(crlf);
    ck_assert(us_program_equal(&a, &b));
    for (unsigned i = 0; i < a.ninsts; i++)
        ck_assert_uint_eq(a.insts[i].line, b.insts[i].line);
    us_program_free(&a);
    us_program_free(&b);
    /* Error positions are the same with CRLF. */
    asm_fail("!!ARBvp1.0\r\nTEMP a;\r\nMOV a, b;\r\nEND\r\n", 3, 8,
             "undeclared identifier 'b'");
}
END_TEST

/* DDX DDY and their .FINE forms in a fragment program with the extensions,
 * and back through the disassembler. */
START_TEST(derivative_instructions)
{
    struct us_program p = asm_ok("!!ARBfp1.0\nOPTION USHADER_extensions;\n"
                                 "TEMP t;\n"
                                 "DDX t, fragment.texcoord[0];\n"
                                 "DDY t.xy, -t.yxzw;\n"
                                 "DDX.FINE t, t;\nDDY.FINE result.color, t;\n"
                                 "END\n");
    static const enum us_opcode ops[4] = { US_OP_DDX, US_OP_DDY,
                                           US_OP_DDX_FINE, US_OP_DDY_FINE };
    ck_assert_uint_eq(p.ninsts, 4);
    for (unsigned i = 0; i < 4; i++)
        ck_assert_int_eq(p.insts[i].op, ops[i]);
    ck_assert_uint_eq(p.insts[1].dst.mask, 0x3);
    char *text = us_disassemble(&p);
    ck_assert_ptr_nonnull(strstr(text, "DDY.FINE result.color, "));
    struct us_program q = asm_ok(text);
    ck_assert(us_program_equal(&p, &q));
    free(text);
    us_program_free(&q);
    us_program_free(&p);
}
END_TEST

START_TEST(stage_selection)
{
    const char *vp = "!!ARBvp1.0\nEND\n", *fp = "!!ARBfp1.0\nEND\n";
    struct us_program p = asm_ok_stage(vp, US_STAGE_VERTEX);
    ck_assert_int_eq(p.stage, US_STAGE_VERTEX);
    us_program_free(&p);
    p = asm_ok_stage(fp, US_STAGE_FRAGMENT);
    ck_assert_int_eq(p.stage, US_STAGE_FRAGMENT);
    us_program_free(&p);
    struct us_diag d;
    ck_assert(!us_assemble(vp, strlen(vp), US_STAGE_FRAGMENT, &p, &d));
    ck_assert_uint_eq(d.line, 1);
    ck_assert_uint_eq(d.col, 1);
    ck_assert_ptr_nonnull(strstr(d.msg, "!!ARBfp1.0"));
    ck_assert(!us_assemble(fp, strlen(fp), US_STAGE_VERTEX, &p, &d));
    ck_assert_ptr_nonnull(strstr(d.msg, "vertex"));
    ck_assert(!us_assemble(vp, strlen(vp), 7, &p, &d));
    ck_assert(!us_assemble(NULL, 0, US_STAGE_ANY, &p, &d));
    ck_assert_ptr_null(p.insts);
}
END_TEST

/* ---------------------------------------------------------------------- */

struct fail_case {
    const char *src;
    unsigned line, col;
    const char *msg;
};

#define VP "!!ARBvp1.0\n"
#define FP "!!ARBfp1.0\n"

static const struct fail_case fail_cases[] = {
    /* header, structure */
    { "!!ARBvp2.0\nEND", 1, 1, "must begin with" },
    { " !!ARBvp1.0\nEND", 1, 1, "must begin with" },
    { VP "TEMP a;\n", 3, 1, "missing END" },
    { VP "TEMP a;\nOPTION ARB_position_invariant;\nEND", 3, 1, "OPTION must come" },
    { VP "OPTION foo_bar;\nEND", 2, 8, "unsupported vertex program option 'foo_bar'" },
    { FP "OPTION ARB_position_invariant;\nEND", 2, 8, "unsupported fragment" },
    { VP "OPTION ARB_fog_exp;\nEND", 2, 8, "unsupported vertex" },
    { FP "ADDRESS A0;\nEND", 2, 1, "unknown instruction 'ADDRESS'" },
    { FP "PARAM a[2] = { program.local[0..1] };\n"
      "MOV result.color, a[A0.x];\nEND", 3, 21, "no relative addressing" },
    { FP "MOV result.color, fragment.facing;\nEND", 2, 28,
      "fragment.facing needs OPTION USHADER_extensions" },
    { VP "TEMP a\nEND", 3, 1, "expected ';'" },
    { VP "TEMP a;\nMOV a, a\nEND", 4, 1, "expected ';'" },
    { VP "TEMP a;\nMOVE a, a;\nEND", 3, 1, "unknown instruction 'MOVE'" },
    { VP "TEMP a;\nSIN a, a.x;\nEND", 3, 1, "not an ARB_vertex_program instruction" },
    { FP "TEMP a;\nEXP a, a.x;\nEND", 3, 1, "not an ARB_fragment_program instruction" },
    /* derivatives: fragment programs under the extensions only */
    { FP "TEMP a;\nDDX a, a;\nEND", 3, 1, "DDX needs OPTION USHADER_extensions" },
    { VP "OPTION USHADER_extensions;\nTEMP a;\nDDY.FINE a, a;\nEND", 4, 1,
      "DDY.FINE is not an ARB_vertex_program instruction" },
    { "!!USHADERcp1.0\nTEMP a;\nDDX a, a;\nEND", 3, 1,
      "DDX reads a fragment quad" },
    { VP "TEMP a;\nMOV_SAT a, a;\nEND", 3, 1, "no _SAT form" },
    { FP "TEMP a;\nKIL_SAT a;\nEND", 3, 1, "no _SAT form" },
    { VP "TEMP a;\n@\nEND", 3, 1, "unexpected character '@'" },
    /* names */
    { VP "TEMP a;\nTEMP a;\nEND", 3, 6, "redeclaration of 'a'" },
    { VP "TEMP a;\nPARAM a = 1;\nEND", 3, 7, "redeclaration of 'a'" },
    { VP "TEMP a;\nALIAS a = a;\nEND", 3, 7, "redeclaration of 'a'" },
    { VP "TEMP a, b, a;\nEND", 2, 12, "redeclaration of 'a'" },
    { VP "MOV result.position, foo;\nEND", 2, 22, "undeclared identifier 'foo'" },
    { VP "ALIAS b = c;\nEND", 2, 11, "undeclared identifier 'c'" },
    { VP "TEMP ADD;\nEND", 2, 6, "reserved keyword 'ADD'" },
    { VP "TEMP vertex;\nEND", 2, 6, "reserved keyword" },
    { VP "TEMP ADDRESS;\nEND", 2, 6, "reserved keyword" },
    { FP "TEMP MOV_SAT;\nEND", 2, 6, "reserved keyword" },
    { FP "TEMP texture;\nEND", 2, 6, "reserved keyword" },
    { FP "TEMP fragment;\nEND", 2, 6, "reserved keyword" },
    { VP "TEMP a234567890123456789012345678901234567890123456789012345678901234;\nEND",
      2, 6, "name longer than 63" },
    /* masks and swizzles */
    { VP "TEMP a;\nMOV a.yx, a;\nEND", 3, 7, "write mask must be in xyzw order" },
    { VP "TEMP a;\nMOV a.xx, a;\nEND", 3, 7, "write mask must be in xyzw order" },
    { VP "TEMP a;\nMOV a.rgb, a;\nEND", 3, 7, "invalid write mask 'rgb'" },
    { FP "TEMP a;\nMOV a.rgw, a;\nEND", 3, 7, "invalid write mask" },
    { FP "TEMP a;\nMOV a.xyzwx, a;\nEND", 3, 7, "invalid write mask" },
    { VP "TEMP a;\nMOV a, a.xy;\nEND", 3, 10, "invalid swizzle 'xy'" },
    { VP "TEMP a;\nMOV a, a.rgba;\nEND", 3, 10, "invalid swizzle" },
    { FP "TEMP a;\nMOV a, a.xyba;\nEND", 3, 10, "invalid swizzle" },
    { VP "TEMP a;\nRCP a, a;\nEND", 3, 8, "scalar operand needs a component" },
    { VP "TEMP a;\nRCP a, -a.xy;\nEND", 3, 11, "invalid swizzle" },
    { VP "TEMP a;\nRCP a, a.xxxx;\nEND", 3, 10, "scalar operand needs a single component" },
    { VP "TEMP a;\nPOW a, a.x, a;\nEND", 3, 13, "scalar operand needs a component" },
    { VP "TEMP a;\nSWZ a, a, x, y, 2, w;\nEND", 3, 17, "invalid extended swizzle selector '2'" },
    { VP "TEMP a;\nSWZ a, a, x, y, z;\nEND", 3, 18, "expected ','" },
    { VP "TEMP a;\nSWZ a, a.x, x, y, z, w;\nEND", 3, 9, "expected ','" },
    { VP "TEMP a;\nSWZ a, a, r, g, b, a;\nEND", 3, 11, "invalid extended swizzle" },
    { FP "TEMP a;\nSWZ a, a, r, y, 0, 1;\nEND", 3, 14, "mixes xyzw and rgba" },
    /* operands */
    { VP "OUTPUT o = result.color;\nTEMP a;\nMOV a, o;\nEND", 4, 8, "cannot be read" },
    { VP "ATTRIB v = vertex.position;\nMOV v, v;\nEND", 3, 5, "read-only" },
    { VP "PARAM p = 1;\nMOV p, p;\nEND", 3, 5, "read-only" },
    { VP "TEMP a;\nMOV a, result.color;\nEND", 3, 8, "write-only" },
    { VP "ADDRESS A0;\nTEMP a;\nMOV a, A0;\nEND", 4, 8, "relative addressing" },
    { VP "TEMP a;\nMOV a, fragment.color;\nEND", 3, 8, "undeclared identifier 'fragment'" },
    { FP "TEMP a;\nMOV a, vertex.color;\nEND", 3, 8, "undeclared identifier 'vertex'" },
    { VP "TEMP a;\nMOV a, vertex.matrixindex[0];\nEND", 3, 15, "ARB_matrix_palette" },
    { VP "TEMP a;\nMOV a, vertex.weight[4];\nEND", 3, 22, "out of range" },
    { VP "TEMP a;\nMOV a, vertex.attrib[16];\nEND", 3, 22, "out of range (0..15)" },
    { VP "TEMP a;\nMOV a, vertex.texcoord[8];\nEND", 3, 24, "out of range (0..7)" },
    { VP "TEMP a;\nMOV a, vertex.foo;\nEND", 3, 15, "invalid vertex attribute 'foo'" },
    { FP "TEMP a;\nMOV a, fragment.normal;\nEND", 3, 17, "invalid fragment attribute" },
    { VP "TEMP a;\nMOV result.depth, a;\nEND", 3, 12, "invalid vertex program result 'depth'" },
    { FP "TEMP a;\nMOV result.texcoord, a;\nEND", 3, 12, "invalid fragment program result" },
    { VP "TEMP a;\nMOV result.texcoord[8], a;\nEND", 3, 21, "out of range (0..7)" },
    { VP "TEMP a;\nMOV a, -2..;\nEND", 3, 10, "expected ';'" },
    { VP "TEMP a;\nMOV a, 1e39;\nEND", 3, 8, "does not fit in 32 bits" },
    { VP "TEMP a;\nMOV a, {1, 2, 3, 4, 5};\nEND", 3, 21, "at most 4 components" },
    { VP "TEMP a;\nMOV a, {};\nEND", 3, 9, "expected a number" },
    /* vertex attribute aliasing (Table X.2.1) */
    { VP "TEMP a;\nMOV a, vertex.color;\nMOV a, vertex.attrib[3];\nEND", 4, 8,
      "name the same vertex attribute" },
    { VP "ATTRIB g = vertex.attrib[10];\nATTRIB t = vertex.texcoord[2];\nEND", 3, 12,
      "name the same vertex attribute" },
    { VP "TEMP a;\nMOV a, vertex.attrib[0];\nMOV a, vertex.position;\nEND", 4, 8,
      "vertex.attrib[0] and vertex.position" },
    /* PARAM declarations */
    { VP "PARAM p[3] = { 1, 2 };\nEND", 2, 9, "array size 3 does not match its 2" },
    { VP "PARAM p[0] = { 1 };\nEND", 2, 9, "array size must be 1..1024" },
    { VP "PARAM p[1025] = { 1 };\nEND", 2, 9, "array size must be 1..1024" },
    { VP "PARAM p[2] = 1;\nEND", 2, 14, "needs a { ... } initializer" },
    { VP "PARAM p = program.env[0..1];\nEND", 2, 24, "range of parameters needs an array" },
    { VP "PARAM p[] = { program.env[3..1] };\nEND", 2, 28, "first index exceeds the last" },
    { VP "PARAM p[] = { program.local[1024] };\nEND", 2, 29, "out of range (0..1023)" },
    { VP "PARAM p = program.env[256];\nEND", 2, 23, "out of range (0..255)" },
    { VP "PARAM p = state.matrix.mvp;\nEND", 2, 11, "whole matrix needs an array PARAM" },
    { VP "PARAM p[] = { state.matrix.mvp.row[3..0] };\nEND", 2, 37, "first row exceeds" },
    { VP "PARAM p = state.matrix.mvp.row[1..2];\nEND", 2, 33, "needs an array PARAM" },
    { VP "PARAM p = state.matrix.mvp.row[4];\nEND", 2, 32, "out of range (0..3)" },
    { VP "PARAM p = state.matrix.modelview[1].row[0];\nEND", 2, 34, "out of range (0..0)" },
    { VP "PARAM p = state.matrix.palette[0].row[0];\nEND", 2, 11, "ARB_matrix_palette" },
    { VP "PARAM p = state.matrix.program[8].row[0];\nEND", 2, 32, "out of range (0..7)" },
    { VP "PARAM p = state.matrix.texture[8].row[0];\nEND", 2, 32, "out of range (0..7)" },
    { VP "PARAM p = state.matrix.mvp.inverse.transpose.row[0];\nEND", 2, 36, "invalid matrix selector" },
    { VP "PARAM p = state.light[8].ambient;\nEND", 2, 23, "out of range (0..7)" },
    { VP "PARAM p = state.light[0].foo;\nEND", 2, 26, "invalid light property 'foo'" },
    { VP "PARAM p = state.light.ambient;\nEND", 2, 22, "expected '['" },
    { VP "PARAM p = state.lightprod[0].front.emission;\nEND", 2, 36, "invalid light product" },
    { VP "PARAM p = state.lightmodel.front.ambient;\nEND", 2, 34, "invalid light model" },
    { VP "PARAM p = state.clip[6].plane;\nEND", 2, 22, "out of range (0..5)" },
    { VP "PARAM p = state.texgen[8].eye.s;\nEND", 2, 24, "out of range (0..7)" },
    { VP "PARAM p = state.texgen.eye.x;\nEND", 2, 28, "invalid texgen coordinate" },
    { VP "PARAM p = state.depth.range;\nEND", 2, 17, "not available in vertex programs" },
    { VP "PARAM p = state.texenv.color;\nEND", 2, 17, "not available in vertex programs" },
    { FP "PARAM p = state.clip[0].plane;\nEND", 2, 17, "not available in fragment programs" },
    { FP "PARAM p = state.point.size;\nEND", 2, 17, "not available in fragment" },
    { FP "PARAM p = state.texgen.eye.s;\nEND", 2, 17, "not available in fragment" },
    { FP "PARAM p = state.texenv[8].color;\nEND", 2, 24, "out of range (0..7)" },
    { VP "PARAM p = state;\nEND", 2, 16, "expected '.'" },
    { VP "PARAM p = state.foo;\nEND", 2, 17, "invalid state binding 'foo'" },
    { VP "PARAM p = vertex.color;\nEND", 2, 11, "expected a program parameter" },
    /* arrays and relative addressing */
    { VP "PARAM p[2] = { 1, 2 };\nTEMP a;\nMOV a, p[2];\nEND", 4, 10, "out of bounds" },
    { VP "PARAM p[2] = { 1, 2 };\nTEMP a;\nMOV a, p;\nEND", 4, 8, "needs an index" },
    { VP "PARAM p = 1;\nTEMP a;\nMOV a, p[0];\nEND", 4, 9, "not a PARAM array" },
    { VP "TEMP a;\nMOV a, a[0];\nEND", 3, 9, "not a PARAM array" },
    { VP "PARAM p[2] = { 1, 2 };\nADDRESS A0;\nTEMP a;\nMOV a, p[A0.y];\nEND", 5, 13,
      "only an x component" },
    { VP "PARAM p[2] = { 1, 2 };\nADDRESS A0;\nTEMP a;\nMOV a, p[A0];\nEND", 5, 12,
      "expected '.'" },
    { VP "PARAM p[2] = { 1, 2 };\nADDRESS A0;\nTEMP a;\nMOV a, p[A0.x + 1024];\nEND", 5, 17,
      "out of range (0..1023)" },
    { VP "PARAM p[2] = { 1, 2 };\nADDRESS A0;\nTEMP a;\nMOV a, p[A0.x - 1024];\nEND", 5, 17,
      "out of range (0..1023)" },
    { VP "PARAM p[2] = { 1, 2 };\nTEMP a;\nMOV a, p[a.x];\nEND", 4, 10, "not an address register" },
    { VP "PARAM p[2] = { 1, 2 };\nTEMP a;\nMOV a, p[-1];\nEND", 4, 10, "expected an address register" },
    { FP "PARAM p[2] = { 1, 2 };\nTEMP A0;\nMOV result.color, p[A0.x];\nEND", 4, 21,
      "no relative addressing" },
    { VP "PARAM a[2] = { program.env[0], program.env[0] };\nADDRESS A0;\n"
      "MOV result.position, a[A0.x];\nEND", 4, 24, "same state vector twice" },
    { VP "PARAM a[2] = { program.env[0], 1 };\nPARAM b[] = { state.fog.color, program.env[0] };\n"
      "ADDRESS A0;\nTEMP t;\nMOV t, a[A0.x];\nMOV t, b[A0.x];\nEND", 7, 10,
      "'a' and 'b' bind the same state vector" },
    /* ARL */
    { VP "ADDRESS A0;\nTEMP a;\nARL A0.y, a.x;\nEND", 4, 8, "only an x component" },
    { VP "ADDRESS A0;\nTEMP a;\nARL A0, a.x;\nEND", 4, 7, "expected '.'" },
    { VP "ADDRESS A0;\nTEMP a;\nARL A0.x, a;\nEND", 4, 11, "scalar operand" },
    { VP "TEMP a;\nARL a.x, a.x;\nEND", 3, 5, "not an address register" },
    { VP "ADDRESS A0;\nMOV A0, 1;\nEND", 3, 5, "read-only" },
    { VP "ADDRESS A0, A1;\nEND", 2, 13, "too many ADDRESS registers (limit 1)" },
    /* options */
    { VP "OPTION ARB_position_invariant;\nMOV result.position, 1;\nEND", 3, 5,
      "ARB_position_invariant" },
    { VP "OPTION ARB_position_invariant;\nOUTPUT p = result.position;\nEND", 3, 12,
      "ARB_position_invariant" },
    { FP "OPTION ARB_fog_exp;\nOPTION ARB_fog_linear;\nEND", 3, 8, "conflicts" },
    { FP "OPTION ARB_fog_exp2;\nOPTION ARB_fog_exp;\nEND", 3, 8, "conflicts" },
    { FP "OPTION ARB_precision_hint_nicest;\nOPTION ARB_precision_hint_fastest;\nEND",
      3, 8, "conflicts" },
    /* texturing */
    { FP "TEX result.color, fragment.texcoord[0], texture[0], SHADOW2D;\nEND", 2, 53,
      "ARB_fragment_program_shadow" },
    { FP "TEX result.color, fragment.texcoord[0], texture[16], 2D;\nEND", 2, 49,
      "out of range (0..15)" },
    { FP "TEX result.color, fragment.texcoord[0], texture[0], 4D;\nEND", 2, 53,
      "invalid texture target '4'" },
    { FP "TEX result.color, fragment.texcoord[0], texture[0], 2 D;\nEND", 2, 53,
      "invalid texture target" },
    { FP "TEX result.color, fragment.texcoord[0], texture[0], CUBE;\n"
      "TXP result.color, fragment.texcoord[0], texture[0], 2D;\nEND", 3, 53,
      "already used with another target" },
    { FP "OPTION ARB_fragment_program_shadow;\n"
      "TEX result.color.rgb, fragment.texcoord[0], texture[0], 2D;\n"
      "TEX result.color.a, fragment.texcoord[1], texture[0], SHADOW2D;\nEND", 4, 55,
      "already used" },
    { FP "TEX result.color, fragment.texcoord[0], 2D;\nEND", 2, 41, "expected 'texture'" },
    { FP "TEMP t;\nKIL t.xy;\nEND", 3, 7, "invalid swizzle" },
};

START_TEST(semantic_errors)
{
    const struct fail_case *f = &fail_cases[_i];
    asm_fail(f->src, f->line, f->col, f->msg);
}
END_TEST

START_TEST(nul_byte)
{
    static const char src[] = "!!ARBvp1.0\nTEMP a;\0\nEND\n";
    asm_fail_len(src, sizeof src - 1, 2, 8, "unexpected byte 0x00");
    /* a NUL inside a comment is just part of the comment */
    static const char ok[] = "!!ARBvp1.0\n# \0 x\nEND\n";
    struct us_program p;
    struct us_diag d;
    ck_assert(us_assemble(ok, sizeof ok - 1, US_STAGE_ANY, &p, &d));
    us_program_free(&p);
    /* the length bounds the text: END past it does not count */
    asm_fail_len("!!ARBvp1.0\nEND", 12, 2, 1, "unknown instruction 'E'");
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Limits                                                                  */

/* A growable string for generated programs. */
struct buf {
    char *s;
    size_t len, cap;
};

static void put(struct buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void put(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if ((size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return;
        }
        b->cap = b->cap * 2 + (size_t)n + 64;
        b->s = realloc(b->s, b->cap);
        ck_assert_ptr_nonnull(b->s);
    }
}

START_TEST(temp_limit)
{
    struct buf b = { 0 };
    put(&b, "!!ARBvp1.0\n");
    for (int i = 0; i < US_MAX_TEMPS; i++)
        put(&b, "TEMP t%d;\n", i);
    put(&b, "END\n");
    struct us_program p = asm_ok(b.s);
    ck_assert_uint_eq(p.ntemps, US_MAX_TEMPS);
    us_program_free(&p);
    b.len -= 4;
    put(&b, "TEMP one_more;\nEND\n");
    asm_fail(b.s, 2 + US_MAX_TEMPS, 6, "too many TEMP registers (limit 256)");

    /* A fog option keeps one temporary for itself (3.11.4.5.1). */
    b.len = 0;
    put(&b, "!!ARBfp1.0\nOPTION ARB_fog_linear;\n");
    for (int i = 0; i < US_MAX_TEMPS; i++)
        put(&b, "TEMP t%d;\n", i);
    put(&b, "END\n");
    asm_fail(b.s, 3 + US_MAX_TEMPS - 1, 6, "limit 255");
    free(b.s);
}
END_TEST

/* Equal in-place literals share one slot; other in-place bindings and
 * declared constants do not. */
START_TEST(literal_sharing)
{
    struct us_program p = asm_ok(
        "!!ARBvp1.0\nTEMP a;\nPARAM c = 0.5;\nMOV a, 0.5;\nADD a, a, {0.5, 0.5, 0.5, 0.5};\n"
        "MUL a, a, 0.25;\nADD a, a, program.env[1];\nADD a, a, program.env[1];\nEND\n");
    ck_assert_uint_eq(p.nparams, 5);  /* c, 0.5, 0.25, env[1] twice */
    ck_assert_uint_eq(p.insts[0].src[0].index, 1);
    ck_assert_uint_eq(p.insts[1].src[1].index, 1);
    ck_assert_uint_eq(p.insts[2].src[1].index, 2);
    ck_assert_uint_ne(p.insts[3].src[1].index, p.insts[4].src[1].index);
    us_program_free(&p);
}
END_TEST

START_TEST(param_limit)
{
    struct buf b = { 0 };
    put(&b, "!!ARBvp1.0\nPARAM big[] = { program.env[0..255], program.env[0..255],"
            " program.local[0..255], program.local[0..255] };\n");
    put(&b, "TEMP t;\nMOV t, 1;\nEND\n");
    asm_fail(b.s, 4, 8, "too many program parameters (limit 1024)");
    free(b.s);
    struct us_program p = asm_ok(
        "!!ARBvp1.0\nPARAM big[] = { program.env[0..255], program.env[0..255],"
        " program.local[0..255], program.local[0..255] };\nEND\n");
    ck_assert_uint_eq(p.nparams, US_MAX_PARAMS);
    ck_assert_int_eq(p.decls[0].size, US_MAX_PARAMS);
    us_program_free(&p);
}
END_TEST

START_TEST(instruction_limit)
{
    struct buf b = { 0 };
    put(&b, "!!ARBvp1.0\nTEMP t;\n");
    for (int i = 0; i < US_MAX_INSTRUCTIONS; i++)
        put(&b, "ADD t, t, t;\n");
    put(&b, "END\n");
    struct us_program p = asm_ok(b.s);
    ck_assert_uint_eq(p.ninsts, US_MAX_INSTRUCTIONS);
    us_program_free(&p);
    b.len -= 4;
    put(&b, "MOV t, t;\nEND\n");
    asm_fail(b.s, 3 + US_MAX_INSTRUCTIONS, 1, "too many instructions (limit 4096)");

    /* ARB_position_invariant takes four instructions (2.14.4.5.1). */
    b.len = 0;
    put(&b, "!!ARBvp1.0\nOPTION ARB_position_invariant;\nTEMP t;\n");
    for (int i = 0; i < US_MAX_INSTRUCTIONS - 3; i++)
        put(&b, "ADD t, t, t;\n");
    put(&b, "END\n");
    asm_fail(b.s, 4 + US_MAX_INSTRUCTIONS - 4, 1, "limit 4092");
    free(b.s);
}
END_TEST

START_TEST(huge_integers)
{
    asm_fail("!!ARBvp1.0\nTEMP a;\nMOV a, vertex.attrib[99999999999999999999999];\nEND",
             3, 22, "out of range");
    asm_fail("!!ARBvp1.0\nPARAM p[99999999999999999999] = { 1 };\nEND", 2, 9,
             "array size must be");
    /* long but valid constants */
    struct buf b = { 0 };
    put(&b, "!!ARBvp1.0\nPARAM p = 0.");
    for (int i = 0; i < 4999; i++)
        put(&b, "0");
    put(&b, "1e5000;\nEND\n");
    struct us_program p = asm_ok(b.s);
    ck_assert(p.params[0].value[0] == 1.0f);
    us_program_free(&p);
    free(b.s);
    /* tiny constants round to the nearest binary32 (here 0) */
    p = asm_ok("!!ARBvp1.0\nPARAM p = 1e-60;\nEND\n");
    ck_assert(p.params[0].value[0] == 0.0f);
    us_program_free(&p);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Round trip through the disassembler and robustness                      */

static const char *const samples[] = {
    "!!ARBvp1.0\n"
    "OPTION ARB_position_invariant;\n"
    "ATTRIB iPos = vertex.position;\n"
    "PARAM mvp[4] = { state.matrix.mvp };\n"
    "PARAM arr[] = { program.env[0..3], {1, -2, 3.5}, 0.25 };\n"
    "ADDRESS A0;\n"
    "TEMP t, u;\n"
    "ALIAS v = u;\n"
    "DP4 t.x, mvp[0], iPos;\n"
    "ARL A0.x, t.x;\n"
    "MAD u, -arr[A0.x + 2].wzyx, state.light[1].half, {0.5}.x;\n"
    "SWZ v.xyw, vertex.attrib[7], -1, 0, z, -y;\n"
    "EXP t, -v.y;\n"
    "POW result.color.back.secondary, t.x, u.y;\n"
    "MOV result.texcoord[3], state.texgen[2].object.r;\n"
    "END\n",
    "!!ARBfp1.0\n"
    "OPTION ARB_fragment_program_shadow;\n"
    "OPTION ARB_fog_exp2;\n"
    "TEMP c, d;\n"
    "PARAM k = {0.299, 0.587, 0.114, 1e-3};\n"
    "OUTPUT oc = result.color;\n"
    "TEX c, fragment.texcoord[1], texture[3], SHADOWRECT;\n"
    "TXP_SAT d.rb, c.abgr, texture, 2D;\n"
    "CMP d, -c, d, state.texenv[2].color;\n"
    "SCS_SAT c.xy, c.w;\n"
    "KIL -fragment.color.secondary.x;\n"
    "DP3 oc.rgb, c, k;\n"
    "MOV result.depth.z, state.depth.range.y;\n"
    "SWZ_SAT oc.a, d, 1, g, -b, 0;\n"
    "END\n",
};

START_TEST(disassembler_round_trip)
{
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        struct us_program a = asm_ok(samples[i]);
        char *text = us_disassemble(&a);
        ck_assert_ptr_nonnull(text);
        struct us_program b = asm_ok(text);
        ck_assert_msg(us_program_equal(&a, &b), "round trip differs:\n%s", text);
        free(text);
        us_program_free(&a);
        us_program_free(&b);
    }
}
END_TEST

/* xorshift32: deterministic, no global state */
static uint32_t rnd(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

/* Mutated programs must come back (accepted or rejected) without crashing,
 * with an empty output on failure and in-range indices on success. */
START_TEST(random_mutations)
{
    static const char tokens[][12] = { ";", ",", ".", "[", "]", "{", "}", "-",
        "+", "..", "=", "x", "A0", "0", "1", "65", "1e", "END", "TEMP ",
        "PARAM ", "state.", "program.env", "vertex.", "result.", "#", "\n",
        "\r", "\0", "\xff", "texture[", "2D", " " };
    uint32_t seed = 0x12345678u;
    char buf[2048];
    unsigned accepted = 0;
    for (int iter = 0; iter < 4000; iter++) {
        const char *base = samples[iter % 2];
        size_t len = strlen(base);
        memcpy(buf, base, len);
        int edits = 1 + (int)(rnd(&seed) % 4);
        for (int e = 0; e < edits; e++) {
            size_t at = rnd(&seed) % (len + 1);
            uint32_t kind = rnd(&seed) % 4;
            if (kind == 0 && len > 0 && at < len) {           /* delete */
                size_t n = 1 + rnd(&seed) % 8;
                if (n > len - at)
                    n = len - at;
                memmove(buf + at, buf + at + n, len - at - n);
                len -= n;
            } else if (kind == 1 && at < len) {                /* random byte */
                buf[at] = (char)(rnd(&seed) & 0xff);
            } else {                                           /* insert token */
                const char *t = tokens[rnd(&seed) % (sizeof tokens / sizeof tokens[0])];
                size_t n = t[0] ? strlen(t) : 1;
                if (len + n >= sizeof buf)
                    continue;
                memmove(buf + at + n, buf + at, len - at);
                memcpy(buf + at, t, n);
                len += n;
            }
        }
        struct us_program p;
        struct us_diag d;
        if (us_assemble(buf, len, US_STAGE_ANY, &p, &d)) {
            accepted++;
            for (unsigned i = 0; i < p.ninsts; i++) {
                const struct us_inst *in = &p.insts[i];
                ck_assert_int_lt(in->op, US_OP_COUNT);
                for (int s = 0; s < us_ops[in->op].nsrc; s++)
                    if (in->src[s].file == US_FILE_PARAM)
                        ck_assert_uint_lt(in->src[s].index, p.nparams);
            }
            us_program_free(&p);
        } else {
            ck_assert_ptr_null(p.insts);
            ck_assert_ptr_null(p.params);
            ck_assert_ptr_null(p.decls);
            ck_assert_uint_ge(d.line, 1);
            ck_assert(d.msg[0] != '\0');
        }
    }
    ck_assert_uint_gt(accepted, 0);
}
END_TEST

/* Pure random bytes after a valid header. */
START_TEST(random_bytes)
{
    uint32_t seed = 0x9e3779b9u;
    char buf[512];
    memcpy(buf, "!!ARBfp1.0", 10);
    for (int iter = 0; iter < 2000; iter++) {
        size_t len = 10 + rnd(&seed) % (sizeof buf - 10);
        for (size_t i = 10; i < len; i++)
            buf[i] = (char)(rnd(&seed) & 0xff);
        if (iter & 1)
            buf[3] = 'v';
        struct us_program p;
        struct us_diag d;
        if (us_assemble(buf, len, US_STAGE_ANY, &p, &d))
            us_program_free(&p);
        buf[3] = 'f';
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("asm");
    TCase *tc = tcase_create("asm");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, every_vertex_instruction);
    tcase_add_test(tc, every_fragment_instruction);
    tcase_add_test(tc, texture_targets);
    tcase_add_test(tc, declarations_and_params);
    tcase_add_test(tc, literal_forms);
    tcase_add_test(tc, relative_addressing);
    tcase_add_test(tc, vertex_bindings);
    tcase_add_test(tc, fragment_bindings);
    tcase_add_test(tc, state_bindings);
    tcase_add_test(tc, matrix_ranges);
    tcase_add_test(tc, options);
    tcase_add_test(tc, lexical_details);
    tcase_add_test(tc, crlf_matches_lf);
    tcase_add_test(tc, stage_selection);
    tcase_add_test(tc, derivative_instructions);
    tcase_add_loop_test(tc, semantic_errors, 0,
                        (int)(sizeof fail_cases / sizeof fail_cases[0]));
    tcase_add_test(tc, nul_byte);
    tcase_add_test(tc, temp_limit);
    tcase_add_test(tc, param_limit);
    tcase_add_test(tc, literal_sharing);
    tcase_add_test(tc, instruction_limit);
    tcase_add_test(tc, huge_integers);
    tcase_add_test(tc, disassembler_round_trip);
    tcase_add_test(tc, random_mutations);
    tcase_add_test(tc, random_bytes);
    suite_add_tcase(s, tc);
    return s;
}
