<%doc>
  Emits the reflection tables of <prefix>.c: per type, the untyped entry
  points and its struct isa_type_desc (fields, variants and their
  patterns), all as designated initialisers.  Included by spec.c.mako.
</%doc>\

/* ======================================================================
 * Reflection tables
 * ====================================================================== */
% for t in spec.types:
<% S = n.sname(t); hot = spec.stream is not None and t is spec.stream.unit %>\

%   if hot and t.kind != 'choice':
ISA_FLATTEN
%   elif not hot:
ISA_RARELY_USED
%   endif
%   for ln in g.signature('int ' + n.fn(t, 'decode_any'), ['const uint8_t *buf', 'size_t len', 'size_t pos', 'void *obj', 'size_t *bits', 'struct isa_error *err'], static=True):
${ln}
%   endfor
{
   return ${n.fn(t, 'decode')}(buf, len, pos, (${S} *)obj, bits, err);
}

ISA_RARELY_USED
%   for ln in g.signature('int ' + n.fn(t, 'encode_any'), ['const void *obj', 'uint8_t *buf', 'size_t cap', 'size_t pos', 'size_t *bits', 'struct isa_error *err'], static=True):
${ln}
%   endfor
{
   return ${n.fn(t, 'encode')}((const ${S} *)obj, buf, cap, pos, bits, err);
}
%   if t.kind == 'choice':

%     for ln in g.signature('int ' + n.fn(t, 'decode_as_any'), ['const uint8_t *buf', 'size_t len', 'size_t pos', 'void *obj', 'unsigned alt', 'size_t *bits', 'struct isa_error *err'], static=True):
${ln}
%     endfor
{
   return ${n.fn(t, 'decode_as')}(buf, len, pos, (${S} *)obj, alt, bits, err);
}
%   endif

static int ${n.fn(t, 'print_any')}(const void *obj, struct isa_out *out, const struct isa_ctx *ctx)
{
   return ${n.fn(t, 'print')}((const ${S} *)obj, out, ctx);
}

%   for ln in g.signature('void ' + n.fn(t, 'validate_any'), ['const void *obj', 'struct isa_findings *f', 'const struct isa_ctx *ctx', 'const struct isa_path *path'], static=True):
${ln}
%   endfor
{
   ${n.fn(t, 'validate')}((const ${S} *)obj, f, ctx, path);
}
%   if t.kind == "struct" and t.variants:

static unsigned ${n.fn(t, 'select_any')}(void *obj)
{
   ${S} *v = (${S} *)obj;
   uint32_t w[${t.words}];
%     if t.overlay:
   /* views hold the same bits: take the first whose bits select itself */
   for (uint16_t k = 1; k <= ${len(t.variants)}; k++) {
      v->variant = k;
      ${n.fn(t, 'pack_words')}(v, w);
      if (${n.fn(t, 'select_words')}(w) == k)
         return k;
   }
   v->variant = 0;
   return 0;
%     else:
   v->variant = 0; /* pack the common fields only */
   ${n.fn(t, 'pack_words')}(v, w);
   ${n.fn(t, 'set_variant')}(v, (${n.variant_enum(t)})${n.fn(t, 'select_words')}(w));
   return v->variant;
%     endif
}
%   endif
%   if (t.kind == "struct" and t.variants and not t.overlay) or t.kind == "choice":

static void ${n.fn(t, 'set_variant_any')}(void *obj, unsigned which)
{
   ${n.fn(t, 'set_variant')}((${S} *)obj, (${n.variant_enum(t) if t.kind == "struct" else n.alt_enum(t)})which);
}
%   endif
%   if t.kind == "struct":
%     for ln in g.reflection.struct_tables(t, g.layout.fixed_pattern(t)):
${ln}
%     endfor
%   elif t.kind == "sequence":
%     for ln in g.reflection.sequence_tables(t):
${ln}
%     endfor
%   else:
%     for ln in g.reflection.choice_tables(t):
${ln}
%     endfor
%   endif
% endfor
