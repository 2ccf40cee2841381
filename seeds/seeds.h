/*
 * The seeds' own assembly languages as front ends into the compute IR
 * (docs/seeds/NAME.md): kGPU (seed 003), the FPGA fork of tiny-gpu (seed
 * 002) and upstream tiny-gpu.  One interface for the three:
 *
 *   seed_assemble    text -> the seed's binary words (+ launch directives)
 *   seed_disassemble one word -> the seed's assembly text
 *   seed_translate   words + launch -> !!USHADERcp1.0 text, one '|' group
 *                    per seed instruction (us_inst.joined)
 *   seed_memory      the launch's data memory as buffer[0]'s bytes
 *
 * Each ISA is one table of instruction forms (struct seed_form): its
 * encoding (match/mask and operand fields), its operand syntax, and its IR
 * template.  The assembler, the disassembler and the translator all walk
 * that table; no ISA keeps an opcode switch of its own.
 *
 * Operand syntax (seed_form.operands), comma separated:
 *   d s t      a register in that field          [s]  the same, bracketed
 *   #i #b      an immediate in that field        T    a branch target field
 * IR template placeholders (seed_form.ir):
 *   %d %s %t   read the register in the field    %D %S  write it
 *   %i %b      the field's value                 %8     the 'b' field * 8
 *   %L         the target's label                %E     the end label
 *   %J         (the fork's SYNC) " |\nBRA join" when the pairing rule
 *              gives one, else nothing
 * A pseudo-op (the fork's MAX) has no encoding: `expand` is the assembly it
 * stands for, with %d %s %t the operands' text and %P+n the address n
 * words on.
 */
#ifndef SEEDS_H
#define SEEDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ushader.h"

struct seed_form {
    const char *mnemonic;
    uint32_t match, mask;   /* word & mask == match; the rest are fields */
    const char *operands;
    const char *ir;         /* NULL: assembled, not translated            */
    const char *expand;     /* a pseudo-op's expansion, or NULL           */
};

struct seed_field {
    char name;              /* d s t i b T                                */
    uint8_t pos, width;
};

struct seed_data {
    uint32_t addr, value;
};

/* The launch: kGPU's directives, the same spelled in comments for the fork
 * and tiny-gpu (`.blocks N`, `.threads N`, `.data @ADDR v0 v1 ...`). */
struct seed_launch {
    uint32_t blocks, threads;   /* 0: not given                          */
    unsigned blocks_line, threads_line;
    struct seed_data *data;
    size_t ndata, cap;
};

struct seed_kernel {
    uint32_t *words;
    uint32_t *lines;            /* source line of each word               */
    size_t n, cap;
    struct seed_launch launch;
};

struct seed_isa;

/* A register operand as IR text: `write` for a destination.  False (and
 * the reason in msg) when the translation cannot use it. */
typedef bool (*seed_reg_fn)(unsigned reg, bool write, char *buf, size_t n,
                            char *msg, size_t msgn);
/* The launch's workgroups: false with *diag when it is not one the seed
 * can run. */
typedef bool (*seed_launch_fn)(const struct seed_launch *l,
                               uint32_t *groups, uint32_t *local,
                               struct us_diag *diag);

struct seed_isa {
    const char *name;           /* --isa NAME                             */
    const char *title;
    unsigned word_bits;         /* instruction word: 32 or 16             */
    unsigned data_bits;         /* data word: 16 or 8                     */
    unsigned nregs;
    const char *const *alias;   /* alias text per register, or NULL       */
    bool imm_signed;            /* a negative #imm is its two's complement */
    const struct seed_field *fields;
    unsigned nfields;
    const struct seed_form *forms;
    unsigned nforms;
    const char *temps;          /* the translation's scratch TEMPs        */
    uint32_t mem_words;         /* data memory (per core when per_core)   */
    bool per_core;              /* each block its own copy (the fork)     */
    seed_reg_fn reg;
    seed_launch_fn launch;
    /* The fork's SYNC pairing (NULL elsewhere): join[pc] = the instruction
     * a paired SYNC at pc goes to (n: the end), UINT32_MAX unpaired. */
    bool (*joins)(const struct seed_isa *isa, const struct seed_kernel *k,
                  uint32_t *join, struct us_diag *diag);
};

extern const struct seed_isa seed_kgpu, seed_fpga, seed_tinygpu;

/* "kgpu", "fpga", "tinygpu"; NULL when unknown. */
const struct seed_isa *seed_isa_lookup(const char *name);
/* "kgpu, fpga, tinygpu" */
const char *seed_isa_names(void);

/* The table row a word decodes to, or NULL. */
const struct seed_form *seed_decode(const struct seed_isa *isa,
                                    uint32_t word);
/* A field's value in a word (0 when the ISA has no such field). */
uint32_t seed_field(const struct seed_isa *isa, char name, uint32_t word);
/* The word with field `name` set to value (no change without the field). */
uint32_t seed_field_set(const struct seed_isa *isa, char name, uint32_t word,
                        uint32_t value);
/* The bits of the word that a form's operands occupy. */
uint32_t seed_operand_bits(const struct seed_isa *isa,
                           const struct seed_form *f);

US_MUST_CHECK bool seed_assemble(const struct seed_isa *isa, const char *text,
                                 size_t len, struct seed_kernel *out,
                                 struct us_diag *diag);
/* Words from a hex file: one word per line (an optional 0x; blank lines
 * and ;/ / comments skipped), launch directives in comments as in
 * assembly. */
US_MUST_CHECK bool seed_read_hex(const struct seed_isa *isa, const char *text,
                                 size_t len, struct seed_kernel *out,
                                 struct us_diag *diag);
void seed_kernel_free(struct seed_kernel *k);

/* Text of word `pc` of a kernel of n words (a target is printed as L<n>
 * when `labels`, else as a number); `.word 0x...` when no form matches. */
void seed_disassemble(const struct seed_isa *isa, uint32_t word, bool labels,
                      char *buf, size_t n);

/* The IR text (malloc'd) of the kernel under the launch `l`. */
US_MUST_CHECK bool seed_translate(const struct seed_isa *isa,
                                  const struct seed_kernel *k,
                                  const struct seed_launch *l, char **ir,
                                  struct us_diag *diag);

/* groups[0] x local[0] of the launch (checked by the ISA's rules). */
US_MUST_CHECK bool seed_launch_dims(const struct seed_isa *isa,
                                    const struct seed_launch *l,
                                    uint32_t *groups, uint32_t *local,
                                    struct us_diag *diag);
/* Bytes of buffer[0] for the launch (the fork: one copy per block). */
size_t seed_memory_bytes(const struct seed_isa *isa, uint32_t blocks);
/* Fill buffer[0] (seed_memory_bytes long, zeroed) with the launch's data.
 * False when a .data word lies outside the memory. */
US_MUST_CHECK bool seed_memory_init(const struct seed_isa *isa,
                                    const struct seed_launch *l,
                                    uint32_t blocks, uint8_t *buf,
                                    struct us_diag *diag);
/* Data word `addr` of block b's memory (little-endian in buffer[0]). */
uint32_t seed_memory_word(const struct seed_isa *isa, const uint8_t *buf,
                          uint32_t block, uint32_t addr);

/* Append one .data word / set a directive value (used by the CLI's
 * options as by the assembler). */
US_MUST_CHECK bool seed_launch_add(struct seed_launch *l, uint32_t addr,
                                   uint32_t value);

#endif
