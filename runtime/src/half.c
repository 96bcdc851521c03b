/* IEEE binary16 helpers (decoding is in core.h: isa_half_to_double). */
#include <math.h>
#include <string.h>

#include "isagen/isagen.h"

uint16_t isa_double_to_half(double d)
{
   uint16_t sign = signbit(d) ? 0x8000 : 0;
   double a = fabs(d);
   int e;
   double m;
   if (isnan(d))
      return (uint16_t)(sign | 0x7e00);
   if (a >= 65520.0) /* rounds to infinity */
      return (uint16_t)(sign | 0x7c00);
   if (a < ldexp(1.0, -14)) {
      /* subnormal: units of 2^-24, round half to even */
      double q = a * 16777216.0;
      double r = nearbyint(q);
      return (uint16_t)(sign | (uint16_t)r);
   }
   m = frexp(a, &e); /* a = m * 2^e, 0.5 <= m < 1 */
   {
      double scaled = ldexp(m, 11); /* 1024 <= scaled < 2048 */
      double r = nearbyint(scaled);
      if (r >= 2048.0) {
         r /= 2.0;
         e++;
      }
      if (e + 14 > 30)
         return (uint16_t)(sign | 0x7c00);
      return (uint16_t)(sign | (uint16_t)((e + 14) << 10) | ((uint16_t)r & 0x3ff));
   }
}

/* A binary16 value is M * 2^-24 with M < 2^41, so M * 10^6 fits 64 bits and
 * the six decimals printf("%f") shows are an exact integer division. */
void isa_out_half_f(struct isa_out *o, uint64_t h)
{
   const unsigned sign = (unsigned)(h >> 15) & 1, exp = (unsigned)(h >> 10) & 31, frac = (unsigned)h & 1023;
   uint64_t m, scaled, q, rem, half = UINT64_C(1) << 23;
   char s[32];
   if (exp == 31) {
      isa_out_str(o, frac ? (sign ? "-nan" : "nan") : (sign ? "-inf" : "inf"));
      return;
   }
   m = exp ? (uint64_t)(1024 + frac) << (exp - 1) : frac;
   scaled = m * 1000000u;
   q = scaled >> 24;
   rem = scaled & ((UINT64_C(1) << 24) - 1);
   if (rem > half || (rem == half && (q & 1)))
      q++;
   {
      /* the six decimals and the integer part two digits at a time
       * (divisions by 100, which compile to multiplies), formatted in
       * the sink's block when it has room (isa_out_room) */
      static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                  "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                  "8081828384858687888990919293949596979899";
      unsigned f = (unsigned)(q % 1000000), ip = (unsigned)(q / 1000000);
      size_t n = sign + (ip < 10 ? 1u : ip < 100 ? 2u : ip < 1000 ? 3u : ip < 10000 ? 4u : 5u) + 7;
      char *room = isa_out_room(o, n), *p = room ? room : s + sizeof s - n, *e = p + n;
      for (int k = 0; k < 3; k++, f /= 100) {
         e -= 2;
         memcpy(e, pairs + 2 * (f % 100), 2);
      }
      *--e = '.';
      while (ip >= 100) {
         e -= 2;
         memcpy(e, pairs + 2 * (ip % 100), 2);
         ip /= 100;
      }
      if (ip >= 10) {
         e -= 2;
         memcpy(e, pairs + 2 * ip, 2);
      } else {
         *--e = (char)('0' + ip);
      }
      if (sign)
         *--e = '-';
      if (room)
         isa_out_commit(o, n);
      else
         isa_out_mem(o, p, n);
   }
}
