/*
 * Disassembler: vec4 IR -> canonical ARB_vertex_program /
 * ARB_fragment_program 1.0 text.
 *
 * The text reassembles (us_assemble) into a program us_program_equal to the
 * input, and printing that program again gives the same bytes.  Canonical
 * choices:
 *   - one declaration per line, every binding spelled in full (explicit
 *     ".front", "texgen[0]", all four literal components);
 *   - declarations are placed just early enough that parameter slots come
 *     out numbered as in the IR (the assembler numbers slots in text order,
 *     PARAM declarations and in-place operands alike);
 *   - swizzles: none for .xyzw, ".x" when all four selectors agree (the
 *     scalar form SCL and ARL operands need), else four letters.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ushader.h"

/* A growing text buffer; `oom` sticks once an allocation fails. */
struct out {
    char *buf;
    size_t len, cap;
    bool oom;
};

static void put(struct out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
    if (o->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            o->oom = true;
            return;
        }
        if ((size_t)n < o->cap - o->len) {
            o->len += (size_t)n;
            return;
        }
        size_t cap = o->cap * 2 + (size_t)n + 1;
        char *buf = realloc(o->buf, cap);
        if (!buf) {
            o->oom = true;
            return;
        }
        o->buf = buf;
        o->cap = cap;
    }
}

static const char comp_letter[] = "xyzw01";

static const char *const option_names[] = {
    "ARB_position_invariant",       /* US_OPT_POSITION_INVARIANT     */
    "ARB_precision_hint_fastest",   /* US_OPT_PRECISION_FASTEST      */
    "ARB_precision_hint_nicest",    /* US_OPT_PRECISION_NICEST       */
    "ARB_fog_exp",                  /* US_OPT_FOG_EXP                */
    "ARB_fog_exp2",                 /* US_OPT_FOG_EXP2               */
    "ARB_fog_linear",               /* US_OPT_FOG_LINEAR             */
    "ARB_fragment_program_shadow",  /* US_OPT_FRAGMENT_SHADOW        */
    "ARB_fragment_coord_origin_upper_left",    /* ORIGIN_UPPER_LEFT    */
    "ARB_fragment_coord_pixel_center_integer", /* PIXEL_CENTER_INTEGER */
};

static const char *const target_names[US_TEX_TARGET_COUNT] = {
    "1D", "2D", "3D", "CUBE", "RECT", "SHADOW1D", "SHADOW2D", "SHADOWRECT",
};

static const char *const face_names[] = { "front", "back" };

static const char *const prop_names[US_PROP_COUNT] = {
    "ambient", "diffuse", "specular", "emission", "shininess", "position",
    "attenuation", "spot.direction", "half",
};

static const char *const matrix_names[US_MATRIX_COUNT] = {
    "modelview", "projection", "mvp", "texture", "palette", "program",
};

static const char *const modifier_names[] = {
    "", ".inverse", ".transpose", ".invtrans",
};

/* Table entry `i`, or NULL when `i` is past the end: hand-built IR may hold
 * anything, and the printer must not read outside its tables. */
#define NAME(table, i) \
    ((size_t)(i) < sizeof(table) / sizeof(table[0]) ? (table)[i] : NULL)

static const char *nz(const char *s)
{
    return s ? s : "<invalid>";
}

/*
 * A binary32 value as an ARB <floatConstant>, with an optional leading '-'.
 * %.9g round-trips every finite binary32 value (9 significant digits).
 * ARB has no spelling for infinity or NaN: infinity prints as +-1e+39,
 * which any binary32 conversion rounds to infinity, and NaN prints as 0
 * (no assembler output holds NaN, so only hand-built IR loses it).
 */
static void put_float(struct out *o, float v)
{
    if (v != v)
        put(o, "0");
    else if (v > 3.40282347e38f || v < -3.40282347e38f)
        put(o, "%s1e+39", v < 0 ? "-" : "");
    else
        put(o, "%.9g", (double)v);
}

/* state.* text of one vec4 (ARB_vertex_program section 2.14.3.2,
 * ARB_fragment_program section 3.11.3.2). */
static void put_state(struct out *o, struct us_state_ref s)
{
    switch (s.item) {
    case US_STATE_MATERIAL:
        put(o, "state.material.%s.%s", nz(NAME(face_names, s.a)),
            nz(NAME(prop_names, s.b)));
        break;
    case US_STATE_LIGHT:
        put(o, "state.light[%u].%s", s.a, nz(NAME(prop_names, s.b)));
        break;
    case US_STATE_LIGHTMODEL_AMBIENT:
        put(o, "state.lightmodel.ambient");
        break;
    case US_STATE_LIGHTMODEL_SCENECOLOR:
        put(o, "state.lightmodel.%s.scenecolor", nz(NAME(face_names, s.a)));
        break;
    case US_STATE_LIGHTPROD:
        put(o, "state.lightprod[%u].%s.%s", s.a, nz(NAME(face_names, s.b)),
            nz(NAME(prop_names, s.c)));
        break;
    case US_STATE_TEXGEN:
        put(o, "state.texgen[%u].%s.%c", s.a, s.b ? "object" : "eye",
            s.c < 4 ? "strq"[s.c] : '?');
        break;
    case US_STATE_FOG_COLOR:
        put(o, "state.fog.color");
        break;
    case US_STATE_FOG_PARAMS:
        put(o, "state.fog.params");
        break;
    case US_STATE_CLIP_PLANE:
        put(o, "state.clip[%u].plane", s.a);
        break;
    case US_STATE_POINT_SIZE:
        put(o, "state.point.size");
        break;
    case US_STATE_POINT_ATTENUATION:
        put(o, "state.point.attenuation");
        break;
    case US_STATE_MATRIX_ROW:
        put(o, "state.matrix.%s", nz(NAME(matrix_names, s.a)));
        /* modelview[n] needs ARB_vertex_blend for n > 0; matrix 0 prints
         * without an index so the text needs no extension. */
        if (s.a == US_MATRIX_TEXTURE || s.a == US_MATRIX_PALETTE ||
            s.a == US_MATRIX_PROGRAM ||
            (s.a == US_MATRIX_MODELVIEW && s.b != 0))
            put(o, "[%u]", s.b);
        put(o, "%s.row[%u]", nz(NAME(modifier_names, s.c)), s.d);
        break;
    case US_STATE_TEXENV_COLOR:
        put(o, "state.texenv[%u].color", s.a);
        break;
    case US_STATE_DEPTH_RANGE:
        put(o, "state.depth.range");
        break;
    default:
        put(o, "state.<invalid>");
        break;
    }
}

/* One parameter slot's binding, as it would appear after "PARAM p =". */
static void put_binding(struct out *o, const struct us_param *p)
{
    switch (p->kind) {
    case US_PARAM_CONST:
        put(o, "{");
        for (int c = 0; c < 4; c++) {
            put(o, c ? ", " : "");
            put_float(o, p->value[c]);
        }
        put(o, "}");
        break;
    case US_PARAM_ENV:
        put(o, "program.env[%u]", p->index);
        break;
    case US_PARAM_LOCAL:
        put(o, "program.local[%u]", p->index);
        break;
    case US_PARAM_STATE:
        put_state(o, p->state);
        break;
    default:
        put(o, "<invalid>");
        break;
    }
}

static const struct us_decl *find_decl(const struct us_program *prog,
                                       enum us_decl_kind kind, unsigned base)
{
    for (unsigned i = 0; i < prog->ndecls; i++)
        if (prog->decls[i].kind == kind && prog->decls[i].base == base)
            return &prog->decls[i];
    return NULL;
}

static void put_decl(struct out *o, const struct us_program *prog,
                     const struct us_decl *d)
{
    switch (d->kind) {
    case US_DECL_TEMP:
        put(o, "TEMP %s;\n", d->name);
        break;
    case US_DECL_ADDRESS:
        put(o, "ADDRESS %s;\n", d->name);
        break;
    case US_DECL_ATTRIB:
        put(o, "ATTRIB %s = %s;\n", d->name,
            nz(us_input_name(prog->stage, d->base)));
        break;
    case US_DECL_OUTPUT:
        put(o, "OUTPUT %s = %s;\n", d->name,
            nz(us_output_name(prog->stage, d->base)));
        break;
    case US_DECL_PARAM:
        if (!d->array) {
            put(o, "PARAM %s = ", d->name);
            if (d->base < prog->nparams)
                put_binding(o, &prog->params[d->base]);
            put(o, ";\n");
            break;
        }
        put(o, "PARAM %s[%u] = {", d->name, d->size);
        for (unsigned i = 0; i < d->size; i++) {
            put(o, i ? ", " : " ");
            if (d->base + i < prog->nparams)
                put_binding(o, &prog->params[d->base + i]);
        }
        put(o, " };\n");
        break;
    default:
        put(o, "# <invalid declaration %s>\n", d->name);
        break;
    }
}

/* The register part of an operand: a name, a binding or an array element. */
static void put_reg(struct out *o, const struct us_program *prog,
                    const struct us_src *s)
{
    const struct us_decl *d;
    switch (s->file) {
    case US_FILE_TEMP:
        d = find_decl(prog, US_DECL_TEMP, s->index);
        put(o, "%s", d ? d->name : "<invalid>");
        return;
    case US_FILE_INPUT:
        d = find_decl(prog, US_DECL_ATTRIB, s->index);
        put(o, "%s", d ? d->name : nz(us_input_name(prog->stage, s->index)));
        return;
    case US_FILE_OUTPUT:
        d = find_decl(prog, US_DECL_OUTPUT, s->index);
        put(o, "%s", d ? d->name : nz(us_output_name(prog->stage, s->index)));
        return;
    case US_FILE_PARAM:
        break;
    default:
        put(o, "<invalid>");
        return;
    }
    if (s->rel) {
        d = find_decl(prog, US_DECL_PARAM, s->index);
        const struct us_decl *a = find_decl(prog, US_DECL_ADDRESS,
                                            s->rel_addr);
        put(o, "%s[%s.x", d ? d->name : "<invalid>", a ? a->name : "<invalid>");
        if (s->rel_offset > 0)
            put(o, " + %d", s->rel_offset);
        else if (s->rel_offset < 0)
            put(o, " - %d", -s->rel_offset);
        put(o, "]");
        return;
    }
    if (s->index >= prog->nparams) {
        put(o, "<invalid>");
        return;
    }
    const struct us_param *p = &prog->params[s->index];
    if (p->decl < 0 || (unsigned)p->decl >= prog->ndecls) {
        put_binding(o, p);
        return;
    }
    d = &prog->decls[p->decl];
    if (d->array)
        put(o, "%s[%u]", d->name, s->index - d->base);
    else
        put(o, "%s", d->name);
}

static bool is_identity(const uint8_t swz[4])
{
    return swz[0] == US_SWZ_X && swz[1] == US_SWZ_Y && swz[2] == US_SWZ_Z &&
           swz[3] == US_SWZ_W;
}

static char letter(uint8_t sel)
{
    return sel < sizeof comp_letter - 1 ? comp_letter[sel] : '?';
}

/* A swizzled source: [-]reg[.swizzle]. */
static void put_src(struct out *o, const struct us_program *prog,
                    const struct us_src *s)
{
    if (s->negate)
        put(o, "-");
    put_reg(o, prog, s);
    if (is_identity(s->swz))
        return;
    if (s->swz[0] == s->swz[1] && s->swz[0] == s->swz[2] &&
        s->swz[0] == s->swz[3])
        put(o, ".%c", letter(s->swz[0]));
    else
        put(o, ".%c%c%c%c", letter(s->swz[0]), letter(s->swz[1]),
            letter(s->swz[2]), letter(s->swz[3]));
}

static void put_dst(struct out *o, const struct us_program *prog,
                    const struct us_dst *d)
{
    const struct us_decl *decl;
    switch (d->file) {
    case US_FILE_TEMP:
        decl = find_decl(prog, US_DECL_TEMP, d->index);
        put(o, "%s", decl ? decl->name : "<invalid>");
        break;
    case US_FILE_OUTPUT:
        decl = find_decl(prog, US_DECL_OUTPUT, d->index);
        put(o, "%s", decl ? decl->name
                          : nz(us_output_name(prog->stage, d->index)));
        break;
    case US_FILE_ADDRESS:
        decl = find_decl(prog, US_DECL_ADDRESS, d->index);
        put(o, "%s", decl ? decl->name : "<invalid>");
        break;
    default:
        put(o, "<invalid>");
        break;
    }
    if ((d->mask & 0xF) != 0xF) {
        put(o, ".");
        for (int c = 0; c < 4; c++)
            if (d->mask & (1u << c))
                put(o, "%c", comp_letter[c]);
    }
}

static void put_inst(struct out *o, const struct us_program *prog,
                     const struct us_inst *in)
{
    if (in->op >= US_OP_COUNT) {
        put(o, "# <invalid opcode %u>\n", in->op);
        return;
    }
    const struct us_opinfo *info = &us_ops[in->op];
    put(o, "%s%s", info->name, in->sat ? "_SAT" : "");
    if (info->format == US_FMT_KIL) {
        put(o, " ");
        put_src(o, prog, &in->src[0]);
        put(o, ";\n");
        return;
    }
    put(o, " ");
    put_dst(o, prog, &in->dst);
    if (info->format == US_FMT_SWZ) {
        /* SWZ dst, reg, c0, c1, c2, c3: signs live in the components. */
        const struct us_src *s = &in->src[0];
        put(o, ", ");
        put_reg(o, prog, s);
        for (int c = 0; c < 4; c++)
            put(o, ", %s%c", s->negate & (1u << c) ? "-" : "",
                letter(s->swz[c]));
        put(o, ";\n");
        return;
    }
    for (int i = 0; i < info->nsrc; i++) {
        put(o, ", ");
        put_src(o, prog, &in->src[i]);
    }
    if (info->format == US_FMT_TEX)
        put(o, ", texture[%u], %s", in->tex_unit,
            nz(NAME(target_names, in->tex_target)));
    put(o, ";\n");
}

/*
 * first[i] = the lowest in-place parameter slot that instruction i is the
 * first to reference (UINT32_MAX if none), turned into a suffix minimum:
 * a PARAM declaration whose slots lie below first[i] must be printed before
 * instruction i, and may be (nothing in the program needs it later).
 */
static uint32_t *inplace_limits(const struct us_program *prog)
{
    uint32_t *first = malloc((prog->ninsts + 1) * sizeof *first);
    uint8_t *seen = calloc(prog->nparams + 1, 1);
    if (!first || !seen) {
        free(first);
        free(seen);
        return NULL;
    }
    for (unsigned i = 0; i < prog->ninsts; i++) {
        const struct us_inst *in = &prog->insts[i];
        first[i] = UINT32_MAX;
        if (in->op >= US_OP_COUNT)
            continue;
        for (int k = 0; k < us_ops[in->op].nsrc; k++) {
            const struct us_src *s = &in->src[k];
            if (s->file != US_FILE_PARAM || s->rel || s->index >= prog->nparams ||
                prog->params[s->index].decl >= 0 || seen[s->index])
                continue;
            seen[s->index] = 1;
            if (s->index < first[i])
                first[i] = s->index;
        }
    }
    first[prog->ninsts] = UINT32_MAX;
    for (unsigned i = prog->ninsts; i-- > 0;)
        if (first[i + 1] < first[i])
            first[i] = first[i + 1];
    free(seen);
    return first;
}

char *us_disassemble(const struct us_program *prog)
{
    struct out o = { .cap = 1024 };
    o.buf = malloc(o.cap);
    uint32_t *limit = inplace_limits(prog);
    if (!o.buf || !limit) {
        free(o.buf);
        free(limit);
        return NULL;
    }

    put(&o, "%s\n", prog->stage == US_STAGE_VERTEX ? "!!ARBvp1.0"
                                                    : "!!ARBfp1.0");
    for (size_t b = 0; b < sizeof option_names / sizeof option_names[0]; b++)
        if (prog->options & (1u << b))
            put(&o, "OPTION %s;\n", option_names[b]);

    unsigned d = 0;
    for (unsigned i = 0; i <= prog->ninsts; i++) {
        while (d < prog->ndecls &&
               (prog->decls[d].kind != US_DECL_PARAM ||
                prog->decls[d].base < limit[i])) {
            put_decl(&o, prog, &prog->decls[d]);
            d++;
        }
        if (i < prog->ninsts)
            put_inst(&o, prog, &prog->insts[i]);
    }
    put(&o, "END\n");

    free(limit);
    if (o.oom) {
        free(o.buf);
        return NULL;
    }
    return o.buf;
}
