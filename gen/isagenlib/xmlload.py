"""Stage 1 of the pipeline: read a spec file, check it against the schema.

One pass of expat reads the file into an lxml tree and records the
line:col of every start tag (lxml itself knows an element's line but not
its column); attribute positions are then found in the raw text of the tag.
libxml2 validates that tree against xml/isagen.rng.
Every later diagnostic can therefore point at the exact attribute.

When the schema rejects an element, libxml2 says little ("failed to
validate attributes"); `SchemaExplainer` reads the same .rng file and says
which attribute is unknown, missing or malformed, or which child is out of
place.
"""

import bisect
import os
import re
import xml.parsers.expat

from lxml import etree

from . import upgrade
from .diag import Loc

RNG_NS = "{http://relaxng.org/ns/structure/1.0}"
RNG_ANNOTATIONS_NS = "{http://relaxng.org/ns/compatibility/annotations/1.0}"
DEFAULT_SCHEMA = os.path.join(os.path.dirname(__file__), "..", "..", "xml", "isagen.rng")


class ValueLoc(Loc):
    """Where an attribute value (or element text) starts; shifted(n) is
    where its n-th parsed character is in the raw file, entities included."""

    def __new__(cls, doc, element, attr):
        start = doc.attr_loc(element, attr, 0) if attr else doc.text_loc(element, 0)
        self = Loc.__new__(cls)
        object.__setattr__(self, "file", start.file)
        object.__setattr__(self, "line", start.line)
        object.__setattr__(self, "col", start.col)
        object.__setattr__(self, "_where", (doc, element, attr))
        return self

    def __init__(self, *args):
        pass

    def shifted(self, chars):
        doc, element, attr = self._where
        return doc.attr_loc(element, attr, chars) if attr else doc.text_loc(element, chars)


class Document:
    """A parsed spec: the lxml tree plus source positions."""

    def __init__(self, path, display_path, text, root, positions):
        self.path = path
        self.display_path = display_path  # the name used in diagnostics
        self.text = text
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.root = root
        self._positions = positions  # element -> (line, col) of '<'
        self.overridden = {}  # (element, attribute) -> the <override> that set it
        self.derived_from = {}  # element an upgrade made -> the element it came from (upgrade.py)
        self.copied_from = {}  # element a format's extends= copied -> the original (formats.py)
        self.families = {}  # struct name -> the formats it extends, as written (formats.py; for isagen doc)
        self.formats = []   # the <format> elements expand() took out of the tree (formats.py)
        self.language = None  # the language version the file was written in

    def loc(self, element):
        element = self.copied_from.get(element, element)
        element = self.derived_from.get(element, element)
        line, col = self._positions.get(element, (getattr(element, "sourceline", 0) or 0, 1))
        return Loc(self.display_path, line, col)

    def attr_loc(self, element, attr, value_offset=None):
        """Location of attribute `attr` of `element`.  With value_offset, the
        location of that character inside the attribute's value.  A value
        an <override> set is located in the override."""
        if (element, attr) in self.overridden:
            return self.attr_loc(self.overridden[(element, attr)], "value", value_offset)
        if element in self.copied_from:
            return self.attr_loc(self.copied_from[element], attr, value_offset)
        if element in self.derived_from:
            return self.loc(element)
        line, col = self._positions.get(element, (element.sourceline or 0, 1))
        start = self._offset(line, col)
        if start is None:
            return Loc(self.display_path, line, col)
        # Scan the tag text from its '<' for  attr = "..."  (tags may span lines).
        end = self.text.find(">", start)
        m = re.compile(r"(?<![\w:.-])" + re.escape(attr) + r"\s*=\s*(['\"])").search(
            self.text, start, end if end >= 0 else len(self.text))
        if not m:
            return Loc(self.display_path, line, col)
        pos = m.start() if value_offset is None else _raw_offset(self.text, m.end(), value_offset, m.group(1))
        return self._loc_at(pos)

    def value_loc(self, element, attr=None):
        return ValueLoc(self, element, attr)

    def text_loc(self, element, offset=0):
        """Location of character `offset` of element's text content."""
        if element in self.copied_from:
            return self.text_loc(self.copied_from[element], offset)
        if element in self.derived_from:
            return self.loc(element)
        line, col = self._positions.get(element, (element.sourceline or 0, 1))
        start = self._offset(line, col)
        if start is None:
            return Loc(self.display_path, line, col)
        gt = self.text.find(">", start)
        return self._loc_at(_raw_offset(self.text, gt + 1, offset, "<"))

    def _offset(self, line, col):
        """Offset in the text of (line, col), or None when outside it."""
        if not 1 <= line <= len(self.line_starts):
            return None
        return self.line_starts[line - 1] + col - 1

    def _loc_at(self, pos):
        line = bisect.bisect_right(self.line_starts, pos)
        return Loc(self.display_path, line, pos - self.line_starts[line - 1] + 1)


def _raw_offset(text, start, parsed_offset, quote):
    """Offset in the raw text, from `start`, of character `parsed_offset` of
    an attribute value or a text: entity references (&lt; &#10; ...) take
    several raw characters for one parsed character."""
    i = start
    for _ in range(parsed_offset):
        if i >= len(text) or text[i] == quote:
            break
        if text[i] == "&":
            end = text.find(";", i)
            i = end + 1 if end > 0 else i + 1
        else:
            i += 1
    return i


def load(path, diags, schema_path=None, display_path=None, element_class=None):
    """Parse and schema-check `path`.  Returns a Document, or None when the
    file is not well-formed (the errors are in `diags`).  element_class:
    an lxml ElementBase subclass for the tree (tests watch what is read)."""
    display_path = display_path or path
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        diags.error(Loc(display_path, 0, 0), f"cannot read file: {e.strerror}")
        return None
    return load_bytes(data, path, diags, schema_path, display_path, element_class)


class _Doctype(Exception):
    """How _parse stops at a <!DOCTYPE>: at (line, col) of its start."""


def _parse(data, element_class=None):
    """One expat pass over the file: the lxml tree (elements, attributes in
    their order, text, tails, comments and processing instructions inside
    the root, each element's sourceline) and the (line, col) of every start
    tag.  A <!DOCTYPE> stops the pass before anything expands it: a DTD
    could declare entities that turn a small file into a huge one, or read
    other files, and a spec has no use for one.  Raises _Doctype, or
    expat's ExpatError for a file that is not well-formed."""
    lookup = etree.XMLParser()
    if element_class is not None:
        lookup.set_element_class_lookup(etree.ElementDefaultClassLookup(element=element_class))
    builder = etree.TreeBuilder(parser=lookup)
    parser = xml.parsers.expat.ParserCreate()
    parser.ordered_attributes = True
    positions = {}
    depth = [0]  # comments and processing instructions outside the root are not part of the spec

    def start(name, attrs):
        el = builder.start(name, dict(zip(attrs[::2], attrs[1::2])))
        el.sourceline = min(parser.CurrentLineNumber, 65535)  # lxml keeps 16 bits (positions, below, keep all)
        positions[el] = (parser.CurrentLineNumber, parser.CurrentColumnNumber + 1)
        depth[0] += 1

    def end(name):
        depth[0] -= 1
        builder.end(name)

    def comment(text):
        if depth[0]:
            builder.comment(text)

    def pi(target, text):
        if depth[0]:
            builder.pi(target, text)

    def doctype(*_):  # expat is past the DOCTYPE's name here: point at its start
        begin = data.rfind(b"<!DOCTYPE", 0, parser.CurrentByteIndex + 1)
        begin = begin if begin >= 0 else parser.CurrentByteIndex
        line = data.count(b"\n", 0, begin) + 1
        raise _Doctype(line, len(data[data.rfind(b"\n", 0, begin) + 1:begin].decode("utf-8", "replace")) + 1)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = lambda text: depth[0] and builder.data(text)
    parser.CommentHandler = comment
    parser.ProcessingInstructionHandler = pi
    parser.StartDoctypeDeclHandler = doctype
    parser.Parse(data, True)
    return builder.close(), positions


def load_bytes(data, path, diags, schema_path=None, display_path=None, element_class=None):
    display_path = display_path or path
    try:
        root, positions = _parse(data, element_class)
    except _Doctype as e:
        diags.error(Loc(display_path, *e.args), "a <!DOCTYPE> (a DTD, entities) is not allowed in a spec file")
        return None
    except xml.parsers.expat.ExpatError as e:
        # not well-formed: libxml2 (which validates the schema) words it best;
        # it reads the file only here, when expat has refused it
        line, col, msg = e.lineno, e.offset + 1, xml.parsers.expat.ErrorString(e.code)
        try:
            etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False))
        except etree.XMLSyntaxError as x:
            line, col = x.position if x.position else (line, col)
            msg = re.sub(r",? line \d+, column \d+$", "", " ".join((x.msg or msg).split()))  # one line
        diags.error(Loc(display_path, line, col), f"malformed XML: {msg}")
        return None
    text = data.decode("utf-8", errors="replace")
    doc = Document(path, display_path, text, root, positions)
    if upgrade.upgrade(doc, diags):
        validate_schema(doc, diags, schema_path)
    return doc


_SCHEMAS = {}


def _schema(schema_path):
    schema_path = os.path.normpath(schema_path or DEFAULT_SCHEMA)
    if schema_path not in _SCHEMAS:
        tree = etree.parse(schema_path)
        _SCHEMAS[schema_path] = (etree.RelaxNG(tree), SchemaExplainer(tree))
    return _SCHEMAS[schema_path]


NOT_OVERRIDABLE = ("name", "versions", "language")


def validate_overrides(doc, diags, explainer):
    """An <override> names an attribute its element may have, and gives it
    a value that attribute accepts."""
    ok = True
    for ov in doc.root.iter("override"):
        parent, attr, value = ov.getparent(), ov.get("attr"), ov.get("value")
        allowed = explainer.elements.get(parent.tag, {}).get("attrs", {})
        if attr in NOT_OVERRIDABLE or attr not in allowed:
            why = (f"'{attr}' cannot be overridden" if attr in NOT_OVERRIDABLE else
                   f"<{parent.tag}> has no attribute '{attr}' (allowed: {', '.join(sorted(a for a in allowed if a not in NOT_OVERRIDABLE))})")
            diags.error(doc.attr_loc(ov, "attr"), f"<override>: {why}")
            ok = False
            continue
        why = explainer._value_problem(allowed[attr][1], value)
        if why:
            diags.error(doc.attr_loc(ov, "value"), f"<override> of '{attr}' of <{parent.tag}>: value '{value}' {why}")
            ok = False
    return ok


# libxml2's RelaxNG validation takes time quadratic in the number of
# siblings (an enum of 100,000 values: 10 s), so a long run of same-tagged
# siblings is validated this many at a time.
CHUNK = 256


def _long_runs(root):
    """(parent, start, end) of every run of more than CHUNK consecutive
    element children of one tag (comments between them included)."""
    runs = []
    for parent in root.iter():
        if not isinstance(parent.tag, str) or len(parent) <= CHUNK:
            continue
        kids = list(parent)
        i = 0
        while i < len(kids):
            if not isinstance(kids[i].tag, str):
                i += 1
                continue
            j, count = i, 0
            while j < len(kids) and (not isinstance(kids[j].tag, str) or kids[j].tag == kids[i].tag):
                count += isinstance(kids[j].tag, str)
                j += 1
            if count > CHUNK:
                runs.append((parent, i, j))
            i = j
    return runs


def _valid(rng, root):
    """rng.validate of the document, in linear time: with every long run
    cut to its first CHUNK elements, and then each further CHUNK of each run
    in its place.  The tree is as it was afterwards."""
    runs = _long_runs(root)
    if not runs:
        return rng.validate(etree.ElementTree(root))
    saved = [(parent, list(parent)) for parent in {id(r[0]): r[0] for r in runs}.values()]
    chunks = []  # per run: the element lists it is cut into
    try:
        for parent, start, end in reversed(runs):  # later runs first: indexes stay right
            kids = parent[start:end]
            chunks.append((parent, start, [kids[k:k + CHUNK] for k in range(0, len(kids), CHUNK)]))
            del parent[start:end]
            for k, el in enumerate(chunks[-1][2][0]):
                parent.insert(start + k, el)
        if not rng.validate(etree.ElementTree(root)):
            return False
        for parent, start, parts in chunks:
            for prev, part in zip(parts, parts[1:]):
                for el in prev:
                    parent.remove(el)
                for k, el in enumerate(part):
                    parent.insert(start + k, el)
                if not rng.validate(etree.ElementTree(root)):
                    return False
            for el in parts[-1]:
                parent.remove(el)
            for k, el in enumerate(parts[0]):
                parent.insert(start + k, el)
        return True
    finally:
        for parent, kids in saved:
            parent[:] = kids


def validate_schema(doc, diags, schema_path=None):
    rng, explainer = _schema(schema_path)
    tree = etree.ElementTree(doc.root)
    if _valid(rng, doc.root):
        return validate_overrides(doc, diags, explainer)
    count_before = len(diags.items)
    # libxml2 stops at the first bad child of an element; the explainer
    # looks at every element, so one run reports every schema problem.
    skip = set()
    for element in doc.root.iter():
        if not isinstance(element.tag, str) or element in skip:
            continue
        if element.tag not in explainer.elements:
            skip.update(element.iterdescendants())  # one error for an unknown subtree
        for where, msg in explainer.explain(element):
            diags.error(where(doc), msg)
    if len(diags.items) > count_before:
        return False
    rng.validate(tree)  # the whole file at once, for libxml2's own messages
    reported = set()
    vague = []  # libxml2 messages we cannot place; said only if nothing else is
    for err in rng.error_log:
        element = None
        try:
            found = tree.xpath(err.path) if err.path else []
            element = found[0] if found else None
        except etree.XPathError:
            element = None
        if element is None:
            vague.append(err)
            continue
        if element in reported:
            continue
        reported.add(element)
        problems = explainer.explain(element)
        if not problems:
            # libxml2 reports a parent whose content failed; explain its children.
            for child in element:
                if isinstance(child.tag, str) and child not in reported:
                    sub = explainer.explain(child)
                    if sub:
                        reported.add(child)
                        for where, msg in sub:
                            diags.error(where(doc), msg)
            if any(isinstance(c.tag, str) and c in reported for c in element):
                continue
            diags.error(doc.loc(element), f"<{element.tag}>: {err.message.rstrip('.')} (schema)")
            continue
        for where, msg in problems:
            diags.error(where(doc), msg)
    if len(diags.items) == count_before:
        for err in vague:
            diags.error(Loc(doc.display_path, err.line, 0), f"schema: {err.message}")
    return False


class SchemaExplainer:
    """Reads the RelaxNG grammar into a per-element table of attributes and
    allowed children, to turn a schema failure into a precise message."""

    def __init__(self, tree):
        root = tree.getroot()
        self.defines = {d.get("name"): d for d in root.iter(RNG_NS + "define")}
        self.elements = {}
        for el in root.iter(RNG_NS + "element"):
            name = el.get("name")
            attrs, children, required = {}, set(), set()
            self._collect(el, attrs, children, required=True, seen=set(), required_children=required)
            info = self.elements.setdefault(name, {"attrs": {}, "children": set(), "required": set()})
            info["attrs"].update(attrs)
            info["children"] |= children
            info["required"] |= required

    def _collect(self, node, attrs, children, required, seen, required_children):
        for child in node:
            tag = child.tag
            if tag == RNG_NS + "attribute":
                name = child.get("name")
                if name is None:  # <anyName>: open-ended attributes
                    attrs["*"] = (False, child)
                else:
                    attrs[name] = (required, child)
            elif tag == RNG_NS + "element":
                children.add(child.get("name"))
                if required:
                    required_children.add(child.get("name"))
            elif tag == RNG_NS + "ref":
                ref = child.get("name")
                if ref in seen:
                    continue
                d = self.defines.get(ref)
                if d is not None:
                    self._collect(d, attrs, children, required, seen | {ref}, required_children)
            elif tag in (RNG_NS + "optional", RNG_NS + "zeroOrMore", RNG_NS + "choice"):
                self._collect(child, attrs, children, False, seen, required_children)
            elif tag in (RNG_NS + "oneOrMore", RNG_NS + "interleave", RNG_NS + "group"):
                self._collect(child, attrs, children, required, seen, required_children)

    def _value_problem(self, node, value):
        """Why `value` does not satisfy the attribute definition `node`.
        A pattern reached through a define with an <a:documentation> is
        explained in those words rather than as a regular expression."""
        choices, patterns, minlen = [], [], None

        def walk(n, seen, what):
            nonlocal minlen
            for c in n:
                if c.tag == RNG_NS + "value":
                    choices.append(c.text or "")
                elif c.tag == RNG_NS + "data":
                    for p in c.findall(RNG_NS + "param"):
                        if p.get("name") == "pattern":
                            patterns.append((p.text, what))
                        elif p.get("name") == "minLength":
                            minlen = int(p.text)
                elif c.tag == RNG_NS + "ref" and c.get("name") not in seen:
                    d = self.defines.get(c.get("name"))
                    if d is not None:
                        doc = d.find(RNG_ANNOTATIONS_NS + "documentation")
                        walk(d, seen | {c.get("name")}, doc.text.strip() if doc is not None else what)
                elif c.tag == RNG_NS + "choice":
                    walk(c, seen, what)

        walk(node, set(), None)
        if choices and value not in choices:
            return "must be one of " + ", ".join(f"'{c}'" for c in choices)
        for p, what in patterns:
            if not re.fullmatch(p, value):
                return f"is not {what}" if what else f"does not match the pattern {p}"
        if minlen is not None and len(value) < minlen:
            return "must not be empty"
        return None

    def explain(self, element):
        """A list of (location-function, message) for what is wrong with
        `element` itself (not its descendants)."""
        tag = element.tag
        info = self.elements.get(tag)
        out = []
        if info is None:
            parent = element.getparent()
            msg = (f"<{tag}> is not allowed inside <{parent.tag}>" if parent is not None
                   else f"unknown element <{tag}>")
            out.append((lambda d, e=element: d.loc(e), msg))
            return out
        allowed = info["attrs"]
        for name in element.attrib:
            if name not in allowed and "*" not in allowed:
                expected = ", ".join(sorted(allowed)) or "none"
                out.append((lambda d, e=element, a=name: d.attr_loc(e, a),
                            f"unknown attribute '{name}' on <{tag}> (allowed: {expected})"))
            else:
                why = self._value_problem(allowed.get(name, allowed.get("*"))[1], element.get(name))
                if why:
                    out.append((lambda d, e=element, a=name: d.attr_loc(e, a),
                                f"attribute '{name}' of <{tag}>: value '{element.get(name)}' {why}"))
        for name, (required, _node) in sorted(allowed.items()):
            if required and name != "*" and name not in element.attrib:
                out.append((lambda d, e=element: d.loc(e), f"<{tag}> needs attribute '{name}'"))
        for child in element:
            if isinstance(child.tag, str) and child.tag not in info["children"]:
                out.append((lambda d, e=child: d.loc(e), f"<{child.tag}> is not allowed inside <{tag}>"))
        present = {c.tag for c in element if isinstance(c.tag, str)}
        for name in sorted(info["required"] - present):
            out.append((lambda d, e=element: d.loc(e), f"<{tag}> needs a <{name}> element"))
        return out
