<%doc>
  Emits the assembler's tables of <prefix>.c (isagen/asm.h): the goals a
  unit's text matches, and the C of every expression they name (its value,
  and guesses of the variables it reads).  Built by cgen/assembler.py;
  walked by runtime/src/asm.c.  Included by spec.c.mako.
</%doc>\
<% a = g.asm; P = g.prefix %>\
% if not a.ok:

/* No assembler tables: ${a.unsupported[-1][1] if a.unsupported else 'no unit'} (isagen lint --asm says where) */
% else:
<% U = n.sname(a.unit_type) %>\

/* ======================================================================
 * The assembler's tables (isagen/asm.h)
 * ====================================================================== */
% for k, e in enumerate(a.exprs):
<% st = a.scope_type(e); params = a.param_decls(e) %>\

static ${'double' if e.node.type == 'float' else 'int64_t'} ${P}_asm_e${k}(const void *self, const int64_t *P, const struct isa_ctx *ctx)
{
%   if st:
   const ${st} *v = (const ${st} *)self;
   (void)v;
%   endif
%   for pn, decl in params:
   ${decl}
   (void)${pn};
%   endfor
   (void)self;
   (void)P;
   (void)ctx;
% for ln in a.expr_c(e):
   ${ln}
% endfor
}
%   if e.node.type != 'float' and any(p is not None for p in e.proposals):

static int64_t ${P}_asm_p${k}(const void *self, const int64_t *P, const struct isa_ctx *ctx, unsigned read, int64_t want,
                             int64_t alt)
{
%     if st:
   const ${st} *v = (const ${st} *)self;
   (void)v;
%     endif
%     for pn, decl in params:
   ${decl}
   (void)${pn};
%     endfor
   (void)self;
   (void)P;
   (void)ctx;
   (void)alt;
   switch (read) {
%     for i, prop in enumerate(e.proposals):
%       if prop is not None:
%         for ln in a.proposal_c(prop, i):
   ${ln}
%         endfor
%       endif
%     endfor
   default: return want;
   }
}
%   endif
% endfor
<% reads, firsts, free, masks = [], [], [], [] %>\
% for e in a.exprs:
<% firsts.append(len(reads)); reads.extend(r[1] if r[0] == 'var' else -1 - r[1] for r in e.reads); free.extend(e.free); masks.extend(a.read_masks(e)) %>\
% endfor

static const int32_t ${P}_asm_reads[] = {
% for ln in g.wrap_items([str(x) for x in reads] or ['0']):
   ${ln}
% endfor
};

/* per read: the bits of its field that can change the expression's value (0: all) */
static const uint64_t ${P}_asm_masks[] = {
% for ln in g.wrap_items([('UINT64_C(0x%x)' % x if x else '0') for x in masks] or ['0']):
   ${ln}
% endfor
};

/* per read: the low bits its guess cannot know (255: many) */
static const uint8_t ${P}_asm_free[] = {
% for ln in g.wrap_items([str(x) for x in free] or ['0']):
   ${ln}
% endfor
};

static const struct isa_asm_expr ${P}_asm_exprs[] = {
% for k, e in enumerate(a.exprs):
<% mask = sum(1 << i for i, p in enumerate(e.proposals) if p is not None and i < 32) %>\
%   if e.node.type == 'float':
   {0, ${P}_asm_e${k}, 0, ${firsts[k]}, ${len(e.reads)}, 0x0u, 0, 0, 0, 0},
%   else:
   {${P}_asm_e${k}, 0, ${('%s_asm_p%d' % (P, k)) if mask else '0'}, ${firsts[k]}, ${len(e.reads)}, ${'0x%xu' % mask}, ${1 if e.separable else 0},
    ${1 if a.identity(e) else 0}, ${a.value_bits(e.node) or 0}, ${1 if a.passes(e) else 0}},
%   endif
% endfor
% if not a.exprs:
   {0, 0, 0, 0, 0, 0x0u, 0, 0, 0, 0},
% endif
};

static const struct isa_asm_var ${P}_asm_vars[] = {
% for v in a.vars:
<% st = n.sname(v.scope) %>\
   {offsetof(${st}, ${v.c_member}), sizeof(((${st} *)0)->${v.c_member}), ${v.width}, ${1 if v.signed else 0},
    ${v.index[0] + 1}, ${v.index[1]}, ${v.index[2]}, ${v.count}, ${v.stride}, ${v.most}, ${v.base + 1}, ${v.index[3] + 1},
%   if v.item:
    offsetof(${st}, ${v.item}), sizeof(((${st} *)0)->${v.item})},
%   else:
    0, 0},
%   endif
% endfor
% if not a.vars:
   {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
% endif
};
% for k, e in enumerate(a.enums):
<% names = sorted(((x.display, x.value) for x in e.values), key=lambda nv: (-len(nv[0].encode('utf-8')), nv[1])) %>\

static const struct isa_asm_name ${P}_asm_names${k}[] = {
%   for name, value in names:
   {${g.c_string(name)}, ${len(name.encode('utf-8'))}, ${g.c_int(value)}},
%   endfor
};

static int ${P}_asm_named${k}(int64_t value)
{
   return value >= 0 && value <= UINT32_MAX && ${n.enum_named_fn(e)}((uint32_t)value) != 0;
}
% endfor

static const struct isa_asm_enum ${P}_asm_enums[] = {
% for k, e in enumerate(a.enums):
   {${P}_asm_names${k}, ${len(e.values)}, ${P}_asm_named${k}},
% endfor
% if not a.enums:
   {0, 0, 0},
% endif
};
<% kids = [] %>\

static const struct isa_asm_goal ${P}_asm_goals[] = {
% for k, goal in enumerate(a.goals):
<% first = len(kids); kids.extend(goal.kids) %>\
<% fc = a.first_char(k) %>\
   {ISA_ASM_${goal.kind}, ${goal.a}, ${goal.b}, ${goal.c_expr or g.c_int(goal.c)}, ${first}, ${len(goal.kids)}, ${g.c_string(goal.text)}, ${goal.length if goal.length is not None else len(goal.text.encode('utf-8'))}, ${goal.offset}, ${ord(fc) if fc else 0}, ${a.head(k) if fc else 0}},
% endfor
};

static const uint32_t ${P}_asm_kids[] = {
% for ln in g.wrap_items([str(x) for x in kids] or ['0']):
   ${ln}
% endfor
};

/* A unit before its text is read: its XML defaults, and for a field with
 * none, the value it is expected to hold (expect=): what the text does not
 * say. */
static void ${P}_asm_init(void *unit)
{
% for ln in a.unit_init_lines():
   ${ln}
% endfor
}
<% cases = a.select_cases() %>\
% if cases:

/* The unit's alternative `alt` chosen, as the init above sets up a unit. */
static void ${P}_asm_select(void *unit, unsigned alt)
{
   ${U} *u = (${U} *)unit;
   ${n.fn(a.unit_type, 'set_variant')}(u, (${n.alt_enum(a.unit_type)})alt);
   switch (alt) {
%   for k, lines in cases:
   case ${k}:
%     for ln in lines:
      ${ln}
%     endfor
      break;
%   endfor
   default:
      break;
   }
}
% endif
% if a.overlays:

/* An overlay struct's views share its bits, and the text may have set
 * fields of several: the bits of the fields it set, of every view; then
 * the view they select, with its own values for the rest (its defaults:
 * another view's are not this encoding's); read back through every view. */
%   for k, (path, st, alt) in enumerate(a.overlays):
<% S = n.sname(st) %>\
static void ${P}_asm_merge${k}(${S} *v, const unsigned char *known)
{
   uint32_t image[${st.words}] = {0}, w[${st.words}];
   ${S} part;
%     for view in st.variants:
   memset(&part, 0, sizeof part);
   part.variant = ${view.index};
%       for f in st.fields:
%         if f.role == 'field':
   if (known[offsetof(${S}, ${f.name})])
      memcpy(&part.${f.name}, &v->${f.name}, sizeof part.${f.name});
%         endif
%       endfor
%       for f in view.fields:
%         if f.role == 'field':
   if (known[offsetof(${S}, u.${view.name}.${f.name})])
      memcpy(&part.u.${view.name}.${f.name}, &v->u.${view.name}.${f.name}, sizeof part.u.${view.name}.${f.name});
%         endif
%       endfor
   ${n.fn(st, 'pack_words')}(&part, w);
   for (unsigned i = 0; i < ${st.words}u; i++)
      image[i] |= w[i];
%     endfor
   part = *v;
   part.variant = (uint16_t)${n.fn(st, 'select_words')}(image);
   ${n.fn(st, 'pack_words')}(&part, w);
   for (unsigned i = 0; i < ${st.words}u; i++)
      image[i] |= w[i];
   (void)${n.fn(st, 'unpack_words')}(image, v);
}

%   endfor
static void ${P}_asm_merge(void *unit, const unsigned char *known)
{
   ${U} *u = (${U} *)unit;
%   for k, (path, st, alt) in enumerate(a.overlays):
%     if alt:
   if (u->variant == ${alt})
      ${P}_asm_merge${k}(&u->${path}, known + offsetof(${U}, ${path}));
%     else:
   ${P}_asm_merge${k}(&u->${path}, known + offsetof(${U}, ${path}));
%     endif
%   endfor
}
% endif

% if a.chained:
/* <derive>d fields that read $next: what the next unit's <state>s come from */
static const struct isa_asm_chained ${P}_asm_chained[] = {
%   for alt, path, f in a.chained:
   {${alt}, offsetof(${U}, ${path}), sizeof(((${U} *)0)->${path}), ${f.width}, ${1 if f.type.kind == 'sint' else 0}},
%   endfor
};

% endif
<% prefers = a.prefer_types() %>\
% if prefers:
%   for t in prefers:

/* ${t.name}'s <prefer>: of encodings printing the same text, the greatest wins */
%     for ln in g.function(('int64_t ' + P + '_asm_prefer_' + t.name, ['const %s *v' % n.sname(t), 'const struct isa_ctx *ctx']), a.prefer_body(t), static=True):
${ln}
%     endfor
%   endfor

static int ${P}_asm_prefer(const void *a, const void *b, const struct isa_ctx *ctx)
{
%   for ln in a.prefer_dispatch():
   ${ln}
%   endfor
}

% endif
<% fills = g.fill.types(a.unit_type) %>\
% if fills:
/* <fill>s: what the reference tool's encoder writes where the text leaves bits open */
%   for t in fills:
%     for ln in g.function(('void ' + g.fill.fn(t), ['%s *v' % n.sname(t), 'int (*keep)(void *cookie)', 'void *cookie']), g.fill.body(t), static=True):
${ln}
%     endfor

%   endfor
static void ${P}_asm_fill(void *unit, int (*keep)(void *cookie), void *cookie)
{
   ${g.fill.fn(a.unit_type)}((${U} *)unit, keep, cookie);
}

% endif
static const struct isa_asm ${P}_asm = {
   ${P}_asm_goals,
   ${P}_asm_kids,
   ${P}_asm_exprs,
   ${P}_asm_reads,
   ${P}_asm_free,
   ${P}_asm_masks,
   ${P}_asm_vars,
   ${P}_asm_enums,
   ${P}_asm_init,
   ${1 if a.dump else 0},
   ${1 if a.multiline else 0},
   ${1 if a.line_units else 0},
   ${a.root},
   ${a.prefix if a.prefix is not None else -1},
   ${(P + '_asm_merge') if a.overlays else '0'},
   ${a.max_bytes},
   ${(P + '_asm_select') if cases else '0'},
   ${a.place},
   ${1 if a.reads_last else 0},
   ${(P + '_asm_chained') if a.chained else '0'},
   ${len(a.chained)},
   ${1 if a.empty_lines else 0},
   ${(P + '_asm_prefer') if prefers else '0'},
   ${(P + '_asm_fill') if fills else '0'},
};
% endif
