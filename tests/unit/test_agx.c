/* AGX (Apple G13): what the corpus alone does not pin down.  Expected texts
 * and bytes come from the fact sheet (agx.md) and from applegpu's records in
 * tests/corpus/agx.jsonl, never from our own output.  The corpus itself is
 * checked by test_corpus.c. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "isagen/isagen.h"

#define AGX "agx-g13"

/* An instruction built by name: alternative `alt`, then "field", value
 * pairs up to NULL.  Returns the encoder's status; *bits gets the size. */
static int build(const char *spec_name, uint8_t *out, size_t cap, size_t *bits, struct isa_error *err,
                 const char *alt, ...)
{
   const struct isa_spec *spec = isa_spec_find(spec_name);
   void *obj = calloc(1, spec->unit->c_size);
   const char *name;
   int r;
   va_list ap;
   cr_assert_eq(isa_variant_set(spec->unit, obj, alt), ISA_OK, "%s is an instruction", alt);
   va_start(ap, alt);
   r = ISA_OK;
   while (r == ISA_OK && (name = va_arg(ap, const char *)))
      r = isa_field_set(spec->unit, obj, name, va_arg(ap, long long));
   va_end(ap);
   memset(out, 0, cap);
   *bits = 0;
   if (r == ISA_OK)
      r = spec->unit->encode(obj, out, cap, 0, bits, err);
   free(obj);
   return r;
}

/* The text of the one instruction in b[0..n), without its newline. */
static const char *text_of(const char *spec_name, const uint8_t *b, size_t n)
{
   static char text[1024];
   size_t len;
   cr_assert_eq(dis(spec_name, b, n, 0, text, sizeof text), 0);
   len = strlen(text);
   if (len && text[len - 1] == '\n')
      text[len - 1] = '\0';
   return text;
}

/* The name of the instruction b decodes as, by applegpu's first match. */
static const char *decoded_as(const uint8_t *b, size_t n, size_t *size)
{
   const struct isa_spec *spec = isa_spec_find(AGX);
   static char name[64];
   void *obj = calloc(1, spec->unit->c_size);
   struct isa_error err;
   cr_assert_eq(isa_decode_unit(spec, b, n, 0, obj, size, &err), ISA_OK);
   snprintf(name, sizeof name, "%s", isa_variant_name(spec->unit, obj));
   free(obj);
   return name;
}

/* agx.md 2.6: the 128 magnitudes of the 8-bit float immediate, codes 0x00..0x7f */
static const char *const float_imm[128] = {
   "0.0",      "0.015625", "0.03125",  "0.046875", "0.0625",   "0.078125", "0.09375",  "0.109375", "0.125",
   "0.140625", "0.15625",  "0.171875", "0.1875",   "0.203125", "0.21875",  "0.234375", "0.25",     "0.265625",
   "0.28125",  "0.296875", "0.3125",   "0.328125", "0.34375",  "0.359375", "0.375",    "0.390625", "0.40625",
   "0.421875", "0.4375",   "0.453125", "0.46875",  "0.484375", "0.5",      "0.53125",  "0.5625",   "0.59375",
   "0.625",    "0.65625",  "0.6875",   "0.71875",  "0.75",     "0.78125",  "0.8125",   "0.84375",  "0.875",
   "0.90625",  "0.9375",   "0.96875",  "1.0",      "1.0625",   "1.125",    "1.1875",   "1.25",     "1.3125",
   "1.375",    "1.4375",   "1.5",      "1.5625",   "1.625",    "1.6875",   "1.75",     "1.8125",   "1.875",
   "1.9375",   "2.0",      "2.125",    "2.25",     "2.375",    "2.5",      "2.625",    "2.75",     "2.875",
   "3.0",      "3.125",    "3.25",     "3.375",    "3.5",      "3.625",    "3.75",     "3.875",    "4.0",
   "4.25",     "4.5",      "4.75",     "5.0",      "5.25",     "5.5",      "5.75",     "6.0",      "6.25",
   "6.5",      "6.75",     "7.0",      "7.25",     "7.5",      "7.75",     "8.0",      "8.5",      "9.0",
   "9.5",      "10.0",     "10.5",     "11.0",     "11.5",     "12.0",     "12.5",     "13.0",     "13.5",
   "14.0",     "14.5",     "15.0",     "15.5",     "16.0",     "17.0",     "18.0",     "19.0",     "20.0",
   "21.0",     "22.0",     "23.0",     "24.0",     "25.0",     "26.0",     "27.0",     "28.0",     "29.0",
   "30.0",     "31.0",
};

Test(agx_operands, every_float_immediate_prints_as_python_prints_it)
{
   uint8_t b[16];
   size_t bits;
   struct isa_error err;
   char want[128];
   for (unsigned code = 0; code < 256; code++) {
      /* fadd32 r1, <code>, <code>.abs.neg: both float sources, and the modifiers after the number */
      cr_assert_eq(build(AGX, b, sizeof b, &bits, &err, "fadd32", "Dt", 2LL, "D", 2LL, "At", 0LL, "A", (long long)code,
                         "Bt", 0LL, "B", (long long)code, "Bm", 3LL, NULL),
                   ISA_OK);
      snprintf(want, sizeof want, "fadd32           r1, %s%s, %s%s.abs.neg", code & 0x80 ? "-" : "",
               float_imm[code & 0x7f], code & 0x80 ? "-" : "", float_imm[code & 0x7f]);
      cr_assert_str_eq(text_of(AGX, b, bits / 8), want, "code %#x", code);
   }
}

Test(agx_operands, register_numbers_count_halves)
{
   /* agx.md 1: r0l = 0, r0h = 1, r1l = 2 ... r127h = 255; a 32-bit rN is 2N */
   uint8_t b[16];
   size_t bits;
   struct isa_error err;
   cr_assert_eq(build(AGX, b, sizeof b, &bits, &err, "mov_imm16", "Dt", 0LL, "D", 255LL, "imm16", 7LL, NULL), ISA_OK);
   cr_assert_str_eq(text_of(AGX, b, bits / 8), "mov_imm          r127h, 7");
   cr_assert_eq(build(AGX, b, sizeof b, &bits, &err, "mov_imm32", "Dt", 3LL, "D", 254LL, "imm32", 0xffffffffLL, NULL),
                ISA_OK);
   cr_assert_str_eq(text_of(AGX, b, bits / 8), "mov_imm          r127.cache, 4294967295, 0b0");
}

Test(agx_length, the_encoder_picks_the_short_form_when_the_value_fits)
{
   uint8_t b[16], want[16];
   size_t bits;
   struct isa_error err;
   /* both records from agx.jsonl: D = 1 fits the short form, D = 212 needs Dx in the tail */
   cr_assert_eq(build(AGX, b, sizeof b, &bits, &err, "mov_imm16", "Dt", 0LL, "D", 1LL, "imm16", 4925LL, NULL), ISA_OK);
   cr_assert_eq(bits, 32u);
   cr_assert_arr_eq(b, want, hex_bytes("62023d13", want, sizeof want));
   cr_assert_eq(build(AGX, b, sizeof b, &bits, &err, "mov_imm16", "Dt", 0LL, "D", 212LL, "imm16", 53632LL, NULL),
                ISA_OK);
   cr_assert_eq(bits, 48u, "L is set because Dx is not zero");
   cr_assert_arr_eq(b, want, hex_bytes("62a880d10030", want, sizeof want));
   /* asked for explicitly, the long form is kept even when the value fits */
   cr_assert_eq(build(AGX, b, sizeof b, &bits, &err, "mov_imm16", "Dt", 0LL, "D", 1LL, "L", 1LL, "imm16", 4925LL, NULL),
                ISA_OK);
   cr_assert_eq(bits, 48u);
   cr_assert_str_eq(text_of(AGX, b, 6), "mov_imm          r0h, 4925");
}

/* A choice switched to another alternative through reflection gets that
 * alternative initialised: an instruction decoded as mov_imm16 into an
 * object full of 0xa5, switched to mov_imm32 and given D and imm32, packs
 * with every other field zero (its reserved bits included, which 0xa5
 * would not fit) but for bit 1 of Dt, which mov_imm32's encoding fixes to
 * one (agx-g13.xml: fixed bit 8, shared) and S_init sets, and decodes back
 * as what was set. */
Test(agx_choice, switching_the_alternative_starts_it_over)
{
   const struct isa_spec *spec = isa_spec_find(AGX);
   void *obj = malloc(spec->unit->c_size), *back = calloc(1, spec->unit->c_size);
   uint8_t in[8], out[16];
   size_t bits = 0;
   struct isa_error err;
   cr_assert(obj && back);
   memset(obj, 0xa5, spec->unit->c_size);
   cr_assert_eq(spec->unit->decode(in, hex_bytes("62023d13", in, sizeof in), 0, obj, &bits, &err), ISA_OK);
   cr_assert_str_eq(isa_variant_name(spec->unit, obj), "mov_imm16");
   cr_assert_eq(isa_variant_set(spec->unit, obj, "mov_imm32"), ISA_OK);
   cr_assert_eq(isa_field_set(spec->unit, obj, "D", 1), ISA_OK);
   cr_assert_eq(isa_field_set(spec->unit, obj, "imm32", 0x12345678), ISA_OK);
   cr_assert_eq(spec->unit->encode(obj, out, sizeof out, 0, &bits, &err), ISA_OK);
   cr_assert_eq(spec->unit->decode(out, bits / 8, 0, back, &bits, &err), ISA_OK);
   cr_assert_str_eq(isa_variant_name(spec->unit, back), "mov_imm32");
   {
      static const struct {
         const char *path;
         int64_t value;
      } want[] = {{"D", 1}, {"imm32", 0x12345678}, {"Dt", 2}, {"L", 0}, {"kill", 0}, {"reserved_48", 0}};
      for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
         int64_t v = -1;
         cr_assert_eq(isa_field_get(spec->unit, back, want[i].path, &v), ISA_OK, "%s", want[i].path);
         cr_assert_eq(v, want[i].value, "%s", want[i].path);
      }
   }
   free(obj);
   free(back);
}

Test(agx_length, a_short_ceil_is_a_floor)
{
   /* agx.md 1: ceil's distinguishing bits lie in the tail, so its 4-byte
    * form (L clear) decodes as floor; the 6-byte record is from agx.jsonl */
   uint8_t b[8];
   size_t size;
   hex_bytes("4abe690c010c", b, sizeof b);
   cr_assert_str_eq(decoded_as(b, 6, &size), "ceil");
   cr_assert_eq(size, 6u);
   b[1] &= 0x7f; /* L is bit 15 */
   cr_assert_str_eq(decoded_as(b, 4, &size), "floor");
   cr_assert_eq(size, 4u);
}

Test(agx_fixed, fixed_bits_inside_a_field_must_agree)
{
   /* agx.md 1: mov_imm's bit 8 is both Dt's high bit and the opcode bit
    * telling the 16-bit form (0) from the 32-bit one (1) */
   uint8_t b[16];
   size_t bits;
   struct isa_error err;
   cr_assert_eq(build(AGX, b, sizeof b, &bits, &err, "mov_imm16", "Dt", 2LL, "D", 4LL, NULL), ISA_ERR_INCONSISTENT);
   cr_assert_str_eq(err.field, "Dt");
   cr_assert_eq(build(AGX, b, sizeof b, &bits, &err, "mov_imm32", "Dt", 1LL, "D", 4LL, NULL), ISA_ERR_INCONSISTENT);
   cr_assert_eq(build(AGX, b, sizeof b, &bits, &err, "mov_imm32", "Dt", 3LL, "D", 4LL, NULL), ISA_OK);
   cr_assert_eq(b[0] & 0x7f, 0x62, "opcode 0x62");
   cr_assert_eq(b[1] & 1, 1, "and bit 8 set");
}

Test(agx_fixed, constant_bits_read_and_set_by_path)
{
   /* the opcode bits have no C member: reading gives the constant, setting
    * anything else is refused (found by the fuzzer as a pointer overflow) */
   const struct isa_type_desc *u = isa_spec_find(AGX)->unit;
   void *obj = calloc(1, u->c_size);
   int64_t v = 0;
   cr_assert_eq(isa_variant_set(u, obj, "mov_imm16"), ISA_OK);
   cr_assert_eq(isa_field_get(u, obj, "fixed_0", &v), ISA_OK);
   cr_assert_eq(v, 0x62);
   cr_assert_eq(isa_field_set(u, obj, "fixed_0", 0x62), ISA_OK);
   cr_assert_eq(isa_field_set(u, obj, "fixed_0", 0x63), ISA_ERR_INCONSISTENT);
   cr_assert_eq(isa_field_set(u, obj, "fixed_0.x", 0), ISA_ERR_ARG);
   free(obj);
}

Test(agx_fixed, values_too_wide_for_their_field_are_refused)
{
   uint8_t b[16];
   size_t bits;
   struct isa_error err;
   /* wider than the field's bits: the encoder says which field */
   cr_assert_eq(build(AGX, b, sizeof b, &bits, &err, "mov_imm16", "Dt", 4LL, NULL), ISA_ERR_RANGE);
   cr_assert_str_eq(err.field, "Dt");
   /* wider than its C member: refused when set, not cut short */
   cr_assert_eq(build(AGX, b, sizeof b, &bits, &err, "mov_imm16", "D", 256LL, NULL), ISA_ERR_RANGE);
   cr_assert_eq(build(AGX, b, sizeof b, &bits, &err, "mov_imm16", "imm16", 65536LL, NULL), ISA_ERR_RANGE);
   cr_assert_eq(build(AGX, b, 4, &bits, &err, "mov_imm16", "D", 200LL, NULL), ISA_ERR_NOSPACE,
                "the long form does not fit 4 bytes");
}

Test(agx_order, shadowed_encodings_decode_as_what_shadows_them)
{
   /* agx.md 3.3: stack_load (and stack_store) come first in applegpu's list
    * and match every stack_get_ptr (TODO.stack_adjust) encoding */
   const struct isa_spec *spec = isa_spec_find(AGX);
   const struct isa_type_desc *u = spec->unit;
   void *obj = calloc(1, u->c_size);
   uint8_t b[8], again[8];
   size_t size, bits;
   unsigned alt = 0;
   struct isa_error err;
   struct isa_out o;
   struct isa_ctx ctx = {0};
   char text[256];
   hex_bytes("356b010440a0ae00", b, sizeof b); /* agx.jsonl: stack_get_ptr, first_match stack_load */
   cr_assert_str_eq(decoded_as(b, 8, &size), "stack_load");
   for (unsigned i = 0; i < u->n_variants; i++)
      if (!strcmp(u->variants[i].name, "stack_get_ptr"))
         alt = i + 1;
   cr_assert(alt);
   cr_assert_eq(u->decode_as(b, 8, 0, obj, alt, &size, &err), ISA_OK);
   cr_assert_eq(size, 64u);
   isa_out_buffer(&o, text, sizeof text);
   u->print(obj, &o, &ctx);
   cr_assert_str_eq(text, "stack_get_ptr    3, 1, 4, 43, 2, r13");
   /* and it encodes, though its bits will decode as stack_load again */
   cr_assert_eq(u->encode(obj, again, sizeof again, 0, &bits, &err), ISA_OK);
   cr_assert_arr_eq(again, b, 8);
   free(obj);

   hex_bytes("b50131054030", b, sizeof b); /* TODO.stack_adjust, first_match stack_store */
   cr_assert_str_eq(decoded_as(b, 6, &size), "stack_store");
}

Test(agx_aliases, if_fcmp_with_eq_and_zeros_is_update_or_push_exec)
{
   /* agx.md 5: if_fcmp prints update_exec (n = 0) or push_exec when cc is eq
    * and both sources are the immediate 0.0 */
   uint8_t b[16];
   size_t bits;
   struct isa_error err;
   cr_assert_eq(build(AGX, b, sizeof b, &bits, &err, "if_fcmp", NULL), ISA_OK);
   cr_assert_str_eq(text_of(AGX, b, bits / 8), "update_exec      r0l");
   cr_assert_eq(build(AGX, b, sizeof b, &bits, &err, "if_fcmp", "n", 2LL, "Dt", 1LL, NULL), ISA_OK);
   cr_assert_str_eq(text_of(AGX, b, bits / 8), "push_exec        r0l.cache, 2");
   cr_assert_eq(build(AGX, b, sizeof b, &bits, &err, "if_fcmp", "cc", 1LL, NULL), ISA_OK);
   cr_assert_str_eq(text_of(AGX, b, bits / 8), "if_fcmp          r0l, lt, 0.0, 0.0, 0");
   cr_assert_eq(build(AGX, b, sizeof b, &bits, &err, "if_fcmp", "A", 0x80LL, NULL), ISA_OK);
   cr_assert_str_eq(text_of(AGX, b, bits / 8), "if_fcmp          r0l, eq, -0.0, 0.0, 0", "-0.0 is not 0.0");
}

Test(agx_bad_input, truncated_and_garbage_bytes)
{
   const struct isa_spec *spec = isa_spec_find(AGX);
   void *obj = calloc(1, spec->unit->c_size);
   uint8_t b[16];
   size_t size;
   char text[256];
   struct isa_error err;
   /* a long fadd32 (L set) cut to its short length */
   hex_bytes("2aad0330c114", b, sizeof b);
   cr_assert_eq(isa_decode_unit(spec, b, 4, 0, obj, &size, &err), ISA_ERR_TRUNCATED);
   cr_assert_eq(isa_decode_unit(spec, b, 1, 0, obj, &size, &err), ISA_ERR_TRUNCATED);
   /* nothing matches at offset 0xe of agx.jsonl's first stream */
   hex_bytes("ae508a9db60a03148acac504", b, sizeof b);
   cr_assert_eq(isa_decode_unit(spec, b, 12, 0, obj, &size, &err), ISA_ERR_NO_MATCH);
   /* a listing says so and goes on 2 bytes later (README-agx.md, rule 4) */
   hex_bytes("ae508a9db60a0314", b, sizeof b);
   cr_assert_eq(dis(AGX, b, 8, 1, text, sizeof text), 0);
   cr_assert_str_eq(text, "0: <disassembly failed>\n2: rint             r39.cache, r59.cache.neg\n");
   /* and a last instruction past the end reads zeros (rule 6): agx.jsonl's
    * 62023d13 with L set, whose 2-byte tail would be zero */
   hex_bytes("62823d13", b, sizeof b);
   cr_assert_eq(isa_decode_unit(spec, b, 4, 0, obj, &size, &err), ISA_ERR_TRUNCATED);
   cr_assert_eq(dis(AGX, b, 4, 1, text, sizeof text), 0);
   cr_assert_str_eq(text, "0: mov_imm          r0h, 4925\n");
   /* zero words where 32 zero bits start are skipped without a line (rule 2) */
   hex_bytes("000000000000380188000000", b, sizeof b);
   cr_assert_eq(dis(AGX, b, 12, 1, text, sizeof text), 0);
   cr_assert_str_eq(text, "6: wait             1\n8: stop             \n");
   free(obj);
}

Test(agx_check, undefined_operands_are_reported)
{
   uint8_t b[16];
   size_t bits;
   struct isa_error err;
   struct finds f;
   /* agx.jsonl: texture_sample whose U applegpu prints as None (Tt bit 1 clear) */
   hex_bytes("31c1cc125db165fb6b44ba49", b, sizeof b);
   f = check(AGX, b, 12);
   cr_assert_eq(f.errors, 1u, "%s", f.text);
   cr_assert(strstr(f.text, "operand U is undefined"), "%s", f.text);
   /* and the same with a bindless texture is fine */
   hex_bytes("31e03c929438649a8b138232", b, sizeof b);
   f = check(AGX, b, 12);
   cr_assert_eq(f.n, 0u, "%s", f.text);
   /* agx.md 2.16: a register source with hint 00 (t = 1000) */
   cr_assert_eq(build(AGX, b, sizeof b, &bits, &err, "fadd32", "Dt", 2LL, "At", 8LL, "A", 4LL, NULL), ISA_OK);
   f = check(AGX, b, bits / 8);
   cr_assert_eq(f.errors, 1u, "%s", f.text);
   cr_assert(strstr(f.text, "source type 1000"), "%s", f.text);
}

/* One instruction built by name, printed, and checked: its text, and the
 * one finding `isa check` gives (NULL: none). */
static void built_prints_and_reports(const char *text, const char *finding, const char *alt, ...)
{
   const struct isa_spec *spec = isa_spec_find(AGX);
   void *obj = calloc(1, spec->unit->c_size);
   uint8_t b[16];
   size_t bits = 0;
   struct isa_error err;
   struct finds f;
   const char *name;
   va_list ap;
   cr_assert_eq(isa_variant_set(spec->unit, obj, alt), ISA_OK);
   va_start(ap, alt);
   while ((name = va_arg(ap, const char *)))
      cr_assert_eq(isa_field_set(spec->unit, obj, name, va_arg(ap, long long)), ISA_OK, "%s.%s", alt, name);
   va_end(ap);
   cr_assert_eq(spec->unit->encode(obj, b, sizeof b, 0, &bits, &err), ISA_OK);
   cr_assert_str_eq(text_of(AGX, b, bits / 8), text);
   f = check(AGX, b, bits / 8);
   if (!finding) {
      cr_assert_eq(f.n, 0u, "%s: %s", text, f.text);
   } else {
      cr_assert_eq(f.errors, 1u, "%s: %s", text, f.text);
      cr_assert(strstr(f.text, finding), "%s: %s", text, f.text);
   }
   free(obj);
}

Test(agx_check, the_seeds_undefined_cases)
{
   /* agx.md 2.5: ALUSrc.  Texts as applegpu prints the bits (an odd 32-bit
    * register loses bit 0); each UNDEFINED() of the seed's pseudocode is an
    * error of isa check. */
   built_prints_and_reports("fadd32           r1, r2.cache, 0.0", NULL, "fadd32", "Dt", 2LL, "D", 2LL, "At", 10LL,
                            "A", 4LL, NULL);
   built_prints_and_reports("fadd32           r1, r2.cache, 0.0", "a 32-bit register must be even, not 5", "fadd32",
                            "Dt", 2LL, "D", 2LL, "At", 10LL, "A", 5LL, NULL);
   built_prints_and_reports("fadd32           r1, r2.discard, 0.0",
                            "register type 1111 is 64-bit, the source takes at most 32 bits", "fadd32", "Dt", 2LL,
                            "D", 2LL, "At", 15LL, "A", 4LL, NULL);
   /* a 64-bit source: an odd pair (applegpu asserts) */
   built_prints_and_reports("iadd             r1, r2_r3.cache, 0", NULL, "iadd", "Dt", 2LL, "D", 2LL, "At", 14LL, "A",
                            4LL, NULL);
   built_prints_and_reports("iadd             r1, r2_r3.cache, 0", "a 64-bit register must be even, not 5", "iadd",
                            "Dt", 2LL, "D", 2LL, "At", 14LL, "A", 5LL, NULL);
   /* agx.md 2.6: FloatSrc16's 3-bit type 11b is a 32-bit uniform */
   built_prints_and_reports("fadd16           r0h, u3, 0.0", "a 32-bit uniform (type 0110) on a 16-bit source", "fadd16",
                            "D", 1LL, "At", 6LL, "A", 6LL, NULL);
   /* agx.md 2.7: compare-select sources follow the destination's size */
   built_prints_and_reports("icmpsel          ueq, r1, 0, 0, r3.cache, 0", "a 32-bit register must be even, not 7",
                            "icmpsel", "Dt", 2LL, "D", 2LL, "Xt", 2LL, "X", 7LL, "Yt", 4LL, NULL);
   /* the seed's bitop: tt0 == tt1, tt2 == tt3, tt0 != tt2 */
   built_prints_and_reports("bitop_mov_a      1100, r1, 0, 0", "truth table 1100 is undefined", "bitop", "Dt", 2LL, "D",
                            2LL, "tt0", 1LL, "tt1", 1LL, NULL);
}

Test(agx_length, forced_long_forms_are_always_long)
{
   /* agx.md 1: ceil's fixed bits 33:32 lie past the short form, so the
    * encoder writes the long form even when asked for the short one */
   uint8_t b[16];
   size_t bits, size;
   struct isa_error err;
   cr_assert_eq(build(AGX, b, sizeof b, &bits, &err, "ceil", "L", 0LL, "Dt", 2LL, "D", 2LL, "At", 10LL, "A", 4LL, NULL),
                ISA_OK);
   cr_assert_eq(bits, 48u);
   cr_assert_str_eq(decoded_as(b, 6, &size), "ceil");
}

Test(agx_versions, both_revisions_are_compiled_in)
{
   /* README-agx.md: the seed-era applegpu called mov_imm "mov" */
   const struct isa_spec *head = isa_spec_find(AGX), *old = isa_spec_find("agx-g13@2021");
   uint8_t b[8];
   cr_assert(head && old);
   cr_assert_str_eq(head->version, "4c5bae6");
   cr_assert_str_eq(old->version, "2021");
   hex_bytes("62023d13", b, sizeof b);
   cr_assert_str_eq(text_of(AGX, b, 4), "mov_imm          r0h, 4925");
   cr_assert_str_eq(text_of("agx-g13@2021", b, 4), "mov              r0h, 4925");
}

/* After the stop that ends a program, Mesa's compiler writes eight traps
 * (agx_compile.c; every real-agx.jsonl program has them): the program
 * encoder writes them too (the stream's after-stop), and after nothing
 * else.  The bytes: stop 0x0088 and trap 0x0008 (agx.md), little-endian. */
Test(agx_program, eight_traps_follow_the_stop_that_ends_a_program)
{
   const struct isa_spec *spec = isa_spec_find(AGX);
   void *units = calloc(2, spec->unit->c_size);
   uint8_t in[8], out[64], want[64];
   size_t size = 0, got = 0;
   struct isa_error err;
   /* mov_imm r0h, 4925 (agx.jsonl), then stop */
   size_t n = hex_bytes("62023d138800", in, sizeof in);
   cr_assert_eq(isa_decode_unit(spec, in, n, 0, units, &got, &err), ISA_OK);
   cr_assert_eq(isa_decode_unit(spec, in, n, 4, (char *)units + spec->unit->c_size, &got, &err), ISA_OK);
   cr_assert_eq(isa_encode_program(spec, units, 2, out, sizeof out, &size, &err), ISA_OK);
   cr_assert_eq(size, hex_bytes("62023d13880008000800080008000800080008000800", want, sizeof want));
   cr_assert_arr_eq(out, want, size);
   /* a program that does not end with stop gets nothing after it */
   cr_assert_eq(isa_encode_program(spec, units, 1, out, sizeof out, &size, &err), ISA_OK);
   cr_assert_eq(size, 4u);
   /* the traps need room: the code alone fits, with them it does not */
   cr_assert_eq(isa_encode_program(spec, units, 2, out, 10, &size, &err), ISA_ERR_NOSPACE);
   /* isa_end_program alone, after units encoded by hand: once, at the end */
   memcpy(out, in, n);
   size = n;
   cr_assert_eq(isa_end_program(spec, NULL, out, sizeof out, &size, &err), ISA_OK);
   cr_assert_eq(size, 22u);
   cr_assert_arr_eq(out, want, size);
   /* (again: the program now ends with traps, after its stop) */
   cr_assert_eq(isa_end_program(spec, NULL, out, sizeof out, &size, &err), ISA_OK);
   cr_assert_eq(size, 22u);
   free(units);
}
