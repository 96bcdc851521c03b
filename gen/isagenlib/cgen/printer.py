"""Printers in C: display templates compiled to straight-line output calls.

`TemplateEmitter` is the template visitor of the C printer: one hook per
directive.  `display_chains` is the one place that says which <display>
prints a struct, a variant or a sequence (the validator walks the same
chains).  Operands become three static functions: `case` (which case
applies), `print`, and, in validator.py, `check`.
"""

import re

from .. import refs as R
from .. import template as T
from ..model import Sequence, Struct
from . import cexpr as E
from .cexpr import Atom, Call, Env
from .cwriter import Block
from .names import Names, c_string

LOOP_MAX = 1024  # iterations a {for} may run; guards against garbage counts


# ---------------------------------------------------------------- operands' C interface


def operand_params(names, o):
    """C parameters of an operand's functions (after `out` or the findings)."""
    ps = ["const struct isa_ctx *ctx"]
    if o.owner is not None:
        ps.append(f"const {names.sname(names.op_owner_type(o))} *v")
    for p in o.params:
        if p in o.param_types:
            ps.append(f"const {names.sname(names.spec.type_named(o.param_types[p]))} *{Names.param(p)}")
        else:
            ps.append(f"int64_t {Names.param(p)}")
    return ", ".join(ps)


def operand_call_args(names, o, arg_nodes, env):
    """C argument trees of a call of operand o (after `out` or the
    findings): ctx, the struct it is local to, then the arguments."""
    args = [Atom("ctx")]
    if o.owner is not None:
        args.append(Atom(env.self_c if env.self_ptr else f"&{env.self_c}"))
    for pname, a in zip(o.params, arg_nodes):
        if pname in o.param_types:
            args.append(Atom(E.agg_address(a.ref, env)))
        else:
            args.append(E.compile(a, env))
    return args


def own_args(o):
    """The arguments an operand's functions pass on to its case function."""
    return [Atom("ctx")] + ([Atom("v")] if o.owner is not None else []) + [Atom(Names.param(p)) for p in o.params]


# ---------------------------------------------------------------- display chains


def display_chains(t):
    """Which displays print t: [(variant or None, [Display])].  A variant
    with displays of its own prints with them instead of the struct's
    (entry None: the struct's, for every other variant)."""
    if isinstance(t, Struct):
        return [(None, t.displays)] + [(v, v.displays) for v in t.variants if v.displays]
    if isinstance(t, Sequence):
        return [(None, t.displays)]
    return []


def emit_displays(block, displays, env, body, fallback):
    """An if/else chain over <display when=...>, the default last: body(b,
    display parts) for each; fallback(b) when no display applies (None:
    nothing).  Returns whether anything was emitted."""
    chain = [(d.when, d.parts) for d in displays]
    whens = [(w, p) for w, p in chain if w is not None]
    default = next((p for w, p in chain if w is None), None)
    if not whens:
        if default is not None:
            body(block, default)
        elif fallback is not None:
            fallback(block)
        return
    branches = []
    for i, (when, parts) in enumerate(whens):
        b = block.branch("if" if i == 0 else "} else if", E.compile(when, env), tail=None)
        body(b, parts)
        branches.append(b)
    if default is not None or fallback is not None:
        b = block.sub("} else {", tail=None)
        if default is not None:
            body(b, default)
        else:
            fallback(b)
        branches.append(b)
    branches[-1].tail = "}"


def emit_variant_switch(block, t, chains, emit_chain, names):
    """A switch over the variants that print with displays of their own;
    the struct's chain for the others."""
    sw = block.sub("switch (v->variant) {")
    for v, displays in chains[1:]:
        case = sw.sub(f"case {names.vconst(t, v)}: {{")
        emit_chain(case, v, displays)
        case.line("break;")
    default = sw.sub("default: {")
    emit_chain(default, None, chains[0][1])
    default.line("break;")


# ---------------------------------------------------------------- templates


class TemplateEmitter(T.Visitor):
    """C statements that print a template into `out` (a struct isa_out *)."""

    def __init__(self, names, layout):
        self.names = names
        self.layout = layout
        self.counter = 0

    def visit(self, parts, block, env, out):
        buf = []
        for p in parts or ():
            if isinstance(p, T.Text):
                buf.append(p.text)
                continue
            self.flush(buf, block, out)
            self.part(p, block, env, out)
        self.flush(buf, block, out)

    @staticmethod
    def flush(buf, block, out):
        if buf:
            text = "".join(buf)  # its length is known here, so no strlen at run time
            block.line(f"isa_out_mem({out}, {c_string(text)}, {len(text.encode('utf-8'))});")
            buf.clear()

    def fresh(self, stem):
        self.counter += 1
        return f"{stem}_{self.counter}"

    def if_(self, p, block, env, out):
        branches = []
        for i, (cond, body) in enumerate(p.branches):
            b = block.branch("if" if i == 0 else "} else if", E.compile(cond, env), tail=None)
            self.visit(body, b, env, out)
            branches.append(b)
        if p.otherwise is not None:
            b = block.sub("} else {", tail=None)
            self.visit(p.otherwise, b, env, out)
            branches.append(b)
        branches[-1].tail = "}"

    def list_(self, p, block, env, out):
        first = self.fresh("first")
        b = block.sub("{")
        b.line(f"int {first} = 1;")
        for cond, body in p.items:
            if cond is None and prints_something(body):
                cond = True   # always there
            if cond is None:
                # there when it prints something: print it aside first
                tout = self.fresh("item")
                ib = b.sub("{")
                ib.line(f"struct isa_out {tout};")
                ib.line(f"isa_out_buffer(&{tout}, {tout}.block, sizeof {tout}.block);")
                self.visit(body, ib, env, f"&{tout}")
                got = ib.sub(f"if (isa_out_len(&{tout})) {{")
                got.line(f"if (!{first})")
                got.line(f"   isa_out_str({out}, {c_string(p.sep)});")
                got.line(f"{first} = 0;")
                got.line(f"isa_out_item({out}, &{tout});")
                continue
            ib = b.sub("{") if cond is True else b.branch("if", E.compile(cond, env))
            ib.line(f"if (!{first})")
            ib.line(f"   isa_out_str({out}, {c_string(p.sep)});")
            ib.line(f"{first} = 0;")
            self.visit(body, ib, env, out)
        b.line(f"(void){first};")

    def pad(self, p, block, env, out):
        start = self.fresh("pad")
        b = block.sub("{")
        b.line(f"size_t {start} = isa_out_len({out});")
        self.visit(p.body, b, env, out)
        b.stmt(f"isa_out_pad({out}, {start}, ", E.compile(p.width, env), ");")

    def for_(self, p, block, env, out):
        var = Names.loop_var(p.var)
        lo, hi = E.flat(E.compile(p.lo, env)), E.flat(E.compile(p.hi, env))
        lets = E.lets_in(E.compile(p.lo, env)) + E.lets_in(E.compile(p.hi, env))
        for let in lets:
            if let not in block.uses:
                block.uses.append(let)
        b = block.sub([f"for (int64_t {var} = {lo}, {var}_end = {hi};",
                       f"     {var} < {var}_end && {var} - {lo} < {LOOP_MAX}; {var}++) {{"])
        self.visit(p.body, b, env, out)

    def subst(self, p, block, env, out):
        node = p.node
        ref = getattr(node, "ref", None)
        n = self.names
        if node.type == "agg":
            if isinstance(ref, R.OperandCall):
                block.stmt("", Call(n.op_fn(ref.operand, "print"),
                                    [Atom(out)] + operand_call_args(n, ref.operand, ref.args, env)))
            elif isinstance(ref, R.UseValue):
                u = ref.use
                block.stmt("", Call(n.op_fn(u.operand, "print"), [Atom(out)] + operand_call_args(n, u.operand, u.args, env)))
            else:
                block.line(f"{n.fn(ref.target, 'write')}({E.agg_address(ref, env)}, {out}, ctx);")
            return
        val = E.compile(node, env)
        for stmt in self.format_calls(p, node, ref, val, out, env):
            block.stmt("", stmt)

    def format_calls(self, p, node, ref, val, out, env):
        """The output calls that print value `val` as the substitution p says."""
        fmt = p.fmt
        n = self.names
        field = R.field_of(ref) if isinstance(node, E.X.Path) else None
        if fmt is None:
            if node.type == "float":
                return [Call("isa_out_g", [Atom(out), E.Cast("double", val)])]
            if field is not None and field.enum is not None:
                return [Call(n.enum_write_fn(field.enum), [Atom(out), val])]
            if field is not None and field.type.kind == "float16":
                return [Call("isa_out_g", [Atom(out), Call("isa_half_to_double", [E.Cast("uint64_t", val)])])]
            if field is not None and field.type.kind in ("fixed", "sfixed"):
                return [Call("isa_out_g", [Atom(out),
                                           E.Infix("/", E.Cast("double", val), Atom(repr(float(1 << field.type.frac))))])]
            if field is not None and field.format == "hex":
                return [Call("isa_out_hex", [Atom(out), E.Cast("uint64_t", val)])]
            if field is not None and field.format == "bin":
                return [Call("isa_out_str", [Atom(out), Atom('"0b"')]),
                        Call("isa_out_bin", [Atom(out), E.Cast("uint64_t", val), Atom(str(field.width))])]
            return [Call("isa_out_int", [Atom(out), val])]
        if p.fmt_enum is not None:
            return [Call(n.enum_write_fn(p.fmt_enum), [Atom(out), val])]
        if fmt == "r":
            return [Call("isa_out_pyfloat", [Atom(out), E.Cast("double", val)])]
        conv, spec = fmt[-1], fmt[:-1]
        if conv == "b":
            digits = int(spec) if spec.strip("0") else 1
            return [Call("isa_out_bin", [Atom(out), E.Cast("uint64_t", val), Atom(str(digits))])]
        width = re.fullmatch(r"(0?)([1-9]\d?)?", spec)   # only a width, maybe zero-padded: no printf
        if conv in "di":
            if not spec:
                return [Call("isa_out_int", [Atom(out), val])]
            if width:
                return [Call("isa_out_int_w", [Atom(out), val, Atom(width.group(2) or "0"), Atom("1" if width.group(1)
                                                                                                    else "0")])]
            return [Call("isa_out_fmt", [Atom(out), Atom(f'"%{spec}lld"'), E.Cast("long long", val)])]
        if conv in "uxXo":
            if width:
                base = {"u": "10", "x": "16", "X": "16", "o": "8"}[conv]
                return [Call("isa_out_num_w", [Atom(out), E.Cast("uint64_t", val), Atom("0"), Atom(base),
                                               Atom("1" if conv == "X" else "0"), Atom(width.group(2) or "0"),
                                               Atom("1" if width.group(1) else "0")])]
            return [Call("isa_out_fmt", [Atom(out), Atom(f'"%{spec}ll{conv}"'), E.Cast("unsigned long long", val)])]
        if conv == "f" and not spec and isinstance(node, E.X.Call) and node.fn == "half":
            # exact and printf-free; the same text as printf("%f")
            return [Call("isa_out_half_f", [Atom(out), E.Cast("uint64_t", E.compile(node.args[0], env))])]
        if conv == "f" and not spec and node.type != "float" and field is not None and field.type.kind == "float16":
            return [Call("isa_out_half_f", [Atom(out), E.Cast("uint64_t", val)])]
        if conv in "fFeEgG":
            if node.type != "float" and field is not None and field.type.kind == "float16":
                val = Call("isa_half_to_double", [E.Cast("uint64_t", val)])
            # the common conversions without printf: %g, %f, %10.8f
            fixed = re.fullmatch(r"([1-9]\d?)?(?:\.(\d{1,2}))?", spec)
            if conv == "g" and not spec:
                return [Call("isa_out_g", [Atom(out), E.Cast("double", val)])]
            if conv == "f" and fixed:
                return [Call("isa_out_fixed", [Atom(out), E.Cast("double", val), Atom(fixed.group(1) or "0"),
                                               Atom(fixed.group(2) or "6")])]
            return [Call("isa_out_fmt", [Atom(out), Atom(f'"%{spec}{conv}"'), E.Cast("double", val)])]
        if conv == "c":
            return [Call("isa_out_fmt", [Atom(out), Atom(f'"%{spec}c"'), E.Cast("int", val)])]
        raise AssertionError(fmt)


def prints_something(parts, consts=None, calling=()):
    """True when template `parts` print at least one character whatever the
    values: then a list {item} is printed in place instead of aside.  Every
    number prints a digit and every operand prints one of its cases (or
    "<Op?>"); an enum prints its name, or its number when it has none; a
    {for} runs when its bounds are constants (`consts`: the parameters an
    operand call fixes) that say so."""
    consts = consts or {}

    def const(node):
        try:
            return E.X.evaluate(node, consts)
        except (E.X.NotConstant, TypeError, KeyError):
            return None

    for p in parts:
        if isinstance(p, T.Text) and p.text:
            return True
        if isinstance(p, T.Subst):
            ref = getattr(p.node, "ref", None)
            if isinstance(ref, (R.OperandCall, R.UseValue)):
                op, args = (ref.operand, ref.args) if isinstance(ref, R.OperandCall) else (ref.use.operand, ref.use.args)
                bound = {name: v for name, v in zip(op.params, map(const, args or [])) if v is not None}
                if op not in calling and all(prints_something(c.display, bound, calling + (op,)) for c in op.cases):
                    return True
            elif p.node.type != "agg":
                field = R.field_of(ref) if isinstance(p.node, E.X.Path) else None
                enum = p.fmt_enum or (field.enum if field is not None and p.fmt is None else None)
                if enum is None or all(v.display for v in enum.values):
                    return True
        if isinstance(p, T.If) and p.otherwise is not None:
            if all(prints_something(body, consts, calling) for body in [b for _, b in p.branches] + [p.otherwise]):
                return True
        if isinstance(p, T.For):
            lo, hi = const(p.lo), const(p.hi)
            if lo is not None and hi is not None and lo < hi and prints_something(p.body, consts, calling):
                return True
        if isinstance(p, T.Pad) and prints_something(p.body, consts, calling):
            return True
    return False


# ---------------------------------------------------------------- function bodies


class Printer:
    def __init__(self, names, layout):
        self.names = names
        self.layout = layout

    def print_body(self, t):
        """Body of T_print (a Block)."""
        n = self.names
        body = Block()
        env = Env(n)
        emitter = TemplateEmitter(n, self.layout)

        def dump(b):
            b.line(f"isa_dump(&{n.desc(t)}, v, out);")

        def chain(b, variant, displays):
            # a variant with displays of its own falls back on the struct's
            fallback = dump if variant is None else (lambda bb: chain(bb, None, t.displays))
            emit_displays(b, displays, env, lambda bb, parts: emitter.visit(parts, bb, env, "out"), fallback)

        if t.kind == "choice":
            # the chosen alternative prints itself
            sw = body.sub("switch (v->variant) {")
            for a in t.alts:
                sw.line(f"case {a.index}:")
                sw.line(f"   return {n.fn(a.type.target, 'write')}(&v->u.{a.name}, out, ctx);")
            sw.line("default:")
            sw.line("   isa_out_str(out, \"<no alternative>\");")
            sw.line("   break;")
            return body
        chains = display_chains(t)
        if len(chains) == 1:
            chain(body, None, chains[0][1])
        else:
            emit_variant_switch(body, t, chains, chain, n)
        return body

    def operand_case_body(self, o):
        body = Block()
        env = Env(self.names)
        for i, c in enumerate(o.cases):
            if c.when is None:
                body.line(f"return {i};")
                return body
            body.branch("if", E.compile(c.when, env)).line(f"return {i};")
        body.line(f"return {len(o.cases)};")
        return body

    def operand_print_body(self, o):
        n = self.names
        body = Block()
        env = Env(n)
        emitter = TemplateEmitter(n, self.layout)
        sw = body.sub([f"switch ({E.flat(Call(n.op_fn(o, 'case'), own_args(o)))}) {{"])
        for i, c in enumerate(o.cases):
            case = sw.sub(f"case {i}: {{")
            emitter.visit(c.display, case, env, "out")
            case.line("break;")
        sw.line("default:")
        sw.line(f"   isa_out_str(out, \"<{o.name}?>\");")
        sw.line("   break;")
        return body

    def prefix_body(self, parts):
        body = Block()
        TemplateEmitter(self.names, self.layout).visit(parts, body, Env(self.names), "out")
        return body
