"""isagen space: a small choice whose map is worked out by hand (shares,
key, unallocated values, partly allocated values with the patterns left,
an encoding never chosen), a variant set, AGX's real space (stack_get_ptr
never chosen, as agx.md §3.3 says; opcode values no encoding claims), the
command's text and JSON, and --corpus naming the encodings no unit
exercises."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

from tests.gen.common import load_text
from gen.isagenlib import cli, space

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ISAGEN = os.path.join(ROOT, "gen", "isagen")

# 8-bit units.  A: 0001 in bits 0..3 (1/16 of the space); B: 0010 and bit 4
# set (1/32); C: 11 in bits 0..1 (1/4); D: 0011 in bits 0..3, after C in an
# ordered choice: C takes all of it (shadowed="true" says so).  Every entry fixes bits 0..1: the key.
SPEC = """<?xml version="1.0"?>
<isa name="t" language="3">
  <stream unit="I"/>
  <struct name="A" bits="8"><fixed bits="0..3" value="1"/><field name="x" bits="4..7" type="uint"/><display>a</display></struct>
  <struct name="B" bits="8"><fixed bits="0..3" value="2"/><fixed bits="4" value="1"/><field name="x" bits="5..7" type="uint"/><display>b</display></struct>
  <struct name="C" bits="8"><fixed bits="0..1" value="3"/><field name="x" bits="2..7" type="uint"/><display>c</display></struct>
  <struct name="D" bits="8"><fixed bits="0..3" value="3"/><field name="x" bits="4..7" type="uint"/><display>d</display></struct>
  <choice name="I" ordered="true">
    <alt type="A"/><alt type="B"/><alt type="C"/><alt type="D" shadowed="true"/>
  </choice>
</isa>
"""


load = load_text


class Map(unittest.TestCase):
    def test_a_choice_worked_out_by_hand(self):
        s, = space.analyse(load(SPEC))
        self.assertEqual((s.kind, s.name, s.bits, s.key, s.key_text), ("choice", "I", 8, [0, 1], "bits 0..1"))
        self.assertEqual([(e.name, e.fraction, e.shadowed_by, e.never) for e in s.encodings],
                         [("A", 1 / 16, [], False), ("B", 1 / 32, [], False), ("C", 1 / 4, [], False),
                          ("D", 0.0, ["C"], True)])
        self.assertEqual(s.allocated, 1 / 16 + 1 / 32 + 1 / 4)
        self.assertEqual([(v.value, v.names, v.fraction) for v in s.values],
                         [(0, [], 0.0), (1, ["A"], 0.25), (2, ["B"], 0.125), (3, ["C"], 1.0)])
        self.assertEqual(s.unallocated, [
            "bits 0..1 = 0x0 decode as nothing",
            "bits 0..1 = 0x1: 25% decode (as A); nothing for 0..2 = 0x5; 0..3 = 0x9",
            "bits 0..1 = 0x2: 12.5% decode (as B); nothing for 0..2 = 0x6; 0..3 = 0xa; 0..4 = 0x2"])
        self.assertEqual(space.text("t", [s]).splitlines()[0],
                         "t: choice I: 4 encodings, 34.38% of the bit patterns decode as something (key: bits 0..1)")
        self.assertIn("  D is never chosen: its patterns all go to C", space.text("t", [s]))

    def test_ranges_of_values(self):
        self.assertEqual(space.values_text([0x0e, 0x12, 0x5a, 0x5b, 0x5c, 0x5d, 0x5e, 0x5f], 7),
                         "0x0e, 0x12, 0x5a–0x5f")
        self.assertEqual(space.bits_text([0, 1, 2, 5]), "bits 0..2, 5")

    def test_a_variant_set(self):
        spec = load(SPEC.replace('<struct name="A" bits="8">', '<struct name="V" bits="8"><field name="m" bits="0..1" '
                                 'type="uint"/><variant name="p"><when><match field="m" value="1"/></when><field '
                                 'name="y" bits="2..7" type="uint"/></variant><variant name="q"><when><match field="m" '
                                 'value="2"/></when><reserved bits="2..7"/></variant><display>v</display></struct>\n'
                                 '  <struct name="A" bits="8">'))
        v = next(s for s in space.analyse(spec) if s.kind == "variants")
        self.assertEqual((v.name, v.key, [e.fraction for e in v.encodings], v.unallocated),
                         ("V", [0, 1], [0.25, 0.25], ["bits 0..1 = 0x0, 0x3 decode as nothing"]))

    def test_agx(self):
        s = next(s for s in space.analyse(cli.load_spec(os.path.join(ROOT, "xml", "agx-g13.xml"))) if s.name == "Instruction")
        by = {e.name: e for e in s.encodings}
        # agx.md §3.3: stack_get_ptr and TODO.stack_adjust2 are never selected in 4c5bae6
        self.assertTrue(by["stack_get_ptr"].never)
        self.assertEqual(by["stack_get_ptr"].shadowed_by, ["stack_load"])
        self.assertTrue(by["TODO_stack_adjust2"].never)
        self.assertFalse(by["fadd32"].never)
        self.assertTrue(s.unallocated[0].startswith(f"{s.key_text} = 0x03, 0x07, "), s.unallocated[0])
        self.assertTrue(0 < s.allocated < 1)


class Command(unittest.TestCase):
    def run_isagen(self, *args):
        return subprocess.run([ISAGEN, *args], cwd=ROOT, capture_output=True, text=True)

    def test_text_and_json(self):
        r = self.run_isagen("space", "xml/nv-sph.xml", "--version", "v4")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, "nv-sph@v4: variants Header: 2 variants, 6.25% of the bit patterns decode as "
                                   "something (key: bits 0..4)\n  bits 0..4 = 0x00, 0x03–0x1f decode as nothing\n")
        r = self.run_isagen("space", "xml/tgsi.xml", "--format", "json")
        doc = json.loads(r.stdout)
        self.assertEqual(doc["spec"], "tgsi")
        self.assertEqual([(s["name"], s["allocated"], s["key"]) for s in doc["sets"]], [("Item", 0.25, [0, 1, 2, 3])])
        self.assertEqual(self.run_isagen("space", "xml/nope.xml").returncode, 2)

    @unittest.skipUnless(shutil.which(os.environ.get("CC", "cc")), "needs a C compiler")
    def test_corpus_names_the_encodings_no_unit_exercises(self):
        with tempfile.TemporaryDirectory() as d:
            path, corpus = os.path.join(d, "t.xml"), os.path.join(d, "c.jsonl")
            with open(path, "w") as f:
                f.write(SPEC)
            with open(corpus, "w") as f:
                f.write('{"id": "a", "hex": "11"}\n{"id": "c", "hex": "07"}\n')   # an A and a C
            r = self.run_isagen("space", path, "--corpus", corpus)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("  allocated but no corpus unit decodes as it: B\n", r.stdout)   # (D is never chosen)
            r = self.run_isagen("space", path, "--corpus", corpus, "--format", "json")
            self.assertEqual([e["corpus"] for e in json.loads(r.stdout)["sets"][0]["encodings"]], [1, 0, 1, 0])


if __name__ == "__main__":
    unittest.main()
