"""Layout checks: where bits are and what they hold.

Fields inside their struct, no two fields on one bit (but a shared <fixed>
bit), every bit covered; field widths against their types, values that fit;
names (duplicates, and names C cannot take); a struct's length rules.
Resolved here: which fields a shared <fixed> constrains (Field.shared_bits)
and a struct's length flag (Struct.length_flag_field).
"""

from ..cgen.names import GENERATED_MEMBERS, Names, count_member, has_member, identifier_problem
from ..model import Field


def bit_ranges(bits):
    """[3,4,5,9] -> '3..5, 9'"""
    bits = sorted(bits)
    out, start, prev = [], None, None
    for b in bits + [None]:
        if start is None:
            start = prev = b
        elif b == prev + 1:
            prev = b
        else:
            out.append(f"{start}" if start == prev else f"{start}..{prev}")
            start = prev = b
    return ", ".join(out)


def logical_positions(pieces):
    """Absolute bit position of each logical bit of a (split) field."""
    out = []
    for lo, w in pieces:
        out.extend(range(lo, lo + w))
    return out


class LayoutChecker:
    def __init__(self, spec, diags):
        self.spec = spec
        self.diags = diags

    def error(self, loc, msg):
        self.diags.error(loc, msg)

    def aloc(self, obj, attr, offset=None):
        if obj.element is None:
            return obj.loc
        return self.spec.document.attr_loc(obj.element, attr, offset)

    def run(self):
        self.enum_constants()
        self.function_names()
        for e in self.spec.enums:
            self.enum(e)
        for s in self.spec.structs:
            self.struct(s)
        for t in self.spec.types:
            if t.kind == "sequence":
                self.names(t.items, f"sequence '{t.name}'")
                self.item_names(t)
            elif t.kind == "choice":
                for a in t.alts:
                    # an alternative is the union member u.<type name>
                    problem = identifier_problem(a.name)
                    if problem:
                        self.error(a.loc, problem)

    def enum_constants(self):
        """Enum values become C constants PREFIX_ENUM_VALUE: two must not
        come out the same (ShaderType::Vertex and SHADER_TYPE::VERTEX)."""
        names = Names(self.spec)
        seen = {}
        for e in self.spec.enums:
            for v in e.values:
                c = names.enum_const(e, v)
                if c in seen:
                    self.error(v.loc, f"C name {c} of {e.name}::{v.name} clashes with {seen[c]}")
                seen[c] = f"{e.name}::{v.name}"

    def function_names(self):
        """The static functions each enum and operand gets in C
        (PREFIX_ENUM_name, _named, _write, _put, one per property;
        PREFIX_operand_NAME_case, _print, _check, _put) must not come out the
        same for two of them (enum 'E' property 'x_put' and enum 'E_x')."""
        names = Names(self.spec)
        seen = {}

        def claim(c, what, loc):
            if c in seen:
                self.error(loc, f"C function {c} of {what} clashes with that of {seen[c]}; rename one")
            else:
                seen[c] = what

        for e in self.spec.enums:
            for c in (names.enum_name_fn(e), names.enum_named_fn(e), names.enum_write_fn(e), names.enum_put_fn(e)):
                claim(c, f"enum '{e.name}'", e.loc)
            for p in e.properties:
                claim(names.prop_fn(e, p), f"property '{p.name}' of enum '{e.name}'", p.loc)
        for o in self.spec.all_operands():
            for what in ("case", "print", "check", "put"):
                claim(names.op_fn(o, what), f"operand '{o.name}'", o.loc)

    def enum(self, e):
        if e.width is not None and e.min_width > e.width:
            big = max(e.values, key=lambda v: v.value)
            self.error(big.loc, f"value {big.value} of enum '{e.name}' does not fit its width of {e.width} bits")

    def names(self, members, owner_desc, extra=()):
        seen = {m.name: m for m in extra}
        for m in members:
            problem = identifier_problem(m.name)
            if problem:
                self.error(m.loc, problem)
            if m.name in seen:
                self.error(m.loc, f"duplicate name '{m.name}' in {owner_desc}")
            seen[m.name] = m

    def item_names(self, seq):
        """Items also become has_<name> and n_<name> members."""
        names = {it.name: it for it in seq.items}
        for it in seq.items:
            made = [has_member(it)] if it.present_text is not None else []
            made += [count_member(it)] if it.count_text is not None else []
            for m in made:
                if m in names:
                    self.error(names[m].loc, f"item '{m}' has the name of the member that says "
                                             f"{'whether' if m.startswith('has_') else 'how often'} item "
                                             f"'{it.name}' is there; choose another name")

    def field_type(self, f):
        kind, w = f.type.kind, f.width
        if f.role != "field":
            if f.role == "fixed" and f.value is not None and not 0 <= f.value < (1 << w):
                self.error(self.aloc(f, "value"), f"value {f.value} does not fit {w} bits")
            if f.role == "reserved" and f.expect is not None and not 0 <= f.expect < (1 << w):
                self.error(self.aloc(f, "expect"), f"expect {f.expect} does not fit {w} reserved bits")
            return
        if kind != "struct" and w > 64:
            self.error(f.loc, f"field '{f.name}' is {w} bits wide; a field holds at most 64 (split it)")
        if kind == "bool" and w != 1:
            self.error(self.aloc(f, "type"), f"bool field '{f.name}' must be 1 bit wide, not {w}")
        if kind == "float16" and w != 16:
            self.error(self.aloc(f, "type"), f"float16 field '{f.name}' must be 16 bits wide, not {w}")
        if kind == "enum":
            e = f.type.enum
            if e.width is not None and e.width != w:
                self.error(self.aloc(f, "type"), f"field '{f.name}' is {w} bits wide but enum '{e.name}' is {e.width}")
            for ev in e.values:
                if ev.value >= (1 << w):
                    self.error(self.aloc(f, "type"),
                               f"enum value {e.name}::{ev.name} = {ev.value} does not fit field '{f.name}' ({w} bits)")
                    break
        if kind == "struct":
            t = f.type.target
            if t.bits != w:
                self.error(self.aloc(f, "bits"), f"field '{f.name}' is {w} bits wide but struct '{t.name}' is {t.bits}")
            if t.variable_length:
                self.error(self.aloc(f, "type"), f"struct '{t.name}' has a variable length; it cannot be a field")
        for attr in ("default", "expect"):
            v = getattr(f, attr)
            if v is not None and kind not in ("struct",) and not f.min_value <= v <= f.max_value:
                self.error(self.aloc(f, attr), f"{attr} {v} does not fit field '{f.name}' ({f.min_value}..{f.max_value})")

    def shared_fixed(self, members):
        """A shared <fixed> must lie inside stored fields: record, per bit,
        the field and the field's bit it constrains."""
        fields = [f for f in members if isinstance(f, Field) and f.stored and f.count == 1]
        for fx in members:
            if not (isinstance(fx, Field) and fx.shared):
                continue
            fx.shared_bits = []
            for k, p in enumerate(logical_positions(fx.pieces)):
                hit = None
                for f in fields:
                    pos = logical_positions(f.pieces)
                    if p in pos:
                        hit = (f, pos.index(p))
                if hit is None:
                    self.error(fx.loc, f"shared fixed bit {p} lies in no field; drop shared=\"true\"")
                    break
                fx.shared_bits.append((hit[0], hit[1], (fx.value >> k) & 1))

    def layout(self, struct, members, variant):
        """Bounds and overlaps among `members`; returns the covered bits."""
        owner = {}
        desc = f"struct '{struct.name}'" if variant is None else f"variant '{variant.name}' of struct '{struct.name}'"
        report_only = None if variant is None else set(id(m) for m in variant.members)
        for f in members:
            if not isinstance(f, Field):
                continue
            mine = report_only is None or id(f) in report_only
            outside_reported = overlap_reported = False
            for i in range(f.count):
                for lo, w in f.element_pieces(i):
                    for b in range(lo, lo + w):
                        if b >= struct.bits:
                            if mine and not outside_reported:
                                self.error(self.aloc(f, "bits"),
                                           f"field '{f.name}' (bits {f.describe_bits(i)}) lies outside {desc} ({struct.bits} bits)")
                                outside_reported = True
                        elif b in owner and (f.shared or owner[b][0].shared):
                            pass  # a shared fixed bit is also a field's bit
                        elif b in owner:
                            g, gi = owner[b]
                            if mine and not overlap_reported:
                                gname = g.name + (f"[{gi}]" if g.count > 1 else "")
                                fname = f.name + (f"[{i}]" if f.count > 1 else "")
                                self.error(self.aloc(f, "bits"),
                                           f"field '{fname}' (bits {f.describe_bits(i)}) overlaps field '{gname}' (bits {g.describe_bits(gi)})")
                                overlap_reported = True
                        else:
                            owner[b] = (f, i)
        return set(owner)

    def coverage(self, s, covered, variant):
        missing = [b for b in range(s.bits) if b not in covered]
        if missing:
            where = f"struct '{s.name}'" if variant is None else f"variant '{variant.name}' of struct '{s.name}'"
            loc = s.loc if variant is None else variant.loc
            self.error(loc, f"bits {bit_ranges(missing)} of {where} are covered by no field (declare unused bits with <reserved>)")

    def struct(self, s):
        if s.bits <= 0:
            self.error(self.aloc(s, "bits"), "a struct needs at least 1 bit")
        self.names(s.members, f"struct '{s.name}'")
        if s.variants:
            for m in s.members:
                if m.name in GENERATED_MEMBERS:
                    self.error(m.loc, f"'{m.name}' is used by the generated code of structs with variants; choose another name")
        for f in s.fields:
            self.field_type(f)
        covered = self.layout(s, s.members, None)
        self.shared_fixed(s.members)
        if not s.variants:
            self.coverage(s, covered, None)
        fallbacks = [v for v in s.variants if v.fallback]
        if len(fallbacks) > 1:
            self.error(fallbacks[1].loc, f"struct '{s.name}' has more than one fallback variant")
        for v in s.variants:
            problem = identifier_problem(v.name)
            if problem:
                self.error(v.loc, problem)
            self.names(v.members, f"variant '{v.name}'", extra=s.members)
            for f in v.fields:
                self.field_type(f)
            vcovered = self.layout(s, s.members + v.members, v)
            self.coverage(s, vcovered, v)
        self.length_rules(s)

    def length_rules(self, s):
        if s.min_length is not None and not 1 <= s.min_length <= (s.bits or 0):
            self.error(self.aloc(s, "min-length"),
                       f"min-length {s.min_length} lies outside struct '{s.name}' ({s.bits} bits): it is the length of "
                       f"its shortest encoding, at least 1 bit and at most {s.bits}")
        if s.length_flag is not None:
            f = next((m for m in s.members if isinstance(m, Field) and m.name == s.length_flag and m.stored), None)
            if f is None:
                self.error(self.aloc(s, "length-flag"), f"length-flag '{s.length_flag}' is not a field of struct '{s.name}'")
            elif f.width != 1 or f.is_array or len(f.pieces) != 1:
                self.error(self.aloc(s, "length-flag"), f"length-flag '{s.length_flag}' must be a 1-bit field")
            elif s.min_length is None or f.pieces[0][0] >= s.min_length:
                self.error(self.aloc(s, "length-flag"), f"length-flag '{s.length_flag}' must lie in the first min-length bits")
            else:
                s.length_flag_field = f
                f.is_length_flag = True
            if s.min_length is None:
                self.error(self.aloc(s, "length-flag"), "length-flag needs min-length (the short form, in bits)")
        elif s.length is not None and s.min_length is None:
            self.error(self.aloc(s, "length"), "a variable length needs min-length (the shortest encoding, in bits)")
