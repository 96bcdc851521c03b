"""The assembler's equation for a sequence's <derive> of its size: the
derived field equals its value with $size the bits of the items present,
so that a reading the encoder would size otherwise is refused while the
text is read, not found wrong by printing every encoding of it."""
import os
import unittest

from gen.isagenlib import expr as X
from gen.isagenlib.cgen.assembler import items_size, with_size
from gen.isagenlib.model import Sequence
from tests.gen.common import load_text

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")

VARYING = """<?xml version="1.0"?>
<isa name="t" language="3">
  <stream unit="S"/>
  <struct name="Word" bits="32" min-length="16" length-flag="wide">
    <field name="wide" bits="0" type="bool"/>
    <field name="a" bits="1..15" type="uint"/>
    <field name="b" bits="16..31" type="uint"/>
    <display>w {a:d} {b:d}</display>
  </struct>
  <struct name="Head" bits="8">
    <field name="n" bits="0..7" type="uint"/>
  </struct>
  <sequence name="S">
    <item name="h" type="Head"/>
    <item name="w" type="Word"/>
    <derive field="h.n" value="$size / 8"/>
    <display>{w}</display>
  </sequence>
</isa>
"""


def sequence(spec, name):
    return next(t for t in spec.types if isinstance(t, Sequence) and t.name == name)


def load(text):
    r = load_text(text)
    return r[0] if isinstance(r, tuple) else r


class DeriveEquation(unittest.TestCase):
    def test_size_is_the_bits_of_the_items_present_aligned(self):
        # toy-bundle.xml: a 32-bit control word, two 13-bit ALU units, a
        # 21-bit load and a 16-bit constant, each there when its bit of
        # ctrl.units is set, the whole padded to 32 bits
        with open(os.path.join(ROOT, "tests", "specs", "toy-bundle.xml"), encoding="utf-8") as f:
            bundle = sequence(load(f.read()), "Bundle")
        size = items_size(bundle)
        self.assertEqual(X.text_of(size),
                         "(((((((32 + (present(alu0) * 13)) + (present(alu1) * 13)) + (present(load) * 21)) + "
                         "(present(k) * 16)) + 31) / 32) * 32)")
        derive, = bundle.derives
        self.assertEqual(X.text_of(derive.value), "($size / 32)")
        self.assertEqual(X.text_of(with_size(derive.value, size)), f"({X.text_of(size)} / 32)")
        # (the derive itself is left as it was)
        self.assertEqual(X.text_of(derive.value), "($size / 32)")

    def test_a_repeated_item_counts_its_elements(self):
        with open(os.path.join(ROOT, "xml", "tgsi.xml"), encoding="utf-8") as f:
            spec = load(f.read())
        self.assertEqual(X.text_of(items_size(sequence(spec, "Immediate"))), "(32 + (count(data) * 32))")

    def test_an_item_of_varying_size_gives_no_equation(self):
        self.assertIsNone(items_size(sequence(load(VARYING), "S")))


if __name__ == "__main__":
    unittest.main()
