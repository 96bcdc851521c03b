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
RUN_MAX = 512    # ISA_OUT_RUN: the most one run of output writes
INT_MAX_BYTES = 20  # isa_put_int: "-9223372036854775808"
# a number's output call -> its run version, and the most it writes
# (isa_put_int_w and isa_put_num_w: that, or the width if larger)
NUMBER_PUTS = {
    "isa_out_int": ("isa_put_int", INT_MAX_BYTES),
    "isa_out_int_w": ("isa_put_int_w", 24),
    "isa_out_num_w": ("isa_put_num_w", 24),
    "isa_out_half_f": ("isa_put_half_f", 16),
    "isa_out_g": ("isa_put_g", 16),
}


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
        self.enum_puts = None
        self.op_max = {}  # id(operand) -> the most it writes into a run, or None

    def visit(self, parts, block, env, out):
        """Statements printing `parts`.  Consecutive parts that can go into
        one run (put_max) are written through a local pointer between
        isa_out_run_begin and isa_out_run_end, the rest token by token."""
        parts = list(T.spliced(parts or ()))
        buf = []
        i = 0
        while i < len(parts):
            run, total, j = [], 0, i
            while j < len(parts):
                m = self.put_max(parts[j], env)
                if m is None or total + m > RUN_MAX:
                    break
                run.append(parts[j])
                total += m
                j += 1
            if self.worth_a_run(run):
                self.flush(buf, block, out)
                self.emit_run(run, block, env, out)
                i = j
                continue
            p = parts[i]
            i += 1
            if isinstance(p, T.Text):
                buf.append(p.text)
                continue
            self.flush(buf, block, out)
            self.part(p, block, env, out)
        self.flush(buf, block, out)

    # ---- runs: several tokens through one pointer (isa_out_run_begin)

    @staticmethod
    def worth_a_run(run):
        """A run costs a begin and an end: worth it for two writes or more
        (adjacent texts are one), or an {if} or {for} of them."""
        writes = 0
        for k, p in enumerate(run):
            if isinstance(p, (T.If, T.For)):
                return True
            if not (isinstance(p, T.Text) and k and isinstance(run[k - 1], T.Text)):
                writes += 1
        return writes >= 2

    def put_value(self, p, env):
        """(C function, most bytes) that writes substitution p into a run,
        or None when it prints through the sink (an operand, a float...)."""
        from . import Gen
        node = p.node
        if node.type == "agg":
            ref = getattr(node, "ref", None)
            op = ref.operand if isinstance(ref, R.OperandCall) else ref.use.operand if isinstance(ref, R.UseValue) else None
            most = self.operand_put_max(op) if op is not None else None
            return None if most is None else (self.names.op_fn(op, "put"), most)
        calls = self.format_calls(p, node, getattr(node, "ref", None), Atom("v"), "out", env)
        if len(calls) != 1:
            return None
        fn, args = calls[0].fn, calls[0].args
        if fn in NUMBER_PUTS:
            put, most = NUMBER_PUTS[fn]
            if fn == "isa_out_num_w" and int(args[3].text) < 8:
                most = 65  # binary: 64 digits and a sign
            if fn in ("isa_out_int_w", "isa_out_num_w"):  # as wide as asked, up to 64
                most = max(most, min(int(args[2 if fn == "isa_out_int_w" else 5].text), 64))
            return put, most
        if self.enum_puts is None:  # write function -> (put function, most bytes)
            self.enum_puts = {}
            for e in self.names.spec.enums:
                most = Gen.enum_put_most(e)
                if most is not None:
                    self.enum_puts[self.names.enum_write_fn(e)] = (self.names.enum_put_fn(e), most)
        return self.enum_puts.get(fn)

    def put_max(self, p, env):
        """The most bytes part p writes when it can be part of a run, else
        None."""
        if isinstance(p, T.Text):
            return len(p.text.encode("utf-8"))
        if isinstance(p, T.Subst):
            put = self.put_value(p, env)
            return put[1] if put else None
        if isinstance(p, T.If):
            bodies = [b for _, b in p.branches] + ([p.otherwise] if p.otherwise is not None else [])
            sizes = [self.parts_max(b, env) for b in bodies]
            return None if None in sizes else max(sizes, default=0)
        if isinstance(p, T.For):
            try:
                lo, hi = E.X.evaluate(p.lo, {}), E.X.evaluate(p.hi, {})
            except (E.X.NotConstant, TypeError, KeyError):
                return None
            body = self.parts_max(p.body, env)
            return None if body is None else max(0, min(hi - lo, LOOP_MAX)) * body
        return None

    def operand_put_max(self, o):
        """The most bytes operand o writes when each of its cases can be
        written into a run (then it has a `put` function), else None."""
        if id(o) in self.op_max:
            return self.op_max[id(o)]  # None while being worked out: a cycle goes through the sink
        self.op_max[id(o)] = None
        env = Env(self.names)
        sizes = [self.parts_max(c.display, env) for c in o.cases] + [len(f"<{o.name}?>")]
        most = None if None in sizes or max(sizes) > RUN_MAX else max(sizes)
        self.op_max[id(o)] = most
        return most

    def parts_max(self, parts, env):
        total = 0
        for p in T.spliced(parts or ()):
            m = self.put_max(p, env)
            if m is None:
                return None
            total += m
            if total > RUN_MAX:
                return None
        return total

    def emit_run(self, run, block, env, out):
        b = block.sub("{")
        b.line(f"char *const run_s = isa_out_run_begin({out}, {self.parts_max(run, env)});")
        b.line("char *run_p = run_s;")
        self.put_parts(run, b, env)
        b.line(f"isa_out_run_end({out}, run_s, run_p);")

    def put_parts(self, parts, block, env):
        buf = []
        for p in T.spliced(parts or ()):
            if isinstance(p, T.Text):
                buf.append(p.text)
                continue
            self.put_text(buf, block)
            if isinstance(p, T.Subst):
                fn, _ = self.put_value(p, env)
                ref = getattr(p.node, "ref", None)
                if isinstance(ref, (R.OperandCall, R.UseValue)):
                    op, args = (ref.operand, ref.args) if isinstance(ref, R.OperandCall) else (ref.use.operand, ref.use.args)
                    block.stmt("run_p = ", Call(fn, [Atom("run_p")] + operand_call_args(self.names, op, args, env)))
                else:  # the sink's call, into the run
                    call = self.format_calls(p, p.node, ref, E.compile(p.node, env), "run_p", env)[0]
                    block.stmt("run_p = ", Call(fn, call.args))
            elif isinstance(p, T.If):
                branches = []
                for k, (cond, body) in enumerate(p.branches):
                    bb = block.branch("if" if k == 0 else "} else if", E.compile(cond, env), tail=None)
                    self.put_parts(body, bb, env)
                    branches.append(bb)
                if p.otherwise is not None:
                    bb = block.sub("} else {", tail=None)
                    self.put_parts(p.otherwise, bb, env)
                    branches.append(bb)
                branches[-1].tail = "}"
            elif isinstance(p, T.For):
                self.put_parts(p.body, self.for_block(p, block, env), env)
        self.put_text(buf, block)

    @staticmethod
    def put_text(buf, block):
        if buf:
            text = "".join(buf)
            block.line(f"run_p = isa_put_mem(run_p, {c_string(text)}, {len(text.encode('utf-8'))});")
            buf.clear()

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
        self.visit(p.body, self.for_block(p, block, env), env, out)

    @staticmethod
    def for_block(p, block, env):
        """The C loop of {for} p, its body block to fill."""
        var = Names.loop_var(p.var)
        lo, hi = E.flat(E.compile(p.lo, env)), E.flat(E.compile(p.hi, env))
        lets = E.lets_in(E.compile(p.lo, env)) + E.lets_in(E.compile(p.hi, env))
        for let in lets:
            if let not in block.uses:
                block.uses.append(let)
        return block.sub([f"for (int64_t {var} = {lo}, {var}_end = {hi};",
                          f"     {var} < {var}_end && {var} - {lo} < {LOOP_MAX}; {var}++) {{"])

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

    for p in T.spliced(parts):
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
        self.put_sizes = None  # a TemplateEmitter: its operand_put_max, worked out once

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

    def operand_puts(self, o):
        """Whether operand o has a `put` function: every case of it writes
        into a run (then its print is that put between a run's begin and
        end, and other displays put it within their own runs)."""
        if self.put_sizes is None:
            self.put_sizes = TemplateEmitter(self.names, self.layout)
        return self.put_sizes.operand_put_max(o) is not None

    def operand_put_body(self, o):
        n = self.names
        body = Block()
        env = Env(n)
        emitter = TemplateEmitter(n, self.layout)
        sw = body.sub([f"switch ({E.flat(Call(n.op_fn(o, 'case'), own_args(o)))}) {{"])
        for i, c in enumerate(o.cases):
            case = sw.sub(f"case {i}: {{")
            emitter.put_parts(c.display, case, env)
            case.line("break;")
        sw.line("default:")
        text = f"<{o.name}?>"
        sw.line(f"   run_p = isa_put_mem(run_p, {c_string(text)}, {len(text)});")
        sw.line("   break;")
        body.line("return run_p;")
        return body

    def operand_print_body(self, o):
        n = self.names
        body = Block()
        if self.operand_puts(o):
            body.line(f"char *const run_s = isa_out_run_begin(out, {self.put_sizes.operand_put_max(o)});")
            body.stmt("isa_out_run_end(out, run_s, ", Call(n.op_fn(o, "put"), [Atom("run_s")] + own_args(o)), ");")
            return body
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
