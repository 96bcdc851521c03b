<%doc>
  Emits T_unpack and T_pack_checked of one struct, sequence or choice T:
  its decoder and checked encoder (from struct.h.mako, sequence.h.mako or
  choice.h.mako) at the start of a buffer.  Included by spec.h.mako after
  each type's own template.
</%doc>\
<%page args="t"/>\
<%
S = n.sname(t)
name = n.fn
%>\

/* Decode from the start of buf. */
static inline int ${name(t, 'unpack')}(const uint8_t *buf, size_t len, ${S} *v, struct isa_error *err)
{
   size_t bits;
   return ${name(t, 'decode')}(buf, len, 0, v, &bits, err);
}

/* Checked pack to the start of out[0..cap); *size gets the bytes written
 * (0 on failure). */
static inline int ${name(t, 'pack_checked')}(const ${S} *v, uint8_t *out, size_t cap, size_t *size,
${' ' * len('static inline int ' + name(t, 'pack_checked') + '(')}struct isa_error *err)
{
   size_t bits = 0;
   int r = ${name(t, 'encode')}(v, out, cap, 0, &bits, err);
   if (size)
      *size = r == ISA_OK ? (bits + 7) / 8 : 0;
   return r;
}
