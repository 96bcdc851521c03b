/* A program's bytes as the command line names them: --hex, a file or
 * standard input (hex text with --input hex), an ELF file's section, the
 * payload of a spec's container, then --start/--stop; and how a decoding
 * error is described. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void describe_error(const struct isa_spec *spec, size_t offset, const struct isa_error *err, char *buf,
                    size_t size)
{
   char detail[400];
   (void)spec;
   isa_error_format(err, detail, sizeof detail);
   snprintf(buf, size, "offset 0x%zx: %s", offset, detail);
}

/* A program may come in one of the spec's containers (an MBS file...):
 * then the program is the payload inside. */
bool unwrap(const struct isa_spec *spec, struct bytes *in, char *msg, size_t msgsize)
{
   for (unsigned i = 0; i < spec->n_containers; i++) {
      struct isa_error err;
      size_t off = 0, size = 0;
      int r;
      isa_error_clear(&err);
      r = isa_container_payload(&spec->containers[i], in->data, in->len, &off, &size, &err);
      if (r == ISA_ERR_NO_MATCH)
         continue;
      if (r != ISA_OK) {
         char detail[300];
         isa_error_format(&err, detail, sizeof detail);
         snprintf(msg, msgsize, "damaged %s container: %s", spec->containers[i].name, detail);
         return false;
      }
      in->data += off; /* the payload, in place */
      in->len = size;
      return true;
   }
   return true;
}

/* Binary input that starts with nothing but hex digits and whitespace was
 * most likely meant as hex text. */
static bool looks_like_hex(const struct bytes *in)
{
   size_t digits = 0;
   for (size_t i = 0; i < in->len && i < 65536; i++) { /* the start says enough, and a big file stays unread */
      uint8_t c = in->data[i];
      if ((c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'))
         digits++;
      else if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
         return false;
   }
   return digits >= 2;
}

bool load_input(struct options *o, struct bytes *in)
{
   char err[400];
   const char *name = o->hex ? "--hex" : strcmp(o->file, "-") ? o->file : "standard input";
   bool ok, elf = false;
   if (o->hex) {
      ok = parse_hex(o->hex, strlen(o->hex), in, err, sizeof err);
   } else {
      ok = read_file(o->file, in, err, sizeof err);
      if (ok && o->input_hex) {
         struct bytes text = *in;
         ok = parse_hex((const char *)text.data, text.len, in, err, sizeof err);
         bytes_free(&text);
      } else if (ok && is_elf(in)) {
         uint64_t addr = 0;
         char why[300];
         struct bytes file = *in;
         if (elf_section(in, o->section, &addr, why, sizeof why)) {
            elf = true;
            if (!o->have_base)
               o->base = addr; /* offsets as the section's addresses */
         } else {
            snprintf(err, sizeof err, "%s: %s", name, why);
            bytes_free(&file);
            ok = false;
         }
      } else if (ok && looks_like_hex(in)) {
         fprintf(stderr, "isa: note: %s looks like hex text; it is read as binary unless --input hex\n", name);
      }
   }
   if (ok && o->section && !elf) {
      snprintf(err, sizeof err, "--section %s: %s is not an ELF file", o->section, name);
      bytes_free(in);
      ok = false;
   }
   if (ok && !unwrap(o->spec, in, err, sizeof err)) {
      bytes_free(in);
      ok = false;
   }
   if (ok && (o->start > in->len || (o->have_stop && (o->stop > in->len || o->stop < o->start)))) {
      snprintf(err, sizeof err, "--start %llu --stop %llu: outside the program's %zu bytes",
               (unsigned long long)o->start, (unsigned long long)(o->have_stop ? o->stop : in->len), in->len);
      bytes_free(in);
      ok = false;
   }
   if (ok) { /* the bytes [start, stop), in place */
      size_t end = o->have_stop ? (size_t)o->stop : in->len;
      in->data += o->start;
      in->len = end - (size_t)o->start;
   }
   if (!ok)
      fprintf(stderr, "isa: %s\n", err);
   return ok;
}
