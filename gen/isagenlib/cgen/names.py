"""Every C name the generator writes, in one place.

The model knows nothing of C; this module says what each model entity is
called in the generated C (types, members, functions, constants, locals),
and which XML names cannot become C identifiers at all (the checker asks
`identifier_problem` for every name that becomes a bare C identifier).
"""

import re

from ..model import Variant, upper_snake

C_KEYWORDS = frozenset("""
auto break case char const continue default do double else enum extern float
for goto if inline int long register restrict return short signed sizeof static
struct switch typedef union unsigned void volatile while _Bool _Complex
_Imaginary _Alignas _Alignof _Atomic _Generic _Noreturn _Static_assert
_Thread_local
""".split())

CXX_KEYWORDS = frozenset("""
alignas alignof asm bool catch char8_t char16_t char32_t class concept consteval
constexpr constinit const_cast co_await co_return co_yield decltype delete
dynamic_cast explicit export false friend mutable namespace new noexcept nullptr
operator private protected public reinterpret_cast requires static_assert
static_cast template this thread_local throw true try typeid typename using
virtual wchar_t
""".split())

# <iso646.h> in C, alternative tokens in C++
ALTERNATIVE_TOKENS = frozenset("and and_eq bitand bitor compl not not_eq or or_eq xor xor_eq".split())

# Macros a generated file or its includer may see (<stdbool.h>, <stddef.h>,
# <stdio.h>, <errno.h>, <assert.h>, GNU's predefined ones):
# a member of that name would be replaced by the preprocessor.
LIBRARY_MACROS = frozenset("""
NULL EOF errno assert offsetof stdin stdout stderr noreturn unix linux i386
""".split())


def identifier_problem(name):
    """Why `name` cannot be a C identifier of generated code (a struct
    member, a union member), or None."""
    if name in C_KEYWORDS or name in CXX_KEYWORDS:
        return f"'{name}' is a C or C++ keyword; choose another name"
    if name in ALTERNATIVE_TOKENS:
        return f"'{name}' is an operator in C++ (and in C with <iso646.h>); choose another name"
    if "__" in name or re.match(r"_[A-Z]", name):
        return (f"'{name}' is reserved in C and C++ (a double underscore, or an underscore and a capital "
                "letter); choose another name")
    if name in LIBRARY_MACROS:
        return f"'{name}' is a macro of the C library or compiler; choose another name"
    return None


def prefix_problem(prefix):
    """Why `prefix` cannot start the C names of a spec (isagen generate
    --prefix), or None."""
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", prefix):
        return f"--prefix '{prefix}': not a C identifier"
    if prefix.lower() == "isa" or prefix.lower().startswith("isa_"):
        return f"--prefix '{prefix}': isa_ names are the runtime's"
    if prefix in C_KEYWORDS or prefix in CXX_KEYWORDS:
        return f"--prefix '{prefix}': a C or C++ keyword"
    return None


def c_prefix(spec_name):
    """'nv-sph' -> 'nv_sph'; a version's spec 'tgsi@mesa-7.10' -> 'tgsi_mesa_7_10'."""
    return re.sub(r"[^A-Za-z0-9_]", "_", spec_name)


# Members the generated structs add beside the XML's fields and items.
VARIANT_MEMBER = "variant"
UNION_MEMBER = "u"
GENERATED_MEMBERS = (VARIANT_MEMBER, UNION_MEMBER)


def has_member(item):
    return f"has_{item.name}"


def count_member(item):
    return f"n_{item.name}"


class Names:
    """The C names of one spec's entities."""

    def __init__(self, spec, prefix=None):
        self.spec = spec
        self.prefix = prefix or c_prefix(spec.name)
        self.PREFIX = self.prefix.upper()

    # ---- types and their functions

    def sname(self, t):
        """The C type of a struct, sequence or choice."""
        return f"struct {self.prefix}_{t.name}"

    def fn(self, t, what):
        """A function (or table) of type t: fn(t, 'unpack')."""
        return f"{self.prefix}_{t.name}_{what}"

    def desc(self, t):
        return f"{self.prefix}_{t.name}_desc"

    def macro(self, t, what):
        return f"{self.PREFIX}_{upper_snake(t.name)}_{what}"

    def vsname(self, s, v):
        """The C struct of variant v of struct s."""
        return f"struct {self.prefix}_{s.name}_{v.name}"

    def vconst(self, s, v):
        """The enum constant that says variant v is selected."""
        return f"{self.PREFIX}_{upper_snake(s.name)}_{upper_snake(v.name)}"

    def variant_enum(self, s):
        return f"enum {self.prefix}_{s.name}_variant"

    def alt_enum(self, c):
        return f"enum {self.prefix}_{c.name}_alt"

    def alt_const(self, c, a):
        return self.macro(c, upper_snake(a.name))

    # ---- members the generated structs add

    has = staticmethod(has_member)
    count = staticmethod(count_member)

    # ---- enums

    def enum_type(self, e):
        return f"enum {self.prefix}_{e.name}"

    def enum_const(self, e, v):
        return f"{self.PREFIX}_{upper_snake(e.name)}_{upper_snake(v.name)}"

    def enum_max_const(self, e):
        return f"{self.PREFIX}_{upper_snake(e.name)}_MAX_ENUM_"

    def enum_name_fn(self, e):
        return f"{self.prefix}_{e.name}_name"

    def enum_named_fn(self, e):
        """Whether a value is named: named(x) in expressions."""
        return f"{self.prefix}_{e.name}_named"

    def enum_put_fn(self, e):
        """Static in the .c: a value's name (or number) into a run, for
        enums whose names fit in one (Gen.enum_put_most)."""
        return f"{self.prefix}_{e.name}_put"

    def enum_write_fn(self, e):
        """Static in the .c: writes a value's name (or number) to a sink."""
        return f"{self.prefix}_{e.name}_write"

    def prop_fn(self, e, p):
        return f"{self.prefix}_{e.name}_{p.name}"

    # ---- operands

    def op_fn(self, o, what):
        """An operand's function: 'case', 'print', 'put' (into a run) or 'check'."""
        owner = o.owner
        if owner is None:
            return f"{self.prefix}_operand_{o.name}_{what}"
        if isinstance(owner, Variant):
            return f"{self.prefix}_{owner.owner.name}_{owner.name}_operand_{o.name}_{what}"
        return f"{self.prefix}_{owner.name}_operand_{o.name}_{what}"

    def op_owner_type(self, o):
        """The struct or sequence a local operand's functions get as `v`."""
        owner = o.owner
        return owner.owner if isinstance(owner, Variant) else owner

    # ---- locals and parameters of generated functions

    @staticmethod
    def let_local(let):
        return f"let_{let.name}"

    @staticmethod
    def loop_var(name):
        return f"i_{name}"

    @staticmethod
    def param(name):
        return f"p_{name}"

    # ---- the spec as a whole

    def spec_symbol(self):
        return f"{self.prefix}_spec"

    def spec_fn(self, what):
        """A function or table of the spec's stream: spec_fn('step')."""
        return f"{self.prefix}_{what}"

    def option_table(self, o, what):
        """The names or values of an <option>'s enum: option_table(o, 'names')."""
        return f"{self.prefix}_option_{o.name}_{what}"

    def container_steps(self, c):
        return f"{self.prefix}_container_{c.name}_steps"


_PLAIN = re.compile(r'[ !#-\[\]-~]*')


def c_string(s):
    """A C string literal of s (UTF-8 bytes beyond ASCII as octal escapes)."""
    if _PLAIN.fullmatch(s):
        return f'"{s}"'
    out = []
    for ch in s:
        o = ord(ch)
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif o < 0x20 or o == 0x7f:
            out.append(f"\\{o:03o}")
        elif o > 0x7e:
            out.append("".join(f"\\{b:03o}" for b in ch.encode("utf-8")))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'
