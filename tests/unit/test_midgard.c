/* Midgard: the fact sheet's known-answer vectors, the encoder's computed
 * fields, the GPU option, the quirks we fix, and bad input.  The corpus test
 * (test_corpus.c) prints every corpus program; this file checks what a
 * corpus cannot: named vectors whole, packing from fields, and refusals.
 * Expected texts are the fact sheet's (Mesa 22.3.6's output) or worked out
 * by hand from midgard.md's rules, with the arithmetic in comments. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "corpus.h"
#include "helpers.h"
#include "midgard.h"

extern const struct isa_spec midgard_spec;

/* Vectors from the fact sheet's Appendix A: the bytes as little-endian 32-bit
 * words, a quadword per line, and the text Mesa 22.3.6 printed for them. */
static const struct vector {
   const char *name, *gpu, *words, *text;
} vectors[] = {
   {"A1", "t760",
    "00000385 00000000 C0860990 001403D3 "
    "04020018 02300018 FF2E4800 0000C047 "
    "04020018 02300018 FF2E4000 0000FFC7 ",
    "LD_VARY.f16 R0.xy~~, 0.z, 0.z\n"
    "\n"
    "FMOV.f32 R0, TMP0.xxxx, R0.xyzw.widen\n"
    "br.write.always +0 -> alu/4\n"
    "break\n"
    "\n"
    "FMOV.f32 R0, TMP0.xxxx, R0\n"
    "br.write.always -1 -> alu/4\n"
    "\n"},
   {"D1", "t760",
    "04200089 021002FA FFEAA172 0000C047 "
    "3FA66666 3E4CCCCD 3F4CCCCD 3F800000 "
    "04020018 02300018 FF2E4000 0000FFC7 ",
    "FADD.f32 R0.clamp_0_1, <1.3, 0.2, 0.8, 1>, U0.zzzz.neg\n"
    "br.write.always +0 -> alu/4\n"
    "uconstants 0x3FA66666, 0x3E4CCCCD, 0x3F4CCCCD, 0x3F800000\n"
    "\n"
    "FMOV.f32 R0, TMP0.xxxx, R0\n"
    "br.write.always -1 -> alu/4\n"
    "\n"},
   {"D2", "t760",
    "00020059 02300758 FF2E4000 00000000 "
    "00000000 00000000 00000000 00000000 "
    "C9E294A5 00003C3D 00000030 00000000 "
    "0022008A 14821357 40000214 0210FF2E "
    "FF2E4072 00000000 00000000 00000000 "
    "3C23D70A BCA3D70A 00000000 00000000 "
    "02000088 02F09817 03200000 00000000 "
    "00020098 02141CC5 FF200072 00000000 "
    "00020099 02142747 FF2E4072 00000000 "
    "43480000 42F00000 3F000000 00000000 "
    "00200059 02106D3A FF2E4072 00000000 "
    "43480000 42F00000 3F000000 3F800000 "
    "C9E1D415 00003D3D 00000030 00000000 ",
    "FMOV.f32 R1, TMP0.xxxx, <0, 0, 0, 0>\n"
    "uconstants 0x0, 0x0, 0x0, 0x0\n"
    "\n"
    "LD_ATTR.f32 R2.xyzw, 0.z, 0.z\n"
    "\n"
    "FMUL.f32 R4, U0.xxxx, <0.01, -0.02, 0, 0>\n"
    "FADD.f32 R5, R2, R4\n"
    "uconstants 0x3C23D70A, 0xBCA3D70A, 0x0, 0x0\n"
    "\n"
    "FRCP.f32 R6.x, U0.x, #0\n"
    "\n"
    "FMUL.f32 R7, R5, R6.xxxx\n"
    "\n"
    "FMUL.f32 R9, R7, <200, 120, 0.5, 0>\n"
    "uconstants 0x43480000, 0x42F00000, 0x3F000000, 0x0\n"
    "\n"
    "FADD.f32 AL1, <200, 120, 0.5, 1>, R9\n"
    "uconstants 0x43480000, 0x42F00000, 0x3F000000, 0x3F800000\n"
    "\n"
    "ST_VARY.f32 AL1, 0.z, 0.z\n"
    "\n"},
   {"H1", "t860",
    "210B1113 00E43C60 01800210 00030000 ",
    "TEX.2d TA0.f32, texture3, fsampler0, AT0.xyxx.32 + <1, 2, 0>, lod + 1.500000, \n"
    "\n"},
   {"H2", "t860",
    "234B1412 00E43CA0 00110000 00010001 ",
    "TEX_FETCH.vtx.2d TA0.i32, texture1, usampler1, AT1.xyxx.32, lod = AT0.z.32, \n"
    "\n"},
   {"H3", "t860",
    "00030B14 00000000 00000000 00000000 ",
    "BARRIER\n"
    "\n"},
   {"H4", "t860",
    "040A0019 88E11078 40000230 C4100F2E "
    "04A95000 00000000 00000000 00000000 ",
    "FMOV.f32 R4.xy, TMP0.xx, R3\n"
    "FADD.f32 R2.y, R1.x, #1.5\n"
    "br.uncond +2 -> ldst\n"
    "break\n"
    "\n"},
   {"H5", "t860",
    "00A00019 14838801 86720240 1458FFAE "
    "0000D809 00000000 00000000 00000000 ",
    "ADD.i32 R2, R1, #1000\n"
    "MUL.i32 R5.w, R3.y, R4.z\n"
    "\n"},
   {"H6", "t860",
    "08214015 00403840 1C9E3900 FFF81314 ",
    "AADD.32 R1.x~~~, AL0.u64.x + 0x10, AL1.x\n"
    "LD.128 R3.xyzw, AL0.u64.x + GLOBAL_THREAD_ID.u32.x << 4 - 0x20\n"
    "\n"},
   {"H7", "t860",
    "00220019 14830820 B2722114 4210FF21 "
    "0F0E4AF2 00000000 00000000 00000000 ",
    "FMUL.f16 R2, R0.efghefgh, R1.wzyxwzyx\n"
    "FADD.f32 R5.xy.shrink, R3.xy.widen, R4.ef.abs.widen\n"
    "\n"},
   {"C6", "t860",
    "C9E09885 01403939 00000030 00000000 "
    "08800088 14827C17 0642D801 55550000 "
    "08000098 00000404 0000FFFF 00000000 "
    "08800089 04300758 024A1001 FFFF0000 "
    "FFFFFFFF 00000000 00000000 00000000 "
    "00800098 04308418 00001000 00000000 "
    "02800059 08188418 4800047B 4000027B "
    "0000FFAE 00000000 00000000 00000000 "
    "8081A895 00403800 00000030 00000000 "
    "08880089 7C386038 0809047B D80400A5 "
    "0000024A 00005555 00000000 00000000 "
    "08000098 0000126A 0000FFFF 00000000 "
    "00220089 0C1862E2 40720214 0210FF2E "
    "FF2E4072 00000000 00000000 00000000 "
    "00200098 021012E2 FF2E4172 00000000 "
    "00280099 08837EE2 D8091482 407202C1 "
    "0000FFAE 00000000 00000000 00000000 "
    "08A00089 7C388401 10551140 347B04A0 "
    "0242D801 55550000 00000000 00000000 "
    "08000088 0000026A 0000FFFF 00000000 "
    "080000D8 FFFFE62A 0000FFFF 00000000 "
    "0822001D 841F0058 4000027B 0240FFAE "
    "C0A00000 0000006F 0000FFFF 00000000 "
    "0822001D 841F0018 4000027B 0240FFAE "
    "C0A00000 FFFFFC6F 0000FFFF 00000000 "
    "00000000 00000000 00000000 00000000 ",
    "LD_VARY.f32 R0.xyzw, 0.x, 0.x\n"
    "\n"
    "FCMP.lt.i32 R31.w, U0.y, R0.x\n"
    "brx.reserved.cond.false +3 -> alu/4\n"
    "\n"
    "brx.reserved.discard.always +2 -> invalid\n"
    "\t/* XXX TAG ERROR: jumping to invalid but tagged alu/4 \n"
    "\n"
    "FMOV.f32 R1.x, TMP0.x, #-nan\n"
    "brx.reserved.cond.always +1 -> alu/8\n"
    "uconstants 0xFFFFFFFF, 0x0, 0x0, 0x0\n"
    "\n"
    "FMOV.f32 R1.x, TMP0.x, #0\n"
    "\n"
    "MOV.i32 R1.z.keeplo, TMP0.x, #0\n"
    "MOV.i32 R2, TMP0.xxxx, R0\n"
    "\n"
    "LD_UBO.32 R1.~~x~, AL0.x, 0.x + 0x4\n"
    "\n"
    "MOV.i32 TMP0.x.keeplo, TMP0.x, R1.z\n"
    "CMP.le.i32 R31.w, TMP0.x.sext, R1.z.sext\n"
    "brx.reserved.cond.false +1 -> alu/8\n"
    "\n"
    "brx.reserved.cond.always +9 -> aluw/8\n"
    "\n"
    "FMUL.f32 TMP0, R2, U0\n"
    "FADD.f32 R3, TMP0, R0\n"
    "\n"
    "FADD.f32 R4, R2, U0.neg\n"
    "\n"
    "FCMP.lt.i32 R31.w, R2.y, U0.z\n"
    "CSEL.scalar.i32 R2, R3, R4\n"
    "\n"
    "ADD.i16 R1.z, R1.z, #1\n"
    "MOV.i32 R31.w, TMP0.w, R1.x\n"
    "brx.reserved.cond.false +1 -> alu/4\n"
    "\n"
    "brx.reserved.cond.always +1 -> aluw/8\n"
    "\n"
    "brx.reserved.cond.always -13 -> ldst\n"
    "\n"
    "MOV.i32 R0, TMP0.xxxx, R2\n"
    "ADD.i32 R1.w, PC_SP.x, #0\n"
    "brx.reserved.write.always +0 -> aluw/8\n"
    "writeout\n"
    "break\n"
    "\n"
    "MOV.i32 R0, TMP0.xxxx, R0\n"
    "ADD.i32 R1.w, PC_SP.x, #0\n"
    "brx.reserved.write.always -2 -> aluw/8\n"
    "writeout\n"
    "\n"},
};

/* "00000385 00000000 ..." (little-endian words) to bytes in memory order. */
static size_t words_bytes(const char *words, uint8_t *out, size_t cap)
{
   size_t n = 0;
   while (*words && n + 4 <= cap) {
      char *end;
      unsigned long w = strtoul(words, &end, 16);
      if (end == words)
         break;
      for (int k = 0; k < 4; k++)
         out[n++] = (uint8_t)(w >> (8 * k));
      words = end;
      while (*words == ' ')
         words++;
   }
   return n;
}

/* The --gpu GPU option values, as `isa dis --gpu GPU` sets them. */
static const int64_t *gpu_options(const char *gpu, int64_t *options)
{
   cr_assert_leq(midgard_spec.n_options, 4u);
   isa_options_init(&midgard_spec, options);
   cr_assert_eq(isa_option_set(&midgard_spec, options, "gpu", gpu), ISA_OK, "gpu %s", gpu);
   return options;
}

/* Print a program as `isa dis --isa midgard --gpu GPU` does; *end gets
 * where its last bundle ends. */
static int listing(const uint8_t *b, size_t n, const char *gpu, char *out, size_t cap, size_t *end)
{
   int64_t options[4];
   return dis_spec(&midgard_spec, gpu_options(gpu, options), b, n, 0, out, cap, end);
}

/* Validate a program as `isa check --isa midgard --gpu GPU` does; r gets the
 * cursor's final status. */
static struct finds check_gpu(const uint8_t *b, size_t n, const char *gpu, int *r)
{
   int64_t options[4];
   return check_spec(&midgard_spec, gpu_options(gpu, options), b, n, r);
}

static char text[1 << 16];
static uint8_t bytes[4096], again[4096];
static struct midgard_Bundle units[128];

Test(midgard_vectors, appendix_a_prints_as_mesa_did)
{
   for (size_t v = 0; v < sizeof vectors / sizeof vectors[0]; v++) {
      size_t n = words_bytes(vectors[v].words, bytes, sizeof bytes), end;
      cr_assert_eq(listing(bytes, n, vectors[v].gpu, text, sizeof text, &end), 0, "%s decodes", vectors[v].name);
      cr_assert_str_eq(text, vectors[v].text, "%s", vectors[v].name);
   }
}

Test(midgard_vectors, programs_encode_back_with_the_next_tags_computed)
{
   /* decode each vector, clear every next tag, encode it as a program: the
    * encoder chains the tags again (BREAK after the last bundle, and kept
    * where a forward branch continues past it, as in A1) */
   for (size_t v = 0; v < sizeof vectors / sizeof vectors[0]; v++) {
      size_t n = words_bytes(vectors[v].words, bytes, sizeof bytes), k = 0, size = 0;
      struct isa_cursor cur;
      struct isa_ctx ctx;
      struct isa_error err;
      int r;
      cr_assert_eq(isa_cursor_init(&cur, &midgard_spec, bytes, n), ISA_OK);
      while ((r = isa_cursor_next(&cur, &units[k], &ctx, &err)) > 0) {
         struct midgard_Bundle *u = &units[k++];
         if (u->variant == MIDGARD_BUNDLE_ALU && u->u.Alu.ctrl.next_tag != MIDGARD_TAG_BREAK)
            u->u.Alu.ctrl.next_tag = MIDGARD_TAG_INVALID;
         else if (u->variant == MIDGARD_BUNDLE_LOAD_STORE)
            u->u.LoadStore.next_tag = MIDGARD_TAG_INVALID;
         else if (u->variant == MIDGARD_BUNDLE_TEXTURE)
            u->u.Texture.next_type = MIDGARD_TAG_INVALID;
      }
      isa_cursor_fini(&cur);
      cr_assert_eq(r, 0);
      cr_assert_eq(isa_encode_program(&midgard_spec, units, k, again, sizeof again, &size, &err), ISA_OK,
                   "%s encodes: %s", vectors[v].name, err.detail ? err.detail : "");
      /* the vector's bytes, and after a last bundle that ends the program
       * the zero quadword Mesa's compiler writes (the stream's after-stop):
       * the vectors Mesa compiled have it already, A1 (2018's assembler)
       * not; H4's last bundle does not end it */
      cr_assert(size == n || size == n + 16, "%s: %zu bytes, not %zu", vectors[v].name, size, n);
      cr_assert_arr_eq(again, bytes, n < size ? n : size, "%s: the program's bytes", vectors[v].name);
      for (size_t i = n; i < size; i++)
         cr_assert_eq(again[i], 0, "%s: byte %zu of the zero quadword after the last bundle", vectors[v].name, i);
      if (!strcmp(vectors[v].name, "A1"))
         cr_assert_eq(size, n + 16, "A1 gets the zero quadword after its last bundle");
   }
}

Test(midgard_pack, the_encoder_computes_control_word_padding_and_tag)
{
   /* D1's first bundle from its units alone:
    *   FADD.f32 R0.clamp_0_1, <constants>, U0.zzzz.neg (VADD), br.write.always +0 -> alu/4, constants.
    * Control word: VADD (bit 21) and compact branch (bit 26); half-words:
    * 2 (control) + 1 (register word) + 3 (VADD) + 1 (branch) = 7, so one of
    * padding and one quadword, plus the constants: tag 0x9, alu/8. */
   static const char *d1 = "04200089 021002FA FFEAA172 0000C047 3FA66666 3E4CCCCD 3F4CCCCD 3F800000";
   uint8_t want[32], out[64];
   size_t size = 0;
   struct isa_error err;
   struct midgard_Bundle b;
   struct midgard_Alu *a = &b.u.Alu;
   cr_assert_eq(words_bytes(d1, want, sizeof want), 32u);
   memset(&b, 0, sizeof b);
   b.variant = MIDGARD_BUNDLE_ALU;
   a->ctrl.next_tag = MIDGARD_TAG_ALU_4;
   a->has_rw_vadd = a->has_vadd = a->has_cbr = a->has_consts = true;
   a->rw_vadd.src1_reg = 26;                           /* the constants */
   a->rw_vadd.src2_reg = 23;                           /* U0 */
   a->vadd.op = MIDGARD_ALU_OP_FADD;
   a->vadd.reg_mode = MIDGARD_REG_MODE_MODE32;
   a->vadd.src1.swizzle = 0xE4;
   a->vadd.src2.mod = 2;                               /* neg */
   a->vadd.src2.swizzle = 0xAA;                        /* zzzz */
   a->vadd.shrink = MIDGARD_SHRINK_NONE;
   a->vadd.outmod = 3;                                 /* clamp_0_1 */
   a->vadd.mask = 0xFF;
   a->cbr.op = MIDGARD_BRANCH_OP_WRITEOUT;
   a->cbr.dest_tag = MIDGARD_TAG_ALU_4;
   a->cbr.u.cond.cond = MIDGARD_COND_ALWAYS;
   a->consts.w[0] = 0x3FA66666, a->consts.w[1] = 0x3E4CCCCD, a->consts.w[2] = 0x3F4CCCCD, a->consts.w[3] = 0x3F800000;
   isa_select_variants(&midgard_Bundle_desc, &b);
   cr_assert_eq(midgard_Bundle_pack_checked(&b, out, sizeof out, &size, &err), ISA_OK, "%s",
                err.detail ? err.detail : "");
   cr_assert_eq(size, 32u);
   cr_assert_arr_eq(out, want, 32);

   /* without constants the same units take one quadword: tag 0x8 */
   a->has_consts = false;
   cr_assert_eq(midgard_Bundle_pack_checked(&b, out, sizeof out, &size, &err), ISA_OK);
   cr_assert_eq(size, 16u);
   cr_assert_eq(out[0], 0x88, "alu/4, next alu/4: 0x%02x", out[0]);

   /* a unit whose register word is missing disagrees with the control word */
   a->has_rw_vadd = false;
   cr_assert_eq(midgard_Bundle_pack_checked(&b, out, sizeof out, &size, &err), ISA_ERR_INCONSISTENT, "%s %s",
                isa_strerror(err.status), err.detail ? err.detail : "");
}

Test(midgard_pack, padding_the_layout_has_no_room_for_is_refused)
{
   /* H5's bundle: VADD + SMUL = 2 + 2 + 3 + 2 = 9 half-words, 7 of padding */
   uint8_t out[64];
   size_t size = 0, n = words_bytes("00A00019 14838801 86720240 1458FFAE 0000D809 00000000 00000000 00000000",
                                     bytes, sizeof bytes);
   struct isa_error err;
   struct midgard_Bundle b;
   cr_assert_eq(midgard_Bundle_unpack(bytes, n, &b, &err), ISA_OK);
   cr_assert_eq(b.u.Alu.n_pad, 7u);
   b.u.Alu.has_smul = b.u.Alu.has_rw_smul = false; /* 6 half-words left: 2 of padding */
   cr_assert_eq(midgard_Bundle_pack_checked(&b, out, sizeof out, &size, &err), ISA_OK);
   cr_assert_eq(size, 16u);
   b.u.Alu.pad[5].value = 0x1234; /* would be dropped */
   cr_assert_eq(midgard_Bundle_pack_checked(&b, out, sizeof out, &size, &err), ISA_ERR_INCONSISTENT);
   b.u.Alu.pad[5].value = 0;
   b.u.Alu.n_pad = 0; /* too few: the encoder adds zeros */
   cr_assert_eq(midgard_Bundle_pack_checked(&b, out, sizeof out, &size, &err), ISA_OK);
   cr_assert_eq(out[12] | out[13] | out[14] | out[15], 0);
}

Test(midgard_options, interpipe_gpus_name_texture_registers_r_and_al)
{
   /* H2 on a T720: inputs are r0/r1 (R), outputs r26/r27 (AL) */
   size_t n = words_bytes("234B1412 00E43CA0 00110000 00010001", bytes, sizeof bytes);
   cr_assert_eq(listing(bytes, n, "t720", text, sizeof text, NULL), 0);
   cr_assert_str_eq(text, "TEX_FETCH.vtx.2d AL0.i32, texture1, usampler1, R1.xyxx.32, lod = R0.z.32, \n\n");
   cr_assert_eq(listing(bytes, n, "t880", text, sizeof text, NULL), 0);
   cr_assert_str_eq(text, "TEX_FETCH.vtx.2d TA0.i32, texture1, usampler1, AT1.xyxx.32, lod = AT0.z.32, \n\n");
   int64_t options[4];
   isa_options_init(&midgard_spec, options);
   cr_assert_eq(options[0], MIDGARD_GPU_T860, "the default is the T860");
   cr_assert_eq(isa_option_set(&midgard_spec, options, "gpu", "t999"), ISA_ERR_ARG);
}

Test(midgard_quirks, q1_a_32_bit_scalar_constant_reads_lane_component_over_2)
{
   /* C9 (corpus entry 19): FCMP.lt.i32 R31.w, R1.y.abs, <constant> with
    * component 2 of a 32-bit source: lane 1, 0x5D5E0B6B = 1e18 (atan2's
    * range reduction), where Mesa prints lane 2 (0.25) */
   const struct corpus_entry *e = &corpus_midgard[18];
   size_t n = hex_bytes(e->hex, bytes, sizeof bytes);
   cr_assert_eq(n, 2272u, "entry 19 is C9");
   cr_assert(e->flags & CORPUS_FIXED_QUIRK);
   cr_assert_eq(listing(bytes, n, "t860", text, sizeof text, NULL), 0);
   cr_assert(strstr(text, "FCMP.lt.i32 R31.w, R1.y.abs, #1e+18\n"), "%s", text);
   cr_assert(strstr(e->text, "FCMP.lt.i32 R31.w, R1.y.abs, #0.25\n"), "Mesa's reading");
}

Test(midgard_quirks, q2_a_64_bit_constant_lane_reads_its_selector_pair)
{
   /* FADD.f64 with the constants as source 1, swizzle 0x4E: lane 0's pair of
    * 32-bit selectors is (2, 3), 64-bit lane 1; lane 1's is (0, 1), lane 0.
    * Constants: lane 0 = 1.0 (0x3FF00000_00000000), lane 1 = 2.0.  So
    * <2, 1>; Mesa would take selectors 2 and 3 as 64-bit lanes, past the block. */
   uint8_t out[64];
   size_t size = 0;
   struct isa_error err;
   struct midgard_Bundle b;
   struct midgard_Alu *a = &b.u.Alu;
   memset(&b, 0, sizeof b);
   b.variant = MIDGARD_BUNDLE_ALU;
   a->ctrl.next_tag = MIDGARD_TAG_BREAK;
   a->has_rw_vadd = a->has_vadd = a->has_consts = true;
   a->rw_vadd.src1_reg = 26;
   a->rw_vadd.src2_imm = true; /* #0 */
   a->vadd.op = MIDGARD_ALU_OP_FADD;
   a->vadd.reg_mode = MIDGARD_REG_MODE_MODE64;
   a->vadd.src1.swizzle = 0x4E;
   a->vadd.shrink = MIDGARD_SHRINK_NONE;
   a->vadd.mask = 0xFF;
   a->consts.w[1] = 0x3FF00000, a->consts.w[3] = 0x40000000;
   cr_assert_eq(midgard_Bundle_pack_checked(&b, out, sizeof out, &size, &err), ISA_OK);
   cr_assert_eq(size, 32u, "2 + 1 + 3 half-words and the constants: alu/8");
   cr_assert_eq(listing(out, size, "t860", text, sizeof text, NULL), 0);
   cr_assert_str_eq(text, "FADD.f64 R0, <2, 1>, #0\nuconstants 0x0, 0x3FF00000, 0x0, 0x40000000\n\n");
}

Test(midgard_check, gpu_quirks_are_checked_per_gpu)
{
   /* C2, compiled for the T860, ends in writeout tags (0xD), which fault on
    * GPUs with MIDGARD_NO_UPPER_ALU (T600, T620, T720, T760) */
   const struct corpus_entry *e = &corpus_midgard[11];
   size_t n = hex_bytes(e->hex, bytes, sizeof bytes);
   int r;
   struct finds s = check_gpu(bytes, n, "t860", &r);
   cr_assert_eq(r, 0);
   cr_assert_eq(s.errors, 0u, "%s", s.text);
   s = check_gpu(bytes, n, "t760", &r);
   cr_assert_eq(s.errors, 2u, "the two writeout bundles: %s", s.text);
   cr_assert(strstr(s.text, "writeout-tag"), "%s", s.text);
}

Test(midgard_check, every_input_mesa_asserts_on_is_reported)
{
   /* midgard-excluded.jsonl: inputs on which Mesa's printer asserts or
    * reads outside its input.  Each decodes and prints here, and isa check
    * reports an error for it, but for the three whose only fault is a
    * constant read past the block (quirks Q1/Q2, which we fix): there the
    * text is sound, and a warning still flags the oddities. */
   unsigned errors = 0, fixed = 0;
   for (unsigned i = 0; i < corpus_midgard_excluded_count; i++) {
      const struct corpus_entry *e = &corpus_midgard_excluded[i];
      size_t n = hex_bytes(e->hex, bytes, sizeof bytes);
      const char *gpu = strchr(e->options, '=') + 1;
      int r;
      struct finds s = check_gpu(bytes, n, gpu, &r);
      cr_assert_eq(r, 0, "excluded %u decodes", i);
      cr_assert_eq(listing(bytes, n, gpu, text, sizeof text, NULL), 0);
      cr_assert_gt(s.n, 0u, "excluded %u: %s", i, s.text);
      if (s.errors)
         errors++;
      else
         fixed++;
   }
   cr_assert_eq(errors + fixed, 52u);
   cr_assert_eq(fixed, 3u, "only the constant reads past the block go without an error");
}

Test(midgard_bad_input, truncated_and_garbage_bytes_give_errors)
{
   struct midgard_Bundle b;
   struct isa_error err;
   uint64_t seed = 0x6d696467617264;
   /* alu/16 says four quadwords; one is there */
   size_t n = words_bytes("0002000B 00000000 00000000 00000000", bytes, sizeof bytes);
   cr_assert_eq(midgard_Bundle_unpack(bytes, n, &b, &err), ISA_ERR_TRUNCATED);
   cr_assert_neq(listing(bytes, n, "t860", text, sizeof text, NULL), 0);
   cr_assert_eq(midgard_Bundle_unpack(bytes, 3, &b, &err), ISA_ERR_TRUNCATED);
   /* random programs: they decode, print and validate, or stop with an error */
   for (int round = 0; round < 2000; round++) {
      size_t len = 16 * (1 + rng_next(&seed) % 8);
      int r;
      for (size_t k = 0; k < len; k++)
         bytes[k] = (uint8_t)rng_next(&seed);
      r = listing(bytes, len, round % 2 ? "t720" : "t860", text, sizeof text, NULL);
      cr_assert_leq(r, 0);
      (void)check_gpu(bytes, len, "t600", &r);
   }
}

/* named(x) reads a bitset of the enum's named values: it must agree with
 * the name function at every value, across the 64-bit words' edges and
 * past the last one. */
Test(midgard_enums, named_agrees_with_name)
{
   for (uint32_t v = 0; v < 1024; v++) {
      cr_assert_eq(midgard_AluOp_named(v), midgard_AluOp_name(v) != NULL, "AluOp %u", v);
      cr_assert_eq(midgard_LdstOp_named(v), midgard_LdstOp_name(v) != NULL, "LdstOp %u", v);
   }
   cr_assert(midgard_AluOp_named(MIDGARD_ALU_OP_FADD));
   cr_assert(!midgard_AluOp_named(0xFFFFFFFFu));
}
