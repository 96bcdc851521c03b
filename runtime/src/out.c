/* Output sinks: a FILE* or a caller's buffer.  Printers never allocate. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isagen/isagen.h"

/* A sink's block: text goes to [buf, end), *cur kept '\0'. */
static void out_init(struct isa_out *o, char *buf, size_t cap)
{
   o->buf = o->cur = buf;
   o->end = buf + cap - 1;
   *buf = '\0';
   o->len = 0;
   o->error = 0;
   o->fp = NULL;
   o->write = NULL;
   o->user = NULL;
}

void isa_out_file(struct isa_out *o, FILE *fp)
{
   out_init(o, o->block, sizeof o->block);
   o->fp = fp;
}

void isa_out_callback(struct isa_out *o, isa_write_fn write, void *user)
{
   out_init(o, o->block, sizeof o->block);
   o->write = write;
   o->user = user;
}

void isa_out_buffer(struct isa_out *o, char *buf, size_t cap)
{
   /* no buffer at all: an empty block of our own, so every write is cut */
   if (buf && cap)
      out_init(o, buf, cap);
   else
      out_init(o, o->block, 1);
}

/* Write s[0..n) to a FILE or callback sink. */
static void out_write(struct isa_out *o, const char *s, size_t n)
{
   if (!n)
      return;
   if (o->fp ? fwrite(s, 1, n, o->fp) != n : o->write(o->user, s, n) != 0)
      o->error = 1;
}

int isa_out_flush(struct isa_out *o)
{
   if ((o->fp || o->write) && o->cur > o->buf) {
      out_write(o, o->buf, (size_t)(o->cur - o->buf));
      o->cur = o->buf;
      *o->cur = '\0';
   }
   return o->error;
}

/* isa_out_mem when the block has no room for n bytes: a FILE or callback
 * sink writes the block out (and text longer than a block straight
 * through); a buffer keeps what fits and is flagged cut. */
void isa_out_mem_slow(struct isa_out *o, const char *s, size_t n)
{
   if (o->fp || o->write) {
      isa_out_flush(o);
      if (n <= (size_t)(o->end - o->cur)) {
         memcpy(o->cur, s, n);
         o->cur += n;
         *o->cur = '\0';
      } else {
         out_write(o, s, n);
      }
   } else {
      /* len counts everything produced, even past the end of the buffer */
      size_t k = (size_t)(o->end - o->cur);
      memcpy(o->cur, s, k);
      o->cur += k;
      *o->cur = '\0';
      o->error = 1;
   }
   o->len += n;
}

void isa_out_fmt(struct isa_out *o, const char *fmt, ...)
{
   char small[128];
   va_list ap;
   int n;
   va_start(ap, fmt);
   n = vsnprintf(small, sizeof small, fmt, ap);
   va_end(ap);
   if (n < 0) {
      o->error = 1;
      return;
   }
   if ((size_t)n < sizeof small) {
      isa_out_mem(o, small, (size_t)n);
      return;
   }
   /* Rare: long output (e.g. %f of a huge double).  Format in pieces of
    * the small buffer would split conversions, so print straight through. */
   if (o->fp) {
      isa_out_flush(o);
      va_start(ap, fmt);
      if (vfprintf(o->fp, fmt, ap) < 0)
         o->error = 1;
      va_end(ap);
      o->len += (size_t)n;
   } else {
      char big[512];
      va_start(ap, fmt);
      vsnprintf(big, sizeof big, fmt, ap);
      va_end(ap);
      isa_out_mem(o, big, (size_t)n < sizeof big ? (size_t)n : sizeof big - 1);
      if ((size_t)n >= sizeof big) {
         o->error = 1;
         o->len += (size_t)n - (sizeof big - 1);
      }
   }
}

/* Decimal without printf: isa_out_int's numbers from 100 up and below 0,
 * and any number when the block is nearly full. */
void isa_out_int_slow(struct isa_out *o, int64_t v)
{
   char s[24];
   size_t i = sizeof s;
   uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
   do {
      s[--i] = (char)('0' + u % 10);
      u /= 10;
   } while (u);
   if (v < 0)
      s[--i] = '-';
   isa_out_mem(o, s + i, sizeof s - i);
}

/* printf("%[0][width]lld") without printf: printers pad listing columns and
 * indentation this way on every unit. */
void isa_out_int_w(struct isa_out *o, int64_t v, unsigned width, int zero)
{
   uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
   isa_out_num_w(o, u, v < 0, 10, 0, width, zero);
}

/* printf("%[0][width]ll{u,o,x,X}") of u (negative: a '-' before it). */
void isa_out_num_w(struct isa_out *o, uint64_t u, int negative, unsigned base, int upper, unsigned width, int zero)
{
   const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
   char s[96];
   size_t i = sizeof s, n;
   do {
      s[--i] = digits[u % base];
      u /= base;
   } while (u);
   n = sizeof s - i + (negative ? 1 : 0);
   if (width > 64)
      width = 64;
   if (zero)
      for (; n < width; n++)
         s[--i] = '0';
   if (negative)
      s[--i] = '-';
   for (; n < width; n++)
      s[--i] = ' ';
   isa_out_mem(o, s + i, sizeof s - i);
}

void isa_out_hex(struct isa_out *o, uint64_t v)
{
   static const char digits[] = "0123456789abcdef";
   char s[18];
   size_t i = sizeof s;
   do {
      s[--i] = digits[v & 15];
      v >>= 4;
   } while (v);
   s[--i] = 'x';
   s[--i] = '0';
   isa_out_mem(o, s + i, sizeof s - i);
}

void isa_out_bin(struct isa_out *o, uint64_t v, unsigned digits)
{
   char s[65];
   unsigned i;
   if (digits == 0)
      digits = 1;
   if (digits > 64)
      digits = 64;
   for (i = 0; i < digits; i++)
      s[i] = (char)('0' + (unsigned)((v >> (digits - 1 - i)) & 1));
   isa_out_mem(o, s, digits);
}

void isa_out_enum(struct isa_out *o, const char *name, int64_t v)
{
   if (name)
      isa_out_str(o, name);
   else
      isa_out_int(o, v);
}

void isa_out_json_string(struct isa_out *o, const char *s, size_t n)
{
   static const char hex[] = "0123456789abcdef";
   size_t i, run = 0;
   isa_out_char(o, '"');
   for (i = 0; i < n; i++) {
      unsigned char c = (unsigned char)s[i];
      const char *esc = 0;
      char u[6];
      if (c == '"')
         esc = "\\\"";
      else if (c == '\\')
         esc = "\\\\";
      else if (c == '\n')
         esc = "\\n";
      else if (c == '\t')
         esc = "\\t";
      else if (c == '\r')
         esc = "\\r";
      else if (c < 0x20 || c == 0x7f) {
         u[0] = '\\', u[1] = 'u', u[2] = '0', u[3] = '0';
         u[4] = hex[c >> 4], u[5] = hex[c & 15];
      }
      if (esc || c < 0x20 || c == 0x7f) {
         isa_out_mem(o, s + i - run, run);
         run = 0;
         if (esc)
            isa_out_str(o, esc);
         else
            isa_out_mem(o, u, 6);
      } else {
         run++;
      }
   }
   isa_out_mem(o, s + n - run, run);
   isa_out_char(o, '"');
}

void isa_out_pad(struct isa_out *o, size_t start, int64_t width)
{
   static const char spaces[] = "                                ";
   size_t done = o->len - start;
   while (width > 0 && done < (size_t)width) {
      size_t n = (size_t)width - done;
      if (n > sizeof spaces - 1)
         n = sizeof spaces - 1;
      isa_out_mem(o, spaces, n);
      done += n;
   }
}

void isa_out_item(struct isa_out *o, const struct isa_out *item)
{
   isa_out_mem(o, item->buf, (size_t)(item->cur - item->buf));
   if (item->error)
      o->error = 1;
}

/* The digits and decimal exponent of a >= 0 that is m / 2^s (s <= 22) with
 * m * 5^s below 10^15: its exact decimal expansion, which is then also the
 * shortest that reads back (a shorter decimal is further from it than half
 * a unit in the last place).  The immediates of the GPU encodings (small
 * dyadic values) all are; 0 when a is not. */
static int exact_decimal(double a, char *digits, int *nd, int *exp10)
{
   uint64_t n, pow5 = 1;
   char t[24];
   int s, len = 0;
   if (a == 0) {
      digits[0] = '0';
      *nd = 1;
      *exp10 = 0;
      return 1;
   }
   for (s = 0; s <= 22; s++, pow5 *= 5) {
      double scaled = ldexp(a, s);
      if (scaled >= 9007199254740992.0)
         return 0;
      if (scaled != floor(scaled))
         continue;
      if ((uint64_t)scaled > UINT64_C(1000000000000000) / pow5)
         return 0;
      n = (uint64_t)scaled * pow5;
      while (n) {
         t[len++] = (char)('0' + n % 10);
         n /= 10;
      }
      for (int i = 0; i < len; i++)
         digits[i] = t[len - 1 - i];
      *nd = len;
      *exp10 = len - 1 - s;
      return 1;
   }
   return 0;
}

void isa_out_pyfloat(struct isa_out *o, double d)
{
   char e[40], digits[24], out[64];
   int prec, exp10, nd = 0, k = 0;
   const char *p;
   if (isnan(d)) {
      isa_out_str(o, "nan");
      return;
   }
   if (isinf(d)) {
      isa_out_str(o, d < 0 ? "-inf" : "inf");
      return;
   }
   if (signbit(d))
      out[k++] = '-';
   if (!exact_decimal(fabs(d), digits, &nd, &exp10)) {
      /* the shortest %.{prec}e that reads back exactly */
      for (prec = 0; prec < 17; prec++) {
         snprintf(e, sizeof e, "%.*e", prec, fabs(d));
         if (strtod(e, NULL) == fabs(d))
            break;
      }
      /* e = D[.DDD]e[+-]XX: collect the digits and the exponent */
      for (p = e; *p && *p != 'e'; p++)
         if (*p != '.')
            digits[nd++] = *p;
      exp10 = atoi(p + 1);
   }
   while (nd > 1 && digits[nd - 1] == '0')
      nd--;
   if (exp10 >= -4 && exp10 < 16) {
      if (exp10 < 0) {
         out[k++] = '0';
         out[k++] = '.';
         for (int i = -1; i > exp10; i--)
            out[k++] = '0';
         for (int i = 0; i < nd; i++)
            out[k++] = digits[i];
      } else {
         for (int i = 0; i <= exp10; i++)
            out[k++] = i < nd ? digits[i] : '0';
         out[k++] = '.';
         if (nd > exp10 + 1)
            for (int i = exp10 + 1; i < nd; i++)
               out[k++] = digits[i];
         else
            out[k++] = '0';
      }
   } else {
      out[k++] = digits[0];
      if (nd > 1) {
         out[k++] = '.';
         for (int i = 1; i < nd; i++)
            out[k++] = digits[i];
      }
      k += snprintf(out + k, sizeof out - (size_t)k, "e%c%02d", exp10 < 0 ? '-' : '+', exp10 < 0 ? -exp10 : exp10);
   }
   isa_out_mem(o, out, (size_t)k);
}
