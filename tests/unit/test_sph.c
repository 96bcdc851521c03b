/* The NVIDIA SPH through the generated C API (the corpus as a whole is in
 * test_corpus.c): driver headers, the default display, truncation, bad
 * selectors, out-of-range values, validator rules. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "corpus.h"
#include "helpers.h"
#include "nv_sph.h"

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
