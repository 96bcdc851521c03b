/*
 * Hand-written TGSI token decoder for make bench: what a driver author
 * writes (load the little-endian 32-bit tokens, shift and mask each field,
 * walk the follow-up tokens the flags announce), filling the same structs
 * as the generated decoder, reserved bits included.  Written from the bit
 * layouts of the Mesa 22.3.6 tokens (xml/tgsi.xml).  Benchmark only.
 *
 * Like the generated code it zeroes the alternative it decodes (so the
 * array elements and optional items that are absent read as 0) and
 * leaves the rest of the union alone.
 */
#include <string.h>

#include "tgsi_baseline.h"

/* token i of the unit at t */
static inline uint32_t tok(const uint8_t *t, unsigned i)
{
   const uint8_t *p = t + 4 * (size_t)i;
   return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* the low 16 bits of v as a two's complement number */
static inline int16_t s16(uint32_t v)
{
   v &= 0xffff;
   return (int16_t)((int32_t)v - (int32_t)((v & 0x8000u) << 1));
}

static inline void ind_register(struct tgsi_IndRegister *r, uint32_t w)
{
   r->File = (enum tgsi_File)(w & 0xf);
   r->Index = s16(w >> 4);
   r->Swizzle = (enum tgsi_Swizzle)(w >> 20 & 3);
   r->ArrayID = (uint16_t)(w >> 22);
}

static inline void dimension(struct tgsi_Dimension *d, uint32_t w)
{
   d->Indirect = w & 1;
   d->Dimension = w >> 1 & 1;
   d->Padding = (uint16_t)(w >> 2 & 0x3fff);
   d->Index = s16(w >> 16);
}

/* ---- declaration: decl, range, then dim / interp / semantic / image /
 * sview / array as the decl token says; NrTokens counts them all ---- */
static int declaration(const uint8_t *t, size_t avail, struct tgsi_Declaration *d, unsigned *size)
{
   uint32_t w = tok(t, 0), r;
   unsigned n = w >> 4 & 0xff, k = 2;
   if (n < 2 || n > avail)
      return -1;
   memset(d, 0, sizeof *d);
   d->decl.NrTokens = (uint8_t)n;
   d->decl.File = (enum tgsi_File)(w >> 12 & 0xf);
   d->decl.UsageMask = (uint8_t)(w >> 16 & 0xf);
   d->decl.Dimension = w >> 20 & 1;
   d->decl.Semantic = w >> 21 & 1;
   d->decl.Interpolate = w >> 22 & 1;
   d->decl.Invariant = w >> 23 & 1;
   d->decl.Local = w >> 24 & 1;
   d->decl.Array = w >> 25 & 1;
   d->decl.Atomic = w >> 26 & 1;
   d->decl.MemType = (enum tgsi_MemType)(w >> 27 & 3);
   d->decl.Padding = (uint8_t)(w >> 29);
   r = tok(t, 1);
   d->range.First = (uint16_t)r;
   d->range.Last = (uint16_t)(r >> 16);
   if (d->decl.Dimension) {
      if (k >= n)
         return -1;
      r = tok(t, k++);
      d->has_dim = true;
      d->dim.Index2D = (uint16_t)r;
      d->dim.Padding = (uint16_t)(r >> 16);
   }
   if (d->decl.Interpolate) {
      if (k >= n)
         return -1;
      r = tok(t, k++);
      d->has_interp = true;
      d->interp.Interpolate = (enum tgsi_Interpolate)(r & 0xf);
      d->interp.Location = (enum tgsi_InterpLocation)(r >> 4 & 3);
      d->interp.Padding = r >> 6;
   }
   if (d->decl.Semantic) {
      if (k >= n)
         return -1;
      r = tok(t, k++);
      d->has_semantic = true;
      d->semantic.Name = (enum tgsi_Semantic)(r & 0xff);
      d->semantic.Index = (uint16_t)(r >> 8);
      d->semantic.StreamX = (uint8_t)(r >> 24 & 3);
      d->semantic.StreamY = (uint8_t)(r >> 26 & 3);
      d->semantic.StreamZ = (uint8_t)(r >> 28 & 3);
      d->semantic.StreamW = (uint8_t)(r >> 30);
   }
   if (d->decl.File == TGSI_FILE_IMAGE) {
      if (k >= n)
         return -1;
      r = tok(t, k++);
      d->has_image = true;
      d->image.Resource = (enum tgsi_Texture)(r & 0xff);
      d->image.Raw = r >> 8 & 1;
      d->image.Writable = r >> 9 & 1;
      d->image.Format = (enum tgsi_Format)(r >> 10 & 0x3ff);
      d->image.Padding = (uint16_t)(r >> 20);
   }
   if (d->decl.File == TGSI_FILE_SVIEW) {
      if (k >= n)
         return -1;
      r = tok(t, k++);
      d->has_sview = true;
      d->sview.Resource = (enum tgsi_Texture)(r & 0xff);
      d->sview.ReturnTypeX = (enum tgsi_ReturnType)(r >> 8 & 0x3f);
      d->sview.ReturnTypeY = (enum tgsi_ReturnType)(r >> 14 & 0x3f);
      d->sview.ReturnTypeZ = (enum tgsi_ReturnType)(r >> 20 & 0x3f);
      d->sview.ReturnTypeW = (enum tgsi_ReturnType)(r >> 26);
   }
   if (d->decl.Array) {
      if (k >= n)
         return -1;
      r = tok(t, k++);
      d->has_array = true;
      d->array.ArrayID = (uint16_t)(r & 0x3ff);
      d->array.Padding = r >> 10;
   }
   *size = n;
   return 0;
}

/* ---- immediate: imm token, NrTokens - 1 (at most 4) data words ---- */
static int immediate(const uint8_t *t, size_t avail, struct tgsi_Immediate *m, unsigned *size)
{
   uint32_t w = tok(t, 0);
   unsigned n = w >> 4 & 0x3fff;
   if (n < 1 || n > 5 || n > avail)
      return -1;
   memset(m, 0, sizeof *m);
   m->imm.NrTokens = (uint16_t)n;
   m->imm.DataType = (enum tgsi_ImmType)(w >> 18 & 0xf);
   m->imm.Padding = (uint16_t)(w >> 22);
   m->n_data = n - 1;
   for (unsigned i = 0; i < n - 1; i++)
      m->data[i].Value = tok(t, 1 + i);
   *size = n;
   return 0;
}

/* ---- property: prop token, NrTokens - 1 (at most 8) data words ---- */
static int property(const uint8_t *t, size_t avail, struct tgsi_PropertyItem *p, unsigned *size)
{
   uint32_t w = tok(t, 0);
   unsigned n = w >> 4 & 0xff;
   if (n < 1 || n > 9 || n > avail)
      return -1;
   memset(p, 0, sizeof *p);
   p->prop.NrTokens = (uint8_t)n;
   p->prop.PropertyName = (enum tgsi_Property)(w >> 12 & 0xff);
   p->prop.Padding = (uint16_t)(w >> 20);
   p->n_data = n - 1;
   for (unsigned i = 0; i < n - 1; i++)
      p->data[i].Value = tok(t, 1 + i);
   *size = n;
   return 0;
}

/* ---- instruction operands: register token, then the indirect register,
 * the dimension and the dimension's indirect register when flagged ---- */
static inline int dst_operand(const uint8_t *t, unsigned *kp, unsigned n, struct tgsi_DstOperand *o)
{
   unsigned k = *kp;
   uint32_t w;
   if (k >= n)
      return -1;
   w = tok(t, k++);
   o->reg.File = (enum tgsi_File)(w & 0xf);
   o->reg.WriteMask = (uint8_t)(w >> 4 & 0xf);
   o->reg.Indirect = w >> 8 & 1;
   o->reg.Dimension = w >> 9 & 1;
   o->reg.Index = s16(w >> 10);
   o->reg.Padding = (uint8_t)(w >> 26);
   if (o->reg.Indirect) {
      if (k >= n)
         return -1;
      o->has_ind = true;
      ind_register(&o->ind, tok(t, k++));
   }
   if (o->reg.Dimension) {
      if (k >= n)
         return -1;
      o->has_dim = true;
      dimension(&o->dim, tok(t, k++));
      if (o->dim.Indirect) {
         if (k >= n)
            return -1;
         o->has_dimind = true;
         ind_register(&o->dimind, tok(t, k++));
      }
   }
   *kp = k;
   return 0;
}

static inline int src_operand(const uint8_t *t, unsigned *kp, unsigned n, struct tgsi_SrcOperand *o)
{
   unsigned k = *kp;
   uint32_t w;
   if (k >= n)
      return -1;
   w = tok(t, k++);
   o->reg.File = (enum tgsi_File)(w & 0xf);
   o->reg.Indirect = w >> 4 & 1;
   o->reg.Dimension = w >> 5 & 1;
   o->reg.Index = s16(w >> 6);
   o->reg.SwizzleX = (enum tgsi_Swizzle)(w >> 22 & 3);
   o->reg.SwizzleY = (enum tgsi_Swizzle)(w >> 24 & 3);
   o->reg.SwizzleZ = (enum tgsi_Swizzle)(w >> 26 & 3);
   o->reg.SwizzleW = (enum tgsi_Swizzle)(w >> 28 & 3);
   o->reg.Absolute = w >> 30 & 1;
   o->reg.Negate = w >> 31;
   if (o->reg.Indirect) {
      if (k >= n)
         return -1;
      o->has_ind = true;
      ind_register(&o->ind, tok(t, k++));
   }
   if (o->reg.Dimension) {
      if (k >= n)
         return -1;
      o->has_dim = true;
      dimension(&o->dim, tok(t, k++));
      if (o->dim.Indirect) {
         if (k >= n)
            return -1;
         o->has_dimind = true;
         ind_register(&o->dimind, tok(t, k++));
      }
   }
   *kp = k;
   return 0;
}

/* ---- instruction: insn token, label, texture + offsets, memory, the
 * dst then the src operands; NrTokens does not count the insn token ---- */
static int instruction(const uint8_t *t, size_t avail, struct tgsi_Instruction *in, unsigned *size)
{
   uint32_t w = tok(t, 0), r;
   unsigned n = 1 + (w >> 4 & 0xff), k = 1;
   if (n > avail)
      return -1;
   memset(in, 0, sizeof *in);
   in->insn.NrTokens = (uint8_t)(n - 1);
   in->insn.Opcode = (enum tgsi_Opcode)(w >> 12 & 0xff);
   in->insn.Saturate = w >> 20 & 1;
   in->insn.NumDstRegs = (uint8_t)(w >> 21 & 3);
   in->insn.NumSrcRegs = (uint8_t)(w >> 23 & 0xf);
   in->insn.Label = w >> 27 & 1;
   in->insn.Texture = w >> 28 & 1;
   in->insn.Memory = w >> 29 & 1;
   in->insn.Precise = w >> 30 & 1;
   in->insn.Padding = (uint8_t)(w >> 31);
   if (in->insn.Label) {
      if (k >= n)
         return -1;
      r = tok(t, k++);
      in->has_label = true;
      in->label.Label = r & 0xffffff;
      in->label.Padding = (uint8_t)(r >> 24);
   }
   if (in->insn.Texture) {
      if (k >= n)
         return -1;
      r = tok(t, k++);
      in->has_texture = true;
      in->texture.Texture = (enum tgsi_Texture)(r & 0xff);
      in->texture.NumOffsets = (uint8_t)(r >> 8 & 0xf);
      in->texture.ReturnType = (enum tgsi_ReturnType)(r >> 12 & 7);
      in->texture.Padding = r >> 15;
      in->n_offsets = in->texture.NumOffsets;
      if (k + in->n_offsets > n)
         return -1;
      for (unsigned i = 0; i < in->n_offsets; i++) {
         struct tgsi_TexOffset *o = &in->offsets[i];
         r = tok(t, k++);
         o->Index = s16(r);
         o->File = (enum tgsi_File)(r >> 16 & 0xf);
         o->SwizzleX = (enum tgsi_Swizzle)(r >> 20 & 3);
         o->SwizzleY = (enum tgsi_Swizzle)(r >> 22 & 3);
         o->SwizzleZ = (enum tgsi_Swizzle)(r >> 24 & 3);
         o->Padding = (uint8_t)(r >> 26);
      }
   }
   if (in->insn.Memory) {
      if (k >= n)
         return -1;
      r = tok(t, k++);
      in->has_memory = true;
      in->memory.Qualifier = (uint8_t)(r & 0xf);
      in->memory.Texture = (enum tgsi_Texture)(r >> 4 & 0xff);
      in->memory.Format = (enum tgsi_Format)(r >> 12 & 0x3ff);
      in->memory.Padding = (uint16_t)(r >> 22);
   }
   in->n_dst = in->insn.NumDstRegs;
   for (unsigned i = 0; i < in->n_dst; i++)
      if (dst_operand(t, &k, n, &in->dst[i]))
         return -1;
   in->n_src = in->insn.NumSrcRegs;
   for (unsigned i = 0; i < in->n_src; i++)
      if (src_operand(t, &k, n, &in->src[i]))
         return -1;
   *size = n;
   return 0;
}

int tgsi_baseline_decode_item(const uint8_t *buf, size_t len, size_t offset, int first, struct tgsi_Item *item,
                              size_t *bytes)
{
   const uint8_t *t = buf + offset;
   size_t avail;
   unsigned size = 0;
   int r;
   if (offset > len)
      return -1;
   avail = (len - offset) / 4; /* whole tokens left */
   if (first) {
      /* the program header: HeaderSize | BodySize << 8, then the processor */
      uint32_t w0, w1;
      struct tgsi_Header *h = &item->u.Header;
      if (avail < 2)
         return -1;
      w0 = tok(t, 0);
      w1 = tok(t, 1);
      item->variant = TGSI_ITEM_HEADER;
      memset(h, 0, sizeof *h);
      h->HeaderSize = (uint8_t)w0;
      h->BodySize = w0 >> 8;
      h->Processor = (enum tgsi_Processor)(w1 & 0xf);
      h->Padding = w1 >> 4;
      *bytes = 8;
      return 0;
   }
   if (avail == 0)
      return -1;
   switch (tok(t, 0) & 0xf) {
   case 0:
      item->variant = TGSI_ITEM_DECLARATION;
      r = declaration(t, avail, &item->u.Declaration, &size);
      break;
   case 1:
      item->variant = TGSI_ITEM_IMMEDIATE;
      r = immediate(t, avail, &item->u.Immediate, &size);
      break;
   case 2:
      item->variant = TGSI_ITEM_INSTRUCTION;
      r = instruction(t, avail, &item->u.Instruction, &size);
      break;
   case 3:
      item->variant = TGSI_ITEM_PROPERTY_ITEM;
      r = property(t, avail, &item->u.PropertyItem, &size);
      break;
   default:
      return -1;
   }
   if (r)
      return r;
   *bytes = (size_t)size * 4;
   return 0;
}
