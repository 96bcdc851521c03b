/* Every entry of every reference corpus (tests/corpus/, one .jsonl per corpus), through
 * the library, the same way for every spec:
 *   - the program decodes, and a single-unit entry to exactly its fields;
 *   - every unit, encoded again where it was, gives back the program's bytes;
 *   - set field by field from those fields, it packs back to its bytes;
 *   - it prints exactly the reference tool's text.
 * A listing entry prints with addresses (`isa dis --offsets`); a single unit
 * with unknown bits (`rem`) must hold them in exactly our reserved fields; an
 * encoding another always shadows is decoded by name (and must decode as the
 * shadowing one otherwise).  An entry may name spec options (Midgard's
 * "gpu").  Known differences from a reference printer are in the list below,
 * each with its reason. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus.h"
#include "helpers.h"
#include "isagen/isagen.h"

/* Entries whose text is known to differ from the reference tool: the
 * selection, with its reason, is beside each corpus (its quirks file, as
 * corpus.h's struct corpus_deviation); here are the text transforms it
 * names.  A transform turns the reference text into ours, so the rest of
 * such a text is still compared exactly; where it cannot (a value we
 * compute differently), a deviation with `both` sets the same part aside in
 * both texts.  (docs/specs/ lists the same cases.) */
static void none_operands(char *text, const struct corpus_entry *e);
static void constant_operands(char *text, const struct corpus_entry *e);
static void none_operands_aside(char *expected, char *ours);
static const struct {
   const char *name;
   void (*fn)(char *text, const struct corpus_entry *e); /* on the expected text (and ours with `both`) */
   void (*pair)(char *expected, char *ours);              /* or on the two side by side */
} transforms[] = {
   {"none_operands", none_operands, NULL},
   {"constant_operands", constant_operands, NULL},
   {"none_operands_aside", NULL, none_operands_aside},
};

/* Line by line, operand by operand (", " apart): where the expected text
 * has None, both texts get "*".  For records that do not carry the fields
 * none_operands needs (the real programs). */
static void none_operands_aside(char *expected, char *ours)
{
   static char a[1 << 16], b[1 << 16];
   char *ea = NULL, *eb = NULL;
   size_t la = 0, lb = 0;
   char *lx = strtok_r(expected, "\n", &ea), *ly = strtok_r(ours, "\n", &eb);
   a[0] = b[0] = '\0';
   while (lx || ly) {
      char *px = lx ? lx : (char *)"", *py = ly ? ly : (char *)"";
      for (;;) {
         char *nx = strstr(px, ", "), *ny = strstr(py, ", ");
         size_t nxl = nx ? (size_t)(nx - px) : strlen(px), nyl = ny ? (size_t)(ny - py) : strlen(py);
         int aside = nxl == 4 && !strncmp(px, "None", 4);
         la += (size_t)snprintf(a + la, sizeof a - la, "%.*s%s", aside ? 1 : (int)nxl, aside ? "*" : px, nx ? ", " : "");
         lb += (size_t)snprintf(b + lb, sizeof b - lb, "%.*s%s", aside ? 1 : (int)nyl, aside ? "*" : py, ny ? ", " : "");
         if (!nx || !ny) { /* one line ended: the rest of the other as it is */
            la += (size_t)snprintf(a + la, sizeof a - la, "%s", nx ? nx + 2 : "");
            lb += (size_t)snprintf(b + lb, sizeof b - lb, "%s", ny ? ny + 2 : "");
            break;
         }
         px = nx + 2;
         py = ny + 2;
      }
      la += (size_t)snprintf(a + la, sizeof a - la, "\n");
      lb += (size_t)snprintf(b + lb, sizeof b - lb, "\n");
      lx = strtok_r(NULL, "\n", &ea);
      ly = strtok_r(NULL, "\n", &eb);
   }
   strcpy(expected, a);
   strcpy(ours, b);
}

/* Constant operands (#v and <v, v, ...>, not the << of a shift) become #K. */
static void constant_operands(char *text, const struct corpus_entry *e)
{
   char *r = text, *w = text;
   (void)e;
   while (*r) {
      char *end = NULL;
      if (r[0] == '<' && r[1] == '<') {
         *w++ = *r++;
         *w++ = *r++;
         continue;
      }
      if (*r == '#')
         for (end = r + 1; *end && *end != ',' && *end != '\n'; end++)
            ;
      else if (*r == '<' && (end = strpbrk(r, ">\n")) != NULL && *end == '>')
         end++;
      else
         end = NULL;
      if (!end) {
         *w++ = *r++;
         continue;
      }
      *w++ = '#';
      *w++ = 'K';
      r = end;
   }
   *w = '\0';
}

/* Each ", None" operand becomes ", uA_uB" (A = 2U, B = 2U + 1, U taken in
 * order from the corpus's own fields, e->none_u) or, for "-", goes. */
static void none_operands(char *text, const struct corpus_entry *e)
{
   static char out[1 << 16];
   const char *u = e->none_u, *p = text, *hit;
   size_t len = 0;
   cr_assert(u, "%s: none_operand without its operands", e->id);
   while ((hit = strstr(p, ", None")) && (hit[6] == ',' || hit[6] == '\n' || hit[6] == '\0')) {
      char *end;
      long v;
      cr_assert(*u, "%s: more None operands than the corpus fields say", e->id);
      if (*u == '-') {
         end = (char *)u + 1;
         len += (size_t)snprintf(out + len, sizeof out - len, "%.*s", (int)(hit - p), p);
      } else {
         v = strtol(u, &end, 10);
         len += (size_t)snprintf(out + len, sizeof out - len, "%.*s, u%ld_u%ld", (int)(hit - p), p, 2 * v, 2 * v + 1);
      }
      u = *end == ',' ? end + 1 : end;
      p = hit + 6;
   }
   cr_assert_eq(*u, '\0', "%s: fewer None operands than the corpus fields say", e->id);
   snprintf(out + len, sizeof out - len, "%s", p);
   strcpy(text, out);
}

static int deviation(const struct corpus *c, const struct corpus_entry *e, char *ours, char *expected)
{
   for (unsigned i = 0; i < c->n_deviations; i++) {
      const struct corpus_deviation *d = &c->deviations[i];
      void (*fn)(char *, const struct corpus_entry *) = NULL;
      if (!(e->flags & d->flag))
         continue;
      void (*pair)(char *, char *) = NULL;
      for (unsigned k = 0; k < sizeof transforms / sizeof transforms[0]; k++)
         if (!strcmp(transforms[k].name, d->transform))
            fn = transforms[k].fn, pair = transforms[k].pair;
      cr_assert(fn || pair, "%s: deviation \"%s\" names the unknown text transform %s", c->name, d->reason,
                d->transform);
      if (pair) {
         cr_assert(d->both, "%s: %s compares both texts", c->name, d->transform);
         pair(expected, ours);
         return 1;
      }
      fn(expected, e);
      if (d->both)
         fn(ours, e);
      return 1;
   }
   return 0;
}

/* The entry's spec options ("gpu=t760,...") in options[], as isa dis --gpu t760 sets them. */
static const int64_t *entry_options(const struct isa_spec *spec, const struct corpus_entry *e, int64_t *options)
{
   if (!e->options)
      return NULL;
   cr_assert(options_from(spec, e->options, options), "%s: %s has options %s", e->id, spec->name, e->options);
   return options;
}

#define MAXB (1 << 16) /* the longest program of the corpora (real-midgard) is 4.3 KB */

static struct field_list fields;
static char text[1 << 16], expected[1 << 16];

/* Print the program as `isa dis` does (with --offsets for a listing; with
 * the spec options given); re-encode each unit that lies wholly in the input
 * at its offset into `again`, so the caller can compare it with the input up
 * to *end, where the last unit ends.  Bytes a listing skips or fails on keep
 * their value in `again`.  A listing lets the cursor keep each unit (obj
 * NULL, isa_cursor_unit), the plain text decodes into the caller's struct:
 * both ways print every corpus entry. */
/* One unit of a listing as isa dis prints it: the spec's prefix when it
 * is a listing, the unit (or the spec's text for a failed one), the
 * separator. */
static void print_unit(const struct isa_spec *spec, const void *obj, struct isa_ctx *ctx, int listing,
                       struct isa_out *o)
{
   ctx->listing = listing;
   if (listing && spec->prefix)
      spec->prefix(o, ctx);
   if (ctx->failed)
      isa_out_str(o, spec->failed_text);
   else
      spec->unit->print(obj, o, ctx);
   isa_out_str(o, spec->separator);
}

static size_t print_program(const struct isa_spec *spec, const uint8_t *b, size_t n, int listing,
                            const int64_t *options, char *out, size_t cap, uint8_t *again, size_t *end, int *status)
{
   void *mine = calloc(1, spec->unit->c_size);
   const void *obj = mine;
   struct isa_cursor cur;
   struct isa_ctx ctx;
   struct isa_error err;
   struct isa_out o;
   int r;
   isa_out_buffer(&o, out, cap);
   if (listing)
      memcpy(again, b, n);
   else
      memset(again, 0xa5, n);
   cr_assert_eq(isa_cursor_init(&cur, spec, b, n), ISA_OK);
   cur.options = options;
   *end = 0;
   while ((r = isa_cursor_next(&cur, listing ? NULL : mine, &ctx, &err)) > 0) {
      size_t bits = 0;
      if (listing)
         obj = isa_cursor_unit(&cur);
      if (ctx.offset + (ctx.size + 7) / 8 > *end)
         *end = ctx.offset + (ctx.size + 7) / 8;
      print_unit(spec, obj, &ctx, listing, &o);
      if (ctx.failed)
         continue;
      if (ctx.offset * 8 + ctx.size > n * 8)
         continue; /* runs past the input, into zeros */
      cr_assert_eq(spec->unit->encode(obj, again, n, ctx.offset * 8, &bits, &err), ISA_OK,
                   "%s: the unit at %llu encodes again: %s", spec->name, (unsigned long long)ctx.offset,
                   isa_strerror(err.status));
      cr_assert_eq(bits, ctx.size, "%s: same size", spec->name);
   }
   *status = r;
   isa_cursor_fini(&cur);
   free(mine);
   isa_out_flush(&o);
   return isa_out_len(&o);
}

/* Fields the corpus lists: not constant bits or length flags, which the
 * encoder derives; not unknown bits when the corpus gives them as `rem`. */
static int compared(const struct corpus_entry *e, const struct isa_field_desc *fd)
{
   return fd->role != ISA_ROLE_FIXED && fd->role != ISA_ROLE_LENGTH && !(e->rem && fd->role == ISA_ROLE_RESERVED);
}

static void collect_compared(void *user, const char *path, const struct isa_field_desc *fd, int64_t v)
{
   const struct corpus_entry *e = *(const struct corpus_entry **)user;
   if (compared(e, fd))
      collect_field(&fields, path, fd, v);
}

/* Reserved fields, to zero them (obj = NULL: count them). */
struct reserved_list {
   unsigned n;
   char paths[64][96];
};

static void collect_reserved(void *user, const char *path, const struct isa_field_desc *fd, int64_t v)
{
   struct reserved_list *l = (struct reserved_list *)user;
   (void)v;
   if (fd->role == ISA_ROLE_RESERVED && l->n < 64)
      snprintf(l->paths[l->n++], sizeof l->paths[0], "%s", path);
}

/* The alternative of choice t called name, 1-based, or 0. */
static unsigned alt_index(const struct isa_type_desc *t, const char *name)
{
   for (unsigned i = 0; i < t->n_variants; i++)
      if (!strcmp(t->variants[i].name, name))
         return i + 1;
   return 0;
}

/* One unit: decode it (as e->as_alt when given), compare with the corpus's
 * fields and unknown bits, pack it again from the corpus fields, print it. */
static void check_unit(const struct isa_spec *spec, const struct corpus_entry *e, const uint8_t *bytes, size_t n,
                       int *printed)
{
   static uint8_t packed[MAXB], rem[MAXB];
   const struct isa_type_desc *u = spec->unit;
   void *obj = calloc(1, u->c_size), *built = calloc(1, u->c_size);
   size_t size = 0, bits = 0;
   struct isa_error err;
   const struct corpus_entry *ep = e;
   const char *alt;

   cr_assert_eq(isa_decode_unit(spec, bytes, n, 0, obj, &size, &err), ISA_OK, "%s %s decodes", spec->name, e->id);
   if (e->as_alt) {
      /* bits that always decode as another alternative: that one, and then as the named one */
      unsigned a = alt_index(u, e->as_alt);
      cr_assert_str_eq(isa_variant_name(u, obj), e->decodes_as, "%s %s decodes as %s", spec->name, e->id,
                       e->decodes_as);
      cr_assert(a && u->decode_as, "%s %s: %s is an alternative of %s", spec->name, e->id, e->as_alt, u->name);
      memset(obj, 0, u->c_size);
      cr_assert_eq(u->decode_as(bytes, n, 0, obj, a, &size, &err), ISA_OK, "%s %s decodes as %s", spec->name, e->id,
                   e->as_alt);
      size /= 8;
   }
   cr_assert_eq(size, n, "%s %s: one unit of %zu bytes, not %zu", spec->name, e->id, n, size);
   alt = u->kind == ISA_T_CHOICE ? isa_variant_name(u, obj) : NULL;

   fields.n = 0;
   isa_walk_fields(u, obj, collect_compared, &ep);
   cr_assert_eq(fields.n, e->n_fields, "%s %s: %u fields, the corpus has %u", spec->name, e->id, fields.n,
                e->n_fields);
   for (unsigned k = 0; k < e->n_fields; k++) {
      int64_t v;
      cr_assert(field_list_find(&fields, e->fields[k].name, &v), "%s %s: no field %s", spec->name, e->id,
                e->fields[k].name);
      cr_assert_eq(v, e->fields[k].value, "%s %s: %s = %lld, the corpus says %lld", spec->name, e->id,
                   e->fields[k].name, (long long)v, e->fields[k].value);
   }

   if (e->rem) {
      /* our reserved fields hold exactly the corpus's unknown bits: with
       * them zeroed, the encoding differs from the input by `rem` alone */
      struct reserved_list res = {0};
      cr_assert_lt(hex_value_bytes(e->rem, rem, n), n + 1, "%s %s: rem fits", spec->name, e->id);
      isa_walk_fields(u, obj, collect_reserved, &res);
      for (unsigned k = 0; k < res.n; k++)
         cr_assert_eq(isa_field_set(u, obj, res.paths[k], 0), ISA_OK);
      memset(packed, 0, n);
      cr_assert_eq(u->encode(obj, packed, n, 0, &bits, &err), ISA_OK, "%s %s: encode without unknown bits: %s",
                   spec->name, e->id, isa_strerror(err.status));
      for (size_t k = 0; k < n; k++)
         cr_assert_eq(packed[k] ^ bytes[k], rem[k], "%s %s: byte %zu: unknown bits %02x, the corpus says %02x",
                      spec->name, e->id, k, packed[k] ^ bytes[k], rem[k]);
   }

   /* built from the corpus fields alone (and its unknown bits), it packs to the bytes */
   if (alt)
      cr_assert_eq(isa_variant_set(u, built, alt), ISA_OK);
   {
      /* reserved bits the corpus does not name hold its unknown bits alone:
       * not the value a reserved field starts at (what producers write,
       * <reserved expect>) */
      struct reserved_list res = {0};
      isa_walk_fields(u, built, collect_reserved, &res);
      for (unsigned k = 0; k < res.n; k++)
         cr_assert_eq(isa_field_set(u, built, res.paths[k], 0), ISA_OK);
   }
   for (unsigned k = 0; k < e->n_fields; k++)
      cr_assert_eq(isa_field_set(u, built, e->fields[k].name, e->fields[k].value), ISA_OK, "%s %s: set %s",
                   spec->name, e->id, e->fields[k].name);
   isa_select_variants(u, built);
   memset(packed, 0, n);
   cr_assert_eq(u->encode(built, packed, sizeof packed, 0, &bits, &err), ISA_OK, "%s %s: pack from fields: %s %s",
                spec->name, e->id, isa_strerror(err.status), err.detail ? err.detail : "");
   if (e->rem)
      for (size_t k = 0; k < n; k++)
         packed[k] |= rem[k];
   cr_assert_arr_eq(packed, bytes, n, "%s %s: packed bytes differ", spec->name, e->id);

   if (e->as_alt && e->text) {
      /* the cursor would pick the shadowing alternative: print this one directly */
      struct isa_ctx ctx = {0};
      struct isa_out o;
      isa_out_buffer(&o, text, sizeof text);
      ctx.program_size = n;
      ctx.last = 1;
      ctx.size = n * 8;
      u->print(obj, &o, &ctx);
      cr_assert_lt(isa_out_len(&o), sizeof text);
      *printed = 1;
   }
   free(obj);
   free(built);
}

Test(corpus, every_entry_decodes_packs_back_and_prints_like_the_reference)
{
   static uint8_t bytes[MAXB], again[MAXB];
   int64_t options[16];
   unsigned checked_text = 0, checked_fields = 0, checked_bytes = 0, deviating = 0;
   for (unsigned c = 0; c < n_corpora; c++) {
      const struct isa_spec *spec = isa_spec_find(corpora[c].spec);
      cr_assert(spec, "%s: spec %s is compiled in", corpora[c].name, corpora[c].spec);
      cr_assert_gt(*corpora[c].count, 0u);
      for (unsigned i = 0; i < *corpora[c].count; i++) {
         const struct corpus_entry *e = &corpora[c].entries[i];
         size_t n = hex_bytes(e->hex, bytes, sizeof bytes), len, end = 0;
         int status, printed = 0;
         if (e->n_fields || e->as_alt) {
            check_unit(spec, e, bytes, n, &printed);
            checked_fields++;
         }
         if (!e->text)
            continue;
         if (printed) {
            len = strlen(text);
         } else {
            cr_assert_leq(spec->n_options, sizeof options / sizeof options[0]);
            len = print_program(spec, bytes, n, !!(e->flags & CORPUS_LISTING), entry_options(spec, e, options), text,
                                sizeof text, again, &end, &status);
            cr_assert_eq(status, 0, "%s %s decodes as a program", spec->name, e->id);
            /* a program ends where its stop rule says (Midgard: at BREAK), else with the input */
            if (!spec->stop)
               cr_assert_eq(end, n, "%s %s: the units cover the input", spec->name, e->id);
            cr_assert_arr_eq(again, bytes, end, "%s %s: re-encoded units differ from the input", spec->name, e->id);
            checked_bytes++;
            cr_assert_lt(len, sizeof text);
         }
         /* the references print a final newline the corpus leaves out (all of them, CORPUS_TRIMMED) */
         while (len && text[len - 1] == '\n') {
            text[--len] = '\0';
            if (!(e->flags & CORPUS_TRIMMED))
               break;
         }
         snprintf(expected, sizeof expected, "%s", e->text);
         if (deviation(&corpora[c], e, text, expected))
            deviating++;
         cr_assert_str_eq(text, expected, "%s %s (%s) prints differently:\n%s\n--- expected:\n%s", spec->name,
                          e->id, corpora[c].name, text, expected);
         checked_text++;
      }
   }
   cr_assert_gt(checked_fields, 6400u);
   cr_assert_gt(checked_text, 8000u);
   cr_assert_gt(checked_bytes, 7900u);
   /* 130 in the random corpora, 27 None operands and 27 fixed quirks in the real programs: a new one is a
    * decision, taken here */
   cr_assert_leq(deviating, 184u, "%u deviations: more than the known None operands and fixed quirks", deviating);
}

/* The listing of b into sink o, as print_program prints it. */
static void print_into(const struct isa_spec *spec, const uint8_t *b, size_t n, int listing, const int64_t *options,
                       struct isa_out *o)
{
   struct isa_cursor cur;
   struct isa_ctx ctx;
   struct isa_error err;
   cr_assert_eq(isa_cursor_init(&cur, spec, b, n), ISA_OK);
   cur.options = options;
   while (isa_cursor_next(&cur, NULL, &ctx, &err) > 0)
      print_unit(spec, isa_cursor_unit(&cur), &ctx, listing, o);
   isa_cursor_fini(&cur);
   isa_out_flush(o);
}

struct gathered {
   char text[1 << 16];
   size_t len;
};

static int gather(void *user, const char *s, size_t n)
{
   struct gathered *g = (struct gathered *)user;
   cr_assert_lt(g->len + n, sizeof g->text);
   memcpy(g->text + g->len, s, n);
   g->len += n;
   return 0;
}

/* Printers write runs of tokens into the sink's block when it has room
 * for a run, else into the sink's spill and then through isa_out_mem:
 * every entry's text is the same in a callback sink and, cut, in buffers
 * too small for a run, and the length counts what was cut. */
Test(corpus, every_entry_prints_alike_into_any_sink)
{
   static uint8_t bytes[MAXB];
   static char full[1 << 16], small[256];
   static struct gathered g;
   static const size_t caps[] = {1, 2, 5, 17, 64, 100, 255};
   int64_t options[16];
   unsigned checked = 0;
   for (unsigned c = 0; c < n_corpora; c++) {
      const struct isa_spec *spec = isa_spec_find(corpora[c].spec);
      for (unsigned i = 0; i < *corpora[c].count; i++) {
         const struct corpus_entry *e = &corpora[c].entries[i];
         size_t n = hex_bytes(e->hex, bytes, sizeof bytes), len;
         const int64_t *opts = entry_options(spec, e, options);
         const int listing = !!(e->flags & CORPUS_LISTING);
         struct isa_out o;
         isa_out_buffer(&o, full, sizeof full);
         print_into(spec, bytes, n, listing, opts, &o);
         len = isa_out_len(&o);
         cr_assert_lt(len, sizeof full);
         g.len = 0;
         isa_out_callback(&o, gather, &g);
         print_into(spec, bytes, n, listing, opts, &o);
         cr_assert_eq(g.len, len, "%s %s: a callback gets as much", spec->name, e->id);
         cr_assert_arr_eq(g.text, full, len, "%s %s: a callback gets the same text", spec->name, e->id);
         for (size_t k = 0; k < sizeof caps / sizeof caps[0]; k++) {
            isa_out_buffer(&o, small, caps[k]);
            print_into(spec, bytes, n, listing, opts, &o);
            cr_assert_eq(isa_out_len(&o), len, "%s %s: the length in %zu bytes", spec->name, e->id, caps[k]);
            cr_assert_eq(strlen(small), len < caps[k] ? len : caps[k] - 1);
            cr_assert_arr_eq(small, full, strlen(small), "%s %s: cut in %zu bytes", spec->name, e->id, caps[k]);
         }
         checked++;
      }
   }
   cr_assert_gt(checked, 8000u);
}
