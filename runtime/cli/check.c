/* isa check: decode a program and run the spec's validators over it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct sink {
   const struct options *o;
   struct isa_out *out;
};

static void emit(void *user, const struct isa_finding *f)
{
   struct sink *s = (struct sink *)user;
   if (s->o->json) {
      isa_out_fmt(s->out, "{\"offset\": %llu, \"severity\": \"%s\", \"rule\": ",
                  (unsigned long long)shown_offset(s->o, f->offset), isa_severity_name(f->severity));
      isa_out_json_string(s->out, f->rule, strlen(f->rule));
      isa_out_str(s->out, ", \"field\": ");
      isa_out_json_string(s->out, f->field, strlen(f->field));
      isa_out_str(s->out, ", \"message\": ");
      isa_out_json_string(s->out, f->message, strlen(f->message));
      isa_out_str(s->out, "}\n");
   } else {
      isa_out_fmt(s->out, "0x%04llx: %s: %s%s%s [%s]\n", (unsigned long long)shown_offset(s->o, f->offset),
                  isa_severity_name(f->severity), f->field, f->field[0] ? ": " : "", f->message, f->rule);
   }
}

int cmd_check(struct options *o)
{
   const struct isa_spec *spec = o->spec;
   struct bytes in;
   struct isa_out out;
   struct sink sink;
   struct isa_findings findings;
   struct isa_cursor cur = {0};
   int status = EXIT_OK;
   size_t released = 0;
   if (!load_input(o, &in))
      return EXIT_INVALID;
   isa_out_file(&out, stdout);
   sink.o = o;
   sink.out = &out;
   memset(&findings, 0, sizeof findings);
   findings.emit = emit;
   findings.user = &sink;
   if (in.len == 0) {
      fprintf(stderr, "isa: %s: empty input: nothing to check\n", spec->name);
      status = EXIT_INVALID;
   }
   if (isa_cursor_init(&cur, spec, in.data, in.len) != ISA_OK) {
      fprintf(stderr, "isa: out of memory\n");
      status = EXIT_INVALID;
   }
   cur.options = o->spec_options;
   while (status == EXIT_OK) {
      struct isa_error err;
      struct isa_ctx ctx;
      int r;
      bytes_release(&in, cur.offset, &released);
      isa_error_clear(&err);
      r = isa_cursor_next(&cur, NULL, &ctx, &err); /* into the cursor: no copy per unit */
      if (r == 0)
         break;
      if (r < 0) {
         char msg[512];
         describe_error(spec, (size_t)shown_offset(o, cur.offset), &err, msg, sizeof msg);
         isa_out_flush(&out);
         fflush(stdout);
         fprintf(stderr, "isa: %s: %s\n", spec->name, msg);
         status = EXIT_INVALID;
         break;
      }
      if (ctx.failed)
         isa_report(&findings, &ctx, ISA_SEV_ERROR, "no-match", NULL, "", spec->failed_text);
      else
         spec->unit->validate(isa_cursor_unit(&cur), &findings, &ctx, NULL);
   }
   isa_cursor_fini(&cur);
   isa_out_flush(&out);
   fflush(stdout);
   bytes_free(&in);
   if (findings.count[ISA_SEV_ERROR] || (o->strict && findings.count[ISA_SEV_WARNING]))
      status = EXIT_INVALID;
   return status;
}
