/* The XML features no shipped spec uses yet, through the toy specs in
 * tests/specs/.  Expected bytes are worked out by hand from each toy's
 * layout (comments show the arithmetic), not copied from our output. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "toy_bundle.h"
#include "toy_tokens.h"
#include "toy_varlen.h"

static const char *print_unit(const struct isa_type_desc *t, const void *v, char *buf, size_t n)
{
   struct isa_out o;
   struct isa_ctx ctx = {0};
   isa_out_buffer(&o, buf, n);
   t->print(v, &o, &ctx);
   return buf;
}

static struct finds check_unit(const struct isa_type_desc *t, const void *v)
{
   struct finds s;
   struct isa_findings f;
   struct isa_ctx ctx = {0};
   memset(&s, 0, sizeof s);
   memset(&f, 0, sizeof f);
   f.emit = collect;
   f.user = &s;
   t->validate(v, &f, &ctx, NULL);
   return s;
}

/* ---- toy-bundle: presence bits, bit packing, derived count ---------- */

Test(toy_bundle, packing_computes_the_control_word)
{
   struct toy_bundle_Bundle b, d;
   uint8_t out[64];
   size_t size = 0;
   struct isa_error err;
   char text[200];
   memset(&b, 0, sizeof b);
   b.ctrl.stop = true;
   b.ctrl.count = 31;  /* wrong on purpose: encode derives it */
   b.ctrl.units = 0x6; /* wrong on purpose: encode derives it from has_* */
   b.has_alu0 = true;
   b.alu0.op = TOY_BUNDLE_OP_ADD;
   b.alu0.dest = 1;
   b.alu0.src = 2;
   b.has_k = true;
   b.k.value = 0x3c00;
   cr_assert_eq(toy_bundle_Bundle_pack_checked(&b, out, sizeof out, &size, &err), ISA_OK, "%s",
                isa_strerror(err.status));
   /* ctrl: count 2 (32 + 13 + 16 bits -> 2 words), stop 1<<5, units 0b1001<<6:
    *   2 + 32 + 576 = 0x262
    * alu0 at bit 32: op 1, dest 1<<3, src 2<<7 = 0x109
    * k at bit 45: 0x3c00 << 13 = 0x07800000 within word 1 */
   const uint8_t want[8] = {0x62, 0x02, 0x00, 0x00, 0x09, 0x01, 0x80, 0x07};
   cr_assert_eq(size, 8u);
   cr_assert_arr_eq(out, want, 8);
   cr_assert_eq(toy_bundle_Bundle_unpack(out, size, &d, &err), ISA_OK);
   cr_assert(d.has_alu0 && !d.has_alu1 && !d.has_load && d.has_k);
   cr_assert_eq(d.ctrl.count, 2);
   cr_assert_str_eq(print_unit(&toy_bundle_Bundle_desc, &d, text, sizeof text), "add r1, r2; const 1.000000; stop");
   /* a signed fixed-point field: -1.5 is -24 sixteenths, 7 bits at 10..16 */
   b.ctrl.bias = -24;
   cr_assert_eq(toy_bundle_Bundle_pack_checked(&b, out, sizeof out, &size, &err), ISA_OK);
   cr_assert_eq(isa_load_le32(out), 0x262u | (uint32_t)(-24 & 0x7f) << 10);
   cr_assert_eq(toy_bundle_Bundle_unpack(out, size, &d, &err), ISA_OK);
   cr_assert_eq(d.ctrl.bias, -24);
   cr_assert_str_eq(print_unit(&toy_bundle_Bundle_desc, &d, text, sizeof text),
                    "add r1, r2; const 1.000000; bias -1.5; stop");
   b.ctrl.bias = 64; /* 4.0 does not fit 7 signed bits of sixteenths */
   cr_assert_eq(toy_bundle_Bundle_pack_checked(&b, out, sizeof out, &size, &err), ISA_ERR_RANGE);
   cr_assert_str_eq(err.field, "bias");
}

Test(toy_bundle, an_unsigned_fixed_point_field_with_a_default)
{
   struct toy_bundle_Control c;
   uint8_t out[4];
   struct isa_error err;
   toy_bundle_Control_init(&c);
   cr_assert_eq(c.scale, 4, "default=\"4\": 1.0 in quarters");
   cr_assert_eq(check_unit(&toy_bundle_Control_desc, &c).n, 0u);
   c.scale = 10; /* 2.5 */
   cr_assert_eq(toy_bundle_Control_pack_checked(&c, out, sizeof out, NULL, &err), ISA_OK);
   cr_assert_eq(isa_load_le32(out) >> 17 & 0xf, 10u);
   cr_assert_str_eq(check_unit(&toy_bundle_Control_desc, &c).text, "info scale-large scale: scale 2.5 is above 2.0\n");
   c.scale = 16; /* 4.0 does not fit 4 bits of quarters */
   cr_assert_eq(toy_bundle_Control_pack_checked(&c, out, sizeof out, NULL, &err), ISA_ERR_RANGE);
}

Test(toy_bundle, a_count_that_disagrees_with_the_units_is_an_error)
{
   struct toy_bundle_Bundle d;
   struct isa_error err;
   /* count 1 word, but alu0 is enabled: the content needs 2 */
   const uint8_t small[8] = {0x61, 0x00, 0x00, 0x00, 0x09, 0x01, 0x00, 0x00};
   cr_assert_eq(toy_bundle_Bundle_unpack(small, sizeof small, &d, &err), ISA_ERR_SIZE);
   /* count 5 words, only 2 present */
   const uint8_t big[8] = {0x65, 0x00, 0x00, 0x00, 0x09, 0x01, 0x00, 0x00};
   cr_assert_eq(toy_bundle_Bundle_unpack(big, sizeof big, &d, &err), ISA_ERR_TRUNCATED);
   cr_assert_eq(err.need, 160u);
   /* units say alu0 + alu1 + load + k but the input stops after word 1 */
   const uint8_t cut[4] = {0xc2, 0x03, 0x00, 0x00};
   cr_assert_eq(toy_bundle_Bundle_unpack(cut, sizeof cut, &d, &err), ISA_ERR_TRUNCATED);
}

Test(toy_bundle, variants_and_priorities)
{
   struct toy_bundle_Load l;
   struct isa_error err;
   char text[100];
   uint8_t b[3];
   /* mode 3, dest 2, bits 6..9 = 15, rest 0 -> special (priority 1 over reg) */
   uint32_t w = 3 | 2 << 2 | 15 << 6;
   b[0] = (uint8_t)w, b[1] = (uint8_t)(w >> 8), b[2] = (uint8_t)(w >> 16);
   cr_assert_eq(toy_bundle_Load_unpack(b, 3, &l, &err), ISA_OK);
   cr_assert_eq(l.variant, TOY_BUNDLE_LOAD_SPECIAL);
   cr_assert_str_eq(print_unit(&toy_bundle_Load_desc, &l, text, sizeof text), "load r2, special");
   /* the same with offset 1 is no longer special: reg */
   w |= 1 << 10;
   b[0] = (uint8_t)w, b[1] = (uint8_t)(w >> 8), b[2] = (uint8_t)(w >> 16);
   cr_assert_eq(toy_bundle_Load_unpack(b, 3, &l, &err), ISA_OK);
   cr_assert_eq(l.variant, TOY_BUNDLE_LOAD_REG);
   cr_assert_str_eq(print_unit(&toy_bundle_Load_desc, &l, text, sizeof text), "load r2, [r15+1]");
   struct finds f = check_unit(&toy_bundle_Load_desc, &l);
   cr_assert(strstr(f.text, "warning expect reg.offset: value 0x1, expected 0x0"), "%s", f.text);
   /* mode 0: imm with a signed 15-bit index (-1) */
   w = 0 | 4 << 2 | 0x7fffu << 6;
   b[0] = (uint8_t)w, b[1] = (uint8_t)(w >> 8), b[2] = (uint8_t)(w >> 16);
   cr_assert_eq(toy_bundle_Load_unpack(b, 3, &l, &err), ISA_OK);
   cr_assert_eq(l.u.imm.index, -1);
   cr_assert_str_eq(print_unit(&toy_bundle_Load_desc, &l, text, sizeof text), "load r4, [-1]");
   /* mode 1 matches no variant */
   b[0] = 1, b[1] = 0, b[2] = 0;
   cr_assert_eq(toy_bundle_Load_unpack(b, 3, &l, &err), ISA_ERR_NO_MATCH);
}

Test(toy_bundle, validators)
{
   struct toy_bundle_Bundle b;
   struct isa_error err;
   const uint8_t empty[4] = {0x21, 0x00, 0x00, 0x00}; /* count 1, stop, no units */
   cr_assert_eq(toy_bundle_Bundle_unpack(empty, 4, &b, &err), ISA_OK);
   struct finds f = check_unit(&toy_bundle_Bundle_desc, &b);
   cr_assert_str_eq(f.text, "warning not-empty ctrl.units: bundle with no units\n");
   /* alu0 with its must-be-zero pad bit (bit 12 of the unit = bit 44) set */
   const uint8_t pad[8] = {0x62, 0x00, 0x00, 0x00, 0x09, 0x11, 0x00, 0x00};
   cr_assert_eq(toy_bundle_Bundle_unpack(pad, 8, &b, &err), ISA_OK);
   f = check_unit(&toy_bundle_Bundle_desc, &b);
   cr_assert(strstr(f.text, "error mbz alu0.pad: must-be-zero bits are set (0x1)"), "%s", f.text);
}

Test(toy_bundle, programs_follow_the_count_chain_and_stop)
{
   /* two one-word bundles (units 0) and a third after the stop */
   const uint8_t prog[12] = {0x01, 0, 0, 0, 0x21, 0, 0, 0, 0x01, 0, 0, 0};
   struct toy_bundle_Bundle b;
   unsigned n = 0;
   struct isa_error err;
   char text[64];
   struct isa_out o;
   struct isa_cursor cur;
   struct isa_ctx ctx;
   int r;
   isa_cursor_init(&cur, &toy_bundle_spec, prog, sizeof prog);
   while ((r = isa_cursor_next(&cur, &b, &ctx, &err)) > 0) {
      cr_assert_eq(ctx.offset, 4u * n);
      cr_assert_eq(ctx.size, 32u);
      n++;
   }
   cr_assert_eq(r, 0);
   cr_assert_eq(n, 2u, "the stop bit of the second bundle ends the program");
   cr_assert_eq(cur.offset, 8u);
   cr_assert(ctx.last, "the stop bundle is the last");
   isa_cursor_fini(&cur);
   /* a truncated third bundle: the cursor reports it where it starts */
   const uint8_t cut[6] = {0x01, 0, 0, 0, 0x02, 0};
   isa_cursor_init(&cur, &toy_bundle_spec, cut, sizeof cut);
   cr_assert_eq(isa_cursor_next(&cur, &b, &ctx, &err), 1);
   cr_assert_eq(isa_cursor_next(&cur, &b, &ctx, &err), ISA_ERR_TRUNCATED);
   cr_assert_eq(cur.offset, 4u);
   cr_assert_eq(isa_cursor_next(&cur, &b, &ctx, &err), 0, "nothing after an error");
   isa_cursor_fini(&cur);
   ctx.offset = 8, ctx.index = 2, ctx.size = 32;
   isa_out_buffer(&o, text, sizeof text);
   toy_bundle_spec.prefix(&o, &ctx);
   isa_out_flush(&o);
   cr_assert_str_eq(text, "@     2: ");
}

/* ---- toy-varlen: choices, lengths, split fields, operands ---------- */

Test(toy_varlen, lengths_and_split_fields)
{
   struct toy_varlen_Instr i, d;
   uint8_t out[16];
   size_t size;
   struct isa_error err;
   char text[100];
   memset(&i, 0, sizeof i);
   i.variant = TOY_VARLEN_INSTR_MOV;
   i.u.Mov.D = 5;
   i.u.Mov.imm = 0x1234;
   cr_assert_eq(toy_varlen_Instr_pack_checked(&i, out, sizeof out, &size, &err), ISA_OK);
   /* 0x62 | 5<<7 | imm bits 0..1 (0) <<13 | imm bits 2.. (0x48d) <<16 */
   cr_assert_eq(size, 4u);
   cr_assert_eq(isa_load_le32(out), 0x62u | 5u << 7 | 0x48du << 16);
   cr_assert_eq(toy_varlen_Instr_unpack(out, size, &d, &err), ISA_OK);
   cr_assert_str_eq(print_unit(&toy_varlen_Instr_desc, &d, text, sizeof text), "mov r5, #4660");
   /* D needs the long form's bits 40..41 */
   i.u.Mov.D = 0x85;
   cr_assert_eq(toy_varlen_Instr_pack_checked(&i, out, sizeof out, &size, &err), ISA_ERR_INCONSISTENT);
   i.u.Mov.L = true;
   cr_assert_eq(toy_varlen_Instr_pack_checked(&i, out, sizeof out, &size, &err), ISA_OK);
   cr_assert_eq(size, 6u);
   cr_assert_eq(out[5], 0x02, "D bits 6..7 (0b10) at bits 40..41");
   cr_assert_eq(toy_varlen_Instr_unpack(out, 6, &d, &err), ISA_OK);
   cr_assert_eq(d.u.Mov.D, 0x85);
   /* the long form cut short */
   cr_assert_eq(toy_varlen_Instr_unpack(out, 5, &d, &err), ISA_ERR_TRUNCATED);
   cr_assert_eq(err.need, 48u);
}

Test(toy_varlen, operands_and_priorities)
{
   struct toy_varlen_Instr d;
   struct isa_error err;
   char text[100];
   uint8_t b[4];
   /* add: 0x0e, D=1, A=5 At=1 (register), B=3 Bt=0 (immediate) */
   uint32_t w = 0x0eu | 1u << 7 | 5u << 13 | 1u << 21 | 3u << 23;
   memcpy(b, (uint8_t[4]){(uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24)}, 4);
   cr_assert_eq(toy_varlen_Instr_unpack(b, 4, &d, &err), ISA_OK);
   cr_assert_eq(d.variant, TOY_VARLEN_INSTR_ADD);
   cr_assert_str_eq(print_unit(&toy_varlen_Instr_desc, &d, text, sizeof text), "add r1, r5, #3");
   cr_assert_eq(check_unit(&toy_varlen_Instr_desc, &d).n, 0u);
   /* At = 2: uniform half; At = 3: undefined, printed and reported */
   d.u.Add.At = 2;
   cr_assert_str_eq(print_unit(&toy_varlen_Instr_desc, &d, text, sizeof text), "add r1, u2h, #3");
   d.u.Add.At = 3;
   cr_assert_str_eq(print_unit(&toy_varlen_Instr_desc, &d, text, sizeof text), "add r1, ?5, #3");
   struct finds f = check_unit(&toy_varlen_Instr_desc, &d);
   cr_assert_str_eq(f.text, "error undefined-operand a: source type 3 is undefined (value 5)\n");
   /* A = 0xff: AddSpecial shadows Add (priority 1) */
   w = 0x0eu | 1u << 7 | 0xffu << 13;
   memcpy(b, (uint8_t[4]){(uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24)}, 4);
   cr_assert_eq(toy_varlen_Instr_unpack(b, 4, &d, &err), ISA_OK);
   cr_assert_eq(d.variant, TOY_VARLEN_INSTR_ADD_SPECIAL);
   cr_assert_str_eq(print_unit(&toy_varlen_Instr_desc, &d, text, sizeof text), "add r1, special");
   /* so an Add with A = 0xff cannot be encoded as an Add */
   memset(&d, 0, sizeof d);
   d.variant = TOY_VARLEN_INSTR_ADD;
   d.u.Add.A = 0xff;
   uint8_t out[8];
   size_t size;
   cr_assert_eq(toy_varlen_Instr_pack_checked(&d, out, sizeof out, &size, &err), ISA_ERR_INCONSISTENT);
   /* garbage opcode */
   const uint8_t junk[4] = {0x7f, 0, 0, 0};
   cr_assert_eq(toy_varlen_Instr_unpack(junk, 4, &d, &err), ISA_ERR_NO_MATCH);
}

Test(toy_varlen, undefined_cases_reached_from_displays_are_reported)
{
   struct toy_varlen_Instr d;
   char text[100];
   struct finds f;
   memset(&d, 0, sizeof d);
   d.variant = TOY_VARLEN_INSTR_SUB;
   d.u.Sub.D = 1;
   d.u.Sub.A = 5;
   d.u.Sub.At = 1;
   d.u.Sub.B = 3;
   cr_assert_str_eq(print_unit(&toy_varlen_Instr_desc, &d, text, sizeof text), "sub r1, #3, -r5");
   cr_assert_eq(check_unit(&toy_varlen_Instr_desc, &d).n, 0u);
   /* Src's undefined case, reached through Neg: named after Neg's first argument */
   d.u.Sub.At = 3;
   cr_assert_str_eq(print_unit(&toy_varlen_Instr_desc, &d, text, sizeof text), "sub r1, #3, -?5");
   f = check_unit(&toy_varlen_Instr_desc, &d);
   cr_assert_str_eq(f.text, "error undefined-operand A: source type 3 is undefined (value 5)\n");
   /* Neg's own rule, with Neg's arguments, where the display prints it */
   d.u.Sub.At = 1;
   d.u.Sub.A = 0;
   f = check_unit(&toy_varlen_Instr_desc, &d);
   cr_assert_str_eq(f.text, "warning negated-zero A: -r0 negates the zero register\n");
   d.u.Sub.A = 5;
   d.u.Sub.At = 3;
   /* the display for D = 63 does not print A: nothing to report */
   d.u.Sub.D = 63;
   cr_assert_str_eq(print_unit(&toy_varlen_Instr_desc, &d, text, sizeof text), "neg #3");
   cr_assert_eq(check_unit(&toy_varlen_Instr_desc, &d).n, 0u);
}

Test(toy_varlen, fallback_variant_and_must_be_one_bits)
{
   struct toy_varlen_Instr d;
   struct isa_error err;
   char text[100];
   uint8_t out[4];
   size_t size;
   const uint8_t discard[2] = {0x01, 0xff}, jump[2] = {0x01, 0x2a};
   cr_assert_eq(toy_varlen_Instr_unpack(discard, 2, &d, &err), ISA_OK);
   cr_assert_eq(d.u.Flow.variant, TOY_VARLEN_FLOW_DISCARD);
   cr_assert_str_eq(print_unit(&toy_varlen_Instr_desc, &d, text, sizeof text), "discard");
   cr_assert_eq(toy_varlen_Instr_unpack(jump, 2, &d, &err), ISA_OK);
   cr_assert_eq(d.u.Flow.variant, TOY_VARLEN_FLOW_JUMP, "whatever discard does not take is a jump");
   cr_assert_str_eq(print_unit(&toy_varlen_Instr_desc, &d, text, sizeof text), "jump 0x2a", "type hex prints hex");
   d.u.Flow.u.jump.target = 0xff; /* that would read back as a discard */
   cr_assert_eq(toy_varlen_Instr_pack_checked(&d, out, sizeof out, &size, &err), ISA_ERR_INCONSISTENT);
   /* nop: bit 8 must be one */
   const uint8_t good[2] = {0x00, 0x01}, bad[2] = {0x00, 0x00};
   cr_assert_eq(toy_varlen_Instr_unpack(good, 2, &d, &err), ISA_OK);
   cr_assert_eq(check_unit(&toy_varlen_Instr_desc, &d).n, 0u);
   cr_assert_eq(toy_varlen_Instr_unpack(bad, 2, &d, &err), ISA_OK);
   cr_assert_str_eq(check_unit(&toy_varlen_Instr_desc, &d).text,
                    "error mbo one: must-be-one bits are clear (0x0, expected 0x1)\n");
}

/* ---- toy-tokens: follow-up tokens, counts, nested sequences --------- */

Test(toy_tokens, encoding_fills_in_counts_and_flags)
{
   struct toy_tokens_Item it, d;
   struct toy_tokens_Instruction *in = &it.u.Instruction;
   uint8_t out[64];
   size_t size;
   struct isa_error err;
   char text[200];
   memset(&it, 0, sizeof it);
   it.variant = TOY_TOKENS_ITEM_INSTRUCTION;
   in->insn.Opcode = 7;
   in->has_label = true;
   in->label.Label = 42;
   in->n_dst = 1;
   in->dst[0].reg.File = TOY_TOKENS_FILE_TEMP;
   in->n_src = 2;
   in->src[0].reg.File = TOY_TOKENS_FILE_CONST;
   in->src[0].reg.Index = 3;
   in->src[1].reg.File = TOY_TOKENS_FILE_TEMP;
   in->src[1].reg.Index = -2;
   in->src[1].has_ind = true;
   in->src[1].ind.File = TOY_TOKENS_FILE_TEMP;
   in->src[1].ind.Index = 1;
   cr_assert_eq(toy_tokens_Item_pack_checked(&it, out, sizeof out, &size, &err), ISA_OK, "%s %s",
                isa_strerror(err.status), err.detail ? err.detail : "");
   /* insn: Type 2 | NrTokens 5<<4 | Opcode 7<<12 | NumDst 1<<20 | NumSrc 2<<22 | Label 1<<26 */
   const uint32_t want[6] = {0x04907052u, 42u, 0x00000001u, 0x00000062u, 0x001fffd1u, 0x00000011u};
   cr_assert_eq(size, 24u);
   for (unsigned k = 0; k < 6; k++)
      cr_assert_eq(isa_load_le32(out + 4 * k), want[k], "token %u: %08x", k, isa_load_le32(out + 4 * k));
   cr_assert_eq(toy_tokens_Item_unpack(out, size, &d, &err), ISA_OK);
   cr_assert_str_eq(print_unit(&toy_tokens_Item_desc, &d, text, sizeof text),
                    "OP7 TEMP[0], CONST[3], TEMP[TEMP[1]+-2] :42");
}

Test(toy_tokens, programs_and_errors)
{
   /* DCL CONST[0..7] then OP1 with no operands: decl = NrTokens 2<<4 | File 2<<12 */
   const uint32_t toks[3] = {0x00002020u, 0x00070000u, 0x00001002u};
   uint8_t prog[12];
   struct toy_tokens_Item d;
   size_t size;
   struct isa_error err;
   char text[100];
   for (unsigned k = 0; k < 3; k++)
      isa_store_le32(prog + 4 * k, toks[k]);
   cr_assert_eq(isa_decode_unit(&toy_tokens_spec, prog, 12, 0, &d, &size, &err), ISA_OK);
   cr_assert_eq(size, 8u);
   cr_assert_str_eq(print_unit(&toy_tokens_Item_desc, &d, text, sizeof text), "DCL CONST[0..7]");
   cr_assert_eq(isa_decode_unit(&toy_tokens_spec, prog, 12, 8, &d, &size, &err), ISA_OK);
   cr_assert_str_eq(print_unit(&toy_tokens_Item_desc, &d, text, sizeof text), "OP1");
   /* NrTokens 1 says the declaration is shorter than its range token */
   isa_store_le32(prog, 0x00002010u);
   cr_assert_eq(isa_decode_unit(&toy_tokens_spec, prog, 12, 0, &d, &size, &err), ISA_ERR_SIZE);
   /* an instruction announcing one source, cut off before it */
   isa_store_le32(prog, 0x00401012u); /* NrTokens 1, NumSrc 1 */
   cr_assert_eq(isa_decode_unit(&toy_tokens_spec, prog, 4, 0, &d, &size, &err), ISA_ERR_TRUNCATED);
   /* token type 1 is neither alternative */
   isa_store_le32(prog, 0x00000011u);
   cr_assert_eq(isa_decode_unit(&toy_tokens_spec, prog, 12, 0, &d, &size, &err), ISA_ERR_NO_MATCH);
   /* a backwards range is reported */
   isa_store_le32(prog, 0x00002020u);
   isa_store_le32(prog + 4, 0x00010005u);
   cr_assert_eq(isa_decode_unit(&toy_tokens_spec, prog, 12, 0, &d, &size, &err), ISA_OK);
   struct finds f = check_unit(&toy_tokens_Item_desc, &d);
   cr_assert_str_eq(f.text, "error range-order range: range 5..1 runs backwards\n");
}

Test(toy_tokens, reflection_sets_nested_counted_fields)
{
   struct toy_tokens_Item it;
   uint8_t out[64];
   size_t size;
   struct isa_error err;
   int64_t v;
   memset(&it, 0, sizeof it);
   cr_assert_eq(isa_field_set(&toy_tokens_Item_desc, &it, "insn.Opcode", 9), ISA_OK);
   cr_assert_eq(it.variant, TOY_TOKENS_ITEM_INSTRUCTION, "the path picks the alternative");
   cr_assert_eq(isa_field_set(&toy_tokens_Item_desc, &it, "src[1].ind.Index", 4), ISA_OK);
   cr_assert_eq(it.u.Instruction.n_src, 2u);
   cr_assert(it.u.Instruction.src[1].has_ind);
   cr_assert_eq(isa_field_get(&toy_tokens_Item_desc, &it, "src[1].ind.Index", &v), ISA_OK);
   cr_assert_eq(v, 4);
   cr_assert_eq(isa_field_get(&toy_tokens_Item_desc, &it, "src[2].reg.File", &v), ISA_ERR_ARG);
   cr_assert_eq(isa_field_set(&toy_tokens_Item_desc, &it, "nonsense", 1), ISA_ERR_ARG);
   cr_assert_eq(toy_tokens_Item_pack_checked(&it, out, sizeof out, &size, &err), ISA_OK);
   cr_assert_eq(size, 16u, "insn, src0 reg, src1 reg, src1 ind");
}

/* ---- toy-listing: length flags and how a listing walks raw bytes ----- */

#include "toy_listing.h"

extern const struct isa_spec toy_listing_spec;

static int listing(const uint8_t *b, size_t n, int offsets, char *out, size_t cap)
{
   return dis_spec(&toy_listing_spec, NULL, b, n, offsets, out, cap, NULL);
}

Test(toy_listing, zero_padding_failures_stop_and_absolute_targets)
{
   static const uint8_t b[] = {
      0x8a, 0x21, 0x3c, 0x00,             /* 0: floor, short form */
      0x00, 0x00, 0x00, 0x00,             /* 4: padding, skipped */
      0xff, 0xff,                         /* 8: nothing decodes */
      0x0a, 0x84, 0x40, 0x00, 0x01, 0x03, /* a: ceil, long form */
      0x20, 0xf8, 0xff, 0xff,             /* 10: jmp back 8 bytes */
      0x88, 0x00,                         /* 14: stop */
      0x8a, 0x21, 0x3c, 0x00,             /* after stop: not listed */
   };
   char text[512], want[512];
   cr_assert_eq(listing(b, sizeof b, 1, text, sizeof text), 0);
   snprintf(want, sizeof want, "0: %-16s %s\n8: <disassembly failed>\na: %-16s %s\n10: %-16s %s\n14: %-16s \n",
            "floor", "r3, lsl 1, 1.0", "ceil", "r200, 2.0", "jmp", "0x8", "stop");
   cr_assert_str_eq(text, want);
   /* without addresses, the branch is relative */
   cr_assert_eq(listing(b, sizeof b, 0, text, sizeof text), 0);
   cr_assert(strstr(text, "jmp              pc-8\n"), "%s", text);
}

Test(toy_listing, the_last_instruction_may_run_past_the_input)
{
   static const uint8_t b[] = {0x20, 0x10, 0x00, 0x00, 0x8a, 0x21};
   static const uint8_t zeros_at_end[] = {0x20, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
   char text[256], want[256];
   cr_assert_eq(listing(b, sizeof b, 0, text, sizeof text), 0);
   snprintf(want, sizeof want, "%-16s %s\n%-16s %s\n", "jmp", "pc+16", "floor", "r3, lsl 1, 0.0");
   cr_assert_str_eq(text, want);
   cr_assert_eq(listing(zeros_at_end, sizeof zeros_at_end, 0, text, sizeof text), 0);
   snprintf(want, sizeof want, "%-16s %s\n", "jmp", "pc+16");
   cr_assert_str_eq(text, want, "trailing zero words are padding");
}

Test(toy_listing, the_encoder_sets_the_length_flag)
{
   struct toy_listing_Instr i, d;
   uint8_t out[16];
   size_t size = 0;
   struct isa_error err;
   memset(&i, 0, sizeof i);
   i.variant = TOY_LISTING_INSTR_FLOOR;
   i.u.Floor.D = 5;
   i.u.Floor.A = 0x3c;
   cr_assert_eq(toy_listing_Instr_pack_checked(&i, out, sizeof out, &size, &err), ISA_OK);
   cr_assert_eq(size, 4u, "everything fits the short form");
   i.u.Floor.D = 200; /* needs bits 40..41 */
   cr_assert_eq(toy_listing_Instr_pack_checked(&i, out, sizeof out, &size, &err), ISA_OK);
   cr_assert_eq(size, 6u);
   cr_assert_eq(out[1] & 0x80, 0x80, "L is set");
   cr_assert_eq(toy_listing_Instr_unpack(out, size, &d, &err), ISA_OK);
   cr_assert_eq(d.u.Floor.D, 200);
   cr_assert_eq(d.u.Floor.L, 1);
   /* a long form nobody needed stays long when asked for */
   static const uint8_t long_floor[] = {0x8a, 0xa1, 0x3c, 0x00, 0x00, 0x00};
   cr_assert_eq(toy_listing_Instr_unpack(long_floor, sizeof long_floor, &d, &err), ISA_OK);
   cr_assert_eq(d.u.Floor.L, 1);
   cr_assert_eq(toy_listing_Instr_pack_checked(&d, out, sizeof out, &size, &err), ISA_OK);
   cr_assert_eq(size, 6u);
   cr_assert_arr_eq(out, long_floor, 6);
   /* ceil's opcode bits are in the long form: a short ceil reads as floor */
   static const uint8_t short_ceil[] = {0x0a, 0x04, 0x40, 0x00, 0x01, 0x03};
   cr_assert_eq(toy_listing_Instr_unpack(short_ceil, sizeof short_ceil, &d, &err), ISA_OK);
   cr_assert_eq(d.variant, TOY_LISTING_INSTR_FLOOR);
   i.variant = TOY_LISTING_INSTR_CEIL;
   memset(&i.u.Ceil, 0, sizeof i.u.Ceil);
   i.u.Ceil.D = 2;
   cr_assert_eq(toy_listing_Instr_pack_checked(&i, out, sizeof out, &size, &err), ISA_OK);
   cr_assert_eq(size, 6u, "ceil can only be long");
}

/* ---- toy-tagged: options, a stop rule over states, struct operands --- */

#include "toy_tagged.h"

extern const struct isa_spec toy_tagged_spec;

/* The program b printed with option model = `model` (NULL: the default),
 * the way isa dis lists it. */
static int tagged_listing(const uint8_t *b, size_t n, const char *model, char *out, size_t cap)
{
   const struct isa_spec *spec = &toy_tagged_spec;
   int64_t options[1];
   cr_assert_eq(spec->n_options, 1u);
   isa_options_init(spec, options);
   if (model)
      cr_assert_eq(isa_option_set(spec, options, "model", model), ISA_OK);
   return dis_spec(spec, model ? options : NULL, b, n, 0, out, cap, NULL);
}

Test(toy_tagged, options_change_the_text_and_the_end_tag_stops)
{
   static const uint8_t b[] = {
      0x21, 0x53, 0x15,             /* Single, next 2: op3 r21 (0b01_0101), #5 */
      0x12, 0x21, 0x00, 0x00, 0x00, /* Pair, next 1: op1 r2, #0; nop */
      0x02, 0x32, 0x04, 0x04, 0xfc, /* Pair, next 0 (the end): op2 r3, #1; op4 r0, #63 */
      0x01, 0x53, 0x15,             /* after the end: not listed */
   };
   char text[256];
   cr_assert_eq(tagged_listing(b, sizeof b, NULL, text, sizeof text), 0);
   cr_assert_str_eq(text, "op3 r21, #5\nop1 r2, #0\nop2 r3, #1; op4 r0, #63\n");
   cr_assert_eq(tagged_listing(b, sizeof b, "m2", text, sizeof text), 0);
   cr_assert_str_eq(text, "op3 r1.5, #5\nop1 r0.2, #0\nop2 r0.3, #1; op4 r0.0, #63\n",
                    "m2 prints registers banked (r21 is bank 1, index 5)");
   int64_t options[1];
   isa_options_init(&toy_tagged_spec, options);
   cr_assert_eq(options[0], TOY_TAGGED_MODEL_M1, "the default");
   cr_assert_eq(isa_option_set(&toy_tagged_spec, options, "model", "m3"), ISA_ERR_ARG);
   cr_assert_eq(isa_option_set(&toy_tagged_spec, options, "gpu", "m1"), ISA_ERR_ARG);
}

Test(toy_tagged, the_stop_rule_reads_the_state_before_the_unit)
{
   /* five Singles that all say another follows: $n counts units before
    * this one, so stop ($n == 3) ends the program after the fourth */
   static const uint8_t b[] = {0x11, 0x01, 0x00, 0x11, 0x02, 0x00, 0x11, 0x03, 0x00,
                               0x11, 0x04, 0x00, 0x11, 0x05, 0x00};
   char text[256];
   cr_assert_eq(tagged_listing(b, sizeof b, NULL, text, sizeof text), 0);
   cr_assert_str_eq(text, "op1 r0, #0\nop2 r0, #0\nop3 r0, #0\nop4 r0, #0\n");
}

Test(toy_tagged, array_states_change_only_where_their_sets_write)
{
   /* $seen[r]: the unit that last wrote register r (0..3), 9 before any */
   static const uint8_t b[] = {
      0x11, 0x21, 0x00,             /* 0: Single op1 r2 */
      0x12, 0x11, 0x00, 0x11, 0x00, /* 1: Pair op1 r1; op1 r1: the later set (b) wins */
      0x12, 0x31, 0x00, 0x81, 0x02, /* 2: Pair op1 r3; op1 r40: out of range, writes nothing */
      0x11, 0x51, 0x00,             /* 3: Single op1 r5: nothing; the fourth unit ends it */
   };
   static const int64_t before[4][4] = {{9, 9, 9, 9}, {9, 9, 0, 9}, {9, 101, 0, 9}, {9, 101, 0, 2}};
   const struct isa_spec *spec = &toy_tagged_spec;
   const struct isa_state_decl *seen = NULL;
   struct toy_tagged_Unit obj;
   struct isa_cursor cur;
   struct isa_ctx ctx;
   struct isa_error err;
   unsigned u = 0;
   for (unsigned d = 0; d < spec->n_state_decls; d++)
      if (!strcmp(spec->state_decls[d].name, "seen"))
         seen = &spec->state_decls[d];
   cr_assert(seen && seen->count == 4 && seen->init == 9);
   cr_assert_eq(isa_cursor_init(&cur, spec, b, sizeof b), ISA_OK);
   while (isa_cursor_next(&cur, &obj, &ctx, &err) > 0) {
      cr_assert_lt(u, 4u);
      for (unsigned r = 0; r < 4; r++) {
         int64_t got = isa_ctx_state_at(&ctx, seen->index, seen->count, r, seen->init);
         cr_assert_eq(got, before[u][r], "unit %u: $seen[%u] = %lld, expected %lld", u, r, (long long)got,
                      (long long)before[u][r]);
      }
      u++;
   }
   isa_cursor_fini(&cur);
   cr_assert_eq(u, 4u);
}

/* ---- toy-grown: an array state without a count --------------------- */

#include "toy_grown.h"

extern const struct isa_spec toy_grown_spec;

static void put_word(uint8_t *b, uint32_t w)
{
   for (int i = 0; i < 4; i++)
      b[i] = (uint8_t)(w >> (8 * i));
}

/* A program of 200,000 units (800 KB): element 150,000 is remembered from
 * the first unit to the last, a slot past the program's size is not
 * written (it reads as its init), and a slot never written reads as init.
 * Element 3, written first, is kept when the array outgrows the elements
 * the cursor holds in its own block (64) and moves to the heap (element
 * 100), and element 100 when it grows again there (element 150,000).
 * Each show also prints a second such array (twice the value) and an
 * array of 300 (the value plus one; its init, -3, past 300). */
Test(toy_grown, an_array_without_a_count_grows_with_the_program)
{
   const size_t units = 200000;
   uint8_t *b = (uint8_t *)calloc(units, 4);
   char *text = (char *)malloc(units * 8);
   cr_assert(b && text);
   put_word(b, 1u | 5u << 4 | 3u << 12);                   /* mark 3 = 5 */
   put_word(b + 4, 1u | 6u << 4 | 100u << 12);             /* mark 100 = 6 */
   put_word(b + 8, 1u | 7u << 4 | 150000u << 12);          /* mark 150000 = 7 */
   put_word(b + 12, 1u | 9u << 4 | 0xfffffu << 12);        /* mark 1048575 = 9: past the program's 800 KB */
   put_word(b + 4 * (units - 5), 2u | 3u << 12);           /* show 3 */
   put_word(b + 4 * (units - 4), 2u | 100u << 12);         /* show 100 */
   put_word(b + 4 * (units - 3), 2u | 150000u << 12);      /* show 150000 */
   put_word(b + 4 * (units - 2), 2u | 0xfffffu << 12);     /* show 1048575 */
   put_word(b + 4 * (units - 1), 2u | 12u << 12);          /* show 12 */
   cr_assert_eq(dis_spec(&toy_grown_spec, NULL, b, units * 4, 0, text, units * 8, NULL), ISA_OK);
   cr_assert(strncmp(text, "mark 3 = 5\nmark 100 = 6\nmark 150000 = 7\nmark 1048575 = 9\nnop\n", 61) == 0, "%.70s",
             text);
   cr_assert(strstr(text, "nop\nshow 3: 5 10 6\nshow 100: 6 12 7\nshow 150000: 7 14 -3\nshow 1048575: -1 -2 -3\n"
                          "show 12: -1 -2 -3\n") != NULL,
             "%s", text + strlen(text) - 60);
   free(b);
   free(text);
}
