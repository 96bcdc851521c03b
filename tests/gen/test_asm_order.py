"""The order in which asm.c tries the alternatives of the assembler's goals
(cgen/assembler.py).

An operand's cases: the defined ones first.  Each case's branch states
the earlier cases' conditions false itself, so the order is free; a
reading through an undefined case ranks below every defined one, and the
search stops at the first defined reading that prints the text exactly in
the fewest bytes.  A branch states its own condition before its text and
the earlier cases' after it: a case whose text the text is not does not
make their equations.

A length flag's alternatives (unlong_alts): a struct with a length-flag
reads the short form first; the long form is tried for every reading only
when an expression of the displays reads the flag (the short form may
print otherwise then).  When
none does, the encoder sets the flag wherever a field needs the long form,
so a short reading is the long one too, and asm.c tries the long form only
where a listing's next offset asks for its bytes (ALT b 1)."""
import unittest

from tests.gen.common import asm_tables

SPEC = """<?xml version="1.0"?>
<isa name="t" language="3">
  <stream unit="U"/>
  <struct name="Quiet" bits="32" min-length="16" length-flag="L">
    <fixed bits="0..6" value="1"/>
    <field name="L" bits="7" type="bool"/>
    <field name="a" bits="8..15" type="uint"/>
    <field name="b" bits="16..31" type="uint"/>
    <display>quiet {a}, {b}</display>
  </struct>
  <struct name="Loud" bits="32" min-length="16" length-flag="L">
    <fixed bits="0..6" value="2"/>
    <field name="L" bits="7" type="bool"/>
    <field name="a" bits="8..15" type="uint"/>
    <field name="b" bits="16..31" type="uint"/>
    <display>loud{if L}.long{end} {a}, {b}</display>
  </struct>
  <operand name="Reg">
    <param name="v"/>
    <case when="v &gt; 200" display="r{v}" undefined="true" message="no such register"/>
    <case when="v &gt; 100" display="x{v}"/>
    <case when="v &gt; 50" display="r{v}" undefined="true" message="nor this one"/>
    <case display="r{v}"/>
  </operand>
  <struct name="Regs" bits="16">
    <fixed bits="0..7" value="3"/>
    <field name="r" bits="8..15" type="uint"/>
    <display>regs {Reg(r)}</display>
  </struct>
  <choice name="U">
    <alt type="Quiet"/>
    <alt type="Loud"/>
    <alt type="Regs"/>
  </choice>
</isa>
"""


def load():
    return asm_tables(SPEC)


def length_alts():
    """{struct name: the b of its length ALT}"""
    t = load()
    out = {}
    for k, e0 in t.length_alts:
        out[t.exprs[e0].scope.name] = t.goals[k].b
    return t, out


def branch_goals(t, k):
    """The goals of an operand case's branch k, in order."""
    return [t.goals[j] for j in (t.goals[k].kids if t.goals[k].kind == "SEQ" else [k])]


class OperandCases(unittest.TestCase):
    def test_the_defined_cases_come_first_in_the_printers_order(self):
        t = load()
        calls = [g for g in t.goals if g.kind == "CALL"]
        self.assertEqual(len(calls), 1)
        cases = t.goals[calls[0].a]
        self.assertEqual(cases.kind, "ALT")

        def leads(k):
            """(undefined, the case's text's first letter) of branch k"""
            goals = branch_goals(t, k)
            return any(g.kind == "UNDEF" for g in goals), next(g.text for g in goals if g.kind == "LIT")
        self.assertEqual([leads(k) for k in cases.kids], [(False, "x"), (False, "r"), (True, "r"), (True, "r")])
        # (the undefined ones keep their order: v > 200 before v > 50)
        conds = [[t.goals[j] for j in t.goals[k].kids if t.goals[j].kind == "CHECK"] for k in cases.kids[2:]]
        self.assertEqual([len(c) for c in conds], [1, 3])

    def test_a_case_states_its_own_condition_before_its_text_and_the_earlier_ones_after(self):
        t = load()
        cases = t.goals[next(g for g in t.goals if g.kind == "CALL").a]
        # x{v} (v > 100: after v > 200), r{v} (none: after all three), r{v}
        # (v > 200), r{v} (v > 50: after v > 200 and v > 100)
        self.assertEqual([[g.kind for g in branch_goals(t, k)] for k in cases.kids], [
            ["CHECK", "LIT", "NUM", "CHECK"],
            ["LIT", "NUM", "CHECK", "CHECK", "CHECK"],
            ["CHECK", "UNDEF", "LIT", "NUM"],
            ["CHECK", "UNDEF", "LIT", "NUM", "CHECK", "CHECK"]])


class LengthFlag(unittest.TestCase):
    def test_a_flag_no_display_reads_takes_the_long_form_only_for_a_listing(self):
        t, alts = length_alts()
        self.assertIsNotNone(t.root)
        self.assertEqual(alts["Quiet"], 1)

    def test_a_flag_a_display_reads_takes_both_forms_for_every_reading(self):
        _, alts = length_alts()
        self.assertEqual(alts["Loud"], 0)


if __name__ == "__main__":
    unittest.main()
