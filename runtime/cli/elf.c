/* ELF input: the bytes of a named section (isa dis --section NAME), read
 * from the section headers of a 32- or 64-bit, little- or big-endian ELF
 * file, every offset and size checked against the file. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

bool is_elf(const struct bytes *in)
{
   return in->len >= 4 && !memcmp(in->data, "\x7f" "ELF", 4);
}

/* n bytes at p as an unsigned number of the file's byte order */
static uint64_t get(const uint8_t *p, unsigned n, bool big)
{
   uint64_t v = 0;
   for (unsigned i = 0; i < n; i++)
      v |= (uint64_t)p[big ? n - 1 - i : i] << (8 * i);
   return v;
}

struct elf {
   const uint8_t *data;
   size_t len;
   bool wide, big; /* ELFCLASS64, ELFDATA2MSB */
   uint64_t shoff, shentsize, shnum, shstrndx;
};

struct section {
   uint64_t name, type, addr, offset, size;
};

static bool header(const struct bytes *in, struct elf *e, char *err, size_t errsize)
{
   const uint8_t *d = in->data;
   e->data = d;
   e->len = in->len;
   if (in->len < 52 || (d[4] != 1 && d[4] != 2) || (d[5] != 1 && d[5] != 2) || (d[4] == 2 && in->len < 64)) {
      snprintf(err, errsize, "a damaged ELF header");
      return false;
   }
   e->wide = d[4] == 2;
   e->big = d[5] == 2;
   e->shoff = e->wide ? get(d + 0x28, 8, e->big) : get(d + 0x20, 4, e->big);
   e->shentsize = get(d + (e->wide ? 0x3a : 0x2e), 2, e->big);
   e->shnum = get(d + (e->wide ? 0x3c : 0x30), 2, e->big);
   e->shstrndx = get(d + (e->wide ? 0x3e : 0x32), 2, e->big);
   if (e->shentsize < (e->wide ? 0x28u : 0x18u) || e->shoff > e->len ||
       e->shnum > (e->len - e->shoff) / e->shentsize || e->shstrndx >= e->shnum) {
      snprintf(err, errsize, "ELF section headers outside the file");
      return false;
   }
   return true;
}

static struct section section_at(const struct elf *e, uint64_t k)
{
   const uint8_t *h = e->data + e->shoff + k * e->shentsize;
   struct section s;
   unsigned w = e->wide ? 8 : 4;
   s.name = get(h, 4, e->big);
   s.type = get(h + 4, 4, e->big);
   s.addr = get(h + 8 + w, w, e->big);
   s.offset = get(h + 8 + 2 * w, w, e->big);
   s.size = get(h + 8 + 3 * w, w, e->big);
   return s;
}

/* The name of section s, or NULL when it lies outside the string table */
static const char *name_of(const struct elf *e, const struct section *s)
{
   struct section strtab = section_at(e, e->shstrndx);
   if (strtab.offset > e->len || strtab.size > e->len - strtab.offset || s->name >= strtab.size)
      return NULL;
   const char *p = (const char *)e->data + strtab.offset + s->name;
   return memchr(p, '\0', strtab.size - s->name) ? p : NULL;
}

bool elf_section(struct bytes *in, const char *name, uint64_t *addr, char *err, size_t errsize)
{
   struct elf e;
   char names[200];
   size_t used = 0;
   if (!header(in, &e, err, errsize))
      return false;
   names[0] = '\0';
   for (uint64_t k = 1; k < e.shnum; k++) {
      struct section s = section_at(&e, k);
      const char *n = name_of(&e, &s);
      if (!n || s.type == 8 /* SHT_NOBITS: no bytes in the file */ || s.size == 0)
         continue;
      if (name && !strcmp(n, name)) {
         if (s.offset > e.len || s.size > e.len - s.offset) {
            snprintf(err, errsize, "ELF section %s lies outside the file", name);
            return false;
         }
         in->data += s.offset;
         in->len = (size_t)s.size;
         *addr = s.addr;
         return true;
      }
      if (used < sizeof names)
         used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", used ? " " : "", n);
   }
   if (used >= sizeof names)
      memcpy(names + sizeof names - 4, "...", 4);
   if (name)
      snprintf(err, errsize, "no ELF section %s (sections with bytes: %s)", name, names[0] ? names : "none");
   else
      snprintf(err, errsize, "an ELF file: name the section to decode with --section (sections with bytes: %s)",
               names[0] ? names : "none");
   return false;
}
