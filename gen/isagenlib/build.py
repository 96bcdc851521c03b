"""Stage 2 of the pipeline: turn the schema-valid XML into model objects.

This stage parses the attribute mini-syntaxes (bit lists, integers,
expressions, templates), resolves every name (types, enums, operands,
sources) and reports duplicates.  Meaning is checked in check.py.
"""

import re
import textwrap

from . import expr as X
from . import template as T
from .diag import Diagnostics
from .model import (BUILTIN_TYPES, Alt, Case, Choice, Container, Derive, Display,
                    Enum, EnumValue, Field, Fill, Item, Let, Match, Operand, Prefer, Property,
                    Rule, Sequence, Source, Spec, State, StateSet, Stream, Struct, TypeRef, Use, Option,
                    Variant)

PIECE_RE = re.compile(r"(\d+)(?:\.\.(\d+))?")  # one piece of a bit list: lo or lo..hi

# What isagen handles, so that any input file either gets an error here or
# generates C that compiles and whose functions run in bounded time and
# stack (docs/design.md, "What lint guarantees").  A unit's bits live in a
# word array on the stack of its decoder, and counts become loop bounds and
# array sizes.
MAX_BITS = 1 << 16        # bits of a struct, and so every bit position
MAX_COUNT = 1 << 16       # elements of a field array, of an array state
INT_RANGE = (-(1 << 63), (1 << 64) - 1)  # any other number: a C 64-bit value
LIMITS = {  # attribute: (least, most, what the most is)
    "bits": (0, MAX_BITS, f"a unit of at most {MAX_BITS} bits"),
    "min-length": (0, MAX_BITS, f"a unit of at most {MAX_BITS} bits"),
    "count": (0, MAX_COUNT, f"at most {MAX_COUNT} elements"),
    "width": (0, 64, "at most 64 bits"),
    "frac": (0, 64, "at most 64 fraction bits"),
    "align": (1, MAX_BITS, f"at most {MAX_BITS}"),
    "max": (0, MAX_COUNT, f"at most {MAX_COUNT} elements"),
    "skip": (0, (1 << 32) - 1, "a 32-bit size"),
    "mnemonic-column": (0, 256, "at most 256"),
}


def doc_text(element):
    d = element.find("doc")
    if d is None or not d.text:
        return ""
    return textwrap.dedent(d.text.strip("\n")).strip()


# Names a <property> cannot have: <value>'s own attributes, which a
# property is set by.  (A property named like a function every enum gets,
# `put` say, is check/layout.py's function_names' clash.)
RESERVED_PROPERTIES = ("name", "value", "display", "src")

class Builder:
    def __init__(self, document, diags: Diagnostics):
        self.doc = document
        self.diags = diags
        self.source_ids = set()

    # -------------------------------------------------------------- helpers

    def loc(self, el):
        return self.doc.loc(el)

    def aloc(self, el, attr, offset=None):
        if offset == 0:
            return self.doc.value_loc(el, attr)
        return self.doc.attr_loc(el, attr, offset)

    def error(self, loc, msg):
        self.diags.error(loc, msg)

    def src(self, el):
        ids = (el.get("src") or "").split()
        for i in ids:
            if i not in self.source_ids:
                self.error(self.aloc(el, "src"), f"unknown source '{i}' (declare it with <source id=\"{i}\">)")
        return ids

    def pieces(self, el, attr="bits"):
        out = []
        for m in PIECE_RE.finditer(el.get(attr)):
            lo = int(m.group(1))
            hi = int(m.group(2)) if m.group(2) is not None else lo
            if max(lo, hi) >= MAX_BITS:
                self.error(self.aloc(el, attr, m.start()),
                           f"bit {max(lo, hi)} is past the largest unit isagen handles ({MAX_BITS} bits)")
                lo, hi = min(lo, MAX_BITS - 1), min(hi, MAX_BITS - 1)
            if hi < lo:
                self.error(self.aloc(el, attr, m.start()),
                           f"bit range {lo}..{hi} runs backwards (write the low bit first: {hi}..{lo})")
                lo, hi = hi, lo
            out.append((lo, hi - lo + 1))
        return out

    def integer(self, el, attr):
        """The number attribute `attr` holds (None if absent), within its
        limit: one out of it is reported, and the nearest bound returned so
        that the later checks still run."""
        text = el.get(attr)
        if text is None:
            return None
        v = X.parse_int(text)
        lo, hi, what = LIMITS.get(attr, INT_RANGE + ("a 64-bit value",))
        if not lo <= v <= hi:
            self.error(self.aloc(el, attr, 0), f"{attr}=\"{text}\" is out of range: isagen takes {what}"
                       + ("" if attr in LIMITS else f" ({lo}..{hi})"))
            v = max(lo, min(v, hi))
        return v

    def parse_expr(self, el, attr):
        text = el.get(attr)
        if text is None:
            return None, None
        loc = self.aloc(el, attr, 0)
        try:
            return X.parse(text), loc
        except X.ExprError as e:
            self.error(loc.shifted(e.pos), f"in {attr}=\"{text}\": {e.message}")
            return None, loc

    def parse_template(self, text, loc, what):
        try:
            return T.parse(text, legacy_pad=(self.doc.language or 1) < 3)
        except T.TemplateError as e:
            self.error(loc.shifted(e.pos), f"in {what}: {e.message}")
            return None

    # -------------------------------------------------------------- elements

    def build(self):
        root = self.doc.root
        spec = Spec(name=root.get("name"), title=root.get("title") or root.get("name"),
                    file=self.doc.display_path, doc=doc_text(root), src=[], loc=self.loc(root))
        for el in root.findall("source"):
            sid = el.get("id")
            if sid in self.source_ids:
                self.error(self.aloc(el, "id"), f"duplicate source id '{sid}'")
            self.source_ids.add(sid)
            spec.sources.append(Source(sid, el.get("url") or "", (el.text or "").strip(), self.loc(el)))
        spec.src = self.src(root)

        seen = {}

        def declare(kind, el, obj):
            name = el.get("name")
            if name in seen:
                self.error(self.aloc(el, "name"), f"duplicate name '{name}' (already a {seen[name][0]} at line {seen[name][1].line})")
                return False
            if name in BUILTIN_TYPES:
                self.error(self.aloc(el, "name"), f"'{name}' is a builtin type name")
                return False
            seen[name] = (kind, self.loc(el))
            return True

        for el in root:
            if not isinstance(el.tag, str):
                continue
            if el.tag == "container":
                chunks = [(c.get("id"), self.integer(c, "skip") or 0) for c in el.findall("chunk")]
                # a <chunk>'s sources are its container's
                src = self.src(el) + [i for c in el.findall("chunk") for i in self.src(c)]
                spec.containers.append(Container(el.get("name"), el.get("magic"), el.get("layout"), chunks,
                                                 doc_text(el), self.loc(el), src=src))
                continue
            if el.tag == "enum":
                e = self.enum(el)
                if declare("enum", el, e):
                    spec.enums.append(e)
            elif el.tag == "operand":
                o = self.operand(el)
                if declare("operand", el, o):
                    spec.operands.append(o)
            elif el.tag in ("struct", "sequence", "choice"):
                t = getattr(self, el.tag)(el)
                if declare(el.tag, el, t):
                    spec.types.append(t)
        st = root.find("stream")
        stop, stop_loc = self.parse_expr(st, "stop")
        spec.stream = Stream(st.get("unit"), self.integer(st, "count"), st.get("stop"),
                             self.loc(st), stop_loc, stop=stop, src=self.src(st))
        base = grown = 0
        for c in st.findall("state"):
            nxt, nloc = self.parse_expr(c, "next")
            count = self.integer(c, "count")
            sets = []
            for e in c.findall("set"):
                index, iloc = self.parse_expr(e, "index")
                value, vloc = self.parse_expr(e, "value")
                when, wloc = self.parse_expr(e, "when")
                sets.append(StateSet(e.get("index"), e.get("value"), e.get("when"), self.loc(e), iloc, vloc, wloc,
                                     index=index, value=value, when=when))
            if count is None:  # no count: a single state, or with <set>s an array that grows
                count = 0 if sets and c.get("next") is None else 1
            if count != 1 and (c.get("next") is not None or not sets):
                self.error(self.loc(c), "an array state (count > 1) changes by its <set> elements, not by next=")
            elif count == 1 and (c.get("next") is None or sets):
                self.error(self.loc(c), "a single state (no count) changes by next=, not by <set> elements")
            spec.stream.states.append(State(c.get("name"), self.integer(c, "init") or 0, c.get("next"), self.loc(c),
                                            nloc, doc_text(c), next=nxt, index=grown if count == 0 else base,
                                            count=count, sets=sets, src=self.src(c)))
            base += count
            grown += count == 0
        for k, c in enumerate(st.findall("option")):
            o = Option(c.get("name"), c.get("type"), c.get("default"), self.loc(c), doc_text(c), index=k,
                       src=self.src(c))
            o.enum = spec.enum_named(o.type_name)
            if o.enum is None:
                self.error(self.aloc(c, "type"), f"option '{o.name}': unknown enum '{o.type_name}' (an option's type is an enum)")
            else:
                ev = next((v for v in o.enum.values if v.name == o.default_text), None)
                if ev is None:
                    self.error(self.aloc(c, "default"), f"option '{o.name}': enum '{o.enum.name}' has no value '{o.default_text}'")
                else:
                    o.default = ev.value
            spec.stream.options.append(o)
        for c in st.findall("derive"):
            value, vloc = self.parse_expr(c, "value")
            spec.stream.derives.append(Derive(c.get("field"), c.get("value"), self.loc(c), self.aloc(c, "field", 0),
                                              vloc, doc_text(c), self.src(c), value=value))
        spec.stream.skip_zero = self.integer(st, "skip-zero") or 0
        spec.stream.skip_unit = self.integer(st, "skip-unit") or 0
        spec.stream.resync = self.integer(st, "resync") or 0
        spec.stream.pad_end = st.get("pad-end") == "true"
        if st.get("after-stop") is not None:
            # (the schema has checked the digits)
            spec.stream.after_stop = bytes.fromhex(st.get("after-stop").replace(" ", ""))
            if st.get("stop") is None:
                self.error(self.aloc(st, "after-stop"), "after-stop= needs stop= (it follows the unit that stops a program)")
            elif len(spec.stream.after_stop) > 255:
                self.error(self.aloc(st, "after-stop"), "after-stop= holds at most 255 bytes")
        if (spec.stream.skip_zero == 0) != (spec.stream.skip_unit == 0):
            self.error(self.loc(st), "skip-zero and skip-unit go together")
        for attr, bits in (("skip-zero", spec.stream.skip_zero), ("skip-unit", spec.stream.skip_unit),
                           ("resync", spec.stream.resync)):
            if bits % 8:
                self.error(self.aloc(st, attr), f"{attr} is a number of bits that makes whole bytes")
        if st.get("failed") is not None:
            floc = self.aloc(st, "failed", 0)
            parts = self.parse_template(st.get("failed"), floc, "failed") or []
            if any(not isinstance(p, T.Text) for p in parts):
                self.error(floc, "failed= is plain text (escapes allowed, no {...})")
            spec.stream.failed = "".join(p.text for p in parts if isinstance(p, T.Text))
            if not spec.stream.resync:
                self.error(floc, "failed= needs resync=")
        if st.get("separator") is not None:
            sloc = self.aloc(st, "separator", 0)
            parts = self.parse_template(st.get("separator"), sloc, "separator") or []
            if any(not isinstance(p, T.Text) for p in parts):
                self.error(sloc, "a separator is plain text (escapes allowed, no {...})")
            spec.stream.separator = "".join(p.text for p in parts if isinstance(p, T.Text))
        if st.get("prefix") is not None:
            ploc = self.aloc(st, "prefix", 0)
            spec.stream.prefix_text, spec.stream.prefix_loc = st.get("prefix"), ploc
            spec.stream.prefix = self.parse_template(st.get("prefix"), ploc, "prefix")
        self.spec = spec
        self.resolve(spec)
        return spec

    def enum(self, el):
        values, names, nums = [], {}, {}
        e = Enum(el.get("name"), self.integer(el, "width"), values, doc_text(el), self.src(el), self.loc(el))
        for p in el.findall("property"):
            if p.get("name") in RESERVED_PROPERTIES:
                self.error(self.aloc(p, "name"), f"property name '{p.get('name')}' of enum '{e.name}' is reserved "
                           f"(an attribute of <value>)")
                continue
            if e.property_named(p.get("name")):
                self.error(self.aloc(p, "name"), f"duplicate property '{p.get('name')}' of enum '{e.name}'")
                continue
            e.properties.append(Property(p.get("name"), self.integer(p, "default") or 0,
                                         self.integer(p, "unnamed") or 0, doc_text(p), self.loc(p), src=self.src(p)))
        for v in el.findall("value"):
            name, num = v.get("name"), self.integer(v, "value")
            if name in names:
                self.error(self.aloc(v, "name"), f"duplicate value name '{name}' in enum '{e.name}'")
                continue
            if num in nums:
                self.error(self.aloc(v, "value"), f"value {num} of enum '{e.name}' is already named '{nums[num]}'")
                continue
            if num < 0:
                self.error(self.aloc(v, "value"), f"enum values are unsigned; {num} is negative")
            names[name] = True
            nums[num] = name
            ev = EnumValue(name, num, v.get("display", name), doc_text(v), self.src(v), self.loc(v))
            for attr in v.attrib:
                if attr in ("name", "value", "display", "src", "versions"):
                    continue
                if e.property_named(attr) is None:
                    known = ", ".join(p.name for p in e.properties) or "none declared"
                    self.error(self.aloc(v, attr), f"'{attr}' is not a property of enum '{e.name}' (properties: {known})")
                    continue
                ev.props[attr] = self.integer(v, attr)
            values.append(ev)
        return e

    def field_like(self, el, owner):
        role = el.tag
        pieces = self.pieces(el)
        anonymous = el.get("name") is None
        lo = min(p[0] for p in pieces) if pieces else 0
        name = el.get("name") or f"{role}_{lo}"
        count = self.integer(el, "count") or 1
        if role == "field":
            tname = el.get("type")
            ftype = TypeRef(tname, tname if tname in BUILTIN_TYPES else "?")
            if tname in ("fixed", "sfixed"):
                ftype.frac = self.integer(el, "frac") or 0
                if el.get("frac") is None:
                    self.error(self.aloc(el, "type"), f"type '{tname}' needs a frac attribute (number of fraction bits)")
            elif el.get("frac") is not None:
                self.error(self.aloc(el, "frac"), "frac only applies to types 'fixed' and 'sfixed'")
        else:
            ftype = TypeRef("uint", "uint")
        f = Field(role=role, name=name, pieces=pieces, type=ftype, count=count,
                  anonymous=anonymous,
                  doc=doc_text(el), src=self.src(el), loc=self.loc(el), element=el, owner=owner)
        if role == "field":
            f.default = self.integer(el, "default")
            f.expect = self.integer(el, "expect")
            f.expect_severity = el.get("expect-severity", "warning")
            f.format = el.get("format", "dec")
        elif role == "fixed":
            f.value = self.integer(el, "value")
            f.format = "hex"
            f.shared = el.get("shared") == "true"
        else:
            f.severity = el.get("severity", "warning" if role == "reserved" else "error")
            f.format = "hex"
            if role == "reserved" and el.get("expect") is not None:
                # what producers write there: the value a finding compares with, and what init writes
                f.expect = f.default = self.integer(el, "expect")
        return f

    def use(self, el, owner):
        loc = self.aloc(el, "args", 0)
        try:
            args = X.parse_list(el.get("args"))
        except X.ExprError as e:
            self.error(loc.shifted(e.pos), f"in args=\"{el.get('args')}\": {e.message}")
            args = []
        u = Use(el.get("name"), el.get("operand"), el.get("args"), self.loc(el), loc,
                doc_text(el), self.src(el), args=args, owner=owner)
        return u

    def rule(self, el):
        check, check_loc = self.parse_expr(el, "check")
        when, when_loc = self.parse_expr(el, "when")
        text, mloc = self.long_template(el, "message")
        r = Rule(el.get("name"), el.get("check"), el.get("when"), el.get("severity", "error"),
                 el.get("field"), text, self.loc(el), check_loc, when_loc, mloc,
                 doc_text(el), self.src(el), element=el, check=check, when=when)
        r.message = self.parse_template(r.message_text, mloc, "message")
        return r

    def display(self, el, owner=None):
        text = el.text or ""
        tloc = self.doc.value_loc(el)
        when, when_loc = self.parse_expr(el, "when")
        d = Display(text, el.get("when"), self.loc(el), tloc, when_loc, self.src(el), when=when)
        d.parts = self.parse_template(text, tloc, "display")
        struct = owner if isinstance(owner, Struct) else getattr(owner, "owner", None)
        if isinstance(struct, Struct) and d.parts is not None:
            d.parts = T.name_constant(d.parts, struct.name)
        return d

    def let(self, el, owner):
        value, vloc = self.parse_expr(el, "value")
        return Let(el.get("name"), el.get("value"), self.loc(el), vloc, doc_text(el), self.src(el), value=value,
                   owner=owner)

    def prefer(self, el, owner):
        """<prefer value> (the schema allows one, in a struct or sequence)."""
        value, vloc = self.parse_expr(el, "value")
        owner.prefer = Prefer(el.get("value"), self.loc(el), vloc, doc_text(el), self.src(el), value=value)

    def fill(self, el):
        """<fill field value [when]> (the schema allows them in a struct or a sequence)."""
        value, vloc = self.parse_expr(el, "value")
        when, wloc = self.parse_expr(el, "when")
        return Fill(el.get("field"), el.get("value"), el.get("when"), self.loc(el), self.aloc(el, "field", 0), vloc,
                    wloc, doc_text(el), self.src(el), value=value, when=when)

    def members(self, el, owner):
        members, rules, displays = [], [], []
        owner.lets, owner.operands = [], []
        for c in el:
            if not isinstance(c.tag, str):
                continue
            if c.tag in ("field", "reserved", "mbz", "mbo", "fixed"):
                members.append(self.field_like(c, owner))
            elif c.tag == "use":
                members.append(self.use(c, owner))
            elif c.tag == "let":
                owner.lets.append(self.let(c, owner))
            elif c.tag == "operand":
                op = self.operand(c)
                op.owner = owner
                owner.operands.append(op)
            elif c.tag == "rule":
                rules.append(self.rule(c))
            elif c.tag == "display":
                displays.append(self.display(c, owner))
            elif c.tag == "prefer":
                self.prefer(c, owner)
            elif c.tag == "fill" and hasattr(owner, "fills"):  # (the schema allows none in a variant)
                owner.fills.append(self.fill(c))
        return members, rules, displays

    def whens(self, el):
        out = []
        for w in el.findall("when"):
            group = []
            when_src = self.src(w)  # a <when>'s sources are its matches'
            for m in w.findall("match"):
                pieces = self.pieces(m) if m.get("bits") is not None else None
                group.append(Match(m.get("field"), pieces, m.get("value"), self.loc(m),
                                   src=when_src + self.src(m)))
            out.append(group)
        return out

    def struct(self, el):
        s = Struct(el.get("name"), self.integer(el, "bits"), el.get("length"),
                   self.integer(el, "min-length"), [], [], [], [], doc_text(el), self.src(el), self.loc(el),
                   element=el)
        s.overlay = el.get("overlay") == "true"
        s.members, s.rules, s.displays = self.members(el, s)
        s.length, s.length_loc = self.parse_expr(el, "length")
        s.length_flag = el.get("length-flag")
        if s.length_flag is not None:
            if s.length is not None:
                self.error(self.aloc(el, "length-flag"), "length-flag gives the length; drop length=")
            else:
                # the length the flag implies, as if written by hand
                s.length_text = f"{s.length_flag} ? {s.bits} : {s.min_length or 0}"
                s.length = X.parse(s.length_text)
                s.length_loc = self.aloc(el, "length-flag", 0)
        names = {}
        for i, v in enumerate(el.findall("variant")):
            # every view of an overlay is listed under its own name
            named = v.get("path", "flat") == "named" or s.overlay
            var = Variant(v.get("name"), self.integer(v, "priority") or 0, v.get("fallback") == "true",
                          named, self.whens(v),
                          [], [], [], doc_text(v), self.src(v), self.loc(v), element=v, owner=s, index=i + 1)
            var.explicit_priority = v.get("priority") is not None
            var.members, var.rules, var.displays = self.members(v, var)
            if var.name in names:
                self.error(self.aloc(v, "name"), f"duplicate variant name '{var.name}' in struct '{s.name}'")
                continue
            names[var.name] = var
            s.variants.append(var)
        return s

    def sequence(self, el):
        items, derives, rules, displays = [], [], [], []
        seq = Sequence(el.get("name"), self.integer(el, "align") or 1, el.get("size"), items, derives,
                       rules, displays, doc_text(el), self.src(el), self.loc(el))
        seq.size, seq.size_loc = self.parse_expr(el, "size")
        names = set()
        for c in el:
            if not isinstance(c.tag, str):
                continue
            if c.tag == "item":
                it = Item(c.get("name"), TypeRef(c.get("type"), "?"), c.get("present"), c.get("count"),
                          self.integer(c, "max"), doc_text(c),
                          self.src(c), self.loc(c), element=c, owner=seq)
                it.present, it.present_loc = self.parse_expr(c, "present")
                it.count, it.count_loc = self.parse_expr(c, "count")
                it.padding = c.get("padding") == "true"
                if it.padding and it.count_text is None:
                    self.error(self.aloc(c, "padding"), "padding=\"true\" needs a count (how many filler elements)")
                if it.name in names:
                    self.error(self.aloc(c, "name"), f"duplicate item name '{it.name}' in sequence '{seq.name}'")
                    continue
                names.add(it.name)
                if it.count_text is not None and it.max is None:
                    self.error(self.aloc(c, "count"), "a counted item needs max (the most elements it can hold)")
                if it.max is not None and it.count_text is None:
                    self.error(self.aloc(c, "max"), "max only applies to counted items")
                items.append(it)
            elif c.tag == "let":
                seq.lets.append(self.let(c, seq))
            elif c.tag == "derive":
                value, vloc = self.parse_expr(c, "value")
                d = Derive(c.get("field"), c.get("value"), self.loc(c), self.aloc(c, "field", 0), vloc,
                           doc_text(c), self.src(c), value=value)
                derives.append(d)
            elif c.tag == "rule":
                rules.append(self.rule(c))
            elif c.tag == "display":
                displays.append(self.display(c))
            elif c.tag == "prefer":
                self.prefer(c, seq)
            elif c.tag == "fill":
                seq.fills.append(self.fill(c))
        return seq

    def choice(self, el):
        alts = []
        for i, a in enumerate(el.findall("alt")):
            alt = Alt(TypeRef(a.get("type"), "?"), self.integer(a, "priority") or 0, self.whens(a),
                      self.loc(a), doc_text(a), self.src(a), element=a, index=i + 1)
            alt.explicit_priority = a.get("priority") is not None
            alt.first = a.get("first") == "true"
            alt.shadowed = a.get("shadowed") == "true"
            alts.append(alt)
        ch = Choice(el.get("name"), alts, doc_text(el), self.src(el), self.loc(el),
                    rules=[self.rule(c) for c in el.findall("rule")])
        ch.ordered = el.get("ordered") == "true"
        ch.mnemonic_column = self.integer(el, "mnemonic-column")
        if ch.ordered:
            # first match wins: earlier alternatives rank higher
            for i, alt in enumerate(alts):
                if alt.explicit_priority:
                    self.error(self.aloc(alt.element, "priority"),
                               f"priority= on an alternative of ordered choice '{ch.name}': its position says it")
                alt.priority = len(alts) - i
        ch.lets = [self.let(c, ch) for c in el.findall("let")]
        return ch

    def operand(self, el):
        params, types, locs, param_src = [], {}, {}, []
        for p in el.findall("param"):
            param_src += self.src(p)  # a <param>'s sources are its operand's
            if p.get("name") in params:
                self.error(self.aloc(p, "name"), f"duplicate parameter '{p.get('name')}'")
            params.append(p.get("name"))
            if p.get("type") is not None:
                types[p.get("name")] = p.get("type")
                locs[p.get("name")] = self.aloc(p, "type")
        cases = []
        for c in el.findall("case"):
            when, wloc = self.parse_expr(c, "when")
            text, dloc = self.long_template(c, "display")
            mloc = self.aloc(c, "message", 0) if c.get("message") is not None else None
            case = Case(c.get("when"), text, c.get("undefined") == "true", c.get("message"),
                        self.loc(c), wloc, dloc, mloc, doc_text(c), self.src(c), when=when)
            case.display = self.parse_template(case.display_text, dloc, "display")
            if case.message_text is not None:
                case.message = self.parse_template(case.message_text, mloc, "message")
            cases.append(case)
        o = Operand(el.get("name"), params, cases, doc_text(el), self.src(el) + param_src, self.loc(el),
                    param_types=types, param_locs=locs)
        o.lets = [self.let(c, o) for c in el.findall("let")]
        o.rules = [self.rule(c) for c in el.findall("rule")]
        return o

    def long_template(self, el, what):
        """A case's display and a rule's message: the attribute, or, when
        that would not fit on a line, the text of a child element of the
        same name (which may span lines).  (text, its location)"""
        child = el.find(what)
        if child is not None and el.get(what) is not None:
            self.error(self.aloc(el, what), f"a {el.tag} has {what}= or a <{what}> child, not both")
        if child is not None:
            return child.text or "", self.doc.value_loc(child)
        if el.get(what) is None:
            self.error(self.loc(el), f"a {el.tag} needs {what}= or a <{what}> child")
            return "", self.loc(el)
        return el.get(what), self.aloc(el, what, 0)

    # -------------------------------------------------------------- names

    def resolve_type(self, tref, el, attr, allow_aggregate=True, allow_scalar=True):
        spec = self.spec
        if tref.kind in BUILTIN_TYPES:
            if not allow_scalar:
                self.error(self.aloc(el, attr), f"'{tref.name}' is not a struct, sequence or choice")
            return
        e = self.enums_by_name.get(tref.name)
        if e is not None and allow_scalar:
            tref.kind, tref.enum = "enum", e
            return
        t = self.types_by_name.get(tref.name)
        if t is not None and allow_aggregate:
            tref.kind, tref.target = t.kind, t
            return
        what = "type" if allow_scalar else "struct, sequence or choice"
        self.error(self.aloc(el, attr), f"unknown {what} '{tref.name}'")

    def resolve(self, spec):
        ops = {o.name: o for o in spec.operands}
        # name -> the first declared of that name (duplicates were reported), found per reference in O(1)
        self.types_by_name, self.enums_by_name = {}, {}
        for t in spec.types:
            self.types_by_name.setdefault(t.name, t)
        for e in spec.enums:
            self.enums_by_name.setdefault(e.name, e)
        for t in spec.types:
            if isinstance(t, Struct):
                for m in t.members + [m for v in t.variants for m in v.members]:
                    if isinstance(m, Field) and m.role == "field":
                        # a field may hold a struct, not a sequence or choice
                        self.resolve_type(m.type, m.element, "type")
                        if m.type.kind in ("sequence", "choice"):
                            self.error(self.aloc(m.element, "type"),
                                       f"field '{m.name}' cannot hold {m.type.kind} '{m.type.name}': fields have fixed positions (use a <sequence> item)")
                    elif isinstance(m, Use):
                        local = {o.name: o for o in t.operands}
                        local.update({o.name: o for v in t.variants for o in v.operands if m.owner is v})
                        m.operand = local.get(m.operand_name) or ops.get(m.operand_name)
                        if m.operand is None:
                            self.error(m.loc, f"unknown operand '{m.operand_name}'")
                        elif len(m.args) != len(m.operand.params):
                            self.error(m.args_loc, f"operand '{m.operand_name}' takes {len(m.operand.params)} argument(s) ({', '.join(m.operand.params)}), not {len(m.args)}")
            elif isinstance(t, Sequence):
                for it in t.items:
                    self.resolve_type(it.type, it.element, "type", allow_scalar=False)
            elif isinstance(t, Choice):
                for a in t.alts:
                    self.resolve_type(a.type, a.element, "type", allow_scalar=False)
        self.mnemonic_columns(spec)
        st = spec.stream
        st.unit = spec.type_named(st.unit_name)
        if st.unit is None:
            self.error(self.doc.attr_loc(self.doc.root.find("stream"), "unit"),
                       f"unknown struct, sequence or choice '{st.unit_name}'")

    def mnemonic_columns(self, spec):
        """A choice's mnemonic-column pads the first word of every display
        of its alternatives' structs (and their variants)."""
        padded = {}
        for ch in spec.types:
            if not isinstance(ch, Choice) or ch.mnemonic_column is None:
                continue
            for a in ch.alts:
                t = a.type.target
                if not isinstance(t, Struct):
                    continue
                if t.name in padded:
                    if padded[t.name] != ch.mnemonic_column:
                        self.error(self.aloc(a.element, "type"), f"struct '{t.name}' is in choices with different "
                                                                 f"mnemonic columns")
                    continue
                padded[t.name] = ch.mnemonic_column
                for d in t.displays + [d for v in t.variants for d in v.displays]:
                    parts = T.pad_first_word(d.parts or [], ch.mnemonic_column)
                    if parts is None:
                        self.error(d.loc, f"no space ends the mnemonic of this display of '{t.name}' "
                                          f"(choice '{ch.name}' has mnemonic-column=\"{ch.mnemonic_column}\")")
                    else:
                        d.parts = parts


def build(document, diags):
    b = Builder(document, diags)
    spec = b.build()
    spec.document = document
    return spec
