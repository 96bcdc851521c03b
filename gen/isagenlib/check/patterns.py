"""Pattern lowering: which bits select each variant and alternative.

Each variant of a struct and each alternative of a choice becomes a list of
(mask, value) patterns over the unit's bits: its <fixed> bits and its
<when>s.  Two of equal priority that can match the same bits are an error,
and so is one that a higher priority pattern shadows entirely.  Resolved
here: Match.mask/value, Variant.patterns, Alt.patterns.
"""

from .. import expr as X
from ..model import Field, Sequence, Struct
from .layout import logical_positions

FALLBACK_PRIORITY = -(1 << 62)


def fixed_pattern(members):
    """(mask, value) of the <fixed> bits among members."""
    fm = fv = 0
    for f in members:
        if isinstance(f, Field) and f.role == "fixed" and f.value is not None:
            for k, p in enumerate(logical_positions(f.pieces)):
                fm |= 1 << p
                fv |= ((f.value >> k) & 1) << p
    return fm, fv


def overlap_groups(items):
    """items: (candidate, pattern index, mask, value).  Groups such that
    two patterns that can match the same bits are in one group: split by the
    value of the bits every item of a group fixes, again within each part,
    until no bit is fixed by all (a pattern that fixes few bits keeps its
    group together, and that group is compared pairwise)."""
    out, todo = [], [(items, 0)]
    while todo:
        group, used = todo.pop()
        if len(group) < 2:
            continue
        common = -1
        for it in group:
            common &= it[2]
        common &= ~used
        if not common:
            out.append(group)
            continue
        parts = {}
        for it in group:
            parts.setdefault(it[3] & common, []).append(it)
        todo.extend((part, used | common) for part in parts.values())
    return out


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


def variant_priority(v):
    """A fallback variant loses to every other."""
    return FALLBACK_PRIORITY if v.fallback else v.priority


class PatternLowering:
    def __init__(self, spec, diags):
        self.spec = spec
        self.diags = diags

    def error(self, loc, msg):
        self.diags.error(loc, msg)

    def run(self):
        for t in self.spec.types:
            if isinstance(t, Struct):
                self.struct(t)
            elif t.kind == "choice":
                self.choice(t)

    # ---------------------------------------------------------------- structs

    def struct(self, s):
        for v in s.variants:
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
            self.check_patterns([(v, variant_priority(v), v.patterns) for v in s.variants],
                                "variants", f"struct '{s.name}'")

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
            if not a.shadowed:
                cands.append((a, a.priority, pats))
        if len(cands) > 1 and len(self.diags.errors) == errors_before:
            self.check_patterns(cands, "alternatives", f"choice '{ch.name}'", ch.ordered)
        for a in ch.alts:
            if a.shadowed and not a.first and a.type.target is not None and len(self.diags.errors) == errors_before:
                # it must really be: each of its patterns inside one of another's
                for m, v in a.patterns:
                    if not any((mo & m) == mo and (v & mo) == vo for _, _, pats in cands for mo, vo in pats):
                        self.error(a.loc, f"alternative '{a.name}' is marked shadowed, but bits with value "
                                          f"{v:#x} under mask {m:#x} select no other alternative")
                        break
        names = {}
        for a in ch.alts:
            if a.name in names:
                self.error(a.loc, f"'{a.name}' appears twice in choice '{ch.name}'")
            names[a.name] = a

    # ---------------------------------------------------------------- <match>

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
            mask = (1 << width) - 1
            if value < 0 or value >= (1 << width):
                self.error(m.loc, f"match value {text} does not fit {width} bits")
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
            m.mask, m.value = mm, mv
        return mask, value

    # ---------------------------------------------------------------- overlaps and shadowing

    def check_patterns(self, cands, what, owner_desc, ordered=False):
        """cands: [(obj, priority, [(mask, value)])]; ordered: priorities
        are the document order (an ordered choice), so say that.

        Two patterns can only overlap (or one cover the other) if they agree
        on every bit both fix, so the patterns are first split into groups
        by bits all of a group fix (overlap_groups), as a decision tree
        splits them, and compared pairwise only within a group: a choice of
        thousands of encodings checks in linear time.  Errors come out as
        the pairwise comparison of all would give them, in candidate order."""
        n = len(cands)
        overlapping = set()   # (i, j), i < j: equal priorities and some patterns overlap
        covered = {}          # (i, k): the lowest j of higher priority with a pattern covering pattern k of i
        for group in overlap_groups([(i, k, m, v) for i, (_, _, pats) in enumerate(cands)
                                     for k, (m, v) in enumerate(pats)]):
            for x, (i, k, ma, va) in enumerate(group):
                for (j, _, mb, vb) in group[x + 1:]:
                    if i != j and cands[i][1] == cands[j][1] and (va ^ vb) & ma & mb == 0:
                        overlapping.add((min(i, j), max(i, j)))
                for (j, _, mq, vq) in group:
                    if j != i and cands[j][1] > cands[i][1] and mq & ~ma == 0 and (va & mq) == vq:
                        if covered.get((i, k), n) > j:
                            covered[(i, k)] = j
        for i, j in sorted(overlapping):
            a, _, pats_a = cands[i]
            b, _, pats_b = cands[j]
            first = next(((ma, va, mb, vb) for (ma, va) in pats_a for (mb, vb) in pats_b
                          if (va ^ vb) & ma & mb == 0), None)
            ma, va, mb, vb = first
            m, v = ma | mb, va | vb
            digits = max(1, (m.bit_length() + 3) // 4)
            self.error(b.loc, f"{what} '{a.name}' and '{b.name}' of {owner_desc} can match the same bits "
                              f"(value 0x{v:0{digits}x} under mask 0x{m:0{digits}x}) and neither has a higher priority")
        for i in range(n):
            obj, prio, pats = cands[i]
            if not pats:
                continue
            shadowed_by = None
            for k in range(len(pats)):
                if (i, k) not in covered:
                    shadowed_by = None
                    break
                shadowed_by = cands[covered[(i, k)]][0]
            if shadowed_by is not None:
                self.error(obj.loc, f"{what[:-1]} '{obj.name}' of {owner_desc} can never match: "
                                    f"'{shadowed_by.name}' "
                                    f"{'comes before it' if ordered else 'has a higher priority'} and matches all of its bits")
