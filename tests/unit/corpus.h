/* Reference corpora as C data (made by tests/corpus2c.py). */
#ifndef TEST_CORPUS_H
#define TEST_CORPUS_H

struct corpus_field {
   const char *name;
   long long value;
};

#define CORPUS_RESERVED_SET 1u
#define CORPUS_ENUM_UNNAMED 2u
#define CORPUS_LISTING 4u      /* a listing: printed with addresses (isa dis --offsets) */
#define CORPUS_NONE_OPERAND 8u /* the reference prints the literal None for an operand */
#define CORPUS_FIXED_QUIRK 16u /* triggers a reference-printer quirk we fix (tests/corpus/NAME.quirks.json) */
#define CORPUS_TRIMMED 32u     /* the text lost all its trailing newlines, not just the last */

struct corpus_entry {
   const char *id;
   const char *hex;
   const struct corpus_field *fields;
   unsigned n_fields;
   const char *type;
   const char *text; /* reference text, or NULL */
   unsigned flags;
   const char *rem;        /* hex value of the bits no field covers, when the corpus gives it */
   const char *as_alt;     /* decode as this alternative (one another always shadows) */
   const char *decodes_as; /* ...which these bytes otherwise decode as */
   const char *none_u;     /* CORPUS_NONE_OPERAND, per None operand: a texture's U, or "-" ("11,-") */
   const char *options;    /* spec options the entry needs, "gpu=t760", or NULL */
   const char *asm_gap;    /* why the assembler does not read its text back yet (NAME.asm-gaps.json), or NULL */
};

/* A difference from the reference text the tests accept, for the records
 * with `flag`: `transform` (a function of test_corpus.c, by name) turns the
 * reference text into ours, or, with `both`, sets the same part aside in
 * both texts.  From the corpus's quirks file (tests/corpus/NAME.quirks.json). */
struct corpus_deviation {
   unsigned flag;
   const char *transform;
   int both;
   const char *reason;
};

/* A corpus and the spec it is for (its records' "isa" key). */
struct corpus {
   const char *spec;
   const char *name; /* the file, "agx-2021.jsonl" */
   const struct corpus_entry *entries;
   const unsigned *count;
   const struct corpus_deviation *deviations;
   unsigned n_deviations;
};

/* Every corpus of tests/corpus/ (tests/corpus2c.py writes the table and corpora.h). */
extern const struct corpus corpora[];
extern const unsigned n_corpora;

#include "corpora.h"

#endif
