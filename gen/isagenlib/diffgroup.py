"""`isagen diff`: one fact, one entry.

diff.py finds every change, one per element and property; a reviewer needs
one entry per fact, with what follows from it folded below.  This module
turns the changes into entries:

1. Causes the Differ names itself (Change.group): the encodings that trade
   bit patterns (a split, a new encoding taking an old one's patterns, with
   the fixed bits that made it so), an encoding's new form (freed fixed bits,
   the field now in them, the length flag), fields cut another way over the
   same bits, and a rename with the displays that only follow it.
2. What was added for the sake of another change: an operand rule or a type
   new in this diff goes under the first changed element that uses it.
3. The same change in several places (a field retyped in every member of a
   family, the same new form in four encodings): one entry naming them all.
4. Like changes of one element (26 encodings added in unused space, 9 enum
   values added): one entry listing them.

An entry's class is the worst of its changes, so the counts per class count
facts and still say whether anything breaks.
"""

import re
from dataclasses import dataclass, field
from typing import List, Optional

from .diff import CLASSES

# the kinds a list entry (4.) is made of, and how it calls them
NOUNS = {"encoding-added": "encodings", "value-added": "values", "value-removed": "values",
         "value-moved": "values", "value-replaced": "values", "item-added": "items", "item-removed": "items",
         "field-added": "fields", "field-removed": "fields", "type-added": "types", "enum-added": "enums",
         "operand-added": "operand rules", "operand-removed": "operand rules", "rule-added": "validator rules",
         "rule-removed": "validator rules"}

HELPERS = ("operand-added", "type-added")   # what is added for the sake of another change (2.)
EXAMPLE = re.compile(r" \(e\.g\. [^()]*\)")


@dataclass
class Entry:
    cls: str
    kind: str
    where: str
    text: str
    old_at: Optional[str]
    new_at: Optional[str]
    changes: List[object] = field(default_factory=list)   # headline's change first when it is one

    def as_dict(self):
        return {"class": self.cls, "kind": self.kind, "where": self.where, "text": self.text,
                "old_at": self.old_at, "new_at": self.new_at}


def worst(changes):
    return min((c.cls for c in changes), key=CLASSES.index)


def element_path(where, choices):
    """A change's `where` as the path of names it is about, the choice an
    encoding is an alternative of left out: 'Instruction.fadd16' and
    'fadd16.L' are about fadd16, 'Header.PS.X' about field X of variant PS
    of Header, 'enum Op' about Op."""
    parts = where.split(" rule ")[0].removeprefix("enum ").removeprefix("operand ").split(".")
    return parts[1:] if parts[0] in choices and len(parts) > 1 else parts


def subject(c):
    """The element a change is about, by name (an encoding, a struct, an enum)."""
    head = c.where.split(" rule ")[0]
    if c.kind.startswith("encoding-") and "." in head:
        return head.split(".", 1)[1]
    return head.split(".")[0].removeprefix("enum ").removeprefix("operand ")


def owner(c):
    """What a change's element belongs to, as lists of like changes name it."""
    head = c.where.split(" rule ")[0]
    if " rule " in c.where:
        return head
    return head.rsplit(".", 1)[0] if "." in head else ""


def abstract(c):
    """A change's text with its element's name and examples taken out: the
    same text for the same change made to several elements."""
    name = subject(c)
    text = EXAMPLE.sub("", c.text)
    if name:
        text = re.sub(r"(?<![\w.])" + re.escape(name) + r"(?![\w])", "{}", text)
    return (c.cls, c.kind, text)


def users(spec, name):
    """Names of the elements of `spec` whose text uses operand or type `name`
    (displays, operand cases and rules call operands; fields hold types)."""
    from .model import Choice, Struct
    call = re.compile(r"\b" + re.escape(name) + r"\(")
    out = []
    for t in spec.types:
        if isinstance(t, Struct):
            texts = [d.text for d in t.displays] + [d.text for v in t.variants for d in v.displays]
            fields = [(t.name, m) for m in t.members] + [(f"{t.name}.{v.name}", m) for v in t.variants for m in v.members]
            if any(call.search(x or "") for x in texts):
                out.append(t.name)
            out += [f"{path}.{m.name}" for path, m in fields
                    if getattr(getattr(m, "type", None), "name", None) == name]
        elif isinstance(t, Choice):
            out += [f"{t.name}.{a.name}" for a in t.alts if a.type.name == name]
    for o in spec.operands:
        if o.name != name and any(call.search(c.display_text or "") for c in o.cases):
            out.append(f"operand {o.name}")
    return out


def entries(changes, heads=None, new_spec=None):
    """The report's entries, sorted by class, then element; `heads` names
    the Differ's own groups: key -> (kind, where, headline)."""
    heads = heads or {}
    groups = {}    # key -> [changes]
    order = []
    for i, c in enumerate(changes):
        key = c.group or f"#{i}"
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(c)
    # 2. a change that follows from another goes with it (reserved bits
    # given up for a new field), and so does an operand rule or type added
    # for another change
    home_of = {id(c): key for key in order for c in groups[key]}
    for key in list(order):
        cs = groups[key]
        if len(cs) == 1 and cs[0].cause is not None and home_of.get(id(cs[0].cause), key) != key:
            home = home_of[id(cs[0].cause)]
            groups[home].append(cs[0])
            home_of[id(cs[0])] = home
            order.remove(key)
            del groups[key]
    if new_spec is not None:
        by_where = {}   # element -> the group it goes to: the one changing its display if any
        for displays in (True, False):
            for key in order:
                for c in groups[key]:
                    if c.kind.startswith("display-") == displays:
                        by_where.setdefault(c.where, key)
                        if c.kind.startswith("encoding-") and "." in c.where:
                            by_where.setdefault(c.where.split(".", 1)[1], key)
                        if c.kind == "encoding-split":   # the encodings it was split into
                            for name in (c.new or "").split():
                                by_where.setdefault(name, key)
        moved = {}   # group key -> the group it went into
        for key in list(order):
            cs = groups[key]
            if len(cs) != 1 or cs[0].kind not in HELPERS:
                continue
            c = cs[0]
            name = c.item.split()[-1] if c.item else subject(c)
            seen = set()
            todo = users(new_spec, name)
            while todo:
                u = todo.pop(0)
                if u in seen:
                    continue
                seen.add(u)
                home = by_where.get(u)
                while home in moved:
                    home = moved[home]
                if home is None or home == key:
                    if u.startswith("operand "):   # an operand rule called by another: its users'
                        todo += users(new_spec, u.split()[-1])
                    continue
                groups[home].append(c)
                order.remove(key)
                del groups[key]
                moved[key] = home
                break
    # 4. like changes of one element, listed (an added encoding with the
    # operand rules added for it is still one of a list of added encodings)
    lists, rest = {}, []
    for key in order:
        cs = groups[key]
        head = headline(cs, heads)
        if head.kind in NOUNS and head.item and head.group not in heads and \
                all(c is head or c.kind in HELPERS or c.cause is not None for c in cs):
            lists.setdefault((head.cls, head.kind, owner(head), head.how), []).append(cs)
        else:
            rest.append(cs)
    out = []
    for (cls, kind, own, how), every in lists.items():
        if len(every) == 1:
            rest.append(every[0])
            continue
        of = f" of {own}" if own else ""
        heads_of = [headline(cs, heads) for cs in every]
        changes = [c for cs in every for c in cs]
        out.append(Entry(worst(changes), kind, own or heads_of[0].where, f"{len(every)} {NOUNS[kind]}{of} {how}: "
                         + ", ".join(h.item for h in heads_of), heads_of[0].old_at, heads_of[0].new_at, changes))
    # 3. the same change, or the same group of changes, made in several places
    # (alike when the cause is and what follows from it, but for the rules
    # and types added for it: a new encoding is one whatever it calls)
    merged, seen = [], {}
    for cs in rest:
        head = headline(cs, heads)
        sig = (abstract(head), tuple(sorted(abstract(c) for c in cs
                                            if c is not head and c.kind not in HELPERS and c.cause is None)))
        if sig in seen:
            merged[seen[sig]].append(cs)
        else:
            seen[sig] = len(merged)
            merged.append([cs])
    out += [entry(copies, heads) for copies in merged]
    order = {c: i for i, c in enumerate(CLASSES)}
    out.sort(key=lambda e: (order[e.cls], e.where, e.kind, e.text))
    return out


def entry(copies, heads):
    """One entry for a group of changes, made in one or several places."""
    every = [c for cs in copies for c in cs]
    head = headline(copies[0], heads)
    kind, where, text = heads.get(head.group, (head.kind, head.where, head.text))
    if len(copies) > 1:
        text += "; the same in " + ", ".join(subject(headline(cs, heads)) for cs in copies[1:])
    return Entry(worst(every), kind, where, text, head.old_at, head.new_at,
                 [head] + [c for c in every if c is not head])


RANK = ("doc-changed", "encoding-split", "encoding-merged", "encoding-added", "encoding-patterns-changed", "encoding-renamed",
        "field-renamed", "variant-patterns-changed", "fixed-bits-changed", "length-changed")


def headline(cs, heads):
    """The change a group is named by: its cause (the one at the element the
    Differ names the group by, when it does)."""
    named = heads.get(cs[0].group)
    # (of two encodings trading patterns, the one that gained them says why)
    return min(cs, key=lambda c: (named is None or c.where != named[1],
                                  RANK.index(c.kind) if c.kind in RANK else len(RANK),
                                  " now also decodes " not in c.text))
