"""Name resolution for expressions: what `ctrl.count` means, and which C
reads it, depends on where the expression is written.

Generated functions always call the object they work on `v` (a pointer)
and the context `ctx`; a scope is created with the C expression of the
object (`base`, e.g. "v" or "(&tmp)") and answers with `Ref`s whose `.c`
is an int64_t C expression and whose `.lvalue` is the C member itself.

What a name can be, in the order it is looked up:
  * a template loop variable;
  * a <let> of the element (its expression, checked here);
  * a field (or item) path: `a.b[2].c`; in an overlay struct a view's
    fields are reached through the view's name (`imm.dest`); an enum
    field followed by a property name reads that property (`op.srcs`);
  * `$prev.path`: the same path in the previous unit of the program
    (reads 0 for the first unit), for the stream's unit type only;
  * `$next.path`: the same path in the next unit (0 after the last), only
    in the stream's <derive>s, which the program encoder evaluates.
Calls of names that are not built-in functions are operands, printed with
their arguments: local operands of the struct first, then global ones.
"""

from . import expr as X
from .model import Choice, Field, Sequence, Struct, Use


class Ref:
    def __init__(self, c, type="int", field=None, lvalue=None, agg=None, use=None,
                 item=None, const=None, operand=None, args=None, guard=None):
        self.c = c              # C rvalue (int64_t or double)
        self.type = type        # "int", "float" or "agg" (printable only)
        self.field = field      # model Field, when the name is a field
        self.lvalue = lvalue    # C lvalue of the member (no cast)
        self.agg = agg          # Struct/Sequence/Choice for aggregates
        self.use = use          # model Use for operands
        self.item = item        # model Item
        self.const = const      # Python value when known at generation time
        self.operand = operand  # model Operand for operand calls
        self.args = args        # their argument nodes
        self.guard = guard      # C condition under which lvalue is the live member (a choice's alternative)


def c_int(v):
    return X.to_c(X.Num(v, 0))


CONTEXT_VARS = {
    "offset": "byte offset of the unit in its program",
    "index": "number of the unit in its program (0 for the first)",
    "size": "size of the unit in bits",
    "last": "1 for the last unit of the program",
    "program_size": "bytes in the whole program",
    "listing": "1 when the caller prints addresses (isa dis --offsets)",
}


def context_vars(spec):
    """$NAME -> C, where a unit's context `ctx` exists: the built-in
    variables and the stream's <state>s (their initial values when the unit
    is decoded alone, without a program around it)."""
    out = {k: f"(int64_t)ctx->{k}" for k in CONTEXT_VARS}
    if spec.stream is not None:
        for o in spec.stream.options:
            out[o.name] = f"isa_ctx_option(ctx, {o.index}, INT64_C({o.default}))"
        for s in spec.stream.states:
            if s.count == 1:
                out[s.name] = f"isa_ctx_state(ctx, {s.index}, INT64_C({s.init}))"
    return out


class BaseScope(X.Scope):
    def __init__(self, spec, locals_=None, vars_=None, lets=(), operands=(), prev=None, next=False):
        self.spec = spec
        self.locals = dict(locals_ or {})   # loop variable name -> C variable
        self.vars = vars_ if vars_ is not None else context_vars(spec)
        self.lets = {lt.name: lt for lt in lets}
        self.operands = {o.name: o for o in operands}
        # $prev reads through ctx, so only where a context exists
        self.prev = (prev if prev is not None else self._default_prev()) and "offset" in self.vars
        self.next = next and "offset" in self.vars
        self._resolving = []  # the <let>s being expanded, outermost first

    def _default_prev(self):
        return False

    def with_local(self, name, cvar):
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone.locals = dict(self.locals)
        clone.locals[name] = cvar
        return clone

    def resolve_var(self, node):
        arrays = {s.name: s for s in self.spec.stream.states if s.count > 1} \
            if self.spec.stream is not None and "offset" in self.vars else {}
        if node.name in arrays:
            s = arrays[node.name]
            if node.index is None:
                raise X.ExprError(node.pos, f"state '${s.name}' is an array of {s.count}; index it: ${s.name}[i]")
            return Ref(f"isa_ctx_state_at(ctx, {s.index}, {s.count}, {X.to_c(node.index)}, INT64_C({s.init}))")
        if node.index is not None:
            raise X.ExprError(node.pos, f"'${node.name}' is not an array")
        if node.prop is not None:
            opt = next((o for o in self.spec.stream.options if o.name == node.name), None) \
                if self.spec.stream is not None and node.name in self.vars else None
            if opt is None or opt.enum is None:
                raise X.ExprError(node.pos, f"'${node.name}.{node.prop}': only an <option> has properties")
            prop = opt.enum.property_named(node.prop)
            if prop is None:
                known = ", ".join(p.name for p in opt.enum.properties) or "none"
                raise X.ExprError(node.pos, f"enum '{opt.enum.name}' has no property '{node.prop}' (properties: {known})")
            return Ref(f"(int64_t){prop.c_fn}((uint32_t){self.vars[node.name]})")
        if node.name in self.vars:
            return Ref(self.vars[node.name])
        known = ", ".join(["$" + k for k in self.vars] + [f"${k}[]" for k in arrays]) or "none here"
        raise X.ExprError(node.pos, f"unknown context variable '${node.name}' (known: {known})")

    def resolve_enum(self, node):
        e = self.spec.enum_named(node.enum)
        if e is None:
            raise X.ExprError(node.pos, f"unknown enum '{node.enum}'")
        ev = next((v for v in e.values if v.name == node.name), None)
        if ev is None:
            raise X.ExprError(node.pos, f"enum '{e.name}' has no value '{node.name}'")
        return ev.value

    def resolve_call(self, node):
        op = self.operands.get(node.fn)
        if op is None:
            op = next((o for o in self.spec.operands if o.name == node.fn), None)
        if op is None:
            return None
        op.used = True  # even when misused: one error is enough
        if len(node.args) != len(op.params):
            raise X.ExprError(node.pos, f"operand '{op.name}' takes {len(op.params)} argument(s) "
                                        f"({', '.join(op.params)}), not {len(node.args)}")
        return Ref(None, type="agg", operand=op, args=node.args)

    # ---- the common front of resolve()

    def resolve_special(self, node):
        """Loop variables, lets and $prev; None when the name is none of those."""
        segs = node.segments
        if len(segs) == 1 and segs[0] in self.locals:
            return Ref(f"(int64_t){self.locals[segs[0]]}")
        if len(segs) == 1 and segs[0] in self.lets:
            let = self.lets[segs[0]]
            if let.name in self._resolving:
                chain = self._resolving[self._resolving.index(let.name):] + [let.name]
                raise X.ExprError(node.pos, f"<let> '{chain[0]}' refers to itself: {' -> '.join(chain)}",
                                  cycle=frozenset(chain))
            if let.value is None:
                raise X.ExprError(node.pos, f"<let> '{let.name}' has no valid value", cascade=True)
            self._resolving.append(let.name)
            try:
                X.check(let.value, self)
            except X.ExprError as e:
                # the let's own check reports what is wrong inside it; only a
                # cycle back to the let being checked belongs to this use
                raise X.ExprError(node.pos, e.message, cascade=e.cascade or e.cycle is None, cycle=e.cycle)
            finally:
                self._resolving.pop()
            return Ref(f"({X.to_c(let.value)})", type=let.value.type)
        if segs[0] in ("$prev", "$next"):
            which = segs[0][1:]
            if which == "prev" and not self.prev:
                raise X.ExprError(node.pos, "$prev is only known in the stream's unit type")
            if which == "next" and not self.next:
                raise X.ExprError(node.pos, "$next is only known in the <derive>s of the <stream>")
            if len(segs) < 2:
                raise X.ExprError(node.pos, f"${which} is a unit; name one of its fields: ${which}.field")
            unit = self.spec.stream.unit
            cname = f"struct {self.spec.prefix}_{unit.name}"
            inner = scope_for(self.spec, unit, base=f"((const {cname} *)ctx->{which})", vars_={}, prev=False)
            sub = X.Path(segs[1:], node.pos)
            r = inner.resolve(sub)
            if r.type != "int" or r.c is None:
                raise X.ExprError(node.pos, f"${which} gives field values only")
            return Ref(f"(ctx->{which} ? {r.c} : INT64_C(0))", field=r.field)
        return None

    # ---- walking a path through struct members

    def walk_members(self, node, segs, members, access, owner_desc, guards, struct=None):
        """Resolve segs (first is a member name) among `members`, where the
        containing object is the C lvalue `access` (of type `struct`)."""
        name = segs[0]
        if struct is not None and struct.overlay:
            view = next((v for v in struct.variants if v.name == name), None)
            if view is not None:
                if len(segs) == 1:
                    raise X.ExprError(node.pos, f"'{name}' is a view of struct '{struct.name}'; name one of its fields")
                return self.walk_members(node, segs[1:], view.members, f"{access}.u.{name}",
                                         f"view '{name}' of struct '{struct.name}'", guards)
        member = next((m for m in members if m.name == name), None)
        if member is None and struct is not None and len(segs) == 1:
            let = next((l for l in struct.lets if l.name == name), None)
            if let is not None:
                # a <let> of the struct, evaluated on this instance of it
                if let.value is None:
                    raise X.ExprError(node.pos, f"<let> '{name}' has no valid value", cascade=True)
                inner = StructScope(self.spec, struct, base=f"(&{access})", vars_=self.vars, prev=False)
                X.check(let.value, inner)
                c = f"({X.to_c(let.value)})"
                if guards:
                    c = f"(({' && '.join(guards)}) ? {c} : INT64_C(0))"
                return Ref(c, type=let.value.type)
        if member is None:
            raise X.ExprError(node.pos, f"'{name}' is not a field of {owner_desc}")
        rest = segs[1:]
        if isinstance(member, Use):
            if rest:
                raise X.ExprError(node.pos, f"operand '{name}' has no members")
            return Ref(None, type="agg", use=member)
        f = member
        if not f.stored:
            if f.is_array:
                raise X.ExprError(node.pos, f"fixed bits '{name}' cannot be indexed")
            return Ref(c_int(f.value), field=f, const=f.value)
        lv = f"{access}.{name}"
        if f.is_array:
            if not rest or isinstance(rest[0], str):
                raise X.ExprError(node.pos, f"'{name}' is an array of {f.count}; index it: {name}[i]")
            idx, rest = rest[0], rest[1:]
            if isinstance(idx, X.Num):
                if not 0 <= idx.value < f.count:
                    raise X.ExprError(idx.pos, f"index {idx.value} is outside '{name}' (0..{f.count - 1})")
                lv = f"{lv}[{idx.value}]"
            else:
                ic = X.to_c(idx)
                guards = guards + [f"(uint64_t)({ic}) < {f.count}u"]
                lv = f"{lv}[(size_t)({ic})]"
        if rest and not isinstance(rest[0], str):
            raise X.ExprError(node.pos, f"'{name}' is not an array")
        if f.type.kind == "struct":
            target = f.type.target
            if not rest:
                return Ref(None, type="agg", field=f, lvalue=lv, agg=target)
            return self.walk_members(node, rest, target.members, lv, f"struct '{target.name}'", guards, target)
        c = f"(int64_t){lv}"
        if rest and f.type.kind == "enum" and len(rest) == 1:
            prop = f.type.enum.property_named(rest[0])
            if prop is None:
                known = ", ".join(p.name for p in f.type.enum.properties) or "none"
                raise X.ExprError(node.pos, f"enum '{f.type.enum.name}' has no property '{rest[0]}' (properties: {known})")
            c = f"(int64_t){prop.c_fn}((uint32_t){lv})"
            if guards:
                c = f"(({' && '.join(guards)}) ? {c} : INT64_C(0))"
            return Ref(c)
        if rest:
            raise X.ExprError(node.pos, f"'{name}' has no members")
        if guards:
            c = f"(({' && '.join(guards)}) ? {c} : INT64_C(0))"
        return Ref(c, field=f, lvalue=lv if not guards else None)


def _is_unit(spec, t):
    return spec.stream is not None and spec.stream.unit is t


class StructScope(BaseScope):
    """Inside a <struct> (and, with `variant`, inside one of its variants)."""

    def __init__(self, spec, struct, variant=None, base="v", **kw):
        lets = list(struct.lets) + (list(variant.lets) if variant is not None else [])
        ops = list(struct.operands) + (list(variant.operands) if variant is not None else [])
        kw.setdefault("lets", lets)
        kw.setdefault("operands", ops)
        self.struct, self.variant, self.base = struct, variant, base
        super().__init__(spec, **kw)

    def _default_prev(self):
        return _is_unit(self.spec, self.struct)

    def resolve(self, node):
        special = self.resolve_special(node)
        if special is not None:
            return special
        segs = node.segments
        name = segs[0]
        common = next((m for m in self.struct.members if m.name == name), None)
        is_view = self.struct.overlay and any(v.name == name for v in self.struct.variants)
        if common is not None or self.variant is None or is_view:
            return self.walk_members(node, segs, self.struct.members, f"(*{self.base})",
                                     f"struct '{self.struct.name}'", [], self.struct)
        vm = next((m for m in self.variant.members if m.name == name), None)
        if vm is None:
            other = [v.name for v in self.struct.variants if any(m.name == name for m in v.members)]
            hint = f" (it belongs to variant {', '.join(other)})" if other else ""
            raise X.ExprError(node.pos, f"'{name}' is not a field of variant '{self.variant.name}' of struct '{self.struct.name}'{hint}")
        return self.walk_members(node, segs, self.variant.members,
                                 f"(*{self.base}).u.{self.variant.name}",
                                 f"variant '{self.variant.name}'", [])

    def resolve_item(self, node, which):
        raise X.ExprError(node.pos, f"{which}() only applies inside a <sequence>")


class SequenceScope(BaseScope):
    """Inside a <sequence>: names start with an item name.  `visible`
    limits which items may be read (decode order)."""

    def __init__(self, spec, seq, base="v", visible=None, **kw):
        kw.setdefault("lets", list(seq.lets))
        self.seq, self.base = seq, base
        self.visible = visible  # None = all items
        super().__init__(spec, **kw)

    def _default_prev(self):
        return _is_unit(self.spec, self.seq)

    def _item(self, node, name):
        item = next((it for it in self.seq.items if it.name == name), None)
        if item is None:
            raise X.ExprError(node.pos, f"'{name}' is not an item of sequence '{self.seq.name}'")
        if self.visible is not None and item not in self.visible:
            raise X.ExprError(node.pos, f"item '{name}' comes later in sequence '{self.seq.name}'; it is not decoded yet here")
        return item

    def resolve(self, node):
        special = self.resolve_special(node)
        if special is not None:
            return special
        segs = node.segments
        item = self._item(node, segs[0])
        lv = f"(*{self.base}).{item.name}"
        rest = segs[1:]
        guards = []
        if item.count is not None:
            if not rest or isinstance(rest[0], str):
                raise X.ExprError(node.pos, f"item '{item.name}' is repeated; index it: {item.name}[i]")
            idx, rest = rest[0], rest[1:]
            ic = X.to_c(idx)
            guards.append(f"(uint64_t)({ic}) < (uint64_t)(*{self.base}).n_{item.name}")
            lv = f"{lv}[(size_t)({ic})]"
        target = item.type.target
        if not rest:
            return Ref(None, type="agg", lvalue=lv, agg=target, item=item)
        if not isinstance(target, Struct):
            raise X.ExprError(node.pos, f"fields of item '{item.name}' ({target.kind} '{target.name}') cannot be read in expressions")
        return self.walk_members(node, rest, target.members, lv, f"struct '{target.name}'", guards, target)

    def resolve_item(self, node, which):
        name = node.args[0].segments[0]
        item = self._item(node.args[0], name)
        if which == "present":
            if item.present is None and item.count is None:
                return Ref("INT64_C(1)", item=item, const=1)
            if item.count is not None:
                return Ref(f"(int64_t)((*{self.base}).n_{item.name} != 0)", item=item)
            return Ref(f"(int64_t)(*{self.base}).has_{item.name}", item=item)
        if item.count is None:
            raise X.ExprError(node.pos, f"count() needs a repeated item; '{name}' has no count")
        return Ref(f"(int64_t)(*{self.base}).n_{item.name}", item=item)


class ChoiceScope(BaseScope):
    """Over a <choice>: `present(Alt)` says whether alternative Alt was
    chosen, `Alt.path` reads a field of it (0 when another one was)."""

    def __init__(self, spec, choice, base="v", **kw):
        self.choice, self.base = choice, base
        kw.setdefault("lets", list(choice.lets))
        super().__init__(spec, **kw)

    def _default_prev(self):
        return _is_unit(self.spec, self.choice)

    def _alt(self, node, name):
        alt = next((a for a in self.choice.alts if a.name == name), None)
        if alt is None:
            names = ", ".join(a.name for a in self.choice.alts)
            raise X.ExprError(node.pos, f"'{name}' is not an alternative of choice '{self.choice.name}' ({names})")
        return alt

    def _chosen(self, alt):
        return f"(uint64_t)(*{self.base}).variant == {alt.index}u"

    def resolve(self, node):
        special = self.resolve_special(node)
        if special is not None:
            return special
        segs = node.segments
        alt = self._alt(node, segs[0])
        if len(segs) == 1:
            raise X.ExprError(node.pos, f"'{alt.name}' is an alternative; name one of its fields, or test present({alt.name})")
        inner = scope_for(self.spec, alt.type.target, base=f"(&(*{self.base}).u.{alt.name})", vars_=self.vars,
                          prev=False)
        r = inner.resolve(X.Path(segs[1:], node.pos))
        if r.type != "int" or r.c is None:
            raise X.ExprError(node.pos, f"'{node.text()}' is not a value")
        return Ref(f"(({self._chosen(alt)}) ? {r.c} : INT64_C(0))", field=r.field, lvalue=r.lvalue,
                   guard=self._chosen(alt) if r.lvalue else None)

    def resolve_item(self, node, which):
        if which != "present":
            raise X.ExprError(node.pos, f"{which}() does not apply to a choice's alternatives")
        alt = self._alt(node.args[0], node.args[0].segments[0])
        return Ref(f"isa_x_b({self._chosen(alt)})")


class OperandScope(BaseScope):
    """Inside an <operand>: the parameters (int64_t p_<name>); a local
    operand also sees its struct's fields (through `v`)."""

    def __init__(self, spec, operand, **kw):
        self.operand = operand
        self.outer = None
        owner = operand.owner
        kw.setdefault("lets", list(operand.lets))
        if owner is not None:
            kw.setdefault("operands", list(owner.operands))
        super().__init__(spec, **kw)
        if owner is not None:
            from .model import Variant
            if isinstance(owner, Variant):
                self.outer = StructScope(spec, owner.owner, owner, vars_=self.vars)
            else:
                self.outer = scope_for(spec, owner, vars_=self.vars)

    def resolve(self, node):
        segs = node.segments
        if len(segs) == 1 and (segs[0] in self.locals or segs[0] in self.lets):
            return self.resolve_special(node)
        if segs[0] in self.operand.param_types:
            target = self.spec.type_named(self.operand.param_types[segs[0]])
            if not isinstance(target, Struct):
                raise X.ExprError(node.pos, f"parameter '{segs[0]}' has no struct type", cascade=True)
            lv = f"(*p_{segs[0]})"
            if len(segs) == 1:
                return Ref(None, type="agg", lvalue=lv, agg=target)
            return self.walk_members(node, segs[1:], target.members, lv, f"struct '{target.name}'", [], target)
        if len(segs) == 1 and segs[0] in self.operand.params:
            return Ref(f"p_{segs[0]}")
        if self.outer is not None:
            self.outer.locals = self.locals
            return self.outer.resolve(node)
        raise X.ExprError(node.pos, f"'{node.text()}' is not a parameter of operand '{self.operand.name}' (parameters: {', '.join(self.operand.params)})")

    def resolve_item(self, node, which):
        if self.outer is not None:
            return self.outer.resolve_item(node, which)
        raise X.ExprError(node.pos, f"{which}() only applies inside a <sequence>")

    def resolve_call(self, node):
        r = super().resolve_call(node)
        if r is None and self.outer is not None:
            r = self.outer.resolve_call(node)
        return r


class ContextScope(BaseScope):
    """Only the context variables ($offset, $index, $size, $last)."""

    def resolve(self, node):
        if len(node.segments) == 1 and node.segments[0] in self.locals:
            return Ref(f"(int64_t){self.locals[node.segments[0]]}")
        raise X.ExprError(node.pos, f"'{node.text()}': only context variables ($offset...) are known here")

    def resolve_item(self, node, which):
        raise X.ExprError(node.pos, f"{which}() only applies inside a <sequence>")


def scope_for(spec, owner, variant=None, base="v", **kw):
    if isinstance(owner, Sequence):
        return SequenceScope(spec, owner, base=base, **kw)
    if isinstance(owner, Choice):
        return ChoiceScope(spec, owner, base=base, **kw)
    return StructScope(spec, owner, variant=variant, base=base, **kw)
