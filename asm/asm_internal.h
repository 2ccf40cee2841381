/*
 * Internals of the ARB_vertex_program / ARB_fragment_program 1.0 assembler.
 *
 * The assembler is a hand-written recursive-descent parser over a token
 * stream (lex.c).  One struct asm_ctx carries everything: the lexer cursor,
 * the program being built, the symbol table and the per-program semantic
 * state.  Every parse_* function returns false after recording the first
 * error in ctx->diag; callers simply propagate false.
 */
#ifndef ASM_INTERNAL_H
#define ASM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ushader.h"

/* Implementation limits that the public header does not name. */
enum {
    /* us_param.decl is an int16_t, so declaration indices must fit. */
    ASM_MAX_DECLS = INT16_MAX,
    /* Names, aliases included: bounds the symbol table's memory. */
    ASM_MAX_NAMES = 2 * ASM_MAX_DECLS,
    /* MAX_VERTEX_UNITS_ARB: one modelview matrix, no vertex blending
     * (struct us_glstate holds a single modelview matrix). */
    ASM_MAX_VERTEX_UNITS = 1,
    /* Generic vertex attributes (vertex.attrib[0..15]). */
    ASM_MAX_VERTEX_ATTRIBS = US_VIN_POSITION,
};

enum tok_kind {
    TOK_EOF,
    TOK_IDENT,    /* letters, digits, '_', '$'; not starting with a digit */
    TOK_INT,      /* digits only                                        */
    TOK_FLOAT,    /* a number with a '.' or an exponent                 */
    TOK_DOTDOT,   /* ".." in ranges                                     */
    TOK_PUNCT,    /* one of ; , . [ ] { } = + - : |                     */
    TOK_BAD,      /* a byte that starts no token                        */
};

struct token {
    enum tok_kind kind;
    const char *text;     /* points into the source */
    size_t len;
    unsigned line, col;   /* 1-based */
};

/* Where the lexer stands; copied to look ahead. */
struct lex_cursor {
    size_t pos;
    unsigned line, col;
};

/* A label (compute programs' BRA targets) and a BRA waiting for one. */
struct asm_label {
    struct token name;
    unsigned pc;           /* the instruction it names                   */
};
struct asm_fixup {
    struct token name;     /* where the BRA names it                     */
    unsigned inst;
};

struct asm_sym {
    const char *name;     /* points into the source; NULL = empty slot */
    size_t len;
    int decl;             /* index into prog.decls                      */
};

struct asm_ctx {
    const char *text;
    size_t len;
    struct lex_cursor cur;   /* just past `tok`                          */
    struct token tok;        /* current token                            */

    enum us_stage stage;
    struct us_program prog;
    unsigned cap_insts, cap_params, cap_decls;

    /* Names (declarations and aliases): open addressing, power-of-2 size. */
    struct asm_sym *syms;
    unsigned nsyms, cap_syms;

    /* Limits after the options' reservations (e.g. fog needs temps). */
    unsigned max_insts, max_temps, max_params;
    int last_param;             /* slot asm_add_param gave last        */

    uint64_t bound_inputs;                 /* inputs bound anywhere (bit per slot) */
    uint8_t tex_target[US_MAX_TEX_UNITS];  /* 0 = unused, else target + 1  */

    /* PARAM arrays accessed with relative addressing (decl indices). */
    uint16_t *rel_decls;
    unsigned nrel, cap_rel;

    /* Labels and the BRAs that name them (asm/compute.c). */
    struct asm_label *labels;
    unsigned nlabels, cap_labels;
    struct asm_fixup *fixups;
    unsigned nfixups, cap_fixups;
    bool declared_group, declared_shared;

    /* Constants in the operands being parsed are integers (an I_SRC
     * instruction's, docs/COMPUTE.md). */
    bool int_literals;
    struct token mnemonic;      /* of the instruction being parsed        */
    /* Inside the PRESHADER block (parse.c): its instructions' registers
     * are program.pre[n] (operands.c), counted in prog.npre_temps. */
    bool in_pre;
    bool had_pre;                /* one block per program                 */
    unsigned pre_first;          /* its first instruction in prog.insts   */
    bool joined;                /* the next instruction follows a "|"     */

    struct us_diag *diag;
    bool failed;
};

static inline bool asm_is_vp(const struct asm_ctx *c)
{
    return c->stage == US_STAGE_VERTEX;
}

static inline bool asm_is_fp(const struct asm_ctx *c)
{
    return c->stage == US_STAGE_FRAGMENT;
}

static inline bool asm_is_cp(const struct asm_ctx *c)
{
    return c->stage == US_STAGE_COMPUTE;
}

/* "vertex", "fragment" or "compute". */
static inline const char *asm_stage_name(const struct asm_ctx *c)
{
    return asm_is_vp(c) ? "vertex" : asm_is_fp(c) ? "fragment" : "compute";
}

/* The opcode-table stage bit of the program. */
static inline uint8_t asm_stage_bit(const struct asm_ctx *c)
{
    return asm_is_vp(c) ? US_VP : asm_is_fp(c) ? US_FP : US_CP;
}

/* --- lex.c ------------------------------------------------------------ */

/* Advance to the next token; false (with a diagnostic) on a bad byte. */
US_MUST_CHECK bool asm_next(struct asm_ctx *c);
/* The token after the current one, without consuming anything. */
struct token asm_peek(const struct asm_ctx *c);

bool asm_is_punct(const struct token *t, char ch);
bool asm_is_word(const struct token *t, const char *word);
/* Consume punctuation `ch` or fail with "expected 'ch'". */
US_MUST_CHECK bool asm_expect(struct asm_ctx *c, char ch);
/* Consume the identifier `word` or fail. */
US_MUST_CHECK bool asm_expect_word(struct asm_ctx *c, const char *word);

/* Record an error at token `t` (only the first error is kept); returns
 * false so callers can `return asm_error(...)`. */
bool asm_error(struct asm_ctx *c, const struct token *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A token as messages show it ('foo', end of file, ...), written into buf. */
const char *asm_describe(const struct token *t, char *buf, size_t size);

/* Integer token value, saturated at UINT32_MAX. */
uint32_t asm_int_value(const struct token *t);
/* The 32-bit value of an integer constant (decimal or 0x hexadecimal);
 * false when the token is not an integer or does not fit 32 bits. */
US_MUST_CHECK bool asm_int_literal(struct asm_ctx *c, const struct token *t,
                                   uint32_t *out);
/* Float value of an INT or FLOAT token as the nearest binary32; false
 * when it overflows binary32 or memory runs out. */
US_MUST_CHECK bool asm_float_value(struct asm_ctx *c, const struct token *t,
                                   float *out);

/* --- symbols.c -------------------------------------------------------- */

/* Declaration index of a name, or -1. */
int asm_sym_find(const struct asm_ctx *c, const char *name, size_t len);
/* Declaration the identifier `at` names, or -1 after reporting "expected
 * <what>, found ..." (not an identifier) or "undeclared identifier". */
int asm_sym_lookup(struct asm_ctx *c, const struct token *at,
                   const char *what);
/* Bind a new name to declaration `decl` (the caller checked it is new). */
US_MUST_CHECK bool asm_sym_add(struct asm_ctx *c, const struct token *name,
                               int decl);
/* Is `t` a reserved keyword of the program's language? */
bool asm_is_reserved(const struct asm_ctx *c, const struct token *t);

/* Append a declaration named by `name`; returns its index or -1. */
int asm_add_decl(struct asm_ctx *c, const struct token *name,
                 enum us_decl_kind kind, unsigned base, unsigned size,
                 bool array);
/* Append a parameter slot; returns its index or -1 (limit / memory). */
int asm_add_param(struct asm_ctx *c, const struct token *at,
                  const struct us_param *p);
/* Grow *arr (capacity *cap) to hold n + 1 elements of `size` bytes. */
US_MUST_CHECK bool asm_grow(void **arr, unsigned *cap, unsigned n,
                            size_t size);
/* Append an instruction; NULL when over the limit or out of memory. */
struct us_inst *asm_add_inst(struct asm_ctx *c, const struct token *at);
/* Remember that array `decl` is read with relative addressing and check
 * ARB_vertex_program 2.14.3.2: no GL state vector may be bound twice in
 * such arrays. */
US_MUST_CHECK bool asm_mark_relative(struct asm_ctx *c, const struct token *at,
                                     int decl);
void asm_ctx_free(struct asm_ctx *c);

/* --- bindings.c ------------------------------------------------------- */

/* Which PARAM initializers a context allows (section 2.14.3.2 / 3.11.3.2). */
enum param_ctx {
    PARAM_USE,      /* operand in an instruction: paramSingleItemUse     */
    PARAM_SINGLE,   /* PARAM x = ...: paramSingleItemDecl                */
    PARAM_MULTI,    /* PARAM x[] = { ... }: paramMultipleItem            */
};

/* vertex.* / fragment.* (current token is the keyword); *slot = input. */
US_MUST_CHECK bool parse_attrib_binding(struct asm_ctx *c, unsigned *slot);
/* result.* (current token is "result"); *slot = output. */
US_MUST_CHECK bool parse_result_binding(struct asm_ctx *c, unsigned *slot);
/* A parameter binding appended as slots owned by `decl` (-1 in place);
 * *count = slots appended. */
US_MUST_CHECK bool parse_param_binding(struct asm_ctx *c, enum param_ctx pc,
                                       int decl, unsigned *count);
/* Record a vertex input binding and reject conventional/generic pairs
 * (ARB_vertex_program Table X.2.1). */
US_MUST_CHECK bool asm_bind_input(struct asm_ctx *c, const struct token *at,
                                  unsigned slot);

/* --- operands.c ------------------------------------------------------- */

enum src_form { SRC_VECTOR, SRC_SCALAR };

/* optionalMask: "." mask in xyzw order, or nothing (all four). */
US_MUST_CHECK bool parse_mask(struct asm_ctx *c, uint8_t *mask);
/* maskedDstReg: a TEMP or OUTPUT (named or result.*) and its write mask. */
US_MUST_CHECK bool parse_dst(struct asm_ctx *c, struct us_dst *dst);
/* An ADDRESS register name; *index. */
US_MUST_CHECK bool parse_addr_reg(struct asm_ctx *c, unsigned *index);
/* The only address component, ".x". */
US_MUST_CHECK bool parse_addr_x(struct asm_ctx *c);
/* In a PRESHADER block: is the operand at the current token
 * program.pre[n]?  Then *index = n (the tokens consumed). */
US_MUST_CHECK bool parse_pre_reg(struct asm_ctx *c, bool *is_pre,
                                 unsigned *index);
/* srcReg without sign or suffix (SWZ's operand). */
US_MUST_CHECK bool parse_src_reg(struct asm_ctx *c, struct us_src *src);
/* A whole source operand: sign, register, swizzle (vector or scalar). */
US_MUST_CHECK bool parse_src(struct asm_ctx *c, enum src_form form,
                             struct us_src *src);
/* SWZ's four extended selectors, merged into src's swizzle and negation. */
US_MUST_CHECK bool parse_ext_swizzle(struct asm_ctx *c, struct us_src *src);
/* "texture[n], TARGET" of TEX/TXB/TXP, with the one-target-per-unit rule. */
US_MUST_CHECK bool parse_texture(struct asm_ctx *c, struct us_inst *inst);

/* --- compute.c -------------------------------------------------------- */

/* GROUP_SIZE x [y [z]] and SHARED_MEMORY n (compute programs; current
 * token is the keyword). */
US_MUST_CHECK bool asm_parse_group_size(struct asm_ctx *c);
US_MUST_CHECK bool asm_parse_shared_memory(struct asm_ctx *c);
/* "name" ":" before an instruction: the label of the next one. */
US_MUST_CHECK bool asm_parse_label(struct asm_ctx *c);
/* The operands (and modifiers, mods[0..nmods)) of a LOAD, STORE, ATOM,
 * BAR or BRA format instruction. */
US_MUST_CHECK bool asm_parse_compute_inst(struct asm_ctx *c,
                                          struct us_inst *inst,
                                          const struct token *mods,
                                          unsigned nmods);
/* At END: every BRA's target from its label. */
US_MUST_CHECK bool asm_resolve_labels(struct asm_ctx *c);
/* "invocation" "." item (current token is "invocation"); *slot. */
US_MUST_CHECK bool parse_invocation_binding(struct asm_ctx *c, unsigned *slot);

/* --- parse.c ---------------------------------------------------------- */

/* "[" integer "]" with 0 <= integer < limit. */
US_MUST_CHECK bool parse_bracket_index(struct asm_ctx *c, unsigned limit,
                                       const char *what, unsigned *out);
/* integer with 0 <= integer < limit (current token). */
US_MUST_CHECK bool parse_index(struct asm_ctx *c, unsigned limit,
                               const char *what, unsigned *out);

#endif
