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

void isa_report(struct isa_findings *f, const struct isa_ctx *ctx, enum isa_severity sev,
                const char *rule, const char *path, const char *field, const char *message)
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
   snprintf(full, sizeof full, "%s%s", path ? path : "", field ? field : "");
   /* a path prefix ends in '.'; drop it when no field follows */
   if (!field && full[0] && full[strlen(full) - 1] == '.')
      full[strlen(full) - 1] = '\0';
   finding.severity = sev;
   finding.rule = rule ? rule : "";
   finding.field = full;
   finding.message = message ? message : "";
   finding.offset = ctx ? ctx->offset : 0;
   f->emit(f->user, &finding);
}

void isa_path_join(char *buf, size_t size, const char *path, const char *name, long index)
{
   if (index >= 0)
      snprintf(buf, size, "%s%s[%ld].", path ? path : "", name, index);
   else
      snprintf(buf, size, "%s%s.", path ? path : "", name);
}
