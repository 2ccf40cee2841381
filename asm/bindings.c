/*
 * Bindings: vertex.* and fragment.* attributes, result.* outputs, and the
 * program parameters (constants, program.env/local, state.*).  Grammar and
 * tables: ARB_vertex_program 2.14.2-2.14.3 (Tables X.2-X.4) and
 * ARB_fragment_program 3.11.2-3.11.3 (Tables X.1-X.3).
 */
#include <string.h>

#include "asm/asm_internal.h"

/* Index of the identifier `t` in a NULL-terminated word list, or -1. */
static int word_index(const struct token *t, const char *const *words)
{
    for (int i = 0; words[i]; i++)
        if (asm_is_word(t, words[i]))
            return i;
    return -1;
}

/* "." followed by one of `words`: consume both and return its index;
 * anything else: consume nothing and return -1.  For optional suffixes
 * such as ".front" that must not eat a following swizzle or mask. */
static int opt_dot_word(struct asm_ctx *c, const char *const *words, bool *ok)
{
    *ok = true;
    if (!asm_is_punct(&c->tok, '.'))
        return -1;
    struct token next = asm_peek(c);
    int i = word_index(&next, words);
    if (i >= 0)
        *ok = asm_next(c) && asm_next(c);
    return i;
}

/* "." then one of `words` (required); *out = its index. */
static bool dot_word(struct asm_ctx *c, const char *const *words,
                     const char *what, int *out)
{
    if (!asm_expect(c, '.'))
        return false;
    int i = word_index(&c->tok, words);
    if (i < 0) {
        char buf[64];
        return asm_error(c, &c->tok, "invalid %s %s", what,
                         asm_describe(&c->tok, buf, sizeof buf));
    }
    *out = i;
    return asm_next(c);
}

/* optional "[" n "]", default 0 */
static bool opt_index(struct asm_ctx *c, unsigned limit, const char *what,
                      unsigned *out)
{
    *out = 0;
    if (!asm_is_punct(&c->tok, '['))
        return true;
    return parse_bracket_index(c, limit, what, out);
}

static const char *const face_words[] = { "front", "back", NULL };
static const char *const color_type_words[] = { "primary", "secondary", NULL };

/* optFaceType ::= "" | "." "front" | "." "back" */
static bool opt_face(struct asm_ctx *c, unsigned *face)
{
    bool ok;
    int i = opt_dot_word(c, face_words, &ok);
    *face = i == 1 ? US_FACE_BACK : US_FACE_FRONT;
    return ok;
}

/* optColorType ::= "" | "." "primary" | "." "secondary"; *secondary */
static bool opt_color_type(struct asm_ctx *c, bool *secondary)
{
    bool ok;
    *secondary = opt_dot_word(c, color_type_words, &ok) == 1;
    return ok;
}

/* The set of a varying, fragment.texcoord[n] or result.texcoord[n]:
 * ARB's n < MAX_TEXTURE_COORDS (8), or under OPTION USHADER_extensions
 * n < US_MAX_VARYINGS (how many a run or draw may use is knob
 * varying_slots: us_check_varying_slots). */
static bool opt_varying(struct asm_ctx *c, unsigned *n)
{
    bool ext = c->prog.options & US_OPT_USHADER_EXTENSIONS;
    return opt_index(c, ext ? US_MAX_VARYINGS : US_MAX_TEX_COORDS,
                     "texture coordinate set", n);
}

/* Generic attribute that a conventional vertex input aliases, or -1. */
static int generic_alias(unsigned slot)
{
    switch (slot) {
    case US_VIN_POSITION: return 0;
    case US_VIN_WEIGHT: return 1;
    case US_VIN_NORMAL: return 2;
    case US_VIN_COLOR0: return 3;
    case US_VIN_COLOR1: return 4;
    case US_VIN_FOGCOORD: return 5;
    default:
        if (slot >= US_VIN_TEXCOORD0 && slot < US_VIN_COUNT)
            return 8 + (int)(slot - US_VIN_TEXCOORD0);
        return -1;
    }
}

bool asm_bind_input(struct asm_ctx *c, const struct token *at, unsigned slot)
{
    if (asm_is_vp(c)) {
        for (unsigned other = 0; other < US_VIN_COUNT; other++) {
            if (!(c->bound_inputs & (1ull << other)))
                continue;
            int g = slot < ASM_MAX_VERTEX_ATTRIBS ? (int)slot : generic_alias(slot);
            int h = other < ASM_MAX_VERTEX_ATTRIBS ? (int)other : generic_alias(other);
            if (other != slot && g >= 0 && g == h)
                return asm_error(c, at, "%s and %s name the same vertex "
                                 "attribute; a program may bind only one of them",
                                 us_input_name(c->stage, other),
                                 us_input_name(c->stage, slot));
        }
    }
    c->bound_inputs |= 1ull << slot;
    return true;
}

/*
 * vtxAttribBinding  ::= "vertex" "." vtxAttribItem
 * vtxAttribItem     ::= "position" | "weight" [ "[" n "]" ] | "normal"
 *                     | "color" optColorType | "fogcoord"
 *                     | "texcoord" [ "[" n "]" ] | "matrixindex" "[" n "]"
 *                     | "attrib" "[" n "]"
 */
static bool parse_vertex_attrib(struct asm_ctx *c, unsigned *slot)
{
    static const char *const items[] = { "position", "weight", "normal",
        "color", "fogcoord", "texcoord", "matrixindex", "attrib", NULL };
    struct token item = c->tok;
    int i = word_index(&item, items);
    if (i < 0) {
        char buf[64];
        return asm_error(c, &item, "invalid vertex attribute %s",
                         asm_describe(&item, buf, sizeof buf));
    }
    if (!asm_next(c))
        return false;
    unsigned n;
    bool secondary;
    switch (i) {
    case 0:
        *slot = US_VIN_POSITION;
        return true;
    case 1: {
        /* Weights n..n+3: n < MAX_VERTEX_UNITS_ARB and divisible by 4. */
        struct token at = c->tok;
        if (!opt_index(c, ASM_MAX_VERTEX_UNITS, "vertex weight", &n))
            return false;
        if (n % 4)
            return asm_error(c, &at, "vertex weight index must be a multiple of 4");
        *slot = US_VIN_WEIGHT;
        return true;
    }
    case 2:
        *slot = US_VIN_NORMAL;
        return true;
    case 3:
        if (!opt_color_type(c, &secondary))
            return false;
        *slot = secondary ? US_VIN_COLOR1 : US_VIN_COLOR0;
        return true;
    case 4:
        *slot = US_VIN_FOGCOORD;
        return true;
    case 5:
        if (!opt_index(c, US_MAX_TEX_COORDS, "texture coordinate set", &n))
            return false;
        *slot = US_VIN_TEXCOORD0 + n;
        return true;
    case 6:
        return asm_error(c, &item, "vertex.matrixindex needs ARB_matrix_palette, "
                         "which this implementation does not provide");
    default:
        if (!parse_bracket_index(c, ASM_MAX_VERTEX_ATTRIBS, "generic vertex attribute", &n))
            return false;
        *slot = US_VIN_ATTRIB0 + n;
        return true;
    }
}

/*
 * fragAttribBinding ::= "fragment" "." fragAttribItem
 * fragAttribItem    ::= "color" optColorType | "texcoord" [ "[" n "]" ]
 *                     | "fogcoord" | "position"
 *                     | "facing"   (OPTION USHADER_extensions)
 */
static bool parse_fragment_attrib(struct asm_ctx *c, unsigned *slot)
{
    static const char *const items[] = { "color", "texcoord", "fogcoord",
                                         "position", "facing", NULL };
    struct token item = c->tok;
    int i = word_index(&item, items);
    if (i == 4 && !(c->prog.options & US_OPT_USHADER_EXTENSIONS))
        return asm_error(c, &item, "fragment.facing needs OPTION "
                         "USHADER_extensions");
    if (i < 0) {
        char buf[64];
        return asm_error(c, &item, "invalid fragment attribute %s",
                         asm_describe(&item, buf, sizeof buf));
    }
    if (!asm_next(c))
        return false;
    unsigned n;
    bool secondary;
    switch (i) {
    case 0:
        if (!opt_color_type(c, &secondary))
            return false;
        *slot = secondary ? US_FIN_COLOR1 : US_FIN_COLOR0;
        return true;
    case 1:
        if (!opt_varying(c, &n))
            return false;
        *slot = US_FIN_TEXCOORD0 + n;
        return true;
    case 2:
        *slot = US_FIN_FOGCOORD;
        return true;
    case 4:
        *slot = US_FIN_FACING;
        return true;
    default:
        *slot = US_FIN_POSITION;
        return true;
    }
}

/* attribBinding ::= vtxAttribBinding (vertex) | fragAttribBinding (fragment) */
bool parse_attrib_binding(struct asm_ctx *c, unsigned *slot)
{
    if (asm_is_cp(c))
        return parse_invocation_binding(c, slot);
    if (!asm_next(c) || !asm_expect(c, '.'))
        return false;
    if (asm_is_vp(c))
        return parse_vertex_attrib(c, slot);
    return parse_fragment_attrib(c, slot);
}

/*
 * resultBinding (vertex)   ::= "result" "." ( "position"
 *                            | "color" optFaceType optColorType
 *                            | "fogcoord" | "pointsize"
 *                            | "texcoord" [ "[" n "]" ]
 *                            | "clipdistance" [ "[" n "]" ] | "clipvertex" )
 *                              (the last two: OPTION USHADER_extensions)
 * resultBinding (fragment) ::= "result" "." ( "color" | "depth" )
 */
bool parse_result_binding(struct asm_ctx *c, unsigned *slot)
{
    struct token result = c->tok;
    if (!asm_next(c) || !asm_expect(c, '.'))
        return false;
    struct token item = c->tok;
    char buf[64];
    if (asm_is_cp(c))
        return asm_error(c, &result, "compute programs have no results: "
                         "they write memory");
    if (c->stage == US_STAGE_FRAGMENT) {
        static const char *const items[] = { "color", "depth", NULL };
        int i = word_index(&item, items);
        if (i < 0)
            return asm_error(c, &item, "invalid fragment program result %s",
                             asm_describe(&item, buf, sizeof buf));
        *slot = i == 0 ? US_FOUT_COLOR : US_FOUT_DEPTH;
        return asm_next(c);
    }
    static const char *const items[] = { "position", "color", "fogcoord",
                                         "pointsize", "texcoord",
                                         "clipdistance", "clipvertex", NULL };
    int i = word_index(&item, items);
    if (i < 0)
        return asm_error(c, &item, "invalid vertex program result %s",
                         asm_describe(&item, buf, sizeof buf));
    if (i >= 5 && !(c->prog.options & US_OPT_USHADER_EXTENSIONS))
        return asm_error(c, &item, "result.%s needs OPTION USHADER_extensions",
                         i == 5 ? "clipdistance" : "clipvertex");
    if (!asm_next(c))
        return false;
    unsigned n, face;
    bool secondary;
    switch (i) {
    case 0:
        /* 2.14.4.5.1: the option removes result.position from the grammar. */
        if (c->prog.options & US_OPT_POSITION_INVARIANT)
            return asm_error(c, &result, "result.position cannot be used with "
                             "OPTION ARB_position_invariant");
        *slot = US_VOUT_POSITION;
        return true;
    case 1:
        if (!opt_face(c, &face) || !opt_color_type(c, &secondary))
            return false;
        if (face == US_FACE_FRONT)
            *slot = secondary ? US_VOUT_COLOR1 : US_VOUT_COLOR0;
        else
            *slot = secondary ? US_VOUT_BCOLOR1 : US_VOUT_BCOLOR0;
        return true;
    case 2:
        *slot = US_VOUT_FOGCOORD;
        return true;
    case 3:
        *slot = US_VOUT_POINTSIZE;
        return true;
    case 4:
        if (!opt_varying(c, &n))
            return false;
        *slot = US_VOUT_TEXCOORD0 + n;
        return true;
    case 5:
        /* four clip distances per slot: GLSL's gl_ClipDistance[4n .. 4n+3] */
        if (!opt_index(c, US_MAX_CLIP_DISTANCES / 4, "clip distance vector",
                       &n))
            return false;
        *slot = US_VOUT_CLIPDIST0 + n;
        return true;
    default:
        *slot = US_VOUT_CLIPVERTEX;
        return true;
    }
}

/* Append one slot owned by `decl`. */
static bool add_slot(struct asm_ctx *c, const struct token *at, int decl,
                     struct us_param p, unsigned *count)
{
    p.decl = (int16_t)decl;
    if (asm_add_param(c, at, &p) < 0)
        return false;
    (*count)++;
    return true;
}

/* signedFloatConstant ::= optionalSign floatConstant  (signed = true)
 * floatConstant (signed = false).  In an integer instruction's operands
 * (c->int_literals) the constant is an integer, stored as its 32 bits
 * (docs/COMPUTE.md); `-` negates it in two's complement. */
static bool parse_float(struct asm_ctx *c, bool is_signed, float *out)
{
    bool neg = false;
    if (is_signed && (asm_is_punct(&c->tok, '-') || asm_is_punct(&c->tok, '+'))) {
        neg = asm_is_punct(&c->tok, '-');
        if (!asm_next(c))
            return false;
    }
    if (c->int_literals) {
        uint32_t u;
        if (!asm_int_literal(c, &c->tok, &u))
            return false;
        u = neg ? 0u - u : u;
        memcpy(out, &u, sizeof u);
        return asm_next(c);
    }
    if (c->tok.kind != TOK_INT && c->tok.kind != TOK_FLOAT) {
        char buf[64];
        return asm_error(c, &c->tok, "expected a number, found %s",
                         asm_describe(&c->tok, buf, sizeof buf));
    }
    if (!asm_float_value(c, &c->tok, out))
        return false;
    if (neg)
        *out = -*out;
    return asm_next(c);
}

/* paramConstVector ::= "{" signedFloatConstant ("," signedFloatConstant){0,3} "}"
 * Missing components default to y = z = 0, w = 1 (2.14.3.2; integers: 1). */
static bool parse_const_vector(struct asm_ctx *c, float v[4])
{
    v[0] = v[1] = v[2] = 0.0f;
    v[3] = 1.0f;
    if (c->int_literals) {
        uint32_t one = 1;
        memcpy(&v[3], &one, sizeof one);
    }
    if (!asm_expect(c, '{'))
        return false;
    for (int i = 0;; i++) {
        if (i == 4)
            return asm_error(c, &c->tok, "a constant vector has at most 4 components");
        if (!parse_float(c, true, &v[i]))
            return false;
        if (!asm_is_punct(&c->tok, ','))
            break;
        if (!asm_next(c))
            return false;
    }
    return asm_expect(c, '}');
}

/*
 * progEnvParam(s)   ::= "program" "." "env" "[" a [ ".." b ] "]"
 * progLocalParam(s) ::= "program" "." "local" "[" a [ ".." b ] "]"
 * Ranges only in array initializers.
 */
static bool parse_program_param(struct asm_ctx *c, enum param_ctx pc, int decl,
                                unsigned *count)
{
    static const char *const kinds[] = { "env", "local", "pre", NULL };
    static const uint8_t kind_of[] = { US_PARAM_ENV, US_PARAM_LOCAL,
                                       US_PARAM_PRE };
    int kind;
    if (!asm_next(c) || !dot_word(c, kinds, "program parameter kind", &kind))
        return false;
    unsigned limit = kind == 0 ? US_MAX_ENV_PARAMS
                   : kind == 1 ? US_MAX_LOCAL_PARAMS : US_MAX_TEMPS;
    const char *what = kind == 0 ? "program.env"
                     : kind == 1 ? "program.local" : "program.pre";
    unsigned a, b;
    struct token at = c->tok;
    if (!asm_expect(c, '[') || !parse_index(c, limit, what, &a))
        return false;
    b = a;
    if (c->tok.kind == TOK_DOTDOT) {
        struct token range = c->tok;
        if (pc != PARAM_MULTI)
            return asm_error(c, &range, "a range of parameters needs an array PARAM");
        if (!asm_next(c) || !parse_index(c, limit, what, &b))
            return false;
        if (a > b)
            return asm_error(c, &range, "invalid range %s[%u..%u]: first index "
                             "exceeds the last", what, a, b);
    }
    if (!asm_expect(c, ']'))
        return false;
    for (unsigned i = a; i <= b; i++) {
        struct us_param p = { .kind = kind_of[kind],
                              .index = (uint16_t)i };
        if (!add_slot(c, &at, decl, p, count))
            return false;
    }
    return true;
}

/*
 * stateMatrixItem ::= "matrix" "." stateMatrixName [ "." stateMatModifier ]
 * stateMatrixName ::= "modelview" [ "[" n "]" ] | "projection" | "mvp"
 *                   | "texture" [ "[" n "]" ] | "palette" "[" n "]"
 *                   | "program" "[" n "]"
 * then (single)   "." "row" "[" r "]"
 *      (multiple) [ "." "row" "[" a [ ".." b ] "]" ]   (default rows 0..3)
 */
static bool parse_state_matrix(struct asm_ctx *c, const struct token *state,
                               enum param_ctx pc, int decl, unsigned *count)
{
    static const char *const names[] = { "modelview", "projection", "mvp",
                                         "texture", "palette", "program", NULL };
    static const char *const mods[] = { "inverse", "transpose", "invtrans", NULL };
    int name;
    if (!dot_word(c, names, "matrix", &name))
        return false;
    unsigned index = 0;
    switch (name) {
    case US_MATRIX_MODELVIEW:
        if (!opt_index(c, ASM_MAX_VERTEX_UNITS, "modelview matrix", &index))
            return false;
        break;
    case US_MATRIX_TEXTURE:
        if (!opt_index(c, US_MAX_TEX_COORDS, "texture matrix", &index))
            return false;
        break;
    case US_MATRIX_PALETTE:
        return asm_error(c, state, "state.matrix.palette needs "
                         "ARB_matrix_palette, which this implementation "
                         "does not provide");
    case US_MATRIX_PROGRAM:
        if (!parse_bracket_index(c, US_MAX_PROGRAM_MATRICES, "program matrix", &index))
            return false;
        break;
    default:
        break;
    }
    bool ok;
    int mod = opt_dot_word(c, mods, &ok) + 1;  /* -1 (none) -> US_MOD_NONE */
    if (!ok)
        return false;
    unsigned a = 0, b = 3;
    if (pc != PARAM_MULTI && !asm_is_punct(&c->tok, '.'))
        return asm_error(c, state, "a whole matrix needs an array PARAM; "
                         "select one row with .row[n]");
    if (asm_is_punct(&c->tok, '.')) {
        static const char *const row_words[] = { "row", NULL };
        int row;
        if (!dot_word(c, row_words, "matrix selector", &row))
            return false;
        if (!asm_expect(c, '[') || !parse_index(c, 4, "matrix row", &a))
            return false;
        b = a;
        if (c->tok.kind == TOK_DOTDOT) {
            struct token range = c->tok;
            if (pc != PARAM_MULTI)
                return asm_error(c, &range, "a range of matrix rows needs an array PARAM");
            if (!asm_next(c) || !parse_index(c, 4, "matrix row", &b))
                return false;
            if (a > b)
                return asm_error(c, &range, "invalid row range [%u..%u]: first "
                                 "row exceeds the last", a, b);
        }
        if (!asm_expect(c, ']'))
            return false;
    }
    for (unsigned r = a; r <= b; r++) {
        struct us_param p = { .kind = US_PARAM_STATE,
            .state = { US_STATE_MATRIX_ROW, (uint8_t)name, (uint8_t)index,
                       (uint8_t)mod, (uint8_t)r } };
        if (!add_slot(c, state, decl, p, count))
            return false;
    }
    return true;
}

/* The state.* items other than matrices; one vec4 each.  `ref` is filled. */
static bool parse_state_vector(struct asm_ctx *c, int item,
                               struct us_state_ref *ref)
{
    static const char *const mat_props[] = { "ambient", "diffuse", "specular",
                                             "emission", "shininess", NULL };
    static const char *const light_props[] = { "ambient", "diffuse",
        "specular", "position", "attenuation", "spot", "half", NULL };
    static const char *const prod_props[] = { "ambient", "diffuse", "specular", NULL };
    static const char *const lmodel[] = { "ambient", "scenecolor", "front",
                                          "back", NULL };
    static const char *const planes[] = { "eye", "object", NULL };
    static const char *const coords[] = { "s", "t", "r", "q", NULL };
    static const char *const fog[] = { "color", "params", NULL };
    static const char *const plane_w[] = { "plane", NULL };
    static const char *const point[] = { "size", "attenuation", NULL };
    static const char *const color_w[] = { "color", NULL };
    static const char *const range_w[] = { "range", NULL };
    static const char *const spot_w[] = { "direction", NULL };
    static const char *const scene_w[] = { "scenecolor", NULL };
    unsigned n, face;
    int prop, w;
    switch (item) {
    case 0: /* "material" optFaceType "." stateMatProperty */
        if (!opt_face(c, &face) || !dot_word(c, mat_props, "material property", &prop))
            return false;
        *ref = (struct us_state_ref){ US_STATE_MATERIAL, (uint8_t)face,
                                      (uint8_t)(US_PROP_AMBIENT + prop), 0, 0 };
        return true;
    case 1: /* "light" "[" n "]" "." stateLightProperty */
        if (!parse_bracket_index(c, US_MAX_LIGHTS, "light", &n) ||
            !dot_word(c, light_props, "light property", &prop))
            return false;
        if (prop == 5) {        /* "spot" "." "direction" */
            if (!dot_word(c, spot_w, "spot light property", &w))
                return false;
        }
        {
            static const uint8_t map[] = { US_PROP_AMBIENT, US_PROP_DIFFUSE,
                US_PROP_SPECULAR, US_PROP_POSITION, US_PROP_ATTENUATION,
                US_PROP_SPOT_DIRECTION, US_PROP_HALF };
            *ref = (struct us_state_ref){ US_STATE_LIGHT, (uint8_t)n, map[prop], 0, 0 };
        }
        return true;
    case 2: /* "lightmodel" ( "." "ambient" | optFaceType "." "scenecolor" ) */
        if (!dot_word(c, lmodel, "light model property", &w))
            return false;
        if (w == 0) {
            *ref = (struct us_state_ref){ US_STATE_LIGHTMODEL_AMBIENT, 0, 0, 0, 0 };
            return true;
        }
        face = w == 3 ? US_FACE_BACK : US_FACE_FRONT;
        if (w >= 2 && !dot_word(c, scene_w, "light model property", &w))
            return false;
        *ref = (struct us_state_ref){ US_STATE_LIGHTMODEL_SCENECOLOR,
                                      (uint8_t)face, 0, 0, 0 };
        return true;
    case 3: /* "lightprod" "[" n "]" optFaceType "." stateLProdProperty */
        if (!parse_bracket_index(c, US_MAX_LIGHTS, "light", &n) ||
            !opt_face(c, &face) ||
            !dot_word(c, prod_props, "light product property", &prop))
            return false;
        *ref = (struct us_state_ref){ US_STATE_LIGHTPROD, (uint8_t)n,
                                      (uint8_t)face, (uint8_t)(US_PROP_AMBIENT + prop), 0 };
        return true;
    case 4: /* "texgen" [ "[" n "]" ] "." ("eye"|"object") "." ("s"|"t"|"r"|"q") */
        if (!opt_index(c, US_MAX_TEX_COORDS, "texture coordinate set", &n) ||
            !dot_word(c, planes, "texgen plane", &w) ||
            !dot_word(c, coords, "texgen coordinate", &prop))
            return false;
        *ref = (struct us_state_ref){ US_STATE_TEXGEN, (uint8_t)n,
            (uint8_t)(w == 0 ? US_TEXGEN_EYE : US_TEXGEN_OBJECT), (uint8_t)prop, 0 };
        return true;
    case 5: /* "fog" "." ("color"|"params") */
        if (!dot_word(c, fog, "fog property", &w))
            return false;
        *ref = (struct us_state_ref){ w == 0 ? US_STATE_FOG_COLOR : US_STATE_FOG_PARAMS,
                                      0, 0, 0, 0 };
        return true;
    case 6: /* "clip" "[" n "]" "." "plane" */
        if (!parse_bracket_index(c, US_MAX_CLIP_PLANES, "clip plane", &n) ||
            !dot_word(c, plane_w, "clip plane property", &w))
            return false;
        *ref = (struct us_state_ref){ US_STATE_CLIP_PLANE, (uint8_t)n, 0, 0, 0 };
        return true;
    case 7: /* "point" "." ("size"|"attenuation") */
        if (!dot_word(c, point, "point property", &w))
            return false;
        *ref = (struct us_state_ref){ w == 0 ? US_STATE_POINT_SIZE
                                             : US_STATE_POINT_ATTENUATION, 0, 0, 0, 0 };
        return true;
    case 8: /* "texenv" [ "[" n "]" ] "." "color"; legacy texture units,
               which this model has as many as coordinate sets */
        if (!opt_index(c, US_MAX_TEX_COORDS, "texture environment", &n) ||
            !dot_word(c, color_w, "texture environment property", &w))
            return false;
        *ref = (struct us_state_ref){ US_STATE_TEXENV_COLOR, (uint8_t)n, 0, 0, 0 };
        return true;
    default: /* "depth" "." "range" */
        if (!dot_word(c, range_w, "depth property", &w))
            return false;
        *ref = (struct us_state_ref){ US_STATE_DEPTH_RANGE, 0, 0, 0, 0 };
        return true;
    }
}

/* stateSingleItem / stateMultipleItem ::= "state" "." item */
static bool parse_state(struct asm_ctx *c, enum param_ctx pc, int decl,
                        unsigned *count)
{
    static const char *const items[] = { "material", "light", "lightmodel",
        "lightprod", "texgen", "fog", "clip", "point", "texenv", "depth",
        "matrix", NULL };
    /* Which program type each item belongs to (Tables X.3.x / X.2.x). */
    static const uint8_t stages[] = { US_VP | US_FP, US_VP | US_FP,
        US_VP | US_FP, US_VP | US_FP, US_VP, US_VP | US_FP, US_VP, US_VP,
        US_FP, US_FP, US_VP | US_FP };
    struct token state = c->tok;
    if (!asm_next(c) || !asm_expect(c, '.'))
        return false;
    struct token item_tok = c->tok;
    int item = word_index(&item_tok, items);
    char buf[64];
    if (item < 0)
        return asm_error(c, &item_tok, "invalid state binding %s",
                         asm_describe(&item_tok, buf, sizeof buf));
    if (!(stages[item] & asm_stage_bit(c)))
        return asm_error(c, &item_tok, "state.%.*s is not available in %s programs",
                         (int)item_tok.len, item_tok.text, asm_stage_name(c));
    if (!asm_next(c))
        return false;
    if (item == 10)
        return parse_state_matrix(c, &state, pc, decl, count);
    struct us_param p = { .kind = US_PARAM_STATE };
    if (!parse_state_vector(c, item, &p.state))
        return false;
    return add_slot(c, &state, decl, p, count);
}

/*
 * paramSingleItemUse  ::= stateSingleItem | programSingleItem | paramConstUse
 * paramSingleItemDecl ::= stateSingleItem | programSingleItem | paramConstDecl
 * paramMultipleItem   ::= stateMultipleItem | programMultipleItem
 *                       | paramConstDecl
 * paramConstUse       ::= floatConstant | paramConstVector
 * paramConstDecl      ::= signedFloatConstant | paramConstVector
 * A scalar constant X binds (X, X, X, X).
 */
bool parse_param_binding(struct asm_ctx *c, enum param_ctx pc, int decl,
                         unsigned *count)
{
    *count = 0;
    struct token at = c->tok;
    if (asm_is_word(&at, "state"))
        return parse_state(c, pc, decl, count);
    if (asm_is_word(&at, "program"))
        return parse_program_param(c, pc, decl, count);
    struct us_param p = { .kind = US_PARAM_CONST };
    if (asm_is_punct(&at, '{')) {
        if (!parse_const_vector(c, p.value))
            return false;
        return add_slot(c, &at, decl, p, count);
    }
    bool is_signed = pc != PARAM_USE;
    if (at.kind == TOK_INT || at.kind == TOK_FLOAT ||
        (is_signed && (asm_is_punct(&at, '-') || asm_is_punct(&at, '+')))) {
        float v;
        if (!parse_float(c, is_signed, &v))
            return false;
        p.value[0] = p.value[1] = p.value[2] = p.value[3] = v;
        return add_slot(c, &at, decl, p, count);
    }
    char buf[64];
    return asm_error(c, &at, "expected a program parameter (state.*, "
                     "program.env/local or a constant), found %s",
                     asm_describe(&at, buf, sizeof buf));
}
