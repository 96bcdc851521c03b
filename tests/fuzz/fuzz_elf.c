/*
 * libFuzzer target for isa's ELF input (--section): elf_section over any
 * bytes, with a section name and without.  It must either refuse with a
 * message or narrow the input to bytes inside it; ASan and UBSan (built in)
 * catch any read outside the input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/cli/cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   /* a copy of exactly `size` bytes, so that ASan sees a read past it */
   uint8_t *copy = (uint8_t *)malloc(size ? size : 1);
   static const char *const names[] = {".text", NULL, ""};
   if (!copy)
      abort();
   memcpy(copy, data, size);
   for (unsigned k = 0; k < sizeof names / sizeof names[0]; k++) {
      struct bytes in;
      uint64_t addr = 0;
      char err[300];
      memset(&in, 0, sizeof in);
      in.data = copy;
      in.len = size;
      err[0] = '\0';
      if (elf_section(&in, names[k], &addr, err, sizeof err)) {
         if (in.data < copy || in.len > size || (size_t)(in.data - copy) > size - in.len)
            abort(); /* a section outside the file */
      } else if (!err[0]) {
         abort(); /* a refusal says why */
      }
   }
   free(copy);
   return 0;
}
