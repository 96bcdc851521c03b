"""Stage 4 of the pipeline: render C from the checked model.

`CGen` computes the C fragments (flattened field extraction, range checks,
decision trees, compiled templates); the Mako templates in gen/templates lay
them out.  Templates are named after the file they emit:

    spec.h.mako      -> <prefix>.h   enums, structs, inline unpack/pack/decode
    spec.c.mako      -> <prefix>.c   printers, validators, reflection tables
    registry.c.mako  -> isagen_specs.c   the table of compiled-in specs

Output depends only on the XML: no dates, no absolute paths, sets are
iterated in sorted or document order, so regenerating is byte-identical.
"""

import os
import re

from mako.lookup import TemplateLookup

from . import decodetree
from . import expr as X
from . import template as T
from .check import logical_positions
from .model import Choice, Field, Sequence, Struct, Use, c_prefix, max_bits, upper_snake
from .scopes import ChoiceScope, ContextScope, OperandScope, SequenceScope, StructScope, scope_for

HERE = os.path.dirname(os.path.abspath(__file__))
TEMPLATE_DIR = os.path.join(HERE, "..", "templates")
CORE_H = os.path.join(HERE, "..", "..", "runtime", "include", "isagen", "core.h")

LOOP_MAX = 1024  # iterations a {for} may run; guards against garbage counts


def c_string(s):
    out = []
    for ch in s:
        o = ord(ch)
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif o < 0x20 or o == 0x7f:
            out.append(f"\\{o:03o}")
        elif o > 0x7e:
            out.append("".join(f"\\{b:03o}" for b in ch.encode("utf-8")))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def c_comment(text):
    return text.replace("*/", "* /").replace("/*", "/ *")


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


class CGen:
    # for the templates
    Leaf, FixedBits, Nested = Leaf, FixedBits, Nested
    c_string = staticmethod(c_string)

    @staticmethod
    def c_int(v):
        return X.to_c(X.Num(v, 0))
    c_comment = staticmethod(c_comment)
    upper_snake = staticmethod(upper_snake)

    def __init__(self, spec):
        self.spec = spec
        self.prefix = spec.prefix
        self.PREFIX = spec.PREFIX
        with open(CORE_H, encoding="utf-8") as f:
            self.core_h = f.read().rstrip("\n")
        self.lookup = TemplateLookup(directories=[TEMPLATE_DIR], strict_undefined=True,
                                     input_encoding="utf-8")

    def render(self, name, **kw):
        tpl = self.lookup.get_template(name)
        text = tpl.render(g=self, spec=self.spec, X=X, **kw)
        lines = [ln.rstrip() for ln in text.split("\n")]
        while lines and not lines[-1]:
            lines.pop()
        # collapse runs of blank lines left by template control flow
        out = []
        for ln in lines:
            if ln == "" and out and out[-1] == "":
                continue
            out.append(ln)
        return "\n".join(out) + "\n"

    # ---------------------------------------------------------------- names

    def sname(self, t):
        return f"struct {self.prefix}_{t.name}"

    def fn(self, t, what):
        return f"{self.prefix}_{t.name}_{what}"

    def vsname(self, s, v):
        return f"struct {self.prefix}_{s.name}_{v.name}"

    def vconst(self, s, v):
        return f"{self.PREFIX}_{upper_snake(s.name)}_{upper_snake(v.name)}"

    def desc(self, t):
        return f"{self.prefix}_{t.name}_desc"

    def op_fn(self, o, what):
        from .model import Variant
        owner = o.owner
        if owner is None:
            return f"{self.prefix}_operand_{o.name}_{what}"
        if isinstance(owner, Variant):
            return f"{self.prefix}_{owner.owner.name}_{owner.name}_operand_{o.name}_{what}"
        return f"{self.prefix}_{owner.name}_operand_{o.name}_{what}"

    def op_params(self, o):
        """C parameters of an operand's functions (after `out`)."""
        from .model import Variant
        ps = ["const struct isa_ctx *ctx"]
        if o.owner is not None:
            t = o.owner.owner if isinstance(o.owner, Variant) else o.owner
            ps.append(f"const {self.sname(t)} *v")
        ps += [f"const {self.sname(self.spec.type_named(o.param_types[p]))} *p_{p}" if p in o.param_types
               else f"int64_t p_{p}" for p in o.params]
        return ", ".join(ps)

    def call_args(self, o, arg_nodes, scope):
        """C arguments for a call of operand o: values, or the address of
        the struct a struct parameter takes."""
        out = []
        for pname, a in zip(o.params, arg_nodes):
            if pname in o.param_types:
                X.check(a, scope, allow_agg=True)
                out.append(f"&{a.ref.lvalue}")
            else:
                X.check(a, scope)
                out.append(X.to_c(a))
        return out

    def op_args(self, o, arg_cs, base="v"):
        """C arguments of a call, matching op_params."""
        args = ["ctx"]
        if o.owner is not None:
            args.append(base)
        return ", ".join(args + arg_cs)

    def all_operands(self):
        """Operands to emit: the global ones something uses, and local ones."""
        out = [o for o in self.spec.operands if getattr(o, "used", False)]
        for t in self.spec.types:
            out += list(getattr(t, "operands", []))
            for v in getattr(t, "variants", []):
                out += list(v.operands)
        return out

    def macro(self, t, what):
        return f"{self.PREFIX}_{upper_snake(t.name)}_{what}"

    # ---------------------------------------------------------------- order

    def types_in_order(self):
        """Types with their dependencies first (C needs complete types)."""
        done, out = set(), []

        def deps(t):
            if isinstance(t, Struct):
                fs = t.fields + [f for v in t.variants for f in v.fields]
                return [f.type.target for f in fs if f.type.kind == "struct"]
            if isinstance(t, Sequence):
                return [it.type.target for it in t.items]
            return [a.type.target for a in t.alts]

        def visit(t):
            if t.name in done:
                return
            done.add(t.name)
            for d in deps(t):
                visit(d)
            out.append(t)

        for t in self.spec.types:
            visit(t)
        return out

    # ---------------------------------------------------------------- C types

    def ctype(self, f):
        """C type of one element of a stored field."""
        k = f.type.kind
        if k == "bool":
            return "bool"
        if k == "enum":
            return f.type.enum.c_type
        if k == "struct":
            return self.sname(f.type.target)
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
        bits = f.describe_bits()
        note = f"{f.role}, " if f.role != "field" else ""
        return f"{self.ctype(f)} {f.name}{arr}; /* {note}bits {c_comment(bits)} */"

    # ---------------------------------------------------------------- flattening

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
                        pieces = runs(pos)
                        out.append(Nested(f, c, path, pieces[0][0], t))
                    else:
                        out.extend(self.flatten(t.members, c + ".", path + ".", pos))
                else:
                    out.append(Leaf(f, c, path, runs(pos)))
        return out

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
            return f"{leaf.c} = ({f.type.enum.c_type}){raw};"
        if k == "sint" or k == "sfixed":
            return f"{leaf.c} = ({self.ctype(f)})isa_sext({raw}, {leaf.width});"
        return f"{leaf.c} = ({self.ctype(f)}){raw};"

    def value_u64(self, leaf):
        f = leaf.field
        k = f.type.kind
        mask = (1 << leaf.width) - 1
        if k == "sint" or k == "sfixed":
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

    def check_stmt(self, leaf, tname):
        """Range check of one leaf for the checked pack, or None."""
        f = leaf.field
        k = f.type.kind
        if k in ("bool",):
            return None
        cbits = self.ctype_bits(f)
        path = c_string(leaf.path)
        if k == "sint" or k == "sfixed":
            if cbits <= leaf.width:
                return None
            lo, hi = -(1 << (leaf.width - 1)), (1 << (leaf.width - 1)) - 1
            return (f"if ((int64_t){leaf.c} < {X.to_c(X.Num(lo, 0))} || (int64_t){leaf.c} > {hi})\n"
                    f"   return isa_fail_range(err, {c_string(tname)}, {path}, (int64_t){leaf.c}, {lo}, {hi});")
        if k != "enum" and cbits <= leaf.width:
            return None
        hi = (1 << leaf.width) - 1
        return (f"if ((uint64_t){leaf.c} > 0x{hi:x}u)\n"
                f"   return isa_fail_range(err, {c_string(tname)}, {path}, (int64_t){leaf.c}, 0, {hi});")

    # ---------------------------------------------------------------- structs

    def struct_info(self, s):
        """Everything spec.h.mako needs for a struct."""
        info = {"s": s, "words": s.words}
        info["common"] = self.flatten(s.members, "v->", "")
        info["variants"] = []
        for v in s.variants:
            base = f"v->u.{v.name}."
            pbase = f"{v.name}." if v.path_named else ""
            info["variants"].append((v, self.flatten(v.members, base, pbase)))
        return info

    def select_lines(self, s, words="w"):
        cands = []
        fallback = None
        for order, v in enumerate(s.variants):
            if v.fallback:
                fallback = v
                continue
            for m, val in v.patterns:
                cands.append(decodetree.Candidate(v.index, m, val, v.priority, order))
        tree = decodetree.build(cands)
        lines = decodetree.emit(tree, "   ", words)
        lines.append(f"   return {fallback.index if fallback else 0};")
        return lines

    def tree_comment(self, patterns_by_name):
        out = []
        for name, pats in patterns_by_name:
            for m, v in pats:
                out.append(f"{name}: mask 0x{m:x} value 0x{v:x}")
        return out

    def length_c(self, s, variant=None):
        node = variant.length if variant is not None and variant.length is not None else s.length
        if node is None:
            return str(s.bits)
        X.check(node, StructScope(self.spec, s, variant))
        return X.to_c(node)

    # ---------------------------------------------------------------- sequences

    def seq_item_decode(self, seq, k):
        """C statements decoding item k of a sequence."""
        it = seq.items[k]
        t = it.type.target
        lines = []
        if it.align > 1:
            lines.append(f"pos = start + (size_t)isa_x_align((int64_t)(pos - start), {it.align});")
        scope = SequenceScope(self.spec, seq, visible=seq.items[:k], vars_={"pos": "(int64_t)(pos - start)"})
        dec = f"{self.fn(t, 'decode')}"
        if it.count is not None:
            X.check(it.count, scope)
            lines += [
                "{",
                f"   int64_t n = {X.to_c(it.count)};",
                f"   if (n < 0 || n > {it.max})",
                f"      return isa_fail(err, ISA_ERR_LIMIT, {c_string(seq.name)}, {c_string(it.name)}, \"count outside 0..{it.max}\");",
                f"   v->n_{it.name} = (unsigned)n;",
                f"   for (unsigned i = 0; i < v->n_{it.name}; i++) {{",
                "      size_t n_bits = 0;",
                f"      int r = {dec}(buf, len, pos, &v->{it.name}[i], &n_bits, err);",
                "      if (r)",
                "         return r;",
                "      pos += n_bits;",
                "   }",
                "}",
            ]
            return lines
        body = [
            "{",
            "   size_t n_bits = 0;",
            f"   int r = {dec}(buf, len, pos, &v->{it.name}, &n_bits, err);",
            "   if (r)",
            "      return r;",
            "   pos += n_bits;",
            "}",
        ]
        if it.present is not None:
            X.check(it.present, scope)
            lines.append(f"v->has_{it.name} = ({X.to_c(it.present)}) != 0;")
            lines.append(f"if (v->has_{it.name}) " + body[0])
            lines += body[1:]
        else:
            lines += body
        return lines

    def presence_checked_early(self, seq):
        """Items whose presence or count the encoder can check before it
        encodes anything: their condition reads no field a <derive> of the
        sequence computes (a missing unit is then reported as such, not as
        the odd size it would give)."""
        scope = SequenceScope(self.spec, seq, base="(&tmp)")
        derived = []
        for d in seq.derives:
            X.check(d.target, scope)
            derived.append(re.compile(re.escape(d.target.ref.lvalue) + r"(?![A-Za-z0-9_])"))
        out = []
        for it in seq.items:
            node = it.present if it.present is not None else it.count
            if node is None:
                continue
            X.check(node, scope)
            c = X.to_c(node)
            if not any(p.search(c) for p in derived):
                out.append(it)
        return out

    def presence_setter(self, seq, it):
        """C statements making the fields that govern `it` agree with
        tmp's has_/n_ members, where the condition can be inverted:
        present="F" (1-bit field), present="bit(F, n)", count="F"."""
        scope = SequenceScope(self.spec, seq, base="(&tmp)")
        if it.present is not None:
            node = it.present
            if isinstance(node, X.Path):
                X.check(node, scope)
                f = node.ref.field
                if f is not None and node.ref.lvalue and f.stored and f.width == 1:
                    return [f"{node.ref.lvalue} = tmp.has_{it.name};"]
            if isinstance(node, X.Call) and node.fn == "bit" and isinstance(node.args[1], X.Num) \
                    and isinstance(node.args[0], X.Path):
                X.check(node.args[0], scope)
                f = node.args[0].ref.field
                if f is not None and node.args[0].ref.lvalue and f.stored and node.args[1].value < f.width:
                    lv, n = node.args[0].ref.lvalue, node.args[1].value
                    ct = self.ctype(f)
                    return [f"{lv} = ({ct})(((uint64_t){lv} & ~(UINT64_C(1) << {n})) | ((uint64_t)tmp.has_{it.name} << {n}));"]
        if it.count is not None and isinstance(it.count, X.Path):
            X.check(it.count, scope)
            f = it.count.ref.field
            if f is not None and it.count.ref.lvalue and f.stored:
                return [f"{it.count.ref.lvalue} = ({self.ctype(f)})tmp.n_{it.name};"]
        return []

    @staticmethod
    def pattern_bytes_c(patterns, nbytes):
        """C initializers of the mask and value byte arrays of patterns."""
        masks, values = [], []
        for m, v in patterns:
            masks += [f"0x{(m >> (8 * i)) & 0xff:02x}" for i in range(nbytes)]
            values += [f"0x{(v >> (8 * i)) & 0xff:02x}" for i in range(nbytes)]
        return ", ".join(masks), ", ".join(values)

    def struct_fixed_pattern(self, s):
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

    def seq_scope(self, seq, base="v"):
        return SequenceScope(self.spec, seq, base=base)

    # ---------------------------------------------------------------- choices

    def choice_peek_bits(self, c):
        """Bits a choice must look at to pick an alternative."""
        top = 1
        for a in c.alts:
            for m, _ in a.patterns:
                top = max(top, m.bit_length())
        return top

    def choice_select_lines(self, c):
        cands = []
        for order, a in enumerate(c.alts):
            for m, val in a.patterns:
                cands.append(decodetree.Candidate(a.index, m, val, a.priority, order))
        lines = decodetree.emit(decodetree.build(cands), "   ")
        lines.append("   return 0;")
        return lines

    def prefix_lines(self):
        return self.template_lines(self.spec.stream.prefix, ContextScope(self.spec), "out", "   ")

    def stop_c(self):
        st = self.spec.stream
        X.check(st.stop, scope_for(self.spec, st.unit))
        return X.to_c(st.stop)

    def state_step_lines(self):
        """The body of <prefix>_step: each single <state>'s value after a
        unit, and the elements an array's <set>s write (later ones win);
        everything is read from the states as before the unit (ctx)."""
        scope = scope_for(self.spec, self.spec.stream.unit)
        lines = ["   unsigned n = 0;"]
        for s in self.spec.stream.states:
            if s.count == 1:
                X.check(s.next, scope)
                lines.append(f"   next[{s.index}] = {X.to_c(s.next)}; /* {s.name} */")
                lines.append(f"   written[n++] = {s.index};")
                continue
            for k, e in enumerate(s.sets):
                for x in (e.index, e.value) + ((e.when,) if e.when is not None else ()):
                    X.check(x, scope)
                cond = f"{X.to_c(e.when)} && " if e.when is not None else ""
                lines.append(f"   {{ /* {s.name}: <set> {k + 1} */")
                lines.append(f"      int64_t i = {X.to_c(e.index)};")
                lines.append(f"      if ({cond}i >= 0 && i < {s.count}) {{")
                lines.append(f"         next[{s.index} + i] = {X.to_c(e.value)};")
                lines.append(f"         written[n++] = {s.index} + (unsigned)i;")
                lines.append("      }")
                lines.append("   }")
        lines.append("   return n;")
        return lines

    def state_decls(self):
        return [(s.name, s.index, s.count, s.init) for s in self.spec.stream.states]

    def max_state_writes(self):
        return sum(1 if s.count == 1 else len(s.sets) for s in self.spec.stream.states)

    def n_state_values(self):
        return sum(s.count for s in self.spec.stream.states)

    def max_unit_bytes(self):
        """The most bytes one unit can take (0 when unbounded: a sequence
        with a size expression or repeated items)."""
        return (max_bits(self.spec.stream.unit) + 7) // 8

    # ---------------------------------------------------------------- templates

    def template_lines(self, parts, scope, out="out", indent="   "):
        lines = []
        buf = []

        def flush():
            if buf:
                text = "".join(buf)  # its length is known here, so no strlen at run time
                lines.append(f"{indent}isa_out_mem({out}, {c_string(text)}, {len(text.encode('utf-8'))});")
                buf.clear()

        for p in parts:
            if isinstance(p, T.Text):
                buf.append(p.text)
                continue
            flush()
            if isinstance(p, T.Subst):
                lines += [indent + ln for ln in self.subst_lines(p, scope, out)]
            elif isinstance(p, T.If):
                for i, (cond, body) in enumerate(p.branches):
                    X.check(cond, scope)
                    kw = "if" if i == 0 else "} else if"
                    lines.append(f"{indent}{kw} ({X.to_c(cond)}) {{")
                    lines += self.template_lines(body, scope, out, indent + "   ")
                if p.otherwise is not None:
                    lines.append(f"{indent}}} else {{")
                    lines += self.template_lines(p.otherwise, scope, out, indent + "   ")
                lines.append(f"{indent}}}")
            elif isinstance(p, T.List):
                self.counter = getattr(self, "counter", 0) + 1
                first = f"first_{self.counter}"
                lines.append(f"{indent}{{")
                lines.append(f"{indent}   int {first} = 1;")
                for cond, body in p.items:
                    if cond is None:
                        # there when it prints something: print it aside first
                        self.counter += 1
                        tmp, tout = f"item_{self.counter}", f"item_out_{self.counter}"
                        lines.append(f"{indent}   {{")
                        lines.append(f"{indent}      char {tmp}[ISA_ITEM_MAX];")
                        lines.append(f"{indent}      struct isa_out {tout};")
                        lines.append(f"{indent}      isa_out_buffer(&{tout}, {tmp}, sizeof {tmp});")
                        lines += self.template_lines(body, scope, f"&{tout}", indent + "      ")
                        lines.append(f"{indent}      if ({tout}.len) {{")
                        lines.append(f"{indent}         if (!{first})")
                        lines.append(f"{indent}            isa_out_str({out}, {c_string(p.sep)});")
                        lines.append(f"{indent}         {first} = 0;")
                        lines.append(f"{indent}         isa_out_item({out}, &{tout});")
                        lines.append(f"{indent}      }}")
                        lines.append(f"{indent}   }}")
                        continue
                    X.check(cond, scope)
                    lines.append(f"{indent}   if ({X.to_c(cond)}) {{")
                    lines.append(f"{indent}      if (!{first})")
                    lines.append(f"{indent}         isa_out_str({out}, {c_string(p.sep)});")
                    lines.append(f"{indent}      {first} = 0;")
                    lines += self.template_lines(body, scope, out, indent + "      ")
                    lines.append(f"{indent}   }}")
                lines.append(f"{indent}   (void){first};")
                lines.append(f"{indent}}}")
            elif isinstance(p, T.Pad):
                X.check(p.width, scope)
                self.counter = getattr(self, "counter", 0) + 1
                start = f"pad_{self.counter}"
                lines.append(f"{indent}{{")
                lines.append(f"{indent}   size_t {start} = ({out})->len;")
                lines += self.template_lines(p.body, scope, out, indent + "   ")
                lines.append(f"{indent}   isa_out_pad({out}, {start}, {X.to_c(p.width)});")
                lines.append(f"{indent}}}")
            elif isinstance(p, T.For):
                X.check(p.lo, scope)
                X.check(p.hi, scope)
                var = f"i_{p.var}"
                lines.append(f"{indent}for (int64_t {var} = {X.to_c(p.lo)}, {var}_end = {X.to_c(p.hi)}; "
                             f"{var} < {var}_end && {var} - {X.to_c(p.lo)} < {LOOP_MAX}; {var}++) {{")
                lines += self.template_lines(p.body, scope.with_local(p.var, var), out, indent + "   ")
                lines.append(f"{indent}}}")
        flush()
        return lines

    def subst_lines(self, p, scope, out):
        node = p.node
        X.check(node, scope, allow_agg=True)
        ref = getattr(node, "ref", None)
        if node.type == "agg":
            if ref.operand is not None:
                args = self.call_args(ref.operand, ref.args, scope)
                return [f"{self.op_fn(ref.operand, 'print')}({out}, {self.op_args(ref.operand, args)});"]
            if ref.use is not None:
                return self.use_print(ref.use, scope, out)
            t = ref.agg
            return [f"{self.fn(t, 'print')}(&{ref.lvalue}, {out}, ctx);"]
        val = X.to_c(node)
        fmt = p.fmt
        field = getattr(ref, "field", None) if isinstance(node, X.Path) else None
        if fmt is None:
            if node.type == "float":
                return [f"isa_out_fmt({out}, \"%g\", (double)({val}));"]
            if field is not None and field.enum is not None:
                return [f"isa_out_enum({out}, {field.enum.c_name_fn}((uint32_t)({val})), {val});"]
            if field is not None and field.type.kind == "float16":
                return [f"isa_out_fmt({out}, \"%g\", isa_half_to_double((uint64_t)({val})));"]
            if field is not None and field.type.kind in ("fixed", "sfixed"):
                return [f"isa_out_fmt({out}, \"%g\", (double)({val}) / {float(1 << field.type.frac)!r});"]
            if field is not None and field.format == "hex":
                return [f"isa_out_hex({out}, (uint64_t)({val}));"]
            if field is not None and field.format == "bin":
                return [f"isa_out_str({out}, \"0b\");", f"isa_out_bin({out}, (uint64_t)({val}), {field.width});"]
            return [f"isa_out_int({out}, {val});"]
        if p.fmt_enum is not None:
            e = p.fmt_enum
            return [f"isa_out_enum({out}, {e.c_name_fn}((uint32_t)({val})), {val});"]
        if fmt == "r":
            return [f"isa_out_pyfloat({out}, (double)({val}));"]
        conv = fmt[-1]
        spec = fmt[:-1]
        if conv == "b":
            digits = int(spec) if spec.strip("0") else 1
            return [f"isa_out_bin({out}, (uint64_t)({val}), {digits});"]
        if conv in "di":
            if not spec:
                return [f"isa_out_int({out}, {val});"]
            return [f"isa_out_fmt({out}, \"%{spec}lld\", (long long)({val}));"]
        if conv in "uxXo":
            return [f"isa_out_fmt({out}, \"%{spec}ll{conv}\", (unsigned long long)({val}));"]
        if conv == "f" and not spec and isinstance(node, X.Call) and node.fn == "half":
            # exact and printf-free; the same text as printf("%f")
            return [f"isa_out_half_f({out}, (uint64_t)({X.to_c(node.args[0])}));"]
        if conv == "f" and not spec and node.type != "float" and field is not None and field.type.kind == "float16":
            return [f"isa_out_half_f({out}, (uint64_t)({val}));"]
        if conv in "fFeEgG":
            if node.type != "float" and field is not None and field.type.kind == "float16":
                val = f"isa_half_to_double((uint64_t)({val}))"
            return [f"isa_out_fmt({out}, \"%{spec}{conv}\", (double)({val}));"]
        if conv == "c":
            return [f"isa_out_fmt({out}, \"%{spec}c\", (int)({val}));"]
        raise AssertionError(fmt)

    def use_print(self, use, scope, out):
        args = self.call_args(use.operand, use.args, scope)
        return [f"{self.op_fn(use.operand, 'print')}({out}, {self.op_args(use.operand, args)});"]

    def displays_lines(self, displays, scope, fallback_lines):
        """if/else chain over <display when=...>, default last."""
        lines = []
        first = True
        for d in displays:
            if d.when is not None:
                X.check(d.when, scope)
                kw = "if" if first else "} else if"
                lines.append(f"   {kw} ({X.to_c(d.when)}) {{")
                lines += self.template_lines(d.parts, scope, "out", "      ")
                first = False
            else:
                if first:
                    lines += self.template_lines(d.parts, scope, "out", "   ")
                    return lines
                lines.append("   } else {")
                lines += self.template_lines(d.parts, scope, "out", "      ")
                lines.append("   }")
                return lines
        if first:
            return fallback_lines
        lines.append("   } else {")
        lines += ["   " + ln for ln in fallback_lines]
        lines.append("   }")
        return lines

    def print_lines(self, t):
        dump = [f"   isa_dump(&{self.desc(t)}, v, out);"]
        if isinstance(t, Struct):
            base = self.displays_lines(t.displays, StructScope(self.spec, t), dump)
            if not any(v.displays for v in t.variants):
                return base
            lines = ["   switch (v->variant) {"]
            for v in t.variants:
                if not v.displays:
                    continue
                lines.append(f"   case {self.vconst(t, v)}: {{")
                lines += ["   " + ln for ln in self.displays_lines(v.displays, StructScope(self.spec, t, v), base)]
                lines.append("      break;")
                lines.append("   }")
            lines.append("   default: {")
            lines += ["   " + ln for ln in base]
            lines.append("      break;")
            lines.append("   }")
            lines.append("   }")
            return lines
        if isinstance(t, Sequence):
            return self.displays_lines(t.displays, SequenceScope(self.spec, t), dump)
        # choice: the alternative prints itself
        lines = ["   switch (v->variant) {"]
        for a in t.alts:
            lines.append(f"   case {a.index}:")
            lines.append(f"      return {self.fn(a.type.target, 'print')}(&v->u.{a.name}, out, ctx);")
        lines.append("   default:")
        lines.append("      isa_out_str(out, \"<no alternative>\");")
        lines.append("      break;")
        lines.append("   }")
        return lines

    # ---------------------------------------------------------------- validators

    def report_lines(self, sev, rule, field_c, message_parts, scope, indent="   ", path="path"):
        # the message is only rendered when someone listens (f->emit)
        lines = [f"{indent}if (!f->emit) {{",
                 f"{indent}   isa_report(f, ctx, ISA_SEV_{sev.upper()}, {c_string(rule)}, {path}, {field_c}, 0);",
                 f"{indent}}} else {{", f"{indent}   char msg[256];", f"{indent}   struct isa_out m;",
                 f"{indent}   isa_out_buffer(&m, msg, sizeof msg);"]
        lines += self.template_lines(message_parts, scope, "&m", indent + "   ")
        lines.append(f"{indent}   isa_report(f, ctx, ISA_SEV_{sev.upper()}, {c_string(rule)}, {path}, {field_c}, msg);")
        lines.append(f"{indent}}}")
        return lines

    # Which types' validators can report anything: the others are not called.
    def has_checks(self, t, seen=None):
        seen = seen or set()
        if t.name in seen:
            return False
        seen = seen | {t.name}
        if isinstance(t, Struct):
            members = t.members + [m for v in t.variants for m in v.members]
            if t.rules or any(v.rules for v in t.variants):
                return True
            if self.display_checks(t):
                return True
            for m in members:
                if isinstance(m, Use):
                    if self.reaches_undefined(m.operand):
                        return True
                elif m.role in ("reserved", "mbz", "mbo") or m.expect is not None:
                    return True
                elif m.type.kind == "struct" and self.has_checks(m.type.target, seen):
                    return True
            return False
        if isinstance(t, Sequence):
            return bool(t.rules or t.derives or self.display_checks(t)) or \
                any(self.has_checks(it.type.target, seen) for it in t.items)
        return bool(t.rules) or any(self.has_checks(a.type.target, seen) for a in t.alts)

    def member_checks(self, members, base, scope, indent="   ", path="path"):
        """Findings every member produces by itself: reserved bits, must-be
        bits, expected values, nested structs, operands."""
        lines = []
        for m in members:
            if isinstance(m, Use):
                lines += self.use_validate(m, scope, indent, path)
                continue
            f = m
            if f.role == "fixed":
                continue
            if f.type.kind == "struct" and not self.has_checks(f.type.target):
                continue
            for i in range(f.count):
                idx = f"[{i}]" if f.count > 1 else ""
                c = f"{base}{f.name}{idx}"
                name = f"{f.name}{idx}"
                if f.type.kind == "struct":
                    lines.append(f"{indent}{{")
                    lines.append(f"{indent}   const struct isa_path sub = {{{path}, {c_string(f.name)}, {i if f.count > 1 else -1}}};")
                    lines.append(f"{indent}   {self.fn(f.type.target, 'validate')}(&{c}, f, ctx, &sub);")
                    lines.append(f"{indent}}}")
                    continue
                mask = (1 << f.width) - 1
                if f.role == "reserved" or f.role == "mbz":
                    what = "reserved bits are set" if f.role == "reserved" else "must-be-zero bits are set"
                    lines.append(f"{indent}if ((uint64_t){c} != 0) {{")
                    lines.append(f"{indent}   char msg[96];")
                    lines.append(f"{indent}   snprintf(msg, sizeof msg, \"{what} (0x%llx)\", (unsigned long long){c});")
                    lines.append(f"{indent}   isa_report(f, ctx, ISA_SEV_{f.severity.upper()}, \"{f.role}\", {path}, {c_string(name)}, msg);")
                    lines.append(f"{indent}}}")
                elif f.role == "mbo":
                    lines.append(f"{indent}if (((uint64_t){c} & 0x{mask:x}u) != 0x{mask:x}u) {{")
                    lines.append(f"{indent}   char msg[96];")
                    lines.append(f"{indent}   snprintf(msg, sizeof msg, \"must-be-one bits are clear (0x%llx, expected 0x{mask:x})\", (unsigned long long){c});")
                    lines.append(f"{indent}   isa_report(f, ctx, ISA_SEV_{f.severity.upper()}, \"mbo\", {path}, {c_string(name)}, msg);")
                    lines.append(f"{indent}}}")
                elif f.expect is not None:
                    ev = X.to_c(X.Num(f.expect, 0))
                    lines.append(f"{indent}if ((int64_t){c} != {ev}) {{")
                    lines.append(f"{indent}   char msg[96];")
                    lines.append(f"{indent}   snprintf(msg, sizeof msg, \"value 0x%llx, expected 0x{f.expect & ((1 << 64) - 1):x}\", (unsigned long long){c});")
                    lines.append(f"{indent}   isa_report(f, ctx, ISA_SEV_{f.expect_severity.upper()}, \"expect\", {path}, {c_string(name)}, msg);")
                    lines.append(f"{indent}}}")
        return lines

    def use_validate(self, use, scope, indent, path="path"):
        """A <use> is checked whether or not a display prints it."""
        o = use.operand
        if not self.reaches_undefined(o):
            return []
        args = self.call_args(use.operand, use.args, scope)
        return [f"{indent}{self.op_fn(o, 'check')}(f, {path}, {c_string(use.name)}, {self.op_args(o, args)});"]

    # Undefined operand cases reached by printing.  An operand's case may
    # print other operands ({Src(v, t)} inside FloatSrc), and a display may
    # call operands directly; isa check reports an undefined case wherever
    # the printed text would show it.  The walk below follows a template's
    # control flow ({if}, {list}, {for}) and emits only the operand checks.

    def reaches_undefined(self, o):
        """Whether printing operand o can reach an undefined case."""
        memo = self.__dict__.setdefault("_reaches", {})
        if id(o) not in memo:
            memo[id(o)] = False  # a cycle reaches nothing new
            memo[id(o)] = any(c.undefined for c in o.cases) or any(
                self.check_walk_lines(c.display, OperandScope(self.spec, o), "field", "") for c in o.cases)
        return memo[id(o)]

    def check_walk_lines(self, parts, scope, field_c, indent):
        """Operand checks along a template's control flow; [] when none.
        field_c: the C expression naming the field reported, or None to
        name it after the call's first argument."""
        lines = []
        for p in parts:
            if isinstance(p, T.Subst):
                node = p.node
                X.check(node, scope, allow_agg=True)
                ref = getattr(node, "ref", None)
                if node.type != "agg" or ref.operand is None or not self.reaches_undefined(ref.operand):
                    continue
                args = self.call_args(ref.operand, ref.args, scope)
                name = field_c
                if name is None:
                    first = ref.args[0] if ref.args else None
                    name = c_string(first.text() if isinstance(first, X.Path) else ref.operand.name)
                lines.append(f"{indent}{self.op_fn(ref.operand, 'check')}(f, path, {name}, "
                             f"{self.op_args(ref.operand, args)});")
            elif isinstance(p, T.If):
                bodies = [self.check_walk_lines(b, scope, field_c, indent + "   ") for _, b in p.branches]
                other = (self.check_walk_lines(p.otherwise, scope, field_c, indent + "   ")
                         if p.otherwise is not None else [])
                if not any(bodies) and not other:
                    continue
                for i, ((cond, _), body) in enumerate(zip(p.branches, bodies)):
                    X.check(cond, scope)
                    lines.append(f"{indent}{'if' if i == 0 else '} else if'} ({X.to_c(cond)}) {{")
                    lines += body
                if other:
                    lines.append(f"{indent}}} else {{")
                    lines += other
                lines.append(f"{indent}}}")
            elif isinstance(p, T.List):
                for cond, body in p.items:
                    inner = self.check_walk_lines(body, scope, field_c, indent + "   ")
                    if not inner:
                        continue
                    if cond is None:
                        lines += [ln[3:] for ln in inner]
                    else:
                        X.check(cond, scope)
                        lines.append(f"{indent}if ({X.to_c(cond)}) {{")
                        lines += inner
                        lines.append(f"{indent}}}")
            elif isinstance(p, T.Pad):
                lines += [ln[3:] for ln in self.check_walk_lines(p.body, scope, field_c, indent + "   ")]
            elif isinstance(p, T.For):
                var = f"i_{p.var}"
                inner = self.check_walk_lines(p.body, scope.with_local(p.var, var), field_c, indent + "   ")
                if inner:
                    X.check(p.lo, scope)
                    X.check(p.hi, scope)
                    lines.append(f"{indent}for (int64_t {var} = {X.to_c(p.lo)}, {var}_end = {X.to_c(p.hi)}; "
                                 f"{var} < {var}_end && {var} - {X.to_c(p.lo)} < {LOOP_MAX}; {var}++) {{")
                    lines += inner
                    lines.append(f"{indent}}}")
        return lines

    def displays_check_lines(self, displays, scope, fallback):
        """The checks of whichever <display> prints, chosen as
        displays_lines() chooses it; `fallback` when none applies."""
        chain = [(d.when, self.check_walk_lines(d.parts, scope, None, "      ")) for d in displays]
        if not any(body for _, body in chain) and not fallback:
            return []
        lines = []
        for i, (when, body) in enumerate(chain):
            if when is None:
                if i == 0:
                    return [ln[3:] for ln in body]
                return lines + ["   } else {"] + body + ["   }"]
            X.check(when, scope)
            lines.append(f"   {'if' if i == 0 else '} else if'} ({X.to_c(when)}) {{")
            lines += body
        if not lines:
            return fallback
        return lines + ["   } else {"] + ["   " + ln for ln in fallback] + ["   }"]

    def display_checks(self, t):
        """Validator lines for the operands a struct's displays call."""
        memo = self.__dict__.setdefault("_display_checks", {})
        if id(t) not in memo and isinstance(t, Sequence):
            memo[id(t)] = self.displays_check_lines(t.displays, SequenceScope(self.spec, t), [])
        if id(t) not in memo:
            base = self.displays_check_lines(t.displays, StructScope(self.spec, t), [])
            lines = base
            shown = [v for v in t.variants if v.displays]
            if shown:
                # a variant's displays replace the struct's (print_lines)
                cases = [(v, self.displays_check_lines(v.displays, StructScope(self.spec, t, v), base))
                         for v in shown]
                lines = []
                if base or any(body for _, body in cases):
                    lines = ["   switch (v->variant) {"]
                    for v, body in cases:
                        lines += [f"   case {self.vconst(t, v)}: {{"] + ["   " + ln for ln in body]
                        lines += ["      break;", "   }"]
                    lines += ["   default: {"] + ["   " + ln for ln in base] + ["      break;", "   }", "   }"]
            memo[id(t)] = lines
        return memo[id(t)]

    def operand_check_lines(self, o):
        """Body of an operand's check: report its undefined case, then
        check what the chosen case prints."""
        scope = OperandScope(self.spec, o)
        lines = [f"   switch ({self.op_fn(o, 'case')}({self.op_args(o, ['p_' + p for p in o.params])})) {{"]
        for i, c in enumerate(o.cases):
            body = self.check_walk_lines(c.display, scope, "field", "      ")
            if not c.undefined and not body:
                continue
            lines.append(f"   case {i}:")
            if c.undefined:
                msg = c.message if c.message else [T.Text(f"undefined encoding of operand {o.name}")]
                lines.append("      if (!f->emit) {")
                lines.append("         isa_report(f, ctx, ISA_SEV_ERROR, \"undefined-operand\", path, field, 0);")
                lines.append("      } else {")
                lines.append("         char msg[256];")
                lines.append("         struct isa_out m;")
                lines.append("         isa_out_buffer(&m, msg, sizeof msg);")
                lines += self.template_lines(msg, scope, "&m", "         ")
                lines.append("         isa_report(f, ctx, ISA_SEV_ERROR, \"undefined-operand\", path, field, msg);")
                lines.append("      }")
            lines += body
            lines.append("      break;")
        lines.append("   default:")
        lines.append("      break;")
        lines.append("   }")
        return lines

    def derive_check_lines(self, seq):
        """A <derive>d field must hold what the content implies (the
        encoder writes that value; anything else does not round-trip)."""
        if not seq.derives:
            return []
        scope = SequenceScope(self.spec, seq, vars_={"size": "(int64_t)size"})
        lines = ["   {", f"      size_t size = {self.fn(seq, 'size_bits')}(v);"]
        for d in seq.derives:
            X.check(d.value, scope)
            X.check(d.target, SequenceScope(self.spec, seq))
            have = d.target.ref.c
            lines += [
                "      {",
                f"         int64_t want = {X.to_c(d.value)}, have = {have};",
                "         if (have != want) {",
                "            char msg[160];",
                "            snprintf(msg, sizeof msg, \"%lld, but the content makes it %lld\", (long long)have, (long long)want);",
                f"            isa_report(f, ctx, ISA_SEV_ERROR, \"derive\", path, {c_string(d.field)}, msg);",
                "         }",
                "      }",
            ]
        lines.append("   }")
        return lines

    def rule_lines(self, rules, scope, indent="   ", path="path"):
        lines = []
        for r in rules:
            X.check(r.check, scope)
            cond = f"!({X.to_c(r.check)})"
            if r.when is not None:
                X.check(r.when, scope)
                cond = f"({X.to_c(r.when)}) && {cond}"
            field_c = c_string(r.field) if r.field else "0"
            lines.append(f"{indent}if ({cond}) {{")
            lines += self.report_lines(r.severity, r.name, field_c, r.message, scope, indent + "   ", path)
            lines.append(f"{indent}}}")
        return lines

    def validate_lines(self, t):
        spec = self.spec
        if isinstance(t, Struct):
            scope = StructScope(spec, t)
            lines = self.member_checks(t.members, "v->", scope)
            if any(self.has_checks_members(v) for v in t.variants):
                lines.append("   switch (v->variant) {")
                for v in t.variants:
                    if not self.has_checks_members(v):
                        continue
                    vscope = StructScope(spec, t, v)
                    lines.append(f"   case {self.vconst(t, v)}: {{")
                    vp = "path"
                    if v.path_named:
                        lines.append(f"      const struct isa_path vpath = {{path, {c_string(v.name)}, -1}};")
                        vp = "&vpath"
                    lines += self.member_checks(v.members, f"v->u.{v.name}.", vscope, "      ", vp)
                    lines += self.rule_lines(v.rules, vscope, "      ", vp)
                    lines.append("      break;")
                    lines.append("   }")
                lines.append("   default:")
                lines.append("      break;")
                lines.append("   }")
            lines += self.rule_lines(t.rules, scope)
            lines += self.display_checks(t)
            return lines
        if isinstance(t, Sequence):
            scope = SequenceScope(spec, t)
            lines = []
            for it in t.items:
                target = it.type.target
                if not self.has_checks(target):
                    continue
                if it.count is not None:
                    lines.append(f"   for (unsigned i = 0; i < v->n_{it.name} && i < {it.max}; i++) {{")
                    lines.append(f"      const struct isa_path sub = {{path, {c_string(it.name)}, (long)i}};")
                    lines.append(f"      {self.fn(target, 'validate')}(&v->{it.name}[i], f, ctx, &sub);")
                    lines.append("   }")
                else:
                    cond = f"if (v->has_{it.name}) " if it.present is not None else ""
                    lines.append(f"   {cond}{{")
                    lines.append(f"      const struct isa_path sub = {{path, {c_string(it.name)}, -1}};")
                    lines.append(f"      {self.fn(target, 'validate')}(&v->{it.name}, f, ctx, &sub);")
                    lines.append("   }")
            lines += self.derive_check_lines(t)
            lines += self.rule_lines(t.rules, scope)
            lines += self.display_checks(t)
            return lines
        lines = ["   switch (v->variant) {"]
        for a in t.alts:
            if not self.has_checks(a.type.target):
                continue
            lines.append(f"   case {a.index}:")
            lines.append(f"      {self.fn(a.type.target, 'validate')}(&v->u.{a.name}, f, ctx, path);")
            lines.append("      break;")
        lines.append("   default:")
        lines.append("      break;")
        lines.append("   }")
        lines += self.rule_lines(t.rules, ChoiceScope(spec, t))
        return lines

    def has_checks_members(self, v):
        if v.rules:
            return True
        for m in v.members:
            if isinstance(m, Use):
                if m.operand is not None and self.reaches_undefined(m.operand):
                    return True
            elif m.role in ("reserved", "mbz", "mbo") or m.expect is not None:
                return True
            elif m.type.kind == "struct" and self.has_checks(m.type.target):
                return True
        return False

    # ---------------------------------------------------------------- operands

    def operand_case_lines(self, o):
        scope = OperandScope(self.spec, o)
        lines = []
        for i, c in enumerate(o.cases):
            if c.when is None:
                lines.append(f"   return {i};")
                return lines
            X.check(c.when, scope)
            lines.append(f"   if ({X.to_c(c.when)})")
            lines.append(f"      return {i};")
        lines.append(f"   return {len(o.cases)};")
        return lines

    def operand_print_lines(self, o):
        scope = OperandScope(self.spec, o)
        lines = [f"   switch ({self.op_fn(o, 'case')}({self.op_args(o, ['p_' + p for p in o.params])})) {{"]
        for i, c in enumerate(o.cases):
            lines.append(f"   case {i}:")
            lines += self.template_lines(c.display, scope, "out", "      ")
            lines.append("      break;")
        lines.append("   default:")
        lines.append(f"      isa_out_str(out, \"<{o.name}?>\");")
        lines.append("      break;")
        lines.append("   }")
        return lines

    # ---------------------------------------------------------------- reflection

    KIND = {"uint": "ISA_K_UINT", "hex": "ISA_K_UINT", "sint": "ISA_K_SINT", "bool": "ISA_K_BOOL",
            "enum": "ISA_K_ENUM", "float16": "ISA_K_FLOAT16", "fixed": "ISA_K_FIXED",
            "sfixed": "ISA_K_SFIXED", "struct": "ISA_K_AGG"}
    ROLE = {"field": "ISA_ROLE_FIELD", "reserved": "ISA_ROLE_RESERVED", "mbz": "ISA_ROLE_MBZ",
            "mbo": "ISA_ROLE_MBO", "fixed": "ISA_ROLE_FIXED"}
    FMT = {"dec": "ISA_FMT_DEC", "hex": "ISA_FMT_HEX", "bin": "ISA_FMT_BIN"}

    def field_desc(self, f, cstruct, member_prefix=""):
        """Initializer of a struct isa_field_desc for a Field."""
        name = c_string(f.name)
        kind = self.KIND.get(f.type.kind, "ISA_K_UINT")
        if f.type.kind == "sint":
            kind = "ISA_K_SINT"
        role = "ISA_ROLE_LENGTH" if getattr(f, "role_length", False) else self.ROLE[f.role]
        fmt = self.FMT.get(f.format, "ISA_FMT_DEC")
        if not f.stored:
            return (f"{{{name}, {kind}, {role}, {f.width}, 0, {fmt}, 0, 1, ISA_NO_OFFSET, 0, "
                    f"ISA_NO_OFFSET, ISA_NO_OFFSET, {X.to_c(X.Num(f.value, 0))}, 0, 0}}")
        member = f"{member_prefix}{f.name}"
        elem = f"{member}[0]" if f.count > 1 else member
        width = 0 if f.type.kind == "struct" else f.width
        csize = f"sizeof((({cstruct} *)0)->{elem})"
        typ = f"&{self.desc(f.type.target)}" if f.type.kind == "struct" else "0"
        en = f.type.enum.c_name_fn if f.type.kind == "enum" else "0"
        return (f"{{{name}, {kind}, {role}, {width}, (uint8_t){csize}, {fmt}, {f.type.frac}, {f.count}, "
                f"offsetof({cstruct}, {member}), {csize}, ISA_NO_OFFSET, ISA_NO_OFFSET, 0, {typ}, {en}}}")

    def item_desc(self, it, cstruct):
        name = c_string(it.name)
        t = it.type.target
        csize = f"sizeof((({cstruct} *)0)->{it.name}{'[0]' if it.count is not None else ''})"
        has = f"offsetof({cstruct}, has_{it.name})" if it.present is not None else "ISA_NO_OFFSET"
        n = f"offsetof({cstruct}, n_{it.name})" if it.count is not None else "ISA_NO_OFFSET"
        count = it.max if it.count is not None else 1
        return (f"{{{name}, ISA_K_AGG, ISA_ROLE_FIELD, 0, 0, ISA_FMT_DEC, 0, {count}, offsetof({cstruct}, {it.name}), "
                f"{csize}, {has}, {n}, 0, &{self.desc(t)}, 0}}")


def generate(spec):
    g = CGen(spec)
    return {
        f"{spec.prefix}.h": g.render("spec.h.mako"),
        f"{spec.prefix}.c": g.render("spec.c.mako"),
    }


def registry(names):
    g = object.__new__(CGen)
    g.lookup = TemplateLookup(directories=[TEMPLATE_DIR], strict_undefined=True, input_encoding="utf-8")
    prefixes = [c_prefix(n) for n in names]
    tpl = g.lookup.get_template("registry.c.mako")
    return tpl.render(prefixes=prefixes).rstrip("\n") + "\n"
