"""Which bits of a field or parameter can change a template's value
(isa_asm.masks), and which arguments pass their value on as it is
(isa_asm_expr.passes).  asm.c tries only those bits when it narrows a
field through a condition: a register read by an operand as `(v & 15) >= 4`
takes 16 tries, not 256, once the mask reaches the field through the
operand's argument."""
import unittest

from gen.isagenlib import expr as X
from tests.gen.common import asm_tables

SPEC = """<?xml version="1.0"?>
<isa name="t" language="3">
  <stream unit="S"/>
  <operand name="Reg">
    <param name="v"/>
    <case when="(v &amp; 15) &gt;= 4" display="r{v >> 4}"/>
    <case display="z{v:d}"/>
  </operand>
  <operand name="Imm">
    <param name="i"/>
    <case display="{half((i &amp; 0x80) &lt;&lt; 8 | 12 &lt;&lt; 10 | (i &amp; 7) &lt;&lt; 7):r} {-f32(i &lt;&lt; 28):g}"/>
  </operand>
  <operand name="Pass">
    <param name="p"/>
    <case display="{Reg(p)}"/>
  </operand>
  <struct name="S" bits="64">
    <field name="reg" bits="0..7" type="uint"/>
    <field name="off" bits="8..15" type="sint"/>
    <field name="k" bits="16..31" type="uint"/>
    <field name="so" bits="32..49" type="sint"/>
    <reserved bits="50..63"/>
    <display>x {Pass(reg)} {Imm(reg)}, {off:d}{if bit(k, 3) &amp;&amp; !(k &amp; 0x30)}.s{end}{if k &gt; 2 ? k &amp; 1 : 0}.t{end} {so &gt;&gt; 9:d} {sext(so &amp; 0x1FF, 9):d}</display>
  </struct>
</isa>
"""


def tables():
    return asm_tables(SPEC)


def by_text(t):
    """{expression's text: (its reads' masks, passes)}"""
    return {X.text_of(e.node): (t.read_masks(e), t.passes(e)) for e in t.exprs}


class ReadMasks(unittest.TestCase):
    def setUp(self):
        self.t = tables()
        self.exprs = by_text(self.t)

    def test_a_comparison_reads_the_bits_of_its_operands_that_matter(self):
        # (v & 15) >= 4: bits 0..3 of the parameter, whatever the rest
        self.assertEqual(self.exprs["((v & 15) >= 4)"], ([0xF], False))

    def test_a_truth_value_of_masked_bits_reads_those_bits(self):
        # bit 3, and bits 4 and 5 under the `!`
        self.assertEqual(self.exprs["(bit(k, 3) && !(k & 48))"], ([0x38], False))

    def test_a_conditional_reads_its_condition_whole(self):
        # k > 2 reads all of k: so does the whole
        self.assertEqual(self.exprs["((k > 2) ? (k & 1) : 0)"], ([0], False))

    def test_a_shifted_parameter_reads_the_bits_it_keeps(self):
        self.assertEqual(self.exprs["(v >> 4)"], ([0xFFFFFFFFFFFFFFF0], False))

    def test_a_signed_field_shifted_reads_the_bits_it_keeps_its_sign_bit_last(self):
        # an 18-bit signed offset: its value's bits 17..63 are all bit 17
        self.assertEqual(self.exprs["(so >> 9)"], ([0x3FE00], False))

    def test_a_sign_extension_reads_the_bits_below_its_width(self):
        # sext(x, 9) reads bits 0..8 of x: here of so & 0x1FF, so 0..8 of so
        self.assertEqual(self.exprs["sext((so & 511), 9)"], ([0x1FF], False))

    def test_a_float_reads_the_bits_of_its_operand_its_format_has(self):
        # half() reads bits 0..15 of its operand: here bit 7 and bits 0..2
        # of i (AGX's float immediate of 8 bits; bits 3..6 do not show);
        # f32() bits 0..31: i's bits 0..3, shifted to 28..31
        self.assertEqual(self.exprs["half(((((i & 128) << 8) | (12 << 10)) | ((i & 7) << 7)))"], ([0x87], False))
        self.assertEqual(self.exprs["-f32((i << 28))"], ([0xF], False))

    def test_a_field_or_parameter_as_it_is_passes_its_value_on(self):
        # the arguments: Pass(reg) gives reg, Pass gives Reg its p
        self.assertEqual(self.exprs["reg"], ([0], True))
        self.assertEqual(self.exprs["p"], ([0], True))
        self.assertEqual(self.exprs["v"], ([0], True))

    def test_a_signed_field_does_not_pass_its_value_on(self):
        # (its value's high bits are its sign bit's copies)
        self.assertEqual(self.exprs["off"], ([0], False))


if __name__ == "__main__":
    unittest.main()
