"""Resolved expressions to C.

An expression is compiled into a small tree of C expressions (Atom, Call,
Infix, Cond, LetUse) that cwriter lays out within the line width.  How the
names of the resolved model read in C depends on the function the
expression lands in; `Env` says it: which C object the expression is about
(`v->`, `tmp.`), what $pos or $size are there, and whether the program
context `ctx` exists.  <let>s become LetUse nodes: the block that holds
the expression declares them as `const` locals (cwriter.place_lets).

Integers are int64_t, floating values double; every operator with a
corner case in C (division, shifts, overflow) goes through a helper of
runtime/include/isagen/core.h (isa_x_*) with the semantics expr.py defines.
"""

from dataclasses import dataclass, field as dc_field

from .. import expr as X
from .. import refs as R
from .names import Names, count_member, has_member

# ---------------------------------------------------------------- the C expression tree


@dataclass
class Atom:
    text: str


@dataclass
class Call:
    fn: str
    args: list


@dataclass
class Infix:
    op: str
    a: object
    b: object


@dataclass
class Cond:
    c: object
    a: object
    b: object


@dataclass
class Prefix:
    """A unary operator: (-x), (~x)."""
    op: str
    x: object


@dataclass
class Cast:
    """(type)x, x an atom or a parenthesised tree."""
    type: str
    x: object


@dataclass
class LetUse:
    """The value of a <let> computed in this function: its local."""
    let: object


ASSOCIATIVE = ("|", "&", "^", "&&", "||")


def flat(e):
    """One-line C text of a tree."""
    if isinstance(e, Atom):
        return e.text
    if isinstance(e, LetUse):
        return Names.let_local(e.let)
    if isinstance(e, Call):
        return f"{e.fn}({', '.join(flat(a) for a in e.args)})"
    if isinstance(e, Infix):
        # a chain of one associative operator needs no inner parentheses
        a = flat(e.a)
        if isinstance(e.a, Infix) and e.a.op == e.op and e.op in ASSOCIATIVE:
            a = a[1:-1]
        return f"({a} {e.op} {flat(e.b)})"
    if isinstance(e, Cond):
        return f"({flat(e.c)} ? {flat(e.a)} : {flat(e.b)})"
    if isinstance(e, Cast):
        return f"({e.type}){flat(e.x)}"
    if isinstance(e, Prefix):
        return f"({e.op}{flat(e.x)})"
    raise TypeError(e)


def lets_in(e, out=None):
    """The lets a tree uses directly."""
    out = [] if out is None else out
    if isinstance(e, LetUse):
        if e.let not in out:
            out.append(e.let)
    elif isinstance(e, Call):
        for a in e.args:
            lets_in(a, out)
    elif isinstance(e, (Infix, Cond)):
        for a in ((e.a, e.b) if isinstance(e, Infix) else (e.c, e.a, e.b)):
            lets_in(a, out)
    elif isinstance(e, (Cast, Prefix)):
        lets_in(e.x, out)
    return out


def c_int(v):
    """An int64_t literal."""
    if v < 0:
        return f"(-INT64_C({-v}))" if v != -(1 << 63) else "INT64_MIN"
    if v > 0x7fffffffffffffff:
        return f"(int64_t)UINT64_C({v})"
    return f"INT64_C({v})"


ZERO = Atom("INT64_C(0)")

# ---------------------------------------------------------------- where names land


@dataclass
class Env:
    """How resolved names read in one generated function.

    self_c       C expression of the object the expression is about
    self_ptr     whether self_c is a pointer (v) or an object (tmp)
    context      $-names of the context and their C ($pos in a sequence
                 decoder); None: the unit's ctx is there (printers...)
    lets         whether <let>s of the expression's scope are locals of the
                 function (else they are computed inline: a let read on
                 another instance)
    """
    names: Names
    self_c: str = "v"
    self_ptr: bool = True
    context: dict = None
    lets: bool = True
    params: dict = dc_field(default_factory=dict)  # struct param name -> C pointer

    def rooted(self, self_c, self_ptr):
        """The same function, with another object as `self` (a let read on
        a nested instance): its lets are computed inline."""
        return Env(self.names, self_c, self_ptr, self.context, False, self.params)


def member(base, ptr, name):
    return f"{base}->{name}" if ptr else f"{base}.{name}"


def access_c(acc, env):
    """(C expression, whether it is a pointer, [guards]) of an access path."""
    guards = []
    if acc.root.kind == "self":
        base, ptr = env.self_c, env.self_ptr
    elif acc.root.kind in ("prev", "next"):
        unit = env.names.spec.stream.unit
        guards.append(f"ctx->{acc.root.kind}")
        base, ptr = f"((const {env.names.sname(unit)} *)ctx->{acc.root.kind})", True
    elif acc.root.kind == "at":
        # the program's unit at that byte offset (NULL where none starts: the value is 0)
        unit = env.names.spec.stream.unit
        at = f"((const {env.names.sname(unit)} *)isa_ctx_unit_at(ctx, {flat(compile(acc.root.offset, env))}))"
        guards.append(at)
        base, ptr = at, True
    else:
        base, ptr = env.params.get(acc.root.param, Names.param(acc.root.param)), True
    for s in acc.steps:
        if isinstance(s, R.Member):
            base, ptr = member(base, ptr, s.field.name), False
        elif isinstance(s, R.InVariant):
            base, ptr = f"{member(base, ptr, 'u')}.{s.variant.name}", False
        elif isinstance(s, R.Element):
            if s.constant:
                base = f"{base}[{s.index.value}]"
            else:
                ic = flat(compile(s.index, env))
                guards.append(f"(uint64_t)({ic}) < {s.count}u")
                base = f"{base}[(size_t)({ic})]"
        elif isinstance(s, R.ItemOf):
            base, ptr = member(base, ptr, s.item.name), False
        elif isinstance(s, R.ItemElement):
            ic = flat(compile(s.index, env))
            guards.append(f"(uint64_t)({ic}) < (uint64_t){member(base, ptr, count_member(s.item))}")
            base, ptr = f"{member(base, ptr, s.item.name)}[(size_t)({ic})]", False
        elif isinstance(s, R.AltOf):
            guards.append(f"(uint64_t){member(base, ptr, 'variant')} == {s.alt.index}u")
            base, ptr = f"{member(base, ptr, 'u')}.{s.alt.name}", False
    return base, ptr, guards


def guarded(value, guards):
    """value where every guard holds, else 0."""
    if not guards:
        return value
    return Cond(Atom(" && ".join(f"({g})" if len(guards) > 1 else g for g in guards)), value, ZERO)


def lvalue(node, env):
    """The C lvalue a settable field path names, and the guard under which
    it is the live member (a choice's alternative), or None."""
    base, ptr, guards = access_c(node.ref.access, env)
    return (f"(*{base})" if ptr else base), (" && ".join(guards) if guards else None)


def agg_address(ref, env):
    """&object of a struct, item or parameter value (a struct argument)."""
    base, ptr, _ = access_c(ref.access, env)
    return base if ptr else f"&{base}"


# ---------------------------------------------------------------- compiling


COMPARE = {"==": "isa_x_eq", "!=": "isa_x_ne", "<": "isa_x_lt", "<=": "isa_x_le", ">": "isa_x_gt", ">=": "isa_x_ge"}
ARITH = {"+": "isa_x_add", "-": "isa_x_sub", "*": "isa_x_mul", "/": "isa_x_div", "%": "isa_x_mod",
         "<<": "isa_x_shl", ">>": "isa_x_shr"}
HELPERS = {"bit": "isa_x_bit", "bits": "isa_x_bits", "popcount": "isa_x_popcount", "sext": "isa_x_sext",
           "min": "isa_x_min", "max": "isa_x_max", "abs": "isa_x_abs",
           "bitmask": "isa_x_bitmask", "half": "isa_half_to_double", "f32": "isa_f32_to_double",
           "f64": "isa_f64_to_double"}


def value_c(ref, env):
    """A resolved name's value."""
    n = env.names
    if isinstance(ref, R.FieldValue):
        base, _, guards = access_c(ref.access, env)
        if ref.prop is not None:
            v = Cast("int64_t", Atom(f"{n.prop_fn(ref.field.type.enum, ref.prop)}((uint32_t){base})"))
        else:
            v = Atom(f"(int64_t){base}")
        return guarded(v, guards)
    if isinstance(ref, R.FixedValue):
        return Atom(c_int(ref.value))
    if isinstance(ref, R.LetValue):
        if ref.on is None and env.lets:
            return LetUse(ref.let)
        if ref.on is None:
            return compile(ref.let.value, env)
        base, ptr, guards = access_c(ref.on, env)
        return guarded(compile(ref.let.value, env.rooted(base, ptr)), guards)
    if isinstance(ref, R.ContextValue):
        if env.context is not None:
            return Atom(env.context[ref.name])
        return Atom(f"(int64_t)ctx->{ref.name}")
    if isinstance(ref, R.StateValue):
        s = ref.state
        if ref.index is not None and s.count == 0:
            return Call("isa_ctx_state_grown", [Atom("ctx"), Atom(str(s.index)), compile(ref.index, env),
                                                Atom(f"INT64_C({s.init})")])
        if ref.index is not None:
            return Call("isa_ctx_state_at", [Atom("ctx"), Atom(str(s.index)), Atom(str(s.count)),
                                             compile(ref.index, env), Atom(f"INT64_C({s.init})")])
        return Call("isa_ctx_state", [Atom("ctx"), Atom(str(s.index)), Atom(f"INT64_C({s.init})")])
    if isinstance(ref, R.OptionValue):
        o = ref.option
        v = Call("isa_ctx_option", [Atom("ctx"), Atom(str(o.index)), Atom(f"INT64_C({o.default})")])
        if ref.prop is not None:
            return Cast("int64_t", Call(n.prop_fn(o.enum, ref.prop), [Cast("uint32_t", v)]))
        return v
    if isinstance(ref, R.LoopValue):
        return Atom(f"(int64_t){Names.loop_var(ref.name)}")
    if isinstance(ref, R.ParamValue):
        return Atom(Names.param(ref.name))
    if isinstance(ref, R.ItemPresent):
        it = ref.item
        n = member(env.self_c, env.self_ptr, count_member(it))
        if ref.count:
            return Atom(f"(int64_t){n}")
        if it.present is None and it.count is None:
            return Atom("INT64_C(1)")
        if it.count is not None:
            return Atom(f"(int64_t)({n} != 0)")
        return Atom(f"(int64_t){member(env.self_c, env.self_ptr, has_member(it))}")
    if isinstance(ref, R.AltPresent):
        return Call("isa_x_b", [Atom(f"(uint64_t){member(env.self_c, env.self_ptr, 'variant')} == {ref.alt.index}u")])
    raise TypeError(ref)


def compile(node, env):
    """The C tree of a checked expression: an int64_t or double value."""
    if isinstance(node, X.Num):
        return Atom(c_int(node.value))
    if isinstance(node, (X.Path, X.Var)):
        return value_c(node.ref, env)
    if isinstance(node, X.EnumConst):
        return Atom(f"INT64_C({node.value})")
    if isinstance(node, X.Unary):
        a = compile(node.arg, env)
        if node.op == "-":
            return Prefix("-", a) if node.type == "float" else Call("isa_x_neg", [a])
        if node.op == "!":
            if node.arg.type == "float":
                return Call("isa_x_b", [Infix("==", a, Atom("0"))])
            return Call("isa_x_lnot", [a])
        return Prefix("~", a)
    if isinstance(node, X.Binary):
        a, b = compile(node.a, env), compile(node.b, env)
        floaty = "float" in (node.a.type, node.b.type)
        if node.op in ("&&", "||"):
            if floaty:
                return Call("isa_x_b", [Infix(node.op, Infix("!=", a, Atom("0")), Infix("!=", b, Atom("0")))])
            return Call("isa_x_land" if node.op == "&&" else "isa_x_lor", [a, b])
        if node.op in COMPARE:
            if floaty:
                return Call("isa_x_b", [Infix(node.op, a, b)])
            return Call(COMPARE[node.op], [a, b])
        if node.type == "float":
            return Infix(node.op, Cast("double", a), Cast("double", b))
        if node.op in ARITH:
            return Call(ARITH[node.op], [a, b])
        return Infix(node.op, a, b)
    if isinstance(node, X.Cond):
        a, b = compile(node.a, env), compile(node.b, env)
        if node.type == "float":
            a, b = Cast("double", a), Cast("double", b)
        c = compile(node.c, env)
        cond = Infix("!=", c, Atom("0")) if node.c.type == "float" else Call("isa_x_truth", [c])
        return Cond(cond, a, b)
    if isinstance(node, X.Call):
        if node.fn in ("half", "f32", "f64"):
            return Call(HELPERS[node.fn], [Cast("uint64_t", compile(node.args[0], env))])
        if node.fn == "named":
            f = R.field_of(node.args[0].ref)
            return Call(env.names.enum_named_fn(f.enum), [Cast("uint32_t", compile(node.args[0], env))])
        if node.fn in ("present", "count"):
            return value_c(node.ref, env)
        if node.fn == "abs" and node.type == "float":
            return Call("fabs", [Cast("double", compile(node.args[0], env))])
        return Call(HELPERS[node.fn], [compile(a, env) for a in node.args])
    raise TypeError(node)


def to_c(node, env):
    """One-line C text of a checked expression."""
    return flat(compile(node, env))
