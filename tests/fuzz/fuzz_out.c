/*
 * libFuzzer target for the output layer: the runtime's sinks and
 * formatters (runtime/src/out.c) and the CLI's printing of programs
 * (runtime/cli/dis.c).  The first input byte picks what the rest drives:
 *
 *   even  a script of writes (raw bytes, characters, numbers in every base
 *         and width, JSON strings of arbitrary bytes, padding, enum names,
 *         floats) into five sinks at once: a buffer of a size the input
 *         picks, a callback, a FILE, a callback that fails and a FILE
 *         through a block of the caller's (of a size the input picks, or
 *         none).  Each sink
 *         must hold exactly what a plain reference (one character at a
 *         time, or printf) produces: the callback and the FILE all of it,
 *         the buffer as much as fits, NUL-ended and flagged when cut, with
 *         isa_out_len counting all; the failing one must say so.  Python
 *         floats, which no printf writes, must read back, be the shortest
 *         that do and take the notation Python's repr takes.
 *   odd   a program of a spec the input picks, printed as isa dis prints it
 *         (with or without --json, --offsets, --show-bytes and a --base)
 *         into a buffer and a callback, which must agree; every --json
 *         line must be a valid JSON object, and text valid UTF-8.
 *
 * ASan and UBSan (built in) catch memory and undefined-behaviour errors.
 */
#define _GNU_SOURCE /* open_memstream */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/cli/cli.h"
#include "../plain_json.h"

/* ---- a growable byte string: the reference, and what a callback got */

struct text {
   char *p;
   size_t n, cap;
};

static void text_add(struct text *t, const char *s, size_t n)
{
   if (t->n + n + 1 > t->cap) {
      t->cap = (t->n + n + 1) * 2;
      t->p = (char *)realloc(t->p, t->cap);
      if (!t->p)
         abort();
   }
   memcpy(t->p + t->n, s, n);
   t->n += n;
}

static void text_printf(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text_printf(struct text *t, const char *fmt, ...)
{
   char s[512];
   va_list ap;
   int n;
   va_start(ap, fmt);
   n = vsnprintf(s, sizeof s, fmt, ap);
   va_end(ap);
   if (n < 0 || (size_t)n >= sizeof s)
      abort();
   text_add(t, s, (size_t)n);
}

static int collect(void *user, const char *s, size_t n)
{
   text_add((struct text *)user, s, n);
   return 0;
}

/* a callback whose every write fails (a full disk, a closed pipe) */
static int refuse(void *user, const char *s, size_t n)
{
   (void)user, (void)s, (void)n;
   return -1;
}

static void fail(const char *what)
{
   fprintf(stderr, "fuzz-output: %s\n", what);
   abort();
}

/* Where `got` first differs from `want`, on stderr, before a failure */
static void show_difference(const char *want, size_t want_n, const char *got, size_t got_n)
{
   size_t i = 0;
   while (i < want_n && i < got_n && want[i] == got[i])
      i++;
   size_t from = i > 40 ? i - 40 : 0;
   fprintf(stderr, "fuzz-output: lengths %zu (reference) and %zu, first difference at %zu\n", want_n, got_n, i);
   fprintf(stderr, "  reference: %.*s\n", (int)((want_n < i + 40 ? want_n : i + 40) - from), want + from);
   fprintf(stderr, "  got:       %.*s\n", (int)((got_n < i + 40 ? got_n : i + 40) - from), got + from);
}

/* ---- reading the input */

struct input {
   const uint8_t *p;
   size_t n;
};

static uint64_t take(struct input *in, unsigned bytes)
{
   uint64_t v = 0;
   for (unsigned i = 0; i < bytes && in->n; i++, in->p++, in->n--)
      v |= (uint64_t)*in->p << (8 * i);
   return v;
}

/* ---- plain references */

/* The length of the UTF-8 character at s[0..n), ASCII too, or 0 */
static size_t char_length(const unsigned char *s, size_t n)
{
   return s[0] < 0x80 ? 1 : plain_utf8_length(s, n);
}

/* printf("%[0][width]ll{b,o,u,x,X}") of u, '-' first when negative (and
 * a base-2 conversion, which printf lacks) */
static void plain_num(struct text *t, uint64_t u, int negative, unsigned base, int upper, unsigned width, int zero)
{
   char digits[70];
   size_t n = 0, len;
   do {
      digits[n++] = (upper ? "0123456789ABCDEF" : "0123456789abcdef")[u % base];
      u /= base;
   } while (u);
   len = n + (negative ? 1 : 0);
   if (!zero)
      for (size_t k = len; k < width; k++)
         text_add(t, " ", 1);
   if (negative)
      text_add(t, "-", 1);
   if (zero)
      for (size_t k = len; k < width; k++)
         text_add(t, "0", 1);
   while (n)
      text_add(t, &digits[--n], 1);
}

/* The significant digits of a number's text: those of its mantissa, less
 * leading and trailing zeros */
static size_t significant_digits(const char *s)
{
   size_t first = 0, last = 0, i = 0;
   for (const char *p = s; *p && *p != 'e'; p++)
      if (*p >= '0' && *p <= '9') {
         i++;
         if (*p != '0') {
            first = first ? first : i;
            last = i;
         }
      }
   return first ? last - first + 1 : 0;
}

/* binary16 to double, bit by bit */
static double plain_half(uint16_t h)
{
   int e = (h >> 10) & 31, m = h & 1023;
   double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 1024, e - 25);
   return (h & 0x8000) ? -v : v;
}

/* ---- mode 1: a script of writes, into every kind of sink and the reference */

static const char *const enum_names[] = {"add", "fmul.sat", "", "r0.xyzw", "a longer name, for the block edge"};

static void mode_script(struct input *in)
{
   struct text ref = {0}, cb = {0};
   struct isa_out buf_out, cb_out, file_out, refused, block_out;
   size_t cap = (size_t)take(in, 2) % 1100, mark = 0;
   /* a FILE sink through a block of the caller's, from too small to use
    * (the sink's own is) to twice its own */
   size_t block_cap = (size_t)take(in, 2) % 1100;
   char *buf = (char *)malloc(cap ? cap : 1), *file_text = NULL, *block_text = NULL;
   char *block = (char *)malloc(block_cap ? block_cap : 1);
   size_t file_len = 0, block_len = 0;
   FILE *fp = open_memstream(&file_text, &file_len), *block_fp = open_memstream(&block_text, &block_len);
   struct isa_out *outs[5] = {&buf_out, &cb_out, &file_out, &refused, &block_out};
   if (!buf || !fp || !block || !block_fp)
      abort();
   isa_out_buffer(&buf_out, buf, cap);
   isa_out_callback(&cb_out, collect, &cb);
   isa_out_file(&file_out, fp);
   isa_out_callback(&refused, refuse, NULL);
   isa_out_file_block(&block_out, block_fp, block_cap % 3 == 2 ? NULL : block, block_cap);
   for (unsigned step = 0; in->n && step < 200; step++) {
      unsigned op = (unsigned)take(in, 1) % 13;
      uint64_t v = take(in, (unsigned)take(in, 1) % 9);
      /* widths and precisions up to 64: what lint allows a template */
      unsigned width = (unsigned)take(in, 1) % 65, flags = (unsigned)take(in, 1);
      size_t len = (size_t)take(in, 2) % 1200;
      const char *bytes = (const char *)in->p;
      double d;
      if (len > in->n)
         len = in->n;
      switch (op) {
      case 0: /* raw bytes */
         for (int k = 0; k < 5; k++)
            isa_out_mem(outs[k], bytes, len);
         text_add(&ref, bytes, len);
         in->p += len, in->n -= len;
         break;
      case 1: {
         char c = (char)v;
         for (int k = 0; k < 5; k++)
            isa_out_char(outs[k], c);
         text_add(&ref, &c, 1);
         break;
      }
      case 2:
         for (int k = 0; k < 5; k++)
            isa_out_int(outs[k], (int64_t)v);
         text_printf(&ref, "%lld", (long long)v);
         break;
      case 3:
         for (int k = 0; k < 5; k++)
            isa_out_int_w(outs[k], (int64_t)v, width, flags & 1);
         text_printf(&ref, flags & 1 ? "%0*lld" : "%*lld", (int)width, (long long)v);
         break;
      case 4: {
         static const unsigned bases[] = {2, 8, 10, 16};
         unsigned base = bases[flags % 4];
         int negative = flags >> 2 & 1, upper = flags >> 3 & 1, zero = flags >> 4 & 1;
         for (int k = 0; k < 5; k++)
            isa_out_num_w(outs[k], v, negative, base, upper, width, zero);
         plain_num(&ref, v, negative, base, upper, width, zero);
         break;
      }
      case 5:
         for (int k = 0; k < 5; k++)
            isa_out_hex(outs[k], v);
         text_printf(&ref, "0x%llx", (unsigned long long)v);
         break;
      case 6: {
         unsigned digits = width == 0 ? 1 : width;
         for (int k = 0; k < 5; k++)
            isa_out_bin(outs[k], v, width);
         for (unsigned i = 0; i < digits; i++)
            text_add(&ref, (v >> (digits - 1 - i)) & 1 ? "1" : "0", 1);
         break;
      }
      case 7: /* a JSON string of arbitrary bytes */
         for (int k = 0; k < 5; k++)
            isa_out_json_string(outs[k], bytes, len);
         {
            char *want = (char *)malloc(6 * len + 3);
            if (!want)
               abort();
            text_add(&ref, want, plain_json_string(bytes, len, want));
            free(want);
         }
         in->p += len, in->n -= len;
         break;
      case 8: /* pad to a width counted from a mark set earlier */
         for (int k = 0; k < 5; k++)
            isa_out_pad(outs[k], mark, (int64_t)(width * 4) - 8);
         while ((int64_t)(ref.n - mark) < (int64_t)(width * 4) - 8)
            text_add(&ref, " ", 1);
         break;
      case 9: /* set the mark: the same length in every sink */
         mark = ref.n;
         for (int k = 0; k < 5; k++)
            if (isa_out_len(outs[k]) != mark)
               fail("isa_out_len disagrees with what was written");
         break;
      case 10: {
         const char *name = flags & 1 ? enum_names[v % 5] : NULL;
         for (int k = 0; k < 5; k++)
            isa_out_enum(outs[k], name, (int64_t)v);
         if (name)
            text_add(&ref, name, strlen(name));
         else
            text_printf(&ref, "%lld", (long long)v);
         break;
      }
      case 11: /* a double, mostly with a short exact expansion (as GPU immediates) */
         if (flags & 1) {
            memcpy(&d, &v, sizeof d);
         } else {
            d = ldexp((double)(int32_t)(v & 0xffffff) - 0x800000, (int)(v >> 24 & 63) - 40);
         }
         switch (flags >> 1 & 3) {
         case 0:
            for (int k = 0; k < 5; k++)
               isa_out_g(outs[k], d);
            text_printf(&ref, "%g", d);
            break;
         case 1:
         case 2: {
            unsigned prec = (unsigned)take(in, 1) % 65;
            for (int k = 0; k < 5; k++)
               isa_out_fixed(outs[k], d, width, prec);
            text_printf(&ref, "%*.*f", (int)width, (int)prec, d); /* at most 309 + 1 + 64 characters */
            break;
         }
         default: {
            /* Python's repr(): no printf does it; check it reads back */
            struct text one = {0};
            struct isa_out o1;
            char *end;
            isa_out_callback(&o1, collect, &one);
            isa_out_pyfloat(&o1, d);
            isa_out_flush(&o1);
            text_add(&one, "", 1);
            if (isfinite(d) && (strtod(one.p, &end) != d || *end))
               fail("isa_out_pyfloat does not read back as the same double");
            if (isfinite(d) && d != 0) {
               /* as short as the shortest %.*e that reads back, and in
                * fixed notation from 1e-4 up to 1e16, as Python's repr */
               char e[40];
               int prec = 0;
               while (snprintf(e, sizeof e, "%.*e", prec, d), strtod(e, NULL) != d)
                  prec++;
               if (significant_digits(one.p) != significant_digits(e))
                  fail("isa_out_pyfloat does not write the shortest digits");
               if ((strchr(one.p, 'e') != NULL) != (fabs(d) < 1e-4 || fabs(d) >= 1e16))
                  fail("isa_out_pyfloat does not choose the notation Python's repr does");
            }
            for (int k = 0; k < 5; k++)
               isa_out_mem(outs[k], one.p, one.n - 1);
            text_add(&ref, one.p, one.n - 1);
            free(one.p);
         }
         }
         break;
      default: /* a binary16, as %f */
         for (int k = 0; k < 5; k++)
            isa_out_half_f(outs[k], v & 0xffff);
         text_printf(&ref, "%f", plain_half((uint16_t)v));
         break;
      }
   }
   for (int k = 0; k < 5; k++)
      isa_out_flush(outs[k]);
   fclose(fp);
   fclose(block_fp);
   if (block_len != ref.n || (ref.n && memcmp(block_text, ref.p, ref.n) != 0)) {
      show_difference(ref.p, ref.n, block_text, block_len);
      fail("the FILE sink through the caller's block got other text than the reference");
   }
   if (block_out.error)
      fail("the FILE sink through the caller's block flags an error");
   if (cb.n != ref.n || (ref.n && memcmp(cb.p, ref.p, ref.n) != 0) || cb_out.error) {
      show_difference(ref.p, ref.n, cb.p, cb.n);
      fail("the callback sink got other text than the reference");
   }
   if (file_len != ref.n || (ref.n && memcmp(file_text, ref.p, ref.n) != 0) || file_out.error)
      fail("the FILE sink got other text than the reference");
   if (isa_out_len(&buf_out) != ref.n)
      fail("isa_out_len of the buffer is not the length of the text");
   if (!refused.error != (ref.n == 0))
      fail("a callback that fails does not set the error flag (or one that wrote nothing does)");
   if (cap == 0 && !buf_out.error != (ref.n == 0))
      fail("a buffer of no bytes does not flag the text it cut");
   if (cap) {
      size_t kept = ref.n < cap ? ref.n : cap - 1;
      if ((ref.n && memcmp(buf, ref.p, kept) != 0) || buf[kept] != '\0')
         fail("the buffer does not hold the text's first bytes, NUL-ended");
      if (!buf_out.error != (ref.n < cap))
         fail("the buffer's error flag does not say whether the text was cut");
   }
   free(buf);
   free(block);
   free(block_text);
   free(file_text);
   free(ref.p);
   free(cb.p);
}

/* ---- mode 2: programs printed as isa dis prints them */

/* The JSON value at *p (objects, arrays, strings, numbers, literals):
 * advances *p past it, or returns 0. */
static int json_value(const char **p, const char *end, int depth);

static void json_space(const char **p, const char *end)
{
   while (*p < end && (**p == ' ' || **p == '\t'))
      (*p)++;
}

static int json_string(const char **p, const char *end)
{
   const char *s = *p;
   if (s >= end || *s++ != '"')
      return 0;
   while (s < end && *s != '"') {
      unsigned char c = (unsigned char)*s;
      if (c < 0x20)
         return 0;
      if (c == '\\') {
         s++;
         if (s >= end)
            return 0;
         if (*s == 'u') {
            for (int k = 1; k <= 4; k++)
               if (s + k >= end || !strchr("0123456789abcdefABCDEF", s[k]) || !s[k])
                  return 0;
            s += 5;
         } else if (*s && strchr("\"\\/bfnrt", *s)) {
            s++;
         } else {
            return 0;
         }
      } else {
         size_t len = char_length((const unsigned char *)s, (size_t)(end - s));
         if (!len)
            return 0;
         s += len;
      }
   }
   if (s >= end)
      return 0;
   *p = s + 1;
   return 1;
}

static int json_value(const char **p, const char *end, int depth)
{
   const char *s;
   json_space(p, end);
   s = *p;
   if (s >= end || depth > 16)
      return 0;
   if (*s == '"')
      return json_string(p, end);
   if (*s == '{' || *s == '[') {
      char close = *s == '{' ? '}' : ']';
      *p = s + 1;
      json_space(p, end);
      if (*p < end && **p == close) {
         (*p)++;
         return 1;
      }
      for (;;) {
         if (close == '}') {
            json_space(p, end);
            if (!json_string(p, end))
               return 0;
            json_space(p, end);
            if (*p >= end || **p != ':')
               return 0;
            (*p)++;
         }
         if (!json_value(p, end, depth + 1))
            return 0;
         json_space(p, end);
         if (*p < end && **p == ',') {
            (*p)++;
            continue;
         }
         if (*p < end && **p == close) {
            (*p)++;
            return 1;
         }
         return 0;
      }
   }
   if (*s == '-' || (*s >= '0' && *s <= '9')) { /* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
      const char *q = s + (*s == '-');
      if (q >= end || *q < '0' || *q > '9')
         return 0;
      if (*q == '0')
         q++;
      else
         while (q < end && *q >= '0' && *q <= '9')
            q++;
      if (q < end && *q == '.') {
         if (++q >= end || *q < '0' || *q > '9')
            return 0;
         while (q < end && *q >= '0' && *q <= '9')
            q++;
      }
      if (q < end && (*q == 'e' || *q == 'E')) {
         q++;
         if (q < end && (*q == '+' || *q == '-'))
            q++;
         if (q >= end || *q < '0' || *q > '9')
            return 0;
         while (q < end && *q >= '0' && *q <= '9')
            q++;
      }
      *p = q;
      return 1;
   }
   for (const char *const *lit = (const char *const[]){"true", "false", "null", NULL}; *lit; lit++) {
      size_t n = strlen(*lit);
      if ((size_t)(end - s) >= n && memcmp(s, *lit, n) == 0) {
         *p = s + n;
         return 1;
      }
   }
   return 0;
}

static void mode_dis(struct input *in)
{
   unsigned n_specs = 0, flags;
   const struct isa_spec *const *specs = isa_specs(&n_specs);
   struct options o;
   struct bytes prog;
   struct text cb = {0};
   struct isa_out buf_out, cb_out;
   size_t cap = 1 << 16, consumed = 0, consumed2 = 0;
   char *buf = (char *)malloc(cap), msg[256], msg2[256];
   int r, r2;
   memset(&o, 0, sizeof o);
   o.spec = specs[take(in, 1) % n_specs];
   flags = (unsigned)take(in, 1);
   o.json = flags & 1;
   o.offsets = flags >> 1 & 1;
   o.show_bytes = flags >> 2 & 1;
   o.base = flags >> 3 & 1 ? take(in, 8) : 0;
   for (unsigned k = 0; k < o.spec->n_options && k < MAX_SPEC_OPTIONS; k++)
      o.spec_options[k] = o.spec->options[k].values[take(in, 1) % o.spec->options[k].n_values];
   memset(&prog, 0, sizeof prog);
   prog.data = in->p;
   prog.len = in->n;
   if (!buf)
      abort();
   isa_out_buffer(&buf_out, buf, cap);
   isa_out_callback(&cb_out, collect, &cb);
   r = disassemble(&o, &prog, &buf_out, o.json, &consumed, msg, sizeof msg);
   r2 = disassemble(&o, &prog, &cb_out, o.json, &consumed2, msg2, sizeof msg2);
   isa_out_flush(&buf_out);
   isa_out_flush(&cb_out);
   if (r != r2 || consumed != consumed2 || (r != ISA_OK && strcmp(msg, msg2) != 0))
      fail("the same program printed twice ended differently");
   if (isa_out_len(&buf_out) != cb.n)
      fail("a buffer and a callback got texts of different lengths");
   if (cb.n && memcmp(buf, cb.p, cb.n < cap ? cb.n : cap - 1) != 0)
      fail("a buffer and a callback got different texts");
   /* every line: a JSON object (--json), or valid UTF-8 without NULs */
   for (const char *line = cb.p, *stop = cb.p ? cb.p + cb.n : NULL; line && line < stop;) {
      const char *nl = (const char *)memchr(line, '\n', (size_t)(stop - line)), *e = nl ? nl : stop, *p = line;
      if (o.json) {
         if (*p != '{' || !json_value(&p, e, 0) || p != e)
            fail("isa dis --json printed a line that is not a JSON object");
      } else {
         while (p < e) {
            size_t len = *p ? char_length((const unsigned char *)p, (size_t)(e - p)) : 0;
            if (!len)
               fail("isa dis printed a line that is not UTF-8 text");
            p += len;
         }
      }
      line = nl ? nl + 1 : NULL;
   }
   free(buf);
   free(cb.p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   struct input in = {data + 1, size ? size - 1 : 0};
   if (size == 0)
      return 0;
   if (data[0] % 2 == 0)
      mode_script(&in);
   else
      mode_dis(&in);
   return 0;
}
