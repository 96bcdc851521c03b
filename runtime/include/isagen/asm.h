/* isagen/asm.h -- the text assembler: a spec's display templates run
 * backwards.
 *
 * The generator turns the templates a unit prints with into a table of
 * goals (gen/isagenlib/cgen/assembler.py); isa_assemble walks it with
 * backtracking (runtime/src/asm.c), records an equation for every value
 * the text gives, solves them with the expressions' C code, and accepts a
 * unit only when encoding it, decoding the bytes and printing them gives
 * the text it matched.
 */
#ifndef ISAGEN_ASM_H
#define ISAGEN_ASM_H

#include "isagen/isagen.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- assembling text ------------------------------------------------------ */

#define ISA_ASM_MESSAGE 320

/* One problem in the text: where it is (1-based line and column, in bytes)
 * and what is wrong. */
struct isa_asm_diag {
   unsigned line, col;
   char message[ISA_ASM_MESSAGE];
};

/* Assemble the program text[0..len) of `spec` into buf[0..cap); *size gets
 * the program's size in bytes.  `options`: spec->n_options values
 * (isa_options_init), or NULL for the defaults.  Problems go into
 * diags[0..max_diags) (*n_diags gets how many were found, even past
 * max_diags); the text goes on being read after an error, from the next
 * line.  Returns ISA_OK, ISA_ERR_ARG when the text has errors (or the spec
 * has no assembler: spec->assembler is NULL), ISA_ERR_NOSPACE when buf is
 * too small, or the program encoder's status. */
int isa_assemble(const struct isa_spec *spec, const char *text, size_t len, const int64_t *options,
                 uint8_t *buf, size_t cap, size_t *size,
                 struct isa_asm_diag *diags, unsigned max_diags, unsigned *n_diags);

/* ---- the generated tables ------------------------------------------------- */

enum isa_asm_goal_kind {
   ISA_ASM_LIT = 1, /* text[0..len): template blanks match any run of blanks */
   ISA_ASM_NUM,     /* a number printed as b (enum isa_asm_num) says; then expr a == it; c 1: expr a
                     * reads $offset (a branch target): a label may stand for the number */
   ISA_ASM_ENUM,    /* a name of enums[b], or the number of an unnamed value; expr a == it */
   ISA_ASM_SEQ,     /* kids, one after the other */
   ISA_ASM_ALT,     /* one of the kids, tried in order; b 1: a struct's short form, then its long form only
                     * where a listing's next offset fixes the unit's bytes (nothing reads the length
                     * flag, and the encoder sets it where a field needs the long form) */
   ISA_ASM_CHECK,   /* expr a is true (b 1) or false (b 0); c 1: a rule's (under a RULE), checked but
                     * never solved, probed or searched for */
   ISA_ASM_EQ,      /* expr a == expr b, or == c when b is -1 */
   ISA_ASM_CALL,    /* an operand: a frame of b parameters equal to the kids (expressions of the
                     * caller), then goal a; its fields are at `offset` in the caller's struct (a
                     * nested struct or item printed with its display: no parameters) */
   ISA_ASM_SCOPE,   /* select the unit's alternative a (0: the unit is a struct); fields are read at
                     * `offset` in the unit, which takes at least c bytes; b 1: only the program's
                     * first unit is this alternative, b 2: the first unit is not */
   ISA_ASM_LIST,    /* the kids, each printed after text (a separator) or not at all */
   ISA_ASM_END,     /* the unit's text is over */
   ISA_ASM_FOR,     /* goal a once per value from expr kids[0] up to expr kids[1], in parameter slot b;
                     * as many times as the text has it when the bound is unknown */
   ISA_ASM_REAL,    /* a floating-point number: expr a printed as b (enum isa_asm_real) says gives
                     * its very text; c: FIXED's width << 8 | precision, | ISA_ASM_F32_BITS
                     * (ISA_ASM_F64_BITS) when expr a is the bits of a binary32 (binary64), |
                     * ISA_ASM_SCALED when it is integer expr kids[0] times constant expr kids[1]
                     * (| ISA_ASM_NEGATED: negated; | ISA_ASM_ABS: under abs()) */
   ISA_ASM_UNDEF,   /* an undefined operand case: a unit read through one is taken only when no
                     * defined reading prints the text */
   ISA_ASM_ITEM,    /* a {list} item with a condition: kids[0] (the condition holds), the list's
                     * separator and goal a; or kids[1] (it does not) and no text */
   ISA_ASM_NEST,    /* a struct field or item printed with its own display: goal a, its fields at
                     * `offset` in the caller's struct, plus params[b - 1] * c bytes when b > 0 (an
                     * element of a repeated item, indexed by a {for} variable, of at most len) */
   ISA_ASM_OPT,     /* {optional}: goal a, or in a lax reading no text (the check then passes over
                     * what is printed there) */
   ISA_ASM_LAX,     /* goal a, in a lax reading only: an {if}'s condition false and its body read
                     * all the same (text the printer leaves out: COLOR[0]), or (b 1) attributes in
                     * another order than printed; the check passes over the text it reads */
   ISA_ASM_RULE     /* goal a, the struct's own rules of severity error as equations, in a unit of one
                     * line, unless it is read again without them (they refuted every reading) */
};

enum isa_asm_real { ISA_ASM_REPR, ISA_ASM_G, ISA_ASM_FIXED, ISA_ASM_HALF_F, ISA_ASM_HALF_G };
#define ISA_ASM_F32_BITS (1 << 16)
#define ISA_ASM_F64_BITS (1 << 17)
#define ISA_ASM_SCALED (1 << 18)
#define ISA_ASM_NEGATED (1 << 19)
#define ISA_ASM_ABS (1 << 20)

enum isa_asm_num { ISA_ASM_DEC, ISA_ASM_UDEC, ISA_ASM_HEX, ISA_ASM_HEX_0X, ISA_ASM_OCT, ISA_ASM_BIN, ISA_ASM_BIN_0B };

struct isa_asm_goal {
   uint8_t kind;
   int32_t a, b;
   int64_t c;
   uint32_t first, n; /* kids: kids[first..first+n) */
   const char *text;
   uint32_t len;
   size_t offset;
   uint8_t lead;  /* the character its text starts with (blanks aside), or 0: an ALT skips a kid whose
                   * first character is not the text's */
   uint32_t head;  /* with lead: the LIT goal it starts with (what an error says was expected) */
};

/* A field a display reads: a scalar member of the struct it is about, or
 * of the struct an operand's struct parameter points at (base) (with slot
 * > 0: of element scale * params[slot - 1] + add of a repeated item,
 * `offset` being element 0's, and elements `stride` bytes apart). */
struct isa_asm_var {
   size_t offset; /* of the C member in that struct */
   uint8_t c_size;
   uint8_t width;
   uint8_t is_signed;
   uint8_t slot;
   uint8_t scale, add;
   uint16_t count; /* with slot: the item's most elements */
   uint32_t stride;
   uint16_t most;  /* > 0: the largest value it may take (a repeated item's count: its max) */
   uint8_t base; /* > 0: a field of the struct whose address params[base - 1] holds (an operand's
                  * struct parameter), not of the frame's struct */
   int32_t index; /* > 0: element exprs[index - 1] (computed in the reading frame; past count it
                   * reads 0) of an array field, `offset` being element 0's, `stride` bytes apart */
   uint32_t item_offset, item_size; /* an item's presence flag: the item's bytes in the struct */
};

/* An expression of a template: its value (eval, or eval_real for a
 * floating-point one), given the struct its fields are in (self) and the
 * operand's parameters and loop variables (params); and for the variables
 * it reads (reads[first..first+n): a var index, or -1 - k for parameter
 * k), a guess of the variable's value that makes it `want` (propose; bit
 * i of proposes set when read i has one).  The guess is checked.  A guess
 * through a right shift cannot know the bits it dropped: free[read] says
 * how many (then `alt` gives them; 255: too many to try, the matcher
 * searches the variable instead). */
struct isa_asm_expr {
   int64_t (*eval)(const void *self, const int64_t *params, const struct isa_ctx *ctx);
   double (*eval_real)(const void *self, const int64_t *params, const struct isa_ctx *ctx); /* a float's */
   int64_t (*propose)(const void *self, const int64_t *params, const struct isa_ctx *ctx, unsigned read,
                      int64_t want, int64_t alt);
   uint32_t first;
   uint16_t n;
   uint32_t proposes;
   uint8_t separable; /* fields side by side: every read's guess needs `want` only, so all are
                       * guessed at once however many are unknown */
   uint8_t identity;  /* the value of its one variable, a field as it is */
   uint8_t bits;      /* its value always fits this many unsigned bits (`x & 0xFF`: 8), or 0 */
   uint8_t passes;    /* its value is its one read's as it is (an unsigned field, a parameter): the
                       * bits of it an equation reads are the bits of that read it reads */
};

/* The names of an enum the text may give, longest first. */
struct isa_asm_name {
   const char *name;
   uint32_t len;
   int64_t value;
};

struct isa_asm_enum {
   const struct isa_asm_name *names;
   uint32_t n;
   int (*named)(int64_t value); /* the value has a name (else it prints as its number) */
};

#define ISA_ASM_MAX_PARAMS 16

struct isa_asm_chained {
   uint32_t alt;
   size_t offset;
   uint8_t c_size, width, is_signed;
};

struct isa_asm {
   const struct isa_asm_goal *goals;
   const uint32_t *kids;
   const struct isa_asm_expr *exprs;
   const int32_t *reads;
   const uint8_t *free;
   const uint64_t *masks; /* per read: the bits of its field that can change the expression (0: all) */
   const struct isa_asm_var *vars;
   const struct isa_asm_enum *enums;
   void (*init)(void *unit); /* a unit before its text is read: zero, and the XML defaults */
   /* the unit prints with the default display (isa_dump): its text is read
    * as rows of NAME=VALUE through the reflection tables, and no goals */
   uint8_t dump;
   uint8_t multiline;  /* a unit's text may span lines */
   uint8_t line_units; /* a unit's text is whole lines: it ends where a line does */
   uint32_t unit;   /* the goal a unit's text matches */
   int32_t prefix;  /* the listing's prefix (isa dis --offsets), or -1 */
   /* before a unit is encoded: the views of its overlay structs made one
    * (the text may set fields of several; known: a byte per byte of the
    * unit, 1 where a field the matcher set is), or NULL */
   void (*merge)(void *unit, const unsigned char *known);
   uint32_t max_bytes; /* the most bytes a unit it writes takes */
   /* a choice's alternative chosen: set_variant, then what init does for a
    * unit (defaults of its items, expect= values), or NULL: set_variant */
   void (*select)(void *unit, unsigned alt);
   /* the listing prefix's number of a unit's place (an expr of $offset
    * alone): what a label stands for; -1 when the text has no labels */
   int32_t place;
   uint8_t reads_last; /* a display reads $last: a unit the text ends with is read as the last */
   /* the fields the program encoder derives from the next unit (<derive>s
    * reading $next, Midgard's next tag), of alternative alt (0: the unit is
    * a struct) at `offset` in the unit: the <state>s the next unit is read
    * with come from them */
   const struct isa_asm_chained *chained;
   uint32_t n_chained;
   uint8_t empty_lines; /* every unit's text has an empty line (Midgard's bundle end): an empty line
                         * in a text is a unit's end, and a template's line break reads across none */
   /* of two encodings printing the same text, which the spec's <prefer>
    * ranks first (the reference encoder's choice): > 0 unit a, < 0 unit b,
    * 0 neither (or two alternatives of a choice); NULL: no <prefer> */
   int (*prefer)(const void *a, const void *b, const struct isa_ctx *ctx);
   /* after a unit is read: the spec's <fill>s, what the reference encoder
    * writes where the text leaves bits open.  Each that changes a field
    * asks keep(cookie) whether the unit still prints as it did; when not,
    * the field is put back.  NULL: the spec has none */
   void (*fill)(void *unit, int (*keep)(void *cookie), void *cookie);
};

#ifdef __cplusplus
}
#endif

#endif /* ISAGEN_ASM_H */
