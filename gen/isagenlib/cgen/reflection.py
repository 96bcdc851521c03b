"""Reflection tables in C: what the runtime and the CLI walk.

One `struct isa_type_desc` per type (fields with their C offsets and
sizes, variants with their selection patterns, function pointers), the
spec's stream tables and the `struct isa_spec` itself.  Every table entry
is a C99 designated initialiser, so a table follows the runtime's struct
by member name, not by position.
"""

from .cexpr import c_int
from .cwriter import byte_array, designated, table
from .names import c_string, count_member, has_member
from .selection import choice_peek_bits, pattern_bytes

KIND = {"uint": "ISA_K_UINT", "sint": "ISA_K_SINT", "bool": "ISA_K_BOOL",
        "enum": "ISA_K_ENUM", "float16": "ISA_K_FLOAT16", "fixed": "ISA_K_FIXED",
        "sfixed": "ISA_K_SFIXED", "struct": "ISA_K_AGG"}
ROLE = {"field": "ISA_ROLE_FIELD", "reserved": "ISA_ROLE_RESERVED", "mbz": "ISA_ROLE_MBZ",
        "mbo": "ISA_ROLE_MBO", "fixed": "ISA_ROLE_FIXED"}
FMT = {"dec": "ISA_FMT_DEC", "hex": "ISA_FMT_HEX", "bin": "ISA_FMT_BIN"}


class Reflection:
    def __init__(self, names):
        self.names = names

    def field_desc(self, f, cstruct, member_prefix=""):
        n = self.names
        kind = KIND.get(f.type.kind, "ISA_K_UINT")
        role = "ISA_ROLE_LENGTH" if f.is_length_flag else ROLE[f.role]
        fmt = FMT.get(f.format, "ISA_FMT_DEC")
        out = [("name", c_string(f.name)), ("kind", kind), ("role", role)]
        if not f.stored:
            return designated(out + [("width", str(f.width)), ("format", fmt), ("count", "1"),
                                     ("c_offset", "ISA_NO_OFFSET"), ("has_offset", "ISA_NO_OFFSET"),
                                     ("n_offset", "ISA_NO_OFFSET"), ("value", c_int(f.value))])
        member = f"{member_prefix}{f.name}"
        elem = f"{member}[0]" if f.count > 1 else member
        csize = f"sizeof((({cstruct} *)0)->{elem})"
        out += [("width", "0" if f.type.kind == "struct" else str(f.width)), ("c_size", f"(uint8_t){csize}"),
                ("format", fmt), ("frac", str(f.type.frac)), ("count", str(f.count)),
                ("c_offset", f"offsetof({cstruct}, {member})"), ("c_stride", csize),
                ("has_offset", "ISA_NO_OFFSET"), ("n_offset", "ISA_NO_OFFSET")]
        if f.type.kind == "struct":
            out.append(("type", f"&{n.desc(f.type.target)}"))
        if f.type.kind == "enum":
            out.append(("enum_name", n.enum_name_fn(f.type.enum)))
        return designated(out)

    def item_desc(self, it, cstruct):
        csize = f"sizeof((({cstruct} *)0)->{it.name}{'[0]' if it.count is not None else ''})"
        return designated([
            ("name", c_string(it.name)), ("kind", "ISA_K_AGG"), ("role", "ISA_ROLE_FIELD"),
            ("format", "ISA_FMT_DEC"), ("count", str(it.max if it.count is not None else 1)),
            ("c_offset", f"offsetof({cstruct}, {it.name})"), ("c_stride", csize),
            ("has_offset", f"offsetof({cstruct}, {has_member(it)})" if it.present is not None else "ISA_NO_OFFSET"),
            ("n_offset", f"offsetof({cstruct}, {count_member(it)})" if it.count is not None else "ISA_NO_OFFSET"),
            ("type", f"&{self.names.desc(it.type.target)}")])

    def payload_desc(self, c, a):
        """The one 'field' of a choice's alternative: its payload."""
        S = self.names.sname(c)
        return designated([
            ("name", c_string(a.name)), ("kind", "ISA_K_AGG"), ("role", "ISA_ROLE_FIELD"), ("format", "ISA_FMT_DEC"),
            ("count", "1"), ("c_offset", f"offsetof({S}, u.{a.name})"), ("c_stride", f"sizeof((({S} *)0)->u.{a.name})"),
            ("has_offset", "ISA_NO_OFFSET"), ("n_offset", "ISA_NO_OFFSET"), ("type", f"&{self.names.desc(a.type.target)}")])

    # ---- whole tables of a type

    def struct_tables(self, t, fixed):
        """The tables of struct t; `fixed`: (mask, value) of its fixed bits."""
        n = self.names
        S = n.sname(t)
        nbytes = (t.bits + 7) // 8
        out = []
        if t.fields:
            out += [""] + table(f"static const struct isa_field_desc {n.fn(t, 'fields')}[]",
                                [self.field_desc(f, S) for f in t.fields])
        for v in t.variants:
            if v.fields:
                out += [""] + table(f"static const struct isa_field_desc {n.fn(t, v.name + '_fields')}[]",
                                    [self.field_desc(f, S, f"u.{v.name}.") for f in v.fields])
        for v in t.variants:
            masks, values = pattern_bytes(v.patterns, nbytes)
            out += [""] + byte_array(f"static const uint8_t {n.fn(t, v.name + '_mask')}[]", masks)
            out += byte_array(f"static const uint8_t {n.fn(t, v.name + '_value')}[]", values)
        if fixed[0]:
            masks, values = pattern_bytes([fixed], nbytes)
            out += [""] + byte_array(f"static const uint8_t {n.fn(t, 'fixed_mask')}[]", masks)
            out += byte_array(f"static const uint8_t {n.fn(t, 'fixed_value')}[]", values)
        if t.variants:
            out += [""] + table(f"static const struct isa_variant_desc {n.fn(t, 'variants')}[]", [designated([
                ("name", c_string(v.name)), ("named_path", "1" if v.path_named else "0"),
                ("fields", n.fn(t, v.name + "_fields") if v.fields else "0"), ("n_fields", str(len(v.fields))),
                ("n_patterns", str(len(v.patterns))), ("pattern_bytes", str(nbytes)),
                ("pattern_mask", n.fn(t, v.name + "_mask")), ("pattern_value", n.fn(t, v.name + "_value"))])
                for v in t.variants])
        desc = [("name", c_string(t.name)), ("kind", "ISA_T_STRUCT"), ("bits", str(t.bits)), ("c_size", f"sizeof({S})"),
                ("fields", n.fn(t, "fields") if t.fields else "0"), ("n_fields", str(len(t.fields))),
                ("variants", n.fn(t, "variants") if t.variants else "0"), ("n_variants", str(len(t.variants))),
                ("variant_offset", f"offsetof({S}, variant)" if t.variants else "ISA_NO_OFFSET"),
                ("overlay", "1" if t.overlay else "0")] + self.functions(t)
        if t.variants:
            desc.append(("select", n.fn(t, "select_any")))
        if t.variants and not t.overlay:
            desc.append(("set_variant", n.fn(t, "set_variant_any")))
        if fixed[0]:
            desc += [("fixed_mask", n.fn(t, "fixed_mask")), ("fixed_value", n.fn(t, "fixed_value"))]
        return out + [""] + self.definition(f"const struct isa_type_desc {n.desc(t)}", desc)

    def functions(self, t):
        n = self.names
        return [("decode", n.fn(t, "decode_any")), ("encode", n.fn(t, "encode_any")),
                ("print", n.fn(t, "print_any")), ("validate", n.fn(t, "validate_any"))]

    def sequence_tables(self, t):
        n = self.names
        S = n.sname(t)
        out = [""] + table(f"static const struct isa_field_desc {n.fn(t, 'items')}[]",
                           [self.item_desc(it, S) for it in t.items])
        desc = [("name", c_string(t.name)), ("kind", "ISA_T_SEQUENCE"), ("c_size", f"sizeof({S})"),
                ("fields", n.fn(t, "items")), ("n_fields", str(len(t.items))),
                ("variant_offset", "ISA_NO_OFFSET")] + self.functions(t)
        return out + [""] + self.definition(f"const struct isa_type_desc {n.desc(t)}", desc)

    def choice_tables(self, t):
        n = self.names
        S = n.sname(t)
        pbytes = (choice_peek_bits(t) + 7) // 8
        out = []
        for a in t.alts:
            out += [""] + table(f"static const struct isa_field_desc {n.fn(t, a.name + '_payload')}[]",
                                [self.payload_desc(t, a)])
        for a in t.alts:
            if a.selecting:
                masks, values = pattern_bytes(a.selecting, pbytes)
                out += [""] + byte_array(f"static const uint8_t {n.fn(t, a.name + '_mask')}[]", masks)
                out += byte_array(f"static const uint8_t {n.fn(t, a.name + '_value')}[]", values)
        entries = []
        for a in t.alts:
            e = [("name", c_string(a.name)), ("named_path", "0"), ("fields", n.fn(t, a.name + "_payload")),
                 ("n_fields", "1"), ("n_patterns", str(len(a.selecting))), ("pattern_bytes", str(pbytes))]
            if a.selecting:
                e += [("pattern_mask", n.fn(t, a.name + "_mask")), ("pattern_value", n.fn(t, a.name + "_value"))]
            entries.append(designated(e))
        out += [""] + table(f"static const struct isa_variant_desc {n.fn(t, 'alts')}[]", entries)
        desc = [("name", c_string(t.name)), ("kind", "ISA_T_CHOICE"), ("c_size", f"sizeof({S})"),
                ("variants", n.fn(t, "alts")), ("n_variants", str(len(t.alts))),
                ("variant_offset", f"offsetof({S}, variant)")] + self.functions(t) + \
            [("decode_as", n.fn(t, "decode_as_any")), ("set_variant", n.fn(t, "set_variant_any"))]
        return out + [""] + self.definition(f"const struct isa_type_desc {n.desc(t)}", desc)

    @staticmethod
    def definition(decl, fields):
        """`decl = {...};` of one object."""
        init = designated(fields)
        if len(init) == 1:
            return [f"{decl} = {init[0]};"]
        return [f"{decl} = {init[0]}"] + init[1:-1] + [init[-1] + ";"]
