"""Decision trees: which variant or alternative do these bits select?

Input: candidates (index, mask, value, priority) over a unit's bits.  The
generated C never tries candidates one by one from the top: at each node it
takes the bits that every remaining candidate fixes, and those that all but
a few fix, switches on them, and recurses into the candidates that agree
with the key (one that leaves a key bit free agrees with both values).  Only candidates that
fix no common bit any more (overlap groups, resolved by priority) are then
compared in priority order.  This is the QEMU decodetree / LLVM filter idea,
and it is correct for priorities because a word can only match candidates
whose fixed bits agree with it.

The tree is data: ("switch", runs, {key: subtree}) nodes and ("leaf",
candidates, bits used) leaves.  The C back-end writes it as C
(cgen/selection.py): statements that `return` the 1-based index of the
match, or fall through when nothing matches; anything else that needs to
know which encoding bits select (a map of the encoding space) can walk it.
"""

MAX_KEY_BITS = 12  # wider keys give sparse switches; split them into levels
# A bit that at most one candidate in WIDEN_FREE_RATIO leaves free joins the
# key while it has fewer than WIDEN_MAX_KEY_BITS: one wider switch instead of
# two levels, for a few candidates copied into both branches.
WIDEN_MAX_KEY_BITS = 8
WIDEN_FREE_RATIO = 8


class Candidate:
    def __init__(self, index, mask, value, priority, order):
        self.index, self.mask, self.value = index, mask, value
        self.priority, self.order = priority, order


def _runs(mask):
    """Contiguous runs of set bits: [(lo, width)], low first."""
    runs, b = [], 0
    while mask >> b:
        if mask >> b & 1:
            lo = b
            while mask >> b & 1:
                b += 1
            runs.append((lo, b - lo))
        else:
            b += 1
    return runs


def _key(value, runs):
    k, shift = 0, 0
    for lo, w in runs:
        k |= ((value >> lo) & ((1 << w) - 1)) << shift
        shift += w
    return k


def _widen(cands, used, common):
    """Bits most candidates fix, beside the ones all fix: a candidate that
    leaves a key bit free goes down every branch that agrees with the bits
    it does fix."""
    extra = 0
    for b in range(max(c.mask.bit_length() for c in cands)):
        bit = 1 << b
        if (common | used | extra) & bit or bin(common | extra).count("1") >= WIDEN_MAX_KEY_BITS:
            continue
        free = sum(1 for c in cands if not c.mask & bit)
        if free * WIDEN_FREE_RATIO <= len(cands):
            extra |= bit
    return extra


def _keys(c, runs):
    """The keys of every branch candidate c may take: its fixed key bits
    as they are, its free ones either way."""
    keys, shift = [0], 0
    for lo, w in runs:
        for b in range(w):
            bit = 1 << (lo + b)
            if c.mask & bit:
                keys = [k | ((c.value >> (lo + b)) & 1) << shift for k in keys]
            else:
                keys = [k | v << shift for k in keys for v in (0, 1)]
            shift += 1
    return keys


def build(cands, used=0):
    """A tree: ("leaf", [cands]) or ("switch", runs, {key: subtree})."""
    cands = sorted(cands, key=lambda c: (-c.priority, c.order))
    if len(cands) <= 1:
        return ("leaf", cands, used)
    common = ~0
    for c in cands:
        common &= c.mask & ~used
    if common <= 0:
        return ("leaf", cands, used)
    common |= _widen(cands, used, common)
    runs, taken = [], 0
    for lo, w in _runs(common):
        w = min(w, MAX_KEY_BITS - taken)
        if w <= 0:
            break
        runs.append((lo, w))
        taken += w
    keymask = 0
    for lo, w in runs:
        keymask |= ((1 << w) - 1) << lo
    groups = {}
    for c in cands:
        for k in _keys(c, runs):
            groups.setdefault(k, []).append(c)
    return ("switch", runs, {k: build(g, used | keymask) for k, g in sorted(groups.items())})


def depth(tree):
    if tree[0] == "leaf":
        return len(tree[1])
    return 1 + max(depth(t) for t in tree[2].values())


def select(tree, x):
    """The index the tree picks for the bits x (0: none), as the emitted C
    does."""
    if tree[0] == "leaf":
        _, cands, used = tree
        for c in cands:
            m = c.mask & ~used
            if x & m == c.value & m:
                return c.index
        return 0
    _, runs, groups = tree
    key = _key(x, runs)
    return select(groups[key], x) if key in groups else 0
