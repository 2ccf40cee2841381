/*
 * The scalar stream processor's instruction set (SPEC section 1), its
 * binary encoding, the lowering of vec4 IR into it, instruction compaction,
 * and the instruction-memory encodings of the baselines (SPEC section 2).
 *
 * ---- Scalar register-file view -------------------------------------------
 *
 * Every vec4 register file is also a file of scalar registers: vec4
 * register n, component c (x y z w = 0 1 2 3) is scalar register 4n + c of
 * the same file.  Files (the FILE field, numbered as enum us_file):
 *
 *   TEMP 1     r   4 * US_MAX_TEMPS scalars
 *   INPUT 2    v   vertex.* / fragment.* (enum us_vin / us_fin)
 *   OUTPUT 3   o   result.* (enum us_vout / us_fout); readable
 *   PARAM 4    c   the program's parameter slots (read-only)
 *   ADDRESS 5  a   ADDRESS registers (ARL destination, LDR index)
 *   IMM 6      k   a constant ROM: k0 = (0, 1, 0, 1) (SWZ's 0 and 1,
 *                  the constants of DST, LIT, EXP, LOG, LRP, CMP)
 *   SCRATCH 7  s   US_SCRATCH_REGS scalar temporaries beyond the program's
 *                  TEMPs, used by the lowering only within one vec4
 *                  instruction (aliasing, relative reads, partial results)
 *
 * ---- Repeat counter and per-operand offsets ------------------------------
 *
 * An instruction executes CNT+1 times (repetitions k = 0..CNT, one per
 * cycle, in order; each repetition sees the writes of the previous ones).
 * Every operand (destination and each source) names a base scalar register
 * 4n + c0 and a 2-bit STEP s; repetition k uses scalar register
 *
 *     4n + ((c0 + k * s) mod 4)          or, for a source with ROT set,
 *     4n + ((c0 + k * s) mod 3)          (c0 < 3, s = 1 or 2: rotation
 *                                         within x y z, the cross-product
 *                                         swizzles .yzx and .zxy)
 *
 * i.e. the offset is added to the component bits only (a 2-bit adder, no
 * carry into the vec4 register number).  With one repetition every STEP and
 * ROT is 0.  Three operations use the repetitions differently:
 *
 *   - DOT: repetition 0 is MUL, later ones MAD with the destination (STEP
 *     0) as accumulator: a dot product is one instruction;
 *   - SFU operations (RCP RSQ EX2 LG2 SIN COS POW LITZ) read their sources
 *     (STEP 0) and compute once, at repetition 0; every repetition writes
 *     the latched result, so a replicated scalar result (RCP r0.xyz) is one
 *     instruction and is still computed once;
 *   - TEX TXB TXP sample once, at repetition 0, with the coordinate taken
 *     from the four registers k = 0..3 of the source formula; repetition k
 *     writes the texel component that its destination register names.
 *
 * What the offsets express:
 *
 *   - every write mask: 1 component (any), 2 components (step = their
 *     distance), 3 components (step 1 starting after the missing one:
 *     .xyw runs w, x, y), 4 components (step 1 or 3 from any start);
 *   - a source swizzle whenever the components it supplies, in the order
 *     the destination is written, form an arithmetic progression mod 4
 *     (identity, replication .xxxx with step 0, rotations .yzwx, reversal
 *     .wzyx, .xzxz; any swizzle of a 1- or 2-component operation) or, over
 *     at most three components, a rotation of x y z (.yzx, .zxy, .zyx);
 *   - SWZ's constants: k0 = (0, 1, 0, 1) with step 0, 1 or 2.
 *
 * What it cannot express, and what the lowering does then:
 *
 *   - a swizzle that is no progression in any order the write mask allows
 *     (.xxyy or .yzxw on four components, .xxzx): the components are
 *     split into several instructions (compaction merges the longest runs
 *     it can; the lowering picks the component order that needs the
 *     fewest);
 *   - negation that differs between components (SWZ r0, r1, x, -y, z, w),
 *     or SWZ mixing register and constant components: split likewise;
 *   - relative addressing: LDR loads the components into SCRATCH (or
 *     straight into a MOV's destination) and the operation reads SCRATCH;
 *   - a texture coordinate swizzle that is no progression over all four
 *     components: MOVs gather the coordinate in SCRATCH first.
 *
 * ---- Compute: integers, memory, barriers, branches ------------------------
 *
 * Every vec4 compute opcode (docs/COMPUTE.md) lowers to one scalar opcode
 * per component operation:
 *
 *   INT   integer ALU operations (ADD_U ... TRUNC_U, printed ADD.U ...):
 *         a b c are the sources' 32 bits (NEG is two's-complement
 *         negation for the opcodes whose vec4 opcode reads integers,
 *         isa/ops.def I_SRC; TRUNC reads a float), the result is the
 *         isa/micro_int.h function at the program's word width (the WORD
 *         field), written as bits (I_DST) or as a float (I2F, which may
 *         saturate).  BFE reads bits, offset and the value as three
 *         sources; BFI needs four, so the lowering first packs bits and
 *         offset into one SCRATCH register with the helper BFM
 *         (min(bits, 32) | min(offset, 32) << 8: micro_bfi gives the same
 *         field for the clamped values) and BFI reads it, the inserted
 *         value and the base;
 *   MEM   LOAD STORE LDS STS and one opcode per atomic operation
 *         (ATOM_ADD ... ATOM_CSWAP, ATOMS_ADD ... ATOMS_CSWAP): repetition
 *         k is one component's access, isa/micro_mem.h's micro_load,
 *         micro_store or micro_atomic at the address SRC0 names, with
 *         SRC1 the stored value (atomic operand) and SRC2 the CSWAP
 *         comparand; MTYPE is the access type, BUF the binding (0 for the
 *         shared-memory forms).  Accesses run in repetition order, and the
 *         lowering keeps a vec4 instruction's components in order x y z w,
 *         the interpreter's;
 *   BAR   BAR and MEMBAR: no operands; the models' business (the barrier
 *         rule of docs/COMPUTE.md), nothing for the executor;
 *   BRA   a flow word (below) with two scalar sources and a condition
 *         (enum us_cond; ALWAYS has no sources); its target is the scalar
 *         pc where the target vec4 instruction's lowering starts.
 *
 * Compaction (isa/compact.c; its variants below, "Compaction variants"):
 * INT operations merge as float ones do; the
 * components of one memory instruction merge into one word whose
 * addresses step like any source (no ROT: MTYPE lives in the ROT field).
 * That is honest for an LSU that takes one request per cycle -- LOAD[4]
 * issues its four requests in four consecutive cycles, as four words
 * would, with one fetch instead of four; what a wider memory port or
 * coalescing would gain is not claimed.  BAR, MEMBAR and BRA never merge,
 * and no merge crosses a word a BRA jumps to (a label starts a word).
 *
 * ---- The instruction word (96 bits, three little-endian 32-bit words) ----
 *
 *   95    93 92  89 88       70 69       51 50       32 31 29 28 27 26    15 14 12  11  10  9 8       0
 *  +--------+------+-----------+-----------+-----------+-----+-----+--------+-----+---+-----+---------+
 *  | TEXTGT | TEXU |   SRC2    |   SRC1    |   SRC0    | ROT |DSTEP|  DREG  |DFILE|SAT| CNT |   OP    |
 *  +--------+------+-----------+-----------+-----------+-----+-----+--------+-----+---+-----+---------+
 *
 *  each SRCn (19 bits):   18   17   16 15   14       3  2     0
 *                       +-----+-----+-------+----------+-------+
 *                       | ABS | NEG | STEP  |   REG    | FILE  |
 *                       +-----+-----+-------+----------+-------+
 *
 *  OP     enum us_sop (isa/scalar_ops.def), 9 bits
 *  CNT    repetitions - 1
 *  SAT    clamp results to [0, 1]; on DOT only the last repetition
 *  NEG    negate, ABS absolute value; applied as -|x| (abs first)
 *  ROT    bit n: SRCn's STEP rotates within x y z (mod 3)
 *  TEXU, TEXTGT  texture image unit and enum us_tex_target (TEX TXB TXP)
 *  LDR    SRC1.REG = array size, SRC2.REG = offset (12-bit two's
 *         complement), SRC1.STEP = address register; SRC1/2.FILE = 0
 *  Unused operands and fields are all zero.
 *
 *  Integer (INT) words: WORD, bits 95..94 (in TEXTGT; TEXU and bit 93
 *  zero), is the program's integer word width: 0 = 32, 1 = 16, 2 = 8 bits.
 *
 *  Memory (MEM) words reuse the ROT and texture bits:
 *
 *   95 94 93    89 88                 32 31   29 28                    0
 *  +-----+--------+---------------------+-------+----------------------+
 *  | (0) |  BUF   | SRC2 | SRC1 | SRC0  | MTYPE | DSTEP DREG DFILE ... |
 *  +-----+--------+---------------------+-------+----------------------+
 *
 *  MTYPE  enum us_mtype (atomics: U32 or S32); no source rotates
 *  BUF    the buffer binding, < US_MAX_BUFFERS (0: LDS STS ATOMS_*)
 *  STORE and STS have no destination (DFILE DREG DSTEP zero).
 *
 *  Flow-control words (IF ELSE ENDIF BGNLOOP ENDLOOP BRK CONT BRA, kind
 *  FLOW) put the branch target over SRC2 and the texture bits, as a
 *  sequencer reads its jump address from the word instead of searching
 *  for it:
 *
 *   95 94 93              70 69      51 50      32 31    19 18   15 14    9 8    0
 *  +-----+------------------+----------+----------+--------+-------+-------+------+
 *  |WORD |      TARGET      |SRC1 (BRA)|SRC0 (IF, |  (0)   | COND  |  (0)  |  OP  |
 *  |(BRA)|                  |          |   BRA)   |        | (BRA) |       |      |
 *  +-----+------------------+----------+----------+--------+-------+-------+------+
 *
 *  TARGET the partner pc in the same code (us_flow_link's partner): IF its
 *         ELSE or ENDIF, ELSE its ENDIF, ENDIF its IF or ELSE, BGNLOOP and
 *         ENDLOOP each other, BRK and CONT the loop's ENDLOOP, BRA the pc
 *         it jumps to (n: the end).  24 bits: a binary holds at most 2^24
 *         words (us_binary_parse).
 *  SRC0   IF: the scalar register tested (STEP 0, no ROT); the branch is
 *         taken -- the IF body runs -- when its value (after NEG/ABS) is
 *         not 0.0.  BRA: SRC0 and SRC1 are compared (integers, NEG two's
 *         complement) by COND (enum us_cond, in the DREG bits) at the
 *         word width WORD; ALWAYS jumps and has no sources.
 *  CNT is 0 (one issue), every other field zero.
 */
#ifndef US_ISA_SCALAR_H
#define US_ISA_SCALAR_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ushader.h"

/* ---- Opcodes ------------------------------------------------------------ */

enum us_sop {
#define SOP(name, nsrc, from, unit, kind, expr) US_SOP_##name,
#include "scalar_ops.def"
#undef SOP
    US_SOP_COUNT
};

enum us_sop_kind { US_SK_VAL, US_SK_DOT, US_SK_ARL, US_SK_LDR, US_SK_TEX,
                   US_SK_KIL, US_SK_NOP, US_SK_FLOW, US_SK_INT, US_SK_MEM,
                   US_SK_BAR };

struct us_sopinfo {
    const char *name;
    uint8_t nsrc;
    int8_t from;            /* enum us_opcode, or -1 */
    enum us_unit unit;
    enum us_sop_kind kind;
    uint8_t atom;           /* MEM atomics: enum us_atom, else 0 */
};

extern const struct us_sopinfo us_sops[US_SOP_COUNT];

/* What a MEM opcode does, from its vec4 opcode's format. */
enum us_sop_access { US_ACC_LOAD, US_ACC_STORE, US_ACC_ATOM };
enum us_sop_access us_sop_access(enum us_sop op);
/* A MEM opcode on the workgroup's shared memory (LDS STS ATOMS_*). */
bool us_sop_shared(enum us_sop op);

/* INT opcodes: whether the sources are integers (NEG is two's-complement
 * negation; every MEM and BRA source is) and whether the result is bits
 * (else a float: I2F). */
bool us_sop_int_src(enum us_sop op);
bool us_sop_int_dst(enum us_sop op);

/* The scalar opcode that carries out vec4 opcode `op` component by
 * component (INT, MEM, BAR and FLOW kinds), or US_SOP_NOP; `atom` picks
 * the atomic operation of ATOM and ATOMS. */
enum us_sop us_sop_of(enum us_opcode op, enum us_atom atom);

/* BFM's field descriptor for BFI: min(bits, 32) | min(offset, 32) << 8.
 * micro_bfi's field is the same for the clamped values (an offset at or
 * beyond the word, or no bits, is no field; otherwise the field ends at
 * the word's end at the latest). */
static inline uint32_t us_bfm(uint32_t bits, uint32_t offset)
{
    return (bits < 32u ? bits : 32u) | (offset < 32u ? offset : 32u) << 8;
}

/* The sequencer's view of a scalar opcode (US_FLOW_NONE for every
 * operation that is not flow control; vec4 opcodes: us_op_flow_kind). */
enum us_flow_kind us_sop_flow_kind(enum us_sop op);

/* ---- Register files ----------------------------------------------------- */

enum { US_FILE_IMM = 6, US_FILE_SCRATCH = 7 };
enum { US_SCRATCH_REGS = 32, US_IMM_REGS = 4 };

/* The constant ROM k0 = (0, 1, 0, 1), indexed by scalar register; the
 * repetition lets SWZ's 0,1,0,1 run in one instruction. */
extern const float us_imm_rom[US_IMM_REGS];
enum { US_IMM_ZERO = 0, US_IMM_ONE = 1 };

/* Scalar registers in a file (0 for files an operand cannot name). */
unsigned us_sfile_size(unsigned file);

/* ---- Decoded instruction ------------------------------------------------ */

struct us_sopnd {
    uint8_t file;      /* enum us_file, US_FILE_IMM, US_FILE_SCRATCH, 0 */
    uint16_t reg;      /* base scalar register 4n + c0                   */
    uint8_t step;      /* per-repetition component offset, 0..3          */
    bool rot;          /* sources only: step mod 3 within x y z          */
    bool neg, abs;     /* sources only                                   */
    bool table;        /* swizzle-table compaction: repetition k names
                          component (swz >> 2k) & 3 (step, rot unused)   */
    uint8_t swz;
};

struct us_sinst {
    uint8_t op;        /* enum us_sop                                    */
    uint8_t count;     /* repetitions, 1..4                              */
    bool sat;
    uint8_t tex_unit, tex_target;
    uint8_t rel_addr;  /* LDR: address register                          */
    int16_t rel_offset;/* LDR: A.x + rel_offset indexes the array        */
    uint16_t rel_size; /* LDR: array length, 1..4095                     */
    uint32_t target;   /* FLOW: the partner pc (TARGET field), else 0   */
    uint8_t word;      /* INT, BRA: integer word width 32, 16 or 8; else 0 */
    uint8_t mtype;     /* MEM: enum us_mtype                             */
    uint8_t buf;       /* MEM: buffer binding (0 for shared memory)      */
    uint8_t cond;      /* BRA: enum us_cond                              */
    struct us_sopnd dst;
    struct us_sopnd src[3];
};

/* Scalar register that operand `o` names at repetition k. */
static inline unsigned us_sopnd_reg(const struct us_sopnd *o, unsigned k)
{
    if (o->table)
        return (o->reg & ~3u) | ((o->swz >> 2 * k) & 3u);
    if (o->rot)
        return (o->reg & ~3u) | (((o->reg & 3u) + k * o->step) % 3u);
    return (o->reg & ~3u) | ((o->reg + k * o->step) & 3u);
}

/* Choose STEP and ROT so that repetition k of `o` names component
 * comps[k] of o's vec4 register (k < n); false if no offset does. */
bool us_sopnd_fit(struct us_sopnd *o, const uint8_t *comps, unsigned n,
                  bool allow_rot);

/* ---- The 96-bit word: field sizes and positions ------------------------ */

typedef struct { uint32_t w[3]; } us_sword;

enum {
    US_SW_BITS = 96,
    SIZE_SW_OP = 9,     POS_SW_OP = 0,
    SIZE_SW_CNT = 2,    POS_SW_CNT = POS_SW_OP + SIZE_SW_OP,
    SIZE_SW_SAT = 1,    POS_SW_SAT = POS_SW_CNT + SIZE_SW_CNT,
    SIZE_SW_FILE = 3,   POS_SW_DFILE = POS_SW_SAT + SIZE_SW_SAT,
    SIZE_SW_REG = 12,   POS_SW_DREG = POS_SW_DFILE + SIZE_SW_FILE,
    SIZE_SW_STEP = 2,   POS_SW_DSTEP = POS_SW_DREG + SIZE_SW_REG,
    SIZE_SW_ROT = 3,    POS_SW_ROT = POS_SW_DSTEP + SIZE_SW_STEP,
    POS_SW_SRC0 = POS_SW_ROT + SIZE_SW_ROT,                      /* 32 */
    /* within a source operand: */
    POS_SO_FILE = 0,
    POS_SO_REG = POS_SO_FILE + SIZE_SW_FILE,
    POS_SO_STEP = POS_SO_REG + SIZE_SW_REG,
    SIZE_SO_NEG = 1,    POS_SO_NEG = POS_SO_STEP + SIZE_SW_STEP,
    SIZE_SO_ABS = 1,    POS_SO_ABS = POS_SO_NEG + SIZE_SO_NEG,
    SIZE_SW_SRC = POS_SO_ABS + SIZE_SO_ABS,                      /* 19 */
    POS_SW_SRC2 = POS_SW_SRC0 + 2 * SIZE_SW_SRC,                 /* 70 */
    SIZE_SW_TEXU = 4,   POS_SW_TEXU = POS_SW_SRC0 + 3 * SIZE_SW_SRC, /* 89 */
    SIZE_SW_TEXT = 3,   POS_SW_TEXT = POS_SW_TEXU + SIZE_SW_TEXU,   /* 93 */
    /* INT words and BRA: the word width, in the top bits */
    SIZE_SW_WORD = 2,   POS_SW_WORD = US_SW_BITS - SIZE_SW_WORD,    /* 94 */
    /* MEM words: the binding over TEXU, the access type over ROT */
    SIZE_SW_BUF = 5,    POS_SW_BUF = POS_SW_TEXU,
    SIZE_SW_MTYPE = SIZE_SW_ROT, POS_SW_MTYPE = POS_SW_ROT,
    /* flow words: the target over SRC2 and the texture bits; BRA's
     * condition over DREG */
    POS_SW_TARGET = POS_SW_SRC2,
    SIZE_SW_TARGET = 24,
    SIZE_SW_COND = 4,   POS_SW_COND = POS_SW_DREG,
};
_Static_assert(POS_SW_SRC0 == 32, "sources start at word 1");
_Static_assert(POS_SW_TEXT + SIZE_SW_TEXT == US_SW_BITS, "96 bits exactly");
_Static_assert(US_SOP_COUNT <= (1 << SIZE_SW_OP), "OP field too small");
_Static_assert(4 * US_MAX_PARAMS <= (1 << SIZE_SW_REG), "REG field too small");
_Static_assert(POS_SW_TARGET + SIZE_SW_TARGET <= POS_SW_WORD,
               "BRA's target and word width do not overlap");
_Static_assert(POS_SW_BUF + SIZE_SW_BUF <= POS_SW_WORD &&
               US_MAX_BUFFERS <= 1 << SIZE_SW_BUF, "BUF field");
_Static_assert(US_MT_COUNT <= 1 << SIZE_SW_MTYPE &&
               US_COND_COUNT <= 1 << SIZE_SW_COND, "MTYPE and COND fields");

/* Field access on a little-endian multi-word instruction (any width).
 * A field may straddle two 32-bit words; size <= 32. */
static inline uint32_t us_bits_get(const uint32_t *w, unsigned pos,
                                   unsigned size)
{
    assert(size >= 1 && size <= 32);
    uint64_t v = w[pos / 32];
    if (pos % 32 + size > 32)
        v |= (uint64_t)w[pos / 32 + 1] << 32;
    return (uint32_t)((v >> (pos % 32)) & ((1ull << size) - 1));
}

static inline void us_bits_set(uint32_t *w, unsigned pos, unsigned size,
                               uint32_t val)
{
    assert(size >= 1 && size <= 32);
    assert(size == 32 || val < (1ull << size));  /* value fits the field */
    for (unsigned i = 0; i < size; i++) {
        unsigned p = pos + i;
        uint32_t bit = 1u << (p % 32);
        if ((val >> i) & 1)
            w[p / 32] |= bit;
        else
            w[p / 32] &= ~bit;
    }
}

#define US_SW_FIELD(name, POS, SIZE)                                        \
    static inline unsigned us_sw_get_##name(const us_sword *i)              \
    { return us_bits_get(i->w, POS, SIZE); }                                \
    static inline void us_sw_set_##name(us_sword *i, unsigned v)            \
    { us_bits_set(i->w, POS, SIZE, v); }
US_SW_FIELD(op, POS_SW_OP, SIZE_SW_OP)
US_SW_FIELD(cnt, POS_SW_CNT, SIZE_SW_CNT)
US_SW_FIELD(sat, POS_SW_SAT, SIZE_SW_SAT)
US_SW_FIELD(dfile, POS_SW_DFILE, SIZE_SW_FILE)
US_SW_FIELD(dreg, POS_SW_DREG, SIZE_SW_REG)
US_SW_FIELD(dstep, POS_SW_DSTEP, SIZE_SW_STEP)
US_SW_FIELD(rot, POS_SW_ROT, SIZE_SW_ROT)
US_SW_FIELD(texu, POS_SW_TEXU, SIZE_SW_TEXU)
US_SW_FIELD(textgt, POS_SW_TEXT, SIZE_SW_TEXT)
US_SW_FIELD(word, POS_SW_WORD, SIZE_SW_WORD)
US_SW_FIELD(buf, POS_SW_BUF, SIZE_SW_BUF)
US_SW_FIELD(mtype, POS_SW_MTYPE, SIZE_SW_MTYPE)
US_SW_FIELD(target, POS_SW_TARGET, SIZE_SW_TARGET)
US_SW_FIELD(cond, POS_SW_COND, SIZE_SW_COND)
#undef US_SW_FIELD

#define US_SO_FIELD(name, POS, SIZE)                                        \
    static inline unsigned us_sw_get_s##name(const us_sword *i, unsigned n) \
    { assert(n < 3);                                                        \
      return us_bits_get(i->w, POS_SW_SRC0 + n * SIZE_SW_SRC + POS, SIZE); }\
    static inline void us_sw_set_s##name(us_sword *i, unsigned n,           \
                                         unsigned v)                        \
    { assert(n < 3);                                                        \
      us_bits_set(i->w, POS_SW_SRC0 + n * SIZE_SW_SRC + POS, SIZE, v); }
US_SO_FIELD(file, POS_SO_FILE, SIZE_SW_FILE)
US_SO_FIELD(reg, POS_SO_REG, SIZE_SW_REG)
US_SO_FIELD(step, POS_SO_STEP, SIZE_SW_STEP)
US_SO_FIELD(neg, POS_SO_NEG, SIZE_SO_NEG)
US_SO_FIELD(abs, POS_SO_ABS, SIZE_SO_ABS)
#undef US_SO_FIELD

/* A word with the given opcode and repetition count, other fields zero. */
static inline us_sword us_sw_make(enum us_sop op, unsigned count)
{
    assert(op < US_SOP_COUNT && count >= 1 && count <= 4);
    us_sword i = { { 0, 0, 0 } };
    us_sw_set_op(&i, op);
    us_sw_set_cnt(&i, count - 1);
    return i;
}

/* Encode a valid instruction (us_sinst_valid); decode checks every field
 * and fails on words no encoder produces (a word decodes only if encoding
 * its decoded form gives it back). */
us_sword us_sencode(const struct us_sinst *in);
US_MUST_CHECK bool us_sdecode(us_sword w, struct us_sinst *out);
bool us_sinst_valid(const struct us_sinst *in);
bool us_sinst_equal(const struct us_sinst *a, const struct us_sinst *b);

/* One line of assembly, no newline:  "MAD[3] r0.x+1, v16.x+1, -c4.y+1, r0.x+0".
 * Returns the snprintf-style length. */
int us_sinst_format(const struct us_sinst *in, char *buf, size_t size);

/* ---- Lowering and compaction ------------------------------------------- */

/*
 * Scalar code.  `flow` links its flow-control words (us_flow_link over
 * their kinds; NULL when there are none), and every flow word's `target`
 * is its partner there.  vbegin[i] .. vbegin[i + 1] are the vec4
 * instructions whose lowering starts in instruction i: a thread that
 * executes instruction i executes them (a basic block runs whole and no
 * merge crosses a flow word), so a model counts the vec4 program's useful
 * ops from the scalar instructions it issues.
 */
struct us_scode {
    struct us_sinst *insts;
    unsigned n, cap;
    struct us_flow *flow;
    uint32_t *vbegin;            /* n + 1 entries                          */
};

void us_scode_free(struct us_scode *c);

/* Lower vec4 IR to scalar code: one repetition per instruction unless
 * `compact` (an enum us_compaction; true is US_COMPACT_OFFSETS), in which
 * case us_compact_form runs on the result.  Each vec4 flow
 * instruction becomes one flow word (an IF or BRA on relative sources
 * first loads them into SCRATCH with LDRs); a BRA's target is the scalar
 * pc where its target's lowering starts, and code with BRAs gets its
 * reconvergence points (us_flow_branches) in `flow`. */
US_MUST_CHECK bool us_lower(const struct us_program *prog, unsigned compact,
                            struct us_scode *out, struct us_diag *diag);

/*
 * ---- Compaction variants (knob compaction_form) ---------------------------
 *
 * What a word's repetitions may name, and what it costs in bits:
 *
 *   offsets  (the paper's, the default) each operand a base register 4n +
 *            c0 and a 2-bit STEP (+ ROT for sources): repetition k names
 *            4n + (c0 + k * STEP) mod 4 (or mod 3).  The 96-bit word above.
 *   swizzle  each operand a vec4 register n and a table of four 2-bit
 *            component indices, one per repetition (repetition k names
 *            4n + T[k]): any swizzle and any order of written components
 *            compacts.  Per operand the 2 component bits of REG and the
 *            2 STEP bits give way to the 8-bit table (+4 bits each for
 *            DST, SRC0, SRC1, SRC2: +16) and ROT's 3 bits go: 109 bits,
 *            stored as a 112-bit word (14 bytes; 16-bit granularity):
 *
 *     111 109 108 106 105 102 101    79 78     56 55     33 32      15 14  12  11 10 9 8     0
 *    +-------+-------+-------+---------+---------+---------+----------+------+---+-----+-------+
 *    | MTYPE |TEXTGT | TEXU  |  SRC2   |  SRC1   |  SRC0   |   DST    |DFILE |SAT| CNT |  OP   |
 *    +-------+-------+-------+---------+---------+---------+----------+------+---+-----+-------+
 *
 *      each SRCn (23 bits): ABS NEG T[3] T[2] T[1] T[0] VREG(10) FILE(3);
 *      DST (18 bits): T[3] T[2] T[1] T[0] VREG(10); MTYPE (MEM words)
 *      where the 96-bit word keeps it in ROT; flow words as in the 96-bit
 *      word, TARGET over SRC2 and the texture bits
 *
 *   chain    the offsets word (96 bits), and the compactor looks ahead:
 *            a later instruction of the same operation, up to
 *            US_COMPACT_WINDOW instructions ahead in the same basic
 *            block, joins the word when the operands still fit and no
 *            instruction it moves across writes what it reads, reads what
 *            it writes or writes what it writes (the dependent chains a
 *            lowering interleaves: MUL t.x; ADD u.x, t.x; MUL t.y;
 *            ADD u.y, t.y becomes MUL t.xy; ADD u.xy).  Only ALU and
 *            integer operations move; a texture fetch, LDR, ARL, KIL,
 *            memory access, barrier or flow word stays in place and is
 *            crossed by none.  Results are the same bits: every value is
 *            computed by the same operation on the same operands.
 *
 * Every variant executes alike: us_sopnd_reg gives each repetition's
 * register.  Only the offsets form has an encoder (us_sencode); the
 * others are counted (`ushader stats`, the report) at their word sizes.
 */
enum us_compaction {
    US_COMPACT_NONE, US_COMPACT_OFFSETS, US_COMPACT_SWIZZLE, US_COMPACT_CHAIN,
    US_COMPACT_COUNT
};
enum { US_COMPACT_WINDOW = 8, US_SW_SWIZZLE_BITS = 112 };

/* The variant's name ("offsets") and its word size in bits. */
const char *us_compaction_name(enum us_compaction form);
unsigned us_compaction_word_bits(enum us_compaction form);

/* Merge instructions that one instruction with a repeat counter expresses
 * exactly, in the variant `form` (in place; greedy longest runs from the
 * front; never across a flow word or barrier, nor over a word a BRA jumps
 * to).  The flow links, targets and vbegin follow the merge.  False only
 * when out of memory (then free c).  us_compact is the offsets form. */
US_MUST_CHECK bool us_compact_form(struct us_scode *c, enum us_compaction form);
US_MUST_CHECK bool us_compact(struct us_scode *c);

/* Link the flow words of c->insts: c->flow's kind, partner and weight (n
 * entries each, allocated by the caller) from the opcodes and vbegin (NULL:
 * weight 1; a BRA's partner is its target), then every structured flow
 * word's target, and with BRAs the reconvergence points (rpc, always:
 * replaced).  False when the nesting is broken or a BRA leaves its
 * block. */
US_MUST_CHECK bool us_scode_link(struct us_scode *c, struct us_diag *diag);

/* Can the n (<= 4) single-repetition instructions ops[0..n) run as the
 * repetitions of one instruction?  On success *out is that instruction. */
bool us_sinst_combine(const struct us_sinst *ops, unsigned n,
                      struct us_sinst *out);

/* ---- Scalar executor (shader/scalar_exec.c) ---------------------------- */

/* Run decoded scalar code for one thread (same registers, parameters and
 * us_math as us_interpret), following the flow words' targets.  Code
 * alone does not say which vec4 instructions its words stand for, so the
 * instruction budget counts words here (the models charge vec4
 * instructions, through their code's us_flow weights).  False
 * only when code with flow control has inconsistent targets or its links
 * cannot be allocated (then the thread is left part-way). */
US_MUST_CHECK bool us_scalar_exec(const struct us_sinst *code, unsigned n,
                                  const struct us_exec_env *env,
                                  struct us_thread *t);

/* Execute one instruction, all its repetitions, for one thread: the entry
 * timing models call at issue.  `scratch` holds the thread's SCRATCH file,
 * which lives across the scalar instructions of one vec4 instruction, so a
 * model that interleaves threads keeps one per thread.  Memory words go
 * to env->mem's bindings and t->shared, counted in env->mem->counts.  A
 * flow word changes no register: the caller's sequencer (struct
 * us_flow_state over the code's us_flow) moves on with us_scalar_cond as
 * the branch condition; BAR and MEMBAR do nothing here (a model holds a
 * thread at a barrier, shader/workgroup.h). */
void us_scalar_step(const struct us_sinst *in, const struct us_exec_env *env,
                    struct us_thread *t, float scratch[US_SCRATCH_REGS]);

/* An instruction's operands resolved once (us_scalar_prepare): each
 * operand's register array (the thread record, SCRATCH, the parameters or
 * the immediate ROM) and its register at each repetition as an index into
 * it, so a model issuing the instruction many times does not decode its
 * files, offsets and swizzles at every issue. */
struct us_sprep {
    uint8_t kind;                  /* us_sops[op].kind */
    uint8_t src_base[3], dst_base;
    uint32_t src_idx[3][4], dst_idx[4];
    /* each source's modifiers on its bits: (bits & keep) ^ flip, -|x|
     * being ABS then NEG */
    uint32_t src_keep[3], src_flip[3];
};

void us_scalar_prepare(const struct us_sinst *in, struct us_sprep *p);

/* us_scalar_step with `p` prepared from `in`. */
void us_scalar_step_prepared(const struct us_sinst *in,
                             const struct us_sprep *p,
                             const struct us_exec_env *env,
                             struct us_thread *t,
                             float scratch[US_SCRATCH_REGS]);

/* The branch condition of a thread: an IF's SRC0 (after NEG/ABS) is not
 * 0.0, a BRA's COND holds for SRC0 and SRC1 (micro_cond); false for any
 * other instruction. */
bool us_scalar_cond(const struct us_sinst *in, const struct us_exec_env *env,
                    const struct us_thread *t,
                    const float scratch[US_SCRATCH_REGS]);

/* One thread's step through code with flow links `f` (NULL: straight
 * line): execute instruction fs->pc and move the thread's one-lane
 * sequencer to the next instruction it executes. */
void us_scalar_issue(const struct us_sinst *code, const struct us_flow *f,
                     const struct us_exec_env *env, struct us_thread *t,
                     float scratch[US_SCRATCH_REGS],
                     struct us_flow_state *fs);

/* Decode and run encoded words; false if a word does not decode or the
 * flow words' targets are not their partners. */
US_MUST_CHECK bool us_scalar_run(const us_sword *words, unsigned n,
                                 const struct us_exec_env *env,
                                 struct us_thread *t);

/* ---- Targets and their instruction-memory encodings -------------------- */

enum us_target {
    US_TARGET_SCALAR,            /* compacted scalar words, 96 bits       */
    US_TARGET_SCALAR_NOCOMPACT,  /* one repetition per word, 96 bits      */
    US_TARGET_SIMD4,             /* one vec4 word per instruction, 128    */
    US_TARGET_VLIW,              /* bundles of 4 scalar slots, 4 x 96     */
    US_TARGET_VLIW5,             /* 4 slots + transcendental slot, 5 x 96 */
    US_TARGET_SUPERSCALAR,       /* vec4 words (dynamic co-issue), 128    */
    US_TARGET_HETERO,            /* vector slot + scalar slot, 2 x 128    */
    US_TARGET_COUNT
};

const char *us_target_name(enum us_target t);
int us_target_lookup(const char *name);   /* -1 if unknown */
unsigned us_target_word_bits(enum us_target t);

/*
 * An encoded program: `nwords` instruction-memory words of `word_bits`
 * bits each, stored as ceil(word_bits / 32) little-endian 32-bit units.
 */
struct us_binary {
    enum us_target target;
    unsigned word_bits;
    unsigned nwords;
    uint32_t *data;              /* nwords * us_binary_units(...)        */
};

static inline unsigned us_binary_units(unsigned word_bits)
{
    return (word_bits + 31) / 32;
}

void us_binary_free(struct us_binary *b);

/* Encode a program for a target (lowering and scheduling as needed). */
US_MUST_CHECK bool us_encode_target(const struct us_program *prog,
                                    enum us_target t, struct us_binary *out,
                                    struct us_diag *diag);

/* Decode every word back to text, one line per word (malloc'd). */
US_MUST_CHECK bool us_binary_disassemble(const struct us_binary *b,
                                         char **text, struct us_diag *diag);

/*
 * Binary file format (`ushader asm -o`), all fields little-endian uint32:
 *   magic "USHB" (0x42485355), format version 2 (2: the 9-bit OP
 *   scalar word of isa/scalar.h), target (enum us_target),
 *   word_bits, nwords, then nwords * ceil(word_bits / 32) units.
 */
enum { US_BINARY_MAGIC = 0x42485355u, US_BINARY_VERSION = 2,
       US_BINARY_HEADER = 5 };
US_MUST_CHECK bool us_binary_serialize(const struct us_binary *b,
                                       uint8_t **data, size_t *len);
US_MUST_CHECK bool us_binary_parse(const uint8_t *data, size_t len,
                                   struct us_binary *out,
                                   struct us_diag *diag);

/* ---- vec4 (simd4 / superscalar / hetero) word --------------------------- */

/*
 * The vec4 word (128 bits, four little-endian 32-bit words).  Register
 * formats (VEC SCL ARL SWZ TEX KIL COND FLOW):
 *
 *  127   106 105    84 83         55 54   44 43  33 32 31 30 28 27 24 23 20 19  12 11  9 8  7    0
 * +--------+--------+-------------+-------+------+-----+-----+-----+-----+------+-----+---+------+
 * |  SRC2  |  SRC1  |    SRC0     |RELSIZE|RELOFF|RELSRC|TEXT|TEXU |DMASK| DIDX |DFILE|SAT|  OP  |
 * +--------+--------+-------------+-------+------+-----+-----+-----+-----+------+-----+---+------+
 *
 *  SRC0 (29 bits): FILE 3 | IDX 10 | SWZ 4 x 3 (enum us_swz, SWZ's 0/1) | NEG 4 (per component)
 *  SRC1, SRC2 (22 bits): FILE 3 | IDX 10 | SWZ 4 x 2 | NEG 1 (all components)
 *  RELSRC: 0 none, n = source n-1 is PARAM[IDX + A.x + RELOFF] (RELOFF
 *  11-bit two's complement, enough for US_MAX_REL_OFFSET; RELSIZE the
 *  array length).  OP is enum us_opcode.  ZERO/ONE selectors and per-component
 *  negation exist only in SRC0 (SWZ has one source); the encoder reports
 *  programs it cannot represent.
 *
 * Memory formats (LOAD STORE ATOM and the shared forms LDS STS ATOMS): the
 * address (SRC0) has neither 0/1 selectors nor a per-component sign, so
 * it takes the 22-bit form of SRC1, and its last 7 bits hold the access:
 *
 *  127   106 105    84 83 82 80 79 77 76    55 54   44 43  33 32 31 30 29 28 24 23 20 19  12 11  9 8  7    0
 * +--------+--------+---+-----+-----+--------+-------+------+------+-----+-----+-----+------+-----+---+------+
 * |  SRC2  |  SRC1  |(0)| AOP |MTYPE|  SRC0  |RELSIZE|RELOFF|RELSRC| (0) | BUF |DMASK| DIDX |DFILE|(0)|  OP  |
 * +--------+--------+---+-----+-----+--------+-------+------+------+-----+-----+-----+------+-----+---+------+
 *
 *  MTYPE  enum us_mtype; AOP enum us_atom (ATOM ATOMS; 0 otherwise)
 *  BUF    the buffer binding, 0..US_MAX_BUFFERS-1 (0 for LDS STS ATOMS)
 *  SRC0 the address, SRC1 the value (STORE ATOM), SRC2 CSWAP's compare.
 *  STORE has no destination register: DFILE = DIDX = 0, DMASK its mask.
 *
 * BRA has no destination: its target (an instruction index, 0..ninsts)
 * takes the destination's 15 bits and its condition the texture unit's:
 *
 *  127  106 105    84 83         55 54   44 43  33 32 31 30 28 27  24 23          9 8  7    0
 * +-------+--------+-------------+-------+------+------+-----+------+-------------+---+------+
 * |  (0)  |  SRC1  |    SRC0     |RELSIZE|RELOFF|RELSRC| (0) | COND |   TARGET    |(0)|  OP  |
 * +-------+--------+-------------+-------+------+------+-----+------+-------------+---+------+
 *
 *  COND   enum us_cond (0: always, and then the sources are those of the
 *         IR, normally zero); SRC0 and SRC1 the scalar operands a, b.
 *
 * BAR and MEMBAR: OP alone, every other bit zero.  Integer instructions
 * use the register format; their literals are ordinary PARAM slots, and
 * TEXT holds an instruction's own word width (.W8 .W16 .W32: 1 2 3; 0 the
 * program's).  SAT is zero wherever the instruction has no _SAT form
 * (integer results, memory, BRA, BAR).  A source-instruction group ("|",
 * us_inst.joined) is for the SIMT model's timing, no part of a vec4
 * machine's code: the word does not hold it.
 */
enum {
    US_VW_BITS = 128,
    SIZE_VW_OP = 8, POS_VW_OP = 0,
    SIZE_VW_SAT = 1, POS_VW_SAT = 8,
    SIZE_VW_FILE = 3, POS_VW_DFILE = 9,
    SIZE_VW_DIDX = 8, POS_VW_DIDX = 12,   /* TEMPs and outputs: < 256 */
    SIZE_VW_IDX = 10,                     /* a source: params too     */
    SIZE_VW_MASK = 4, POS_VW_DMASK = 20,
    SIZE_VW_TEXU = 4, POS_VW_TEXU = 24,
    SIZE_VW_TEXT = 3, POS_VW_TEXT = 28,
    SIZE_VW_RELSRC = 2, POS_VW_RELSRC = 31,
    SIZE_VW_RELOFF = 11, POS_VW_RELOFF = 33,
    SIZE_VW_RELSIZE = 11, POS_VW_RELSIZE = POS_VW_RELOFF + SIZE_VW_RELOFF,
    POS_VW_SRC0 = POS_VW_RELSIZE + SIZE_VW_RELSIZE,  /* 55 */
    SIZE_VW_SRC0 = 29, SIZE_VW_SRCN = 22,
    POS_VW_SRC1 = POS_VW_SRC0 + SIZE_VW_SRC0,   /* 84 */
    POS_VW_SRC2 = POS_VW_SRC1 + SIZE_VW_SRCN,   /* 106 */
    POS_VW_END = POS_VW_SRC2 + SIZE_VW_SRCN,    /* 128 */
    /* memory formats */
    SIZE_VW_BUF = 5, POS_VW_BUF = POS_VW_TEXU,                   /* 24 */
    POS_VW_MPAD = POS_VW_BUF + SIZE_VW_BUF,                      /* 29 */
    SIZE_VW_MPAD = POS_VW_RELSRC - POS_VW_MPAD,                  /* 2 */
    SIZE_VW_MTYPE = 3, POS_VW_MTYPE = POS_VW_SRC0 + SIZE_VW_SRCN, /* 77 */
    SIZE_VW_AOP = 3, POS_VW_AOP = POS_VW_MTYPE + SIZE_VW_MTYPE,  /* 80 */
    POS_VW_APAD = POS_VW_AOP + SIZE_VW_AOP,                      /* 83 */
    SIZE_VW_APAD = POS_VW_SRC1 - POS_VW_APAD,                    /* 1 */
    /* BRA */
    SIZE_VW_TARGET = 15, POS_VW_TARGET = POS_VW_DFILE,           /* 9 */
    SIZE_VW_COND = 4, POS_VW_COND = POS_VW_TEXU,                 /* 24 */
    POS_VW_CPAD = POS_VW_COND + SIZE_VW_COND,                    /* 28 */
    SIZE_VW_CPAD = POS_VW_RELSRC - POS_VW_CPAD,                  /* 3 */
};
_Static_assert(POS_VW_END <= US_VW_BITS, "vec4 word fits 128 bits");
_Static_assert(US_MAX_REL_OFFSET < 1 << (SIZE_VW_RELOFF - 1), "RELOFF range");
_Static_assert(US_OP_COUNT <= (1 << SIZE_VW_OP), "vec4 OP field too small");
_Static_assert(US_MAX_TEMPS <= (1 << SIZE_VW_DIDX), "vec4 DIDX too small");
_Static_assert(US_MAX_BUFFERS <= (1 << SIZE_VW_BUF), "vec4 BUF too small");
_Static_assert(US_MT_COUNT <= (1 << SIZE_VW_MTYPE) &&
               US_ATOM_COUNT <= (1 << SIZE_VW_AOP), "MTYPE, AOP too small");
_Static_assert(US_COND_COUNT <= (1 << SIZE_VW_COND), "vec4 COND too small");
_Static_assert(US_MAX_INSTRUCTIONS < (1 << SIZE_VW_TARGET),
               "vec4 TARGET holds every instruction index and the end");
_Static_assert(POS_VW_TARGET + SIZE_VW_TARGET == POS_VW_COND,
               "TARGET is the destination's bits");

/* Encode one vec4 instruction (false if a field cannot represent it) and
 * decode it back (false on malformed words: decoding then encoding gives
 * the same bits). */
US_MUST_CHECK bool us_vencode(const struct us_inst *in, uint32_t w[4]);
US_MUST_CHECK bool us_vdecode(const uint32_t w[4], struct us_inst *out);
/* One line of text: "ADD r0.xy, r1.xyzw, c3.xxxx", "LOAD.U32 r0.x,
 * r1.xxxx, buffer[2]", "BRA.LT.S @12, r0.xxxx, c1.yyyy" (@n: the target
 * instruction); the snprintf-style length. */
int us_inst_format(const struct us_inst *in, char *buf, size_t size);

/* ---- Static scheduling (VLIW bundles, hetero pairs) --------------------- */

/* A schedulable item: the scalar registers it reads and writes (as
 * file << 12 | reg keys) and the slots it may occupy (bit per slot).
 * US_SCHED_MEMORY (file NULL, which names no register: the scoreboards of
 * shader/timing.h ignore it) is memory: every LOAD STORE ATOM LDS STS
 * ATOMS reads and writes it, so no schedule reorders two of them. */
enum { US_SCHED_MAX_REGS = 16, US_SCHED_MEMORY = 1 };
struct us_sched_item {
    uint16_t reads[US_SCHED_MAX_REGS], writes[US_SCHED_MAX_REGS];
    uint8_t nreads, nwrites;
    uint8_t slots;
};

/*
 * In-order-issue list scheduler: fills bundles of `nslots` slots cycle by
 * cycle with ready items (all producers in earlier bundles; a reader may
 * share a bundle with a later writer of its register, reads happen first),
 * highest critical path first.  bundle_of[i] receives item i's bundle and
 * slot_of[i] its slot.  Returns the number of bundles, 0 on allocation
 * failure (n > 0).
 */
unsigned us_list_schedule(const struct us_sched_item *items, unsigned n,
                          unsigned nslots, unsigned *bundle_of,
                          unsigned *slot_of);

/* Where basic blocks end (cut[i] per item): */
enum us_sched_cut {
    US_SCHED_PLAIN,    /* an ordinary item                                 */
    US_SCHED_BEGIN,    /* starts a block: a BRA's target                   */
    US_SCHED_ALONE,    /* flow control, BRA, BAR, MEMBAR: a bundle of its
                          own, in slot 0, and the end of its block          */
};

/* us_list_schedule over basic blocks: no item moves out of its block, and
 * blocks follow each other in program order.  `entry` (NULL, or n + 1
 * entries) receives for each item the first bundle of its block, the
 * bundle a jump to a block's first item goes to, and entry[n] the number
 * of bundles (a jump to the end).  Returns the number of bundles, 0 on
 * allocation failure. */
unsigned us_list_schedule_blocks(const struct us_sched_item *items,
                                 const uint8_t *cut, unsigned n,
                                 unsigned nslots, unsigned *bundle_of,
                                 unsigned *slot_of, unsigned *entry);

/* VLIW (isa/baseline_vliw.c): pack uncompacted scalar code into bundles of
 * `nslots` slots; with `tslot`, the last slot is the transcendental slot,
 * the only one that runs SFU operations (it also runs ALU ones).  *slots
 * receives nbundles * nslots instructions, NOP in empty slots, and (when
 * `origin` is not NULL) *origin the index in `code` of each slot's
 * instruction, UINT32_MAX for NOPs (both malloc'd).  A flow word, BRA, BAR
 * or MEMBAR (us_sops[].unit BARRIER) has a bundle of its own; a flow
 * word's target becomes its partner's bundle, a BRA's the first bundle of
 * its target's block (nbundles for the end).  LSU operations keep their
 * order. */
US_MUST_CHECK bool us_vliw_schedule(const struct us_scode *code,
                                    unsigned nslots, bool tslot,
                                    struct us_sinst **slots,
                                    uint32_t **origin, unsigned *nbundles);

/* Hetero (isa/baseline_hetero.c): pair vec4 instructions into bundles of a
 * vector slot (ALU, texture, KIL, ARL, memory, flow control) and a scalar
 * slot (SFU operations and one-component ALU operations); a flow
 * instruction, BRA, BAR or MEMBAR has a bundle of its own, and memory
 * operations keep their order.  *slots receives 2 * nbundles
 * instructions and *empty flags the empty slots (both malloc'd); a BRA's
 * target there is the first bundle of its target's block (nbundles for
 * the end), as the hetero binary's words are bundles. */
US_MUST_CHECK bool us_hetero_schedule(const struct us_program *prog,
                                      struct us_inst **slots, bool **empty,
                                      unsigned *nbundles);

/* Record that `it` reads (or writes) scalar register `reg` of `file`;
 * read-only files (PARAM, IMM) and NULL make no dependences. */
void us_sched_add_reg(struct us_sched_item *it, bool write, unsigned file,
                      unsigned reg);
/* Record that `it` reads and writes memory (US_SCHED_MEMORY). */
void us_sched_add_memory(struct us_sched_item *it);

/* Scheduler registers read and written by one instruction (memory
 * operations: US_SCHED_MEMORY too). */
void us_sched_item_scalar(const struct us_sinst *in, struct us_sched_item *it);
void us_sched_item_vec4(const struct us_inst *in, struct us_sched_item *it);

/* ---- Random vec4 programs (property tests) ------------------------------ */

/* Deterministic generator state (xorshift64*). */
struct us_rng { uint64_t s; };
uint64_t us_rng_next(struct us_rng *r);
unsigned us_rng_below(struct us_rng *r, unsigned n);

/* A random, valid program of `ninsts` instructions for `stage`: random
 * opcodes, swizzles, negation, masks, _SAT, aliasing between destination
 * and sources, relative addressing (vertex) and constant parameters. */
US_MUST_CHECK bool us_random_program(struct us_rng *r, enum us_stage stage,
                                     unsigned ninsts, struct us_program *out);

/* The same with structured flow control (OPTION USHADER_extensions):
 * nested IF/ELSE/ENDIF on random per-thread conditions and loops bounded
 * by a counter (0-4 iterations) with BRK and CONT under random IFs, about
 * `ninsts` random instructions in all; out->flow is built.  A generator of
 * its own, so us_random_program's programs stay what they were per seed. */
US_MUST_CHECK bool us_random_flow_program(struct us_rng *r,
                                          enum us_stage stage,
                                          unsigned ninsts,
                                          struct us_program *out);

/* The generators draw inputs and outputs among the slots there were
 * before the varyings grew from 8 to US_MAX_VARYINGS, so every seed still
 * gives the programs and threads it gave: fragment inputs below
 * US_RAND_FIN_COUNT (the last one, the old fragment.facing slot, mapped
 * by us_rand_fin), vertex outputs below US_RAND_VOUT_VARYINGS. */
enum {
    US_RAND_FIN_COUNT = US_FIN_TEXCOORD0 + US_MAX_TEX_COORDS + 1,
    US_RAND_VOUT_VARYINGS = US_VOUT_TEXCOORD0 + US_MAX_TEX_COORDS,
    US_RAND_THREAD_INPUTS = US_VIN_COUNT,
};
static inline unsigned us_rand_fin(unsigned k)
{
    return k == US_RAND_FIN_COUNT - 1 ? (unsigned)US_FIN_FACING : k;
}

/* Random register contents with special values (+-0, +-inf, NaN, tiny);
 * fragment.facing gets the value of the slot it had before. */
void us_random_thread(struct us_rng *r, struct us_thread *t);
float us_random_float(struct us_rng *r);

/* ---- Random compute programs (isa/randcompute.c) ------------------------ */

/*
 * A random case for the compute instructions: a program with integers,
 * memory, barriers and BRA (compute, or vertex / fragment under
 * USHADER_extensions), its launch, buffers and initial registers.  The
 * program does not depend on the order its threads run in, so every
 * executor must leave the reference interpreter's registers and memory
 * bit for bit (isa/randcompute.c says how it is kept so).
 */
enum { US_RCASE_BUDGET = 1 << 17,    /* instructions a thread may run */
       US_RCASE_MAX_THREADS = 16 };

/* The buffers a case's program accesses. */
struct us_rlayout {
    uint8_t priv, ro, ctr, none;     /* bindings: the threads' own regions,
                                        read-only data, counters, unbound */
    uint32_t region;                 /* bytes of each thread's region      */
    uint32_t priv_size, ro_size, ctr_size;
    uint32_t slot;                   /* shared bytes of a thread per area  */
    uint32_t area[2], ctr_area[2];   /* shared memory: slots, counters     */
    uint8_t id_input;                /* vertex / fragment: the input whose
                                        x is the thread's index (uint)     */
};

struct us_rcase {
    struct us_program prog;
    struct us_rlayout layout;
    uint32_t groups[3];              /* compute: the launch; else 1 1 1    */
    unsigned nthreads;               /* work-items in launch order, or
                                        vertex / fragment threads (4 or 8:
                                        whole quads)                       */
    struct us_thread *init;          /* registers before the run, inputs
                                        set (us_compute_thread for compute) */
    us_vec4 *params;                 /* prog's parameters, resolved        */
    struct us_memory mem;            /* initial buffer contents            */
};

/* A random case with about `size` random statements (size 30: some 150
 * instructions); false when out of memory. */
US_MUST_CHECK bool us_random_case(struct us_rng *r, enum us_stage stage,
                                  unsigned size, struct us_rcase *out);
void us_rcase_free(struct us_rcase *c);

/*
 * One executor's run of a case: its own threads and memory (copies of the
 * case's), and the environment to run in (the case's parameters, exact
 * math, a sampler that depends on each lane's own coordinates alone,
 * US_RCASE_BUDGET, the memory).  To check a model:
 *
 *     us_rrun_init(&c, &ref);  us_rrun_reference(&c, &ref, &diag);
 *     us_rrun_init(&c, &run);  us_rrun_workload(&c, &run, &w);
 *     us_core_run(model, &cfg, &w, &st, &diag);
 *     us_rrun_same(&c, &ref, &run, why, sizeof why);
 *
 * A compute workload's threads are the launch's work-items in order (its
 * workgroups are runs of prog.group_size's product of threads, and each
 * needs prog.shared_bytes of zeroed shared memory).
 */
struct us_rrun {
    struct us_thread *threads;
    struct us_memory mem;
    struct us_exec_env env;
};

struct us_workload;
US_MUST_CHECK bool us_rrun_init(const struct us_rcase *c, struct us_rrun *run);
void us_rrun_free(struct us_rrun *run);
void us_rrun_workload(const struct us_rcase *c, struct us_rrun *run,
                      struct us_workload *w);
/* The reference: us_compute_interpret, or us_interpret thread by thread;
 * false (and *diag) when a thread goes over the budget. */
US_MUST_CHECK bool us_rrun_reference(const struct us_rcase *c,
                                     struct us_rrun *run, struct us_diag *diag);
/* Same registers (TEMPs, outputs, address registers, killed, overrun),
 * buffers and memory counts?  If not, *why says what differs first. */
bool us_rrun_same(const struct us_rcase *c, const struct us_rrun *want,
                  const struct us_rrun *got, char *why, size_t size);

/* ---- Instruction statistics (`ushader stats`) --------------------------- */

struct us_code_stats {
    unsigned vec4_instructions;        /* per thread                        */
    unsigned preshader_instructions;   /* us_program.pre: once per draw,
                                          by us_resolve_params, in no
                                          model's cycles                   */
    unsigned scalar_instructions;      /* uncompacted                       */
    unsigned compacted_instructions;
    unsigned vliw_bundles, vliw5_bundles, hetero_bundles;
    unsigned width_hist[5];            /* vec4 instructions by width 1..4
                                          (us_inst_hist_width: no TEX)     */
    uint64_t bits[US_TARGET_COUNT];    /* instruction memory per target     */
    /* per compaction variant (enum us_compaction: NONE is
     * scalar_instructions, OFFSETS compacted_instructions), the whole
     * program: scalar words and their bits (us_compaction_word_bits) */
    unsigned form_instructions[US_COMPACT_COUNT];
    uint64_t form_bits[US_COMPACT_COUNT];
    /* per vec4 opcode, each instruction lowered on its own (so the sums
     * can exceed the program's counts by merges across instructions):
     * its count and its scalar words in each variant */
    unsigned op_count[US_OP_COUNT];
    unsigned op_form[US_COMPACT_COUNT][US_OP_COUNT];
};

/* Width of a vec4 instruction: the useful ops it asks for (SPEC 3): a
 * component-wise or MIXED operation's written components, DP3 3, DP4/DPH
 * 4, a replicated SFU result 1, KIL the distinct components it tests,
 * STORE the components it stores; BAR, MEMBAR and flow control 0. */
unsigned us_inst_width(const struct us_inst *in);

/* The useful ALU ops of a vec4 instruction, what datapath utilization
 * counts: its width, except texture fetches and memory accesses, which the
 * texture unit and the LSU do (0) -- counting their components would let
 * a model that issues a TEX in one cycle exceed 100% of its ALU lanes. */
unsigned us_inst_useful_ops(const struct us_inst *in);

/* Width of a vec4 instruction in the width histograms (us_code_stats'
 * width_hist, the models' width.1..4): us_inst_width, except a texture
 * fetch (TEX TXB TXP, unit class TEX), which is 0 and so left out -- it is
 * the texture unit's work, not ALU work of its written components. */
unsigned us_inst_hist_width(const struct us_inst *in);

US_MUST_CHECK bool us_code_stats(const struct us_program *prog,
                                 struct us_code_stats *st,
                                 struct us_diag *diag);

#endif
