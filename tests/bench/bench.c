/*
 * make bench: time generated code against hand-written baselines.
 *
 * Each case runs its generated function and its baseline alternately in
 * the same process, several rounds, and reports the median ns per item of
 * each and their ratio (generated / baseline; 1.00 means as fast as the
 * hand-written code, lower is faster).  Both sides are checked to compute
 * the same results before anything is timed.
 *
 *   bench [--quick] [NAME-SUBSTRING]
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

static int hexval(int c)
{
   return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

unsigned bench_load_corpus(const char *path, const char *kind, uint8_t *bytes, size_t cap, size_t *start,
                           unsigned max)
{
   static char line[1 << 16];
   unsigned n = 0;
   size_t k = 0;
   FILE *fp = fopen(path, "r");
   if (!fp) {
      fprintf(stderr, "bench: cannot open %s (run from the source tree)\n", path);
      exit(1);
   }
   while (n < max && fgets(line, sizeof line, fp)) {
      const char *h = strstr(line, "\"hex\": \"");
      if (!h || (kind && !strstr(line, kind)))
         continue;
      start[n] = k;
      for (h += 8; hexval(h[0]) >= 0 && hexval(h[1]) >= 0; h += 2) {
         if (k == cap) {
            fprintf(stderr, "bench: %s holds more than %zu bytes\n", path, cap);
            exit(1);
         }
         bytes[k++] = (uint8_t)(hexval(h[0]) << 4 | hexval(h[1]));
      }
      start[++n] = k;
   }
   fclose(fp);
   return n;
}

static double now_ns(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* ns per item of one call of fn, measured over at least `min_ns` (not
 * inlined: `valgrind --tool=callgrind --toggle-collect=measure` counts the
 * instructions of the cases alone, see --once) */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static double measure(void (*fn)(void *), void *state, size_t items, double min_ns)
{
   double start = now_ns(), elapsed;
   unsigned long runs = 0;
   do {
      fn(state);
      runs++;
      elapsed = now_ns() - start;
   } while (elapsed < min_ns);
   return elapsed / ((double)runs * (double)items);
}

static int cmp_double(const void *a, const void *b)
{
   double x = *(const double *)a, y = *(const double *)b;
   return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
   struct bench_case cases[64];
   size_t n = 0;
   int quick = 0, once = 0;
   const char *filter = NULL;
   for (int i = 1; i < argc; i++) {
      if (!strcmp(argv[i], "--quick"))
         quick = 1;
      else if (!strcmp(argv[i], "--once")) /* each case called once, unwarmed: for callgrind's counts */
         once = 1;
      else
         filter = argv[i];
   }
   sph_bench_setup();
   n += sph_bench_cases(cases + n, 64 - n);
   lima_bench_setup();
   n += lima_bench_cases(cases + n, 64 - n);
   tgsi_bench_setup();
   n += tgsi_bench_cases(cases + n, 64 - n);
   agx_bench_setup();
   n += agx_bench_cases(cases + n, 64 - n);
   midgard_bench_setup();
   n += midgard_bench_cases(cases + n, 64 - n);
   programs_bench_setup();
   n += programs_bench_cases(cases + n, 64 - n);
   asm_bench_setup();
   n += asm_bench_cases(cases + n, 64 - n);

   unsigned rounds = once ? 1 : quick ? 3 : 7;
   double min_ns = once ? 0 : quick ? 2e7 : 1e8;
   int assembled = 0;
   printf("%-26s %-10s %12s %12s %7s\n", "case", "ns per", "generated", "baseline", "ratio");
   for (size_t c = 0; c < n; c++) {
      double g[16], b[16];
      if (filter && !strstr(cases[c].name, filter))
         continue;
      if (!once) { /* warm up */
         cases[c].generated(cases[c].state);
         if (cases[c].baseline)
            cases[c].baseline(cases[c].state);
      }
      for (unsigned r = 0; r < rounds; r++) {
         g[r] = measure(cases[c].generated, cases[c].state, cases[c].items, min_ns);
         b[r] = cases[c].baseline ? measure(cases[c].baseline, cases[c].state, cases[c].items, min_ns) : 0;
      }
      qsort(g, rounds, sizeof g[0], cmp_double);
      qsort(b, rounds, sizeof b[0], cmp_double);
      double gm = g[rounds / 2], bm = b[rounds / 2];
      assembled |= strstr(cases[c].name, " assemble") != NULL;
      if (cases[c].baseline)
         printf("%-26s %-10s %12.1f %12.1f %7.2f\n", cases[c].name, cases[c].unit, gm, bm, gm / bm);
      else
         printf("%-26s %-10s %12.1f %12s %7s\n", cases[c].name, cases[c].unit, gm, "-", "-");
   }
   printf("(median of %u rounds; ratio = generated / baseline, in one process)\n", rounds);
   if (assembled) {
      printf("(SPEC assemble: generated = the assembler on the corpus texts, baseline = decode+print of the same\n"
             " units; the aim is a ratio of at most 3)\n");
      asm_bench_report(filter);
   }
   return 0;
}
