/* Reading programs: hex text, files, standard input. */
#define _POSIX_C_SOURCE 200809L /* fileno, read, mmap */
#define _DEFAULT_SOURCE         /* madvise: POSIX_MADV_DONTNEED does nothing on Linux */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "cli.h"

/* 1 + the value of each hex digit, 0 for any other byte */
static const unsigned char hex_digit[256] = {
   ['0'] = 1,  ['1'] = 2,  ['2'] = 3,  ['3'] = 4,  ['4'] = 5,  ['5'] = 6,  ['6'] = 7,  ['7'] = 8,
   ['8'] = 9,  ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
   ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* Eight hex digits at t as four bytes at d, a word at a time (every byte
 * a digit or a letter a-f/A-F, by carry-free additions on bytes below
 * 0x80); false, with nothing written, when one of them is not a digit. */
static bool hex8(const unsigned char *t, uint8_t *d)
{
   const uint64_t ones = UINT64_C(0x0101010101010101), high = ones * 0x80;
   uint64_t x = isa_load_le32(t) | (uint64_t)isa_load_le32(t + 4) << 32, y = x | ones * 0x20, digit, letter, v;
   if (x & high)
      return false;
   digit = (x + ones * (0x80 - '0')) & ~(x + ones * (0x80 - '9' - 1)) & high;
   letter = (y + ones * (0x80 - 'a')) & ~(y + ones * (0x80 - 'f' - 1)) & high;
   if ((digit | letter) != high)
      return false;
   v = (x & ones * 0x0f) + (letter >> 7) * 9;          /* each byte its digit's value */
   v = ((v << 4) | (v >> 8)) & UINT64_C(0x00ff00ff00ff00ff); /* pairs in the even bytes */
   v = (v | (v >> 8)) & UINT64_C(0x0000ffff0000ffff);
   v = (v | (v >> 16)) & UINT64_C(0xffffffff);
   isa_store_le32(d, (uint32_t)v);
   return true;
}

#ifdef __SSE2__
/* Sixteen hex digits at t as eight bytes at d, with SSE2; false, with
 * nothing written, when one of them is not a digit. */
static bool hex16(const unsigned char *t, uint8_t *d)
{
   const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)t);
   const __m128i lower = _mm_or_si128(x, _mm_set1_epi8(0x20));
   /* signed compares: bytes from 0x80 up are negative, so neither */
   const __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(x, _mm_set1_epi8('0' - 1)),
                                       _mm_cmplt_epi8(x, _mm_set1_epi8('9' + 1)));
   const __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(lower, _mm_set1_epi8('a' - 1)),
                                        _mm_cmplt_epi8(lower, _mm_set1_epi8('f' + 1)));
   __m128i v;
   if (_mm_movemask_epi8(_mm_or_si128(digit, letter)) != 0xffff)
      return false;
   /* each byte its digit's value: the low nibble, plus 9 for a letter */
   v = _mm_add_epi8(_mm_and_si128(x, _mm_set1_epi8(0x0f)), _mm_and_si128(letter, _mm_set1_epi8(9)));
   /* each 16-bit lane holds a pair, the first digit in its low byte */
   v = _mm_or_si128(_mm_slli_epi16(_mm_and_si128(v, _mm_set1_epi16(0x00ff)), 4), _mm_srli_epi16(v, 8));
   _mm_storel_epi64((__m128i *)(void *)d, _mm_packus_epi16(v, v));
   return true;
}
#endif

/* What may stand between groups of hex digits: whitespace and , ; : */
static bool hex_separator(unsigned c)
{
   return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == ';' || c == ':';
}

bool hex_to_bytes(const char *text, size_t n, uint8_t *dst, size_t *len, char *err, size_t errsize)
{
   const unsigned char *t = (const unsigned char *)text;
   size_t i = 0, digits = 0, k = 0;
   int high = -1;
   while (i < n) {
      unsigned c, v;
      /* the common case: runs of digit pairs, a byte each */
      if (high < 0) {
#ifdef __SSE2__
         while (i + 16 <= n && hex16(t + i, dst + k)) {
            k += 8;
            digits += 16;
            i += 16;
         }
#endif
         while (i + 8 <= n && hex8(t + i, dst + k)) {
            k += 4;
            digits += 8;
            i += 8;
         }
         while (i + 1 < n && hex_digit[t[i]] && hex_digit[t[i + 1]]) {
            dst[k++] = (uint8_t)((hex_digit[t[i]] - 1) << 4 | (hex_digit[t[i + 1]] - 1));
            digits += 2;
            i += 2;
         }
         if (i == n)
            break;
      }
      c = t[i++];
      v = hex_digit[c];
      if (!v && hex_separator(c)) {
         if (high >= 0) {
            snprintf(err, errsize, "hex byte split at position %zu: a byte's two digits go together", i);
            return false;
         }
         continue;
      }
      if (c == '0' && high < 0 && i < n && (t[i] | 0x20) == 'x' && (i == 1 || hex_separator(t[i - 2]))) {
         i++; /* a 0x before a group of digits */
         continue;
      }
      if (!v) {
         if (c >= 0x20 && c < 0x7f)
            snprintf(err, errsize, "invalid hex character '%c' at position %zu", c, i);
         else
            snprintf(err, errsize, "invalid hex character (byte 0x%02x) at position %zu", c, i);
         return false;
      }
      digits++;
      if (high < 0) {
         high = (int)v - 1;
      } else {
         dst[k++] = (uint8_t)(high << 4 | (int)(v - 1));
         high = -1;
      }
   }
   if (high >= 0) {
      snprintf(err, errsize, "odd number of hex digits (%zu): each byte needs two", digits);
      return false;
   }
   *len = k;
   return true;
}

bool parse_hex(const char *text, size_t n, struct bytes *out, char *err, size_t errsize)
{
   uint8_t *buf = (uint8_t *)malloc(n / 2 + 1);
   size_t len = 0;
   memset(out, 0, sizeof *out);
   if (!buf) {
      snprintf(err, errsize, "out of memory");
      return false;
   }
   if (!hex_to_bytes(text, n, buf, &len, err, errsize)) {
      free(buf);
      return false;
   }
   out->data = buf;
   out->len = len;
   out->base = buf;
   out->size = n / 2 + 1;
   return true;
}

/* A regular file of at least one byte, mapped read-only; false (with
 * nothing done) when it is not one or cannot be mapped. */
static bool map_file(FILE *fp, struct bytes *out)
{
   struct stat st;
   void *p;
   int fd = fileno(fp);
   if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
       (uint64_t)st.st_size > SIZE_MAX)
      return false;
   p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
   if (p == MAP_FAILED)
      return false;
   (void)posix_madvise(p, (size_t)st.st_size, POSIX_MADV_SEQUENTIAL);
   out->data = (const uint8_t *)p;
   out->len = out->size = (size_t)st.st_size;
   out->base = p;
   out->mapped = true;
   return true;
}

/* An input that cannot be mapped (a pipe, a terminal) is read into
 * memory up to this size; past it, what was read and the rest go to a
 * temporary file that is then mapped, so that memory stays flat however
 * long the stream. */
#define SPILL_AT ((size_t)8 << 20)

/* A new file in $TMPDIR (else /tmp), already unlinked: gone when closed. */
static FILE *temporary_file(void)
{
   const char *dir = getenv("TMPDIR");
   char path[4096];
   int fd;
   FILE *fp;
   if (!dir || !*dir)
      dir = "/tmp";
   if ((size_t)snprintf(path, sizeof path, "%s/isa-input-XXXXXX", dir) >= sizeof path)
      return NULL;
   fd = mkstemp(path);
   if (fd < 0)
      return NULL;
   unlink(path);
   fp = fdopen(fd, "w+b");
   if (!fp)
      close(fd);
   return fp;
}

/* buf[0, len) and the rest of fp into an unnamed temporary file, mapped
 * into out (buf, of cap >= len bytes, is the block the rest is read in);
 * false when there is no temporary file to be had (out untouched, fp
 * unread), or, with *failed, on a read or write error. */
static bool spill(FILE *fp, uint8_t *buf, size_t len, size_t cap, struct bytes *out, bool *failed)
{
   FILE *tmp = temporary_file();
   size_t n;
   bool ok;
   *failed = false;
   if (!tmp)
      return false;
   ok = fwrite(buf, 1, len, tmp) == len;
   while (ok && (n = fread(buf, 1, cap, fp)) > 0)
      ok = fwrite(buf, 1, n, tmp) == n;
   ok = ok && !ferror(fp) && fflush(tmp) == 0 && map_file(tmp, out);
   fclose(tmp); /* the mapping stays; the file goes with it */
   *failed = !ok;
   return ok;
}

bool read_file(const char *path, struct bytes *out, char *err, size_t errsize)
{
   FILE *fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
   size_t cap = 4096, len = 0;
   uint8_t *buf;
   bool failed = false;
   memset(out, 0, sizeof *out);
   if (!fp) {
      snprintf(err, errsize, "cannot open %s", path);
      return false;
   }
   if (map_file(fp, out)) {
      if (fp != stdin)
         fclose(fp); /* the mapping stays */
      return true;
   }
   buf = (uint8_t *)malloc(cap);
   while (buf) {
      size_t n = fread(buf + len, 1, cap - len, fp);
      len += n;
      if (n == 0)
         break;
      if (len == cap && cap >= SPILL_AT && spill(fp, buf, len, cap, out, &failed)) {
         free(buf);
         if (fp != stdin)
            fclose(fp);
         return true;
      }
      if (failed)
         break;
      if (len == cap) {
         uint8_t *bigger = (uint8_t *)realloc(buf, cap * 2);
         if (!bigger) {
            free(buf);
            buf = NULL;
            break;
         }
         buf = bigger;
         cap *= 2;
      }
   }
   if (!buf || failed || ferror(fp)) {
      if (!buf)
         snprintf(err, errsize, "out of memory reading %s", path);
      else if (failed && !ferror(fp))
         snprintf(err, errsize, "cannot keep %s in a temporary file (%s)", path, strerror(errno));
      else
         snprintf(err, errsize, "cannot read %s", path);
      free(buf);
      if (fp != stdin)
         fclose(fp);
      return false;
   }
   if (fp != stdin)
      fclose(fp);
   out->data = buf;
   out->len = len;
   out->base = buf;
   out->size = cap;
   return true;
}

/* A mapped input's pages behind the decoder are let go this often */
#define RELEASE_STEP ((size_t)4 << 20)

void bytes_release(const struct bytes *b, size_t upto, size_t *released)
{
   long page;
   uintptr_t from = (uintptr_t)b->base, to = (uintptr_t)(b->data + upto);
   if (!b->mapped || upto - *released < RELEASE_STEP)
      return; /* the usual case, tested first: it is asked at every unit */
   page = sysconf(_SC_PAGESIZE);
   if (page <= 0)
      return;
   *released = upto;
   to -= to % (uintptr_t)page; /* whole pages only */
#ifdef MADV_DONTNEED
   if (to > from) /* a read-only private mapping: its pages come back from the file */
      (void)madvise(b->base, (size_t)(to - from), MADV_DONTNEED);
#else
   (void)from;
   (void)to;
#endif
}

void bytes_free(struct bytes *b)
{
   if (b->mapped)
      munmap(b->base, b->size);
   else
      free(b->base);
   memset(b, 0, sizeof *b);
}

bool line_reader_init(struct line_reader *r, FILE *fp, void (*before_wait)(void *), void *user)
{
   r->fd = fileno(fp);
   r->cap = 64 * 1024;
   r->buf = (char *)malloc(r->cap);
   r->start = r->end = r->scanned = 0;
   r->eof = false;
   r->failed = r->fd < 0 || !r->buf;
   r->before_wait = before_wait;
   r->user = user;
   return !r->failed;
}

/* More bytes at buf[end...), with the unread ones moved to the front and
 * the buffer doubled when they fill it; sets eof or failed when there are
 * none. */
static void fill(struct line_reader *r)
{
   ssize_t got;
   if (r->start > 0) {
      memmove(r->buf, r->buf + r->start, r->end - r->start);
      r->end -= r->start;
      r->start = 0;
   }
   if (r->end + 1 >= r->cap) { /* room for the NUL that ends the last line, too */
      char *bigger = (char *)realloc(r->buf, r->cap * 2);
      if (!bigger) {
         r->failed = true;
         return;
      }
      r->buf = bigger;
      r->cap *= 2;
   }
   if (r->before_wait)
      r->before_wait(r->user);
   do
      got = read(r->fd, r->buf + r->end, r->cap - 1 - r->end);
   while (got < 0 && errno == EINTR);
   if (got < 0)
      r->failed = true;
   if (got <= 0)
      r->eof = true;
   else
      r->end += (size_t)got;
}

char *line_reader_next(struct line_reader *r, size_t *len)
{
   for (;;) {
      char *line = r->buf + r->start;
      char *nl = (char *)memchr(line + r->scanned, '\n', r->end - r->start - r->scanned);
      if (nl || (r->eof && r->end > r->start)) { /* the last line may have no newline */
         *len = nl ? (size_t)(nl - line) : r->end - r->start;
         line[*len] = '\0';
         r->start += *len + (nl != NULL);
         r->scanned = 0;
         return line;
      }
      r->scanned = r->end - r->start;
      if (r->eof || r->failed)
         return NULL;
      fill(r);
   }
}

void line_reader_fini(struct line_reader *r)
{
   free(r->buf);
   r->buf = NULL;
}
