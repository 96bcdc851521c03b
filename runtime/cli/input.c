/* Reading programs: hex text, files, standard input. */
#define _POSIX_C_SOURCE 200809L /* getline */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int hex_value(unsigned c)
{
   unsigned digit = c - '0', letter = (c | 0x20) - 'a';
   return digit < 10 ? (int)digit : letter < 6 ? (int)letter + 10 : -1;
}

bool parse_hex(const char *text, size_t n, struct bytes *out, char *err, size_t errsize)
{
   size_t i, digits = 0;
   int high = -1;
   out->data = (uint8_t *)malloc(n / 2 + 1);
   out->len = 0;
   if (!out->data) {
      snprintf(err, errsize, "out of memory");
      return false;
   }
   for (i = 0; i < n; i++) {
      unsigned char c = (unsigned char)text[i];
      int v = hex_value(c);
      if (v < 0 && (c == ' ' || c == '\t' || c == '\r' || c == '\n'))
         continue;
      if (v < 0) {
         if (c >= 0x20 && c < 0x7f)
            snprintf(err, errsize, "invalid hex character '%c' at position %zu", c, i + 1);
         else
            snprintf(err, errsize, "invalid hex character (byte 0x%02x) at position %zu", c, i + 1);
         bytes_free(out);
         return false;
      }
      digits++;
      if (high < 0) {
         high = v;
      } else {
         out->data[out->len++] = (uint8_t)(high << 4 | v);
         high = -1;
      }
   }
   if (high >= 0) {
      snprintf(err, errsize, "odd number of hex digits (%zu): each byte needs two", digits);
      bytes_free(out);
      return false;
   }
   return true;
}

bool read_file(const char *path, struct bytes *out, char *err, size_t errsize)
{
   FILE *fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
   size_t cap = 4096;
   out->len = 0;
   out->data = NULL;
   if (!fp) {
      snprintf(err, errsize, "cannot open %s", path);
      return false;
   }
   out->data = (uint8_t *)malloc(cap);
   while (out->data) {
      size_t n = fread(out->data + out->len, 1, cap - out->len, fp);
      out->len += n;
      if (n == 0)
         break;
      if (out->len == cap) {
         uint8_t *bigger = (uint8_t *)realloc(out->data, cap * 2);
         if (!bigger) {
            free(out->data);
            out->data = NULL;
            break;
         }
         out->data = bigger;
         cap *= 2;
      }
   }
   if (!out->data) {
      snprintf(err, errsize, "out of memory reading %s", path);
      if (fp != stdin)
         fclose(fp);
      return false;
   }
   if (ferror(fp)) {
      snprintf(err, errsize, "cannot read %s", path);
      if (fp != stdin)
         fclose(fp);
      bytes_free(out);
      return false;
   }
   if (fp != stdin)
      fclose(fp);
   return true;
}

void bytes_free(struct bytes *b)
{
   free(b->data);
   b->data = NULL;
   b->len = 0;
}

const char *read_line(FILE *fp, char **line, size_t *cap, size_t *len)
{
   /* POSIX getline: the C library finds the newline, and NUL bytes in the
    * line are kept (and then reported as bad hex) */
   ssize_t got = getline(line, cap, fp);
   if (got <= 0)
      return NULL;
   *len = (size_t)got;
   if ((*line)[*len - 1] == '\n')
      (*line)[--*len] = '\0';
   return *line;
}
