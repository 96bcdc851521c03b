/*
 * libFuzzer target for the text assembler (isagen/asm.h): the input, but
 * its first byte, is a program's text for isa_assemble, for one of the
 * specs that have an assembler (spec->assembler), picked by the first
 * byte's low four bits (modulo how many, in the order of their names); its other bits pick how many diagnostics the caller
 * has room for (none: diags NULL) and whether the output buffer is a small
 * one.  Whatever the text:
 *   - no crash, no read outside the text (it is copied to a buffer of its
 *     very size, without a NUL), no undefined behaviour (ASan, UBSan);
 *   - the status is ISA_OK, ISA_ERR_ARG (then at least one diagnostic),
 *     ISA_ERR_NOSPACE or an error the program encoder gives (then a
 *     diagnostic says so); ISA_OK has no diagnostics;
 *   - *size <= cap; only diags[0..max_diags) are written; each diagnostic
 *     has line >= 1 and col >= 1, lies in the text (the line exists, the
 *     column is at most one past its last byte) and its message ends
 *     within ISA_ASM_MESSAGE, whole (one that fills the buffer was cut off);
 *   - the bytes of a program it accepts decode as a program, and printed
 *     as isa dis prints them (with or without --offsets prefixes) they are
 *     the text, blanks and the text's comments aside: what the assembler
 *     promises for each unit, here checked independently of it (a lax
 *     reading, a number in another form say, prints as isa dis prints it:
 *     that text must read back as the very bytes); for a spec
 *     whose unit prints with the default display (NAME=VALUE rows, read in
 *     any order), that text reads back as the same bytes;
 *   - comments do not change the bytes of a text printed as isa dis prints
 *     it, and blanks do not change what they print: with a comment line
 *     after it the same bytes, with every blank doubled bytes that print
 *     the same text (FUZZ_ASM_LAYOUT=0 in the environment skips this, to
 *     look past a known failure of it).
 * Texts over MAX_TEXT bytes are left alone: each unit may take the matcher
 * many steps.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isagen/asm.h"
#include "isagen/isagen.h"

#define MAX_TEXT 4096
#define MAX_DIAGS 9
#define BIG_CAP (1 << 16)
#define PRINT_CAP (1 << 20)

static const struct isa_spec *specs[32];
static unsigned n_specs;
static int layout_check = 1; /* check_layout, unless FUZZ_ASM_LAYOUT=0 */

static void find_specs(void)
{
   unsigned count;
   const struct isa_spec *const *all = isa_specs(&count);
   for (unsigned i = 0; i < count && n_specs < sizeof specs / sizeof specs[0]; i++)
      if (all[i]->assembler)
         specs[n_specs++] = all[i];
   if (!n_specs) {
      fprintf(stderr, "fuzz-asm: no spec has an assembler\n");
      abort();
   }
   /* by name, as tests/fuzz/asm_seeds.py numbers them */
   for (unsigned i = 0; i < n_specs; i++)
      for (unsigned j = i + 1; j < n_specs; j++)
         if (strcmp(specs[j]->name, specs[i]->name) < 0) {
            const struct isa_spec *t = specs[i];
            specs[i] = specs[j];
            specs[j] = t;
         }
}

static void fail(const char *spec, const char *text, size_t len, const char *fmt, const char *detail)
{
   fprintf(stderr, "fuzz-asm: %s: ", spec);
   fprintf(stderr, fmt, detail);
   fprintf(stderr, "\nfuzz-asm: the text (%zu bytes):\n%.*s\n", len, (int)len, text);
   abort();
}

/* Whether (line, col) is a place in text[0..len): the line exists and the
 * column is at most one past its last byte (a line's end, or the text's). */
static int in_text(const char *text, size_t len, unsigned line, unsigned col)
{
   size_t at = 0;
   if (line < 1 || col < 1)
      return 0;
   for (unsigned l = 1; l < line; l++) {
      const char *nl = (const char *)memchr(text + at, '\n', len - at);
      if (!nl)
         return 0;
      at = (size_t)(nl - text) + 1;
   }
   const char *nl = (const char *)memchr(text + at, '\n', len - at);
   size_t line_len = (nl ? (size_t)(nl - text) : len) - at;
   return col - 1 <= line_len;
}

static int blank(char c)
{
   return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Printed text p[0..pn) against the source s[0..sn), one character at a
 * time: equal but for blanks anywhere, and comments in the source (# or ;
 * to the end of the line) where the printed text has not that character. */
static int same_but_blanks(const char *p, size_t pn, const char *s, size_t sn)
{
   size_t i = 0, j = 0;
   for (;;) {
      while (i < pn && blank(p[i]))
         i++;
      while (j < sn && (blank(s[j]) || ((s[j] == '#' || s[j] == ';') && !(i < pn && p[i] == s[j])))) {
         if (blank(s[j])) {
            j++;
            continue;
         }
         while (j < sn && s[j] != '\n')
            j++;
      }
      if (i == pn || j == sn)
         return i == pn && j == sn;
      if (p[i] != s[j])
         return 0;
      i++;
      j++;
   }
}

/* Whether the text defines a label (a line starting with name: then a
 * blank or its end) in a spec whose text may have labels (Lima PP's: not
 * AGX's, whose listing prefixes look like labels): its bytes then print
 * without the label, and with numbers where the text used it, so the
 * checks of what it prints are left out. */
static int has_label(const struct isa_spec *spec, const char *text, size_t len)
{
   if (spec->assembler->place < 0)
      return 0;
   for (size_t i = 0; i < len; i++) {
      if (i > 0 && text[i - 1] != '\n')
         continue;
      size_t j = i;
      while (j < len && (text[j] == ' ' || text[j] == '\t'))
         j++;
      size_t k = j;
      while (k < len && (isalnum((unsigned char)text[k]) || text[k] == '_'))
         k++;
      if (k > j && !isdigit((unsigned char)text[j]) && k < len && text[k] == ':' &&
          (k + 1 == len || isspace((unsigned char)text[k + 1])))
         return 1;
   }
   return 0;
}

/* The program's bytes as isa dis prints them (listing: with isa dis
 * --offsets's prefixes) into out; its length, or (size_t)-1 when the bytes
 * do not decode to their end (or to the stream's after-stop bytes, which
 * the program encoder writes after a unit that stops the program). */
static size_t print_program(const struct isa_spec *spec, const uint8_t *bytes, size_t n, int listing, char *out,
                            size_t cap)
{
   struct isa_cursor c;
   struct isa_ctx ctx;
   struct isa_out o;
   int r;
   isa_out_buffer(&o, out, cap);
   if (isa_cursor_init(&c, spec, bytes, n) != ISA_OK)
      return (size_t)-1;
   while ((r = isa_cursor_next(&c, NULL, &ctx, NULL)) > 0) {
      ctx.listing = listing;
      if (listing) {
         if (spec->prefix)
            spec->prefix(&o, &ctx);
         else
            isa_out_fmt(&o, "%llx: ", (unsigned long long)ctx.offset);
      }
      if (ctx.failed)
         isa_out_str(&o, spec->failed_text);
      else
         spec->unit->print(isa_cursor_unit(&c), &o, &ctx);
      isa_out_str(&o, spec->separator);
   }
   size_t end = c.offset;
   int after_stop = c.stopped && r == 0 && spec->after_stop_len && n - end == spec->after_stop_len &&
                    !memcmp(bytes + end, spec->after_stop, spec->after_stop_len);
   isa_cursor_fini(&c);
   size_t len = isa_out_len(&o);
   if (r < 0 || (end != n && !after_stop) || len >= cap)
      return (size_t)-1;
   return len;
}

/* A spec read as NAME=VALUE rows (the default display) takes them in any
 * order, each as often as it likes, the last value standing: the text
 * isa dis prints for the bytes must read back as the same bytes. */
static void check_dump(const struct isa_spec *spec, const uint8_t *bytes, size_t n, const char *text, size_t len,
                       char *printed, size_t cap)
{
   static uint8_t again[BIG_CAP];
   size_t pn = print_program(spec, bytes, n, 0, printed, cap), size = 0;
   unsigned nd = 0;
   struct isa_asm_diag d;
   if (pn == (size_t)-1)
      fail(spec->name, text, len, "the bytes of an accepted text do not decode as a program%s", "");
   int r = isa_assemble(spec, printed, pn, NULL, again, sizeof again, &size, &d, 1, &nd);
   if (r != ISA_OK || size != n || memcmp(again, bytes, n)) {
      fprintf(stderr, "fuzz-asm: they print as:\n%.*s\nfuzz-asm: which reads back as status %d, %zu bytes%s%s\n",
              (int)pn, printed, r, size, nd ? ": " : "", nd ? d.message : "");
      fail(spec->name, text, len, "the text isa dis prints for an accepted text's bytes does not read back%s", "");
   }
}

/* A lax reading (letters in another case, a number in another form:
 * docs/cli.md) is accepted for the bytes the text stands for, which print
 * as isa dis prints them, not as the text read: that text, read again,
 * gives the very bytes. */
static int reads_back(const struct isa_spec *spec, const uint8_t *bytes, size_t n, char *printed, size_t cap)
{
   static uint8_t again[BIG_CAP];
   size_t pn = print_program(spec, bytes, n, 0, printed, cap), size = 0;
   unsigned nd = 0;
   if (pn == (size_t)-1)
      return 0;
   int r = isa_assemble(spec, printed, pn, NULL, again, sizeof again, &size, NULL, 0, &nd);
   return r == ISA_OK && size == n && !memcmp(again, bytes, n);
}

/* Blanks are free and comments are nothing: the text with a comment line
 * after it, and the text with every blank doubled, assemble to the bytes
 * the text did. */
static void check_layout(const struct isa_spec *spec, const uint8_t *bytes, size_t n, const char *text, size_t len)
{
   static uint8_t again[BIG_CAP];
   static const char comment[] = "\n# a comment\n";
   char *other = (char *)malloc(2 * len + sizeof comment);
   if (!other)
      return;
   for (int how = 0; how < 2; how++) {
      size_t k = 0, size = 0;
      unsigned nd = 0;
      struct isa_asm_diag d;
      if (how == 0) {
         memcpy(other, text, len);
         memcpy(other + len, comment, sizeof comment - 1);
         k = len + sizeof comment - 1;
      } else {
         for (size_t i = 0; i < len; i++) {
            if (text[i] == ' ' || text[i] == '\t')
               other[k++] = ' ';
            other[k++] = text[i];
         }
      }
      int r = isa_assemble(spec, other, k, NULL, again, sizeof again, &size, &d, 1, &nd);
      /* other blanks may choose another encoding of the same text (where
       * a blank is itself a unit's trace, Lima GP's lone tab, and no
       * encoding prints the doubled ones exactly): then the same text */
      if (how == 1 && r == ISA_OK && !spec->assembler->dump && (size != n || memcmp(again, bytes, n))) {
         static char p1[BIG_CAP], p2[BIG_CAP];
         size_t n1 = print_program(spec, bytes, n, 0, p1, sizeof p1), n2 = print_program(spec, again, size, 0, p2, sizeof p2);
         if (n1 != (size_t)-1 && n2 != (size_t)-1 && same_but_blanks(p1, n1, p2, n2))
            continue;
      }
      if (r != ISA_OK || size != n || memcmp(again, bytes, n)) {
         fprintf(stderr, "fuzz-asm: the bytes (%zu):", n);
         for (size_t i = 0; i < n; i++)
            fprintf(stderr, " %02x", bytes[i]);
         fprintf(stderr, "\nfuzz-asm: %s, status %d, %zu bytes:", how ? "blanks doubled" : "a comment line after it",
                 r, size);
         for (size_t i = 0; r == ISA_OK && i < size; i++)
            fprintf(stderr, " %02x", again[i]);
         fprintf(stderr, "%s%s\n", nd ? "; " : "", nd ? d.message : "");
         fail(spec->name, text, len, "the bytes depend on blanks or comments (FUZZ_ASM_LAYOUT=0 skips this check)%s",
              "");
      }
   }
   free(other);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   static uint8_t buf[BIG_CAP];
   static char printed[PRINT_CAP];
   struct isa_asm_diag diags[MAX_DIAGS + 1];
   if (!n_specs) {
      const char *e = getenv("FUZZ_ASM_LAYOUT");
      layout_check = !(e && !strcmp(e, "0"));
      find_specs();
   }
   if (size < 1 || size - 1 > MAX_TEXT)
      return 0;
   const struct isa_spec *spec = specs[(data[0] & 0x0f) % n_specs];
   unsigned max_diags = ((data[0] >> 4) & 3) * 3; /* 0, 3, 6 or 9 */
   size_t cap = data[0] & 0x40 ? 16 : BIG_CAP;
   size_t len = size - 1, out = (size_t)-1;
   char *text = (char *)malloc(len ? len : 1);
   unsigned n_diags = 12345;
   if (!text)
      return 0;
   memcpy(text, data + 1, len);
   memset(diags, 0xa5, sizeof diags);
   memset(buf, 0, cap);
   int r = isa_assemble(spec, text, len, NULL, buf, cap, &out, max_diags ? diags : NULL, max_diags, &n_diags);

   const char *name = spec->name;
   if (out > cap)
      fail(name, text, len, "*size %s", out == (size_t)-1 ? "left unset" : "past the buffer's cap");
   if (r == ISA_OK && n_diags != 0)
      fail(name, text, len, "ISA_OK with diagnostics%s", "");
   if (r == ISA_ERR_ARG && n_diags == 0)
      fail(name, text, len, "ISA_ERR_ARG and no diagnostic%s", "");
   if (r > 0)
      fail(name, text, len, "a positive status%s", "");
   if (r != ISA_OK && r != ISA_ERR_ARG && r != ISA_ERR_NOSPACE && n_diags == 0)
      fail(name, text, len, "%s and no diagnostic", isa_strerror(r));
   if (n_diags > MAX_TEXT + 1)
      fail(name, text, len, "more diagnostics than the text has bytes%s", "");
   for (unsigned i = 0; i < MAX_DIAGS + 1; i++) {
      const struct isa_asm_diag *d = &diags[i];
      if (i >= max_diags || i >= n_diags) { /* not to be written */
         const unsigned char *p = (const unsigned char *)d;
         for (size_t k = 0; k < sizeof *d; k++)
            if (p[k] != 0xa5)
               fail(name, text, len, "a diagnostic past max_diags or n_diags written%s", "");
         continue;
      }
      char where[80];
      snprintf(where, sizeof where, "%u:%u", d->line, d->col);
      if (!memchr(d->message, '\0', sizeof d->message))
         fail(name, text, len, "the message at %s is not NUL-terminated", where);
      if (!d->message[0])
         fail(name, text, len, "an empty message at %s", where);
      /* (a message that fills the buffer was cut off: each is composed to fit) */
      if (strlen(d->message) + 1 >= sizeof d->message)
         fail(name, text, len, "the message at %s is cut off", where);
      if (!in_text(text, len, d->line, d->col))
         fail(name, text, len, "a diagnostic at %s, which is not a place in the text", where);
   }

   /* what the assembler accepted prints as the text (but labels, which
    * print as the numbers they stand for) */
   if (has_label(spec, text, len)) {
      free(text);
      return 0;
   }
   if (r == ISA_OK && out == 0 && !same_but_blanks("", 0, text, len))
      fail(name, text, len, "a text that is not all blanks and comments accepted as no bytes%s", "");
   int exact = 0; /* the text is what isa dis prints for its bytes, blank for blank */
   if (r == ISA_OK && out > 0 && spec->assembler->dump)
      check_dump(spec, buf, out, text, len, printed, sizeof printed);
   else if (r == ISA_OK && out > 0) {
      size_t n0 = print_program(spec, buf, out, 0, printed, sizeof printed);
      exact = n0 != (size_t)-1 && (n0 == len || (n0 == len + 1 && printed[len] == '\n')) && !memcmp(printed, text, len);
      if (n0 == (size_t)-1)
         fail(name, text, len, "the bytes of an accepted text do not decode as a program%s", "");
      if (!same_but_blanks(printed, n0, text, len)) {
         size_t n1 = print_program(spec, buf, out, 1, printed, sizeof printed);
         if ((n1 == (size_t)-1 || !same_but_blanks(printed, n1, text, len)) &&
             !reads_back(spec, buf, out, printed, sizeof printed)) {
            fprintf(stderr, "fuzz-asm: the bytes (%zu):", out);
            for (size_t i = 0; i < out; i++)
               fprintf(stderr, " %02x", buf[i]);
            n0 = print_program(spec, buf, out, 0, printed, sizeof printed);
            fprintf(stderr, "\nfuzz-asm: print as:\n%.*s\n", (int)n0, printed);
            fail(name, text, len, "an accepted text's bytes print as other text, which does not assemble to them%s",
                 "");
         }
      }
   }
   /* blanks are free only around a text printed as isa dis prints it: in one
    * with other blanks, a blank may be the only trace of a unit (Lima GP's
    * lone tab of an unused complex unit), so other blanks may read otherwise */
   if (r == ISA_OK && cap == BIG_CAP && layout_check && (exact || spec->assembler->dump))
      check_layout(spec, buf, out, text, len);
   free(text);
   return 0;
}
