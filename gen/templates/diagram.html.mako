## Bit diagrams (htmldoc.Diagram), their style and the self-check the
## browser test reads: shared by the reference pages and the diff page.
## `esc` and BIT_PX come from the page that renders.
<%def name="style()">\
figure.diagram { margin: 8px 0; display: inline-block; }
table.bits { table-layout: fixed; font: 11px ui-monospace, monospace; }
table.bits td { width: ${BIT_PX}px; min-width: ${BIT_PX}px; max-width: ${BIT_PX}px; text-align: center; padding: 0; }
table.bits tr.num td { color: #888; font-size: 9px; height: 14px; }
table.bits td.c { border: 1px solid #555; height: 26px; overflow: hidden; white-space: nowrap; }
table.bits td.c.v { height: 90px; }
table.bits td.c.v .label { writing-mode: vertical-rl; transform: rotate(180deg); }
table.bits .label { display: inline-block; max-width: 100%; overflow: hidden; color: inherit; text-decoration: none; }
table.bits td.field { background: #e8f0fb; }
table.bits td.fixed { background: #eee; letter-spacing: ${BIT_PX - 7}px; }
table.bits td.reserved { background: repeating-linear-gradient(45deg, #fff, #fff 4px, #f1f1f1 4px, #f1f1f1 8px); color: #888; }
table.bits td.mbz, table.bits td.mbo { background: #f7eded; letter-spacing: ${BIT_PX - 7}px; }
table.bits td.free { background: #fff; color: #999; border-style: dashed; }
table.bits tr.long td.c { border-style: dotted; }
figcaption { font-size: 12px; color: #555; }
</%def>
<%def name="diagram(d, title)">\
<figure class="diagram" data-bits="${d.bits}">
% if title:
<figcaption class="dtitle">${esc(title)}</figcaption>
% endif
<table class="bits">
% for row in d.rows:
<tr class="num${' long' if row.long_only else ''}">\
% for b in range(row.lo + d.row_bits - 1, row.lo - 1, -1):
<td${'' if b <= row.hi else ' class="pad"'}>${b if b <= row.hi else ''}</td>\
% endfor
</tr>
<tr class="cells${' long' if row.long_only else ''}">\
% if row.hi < row.lo + d.row_bits - 1:
<td class="pad" colspan="${row.lo + d.row_bits - 1 - row.hi}"></td>\
% endif
% for c in row.cells:
<td class="c ${c.kind}${' v' if c.vertical else ''}" colspan="${c.span}" data-hi="${c.hi}" data-lo="${c.lo}" title="${esc(c.title)}">\
% if c.anchor:
<a class="label" href="#${c.anchor}">${esc(c.label)}</a>\
% else:
<span class="label">${esc(c.label)}</span>\
% endif
</td>\
% endfor
</tr>
% endfor
</table>
<figcaption>${esc(d.caption)}</figcaption>
</figure>
</%def>
<%def name="selftest()">\
// A self-check of the diagrams, read by tests/gen/test_doc.py from a headless browser:
// every diagram is laid out, cells run from the high bit to the low one, and every
// label stays inside its cell.
(function () {
  const problems = [];
  for (const fig of document.querySelectorAll("figure.diagram")) {
    const box = fig.getBoundingClientRect();
    if (box.width < 1 || box.height < 1) problems.push("empty diagram " + fig.closest("[id]").id);
    for (const row of fig.querySelectorAll("tr.cells")) {
      let x = -Infinity, hi = Infinity;
      for (const td of row.querySelectorAll("td.c")) {
        const r = td.getBoundingClientRect(), lo = +td.dataset.lo, top = +td.dataset.hi;
        if (r.left <= x || top >= hi) problems.push("cells out of order in " + fig.closest("[id]").id);
        x = r.left; hi = lo;
        const l = td.querySelector(".label").getBoundingClientRect();
        if (l.width > 0 && (l.left < r.left - 1 || l.right > r.right + 1 || l.top < r.top - 1 || l.bottom > r.bottom + 1))
          problems.push("label outside its cell in " + fig.closest("[id]").id + " bits " + td.dataset.lo + ".." + top);
      }
    }
  }
  document.body.dataset.selftest = problems.length ? "fail: " + problems.slice(0, 20).join("; ") : "ok";
})();
</%def>
