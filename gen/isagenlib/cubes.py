"""Sets of bit patterns, as unions of cubes.

A cube is a (mask, value) pair over a unit's bits: every bit pattern whose
bits under `mask` equal `value` (the form the checker gives each variant and
alternative).  A set is a list of cubes.  `isagen diff` uses these to say
exactly which bit patterns decode as what in each version: the region of an
alternative is its patterns minus those of every alternative that beats it.
"""


def intersects(a, b):
    (ma, va), (mb, vb) = a, b
    return (va ^ vb) & ma & mb == 0


def subtract_cube(a, b):
    """a - b as disjoint cubes: fix, one at a time, each bit b constrains and
    a does not, to the value b does not want (earlier ones to what it wants)."""
    if not intersects(a, b):
        return [a]
    ma, va = a
    mb, vb = b
    free = mb & ~ma
    out = []
    while free:
        bit = free & -free
        free ^= bit
        out.append((ma | bit, va | (~vb & bit)))
        ma, va = ma | bit, va | (vb & bit)
    return out


def subtract(cubes, others):
    """(union of cubes) - (union of others)."""
    out = list(cubes)
    for b in others:
        nxt = []
        for a in out:
            nxt.extend(subtract_cube(a, b))
        out = nxt
        if not out:
            break
    return out


def intersection(cubes, others):
    out = []
    for ma, va in cubes:
        for mb, vb in others:
            if intersects((ma, va), (mb, vb)):
                out.append((ma | mb, va | vb))
    return out


def empty(cubes):
    return not cubes


def same(a, b):
    """Whether two unions of cubes are the same set of bit patterns."""
    return not subtract(a, b) and not subtract(b, a)


def overlap(a, b):
    return any(intersects(x, y) for x in a for y in b)


def regions(entries):
    """entries: [(key, priority, cubes)] of one selector (a choice's
    alternatives, a struct's variants).  Returns {key: cubes}: the bit
    patterns each one really decodes, after every higher priority entry
    has taken its own."""
    out = {}
    for key, prio, cubes in entries:
        higher = [c for k, p, cs in entries if p > prio and k != key for c in cs]
        mine = [c for c in cubes if any(intersects(c, h) for h in higher)]
        rest = [c for c in cubes if c not in mine]
        out[key] = rest + subtract(mine, [h for h in higher if any(intersects(h, c) for c in mine)])
    return out


def describe(cube):
    """A cube as the bits it fixes: '0..6 = 0x2a, 15 = 1'."""
    mask, value = cube
    parts, bit = [], 0
    while mask >> bit:
        if not (mask >> bit) & 1:
            bit += 1
            continue
        lo = bit
        while (mask >> bit) & 1:
            bit += 1
        width = bit - lo
        v = (value >> lo) & ((1 << width) - 1)
        parts.append(f"{lo} = {v}" if width == 1 else f"{lo}..{bit - 1} = {v:#x}")
    return ", ".join(parts) or "any bits"
