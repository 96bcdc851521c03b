/* Reference corpora as C data (made by tests/corpus2c.py). */
#ifndef TEST_CORPUS_H
#define TEST_CORPUS_H

struct corpus_field {
   const char *name;
   long long value;
};

#define CORPUS_RESERVED_SET 1u
#define CORPUS_ENUM_UNNAMED 2u
#define CORPUS_LISTING 4u      /* a listing: printed with addresses (isa dis --offsets) */
#define CORPUS_NONE_OPERAND 8u /* the reference prints the literal None for an operand */
#define CORPUS_FIXED_QUIRK 16u /* triggers a reference-printer quirk we fix (tests/corpus/NAME.quirks.json) */
#define CORPUS_TRIMMED 32u     /* the text lost all its trailing newlines, not just the last */

struct corpus_entry {
   const char *id;
   const char *hex;
   const struct corpus_field *fields;
   unsigned n_fields;
   const char *type;
   const char *text; /* reference text, or NULL */
   unsigned flags;
   const char *rem;        /* hex value of the bits no field covers, when the corpus gives it */
   const char *as_alt;     /* decode as this alternative (one another always shadows) */
   const char *decodes_as; /* ...which these bytes otherwise decode as */
   const char *none_u;     /* CORPUS_NONE_OPERAND, per None operand: a texture's U, or "-" ("11,-") */
   const char *options;    /* spec options the entry needs, "gpu=t760", or NULL */
};

extern const struct corpus_entry corpus_nv_sph[], corpus_lima_pp[], corpus_lima_gp[], corpus_lima_pp_excluded[],
   corpus_tgsi[], corpus_agx[], corpus_agx_2021[], corpus_midgard[], corpus_midgard_excluded[];
extern const unsigned corpus_nv_sph_count, corpus_lima_pp_count, corpus_lima_gp_count, corpus_lima_pp_excluded_count,
   corpus_tgsi_count, corpus_agx_count, corpus_agx_2021_count, corpus_midgard_count, corpus_midgard_excluded_count;

/* The corpora and the spec each is for. */
struct corpus {
   const char *spec;
   const struct corpus_entry *entries;
   const unsigned *count;
};

#define CORPORA                                                                                                \
   {                                                                                                            \
      {"nv-sph", corpus_nv_sph, &corpus_nv_sph_count}, {"lima-pp", corpus_lima_pp, &corpus_lima_pp_count},     \
         {"lima-gp", corpus_lima_gp, &corpus_lima_gp_count},                                                   \
         {"lima-pp", corpus_lima_pp_excluded, &corpus_lima_pp_excluded_count},                                 \
         {"tgsi", corpus_tgsi, &corpus_tgsi_count}, {"agx-g13", corpus_agx, &corpus_agx_count},                 \
         {"agx-g13@2021", corpus_agx_2021, &corpus_agx_2021_count},                                             \
         {"midgard", corpus_midgard, &corpus_midgard_count},                                                   \
         {"midgard", corpus_midgard_excluded, &corpus_midgard_excluded_count},                                 \
   }

#endif
