"""Declared-once layouts: `<format>` and `extends=`.

A `<format>` names a group of members (fields, fixed bits, reserved bits,
operand uses, lets, rules, a display) and a struct's shape (bits,
min-length, length-flag...), like QEMU decodetree's @format.  A struct (or
another format) with `extends="F"` holds F's members first, then its own
(with `extends="F G"`, F's, then G's applied to them as the struct's own
are below, then the struct's):

* an attribute the struct does not give is taken from F (its shape:
  bits, min-length, length-flag, length, overlay; and its sources, src);
* a member of the struct named like one of F's replaces it;
* bits of F's <reserved>, <mbz> and <mbo> that the struct's own members
  occupy are no longer reserved (a family member that gives meaning to
  unknown bits says so by declaring the field);
* F's displays are used unless the struct has its own, and so is F's
  <prefer>;
* the bit-holding members end up in bit order (the order of their first
  bits), so the C struct reads as the encoding does.

This runs on the XML tree after the version is selected and before the
model is built, so every later stage sees ordinary structs.  The copies
keep their source positions (Document.copied_from): a problem in an
inherited member is reported where the format declares it.
"""

import copy

from .build import PIECE_RE

INHERITED_ATTRS = ("bits", "min-length", "length-flag", "length", "overlay", "src")
RESERVED_TAGS = ("reserved", "mbz", "mbo")
OCCUPYING_TAGS = ("field", "fixed") + RESERVED_TAGS


def _bits(el):
    """The bit positions a member occupies (array elements follow each other)."""
    pieces = []
    for m in PIECE_RE.finditer(el.get("bits", "")):
        lo = int(m.group(1))
        pieces.append((lo, int(m.group(2)) if m.group(2) is not None else lo))
    width = sum(hi - lo + 1 for lo, hi in pieces)
    out = set()
    for k in range(min(int(el.get("count", "1") or 1), 4096)):
        for lo, hi in pieces:
            out.update(range(lo + k * width, hi + 1 + k * width))
    return out


def _ranges(bits):
    """'lo..hi lo..hi' text of a set of bit positions."""
    out, run = [], None
    for b in sorted(bits):
        if run and b == run[1] + 1:
            run[1] = b
        else:
            run = [b, b]
            out.append(run)
    return " ".join(str(lo) if lo == hi else f"{lo}..{hi}" for lo, hi in out)


def _first_bit(el):
    m = PIECE_RE.search(el.get("bits", "")) if el.tag in OCCUPYING_TAGS else None
    return int(m.group(1)) if m else 1 << 30


class Expander:
    def __init__(self, doc, diags):
        self.doc, self.diags = doc, diags
        self.formats = {}
        self.done = {}  # format name -> its expanded children (None while expanding: a cycle)
        self.stack = []  # the formats being expanded, outermost first

    def error(self, loc, msg):
        self.diags.error(loc, msg)

    def run(self):
        root = self.doc.root
        for f in root.findall("format"):
            name = f.get("name")
            if name in self.formats:
                self.error(self.doc.attr_loc(f, "name"), f"duplicate format '{name}' "
                                                         f"(the other is on line {self.doc.loc(self.formats[name]).line})")
                continue
            self.formats[name] = f
        members = {}  # format name -> the structs that extend it directly, in document order
        for s in root.findall("struct"):
            for name in (s.get("extends") or "").split():
                members.setdefault(name, []).append(s.get("name"))
        for s in root.findall("struct"):
            if s.get("extends") is not None:
                self.extend(s)
        self.family_alts(members)
        for f in list(root.findall("format")):
            self.members_of(f)  # reports problems of formats nothing extends
            root.remove(f)
            self.doc.formats.append(f)
        for s in root.iter("struct"):
            if s.get("bits") is None:
                self.error(self.doc.loc(s), f"struct '{s.get('name')}' has no bits= (nor a format it extends)")

    def family_alts(self, members):
        """<alt format="F"/>: an alternative for every struct that extends F,
        in document order (a family is one line of a choice)."""
        for ch in self.doc.root.findall("choice"):
            for alt in list(ch.findall("alt")):
                name = alt.get("format")
                if name is None:
                    continue
                if name not in self.formats:
                    known = ", ".join(sorted(self.formats)) or "none declared"
                    self.error(self.doc.attr_loc(alt, "format"), f"unknown format '{name}' (formats: {known})")
                elif not members.get(name):
                    self.error(self.doc.attr_loc(alt, "format"), f"no struct extends format '{name}'")
                for t in members.get(name, []):
                    one = self.copy(alt)
                    del one.attrib["format"]
                    one.set("type", t)
                    alt.addprevious(one)
                ch.remove(alt)

    def bases(self, el):
        """The formats el extends, in order (unknown ones reported)."""
        out = []
        for name in el.get("extends").split():
            f = self.formats.get(name)
            if f is None:
                known = ", ".join(sorted(self.formats)) or "none declared"
                self.error(self.doc.attr_loc(el, "extends"), f"unknown format '{name}' (formats: {known})")
            else:
                out.append(f)
        return out

    def inherited(self, el):
        """The attributes and members el's formats give, in order: a later
        format's members replace and carve an earlier one's as a struct's
        own members do."""
        attrs, children = {}, []
        for base in self.bases(el):
            a, c = self.members_of(base)
            attrs.update(a)
            children = self.merge(children, c)
        return attrs, children

    def members_of(self, f):
        """A format's attributes and children after its own extends=."""
        name = f.get("name")
        if name in self.done:
            if self.done[name] is None:
                path = self.stack[self.stack.index(name):] + [name]
                self.error(self.doc.attr_loc(f, "extends"), f"format '{name}' extends itself: {' -> '.join(path)}")
                return {}, []
            return self.done[name]
        self.done[name] = None
        self.stack.append(name)
        attrs, children = {}, []
        if f.get("extends") is not None:
            attrs, children = self.inherited(f)
        own = [c for c in f if isinstance(c.tag, str) and c.tag != "doc"]
        attrs = dict(attrs, **{a: f.get(a) for a in INHERITED_ATTRS if f.get(a) is not None})
        children = self.merge(children, own)
        self.stack.pop()
        self.done[name] = (attrs, children)
        return self.done[name]

    def merge(self, inherited, own):
        """Inherited members, then own ones; see the module's doc."""
        own_names = {c.get("name") for c in own if c.get("name") is not None and c.tag != "display"}
        taken = set()
        for c in own:
            if c.tag in OCCUPYING_TAGS:
                taken |= _bits(c)
        own_display = any(c.tag == "display" for c in own)
        own_prefer = any(c.tag == "prefer" for c in own)
        out = []
        for c in inherited:
            if c.get("name") is not None and c.get("name") in own_names and c.tag not in ("display", "rule"):
                continue
            if (c.tag == "display" and own_display) or (c.tag == "prefer" and own_prefer):
                continue
            if c.tag in RESERVED_TAGS and _bits(c) & taken:
                left = _bits(c) - taken
                if not left or c.get("count") is not None:
                    continue
                c = self.copy(c)
                c.set("bits", _ranges(left))
            out.append(c)
        return out + own

    def copy(self, el):
        dup = copy.deepcopy(el)
        for a, b in zip(el.iter(), dup.iter()):
            self.doc.copied_from[b] = self.doc.copied_from.get(a, a)
        return dup

    def extend(self, s):
        attrs, inherited = self.inherited(s)
        for a, v in attrs.items():
            if s.get(a) is None:
                s.set(a, v)
        own = [c for c in s if isinstance(c.tag, str) and c.tag not in ("doc", "override")]
        # members in bit order, wherever they were declared, so the C struct
        # reads as the encoding does; lets, rules and displays keep their order
        merged = sorted(self.merge(inherited, own), key=_first_bit)
        for c in own:
            s.remove(c)
        for c in merged:
            s.append(c if c in own else self.copy(c))
        self.doc.families[s.get("name")] = s.get("extends").split()
        del s.attrib["extends"]


def expand(doc, diags):
    """Replace every extends= by the members it stands for, and drop the
    <format>s."""
    Expander(doc, diags).run()

