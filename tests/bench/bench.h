/* make bench: each entry times generated code beside a hand-written
 * baseline doing the same work, in the same process, and reports the
 * ratio.  The baseline is the limit the generator aims at. */
#ifndef BENCH_H
#define BENCH_H

#include <stddef.h>
#include <stdint.h>

struct bench_case {
   const char *name;        /* "nv-sph unpack" */
   const char *unit;        /* what one item is: "header", "instruction" */
   size_t items;            /* items per run of fn */
   void (*generated)(void *state);
   void (*baseline)(void *state); /* NULL: no baseline */
   void *state;
};

/* bench.c: the "hex" values of the records of a corpus file whose line
 * contains `kind` (NULL: every record), one after another in bytes[0..cap);
 * record i is bytes[start[i]..start[i+1]), so start has max+1 entries.
 * Returns how many (at most max); exits if the file cannot be read or is
 * larger than cap. */
unsigned bench_load_corpus(const char *path, const char *kind, uint8_t *bytes, size_t cap, size_t *start,
                           unsigned max);

/* sph.c */
void sph_bench_setup(void);
size_t sph_bench_cases(struct bench_case *out, size_t max);

/* lima.c (reads tests/corpus/lima-*.jsonl) */
void lima_bench_setup(void);
size_t lima_bench_cases(struct bench_case *out, size_t max);

/* tgsi.c (reads tests/corpus/tgsi.jsonl) */
void tgsi_bench_setup(void);
size_t tgsi_bench_cases(struct bench_case *out, size_t max);

/* agx.c (reads tests/corpus/agx.jsonl) */
void agx_bench_setup(void);
size_t agx_bench_cases(struct bench_case *out, size_t max);

/* midgard.c (reads tests/corpus/midgard.jsonl) */
void midgard_bench_setup(void);
size_t midgard_bench_cases(struct bench_case *out, size_t max);

/* asm.c: the text assembler on each corpus record's text, beside
 * decode+print of the same units, for every spec that has an assembler;
 * asm_bench_report says which records the cases whose name has `filter`
 * (NULL: all) used */
void asm_bench_setup(void);
size_t asm_bench_cases(struct bench_case *out, size_t max);
void asm_bench_report(const char *filter);

/* programs.c: each corpus record disassembled as a program, as isa dis does */
void programs_bench_setup(void);
size_t programs_bench_cases(struct bench_case *out, size_t max);

#endif
