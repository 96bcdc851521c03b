/*
 * libFuzzer target for the CLI's hex input (isa dis --hex, --input hex and
 * every line of --batch): hex_to_bytes, which reads digit pairs in runs,
 * against the plain reading one character at a time that it must agree
 * with: the same bytes for the same input, and an error exactly when the
 * plain reading finds one (a character that is not a hex digit, a
 * separator or a group's 0x; a group of an odd number of digits).  The
 * same bytes are then read as --batch reads its input (line_reader, from a
 * pipe): the lines must be the input split at each newline, the last one
 * with or without its own, NUL bytes kept.  ASan and UBSan (built in)
 * catch memory errors.
 */
#define _POSIX_C_SOURCE 200809L /* fdopen, pipe */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../runtime/cli/cli.h"

static int plain_digit(unsigned char c)
{
   if (c >= '0' && c <= '9')
      return c - '0';
   if (c >= 'a' && c <= 'f')
      return c - 'a' + 10;
   if (c >= 'A' && c <= 'F')
      return c - 'A' + 10;
   return -1;
}

static int plain_separator(unsigned char c)
{
   return strchr(" \t\r\n,;:", c) != NULL && c != '\0';
}

/* 1 and the bytes in out, or 0: the text cut into groups at separators,
 * each group an optional 0x and then whole pairs of digits */
static int plain_read(const unsigned char *t, size_t n, unsigned char *out, size_t *len)
{
   int high = -1;
   *len = 0;
   for (size_t i = 0; i < n; i++) {
      int v = plain_digit(t[i]);
      if (plain_separator(t[i])) {
         if (high >= 0)
            return 0; /* a group of an odd number of digits */
         continue;
      }
      if (t[i] == '0' && i + 1 < n && (t[i + 1] == 'x' || t[i + 1] == 'X') && high < 0 &&
          (i == 0 || plain_separator(t[i - 1]))) {
         i++;
         continue;
      }
      if (v < 0)
         return 0;
      if (high < 0) {
         high = v;
      } else {
         out[(*len)++] = (unsigned char)(high << 4 | v);
         high = -1;
      }
   }
   return high < 0;
}

/* The lines of data as --batch reads them, against a plain split at '\n' */
static void check_lines(const uint8_t *data, size_t size)
{
   int fds[2];
   FILE *fp;
   struct line_reader r;
   size_t at = 0, len;
   char *line;
   if (size > 4096 || pipe(fds) != 0)
      return; /* more than the smallest pipe holds without a reader */
   if (write(fds[1], data, size) != (ssize_t)size)
      abort();
   close(fds[1]);
   fp = fdopen(fds[0], "r");
   if (!fp || !line_reader_init(&r, fp, NULL, NULL))
      abort();
   /* a block of a few bytes, where isa's is 64 KiB: lines then span reads,
    * and the reader moves and grows its buffer as it would on long lines */
   free(r.buf);
   r.cap = 2 + size % 7;
   r.buf = (char *)malloc(r.cap);
   if (!r.buf)
      abort();
   while ((line = line_reader_next(&r, &len)) != NULL) {
      const uint8_t *nl = (const uint8_t *)memchr(data + at, '\n', size - at);
      size_t want = nl ? (size_t)(nl - (data + at)) : size - at;
      if (at >= size || len != want || memcmp(line, data + at, len) != 0 || line[len] != '\0')
         abort(); /* not the next line of the input, NUL-ended */
      at += want + (nl != NULL);
   }
   if (r.failed || at != size)
      abort(); /* a line lost */
   line_reader_fini(&r);
   fclose(fp);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   /* exactly n / 2 bytes of room, on the heap, so ASan sees a write past it */
   uint8_t *got = (uint8_t *)malloc(size / 2 + 1), *want = (uint8_t *)malloc(size / 2 + 1);
   size_t got_len = 0, want_len = 0;
   char err[200];
   int ok, plain_ok;
   if (!got || !want)
      abort();
   ok = hex_to_bytes((const char *)data, size, got, &got_len, err, sizeof err);
   plain_ok = plain_read(data, size, want, &want_len);
   if (ok != plain_ok)
      abort();
   if (ok && (got_len != want_len || memcmp(got, want, got_len) != 0))
      abort();
   if (!ok && !strstr(err, "hex"))
      abort(); /* every error names what is wrong with the hex */
   free(got);
   free(want);
   check_lines(data, size);
   return 0;
}
