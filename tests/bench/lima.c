/* Lima benchmark cases over the instructions of tests/corpus/lima-*.jsonl
 * (structured and random instructions, as the corpus holds them): generated decoders beside lima_baseline.c, and
 * decode+print and the validator on their own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "isagen/isagen.h"
#include "lima_baseline.h"

#define MAX_INSNS 2048
#define MAX_BYTES 80 /* a PP instruction is at most 19 words */

struct insns {
   unsigned n;
   uint8_t len[MAX_INSNS];
   uint8_t bytes[MAX_INSNS][MAX_BYTES];
};

static struct {
   struct insns pp, gp;
   /* every PP instruction one after the other: one program for the cursor */
   uint8_t program[MAX_INSNS * MAX_BYTES];
   size_t program_len, offset[MAX_INSNS];
   struct lima_pp_Instruction ppi[MAX_INSNS];
   struct lima_gp_Instruction gpi[MAX_INSNS];
   char text[4096];
   volatile uint64_t sink;
} S;

/* every record of a corpus file, one instruction each: of the few records
 * that hold a whole program, the first MAX_BYTES bytes, whose first
 * instruction is what the cases decode */
static void load_corpus(const char *path, struct insns *out)
{
   static uint8_t bytes[MAX_INSNS * 256];
   static size_t start[MAX_INSNS + 1];
   out->n = bench_load_corpus(path, NULL, bytes, sizeof bytes, start, MAX_INSNS);
   for (unsigned i = 0; i < out->n; i++) {
      size_t len = start[i + 1] - start[i];
      if (len > MAX_BYTES)
         len = MAX_BYTES;
      memcpy(out->bytes[i], bytes + start[i], len);
      out->len[i] = (uint8_t)len;
   }
}

void lima_bench_setup(void)
{
   load_corpus("tests/corpus/lima-pp.jsonl", &S.pp);
   load_corpus("tests/corpus/lima-gp.jsonl", &S.gp);
   for (unsigned i = 0; i < S.pp.n; i++) {
      S.offset[i] = S.program_len;
      memcpy(S.program + S.program_len, S.pp.bytes[i], S.pp.len[i]);
      S.program_len += S.pp.len[i];
   }
   /* both sides must agree, every view of every unit, before anything is timed */
   for (unsigned i = 0; i < S.pp.n; i++) {
      static struct lima_pp_Instruction a, b;
      size_t used = 0;
      if (lima_pp_Instruction_unpack(S.pp.bytes[i], S.pp.len[i], &a, NULL) ||
          lima_pp_baseline_decode(S.pp.bytes[i], S.pp.len[i], &b, &used) || used != S.pp.len[i] ||
          memcmp(&a, &b, sizeof a)) {
         fprintf(stderr, "bench: lima-pp baseline and generated decoder disagree on instruction %u\n", i);
         exit(1);
      }
   }
   for (unsigned i = 0; i < S.gp.n; i++) {
      struct lima_gp_Instruction a, b;
      if (lima_gp_Instruction_unpack(S.gp.bytes[i], S.gp.len[i], &a, NULL) ||
          lima_gp_baseline_decode(S.gp.bytes[i], S.gp.len[i], &b) || memcmp(&a, &b, sizeof a)) {
         fprintf(stderr, "bench: lima-gp baseline and generated decoder disagree on instruction %u\n", i);
         exit(1);
      }
   }
}

static void gen_pp_unpack(void *st)
{
   (void)st;
   for (unsigned i = 0; i < S.pp.n; i++)
      S.sink += (uint64_t)lima_pp_Instruction_unpack(S.pp.bytes[i], S.pp.len[i], &S.ppi[i], NULL);
}

static void base_pp_unpack(void *st)
{
   size_t used;
   (void)st;
   for (unsigned i = 0; i < S.pp.n; i++)
      S.sink += (uint64_t)lima_pp_baseline_decode(S.pp.bytes[i], S.pp.len[i], &S.ppi[i], &used);
}

static void gen_gp_unpack(void *st)
{
   (void)st;
   for (unsigned i = 0; i < S.gp.n; i++)
      S.sink += (uint64_t)lima_gp_Instruction_unpack(S.gp.bytes[i], S.gp.len[i], &S.gpi[i], NULL);
}

static void base_gp_unpack(void *st)
{
   (void)st;
   for (unsigned i = 0; i < S.gp.n; i++)
      S.sink += (uint64_t)lima_gp_baseline_decode(S.gp.bytes[i], S.gp.len[i], &S.gpi[i]);
}

/* The cursor's cost over the decoder, against unpack on the same bytes as
 * its baseline: every instruction of the corpus as one program, walked by
 * the cursor or unpacked at its offset; and the first instruction of each
 * record as a program of its own (set-up, one step, clean-up). */
extern const struct isa_spec lima_pp_spec;

/* the whole program through a cursor: into the caller's structs, or into
 * the cursor's own units (no copy for $prev) */
static void walk_program(int into_caller)
{
   struct isa_cursor c;
   struct isa_ctx ctx;
   unsigned i = 0;
   if (isa_cursor_init(&c, &lima_pp_spec, S.program, S.program_len) == ISA_OK)
      while (i < S.pp.n && isa_cursor_next(&c, into_caller ? &S.ppi[i] : NULL, &ctx, NULL) > 0)
         S.sink += (uint64_t)ctx.size + i++;
   isa_cursor_fini(&c);
}

static void gen_pp_cursor(void *st)
{
   (void)st;
   walk_program(0);
}

static void gen_pp_cursor_obj(void *st)
{
   (void)st;
   walk_program(1);
}

static void gen_pp_program_unpack(void *st)
{
   (void)st;
   for (unsigned i = 0; i < S.pp.n; i++) {
      size_t at = S.offset[i];
      S.sink += (uint64_t)lima_pp_Instruction_unpack(S.program + at, S.program_len - at, &S.ppi[i], NULL) + i;
   }
}

static void gen_pp_cursor_setup(void *st)
{
   (void)st;
   for (unsigned i = 0; i < S.pp.n; i++) {
      struct isa_cursor c;
      struct isa_ctx ctx;
      if (isa_cursor_init(&c, &lima_pp_spec, S.pp.bytes[i], S.pp.len[i]) == ISA_OK)
         S.sink += (uint64_t)isa_cursor_next(&c, &S.ppi[i], &ctx, NULL);
      isa_cursor_fini(&c);
   }
}

static void gen_pp_print(void *st)
{
   (void)st;
   for (unsigned i = 0; i < S.pp.n; i++) {
      struct isa_out o;
      S.sink += (uint64_t)lima_pp_Instruction_unpack(S.pp.bytes[i], S.pp.len[i], &S.ppi[i], NULL);
      struct isa_ctx ctx = {0};
      ctx.index = i;
      ctx.size = S.pp.len[i] * 8u;
      isa_out_buffer(&o, S.text, sizeof S.text);
      S.sink += (uint64_t)lima_pp_Instruction_print(&S.ppi[i], &o, &ctx) + (uint8_t)S.text[0];
   }
}

static void gen_gp_print(void *st)
{
   (void)st;
   for (unsigned i = 0; i < S.gp.n; i++) {
      struct isa_out o;
      S.sink += (uint64_t)lima_gp_Instruction_unpack(S.gp.bytes[i], S.gp.len[i], &S.gpi[i], NULL);
      struct isa_ctx ctx = {0};
      ctx.index = i;
      ctx.size = 128;
      isa_out_buffer(&o, S.text, sizeof S.text);
      S.sink += (uint64_t)lima_gp_Instruction_print(&S.gpi[i], &o, &ctx) + (uint8_t)S.text[0];
   }
}

static void gen_pp_validate(void *st)
{
   struct isa_findings f;
   (void)st;
   memset(&f, 0, sizeof f);
   for (unsigned i = 0; i < S.pp.n; i++) {
      struct isa_ctx ctx = {0};
      ctx.index = i;
      ctx.size = S.pp.len[i] * 8u;
      lima_pp_Instruction_validate(&S.ppi[i], &f, &ctx, NULL);
   }
   S.sink += f.count[0] + f.count[1] + f.count[2];
}

size_t lima_bench_cases(struct bench_case *out, size_t max)
{
   const struct bench_case c[] = {
      {"lima-pp unpack", "insn", S.pp.n, gen_pp_unpack, base_pp_unpack, NULL},
      {"lima-gp unpack", "insn", S.gp.n, gen_gp_unpack, base_gp_unpack, NULL},
      {"lima-pp cursor/unpack", "insn", S.pp.n, gen_pp_cursor, gen_pp_program_unpack, NULL},
      {"lima-pp cursor obj/unpack", "insn", S.pp.n, gen_pp_cursor_obj, gen_pp_program_unpack, NULL},
      {"lima-pp cursor, 1-insn", "program", S.pp.n, gen_pp_cursor_setup, gen_pp_unpack, NULL},
      {"lima-pp decode+print", "insn", S.pp.n, gen_pp_print, NULL, NULL},
      {"lima-gp decode+print", "insn", S.gp.n, gen_gp_print, NULL, NULL},
      {"lima-pp validate", "insn", S.pp.n, gen_pp_validate, NULL, NULL},
   };
   size_t n = sizeof c / sizeof c[0];
   if (n > max)
      n = max;
   memcpy(out, c, n * sizeof c[0]);
   return n;
}
