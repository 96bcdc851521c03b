"""Selection in C: which variant or alternative a unit's bits select.

The decision trees come from decodetree.py; this module feeds it the
resolved patterns (Variant.patterns, Alt.selecting) and lays out the
pattern tables the reflection data carries.
"""

from .. import decodetree
from ..check.patterns import variant_priority


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
    lines = decodetree.emit(decodetree.build(cands), "   ", words)
    lines.append(f"   return {fallback.index if fallback else 0};")
    return lines


def choice_select_lines(c):
    cands = []
    for order, a in enumerate(c.alts):
        for m, val in a.selecting:
            cands.append(decodetree.Candidate(a.index, m, val, a.priority, order))
    lines = decodetree.emit(decodetree.build(cands), "   ")
    lines.append("   return 0;")
    return lines


def choice_peek_bits(c):
    """Bits a choice must look at to pick an alternative."""
    top = 1
    for a in c.alts:
        for m, _ in a.selecting:
            top = max(top, m.bit_length())
    return top


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


__all__ = ["struct_select_lines", "choice_select_lines", "choice_peek_bits", "pattern_bytes",
           "pattern_comments", "variant_note", "variant_priority"]
