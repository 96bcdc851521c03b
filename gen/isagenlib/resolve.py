"""Name resolution: what each name of an expression means where it is
written, bound once to the model entity it names (refs.py).

A scope is where an expression is written: inside a struct (or one of its
variants), a sequence, a choice, an operand, or the stream.  What a name
can be, in the order it is looked up:
  * a template loop variable;
  * a <let> of the scope (resolved once, in the scope it is declared in:
    lets are lexical);
  * a field (or item) path: `a.b[2].c`; in an overlay struct a view's
    fields are reached through the view's name (`imm.dest`); an enum
    field followed by a property name reads that property (`op.srcs`); a
    struct field followed by a let of that struct reads the let there;
  * `$prev.path`: the same path in the previous unit of the program
    (reads 0 for the first unit), for the stream's unit type only;
  * `$next.path`: the same path in the next unit (0 after the last), only
    in the stream's <derive>s, which the program encoder evaluates;
  * `$at[offset].path`: the same path in the unit that starts at that
    byte offset of the program (0 where none does), where $next is known.
Calls of names that are not built-in functions are operands, printed with
their arguments: local operands of the struct first, then global ones.

What a scope knows of the program around the unit is its context: a unit
printed or checked in a program knows $offset, $index... and the stream's
states and options (UNIT); what decodes or encodes a unit alone knows none
of them (NO_CONTEXT), except $size in a sequence's <derive>s.
"""

from . import expr as X
from . import refs as R
from .model import Choice, Operand, Sequence, Struct, Use, Variant

CONTEXT_VARS = {
    "offset": "byte offset of the unit in its program",
    "index": "number of the unit in its program (0 for the first)",
    "size": "size of the unit in bits",
    "last": "1 for the last unit of the program",
    "program_size": "bytes in the whole program",
    "listing": "1 when the caller prints addresses (isa dis --offsets)",
}

UNIT = "unit"           # a unit in a program: ctx, states, options
NO_CONTEXT = ()         # nothing around the unit
DERIVING = ("size",)    # a sequence's <derive>: $size


class Resolver:
    """The scopes of one spec, and the state of resolving its <let>s (which
    ones are being resolved, to report a cycle with its path)."""

    def __init__(self, spec, report):
        self.spec = spec
        self.report = report        # report(error) for a let's own errors: see let_value()
        self.resolving = []         # the lets being resolved, outermost first
        self.reads_memo = {}

    # ---- scopes

    def struct_scope(self, struct, variant=None, **kw):
        return StructScope(self, struct, variant, **kw)

    def sequence_scope(self, seq, **kw):
        return SequenceScope(self, seq, **kw)

    def choice_scope(self, choice, **kw):
        return ChoiceScope(self, choice, **kw)

    def operand_scope(self, operand, **kw):
        return OperandScope(self, operand, **kw)

    def context_scope(self):
        return ContextScope(self, None)

    def scope_for(self, owner, **kw):
        """The scope of what is written inside `owner`."""
        if isinstance(owner, Sequence):
            return self.sequence_scope(owner, **kw)
        if isinstance(owner, Choice):
            return self.choice_scope(owner, **kw)
        if isinstance(owner, Operand):
            return self.operand_scope(owner, **kw)
        if isinstance(owner, Variant):
            return self.struct_scope(owner.owner, owner, **kw)
        return self.struct_scope(owner, **kw)

    def unit_scope(self, **kw):
        return self.scope_for(self.spec.stream.unit, **kw)

    # ---- lets

    def let_value(self, let, pos):
        """Make sure `let` is resolved (in its own scope); raise an
        ExprError at `pos` of the using expression when it cannot be used.
        A problem inside the let is reported once, through `report`, at
        the let; a <let> cycle at the first let of the cycle."""
        if let in self.resolving:
            chain = [lt.name for lt in self.resolving[self.resolving.index(let):]] + [let.name]
            raise X.ExprError(pos, f"<let> '{chain[0]}' refers to itself: {' -> '.join(chain)}",
                              cycle=frozenset(chain), head=let)
        if not let.checked:
            self.resolving.append(let)
            try:
                if let.value is not None:
                    X.check(let.value, self.scope_for(let.owner))
            except X.ExprError as e:
                let.broken = True
                if e.cycle is not None and e.head is not let:
                    raise X.ExprError(pos, e.message, cascade=e.cascade, cycle=e.cycle, head=e.head)
                self.report(let, e)
            finally:
                self.resolving.pop()
                let.checked = True
        if let.broken or let.value is None:
            raise X.ExprError(pos, f"<let> '{let.name}' has no valid value", cascade=True)

    def reads(self, node):
        """What an expression reads beyond the fields of its object: the
        set of ('context', name), ('item', Item) and ('unit', 'prev'/'next')
        it needs, through the lets it uses too."""
        out = set()
        for n in X.walk(node):
            ref = getattr(n, "ref", None)
            if isinstance(ref, R.LetValue):
                if ref.let not in self.reads_memo:
                    self.reads_memo[ref.let] = set()  # a cycle reads nothing more
                    self.reads_memo[ref.let] = self.reads(ref.let.value) if ref.let.value is not None else set()
                out |= self.reads_memo[ref.let]
                if ref.on is not None:
                    out |= access_reads(ref.on)
            elif isinstance(ref, R.ContextValue):
                out.add(("context", ref.name))
            elif isinstance(ref, (R.StateValue, R.OptionValue)):
                out.add(("context", "$" + (ref.state.name if isinstance(ref, R.StateValue) else ref.option.name)))
            elif isinstance(ref, (R.FieldValue, R.AggValue)):
                out |= access_reads(ref.access)
            elif isinstance(ref, R.ItemPresent):
                out.add(("item", ref.item))
        return out


def access_reads(access):
    out = set()
    if access.root.kind in ("prev", "next", "at"):
        out.add(("unit", access.root.kind))
    for s in access.steps:
        if isinstance(s, (R.ItemOf, R.ItemElement)):
            out.add(("item", s.item))
    return out


class BaseScope(X.Scope):
    def __init__(self, resolver, owner, context=UNIT, lets=(), operands=(), prev=None, next=False):
        self.resolver = resolver
        self.spec = resolver.spec
        self.owner = owner
        self.context = context
        self.loops = ()                      # template loop variables in scope
        self.lets = {lt.name: lt for lt in lets}
        self.operands = {o.name: o for o in operands}
        # $prev and $next read through the program around the unit
        self.prev = (prev if prev is not None else self._default_prev()) and context == UNIT
        self.next = next and context == UNIT

    def _default_prev(self):
        return False

    @property
    def has_program(self):
        return self.context == UNIT

    def with_loop(self, name):
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone.loops = self.loops + (name,)
        return clone

    def var_names(self):
        """$names known here, in the order a message lists them."""
        st = self.spec.stream
        if self.context != UNIT:
            return list(self.context)
        out = list(CONTEXT_VARS)
        if st is not None:
            out += [o.name for o in st.options] + [s.name for s in st.states if not s.is_array]
        return list(dict.fromkeys(out))

    def resolve_var(self, node):
        st = self.spec.stream
        arrays = {s.name: s for s in st.states if s.is_array} if st is not None and self.has_program else {}
        if node.name in arrays:
            s = arrays[node.name]
            if node.index is None:
                size = f"an array of {s.count}" if s.count else "an array"
                raise X.ExprError(node.pos, f"state '${s.name}' is {size}; index it: ${s.name}[i]")
            return R.StateValue(s, node.index)
        if node.index is not None:
            raise X.ExprError(node.pos, f"'${node.name}' is not an array")
        known = self.var_names()
        if node.prop is not None:
            opt = next((o for o in st.options if o.name == node.name), None) \
                if st is not None and node.name in known else None
            if opt is None or opt.enum is None:
                raise X.ExprError(node.pos, f"'${node.name}.{node.prop}': only an <option> has properties")
            prop = opt.enum.property_named(node.prop)
            if prop is None:
                names = ", ".join(p.name for p in opt.enum.properties) or "none"
                raise X.ExprError(node.pos, f"enum '{opt.enum.name}' has no property '{node.prop}' (properties: {names})")
            return R.OptionValue(opt, prop)
        if node.name in known:
            if self.has_program and node.name not in CONTEXT_VARS:
                opt = next((o for o in st.options if o.name == node.name), None)
                if opt is not None:
                    return R.OptionValue(opt)
                return R.StateValue(next(s for s in st.states if s.name == node.name))
            return R.ContextValue(node.name)
        listed = ", ".join(["$" + k for k in known] + [f"${k}[]" for k in arrays]) or "none here"
        raise X.ExprError(node.pos, f"unknown context variable '${node.name}' (known: {listed})")

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
        node.ref = R.OperandCall(op, node.args)  # it names the operand even when its arguments are wrong
        if len(node.args) != len(op.params):
            raise X.ExprError(node.pos, f"operand '{op.name}' takes {len(op.params)} argument(s) "
                                        f"({', '.join(op.params)}), not {len(node.args)}")
        return R.OperandCall(op, node.args)

    # ---- the common front of resolve()

    def resolve_special(self, node):
        """Loop variables, lets, $prev, $next and $at; None when the name is none
        of those."""
        segs = node.segments
        if len(segs) == 1 and segs[0] in self.loops:
            return R.LoopValue(segs[0])
        if len(segs) == 1 and segs[0] in self.lets:
            let = self.lets[segs[0]]
            self.resolver.let_value(let, node.pos)
            self.check_reads(node, f"<let> '{let.name}'", self.resolver.reads(let.value))
            return R.LetValue(let)
        if segs[0] == "$at":
            # the unit at a byte offset: known where $next is, while a program is encoded
            if not self.next:
                raise X.ExprError(node.pos, "$at is only known in the <derive>s of the <stream>")
            r = walk_type(self, node, segs[2:], self.spec.stream.unit, R.Access(R.At(segs[1]), ()))
            if r.type != "int":
                raise X.ExprError(node.pos, "$at gives field values only")
            return r
        if segs[0] in ("$prev", "$next"):
            which = segs[0][1:]
            if which == "prev" and not self.prev:
                raise X.ExprError(node.pos, "$prev is only known in the stream's unit type")
            if which == "next" and not self.next:
                raise X.ExprError(node.pos, "$next is only known in the <derive>s of the <stream>")
            if len(segs) < 2:
                raise X.ExprError(node.pos, f"${which} is a unit; name one of its fields: ${which}.field")
            root = R.PREV if which == "prev" else R.NEXT
            if root is R.PREV:
                self.resolver.spec.reads_prev = True
            r = walk_type(self, node, segs[1:], self.spec.stream.unit, R.Access(root, ()))
            if r.type != "int":
                raise X.ExprError(node.pos, f"${which} gives field values only")
            return r
        return None

    def check_reads(self, node, what, reads):
        """A let resolved in its own scope may read what is not known where
        it is used (a later item, the program around the unit)."""
        for kind, x in sorted(reads, key=lambda r: (r[0], getattr(r[1], "name", r[1]))):
            if kind == "item" and not self.item_visible(x):
                raise X.ExprError(node.pos, f"{what} reads item '{x.name}', which is not decoded yet here")
            if kind == "context" and not self.has_program and x not in self.context:
                raise X.ExprError(node.pos, f"{what} reads ${x.lstrip('$')}, which is not known here "
                                            "(only where a unit is printed or checked in a program)")
            if kind == "unit" and not self.has_program:
                raise X.ExprError(node.pos, f"{what} reads ${x}, which is not known here")

    def item_visible(self, item):
        return True


def walk_type(scope, node, segs, t, access):
    """Resolve segs inside an object of type t reached by `access` (an
    alternative, the previous unit: a struct, a sequence or a choice)."""
    if isinstance(t, Struct):
        return walk_members(scope, node, segs, t.members, access, f"struct '{t.name}'", t)
    if len(segs) == 1:
        let = next((lt for lt in t.lets if lt.name == segs[0]), None)
        taken = t.items if isinstance(t, Sequence) else t.alts
        if let is not None and not any(x.name == segs[0] for x in taken):
            return instance_let(scope, node, let, access)
    if isinstance(t, Sequence):
        return item_path(scope, node, segs, t, access)
    return alt_path(scope, node, segs, t, access)


def walk_members(scope, node, segs, members, access, owner_desc, struct=None):
    """Resolve segs (the first is a member name) among `members` of the
    object `access` reaches (of type `struct` when known)."""
    name = segs[0]
    if struct is not None and struct.overlay:
        view = next((v for v in struct.variants if v.name == name), None)
        if view is not None:
            if len(segs) == 1:
                raise X.ExprError(node.pos, f"'{name}' is a view of struct '{struct.name}'; name one of its fields")
            return walk_members(scope, node, segs[1:], view.members, R.Access(access.root, access.steps + (R.InVariant(view),)),
                                f"view '{name}' of struct '{struct.name}'")
    member = next((m for m in members if m.name == name), None)
    if member is None and struct is not None and len(segs) == 1:
        let = next((lt for lt in struct.lets if lt.name == name), None)
        if let is not None:
            # a <let> of the struct, evaluated on this instance of it
            return instance_let(scope, node, let, access)
    if member is None:
        raise X.ExprError(node.pos, f"'{name}' is not a field of {owner_desc}")
    rest = segs[1:]
    if isinstance(member, Use):
        if rest:
            raise X.ExprError(node.pos, f"operand '{name}' has no members")
        return R.UseValue(member)
    f = member
    if not f.stored:
        if f.is_array:
            raise X.ExprError(node.pos, f"fixed bits '{name}' cannot be indexed")
        return R.FixedValue(f)
    steps = access.steps + (R.Member(f),)
    if f.is_array:
        if not rest or isinstance(rest[0], str):
            raise X.ExprError(node.pos, f"'{name}' is an array of {f.count}; index it: {name}[i]")
        idx, rest = rest[0], rest[1:]
        if isinstance(idx, X.Num) and not 0 <= idx.value < f.count:
            raise X.ExprError(idx.pos, f"index {idx.value} is outside '{name}' (0..{f.count - 1})")
        steps += (R.Element(idx, f.count),)
    if rest and not isinstance(rest[0], str):
        raise X.ExprError(node.pos, f"'{name}' is not an array")
    here = R.Access(access.root, steps)
    if f.type.kind == "struct":
        target = f.type.target
        if not rest:
            return R.AggValue(here, target, field=f)
        return walk_members(scope, node, rest, target.members, here, f"struct '{target.name}'", target)
    if rest and f.type.kind == "enum" and len(rest) == 1:
        prop = f.type.enum.property_named(rest[0])
        if prop is None:
            known = ", ".join(p.name for p in f.type.enum.properties) or "none"
            raise X.ExprError(node.pos, f"enum '{f.type.enum.name}' has no property '{rest[0]}' (properties: {known})")
        return R.FieldValue(here, f, prop)
    if rest:
        raise X.ExprError(node.pos, f"'{name}' has no members")
    return R.FieldValue(here, f)


def instance_let(scope, node, let, access):
    """A <let> of a struct read on the instance `access` leads to."""
    scope.resolver.let_value(let, node.pos)
    reads = scope.resolver.reads(let.value)
    if any(kind == "unit" for kind, _ in reads):
        raise X.ExprError(node.pos, f"<let> '{let.name}' reads $prev or $next: only its own struct can use it")
    scope.check_reads(node, f"<let> '{let.name}'", reads)
    return R.LetValue(let, on=access)


def item_path(scope, node, segs, seq, access):
    """Resolve segs (the first is an item name) in sequence `seq`."""
    item = scope.item_named(node, segs[0], seq) if isinstance(scope, SequenceScope) and scope.seq is seq \
        else _item(node, segs[0], seq)
    rest = segs[1:]
    if item.count is not None:
        if not rest or isinstance(rest[0], str):
            raise X.ExprError(node.pos, f"item '{item.name}' is repeated; index it: {item.name}[i]")
        idx, rest = rest[0], rest[1:]
        here = R.Access(access.root, access.steps + (R.ItemElement(idx, item),))
    else:
        here = R.Access(access.root, access.steps + (R.ItemOf(item),))
    target = item.type.target
    if not rest:
        return R.AggValue(here, target, item=item)
    if not isinstance(target, Struct):
        raise X.ExprError(node.pos, f"fields of item '{item.name}' ({target.kind} '{target.name}') cannot be read in expressions")
    return walk_members(scope, node, rest, target.members, here, f"struct '{target.name}'", target)


def _item(node, name, seq):
    item = next((it for it in seq.items if it.name == name), None)
    if item is None:
        raise X.ExprError(node.pos, f"'{name}' is not an item of sequence '{seq.name}'")
    return item


def alt_path(scope, node, segs, choice, access):
    """Resolve segs (the first is an alternative) in choice `choice`."""
    alt = _alt(node, segs[0], choice)
    if len(segs) == 1:
        raise X.ExprError(node.pos, f"'{alt.name}' is an alternative; name one of its fields, or test present({alt.name})")
    here = R.Access(access.root, access.steps + (R.AltOf(alt),))
    sub = X.Path(segs[1:], node.pos)
    r = walk_type(scope, sub, sub.segments, alt.type.target, here)
    if r.type != "int" or isinstance(r, (R.UseValue, R.AggValue)):
        raise X.ExprError(node.pos, f"'{node.text()}' is not a value")
    return r


def _alt(node, name, choice):
    alt = next((a for a in choice.alts if a.name == name), None)
    if alt is None:
        names = ", ".join(a.name for a in choice.alts)
        raise X.ExprError(node.pos, f"'{name}' is not an alternative of choice '{choice.name}' ({names})")
    return alt


def _is_unit(spec, t):
    return spec.stream is not None and spec.stream.unit is t


class StructScope(BaseScope):
    """Inside a <struct> (and, with `variant`, inside one of its variants)."""

    def __init__(self, resolver, struct, variant=None, **kw):
        kw.setdefault("lets", list(struct.lets) + (list(variant.lets) if variant is not None else []))
        kw.setdefault("operands", list(struct.operands) + (list(variant.operands) if variant is not None else []))
        self.struct, self.variant = struct, variant
        super().__init__(resolver, variant or struct, **kw)

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
            return walk_members(self, node, segs, self.struct.members, R.Access(R.SELF, ()),
                                f"struct '{self.struct.name}'", self.struct)
        vm = next((m for m in self.variant.members if m.name == name), None)
        if vm is None:
            other = [v.name for v in self.struct.variants if any(m.name == name for m in v.members)]
            hint = f" (it belongs to variant {', '.join(other)})" if other else ""
            raise X.ExprError(node.pos, f"'{name}' is not a field of variant '{self.variant.name}' of struct '{self.struct.name}'{hint}")
        return walk_members(self, node, segs, self.variant.members, R.Access(R.SELF, (R.InVariant(self.variant),)),
                            f"variant '{self.variant.name}'")

    def resolve_item(self, node, which):
        raise X.ExprError(node.pos, f"{which}() only applies inside a <sequence>")


class SequenceScope(BaseScope):
    """Inside a <sequence>: names start with an item name.  `visible`
    limits which items may be read (decode order)."""

    def __init__(self, resolver, seq, visible=None, **kw):
        kw.setdefault("lets", list(seq.lets))
        kw.setdefault("operands", list(seq.operands))
        self.seq = seq
        self.visible = visible  # None = all items
        super().__init__(resolver, seq, **kw)

    def _default_prev(self):
        return _is_unit(self.spec, self.seq)

    def item_visible(self, item):
        return self.visible is None or item in self.visible or item.owner is not self.seq

    def item_named(self, node, name, seq):
        item = _item(node, name, seq)
        if not self.item_visible(item):
            raise X.ExprError(node.pos, f"item '{name}' comes later in sequence '{self.seq.name}'; it is not decoded yet here")
        return item

    def resolve(self, node):
        special = self.resolve_special(node)
        if special is not None:
            return special
        return item_path(self, node, node.segments, self.seq, R.Access(R.SELF, ()))

    def resolve_item(self, node, which):
        name = node.args[0].segments[0]
        item = self.item_named(node.args[0], name, self.seq)
        if which == "present":
            return R.ItemPresent(item)
        if item.count is None:
            raise X.ExprError(node.pos, f"count() needs a repeated item; '{name}' has no count")
        return R.ItemPresent(item, count=True)


class ChoiceScope(BaseScope):
    """Over a <choice>: `present(Alt)` says whether alternative Alt was
    chosen, `Alt.path` reads a field of it (0 when another one was)."""

    def __init__(self, resolver, choice, **kw):
        self.choice = choice
        kw.setdefault("lets", list(choice.lets))
        super().__init__(resolver, choice, **kw)

    def _default_prev(self):
        return _is_unit(self.spec, self.choice)

    def resolve(self, node):
        special = self.resolve_special(node)
        if special is not None:
            return special
        return alt_path(self, node, node.segments, self.choice, R.Access(R.SELF, ()))

    def resolve_item(self, node, which):
        if which != "present":
            raise X.ExprError(node.pos, f"{which}() does not apply to a choice's alternatives")
        return R.AltPresent(_alt(node.args[0], node.args[0].segments[0], self.choice))


class OperandScope(BaseScope):
    """Inside an <operand>: its parameters and lets; a local operand also
    sees its struct's fields (the struct it is printed for)."""

    def __init__(self, resolver, operand, **kw):
        self.operand = operand
        self.outer = None
        owner = operand.owner
        kw.setdefault("lets", list(operand.lets))
        if owner is not None:
            kw.setdefault("operands", list(owner.operands))
        super().__init__(resolver, operand, **kw)
        if owner is not None:
            self.outer = resolver.scope_for(owner, context=self.context)

    def resolve(self, node):
        segs = node.segments
        if len(segs) == 1 and (segs[0] in self.loops or segs[0] in self.lets):
            return self.resolve_special(node)
        if segs[0] in self.operand.param_types:
            target = self.spec.type_named(self.operand.param_types[segs[0]])
            if not isinstance(target, Struct):
                raise X.ExprError(node.pos, f"parameter '{segs[0]}' has no struct type", cascade=True)
            root = R.Access(R.Param(segs[0]), ())
            if len(segs) == 1:
                return R.AggValue(root, target)
            return walk_members(self, node, segs[1:], target.members, root, f"struct '{target.name}'", target)
        if len(segs) == 1 and segs[0] in self.operand.params:
            return R.ParamValue(self.operand, segs[0])
        if self.outer is not None:
            return self.outer.resolve(node)
        raise X.ExprError(node.pos, f"'{node.text()}' is not a parameter of operand '{self.operand.name}' "
                                    f"(parameters: {', '.join(self.operand.params)})")

    def with_loop(self, name):
        clone = super().with_loop(name)
        if self.outer is not None:
            clone.outer = self.outer.with_loop(name)
        return clone

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
        if len(node.segments) == 1 and node.segments[0] in self.loops:
            return R.LoopValue(node.segments[0])
        raise X.ExprError(node.pos, f"'{node.text()}': only context variables ($offset...) are known here")

    def resolve_item(self, node, which):
        raise X.ExprError(node.pos, f"{which}() only applies inside a <sequence>")
