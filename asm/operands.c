/*
 * Instruction operands: destination registers and write masks, source
 * registers with swizzles and negation, parameter array members (absolute
 * and relative), extended swizzles and texture units / targets.  Grammar:
 * ARB_vertex_program 2.14.2 and 2.14.4, ARB_fragment_program 3.11.2 and
 * 3.11.4, ARB_fragment_program_shadow.
 */
#include <string.h>

#include "asm/asm_internal.h"

/* Parse a swizzle/mask word: component indices (0..3) into sel[], length
 * into *n.  Fragment programs also accept rgba, but not mixed with xyzw. */
static bool component_word(struct asm_ctx *c, const struct token *t,
                           uint8_t sel[4], unsigned *n)
{
    static const char xyzw[] = "xyzw", rgba[] = "rgba";
    bool fp = asm_is_fp(c);
    if (t->kind != TOK_IDENT || t->len > 4)
        return false;
    int set = -1;  /* 0 = xyzw, 1 = rgba */
    for (size_t i = 0; i < t->len; i++) {
        const char *p = memchr(xyzw, t->text[i], 4);
        int s = 0;
        if (!p && fp) {
            p = memchr(rgba, t->text[i], 4);
            s = 1;
        }
        if (!p || (set >= 0 && s != set))
            return false;
        set = s;
        sel[i] = (uint8_t)(p - (s ? rgba : xyzw));
    }
    *n = (unsigned)t->len;
    return true;
}

/* optionalMask ::= "" | "." mask, components in xyzw (or rgba) order */
bool parse_mask(struct asm_ctx *c, uint8_t *mask)
{
    *mask = 0xF;
    if (!asm_is_punct(&c->tok, '.'))
        return true;
    if (!asm_next(c))
        return false;
    uint8_t sel[4];
    unsigned n;
    char buf[64];
    if (!component_word(c, &c->tok, sel, &n))
        return asm_error(c, &c->tok, "invalid write mask %s",
                         asm_describe(&c->tok, buf, sizeof buf));
    *mask = 0;
    for (unsigned i = 0; i < n; i++) {
        if (i > 0 && sel[i] <= sel[i - 1])
            return asm_error(c, &c->tok, "write mask must be in %s order",
                             asm_is_vp(c) ? "xyzw" : "xyzw (or rgba)");
        *mask |= (uint8_t)(1u << sel[i]);
    }
    return asm_next(c);
}

/* preReg ::= "program" "." "pre" "[" index "]", the preshader's
 * registers (docs/GLSL.md "Preshader"); only inside its block, where
 * program.env and program.local stay parameters. */
bool parse_pre_reg(struct asm_ctx *c, bool *is_pre, unsigned *index)
{
    *is_pre = false;
    if (!c->in_pre || !asm_is_word(&c->tok, "program"))
        return true;
    struct lex_cursor cur = c->cur;
    struct token tok = c->tok;
    struct token dot = asm_peek(c);
    if (!asm_is_punct(&dot, '.'))
        return true;
    if (!asm_next(c) || !asm_next(c))
        return false;
    bool pre = asm_is_word(&c->tok, "pre");
    if (!pre) {
        c->cur = cur;
        c->tok = tok;
        return true;
    }
    if (!asm_next(c) ||
        !parse_bracket_index(c, US_MAX_TEMPS, "program.pre", index))
        return false;
    *is_pre = true;
    if (*index >= c->prog.npre_temps)
        c->prog.npre_temps = *index + 1;
    return true;
}

/* dstReg ::= temporaryReg | resultReg (a declared TEMP or OUTPUT, or an
 * implicit result.* binding); in a PRESHADER block preReg only */
bool parse_dst(struct asm_ctx *c, struct us_dst *dst)
{
    struct token at = c->tok;
    char buf[64];
    unsigned slot;
    bool pre;
    if (!parse_pre_reg(c, &pre, &slot))
        return false;
    if (pre) {
        dst->file = US_FILE_TEMP;
        dst->index = (uint16_t)slot;
        return parse_mask(c, &dst->mask);
    }
    if (c->in_pre)
        return asm_error(c, &at, "a preshader writes only program.pre[n], "
                         "not %s", asm_describe(&at, buf, sizeof buf));
    if (asm_is_word(&at, "result")) {
        if (!parse_result_binding(c, &slot))
            return false;
        dst->file = US_FILE_OUTPUT;
        dst->index = (uint16_t)slot;
    } else {
        int d = asm_sym_lookup(c, &at, "a destination register");
        if (d < 0)
            return false;
        const struct us_decl *decl = &c->prog.decls[d];
        if (decl->kind == US_DECL_TEMP)
            dst->file = US_FILE_TEMP;
        else if (decl->kind == US_DECL_OUTPUT)
            dst->file = US_FILE_OUTPUT;
        else
            return asm_error(c, &at, "%s is read-only: only TEMP and OUTPUT "
                             "variables can be written",
                             asm_describe(&at, buf, sizeof buf));
        dst->index = decl->base;
        if (!asm_next(c))
            return false;
    }
    if (dst->file == US_FILE_OUTPUT)
        c->prog.outputs_written |= 1ull << dst->index;
    return parse_mask(c, &dst->mask);
}

/* addrReg ::= establishedName (declared by ADDRESS); *index */
bool parse_addr_reg(struct asm_ctx *c, unsigned *index)
{
    struct token at = c->tok;
    char buf[64];
    int d = asm_sym_lookup(c, &at, "an address register");
    if (d < 0)
        return false;
    if (c->prog.decls[d].kind != US_DECL_ADDRESS)
        return asm_error(c, &at, "%s is not an address register",
                         asm_describe(&at, buf, sizeof buf));
    *index = c->prog.decls[d].base;
    return asm_next(c);
}

/* addrComponent ::= "." "x"  (also addrWriteMask) */
bool parse_addr_x(struct asm_ctx *c)
{
    if (!asm_expect(c, '.'))
        return false;
    if (!asm_is_word(&c->tok, "x")) {
        char buf[64];
        return asm_error(c, &c->tok, "address registers have only an x "
                         "component, not %s", asm_describe(&c->tok, buf, sizeof buf));
    }
    return asm_next(c);
}

/*
 * progParamArrayMem ::= integer                                  (absolute)
 *                     | addrReg "." "x" [ ("+" 0..63) | ("-" 0..64) ]
 * Relative addressing exists only in vertex programs (2.14.4.2).
 */
static bool parse_array_member(struct asm_ctx *c, int d, struct us_src *src)
{
    const struct us_decl *decl = &c->prog.decls[d];
    if (!asm_expect(c, '['))
        return false;
    struct token at = c->tok;
    if (at.kind == TOK_INT) {
        uint32_t v = asm_int_value(&at);
        if (v >= decl->size)
            return asm_error(c, &at, "index %u is out of bounds for array '%s' "
                             "of size %u", v, decl->name, decl->size);
        src->index = (uint16_t)(decl->base + v);
        return asm_next(c) && asm_expect(c, ']');
    }
    if (!asm_is_vp(c) && !(c->prog.options & US_OPT_USHADER_EXTENSIONS)) {
        char buf[64];
        return asm_error(c, &at, "expected an integer array index, found %s "
                         "(fragment programs have no relative addressing)",
                         asm_describe(&at, buf, sizeof buf));
    }
    unsigned addr;
    if (!parse_addr_reg(c, &addr) || !parse_addr_x(c))
        return false;
    int offset = 0;
    if (asm_is_punct(&c->tok, '+') || asm_is_punct(&c->tok, '-')) {
        bool neg = asm_is_punct(&c->tok, '-');
        unsigned v;
        /* ARB_vertex_program's grammar allows offsets -64..63; like Mesa
         * (and piglit's vp-arl-constant-array-huge-relative-offset, which
         * uses +109) this accepts any offset within the parameter space. */
        if (!asm_next(c) ||
            !parse_index(c, US_MAX_REL_OFFSET + 1, "relative address offset",
                         &v))
            return false;
        offset = neg ? -(int)v : (int)v;
    }
    if (!asm_expect(c, ']') || !asm_mark_relative(c, &at, d))
        return false;
    src->rel = true;
    src->rel_addr = (uint8_t)addr;
    src->index = decl->base;
    src->rel_offset = (int16_t)offset;
    src->rel_size = decl->size;
    return true;
}

/*
 * srcReg ::= attribReg | temporaryReg | progParamReg
 * attribReg    ::= establishedName | (vertex|fragment) binding
 * progParamReg ::= establishedName | establishedName "[" member "]"
 *                | paramSingleItemUse
 */
bool parse_src_reg(struct asm_ctx *c, struct us_src *src)
{
    struct token at = c->tok;
    char buf[64];
    unsigned n, slot;
    bool pre;
    if (!parse_pre_reg(c, &pre, &slot))
        return false;
    if (pre) {
        src->file = US_FILE_TEMP;
        src->index = (uint16_t)slot;
        return true;
    }
    if (c->in_pre && at.kind == TOK_IDENT &&
        !asm_is_word(&at, "state") && !asm_is_word(&at, "program")) {
        /* once per draw: no inputs, and registers only its own */
        int d = asm_sym_find(c, at.text, at.len);
        if (d < 0 || c->prog.decls[d].kind != US_DECL_PARAM)
            return asm_error(c, &at, "a preshader reads only parameters and "
                             "program.pre[n], not %s",
                             asm_describe(&at, buf, sizeof buf));
    }
    if (asm_is_word(&at, asm_is_vp(c) ? "vertex"
                         : asm_is_fp(c) ? "fragment" : "invocation")) {
        if (!parse_attrib_binding(c, &slot) || !asm_bind_input(c, &at, slot))
            return false;
        src->file = US_FILE_INPUT;
        src->index = (uint16_t)slot;
        c->prog.inputs_read |= 1ull << slot;
        return true;
    }
    if (asm_is_word(&at, "result"))
        return asm_error(c, &at, "result.* variables are write-only");
    if (asm_is_word(&at, "state") || asm_is_word(&at, "program") ||
        asm_is_punct(&at, '{') || at.kind == TOK_INT || at.kind == TOK_FLOAT) {
        if (!parse_param_binding(c, PARAM_USE, -1, &n))
            return false;
        src->file = US_FILE_PARAM;
        src->index = (uint16_t)c->last_param;
        return true;
    }
    int d = asm_sym_lookup(c, &at, "a source operand");
    if (d < 0 || !asm_next(c))
        return false;
    const struct us_decl *decl = &c->prog.decls[d];
    bool indexed = asm_is_punct(&c->tok, '[');
    if (indexed && !(decl->kind == US_DECL_PARAM && decl->array))
        return asm_error(c, &c->tok, "%s is not a PARAM array",
                         asm_describe(&at, buf, sizeof buf));
    switch (decl->kind) {
    case US_DECL_TEMP:
        src->file = US_FILE_TEMP;
        src->index = decl->base;
        return true;
    case US_DECL_ATTRIB:
        src->file = US_FILE_INPUT;
        src->index = decl->base;
        c->prog.inputs_read |= 1ull << decl->base;
        return true;
    case US_DECL_PARAM:
        src->file = US_FILE_PARAM;
        if (decl->array && !indexed)
            return asm_error(c, &at, "array %s needs an index",
                             asm_describe(&at, buf, sizeof buf));
        if (!indexed) {
            src->index = decl->base;
            return true;
        }
        return parse_array_member(c, d, src);
    case US_DECL_OUTPUT:
        return asm_error(c, &at, "%s is an output and cannot be read",
                         asm_describe(&at, buf, sizeof buf));
    default:
        return asm_error(c, &at, "address register %s can only be used for "
                         "relative addressing", asm_describe(&at, buf, sizeof buf));
    }
}

/*
 * swizzleSrcReg ::= optionalSign srcReg [ "." swizzle ]   (1 or 4 components)
 * scalarSrcReg  ::= optionalSign srcReg "." component
 */
bool parse_src(struct asm_ctx *c, enum src_form form, struct us_src *src)
{
    memset(src, 0, sizeof *src);
    for (int i = 0; i < 4; i++)
        src->swz[i] = (uint8_t)i;
    if (asm_is_punct(&c->tok, '-') || asm_is_punct(&c->tok, '+')) {
        if (asm_is_punct(&c->tok, '-'))
            src->negate = 0xF;
        if (!asm_next(c))
            return false;
    }
    struct token first = c->tok;
    if (!parse_src_reg(c, src))
        return false;
    if (!asm_is_punct(&c->tok, '.')) {
        /* under the extensions a scalar constant needs no ".x" */
        bool literal = first.kind == TOK_INT || first.kind == TOK_FLOAT ||
                       asm_is_punct(&first, '{');
        if (form != SRC_SCALAR)
            return true;
        if (!literal || !(c->prog.options & US_OPT_USHADER_EXTENSIONS))
            return asm_error(c, &first, "scalar operand needs a component "
                             "selector such as .x");
        memset(src->swz, US_SWZ_X, sizeof src->swz);
        return true;
    }
    if (!asm_next(c))
        return false;
    uint8_t sel[4];
    unsigned n;
    char buf[64];
    if (!component_word(c, &c->tok, sel, &n) || n == 2 || n == 3)
        return asm_error(c, &c->tok, "invalid swizzle %s",
                         asm_describe(&c->tok, buf, sizeof buf));
    if (form == SRC_SCALAR && n != 1)
        return asm_error(c, &c->tok, "scalar operand needs a single component, "
                         "not %s", asm_describe(&c->tok, buf, sizeof buf));
    for (int i = 0; i < 4; i++)
        src->swz[i] = sel[n == 1 ? 0 : i];
    return asm_next(c);
}

/*
 * extendedSwizzle ::= extSwizComp "," extSwizComp "," extSwizComp ","
 *                     extSwizComp
 * extSwizComp     ::= optionalSign ( "0" | "1" | component )
 * Fragment programs take xyzw or rgba components, not both.
 */
bool parse_ext_swizzle(struct asm_ctx *c, struct us_src *src)
{
    int set = -1;
    uint8_t negate = 0;
    for (int i = 0; i < 4; i++) {
        if (i > 0 && !asm_expect(c, ','))
            return false;
        bool neg = false;
        if (asm_is_punct(&c->tok, '-') || asm_is_punct(&c->tok, '+')) {
            neg = asm_is_punct(&c->tok, '-');
            if (!asm_next(c))
                return false;
        }
        struct token t = c->tok;
        uint8_t sel[4];
        unsigned n;
        char buf[64];
        if (t.kind == TOK_INT && t.len == 1 && (t.text[0] == '0' || t.text[0] == '1')) {
            src->swz[i] = t.text[0] == '0' ? US_SWZ_ZERO : US_SWZ_ONE;
        } else if (component_word(c, &t, sel, &n) && n == 1) {
            int s = memchr("xyzw", t.text[0], 4) ? 0 : 1;
            if (set >= 0 && s != set)
                return asm_error(c, &t, "extended swizzle mixes xyzw and rgba");
            set = s;
            src->swz[i] = sel[0];
        } else {
            return asm_error(c, &t, "invalid extended swizzle selector %s",
                             asm_describe(&t, buf, sizeof buf));
        }
        if (neg)
            negate |= (uint8_t)(1u << i);
        if (!asm_next(c))
            return false;
    }
    src->negate ^= negate;
    return true;
}

/* texImageUnit ::= "texture" [ "[" n "]" ]
 * texTarget    ::= "1D" | "2D" | "3D" | "CUBE" | "RECT"
 *                | "SHADOW1D" | "SHADOW2D" | "SHADOWRECT" (with the option) */
bool parse_texture(struct asm_ctx *c, struct us_inst *inst)
{
    unsigned unit = 0;
    if (!asm_expect_word(c, "texture"))
        return false;
    if (asm_is_punct(&c->tok, '[') &&
        !parse_bracket_index(c, US_MAX_TEX_UNITS, "texture image unit", &unit))
        return false;
    if (!asm_expect(c, ','))
        return false;
    struct token t = c->tok;
    int target = -1;
    if (t.kind == TOK_INT && t.len == 1 && t.text[0] >= '1' && t.text[0] <= '3') {
        /* "1D" lexes as the integer 1 and the name D, written together. */
        struct token d = asm_peek(c);
        if (asm_is_word(&d, "D") && d.text == t.text + 1) {
            target = US_TEX_1D + (t.text[0] - '1');
            if (!asm_next(c))
                return false;
        }
    } else {
        static const char *const names[] = { "CUBE", "RECT", "SHADOW1D",
                                             "SHADOW2D", "SHADOWRECT", NULL };
        static const uint8_t targets[] = { US_TEX_CUBE, US_TEX_RECT,
            US_TEX_SHADOW1D, US_TEX_SHADOW2D, US_TEX_SHADOWRECT };
        for (int i = 0; names[i]; i++)
            if (asm_is_word(&t, names[i]))
                target = targets[i];
    }
    char buf[64];
    if (target < 0)
        return asm_error(c, &t, "invalid texture target %s",
                         asm_describe(&t, buf, sizeof buf));
    if (target >= US_TEX_SHADOW1D && !(c->prog.options & US_OPT_FRAGMENT_SHADOW))
        return asm_error(c, &t, "shadow texture targets need OPTION "
                         "ARB_fragment_program_shadow");
    /* ARB_fragment_program 3.11.6: one target per texture image unit. */
    if (c->tex_target[unit] && c->tex_target[unit] != target + 1)
        return asm_error(c, &t, "texture unit %u is already used with another "
                         "target", unit);
    c->tex_target[unit] = (uint8_t)(target + 1);
    inst->tex_unit = (uint8_t)unit;
    inst->tex_target = (uint8_t)target;
    return asm_next(c);
}
