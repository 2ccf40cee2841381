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
    TOK_PUNCT,    /* one of ; , . [ ] { } = + -                         */
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

    uint32_t bound_inputs;                 /* vertex inputs bound anywhere */
    uint8_t tex_target[US_MAX_TEX_UNITS];  /* 0 = unused, else target + 1  */

    /* PARAM arrays accessed with relative addressing (decl indices). */
    uint16_t *rel_decls;
    unsigned nrel, cap_rel;

    struct us_diag *diag;
    bool failed;
};

static inline bool asm_is_vp(const struct asm_ctx *c)
{
    return c->stage == US_STAGE_VERTEX;
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

/* maskedDstReg: a TEMP or OUTPUT (named or result.*) and its write mask. */
US_MUST_CHECK bool parse_dst(struct asm_ctx *c, struct us_dst *dst);
/* An ADDRESS register name; *index. */
US_MUST_CHECK bool parse_addr_reg(struct asm_ctx *c, unsigned *index);
/* The only address component, ".x". */
US_MUST_CHECK bool parse_addr_x(struct asm_ctx *c);
/* srcReg without sign or suffix (SWZ's operand). */
US_MUST_CHECK bool parse_src_reg(struct asm_ctx *c, struct us_src *src);
/* A whole source operand: sign, register, swizzle (vector or scalar). */
US_MUST_CHECK bool parse_src(struct asm_ctx *c, enum src_form form,
                             struct us_src *src);
/* SWZ's four extended selectors, merged into src's swizzle and negation. */
US_MUST_CHECK bool parse_ext_swizzle(struct asm_ctx *c, struct us_src *src);
/* "texture[n], TARGET" of TEX/TXB/TXP, with the one-target-per-unit rule. */
US_MUST_CHECK bool parse_texture(struct asm_ctx *c, struct us_inst *inst);

/* --- parse.c ---------------------------------------------------------- */

/* "[" integer "]" with 0 <= integer < limit. */
US_MUST_CHECK bool parse_bracket_index(struct asm_ctx *c, unsigned limit,
                                       const char *what, unsigned *out);
/* integer with 0 <= integer < limit (current token). */
US_MUST_CHECK bool parse_index(struct asm_ctx *c, unsigned limit,
                               const char *what, unsigned *out);

#endif
