"""Declared-once layouts and ordered choices mean what docs/xml-reference.md
says: a struct that extends a format is the struct written out by hand."""
import unittest

from tests.gen.common import load_text
from gen.isagenlib import template as T
from gen.isagenlib import diff as D
from gen.isagenlib.model import Field

SHARED = """<?xml version="1.0"?>
<isa name="t" language="3">
  <stream unit="I"/>
  <operand name="Src"><param name="v"/><case display="r{v}"/></operand>
  {body}
</isa>
"""

WITH_FORMATS = SHARED.replace("{body}", """
  <format name="Unary" bits="16" min-length="8" length-flag="L" src="s">
    <fixed bits="0..2" value="5"/>
    <field name="L" bits="3" type="bool"/>
    <field name="a" bits="4..7 8..9" type="uint"/>
    <reserved bits="10..15"/>
    <display>un {Src(a)}</display>
  </format>
  <format name="UnaryOp" extends="Unary">
    <field name="op" bits="10..11" type="uint"/>
  </format>
  <struct name="neg" extends="UnaryOp">
    <fixed bits="12" value="1"/>
    <display>neg {Src(a)}</display>
  </struct>
  <struct name="abs" extends="UnaryOp">
    <field name="a" bits="4..7" type="uint"/>
    <reserved bits="8..9"/>
    <fixed bits="12" value="0"/>
    <field name="kill" bits="14" type="bool"/>
  </struct>
  <choice name="I" ordered="true" mnemonic-column="6">
    <alt format="UnaryOp"/>
  </choice>
  <source id="s">a source</source>""")

BY_HAND = SHARED.replace("{body}", """
  <struct name="neg" bits="16" min-length="8" length-flag="L" src="s">
    <fixed bits="0..2" value="5"/>
    <field name="L" bits="3" type="bool"/>
    <field name="a" bits="4..7 8..9" type="uint"/>
    <reserved bits="13..15"/>
    <field name="op" bits="10..11" type="uint"/>
    <fixed bits="12" value="1"/>
    <display>neg {Src(a)}</display>
  </struct>
  <struct name="abs" bits="16" min-length="8" length-flag="L" src="s">
    <fixed bits="0..2" value="5"/>
    <field name="L" bits="3" type="bool"/>
    <reserved bits="8..9 13 15"/>
    <field name="op" bits="10..11" type="uint"/>
    <field name="a" bits="4..7" type="uint"/>
    <fixed bits="12" value="0"/>
    <field name="kill" bits="14" type="bool"/>
    <display>un {Src(a)}</display>
  </struct>
  <choice name="I">
    <alt type="neg" priority="2"/>
    <alt type="abs" priority="1"/>
  </choice>
  <source id="s">a source</source>""")


load = load_text


class Layouts(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.spec = load(WITH_FORMATS)
        cls.by_hand = load(BY_HAND)

    def struct(self, name, spec=None):
        return (spec or self.spec).type_named(name)

    def test_members_come_from_the_format_chain_then_the_struct(self):
        neg = self.struct("neg")
        self.assertEqual([m.name for m in neg.members if isinstance(m, Field) and m.role == "field"], ["L", "a", "op"])
        self.assertEqual((neg.bits, neg.min_length, neg.length_flag, neg.src), (16, 8, "L", ["s"]))

    def test_own_members_replace_and_carve(self):
        abs_ = self.struct("abs")
        a = next(m for m in abs_.members if m.name == "a")
        self.assertEqual(a.pieces, [(4, 4)], "the struct's own 'a' replaces the format's")
        reserved = sorted(p for m in abs_.members if m.role == "reserved" for p in m.pieces)
        self.assertEqual(reserved, [(8, 2), (13, 1), (15, 1)], "bits 10..12 and 14 are no longer reserved")

    def test_an_array_carves_every_element(self):
        spec = load(SHARED.replace("{body}", """
  <format name="Wide" bits="12"><fixed bits="0..3" value="1"/><reserved bits="4..11"/></format>
  <struct name="lanes" extends="Wide"><field name="lane" bits="4..5" type="uint" count="3"/></struct>
  <choice name="I"><alt type="lanes"/></choice>"""))
        members = spec.type_named("lanes").members
        self.assertEqual([(m.role, m.pieces) for m in members if m.role == "reserved"], [("reserved", [(10, 2)])])

    def test_display_is_inherited_unless_given(self):
        self.assertEqual(T.text_of(self.struct("abs").displays[0].parts), "{pad 6}un{end} {Src(a)}")
        self.assertEqual(T.text_of(self.struct("neg").displays[0].parts), "{pad 6}neg{end} {Src(a)}")

    def test_prefer_is_inherited_unless_given(self):
        spec = load(SHARED.replace("{body}", """
  <format name="F" bits="8"><field name="f" bits="1..7" type="uint"/><prefer value="f"/></format>
  <struct name="A" extends="F"><fixed bits="0" value="0"/><display>a {f}</display></struct>
  <struct name="B" extends="F"><fixed bits="0" value="1"/><prefer value="0 - f"/><display>b {f}</display></struct>
  <choice name="I"><alt type="A"/><alt type="B"/></choice>"""))
        self.assertEqual(spec.type_named("A").prefer.value_text, "f")
        self.assertEqual(spec.type_named("B").prefer.value_text, "0 - f", "the struct's own replaces the format's")

    def test_the_same_model_as_written_by_hand(self):
        """Only the layout of the file differs (the displays are padded, the
        choice ordered): the semantic diff finds nothing that decodes,
        encodes or checks differently."""
        changes = [c for c in D.diff(self.by_hand, self.spec) if c.cls in ("breaking", "compatible")]
        self.assertEqual(changes, [])

    def test_a_family_alternative_is_every_member_in_order(self):
        self.assertEqual([a.type.name for a in self.struct("I").alts], ["neg", "abs"])

    def test_ordered_choice_ranks_by_position(self):
        alts = self.struct("I").alts
        self.assertEqual([a.priority for a in alts], [2, 1])
        self.assertFalse(any(a.explicit_priority for a in alts))

    def test_locations_point_into_the_format(self):
        neg = self.struct("neg")
        op = next(m for m in neg.members if m.name == "op")
        self.assertEqual(op.loc.line, 14, "an inherited member is where the format declares it")


if __name__ == "__main__":
    unittest.main()
