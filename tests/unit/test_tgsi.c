/* TGSI: the fact sheet's token vectors (tgsi.md section 7, with the
 * instruction NrTokens erratum applied), program encoding, the validator
 * rules and bad input.  The corpus itself is checked by test_corpus.c.
 * Expected texts follow tgsi_dump's format as the fact sheet and
 * README-tgsi.md give it, not our own output. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "isagen/isagen.h"
#include "tgsi.h"
#include "tgsi_mesa_7_10.h"

static size_t tokens(const uint32_t *w, size_t n, uint8_t *out)
{
   for (size_t i = 0; i < n; i++)
      isa_store_le32(out + 4 * i, w[i]);
   return 4 * n;
}

/* A: FRAG / DCL IN[0], COLOR, COLOR / DCL OUT[0], COLOR / MOV OUT[0], IN[0] / END */
static const uint32_t vec_a[] = {0x00000b02, 0x00000004, 0x006f2040, 0x00000000, 0x00000003, 0x00000001, 0x002f3030,
                                 0x00000000, 0x00000001, 0x00a01022, 0x000000f3, 0x39000002, 0x00075002};
/* B: VERT, an immediate, MAD with replicated swizzles */
static const uint32_t vec_b[] = {0x00001002, 0x00000000, 0x000f2020, 0x00000000, 0x002f3030, 0x00000000,
                                 0x00000000, 0x00000051, 0x3f800000, 0x3f000000, 0x00000000, 0x40000000,
                                 0x01a10042, 0x000000f3, 0x39000002, 0x00000007, 0x15400007, 0x00075002};
/* C: TEX with a texture token, MUL_SAT with a negated source */
static const uint32_t vec_c[] = {0x00001502, 0x00000004, 0x006f2040, 0x00000000, 0x00000002, 0x00000005,
                                 0x002f3030, 0x00000000, 0x00000001, 0x000f5020, 0x00000000, 0x000f4020,
                                 0x00000000, 0x11234042, 0x00000002, 0x000000f4, 0x39000002, 0x39000005,
                                 0x01307032, 0x000000f3, 0x39000004, 0xbfc00002, 0x00075002};

#define N(a) (sizeof(a) / sizeof((a)[0]))

Test(tgsi_vectors, fact_sheet_programs_print_as_tgsi_dump)
{
   uint8_t b[256];
   char text[1024];
   cr_assert_eq(dis("tgsi", b, tokens(vec_a, N(vec_a), b), 0, text, sizeof text), 0);
   cr_assert_str_eq(text, "FRAG\nDCL IN[0], COLOR, COLOR\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n");
   cr_assert_eq(dis("tgsi", b, tokens(vec_b, N(vec_b), b), 0, text, sizeof text), 0);
   cr_assert_str_eq(text, "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n"
                          "IMM[0] FLT32 {    1.0000,     0.5000,     0.0000,     2.0000}\n"
                          "  0: MAD OUT[0], IN[0], IMM[0].xxxx, IMM[0].yyyy\n  1: END\n");
   cr_assert_eq(dis("tgsi", b, tokens(vec_c, N(vec_c), b), 0, text, sizeof text), 0);
   cr_assert_str_eq(text, "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL TEMP[0]\n"
                          "  0: TEX TEMP[0], IN[0], SAMP[0], 2D\n  1: MUL_SAT OUT[0], TEMP[0], -IN[0].wwww\n  2: END\n");
   for (const uint32_t *v = vec_a; v; v = v == vec_a ? vec_b : v == vec_b ? vec_c : NULL) {
      size_t n = tokens(v, v == vec_a ? N(vec_a) : v == vec_b ? N(vec_b) : N(vec_c), b);
      struct finds f = check("tgsi", b, n);
      cr_assert_eq(f.n, 0u, "the fact sheet's programs are valid: %s", f.text);
   }
}

/* The fact sheet's own vector counts the instruction token in NrTokens; that
 * is the erratum, and `isa check` says so. */
Test(tgsi_vectors, instruction_nrtokens_erratum_is_reported)
{
   uint32_t w[N(vec_a)];
   uint8_t b[256];
   memcpy(w, vec_a, sizeof w);
   w[9] = 0x00a01032;  /* MOV with NrTokens 3 */
   w[12] = 0x00075012; /* END with NrTokens 1 */
   struct finds f = check("tgsi", b, tokens(w, N(w), b));
   cr_assert(strstr(f.text, "error derive insn.NrTokens: 3, but the content makes it 2"), "%s", f.text);
}

Test(tgsi_program, encoder_computes_header_and_lengths)
{
   const struct isa_spec *spec = isa_spec_find("tgsi");
   static struct tgsi_Item items[8];
   uint8_t in[256], out[256];
   size_t n = tokens(vec_c, N(vec_c), in), size = 0, off = 0;
   unsigned k = 0;
   struct isa_error err;
   cr_assert_str_eq(spec->version, "mesa-22.3.6");
   /* decode every item, then spoil every length the encoder must compute */
   while (off < n) {
      size_t used;
      cr_assert_eq(isa_decode_unit(spec, in, n, off, &items[k], &used, &err), ISA_OK, "item %u", k);
      off += used;
      k++;
   }
   cr_assert_eq(k, 8u, "header, 4 declarations, 3 instructions");
   cr_assert_eq(items[0].variant, TGSI_ITEM_HEADER);
   items[0].u.Header.HeaderSize = 0;
   items[0].u.Header.BodySize = 999;
   items[1].u.Declaration.decl.NrTokens = 0;
   items[5].u.Instruction.insn.NrTokens = 0;
   items[5].u.Instruction.insn.NumSrcRegs = 0; /* counts come from the operands */
   items[5].u.Instruction.n_src = 2;
   cr_assert_eq(isa_encode_program(spec, items, k, out, sizeof out, &size, &err), ISA_OK, "%s",
                err.detail ? err.detail : "");
   cr_assert_eq(size, n);
   cr_assert_arr_eq(out, in, n);
}

/* The <state>s after each unit, walked unit by unit as the input grows
 * (isa_cursor_more, as the assembler walks what it has read), are those of
 * one walk of the whole program; isa_cursor_states_after gives the last
 * unit's own writes too. */
Test(tgsi_program, a_cursor_goes_on_as_the_input_grows)
{
   const struct isa_spec *spec = isa_spec_find("tgsi");
   uint8_t in[256];
   size_t n = tokens(vec_c, N(vec_c), in), bounds[16];
   int64_t whole[16][64];
   unsigned k = 0;
   struct isa_cursor c;
   struct isa_ctx ctx;
   struct isa_error err;
   cr_assert_leq(spec->n_state, 64u);
   cr_assert_eq(isa_cursor_init(&c, spec, in, n), ISA_OK);
   while (isa_cursor_next(&c, NULL, &ctx, &err) > 0 && k < 16) {
      for (unsigned i = 0; i < spec->n_state; i++)
         whole[k][i] = ctx.state ? ctx.state[i] : 0;
      bounds[k++] = (size_t)(ctx.offset + ctx.size / 8);
   }
   isa_cursor_fini(&c);
   cr_assert_eq(k, 8u);
   /* the same, one unit more each time */
   cr_assert_eq(isa_cursor_init(&c, spec, in, bounds[0]), ISA_OK);
   for (unsigned u = 0; u < k; u++) {
      if (u > 0)
         cr_assert_eq(isa_cursor_more(&c, in, bounds[u]), ISA_OK);
      cr_assert_eq(isa_cursor_next(&c, NULL, &ctx, &err), 1, "unit %u", u);
      for (unsigned i = 0; i < spec->n_state; i++)
         cr_assert_eq(ctx.state ? ctx.state[i] : 0, whole[u][i], "unit %u, state %u", u, i);
      cr_assert_eq(isa_cursor_next(&c, NULL, &ctx, &err), 0, "the input ends after unit %u", u);
      struct isa_ctx after;
      isa_cursor_states_after(&c, &after);
      if (u + 1 < k)
         for (unsigned i = 0; i < spec->n_state; i++)
            cr_assert_eq(after.state[i], whole[u + 1][i], "after unit %u, state %u", u, i);
   }
   cr_assert_eq(isa_cursor_more(&c, in, bounds[0]), ISA_ERR_ARG, "the input cannot shrink");
   isa_cursor_fini(&c);
}

static size_t build(uint32_t *w, const uint32_t *body, size_t nbody, unsigned processor)
{
   w[0] = 2u | (uint32_t)nbody << 8;
   w[1] = processor;
   memcpy(w + 2, body, nbody * 4);
   return nbody + 2;
}

Test(tgsi_check, instruction_rules)
{
   uint32_t w[64];
   uint8_t b[256];
   struct finds f;
   /* DCL TEMP[0]; MOV TEMP[0], TEMP[0], TEMP[3] (a source too many, and undeclared); END */
   const uint32_t two_src[] = {0x000f4020, 0x00000000, 0x01201032, 0x000000f4, 0x39000004, 0x390000c4, 0x00075002};
   f = check("tgsi", b, tokens(w, build(w, two_src, N(two_src), 4), b));
   cr_assert(strstr(f.text, "error src-count insn.NumSrcRegs: MOV takes 1 source(s), not 2"), "%s", f.text);
   cr_assert(strstr(f.text, "error declared src[1].reg.Index: TEMP[3] is read before any declaration covers it"), "%s",
             f.text);
   /* IMM[1] read while only IMM[0] exists; the gap opcode 67 */
   const uint32_t imm[] = {0x000f4020, 0x00000000, 0x00000051, 0, 0, 0, 0, 0x00a01022, 0x000000f4, 0x39000047,
                           0x00043002, 0x00075002};
   f = check("tgsi", b, tokens(w, build(w, imm, N(imm), 4), b));
   cr_assert(strstr(f.text, "warning immediate-defined src[0].reg.Index: IMM[1] is read before it is defined (1 immediates so far)"),
             "%s", f.text);
   cr_assert(strstr(f.text, "error opcode-known insn.Opcode: opcode 67 is unknown"), "%s", f.text);
   /* IF with label 9 in a three-instruction program */
   const uint32_t label[] = {0x000f4020, 0x00000000, 0x0884a022, 0x00000009, 0x39000004, 0x0004e002, 0x00075002};
   f = check("tgsi", b, tokens(w, build(w, label, N(label), 4), b));
   cr_assert(strstr(f.text, "error label-target label.Label: a label points past the last instruction (label 9; the program has 3 instructions)"),
             "%s", f.text);
}

Test(tgsi_check, header_rules)
{
   uint32_t w[N(vec_a)];
   uint8_t b[256];
   struct finds f;
   memcpy(w, vec_a, sizeof w);
   w[0] = 0x00000c02; /* BodySize 12, but 11 tokens follow */
   f = check("tgsi", b, tokens(w, N(w), b));
   cr_assert(strstr(f.text, "error body-size BodySize: HeaderSize + BodySize is 14 tokens, but the program has 13"), "%s",
             f.text);
   w[0] = 0x00000b03;
   f = check("tgsi", b, tokens(w, N(w), b));
   cr_assert(strstr(f.text, "error expect HeaderSize"), "%s", f.text);
   w[0] = 0x00000b02;
   w[1] = 9; /* no such processor */
   f = check("tgsi", b, tokens(w, N(w), b));
   cr_assert(strstr(f.text, "error processor-known Processor: processor 9 is unknown"), "%s", f.text);
}

/* The same programs in the Mesa 7.10 encoding (tgsi.md section 7's legacy
 * rows, NrTokens erratum applied): other declaration and instruction
 * token layouts, the legacy processor numbering. */
Test(tgsi_legacy, mesa_7_10_encoding_decodes_to_the_same_program)
{
   static const uint32_t leg_a[] = {0x00000a02, 0x00000000, 0x022f2030, 0x00000000, 0x00000001, 0x020f3030,
                                    0x00000000, 0x00000001, 0x01401022, 0x000000f3, 0x39000002, 0x00075002};
   static const uint32_t leg_c[] = {0x00001402, 0x00000000, 0x022f2030, 0x00000000, 0x00000005, 0x020f3030,
                                    0x00000000, 0x00000001, 0x000f5020, 0x00000000, 0x000f4020, 0x00000000,
                                    0x42434042, 0x00000002, 0x000000f4, 0x39000002, 0x39000005, 0x02507032,
                                    0x000000f3, 0x39000004, 0xbfc00002, 0x00075002};
   const struct isa_spec *legacy = isa_spec_find("tgsi@mesa-7.10");
   uint8_t b[256];
   char text[1024];
   cr_assert(legacy, "the legacy version is compiled in");
   cr_assert_str_eq(legacy->version, "mesa-7.10");
   cr_assert_eq(dis("tgsi@mesa-7.10", b, tokens(leg_a, N(leg_a), b), 0, text, sizeof text), 0);
   cr_assert_str_eq(text, "FRAG\nDCL IN[0], COLOR, PERSPECTIVE\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n");
   cr_assert_eq(dis("tgsi@mesa-7.10", b, tokens(leg_c, N(leg_c), b), 0, text, sizeof text), 0);
   cr_assert_str_eq(text, "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL TEMP[0]\n"
                          "  0: TEX TEMP[0], IN[0], SAMP[0], 2D\n  1: MUL_SAT OUT[0], TEMP[0], -IN[0].wwww\n  2: END\n");
   cr_assert_eq(check("tgsi@mesa-7.10", b, tokens(leg_c, N(leg_c), b)).n, 0u);
   /* read as 22.3.6, the legacy declaration's Semantic bit is the Array
    * flag: the declaration claims more tokens than it has */
   cr_assert_eq(dis("tgsi", b, tokens(leg_a, N(leg_a), b), 0, text, sizeof text), ISA_ERR_SIZE);
   /* opcode slot 17 with one destination and two sources, in each era's
    * instruction token: SUB then, TEX_LZ now */
   struct tgsi_mesa_7_10_Instruction old;
   struct tgsi_Instruction now;
   const uint32_t sub_7_10[] = {0x02411032, 0x000000f4, 0x39000004, 0x39000004};
   const uint32_t op17_now[] = {0x01211032, 0x000000f4, 0x39000004, 0x39000004};
   cr_assert_eq(tgsi_mesa_7_10_Instruction_unpack(b, tokens(sub_7_10, N(sub_7_10), b), &old, NULL), ISA_OK);
   cr_assert_eq(old.insn.Opcode, TGSI_MESA_7_10_OPCODE_SUB);
   cr_assert_eq(old.n_src, 2u);
   cr_assert_str_eq(tgsi_mesa_7_10_Opcode_name(old.insn.Opcode), "SUB");
   cr_assert_eq(tgsi_Instruction_unpack(b, tokens(op17_now, N(op17_now), b), &now, NULL), ISA_OK);
   cr_assert_eq(now.n_src, 2u);
   cr_assert_str_eq(tgsi_Opcode_name(now.insn.Opcode), "TEX_LZ");
}

Test(tgsi_errors, truncated_and_garbage_input)
{
   uint8_t b[512];
   char text[8192];
   size_t n = tokens(vec_c, N(vec_c), b);
   /* a cut inside an item is an error, never a crash or a guess; a cut
    * between items just ends the program there */
   static const unsigned item_starts[] = {2, 6, 9, 11, 13, 18, 22};
   for (size_t cut = 1; cut < n; cut++) {
      int between = 0;
      for (unsigned i = 0; i < N(item_starts); i++)
         between |= cut == 4u * item_starts[i];
      if (between)
         cr_assert_eq(dis("tgsi", b, cut, 0, text, sizeof text), 0, "cut at %zu bytes", cut);
      else
         cr_assert_lt(dis("tgsi", b, cut, 0, text, sizeof text), 0, "cut at %zu bytes", cut);
   }
   /* an operand count pointing past the end */
   uint32_t w[N(vec_a)];
   memcpy(w, vec_a, sizeof w);
   w[9] = 0x07a01022; /* MOV claiming 15 sources in 2 tokens */
   cr_assert_lt(dis("tgsi", b, tokens(w, N(w), b), 0, text, sizeof text), 0);
   uint64_t s = 7;
   for (int round = 0; round < 5000; round++) {
      for (size_t k = 0; k < sizeof b; k++)
         b[k] = (uint8_t)rng_next(&s);
      b[0] = 2; /* a plausible header, so the body gets decoded */
      dis("tgsi", b, 1 + rng_next(&s) % sizeof b, round & 1, text, sizeof text);
      check("tgsi", b, 1 + rng_next(&s) % sizeof b);
   }
}
