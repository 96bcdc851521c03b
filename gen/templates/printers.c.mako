<%doc>
  Emits the printers of <prefix>.c: T_print for every type, from its
  <display>s (the default display when it has none).  Included by spec.c.mako.
</%doc>\

/* ======================================================================
 * Printers
 * ====================================================================== */
% for t in spec.types:
<% body = g.printer.print_body(t) %>\
<% body.items[:0] = ['(void)v;', '(void)ctx;'] %>\
<% body.line('return out->error ? ISA_ERR_NOSPACE : ISA_OK;') %>\

%   for ln in g.function(('int ' + n.fn(t, 'print'), ['const %s *v' % n.sname(t), 'struct isa_out *out', 'const struct isa_ctx *ctx']), body):
${ln}
%   endfor
% endfor
