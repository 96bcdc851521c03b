#ifndef SPH_BASELINE_H
#define SPH_BASELINE_H
#include "nv_sph.h"
int sph_baseline_unpack(const uint8_t *buf, size_t len, struct nv_sph_Header *h);
void sph_baseline_pack(const struct nv_sph_Header *h, uint8_t *out);
int sph_baseline_pack_checked(const struct nv_sph_Header *h, uint8_t *out);
#endif
