/* Programs: decoding units one after the other as a spec's <stream> says. */
#include <stdlib.h>
#include <string.h>

#include "isagen/isagen.h"

static int unit_size_error(const struct isa_spec *spec, size_t bits, struct isa_error *err)
{
   isa_fail(err, ISA_ERR_SIZE, spec->unit->name, 0, "a unit must be a whole number of bytes");
   if (err)
      err->value = (int64_t)bits;
   return ISA_ERR_SIZE;
}

/* Decode the unit at byte `offset` of buf[0..len); the unit at offset 0
 * is a program's first (a first="true" alternative, if the spec has one). */
static inline int decode_at(const struct isa_spec *spec, const uint8_t *buf, size_t len, size_t offset,
                            int first, void *obj, size_t *size, struct isa_error *err)
{
   size_t bits = 0;
   int r;
   if (offset > len)
      return isa_fail(err, ISA_ERR_ARG, spec->unit->name, 0, "offset past the end of the input");
   if (first && spec->decode_first)
      r = spec->decode_first(buf, len, offset * 8, obj, &bits, err);
   else
      r = spec->unit->decode(buf, len, offset * 8, obj, &bits, err);
   if (r)
      return r;
   if (bits % 8 || bits == 0)
      return unit_size_error(spec, bits, err);
   *size = bits / 8;
   return ISA_OK;
}

int isa_decode_unit(const struct isa_spec *spec, const uint8_t *buf, size_t len, size_t offset,
                    void *obj, size_t *size, struct isa_error *err)
{
   return decode_at(spec, buf, len, offset, offset == 0, obj, size, err);
}

/* More states than this are not cleared per program (isa_cursor_init). */
#define LAZY_STATES 256

/* A cursor that owns no storage: what isa_cursor_init starts from and
 * isa_cursor_fini leaves. */
static void own_nothing(struct isa_cursor *c)
{
   c->allocated = false;
   c->prev = c->scratch = NULL;
   c->unit = c->own = NULL;
   c->state = NULL;
   c->state_set = NULL;
   c->writes = NULL;
   c->grown = NULL;
   c->tail = NULL;
}

int isa_cursor_init(struct isa_cursor *c, const struct isa_spec *spec, const uint8_t *buf, size_t len)
{
   bool lazy = spec->n_state > LAZY_STATES, failed = false;
   /* field by field: a cursor is set up per program, and most specs use
    * none of the allocated parts */
   c->spec = spec;
   c->buf = buf;
   c->len = len;
   c->offset = 0;
   c->index = 0;
   c->done = len == 0;
   c->have_prev = false;
   c->n_writes = 0;
   c->options = NULL;
   c->plain = !spec->unit_count && !spec->stop && !spec->step && !spec->skip_zero_bits && !spec->resync_bits &&
              !spec->pad_end && !spec->decode_first;
   own_nothing(c);
   if (spec->reads_prev && spec->unit->c_size <= sizeof c->units[0]) {
      /* the unit before and the one being decoded, inside the cursor */
      c->prev = c->units[0].bytes;
      c->scratch = c->units[1].bytes;
   } else if (spec->reads_prev) {
      c->allocated = true;
      c->prev = calloc(1, spec->unit->c_size);
      c->scratch = calloc(1, spec->unit->c_size);
      failed = !c->prev || !c->scratch;
   }
   if (spec->step) {
      c->allocated = true;
      c->writes = (struct isa_state_write *)calloc(spec->max_state_writes + 1, sizeof *c->writes);
      failed = failed || !c->writes;
   }
   if (spec->n_state) {
      /* Few states are all set to their init here.  Many are not cleared:
       * scalars are, array elements count as unset (state_set) until a
       * <set> writes them, which saves a large memset per program and
       * costs a bitmap test per read. */
      c->allocated = true;
      c->state = (int64_t *)malloc(spec->n_state * sizeof *c->state);
      c->state_set = lazy ? (uint64_t *)calloc((spec->n_state + 63) / 64, sizeof *c->state_set) : NULL;
      failed = failed || !c->state || (lazy && !c->state_set);
      for (unsigned d = 0; !failed && d < spec->n_state_decls; d++) {
         const struct isa_state_decl *s = &spec->state_decls[d];
         for (unsigned i = 0; i < (lazy && s->count != 1 ? 0 : s->count); i++)
            c->state[s->index + i] = s->init;
         if (lazy && s->count == 1)
            c->state_set[s->index / 64] |= UINT64_C(1) << (s->index % 64);
      }
   }
   if (spec->n_grown) {
      /* empty until written: a program pays for the elements it uses */
      c->allocated = true;
      c->grown = (struct isa_state_array *)calloc(spec->n_grown, sizeof *c->grown);
      failed = failed || !c->grown;
   }
   if (spec->pad_end) { /* the last unit's bytes, zero-padded: short units fit in the cursor */
      if (spec->max_unit_bytes > sizeof c->tail_bytes) {
         c->allocated = true;
         c->tail = (uint8_t *)calloc(1, spec->max_unit_bytes);
         failed = failed || !c->tail;
      }
   }
   if (failed) {
      isa_cursor_fini(c);
      return ISA_ERR_LIMIT;
   }
   return ISA_OK;
}

void isa_cursor_fini(struct isa_cursor *c)
{
   c->done = true;
   if (!c->allocated)
      return;
   for (unsigned j = 0; c->grown && j < c->spec->n_grown; j++) {
      free(c->grown[j].v);
      free(c->grown[j].set);
   }
   free(c->grown);
   if (c->spec->unit->c_size > sizeof c->units[0]) {
      free(c->prev);
      free(c->scratch);
   }
   free(c->state);
   free(c->state_set);
   free(c->writes);
   free(c->tail);
   if (c->own != c->units[0].bytes)
      free(c->own);
   own_nothing(c);
}

/* Room in array a for element i (below the program's size, which step
 * checked): doubled until it fits, new elements unset.  false when memory
 * runs out (the write is then dropped and the element reads as its init). */
static bool grow(struct isa_state_array *a, uint64_t i)
{
   uint64_t n = a->len ? a->len : 64;
   int64_t *v;
   uint64_t *set;
   while (n <= i)
      n *= 2;
   if (n == a->len)
      return true;
   if (n > SIZE_MAX / sizeof *v)
      return false;
   v = (int64_t *)realloc(a->v, (size_t)n * sizeof *v);
   if (!v)
      return false;
   a->v = v;
   set = (uint64_t *)realloc(a->set, (size_t)(n / 64) * sizeof *set);
   if (!set)
      return false;
   memset(set + a->len / 64, 0, (size_t)((n - a->len) / 64) * sizeof *set);
   a->set = set;
   a->len = n;
   return true;
}

/* The writes of the previous unit's step, in order (later ones win). */
static void make_writes(struct isa_cursor *c)
{
   if (!c->state_set && !c->grown) {
      /* the usual case (TGSI's six writes per token): no bitmap of set
       * elements, and no growing arrays for a write to name */
      for (unsigned k = 0; k < c->n_writes; k++)
         c->state[c->writes[k].index] = c->writes[k].value;
      c->n_writes = 0;
      return;
   }
   for (unsigned k = 0; k < c->n_writes; k++) {
      const struct isa_state_write *w = &c->writes[k];
      if (w->array == 0) {
         c->state[w->index] = w->value;
         if (c->state_set)
            c->state_set[w->index / 64] |= UINT64_C(1) << (w->index % 64);
      } else {
         struct isa_state_array *a = &c->grown[w->array - 1];
         if (w->index < a->len || grow(a, w->index)) {
            a->v[w->index] = w->value;
            a->set[w->index / 64] |= UINT64_C(1) << (w->index % 64);
         }
      }
   }
   c->n_writes = 0;
}

/* The bits at byte `at` read as one little-endian number of `bits` bits
 * (bits past the end read as zero): are they all zero? */
static bool zero_bits(const uint8_t *buf, size_t len, size_t at, unsigned bits)
{
   for (size_t i = 0; i < bits / 8; i++)
      if (at + i < len && buf[at + i])
         return false;
   return true;
}

/* The storage a unit decodes into when the caller gives none, or NULL
 * when memory runs out. */
static inline void *cursor_storage(struct isa_cursor *c)
{
   const struct isa_spec *spec = c->spec;
   if (spec->reads_prev)
      return c->scratch; /* the next unit's $prev is then this one, as is */
   if (!c->own && spec->unit->c_size <= sizeof c->units[0]) {
      c->own = c->units[0].bytes;
   } else if (!c->own) {
      c->allocated = true;
      c->own = malloc(spec->unit->c_size);
   }
   return c->own;
}

/* After a unit that decoded: the next unit's $prev is this one, the
 * cursor's own, or else a copy, since the caller may reuse obj (the last
 * unit of a program has no successor and is not copied).  The one
 * ctx->prev points to stays valid until the next call. */
static void keep_prev(struct isa_cursor *c, const void *obj)
{
   void *t = c->scratch;
   if (obj != t)
      memcpy(t, obj, c->spec->unit->c_size);
   c->scratch = c->prev;
   c->prev = t;
   c->have_prev = true;
}

/* isa_cursor_next for a plain stream (c->plain): the general path less
 * its tests of what such a stream does not have.  It is a fifth of the
 * cursor's cost per unit on Lima PP (make bench: "cursor/unpack"). */
static int next_plain(struct isa_cursor *c, void *obj, struct isa_ctx *ctx, struct isa_error *err)
{
   const struct isa_spec *spec = c->spec;
   size_t bits = 0, offset = c->offset;
   int r;
   if (c->done) /* set when the input is used up, as well */
      return 0;
   if (!obj) {
      obj = cursor_storage(c);
      if (!obj) {
         c->done = true;
         return isa_fail(err, ISA_ERR_LIMIT, spec->unit->name, 0, "out of memory");
      }
      c->unit = obj;
   }
   r = spec->unit->decode(c->buf, c->len, offset * 8, obj, &bits, err);
   if (!r && (bits % 8 || bits == 0))
      r = unit_size_error(spec, bits, err);
   if (r) {
      c->done = true;
      return r;
   }
   c->offset = offset + bits / 8;
   c->done = c->offset >= c->len;
   ctx->offset = offset;
   ctx->index = c->index++;
   ctx->size = bits;
   ctx->last = c->done;
   ctx->prev = c->have_prev ? c->prev : NULL;
   ctx->program_size = c->len;
   ctx->next = NULL;
   ctx->state = NULL;
   ctx->state_set = NULL;
   ctx->grown = NULL;
   ctx->listing = 0;
   ctx->options = c->options;
   ctx->failed = 0;
   if (spec->reads_prev && (obj == c->scratch || !c->done))
      keep_prev(c, obj);
   return 1;
}

/* isa_cursor_next for every other stream; out of line, so that the plain
 * path does not pay for its registers */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int next_general(struct isa_cursor *c, void *obj, struct isa_ctx *ctx, struct isa_error *err)
{
   const struct isa_spec *spec = c->spec;
   size_t size = 0;
   int r, failed = 0;
   if (c->done || c->offset >= c->len || (spec->unit_count && c->index >= spec->unit_count))
      return 0;
   if (spec->skip_zero_bits && zero_bits(c->buf, c->len, c->offset, spec->skip_zero_bits)) {
      /* padding: skip zero words; if nothing follows, the program is over */
      while (c->offset < c->len && zero_bits(c->buf, c->len, c->offset, spec->skip_unit_bits))
         c->offset += spec->skip_unit_bits / 8;
      if (c->offset >= c->len) {
         c->done = true;
         return 0;
      }
   }
   if (!obj) {
      obj = cursor_storage(c);
      if (!obj) {
         c->done = true;
         return isa_fail(err, ISA_ERR_LIMIT, spec->unit->name, 0, "out of memory");
      }
      c->unit = obj;
   }
   if (spec->pad_end && c->len - c->offset < spec->max_unit_bytes) {
      /* the end of the input, zero-padded: the last unit may run past it */
      uint8_t *tail = c->tail ? c->tail : c->tail_bytes;
      memset(tail, 0, spec->max_unit_bytes);
      memcpy(tail, c->buf + c->offset, c->len - c->offset);
      r = decode_at(spec, tail, spec->max_unit_bytes, 0, c->offset == 0, obj, &size, err);
   } else {
      r = decode_at(spec, c->buf, c->len, c->offset, c->offset == 0, obj, &size, err);
   }
   if (r == ISA_ERR_NO_MATCH && spec->resync_bits) {
      /* nothing decodes here: report the place and go on past it */
      memset(obj, 0, spec->unit->c_size);
      size = spec->resync_bits / 8;
      failed = 1;
   } else if (r) {
      c->done = true;
      return r;
   }
   /* every field of isa_ctx, one store each (clearing it first costs a
    * rep stos, a third of the cursor's time on short programs) */
   ctx->offset = c->offset;
   ctx->index = c->index;
   ctx->size = (uint64_t)size * 8;
   ctx->last = 0;
   ctx->prev = c->have_prev ? c->prev : NULL;
   ctx->program_size = c->len;
   ctx->next = NULL;
   ctx->state = NULL;
   ctx->state_set = NULL;
   ctx->grown = NULL;
   ctx->listing = 0;
   ctx->options = c->options;
   ctx->failed = failed;
   c->offset += size;
   c->index++;
   if (spec->step) {
      /* what this unit sees: the states after the previous one */
      make_writes(c);
      ctx->state = c->state;
      ctx->state_set = c->state_set;
      ctx->grown = c->grown;
   }
   if ((!failed && spec->stop && spec->stop(obj, ctx)) || c->offset >= c->len ||
       (spec->unit_count && c->index >= spec->unit_count))
      c->done = true;
   ctx->last = c->done;
   if (spec->step && !failed)
      c->n_writes = spec->step(obj, ctx, c->writes); /* this unit's own step */
   if (spec->reads_prev && !failed && (obj == c->scratch || !c->done))
      keep_prev(c, obj);
   return 1;
}

int isa_cursor_next(struct isa_cursor *c, void *obj, struct isa_ctx *ctx, struct isa_error *err)
{
   return c->plain ? next_plain(c, obj, ctx, err) : next_general(c, obj, ctx, err);
}

/* Encoding runs twice: the first pass encodes each unit as given and decodes
 * it back, which gives its canonical form (derived sizes, presence bits) and
 * its offset; the second lets the spec's link function set the fields that
 * depend on the neighbours, in those canonical forms, and writes the final
 * bytes at the same offsets. */
int isa_encode_program(const struct isa_spec *spec, const void *units, size_t n, uint8_t *buf, size_t cap,
                       size_t *size, struct isa_error *err)
{
   const size_t cs = spec->unit->c_size;
   const unsigned char *in = (const unsigned char *)units;
   unsigned char *canon = NULL;
   size_t *offs = NULL, pos = 0, bits;
   int r = ISA_OK;
   *size = 0;
   if (spec->unit_count && n != spec->unit_count)
      return isa_fail(err, ISA_ERR_ARG, spec->unit->name, 0, "wrong number of units for this spec's programs");
   canon = (unsigned char *)calloc(n ? n : 1, cs);
   offs = (size_t *)calloc(n + 1, sizeof *offs);
   if (!canon || !offs) {
      r = isa_fail(err, ISA_ERR_LIMIT, spec->unit->name, 0, "out of memory");
      goto out;
   }
   for (size_t i = 0; i < n; i++) {
      size_t back = 0;
      offs[i] = pos;
      r = spec->unit->encode(in + i * cs, buf, cap, pos * 8, &bits, err);
      if (!r && (bits % 8 || bits == 0))
         r = isa_fail(err, ISA_ERR_SIZE, spec->unit->name, 0, "a unit must be a whole number of bytes");
      if (!r)
         r = (i == 0 && spec->decode_first ? spec->decode_first : spec->unit->decode)(
            buf, pos + bits / 8, pos * 8, canon + i * cs, &back, err);
      if (r)
         goto out;
      pos += bits / 8;
   }
   offs[n] = pos;
   if (!spec->link)
      goto done;
   for (size_t i = 0; i < n; i++) {
      struct isa_ctx ctx;
      memset(&ctx, 0, sizeof ctx);
      ctx.offset = offs[i];
      ctx.index = i;
      ctx.size = (uint64_t)(offs[i + 1] - offs[i]) * 8;
      ctx.last = i + 1 == n;
      ctx.prev = i ? canon + (i - 1) * cs : NULL;
      ctx.next = i + 1 < n ? canon + (i + 1) * cs : NULL;
      ctx.program_size = pos;
      r = spec->link(canon + i * cs, &ctx, err);
      if (r)
         goto out;
   }
   for (size_t i = 0; i < n; i++) {
      r = spec->unit->encode(canon + i * cs, buf, cap, offs[i] * 8, &bits, err);
      if (!r && bits != (offs[i + 1] - offs[i]) * 8)
         r = isa_fail(err, ISA_ERR_INCONSISTENT, spec->unit->name, 0,
                      "a field the stream derives changed the size of a unit");
      if (r)
         goto out;
   }
done:
   *size = pos;
out:
   free(canon);
   free(offs);
   return r;
}

/* ---- containers ------------------------------------------------------------ */

static uint32_t le32(const uint8_t *p)
{
   return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int isa_container_payload(const struct isa_container *c, const uint8_t *buf, size_t len, size_t *offset,
                          size_t *size, struct isa_error *err)
{
   size_t pos, end;
   if (len < 4 || memcmp(buf, c->magic, 4) != 0)
      return ISA_ERR_NO_MATCH;
   if (len < 8) /* the magic, cut before its size */
      return isa_fail_truncated(err, c->name, 0, 64, (uint64_t)len * 8);
   end = 8 + (size_t)le32(buf + 4);
   if (end > len)
      return isa_fail_truncated(err, c->name, 32, (uint64_t)end * 8, (uint64_t)len * 8);
   pos = 8;
   for (unsigned i = 0; i < c->n_steps; i++) {
      const struct isa_chunk_step *step = &c->steps[i];
      size_t p = pos + step->skip;
      bool found = false;
      while (p + 8 <= end) {
         size_t sz = le32(buf + p + 4);
         if (sz > end - p - 8) {
            isa_fail(err, ISA_ERR_SIZE, c->name, step->id, "a chunk runs past its parent");
            if (err)
               err->bit = (uint64_t)p * 8;
            return ISA_ERR_SIZE;
         }
         if (memcmp(buf + p, step->id, 4) == 0) {
            pos = p + 8;
            end = pos + sz;
            found = true;
            break;
         }
         p += 8 + sz;
      }
      if (!found)
         return isa_fail(err, ISA_ERR_INCONSISTENT, c->name, step->id, "the container has no such chunk");
   }
   *offset = pos;
   *size = end - pos;
   return ISA_OK;
}
