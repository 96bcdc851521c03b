/* Output sinks: a FILE* or a caller's buffer.  Printers never allocate. */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "isagen/isagen.h"

/* A sink's block: text goes to [buf, end), and *end is room for a NUL. */
static void out_init(struct isa_out *o, char *buf, size_t cap)
{
   o->buf = o->cur = buf;
   o->end = buf + cap - 1;
   *buf = '\0';
   o->gone = 0;
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

void isa_out_file_block(struct isa_out *o, FILE *fp, char *block, size_t cap)
{
   if (block && cap >= sizeof o->block)
      out_init(o, block, cap);
   else
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
      o->gone += (size_t)(o->cur - o->buf);
      o->cur = o->buf;
   }
   *o->cur = '\0';
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
      } else {
         out_write(o, s, n);
         o->gone += n;
      }
   } else {
      /* isa_out_len counts everything produced, even past the end of the
       * buffer */
      size_t k = (size_t)(o->end - o->cur);
      memcpy(o->cur, s, k);
      o->cur += k;
      o->gone += n - k;
      o->error = 1;
   }
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
      o->gone += (size_t)n;
   } else {
      char big[512];
      va_start(ap, fmt);
      vsnprintf(big, sizeof big, fmt, ap);
      va_end(ap);
      isa_out_mem(o, big, (size_t)n < sizeof big ? (size_t)n : sizeof big - 1);
      if ((size_t)n >= sizeof big) {
         o->error = 1;
         o->gone += (size_t)n - (sizeof big - 1);
      }
   }
}

/* 10^0 to 10^19: isa_out_int_w's widths, isa_out_fixed's precisions, %g's digit counts */
static const uint64_t powers_of_10[] = {1,
                                        10,
                                        100,
                                        1000,
                                        10000,
                                        100000,
                                        1000000,
                                        10000000,
                                        100000000,
                                        1000000000,
                                        10000000000,
                                        100000000000,
                                        1000000000000,
                                        10000000000000,
                                        100000000000000,
                                        1000000000000000,
                                        10000000000000000,
                                        100000000000000000,
                                        1000000000000000000,
                                        10000000000000000000u};

/* hex digits, lower case (isa_out_hex, put_number, JSON's \u00XX) */
static const char hex_digits[] = "0123456789abcdef";

/* "00" to "99": decimal two digits per division */
static const char digit_pairs[201] = "0001020304050607080910111213141516171819"
                                      "2021222324252627282930313233343536373839"
                                      "4041424344454647484950515253545556575859"
                                      "6061626364656667686970717273747576777879"
                                      "8081828384858687888990919293949596979899";

/* The decimal digits of u, ending just before e (two per division by 100,
 * which compiles to a multiply); returns where they start. */
static inline char *put_decimal(char *e, uint64_t u)
{
   while (u >= 100) {
      e -= 2;
      memcpy(e, digit_pairs + 2 * (u % 100), 2);
      u /= 100;
   }
   if (u >= 10) {
      e -= 2;
      memcpy(e, digit_pairs + 2 * u, 2);
   } else {
      *--e = (char)('0' + u);
   }
   return e;
}

/* How many digits u has in `base`. */
static inline unsigned count_digits(uint64_t u, unsigned base)
{
   unsigned n = 1;
   uint64_t p = base; /* the smallest number of n + 1 digits (multiplies, not divides) */
   while (u >= p) {
      n++;
      if (p > UINT64_MAX / base)
         break;
      p *= base;
   }
   return n;
}

/* printf("%[0][width]ll{u,o,x,X}") of u (negative: a '-' before it),
 * right-aligned into p[0..n) */
static inline void put_number(char *p, size_t n, uint64_t u, int negative, unsigned base, int upper, int zero)
{
   const char *digits = upper ? "0123456789ABCDEF" : hex_digits;
   char *e = p + n;
   do {
      *--e = digits[u % base];
      u /= base;
   } while (u);
   if (zero)
      while (e > p + (negative ? 1 : 0))
         *--e = '0';
   if (negative)
      *--e = '-';
   while (e > p)
      *--e = ' ';
}

/* printf("%[0][width]lld") without printf: printers pad listing columns and
 * indentation this way on every unit. */
char *isa_put_int_w(char *p, int64_t v, unsigned width, int zero)
{
   uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
   if (v >= 0 && width > 0 && width < sizeof powers_of_10 / sizeof powers_of_10[0] && u < powers_of_10[width]) {
      /* as wide as asked (a listing's %03d index): digits from the right,
       * then the padding */
      char *e = p + width, *d = put_decimal(e, u);
      while (d > p)
         *--d = zero ? '0' : ' ';
      return e;
   }
   return isa_put_num_w(p, u, v < 0, 10, 0, width, zero);
}

void isa_out_int_w(struct isa_out *o, int64_t v, unsigned width, int zero)
{
   char *s = isa_out_run_begin(o, width > 24 ? (width > 64 ? 64 : width) : 24);
   isa_out_run_end(o, s, isa_put_int_w(s, v, width, zero));
}

/* printf("%[0][width]ll{u,o,x,X}") of u (negative: a '-' before it).
 * Inlined per base below, so that its divisions are by a constant. */
static inline char *num_w(char *p, uint64_t u, int negative, unsigned base, int upper, unsigned width, int zero)
{
   size_t n = count_digits(u, base) + (negative ? 1 : 0);
   if (width > 64)
      width = 64;
   if (n < width)
      n = width;
   put_number(p, n, u, negative, base, upper, zero);
   return p + n;
}

/* printf("%[0][width]ll{x,X}") of u: its digit count from its highest bit
 * set and a nibble per digit, not a division and a test per digit
 * (Midgard prints four 32-bit constants in hex per ALU bundle). */
static inline char *hex_w(char *p, uint64_t u, int upper, unsigned width, int zero)
{
   const char *digits = upper ? "0123456789ABCDEF" : hex_digits;
#if defined(__GNUC__)
   unsigned nd = u ? (67 - (unsigned)__builtin_clzll(u)) / 4 : 1;
#else
   unsigned nd = count_digits(u, 16);
#endif
   unsigned n = width > 64 ? 64 : width < nd ? nd : width, left = nd;
   char *e = p + n;
   for (; left >= 2; left -= 2, u >>= 8) { /* a byte's two digits at a time */
      e -= 2;
      e[0] = digits[u >> 4 & 15];
      e[1] = digits[u & 15];
   }
   if (left)
      *--e = digits[u & 15];
   if (e > p)
      memset(p, zero ? '0' : ' ', (size_t)(e - p));
   return p + n;
}

char *isa_put_num_w(char *p, uint64_t u, int negative, unsigned base, int upper, unsigned width, int zero)
{
   switch (base) {
   case 10:
      return num_w(p, u, negative, 10, upper, width, zero);
   case 16:
      return negative ? num_w(p, u, negative, 16, upper, width, zero) : hex_w(p, u, upper, width, zero);
   default:
      return num_w(p, u, negative, base, upper, width, zero);
   }
}

void isa_out_num_w(struct isa_out *o, uint64_t u, int negative, unsigned base, int upper, unsigned width, int zero)
{
   /* base 8 and up: 22 digits and a sign; base 2: 64 and a sign */
   const unsigned most = base >= 8 ? 24 : 65;
   char *s = isa_out_run_begin(o, width > most ? (width > 64 ? 64 : width) : most);
   isa_out_run_end(o, s, isa_put_num_w(s, u, negative, base, upper, width, zero));
}

/* isa_put_int's numbers outside -99..99 */
char *isa_put_int_slow(char *p, int64_t v)
{
   uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
   size_t n = count_digits(u, 10) + (v < 0 ? 1 : 0);
   char *e = put_decimal(p + n, u);
   if (v < 0)
      *--e = '-';
   return p + n;
}

/* isa_out_int when the block has fewer than 20 bytes left */
void isa_out_int_slow(struct isa_out *o, int64_t v)
{
   char s[24];
   isa_out_mem(o, s, (size_t)(isa_put_int(s, v) - s));
}

/* v < 10^6 as six decimal digits at p, as three digit pairs: v / 10^4 in
 * 32.32 fixed point (rounded up, which is exact for every v below 10^6),
 * then the fraction times 100 twice; multiplies, not divisions. */
static inline void six_digits(char *p, uint32_t v)
{
   uint64_t y = (uint64_t)v * 429497u;
   memcpy(p, digit_pairs + 2 * (y >> 32), 2);
   y = (uint32_t)y * UINT64_C(100);
   memcpy(p + 2, digit_pairs + 2 * (y >> 32), 2);
   y = (uint32_t)y * UINT64_C(100);
   memcpy(p + 4, digit_pairs + 2 * (y >> 32), 2);
}

/* A binary16 value is m * 2^-24 with m < 2^41: its integer part is m >> 24,
 * and its 24-bit fraction times 10^6 fits 64 bits, so the six decimals
 * printf("%f") shows are that product shifted, rounded half to even. */
char *isa_put_half_f(char *p, uint64_t h)
{
   const unsigned sign = (unsigned)(h >> 15) & 1, exp = (unsigned)(h >> 10) & 31, frac = (unsigned)h & 1023;
   const uint64_t half = UINT64_C(1) << 23;
   uint64_t m, scaled;
   uint32_t ip, f, rem, carry, nd;
   char d[12] = {0};
   if (exp == 31) {
      const char *name = frac ? (sign ? "-nan" : "nan") : (sign ? "-inf" : "inf");
      size_t n = strlen(name);
      memcpy(p, name, n);
      return p + n;
   }
   /* Without a branch on the value: the constants of a program follow no
    * pattern a predictor learns, and a mispredicted branch costs more
    * than the arithmetic (this was a third of Lima PP's mispredictions
    * when printing).  The value is m / 2^24: its integer part, and its
    * fraction in millionths rounded half to even (as glibc's %f rounds);
    * the parity of the whole number of millionths is f's, 10^6 being
    * even. */
   m = exp ? (uint64_t)(1024 + frac) << (exp - 1) : frac;
   ip = (uint32_t)(m >> 24);
   scaled = (m & 0xffffff) * 1000000u;
   f = (uint32_t)(scaled >> 24);
   rem = (uint32_t)(scaled & 0xffffff);
   f += (uint32_t)(rem > half) | ((uint32_t)(rem == half) & f & 1u);
   carry = f == 1000000;
   f -= carry * 1000000u;
   ip += carry;
   /* ip < 65536 as six digits in d (the first always 0), of which the
    * last nd are written */
   nd = 1 + (ip >= 10) + (ip >= 100) + (ip >= 1000) + (ip >= 10000);
   six_digits(d, ip);
   /* at most 16 bytes written whole, the last ones then overwritten */
   p[0] = '-';
   p += sign;
   memcpy(p, d + 6 - nd, 5); /* the digits, and whatever follows: overwritten next */
   p += nd;
   *p++ = '.';
   six_digits(p, f);
   return p + 6;
}

void isa_out_half_f(struct isa_out *o, uint64_t h)
{
   char *s = isa_out_run_begin(o, 16);
   isa_out_run_end(o, s, isa_put_half_f(s, h));
}

void isa_out_hex(struct isa_out *o, uint64_t v)
{
   char s[18];
   size_t i = sizeof s;
   do {
      s[--i] = hex_digits[v & 15];
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

/* What follows the backslash when JSON escapes byte c below 0x80: 0 for
 * none (the byte itself), 'u' for \u00XX.  A byte from 0x80 up starts a
 * UTF-8 sequence, copied when it is one and \ufffd when not, so that the
 * JSON is valid whatever the bytes. */
static const char json_escape[256] = {
   ['\0'] = 'u', [1] = 'u', [2] = 'u', [3] = 'u', [4] = 'u', [5] = 'u', [6] = 'u', [7] = 'u',
   [8] = 'u', ['\t'] = 't', ['\n'] = 'n', [11] = 'u', [12] = 'u', ['\r'] = 'r', [14] = 'u', [15] = 'u',
   [16] = 'u', [17] = 'u', [18] = 'u', [19] = 'u', [20] = 'u', [21] = 'u', [22] = 'u', [23] = 'u',
   [24] = 'u', [25] = 'u', [26] = 'u', [27] = 'u', [28] = 'u', [29] = 'u', [30] = 'u', [31] = 'u',
   ['"'] = '"', ['\\'] = '\\', [0x7f] = 'u',
};

/* The length of the well-formed UTF-8 sequence at s[0..n) (s[0] >= 0x80),
 * or 0: a lead byte, and continuation bytes in the ranges that rule out
 * overlong forms, surrogates and code points past U+10FFFF. */
static size_t utf8_sequence(const unsigned char *s, size_t n)
{
   unsigned c = s[0], lo = 0x80, hi = 0xbf;
   size_t len, k;
   if (c >= 0xc2 && c <= 0xdf)
      len = 2;
   else if (c >= 0xe0 && c <= 0xef)
      len = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
   else if (c >= 0xf0 && c <= 0xf4)
      len = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
   else
      return 0;
   if (n < len || s[1] < lo || s[1] > hi)
      return 0;
   for (k = 2; k < len; k++)
      if (s[k] < 0x80 || s[k] > 0xbf)
         return 0;
   return len;
}

/* The JSON form of the ASCII character c (a byte below 0x80) at p, room
 * for 6; returns its length. */
static inline size_t json_put_ascii(char *p, unsigned char c)
{
   if (!json_escape[c]) {
      *p = (char)c;
      return 1;
   }
   p[0] = '\\';
   p[1] = json_escape[c];
   if (json_escape[c] != 'u')
      return 2;
   p[2] = '0';
   p[3] = '0';
   p[4] = hex_digits[c >> 4];
   p[5] = hex_digits[c & 15];
   return 6;
}

/* The character at s[0..n) that ended a run of plain bytes, as JSON writes
 * it, at p (room for 6); returns its length, and in *used the bytes of s
 * it took. */
static inline size_t json_put(char *p, const char *s, size_t n, size_t *used)
{
   unsigned char c = (unsigned char)s[0];
   *used = 1;
   if (c >= 0x80) {
      size_t len = utf8_sequence((const unsigned char *)s, n);
      if (len) {
         memcpy(p, s, len);
         *used = len;
         return len;
      }
      memcpy(p, "\\ufffd", 6); /* not UTF-8: the replacement character */
      return 6;
   }
   return json_put_ascii(p, c);
}

/* Bit 7 of each byte of the 8 at p (read little-endian) set where JSON
 * needs an escape (a quote, a backslash, a control character or DEL), by
 * "has a zero byte" tests on the word, or the byte is 0x80 or above (UTF-8
 * to check).  Borrows can flag a byte above a flagged one but never below
 * it, so the lowest flag is exact. */
static uint64_t json_escapes8(const char *p)
{
   const uint64_t ones = UINT64_C(0x0101010101010101), high = UINT64_C(0x8080808080808080);
   const uint8_t *b = (const uint8_t *)p;
   uint64_t x = isa_load_le32(b) | (uint64_t)isa_load_le32(b + 4) << 32, q, s, d;
   q = x ^ (ones * '"');
   s = x ^ (ones * '\\');
   d = x ^ (ones * 0x7f);
   return (((q - ones) & ~q) | ((s - ones) & ~s) | ((d - ones) & ~d) | ((x - ones * 0x20) & ~x) | x) & high;
}

/* Index of the lowest set bit of m != 0 */
static unsigned lowest_bit(uint64_t m)
{
#if defined(__GNUC__) || defined(__clang__)
   return (unsigned)__builtin_ctzll(m);
#else
   unsigned k = 0;
   while (!(m & 1)) {
      m >>= 1;
      k++;
   }
   return k;
#endif
}

#ifdef __SSE2__
/* Bit k set where byte k of the 16 at p needs an escape in JSON */
static unsigned json_escapes16(const char *p)
{
   const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
   const __m128i ctl = _mm_cmpeq_epi8(_mm_max_epu8(x, _mm_set1_epi8(0x1f)), _mm_set1_epi8(0x1f));
   const __m128i bad = _mm_or_si128(_mm_or_si128(ctl, _mm_cmpeq_epi8(x, _mm_set1_epi8('"'))),
                                    _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('\\')),
                                                 _mm_cmpeq_epi8(x, _mm_set1_epi8(0x7f))));
   return (unsigned)_mm_movemask_epi8(_mm_or_si128(bad, x)); /* and every byte from 0x80 up */
}
#endif

/* s[0..n) as JSON writes it, into p[0..room): stops at the end of s, where
 * the next character might not fit in what is left of the room (less than
 * 6), or at a byte from 0x80 up (UTF-8, which the caller checks).  Returns
 * the bytes written, and in *used the bytes of s taken.  Runs of plain
 * bytes are found sixteen at a time with SSE2 where the compiler has it,
 * eight at a time by word arithmetic, then byte by byte; each block is
 * copied whole before it is looked at, and an escape inside it costs a
 * table lookup and a fresh look from the byte after it (disassembly text
 * escapes a tab or a newline every few words). */
static size_t json_escape_ascii(char *p, size_t room, const char *s, size_t n, size_t *used)
{
   size_t i = 0, w = 0;
   for (;;) {
      uint64_t m;
      size_t k, block;
      unsigned bits_per_byte; /* of the mask m: one bit per byte, or eight */
#ifdef __SSE2__
      if (n - i >= 16 && room - w >= 16 + 6) {
         block = 16;
         memcpy(p + w, s + i, 16);
         m = json_escapes16(s + i);
         bits_per_byte = 1;
      } else if (n > i && room - w >= 16 + 6) {
         /* the last few bytes as one block, zero-padded: the zeros
          * (control characters) are masked off, and the 16 bytes written
          * are within the room */
         char last[16] = {0};
         block = n - i;
         memcpy(last, s + i, block);
         memcpy(p + w, last, 16);
         m = json_escapes16(last) & ((1u << block) - 1);
         bits_per_byte = 1;
      } else
#endif
      if (n - i >= 8 && room - w >= 8 + 6) {
         block = 8;
         memcpy(p + w, s + i, 8);
         m = json_escapes8(s + i);
         bits_per_byte = 8;
      } else {
         break;
      }
      if (!m) {
         i += block;
         w += block;
         continue;
      }
      k = lowest_bit(m) / bits_per_byte; /* the plain bytes before s[i + k] */
      i += k;
      w += k;
      if ((unsigned char)s[i] >= 0x80)
         goto out;
      w += json_put_ascii(p + w, (unsigned char)s[i++]);
   }
   while (i < n && room - w >= 6 && (unsigned char)s[i] < 0x80)
      w += json_put_ascii(p + w, (unsigned char)s[i++]);
out:
   *used = i;
   return w;
}

/* A JSON string, escaped straight into the sink's block, as much as the
 * block has room for.  A full block is handed on (FILE and callback
 * sinks); a full buffer is cut as any text is, through isa_out_mem. */
void isa_out_json_string(struct isa_out *o, const char *s, size_t n)
{
   enum { SLACK = 6 }; /* room for an escape */
   size_t i = 0;
   isa_out_char(o, '"');
   while (i < n) {
      size_t used;
      if ((size_t)(o->end - o->cur) >= SLACK) {
         o->cur += json_escape_ascii(o->cur, (size_t)(o->end - o->cur), s + i, n - i, &used);
         i += used;
         if (i < n && (unsigned char)s[i] >= 0x80 && (size_t)(o->end - o->cur) >= SLACK) {
            o->cur += json_put(o->cur, s + i, n - i, &used);
            i += used;
         }
      } else if (o->fp || o->write) {
         isa_out_flush(o);
      } else {
         char u[6];
         size_t len = json_put(u, s + i, n - i, &used);
         isa_out_mem(o, u, len);
         i += used;
      }
   }
   isa_out_char(o, '"');
}

void isa_out_pad(struct isa_out *o, size_t start, int64_t width)
{
   static const char spaces[] = "                                ";
   size_t done = isa_out_len(o) - start;
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
/* a = *m * 2^exp with *m odd (or 0): the exact binary form of a finite a >= 0.
 * Read off the bits where doubles are IEEE binary64 (frexp and ldexp are
 * library calls, a fifth of a short %g). */
static int binary_form(double a, uint64_t *m)
{
   int e;
   uint64_t mi;
#if DBL_MANT_DIG == 53 && DBL_MAX_EXP == 1024 && FLT_RADIX == 2
   uint64_t b;
   memcpy(&b, &a, sizeof b);
   e = (int)(b >> 52 & 0x7FF);
   mi = b & ((UINT64_C(1) << 52) - 1);
   if (e) {
      mi |= UINT64_C(1) << 52;
      e -= 1075;
   } else {
      e = -1074; /* subnormal */
   }
#else
   double f = frexp(a, &e); /* a = f * 2^e, f in [0.5, 1) */
   mi = (uint64_t)ldexp(f, 53);
   e -= 53;
#endif
   if (!mi) {
      *m = 0;
      return 0;
   }
#if defined(__GNUC__)
   {
      int tz = __builtin_ctzll(mi);
      mi >>= tz;
      e += tz;
   }
#else
   while (!(mi & 1)) {
      mi >>= 1;
      e++;
   }
#endif
   *m = mi;
   return e;
}

static int exact_decimal(double a, char *digits, int *nd, int *exp10)
{
   uint64_t m, n, pow5 = 1;
   char t[24];
   int e, s, len = 0;
   if (a == 0) {
      digits[0] = '0';
      *nd = 1;
      *exp10 = 0;
      return 1;
   }
   e = binary_form(a, &m);
   if (e >= 0) { /* a whole number: at most 15 digits */
      if (e > 50 || m > UINT64_C(1000000000000000) >> e)
         return 0;
      n = m << e;
      s = 0;
   } else {
      s = -e;
      if (s > 22)
         return 0;
      for (int i = 0; i < s; i++)
         pow5 *= 5;
      if (m > UINT64_C(1000000000000000) / pow5)
         return 0;
      n = m * pow5; /* a = n / 10^s */
   }
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

/* Round the decimal digits[0..*nd) (value d0.d1d2... x 10^*exp10) to `keep`
 * >= 1 digits, ties to even as printf rounds an exact value. */
static void round_digits(char *digits, int *nd, int *exp10, int keep)
{
   int up, i;
   if (*nd <= keep)
      return;
   up = digits[keep] > '5';
   if (digits[keep] == '5') {
      up = (digits[keep - 1] - '0') & 1; /* a tie goes to the even neighbour */
      for (i = keep + 1; i < *nd; i++)
         if (digits[i] != '0')
            up = 1;
   }
   *nd = keep;
   for (i = keep - 1; up && i >= 0; i--) {
      if (digits[i] == '9') {
         digits[i] = '0';
      } else {
         digits[i]++;
         up = 0;
      }
   }
   if (up) { /* 9.99 -> 10.0: one more digit in front */
      memmove(digits + 1, digits, (size_t)*nd);
      digits[0] = '1';
      (*nd)++;
      (*exp10)++;
   }
}

/* The decimal digits of any finite a > 0, exactly: a is m * 2^e, so it is
 * N / 10^s for the integer N = m * 2^e (e >= 0, s = 0) or m * 5^s (s = -e),
 * worked out in base 10^9.  At most G_DIGITS digits are written, and then a
 * '1' if any that follow is not zero: enough to round to fewer digits, ties
 * to even included.  Midgard prints raw 32-bit constants, whose expansions
 * are long: through printf they cost twice as many instructions. */
enum { G_DIGITS = 8, G_LIMBS = 90 }; /* %g keeps 6; 10^9 limbs: m * 5^1074 has 767 digits */
static void exact_decimal_any(double a, char *digits, int *nd, int *exp10)
{
   uint32_t limb[G_LIMBS]; /* little-endian, base 10^9 */
   uint64_t m;
   int e = binary_form(a, &m), s = 0, n = 0, len = 0, total;
   bool more = false;
   while (m) {
      limb[n++] = (uint32_t)(m % 1000000000u);
      m /= 1000000000u;
   }
   for (int left = e >= 0 ? e : -e; left > 0;) {
      /* times 2^29 or 5^13 at a time: a limb times either stays below 2^62 */
      static const uint32_t pow5[14] = {1,        5,         25,        125,        625,
                                        3125,     15625,     78125,     390625,     1953125,
                                        9765625,  48828125,  244140625, 1220703125};
      const int step = e >= 0 ? (left < 29 ? left : 29) : (left < 13 ? left : 13);
      const uint64_t f = e >= 0 ? UINT64_C(1) << step : pow5[step];
      uint64_t carry = 0;
      for (int i = 0; i < n; i++) {
         uint64_t v = limb[i] * f + carry;
         limb[i] = (uint32_t)(v % 1000000000u);
         carry = v / 1000000000u;
      }
      while (carry) {
         limb[n++] = (uint32_t)(carry % 1000000000u);
         carry /= 1000000000u;
      }
      left -= step;
   }
   if (e < 0)
      s = -e;
   /* the digits, most significant first: the top limb without its leading
    * zeros, then nine per limb */
   total = 0;
   for (uint32_t top = limb[n - 1]; top; top /= 10)
      total++;
   total += 9 * (n - 1);
   for (int i = n - 1; i >= 0; i--) {
      char nine[9];
      int first = i == n - 1 ? 9 - (total - 9 * (n - 1)) : 0;
      uint32_t v = limb[i];
      if (len >= G_DIGITS) { /* past the digits kept: only whether any is not 0 */
         more = more || v;
         continue;
      }
      for (int k = 8; k >= 0; k--, v /= 10)
         nine[k] = (char)('0' + v % 10);
      for (int k = first; k < 9; k++) {
         if (len < G_DIGITS)
            digits[len++] = nine[k];
         else if (nine[k] != '0')
            more = true;
      }
   }
   if (more)
      digits[len++] = '1';
   *nd = len;
   *exp10 = total - 1 - s;
}

/* %g's six digits of a finite a > 0 in double arithmetic, when that is
 * sure to give them: y = a * 10^(5 - x), x = exp10 or one less, is off by
 * at most four roundings (the two powers of ten and the two products; five
 * when x was one short), under 5e-10 in all for y below 10^6.  So
 * rounding y to a whole number is exact unless its fraction is within
 * 1e-7 of one half (a tie, or close to one): false then (about one in ten
 * million values), and exact_decimal_any decides.  Near 10^5 and 10^6 the
 * digits are 100000 whichever side the exact value lies.  A value costs
 * about 200 instructions, against 900 through the exact expansion:
 * Midgard's raw constants read as floats are often subnormal or huge,
 * with long expansions. */
static bool g_digits_scaled(double a, char *digits, int *exp10)
{
   /* 10^(16i), i = -19..19, and 10^r, r = 0..25: each correctly rounded */
   static const double p16[39] = {1e-304, 1e-288, 1e-272, 1e-256, 1e-240, 1e-224, 1e-208, 1e-192, 1e-176, 1e-160,
                                  1e-144, 1e-128, 1e-112, 1e-96,  1e-80,  1e-64,  1e-48,  1e-32,  1e-16,  1e0,
                                  1e16,   1e32,   1e48,   1e64,   1e80,   1e96,   1e112,  1e128,  1e144,  1e160,
                                  1e176,  1e192,  1e208,  1e224,  1e240,  1e256,  1e272,  1e288,  1e304};
   static const double p1[26] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11, 1e12,
                                 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22, 1e23, 1e24, 1e25};
   uint64_t m;
   int e2 = binary_form(a, &m), x, k, i;
   double y, f;
   uint32_t q;
   /* a = m * 2^e2 with m odd: a's own exponent (floor(log2(a))), then
    * exp10 is floor or floor + 1 of that times log10(2) */
#if defined(__GNUC__)
   e2 += 63 - __builtin_clzll(m);
#else
   for (uint64_t t = m >> 1; t; t >>= 1)
      e2++;
#endif
   x = (int)floor(e2 * 0.30102999566398120);
   k = 5 - x; /* -302..329 */
   i = k >= 0 ? (k / 16 < 19 ? k / 16 : 19) : -((-k + 15) / 16);
   if (i < -19)
      return false;
   y = a * p16[i + 19] * p1[k - 16 * i];
   if (y >= 999999.999) {
      /* Near 10^6 either side gives 100000 at exp10 x + 1 (below, it
       * rounds up to 10^6): 1.0, 10.0, 100.0 land here or on 10^5 */
      if (y < 1000000.001) {
         q = 100000;
         x++;
         goto done;
      }
      x++;
      y = a * p16[i + 19] * p1[k - 16 * i] / 10; /* a fifth rounding: y < 2e5 here, the error still under 5e-10 */
   }
   if (y < 100000.001) {
      /* the exact value is at least 10^5 (x is at most floor(log10(a)),
       * and a tenth of one above 10^6 is above 10^5): it rounds to 10^5 */
      q = 100000;
      goto done;
   }
   if (y >= 999999.999) /* x was two short: never, as x is floor or floor + 1 */
      return false;
   f = floor(y);
   if (fabs(y - f - 0.5) < 1e-7)
      return false;
   q = (uint32_t)f + (y - f > 0.5);
   if (q == 1000000) {
      q = 100000;
      x++;
   }
done:
   six_digits(digits, q);
   *exp10 = x;
   return true;
}

/* printf("%g") of a double (precision 6): its first digits, exact; at
 * most 13 bytes ("-1.23457e-308") */
char *isa_put_g(char *p, double d)
{
   char digits[G_DIGITS + 2] = {0}, *out = p; /* {0}: gcc -O3 cannot see six_digits fill it */
   int nd, exp10, k = 0;
   if (signbit(d))
      out[k++] = '-';
   if (!isfinite(d)) { /* glibc's %g */
      memcpy(out + k, isnan(d) ? "nan" : "inf", 3);
      return p + k + 3;
   }
   if (d == 0) {
      out[k++] = '0';
      return p + k;
   }
   if (g_digits_scaled(fabs(d), digits, &exp10)) {
      nd = 6;
   } else {
      exact_decimal_any(fabs(d), digits, &nd, &exp10);
      round_digits(digits, &nd, &exp10, 6);
   }
   while (nd > 1 && digits[nd - 1] == '0')
      nd--;
   if (exp10 < -4 || exp10 >= 6) {
      out[k++] = digits[0];
      if (nd > 1) {
         out[k++] = '.';
         memcpy(out + k, digits + 1, (size_t)nd - 1);
         k += nd - 1;
      }
      out[k++] = 'e';
      out[k++] = exp10 < 0 ? '-' : '+';
      exp10 = exp10 < 0 ? -exp10 : exp10;
      if (exp10 >= 100)
         out[k++] = (char)('0' + exp10 / 100);
      out[k++] = (char)('0' + exp10 / 10 % 10);
      out[k++] = (char)('0' + exp10 % 10);
   } else if (exp10 < 0) {
      out[k++] = '0';
      out[k++] = '.';
      for (int i = -1; i > exp10; i--)
         out[k++] = '0';
      memcpy(out + k, digits, (size_t)nd);
      k += nd;
   } else {
      for (int i = 0; i <= exp10; i++)
         out[k++] = i < nd ? digits[i] : '0';
      if (nd > exp10 + 1) {
         out[k++] = '.';
         memcpy(out + k, digits + exp10 + 1, (size_t)(nd - exp10 - 1));
         k += nd - exp10 - 1;
      }
   }
   return p + k;
}

void isa_out_g(struct isa_out *o, double d)
{
   char *s = isa_out_run_begin(o, 16);
   isa_out_run_end(o, s, isa_put_g(s, d));
}

/* printf("%{width}.{prec}f") of a double, without printf when it is
 * m * 2^e with m * 10^prec below 2^64 (every binary32 value for prec up to
 * 11, every GPU immediate): the digits are m * 10^prec / 2^-e rounded to
 * an integer, ties to even, as printf rounds an exact value. */
void isa_out_fixed(struct isa_out *o, double d, unsigned width, unsigned prec)
{
   char out[80], t[24];
   uint64_t m, q;
   int e, k = 0, len = 0;
   if (prec >= sizeof powers_of_10 / sizeof powers_of_10[0] || width > 40)
      goto slow;
   if (!isfinite(d)) { /* glibc: [-]nan, [-]inf, right-aligned */
      const char *name = isnan(d) ? "nan" : "inf";
      if (signbit(d))
         out[k++] = '-';
      memcpy(out + k, name, 3);
      k += 3;
      goto pad;
   }
   e = binary_form(fabs(d), &m);
   if (m > UINT64_MAX / powers_of_10[prec]) {
#if defined(__SIZEOF_INT128__)
      /* a double's 53-bit m times 10^prec: the same rounding in 128 bits */
      __extension__ typedef unsigned __int128 u128;
      u128 wide = (u128)m * powers_of_10[prec];
      if (e >= 0)
         goto slow;
      if (-e >= 128) {
         q = 0; /* wide < 2^117: below half a unit */
      } else {
         u128 r = wide & (((u128)1 << -e) - 1), half = (u128)1 << (-e - 1);
         wide >>= -e;
         if (r > half || (r == half && (wide & 1)))
            wide++;
         if (wide > UINT64_MAX)
            goto slow;
         q = (uint64_t)wide;
      }
      goto digits;
#else
      goto slow;
#endif
   }
   q = m * powers_of_10[prec];
   if (e >= 0) {
      if (e >= 64 || q > UINT64_MAX >> e)
         goto slow;
      q <<= e;
   } else if (-e > 64) {
      q = 0; /* below half a unit of the last place */
   } else if (-e == 64) {
      q = q > UINT64_C(1) << 63; /* a tie (q = 2^63) goes to the even 0 */
   } else {
      uint64_t r = q & ((UINT64_C(1) << -e) - 1), half = UINT64_C(1) << (-e - 1);
      q >>= -e;
      if (r > half || (r == half && (q & 1)))
         q++;
   }
digits:
   do { /* the digits, at least prec + 1 of them */
      t[len++] = (char)('0' + q % 10);
      q /= 10;
   } while (q || len <= (int)prec);
   if (signbit(d))
      out[k++] = '-';
   while (len > (int)prec)
      out[k++] = t[--len];
   if (prec) {
      out[k++] = '.';
      while (len)
         out[k++] = t[--len];
   }
pad:
   if ((unsigned)k < width) {
      memmove(out + (width - (unsigned)k), out, (size_t)k);
      memset(out, ' ', width - (unsigned)k);
      k = (int)width;
   }
   isa_out_mem(o, out, (size_t)k);
   return;
slow:
   isa_out_fmt(o, "%*.*f", (int)width, (int)prec, d);
}
