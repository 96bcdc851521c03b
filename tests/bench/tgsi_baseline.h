#ifndef TGSI_BASELINE_H
#define TGSI_BASELINE_H
#include "tgsi.h"
/* Decode the unit at byte `offset` of a TGSI program buf[0..len): the
 * Header when `first`, else what the low 4 bits of its first token say.
 * Returns 0 with *bytes = the unit's size, or -1. */
int tgsi_baseline_decode_item(const uint8_t *buf, size_t len, size_t offset, int first, struct tgsi_Item *item,
                              size_t *bytes);
#endif
