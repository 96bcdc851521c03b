/* isa as: text to bytes with a spec's assembler (isagen/asm.h).  See docs/cli.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "isagen/asm.h"

#define MAX_DIAGS 64

/* Assemble text[0..len) into *out (grown as needed); the status of
 * isa_assemble. */
struct assembled {
   uint8_t *data;
   size_t len;
};

static int assemble(const struct options *o, const char *text, size_t len, struct assembled *out,
                    struct isa_asm_diag *diags, unsigned *n_diags)
{
   /* room for a unit of the longest kind per line of text, so that one pass does */
   size_t lines = 1;
   for (size_t i = 0; i < len; i++)
      lines += text[i] == '\n';
   size_t cap = 4096 + lines * ((o->spec->assembler ? o->spec->assembler->max_bytes : 0) + 8), size = 0;
   for (;;) {
      uint8_t *buf = (uint8_t *)realloc(out->data, cap);
      if (!buf)
         return ISA_ERR_LIMIT;
      out->data = buf;
      int r = isa_assemble(o->spec, text, len, o->spec_options, buf, cap, &size, diags, MAX_DIAGS, n_diags);
      if (r != ISA_ERR_NOSPACE || cap > ((size_t)1 << 40)) {
         out->len = r == ISA_OK ? size : 0;
         return r;
      }
      cap *= 4;
   }
}

static void put_hex(FILE *fp, const uint8_t *b, size_t n)
{
   for (size_t i = 0; i < n; i++)
      fprintf(fp, "%02x", b[i]);
}

/* Four hex digits at s: their value, or -1. */
static long hex4(const char *s)
{
   long v = 0;
   for (int d = 0; d < 4; d++) {
      char h = s[d];
      int x = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
      if (x < 0)
         return -1;
      v = v * 16 + x;
   }
   return v;
}

/* A JSON string at the start of s[0..n) (blanks around it), unescaped into
 * out (NUL-terminated; *len its length); false if that is not what the
 * line holds. */
static bool json_string(const char *s, size_t n, char *out, size_t *len)
{
   size_t i = 0, k = 0;
   while (i < n && (s[i] == ' ' || s[i] == '\t'))
      i++;
   if (i >= n || s[i++] != '"')
      return false;
   while (i < n && s[i] != '"') {
      unsigned char c = (unsigned char)s[i++];
      if (c < 0x20)
         return false;
      if (c != '\\') {
         out[k++] = (char)c;
         continue;
      }
      if (i >= n)
         return false;
      c = (unsigned char)s[i++];
      const char *plain = strchr("\"\\/bfnrt", c);
      if (c && plain) {
         static const char to[] = "\"\\/\b\f\n\r\t";
         out[k++] = to[plain - "\"\\/bfnrt"];
         continue;
      }
      if (c != 'u' || i + 4 > n)
         return false;
      long cp = hex4(s + i);
      i += 4;
      if (cp < 0)
         return false;
      if (cp >= 0xd800 && cp < 0xdc00) { /* a surrogate pair */
         if (i + 6 > n || s[i] != '\\' || s[i + 1] != 'u')
            return false;
         long lo = hex4(s + i + 2);
         i += 6;
         if (lo < 0xdc00 || lo > 0xdfff)
            return false;
         cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
      } else if (cp >= 0xdc00 && cp < 0xe000) {
         return false;
      }
      if (cp < 0x80) {
         out[k++] = (char)cp;
      } else if (cp < 0x800) {
         out[k++] = (char)(0xc0 | (cp >> 6));
         out[k++] = (char)(0x80 | (cp & 0x3f));
      } else if (cp < 0x10000) {
         out[k++] = (char)(0xe0 | (cp >> 12));
         out[k++] = (char)(0x80 | ((cp >> 6) & 0x3f));
         out[k++] = (char)(0x80 | (cp & 0x3f));
      } else {
         out[k++] = (char)(0xf0 | (cp >> 18));
         out[k++] = (char)(0x80 | ((cp >> 12) & 0x3f));
         out[k++] = (char)(0x80 | ((cp >> 6) & 0x3f));
         out[k++] = (char)(0x80 | (cp & 0x3f));
      }
   }
   if (i >= n)
      return false;
   i++;
   while (i < n && (s[i] == ' ' || s[i] == '\t'))
      i++;
   out[k] = 0;
   *len = k;
   return i == n;
}

static void json_out(FILE *fp, const char *s, size_t n)
{
   struct isa_out out;
   isa_out_file(&out, fp);
   isa_out_json_string(&out, s, n);
   isa_out_flush(&out);
}

/* --batch: a JSON string per line, a JSON object per answer. */
static int batch(const struct options *o)
{
   FILE *fp = strcmp(o->batch, "-") == 0 ? stdin : fopen(o->batch, "rb");
   struct line_reader lines;
   struct assembled out = {0, 0};
   struct isa_asm_diag diags[MAX_DIAGS];
   char *text = NULL;
   size_t len, n_lines = 0;
   int status = EXIT_OK;
   lines.buf = NULL;
   if (!fp || !line_reader_init(&lines, fp, NULL, NULL)) {
      fprintf(stderr, "isa: cannot open %s\n", o->batch);
      if (fp && fp != stdin)
         fclose(fp);
      line_reader_fini(&lines);
      return EXIT_USAGE;
   }
   char *line;
   while ((line = line_reader_next(&lines, &len)) != NULL) {
      n_lines++;
      if (len && line[len - 1] == '\r')
         line[--len] = '\0';
      char *grown = (char *)realloc(text, len + 1);
      if (!grown) {
         status = EXIT_USAGE;
         break;
      }
      text = grown;
      size_t tlen = 0;
      fputs("{\"text\": ", stdout);
      if (!json_string(line, len, text, &tlen)) {
         json_out(stdout, line, len);
         fputs(", \"hex\": \"\", \"ok\": false, \"error\": \"not a JSON string\"}\n", stdout);
         status = EXIT_INVALID;
         fflush(stdout);
         continue;
      }
      json_out(stdout, text, tlen);
      unsigned n = 0;
      int r = assemble(o, text, tlen, &out, diags, &n);
      fputs(", \"hex\": \"", stdout);
      if (r == ISA_OK)
         put_hex(stdout, out.data, out.len);
      fprintf(stdout, "\", \"ok\": %s, \"error\": ", r == ISA_OK ? "true" : "false");
      if (r == ISA_OK) {
         fputs("null", stdout);
      } else {
         char msg[ISA_ASM_MESSAGE + 40];
         if (n)
            snprintf(msg, sizeof msg, "%u:%u: %s", diags[0].line, diags[0].col, diags[0].message);
         else
            snprintf(msg, sizeof msg, "%s", isa_strerror(r));
         json_out(stdout, msg, strlen(msg));
         status = EXIT_INVALID;
      }
      fputs("}\n", stdout);
      fflush(stdout);
   }
   if (lines.failed) {
      fprintf(stderr, "isa: cannot read %s\n", o->batch);
      status = EXIT_USAGE;
   } else if (n_lines == 0) {
      fprintf(stderr, "isa: %s: empty input, no lines to assemble\n", o->batch);
      status = EXIT_INVALID;
   }
   line_reader_fini(&lines);
   if (fp != stdin)
      fclose(fp);
   free(text);
   free(out.data);
   return status;
}

int cmd_as(struct options *o)
{
   if (!o->spec->assembler) {
      fprintf(stderr, "isa: spec %s has no assembler yet (see docs/cli.md)\n", o->spec->name);
      return EXIT_INVALID;
   }
   if (o->batch)
      return batch(o);
   struct bytes in;
   struct assembled out = {0, 0};
   char err[600];
   struct isa_asm_diag diags[MAX_DIAGS];
   unsigned n = 0;
   memset(&in, 0, sizeof in);
   if (!read_file(o->file, &in, err, sizeof err)) {
      fprintf(stderr, "isa: %s\n", err);
      return EXIT_INVALID;
   }
   int r = assemble(o, (const char *)in.data, in.len, &out, diags, &n);
   const char *name = strcmp(o->file, "-") == 0 ? "<stdin>" : o->file;
   int status = EXIT_OK;
   if (r != ISA_OK) {
      for (unsigned i = 0; i < n && i < MAX_DIAGS; i++)
         fprintf(stderr, "%s:%u:%u: error: %s\n", name, diags[i].line, diags[i].col, diags[i].message);
      if (n > MAX_DIAGS)
         fprintf(stderr, "%s: %u more errors\n", name, n - MAX_DIAGS);
      if (!n)
         fprintf(stderr, "isa: %s: %s\n", name, isa_strerror(r));
      status = EXIT_INVALID;
   } else {
      FILE *fp = o->output && strcmp(o->output, "-") ? fopen(o->output, "wb") : stdout;
      if (!fp) {
         fprintf(stderr, "isa: cannot write %s\n", o->output);
         status = EXIT_INVALID;
      } else {
         if (o->out_hex) {
            put_hex(fp, out.data, out.len);
            fputc('\n', fp);
         } else {
            fwrite(out.data, 1, out.len, fp);
         }
         if (fp != stdout && fclose(fp) != 0) {
            fprintf(stderr, "isa: cannot write %s\n", o->output);
            status = EXIT_INVALID;
         }
      }
   }
   bytes_free(&in);
   free(out.data);
   return status;
}
