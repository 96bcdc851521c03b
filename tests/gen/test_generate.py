"""Whole-pipeline properties: shipped and toy specs lint clean, output is
byte-identical across runs and free of absolute paths, and the generated
header compiles on its own."""
import glob
import os
import re
import subprocess
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ISAGEN = os.path.join(ROOT, "gen", "isagen")
SPECS = sorted(glob.glob(os.path.join(ROOT, "xml", "*.xml")) + glob.glob(os.path.join(ROOT, "tests", "specs", "*.xml")))


def generate(spec, outdir, *extra):
    subprocess.run([ISAGEN, "generate", os.path.relpath(spec, ROOT), "-o", outdir, *extra], cwd=ROOT, check=True)
    out = {}
    for n in sorted(os.listdir(outdir)):
        with open(os.path.join(outdir, n), "rb") as f:
            out[n] = f.read()
    return out


class Pipeline(unittest.TestCase):
    def test_specs_lint_clean(self):
        self.assertTrue(SPECS)
        r = subprocess.run([ISAGEN, "lint", "-q"] + [os.path.relpath(s, ROOT) for s in SPECS], cwd=ROOT,
                           capture_output=True, text=True)
        self.assertEqual((r.returncode, r.stderr), (0, ""))

    def test_output_is_deterministic_and_relocatable(self):
        for spec in SPECS:
            with self.subTest(spec=os.path.basename(spec)), tempfile.TemporaryDirectory() as a, \
                    tempfile.TemporaryDirectory() as b:
                first, second = generate(spec, a), generate(spec, b)
                self.assertEqual(first, second)
                for name, data in first.items():
                    text = data.decode("utf-8")
                    self.assertNotIn(ROOT, text, f"{name} mentions the checkout path")
                    self.assertNotIn(a, text, f"{name} mentions its output path")
                    self.assertNotIn(os.path.expanduser("~"), text)

    def test_header_compiles_alone(self):
        spec = os.path.join(ROOT, "xml", "nv-sph.xml")
        with tempfile.TemporaryDirectory() as d:
            generate(spec, d)
            src = os.path.join(d, "t.c")
            with open(src, "w") as f:
                f.write('#include "nv_sph.h"\nint main(void) { struct nv_sph_Header h; nv_sph_Header_init(&h); return h.variant; }\n')
            # no -I runtime/include: the header carries the core it needs
            subprocess.run(["gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I", d, "-c", src,
                            "-o", os.path.join(d, "t.o")], check=True)


def generate_all(outdir):
    """Every shipped spec, every version, into outdir."""
    import sys
    sys.path.insert(0, os.path.join(ROOT, "gen"))
    from isagenlib import cli
    for spec in SPECS:
        for v in cli.version_names(spec):
            generate(spec, outdir, *(["--version", v] if v else []))


class GeneratedC(unittest.TestCase):
    """The generated C is for people too: short lines, lets as named locals
    computed once in the block that needs them."""

    def test_no_line_longer_than_200_characters_outside_string_literals(self):
        with tempfile.TemporaryDirectory() as d:
            generate_all(d)
            worst = (0, "", 0)
            for name in sorted(os.listdir(d)):
                with open(os.path.join(d, name), encoding="utf-8") as f:
                    for k, line in enumerate(f, 1):
                        code = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line.rstrip("\n"))
                        worst = max(worst, (len(code), name, k))
            self.assertLessEqual(worst[0], 200, f"{worst[1]}:{worst[2]} is {worst[0]} characters long")

    LETS = """<?xml version="1.0"?>
<isa name="l">
  <stream unit="S"/>
  <struct name="S" bits="8">
    <field name="a" bits="0..3" type="uint"/>
    <field name="b" bits="4..7" type="uint"/>
    <let name="twice" value="a * 2"/>
    <let name="quad" value="twice * 2"/>
    <let name="only_b" value="b + 1"/>
    <display>{if a}{twice} {quad} {quad}{else}{only_b}{end} {twice}</display>
  </struct>
</isa>
"""

    def test_list_items_print_aside_only_when_they_may_print_nothing(self):
        # toy-listing's floor: r{D} and {half(...):r} always print something,
        # {Shift(S)} prints nothing for a zero shift, so only it goes aside
        with tempfile.TemporaryDirectory() as d:
            out = generate(os.path.join(ROOT, "tests", "specs", "toy-listing.xml"), d)["toy_listing.c"].decode()
            body = out[re.search(r"static int toy_listing_Floor_write\([^;{]*\)\n\{", out).start():]
            body = body[:body.index("\n}\n")]
            self.assertEqual(body.count("isa_out_item("), 1, body)
            self.assertIn("toy_listing_operand_Shift_print(&item_", body)

    def test_lets_are_locals_declared_once_where_needed(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "l.xml")
            with open(path, "w") as f:
                f.write(self.LETS)
            out = generate(path, d)["l.c"].decode()
            body = out[re.search(r"static int l_S_write\([^;{]*\)\n\{", out).start():]
            body = body[:body.index("\n}\n")]
            lines = [ln.strip() for ln in body.splitlines()]
            decl = lambda name: [i for i, ln in enumerate(lines) if ln.startswith(f"const int64_t let_{name} = ")]
            # each let once; `twice` (used in both branches and after) at the top,
            # `quad` (only in the if branch, twice) inside it, after `twice`; `only_b` in the else branch
            self.assertEqual([len(decl(n)) for n in ("twice", "quad", "only_b")], [1, 1, 1])
            if_line = next(i for i, ln in enumerate(lines) if ln.startswith("if ("))
            else_line = lines.index("} else {")
            self.assertLess(decl("twice")[0], if_line)
            self.assertTrue(if_line < decl("quad")[0] < else_line)
            self.assertLess(else_line, decl("only_b")[0])
            self.assertIn("let_twice", lines[decl("quad")[0]])
            subprocess.run(["gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only",
                            "-I", os.path.join(ROOT, "runtime", "include"), "-I", d, os.path.join(d, "l.c")], check=True)


class Versions(unittest.TestCase):
    """A versioned spec generates as of any of its versions; a version other
    than the default is its own spec, NAME@VERSION, with its own C prefix."""
    SPEC = os.path.join(ROOT, "xml", "tgsi.xml")

    def test_each_version_generates_its_own_spec(self):
        with tempfile.TemporaryDirectory() as d:
            out = generate(self.SPEC, d, "--version", "mesa-7.10")
            self.assertEqual(sorted(out), ["tgsi_mesa_7_10.c", "tgsi_mesa_7_10.h"])
            c = out["tgsi_mesa_7_10.c"].decode()
            self.assertTrue('"tgsi@mesa-7.10"' in c and '"mesa-7.10"' in c)
            h = out["tgsi_mesa_7_10.h"].decode()
            # the legacy numbering: SUB at 17, no TEX_LZ; the legacy instruction token
            self.assertTrue("TGSI_MESA_7_10_OPCODE_SUB = 17" in h)
            self.assertFalse("TEX_LZ" in h)
            self.assertTrue("Predicate" in h)
        with tempfile.TemporaryDirectory() as d:
            out = generate(self.SPEC, d)
            h = out["tgsi.h"].decode()
            self.assertTrue("TGSI_OPCODE_TEX_LZ = 17" in h)
            self.assertFalse("OPCODE_SUB " in h)

    def test_unknown_version_is_an_error(self):
        r = subprocess.run([ISAGEN, "generate", "xml/tgsi.xml", "-o", "/nonexistent/out", "--version", "mesa-99"], cwd=ROOT,
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)
        self.assertIn("no version 'mesa-99' (versions: seed, mesa-7.10, mesa-22.3.6)", r.stderr)
        with tempfile.TemporaryDirectory() as d:
            r = subprocess.run([ISAGEN, "generate", "xml/lima-pp.xml", "-o", d, "--version", "v4"], cwd=ROOT,
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 1)
            self.assertIn("the spec declares no <versions>", r.stderr)
            self.assertEqual(os.listdir(d), [])


class Warnings(unittest.TestCase):
    SPEC = """<?xml version="1.0"?>
<isa name="w">
  <stream unit="S"/>
  <operand name="Used"><param name="n"/><case display="r{n}"/></operand>
  <operand name="Spare"><param name="n"/><case display="s{n}"/></operand>
  <struct name="S" bits="8">
    <field name="a" bits="0..7" type="uint"/>
    <display>{Used(a)}</display>
  </struct>
</isa>
"""

    def test_an_unused_operand_is_a_warning_and_generates_nothing(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "w.xml")
            with open(path, "w") as f:
                f.write(self.SPEC)
            r = subprocess.run([ISAGEN, "lint", "-q", "w.xml"], cwd=d, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0)
            self.assertEqual(r.stderr, "w.xml:5:3: warning: operand 'Spare' is never used (no code is generated for it)\n")
            out = generate(path, d)
            self.assertIn(b"w_operand_Used_print", out["w.c"])
            self.assertNotIn(b"Spare", out["w.c"])


if __name__ == "__main__":
    unittest.main()
