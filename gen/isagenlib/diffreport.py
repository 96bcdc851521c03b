"""`isagen diff` output: text for a terminal, Markdown for a review comment,
JSON for tools.  Changes come sorted by class (breaking first); doc-only
changes are kept apart at the end."""

import json

from .diff import CLASSES

HEADINGS = {"breaking": "Breaking", "compatible": "Compatible", "cosmetic": "Cosmetic", "doc": "Documentation only"}
MEANING = {
    "breaking": "some bit pattern decodes differently, or a value that packed no longer packs",
    "compatible": "new meaning where there was none",
    "cosmetic": "the bits mean the same; names, printed text or validator rules differ",
    "doc": "documentation and provenance",
}


def counts(changes):
    return {c: sum(1 for x in changes if x.cls == c) for c in CLASSES}


def summary_line(changes):
    n = counts(changes)
    if not changes:
        return "no changes"
    return ", ".join(f"{n[c]} {c}" for c in CLASSES if n[c])


def text(old_name, new_name, changes, corpus=None):
    out = [f"{old_name} -> {new_name}: {summary_line(changes)}"]
    for cls in CLASSES:
        group = [c for c in changes if c.cls == cls]
        if not group:
            continue
        out.append("")
        out.append(f"{HEADINGS[cls]} ({len(group)}): {MEANING[cls]}")
        for c in group:
            out.append(f"  {c.where}: {c.text}")
    if corpus is not None:
        out.append("")
        out += corpus_text(corpus)
    return "\n".join(out) + "\n"


def escape(s):
    return s.replace("|", "\\|")


def markdown(old_name, new_name, changes, corpus=None):
    out = [f"### `{old_name}` → `{new_name}`", "", f"**{summary_line(changes)}**"]
    for cls in CLASSES:
        group = [c for c in changes if c.cls == cls]
        if not group:
            continue
        out += ["", f"#### {HEADINGS[cls]} ({len(group)})", "", f"_{MEANING[cls]}_", ""]
        for c in group:
            out.append(f"- `{c.where}`: {escape(c.text)}")
    if corpus is not None:
        out += ["", "#### Corpus", ""]
        out += corpus_markdown(corpus)
    return "\n".join(out) + "\n"


def as_json(old_name, new_name, changes, corpus=None):
    doc = {"old": old_name, "new": new_name, "summary": counts(changes),
           "changes": [c.as_dict() for c in changes]}
    if corpus is not None:
        doc["corpus"] = corpus
    return json.dumps(doc, indent=1, sort_keys=False) + "\n"


def corpus_text(corpus):
    out = [f"Corpus: {corpus['programs']} programs, {len(corpus['changed'])} decode or print differently"]
    for e in corpus["changed"]:
        out.append(f"  {e['id']} ({e['hex'][:32]}{'…' if len(e['hex']) > 32 else ''}): {e['class']}: "
                   f"{', '.join(e['what'])}")
        for side in ("old", "new"):
            first = (e[side]["text"] or e[side]["error"] or "").split("\n")
            out.append(f"    {side}: {first[0]}" + (" …" if len(first) > 1 else ""))
    return out


def corpus_markdown(corpus):
    out = [f"{corpus['programs']} programs, **{len(corpus['changed'])}** decode or print differently", ""]
    if corpus["changed"]:
        out += ["| entry | what | before | after |", "|---|---|---|---|"]
        cell = lambda s: "`" + (s or "").split("\n")[0].replace("|", "\\|").replace("`", "'") + "`"
        for e in corpus["changed"]:
            out.append(f"| {e['id']} | {', '.join(e['what'])} | {cell(e['old']['text'] or e['old']['error'])} | "
                       f"{cell(e['new']['text'] or e['new']['error'])} |")
    return out


FORMATS = {"text": text, "markdown": markdown, "json": as_json}


def fails(classes, level):
    """Whether any of these change classes is `level` or worse (--fail-on)."""
    worst = CLASSES.index(level)
    return any(CLASSES.index(c) <= worst for c in classes)
