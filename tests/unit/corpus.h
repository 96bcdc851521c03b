/* Reference corpora as C data (made by tests/corpus2c.py). */
#ifndef TEST_CORPUS_H
#define TEST_CORPUS_H

struct corpus_field {
   const char *name;
   long long value;
};

#define CORPUS_RESERVED_SET 1u
#define CORPUS_ENUM_UNNAMED 2u

struct corpus_entry {
   const char *id;
   const char *hex;
   const struct corpus_field *fields;
   unsigned n_fields;
   const char *type;
   const char *text; /* reference text, or NULL */
   unsigned flags;
};

extern const struct corpus_entry corpus_nv_sph[], corpus_lima_pp[], corpus_lima_gp[], corpus_lima_pp_excluded[],
   corpus_tgsi[];
extern const unsigned corpus_nv_sph_count, corpus_lima_pp_count, corpus_lima_gp_count, corpus_lima_pp_excluded_count,
   corpus_tgsi_count;

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
         {"tgsi", corpus_tgsi, &corpus_tgsi_count},                                                             \
   }

#endif
