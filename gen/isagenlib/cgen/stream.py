"""The stream in C: how a program is walked and printed as a listing.

Generated per spec: the stop rule, the step that computes the <state>s
after each unit, the link function that sets what the stream's <derive>s
compute from the neighbouring units, the listing prefix, the decoder of
a first="true" alternative, and the tables of states and options.
"""

from . import cexpr as E
from .cexpr import Env
from .cwriter import Block, designated, table
from .names import c_string
from .printer import Printer


class StreamCode:
    def __init__(self, names, layout):
        self.names = names
        self.layout = layout
        self.spec = names.spec
        self.st = names.spec.stream

    def unit_decl(self, const=True):
        unit = self.names.sname(self.st.unit)
        q = "const " if const else ""
        return f"{q}{unit} *v = ({q}{unit} *)unit;"

    def stop_body(self):
        b = Block()
        b.prelude.append(self.unit_decl())
        b.line("(void)ctx;")
        b.stmt("return ", E.Infix("!=", E.compile(self.st.stop, Env(self.names)), E.Atom("0")))
        return b

    def link_body(self):
        """The stream's <derive>s: fields the program encoder computes from
        the neighbouring units."""
        b = Block()
        b.prelude.append(self.unit_decl(const=False))
        env = Env(self.names)
        for d in self.st.derives:
            f = d.target.ref.field
            lv, guard = E.lvalue(d.target, env)
            one = b.sub(f"if ({guard}) {{" if guard else "{")
            one.stmt("int64_t dv = ", E.compile(d.value, env))
            one.line(f"if (dv < {f.min_value} || dv > {f.max_value})")
            one.line(f"   return isa_fail_range(err, {c_string(self.st.unit.name)}, {c_string(d.field)}, dv, "
                     f"{f.min_value}, {f.max_value});")
            one.line(f"{lv} = ({self.layout.ctype(f)})dv;")
        b.line("return ISA_OK;")
        return b

    def step_body(self):
        """Each single <state>'s value after a unit, and the elements an
        array's <set>s write (later ones win); everything is read from the
        states as before the unit (ctx)."""
        env = Env(self.names)
        b = Block()
        b.prelude.append(self.unit_decl())
        b.line("unsigned n = 0;")
        b.line("(void)v;")
        for s in self.st.states:
            if s.count == 1:
                b.line(f"w[n].array = 0; /* {s.name} */")
                b.line(f"w[n].index = {s.index};")
                b.stmt("w[n++].value = ", E.compile(s.next, env))
                continue
            for k, e in enumerate(s.sets):
                one = b.sub(f"{{ /* {s.name}: <set> {k + 1} */")
                one.stmt("int64_t i = ", E.compile(e.index, env))
                # an array without a count grows up to one element per byte of the program
                bound = f"(uint64_t)i < {s.count}u" if s.count else "(uint64_t)i < ctx->program_size"
                cond = E.Atom(f"i >= 0 && {bound}")
                if e.when is not None:
                    cond = E.Infix("&&", E.compile(e.when, env), cond)
                hit = one.branch("if", cond)
                if s.count:
                    hit.line("w[n].array = 0;")
                    hit.line(f"w[n].index = {s.index}u + (uint64_t)i;")
                else:
                    hit.line(f"w[n].array = {s.index + 1};")
                    hit.line("w[n].index = (uint64_t)i;")
                hit.stmt("w[n++].value = ", E.compile(e.value, env))
        b.line("return n;")
        return b

    def prefix_body(self):
        return Printer(self.names, self.layout).prefix_body(self.st.prefix)

    def firsts(self):
        return [a for a in getattr(self.st.unit, "alts", ()) if a.first]

    def state_decls(self):
        return table(f"static const struct isa_state_decl {self.names.spec_fn('state_decls')}[{len(self.st.states)}]",
                     [designated([("name", c_string(s.name)), ("index", str(s.index)), ("count", str(s.count)),
                                  ("init", f"INT64_C({s.init})")]) for s in self.st.states])

    def options(self):
        p = self.names.prefix
        return table(f"static const struct isa_option {p}_options[]", [designated([
            ("name", c_string(o.name)), ("def", f"INT64_C({o.default})"), ("n_values", str(len(o.enum.values))),
            ("value_names", self.names.option_table(o, "names")), ("values", self.names.option_table(o, "values"))])
            for o in self.st.options])

    def max_state_writes(self):
        return sum(1 if s.count == 1 else len(s.sets) for s in self.st.states)

    def n_state_values(self):
        return sum(s.count for s in self.st.states)

    def n_grown(self):
        return sum(s.count == 0 for s in self.st.states)

    def max_unit_bytes(self):
        """The most bytes one unit can take (0 when unbounded: a sequence
        with a size expression or repeated items)."""
        from ..model import max_bits
        return (max_bits(self.st.unit) + 7) // 8

