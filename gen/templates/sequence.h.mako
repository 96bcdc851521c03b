<%doc>
  Emits the part of <prefix>.h for one <sequence>: a container of items
  decoded one after the other, each present, absent or repeated according
  to fields decoded before it.  Included by spec.h.mako.
</%doc>\
<%page args="q"/>\
<%
S = n.sname(q)
name = n.fn
code = g.seq
has, count = n.has, n.count
%>\
/* ======================================================================
 * sequence ${q.name}${' (aligned to %d bits)' % q.align if q.align > 1 else ''}
% for line in g.doc_lines(q.doc):
${line}
% endfor
 * ====================================================================== */

${S} {
% for it in q.items:
%   if it.count is not None:
   unsigned ${count(it)}; /* ${g.comment(it.count_text)} */
   ${n.sname(it.type.target)} ${it.name}[${it.max}];
%   elif it.present is not None:
   bool ${has(it)}; /* ${g.comment(it.present_text)} */
   ${n.sname(it.type.target)} ${it.name};
%   else:
   ${n.sname(it.type.target)} ${it.name};
%   endif
% endfor
};

/* Bits the items take (alignment included): what <derive>d sizes must say. */
static inline size_t ${name(q, 'size_bits')}(const ${S} *v)
{
   size_t pos = 0;
% for it in q.items:
%   if it.count is not None:
   for (unsigned i = 0; i < v->${count(it)} && i < ${it.max}; i++)
      pos += ${name(it.type.target, 'size_bits')}(&v->${it.name}[i]);
%   elif it.present is not None:
   if (v->${has(it)})
      pos += ${name(it.type.target, 'size_bits')}(&v->${it.name});
%   else:
   pos += ${name(it.type.target, 'size_bits')}(&v->${it.name});
%   endif
% endfor
% if q.align > 1:
   pos = (size_t)isa_x_align((int64_t)pos, ${q.align});
% endif
   return pos;
}

/* Decode the sequence at bit `pos` of buf[0..len); *bits gets its size.
 * An absent item is zeroed; elements past a count keep what they held.
 * (Clearing the whole struct first was a rep stos that cost a quarter of
 * Lima PP's decode; clearing the tail of TGSI's operand arrays, whose
 * length varies, cost more than it saved.) */
static inline int ${name(q, 'decode')}(const uint8_t *buf, size_t len, size_t pos, ${S} *v,
${' ' * len('static inline int ' + name(q, 'decode') + '(')}size_t *bits, struct isa_error *err)
{
   size_t start = pos;
% for ln in code.decode_lines(q):
${ln}
% endfor
% if q.align > 1:
   pos = start + (size_t)isa_x_align((int64_t)(pos - start), ${q.align});
% endif
% if q.size is not None:
   {
      int64_t declared;
%   for ln in code.size_lines(q, "declared", "v"):
      ${ln}
%   endfor
      if (declared < (int64_t)(pos - start)) {
         isa_fail(err, ISA_ERR_SIZE, ${g.c_string(q.name)}, 0, "declared size is smaller than the content");
         if (err) {
            err->need = pos - start;
            err->have = (uint64_t)declared;
            err->bit = start;
         }
         return ISA_ERR_SIZE;
      }
      if ((uint64_t)declared > (uint64_t)len * 8 - start)
         return isa_fail_truncated(err, ${g.c_string(q.name)}, start, (uint64_t)declared, (uint64_t)len * 8 - start);
      pos = start + (size_t)declared;
   }
% endif
   (void)buf;
   (void)len;
   *bits = pos - start;
   return ISA_OK;
}

/* Checked encode at bit `pos` of buf[0..cap).  Fields that say whether an
 * item is present, how many there are, or how big the whole is (<derive>)
 * are computed from the items; *bits gets the size. */
static inline int ${name(q, 'encode')}(const ${S} *v, uint8_t *buf, size_t cap, size_t pos,
${' ' * len('static inline int ' + name(q, 'encode') + '(')}size_t *bits, struct isa_error *err)
{
   ${S} tmp = *v;
   size_t start = pos;
   int pass;
% for ln in code.presence_setters(q):
   ${ln}
% endfor
% for it in q.items:
%   if it.padding:
%     for ln in code.padding_lines(q, it):
   ${ln}
%     endfor
%   endif
% endfor
% for it in code.presence_checked_early(q):
%   for ln in code.presence_check_lines(q, it):
   ${ln}
%   endfor
% endfor
   for (pass = 0; pass < ${2 if q.derives else 1}; pass++) {
      pos = start;
% for it in q.items:
%   if it.count is not None:
      if (tmp.${count(it)} > ${it.max})
         return isa_fail(err, ISA_ERR_LIMIT, ${g.c_string(q.name)}, ${g.c_string(it.name)}, "count exceeds max");
      for (unsigned i = 0; i < tmp.${count(it)}; i++) {
         size_t n_bits = 0;
         int r = ${name(it.type.target, 'encode')}(&tmp.${it.name}[i], buf, cap, pos, &n_bits, err);
         if (r)
            return r;
         pos += n_bits;
      }
%   else:
      ${'if (tmp.%s) ' % has(it) if it.present is not None else ''}{
         size_t n_bits = 0;
         int r = ${name(it.type.target, 'encode')}(&tmp.${it.name}, buf, cap, pos, &n_bits, err);
         if (r)
            return r;
         pos += n_bits;
      }
%   endif
% endfor
% if q.align > 1:
      {
         size_t aligned = start + (size_t)isa_x_align((int64_t)(pos - start), ${q.align});
         if (aligned > cap * 8)
            return isa_fail(err, ISA_ERR_NOSPACE, ${g.c_string(q.name)}, 0, "output buffer too small");
         isa_bits_zero(buf, pos, aligned - pos);
         pos = aligned;
      }
% endif
% for d in q.derives:
%   for ln in code.derive_lines(q, d):
      ${ln}
%   endfor
% endfor
   }
   /* what the decoder will read back must agree with what was written */
% for it in q.items:
%   for ln in code.presence_check_lines(q, it):
   ${ln}
%   endfor
% endfor
% if q.size is not None:
%   for ln in code.size_check_lines(q):
   ${ln}
%   endfor
% endif
   *bits = pos - start;
   return ISA_OK;
}

