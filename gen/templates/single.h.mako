<%doc>
  Emits <prefix>.h in single-file form (isagen generate --single-header):
  the spec's header (spec.h.mako, with the core), the runtime's API
  (runtime/include/isagen/isagen.h and asm.h), and, where the includer defines
  <PREFIX>_IMPLEMENTATION, the runtime's code (runtime/src/*.c, once per
  translation unit) and the spec's (spec.c.mako).  A project vendors this
  one file and needs nothing but the C library.
</%doc>\
${header}

/* ---- the isagen runtime's API (a copy of runtime/include/isagen/isagen.h and asm.h) ---- */
${api}
/* ---- end of the runtime's API ---- */

/* Define ${PREFIX}_IMPLEMENTATION in one C file before including this
 * header: that file gets the printers, validators and tables of
 * ${spec_name}, and the runtime they need.  Single headers of several
 * specs share one runtime: define their _IMPLEMENTATION macros in the same
 * file. */
#if defined(${PREFIX}_IMPLEMENTATION) && !defined(${PREFIX}_IMPLEMENTED)
#define ${PREFIX}_IMPLEMENTED
#ifndef ISAGEN_RUNTIME_IMPLEMENTED
#define ISAGEN_RUNTIME_IMPLEMENTED
% for name, text in runtime:

/* ---- ${name} (a copy) ---- */
${text}
% endfor

/* ---- end of the runtime ---- */
#endif

${source}
#endif
