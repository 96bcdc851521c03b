"""Decision trees pick the same candidate as trying every candidate in
priority order, on random candidate sets and random words."""
import random
import unittest

from gen.isagenlib import decodetree as D
from gen.isagenlib.cgen import selection


def brute(cands, x):
    best = None
    for c in sorted(cands, key=lambda c: (-c.priority, c.order)):
        if x & c.mask == c.value:
            return c.index
    return best or 0


class Trees(unittest.TestCase):
    def test_random_sets_match_brute_force(self):
        rng = random.Random(7)
        for round_ in range(300):
            width = rng.choice([8, 16, 40, 70])
            cands = []
            for i in range(rng.randint(1, 25)):
                opmask = rng.choice([0xF, 0x7F, 0xFF, 0x3F0]) & ((1 << width) - 1)
                extra = rng.getrandbits(width) & rng.getrandbits(width) & rng.getrandbits(width)
                mask = opmask | extra
                value = rng.getrandbits(width) & mask
                cands.append(D.Candidate(i + 1, mask, value, rng.choice([0, 0, 0, 1, 2]), i))
            tree = D.build(cands)
            for _ in range(200):
                x = rng.getrandbits(width)
                if rng.random() < 0.5:  # bias towards words that match something
                    c = rng.choice(cands)
                    x = (x & ~c.mask) | c.value
                self.assertEqual(D.select(tree, x), brute(cands, x), f"round {round_} x={x:#x}")

    def test_keys_with_bits_a_few_candidates_leave_free_match_brute_force(self):
        # most candidates fix bits 0-7, one in ten leaves bit 4 free: the
        # root switches on all eight, those few go down both branches
        rng = random.Random(11)
        widened = 0
        for round_ in range(200):
            cands = []
            for i in range(rng.randint(10, 40)):
                mask = (0xEF if rng.random() < 0.1 else 0xFF) | (rng.getrandbits(16) & rng.getrandbits(16)) << 8
                cands.append(D.Candidate(i + 1, mask, rng.getrandbits(24) & mask, rng.choice([0, 0, 1]), i))
            tree = D.build(cands)
            widened += tree[0] == "switch" and (4, 1) not in tree[1] and any(lo <= 4 < lo + w for lo, w in tree[1]) \
                and any(not c.mask & 0x10 for c in cands)
            for _ in range(300):
                x = rng.getrandbits(24)
                if rng.random() < 0.7:
                    c = rng.choice(cands)
                    x = (x & ~c.mask) | c.value
                self.assertEqual(D.select(tree, x), brute(cands, x), f"round {round_} x={x:#x}")
        self.assertGreater(widened, 50, "the key never took a bit some candidates leave free")

    def test_emitted_c_always_falls_through_or_returns(self):
        cands = [D.Candidate(1, 0x7F, 0x0E, 0, 0), D.Candidate(2, 0x7F | 0xFF << 13, 0x0E | 0xFF << 13, 1, 1),
                 D.Candidate(3, 0xFF, 0x00, 0, 2)]
        lines = selection.emit(D.build(cands))
        text = "\n".join(lines)
        self.assertIn("switch", text)
        self.assertNotIn("case 0xe:\n      return 1;", text, "the priority-1 candidate must be tried first")

    def test_a_switch_that_decides_nothing_is_left_out(self):
        # alternative 1 has one pattern per value of its flag, bit 7: after
        # the switch on bits 0-3, switching on bit 7 decides nothing
        cands = [D.Candidate(1, 0x8F, 0x01, 0, 0), D.Candidate(1, 0x8F, 0x81, 0, 1), D.Candidate(2, 0x0F, 0x02, 0, 2)]
        text = "\n".join(selection.emit(D.build(cands)))
        self.assertIn("isa_w_get(w, 0, 4)", text)
        self.assertNotIn("isa_w_get(w, 7, 1)", text)
        self.assertEqual(text.count("return 1;"), 1, text)
        # but a switch whose cases differ stays
        cands[1] = D.Candidate(3, 0x8F, 0x81, 0, 1)
        self.assertIn("isa_w_get(w, 7, 1)", "\n".join(selection.emit(D.build(cands))))


if __name__ == "__main__":
    unittest.main()
