"""`isagen diff` output: text for a terminal, Markdown for a review comment,
JSON for tools.  Each shows the entries of diffgroup.py (one per fact, the
related changes folded below it), by class, breaking first; every entry
says where its element is in the old and the new file (file:line, links in
Markdown), and nothing is cut short."""

import json
import re

from .diff import CLASSES

HEADINGS = {"breaking": "Breaking", "compatible": "Compatible", "cosmetic": "Cosmetic", "doc": "Documentation only"}
MEANING = {
    "breaking": "some bit pattern decodes differently, or a value that packed no longer packs",
    "compatible": "new meaning where there was none",
    "cosmetic": "the bits mean the same; names, printed text or validator rules differ",
    "doc": "documentation and provenance",
}
TEMPLATES = ("display-changed", "display-added", "display-removed", "operand-changed")


def counts(items):
    return {c: sum(1 for x in items if x.cls == c) for c in CLASSES}


def summary_line(entries, changes):
    n = counts(entries)
    if not entries:
        return "no changes"
    return ", ".join(f"{n[c]} {c}" for c in CLASSES if n[c]) + f" ({len(changes)} change{'s' * (len(changes) != 1)} in all)"


def places(old_at, new_at):
    """'old FILE:LINE, new FILE:LINE' (the new file's name left out when the same)."""
    parts = []
    if old_at:
        parts.append(f"old {old_at}")
    if new_at:
        same = old_at and new_at.rsplit(":", 1)[0] == old_at.rsplit(":", 1)[0]
        parts.append(f"new {':' + new_at.rsplit(':', 1)[1] if same else new_at}")
    return ", ".join(parts)


def details(e):
    """The changes listed under an entry: all of them, but the one its
    headline already says."""
    if len(e.changes) == 1:
        return []
    return [c for c in e.changes if not (c is e.changes[0] and e.text.startswith(c.text))]


def text(old_name, new_name, entries, changes, corpus=None, link_base=None):
    out = [f"{old_name} -> {new_name}: {summary_line(entries, changes)}"]
    for cls in CLASSES:
        group = [e for e in entries if e.cls == cls]
        if not group:
            continue
        out.append("")
        out.append(f"{HEADINGS[cls]} ({len(group)}): {MEANING[cls]}")
        for e in group:
            out.append(f"  {e.where}: {e.text}")
            if e.old_at or e.new_at:
                out.append(f"    at {places(e.old_at, e.new_at)}")
            out += [f"    - {c.text}" for c in details(e)]
    if corpus is not None:
        out.append("")
        out += corpus_text(corpus)
    return "\n".join(out) + "\n"


def escape(s):
    return s.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")


def link(at, base):
    """A Markdown link to FILE:LINE: relative to the repository for a file
    as it is; for FILE@REV, under `base` (a URL naming a revision's tree,
    {rev} replaced by REV), or plain text without one."""
    if not at:
        return None
    path, line = at.rsplit(":", 1)
    m = re.fullmatch(r"(.*)@([^/@]+)", path)
    if m:
        if not base:
            return f"`{at}`"
        return f"[{at}]({base.replace('{rev}', m.group(2)).rstrip('/')}/{m.group(1)}#L{line})"
    return f"[{at}]({path}#L{line})"


def md_places(c, base):
    parts = []
    if c.old_at:
        parts.append("old " + link(c.old_at, base))
    if c.new_at:
        parts.append("new " + link(c.new_at, base))
    return f" ({', '.join(parts)})" if parts else ""


def template_diff(c):
    """A display or operand change as a diff block, whole."""
    lines = ["```diff"]
    for sign, t in (("-", c.old), ("+", c.new)):
        if t:
            lines += [f"{sign} {x}" for x in (t.split(" | ") if c.kind == "operand-changed" else [t])]
    return lines + ["```"]


def markdown(old_name, new_name, entries, changes, corpus=None, link_base=None):
    out = [f"### `{old_name}` → `{new_name}`", "", f"**{summary_line(entries, changes)}**"]
    for cls in CLASSES:
        group = [e for e in entries if e.cls == cls]
        if not group:
            continue
        out += ["", f"#### {HEADINGS[cls]} ({len(group)})", "", f"_{MEANING[cls]}_", ""]
        for e in group:
            out.append(f"- **`{e.where}`**: {escape(e.text)}{md_places(e, link_base)}")
            if details(e):
                out += ["  <details><summary>" + f"{len(e.changes)} changes</summary>", ""]
                for c in details(e):
                    out.append(f"  - {escape(c.text)}{md_places(c, link_base)}")
                    if c.kind in TEMPLATES:
                        out += ["", *("    " + x for x in template_diff(c)), ""]
                out += ["", "  </details>"]
            elif e.changes[0].kind in TEMPLATES:
                out += ["", *("  " + x for x in template_diff(e.changes[0])), ""]
    if corpus is not None:
        out += ["", "#### Corpus", ""]
        out += corpus_markdown(corpus)
    return "\n".join(out) + "\n"


def as_json(old_name, new_name, entries, changes, corpus=None, link_base=None):
    # entries name their changes by index into the flat list, which says
    # each change's entry back
    entry_of = {id(c): i for i, e in enumerate(entries) for c in e.changes}
    position = {id(c): i for i, c in enumerate(changes)}
    doc = {"old": old_name, "new": new_name, "summary": counts(entries),
           "entries": [dict(e.as_dict(), changes=[position[id(c)] for c in e.changes]) for e in entries],
           "changes": [dict(c.as_dict(), entry=entry_of.get(id(c))) for c in changes]}
    if corpus is not None:
        doc["corpus"] = corpus
    return json.dumps(doc, indent=1, sort_keys=False, ensure_ascii=False) + "\n"


def corpus_text(corpus):
    out = [f"Corpus: {corpus['programs']} programs, {len(corpus['changed'])} decode or print differently, "
           f"in {len(corpus['patterns'])} patterns"]
    for p in corpus["patterns"]:
        out.append(f"  {p['class']}: {p['count']} x {p['pattern']}")
        for e in p["examples"]:
            out.append(f"    {e['id']}: {e['old']} => {e['new']}")
    return out


def corpus_markdown(corpus):
    out = [f"{corpus['programs']} programs, **{len(corpus['changed'])}** decode or print differently, "
           f"in {len(corpus['patterns'])} patterns", ""]
    if corpus["patterns"]:
        out += ["| class | entries | change | e.g. before | after |", "|---|---|---|---|---|"]
        cell = lambda s: "`" + (s or "").replace("|", "\\|").replace("`", "'") + "`"
        for p in corpus["patterns"]:
            e = p["examples"][0]
            out.append(f"| {p['class']} | {p['count']} | {escape(p['pattern'])} | {cell(e['old'])} | "
                       f"{cell(e['new'])} |")
    return out


FORMATS = {"text": text, "markdown": markdown, "json": as_json}


def fails(classes, level):
    """Whether any of these change classes is `level` or worse (--fail-on)."""
    worst = CLASSES.index(level)
    return any(CLASSES.index(c) <= worst for c in classes)
