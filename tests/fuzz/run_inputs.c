/*
 * A driver for a libFuzzer target without libFuzzer: feeds it N random
 * inputs (0 to 300 bytes, from a fixed seed) and returns 0 if it came
 * through, so that a target built with gcc's sanitizers runs in `make check`
 * (tests/fuzz/spec_fuzz.py runs the spec harness this way on the C of
 * every mutated spec that lints clean).
 *
 *    run_inputs N SEED
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
   static uint8_t buf[300];
   unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000;
   uint64_t x = argc > 2 ? strtoull(argv[2], NULL, 10) * 2654435761u + 1 : 88172645463325252ull;
   for (unsigned long i = 0; i < n; i++) {
      size_t len;
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      len = (size_t)(x % (sizeof buf + 1));
      for (size_t k = 0; k < len; k++) {
         x ^= x << 13, x ^= x >> 7, x ^= x << 17;
         /* mostly small values and runs of zeros: shapes decoders branch on */
         buf[k] = (uint8_t)(x % 4 == 0 ? 0 : x >> 24);
      }
      LLVMFuzzerTestOneInput(buf, len);
   }
   printf("%lu inputs\n", n);
   return 0;
}
