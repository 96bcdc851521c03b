/*
 * Hand-written Midgard bundle decoder for make bench: what a driver author
 * writes (read the tag, count the enabled units, shift and mask each field
 * out of the little-endian bundle), filling the same structs as the
 * generated decoder, unknown bits included.  Written from the bit layouts of
 * the fact sheet's section 2 (xml/midgard.xml).  Benchmark only.
 */
#include <string.h>

#include "midgard_baseline.h"

/* n (<= 57, or 64 at a byte boundary) bits at bit lo of p */
static inline uint64_t get(const uint8_t *p, unsigned lo, unsigned n)
{
   uint64_t w;
   memcpy(&w, p + lo / 8, sizeof w); /* the caller keeps 8 bytes readable */
   w >>= lo % 8;
   return n == 64 ? w : w & ((UINT64_C(1) << n) - 1);
}

static inline int64_t sget(const uint8_t *p, unsigned lo, unsigned n)
{
   uint64_t v = get(p, lo, n), sign = UINT64_C(1) << (n - 1);
   return (int64_t)(v ^ sign) - (int64_t)sign;
}

static void reg_word(struct midgard_RegWord *r, const uint8_t *p, unsigned at)
{
   r->src1_reg = (uint8_t)get(p, at, 5);
   r->src2_reg = (uint8_t)get(p, at + 5, 5);
   r->out_reg = (uint8_t)get(p, at + 10, 5);
   r->src2_imm = get(p, at + 15, 1);
}

static void vec_src(struct midgard_VecSrc *s, uint64_t v)
{
   s->mod = v & 3;
   s->expand = (enum midgard_Expand)(v >> 2 & 7);
   s->swizzle = (uint8_t)(v >> 5);
}

static void vector(struct midgard_VectorAlu *a, const uint8_t *p, unsigned at)
{
   uint64_t v = get(p, at, 48);
   a->op = (enum midgard_AluOp)(v & 0xff);
   a->reg_mode = (enum midgard_RegMode)(v >> 8 & 3);
   vec_src(&a->src1, v >> 10 & 0x1fff);
   vec_src(&a->src2, v >> 23 & 0x1fff);
   a->shrink = (enum midgard_Shrink)(v >> 36 & 3);
   a->outmod = v >> 38 & 3;
   a->mask = (uint8_t)(v >> 40);
}

static void scalar(struct midgard_ScalarAlu *a, const uint8_t *p, unsigned at)
{
   uint64_t v = get(p, at, 32);
   a->op = (enum midgard_AluOp)(v & 0xff);
   a->src1.mod = v >> 8 & 3;
   a->src1.full = v >> 10 & 1;
   a->src1.component = v >> 11 & 7;
   a->src2 = v >> 14 & 0x7ff;
   a->reserved = v >> 25 & 1;
   a->outmod = v >> 26 & 3;
   a->output_full = v >> 28 & 1;
   a->output_component = v >> 29 & 7;
}

static int alu(struct midgard_Alu *a, const uint8_t *p, size_t avail, size_t *bytes)
{
   uint32_t c = (uint32_t)get(p, 0, 32);
   unsigned at = 32, half;
   struct midgard_AluControl *k = &a->ctrl;
   k->size = c & 3;
   k->writeout = c >> 2 & 1;
   k->next_tag = (enum midgard_Tag)(c >> 4 & 0xf);
   k->zero_lo = c >> 8 & 0xff;
   k->unk16 = c >> 16 & 1, k->vmul = c >> 17 & 1, k->unk18 = c >> 18 & 1, k->sadd = c >> 19 & 1;
   k->unk20 = c >> 20 & 1, k->vadd = c >> 21 & 1, k->unk22 = c >> 22 & 1, k->smul = c >> 23 & 1;
   k->unk24 = c >> 24 & 1, k->lut = c >> 25 & 1, k->cbr = c >> 26 & 1, k->xbr = c >> 27 & 1;
   k->zero_hi = c >> 28;
   half = 2 + k->vmul + k->sadd + k->vadd + k->smul + k->lut;
   half += 3 * k->vmul + 2 * k->sadd + 3 * k->vadd + 2 * k->smul + 3 * k->lut + k->cbr + 3 * k->xbr;
   *bytes = 16 * ((size_t)k->size + 1);
   if (*bytes > avail || 16 * ((half + 7) / 8) > *bytes)
      return -1;
   if ((a->has_rw_vmul = k->vmul))
      reg_word(&a->rw_vmul, p, at), at += 16;
   if ((a->has_rw_sadd = k->sadd))
      reg_word(&a->rw_sadd, p, at), at += 16;
   if ((a->has_rw_vadd = k->vadd))
      reg_word(&a->rw_vadd, p, at), at += 16;
   if ((a->has_rw_smul = k->smul))
      reg_word(&a->rw_smul, p, at), at += 16;
   if ((a->has_rw_lut = k->lut))
      reg_word(&a->rw_lut, p, at), at += 16;
   if ((a->has_vmul = k->vmul))
      vector(&a->vmul, p, at), at += 48;
   if ((a->has_sadd = k->sadd))
      scalar(&a->sadd, p, at), at += 32;
   if ((a->has_vadd = k->vadd))
      vector(&a->vadd, p, at), at += 48;
   if ((a->has_smul = k->smul))
      scalar(&a->smul, p, at), at += 32;
   if ((a->has_lut = k->lut))
      vector(&a->lut, p, at), at += 48;
   if ((a->has_cbr = k->cbr)) {
      uint64_t w = get(p, at, 16);
      a->cbr.op = (enum midgard_BranchOp)(w & 7);
      a->cbr.dest_tag = (enum midgard_Tag)(w >> 3 & 0xf);
      a->cbr.variant = a->cbr.op == MIDGARD_BRANCH_OP_BRANCH_UNCOND ? MIDGARD_COMPACT_BRANCH_UNCOND
                                                                     : MIDGARD_COMPACT_BRANCH_COND;
      a->cbr.u.uncond.call_mode = (enum midgard_CallMode)(w >> 7 & 3);
      a->cbr.u.uncond.offset = (int8_t)sget(p, at + 9, 7);
      a->cbr.u.cond.offset = (int8_t)sget(p, at + 7, 7);
      a->cbr.u.cond.cond = (enum midgard_Cond)(w >> 14 & 3);
      at += 16;
   }
   if ((a->has_xbr = k->xbr)) {
      uint64_t w = get(p, at, 48);
      a->xbr.op = (enum midgard_BranchOp)(w & 7);
      a->xbr.dest_tag = (enum midgard_Tag)(w >> 3 & 0xf);
      a->xbr.call_mode = (enum midgard_CallMode)(w >> 7 & 3);
      a->xbr.offset = (int32_t)sget(p, at + 9, 23);
      a->xbr.cond = (uint16_t)(w >> 32);
      at += 48;
   }
   a->n_pad = (8 - half % 8) % 8;
   for (unsigned i = 0; i < a->n_pad; i++, at += 16)
      a->pad[i].value = (uint16_t)get(p, at, 16);
   if ((a->has_consts = *bytes > 16 * ((half + 7) / 8)))
      for (unsigned i = 0; i < 4; i++, at += 32)
         a->consts.w[i] = (uint32_t)get(p, at, 32);
   return 0;
}

static void ldst_word(struct midgard_LdstWord *w, const uint8_t *p, unsigned at)
{
   uint64_t v = get(p, at, 60);
   w->op = (enum midgard_LdstOp)(v & 0xff);
   w->reg = v >> 8 & 0x1f;
   w->mask = v >> 13 & 0xf;
   w->swizzle = (uint8_t)(v >> 17);
   w->arg_comp = v >> 25 & 3;
   w->arg_reg = (enum midgard_LdstReg)(v >> 27 & 7);
   w->bitsize_toggle = v >> 30 & 1;
   w->index_format = (enum midgard_IndexFormat)(v >> 31 & 3);
   w->index_comp = v >> 33 & 3;
   w->index_reg = (enum midgard_LdstReg)(v >> 35 & 7);
   w->index_shift = v >> 38 & 0xf;
   w->signed_offset = (int32_t)sget(p, at + 42, 18);
}

static void texture(struct midgard_Texture *t, const uint8_t *p)
{
   uint64_t lo = get(p, 0, 64), hi = get(p, 64, 64);
   struct midgard_Texture_word *w = &t->u.word;
   struct midgard_Texture_barrier *b = &t->u.barrier;
   t->type = (enum midgard_Tag)(lo & 0xf);
   t->next_type = (enum midgard_Tag)(lo >> 4 & 0xf);
   t->op = (enum midgard_TexOp)(lo >> 8 & 0xf);
   t->variant = t->op == MIDGARD_TEX_OP_BARRIER ? MIDGARD_TEXTURE_BARRIER : MIDGARD_TEXTURE_WORD;
   w->mode = (enum midgard_TexMode)(lo >> 12 & 0xf);
   w->exec = (enum midgard_Exec)(lo >> 16 & 3);
   w->format = (enum midgard_TexFormat)(lo >> 18 & 3);
   w->sampler_register = lo >> 20 & 1, w->texture_register = lo >> 21 & 1;
   w->lod_register = lo >> 22 & 1, w->offset_register = lo >> 23 & 1;
   w->in_reg_full = lo >> 24 & 1, w->in_reg_select = lo >> 25 & 1, w->in_reg_upper = lo >> 26 & 1;
   w->in_reg_swizzle = (uint8_t)(lo >> 27);
   w->unknown8 = lo >> 35 & 3;
   w->out_full = lo >> 37 & 1;
   w->sampler_type = (enum midgard_SamplerType)(lo >> 38 & 3);
   w->out_reg_select = lo >> 40 & 1, w->out_upper = lo >> 41 & 1;
   w->mask = lo >> 42 & 0xf;
   w->outmod = (enum midgard_OutmodFloat)(lo >> 46 & 3);
   w->swizzle = (uint8_t)(lo >> 48);
   w->out_of_order = lo >> 56 & 0xf;
   w->unknown4 = (uint8_t)(lo >> 60 | hi << 4);
   w->offset = hi >> 4 & 0xfff;
   w->bias = (uint8_t)(hi >> 16);
   w->bias_int = (int8_t)(uint8_t)(hi >> 24);
   w->sampler_handle = (uint16_t)(hi >> 32);
   w->texture_handle = (uint16_t)(hi >> 48);
   b->op_hi = lo >> 12 & 3, b->zero1 = lo >> 14 & 3;
   b->cont = lo >> 16 & 1, b->last = lo >> 17 & 1;
   b->zero2 = lo >> 18 & 0x3fff;
   b->zero3 = lo >> 32 & 0xffffff;
   b->out_of_order = lo >> 56 & 0xf, b->zero4 = (uint8_t)(lo >> 60);
   b->zero5 = hi;
}

int midgard_baseline_decode_bundle(const uint8_t *buf, size_t len, size_t offset, struct midgard_Bundle *b,
                                   size_t *bytes)
{
   uint8_t q[80] = {0}; /* the bundle, and zeros for get()'s 8-byte reads */
   const uint8_t *p = buf + offset;
   size_t avail = len - offset;
   unsigned tag;
   memset(b, 0, sizeof *b);
   if (offset >= len)
      return -1;
   memcpy(q, p, avail < 64 ? avail : 64);
   tag = q[0] & 0xf;
   if (tag & 8) {
      b->variant = MIDGARD_BUNDLE_ALU;
      return alu(&b->u.Alu, q, avail, bytes);
   }
   if (avail < 16)
      return -1;
   *bytes = 16;
   if (tag == 5) {
      b->variant = MIDGARD_BUNDLE_LOAD_STORE;
      b->u.LoadStore.next_tag = (enum midgard_Tag)(q[0] >> 4);
      ldst_word(&b->u.LoadStore.w1, q, 8);
      ldst_word(&b->u.LoadStore.w2, q, 68);
   } else if (tag >= 2 && tag <= 4) {
      b->variant = MIDGARD_BUNDLE_TEXTURE;
      texture(&b->u.Texture, q);
   } else {
      struct midgard_Unknown *u = &b->u.Unknown;
      b->variant = MIDGARD_BUNDLE_UNKNOWN;
      u->type = (enum midgard_Tag)tag;
      u->next_tag = (enum midgard_Tag)(q[0] >> 4);
      u->w0_hi = (uint32_t)get(q, 8, 24);
      u->w1 = (uint32_t)get(q, 32, 32), u->w2 = (uint32_t)get(q, 64, 32), u->w3 = (uint32_t)get(q, 96, 32);
   }
   return 0;
}
