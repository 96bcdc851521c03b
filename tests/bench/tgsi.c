/* TGSI benchmark cases over the programs of tests/corpus/tgsi.jsonl (whole
 * token streams, header first): the generated decoder beside
 * tgsi_baseline.c, and decode+print and the validator through the public
 * cursor API on their own.  One item is one unit (header, declaration,
 * immediate, instruction or property). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "isagen/isagen.h"
#include "tgsi_baseline.h"

#define MAX_PROGS 1024
#define MAX_BYTES (512 * 1024) /* all programs; the corpus holds ~200 KB */

static struct {
   unsigned n;                   /* programs */
   size_t start[MAX_PROGS + 1];  /* program i is bytes[start[i]..start[i+1]) */
   uint8_t bytes[MAX_BYTES];
   size_t units;                 /* units in all programs */
   const struct isa_spec *spec;
   struct tgsi_Item item;        /* decode target, reused for every unit */
   char text[4096];
   /* validate: every unit as the cursor gave it, with its context */
   struct tgsi_Item *vitem;
   struct isa_ctx *vctx;
   int64_t *vstate;
   volatile uint64_t sink;
} S;

static void fail(unsigned prog, size_t unit, size_t offset, const char *what)
{
   fprintf(stderr, "bench: tgsi program %u unit %zu (byte %zu): %s\n", prog, unit, offset, what);
   exit(1);
}

static uint64_t rng_state = UINT64_C(0x9e3779b97f4a7c15);

static uint32_t rng(void)
{
   rng_state ^= rng_state << 13;
   rng_state ^= rng_state >> 7;
   rng_state ^= rng_state << 17;
   return (uint32_t)(rng_state >> 16);
}

/* The corpus leaves every reserved bit clear and many fields at one value,
 * so also compare both decoders on damaged copies of each program (random
 * bits flipped, random truncation): they must accept and reject the same
 * units and give the same structs for the ones they accept. */
static void check_damaged(void)
{
   static uint8_t copy[8192];
   static struct tgsi_Item a, b;
   size_t compared = 0;
   for (unsigned round = 0; round < 12; round++) {
      unsigned shift = 2 + round % 6; /* a bit flips with probability 2^-shift */
      for (unsigned p = 0; p < S.n; p++) {
         size_t len = S.start[p + 1] - S.start[p], off = 0, u = 0;
         if (len > sizeof copy)
            continue;
         memcpy(copy, S.bytes + S.start[p], len);
         for (size_t i = 0; i < len; i++)
            for (unsigned bit = 0; bit < 8; bit++)
               if ((rng() & ((1u << shift) - 1)) == 0)
                  copy[i] ^= (uint8_t)(1u << bit);
         if (round % 3 == 2)
            len = rng() % (len + 1);
         while (off < len) {
            size_t sa = 0, sb = 0;
            int ra, rb;
            memset(&a, 0, sizeof a);
            memset(&b, 0, sizeof b);
            ra = isa_decode_unit(S.spec, copy, len, off, &a, &sa, NULL);
            rb = tgsi_baseline_decode_item(copy, len, off, off == 0, &b, &sb);
            if ((ra == 0) != (rb == 0))
               fail(p, u, off, ra ? "damaged copy: only the baseline decodes it"
                                  : "damaged copy: only the generated decoder decodes it");
            if (ra)
               break;
            if (sa != sb || memcmp(&a, &b, sizeof a))
               fail(p, u, off, "damaged copy: baseline and generated structs differ");
            compared++;
            off += sa;
            u++;
         }
      }
   }
   if (compared < 1000) {
      fprintf(stderr, "bench: only %zu damaged units compared\n", compared);
      exit(1);
   }
}

void tgsi_bench_setup(void)
{
   static struct tgsi_Item a, b, c;
   S.n = bench_load_corpus("tests/corpus/tgsi.jsonl", NULL, S.bytes, sizeof S.bytes, S.start, MAX_PROGS);
   S.spec = isa_spec_find("tgsi");
   if (!S.spec || S.spec->unit->c_size != sizeof(struct tgsi_Item)) {
      fprintf(stderr, "bench: spec tgsi missing or not struct tgsi_Item\n");
      exit(1);
   }
   /* the library, the inline generated decoder and the baseline must give
    * byte-identical structs for every unit before anything is timed */
   S.units = 0;
   for (unsigned p = 0; p < S.n; p++) {
      const uint8_t *buf = S.bytes + S.start[p];
      size_t len = S.start[p + 1] - S.start[p], off = 0, u = 0;
      while (off < len) {
         size_t sa = 0, sb = 0, bits = 0;
         memset(&a, 0, sizeof a);
         memset(&b, 0, sizeof b);
         memset(&c, 0, sizeof c);
         if (isa_decode_unit(S.spec, buf, len, off, &a, &sa, NULL))
            fail(p, u, off, "the library does not decode it");
         if ((off == 0 ? tgsi_Item_decode_as(buf, len, 0, &c, TGSI_ITEM_HEADER, &bits, NULL)
                       : tgsi_Item_decode(buf, len, off * 8, &c, &bits, NULL)) ||
             bits != sa * 8 || memcmp(&a, &c, sizeof a))
            fail(p, u, off, "inline generated decoder and library disagree");
         if (tgsi_baseline_decode_item(buf, len, off, off == 0, &b, &sb))
            fail(p, u, off, "the baseline does not decode it");
         if (sb != sa)
            fail(p, u, off, "baseline and generated sizes differ");
         if (memcmp(&a, &b, sizeof a))
            fail(p, u, off, "baseline and generated structs differ");
         off += sa;
         u++;
      }
      S.units += u;
   }
   check_damaged();

   /* validate: keep each unit and the context the cursor gives it (prev
    * and state pointing at copies that stay valid).  About 16,000 units of
    * 1.7 KB: the validate case walks ~28 MB, more than the caches hold. */
   unsigned ns = S.spec->n_state;
   S.vitem = calloc(S.units, sizeof *S.vitem);
   S.vctx = calloc(S.units, sizeof *S.vctx);
   S.vstate = calloc(S.units * (ns ? ns : 1), sizeof *S.vstate);
   if (!S.vitem || !S.vctx || !S.vstate) {
      fprintf(stderr, "bench: out of memory\n");
      exit(1);
   }
   size_t v = 0;
   for (unsigned p = 0; p < S.n; p++) {
      struct isa_cursor cur;
      struct isa_ctx ctx;
      struct isa_error err;
      size_t first = v;
      int r;
      if (isa_cursor_init(&cur, S.spec, S.bytes + S.start[p], S.start[p + 1] - S.start[p]))
         fail(p, 0, 0, "isa_cursor_init failed");
      while ((r = isa_cursor_next(&cur, &a, &ctx, &err)) > 0) {
         struct isa_out o;
         if (v == S.units)
            fail(p, v - first, (size_t)ctx.offset, "the cursor gives more units than isa_decode_unit");
         S.vitem[v] = a;
         if (ns && ctx.state)
            memcpy(&S.vstate[v * ns], ctx.state, ns * sizeof *S.vstate);
         S.vctx[v] = ctx;
         S.vctx[v].prev = ctx.prev ? &S.vitem[v - 1] : NULL;
         S.vctx[v].state = ns && ctx.state ? &S.vstate[v * ns] : NULL;
         isa_out_buffer(&o, S.text, sizeof S.text);
         if (S.spec->unit->print(&S.vitem[v], &o, &ctx) || o.error)
            fail(p, v - first, (size_t)ctx.offset, "print failed");
         v++;
      }
      if (r < 0)
         fail(p, v - first, cur.offset, "the cursor stopped on an error");
      isa_cursor_fini(&cur);
   }
   if (v != S.units) {
      fprintf(stderr, "bench: the cursor gave %zu units, isa_decode_unit %zu\n", v, S.units);
      exit(1);
   }
}

/* ---- decode: every unit of every program into one reused struct ---- */

static void gen_decode(void *st)
{
   (void)st;
   for (unsigned p = 0; p < S.n; p++) {
      const uint8_t *buf = S.bytes + S.start[p];
      size_t len = S.start[p + 1] - S.start[p], bits = 0, off;
      if (tgsi_Item_decode_as(buf, len, 0, &S.item, TGSI_ITEM_HEADER, &bits, NULL))
         continue;
      for (off = bits / 8; off < len; off += bits / 8) {
         if (tgsi_Item_decode(buf, len, off * 8, &S.item, &bits, NULL))
            break;
         S.sink += S.item.variant;
      }
   }
}

static void base_decode(void *st)
{
   (void)st;
   for (unsigned p = 0; p < S.n; p++) {
      const uint8_t *buf = S.bytes + S.start[p];
      size_t len = S.start[p + 1] - S.start[p], size = 0, off;
      if (tgsi_baseline_decode_item(buf, len, 0, 1, &S.item, &size))
         continue;
      for (off = size; off < len; off += size) {
         if (tgsi_baseline_decode_item(buf, len, off, 0, &S.item, &size))
            break;
         S.sink += S.item.variant;
      }
   }
}

/* ---- decode+print through the cursor.  isa_cursor_init allocates one
 * block per program (the states and the step's writes), freed by
 * isa_cursor_fini: counted in the time. ---- */

static void gen_print(void *st)
{
   (void)st;
   for (unsigned p = 0; p < S.n; p++) {
      struct isa_cursor cur;
      struct isa_ctx ctx;
      struct isa_error err;
      if (isa_cursor_init(&cur, S.spec, S.bytes + S.start[p], S.start[p + 1] - S.start[p]))
         continue;
      while (isa_cursor_next(&cur, &S.item, &ctx, &err) > 0) {
         struct isa_out o;
         isa_out_buffer(&o, S.text, sizeof S.text);
         S.sink += (uint64_t)S.spec->unit->print(&S.item, &o, &ctx) + (uint8_t)S.text[0];
      }
      isa_cursor_fini(&cur);
   }
}

/* ---- validate every unit decoded in setup, with its cursor context ---- */

static void gen_validate(void *st)
{
   struct isa_findings f;
   (void)st;
   memset(&f, 0, sizeof f);
   for (size_t i = 0; i < S.units; i++)
      S.spec->unit->validate(&S.vitem[i], &f, &S.vctx[i], NULL);
   S.sink += f.count[0] + f.count[1] + f.count[2];
}

size_t tgsi_bench_cases(struct bench_case *out, size_t max)
{
   const struct bench_case c[] = {
      {"tgsi decode", "item", S.units, gen_decode, base_decode, NULL},
      {"tgsi decode+print", "item", S.units, gen_print, NULL, NULL},
      {"tgsi validate", "item", S.units, gen_validate, NULL, NULL},
   };
   size_t n = sizeof c / sizeof c[0];
   if (n > max)
      n = max;
   memcpy(out, c, n * sizeof c[0]);
   return n;
}
