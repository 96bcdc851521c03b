<%doc>
  Emits the validators of <prefix>.c: T_validate for every type (reserved
  and must-be bits, expected values, rules, nested types, undefined operand
  cases).  Included by spec.c.mako.
</%doc>\

/* ======================================================================
 * Validators
 * ====================================================================== */
% for t in spec.types:
<% body = g.validator.validate_body(t) %>\
<% body.items[:0] = ['(void)v;', '(void)f;', '(void)ctx;', '(void)path;'] %>\

%   for ln in g.function(('void ' + n.fn(t, 'validate'), ['const %s *v' % n.sname(t), 'struct isa_findings *f', 'const struct isa_ctx *ctx', 'const struct isa_path *path']), body):
${ln}
%   endfor
% endfor
