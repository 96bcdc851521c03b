/* Lima PP and GP: the published vectors (lima.md section 5) by name, MBS
 * files, programs, the excluded combiner opcodes, bad input, validators.
 * Expected texts are the published or derived Mesa texts of lima.md and
 * README-lima.md, not our own output. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus.h"
#include "helpers.h"
#include "isagen/isagen.h"
#include "lima_gp.h"
#include "lima_pp.h"

static size_t words_to_bytes(const uint32_t *w, size_t n, uint8_t *out)
{
   for (size_t i = 0; i < n; i++)
      isa_store_le32(out + 4 * i, w[i]);
   return 4 * n;
}


static const uint32_t tv_pp_1[] = {0x00020425, 0x0000000c, 0x01e007cf, 0xb0000000, 0x000005f5};
static const uint32_t tv_pp_2[] = {0x000005e6, 0xf1003c20, 0x00000000, 0x39001000, 0x00000e4e, 0x000007cf};
static const uint32_t tv_pp_4[] = {0x000000a3, 0xf0003c60, 0x00000000};
static const uint32_t tv_gp_1[] = {
   0xad4ad463, 0x438002b5, 0x0147ff80, 0x000a8d30, 0xad4fda56, 0x038022ce, 0x0007ff80, 0x000ad510,
   0xb04b02cd, 0x47802ac2, 0x42462180, 0x000a8d08, 0xad490722, 0x438082b5, 0x0007ff80, 0x000d5700,
   0xad4a4980, 0x438002b5, 0x0007ff80, 0x000ad500, 0xb5cbcafb, 0x038049d3, 0x0007ff80, 0x000ad500,
   0x6c8b42b5, 0x03804193, 0xc643c080, 0x000ac508,
};
static const char tv_gp_1_text[] = "000:\tcomplex2.m0 ^2 a0.w a0.w\n\trcp.c ^5 a0.w\n"
                                   "001:\tmov.a1 ^7 t[0].z\n\tcomplex1.m01 ^8 ^5 ^2 ^5 a0.w\n"
                                   "002:\tmov.a0 ^12/v0.y a1.y\n\tmov.a1 ^13/v0.z a1.z\n\tmov.m0 ^14 t[0].y\n"
                                   "\tmov.m1 ^15/v0.x a1.x\n\tmov.c ^17/v0.w a1.w\n"
                                   "003:\tmul.m0 ^20 a0.z ^7\n\tmul.m1 ^21 a0.y ^14\n\tclamp.p ^22 ^8 t[2].x t[2].y\n"
                                   "004:\tmul.m0 ^26 a0.x t[0].x\n\tmul.m1 ^27 ^20 ^22\n"
                                   "005:\tmov.a0 ^30 ^22\n\tadd.a1 ^31 ^27 t[1].z\n\tmul.m0 ^32 ^21 ^22\n\tmul.m1 ^33 ^26 ^22\n"
                                   "006:\tadd.a0 ^36/v1.y ^32 t[1].y\n\tadd.a1 ^37/v1.x ^33 t[1].x\n\tmov.m1 ^39/v1.w ^30\n"
                                   "\tmov.c ^41/v1.z ^31\n";

Test(lima_published, pp_vectors)
{
   uint8_t b[64];
   char text[512];
   cr_assert_eq(dis("lima-pp", b, words_to_bytes(tv_pp_1, 5, b), 0, text, sizeof text), 0);
   cr_assert_str_eq(text, "mov.v0 $0 ^const0.xxxx , const0 1.000000 0.000000 0.000000 -1.677734, stop\n");
   cr_assert_eq(dis("lima-pp", b, words_to_bytes(tv_pp_2, 6, b), 0, text, sizeof text), 0);
   cr_assert_str_eq(text, "load.v $1 0.xy, texld 0, mov.v0 $0 ^texture , sync, stop\n");
   cr_assert_eq(dis("lima-pp", b, words_to_bytes(tv_pp_4, 3, b), 0, text, sizeof text), 0);
   cr_assert_str_eq(text, "load.v $0 0, stop\n");
}

Test(lima_published, pp_fields_of_the_clear_program)
{
   uint8_t b[64];
   struct lima_pp_Instruction in;
   struct isa_error err;
   cr_assert_eq(lima_pp_Instruction_unpack(b, words_to_bytes(tv_pp_1, 5, b), &in, &err), ISA_OK);
   /* lima.md TV-PP-1: count 5, stop, fields 0x408 (vec4_mul + const0) */
   cr_assert_eq(in.ctrl.count, 5);
   cr_assert(in.ctrl.stop && !in.ctrl.sync);
   cr_assert_eq(in.ctrl.fields, 0x408);
   cr_assert(in.has_vec4_mul && in.has_vec4_const_0 && !in.has_varying);
   cr_assert_eq(in.vec4_mul.arg0_source, 12);
   cr_assert_eq(in.vec4_mul.op, LIMA_PP_MUL_OP_MOV);
   cr_assert_eq(in.vec4_const_0.x, 0x3c00);
   cr_assert_eq(in.vec4_const_0.w, 0xbeb6);
}

Test(lima_published, pp_program_with_offsets)
{
   uint8_t b[64];
   char text[512];
   size_t n = words_to_bytes(tv_pp_1, 5, b);
   n += words_to_bytes(tv_pp_2, 6, b + n);
   cr_assert_eq(dis("lima-pp", b, n, 1, text, sizeof text), 0);
   cr_assert_str_eq(text, "@     0: mov.v0 $0 ^const0.xxxx , const0 1.000000 0.000000 0.000000 -1.677734, stop\n"
                          "@     5: load.v $1 0.xy, texld 0, mov.v0 $0 ^texture , sync, stop\n");
}

Test(lima_published, pp_mbs_file)
{
   /* lima.md TV-PP-3: a whole MBS1 file from limare (OGT-assembled clear) */
   static const uint32_t mbs[] = {0x3153424d, 0x00000054, 0x41524643, 0x0000004c, 0x00000005, 0x41545346,
                                  0x00000008, 0x00000001, 0x00000001, 0x53494446, 0x00000004, 0x00000000,
                                  0x55554246, 0x00000008, 0x00000100, 0x00000000, 0x4e494244, 0x00000014,
                                  0x00021025, 0x00000e4c, 0x03c007cf, 0x03c003c0, 0x000003c0};
   uint8_t b[128];
   size_t n = words_to_bytes(mbs, sizeof mbs / 4, b), off = 0, size = 0;
   char text[256];
   struct isa_error err;
   const struct isa_spec *pp = isa_spec_find("lima-pp");
   cr_assert_eq(pp->n_containers, 1u);
   cr_assert_eq(isa_container_payload(&pp->containers[0], b, n, &off, &size, &err), ISA_OK);
   cr_assert_eq(off, 72u);
   cr_assert_eq(size, 20u);
   cr_assert_eq(dis("lima-pp", b + off, size, 0, text, sizeof text), 0);
   cr_assert_str_eq(text, "mov.v1 $0 ^const0, const0 1.000000 1.000000 1.000000 1.000000, stop\n");
   /* damaged: the DBIN chunk claims more than its parent holds */
   b[17 * 4] = 0x40;
   cr_assert_eq(isa_container_payload(&pp->containers[0], b, n, &off, &size, &err), ISA_ERR_SIZE);
   /* cut short */
   cr_assert_eq(isa_container_payload(&pp->containers[0], b, 40, &off, &size, &err), ISA_ERR_TRUNCATED);
   /* not an MBS file at all */
   cr_assert_eq(isa_container_payload(&pp->containers[0], b + 4, n - 4, &off, &size, &err), ISA_ERR_NO_MATCH);
}

Test(lima_published, gp_program_listing)
{
   uint8_t b[256];
   char text[2048];
   cr_assert_eq(dis("lima-gp", b, words_to_bytes(tv_gp_1, 28, b), 0, text, sizeof text), 0);
   cr_assert_str_eq(text, tv_gp_1_text);
}

Test(lima_published, gp_nop_and_mbs)
{
   static const uint32_t nop[] = {0xad4ad6b5, 0x038002b5, 0x0007ff80, 0x000ad500};
   uint8_t b[512];
   char text[2048];
   cr_assert_eq(dis("lima-gp", b, words_to_bytes(nop, 4, b), 0, text, sizeof text), 0);
   cr_assert_str_eq(text, "000:\tnop\n");
   /* an MBS file as lima.md 7 describes the vertex one: MBS1 > CVER(version 6, FINS, DBIN) */
   uint32_t w[64];
   unsigned k = 0;
   w[k++] = 0x3153424d, w[k++] = 4 + 4 + 4 + 8 + 12 + 8 + 112;
   w[k++] = 0x52455643 /* CVER */, w[k++] = 4 + 8 + 12 + 8 + 112;
   w[k++] = 6; /* Mali-400 GP */
   w[k++] = 0x534e4946 /* FINS */, w[k++] = 12, w[k++] = 0, w[k++] = 7, w[k++] = 0;
   w[k++] = 0x4e494244 /* DBIN */, w[k++] = 112;
   memcpy(w + k, tv_gp_1, sizeof tv_gp_1);
   k += 28;
   const struct isa_spec *gp = isa_spec_find("lima-gp");
   size_t n = words_to_bytes(w, k, b), off, size;
   struct isa_error err;
   cr_assert_eq(isa_container_payload(&gp->containers[0], b, n, &off, &size, &err), ISA_OK);
   cr_assert_eq(size, 112u);
   cr_assert_eq(dis("lima-gp", b + off, size, 0, text, sizeof text), 0);
   cr_assert_str_eq(text, tv_gp_1_text);
}

Test(lima_excluded, combiner_ops_10_to_15_print_opN_and_are_errors)
{
   /* Mesa 22.3.6 reads past its name table here: no reference text.  We
    * print opN (docs/specs/lima.md) and isa check reports it. */
   static uint8_t b[256];
   char text[1024];
   unsigned seen = 0;
   for (unsigned i = 0; i < corpus_lima_pp_excluded_count; i++) {
      const struct corpus_entry *e = &corpus_lima_pp_excluded[i];
      size_t n = hex_bytes(e->hex, b, sizeof b);
      int64_t op = -1;
      for (unsigned k = 0; k < e->n_fields; k++)
         if (!strcmp(e->fields[k].name, "combine.scalar.op"))
            op = e->fields[k].value;
      cr_assert_geq(op, 10, "%s", e->id);
      cr_assert_eq(dis("lima-pp", b, n, 0, text, sizeof text), 0);
      char want[32];
      snprintf(want, sizeof want, "op%lld", (long long)op);
      cr_assert(strstr(text, want), "%s: %s", want, text);
      struct finds f = check("lima-pp", b, n);
      cr_assert(strstr(f.text, "error combine-op-unknown combine.scalar.op"), "%s", f.text);
      seen++;
   }
   cr_assert_eq(seen, 147u);
}

Test(lima_errors, truncated_and_garbage_input)
{
   const struct isa_spec *pp = isa_spec_find("lima-pp"), *gp = isa_spec_find("lima-gp");
   uint8_t b[64];
   struct lima_pp_Instruction in;
   struct lima_gp_Instruction g;
   size_t size;
   struct isa_error err;
   size_t n = words_to_bytes(tv_pp_1, 5, b);
   for (size_t cut = 0; cut < n; cut++)
      cr_assert_eq(isa_decode_unit(pp, b, cut, 0, &in, &size, &err), ISA_ERR_TRUNCATED, "%zu bytes", cut);
   /* count says 7 words; only 5 are there */
   b[0] = (uint8_t)((b[0] & ~0x1f) | 7);
   cr_assert_eq(isa_decode_unit(pp, b, n, 0, &in, &size, &err), ISA_ERR_TRUNCATED);
   cr_assert_eq(err.need, 7u * 32);
   /* count says 2 words; the units need 5 */
   b[0] = (uint8_t)((b[0] & ~0x1f) | 2);
   cr_assert_eq(isa_decode_unit(pp, b, n, 0, &in, &size, &err), ISA_ERR_SIZE);
   cr_assert_eq(isa_decode_unit(gp, b, 15, 0, &g, &size, &err), ISA_ERR_TRUNCATED);
   /* random words: decode or fail cleanly, and what decodes prints */
   uint64_t s = 11;
   char text[4096];
   for (int round = 0; round < 5000; round++) {
      for (size_t k = 0; k < sizeof b; k++)
         b[k] = (uint8_t)rng_next(&s);
      dis("lima-pp", b, 1 + rng_next(&s) % sizeof b, round & 1, text, sizeof text);
      dis("lima-gp", b, 1 + rng_next(&s) % sizeof b, 0, text, sizeof text);
   }
}

Test(lima_check, clean_published_programs)
{
   uint8_t b[128];
   cr_assert_eq(check("lima-pp", b, words_to_bytes(tv_pp_1, 5, b)).n, 0u);
   cr_assert_eq(check("lima-pp", b, words_to_bytes(tv_pp_2, 6, b)).n, 0u);
   cr_assert_eq(check("lima-pp", b, words_to_bytes(tv_pp_4, 3, b)).n, 0u);
   cr_assert_eq(check("lima-gp", b, words_to_bytes(tv_gp_1, 28, b)).n, 0u);
}

Test(lima_check, pp_rules)
{
   uint8_t b[128];
   struct finds f;
   size_t n;
   /* count larger than the units: decodes, and check says what it should be */
   n = words_to_bytes(tv_pp_1, 5, b);
   b[0] = (uint8_t)((b[0] & ~0x1f) | 6);
   isa_store_le32(b + n, 0);
   f = check("lima-pp", b, n + 4);
   cr_assert(strstr(f.text, "error derive ctrl.count: 6, but the content makes it 5"), "%s", f.text);
   /* two instructions: next_count must be the second one's count */
   uint32_t prog[11];
   memcpy(prog, tv_pp_1, sizeof tv_pp_1);
   memcpy(prog + 5, tv_pp_2, sizeof tv_pp_2);
   prog[0] &= ~0x20u;                        /* no stop on the first */
   prog[0] |= (5u << 19) | (1u << 25);       /* next_count 5, prefetch: wrong, the second has 6 */
   n = words_to_bytes(prog, 11, b);
   f = check("lima-pp", b, n);
   cr_assert(strstr(f.text, "error next-count ctrl.count: the previous instruction's next_count is 5, but this one is 6 words"),
             "%s", f.text);
   prog[0] = (prog[0] & ~(0x3fu << 19)) | (6u << 19);
   words_to_bytes(prog, 11, b);
   f = check("lima-pp", b, n);
   cr_assert_eq(f.n, 0u, "%s", f.text);
   /* the sampler without the varying unit, sync or its pipeline register */
   uint32_t tex[6];
   memcpy(tex, tv_pp_2, sizeof tex);
   words_to_bytes(tex, 6, b);
   struct lima_pp_Instruction in;
   struct isa_error err;
   cr_assert_eq(lima_pp_Instruction_unpack(b, 24, &in, &err), ISA_OK);
   in.has_varying = false;
   in.ctrl.sync = false;
   in.vec4_mul.arg0_source = 13; /* ^const1, absent */
   size_t size = 0;
   cr_assert_eq(lima_pp_Instruction_pack_checked(&in, b, sizeof b, &size, &err), ISA_OK);
   f = check("lima-pp", b, size);
   cr_assert(strstr(f.text, "error texld-needs-varying ctrl.fields"), "%s", f.text);
   cr_assert(strstr(f.text, "warning texld-needs-sync ctrl.sync"), "%s", f.text);
   cr_assert(strstr(f.text, "error reads-const1 ctrl.fields"), "%s", f.text);
   cr_assert(!strstr(f.text, "reads-texture"), "the sampler is there: %s", f.text);
}

Test(lima_check, pp_branch_target_must_stay_inside)
{
   struct lima_pp_Instruction in;
   uint8_t b[64];
   size_t size;
   struct isa_error err;
   char text[256];
   memset(&in, 0, sizeof in);
   in.ctrl.stop = true;
   in.has_branch = true;
   in.branch.variant = LIMA_PP_BRANCH_BRANCH;
   in.branch.u.branch.cond_gt = in.branch.u.branch.cond_eq = in.branch.u.branch.cond_lt = true;
   in.branch.u.branch.target = -2;
   cr_assert_eq(lima_pp_Instruction_pack_checked(&in, b, sizeof b, &size, &err), ISA_OK);
   cr_assert_eq(size, 16u, "control word + 73 bits");
   cr_assert_eq(dis("lima-pp", b, size, 0, text, sizeof text), 0);
   cr_assert_str_eq(text, "branch -2, stop\n");
   struct finds f = check("lima-pp", b, size);
   cr_assert(strstr(f.text, "error branch-target-inside branch.branch.target: branch target -2 is outside the program (4 words)"),
             "%s", f.text);
   /* the discard pattern is not a branch */
   in.branch.variant = LIMA_PP_BRANCH_DISCARD;
   in.branch.u.discard.word0 = 0x007f0003;
   cr_assert_eq(lima_pp_Instruction_pack_checked(&in, b, sizeof b, &size, &err), ISA_OK);
   cr_assert_eq(dis("lima-pp", b, size, 0, text, sizeof text), 0);
   cr_assert_str_eq(text, "discard, stop\n");
}

Test(lima_check, gp_rules)
{
   uint8_t b[64];
   struct lima_gp_Instruction g;
   struct isa_error err;
   size_t size;
   static const uint32_t nop[] = {0xad4ad6b5, 0x038002b5, 0x0007ff80, 0x000ad500};
   cr_assert_eq(lima_gp_Instruction_unpack(b, words_to_bytes(nop, 4, b), &g, &err), ISA_OK);
   g.branch = true;
   g.branch_target = 5;
   g.branch_target_lo = true;
   cr_assert_eq(lima_gp_Instruction_pack_checked(&g, b, sizeof b, &size, &err), ISA_OK);
   struct finds f = check("lima-gp", b, size);
   cr_assert(strstr(f.text, "error branch-target-inside branch_target: branch target 5 is past the program's last instruction (0)"),
             "%s", f.text);
   cr_assert(strstr(f.text, "warning branch-flags unknown_1: Mesa writes unknown_1 13 with a branch, not 0"), "%s", f.text);
   cr_assert(strstr(f.text, "warning branch-condition pass_src"), "%s", f.text);
   g.branch = false;
   g.complex_op = (enum lima_gp_ComplexOp)10;
   g.complex_src = LIMA_GP_SRC_ATTRIB_X;
   cr_assert_eq(lima_gp_Instruction_pack_checked(&g, b, sizeof b, &size, &err), ISA_OK);
   f = check("lima-gp", b, size);
   cr_assert(strstr(f.text, "warning unknown-complex-op complex_op: complex_op 10 is unknown (the seed's 'set address registers from pass', unverified)"),
             "%s", f.text);
}

/* isa_encode_program fills next_count and prefetch from the program (the
 * <stream>'s <derive>s), computes each count, and leaves the caller's units
 * alone. */
Test(lima_program, encoder_links_instructions)
{
   const struct isa_spec *pp = isa_spec_find("lima-pp");
   const uint32_t *src[3] = {tv_pp_2, tv_pp_4, tv_pp_1};
   const size_t words[3] = {6, 3, 5};
   struct lima_pp_Instruction in[3], back;
   uint8_t b[256];
   size_t size = 0;
   struct isa_error err;
   for (int i = 0; i < 3; i++) {
      uint8_t tmp[80];
      words_to_bytes(src[i], words[i], tmp);
      cr_assert_eq(lima_pp_Instruction_unpack(tmp, words[i] * 4, &in[i], &err), ISA_OK);
      in[i].ctrl.stop = i == 2;
      in[i].ctrl.count = 0;      /* computed by the encoder */
      in[i].ctrl.next_count = 0; /* computed from the program */
      in[i].ctrl.prefetch = false;
   }
   cr_assert_eq(isa_encode_program(pp, in, 3, b, sizeof b, &size, &err), ISA_OK, "%s", err.detail ? err.detail : "");
   cr_assert_eq(size, (6 + 3 + 5) * 4u);
   cr_assert_eq(in[0].ctrl.count, 0, "the caller's units are not modified");
   const size_t at[3] = {0, 24, 36};
   const unsigned next[3] = {3, 5, 0};
   for (int i = 0; i < 3; i++) {
      cr_assert_eq(lima_pp_Instruction_unpack(b + at[i], size - at[i], &back, &err), ISA_OK);
      cr_assert_eq(back.ctrl.count, words[i]);
      cr_assert_eq(back.ctrl.next_count, next[i], "instruction %d", i);
      cr_assert_eq(back.ctrl.prefetch, i < 2, "instruction %d", i);
      /* everything else is the published instruction */
      uint32_t w0 = isa_load_le32(b + at[i]);
      cr_assert_eq(w0 & ~(0x3fu << 19 | 1u << 25 | 1u << 5), src[i][0] & ~(0x3fu << 19 | 1u << 25 | 1u << 5));
      for (size_t k = 1; k < words[i]; k++)
         cr_assert_eq(isa_load_le32(b + at[i] + 4 * k), src[i][k], "instruction %d word %zu", i, k);
   }
   /* and the program passes the cross-instruction rules */
   struct finds f = check("lima-pp", b, size);
   cr_assert(!strstr(f.text, "next-count") && !strstr(f.text, "prefetch"), "%s", f.text);
   /* too small a buffer, and a unit that does not encode, are errors */
   cr_assert_eq(isa_encode_program(pp, in, 3, b, 40, &size, &err), ISA_ERR_NOSPACE);
   in[0].vec4_mul.dest = 99; /* tv_pp_2 has a vec4_mul; dest is 4 bits */
   cr_assert_eq(isa_encode_program(pp, in, 3, b, sizeof b, &size, &err), ISA_ERR_RANGE);
   cr_assert_str_eq(err.field, "dest");
   /* GP has nothing to derive: the program is the instructions side by side */
   const struct isa_spec *gp = isa_spec_find("lima-gp");
   struct lima_gp_Instruction g[7];
   uint8_t gb[7 * 16], out[7 * 16];
   words_to_bytes(tv_gp_1, 28, gb);
   for (int i = 0; i < 7; i++)
      cr_assert_eq(lima_gp_Instruction_unpack(gb + 16 * i, 16, &g[i], &err), ISA_OK);
   cr_assert_eq(isa_encode_program(gp, g, 7, out, sizeof out, &size, &err), ISA_OK);
   cr_assert_eq(size, sizeof out);
   cr_assert_eq(memcmp(out, gb, sizeof out), 0);
}

/* Decoding writes every item: an absent one is zeroed, whatever the struct
 * held before (decode no longer clears the whole struct first). */
Test(lima_decode, absent_items_are_zero)
{
   static const struct lima_pp_Instruction zero;
   struct lima_pp_Instruction v;
   uint8_t b[64];
   size_t n = words_to_bytes(tv_pp_4, 3, b);
   unsigned absent = 0;
   memset(&v, 0xa5, sizeof v);
   cr_assert_eq(lima_pp_Instruction_unpack(b, n, &v, NULL), ISA_OK);
#define ABSENT_IS_ZERO(item)                                                                                 \
   if (!v.has_##item) {                                                                                       \
      absent++;                                                                                               \
      cr_assert_eq(memcmp(&v.item, &zero.item, sizeof v.item), 0, #item " is absent and zero");              \
   }
   ABSENT_IS_ZERO(varying)
   ABSENT_IS_ZERO(sampler)
   ABSENT_IS_ZERO(uniform)
   ABSENT_IS_ZERO(vec4_mul)
   ABSENT_IS_ZERO(float_mul)
   ABSENT_IS_ZERO(vec4_acc)
   ABSENT_IS_ZERO(float_acc)
   ABSENT_IS_ZERO(combine)
   ABSENT_IS_ZERO(temp_write)
   ABSENT_IS_ZERO(branch)
   ABSENT_IS_ZERO(vec4_const_0)
   ABSENT_IS_ZERO(vec4_const_1)
#undef ABSENT_IS_ZERO
   cr_assert_geq(absent, 10u, "TV-PP-4 has two items");
}

/* The cursor keeps its own copy of the previous unit: ctx.prev is the
 * instruction before, as decoded, although the caller decodes every one
 * into the same struct (or lets the cursor keep it: obj NULL); the first
 * has none. */
static void walk_three(int into_cursor)
{
   uint32_t prog[16];
   uint8_t b[64];
   struct lima_pp_Instruction obj, before;
   struct isa_cursor cur;
   struct isa_ctx ctx;
   struct isa_error err;
   size_t n;
   int r, k = 0;
   memcpy(prog, tv_pp_1, sizeof tv_pp_1);
   memcpy(prog + 5, tv_pp_2, sizeof tv_pp_2);
   memcpy(prog + 11, tv_pp_1, sizeof tv_pp_1);
   prog[0] &= ~0x20u; /* no stop until the third */
   prog[5] &= ~0x20u;
   n = words_to_bytes(prog, 16, b);
   cr_assert_eq(isa_cursor_init(&cur, &lima_pp_spec, b, n), ISA_OK);
   while ((r = isa_cursor_next(&cur, into_cursor ? NULL : &obj, &ctx, &err)) > 0) {
      const struct lima_pp_Instruction *unit =
         into_cursor ? (const struct lima_pp_Instruction *)isa_cursor_unit(&cur) : &obj;
      if (k == 0) {
         cr_assert_null(ctx.prev);
      } else {
         cr_assert_not_null(ctx.prev);
         cr_assert(ctx.prev != (const void *)unit);
         cr_assert_eq(memcmp(ctx.prev, &before, sizeof before), 0, "unit %d", k);
      }
      cr_assert_eq(ctx.index, (uint64_t)k);
      cr_assert_eq(ctx.last, k == 2);
      cr_assert_eq(unit->ctrl.count, k == 1 ? 6u : 5u);
      memcpy(&before, unit, sizeof before);
      memset(&obj, 0xa5, sizeof obj); /* what a caller may do between units */
      k++;
   }
   cr_assert_eq(r, 0);
   cr_assert_eq(k, 3);
   isa_cursor_fini(&cur);
   isa_cursor_fini(&cur); /* twice is harmless */
}

Test(lima_cursor, prev_is_a_copy_of_the_unit_before)
{
   walk_three(0);
}

Test(lima_cursor, prev_without_a_caller_struct)
{
   walk_three(1);
}
