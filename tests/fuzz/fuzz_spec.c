/*
 * libFuzzer target for one spec; make fuzz builds it once per spec in
 * SPECS with -DFUZZ_SPEC='"name"', so a new spec gets a fuzzer for free.
 *
 * The first input byte picks what to exercise with the rest:
 *   even  look for each of the spec's containers in it, then decode it as a
 *         program (with the spec's options, such as Midgard's GPU, chosen by
 *         the byte's other bits): every unit is printed (also as a listing),
 *         validated, walked, encoded (checked) and decoded again, and must
 *         keep its fields (and its bytes, where its fields hold every bit);
 *         the first units go through the program encoder;
 *   odd   decode one unit, overwrite every field with values from the
 *         input, and pack it with the checked encoder: any error status is
 *         fine, a crash or a silently wrong encoding is not (the fields
 *         decode back; for units with sequences, whose counts the encoder
 *         computes, the bytes decode and encode to themselves).
 * ASan and UBSan (built in) catch memory and undefined-behaviour errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isagen/isagen.h"

#ifndef FUZZ_SPEC
#error "build with -DFUZZ_SPEC='\"spec-name\"'"
#endif

struct digest {
   uint64_t h;
   unsigned n;
};

static void digest_field(void *user, const char *path, const struct isa_field_desc *fd, int64_t v)
{
   struct digest *d = (struct digest *)user;
   if (fd->role == ISA_ROLE_LENGTH)
      return; /* the encoder sets it when a field needs the long form (long_forms_kept) */
   for (const char *p = path; *p; p++)
      d->h = (d->h ^ (unsigned char)*p) * 1099511628211ull;
   d->h = (d->h ^ (uint64_t)v) * 1099511628211ull;
   d->n++;
}

static struct digest digest_of(const struct isa_type_desc *t, const void *obj)
{
   struct digest d = {14695981039346656037ull, 0};
   isa_walk_fields(t, obj, digest_field, &d);
   return d;
}

/* Whether every length flag set in obj is set in again too: the encoder
 * writes the long form when asked for, and when a field needs it */
struct forced {
   const struct isa_type_desc *t;
   const void *again;
   int kept;
};

static void check_forced(void *user, const char *path, const struct isa_field_desc *fd, int64_t v)
{
   struct forced *c = (struct forced *)user;
   int64_t now = 0;
   if (fd->role == ISA_ROLE_LENGTH && v && (isa_field_get(c->t, c->again, path, &now) != ISA_OK || !now))
      c->kept = 0;
}

static int long_forms_kept(const struct isa_type_desc *t, const void *obj, const void *again)
{
   struct forced c = {t, again, 1};
   isa_walk_fields(t, obj, check_forced, &c);
   return c.kept;
}

/* The fields of a unit, as path=value lines, for a failure's report */
static void list_field(void *user, const char *path, const struct isa_field_desc *fd, int64_t v)
{
   (void)user;
   fprintf(stderr, "  %s%s = %lld\n", path, fd->role == ISA_ROLE_LENGTH ? " (length flag)" : "", (long long)v);
}

static void report_fields(const char *what, const struct isa_type_desc *t, const void *obj)
{
   fprintf(stderr, "fuzz: %s:\n", what);
   isa_walk_fields(t, obj, list_field, NULL);
}

struct setter {
   const struct isa_type_desc *t;
   void *obj;
   const uint8_t *data;
   size_t size, pos;
   char paths[512][ISA_PATH_MAX];
   unsigned n;
};

static void remember_path(void *user, const char *path, const struct isa_field_desc *fd, int64_t v)
{
   struct setter *s = (struct setter *)user;
   (void)fd;
   (void)v;
   if (s->n < 512)
      snprintf(s->paths[s->n++], ISA_PATH_MAX, "%s", path);
}

/* Bits the scalar fields of a list hold (an aggregate counts none). */
static size_t field_bits(const struct isa_field_desc *f, unsigned n)
{
   size_t sum = 0;
   for (unsigned i = 0; i < n; i++)
      if (f[i].kind != ISA_K_AGG)
         sum += (size_t)f[i].width * f[i].count;
   return sum;
}

/* The alternative a decoded choice holds, as its type and where it lies in
 * obj, or NULL (a choice's alternative is its one aggregate field). */
static const struct isa_type_desc *alternative(const struct isa_type_desc *t, const void *obj, const void **alt)
{
   uint16_t v;
   const struct isa_variant_desc *a;
   if (t->kind != ISA_T_CHOICE || t->variant_offset == ISA_NO_OFFSET)
      return NULL;
   memcpy(&v, (const char *)obj + t->variant_offset, sizeof v);
   if (v < 1 || v > t->n_variants)
      return NULL;
   a = &t->variants[v - 1];
   if (a->n_fields != 1 || a->fields[0].kind != ISA_K_AGG || !a->fields[0].type)
      return NULL;
   *alt = (const char *)obj + a->fields[0].c_offset;
   return a->fields[0].type;
}

/* Whether the decoded unit obj of `bits` bits is all fields: its scalar
 * fields (those of the variant decoded too, or of the alternative a choice
 * holds) add up to its size.  A struct's fields never overlap (lint), so
 * then every bit is one field's, and encoding what was decoded must give
 * the same bytes.  (A sequence's items, nested structs and a short form of
 * a longer layout do not add up: those are left to the field comparison.) */
static int every_bit_a_field(const struct isa_type_desc *t, const void *obj, size_t bits)
{
   size_t sum;
   const void *alt;
   const struct isa_type_desc *at = alternative(t, obj, &alt);
   if (at)
      return every_bit_a_field(at, alt, bits);
   if (t->kind != ISA_T_STRUCT)
      return 0;
   sum = field_bits(t->fields, t->n_fields);
   if (t->variant_offset != ISA_NO_OFFSET && t->n_variants) {
      uint16_t v;
      memcpy(&v, (const char *)obj + t->variant_offset, sizeof v);
      if (v < 1 || v > t->n_variants)
         return 0;
      sum += field_bits(t->variants[v - 1].fields, t->variants[v - 1].n_fields);
   }
   return sum == bits;
}

/* Whether struct type t, or a struct nested in it, is an overlay */
static int has_overlay(const struct isa_type_desc *t)
{
   if (t->overlay)
      return 1;
   for (unsigned v = 0; v <= t->n_variants; v++) {
      const struct isa_field_desc *f = v ? t->variants[v - 1].fields : t->fields;
      unsigned n = v ? t->variants[v - 1].n_fields : t->n_fields;
      for (unsigned i = 0; i < n; i++)
         if (f[i].kind == ISA_K_AGG && f[i].type && f[i].type->kind == ISA_T_STRUCT && has_overlay(f[i].type))
            return 1;
   }
   return 0;
}

/* Whether the checked encoder writes obj's fields as they are (but for a
 * length flag): obj is a struct, or a choice that holds one (structs hold
 * no sequences: lint).  Not a sequence, whose counts and sizes it
 * computes, nor an overlay anywhere in it, whose views are one set of
 * bits. */
static int fields_as_set(const struct isa_type_desc *t, const void *obj)
{
   const void *alt;
   const struct isa_type_desc *at = alternative(t, obj, &alt);
   return (t->kind == ISA_T_STRUCT && !has_overlay(t)) || (at && fields_as_set(at, alt));
}

static void dump_hex(const char *what, const uint8_t *p, size_t n)
{
   fprintf(stderr, "fuzz: %s:", what);
   for (size_t i = 0; i < n; i++)
      fprintf(stderr, " %02x", p[i]);
   fprintf(stderr, "\n");
}

/* Whether the n bytes at a are the bytes at b, of which only b_len exist:
 * a last unit may run past the input, which reads as zeros there. */
static int same_padded(const uint8_t *a, size_t n, const uint8_t *b, size_t b_len)
{
   for (size_t i = 0; i < n; i++)
      if (a[i] != (i < b_len ? b[i] : 0))
         return 0;
   return 1;
}

static void exercise_unit(const struct isa_spec *spec, const void *obj, const uint8_t *input, size_t input_len,
                          size_t bytes, uint64_t offset, uint64_t index)
{
   const struct isa_type_desc *t = spec->unit;
   char text[4096];
   struct isa_out out;
   struct isa_findings f;
   struct isa_ctx ctx = {0};
   ctx.offset = offset;
   ctx.index = index;
   ctx.size = (uint64_t)bytes * 8;
   uint8_t *enc = (uint8_t *)calloc(1, bytes + 64);
   void *again = calloc(1, t->c_size);
   size_t bits = 0, bits2 = 0;
   struct isa_error err;
   isa_out_buffer(&out, text, sizeof text);
   t->print(obj, &out, &ctx);
   {
      /* into a heap buffer of 1..200 bytes, its end where ASan sees a write
       * past it: a printer's run (isa_out_run_begin) writes at most what
       * it asked room for, or into the sink's spill; the text is the same,
       * cut */
      size_t cap = 1 + (size_t)((offset * 7 + index) % 200);
      char *small = (char *)malloc(cap);
      struct isa_out cut;
      if (!small)
         abort();
      isa_out_buffer(&cut, small, cap);
      t->print(obj, &cut, &ctx);
      size_t want = isa_out_len(&out) < cap ? isa_out_len(&out) : cap - 1;
      if (isa_out_len(&cut) != isa_out_len(&out) || strlen(small) != want || strncmp(small, text, want) != 0) {
         fprintf(stderr, "fuzz: %s unit %llu prints differently into %zu bytes\n", spec->name,
                 (unsigned long long)index, cap);
         abort();
      }
      free(small);
   }
   /* and as a listing (isa dis --offsets), with the spec's own prefix */
   ctx.listing = 1;
   isa_out_buffer(&out, text, sizeof text);
   if (spec->prefix)
      spec->prefix(&out, &ctx);
   t->print(obj, &out, &ctx);
   ctx.listing = 0;
   memset(&f, 0, sizeof f);
   t->validate(obj, &f, &ctx, NULL);
   if (t->encode(obj, enc, bytes + 64, 0, &bits, &err) != ISA_OK) {
      /* what was decoded always encodes again */
      fprintf(stderr, "fuzz: %s unit %llu decodes but does not encode again: %s\n", spec->name,
              (unsigned long long)index, isa_strerror(err.status));
      abort();
   } else {
      /* what was decoded re-encodes, and decodes to the same fields */
      /* the program's first unit decodes as the spec says first units do */
      int (*decode)(const uint8_t *, size_t, size_t, void *, size_t *, struct isa_error *) =
         index == 0 && spec->decode_first ? spec->decode_first : t->decode;
      if (decode(enc, (bits + 7) / 8, 0, again, &bits2, &err) != ISA_OK ||
          (f.count[ISA_SEV_ERROR] == 0 && digest_of(t, obj).h != digest_of(t, again).h)) {
         fprintf(stderr, "fuzz: %s unit %llu does not round-trip\n", spec->name, (unsigned long long)index);
         abort();
      }
      /* where every bit is a field's, to the same bytes */
      if (every_bit_a_field(t, obj, bytes * 8) && (bits != bytes * 8 || !same_padded(enc, bytes, input + offset,
                                                                                        input_len - offset))) {
         fprintf(stderr, "fuzz: %s unit %llu (%s) encodes to other bytes than it was decoded from\n", spec->name,
                 (unsigned long long)index, isa_variant_name(t, obj) ? isa_variant_name(t, obj) : t->name);
         dump_hex("decoded from", input + offset, bytes < input_len - offset ? bytes : input_len - offset);
         dump_hex("encoded as  ", enc, (bits + 7) / 8);
         abort();
      }
   }
   free(enc);
   free(again);
}

static void mode_program(const struct isa_spec *spec, unsigned choice, const uint8_t *data, size_t size)
{
   void *obj = calloc(1, spec->unit->c_size);
   int64_t *options = (int64_t *)calloc(spec->n_options + 1, sizeof *options);
   struct isa_cursor cur;
   struct isa_ctx ctx;
   struct isa_error err;
   int r = 0;
   unsigned n_units = 0;
   uint8_t *units = (uint8_t *)calloc(32, spec->unit->c_size); /* the first units decoded, for the program encoder */
   for (unsigned k = 0; k < spec->n_options; k++) {
      const struct isa_option *o = &spec->options[k];
      options[k] = o->values[choice % o->n_values];
      choice /= o->n_values;
   }
   /* the containers a program may come in: a payload found lies inside */
   for (unsigned k = 0; k < spec->n_containers; k++) {
      size_t off = 0, len = 0;
      if (isa_container_payload(&spec->containers[k], data, size, &off, &len, &err) == ISA_OK &&
          (off > size || len > size - off)) {
         fprintf(stderr, "fuzz: %s: container payload outside the input\n", spec->name);
         abort();
      }
   }
   isa_cursor_init(&cur, spec, data, size);
   cur.options = options;
   while (cur.index < 256 && (r = isa_cursor_next(&cur, obj, &ctx, &err)) > 0) {
      if (ctx.failed)
         continue;
      exercise_unit(spec, obj, data, size, ctx.size / 8, ctx.offset, ctx.index);
      if (n_units < 32 && units)
         memcpy(units + n_units++ * spec->unit->c_size, obj, spec->unit->c_size);
   }
   if (n_units) {
      /* the program encoder on what was decoded: room or not, no crash, and a size that fits */
      size_t cap = size + 64, written = 0;
      uint8_t *enc = (uint8_t *)calloc(1, cap);
      if (enc && isa_encode_program(spec, units, n_units, enc, cap, &written, &err) == ISA_OK && written > cap) {
         fprintf(stderr, "fuzz: %s: the program encoder wrote past its buffer\n", spec->name);
         abort();
      }
      free(enc);
   }
   free(units);
   if (r < 0) {
      char msg[256];
      isa_error_format(&err, msg, sizeof msg); /* error text for any failure */
   }
   isa_cursor_fini(&cur);
   free(obj);
   free(options);
}

static void mode_pack(const struct isa_spec *spec, const uint8_t *data, size_t size)
{
   const struct isa_type_desc *t = spec->unit;
   struct setter *s = (struct setter *)calloc(1, sizeof *s);
   void *obj = calloc(1, t->c_size), *again = calloc(1, t->c_size);
   uint8_t enc[4096];
   size_t n = 0, bits = 0, bits2 = 0;
   struct isa_error err;
   if (isa_decode_unit(spec, data, size, 0, obj, &n, &err) == ISA_OK) {
      s->t = t;
      s->obj = obj;
      isa_walk_fields(t, obj, remember_path, s);
      s->pos = n;
      for (unsigned i = 0; i < s->n && s->pos < size; i++) {
         int64_t v = 0;
         size_t k = size - s->pos < 8 ? size - s->pos : 8;
         memcpy(&v, data + s->pos, k);
         s->pos += k;
         if (data[s->pos - 1] & 1)
            v &= 0xff; /* mostly small values, some huge */
         isa_field_set(t, obj, s->paths[i], v);
      }
      int r_enc = t->encode(obj, enc, sizeof enc, 0, &bits, &err);
      if (r_enc == ISA_OK && fields_as_set(t, obj)) {
         /* a checked encode that succeeds wrote exactly the fields: they
          * decode back, to as many bits (a choice, as the same alternative,
          * unless the bits now match one that comes before it) */
         int r = isa_decode_unit(spec, enc, (bits + 7) / 8, 0, again, &bits2, &err); /* as the first unit, like obj */
         bits2 *= 8; /* isa_decode_unit counts bytes */
         const char *was = isa_variant_name(t, obj), *now = r == ISA_OK ? isa_variant_name(t, again) : NULL;
         if (t->kind == ISA_T_CHOICE && r == ISA_OK && (!was || !now || strcmp(was, now) != 0))
            ; /* another alternative claims the bits: shadowing, which lint allows by order */
         else if (r != ISA_OK || bits2 != bits || digest_of(t, obj).h != digest_of(t, again).h ||
                  !long_forms_kept(t, obj, again)) {
            fprintf(stderr, "fuzz: %s: checked encode accepted fields it did not write\n", spec->name);
            report_fields("set", t, obj);
            if (r == ISA_OK)
               report_fields("decoded", t, again);
            abort();
         }
      } else if (r_enc == ISA_OK) {
         /* a unit with sequences or views: the encoder computes counts
          * and sizes, or writes one view, so the fields need not come back
          * as set, but what it wrote is a fixed point: it decodes, and
          * encodes to the same bytes again (unless another alternative
          * claims them) */
         uint8_t enc2[4096];
         size_t bits3 = 0;
         int r = isa_decode_unit(spec, enc, (bits + 7) / 8, 0, again, &bits2, &err); /* as the first unit, like obj */
         bits2 *= 8; /* isa_decode_unit counts bytes */
         const char *was = isa_variant_name(t, obj), *now = r == ISA_OK ? isa_variant_name(t, again) : NULL;
         if (t->kind == ISA_T_CHOICE && r == ISA_OK && (!was || !now || strcmp(was, now) != 0))
            ; /* shadowing, as above */
         else if (r != ISA_OK || bits2 != bits || t->encode(again, enc2, sizeof enc2, 0, &bits3, &err) != ISA_OK ||
                  bits3 != bits ||
                  memcmp(enc, enc2, (bits + 7) / 8) != 0) {
            fprintf(stderr, "fuzz: %s: what the checked encoder wrote does not decode and encode to itself\n",
                    spec->name);
            fprintf(stderr, "fuzz: %zu bits written, decoded as %zu bits (status %d), encoded again as %zu\n", bits,
                    bits2, r, bits3);
            dump_hex("written", enc, (bits + 7) / 8);
            if (r == ISA_OK && bits3)
               dump_hex("again  ", enc2, (bits3 + 7) / 8);
            abort();
         }
      }
   }
   free(obj);
   free(again);
   free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   const struct isa_spec *spec = isa_spec_find(FUZZ_SPEC);
   if (!spec)
      abort();
   if (size == 0)
      return 0;
   if (data[0] % 2 == 0)
      mode_program(spec, data[0] / 2u, data + 1, size - 1);
   else
      mode_pack(spec, data + 1, size - 1);
   return 0;
}
