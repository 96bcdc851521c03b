"""Decision trees: which variant or alternative do these bits select?

Input: candidates (index, mask, value, priority) over a unit's bits.  The
generated C never tries candidates one by one from the top: at each node it
takes the bits that every remaining candidate fixes, switches on them, and
recurses into the candidates that agree with the key.  Only candidates that
fix no common bit any more (overlap groups, resolved by priority) are then
compared in priority order.  This is the QEMU decodetree / LLVM filter idea,
and it is correct for priorities because a word can only match candidates
whose fixed bits agree with it.

The output is C: statements that `return` the 1-based index of the match,
or fall through when nothing matches.
"""

MAX_KEY_BITS = 12  # wider keys give sparse switches; split them into levels


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


def _key_c(runs, words="w"):
    parts, shift = [], 0
    for lo, w in runs:
        part = f"isa_w_get({words}, {lo}, {w})"
        parts.append(part if shift == 0 else f"({part} << {shift})")
        shift += w
    return " | ".join(parts)


def _compare_c(mask, value, words="w"):
    """C condition: the bits under mask equal value (per 32-bit word)."""
    conds, i = [], 0
    while mask >> (32 * i):
        m = (mask >> (32 * i)) & 0xFFFFFFFF
        if m:
            v = (value >> (32 * i)) & 0xFFFFFFFF
            conds.append(f"({words}[{i}] & 0x{m:08x}u) == 0x{v:08x}u")
        i += 1
    return " && ".join(conds) if conds else "1"


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
        groups.setdefault(_key(c.value, runs), []).append(c)
    return ("switch", runs, {k: build(g, used | keymask) for k, g in sorted(groups.items())})


def emit(tree, indent="   ", words="w"):
    """C statements for a tree (see module doc)."""
    return _emit(tree, indent, words)[0]


def _emit(tree, indent, words):
    """(lines, whether they always return)."""
    out = []
    if tree[0] == "leaf":
        _, cands, used = tree
        for c in cands:
            m = c.mask & ~used
            if m == 0:
                out.append(f"{indent}return {c.index};")
                return out, True
            out.append(f"{indent}if ({_compare_c(m, c.value & m, words)})")
            out.append(f"{indent}   return {c.index};")
        return out, False
    _, runs, groups = tree
    out.append(f"{indent}switch ({_key_c(runs, words)}) {{")
    for k, sub in groups.items():
        out.append(f"{indent}case 0x{k:x}:")
        body, returns = _emit(sub, indent + "   ", words)
        out.extend(body)
        if not returns:
            out.append(f"{indent}   break;")
    out.append(f"{indent}default:")
    out.append(f"{indent}   break;")
    out.append(f"{indent}}}")
    return out, False


def depth(tree):
    if tree[0] == "leaf":
        return len(tree[1])
    return 1 + max(depth(t) for t in tree[2].values())
