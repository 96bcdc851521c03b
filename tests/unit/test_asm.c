/* The assembler (isagen/asm.h), for every spec that has one:
 *   - every entry of every reference corpus: its text assembles, and the
 *     bytes print as the very text again (with --offsets for a listing, with
 *     the entry's spec options); the share whose bytes are the corpus's own
 *     is reported (text does not show every bit);
 *   - random units: the text of any unit that decodes assembles into bytes
 *     that print the same text;
 *   - errors name their line and column.
 * The entries whose text cannot be assembled are listed below, each kind
 * with its reason, or in the corpus's NAME.asm-gaps.json, each record with
 * its reason; nothing else is skipped.  With ISAGEN_ASM_GAPS=1 (make
 * check-asm-gaps) the listed records are read too, and one that does
 * assemble back fails the test: the lists only shrink.  (Not in make check:
 * a record the matcher gives up on costs it its whole step budget, and
 * Midgard's real programs have hundreds of them.) */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus.h"
#include "helpers.h"
#include "isagen/asm.h"
#include "isagen/isagen.h"

#define MAXB (1 << 16)

/* Why an entry's reference text cannot be assembled, or NULL. */
static const char *not_assembled(const struct isa_spec *spec, const struct corpus_entry *e)
{
   if (e->as_alt)
      return "an encoding another always shadows: its bytes decode as the other one, so no bytes print this text";
   if (e->flags & CORPUS_NONE_OPERAND)
      return "the reference printed None for an operand it could not read: the text does not say the bits";
   if (spec->failed_text && spec->failed_text[0] && strstr(e->text, spec->failed_text))
      return "a listing's failed unit stands for bytes that decode as nothing: the text does not say which";
   return NULL;
}

static const int64_t *options_of(const struct isa_spec *spec, const struct corpus_entry *e, int64_t *options)
{
   if (!e->options)
      return NULL;
   cr_assert(options_from(spec, e->options, options), "%s: %s has options %s", e->id, spec->name, e->options);
   return options;
}

static size_t trimmed(const char *s, size_t n)
{
   while (n && s[n - 1] == '\n')
      n--;
   return n;
}

static uint8_t bytes[MAXB], want[MAXB];
static char printed[1 << 17], ours[1 << 17];

/* The text an entry is assembled from: its reference text; but where the
 * reference tool prints a value our printer deliberately fixes (a quirk of
 * choice `fix`, CORPUS_FIXED_QUIRK: Midgard's constant lanes Q1/Q2), that
 * text shows a value no encoding prints, and the entry is read as we print
 * its bytes.  The corpus test (test_corpus.c) compares that print with the
 * reference text, the quirk's operands set aside, so it is the reference
 * text but for them. */
static const char *text_of(const struct isa_spec *spec, const struct corpus_entry *e, const int64_t *options)
{
   if (!(e->flags & CORPUS_FIXED_QUIRK))
      return e->text;
   size_t n = hex_bytes(e->hex, want, sizeof want), end = 0;
   cr_assert(dis_spec(spec, options, want, n, (e->flags & CORPUS_LISTING) != 0, ours, sizeof ours, &end) >= 0,
             "%s: %s does not decode", spec->name, e->id);
   ours[trimmed(ours, strlen(ours))] = '\0';
   return ours;
}

static int zeros(const unsigned char *p, size_t n)
{
   for (size_t i = 0; i < n; i++)
      if (p[i])
         return 0;
   return 1;
}

/* ISAGEN_ASM_EVERY=N (the ASan/UBSan run, tests/tests.mk): every Nth
 * record only, for the sanitizers' sake (the plain run reads them all). */
static unsigned every(void)
{
   const char *e = getenv("ISAGEN_ASM_EVERY");
   long n = e ? strtol(e, NULL, 10) : 1;
   return n > 1 ? (unsigned)n : 1;
}

Test(asm, every_corpus_entry_assembles_to_bytes_that_print_its_text, .timeout = 1800)
{
   unsigned specs_with = 0, step = every();
   const char *g = getenv("ISAGEN_ASM_GAPS");
   int check_gaps = g && *g && strcmp(g, "0") != 0;
   for (unsigned c = 0; c < n_corpora; c++) {
      const struct corpus *cp = &corpora[c];
      const struct isa_spec *spec = isa_spec_find(cp->spec);
      unsigned total = 0, round = 0, same = 0, padded = 0, listed = 0, gaps = 0;
      cr_assert(spec, "%s: spec %s", cp->name, cp->spec);
      if (!spec->assembler)
         continue;
      specs_with++;
      for (unsigned i = 0; i < *cp->count; i += step) {
         const struct corpus_entry *e = &cp->entries[i];
         int64_t opts[16];
         const int64_t *options = options_of(spec, e, opts);
         struct isa_asm_diag diags[4];
         unsigned nd = 0;
         size_t size = 0, end = 0;
         if (!e->text)
            continue;
         const char *text = text_of(spec, e, options);
         total++;
         if (not_assembled(spec, e)) {
            listed++;
            continue;
         }
         if (e->asm_gap) {
            /* listed as not read back yet: with ISAGEN_ASM_GAPS, it must still not be */
            listed++;
            gaps++;
            if (!check_gaps)
               continue;
            int r = isa_assemble(spec, text, strlen(text), options, bytes, sizeof bytes, &size, diags, 4, &nd);
            if (r == ISA_OK) {
               dis_spec(spec, options, bytes, size, (e->flags & CORPUS_LISTING) != 0, printed, sizeof printed, &end);
               size_t a = trimmed(printed, strlen(printed)), b = trimmed(text, strlen(text));
               cr_assert(a != b || memcmp(printed, text, a), "%s %s is listed as a gap (%s), but it assembles back: "
                         "take it off the list", cp->name, e->id, e->asm_gap);
            }
            continue;
         }
         int r = isa_assemble(spec, text, strlen(text), options, bytes, sizeof bytes, &size, diags, 4, &nd);
         cr_assert_eq(r, ISA_OK, "%s %s: %s\n%s\n%u:%u: %s", cp->name, e->id, isa_strerror(r), text,
                      nd ? diags[0].line : 0, nd ? diags[0].col : 0, nd ? diags[0].message : "");
         dis_spec(spec, options, bytes, size, (e->flags & CORPUS_LISTING) != 0, printed, sizeof printed, &end);
         size_t a = trimmed(printed, strlen(printed)), b = trimmed(text, strlen(text));
         cr_assert(a == b && !memcmp(printed, text, a), "%s %s: assembled, it prints\n%s\nnot\n%s", cp->name,
                   e->id, printed, text);
         round++;
         size_t n = hex_bytes(e->hex, want, sizeof want);
         same += n == size && !memcmp(want, bytes, n);
         /* (after the last unit, where no printer looks: zeros in the
          * corpus, or the compiler's after-stop bytes the program encoder
          * writes and a synthetic corpus leaves out: counted apart, not as
          * the same) */
         padded += (n > size && !memcmp(want, bytes, size) && zeros(want + size, n - size)) ||
                   (spec->after_stop_len && size == n + spec->after_stop_len && !memcmp(want, bytes, n));
      }
      fprintf(stderr, "asm: %-28s %5u/%u round trip, %u listed as not assembled (%u of them gaps to close); bytes the "
              "corpus's own: %u (%.0f%%), and %u more but for what follows the last unit\n", cp->name, round, total,
              listed, gaps, same, round ? 100.0 * same / round : 0.0, padded);
   }
   cr_assert(specs_with > 0, "some spec has an assembler");
}

/* The specs whose assembler does not read every text back yet (their
 * corpora list the records in NAME.asm-gaps.json): the least share of
 * random units, in percent, whose text must assemble back (as measured
 * when the gap was listed; it may only rise).  Every other spec: all. */
static const struct {
   const char *spec;
   unsigned percent;
} random_floor[] = {
   {"midgard", 99},
};

static unsigned floor_of(const char *spec)
{
   for (size_t i = 0; i < sizeof random_floor / sizeof random_floor[0]; i++)
      if (!strcmp(random_floor[i].spec, spec))
         return random_floor[i].percent;
   return 100;
}

/* Random bytes: wherever a unit decodes, the text of the program of that
 * unit assembles into bytes that print the same text.  Where a spec's
 * assembler has listed gaps, a text it cannot read is counted, not an
 * error; a text it reads must still print back as itself. */
Test(asm, the_text_of_random_units_assembles_back, .timeout = 600)
{
   unsigned count;
   const struct isa_spec *const *specs = isa_specs(&count);
   uint64_t seed = 0x9e3779b97f4a7c15u;
   static char text[1 << 14], again[1 << 14];
   for (unsigned s = 0; s < count; s++) {
      const struct isa_spec *spec = specs[s];
      unsigned tried = 0, done = 0, unread = 0, floor = floor_of(spec->name);
      if (!spec->assembler)
         continue;
      void *obj = calloc(1, spec->unit->c_size);
      size_t ub = spec->assembler->max_bytes;
      for (unsigned k = 0; k < 4000 && done < 500; k++) {
         uint8_t b[256];
         size_t size = 0, got = 0;
         struct isa_error err;
         for (size_t j = 0; j < ub && j < sizeof b; j++)
            b[j] = (uint8_t)rng_next(&seed);
         if (isa_decode_unit(spec, b, ub, 0, obj, &got, &err) != ISA_OK)
            continue;
         /* a program of that one unit, as the program encoder writes it
          * (what it derives from the unit's neighbours and place: Midgard's
          * last bundle says BREAK) */
         if (isa_encode_program(spec, obj, 1, b, sizeof b, &got, &err) != ISA_OK)
            continue;
         tried++;
         if (dis_spec(spec, NULL, b, got, 0, text, sizeof text, NULL) < 0)
            continue;
         struct isa_asm_diag d[2];
         unsigned nd = 0;
         int r = isa_assemble(spec, text, strlen(text), NULL, bytes, sizeof bytes, &size, d, 2, &nd);
         if (r != ISA_OK && floor < 100) {
            unread++;
            continue;
         }
         cr_assert_eq(r, ISA_OK, "%s: %s does not assemble: %u:%u: %s", spec->name, text, nd ? d[0].line : 0,
                      nd ? d[0].col : 0, nd ? d[0].message : isa_strerror(r));
         dis_spec(spec, NULL, bytes, size, 0, again, sizeof again, NULL);
         cr_assert_str_eq(again, text, "%s: assembled, %s prints %s", spec->name, text, again);
         done++;
      }
      free(obj);
      fprintf(stderr, "asm: %s: %u random units assembled back, %u not read (a listed gap)\n", spec->name, done, unread);
      cr_assert(done > 0 || tried == 0, "%s: some random unit decodes and assembles", spec->name);
      cr_assert(100 * done >= floor * (done + unread), "%s: %u of %u random units assembled back, fewer than the %u%% "
                "measured when its gaps were listed", spec->name, done, done + unread, floor);
   }
}

Test(asm, errors_name_line_and_column)
{
   const struct isa_spec *spec = isa_spec_find("lima-gp");
   const char text[] = "000:\tadd.a0 ^0 a0.x a0.y\n001:\tbogus.a0 ^6 a0.x\n";
   struct isa_asm_diag d[4];
   unsigned nd = 0;
   size_t size = 0;
   cr_assert(spec && spec->assembler);
   int r = isa_assemble(spec, text, sizeof text - 1, NULL, bytes, sizeof bytes, &size, d, 4, &nd);
   cr_assert_eq(r, ISA_ERR_ARG);
   cr_assert_eq(nd, 1);
   cr_assert_eq(d[0].line, 2);
   cr_assert_eq(d[0].col, 6, "column %u: %s", d[0].col, d[0].message);
   cr_assert(strstr(d[0].message, "expected") && strstr(d[0].message, "'bogus.a0"), "%s", d[0].message);
}
