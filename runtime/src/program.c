/* Programs: decoding units one after the other as a spec's <stream> says. */
#include <string.h>

#include "isagen/isagen.h"

int isa_decode_unit(const struct isa_spec *spec, const uint8_t *buf, size_t len, size_t offset,
                    void *obj, size_t *size, struct isa_error *err)
{
   size_t bits = 0;
   int r;
   if (offset > len)
      return isa_fail(err, ISA_ERR_ARG, spec->unit->name, 0, "offset past the end of the input");
   r = spec->unit->decode(buf, len, offset * 8, obj, &bits, err);
   if (r)
      return r;
   if (bits % 8 || bits == 0) {
      isa_fail(err, ISA_ERR_SIZE, spec->unit->name, 0, "a unit must be a whole number of bytes");
      if (err)
         err->value = (int64_t)bits;
      return ISA_ERR_SIZE;
   }
   *size = bits / 8;
   return ISA_OK;
}

void isa_cursor_init(struct isa_cursor *c, const struct isa_spec *spec, const uint8_t *buf, size_t len)
{
   memset(c, 0, sizeof *c);
   c->spec = spec;
   c->buf = buf;
   c->len = len;
}

int isa_cursor_next(struct isa_cursor *c, void *obj, struct isa_ctx *ctx, struct isa_error *err)
{
   size_t size = 0;
   int r;
   if (c->done || c->offset >= c->len || (c->spec->unit_count && c->index >= c->spec->unit_count))
      return 0;
   r = isa_decode_unit(c->spec, c->buf, c->len, c->offset, obj, &size, err);
   if (r) {
      c->done = true;
      return r;
   }
   ctx->offset = c->offset;
   ctx->index = c->index;
   ctx->size = (uint64_t)size * 8;
   c->offset += size;
   c->index++;
   if (c->spec->stop && c->spec->stop(obj))
      c->done = true;
   return 1;
}
