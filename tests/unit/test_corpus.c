/* Every entry of every reference corpus (tests/corpus/, one .jsonl per corpus), through
 * the library, the same way for every spec:
 *   - the program decodes, and a single-unit entry to exactly its fields;
 *   - every unit, encoded again where it was, gives back the program's bytes;
 *   - set field by field from those fields, it packs back to its bytes;
 *   - it prints exactly the reference tool's text.
 * A known difference from a reference printer would go in the list below,
 * with its reason; there is none today. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus.h"
#include "helpers.h"
#include "isagen/isagen.h"

/* Entries whose text is known to differ from the reference tool, and why.
 * (docs/specs/ lists the same cases.) */
static const struct {
   const char *spec, *hex, *reason;
} deviations[] = {
   {NULL, NULL, NULL},
};

static const char *deviation(const char *spec, const char *hex)
{
   for (unsigned i = 0; deviations[i].spec; i++)
      if (!strcmp(deviations[i].spec, spec) && !strcmp(deviations[i].hex, hex))
         return deviations[i].reason;
   return NULL;
}

#define MAXB 4096

static struct field_list fields;
static char text[1 << 16];

/* Print the program as `isa dis` does; re-encode each unit at its offset
 * into `again`, so the caller can compare it with the input. */
static size_t print_program(const struct isa_spec *spec, const uint8_t *b, size_t n, char *out, size_t cap,
                            uint8_t *again, int *status)
{
   void *obj = calloc(1, spec->unit->c_size);
   struct isa_cursor cur;
   struct isa_ctx ctx;
   struct isa_error err;
   struct isa_out o;
   int r;
   isa_out_buffer(&o, out, cap);
   memset(again, 0xa5, n);
   cr_assert_eq(isa_cursor_init(&cur, spec, b, n), ISA_OK);
   while ((r = isa_cursor_next(&cur, obj, &ctx, &err)) > 0) {
      size_t bits = 0;
      spec->unit->print(obj, &o, &ctx);
      isa_out_str(&o, spec->separator);
      cr_assert_eq(spec->unit->encode(obj, again, n, ctx.offset * 8, &bits, &err), ISA_OK,
                   "%s: the unit at %llu encodes again: %s", spec->name, (unsigned long long)ctx.offset,
                   isa_strerror(err.status));
      cr_assert_eq(bits, ctx.size, "%s: same size", spec->name);
   }
   *status = r;
   isa_cursor_fini(&cur);
   free(obj);
   return o.len;
}

Test(corpus, every_entry_decodes_packs_back_and_prints_like_the_reference)
{
   const struct corpus corpora[] = CORPORA;
   static uint8_t bytes[MAXB], packed[MAXB], again[MAXB];
   unsigned checked_text = 0, checked_fields = 0, checked_bytes = 0;
   for (unsigned c = 0; c < sizeof corpora / sizeof corpora[0]; c++) {
      const struct isa_spec *spec = isa_spec_find(corpora[c].spec);
      cr_assert(spec, "spec %s is compiled in", corpora[c].spec);
      cr_assert_gt(*corpora[c].count, 0u);
      for (unsigned i = 0; i < *corpora[c].count; i++) {
         const struct corpus_entry *e = &corpora[c].entries[i];
         size_t n = hex_bytes(e->hex, bytes, sizeof bytes);
         int status;
         if (e->n_fields) {
            /* a single unit: its fields, exactly */
            void *obj = calloc(1, spec->unit->c_size), *built = calloc(1, spec->unit->c_size);
            size_t size = 0, bits = 0;
            struct isa_error err;
            cr_assert_eq(isa_decode_unit(spec, bytes, n, 0, obj, &size, &err), ISA_OK, "%s %s decodes", spec->name,
                         e->id);
            cr_assert_eq(size, n, "%s %s: one unit of %zu bytes", spec->name, e->id, n);
            fields.n = 0;
            isa_walk_fields(spec->unit, obj, collect_field, &fields);
            cr_assert_eq(fields.n, e->n_fields, "%s %s: %u fields, the corpus has %u", spec->name, e->id, fields.n,
                         e->n_fields);
            for (unsigned k = 0; k < e->n_fields; k++) {
               int64_t v;
               cr_assert(field_list_find(&fields, e->fields[k].name, &v), "%s %s: no field %s", spec->name, e->id,
                         e->fields[k].name);
               cr_assert_eq(v, e->fields[k].value, "%s %s: %s = %lld, the corpus says %lld", spec->name, e->id,
                            e->fields[k].name, (long long)v, e->fields[k].value);
            }
            /* built from the reference fields alone, it packs to the bytes */
            for (unsigned k = 0; k < e->n_fields; k++)
               cr_assert_eq(isa_field_set(spec->unit, built, e->fields[k].name, e->fields[k].value), ISA_OK,
                            "%s %s: set %s", spec->name, e->id, e->fields[k].name);
            isa_select_variants(spec->unit, built);
            memset(packed, 0xa5, n);
            cr_assert_eq(spec->unit->encode(built, packed, sizeof packed, 0, &bits, &err), ISA_OK,
                         "%s %s: pack from fields: %s %s", spec->name, e->id, isa_strerror(err.status),
                         err.detail ? err.detail : "");
            cr_assert_eq(bits, n * 8, "%s %s: packed %zu bits", spec->name, e->id, bits);
            cr_assert_arr_eq(packed, bytes, n, "%s %s: packed bytes differ", spec->name, e->id);
            checked_fields++;
            free(obj);
            free(built);
         }
         if (e->text) {
            size_t len = print_program(spec, bytes, n, text, sizeof text, again, &status);
            cr_assert_eq(status, 0, "%s %s decodes as a program", spec->name, e->id);
            cr_assert_arr_eq(again, bytes, n, "%s %s: re-encoded units differ from the input", spec->name, e->id);
            checked_bytes++;
            cr_assert_lt(len, sizeof text);
            /* the references print a final newline the corpus leaves out */
            if (len && text[len - 1] == '\n')
               text[--len] = '\0';
            if (deviation(spec->name, e->hex))
               continue;
            cr_assert_str_eq(text, e->text, "%s %s prints differently", spec->name, e->id);
            checked_text++;
         }
      }
   }
   cr_assert_gt(checked_fields, 2900u);
   cr_assert_gt(checked_text, 2900u);
   cr_assert_gt(checked_bytes, 2900u);
}
