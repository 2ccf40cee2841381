/* The opcode table, expanded from ops.def. */
#include <string.h>

#include "ushader.h"

/* ops.def writes stage sets as VP | FP. */
#define VP US_VP
#define FP US_FP
#define EXT US_EXT
const struct us_opinfo us_ops[US_OP_COUNT] = {
#define OP(name, fmt, nsrc, unit, shape, stages) \
    [US_OP_##name] = { #name, US_FMT_##fmt, nsrc, US_UNIT_##unit, \
                       US_SHAPE_##shape, stages },
#include "ops.def"
#undef OP
};
#undef VP
#undef FP
#undef EXT

int us_op_lookup(const char *name, size_t len)
{
    for (int op = 0; op < US_OP_COUNT; op++)
        if (strlen(us_ops[op].name) == len && !memcmp(us_ops[op].name, name, len))
            return op;
    return -1;
}
