"""Language versions: older spec files read as today's.

The XML language has a version, `<isa language="N">`; a file without the
attribute is language 1 (the language before versions were declared).
When the language changes, a step here rewrites a file of the old version
into the new syntax, right after parsing and before the schema check, so
every later stage sees today's language.  This is what lets `isagen diff
xml/tgsi.xml@HEAD~10 xml/tgsi.xml` compare a file from before a language
change with today's (tests/gen/test_history.py walks the repository's
history), and what keeps a user's older spec working.

A step takes a file of its input version to the next one, and must be
harmless on a file already in the newer syntax that lacks the attribute
(every file written before the attribute existed).  Elements a step
creates take the source position of the element they came from.
"""

from lxml import etree

from . import expr as X
from .diag import Loc

CURRENT = 3


def replace_name(text, name, value):
    """`text` (an expression) with every whole-path use of the name `name`
    replaced by `value`: not a member after '.', not a call or an enum."""
    toks = X.tokenize(text)
    out, last = [], 0
    for i, t in enumerate(toks):
        if t.kind != "ident" or t.text != name:
            continue
        before = toks[i - 1].text if i else ""
        after = toks[i + 1].text if i + 1 < len(toks) else ""
        if before in (".", "::") or after in ("(", "::", "."):
            continue
        out += [text[last:t.pos], value]
        last = t.pos + len(t.text)
    return "".join(out) + text[last:]


def array_states_by_sets(doc):
    """Language 1 -> 2 (commit 7c928e0).  An array state gave every element
    a next value: `<state count="N" var="f" next="E">` made element f
    E (with f its index) after each unit.  Language 2 changes only the
    elements its `<set index= value= when=>`s name; the same meaning is one
    `<set index="k" value="E[f := k]"/>` per element, in index order."""
    for st in list(doc.root.iter("state")):
        var, nxt, count = st.get("var"), st.get("next"), st.get("count")
        if var is None or nxt is None or count is None:
            continue
        try:
            n = X.parse_int(count)
        except ValueError:
            continue  # the schema says what is wrong with the count
        for k in range(n):
            s = etree.SubElement(st, "set")
            s.set("index", str(k))
            s.set("value", replace_name(nxt, var, str(k)))
            doc.derived_from[s] = st
        del st.attrib["var"]
        del st.attrib["next"]


def hex_type_as_format(doc):
    """Language 2 -> 3: `type="hex"` was a second way to say a uint shown
    in hex; it is `type="uint" format="hex"`.  ({pad} left the template
    language in the same step: the parser still reads it in older files,
    template.parse(legacy_pad=True).)"""
    for el in doc.root.iter("field"):
        if el.get("type") == "hex":
            el.set("type", "uint")
            if el.get("format") is None:
                el.set("format", "hex")


STEPS = {1: array_states_by_sets, 2: hex_type_as_format}   # version -> the step to version + 1


def upgrade(doc, diags):
    """Bring a parsed document to the CURRENT language; False (and an error)
    when it is written for a language this isagen does not know."""
    text = doc.root.get("language")
    version = 1
    if text is not None:
        if not text.isdigit():
            return True  # the schema says what is wrong with it
        version = int(text)
        if not 1 <= version <= CURRENT:
            diags.error(doc.attr_loc(doc.root, "language") if doc.root is not None else Loc(doc.display_path),
                        f"written for isagen language {text}; this isagen reads languages 1 to {CURRENT}")
            return False
    doc.language = version
    while version < CURRENT:
        STEPS[version](doc)
        version += 1
    return True
