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
 *
 * IR built by program (random tests, translators) may lack declarations.
 * The printer then invents them, so the text still assembles: TEMP Rn and
 * ADDRESS An for undeclared registers, and PARAM Cn[size] for an
 * undeclared array read with relative addressing (n = first slot).  Such
 * text reassembles into the same computation, though not into an
 * us_program_equal program (registers and slots are renumbered).
 * What ARB cannot spell at all prints as close as it gets: a partial
 * negation outside SWZ as "-" (any nonzero mask), infinity and NaN literals
 * as described at put_float, and malformed IR (an unknown register file, an
 * index past every table) as "<invalid>" so the listing still shows it.
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
    "USHADER_extensions",                      /* USHADER_EXTENSIONS */
    "USHADER_word16",                          /* WORD16             */
    "USHADER_word8",                           /* WORD8              */
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
 * ARB has no spelling for infinity or NaN, and no assembler output holds
 * them, so only hand-built IR can: the text stays valid ARB by printing
 * infinity as the largest finite value of its sign and NaN as 0.
 */
/* An integer instruction's constant: decimal, or hex when large. */
static void put_int(struct out *o, float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    put(o, u < 65536 ? "%u" : "0x%x", u);
}

static void put_float(struct out *o, float v)
{
    if (v != v)
        put(o, "0");
    else if (v > 3.40282347e38f || v < -3.40282347e38f)
        put(o, "%s3.40282347e+38", v < 0 ? "-" : "");
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

/* One parameter slot's binding, as it would appear after "PARAM p =";
 * `ints`: in an integer instruction, whose constants are integers. */
static void put_binding(struct out *o, const struct us_param *p, bool ints)
{
    switch (p->kind) {
    case US_PARAM_CONST:
        put(o, "{");
        for (int c = 0; c < 4; c++) {
            put(o, c ? ", " : "");
            (ints ? put_int : put_float)(o, p->value[c]);
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
    case US_PARAM_PRE:
        put(o, "program.pre[%u]", p->index);
        break;
    default:
        put(o, "<invalid>");
        break;
    }
}

/* The printer's state: the program, its text, and the declarations it
 * invents for registers and arrays the program does not declare. */
struct dis {
    const struct us_program *prog;
    struct out o;
    struct us_decl *extra;      /* invented declarations               */
    unsigned nextra;
    int *slot_extra;            /* per param slot: invented array, or -1 */
    unsigned nprinted;          /* prog->decls printed so far            */
    bool ints;                  /* printing an integer instruction's
                                   sources                               */
    bool in_pre;                /* printing the preshader: its TEMPs are
                                   program.pre[n]                        */
};

/* Instruction j of the text: the preshader's, then the program's. */
static const struct us_inst *seq_inst(const struct us_program *prog,
                                      unsigned j)
{
    return j < prog->npre ? &prog->pre[j] : &prog->insts[j - prog->npre];
}

static const struct us_decl *find_in(const struct us_decl *d, unsigned n,
                                     enum us_decl_kind kind, unsigned base)
{
    for (unsigned i = 0; i < n; i++)
        if (d[i].kind == kind && d[i].base == base)
            return &d[i];
    return NULL;
}

static const struct us_decl *find_decl(const struct dis *x,
                                       enum us_decl_kind kind, unsigned base)
{
    const struct us_decl *d = find_in(x->prog->decls, x->prog->ndecls, kind,
                                      base);
    return d ? d : find_in(x->extra, x->nextra, kind, base);
}

/* An ATTRIB or OUTPUT name usable at this point of the text: source may
 * spell a binding before declaring a name for it, and a declaration can
 * print late (after a PARAM that waits for in-place slots), so an operand
 * whose declaration is not printed yet spells its binding instead. */
static const struct us_decl *find_printed(const struct dis *x,
                                          enum us_decl_kind kind,
                                          unsigned base)
{
    return find_in(x->prog->decls, x->nprinted, kind, base);
}

static bool name_taken(const struct dis *x, const char *name)
{
    for (unsigned i = 0; i < x->prog->ndecls; i++)
        if (!strcmp(x->prog->decls[i].name, name))
            return true;
    for (unsigned i = 0; i < x->nextra; i++)
        if (!strcmp(x->extra[i].name, name))
            return true;
    return false;
}

/* Invent a declaration `prefix``base` (with leading '_' until the name is
 * free) unless one of that kind and base exists; returns its index in
 * x->extra, or -1 when a program declaration already covers it. */
static int invent(struct dis *x, const char *prefix, enum us_decl_kind kind,
                  unsigned base, unsigned size)
{
    if (find_in(x->prog->decls, x->prog->ndecls, kind, base))
        return -1;
    for (unsigned i = 0; i < x->nextra; i++)
        if (x->extra[i].kind == kind && x->extra[i].base == base)
            return (int)i;
    struct us_decl *d = &x->extra[x->nextra];
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "%s%u", prefix, base);
    while (name_taken(x, d->name) && strlen(d->name) + 1 < sizeof d->name) {
        memmove(d->name + 1, d->name, strlen(d->name) + 1);
        d->name[0] = '_';
    }
    d->kind = (uint8_t)kind;
    d->base = (uint16_t)base;
    d->size = (uint16_t)size;
    d->array = kind == US_DECL_PARAM;
    return (int)x->nextra++;
}

/* PARAM Cn[size] for an undeclared array that `s` reads relatively. */
static void invent_array(struct dis *x, const struct us_src *s)
{
    const struct us_program *prog = x->prog;
    if (s->file != US_FILE_PARAM || !s->rel || s->index >= prog->nparams)
        return;
    unsigned size = s->rel_size;
    if (size == 0 || size > prog->nparams - s->index)
        size = prog->nparams - s->index;
    int e = invent(x, "C", US_DECL_PARAM, s->index, size);
    if (e < 0)
        return;
    for (unsigned i = s->index; i < s->index + x->extra[e].size; i++)
        if (x->slot_extra[i] < 0 && prog->params[i].decl < 0)
            x->slot_extra[i] = e;
}

/* Declarations for whatever the instructions use undeclared: temps in
 * index order, then address registers, then relatively read arrays. */
static void invent_decls(struct dis *x)
{
    const struct us_program *prog = x->prog;
    bool temp[US_MAX_TEMPS] = { false }, addr[US_MAX_ADDRESS] = { false };
    for (unsigned i = 0; i < prog->ninsts; i++) {
        const struct us_inst *in = &prog->insts[i];
        if (in->op >= US_OP_COUNT)
            continue;
        if (in->dst.file == US_FILE_TEMP && in->dst.index < US_MAX_TEMPS)
            temp[in->dst.index] = true;
        if (in->dst.file == US_FILE_ADDRESS && in->dst.index < US_MAX_ADDRESS)
            addr[in->dst.index] = true;
        for (int k = 0; k < us_ops[in->op].nsrc; k++) {
            const struct us_src *s = &in->src[k];
            if (s->file == US_FILE_TEMP && s->index < US_MAX_TEMPS)
                temp[s->index] = true;
            if (s->file == US_FILE_PARAM && s->rel &&
                s->rel_addr < US_MAX_ADDRESS)
                addr[s->rel_addr] = true;
        }
    }
    for (unsigned i = 0; i < US_MAX_TEMPS; i++)
        if (temp[i])
            invent(x, "R", US_DECL_TEMP, i, 1);
    for (unsigned i = 0; i < US_MAX_ADDRESS; i++)
        if (addr[i])
            invent(x, "A", US_DECL_ADDRESS, i, 1);
    for (unsigned i = 0; i < prog->ninsts; i++) {
        const struct us_inst *in = &prog->insts[i];
        for (int k = 0; in->op < US_OP_COUNT && k < us_ops[in->op].nsrc; k++)
            invent_array(x, &in->src[k]);
    }
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
                put_binding(o, &prog->params[d->base], false);
            put(o, ";\n");
            break;
        }
        put(o, "PARAM %s[%u] = {", d->name, d->size);
        for (unsigned i = 0; i < d->size; i++) {
            put(o, i ? ", " : " ");
            if (d->base + i < prog->nparams)
                put_binding(o, &prog->params[d->base + i], false);
        }
        put(o, " };\n");
        break;
    default:
        put(o, "# <invalid declaration %s>\n", d->name);
        break;
    }
}

/* The register part of an operand: a name, a binding or an array element. */
static void put_reg(struct out *o, const struct dis *x,
                    const struct us_src *s)
{
    const struct us_program *prog = x->prog;
    const struct us_decl *d;
    switch (s->file) {
    case US_FILE_TEMP:
        if (x->in_pre) {
            put(o, "program.pre[%u]", s->index);
            return;
        }
        d = find_decl(x, US_DECL_TEMP, s->index);
        put(o, "%s", d ? d->name : "<invalid>");
        return;
    case US_FILE_INPUT:
        d = find_printed(x, US_DECL_ATTRIB, s->index);
        put(o, "%s", d ? d->name : nz(us_input_name(prog->stage, s->index)));
        return;
    case US_FILE_OUTPUT:
        d = find_printed(x, US_DECL_OUTPUT, s->index);
        put(o, "%s", d ? d->name : nz(us_output_name(prog->stage, s->index)));
        return;
    case US_FILE_PARAM:
        break;
    default:
        put(o, "<invalid>");
        return;
    }
    if (s->rel) {
        d = find_decl(x, US_DECL_PARAM, s->index);
        const struct us_decl *a = find_decl(x, US_DECL_ADDRESS,
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
    if (p->decl >= 0 && (unsigned)p->decl < prog->ndecls)
        d = &prog->decls[p->decl];
    else if (x->slot_extra[s->index] >= 0)
        d = &x->extra[x->slot_extra[s->index]];
    else {
        put_binding(o, p, x->ints);
        return;
    }
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

/* A swizzled source: [-]reg[.swizzle].  The ARB grammar negates whole
 * operands only, so any nonzero mask prints as "-" (assembled programs only
 * hold 0 and 0xF outside SWZ). */
static void put_src(struct out *o, const struct dis *x,
                    const struct us_src *s)
{
    if (s->negate)
        put(o, "-");
    put_reg(o, x, s);
    if (is_identity(s->swz))
        return;
    if (s->swz[0] == s->swz[1] && s->swz[0] == s->swz[2] &&
        s->swz[0] == s->swz[3])
        put(o, ".%c", letter(s->swz[0]));
    else
        put(o, ".%c%c%c%c", letter(s->swz[0]), letter(s->swz[1]),
            letter(s->swz[2]), letter(s->swz[3]));
}

static void put_mask(struct out *o, unsigned mask)
{
    if ((mask & 0xF) != 0xF) {
        put(o, ".");
        for (int c = 0; c < 4; c++)
            if (mask & (1u << c))
                put(o, "%c", comp_letter[c]);
    }
}

static void put_dst(struct out *o, const struct dis *x,
                    const struct us_dst *d)
{
    const struct us_program *prog = x->prog;
    const struct us_decl *decl;
    switch (d->file) {
    case US_FILE_TEMP:
        if (x->in_pre) {
            put(o, "program.pre[%u]", d->index);
            break;
        }
        decl = find_decl(x, US_DECL_TEMP, d->index);
        put(o, "%s", decl ? decl->name : "<invalid>");
        break;
    case US_FILE_OUTPUT:
        decl = find_printed(x, US_DECL_OUTPUT, d->index);
        put(o, "%s", decl ? decl->name
                          : nz(us_output_name(prog->stage, d->index)));
        break;
    case US_FILE_ADDRESS:
        decl = find_decl(x, US_DECL_ADDRESS, d->index);
        put(o, "%s", decl ? decl->name : "<invalid>");
        break;
    default:
        put(o, "<invalid>");
        break;
    }
    put_mask(o, d->mask);
}

/* The label of instruction `pc` (BRA targets, asm/compute.c). */
static void put_label(struct out *o, unsigned pc)
{
    put(o, "L%u", pc);
}

/* LOAD STORE ATOM (and LDS STS ATOMS), BAR MEMBAR and BRA: the modifiers
 * and operands docs/COMPUTE.md spells. */
static void put_compute(struct out *o, const struct dis *x,
                        const struct us_inst *in)
{
    const struct us_opinfo *info = &us_ops[in->op];
    bool shared = in->op == US_OP_LDS || in->op == US_OP_STS ||
                  in->op == US_OP_ATOMS;
    const char *mt = nz(NAME(us_mtype_names, in->mtype));
    switch (info->format) {
    case US_FMT_LOAD:
        put(o, ".%s ", mt);
        put_dst(o, x, &in->dst);
        put(o, ", ");
        put_src(o, x, &in->src[0]);
        break;
    case US_FMT_STORE:
        put(o, ".%s ", mt);
        if (shared)
            put(o, "shared");
        else
            put(o, "buffer[%u]", in->tex_unit);
        put_mask(o, in->dst.mask);
        put(o, ", ");
        put_src(o, x, &in->src[0]);
        put(o, ", ");
        put_src(o, x, &in->src[1]);
        put(o, ";\n");
        return;
    case US_FMT_ATOM:
        put(o, ".%s.%s ", nz(NAME(us_atom_names, in->sub)), mt);
        put_dst(o, x, &in->dst);
        put(o, ", ");
        put_src(o, x, &in->src[0]);
        if (in->sub == US_ATOM_CSWAP) {
            put(o, ", ");
            put_src(o, x, &in->src[2]);
        }
        put(o, ", ");
        put_src(o, x, &in->src[1]);
        break;
    case US_FMT_BRA: {
        const char *cond = nz(NAME(us_cond_names, in->sub));
        put(o, "%s%s ", *cond ? "." : "", cond);
        put_label(o, in->target);
        if (in->sub != US_COND_ALWAYS) {
            put(o, ", ");
            put_src(o, x, &in->src[0]);
            put(o, ", ");
            put_src(o, x, &in->src[1]);
        }
        put(o, ";\n");
        return;
    }
    default:   /* BAR MEMBAR */
        put(o, ";\n");
        return;
    }
    if (!shared)
        put(o, ", buffer[%u]", in->tex_unit);
    put(o, ";\n");
}

static void put_inst(struct out *o, struct dis *x, const struct us_inst *in)
{
    if (in->op >= US_OP_COUNT) {
        put(o, "# <invalid opcode %u>\n", in->op);
        return;
    }
    const struct us_opinfo *info = &us_ops[in->op];
    if (in->joined)   /* the rest of a source instruction */
        put(o, "    ");
    put(o, "%s", info->name);
    if (in->word)
        put(o, ".W%u", in->word);
    put(o, "%s", in->sat ? "_SAT" : "");
    x->ints = info->flags & US_I_SRC;
    if (info->format >= US_FMT_LOAD) {
        put_compute(o, x, in);
        return;
    }
    if (info->format == US_FMT_FLOW) {
        put(o, ";\n");
        return;
    }
    if (info->format == US_FMT_KIL || info->format == US_FMT_COND) {
        put(o, " ");
        put_src(o, x, &in->src[0]);
        put(o, ";\n");
        return;
    }
    put(o, " ");
    put_dst(o, x, &in->dst);
    if (info->format == US_FMT_SWZ) {
        /* SWZ dst, reg, c0, c1, c2, c3: signs live in the components. */
        const struct us_src *s = &in->src[0];
        put(o, ", ");
        put_reg(o, x, s);
        for (int c = 0; c < 4; c++)
            put(o, ", %s%c", s->negate & (1u << c) ? "-" : "",
                letter(s->swz[c]));
        put(o, ";\n");
        return;
    }
    for (int i = 0; i < info->nsrc; i++) {
        put(o, ", ");
        put_src(o, x, &in->src[i]);
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
static uint32_t *inplace_limits(const struct dis *x)
{
    const struct us_program *prog = x->prog;
    unsigned n = prog->npre + prog->ninsts;
    uint32_t *first = malloc((n + 1) * sizeof *first);
    uint8_t *seen = calloc(prog->nparams + 1, 1);
    if (!first || !seen) {
        free(first);
        free(seen);
        return NULL;
    }
    for (unsigned i = 0; i < n; i++) {
        const struct us_inst *in = seq_inst(prog, i);
        first[i] = UINT32_MAX;
        for (int k = 0; in->op < US_OP_COUNT && k < us_ops[in->op].nsrc; k++) {
            const struct us_src *s = &in->src[k];
            if (s->file != US_FILE_PARAM || s->rel ||
                s->index >= prog->nparams || seen[s->index] ||
                prog->params[s->index].decl >= 0 ||
                x->slot_extra[s->index] >= 0)
                continue;
            seen[s->index] = 1;
            if (s->index < first[i])
                first[i] = s->index;
        }
    }
    first[n] = UINT32_MAX;
    for (unsigned i = n; i-- > 0;)
        if (first[i + 1] < first[i])
            first[i] = first[i + 1];
    free(seen);
    return first;
}

static void put_program(struct dis *x, const uint32_t *limit)
{
    const struct us_program *prog = x->prog;
    struct out *o = &x->o;
    static const char *const headers[US_STAGE_COUNT] = {
        "!!ARBvp1.0", "!!ARBfp1.0", "!!USHADERcp1.0"
    };
    bool cp = prog->stage == US_STAGE_COMPUTE;
    put(o, "%s\n", nz(NAME(headers, prog->stage)));
    for (size_t b = 0; b < sizeof option_names / sizeof option_names[0]; b++)
        if ((prog->options & (1u << b)) &&
            !(cp && (1u << b) == US_OPT_USHADER_EXTENSIONS))  /* implied */
            put(o, "OPTION %s;\n", option_names[b]);
    if (cp) {
        put(o, "GROUP_SIZE %u %u %u;\n", prog->group_size[0],
            prog->group_size[1], prog->group_size[2]);
        if (prog->shared_bytes)
            put(o, "SHARED_MEMORY %u;\n", prog->shared_bytes);
    }
    for (unsigned e = 0; e < x->nextra; e++)
        put_decl(o, prog, &x->extra[e]);

    /* labels: every instruction a BRA jumps to (and the end) */
    uint8_t *target = calloc(prog->ninsts + 1, 1);
    if (!target) {
        o->oom = true;
        return;
    }
    for (unsigned i = 0; i < prog->ninsts; i++)
        if (prog->insts[i].op == US_OP_BRA &&
            prog->insts[i].target <= prog->ninsts)
            target[prog->insts[i].target] = 1;
    unsigned d = 0;
    /* j: the text's instructions, the preshader's block first */
    for (unsigned j = 0; j <= prog->npre + prog->ninsts; j++) {
        while (d < prog->ndecls &&
               (prog->decls[d].kind != US_DECL_PARAM ||
                prog->decls[d].base < limit[j])) {
            put_decl(o, prog, &prog->decls[d]);
            x->nprinted = ++d;
        }
        if (j < prog->npre) {
            if (j == 0)
                put(o, "PRESHADER;\n");
            x->in_pre = true;
            put_inst(o, x, &prog->pre[j]);
            x->in_pre = false;
            if (j + 1 == prog->npre)
                put(o, "ENDPRESHADER;\n");
            continue;
        }
        unsigned i = j - prog->npre;
        if (target[i]) {
            put_label(o, i);
            put(o, ":\n");
        }
        if (i < prog->ninsts)
            put_inst(o, x, &prog->insts[i]);
        /* "A |" when the next instruction is one source instruction with A */
        if (i + 1 < prog->ninsts && prog->insts[i + 1].joined && !o->oom &&
            o->len >= 2 && !memcmp(o->buf + o->len - 2, ";\n", 2)) {
            o->len -= 2;
            put(o, " |\n");
        }
    }
    free(target);
    put(o, "END\n");
}

char *us_disassemble(const struct us_program *prog)
{
    /* Invented declarations: temps, address registers, and at most one
     * array per relative source. */
    size_t max_extra = US_MAX_TEMPS + US_MAX_ADDRESS + 3 * (size_t)prog->ninsts;
    struct dis x = {
        .prog = prog,
        .o = { .buf = malloc(1024), .cap = 1024 },
        .extra = malloc(max_extra * sizeof *x.extra),
        .slot_extra = malloc((prog->nparams + 1) * sizeof *x.slot_extra),
    };
    uint32_t *limit = NULL;
    if (x.o.buf && x.extra && x.slot_extra) {
        for (unsigned i = 0; i < prog->nparams; i++)
            x.slot_extra[i] = -1;
        invent_decls(&x);
        limit = inplace_limits(&x);
    }
    if (limit)
        put_program(&x, limit);
    if (!limit || x.o.oom) {
        free(x.o.buf);
        x.o.buf = NULL;
    }
    free(limit);
    free(x.extra);
    free(x.slot_extra);
    return x.o.buf;
}
