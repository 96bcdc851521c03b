"""The spec model: one class per XML element kind (docs/xml-reference.md).

Every class is a slotted dataclass, so what the model holds is exactly what
is declared here: a stage cannot attach an attribute nobody declared.  The
fields come in four groups, marked in each class:

  as written   what build.py reads from the XML (names, numbers, texts)
  parsed       the mini-syntaxes build.py parses (expressions, templates)
  links        names build.py resolves to the objects they mean
  resolved     facts check/ computes and the back-ends read (selection
               patterns, which operands are used, a let's value checked
               in its scope...); None or empty until check has run

Expressions and templates inside the model are resolved in place: every
name of an expression is bound, once, to the entity it means (refs.py).
Nothing in here knows C, or any instruction set.
"""

import re
from dataclasses import dataclass, field as dc_field
from typing import List, Optional

from .diag import Loc

BUILTIN_TYPES = ("uint", "sint", "bool", "float16", "fixed", "sfixed")


def upper_snake(name):
    """ShaderType -> SHADER_TYPE; a name with no lower-case letter is kept
    as it is (TESSELLATION_INIT, Y8_U8V8_422_UNORM)."""
    if not re.search(r"[a-z]", name):
        return name
    s = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    return s.upper()


def max_bits(t):
    """The most bits a unit of type t can take; 0 when unbounded (a
    sequence: its items and sizes vary)."""
    if isinstance(t, Struct):
        return t.bits
    if isinstance(t, Choice):
        sizes = [max_bits(a.type.target) for a in t.alts]
        return 0 if not sizes or 0 in sizes else max(sizes)
    return 0


def held_types(t, variants=True):
    """The types a unit of type t holds directly: a struct's struct fields
    (with `variants`, its variants' too), a sequence's items, a choice's
    alternatives; unresolved ones left out."""
    if isinstance(t, Struct):
        fields = t.fields + ([f for v in t.variants for f in v.fields] if variants else [])
        kids = [f.type.target for f in fields if f.type.kind == "struct"]
    elif isinstance(t, Sequence):
        kids = [it.type.target for it in t.items]
    elif isinstance(t, Choice):
        kids = [a.type.target for a in t.alts]
    else:
        kids = []
    return [k for k in kids if k is not None]


def model(cls):
    """A model class: a dataclass with slots (no undeclared attributes)
    that compares by identity, as every model object is one XML element."""
    return dataclass(slots=True, eq=False)(cls)


@model
class Source:
    id: str
    url: str
    text: str
    loc: Loc


@model
class Property:
    """<property>: a number attached to every value of an enum (how many
    sources an opcode has...).  `default` for values that do not give it,
    `unnamed` for numbers the enum does not name."""
    name: str
    default: int
    unnamed: int
    doc: str
    loc: Loc
    src: List[str] = dc_field(default_factory=list)


@model
class EnumValue:
    name: str
    value: int
    display: str
    doc: str
    src: List[str]
    loc: Loc
    props: dict = dc_field(default_factory=dict)  # property name -> int


@model
class Enum:
    name: str
    width: Optional[int]
    values: List[EnumValue]
    doc: str
    src: List[str]
    loc: Loc
    properties: list = dc_field(default_factory=list)

    def property_named(self, name):
        return next((p for p in self.properties if p.name == name), None)

    def value_named(self, v):
        for ev in self.values:
            if ev.value == v:
                return ev
        return None

    @property
    def min_width(self):
        return max([max(ev.value, 1).bit_length() for ev in self.values] + [1])


@model
class TypeRef:
    """A field's type: a builtin, or an enum, or an aggregate (struct,
    sequence, choice)."""
    name: str                 # as written
    kind: str                 # uint sint bool float16 fixed hex enum struct sequence choice ("?" until linked)
    enum: Optional[Enum] = None   # link
    target: object = None         # link: Struct / Sequence / Choice
    frac: int = 0                 # fixed point: fraction bits

    @property
    def aggregate(self):
        return self.kind in ("struct", "sequence", "choice")

    @property
    def signed(self):
        return self.kind in ("sint", "sfixed")


@model
class Field:
    """<field>, <reserved>, <mbz>, <mbo>, <fixed>: bits at fixed positions."""
    # as written
    role: str                  # field reserved mbz mbo fixed
    name: str
    pieces: list               # [(lo, width)], least significant piece first
    type: TypeRef
    count: int = 1             # array elements
    default: Optional[int] = None
    expect: Optional[int] = None
    expect_severity: str = "warning"
    format: str = "dec"
    value: Optional[int] = None  # <fixed>
    shared: bool = False         # <fixed shared="true">: bits that are also a field's
    severity: str = "error"      # reserved/mbz/mbo finding severity
    anonymous: bool = False
    doc: str = ""
    src: List[str] = dc_field(default_factory=list)
    loc: Loc = None
    element: object = None       # the XML element, for attribute locations
    # links
    owner: object = None         # Struct or Variant
    # resolved
    shared_bits: list = dc_field(default_factory=list)  # shared <fixed>: [(field, bit of field, value)]
    is_length_flag: bool = False  # the struct's length-flag: the encoder sets it

    @property
    def width(self):
        return sum(w for _, w in self.pieces)

    @property
    def stride(self):
        """Bits between array elements: they follow each other."""
        return self.width

    @property
    def enum(self):
        return self.type.enum if self.type.kind == "enum" else None

    @property
    def is_array(self):
        return self.count > 1

    @property
    def stored(self):
        """Whether the C struct has a member for it (fixed bits do not)."""
        return self.role != "fixed"

    def element_pieces(self, i):
        return [(lo + i * self.stride, w) for lo, w in self.pieces]

    def bit_set(self):
        """All bits of all elements, as an int bitmask."""
        m = 0
        for i in range(self.count):
            for lo, w in self.element_pieces(i):
                m |= ((1 << w) - 1) << lo
        return m

    def describe_bits(self, i=None):
        pieces = self.pieces if i is None else self.element_pieces(i)
        txt = " ".join(f"{lo}" if w == 1 else f"{lo}..{lo + w - 1}" for lo, w in pieces)
        if self.count > 1 and i is None:
            txt += f" (x{self.count}, stride {self.stride})"
        return txt

    @property
    def min_value(self):
        if self.type.signed:
            return -(1 << (self.width - 1))
        return 0

    @property
    def max_value(self):
        if self.type.signed:
            return (1 << (self.width - 1)) - 1
        return (1 << self.width) - 1


@model
class Use:
    """<use>: an operand rule applied to expressions over fields."""
    # as written
    name: str
    operand_name: str
    args_text: str
    loc: Loc
    args_loc: Loc
    doc: str = ""
    src: List[str] = dc_field(default_factory=list)
    # parsed
    args: list = dc_field(default_factory=list)
    # links
    operand: object = None
    owner: object = None


@model
class Let:
    """<let>: a named expression, resolved once in the scope of its owner."""
    name: str
    value_text: str
    loc: Loc
    value_loc: Loc
    doc: str = ""
    src: List[str] = dc_field(default_factory=list)
    value: object = None          # parsed, then resolved
    owner: object = None          # link: Struct, Variant, Sequence, Choice or Operand
    # resolved: False while unchecked, True once value is resolved (or broken)
    checked: bool = False
    broken: bool = False


@model
class Match:
    field_path: Optional[str]
    pieces: Optional[list]
    value_text: str
    loc: Loc
    src: List[str] = dc_field(default_factory=list)  # its own and its <when>'s
    # resolved: bit mask and value over the owning struct's bits
    mask: int = 0
    value: int = 0


@model
class Rule:
    name: str
    check_text: str
    when_text: Optional[str]
    severity: str
    field: Optional[str]
    message_text: str
    loc: Loc
    check_loc: Loc
    when_loc: Optional[Loc]
    message_loc: Loc
    doc: str = ""
    src: List[str] = dc_field(default_factory=list)
    element: object = None
    check: object = None      # parsed
    when: object = None       # parsed
    message: list = None      # parsed template


@model
class Display:
    text: str
    when_text: Optional[str]
    loc: Loc
    text_loc: Loc
    when_loc: Optional[Loc]
    src: List[str] = dc_field(default_factory=list)
    parts: list = None        # parsed template
    when: object = None       # parsed


@model
class Variant:
    # as written
    name: str
    priority: int
    fallback: bool
    path_named: bool                # fields listed under the variant's name (always for an overlay's views)
    whens: list                     # [[Match]] -- OR of ANDs
    members: list                   # Field and Use, document order
    rules: List[Rule]
    displays: List[Display]
    doc: str
    src: List[str]
    loc: Loc
    element: object = None
    explicit_priority: bool = False
    index: int = 0                  # 1-based; 0 means "no variant"
    lets: list = dc_field(default_factory=list)
    operands: list = dc_field(default_factory=list)
    # links
    owner: object = None            # the Struct
    # resolved: the (mask, value) bit patterns that select it
    patterns: list = dc_field(default_factory=list)

    @property
    def fields(self):
        return [m for m in self.members if isinstance(m, Field)]

    @property
    def uses(self):
        return [m for m in self.members if isinstance(m, Use)]


@model
class Prefer:
    """<prefer>: of several encodings that print the same text, the
    assembler takes the one whose `value` is greatest (the reference
    tool's encoder's choice: Midgard's scheduler's unit order)."""
    value_text: str
    loc: Loc
    value_loc: Loc
    doc: str = ""
    src: List[str] = dc_field(default_factory=list)
    value: object = None     # parsed


@model
class Fill:
    """<fill>: what the assembler writes into bits the text leaves open,
    where the reference tool's encoder writes something other than one
    constant (a `default`): after a unit is read, `field` becomes `value`
    (when `when` holds), and stays so only if the unit still prints the
    same text with no more findings.  Applied in document order."""
    field: str
    value_text: str
    when_text: Optional[str]
    loc: Loc
    field_loc: Loc
    value_loc: Loc
    when_loc: Optional[Loc]
    doc: str = ""
    src: List[str] = dc_field(default_factory=list)
    value: object = None     # parsed
    when: object = None      # parsed
    target: object = None    # resolved: the field path it sets (an expression node)


@model
class Struct:
    # as written
    name: str
    bits: int
    length_text: Optional[str]
    min_length: Optional[int]
    members: list
    variants: List[Variant]
    rules: List[Rule]
    displays: List[Display]
    doc: str
    src: List[str]
    loc: Loc
    element: object = None
    overlay: bool = False
    lets: list = dc_field(default_factory=list)
    operands: list = dc_field(default_factory=list)  # local operands
    length_flag: Optional[str] = None  # a 1-bit field choosing `bits` or `min_length`
    prefer: Optional[Prefer] = None  # what isa as takes of encodings printing the same text
    fills: list = dc_field(default_factory=list)  # <fill>s: what isa as writes where the text says nothing
    # parsed
    length: object = None
    length_loc: Optional[Loc] = None
    # resolved
    length_flag_field: object = None
    kind = "struct"

    @property
    def fields(self):
        return [m for m in self.members if isinstance(m, Field)]

    @property
    def uses(self):
        return [m for m in self.members if isinstance(m, Use)]

    @property
    def words(self):
        return (self.bits + 31) // 32

    @property
    def variable_length(self):
        return self.length_text is not None


@model
class Item:
    name: str
    type: TypeRef
    present_text: Optional[str]
    count_text: Optional[str]
    max: Optional[int]
    doc: str
    src: List[str]
    loc: Loc
    element: object = None
    padding: bool = False   # filler: the encoder makes `count` elements, zeros unless given
    present: object = None  # parsed
    count: object = None    # parsed
    present_loc: Optional[Loc] = None
    count_loc: Optional[Loc] = None
    owner: object = None    # link: the Sequence


@model
class Derive:
    field: str
    value_text: str
    loc: Loc
    field_loc: Loc
    value_loc: Loc
    doc: str = ""
    src: List[str] = dc_field(default_factory=list)
    value: object = None     # parsed
    target: object = None    # resolved: the field path it sets (an expression node)


@model
class Sequence:
    name: str
    align: int
    size_text: Optional[str]
    items: List[Item]
    derives: List[Derive]
    rules: List[Rule]
    displays: List[Display]
    doc: str
    src: List[str]
    loc: Loc
    lets: list = dc_field(default_factory=list)
    operands: list = dc_field(default_factory=list)
    size: object = None      # parsed
    size_loc: Optional[Loc] = None
    prefer: Optional[Prefer] = None  # what isa as takes of encodings printing the same text
    fills: list = dc_field(default_factory=list)  # <fill>s: what isa as writes where the text says nothing
    kind = "sequence"


@model
class Alt:
    type: TypeRef
    priority: int
    whens: list
    loc: Loc
    doc: str = ""
    src: List[str] = dc_field(default_factory=list)
    element: object = None
    index: int = 0
    explicit_priority: bool = False
    first: bool = False     # the first unit of a program, chosen by position not bits
    shadowed: bool = False  # never chosen: higher priority alternatives match all its bits
    # resolved: the (mask, value) patterns of its encoding (none for first="true")
    patterns: list = dc_field(default_factory=list)

    @property
    def name(self):
        return self.type.name

    @property
    def selecting(self):
        """The patterns that select it when decoding: a shadowed or first
        alternative is never chosen by its bits."""
        return [] if self.shadowed or self.first else self.patterns


@model
class Choice:
    name: str
    alts: List[Alt]
    doc: str
    src: List[str]
    loc: Loc
    lets: list = dc_field(default_factory=list)
    rules: list = dc_field(default_factory=list)
    ordered: bool = False   # overlapping alternatives: the earlier one wins (priorities follow the order)
    mnemonic_column: Optional[int] = None  # its types' displays pad their first word to this width
    kind = "choice"


@model
class Case:
    when_text: Optional[str]
    display_text: str
    undefined: bool
    message_text: Optional[str]
    loc: Loc
    when_loc: Optional[Loc]
    display_loc: Loc
    message_loc: Optional[Loc]
    doc: str = ""
    src: List[str] = dc_field(default_factory=list)
    when: object = None     # parsed
    display: list = None    # parsed template
    message: list = None    # parsed template


@model
class Operand:
    name: str
    params: List[str]
    cases: List[Case]
    doc: str
    src: List[str]
    loc: Loc
    param_types: dict = dc_field(default_factory=dict)  # param name -> struct name, for struct params
    param_locs: dict = dc_field(default_factory=dict)
    lets: list = dc_field(default_factory=list)
    rules: list = dc_field(default_factory=list)  # checked wherever printing reaches it, parameters in scope
    owner: object = None   # link: the Struct/Variant/Sequence it is local to, or None (global)
    used: bool = False     # resolved: something prints or checks it (unused global operands generate nothing)


@model
class StateSet:
    """<set>: after a unit for which `when` holds, element `index` of an
    array state becomes `value` (both read the states as before the unit)."""
    index_text: str
    value_text: str
    when_text: Optional[str]
    loc: Loc
    index_loc: Loc
    value_loc: Loc
    when_loc: Optional[Loc] = None
    index: object = None    # parsed
    value: object = None    # parsed
    when: object = None     # parsed


@model
class State:
    """A value carried from unit to unit of a program: `$name` is its value
    before a unit, `next` (over that unit) its value after.  An array
    (count > 1, or 0: no count, it grows) keeps its values except where its
    <set>s write."""
    name: str
    init: int
    next_text: Optional[str]
    loc: Loc
    next_loc: Optional[Loc]
    doc: str = ""
    src: List[str] = dc_field(default_factory=list)
    count: int = 1       # > 1: an array, $name[i]; 0: an array without a count, which grows
    sets: list = dc_field(default_factory=list)  # an array's <set>s, in order
    next: object = None  # parsed
    index: int = 0       # where its first value is in the state array (count 0: which grown array)

    @property
    def is_array(self):
        return self.count != 1


@model
class Option:
    """<option>: a choice the caller makes for a whole program (the GPU
    model a binary is for), read as $name; an enum's value."""
    name: str
    type_name: str
    default_text: str
    loc: Loc
    doc: str = ""
    src: List[str] = dc_field(default_factory=list)
    index: int = 0
    enum: object = None   # link
    default: int = 0      # link: the default value's number


@model
class Stream:
    unit_name: str
    count: Optional[int]
    stop_text: Optional[str]
    loc: Loc
    stop_loc: Optional[Loc]
    src: List[str] = dc_field(default_factory=list)
    prefix_text: Optional[str] = None
    prefix_loc: Optional[Loc] = None
    separator: str = "\n"
    derives: list = dc_field(default_factory=list)  # <derive>s: set by the program encoder
    states: list = dc_field(default_factory=list)   # <state>s: values carried across units
    options: list = dc_field(default_factory=list)  # <option>s: chosen by the caller per program
    skip_zero: int = 0      # bits that, all zero, start a run of skipped zero words
    skip_unit: int = 0      # bits per skipped zero word
    resync: int = 0         # bits skipped where no unit decodes (0: an error instead)
    failed: str = ""        # text printed for such a place
    pad_end: bool = False   # the input's end reads as zeros for the last unit
    after_stop: bytes = b""  # what the compiler writes after a program's stopping unit
    stop: object = None     # parsed
    prefix: list = None     # parsed template
    unit: object = None     # link


@model
class Container:
    """<container>: a chunked file format a program may come wrapped in."""
    name: str
    magic: str
    layout: str
    chunks: list  # [(id, skip)]
    doc: str
    loc: Loc
    src: List[str] = dc_field(default_factory=list)


@model
class Spec:
    name: str
    title: str
    file: str
    doc: str
    src: List[str]
    loc: Loc
    sources: List[Source] = dc_field(default_factory=list)
    enums: List[Enum] = dc_field(default_factory=list)
    types: list = dc_field(default_factory=list)       # Struct/Sequence/Choice, document order
    operands: List[Operand] = dc_field(default_factory=list)
    containers: list = dc_field(default_factory=list)
    stream: Optional[Stream] = None
    version: Optional[str] = None     # the version this spec was selected as (None: unversioned)
    versions: list = dc_field(default_factory=list)  # every version of the file, oldest first
    document: object = None           # the loaded XML (xmlload.Document), for locations
    warnings: list = dc_field(default_factory=list)  # resolved: what check warned about
    reads_prev: bool = False          # resolved: some expression reads $prev (the cursor keeps the unit before)

    def type_named(self, name):
        for t in self.types:
            if t.name == name:
                return t
        return None

    def enum_named(self, name):
        for e in self.enums:
            if e.name == name:
                return e
        return None

    @property
    def structs(self):
        return [t for t in self.types if isinstance(t, Struct)]

    def all_operands(self):
        """Every operand: the global ones, then the local ones of each
        type (and variant), in document order."""
        out = list(self.operands)
        for t in self.types:
            out += t.operands if isinstance(t, (Struct, Sequence)) else []
            for v in getattr(t, "variants", ()):
                out += v.operands
        return out

    def all_lets(self):
        """Every <let>, with the scope it belongs to."""
        out = []
        for t in self.types:
            out += t.lets
            for v in getattr(t, "variants", ()):
                out += v.lets
        for o in self.all_operands():
            out += o.lets
        return out
