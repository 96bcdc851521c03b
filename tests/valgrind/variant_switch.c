/* Switching an unpacked struct to another variant, run under valgrind by
 * `make check` (test-valgrind): the struct starts uninitialised, as a
 * caller's local does, is unpacked as Mesa's vertex header K1 (the VTG
 * view), then switched to the pixel view with S_set_variant, given one
 * field and packed.  Setting h.variant alone would leave most of the PS
 * view uninitialised (it is larger than VTG's) and pack would read it:
 * valgrind reports that (build with -DTRAP to see it).  The bytes expected
 * are K1's with SphType 2 (PS) in bits 0..4 and OmapDepth, bit 609, set
 * (nv-sph.xml; fact sheet). */
#include <stdio.h>
#include <string.h>

#include "nv_sph.h"

int main(void)
{
   uint8_t k1[80] = {0x61, 0x04, 0x02, 0x00}, want[80], out[80];
   struct nv_sph_Header h; /* not cleared on purpose */
   struct isa_error err;
   size_t size = 0;
   int r;
   k1[17] = 0xf0;
   k1[18] = 0x0f;
   memcpy(want, k1, sizeof want);
   want[0] = (uint8_t)((k1[0] & ~0x1fu) | 2u);
   want[609 / 8] |= (uint8_t)(1u << (609 % 8));
   if (nv_sph_Header_unpack(k1, sizeof k1, &h, &err) != ISA_OK || h.variant != NV_SPH_HEADER_VTG) {
      fprintf(stderr, "variant_switch: K1 does not unpack as a VTG header\n");
      return 1;
   }
#ifdef TRAP
   h.variant = NV_SPH_HEADER_PS;
#else
   nv_sph_Header_set_variant(&h, NV_SPH_HEADER_PS);
#endif
   h.CommonWord0.SphType = NV_SPH_SPH_TYPE_PS;
   h.u.PS.OmapDepth = true;
   r = nv_sph_Header_pack_checked(&h, out, sizeof out, &size, &err);
   if (r != ISA_OK || size != sizeof out || memcmp(out, want, sizeof out) != 0) {
      fprintf(stderr, "variant_switch: pack gave status %d, %zu bytes, %s\n", r, size,
              r == ISA_OK && size == sizeof out ? "other bytes than expected" : "no header");
      return 1;
   }
   printf("variant_switch: the PS view packs to K1 with SphType PS and OmapDepth\n");
   return 0;
}
