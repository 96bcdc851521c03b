/* IEEE binary16 helpers (decoding is in core.h: isa_half_to_double;
 * printing in out.c: isa_out_half_f). */
#include <math.h>

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
