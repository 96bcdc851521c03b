"""Selection in C: which variant or alternative a unit's bits select.

The decision trees come from decodetree.py; this module feeds it the
resolved patterns (Variant.patterns, Alt.selecting) and lays out the
pattern tables the reflection data carries.
"""

from .. import decodetree
from ..check.patterns import variant_priority
from .cexpr import Atom, Infix
from .cwriter import expr_lines


# ---------------------------------------------------------------- decision trees as C


def key_c(runs, words="w"):
    """The C value of the key bits (runs, low first), concatenated."""
    e, shift = None, 0
    for lo, w in runs:
        part = Atom(f"isa_w_get({words}, {lo}, {w})" if shift == 0 else f"(isa_w_get({words}, {lo}, {w}) << {shift})")
        e = part if e is None else Infix("|", e, part)
        shift += w
    return e


def compare_c(mask, value, words="w"):
    """C condition: the bits under mask equal value (per 32-bit word)."""
    conds, i = [], 0
    while mask >> (32 * i):
        m = (mask >> (32 * i)) & 0xFFFFFFFF
        if m:
            v = (value >> (32 * i)) & 0xFFFFFFFF
            conds.append(f"({words}[{i}] & 0x{m:08x}u) == 0x{v:08x}u")
        i += 1
    return " && ".join(conds) if conds else "1"


def emit(tree, indent="   ", words="w"):
    """C statements for a decision tree: they return the index selected,
    or fall through."""
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
            out.append(f"{indent}if ({compare_c(m, c.value & m, words)})")
            out.append(f"{indent}   return {c.index};")
        return out, False
    _, runs, groups = tree
    bodies = [_emit(sub, indent, words) for sub in groups.values()]
    if len(groups) == 1 << sum(w for _, w in runs) and all(b == bodies[0] for b in bodies) and bodies[0][1]:
        # every value of the key leads to the same decision (an alternative
        # with one pattern per value of its length flag): no switch at all
        return bodies[0]
    out += [indent + ln for ln in expr_lines(key_c(runs, words), "switch (", ") {")]
    for k, (body, returns) in zip(groups, bodies):
        out.append(f"{indent}case 0x{k:x}:")
        out.extend("   " + ln for ln in body)
        if not returns:
            out.append(f"{indent}   break;")
    out.append(f"{indent}default:")
    out.append(f"{indent}   break;")
    out.append(f"{indent}}}")
    return out, False


# ---------------------------------------------------------------- selectors


def struct_select_lines(s, words="w"):
    """Body of S_select_words: the variant's 1-based index, else the
    fallback's, else 0."""
    cands = []
    fallback = None
    for order, v in enumerate(s.variants):
        if v.fallback:
            fallback = v
            continue
        for m, val in v.patterns:
            cands.append(decodetree.Candidate(v.index, m, val, v.priority, order))
    lines = emit(decodetree.build(cands), "   ", words)
    lines.append(f"   return {fallback.index if fallback else 0};")
    return lines


def choice_select_lines(c):
    cands = []
    for order, a in enumerate(c.alts):
        for m, val in a.selecting:
            cands.append(decodetree.Candidate(a.index, m, val, a.priority, order))
    lines = emit(decodetree.build(cands), "   ")
    lines.append("   return 0;")
    return lines


def choice_peek_bits(c):
    """Bits a choice must look at to pick an alternative."""
    top = 1
    for a in c.alts:
        for m, _ in a.selecting:
            top = max(top, m.bit_length())
    return top


# A choice reads the larger of its selecting window and its alternatives
# (up to this many bits) once, and decodes those alternatives from the
# words it read rather than from the bytes again.
WINDOW_LIMIT_BITS = 128


def decodes_from_words(s):
    """Whether struct s can be decoded from words already read: its size is
    fixed, or set by a length flag, and small enough to read whole."""
    return s.kind == "struct" and s.bits <= WINDOW_LIMIT_BITS and (
        not s.variable_length or s.length_flag_field is not None)


def is_choice_alt(s, types):
    return any(t.kind == "choice" and any(a.type.target is s for a in t.alts) for t in types)


def choice_window_bits(c):
    """Bits a choice reads before it selects: enough to select, and to
    decode every alternative that decodes_from_words."""
    return max([choice_peek_bits(c)] + [a.type.target.bits for a in c.alts if decodes_from_words(a.type.target)])


def pattern_comments(entries):
    """' *   NAME: mask 0x.. value 0x..' lines for a selector's comment;
    entries: [(name, patterns, note)]."""
    out = []
    for name, pats, note in entries:
        for m, v in pats:
            out.append(f" *   {name}: mask 0x{m:x} value 0x{v:x}{note}")
    return out


def pattern_bytes(patterns, nbytes):
    """The C byte values (text) of the masks and values of patterns."""
    masks, values = [], []
    for m, v in patterns:
        masks += [f"0x{(m >> (8 * i)) & 0xff:02x}" for i in range(nbytes)]
        values += [f"0x{(v >> (8 * i)) & 0xff:02x}" for i in range(nbytes)]
    return masks, values


def variant_note(v):
    return (f" (priority {v.priority})" if v.explicit_priority else "") + (" (fallback)" if v.fallback else "")


__all__ = ["struct_select_lines", "choice_select_lines", "choice_peek_bits", "choice_window_bits",
           "decodes_from_words", "is_choice_alt", "pattern_bytes",
           "pattern_comments", "variant_note", "variant_priority"]
