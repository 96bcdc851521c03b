<%doc>
  Emits the part of <prefix>.h for one <choice>: one of several types,
  told apart by their fixed bits and <when> patterns (a decision tree, not
  a scan).  Included by spec.h.mako.
</%doc>\
<%page args="c"/>\
<%
S = n.sname(c)
name = n.fn
peek = g.select.choice_peek_bits(c)
PW = (peek + 31) // 32
window = g.select.choice_window_bits(c)
WW = (window + 31) // 32
%>\
/* ======================================================================
 * choice ${c.name}
% for line in g.doc_lines(c.doc):
${line}
% endfor
 * ====================================================================== */

${n.alt_enum(c)} {
   ${n.macro(c, 'NO_ALT')} = 0,
% for a in c.alts:
   ${n.alt_const(c, a)} = ${a.index},
% endfor
};

${S} {
   uint16_t variant; /* ${n.alt_enum(c)}; 0 = none */
   union {
% for a in c.alts:
      ${n.sname(a.type.target)} ${a.name};
% endfor
   } u;
};

/* Select alternative `which`, initialised (a struct by its S_init, a
 * sequence zeroed): setting v->variant alone would leave the union holding
 * the bytes of the previous alternative. */
static inline void ${name(c, 'set_variant')}(${S} *v, ${n.alt_enum(c)} which)
{
   v->variant = (uint16_t)which;
   switch (which) {
% for a in c.alts:
   case ${n.alt_const(c, a)}:
%   if a.type.target.kind == "struct":
      ${name(a.type.target, 'init')}(&v->u.${a.name});
%   else:
      memset(&v->u.${a.name}, 0, sizeof v->u.${a.name});
%   endif
      break;
% endfor
   default:
      break;
   }
}

/* Which alternative the first ${peek} bits select (1-based), 0 if none.
% for line in g.select.pattern_comments([(a.name, a.selecting, ' (priority %d)' % a.priority if a.explicit_priority else '') for a in c.alts]):
${line}
% endfor
 */
static inline unsigned ${name(c, 'select_words')}(const uint32_t *w)
{
   (void)w;
% for line in g.select.choice_select_lines(c):
${line}
% endfor
}

static inline size_t ${name(c, 'size_bits')}(const ${S} *v)
{
   switch (v->variant) {
% for a in c.alts:
   case ${a.index}:
      return ${name(a.type.target, 'size_bits')}(&v->u.${a.name});
% endfor
   default:
      return 0;
   }
}

/* Decode as alternative `alt` (1-based) from the window w of its first
 * ${window} bits (zeros past the input's end), which alternatives that fit in
 * it decode from without reading the bytes again. */
static inline int ${name(c, 'decode_window_as')}(const uint8_t *buf, size_t len, size_t pos, const uint32_t *w,
${' ' * len('static inline int ' + name(c, 'decode_window_as') + '(')}${S} *v, unsigned alt, size_t *bits, struct isa_error *err)
{
   size_t have = (uint64_t)len * 8 > pos ? (uint64_t)len * 8 - pos : 0;
   (void)buf;
   (void)w;
   v->variant = (uint16_t)alt;
   switch (v->variant) {
% for a in c.alts:
   case ${a.index}:
%   if g.select.decodes_from_words(a.type.target):
      return ${name(a.type.target, 'decode_words')}(w, have, pos, &v->u.${a.name}, bits, err);
%   else:
      return ${name(a.type.target, 'decode')}(buf, len, pos, &v->u.${a.name}, bits, err);
%   endif
% endfor
   default:
      if (have == 0)
         return isa_fail_truncated(err, ${g.c_string(c.name)}, pos, 1, 0);
      isa_fail(err, ISA_ERR_NO_MATCH, ${g.c_string(c.name)}, 0, "no alternative matches");
      if (err)
         err->bit = pos;
      return ISA_ERR_NO_MATCH;
   }
}

/* Decode as alternative `alt` (1-based), whatever the bits say. */
static inline int ${name(c, 'decode_as')}(const uint8_t *buf, size_t len, size_t pos, ${S} *v, unsigned alt,
${' ' * len('static inline int ' + name(c, 'decode_as') + '(')}size_t *bits, struct isa_error *err)
{
   uint32_t w[${WW}];
   isa_bits_extract(buf, len, pos, ${window}, w);
   return ${name(c, 'decode_window_as')}(buf, len, pos, w, v, alt, bits, err);
}

static inline int ${name(c, 'decode')}(const uint8_t *buf, size_t len, size_t pos, ${S} *v,
${' ' * len('static inline int ' + name(c, 'decode') + '(')}size_t *bits, struct isa_error *err)
{
   uint32_t w[${WW}];
   isa_bits_extract(buf, len, pos, ${window}, w);
   return ${name(c, 'decode_window_as')}(buf, len, pos, w, v, ${name(c, 'select_words')}(w), bits, err);
}

static inline int ${name(c, 'encode')}(const ${S} *v, uint8_t *buf, size_t cap, size_t pos,
${' ' * len('static inline int ' + name(c, 'encode') + '(')}size_t *bits, struct isa_error *err)
{
   uint32_t w[${PW}];
   int r;
   switch (v->variant) {
% for a in c.alts:
   case ${a.index}:
      r = ${name(a.type.target, 'encode')}(&v->u.${a.name}, buf, cap, pos, bits, err);
      break;
% endfor
   default:
      return isa_fail(err, ISA_ERR_INCONSISTENT, ${g.c_string(c.name)}, "variant", "no alternative selected");
   }
   if (r)
      return r;
   memset(w, 0, sizeof w);
   isa_bits_extract(buf, cap, pos, ${peek} < *bits ? ${peek} : *bits, w);
% for a in c.alts:
%   if a.first:
   if (v->variant == ${a.index}) /* ${a.name}: chosen by position, not by bits */
      return ISA_OK;
%   elif a.shadowed:
   if (v->variant == ${a.index}) /* ${a.name}: shadowed, its bits decode as another alternative */
      return ISA_OK;
%   endif
% endfor
   if (${name(c, 'select_words')}(w) != v->variant)
      return isa_fail(err, ISA_ERR_INCONSISTENT, ${g.c_string(c.name)}, "variant",
                      "the encoded bits would decode as another alternative");
   return ISA_OK;
}
