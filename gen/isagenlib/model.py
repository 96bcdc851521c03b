"""The spec model: one class per XML element kind (see docs/xml-reference.md).

`build.py` makes these objects from the XML and resolves names; `check.py`
checks their meaning; the templates in gen/templates render them.  Nothing
in here knows about a particular instruction set.
"""

import re
from dataclasses import dataclass, field as dc_field
from typing import List, Optional

from .diag import Loc

C_KEYWORDS = set("""
auto break case char const continue default do double else enum extern float
for goto if inline int long register restrict return short signed sizeof static
struct switch typedef union unsigned void volatile while _Bool _Complex
_Imaginary _Alignas _Alignof _Atomic _Generic _Noreturn _Static_assert
_Thread_local bool true false alignas alignof and and_eq asm bitand bitor catch
char16_t char32_t class compl constexpr const_cast decltype delete dynamic_cast
explicit export friend mutable namespace new noexcept not not_eq nullptr
operator or or_eq private protected public reinterpret_cast static_assert
static_cast template this thread_local throw try typeid typename using virtual
wchar_t xor xor_eq NULL
""".split())

BUILTIN_TYPES = ("uint", "sint", "bool", "float16", "fixed", "sfixed", "hex")


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


def c_prefix(spec_name):
    """'nv-sph' -> 'nv_sph'; a version's spec 'tgsi@mesa-7.10' -> 'tgsi_mesa_7_10'."""
    return re.sub(r"[^A-Za-z0-9_]", "_", spec_name)


class Element:
    """Common to every model object: where it came from and what it says."""
    loc: Loc
    doc: str
    src: List[str]


@dataclass
class Source:
    id: str
    url: str
    text: str
    loc: Loc


@dataclass
class EnumValue:
    name: str
    value: int
    display: str
    doc: str
    src: List[str]
    loc: Loc
    c_name: str = ""
    props: dict = dc_field(default_factory=dict)  # property name -> int


@dataclass
class Property:
    """<property>: a number attached to every value of an enum (how many
    sources an opcode has...).  `default` for values that do not give it,
    `unnamed` for numbers the enum does not name."""
    name: str
    default: int
    unnamed: int
    doc: str
    loc: Loc
    c_fn: str = ""


@dataclass
class Enum:
    name: str
    width: Optional[int]
    values: List[EnumValue]
    doc: str
    src: List[str]
    loc: Loc
    c_type: str = ""
    c_name_fn: str = ""
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


@dataclass
class TypeRef:
    """A field's type: a builtin, or an enum, or an aggregate (struct,
    sequence, choice)."""
    name: str                 # as written in the XML
    kind: str                 # uint sint bool float16 fixed hex enum struct sequence choice
    enum: Optional[Enum] = None
    target: object = None     # Struct / Sequence / Choice
    frac: int = 0             # fixed point: fraction bits

    @property
    def aggregate(self):
        return self.kind in ("struct", "sequence", "choice")

    @property
    def signed(self):
        return self.kind in ("sint", "sfixed")


@dataclass
class Field:
    """<field>, <reserved>, <mbz>, <mbo>, <fixed>: bits at fixed positions."""
    role: str                  # field reserved mbz mbo fixed
    name: str
    pieces: list               # [(lo, width)], least significant piece first
    type: TypeRef
    count: int = 1             # array elements
    stride: int = 0            # bits between elements (default: width)
    default: Optional[int] = None
    expect: Optional[int] = None
    expect_severity: str = "warning"
    format: str = "dec"
    value: Optional[int] = None  # <fixed>
    severity: str = "error"      # reserved/mbz/mbo finding severity
    anonymous: bool = False
    doc: str = ""
    src: List[str] = dc_field(default_factory=list)
    loc: Loc = None
    owner: object = None         # Struct or Variant

    @property
    def width(self):
        return sum(w for _, w in self.pieces)

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


@dataclass
class Use:
    """<use>: an operand rule applied to expressions over fields."""
    name: str
    operand_name: str
    args_text: str
    args: list
    loc: Loc
    args_loc: Loc
    doc: str = ""
    src: List[str] = dc_field(default_factory=list)
    operand: object = None
    owner: object = None


@dataclass
class Let:
    """<let>: a named expression."""
    name: str
    value_text: str
    loc: Loc
    value_loc: Loc
    doc: str = ""
    src: List[str] = dc_field(default_factory=list)
    value: object = None


@dataclass
class Match:
    field_path: Optional[str]
    pieces: Optional[list]
    value_text: str
    mask_text: Optional[str]
    loc: Loc
    # resolved: bit mask and value over the owning struct's bits
    mask: int = 0
    value: int = 0


@dataclass
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
    check: object = None
    when: object = None
    message: list = None


@dataclass
class Display:
    text: str
    when_text: Optional[str]
    loc: Loc
    text_loc: Loc
    when_loc: Optional[Loc]
    src: List[str] = dc_field(default_factory=list)
    parts: list = None
    when: object = None


@dataclass
class Variant:
    name: str
    priority: int
    fallback: bool
    path_named: bool
    length_text: Optional[str]
    whens: list                     # [[Match]] -- OR of ANDs
    members: list                   # Field and Use, document order
    rules: List[Rule]
    displays: List[Display]
    doc: str
    src: List[str]
    loc: Loc
    owner: object = None            # the Struct
    index: int = 0                  # 1-based; 0 means "no variant"
    lets: list = dc_field(default_factory=list)
    operands: list = dc_field(default_factory=list)
    length: object = None
    length_loc: Optional[Loc] = None
    explicit_priority: bool = False

    @property
    def fields(self):
        return [m for m in self.members if isinstance(m, Field)]

    @property
    def uses(self):
        return [m for m in self.members if isinstance(m, Use)]


@dataclass
class Struct:
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
    length: object = None
    length_loc: Optional[Loc] = None
    overlay: bool = False
    lets: list = dc_field(default_factory=list)
    operands: list = dc_field(default_factory=list)  # local operands
    length_flag: Optional[str] = None  # a 1-bit field choosing `bits` or `min_length`
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
        return self.length_text is not None or any(v.length_text for v in self.variants)


@dataclass
class Item:
    name: str
    type: TypeRef
    present_text: Optional[str]
    count_text: Optional[str]
    max: Optional[int]
    align: int
    doc: str
    src: List[str]
    loc: Loc
    present: object = None
    count: object = None
    present_loc: Optional[Loc] = None
    count_loc: Optional[Loc] = None
    owner: object = None
    padding: bool = False   # filler: the encoder makes `count` elements, zeros unless given


@dataclass
class Derive:
    field: str
    value_text: str
    loc: Loc
    field_loc: Loc
    value_loc: Loc
    doc: str = ""
    src: List[str] = dc_field(default_factory=list)
    value: object = None


@dataclass
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
    size: object = None
    size_loc: Optional[Loc] = None
    lets: list = dc_field(default_factory=list)
    operands: list = dc_field(default_factory=list)
    kind = "sequence"


@dataclass
class Alt:
    type: TypeRef
    priority: int
    whens: list
    loc: Loc
    doc: str = ""
    src: List[str] = dc_field(default_factory=list)
    index: int = 0
    explicit_priority: bool = False
    first: bool = False    # the first unit of a program, chosen by position not bits
    shadowed: bool = False  # never chosen: higher priority alternatives match all its bits

    @property
    def name(self):
        return self.type.name


@dataclass
class Choice:
    name: str
    alts: List[Alt]
    doc: str
    src: List[str]
    loc: Loc
    lets: list = dc_field(default_factory=list)
    rules: list = dc_field(default_factory=list)
    kind = "choice"


@dataclass
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
    when: object = None
    display: list = None
    message: list = None


@dataclass
class Operand:
    name: str
    params: List[str]
    cases: List[Case]
    doc: str
    src: List[str]
    loc: Loc
    owner: object = None  # the Struct/Sequence it is local to, or None (global)
    param_types: dict = dc_field(default_factory=dict)  # param name -> struct name, for struct params
    param_locs: dict = dc_field(default_factory=dict)
    lets: list = dc_field(default_factory=list)


@dataclass
class Stream:
    unit_name: str
    count: Optional[int]
    stop_text: Optional[str]
    loc: Loc
    stop_loc: Optional[Loc]
    unit: object = None
    stop: object = None
    prefix_text: Optional[str] = None
    prefix_loc: Optional[Loc] = None
    prefix: list = None
    separator: str = "\n"
    derives: list = dc_field(default_factory=list)  # <derive>s: set by the program encoder
    states: list = dc_field(default_factory=list)   # <state>s: values carried across units
    options: list = dc_field(default_factory=list)  # <option>s: chosen by the caller per program
    skip_zero: int = 0      # bits that, all zero, start a run of skipped zero words
    skip_unit: int = 0      # bits per skipped zero word
    resync: int = 0         # bits skipped where no unit decodes (0: an error instead)
    failed: str = ""        # text printed for such a place
    pad_end: bool = False   # the input's end reads as zeros for the last unit


@dataclass
class State:
    """A value carried from unit to unit of a program: `$name` is its value
    before a unit, `next` (over that unit) its value after.  An array
    (count > 1) keeps its values except where its <set>s write."""
    name: str
    init: int
    next_text: str
    loc: Loc
    next_loc: Loc
    doc: str = ""
    next: object = None
    index: int = 0       # where its first value is in the state array
    count: int = 1       # > 1: an array, $name[i]
    sets: list = dc_field(default_factory=list)  # an array's <set>s, in order


@dataclass
class StateSet:
    """<set>: after a unit for which `when` holds, element `index` of an
    array state becomes `value` (both read the states as before the unit)."""
    index: object
    value: object
    when: object
    loc: Loc
    index_loc: Loc
    value_loc: Loc
    when_loc: Optional[Loc] = None


@dataclass
class Option:
    """<option>: a choice the caller makes for a whole program (the GPU
    model a binary is for), read as $name; an enum's value."""
    name: str
    type_name: str
    default_text: str
    loc: Loc
    doc: str = ""
    enum: object = None
    default: int = 0
    index: int = 0


@dataclass
class Container:
    """<container>: a chunked file format a program may come wrapped in."""
    name: str
    magic: str
    layout: str
    chunks: list  # [(id, skip)]
    doc: str
    loc: Loc


@dataclass
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

    @property
    def prefix(self):
        return c_prefix(self.name)

    @property
    def PREFIX(self):
        return self.prefix.upper()

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
