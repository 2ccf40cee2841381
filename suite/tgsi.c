/* Mesa's TGSI text, counted like our vec4 code (suite/tgsi.h).  TGSI
 * prints one instruction a line, "  N: [indent]OPCODE[_SAT] DST, SRC..."
 * (tgsi_dump.c), the destination's write mask after its last ']' and
 * flow targets as " :N"; only the opcode and the destination (the first
 * source for KILL_IF) are read here. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "suite/tgsi.h"

enum kind { K_COMP, K_DOT2, K_DOT3, K_DOT4, K_ONE, K_KILL, K_TEX, K_FLOW };

/* The opcodes that do not compute one value per written component; every
 * other opcode does (Mesa's TGSI_OUTPUT_COMPONENTWISE). */
static const struct { const char *name; enum kind kind; } opcodes[] = {
    { "DP2", K_DOT2 }, { "DP3", K_DOT3 }, { "DP4", K_DOT4 },
    { "DPH", K_DOT4 },
    /* TGSI_OUTPUT_REPLICATE: one value, however many components get it */
    { "RCP", K_ONE }, { "RSQ", K_ONE }, { "SQRT", K_ONE }, { "EX2", K_ONE },
    { "LG2", K_ONE }, { "POW", K_ONE }, { "SIN", K_ONE }, { "COS", K_ONE },
    /* the address register: one component, as our ARL */
    { "ARL", K_ONE }, { "UARL", K_ONE }, { "ARR", K_ONE },
    { "KILL_IF", K_KILL },
    { "TEX", K_TEX }, { "TXP", K_TEX }, { "TXB", K_TEX }, { "TXL", K_TEX },
    { "TXD", K_TEX }, { "TXF", K_TEX }, { "TXQ", K_TEX }, { "TXQS", K_TEX },
    { "TG4", K_TEX }, { "LODQ", K_TEX }, { "TEX2", K_TEX },
    { "TXB2", K_TEX }, { "TXL2", K_TEX }, { "TEX_LZ", K_TEX },
    { "TXF_LZ", K_TEX }, { "SAMPLE", K_TEX }, { "SAMPLE_B", K_TEX },
    { "SAMPLE_C", K_TEX }, { "SAMPLE_C_LZ", K_TEX }, { "SAMPLE_D", K_TEX },
    { "SAMPLE_L", K_TEX }, { "SAMPLE_I", K_TEX }, { "SAMPLE_I_MS", K_TEX },
    { "GATHER4", K_TEX }, { "SVIEWINFO", K_TEX },
    /* no ALU work and no issue slot, as our flow instructions */
    { "IF", K_FLOW }, { "UIF", K_FLOW }, { "ELSE", K_FLOW },
    { "ENDIF", K_FLOW }, { "BGNLOOP", K_FLOW }, { "ENDLOOP", K_FLOW },
    { "BRK", K_FLOW }, { "CONT", K_FLOW }, { "KILL", K_FLOW },
    { "RET", K_FLOW }, { "CAL", K_FLOW }, { "BGNSUB", K_FLOW },
    { "ENDSUB", K_FLOW }, { "NOP", K_FLOW }, { "SWITCH", K_FLOW },
    { "CASE", K_FLOW }, { "DEFAULT", K_FLOW }, { "ENDSWITCH", K_FLOW },
};

static enum kind kind_of(const char *op, size_t n)
{
    for (size_t i = 0; i < sizeof opcodes / sizeof opcodes[0]; i++)
        if (strlen(opcodes[i].name) == n && !memcmp(opcodes[i].name, op, n))
            return opcodes[i].kind;
    return K_COMP;
}

static bool fail(struct us_diag *diag, unsigned line, unsigned col,
                 const char *what)
{
    diag->line = line;
    diag->col = col;
    snprintf(diag->msg, sizeof diag->msg, "%s", what);
    return false;
}

/* The selectors after operand [p, end)'s last ']' ("TEMP[0].xy", ".x"):
 * *n of them in sel[], 0 when it has none. */
static void selectors(const char *p, const char *end, char sel[4],
                      unsigned *n)
{
    const char *q = end;
    while (q > p && q[-1] != ']')
        q--;
    *n = 0;
    if (q == p || q == end || *q != '.')
        return;
    for (q++; q < end && *n < 4 && *q && strchr("xyzw", *q); q++)
        sel[(*n)++] = *q;
}

/* Components one KILL_IF tests: its source's distinct selectors (with
 * their sign: -x and x are two tests), as us_inst_width counts KIL. */
static unsigned kill_width(const char *p, const char *end)
{
    while (p < end && isspace((unsigned char)*p))
        p++;
    bool neg = p < end && *p == '-';
    char sel[4];
    unsigned n, seen = 0, w = 0;
    selectors(p, end, sel, &n);
    if (n == 0)
        return 4;
    for (unsigned c = 0; c < 4; c++) {
        unsigned key = 1u << ((unsigned)(strchr("xyzw", sel[c < n ? c : n - 1])
                                          - "xyzw") + 4 * neg);
        w += !(seen & key);
        seen |= key;
    }
    return w;
}

/* One instruction: `p` at its opcode, `end` the end of its line. */
static bool count_inst(const char *p, const char *end, unsigned line,
                       unsigned col, struct us_tgsi_stats *st,
                       struct us_diag *diag)
{
    const char *op = p;
    while (p < end && (isupper((unsigned char)*p) || isdigit((unsigned char)*p) ||
                       *p == '_'))
        p++;
    size_t n = (size_t)(p - op);
    if (n == 0)
        return fail(diag, line, col, "TGSI: an instruction without an opcode");
    if (n == 3 && !memcmp(op, "END", 3))
        return true;
    if (n > 4 && !memcmp(op + n - 4, "_SAT", 4) && kind_of(op, n) == K_COMP)
        n -= 4;   /* the saturate modifier (MOV_SAT) */
    enum kind k = kind_of(op, n);
    st->instructions++;
    if (k == K_FLOW) {
        st->loops += n == 7 && !memcmp(op, "BGNLOOP", 7);
        st->width_hist[0]++;
        return true;
    }
    /* the first operand: the destination, KILL_IF's source */
    const char *a = p;
    while (a < end && isspace((unsigned char)*a))
        a++;
    const char *b = a;
    while (b < end && *b != ',')
        b++;
    while (b > a && isspace((unsigned char)b[-1]))
        b--;
    if (a == b)
        return fail(diag, line, col + (unsigned)(a - op),
                    "TGSI: an instruction without a destination");
    unsigned w;
    char sel[4];
    unsigned nsel;
    selectors(a, b, sel, &nsel);
    switch (k) {
    case K_DOT2: w = 2; break;
    case K_DOT3: w = 3; break;
    case K_DOT4: w = 4; break;
    case K_ONE: w = 1; break;
    case K_KILL: w = kill_width(a, b); break;
    default: w = nsel ? nsel : 4; break;   /* the write mask; none: all */
    }
    st->issued++;
    if (k == K_TEX) {
        st->tex++;
        st->width_hist[0]++;
        return true;
    }
    st->width_hist[w]++;
    st->ops += w;
    return true;
}

bool us_tgsi_stats(const char *text, size_t len, struct us_tgsi_stats *st,
                   struct us_diag *diag)
{
    memset(st, 0, sizeof *st);
    const char *p = text, *end = text + len;
    for (unsigned line = 1; p < end; line++) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        const char *q = p;
        while (q < eol && (*q == ' ' || *q == '\t'))
            q++;
        const char *num = q;
        while (q < eol && isdigit((unsigned char)*q))
            q++;
        if (q > num && q < eol && *q == ':') {   /* "N: OPCODE ..." */
            for (q++; q < eol && (*q == ' ' || *q == '\t'); q++)
                ;
            if (!count_inst(q, eol, line, (unsigned)(q - p) + 1, st, diag))
                return false;
        }
        p = eol + (eol < end);
    }
    return true;
}

/* Is [p, eol) a line of TGSI text (a declaration, an immediate, a
 * property or a numbered instruction)? */
static bool tgsi_line(const char *p, const char *eol)
{
    static const char *const heads[] = { "DCL ", "IMM[", "PROPERTY " };
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++) {
        size_t n = strlen(heads[i]);
        if ((size_t)(eol - p) >= n && !memcmp(p, heads[i], n))
            return true;
    }
    while (p < eol && *p == ' ')
        p++;
    const char *num = p;
    while (p < eol && isdigit((unsigned char)*p))
        p++;
    return p > num && p < eol && *p == ':';
}

bool us_tgsi_block(const char *log, size_t len, const char *kind,
                   const char **start, size_t *n)
{
    size_t k = strlen(kind);
    const char *p = log, *end = log + len;
    bool found = false;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        const char *e = eol;
        while (e > p && (e[-1] == ' ' || e[-1] == '\r'))
            e--;
        if ((size_t)(e - p) == k && !memcmp(p, kind, k)) {
            /* a header: its block runs while the lines are TGSI */
            const char *q = eol + (eol < end), *last = q;
            bool inst = false;
            while (q < end) {
                const char *qe = memchr(q, '\n', (size_t)(end - q));
                if (!qe)
                    qe = end;
                if (!tgsi_line(q, qe))
                    break;
                inst |= q[0] == ' ' || isdigit((unsigned char)q[0]);
                q = qe + (qe < end);
                last = q;
            }
            if (inst) {
                *start = p;
                *n = (size_t)(last - p);
                found = true;
            }
            p = last > p ? last : eol + (eol < end);
            continue;
        }
        p = eol + (eol < end);
    }
    return found;
}
