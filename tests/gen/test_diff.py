"""isagen diff: one synthetic spec pair per kind of change, each with the
exact set of changes and classes it must report (so nothing spurious
either); a spec against itself is empty; the real version histories of
AGX, TGSI and the SPH report what the fact sheets list (agx.md §3.2-3.3,
tgsi.md §3-5, sph.md §6a) and leave alone what they call unchanged; the
command's formats, --fail-on, FILE@REV and --corpus."""
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

from tests.gen.common import load_text
from gen.isagenlib import cli, diff

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ISAGEN = os.path.join(ROOT, "gen", "isagen")


def spec(body, extra=""):
    return f"""<?xml version="1.0"?>
<isa name="t">
  <stream unit="I"/>
  {extra}
  {body}
</isa>
"""


# An instruction set of 16-bit encodings told apart by their low 4 bits.
BASE = """
  <enum name="Op" width="2">
    <value name="ADD" value="0"/>
    <value name="SUB" value="1"/>
    <value name="KILP" value="2"/>
  </enum>
  <struct name="Alu" bits="16">
    <fixed bits="0..3" value="1"/>
    <field name="op" bits="4..5" type="Op"/>
    <field name="d" bits="6..9" type="uint"/>
    <field name="u2" bits="10" type="uint"/>
    <reserved bits="11..15"/>
    <display>{op} r{d}</display>
  </struct>
  <struct name="Nop" bits="16">
    <fixed bits="0..3" value="0"/>
    <reserved bits="4..15"/>
    <display>nop</display>
  </struct>
  <choice name="I">
    <alt type="Alu"/>
    <alt type="Nop"/>
  </choice>
"""


def changes(old_xml, new_xml):
    return diff.diff(load_text(old_xml, "old.xml"), load_text(new_xml, "new.xml"))


def triples(cs):
    return {(c.cls, c.kind, c.where) for c in cs}


def report(old_xml, new_xml):
    """(changes, entries) of diff.report on two specs named old.xml and new.xml."""
    return diff.report(load_text(old_xml, "old.xml"), load_text(new_xml, "new.xml"))


class Synthetic(unittest.TestCase):
    def expect(self, old_body, new_body, *want):
        got = changes(spec(old_body), spec(new_body))
        self.assertEqual(triples(got), set(want), "\n".join(f"{c.cls} {c.kind} {c.where}: {c.text}" for c in got))
        return got

    def test_prefer(self):
        """Which encoding isa as writes is no change to what bytes mean."""
        with_prefer = BASE.replace('<display>{op} r{d}</display>', '<prefer value="u2"/><display>{op} r{d}</display>')
        self.expect(BASE, with_prefer, ("compatible", "prefer-changed", "Alu"))
        self.expect(with_prefer, with_prefer.replace('value="u2"', 'value="u2 + 1"'),
                    ("compatible", "prefer-changed", "Alu"))
        self.expect(with_prefer, with_prefer.replace('value="u2"', 'value="(u2)"'))

    def test_fill(self):
        """What isa as writes into bits the text leaves open is no change to
        what bytes mean; a fill compares by its meaning, not its spelling."""
        with_fill = BASE.replace('<display>{op} r{d}</display>', '<fill field="u2" value="d"/><display>{op} r{d}</display>')
        added = self.expect(BASE, with_fill, ("compatible", "fill-changed", "Alu"))
        self.assertEqual(added[0].text, "isa as now fills bits of Alu its text leaves open")
        removed = self.expect(with_fill, BASE, ("compatible", "fill-changed", "Alu"))
        self.assertEqual(removed[0].text, "isa as no longer fills bits of Alu its text leaves open")
        self.expect(with_fill, with_fill.replace('value="d"', 'value="d + 1"'), ("compatible", "fill-changed", "Alu"))
        self.expect(with_fill, with_fill.replace('value="d"', 'value="d" when="d &gt; 1"'),
                    ("compatible", "fill-changed", "Alu"))
        self.expect(with_fill, with_fill.replace('value="d"', 'value="(d)"'))

    def test_a_new_property_is_one_change_and_the_values_that_set_it(self):
        """Adding a property with a default changes the enum once; a value
        that keeps the default is no change of its own."""
        with_prop = BASE.replace('<enum name="Op" width="2">', '<enum name="Op" width="2"><property name="k" default="0"/>')
        self.expect(BASE, with_prop, ("cosmetic", "property-changed", "enum Op property k"))
        set_one = with_prop.replace('<value name="SUB" value="1"/>', '<value name="SUB" value="1" k="3"/>')
        self.expect(BASE, set_one, ("cosmetic", "property-changed", "enum Op property k"),
                    ("cosmetic", "value-property-changed", "Op.SUB"))
        self.expect(set_one, BASE, ("cosmetic", "property-changed", "enum Op property k"),
                    ("cosmetic", "value-property-changed", "Op.SUB"))

    def test_a_spec_against_itself_is_empty(self):
        self.assertEqual(changes(spec(BASE), spec(BASE)), [])

    def test_reformatted_xml_is_no_change(self):
        moved = BASE.replace('<struct name="Nop" bits="16">', '<struct   name="Nop"\n bits="16" >')
        self.assertEqual(changes(spec(BASE), spec(moved)), [])

    def test_field_moved(self):
        new = BASE.replace('bits="6..9" type="uint"', 'bits="7..10" type="uint"').replace(
            '<field name="u2" bits="10"', '<field name="u2" bits="6"')
        got = self.expect(BASE, new, ("breaking", "field-moved", "Alu.d"), ("breaking", "field-moved", "Alu.u2"))
        self.assertIn("field d of Alu moved from bits 6..9 to 7..10; every Alu with d != 0 now decodes differently",
                      [c.text for c in got])

    def test_field_widened_into_reserved_bits(self):
        new = BASE.replace('<field name="u2" bits="10" type="uint"/>\n    <reserved bits="11..15"/>',
                           '<field name="u2" bits="10..11" type="uint"/>\n    <reserved bits="12..15"/>')
        self.expect(BASE, new, ("compatible", "field-widened", "Alu.u2"))

    def test_field_narrowed(self):
        new = BASE.replace('bits="6..9" type="uint"', 'bits="6..8" type="uint"').replace(
            '<field name="u2" bits="10"', '<reserved bits="9"/><field name="u2" bits="10"')
        self.expect(BASE, new, ("breaking", "field-resized", "Alu.d"))

    def test_field_renamed_or_replaced(self):
        # a placeholder name given a meaning keeps its bits: a rename
        self.expect(BASE, BASE.replace('name="u2"', 'name="g"'), ("cosmetic", "field-renamed", "Alu.g"))
        # another name with nothing in common: the bits mean something else
        self.expect(BASE, BASE.replace('name="d"', 'name="cond"').replace("r{d}", "r{cond}"),
                    ("breaking", "field-replaced", "Alu.cond"), ("cosmetic", "display-changed", "Alu"))

    def test_field_retyped(self):
        self.expect(BASE, BASE.replace('"6..9" type="uint"', '"6..9" type="uint" format="hex"'),
                    ("cosmetic", "field-format-changed", "Alu.d"))
        self.expect(BASE, BASE.replace('"6..9" type="uint"', '"6..9" type="sint"'),
                    ("breaking", "field-retyped", "Alu.d"))

    def test_must_be_zero_bits_becoming_a_field(self):
        old = BASE.replace('<reserved bits="11..15"/>', '<mbz name="pad" bits="11..15"/>')
        new = BASE.replace('<reserved bits="11..15"/>', '<field name="neg" bits="11" type="bool"/><mbz name="pad" '
                           'bits="12..15"/>')
        got = self.expect(old, new, ("compatible", "field-added", "Alu.neg"), ("compatible", "reserved-changed", "Alu.pad"))
        self.assertIn("field neg of Alu added in bits 11, which were must be zero", [c.text for c in got])
        # the same bits under the same name, a field now
        self.expect(old, old.replace('<mbz name="pad" bits="11..15"/>', '<field name="pad" bits="11..15" type="uint"/>'),
                    ("compatible", "field-defined", "Alu.pad"), ("cosmetic", "field-format-changed", "Alu.pad"))
        # and back: a field's bits must be zero now
        self.expect(new, old, ("breaking", "field-removed", "Alu.neg"), ("cosmetic", "reserved-changed", "Alu.pad"))

    def test_fixed_bits_freed_into_unused_space(self):
        # bit 3 of Alu's opcode was fixed to 0; as a field, Alu also decodes xxxx1001, which was nothing
        new = BASE.replace('<fixed bits="0..3" value="1"/>', '<fixed bits="0..2" value="1"/><field name="w" bits="3" '
                           'type="uint"/>')
        got = self.expect(BASE, new, ("compatible", "fixed-bits-changed", "Alu"),
                          ("compatible", "encoding-patterns-changed", "I.Alu"), ("compatible", "field-added", "Alu.w"))
        self.assertIn("field w of Alu added in bits 3, which were fixed (to 0 in every old Alu)", [c.text for c in got])
        # the other way round, Alu loses those patterns: breaking
        self.expect(new, BASE, ("breaking", "fixed-bits-changed", "Alu"),
                    ("breaking", "encoding-patterns-changed", "I.Alu"), ("breaking", "field-removed", "Alu.w"))

    def test_fixed_bits_freed_into_another_encodings_space(self):
        # Nop without its bit 0 also takes Alu's opcode 1: Alu is gone but for higher priority
        new = BASE.replace('<fixed bits="0..3" value="0"/>', '<fixed bits="1..3" value="0"/><reserved bits="0"/>')
        new = new.replace('<alt type="Alu"/>', '<alt type="Alu" priority="1"/>')
        # Alu wins the patterns both take: nothing decodes differently, the fixed bit is only freed
        self.expect(BASE, new, ("compatible", "fixed-bits-changed", "Nop"))
        # Alu only fixed in bits 0..1: Nop, preferred now, takes its xx..0001 and leaves it the rest
        wide = BASE.replace('<fixed bits="0..3" value="1"/>', '<fixed bits="0..1" value="1"/><reserved bits="2..3"/>')
        low = wide.replace('<fixed bits="0..3" value="0"/>', '<fixed bits="1..3" value="0"/><reserved bits="0"/>')
        low = low.replace('<alt type="Nop"/>', '<alt type="Nop" priority="1"/>')
        self.expect(wide, low, ("breaking", "fixed-bits-changed", "Nop"), ("breaking", "encoding-patterns-changed", "I.Nop"),
                    ("breaking", "encoding-patterns-changed", "I.Alu"))

    def test_a_variant_chosen_by_more_patterns(self):
        def struct(b_fixed):
            return BASE + f"""
  <struct name="V" bits="8">
    <field name="mode" bits="0..1" type="uint"/>
    <variant name="A"><when><match field="mode" value="0"/></when><reserved bits="2..7"/></variant>
    <variant name="B"><when><match field="mode" value="1"/></when>{b_fixed}</variant>
    <display>v</display>
  </struct>"""
        old = struct('<fixed bits="2..3" value="0"/><reserved bits="4..7"/>')
        new = struct('<field name="k" bits="2..3" type="uint"/><reserved bits="4..7"/>')
        # B also takes mode 1 with bits 2..3 set, which chose no variant: compatible, the other way breaking
        self.expect(old, new, ("compatible", "variant-patterns-changed", "V.B"), ("compatible", "fixed-bits-changed", "V.B"),
                    ("compatible", "field-added", "V.B.k"))
        self.expect(new, old, ("breaking", "variant-patterns-changed", "V.B"), ("breaking", "fixed-bits-changed", "V.B"),
                    ("breaking", "field-removed", "V.B.k"))
        # B, the fallback now, taking the patterns A gives up: breaking for both
        taken = new.replace('<when><match field="mode" value="1"/></when>', '').replace(
            '<variant name="B">', '<variant name="B" fallback="true">').replace(
            '<reserved bits="2..7"/></variant>', '<fixed bits="2..3" value="0"/><reserved bits="4..7"/></variant>')
        got = triples(changes(spec(old), spec(taken)))
        self.assertIn(("breaking", "variant-patterns-changed", "V.B"), got)
        self.assertIn(("breaking", "variant-patterns-changed", "V.A"), got)

    def test_a_new_short_form(self):
        # bit 11 was fixed to 1 and is the length flag now: every old Alu is still 24 bits long,
        # and the patterns with the flag clear, which decoded as nothing, are 16-bit Alus
        old = BASE.replace('<struct name="Alu" bits="16">', '<struct name="Alu" bits="24">').replace(
            '<reserved bits="11..15"/>', '<fixed bits="11" value="1"/><reserved bits="12..23"/>')
        new = BASE.replace('<struct name="Alu" bits="16">', '<struct name="Alu" bits="24" min-length="16" '
                           'length-flag="L">').replace('<reserved bits="11..15"/>', '<field name="L" bits="11" '
                                                       'type="bool"/><reserved bits="12..23"/>')
        self.expect(old, new, ("compatible", "fixed-bits-changed", "Alu"), ("compatible", "length-changed", "Alu"),
                    ("compatible", "encoding-patterns-changed", "I.Alu"), ("compatible", "field-added", "Alu.L"))
        _, entries = report(spec(old), spec(new))
        self.assertEqual([(e.cls, e.kind, len(e.changes)) for e in entries],
                         [("compatible", "encoding-patterns-changed", 4)])
        self.assertEqual(entries[0].text, "encoding Alu now also decodes bit patterns that decoded as nothing "
                                          "(e.g. 0..3 = 0x1, 11 = 0)")

    def test_field_added_in_reserved_bits_and_removed(self):
        new = BASE.replace('<reserved bits="11..15"/>', '<field name="neg" bits="11" type="bool"/><reserved bits="12..15"/>')
        self.expect(BASE, new, ("compatible", "field-added", "Alu.neg"))
        self.expect(new, BASE, ("breaking", "field-removed", "Alu.neg"))

    def test_encoding_added_in_unused_space(self):
        new = BASE.replace("<choice", '<struct name="Mov" bits="16"><fixed bits="0..3" value="2"/><field name="d" '
                           'bits="4..15" type="uint"/></struct>\n  <choice').replace(
            '<alt type="Nop"/>', '<alt type="Nop"/><alt type="Mov"/>')
        self.expect(BASE, new, ("compatible", "encoding-added", "I.Mov"))
        self.expect(new, BASE, ("breaking", "encoding-removed", "I.Mov"))

    def test_encoding_added_over_an_existing_one(self):
        new = BASE.replace("<choice", '<struct name="Halt" bits="16"><fixed bits="0..15" value="0xfff0"/></struct>\n'
                           '  <choice').replace('<alt type="Nop"/>', '<alt type="Nop"/><alt type="Halt" priority="1"/>')
        self.expect(BASE, new, ("breaking", "encoding-added", "I.Halt"),
                    ("breaking", "encoding-patterns-changed", "I.Nop"))

    def test_encoding_renamed(self):
        new = BASE.replace('"Nop"', '"NoOp"')
        self.expect(BASE, new, ("cosmetic", "encoding-renamed", "I.NoOp"))

    def test_encoding_split(self):
        new = BASE.replace('<struct name="Nop" bits="16">\n    <fixed bits="0..3" value="0"/>\n    <reserved bits="4..15"/>',
                           '<struct name="Nop" bits="16">\n    <fixed bits="0..4" value="0"/>\n    <reserved bits="5..15"/>')
        new = new.replace('"Nop"', '"NopA"').replace("<choice", '<struct name="NopB" bits="16"><fixed bits="0..4" '
                                                     'value="0x10"/><reserved bits="5..15"/></struct>\n  <choice')
        new = new.replace('<alt type="NopA"/>', '<alt type="NopA"/><alt type="NopB"/>')
        self.expect(BASE, new, ("breaking", "encoding-split", "I.Nop"))

    def test_fixed_bits_and_length(self):
        new = BASE.replace('<fixed bits="0..3" value="1"/>', '<fixed bits="0..3" value="1"/>', 1).replace(
            '<reserved bits="11..15"/>', '<reserved bits="11..14"/><fixed bits="15" value="0"/>')
        got = self.expect(BASE, new, ("breaking", "fixed-bits-changed", "Alu"),
                          ("breaking", "encoding-patterns-changed", "I.Alu"))
        self.assertIn("Alu's encoding: bits 15 = 0 now fixed", [c.text for c in got])
        longer = BASE.replace('<struct name="Alu" bits="16">', '<struct name="Alu" bits="24">').replace(
            '<reserved bits="11..15"/>', '<reserved bits="11..23"/>')
        self.expect(BASE, longer, ("breaking", "size-changed", "Alu"))
        flag = BASE.replace('<struct name="Alu" bits="16">', '<struct name="Alu" bits="24" min-length="16" '
                            'length-flag="L">').replace('<reserved bits="11..15"/>',
                                                        '<field name="L" bits="11" type="bool"/><reserved bits="12..23"/>')
        # (the same bit patterns still select Alu, but those with L set are 24 bits long now)
        self.expect(BASE, flag, ("breaking", "length-changed", "Alu"), ("compatible", "field-added", "Alu.L"))

    def test_enum_values(self):
        self.expect(BASE, BASE.replace('<value name="KILP" value="2"/>', '<value name="KILP" value="2"/><value '
                                       'name="MUL" value="3"/>'), ("compatible", "value-added", "Op.MUL"))
        self.expect(BASE, BASE.replace('<value name="KILP" value="2"/>', ''), ("breaking", "value-removed", "Op.KILP"))
        self.expect(BASE, BASE.replace('name="KILP"', 'name="KILL"'), ("cosmetic", "value-renamed", "Op.KILL"))
        self.expect(BASE, BASE.replace('name="SUB"', 'name="TEX_LZ"'), ("breaking", "value-replaced", "Op.TEX_LZ"))
        self.expect(BASE, BASE.replace('name="SUB" value="1"', 'name="SUB" value="3"'),
                    ("breaking", "value-moved", "Op.SUB"))
        self.expect(BASE, BASE.replace('name="SUB" value="1"', 'name="SUB" value="1" display="sub"'),
                    ("cosmetic", "value-display-changed", "Op.SUB"))

    def test_printing_rules_and_docs(self):
        self.expect(BASE, BASE.replace("{op} r{d}", "{op} R{d}"), ("cosmetic", "display-changed", "Alu"))
        self.expect(BASE, BASE.replace("<display>nop</display>", '<rule name="zero" check="1" message="never"/><display>nop</display>'),
                    ("cosmetic", "rule-added", "Nop rule zero"))
        self.expect(BASE, BASE.replace('<struct name="Nop" bits="16">', '<struct name="Nop" bits="16"><doc>Does '
                                       'nothing.</doc>'), ("doc", "doc-changed", "Nop"))


STREAM_SPEC = """<?xml version="1.0"?>
<isa name="s">
  <enum name="Model" width="1"><value name="A" value="0"/><value name="B" value="1"/></enum>
  <stream unit="I" stop="done">
    <option name="model" type="Model" default="A"/>
    <state name="seen" next="$seen + 1"/>
    <state name="ends" next="d == 0"/>
    <state name="marks" count="4"><set index="d &amp; 3" value="1"/></state>
  </stream>
  <operand name="Reg"><param name="n"/><let name="half" value="n / 2"/><case display="r{half}"/></operand>
  <operand name="Whole"><param name="i" type="I"/><case display="{i.d}"/></operand>
  <struct name="I" bits="8">
    <field name="d" bits="0..6" type="uint"/>
    <field name="e" bits="7" type="uint"/>
    <let name="done" value="$ends &amp;&amp; e"/>
    <display>{Reg(d)} {$model:Model} {$seen}</display>
  </struct>
  <struct name="J" bits="16"><field name="d" bits="0..6" type="uint"/><reserved bits="7"/><display>{Whole(x)}</display>
    <field name="x" bits="8..15" type="I"/></struct>
</isa>
"""


class ModelDriven(unittest.TestCase):
    """What the diff compares follows the model's declared fields: every
    field of every model class is classified, and the stream's options and
    states, operand lets and struct parameters report their changes, as
    breaking when how units decode depends on them (the stop rule reads
    state `ends` through the let `done`)."""

    def test_every_model_field_is_classified(self):
        import dataclasses
        import inspect
        from gen.isagenlib import difftable, model
        classes = [c for _, c in inspect.getmembers(model, inspect.isclass)
                   if dataclasses.is_dataclass(c) and c.__module__ == model.__name__]
        self.assertGreater(len(classes), 20)
        for c in classes:
            table = difftable.TABLE.get(c.__name__)
            self.assertIsNotNone(table, f"model class {c.__name__} is not in difftable.TABLE")
            names = [f.name for f in dataclasses.fields(c)]
            for name in names:
                self.assertIn(name, table, f"{c.__name__}.{name} is neither classified nor ignored in difftable.TABLE")
            for name, rule in table.items():
                self.assertIn(name, names, f"difftable.TABLE[{c.__name__!r}] classifies {name}, which the model lacks")
                self.assertIsInstance(rule, difftable.RULES)
                if isinstance(rule, difftable.By):
                    self.assertTrue(callable(getattr(diff.Differ, rule.handler, None)),
                                    f"{c.__name__}.{name}: no Differ.{rule.handler}")

    def expect(self, new, *want):
        got = changes(STREAM_SPEC, new)
        self.assertEqual(triples(got), set(want), "\n".join(f"{c.cls} {c.kind} {c.where}: {c.text}" for c in got))

    def test_options(self):
        self.expect(STREAM_SPEC.replace('default="A"', 'default="B"'), ("cosmetic", "option-changed", "stream option model"))
        self.expect(STREAM_SPEC.replace('<option name="model" type="Model" default="A"/>', "").replace(
            " {$model:Model}", ""), ("cosmetic", "option-removed", "stream option model"),
            ("cosmetic", "display-changed", "I"))

    def test_states_by_what_reads_them(self):
        self.expect(STREAM_SPEC.replace('next="$seen + 1"', 'next="$seen + 2"'), ("cosmetic", "state-changed", "stream state seen"))
        self.expect(STREAM_SPEC.replace('next="d == 0"', 'next="d == 1"'), ("breaking", "state-changed", "stream state ends"))
        self.expect(STREAM_SPEC.replace('value="1"/></state>', 'value="2"/></state>'),
                    ("cosmetic", "state-changed", "stream state marks <set> 1"))
        self.expect(STREAM_SPEC.replace('<set index="d &amp; 3" value="1"/>', '<set index="d &amp; 3" value="1"/><set index="0" value="0"/>'),
                    ("cosmetic", "state-added", "stream state marks <set> 2"))
        # spacing and redundant parentheses are no change
        self.expect(STREAM_SPEC.replace('next="$seen + 1"', 'next="($seen+1)"'))

    def test_lets_and_struct_parameters(self):
        self.expect(STREAM_SPEC.replace('value="n / 2"', 'value="n / 4"'), ("cosmetic", "let-changed", "operand Reg.half"))
        self.expect(STREAM_SPEC.replace('value="$ends &amp;&amp; e"', 'value="$ends || e"'), ("breaking", "let-changed", "I.done"))
        # a let added for the stop rule to read: the stop rule's change is the breaking one, the let alone changes nothing
        self.expect(STREAM_SPEC.replace('stop="done"', 'stop="first"').replace('<let name="done" ', '<let name="first" value="$ends"/><let name="done" '),
                    ("breaking", "stream-changed", "stream"), ("cosmetic", "let-changed", "I.first"))
        self.expect(STREAM_SPEC.replace('<param name="i" type="I"/><case display="{i.d}"/>', '<param name="i"/><case display="{i}"/>')
                    .replace("{Whole(x)}", "{Whole(x.d)}"),
                    ("cosmetic", "operand-changed", "operand Whole"), ("cosmetic", "display-changed", "J"))


    def test_midgard_options_array_states_and_operand_lets(self):
        """The three changes the diff used to call "no changes"."""
        with open(os.path.join(ROOT, "xml", "midgard.xml"), encoding="utf-8") as f:
            text = f.read()
        base = changes(text, text)
        self.assertEqual(base, [])
        for old, new, want in (
                ('default="t860"', 'default="t760"', ("cosmetic", "option-changed", "stream option gpu")),
                ('<set index="$offset / 16" value="tag"/>', '<set index="$offset / 16" value="tag + 0"/>',
                 ("cosmetic", "state-changed", "stream state tags <set> 1")),
                ('<let name="half" value="128 / bits / 2"/>', '<let name="half" value="128 / bits / 4"/>',
                 ("cosmetic", "let-changed", "operand Swz.half")),
                # the stop rule reads $fwd through the bundle's let fwd: how a program ends changes
                ('<state name="fwd" next="fwd">', '<state name="fwd" next="0">',
                 ("breaking", "state-changed", "stream state fwd"))):
            with self.subTest(change=want[1:]):
                self.assertIn(old, text)
                self.assertEqual(triples(changes(text, text.replace(old, new))), {want})


class Entries(unittest.TestCase):
    """One fact, one entry: related changes under their cause, with both
    files' lines."""

    def entries(self, old_body, new_body):
        changes, entries = report(spec(old_body), spec(new_body))
        # every change is in exactly one entry, and each entry says where it is
        self.assertEqual(sorted(id(c) for e in entries for c in e.changes), sorted(id(c) for c in changes))
        for e in entries:
            self.assertRegex(e.old_at or "old.xml:1", r"^old\.xml:\d+$")
            self.assertRegex(e.new_at or "new.xml:1", r"^new\.xml:\d+$")
        return entries

    def test_a_split_is_one_entry(self):
        new = BASE.replace('<struct name="Nop" bits="16">\n    <fixed bits="0..3" value="0"/>\n    <reserved bits="4..15"/>',
                           '<struct name="Nop" bits="16">\n    <fixed bits="0..4" value="0"/>\n    <reserved bits="5..15"/>')
        new = new.replace("<choice", '<struct name="Halt" bits="16"><fixed bits="0..4" value="0x10"/><reserved '
                          'bits="5..15"/></struct>\n  <struct name="Wait" bits="16"><fixed bits="0..5" value="0x20"/>'
                          '<reserved bits="6..15"/></struct>\n  <choice').replace(
            '<alt type="Nop"/>', '<alt type="Nop"/><alt type="Halt"/><alt type="Wait" priority="1"/>')
        entries = self.entries(BASE, new)
        self.assertEqual([(e.cls, e.where, e.text) for e in entries],
                         [("breaking", "I.Nop", "encoding Nop split: 2 new encodings take some of its bit patterns: "
                                                "Halt, Wait")])
        self.assertEqual(sorted(c.kind for c in entries[0].changes),
                         ["encoding-added", "encoding-added", "encoding-patterns-changed", "fixed-bits-changed"])

    def test_a_rename_and_its_uses(self):
        new = BASE.replace('name="d"', 'name="dd"').replace("r{d}", "r{dd}")
        entries = self.entries(BASE, new)
        self.assertEqual([(e.cls, e.kind, e.text) for e in entries],
                         [("cosmetic", "field-renamed", "field d of Alu renamed to dd")])
        self.assertEqual([c.text for c in entries[0].changes[1:]],
                         ["Alu prints differently by default, following the rename: {d} → {dd}"])
        # a display that changes beyond the rename is its own fact, shown without the rename
        more = BASE.replace('name="d"', 'name="dd"').replace("{op} r{d}", "{op}.x r{dd}")
        self.assertEqual([e.text for e in self.entries(BASE, more)],
                         ['Alu prints differently by default: " r" → ".x r" (besides the renamed d)',
                          "field d of Alu renamed to dd"])

    def test_like_changes_are_listed_once(self):
        new = BASE.replace("<choice", '<struct name="Mov" bits="16"><fixed bits="0..3" value="2"/><field name="d" '
                           'bits="4..15" type="uint"/></struct>\n  <struct name="Jmp" bits="16"><fixed bits="0..3" '
                           'value="3"/><field name="t" bits="4..15" type="uint"/></struct>\n  <choice').replace(
            '<alt type="Nop"/>', '<alt type="Nop"/><alt type="Mov"/><alt type="Jmp"/>')
        entries = self.entries(BASE, new)
        self.assertEqual([(e.cls, e.text) for e in entries],
                         [("compatible", "2 encodings of I added in bit patterns that decoded as nothing: Jmp, Mov")])

    def test_the_same_change_in_several_places(self):
        two = BASE.replace('<struct name="Nop" bits="16">\n    <fixed bits="0..3" value="0"/>\n    <reserved bits="4..15"/>',
                           '<struct name="Nop" bits="16">\n    <fixed bits="0..3" value="0"/>\n    <field name="d" '
                           'bits="6..9" type="uint"/>\n    <reserved bits="4..5"/><reserved bits="10..15"/>')
        new = two.replace('bits="6..9" type="uint"', 'bits="6..9" type="Op4"').replace(
            "<enum", '<enum name="Op4" width="4"><value name="Z" value="0"/></enum>\n  <enum')
        entries = self.entries(two, new)
        self.assertEqual([(e.cls, e.text) for e in entries],
                         [("compatible", "enum Op4 added"),
                          ("cosmetic", "field d of Alu is Op4 now, was uint: the same values, printed differently; "
                                       "the same in Nop")])

    def test_fields_cut_another_way_are_one_entry(self):
        new = BASE.replace('<field name="d" bits="6..9" type="uint"/>\n    <field name="u2" bits="10" type="uint"/>',
                           '<field name="a" bits="6..7" type="uint"/>\n    <field name="b" bits="8..10" type="uint"/>'
                           ).replace("r{d}", "r{a}")
        entries = self.entries(BASE, new)
        self.assertEqual([(e.cls, e.kind, e.text) for e in entries][0],
                         ("breaking", "fields-recut", "bits 6..10 of Alu are cut into fields another way: d (6..9) "
                                                      "removed; u2 (10) removed; a (6..7) added; b (8..10) added"))


class Real(unittest.TestCase):
    """The version histories the fact sheets describe."""

    @classmethod
    def setUpClass(cls):
        def run(old, new):
            a = cli.load_spec(os.path.join(ROOT, "xml", old[0]), version=old[1])
            b = cli.load_spec(os.path.join(ROOT, "xml", new[0]), version=new[1])
            return diff.diff(a, b)
        cls.agx = run(("agx-g13.xml", "2021"), ("agx-g13.xml", "4c5bae6"))
        cls.tgsi = run(("tgsi.xml", "mesa-7.10"), ("tgsi.xml", "mesa-22.3.6"))
        cls.sph = run(("nv-sph.xml", "v3"), ("nv-sph.xml", "v4"))

    def assert_has(self, cs, *want):
        got = triples(cs)
        for w in want:
            self.assertIn(w, got)

    def assert_untouched(self, cs, names, allowed=("cosmetic", "doc")):
        """No change but an allowed class touches these encodings or types."""
        for c in cs:
            for n in names:
                if c.where in (n, f"Instruction.{n}") or c.where.startswith(n + "."):
                    self.assertIn(c.cls, allowed, f"{n}: {c.text}")

    def test_agx_2021_to_4c5bae6_has_the_known_changes(self):
        B, C, K = "breaking", "compatible", "cosmetic"
        self.assert_has(
            self.agx,
            # agx.md §3.2, renamed
            (K, "encoding-renamed", "Instruction.fadd32"), (K, "encoding-renamed", "Instruction.fmadd32"),
            (K, "encoding-renamed", "Instruction.fmul32"), (K, "encoding-renamed", "Instruction.TODO_ld_st_tile"),
            (K, "encoding-renamed", "Instruction.TODO_stack_adjust"), (K, "display-changed", "mov_imm16"),
            (K, "display-changed", "mov_imm32"), (B, "encoding-split", "Instruction.ld_var"),
            (K, "display-changed", "bitop"), (K, "display-added", "bitop"),
            # length changed: a new 32-bit form where there was nothing (every old one had L set),
            # and ld_st_tile's flag in a formerly reserved bit (those with it set are longer now)
            (C, "length-changed", "fadd32"), (C, "length-changed", "fadd16"), (C, "length-changed", "fmul32"),
            (C, "length-changed", "fmul16"), (C, "fixed-bits-changed", "fadd16"), (C, "field-added", "fadd16.L"),
            (C, "encoding-patterns-changed", "Instruction.fadd16"), (B, "length-changed", "TODO_ld_st_tile"),
            # new fields in former unknown bits
            (C, "field-added", "mov_imm32.kill"), (C, "field-added", "dfdx.kill"), (C, "field-added", "dfdy.kill"),
            (K, "field-renamed", "device_load.g"), (K, "field-renamed", "device_store.g"),
            (C, "field-added", "device_store.u6"), (B, "fixed-bits-changed", "device_load"),
            (B, "fixed-bits-changed", "device_store"), (K, "field-renamed", "texture_sample.compare"),
            (K, "field-renamed", "texture_sample.mode"), (K, "field-renamed", "texture_sample.slot"),
            (B, "field-added", "texture_sample.kill"), (B, "field-added", "texture_sample.Cs"),
            (B, "field-resized", "texture_sample.n"), (K, "field-retyped", "texture_sample.q6"),
            # fixed bits removed, and what that does (§3.3)
            (B, "fixed-bits-changed", "stack_load"), (B, "fixed-bits-changed", "stack_store"),
            (B, "encoding-patterns-changed", "Instruction.stack_get_ptr"),
            (B, "encoding-patterns-changed", "Instruction.TODO_stack_adjust"),
            # re-decoded: ld/st_tile, the memory mask names
            (B, "field-removed", "TODO_ld_st_tile.rt"), (K, "field-retyped", "device_load.mask"),
        )
        texts = {c.text for c in self.agx}
        self.assertIn("encoding ld_var split into iter, iterproj, TODO_ldcf", texts)
        self.assertIn("bitop prints differently when tt == 5 && b_zero: bitop_mov → mov", texts)
        self.assertIn("mov_imm16 prints differently by default: mov → mov_imm", texts)

    def test_agx_leaves_the_unchanged_instructions_alone(self):
        # agx.md §3.2 "Unchanged": their bits mean what they meant
        self.assert_untouched(self.agx, [
            "mov_imm16", "mov_imm32", "get_sr", "iadd", "imadd", "convert", "bfi", "bfeil", "extr", "shlhi", "shrhi",
            "asr", "asrh", "bitop", "bitrev", "popcount", "ffs", "fmadd16", "floor", "ceil", "trunc", "rint", "rcp",
            "rsqrt", "rsqrt_special", "sin_pt_1", "sin_pt_2", "log2", "exp2", "icmpsel", "fcmpsel", "icmp_ballot",
            "fcmp_ballot", "simd_shuffle", "simd_shuffle_down", "wait", "uniform_store", "threadgroup_load",
            "threadgroup_store", "threadgroup_barrier", "jmp_exec_any", "jmp_exec_none", "pop_exec", "if_icmp",
            "if_fcmp", "else_icmp", "else_fcmp", "while_icmp", "while_fcmp", "ret", "stop", "trap", "call"],
            # new fields in unknown bits are the compatible kind (mov_imm32's kill)
            allowed=("compatible", "cosmetic", "doc"))
        # and the seed-era instructions HEAD only renamed stay put bit for bit
        for name in ("fmadd32", "TODO_stack_adjust"):
            self.assertFalse([c for c in self.agx if c.where.startswith(name + ".") and c.cls == "breaking"])

    def test_tgsi_mesa_7_10_to_22_3_6_has_the_known_changes(self):
        B, K = "breaking", "cosmetic"
        self.assert_has(
            self.tgsi,
            # tgsi.md §3: the processor numbering changed meaning
            (B, "value-moved", "Processor.VERT"), (B, "value-moved", "Processor.FRAG"),
            (B, "value-moved", "Processor.GEOM"),
            # §5: the legacy declaration and instruction tokens
            (B, "field-removed", "DeclToken.CylindricalWrap"), (B, "field-resized", "DeclToken.Interpolate"),
            (B, "field-replaced", "DeclToken.Atomic"), (B, "field-resized", "InsnToken.Saturate"),
            (B, "field-removed", "InsnToken.Predicate"), (B, "item-removed", "Instruction.pred"),
            # indirect operands are ind-register tokens, not whole source registers
            (B, "item-retyped", "SrcOperand.ind"), (B, "item-retyped", "DstOperand.ind"),
            # §6: KILP and KIL were renamed
            (K, "value-renamed", "Opcode.KILL"), (K, "value-renamed", "Opcode.KILL_IF"),
        )

    def test_tgsi_tokens_the_fact_sheet_calls_identical_are(self):
        # tgsi.md §5: header, range, dimension, declaration dimension, dst and
        # src register, property and label tokens are bit-identical
        self.assert_untouched(self.tgsi, ["Header", "DeclRange", "Dimension", "DeclDimension", "DstRegister",
                                          "SrcRegister", "PropToken", "InsnLabel"], allowed=("doc",))


    def test_sph_v3_to_v4_is_what_sph_md_6a_lists(self):
        B, C = "breaking", "compatible"
        removed = [f"CommonWord0.{n}" for n in ("DoesLoadOrStore", "DoesFp64")] + \
            ["CommonWord3.ShaderLocalMemoryCrsSize"] + \
            [f"{m}SystemValuesA.{m}Tessellation{n}" for m in ("Imap", "Omap")
             for n in ("LodLeft", "LodRight", "LodBottom", "LodTop", "InteriorU", "InteriorV")]
        added = [f"{m}SystemValuesA.{m}VprsTableIndex" for m in ("Imap", "Omap")] + \
            [f"Header.VTG.{n}" for n in ("ImapSystemValuesD", "OmapSystemValuesD", "VmapSystemValuesA",
                                          "VmapSystemValuesB", "VmapGenericVector", "VmapColor", "VmapSystemValuesC",
                                          "VmapFixedFncTexture", "VmapSystemValuesD")] + \
            [f"Header.PS.{n}" for n in ("ImapSystemValuesD", "ReadsInterlockTicket", "UsesInnerCoverage",
                                         "ImapSystemValuesAExt", "ImapSystemValuesBExt", "ImapGenericVectorExt",
                                         "ImapColorExt", "ImapSystemValuesCExt", "ImapFixedFncTextureExt",
                                         "ImapSystemValuesDExt")]
        self.assert_has(self.sph, (B, "size-changed", "Header"), *[(B, "field-removed", w) for w in removed],
                        *[(C, "field-added", w) for w in added])
        # and nothing else decodes differently: the header grew, and those fields went
        breaking = {c.where for c in self.sph if c.cls == "breaking"}
        self.assertEqual(breaking, set(removed) | {"Header"})

class Reviewed(unittest.TestCase):
    """The reports in tests/gen/diff-reviews, read by hand once: the output
    must not change without the file changing, and every entry needs a
    reason in the .md beside it."""

    REVIEWS = os.path.join(ROOT, "tests", "gen", "diff-reviews")

    def check(self, name, old, new):
        r = subprocess.run([ISAGEN, "diff", "--no-locations", old, new], cwd=ROOT, capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(self.REVIEWS, name + ".txt"), encoding="utf-8") as f:
            self.assertEqual(r.stdout, f.read(), f"the {name} report changed: review it (tests/gen/diff-reviews)")
        with open(os.path.join(self.REVIEWS, name + ".md"), encoding="utf-8") as f:
            reasons = set(re.findall(r"^- `([^`]+)`: \S", f.read(), re.M))
        wheres = set(re.findall(r"^  (\S[^:]*): ", r.stdout, re.M))
        self.assertEqual(wheres - reasons, set(), "entries with no reason in " + name + ".md")
        self.assertEqual(reasons - wheres, set(), "reasons for entries that are gone from " + name + ".txt")

    def test_agx_2021_to_4c5bae6(self):
        self.check("agx-g13-2021-4c5bae6", "xml/agx-g13.xml:2021", "xml/agx-g13.xml:4c5bae6")

    def test_sph_v3_to_v4(self):
        self.check("nv-sph-v3-v4", "xml/nv-sph.xml:v3", "xml/nv-sph.xml:v4")


class Command(unittest.TestCase):
    def run_isagen(self, *args, cwd=ROOT):
        return subprocess.run([ISAGEN, *args], cwd=cwd, capture_output=True, text=True)

    def test_formats_and_fail_on(self):
        r = self.run_isagen("diff", "xml/agx-g13.xml:2021", "xml/agx-g13.xml:4c5bae6")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(r.stdout.startswith("xml/agx-g13.xml:2021 -> xml/agx-g13.xml:4c5bae6: "))
        self.assertIn("\nBreaking (", r.stdout)
        self.assertIn("  mov_imm16: mov_imm16 prints differently by default: mov → mov_imm\n", r.stdout)
        r = self.run_isagen("diff", "xml/agx-g13.xml:2021", "xml/agx-g13.xml:4c5bae6", "--format", "json",
                            "--fail-on", "breaking")
        self.assertEqual(r.returncode, 1)
        doc = json.loads(r.stdout)
        self.assertEqual(doc["old"], "xml/agx-g13.xml:2021")
        self.assertEqual(doc["summary"]["breaking"], sum(1 for e in doc["entries"] if e["class"] == "breaking"))
        for i, e in enumerate(doc["entries"]):
            self.assertTrue(all(doc["changes"][k]["entry"] == i for k in e["changes"]))
        self.assertEqual(sorted(k for e in doc["entries"] for k in e["changes"]), list(range(len(doc["changes"]))))
        r = self.run_isagen("diff", "xml/agx-g13.xml:2021", "xml/agx-g13.xml", "--format", "markdown")
        self.assertIn("#### Breaking (", r.stdout)
        self.assertRegex(r.stdout, r"- \*\*`Instruction.fadd32`\*\*: encoding fadd renamed to fadd32 \(old "
                                   r"\[xml/agx-g13.xml:\d+\]\(xml/agx-g13.xml#L\d+\), new \[xml/agx-g13.xml:\d+\]"
                                   r"\(xml/agx-g13.xml#L\d+\)\)")
        self.assertNotIn("…", r.stdout)
        r = self.run_isagen("diff", "xml/lima-gp.xml", "xml/lima-gp.xml", "--fail-on", "doc")
        self.assertEqual((r.returncode, r.stdout), (0, "xml/lima-gp.xml -> xml/lima-gp.xml: no changes\n"))

    def test_bad_sides(self):
        r = self.run_isagen("diff", "xml/tgsi.xml:mesa-99", "xml/tgsi.xml")
        self.assertEqual(r.returncode, 2)
        self.assertIn("no version 'mesa-99'", r.stderr)
        r = self.run_isagen("diff", "xml/nope.xml", "xml/tgsi.xml")
        self.assertEqual(r.returncode, 2)

    def test_a_file_at_a_git_revision(self):
        with tempfile.TemporaryDirectory() as d:
            git = lambda *a: subprocess.run(["git", "-C", d, *a], capture_output=True, text=True, check=True)
            git("init", "-q")
            path = os.path.join(d, "t.xml")
            with open(path, "w") as f:
                f.write(spec(BASE))
            git("add", "t.xml")
            git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "one")
            with open(path, "w") as f:
                f.write(spec(BASE.replace('name="KILP"', 'name="KILL"')))
            r = self.run_isagen("diff", "t.xml@HEAD", "t.xml", "--format", "json", cwd=d)
            self.assertEqual(r.returncode, 0, r.stderr)
            doc = json.loads(r.stdout)
            self.assertEqual(doc["old"], "t.xml@HEAD")
            self.assertEqual([(c["kind"], c["old"], c["new"], c["old_at"], c["new_at"]) for c in doc["changes"]],
                             [("value-renamed", "KILP", "KILL", "t.xml@HEAD:9", "t.xml:9")])
            r = self.run_isagen("diff", "t.xml@nosuchrev", "t.xml", cwd=d)
            self.assertEqual(r.returncode, 2)
            # Markdown links: relative for the file as it is, under --link-base for the revision
            r = self.run_isagen("diff", "t.xml@HEAD", "t.xml", "--format", "markdown", "--link-base",
                                "https://example.org/r/blob/{rev}", cwd=d)
            self.assertIn("(old [t.xml@HEAD:9](https://example.org/r/blob/HEAD/t.xml#L9), new [t.xml:9](t.xml#L9))",
                          r.stdout)

    def git_repo(self, d, text):
        git = lambda *a, cwd=d: subprocess.run(["git", "-C", cwd, "-c", "user.name=t", "-c", "user.email=t@t", *a],
                                               capture_output=True, text=True)
        git("init", "-q")
        with open(os.path.join(d, ".gitattributes"), "w") as f:
            f.write("*.xml diff=isagen\n")
        os.makedirs(os.path.join(d, "sub"))
        with open(os.path.join(d, "sub", "t.xml"), "w") as f:
            f.write(text)
        git("add", ".")
        git("commit", "-q", "-m", "one")
        return git

    def test_the_git_diff_driver(self):
        driver = ["-c", f"diff.isagen.command={ISAGEN} git-diff"]
        with tempfile.TemporaryDirectory() as d:
            git = self.git_repo(d, spec(BASE))
            with open(os.path.join(d, "sub", "t.xml"), "w") as f:
                f.write(spec(BASE.replace('name="KILP"', 'name="KILL"')))
            # git diff, from the top and from a subdirectory, shows the semantic diff
            for cwd in (d, os.path.join(d, "sub")):
                r = git(*driver, "diff", cwd=cwd)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertIn("isagen diff a/sub/t.xml b/sub/t.xml\n", r.stdout)
                self.assertIn("  Op.KILL: Op value 2: KILP renamed to KILL\n", r.stdout)
                self.assertNotIn("@@", r.stdout)
            git("commit", "-q", "-am", "two")
            # git log -p with --ext-diff, across a revision whose spec does not load
            with open(os.path.join(d, "sub", "t.xml"), "w") as f:
                f.write(spec(BASE).replace("</isa>", "<nonsense/></isa>"))
            git("commit", "-q", "-am", "three")
            r = git(*driver, "log", "-p", "--ext-diff", "--format=commit %s")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertRegex(r.stdout, r"commit three\n\nisagen diff a/sub/t.xml b/sub/t.xml\n"
                                       r"sub/t.xml: no semantic diff, a side does not load:\n  sub/t.xml:\d+:\d+: error: ")
            self.assertIn("commit two\n\nisagen diff a/sub/t.xml b/sub/t.xml\n", r.stdout)
            self.assertIn("Op value 2: KILP renamed to KILL", r.stdout)
            self.assertIn("+*.xml diff=isagen\nisagen diff a/sub/t.xml b/sub/t.xml\nsub/t.xml: spec file added\n",
                          r.stdout)
            # without the driver configured, the .gitattributes line changes nothing
            r = git("diff", "HEAD~1")
            self.assertIn("\n+<nonsense/></isa>\n", r.stdout)
        r = self.run_isagen("git-diff", "only", "two")
        self.assertEqual(r.returncode, 2)
        self.assertIn("diff.isagen.command", r.stderr)

    def test_the_ci_recipe_on_this_repositorys_history(self):
        # TGSI's declared-register table became <set>s at 12b14ec: cosmetic, every version
        r = self.run_isagen("diff", "--all-versions", "--fail-on", "breaking", "xml/tgsi.xml@12b14ec", "xml/tgsi.xml")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(r.stdout.count(" -> "), 3)   # seed, mesa-7.10, mesa-22.3.6
        # Lima PP's program encoder started computing next_count and prefetch after 5c16bb4: breaking
        r = self.run_isagen("diff", "--all-versions", "--fail-on", "breaking", "xml/lima-pp.xml@5c16bb4",
                            "xml/lima-pp.xml")
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("the program encoder now computes ctrl.next_count", r.stdout)
        r = self.run_isagen("diff", "--all-versions", "xml/tgsi.xml:seed", "xml/tgsi.xml")
        self.assertEqual(r.returncode, 2)
        r = self.run_isagen("diff", "--all-versions", "--format", "json", "xml/nv-sph.xml@HEAD", "xml/nv-sph.xml")
        self.assertEqual([x["new"] for x in json.loads(r.stdout)], ["xml/nv-sph.xml:v3", "xml/nv-sph.xml:v4"])
        # and the make target runs the recipe over every spec
        r = subprocess.run(["make", "-s", "spec-review", "BASE=HEAD"], cwd=ROOT, capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("xml/lima-gp.xml@HEAD -> xml/lima-gp.xml", r.stdout)

    @unittest.skipUnless(shutil.which(os.environ.get("CC", "cc")), "needs a C compiler")
    def test_corpus_lists_what_decodes_or_prints_differently(self):
        with tempfile.TemporaryDirectory() as d:
            old, new = os.path.join(d, "old.xml"), os.path.join(d, "new.xml")
            with open(old, "w") as f:
                f.write(spec(BASE))
            with open(new, "w") as f:
                # d moves up a bit; SUB prints in lower case
                f.write(spec(BASE.replace('bits="6..9" type="uint"', 'bits="7..10" type="uint"').replace(
                    '<field name="u2" bits="10"', '<field name="u2" bits="6"').replace(
                    'name="SUB" value="1"', 'name="SUB" value="1" display="sub"')))
            corpus = os.path.join(d, "c.jsonl")
            with open(corpus, "w") as f:
                # ADD r0 (unchanged), SUB r0 (printed differently), ADD with d = 1 (decodes differently),
                # and bytes that are no encoding at all
                for i, h in enumerate(["0100", "1100", "4100", "0f00"]):
                    f.write(json.dumps({"id": f"e{i}", "hex": h}) + "\n")
            raw = os.path.join(d, "prog.bin")
            with open(raw, "wb") as f:
                f.write(bytes.fromhex("41000000"))
            r = self.run_isagen("diff", old, new, "--corpus", corpus, "--corpus", raw, "--format", "json",
                                "--fail-on", "breaking")
            self.assertEqual(r.returncode, 1, r.stderr)
            c = json.loads(r.stdout)["corpus"]
            self.assertEqual(c["programs"], 5)
            got = {e["id"]: (e["class"], e["what"], e["old"]["text"], e["new"]["text"]) for e in c["changed"]}
            self.assertEqual(got, {
                "e1": ("cosmetic", ["text"], "SUB r0", "sub r0"),
                "e2": ("breaking", ["decoding", "text"], "ADD r1", "ADD r0"),
                "prog.bin": ("breaking", ["decoding", "text"], "ADD r1\nnop", "ADD r0\nnop"),
            })
            # grouped by pattern: the two ADDs that decode differently are one
            self.assertEqual([(p["class"], p["count"], p["pattern"], [x["id"] for x in p["examples"]])
                              for p in c["patterns"]],
                             [("breaking", 2, "ADD (decoding, text)", ["e2", "prog.bin"]),
                              ("cosmetic", 1, "SUB -> sub (text)", ["e1"])])
            self.assertEqual(c["patterns"][0]["examples"][0], {"id": "e2", "old": "ADD r1", "new": "ADD r0"})
            r = self.run_isagen("diff", old, new, "--corpus", corpus)
            self.assertIn("Corpus: 4 programs, 2 decode or print differently, in 2 patterns\n"
                          "  breaking: 1 x ADD (decoding, text)\n    e2: ADD r1 => ADD r0\n", r.stdout)


if __name__ == "__main__":
    unittest.main()
