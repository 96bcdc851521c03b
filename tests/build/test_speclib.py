"""A spec of one's own in isa without rebuilding it: `isagen build` compiles
a spec file that is not in xml/ (the toy tests/specs/toy-varlen.xml) into a
library, and `isa --load LIB` lists, disassembles and checks with it.

The expected texts are derived by hand from the toy's display templates
(the records of tests/build/test_new_spec.py), not printed by isagen."""
import os
import tempfile
import unittest

from tests.build.common import OUT, ROOT, run
from tests.build.test_new_spec import RECORDS

ISA = os.path.join(OUT, "bin", "isa")


class SpecLibrary(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.lib = os.path.join(cls.tmp.name, "toy.so")
        r = run([os.path.join(ROOT, "gen", "isagen"), "build", os.path.join(ROOT, "tests", "specs", "toy-varlen.xml"),
                 "-o", cls.lib])
        assert r.returncode == 0, r.stderr

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_the_library_exports_its_entry_point_alone(self):
        syms = run(["nm", "-D", "--defined-only", self.lib]).stdout.split()
        self.assertEqual([s for s in syms if not s.startswith("0") and len(s) > 1], ["isagen_plugin_specs"])

    def test_isa_lists_disassembles_and_checks_with_it(self):
        out = run([ISA, "list", "--load", self.lib]).stdout.splitlines()
        self.assertTrue(out[0].startswith("toy-varlen "), out[0])
        self.assertTrue(out[0].endswith(" from " + self.lib), out[0])
        self.assertTrue(any(line.startswith("nv-sph ") for line in out), "the compiled-in specs are still there")
        for rec in RECORDS:
            r = run([ISA, "dis", "--load", self.lib, "--isa", "toy-varlen", "--hex", rec["hex"]])
            self.assertEqual((r.returncode, r.stdout.rstrip("\n")), (0, rec["text"]), rec["id"])
        r = run([ISA, "check", "--isa", "toy-varlen", "--load", self.lib, "--hex", "8ea0a003"])
        self.assertEqual((r.returncode, r.stderr), (0, ""))

    def test_a_spec_the_assembler_cannot_read_is_said(self):
        # toy-varlen prints a <use> and has struct variants, which isa as
        # does not read (isagen lint --asm says where); every shipped spec
        # assembles, so this loaded one is where the message is tested
        for args in (("-",), ("--batch", "-")):
            with self.subTest(args=args):
                r = run([ISA, "as", "--load", self.lib, "--isa", "toy-varlen", *args], input='"add r1"\n')
                self.assertEqual((r.returncode, r.stdout), (1, ""))
                self.assertEqual(r.stderr, "isa: spec toy-varlen has no assembler yet (see docs/cli.md)\n")

    def test_what_cannot_be_loaded_is_said(self):
        cases = [("toy.so", "give a path (./toy.so"),
                 (os.path.join(self.tmp.name, "none.so"), "No such file"),
                 (os.path.join(OUT, "lib", "libisagen.so"), "not a spec library")]
        for path, message in cases:
            r = run([ISA, "dis", "--isa", "toy-varlen", "--load", path, "--hex", "0001"])
            self.assertEqual(r.returncode, 2, path)
            self.assertIn(message, r.stderr, path)
        r = run([ISA, "dis", "--isa", "toy-varlen", "--hex", "0001"])
        self.assertEqual(r.returncode, 2, "without --load the spec is unknown")

    def test_a_misspelt_name_is_matched_against_loaded_specs_too(self):
        r = run([ISA, "dis", "--load", self.lib, "--isa", "toy-varlan", "--hex", "8ea0a003"])
        self.assertEqual(r.returncode, 2)
        self.assertIn("unknown spec 'toy-varlan' (did you mean 'toy-varlen'?", r.stderr)
        r = run([ISA, "dis", "--load", self.lib, "--isa", "lima-p", "--hex", "8ea0a003"])
        self.assertIn("did you mean 'lima-pp'?", r.stderr, "and against those compiled in")



# A value whose bits are two fields' bits, one of them scattered (Midgard's
# scalar immediate, with another field layout): 16 bits, more than the
# assembler searches, so it assembles only because each field's bits are
# gathered from the number at once.
SCATTERED = """<?xml version="1.0"?>
<isa name="toy-scatter">
  <stream unit="S"/>
  <struct name="S" bits="16">
    <field name="r" bits="0..4" type="uint"/>
    <field name="s" bits="5..15" type="uint"/>
    <display>imm {r &lt;&lt; 11 | (s &amp; 3) &lt;&lt; 9 | (s &amp; 4) &lt;&lt; 6 | (s &amp; 0x38) &lt;&lt; 2 | s >> 6:d}</display>
  </struct>
</isa>
"""


# An operand whose parameter is the low byte of a 16-bit field, printed
# through bits no guess inverts alone (Midgard's texture register select):
# the assembler searches the parameter's 256 values, not the field's 65536.
NARROW_PARAMETER = """<?xml version="1.0"?>
<isa name="toy-sel">
  <stream unit="S"/>
  <operand name="Sel">
    <param name="u"/>
    <case display="{bit(u, 1)}.{bits(u, 3, 2) + 4 * bit(u, 2)}.{bit(u, 0)}"/>
  </operand>
  <struct name="S" bits="16">
    <field name="h" bits="0..15" type="uint"/>
    <display>sel {Sel(h &amp; 0xFF)}</display>
  </struct>
</isa>
"""


# A value no guess inverts (the field is read twice), of a 16-bit field of
# which only the low 10 bits matter: the assembler searches those 10 bits,
# fewer than the 12 it searches at most, and keeps the others as they stand.
MASKED = """<?xml version="1.0"?>
<isa name="toy-mask">
  <stream unit="S"/>
  <struct name="S" bits="16">
    <field name="f" bits="0..15" type="uint"/>
    <display>sq {(f &amp; 0x3FF) * (f &amp; 0x3FF):d}</display>
  </struct>
</isa>
"""


# What a lax reading takes (docs/design.md, "The assembler"): an {optional}
# left out (sw keeps its default, 2), an {if} body the printer leaves out
# (R[0]), attributes in another order, letters in either case, a number in
# another form.
LAX = """<?xml version="1.0"?>
<isa name="toy-lax">
  <stream unit="S"/>
  <enum name="Op" width="2"><value name="MOV" value="0"/><value name="ADD" value="1"/></enum>
  <struct name="S" bits="32">
    <field name="op" bits="0..1" type="Op"/>
    <field name="sat" bits="2" type="bool"/>
    <field name="wr" bits="3" type="bool"/>
    <field name="raw" bits="4" type="bool"/>
    <field name="n" bits="5..7" type="uint"/>
    <field name="sw" bits="8..9" type="uint" default="2"/>
    <reserved bits="10..15"/>
    <field name="v" bits="16..31" type="uint"/>
    <display>{op}{if sat}_SAT{end} R{optional}.{sw:d}{end}{if n != 0}[{n:d}]{end}, {sext(v, 16):d}{if wr}, WR{end}{if raw}, RAW{end}</display>
  </struct>
</isa>
"""


# The closing search's choice: the first value reads 4 bits of f, but the
# third reads all 16, so a search of f is too wide; g's 10 bits are
# searched instead, and the third equation gives f.
WIDENED = """<?xml version="1.0"?>
<isa name="toy-best">
  <stream unit="S"/>
  <struct name="S" bits="32">
    <field name="f" bits="0..15" type="uint"/>
    <field name="g" bits="16..25" type="uint"/>
    <reserved bits="26..31"/>
    <display>a {(f &amp; 0xF) * (f &amp; 0xF):d} b {g * g:d} c {f - g * 37:d}</display>
  </struct>
</isa>
"""

# ((h & 0xF) << 60) >> 56 is a signed byte (the shift is arithmetic): the
# parameter may be -128, which an 8-bit unsigned search would miss.
SIGNED_BYTE = """<?xml version="1.0"?>
<isa name="toy-vb">
  <stream unit="S"/>
  <operand name="Sq">
    <param name="u"/>
    <case display="{u * u:d}"/>
  </operand>
  <struct name="S" bits="16">
    <field name="h" bits="0..15" type="uint"/>
    <display>s {Sq(((h &amp; 0xF) &lt;&lt; 60) &gt;&gt; 56)}</display>
  </struct>
</isa>
"""

# Loops of text alone whose bound no guess inverts (n * n reads n twice),
# as TGSI's indentation is: blanks, which match any run of blanks, and
# letters, one per iteration.
LOOPS = """<?xml version="1.0"?>
<isa name="toy-loops">
  <stream unit="S"/>
  <struct name="S" bits="8">
    <field name="n" bits="0..3" type="uint"/>
    <field name="m" bits="4..7" type="uint"/>
    <display>r{for i in 0..n * n} {end}.{for i in 0..m * m}x{end};</display>
  </struct>
</isa>
"""


# An operand with an undefined case that prints as the defined one does
# (AGX's register sources), in a unit of two lengths, and two rules of
# more variables than the assembler checks as it reads (left to the
# validators) that find r = 3 alone wrong twice.
UNDEFINED_CASE = """<?xml version="1.0"?>
<isa name="toy-undef">
  <stream unit="S"/>
  <operand name="Reg">
    <param name="v"/>
    <case when="v &gt; 15" display="r{v &amp; 15}" undefined="true" message="no such register"/>
    <case display="r{v}"/>
  </operand>
  <struct name="S" bits="32" min-length="16" length-flag="L">
    <fixed bits="0..6" value="1"/>
    <field name="L" bits="7" type="bool"/>
    <field name="r" bits="8..12" type="uint"/>
    <field name="a" bits="13..14" type="uint"/>
    <field name="b" bits="15" type="uint"/>
    <field name="k" bits="16..27" type="uint"/>
    <field name="c" bits="28..31" type="uint"/>
    <rule name="r3" check="r != 3 || a + b + c != 0" message="r3 alone is reserved"/>
    <rule name="r3-again" check="r != 3 || a + b + c != 0" message="r3 alone is reserved, said twice"/>
    <display>mov {Reg(r)}, {k}</display>
  </struct>
</isa>
"""

# <fill>s: what the assembler writes into bits the text leaves open.  p.hi
# prints only when `two` is set; q and spare never print.
FILLS = """<?xml version="1.0"?>
<isa name="toy-fill">
  <stream unit="S"/>
  <struct name="Pair" bits="8">
    <field name="lo" bits="0..3" type="uint"/>
    <field name="hi" bits="4..7" type="uint"/>
  </struct>
  <struct name="S" bits="24">
    <field name="two" bits="0" type="bool"/>
    <field name="spare" bits="1..7" type="uint"/>
    <field name="p" bits="8..15" type="Pair"/>
    <field name="q" bits="16..23" type="uint"/>
    <rule name="spare" check="spare != 7" message="spare 7 is reserved"/>
    <fill field="p.hi" when="!two" value="p.lo"/>
    <fill field="p.lo" value="p.lo + 1"/>
    <fill field="spare" value="7"/>
    <fill field="q" value="p.hi * 32"/>
    <display>v {p.lo}{if two}, {p.hi}{end}</display>
  </struct>
</isa>
"""

# A sequence's <fill> sets a field of one item from another's (after the
# items' own fills): b.w never prints.
SEQUENCE_FILL = """<?xml version="1.0"?>
<isa name="toy-seqfill">
  <stream unit="Q"/>
  <struct name="B" bits="8">
    <field name="v" bits="0..3" type="uint"/>
    <field name="w" bits="4..7" type="uint"/>
    <display>{v}</display>
  </struct>
  <sequence name="Q">
    <item name="a" type="B"/>
    <item name="b" type="B"/>
    <fill field="b.w" value="a.v + 1"/>
    <display>{a} {b}</display>
  </sequence>
</isa>
"""


# A stream <derive> reading the unit at a byte offset ($at): each unit's
# `seen` is the k of the unit its t points to (in units of 2 bytes), 0
# where none starts; it never prints.
AT = """<?xml version="1.0"?>
<isa name="toy-at">
  <stream unit="S">
    <derive field="seen" value="$at[$offset + t * 2].k"/>
  </stream>
  <struct name="S" bits="16">
    <field name="k" bits="0..3" type="uint"/>
    <field name="t" bits="4..11" type="sint"/>
    <field name="seen" bits="12..15" type="uint"/>
    <display>k{k} {t}</display>
  </struct>
</isa>
"""


class ToySpecs(unittest.TestCase):
    """Values of shapes the assembler reads through its own steps, each in
    a toy spec built with isagen build; the bytes are worked out by hand
    (little-endian units)."""

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.dir = tmp.name

    def write(self, name, xml_text):
        path = os.path.join(self.dir, name + ".xml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(xml_text)
        return path

    def lint(self, name, xml_text):
        return run([os.path.join(ROOT, "gen", "isagen"), "lint", "-q", "--asm", self.write(name, xml_text)])

    def build(self, name, xml_text):
        lib = os.path.join(self.dir, name + ".so")
        r = run([os.path.join(ROOT, "gen", "isagen"), "build", self.write(name, xml_text), "-o", lib])
        self.assertEqual(r.returncode, 0, r.stderr)
        return lib

    def assemble(self, lib, name, text):
        r = run([ISA, "as", "--load", lib, "--isa", name, "--hex", "-"], input=text + "\n")
        return r.returncode, r.stdout.strip(), r.stderr

    def assert_refuses(self, lib, name, text, message):
        """text does not assemble: exit status 1, no bytes, and message in
        the error."""
        code, out, err = self.assemble(lib, name, text)
        self.assertEqual((code, out), (1, ""), text)
        self.assertIn(message, err, text)

    def assert_assembles(self, name, xml_text, cases):
        lib = self.build(name, xml_text)
        for text, hex_ in cases:
            self.assertEqual(self.assemble(lib, name, text), (0, hex_, ""), text)
        return lib

    def test_a_value_of_scattered_field_bits_assembles(self):
        r = self.lint("toy-scatter", SCATTERED)
        self.assertEqual((r.returncode, r.stderr), (0, ""), "a guess for both fields: no warning")
        # 31504 = 0x7B10: r = 0x7B10 >> 11 = 15; s's bits 0..1 are the
        # value's 9..10 (1), bit 2 its bit 8 (1), bits 3..5 its 5..7 (0),
        # bits 6..10 its 0..4 (16): s = 16 << 6 | 4 | 1 = 1029.  The unit
        # is r | s << 5 = 0x80AF.
        self.assert_assembles("toy-scatter", SCATTERED,
                              [("imm 31504", "af80"), ("imm 0", "0000"), ("imm 65535", "ffff")])

    def test_a_lax_reading_takes_what_people_write_for_the_printed_text(self):
        # ADD_SAT R.2, -1, WR: op 1, sat (bit 2), wr (bit 3): 0x0D; sw 2 at
        # bits 8..9: 0x200; v = 0xFFFF at bits 16..31
        canonical = "0d02ffff"
        lib = self.assert_assembles("toy-lax", LAX, [
            ("ADD_SAT R.2, -1, WR", canonical),     # as printed: a strict reading
            ("ADD_SAT R, -1, WR", canonical),       # {optional} left out: sw's default
            ("add_sat r, -1, wr", canonical),       # letters in the other case
            ("ADD_SAT R[0], -1, WR", canonical),    # n = 0 written, which the printer leaves out
            ("ADD_SAT R, 0xffff, WR", canonical),   # -1 as its 16 bits, in hex
            ("ADD_SAT R, 65535, WR", canonical),    # ... and in decimal
            ("ADD_SAT R, -1, RAW, WR", "1d02ffff"),  # attributes in another order (raw: bit 4)
            # a strict reading when there is one: n = 5 (bits 5..7), sw = 3
            ("MOV R.3[5], 7", "a0030700"),
        ])
        r = run([ISA, "dis", "--load", lib, "--isa", "toy-lax", "--hex", "0d02ffff"])
        self.assertEqual(r.stdout, "ADD_SAT R.2, -1, WR\n")
        # text that no lax reading takes either: the strict reading's error
        self.assert_refuses(lib, "toy-lax", "ADD_SAT R, -1, WR, BOGUS", "found ', BOGUS'")

    def test_a_parameter_narrower_than_its_field_is_searched_itself(self):
        # "1.5.1": bit 1 set; bits 3..4 + 4 * bit 2 = 5, so bit 2 set and
        # bits 3..4 = 1; bit 0 set: u = 0b01111.  h's other bits are not
        # printed and keep their default, 0.
        self.assert_assembles("toy-sel", NARROW_PARAMETER,
                              [("sel 1.5.1", "0f00"), ("sel 0.0.0", "0000"), ("sel 1.7.1", "1f00")])

    def test_only_the_bits_a_value_depends_on_are_searched(self):
        r = self.lint("toy-mask", MASKED)
        self.assertEqual((r.returncode, r.stderr), (0, ""), "10 bits to search: no warning")
        r = self.lint("toy-mask16", MASKED.replace("0x3FF", "0xFFFF"))
        self.assertIn("its 16 bits are more than the 12 the assembler searches", r.stderr)
        # 1046529 = 1023 * 1023: f = 0x3FF; 144: f = 12; f's bits 10..15
        # keep their default, 0
        lib = self.assert_assembles("toy-mask", MASKED, [("sq 1046529", "ff03"), ("sq 144", "0c00"), ("sq 0", "0000")])
        self.assertEqual(self.assemble(lib, "toy-mask", "sq 2")[0], 1, "2 is no square")

    def test_a_search_the_other_equations_widen_is_chosen_by_whole_fields(self):
        # 9 = 3 * 3 (f & 0xF = 3), 4 = 2 * 2 (g = 2), 4585 = f - 74:
        # f = 4659 = 0x1233; the unit is f | g << 16 = 0x00021233
        self.assert_assembles("toy-best", WIDENED, [("a 9 b 4 c 4585", "33120200")])

    def test_a_value_that_reaches_bit_63_is_not_taken_as_unsigned(self):
        # 16384 = (-128)^2: h = 8; 1024 = 32^2: h = 2
        self.assert_assembles("toy-vb", SIGNED_BYTE, [("s 16384", "0800"), ("s 1024", "0200")])

    def test_a_loop_of_text_alone_takes_the_count_the_text_shows(self):
        # n * n blanks after r: every count reads the blanks there, and the
        # unit printing them exactly ranks first (4 blanks: n = 2; 9: n = 3;
        # none: n = 0); m * m letters x: m = 3 for nine of them.  The unit
        # is n | m << 4.
        lib = self.assert_assembles("toy-loops", LOOPS, [
            ("r    .;", "02"), ("r         .;", "03"), ("r .;", "01"), ("r.;", "00"),
            ("r.xxxx;", "20"), ("r    .xxxxxxxxx;", "32")])
        self.assert_refuses(lib, "toy-loops", "r.xxx;", "no encoding prints this text")  # 3 is no square
        # two letters, then no third: besides the ';' two letters would
        # end with, the count one past what the text has is read too, and
        # expects one more x there
        self.assert_refuses(lib, "toy-loops", "r.xxy;", ":1:5: error: expected ';' or 'x'; found 'y;'")

    def test_a_reading_through_an_undefined_case_wins_by_fewer_errors(self):
        # "mov r3, 5": k = 5 needs the long form (L, bit 7), so the search
        # goes on past the first reading for a shorter one.  r = 3 (0x81
        # 0x03 ...) breaks both rules; r = 19 (v > 15, printed r3) is read
        # through the undefined case, one error (isa check's
        # undefined-operand), and errors rank before definedness: it wins.
        # (A reading through an undefined case is cut once the best has no
        # error at all; here it has two.)  "mov r4, 5": the defined reading
        # has none.  "mov r3, 0": the short form, found first, ends the
        # search.
        self.assert_assembles("toy-undef", UNDEFINED_CASE,
                              [("mov r3, 5", "81130500"), ("mov r4, 5", "81040500"), ("mov r3, 0", "0103")])

    def test_fills_write_what_the_text_leaves_open(self):
        # "v 3": hi does not print, and its fill copies lo (0x33); lo + 1
        # would print "v 4" and spare 7 breaks a rule: both are put back;
        # q reads hi as the fill before it left it (3 * 32).  "v 9": q
        # would be 288, out of its range: not tried.  "v 3, 5": hi prints,
        # its fill's when is false; q = 5 * 32.
        self.assert_assembles("toy-fill", FILLS, [("v 3", "003360"), ("v 9", "009900"), ("v 3, 5", "0153a0")])
        # a sequence's own: "3 5" is a.v 3, b.v 5, and b.w = 3 + 1
        self.assert_assembles("toy-seqfill", SEQUENCE_FILL, [("3 5", "0345")])

    def test_a_derive_reads_the_unit_at_an_offset(self):
        # k1 1: t = 1 points at the unit 2 bytes on (k 7): seen 7, the unit
        # 0x7011; k7 -1 back at the first (k 1): 0x1FF7; k3 5 at byte 14,
        # where no unit starts: seen 0, 0x0053; k2 0 points at itself: 0x2002
        self.assert_assembles("toy-at", AT, [("k1 1\nk7 -1\nk3 5", "1170f71f5300"), ("k2 0", "0220")])

    def test_a_unit_of_900_values_is_not_past_the_undo_table(self):
        # each value's equation waits on two fields, and watches them: the
        # watches share the undo trail and must leave room for the values
        fields = "".join(f'<field name="a{i}" bits="{8 * i}..{8 * i + 3}" type="uint"/>'
                         f'<field name="b{i}" bits="{8 * i + 4}..{8 * i + 7}" type="uint"/>' for i in range(900))
        display = "t " + " ".join(f"{{a{i} * b{i}:d}}" for i in range(900))
        xml = (f'<?xml version="1.0"?>\n<isa name="toy-trail"><stream unit="S"/><struct name="S" bits="7200">'
               f"{fields}<display>{display}</display></struct></isa>\n")
        code, out, err = self.assemble(self.build("toy-trail", xml), "toy-trail", "t " + " ".join(["6"] * 900))
        self.assertEqual((code, err), (0, ""))
        # each byte: a in its low nibble, b in its high one, a * b = 6
        products = {(b & 15) * (b >> 4) for b in bytes.fromhex(out)}
        self.assertEqual((len(out), products), (1800, {6}))

if __name__ == "__main__":
    unittest.main()
