/* nv-sph benchmark cases: unpack, checked pack, unchecked pack of 1024
 * random valid headers (half VTG, half PS), beside sph_baseline.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "isagen/isagen.h"
#include "nv_sph.h"
#include "sph_baseline.h"

#define N 1024

static struct {
   uint8_t bytes[N][80];
   struct nv_sph_Header hdr[N];
   uint8_t out[80];
   volatile uint64_t sink;
} S;

static uint64_t rng(uint64_t *s)
{
   *s ^= *s << 13;
   *s ^= *s >> 7;
   *s ^= *s << 17;
   return *s;
}

void sph_bench_setup(void)
{
   uint64_t s = 88172645463325252ull;
   for (unsigned i = 0; i < N; i++) {
      struct nv_sph_Header a, b;
      uint8_t pa[80], pb[80];
      for (unsigned k = 0; k < 80; k++)
         S.bytes[i][k] = (uint8_t)rng(&s);
      S.bytes[i][0] = (uint8_t)((S.bytes[i][0] & ~31u) | (i % 2 ? 2u : 1u));
      /* both sides must agree before they are timed */
      if (nv_sph_Header_unpack(S.bytes[i], 80, &a, NULL) || sph_baseline_unpack(S.bytes[i], 80, &b)) {
         fprintf(stderr, "bench: header %u does not decode\n", i);
         exit(1);
      }
      nv_sph_Header_pack(&b, pa);
      sph_baseline_pack(&a, pb);
      if (memcmp(pa, S.bytes[i], 80) || memcmp(pb, S.bytes[i], 80) || sph_baseline_pack_checked(&a, pb) ||
          nv_sph_Header_pack_checked(&a, pa, 80, NULL, NULL)) {
         fprintf(stderr, "bench: the baseline and the generated code disagree on header %u\n", i);
         exit(1);
      }
      S.hdr[i] = a;
   }
}

static void gen_unpack(void *st)
{
   (void)st;
   for (unsigned i = 0; i < N; i++)
      S.sink += (uint64_t)nv_sph_Header_unpack(S.bytes[i], 80, &S.hdr[i], NULL);
}

static void base_unpack(void *st)
{
   (void)st;
   for (unsigned i = 0; i < N; i++)
      S.sink += (uint64_t)sph_baseline_unpack(S.bytes[i], 80, &S.hdr[i]);
}

static void gen_pack_checked(void *st)
{
   (void)st;
   for (unsigned i = 0; i < N; i++) {
      S.sink += (uint64_t)nv_sph_Header_pack_checked(&S.hdr[i], S.out, sizeof S.out, NULL, NULL);
      S.sink += S.out[i % 80];
   }
}

static void base_pack_checked(void *st)
{
   (void)st;
   for (unsigned i = 0; i < N; i++) {
      S.sink += (uint64_t)sph_baseline_pack_checked(&S.hdr[i], S.out);
      S.sink += S.out[i % 80];
   }
}

static void gen_pack(void *st)
{
   (void)st;
   for (unsigned i = 0; i < N; i++) {
      nv_sph_Header_pack(&S.hdr[i], S.out);
      S.sink += S.out[i % 80];
   }
}

static void base_pack(void *st)
{
   (void)st;
   for (unsigned i = 0; i < N; i++) {
      sph_baseline_pack(&S.hdr[i], S.out);
      S.sink += S.out[i % 80];
   }
}

static void gen_validate(void *st)
{
   struct isa_findings f;
   struct isa_ctx ctx = {0};
   ctx.size = 640;
   (void)st;
   memset(&f, 0, sizeof f);
   for (unsigned i = 0; i < N; i++)
      nv_sph_Header_validate(&S.hdr[i], &f, &ctx, NULL);
   S.sink += f.count[0] + f.count[1] + f.count[2];
}

size_t sph_bench_cases(struct bench_case *out, size_t max)
{
   const struct bench_case c[] = {
      {"nv-sph unpack", "header", N, gen_unpack, base_unpack, NULL},
      {"nv-sph checked pack", "header", N, gen_pack_checked, base_pack_checked, NULL},
      {"nv-sph unchecked pack", "header", N, gen_pack, base_pack, NULL},
      {"nv-sph validate", "header", N, gen_validate, NULL, NULL},
   };
   size_t n = sizeof c / sizeof c[0];
   if (n > max)
      n = max;
   memcpy(out, c, n * sizeof c[0]);
   return n;
}
