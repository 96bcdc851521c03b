/*
 * isagen runtime: what generated printers, validators and tables use, and
 * what programs (the isa CLI, drivers, emulators) call.
 *
 * Nothing here knows any instruction set: each spec's generated C source
 * defines a `struct isa_spec` whose tables describe its types, and generic
 * code (reflection, the field dump, JSON output) walks those tables.
 * There is no global mutable state; every function works on what it is
 * given, so any number of specs link into one program.
 */
#ifndef ISAGEN_H
#define ISAGEN_H

#include <stdio.h>
#include <string.h>

#include "core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the library linked in: ISAGEN_VERSION as it was built,
 * for a program to compare with the header it was compiled against. */
const char *isa_version(void);

#if defined(__GNUC__)
#define ISA_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define ISA_MAYBE_UNUSED __attribute__((unused)) /* generated helpers some specs never call */
#define ISA_RARELY_USED __attribute__((cold)) /* entry points no fast path goes through: compiled for size */
/* a struct or sequence unit's decoder behind isa_cursor_next: those of its
 * items inlined, as they are into a caller of its inline unpack */
#define ISA_FLATTEN __attribute__((flatten))
#else
#define ISA_PRINTF(f, a)
#define ISA_MAYBE_UNUSED
#define ISA_RARELY_USED
#define ISA_FLATTEN
#endif

/* ---- errors ------------------------------------------------------------ */

/* "truncated input", "no encoding matches"... for a status code. */
const char *isa_strerror(int status);

/* One line describing `err` (status, type, field, values) into buf. */
void isa_error_format(const struct isa_error *err, char *buf, size_t size);

/* ---- half floats ---------------------------------------------------------
 * isa_half_to_double (core.h) decodes; this encodes, rounding to nearest
 * even, overflowing to infinity, keeping NaN a (quiet) NaN. */
uint16_t isa_double_to_half(double d);

/* ---- output ------------------------------------------------------------
 * Printers write to a `struct isa_out`: a caller's buffer, a FILE* or a
 * callback.  Every sink collects text in a block (the caller's buffer, or
 * the struct's own `block` for a FILE or callback) and printers append to
 * it with a bounds check and a memcpy; FILE and callback sinks are written
 * a block at a time, and when a generated T_print returns.
 *
 * Writes keep no NUL and no count: a write is a bounds check, a memcpy and
 * a pointer bump.  isa_out_flush (which every T_print calls before it
 * returns) ends a buffer's text with a NUL; isa_out_len counts every
 * character produced, so isa_out_len >= cap means the text was cut (and
 * `error` is set).  `error` is also set when a FILE or callback write
 * fails. */

/* A callback sink: write n bytes, return 0 on success. */
typedef int (*isa_write_fn)(void *user, const char *s, size_t n);

#define ISA_OUT_BLOCK 1024
/* The most a run writes (isa_out_run_begin): a few tokens of a display. */
#define ISA_OUT_RUN 512

struct isa_out {
   char *cur;    /* where the next byte goes */
   char *end;    /* the last byte text can use (kept for the NUL of isa_out_flush) */
   char *buf;    /* the block: the caller's buffer, or `block` */
   size_t gone;  /* characters produced that are not in [buf, cur): handed to a FILE or callback, or cut */
   int error;
   FILE *fp;           /* FILE sink, or NULL */
   isa_write_fn write; /* callback sink, or NULL */
   void *user;
   char block[ISA_OUT_BLOCK];
   char spill[ISA_OUT_RUN]; /* a run's text when the block has no room for it (isa_out_run_begin) */
};

void isa_out_file(struct isa_out *o, FILE *fp);
/* A FILE sink that gathers text in the caller's block of cap bytes (which
 * must outlive the sink) rather than its own ISA_OUT_BLOCK: fewer and larger writes,
 * for a stream of many short texts (isa dis --batch's answers).  A block
 * smaller than ISA_OUT_BLOCK is not used: the sink's own is. */
void isa_out_file_block(struct isa_out *o, FILE *fp, char *block, size_t cap);
void isa_out_buffer(struct isa_out *o, char *buf, size_t cap);
void isa_out_callback(struct isa_out *o, isa_write_fn write, void *user);
/* Hand a FILE or callback sink what its block holds, and end a buffer's
 * text with a NUL (generated T_print functions do this before they
 * return); returns o->error. */
int isa_out_flush(struct isa_out *o);

/* Characters produced so far, also those cut from a full buffer. */
static inline size_t isa_out_len(const struct isa_out *o)
{
   return o->gone + (size_t)(o->cur - o->buf);
}
void isa_out_mem_slow(struct isa_out *o, const char *s, size_t n);

/* Append n bytes.  Printers call this for every token, so the common case
 * (room in the block) is inline: a memcpy the compiler unrolls for the
 * literal text of a display, whose length is known. */
ISA_INLINE void isa_out_mem(struct isa_out *o, const char *s, size_t n)
{
   if (n <= (size_t)(o->end - o->cur)) {
      memcpy(o->cur, s, n);
      o->cur += n;
      return;
   }
   isa_out_mem_slow(o, s, n);
}

/* Where text of n bytes can be formatted straight into o's block, or NULL
 * when the block has no room (then format into a buffer of your own and
 * isa_out_mem it).  Formatting in place avoids copying bytes just stored
 * one by one, which stalls on the read-back.  isa_out_commit(o, n) counts
 * the n bytes written there. */
static inline char *isa_out_room(struct isa_out *o, size_t n)
{
   return n <= (size_t)(o->end - o->cur) ? o->cur : NULL;
}

static inline void isa_out_commit(struct isa_out *o, size_t n)
{
   o->cur += n;
}

static inline void isa_out_char(struct isa_out *o, char c)
{
   isa_out_mem(o, &c, 1);
}

static inline void isa_out_str(struct isa_out *o, const char *s)
{
   isa_out_mem(o, s, strlen(s));
}

/* A run: several tokens written through a pointer the caller keeps in a
 * register, `most` bytes at most (up to ISA_OUT_RUN), rather than a room test and an
 * update of o->cur in memory per token (each store of text may alias
 * o->cur, so the compiler reloads it, and every token waits for the last
 * one's store).  Generated printers group a display's literal text,
 * numbers, enum names and the {if}s and short {for}s made of them this way:
 *
 *   char *s = isa_out_run_begin(o, 24), *p = s;
 *   p = isa_put_mem(p, "FADD", 4);
 *   p = isa_put_int(p, r);
 *   isa_out_run_end(o, s, p);
 *
 * The text goes straight into the block when it has room for `most`
 * bytes, else into o->spill and then through isa_out_mem. */
#if defined(ISA_OUT_CHECK_RUNS)
/* The sanitizer tests and fuzz targets build with ISA_OUT_CHECK_RUNS: each
 * run then goes into the spill, its bytes past the `most` it asked for
 * poisoned, so that AddressSanitizer sees any write past them (a bound the
 * generator got wrong); the same text goes to the sink. */
#if defined(__SANITIZE_ADDRESS__)
#define ISA_OUT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ISA_OUT_ASAN 1
#endif
#endif
#include <stdlib.h>
#if defined(ISA_OUT_ASAN)
#include <sanitizer/asan_interface.h>
#endif
static inline char *isa_out_run_begin(struct isa_out *o, size_t most)
{
   if (most > ISA_OUT_RUN)
      abort();
#if defined(ISA_OUT_ASAN)
   ASAN_POISON_MEMORY_REGION(o->spill, ISA_OUT_RUN);
   ASAN_UNPOISON_MEMORY_REGION(o->spill, most);
#endif
   return o->spill;
}

static inline void isa_out_run_end(struct isa_out *o, char *start, char *p)
{
#if defined(ISA_OUT_ASAN)
   ASAN_UNPOISON_MEMORY_REGION(o->spill, ISA_OUT_RUN);
#endif
   isa_out_mem(o, start, (size_t)(p - start));
}
#else
static inline char *isa_out_run_begin(struct isa_out *o, size_t most)
{
   return (size_t)(o->end - o->cur) >= most ? o->cur : o->spill;
}

static inline void isa_out_run_end(struct isa_out *o, char *start, char *p)
{
   if (start == o->spill)
      isa_out_mem(o, start, (size_t)(p - start));
   else
      o->cur = p;
}
#endif

static inline char *isa_put_mem(char *p, const char *s, size_t n)
{
   memcpy(p, s, n);
   return p + n;
}

char *isa_put_int_slow(char *p, int64_t v);
/* The number formats of isa_out_int_w, isa_out_num_w, isa_out_half_f and
 * isa_out_g into a run: at most max(width, 24) bytes (65 for base 2; a
 * width is capped at 64), 16 and 13. */
char *isa_put_int_w(char *p, int64_t v, unsigned width, int zero);
char *isa_put_num_w(char *p, uint64_t u, int negative, unsigned base, int upper, unsigned width, int zero);
char *isa_put_half_f(char *p, uint64_t h);
char *isa_put_g(char *p, double d);
/* isa_out_int into a run: at most 20 bytes */
static inline char *isa_put_int(char *p, int64_t v)
{
   if ((uint64_t)v + 99 < 199) {
      unsigned u = (unsigned)(v < 0 ? -v : v);
      *p = '-';
      p += v < 0;
      *p = (char)('0' + u / 10);
      p += u >= 10;
      *p++ = (char)('0' + u % 10);
      return p;
   }
   return isa_put_int_slow(p, v);
}

void isa_out_int_slow(struct isa_out *o, int64_t v);
/* Decimal.  Most numbers a printer shows are register numbers and small
 * immediates (Lima GP's ^-1 too): -99..99 are written straight into the
 * block (isa_put_int), without a branch per digit. */
static inline void isa_out_int(struct isa_out *o, int64_t v)
{
   if (o->end - o->cur >= 20) {
      o->cur = isa_put_int(o->cur, v);
      return;
   }
   isa_out_int_slow(o, v);
}

/* printf into the sink: at most 511 characters a call into a buffer or
 * callback sink (a longer text is cut there and `error` set; a FILE sink
 * gets all of it).  Templates print no more: their widths and precisions
 * go up to 64. */
void isa_out_fmt(struct isa_out *o, const char *fmt, ...) ISA_PRINTF(2, 3);
void isa_out_int_w(struct isa_out *o, int64_t v, unsigned width, int zero);    /* printf("%05lld") */
void isa_out_num_w(struct isa_out *o, uint64_t u, int negative, unsigned base, int upper, unsigned width,
                   int zero);                                                   /* printf("%04llX") */
void isa_out_hex(struct isa_out *o, uint64_t v);        /* 0x1f */
void isa_out_bin(struct isa_out *o, uint64_t v, unsigned digits); /* 0101 */
void isa_out_enum(struct isa_out *o, const char *name, int64_t v); /* name or decimal */
void isa_out_json_string(struct isa_out *o, const char *s, size_t n);
/* A double as Python's repr() writes it: the shortest digits that read
 * back as the same value, fixed notation from 1e-4 up to 1e16 (with ".0"
 * on whole numbers), else d.ddde+XX; nan, inf, -inf.  Disassemblers
 * written in Python print floats this way. */
void isa_out_pyfloat(struct isa_out *o, double d);
/* printf("%g") and printf("%{width}.{prec}f") of a double, without printf:
 * %g for every finite value (from its exact decimal expansion), %f when
 * that expansion is short (every GPU immediate). */
void isa_out_g(struct isa_out *o, double d);
void isa_out_fixed(struct isa_out *o, double d, unsigned width, unsigned prec);
/* Spaces until `width` characters have been written since `start` (a
 * previous isa_out_len): the {pad} of templates. */
void isa_out_pad(struct isa_out *o, size_t start, int64_t width);
/* Templates print an {item} that may print nothing aside, into the block of
 * a buffer sink of its own, then copy it here (flagging o if it did not fit). */
void isa_out_item(struct isa_out *o, const struct isa_out *item);
/* Print binary16 `h` exactly as printf("%f") prints its value (glibc:
 * round half to even, "nan", "-inf", "-0.000000"), without printf. */
void isa_out_half_f(struct isa_out *o, uint64_t h);

/* ---- context of one unit in a program ---------------------------------- */

/* isa_cursor_next stores every field one by one: a field added here is set
 * there too. */
struct isa_ctx {
   uint64_t offset;  /* byte offset of the unit in its program */
   uint64_t index;   /* unit number, 0 for the first */
   uint64_t size;    /* size of the unit in bits */
   int last;         /* the last unit of the program */
   const void *prev; /* the previous unit (same type), or NULL for the first, and always NULL when the
                      * spec reads no $prev (a cursor then keeps no copy of it) */
   uint64_t program_size; /* bytes in the whole program */
   const void *next; /* the next unit, or NULL: known only while a program is encoded */
   const int64_t *state; /* the stream's <state>s before this unit, or NULL (their initial values) */
   const uint64_t *state_set; /* bit k set when state[k] holds a value (an array element is written before it is
                               * read: unwritten ones read as their init); NULL: every one does */
   const struct isa_state_array *grown; /* the arrays without a count, or NULL (every element its init) */
   int listing; /* the caller prints the units' addresses (isa dis --offsets): $listing */
   const int64_t *options; /* the spec's <option>s chosen by the caller, or NULL (their defaults) */
   int failed;  /* no unit decodes here; the cursor skipped spec->resync_bits (obj is empty) */
   /* while a program is encoded: its units in order (unit_c_size bytes each, the stream's unit type) and
    * their byte offsets, what $at[OFFSET] reads; NULL otherwise */
   const void *units;
   const size_t *unit_offsets;
   size_t n_units, unit_c_size;
};

/* $at[offset]: the unit of the program being encoded that starts at byte
 * `offset`, or NULL (none starts there, or no program is being encoded). */
static inline const void *isa_ctx_unit_at(const struct isa_ctx *ctx, int64_t offset)
{
   size_t lo = 0, hi;
   if (!ctx || !ctx->units || offset < 0)
      return NULL;
   hi = ctx->n_units;
   while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (ctx->unit_offsets[mid] < (uint64_t)offset)
         lo = mid + 1;
      else
         hi = mid;
   }
   if (lo == ctx->n_units || ctx->unit_offsets[lo] != (uint64_t)offset)
      return NULL;
   return (const unsigned char *)ctx->units + lo * ctx->unit_c_size;
}

/* $NAME of an <option>: the caller's choice, or `def` when it made none. */
static inline int64_t isa_ctx_option(const struct isa_ctx *ctx, unsigned k, int64_t def)
{
   return ctx && ctx->options ? ctx->options[k] : def;
}

/* $NAME of a <state>: its value before this unit, or `init` outside a program. */
/* An array <state> without a count: the elements written so far in this
 * program (v[i] holds a value when bit i of set is set); it grows with
 * what its <set>s write, up to one element per byte of the program. */
struct isa_state_array {
   int64_t *v;
   uint64_t *set;
   uint64_t len; /* elements v and set have room for */
};

/* $NAME[i] of array <state> number j without a count */
static inline int64_t isa_ctx_state_grown(const struct isa_ctx *ctx, unsigned j, int64_t i, int64_t init)
{
   const struct isa_state_array *a;
   if (i < 0 || !ctx || !ctx->grown)
      return init;
   a = &ctx->grown[j];
   if ((uint64_t)i >= a->len || !((a->set[(uint64_t)i / 64] >> ((uint64_t)i % 64)) & 1))
      return init;
   return a->v[i];
}

static inline int64_t isa_ctx_state(const struct isa_ctx *ctx, unsigned k, int64_t init)
{
   return ctx && ctx->state ? ctx->state[k] : init;
}

/* $NAME[i] of an array <state> of `count` values at `base` (init when i is
 * out of range or not written yet in this program). */
static inline int64_t isa_ctx_state_at(const struct isa_ctx *ctx, unsigned base, unsigned count, int64_t i,
                                       int64_t init)
{
   unsigned k;
   if (i < 0 || i >= (int64_t)count || !ctx || !ctx->state)
      return init;
   k = base + (unsigned)i;
   if (ctx->state_set && !((ctx->state_set[k / 64] >> (k % 64)) & 1))
      return init;
   return ctx->state[k];
}

/* ---- findings of validators --------------------------------------------- */

enum isa_severity { ISA_SEV_INFO = 0, ISA_SEV_WARNING = 1, ISA_SEV_ERROR = 2 };

struct isa_finding {
   enum isa_severity severity;
   const char *rule;    /* rule name, e.g. "reserved" or "crs-size-multiple-of-512" */
   const char *field;   /* field path, "" for the whole unit */
   const char *message;
   uint64_t offset;     /* byte offset of the unit */
};

struct isa_findings {
   /* Called for each finding (may be NULL to only count).  The strings live
    * only for the duration of the call. */
   void (*emit)(void *user, const struct isa_finding *finding);
   void *user;
   unsigned count[3]; /* per severity */
};

const char *isa_severity_name(enum isa_severity s);

/* Where a validator is, as a chain built on the stack by the callers
 * ("ImapGenericVector" [3] inside the root): formatted only when a finding
 * is reported, so validating costs nothing when all is well. */
struct isa_path {
   const struct isa_path *parent; /* NULL at the unit itself */
   const char *name;
   long index; /* -1: not an array element */
};

#define ISA_PATH_MAX 192

/* "ImapGenericVector[3].ImapX": the path, then `field` (either may be NULL). */
void isa_path_format(const struct isa_path *path, const char *field, char *buf, size_t size);

/* Report a finding about `field` below `path`. */
void isa_report(struct isa_findings *f, const struct isa_ctx *ctx, enum isa_severity sev,
                const char *rule, const struct isa_path *path, const char *field, const char *message);

/* Report a field whose bits are not what the spec wants, with a message
 * made from the rule and the value: "reserved" (bits that differ from
 * `expected`, what producers write there: 0 unless the spec says) and
 * "mbz" (bits set that should be clear), "mbo" (bits clear that should be
 * set: `expected` is the mask of them) and "expect" (`expected` is the
 * value it should have). */
void isa_report_bits(struct isa_findings *f, const struct isa_ctx *ctx, enum isa_severity sev,
                     const char *rule, const struct isa_path *path, const char *field, uint64_t value,
                     uint64_t expected);

/* ---- reflection tables ---------------------------------------------------
 * Generated per spec: one isa_type_desc per struct, sequence and choice.
 * They let generic code read and write any field by its XML path
 * ("CommonWord0.SphType", "ImapGenericVector[3].ImapX", "varying.imm.index"). */

enum isa_kind {
   ISA_K_UINT = 1,
   ISA_K_SINT,
   ISA_K_BOOL,
   ISA_K_ENUM,
   ISA_K_FLOAT16,
   ISA_K_FIXED,  /* unsigned fixed point: value / 2^frac */
   ISA_K_SFIXED, /* signed fixed point */
   ISA_K_AGG     /* a nested struct, sequence or choice */
};

enum isa_role {
   ISA_ROLE_FIELD = 0,
   ISA_ROLE_RESERVED,
   ISA_ROLE_MBZ,
   ISA_ROLE_MBO,
   ISA_ROLE_FIXED, /* constant bits: no C member; `value` holds them */
   ISA_ROLE_LENGTH /* a struct's length-flag: the encoder sets it when the long form is needed */
};

enum isa_type_kind { ISA_T_STRUCT = 1, ISA_T_SEQUENCE, ISA_T_CHOICE };

enum isa_format { ISA_FMT_DEC = 0, ISA_FMT_HEX, ISA_FMT_BIN };

#define ISA_NO_OFFSET ((size_t)-1)

struct isa_type_desc;
struct isa_asm;

struct isa_field_desc {
   const char *name;
   uint8_t kind;     /* enum isa_kind */
   uint8_t role;     /* enum isa_role */
   uint8_t width;    /* encoded bits per element (0 for aggregates) */
   uint8_t c_size;   /* bytes of the C member per element */
   uint8_t format;   /* enum isa_format, for the generic dump */
   uint8_t frac;     /* fixed point: fraction bits */
   uint16_t count;   /* elements: 1 for a scalar; max elements of a counted item */
   size_t c_offset;  /* offsetof the member in its C struct */
   size_t c_stride;  /* bytes between elements */
   size_t has_offset; /* optional item: offsetof its bool has_<name>, else ISA_NO_OFFSET */
   size_t n_offset;   /* counted item: offsetof its unsigned n_<name>, else ISA_NO_OFFSET */
   int64_t value;     /* ISA_ROLE_FIXED: the constant */
   const struct isa_type_desc *type;           /* ISA_K_AGG */
   const char *(*enum_name)(uint32_t value);   /* ISA_K_ENUM */
};

struct isa_variant_desc {
   const char *name;
   uint8_t named_path; /* the variant's name is a component of its fields' paths */
   const struct isa_field_desc *fields;
   uint16_t n_fields;
   /* The bit patterns that select it: n_patterns (mask, value) pairs of
    * pattern_bytes bytes each, over the unit's first bytes.  Any one
    * selects the variant (unless a higher priority one matches too). */
   uint16_t n_patterns;
   uint16_t pattern_bytes;
   const uint8_t *pattern_mask;
   const uint8_t *pattern_value;
};

struct isa_type_desc {
   const char *name;
   uint8_t kind;    /* enum isa_type_kind */
   uint32_t bits;   /* struct: layout size in bits; containers: 0 */
   size_t c_size;
   const struct isa_field_desc *fields; /* struct: common fields; sequence: items */
   uint16_t n_fields;
   const struct isa_variant_desc *variants; /* struct variants, choice alternatives */
   uint16_t n_variants;
   size_t variant_offset; /* offsetof the uint16_t variant member (1-based), or ISA_NO_OFFSET */
   uint8_t overlay;       /* struct whose variants are views: all are decoded and listed */
   /* decode `bits` bits at bit position `pos` of buf[0..len) into obj */
   int (*decode)(const uint8_t *buf, size_t len, size_t pos, void *obj, size_t *bits,
                 struct isa_error *err);
   /* checked encode of obj at bit `pos` of buf[0..cap); *bits gets the size */
   int (*encode)(const void *obj, uint8_t *buf, size_t cap, size_t pos, size_t *bits,
                 struct isa_error *err);
   int (*print)(const void *obj, struct isa_out *out, const struct isa_ctx *ctx);
   void (*validate)(const void *obj, struct isa_findings *f, const struct isa_ctx *ctx,
                    const struct isa_path *path);
   /* struct with variants: pick the variant its common fields select */
   unsigned (*select)(void *obj);
   /* struct: its <fixed> bits as (bits+7)/8 mask and value bytes, or NULL */
   const uint8_t *fixed_mask;
   const uint8_t *fixed_value;
   /* choice: decode as alternative `alt` (1-based) whatever the bits say,
    * e.g. a shadowed one; NULL for structs and sequences */
   int (*decode_as)(const uint8_t *buf, size_t len, size_t pos, void *obj, unsigned alt, size_t *bits,
                    struct isa_error *err);
   /* struct with variants (not views) and choice: select variant or
    * alternative `which` (1-based) with its view initialised, zero and XML
    * defaults (S_set_variant); NULL for the others */
   void (*set_variant)(void *obj, unsigned which);
};

/* Value of a scalar C member of c_size bytes. */
int64_t isa_member_get(const void *p, const struct isa_field_desc *fd);
void isa_member_set(void *p, const struct isa_field_desc *fd, int64_t value);

/* Visit every leaf field (scalars, reserved bits, named fixed bits) of obj,
 * in layout order, with its full path. */
typedef void (*isa_field_visitor)(void *user, const char *path, const struct isa_field_desc *fd,
                                  int64_t value);
void isa_walk_fields(const struct isa_type_desc *t, const void *obj, isa_field_visitor fn,
                     void *user);

/* Read or write one field by path.  Setting a field of a variant that is
 * not selected yet selects it from the common fields (t->select).
 * Return ISA_OK, ISA_ERR_ARG for an unknown path, ISA_ERR_RANGE for a value
 * the field's C member cannot hold (obj is then unchanged). */
int isa_field_get(const struct isa_type_desc *t, const void *obj, const char *path,
                  int64_t *value);
int isa_field_set(const struct isa_type_desc *t, void *obj, const char *path, int64_t value);
/* The descriptor of the field at `path` (selecting a variant as
 * isa_field_set does), or NULL for an unknown path. */
const struct isa_field_desc *isa_field_find(const struct isa_type_desc *t, void *obj, const char *path);

/* 1 when the field at `path` takes part in encoding obj: it is not in a
 * variant, view or optional item that is not selected or present, and it is
 * not constant.  In an overlay struct only the selected view encodes; the
 * other views mirror the bits and are refreshed by decoding. */
int isa_field_active(const struct isa_type_desc *t, const void *obj, const char *path);

/* Select the variant of every struct in obj (nested ones, items) that has
 * none yet, from the fields already set: for objects built field by field
 * with isa_field_set before they are encoded. */
void isa_select_variants(const struct isa_type_desc *t, void *obj);

/* Name of the selected variant / alternative, or NULL. */
const char *isa_variant_name(const struct isa_type_desc *t, const void *obj);
/* Select variant or alternative `name` of obj (0, or ISA_ERR_ARG if t has
 * none such), its view initialised as S_set_variant does (an overlay's
 * views are kept: they all hold the same bits). */
int isa_variant_set(const struct isa_type_desc *t, void *obj, const char *name);

/* The default display of a unit whose XML has no <display>: one line per
 * top-level field that is not zero, "Row: a b=3 c=NAME".  It writes like a
 * T_write: isa_out_flush hands the text on (and ends a buffer's). */
void isa_dump(const struct isa_type_desc *t, const void *obj, struct isa_out *out);

/* ---- containers -------------------------------------------------------------
 * A program may come wrapped in a chunked file (the Mali offline compiler's
 * MBS): `magic` names the outer chunk; each step descends into the child
 * chunk `id`, after skipping `skip` bytes of the parent's payload; the last
 * chunk's payload is the program.  Layout "iff-le32": 4-byte id, then a
 * little-endian 32-bit payload size, then the payload. */

struct isa_chunk_step {
   char id[5];
   uint32_t skip;
};

struct isa_container {
   const char *name;
   char magic[5];
   const struct isa_chunk_step *steps;
   unsigned n_steps;
};

/* If buf[0..len) is container c, find the program inside: ISA_OK with
 * *offset and *size set; ISA_ERR_NO_MATCH when buf is not c at all;
 * ISA_ERR_TRUNCATED or ISA_ERR_SIZE when it is c but damaged. */
int isa_container_payload(const struct isa_container *c, const uint8_t *buf, size_t len, size_t *offset,
                          size_t *size, struct isa_error *err);

/* ---- states -------------------------------------------------------------- */

/* A <state>: $NAME (or $NAME[0..count)) is state[index..index+count) of a
 * program cursor, `init` before the first unit. */
struct isa_state_decl {
   const char *name;
   unsigned index, count; /* count 0: an array without a count, grown[index] */
   int64_t init;
};

/* One write of a unit's step: value into state[index] (array 0), or into
 * element index of grown array `array - 1`. */
struct isa_state_write {
   unsigned array;
   uint64_t index;
   int64_t value;
};

/* ---- options ------------------------------------------------------------- */

/* An <option>: a choice the caller makes for a whole program (isa dis
 * --NAME VALUE), one of the named values of an enum. */
struct isa_option {
   const char *name;
   int64_t def;
   unsigned n_values;
   const char *const *value_names;
   const int64_t *values;
};

/* ---- specs ---------------------------------------------------------------- */

struct isa_spec {
   const char *name;   /* "nv-sph" */
   const char *title;
   const char *version; /* the spec version these tables describe, or "" */
   const char *source; /* XML file the tables were generated from */
   const struct isa_type_desc *unit; /* a program is a sequence of these */
   uint32_t unit_count;              /* exact number of units; 0 = until the input ends */
   /* NULL, or true after the last unit of a program (ctx: the unit's
    * context, its <state>s as before it) */
   int (*stop)(const void *unit, const struct isa_ctx *ctx);
   /* NULL, or prints what `isa dis --offsets` puts before each unit */
   void (*prefix)(struct isa_out *out, const struct isa_ctx *ctx);
   const char *separator; /* printed after each unit ("\n" unless the XML says) */
   /* NULL, or sets the fields the <stream>'s <derive>s compute from the
    * unit's neighbours (ctx->prev, ctx->next) and the <state>s before it
    * (ctx->state: isa_encode_program walks the units it has written for
    * them); ISA_ERR_RANGE if one does not fit */
   int (*link)(void *unit, const struct isa_ctx *ctx, struct isa_error *err);
   /* NULL, or decodes the first unit of a program (a first="true"
    * alternative: chosen by position, not by its bits) */
   int (*decode_first)(const uint8_t *buf, size_t len, size_t pos, void *obj, size_t *bits,
                       struct isa_error *err);
   /* the <state>s, declared by state_decls: n_state values of single
    * states and arrays with a count, and n_grown arrays without one.  step
    * says what a unit changes: it lists the writes (at most
    * max_state_writes) in w and returns how many; the cursor makes them
    * before the next unit.  NULL when there are no states. */
   unsigned n_state;
   const struct isa_state_decl *state_decls;
   unsigned n_state_decls;
   unsigned n_grown;
   unsigned max_state_writes;
   unsigned (*step)(const void *unit, const struct isa_ctx *ctx, struct isa_state_write *w);
   /* how a listing walks the bytes (<stream> attributes; 0 = off):
    * where skip_zero_bits bits are zero, skip zero words of skip_unit_bits;
    * where no unit decodes, report a failed unit of resync_bits and go on;
    * pad_end: the last unit may run past the input, which reads as zeros
    * (up to max_unit_bytes), and ends the listing */
   uint16_t skip_zero_bits, skip_unit_bits, resync_bits;
   uint8_t pad_end;
   /* some expression reads $prev: the cursor keeps the unit before (else
    * it decodes straight into the caller's unit, and ctx->prev is NULL) */
   uint8_t reads_prev;
   uint32_t max_unit_bytes;
   const char *failed_text; /* printed for a failed unit */
   const struct isa_container *containers; /* file formats a program may come in */
   unsigned n_containers;
   const struct isa_type_desc *const *types;
   unsigned n_types;
   const struct isa_option *options; /* the <option>s, in order */
   unsigned n_options;
   /* the text assembler's tables (isagen/asm.h), or NULL when the spec's
    * displays use what the assembler does not read yet */
   const struct isa_asm *assembler;
   /* the bytes the reference compiler writes after the unit that stops a
    * program (<stream after-stop=...>: AGX's eight traps, Midgard's zero
    * quadword, where the hardware's prefetch may read); no listing shows
    * them.  The program encoder appends them (isa_end_program). */
   const uint8_t *after_stop;
   uint8_t after_stop_len;
};

/* Option `name` of spec set to value `value_name` in options[] (an array of
 * spec->n_options values, filled with the defaults by isa_options_init).
 * ISA_ERR_ARG when the spec has no such option or value. */
void isa_options_init(const struct isa_spec *spec, int64_t *options);
int isa_option_set(const struct isa_spec *spec, int64_t *options, const char *name, const char *value_name);

/* The specs compiled into this library (a generated table). */
const struct isa_spec *const *isa_specs(unsigned *count);
const struct isa_spec *isa_spec_find(const char *name);

/* ---- programs ------------------------------------------------------------ */

/* Decode one unit of `spec` at byte offset `offset`.  `obj` must hold
 * spec->unit->c_size bytes.  *size gets the unit's size in bytes. */
int isa_decode_unit(const struct isa_spec *spec, const uint8_t *buf, size_t len, size_t offset,
                    void *obj, size_t *size, struct isa_error *err);

/* Walking a program unit by unit, as the spec's <stream> says (a fixed
 * count of units, or until the input ends or a unit says stop):
 *
 *   struct isa_cursor c;
 *   isa_cursor_init(&c, spec, buf, len);
 *   while ((r = isa_cursor_next(&c, obj, &ctx, &err)) > 0)
 *      ... obj is the unit at ctx.offset ...
 *   if (r < 0) ... err says why decoding stopped at c.offset ...
 *   isa_cursor_fini(&c);
 *
 * A cursor points into itself (its units and its block live inside it):
 * never copy one; walk a program again with a new isa_cursor_init.
 */
#define ISA_CURSOR_UNIT_BYTES 512
#define ISA_CURSOR_BLOCK_BYTES 1024
struct isa_cursor {
   const struct isa_spec *spec;
   const uint8_t *buf;
   size_t len;
   size_t offset;  /* where the next unit starts */
   uint64_t index; /* units decoded so far */
   bool done;
   bool stopped;   /* done, and not by the input's end: a unit or the count ended it, or an error */
   bool allocated; /* isa_cursor_fini may have something to free: the block, or what grew out of it */
   /* the spec's stream is plain: units one after the other until the
    * input ends, with no count, stop, states, skipped zero words, padding,
    * resync or first unit to mind (isa_cursor_next then takes a shorter
    * path) */
   bool plain;
   /* when the spec reads $prev: the unit before the one just decoded
    * (ctx->prev points here) and the one being decoded, in units[] when
    * they fit (no allocation per program; so a cursor is never copied) */
   void *prev, *scratch;
   bool have_prev; /* prev holds a unit (one decoded before this one) */
   /* the <state>s as the unit just decoded sees them (ctx->state), and
    * what its step writes, made before the next unit */
   int64_t *state;
   struct isa_state_write *writes;
   unsigned n_writes;
   /* bit k: state[k] holds a value.  Many states (over 256) are not
    * cleared when a program starts: an array's elements count as their
    * init until a <set> writes them. */
   uint64_t *state_set;
   /* the arrays without a count (spec->n_grown), grown as they are written */
   struct isa_state_array *grown;
   /* pad_end: the end of the input, copied and zero-padded (into tail_bytes
    * when units are that short, else into tail) */
   uint8_t *tail, tail_bytes[16];
   /* the unit decoded when isa_cursor_next is given no obj (isa_cursor_unit);
    * for a spec that does not read $prev, it is kept in own */
   void *unit, *own;
   /* the caller's <option> values (spec->n_options of them), or NULL for
    * the defaults; set after isa_cursor_init */
   const int64_t *options;
   /* the previous unit and the one being decoded (or own), when they fit
    * (never cleared: only the units decoded into them are read) */
   union {
      max_align_t align;
      unsigned char bytes[ISA_CURSOR_UNIT_BYTES];
   } units[2];
   /* what the cursor needs per program (states, their writes, the first
    * elements of growing arrays), here when it fits: Midgard's 736 bytes
    * and TGSI's 352 cost a malloc and a free per program otherwise */
   union {
      max_align_t align;
      unsigned char bytes[ISA_CURSOR_BLOCK_BYTES];
   } block;
};

/* Returns ISA_OK, or ISA_ERR_LIMIT when the memory the spec's stream needs
 * (its states, or units too big for the cursor) cannot be had: the cursor
 * is then over.  isa_cursor_fini frees what a cursor holds, and may be
 * called after a failed init. */
int isa_cursor_init(struct isa_cursor *c, const struct isa_spec *spec, const uint8_t *buf, size_t len);
void isa_cursor_fini(struct isa_cursor *c);
/* 1: the next unit is in obj and ctx (ctx->prev is the unit before it,
 * ctx->last says whether it ends the program); or, for a spec with
 * resync_bits, ctx->failed: nothing decodes at ctx->offset, obj is empty
 * and the listing goes on after ctx->size bits.  0: the program is over.
 * < 0: a status (and err) when the unit at c->offset does not decode.
 * obj NULL: the unit is decoded into the cursor's own storage instead,
 * read through isa_cursor_unit until the next call.  For a spec that reads
 * $prev that saves a copy of every unit; ISA_ERR_LIMIT if a unit over
 * ISA_CURSOR_UNIT_BYTES finds no memory. */
int isa_cursor_next(struct isa_cursor *c, void *obj, struct isa_ctx *ctx, struct isa_error *err);
/* The <state>s the units walked so far leave for a unit after them (ctx's
 * state, state_set and grown, which point into the cursor): what the
 * assembler reads the next unit of a program in before it exists.  Call it
 * once the walk is over (until isa_cursor_more). */
void isa_cursor_states_after(struct isa_cursor *c, struct isa_ctx *ctx);
/* The program grew: buf[0..len) holds the bytes walked so far and more
 * after them (len at least the old length); a walk that ended with the
 * input goes on (one a unit, the count or an error ended does not).  Not
 * for a spec whose last unit may run past the input (pad_end).  ISA_OK,
 * or ISA_ERR_ARG when len is shorter. */
int isa_cursor_more(struct isa_cursor *c, const uint8_t *buf, size_t len);
/* The unit the last isa_cursor_next(c, NULL, ...) decoded. */
static inline const void *isa_cursor_unit(const struct isa_cursor *c)
{
   return c->unit;
}

/* Encode a program: `units` holds n unit objects (spec->unit->c_size bytes
 * each), written one after the other into buf[0..cap); *size gets the
 * program's size in bytes.  Each unit is encoded as its checked encoder
 * does (sizes and counts computed), then the fields the <stream>'s
 * <derive>s name are computed from the neighbouring units as encoded
 * (Lima PP: next_count and prefetch), so callers need not fill them.
 * `units` is not modified.  Last, what the reference compiler writes after
 * a program whose last unit stops it (isa_end_program, with the default
 * options).  ISA_ERR_ARG when n does not suit a spec with a
 * fixed unit count; ISA_ERR_INCONSISTENT if a derived field changed the
 * size of a unit. */
int isa_encode_program(const struct isa_spec *spec, const void *units, size_t n, uint8_t *buf, size_t cap,
                       size_t *size, struct isa_error *err);

/* After the program buf[0..*size), what the reference compiler writes
 * after it: the stream's after_stop bytes, when its last unit stops it
 * (the stop rule holds for the unit that ends at *size, walked with
 * `options`, or the defaults when NULL).  *size grows by them.  ISA_OK
 * (also when nothing follows), or ISA_ERR_NOSPACE when buf[0..cap) has no
 * room for them. */
int isa_end_program(const struct isa_spec *spec, const int64_t *options, uint8_t *buf, size_t cap, size_t *size,
                    struct isa_error *err);

#ifdef __cplusplus
}
#endif

#endif /* ISAGEN_H */
