<%doc>
  Emits the part of <prefix>.h for one <struct>: its C struct(s), and the
  inline select / unpack / pack / check / decode / encode functions.
  Included by spec.h.mako.
</%doc>\
<%page args="s"/>\
<%
info = g.layout.struct_info(s)
S = n.sname(s)
name = n.fn
L = g.layout
W = s.words
variable = s.variable_length
min_bits = s.min_length if variable and s.min_length else s.bits
%>\
/* ======================================================================
 * struct ${s.name}: ${s.bits} bits${', variable length' if variable else ''}
% for line in g.doc_lines(s.doc):
${line}
% endfor
 * ====================================================================== */
% for v in s.variants:

%   for ln in g.doc_comment('Variant %s of %s' % (v.name, s.name), v.doc):
${ln}
%   endfor
${n.vsname(s, v)} {
%   for f in v.fields:
%     if f.stored:
   ${L.member_decl(f)}
%     endif
%   endfor
%   if not any(f.stored for f in v.fields):
   char unused_; /* no stored fields: only fixed bits */
%   endif
};
% endfor
% if s.variants:

${n.variant_enum(s)} {
   ${n.macro(s, 'NO_VARIANT')} = 0,
%   for v in s.variants:
   ${n.vconst(s, v)} = ${v.index},
%   endfor
};
% endif

${S} {
% for f in s.fields:
%   if f.stored:
   ${L.member_decl(f)}
%   endif
% endfor
% if s.variants:
   uint16_t variant; /* ${n.variant_enum(s)}; 0 = none selected */
   ${'struct' if s.overlay else 'union'} { /* ${'views: every one holds the same bits' if s.overlay else 'the selected variant'} */
%   for v in s.variants:
      ${n.vsname(s, v)} ${v.name};
%   endfor
   } u;
% endif
% if not any(f.stored for f in s.fields) and not s.variants:
   char unused_; /* no stored fields: only fixed bits */
% endif
};

#define ${n.macro(s, 'BITS')} ${s.bits}
#define ${n.macro(s, 'BYTES')} ${(s.bits + 7) // 8}
#define ${n.macro(s, 'WORDS')} ${W}
% if variable:
#define ${n.macro(s, 'MIN_BITS')} ${min_bits}
% endif

/* Zero every field, then apply the XML defaults and set the bits of fields
 * that the encoding fixes to one (a <fixed shared="true">), so that the
 * result encodes as it is. */
static inline void ${name(s, 'init')}(${S} *v)
{
   memset(v, 0, sizeof *v);
% for ln in L.default_stmts(info["common"]):
   ${ln}
% endfor
% for fx in [m for m in s.fields if m.shared_bits]:
%   for f, k, bit in fx.shared_bits:
%     if bit:
   v->${f.name} = (${L.ctype(f)})(v->${f.name} | (1u << ${k})); /* fixed by the encoding */
%     endif
%   endfor
% endfor
}
% if s.variants and not s.overlay:

/* Select variant `which` with its view freshly initialised: zeroed, then
 * its XML defaults.  Setting v->variant alone would leave the view holding
 * the bytes of the previous variant's view (or none), which are not values
 * of this one. */
static inline void ${name(s, 'set_variant')}(${S} *v, ${n.variant_enum(s)} which)
{
   v->variant = (uint16_t)which;
   switch (which) {
%   for vv, leaves in info["variants"]:
   case ${n.vconst(s, vv)}:
      memset(&v->u.${vv.name}, 0, sizeof v->u.${vv.name});
%     for ln in L.default_stmts(leaves):
      ${ln}
%     endfor
      break;
%   endfor
   default:
      break;
   }
}
% endif
% if s.variants:

/* Which variant the bits in w select (1-based), 0 if none.
% for line in g.select.pattern_comments([(v.name, v.patterns, g.select.variant_note(v)) for v in s.variants]):
${line}
% endfor
 */
static inline unsigned ${name(s, 'select_words')}(const uint32_t *w)
{
   (void)w;
%   for line in g.select.struct_select_lines(s):
${line}
%   endfor
}
% endif

/* Fields from unit words w (bit 0 of w[0] is the struct's first bit). */
static inline int ${name(s, 'unpack_words')}(const uint32_t *w, ${S} *v)
{
   (void)v;
<% fixed = [x for x in info["common"] if isinstance(x, L.FixedBits)] %>\
% for fx in fixed:
   if (${L.extract_c(fx.pieces)} != 0x${'%x' % fx.value}u)
      return ISA_ERR_NO_MATCH;
% endfor
% for leaf in info["common"]:
%   if isinstance(leaf, L.Leaf):
   ${L.unpack_stmt(leaf)}
%   elif isinstance(leaf, L.Nested):
   {
      uint32_t sub[${leaf.target.words}];
      int r;
      for (unsigned i = 0; i < ${leaf.target.words}; i++)
         sub[i] = (uint32_t)isa_w_get(w, ${leaf.lo} + 32 * i, ${leaf.target.bits} - 32 * i < 32 ? ${leaf.target.bits} - 32 * i : 32);
      r = ${name(leaf.target, 'unpack_words')}(sub, &${leaf.c});
      if (r)
         return r;
   }
%   endif
% endfor
% if s.variants and s.overlay:
   /* overlay: every view reads the same bits */
%   for v, leaves in info["variants"]:
%     for leaf in leaves:
%       if isinstance(leaf, L.Leaf):
   ${L.unpack_stmt(leaf)}
%       endif
%     endfor
%   endfor
   v->variant = (uint16_t)${name(s, 'select_words')}(w);
   if (!v->variant)
      return ISA_ERR_NO_MATCH;
% elif s.variants:
   v->variant = (uint16_t)${name(s, 'select_words')}(w);
   switch (v->variant) {
%   for v, leaves in info["variants"]:
   case ${n.vconst(s, v)}:
%     for leaf in leaves:
%       if isinstance(leaf, L.Leaf):
      ${L.unpack_stmt(leaf)}
%       endif
%     endfor
      break;
%   endfor
   default:
      return ISA_ERR_NO_MATCH;
   }
% endif
% if not info["common"] and not s.variants:
   (void)w;
   (void)v;
% endif
   return ISA_OK;
}

/* Unit words w from the fields (unchecked: values are masked to their width). */
static inline void ${name(s, 'pack_words')}(const ${S} *v, uint32_t *w)
{
   (void)v;
   memset(w, 0, ${W} * sizeof(uint32_t));
% for leaf in info["common"]:
%   if isinstance(leaf, L.Leaf):
%     for st in L.pack_stmts(leaf):
   ${st}
%     endfor
%   elif isinstance(leaf, L.FixedBits):
%     for st in L.insert_stmts(leaf.pieces, '0x%xu' % leaf.value):
   ${st}
%     endfor
%   elif isinstance(leaf, L.Nested):
   {
      uint32_t sub[${leaf.target.words}];
      ${name(leaf.target, 'pack_words')}(&${leaf.c}, sub);
      for (unsigned i = 0; i < ${leaf.target.words}; i++)
         isa_w_or(w, ${leaf.lo} + 32 * i, ${leaf.target.bits} - 32 * i < 32 ? ${leaf.target.bits} - 32 * i : 32, sub[i]);
   }
%   endif
% endfor
% if s.variants:
   switch (v->variant) {
%   for v, leaves in info["variants"]:
   case ${n.vconst(s, v)}:
%     for leaf in leaves:
%       if isinstance(leaf, L.Leaf):
%         for st in L.pack_stmts(leaf):
      ${st}
%         endfor
%       elif isinstance(leaf, L.FixedBits):
%         for st in L.insert_stmts(leaf.pieces, '0x%xu' % leaf.value):
      ${st}
%         endfor
%       endif
%     endfor
      break;
%   endfor
   default:
      break;
   }
% endif
% if not info["common"] and not s.variants:
   (void)v;
% endif
}

/* ISA_ERR_RANGE when a field holds a value its bits cannot encode;
 * ISA_ERR_INCONSISTENT when it contradicts a fixed bit it shares. */
static inline int ${name(s, 'check')}(const ${S} *v, struct isa_error *err)
{
% for group in L.check_groups(info["common"]):
%   if isinstance(group, L.Nested):
   {
      int r = ${name(group.target, 'check')}(&${group.c}, err);
      if (r)
         return r;
   }
%   else:
%     for ln in L.range_check(group, s.name, S):
   ${ln}
%     endfor
%   endif
% endfor
% if s.variants:
   switch (v->variant) {
%   for v, leaves in info["variants"]:
   case ${n.vconst(s, v)}:
%     for ln in L.range_check(leaves, s.name, S):
      ${ln}
%     endfor
      break;
%   endfor
   default:
      return isa_fail(err, ISA_ERR_INCONSISTENT, ${g.c_string(s.name)}, "variant", "no variant selected");
   }
% endif
% for fx in [m for m in s.fields if m.shared_bits]:
%   for f, k, bit in fx.shared_bits:
   if ((((uint64_t)v->${f.name} >> ${k}) & 1u) != ${bit}u)
      return isa_fail(err, ISA_ERR_INCONSISTENT, ${g.c_string(s.name)}, ${g.c_string(f.name)},
                      ${g.c_string('bit %d of %s is fixed to %d by the encoding' % (k, f.name, bit))});
%   endfor
% endfor
   (void)v;
   (void)err;
   return ISA_OK;
}

/* Bits the struct takes when encoded. */
static inline size_t ${name(s, 'size_bits')}(const ${S} *v)
{
% if variable:
   int64_t n;
%   for ln in L.length_code(s, "n"):
   ${ln}
%   endfor
   return n < ${min_bits} || n > ${s.bits} ? ${s.bits} : (size_t)n;
% else:
   (void)v;
   return ${s.bits};
% endif
}

% if g.select.decodes_from_words(s) and g.select.is_choice_alt(s, spec.types):
/* Decode the struct from words its choice has read: `win` holds at least
 * ${W} words from bit `pos` of the input, zeros past its end, and `have` is
 * the number of bits the input has from `pos`.  Same results as _decode. */
static inline int ${name(s, 'decode_words')}(const uint32_t *win, size_t have, size_t pos, ${S} *v,
${' ' * len('static inline int ' + name(s, 'decode_words') + '(')}size_t *bits, struct isa_error *err)
{
   uint32_t w[${W}];
   size_t n = ${s.bits};
   int r;
   if (have < ${min_bits})
      return isa_fail_truncated(err, ${g.c_string(s.name)}, pos, ${min_bits}, have);
%   if s.length_flag_field is not None:
   /* the length flag (bit ${s.length_flag_field.pieces[0][0]}) says how long the struct is */
   if (isa_w_get(win, ${s.length_flag_field.pieces[0][0]}, 1)) {
      if (n > have)
         return isa_fail_truncated(err, ${g.c_string(s.name)}, pos, (uint64_t)n, have);
      isa_w_keep(w, win, ${W}, ${s.bits});
   } else {
      n = ${min_bits};
      isa_w_keep(w, win, ${W}, ${min_bits});
   }
%   else:
   isa_w_keep(w, win, ${W}, ${s.bits});
%   endif
   r = ${name(s, 'unpack_words')}(w, v);
   if (r) {
      isa_fail(err, r, ${g.c_string(s.name)}, 0, ${g.c_string('no variant matches' if s.variants and s.length_flag_field is None else 'fixed bits do not match')});
      if (err)
         err->bit = pos;
      return r;
   }
   *bits = n;
   return ISA_OK;
}

/* Decode the struct at bit `pos` of buf[0..len); *bits gets its size. */
static inline int ${name(s, 'decode')}(const uint8_t *buf, size_t len, size_t pos, ${S} *v,
${' ' * len('static inline int ' + name(s, 'decode') + '(')}size_t *bits, struct isa_error *err)
{
   uint32_t w[${W}];
   isa_bits_extract(buf, len, pos, ${s.bits}, w);
   return ${name(s, 'decode_words')}(w, len * 8 > pos ? len * 8 - pos : 0, pos, v, bits, err);
}

% else:
/* Decode the struct at bit `pos` of buf[0..len); *bits gets its size. */
static inline int ${name(s, 'decode')}(const uint8_t *buf, size_t len, size_t pos, ${S} *v,
${' ' * len('static inline int ' + name(s, 'decode') + '(')}size_t *bits, struct isa_error *err)
{
   uint32_t w[${W}];
   size_t have = len * 8 > pos ? len * 8 - pos : 0;
   int r;
   if (have < ${min_bits})
      return isa_fail_truncated(err, ${g.c_string(s.name)}, pos, ${min_bits}, have);
% if s.length_flag_field is not None:
<% lf = s.length_flag_field.pieces[0][0] %>\
   /* the length flag (bit ${lf}) says how long the struct is: read only that much */
   isa_bits_extract(buf, len, pos, ${min_bits}, w);
   {
      size_t n = isa_w_get(w, ${lf}, 1) ? ${s.bits} : ${min_bits};
      if (n > have)
         return isa_fail_truncated(err, ${g.c_string(s.name)}, pos, (uint64_t)n, have);
      isa_bits_extract(buf, len, pos, n, w);
      for (unsigned i = (unsigned)(n + 31) / 32; i < ${W}; i++)
         w[i] = 0;
      r = ${name(s, 'unpack_words')}(w, v);
      if (r) {
         isa_fail(err, r, ${g.c_string(s.name)}, 0, "fixed bits do not match");
         if (err)
            err->bit = pos;
         return r;
      }
      *bits = n;
   }
   return ISA_OK;
% else:
   isa_bits_extract(buf, len, pos, ${s.bits}, w);
   r = ${name(s, 'unpack_words')}(w, v);
   if (r) {
      isa_fail(err, r, ${g.c_string(s.name)}, 0, ${g.c_string('no variant matches' if s.variants else 'fixed bits do not match')});
      if (err)
         err->bit = pos;
      return r;
   }
% if variable:
   {
      int64_t n;
%   for ln in L.length_code(s, "n"):
      ${ln}
%   endfor
      if (n < ${min_bits} || n > ${s.bits}) {
         isa_fail(err, ISA_ERR_SIZE, ${g.c_string(s.name)}, 0, "length outside the layout");
         if (err)
            err->value = n;
         return ISA_ERR_SIZE;
      }
      if ((size_t)n > have)
         return isa_fail_truncated(err, ${g.c_string(s.name)}, pos, (uint64_t)n, have);
      if (n < ${s.bits}) {
         /* bits past the encoded length read as zero */
         isa_bits_extract(buf, len, pos, (size_t)n, w);
         for (unsigned i = (unsigned)(n + 31) / 32; i < ${W}; i++)
            w[i] = 0;
         r = ${name(s, 'unpack_words')}(w, v);
         if (r)
            return isa_fail(err, r, ${g.c_string(s.name)}, 0, "the short form matches no variant");
      }
      *bits = (size_t)n;
   }
% else:
   *bits = ${s.bits};
% endif
   return ISA_OK;
% endif
}


% endif
/* Checked encode at bit `pos` of buf[0..cap): range checks, variant
 * consistency, room; *bits gets the size. */
static inline int ${name(s, 'encode')}(const ${S} *v, uint8_t *buf, size_t cap, size_t pos,
${' ' * len('static inline int ' + name(s, 'encode') + '(')}size_t *bits, struct isa_error *err)
{
   uint32_t w[${W}];
   size_t n = ${s.bits};
   int r = ${name(s, 'check')}(v, err);
   if (r)
      return r;
   ${name(s, 'pack_words')}(v, w);
% if s.variants:
   if (${name(s, 'select_words')}(w) != v->variant)
      return isa_fail(err, ISA_ERR_INCONSISTENT, ${g.c_string(s.name)}, "variant",
                      "the fields select another variant than the one set");
% endif
% if s.length_flag_field is not None:
<% lf = s.length_flag_field.pieces[0][0] %>\
   /* the long form when asked for or when a field needs it */
   if (${L.any_bit_set(min_bits, s.bits)})
      w[${lf // 32}] |= UINT32_C(1) << ${lf % 32};
   n = isa_w_get(w, ${lf}, 1) ? ${s.bits} : ${min_bits};
% elif variable:
   {
      int64_t len_bits;
%   for ln in L.length_code(s, "len_bits"):
      ${ln}
%   endfor
      if (len_bits < ${min_bits} || len_bits > ${s.bits})
         return isa_fail(err, ISA_ERR_SIZE, ${g.c_string(s.name)}, 0, "length outside the layout");
      n = (size_t)len_bits;
      for (size_t b = n; b < ${s.bits}; b++)
         if (w[b / 32] >> (b % 32) & 1)
            return isa_fail(err, ISA_ERR_INCONSISTENT, ${g.c_string(s.name)}, 0,
                            "fields past the encoded length are not zero");
   }
% endif
   return isa_bits_put(buf, cap, pos, n, w, bits, err, ${g.c_string(s.name)});
}

/* Unchecked pack to the start of out (which holds ${n.macro(s, 'BYTES')} bytes):
 * values are masked to their fields.  Returns the bytes written. */
static inline size_t ${name(s, 'pack')}(const ${S} *v, uint8_t *out)
{
   uint32_t w[${W}];
   size_t n = ${s.bits};
   ${name(s, 'pack_words')}(v, w);
% if s.length_flag_field is not None:
<% lf = s.length_flag_field.pieces[0][0] %>\
   if (${L.any_bit_set(min_bits, s.bits)})
      w[${lf // 32}] |= UINT32_C(1) << ${lf % 32};
   n = isa_w_get(w, ${lf}, 1) ? ${s.bits} : ${min_bits};
% elif variable:
   {
      int64_t len_bits;
%   for ln in L.length_code(s, "len_bits"):
      ${ln}
%   endfor
      if (len_bits >= ${min_bits} && len_bits <= ${s.bits})
         n = (size_t)len_bits;
   }
% endif
   isa_bits_insert(out, 0, n, w);
   return (n + 7) / 8;
}
