## isagen diff --format html: the report of diffreport.py as a page, each
## entry about an encoding with its old and new bit diagrams side by side.
<%namespace name="bits" file="diagram.html.mako"/>
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="generator" content="isagen diff">
<title>${esc(old_name)} → ${esc(new_name)}</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 16px 24px 48px; color: #1b1b1b; }
h1 { font-size: 20px; } h2 { font-size: 17px; margin-top: 24px; }
code { font: 12px ui-monospace, monospace; }
.entry { border-top: 1px solid #ddd; padding: 6px 0 10px; }
.where { font-weight: 600; }
.at { color: #666; font-size: 12px; }
.details { margin: 4px 0 0 16px; font-size: 13px; }
.pair { display: flex; gap: 24px; align-items: flex-start; flex-wrap: wrap; margin: 6px 0; }
.side h4 { margin: 2px 0; font-size: 12px; color: #555; }
.none { color: #888; font-style: italic; padding: 12px; border: 1px dashed #bbb; }
pre.templates { background: #f6f6f4; padding: 6px; font-size: 12px; white-space: pre-wrap; }
${bits.style()}
</style>
</head>
<body>
<h1><code>${esc(old_name)}</code> → <code>${esc(new_name)}</code></h1>
<p><b>${esc(summary)}</b></p>
% for cls, heading, meaning, group in classes:
<h2 id="${cls}">${esc(heading)} (${len(group)})</h2>
<p><i>${esc(meaning)}</i></p>
% for v in group:
<div class="entry" id="entry-${v['index']}">
<div><span class="where"><code>${esc(v['entry'].where)}</code></span>: ${esc(v['entry'].text)} <span class="at">${v['places']}</span></div>
% if v['details']:
<ul class="details">
% for c in v['details']:
<li>${esc(c.text)}</li>
% endfor
</ul>
% endif
% for c in v['templates']:
<pre class="templates">- ${esc(c.old or '')}
+ ${esc(c.new or '')}</pre>
% endfor
% for title_old, d_old, title_new, d_new in v['pairs']:
<div class="pair">
<div class="side"><h4>before: ${esc(title_old or '')}</h4>
% if d_old is not None:
${bits.diagram(d_old, '')}
% else:
<div class="none">no such encoding</div>
% endif
</div>
<div class="side"><h4>after: ${esc(title_new or '')}</h4>
% if d_new is not None:
${bits.diagram(d_new, '')}
% else:
<div class="none">no such encoding</div>
% endif
</div>
</div>
% endfor
</div>
% endfor
% endfor
<script>
"use strict";
${bits.selftest()}
</script>
</body>
</html>
