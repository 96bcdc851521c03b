"""What the names of an expression mean, once resolved.

Name resolution (resolve.py) binds every name of an expression to one of
the objects below, and stores it on the expression node (`node.ref`).  They
refer to model entities only -- a field, a let, a state, an item, an
operand -- never to C: each back-end decides how to read them (the C
back-end in cgen/cexpr.py; an assembler or a reference manual would read
the same bindings).

A field value is reached through an `Access`: a root object and a list of
steps from it.  The root is the object the expression is written about
(`SELF`: the struct, sequence or choice whose element holds the
expression), a neighbouring unit of the program (`PREV`, `NEXT`), the unit
at a byte offset of the program (`At`), or a struct-typed operand
parameter (`Param`).
"""

from dataclasses import dataclass, field as dc_field
from typing import Optional

# ---------------------------------------------------------------- roots


@dataclass(frozen=True)
class Root:
    kind: str               # "self", "prev", "next", "at" or "param"
    param: Optional[str] = None   # the parameter's name, for "param"
    offset: object = dc_field(default=None, compare=False)  # "at": the checked expression of the unit's byte offset


SELF = Root("self")
PREV = Root("prev")
NEXT = Root("next")


def Param(name):
    return Root("param", name)


def At(offset):
    return Root("at", offset=offset)


# ---------------------------------------------------------------- steps


@dataclass(frozen=True, eq=False)
class Member:
    """A stored field of the struct (or variant) reached so far."""
    field: object


@dataclass(frozen=True, eq=False)
class InVariant:
    """Into a variant of the struct reached so far: the selected variant,
    or (in an overlay struct) one of its views."""
    variant: object


@dataclass(frozen=True, eq=False)
class Element:
    """An element of an array field: `index` is a checked expression; a
    non-constant one reads 0 when it is out of range (`count`)."""
    index: object
    count: int

    @property
    def constant(self):
        from .expr import Num
        return isinstance(self.index, Num)


@dataclass(frozen=True, eq=False)
class ItemOf:
    """An item of the sequence reached so far."""
    item: object


@dataclass(frozen=True, eq=False)
class ItemElement:
    """An element of a repeated item; past its count it reads 0."""
    index: object
    item: object


@dataclass(frozen=True, eq=False)
class AltOf:
    """An alternative of the choice reached so far; when another one is
    chosen, what is read through it is 0."""
    alt: object


@dataclass(frozen=True, eq=False)
class Access:
    root: Root
    steps: tuple

    @property
    def guarded(self):
        """Whether reading through it can fall back to 0 (a dynamic index,
        an item element, an alternative, a neighbouring unit)."""
        return self.root in (PREV, NEXT) or any(
            isinstance(s, (ItemElement, AltOf)) or (isinstance(s, Element) and not s.constant)
            for s in self.steps)

    @property
    def settable(self):
        """Whether a program can store into it: no index that is only known
        at run time and no neighbouring unit (an alternative is fine: the
        store is made when it is the chosen one)."""
        return self.root not in (PREV, NEXT) and not any(
            isinstance(s, ItemElement) or (isinstance(s, Element) and not s.constant) for s in self.steps)


# ---------------------------------------------------------------- values
# Each has `type`: "int", "float", or "agg" (printable, not computable).


@dataclass(eq=False)
class FieldValue:
    """The value of a stored scalar field; with `prop`, that property of
    the field's enum value (`op.srcs`)."""
    access: Access
    field: object
    prop: object = None
    type: str = "int"


@dataclass(eq=False)
class FixedValue:
    """A <fixed> field: its constant value."""
    field: object
    type: str = "int"

    @property
    def value(self):
        return self.field.value


@dataclass(eq=False)
class LetValue:
    """A <let>: of the scope the expression is in (`on` None), or of the
    struct instance `on` leads to (`inner.let`)."""
    let: object
    on: Optional[Access] = None

    @property
    def type(self):
        return self.let.value.type if self.let.value is not None else "int"


@dataclass(eq=False)
class ContextValue:
    """A built-in context variable: $offset, $index, $size, $last,
    $program_size, $listing of a unit in a program; $size (a sequence's
    size, in <derive>s)."""
    name: str
    type: str = "int"


@dataclass(eq=False)
class StateValue:
    """$name of a <state> (index: the element of an array state)."""
    state: object
    index: object = None
    type: str = "int"


@dataclass(eq=False)
class OptionValue:
    """$name of an <option>, or a property of its value ($gpu.v4)."""
    option: object
    prop: object = None
    type: str = "int"


@dataclass(eq=False)
class LoopValue:
    """The variable of a template {for}."""
    name: str
    type: str = "int"


@dataclass(eq=False)
class ParamValue:
    """An integer parameter of an operand."""
    operand: object
    name: str
    type: str = "int"


@dataclass(eq=False)
class ItemPresent:
    """present(item) of a sequence; count(item) with `count`."""
    item: object
    count: bool = False
    type: str = "int"


@dataclass(eq=False)
class AltPresent:
    """present(Alt) of a choice: whether Alt is the chosen alternative."""
    alt: object
    type: str = "int"


@dataclass(eq=False)
class AggValue:
    """A struct, sequence or choice instance (printed with its display):
    a struct field, an item, a struct-typed parameter."""
    access: Access
    target: object
    field: object = None
    item: object = None
    type: str = "agg"


@dataclass(eq=False)
class UseValue:
    """A <use> of the struct: its operand applied to its arguments."""
    use: object
    type: str = "agg"


@dataclass(eq=False)
class OperandCall:
    """{Op(args)} in a template: operand Op printed with these arguments."""
    operand: object
    args: list
    type: str = "agg"


def field_of(ref):
    """The model field a value reads, if it reads one."""
    if isinstance(ref, (FieldValue, FixedValue)):
        return ref.field if getattr(ref, "prop", None) is None else None
    if isinstance(ref, AggValue):
        return ref.field
    return None
