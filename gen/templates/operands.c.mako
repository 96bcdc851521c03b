<%doc>
  Emits the operand rules of <prefix>.c: per operand something prints or
  checks, `case` (which case applies), `print`, and `check` when printing
  it can reach an undefined case.  Included by spec.c.mako.
</%doc>\
<% ops = g.operands() %>\
% if ops:

/* ======================================================================
 * Operand rules: which case applies, and how it prints
 * ====================================================================== */
% endif
% for o in ops:
<% params = g.operand.operand_params(n, o).split(', ') %>\

%   for ln in g.signature('unsigned ' + n.op_fn(o, 'case'), params, static=True, end=';'):
${ln}
%   endfor
%   for ln in g.signature(('ISA_MAYBE_UNUSED void ' if g.printer.operand_puts(o) else 'void ') + n.op_fn(o, 'print'), ['struct isa_out *out'] + params, static=True, end=';'):
${ln}
%   endfor
%   if g.printer.operand_puts(o):
%     for ln in g.signature('char *' + n.op_fn(o, 'put'), ['char *run_p'] + params, static=True, end=';'):
${ln}
%     endfor
%   endif
%   if g.validator.reaches_undefined(o):
%     for ln in g.signature('void ' + n.op_fn(o, 'check'), ['struct isa_findings *f', 'const struct isa_path *path', 'const char *field'] + params, static=True, end=';'):
${ln}
%     endfor
%   endif
% endfor
% for o in ops:
<% params = g.operand.operand_params(n, o).split(', ') %>\
<% unused = ['ctx'] + (['v'] if o.owner is not None else []) + [n.param(p) for p in o.params] %>\

%   for ln in g.doc_comment(o.name, o.doc):
${ln}
%   endfor
<% body = g.printer.operand_case_body(o) %>\
<% body.items[:0] = ['(void)%s;' % u for u in unused] %>\
%   for ln in g.function(('unsigned ' + n.op_fn(o, 'case'), params), body, static=True):
${ln}
%   endfor

%   if g.printer.operand_puts(o):
<% body = g.printer.operand_put_body(o) %>\
<% body.items[:0] = ['(void)ctx;'] + (['(void)v;'] if o.owner is not None else []) %>\
%     for ln in g.function(('char *' + n.op_fn(o, 'put'), ['char *run_p'] + params), body, static=True):
${ln}
%     endfor

%   endif
<% body = g.printer.operand_print_body(o) %>\
<% body.items[:0] = ['(void)ctx;'] + (['(void)v;'] if o.owner is not None else []) %>\
<% unused_ok = 'ISA_MAYBE_UNUSED void ' if g.printer.operand_puts(o) else 'void ' %>\
%   for ln in g.function((unused_ok + n.op_fn(o, 'print'), ['struct isa_out *out'] + params), body, static=True):
${ln}
%   endfor
%   if g.validator.reaches_undefined(o):

/* Reports the undefined case printing ${o.name} would reach, as `field` of `path`. */
<% body = g.validator.operand_check_body(o) %>\
<% body.items[:0] = ['(void)v;'] if o.owner is not None else [] %>\
%     for ln in g.function(('void ' + n.op_fn(o, 'check'), ['struct isa_findings *f', 'const struct isa_path *path', 'const char *field'] + params), body, static=True):
${ln}
%     endfor
%   endif
% endfor
