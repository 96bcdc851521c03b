/* isa check: decode a program and run the spec's validators over it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct sink {
   bool json;
   struct isa_out *out;
};

static void emit(void *user, const struct isa_finding *f)
{
   struct sink *s = (struct sink *)user;
   if (s->json) {
      isa_out_fmt(s->out, "{\"offset\": %llu, \"severity\": \"%s\", \"rule\": ", (unsigned long long)f->offset,
                  isa_severity_name(f->severity));
      isa_out_json_string(s->out, f->rule, strlen(f->rule));
      isa_out_str(s->out, ", \"field\": ");
      isa_out_json_string(s->out, f->field, strlen(f->field));
      isa_out_str(s->out, ", \"message\": ");
      isa_out_json_string(s->out, f->message, strlen(f->message));
      isa_out_str(s->out, "}\n");
   } else {
      isa_out_fmt(s->out, "0x%04llx: %s: %s%s%s [%s]\n", (unsigned long long)f->offset,
                  isa_severity_name(f->severity), f->field, f->field[0] ? ": " : "", f->message, f->rule);
   }
}

int cmd_check(const struct options *o)
{
   const struct isa_spec *spec = o->spec;
   struct bytes in;
   struct isa_out out;
   struct sink sink;
   struct isa_findings findings;
   void *obj;
   size_t off = 0;
   uint64_t index = 0;
   int status = EXIT_OK;
   if (!load_input(o, &in))
      return EXIT_INVALID;
   obj = calloc(1, spec->unit->c_size);
   if (!obj) {
      bytes_free(&in);
      fprintf(stderr, "isa: out of memory\n");
      return EXIT_INVALID;
   }
   isa_out_file(&out, stdout);
   sink.json = o->json;
   sink.out = &out;
   memset(&findings, 0, sizeof findings);
   findings.emit = emit;
   findings.user = &sink;
   if (in.len == 0) {
      fprintf(stderr, "isa: %s: empty input: nothing to check\n", spec->name);
      status = EXIT_INVALID;
   }
   while (off < in.len && (spec->unit_count == 0 || index < spec->unit_count)) {
      struct isa_error err;
      struct isa_ctx ctx;
      size_t size = 0;
      isa_error_clear(&err);
      if (isa_decode_unit(spec, in.data, in.len, off, obj, &size, &err)) {
         char msg[512];
         describe_error(spec, off, &err, msg, sizeof msg);
         fflush(stdout);
         fprintf(stderr, "isa: %s: %s\n", spec->name, msg);
         status = EXIT_INVALID;
         break;
      }
      ctx.offset = off;
      ctx.index = index;
      ctx.size = (uint64_t)size * 8;
      spec->unit->validate(obj, &findings, &ctx, NULL);
      off += size;
      index++;
      if (spec->stop && spec->stop(obj))
         break;
   }
   fflush(stdout);
   free(obj);
   bytes_free(&in);
   if (findings.count[ISA_SEV_ERROR] || (o->strict && findings.count[ISA_SEV_WARNING]))
      status = EXIT_INVALID;
   return status;
}
