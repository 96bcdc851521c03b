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


LAYOUT_KINDS = ("fixed-bits-changed", "length-changed", "size-changed", "fields-recut", "reserved-changed",
                "overlay-changed")


def drawn_structs(e, old_spec, new_spec, renames):
    """[(old struct or variant, new one)] an entry's diagrams compare: the
    encodings whose layout its changes are about, old names followed."""
    from .diffgroup import element_path
    back = {v: k for k, v in renames.items()}
    choices = {t.name for spec in (old_spec, new_spec) for t in spec.types if t.kind == "choice"}
    out = []
    for c in e.changes:
        if not (c.kind in LAYOUT_KINDS or c.kind.startswith(("field-", "encoding-", "variant-"))):
            continue
        parts = element_path(c.where, choices)
        names = [parts[0]] + (c.new.split() if c.kind in ("encoding-split",) and c.new else [])
        for name in names:
            variant = parts[1] if len(parts) > 2 or c.kind.startswith("variant-") and len(parts) > 1 else None
            key = (back.get(name, name), name, variant)
            if key not in out:
                out.append(key)
    return out


def struct_diagram(spec, name, variant):
    """The diagram of struct `name` (of its variant, with the common bits)
    in `spec`, or None."""
    from . import htmldoc
    from .model import Struct
    s = spec.type_named(name)
    if not isinstance(s, Struct):
        return None
    v = next((v for v in s.variants if v.name == variant), None)
    d = htmldoc.struct_diagram(s, htmldoc.row_bits(spec)(s), v)
    for row in d.rows:
        for cell in row.cells:
            cell.anchor = None   # (no field tables on this page to link to)
    return d


def html_places(e, base):
    """'old FILE:LINE, new FILE:LINE' as links (the Markdown ones, in HTML)."""
    import html as H
    parts = []
    for side, at in (("old", e.old_at), ("new", e.new_at)):
        m = re.fullmatch(r"\[([^\]]*)\]\(([^)]*)\)", link(at, base) or "")
        if m:
            parts.append(f'{side} <a href="{H.escape(m.group(2))}">{H.escape(m.group(1))}</a>')
        elif at:
            parts.append(f"{side} {H.escape(at)}")
    return f"({', '.join(parts)})" if parts else ""


def as_html(old_name, new_name, entries, changes, corpus=None, link_base=None, old_spec=None, new_spec=None):
    """The report as a page: entries by class, each layout change with the
    old and new bit diagrams side by side."""
    from . import htmldoc
    renames = {c.old: c.new for c in changes if c.kind == "encoding-renamed"}
    views = []
    for i, e in enumerate(entries):
        pairs = []
        for old_struct, new_struct, variant in drawn_structs(e, old_spec, new_spec, renames):
            a, b = struct_diagram(old_spec, old_struct, variant), struct_diagram(new_spec, new_struct, variant)
            if a is not None or b is not None:
                suffix = f" ({variant})" if variant else ""
                pairs.append((old_struct + suffix, a, new_struct + suffix, b))
        views.append({"index": i, "entry": e, "details": details(e), "pairs": pairs,
                      "templates": [c for c in e.changes if c.kind in TEMPLATES],
                      "places": html_places(e, link_base)})
    classes = [(cls, HEADINGS[cls], MEANING[cls], [v for v in views if v["entry"].cls == cls]) for cls in CLASSES]
    classes = [c for c in classes if c[3]]
    return htmldoc.render("diff.html.mako", old_name=old_name, new_name=new_name,
                          summary=summary_line(entries, changes), classes=classes)


FORMATS = {"text": text, "markdown": markdown, "json": as_json, "html": as_html}


def fails(classes, level):
    """Whether any of these change classes is `level` or worse (--fail-on)."""
    worst = CLASSES.index(level)
    return any(CLASSES.index(c) <= worst for c in classes)
