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

/* Elements of an array <state> without a count kept in the cursor's block:
 * a program that writes no more of them allocates nothing else. */
#define GROWN_INLINE 64

/* What a cursor needs for a program, in one block: the cursor's own
 * c->block when it fits (Midgard, TGSI), else one malloc and one free per
 * program, not one per part (the parts below cost Midgard's printing 12%
 * of its instructions as separate allocations).  Each part's
 * offset in the block; the block starts with the writes, so c->writes is
 * where it starts.  A unit over ISA_CURSOR_UNIT_BYTES that the caller gives
 * none for (a spec that reads no $prev) is not in it: it is allocated only
 * when isa_cursor_next is given no unit, as most callers give one. */
struct block_layout {
   size_t writes, state, state_set, grown, grown_v, grown_set, tail, prev, scratch, size;
   bool big_prev, big_tail; /* units or a tail too big for the cursor's own room */
};

static size_t block_part(size_t *size, size_t bytes)
{
   const size_t align = _Alignof(max_align_t);
   size_t at = (*size + align - 1) / align * align;
   *size = at + bytes;
   return at;
}

/* The block's layout for spec, or size 0 when the cursor needs none */
static void block_layout(const struct isa_spec *spec, struct block_layout *l)
{
   const size_t unit = spec->unit->c_size, big = sizeof(((struct isa_cursor *)0)->units[0]);
   const bool lazy = spec->n_state > LAZY_STATES;
   size_t size = 0;
   /* field by field, not a memset: a rep stos, slow to start, per program */
   l->big_prev = spec->reads_prev && unit > big;
   l->big_tail = spec->pad_end && spec->max_unit_bytes > sizeof(((struct isa_cursor *)0)->tail_bytes);
   if (!spec->step && !spec->n_state && !spec->n_grown && !l->big_prev && !l->big_tail) {
      l->size = 0;
      return;
   }
   l->writes = block_part(&size, (spec->max_state_writes + 1) * sizeof(struct isa_state_write));
   l->state = block_part(&size, spec->n_state * sizeof(int64_t));
   l->state_set = block_part(&size, lazy ? (spec->n_state + 63) / 64 * sizeof(uint64_t) : 0);
   l->grown = block_part(&size, spec->n_grown * sizeof(struct isa_state_array));
   l->grown_v = block_part(&size, spec->n_grown * GROWN_INLINE * sizeof(int64_t));
   l->grown_set = block_part(&size, spec->n_grown * (GROWN_INLINE / 64) * sizeof(uint64_t));
   l->tail = block_part(&size, l->big_tail ? spec->max_unit_bytes : 0);
   l->prev = block_part(&size, l->big_prev ? unit : 0);
   l->scratch = block_part(&size, l->big_prev ? unit : 0);
   l->size = size;
}

int isa_cursor_init(struct isa_cursor *c, const struct isa_spec *spec, const uint8_t *buf, size_t len)
{
   const bool lazy = spec->n_state > LAZY_STATES;
   struct block_layout l;
   char *block;
   /* field by field: a cursor is set up per program, and most specs use
    * none of the allocated parts */
   c->spec = spec;
   c->buf = buf;
   c->len = len;
   c->offset = 0;
   c->index = 0;
   c->done = len == 0;
   c->stopped = false;
   c->have_prev = false;
   c->n_writes = 0;
   c->options = NULL;
   c->plain = !spec->unit_count && !spec->stop && !spec->step && !spec->skip_zero_bits && !spec->resync_bits &&
              !spec->pad_end && !spec->decode_first;
   own_nothing(c);
   if (spec->reads_prev) {
      /* the unit before and the one being decoded, inside the cursor when
       * they fit (never cleared: only the units decoded into them are read) */
      c->prev = c->units[0].bytes;
      c->scratch = c->units[1].bytes;
   }
   block_layout(spec, &l);
   if (!l.size)
      return ISA_OK;
   block = l.size <= sizeof c->block ? (char *)c->block.bytes : (char *)malloc(l.size);
   if (!block) {
      c->done = c->stopped = true;
      return ISA_ERR_LIMIT;
   }
   c->allocated = true; /* the block, and what grows out of it */
   c->writes = (struct isa_state_write *)(void *)(block + l.writes);
   if (l.big_prev) {
      c->prev = block + l.prev;
      c->scratch = block + l.scratch;
   }
   if (l.big_tail)
      c->tail = (uint8_t *)(block + l.tail);
   if (spec->n_state) {
      /* Few states are all set to their init here.  Many are not cleared:
       * scalars are, array elements count as unset (state_set) until a
       * <set> writes them, which saves a large memset per program and
       * costs a bitmap test per read. */
      c->state = (int64_t *)(void *)(block + l.state);
      if (lazy) {
         c->state_set = (uint64_t *)(void *)(block + l.state_set);
         memset(c->state_set, 0, (spec->n_state + 63) / 64 * sizeof *c->state_set);
      }
      for (unsigned d = 0; d < spec->n_state_decls; d++) {
         const struct isa_state_decl *s = &spec->state_decls[d];
         for (unsigned i = 0; i < (lazy && s->count != 1 ? 0 : s->count); i++)
            c->state[s->index + i] = s->init;
         if (lazy && s->count == 1)
            c->state_set[s->index / 64] |= UINT64_C(1) << (s->index % 64);
      }
   }
   if (spec->n_grown) {
      /* the first GROWN_INLINE elements of each in the block, unset; a
       * program pays for more when it writes more */
      c->grown = (struct isa_state_array *)(void *)(block + l.grown);
      for (unsigned j = 0; j < spec->n_grown; j++) {
         c->grown[j].v = (int64_t *)(void *)(block + l.grown_v) + (size_t)j * GROWN_INLINE;
         c->grown[j].set = (uint64_t *)(void *)(block + l.grown_set) + (size_t)j * (GROWN_INLINE / 64);
         c->grown[j].len = GROWN_INLINE;
         memset(c->grown[j].set, 0, GROWN_INLINE / 64 * sizeof *c->grown[j].set);
      }
   }
   return ISA_OK;
}

void isa_cursor_fini(struct isa_cursor *c)
{
   c->done = c->stopped = true;
   if (!c->allocated)
      return;
   for (unsigned j = 0; c->grown && j < c->spec->n_grown; j++) {
      if (c->grown[j].len > GROWN_INLINE) { /* grown out of the block */
         free(c->grown[j].v);
         free(c->grown[j].set);
      }
   }
   if ((void *)c->writes != (void *)c->block.bytes)
      free(c->writes); /* the block on the heap, or NULL */
   if (c->own != c->units[0].bytes)
      free(c->own);
   own_nothing(c);
}

/* Room in array a for element i (below the program's size, which step
 * checked): doubled until it fits, new elements unset; out of the cursor's
 * block the first time (an array holds GROWN_INLINE elements there, more
 * only on the heap).  false when memory runs out (the write is then
 * dropped and the element reads as its init). */
static bool grow(struct isa_state_array *a, uint64_t i)
{
   const bool inline_part = a->len == GROWN_INLINE;
   uint64_t n = a->len;
   int64_t *v;
   uint64_t *set;
   while (n <= i)
      n *= 2;
   if (n == a->len)
      return true;
   if (n > SIZE_MAX / sizeof *v)
      return false;
   v = (int64_t *)(inline_part ? malloc((size_t)n * sizeof *v) : realloc(a->v, (size_t)n * sizeof *v));
   if (!v)
      return false;
   if (inline_part)
      memcpy(v, a->v, (size_t)a->len * sizeof *v);
   set = (uint64_t *)(inline_part ? malloc((size_t)(n / 64) * sizeof *set)
                                  : realloc(a->set, (size_t)(n / 64) * sizeof *set));
   if (!set) {
      if (inline_part)
         free(v);
      else
         a->v = v; /* realloc moved it: keep the new one, a->len still true of both */
      return false;
   }
   if (inline_part)
      memcpy(set, a->set, (size_t)(a->len / 64) * sizeof *set);
   memset(set + a->len / 64, 0, (size_t)((n - a->len) / 64) * sizeof *set);
   a->v = v;
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
      c->own = malloc(spec->unit->c_size); /* freed by isa_cursor_fini */
      c->allocated = c->allocated || c->own;
   }
   return c->own;
}

/* obj, or when the caller gave none the cursor's own storage (then the
 * unit isa_cursor_unit returns); NULL when memory runs out */
static inline void *unit_target(struct isa_cursor *c, void *obj)
{
   if (!obj)
      obj = c->unit = cursor_storage(c);
   return obj;
}

/* No memory for the unit: the cursor is over */
static int out_of_memory(struct isa_cursor *c, struct isa_error *err)
{
   c->done = c->stopped = true;
   return isa_fail(err, ISA_ERR_LIMIT, c->spec->unit->name, 0, "out of memory");
}

/* Every field of isa_ctx for the unit of `bits` bits at byte `offset`, the
 * cursor's index-th, one store each (clearing it first costs a rep stos, a
 * third of the cursor's time on short programs): no states and not last,
 * which the caller sets when they apply. */
static inline void unit_ctx(const struct isa_cursor *c, struct isa_ctx *ctx, size_t offset, uint64_t bits,
                            int failed)
{
   ctx->offset = offset;
   ctx->index = c->index;
   ctx->size = bits;
   ctx->last = 0;
   ctx->prev = c->have_prev ? c->prev : NULL;
   ctx->program_size = c->len;
   ctx->next = NULL;
   ctx->units = NULL;
   ctx->unit_offsets = NULL;
   ctx->n_units = 0;
   ctx->unit_c_size = 0;
   ctx->state = NULL;
   ctx->state_set = NULL;
   ctx->grown = NULL;
   ctx->listing = 0;
   ctx->options = c->options;
   ctx->failed = failed;
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
 * its tests of what such a stream does not have: on Lima PP the cursor's
 * own instructions per unit went from 120 to 80 (make bench:
 * "cursor/unpack", and docs/design.md). */
static int next_plain(struct isa_cursor *c, void *obj, struct isa_ctx *ctx, struct isa_error *err)
{
   const struct isa_spec *spec = c->spec;
   size_t bits = 0, offset = c->offset;
   int r;
   if (c->done) /* set when the input is used up, as well */
      return 0;
   if (!(obj = unit_target(c, obj)))
      return out_of_memory(c, err);
   r = spec->unit->decode(c->buf, c->len, offset * 8, obj, &bits, err);
   if (!r && (bits % 8 || bits == 0))
      r = unit_size_error(spec, bits, err);
   if (r) {
      c->done = c->stopped = true;
      return r;
   }
   unit_ctx(c, ctx, offset, bits, 0);
   c->index++;
   c->offset = offset + bits / 8;
   c->done = c->offset >= c->len;
   ctx->last = c->done;
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
   if (!(obj = unit_target(c, obj)))
      return out_of_memory(c, err);
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
      c->done = c->stopped = true;
      return r;
   }
   unit_ctx(c, ctx, c->offset, (uint64_t)size * 8, failed);
   c->offset += size;
   c->index++;
   if (spec->step) {
      /* what this unit sees: the states after the previous one */
      make_writes(c);
      ctx->state = c->state;
      ctx->state_set = c->state_set;
      ctx->grown = c->grown;
   }
   bool stop = (!failed && spec->stop && spec->stop(obj, ctx)) || (spec->unit_count && c->index >= spec->unit_count);
   if (stop || c->offset >= c->len)
      c->done = true;
   c->stopped = c->stopped || stop;
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

int isa_cursor_more(struct isa_cursor *c, const uint8_t *buf, size_t len)
{
   if (len < c->len)
      return ISA_ERR_ARG;
   c->buf = buf;
   c->len = len;
   if (c->done && !c->stopped && c->offset < len)
      c->done = false;
   return ISA_OK;
}

void isa_cursor_states_after(struct isa_cursor *c, struct isa_ctx *ctx)
{
   if (c->spec->step)
      make_writes(c);
   ctx->state = c->spec->step ? c->state : NULL;
   ctx->state_set = c->spec->step ? c->state_set : NULL;
   ctx->grown = c->spec->step ? c->grown : NULL;
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
   struct isa_cursor walk;
   bool walking = false;
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
   /* (a <derive> may read the <state>s a listing has before the unit: a
    * cursor walks the units linked and written so far, as far as they
    * walk as a program) */
   if (spec->step && isa_cursor_init(&walk, spec, buf, 0) != ISA_OK) {
      r = isa_fail(err, ISA_ERR_LIMIT, spec->unit->name, 0, "out of memory");
      goto out;
   }
   walking = spec->step != NULL;
   for (size_t i = 0; i < n; i++) {
      struct isa_ctx ctx;
      memset(&ctx, 0, sizeof ctx);
      if (walking) {
         struct isa_ctx seen;
         struct isa_error ignored;
         if (isa_cursor_more(&walk, buf, offs[i]) == ISA_OK)
            while (isa_cursor_next(&walk, NULL, &seen, &ignored) > 0)
               continue;
         isa_cursor_states_after(&walk, &ctx);
      }
      ctx.offset = offs[i];
      ctx.index = i;
      ctx.size = (uint64_t)(offs[i + 1] - offs[i]) * 8;
      ctx.last = i + 1 == n;
      ctx.prev = i ? canon + (i - 1) * cs : NULL;
      ctx.next = i + 1 < n ? canon + (i + 1) * cs : NULL;
      ctx.units = canon;
      ctx.unit_offsets = offs;
      ctx.n_units = n;
      ctx.unit_c_size = cs;
      ctx.program_size = pos;
      r = spec->link(canon + i * cs, &ctx, err);
      if (r)
         goto out;
      r = spec->unit->encode(canon + i * cs, buf, cap, offs[i] * 8, &bits, err);
      if (!r && bits != (offs[i + 1] - offs[i]) * 8)
         r = isa_fail(err, ISA_ERR_INCONSISTENT, spec->unit->name, 0,
                      "a field the stream derives changed the size of a unit");
      if (r)
         goto out;
   }
done:
   *size = pos;
   r = isa_end_program(spec, NULL, buf, cap, size, err);
out:
   if (walking)
      isa_cursor_fini(&walk);
   free(canon);
   free(offs);
   return r;
}

/* Whether the last unit of the program buf[0..size) stops it: walked as a
 * listing walks it, the stop rule holds for the unit that ends at size. */
static bool stops_at_end(const struct isa_spec *spec, const int64_t *options, const uint8_t *buf, size_t size)
{
   struct isa_cursor c;
   struct isa_ctx ctx;
   struct isa_error err;
   bool stopped = false;
   int r = isa_cursor_init(&c, spec, buf, size);
   if (r == ISA_OK) {
      c.options = options;
      while ((r = isa_cursor_next(&c, NULL, &ctx, &err)) > 0)
         stopped = c.stopped && c.offset == size;
   }
   isa_cursor_fini(&c);
   return r == 0 && stopped;
}

int isa_end_program(const struct isa_spec *spec, const int64_t *options, uint8_t *buf, size_t cap, size_t *size,
                    struct isa_error *err)
{
   size_t n = spec->after_stop_len;
   if (!n || *size == 0 || !stops_at_end(spec, options, buf, *size))
      return ISA_OK;
   if (cap - *size < n || *size > cap)
      return isa_fail(err, ISA_ERR_NOSPACE, spec->unit->name, 0, "the output buffer is too small");
   memcpy(buf + *size, spec->after_stop, n);
   *size += n;
   return ISA_OK;
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
