/* The NVIDIA SPH through the generated C API (the corpus as a whole is in
 * test_corpus.c): driver headers, the default display, truncation, bad
 * selectors, out-of-range values, validator rules; and SPH version 4
 * (nv-sph@v4) built field by field from the bit numbers of sph.md 6a. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "corpus.h"
#include "helpers.h"
#include "nv_sph.h"
#include "nv_sph_v4.h"

static void hex_header(const char *id, struct nv_sph_Header *h, uint8_t bytes[80])
{
   for (unsigned i = 0; i < corpus_nv_sph_count; i++)
      if (!strcmp(corpus_nv_sph[i].id, id)) {
         struct isa_error err;
         hex_bytes(corpus_nv_sph[i].hex, bytes, 80);
         cr_assert_eq(nv_sph_Header_unpack(bytes, 80, h, &err), ISA_OK);
         return;
      }
   cr_assert_fail("no corpus entry %s", id);
}

/* K1 is Mesa nvc0's vertex header: w0 = 0x00020461 (SphType 1, Version 3,
 * ShaderType VERTEX, SassVersion 1), w4 = 0x000ff000 (StoreReqStart 255). */
Test(sph, k1_reads_as_the_driver_wrote_it)
{
   struct nv_sph_Header h;
   uint8_t b[80];
   hex_header("K1", &h, b);
   cr_assert_eq(isa_load_le32(b), 0x00020461u);
   cr_assert_eq(h.variant, NV_SPH_HEADER_VTG);
   cr_assert_eq(h.CommonWord0.SphType, NV_SPH_SPH_TYPE_VTG);
   cr_assert_eq(h.CommonWord0.Version, 3);
   cr_assert_eq(h.CommonWord0.ShaderType, NV_SPH_SHADER_TYPE_VERTEX);
   cr_assert_eq(h.CommonWord0.SassVersion, 1);
   cr_assert_eq(h.CommonWord4.StoreReqStart, 255);
   cr_assert_eq(h.CommonWord4.StoreReqEnd, 0);
}

/* The default display lists the rows with something set, one per line
 * (docs/xml-reference.md, "Default display"). */
Test(sph, default_display_lists_the_set_fields)
{
   struct nv_sph_Header h;
   uint8_t b[80];
   char text[512];
   struct isa_out o;
   struct isa_ctx ctx = {0};
   ctx.size = 640;
   hex_header("K1", &h, b);
   isa_out_buffer(&o, text, sizeof text);
   cr_assert_eq(nv_sph_Header_print(&h, &o, &ctx), ISA_OK);
   cr_assert_str_eq(text, "CommonWord0: SphType=VTG Version=3 ShaderType=VERTEX SassVersion=1\n"
                          "CommonWord4: StoreReqStart=255");
   /* K7 (blitter): Imap gen[0].XY, gen[1].XYZ; Omap position XY, gen[0].XYZ */
   hex_header("K7", &h, b);
   isa_out_buffer(&o, text, sizeof text);
   nv_sph_Header_print(&h, &o, &ctx);
   cr_assert(strstr(text, "\nImapGenericVector[0]: ImapX ImapY\nImapGenericVector[1]: ImapX ImapY ImapZ\n"),
             "%s", text);
   cr_assert(strstr(text, "\nOmapSystemValuesB: OmapPositionX OmapPositionY\n"), "%s", text);
   cr_assert(strstr(text, "\nOmapGenericVector[0]: OmapX OmapY OmapZ"), "%s", text);
}

Test(sph, pixel_layout_reads_two_bit_interpolation_modes)
{
   struct nv_sph_Header h;
   uint8_t b[80];
   hex_header("K10", &h, b); /* xf86-video-nouveau: gen0.XY perspective, target 0 RGBA */
   cr_assert_eq(h.variant, NV_SPH_HEADER_PS);
   cr_assert_eq(h.u.PS.ImapGenericVector[0].ImapX, NV_SPH_PIXEL_IMAP_PERSPECTIVE);
   cr_assert_eq(h.u.PS.ImapGenericVector[0].ImapY, NV_SPH_PIXEL_IMAP_PERSPECTIVE);
   cr_assert_eq(h.u.PS.ImapGenericVector[0].ImapZ, NV_SPH_PIXEL_IMAP_UNUSED);
   cr_assert(h.u.PS.OmapTarget[0].OmapRed && h.u.PS.OmapTarget[0].OmapAlpha);
   cr_assert(h.ImapSystemValuesB.ImapPositionW);
}

Test(sph, truncated_input_is_an_error_at_every_length)
{
   uint8_t b[80];
   struct nv_sph_Header h;
   memset(b, 0, sizeof b);
   b[0] = 0x61;
   for (size_t len = 0; len < 80; len++) {
      struct isa_error err;
      isa_error_clear(&err);
      cr_assert_eq(nv_sph_Header_unpack(b, len, &h, &err), ISA_ERR_TRUNCATED, "length %zu", len);
      cr_assert_eq(err.need, 640u);
      cr_assert_eq(err.have, len * 8);
   }
}

Test(sph, sph_type_outside_the_enum_selects_no_layout)
{
   uint8_t b[80];
   struct nv_sph_Header h;
   memset(b, 0, sizeof b);
   for (unsigned t = 0; t < 32; t++) {
      struct isa_error err;
      b[0] = (uint8_t)(0x60 | t);
      int r = nv_sph_Header_unpack(b, 80, &h, &err);
      if (t == 1 || t == 2)
         cr_assert_eq(r, ISA_OK, "SphType %u", t);
      else
         cr_assert_eq(r, ISA_ERR_NO_MATCH, "SphType %u", t);
   }
}

Test(sph, checked_pack_rejects_out_of_range_values)
{
   struct nv_sph_Header h;
   uint8_t b[80], out[80];
   struct isa_error err;
   size_t size;
   hex_header("K1", &h, b);
   h.CommonWord0.Version = 32;
   cr_assert_eq(nv_sph_Header_pack_checked(&h, out, sizeof out, &size, &err), ISA_ERR_RANGE);
   cr_assert_str_eq(err.field, "CommonWord0.Version");
   cr_assert_eq(err.value, 32);
   cr_assert_eq(err.max, 31);
   h.CommonWord0.Version = 3;
   h.CommonWord0.ShaderType = (enum nv_sph_ShaderType)16;
   cr_assert_eq(nv_sph_Header_pack_checked(&h, out, sizeof out, &size, &err), ISA_ERR_RANGE);
   cr_assert_str_eq(err.field, "CommonWord0.ShaderType");
   h.CommonWord0.ShaderType = NV_SPH_SHADER_TYPE_VERTEX;
   h.CommonWord1.ShaderLocalMemoryLowSize = 1u << 24;
   cr_assert_eq(nv_sph_Header_pack_checked(&h, out, sizeof out, &size, &err), ISA_ERR_RANGE);
   cr_assert_str_eq(err.field, "CommonWord1.ShaderLocalMemoryLowSize");
   /* the unchecked pack masks instead: documented fast path */
   nv_sph_Header_pack(&h, out);
   cr_assert_eq(isa_load_le32(out + 4), 0u);
}

Test(sph, checked_pack_rejects_a_variant_its_fields_do_not_select)
{
   struct nv_sph_Header h;
   uint8_t b[80], out[80];
   struct isa_error err;
   size_t size;
   hex_header("K1", &h, b);
   h.CommonWord0.SphType = NV_SPH_SPH_TYPE_PS; /* but the VTG layout is filled in */
   cr_assert_eq(nv_sph_Header_pack_checked(&h, out, sizeof out, &size, &err), ISA_ERR_INCONSISTENT);
   h.variant = 0;
   cr_assert_eq(nv_sph_Header_pack_checked(&h, out, sizeof out, &size, &err), ISA_ERR_INCONSISTENT);
   h.variant = NV_SPH_HEADER_PS;
   memset(&h.u.PS, 0, sizeof h.u.PS);
   cr_assert_eq(nv_sph_Header_pack_checked(&h, out, 79, &size, &err), ISA_ERR_NOSPACE);
   cr_assert_eq(nv_sph_Header_pack_checked(&h, out, 80, &size, &err), ISA_OK);
}

/* Switching an unpacked header to the other view: S_set_variant starts the
 * view over (zero, then defaults), so whatever the struct held before --
 * here 0xa5 in every byte, then the VTG view -- nothing of it packs.  The
 * bytes expected are K1's with SphType 2 (PS) in bits 0..4 and OmapDepth,
 * bit 609, set.  The same through reflection, by the variant's name.
 * (tests/valgrind/variant_switch.c does it on an uninitialised struct.) */
Test(sph, switching_the_variant_starts_its_view_over)
{
   struct nv_sph_Header h;
   uint8_t b[80], want[80], out[80];
   struct isa_error err;
   size_t size;
   for (int by_name = 0; by_name < 2; by_name++) {
      memset(&h, 0xa5, sizeof h);
      hex_header("K1", &h, b);
      memcpy(want, b, sizeof want);
      want[0] = (uint8_t)((b[0] & ~0x1fu) | 2u);
      want[609 / 8] |= (uint8_t)(1u << (609 % 8));
      if (by_name)
         cr_assert_eq(isa_variant_set(&nv_sph_Header_desc, &h, "PS"), ISA_OK);
      else
         nv_sph_Header_set_variant(&h, NV_SPH_HEADER_PS);
      cr_assert_eq(h.variant, NV_SPH_HEADER_PS);
      h.CommonWord0.SphType = NV_SPH_SPH_TYPE_PS;
      h.u.PS.OmapDepth = true;
      cr_assert_eq(nv_sph_Header_pack_checked(&h, out, sizeof out, &size, &err), ISA_OK, "by name: %d", by_name);
      cr_assert_arr_eq(out, want, sizeof want, "by name: %d", by_name);
   }
}

struct seen {
   char rules[16][64];
   char fields[16][96];
   int sev[16];
   unsigned n;
};

static void remember(void *user, const struct isa_finding *f)
{
   struct seen *s = (struct seen *)user;
   if (s->n < 16) {
      snprintf(s->rules[s->n], sizeof s->rules[0], "%s", f->rule);
      snprintf(s->fields[s->n], sizeof s->fields[0], "%s", f->field);
      s->sev[s->n] = f->severity;
      s->n++;
   }
}

static struct seen validate(const struct nv_sph_Header *h)
{
   struct seen s;
   struct isa_findings f;
   struct isa_ctx ctx = {0};
   ctx.size = 640;
   memset(&s, 0, sizeof s);
   memset(&f, 0, sizeof f);
   f.emit = remember;
   f.user = &s;
   nv_sph_Header_validate(h, &f, &ctx, NULL);
   return s;
}

static int has(const struct seen *s, const char *rule, const char *field, int sev)
{
   for (unsigned i = 0; i < s->n; i++)
      if (!strcmp(s->rules[i], rule) && !strcmp(s->fields[i], field) && s->sev[i] == sev)
         return 1;
   return 0;
}

Test(sph_check, driver_headers_are_clean)
{
   const char *clean[] = {"K1", "K2a", "K3", "K4a", "K4b", "K4c", "K5a", "K6", "K7", "K9", "K10", "K12"};
   for (unsigned i = 0; i < sizeof clean / sizeof clean[0]; i++) {
      struct nv_sph_Header h;
      uint8_t b[80];
      hex_header(clean[i], &h, b);
      struct seen s = validate(&h);
      cr_assert_eq(s.n, 0u, "%s: %u findings, first %s %s", clean[i], s.n, s.rules[0], s.fields[0]);
   }
}

Test(sph_check, gm107_per_patch_copy_is_a_warning)
{
   struct nv_sph_Header h;
   uint8_t b[80];
   hex_header("K2b", &h, b);
   struct seen s = validate(&h);
   cr_assert(has(&s, "reserved", "CommonWord3.Reserved", ISA_SEV_WARNING));
   cr_assert_eq(s.n, 1u, "the copy agrees with PerPatchAttributeCount: nothing else");
   h.CommonWord3.Reserved = 5; /* disagrees with PerPatchAttributeCount 12 */
   s = validate(&h);
   cr_assert(has(&s, "per-patch-copy-low", "CommonWord3.Reserved", ISA_SEV_WARNING));
}

Test(sph_check, seed_rules)
{
   struct nv_sph_Header h;
   uint8_t b[80];
   struct seen s;
   hex_header("K1", &h, b);
   h.CommonWord0.ShaderType = NV_SPH_SHADER_TYPE_PIXEL; /* in a VTG header */
   s = validate(&h);
   cr_assert(has(&s, "sph-type-matches-shader-type", "CommonWord0.SphType", ISA_SEV_ERROR));
   hex_header("K1", &h, b);
   h.CommonWord3.ShaderLocalMemoryCrsSize = 513;
   s = validate(&h);
   cr_assert(has(&s, "crs-size-multiple-of-512", "CommonWord3.ShaderLocalMemoryCrsSize", ISA_SEV_ERROR));
   h.CommonWord3.ShaderLocalMemoryCrsSize = 0x100200;
   s = validate(&h);
   cr_assert(has(&s, "crs-size-at-most-1mib", "CommonWord3.ShaderLocalMemoryCrsSize", ISA_SEV_ERROR));
   hex_header("K4a", &h, b);
   h.CommonWord3.OutputTopology = (enum nv_sph_OutputTopology)2;
   h.CommonWord4.MaxOutputVertexCount = 1025;
   s = validate(&h);
   cr_assert(has(&s, "output-topology-geometry", "CommonWord3.OutputTopology", ISA_SEV_ERROR));
   cr_assert(has(&s, "max-output-vertex-count-range", "CommonWord4.MaxOutputVertexCount", ISA_SEV_ERROR));
   hex_header("K1", &h, b);
   h.CommonWord0.KillsPixels = 1;
   h.CommonWord0.Reserved = 0x01;
   h.u.VTG.ImapFixedFncTexture[0].ImapS = 1; /* a normal field: no finding */
   s = validate(&h);
   cr_assert(has(&s, "pixel-only-fields", "CommonWord0", ISA_SEV_WARNING));
   cr_assert(has(&s, "reserved", "CommonWord0.Reserved", ISA_SEV_WARNING));
   cr_assert(has(&s, "reserved-common-a-unused", "CommonWord0.Reserved", ISA_SEV_ERROR));
   h.CommonWord0.Reserved = 0x18; /* bits 24, 25: set by NAK */
   s = validate(&h);
   cr_assert(!has(&s, "reserved-common-a-unused", "CommonWord0.Reserved", ISA_SEV_ERROR));
}

/* ---- SPH version 4 (nv-sph@v4): 32 words, 128 bytes (sph.md 1, 6a) ---------
 * Expected bytes are built from the header bit numbers of the fact sheet
 * (bit n is bit n % 32 of little-endian word n / 32), never from our own
 * output. */

static void fact_bit(uint32_t w[32], unsigned bit)
{
   w[bit / 32] |= 1u << (bit % 32);
}

/* The 128 bytes a header of these words packs to. */
static void assert_words(const uint8_t *bytes, const uint32_t w[32])
{
   for (unsigned i = 0; i < 32; i++)
      cr_assert_eq(isa_load_le32(bytes + 4 * i), w[i], "word %u: 0x%08x, expected 0x%08x", i,
                   isa_load_le32(bytes + 4 * i), w[i]);
}

static void set_path(const struct isa_type_desc *u, void *obj, const char *path, int64_t v)
{
   cr_assert_eq(isa_field_set(u, obj, path, v), ISA_OK, "%s", path);
}

static int64_t get_path(const struct isa_type_desc *u, const void *obj, const char *path)
{
   int64_t v = -1;
   cr_assert_eq(isa_field_get(u, obj, path, &v), ISA_OK, "%s", path);
   return v;
}

/* A pixel shader header set through the reflection API of nv-sph@v4: the
 * version-4 bits of sph.md 6a, "Adds, type 2 (PS)". */
Test(sph_v4, pixel_header_built_by_path_packs_to_the_fact_sheet_bits)
{
   const struct isa_spec *spec = isa_spec_find("nv-sph@v4");
   cr_assert(spec != NULL);
   const struct isa_type_desc *u = spec->unit;
   cr_assert_eq(u->bits, 1024u);
   void *obj = calloc(1, u->c_size);
   uint8_t out[128];
   size_t bits = 0;
   struct isa_error err;

   set_path(u, obj, "CommonWord0.SphType", 2);      /* PS (sph.md 2, 5) */
   set_path(u, obj, "CommonWord0.Version", 4);
   set_path(u, obj, "CommonWord0.ShaderType", 5);   /* PIXEL */
   set_path(u, obj, "CommonWord0.SassVersion", 1);
   set_path(u, obj, "ImapSystemValuesA.ImapVprsTableIndex", 1);             /* IMAP_VPRS_TABLE_INDEX, 183 */
   set_path(u, obj, "ImapSystemValuesD.ImapBarycentric0", 2);               /* 565:564, PERSPECTIVE */
   set_path(u, obj, "ReadsInterlockTicket", 1);                             /* 610 */
   set_path(u, obj, "UsesInnerCoverage", 1);                                /* 611 */
   set_path(u, obj, "ImapGenericVectorExt[3].ImapY", 1);                    /* GENERIC_IMAP_Y_EXT(3): 672+4*3+1 */
   cr_assert_str_eq(isa_variant_name(u, obj), "PS");
   cr_assert_eq(u->encode(obj, out, sizeof out, 0, &bits, &err), ISA_OK);
   cr_assert_eq(bits, 1024u);

   uint32_t w[32] = {0};
   w[0] = 2u | 4u << 5 | 5u << 10 | 1u << 17; /* SphType 0..4, Version 5..9, ShaderType 10..13, SassVersion 17..20 */
   fact_bit(w, 183);
   fact_bit(w, 565); /* PixelImap 2 in bits 564..565: the high bit */
   fact_bit(w, 610);
   fact_bit(w, 611);
   fact_bit(w, 672 + 4 * 3 + 1);
   assert_words(out, w);
   cr_assert_eq(w[0], 0x00021482u);
   cr_assert_eq(w[19], 0x0000000cu);
   cr_assert_eq(w[21], 0x00002000u);

   /* and back, through the generated C */
   struct nv_sph_v4_Header h;
   cr_assert_eq(nv_sph_v4_Header_unpack(out, sizeof out, &h, &err), ISA_OK);
   cr_assert_eq(h.variant, NV_SPH_V4_HEADER_PS);
   cr_assert_eq(h.CommonWord0.Version, 4);
   cr_assert(h.ImapSystemValuesA.ImapVprsTableIndex);
   cr_assert_eq(h.u.PS.ImapSystemValuesD.ImapBarycentric0, NV_SPH_V4_PIXEL_IMAP_PERSPECTIVE);
   cr_assert_eq(h.u.PS.ImapSystemValuesD.ImapViewportMask, NV_SPH_V4_PIXEL_IMAP_UNUSED);
   cr_assert(h.u.PS.ReadsInterlockTicket && h.u.PS.UsesInnerCoverage);
   cr_assert(!h.u.PS.OmapSampleMask && !h.u.PS.OmapDepth && h.u.PS.OmapReserved == 0);
   cr_assert(h.u.PS.ImapGenericVectorExt[3].ImapY);
   cr_assert(!h.u.PS.ImapGenericVectorExt[3].ImapX && !h.u.PS.ImapGenericVectorExt[2].ImapY);
   /* the decoder through reflection agrees */
   void *back = calloc(1, u->c_size);
   cr_assert_eq(u->decode(out, sizeof out, 0, back, &bits, &err), ISA_OK);
   cr_assert_eq(get_path(u, back, "ImapSystemValuesD.ImapBarycentric0"), 2);
   cr_assert_eq(get_path(u, back, "ImapGenericVectorExt[3].ImapY"), 1);
   cr_assert_eq(get_path(u, back, "UsesInnerCoverage"), 1);
   /* a clean driver-style header: no findings */
   struct finds f = check("nv-sph@v4", out, sizeof out);
   cr_assert_eq(f.n, 0u, "%s", f.text);
   free(back);
   free(obj);
}

/* A vertex shader header through the generated nv_sph_v4_* API: the VMAP
 * section and the VPRS table indices (sph.md 6a, "Adds, type 1 (VTG)"). */
Test(sph_v4, vertex_header_with_vmap_packs_to_the_fact_sheet_bits)
{
   struct nv_sph_v4_Header h, back;
   uint8_t out[NV_SPH_V4_HEADER_BYTES];
   size_t size = 0;
   struct isa_error err;
   cr_assert_eq(NV_SPH_V4_HEADER_BYTES, 128);
   nv_sph_v4_Header_init(&h);
   h.CommonWord0.SphType = NV_SPH_V4_SPH_TYPE_VTG;
   h.CommonWord0.Version = 4;
   h.CommonWord0.ShaderType = NV_SPH_V4_SHADER_TYPE_VERTEX;
   h.CommonWord0.SassVersion = 1;
   h.CommonWord4.StoreReqStart = 255;
   h.variant = NV_SPH_V4_HEADER_VTG;
   h.ImapSystemValuesA.ImapVprsTableIndex = true;       /* IMAP_VPRS_TABLE_INDEX, 183 */
   h.u.VTG.OmapSystemValuesA.OmapVprsTableIndex = true; /* OMAP_VPRS_TABLE_INDEX, 423 */
   h.u.VTG.OmapSystemValuesD.OmapBarycentric1 = true;   /* OMAP 632..639, fourth: 635 */
   h.u.VTG.VmapSystemValuesA.VmapVprsTableIndex = true; /* VMAP_VPRS_TABLE_INDEX, 663 */
   h.u.VTG.VmapGenericVector[5].VmapZ = true;           /* GENERIC_VMAP_Z(5): 672+4*5+2 */
   h.u.VTG.VmapSystemValuesD.VmapBarycentric2W = true;  /* VMAP 872..879, last: 879 */
   cr_assert_eq(nv_sph_v4_Header_pack_checked(&h, out, sizeof out, &size, &err), ISA_OK);
   cr_assert_eq(size, 128u);

   uint32_t w[32] = {0};
   w[0] = 1u | 4u << 5 | 1u << 10 | 1u << 17;
   w[4] = 255u << 12; /* StoreReqStart, bits 140..147 */
   fact_bit(w, 183);
   fact_bit(w, 423);
   fact_bit(w, 635);
   fact_bit(w, 663);
   fact_bit(w, 672 + 4 * 5 + 2);
   fact_bit(w, 879);
   assert_words(out, w);
   cr_assert_eq(w[0], 0x00020481u);
   cr_assert_eq(w[20], 0x00800000u);

   cr_assert_eq(nv_sph_v4_Header_unpack(out, sizeof out, &back, &err), ISA_OK);
   cr_assert_eq(back.variant, NV_SPH_V4_HEADER_VTG);
   cr_assert(back.ImapSystemValuesA.ImapVprsTableIndex && back.u.VTG.OmapSystemValuesA.OmapVprsTableIndex);
   cr_assert(back.u.VTG.VmapSystemValuesA.VmapVprsTableIndex);
   cr_assert(back.u.VTG.VmapGenericVector[5].VmapZ && !back.u.VTG.VmapGenericVector[5].VmapY);
   cr_assert(back.u.VTG.OmapSystemValuesD.OmapBarycentric1 && back.u.VTG.VmapSystemValuesD.VmapBarycentric2W);
   cr_assert_eq(back.CommonWord4.StoreReqStart, 255);
   struct finds f = check("nv-sph@v4", out, sizeof out);
   cr_assert_eq(f.n, 0u, "%s", f.text);
}

/* A version-3 sized input (80 bytes, K1) is too short for version 4. */
Test(sph_v4, an_80_byte_header_is_truncated)
{
   struct nv_sph_Header h3;
   struct nv_sph_v4_Header h;
   uint8_t b[80];
   struct isa_error err;
   hex_header("K1", &h3, b);
   isa_error_clear(&err);
   cr_assert_eq(nv_sph_v4_Header_unpack(b, sizeof b, &h, &err), ISA_ERR_TRUNCATED);
   cr_assert_eq(err.need, 1024u);
   cr_assert_eq(err.have, 640u);
   const struct isa_spec *spec = isa_spec_find("nv-sph@v4");
   void *obj = calloc(1, spec->unit->c_size);
   size_t bits;
   cr_assert_eq(spec->unit->decode(b, sizeof b, 0, obj, &bits, &err), ISA_ERR_TRUNCATED);
   free(obj);
}

/* Version 4 drops DoesLoadOrStore (26) and DoesFp64 (27): the bits are
 * RESERVED_COMMON_B, which isa check reports (a warning: NAK still sets
 * them); version 3 reads the same word as the two flags, silently. */
Test(sph_v4, bits_26_and_27_are_reserved_in_version_4)
{
   uint8_t b[128];
   uint32_t w[32] = {0};
   struct isa_error err;
   w[0] = 1u | 4u << 5 | 1u << 10 | 1u << 17;
   fact_bit(w, 26);
   fact_bit(w, 27);
   w[4] = 255u << 12;
   for (unsigned i = 0; i < 32; i++)
      isa_store_le32(b + 4 * i, w[i]);

   struct nv_sph_v4_Header h;
   cr_assert_eq(nv_sph_v4_Header_unpack(b, sizeof b, &h, &err), ISA_OK);
   cr_assert_eq(h.CommonWord0.ReservedCommonB, 3);
   const struct isa_spec *spec = isa_spec_find("nv-sph@v4");
   int64_t v;
   cr_assert_eq(isa_field_get(spec->unit, &h, "CommonWord0.DoesLoadOrStore", &v), ISA_ERR_ARG);
   cr_assert_eq(isa_field_get(spec->unit, &h, "CommonWord0.ReservedCommonB", &v), ISA_OK);
   cr_assert_eq(v, 3);

   struct finds f = check("nv-sph@v4", b, sizeof b);
   cr_assert_eq(f.n, 1u, "%s", f.text);
   cr_assert_eq(f.errors, 0u, "%s", f.text);
   cr_assert(strstr(f.text, "warning reserved CommonWord0.ReservedCommonB: reserved bits are set (0x3)"), "%s", f.text);

   /* version 3: the same first 80 bytes (Version 3) are DoesLoadOrStore and DoesFp64 */
   struct nv_sph_Header h3;
   b[0] = 0x61; /* SphType 1, Version 3 */
   cr_assert_eq(nv_sph_Header_unpack(b, 80, &h3, &err), ISA_OK);
   cr_assert(h3.CommonWord0.DoesLoadOrStore && h3.CommonWord0.DoesFp64);
   f = check("nv-sph", b, 80);
   cr_assert_eq(f.n, 0u, "%s", f.text);
}
