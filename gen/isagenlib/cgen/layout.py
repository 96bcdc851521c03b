"""Struct layouts in C: member types, and the statements that move a
field's bits between a struct and its unit words.

Nested structs and arrays are flattened at generation time into `Leaf`s
(one scalar element each, with its absolute bit pieces), so unpacking a
header of 456 fields is 456 constant shift-and-mask statements.  A nested
struct that has variants stays `Nested`: its own unpack selects them.
"""

import re

from ..check.layout import logical_positions
from ..model import Field
from .cexpr import Env, c_int
from .cwriter import Block, place_lets
from . import cexpr as E


def runs(positions):
    """Absolute bit positions (LSB first) -> [(lo, width)] pieces."""
    out = []
    for p in positions:
        if out and out[-1][0] + out[-1][1] == p:
            out[-1] = (out[-1][0], out[-1][1] + 1)
        else:
            out.append((p, 1))
    return out


def uint_type(width):
    for n in (8, 16, 32, 64):
        if width <= n:
            return f"uint{n}_t", n
    return "uint64_t", 64


def sint_type(width):
    for n in (8, 16, 32, 64):
        if width <= n:
            return f"int{n}_t", n
    return "int64_t", 64


class Leaf:
    """One scalar element of a flattened layout."""

    def __init__(self, field, c, path, pieces):
        self.field, self.c, self.path, self.pieces = field, c, path, pieces

    @property
    def width(self):
        return sum(w for _, w in self.pieces)


class FixedBits:
    def __init__(self, pieces, value, path):
        self.pieces, self.value, self.path = pieces, value, path


class Nested:
    """A struct-typed field whose struct has variants: unpacked by slicing
    its bits into temporary words and calling its own unpack."""

    def __init__(self, field, c, path, lo, target):
        self.field, self.c, self.path, self.lo, self.target = field, c, path, lo, target


class Layout:
    Leaf, FixedBits, Nested = Leaf, FixedBits, Nested

    def __init__(self, names):
        self.names = names

    # ---- C types

    def ctype(self, f):
        """C type of one element of a stored field."""
        k = f.type.kind
        if k == "bool":
            return "bool"
        if k == "enum":
            return self.names.enum_type(f.type.enum)
        if k == "struct":
            return self.names.sname(f.type.target)
        if k in ("sint", "sfixed"):
            return sint_type(f.width)[0]
        return uint_type(f.width)[0]

    def ctype_bits(self, f):
        k = f.type.kind
        if k == "bool":
            return 1
        if k == "enum":
            return 31
        if k in ("sint", "sfixed"):
            return sint_type(f.width)[1]
        return uint_type(f.width)[1]

    def member_decl(self, f):
        arr = f"[{f.count}]" if f.count > 1 else ""
        note = f"{f.role}, " if f.role != "field" else ""
        return f"{self.ctype(f)} {f.name}{arr}; /* {note}bits {comment(clip(f.describe_bits(), 60))} */"

    # ---- flattening

    def flatten(self, members, c_base, path_base, mapping=None):
        """Leaves, FixedBits and Nested of `members`, with absolute bit
        pieces.  mapping: absolute position of each logical bit of the
        containing field (None at top level)."""
        out = []
        for f in members:
            if not isinstance(f, Field):
                continue
            for i in range(f.count):
                pos = logical_positions(f.element_pieces(i))
                if mapping is not None:
                    pos = [mapping[p] for p in pos]
                idx = f"[{i}]" if f.count > 1 else ""
                c = f"{c_base}{f.name}{idx}"
                path = f"{path_base}{f.name}{idx}"
                if f.role == "fixed":
                    out.append(FixedBits(runs(pos), f.value, path))
                elif f.type.kind == "struct":
                    t = f.type.target
                    if t.variants:
                        out.append(Nested(f, c, path, runs(pos)[0][0], t))
                    else:
                        out.extend(self.flatten(t.members, c + ".", path + ".", pos))
                else:
                    out.append(Leaf(f, c, path, runs(pos)))
        return out

    def struct_info(self, s):
        """The flattened layout of a struct: common leaves, and each variant's."""
        info = {"s": s, "words": s.words, "common": self.flatten(s.members, "v->", ""), "variants": []}
        for v in s.variants:
            info["variants"].append((v, self.flatten(v.members, f"v->u.{v.name}.", f"{v.name}." if v.path_named else "")))
        return info

    def fixed_pattern(self, s):
        """(mask, value) of every fixed bit of a struct (nested ones too)."""
        m = v = 0
        for x in self.flatten(s.members, "", ""):
            if isinstance(x, FixedBits):
                shift = 0
                for lo, w in x.pieces:
                    m |= ((1 << w) - 1) << lo
                    v |= ((x.value >> shift) & ((1 << w) - 1)) << lo
                    shift += w
        return m, v

    # ---- statements

    @staticmethod
    def extract_c(pieces, words="w"):
        parts, shift = [], 0
        for lo, w in pieces:
            part = f"isa_w_get({words}, {lo}, {w})"
            parts.append(part if shift == 0 else f"({part} << {shift})")
            shift += w
        return parts[0] if len(parts) == 1 else "(" + " | ".join(parts) + ")"

    def unpack_stmt(self, leaf, words="w"):
        f = leaf.field
        raw = self.extract_c(leaf.pieces, words)
        k = f.type.kind
        if k == "bool":
            return f"{leaf.c} = {raw} != 0;"
        if k == "enum":
            return f"{leaf.c} = ({self.ctype(f)}){raw};"
        if k in ("sint", "sfixed"):
            return f"{leaf.c} = ({self.ctype(f)})isa_sext({raw}, {leaf.width});"
        return f"{leaf.c} = ({self.ctype(f)}){raw};"

    def default_stmts(self, leaves):
        """The XML defaults of these leaves, assigned (S_init, S_set_variant)."""
        return [f"{leaf.c} = ({self.ctype(leaf.field)}){leaf.field.default};"
                for leaf in leaves if isinstance(leaf, Leaf) and leaf.field.default]

    @staticmethod
    def any_bit_set(lo, hi, words="w"):
        """C condition: some bit of unit words in [lo, hi) is set, one
        masked test per word."""
        tests = []
        for i in range(lo // 32, (hi + 31) // 32):
            a, b = max(lo, 32 * i) - 32 * i, min(hi, 32 * i + 32) - 32 * i
            mask = ((1 << (b - a)) - 1) << a
            tests.append(f"({words}[{i}] & 0x{mask:x}u)")
        return " | ".join(tests)

    @staticmethod
    def value_u64(leaf):
        k = leaf.field.type.kind
        mask = (1 << leaf.width) - 1
        if k in ("sint", "sfixed"):
            return f"((uint64_t)(int64_t){leaf.c} & 0x{mask:x}u)"
        if k == "bool":
            return f"(uint64_t){leaf.c}"
        return f"((uint64_t){leaf.c} & 0x{mask:x}u)"

    @staticmethod
    def insert_stmts(pieces, value_c, words="w"):
        if len(pieces) == 1:
            lo, w = pieces[0]
            return [f"isa_w_or({words}, {lo}, {w}, {value_c});"]
        out = ["{", f"   uint64_t x = {value_c};"]
        shift = 0
        for lo, w in pieces:
            out.append(f"   isa_w_or({words}, {lo}, {w}, (x >> {shift}) & 0x{(1 << w) - 1:x}u);")
            shift += w
        out.append("}")
        return out

    def pack_stmts(self, leaf, words="w"):
        return self.insert_stmts(leaf.pieces, self.value_u64(leaf), words)

    def range_cond(self, leaf):
        """C condition true when a leaf's value does not fit its bits, or
        None when its C type cannot hold such a value."""
        f = leaf.field
        k = f.type.kind
        if k == "bool":
            return None
        cbits = self.ctype_bits(f)
        if k in ("sint", "sfixed"):
            if cbits <= leaf.width:
                return None
            lo, hi = -(1 << (leaf.width - 1)), (1 << (leaf.width - 1)) - 1
            return f"(int64_t){leaf.c} < {c_int(lo)} || (int64_t){leaf.c} > {hi}"
        if k != "enum" and cbits <= leaf.width:
            return None
        return f"(uint64_t){leaf.c} > 0x{(1 << leaf.width) - 1:x}u"

    def check_groups(self, leaves):
        """Leaves in the order a check takes them: runs of Leafs (checked
        together) and the Nested between them (checked by their own check)."""
        out, run = [], []
        for x in leaves:
            if isinstance(x, Leaf):
                run.append(x)
            elif isinstance(x, Nested):
                if run:
                    out.append(run)
                    run = []
                out.append(x)
        if run:
            out.append(run)
        return out

    def range_check(self, leaves, tname, sname):
        """Lines checking that each leaf's value fits its bits (the checked
        pack's ISA_ERR_RANGE): every field tested inline, and on a failure
        one out-of-line call that finds the field in a table and reports
        it, so the error paths take one call per struct, not per field."""
        checked = [(x, self.range_cond(x)) for x in leaves if isinstance(x, Leaf)]
        checked = [(x, cond) for x, cond in checked if cond]
        at = 0
        for i, (x, _) in enumerate(checked):  # ISO C caps a string literal at 4095 bytes
            at += len(x.path.encode("utf-8")) + 1
            if at > 4000:
                return (self.range_check_block(checked[:i], tname, sname)
                        + self.range_check(leaves[leaves.index(x):], tname, sname))
        return self.range_check_block(checked, tname, sname)

    def range_check_block(self, checked, tname, sname):
        """range_check of (leaf, condition) pairs whose paths fit one literal."""
        from .names import c_string
        if not checked:
            return []
        rows, names, at = [], [], 0
        for x, _ in checked:
            k = x.field.type.kind
            flags = []
            if k in ("sint", "sfixed"):
                flags = ["ISA_RC_SIGNED_C", "ISA_RC_SIGNED_FIELD"]
            member = x.c[len("v->"):]
            rows.append(f"{{offsetof({sname}, {member}), {at}, sizeof {x.c}, {' | '.join(flags) or '0'}, {x.width}}},")
            names.append(x.path)
            at += len(x.path.encode("utf-8")) + 1
        conds = [f"({cond})" for _, cond in checked]
        out = ["{", "   static const struct isa_range_check ranges[] = {"]
        out += ["      " + r for r in rows]
        out += ["   };"]
        out += wrap_words("   static const char names[] = ", self.names_literals(names), ";")
        out.append(f"   if ({conds[0]}" + ("" if len(conds) > 1 else ")"))
        for i, cond in enumerate(conds[1:], 1):
            out.append(f"       || {cond}" + (")" if i == len(conds) - 1 else ""))
        out.append(f"      return isa_fail_ranges(err, {c_string(tname)}, v, ranges, {len(rows)}, names);")
        out.append("}")
        return out

    @staticmethod
    def names_literals(names):
        """C string literals that concatenate to each name NUL-terminated
        (an octal escape of three digits, so a digit may follow it)."""
        from .names import c_string
        return [c_string(n)[:-1] + '\\000"' for n in names]

    # ---- lengths

    def length_code(self, s, target):
        """Lines setting `target` (an int64_t declared before) to the length
        s says it has."""
        node = s.length
        if node is None:
            return [f"{target} = {s.bits};"]
        return assign_lines(f"{target} = ", node, Env(self.names, context={}))


def assign_lines(lead, node, env, trail=";"):
    """`lead <expression> trail` as lines; the lets it needs are declared
    in a block around it."""
    b = Block()
    b.stmt(lead, E.compile(node, env), trail)
    place_lets(b, env)
    lines = b.render("")
    if b.decls:
        return ["{"] + ["   " + ln for ln in lines] + ["}"]
    return lines


def wrap_words(lead, words, trail, width=100):
    """lead + words separated by spaces + trail, as lines of at most about
    `width` characters; continuation lines indented under the first word."""
    lines, cur = [], lead
    indent = " " * (len(lead) - len(lead.lstrip()) + 3)
    for w in words:
        if cur.strip() and len(cur) + 1 + len(w) > width and cur != lead:
            lines.append(cur)
            cur = indent + w
        else:
            cur = cur + w if cur == lead else cur + " " + w
    lines.append(cur + trail)
    return lines


def comment(text):
    return text.replace("*/", "* /").replace("/*", "/ *")


def paragraphs(text):
    """A doc's paragraphs: lines joined up to a blank line, so how the XML
    happens to wrap its text (isagen fmt) does not matter; a line that
    starts a list item ('-', '*', '|', '1.') starts a paragraph of its own."""
    out, cur = [], []
    for line in text.splitlines():
        line = line.strip()
        if not line or re.match(r"([-*|]|\d+\.)\s", line):
            if cur:
                out.append(" ".join(cur))
            cur = [line] if line else []
            if not line:
                out.append("")
            continue
        cur.append(line)
    if cur:
        out.append(" ".join(cur))
    while out and not out[-1]:
        out.pop()
    return out


def doc_comment(lead, doc, indent="", width=100):
    """A C comment `/* lead: the doc's first paragraph */`, wrapped to width."""
    import textwrap
    first = paragraphs(doc)[0] if doc else ""
    text = comment(f"{lead}: {first}" if first and lead else (lead or first))
    lines = textwrap.wrap(text, width - len(indent) - 3, break_long_words=True, break_on_hyphens=False) or [""]
    if len(lines) == 1:
        return [f"{indent}/* {lines[0]} */"]
    return [f"{indent}/* {lines[0]}"] + [f"{indent} * {ln}" for ln in lines[1:]] + [f"{indent} */"]


def block_comment_lines(text, width=100):
    """Lines ' * ...' of a doc text inside a block comment, wrapped."""
    import textwrap
    out = []
    for para in paragraphs(text):
        out += [f" * {ln}" for ln in textwrap.wrap(comment(para), width - 3, break_on_hyphens=False)] or [" *"]
    return out


def clip(text, n):
    return text if len(text) <= n else text[:n - 3] + "..."
