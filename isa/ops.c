/* The opcode table, expanded from ops.def. */
#include <string.h>

#include "ushader.h"

/* ops.def writes stage sets as VP | FP. */
#define VP US_VP
#define FP US_FP
#define EXT US_EXT
#define CP US_CP
#define I_SRC US_I_SRC
#define I_DST US_I_DST
#define SIGNLESS US_SIGNLESS
#define I_MUL US_I_MUL
#define QUAD US_QUAD
const struct us_opinfo us_ops[US_OP_COUNT] = {
#define OP(name, text, fmt, nsrc, unit, shape, stages, flags) \
    [US_OP_##name] = { text, US_FMT_##fmt, nsrc, US_UNIT_##unit, \
                       US_SHAPE_##shape, stages, flags },
#include "ops.def"
#undef OP
};
#undef VP
#undef FP
#undef EXT
#undef CP
#undef I_SRC
#undef I_DST
#undef SIGNLESS
#undef I_MUL
#undef QUAD

const char *const us_mtype_names[US_MT_COUNT] = {
    "U8", "S8", "U16", "S16", "U32", "S32"
};
const char *const us_atom_names[US_ATOM_COUNT] = {
    "ADD", "MIN", "MAX", "AND", "OR", "XOR", "EXCH", "CSWAP"
};
const char *const us_cond_names[US_COND_COUNT] = {
    "", "EQ.U", "NE.U", "LT.S", "LE.S", "GT.S", "GE.S", "LT.U", "LE.U",
    "GT.U", "GE.U"
};

static int exact(const char *name, size_t len)
{
    for (int op = 0; op < US_OP_COUNT; op++)
        if (strlen(us_ops[op].name) == len && !memcmp(us_ops[op].name, name, len))
            return op;
    return -1;
}

int us_op_lookup(const char *name, size_t len)
{
    int op = exact(name, len);
    if (op >= 0 || len > 31)
        return op;
    /* "X.S..." for a SIGNLESS "X.U...": the type is the first modifier */
    const char *dot = memchr(name, '.', len);
    if (!dot || dot + 1 == name + len || (dot[1] != 'S' && dot[1] != 'U'))
        return -1;
    char other[32];
    memcpy(other, name, len);
    other[dot + 1 - name] = dot[1] == 'S' ? 'U' : 'S';
    op = exact(other, len);
    return op >= 0 && (us_ops[op].flags & US_SIGNLESS) ? op : -1;
}

bool us_op_preshader(unsigned op)
{
    if (op >= US_OP_COUNT)
        return false;
    const struct us_opinfo *o = &us_ops[op];
    return o->unit == US_UNIT_ALU &&
           (o->format == US_FMT_VEC || o->format == US_FMT_SWZ) &&
           !(o->flags & (US_I_SRC | US_I_DST | US_QUAD));
}
