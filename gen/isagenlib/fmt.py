"""`isagen fmt`: the canonical layout of a spec file.

Like Intel genxml's canonical sort, one layout keeps specs diffable and
ends arguments about style.  The formatter changes nothing a spec means
(the model of the formatted file is the model of the original; the test
suite checks this for every spec), only how it is written:

* two spaces of indentation per level; comments and single blank lines
  between elements are kept;
* attributes in one order: `name` first, then the order in which the
  schema declares them, `versions` and `src` last; a tag that would pass
  WIDTH characters puts one attribute per line;
* an expression attribute that still does not fit is broken at its
  spaces (XML reads a line break in an attribute as a space);
* a template is broken at its directives, nested blocks indented, where it
  does not fit on its line; never next to a space, which would then sit at
  the end or the start of a line (a line break and the indentation after
  it are dropped from templates, other spaces are text);
* an operand case's `display` and a rule's `message` are attributes when
  they fit on their line, else a `<display>` or `<message>` child;
* an element with one short childless child is one line (a family member
  and its opcode bits: a row of a table); an operand's plain `<param>`s
  share a line;
* `<doc>` text keeps its lines, re-indented; a single line that does not
  fit is wrapped;
* `&`, `<` and `"` are escaped, nothing else (`>` reads better raw).
"""

import copy
import os
import re
import textwrap

from lxml import etree

WIDTH = 160  # no line is longer where anything can be broken
PROSE = 110  # doc text that must be wrapped is wrapped here
RNG_NS = "{http://relaxng.org/ns/structure/1.0}"
EXPR_ATTRS = {"check", "when", "value", "args", "length", "present", "count", "size", "index", "stop", "next"}
TEMPLATE_ELEMENTS = {"display", "message"}
LONG_TEMPLATES = {"case": "display", "rule": "message"}  # element -> its template attribute
BLOCK_OPEN = ("if", "for", "list", "optional")
BLOCK_SEP = ("elif", "else", "item")


def attribute_orders(schema_path):
    """{element: [attribute names in the order the schema declares them]}."""
    tree = etree.parse(schema_path)
    defines = {d.get("name"): d for d in tree.iter(RNG_NS + "define")}
    orders = {}

    def walk(node, out, seen):
        for c in node:
            if not isinstance(c.tag, str):
                continue
            if c.tag == RNG_NS + "attribute":
                if c.get("name") and c.get("name") not in out:
                    out.append(c.get("name"))
            elif c.tag == RNG_NS + "ref":
                name = c.get("name")
                if name not in seen and name in defines:
                    walk(defines[name], out, seen | {name})
            elif c.tag != RNG_NS + "element":
                walk(c, out, seen)

    for el in tree.iter(RNG_NS + "element"):
        out = orders.setdefault(el.get("name"), [])
        walk(el, out, frozenset())
    return orders


def _esc_text(s):
    return s.replace("&", "&amp;").replace("<", "&lt;")


def _esc_attr(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;").replace("\n", "&#10;") \
        .replace("\t", "&#9;")


# ---------------------------------------------------------------- templates

def _tokens(text):
    """The raw template split into literal runs and {directives}; a line
    break and its indentation are dropped (they print nothing)."""
    text = re.sub(r"\n[ \t]*", "", text)
    out, i, lit = [], 0, []
    while i < len(text):
        if text.startswith("{{", i) or text.startswith("}}", i):
            lit.append(text[i:i + 2])
            i += 2
        elif text[i] == "{":
            end = text.find("}", i)
            if end < 0:
                lit.append(text[i:])
                break
            if lit:
                out.append(("text", "".join(lit)))
                lit = []
            out.append(("dir", text[i:end + 1]))
            i = end + 1
        elif text[i] == "\\":
            lit.append(text[i:i + 2])
            i += 2
        else:
            lit.append(text[i])
            i += 1
    if lit:
        out.append(("text", "".join(lit)))
    return out


def _word(tok):
    body = tok[1][1:-1].strip() if tok[0] == "dir" else ""
    return re.match(r"[a-z#]*", body).group(0)


def _tree(tokens):
    """Nest the tokens: a block is [opener, [segment, sep, segment...], end]."""
    root, stack = [], []
    cur = root
    for t in tokens:
        w = _word(t)
        if w in BLOCK_OPEN:
            block = {"open": t, "segments": [[]], "seps": [], "end": None}
            cur.append(block)
            stack.append((cur, block))
            cur = block["segments"][0]
        elif w in BLOCK_SEP and stack:
            block = stack[-1][1]
            if not block["seps"] and not cur and _word(block["open"]) == "list" and w == "item":
                block["seps"].append(t)  # {list}{item ...}: the first item right after the opener
                continue
            block["seps"].append(t)
            block["segments"].append([])
            cur = block["segments"][-1]
        elif w == "end" and stack:
            parent, block = stack.pop()
            block["end"] = t
            cur = parent
        else:
            cur.append(t)
    return root


def _flat(nodes):
    out = []
    for n in nodes:
        if isinstance(n, dict):
            out.append(n["open"][1])
            segs = n["segments"]
            seps = n["seps"]
            if len(seps) == len(segs):  # {list}{item}: separator first
                for sep, seg in zip(seps, segs):
                    out.append(sep[1] + _flat(seg))
            else:
                out.append(_flat(segs[0]))
                for sep, seg in zip(seps, segs[1:]):
                    out.append(sep[1] + _flat(seg))
            if n["end"] is not None:
                out.append(n["end"][1])
        else:
            out.append(n[1])
    return "".join(out)


def _first(n):
    return n["open"][1] if isinstance(n, dict) else n[1]


def _last(n):
    if isinstance(n, dict):
        return n["end"][1] if n["end"] is not None else _flat([n])
    return n[1]


def _breakable(a, b):
    """Whether a line may break between pieces whose texts are a and b: not
    next to a space, which would end or start a line (a line break and the
    indentation after it are dropped, so a space there would be lost or
    invisible)."""
    return bool(a) and bool(b) and not (a[-1].isspace() or b[0].isspace())


class _Lines:
    """Template lines being filled: a block that does not fit breaks after
    its opener, before each {elif}/{else}/{item} and before its {end};
    everything else fills lines up to the width."""

    def __init__(self, indent, width):
        self.width = width
        self.lines = []
        self.cur = " " * indent
        self.last = ""  # the text of the last piece written

    def newline(self, indent):
        if self.cur.strip():
            self.lines.append(self.cur)
            self.cur = " " * indent

    def put(self, text):
        self.cur += _esc_text(text)
        self.last = text

    def fits(self, text):
        return len(self.cur) + len(_esc_text(text)) <= self.width

    def nodes(self, nodes, indent):
        for i, n in enumerate(nodes):
            text = _flat([n])
            # what must follow on this line: the pieces up to the next place a line may break
            run = text
            for prev, nxt in zip(nodes[i:], nodes[i + 1:]):
                if _breakable(_last(prev), _first(nxt)):
                    break
                run += _first(nxt) if isinstance(nxt, dict) else _flat([nxt])  # a block may break inside
            if not self.fits(run) and _breakable(self.last, _first(n)):
                self.newline(indent)
            if isinstance(n, dict) and not self.fits(run):
                self.block(n, indent)
            else:
                self.put(text)

    def block(self, b, indent):
        self.put(b["open"][1])
        segs, seps = b["segments"], b["seps"]
        pairs = list(zip(seps, segs)) if len(seps) == len(segs) else [(None, segs[0])] + list(zip(seps, segs[1:]))
        fill = _word(b["open"]) == "list"  # list items flow; if/elif/else branches start lines
        for sep, seg in pairs:
            if sep is not None:
                if _breakable(self.last, sep[1]) and (not fill or not self.fits(sep[1] + _flat(seg))):
                    self.newline(indent)
                self.put(sep[1])
            if seg:
                if not self.fits(_flat(seg)) and _breakable(self.last, _first(seg[0])):
                    self.newline(indent + 2)
                self.nodes(seg, indent + 2)
        if b["end"] is not None:
            if _breakable(self.last, b["end"][1]) and (not fill or not self.fits(b["end"][1])):
                self.newline(indent)
            self.put(b["end"][1])


def template_lines(text, indent, width=WIDTH):
    """A template laid out over lines at `indent`, XML-escaped: the same
    template once the line breaks and indentation are dropped."""
    out = _Lines(indent, width)
    out.nodes(_tree(_tokens(text)), indent)
    out.newline(indent)
    return out.lines


def template_flat(text):
    return "".join(t[1] for t in _tokens(text))


# ---------------------------------------------------------------- elements

class Formatter:
    def __init__(self, schema_path):
        tail = ["versions", "src"]
        self.ranks = {}
        for el, order in attribute_orders(schema_path).items():
            order = ["name"] + [a for a in order if a not in tail + ["name"]] + tail
            self.ranks[el] = {a: i for i, a in enumerate(order)}

    def attrs(self, el):
        # attributes the schema does not name (enum properties) keep their order, after the others
        rank = self.ranks.get(el.tag, {})
        items = sorted(enumerate(el.attrib.items()), key=lambda ikv: (rank.get(ikv[1][0], len(rank)), ikv[0]))
        return [kv for _, kv in items]

    def open_tag(self, el, indent, close, attrs=None):
        """The start tag's lines (close: '>' or '/>')."""
        attrs = self.attrs(el) if attrs is None else attrs
        # spacing in an expression means nothing (and a broken one reads back with runs of spaces);
        # an <override>'s value may be any attribute's, text included
        expr = EXPR_ATTRS if el.tag != "override" else ()
        attrs = [(k, " ".join(v.split()) if k in expr else v) for k, v in attrs]
        parts = [f'{k}="{_esc_attr(v)}"' for k, v in attrs]
        one = " " * indent + "<" + el.tag + "".join(" " + p for p in parts) + close
        if len(one) <= WIDTH:
            return [one]
        lead = " " * (indent + len(el.tag) + 2)
        lines = []
        for i, (k, v) in enumerate(attrs):
            head = (" " * indent + "<" + el.tag + " ") if i == 0 else lead
            text = f'{k}="{_esc_attr(v)}"'
            if len(head) + len(text) > WIDTH and k in expr:
                lines += self.broken_attr(head, k, v)
            else:
                lines.append(head + text)
        lines[-1] += close
        return lines

    def broken_attr(self, head, k, v):
        """An expression attribute broken at its spaces (XML reads the line
        breaks as spaces)."""
        words = _esc_attr(v).split(" ")
        lines, cur = [], head + f'{k}="' + words[0]
        cont = " " * (len(head) + len(k) + 2)
        for w in words[1:]:
            if len(cur) + 1 + len(w) > WIDTH and cur.strip():
                lines.append(cur)
                cur = cont + w
            else:
                cur += " " + w
        lines.append(cur + '"')
        return lines

    def element(self, el, indent):
        if isinstance(el, etree._Comment):
            return self.comment(el, indent)
        if el.tag in LONG_TEMPLATES:
            el = self.long_template_form(el, indent)
        if el.tag == "doc" or el.tag == "source":
            return self.prose(el, indent)
        if el.tag in TEMPLATE_ELEMENTS:
            return self.template_element(el, indent)
        kids = [c for c in el if isinstance(c.tag, str) or isinstance(c, etree._Comment)]
        if not kids and not (el.text or "").strip():
            return self.open_tag(el, indent, "/>")
        if len(kids) == 1 and isinstance(kids[0].tag, str) and not len(kids[0]):
            # one short child: one line, as a row of a table (a family member with its opcode)
            head = self.open_tag(el, indent, ">")
            inner = self.element(kids[0], 0)
            one = head[0] + (inner[0] if len(inner) == 1 else "") + "</" + el.tag + ">"
            if len(head) == 1 and len(inner) == 1 and len(one) <= WIDTH:
                return [one]
        lines = self.open_tag(el, indent, ">")
        prev = None
        for c in kids:
            if prev is not None and _blank_before(c):
                lines.append("")
            one = self.element(c, indent + 2)
            # an operand's plain <param>s share a line, as a parameter list does
            if c.tag == "param" and prev is not None and prev.tag == "param" and len(c.attrib) == 1 and \
                    len(prev.attrib) == 1 and not len(c) and not len(prev) and len(lines[-1]) + len(one[0].strip()) <= WIDTH:
                lines[-1] += one[0].strip()
            else:
                lines += one
            prev = c
        lines.append(" " * indent + f"</{el.tag}>")
        return lines

    def comment(self, c, indent):
        text = c.text or ""
        if "\n" not in text:
            return [" " * indent + f"<!--{text}-->"]
        body = textwrap.dedent(text.strip("\n")).rstrip().split("\n")
        return [" " * indent + "<!--"] + [(" " * (indent + 2) + ln).rstrip() for ln in body] + [" " * indent + "-->"]

    def prose(self, el, indent):
        """<doc> and <source>: the text's lines, re-indented."""
        head = self.open_tag(el, indent, ">")
        raw = el.text or ""
        body = textwrap.dedent(raw.strip("\n")).strip()
        if "\n" not in body:
            one = head[-1] + _esc_text(body) + f"</{el.tag}>"
            if len(one) <= WIDTH and len(head) == 1:
                return [one]
            body = textwrap.fill(body, PROSE, break_long_words=False, break_on_hyphens=False)
        lines = head + [(" " * (indent + 2) + _esc_text(ln)).rstrip() for ln in body.split("\n")]
        return lines + [" " * indent + f"</{el.tag}>"]

    def template_element(self, el, indent):
        head = self.open_tag(el, indent, ">")
        text = el.text or ""
        flat = template_flat(text)
        one = head[-1] + _esc_text(flat) + f"</{el.tag}>"
        if len(head) == 1 and len(one) <= WIDTH:
            return [one]
        body = template_lines(flat, indent + 2)
        return head + body + [" " * indent + f"</{el.tag}>"]

    def long_template_form(self, el, indent):
        """A case's display and a rule's message: the attribute when the
        element's tag fits its lines, else a child element (a template that
        may span lines)."""
        what = LONG_TEMPLATES[el.tag]
        child = el.find(what)
        text = el.get(what) if child is None else template_flat(child.text or "")
        if text is None:
            return el
        rest = [c for c in el if c.tag != what]
        trial = etree.Element(el.tag, dict({k: v for k, v in el.attrib.items() if k != what}, **{what: text}))
        trial.tail = el.tail
        for c in rest:
            trial.append(_copy(c))
        if all(len(ln) <= WIDTH for ln in self.open_tag(trial, indent, ">")):
            return trial
        moved = etree.Element(el.tag, {k: v for k, v in el.attrib.items() if k != what})
        moved.tail = el.tail
        for c in rest:
            moved.append(_copy(c))
        etree.SubElement(moved, what).text = text
        return moved

    def document(self, path):
        parser = etree.XMLParser(remove_comments=False, resolve_entities=False, no_network=True)
        tree = etree.parse(path, parser)
        root = tree.getroot()
        with open(path, "rb") as f:
            head = f.read(200).decode("utf-8", "replace")
        lines = ['<?xml version="1.0" encoding="UTF-8"?>'] if head.startswith("<?xml") else []
        for c in reversed(list(root.itersiblings(preceding=True))):
            if isinstance(c, etree._Comment):
                lines += self.comment(c, 0)
        lines += self.element(root, 0)
        for c in root.itersiblings():
            if isinstance(c, etree._Comment):
                lines += self.comment(c, 0)
        return "\n".join(lines) + "\n"


def _copy(el):
    return copy.deepcopy(el)


def _blank_before(el):
    """Whether the source has a blank line before el."""
    prev = el.getprevious()
    ws = prev.tail if prev is not None else el.getparent().text
    return ws is not None and ws.count("\n") >= 2


def format_file(path, schema_path):
    return Formatter(schema_path).document(path)


def default_schema():
    return os.path.join(os.path.dirname(__file__), "..", "..", "xml", "isagen.rng")
