/*
 * isagen core: the header-only part of the runtime.
 *
 * Every generated spec header embeds a verbatim copy of this file (between
 * the same include guard), so a generated header compiles on its own; the
 * runtime library includes it too.  Keep it C11 and C++ clean, free of
 * global state, and free of anything that knows about a particular ISA.
 *
 * Bit numbering: a unit of encoded bits is a little-endian bit string.  Bit n
 * of a byte buffer is bit (n % 8) of byte (n / 8); equivalently bit (n % 32)
 * of the little-endian 32-bit word n / 32.  Generated code first copies a
 * unit's bits into an array of 32-bit words whose bit 0 is the unit's first
 * bit ("unit words"), then reads fields at constant positions from it.
 */
#ifndef ISAGEN_CORE_H
#define ISAGEN_CORE_H

/* isagen's version, written here only: of this core and so of every
 * generated header (each embeds the core and stops with an #error when a
 * core of another version came first), of the generator (isagen --version
 * reads it here), of the library (isa_version(); soname libisagen.so.MAJOR)
 * and of isagen.pc.  The number is MAJOR * 10000 + MINOR * 100 + PATCH. */
#define ISAGEN_VERSION "0.1.0"
#define ISAGEN_VERSION_NUMBER 100

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The bit helpers below are tiny and called with constant positions from
 * very large generated functions; compilers stop inlining there unless
 * told, and an out-of-line call per field costs a factor of five. */
#if defined(__GNUC__) || defined(__clang__)
#define ISA_INLINE static inline __attribute__((always_inline))
#define ISA_OUTLINE static __attribute__((noinline, unused)) /* a rare path kept out of the inlined one */
#define ISA_COLD static __attribute__((noinline, cold, unused)) /* an error path: out of line, small */
#else
#define ISA_INLINE static inline
#define ISA_OUTLINE static
#define ISA_COLD static
#endif

/* Status codes returned by every decode, encode and pack function. */
enum isa_status {
   ISA_OK = 0,
   ISA_ERR_TRUNCATED = -1,    /* the input ends before the unit does */
   ISA_ERR_NO_MATCH = -2,     /* no encoding or variant matches the bits */
   ISA_ERR_RANGE = -3,        /* a value does not fit its field */
   ISA_ERR_INCONSISTENT = -4, /* fields contradict each other */
   ISA_ERR_LIMIT = -5,        /* a count exceeds the storage the spec declares */
   ISA_ERR_NOSPACE = -6,      /* the output buffer is too small */
   ISA_ERR_ARG = -7,          /* bad argument: unknown name, bad index... */
   ISA_ERR_SIZE = -8          /* a declared size disagrees with the content */
};

/* Details of a failure.  Every member is optional for the callee to fill;
 * isa_error_clear() zeroes it.  Strings point to static storage. */
struct isa_error {
   int status;            /* enum isa_status */
   const char *type;      /* spec type being decoded or packed, or NULL */
   const char *field;     /* field path, or NULL */
   const char *detail;    /* short static explanation, or NULL */
   int64_t value;         /* offending value (RANGE, NO_MATCH...) */
   int64_t min, max;      /* allowed range (RANGE) */
   uint64_t bit;          /* bit offset in the input where it happened */
   uint64_t need, have;   /* bits needed / available (TRUNCATED, SIZE) */
};

static inline void isa_error_clear(struct isa_error *e)
{
   if (e) {
      struct isa_error zero = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
      *e = zero;
   }
}

static inline int isa_fail(struct isa_error *e, int status, const char *type,
                           const char *field, const char *detail)
{
   if (e) {
      e->status = status;
      e->type = type;
      e->field = field;
      e->detail = detail;
   }
   return status;
}

ISA_COLD int isa_fail_range(struct isa_error *e, const char *type,
                                 const char *field, int64_t value,
                                 int64_t min, int64_t max)
{
   if (e) {
      e->status = ISA_ERR_RANGE;
      e->type = type;
      e->field = field;
      e->detail = 0;
      e->value = value;
      e->min = min;
      e->max = max;
   }
   return ISA_ERR_RANGE;
}

static inline int isa_fail_truncated(struct isa_error *e, const char *type,
                                     uint64_t bit, uint64_t need, uint64_t have)
{
   if (e) {
      e->status = ISA_ERR_TRUNCATED;
      e->type = type;
      e->field = 0;
      e->detail = 0;
      e->bit = bit;
      e->need = need;
      e->have = have;
   }
   return ISA_ERR_TRUNCATED;
}

/* One field of a struct's range check, for isa_fail_ranges: where its
 * member is, how to read it, and its width in bits.  Generated checks
 * test every field inline and, when one fails, hand the table to
 * isa_fail_ranges to say which: one call per struct instead of one per
 * field keeps the checked encoders small. */
struct isa_range_check {
   uint32_t offset; /* of the member in the struct */
   uint32_t name;   /* offset of the field's path in the names string */
   uint8_t size;    /* of the member, in bytes: 1, 2, 4 or 8 */
   uint8_t flags;   /* ISA_RC_* */
   uint8_t width;   /* of the field, in bits */
};

#define ISA_RC_SIGNED_C 1u     /* the member's C type is signed */
#define ISA_RC_SIGNED_FIELD 2u /* the field holds two's complement values */

/* The first of n fields of the struct at obj whose value its bits cannot
 * hold, reported as isa_fail_range does (the value, and the range of the
 * field); `names` holds each field's path, NUL-terminated. */
ISA_COLD int isa_fail_ranges(struct isa_error *e, const char *type, const void *obj,
                             const struct isa_range_check *checks, size_t n, const char *names)
{
   size_t i;
   for (i = 0; i < n; i++) {
      const struct isa_range_check *c = &checks[i];
      const unsigned char *p = (const unsigned char *)obj + c->offset;
      bool sc = (c->flags & ISA_RC_SIGNED_C) != 0;
      int64_t v;
      switch (c->size) {
      case 1: { uint8_t x; memcpy(&x, p, 1); v = sc ? (int64_t)(int8_t)x : (int64_t)x; break; }
      case 2: { uint16_t x; memcpy(&x, p, 2); v = sc ? (int64_t)(int16_t)x : (int64_t)x; break; }
      case 4: { uint32_t x; memcpy(&x, p, 4); v = sc ? (int64_t)(int32_t)x : (int64_t)x; break; }
      default: { uint64_t x; memcpy(&x, p, 8); v = (int64_t)x; break; }
      }
      if (c->flags & ISA_RC_SIGNED_FIELD) {
         int64_t lo = -(INT64_C(1) << (c->width - 1)), hi = (INT64_C(1) << (c->width - 1)) - 1;
         if (v < lo || v > hi)
            return isa_fail_range(e, type, names + c->name, v, lo, hi);
      } else {
         uint64_t hi = c->width >= 64 ? UINT64_MAX : (UINT64_C(1) << c->width) - 1;
         if ((uint64_t)v > hi)
            return isa_fail_range(e, type, names + c->name, v, 0, (int64_t)hi);
      }
   }
   return isa_fail(e, ISA_ERR_RANGE, type, 0, "a value does not fit its field");
}

/* ---- byte and word access ------------------------------------------- */

ISA_INLINE uint32_t isa_load_le32(const uint8_t *p)
{
   return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
          (uint32_t)p[3] << 24;
}

ISA_INLINE void isa_store_le32(uint8_t *p, uint32_t v)
{
   p[0] = (uint8_t)v;
   p[1] = (uint8_t)(v >> 8);
   p[2] = (uint8_t)(v >> 16);
   p[3] = (uint8_t)(v >> 24);
}

/* Copy `nbits` bits starting at bit `pos` of buf[0..len) into unit words
 * w[0 .. (nbits+31)/32), bit `pos` landing in bit 0 of w[0].  Bits past the
 * end of the buffer read as zero; bits of the last word past nbits are 0. */
/* isa_bits_extract where the unit's words are not all whole words of buf:
 * a unit at an odd bit, or near the end of the input. */
ISA_OUTLINE void isa_bits_extract_edge(const uint8_t *buf, size_t len, size_t pos, size_t nwords, uint32_t *w)
{
   size_t i;
   if (pos % 8 == 0) {
      /* near the end (a 4-byte AGX instruction read through its 78-bit
       * decision window): whole words, zeros past the end, and at most one
       * word of the bytes that remain */
      for (i = 0; i < nwords; i++) {
         size_t at = pos / 8 + 4 * i, k;
         if (at + 4 <= len) {
            w[i] = isa_load_le32(buf + at);
         } else {
            w[i] = 0;
            for (k = 0; at + k < len; k++)
               w[i] |= (uint32_t)buf[at + k] << (8 * k);
         }
      }
      return;
   }
   /* a unit at an odd bit (Lima PP's slots): each word from the five
    * bytes it straddles, a byte at a time only at the end of the input */
   for (i = 0; i < nwords; i++) {
      size_t bit = pos + 32 * i, byte = bit / 8, k;
      unsigned shift = (unsigned)(bit % 8);
      uint64_t window = 0;
      if (byte + 5 <= len) {
         window = isa_load_le32(buf + byte) | (uint64_t)buf[byte + 4] << 32;
      } else {
         for (k = 0; k < 5; k++)
            if (byte + k < len)
               window |= (uint64_t)buf[byte + k] << (8 * k);
      }
      w[i] = (uint32_t)(window >> shift);
   }
}

ISA_INLINE void isa_bits_extract(const uint8_t *buf, size_t len, size_t pos, size_t nbits, uint32_t *w)
{
   size_t nwords = (nbits + 31) / 32, i;
   if (pos % 8 == 0 && (pos / 8) + nwords * 4 <= len) { /* whole bytes, all there */
      const uint8_t *p = buf + pos / 8;
      for (i = 0; i < nwords; i++)
         w[i] = isa_load_le32(p + 4 * i);
   } else {
      isa_bits_extract_edge(buf, len, pos, nwords, w);
   }
   if (nbits % 32)
      w[nwords - 1] &= (UINT32_C(1) << (nbits % 32)) - 1;
}

/* The first `nbits` bits of words src into w[0 .. nwords), the rest zero:
 * a unit's own bits out of a longer window read before its size was known. */
ISA_INLINE void isa_w_keep(uint32_t *w, const uint32_t *src, size_t nwords, size_t nbits)
{
   size_t i;
   for (i = 0; i < nwords; i++)
      w[i] = 32 * i < nbits ? src[i] : 0;
   if (nbits % 32 && nbits / 32 < nwords)
      w[nbits / 32] &= (UINT32_C(1) << (nbits % 32)) - 1;
}

/* Write unit words w (nbits bits) into buf at bit `pos`, replacing the
 * bits that were there and leaving the others alone.  The caller makes sure
 * buf holds at least (pos + nbits + 7) / 8 bytes. */
static inline void isa_bits_insert(uint8_t *buf, size_t pos, size_t nbits,
                                   const uint32_t *w)
{
   size_t i;
   if (pos % 32 == 0 && nbits % 32 == 0) {
      uint8_t *p = buf + pos / 8;
      for (i = 0; i < nbits / 32; i++)
         isa_store_le32(p + 4 * i, w[i]);
      return;
   }
   if (pos % 8 == 0 && nbits % 8 == 0) {
      uint8_t *p = buf + pos / 8;
      for (i = 0; i < nbits / 8; i++)
         p[i] = (uint8_t)(w[i / 4] >> (8 * (i % 4)));
      return;
   }
   for (i = 0; i < nbits; i++) {
      size_t bit = pos + i;
      unsigned v = (unsigned)(w[i / 32] >> (i % 32)) & 1u;
      buf[bit / 8] = (uint8_t)((buf[bit / 8] & ~(1u << (bit % 8))) |
                               (v << (bit % 8)));
   }
}

/* The end of a checked encode, one call for every struct: unit words w
 * (n bits) into buf[0..cap) at bit `pos` when they fit, *bits = n. */
ISA_OUTLINE int isa_bits_put(uint8_t *buf, size_t cap, size_t pos, size_t n, const uint32_t *w,
                             size_t *bits, struct isa_error *err, const char *type)
{
   if (pos + n > cap * 8)
      return isa_fail(err, ISA_ERR_NOSPACE, type, 0, "output buffer too small");
   isa_bits_insert(buf, pos, n, w);
   *bits = n;
   return ISA_OK;
}

/* Clear `nbits` bits of buf starting at bit `pos`. */
static inline void isa_bits_zero(uint8_t *buf, size_t pos, size_t nbits)
{
   size_t i;
   for (i = 0; i < nbits; i++)
      buf[(pos + i) / 8] = (uint8_t)(buf[(pos + i) / 8] & ~(1u << ((pos + i) % 8)));
}

/* Field of `width` (1..64) bits at bit `lo` of unit words w.  With constant
 * arguments this folds to a shift and a mask. */
ISA_INLINE uint64_t isa_w_get(const uint32_t *w, unsigned lo, unsigned width)
{
   unsigned i = lo / 32, s = lo % 32;
   uint64_t v = (uint64_t)w[i] >> s;
   if (s + width > 32)
      v |= (uint64_t)w[i + 1] << (32 - s);
   if (s + width > 64)
      v |= (uint64_t)w[i + 2] << (64 - s);
   return width >= 64 ? v : v & ((UINT64_C(1) << width) - 1);
}

/* OR `value` (already masked to width) into unit words at bit `lo`. */
ISA_INLINE void isa_w_or(uint32_t *w, unsigned lo, unsigned width,
                            uint64_t value)
{
   unsigned i = lo / 32, s = lo % 32;
   w[i] |= (uint32_t)(value << s);
   if (s + width > 32)
      w[i + 1] |= (uint32_t)(value >> (32 - s));
   if (s + width > 64)
      w[i + 2] |= (uint32_t)(value >> (64 - s));
}

ISA_INLINE uint64_t isa_mask64(unsigned width)
{
   return width >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << width) - 1;
}

/* Two's-complement sign extension of the low `width` bits of v. */
ISA_INLINE int64_t isa_sext(uint64_t v, unsigned width)
{
   uint64_t m;
   if (width == 0 || width >= 64)
      return (int64_t)v;
   m = UINT64_C(1) << (width - 1);
   v &= isa_mask64(width);
   return (int64_t)((v ^ m) - m);
}

/* ---- helpers for generated expressions -------------------------------
 * The expression language computes in 64-bit two's complement with no
 * undefined behaviour: division by zero gives 0, shifts by out-of-range
 * amounts give 0 (or the sign for >>), overflow wraps. */

/* Comparisons and logic as functions returning 0 or 1: generated code
 * never hands the compiler a boolean used as a number, or a comparison it
 * can prove constant, so -Wall -Wextra -Werror stays quiet for any valid
 * expression.  Both operands are always evaluated (they have no effects). */
static inline int64_t isa_x_b(int c) { return c ? 1 : 0; }
static inline int64_t isa_x_eq(int64_t a, int64_t b) { return a == b; }
static inline int64_t isa_x_ne(int64_t a, int64_t b) { return a != b; }
static inline int64_t isa_x_lt(int64_t a, int64_t b) { return a < b; }
static inline int64_t isa_x_le(int64_t a, int64_t b) { return a <= b; }
static inline int64_t isa_x_gt(int64_t a, int64_t b) { return a > b; }
static inline int64_t isa_x_ge(int64_t a, int64_t b) { return a >= b; }
static inline int64_t isa_x_land(int64_t a, int64_t b) { return a != 0 && b != 0; }
static inline int64_t isa_x_lor(int64_t a, int64_t b) { return a != 0 || b != 0; }
static inline int64_t isa_x_lnot(int64_t a) { return a == 0; }
static inline int isa_x_truth(int64_t a) { return a != 0; }
static inline int64_t isa_x_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static inline int64_t isa_x_sub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
static inline int64_t isa_x_mul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }
static inline int64_t isa_x_neg(int64_t a) { return (int64_t)(0 - (uint64_t)a); }
/* Division and remainder by a power of two (a lane's size, a unit's
 * width) are a shift and a mask when a >= 0: an idiv per loop step was
 * the hottest instruction of Midgard's write-mask printer. */
static inline int64_t isa_x_div(int64_t a, int64_t b)
{
   if (b == 0 || (b == -1 && a == INT64_MIN))
      return b == 0 ? 0 : a;
#if defined(__GNUC__)
   if (a >= 0 && b > 0 && (b & (b - 1)) == 0)
      return a >> __builtin_ctzll((unsigned long long)b);
#endif
   return a / b;
}
static inline int64_t isa_x_mod(int64_t a, int64_t b)
{
   if (b == 0 || b == -1)
      return 0;
   if (a >= 0 && b > 0 && (b & (b - 1)) == 0)
      return a & (b - 1);
   return a % b;
}
static inline int64_t isa_x_shl(int64_t a, int64_t b)
{
   return (b < 0 || b > 63) ? 0 : (int64_t)((uint64_t)a << b);
}
static inline int64_t isa_x_shr(int64_t a, int64_t b)
{
   if (b < 0 || b > 63)
      return a < 0 ? -1 : 0;
   return a < 0 ? (int64_t)~(~(uint64_t)a >> b) : (int64_t)((uint64_t)a >> b);
}
static inline int64_t isa_x_bit(int64_t a, int64_t n)
{
   return (n < 0 || n > 63) ? 0 : (int64_t)(((uint64_t)a >> n) & 1);
}
static inline int64_t isa_x_bits(int64_t a, int64_t lo, int64_t width)
{
   if (lo < 0 || lo > 63 || width <= 0)
      return 0;
   return (int64_t)(((uint64_t)a >> lo) & isa_mask64((unsigned)(width > 64 ? 64 : width)));
}
static inline int64_t isa_x_popcount(int64_t a)
{
   /* without a branch per bit set (write masks: one per lane) */
   uint64_t v = (uint64_t)a;
   v = v - (v >> 1 & UINT64_C(0x5555555555555555));
   v = (v & UINT64_C(0x3333333333333333)) + (v >> 2 & UINT64_C(0x3333333333333333));
   v = (v + (v >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
   return (int64_t)(v * UINT64_C(0x0101010101010101) >> 56);
}
static inline int64_t isa_x_sext(int64_t a, int64_t width)
{
   return (width <= 0 || width >= 64) ? a : isa_sext((uint64_t)a, (unsigned)width);
}
static inline int64_t isa_x_align(int64_t a, int64_t n)
{
   if (n <= 0)
      return a;
   return isa_x_mul(isa_x_div(isa_x_add(a, n - 1), n), n);
}
/* Bits lo..hi set, clipped to 0..63 (0 when the range is empty). */
static inline int64_t isa_x_bitmask(int64_t lo, int64_t hi)
{
   uint64_t top, bottom;
   if (lo < 0)
      lo = 0;
   if (hi > 63)
      hi = 63;
   if (lo > hi)
      return 0;
   top = hi == 63 ? ~UINT64_C(0) : (UINT64_C(1) << (hi + 1)) - 1;
   bottom = (UINT64_C(1) << lo) - 1;
   return (int64_t)(top & ~bottom);
}
static inline int64_t isa_x_min(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t isa_x_max(int64_t a, int64_t b) { return a > b ? a : b; }
static inline int64_t isa_x_abs(int64_t a) { return a < 0 ? isa_x_neg(a) : a; }

/* IEEE binary16 bit pattern to double (exact; NaN keeps its sign, so
 * printf prints "-nan" for a negative NaN as C libraries do). */
static inline double isa_half_to_double(uint64_t h)
{
   unsigned sign = (unsigned)(h >> 15) & 1, exp = (unsigned)(h >> 10) & 0x1f;
   unsigned frac = (unsigned)h & 0x3ff;
   double v;
   if (exp == 0)
      v = ldexp((double)frac, -24);
   else if (exp == 31)
      v = frac ? (double)NAN : (double)INFINITY;
   else
      v = ldexp((double)(frac | 0x400), (int)exp - 25);
   return sign ? -v : v;
}

/* The low 32 bits as an IEEE binary32, all 64 as a binary64 (bit casts). */
static inline double isa_f32_to_double(uint64_t bits)
{
   uint32_t u = (uint32_t)bits;
   float f;
   memcpy(&f, &u, sizeof f);
   return (double)f;
}
static inline double isa_f64_to_double(uint64_t bits)
{
   double d;
   memcpy(&d, &bits, sizeof d);
   return d;
}

#ifdef __cplusplus
}
#endif

#endif /* ISAGEN_CORE_H */
