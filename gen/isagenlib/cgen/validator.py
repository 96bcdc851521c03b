"""Validators in C: the findings `isa check` reports.

A type's validator reports what its members say by themselves (reserved
bits set, must-be bits, expected values), its <rule>s, nested structs and
items, and every undefined operand case that printing the unit would reach:
`CheckWalk` is the template visitor that follows a display's control flow
({if}, {list}, {for}) and emits only the operand checks.
"""

from .. import refs as R
from .. import template as T
from ..model import Sequence, Struct, Use
from . import cexpr as E
from .cexpr import Atom, Call, Env
from .cwriter import Block
from .names import Names, c_string, count_member, has_member
from .printer import LOOP_MAX, TemplateEmitter, display_chains, emit_displays, own_args, operand_call_args


class CheckWalk(T.Visitor):
    """Operand checks along a template's control flow.  `field_c` is the C
    expression naming the field a finding is about, or None to name it
    after the call's first argument.  Each hook adds to `block` and
    returns whether it added anything."""

    def __init__(self, validator, field_c):
        self.v = validator
        self.field_c = field_c

    def visit(self, parts, block, env):
        return any([self.part(p, block, env) for p in parts or ()])

    def text(self, p, block, env):
        return False

    def subst(self, p, block, env):
        ref = getattr(p.node, "ref", None)
        if not isinstance(ref, R.OperandCall) or not self.v.reaches_undefined(ref.operand):
            return False
        n = self.v.names
        name = self.field_c
        if name is None:
            first = ref.args[0] if ref.args else None
            name = c_string(first.text() if isinstance(first, E.X.Path) else ref.operand.name)
        block.stmt("", Call(n.op_fn(ref.operand, "check"), [Atom("f"), Atom("path"), Atom(name)]
                            + operand_call_args(n, ref.operand, ref.args, env)))
        return True

    def if_(self, p, block, env):
        trial = Block()
        branches, found = [], False
        for i, (cond, body) in enumerate(p.branches):
            b = trial.branch("if" if i == 0 else "} else if", E.compile(cond, env), tail=None)
            found |= self.visit(body, b, env)
            branches.append(b)
        if p.otherwise is not None:
            b = trial.sub("} else {", tail=None)
            found |= self.visit(p.otherwise, b, env)
            branches.append(b)
        if not found:
            return False
        branches[-1].tail = "}"
        block.items += trial.items
        block.uses += [x for x in trial.uses if x not in block.uses]
        return True

    def list_(self, p, block, env):
        found = False
        for cond, body in p.items:
            if cond is None:
                found |= self.visit(body, block, env)
                continue
            trial = Block()
            b = trial.branch("if", E.compile(cond, env))
            if self.visit(body, b, env):
                block.items += trial.items
                block.uses += [x for x in trial.uses if x not in block.uses]
                found = True
        return found

    def pad(self, p, block, env):
        return self.visit(p.body, block, env)

    def for_(self, p, block, env):
        var = Names.loop_var(p.var)
        lo, hi = E.compile(p.lo, env), E.compile(p.hi, env)
        trial = Block()
        b = trial.sub([f"for (int64_t {var} = {E.flat(lo)}, {var}_end = {E.flat(hi)};",
                       f"     {var} < {var}_end && {var} - {E.flat(lo)} < {LOOP_MAX}; {var}++) {{"])
        if not self.visit(p.body, b, env):
            return False
        block.uses += [x for x in E.lets_in(lo) + E.lets_in(hi) if x not in block.uses]
        block.items += trial.items
        return True


class Validator:
    def __init__(self, names, layout):
        self.names = names
        self.layout = layout
        self._reaches = {}
        self._has_checks = {}

    # ---- which types and operands have anything to report

    def reaches_undefined(self, o):
        """Whether printing operand o can reach an undefined case."""
        if o not in self._reaches:
            self._reaches[o] = False  # the checker rejects cycles; this only stops a walk
            walk = CheckWalk(self, "field")
            self._reaches[o] = bool(o.rules) or any(c.undefined for c in o.cases) or any(
                walk.visit(c.display, Block(), Env(self.names)) for c in o.cases)
        return self._reaches[o]

    def has_checks(self, t, seen=()):
        """Whether t's validator can report anything (else it is not called)."""
        if t.name in seen:
            return False
        seen = tuple(seen) + (t.name,)
        if isinstance(t, Struct):
            if t.rules or any(v.rules for v in t.variants) or not self.display_checks(t).empty():
                return True
            return any(self.member_has_checks(m, seen) for m in t.members + [m for v in t.variants for m in v.members])
        if isinstance(t, Sequence):
            return bool(t.rules or t.derives or not self.display_checks(t).empty()) or \
                any(self.has_checks(it.type.target, seen) for it in t.items)
        return bool(t.rules) or any(self.has_checks(a.type.target, seen) for a in t.alts)

    def member_has_checks(self, m, seen=()):
        if isinstance(m, Use):
            return m.operand is not None and self.reaches_undefined(m.operand)
        if m.role in ("reserved", "mbz", "mbo") or m.expect is not None:
            return True
        return m.type.kind == "struct" and self.has_checks(m.type.target, seen)

    def variant_has_checks(self, v):
        return bool(v.rules) or any(self.member_has_checks(m) for m in v.members)

    # ---- findings

    def report(self, block, sev, rule, field_c, message, env, path="path"):
        """Report a finding; its message is only rendered when someone
        listens (f->emit)."""
        quiet = block.sub("if (!f->emit) {", tail=None)
        quiet.line(f"isa_report(f, ctx, ISA_SEV_{sev.upper()}, {c_string(rule)}, {path}, {field_c}, 0);")
        loud = block.sub("} else {")
        loud.line("char msg[256];")
        loud.line("struct isa_out m;")
        loud.line("isa_out_buffer(&m, msg, sizeof msg);")
        TemplateEmitter(self.names, self.layout).visit(message, loud, env, "&m")
        loud.line("isa_out_flush(&m);")
        loud.line(f"isa_report(f, ctx, ISA_SEV_{sev.upper()}, {c_string(rule)}, {path}, {field_c}, msg);")

    def rules(self, block, rules, env, path="path", field_c="0"):
        for r in rules:
            cond = E.Prefix("!", E.compile(r.check, env))
            if r.when is not None:
                cond = E.Infix("&&", E.compile(r.when, env), cond)
            b = block.branch("if", cond)
            self.report(b, r.severity, r.name, c_string(r.field) if r.field else field_c, r.message, env, path)

    def members(self, block, members, base, env, path="path"):
        """Findings every member produces by itself: reserved bits, must-be
        bits, expected values, nested structs, operands."""
        for m in members:
            if isinstance(m, Use):
                o = m.operand
                if self.reaches_undefined(o):
                    block.stmt("", Call(self.names.op_fn(o, "check"), [Atom("f"), Atom(path), Atom(c_string(m.name))]
                                        + operand_call_args(self.names, o, m.args, env)))
                continue
            f = m
            if f.role == "fixed" or (f.type.kind == "struct" and not self.has_checks(f.type.target)):
                continue
            for i in range(f.count):
                idx = f"[{i}]" if f.count > 1 else ""
                c = f"{base}{f.name}{idx}"
                name = c_string(f"{f.name}{idx}")
                if f.type.kind == "struct":
                    b = block.sub("{")
                    b.line(f"const struct isa_path sub = {{{path}, {c_string(f.name)}, {i if f.count > 1 else -1}}};")
                    b.line(f"{self.names.fn(f.type.target, 'validate')}(&{c}, f, ctx, &sub);")
                    continue
                mask = (1 << f.width) - 1
                sev = f"ISA_SEV_{f.severity.upper()}"
                if f.role in ("reserved", "mbz"):
                    # a <reserved expect> is compared with what producers write, the others with 0
                    want = f.expect if f.role == "reserved" and f.expect is not None else 0
                    b = block.sub(f"if ((uint64_t){c} != 0x{want:x}u) {{")
                    b.line(f"isa_report_bits(f, ctx, {sev}, \"{f.role}\", {path}, {name}, (uint64_t){c}, 0x{want:x}u);")
                elif f.role == "mbo":
                    b = block.sub(f"if (((uint64_t){c} & 0x{mask:x}u) != 0x{mask:x}u) {{")
                    b.line(f"isa_report_bits(f, ctx, {sev}, \"mbo\", {path}, {name}, (uint64_t){c}, 0x{mask:x}u);")
                elif f.expect is not None:
                    b = block.sub(f"if ((int64_t){c} != {E.c_int(f.expect)}) {{")
                    b.line(f"isa_report_bits(f, ctx, ISA_SEV_{f.expect_severity.upper()}, \"expect\", {path}, {name}, "
                           f"(uint64_t){c}, 0x{f.expect & ((1 << 64) - 1):x}u);")

    # ---- displays: the undefined operand cases printing reaches

    def display_checks(self, t):
        """A block with the operand checks of whichever display prints t."""
        env = Env(self.names)
        walk = CheckWalk(self, None)
        chains = display_chains(t)
        body = Block()
        if not chains:
            return body

        def chain(b, variant, displays):
            fallback = None if variant is None else (lambda bb: chain(bb, None, t.displays))
            trial = Block()
            emit_displays(trial, displays, env, lambda bb, parts: walk.visit(parts, bb, env), fallback)
            if not trial_empty(trial):
                b.items += trial.items
                b.uses += [x for x in trial.uses if x not in b.uses]

        if len(chains) == 1:
            chain(body, None, chains[0][1])
            return body
        trial = Block()
        from .printer import emit_variant_switch
        emit_variant_switch(trial, t, chains, chain, self.names)
        if not trial_empty(trial):
            body.items += trial.items
            body.uses += trial.uses
        return body

    # ---- function bodies

    def validate_body(self, t):
        n = self.names
        env = Env(n)
        body = Block()
        if isinstance(t, Struct):
            self.members(body, t.members, "v->", env)
            if any(self.variant_has_checks(v) for v in t.variants):
                sw = body.sub("switch (v->variant) {")
                for v in t.variants:
                    if not self.variant_has_checks(v):
                        continue
                    case = sw.sub(f"case {n.vconst(t, v)}: {{")
                    vp = "path"
                    if v.path_named:
                        case.line(f"const struct isa_path vpath = {{path, {c_string(v.name)}, -1}};")
                        vp = "&vpath"
                    self.members(case, v.members, f"v->u.{v.name}.", env, vp)
                    self.rules(case, v.rules, env, vp)
                    case.line("break;")
                sw.line("default:")
                sw.line("   break;")
            self.rules(body, t.rules, env)
            body.items.append(self.display_checks(t))
            return body
        if isinstance(t, Sequence):
            for it in t.items:
                target = it.type.target
                if not self.has_checks(target):
                    continue
                if it.count is not None:
                    b = body.sub(f"for (unsigned i = 0; i < v->{count_member(it)} && i < {it.max}; i++) {{")
                    b.line(f"const struct isa_path sub = {{path, {c_string(it.name)}, (long)i}};")
                    b.line(f"{n.fn(target, 'validate')}(&v->{it.name}[i], f, ctx, &sub);")
                else:
                    b = body.sub(f"if (v->{has_member(it)}) {{" if it.present is not None else "{")
                    b.line(f"const struct isa_path sub = {{path, {c_string(it.name)}, -1}};")
                    b.line(f"{n.fn(target, 'validate')}(&v->{it.name}, f, ctx, &sub);")
            self.derives(body, t)
            self.rules(body, t.rules, env)
            body.items.append(self.display_checks(t))
            return body
        sw = body.sub("switch (v->variant) {")
        for a in t.alts:
            if not self.has_checks(a.type.target):
                continue
            sw.line(f"case {a.index}:")
            sw.line(f"   {n.fn(a.type.target, 'validate')}(&v->u.{a.name}, f, ctx, path);")
            sw.line("   break;")
        sw.line("default:")
        sw.line("   break;")
        self.rules(body, t.rules, env)
        return body

    def derives(self, body, seq):
        """A <derive>d field must hold what the content implies (the
        encoder writes that value; anything else does not round-trip)."""
        if not seq.derives:
            return
        b = body.sub("{")
        b.line(f"size_t size = {self.names.fn(seq, 'size_bits')}(v);")
        for d in seq.derives:
            db = b.sub("{")
            db.stmt("int64_t want = ", E.compile(d.value, Env(self.names, context={"size": "(int64_t)size"})))
            db.stmt("int64_t have = ", E.compile(d.target, Env(self.names, context={})))
            miss = db.sub("if (have != want) {")
            miss.line("char msg[160];")
            miss.line("snprintf(msg, sizeof msg, \"%lld, but the content makes it %lld\", (long long)have, (long long)want);")
            miss.line(f"isa_report(f, ctx, ISA_SEV_ERROR, \"derive\", path, {c_string(d.field)}, msg);")

    def operand_check_body(self, o):
        """Body of an operand's check: its rules, its undefined case, then
        what the chosen case prints."""
        n = self.names
        env = Env(n)
        body = Block()
        self.rules(body, o.rules, env, field_c="field")
        sw = body.sub([f"switch ({E.flat(Call(n.op_fn(o, 'case'), own_args(o)))}) {{"])
        walk = CheckWalk(self, "field")
        for i, c in enumerate(o.cases):
            case = Block(f"case {i}: {{")
            if c.undefined:
                msg = c.message if c.message else [T.Text(f"undefined encoding of operand {o.name}")]
                quiet = case.sub("if (!f->emit) {", tail=None)
                quiet.line("isa_report(f, ctx, ISA_SEV_ERROR, \"undefined-operand\", path, field, 0);")
                loud = case.sub("} else {")
                loud.line("char msg[256];")
                loud.line("struct isa_out m;")
                loud.line("isa_out_buffer(&m, msg, sizeof msg);")
                TemplateEmitter(n, self.layout).visit(msg, loud, env, "&m")
                loud.line("isa_out_flush(&m);")
                loud.line("isa_report(f, ctx, ISA_SEV_ERROR, \"undefined-operand\", path, field, msg);")
            found = walk.visit(c.display, case, env)
            if c.undefined or found:
                case.line("break;")
                sw.items.append(case)
        sw.line("default:")
        sw.line("   break;")
        return body


def trial_empty(block):
    """Whether a block built on trial holds no statement (only empty
    branches and switches)."""
    for i in block.items:
        if isinstance(i, Block):
            if not trial_empty(i):
                return False
        elif i.strip() and not i.strip().startswith(("break;", "default:")):
            return False
    return True
