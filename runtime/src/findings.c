/* Findings of validators: severity, rule, field path, message. */
#include <stdio.h>
#include <string.h>

#include "isagen/isagen.h"

const char *isa_severity_name(enum isa_severity s)
{
   switch (s) {
   case ISA_SEV_ERROR: return "error";
   case ISA_SEV_WARNING: return "warning";
   default: return "info";
   }
}

void isa_path_format(const struct isa_path *path, const char *field, char *buf, size_t size)
{
   const struct isa_path *chain[32];
   unsigned n = 0;
   struct isa_out o;
   isa_out_buffer(&o, buf, size);
   for (; path && n < 32; path = path->parent)
      if (path->name)
         chain[n++] = path;
   while (n--) {
      isa_out_str(&o, chain[n]->name);
      if (chain[n]->index >= 0)
         isa_out_fmt(&o, "[%ld]", chain[n]->index);
      if (n || (field && field[0]))
         isa_out_char(&o, '.');
   }
   if (field)
      isa_out_str(&o, field);
   isa_out_flush(&o);
}

void isa_report(struct isa_findings *f, const struct isa_ctx *ctx, enum isa_severity sev,
                const char *rule, const struct isa_path *path, const char *field, const char *message)
{
   char full[ISA_PATH_MAX];
   struct isa_finding finding;
   if (!f)
      return;
   if ((unsigned)sev > ISA_SEV_ERROR)
      sev = ISA_SEV_ERROR;
   f->count[sev]++;
   if (!f->emit)
      return;
   isa_path_format(path, field, full, sizeof full);
   finding.severity = sev;
   finding.rule = rule ? rule : "";
   finding.field = full;
   finding.message = message ? message : "";
   finding.offset = ctx ? ctx->offset : 0;
   f->emit(f->user, &finding);
}

void isa_report_bits(struct isa_findings *f, const struct isa_ctx *ctx, enum isa_severity sev,
                     const char *rule, const struct isa_path *path, const char *field, uint64_t value,
                     uint64_t expected)
{
   char msg[96];
   unsigned long long v = value, x = expected;
   if (!f || !f->emit) { /* counted, not shown: no message to make */
      isa_report(f, ctx, sev, rule, path, field, 0);
      return;
   }
   if (!strcmp(rule, "reserved") && x)
      snprintf(msg, sizeof msg, "reserved bits are 0x%llx, where producers write 0x%llx", v, x);
   else if (!strcmp(rule, "reserved"))
      snprintf(msg, sizeof msg, "reserved bits are set (0x%llx)", v);
   else if (!strcmp(rule, "mbz"))
      snprintf(msg, sizeof msg, "must-be-zero bits are set (0x%llx)", v);
   else if (!strcmp(rule, "mbo"))
      snprintf(msg, sizeof msg, "must-be-one bits are clear (0x%llx, expected 0x%llx)", v, x);
   else
      snprintf(msg, sizeof msg, "value 0x%llx, expected 0x%llx", v, x);
   isa_report(f, ctx, sev, rule, path, field, msg);
}
