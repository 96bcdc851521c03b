/* "SPEC dis, in process": what `isa dis --batch` does with each line, less
 * its hex and JSON and the process around it.  Every record of the spec's
 * corpus is a program of its own, walked by a cursor that keeps the units
 * (the CLI's way) and printed into a buffer with the spec's separators.
 * "SPEC batch, in process": each record's hex line answered in memory by
 * the CLI's own batch_answer (hex in, JSON out), less only the process.
 * tests/bench/batch.py sets the whole-process time per program beside
 * both. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "isagen/isagen.h"

#define MAX_PROGRAMS 4096
#define MAX_BYTES (1 << 20)

struct programs {
   const char *spec_name, *file;
   const struct isa_spec *spec;
   unsigned n;
   size_t start[MAX_PROGRAMS + 1]; /* program i is bytes[start[i]..start[i+1]) */
   uint8_t *bytes;
   char *hex; /* program i in hex at hex + 2 * start[i] */
};

/* the corpora tests/bench/batch.py runs, in its order */
static struct programs P[] = {
   {"lima-gp", "tests/corpus/lima-gp.jsonl", NULL, 0, {0}, NULL, NULL},
   {"lima-pp", "tests/corpus/lima-pp.jsonl", NULL, 0, {0}, NULL, NULL},
   {"tgsi", "tests/corpus/tgsi.jsonl", NULL, 0, {0}, NULL, NULL},
   {"agx-g13", "tests/corpus/agx.jsonl", NULL, 0, {0}, NULL, NULL},
   {"midgard", "tests/corpus/midgard.jsonl", NULL, 0, {0}, NULL, NULL},
};
#define N_CORPORA (sizeof P / sizeof P[0])

static char text[1 << 16];
static volatile uint64_t sink;
/* batch_answer's scratch and its answer */
static char scratch_text[TEXT_CAP], answer[1 << 16];
static uint8_t scratch_bytes[MAX_BYTES + 1]; /* a program's bytes (batch_answer: len / 2 + 1 for len hex digits) */

void programs_bench_setup(void)
{
   for (size_t k = 0; k < N_CORPORA; k++) {
      P[k].spec = isa_spec_find(P[k].spec_name);
      P[k].bytes = (uint8_t *)malloc(MAX_BYTES);
      if (!P[k].spec || !P[k].bytes) {
         fprintf(stderr, "bench: spec %s missing, or no memory\n", P[k].spec_name);
         exit(1);
      }
      P[k].n = bench_load_corpus(P[k].file, NULL, P[k].bytes, MAX_BYTES, P[k].start, MAX_PROGRAMS);
      P[k].hex = (char *)malloc(2 * P[k].start[P[k].n] + 1);
      if (!P[k].hex) {
         fprintf(stderr, "bench: no memory\n");
         exit(1);
      }
      for (size_t i = 0; i < P[k].start[P[k].n]; i++)
         snprintf(P[k].hex + 2 * i, 3, "%02x", P[k].bytes[i]);
   }
}

static void dis_programs(void *state)
{
   const struct programs *p = (const struct programs *)state;
   for (unsigned i = 0; i < p->n; i++) {
      struct isa_out o;
      struct isa_cursor c;
      struct isa_ctx ctx;
      isa_out_buffer(&o, text, sizeof text);
      if (isa_cursor_init(&c, p->spec, p->bytes + p->start[i], p->start[i + 1] - p->start[i]) != ISA_OK)
         continue;
      while (isa_cursor_next(&c, NULL, &ctx, NULL) > 0) {
         if (ctx.failed)
            isa_out_str(&o, p->spec->failed_text);
         else
            p->spec->unit->print(isa_cursor_unit(&c), &o, &ctx);
         isa_out_str(&o, p->spec->separator);
      }
      isa_cursor_fini(&c);
      isa_out_flush(&o);
      sink += isa_out_len(&o);
   }
}

static void batch_programs(void *state)
{
   const struct programs *p = (const struct programs *)state;
   struct options o;
   memset(&o, 0, sizeof o);
   o.spec = p->spec;
   isa_options_init(o.spec, o.spec_options);
   for (unsigned i = 0; i < p->n; i++) {
      struct isa_out out;
      isa_out_buffer(&out, answer, sizeof answer);
      sink += batch_answer(&o, p->hex + 2 * p->start[i], 2 * (p->start[i + 1] - p->start[i]), scratch_bytes,
                           scratch_text, NULL, &out);
      isa_out_flush(&out);
      sink += isa_out_len(&out);
   }
}

size_t programs_bench_cases(struct bench_case *out, size_t max)
{
   static char names[2 * N_CORPORA][40];
   size_t n = 0;
   for (size_t k = 0; k < 2 * N_CORPORA && n < max; k++, n++) {
      const struct programs *p = &P[k % N_CORPORA];
      snprintf(names[k], sizeof names[k], "%s %s, in process", p->spec_name, k < N_CORPORA ? "dis" : "batch");
      out[n].name = names[k];
      out[n].unit = "program";
      out[n].items = p->n;
      out[n].generated = k < N_CORPORA ? dis_programs : batch_programs;
      out[n].baseline = NULL;
      out[n].state = (void *)p;
   }
   return n;
}
