<%doc>
  Emits the printers of <prefix>.c: for every type a static T_write, its
  text from its <display>s (the default display when it has none) appended
  to the sink, and the public T_print, which writes and then hands a FILE
  or callback sink its block.  Nested types and operands call T_write, so
  a unit reaches a FILE in one write.  Included by spec.c.mako, which
  declares the T_write functions before the operand rules that call them.
</%doc>\

/* ======================================================================
 * Printers
 * ====================================================================== */
% for t in spec.types:
<% body = g.printer.print_body(t) %>\
<% body.items[:0] = ['(void)v;', '(void)ctx;'] %>\
<% body.line('return out->error ? ISA_ERR_NOSPACE : ISA_OK;') %>\

%   for ln in g.function(('int ' + n.fn(t, 'write'), ['const %s *v' % n.sname(t), 'struct isa_out *out', 'const struct isa_ctx *ctx']), body, static=True):
${ln}
%   endfor

%   for ln in g.signature('int ' + n.fn(t, 'print'), ['const %s *v' % n.sname(t), 'struct isa_out *out', 'const struct isa_ctx *ctx']):
${ln}
%   endfor
{
   int r = ${n.fn(t, 'write')}(v, out, ctx);
   return isa_out_flush(out) ? ISA_ERR_NOSPACE : r;
}
% endfor
