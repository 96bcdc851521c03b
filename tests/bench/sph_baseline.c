/*
 * Hand-written SPH v3 unpack/pack: what a careful driver author writes
 * with shifts and masks (word loads, loops over the generic vectors), into
 * the same struct the generated code fills, so the two can be timed and
 * compared.  Benchmark only: the library never uses this.
 */
#include <string.h>

#include "nv_sph.h"
#include "sph_baseline.h"

static inline unsigned b(uint32_t w, unsigned shift, unsigned width)
{
   return (w >> shift) & ((1u << width) - 1);
}

static void unpack_common(const uint32_t *w, struct nv_sph_Header *h)
{
   struct nv_sph_CommonWord0 *c0 = &h->CommonWord0;
   c0->SphType = (enum nv_sph_SphType)b(w[0], 0, 5);
   c0->Version = (uint8_t)b(w[0], 5, 5);
   c0->ShaderType = (enum nv_sph_ShaderType)b(w[0], 10, 4);
   c0->MrtEnable = b(w[0], 14, 1);
   c0->KillsPixels = b(w[0], 15, 1);
   c0->DoesGlobalStore = b(w[0], 16, 1);
   c0->SassVersion = (uint8_t)b(w[0], 17, 4);
   c0->Reserved = (uint8_t)b(w[0], 21, 5);
   c0->DoesLoadOrStore = b(w[0], 26, 1);
   c0->DoesFp64 = b(w[0], 27, 1);
   c0->StreamOutMask = (uint8_t)b(w[0], 28, 4);
   h->CommonWord1.ShaderLocalMemoryLowSize = w[1] & 0xffffff;
   h->CommonWord1.PerPatchAttributeCount = (uint8_t)(w[1] >> 24);
   h->CommonWord2.ShaderLocalMemoryHighSize = w[2] & 0xffffff;
   h->CommonWord2.ThreadsPerInputPrimitive = (uint8_t)(w[2] >> 24);
   h->CommonWord3.ShaderLocalMemoryCrsSize = w[3] & 0xffffff;
   h->CommonWord3.OutputTopology = (enum nv_sph_OutputTopology)b(w[3], 24, 4);
   h->CommonWord3.Reserved = (uint8_t)b(w[3], 28, 4);
   h->CommonWord4.MaxOutputVertexCount = (uint16_t)b(w[4], 0, 12);
   h->CommonWord4.StoreReqStart = (uint8_t)b(w[4], 12, 8);
   h->CommonWord4.Reserved = (uint8_t)b(w[4], 20, 4);
   h->CommonWord4.StoreReqEnd = (uint8_t)(w[4] >> 24);
   h->ImapSystemValuesA.Reserved0 = (uint8_t)b(w[5], 0, 4);
   h->ImapSystemValuesA.ImapTessellationLodLeft = b(w[5], 4, 1);
   h->ImapSystemValuesA.ImapTessellationLodRight = b(w[5], 5, 1);
   h->ImapSystemValuesA.ImapTessellationLodBottom = b(w[5], 6, 1);
   h->ImapSystemValuesA.ImapTessellationLodTop = b(w[5], 7, 1);
   h->ImapSystemValuesA.ImapTessellationInteriorU = b(w[5], 8, 1);
   h->ImapSystemValuesA.ImapTessellationInteriorV = b(w[5], 9, 1);
   h->ImapSystemValuesA.Reserved1 = (uint16_t)b(w[5], 10, 14);
   h->ImapSystemValuesB.ImapPrimitiveId = b(w[5], 24, 1);
   h->ImapSystemValuesB.ImapRtArrayIndex = b(w[5], 25, 1);
   h->ImapSystemValuesB.ImapViewportIndex = b(w[5], 26, 1);
   h->ImapSystemValuesB.ImapPointSize = b(w[5], 27, 1);
   h->ImapSystemValuesB.ImapPositionX = b(w[5], 28, 1);
   h->ImapSystemValuesB.ImapPositionY = b(w[5], 29, 1);
   h->ImapSystemValuesB.ImapPositionZ = b(w[5], 30, 1);
   h->ImapSystemValuesB.ImapPositionW = b(w[5], 31, 1);
}

/* the 16 one-bit colour components and the system values C row share a
 * shape between Imap and Omap, so take pointers to the bools in order */
static void bools16(uint32_t bits, bool *const dst[16])
{
   for (unsigned i = 0; i < 16; i++)
      *dst[i] = (bits >> i) & 1;
}

/* the ImapSystemValuesC row is the same 16 bits in both layouts */
static void imap_sysvals_c(uint32_t x, struct nv_sph_ImapSystemValuesC *s)
{
   s->ImapClipDistance0 = x & 1, s->ImapClipDistance1 = (x >> 1) & 1, s->ImapClipDistance2 = (x >> 2) & 1;
   s->ImapClipDistance3 = (x >> 3) & 1, s->ImapClipDistance4 = (x >> 4) & 1, s->ImapClipDistance5 = (x >> 5) & 1;
   s->ImapClipDistance6 = (x >> 6) & 1, s->ImapClipDistance7 = (x >> 7) & 1, s->ImapPointSpriteS = (x >> 8) & 1;
   s->ImapPointSpriteT = (x >> 9) & 1, s->ImapFogCoordinate = (x >> 10) & 1, s->Reserved = (x >> 11) & 1;
   s->ImapTessellationEvaluationPointU = (x >> 12) & 1, s->ImapTessellationEvaluationPointV = (x >> 13) & 1;
   s->ImapInstanceId = (x >> 14) & 1, s->ImapVertexId = (x >> 15) & 1;
}

static void unpack_vtg(const uint32_t *w, struct nv_sph_Header *h)
{
   struct nv_sph_Header_VTG *v = &h->u.VTG;
   for (unsigned i = 0; i < 32; i++) {
      uint32_t in = w[6 + i / 8] >> (4 * (i % 8));
      uint32_t out = (i < 4 ? w[13] >> (16 + 4 * i) : w[14 + (i - 4) / 8] >> (4 * ((i - 4) % 8)));
      v->ImapGenericVector[i].ImapX = in & 1;
      v->ImapGenericVector[i].ImapY = (in >> 1) & 1;
      v->ImapGenericVector[i].ImapZ = (in >> 2) & 1;
      v->ImapGenericVector[i].ImapW = (in >> 3) & 1;
      v->OmapGenericVector[i].OmapX = out & 1;
      v->OmapGenericVector[i].OmapY = (out >> 1) & 1;
      v->OmapGenericVector[i].OmapZ = (out >> 2) & 1;
      v->OmapGenericVector[i].OmapW = (out >> 3) & 1;
   }
   {
      struct nv_sph_ImapColor *c = &v->ImapColor;
      bool *const ic[16] = {&c->ImapColorFrontDiffuseRed, &c->ImapColorFrontDiffuseGreen, &c->ImapColorFrontDiffuseBlue,
                            &c->ImapColorFrontDiffuseAlpha, &c->ImapColorFrontSpecularRed, &c->ImapColorFrontSpecularGreen,
                            &c->ImapColorFrontSpecularBlue, &c->ImapColorFrontSpecularAlpha, &c->ImapColorBackDiffuseRed,
                            &c->ImapColorBackDiffuseGreen, &c->ImapColorBackDiffuseBlue, &c->ImapColorBackDiffuseAlpha,
                            &c->ImapColorBackSpecularRed, &c->ImapColorBackSpecularGreen, &c->ImapColorBackSpecularBlue,
                            &c->ImapColorBackSpecularAlpha};
      struct nv_sph_OmapColor *o = &v->OmapColor;
      bool *const oc[16] = {&o->OmapColorFrontDiffuseRed, &o->OmapColorFrontDiffuseGreen, &o->OmapColorFrontDiffuseBlue,
                            &o->OmapColorFrontDiffuseAlpha, &o->OmapColorFrontSpecularRed, &o->OmapColorFrontSpecularGreen,
                            &o->OmapColorFrontSpecularBlue, &o->OmapColorFrontSpecularAlpha, &o->OmapColorBackDiffuseRed,
                            &o->OmapColorBackDiffuseGreen, &o->OmapColorBackDiffuseBlue, &o->OmapColorBackDiffuseAlpha,
                            &o->OmapColorBackSpecularRed, &o->OmapColorBackSpecularGreen, &o->OmapColorBackSpecularBlue,
                            &o->OmapColorBackSpecularAlpha};
      bools16(w[10], ic);
      bools16(w[17] >> 16, oc);
   }
   imap_sysvals_c(w[10] >> 16, &v->ImapSystemValuesC);
   {
      struct nv_sph_OmapSystemValuesC *s = &v->OmapSystemValuesC;
      uint32_t x = w[18];
      s->OmapClipDistance0 = x & 1, s->OmapClipDistance1 = (x >> 1) & 1, s->OmapClipDistance2 = (x >> 2) & 1;
      s->OmapClipDistance3 = (x >> 3) & 1, s->OmapClipDistance4 = (x >> 4) & 1, s->OmapClipDistance5 = (x >> 5) & 1;
      s->OmapClipDistance6 = (x >> 6) & 1, s->OmapClipDistance7 = (x >> 7) & 1, s->OmapPointSpriteS = (x >> 8) & 1;
      s->OmapPointSpriteT = (x >> 9) & 1, s->OmapFogCoordinate = (x >> 10) & 1;
      s->OmapSystemValuesReserved17 = (x >> 11) & 1;
      s->OmapTessellationEvaluationPointU = (x >> 12) & 1, s->OmapTessellationEvaluationPointV = (x >> 13) & 1;
      s->OmapInstanceId = (x >> 14) & 1, s->OmapVertexId = (x >> 15) & 1;
   }
   for (unsigned i = 0; i < 10; i++) {
      unsigned bit = 352 + 4 * i, obit = 592 + 4 * i;
      uint32_t in = w[bit / 32] >> (bit % 32), out = w[obit / 32] >> (obit % 32);
      v->ImapFixedFncTexture[i].ImapS = in & 1, v->ImapFixedFncTexture[i].ImapT = (in >> 1) & 1;
      v->ImapFixedFncTexture[i].ImapR = (in >> 2) & 1, v->ImapFixedFncTexture[i].ImapQ = (in >> 3) & 1;
      v->OmapFixedFncTexture[i].OmapS = out & 1, v->OmapFixedFncTexture[i].OmapT = (out >> 1) & 1;
      v->OmapFixedFncTexture[i].OmapR = (out >> 2) & 1, v->OmapFixedFncTexture[i].OmapQ = (out >> 3) & 1;
   }
   v->ImapReserved = (uint8_t)b(w[12], 8, 8);
   {
      struct nv_sph_OmapSystemValuesA *a = &v->OmapSystemValuesA;
      a->Reserved0 = (uint8_t)b(w[12], 16, 4);
      a->OmapTessellationLodLeft = b(w[12], 20, 1), a->OmapTessellationLodRight = b(w[12], 21, 1);
      a->OmapTessellationLodBottom = b(w[12], 22, 1), a->OmapTessellationLodTop = b(w[12], 23, 1);
      a->OmapTessellationInteriorU = b(w[12], 24, 1), a->OmapTessellationInteriorV = b(w[12], 25, 1);
      a->Reserved1 = (uint16_t)(b(w[12], 26, 6) | b(w[13], 0, 8) << 6);
   }
   {
      struct nv_sph_OmapSystemValuesB *s = &v->OmapSystemValuesB;
      uint32_t x = w[13] >> 8;
      s->OmapPrimitiveId = x & 1, s->OmapRtArrayIndex = (x >> 1) & 1, s->OmapViewportIndex = (x >> 2) & 1;
      s->OmapPointSize = (x >> 3) & 1, s->OmapPositionX = (x >> 4) & 1, s->OmapPositionY = (x >> 5) & 1;
      s->OmapPositionZ = (x >> 6) & 1, s->OmapPositionW = (x >> 7) & 1;
   }
   v->OmapReserved = (uint8_t)(w[19] >> 24);
}

static void unpack_ps(const uint32_t *w, struct nv_sph_Header *h)
{
   struct nv_sph_Header_PS *p = &h->u.PS;
   for (unsigned i = 0; i < 32; i++) {
      uint32_t x = w[6 + i / 4] >> (8 * (i % 4));
      p->ImapGenericVector[i].ImapX = (enum nv_sph_PixelImap)(x & 3);
      p->ImapGenericVector[i].ImapY = (enum nv_sph_PixelImap)((x >> 2) & 3);
      p->ImapGenericVector[i].ImapZ = (enum nv_sph_PixelImap)((x >> 4) & 3);
      p->ImapGenericVector[i].ImapW = (enum nv_sph_PixelImap)((x >> 6) & 3);
   }
   {
      struct nv_sph_ImapPixelColor *c = &p->ImapColor;
      uint32_t x = w[14];
      c->ImapColorDiffuseRed = (enum nv_sph_PixelImap)(x & 3);
      c->ImapColorDiffuseGreen = (enum nv_sph_PixelImap)((x >> 2) & 3);
      c->ImapColorDiffuseBlue = (enum nv_sph_PixelImap)((x >> 4) & 3);
      c->ImapColorDiffuseAlpha = (enum nv_sph_PixelImap)((x >> 6) & 3);
      c->ImapColorSpecularRed = (enum nv_sph_PixelImap)((x >> 8) & 3);
      c->ImapColorSpecularGreen = (enum nv_sph_PixelImap)((x >> 10) & 3);
      c->ImapColorSpecularBlue = (enum nv_sph_PixelImap)((x >> 12) & 3);
      c->ImapColorSpecularAlpha = (enum nv_sph_PixelImap)((x >> 14) & 3);
   }
   imap_sysvals_c(w[14] >> 16, &p->ImapSystemValuesC);
   for (unsigned i = 0; i < 10; i++) {
      uint32_t x = w[15 + i / 4] >> (8 * (i % 4));
      p->ImapFixedFncTexture[i].ImapS = (enum nv_sph_PixelImap)(x & 3);
      p->ImapFixedFncTexture[i].ImapT = (enum nv_sph_PixelImap)((x >> 2) & 3);
      p->ImapFixedFncTexture[i].ImapR = (enum nv_sph_PixelImap)((x >> 4) & 3);
      p->ImapFixedFncTexture[i].ImapQ = (enum nv_sph_PixelImap)((x >> 6) & 3);
   }
   p->ImapReserved = (uint16_t)(w[17] >> 16);
   for (unsigned t = 0; t < 8; t++) {
      uint32_t x = w[18] >> (4 * t);
      p->OmapTarget[t].OmapRed = x & 1, p->OmapTarget[t].OmapGreen = (x >> 1) & 1;
      p->OmapTarget[t].OmapBlue = (x >> 2) & 1, p->OmapTarget[t].OmapAlpha = (x >> 3) & 1;
   }
   p->OmapSampleMask = w[19] & 1;
   p->OmapDepth = (w[19] >> 1) & 1;
   p->OmapReserved = w[19] >> 2;
}

int sph_baseline_unpack(const uint8_t *buf, size_t len, struct nv_sph_Header *h)
{
   uint32_t w[20];
   if (len < 80)
      return -1;
   for (unsigned i = 0; i < 20; i++)
      w[i] = (uint32_t)buf[4 * i] | (uint32_t)buf[4 * i + 1] << 8 | (uint32_t)buf[4 * i + 2] << 16 |
             (uint32_t)buf[4 * i + 3] << 24;
   unpack_common(w, h);
   switch (w[0] & 31) {
   case 1:
      h->variant = NV_SPH_HEADER_VTG;
      unpack_vtg(w, h);
      return 0;
   case 2:
      h->variant = NV_SPH_HEADER_PS;
      unpack_ps(w, h);
      return 0;
   default:
      return -1;
   }
}

/* ---- pack ----------------------------------------------------------------- */

static inline uint32_t u(unsigned v, unsigned shift)
{
   return (uint32_t)v << shift;
}

static uint32_t bools16_pack(const bool *const src[16])
{
   uint32_t x = 0;
   for (unsigned i = 0; i < 16; i++)
      x |= (uint32_t)*src[i] << i;
   return x;
}

static uint32_t imap_sysvals_c_pack(const struct nv_sph_ImapSystemValuesC *s)
{
   return u(s->ImapClipDistance0, 0) | u(s->ImapClipDistance1, 1) | u(s->ImapClipDistance2, 2) |
          u(s->ImapClipDistance3, 3) | u(s->ImapClipDistance4, 4) | u(s->ImapClipDistance5, 5) |
          u(s->ImapClipDistance6, 6) | u(s->ImapClipDistance7, 7) | u(s->ImapPointSpriteS, 8) |
          u(s->ImapPointSpriteT, 9) | u(s->ImapFogCoordinate, 10) | u(s->Reserved, 11) |
          u(s->ImapTessellationEvaluationPointU, 12) | u(s->ImapTessellationEvaluationPointV, 13) |
          u(s->ImapInstanceId, 14) | u(s->ImapVertexId, 15);
}

static void pack_vtg(const struct nv_sph_Header_VTG *v, uint32_t *w)
{
   for (unsigned i = 0; i < 32; i++) {
      const struct nv_sph_ImapVector *iv = &v->ImapGenericVector[i];
      const struct nv_sph_OmapVector *ov = &v->OmapGenericVector[i];
      uint32_t in = u(iv->ImapX, 0) | u(iv->ImapY, 1) | u(iv->ImapZ, 2) | u(iv->ImapW, 3);
      uint32_t out = u(ov->OmapX, 0) | u(ov->OmapY, 1) | u(ov->OmapZ, 2) | u(ov->OmapW, 3);
      w[6 + i / 8] |= in << (4 * (i % 8));
      if (i < 4)
         w[13] |= out << (16 + 4 * i);
      else
         w[14 + (i - 4) / 8] |= out << (4 * ((i - 4) % 8));
   }
   {
      const struct nv_sph_ImapColor *c = &v->ImapColor;
      const bool *const ic[16] = {&c->ImapColorFrontDiffuseRed, &c->ImapColorFrontDiffuseGreen, &c->ImapColorFrontDiffuseBlue,
                                  &c->ImapColorFrontDiffuseAlpha, &c->ImapColorFrontSpecularRed, &c->ImapColorFrontSpecularGreen,
                                  &c->ImapColorFrontSpecularBlue, &c->ImapColorFrontSpecularAlpha, &c->ImapColorBackDiffuseRed,
                                  &c->ImapColorBackDiffuseGreen, &c->ImapColorBackDiffuseBlue, &c->ImapColorBackDiffuseAlpha,
                                  &c->ImapColorBackSpecularRed, &c->ImapColorBackSpecularGreen, &c->ImapColorBackSpecularBlue,
                                  &c->ImapColorBackSpecularAlpha};
      const struct nv_sph_OmapColor *o = &v->OmapColor;
      const bool *const oc[16] = {&o->OmapColorFrontDiffuseRed, &o->OmapColorFrontDiffuseGreen, &o->OmapColorFrontDiffuseBlue,
                                  &o->OmapColorFrontDiffuseAlpha, &o->OmapColorFrontSpecularRed, &o->OmapColorFrontSpecularGreen,
                                  &o->OmapColorFrontSpecularBlue, &o->OmapColorFrontSpecularAlpha, &o->OmapColorBackDiffuseRed,
                                  &o->OmapColorBackDiffuseGreen, &o->OmapColorBackDiffuseBlue, &o->OmapColorBackDiffuseAlpha,
                                  &o->OmapColorBackSpecularRed, &o->OmapColorBackSpecularGreen, &o->OmapColorBackSpecularBlue,
                                  &o->OmapColorBackSpecularAlpha};
      w[10] |= bools16_pack(ic);
      w[17] |= bools16_pack(oc) << 16;
   }
   w[10] |= imap_sysvals_c_pack(&v->ImapSystemValuesC) << 16;
   {
      const struct nv_sph_OmapSystemValuesC *s = &v->OmapSystemValuesC;
      w[18] |= u(s->OmapClipDistance0, 0) | u(s->OmapClipDistance1, 1) | u(s->OmapClipDistance2, 2) |
               u(s->OmapClipDistance3, 3) | u(s->OmapClipDistance4, 4) | u(s->OmapClipDistance5, 5) |
               u(s->OmapClipDistance6, 6) | u(s->OmapClipDistance7, 7) | u(s->OmapPointSpriteS, 8) |
               u(s->OmapPointSpriteT, 9) | u(s->OmapFogCoordinate, 10) | u(s->OmapSystemValuesReserved17, 11) |
               u(s->OmapTessellationEvaluationPointU, 12) | u(s->OmapTessellationEvaluationPointV, 13) |
               u(s->OmapInstanceId, 14) | u(s->OmapVertexId, 15);
   }
   for (unsigned i = 0; i < 10; i++) {
      const struct nv_sph_ImapTexture *it = &v->ImapFixedFncTexture[i];
      const struct nv_sph_OmapTexture *ot = &v->OmapFixedFncTexture[i];
      unsigned bit = 352 + 4 * i, obit = 592 + 4 * i;
      w[bit / 32] |= (u(it->ImapS, 0) | u(it->ImapT, 1) | u(it->ImapR, 2) | u(it->ImapQ, 3)) << (bit % 32);
      w[obit / 32] |= (u(ot->OmapS, 0) | u(ot->OmapT, 1) | u(ot->OmapR, 2) | u(ot->OmapQ, 3)) << (obit % 32);
   }
   w[12] |= u(v->ImapReserved & 0xff, 8);
   {
      const struct nv_sph_OmapSystemValuesA *a = &v->OmapSystemValuesA;
      w[12] |= u(a->Reserved0 & 15, 16) | u(a->OmapTessellationLodLeft, 20) | u(a->OmapTessellationLodRight, 21) |
               u(a->OmapTessellationLodBottom, 22) | u(a->OmapTessellationLodTop, 23) |
               u(a->OmapTessellationInteriorU, 24) | u(a->OmapTessellationInteriorV, 25) | u(a->Reserved1 & 63, 26);
      w[13] |= (a->Reserved1 >> 6) & 0xff;
   }
   {
      const struct nv_sph_OmapSystemValuesB *s = &v->OmapSystemValuesB;
      w[13] |= (u(s->OmapPrimitiveId, 0) | u(s->OmapRtArrayIndex, 1) | u(s->OmapViewportIndex, 2) |
                u(s->OmapPointSize, 3) | u(s->OmapPositionX, 4) | u(s->OmapPositionY, 5) | u(s->OmapPositionZ, 6) |
                u(s->OmapPositionW, 7))
               << 8;
   }
   w[19] |= u(v->OmapReserved & 0xff, 24);
}

static void pack_ps(const struct nv_sph_Header_PS *p, uint32_t *w)
{
   for (unsigned i = 0; i < 32; i++) {
      const struct nv_sph_ImapPixelVector *g = &p->ImapGenericVector[i];
      uint32_t x = u(g->ImapX & 3, 0) | u(g->ImapY & 3, 2) | u(g->ImapZ & 3, 4) | u(g->ImapW & 3, 6);
      w[6 + i / 4] |= x << (8 * (i % 4));
   }
   {
      const struct nv_sph_ImapPixelColor *c = &p->ImapColor;
      w[14] |= u(c->ImapColorDiffuseRed & 3, 0) | u(c->ImapColorDiffuseGreen & 3, 2) | u(c->ImapColorDiffuseBlue & 3, 4) |
               u(c->ImapColorDiffuseAlpha & 3, 6) | u(c->ImapColorSpecularRed & 3, 8) |
               u(c->ImapColorSpecularGreen & 3, 10) | u(c->ImapColorSpecularBlue & 3, 12) |
               u(c->ImapColorSpecularAlpha & 3, 14);
   }
   w[14] |= imap_sysvals_c_pack(&p->ImapSystemValuesC) << 16;
   for (unsigned i = 0; i < 10; i++) {
      const struct nv_sph_ImapPixelTexture *t = &p->ImapFixedFncTexture[i];
      w[15 + i / 4] |= (u(t->ImapS & 3, 0) | u(t->ImapT & 3, 2) | u(t->ImapR & 3, 4) | u(t->ImapQ & 3, 6))
                       << (8 * (i % 4));
   }
   w[17] |= u(p->ImapReserved, 16);
   for (unsigned t = 0; t < 8; t++) {
      const struct nv_sph_OmapTarget *o = &p->OmapTarget[t];
      w[18] |= (u(o->OmapRed, 0) | u(o->OmapGreen, 1) | u(o->OmapBlue, 2) | u(o->OmapAlpha, 3)) << (4 * t);
   }
   w[19] |= u(p->OmapSampleMask, 0) | u(p->OmapDepth, 1) | (p->OmapReserved & 0x3fffffffu) << 2;
}

void sph_baseline_pack(const struct nv_sph_Header *h, uint8_t *out)
{
   uint32_t w[20];
   const struct nv_sph_CommonWord0 *c0 = &h->CommonWord0;
   memset(w, 0, sizeof w);
   w[0] = u(c0->SphType & 31, 0) | u(c0->Version & 31, 5) | u(c0->ShaderType & 15, 10) | u(c0->MrtEnable, 14) |
          u(c0->KillsPixels, 15) | u(c0->DoesGlobalStore, 16) | u(c0->SassVersion & 15, 17) |
          u(c0->Reserved & 31, 21) | u(c0->DoesLoadOrStore, 26) | u(c0->DoesFp64, 27) | u(c0->StreamOutMask & 15, 28);
   w[1] = (h->CommonWord1.ShaderLocalMemoryLowSize & 0xffffff) | u(h->CommonWord1.PerPatchAttributeCount, 24);
   w[2] = (h->CommonWord2.ShaderLocalMemoryHighSize & 0xffffff) | u(h->CommonWord2.ThreadsPerInputPrimitive, 24);
   w[3] = (h->CommonWord3.ShaderLocalMemoryCrsSize & 0xffffff) | u(h->CommonWord3.OutputTopology & 15, 24) |
          u(h->CommonWord3.Reserved & 15, 28);
   w[4] = (h->CommonWord4.MaxOutputVertexCount & 0xfffu) | u(h->CommonWord4.StoreReqStart, 12) |
          u(h->CommonWord4.Reserved & 15, 20) | u(h->CommonWord4.StoreReqEnd, 24);
   {
      const struct nv_sph_ImapSystemValuesA *a = &h->ImapSystemValuesA;
      const struct nv_sph_ImapSystemValuesB *s = &h->ImapSystemValuesB;
      w[5] = u(a->Reserved0 & 15, 0) | u(a->ImapTessellationLodLeft, 4) | u(a->ImapTessellationLodRight, 5) |
             u(a->ImapTessellationLodBottom, 6) | u(a->ImapTessellationLodTop, 7) | u(a->ImapTessellationInteriorU, 8) |
             u(a->ImapTessellationInteriorV, 9) | u(a->Reserved1 & 0x3fff, 10) | u(s->ImapPrimitiveId, 24) |
             u(s->ImapRtArrayIndex, 25) | u(s->ImapViewportIndex, 26) | u(s->ImapPointSize, 27) |
             u(s->ImapPositionX, 28) | u(s->ImapPositionY, 29) | u(s->ImapPositionZ, 30) | u(s->ImapPositionW, 31);
   }
   if (h->variant == NV_SPH_HEADER_VTG)
      pack_vtg(&h->u.VTG, w);
   else if (h->variant == NV_SPH_HEADER_PS)
      pack_ps(&h->u.PS, w);
   for (unsigned i = 0; i < 20; i++) {
      out[4 * i] = (uint8_t)w[i];
      out[4 * i + 1] = (uint8_t)(w[i] >> 8);
      out[4 * i + 2] = (uint8_t)(w[i] >> 16);
      out[4 * i + 3] = (uint8_t)(w[i] >> 24);
   }
}

/* The baseline of the checked pack: the same, after the range checks a
 * careful hand-written encoder makes (the fields narrower than their C
 * type: the enums, the 24-bit sizes, the narrow counters, reserved rows). */
int sph_baseline_pack_checked(const struct nv_sph_Header *h, uint8_t *out)
{
   const struct nv_sph_CommonWord0 *c0 = &h->CommonWord0;
   if (c0->SphType > 31 || c0->Version > 31 || c0->ShaderType > 15 || c0->SassVersion > 15 || c0->Reserved > 31 ||
       c0->StreamOutMask > 15 || h->CommonWord1.ShaderLocalMemoryLowSize > 0xffffff ||
       h->CommonWord2.ShaderLocalMemoryHighSize > 0xffffff || h->CommonWord3.ShaderLocalMemoryCrsSize > 0xffffff ||
       h->CommonWord3.OutputTopology > 15 || h->CommonWord3.Reserved > 15 ||
       h->CommonWord4.MaxOutputVertexCount > 0xfff || h->CommonWord4.Reserved > 15 ||
       h->ImapSystemValuesA.Reserved0 > 15 || h->ImapSystemValuesA.Reserved1 > 0x3fff)
      return -1;
   if (h->variant == NV_SPH_HEADER_VTG) {
      const struct nv_sph_Header_VTG *v = &h->u.VTG;
      if ((c0->SphType & 31) != 1 || v->OmapSystemValuesA.Reserved0 > 15 || v->OmapSystemValuesA.Reserved1 > 0x3fff)
         return -1;
   } else if (h->variant == NV_SPH_HEADER_PS) {
      const struct nv_sph_Header_PS *p = &h->u.PS;
      if ((c0->SphType & 31) != 2 || p->OmapReserved > 0x3fffffff)
         return -1;
      for (unsigned i = 0; i < 32; i++) {
         const struct nv_sph_ImapPixelVector *g = &p->ImapGenericVector[i];
         if ((g->ImapX | g->ImapY | g->ImapZ | g->ImapW) > 3)
            return -1;
      }
      for (unsigned i = 0; i < 10; i++) {
         const struct nv_sph_ImapPixelTexture *t = &p->ImapFixedFncTexture[i];
         if ((t->ImapS | t->ImapT | t->ImapR | t->ImapQ) > 3)
            return -1;
      }
      if ((p->ImapColor.ImapColorDiffuseRed | p->ImapColor.ImapColorDiffuseGreen | p->ImapColor.ImapColorDiffuseBlue |
           p->ImapColor.ImapColorDiffuseAlpha | p->ImapColor.ImapColorSpecularRed |
           p->ImapColor.ImapColorSpecularGreen | p->ImapColor.ImapColorSpecularBlue |
           p->ImapColor.ImapColorSpecularAlpha) > 3)
         return -1;
   } else {
      return -1;
   }
   sph_baseline_pack(h, out);
   return 0;
}
