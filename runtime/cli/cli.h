/* The isa command: shared declarations of its parts. */
#ifndef ISA_CLI_H
#define ISA_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "isagen/isagen.h"

enum { EXIT_OK = 0, EXIT_INVALID = 1, EXIT_USAGE = 2 };

#define MAX_SPEC_OPTIONS 8

#define MAX_LOADED 8

/* The specs of a library given with --load */
struct loaded_specs {
   const char *path;
   const struct isa_spec *const *specs;
   unsigned n;
};

struct options {
   const struct isa_spec *spec;
   struct loaded_specs loaded[MAX_LOADED]; /* --load, looked up first */
   unsigned n_loaded;
   /* --NAME VALUE pairs for the spec's <option>s, and the values they give
    * (defaults for the others): spec_options[k] is option k */
   const char *opt_name[MAX_SPEC_OPTIONS], *opt_value[MAX_SPEC_OPTIONS];
   unsigned n_opt;
   int64_t spec_options[MAX_SPEC_OPTIONS];
   const char *hex;    /* --hex */
   const char *file;   /* FILE or "-" */
   const char *batch;  /* --batch FILE or "-" */
   bool json;
   bool offsets;
   bool strict;
   bool show_bytes;    /* --show-bytes */
   bool input_hex;     /* --input hex: FILE and - hold hex text */
   bool have_stop;
   uint64_t start, stop; /* --start, --stop: the bytes [start, stop) of the program */
   uint64_t base;      /* --base (or, from an ELF file, its section's address) */
   bool have_base;
   const char *section; /* --section: of an ELF file */
   const char *output;  /* as -o OUT */
   bool out_hex;        /* as --hex: hex text out, not bytes */
};

/* The offset printed for a unit at `offset` of the (sliced) program */
static inline uint64_t shown_offset(const struct options *o, uint64_t offset)
{
   return o->base + o->start + offset;
}

/* input.c */
/* A program's bytes: data[0, len), inside the storage at base (size
 * bytes), which is the heap or, for a file, a read-only mapping of it. */
struct bytes {
   const uint8_t *data;
   size_t len;
   void *base;
   size_t size;
   bool mapped;
};
/* Parse hex text: bytes in memory order, two digits each, in groups that
 * whitespace or , ; : may separate and 0x may start (never inside a byte).
 * On error returns false and writes a message into err. */
bool parse_hex(const char *text, size_t n, struct bytes *out, char *err, size_t errsize);
/* The same into dst, which has room for n / 2 bytes; *len gets their number. */
bool hex_to_bytes(const char *text, size_t n, uint8_t *dst, size_t *len, char *err, size_t errsize);
/* A whole file ("-" is stdin): a regular file is mapped, so that its
 * pages are read as the decoder gets to them and can be let go behind it
 * (bytes_release); anything else is read into memory. */
bool read_file(const char *path, struct bytes *out, char *err, size_t errsize);
/* The decoder is done with data[0, upto): every few MiB past *released
 * (then set to upto), a mapped file's pages there are dropped from memory
 * (read again from the file should they be needed), so that memory stays
 * flat however long the input. */
void bytes_release(const struct bytes *b, size_t upto, size_t *released);
void bytes_free(struct bytes *b);
/* Lines of a stream, read a block at a time with read(2): it returns what
 * a pipe holds, so a line is answered as soon as it arrives, and just
 * before the reader waits for more it calls before_wait (which flushes the
 * answers so far: a program driving `isa dis --batch -` through pipes gets
 * each answer before it sends the next line). */
struct line_reader {
   int fd;
   char *buf;
   size_t cap, start, end; /* the bytes not yet returned: buf[start, end) */
   size_t scanned;         /* of those, how many hold no newline */
   bool eof, failed;       /* failed: a read error or no memory */
   void (*before_wait)(void *user);
   void *user;
};
bool line_reader_init(struct line_reader *r, FILE *fp, void (*before_wait)(void *), void *user);
/* The next line, without its newline and NUL-terminated (a NUL byte in it
 * is kept, and counted in *len); NULL at the end of the input or when
 * r->failed. */
char *line_reader_next(struct line_reader *r, size_t *len);
void line_reader_fini(struct line_reader *r);

/* elf.c */
bool is_elf(const struct bytes *in);
/* Narrow in to the ELF section `name` (*addr: its address); false with a
 * message (naming the sections there are) when there is none such, or
 * with name NULL. */
bool elf_section(struct bytes *in, const char *name, uint64_t *addr, char *err, size_t errsize);

/* load.c */
/* Add the specs of the library at path (isagen build); false with a
 * message in err when it cannot be loaded or is not one. */
bool load_specs(struct options *o, const char *path, char *err, size_t errsize);
/* The i-th spec --isa can name: those of the --load libraries, in the
 * order loaded, then those compiled in; NULL past the last. */
const struct isa_spec *spec_at(const struct options *o, unsigned i);
/* The spec of that name: a loaded one first, then the compiled-in ones. */
const struct isa_spec *find_spec(const struct options *o, const char *name);

/* dis.c */
int cmd_dis(struct options *o);
/* Disassemble `in` to `out`, one unit after the other as the spec's
 * stream says.  Returns the status of the first failure (ISA_OK if none)
 * and describes it in msg; *consumed gets the bytes decoded. */
int disassemble(const struct options *o, const struct bytes *in, struct isa_out *out, bool json, size_t *consumed,
                char *msg, size_t msgsize);
/* One line of `isa dis --batch`: the program in hex, line[0..len), and
 * its answer written to out (see dis.c); bytes has room for len / 2 + 1,
 * text and units (NULL unless --json) for TEXT_CAP. */
#define TEXT_CAP (256 * 1024)
bool batch_answer(const struct options *o, const char *line, size_t len, uint8_t *bytes, char *text, char *units,
                  struct isa_out *out);

/* check.c */
int cmd_check(struct options *o);
/* as.c: isa as */
int cmd_as(struct options *o);

/* program_input.c */
/* The program: read, unwrapped from its container or ELF section, cut to
 * --start/--stop; false with a message on stderr. */
bool load_input(struct options *o, struct bytes *in);
bool unwrap(const struct isa_spec *spec, struct bytes *in, char *msg, size_t msgsize);
void describe_error(const struct isa_spec *spec, size_t offset, const struct isa_error *err, char *buf,
                    size_t size);

#endif
