/* AGX benchmark cases over the single instructions of tests/corpus/agx.jsonl.
 *
 * "agx decode": the generated decoder (a decision tree over the fixed bits,
 * then the fields) beside the way applegpu itself decodes: try every
 * encoding in list order and take the first whose (mask, value) matches,
 * then extract the fields.  The baseline scans the same (mask, value)
 * patterns the spec's reflection tables hold, in the XML's order (which is
 * applegpu's), and extracts fields with the same generated code, so the
 * ratio is what the decision tree saves over the scan.
 * Each record is one instruction at the very end of its bytes, which no
 * instruction of a real program is; "agx decode in place" decodes them back
 * to back in one buffer, each followed by the next, as a listing does.
 * "agx decode+print" and "agx validate" time the printer and the validator
 * on their own; one item is one instruction. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agx_g13.h"
#include "bench.h"
#include "isagen/isagen.h"

#define MAX_INSNS 4096
#define MAX_BYTES (MAX_INSNS * 12)

static struct {
   unsigned n;
   size_t start[MAX_INSNS + 1]; /* instruction i is bytes[start[i]..start[i+1]) */
   uint8_t bytes[MAX_BYTES];
   const struct isa_spec *spec;
   const struct isa_type_desc *unit;
   struct agx_g13_Instruction insn;
   struct agx_g13_Instruction decoded[MAX_INSNS]; /* for validate */
   char text[512];
   volatile uint64_t sink;
} S;

/* applegpu's way: the first alternative, in list order, one of whose
 * patterns matches the bytes (zeros past the end, as its listing reads) */
static unsigned first_match(const uint8_t *buf, size_t len)
{
   uint8_t w[16] = {0};
   memcpy(w, buf, len < sizeof w ? len : sizeof w);
   for (unsigned a = 0; a < S.unit->n_variants; a++) {
      const struct isa_variant_desc *vd = &S.unit->variants[a];
      for (unsigned p = 0; p < vd->n_patterns; p++) {
         const uint8_t *m = vd->pattern_mask + p * vd->pattern_bytes, *v = vd->pattern_value + p * vd->pattern_bytes;
         unsigned k = 0;
         while (k < vd->pattern_bytes && (w[k] & m[k]) == v[k])
            k++;
         if (k == vd->pattern_bytes)
            return a + 1;
      }
   }
   return 0;
}

static int base_decode_one(const uint8_t *buf, size_t len, struct agx_g13_Instruction *insn, size_t *bits)
{
   unsigned alt = first_match(buf, len);
   if (!alt)
      return ISA_ERR_NO_MATCH;
   return agx_g13_Instruction_decode_as(buf, len, 0, insn, alt, bits, NULL);
}

void agx_bench_setup(void)
{
   static struct agx_g13_Instruction a, b;
   S.n = bench_load_corpus("tests/corpus/agx.jsonl", "\"kind\": \"insn\"", S.bytes, sizeof S.bytes, S.start,
                           MAX_INSNS);
   S.spec = isa_spec_find("agx-g13");
   if (!S.spec || S.spec->unit->c_size != sizeof(struct agx_g13_Instruction) || S.n < 1000) {
      fprintf(stderr, "bench: spec agx-g13 or its corpus missing\n");
      exit(1);
   }
   S.unit = S.spec->unit;
   /* both must pick the same encoding and give identical structs */
   for (unsigned i = 0; i < S.n; i++) {
      const uint8_t *buf = S.bytes + S.start[i];
      size_t len = S.start[i + 1] - S.start[i], ba = 0, bb = 0;
      memset(&a, 0, sizeof a);
      memset(&b, 0, sizeof b);
      if (agx_g13_Instruction_decode(buf, len, 0, &a, &ba, NULL) || base_decode_one(buf, len, &b, &bb) ||
          ba != bb || memcmp(&a, &b, sizeof a)) {
         fprintf(stderr, "bench: agx instruction %u: generated and first-match decoding disagree\n", i);
         exit(1);
      }
      S.decoded[i] = a;
      /* in place, with the following instructions after it: the same */
      memset(&b, 0, sizeof b);
      if (agx_g13_Instruction_decode(S.bytes, S.start[S.n], 8 * S.start[i], &b, &bb, NULL) || bb != ba ||
          memcmp(&a, &b, sizeof a)) {
         fprintf(stderr, "bench: agx instruction %u decodes differently in place\n", i);
         exit(1);
      }
   }
}

static void gen_decode(void *st)
{
   (void)st;
   for (unsigned i = 0; i < S.n; i++) {
      size_t bits = 0;
      if (agx_g13_Instruction_decode(S.bytes + S.start[i], S.start[i + 1] - S.start[i], 0, &S.insn, &bits, NULL) == 0)
         S.sink += S.insn.variant + bits;
   }
}

static void gen_decode_in_place(void *st)
{
   (void)st;
   for (unsigned i = 0; i < S.n; i++) {
      size_t bits = 0;
      if (agx_g13_Instruction_decode(S.bytes, S.start[S.n], 8 * S.start[i], &S.insn, &bits, NULL) == 0)
         S.sink += S.insn.variant + bits;
   }
}

static void base_decode(void *st)
{
   (void)st;
   for (unsigned i = 0; i < S.n; i++) {
      size_t bits = 0;
      if (base_decode_one(S.bytes + S.start[i], S.start[i + 1] - S.start[i], &S.insn, &bits) == 0)
         S.sink += S.insn.variant + bits;
   }
}

static void gen_print(void *st)
{
   struct isa_ctx ctx;
   (void)st;
   memset(&ctx, 0, sizeof ctx);
   for (unsigned i = 0; i < S.n; i++) {
      size_t bits = 0;
      struct isa_out o;
      if (agx_g13_Instruction_decode(S.bytes + S.start[i], S.start[i + 1] - S.start[i], 0, &S.insn, &bits, NULL))
         continue;
      ctx.size = bits;
      isa_out_buffer(&o, S.text, sizeof S.text);
      S.sink += (uint64_t)agx_g13_Instruction_print(&S.insn, &o, &ctx) + (uint8_t)S.text[0];
   }
}

/* the validator (reserved bits, undefined operands) on every decoded instruction */
static void gen_validate(void *st)
{
   struct isa_findings f;
   struct isa_ctx ctx;
   (void)st;
   memset(&f, 0, sizeof f);
   memset(&ctx, 0, sizeof ctx);
   for (unsigned i = 0; i < S.n; i++)
      S.spec->unit->validate(&S.decoded[i], &f, &ctx, NULL);
   S.sink += f.count[0] + f.count[1] + f.count[2];
}

size_t agx_bench_cases(struct bench_case *out, size_t max)
{
   const struct bench_case c[] = {
      {"agx decode", "insn", S.n, gen_decode, base_decode, NULL},
      {"agx decode in place", "insn", S.n, gen_decode_in_place, NULL, NULL},
      {"agx decode+print", "insn", S.n, gen_print, NULL, NULL},
      {"agx validate", "insn", S.n, gen_validate, NULL, NULL},
   };
   size_t n = sizeof c / sizeof c[0];
   if (n > max)
      n = max;
   memcpy(out, c, n * sizeof c[0]);
   return n;
}
