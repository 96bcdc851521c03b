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

/* sph.c */
void sph_bench_setup(void);
size_t sph_bench_cases(struct bench_case *out, size_t max);

/* lima.c (reads tests/corpus/lima-*.jsonl) */
void lima_bench_setup(void);
size_t lima_bench_cases(struct bench_case *out, size_t max);

/* tgsi.c (reads tests/corpus/tgsi.jsonl) */
void tgsi_bench_setup(void);
size_t tgsi_bench_cases(struct bench_case *out, size_t max);

#endif
