/* Midgard benchmark cases over the programs of tests/corpus/midgard.jsonl.
 *
 * "midgard decode": every bundle the listing reaches, decoded by the
 * generated decoder beside midgard_baseline.c (both checked to give the same
 * structs for every bundle first).  "midgard decode+print" and "midgard
 * validate" run the public cursor API over whole programs, with the
 * listing's states (r8..r15 naming, tag tracking) and the GPU option.  One
 * item is one bundle. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "isagen/isagen.h"
#include "midgard_baseline.h"

#define MAX_PROGS 2048
#define MAX_BYTES (1024 * 1024)
#define MAX_BUNDLES 8192

static struct {
   unsigned n;                  /* programs */
   size_t start[MAX_PROGS + 1]; /* program i is bytes[start[i]..start[i+1]) */
   uint8_t bytes[MAX_BYTES];
   unsigned n_bundles;          /* bundles the listings reach */
   size_t prog[MAX_BUNDLES], at[MAX_BUNDLES]; /* each one's program and offset */
   const struct isa_spec *spec;
   struct midgard_Bundle b;
   char text[1 << 16];
   volatile uint64_t sink;
} S;

void midgard_bench_setup(void)
{
   static struct midgard_Bundle a, b;
   S.n = bench_load_corpus("tests/corpus/midgard.jsonl", NULL, S.bytes, sizeof S.bytes, S.start, MAX_PROGS);
   S.spec = isa_spec_find("midgard");
   if (!S.spec || S.spec->unit->c_size != sizeof(struct midgard_Bundle) || S.n < 1000) {
      fprintf(stderr, "bench: spec midgard or its corpus missing\n");
      exit(1);
   }
   for (unsigned p = 0; p < S.n; p++) {
      struct isa_cursor cur;
      struct isa_ctx ctx;
      struct isa_error err;
      isa_cursor_init(&cur, S.spec, S.bytes + S.start[p], S.start[p + 1] - S.start[p]);
      while (S.n_bundles < MAX_BUNDLES && isa_cursor_next(&cur, &a, &ctx, &err) > 0) {
         S.prog[S.n_bundles] = p;
         S.at[S.n_bundles++] = ctx.offset;
      }
      isa_cursor_fini(&cur);
   }
   /* both must give identical structs */
   for (unsigned i = 0; i < S.n_bundles; i++) {
      const uint8_t *buf = S.bytes + S.start[S.prog[i]];
      size_t len = S.start[S.prog[i] + 1] - S.start[S.prog[i]], ba = 0, bb = 0;
      memset(&a, 0, sizeof a);
      if (midgard_Bundle_decode(buf, len, 8 * S.at[i], &a, &ba, NULL) ||
          midgard_baseline_decode_bundle(buf, len, S.at[i], &b, &bb) || ba != 8 * bb || memcmp(&a, &b, sizeof a)) {
         fprintf(stderr, "bench: midgard bundle %u: generated and hand-written decoding disagree\n", i);
         exit(1);
      }
   }
}

static void gen_decode(void *st)
{
   (void)st;
   for (unsigned i = 0; i < S.n_bundles; i++) {
      size_t bits = 0, p = S.prog[i];
      if (midgard_Bundle_decode(S.bytes + S.start[p], S.start[p + 1] - S.start[p], 8 * S.at[i], &S.b, &bits, NULL) == 0)
         S.sink += S.b.variant + bits;
   }
}

static void base_decode(void *st)
{
   (void)st;
   for (unsigned i = 0; i < S.n_bundles; i++) {
      size_t bytes = 0, p = S.prog[i];
      if (midgard_baseline_decode_bundle(S.bytes + S.start[p], S.start[p + 1] - S.start[p], S.at[i], &S.b, &bytes) == 0)
         S.sink += S.b.variant + 8 * bytes;
   }
}

/* whole listings through the cursor, printed or validated */
static void programs(int print)
{
   struct isa_findings f;
   memset(&f, 0, sizeof f);
   for (unsigned p = 0; p < S.n; p++) {
      struct isa_cursor cur;
      struct isa_ctx ctx;
      struct isa_error err;
      struct isa_out o;
      isa_out_buffer(&o, S.text, sizeof S.text);
      isa_cursor_init(&cur, S.spec, S.bytes + S.start[p], S.start[p + 1] - S.start[p]);
      while (isa_cursor_next(&cur, &S.b, &ctx, &err) > 0) {
         if (print)
            S.spec->unit->print(&S.b, &o, &ctx);
         else
            S.spec->unit->validate(&S.b, &f, &ctx, NULL);
      }
      isa_cursor_fini(&cur);
      S.sink += isa_out_len(&o);
   }
   S.sink += f.count[0] + f.count[1] + f.count[2];
}

static void gen_print(void *st)
{
   (void)st;
   programs(1);
}

static void gen_validate(void *st)
{
   (void)st;
   programs(0);
}

size_t midgard_bench_cases(struct bench_case *out, size_t max)
{
   const struct bench_case c[] = {
      {"midgard decode", "bundle", S.n_bundles, gen_decode, base_decode, NULL},
      {"midgard decode+print", "bundle", S.n_bundles, gen_print, NULL, NULL},
      {"midgard validate", "bundle", S.n_bundles, gen_validate, NULL, NULL},
   };
   size_t n = sizeof c / sizeof c[0] < max ? sizeof c / sizeof c[0] : max;
   memcpy(out, c, n * sizeof c[0]);
   return n;
}
