/* Small helpers shared by the Criterion tests. */
#ifndef TEST_HELPERS_H
#define TEST_HELPERS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isagen/isagen.h"

/* Spec options given as "gpu=t760,..." (a corpus entry's) into options[],
 * as isa dis --gpu t760 sets them; 0 when one is not NAME=VALUE of the
 * spec. */
static inline int options_from(const struct isa_spec *spec, const char *text, int64_t *options)
{
   char buf[128], *save = NULL;
   isa_options_init(spec, options);
   snprintf(buf, sizeof buf, "%s", text);
   for (char *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
      char *eq = strchr(kv, '=');
      if (!eq)
         return 0;
      *eq = '\0';
      if (isa_option_set(spec, options, kv, eq + 1) != ISA_OK)
         return 0;
   }
   return 1;
}

/* Hex text to bytes; returns the byte count. */
static inline size_t hex_bytes(const char *hex, uint8_t *out, size_t cap)
{
   size_t n = 0;
   while (hex[0] && hex[1] && n < cap) {
      unsigned v;
      char pair[3] = {hex[0], hex[1], 0};
      v = (unsigned)strtoul(pair, NULL, 16);
      out[n++] = (uint8_t)v;
      hex += 2;
   }
   cr_assert(!hex[0], "hex of more than %zu bytes: make the test's buffer larger", cap);
   return n;
}

/* A hex number (most significant digit first) as n little-endian bytes;
 * returns the bytes it needs, so a result above n means it does not fit. */
static inline size_t hex_value_bytes(const char *hex, uint8_t *out, size_t n)
{
   size_t len = strlen(hex), need = 0;
   memset(out, 0, n);
   for (size_t k = 0; k < len; k++) {
      char c = hex[len - 1 - k];
      unsigned d = (unsigned)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
      if (d && k / 2 >= n)
         return k / 2 + 1;
      if (d) {
         out[k / 2] |= (uint8_t)(d << (4 * (k % 2)));
         need = k / 2 + 1;
      }
   }
   return need;
}

/* A tiny deterministic PRNG (xorshift64*), so failures reproduce. */
static inline uint64_t rng_next(uint64_t *s)
{
   uint64_t x = *s;
   x ^= x >> 12;
   x ^= x << 25;
   x ^= x >> 27;
   *s = x;
   return x * UINT64_C(2685821657736338717);
}

/* Collects the leaf fields of a decoded unit. */
struct field_list {
   unsigned n;
   char names[2048][96];
   int64_t values[2048];
};

static inline void collect_field(void *user, const char *path, const struct isa_field_desc *fd, int64_t v)
{
   struct field_list *l = (struct field_list *)user;
   (void)fd;
   if (l->n < 2048) {
      strncpy(l->names[l->n], path, sizeof l->names[0] - 1);
      l->names[l->n][sizeof l->names[0] - 1] = '\0';
      l->values[l->n] = v;
      l->n++;
   }
}

static inline int field_list_find(const struct field_list *l, const char *name, int64_t *v)
{
   for (unsigned i = 0; i < l->n; i++)
      if (!strcmp(l->names[i], name)) {
         *v = l->values[i];
         return 1;
      }
   return 0;
}

/* Print a program as `isa dis` does (no --offsets unless asked), with the
 * spec's <option>s as given (NULL: their defaults); *end (if asked) gets
 * where the last unit ends. */
static inline int dis_spec(const struct isa_spec *spec, const int64_t *options, const uint8_t *b, size_t n,
                           int offsets, char *out, size_t cap, size_t *end)
{
   void *obj = calloc(1, spec->unit->c_size);
   struct isa_cursor cur;
   struct isa_ctx ctx;
   struct isa_error err;
   struct isa_out o;
   int r;
   isa_out_buffer(&o, out, cap);
   if (!obj || isa_cursor_init(&cur, spec, b, n) != ISA_OK) {
      free(obj);
      return ISA_ERR_LIMIT;
   }
   cur.options = options;
   if (end)
      *end = 0;
   while ((r = isa_cursor_next(&cur, obj, &ctx, &err)) > 0) {
      if (end)
         *end = ctx.offset + (ctx.size + 7) / 8;
      ctx.listing = offsets;
      if (offsets && spec->prefix)
         spec->prefix(&o, &ctx);
      if (ctx.failed)
         isa_out_str(&o, spec->failed_text);
      else
         spec->unit->print(obj, &o, &ctx);
      isa_out_str(&o, spec->separator);
   }
   isa_out_flush(&o);
   isa_cursor_fini(&cur);
   free(obj);
   return r;
}

/* The same for a spec compiled into the runtime, by name. */
static inline int dis(const char *spec_name, const uint8_t *b, size_t n, int offsets, char *out, size_t cap)
{
   return dis_spec(isa_spec_find(spec_name), NULL, b, n, offsets, out, cap, NULL);
}

struct finds {
   char text[4096];
   unsigned n, errors;
};

static inline void collect(void *user, const struct isa_finding *f)
{
   struct finds *s = (struct finds *)user;
   size_t len = strlen(s->text);
   snprintf(s->text + len, sizeof s->text - len, "%s %s %s: %s\n", isa_severity_name(f->severity), f->rule,
            f->field, f->message);
   s->n++;
   s->errors += f->severity == ISA_SEV_ERROR;
}

/* Validate a program as `isa check` does, with the spec's <option>s as
 * given (NULL: their defaults); *status (if asked) gets the cursor's last
 * return value. */
static inline struct finds check_spec(const struct isa_spec *spec, const int64_t *options, const uint8_t *b, size_t n,
                                      int *status)
{
   void *obj = calloc(1, spec->unit->c_size);
   struct finds s;
   struct isa_findings f;
   struct isa_cursor cur;
   struct isa_ctx ctx;
   struct isa_error err;
   int r = ISA_ERR_LIMIT;
   memset(&s, 0, sizeof s);
   memset(&f, 0, sizeof f);
   f.emit = collect;
   f.user = &s;
   if (obj && isa_cursor_init(&cur, spec, b, n) == ISA_OK) {
      cur.options = options;
      while ((r = isa_cursor_next(&cur, obj, &ctx, &err)) > 0)
         if (!ctx.failed)
            spec->unit->validate(obj, &f, &ctx, NULL);
      isa_cursor_fini(&cur);
   }
   free(obj);
   if (status)
      *status = r;
   return s;
}

/* The same for a spec compiled into the runtime, by name. */
static inline struct finds check(const char *spec_name, const uint8_t *b, size_t n)
{
   return check_spec(isa_spec_find(spec_name), NULL, b, n, NULL);
}

#endif
