/* isa dis: decode a program and print it as text, JSON Lines or, in
 * batch mode, one JSON object per input line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct json_fields {
   struct isa_out *out;
   bool first;
};

static void json_field(void *user, const char *path, const struct isa_field_desc *fd, int64_t value)
{
   struct json_fields *j = (struct json_fields *)user;
   (void)fd;
   if (!j->first)
      isa_out_str(j->out, ", ");
   j->first = false;
   isa_out_json_string(j->out, path, strlen(path));
   isa_out_fmt(j->out, ": %lld", (long long)value);
}

static const char *unit_name(const struct isa_type_desc *t, const void *obj)
{
   /* the innermost selected variant names the encoding */
   const char *name = t->name;
   while (t->kind == ISA_T_CHOICE || t->n_variants) {
      const char *v = isa_variant_name(t, obj);
      unsigned idx;
      if (!v)
         break;
      name = v;
      if (t->kind != ISA_T_CHOICE)
         break;
      for (idx = 0; idx < t->n_variants && strcmp(t->variants[idx].name, v); idx++)
         ;
      obj = (const char *)obj + t->variants[idx].fields[0].c_offset;
      t = t->variants[idx].fields[0].type;
   }
   return name;
}

/* The bytes of the unit at ctx as hex pairs, separated by spaces or not */
static void put_bytes(struct isa_out *out, const struct bytes *in, const struct isa_ctx *ctx, bool spaced)
{
   for (uint64_t k = 0; k < ctx->size / 8 && ctx->offset + k < in->len; k++) {
      if (spaced && k)
         isa_out_char(out, ' ');
      isa_out_num_w(out, in->data[ctx->offset + k], 0, 16, 0, 2, 1); /* %02x */
   }
}

/* The start of a unit's JSON object: where it is */
static void json_head(const struct options *o, const struct isa_ctx *ctx, struct isa_out *out)
{
   isa_out_fmt(out, "{\"offset\": %llu, \"size\": %llu, \"name\": ",
               (unsigned long long)shown_offset(o, ctx->offset), (unsigned long long)(ctx->size / 8));
}

/* The end of a unit's JSON object: its bytes */
static void json_tail(const struct bytes *in, const struct isa_ctx *ctx, struct isa_out *out)
{
   isa_out_str(out, ", \"hex\": \"");
   put_bytes(out, in, ctx, false);
   isa_out_str(out, "\"}\n");
}

static void print_json(const struct options *o, const struct bytes *in, const void *obj,
                       const struct isa_ctx *ctx, struct isa_out *out, char *text)
{
   const struct isa_spec *spec = o->spec;
   struct isa_out t;
   struct json_fields j;
   isa_out_buffer(&t, text, TEXT_CAP);
   spec->unit->print(obj, &t, ctx);
   json_head(o, ctx, out);
   {
      const char *name = unit_name(spec->unit, obj);
      isa_out_json_string(out, name, strlen(name));
   }
   isa_out_str(out, ", \"fields\": {");
   j.out = out;
   j.first = true;
   isa_walk_fields(spec->unit, obj, json_field, &j);
   isa_out_str(out, "}, \"text\": ");
   isa_out_json_string(out, text, isa_out_len(&t) < TEXT_CAP ? isa_out_len(&t) : TEXT_CAP - 1);
   json_tail(in, ctx, out);
}

int disassemble(const struct options *o, const struct bytes *in, struct isa_out *out, bool json, size_t *consumed,
                char *msg, size_t msgsize)
{
   const struct isa_spec *spec = o->spec;
   const bool offsets = o->offsets;
   size_t released = 0;
   char *text = json ? (char *)malloc(TEXT_CAP) : NULL;
   struct isa_cursor cur; /* not cleared: over 1 KiB, and isa_cursor_init sets what it uses */
   int status = ISA_OK;
   *consumed = 0;
   if (json && !text) {
      snprintf(msg, msgsize, "out of memory");
      return ISA_ERR_LIMIT;
   }
   if (in->len == 0) {
      snprintf(msg, msgsize, "empty input: nothing to decode");
      status = ISA_ERR_TRUNCATED;
   }
   if (status == ISA_OK && isa_cursor_init(&cur, spec, in->data, in->len) != ISA_OK) {
      snprintf(msg, msgsize, "out of memory");
      status = ISA_ERR_LIMIT;
   }
   if (status != ISA_OK) {
      free(text);
      return status;
   }
   cur.options = o->spec_options;
   while (status == ISA_OK) {
      struct isa_error err;
      struct isa_ctx ctx;
      const void *obj;
      int r;
      if (out->error && out->fp && ferror(out->fp))
         break; /* the output cannot be written: main says so */
      bytes_release(in, cur.offset, &released);
      isa_error_clear(&err);
      r = isa_cursor_next(&cur, NULL, &ctx, &err); /* into the cursor: no copy per unit */
      if (r == 0)
         break;
      if (r < 0) {
         describe_error(spec, (size_t)shown_offset(o, cur.offset), &err, msg, msgsize);
         status = r;
         break;
      }
      obj = isa_cursor_unit(&cur);
      ctx.listing = offsets;
      if (json && ctx.failed) {
         json_head(o, &ctx, out);
         isa_out_str(out, "null, \"fields\": null, \"text\": ");
         isa_out_json_string(out, spec->failed_text, strlen(spec->failed_text));
         json_tail(in, &ctx, out);
      } else if (json) {
         print_json(o, in, obj, &ctx, out, text);
      } else {
         if (offsets) { /* the prefix sees the offset as shown: --start and --base added */
            struct isa_ctx shown = ctx;
            shown.offset = shown_offset(o, ctx.offset);
            if (spec->prefix)
               spec->prefix(out, &shown);
            else
               isa_out_fmt(out, "%llx: ", (unsigned long long)shown.offset);
         }
         if (o->show_bytes) { /* padded to eight bytes' width */
            size_t at = isa_out_len(out);
            put_bytes(out, in, &ctx, true);
            isa_out_pad(out, at, 8 * 3 - 1);
            isa_out_str(out, "  ");
         }
         if (ctx.failed)
            isa_out_str(out, spec->failed_text);
         else
            spec->unit->print(obj, out, &ctx);
         isa_out_str(out, spec->separator);
      }
   }
   *consumed = cur.offset;
   isa_cursor_fini(&cur);
   free(text);
   return status;
}

/* The --json lines of a program, as a JSON array: "[{...}, {...}]". */
static void units_array(struct isa_out *out, const char *lines, size_t len)
{
   size_t start = 0;
   bool first = true;
   isa_out_char(out, '[');
   for (size_t i = 0; i < len; i++) {
      if (lines[i] != '\n')
         continue;
      if (!first)
         isa_out_str(out, ", ");
      first = false;
      isa_out_mem(out, lines + start, i - start);
      start = i + 1;
   }
   isa_out_char(out, ']');
}

/* Hands the answers so far to stdout: the line reader calls it before it
 * waits for more input. */
static void flush_answers(void *user)
{
   isa_out_flush((struct isa_out *)user);
   fflush(stdout);
}

/* One line of --batch: the program in hex (line[0..len), its bytes go in
 * bytes, room for len / 2 + 1) and its answer, a JSON object and a
 * newline, written to out; text and units are TEXT_CAP scratch buffers
 * (units only with --json).  Returns whether the line disassembled. */
bool batch_answer(const struct options *o, const char *line, size_t len, uint8_t *bytes, char *text, char *units,
                  struct isa_out *out)
{
   struct bytes in;
   struct isa_out t, u;
   char msg[512], umsg[512];
   size_t consumed = 0;
   bool ok;
   isa_out_buffer(&t, text, TEXT_CAP);
   if (units)
      isa_out_buffer(&u, units, TEXT_CAP);
   msg[0] = '\0';
   memset(&in, 0, sizeof in); /* a view of `bytes`, which the caller owns */
   in.data = bytes;
   if (!hex_to_bytes(line, len, bytes, &in.len, msg, sizeof msg))
      in.data = NULL; /* not hex: the line is echoed escaped */
   ok = in.data && unwrap(o->spec, &in, msg, sizeof msg);
   if (ok) {
      ok = disassemble(o, &in, &t, false, &consumed, msg, sizeof msg) == ISA_OK;
      if (units) /* the same units again, as --json prints them (up to an error) */
         (void)disassemble(o, &in, &u, true, &consumed, umsg, sizeof umsg);
   }
   if (t.error || (units && u.error)) {
      ok = false;
      snprintf(msg, sizeof msg, "output longer than %d bytes", TEXT_CAP);
   }
   isa_out_str(out, "{\"hex\": ");
   isa_out_json_string(out, line, len);
   isa_out_str(out, ", \"text\": ");
   isa_out_json_string(out, text, isa_out_len(&t) < TEXT_CAP ? isa_out_len(&t) : TEXT_CAP - 1);
   isa_out_str(out, ok ? ", \"ok\": true, \"error\": " : ", \"ok\": false, \"error\": ");
   if (ok)
      isa_out_str(out, "null");
   else
      isa_out_json_string(out, msg, strlen(msg));
   if (units) {
      isa_out_str(out, ", \"units\": ");
      units_array(out, units, u.error ? 0 : isa_out_len(&u));
   }
   isa_out_str(out, "}\n");
   return ok;
}

static int batch(const struct options *o)
{
   FILE *fp = strcmp(o->batch, "-") == 0 ? stdin : fopen(o->batch, "rb");
   char *line, *text = (char *)malloc(TEXT_CAP), *units = o->json ? (char *)malloc(TEXT_CAP) : NULL;
   uint8_t *bytes = NULL; /* every line's bytes, in one buffer grown to the longest */
   size_t len = 0, bytes_cap = 0, n_lines = 0;
   int status = EXIT_OK;
   struct isa_out out;
   struct line_reader lines;
   /* the answers go out 64 KiB at a time, to an unbuffered stdout (main):
    * stdio copying each block into its own cost as much as the rest of
    * the output path */
   static char answers[1 << 16];
   lines.buf = NULL;
   isa_out_file_block(&out, stdout, answers, sizeof answers);
   if (!fp || !text || (o->json && !units) || !line_reader_init(&lines, fp, flush_answers, &out)) {
      fprintf(stderr, "isa: cannot open %s\n", o->batch);
      if (fp && fp != stdin)
         fclose(fp);
      line_reader_fini(&lines);
      free(text);
      free(units);
      return EXIT_USAGE;
   }
   while ((line = line_reader_next(&lines, &len)) != NULL) {
      n_lines++;
      if (out.error && ferror(stdout))
         break; /* the answers cannot be written: main says so */
      if (len && line[len - 1] == '\r')
         line[--len] = '\0';
      if (len / 2 + 1 > bytes_cap) {
         uint8_t *grown = (uint8_t *)realloc(bytes, len / 2 + 1);
         if (!grown) {
            fprintf(stderr, "isa: out of memory\n");
            status = EXIT_USAGE;
            break;
         }
         bytes = grown;
         bytes_cap = len / 2 + 1;
      }
      if (!batch_answer(o, line, len, bytes, text, units, &out))
         status = EXIT_INVALID;
   }
   flush_answers(&out);
   if (lines.failed) {
      fprintf(stderr, "isa: cannot read %s\n", o->batch);
      status = EXIT_USAGE;
   } else if (n_lines == 0) {
      fprintf(stderr, "isa: %s: empty input, no lines to disassemble\n", o->batch);
      status = EXIT_INVALID;
   }
   line_reader_fini(&lines);
   free(bytes);
   free(text);
   free(units);
   if (fp != stdin)
      fclose(fp);
   return status;
}

int cmd_dis(struct options *o)
{
   struct bytes in;
   struct isa_out out;
   char msg[512];
   size_t consumed = 0;
   int r;
   if (o->batch)
      return batch(o);
   if (!load_input(o, &in))
      return EXIT_INVALID;
   isa_out_file(&out, stdout);
   r = disassemble(o, &in, &out, o->json, &consumed, msg, sizeof msg);
   isa_out_flush(&out);
   if (fflush(stdout) != 0 || ferror(stdout)) { /* stopped: main says why */
      bytes_free(&in);
      return EXIT_INVALID;
   }
   if (r == ISA_OK && consumed < in.len)
      fprintf(stderr, "isa: note: %s: %zu trailing byte%s after the decoded unit%s\n", o->spec->name,
              in.len - consumed, in.len - consumed == 1 ? "" : "s", consumed ? "" : "s");
   bytes_free(&in);
   if (r != ISA_OK) {
      fprintf(stderr, "isa: %s: %s\n", o->spec->name, msg);
      return EXIT_INVALID;
   }
   return EXIT_OK;
}
