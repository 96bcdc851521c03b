"""`isagen doc`: the spec as a browsable reference manual, one HTML page
per spec version.

This module turns a resolved model into a view of plain data (what each
section shows); gen/templates/reference.html.mako lays it out.  The page
needs nothing else: styles and the little script (a filter box, and a
self-check of the bit diagrams that tests/gen/test_doc.py reads back from a
headless browser) are inline, and every link is inside the page or to the
pages of the file's other versions.

A bit diagram draws a struct (or a variant, with the struct's common bits)
in rows of 16 or 32 bits, most significant bit first as a datasheet does.
Each cell is one piece of one member: a field's name (a piece of a split
field says which of the field's bits it holds, `D[7:6]`; an array element
its index), the digits of fixed bits, `?` for reserved bits, `0`/`1` for
must-be-zero/one bits.  Bits a variant decides are left blank in the
struct's own diagram.
"""

import html
import os
from dataclasses import dataclass, field as dc_field
from typing import List, Optional

from . import cubes as C
from . import expr as X
from . import template as T
from .model import Choice, Field, Sequence, Struct, Use

LABEL_PX = 7      # width of a label character, at the diagram's font size
BIT_PX = 24       # width of one bit's column
VERTICAL_CHARS = 12  # the longest label a vertical cell shows whole


@dataclass
class Cell:
    hi: int
    lo: int
    label: str
    kind: str          # field reserved mbz mbo fixed free
    title: str         # the whole story, for a hover
    anchor: Optional[str] = None   # the field's row in the table
    vertical: bool = False

    @property
    def span(self):
        return self.hi - self.lo + 1


@dataclass
class Row:
    hi: int
    lo: int
    cells: List[Cell]
    long_only: bool = False   # only in the long form of a variable-length encoding


@dataclass
class Diagram:
    bits: int
    row_bits: int
    rows: List[Row]
    caption: str


def anchor(*parts):
    """An element's id in the page: 'struct-fadd32', 'field-fadd32-L'."""
    return "-".join(str(p).replace(" ", "_").replace(".", "-") for p in parts)


def field_anchor(f):
    """The id of a field's row: under the struct, or the variant that has it."""
    o = f.owner
    where = f"{o.owner.name}.{o.name}" if getattr(o, "owner", None) is not None and hasattr(o, "fallback") else o.name
    return anchor("field", where, f.name)


def type_anchor(t):
    """The id of a type's section: 'struct-NAME', 'enum-NAME' or 'type-NAME'."""
    if t.kind == "enum":
        return anchor("enum", t.name)
    return anchor("struct" if isinstance(t.target, Struct) else "type", t.name)


def fits(label, span):
    return len(label) * LABEL_PX + 6 <= span * BIT_PX


def piece_labels(f):
    """[(element index, lo, width, label)] for every piece of every element."""
    out = []
    for i in range(f.count):
        pieces = f.element_pieces(i)
        off = 0
        for lo, w in pieces:
            label = f.name + (f"[{i}]" if f.count > 1 else "")
            if len(pieces) > 1:
                label += f"[{off + w - 1}:{off}]" if w > 1 else f"[{off}]"
            out.append((i, lo, w, label))
            off += w
    return out


def diagram(members, bits, owner_name, row_bits, min_length=None, length_flag=None, length_text=None,
            free_label=""):
    """The bit diagram of `members` over `bits` bits."""
    owner = {}   # bit -> (key, label, kind, title, anchor, digit)
    for f in members:
        if not isinstance(f, Field) or f.shared:
            continue
        for i, lo, w, label in piece_labels(f):
            key = (id(f), i, lo)
            title = (f"{f.name}" + (f"[{i}]" if f.count > 1 else "") + f": bits {lo}" + (f"..{lo + w - 1}" if w > 1 else "")
                     + (f", {f.type.name}" if f.role == "field" else f", {f.role}"))
            for k in range(w):
                b = lo + k
                digit = None
                if f.role == "fixed":
                    value_bit = sum(pw for plo, pw in f.element_pieces(i) if plo < lo) + k
                    digit = str((f.value >> value_bit) & 1)
                elif f.role in ("mbz", "mbo"):
                    digit = "0" if f.role == "mbz" else "1"
                elif f.role == "reserved":
                    digit = "?"
                owner[b] = (key, label, f.role, title, None if f.anonymous else field_anchor(f), digit)
    rows = []
    for r in range((bits + row_bits - 1) // row_bits):
        hi, lo = min(bits, (r + 1) * row_bits) - 1, r * row_bits
        cells, b = [], hi
        while b >= lo:
            key = owner.get(b, (None, free_label, "free", "", None, None))
            top = b
            while b - 1 >= lo and owner.get(b - 1, (None,))[0] == key[0] and (key[0] is not None or b - 1 not in owner):
                b -= 1
            _, label, kind, title, link, digit = key
            span = top - b + 1
            if kind in ("fixed", "mbz", "mbo"):
                label = "".join(owner[x][5] for x in range(top, b - 1, -1))
            elif kind == "reserved":
                label = "?" * span if span < 4 else label if not label.startswith("reserved_") else "reserved"
            cell = Cell(top, b, label, kind, title or f"bits {b}..{top}", link)
            if not fits(cell.label, span):
                cell.vertical = True
                if len(cell.label) > VERTICAL_CHARS:
                    cell.label = cell.label[:VERTICAL_CHARS - 1] + "…"
            cells.append(cell)
            b -= 1
        rows.append(Row(hi, lo, cells, long_only=bool(min_length) and lo >= min_length))
    if length_flag:
        caption = f"{min_length} bits when {length_flag} is clear, {bits} when it is set"
    elif length_text:
        caption = f"{bits} bits at most: the length is {length_text} (at least {min_length})"
    else:
        caption = f"{bits} bits"
    return Diagram(bits, row_bits, rows, caption)


def template_text(parts):
    """A template as the XML would write it; the mnemonic column a choice
    pads to ({pad N}...{end}) is left out: it is layout, not syntax."""
    import re
    text = T.text_of(parts) if parts is not None else ""
    return re.sub(r"^\{pad \d+\}(.*?)\{end\}", r"\1", text)


@dataclass
class FieldRow:
    name: str
    anchor: str
    role: str
    bits: str
    type: str
    type_link: Optional[str]
    default: str
    notes: str
    doc: str
    src: str


def field_rows(members, owner_name):
    out = []
    for f in members:
        if isinstance(f, Use):
            out.append(FieldRow(f.name, anchor("field", owner_name, f.name), "use", "", f"{f.operand_name}({f.args_text})",
                                "#" + anchor("operand", f.operand_name), "", "", f.doc, " ".join(f.src)))
            continue
        if not isinstance(f, Field) or (f.role == "fixed" and f.anonymous):
            continue
        link = "#" + type_anchor(f.type) if f.role == "field" and (f.type.kind == "enum" or f.type.aggregate) else None
        notes = []
        if f.role == "fixed":
            notes.append(f"fixed to {f.value:#x}" + (" (shared with a field)" if f.shared else ""))
        if f.role in ("reserved", "mbz", "mbo"):
            notes.append(f"{ {'reserved': 'non-zero', 'mbz': 'non-zero', 'mbo': 'not all ones'}[f.role]} is a "
                         f"{f.severity} finding")
        if f.expect is not None:
            notes.append(f"expected {f.expect} ({f.expect_severity} otherwise)")
        if f.format != "dec":
            notes.append(f"printed as {f.format}")
        if f.is_length_flag:
            notes.append("the length flag")
        out.append(FieldRow(f.name, field_anchor(f), f.role, f.describe_bits(),
                            f.type.name if f.role == "field" else "", link,
                            "" if f.default is None else str(f.default), "; ".join(notes), f.doc, " ".join(f.src)))
    return out


@dataclass
class RuleView:
    name: str
    text: str
    doc: str


def rule_views(rules):
    """Validator rules in words: 'warning unless CHECK (when COND): MESSAGE'."""
    out = []
    for r in rules:
        when = f" when {X.text_of(r.when)}" if r.when is not None else ""
        on = f" on {r.field}" if r.field else ""
        out.append(RuleView(r.name, f"{r.severity}{on} unless {X.text_of(r.check)}{when}: "
                                    f"{template_text(r.message)}", r.doc))
    return out


@dataclass
class Section:
    """One struct, sequence or choice of the page."""
    kind: str
    name: str
    anchor: str
    doc: str
    src: str
    family: str = ""
    diagrams: list = dc_field(default_factory=list)     # [(title, Diagram)]
    fields: list = dc_field(default_factory=list)       # [FieldRow]
    displays: list = dc_field(default_factory=list)     # [(when, text)]
    rules: list = dc_field(default_factory=list)        # [RuleView]
    variants: list = dc_field(default_factory=list)     # [Section]
    alts: list = dc_field(default_factory=list)         # choices: [dict]
    items: list = dc_field(default_factory=list)        # sequences: [dict]
    lets: list = dc_field(default_factory=list)         # [(name, value)]
    operands: list = dc_field(default_factory=list)     # local operand rules: [OperandView]
    changes: list = dc_field(default_factory=list)      # [(version, text)] from the other versions
    mnemonics: list = dc_field(default_factory=list)    # the words its displays start with
    evidence: Optional[dict] = None                     # corpus: {"count", "fields"}
    space: object = None                                # space.SpaceSet of this selector


@dataclass
class OperandView:
    name: str
    anchor: str
    params: str
    cases: list     # [(when, text, undefined)]
    rules: list
    lets: list
    doc: str
    used_by: list   # [(name, anchor)]


def operand_view(o, used_by):
    cases = []
    for c in o.cases:
        when = X.text_of(c.when) if c.when is not None else "otherwise"
        text = template_text(c.message) if c.undefined else template_text(c.display)
        cases.append((when, text, c.undefined))
    return OperandView(o.name, anchor("operand", o.name), ", ".join(o.params), cases, rule_views(o.rules),
                       [(lt.name, lt.value_text) for lt in o.lets], o.doc, used_by)


def alternatives(spec):
    """Names of the structs that are alternatives of a choice: encodings."""
    return {a.type.target.name for c in spec.types if isinstance(c, Choice) for a in c.alts
            if isinstance(a.type.target, Struct)}


def row_bits(spec):
    """A function giving a struct's diagram row width: 16 bits for the
    encodings of an instruction set with 2-byte units (AGX: some
    alternative's length is not a whole number of words), 32 for the rest."""
    encodings = alternatives(spec)
    short = any(spec.type_named(n).bits % 32 or (spec.type_named(n).min_length or 0) % 32 for n in encodings)
    return lambda s: 16 if short and s.name in encodings else 32


def struct_diagram(s, width, variant=None):
    """The diagram of struct s (of one of its variants, with the common bits
    and their own) in rows of `width` bits."""
    if variant is not None:
        return diagram(list(s.members) + list(variant.members), s.bits, f"{s.name}.{variant.name}", width)
    return diagram(s.members, s.bits, s.name, width, s.min_length if s.length_flag or s.length_text else None,
                   s.length_flag, s.length_text, free_label="variant" if s.variants else "")


def struct_section(s, width, families):
    sec = Section("struct", s.name, anchor("struct", s.name), s.doc, " ".join(s.src),
                  family=", ".join(families.get(s.name, [])))
    sec.diagrams.append(("", struct_diagram(s, width)))
    sec.fields = field_rows(s.members, s.name)
    sec.displays = [(d.when_text or "", template_text(d.parts)) for d in s.displays]
    sec.mnemonics = mnemonics(s.name, [text for _, text in sec.displays])
    sec.rules = rule_views(s.rules)
    sec.lets = [(lt.name, lt.value_text) for lt in s.lets] + prefer_view(s) + fill_view(s)
    for v in s.variants:
        vs = Section("variant", v.name, anchor("variant", s.name, v.name), v.doc, " ".join(v.src))
        chosen = [" && ".join(f"{m.field_path or 'bits'} == {m.value_text}" for m in group) for group in v.whens]
        vs.alts = [{"when": " || ".join(chosen) or ("otherwise" if v.fallback else "its fixed bits"),
                    "priority": v.priority}]
        vs.diagrams.append(("", struct_diagram(s, width, v)))
        vs.fields = field_rows(v.members, f"{s.name}.{v.name}")
        vs.displays = [(d.when_text or "", template_text(d.parts)) for d in v.displays]
        vs.rules = rule_views(v.rules)
        sec.variants.append(vs)
    return sec


def prefer_view(t):
    """A <prefer>, listed with the values: what isa as maximises."""
    return [("prefer (isa as takes the greatest)", t.prefer.value_text)] if t.prefer is not None else []


def fill_view(s):
    """<fill>s, listed with the values: what isa as writes into the bits
    the text leaves open."""
    return [(f"fill {fl.field} (isa as, bits the text leaves open)",
             fl.value_text + (f", when {fl.when_text}" if fl.when_text else "")) for fl in s.fills]


def mnemonics(name, displays):
    """The words a display starts with ('mov', 'device_load.TODO'): what a
    reader searches for."""
    import re
    out = []
    for text in displays:
        # the literal text before the first space outside braces, in every
        # branch of a leading {if} ({if s}isub{else}iadd{end})
        for tok in re.findall(r"\{[^{}]*\}|[^{}]+", text.replace("{$name}", name).lstrip()):
            if tok.startswith("{"):
                continue
            word = tok.split(" ")[0]
            if re.fullmatch(r"[A-Za-z_][\w.]*", word) and word not in out:
                out.append(word)
            if " " in tok:
                break
    return out


def choice_section(c):
    sec = Section("choice", c.name, anchor("type", c.name), c.doc, " ".join(c.src))
    for i, a in enumerate(c.alts):
        target = a.type.target
        sec.alts.append({"name": a.name, "link": "#" + anchor("struct", a.name) if isinstance(target, Struct)
                         else "#" + anchor("type", a.type.name), "order": i + 1, "priority": a.priority,
                         "bits": getattr(target, "bits", ""), "first": a.first, "shadowed": a.shadowed,
                         "when": " || ".join(" && ".join(f"{m.field_path or 'bits'} == {m.value_text}" for m in g)
                                             for g in a.whens),
                         "pattern": "; or ".join(C.describe(p) for p in a.patterns)})
    sec.rules = rule_views(c.rules)
    sec.lets = [(lt.name, lt.value_text) for lt in c.lets]
    return sec


def sequence_section(q):
    sec = Section("sequence", q.name, anchor("type", q.name), q.doc, " ".join(q.src))
    for it in q.items:
        sec.items.append({"name": it.name, "type": it.type.name, "link": "#" + type_anchor(it.type)
                          if it.type.aggregate or it.type.kind == "enum" else None, "present": it.present_text or "always",
            "count": it.count_text or "1", "max": it.max, "doc": it.doc})
    sec.displays = [(d.when_text or "", template_text(d.parts)) for d in q.displays]
    sec.rules = rule_views(q.rules)
    sec.lets = [(lt.name, lt.value_text) for lt in q.lets] + [(f"{d.field} (derived)", d.value_text) for d in q.derives] \
        + prefer_view(q) + fill_view(q)
    if q.size_text:
        sec.lets.append(("size", q.size_text))
    return sec


def uses_of(spec):
    """Operand name -> [(user name, anchor)]: what prints with it."""
    import re
    out = {}
    texts = []
    for t in spec.types:
        if isinstance(t, (Struct, Sequence)):
            texts.append((t.name, anchor("struct" if isinstance(t, Struct) else "type", t.name),
                          " ".join(d.text for d in t.displays) + " "
                          + " ".join(d.text for v in getattr(t, "variants", ()) for d in v.displays)
                          + " " + " ".join(u.operand_name + "(" for u in getattr(t, "uses", ()))))
    for o in spec.all_operands():
        texts.append((o.name, anchor("operand", o.name), " ".join(c.display_text or "" for c in o.cases)))
    for o in spec.all_operands():
        call = re.compile(r"\b" + re.escape(o.name) + r"\(")
        out[o.name] = [(n, a) for n, a, text in texts if n != o.name and call.search(text)]
    return out


def family_runs(names, families):
    """The family each of a choice's encodings is listed under: a format it
    extends that a neighbour extends too (a mixin of operand fields an
    unrelated neighbour also uses is not a family: the longest run wins),
    or '' for one listed alone."""
    out = [""] * len(names)
    i = 0
    while i < len(names):
        best, best_len = "", 1
        for f in families.get(names[i], []):
            n = 1
            while i + n < len(names) and f in families.get(names[i + n], []):
                n += 1
            if n > best_len:
                best, best_len = f, n
        for k in range(best_len):
            out[i + k] = best
        i += best_len
    return out


@dataclass
class Page:
    title: str
    spec: str
    file: str
    version: Optional[str]
    versions: list          # [(name, href, current)]
    doc: str
    sources: list           # [(id, url, text)]
    stream: Optional[dict]
    containers: list
    choices: list
    structs: list
    sequences: list
    enums: list
    operands: list
    spaces: list            # space.SpaceSet
    changes: list           # [(version, [entry text, where anchor])]
    contents: list          # [(group title, [(name, anchor)])]
    corpus: Optional[str]


def page_file(stem, version, default):
    """The page of one version: STEM.html for the default one."""
    return f"{stem}.html" if version in (None, default) else f"{stem}-{version}.html"


def build_page(spec, families, stem, default_version, changes=(), spaces=(), evidence=None, corpus_name=None):
    """The view of one version of a spec."""
    choice_structs = alternatives(spec)
    width = row_bits(spec)
    used = uses_of(spec)
    changed_where = {}
    for version, entries in changes:
        for text, where in entries:
            changed_where.setdefault(where, []).append((version, text))
    structs, choices, sequences = [], [], []
    for t in spec.types:
        if isinstance(t, Struct):
            sec = struct_section(t, width(t), families)
            sec.operands = [operand_view(o, used.get(o.name, [])) for o in t.operands]
            sec.changes = changed_where.get(t.name, [])
            if evidence is not None:
                sec.evidence = evidence.get(t.name, {"count": 0, "fields": {}})
            structs.append(sec)
        elif isinstance(t, Choice):
            sec = choice_section(t)
            sec.changes = changed_where.get(t.name, [])
            choices.append(sec)
        elif isinstance(t, Sequence):
            sec = sequence_section(t)
            sec.operands = [operand_view(o, used.get(o.name, [])) for o in t.operands]
            sec.changes = changed_where.get(t.name, [])
            sequences.append(sec)
    for sec in choices + structs:
        sec.space = next((s for s in spaces if s.name == sec.name), None)
    enums = []
    for e in spec.enums:
        enums.append({"name": e.name, "anchor": anchor("enum", e.name), "width": e.width, "doc": e.doc,
                      "src": " ".join(e.src), "props": [p.name for p in e.properties],
                      "values": [{"value": v.value, "name": v.name, "display": v.display if v.display != v.name else "",
                                  "doc": v.doc, "props": [v.props.get(p.name, p.default) for p in e.properties]}
                                 for v in e.values],
                      "changes": changed_where.get(f"enum {e.name}", []) + changed_where.get(e.name, [])})
    operands = [operand_view(o, used.get(o.name, [])) for o in spec.operands]
    stream = None
    if spec.stream is not None:
        st = spec.stream
        stream = {"unit": st.unit_name, "unit_link": "#" + anchor("struct" if isinstance(st.unit, Struct) else "type",
                                                                   st.unit_name),
                  "stop": st.stop_text, "count": st.count, "prefix": template_text(st.prefix),
                  "after_stop": " ".join("%02x" % b for b in st.after_stop),
                  "states": [{"name": s.name, "init": s.init, "next": s.next_text or "", "count": s.count,
                              "sets": [(x.index_text, x.value_text, x.when_text or "") for x in s.sets], "doc": s.doc}
                             for s in st.states],
                  "options": [{"name": o.name, "type": o.type_name, "default": o.default_text, "doc": o.doc}
                              for o in st.options],
                  "derives": [(d.field, d.value_text) for d in st.derives]}
    # contents: each choice's encodings in its order, under the family
    # (the <format> they extend) when consecutive ones share one
    contents = []
    for c in choices:
        names = [a["name"] for a in c.alts]
        fams = family_runs(names, families)
        contents.append((f"choice {c.name}", [(a["name"], a["link"][1:], f) for a, f in zip(c.alts, fams)]))
    others = [s for s in structs if s.name not in choice_structs]
    if others:
        contents.append(("structs", [(s.name, s.anchor, "") for s in others]))
    if sequences:
        contents.append(("sequences", [(s.name, s.anchor, "") for s in sequences]))
    if enums:
        contents.append(("enums", [(e["name"], e["anchor"], "") for e in enums]))
    if operands:
        contents.append(("operand rules", [(o.name, o.anchor, "") for o in operands]))
    versions = [(v, page_file(stem, v, default_version), v == spec.version) for v in spec.versions]
    return Page(spec.title or spec.name, spec.name, os.path.basename(spec.file or ""), spec.version, versions, spec.doc,
                [(s.id, s.url, s.text) for s in spec.sources], stream,
                [{"name": c.name, "magic": c.magic, "layout": c.layout, "chunks": c.chunks, "doc": c.doc}
                 for c in spec.containers],
                choices, structs, sequences, enums, operands, list(spaces),
                [(v, [(t, w) for t, w in es]) for v, es in changes], contents, corpus_name)


def render(template, **values):
    """A page from gen/templates: `reference.html.mako`, `diff.html.mako`
    (both lay out diagrams with diagram.html.mako, which reads esc and
    BIT_PX)."""
    from .cgen import template_lookup
    return template_lookup().get_template(template).render(esc=html.escape, anchor=anchor, BIT_PX=BIT_PX, **values)
