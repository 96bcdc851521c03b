/*
 * Hand-written Lima decoders for make bench: what a driver author writes
 * (read the control word, walk the enabled units, shift and mask each
 * field), filling the same structs as the generated decoders, every view
 * of the union units included.  Benchmark only.
 */
#include <string.h>

#include "lima_baseline.h"

/* `width` bits at bit `pos` of the instruction's words (pos + width <= 608) */
static inline uint64_t get(const uint32_t *w, unsigned pos, unsigned width)
{
   unsigned i = pos / 32, s = pos % 32;
   uint64_t v = (uint64_t)w[i] >> s | (uint64_t)w[i + 1] << (32 - s);
   if (s + width > 64)
      v |= (uint64_t)w[i + 2] << (64 - s);
   return width == 64 ? v : v & ((UINT64_C(1) << width) - 1);
}

static const unsigned unit_bits[12] = {34, 62, 41, 43, 30, 44, 31, 30, 41, 73, 64, 64};

int lima_pp_baseline_decode(const uint8_t *buf, size_t len, struct lima_pp_Instruction *in, size_t *bytes)
{
   uint32_t w[24];
   unsigned count, fields, p = 32, total = 32;
   if (len < 4)
      return -1;
   memset(w, 0, sizeof w);
   w[0] = (uint32_t)buf[0] | (uint32_t)buf[1] << 8 | (uint32_t)buf[2] << 16 | (uint32_t)buf[3] << 24;
   count = w[0] & 31;
   fields = (w[0] >> 7) & 0xfff;
   for (unsigned u = 0; u < 12; u++)
      if (fields >> u & 1)
         total += unit_bits[u];
   if (count * 4 > len || count * 32 < total)
      return -1;
   for (unsigned i = 1; i < count; i++)
      w[i] = (uint32_t)buf[4 * i] | (uint32_t)buf[4 * i + 1] << 8 | (uint32_t)buf[4 * i + 2] << 16 |
             (uint32_t)buf[4 * i + 3] << 24;
   memset(in, 0, sizeof *in);
   in->ctrl.count = (uint8_t)count;
   in->ctrl.stop = w[0] >> 5 & 1;
   in->ctrl.sync = w[0] >> 6 & 1;
   in->ctrl.fields = (uint16_t)fields;
   in->ctrl.next_count = (uint8_t)(w[0] >> 19 & 63);
   in->ctrl.prefetch = w[0] >> 25 & 1;
   in->ctrl.unknown = (uint8_t)(w[0] >> 26);
   if (fields & 1) { /* varying: both views */
      struct lima_pp_Varying *v = &in->varying;
      struct lima_pp_Varying_imm *m = &v->u.imm;
      struct lima_pp_Varying_reg *r = &v->u.reg;
      in->has_varying = true;
      m->perspective = r->perspective = (uint8_t)get(w, p, 2);
      m->source_type = r->source_type = (uint8_t)get(w, p + 2, 2);
      m->unknown_0 = (uint8_t)get(w, p + 4, 1);
      m->alignment = (uint8_t)get(w, p + 5, 2);
      m->unknown_1 = r->unknown_1 = (uint8_t)get(w, p + 7, 3);
      m->offset_vector = r->source = (uint8_t)get(w, p + 10, 4);
      m->unknown_2 = (uint8_t)get(w, p + 14, 2);
      m->offset_scalar = (uint8_t)get(w, p + 16, 2);
      m->index = (uint8_t)get(w, p + 18, 6);
      m->dest = r->dest = (uint8_t)get(w, p + 24, 4);
      m->mask = r->mask = (uint8_t)get(w, p + 28, 4);
      m->unknown_3 = r->unknown_2 = (uint8_t)get(w, p + 32, 2);
      r->unknown_0 = (uint8_t)get(w, p + 4, 2);
      r->normalize = get(w, p + 6, 1);
      r->negate = get(w, p + 14, 1);
      r->absolute = get(w, p + 15, 1);
      r->swizzle = (uint8_t)get(w, p + 16, 8);
      v->variant = (m->source_type == 1 || (m->source_type == 2 && (m->perspective == 1 || m->perspective == 2)))
                      ? LIMA_PP_VARYING_REG : LIMA_PP_VARYING_IMM;
      p += 34;
   }
   if (fields & 2) {
      struct lima_pp_Sampler *s = &in->sampler;
      in->has_sampler = true;
      s->lod_bias = (uint8_t)get(w, p, 6);
      s->index_offset = (uint8_t)get(w, p + 6, 6);
      s->unknown_0 = (uint8_t)get(w, p + 12, 5);
      s->explicit_lod = get(w, p + 17, 1);
      s->lod_bias_en = get(w, p + 18, 1);
      s->unknown_1 = (uint8_t)get(w, p + 19, 5);
      s->type = (enum lima_pp_SamplerType)get(w, p + 24, 5);
      s->offset_en = get(w, p + 29, 1);
      s->index = (uint16_t)get(w, p + 30, 12);
      s->unknown_2 = (uint32_t)get(w, p + 42, 20);
      p += 62;
   }
   if (fields & 4) {
      struct lima_pp_Uniform *u = &in->uniform;
      in->has_uniform = true;
      u->source = (enum lima_pp_UniformSource)get(w, p, 2);
      u->unknown_0 = (uint8_t)get(w, p + 2, 8);
      u->alignment = (uint8_t)get(w, p + 10, 2);
      u->unknown_1 = (uint8_t)get(w, p + 12, 6);
      u->offset_reg = (uint8_t)get(w, p + 18, 6);
      u->offset_en = get(w, p + 24, 1);
      u->index = (uint16_t)get(w, p + 25, 16);
      p += 41;
   }
   if (fields & 8) {
      struct lima_pp_Vec4Mul *m = &in->vec4_mul;
      uint64_t x = get(w, p, 43);
      in->has_vec4_mul = true;
      m->arg0_source = x & 15, m->arg0_swizzle = x >> 4 & 255, m->arg0_absolute = x >> 12 & 1;
      m->arg0_negate = x >> 13 & 1, m->arg1_source = x >> 14 & 15, m->arg1_swizzle = x >> 18 & 255;
      m->arg1_absolute = x >> 26 & 1, m->arg1_negate = x >> 27 & 1, m->dest = x >> 28 & 15;
      m->mask = x >> 32 & 15, m->dest_modifier = (enum lima_pp_Outmod)(x >> 36 & 3);
      m->op = (enum lima_pp_MulOp)(x >> 38 & 31);
      p += 43;
   }
   if (fields & 16) {
      struct lima_pp_FloatMul *m = &in->float_mul;
      uint64_t x = get(w, p, 30);
      in->has_float_mul = true;
      m->arg0_source = x & 63, m->arg0_absolute = x >> 6 & 1, m->arg0_negate = x >> 7 & 1;
      m->arg1_source = x >> 8 & 63, m->arg1_absolute = x >> 14 & 1, m->arg1_negate = x >> 15 & 1;
      m->dest = x >> 16 & 63, m->output_en = x >> 22 & 1, m->dest_modifier = (enum lima_pp_Outmod)(x >> 23 & 3);
      m->op = (enum lima_pp_MulOp)(x >> 25 & 31);
      p += 30;
   }
   if (fields & 32) {
      struct lima_pp_Vec4Acc *a = &in->vec4_acc;
      uint64_t x = get(w, p, 44);
      in->has_vec4_acc = true;
      a->arg0_source = x & 15, a->arg0_swizzle = x >> 4 & 255, a->arg0_absolute = x >> 12 & 1;
      a->arg0_negate = x >> 13 & 1, a->arg1_source = x >> 14 & 15, a->arg1_swizzle = x >> 18 & 255;
      a->arg1_absolute = x >> 26 & 1, a->arg1_negate = x >> 27 & 1, a->dest = x >> 28 & 15;
      a->mask = x >> 32 & 15, a->dest_modifier = (enum lima_pp_Outmod)(x >> 36 & 3);
      a->op = (enum lima_pp_Vec4AccOp)(x >> 38 & 31), a->mul_in = x >> 43 & 1;
      p += 44;
   }
   if (fields & 64) {
      struct lima_pp_FloatAcc *a = &in->float_acc;
      uint64_t x = get(w, p, 31);
      in->has_float_acc = true;
      a->arg0_source = x & 63, a->arg0_absolute = x >> 6 & 1, a->arg0_negate = x >> 7 & 1;
      a->arg1_source = x >> 8 & 63, a->arg1_absolute = x >> 14 & 1, a->arg1_negate = x >> 15 & 1;
      a->dest = x >> 16 & 63, a->output_en = x >> 22 & 1, a->dest_modifier = (enum lima_pp_Outmod)(x >> 23 & 3);
      a->op = (enum lima_pp_FloatAccOp)(x >> 25 & 31), a->mul_in = x >> 30 & 1;
      p += 31;
   }
   if (fields & 128) { /* combiner: both views */
      struct lima_pp_Combine *c = &in->combine;
      struct lima_pp_Combine_scalar *s = &c->u.scalar;
      struct lima_pp_Combine_vector *v = &c->u.vector;
      uint64_t x = get(w, p, 30);
      in->has_combine = true;
      s->dest_vec = v->dest_vec = x & 1, s->arg1_en = v->arg1_en = x >> 1 & 1;
      s->op = (enum lima_pp_CombineOp)(x >> 2 & 15), s->arg1_absolute = x >> 6 & 1, s->arg1_negate = x >> 7 & 1;
      s->arg1_src = x >> 8 & 63, s->arg0_absolute = x >> 14 & 1, s->arg0_negate = x >> 15 & 1;
      s->arg0_src = x >> 16 & 63, s->dest_modifier = (enum lima_pp_Outmod)(x >> 22 & 3), s->dest = x >> 24 & 63;
      v->arg1_swizzle = x >> 2 & 255, v->arg1_source = x >> 10 & 15, v->padding_0 = x >> 14 & 255;
      v->mask = x >> 22 & 15, v->dest = x >> 26 & 15;
      c->variant = (x & 3) == 3 ? LIMA_PP_COMBINE_VECTOR : LIMA_PP_COMBINE_SCALAR;
      p += 30;
   }
   if (fields & 256) { /* temp write / fb read: both views */
      struct lima_pp_TempWrite *t = &in->temp_write;
      struct lima_pp_TempWrite_temp_write *tw = &t->u.temp_write;
      struct lima_pp_TempWrite_fb_read *fb = &t->u.fb_read;
      uint64_t x = get(w, p, 41);
      in->has_temp_write = true;
      tw->dest = x & 3, tw->unknown_0 = x >> 2 & 3, tw->source = x >> 4 & 63, tw->alignment = x >> 10 & 3;
      tw->unknown_1 = x >> 12 & 63, tw->offset_reg = x >> 18 & 63, tw->offset_en = x >> 24 & 1;
      tw->index = (uint16_t)(x >> 25 & 0xffff);
      fb->source = x & 1, fb->unknown_0 = x >> 1 & 31, fb->dest = x >> 6 & 15;
      fb->unknown_1 = (uint32_t)(x >> 10 & 0x7fffffff);
      t->variant = fb->unknown_0 == 7 ? LIMA_PP_TEMP_WRITE_FB_READ : LIMA_PP_TEMP_WRITE_TEMP_WRITE;
      p += 41;
   }
   if (fields & 512) { /* branch / discard: both views */
      struct lima_pp_Branch *b = &in->branch;
      struct lima_pp_Branch_branch *br = &b->u.branch;
      struct lima_pp_Branch_discard *d = &b->u.discard;
      uint64_t lo = get(w, p, 64), hi = get(w, p + 64, 9);
      in->has_branch = true;
      br->unknown_0 = lo & 15, br->arg1_source = lo >> 4 & 63, br->arg0_source = lo >> 10 & 63;
      br->cond_gt = lo >> 16 & 1, br->cond_eq = lo >> 17 & 1, br->cond_lt = lo >> 18 & 1;
      br->unknown_1 = (uint32_t)(lo >> 19 & 0x3fffff);
      br->target = (int32_t)isa_sext(get(w, p + 41, 27), 27);
      br->next_count = (uint8_t)(hi >> 4);
      d->word0 = (uint32_t)lo, d->word1 = (uint32_t)(lo >> 32), d->word2 = (uint16_t)hi;
      b->variant = (d->word0 == 0x007f0003 && !d->word1 && !d->word2) ? LIMA_PP_BRANCH_DISCARD
                                                                      : LIMA_PP_BRANCH_BRANCH;
      p += 73;
   }
   for (unsigned k = 0; k < 2; k++) {
      if (fields & (1024u << k)) {
         struct lima_pp_Const *c = k ? &in->vec4_const_1 : &in->vec4_const_0;
         uint64_t x = get(w, p, 64);
         if (k)
            in->has_vec4_const_1 = true;
         else
            in->has_vec4_const_0 = true;
         c->x = (uint16_t)x, c->y = (uint16_t)(x >> 16), c->z = (uint16_t)(x >> 32), c->w = (uint16_t)(x >> 48);
         p += 64;
      }
   }
   *bytes = count * 4;
   return 0;
}

int lima_gp_baseline_decode(const uint8_t *buf, size_t len, struct lima_gp_Instruction *g)
{
   uint32_t w[4];
   if (len < 16)
      return -1;
   for (unsigned i = 0; i < 4; i++)
      w[i] = (uint32_t)buf[4 * i] | (uint32_t)buf[4 * i + 1] << 8 | (uint32_t)buf[4 * i + 2] << 16 |
             (uint32_t)buf[4 * i + 3] << 24;
   memset(g, 0, sizeof *g);
   g->mul0_src0 = (enum lima_gp_Src)(w[0] & 31), g->mul0_src1 = (enum lima_gp_Src)(w[0] >> 5 & 31);
   g->mul1_src0 = (enum lima_gp_Src)(w[0] >> 10 & 31), g->mul1_src1 = (enum lima_gp_Src)(w[0] >> 15 & 31);
   g->mul0_neg = w[0] >> 20 & 1, g->mul1_neg = w[0] >> 21 & 1;
   g->acc0_src0 = (enum lima_gp_Src)(w[0] >> 22 & 31), g->acc0_src1 = (enum lima_gp_Src)(w[0] >> 27);
   g->acc1_src0 = (enum lima_gp_Src)(w[1] & 31), g->acc1_src1 = (enum lima_gp_Src)(w[1] >> 5 & 31);
   g->acc0_src0_neg = w[1] >> 10 & 1, g->acc0_src1_neg = w[1] >> 11 & 1;
   g->acc1_src0_neg = w[1] >> 12 & 1, g->acc1_src1_neg = w[1] >> 13 & 1;
   g->load_addr = (uint16_t)(w[1] >> 14 & 511), g->load_offset = (enum lima_gp_LoadOff)(w[1] >> 23 & 7);
   g->register0_addr = (uint8_t)(w[1] >> 26 & 15), g->register0_attribute = w[1] >> 30 & 1;
   g->register1_addr = (uint8_t)((w[1] >> 31) | (w[2] & 7) << 1);
   g->store0_temporary = w[2] >> 3 & 1, g->store1_temporary = w[2] >> 4 & 1;
   g->branch = w[2] >> 5 & 1, g->branch_target_lo = w[2] >> 6 & 1;
   g->store0_src_x = (enum lima_gp_StoreSrc)(w[2] >> 7 & 7), g->store0_src_y = (enum lima_gp_StoreSrc)(w[2] >> 10 & 7);
   g->store1_src_z = (enum lima_gp_StoreSrc)(w[2] >> 13 & 7), g->store1_src_w = (enum lima_gp_StoreSrc)(w[2] >> 16 & 7);
   g->acc_op = (enum lima_gp_AccOp)(w[2] >> 19 & 7), g->complex_op = (enum lima_gp_ComplexOp)(w[2] >> 22 & 15);
   g->store0_addr = (uint8_t)(w[2] >> 26 & 15), g->store0_varying = w[2] >> 30 & 1;
   g->store1_addr = (uint8_t)((w[2] >> 31) | (w[3] & 7) << 1), g->store1_varying = w[3] >> 3 & 1;
   g->mul_op = (enum lima_gp_MulOp)(w[3] >> 4 & 7), g->pass_op = (enum lima_gp_PassOp)(w[3] >> 7 & 7);
   g->complex_src = (enum lima_gp_Src)(w[3] >> 10 & 31), g->pass_src = (enum lima_gp_Src)(w[3] >> 15 & 31);
   g->unknown_1 = (uint8_t)(w[3] >> 20 & 15), g->branch_target = (uint8_t)(w[3] >> 24);
   return 0;
}
