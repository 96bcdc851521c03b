/* The text assembler: one matcher for every spec's goal table (isagen/asm.h).
 *
 * A unit's text is matched against its goals depth first, with
 * backtracking: literal text, numbers and enum names consume text; {if}
 * branches, operand cases and choice alternatives are tried in order.
 * Every value the text gives, and every condition a branch assumes, is an
 * equation over the unit's fields and the operands' parameters.  An
 * equation whose every variable is known is checked at once; one with a
 * single unknown variable is solved with the generated guess for it (then
 * checked); the others wait.  When the unit's text is over, a waiting
 * equation is tried with the fields' XML defaults, then by searching the
 * values of its unknown fields (at most SEARCH_BITS bits).  A solution
 * stands only if the unit, encoded, decoded and printed, gives the text it
 * matched (blanks aside): so redundant, computed or context-dependent text
 * is checked by the printer itself, not by code here.  A one-line unit no
 * strict reading takes is read again laxly (match_unit), and that check
 * then passes over the spans where the text may differ from the print.
 *
 * Nothing here knows an ISA; the state is this file's struct matcher, per
 * call.
 */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isagen/asm.h"
#include "isagen/isagen.h"

#define MAX_FRAMES 256     /* operand calls per unit */
#define MAX_CONS 1024      /* equations per unit */
#define MAX_TRAIL 16384    /* undo records per unit (watches take at most half) */
#define SEARCH_BITS 12     /* the most unknown bits one waiting equation may search */
#define STEP_BUDGET 1000000 /* goals, closings and settlings per unit before giving up */
#define MAX_EXPECTED 512   /* alternatives noted for an error */
#define EXPECT_SLOTS 1024 /* a hash set of them: twice as many, a power of two */
#define SHOWN_EXPECTED 6   /* ...and named in it: those nearest what the text has */
#define MAX_LOOP 64        /* iterations of a {for} whose bound the text gives */
#define MAX_RANGED 4       /* nested {for}s read by runs of counts */
#define PRINT_MAX 4096     /* a unit's printed text, for the check */
#define MAX_PASSES 4       /* over a text with labels, until none moves */
#define MAX_LABEL 64       /* characters of a label's name */
#define MAX_SPANS 64       /* text in one unit the check does not compare as printed (labels; lax) */
#define MAX_WATCH 16384    /* (equation, place it reads) pairs per unit */
#define MEMO_SLOTS 512     /* probes remembered per unit */
#define MEMO_KEY 128       /* values that say what a probe depended on (a Midgard constant lane's: 100 and more) */
#define TRIES_PER_STEP 8   /* can_hold's tries of a value count against STEP_BUDGET, this many to a step */

/* The labels of a text (name: at a line's start): where each is, as the
 * pass before found it; a number whose expression reads $offset may be a
 * label's name, standing for the number the listing prefix prints for the
 * unit it labels (isa_asm.place). */
struct label {
   const char *name;
   uint32_t len;
   uint64_t offset;
   unsigned pass; /* the pass that last saw it defined, + 1 */
};

struct labels {
   struct label *v;
   unsigned n, cap;
   uint32_t *slots; /* a hash of the names: 1 + index into v, or 0; cap * 2 of them */
   unsigned pass; /* this pass, + 1 */
   int again;     /* a label was used before it was known, or moved: another pass */
   int final;     /* no other pass follows: an unknown label is an error */
};

enum side_kind { SIDE_CONST, SIDE_EXPR, SIDE_PARAM }; /* SIDE_CONST first: a side left out is the constant 0 */

struct side {
   uint8_t kind;
   uint16_t frame;
   int32_t id;    /* expr, or parameter slot */
   int64_t value; /* SIDE_CONST */
};

/* (CON_RULE: a rule's equation, a is true: checked once what it reads is
 * known, and at the unit's end as it stands; never solved, probed or
 * searched) */
enum con_kind { CON_EQ, CON_CHECK, CON_TEXT, CON_LE, CON_RULE };

struct con {
   uint8_t check;   /* enum con_kind: a == b; a is true (truth) or false; a prints as text[at..at+len); a <= b;
                     * a rule holds */
   uint8_t truth;   /* CON_TEXT: enum isa_asm_real */
   uint8_t done;
   uint8_t indexed; /* reads an element at an index not known when it was added: its watches grow */
   struct side a, b;
   size_t at;       /* CON_TEXT: the number's text */
   uint32_t len;
   int64_t arg;     /* CON_TEXT: the goal's c; with ISA_ASM_SCALED, b is the integer and `scale`
                     * the constant its value is a multiple of */
   int32_t scale;
};

struct frame {
   size_t scope; /* offset of the struct its fields are in, within the unit */
   uint16_t n_params;
   uint16_t known; /* bit k: params[k] holds its value */
   int64_t params[ISA_ASM_MAX_PARAMS];
   int32_t link[ISA_ASM_MAX_PARAMS]; /* the equation tying params[k] to its argument, or -1 */
};

enum trail_kind { TR_FIELD, TR_PARAM, TR_DONE, TR_KNOWN, TR_DOMAIN, TR_WATCH };

struct trail {
   uint8_t kind;
   uint32_t where; /* field, known, domain: byte offset in the unit; param: frame; done: con; watch: place */
   uint32_t slot;  /* param slot; field: var index; known: bytes; domain: word */
   int64_t old;
};

/* An equation waiting on a place (a byte of the unit where a field starts,
 * or a frame's parameter): when the place becomes known, the equation is
 * worked again.  A list per place, newest first; `next` is 1 + the index
 * of the next entry, or 0. */
struct watch {
   uint32_t con, next;
   uint32_t place; /* (the list it heads, or did: a new unit clears those alone) */
};

/* A probe's result (the values its field may take) and what it depended
 * on: the equation, the arguments it reached the field through, the
 * values of everything else they read.  A reading backtracked over its
 * text adds the same equations again; AGX's operand cases and Midgard's
 * modifiers are probed the same way many times per unit. */
struct probe_key {
   unsigned n;
   int64_t v[MEMO_KEY];
};

struct memo {
   uint32_t hash;
   struct probe_key key;
   uint64_t keep[4];
};

/* What was expected at the furthest point the text was read to. */
struct expected {
   size_t pos;
   unsigned n;
   const char *what[MAX_EXPECTED];
   uint32_t len[MAX_EXPECTED];
   char range[96]; /* what only one value there would do: a field's range, the value fixed there */
   int fixed;      /* range is a value the unit's place fixes (its <state>s, its index) */
   /* the noted alternatives by their text's hash: (round << 16 | index + 1), or a
    * round's other than this one, free (TGSI notes its opcodes at every token:
    * comparing each with all noted before was a fifth of its time) */
   uint16_t round;
   uint32_t slots[EXPECT_SLOTS];
};

struct matcher {
   const struct isa_spec *spec;
   const struct isa_asm *t;
   const char *text;
   size_t len, pos, start;
   unsigned char *unit, *known; /* the unit object, and a byte per byte of it: 1 where a known field is */
   /* per byte of the unit, where an unknown field of at most 8 bits is:
    * the values it may still take (probe), 256 bits; all of them when
    * its narrowed byte is 0 */
   uint64_t *domain;
   unsigned char *narrowed;
   unsigned char *fresh;        /* the unit as it started (its XML defaults, its alternative's) */
   size_t unit_size;
   unsigned n_frames, frame;
   unsigned n_cons;
   unsigned n_trail;
   struct isa_ctx ctx;
   unsigned long steps;
   int overflow; /* a table below filled up, or the step budget ran out */
   /* the {for}s being read by runs of counts (run's FOR), innermost last:
    * the equations of each one's bound, and whether a reading reached the
    * unit's end with one of them still waiting */
   struct ranged {
      unsigned first, n;
      int undecided;
   } ranged[MAX_RANGED];
   unsigned n_ranged;
   struct labels *labels;
   int recover;      /* numbers the place alone fixes are taken from the text (after a failed unit) */
   int trying_bounds; /* a {for}'s bound is being tried: a value out of range is no message */
   int lax;          /* a lax reading (after a strict one found nothing): see match_unit */
   int no_rules;     /* the unit is read again without its rules (goal RULE): see match_unit_as */
   int rule_failed;  /* a rule's equation refuted a reading of the unit */
   unsigned laxed;   /* {if} bodies read though the printer leaves them out, on the path being read */
   unsigned best_laxed;
   unsigned n_spans; /* text the unit's check does not compare as printed, in text order */
   size_t span_at[MAX_SPANS];
   uint32_t span_len[MAX_SPANS];
   uint8_t span_kind[MAX_SPANS]; /* enum span_kind */
   /* the longest unit found so far: its text's end, bytes, decoded unit */
   size_t best_end, best_bytes;
   unsigned best_mismatch, mismatch; /* blank runs unlike the text's (blank_mismatches) */
   size_t best_changed, changed;     /* bytes of the unit object off its start: fields off their defaults */
   unsigned undefined; /* undefined operand cases on the path being read */
   int best_defined;
   unsigned errors, best_errors;     /* what the spec's validators find wrong with the unit (isa check) */
   unsigned warnings, best_warnings; /* ... and what they warn of (an encoding its producers do not write) */
   int best_found;                   /* best_errors and best_warnings are counted (count_findings) */
   /* the spec's <prefer>, or NULL: none, or the program is read again
    * without it (isa_assemble) */
   int (*prefer)(const void *a, const void *b, const struct isa_ctx *ctx);
   size_t unsolved; /* the furthest a unit's text was read to with no encoding printing it */
   size_t fewest; /* the fewest bytes the unit being matched can take */
   size_t require; /* a listing: the bytes the next unit's offset leaves this one, or 0 */
   /* what settle works: the equations a place they read became known
    * since they were last worked (bit per equation), unless `rescan`
    * (after a restore to a state that had some, or when the watches
    * overflowed) says all of them */
   uint64_t pending[MAX_CONS / 64];
   unsigned n_pending;
   uint64_t notified[MAX_CONS / 64]; /* ... and all that were made pending since a search set its fields */
   uint64_t waiting[MAX_CONS / 64];  /* bit per equation: not done (the loops over what waits) */
   int rescan, watch_full;
   int trying; /* probe's tries: values set and undone at once, no notice to the watches */
   uint32_t *watch_head; /* per place: 1 + the index of its newest watch, or 0 */
   unsigned n_watch;
   uint32_t generation;            /* of the unit being matched: memo entries of others are void */
   uint32_t memo_gen[MEMO_SLOTS];  /* the generation memo[k] is of */
   void *best;
   /* the check of a solution */
   uint8_t *bytes;
   size_t bytes_cap, unit_bytes;
   void *decoded;
   void *merged; /* the unit with its overlays' views made one (isa_asm.merge) */
   /* the tables, filled as they are used (only `tried` starts zeroed) */
   unsigned char tried[MAX_CONS]; /* close_from: the equation's one guess failed, search instead */
   struct frame frames[MAX_FRAMES];
   struct con cons[MAX_CONS];
   struct trail trail[MAX_TRAIL];
   struct watch watch[MAX_WATCH];
   struct memo memo[MEMO_SLOTS];
   char printed[PRINT_MAX];
   struct expected exp; /* (as init_expected leaves it: 6 of its 10 KB need no zeroing) */
};

/* ---- text ------------------------------------------------------------------ */

static int is_word(int c)
{
   return isalnum((unsigned char)c) || c == '_';
}

/* Text character a where the template (or the printer) has b: the same,
 * or in a lax reading, the same letter in the other case. */
static int same_char(const struct matcher *m, char a, char b)
{
   return a == b || (m->lax && tolower((unsigned char)a) == tolower((unsigned char)b));
}

/* Skip blanks and comments (# or ; to the end of the line, unless the
 * template expects that very character next: `expect`, or 0); line ends
 * too when `lines` (where the template has one, and between units): a
 * unit's text never spills onto a line its display does not print. */
static void skip_blank(struct matcher *m, int expect, int lines)
{
   while (m->pos < m->len) {
      char c = m->text[m->pos];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || (c == '\n' && lines)) {
         m->pos++;
      } else if ((c == '#' || c == ';') && c != expect && lines) {
         while (m->pos < m->len && m->text[m->pos] != '\n')
            m->pos++;
      } else {
         break;
      }
   }
}

/* Text t[0..n) is name s (in a lax reading, in either case). */
static int same_name(const struct matcher *m, const char *t, const char *s, size_t n)
{
   if (memcmp(t, s, n) == 0)
      return 1;
   for (size_t i = 0; m->lax && i < n; i++)
      if (!same_char(m, t[i], s[i]))
         return 0;
   return m->lax;
}

static uint32_t name_hash(const char *name, size_t len)
{
   uint32_t h = 2166136261u; /* FNV-1a */
   for (size_t i = 0; i < len; i++)
      h = (h ^ (unsigned char)name[i]) * 16777619u;
   return h;
}

/* e as a matcher starts it: nothing noted.  (The hash of what is noted
 * starts zeroed; the noted alternatives need not.) */
static void init_expected(struct expected *e)
{
   e->pos = 0;
   e->n = 0;
   e->range[0] = 0;
   e->fixed = 0;
   e->round = 0;
   memset(e->slots, 0, sizeof e->slots);
}

/* *to = *from, as much of it as holds something: the alternatives noted,
 * not the room for 512 (a unit's few, where a whole copy moved 10 KB for
 * each unit). */
static void copy_expected(struct expected *to, const struct expected *from)
{
   to->pos = from->pos;
   to->n = from->n;
   memcpy(to->what, from->what, from->n * sizeof from->what[0]);
   memcpy(to->len, from->len, from->n * sizeof from->len[0]);
   memcpy(to->range, from->range, sizeof to->range);
   to->fixed = from->fixed;
   to->round = from->round;
   memcpy(to->slots, from->slots, sizeof to->slots);
}

/* No alternative noted (the hash set emptied by starting a round). */
static void forget_expected(struct expected *e)
{
   e->n = 0;
   e->range[0] = 0;
   e->fixed = 0;
   if (++e->round == 0) {
      memset(e->slots, 0, sizeof e->slots);
      e->round = 1;
   }
}

/* An entry of struct expected that stands for names from..to-1 of an enum
 * (`what` points at the enum), those the text did not have there: a
 * reading notes them as one, and report_expected names them (TGSI tries
 * its 244 opcode names at every token; noting each was an eighth of its
 * time).  `len` is NAMES | lax << 30 | from << 15 | to. */
#define NAMES 0x80000000u
#define NAMES_MOST 0x7FFF /* names of an enum noted as one; past that, each */

/* Note `what` (text, or NAMES) at m->pos, the furthest point read: the
 * alternatives there, each once. */
static void note(struct expected *e, size_t pos, const char *what, uint32_t len)
{
   if (pos < e->pos)
      return;
   if (pos > e->pos) {
      e->pos = pos;
      forget_expected(e);
   }
   if (e->n >= MAX_EXPECTED)
      return;
   uint32_t h = len & NAMES ? name_hash((const char *)&what, sizeof what) ^ len : name_hash(what, len);
   for (;; h++) {
      uint32_t *slot = &e->slots[h & (EXPECT_SLOTS - 1)];
      if (*slot == 0 || *slot >> 16 != e->round) {
         *slot = (uint32_t)e->round << 16 | (e->n + 1);
         e->what[e->n] = what;
         e->len[e->n++] = len;
         return;
      }
      unsigned i = (*slot & 0xFFFF) - 1;
      if (e->len[i] == len && (e->what[i] == what || (!(len & NAMES) && memcmp(e->what[i], what, len) == 0)))
         return;
   }
}

static void note_text(struct expected *e, size_t pos, const char *what, size_t len)
{
   while (len && isspace((unsigned char)*what)) { /* what it starts with, not the blanks before it */
      what++;
      len--;
   }
   if (len)
      note(e, pos, what, (uint32_t)len);
}

static void expect(struct matcher *m, const char *what, size_t len)
{
   if (m->pos >= m->exp.pos)
      note_text(&m->exp, m->pos, what, len);
}

/* Whether the text at `at` has enum name nm (a reading tries it there). */
static int has_name(const struct matcher *m, size_t at, const struct isa_asm_name *nm)
{
   return !nm->len || (at < m->len && same_char(m, m->text[at], nm->name[0]) && m->len - at >= nm->len &&
                       same_name(m, m->text + at, nm->name, nm->len));
}

/* Names from..to-1 of enum en, where the text at m->pos has none of them
 * (but maybe blank ones: those are not noted). */
static void expect_names(struct matcher *m, const struct isa_asm_enum *en, uint32_t from, uint32_t to)
{
   if (m->pos < m->exp.pos)
      return;
   if (to > NAMES_MOST || to - from == 1) {
      for (uint32_t i = from; i < to; i++)
         if (!has_name(m, m->pos, &en->names[i]))
            expect(m, en->names[i].name, en->names[i].len);
      return;
   }
   note(&m->exp, m->pos, (const char *)en, NAMES | (uint32_t)m->lax << 30 | from << 15 | to);
}

/* What e notes, names of enums one by one (as a reading with every name
 * noted by itself would have them): into `all`.  (has_name reads m->lax:
 * for each entry, the laxness of the reading that noted it.) */
static void expected_names(struct matcher *m, const struct expected *e, struct expected *all)
{
   memset(all, 0, sizeof *all);
   all->pos = e->pos;
   memcpy(all->range, e->range, sizeof all->range);
   all->fixed = e->fixed;
   int lax = m->lax;
   for (unsigned i = 0; i < e->n; i++) {
      if (!(e->len[i] & NAMES)) {
         note(all, all->pos, e->what[i], e->len[i]);
         continue;
      }
      const struct isa_asm_enum *en = (const struct isa_asm_enum *)(const void *)e->what[i];
      m->lax = (e->len[i] >> 30) & 1;
      for (uint32_t k = (e->len[i] >> 15) & NAMES_MOST; k < (e->len[i] & NAMES_MOST); k++)
         if (!has_name(m, e->pos, &en->names[k]))
            note_text(all, all->pos, en->names[k].name, en->names[k].len);
   }
   m->lax = lax;
}

/* Template text: its blanks match any run of blanks (none between two
 * punctuation marks, at least one between two words); the rest exactly. */
/* Blanks and comment lines up to, not across, an empty line (a line of
 * blanks alone): where every unit prints one, an empty line in the text
 * is a unit's end, and a template's line break stops before it. */
static void skip_to_empty_line(struct matcher *m, int expect)
{
   int at_line_start = 0; /* a line break was read, and blanks alone since */
   while (m->pos < m->len) {
      char c = m->text[m->pos];
      if (c == '\n') {
         if (at_line_start)
            break;
         at_line_start = 1;
         m->pos++;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
         m->pos++;
      } else if ((c == '#' || c == ';') && c != expect) {
         while (m->pos < m->len && m->text[m->pos] != '\n')
            m->pos++;
         at_line_start = 0;
      } else {
         break;
      }
   }
}

static int match_text(struct matcher *m, const char *s, size_t n)
{
   size_t i = 0;
   while (i < n) {
      if (isspace((unsigned char)s[i])) {
         size_t before = m->pos;
         int lines = 0, empty = 0;
         while (i < n && isspace((unsigned char)s[i])) {
            empty |= lines && s[i] == '\n';
            lines |= s[i++] == '\n';
         }
         if (lines && !empty && m->t->empty_lines)
            skip_to_empty_line(m, i < n ? s[i] : 0);
         else
            skip_blank(m, i < n ? s[i] : 0, lines);
         if (m->pos == before && before > 0 && before < m->len && is_word(m->text[before - 1]) &&
             is_word(m->text[before]))
            return 0;
         continue;
      }
      /* blanks the template does not have: between tokens, not inside a word */
      if (m->pos < m->len && isspace((unsigned char)m->text[m->pos]) &&
          !(m->pos > 0 && is_word(m->text[m->pos - 1]) && is_word(s[i])))
         skip_blank(m, s[i], 0);
      if (m->pos >= m->len || !same_char(m, m->text[m->pos], s[i]))
         return 0;
      m->pos++;
      i++;
   }
   return 1;
}

static int digit_value(int c)
{
   if (c >= '0' && c <= '9')
      return c - '0';
   if (c >= 'a' && c <= 'f')
      return c - 'a' + 10;
   if (c >= 'A' && c <= 'F')
      return c - 'A' + 10;
   return 99;
}

/* A number as format f prints it, of at most `most` digits: its value
 * and end; the number of digits read (0: there is none). */
static size_t read_number(const struct matcher *m, unsigned f, size_t most, int64_t *value, size_t *end)
{
   size_t p = m->pos;
   int neg = 0;
   unsigned base = 10;
   if (p < m->len && m->text[p] == '-' && (f == ISA_ASM_DEC || f == ISA_ASM_HEX_0X)) {
      neg = 1;
      p++;
   }
   if (f == ISA_ASM_HEX_0X || f == ISA_ASM_BIN_0B) {
      char x = f == ISA_ASM_HEX_0X ? 'x' : 'b';
      if (p + 1 >= m->len || m->text[p] != '0' || (m->text[p + 1] | 0x20) != x)
         return 0;
      p += 2;
   }
   if (f == ISA_ASM_HEX || f == ISA_ASM_HEX_0X)
      base = 16;
   else if (f == ISA_ASM_OCT)
      base = 8;
   else if (f == ISA_ASM_BIN || f == ISA_ASM_BIN_0B)
      base = 2;
   uint64_t u = 0;
   size_t digits = 0;
   while (p < m->len && digits < most && digits <= 64) {
      unsigned d = (unsigned)digit_value(m->text[p]);
      if (d >= base)
         break;
      if (u > (UINT64_MAX - d) / base)
         return 0;
      u = u * base + d;
      p++;
      digits++;
   }
   if (!digits || (neg && u > (uint64_t)INT64_MAX + 1))
      return 0;
   *value = neg ? (int64_t)(0 - u) : (int64_t)u;
   *end = p;
   return digits;
}

/* A number in a lax reading, whatever the format the printer uses there:
 * [-]digits or [-]0x hex digits, a whole word; the number of digits (0:
 * there is none). */
static size_t read_lax_number(const struct matcher *m, int64_t *value, size_t *end)
{
   size_t p = m->pos;
   int neg = p < m->len && m->text[p] == '-';
   p += neg || (p < m->len && m->text[p] == '+');
   unsigned base = 10;
   if (m->len - p > 2 && m->text[p] == '0' && (m->text[p + 1] | 0x20) == 'x' && isxdigit((unsigned char)m->text[p + 2])) {
      base = 16;
      p += 2;
   }
   uint64_t u = 0;
   size_t digits = 0;
   for (unsigned d; p < m->len && (d = (unsigned)digit_value(m->text[p])) < base; p++, digits++) {
      if (u > (UINT64_MAX - d) / base)
         return 0;
      u = u * base + d;
   }
   if (!digits || (p < m->len && (is_word(m->text[p]) || m->text[p] == '.')) || (neg && u > (uint64_t)INT64_MAX + 1))
      return 0;
   *value = neg ? (int64_t)(0 - u) : (int64_t)u;
   *end = p;
   return digits;
}

/* A floating-point number's text: [-]digits[.digits][e[+-]digits], inf or
 * nan (in a lax reading, also 0x and the bits); 0 when there is none. */
static int match_real(struct matcher *m, size_t *at, size_t *len)
{
   skip_blank(m, 0, 0);
   size_t p = m->pos, digits = 0;
   if (p < m->len && (m->text[p] == '-' || m->text[p] == '+'))
      p++;
   if (m->len - p >= 3 && (!memcmp(m->text + p, "inf", 3) || !memcmp(m->text + p, "nan", 3))) {
      p += 3;
   } else if (m->lax && m->len - p > 2 && m->text[p] == '0' && (m->text[p + 1] | 0x20) == 'x' &&
              isxdigit((unsigned char)m->text[p + 2]) && m->text[m->pos] != '-' && m->text[m->pos] != '+') {
      /* the bits, or a C hex float (0x1.8p1) */
      for (p += 2; p < m->len && (isxdigit((unsigned char)m->text[p]) || m->text[p] == '.');)
         p++;
      if (p + 1 < m->len && (m->text[p] | 0x20) == 'p') {
         size_t q = p + 1 + (m->text[p + 1] == '-' || m->text[p + 1] == '+');
         if (q < m->len && isdigit((unsigned char)m->text[q])) {
            while (q < m->len && isdigit((unsigned char)m->text[q]))
               q++;
            p = q;
         }
      }
   } else {
      while (p < m->len && m->text[p] >= '0' && m->text[p] <= '9')
         p++, digits++;
      if (p < m->len && m->text[p] == '.') {
         p++;
         while (p < m->len && m->text[p] >= '0' && m->text[p] <= '9')
            p++, digits++;
      }
      if (!digits)
         return 0;
      if (p + 1 < m->len && (m->text[p] == 'e' || m->text[p] == 'E')) {
         size_t q = p + 1;
         if (q < m->len && (m->text[q] == '-' || m->text[q] == '+'))
            q++;
         if (q < m->len && m->text[q] >= '0' && m->text[q] <= '9') {
            while (q < m->len && m->text[q] >= '0' && m->text[q] <= '9')
               q++;
            p = q;
         }
      }
   }
   *at = m->pos;
   *len = p - m->pos;
   m->pos = p;
   return 1;
}

/* ---- variables --------------------------------------------------------------- */

/* A variable's C member: what reflect.c's isa_member_get and
 * isa_member_set do for a field descriptor, here for a variable of the
 * tables (building a descriptor per access made the matcher 13% slower:
 * these are its innermost reads and writes). */
static int64_t load(const unsigned char *p, const struct isa_asm_var *v)
{
   switch (v->c_size) {
   case 1: {
      if (v->is_signed) {
         int8_t x;
         memcpy(&x, p, 1);
         return x;
      }
      uint8_t x;
      memcpy(&x, p, 1);
      return x;
   }
   case 2: {
      if (v->is_signed) {
         int16_t x;
         memcpy(&x, p, 2);
         return x;
      }
      uint16_t x;
      memcpy(&x, p, 2);
      return x;
   }
   case 4: {
      if (v->is_signed) {
         int32_t x;
         memcpy(&x, p, 4);
         return x;
      }
      uint32_t x;
      memcpy(&x, p, 4);
      return x;
   }
   default: {
      int64_t x;
      memcpy(&x, p, 8);
      return x;
   }
   }
}

static void store(unsigned char *p, const struct isa_asm_var *v, int64_t value)
{
   switch (v->c_size) {
   case 1: {
      uint8_t x = (uint8_t)value;
      memcpy(p, &x, 1);
      break;
   }
   case 2: {
      uint16_t x = (uint16_t)value;
      memcpy(p, &x, 2);
      break;
   }
   case 4: {
      uint32_t x = (uint32_t)value;
      memcpy(p, &x, 4);
      break;
   }
   default:
      memcpy(p, &value, 8);
      break;
   }
}

static int fits(const struct isa_asm_var *v, int64_t x)
{
   if (v->width >= 64)
      return 1;
   if (v->is_signed)
      return x >= -((int64_t)1 << (v->width - 1)) && x < ((int64_t)1 << (v->width - 1));
   return x >= 0 && (uint64_t)x < ((uint64_t)1 << v->width);
}

static int push_trail(struct matcher *m, uint8_t kind, uint32_t where, uint32_t slot, int64_t old)
{
   if (m->n_trail >= MAX_TRAIL) {
      m->overflow = 1;
      return 0;
   }
   m->trail[m->n_trail++] = (struct trail){kind, where, slot, old};
   return 1;
}

static void undo(struct matcher *m, unsigned to)
{
   while (m->n_trail > to) {
      struct trail *r = &m->trail[--m->n_trail];
      if (r->kind == TR_FIELD) {
         store(m->unit + r->where, &m->t->vars[r->slot], r->old);
         m->known[r->where] = 0;
      } else if (r->kind == TR_PARAM) {
         m->frames[r->where].known &= (uint16_t)~(1u << r->slot);
      } else if (r->kind == TR_KNOWN) {
         memset(m->known + r->where, 0, r->slot);
      } else if (r->kind == TR_DOMAIN) {
         if (r->slot == 4)
            m->narrowed[r->where] = 0;
         else
            m->domain[4 * (size_t)r->where + r->slot] = (uint64_t)r->old;
      } else if (r->kind == TR_WATCH) {
         m->watch_head[r->where] = (uint32_t)r->old;
         m->n_watch--;
      } else {
         m->cons[r->where].done = 0;
         m->waiting[r->where / 64] |= (uint64_t)1 << (r->where % 64);
      }
   }
}

/* Where variable `read` of frame f is in the unit: SIZE_MAX for an
 * element past its item's or array's most (which the expressions read as
 * 0), AT_UNKNOWN for one whose index is not known yet. */
#define AT_UNKNOWN (SIZE_MAX - 1)
static int read_known(const struct matcher *m, int32_t read, unsigned f);

/* Where the struct variable v of frame f is a field of starts, in the
 * unit: the frame's own, or for a struct parameter's field the address
 * the parameter holds (the argument's, always known); AT_UNKNOWN or
 * SIZE_MAX as var_at. */
static size_t var_scope(const struct matcher *m, const struct isa_asm_var *v, unsigned f)
{
   const struct frame *fr = &m->frames[f];
   if (!v->base)
      return fr->scope;
   uintptr_t p = (uintptr_t)fr->params[v->base - 1], u = (uintptr_t)m->unit;
   if (!((fr->known >> (v->base - 1)) & 1))
      return AT_UNKNOWN;
   if (p < u || p - u >= m->unit_size)
      return SIZE_MAX;
   return (size_t)(p - u);
}

static size_t var_at_computed(const struct matcher *m, const struct isa_asm_var *v, unsigned f)
{
   const struct frame *fr = &m->frames[f];
   size_t scope = var_scope(m, v, f);
   if (scope >= AT_UNKNOWN)
      return scope;
   int64_t i;
   if (v->index) {
      /* an array element at a computed index: once what it reads is known */
      const struct isa_asm_expr *e = &m->t->exprs[v->index - 1];
      for (unsigned k = 0; k < e->n; k++)
         if (!read_known(m, m->t->reads[e->first + k], f))
            return AT_UNKNOWN;
      i = e->eval(m->unit + fr->scope, fr->params, &m->ctx);
      if (i < 0 || i >= v->count)
         return SIZE_MAX;
      return scope + v->offset + (size_t)i * v->stride;
   }
   if (!v->slot)
      return scope + v->offset;
   i = fr->params[v->slot - 1];
   if (i < 0 || i >= v->count)
      return SIZE_MAX;
   i = i * v->scale + v->add;
   if (i >= v->count)
      return SIZE_MAX;
   return scope + v->offset + (size_t)i * v->stride;
}

/* (most variables are a field of the frame's own struct: no lookup) */
static inline size_t var_at(const struct matcher *m, int32_t read, unsigned f)
{
   const struct isa_asm_var *v = &m->t->vars[read];
   if (!v->base && !v->index && !v->slot)
      return m->frames[f].scope + v->offset;
   return var_at_computed(m, v, f);
}

/* read k of an expression, in frame f: known? its value? */
static int read_known(const struct matcher *m, int32_t read, unsigned f)
{
   if (read < 0)
      return (m->frames[f].known >> (-1 - read)) & 1;
   size_t at = var_at(m, read, f);
   return at == SIZE_MAX || (at != AT_UNKNOWN && m->known[at]);
}

/* Whether read k's place is known (a field's: its index is). */
static int read_placed(const struct matcher *m, int32_t read, unsigned f)
{
   return read < 0 || var_at(m, read, f) != AT_UNKNOWN;
}

/* Whether value x is left in the domain of the field at byte `at`. */
static int in_domain(const struct matcher *m, size_t at, const struct isa_asm_var *v, int64_t x)
{
   if (v->width > 8 || !m->narrowed[at])
      return 1;
   uint64_t i = (uint64_t)x & ((1u << v->width) - 1); /* as probe counts them: the field's bits */
   return (m->domain[4 * at + i / 64] >> (i % 64)) & 1;
}

/* The place of parameter `slot` of frame f, after the unit's bytes. */
static size_t param_place(const struct matcher *m, unsigned f, unsigned slot)
{
   return m->unit_size + (size_t)f * ISA_ASM_MAX_PARAMS + slot;
}

/* Place p became known: what waits on it is worked again. */
static void notify(struct matcher *m, size_t p)
{
   if (m->trying)
      return;
   for (uint32_t w = m->watch_head[p]; w; w = m->watch[w - 1].next) {
      unsigned c = m->watch[w - 1].con;
      uint64_t bit = (uint64_t)1 << (c % 64);
      if (c < m->n_cons && !m->cons[c].done && !(m->pending[c / 64] & bit)) {
         m->pending[c / 64] |= bit;
         m->notified[c / 64] |= bit;
         m->n_pending++;
      }
   }
}

static unsigned first_set_bit(uint64_t x)
{
#if defined(__GNUC__)
   return (unsigned)__builtin_ctzll(x);
#else
   unsigned n = 0;
   while (!(x & 1)) {
      x >>= 1;
      n++;
   }
   return n;
#endif
}

/* The first equation of set `bits` at or after *j, if any. */
static int next_in(const struct matcher *m, const uint64_t *bits, unsigned *j)
{
   for (unsigned w = *j / 64; 64 * w < m->n_cons; w++) {
      uint64_t b = bits[w] & (w == *j / 64 ? ~(uint64_t)0 << (*j % 64) : ~(uint64_t)0);
      if (b) {
         *j = 64 * w + first_set_bit(b);
         return *j < m->n_cons;
      }
   }
   return 0;
}

static int next_notified(const struct matcher *m, unsigned *j)
{
   return next_in(m, m->notified, j);
}

static int next_waiting(const struct matcher *m, unsigned *j)
{
   return next_in(m, m->waiting, j);
}

/* Equation i holds: done, until undone. */
static int set_done(struct matcher *m, unsigned i)
{
   if (!push_trail(m, TR_DONE, i, 0, 0))
      return 0;
   m->cons[i].done = 1;
   m->waiting[i / 64] &= ~((uint64_t)1 << (i % 64));
   return 1;
}

static void clear_notified(struct matcher *m)
{
   memset(m->notified, 0, (m->n_cons + 63) / 64 * sizeof m->notified[0]);
}

static void clear_pending(struct matcher *m)
{
   if (m->n_pending)
      memset(m->pending, 0, sizeof m->pending);
   m->n_pending = 0;
}

static int assign(struct matcher *m, int32_t read, unsigned f, int64_t x)
{
   if (read < 0) {
      unsigned slot = (unsigned)(-1 - read);
      if (!push_trail(m, TR_PARAM, f, slot, 0))
         return 0;
      m->frames[f].params[slot] = x;
      m->frames[f].known |= (uint16_t)(1u << slot);
      notify(m, param_place(m, f, slot));
      return 1;
   }
   const struct isa_asm_var *v = &m->t->vars[read];
   size_t at = var_at(m, read, f);
   if (at >= AT_UNKNOWN)
      return 0;
   if (fits(v, x) && !in_domain(m, at, v, x))
      return 0; /* a value probe found no reading with */
   if (!fits(v, x) || (v->most && x > v->most)) {
      /* (not for a {for}'s bound, which tries every count at its start:
       * the counts the text does not have say nothing) */
      if (!m->trying_bounds && m->pos >= m->exp.pos) {
         if (v->most)
            snprintf(m->exp.range, sizeof m->exp.range, "at most %u of them", (unsigned)v->most);
         else
            snprintf(m->exp.range, sizeof m->exp.range, "a value that fits %u %s bits (found %lld)", v->width,
                     v->is_signed ? "signed" : "unsigned", (long long)x);
         m->exp.fixed = 0;
         m->exp.pos = m->pos;
      }
      return 0;
   }
   if (!push_trail(m, TR_FIELD, (uint32_t)at, (uint32_t)read, load(m->unit + at, v)))
      return 0;
   store(m->unit + at, v, x);
   m->known[at] = 1;
   notify(m, at);
   if (v->item_size && x == 0) {
      /* an absent item: its fields are no bits of the encoding; what
       * reads them (Midgard's units' registers, behind their enable bits)
       * reads them as they stand */
      size_t from = at - v->offset + v->item_offset, end = from + v->item_size;
      for (size_t i = from; i < end && i < m->unit_size;) {
         size_t run = i;
         while (run < end && run < m->unit_size && !m->known[run])
            run++;
         if (run > i) {
            if (!push_trail(m, TR_KNOWN, (uint32_t)i, (uint32_t)(run - i), 0))
               return 0;
            memset(m->known + i, 1, run - i);
            for (size_t b = i; b < run; b++)
               notify(m, b);
         }
         i = run + 1;
      }
   }
   return 1;
}

/* ---- equations ------------------------------------------------------------------ */

static const struct isa_asm_expr *expr_of(const struct matcher *m, const struct side *s)
{
   return &m->t->exprs[s->id];
}

static unsigned unknowns(const struct matcher *m, const struct side *s, unsigned *which)
{
   if (s->kind == SIDE_CONST)
      return 0;
   if (s->kind == SIDE_PARAM) {
      *which = 0;
      return !((m->frames[s->frame].known >> s->id) & 1);
   }
   const struct isa_asm_expr *e = expr_of(m, s);
   unsigned n = 0;
   for (unsigned i = 0; i < e->n; i++)
      if (!read_known(m, m->t->reads[e->first + i], s->frame)) {
         *which = i;
         n++;
      }
   return n;
}

static int64_t value_of(const struct matcher *m, const struct side *s)
{
   if (s->kind == SIDE_CONST)
      return s->value;
   const struct frame *f = &m->frames[s->frame];
   if (s->kind == SIDE_PARAM)
      return f->params[s->id];
   return expr_of(m, s)->eval(m->unit + f->scope, f->params, &m->ctx);
}

enum { FAIL, WAIT, DONE };

/* The guess of read `which` of side s for `want`, with `alt` for the bits
 * the guess drops: assigned, and whether s then is want. */
static int guess_alt(struct matcher *m, const struct side *s, unsigned which, int64_t want, int64_t alt)
{
   const struct isa_asm_expr *e = expr_of(m, s);
   const struct frame *f = &m->frames[s->frame];
   int64_t x = e->propose(m->unit + f->scope, f->params, &m->ctx, which, want, alt);
   return assign(m, m->t->reads[e->first + which], s->frame, x) && value_of(m, s) == want;
}

/* Make side s equal want, if it has one unknown variable with a guess. */
static int solve(struct matcher *m, const struct side *s, int64_t want)
{
   unsigned which = 0, n = unknowns(m, s, &which);
   if (n == 0)
      return value_of(m, s) == want ? DONE : FAIL;
   if (n > 1 && !(s->kind == SIDE_EXPR && expr_of(m, s)->separable))
      return WAIT;
   if (s->kind == SIDE_PARAM)
      return assign(m, -1 - s->id, s->frame, want) ? DONE : FAIL;
   const struct isa_asm_expr *e = expr_of(m, s);
   for (unsigned i = 0; i < e->n; i++)
      if (!read_placed(m, m->t->reads[e->first + i], s->frame))
         return WAIT; /* an element whose index is not known yet */
   if (n > 1) {
      /* fields side by side: each its own bits of want */
      const struct frame *f = &m->frames[s->frame];
      for (unsigned i = 0; i < e->n; i++) {
         int32_t read = m->t->reads[e->first + i];
         if (!read_known(m, read, s->frame) &&
             !assign(m, read, s->frame, e->propose(m->unit + f->scope, f->params, &m->ctx, i, want, 0)))
            return FAIL;
      }
      return value_of(m, s) == want ? DONE : FAIL;
   }
   if (which >= 32 || !((e->proposes >> which) & 1) || m->t->free[e->first + which])
      return WAIT; /* no guess, or one that needs trying (close_from) */
   return guess_alt(m, s, which, want, 0) ? DONE : FAIL;
}

/* what prints_as reads a binary32's bits as: a value of eval_real */
static double no_eval_real(const void *self, const int64_t *params, const struct isa_ctx *ctx)
{
   (void)self;
   (void)params;
   (void)ctx;
   return 0;
}
static const struct isa_asm_expr f32_value = {0, no_eval_real, 0, 0, 0, 0, 0, 0, 0, 0};

/* Whether expr a of c, printed as the goal said, is the number's text. */
static int prints_as(struct matcher *m, const struct con *c)
{
   char buf[512]; /* %10.8f of a binary64 near its largest: 320 characters */
   struct isa_out o;
   const struct frame *f = &m->frames[c->a.frame];
   const struct isa_asm_expr *e = expr_of(m, &c->a);
   const void *self = m->unit + f->scope;
   double d = e->eval_real ? e->eval_real(self, f->params, &m->ctx) : 0;
   int64_t i = e->eval ? e->eval(self, f->params, &m->ctx) : 0;
   if (c->arg & (ISA_ASM_F32_BITS | ISA_ASM_F64_BITS)) {
      d = c->arg & ISA_ASM_F32_BITS ? isa_f32_to_double((uint64_t)i) : isa_f64_to_double((uint64_t)i);
      i = 0;
      e = &f32_value;
   }
   isa_out_buffer(&o, buf, sizeof buf);
   switch (c->truth) {
   case ISA_ASM_REPR:
      isa_out_pyfloat(&o, e->eval_real ? d : (double)i);
      break;
   case ISA_ASM_G:
      isa_out_g(&o, e->eval_real ? d : (double)i);
      break;
   case ISA_ASM_FIXED:
      isa_out_fixed(&o, e->eval_real ? d : (double)i, (unsigned)(c->arg >> 8 & 255), (unsigned)(c->arg & 255));
      break;
   case ISA_ASM_HALF_F:
      isa_out_half_f(&o, (uint64_t)i);
      break;
   default:
      isa_out_g(&o, isa_half_to_double((uint64_t)i));
      break;
   }
   size_t n = isa_out_len(&o), k = 0;
   if (n >= sizeof buf)
      return 0;
   while (k < n && buf[k] == ' ') /* a width's padding: blanks the matcher skipped */
      k++;
   return n - k == c->len && memcmp(buf + k, m->text + c->at, c->len) == 0;
}

/* The bits of the half, binary32 or binary64 (as c's goal says) nearest
 * c's number; in a lax reading, 0x digits are the bits themselves. */
static int float_bits(const struct matcher *m, const struct con *c, int64_t *bits)
{
   char num[512];
   memcpy(num, m->text + c->at, c->len);
   num[c->len] = 0;
   int half = c->truth == ISA_ASM_HALF_F || c->truth == ISA_ASM_HALF_G, f32 = (c->arg & ISA_ASM_F32_BITS) != 0;
   if (m->lax && c->len > 2 && num[0] == '0' && (num[1] | 0x20) == 'x' && !strpbrk(num, ".pP")) {
      errno = 0;
      unsigned long long u = strtoull(num + 2, NULL, 16);
      if (errno || (half && u > 0xFFFF) || (f32 && u > 0xFFFFFFFFu))
         return 0;
      *bits = (int64_t)u;
      return 1;
   }
   double d = strtod(num, NULL);
   /* (a double past a float's range converts as infinity, not as undefined behaviour) */
   float x = d > FLT_MAX ? INFINITY : d < -FLT_MAX ? -INFINITY : (float)d;
   uint32_t bits32;
   uint64_t bits64;
   memcpy(&bits32, &x, sizeof bits32);
   memcpy(&bits64, &d, sizeof bits64);
   *bits = half ? (int64_t)isa_double_to_half(d) : f32 ? (int64_t)bits32 : (int64_t)bits64;
   return 1;
}

/* Whether equation c (not a number's), every read of which is known,
 * holds. */
static int holds(const struct matcher *m, const struct con *c)
{
   if (c->check == CON_EQ)
      return value_of(m, &c->a) == value_of(m, &c->b);
   if (c->check == CON_LE)
      return value_of(m, &c->a) <= value_of(m, &c->b);
   return (value_of(m, &c->a) != 0) == c->truth;
}

static int try_con(struct matcher *m, struct con *c)
{
   unsigned w;
   if (c->check == CON_TEXT) {
      unsigned n = unknowns(m, &c->a, &w);
      int half = c->truth == ISA_ASM_HALF_F || c->truth == ISA_ASM_HALF_G;
      int f32 = (c->arg & ISA_ASM_F32_BITS) != 0, f64 = (c->arg & ISA_ASM_F64_BITS) != 0;
      int64_t want = 0;
      int bits = (n >= 1 || m->lax) && (half || f32 || f64) && c->len < 512 && float_bits(m, c, &want);
      if (n >= 1 && bits) {
         /* a half, binary32 or binary64: the one nearest the number is the guess */
         int r = solve(m, &c->a, want);
         if (r != DONE)
            return r;
         n = 0;
      }
      if (n && (c->arg & ISA_ASM_SCALED) && c->len < 512) {
         /* a fixed-point value: the integer nearest the number over the scale */
         char num[512];
         memcpy(num, m->text + c->at, c->len);
         num[c->len] = 0;
         const struct frame *f = &m->frames[c->b.frame];
         double d = strtod(num, NULL), k = m->t->exprs[c->scale].eval_real(m->unit + f->scope, f->params, &m->ctx);
         if (c->arg & ISA_ASM_NEGATED)
            d = -d;
         double q = k != 0 ? nearbyint(d / k) : 0;
         if (!(q > -9.0e18 && q < 9.0e18))
            return FAIL;
         unsigned mark = m->n_trail;
         int r = solve(m, &c->b, (int64_t)q);
         if (r == FAIL && (c->arg & ISA_ASM_ABS) && q != 0) {
            /* under abs(): the negative one (-32768 fits where 32768 does not) */
            undo(m, mark);
            r = solve(m, &c->b, (int64_t)-q);
         }
         if (r != DONE)
            return r;
         n = unknowns(m, &c->a, &w);
      }
      if (n)
         return WAIT;
      if (m->lax && bits) /* the number in any form: its value is what counts */
         return value_of(m, &c->a) == want ? DONE : FAIL;
      return prints_as(m, c) ? DONE : FAIL;
   }
   if (c->check == CON_LE) {
      if (unknowns(m, &c->a, &w) || unknowns(m, &c->b, &w))
         return WAIT;
      return holds(m, c) ? DONE : FAIL;
   }
   if (c->check) {
      if (unknowns(m, &c->a, &w))
         return WAIT;
      if (holds(m, c))
         return DONE;
      m->rule_failed |= c->check == CON_RULE;
      return FAIL;
   }
   if (!unknowns(m, &c->b, &w))
      return solve(m, &c->a, value_of(m, &c->b));
   if (!unknowns(m, &c->a, &w))
      return solve(m, &c->b, value_of(m, &c->a));
   return WAIT;
}

static int watch_con(struct matcher *m, unsigned i);

/* Waiting equation i, worked once: FAIL (nothing pending is left then),
 * DONE (and marked so), or WAIT. */
static int work(struct matcher *m, unsigned i)
{
   int r = try_con(m, &m->cons[i]);
   if (r == FAIL || m->overflow) {
      clear_pending(m);
      return FAIL;
   }
   return r == DONE && !set_done(m, i) ? FAIL : r;
}

/* Work the waiting equations until none moves; 0 when one fails.  Only
 * those a place they read became known since they were last worked can
 * move (the watches), unless all must be worked (rescan). */
static int settle(struct matcher *m)
{
   if (++m->steps > STEP_BUDGET) {
      m->overflow = 1;
      return 0;
   }
   if (!m->rescan && !m->watch_full) {
      for (unsigned w = 0; m->n_pending;) {
         while (!m->pending[w])
            w++;
         unsigned i = 64 * w + first_set_bit(m->pending[w]);
         m->pending[w] &= m->pending[w] - 1;
         m->n_pending--;
         if (i >= m->n_cons || m->cons[i].done)
            continue;
         int r = work(m, i);
         if (r == FAIL || (r == WAIT && m->cons[i].indexed && !watch_con(m, i)))
            return 0;
         w = 0; /* the lowest first, as the equations were added */
      }
      return 1;
   }
   m->rescan = 0;
   clear_pending(m);
   int moved = 1;
   while (moved) {
      moved = 0;
      for (unsigned i = 0; i < m->n_cons; i++) {
         if (m->cons[i].done)
            continue;
         unsigned before = m->n_trail;
         int r = work(m, i);
         if (r == FAIL || (r == WAIT && m->cons[i].indexed && !watch_con(m, i)))
            return 0;
         moved |= r == DONE || m->n_trail != before;
      }
   }
   clear_pending(m); /* (what the last pass set moved nothing) */
   return 1;
}

/* Equation i waits on place p. */
static int watch_place(struct matcher *m, size_t p, unsigned i)
{
   uint32_t h = m->watch_head[p];
   if (h && m->watch[h - 1].con == i)
      return 1;
   if (m->n_watch >= MAX_WATCH || m->n_trail >= MAX_TRAIL / 2) {
      m->watch_full = 1; /* settle works them all, for the rest of the unit */
      return 1;
   }
   if (!push_trail(m, TR_WATCH, (uint32_t)p, 0, h))
      return 0;
   m->watch[m->n_watch] = (struct watch){i, h, (uint32_t)p};
   m->watch_head[p] = ++m->n_watch;
   return 1;
}

/* Equation i waits on the places side s reads that are not known: its
 * parameters, its fields, and for an element at an index not known yet,
 * what the index reads (the element's place is watched once it is
 * known: the equation is then worked, and watches again). */
static int watch_side(struct matcher *m, const struct side *s, unsigned i, unsigned depth)
{
   if (s->kind == SIDE_CONST || depth > 8)
      return 1;
   const struct frame *f = &m->frames[s->frame];
   if (s->kind == SIDE_PARAM)
      return (f->known >> s->id) & 1 || watch_place(m, param_place(m, s->frame, (unsigned)s->id), i);
   const struct isa_asm_expr *e = expr_of(m, s);
   for (unsigned k = 0; k < e->n; k++) {
      int32_t r = m->t->reads[e->first + k];
      if (r < 0) {
         if (!((f->known >> (-1 - r)) & 1) && !watch_place(m, param_place(m, s->frame, (unsigned)(-1 - r)), i))
            return 0;
         continue;
      }
      size_t at = var_at(m, r, s->frame);
      if (at == AT_UNKNOWN) {
         const struct isa_asm_var *v = &m->t->vars[r];
         struct side index = {SIDE_EXPR, s->frame, v->index ? v->index - 1 : 0, 0};
         m->cons[i].indexed = 1;
         if (v->base && !((f->known >> (v->base - 1)) & 1) &&
             !watch_place(m, param_place(m, s->frame, v->base - 1u), i))
            return 0;
         if (v->index && !watch_side(m, &index, i, depth + 1))
            return 0;
         continue;
      }
      if (at != SIZE_MAX && !m->known[at] && !watch_place(m, at, i))
         return 0;
   }
   return 1;
}

static int watch_con(struct matcher *m, unsigned i)
{
   struct con *c = &m->cons[i];
   return watch_side(m, &c->a, i, 0) && watch_side(m, &c->b, i, 0);
}

static int probe_to(struct matcher *m, unsigned i, int *open);
static int probe_notified(struct matcher *m);

static int few_text_bits(const struct matcher *m, unsigned i);

static int add_con(struct matcher *m, struct con c)
{
   if (m->n_cons >= MAX_CONS) {
      m->overflow = 1;
      return 0;
   }
   unsigned i = m->n_cons++;
   m->cons[i] = c;
   m->waiting[i / 64] |= (uint64_t)1 << (i % 64);
   /* (pending only once a place it reads becomes known) */
   if (m->pending[i / 64] & ((uint64_t)1 << (i % 64))) {
      m->pending[i / 64] &= ~((uint64_t)1 << (i % 64));
      m->n_pending--;
   }
   /* the new equation alone; the others only if it told a value */
   clear_notified(m);
   int r = work(m, i);
   if (r == FAIL || (r == WAIT && !watch_con(m, i)))
      return 0;
   if ((m->n_pending || m->rescan) && !settle(m))
      return 0;
   /* (not while a unit of one line is read: its equations are closed at
    * the line's end, a few goals on, and probing them first cost AGX, Lima
    * PP and TGSI more than the branches it cut; but a number's equation
    * over a few bits is probed: AGX's float immediate has six cases, each
    * printing a half of other bits of v, and a number read through a wrong
    * one waited for the closing search to refute it, so that three
    * immediates made 216 readings) */
   if (!m->t->multiline && c.check == CON_TEXT && r == WAIT && few_text_bits(m, i))
      return probe_to(m, i, NULL);
   if (!m->t->multiline || c.check == CON_RULE)
      return 1;
   /* it, and what waits on the values it told (a parameter's value that
    * its argument cannot take fails here: Midgard's constant lane read
    * as 64-bit where the lanes are 16) */
   return (r == DONE || probe_to(m, i, NULL)) && probe_notified(m);
}

static struct side expr_side(const struct matcher *m, int32_t e)
{
   return (struct side){SIDE_EXPR, (uint16_t)m->frame, e, 0};
}

static struct side const_side(int64_t v)
{
   return (struct side){SIDE_CONST, 0, 0, v};
}

/* Whether the text read so far ends a line: only blanks between the last
 * line end read and here, or between here and the next line end. */
static int at_line_end(const struct matcher *m)
{
   size_t p = m->pos;
   while (p > m->start && (m->text[p - 1] == ' ' || m->text[p - 1] == '\t' || m->text[p - 1] == '\r'))
      p--;
   if (p > m->start && m->text[p - 1] == '\n')
      return 1;
   p = m->pos;
   while (p < m->len && (m->text[p] == ' ' || m->text[p] == '\t' || m->text[p] == '\r'))
      p++;
   if (p < m->len && (m->text[p] == '#' || m->text[p] == ';'))
      return 1; /* a comment ends the line */
   return p >= m->len || m->text[p] == '\n';
}

/* ---- labels ------------------------------------------------------------------- */

struct diags;
static void report(struct diags *ds, size_t at, const char *fmt, ...) ISA_PRINTF(3, 4);

/* The length of the identifier at `at` ([A-Za-z_][A-Za-z0-9_]*), or 0
 * (a label's name is at most MAX_LABEL of it). */
static size_t word_len(const struct matcher *m, size_t at)
{
   size_t n = 0;
   if (at >= m->len || !(isalpha((unsigned char)m->text[at]) || m->text[at] == '_'))
      return 0;
   while (at + n < m->len && (isalnum((unsigned char)m->text[at + n]) || m->text[at + n] == '_'))
      n++;
   return n;
}

/* Label name[0..len), or NULL; with `add`, added (at offset) when it is not
 * there (NULL when memory runs out). */
static struct label *find_label(struct labels *l, const char *name, size_t len, int add, uint64_t offset)
{
   uint32_t mask = l->cap * 2 - 1, i = l->cap ? name_hash(name, len) & mask : 0;
   for (; l->cap && l->slots[i]; i = (i + 1) & mask) {
      struct label *lb = &l->v[l->slots[i] - 1];
      if (lb->len == len && memcmp(lb->name, name, len) == 0)
         return lb;
   }
   if (!add)
      return NULL;
   if (l->n == l->cap) {
      unsigned cap = l->cap ? 2 * l->cap : 16;
      struct label *v = (struct label *)realloc(l->v, cap * sizeof *v);
      uint32_t *slots = (uint32_t *)calloc((size_t)cap * 2, sizeof *slots);
      if (v)
         l->v = v;
      if (!v || !slots || cap > UINT32_MAX / 4) {
         free(slots);
         return NULL;
      }
      free(l->slots);
      l->slots = slots;
      l->cap = cap;
      mask = cap * 2 - 1;
      for (unsigned k = 0; k < l->n; k++) { /* the names again, in the bigger table */
         uint32_t j = name_hash(l->v[k].name, l->v[k].len) & mask;
         while (slots[j])
            j = (j + 1) & mask;
         slots[j] = k + 1;
      }
      i = name_hash(name, len) & mask;
      while (slots[i])
         i = (i + 1) & mask;
   }
   l->v[l->n] = (struct label){name, (uint32_t)len, offset, 0};
   l->slots[i] = ++l->n;
   return &l->v[l->n - 1];
}

/* The number label name[0..len) stands for: what the listing prefix prints
 * for the unit at its offset.  One not known yet (used before its line):
 * this unit's own, and another pass; 0 in the last pass (an error). */
static int label_value(struct matcher *m, const char *name, size_t len, int64_t *v)
{
   struct labels *l = m->labels;
   struct label *lb = len <= MAX_LABEL ? find_label(l, name, len, 0, 0) : NULL;
   struct isa_ctx c = m->ctx;
   if (!lb || !lb->pass) {
      /* (every label is found in the first pass: one not known after it never is) */
      if (l->final || l->pass > 1)
         return 0;
      l->again = 1;
   } else {
      c.offset = lb->offset;
   }
   *v = m->t->exprs[m->t->place].eval(NULL, NULL, &c);
   return 1;
}

static int prefix_here(struct matcher *m, uint64_t offset);

/* What the check (same_text) does at a span of the text, instead of
 * comparing it with what is printed there. */
enum span_kind {
   SPAN_WORD,   /* a label, or a number taken as the text says: printed, a word or number */
   SPAN_NUMBER, /* a number in a lax reading (-1 for -1.0000, 0x3f800000): printed, a number */
   SPAN_TEXT,   /* a lax reading's {if} body the printer leaves out (COLOR[0]): printed, nothing */
   SPAN_SKIP    /* an {optional} the text leaves out (len 0), or attributes in another order than
                 * printed: printed, whatever the rest follows */
};

/* Text m->text[m->pos..+len) that the unit's check does not compare with
 * what is printed there, read past (the caller made sure there is room:
 * n_spans < MAX_SPANS). */
static void add_span(struct matcher *m, size_t len, uint8_t kind)
{
   m->span_at[m->n_spans] = m->pos;
   m->span_kind[m->n_spans] = kind;
   m->span_len[m->n_spans++] = (uint32_t)len;
   m->pos += len;
}

/* A label at m->pos (name: then a blank or the line's end): noted at
 * `offset`, and read past; 0 when there is none. */
static int label_here(struct matcher *m, uint64_t offset, struct diags *ds)
{
   struct labels *l = m->labels;
   size_t at = m->pos, n = word_len(m, at);
   if (!n || at + n >= m->len || m->text[at + n] != ':' ||
       (at + n + 1 < m->len && !isspace((unsigned char)m->text[at + n + 1])) || prefix_here(m, offset))
      return 0;
   struct label *lb = n <= MAX_LABEL ? find_label(l, m->text + at, n, 1, offset) : NULL;
   if (n > MAX_LABEL) {
      report(ds, at, "a label's name is at most %d characters", MAX_LABEL);
   } else if (!lb) {
      return 0; /* no memory for it: the line is read as a unit's, and fails */
   } else if (lb->pass == l->pass) {
      report(ds, at, "label '%.*s' is defined twice", (int)n, m->text + at);
   } else {
      if (lb->pass && lb->offset != offset)
         l->again = 1; /* it moved: what used it must be read again */
      lb->offset = offset;
      lb->pass = l->pass;
   }
   m->pos = at + n + 1;
   return 1;
}

/* ---- matching ----------------------------------------------------------------- */

struct saved {
   size_t pos;
   unsigned n_trail, n_cons, n_frames, frame, undefined, n_spans, laxed;
   int unsettled; /* some equations were pending */
};

static struct saved save(const struct matcher *m)
{
   return (struct saved){m->pos,       m->n_trail, m->n_cons, m->n_frames,           m->frame,
                         m->undefined, m->n_spans, m->laxed,  m->n_pending || m->rescan};
}

/* Back to state s.  What is pending now is of changes undone; what was
 * pending then may since have been worked, so then all of them are. */
static void restore(struct matcher *m, const struct saved *s)
{
   undo(m, s->n_trail);
   clear_pending(m);
   m->rescan |= s->unsettled;
   m->pos = s->pos;
   m->n_cons = s->n_cons;
   m->n_frames = s->n_frames;
   m->frame = s->frame;
   m->undefined = s->undefined;
   m->n_spans = s->n_spans;
   m->laxed = s->laxed;
}

enum cont_kind { K_SEQ, K_NONEMPTY, K_EMPTY, K_STOP, K_FOR, K_ITEM, K_LAX };

/* What comes after the goals at hand: the rest of a sequence (in its
 * frame), or the next item of a list once the item at hand printed
 * something (K_NONEMPTY) or nothing (K_EMPTY), or whatever it printed
 * (K_ITEM: an item with a condition), or the rest after a lax reading's
 * {if} body (K_LAX: the text it read, from `mark`, is one span; the spans
 * inside it, from span `item` on, go). */
struct cont {
   uint8_t kind;
   const uint32_t *seq;
   unsigned n;
   unsigned frame;
   const struct isa_asm_goal *list; /* K_NONEMPTY, K_EMPTY: the {list}; K_FOR: the {for} */
   unsigned item;                   /* the list's next item */
   int first;                       /* no item of the list printed yet */
   size_t mark;                     /* where the item at hand started */
   int64_t i, end;                  /* K_FOR: the next value of the loop variable, and the bound */
   const struct cont *next;
};

static int run(struct matcher *m, const uint32_t *seq, unsigned n, const struct cont *k);
static int finish(struct matcher *m);
static int lossy(const struct matcher *m, const struct con *c, const struct side **s, int64_t *want,
                 unsigned *which);
static void count_findings(const struct matcher *m, const void *obj, unsigned *errors, unsigned *warnings);

static int list_item(struct matcher *m, const struct isa_asm_goal *g, unsigned i, int first, const struct cont *k);
static int for_iter(struct matcher *m, const struct isa_asm_goal *g, int64_t i, int64_t end, unsigned base,
                    const struct cont *k);

/* Whether every reading through an undefined operand case from here on
 * ranks below the best found (ISA_ASM_END's order): the best prints the
 * text exactly, to the end of its line, in a unit of one line (no reading
 * is longer), is read through defined cases, and the spec's validators
 * find no error in it.  The ranks after those (warnings, bytes, fields
 * changed) come after definedness, so they cannot lift such a reading.
 * (AGX's register sources have undefined cases that print as the defined
 * one does: each was read on to the end of the line, and every operand
 * after it read again for each.) */
static int undefined_loses(struct matcher *m)
{
   if (m->t->multiline || !m->t->line_units || m->best_end == m->start || m->best_mismatch || !m->best_defined ||
       (m->best_end < m->len && m->text[m->best_end] != '\n'))
      return 0;
   if (!m->best_found) {
      count_findings(m, m->best, &m->best_errors, &m->best_warnings);
      m->best_found = 1;
   }
   return m->best_errors == 0;
}

static int resume(struct matcher *m, const struct cont *k)
{
   if (!k)
      return finish(m);
   switch (k->kind) {
   case K_STOP:
      return 1;
   case K_FOR:
      return for_iter(m, k->list, k->i, k->end, k->frame, k->next);
   case K_SEQ:
      m->frame = k->frame;
      return run(m, k->seq, k->n, k->next);
   case K_ITEM:
      m->frame = k->frame;
      return list_item(m, k->list, k->item, k->first, k->next);
   case K_LAX: {
      size_t end = m->pos;
      m->n_spans = k->item;
      m->pos = k->mark;
      add_span(m, end > k->mark ? end - k->mark : 0, (uint8_t)k->first);
      return resume(m, k->next);
   }
   case K_NONEMPTY:
      if (m->pos == k->mark)
         return 0;
      m->frame = k->frame;
      return list_item(m, k->list, k->item, 0, k->next);
   default:
      if (m->pos != k->mark)
         return 0;
      m->frame = k->frame;
      return list_item(m, k->list, k->item, k->first, k->next);
   }
}

/* Item i of a {list} onwards: printed (after the separator unless it is
 * the first printed), or printing nothing. */
static int list_item(struct matcher *m, const struct isa_asm_goal *g, unsigned i, int first, const struct cont *k)
{
   if (i == g->n)
      return resume(m, k);
   const uint32_t *item = &m->t->kids[g->first + i];
   struct saved s = save(m);
   /* an item with a condition (ITEM) is there when it holds, whatever it
    * prints: its condition's goals, the separator, its body; or the goals
    * of the condition failing and nothing.  One without is there when it
    * prints something. */
   const struct isa_asm_goal *ig = &m->t->goals[*item];
   int conditional = ig->kind == ISA_ASM_ITEM;
   const uint32_t *shown = conditional ? &m->t->kids[ig->first] : item, *hidden = conditional ? shown + 1 : item;
   uint32_t body = conditional ? (uint32_t)ig->a : 0;
   struct cont next = {K_ITEM, 0, 0, m->frame, g, i + 1, 0, 0, 0, 0, k};
   if (first || match_text(m, g->text, g->len)) {
      struct cont printed = conditional ? (struct cont){K_SEQ, &body, 1, m->frame, 0, 0, 0, 0, 0, 0, &next}
                                        : (struct cont){K_NONEMPTY, 0, 0, m->frame, g, i + 1, 0, m->pos, 0, 0, k};
      if (run(m, shown, 1, &printed))
         return 1;
   } else {
      expect(m, g->text, g->len);
   }
   restore(m, &s);
   if (m->overflow)
      return 0;
   struct cont nothing = {conditional ? K_ITEM : K_EMPTY, 0, 0, m->frame, g, i + 1, first, m->pos, 0, 0, k};
   if (run(m, hidden, 1, &nothing))
      return 1;
   restore(m, &s);
   return 0;
}

/* Iteration i of a {for} (end: the bound), in a frame of its own: its
 * parameters are the loop's frame's (linked by equations, so what one
 * learns the other knows), its loop variable i, so that an equation made
 * in this iteration reads this i whenever it is worked. */
static int for_iter(struct matcher *m, const struct isa_asm_goal *g, int64_t i, int64_t end, unsigned base,
                    const struct cont *k)
{
   if (i >= end) {
      m->frame = base;
      return resume(m, k);
   }
   if (m->n_frames >= MAX_FRAMES) {
      m->overflow = 1;
      return 0;
   }
   unsigned f = m->n_frames++, slot = (unsigned)g->b;
   const struct frame *b = &m->frames[base];
   struct frame *it = &m->frames[f];
   it->scope = b->scope;
   it->n_params = b->n_params;
   it->known = 0;
   for (unsigned s = b->n_params; s < slot; s++) { /* the enclosing loops' variables */
      it->params[s] = b->params[s];
      it->known |= (uint16_t)(b->known & (1u << s));
   }
   it->params[slot] = i;
   it->known |= (uint16_t)(1u << slot);
   for (unsigned p = 0; p < ISA_ASM_MAX_PARAMS; p++)
      it->link[p] = -1;
   for (unsigned p = 0; p < b->n_params; p++) {
      struct side mine = {SIDE_PARAM, (uint16_t)f, (int32_t)p, 0}, theirs = {SIDE_PARAM, (uint16_t)base, (int32_t)p, 0};
      it->link[p] = (int32_t)m->n_cons;
      if (!add_con(m, (struct con){.a = mine, .b = theirs}))
         return 0;
   }
   struct cont next = {K_FOR, 0, 0, base, g, 0, 0, 0, i + 1, end, k};
   uint32_t body = (uint32_t)g->a;
   m->frame = f;
   return run(m, &body, 1, &next);
}

/* Whether the bounds of the {for}s read by runs of counts are checked,
 * their fields known without the closing search; else each such run is
 * marked, to be read count by count (run's FOR). */
static int ranges_decided(struct matcher *m)
{
   int decided = 1;
   for (unsigned r = 0; r < m->n_ranged; r++)
      for (unsigned j = m->ranged[r].first; j < m->ranged[r].first + m->ranged[r].n; j++)
         if (!m->cons[j].done) {
            m->ranged[r].undecided = 1;
            decided = 0;
         }
   return decided;
}

/* Whether goal i is literal text alone (a sequence of texts), reading
 * nothing. */
static int text_alone(const struct isa_asm *t, uint32_t i, unsigned depth)
{
   const struct isa_asm_goal *g = &t->goals[i];
   if (g->kind == ISA_ASM_LIT)
      return 1;
   if (g->kind != ISA_ASM_SEQ || depth > 4)
      return 0;
   for (uint32_t k = 0; k < g->n; k++)
      if (!text_alone(t, t->kids[g->first + k], depth + 1))
         return 0;
   return 1;
}

/* Goal i (text_alone) read as run reads it; 0 where the text differs. */
static int read_text_alone(struct matcher *m, uint32_t i, unsigned depth)
{
   const struct isa_asm_goal *g = &m->t->goals[i];
   if (g->kind == ISA_ASM_LIT)
      return match_text(m, g->text, g->len);
   for (uint32_t k = 0; k < g->n; k++)
      if (!read_text_alone(m, m->t->kids[g->first + k], depth + 1))
         return 0;
   return 1;
}

/* Whether an equation of side s may be solved by a guess (or of fields
 * side by side) rather than only checked. */
static int guessed(const struct matcher *m, const struct side *s)
{
   const struct isa_asm_expr *e = expr_of(m, s);
   return s->kind != SIDE_EXPR || e->proposes || e->separable;
}

/* A {for} whose bound hi the text gives: read with the bound from `to`
 * to `most` (one count, or counts that read alike: checked, not solved);
 * the body is read to-from times, then k.  1: read (the caller restores
 * the matcher otherwise).  Each value of the bits a bound's guess drops
 * ((count(data) + 1) / 2) is tried now, for the body reads what the count
 * says (an element past it reads as 0). */
static int for_count(struct matcher *m, const struct isa_asm_goal *g, struct side hi, int64_t from, int64_t to,
                     int64_t most, unsigned base, const struct cont *k)
{
   unsigned at = m->n_cons;
   /* no body: any bound up to the start (Mesa's indent below 0 after an unbalanced ENDIF) */
   struct con bound = {.check = to == from || to < most ? CON_LE : CON_EQ, .a = hi, .b = const_side(most)};
   struct con least = {.check = CON_LE, .a = const_side(to), .b = hi};
   m->trying_bounds = 1;
   int added = add_con(m, bound) && (to == from || to == most || add_con(m, least));
   m->trying_bounds = 0;
   if (!added)
      return 0;
   const struct side *side;
   int64_t want;
   unsigned which;
   if (!m->cons[at].done && lossy(m, &m->cons[at], &side, &want, &which) &&
       m->t->free[expr_of(m, side)->first + which] <= 8) {
      struct saved one = save(m);
      for (int64_t alt = 0; alt < (int64_t)1 << m->t->free[expr_of(m, side)->first + which]; alt++) {
         if (guess_alt(m, side, which, want, alt) && settle(m) && for_iter(m, g, from, to, base, k))
            return 1;
         restore(m, &one);
         if (m->overflow)
            return 0;
      }
      return 0;
   }
   return for_iter(m, g, from, to, base, k);
}

/* A body of text alone (an indentation level's blanks) whose bound no
 * guess can solve, in a unit of one line (run's FOR; s: the matcher before
 * it): the counts that end at one place in the text read alike, as the
 * body reads nothing; each run of them is read once, the bound checked to
 * be among them (TGSI's 65 counts of its indentation, read twice: its
 * whole line was read again for each).  That finds what reading count by
 * count finds when the text gives the bound's value (TGSI's opcode, read
 * after it) before the unit's end; where only the closing search would, a
 * run's reading stops there, and its counts are read one by one (the
 * search's first value in a run is not the count whose blanks the text
 * has).  Past the counts the text has, one more is tried for what it
 * expects there.  (Out of run, whose frame each goal's recursion takes.) */
ISA_OUTLINE int for_runs(struct matcher *m, const struct isa_asm_goal *g, struct side hi, int64_t from, unsigned base,
                         const struct saved *s, const struct cont *k)
{
   size_t ends[MAX_LOOP + 1];
   unsigned most = 0;
   ends[0] = m->pos;
   while (most < MAX_LOOP && read_text_alone(m, (uint32_t)g->a, 0))
      ends[++most] = m->pos;
   m->pos = s->pos;
   for (unsigned lo = 0, hi_count; lo <= most; lo = hi_count + 1) {
      for (hi_count = lo; hi_count < most && ends[hi_count + 1] == ends[lo];)
         hi_count++;
      unsigned r = m->n_ranged++;
      m->ranged[r] = (struct ranged){m->n_cons, lo == hi_count ? 0 : lo == 0 ? 1 : 2, 0};
      int read = for_count(m, g, hi, from, from + lo, from + hi_count, base, k);
      int undecided = m->ranged[r].undecided;
      m->n_ranged = r;
      if (read)
         return 1;
      restore(m, s);
      if (m->overflow)
         return 0;
      for (unsigned c = lo; undecided && c <= hi_count; c++) {
         if (for_count(m, g, hi, from, from + c, from + c, base, k))
            return 1;
         restore(m, s);
         if (m->overflow)
            return 0;
      }
   }
   return most < MAX_LOOP && for_count(m, g, hi, from, from + most + 1, from + most + 1, base, k);
}

static int run(struct matcher *m, const uint32_t *seq, unsigned n, const struct cont *k)
{
   if (++m->steps > STEP_BUDGET) {
      m->overflow = 1;
      return 0;
   }
   if (m->overflow)
      return 0;
   if (n == 0)
      return resume(m, k);
   const struct isa_asm *t = m->t;
   const struct isa_asm_goal *g = &t->goals[seq[0]];
   struct cont rest = {K_SEQ, seq + 1, n - 1, m->frame, 0, 0, 0, 0, 0, 0, k};
   struct saved s = save(m);
   switch (g->kind) {
   case ISA_ASM_LIT:
      if (match_text(m, g->text, g->len)) {
         if (run(m, seq + 1, n - 1, k))
            return 1;
      } else {
         m->pos = s.pos;
         skip_blank(m, 0, 0);
         expect(m, g->text, g->len);
      }
      break;
   case ISA_ASM_NUM: {
      int64_t v;
      size_t end;
      skip_blank(m, 0, 0);
      s.pos = m->pos;
      if (m->recover && expr_of(m, &(struct side){SIDE_EXPR, 0, g->a, 0})->n == 0 && m->n_spans < MAX_SPANS &&
          read_number(m, (unsigned)g->b, SIZE_MAX, &v, &end)) {
         /* taken as the text says (after a failed unit; see isa_assemble) */
         add_span(m, end - m->pos, SPAN_WORD);
         if (run(m, seq + 1, n - 1, k))
            return 1;
         break;
      }
      /* a label where a branch target's number may be (a number first: a
       * hex number may look like a name) */
      size_t name = (g->c & 1) && m->t->place >= 0 && !read_number(m, (unsigned)g->b, SIZE_MAX, &v, &end)
                        ? word_len(m, m->pos)
                        : 0;
      if (name) {
         /* a label for a branch target */
         if (m->n_spans < MAX_SPANS && label_value(m, m->text + m->pos, name, &v)) {
            add_span(m, name, SPAN_WORD);
            if (add_con(m, (struct con){.a = expr_side(m, g->a), .b = const_side(v)}) && run(m, seq + 1, n - 1, k))
               return 1;
         } else {
            expect(m, "a number or a label", 19);
            if (m->pos >= m->exp.pos) {
               m->exp.pos = m->pos;
               forget_expected(&m->exp);
               snprintf(m->exp.range, sizeof m->exp.range, "a label defined somewhere (name: at a line's start)");
               m->exp.fixed = 0;
            }
         }
         break;
      }
      /* all its digits first; fewer when the next value follows without a
       * break ({tt0}{tt1}{tt2}{tt3}), not when what follows starts with
       * what no digit is (then the whole number is the value, and an error
       * says so: TGSI's "expected 1 here" at " 10:") */
      size_t digits = read_number(m, (unsigned)g->b, SIZE_MAX, &v, &end);
      unsigned char lead = n > 1 ? t->goals[seq[1]].lead : 0;
      int fewer = !lead || isxdigit(lead);
      for (size_t d = digits; d > 0; d--) {
         if (d < digits && (!fewer || !read_number(m, (unsigned)g->b, d, &v, &end)))
            break;
         m->pos = end;
         if (add_con(m, (struct con){.a = expr_side(m, g->a), .b = const_side(v)}) && run(m, seq + 1, n - 1, k))
            return 1;
         restore(m, &s);
         if (m->overflow)
            return 0;
      }
      if (m->lax && m->n_spans < MAX_SPANS) {
         /* a lax reading: the number in another form (decimal for hex, 0x
          * for decimal), or a signed value as its two's complement bits
          * (4294967295 for -1, as people and some tools write it) */
         int64_t lv;
         size_t lend;
         m->pos = s.pos;
         if (read_lax_number(m, &lv, &lend)) {
            int64_t tries[2] = {lv, lv};
            unsigned n_tries = 1;
            for (unsigned w = 8; w <= 32; w *= 2)
               if (lv >= (int64_t)1 << (w - 1) && lv < (int64_t)1 << w) {
                  tries[n_tries++] = lv - ((int64_t)1 << w);
                  break;
               }
            for (unsigned i = 0; i < n_tries; i++) {
               add_span(m, lend - m->pos, SPAN_NUMBER);
               if (add_con(m, (struct con){.a = expr_side(m, g->a), .b = const_side(tries[i])}) &&
                   run(m, seq + 1, n - 1, k))
                  return 1;
               restore(m, &s);
               if (m->overflow)
                  return 0;
            }
         }
         m->pos = s.pos;
      }
      if (!digits) {
         static const char *const what[] = {"a number", "a number", "a hex number", "a 0x number",
                                            "an octal number", "a binary number", "a 0b number"};
         expect(m, what[g->b], strlen(what[g->b]));
      } else {
         /* a value the unit's place or its other values fix (Lima GP's index) */
         struct side e = expr_side(m, g->a);
         unsigned w;
         read_number(m, (unsigned)g->b, SIZE_MAX, &v, &end);
         if (!unknowns(m, &e, &w) && value_of(m, &e) != v && m->pos >= m->exp.pos) {
            m->exp.pos = m->pos;
            forget_expected(&m->exp);
            snprintf(m->exp.range, sizeof m->exp.range, "%lld here (the unit's place or its other values fix it)",
                     (long long)value_of(m, &e));
            m->exp.fixed = expr_of(m, &e)->n == 0; /* the place alone (its <state>s, its index) */
         }
      }
      break;
   }
   case ISA_ASM_ENUM: {
      const struct isa_asm_enum *e = &t->enums[g->b];
      /* (where a name would start, and with what: the same for each name;
       * one that starts otherwise changes nothing to restore) */
      skip_blank(m, 0, 0);
      size_t word = m->pos;
      char next = word < m->len ? m->text[word] : 0;
      uint32_t missed = 0; /* the names since `missed` the text does not have: noted as one */
      for (uint32_t i = 0; i < e->n; i++) {
         const struct isa_asm_name *nm = &e->names[i];
         /* (the first character alone rules out most names: has_name,
          * a call, for each of TGSI's 244 cost 16% of its time) */
         if (nm->len && (!same_char(m, next, nm->name[0]) || !has_name(m, word, nm)))
            continue;
         if (missed < i) {
            m->pos = word;
            expect_names(m, e, missed, i);
         }
         missed = i + 1;
         m->pos = nm->len ? word + nm->len : s.pos;
         if (add_con(m, (struct con){.a = expr_side(m, g->a), .b = const_side(nm->value)}) && run(m, seq + 1, n - 1, k))
            return 1;
         restore(m, &s);
      }
      if (missed < e->n) {
         m->pos = word;
         expect_names(m, e, missed, e->n);
      }
      m->pos = s.pos;
      skip_blank(m, 0, 0);
      expect(m, "a name", 6);
      int64_t v;
      size_t end, at = m->pos, digits = 0;
      /* the number of an unnamed value: all its digits, then fewer, as
       * one printed right before another has them (Midgard's 8-bit lanes
       * past 15: `.1617` is lane 16, then 17; ten such lanes are more
       * digits than an int64 holds, which is no reason to stop) */
      for (size_t p = at + (at < m->len && m->text[at] == '-'); p < m->len && isdigit((unsigned char)m->text[p]);
           p++)
         digits += digits < 20;
      for (size_t most = digits; most > 0; most--) {
         m->pos = at;
         if (!read_number(m, ISA_ASM_DEC, most, &v, &end))
            continue; /* (too large) */
         if (e->named(v))
            continue;
         m->pos = end;
         if (add_con(m, (struct con){.a = expr_side(m, g->a), .b = const_side(v)}) && run(m, seq + 1, n - 1, k))
            return 1;
         restore(m, &s);
         if (m->overflow)
            return 0;
      }
      break;
   }
   case ISA_ASM_SEQ: {
      struct cont after = rest;
      if (run(m, &t->kids[g->first], g->n, &after))
         return 1;
      break;
   }
   case ISA_ASM_ALT: {
      /* the character the text goes on with, for the kids whose lead is known */
      size_t at = m->pos;
      skip_blank(m, 0, 1);
      char next = m->pos < m->len ? m->text[m->pos] : 0;
      m->pos = at;
      for (uint32_t i = 0; i < g->n && (i == 0 || g->b != 1 || m->require); i++) {
         const struct isa_asm_goal *kid = &t->goals[t->kids[g->first + i]];
         const struct isa_asm_goal *head = kid->kind == ISA_ASM_SEQ && kid->n ? &t->goals[t->kids[kid->first]] : kid;
         if (!m->lax && head->kind == ISA_ASM_LAX)
            continue; /* (not even a step: strict readings cost what they did) */
         if (kid->lead && !same_char(m, next, (char)kid->lead)) {
            const struct isa_asm_goal *lit = &t->goals[kid->head];
            size_t here = m->pos;
            skip_blank(m, 0, 0);
            expect(m, lit->text + strspn(lit->text, " \t\n"), lit->len - strspn(lit->text, " \t\n"));
            m->pos = here;
            continue;
         }
         if (run(m, &t->kids[g->first + i], 1, &rest))
            return 1;
         restore(m, &s);
         if (m->overflow)
            return 0;
      }
      break;
   }
   case ISA_ASM_REAL: {
      size_t at, len;
      if (match_real(m, &at, &len) && (!m->lax || m->n_spans < MAX_SPANS)) {
         if (m->lax) { /* (in any form: the check compares values, not text) */
            m->pos = at;
            add_span(m, len, SPAN_NUMBER);
         }
         struct con c = {.check = CON_TEXT, .truth = (uint8_t)g->b, .a = expr_side(m, g->a), .at = at, .len = (uint32_t)len,
                          .arg = g->c};
         if ((g->c & ISA_ASM_SCALED) && g->n == 2) {
            c.b = expr_side(m, (int32_t)t->kids[g->first]);
            c.scale = (int32_t)t->kids[g->first + 1];
         }
         if (add_con(m, c) && run(m, seq + 1, n - 1, k))
            return 1;
      } else {
         expect(m, "a number", 8);
      }
      break;
   }
   case ISA_ASM_CHECK:
      if (add_con(m, (struct con){.check = g->c ? CON_RULE : CON_CHECK, .truth = (uint8_t)g->b, .a = expr_side(m, g->a)}) &&
          run(m, seq + 1, n - 1, k))
         return 1;
      break;
   case ISA_ASM_EQ: {
      struct side b = g->b < 0 ? const_side(g->c) : expr_side(m, g->b);
      if (add_con(m, (struct con){.a = expr_side(m, g->a), .b = b}) && run(m, seq + 1, n - 1, k))
         return 1;
      break;
   }
   case ISA_ASM_CALL: {
      if (m->n_frames >= MAX_FRAMES || g->b > ISA_ASM_MAX_PARAMS) {
         m->overflow = 1;
         return 0;
      }
      unsigned caller = m->frame, callee = m->n_frames++;
      struct frame *f = &m->frames[callee];
      f->scope = m->frames[caller].scope + g->offset;
      f->n_params = (uint16_t)g->b;
      f->known = 0;
      int ok = 1;
      for (unsigned i = 0; i < ISA_ASM_MAX_PARAMS; i++)
         f->link[i] = -1;
      for (uint32_t i = 0; ok && i < g->n; i++) {
         struct side p = {SIDE_PARAM, (uint16_t)callee, (int32_t)i, 0};
         f->link[i] = (int32_t)m->n_cons;
         ok = add_con(m, (struct con){.a = p, .b = expr_side(m, (int32_t)t->kids[g->first + i])});
      }
      if (ok) {
         m->frame = callee;
         uint32_t body = (uint32_t)g->a;
         if (run(m, &body, 1, &rest))
            return 1;
      }
      break;
   }
   case ISA_ASM_NEST: {
      /* a struct printed with its own display: a frame of no parameters at its place */
      size_t at = m->frames[m->frame].scope + g->offset;
      if (g->b > 0) {
         int64_t i = m->frames[m->frame].params[g->b - 1];
         if (i < 0 || i >= (int64_t)g->len)
            break;
         at += (size_t)i * (size_t)g->c;
      }
      if (m->n_frames >= MAX_FRAMES) {
         m->overflow = 1;
         return 0;
      }
      unsigned f = m->n_frames++;
      memset(&m->frames[f], 0, sizeof m->frames[f]);
      m->frames[f].scope = at;
      for (unsigned i = 0; i < ISA_ASM_MAX_PARAMS; i++)
         m->frames[f].link[i] = -1;
      m->frame = f;
      uint32_t body = (uint32_t)g->a;
      if (run(m, &body, 1, &rest))
         return 1;
      break;
   }
   case ISA_ASM_SCOPE:
      /* the program's first unit is the alternative chosen by its place */
      if ((g->b == 1 && m->ctx.index != 0) || (g->b == 2 && m->ctx.index == 0))
         break;
      if (g->a) {
         if (m->t->select)
            m->t->select(m->unit, (unsigned)g->a);
         else
            m->spec->unit->set_variant(m->unit, (unsigned)g->a);
         memset(m->known, 0, m->unit_size);
         memcpy(m->fresh, m->unit, m->unit_size);
         m->rescan = 1; /* (no notice of places that became unknown) */
      }
      m->frames[m->frame].scope = g->offset;
      m->fewest = (size_t)g->c;
      if (run(m, seq + 1, n - 1, k))
         return 1;
      break;
   case ISA_ASM_LIST:
      if (list_item(m, g, 0, 1, &rest))
         return 1;
      break;
   case ISA_ASM_FOR: {
      struct side lo = expr_side(m, (int32_t)t->kids[g->first]), hi = expr_side(m, (int32_t)t->kids[g->first + 1]);
      unsigned w;
      if (unknowns(m, &lo, &w))
         break;
      int64_t from = value_of(m, &lo);
      unsigned base = m->frame;
      if (from < INT64_MIN / 2 || from > INT64_MAX / 2)
         break; /* no loop runs from there (and from + MAX_LOOP must not overflow) */
      if (!unknowns(m, &hi, &w)) {
         int64_t to = value_of(m, &hi);
         if (to <= from + MAX_LOOP && for_iter(m, g, from, to, base, &rest))
            return 1;
         break;
      }
      /* the bound is what the text says: try each count */
      if (m->t->multiline || m->n_ranged == MAX_RANGED || !text_alone(t, (uint32_t)g->a, 0) || guessed(m, &hi)) {
         for (int64_t to = from; to <= from + MAX_LOOP; to++) {
            if (for_count(m, g, hi, from, to, to, base, &rest))
               return 1;
            restore(m, &s);
            if (m->overflow)
               return 0;
         }
         break;
      }
      if (for_runs(m, g, hi, from, base, &s, &rest))
         return 1;
      if (m->overflow)
         return 0;
      break;
   }
   case ISA_ASM_END:
      if (m->t->line_units && !at_line_end(m))
         break;
      /* the longest text that is a unit: a shorter one may be a whole
       * unit too (Lima GP's instruction with its later lines unprinted) */
      /* at the same length, a unit printing the text exactly beats one
       * printing it with other blanks, then one the spec's validators find
       * no error in (TGSI's operand counts), then one read through defined
       * operand cases only, then the one the spec's <prefer> is greatest
       * for (Midgard's scheduler's units), then one of fewer bytes (AGX's
       * short forms) */
      if (m->pos > m->best_end ||
          (m->pos == m->best_end && (m->best_mismatch || !m->best_defined || m->best_laxed ||
                                     m->best_bytes > m->fewest || m->prefer))) {
         if (!ranges_decided(m))
            break;
         if (!finish(m) || (m->require && m->unit_bytes != m->require)) {
            size_t at = m->pos;
            skip_blank(m, 0, 0);
            if ((m->pos >= m->len || m->text[m->pos] == '\n') && at > m->unsolved)
               m->unsolved = at; /* the whole line read, and no encoding prints it */
            m->pos = at;
            break;
         }
         int defined = m->undefined == 0;
         /* the validators' findings, only where they decide between two
          * units of the same text (they cost Lima GP a third of its time
          * when counted for every unit) */
         /* (in a lax reading, always: its search stops on a reading they
          * find nothing in, so they must have been asked) */
         int compete = (m->pos == m->best_end && m->mismatch == m->best_mismatch) || m->lax;
         if (compete) {
            if (!m->best_found)
               count_findings(m, m->best, &m->best_errors, &m->best_warnings);
            m->best_found = 1;
            count_findings(m, m->decoded, &m->errors, &m->warnings);
         }
         /* ... and at last the one with fewer fields off their defaults */
         int same_text = m->mismatch == m->best_mismatch, same_errors = same_text && m->errors == m->best_errors;
         int same_defined = same_errors && defined == m->best_defined;
         int same_warnings = same_defined && m->warnings == m->best_warnings;
         /* (of lax readings, the one with the fewest bodies the printer
          * leaves out: COLOR[0] is a semantic's index 0, not no semantic) */
         int same_laxed = same_warnings && m->laxed == m->best_laxed;
         /* (only against a unit of the same text: best holds none before
          * the first, and a shorter text's unit is no rival) */
         int preferred = m->prefer && same_laxed && m->pos == m->best_end && m->best_end > m->start
                            ? m->prefer(m->decoded, m->best, &m->ctx)
                            : 0;
         int same = same_laxed && preferred == 0;
         if (m->pos > m->best_end || m->mismatch < m->best_mismatch || (same_text && m->errors < m->best_errors) ||
             (same_errors && defined > m->best_defined) || (same_defined && m->warnings < m->best_warnings) ||
             (same_warnings && m->laxed < m->best_laxed) || (same_laxed && preferred > 0) ||
             (same && m->unit_bytes < m->best_bytes) ||
             (same && m->unit_bytes == m->best_bytes && m->changed < m->best_changed)) {
            m->best_changed = m->changed;
            m->best_errors = m->errors;
            m->best_warnings = m->warnings;
            m->best_found = compete;
            m->best_end = m->pos;
            m->best_mismatch = m->mismatch;
            m->best_defined = defined;
            m->best_laxed = m->laxed;
            m->best_bytes = m->unit_bytes;
            memcpy(m->best, m->decoded, m->unit_size);
         }
         /* nothing better to find: the text is over, or (a unit of one
          * line) the line is.  (The validators' findings rank what was
          * found but do not keep the search going: rules about the whole
          * program, $program_size, cannot hold while one unit is read, and
          * searching on made Lima GP three times slower.  A spec's
          * <prefer> does keep it going: a later encoding may rank higher.) */
         skip_blank(m, 0, m->t->multiline);
         if ((m->pos >= m->len || (!m->t->multiline && m->text[m->pos] == '\n')) && !m->best_mismatch &&
             m->best_defined && !m->best_laxed && m->best_bytes <= m->fewest && !m->prefer &&
             (!m->lax || (m->best_found && !m->best_errors && !m->best_warnings)))
            return 1;
      }
      break;
   case ISA_ASM_RULE: {
      uint32_t rules = (uint32_t)g->a;
      if (m->no_rules ? run(m, seq + 1, n - 1, k) : run(m, &rules, 1, &rest))
         return 1;
      break;
   }
   case ISA_ASM_UNDEF:
      if (undefined_loses(m))
         break;
      m->undefined++;
      if (run(m, seq + 1, n - 1, k))
         return 1;
      break;
   case ISA_ASM_OPT: {
      /* {optional}: its text, else (a lax reading) none; the check then
       * passes over what is printed there */
      uint32_t body = (uint32_t)g->a;
      if (run(m, &body, 1, &rest))
         return 1;
      restore(m, &s);
      if (m->overflow || !m->lax || m->n_spans >= MAX_SPANS)
         return 0;
      add_span(m, 0, SPAN_SKIP);
      if (run(m, seq + 1, n - 1, k))
         return 1;
      break;
   }
   case ISA_ASM_LAX: {
      /* an {if} body the printer leaves out, written all the same: its
       * condition false (goal a begins with that), its text one span; or
       * (b 1) attributes in another order */
      if (!m->lax || m->n_spans >= MAX_SPANS)
         break;
      /* (no better than a reading found: of lax readings, the fewest of
       * these win; without this bound, every 2D operand doubled them) */
      if (m->best_end > m->start && m->laxed >= m->best_laxed)
         break;
      skip_blank(m, 0, 0);
      m->laxed++;
      /* (b 1: attributes in another order than printed: the check passes
       * over the text and what is printed there, as for an {optional}) */
      struct cont after = {K_LAX, NULL, 0, m->frame, 0, m->n_spans, g->b ? SPAN_SKIP : SPAN_TEXT, m->pos, 0, 0, &rest};
      uint32_t body = (uint32_t)g->a;
      if (run(m, &body, 1, &after))
         return 1;
      break;
   }
   default:
      break;
   }
   restore(m, &s);
   return 0;
}

/* ---- a unit's solution ---------------------------------------------------------- */

/* Printed text p[0..pn) against the source s[0..sn): the same but for
 * blanks, comments in the source, and labels the source has where the
 * printer has a number (at s[span_at[k]], span_len[k] characters; their
 * equations made the numbers the labels'). */
static int rest_is_blank(const struct matcher *m, size_t at);

/* A printed number or word from p[i] (a label's number, a number a lax
 * reading has in another form): its end. */
static size_t printed_word(const char *p, size_t pn, size_t i, int number)
{
   while (i < pn && (isalnum((unsigned char)p[i]) || p[i] == '-' || p[i] == '+' || (number && p[i] == '.')))
      i++;
   return i;
}

static int same_from(const char *p, size_t pn, const char *s, size_t sn, const struct matcher *m, size_t i, size_t j,
                     unsigned span, int breaks, unsigned depth);

static int same_text(const char *p, size_t pn, const char *s, size_t sn, const struct matcher *m)
{
   /* empty lines mean something (a unit's end) only where units print them */
   int breaks = 0;
   for (size_t k = 0; k + 1 < pn && !breaks; k++) {
      size_t q = k + 1;
      while (q < pn && (p[q] == ' ' || p[q] == '\t' || p[q] == '\r'))
         q++;
      breaks = p[k] == '\n' && q < pn && p[q] == '\n';
   }
   return same_from(p, pn, s, sn, m, 0, 0, 0, breaks, 0);
}

/* same_text from p[i] and s[j] on, span `span` the next of the text's. */
static int same_from(const char *p, size_t pn, const char *s, size_t sn, const struct matcher *m, size_t i, size_t j,
                     unsigned span, int breaks, unsigned depth)
{
   for (;;) {
      /* empty lines in this run of blanks: printed, and in the text the
       * most in a row (comment lines end a row) */
      unsigned printed_empty = 0, empty = 0;
      int bare = i == 0; /* (a line break first ends an empty line) */
      while (i < pn && isspace((unsigned char)p[i])) {
         if (p[i] == '\n') {
            printed_empty += bare;
            bare = 1;
         }
         i++;
      }
      bare = j == 0 && s == m->text;
      int commented = 0, first = bare; /* the run the text starts with */
      unsigned run = 0;
      for (;;) {
         while (j < sn && isspace((unsigned char)s[j])) {
            if (s[j] == '\n') {
               run += bare;
               empty = run > empty ? run : empty;
               bare = 1;
            }
            j++;
         }
         if (j < sn && (s[j] == '#' || s[j] == ';') && !(i < pn && p[i] == s[j])) {
            bare = 0;
            run = 0;
            commented = 1;
            while (j < sn && s[j] != '\n')
               j++;
            continue;
         }
         break;
      }
      /* where units print empty lines (Midgard's bundle ends; a bundle with
       * no instructions prints one alone), the text's are the printed ones,
       * unless the text ends there */
      /* (beside comment lines, empty lines are layout: any there are a
       * break, and none an empty unit; before the first unit, nothing) */
      int differ = commented ? !first && !printed_empty != !empty : empty != printed_empty;
      if (breaks && differ && ((i < pn && j < sn) ||
                               (i == pn && j == sn && !rest_is_blank(m, (size_t)(s + sn - m->text)))))
         return 0;
      /* (a skip is where the text was when it was read: perhaps before blanks) */
      if (span < m->n_spans && (s + j == m->text + m->span_at[span] ||
                                (m->span_kind[span] == SPAN_SKIP && s + j > m->text + m->span_at[span]))) {
         unsigned kind = m->span_kind[span];
         j += m->span_len[span++];
         if (kind == SPAN_SKIP) {
            /* an {optional} the text leaves out: what is printed there is
             * passed over up to where the rest is alike (on its line) */
            if (depth >= 8)
               return 0;
            for (size_t k = i; k <= pn; k++) {
               if (same_from(p, pn, s, sn, m, k, j, span, breaks, depth + 1))
                  return 1;
               if (k < pn && p[k] == '\n')
                  break;
            }
            return 0;
         }
         if (kind != SPAN_TEXT) {
            size_t from = i;
            i = printed_word(p, pn, i, kind == SPAN_NUMBER);
            if (i == from)
               return 0;
         }
         continue;
      }
      if (i == pn || j == sn)
         return i == pn && j == sn;
      if (!same_char(m, s[j], p[i]))
         return 0;
      i++;
      j++;
   }
}

/* How many blank runs of the printed text p[0..pn) differ from the
 * source's, text[start..end) (the same text but for blanks and comments:
 * same_text): 0 when it is the very text.  A run that ends a line in the
 * source is compared only for the indent after its last line break (the
 * blanks before a comment or a line end do not count).  The unit's first
 * run is its line's indent when it starts a line: the matcher skipped
 * those blanks before the unit began, and TGSI prints its instructions
 * indented ("  0: TEX ..."). */
static unsigned blank_mismatches(const char *p, size_t pn, const char *text, size_t start, size_t end, size_t len,
                                 const struct matcher *m)
{
   unsigned mismatches = 0;
   size_t i = 0, j = start;
   while (j > 0 && (text[j - 1] == ' ' || text[j - 1] == '\t'))
      j--;
   if (j > 0 && text[j - 1] != '\n')
      j = start; /* (after a listing's prefix, or other text on the line) */
   unsigned span = 0;
   while (i < pn || j < end) {
      size_t pi = i, sj = j;
      int line_end = 0;
      while (i < pn && isspace((unsigned char)p[i]))
         i++;
      for (;;) {
         while (j < end && isspace((unsigned char)text[j])) {
            line_end |= text[j] == '\n';
            j++;
         }
         if (j < end && (text[j] == '#' || text[j] == ';') && !(i < pn && p[i] == text[j])) {
            line_end = 1;
            while (j < end && text[j] != '\n')
               j++;
            continue;
         }
         break;
      }
      line_end |= j >= end && end >= len;
      if (line_end) {
         /* compare the indents after the last line break of each */
         size_t a = i, b = j;
         while (a > pi && p[a - 1] != '\n')
            a--;
         while (b > sj && text[b - 1] != '\n')
            b--;
         if (a > pi && b > sj && (i - a != j - b || memcmp(p + a, text + b, i - a)))
            mismatches++;
         else if (a > pi && b == sj && j >= len && i > a)
            mismatches++; /* an indent printed after the text's very end */
      } else if (i - pi != j - sj || memcmp(p + pi, text + sj, i - pi)) {
         mismatches++;
      }
      if (i >= pn || j >= end)
         break;
      /* the same non-blank text follows (same_text): step over it, and
       * over a label and the number printed for it */
      size_t step_i = i, step_j = j;
      while (i < pn && j < end && !isspace((unsigned char)p[i])) {
         if (span < m->n_spans && j >= m->span_at[span]) {
            unsigned kind = m->span_kind[span];
            j += m->span_len[span++];
            if (kind == SPAN_WORD || kind == SPAN_NUMBER)
               i = printed_word(p, pn, i, kind == SPAN_NUMBER);
            continue;
         }
         if (!same_char(m, p[i], text[j]))
            break;
         i++;
         j++;
      }
      if (i == step_i && j == step_j)
         break; /* nothing alike to step over (same_text says there is): no endless loop */
   }
   return mismatches;
}

/* What the spec's validators find in decoded unit obj: errors, warnings. */
static void count_findings(const struct matcher *m, const void *obj, unsigned *errors, unsigned *warnings)
{
   struct isa_findings found;
   memset(&found, 0, sizeof found);
   if (m->spec->unit->validate)
      m->spec->unit->validate(obj, &found, &m->ctx, NULL);
   *errors = found.count[ISA_SEV_ERROR];
   *warnings = found.count[ISA_SEV_WARNING];
}

/* How many of the n bytes at a and b differ: eight at a time (TGSI's unit
 * object is 1,764 bytes, mostly as it started, and a byte-by-byte count
 * was 6% of its time). */
static size_t bytes_differing(const unsigned char *a, const unsigned char *b, size_t n)
{
   const uint64_t low7 = 0x7F7F7F7F7F7F7F7Full, high = 0x8080808080808080ull, ones = 0x0101010101010101ull;
   size_t count = 0, i = 0;
   for (; i + 8 <= n; i += 8) {
      uint64_t x, y;
      memcpy(&x, a + i, 8);
      memcpy(&y, b + i, 8);
      uint64_t d = x ^ y;
      if (!d)
         continue;
      /* each byte's top bit: set when the byte of d is not 0; their sum in
       * the product's top byte */
      uint64_t nonzero = (((d & low7) + low7) | d) & high;
      count += (size_t)(((nonzero >> 7) * ones) >> 56);
   }
   for (; i < n; i++)
      count += a[i] != b[i];
   return count;
}

/* Unit object obj encoded, decoded (into m->decoded) and printed into
 * out[0..cap): the printed length, and its bits in *bits; SIZE_MAX when it
 * does not encode, decode back whole or fit. */
static size_t reprint(struct matcher *m, const void *obj, char *out, size_t cap, size_t *bits)
{
   const struct isa_type_desc *u = m->spec->unit;
   struct isa_error err;
   size_t got = 0;
   *bits = 0;
   memset(m->bytes, 0, m->bytes_cap);
   if (u->encode(obj, m->bytes, m->bytes_cap, 0, bits, &err) != ISA_OK)
      return SIZE_MAX;
   size_t nbytes = (*bits + 7) / 8;
   /* the program's first unit decodes as such (TGSI's header) */
   int r = m->ctx.index == 0 && m->spec->decode_first
              ? m->spec->decode_first(m->bytes, nbytes, 0, m->decoded, &got, &err)
              : u->decode(m->bytes, nbytes, 0, m->decoded, &got, &err);
   if (r != ISA_OK || got != *bits)
      return SIZE_MAX;
   struct isa_out o;
   isa_out_buffer(&o, out, cap);
   m->ctx.size = *bits;
   u->print(m->decoded, &o, &m->ctx);
   size_t n = isa_out_len(&o);
   return n < cap ? n : SIZE_MAX;
}

/* The unit as the fields now stand: encoded, decoded and printed, it must
 * give the text matched. */
static int verify(struct matcher *m)
{
   size_t bits;
   const void *obj = m->unit;
   if (m->t->merge) {
      memcpy(m->merged, m->unit, m->unit_size);
      m->t->merge(m->merged, m->known);
      obj = m->merged;
   }
   size_t n = reprint(m, obj, m->printed, sizeof m->printed, &bits);
   if (n == SIZE_MAX)
      return 0;
   size_t nbytes = (bits + 7) / 8;
   if (!same_text(m->printed, n, m->text + m->start, m->pos - m->start, m))
      return 0;
   m->unit_bytes = nbytes;
   /* (a lax reading's text is not the printed one: its blanks rank nothing) */
   m->mismatch = m->lax ? 0 : blank_mismatches(m->printed, n, m->text, m->start, m->pos, m->len, m);

   m->changed = bytes_differing(m->unit, m->fresh, m->unit_size);
   return 1;
}

/* The unknown fields side s depends on, following unknown parameters to
 * the arguments they were called with (var index and frame of each, and
 * their bits in all); 0 when there are more than MAX_SEARCH_VARS.  A
 * parameter whose argument's value has at most SEARCH_BITS bits, where the
 * fields behind it have more, is one itself (-1 - its slot):
 * RegSel(handle & 0xFF) searches the 256 values of its parameter, and the
 * argument's guess gives the field. */
#define MAX_SEARCH_VARS 16
struct unknown_set {
   int32_t vars[MAX_SEARCH_VARS];
   unsigned frames[MAX_SEARCH_VARS];
   uint8_t widths[MAX_SEARCH_VARS];
   uint64_t masks[MAX_SEARCH_VARS]; /* the field's bits searched (isa_asm.masks), or 0: all */
   int use_masks; /* (set by the caller: only a search over every waiting equation's bits may) */
   unsigned n, bits;
   unsigned links[MAX_SEARCH_VARS]; /* the links followed to them, callee first */
   unsigned n_links;
};

/* Field j of u is read in the bits of `mask` (0: all) too. */
static void widen_mask(const struct matcher *m, struct unknown_set *u, unsigned j, uint64_t mask)
{
   uint64_t old = u->masks[j], now = old && mask ? old | mask : 0;
   if (now == old)
      return;
   u->bits -= u->widths[j];
   u->masks[j] = now;
   u->widths[j] = (uint8_t)(now ? (unsigned)isa_x_popcount((int64_t)now) : m->t->vars[u->vars[j]].width);
   u->bits += u->widths[j];
}

/* (through: the bits of s's value that matter, or 0: all; a parameter's
 * argument that passes its read on as it is passes them on to it) */
static int unknown_fields(const struct matcher *m, const struct side *s, struct unknown_set *u, unsigned depth,
                          uint64_t through)
{
   if (depth > MAX_FRAMES)
      return 0;
   if (s->kind == SIDE_CONST)
      return 1;
   if (s->kind == SIDE_PARAM) {
      const struct frame *f = &m->frames[s->frame];
      if ((f->known >> s->id) & 1 || f->link[s->id] < 0)
         return 1;
      const struct con *l = &m->cons[f->link[s->id]];
      unsigned pb = l->b.kind == SIDE_EXPR ? expr_of(m, &l->b)->bits : 0;
      if (pb && pb <= SEARCH_BITS) {
         struct unknown_set behind;
         memset(&behind, 0, sizeof behind);
         if (!unknown_fields(m, &l->b, &behind, depth + 1, 0) || behind.bits > SEARCH_BITS) {
            for (unsigned j = 0; j < u->n; j++)
               if (u->vars[j] == -1 - s->id && u->frames[j] == s->frame)
                  return 1;
            if (u->n == MAX_SEARCH_VARS)
               return 0;
            u->vars[u->n] = -1 - s->id;
            u->frames[u->n] = s->frame;
            u->widths[u->n] = (uint8_t)pb;
            u->bits += pb;
            u->n++;
            return 1;
         }
      }
      if (u->n_links < MAX_SEARCH_VARS)
         u->links[u->n_links++] = (unsigned)f->link[s->id];
      return unknown_fields(m, &m->cons[f->link[s->id]].b, u, depth + 1, through);
   }
   const struct isa_asm_expr *e = expr_of(m, s);
   for (unsigned i = 0; i < e->n; i++) {
      int32_t r = m->t->reads[e->first + i];
      if (read_known(m, r, s->frame))
         continue;
      /* the bits of the read that matter */
      uint64_t bits = u->use_masks && m->t->masks ? m->t->masks[e->first + i] : 0;
      if (e->passes && through)
         bits = bits ? bits & through : through;
      if (r < 0) {
         struct side p = {SIDE_PARAM, s->frame, -1 - r, 0};
         if (!unknown_fields(m, &p, u, depth + 1, bits))
            return 0;
         continue;
      }
      size_t at = var_at(m, r, s->frame);
      if (at == AT_UNKNOWN) {
         /* an element at an index not known yet: what the index reads */
         const struct isa_asm_var *v = &m->t->vars[r];
         struct side index = {SIDE_EXPR, (uint16_t)s->frame, v->index ? v->index - 1 : 0, 0};
         if (!v->index || !unknown_fields(m, &index, u, depth + 1, 0))
            return 0;
         continue;
      }
      const struct isa_asm_var *v = &m->t->vars[r];
      uint64_t full = v->width < 64 ? ((uint64_t)1 << v->width) - 1 : ~(uint64_t)0;
      uint64_t mask = (bits & full) == full ? 0 : bits & full;
      int dup = 0;
      for (unsigned j = 0; j < u->n; j++)
         if (u->vars[j] >= 0 && var_at(m, u->vars[j], u->frames[j]) == at) {
            widen_mask(m, u, j, mask);
            dup = 1;
         }
      if (dup)
         continue;
      if (u->n == MAX_SEARCH_VARS)
         return 0;
      u->vars[u->n] = r;
      u->frames[u->n] = s->frame;
      u->masks[u->n] = mask;
      u->widths[u->n] = (uint8_t)(mask ? (unsigned)isa_x_popcount((int64_t)mask) : m->t->vars[r].width);
      u->bits += u->widths[u->n];
      u->n++;
   }
   return 1;
}

/* Bits x of field v as its value. */
static int64_t bits_value(const struct isa_asm_var *v, uint64_t x)
{
   return v->is_signed ? isa_sext(x, v->width) : (int64_t)x;
}

/* Give the fields of u the values packed in x (each its width, in
 * order); *same: all of them are what as_is holds. */
static int assign_packed(struct matcher *m, const struct unknown_set *u, uint64_t x, const int64_t *as_is, int *same)
{
   int ok = 1;
   *same = 1;
   for (unsigned j = 0; ok && j < u->n; j++) {
      unsigned width = u->widths[j];
      int64_t val = (int64_t)(x & (((uint64_t)1 << width) - 1));
      if (u->vars[j] >= 0 && u->masks[j]) {
         /* the searched bits in their places, the others as they stand */
         /* (in the field's bits: a signed one's value is sign-extended) */
         const struct isa_asm_var *v = &m->t->vars[u->vars[j]];
         uint64_t all = v->width < 64 ? ((uint64_t)1 << v->width) - 1 : ~(uint64_t)0;
         uint64_t cur = (uint64_t)load(m->unit + var_at(m, u->vars[j], u->frames[j]), v) & all, put = 0;
         unsigned b = 0;
         for (uint64_t mk = u->masks[j]; mk; mk &= mk - 1, b++)
            if (((uint64_t)val >> b) & 1)
               put |= mk & (~mk + 1);
         val = bits_value(v, (cur & ~u->masks[j]) | put);
      } else if (u->vars[j] >= 0 && m->t->vars[u->vars[j]].is_signed && width && (val >> (width - 1)) & 1) {
         val -= (int64_t)1 << width;
      }
      x >>= width;
      *same &= as_is && val == as_is[j];
      ok = assign(m, u->vars[j], u->frames[j], val);
   }
   return ok;
}

/* Whether side s reads (directly, through a parameter's argument or an
 * element's index) one of the fields of u. */
static int reads_any(const struct matcher *m, const struct side *s, const struct unknown_set *u, unsigned depth)
{
   if (depth > MAX_FRAMES || s->kind == SIDE_CONST)
      return depth > MAX_FRAMES;
   const struct frame *f = &m->frames[s->frame];
   if (s->kind == SIDE_PARAM) {
      for (unsigned j = 0; j < u->n; j++)
         if (u->vars[j] == -1 - s->id && u->frames[j] == s->frame)
            return 1; /* a parameter searched itself */
      return f->link[s->id] >= 0 && reads_any(m, &m->cons[f->link[s->id]].b, u, depth + 1);
   }
   const struct isa_asm_expr *e = expr_of(m, s);
   for (unsigned i = 0; i < e->n; i++) {
      int32_t r = m->t->reads[e->first + i];
      if (r < 0) {
         struct side p = {SIDE_PARAM, s->frame, -1 - r, 0};
         if (reads_any(m, &p, u, depth + 1))
            return 1;
         continue;
      }
      const struct isa_asm_var *v = &m->t->vars[r];
      if (v->index) {
         struct side index = {SIDE_EXPR, s->frame, v->index - 1, 0};
         if (reads_any(m, &index, u, depth + 1))
            return 1;
      }
      size_t at = var_at(m, r, s->frame);
      for (unsigned j = 0; j < u->n; j++)
         if (u->vars[j] >= 0 && var_at(m, u->vars[j], u->frames[j]) == at)
            return 1;
   }
   return 0;
}

/* Whether a waiting equation reads one of the fields of u: else what
 * waits does not depend on their values.  (With the watches: whether one
 * notified since they were set still waits.) */
static int waiting_reads(const struct matcher *m, const struct unknown_set *u)
{
   for (unsigned j = 0; m->watch_full ? j < m->n_cons : next_notified(m, &j); j++) {
      const struct con *c = &m->cons[j];
      if (!c->done && (reads_any(m, &c->a, u, 0) || reads_any(m, &c->b, u, 0)))
         return 1;
   }
   return 0;
}

/* Whether c is the equation that gave a parameter its argument. */
static int is_link(const struct matcher *m, const struct con *c)
{
   return c->a.kind == SIDE_PARAM && m->frames[c->a.frame].link[c->a.id] == (int32_t)(c - m->cons);
}

/* An equation with one unknown variable whose guess drops bits: the side
 * to solve, the value it must take, and the read; 0 if c is not one. */
static int lossy(const struct matcher *m, const struct con *c, const struct side **s, int64_t *want,
                 unsigned *which)
{
   unsigned w;
   if (c->check != CON_EQ)
      return 0;
   if (!unknowns(m, &c->b, &w)) {
      *s = &c->a;
      *want = value_of(m, &c->b);
   } else if (!unknowns(m, &c->a, &w)) {
      *s = &c->b;
      *want = value_of(m, &c->a);
   } else {
      return 0;
   }
   if ((*s)->kind != SIDE_EXPR || unknowns(m, *s, which) != 1)
      return 0;
   const struct isa_asm_expr *e = expr_of(m, *s);
   uint8_t free = m->t->free[e->first + *which];
   if (!read_placed(m, m->t->reads[e->first + *which], (*s)->frame))
      return 0;
   return *which < 32 && ((e->proposes >> *which) & 1) && free > 0;
}

/* Set the domain of the field at byte `at` to `keep` (256 bits). */
static int narrow(struct matcher *m, size_t at, const uint64_t *keep)
{
   if (!m->narrowed[at]) {
      if (!push_trail(m, TR_DOMAIN, (uint32_t)at, 4, 0))
         return 0;
      m->narrowed[at] = 1;
      for (unsigned w = 0; w < 4; w++)
         m->domain[4 * at + w] = ~(uint64_t)0;
   }
   for (unsigned w = 0; w < 4; w++) {
      if (m->domain[4 * at + w] == keep[w])
         continue;
      if (!push_trail(m, TR_DOMAIN, (uint32_t)at, w, (int64_t)m->domain[4 * at + w]))
         return 0;
      m->domain[4 * at + w] = keep[w];
   }
   return 1;
}

/* A new equation that waits on one unknown field of at most 8 bits (links
 * aside), or on a few unknown bits (at most PROBE_BITS): each of their
 * values is tried at once, with the equation alone.  None holds: the
 * reading fails here, not at the unit's end; one: it is taken; more: the
 * field keeps only those values.  (Midgard's write masks, swizzles and
 * shrink modes: a wrong reading of one letter stops at it, instead of
 * multiplying with every later one.) */
#define PROBE_BITS 4

static int key_add(struct probe_key *k, int64_t x)
{
   if (k->n == MEMO_KEY)
      return 0;
   k->v[k->n++] = x;
   return 1;
}

/* A key's target for can_hold: every field not known yet is named, with
 * its bits as they stand and its domain (what can_hold's tries read). */
#define KEY_UNKNOWNS (SIZE_MAX - 2)

/* The domain of the field at byte `at`: 0 when it has every value, else 1
 * and its four words (a key is short that way: the keys of Midgard's
 * constant lanes name eight fields) */
static int key_domain(const struct matcher *m, size_t at, struct probe_key *k)
{
   if (!m->narrowed[at])
      return key_add(k, 0);
   if (!key_add(k, 1))
      return 0;
   for (unsigned w = 0; w < 4; w++)
      if (!key_add(k, (int64_t)m->domain[4 * at + w]))
         return 0;
   return 1;
}

static int key_unknown(const struct matcher *m, int32_t r, size_t at, struct probe_key *k)
{
   return key_add(k, -1 - (int64_t)r) && key_add(k, load(m->unit + at, &m->t->vars[r])) && key_domain(m, at, k);
}

static int key_side(const struct matcher *m, const struct side *s, size_t target, struct probe_key *k,
                    unsigned depth);

/* The key of read r of frame f, an array element at an index not known
 * yet: what its index reads, and every element it may be (a Midgard
 * source's constant lane, chosen by a swizzle the search has not set: its
 * can_hold, which fails for every value of the swizzle under a wrong
 * constant, was worked again for each value of every field searched
 * around it, a second a bundle).  0: an element of a struct parameter
 * not known yet, or of an array of more elements than a key holds. */
#define KEY_ELEMENTS 8
static int key_element(const struct matcher *m, int32_t r, unsigned f, size_t target, struct probe_key *k,
                       unsigned depth)
{
   const struct isa_asm_var *v = &m->t->vars[r];
   size_t scope = var_scope(m, v, f);
   if (!v->index || v->count > KEY_ELEMENTS || scope >= AT_UNKNOWN)
      return 0;
   struct side index = {SIDE_EXPR, (uint16_t)f, v->index - 1, 0};
   if (!key_add(k, -1 - (int64_t)r) || !key_side(m, &index, target, k, depth + 1))
      return 0;
   for (unsigned i = 0; i < v->count; i++) {
      size_t at = scope + v->offset + (size_t)i * v->stride;
      int ok = at == target            ? key_add(k, INT64_MIN + 1)
               : m->known[at]          ? key_add(k, load(m->unit + at, v))
               : target == KEY_UNKNOWNS ? key_unknown(m, r, at, k)
                                        : 0;
      if (!ok)
         return 0;
   }
   return 1;
}

/* Side s's part of a probe's key: what it is and the values of what it
 * reads, following unknown parameters to their arguments; the field at
 * `target` (the one probed) is named, not valued.  0: past the key's size,
 * or it reads something whose value is not known. */
static int key_side(const struct matcher *m, const struct side *s, size_t target, struct probe_key *k,
                    unsigned depth)
{
   if (depth > 8 || !key_add(k, s->kind))
      return 0;
   if (s->kind == SIDE_CONST)
      return key_add(k, s->value);
   const struct frame *f = &m->frames[s->frame];
   if (s->kind == SIDE_PARAM) {
      if ((f->known >> s->id) & 1)
         return key_add(k, f->params[s->id]);
      return f->link[s->id] >= 0 && key_side(m, &m->cons[f->link[s->id]].b, target, k, depth + 1);
   }
   if (!key_add(k, s->id))
      return 0;
   const struct isa_asm_expr *e = expr_of(m, s);
   for (unsigned i = 0; i < e->n; i++) {
      int32_t r = m->t->reads[e->first + i];
      if (r < 0) {
         struct side p = {SIDE_PARAM, s->frame, -1 - r, 0};
         if (!key_side(m, &p, target, k, depth + 1))
            return 0;
         continue;
      }
      size_t at = var_at(m, r, s->frame);
      if (at == AT_UNKNOWN) {
         if (!key_element(m, r, s->frame, target, k, depth))
            return 0;
         continue;
      }
      int ok = at == target    ? key_add(k, -1 - (int64_t)r)
               : at == SIZE_MAX  ? key_add(k, INT64_MIN)
               : m->known[at]    ? key_add(k, load(m->unit + at, &m->t->vars[r]))
               : target == KEY_UNKNOWNS ? key_unknown(m, r, at, k)
                                 : 0;
      if (!ok)
         return 0;
   }
   return 1;
}

/* The key of probing equation i on the field of read `var` at `at` (or of
 * can_hold: var -2, at KEY_UNKNOWNS); 0 when it cannot be remembered. */
static int probe_key(const struct matcher *m, const struct con *c, int32_t var, size_t at, struct probe_key *k)
{
   k->n = 0;
   if (c->check == CON_TEXT && (c->arg & ISA_ASM_SCALED))
      return 0; /* its scale is an expression of its own */
   int64_t head[] = {c->check, c->truth, c->arg, c->check == CON_TEXT ? (int64_t)c->at : 0, c->len, var,
                     (int64_t)m->ctx.offset, (int64_t)m->ctx.index, (int64_t)m->ctx.size, m->ctx.last,
                     m->ctx.listing, m->lax};
   for (unsigned j = 0; j < sizeof head / sizeof head[0]; j++)
      key_add(k, head[j]);
   if (at != KEY_UNKNOWNS && !key_domain(m, at, k))
      return 0;
   return key_side(m, &c->a, at, k, 0) && key_side(m, &c->b, at, k, 0);
}

static uint32_t key_hash(const struct probe_key *k)
{
   uint64_t h = 1469598103934665603u;
   for (unsigned j = 0; j < k->n; j++)
      h = (h ^ (uint64_t)k->v[j]) * 1099511628211u;
   return (uint32_t)(h ^ (h >> 32));
}

/* The memo slot for key: *hit when it holds that key's result (of this
 * unit); else the slot, claimed for it (the caller fills keep[] and then
 * marks it this generation's, unless its work ran out of steps). */
static struct memo *memo_slot(struct matcher *m, const struct probe_key *key, int *hit)
{
   uint32_t h = key_hash(key);
   struct memo *slot = &m->memo[h % MEMO_SLOTS];
   *hit = m->memo_gen[h % MEMO_SLOTS] == m->generation && slot->hash == h && slot->key.n == key->n &&
          memcmp(slot->key.v, key->v, key->n * sizeof key->v[0]) == 0;
   if (!*hit) {
      m->memo_gen[h % MEMO_SLOTS] = 0;
      slot->hash = h;
      slot->key.n = key->n; /* (its values only: a key holds up to MEMO_KEY) */
      memcpy(slot->key.v, key->v, key->n * sizeof key->v[0]);
   }
   return slot;
}

/* Whether c passes an argument on to a parameter that has no value yet:
 * any value of the argument satisfies it, and probing it tells nothing. */
static int passes_on(const struct matcher *m, const struct con *c)
{
   return c->a.kind == SIDE_PARAM && !((m->frames[c->a.frame].known >> c->a.id) & 1);
}

/* A field a probe narrowed to some values is searched whole: the bits its
 * mask leaves out, as they stand, may be no value it has left. */
static void unmask_narrowed(const struct matcher *m, struct unknown_set *u)
{
   for (unsigned j = 0; j < u->n; j++) {
      if (u->vars[j] < 0 || !u->masks[j] || !m->narrowed[var_at(m, u->vars[j], u->frames[j])])
         continue;
      u->bits += m->t->vars[u->vars[j]].width - u->widths[j];
      u->widths[j] = m->t->vars[u->vars[j]].width;
      u->masks[j] = 0;
   }
}

/* Whether waiting equation i can hold at all, alone: some value of the
 * unknown bits it reads (at most SEARCH_BITS of them) satisfies it, the
 * other equations aside.  When none does, no search of other fields can
 * help, and the reading stops here.  (A Midgard bundle's constant lane
 * that no swizzle selects was found only after every value of every
 * other unknown field had been tried under it: a hundred times slower.)
 * A parameter's link is such an equation once the parameter has a value
 * (a case's rm == 3 where the argument cannot be 3).  probed: probe has
 * just tried it, so one field of at most 8 bits needs no second try. */
static int can_hold(struct matcher *m, unsigned i, int probed)
{
   const struct con *c = &m->cons[i];
   if (c->done || passes_on(m, c) || c->check == CON_RULE)
      return 1;
   struct unknown_set u;
   memset(&u, 0, sizeof u);
   u.use_masks = 1;
   if (!unknown_fields(m, &c->a, &u, 0, 0) || !unknown_fields(m, &c->b, &u, 0, 0) || u.n == 0)
      return 1;
   /* (what probe just tried: one field of at most 8 bits, or a few bits) */
   unsigned whole = 0;
   for (unsigned j = 0; j < u.n; j++)
      whole += u.vars[j] < 0 ? u.widths[j] : m->t->vars[u.vars[j]].width;
   if (probed && ((u.n == 1 && u.vars[0] >= 0 && whole <= 8) || whole <= PROBE_BITS))
      return 1;
   unmask_narrowed(m, &u);
   if (u.bits > SEARCH_BITS)
      return 1; /* (not known to fail) */
   /* remembered as a probe is: the same equation over the same known
    * values, its unknown fields as they stand, holds or not alike (a
    * search tries the values of one field under each of another's) */
   struct probe_key key;
   struct memo *slot = NULL;
   int hit = 0;
   if (probe_key(m, c, -2, KEY_UNKNOWNS, &key) && (slot = memo_slot(m, &key, &hit)) != NULL && hit)
      return (int)slot->keep[0];
   int holds = 0, bounds = m->trying_bounds;
   uint64_t x = 0;
   m->trying = 1;        /* (the values are undone at once: no equation is pending by them) */
   m->trying_bounds = 1; /* (and one out of range is no message) */
   for (; !holds && x < ((uint64_t)1 << u.bits); x++) {
      unsigned mark = m->n_trail;
      int same;
      holds = assign_packed(m, &u, x, NULL, &same);
      /* the arguments it reaches the fields through, outermost first */
      for (unsigned l = u.n_links; holds && l-- > 0;)
         holds = try_con(m, &m->cons[u.links[l]]) != FAIL;
      holds = holds && try_con(m, &m->cons[i]) != FAIL;
      undo(m, mark);
   }
   m->trying = 0;
   m->trying_bounds = bounds;
   /* (its tries count against the step budget: a bundle whose searches
    * each end in a can_hold that fails took a minute without) */
   m->steps += x / TRIES_PER_STEP;
   if (m->steps > STEP_BUDGET)
      m->overflow = 1;
   if (m->overflow)
      return 1;
   if (slot) {
      slot->keep[0] = (uint64_t)holds;
      m->memo_gen[slot - m->memo] = m->generation;
   }
   return holds;
}

/* How many values of field v (of at most 8 bits) keep holds; *first gets
 * the least of them (as probe orders them: by their bits). */
static unsigned kept(const struct isa_asm_var *v, const uint64_t *keep, int64_t *first)
{
   unsigned found = 0;
   for (unsigned w = 4; w-- > 0;) {
      if (keep[w]) {
         found += (unsigned)isa_x_popcount((int64_t)keep[w]);
         *first = bits_value(v, 64 * w + first_set_bit(keep[w]));
      }
   }
   return found;
}

/* Whether side s reads nothing whose place depends on a value (an element
 * at a computed index, a field of a struct parameter). */
static int plain_side(const struct matcher *m, const struct side *s)
{
   if (s->kind != SIDE_EXPR)
      return 1;
   const struct isa_asm_expr *e = expr_of(m, s);
   for (unsigned k = 0; k < e->n; k++) {
      int32_t r = m->t->reads[e->first + k];
      if (r >= 0 && (m->t->vars[r].base || m->t->vars[r].index || m->t->vars[r].slot))
         return 0;
   }
   return 1;
}

/* Whether probe's tries of equation c (through the links of u) may be
 * worked directly: c a plain comparison, and what it and its links read
 * at places no value moves. */
static int directable(const struct matcher *m, const struct unknown_set *u, const struct con *c)
{
   if ((c->check != CON_EQ && c->check != CON_CHECK && c->check != CON_LE) || !plain_side(m, &c->a) ||
       !plain_side(m, &c->b))
      return 0;
   for (unsigned l = 0; l < u->n_links; l++)
      if (!plain_side(m, &m->cons[u->links[l]].b))
         return 0;
   return 1;
}

/* Whether, with the probed field and its links' parameters set, equation
 * c and the links read nothing unknown: then each try of another value
 * reads the same places, all known (directable), and try_con's working of
 * them is a comparison of their values. */
static int all_known(const struct matcher *m, const struct unknown_set *u, const struct con *c)
{
   unsigned w;
   if (unknowns(m, &c->a, &w) || unknowns(m, &c->b, &w))
      return 0;
   for (unsigned l = 0; l < u->n_links; l++)
      if (unknowns(m, &m->cons[u->links[l]].b, &w))
         return 0;
   return 1;
}

/* One of probe's tries, the field set, worked as try_con works the links
 * (outermost first: a parameter not known takes its argument's value, one
 * known must equal it) and then equation c, all of whose reads are known
 * (all_known), without the trail: a third of Lima GP's time went to the
 * tries' equations. */
static int direct_try(struct matcher *m, const struct unknown_set *u, const struct con *c)
{
   struct frame *set_in[MAX_SEARCH_VARS];
   uint16_t set_bit[MAX_SEARCH_VARS];
   unsigned n_set = 0;
   int ok = 1;
   for (unsigned l = u->n_links; ok && l-- > 0;) {
      const struct con *k = &m->cons[u->links[l]];
      struct frame *f = &m->frames[k->a.frame];
      int64_t want = value_of(m, &k->b);
      uint16_t bit = (uint16_t)(1u << k->a.id);
      if (f->known & bit) {
         ok = f->params[k->a.id] == want;
      } else {
         f->params[k->a.id] = want;
         f->known |= bit;
         set_in[n_set] = f;
         set_bit[n_set++] = bit;
      }
   }
   ok = ok && holds(m, c);
   while (n_set-- > 0)
      set_in[n_set]->known &= (uint16_t)~set_bit[n_set];
   return ok;
}

/* Probe equation i (above).  *open (when not NULL) gets 1 when it held
 * with more unknown bits than a probe tries, the one case can_hold has to
 * try itself; in every other, can_hold after it finds what it found. */
static int probe_to(struct matcher *m, unsigned i, int *open)
{
   const struct con *c = &m->cons[i];
   if (open)
      *open = 0;
   if (c->done || passes_on(m, c) || c->check == CON_RULE)
      return 1;
   struct unknown_set u;
   memset(&u, 0, sizeof u);
   u.use_masks = 1;
   if (!unknown_fields(m, &c->a, &u, 0, 0) || !unknown_fields(m, &c->b, &u, 0, 0) || u.n == 0)
      return 1;
   if (u.n == 1 && u.vars[0] >= 0 && m->t->vars[u.vars[0]].width <= 8) {
      const struct isa_asm_var *v = &m->t->vars[u.vars[0]];
      size_t at = var_at(m, u.vars[0], u.frames[0]);
      uint64_t keep[4] = {0, 0, 0, 0};
      unsigned found = 0;
      int64_t first = 0;
      struct probe_key key;
      struct memo *slot = NULL;
      int hit = 0;
      if (probe_key(m, c, u.vars[0], at, &key)) {
         slot = memo_slot(m, &key, &hit);
         if (hit) {
            memcpy(keep, slot->keep, sizeof keep);
            found = kept(v, keep, &first);
            goto probed;
         }
         /* (filled below, unless the probe overflows) */
      }
      /* Only the bits of the field the equation's value depends on
       * (u.masks[0], the union of its reads' masks, through the arguments
       * it reaches the field by) are tried, one value for each of their
       * combinations: the others cannot change whether it holds.  (Not for
       * a field with a largest value: assign's error names that range, as a
       * try of each value finds.) */
      uint64_t all = ((uint64_t)1 << v->width) - 1, mask = u.masks[0] & all;
      if (!mask || v->most)
         mask = all;
      uint64_t held[4] = {0, 0, 0, 0}; /* the combinations of mask's bits that hold */
      /* worked directly once a try found everything they read known (see
       * direct_try), while the field is set off the trail */
      int direct = 0, can_direct = directable(m, &u, c);
      m->trying = 1; /* (the tries' values are undone: no equation is pending by them) */
      uint64_t x = 0;
      do {
         /* of the combination x, the first value the field may take (of
          * all bits, x itself: assign finds whether it may) */
         uint64_t y = x;
         while (mask != all && y <= all && !in_domain(m, at, v, (int64_t)y))
            y = (((y | mask) + 1) & ~mask) | x;
         if (y <= all) {
            unsigned mark = m->n_trail;
            /* (the field set as assign would, but off the trail: a try's
             * assign and undo were a third of what it cost) */
            int raw = !v->item_size && !v->most, ok;
            int64_t old = raw ? load(m->unit + at, v) : 0;
            if (raw && (ok = in_domain(m, at, v, bits_value(v, y))) != 0) {
               store(m->unit + at, v, bits_value(v, y));
               m->known[at] = 1;
            } else if (!raw) {
               ok = assign(m, u.vars[0], u.frames[0], bits_value(v, y));
            }
            if (ok && direct) {
               ok = direct_try(m, &u, c);
            } else {
               /* the arguments it reaches the equation through, outermost first */
               for (unsigned l = u.n_links; ok && l-- > 0;)
                  ok = try_con(m, &m->cons[u.links[l]]) != FAIL;
               int linked = ok;
               ok = ok && try_con(m, &m->cons[i]) != FAIL;
               direct = raw && linked && can_direct && all_known(m, &u, c);
            }
            undo(m, mark);
            if (raw) {
               store(m->unit + at, v, old);
               m->known[at] = 0;
            }
            if (m->overflow) {
               m->trying = 0;
               return 0;
            }
            if (ok)
               held[x / 64] |= (uint64_t)1 << (x % 64);
         }
         x = (x - mask) & mask; /* (the next combination) */
      } while (x != 0);
      m->trying = 0;
      /* every value the field may take whose combination holds */
      if (mask == all)
         memcpy(keep, held, sizeof keep);
      else
         for (x = 0; x <= all; x++) {
            uint64_t c = x & mask;
            if ((held[c / 64] >> (c % 64)) & 1 && in_domain(m, at, v, (int64_t)x))
               keep[x / 64] |= (uint64_t)1 << (x % 64);
         }
      found = kept(v, keep, &first);
      if (slot) {
         memcpy(slot->keep, keep, sizeof keep);
         m->memo_gen[slot - m->memo] = m->generation;
      }
   probed:
      if (found == 0)
         return 0;
      if (found == 1)
         return assign(m, u.vars[0], u.frames[0], first) && settle(m);
      return narrow(m, at, keep);
   }
   /* (a search of several fields tries all their bits: one whose bits
    * off its masks stood as they are would be set by a solution) */
   u.bits = 0;
   for (unsigned j = 0; j < u.n; j++) {
      if (u.vars[j] >= 0 && u.masks[j]) {
         u.masks[j] = 0;
         u.widths[j] = m->t->vars[u.vars[j]].width;
      }
      u.bits += u.widths[j];
   }
   if (u.bits > PROBE_BITS) {
      if (open)
         *open = 1;
      return 1;
   }
   struct saved s = save(m);
   unsigned found = 0;
   uint64_t first = 0;
   for (uint64_t x = 0; x < ((uint64_t)1 << u.bits) && found < 2; x++) {
      int same;
      if (assign_packed(m, &u, x, NULL, &same) && settle(m) && !found++)
         first = x;
      restore(m, &s);
      if (m->overflow)
         return 0;
   }
   if (found != 1)
      return found > 1;
   int same;
   return assign_packed(m, &u, first, NULL, &same) && settle(m);
}

/* Whether close_from works equation c first, with each value of the bits
 * its guess drops (at most 8): at a one-line unit's end, probing it
 * before (each value of its field's bits that it reads: 128 tries of a
 * register number whose low bit `n >> 1` drops, against 2) finds what that
 * does, a quarter of AGX's instructions. */
static int closed_first(const struct matcher *m, const struct con *c)
{
   const struct side *side;
   int64_t want;
   unsigned which;
   return lossy(m, c, &side, &want, &which) && m->t->free[expr_of(m, side)->first + which] <= 8;
}

/* Whether equation i, a number's, waits on a few bits of one field
 * (links aside): at most PROBE_BITS, the values probe tries. */
static int few_text_bits(const struct matcher *m, unsigned i)
{
   const struct con *c = &m->cons[i];
   struct unknown_set u;
   memset(&u, 0, sizeof u);
   u.use_masks = 1;
   return unknown_fields(m, &c->a, &u, 0, 0) && unknown_fields(m, &c->b, &u, 0, 0) && u.n == 1 && u.vars[0] >= 0 &&
          u.bits <= PROBE_BITS;
}

/* Probe the waiting equations (those that read a field of `touched`, or
 * all of them when it is NULL): after a search gave fields values, what
 * waits on one more field has its values narrowed, or fails at once,
 * instead of in a search nested deeper (forward checking); and each must
 * still be able to hold (can_hold).  Only those the watches notified
 * since can change (what reads them through a parameter: its argument's
 * equation was notified, and worked, or still waits). */
static int probe_waiting(struct matcher *m, const struct unknown_set *touched)
{
   int all = !touched || m->watch_full;
   for (unsigned j = 0; all ? next_waiting(m, &j) : next_notified(m, &j); j++) {
      const struct con *c = &m->cons[j];
      if (c->done || passes_on(m, c))
         continue;
      int reads = !touched || reads_any(m, &c->a, touched, 0) || reads_any(m, &c->b, touched, 0);
      /* (after a probe, can_hold has to try only what it left open: it
       * found the equation's unknown fields again for nothing; in a unit
       * of one line it is not tried at all: the closing search is at hand,
       * and on no corpus did it refute a reading there, while it cost AGX
       * a quarter of its instructions) */
      int open = 1;
      if (!touched && !m->t->multiline && closed_first(m, c))
         continue;
      if ((reads && !probe_to(m, j, &open)) || (open && m->t->multiline && !can_hold(m, j, reads)))
         return 0;
   }
   return 1;
}

static int probe_notified(struct matcher *m)
{
   if (m->watch_full)
      return 1;
   for (unsigned j = 0; next_notified(m, &j); j++)
      if (!m->cons[j].done && !probe_to(m, j, NULL))
         return 0;
   return 1;
}

static int close_from(struct matcher *m);

/* The fields of u are searched in the bits of them some waiting equation
 * reads (a field's bits no equation reads stay as they stand). */
static void widen_to_waiting(const struct matcher *m, struct unknown_set *u)
{
   for (unsigned j = 0; next_waiting(m, &j); j++) {
      const struct con *c = &m->cons[j];
      for (int k = 0; k < 2; k++) {
         const struct side *s = k ? &c->b : &c->a;
         if (s->kind != SIDE_EXPR)
            continue;
         const struct isa_asm_expr *e = expr_of(m, s);
         for (unsigned i = 0; i < e->n; i++) {
            int32_t r = m->t->reads[e->first + i];
            size_t at = r < 0 ? SIZE_MAX : var_at(m, r, s->frame);
            for (unsigned v = 0; v < u->n; v++) {
               if (u->vars[v] < 0 || !u->masks[v])
                  continue;
               if (at == AT_UNKNOWN)
                  widen_mask(m, u, v, 0); /* (an element whose place is not known: it may be this one) */
               else if (at == var_at(m, u->vars[v], u->frames[v]))
                  widen_mask(m, u, v, m->t->masks[e->first + i]);
            }
         }
      }
   }
}

/* A guess of read `which` of side s for `want` (alt: its dropped bits),
 * refined through a waiting equation F == e(F) of the same field: F takes
 * e(guess) instead (Midgard's condition code repeated eight times: the
 * guess from `cond & 3` is 3, and cond == (cond & 3) * 0x5555 makes it
 * 0xFFFF).  Whether that, settled and closed, is a solution. */
static int refined(struct matcher *m, const struct side *s, unsigned which, int64_t want, int64_t alt)
{
   const struct isa_asm_expr *e = expr_of(m, s);
   int32_t read = m->t->reads[e->first + which];
   if (read < 0)
      return 0;
   size_t at = var_at(m, read, s->frame);
   if (at >= AT_UNKNOWN)
      return 0;
   const struct frame *f = &m->frames[s->frame];
   int64_t x = e->propose(m->unit + f->scope, f->params, &m->ctx, which, want, alt);
   unsigned n = m->n_cons, w;
   for (unsigned j = 0; j < n && next_waiting(m, &j); j++) {
      for (int k = 0; k < 2; k++) {
         const struct con *c = &m->cons[j];
         const struct side *id = k ? &c->b : &c->a, *other = k ? &c->a : &c->b;
         if (c->done || c->check != CON_EQ || id->kind != SIDE_EXPR || !expr_of(m, id)->identity)
            continue;
         if (var_at(m, m->t->reads[expr_of(m, id)->first], id->frame) != at)
            continue;
         struct saved before = save(m);
         int64_t y = x;
         if (assign(m, read, s->frame, x) && !unknowns(m, other, &w))
            y = value_of(m, other);
         restore(m, &before);
         if (y != x && assign(m, read, s->frame, y) && value_of(m, s) == want && settle(m) && close_from(m))
            return 1;
         restore(m, &before);
         if (m->overflow)
            return 0;
      }
   }
   return 0;
}

/* A field that waiting equations read in bits apart from one another
 * (Midgard's LD_VARY offset, printed as `so >> 9` and as
 * `sext(so & 0x1FF, 9)`): each one's guess knows only the bits it reads, and
 * a search of them all is more than SEARCH_BITS.  The field takes each
 * one's guess in its own bits (the others as they stand).  Whether that,
 * settled and closed, is a solution; 0 too when no other equation reads
 * the field so. */
static int combined(struct matcher *m, unsigned i, const struct side *s, unsigned which, int64_t want)
{
   const struct isa_asm_expr *e = expr_of(m, s);
   int32_t read = m->t->reads[e->first + which];
   if (read < 0)
      return 0;
   size_t at = var_at(m, read, s->frame);
   const struct isa_asm_var *v = &m->t->vars[read];
   uint64_t all = v->width >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << v->width) - 1;
   uint64_t covered = m->t->masks[e->first + which] & all;
   if (at >= AT_UNKNOWN || !covered || covered == all)
      return 0;
   const struct frame *f = &m->frames[s->frame];
   uint64_t got = (uint64_t)e->propose(m->unit + f->scope, f->params, &m->ctx, which, want, 0) & covered;
   int others = 0;
   for (unsigned j = 0; next_waiting(m, &j); j++) {
      const struct side *s2;
      int64_t want2;
      unsigned which2;
      if (j == i || m->cons[j].done || !lossy(m, &m->cons[j], &s2, &want2, &which2))
         continue;
      const struct isa_asm_expr *e2 = expr_of(m, s2);
      int32_t read2 = m->t->reads[e2->first + which2];
      uint64_t mask2 = m->t->masks[e2->first + which2] & all;
      if (read2 < 0 || !mask2 || (mask2 & covered) || var_at(m, read2, s2->frame) != at)
         continue;
      const struct frame *f2 = &m->frames[s2->frame];
      got |= (uint64_t)e2->propose(m->unit + f2->scope, f2->params, &m->ctx, which2, want2, 0) & mask2;
      covered |= mask2;
      others++;
   }
   if (!others)
      return 0;
   uint64_t as_is = (uint64_t)load(m->unit + at, v) & all & ~covered;
   return assign(m, read, s->frame, bits_value(v, got | as_is)) && value_of(m, s) == want && settle(m) &&
          close_from(m);
}

/* The fields of u were just given values (a search's): settle, probe what
 * waits on them, and close the rest.  1: a solution (kept); 0: none, and
 * no other value of theirs can give one, since nothing left waiting reads
 * them (this keeps independent searches from multiplying); -1: none with
 * these values.  The caller restores the matcher unless 1. */
static int close_with(struct matcher *m, const struct unknown_set *u)
{
   if (!settle(m) || !probe_waiting(m, u))
      return -1;
   int apart = !waiting_reads(m, u);
   if (close_from(m))
      return 1;
   return apart ? 0 : -1;
}

/* Whether each rule's equation still waiting holds with the fields it
 * reads as they stand: what the text leaves open is not searched for a
 * rule's sake (see enum con_kind). */
static int rules_hold(struct matcher *m)
{
   for (unsigned j = 0; next_waiting(m, &j); j++) {
      if (m->cons[j].check == CON_RULE && !m->cons[j].done && value_of(m, &m->cons[j].a) == 0) {
         m->rule_failed = 1;
         return 0;
      }
   }
   return 1;
}

/* The waiting equations: first those whose guess drops bits, with each
 * value of those bits; then each other one with its unknown fields as they
 * stand (their XML defaults), else with every value they can take when
 * they have at most SEARCH_BITS bits; then the check of the whole. */
static int close_from(struct matcher *m)
{
   if (++m->steps > STEP_BUDGET) {
      m->overflow = 1;
      return 0;
   }
   struct saved s = save(m);
   unsigned first = m->n_cons;
   for (unsigned j = 0; next_waiting(m, &j); j++) {
      const struct side *side;
      int64_t want;
      unsigned which;
      if (first == m->n_cons)
         first = j;
      if (m->tried[j] || !lossy(m, &m->cons[j], &side, &want, &which))
         continue;
      uint8_t free = m->t->free[expr_of(m, side)->first + which];
      /* a right shift's dropped bits: each value; another guess: once,
       * then the search below */
      int64_t alts = free <= 8 ? (int64_t)1 << free : 1;
      for (int64_t alt = 0; alt < alts; alt++) {
         if (guess_alt(m, side, which, want, alt) && settle(m) && close_from(m))
            return 1;
         restore(m, &s);
         if (refined(m, side, which, want, alt))
            return 1;
         restore(m, &s);
         if (m->overflow)
            return 0;
      }
      if (free <= 8)
         return 0;
      if (combined(m, j, side, which, want))
         return 1;
      restore(m, &s);
      if (m->overflow)
         return 0;
      m->tried[j] = 1;
      int r = close_from(m);
      m->tried[j] = 0;
      return r;
   }
   if (first == m->n_cons)
      return verify(m);
   /* the waiting equation with the fewest unknown bits behind it, links
    * aside (any value satisfies those: they only pass values on) */
   struct unknown_set best, u;
   memset(&best, 0, sizeof best);
   int found = 0;
   /* by the bits of the fields the equation reads; when the other waiting
    * equations read more of them than a search covers, by whole fields,
    * as an equation that fits may be found that way */
   for (int masked = 1; masked >= 0 && !(found && best.bits <= SEARCH_BITS); masked--) {
      found = 0;
      for (unsigned j = first; next_waiting(m, &j); j++) {
         const struct con *c = &m->cons[j];
         if (is_link(m, c) || c->check == CON_RULE)
            continue;
         memset(&u, 0, sizeof u);
         u.use_masks = masked;
         if (!unknown_fields(m, &c->a, &u, 0, 0) || !unknown_fields(m, &c->b, &u, 0, 0) || u.n == 0)
            continue;
         if (!found || u.bits < best.bits) {
            best = u;
            found = 1;
         }
      }
      if (found && masked)
         widen_to_waiting(m, &best);
   }
   if (!found) {
      /* only links wait: their arguments' fields as they stand */
      int rules_only = 1;
      for (unsigned j = first; !found && next_waiting(m, &j); j++) {
         const struct con *c = &m->cons[j];
         if (c->check == CON_RULE)
            continue;
         rules_only = 0;
         memset(&u, 0, sizeof u);
         if (!c->done && unknown_fields(m, &c->b, &u, 0, 0) && unknown_fields(m, &c->a, &u, 0, 0) && u.n) {
            best = u;
            found = 1;
         }
      }
      if (!found)
         return rules_only && rules_hold(m) && verify(m);
   }
   unsigned n = best.n, bits = best.bits;
   int32_t *vars = best.vars;
   unsigned *frames = best.frames;
   int64_t as_is[MAX_SEARCH_VARS];
   for (unsigned j = 0; j < n; j++)
      as_is[j] = vars[j] < 0 ? 0 : load(m->unit + var_at(m, vars[j], frames[j]), &m->t->vars[vars[j]]);
   int ok = 1;
   clear_notified(m);
   for (unsigned j = 0; ok && j < n; j++)
      ok = assign(m, vars[j], frames[j], as_is[j]);
   int r = ok ? close_with(m, &best) : -1;
   if (r == 1)
      return 1;
   restore(m, &s);
   if (r == 0)
      return 0;
   if (bits > SEARCH_BITS || m->overflow)
      return 0;
   for (uint64_t x = 0; x < ((uint64_t)1 << bits); x++) {
      int same;
      clear_notified(m);
      ok = assign_packed(m, &best, x, as_is, &same);
      if (same) {
         restore(m, &s);
         continue;
      }
      r = ok ? close_with(m, &best) : -1;
      if (r == 1)
         return 1;
      restore(m, &s);
      if (r == 0)
         return 0;
      if (m->overflow)
         return 0;
   }
   return 0;
}

/* The unit's text read: its waiting equations closed.  A value out of
 * range found here is no message: it comes of what the search tried, not
 * of a number in the text (those are placed where they are read), and the
 * end of the text is no place to show (the reading's error is then that
 * no encoding prints the text). */
static int finish(struct matcher *m)
{
   int bounds = m->trying_bounds;
   m->trying_bounds = 1;
   int ok = settle(m) && probe_waiting(m, NULL) && close_from(m);
   m->trying_bounds = bounds;
   return ok;
}

/* ---- programs ------------------------------------------------------------------- */

static void position(const char *text, size_t at, unsigned *line, unsigned *col)
{
   unsigned l = 1, c = 1;
   for (size_t i = 0; i < at; i++) {
      if (text[i] == '\n') {
         l++;
         c = 1;
      } else {
         c++;
      }
   }
   *line = l;
   *col = c;
}

static int read_dump(const struct isa_spec *spec, const char *text, size_t len, uint8_t *buf, size_t cap,
                     size_t *size, struct diags *ds);

struct diags {
   struct isa_asm_diag *d;
   unsigned max, n;
   const char *text;
};

static void report(struct diags *ds, size_t at, const char *fmt, ...)
{
   if (ds->n < ds->max) {
      struct isa_asm_diag *d = &ds->d[ds->n];
      position(ds->text, at, &d->line, &d->col);
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(d->message, sizeof d->message, fmt, ap);
      va_end(ap);
   }
   ds->n++;
}

/* "expected X, Y or Z; found 'abc'" for the furthest point the matcher read to. */
static void report_expected(struct matcher *m, struct diags *ds)
{
   struct expected all;
   expected_names(m, &m->exp, &all);
   const struct expected *e = &all;
   char what[ISA_ASM_MESSAGE], found[40];
   /* what the text has there: 24 characters, and the rest of a word they cut (up to 36) */
   size_t at = e->pos, k = 0;
   while (at + k < m->len && m->text[at + k] != '\n' && (k < 24 || (k < 36 && is_word(m->text[at + k]))))
      k++;
   if (at >= m->len)
      snprintf(found, sizeof found, "the end of the text");
   else if (!k)
      snprintf(found, sizeof found, "the end of the line");
   else
      snprintf(found, sizeof found, "'%.*s'", (int)k, m->text + at);
   /* what the alternatives may take of the message: all of it but "expected ; found FOUND" */
   size_t room = sizeof what - (sizeof "expected ; found " - 1) - strlen(found);
   if (e->range[0]) {
      snprintf(what, sizeof what, "%.*s", (int)sizeof e->range, e->range);
   } else {
      /* the alternatives that share the longest start with the text */
      unsigned order[SHOWN_EXPECTED], shown = 0;
      size_t common[MAX_EXPECTED];
      for (unsigned i = 0; i < e->n; i++) {
         size_t c = 0;
         while (c < e->len[i] && e->pos + c < m->len && e->what[i][c] == m->text[e->pos + c])
            c++;
         common[i] = c;
      }
      for (unsigned pick = 0; pick < SHOWN_EXPECTED && pick < e->n; pick++) {
         int best = -1;
         for (unsigned i = 0; i < e->n; i++) {
            int used = 0;
            for (unsigned j = 0; j < shown; j++)
               used |= order[j] == i;
            if (!used && (best < 0 || common[i] > common[best]))
               best = (int)i;
         }
         order[shown++] = (unsigned)best;
      }
      /* each as the message shows it: quoted (a description, "a name", is
       * not), at most 40 characters, a line break or tab as \n or \t */
      char piece[SHOWN_EXPECTED][64];
      size_t piece_len[SHOWN_EXPECTED];
      for (unsigned o = 0; o < shown; o++) {
         unsigned i = order[o];
         int quote = e->what[i][0] != 'a' || strchr(e->what[i], ' ') == NULL;
         unsigned len = e->len[i] > 40 ? 40 : e->len[i];
         size_t q = 0;
         if (quote)
            piece[o][q++] = '\'';
         for (unsigned j = 0; j < len && q + 4 < sizeof piece[o]; j++) {
            char c = e->what[i][j];
            if (c == '\n' || c == '\t') {
               piece[o][q++] = '\\';
               piece[o][q++] = c == '\n' ? 'n' : 't';
            } else {
               piece[o][q++] = c;
            }
         }
         if (quote)
            piece[o][q++] = '\'';
         piece[o][q] = 0;
         piece_len[o] = q;
      }
      /* as many as fit whole, with the count of the others: a message is
       * never cut off */
      char others[48];
      for (;; shown--) {
         size_t need = 0;
         for (unsigned o = 0; o < shown; o++)
            need += piece_len[o] + (o == 0 ? 0 : o + 1 == shown && shown == e->n ? 4 : 2);
         others[0] = 0;
         if (shown < e->n)
            snprintf(others, sizeof others, "%s(or one of %u others)", shown ? " " : "", e->n - shown);
         if (need + strlen(others) < room || shown == 0)
            break;
      }
      size_t w = 0;
      for (unsigned o = 0; o < shown; o++) {
         const char *sep = o == 0 ? "" : o + 1 == shown && shown == e->n ? " or " : ", ";
         w += (size_t)snprintf(what + w, sizeof what - w, "%s%s", sep, piece[o]);
      }
      snprintf(what + w, sizeof what - w, "%s", others);
      if (!e->n)
         snprintf(what, sizeof what, "text this spec prints");
   }
   if (m->overflow && !e->range[0])
      report(ds, m->start, "too many ways to read this unit: simplify it, or give it in the form isa dis prints");
   else if (m->unsolved && m->unsolved + 1 >= e->pos && !e->range[0]) {
      /* (where the reading got to: its line too, when the unit was read
       * past its first, or the end of the text) */
      char where[48] = "";
      unsigned line = 0, col = 0, first = 0, ignored;
      if (ds->n < ds->max) {
         position(m->text, m->unsolved, &line, &col);
         position(m->text, m->start, &first, &ignored);
      }
      if (line == first)
         snprintf(where, sizeof where, "column %u", col);
      else if (rest_is_blank(m, m->unsolved))
         snprintf(where, sizeof where, "the end of the text");
      else
         snprintf(where, sizeof where, "line %u, column %u", line, col);
      report(ds, m->start, "no encoding prints this text: its values contradict each other or the fields they go "
                           "into (read to %s)", where);
   } else
      report(ds, at, "expected %s; found %s", what, found);
}

static void skip_line(struct matcher *m)
{
   while (m->pos < m->len && m->text[m->pos] != '\n')
      m->pos++;
}

/* The units assembled, and where each starts (a listing may skip zero
 * words between them). */
struct units {
   unsigned char *v;
   uint64_t *at;
   size_t *text; /* per unit: where its text starts and ends */
   size_t n, cap, size;
};

static int keep_unit(struct units *u, const void *obj, uint64_t at, size_t start, size_t end)
{
   if (u->n == u->cap) {
      size_t cap = u->cap ? u->cap * 2 : 16;
      unsigned char *v = (unsigned char *)realloc(u->v, cap * u->size);
      if (v)
         u->v = v;
      uint64_t *a = (uint64_t *)realloc(u->at, cap * sizeof *a);
      if (a)
         u->at = a;
      size_t *t = (size_t *)realloc(u->text, 2 * cap * sizeof *t);
      if (t)
         u->text = t;
      if (!v || !a || !t)
         return 0;
      u->cap = cap;
   }
   memcpy(u->v + u->n * u->size, obj, u->size);
   u->at[u->n] = at;
   u->text[2 * u->n] = start;
   u->text[2 * u->n + 1] = end;
   u->n++;
   return 1;
}

/* Of a unit printed p[0..pn) and its text s[0..sn) (not alike), where the
 * first line that is not alike starts in s; *pl gets where it starts in p
 * (pn: p has no line there).  Lines alike one by one but not all together:
 * the unit's first. */
static size_t first_unlike_line(const char *p, size_t pn, const char *s, size_t sn, const struct matcher *m,
                                size_t *pl)
{
   size_t i = 0, j = 0;
   while (i < pn && j < sn) {
      size_t ie = i, je = j;
      while (ie < pn && p[ie] != '\n')
         ie++;
      while (je < sn && s[je] != '\n')
         je++;
      if (!same_text(p + i, ie - i, s + j, je - j, m))
         break;
      i = ie + 1;
      j = je + 1;
   }
   if (i >= pn && j >= sn)
      i = j = 0;
   *pl = i < pn ? i : pn;
   return j < sn ? j : sn;
}

/* A spec whose program encoder derives fields of a unit from the next one
 * (isa_asm.chained): each unit of the program as encoded, buf[0..size),
 * prints the text it was read from, up to the next unit's (the blank lines
 * between them too: a Midgard bundle with no instructions prints an empty
 * line alone, and the matcher reads none).  Each unit was checked with
 * those fields as read; the encoder may write them otherwise (Midgard's
 * last bundle always says BREAK), and bytes that print other text are no
 * answer.  Reports the first unit that does not; 0 then. */
static int check_chained(struct matcher *m, const struct units *u, const uint8_t *buf, size_t size,
                         const int64_t *options, struct diags *ds)
{
   static const char because[] = "the encoder derives a unit's fields from the unit after it, or from its being "
                                 "the last, and no reading of the text encodes so";
   struct isa_cursor c;
   struct isa_ctx ctx;
   struct isa_error err;
   int ok = 1;
   if (isa_cursor_init(&c, m->spec, buf, size) != ISA_OK) {
      isa_cursor_fini(&c);
      return 1; /* (out of memory: not this check's to say) */
   }
   c.options = options;
   for (size_t i = 0; i < u->n && ok; i++) {
      if (isa_cursor_next(&c, m->decoded, &ctx, &err) <= 0 || ctx.offset != u->at[i]) {
         /* the walk stops where the printer does: the units after it print nothing */
         report(ds, u->text[2 * i], "the program as encoded ends before this unit (the one before it ends the "
                "listing: its next unit is derived from this one, and says the program is over)");
         ok = 0;
         break;
      }
      struct isa_out o;
      isa_out_buffer(&o, m->printed, sizeof m->printed);
      m->spec->unit->print(m->decoded, &o, &ctx);
      if (m->spec->separator)
         isa_out_mem(&o, m->spec->separator, strlen(m->spec->separator));
      /* the unit's text up to the next one's (the blank lines between them too) */
      size_t n = isa_out_len(&o), start = i ? u->text[2 * i] : 0, end = i + 1 < u->n ? u->text[2 * i + 2] : m->len;
      m->n_spans = 0;
      if (n < sizeof m->printed && !same_text(m->printed, n, m->text + start, end - start, m)) {
         size_t p = 0, at = start + first_unlike_line(m->printed, n, m->text + start, end - start, m, &p), k = 0;
         while (p + k < n && k < 60 && m->printed[p + k] != '\n')
            k++;
         if (p < n && k)
            report(ds, at, "the program as encoded prints '%.*s' here (%s)", (int)k, m->printed + p, because);
         else if (p < n)
            report(ds, at, "the program as encoded prints an empty line here (%s)", because);
         else
            report(ds, at, "the program as encoded does not print this line (%s)", because);
         ok = 0;
      }
   }
   isa_cursor_fini(&c);
   return ok;
}

/* A listing's units at their offsets, zeros between them (the zero words
 * isa dis skipped): each encoded as its checked encoder does. */
static int encode_at_offsets(const struct isa_spec *spec, const struct units *u, uint64_t end, uint8_t *buf,
                             size_t cap, size_t *size, struct isa_error *err)
{
   if (end > cap)
      return isa_fail(err, ISA_ERR_NOSPACE, spec->unit->name, 0, "the output buffer is too small");
   memset(buf, 0, (size_t)end);
   for (size_t i = 0; i < u->n; i++) {
      size_t bits = 0;
      int r = spec->unit->encode(u->v + i * u->size, buf, (size_t)end, (size_t)u->at[i] * 8, &bits, err);
      if (r != ISA_OK)
         return r;
   }
   *size = (size_t)end;
   return ISA_OK;
}

/* The program so far, each unit encoded at its offset: what a cursor
 * walks for the <state>s the next unit sees. */
struct sofar {
   uint8_t *buf;
   size_t len, cap;
   struct isa_cursor cursor;
   int open;                 /* the cursor is initialised (ctx's states point into it) */
};

static int sofar_add(struct sofar *p, const struct isa_spec *spec, const void *unit, uint64_t at, size_t bytes)
{
   size_t need = (size_t)at + bytes;
   if (need > p->cap) {
      size_t cap = p->cap ? p->cap : 256;
      while (cap < need)
         cap *= 2;
      uint8_t *b = (uint8_t *)realloc(p->buf, cap);
      if (!b)
         return 0;
      memset(b + p->cap, 0, cap - p->cap);
      p->buf = b;
      p->cap = cap;
   }
   struct isa_error err;
   size_t bits = 0;
   memset(p->buf + at, 0, bytes);
   if (spec->unit->encode(unit, p->buf, p->cap, (size_t)at * 8, &bits, &err) != ISA_OK)
      return 0;
   p->len = (size_t)at + bytes;
   return 1;
}

/* The <state>s the units so far leave the next one: one cursor walks them
 * as they are added (as far as they walk as a program).  0 when memory
 * runs out. */
static int sofar_states(struct sofar *p, const struct isa_spec *spec, const int64_t *options, struct isa_ctx *ctx)
{
   if (!spec->step || !p->len)
      return 1;
   if (!p->open) {
      if (isa_cursor_init(&p->cursor, spec, p->buf, p->len) != ISA_OK) {
         isa_cursor_fini(&p->cursor);
         return 0;
      }
      p->open = 1;
      p->cursor.options = options;
   } else if (isa_cursor_more(&p->cursor, p->buf, p->len) != ISA_OK) {
      return 0;
   }
   /* the units added since the last call (the cursor keeps its place) */
   struct isa_ctx c;
   struct isa_error err;
   while (isa_cursor_next(&p->cursor, NULL, &c, &err) > 0)
      continue;
   isa_cursor_states_after(&p->cursor, ctx);
   return 1;
}

static int match_unit(struct matcher *m);

/* The cursor over the units so far walks them again from the first (the
 * last one changed). */
static void sofar_rewind(struct sofar *p)
{
   if (p->open)
      isa_cursor_fini(&p->cursor);
   p->open = 0;
}

/* The units so far, the last one's chained field set to `value`: encoded,
 * and walked.  With `text` (its text, text[0..n)): 0 unless it still
 * prints that, and the walk goes on past it.  m->ctx gets the states the
 * next unit is read with. */
static int chain_to(struct matcher *m, struct units *units, struct sofar *sofar, const int64_t *options,
                    const struct isa_asm_var *v, int64_t value, const struct isa_ctx *here, const char *text,
                    size_t n)
{
   const struct isa_spec *spec = m->spec;
   unsigned char *prev = units->v + (units->n - 1) * m->unit_size;
   uint64_t at = units->at[units->n - 1];
   size_t bytes = sofar->len - (size_t)at, got = 0;
   store(prev + v->offset, v, value);
   sofar_rewind(sofar);
   sofar->len = (size_t)at;
   struct isa_ctx before = *here;
   before.state = NULL; /* (no unit before it: the states' initial values) */
   before.state_set = NULL;
   before.grown = NULL;
   int ok = sofar_states(sofar, spec, options, &before);
   struct isa_error err;
   ok = ok && sofar_add(sofar, spec, prev, at, bytes);
   if (ok && text) {
      before.offset = at;
      before.index = here->index ? here->index - 1 : 0;
      before.last = 0;
      ok = spec->unit->decode(sofar->buf, sofar->len, (size_t)at * 8, m->decoded, &got, &err) == ISA_OK &&
           got == bytes * 8;
      if (ok) {
         struct isa_out o;
         before.size = got;
         isa_out_buffer(&o, m->printed, sizeof m->printed);
         spec->unit->print(m->decoded, &o, &before);
         size_t pn = isa_out_len(&o);
         m->n_spans = 0; /* (the labels a unit uses are the next one's) */
         ok = pn < sizeof m->printed && same_text(m->printed, pn, text, n, m);
      }
   }
   m->ctx = *here;
   m->ctx.state = NULL;
   m->ctx.state_set = NULL;
   m->ctx.grown = NULL;
   if (!sofar_states(sofar, spec, options, &m->ctx))
      return 0;
   return ok && !(text && sofar->cursor.stopped);
}

/* Whether the previous unit's chained field, derived by the program
 * encoder with the unit just read (m->best) as its next, is `value`
 * (*derived: what it is, when derived gets it). */
static int chained_as(struct matcher *m, const struct units *units, const struct sofar *sofar,
                      const struct isa_asm_var *v, int64_t value, int64_t *derived)
{
   const struct isa_spec *spec = m->spec;
   unsigned char *copy = (unsigned char *)malloc(m->unit_size);
   if (!copy)
      return 0;
   memcpy(copy, units->v + (units->n - 1) * m->unit_size, m->unit_size);
   struct isa_ctx ctx, seen;
   struct isa_error err;
   memset(&ctx, 0, sizeof ctx);
   /* the <state>s before the previous unit, as the program encoder gives
    * them to its <derive>s: the units before it walked again */
   struct isa_cursor walk;
   uint64_t at = units->at[units->n - 1];
   int inited = at <= sofar->len, walking = inited && isa_cursor_init(&walk, spec, sofar->buf, (size_t)at) == ISA_OK;
   if (walking) {
      walk.options = m->ctx.options;
      while (isa_cursor_next(&walk, NULL, &seen, &err) > 0)
         continue;
      isa_cursor_states_after(&walk, &ctx);
   }
   ctx.offset = at;
   ctx.index = units->n - 1;
   ctx.next = m->best;
   ctx.options = m->ctx.options;
   int linked = spec->link(copy, &ctx, &err) == ISA_OK;
   int64_t got = load(copy + v->offset, v);
   if (inited)
      isa_cursor_fini(&walk);
   free(copy);
   if (linked && derived)
      *derived = got;
   return linked && got == value;
}

/* The unit at unit_start follows one with a field the program encoder
 * derives from the next unit (Midgard's next tag: the next bundle's tag).
 * As read, that field holds whatever printed its own text; but the
 * <state>s this unit is read with come from it.  A reading of this unit
 * stands when the field, derived with it as the next unit, is the value
 * it was read with.  When the first reading (`matched`) is not one, each
 * other value of the field is tried (where the previous unit still prints
 * its text, text[prev_start..prev_end), and the walk goes on past it): the
 * longest reading wins, then one that stands.  Whether a unit was read. */
static int chain(struct matcher *m, struct units *units, struct sofar *sofar, const int64_t *options,
                 size_t unit_start, size_t prev_start, size_t prev_end, int matched)
{
   const struct isa_spec *spec = m->spec;
   const struct isa_type_desc *ut = spec->unit;
   size_t usz = m->unit_size;
   if (!units->n || !m->t->n_chained || !spec->step || !spec->link || m->overflow)
      return matched;
   unsigned char *prev = units->v + (units->n - 1) * usz;
   uint16_t variant = 0;
   if (ut->variant_offset != ISA_NO_OFFSET)
      memcpy(&variant, prev + ut->variant_offset, sizeof variant);
   const struct isa_asm_chained *c = NULL;
   for (unsigned k = 0; k < m->t->n_chained && !c; k++)
      if (m->t->chained[k].alt == variant)
         c = &m->t->chained[k];
   if (!c || c->width > 8)
      return matched;
   struct isa_asm_var v;
   memset(&v, 0, sizeof v);
   v.offset = c->offset;
   v.c_size = c->c_size;
   v.width = c->width;
   v.is_signed = c->is_signed;
   int64_t orig = load(prev + c->offset, &v), first = orig;
   if (matched && chained_as(m, units, sofar, &v, orig, &first))
      return 1;
   /* the reading to beat: the first one */
   unsigned char *best = (unsigned char *)malloc(usz);
   if (!best)
      return matched;
   struct isa_ctx here = m->ctx;
   struct expected exp;
   copy_expected(&exp, &m->exp);
   size_t unsolved = m->unsolved, end = matched ? m->pos : 0, bytes = m->unit_bytes;
   int overflow = m->overflow, stands = 0;
   int64_t chosen = orig;
   if (matched)
      memcpy(best, m->best, usz);
   /* the value the first reading derives first: when the unit reads with
    * it as far, and stands, that is the answer (most often: the other
    * values are tried only when it is not) */
   for (int64_t x = -1; x < ((int64_t)1 << c->width); x++) {
      int64_t val = x < 0 ? first : c->is_signed ? isa_sext((uint64_t)x, c->width) : x;
      if (val == orig || (x >= 0 && val == first) ||
          !chain_to(m, units, sofar, options, &v, val, &here, m->text + prev_start, prev_end - prev_start))
         continue;
      m->pos = unit_start;
      if (!match_unit(m))
         continue;
      int ok = chained_as(m, units, sofar, &v, val, NULL);
      if (m->pos > end || (m->pos == end && ok && !stands)) {
         end = m->pos;
         bytes = m->unit_bytes;
         memcpy(best, m->best, usz);
         chosen = val;
         stands = ok;
         matched = 1;
         if (x < 0 && ok)
            break;
      }
   }
   /* the previous unit with the value chosen, and this unit as read with it */
   (void)chain_to(m, units, sofar, options, &v, chosen, &here, NULL, 0);
   m->ctx.offset = here.offset;
   m->ctx.index = here.index;
   if (matched) {
      memcpy(m->best, best, usz);
      m->pos = end;
      m->unit_bytes = bytes;
   } else {
      m->pos = unit_start;
      copy_expected(&m->exp, &exp);
      m->unsolved = unsolved;
      m->overflow = overflow;
   }
   free(best);
   return matched;
}

/* Whether the text from `at` on is only blanks, blank lines and comments. */
static int rest_is_blank(const struct matcher *m, size_t at)
{
   while (at < m->len) {
      char c = m->text[at];
      if (c == '#' || c == ';') {
         while (at < m->len && m->text[at] != '\n')
            at++;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
         at++;
      } else {
         return 0;
      }
   }
   return 1;
}

/* Where every unit's text has an empty line, one more right after a
 * unit's is a unit whose text is that empty line alone (Midgard's bundle
 * with no instructions): m->pos is put at it.  Beside a comment line,
 * and after the last unit, empty lines are layout. */
static int empty_unit_here(struct matcher *m)
{
   size_t at = m->pos, back = at;
   while (at < m->len && (m->text[at] == ' ' || m->text[at] == '\t' || m->text[at] == '\r'))
      at++;
   if (at >= m->len || m->text[at] != '\n' || rest_is_blank(m, at))
      return 0;
   /* the lines around: the next one with text, the last one before */
   size_t next = at;
   while (next < m->len && isspace((unsigned char)m->text[next]))
      next++;
   if (m->text[next] == '#' || m->text[next] == ';')
      return 0;
   while (back > 0 && isspace((unsigned char)m->text[back - 1]))
      back--;
   size_t line = back;
   while (line > 0 && m->text[line - 1] != '\n')
      line--;
   while (line < back && (m->text[line] == ' ' || m->text[line] == '\t'))
      line++;
   if (line < back && (m->text[line] == '#' || m->text[line] == ';'))
      return 0;
   m->pos = at;
   return 1;
}

/* A reading with nothing in it yet: no equations, frames or trail.  A
 * listing's prefix is read so (it reads no field of the unit, only its
 * place: nothing it does touches what start_unit clears, whose memsets were
 * a third of Lima PP's time when every prefix tried did them). */
static void start_reading(struct matcher *m)
{
   m->n_spans = 0;
   m->laxed = 0;
   m->n_frames = 1;
   m->frame = 0;
   memset(&m->frames[0], 0, sizeof m->frames[0]);
   for (unsigned i = 0; i < ISA_ASM_MAX_PARAMS; i++)
      m->frames[0].link[i] = -1;
   m->n_cons = 0;
   m->n_trail = 0;
   m->steps = 0;
   m->overflow = 0;
   clear_pending(m);
}

/* A fresh unit, nothing known of it. */
static void start_unit(struct matcher *m)
{
   start_reading(m);
   m->t->init(m->unit);
   memcpy(m->fresh, m->unit, m->unit_size);
   memset(m->known, 0, m->unit_size);
   memset(m->narrowed, 0, m->unit_size);
   m->rescan = m->watch_full = 0;
   /* (only the places a watch was made for head a list: clearing every
    * place cost TGSI 4% of its time) */
   for (unsigned w = 0; w < m->n_watch; w++)
      m->watch_head[m->watch[w].place] = 0;
   m->n_watch = 0;
   m->generation++; /* the context (offset, states) may differ: no probe is remembered */
}

/* Whether the listing prefix of some offset starts at m->pos (a label
 * there would be an offset: "a4: " of AGX's). */
static int prefix_here(struct matcher *m, uint64_t offset)
{
   if (m->t->prefix < 0)
      return 0;
   size_t at = m->pos;
   struct isa_ctx keep = m->ctx;
   uint32_t g = (uint32_t)m->t->prefix;
   struct cont stop = {K_STOP, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
   int found = 0;
   m->ctx.listing = 1;
   for (uint64_t o = offset; o < offset + 4 * (uint64_t)m->t->max_bytes + 1 && !found; o++) {
      m->pos = at;
      m->ctx.offset = o;
      start_reading(m);
      found = run(m, &g, 1, &stop);
   }
   m->ctx = keep;
   m->pos = at;
   return found;
}

/* After a unit of a listing that starts at `offset`: how many bytes the
 * next unit's offset prefix leaves it (the prefix is tried with each
 * length up to the longest unit), or 0. */
static size_t next_offset(struct matcher *m, uint64_t offset)
{
   size_t at = m->pos, found = 0;
   struct isa_ctx keep = m->ctx;
   skip_blank(m, 0, 1);
   size_t line = m->pos;
   for (size_t n = 1; n <= m->t->max_bytes && !found && line < m->len; n++) {
      uint32_t g = (uint32_t)m->t->prefix;
      struct cont stop = {K_STOP, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
      m->pos = line;
      m->ctx.offset = offset + n;
      m->ctx.listing = 1;
      start_reading(m);
      if (run(m, &g, 1, &stop))
         found = n;
   }
   m->ctx = keep;
   m->pos = at;
   return found;
}

/* A unit of the program at m->pos, or 0 (and what was expected in m->exp). */
static int match_unit_as(struct matcher *m);

/* The unit at m->pos: its best reading, strict; when there is none (and
 * the search did not run out, and units are single lines), a lax one.  A lax reading takes what a
 * person or another tool may write for the printed text: letters in either
 * case, numbers in any form (decimal for hex, full precision for %10.4f,
 * 0x and the bits for a float, a signed value's two's complement bits), an
 * {if}'s body the printer leaves out written all the same (COLOR[0],
 * .xyzw, [0..0]).  The check then compares that text as such (spans).  The
 * error is that of the reading that read further. */
static int match_unit(struct matcher *m)
{
   size_t at = m->pos;
   int ok = match_unit_as(m);
   /* (not for units of several lines, Lima GP's instructions and
    * Midgard's bundles: their search is large already, and a lax one
    * doubled the time of each bundle that does not read) */
   if (ok || m->overflow || m->t->multiline)
      return ok;
   struct expected exp;
   copy_expected(&exp, &m->exp);
   size_t unsolved = m->unsolved;
   m->pos = at;
   m->exp.pos = 0;
   forget_expected(&m->exp);
   m->lax = 1;
   ok = match_unit_as(m);
   m->lax = 0;
   if (!ok) {
      /* the error: of the reading that read further (the strict one's
       * when as far: a lax reading expects what it would also take) */
      m->pos = at;
      if (m->exp.pos <= exp.pos)
         copy_expected(&m->exp, &exp);
      m->unsolved = unsolved > m->unsolved ? unsolved : m->unsolved;
      m->overflow = 0; /* (what a lax reading ran out of is no error of the text's) */
   }
   return ok;
}

static int match_unit_read(struct matcher *m);

/* The unit at m->pos, read with its rules as equations (goal RULE), and
 * when that finds no reading (and did not run out of steps), read again
 * without them.  A reading the spec's error rules hold for ranks above any
 * they find an error in, so the first reading finds what a search without
 * them would rank first, cutting each path a rule refutes where it starts;
 * text whose only encodings break a rule still assembles, as such. */
static int match_unit_as(struct matcher *m)
{
   size_t at = m->pos;
   /* (a unit of several lines is read without them: there, a reading they
    * hold for may end a line before one they refute, and the longer text
    * is the better reading, so a reading found with them may not be the
    * best; a unit of one line ends where its line does) */
   m->no_rules = m->t->multiline || !m->t->line_units;
   m->rule_failed = 0;
   int ok = match_unit_read(m);
   /* (when no rule refuted anything, a reading without them finds what
    * this one did: none) */
   if (ok || m->overflow || !m->rule_failed) {
      m->no_rules = 0;
      return ok;
   }
   m->pos = at;
   m->no_rules = 1;
   ok = match_unit_read(m);
   m->no_rules = 0;
   return ok;
}

/* isa_asm.fill's question: whether the best reading, one field changed
 * by a <fill>, still prints as it did, in as many bits, and the spec's
 * validators find no more in it. */
struct fill_check {
   struct matcher *m;
   const char *printed;
   size_t len, bits;
   unsigned errors, warnings;
};

static int fill_keeps(void *cookie)
{
   struct fill_check *c = (struct fill_check *)cookie;
   struct matcher *m = c->m;
   size_t bits;
   size_t n = reprint(m, m->best, m->printed, sizeof m->printed, &bits);
   if (n != c->len || bits != c->bits || memcmp(m->printed, c->printed, n) != 0)
      return 0;
   unsigned errors, warnings;
   count_findings(m, m->decoded, &errors, &warnings);
   return errors <= c->errors && warnings <= c->warnings;
}

/* The unit read: what the reference encoder writes into the bits its text
 * leaves open, where the spec says (<fill>; the search chose them by its
 * own ranking, fewest fields off their defaults). */
static void fill_best(struct matcher *m)
{
   char printed[PRINT_MAX];
   struct fill_check c = {m, printed, 0, 0, 0, 0};
   c.len = reprint(m, m->best, printed, sizeof printed, &c.bits);
   if (c.len == SIZE_MAX)
      return;
   count_findings(m, m->decoded, &c.errors, &c.warnings);
   m->t->fill(m->best, fill_keeps, &c);
}

static int match_unit_read(struct matcher *m)
{
   start_unit(m);
   m->start = m->pos;
   m->best_end = m->pos;
   m->best_mismatch = UINT_MAX;
   m->best_errors = UINT_MAX;
   m->best_warnings = UINT_MAX;
   m->best_laxed = UINT_MAX;
   m->best_found = 0;
   m->best_changed = SIZE_MAX;
   m->unsolved = 0;
   uint32_t root = m->t->unit;
   run(m, &root, 1, NULL);
   if (m->best_end == m->start)
      return 0;
   if (m->t->fill)
      fill_best(m);
   m->pos = m->best_end;
   m->unit_bytes = m->best_bytes;
   return 1;
}

/* A spec whose displays read $last (Midgard's "shader ended" comment): a
 * unit the text may end with is read again as the program's last, and
 * kept so when it reads as that and nothing but blanks follows it. */
static int match_last(struct matcher *m, size_t unit_start, int matched)
{
   if (!m->t->reads_last || (matched && !rest_is_blank(m, m->pos)))
      return matched;
   size_t end = m->pos, bytes = m->unit_bytes, usz = m->unit_size;
   struct expected exp;
   copy_expected(&exp, &m->exp);
   unsigned char *keep = matched ? (unsigned char *)malloc(usz) : NULL;
   if (matched && !keep)
      return matched;
   if (keep)
      memcpy(keep, m->best, usz);
   m->pos = unit_start;
   m->ctx.last = 1;
   if (match_unit(m) && rest_is_blank(m, m->pos)) {
      free(keep);
      return 1;
   }
   m->ctx.last = 0;
   m->pos = end;
   m->unit_bytes = bytes;
   copy_expected(&m->exp, &exp);
   if (keep)
      memcpy(m->best, keep, usz);
   free(keep);
   return matched;
}

static int assemble(const struct isa_spec *spec, const char *text, size_t len, const int64_t *options, uint8_t *buf,
                    size_t cap, size_t *size, struct diags *ds, struct labels *labels, int use_prefer);
static int assemble_passes(const struct isa_spec *spec, const char *text, size_t len, const int64_t *options,
                           uint8_t *buf, size_t cap, size_t *size, struct diags *ds, int use_prefer);

int isa_assemble(const struct isa_spec *spec, const char *text, size_t len, const int64_t *options,
                 uint8_t *buf, size_t cap, size_t *size,
                 struct isa_asm_diag *diags, unsigned max_diags, unsigned *n_diags)
{
   struct diags ds = {diags, max_diags, 0, text};
   *size = 0;
   if (n_diags)
      *n_diags = 0;
   if (!spec->assembler) {
      report(&ds, 0, "the %s spec has no assembler yet: its displays use what the assembler does not read",
             spec->name);
      if (n_diags)
         *n_diags = ds.n;
      return ISA_ERR_ARG;
   }
   if (spec->assembler->dump) {
      int r = read_dump(spec, text, len, buf, cap, size, &ds);
      if (n_diags)
         *n_diags = ds.n;
      return r;
   }
   int r = assemble_passes(spec, text, len, options, buf, cap, size, &ds, 1);
   if (r == ISA_ERR_ARG && spec->assembler->prefer) {
      /* the units the spec's <prefer> ranks first may not make a program
       * that prints the text (Midgard: a longer bundle moves the target
       * of a branch whose text shows the tag it finds there, so that a
       * later bundle, or the program as encoded, prints otherwise): read
       * it again without it, keeping the first reading's errors if that
       * fails too */
      unsigned found = ds.n, stored = found < max_diags ? found : max_diags;
      struct isa_asm_diag *kept = stored && diags ? (struct isa_asm_diag *)malloc(stored * sizeof *kept) : NULL;
      if (kept)
         memcpy(kept, diags, stored * sizeof *kept);
      if (kept || !stored || !diags) {
         int again = assemble_passes(spec, text, len, options, buf, cap, size, &ds, 0);
         if (again == ISA_OK) {
            r = again;
         } else {
            if (kept)
               memcpy(diags, kept, stored * sizeof *kept);
            ds.n = found;
            *size = 0;
            r = again == ISA_ERR_LIMIT ? again : r;
         }
      }
      free(kept);
   }
   if (n_diags)
      *n_diags = ds.n;
   return r;
}

/* The text read in passes: labels: each pass reads them where the pass
 * before left them, until none moves (a label used before its line is
 * known from the second). */
static int assemble_passes(const struct isa_spec *spec, const char *text, size_t len, const int64_t *options,
                           uint8_t *buf, size_t cap, size_t *size, struct diags *ds, int use_prefer)
{
   struct labels labels;
   memset(&labels, 0, sizeof labels);
   int r;
   for (unsigned pass = 0;; pass++) {
      labels.again = 0;
      labels.final = pass + 1 >= MAX_PASSES;
      ds->n = 0;
      *size = 0;
      r = assemble(spec, text, len, options, buf, cap, size, ds, &labels, use_prefer);
      if (labels.again && labels.final && r == ISA_OK) {
         report(ds, 0, "labels still move after %d readings of the text", MAX_PASSES);
         *size = 0;
         r = ISA_ERR_ARG;
      }
      if (!labels.again || labels.final || r == ISA_ERR_LIMIT)
         break;
   }
   free(labels.v);
   free(labels.slots);
   return r;
}

/* One pass over the text (isa_assemble). */
static int assemble(const struct isa_spec *spec, const char *text, size_t len, const int64_t *options, uint8_t *buf,
                    size_t cap, size_t *size, struct diags *dsp, struct labels *labels, int use_prefer)
{
   struct diags ds = *dsp;
   int status = ISA_OK;
   /* the matcher's tables are filled as they are used: only what comes
    * before them starts zeroed (a calloc of it all costs more than a short
    * program's assembly) */
   struct matcher *m = (struct matcher *)malloc(sizeof *m);
   if (m) {
      memset(m, 0, offsetof(struct matcher, frames));
      init_expected(&m->exp);
   }
   size_t usz = spec->unit->c_size;
   struct units units = {0, 0, 0, 0, 0, usz};
   struct sofar sofar;
   memset(&sofar, 0, sizeof sofar);
   if (!m)
      return ISA_ERR_LIMIT;
   m->spec = spec;
   m->t = spec->assembler;
   m->prefer = use_prefer ? m->t->prefer : NULL;
   m->text = text;
   m->len = len;
   m->unit_size = usz;
   m->bytes_cap = spec->assembler->max_bytes + 8;
   m->unit = (unsigned char *)calloc(1, usz);
   m->known = (unsigned char *)calloc(1, usz);
   m->decoded = calloc(4, usz);
   m->fresh = (unsigned char *)calloc(1, usz);
   m->domain = (uint64_t *)malloc(4 * usz * sizeof *m->domain); /* (read only where narrowed: narrow fills it) */
   m->narrowed = (unsigned char *)calloc(1, usz);
   m->bytes = (uint8_t *)calloc(1, m->bytes_cap);
   m->watch_head = (uint32_t *)calloc(usz + MAX_FRAMES * ISA_ASM_MAX_PARAMS, sizeof *m->watch_head);
   if (!m->unit || !m->known || !m->decoded || !m->bytes || !m->fresh || !m->domain || !m->narrowed ||
       !m->watch_head) {
      status = ISA_ERR_LIMIT;
      goto out;
   }
   void *prev = (unsigned char *)m->decoded + usz;
   m->best = (unsigned char *)m->decoded + 2 * usz;
   m->merged = (unsigned char *)m->decoded + 3 * usz;
   uint64_t offset = 0, index = 0;
   int listing = -1;
   int gaps = 0; /* a listing skipped zero words between units */
   /* after an error: lines where no unit starts are skipped unsaid */
   int recovering = 0;
   int states_off = 0; /* a unit failed: the <state>s after it are not what the program's would be */
   /* the unit before: what was expected furthest into the text, where it ended */
   struct expected prev_exp;
   size_t prev_start = 0, prev_end = 0;
   int prev_ok = 0;
   init_expected(&prev_exp);
   labels->pass++;
   m->labels = labels;
   for (;;) {
      if (!(m->t->empty_lines && index > 0 && !recovering && empty_unit_here(m)))
         skip_blank(m, 0, 1);
      if (m->pos >= m->len)
         break;
      /* a label (not a listing's offset prefix, which may look like one) */
      if (m->t->place >= 0 && listing != 1 && label_here(m, offset, &ds))
         continue;
      memset(&m->ctx, 0, sizeof m->ctx);
      m->ctx.offset = offset;
      m->ctx.index = index;
      m->ctx.prev = index && spec->reads_prev ? prev : NULL;
      m->ctx.options = options;
      if (!sofar_states(&sofar, spec, options, &m->ctx)) {
         status = ISA_ERR_LIMIT;
         goto out;
      }
      m->exp.pos = 0;
      forget_expected(&m->exp);
      /* isa dis --offsets's prefix, when the program's first unit has one */
      if (m->t->prefix >= 0 && listing != 0) {
         size_t at = m->pos;
         uint32_t g = (uint32_t)m->t->prefix;
         m->ctx.listing = 1;
         start_reading(m);
         struct cont stop = {K_STOP, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
         int got = run(m, &g, 1, &stop);
         if (listing < 0)
            listing = got;
         if (!got) {
            m->pos = at;
            m->ctx.listing = 0;
            if (listing > 0) {
               /* the prefix of another offset: say so (unless this follows
                * an error, which left the offset unknown), and go on from
                * the offset the text gives */
               size_t d = 0, reach = spec->skip_zero_bits ? 4096 : 4 * (size_t)spec->assembler->max_bytes;
               for (size_t n = 1; n <= reach && !d; n++) {
                  m->pos = at;
                  m->ctx.offset = offset + n;
                  start_reading(m);
                  if (run(m, &g, 1, &stop))
                     d = n;
               }
               m->pos = at;
               m->ctx.offset = offset;
               /* zero words isa dis skipped: as many as its stream says it skips */
               int skipped = d && spec->skip_zero_bits && spec->skip_unit_bits && d * 8 >= spec->skip_zero_bits &&
                             (d * 8) % spec->skip_unit_bits == 0;
               if (!recovering && !skipped)
                  report(&ds, at, "expected this unit's offset prefix, as isa dis --offsets prints it (the unit "
                         "starts at byte %llu, 0x%llx)", (unsigned long long)offset, (unsigned long long)offset);
               recovering = 0;
               if (d) {
                  gaps |= skipped;
                  offset += d;
                  continue;
               }
               skip_line(m);
               continue;
            }
         }
      }
      m->ctx.listing = listing > 0;
      m->exp.pos = 0; /* nothing the prefix's tries expected */
      forget_expected(&m->exp);
      /* a listing's "<disassembly failed>": bytes that decode as nothing, but which ones the text does not say */
      size_t failed_len = spec->failed_text ? strlen(spec->failed_text) : 0;
      if (failed_len && spec->resync_bits && m->len - m->pos >= failed_len &&
          memcmp(m->text + m->pos, spec->failed_text, failed_len) == 0) {
         report(&ds, m->pos, "'%s' stands for %u bytes that decode as no unit; the text does not say which",
                spec->failed_text, spec->resync_bits / 8);
         offset += spec->resync_bits / 8;
         skip_line(m);
         continue;
      }
      size_t unit_start = m->pos;
      int matched = match_unit(m);
      if (!matched && states_off && m->exp.fixed) {
         /* after a failed unit the <state>s are off: the unit again, taking
          * the numbers its place alone fixes from the text (TGSI's
          * instruction numbers), for what else is wrong in it and for the
          * states after it */
         m->recover = 1;
         m->pos = unit_start;
         matched = match_unit(m);
         m->recover = 0;
      }
      if (prev_ok)
         matched = chain(m, &units, &sofar, options, unit_start, prev_start, prev_end, matched);
      matched = match_last(m, unit_start, matched);
      /* failed at its first character: no unit starts here */
      int at_start = !matched && m->exp.pos <= unit_start && !m->exp.range[0] && !m->unsolved && !m->overflow;
      if (at_start && prev_ok && prev_exp.pos > prev_end) {
         /* the unit before stopped short of an error in its own later lines
          * (Lima GP): that error, not this */
         copy_expected(&m->exp, &prev_exp);
         report_expected(m, &ds);
         recovering = 1;
         prev_ok = 0;
         skip_line(m);
         continue;
      }
      if (matched) {
         /* what this unit's tries expected furthest (before next_offset's tries) */
         copy_expected(&prev_exp, &m->exp);
         /* in a listing, the next unit's offset says how long this one is
          * (AGX's long form of a value the short one holds) */
         size_t next = listing > 0 ? next_offset(m, offset) : 0;
         unsigned char *keep = next && next != m->unit_bytes ? (unsigned char *)malloc(usz) : NULL;
         if (keep) {
            size_t end = m->pos, bytes = m->unit_bytes;
            memcpy(keep, m->best, usz);
            m->pos = unit_start;
            m->require = next;
            if (!match_unit(m)) { /* no unit of that length: the one found stands */
               m->pos = end;
               m->unit_bytes = bytes;
               memcpy(m->best, keep, usz);
            }
            m->require = 0;
            free(keep);
         }
         if (!keep_unit(&units, m->best, offset, unit_start, m->pos) ||
             (spec->step && !sofar_add(&sofar, spec, m->best, offset, m->unit_bytes))) {
            status = ISA_ERR_LIMIT;
            goto out;
         }
         memcpy(prev, m->best, usz);
         offset += m->unit_bytes;
         index++;
         prev_start = unit_start;
         prev_end = m->pos;
         prev_ok = 1;
         recovering = 0;
         continue;
      }
      prev_ok = 0;
      /* after a unit that failed, a spec's <state>s miss what it would have
       * left: a later unit that fails first at a value its place alone
       * fixes (TGSI's instruction numbers) is not reported again */
      int cascade = states_off && m->exp.fixed;
      states_off |= spec->step != NULL;
      if (!(recovering && at_start) && !cascade) {
         report_expected(m, &ds);
         /* the failed text counts as a unit; after it, in a spec whose
          * units span lines, lines where no unit starts are its own and
          * pass unsaid */
         index++;
         recovering = m->t->multiline;
      }
      m->pos = m->exp.pos > m->start ? m->exp.pos : m->start;
      skip_line(m);
   }
   for (unsigned i = 0; i < labels->n; i++) /* a label at the program's end labels no unit */
      if (labels->v[i].pass == labels->pass && labels->v[i].offset == offset)
         report(&ds, (size_t)(labels->v[i].name - text), "label '%.*s' labels no unit (it is at the program's end)",
                (int)labels->v[i].len, labels->v[i].name);
   if (ds.n) {
      status = ISA_ERR_ARG;
      goto out;
   }
   if (units.n) {
      struct isa_error err;
      isa_error_clear(&err);
      status = gaps ? encode_at_offsets(spec, &units, offset, buf, cap, size, &err)
                    : isa_encode_program(spec, units.v, units.n, buf, cap, size, &err);
      if (status == ISA_OK && gaps)
         status = isa_end_program(spec, options, buf, cap, size, &err);
      if (status != ISA_OK) {
         char msg[160];
         isa_error_format(&err, msg, sizeof msg);
         report(&ds, len, "the program does not encode: %s", msg);
      } else if (m->t->n_chained && spec->step && !gaps && listing <= 0 && !labels->n &&
                 !check_chained(m, &units, buf, *size, options, &ds)) {
         status = ISA_ERR_ARG;
      }
   }
out:
   *dsp = ds;
   free(units.v);
   free(units.at);
   free(units.text);
   if (sofar.open)
      isa_cursor_fini(&sofar.cursor);
   free(sofar.buf);
   if (m) {
      free(m->unit);
      free(m->known);
      free(m->fresh);
      free(m->domain);
      free(m->narrowed);
      free(m->watch_head);
      free(m->decoded);
      free(m->bytes);
      free(m);
   }
   return status;
}

/* ---- the default display ----------------------------------------------------------- */

/* A value of field fd as isa_dump prints it: a name of its enum, a number
 * (decimal, 0x hex, 0b binary), or for a float16 or fixed-point field the
 * %g text of its value.  0 when it is none of those. */
static int dump_value(const struct isa_field_desc *fd, const char *s, size_t n, int64_t *v)
{
   char buf[64];
   if (!n || n >= sizeof buf)
      return 0;
   memcpy(buf, s, n);
   buf[n] = 0;
   if (fd->kind == ISA_K_ENUM && fd->enum_name && fd->width <= 16) {
      for (uint32_t k = 0; k < (1u << fd->width); k++) {
         const char *name = fd->enum_name(k);
         if (name && name[0] && strcmp(name, buf) == 0) {
            *v = k;
            return 1;
         }
      }
   }
   if ((fd->kind == ISA_K_FLOAT16 || fd->frac) && fd->width <= 16) {
      /* the value whose %g text this is */
      for (uint32_t k = 0; k < (1u << fd->width); k++) {
         char t[64];
         struct isa_out o;
         double d = fd->kind == ISA_K_FLOAT16 ? isa_half_to_double(k) : (double)k / (double)(UINT64_C(1) << fd->frac);
         isa_out_buffer(&o, t, sizeof t);
         isa_out_g(&o, d);
         isa_out_flush(&o);
         if (strcmp(t, buf) == 0) {
            *v = k;
            return 1;
         }
      }
      return 0;
   }
   char *end = NULL;
   errno = 0;
   const char *digits = buf;
   if (buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B'))
      *v = (int64_t)strtoull(digits = buf + 2, &end, 2);
   else if (buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X'))
      *v = (int64_t)strtoull(digits = buf + 2, &end, 16);
   else
      *v = (int64_t)strtoll(buf, &end, 10);
   /* digits after a 0x or 0b, and no sign after one */
   return end && *end == 0 && errno == 0 && end != digits && (digits == buf || isxdigit((unsigned char)*digits));
}

static int blank(char c)
{
   return c == ' ' || c == '\t' || c == '\r';
}

/* Set one NAME or NAME=VALUE (under row `row`, "" for none). */
static void dump_token(const struct isa_spec *spec, void *obj, const char *row, const char *text, size_t at,
                       size_t n, struct diags *ds)
{
   char path[256];
   size_t eq = 0;
   while (eq < n && text[at + eq] != '=')
      eq++;
   int w = snprintf(path, sizeof path, "%s%s%.*s", row, row[0] ? "." : "", (int)eq, text + at);
   if (w < 0 || (size_t)w >= sizeof path) {
      report(ds, at, "the field name is too long");
      return;
   }
   const struct isa_field_desc *fd = isa_field_find(spec->unit, obj, path);
   if (!fd) {
      report(ds, at, "%s has no field %s", spec->unit->name, path);
      return;
   }
   int64_t v = 1;
   if (eq == n && fd->kind != ISA_K_BOOL) {
      report(ds, at + n, "expected =VALUE after %s", path);
      return;
   }
   if (eq < n && !dump_value(fd, text + at + eq + 1, n - eq - 1, &v)) {
      report(ds, at + eq + 1, "expected a value of %s: %s", path,
             fd->kind == ISA_K_ENUM ? "one of its names or a number" : "a number (decimal, 0x hex or 0b binary)");
      return;
   }
   if (fd->width < 64 && (fd->width == 0 || (uint64_t)v >> fd->width) && !(v < 0 && fd->width &&
                                                                           v >= -((int64_t)1 << (fd->width - 1)))) {
      report(ds, at + eq + 1, "%s takes %u bits: %lld does not fit", path, fd->width, (long long)v);
      return;
   }
   if (isa_field_set(spec->unit, obj, path, v) != ISA_OK)
      report(ds, at, "%s cannot be set to %lld", path, (long long)v);
}

/* A program of a spec whose unit prints with the default display: one
 * unit, written as isa dis prints it (rows "NAME: field=value flag ...",
 * "field=value"; what is not written is zero). */
static int read_dump(const struct isa_spec *spec, const char *text, size_t len, uint8_t *buf, size_t cap,
                     size_t *size, struct diags *ds)
{
   void *obj = calloc(1, spec->unit->c_size);
   if (!obj)
      return ISA_ERR_LIMIT;
   spec->assembler->init(obj);
   size_t pos = 0;
   while (pos < len) {
      size_t end = pos;
      while (end < len && text[end] != '\n')
         end++;
      /* comments and blanks */
      size_t stop = pos;
      while (stop < end && text[stop] != '#' && text[stop] != ';')
         stop++;
      size_t p = pos;
      while (p < stop && blank(text[p]))
         p++;
      /* isa dis's line for a header with every field zero */
      static const char all_zero[] = "(all fields zero)";
      size_t z = p + sizeof all_zero - 1;
      if (z <= stop && !memcmp(text + p, all_zero, sizeof all_zero - 1)) {
         while (z < stop && blank(text[z]))
            z++;
         if (z == stop) {
            pos = end + 1;
            continue;
         }
      }
      size_t q = p;
      while (q < stop && !blank(text[q]) && text[q] != ':')
         q++;
      char row[128] = "";
      if (q < stop && text[q] == ':') {
         if (q - p >= sizeof row) {
            report(ds, p, "the row name is too long");
            pos = end + 1;
            continue;
         }
         memcpy(row, text + p, q - p);
         row[q - p] = 0;
         p = q + 1;
      }
      for (;;) {
         while (p < stop && blank(text[p]))
            p++;
         if (p >= stop)
            break;
         q = p;
         while (q < stop && !blank(text[q]))
            q++;
         dump_token(spec, obj, row, text, p, q - p, ds);
         p = q;
      }
      pos = end + 1;
   }
   int status = ds->n ? ISA_ERR_ARG : ISA_OK;
   if (status == ISA_OK) {
      struct isa_error err;
      isa_error_clear(&err);
      isa_select_variants(spec->unit, obj);
      status = isa_encode_program(spec, obj, 1, buf, cap, size, &err);
      if (status != ISA_OK && status != ISA_ERR_NOSPACE) {
         char msg[160];
         isa_error_format(&err, msg, sizeof msg);
         report(ds, 0, "the header does not encode: %s", msg);
      }
   }
   free(obj);
   return status;
}
