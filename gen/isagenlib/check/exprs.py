"""Expression checks: every expression and template, in the scope it is
written in.

Checking an expression resolves it: its names are bound to what they mean
(resolve.py, refs.py), once, and the types computed.  Templates are walked
with the shared template visitor.  Resolved here: Derive.target, and the
format enum of a substitution (Subst.fmt_enum).
"""

from .. import expr as X
from .. import refs
from .. import template as T
from ..resolve import CONTEXT_VARS, DERIVING, NO_CONTEXT
from ..model import Struct, held_types


class ExprChecker:
    def __init__(self, spec, diags, resolver):
        self.spec = spec
        self.diags = diags
        self.resolver = resolver
        self.cycles_reported = set()

    def error(self, loc, msg):
        self.diags.error(loc, msg)

    def fresh(self, e):
        """Whether ExprError `e` is news: not a cascade from a broken <let>
        and not a <let> cycle already reported."""
        if e.cascade or e.cycle in self.cycles_reported:
            return False
        if e.cycle:
            self.cycles_reported.add(e.cycle)
        return True

    def report_let(self, let, e):
        """The resolver's report of what is wrong inside a <let>."""
        if self.fresh(e):
            self.error(let.value_loc.shifted(e.pos), f"in <let> '{let.name}': {e.message}")

    # ---------------------------------------------------------------- one expression

    def expr(self, node, scope, loc, what, want="int"):
        if node is None:
            return False
        try:
            X.check(node, scope)
        except X.ExprError as e:
            if self.fresh(e):
                self.error(loc.shifted(e.pos), f"in {what}: {e.message}")
            return False
        if want == "int" and node.type != "int":
            self.error(loc.shifted(node.pos), f"in {what}: the value must be an integer")
            return False
        return True

    def template(self, parts, scope, loc, what):
        TemplateChecker(self, loc, what).visit(parts, scope)

    # ---------------------------------------------------------------- the spec

    def run(self):
        for t in self.spec.types:
            if isinstance(t, Struct):
                self.struct(t)
        for t in self.spec.types:
            if t.kind == "sequence":
                self.sequence(t)
            elif t.kind == "choice":
                self.choice(t)
        for o in self.spec.operands:
            self.operand(o)
        if self.spec.stream is not None:
            self.stream()
        self.prefer_places()
        self.fill_places()

    def prefer_places(self):
        """A <prefer> ranks whole units: the assembler reads the unit's own,
        or (a choice) the chosen alternative's; anywhere else it ranks
        nothing."""
        unit = self.spec.stream.unit if self.spec.stream is not None else None
        ranked = [unit] + ([a.type.target for a in unit.alts] if getattr(unit, "kind", None) == "choice" else [])
        for t in self.spec.types:
            if getattr(t, "prefer", None) is not None and not any(t is r for r in ranked):
                self.error(t.prefer.loc, f"<prefer> in '{t.name}' ranks nothing: isa as reads the <prefer> of the "
                                         "stream's unit, or of the alternative a choice unit takes")

    def fill_places(self):
        """The assembler applies the <fill>s of a unit and the types it
        holds: its items and alternatives, and their struct fields (not
        those of a variant's fields)."""
        unit = self.spec.stream.unit if self.spec.stream is not None else None
        reached, todo = set(), [unit] if unit is not None else []
        while todo:
            t = todo.pop()
            if t is None or id(t) in reached:
                continue
            reached.add(id(t))
            todo += held_types(t, variants=False)
        for t in self.spec.types:
            for fl in getattr(t, "fills", ()):
                if id(t) not in reached:
                    self.error(fl.loc, f"<fill> in '{t.name}' is never applied: isa as fills a unit and the types it "
                                       "holds (items, alternatives and struct fields, not a variant's)")
                    break

    def lets(self, lets, names):
        """A scope's <let>s: each resolved in its own scope (a problem in
        one is reported there, once); `names` are what a let may not be
        called."""
        names = dict(names)
        for lt in lets:
            if lt.name in names:
                self.error(lt.loc, f"<let> '{lt.name}' has the name of a field")
            names[lt.name] = lt
            try:
                self.resolver.let_value(lt, 0)
            except X.ExprError:
                pass  # reported at the let

    def rules_and_displays(self, rules, displays, scope):
        for r in rules:
            self.expr(r.check, scope, r.check_loc, "check")
            if r.when is not None:
                self.expr(r.when, scope, r.when_loc, "when")
            if r.field is not None:
                try:
                    X.check(X.parse(r.field), scope, allow_agg=True)
                except X.ExprError as e:
                    self.error(self.spec.document.attr_loc(r.element, "field", e.pos) if r.element is not None else r.loc,
                               f"rule '{r.name}': field: {e.message}")
            self.template(r.message, scope, r.message_loc, "message")
        for d in displays:
            if d.when is not None:
                self.expr(d.when, scope, d.when_loc, "when")
            self.template(d.parts, scope, d.text_loc, "display")
        whenless = [d for d in displays if d.when is None]
        if len(whenless) > 1:
            self.error(whenless[1].loc, "only one <display> without when= is allowed (it is the default)")
        elif whenless and displays[-1] is not whenless[0]:
            self.error(whenless[0].loc, "the <display> without when= must come last (it is the default)")

    def uses(self, uses, scope):
        for u in uses:
            if u.operand is None or len(u.args) != len(u.operand.params):
                continue
            for pname, a in zip(u.operand.params, u.args):
                if pname in u.operand.param_types:
                    self.error(u.args_loc, f"<use> '{u.name}': parameter '{pname}' takes a struct; call the operand "
                                           f"from a display instead")
                    continue
                self.expr(a, scope, u.args_loc, f"args of '{u.name}'")

    # ---------------------------------------------------------------- structs

    def length_reads(self, s):
        """A decoder has the first min-length bits of a struct when it
        works out its length: the length may read no field past them."""
        if s.min_length is None:
            return
        seen, todo = set(), [s.length]
        while todo:
            for node in X.walk(todo.pop()):
                ref = getattr(node, "ref", None)
                if isinstance(ref, refs.LetValue) and ref.let.value is not None and id(ref.let) not in seen:
                    seen.add(id(ref.let))
                    todo.append(ref.let.value)
                elif isinstance(ref, refs.FieldValue) and ref.field.pieces:
                    last = max(lo + w for lo, w in ref.field.pieces) - 1
                    if last >= s.min_length and id(ref.field) not in seen:
                        seen.add(id(ref.field))
                        self.error(s.length_loc.shifted(node.pos),
                                   f"in length: field '{ref.field.name}' (bit {last}) lies past min-length "
                                   f"({s.min_length} bits), which is all a decoder has when it reads the length")

    def struct(self, s):
        scope = self.resolver.struct_scope(s)
        self.lets(s.lets, {m.name: m for m in s.members})
        for o in s.operands:
            self.operand(o)
        # a length is computed where units are decoded alone: no program around
        if s.length is not None and (s.length_flag is None or s.length_flag_field is not None):
            if self.expr(s.length, self.resolver.struct_scope(s, context=NO_CONTEXT), s.length_loc, "length"):
                self.length_reads(s)
        self.uses(s.uses, scope)
        self.rules_and_displays(s.rules, s.displays, scope)
        self.prefer(s.prefer, self.resolver.struct_scope(s, context=NO_CONTEXT))
        self.fills(s.fills, self.resolver.struct_scope(s, context=NO_CONTEXT))
        for v in s.variants:
            vscope = self.resolver.struct_scope(s, v)
            self.lets(v.lets, {m.name: m for m in v.members + s.members + s.lets})
            for o in v.operands:
                self.operand(o)
            self.uses(v.uses, vscope)
            self.rules_and_displays(v.rules, v.displays, vscope)

    # ---------------------------------------------------------------- sequences

    def sequence(self, seq):
        for k, it in enumerate(seq.items):
            scope = self.resolver.sequence_scope(seq, visible=seq.items[:k], context=NO_CONTEXT)
            if it.present is not None:
                self.expr(it.present, scope, it.present_loc, "present")
            if it.count is not None:
                self.expr(it.count, scope, it.count_loc, "count")
                if it.present is not None:
                    self.error(it.loc, f"item '{it.name}' has both count and present; a count of 0 already means absent")
        scope = self.resolver.sequence_scope(seq)
        self.lets(seq.lets, {it.name: it for it in seq.items})
        if seq.size is not None:
            self.expr(seq.size, self.resolver.sequence_scope(seq, context=NO_CONTEXT), seq.size_loc, "size")
        for d in seq.derives:
            self.derive_target(d, self.resolver.sequence_scope(seq, context=NO_CONTEXT))
            self.expr(d.value, self.resolver.sequence_scope(seq, context=DERIVING), d.value_loc, "derive value")
        self.rules_and_displays(seq.rules, seq.displays, scope)
        self.prefer(seq.prefer, self.resolver.sequence_scope(seq, context=NO_CONTEXT))
        self.fills(seq.fills, self.resolver.sequence_scope(seq, context=NO_CONTEXT))

    def prefer(self, p, scope):
        """A <prefer> ranks units whole: it reads their fields, not the
        program around them (a unit is ranked while it is read alone)."""
        if p is not None:
            self.expr(p.value, scope, p.value_loc, "prefer value")

    def fills(self, fills, scope):
        """A <fill>'s field, value and condition, in its type's scope (the
        unit as read, not the program around it)."""
        for fl in fills:
            self.derive_target(fl, scope, "fill")
            self.expr(fl.value, scope, fl.value_loc, "fill value")
            self.expr(fl.when, scope, fl.when_loc, "fill when")

    def derive_target(self, d, scope, what="derive"):
        """Resolve the field a <derive> (or a <fill>) sets (d.target), or
        report why not."""
        from .. import refs as R
        try:
            node = X.parse(d.field)
            X.check(node, scope)
            ref = node.ref
            if not isinstance(ref, R.FieldValue) or ref.prop is not None or not ref.access.settable:
                raise X.ExprError(0, f"'{d.field}' is not a field that can be set")
            d.target = node
        except X.ExprError as e:
            self.error(d.field_loc.shifted(e.pos), f"in {what} field: {e.message}")

    # ---------------------------------------------------------------- choices

    def choice(self, ch):
        self.lets(ch.lets, {a.name: a for a in ch.alts})
        self.rules_and_displays(ch.rules, [], self.resolver.choice_scope(ch))

    # ---------------------------------------------------------------- operands

    def operand(self, o):
        for pname, tname in o.param_types.items():
            if not isinstance(self.spec.type_named(tname), Struct):
                self.error(o.param_locs[pname], f"parameter '{pname}' of operand '{o.name}': '{tname}' is not a struct")
        if len(set(o.params)) != len(o.params):
            return
        scope = self.resolver.operand_scope(o)
        for let in o.lets:
            if let.name in o.params:
                self.error(let.loc, f"<let> '{let.name}' has the name of a parameter of operand '{o.name}'")
            else:
                try:
                    self.resolver.let_value(let, 0)
                except X.ExprError:
                    pass
        for r in o.rules:
            if r.field is not None:
                self.error(self.spec.document.attr_loc(r.element, "field"),
                           f"rule '{r.name}' of operand '{o.name}': its findings are about the field the operand "
                           f"prints; drop field=")
        self.rules_and_displays([r for r in o.rules if r.field is None], [], scope)
        for i, c in enumerate(o.cases):
            if c.when is not None:
                self.expr(c.when, scope, c.when_loc, "when")
            elif i != len(o.cases) - 1:
                self.error(c.loc, f"only the last case of operand '{o.name}' may omit when=")
            self.template(c.display, scope, c.display_loc, "display")
            if c.message is not None:
                self.template(c.message, scope, c.message_loc, "message")

    # ---------------------------------------------------------------- stream

    def stream(self):
        st = self.spec.stream
        if st.prefix is not None:
            self.template(st.prefix, self.resolver.context_scope(), st.prefix_loc, "prefix")
        if st.unit is None:
            return
        for t in self.spec.types:
            if t.kind == "choice" and t is not st.unit:
                for a in t.alts:
                    if a.first:
                        self.error(a.loc, f"first=\"true\" only applies to the alternatives of the stream's unit; "
                                          f"'{t.name}' is not the unit")
        if st.stop is not None:
            # stop sees the unit and its context, the <state>s as before it
            # ($last reads 0: stop is what decides it)
            self.expr(st.stop, self.resolver.unit_scope(), st.stop_loc, "stop")
        from ..model import max_bits
        if st.pad_end and not max_bits(st.unit):
            self.error(st.loc, "pad-end needs a unit of bounded size (structs, or a choice of structs)")
        seen = set(CONTEXT_VARS)
        for o in st.options:
            if o.name in seen:
                self.error(o.loc, f"option '{o.name}' has the name of a context variable or of another option")
            seen.add(o.name)
        for s in st.states:
            if s.name in seen:
                self.error(s.loc, f"state '{s.name}' has the name of a context variable or of another state")
            seen.add(s.name)
            scope = self.resolver.unit_scope()
            if s.next is not None:
                self.expr(s.next, scope, s.next_loc, f"next of state '{s.name}'")
            for e in s.sets:
                self.expr(e.index, scope, e.index_loc, f"index of a set of state '{s.name}'")
                self.expr(e.value, scope, e.value_loc, f"value of a set of state '{s.name}'")
                if e.when is not None:
                    self.expr(e.when, scope, e.when_loc, f"when of a set of state '{s.name}'")
        for d in st.derives:
            self.derive_target(d, self.resolver.unit_scope(prev=False))
            self.expr(d.value, self.resolver.unit_scope(next=True), d.value_loc, "derive value")


class TemplateChecker(T.Visitor):
    """Checks a template: each hook checks its directive's expressions in
    the scope (a {for} adds its variable), then visits the bodies."""

    def __init__(self, checker, loc, what):
        self.c, self.loc, self.what = checker, loc, what

    def expr(self, node, scope):
        return self.c.expr(node, scope, self.loc, self.what)

    def subst(self, p, scope):
        try:
            X.check(p.node, scope, allow_agg=True)
        except X.ExprError as e:
            if self.c.fresh(e):
                self.c.error(self.loc.shifted(e.pos), f"in {self.what}: {e.message}")
            return
        if p.fmt and p.fmt[0].isalpha() and p.fmt not in ("b", "r") and not p.fmt[-1:].isdigit():
            if len(p.fmt) > 1 or p.fmt not in "diuxXofFeEgGc":
                e = self.c.spec.enum_named(p.fmt)
                if e is None:
                    self.c.error(self.loc.shifted(p.fmt_pos), f"in {self.what}: '{p.fmt}' is neither a printf conversion nor an enum")
                else:
                    p.fmt_enum = e
        if p.node.type == "agg" and p.fmt:
            self.c.error(self.loc.shifted(p.fmt_pos), f"in {self.what}: a struct or operand prints with its own display; drop ':{p.fmt}'")

    def if_(self, p, scope):
        for cond, body in p.branches:
            self.expr(cond, scope)
            self.visit(body, scope)
        self.visit(p.otherwise, scope)

    def list_(self, p, scope):
        for cond, body in p.items:
            if cond is not None:
                self.expr(cond, scope)
            self.visit(body, scope)

    def pad(self, p, scope):
        self.expr(p.width, scope)
        self.visit(p.body, scope)

    def for_(self, p, scope):
        self.expr(p.lo, scope)
        self.expr(p.hi, scope)
        try:
            scope.resolve(X.Path([p.var], p.pos))
            clash = True
        except X.ExprError:
            clash = False
        if clash and p.var not in scope.loops:
            self.c.error(self.loc.shifted(p.pos), f"in {self.what}: loop variable '{p.var}' hides a field of the same name")
        self.visit(p.body, scope.with_loop(p.var))
