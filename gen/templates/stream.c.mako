<%doc>
  Emits the program side of <prefix>.c: the stream's stop rule, state
  step, derives (link), listing prefix, first-unit decoder, containers and
  options, and the struct isa_spec that ties everything together.
  Included by spec.c.mako.
</%doc>\
<% st = spec.stream; code = g.stream; P = g.prefix %>\

/* ======================================================================
 * The spec
 * ====================================================================== */
% if st.stop is not None:

%   for ln in g.function(('int ' + n.spec_fn('stop'), ['const void *unit', 'const struct isa_ctx *ctx']), code.stop_body(), static=True):
${ln}
%   endfor
% endif
% if st.derives:

/* The stream's <derive>s: fields the program encoder computes from the
 * neighbouring units. */
%   for ln in g.function(('int ' + n.spec_fn('link'), ['void *unit', 'const struct isa_ctx *ctx', 'struct isa_error *err']), code.link_body(), static=True):
${ln}
%   endfor
% endif
<% firsts = code.firsts() %>\
% if firsts:

/* The program's first unit is always ${firsts[0].name}. */
%   for ln in g.signature('int ' + n.spec_fn('decode_first'), ['const uint8_t *buf', 'size_t len', 'size_t pos', 'void *obj', 'size_t *bits', 'struct isa_error *err'], static=True):
${ln}
%   endfor
{
   ${n.sname(st.unit)} *v = (${n.sname(st.unit)} *)obj;
   return ${n.fn(st.unit, 'decode_as')}(buf, len, pos, v, ${firsts[0].index}, bits, err);
}
% endif
% if st.states:

/* <state>s: where each one's values are, and their value before the first unit. */
% for ln in code.state_decls():
${ln}
% endfor

/* What a unit changes in the states (read as before it, in ctx): the writes, in order. */
%   for ln in g.function(('unsigned ' + n.spec_fn('step'), ['const void *unit', 'const struct isa_ctx *ctx', 'struct isa_state_write *w']), code.step_body(), static=True):
${ln}
%   endfor
% endif
% if st.prefix is not None:
<% body = code.prefix_body() %>\
<% body.items[:0] = ['(void)out;', '(void)ctx;'] %>\

%   for ln in g.function(('void ' + n.spec_fn('prefix'), ['struct isa_out *out', 'const struct isa_ctx *ctx']), body, static=True):
${ln}
%   endfor
% endif
% for c in spec.containers:

static const struct isa_chunk_step ${n.container_steps(c)}[] = {
%   for cid, skip in c.chunks:
   {.id = ${g.c_string(cid)}, .skip = ${skip}},
%   endfor
};
% endfor
% if spec.containers:

static const struct isa_container ${P}_containers[] = {
%   for c in spec.containers:
   {.name = ${g.c_string(c.name)}, .magic = ${g.c_string(c.magic)}, .steps = ${n.container_steps(c)}, .n_steps = ${len(c.chunks)}},
%   endfor
};
% endif
% for o in st.options:

/* <option> ${o.name}: the values of enum ${o.enum.name} */
static const char *const ${n.option_table(o, 'names')}[] = {
%   for ln in g.cwriter.wrapped_list([g.c_string(ev.name) for ev in o.enum.values]):
${ln}
%   endfor
};
static const int64_t ${n.option_table(o, 'values')}[] = {
%   for ln in g.cwriter.wrapped_list(['INT64_C(%d)' % ev.value for ev in o.enum.values]):
${ln}
%   endfor
};
% endfor
% if st.options:

%   for ln in code.options():
${ln}
%   endfor
% endif

static const struct isa_type_desc *const ${P}_types[] = {
% for t in spec.types:
   &${n.desc(t)},
% endfor
};

% if st.after_stop:
/* what the compiler writes after the unit that stops a program (after-stop=) */
static const uint8_t ${P}_after_stop[] = {
%   for ln in g.wrap_items(['0x%02x' % b for b in st.after_stop]):
   ${ln}
%   endfor
};

% endif
const struct isa_spec ${n.spec_symbol()} = {
   .name = ${g.c_string(spec.name)},
   .title = ${g.c_string(spec.title)},
   .version = ${g.c_string(spec.version or '')},
   .source = ${g.c_string(spec.file)},
   .unit = &${n.desc(st.unit)},
   .unit_count = ${st.count or 0},
   .stop = ${n.spec_fn('stop') if st.stop is not None else '0'},
   .prefix = ${n.spec_fn('prefix') if st.prefix is not None else '0'},
   .separator = ${g.c_string(st.separator)},
   .link = ${n.spec_fn('link') if st.derives else '0'},
   .decode_first = ${n.spec_fn('decode_first') if firsts else '0'},
   .n_state = ${code.n_state_values()},
   .state_decls = ${n.spec_fn('state_decls') if st.states else '0'},
   .n_state_decls = ${len(st.states)},
   .n_grown = ${code.n_grown()},
   .max_state_writes = ${code.max_state_writes()},
   .step = ${n.spec_fn('step') if st.states else '0'},
   .skip_zero_bits = ${st.skip_zero},
   .skip_unit_bits = ${st.skip_unit},
   .resync_bits = ${st.resync},
   .pad_end = ${1 if st.pad_end else 0},
   .reads_prev = ${1 if spec.reads_prev else 0},
   .max_unit_bytes = ${code.max_unit_bytes()},
   .failed_text = ${g.c_string(st.failed)},
   .containers = ${P + '_containers' if spec.containers else '0'},
   .n_containers = ${len(spec.containers)},
   .types = ${P}_types,
   .n_types = ${len(spec.types)},
   .options = ${P + '_options' if st.options else '0'},
   .n_options = ${len(st.options)},
   .assembler = ${'&' + P + '_asm' if g.asm.ok else '0'},
   .after_stop = ${P + '_after_stop' if st.after_stop else '0'},
   .after_stop_len = ${len(st.after_stop)},
};
