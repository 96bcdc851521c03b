/* "SPEC assemble": the text assembler (isagen/asm.h) on the texts of the
 * spec's reference corpus, one record at a time as a program of its own,
 * for every spec that has an assembler (spec->assembler).  Its baseline is
 * decode+print of the very units it assembles: the bytes it gave, walked by
 * a cursor and printed with the spec's separators, as isa dis prints them.
 * The ratio is what reading a unit's text costs over printing it; the aim
 * is at most 3.
 *
 * A corpus is tests/corpus/NAME.jsonl for the spec its records' "isa" key
 * names (as tests/corpora.py reads it: the spec, or BASE-V for BASE@V; the
 * real-, -excluded and -program files are left out).  A record is used when
 * its text (or, in a corpus of bytes alone, the text isa dis prints for
 * them) assembles (default options) into units that print the text
 * again (one, or a whole program: TGSI's records); the assembler is slow,
 * so at most ASM_MAX records, spread evenly over the corpus.  One item is
 * one unit (an instruction, nv-sph's header, a TGSI token group). */
#define _POSIX_C_SOURCE 200809L /* opendir */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "isagen/asm.h"
#include "isagen/isagen.h"

#define ASM_MAX 200   /* records per spec */
#define ASM_SPECS 8   /* specs with an assembler */
#define UNIT_CAP 4096 /* bytes of one assembled record */
#define LINE_CAP (1 << 17)

struct asm_set {
   const struct isa_spec *spec;
   char file[256];
   unsigned n, read, tried; /* records used; records of the corpus; records tried */
   unsigned units;          /* the units of the records used */
   char *text;              /* record i's text is text[tstart[i]..tstart[i+1]) */
   size_t tstart[ASM_MAX + 1];
   uint8_t *bytes;          /* and its bytes bytes[bstart[i]..bstart[i+1]) */
   size_t bstart[ASM_MAX + 1];
};

static struct asm_set A[ASM_SPECS];
static unsigned n_sets;
static uint8_t scratch[UNIT_CAP];
static char printed[1 << 16];
static volatile uint64_t sink;

/* The JSON string value of "key" in line, unescaped into out[0..cap)
 * (NUL-terminated); its length, or -1 (no such key, or an escape this
 * reader does not take). */
static long json_value(const char *line, const char *key, char *out, size_t cap)
{
   char pat[64];
   snprintf(pat, sizeof pat, "\"%s\": \"", key);
   const char *s = strstr(line, pat);
   size_t k = 0;
   if (!s)
      return -1;
   for (s += strlen(pat); *s && *s != '"'; s++) {
      unsigned long cp;
      if (k + 5 > cap)
         return -1;
      if (*s != '\\') {
         out[k++] = *s;
         continue;
      }
      switch (*++s) {
      case 'n': out[k++] = '\n'; break;
      case 't': out[k++] = '\t'; break;
      case 'r': out[k++] = '\r'; break;
      case '"': out[k++] = '"'; break;
      case '\\': out[k++] = '\\'; break;
      case '/': out[k++] = '/'; break;
      case 'u':
         if (sscanf(s + 1, "%4lx", &cp) != 1 || (cp >= 0xd800 && cp < 0xe000))
            return -1;
         s += 4;
         if (cp < 0x80) {
            out[k++] = (char)cp;
         } else if (cp < 0x800) {
            out[k++] = (char)(0xc0 | (cp >> 6));
            out[k++] = (char)(0x80 | (cp & 0x3f));
         } else {
            out[k++] = (char)(0xe0 | (cp >> 12));
            out[k++] = (char)(0x80 | ((cp >> 6) & 0x3f));
            out[k++] = (char)(0x80 | (cp & 0x3f));
         }
         break;
      default:
         return -1;
      }
   }
   if (*s != '"')
      return -1;
   out[k] = '\0';
   return (long)k;
}

/* The spec (of those with an assembler) a corpus key names, or NULL. */
static const struct isa_spec *spec_for_key(const char *key)
{
   unsigned count;
   const struct isa_spec *const *specs = isa_specs(&count);
   for (unsigned s = 0; s < count; s++) {
      const char *name = specs[s]->name, *at = strchr(name, '@');
      char versioned[128];
      if (!specs[s]->assembler)
         continue;
      if (!strcmp(key, name))
         return specs[s];
      if (at) {
         snprintf(versioned, sizeof versioned, "%.*s-%s", (int)(at - name), name, at + 1);
         if (!strcmp(key, versioned))
            return specs[s];
      }
   }
   return NULL;
}

/* decode+print: the program's units as isa dis prints them, into printed;
 * how many units (0 when it does not decode) */
static unsigned dis(const struct isa_spec *spec, const uint8_t *bytes, size_t len, size_t *printed_len)
{
   struct isa_out o;
   struct isa_cursor c;
   struct isa_ctx ctx;
   unsigned units = 0;
   int r;
   isa_out_buffer(&o, printed, sizeof printed);
   if (isa_cursor_init(&c, spec, bytes, len) != ISA_OK)
      return 0;
   while ((r = isa_cursor_next(&c, NULL, &ctx, NULL)) > 0) {
      if (ctx.failed)
         isa_out_str(&o, spec->failed_text);
      else
         spec->unit->print(isa_cursor_unit(&c), &o, &ctx);
      isa_out_str(&o, spec->separator);
      units++;
   }
   isa_cursor_fini(&c);
   isa_out_flush(&o);
   if (printed_len)
      *printed_len = isa_out_len(&o);
   return r < 0 ? 0 : units;
}

static int same_text(const char *a, size_t an, const char *b, size_t bn)
{
   while (an && a[an - 1] == '\n')
      an--;
   while (bn && b[bn - 1] == '\n')
      bn--;
   return an == bn && !memcmp(a, b, an);
}

/* The records of one corpus file whose text its spec assembles. */
static void load_set(struct asm_set *set)
{
   static char line[LINE_CAP], text[LINE_CAP];
   FILE *fp = fopen(set->file, "r");
   unsigned total = 0;
   if (!fp) {
      fprintf(stderr, "bench: cannot open %s (run from the source tree)\n", set->file);
      exit(1);
   }
   while (fgets(line, sizeof line, fp)) /* the records with a text, or bytes to print one from */
      total += strstr(line, "\"text\": \"") != NULL || strstr(line, "\"hex\": \"") != NULL;
   rewind(fp);
   set->read = total;
   set->text = (char *)malloc((size_t)ASM_MAX * 4096);
   set->bytes = (uint8_t *)malloc((size_t)ASM_MAX * UNIT_CAP);
   if (!set->text || !set->bytes) {
      fprintf(stderr, "bench: no memory\n");
      exit(1);
   }
   /* ASM_MAX records with a text (or all), spread evenly over the corpus */
   unsigned k = 0;
   size_t tlen = 0, blen = 0;
   while (set->n < ASM_MAX && fgets(line, sizeof line, fp)) {
      long n = json_value(line, "text", text, sizeof text);
      size_t size = 0, plen = 0;
      unsigned nd = 0;
      struct isa_asm_diag diag;
      if (n < 0 && json_value(line, "hex", text, sizeof text) >= 0) {
         /* a corpus of bytes alone (nv-sph): the text isa dis prints for them */
         size_t nb = 0;
         for (const char *h = text; h[0] && h[1] && nb < sizeof scratch; h += 2)
            scratch[nb++] = (uint8_t)strtoul((char[]){h[0], h[1], 0}, NULL, 16);
         n = dis(set->spec, scratch, nb, &plen) ? (long)plen : -1;
         if (n >= 0)
            memcpy(text, printed, plen); /* printed is half the size of text */
      }
      if (n < 0)
         continue;
      /* record k is taken when it starts one of ASM_MAX equal shares of the corpus */
      if (total > ASM_MAX && k > 0 && (size_t)k * ASM_MAX / total == (size_t)(k - 1) * ASM_MAX / total) {
         k++;
         continue;
      }
      k++;
      set->tried++;
      if (tlen + (size_t)n > (size_t)ASM_MAX * 4096 ||
          isa_assemble(set->spec, text, (size_t)n, NULL, scratch, sizeof scratch, &size, &diag, 1, &nd) != ISA_OK ||
          blen + size > (size_t)ASM_MAX * UNIT_CAP || !(nd = dis(set->spec, scratch, size, &plen)) ||
          !same_text(printed, plen, text, (size_t)n))
         continue;
      set->units += nd;
      set->tstart[set->n] = tlen;
      memcpy(set->text + tlen, text, (size_t)n);
      tlen += (size_t)n;
      set->bstart[set->n] = blen;
      memcpy(set->bytes + blen, scratch, size);
      blen += size;
      set->n++;
   }
   set->tstart[set->n] = tlen;
   set->bstart[set->n] = blen;
   fclose(fp);
}

void asm_bench_setup(void)
{
   DIR *d = opendir("tests/corpus");
   struct dirent *e;
   static char line[LINE_CAP], key[128];
   if (!d) {
      fprintf(stderr, "bench: cannot open tests/corpus (run from the source tree)\n");
      exit(1);
   }
   while ((e = readdir(d)) != NULL && n_sets < ASM_SPECS) {
      size_t len = strlen(e->d_name);
      if (len < 7 || strcmp(e->d_name + len - 6, ".jsonl") || !strncmp(e->d_name, "real-", 5) ||
          strstr(e->d_name, "-excluded.") || strstr(e->d_name, "-program."))
         continue;
      struct asm_set *set = &A[n_sets];
      snprintf(set->file, sizeof set->file, "tests/corpus/%s", e->d_name);
      FILE *fp = fopen(set->file, "r");
      if (!fp)
         continue;
      const struct isa_spec *spec = NULL;
      if (fgets(line, sizeof line, fp) && json_value(line, "isa", key, sizeof key) > 0)
         spec = spec_for_key(key);
      fclose(fp);
      if (!spec)
         continue;
      set->spec = spec;
      n_sets++;
   }
   closedir(d);
   /* in the order of isa list, so that runs compare line by line */
   for (unsigned i = 0; i < n_sets; i++)
      for (unsigned j = i + 1; j < n_sets; j++)
         if (strcmp(A[j].spec->name, A[i].spec->name) < 0) {
            struct asm_set t = A[i];
            A[i] = A[j];
            A[j] = t;
         }
   for (unsigned i = 0; i < n_sets; i++) {
      load_set(&A[i]);
      if (!A[i].n) {
         fprintf(stderr, "bench: no text of %s assembles into what prints it\n", A[i].file);
         exit(1);
      }
   }
}

static void assemble(void *state)
{
   const struct asm_set *s = (const struct asm_set *)state;
   for (unsigned i = 0; i < s->n; i++) {
      size_t size = 0;
      unsigned nd = 0;
      struct isa_asm_diag diag;
      sink += (uint64_t)isa_assemble(s->spec, s->text + s->tstart[i], s->tstart[i + 1] - s->tstart[i], NULL,
                                     scratch, sizeof scratch, &size, &diag, 1, &nd) + size;
   }
}

static void decode_print(void *state)
{
   const struct asm_set *s = (const struct asm_set *)state;
   for (unsigned i = 0; i < s->n; i++) {
      size_t len = 0;
      sink += dis(s->spec, s->bytes + s->bstart[i], s->bstart[i + 1] - s->bstart[i], &len) + len;
   }
}

static char names[ASM_SPECS][40];

static const char *out_name(unsigned i)
{
   snprintf(names[i], sizeof names[i], "%s assemble", A[i].spec->name);
   return names[i];
}

size_t asm_bench_cases(struct bench_case *out, size_t max)
{
   static char units[ASM_SPECS][16];
   size_t n = 0;
   for (unsigned i = 0; i < n_sets && n < max; i++, n++) {
      const char *unit = A[i].spec->unit->name;
      out_name(i);
      for (size_t k = 0; unit[k] && k + 1 < sizeof units[i]; k++)
         units[i][k] = (char)(unit[k] >= 'A' && unit[k] <= 'Z' ? unit[k] - 'A' + 'a' : unit[k]);
      out[n].name = names[i];
      out[n].unit = !strcmp(units[i], "instruction") ? "insn" : units[i];
      out[n].items = A[i].units;
      out[n].generated = assemble;
      out[n].baseline = decode_print;
      out[n].state = &A[i];
   }
   return n;
}

void asm_bench_report(const char *filter)
{
   for (unsigned i = 0; i < n_sets; i++)
      if (!filter || strstr(out_name(i), filter))
         printf("  %-24s %s: %u of its %u records tried (spread over it), %u (%u units) assemble into units "
                "that print them\n", A[i].spec->name, A[i].file, A[i].tried, A[i].read, A[i].n, A[i].units);
}
