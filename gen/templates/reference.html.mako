## The reference manual of one spec version (htmldoc.py builds `page`).
## Self-contained: inline style and script, no network resource.
<%namespace name="bits" file="diagram.html.mako"/>
<%def name="doc(text)">\
% if text:
<div class="doc">${esc(text)}</div>
% endif
</%def>
<%def name="fields(rows)">\
% if rows:
<table class="fields"><thead><tr><th>field</th><th>bits</th><th>type</th><th>default</th><th>notes</th><th>doc</th><th>sources</th></tr></thead><tbody>
% for f in rows:
<tr id="${f.anchor}" class="${f.role}"><td><code>${esc(f.name)}</code>${'' if f.role in ('field', 'use') else ' <span class="role">' + esc(f.role) + '</span>'}</td><td>${esc(f.bits)}</td>\
<td>${('<a href="' + f.type_link + '">' + esc(f.type) + '</a>') if f.type_link else esc(f.type)}</td><td>${esc(f.default)}</td><td>${esc(f.notes)}</td><td>${esc(f.doc)}</td><td>${esc(f.src)}</td></tr>
% endfor
</tbody></table>
% endif
</%def>
<%def name="printing(sec)">\
% if sec.displays:
<h4>Syntax</h4>
<ul class="displays">
% for when, text in sec.displays:
<li>${('<span class="when">when ' + esc(when) + ':</span> ') if when else ''}<code>${esc(text)}</code></li>
% endfor
</ul>
% endif
% if sec.lets:
<h4>Values</h4>
<ul class="lets">
% for name, value in sec.lets:
<li><code>${esc(name)} = ${esc(value)}</code></li>
% endfor
</ul>
% endif
% if sec.rules:
<h4>Checks</h4>
<ul class="rules">
% for r in sec.rules:
<li><code>${esc(r.name)}</code>: ${esc(r.text)}${(' <span class="doc">' + esc(r.doc) + '</span>') if r.doc else ''}</li>
% endfor
</ul>
% endif
</%def>
<%def name="operand(o)">\
<section class="operand" id="${o.anchor}" data-name="${esc(o.name)}">
<h3>operand <code>${esc(o.name)}(${esc(o.params)})</code></h3>
${doc(o.doc)}
<table class="cases"><thead><tr><th>when</th><th>prints</th></tr></thead><tbody>
% for when, text, undefined in o.cases:
<tr${' class="undefined"' if undefined else ''}><td><code>${esc(when)}</code></td><td>${('<span class="role">undefined:</span> ' + esc(text)) if undefined else '<code>' + esc(text) + '</code>'}</td></tr>
% endfor
</tbody></table>
% if o.rules:
<ul class="rules">
% for r in o.rules:
<li><code>${esc(r.name)}</code>: ${esc(r.text)}</li>
% endfor
</ul>
% endif
% if o.used_by:
<p class="used">Used by: ${', '.join('<a href="#' + a + '">' + esc(n) + '</a>' for n, a in o.used_by)}</p>
% else:
<p class="used">Used by nothing in this version.</p>
% endif
</section>
</%def>
<%def name="changes(sec)">\
% for version, text in sec.changes:
<p class="changed"><span class="badge">since ${esc(version)}</span> ${esc(text)}</p>
% endfor
</%def>
<%def name="space(s)">\
% if s is not None:
<div class="space">
<p>${'%.4g' % (100 * s.allocated)}% of the bit patterns decode as something${(' (key ' + esc(s.key_text) + ')') if s.key_text else ''}.</p>
% if s.unallocated:
<ul class="unallocated">
% for line in s.unallocated:
<li>${esc(line)}</li>
% endfor
</ul>
% endif
<% shadowed = [e for e in s.encodings if e.shadowed_by or e.never or e.corpus == 0] %>
% if shadowed:
<ul class="shadowed">
% for e in shadowed:
<li><code>${esc(e.name)}</code>: ${'never chosen' if e.never else ''}${('; ' if e.never and e.shadowed_by else '') + ('loses patterns to ' + ', '.join(e.shadowed_by) if e.shadowed_by else '')}${'; no corpus unit decodes as it' if e.corpus == 0 else ''}</li>
% endfor
</ul>
% endif
</div>
% endif
</%def>
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="isagen doc">
<title>${esc(page.title)}${(' (' + esc(page.version) + ')') if page.version else ''}: instruction set reference</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 0; color: #1b1b1b; background: #fff; }
header { padding: 12px 24px; border-bottom: 1px solid #ccc; background: #f6f6f4; }
header h1 { margin: 0 0 4px; font-size: 22px; }
.layout { display: flex; align-items: flex-start; }
nav#contents { position: sticky; top: 0; width: 250px; max-height: 100vh; overflow: auto; padding: 8px 12px; border-right: 1px solid #ddd; font-size: 13px; flex: none; }
nav#contents ul { list-style: none; margin: 0 0 8px; padding: 0 0 0 8px; }
nav#contents h3 { font-size: 13px; margin: 10px 0 2px; }
nav#contents li.member { padding-left: 10px; }
main { padding: 8px 24px 48px; min-width: 0; flex: 1; }
section { border-top: 1px solid #ddd; padding: 4px 0 12px; }
section.variant { border: none; margin-left: 16px; }
h2 { font-size: 18px; margin: 12px 0 4px; } h3 { font-size: 15px; margin: 10px 0 4px; } h4 { font-size: 13px; margin: 8px 0 2px; }
code { font: 12px ui-monospace, monospace; }
.doc { max-width: 60em; margin: 4px 0; white-space: pre-line; }
.family, .role { color: #666; font-size: 12px; }
.badge { background: #fde7b0; border-radius: 3px; padding: 0 4px; font-size: 12px; }
table { border-collapse: collapse; margin: 6px 0; }
table.fields td, table.fields th, table.cases td, table.cases th, table.values td, table.values th, table.alts td, table.alts th, table.items td, table.items th { border: 1px solid #ddd; padding: 2px 6px; vertical-align: top; text-align: left; }
tr.reserved, tr.mbz, tr.mbo, tr.fixed { color: #666; }
tr.undefined { background: #fff3f3; }
${bits.style()}
.space ul, .changes ul { margin: 2px 0; }
.hidden { display: none; }
#filter { width: 100%; box-sizing: border-box; margin-bottom: 6px; }
</style>
</head>
<body>
<header>
<h1>${esc(page.title)}${(' <span class="family">version ' + esc(page.version) + '</span>') if page.version else ''}</h1>
<div>From <code>${esc(page.file)}</code> by <code>isagen doc</code>.
% if len(page.versions) > 1:
Versions: ${' · '.join(('<b>' + esc(v) + '</b>') if cur else ('<a href="' + esc(href) + '">' + esc(v) + '</a>') for v, href, cur in page.versions)}.
% endif
% if page.corpus:
Corpus evidence from ${esc(page.corpus)}.
% endif
</div>
</header>
<div class="layout">
<nav id="contents">
<input id="filter" type="search" placeholder="filter by name" aria-label="filter by name">
% if page.stream:
<h3><a href="#stream">stream</a></h3>
% endif
% for title, links in page.contents:
<h3>${esc(title)}</h3>
<ul>
<% family = None %>
% for name, a, fam in links:
% if fam != family and fam:
<li class="family" data-name="${esc(fam)}">${esc(fam)}:</li>
% endif
<% family = fam %>
<li data-name="${esc(name)}"${' class="member"' if fam else ''}><a href="#${a}">${esc(name)}</a></li>
% endfor
</ul>
% endfor
% if page.spaces:
<h3><a href="#space">encoding space</a></h3>
% endif
% if page.changes:
<h3><a href="#changes">changes between versions</a></h3>
% endif
</nav>
<main>
${doc(page.doc)}
% if page.sources:
<h3>Sources</h3>
<ul class="sources">
% for sid, url, text in page.sources:
<li id="${anchor('source', sid)}"><b>${esc(sid)}</b>: ${esc(text)}${(' <code>' + esc(url) + '</code>') if url else ''}</li>
% endfor
</ul>
% endif
% if page.stream:
<% st = page.stream %>
<section id="stream"><h2>Programs</h2>
<p>A program is a series of <a href="${st['unit_link']}">${esc(st['unit'])}</a> units${(', ' + str(st['count'])) if st['count'] else ''}${(', until <code>' + esc(st['stop']) + '</code>') if st['stop'] else ''}.
% if st['prefix']:
Each unit's line starts with <code>${esc(st['prefix'])}</code>.
% endif
% if st['after_stop']:
After the unit that stops a program, the program encoder writes the bytes <code>${esc(st['after_stop'])}</code>, as the reference compiler does (no listing shows them).
% endif
</p>
% if st['states']:
<h4>Carried from unit to unit</h4>
<ul>
% for s in st['states']:
<li><code>$${esc(s['name'])}</code>${('[' + str(s['count']) + ']') if s['count'] > 1 else ('[]' if s['count'] == 0 else '')}: starts at ${s['init']}${(', then <code>' + esc(s['next']) + '</code>') if s['next'] else ''}${''.join('; element <code>' + esc(i) + '</code> becomes <code>' + esc(v) + '</code>' + ((' when <code>' + esc(w) + '</code>') if w else '') for i, v, w in s['sets'])}${(' <span class="doc">' + esc(s['doc']) + '</span>') if s['doc'] else ''}</li>
% endfor
</ul>
% endif
% if st['options']:
<h4>Chosen by the caller</h4>
<ul>
% for o in st['options']:
<li><code>$${esc(o['name'])}</code> (${esc(o['type'])}, default ${esc(o['default'])})${(' <span class="doc">' + esc(o['doc']) + '</span>') if o['doc'] else ''}</li>
% endfor
</ul>
% endif
% if st['derives']:
<h4>Computed by the program encoder</h4>
<ul>
% for f, v in st['derives']:
<li><code>${esc(f)} = ${esc(v)}</code></li>
% endfor
</ul>
% endif
</section>
% endif
% for c in page.containers:
<section id="${anchor('container', c['name'])}"><h2>container <code>${esc(c['name'])}</code></h2>
${doc(c['doc'])}
<p>Magic <code>${esc(c['magic'])}</code>, layout ${esc(c['layout'])}; chunks: ${', '.join(esc(str(i)) + ('' if not s else ' (skipped)') for i, s in c['chunks'])}.</p>
</section>
% endfor
% for c in page.choices:
<section class="choice" id="${c.anchor}" data-name="${esc(c.name)}"><h2>choice <code>${esc(c.name)}</code></h2>
${doc(c.doc)}
${changes(c)}
<table class="alts"><thead><tr><th>#</th><th>encoding</th><th>bits</th><th>chosen when</th><th>notes</th></tr></thead><tbody>
% for a in c.alts:
<tr><td>${a['order']}</td><td><a href="${a['link']}">${esc(a['name'])}</a></td><td>${a['bits']}</td><td><code>${esc(a['when'] or a['pattern'] or 'always')}</code></td><td>${'first unit; ' if a['first'] else ''}${'never chosen: earlier alternatives take all its patterns' if a['shadowed'] else ''}</td></tr>
% endfor
</tbody></table>
${printing(c)}
${space(c.space)}
</section>
% endfor
% for s in page.structs + page.sequences:
<section class="${s.kind} encoding" id="${s.anchor}" data-name="${esc(' '.join([s.name] + s.mnemonics))}" data-mnemonics="${esc(' '.join(s.mnemonics))}">
<h2>${s.kind} <code>${esc(s.name)}</code>${(' <span class="family">extends ' + esc(s.family) + '</span>') if s.family else ''}</h2>
${doc(s.doc)}
${changes(s)}
% for title, d in s.diagrams:
${bits.diagram(d, title)}
% endfor
${fields(s.fields)}
% if s.items:
<table class="items"><thead><tr><th>item</th><th>type</th><th>present</th><th>count</th><th>doc</th></tr></thead><tbody>
% for it in s.items:
<tr><td><code>${esc(it['name'])}</code></td><td>${('<a href="' + it['link'] + '">' + esc(it['type']) + '</a>') if it['link'] else esc(it['type'])}</td><td><code>${esc(it['present'])}</code></td><td><code>${esc(it['count'])}</code>${(' (at most ' + str(it['max']) + ')') if it['max'] else ''}</td><td>${esc(it['doc'])}</td></tr>
% endfor
</tbody></table>
% endif
${printing(s)}
% for v in s.variants:
<section class="variant" id="${v.anchor}" data-name="${esc(s.name + '.' + v.name)}">
<h3>variant <code>${esc(v.name)}</code>: when <code>${esc(v.alts[0]['when'])}</code></h3>
${doc(v.doc)}
% for title, d in v.diagrams:
${bits.diagram(d, title)}
% endfor
${fields(v.fields)}
${printing(v)}
</section>
% endfor
${space(s.space)}
% for o in s.operands:
${operand(o)}
% endfor
% if s.evidence is not None:
<div class="evidence">
% if s.evidence['count']:
<p>Corpus: ${s.evidence['count']} unit${'s decode' if s.evidence['count'] != 1 else ' decodes'} as it.
% if s.evidence['fields']:
Values seen: ${'; '.join('<code>' + esc(k) + '</code> ' + esc(', '.join(str(x) for x in v)) for k, v in s.evidence['fields'].items())}.
% endif
</p>
% else:
<p class="role">No corpus unit decodes as it: what this section says rests on the documents alone.</p>
% endif
</div>
% endif
</section>
% endfor
% for e in page.enums:
<section class="enum" id="${e['anchor']}" data-name="${esc(e['name'])}"><h2>enum <code>${esc(e['name'])}</code>${(' <span class="family">' + str(e['width']) + ' bits</span>') if e['width'] else ''}</h2>
${doc(e['doc'])}
% for version, text in e['changes']:
<p class="changed"><span class="badge">since ${esc(version)}</span> ${esc(text)}</p>
% endfor
<table class="values"><thead><tr><th>value</th><th>name</th><th>prints</th>${''.join('<th>' + esc(p) + '</th>' for p in e['props'])}<th>doc</th></tr></thead><tbody>
% for v in e['values']:
<tr id="${anchor('value', e['name'], v['name'])}"><td>${v['value']}</td><td><code>${esc(v['name'])}</code></td><td>${('<code>' + esc(v['display']) + '</code>') if v['display'] else ''}</td>${''.join('<td>' + str(p) + '</td>' for p in v['props'])}<td>${esc(v['doc'])}</td></tr>
% endfor
</tbody></table>
</section>
% endfor
% if page.operands:
<section id="operands"><h2>Operand rules</h2>
% for o in page.operands:
${operand(o)}
% endfor
</section>
% endif
% if page.spaces:
<section id="space"><h2>Encoding space</h2>
% for s in page.spaces:
<h3>${esc(s.kind)} <code>${esc(s.name)}</code></h3>
${space(s)}
% endfor
</section>
% endif
% if page.changes:
<section id="changes" class="changes"><h2>Changes between versions</h2>
% for version, entries in page.changes:
<h3>From ${esc(version)} to ${esc(page.version)}</h3>
<ul>
% for text, where in entries:
<li>${esc(text)}</li>
% endfor
</ul>
% endfor
</section>
% endif
</main>
</div>
<script>
"use strict";
// The filter box: show the sections and contents entries whose name holds the text.
document.getElementById("filter").addEventListener("input", function (ev) {
  const q = ev.target.value.toLowerCase();
  for (const el of document.querySelectorAll("[data-name]")) {
    el.classList.toggle("hidden", q !== "" && !el.dataset.name.toLowerCase().includes(q));
  }
});
${bits.selftest()}</script>
</body>
</html>
