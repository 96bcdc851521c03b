"""Stage 3 of the pipeline: check what the spec means.

Reported as file:line:col errors (all of them, not just the first):
  * fields outside their struct, overlapping fields, bits covered by nothing
  * types: widths of bool/float16/enum/struct fields, values that do not fit
  * duplicate names, names that clash with C or with generated members
  * variant and choice patterns: which bits each alternative matches, and
    any two that can match the same bits without an explicit priority, or
    one that can never match because a higher priority one takes all its bits
  * every expression and template: names, types, function arity
  * sequences: items read before they are decoded, derivations, counts

It also computes what the code generator needs: for each variant and
alternative its list of (mask, value) patterns over the unit's bits.
"""

from . import expr as X
from . import template as T
from .model import (C_KEYWORDS, Choice, Field, Sequence, Struct, Use, max_bits)
from .scopes import CONTEXT_VARS, ChoiceScope, ContextScope, OperandScope, SequenceScope, StructScope, scope_for

RESERVED_MEMBER_NAMES = {"variant", "u"}


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


def fixed_pattern(members):
    """(mask, value) of the <fixed> bits among members."""
    fm = fv = 0
    for f in members:
        if isinstance(f, Field) and f.role == "fixed" and f.value is not None:
            for k, p in enumerate(logical_positions(f.pieces)):
                fm |= 1 << p
                fv |= ((f.value >> k) & 1) << p
    return fm, fv


def length_flag_patterns(s, pats):
    """A struct with a length flag matches bits in two forms: long (flag
    set, every pattern bit counts) and short (flag clear; bits past the short
    length read as zero, so a pattern needing a 1 there cannot match there,
    and its 0s there need nothing).  A choice compares raw bits, which past
    the short length belong to the next unit."""
    flag = 1 << s.length_flag_field.pieces[0][0]
    low = (1 << s.min_length) - 1
    out = []
    for m, v in pats:
        out.append((m | flag, v | flag))
        if not (v & ~low) and not (v & flag):
            out.append(((m & low) | flag, v & low))
    return out


class Checker:
    def __init__(self, spec, diags):
        self.spec = spec
        self.diags = diags
        self.cycles_reported = set()

    def error(self, loc, msg):
        self.diags.error(loc, msg)

    def aloc(self, obj, attr, offset=None):
        el = getattr(obj, "element", None)
        if el is None:
            return obj.loc
        return self.spec.document.attr_loc(el, attr, offset)

    # ---------------------------------------------------------------- run

    def run(self):
        spec = self.spec
        for e in spec.enums:
            self.enum(e)
        for t in spec.types:
            if isinstance(t, Struct):
                self.struct(t)
        for t in spec.types:
            if isinstance(t, Sequence):
                self.sequence(t)
            elif isinstance(t, Choice):
                self.choice(t)
        for o in spec.operands:
            self.operand(o)
        self.stream()
        self.recursion()
        for o in spec.operands:
            if not getattr(o, "used", False):
                self.diags.warning(o.loc, f"operand '{o.name}' is never used (no code is generated for it)")

    # ---------------------------------------------------------------- expressions

    def fresh(self, e):
        """Whether ExprError `e` is news: not a cascade from a broken <let>
        and not a <let> cycle already reported."""
        if e.cascade or e.cycle in self.cycles_reported:
            return False
        if e.cycle:
            self.cycles_reported.add(e.cycle)
        return True

    def expr(self, node, scope, loc, what, want="int"):
        if node is None:
            return False
        try:
            X.check(node, scope)
        except X.ExprError as e:
            if self.fresh(e):
                self.error(loc.shifted(e.pos), f"in {what}: {e.message}")
            return False
        if want is None:
            return True
        if want == "int" and node.type != "int":
            self.error(loc.shifted(node.pos), f"in {what}: the value must be an integer")
            return False
        return True

    def template(self, parts, scope, loc, what):
        if parts is None:
            return
        for p in parts:
            if isinstance(p, T.Subst):
                try:
                    X.check(p.node, scope, allow_agg=True)
                except X.ExprError as e:
                    if self.fresh(e):
                        self.error(loc.shifted(e.pos), f"in {what}: {e.message}")
                    continue
                if p.fmt and p.fmt[0].isalpha() and p.fmt not in ("b", "r") and not p.fmt[-1:].isdigit():
                    if len(p.fmt) > 1 or p.fmt not in "diuxXofFeEgGc":
                        e = self.spec.enum_named(p.fmt)
                        if e is None:
                            self.error(loc.shifted(p.fmt_pos), f"in {what}: '{p.fmt}' is neither a printf conversion nor an enum")
                        else:
                            p.fmt_enum = e
                if p.node.type == "agg" and p.fmt:
                    self.error(loc.shifted(p.fmt_pos), f"in {what}: a struct or operand prints with its own display; drop ':{p.fmt}'")
                ref = getattr(p.node, "ref", None)
                if ref is not None and ref.type == "agg" and ref.agg is not None and not isinstance(p.node, X.Path):
                    pass
            elif isinstance(p, T.If):
                for cond, body in p.branches:
                    self.expr(cond, scope, loc, what)
                    self.template(body, scope, loc, what)
                if p.otherwise:
                    self.template(p.otherwise, scope, loc, what)
            elif isinstance(p, T.List):
                for cond, body in p.items:
                    if cond is not None:
                        self.expr(cond, scope, loc, what)
                    self.template(body, scope, loc, what)
            elif isinstance(p, T.Pad):
                self.expr(p.width, scope, loc, what)
                self.template(p.body, scope, loc, what)
            elif isinstance(p, T.For):
                self.expr(p.lo, scope, loc, what)
                self.expr(p.hi, scope, loc, what)
                try:
                    scope.resolve(X.Path([p.var], p.pos))
                    clash = True
                except X.ExprError:
                    clash = False
                if clash and p.var not in scope.locals:
                    self.error(loc.shifted(p.pos), f"in {what}: loop variable '{p.var}' hides a field of the same name")
                self.template(p.body, scope.with_local(p.var, f"i_{p.var}"), loc, what)

    def rules_and_displays(self, rules, displays, scope):
        for r in rules:
            self.expr(r.check, scope, r.check_loc, "check")
            if r.when is not None:
                self.expr(r.when, scope, r.when_loc, "when")
            if r.field is not None:
                try:
                    X.check(X.parse(r.field), scope, allow_agg=True)
                except X.ExprError as e:
                    self.error(self.spec.document.attr_loc(r.element, "field", e.pos) if hasattr(r, "element") else r.loc,
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

    # ---------------------------------------------------------------- enums

    def enum(self, e):
        if e.width is not None and e.min_width > e.width:
            big = max(e.values, key=lambda v: v.value)
            self.error(big.loc, f"value {big.value} of enum '{e.name}' does not fit its width of {e.width} bits")

    # ---------------------------------------------------------------- structs

    def names(self, members, owner_desc, extra=()):
        seen = {m.name: m for m in extra}
        for m in members:
            if m.name in C_KEYWORDS:
                self.error(m.loc, f"'{m.name}' is a C or C++ keyword; choose another name")
            if m.name in seen:
                self.error(m.loc, f"duplicate name '{m.name}' in {owner_desc}")
            seen[m.name] = m

    def field_type(self, f, owner_desc):
        kind, w = f.type.kind, f.width
        if f.role != "field":
            if f.role == "fixed" and f.value is not None and not 0 <= f.value < (1 << w):
                self.error(self.aloc(f, "value"), f"value {f.value} does not fit {w} bits")
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

    def shared_fixed(self, s, members):
        """A shared <fixed> must lie inside stored fields: record, per bit,
        the field and the field's bit it constrains (f.shared_bits)."""
        fields = [f for f in members if isinstance(f, Field) and f.stored and f.count == 1]
        for fx in members:
            if not (isinstance(fx, Field) and getattr(fx, "shared", False)):
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
                        elif b in owner and (getattr(f, "shared", False) or getattr(owner[b][0], "shared", False)):
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

    def struct(self, s):
        spec = self.spec
        if s.bits <= 0:
            self.error(self.aloc(s, "bits"), "a struct needs at least 1 bit")
        self.names(s.members, f"struct '{s.name}'")
        if s.variants:
            for m in s.members:
                if m.name in RESERVED_MEMBER_NAMES:
                    self.error(m.loc, f"'{m.name}' is used by the generated code of structs with variants; choose another name")
        for f in s.fields:
            self.field_type(f, f"struct '{s.name}'")
        covered = self.layout(s, s.members, None)
        self.shared_fixed(s, s.members)
        if not s.variants:
            self.coverage(s, covered, None)
        fallbacks = [v for v in s.variants if v.fallback]
        if len(fallbacks) > 1:
            self.error(fallbacks[1].loc, f"struct '{s.name}' has more than one fallback variant")
        for v in s.variants:
            self.names(v.members, f"variant '{v.name}'", extra=s.members)
            for f in v.fields:
                self.field_type(f, f"variant '{v.name}'")
            vcovered = self.layout(s, s.members + v.members, v)
            self.coverage(s, vcovered, v)
            fixed = fixed_pattern(v.members)
            if v.fallback and (v.whens or fixed[0]):
                self.error(v.loc, f"fallback variant '{v.name}' matches whatever the others do not; it takes no <when> or <fixed>")
            if not v.fallback and not v.whens and not fixed[0]:
                self.error(v.loc, f"variant '{v.name}' needs a <when> or <fixed> bits (or fallback=\"true\")")
        # patterns: each <when> group, ANDed with the variant's own fixed bits
        errors_before = len(self.diags.errors)
        for v in s.variants:
            fm, fv = fixed_pattern(v.members)
            pats = []
            for g in v.whens:
                m, val = self.group_pattern(g, s, s.members, f"struct '{s.name}'")
                if (val ^ fv) & m & fm:
                    self.error(g[0].loc, f"this <when> contradicts the fixed bits of variant '{v.name}'")
                pats.append((m | fm, val | fv))
            v.patterns = pats if v.whens else [(fm, fv)]
            if v.fallback:
                v.patterns = [(0, 0)]
        if len(self.diags.errors) == errors_before:  # a broken <match> would make every overlap look real
            self.check_patterns([(v, v.priority if not v.fallback else -(1 << 62), v.explicit_priority or v.fallback,
                                  v.patterns) for v in s.variants], "variants", f"struct '{s.name}'")
        # expressions
        if s.overlay:
            for v in s.variants:
                v.path_named = True  # every view is listed under its own name
        scope = StructScope(spec, s)
        self.lets_and_operands(s, s.lets, s.operands, scope)
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
                f.role_length = True
            if s.min_length is None:
                self.error(self.aloc(s, "length-flag"), "length-flag needs min-length (the short form, in bits)")
            elif s.length_flag_field is not None:
                self.expr(s.length, scope, s.length_loc, "length")
        elif s.length is not None:
            self.expr(s.length, scope, s.length_loc, "length")
            if s.min_length is None:
                self.error(self.aloc(s, "length"), "a variable length needs min-length (the shortest encoding, in bits)")
        self.uses(s.uses, scope)
        self.rules_and_displays(s.rules, s.displays, scope)
        for v in s.variants:
            vscope = StructScope(spec, s, variant=v)
            self.lets_and_operands(v, v.lets, v.operands, vscope, extra=s.members + s.lets)
            if v.length is not None:
                self.expr(v.length, vscope, v.length_loc, "length")
                if s.min_length is None:
                    self.error(v.loc, f"variant '{v.name}' has a length, so struct '{s.name}' needs min-length")
            self.uses(v.uses, vscope)
            self.rules_and_displays(v.rules, v.displays, vscope)

    def lets_and_operands(self, owner, lets, operands, scope, extra=()):
        names = {m.name: m for m in list(getattr(owner, "members", [])) + list(extra)}
        for lt in lets:
            if lt.name in names:
                self.error(lt.loc, f"<let> '{lt.name}' has the name of a field")
            if lt.name in C_KEYWORDS:
                self.error(lt.loc, f"'{lt.name}' is a C or C++ keyword; choose another name")
            names[lt.name] = lt
            scope._resolving = [lt.name]
            self.expr(lt.value, scope, lt.value_loc, f"<let> '{lt.name}'", want=None)
            scope._resolving = []
        for o in operands:
            self.operand(o)

    def coverage(self, s, covered, variant):
        missing = [b for b in range(s.bits) if b not in covered]
        if missing:
            where = f"struct '{s.name}'" if variant is None else f"variant '{variant.name}' of struct '{s.name}'"
            loc = s.loc if variant is None else variant.loc
            self.error(loc, f"bits {bit_ranges(missing)} of {where} are covered by no field (declare unused bits with <reserved>)")

    def uses(self, uses, scope):
        for u in uses:
            if u.operand is not None:
                u.operand.used = True
            if u.operand is None or len(u.args) != len(u.operand.params):
                continue
            for pname, a in zip(u.operand.params, u.args):
                if pname in u.operand.param_types:
                    self.error(u.args_loc, f"<use> '{u.name}': parameter '{pname}' takes a struct; call the operand "
                                           f"from a display instead")
                    continue
                self.expr(a, scope, u.args_loc, f"args of '{u.name}'")

    # ---------------------------------------------------------------- patterns

    def resolve_match_bits(self, m, struct_members, owner_desc, seq=None, owner=None):
        """Absolute bit positions (LSB first) that a <match> compares."""
        if m.pieces is not None:
            return logical_positions(m.pieces)
        path = m.field_path
        segs = path.split(".")
        members = struct_members
        base = None  # absolute positions of the containing field
        offset_bits = 0
        if seq is not None:
            item_name, segs = segs[0], segs[1:]
            offset_bits = self.static_item_offset(seq, item_name, m)
            if offset_bits is None:
                return None
            item = next(it for it in seq.items if it.name == item_name)
            if not isinstance(item.type.target, Struct) or not segs:
                self.error(m.loc, f"match field '{path}': name a field of a struct item")
                return None
            members = item.type.target.members
        for k, seg in enumerate(segs):
            name, idx = seg, None
            if "[" in seg:
                name, rest = seg.split("[", 1)
                idx = int(rest.rstrip("]"))
            f = next((x for x in members if isinstance(x, Field) and x.name == name), None)
            if f is None:
                hint = ""
                if k == 0 and seq is None and isinstance(owner, Struct) and any(
                        isinstance(x, Field) and x.name == name for v in owner.variants for x in v.members):
                    hint = " (a <when> can name the struct's common fields only; use bits= for a variant's own)"
                self.error(m.loc, f"match field '{path}': '{name}' is not a field of {owner_desc}{hint}")
                return None
            if f.is_array and idx is None:
                self.error(m.loc, f"match field '{path}': '{name}' is an array; index it")
                return None
            if idx is not None and not 0 <= idx < f.count:
                self.error(m.loc, f"match field '{path}': index {idx} is outside '{name}'")
                return None
            pos = logical_positions(f.element_pieces(idx or 0))
            pos = [p + offset_bits for p in pos] if base is None else [base[p] for p in pos]
            if f.type.kind == "struct" and k + 1 < len(segs):
                base, offset_bits = pos, 0
                members = f.type.target.members
                owner_desc = f"struct '{f.type.target.name}'"
                continue
            if k + 1 < len(segs):
                self.error(m.loc, f"match field '{path}': '{name}' has no members")
                return None
            return pos
        return None

    def static_item_offset(self, seq, item_name, where):
        off = 0
        for it in seq.items:
            if it.align > 1:
                off = -(-off // it.align) * it.align
            if it.name == item_name:
                return off
            t = it.type.target
            if it.present is not None or it.count is not None or not isinstance(t, Struct) or t.variable_length:
                self.error(where.loc, f"cannot match on item '{item_name}': item '{it.name}' before it has no fixed size")
                return None
            off += t.bits
        self.error(where.loc, f"'{item_name}' is not an item of sequence '{seq.name}'")
        return None

    def match_pattern(self, m, positions):
        text = m.value_text
        width = len(positions)
        if text.startswith("0b") and "x" in text:
            digits = text[2:].replace("_", "")
            if len(digits) > width:
                self.error(m.loc, f"pattern {text} has {len(digits)} digits; the field has {width} bits")
                return 0, 0
            mask = value = 0
            for i, ch in enumerate(reversed(digits)):
                if ch != "x":
                    mask |= 1 << i
                    value |= (ch == "1") << i
        else:
            value = X.parse_int(text)
            mask = X.parse_int(m.mask_text) if m.mask_text is not None else (1 << width) - 1
            if value < 0 or value >= (1 << width):
                self.error(m.loc, f"match value {text} does not fit {width} bits")
                return 0, 0
            if mask >= (1 << width) or mask < 0:
                self.error(m.loc, f"match mask {m.mask_text} does not fit {width} bits")
                return 0, 0
            if value & ~mask:
                self.error(m.loc, f"match value {text} has bits outside mask {m.mask_text}")
                return 0, 0
        amask = avalue = 0
        for k, p in enumerate(positions):
            if mask >> k & 1:
                amask |= 1 << p
                avalue |= ((value >> k) & 1) << p
        return amask, avalue

    def group_pattern(self, group, owner, members, owner_desc, seq=None):
        mask = value = 0
        for m in group:
            pos = self.resolve_match_bits(m, members, owner_desc, seq, owner)
            if pos is None:
                continue
            mm, mv = self.match_pattern(m, pos)
            if (value ^ mv) & mask & mm:
                self.error(m.loc, "this match contradicts an earlier match of the same <when>")
            mask |= mm
            value |= mv
        m.mask, m.value = mask, value
        return mask, value

    def check_patterns(self, cands, what, owner_desc):
        """cands: [(obj, priority, explicit, [(mask, value)])]"""
        n = len(cands)
        for i in range(n):
            for j in range(i + 1, n):
                a, pa, ea, pats_a = cands[i]
                b, pb, eb, pats_b = cands[j]
                if pa != pb:
                    continue
                for (ma, va) in pats_a:
                    hit = False
                    for (mb, vb) in pats_b:
                        if (va ^ vb) & ma & mb == 0:
                            m, v = ma | mb, va | vb
                            digits = max(1, (m.bit_length() + 3) // 4)
                            self.error(b.loc, f"{what} '{a.name}' and '{b.name}' of {owner_desc} can match the same bits "
                                              f"(value 0x{v:0{digits}x} under mask 0x{m:0{digits}x}) and neither has a higher priority")
                            hit = True
                            break
                    if hit:
                        break
        for i in range(n):
            obj, prio, _, pats = cands[i]
            if not pats:
                continue
            shadowed_by = None
            for p in pats:
                by = None
                for j in range(n):
                    other, oprio, _, opats = cands[j]
                    if j == i or oprio <= prio:
                        continue
                    for (mq, vq) in opats:
                        if mq & ~p[0] == 0 and (p[1] & mq) == vq:
                            by = other
                            break
                    if by is not None:
                        break
                if by is None:
                    shadowed_by = None
                    break
                shadowed_by = by
            if shadowed_by is not None:
                self.error(obj.loc, f"{what[:-1]} '{obj.name}' of {owner_desc} can never match: "
                                    f"'{shadowed_by.name}' has a higher priority and matches all of its bits")

    # ---------------------------------------------------------------- sequences

    def sequence(self, seq):
        spec = self.spec
        self.names(seq.items, f"sequence '{seq.name}'")
        for k, it in enumerate(seq.items):
            scope = SequenceScope(spec, seq, visible=seq.items[:k], vars_={"pos": "(int64_t)(pos - start)"})
            if it.present is not None:
                self.expr(it.present, scope, it.present_loc, "present")
            if it.count is not None:
                self.expr(it.count, scope, it.count_loc, "count")
                if it.present is not None:
                    self.error(it.loc, f"item '{it.name}' has both count and present; a count of 0 already means absent")
            t = it.type.target
            if isinstance(t, Struct) and t.variable_length and it.count is not None:
                pass
        allscope = SequenceScope(spec, seq)
        self.lets_and_operands(seq, seq.lets, [], allscope, extra=seq.items)
        if seq.size is not None:
            self.expr(seq.size, allscope, seq.size_loc, "size")
        for d in seq.derives:
            self.derive_target(d, allscope)
            dscope = SequenceScope(spec, seq, vars_={"size": "(int64_t)size"})
            self.expr(d.value, dscope, d.value_loc, "derive value")
        self.rules_and_displays(seq.rules, seq.displays, allscope)

    def derive_target(self, d, scope):
        """Resolve the field a <derive> sets (d.target), or report why not."""
        try:
            node = X.parse(d.field)
            X.check(node, scope)
            if node.ref.lvalue is None or node.ref.field is None or not node.ref.field.stored:
                raise X.ExprError(0, f"'{d.field}' is not a field that can be set")
            d.target = node
        except X.ExprError as e:
            self.error(d.field_loc.shifted(e.pos), f"in derive field: {e.message}")

    # ---------------------------------------------------------------- choices

    def choice(self, ch):
        cands = []
        errors_before = len(self.diags.errors)
        firsts = [a for a in ch.alts if a.first]
        if len(firsts) > 1:
            self.error(firsts[1].loc, f"choice '{ch.name}' has more than one first=\"true\" alternative")
        for a in ch.alts:
            t = a.type.target
            if t is None:
                continue
            if a.first:
                # chosen by position (the program's first unit), never by bits
                if a.whens:
                    self.error(a.whens[0][0].loc if a.whens[0] else a.loc,
                               f"alternative '{a.name}' is first=\"true\": its position chooses it, so it takes no <when>")
                a.patterns = []
                continue
            fixed = (0, 0)
            if isinstance(t, Struct):
                fixed = fixed_pattern(t.members)
                members, seq = t.members, None
            elif isinstance(t, Sequence):
                members, seq = None, t
                first = t.items[0] if t.items else None
                if first is not None and isinstance(first.type.target, Struct) and first.present is None and first.count is None:
                    fixed = fixed_pattern(first.type.target.members)
            else:
                self.error(a.loc, f"alternative '{a.name}' is a choice; nest its alternatives here instead")
                continue
            pats = []
            for g in a.whens:
                m, v = self.group_pattern(g, t, members, f"{t.kind} '{t.name}'", seq=seq)
                if (v ^ fixed[1]) & m & fixed[0]:
                    self.error(g[0].loc, f"this <when> contradicts the fixed bits of '{t.name}'")
                pats.append((m | fixed[0], v | fixed[1]))
            if not a.whens:
                pats = [fixed]
            if isinstance(t, Struct) and t.length_flag_field is not None:
                pats = length_flag_patterns(t, pats)
            a.patterns = pats
            if a.shadowed:
                a.shadowed_patterns, a.patterns = pats, []
                continue
            cands.append((a, a.priority, a.explicit_priority, pats))
        if len(cands) > 1 and len(self.diags.errors) == errors_before:
            self.check_patterns(cands, "alternatives", f"choice '{ch.name}'")
        for a in ch.alts:
            if a.shadowed and len(self.diags.errors) == errors_before:
                # it must really be: each of its patterns inside one of another's
                for m, v in a.shadowed_patterns:
                    if not any((mo & m) == mo and (v & mo) == vo
                               for c, _, _, pats in cands for mo, vo in pats):
                        self.error(a.loc, f"alternative '{a.name}' is marked shadowed, but bits with value "
                                          f"{v:#x} under mask {m:#x} select no other alternative")
                        break
        names = {}
        for a in ch.alts:
            if a.name in names:
                self.error(a.loc, f"'{a.name}' appears twice in choice '{ch.name}'")
            names[a.name] = a
        self.lets_and_operands(ch, ch.lets, [], ChoiceScope(self.spec, ch), extra=ch.alts)
        self.rules_and_displays(ch.rules, [], ChoiceScope(self.spec, ch))

    # ---------------------------------------------------------------- operands

    def operand(self, o):
        for pname, tname in o.param_types.items():
            if not isinstance(self.spec.type_named(tname), Struct):
                self.error(o.param_locs[pname], f"parameter '{pname}' of operand '{o.name}': '{tname}' is not a struct")
        scope = OperandScope(self.spec, o)
        if len(set(o.params)) != len(o.params):
            return
        for let in o.lets:
            if let.name in o.params:
                self.error(let.loc, f"<let> '{let.name}' has the name of a parameter of operand '{o.name}'")
            elif let.value is not None:
                self.expr(let.value, scope, let.value_loc, f"<let> '{let.name}'", want=None)
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
            self.template(st.prefix, ContextScope(self.spec), st.prefix_loc, "prefix")
        if st.unit is None:
            return
        for t in self.spec.types:
            if isinstance(t, Choice) and t is not st.unit:
                for a in t.alts:
                    if a.first:
                        self.error(a.loc, f"first=\"true\" only applies to the alternatives of the stream's unit; "
                                          f"'{t.name}' is not the unit")
        if st.stop is not None:
            # stop sees the unit and its context, the <state>s as before it
            # ($last reads 0: stop is what decides it)
            self.expr(st.stop, scope_for(self.spec, st.unit), st.stop_loc, "stop")
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
            scope = scope_for(self.spec, st.unit)
            if s.next is not None:
                self.expr(s.next, scope, s.next_loc, f"next of state '{s.name}'")
            for e in s.sets:
                self.expr(e.index, scope, e.index_loc, f"index of a set of state '{s.name}'")
                self.expr(e.value, scope, e.value_loc, f"value of a set of state '{s.name}'")
                if e.when is not None:
                    self.expr(e.when, scope, e.when_loc, f"when of a set of state '{s.name}'")
        for d in st.derives:
            self.derive_target(d, scope_for(self.spec, st.unit, prev=False))
            self.expr(d.value, scope_for(self.spec, st.unit, next=True), d.value_loc, "derive value")

    def recursion(self):
        """A struct may not contain itself (its size would be infinite)."""
        def visit(t, stack):
            if t in stack:
                self.error(t.loc, f"'{t.name}' contains itself: {' -> '.join(x.name for x in stack + [t])}")
                return
            kids = []
            if isinstance(t, Struct):
                kids = [f.type.target for f in t.fields + [f for v in t.variants for f in v.fields]
                        if f.type.kind == "struct" and f.type.target is not None]
            elif isinstance(t, Sequence):
                kids = [it.type.target for it in t.items if it.type.target is not None]
            elif isinstance(t, Choice):
                kids = [a.type.target for a in t.alts if a.type.target is not None]
            for k in kids:
                visit(k, stack + [t])
        for t in self.spec.types:
            visit(t, [])


def check_spec(spec, diags):
    Checker(spec, diags).run()
