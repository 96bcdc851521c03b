"""isagen lint --asm: a value the assembler can neither guess nor search is
a warning with its place (the spec still gets tables), and the shipped
specs that assemble have none."""
import os
import subprocess
import tempfile
import unittest

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
ISAGEN = os.path.join(ROOT, "gen", "isagen")

SPEC = """<?xml version="1.0"?>
<isa name="t">
  <stream unit="S"/>
  <struct name="S" bits="32">
    <field name="a" bits="0..15" type="uint"/>
    <field name="b" bits="16..31" type="uint"/>
    <display>x {a * a:d} {b:d}</display>
  </struct>
</isa>
"""


def lint(*args):
    return subprocess.run([ISAGEN, "lint", "-q", "--asm"] + list(args), cwd=ROOT, capture_output=True, text=True)


class AsmLint(unittest.TestCase):
    def test_a_value_without_guess_or_search_is_a_warning_with_its_place(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.xml")
            with open(path, "w", encoding="utf-8") as f:
                f.write(SPEC)
            r = lint(path)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr.splitlines(), [
            f"{path}:7:19: warning: no guess for this value, and its 16 bits are more than the 12 the "
            "assembler searches: text may not assemble"])

    def test_the_specs_that_assemble_have_no_warning(self):
        for spec in ("agx-g13", "lima-gp", "nv-sph"):
            with self.subTest(spec=spec):
                r = lint(os.path.join("xml", spec + ".xml"))
                self.assertEqual((r.returncode, r.stderr), (0, ""))


if __name__ == "__main__":
    unittest.main()
