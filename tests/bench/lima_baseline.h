#ifndef LIMA_BASELINE_H
#define LIMA_BASELINE_H
#include "lima_gp.h"
#include "lima_pp.h"
int lima_pp_baseline_decode(const uint8_t *buf, size_t len, struct lima_pp_Instruction *in, size_t *bytes);
int lima_gp_baseline_decode(const uint8_t *buf, size_t len, struct lima_gp_Instruction *g);
#endif
