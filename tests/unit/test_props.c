/* Property tests over every type of every spec, driven by the reflection
 * tables, so a new spec is covered without new test code:
 *   - random bits (forced into each variant in turn) decode, encode back to
 *     the same bits, and decode again to the same fields;
 *   - the checked encode rejects, with the field's path, a value just past
 *     either end of every field's range. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "isagen/isagen.h"

extern const struct isa_spec toy_bundle_spec, toy_varlen_spec, toy_tokens_spec;

static const struct isa_spec *all_specs(unsigned i)
{
   unsigned n;
   const struct isa_spec *const *lib = isa_specs(&n);
   const struct isa_spec *toys[] = {&toy_bundle_spec, &toy_varlen_spec, &toy_tokens_spec};
   if (i < n)
      return lib[i];
   i -= n;
   return i < 3 ? toys[i] : NULL;
}

#define MAXBYTES 4096

struct lists {
   struct field_list a, b;
};

static int same_fields(const struct field_list *a, const struct field_list *b, char *why, size_t n)
{
   if (a->n != b->n) {
      snprintf(why, n, "%u fields, then %u", a->n, b->n);
      return 0;
   }
   for (unsigned i = 0; i < a->n; i++)
      if (strcmp(a->names[i], b->names[i]) || a->values[i] != b->values[i]) {
         snprintf(why, n, "%s = %lld, then %s = %lld", a->names[i], (long long)a->values[i], b->names[i],
                  (long long)b->values[i]);
         return 0;
      }
   return 1;
}

/* Force a struct's fixed bits into random bytes. */
static void force_fixed(const struct isa_type_desc *t, uint8_t *bytes)
{
   if (!t->fixed_mask)
      return;
   for (size_t k = 0; k < (t->bits + 7) / 8; k++)
      bytes[k] = (uint8_t)((bytes[k] & ~t->fixed_mask[k]) | t->fixed_value[k]);
}

/* Force variant/alternative `v`'s first pattern into random bytes. */
static void force_pattern(const struct isa_variant_desc *vd, uint8_t *bytes)
{
   if (!vd->n_patterns)
      return;
   for (unsigned k = 0; k < vd->pattern_bytes && k < MAXBYTES; k++)
      bytes[k] = (uint8_t)((bytes[k] & ~vd->pattern_mask[k]) | vd->pattern_value[k]);
}

static struct lists L; /* scratch for the comparisons (too big for the stack) */

/* decode -> encode -> same size; decode again -> same fields.  With
 * only_valid, inputs the validators find errors in are skipped: a container
 * whose size field disagrees with its content decodes, is reported, and
 * cannot round-trip. */
static int round_trip(const struct isa_type_desc *t, const uint8_t *bytes, size_t len, void *x, void *y,
                      const char *what, int only_valid)
{
   struct isa_error err;
   size_t bits = 0, bits2 = 0, bits3 = 0;
   uint8_t enc[MAXBYTES];
   char why[300];
   memset(x, 0, t->c_size);
   if (t->decode(bytes, len, 0, x, &bits, &err) != ISA_OK)
      return 0;
   if (only_valid) {
      struct isa_findings f;
      struct isa_ctx ctx = {0};
      ctx.size = bits;
      memset(&f, 0, sizeof f);
      t->validate(x, &f, &ctx, NULL);
      if (f.count[ISA_SEV_ERROR])
         return 0;
   }
   memset(enc, 0, sizeof enc);
   int r = t->encode(x, enc, sizeof enc, 0, &bits2, &err);
   cr_assert_eq(r, ISA_OK, "%s %s: decoded, but encode failed: %s (%s %s)", what, t->name, isa_strerror(r),
                err.field ? err.field : "", err.detail ? err.detail : "");
   cr_assert_eq(bits2, bits, "%s %s: decoded %zu bits, encoded %zu", what, t->name, bits, bits2);
   memset(y, 0, t->c_size);
   cr_assert_eq(t->decode(enc, (bits2 + 7) / 8, 0, y, &bits3, &err), ISA_OK, "%s %s: re-decode", what, t->name);
   L.a.n = L.b.n = 0;
   isa_walk_fields(t, x, collect_field, &L.a);
   isa_walk_fields(t, y, collect_field, &L.b);
   cr_assert(same_fields(&L.a, &L.b, why, sizeof why), "%s %s: %s", what, t->name, why);
   return 1;
}

struct range_ctx {
   const struct isa_type_desc *t;
   void *obj;
   unsigned checked;
   const char *spec;
};

static void out_of_range(struct range_ctx *c, const char *path, const struct isa_field_desc *fd, int64_t keep)
{
   uint8_t enc[MAXBYTES];
   size_t bits;
   struct isa_error err;
   int is_signed = fd->kind == ISA_K_SINT || fd->kind == ISA_K_SFIXED;
   int64_t tries[2];
   unsigned n = 0;
   if (fd->kind == ISA_K_BOOL || fd->role == ISA_ROLE_FIXED || fd->kind == ISA_K_AGG)
      return;
   if ((unsigned)fd->c_size * 8 <= fd->width || fd->width >= 63)
      return; /* the C member cannot hold an out-of-range value */
   if (is_signed) {
      tries[n++] = (int64_t)1 << (fd->width - 1);      /* max + 1 */
      tries[n++] = -((int64_t)1 << (fd->width - 1)) - 1; /* min - 1 */
   } else {
      tries[n++] = (int64_t)1 << fd->width; /* max + 1 */
   }
   for (unsigned i = 0; i < n; i++) {
      cr_assert_eq(isa_field_set(c->t, c->obj, path, tries[i]), ISA_OK);
      isa_error_clear(&err);
      int r = c->t->encode(c->obj, enc, sizeof enc, 0, &bits, &err);
      cr_assert_eq(r, ISA_ERR_RANGE, "%s %s: %s = %lld must be rejected, got %s", c->spec, c->t->name, path,
                   (long long)tries[i], isa_strerror(r));
      cr_assert(err.field && strstr(path, err.field) && !strcmp(path + strlen(path) - strlen(err.field), err.field),
                "%s %s: error names %s, expected %s", c->spec, c->t->name, err.field ? err.field : "(null)", path);
      /* and says what the value was and what the field holds */
      int64_t lo = is_signed ? -((int64_t)1 << (fd->width - 1)) : 0;
      int64_t hi = is_signed ? ((int64_t)1 << (fd->width - 1)) - 1 : ((int64_t)1 << fd->width) - 1;
      cr_assert(err.value == tries[i] && err.min == lo && err.max == hi,
                "%s %s: %s = %lld reported as %lld outside %lld..%lld, expected %lld..%lld", c->spec, c->t->name,
                path, (long long)tries[i], (long long)err.value, (long long)err.min, (long long)err.max,
                (long long)lo, (long long)hi);
      c->checked++;
   }
   isa_field_set(c->t, c->obj, path, keep);
}

Test(properties, structs_round_trip_bit_for_bit)
{
   static uint8_t bytes[MAXBYTES];
   static char x[1 << 16], y[1 << 16];
   unsigned structs = 0, trips = 0;
   uint64_t s = 0x1234;
   for (unsigned si = 0; all_specs(si); si++) {
      const struct isa_spec *spec = all_specs(si);
      for (unsigned ti = 0; ti < spec->n_types; ti++) {
         const struct isa_type_desc *t = spec->types[ti];
         size_t nbytes = (t->bits + 7) / 8;
         unsigned ok = 0;
         if (t->kind != ISA_T_STRUCT)
            continue;
         cr_assert_leq(t->c_size, sizeof x);
         structs++;
         for (unsigned round = 0; round < 300; round++) {
            uint8_t enc[MAXBYTES];
            size_t bits = 0;
            struct isa_error err;
            for (size_t k = 0; k < nbytes; k++)
               bytes[k] = (uint8_t)rng_next(&s);
            force_fixed(t, bytes);
            if (t->n_variants)
               force_pattern(&t->variants[round % t->n_variants], bytes);
            if (!round_trip(t, bytes, nbytes, x, y, spec->name, 0))
               continue;
            ok++;
            /* every bit of a struct belongs to a field, so encode gives back
             * exactly the bits that were decoded */
            memset(enc, 0, sizeof enc);
            cr_assert_eq(t->encode(x, enc, sizeof enc, 0, &bits, &err), ISA_OK);
            for (size_t b = 0; b < bits; b++)
               cr_assert_eq((enc[b / 8] >> (b % 8)) & 1, (bytes[b / 8] >> (b % 8)) & 1,
                            "%s %s: bit %zu", spec->name, t->name, b);
         }
         cr_assert_gt(ok, 0u, "%s %s: no random input decoded (is the property vacuous?)", spec->name, t->name);
         trips += ok;
      }
   }
   cr_assert_gt(structs, 20u);
   cr_assert_gt(trips, 5000u);
}

struct walk_ctx {
   struct range_ctx *c;
   char paths[2048][96];
   const struct isa_field_desc *fds[2048];
   int64_t values[2048];
   unsigned n;
};

static void gather(void *user, const char *path, const struct isa_field_desc *fd, int64_t v)
{
   struct walk_ctx *w = (struct walk_ctx *)user;
   if (w->n < 2048) {
      snprintf(w->paths[w->n], sizeof w->paths[0], "%s", path);
      w->fds[w->n] = fd;
      w->values[w->n] = v;
      w->n++;
   }
}

static struct walk_ctx W;

Test(properties, checked_encode_rejects_every_out_of_range_value)
{
   static uint8_t bytes[MAXBYTES];
   static char x[1 << 16], y[1 << 16];
   uint64_t s = 99;
   unsigned checked = 0;
   for (unsigned si = 0; all_specs(si); si++) {
      const struct isa_spec *spec = all_specs(si);
      for (unsigned ti = 0; ti < spec->n_types; ti++) {
         const struct isa_type_desc *t = spec->types[ti];
         size_t nbytes = (t->bits + 7) / 8;
         if (t->kind != ISA_T_STRUCT)
            continue;
         for (unsigned v = 0; v < (t->n_variants ? t->n_variants : 1u); v++) {
            int decoded = 0;
            for (unsigned round = 0; round < 50 && !decoded; round++) {
               for (size_t k = 0; k < nbytes; k++)
                  bytes[k] = (uint8_t)rng_next(&s);
               force_fixed(t, bytes);
               if (t->n_variants)
                  force_pattern(&t->variants[v], bytes);
               decoded = round_trip(t, bytes, nbytes, x, y, spec->name, 0);
            }
            if (!decoded)
               continue;
            struct range_ctx c = {t, x, 0, spec->name};
            W.n = 0;
            isa_walk_fields(t, x, gather, &W);
            for (unsigned k = 0; k < W.n; k++)
               if (isa_field_active(t, x, W.paths[k])) /* views that do not encode are mirrors */
                  out_of_range(&c, W.paths[k], W.fds[k], W.values[k]);
            checked += c.checked;
         }
      }
   }
   cr_assert_gt(checked, 250u, "only %u out-of-range values tried", checked);
}

Test(properties, containers_round_trip)
{
   static uint8_t bytes[MAXBYTES];
   static char x[1 << 16], y[1 << 16];
   uint64_t s = 4242;
   unsigned total = 0;
   for (unsigned si = 0; all_specs(si); si++) {
      const struct isa_spec *spec = all_specs(si);
      for (unsigned ti = 0; ti < spec->n_types; ti++) {
         const struct isa_type_desc *t = spec->types[ti];
         unsigned ok = 0, tries = 0;
         if (t->kind == ISA_T_STRUCT)
            continue;
         cr_assert_leq(t->c_size, sizeof x);
         for (unsigned round = 0; round < 3000; round++) {
            size_t len = 4 + rng_next(&s) % 64;
            for (size_t k = 0; k < len; k++)
               bytes[k] = (uint8_t)rng_next(&s);
            if (t->kind == ISA_T_CHOICE)
               force_pattern(&t->variants[round % t->n_variants], bytes);
            tries++;
            ok += (unsigned)round_trip(t, bytes, len, x, y, spec->name, 1);
         }
         total += ok;
         cr_log_info("%s %s: %u of %u random inputs decoded", spec->name, t->name, ok, tries);
      }
   }
   cr_assert_gt(total, 100u, "random containers almost never decode: the property is not exercised");
}

/* A unit decodes alike wherever it sits: followed by random bytes, or
 * alone in a buffer of exactly its own bytes (bits past its end zero).
 * A choice reads one window for every alternative, longer than the short
 * forms; a bit of the next unit must never reach a short form's fields. */
Test(properties, a_unit_decodes_alike_alone_and_followed_by_others)
{
   static uint8_t bytes[MAXBYTES], alone[MAXBYTES];
   static char x[1 << 16], y[1 << 16];
   uint64_t s = 77;
   unsigned compared = 0;
   char why[300];
   for (unsigned si = 0; all_specs(si); si++) {
      const struct isa_spec *spec = all_specs(si);
      for (unsigned ti = 0; ti < spec->n_types; ti++) {
         const struct isa_type_desc *t = spec->types[ti];
         cr_assert_leq(t->c_size, sizeof x);
         for (unsigned round = 0; round < 400; round++) {
            struct isa_error err;
            size_t len = 96 + rng_next(&s) % 64, bits = 0, bits2 = 0, n;
            for (size_t k = 0; k < len; k++)
               bytes[k] = (uint8_t)rng_next(&s);
            if (t->kind == ISA_T_CHOICE)
               force_pattern(&t->variants[round % t->n_variants], bytes);
            else if (t->kind == ISA_T_STRUCT)
               force_fixed(t, bytes);
            memset(x, 0, t->c_size);
            if (t->decode(bytes, len, 0, x, &bits, &err) != ISA_OK)
               continue;
            n = (bits + 7) / 8;
            memcpy(alone, bytes, n);
            if (bits % 8)
               alone[n - 1] &= (uint8_t)((1u << (bits % 8)) - 1);
            memset(y, 0, t->c_size);
            cr_assert_eq(t->decode(alone, n, 0, y, &bits2, &err), ISA_OK, "%s %s: decodes only when followed by more",
                         spec->name, t->name);
            cr_assert_eq(bits2, bits, "%s %s: %zu bits followed by more, %zu alone", spec->name, t->name, bits, bits2);
            L.a.n = L.b.n = 0;
            isa_walk_fields(t, x, collect_field, &L.a);
            isa_walk_fields(t, y, collect_field, &L.b);
            cr_assert(same_fields(&L.a, &L.b, why, sizeof why), "%s %s: followed by more, then alone: %s", spec->name,
                      t->name, why);
            compared++;
         }
      }
   }
   cr_assert_gt(compared, 5000u, "only %u units compared", compared);
}
