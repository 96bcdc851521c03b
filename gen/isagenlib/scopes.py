"""Name resolution for expressions: what `ctrl.count` means, and which C
reads it, depends on where the expression is written.

Generated functions always call the object they work on `v` (a pointer)
and the context `ctx`; a scope is created with the C expression of the
object (`base`, e.g. "v" or "(&v->varying)") and answers with `Ref`s whose
`.c` is an int64_t C expression and whose `.lvalue` is the C member itself.
"""

from . import expr as X
from .model import Field, Sequence, Struct, Use


class Ref:
    def __init__(self, c, type="int", field=None, lvalue=None, agg=None, use=None,
                 item=None, const=None):
        self.c = c              # C rvalue (int64_t or double)
        self.type = type        # "int", "float" or "agg" (printable only)
        self.field = field      # model Field, when the name is a field
        self.lvalue = lvalue    # C lvalue of the member (no cast)
        self.agg = agg          # Struct/Sequence/Choice for aggregates
        self.use = use          # model Use for operands
        self.item = item        # model Item
        self.const = const      # Python value when known at generation time


def c_int(v):
    return X.to_c(X.Num(v, 0))


CONTEXT_VARS = {
    "offset": "byte offset of the unit in its program",
    "index": "number of the unit in its program (0 for the first)",
    "size": "size of the unit in bits",
}


class BaseScope(X.Scope):
    def __init__(self, spec, locals_=None, vars_=None):
        self.spec = spec
        self.locals = dict(locals_ or {})   # loop variable name -> C variable
        self.vars = vars_ if vars_ is not None else {k: f"(int64_t)ctx->{k}" for k in CONTEXT_VARS}

    def with_local(self, name, cvar):
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone.locals = dict(self.locals)
        clone.locals[name] = cvar
        return clone

    def resolve_var(self, node):
        if node.name in self.vars:
            return Ref(self.vars[node.name])
        known = ", ".join("$" + k for k in self.vars) or "none here"
        raise X.ExprError(node.pos, f"unknown context variable '${node.name}' (known: {known})")

    def resolve_enum(self, node):
        e = self.spec.enum_named(node.enum)
        if e is None:
            raise X.ExprError(node.pos, f"unknown enum '{node.enum}'")
        ev = next((v for v in e.values if v.name == node.name), None)
        if ev is None:
            raise X.ExprError(node.pos, f"enum '{e.name}' has no value '{node.name}'")
        return ev.value

    # ---- walking a path through struct members

    def _members_of(self, struct, variant):
        members = list(struct.members)
        if variant is not None:
            members += variant.members
        return members

    def walk_members(self, node, segs, members, access, owner_desc, guards):
        """Resolve segs (first is a member name) among `members`, where the
        containing object is the C lvalue `access`."""
        name = segs[0]
        member = next((m for m in members if m.name == name), None)
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
        lv = f"{access}.{member.c_member}" if hasattr(member, "c_member") else f"{access}.{name}"
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
            return self.walk_members(node, rest, target.members, lv, f"struct '{target.name}'", guards)
        if rest:
            raise X.ExprError(node.pos, f"'{name}' has no members")
        if f.type.kind == "float16":
            c = f"(int64_t){lv}"
        else:
            c = f"(int64_t){lv}"
        if guards:
            c = f"(({' && '.join(guards)}) ? {c} : INT64_C(0))"
        return Ref(c, field=f, lvalue=lv if not guards else None)


class StructScope(BaseScope):
    """Inside a <struct> (and, with `variant`, inside one of its variants)."""

    def __init__(self, spec, struct, variant=None, base="v", **kw):
        super().__init__(spec, **kw)
        self.struct, self.variant, self.base = struct, variant, base

    def resolve(self, node):
        segs = node.segments
        if len(segs) == 1 and segs[0] in self.locals:
            return Ref(f"(int64_t){self.locals[segs[0]]}")
        name = segs[0]
        common = next((m for m in self.struct.members if m.name == name), None)
        if common is not None or self.variant is None:
            return self.walk_members(node, segs, self.struct.members, f"(*{self.base})",
                                     f"struct '{self.struct.name}'", [])
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
        super().__init__(spec, **kw)
        self.seq, self.base = seq, base
        self.visible = visible  # None = all items

    def _item(self, node, name):
        item = next((it for it in self.seq.items if it.name == name), None)
        if item is None:
            raise X.ExprError(node.pos, f"'{name}' is not an item of sequence '{self.seq.name}'")
        if self.visible is not None and item not in self.visible:
            raise X.ExprError(node.pos, f"item '{name}' comes later in sequence '{self.seq.name}'; it is not decoded yet here")
        return item

    def resolve(self, node):
        segs = node.segments
        if len(segs) == 1 and segs[0] in self.locals:
            return Ref(f"(int64_t){self.locals[segs[0]]}")
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
        r = self.walk_members(node, rest, target.members, lv, f"struct '{target.name}'", guards)
        return r

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


class OperandScope(BaseScope):
    """Inside an <operand>: the parameters, passed as int64_t p_<name>."""

    def __init__(self, spec, operand, **kw):
        super().__init__(spec, **kw)
        self.operand = operand

    def resolve(self, node):
        segs = node.segments
        if len(segs) == 1 and segs[0] in self.locals:
            return Ref(f"(int64_t){self.locals[segs[0]]}")
        if len(segs) == 1 and segs[0] in self.operand.params:
            return Ref(f"p_{segs[0]}")
        raise X.ExprError(node.pos, f"'{node.text()}' is not a parameter of operand '{self.operand.name}' (parameters: {', '.join(self.operand.params)})")

    def resolve_item(self, node, which):
        raise X.ExprError(node.pos, f"{which}() only applies inside a <sequence>")


class ContextScope(BaseScope):
    """Only the context variables ($offset, $index, $size)."""

    def resolve(self, node):
        if len(node.segments) == 1 and node.segments[0] in self.locals:
            return Ref(f"(int64_t){self.locals[node.segments[0]]}")
        raise X.ExprError(node.pos, f"'{node.text()}': only $offset, $index and $size are known here")

    def resolve_item(self, node, which):
        raise X.ExprError(node.pos, f"{which}() only applies inside a <sequence>")


def scope_for(spec, owner, variant=None, base="v", **kw):
    if isinstance(owner, Sequence):
        return SequenceScope(spec, owner, base=base, **kw)
    return StructScope(spec, owner, variant=variant, base=base, **kw)
