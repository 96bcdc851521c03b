"""`isagen space`: the map of an encoding space.

For every selector of a spec (a choice's alternatives, a struct's variants)
it says which bit patterns decode as what, which decode as nothing (where a
reverse engineer looks for unknown instructions), which encodings lose
patterns to others or are never chosen, and what share of the space is
allocated.  Bit patterns are sets of (mask, value) cubes (cubes.py); the
share of a cube that fixes k bits is 2^-k of the space, whatever the unit's
length, so shares of variable-length encodings add up too.

The *key* of a selector is the set of bits every one of its entries fixes
(AGX: the low opcode bits); when it is 16 bits or fewer the map goes value
by value, which is how a person reads an opcode table ("bits 0..6 = 0x0e,
0x12, 0x5a–0x5f decode as nothing").
"""

from dataclasses import asdict, dataclass, field
from typing import Optional

from . import cubes as C
from .model import Choice, Struct

MAX_KEY_BITS = 16     # a key this wide or narrower is mapped value by value
MAX_LINES = 64        # unallocated cubes listed when there is no key
EXAMPLES = 4          # unclaimed patterns shown for a partly allocated key value


@dataclass
class Encoding:
    name: str
    fraction: float          # share of the whole space it decodes (after priorities)
    shadowed_by: list        # higher-priority entries that take some of its patterns
    never: bool              # it decodes no pattern at all
    corpus: Optional[int] = None   # corpus units decoded as it (None: no corpus)


@dataclass
class KeyValue:
    value: int
    names: list              # encodings that decode some pattern with this key value
    fraction: float          # share of this key value's patterns that decode as something


@dataclass
class SpaceSet:
    kind: str                # "choice" or "variants"
    name: str
    bits: int
    key: list                # bit positions every entry fixes, ascending
    key_text: str            # "bits 0..6"
    values: list             # [KeyValue] (key of MAX_KEY_BITS or fewer), else []
    unallocated: list        # readable lines
    encodings: list = field(default_factory=list)   # [Encoding]
    allocated: float = 0.0


def share(cube):
    return 2.0 ** -bin(cube[0]).count("1")


def disjoint(cubes):
    """The same set of patterns as disjoint cubes."""
    out = []
    for c in cubes:
        out += C.subtract([c], out)
    return out


def bits_text(positions):
    """[0, 1, 2, 5] -> 'bits 0..2, 5'."""
    parts, i = [], 0
    while i < len(positions):
        j = i
        while j + 1 < len(positions) and positions[j + 1] == positions[j] + 1:
            j += 1
        parts.append(f"{positions[i]}" if i == j else f"{positions[i]}..{positions[j]}")
        i = j + 1
    return ("bit " if len(positions) == 1 else "bits ") + ", ".join(parts)


def key_value(cube, key):
    """The value a cube gives the key bits, packed low bit first."""
    return sum(((cube[1] >> b) & 1) << i for i, b in enumerate(key))


def spread(v, key):
    """A packed key value back at the key's bit positions."""
    return sum(((v >> i) & 1) << b for i, b in enumerate(key))


def values_text(values, width):
    """[0x0e, 0x12, 0x5a, ..., 0x5f] -> '0x0e, 0x12, 0x5a–0x5f'."""
    digits = max(1, (width + 3) // 4)
    fmt = lambda v: f"{v:#0{digits + 2}x}"
    parts, i = [], 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        parts.append(fmt(values[i]) if i == j else f"{fmt(values[i])}–{fmt(values[j])}")
        i = j + 1
    return ", ".join(parts)


def selector(kind, name, bits, entries, corpus):
    """entries: [(name, priority, cubes)] in the selector's order."""
    regions = C.regions(entries)
    own = {n: disjoint(regions[n]) for n, _, _ in entries}
    encodings = []
    for n, prio, cubes in entries:
        higher = [m for m, p, cs in entries if p > prio and m != n and C.overlap(cubes, cs)]
        encodings.append(Encoding(n, sum(share(c) for c in own[n]), higher, not own[n],
                                  None if corpus is None else corpus.get(n, 0)))
    taken = [c for n, _, _ in entries for c in own[n]]
    masks = [m for _, _, cubes in entries for m, _ in cubes]
    common = 0
    if masks:
        common = masks[0]
        for m in masks[1:]:
            common &= m
    key = [b for b in range(common.bit_length()) if (common >> b) & 1]
    values, lines = [], []
    if key and len(key) <= MAX_KEY_BITS:
        kmask = spread((1 << len(key)) - 1, key)
        by_value = {}
        for n, _, _ in entries:
            for c in own[n]:
                by_value.setdefault(key_value(c, key), []).append((n, c))
        empty = []
        for v in range(1 << len(key)):
            hits = by_value.get(v, [])
            names = []
            for n, _ in hits:
                if n not in names:
                    names.append(n)
            frac = sum(share(c) for _, c in hits) * (1 << len(key))
            values.append(KeyValue(v, names, frac))
            if not hits:
                empty.append(v)
        if empty:
            lines.append(f"{bits_text(key)} = {values_text(empty, len(key))} decode as nothing")
        for kv in values:
            if kv.names and kv.fraction < 1.0:
                rest = C.subtract([(kmask, spread(kv.value, key))], [c for _, c in by_value[kv.value]])
                examples = "; ".join(C.describe(c) for c in rest[:EXAMPLES]) + ("; …" if len(rest) > EXAMPLES else "")
                lines.append(f"{bits_text(key)} = {kv.value:#x}: {100 * kv.fraction:.4g}% decode (as "
                             f"{', '.join(kv.names)}); nothing for {examples}")
    else:
        rest = C.subtract([(0, 0)], taken)
        lines = [f"{C.describe(c)} decodes as nothing" for c in rest[:MAX_LINES]]
        if len(rest) > MAX_LINES:
            lines.append(f"… {len(rest) - MAX_LINES} more")
    allocated = sum(share(c) for c in taken)
    return SpaceSet(kind, name, bits, key, bits_text(key) if key else "", values, lines, encodings, allocated)


def analyse(spec, corpus=None):
    """[SpaceSet] for every choice and every struct with variants, in
    document order; corpus: {encoding name: units decoded as it} or None."""
    out = []
    for t in spec.types:
        if isinstance(t, Choice):
            entries = [(a.name, a.priority, a.patterns) for a in t.alts if not a.first]
            if entries:
                width = max((getattr(a.type.target, "bits", 0) or 0 for a in t.alts), default=0)
                out.append(selector("choice", t.name, width, entries, corpus))
        elif isinstance(t, Struct) and t.variants:
            entries = [(v.name, v.priority if not v.fallback else -(1 << 62), v.patterns) for v in t.variants]
            out.append(selector("variants", t.name, t.bits, entries, corpus))
    return out


def text(spec_name, sets):
    """The terminal report."""
    out = []
    for s in sets:
        what = "encodings" if s.kind == "choice" else "variants"
        out.append(f"{spec_name}: {s.kind} {s.name}: {len(s.encodings)} {what}, {100 * s.allocated:.4g}% of the "
                   f"bit patterns decode as something" + (f" (key: {s.key_text})" if s.key_text else ""))
        out += [f"  {line}" for line in s.unallocated]
        for e in s.encodings:
            if e.never:
                out.append(f"  {e.name} is never chosen: its patterns all go to {', '.join(e.shadowed_by)}")
            elif e.shadowed_by:
                out.append(f"  {e.name} loses patterns to {', '.join(e.shadowed_by)}")
        unseen = [e.name for e in s.encodings if e.corpus == 0 and not e.never]
        if unseen:
            out.append(f"  allocated but no corpus unit decodes as it: {', '.join(unseen)}")
    return "\n".join(out) + "\n"


def as_json(spec_name, sets):
    return {"spec": spec_name, "sets": [asdict(s) for s in sets]}
