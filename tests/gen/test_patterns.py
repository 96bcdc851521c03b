"""The overlap and shadowing checks of check/patterns.py compare patterns
only within groups split by shared fixed bits (linear on a choice of
thousands of encodings).  Differential test: on random candidate sets, the
errors, and their order, are those of comparing every pair."""
import os
import random
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "gen"))
from isagenlib.check.patterns import PatternLowering  # noqa: E402


class Cand:
    def __init__(self, name):
        self.name, self.loc = name, name


def pairwise(cands, what, owner_desc, ordered):
    """Every pair, as the check did before it grouped patterns: the reference."""
    errors = []
    n = len(cands)
    for i in range(n):
        for j in range(i + 1, n):
            a, pa, pats_a = cands[i]
            b, pb, pats_b = cands[j]
            if pa != pb:
                continue
            hit = next(((ma, va, mb, vb) for (ma, va) in pats_a for (mb, vb) in pats_b
                        if (va ^ vb) & ma & mb == 0), None)
            if hit:
                ma, va, mb, vb = hit
                m, v = ma | mb, va | vb
                digits = max(1, (m.bit_length() + 3) // 4)
                errors.append((b.loc, f"{what} '{a.name}' and '{b.name}' of {owner_desc} can match the same bits "
                                      f"(value 0x{v:0{digits}x} under mask 0x{m:0{digits}x}) and neither has a "
                                      f"higher priority"))
    for i in range(n):
        obj, prio, pats = cands[i]
        if not pats:
            continue
        shadowed_by = None
        for (pm, pv) in pats:
            by = next((cands[j][0] for j in range(n) if j != i and cands[j][1] > prio
                       and any(mq & ~pm == 0 and (pv & mq) == vq for (mq, vq) in cands[j][2])), None)
            if by is None:
                shadowed_by = None
                break
            shadowed_by = by
        if shadowed_by is not None:
            errors.append((obj.loc, f"{what[:-1]} '{obj.name}' of {owner_desc} can never match: '{shadowed_by.name}' "
                                    f"{'comes before it' if ordered else 'has a higher priority'} and matches all of "
                                    f"its bits"))
    return errors


class Collect(PatternLowering):
    def __init__(self):
        super().__init__(None, None)
        self.errors = []

    def error(self, loc, msg):
        self.errors.append((loc, msg))


def random_cands(rng):
    """Candidates over 12 bits that fix few or many bits, some sharing a
    prefix (as opcodes do), with one or two patterns and a few priorities."""
    cands = []
    for i in range(rng.randint(0, 40)):
        pats = []
        for _ in range(rng.choice((0, 1, 1, 1, 2))):
            mask = rng.choice((0xf00, 0xff0, 0xfff, 0xf0f)) & rng.getrandbits(12) | rng.choice((0, 0xf00))
            value = rng.getrandbits(12) & mask
            if rng.random() < 0.5:  # a shared opcode prefix: more overlaps to find
                value = (value & ~0xf00) | (0x300 & mask)
            pats.append((mask, value))
        cands.append((Cand(f"c{i}"), rng.choice((0, 0, 1, 2)), pats))
    return cands


class OverlapGroups(unittest.TestCase):
    def test_grouped_checks_report_what_pairwise_checks_report(self):
        rng = random.Random(1234)
        found = 0
        for _ in range(3000):
            cands = random_cands(rng)
            ordered = rng.random() < 0.5
            c = Collect()
            c.check_patterns(cands, "alternatives", "choice 'C'", ordered)
            want = pairwise(cands, "alternatives", "choice 'C'", ordered)
            self.assertEqual(c.errors, want)
            found += len(want)
        self.assertGreater(found, 1000, "the random sets overlap and shadow often enough to test")


if __name__ == "__main__":
    unittest.main()
