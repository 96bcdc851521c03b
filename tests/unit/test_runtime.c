/* The hand-written runtime: bit access, expression helpers, half floats,
 * output sinks, error text, finding paths. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "../plain_json.h"
#include "isagen/isagen.h"

/* Reference: bit n of a byte buffer, one bit at a time. */
static unsigned ref_bit(const uint8_t *buf, size_t len, size_t n)
{
   return n / 8 < len ? (buf[n / 8] >> (n % 8)) & 1u : 0u;
}

Test(bits, extract_matches_bit_by_bit_reference)
{
   uint8_t buf[40];
   uint64_t s = 1;
   for (int round = 0; round < 2000; round++) {
      for (size_t i = 0; i < sizeof buf; i++)
         buf[i] = (uint8_t)rng_next(&s);
      size_t len = 1 + rng_next(&s) % sizeof buf;
      size_t pos = rng_next(&s) % (len * 8 + 16); /* may start past the end */
      size_t nbits = 1 + rng_next(&s) % 140;
      uint32_t w[6] = {0xdeadbeef, 0xdeadbeef, 0xdeadbeef, 0xdeadbeef, 0xdeadbeef, 0xdeadbeef};
      isa_bits_extract(buf, len, pos, nbits, w);
      for (size_t k = 0; k < (nbits + 31) / 32 * 32; k++) {
         unsigned want = k < nbits ? ref_bit(buf, len, pos + k) : 0u;
         unsigned got = (w[k / 32] >> (k % 32)) & 1u;
         cr_assert_eq(got, want, "round %d: pos %zu nbits %zu len %zu bit %zu", round, pos, nbits, len, k);
      }
   }
}

Test(bits, insert_replaces_only_its_bits)
{
   uint64_t s = 7;
   for (int round = 0; round < 2000; round++) {
      uint8_t buf[32], before[32];
      uint32_t w[5];
      for (size_t i = 0; i < sizeof buf; i++)
         buf[i] = before[i] = (uint8_t)rng_next(&s);
      for (size_t i = 0; i < 5; i++)
         w[i] = (uint32_t)rng_next(&s);
      size_t nbits = 1 + rng_next(&s) % 130;
      size_t pos = rng_next(&s) % (sizeof buf * 8 - nbits);
      if (round % 4 == 0)
         pos &= ~(size_t)7, nbits = (nbits + 7) & ~(size_t)7; /* the byte-aligned fast path */
      if (pos + nbits > sizeof buf * 8)
         continue;
      isa_bits_insert(buf, pos, nbits, w);
      for (size_t n = 0; n < sizeof buf * 8; n++) {
         unsigned want = (n >= pos && n < pos + nbits) ? (w[(n - pos) / 32] >> ((n - pos) % 32)) & 1u
                                                       : ref_bit(before, sizeof before, n);
         cr_assert_eq(ref_bit(buf, sizeof buf, n), want, "round %d bit %zu", round, n);
      }
   }
}

Test(bits, word_fields_straddle_words)
{
   uint32_t w[3] = {0x89abcdefu, 0x01234567u, 0xffffffffu};
   cr_assert_eq(isa_w_get(w, 0, 8), 0xefu);
   cr_assert_eq(isa_w_get(w, 28, 8), 0x78u); /* 4 bits of w[0], 4 of w[1] */
   cr_assert_eq(isa_w_get(w, 16, 48), UINT64_C(0x0123456789ab));
   cr_assert_eq(isa_w_get(w, 4, 64), UINT64_C(0xf0123456789abcde));
   uint32_t o[3] = {0, 0, 0};
   isa_w_or(o, 28, 8, 0xa5);
   cr_assert_eq(o[0], 0x50000000u);
   cr_assert_eq(o[1], 0x0000000au);
   isa_w_or(o, 60, 8, 0xff);
   cr_assert_eq(o[1], 0xf000000au);
   cr_assert_eq(o[2], 0x0000000fu);
}

Test(expr, helpers_have_no_undefined_behaviour)
{
   cr_assert_eq(isa_x_div(7, 0), 0);
   cr_assert_eq(isa_x_mod(7, 0), 0);
   cr_assert_eq(isa_x_div(INT64_MIN, -1), INT64_MIN);
   cr_assert_eq(isa_x_div(-7, 2), -3); /* C truncates toward zero */
   cr_assert_eq(isa_x_mod(-7, 2), -1);
   /* powers of two take a shift and a mask: the same answers */
   for (int64_t a = -70; a <= 70; a++)
      for (int64_t b = 1; b <= 64; b *= 2) {
         cr_assert_eq(isa_x_div(a, b), a / b, "%lld / %lld", (long long)a, (long long)b);
         cr_assert_eq(isa_x_mod(a, b), a % b, "%lld %% %lld", (long long)a, (long long)b);
      }
   cr_assert_eq(isa_x_div(INT64_MAX, INT64_C(1) << 62), 1);
   cr_assert_eq(isa_x_mod(INT64_MAX, INT64_C(1) << 62), (INT64_C(1) << 62) - 1);
   cr_assert_eq(isa_x_div(INT64_MIN, 2), INT64_MIN / 2);
   cr_assert_eq(isa_x_popcount(0), 0);
   cr_assert_eq(isa_x_popcount(0x55), 4);
   cr_assert_eq(isa_x_popcount(INT64_MIN), 1);
   cr_assert_eq(isa_x_shl(1, 64), 0);
   cr_assert_eq(isa_x_shl(1, -1), 0);
   cr_assert_eq(isa_x_shr(-8, 1), -4);
   cr_assert_eq(isa_x_shr(-8, 70), -1);
   cr_assert_eq(isa_x_add(INT64_MAX, 1), INT64_MIN);
   cr_assert_eq(isa_x_neg(INT64_MIN), INT64_MIN);
   cr_assert_eq(isa_x_bit(0x10, 4), 1);
   cr_assert_eq(isa_x_bit(0x10, 99), 0);
   cr_assert_eq(isa_x_bits(0xabcd, 4, 8), 0xbc);
   cr_assert_eq(isa_x_popcount(-1), 64);
   cr_assert_eq(isa_x_sext(0x1ff, 9), -1);
   cr_assert_eq(isa_x_sext(0x0ff, 9), 255);
   cr_assert_eq(isa_x_align(33, 32), 64);
   cr_assert_eq(isa_x_align(64, 32), 64);
   cr_assert_eq(isa_sext(0x8000000, 28), -134217728);
}

Test(half, known_values)
{
   cr_assert_eq(isa_half_to_double(0x3c00), 1.0);
   cr_assert_eq(isa_half_to_double(0xbeb6), -1.677734375); /* Lima clear program constant */
   cr_assert_eq(isa_half_to_double(0x0001), ldexp(1.0, -24));
   cr_assert_eq(isa_half_to_double(0x7bff), 65504.0);
   cr_assert(isinf(isa_half_to_double(0x7c00)) && isa_half_to_double(0x7c00) > 0);
   cr_assert(isinf(isa_half_to_double(0xfc00)) && isa_half_to_double(0xfc00) < 0);
   cr_assert(isnan(isa_half_to_double(0x7e00)));
   cr_assert(signbit(isa_half_to_double(0xfe00)), "a negative NaN keeps its sign");
   cr_assert(signbit(isa_half_to_double(0x8000)) && isa_half_to_double(0x8000) == 0.0);
}

Test(half, every_value_round_trips)
{
   for (unsigned h = 0; h < 0x10000; h++) {
      double d = isa_half_to_double(h);
      uint16_t back = isa_double_to_half(d);
      if (isnan(d))
         cr_assert(isnan(isa_half_to_double(back)), "NaN 0x%04x stays NaN", h);
      else
         cr_assert_eq(back, h, "0x%04x -> %g -> 0x%04x", h, d, back);
   }
}

/* Printers print binary16 constants with isa_out_half_f, which must say
 * exactly what the C library's %f says, for every one of the 65536 values. */
Test(half, prints_every_value_as_printf_f)
{
   for (unsigned h = 0; h < 0x10000; h++) {
      char want[64], got[64];
      struct isa_out o;
      snprintf(want, sizeof want, "%f", isa_half_to_double(h));
      isa_out_buffer(&o, got, sizeof got);
      isa_out_half_f(&o, h);
      isa_out_flush(&o);
      cr_assert_str_eq(got, want, "0x%04x", h);
      /* a block too short for it: cut like any other text */
      isa_out_buffer(&o, got, 7);
      isa_out_half_f(&o, h);
      isa_out_flush(&o);
      cr_assert(strncmp(got, want, 6) == 0 && strlen(got) == (strlen(want) < 6 ? strlen(want) : 6), "0x%04x", h);
      cr_assert_eq(isa_out_len(&o), strlen(want));
   }
}

/* isa_out_g and isa_out_fixed stand for printf's %g and %W.Pf in printers:
 * the same text as the C library's for every binary16 value, every binary32
 * value of a sweep over its bit patterns, dyadic values near rounding ties
 * and carries, and the special values. */
static void check_float_formats(double d)
{
   static const struct {
      unsigned width, prec;
   } fixed[] = {{0, 6}, {10, 8}, {10, 4}, {0, 0}, {0, 1}, {0, 2}, {7, 3}, {0, 11}, {0, 12}, {0, 20}};
   char want[128], got[128];
   struct isa_out o;
   snprintf(want, sizeof want, "%g", d);
   isa_out_buffer(&o, got, sizeof got);
   isa_out_g(&o, d);
   isa_out_flush(&o);
   cr_assert_str_eq(got, want, "%%g of %a", d);
   for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
      snprintf(want, sizeof want, "%*.*f", (int)fixed[i].width, (int)fixed[i].prec, d);
      isa_out_buffer(&o, got, sizeof got);
      isa_out_fixed(&o, d, fixed[i].width, fixed[i].prec);
      isa_out_flush(&o);
      cr_assert_str_eq(got, want, "%%%u.%uf of %a", fixed[i].width, fixed[i].prec, d);
   }
}

Test(out, g_and_fixed_as_printf)
{
   static const double special[] = {0.0, -0.0, 1.0, -1.0, 0.5, 0.25, 1e-5, 0.0001, 123456.0, 999999.5, 9999995.0,
                                    1234567.0, 0.000123456789, 2.5, 3.5, 0.125, 0.0625, 1e15, 1e16, 1e300,
                                    -1e-300, 0.1, 1.0 / 3.0, 65504.0, 5.9604644775390625e-08, 0x1.fffffffffffffp-12,
                                    0x1.fffffffffffffp+52, 0x1p-64, 0x1.8p-63, 1e19, 123456789012.5,
                                    /* ties at the seventh digit with long expansions, and the extremes */
                                    12345650000000000.0, 12345750000000000.0, 1234565e20, 0x1p-1074,
                                    0x1.fffffffffffffp+1023, 0x1p-149, 0x1.fffffep+127};
   for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
      check_float_formats(special[i]);
   check_float_formats(INFINITY);
   check_float_formats(-INFINITY);
   check_float_formats(NAN);
   check_float_formats(-NAN);
   for (unsigned h = 0; h < 0x10000; h++)
      check_float_formats(isa_half_to_double(h));
   for (uint64_t b = 0; b < (UINT64_C(1) << 32); b += 40009) { /* binary32 patterns, every exponent */
      uint32_t u = (uint32_t)b;
      float f;
      memcpy(&f, &u, sizeof f);
      check_float_formats((double)f);
   }
   for (int s = 0; s < 22; s++) /* ties and carries at every digit: k + 1/2, 9.99..5 */
      for (int64_t k = 0; k < 2000; k += 7) {
         check_float_formats(ldexp((double)(2 * k + 1), -s));
         check_float_formats(ldexp((double)(2 * k + 1), -s) + 999999.0);
         check_float_formats(-ldexp((double)(2 * k + 1), -s) - 99999.0);
      }
}

/* isa_out_pyfloat writes what Python's repr() writes: the expected texts
 * are Python's. */
Test(out, python_float_repr)
{
   static const struct {
      double v;
      const char *repr;
   } cases[] = {
      {0.0, "0.0"}, {-0.0, "-0.0"}, {1.0, "1.0"}, {0.015625, "0.015625"}, {31.0, "31.0"}, {-1.5, "-1.5"},
      {0.1, "0.1"}, {1e-5, "1e-05"}, {1e16, "1e+16"}, {123456789.0, "123456789.0"}, {1e-4, "0.0001"},
      {0.0001234, "0.0001234"}, {2.5e-7, "2.5e-07"}, {1.7976931348623157e308, "1.7976931348623157e+308"},
      {5e-324, "5e-324"}, {1e15, "1000000000000000.0"}, {123.456, "123.456"}, {3e20, "3e+20"},
      {1.0 / 3.0, "0.3333333333333333"}, {2.0 / 3.0, "0.6666666666666666"}, {-1e-10, "-1e-10"},
      /* dyadic values, printed from their exact expansion when it has at
       * most 15 digits (and by the general search past that) */
      {0.453125, "0.453125"}, {0x1p-20, "9.5367431640625e-07"}, {0x1.8p-21, "7.152557373046875e-07"},
      {123456789012345.0, "123456789012345.0"}, {1234567890123456.0, "1234567890123456.0"},
      {65504.0, "65504.0"}, {0x1p-13, "0.0001220703125"}, {0x1p52, "4503599627370496.0"},
      {0.30000000000000004, "0.30000000000000004"},
   };
   char b[64];
   struct isa_out o;
   for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      isa_out_buffer(&o, b, sizeof b);
      isa_out_pyfloat(&o, cases[i].v);
      isa_out_flush(&o);
      cr_assert_str_eq(b, cases[i].repr);
   }
   isa_out_buffer(&o, b, sizeof b);
   isa_out_pyfloat(&o, NAN);
   isa_out_flush(&o);
   cr_assert_str_eq(b, "nan");
   isa_out_buffer(&o, b, sizeof b);
   isa_out_pyfloat(&o, -INFINITY);
   isa_out_flush(&o);
   cr_assert_str_eq(b, "-inf");
}

/* The printf-free widths printers use for %3d, %04X and the like print
 * what snprintf prints, over values of every size and sign. */
Test(out, widths_as_printf)
{
   static const int64_t values[] = {0, 1, 7, 9, 10, 42, 99, 100, 255, 999, 1000, 4096, 65535, 123456789,
                                    INT64_MAX, -1, -9, -10, -42, -99, -100, -12345, INT64_MIN};
   static const unsigned widths[] = {0, 1, 2, 3, 4, 8, 20, 24};
   char got[128], want[128];
   struct isa_out o;
   for (unsigned i = 0; i < sizeof values / sizeof values[0]; i++)
      for (unsigned w = 0; w < sizeof widths / sizeof widths[0]; w++)
         for (int zero = 0; zero < 2; zero++) {
            char fmt[16];
            int64_t v = values[i];
            isa_out_buffer(&o, got, sizeof got);
            isa_out_int_w(&o, v, widths[w], zero);
            snprintf(fmt, sizeof fmt, zero ? "%%0%ulld" : "%%%ulld", widths[w]);
            snprintf(want, sizeof want, fmt, (long long)v);
            isa_out_flush(&o);
            cr_assert_str_eq(got, want, "%s of %lld", fmt, (long long)v);
            static const char convs[] = "uoxX";
            static const unsigned bases[] = {10, 8, 16, 16};
            for (unsigned c = 0; c < 4; c++) {
               isa_out_buffer(&o, got, sizeof got);
               isa_out_num_w(&o, (uint64_t)v, 0, bases[c], convs[c] == 'X', widths[w], zero);
               snprintf(fmt, sizeof fmt, zero ? "%%0%ull%c" : "%%%ull%c", widths[w], convs[c]);
               snprintf(want, sizeof want, fmt, (unsigned long long)v);
               isa_out_flush(&o);
               cr_assert_str_eq(got, want, "%s of %llu", fmt, (unsigned long long)v);
            }
         }
}

Test(out, pad_and_items)
{
   char b[64];
   struct isa_out o;
   isa_out_buffer(&o, b, sizeof b);
   isa_out_str(&o, "stop");
   isa_out_pad(&o, 0, 16);
   isa_out_flush(&o);
   cr_assert_str_eq(b, "stop            ");
   isa_out_pad(&o, 0, 4); /* already longer: nothing */
   cr_assert_eq(isa_out_len(&o), 16u);
}

Test(half, rounds_to_nearest_even)
{
   cr_assert_eq(isa_double_to_half(1.0 + ldexp(1.0, -11)), 0x3c00); /* tie: stays even */
   cr_assert_eq(isa_double_to_half(1.0 + 3 * ldexp(1.0, -11)), 0x3c02); /* tie: rounds up to even */
   cr_assert_eq(isa_double_to_half(65520.0), 0x7c00);
   cr_assert_eq(isa_double_to_half(65519.0), 0x7bff);
   cr_assert_eq(isa_double_to_half(ldexp(1.0, -25)), 0x0000); /* tie below the smallest subnormal */
   cr_assert_eq(isa_double_to_half(ldexp(3.0, -26)), 0x0001);
}

Test(out, buffer_truncates_and_reports)
{
   char buf[8];
   struct isa_out o;
   isa_out_buffer(&o, buf, sizeof buf);
   isa_out_str(&o, "abc");
   isa_out_fmt(&o, "%d", 1234);
   isa_out_flush(&o);
   cr_assert_str_eq(buf, "abc1234");
   cr_assert_eq(o.error, 0);
   isa_out_char(&o, 'x');
   isa_out_flush(&o);
   cr_assert_str_eq(buf, "abc1234", "a cut text still ends in a NUL");
   cr_assert_eq(o.error, 1);
   cr_assert_eq(isa_out_len(&o), 8u, "isa_out_len counts what was produced");
   /* keep writing past the end: nothing may land outside buf (ASan checks) */
   for (int i = 0; i < 100; i++)
      isa_out_str(&o, "more text");
   isa_out_flush(&o);
   cr_assert_str_eq(buf, "abc1234");
   cr_assert_eq(isa_out_len(&o), 908u);
}

/* Writes keep no NUL after the text (a store per token saved); the flush
 * that ends every T_print writes it, and writes nothing past it. */
Test(out, flush_ends_a_buffer_with_a_nul)
{
   char b[16];
   struct isa_out o;
   memset(b, '#', sizeof b);
   isa_out_buffer(&o, b, sizeof b);
   cr_assert_eq(b[0], '\0', "an empty sink holds the empty string");
   isa_out_str(&o, "abc");
   isa_out_int(&o, 42);
   cr_assert(memcmp(b, "abc42#", 6) == 0, "a write leaves what follows it alone");
   isa_out_flush(&o);
   cr_assert(memcmp(b, "abc42\0#", 7) == 0);
   isa_out_char(&o, 'x');
   isa_out_flush(&o);
   cr_assert_str_eq(b, "abc42x", "flushing a buffer does not start it over");
   cr_assert_eq(isa_out_len(&o), 6u);
}

/* A callback sink that records what it was given, write by write. */
struct recorder {
   char text[8192];
   size_t len;
   unsigned writes;
   int fail;
};

static int record(void *user, const char *s, size_t n)
{
   struct recorder *r = (struct recorder *)user;
   r->writes++;
   if (r->fail || r->len + n >= sizeof r->text)
      return -1;
   memcpy(r->text + r->len, s, n);
   r->len += n;
   r->text[r->len] = '\0';
   return 0;
}

Test(out, callback_sink_gets_whole_blocks)
{
   struct recorder r = {0};
   struct isa_out o;
   isa_out_callback(&o, record, &r);
   int i;
   size_t total = 0;
   for (i = 0; total < ISA_OUT_BLOCK * 5 / 2; i++) { /* tokens for two and a half blocks */
      char t[16];
      isa_out_str(&o, "r");
      isa_out_int(&o, i);
      isa_out_char(&o, ' ');
      total += (size_t)snprintf(t, sizeof t, "r%d ", i);
   }
   cr_assert_lt(r.writes, 3u, "nothing reaches the sink until a block is full");
   cr_assert_eq(isa_out_flush(&o), 0);
   cr_assert_eq(r.writes, 3u);
   cr_assert_eq(r.len, isa_out_len(&o));
   cr_assert_eq(isa_out_len(&o), total);
   cr_assert(strncmp(r.text, "r0 r1 r2 ", 9) == 0);
   {
      char last[16];
      int n = snprintf(last, sizeof last, "r%d ", i - 1);
      cr_assert(strcmp(r.text + r.len - n, last) == 0);
   }
   /* text longer than a block goes straight through, after what was held */
   char big[2000];
   memset(big, 'x', sizeof big);
   isa_out_str(&o, "<");
   isa_out_mem(&o, big, sizeof big);
   isa_out_flush(&o);
   cr_assert_eq(r.len, total + 1 + sizeof big);
   cr_assert_eq(r.text[total], '<');
   cr_assert_eq(r.text[r.len - 1], 'x');
}

Test(out, callback_failure_is_an_error)
{
   struct recorder r = {0};
   struct isa_out o;
   r.fail = 1;
   isa_out_callback(&o, record, &r);
   isa_out_str(&o, "text");
   cr_assert_eq(o.error, 0, "held in the block: nothing has failed yet");
   cr_assert_neq(isa_out_flush(&o), 0);
   cr_assert_eq(o.error, 1);
}

Test(out, file_sink_is_written_by_print_and_flush)
{
   char *text = NULL;
   size_t size = 0;
   FILE *fp = open_memstream(&text, &size);
   struct isa_out o;
   cr_assert_not_null(fp);
   isa_out_file(&o, fp);
   isa_out_str(&o, "abc ");
   isa_out_int(&o, 12345);
   fflush(fp);
   cr_assert_eq(size, 0u, "held in the block");
   cr_assert_eq(isa_out_flush(&o), 0);
   fflush(fp);
   cr_assert_eq(size, 9u);
   cr_assert(memcmp(text, "abc 12345", 9) == 0);
   fclose(fp);
   free(text);
}

Test(out, numbers_at_the_end_of_a_buffer)
{
   /* the inline path of isa_out_int writes into the block itself: every
    * number, at every distance from the end, is cut like any other text */
   static const int64_t values[] = {0, 7, 10, 99, 100, 999, 1000, -1, -9, -42, -99, -100, 123456789, INT64_MIN};
   for (size_t v = 0; v < sizeof values / sizeof values[0]; v++)
      for (int widths = 0; widths < 2; widths++) {
         char want[32];
         int n = snprintf(want, sizeof want, widths ? "%03lld" : "%lld", (long long)values[v]);
         for (size_t cap = 1; cap < 24; cap++) {
            char b[24];
            struct isa_out o;
            memset(b, '#', sizeof b);
            isa_out_buffer(&o, b, cap);
            if (widths)
               isa_out_int_w(&o, values[v], 3, 1); /* a listing's index */
            else
               isa_out_int(&o, values[v]);
            cr_assert_eq(isa_out_len(&o), (size_t)n);
            cr_assert_eq(o.error, (size_t)n >= cap);
            isa_out_flush(&o);
            cr_assert(strncmp(b, want, cap - 1) == 0 && strlen(b) == ((size_t)n < cap ? (size_t)n : cap - 1),
                      "%lld in %zu bytes: \"%s\"", (long long)values[v], cap, b);
            cr_assert_eq(b[cap], '#', "nothing past the buffer");
         }
      }
}

Test(out, no_buffer_counts_and_flags)
{
   struct isa_out o;
   isa_out_buffer(&o, NULL, 0);
   isa_out_str(&o, "abc");
   isa_out_int(&o, 5);
   cr_assert_eq(isa_out_len(&o), 4u);
   cr_assert_eq(o.error, 1);
}

Test(out, formats)
{
   char buf[256];
   struct isa_out o;
   isa_out_buffer(&o, buf, sizeof buf);
   isa_out_int(&o, -5);
   isa_out_char(&o, ' ');
   isa_out_hex(&o, 255);
   isa_out_char(&o, ' ');
   isa_out_bin(&o, 5, 4);
   isa_out_char(&o, ' ');
   isa_out_enum(&o, "VTG", 1);
   isa_out_char(&o, ' ');
   isa_out_enum(&o, NULL, 7);
   isa_out_flush(&o);
   cr_assert_str_eq(buf, "-5 0xff 0101 VTG 7");
}

Test(out, json_strings_are_escaped)
{
   char buf[64];
   struct isa_out o;
   const char in[] = "a\"b\\c\n\t\x01z";
   isa_out_buffer(&o, buf, sizeof buf);
   isa_out_json_string(&o, in, sizeof in - 1);
   isa_out_flush(&o);
   cr_assert_str_eq(buf, "\"a\\\"b\\\\c\\n\\t\\u0001z\"");
}

/* A listing's text (tabs, newlines, a quote, a backslash, control bytes
 * and the NUL that ends the pattern string) three thousand bytes long,
 * through a FILE sink, whose 512-byte block fills many times, often in the
 * middle of an escape; and its first 40 bytes into buffers of every size
 * from 1 to 200, each cut like any other text, with the length of the
 * whole. */
Test(out, json_strings_across_blocks_and_cut_buffers)
{
   static char in[3000], want[6 * sizeof in + 3], got[sizeof want];
   size_t wn;
   for (size_t i = 0; i < sizeof in; i++)
      in[i] = "abc\tdef\n0123\"x\x01yz\\"[i % 19];
   wn = plain_json_string(in, sizeof in, want);
   {
      FILE *fp;
      char *text = NULL;
      size_t size = 0;
      struct isa_out o;
      fp = open_memstream(&text, &size);
      cr_assert_not_null(fp);
      isa_out_file(&o, fp);
      isa_out_json_string(&o, in, sizeof in);
      cr_assert_eq(isa_out_flush(&o), 0);
      fclose(fp);
      cr_assert_eq(size, wn);
      cr_assert(memcmp(text, want, wn) == 0, "the same text through a FILE's blocks");
      cr_assert_eq(isa_out_len(&o), wn);
      free(text);
   }
   for (size_t cap = 1; cap <= 200; cap++) {
      struct isa_out o;
      memset(got, '#', sizeof got);
      isa_out_buffer(&o, got, cap);
      isa_out_json_string(&o, in, 40);
      isa_out_flush(&o);
      {
         char w[6 * 40 + 3];
         size_t n = plain_json_string(in, 40, w);
         cr_assert_eq(isa_out_len(&o), n, "cap %zu", cap);
         cr_assert_eq(o.error, n >= cap, "cap %zu", cap);
         cr_assert(strncmp(got, w, cap - 1) == 0 && strlen(got) == (n < cap ? n : cap - 1), "cap %zu: %s", cap, got);
         cr_assert_eq(got[cap], '#', "nothing past the buffer");
      }
   }
}

/* Escaping skips plain text sixteen or eight bytes at a time: every byte value at every
 * place of a 40-byte string, against escaping one character at a time. */
Test(out, json_strings_escape_every_byte_anywhere)
{
   for (unsigned c = 0; c < 256; c++)
      for (unsigned at = 0; at < 40; at++) {
         char in[40], got[512], want[512];
         struct isa_out o;
         memset(in, 'a' + (int)(at % 3), sizeof in);
         in[at] = (char)c;
         plain_json_string(in, sizeof in, want);
         isa_out_buffer(&o, got, sizeof got);
         isa_out_json_string(&o, in, sizeof in);
         isa_out_flush(&o);
         cr_assert_str_eq(got, want, "byte 0x%02x at %u", c, at);
      }
}

/* Two bytes side by side anywhere in the string, each a value at an edge of
 * a test the scan makes (control characters and space, the quote, the
 * backslash, DEL, bytes with the top bit set): word arithmetic flags false
 * escapes above a real one, so each pair checks that only real ones are
 * escaped and none is missed. */
Test(out, json_strings_escape_neighbouring_bytes)
{
   static const unsigned char edges[] = {0x00, 0x01, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x5b, 0x5c,
                                         0x5d, 0x7e, 0x7f, 0x80, 0x81, 0xff, 'a'};
   for (unsigned a = 0; a < sizeof edges; a++)
      for (unsigned b = 0; b < sizeof edges; b++)
         for (unsigned at = 0; at + 1 < 40; at++) {
            char in[40], got[512], want[512];
            struct isa_out o;
            memset(in, 'q', sizeof in);
            in[at] = (char)edges[a];
            in[at + 1] = (char)edges[b];
            plain_json_string(in, sizeof in, want);
            isa_out_buffer(&o, got, sizeof got);
            isa_out_json_string(&o, in, sizeof in);
            isa_out_flush(&o);
            cr_assert_str_eq(got, want, "bytes 0x%02x 0x%02x at %u", edges[a], edges[b], at);
         }
}

/* UTF-8 is copied and anything else from 0x80 up becomes U+FFFD, so the
 * JSON is valid whatever the bytes: every lead byte followed by every
 * second byte and edge values for the third and fourth, in a string and
 * at its very end (a sequence cut short). */
Test(out, json_strings_keep_utf8_and_replace_other_bytes)
{
   static const unsigned char edges[] = {0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xff};
   static const unsigned char last[] = {0x80, 0xbf, 0x41, 0xc0};
   unsigned checked = 0;
   for (unsigned a = 0x80; a < 0x100; a++)
      for (unsigned b = 0; b < 0x100; b++)
         for (unsigned c = 0; c < sizeof edges; c++)
            for (unsigned d = 0; d < sizeof last; d++) {
               char in[8] = {'x', (char)a, (char)b, (char)edges[c], (char)last[d], 'y', '\\', 'z'};
               char got[64], want[64];
               struct isa_out o;
               for (size_t n = (d == 0 && c == 0) ? 2 : sizeof in; n <= sizeof in; n += 6) {
                  plain_json_string(in, n, want);
                  isa_out_buffer(&o, got, sizeof got);
                  isa_out_json_string(&o, in, n);
                  isa_out_flush(&o);
                  cr_assert_str_eq(got, want, "bytes %02x %02x %02x %02x, %zu of them", a, b, edges[c], last[d], n);
                  checked++;
               }
            }
   cr_assert_gt(checked, 1000000u);
   {
      char got[64];
      struct isa_out o;
      isa_out_buffer(&o, got, sizeof got);
      isa_out_json_string(&o, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xff\xc3", 17);
      isa_out_flush(&o);
      cr_assert_str_eq(got, "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \\ufffd\\ufffd\"");
   }
}

Test(out, long_formatted_output_goes_through)
{
   char buf[600];
   struct isa_out o;
   isa_out_buffer(&o, buf, sizeof buf);
   isa_out_fmt(&o, "%300s|", "x");
   isa_out_flush(&o);
   cr_assert_eq(strlen(buf), 301u);
   cr_assert_eq(buf[300], '|');
}

Test(errors, messages_name_what_failed)
{
   char buf[200];
   struct isa_error e;
   isa_error_clear(&e);
   isa_fail_truncated(&e, "Header", 0, 640, 72);
   isa_error_format(&e, buf, sizeof buf);
   cr_assert_str_eq(buf, "truncated input: Header needs 640 bits at bit 0, 72 available");
   isa_fail_range(&e, "Header", "CommonWord0.Version", 32, 0, 31);
   isa_error_format(&e, buf, sizeof buf);
   cr_assert_str_eq(buf, "value out of range: Header.CommonWord0.Version = 32 does not fit 0..31");
   cr_assert_str_eq(isa_strerror(ISA_ERR_NO_MATCH), "no encoding matches");
   cr_assert_str_eq(isa_strerror(12345), "unknown error");
}

static void count_emit(void *user, const struct isa_finding *f)
{
   char *out = (char *)user;
   snprintf(out, 200, "%s|%s|%s|%s|%llu", isa_severity_name(f->severity), f->rule, f->field, f->message,
            (unsigned long long)f->offset);
}

Test(findings, paths_format_lazily_and_counts)
{
   char got[200] = "", buf[ISA_PATH_MAX];
   struct isa_findings f;
   struct isa_ctx ctx = {0};
   ctx.offset = 160;
   ctx.index = 2;
   ctx.size = 640;
   const struct isa_path vec = {NULL, "ImapGenericVector", 3};
   const struct isa_path inner = {&vec, "sub", -1};
   memset(&f, 0, sizeof f);
   f.emit = count_emit;
   f.user = got;
   isa_path_format(&inner, "x", buf, sizeof buf);
   cr_assert_str_eq(buf, "ImapGenericVector[3].sub.x");
   isa_path_format(NULL, "top", buf, sizeof buf);
   cr_assert_str_eq(buf, "top");
   isa_report(&f, &ctx, ISA_SEV_WARNING, "reserved", &vec, "ImapX", "set");
   cr_assert_str_eq(got, "warning|reserved|ImapGenericVector[3].ImapX|set|160");
   isa_report(&f, &ctx, ISA_SEV_ERROR, "whole", &vec, NULL, "m");
   cr_assert_str_eq(got, "error|whole|ImapGenericVector[3]|m|160");
   cr_assert_eq(f.count[ISA_SEV_WARNING], 1u);
   cr_assert_eq(f.count[ISA_SEV_ERROR], 1u);
}

#include "lima_pp.h"

Test(reflection, active_fields_follow_selection_and_presence)
{
   /* TV-PP-2: varying (imm view selected), sampler, vec4_mul */
   static const uint8_t b[] = {0xe6, 0x05, 0x00, 0x00, 0x20, 0x3c, 0x00, 0xf1, 0x00, 0x00, 0x00, 0x00,
                               0x00, 0x10, 0x00, 0x39, 0x4e, 0x0e, 0x00, 0x00, 0xcf, 0x07, 0x00, 0x00};
   struct lima_pp_Instruction in;
   struct isa_error err;
   cr_assert_eq(lima_pp_Instruction_unpack(b, sizeof b, &in, &err), ISA_OK);
   const struct isa_type_desc *t = &lima_pp_Instruction_desc;
   cr_assert(isa_field_active(t, &in, "ctrl.count"));
   cr_assert(isa_field_active(t, &in, "varying.imm.index"), "the selected view");
   cr_assert(!isa_field_active(t, &in, "varying.reg.swizzle"), "a mirror view");
   cr_assert(isa_field_active(t, &in, "sampler.index"));
   cr_assert(!isa_field_active(t, &in, "uniform.index"), "an absent item");
   cr_assert(!isa_field_active(t, &in, "no.such.field"));
   int64_t v;
   cr_assert_eq(isa_field_get(t, &in, "varying.reg.swizzle", &v), ISA_OK, "mirrors can still be read");
}
