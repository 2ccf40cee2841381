/*
 * Tokens of the ARB program languages (ARB_vertex_program 2.14.2,
 * ARB_fragment_program 3.11.2): identifiers, integers (decimal, and 0x
 * hexadecimal for integer instructions), floating-point constants and
 * punctuation.  Spaces, tabs, CR, LF and comments ("#" to
 * the end of the line, a CR or the end of the text) separate tokens.  The
 * text is a byte array with a length: NUL bytes are just bad characters.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm_internal.h"

static bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }

static bool is_ident_start(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
           ch == '_' || ch == '$';
}

static bool is_ident_char(char ch) { return is_ident_start(ch) || is_digit(ch); }

static bool is_hex(char ch)
{
    return is_digit(ch) || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
}

/* "0x" and at least one hex digit: an integer constant. */
static size_t hex_length(const char *p, size_t avail)
{
    if (avail < 3 || p[0] != '0' || (p[1] != 'x' && p[1] != 'X') ||
        !is_hex(p[2]))
        return 0;
    size_t n = 2;
    while (n < avail && is_hex(p[n]))
        n++;
    return n;
}

static bool token_is_hex(const struct token *t)
{
    return t->len > 2 && (t->text[1] == 'x' || t->text[1] == 'X');
}

/* Skip whitespace and comments. */
static void skip_space(const struct asm_ctx *c, struct lex_cursor *k)
{
    while (k->pos < c->len) {
        char ch = c->text[k->pos];
        if (ch == '\n') {
            k->line++;
            k->col = 1;
            k->pos++;
        } else if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' ||
                   ch == '\v') {
            k->col++;
            k->pos++;
        } else if (ch == '#') {
            while (k->pos < c->len && c->text[k->pos] != '\n' &&
                   c->text[k->pos] != '\r') {
                k->pos++;
                k->col++;
            }
        } else {
            return;
        }
    }
}

/* Length of the number at `p`: digits [. digits] [(e|E) [+-] digits],
 * with either the integer or the fraction part present.  A '.' followed
 * by another '.' is a range (a..b), not a decimal point. */
static size_t number_length(const char *p, size_t avail, bool *is_float)
{
    size_t n = 0;
    *is_float = false;
    while (n < avail && is_digit(p[n]))
        n++;
    if (n < avail && p[n] == '.' && !(n + 1 < avail && p[n + 1] == '.')) {
        *is_float = true;
        n++;
        while (n < avail && is_digit(p[n]))
            n++;
    }
    if (n < avail && (p[n] == 'e' || p[n] == 'E')) {
        size_t e = n + 1;
        if (e < avail && (p[e] == '+' || p[e] == '-'))
            e++;
        if (e < avail && is_digit(p[e])) {
            while (e < avail && is_digit(p[e]))
                e++;
            *is_float = true;
            n = e;
        }
    }
    return n;
}

/* Scan one token at cursor `k`, advancing it. */
static struct token scan(const struct asm_ctx *c, struct lex_cursor *k)
{
    skip_space(c, k);
    struct token t = { TOK_EOF, c->text + k->pos, 0, k->line, k->col };
    if (k->pos >= c->len)
        return t;
    const char *p = c->text + k->pos;
    size_t avail = c->len - k->pos;
    if (is_ident_start(p[0])) {
        t.kind = TOK_IDENT;
        while (t.len < avail && is_ident_char(p[t.len]))
            t.len++;
    } else if ((t.len = hex_length(p, avail)) > 0) {
        t.kind = TOK_INT;
    } else if (is_digit(p[0]) || (p[0] == '.' && avail > 1 && is_digit(p[1]))) {
        bool is_float;
        t.len = number_length(p, avail, &is_float);
        t.kind = is_float ? TOK_FLOAT : TOK_INT;
    } else if (p[0] == '.' && avail > 1 && p[1] == '.') {
        t.kind = TOK_DOTDOT;
        t.len = 2;
    } else if (p[0] != '\0' && strchr(";,.[]{}=+-:|", p[0])) {
        t.kind = TOK_PUNCT;
        t.len = 1;
    } else {
        t.kind = TOK_BAD;
        t.len = 1;
    }
    k->pos += t.len;
    k->col += (unsigned)t.len;
    return t;
}

bool asm_next(struct asm_ctx *c)
{
    c->tok = scan(c, &c->cur);
    if (c->tok.kind != TOK_BAD)
        return true;
    unsigned char ch = (unsigned char)c->tok.text[0];
    if (ch >= 0x20 && ch < 0x7f)
        return asm_error(c, &c->tok, "unexpected character '%c'", ch);
    return asm_error(c, &c->tok, "unexpected byte 0x%02x", ch);
}

struct token asm_peek(const struct asm_ctx *c)
{
    struct lex_cursor k = c->cur;
    return scan(c, &k);
}

bool asm_is_punct(const struct token *t, char ch)
{
    return t->kind == TOK_PUNCT && t->text[0] == ch;
}

bool asm_is_word(const struct token *t, const char *word)
{
    return t->kind == TOK_IDENT && strlen(word) == t->len &&
           !memcmp(t->text, word, t->len);
}

const char *asm_describe(const struct token *t, char *buf, size_t size)
{
    if (t->kind == TOK_EOF)
        return "end of file";
    if (t->kind == TOK_BAD)
        return "a bad character";
    int n = t->len > 40 ? 40 : (int)t->len;
    snprintf(buf, size, "'%.*s%s'", n, t->text, t->len > 40 ? "..." : "");
    return buf;
}

bool asm_expect(struct asm_ctx *c, char ch)
{
    if (!asm_is_punct(&c->tok, ch)) {
        char buf[64];
        return asm_error(c, &c->tok, "expected '%c', found %s", ch,
                         asm_describe(&c->tok, buf, sizeof buf));
    }
    return asm_next(c);
}

bool asm_expect_word(struct asm_ctx *c, const char *word)
{
    if (!asm_is_word(&c->tok, word)) {
        char buf[64];
        return asm_error(c, &c->tok, "expected '%s', found %s", word,
                         asm_describe(&c->tok, buf, sizeof buf));
    }
    return asm_next(c);
}

bool asm_error(struct asm_ctx *c, const struct token *t, const char *fmt, ...)
{
    if (c->failed)
        return false;
    c->failed = true;
    c->diag->line = t ? t->line : 0;
    c->diag->col = t ? t->col : 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->diag->msg, sizeof c->diag->msg, fmt, ap);
    va_end(ap);
    return false;
}

uint32_t asm_int_value(const struct token *t)
{
    uint32_t v = 0;
    if (token_is_hex(t)) {
        for (size_t i = 2; i < t->len; i++) {
            char ch = t->text[i];
            unsigned d = is_digit(ch) ? (unsigned)(ch - '0')
                       : (unsigned)((ch | 0x20) - 'a' + 10);
            if (v > (UINT32_MAX >> 4))
                return UINT32_MAX;
            v = v << 4 | d;
        }
        return v;
    }
    for (size_t i = 0; i < t->len; i++) {
        unsigned d = (unsigned)(t->text[i] - '0');
        if (v > (UINT32_MAX - d) / 10)
            return UINT32_MAX;
        v = v * 10 + d;
    }
    return v;
}

bool asm_int_literal(struct asm_ctx *c, const struct token *t, uint32_t *out)
{
    char buf[64];
    if (t->kind != TOK_INT)
        return asm_error(c, t, "expected an integer constant, found %s",
                         asm_describe(t, buf, sizeof buf));
    uint32_t v = asm_int_value(t);
    /* UINT32_MAX is also the saturated value: tell them apart */
    size_t digits = token_is_hex(t) ? t->len - 2 : t->len;
    const char *d = token_is_hex(t) ? t->text + 2 : t->text;
    while (digits > 1 && *d == '0') {
        d++;
        digits--;
    }
    bool big = v == UINT32_MAX &&
               (token_is_hex(t) ? digits > 8
                                : (digits > 10 ||
                                   (digits == 10 &&
                                    memcmp(d, "4294967295", 10) > 0)));
    if (big)
        return asm_error(c, t, "integer constant %s does not fit in 32 bits",
                         asm_describe(t, buf, sizeof buf));
    *out = v;
    return true;
}

bool asm_float_value(struct asm_ctx *c, const struct token *t, float *out)
{
    if (t->kind == TOK_INT && token_is_hex(t))
        return asm_error(c, t, "hexadecimal constants are integers: only "
                         "integer instructions take them");
    char small[64];
    char *buf = small;
    if (t->len >= sizeof small) {
        buf = malloc(t->len + 1);
        if (!buf)
            return asm_error(c, t, "out of memory");
    }
    memcpy(buf, t->text, t->len);
    buf[t->len] = '\0';
    float v = strtof(buf, NULL);
    bool overflow = isinf(v);
    if (buf != small)
        free(buf);
    if (overflow)
        return asm_error(c, t, "floating-point constant does not fit in 32 bits");
    *out = v;
    return true;
}
