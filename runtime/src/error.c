/* Status codes and error records as text, and the library's version. */
#include <stdio.h>

#include "isagen/isagen.h"

const char *isa_version(void)
{
   return ISAGEN_VERSION;
}

const char *isa_strerror(int status)
{
   switch (status) {
   case ISA_OK: return "ok";
   case ISA_ERR_TRUNCATED: return "truncated input";
   case ISA_ERR_NO_MATCH: return "no encoding matches";
   case ISA_ERR_RANGE: return "value out of range";
   case ISA_ERR_INCONSISTENT: return "inconsistent fields";
   case ISA_ERR_LIMIT: return "count exceeds the spec's limit";
   case ISA_ERR_NOSPACE: return "output buffer too small";
   case ISA_ERR_ARG: return "bad argument";
   case ISA_ERR_SIZE: return "size mismatch";
   default: return "unknown error";
   }
}

/* What isa_error_format writes, into o. */
static void error_text(const struct isa_error *err, struct isa_out *o)
{
   if (!err) {
      isa_out_str(o, "no error information");
      return;
   }
   isa_out_str(o, isa_strerror(err->status));
   switch (err->status) {
   case ISA_ERR_TRUNCATED:
      isa_out_fmt(o, ": %s needs %llu bits at bit %llu, %llu available", err->type ? err->type : "unit",
                  (unsigned long long)err->need, (unsigned long long)err->bit,
                  (unsigned long long)err->have);
      return;
   case ISA_ERR_RANGE:
      isa_out_fmt(o, ": %s%s%s = %lld does not fit %lld..%lld", err->type ? err->type : "",
                  err->type && err->field ? "." : "", err->field ? err->field : "",
                  (long long)err->value, (long long)err->min, (long long)err->max);
      return;
   default:
      break;
   }
   if (err->type || err->field) {
      isa_out_str(o, ": ");
      if (err->type)
         isa_out_str(o, err->type);
      if (err->type && err->field)
         isa_out_char(o, '.');
      if (err->field)
         isa_out_str(o, err->field);
   }
   if (err->detail)
      isa_out_fmt(o, ": %s", err->detail);
   if (err->status == ISA_ERR_NO_MATCH || err->status == ISA_ERR_SIZE)
      isa_out_fmt(o, " (at bit %llu)", (unsigned long long)err->bit);
}

void isa_error_format(const struct isa_error *err, char *buf, size_t size)
{
   struct isa_out o;
   isa_out_buffer(&o, buf, size);
   error_text(err, &o);
   isa_out_flush(&o);
}
