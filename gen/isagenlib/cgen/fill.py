"""The assembler's <fill>s in C: what `isa as` writes into bits the text
leaves open, where the reference encoder writes something other than one
constant.

Each type that holds a <fill>, itself or in a struct it holds, gets
`P_asm_fill_T(v, keep, cookie)`: the fills of the structs inside it first
(items, alternatives, struct fields), then its own in document order.  A
fill that changes its field asks `keep(cookie)` whether the unit still
prints the same text (asm.c encodes, decodes and prints it); when not, the
field gets its old value back.  A value out of the field's range is not
tried.
"""

from ..model import Sequence, Struct, held_types
from . import cexpr as E
from .cexpr import Env
from .cwriter import Block
from .names import count_member, has_member


class Fills:
    def __init__(self, names, layout):
        self.names = names
        self.layout = layout
        self._reaches = {}

    def fn(self, t):
        return f"{self.names.prefix}_asm_fill_{t.name}"

    def reaches(self, t):
        """Whether t holds a <fill>, itself or in a struct it holds."""
        if id(t) not in self._reaches:
            self._reaches[id(t)] = False  # (types do not hold themselves; this only stops a walk)
            self._reaches[id(t)] = any(self.reaches(k) for k in kids(t)) or bool(getattr(t, "fills", None))
        return self._reaches[id(t)]

    def types(self, unit):
        """The types with a fill function, each after the ones it calls."""
        out, seen = [], set()

        def visit(t):
            if id(t) in seen or not self.reaches(t):
                return
            seen.add(id(t))
            for k in kids(t):
                visit(k)
            out.append(t)
        if unit is not None:
            visit(unit)
        return out

    def body(self, t):
        """Body of t's fill function: the structs it holds, then its own."""
        body = Block()
        if isinstance(t, Struct):
            for f in t.fields:
                if f.type.kind != "struct" or not self.reaches(f.type.target):
                    continue
                for i in range(f.count):
                    idx = f"[{i}]" if f.count > 1 else ""
                    body.line(f"{self.fn(f.type.target)}(&v->{f.name}{idx}, keep, cookie);")
            for fl in t.fills:
                self.fill(body, fl)
        elif isinstance(t, Sequence):
            for it in t.items:
                if not self.reaches(it.type.target):
                    continue
                call = f"{self.fn(it.type.target)}(&v->{it.name}{{}}, keep, cookie);"
                if it.count is not None:
                    b = body.sub(f"for (unsigned i = 0; i < v->{count_member(it)} && i < {it.max}; i++) {{")
                    b.line(call.format("[i]"))
                elif it.present is not None:
                    b = body.sub(f"if (v->{has_member(it)}) {{")
                    b.line(call.format(""))
                else:
                    body.line(call.format(""))
            for fl in t.fills:
                self.fill(body, fl)
        else:
            sw = body.sub("switch (v->variant) {")
            for a in t.alts:
                if self.reaches(a.type.target):
                    sw.line(f"case {a.index}:")
                    sw.line(f"   {self.fn(a.type.target)}(&v->u.{a.name}, keep, cookie);")
                    sw.line("   break;")
            sw.line("default:")
            sw.line("   break;")
        return body

    def fill(self, body, fl):
        """One <fill>: its own block (barrier: the lets it reads are
        computed there, after the fills before it changed what they read)."""
        env = Env(self.names)
        f = fl.target.ref.field
        lv, _ = E.lvalue(fl.target, env)
        b = body.sub(f"{{ /* {fl.field} */", barrier=True)
        inner = b.branch("if", E.compile(fl.when, env)) if fl.when is not None else b
        inner.stmt("int64_t fv = ", E.compile(fl.value, env))
        try_it = inner.sub(f"if (fv >= {E.c_int(f.min_value)} && fv <= {E.c_int(f.max_value)} && fv != (int64_t){lv}) {{")
        ctype = self.layout.ctype(f)
        try_it.line(f"{ctype} was = {lv};")
        try_it.line(f"{lv} = ({ctype})fv;")
        try_it.line("if (!keep(cookie))")
        try_it.line(f"   {lv} = was;")


def kids(t):
    """The types a unit of type t holds whose fills its fill applies (not
    those of a variant's fields)."""
    return held_types(t, variants=False)
