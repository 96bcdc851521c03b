"""Which of a struct's rules the assembler reads as equations
(cgen/assembler.py rule_goals): those of severity error over at most
RULE_READS variables, each one CHECK goal (c 1) `!when || check` under
one RULE goal.  Warnings, rules about the program ($last) and rules over
more variables are left to the validators."""
import unittest

from gen.isagenlib import expr as X
from gen.isagenlib.cgen.assembler import RULE_READS
from tests.gen.common import asm_tables

SPEC = """<?xml version="1.0"?>
<isa name="t" language="3">
  <stream unit="S"/>
  <struct name="S" bits="32">
    <field name="op" bits="0..7" type="uint"/>
    <field name="n" bits="8..11" type="uint"/>
    <field name="a" bits="12..15" type="uint"/>
    <field name="b" bits="16..19" type="uint"/>
    <field name="c" bits="20..23" type="uint"/>
    <field name="d" bits="24..31" type="uint"/>
    <rule name="count" when="op == 3" check="n == 2" field="n" message="op 3 takes 2"/>
    <rule name="order" check="a &lt;= b" field="b" message="backwards"/>
    <rule name="soft" check="c == 0" severity="warning" field="c" message="c is set"/>
    <rule name="last" when="$last" check="d == 0" field="d" message="the last has d 0"/>
    <rule name="wide" check="a + b + c + d + n &lt; 60" field="d" message="too much"/>
    <display>x{op} {n} {a} {b} {c} {d}</display>
  </struct>
</isa>
"""


class Rules(unittest.TestCase):
    def setUp(self):
        self.t = asm_tables(SPEC)

    def rule_checks(self):
        rules = [g for g in self.t.goals if g.kind == "RULE"]
        self.assertEqual(len(rules), 1)
        body = self.t.goals[rules[0].a]
        kids = body.kids if body.kind == "SEQ" else [rules[0].a]
        return [self.t.goals[k] for k in kids]

    def test_error_rules_over_few_variables_are_checks_of_their_own(self):
        checks = self.rule_checks()
        self.assertTrue(all(g.kind == "CHECK" and g.b == 1 and g.c == 1 for g in checks), checks)
        texts = [X.text_of(self.t.exprs[g.a].node) for g in checks]
        self.assertEqual(texts, ["(!(op == 3) || (n == 2))", "(a <= b)"])

    def test_a_rule_about_the_last_unit_leaves_units_read_once(self):
        # (the checks above hold neither the $last rule nor the warning nor
        # the wide rule, of five variables; reading $last in a rule would
        # have made asm.c read every unit the text ends with twice)
        self.assertLess(RULE_READS, 5)
        self.assertFalse(self.t.reads_last)

    def test_a_rule_over_too_many_variables_makes_no_expression(self):
        # (its variables are counted first: an expression made and left
        # unchecked was C the generated file did not use)
        texts = [X.text_of(e.node) for e in self.t.exprs]
        self.assertFalse([t for t in texts if "60" in t], texts)
        self.assertTrue([t for t in texts if "n == 2" in t], texts)


if __name__ == "__main__":
    unittest.main()
