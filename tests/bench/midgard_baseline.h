#ifndef MIDGARD_BASELINE_H
#define MIDGARD_BASELINE_H
#include "midgard.h"
/* Decode the bundle at byte `offset` of a Midgard program buf[0..len) into b
 * (zeroed first).  Returns 0 with *bytes = the bundle's size, or -1. */
int midgard_baseline_decode_bundle(const uint8_t *buf, size_t len, size_t offset, struct midgard_Bundle *b,
                                   size_t *bytes);
#endif
