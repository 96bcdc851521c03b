/* Plain references for the runtime's JSON strings, one character at a
 * time, shared by the unit tests (tests/unit/test_runtime.c) and the
 * output fuzz target (tests/fuzz/fuzz_out.c). */
#ifndef TESTS_PLAIN_JSON_H
#define TESTS_PLAIN_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The length of the UTF-8 character at s[0..n) (s[0] >= 0x80), decoded and
 * checked against the code point it gives (no overlong form, no surrogate,
 * nothing past U+10FFFF), or 0 when it is not one. */
static inline size_t plain_utf8_length(const unsigned char *s, size_t n)
{
   size_t len;
   uint32_t cp, least;
   if ((s[0] & 0xe0) == 0xc0)
      len = 2, cp = s[0] & 0x1fu, least = 0x80;
   else if ((s[0] & 0xf0) == 0xe0)
      len = 3, cp = s[0] & 0x0fu, least = 0x800;
   else if ((s[0] & 0xf8) == 0xf0)
      len = 4, cp = s[0] & 0x07u, least = 0x10000;
   else
      return 0;
   if (n < len)
      return 0;
   for (size_t k = 1; k < len; k++) {
      if ((s[k] & 0xc0) != 0x80)
         return 0;
      cp = cp << 6 | (s[k] & 0x3fu);
   }
   if (cp < least || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
      return 0;
   return len;
}

/* A JSON string as isa_out_json_string documents it, into want (room for
 * 6 * n + 3): quote, backslash, \n \t \r escaped, the other control
 * characters and DEL as \u00xx, UTF-8 kept, each byte that starts no
 * UTF-8 character one U+FFFD.  Returns its length. */
static inline size_t plain_json_string(const char *in, size_t n, char *want)
{
   size_t k = 0;
   want[k++] = '"';
   for (size_t i = 0; i < n; i++) {
      unsigned char b = (unsigned char)in[i];
      if (b >= 0x80) {
         size_t len = plain_utf8_length((const unsigned char *)in + i, n - i);
         if (!len) {
            k += (size_t)sprintf(want + k, "\\ufffd");
            continue;
         }
         memcpy(want + k, in + i, len);
         k += len;
         i += len - 1;
      } else if (b == '"' || b == '\\')
         k += (size_t)sprintf(want + k, "\\%c", b);
      else if (b == '\n')
         k += (size_t)sprintf(want + k, "\\n");
      else if (b == '\t')
         k += (size_t)sprintf(want + k, "\\t");
      else if (b == '\r')
         k += (size_t)sprintf(want + k, "\\r");
      else if (b < 0x20 || b == 0x7f)
         k += (size_t)sprintf(want + k, "\\u%04x", b);
      else
         want[k++] = (char)b;
   }
   want[k++] = '"';
   want[k] = '\0';
   return k;
}

#endif
