"""isagen doc: the HTML reference.  The bit diagram of a small struct cell by
cell; every page of every spec self-contained (no resource outside it, every
in-page link resolving, ids unique); versions linked and their changes
marked; the AGX page showing every instruction of the seed page (applegpu's
docs.html of 2021) with the fields its operand formulas name, the SPH page
every field of the seed document; and, in headless Chromium, every page
loading without a console message with its diagrams laid out (the page's
own self-check: non-zero size, cells in bit order, no label outside its
cell)."""
import os
import re
import shutil
import subprocess
import tempfile
import unittest

from tests.gen.common import load_text
from gen.isagenlib import htmldoc

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ISAGEN = os.path.join(ROOT, "gen", "isagen")
SEEDS = os.path.join(ROOT, "..", "shared", "seeds")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

SPEC = """<?xml version="1.0"?>
<isa name="t" language="3">
  <stream unit="I"/>
  <struct name="I" bits="16">
    <fixed bits="0..3" value="5"/>
    <field name="d" bits="4..6 12..13" type="uint"/>
    <reserved bits="7..11"/>
    <mbz name="z" bits="14"/>
    <field name="L" bits="15" type="bool"/>
    <display>op r{d}</display>
  </struct>
</isa>
"""


load = load_text


class Diagram(unittest.TestCase):
    def test_a_struct_cell_by_cell(self):
        s = load(SPEC).type_named("I")
        d = htmldoc.diagram(s.members, s.bits, "I", 16)
        self.assertEqual(d.caption, "16 bits")
        self.assertEqual([(c.hi, c.lo, c.label, c.kind) for c in d.rows[0].cells],
                         [(15, 15, "L", "field"), (14, 14, "0", "mbz"), (13, 12, "d[4:3]", "field"),
                          (11, 7, "reserved", "reserved"), (6, 4, "d[2:0]", "field"), (3, 0, "0101", "fixed")])
        # in 32-bit rows the top half of the row is padding, not cells
        self.assertEqual(htmldoc.diagram(s.members, s.bits, "I", 32).rows[0].cells[0].hi, 15)

    def test_narrow_cells_turn_their_label(self):
        s = load(SPEC.replace('name="L"', 'name="LongFlagName"')).type_named("I")
        cell = htmldoc.diagram(s.members, s.bits, "I", 16).rows[0].cells[0]
        self.assertEqual((cell.label, cell.vertical), ("LongFlagName", True))
        self.assertFalse(htmldoc.diagram(s.members, s.bits, "I", 16).rows[0].cells[2].vertical)

    def test_length_flag_caption(self):
        text = SPEC.replace('<struct name="I" bits="16">', '<struct name="I" bits="32" min-length="16" '
                            'length-flag="L">').replace('<display>', '<reserved bits="16..31"/><display>')
        s = load(text).type_named("I")
        d = htmldoc.diagram(s.members, s.bits, "I", 16, s.min_length, s.length_flag, s.length_text)
        self.assertEqual(d.caption, "16 bits when L is clear, 32 when it is set")
        self.assertEqual([r.long_only for r in d.rows], [False, True])


class Pages(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        files = sorted(os.path.join(ROOT, "xml", f) for f in os.listdir(os.path.join(ROOT, "xml"))
                       if f.endswith(".xml"))
        r = subprocess.run([ISAGEN, "doc", *files, "-o", cls.tmp], cwd=ROOT, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        cls.pages = sorted(r.stdout.split())
        cls.text = {}
        for p in cls.pages:
            with open(p, encoding="utf-8") as f:
                cls.text[os.path.basename(p)] = f.read()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_a_page_per_version(self):
        self.assertEqual(sorted(self.text), ["agx-g13-2021.html", "agx-g13.html", "lima-gp.html", "lima-pp.html",
                                             "midgard.html", "nv-sph-v4.html", "nv-sph.html", "tgsi-mesa-7.10.html",
                                             "tgsi-seed.html", "tgsi.html"])

    def test_pages_are_self_contained(self):
        for name, page in self.text.items():
            with self.subTest(page=name):
                ids = re.findall(r'\bid="([^"]+)"', page)
                self.assertEqual(len(ids), len(set(ids)), [i for i in ids if ids.count(i) > 1][:5])
                nowhere = sorted(set(re.findall(r'href="#([^"]*)"', page)) - set(ids))
                self.assertEqual(nowhere, [], f"{name}: links that go nowhere")
                for target in re.findall(r'href="([^#"][^"]*)"', page):
                    self.assertIn(target, self.text, f"{name}: link to {target} outside the pages")
                self.assertNotRegex(page, r'<(?:script|img|link|iframe)[^>]*\s(?:src|href)=')

    def test_fills_are_listed_with_their_struct(self):
        # what isa as writes into bits the text leaves open (<fill>), beside
        # the struct's lets; a spec without fills lists none
        self.assertIn("fill acc0_src1 (isa as, bits the text leaves open) = Src::attrib_x, when acc0_printed "
                      "&amp;&amp; acc_op.srcs == 1", self.text["lima-gp.html"])
        self.assertIn("fill src2.swizzle (isa as, bits the text leaves open)", self.text["midgard.html"])
        self.assertNotIn("(isa as, bits the text leaves open)", self.text["tgsi.html"])

    def test_programs_say_what_follows_their_stop(self):
        # the stream's after-stop: AGX's eight traps (0x0008 each), Midgard's
        # zero quadword; the Lima PP page has none
        said = "After the unit that stops a program, the program encoder writes the bytes <code>%s</code>"
        self.assertIn(said % " ".join(["08 00"] * 8), self.text["agx-g13.html"])
        self.assertIn(said % " ".join(["00"] * 16), self.text["midgard.html"])
        self.assertNotIn("After the unit that stops a program", self.text["lima-pp.html"])

    def test_versions_are_linked_and_their_changes_marked(self):
        new, old = self.text["agx-g13.html"], self.text["agx-g13-2021.html"]
        self.assertIn('<a href="agx-g13-2021.html">2021</a>', new)
        self.assertIn('<a href="agx-g13.html">4c5bae6</a>', old)
        self.assertIn("<h3>From 2021 to 4c5bae6</h3>", new)
        self.assertIn("encoding simd_op split: 17 new encodings take some of its bit patterns", new)
        section = re.search(r'<section class="struct encoding" id="struct-fadd16".*?</section>', new, re.S).group(0)
        self.assertIn('<span class="badge">since 2021</span> encoding fadd16 now also decodes', section)
        self.assertNotIn('id="changes"', old)   # the oldest version has nothing to compare with

    def sections(self, page):
        """{struct name: (mnemonics, field names, names of fields in several pieces)}"""
        out = {}
        for m in re.finditer(r'<section class="struct encoding" id="struct-([^"]+)" data-name="[^"]*" '
                             r'data-mnemonics="([^"]*)">(.*?)\n</section>', page, re.S):
            name, words, body = m.group(1), m.group(2).split(), m.group(3)
            fields = set(re.findall(r'<tr id="field-[^"]+?-([A-Za-z0-9_]+)"', body))
            split = set(re.findall(r'<tr id="field-[^"]+?-([A-Za-z0-9_]+)" class="field"><td><code>[^<]*</code></td>'
                                   r'<td>\d+(?:\.\.\d+)? \d', body))
            out[name] = (words, fields, split)
        return out

    @unittest.skipUnless(os.path.isdir(SEEDS), "needs the seed documents")
    def test_the_agx_page_has_every_instruction_of_the_seed_page(self):
        with open(os.path.join(SEEDS, "002_9be1231add6061e8.txt"), encoding="utf-8") as f:
            seed = f.read().split("\n")
        start = seed.index("Move Instructions")
        previous = lambda i: next((seed[j] for j in range(i - 1, -1, -1) if seed[j].strip()), "")
        heads = [(i, m.group(1)) for i in range(start, len(seed))
                 for m in [re.match(r"^([a-z][a-z0-9_/]*)( \([^)]*\))?$", seed[i])]
                 if m and not re.match(r"^\d+$", previous(i).strip())]
        self.assertEqual(len(heads), 74)   # agx.md's list of the seed's instructions
        sections = self.sections(self.text["agx-g13-2021.html"])
        for k, (i, name) in enumerate(heads):
            end = heads[k + 1][0] if k + 1 < len(heads) else len(seed)
            names = set()   # the fields the seed's operand formulas name: D = ALUDst(Dx:D, Dt)
            for line in seed[i:end]:
                m = re.match(r"^[A-Z][A-Za-z0-9]* = \w+\((.*)\)\s*$", line)
                if m:
                    names |= set(re.findall(r"\b[A-Za-z][A-Za-z0-9_]*\b", m.group(1)))
            with self.subTest(instruction=name):
                candidates = [s for s, (words, _, _) in sections.items()
                              if name in words or name.replace("/", "_") == s]
                self.assertTrue(candidates, f"no encoding prints as {name}")
                # the seed calls the pieces of a split field Dx, Oh, Ol: the field D or O in several pieces
                missing = lambda s: [n for n in names if n not in sections[s][1]
                                     and not (n[-1] in "xhl" and n[:-1] in sections[s][2])]
                self.assertTrue(any(not missing(s) for s in candidates),
                                f"{name}: fields {sorted(names)}; missing {[(s, missing(s)) for s in candidates]}")

    @unittest.skipUnless(os.path.isdir(SEEDS), "needs the seed documents")
    def test_the_sph_page_has_every_field_of_the_seed_document(self):
        with open(os.path.join(SEEDS, "003_fb48a6bd6fde9a18.txt"), encoding="utf-8") as f:
            lines = [x.strip() for x in f.read().split("\n")]
        names = set()   # table rows: a name, then its width in bits
        for i, line in enumerate(lines):
            if re.match(r"^[A-Z][A-Za-z0-9_]*(\[\d+\])?$", line):
                after = [x for x in lines[i + 1:i + 4] if x]
                if after and re.match(r"^\d+$", after[0]):
                    names.add(re.sub(r"\[\d+\]$", "", line))
        self.assertGreater(len(names), 150)
        page = self.text["nv-sph.html"]
        shown = set(re.findall(r'<tr id="(?:field|value)-[^"]+?-([A-Za-z0-9_]+)"', page)) | \
            set(re.findall(r'id="(?:struct|type|enum)-([^"]+)"', page))
        self.assertEqual(sorted(names - shown), [])

    @unittest.skipUnless(CHROMIUM, "needs chromium (make installs it)")
    def test_every_page_in_a_browser(self):
        for path in self.pages:
            with self.subTest(page=os.path.basename(path)):
                r = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
                                    "--v=0", "--window-size=1400,1000", "--dump-dom", "file://" + path],
                                   capture_output=True, text=True, timeout=300)
                self.assertEqual(r.returncode, 0, r.stderr[-2000:])
                console = [x for x in r.stderr.splitlines() if ":CONSOLE" in x]
                self.assertEqual(console, [])
                m = re.search(r'<body data-selftest="([^"]*)"', r.stdout)
                self.assertIsNotNone(m, "the page's self-check did not run")
                self.assertEqual(m.group(1), "ok")


class Evidence(unittest.TestCase):
    @unittest.skipUnless(shutil.which(os.environ.get("CC", "cc")), "needs a C compiler")
    def test_doc_corpus_says_what_is_exercised(self):
        spec = SPEC.replace('<struct name="I" bits="16">', '<struct name="J" bits="16"><fixed bits="0..3" value="6"/>'
                            '<field name="v" bits="4..15" type="uint"/><display>j {v}</display></struct>\n'
                            '  <struct name="I" bits="16">').replace('<stream unit="I"/>', '<stream unit="U"/>').replace(
            "</isa>", '  <choice name="U"><alt type="I"/><alt type="J"/></choice>\n</isa>')
        with tempfile.TemporaryDirectory() as d:
            path, corpus = os.path.join(d, "t.xml"), os.path.join(d, "c.jsonl")
            with open(path, "w") as f:
                f.write(spec)
            with open(corpus, "w") as f:   # two I units: d = 1 and d = 3
                f.write('{"id": "a", "hex": "1500"}\n{"id": "b", "hex": "3580"}\n')
            r = subprocess.run([ISAGEN, "doc", path, "-o", d, "--corpus", corpus], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(os.path.join(d, "t.html"), encoding="utf-8") as f:
                page = f.read()
        i = re.search(r'id="struct-I".*?</section>', page, re.S).group(0)
        self.assertIn("<p>Corpus: 2 units decode as it.", i)
        self.assertIn("<code>d</code> 1, 3", i)
        j = re.search(r'id="struct-J".*?</section>', page, re.S).group(0)
        self.assertIn("No corpus unit decodes as it", j)


class DiffPage(unittest.TestCase):
    """isagen diff --format html: the entries, each layout change with the old
    and new diagrams side by side."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.path = os.path.join(cls.tmp, "agx.html")
        r = subprocess.run([ISAGEN, "diff", "--format", "html", "xml/agx-g13.xml:2021", "xml/agx-g13.xml:4c5bae6"],
                           cwd=ROOT, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        with open(cls.path, "w", encoding="utf-8") as f:
            f.write(r.stdout)
        cls.page = r.stdout

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_entries_with_diagrams_side_by_side(self):
        self.assertIn("<b>14 breaking, 10 compatible, 32 cosmetic (197 changes in all)</b>", self.page)
        entry = re.search(r'<div class="entry" id="entry-\d+">\n<div><span class="where"><code>Instruction.fadd16</code>'
                          r'.*?\n</div>\n(?=<div class="entry"|<h2)', self.page, re.S).group(0)
        self.assertIn("<h4>before: fadd16</h4>", entry)
        self.assertIn("<h4>after: fadd16</h4>", entry)
        self.assertEqual(entry.count('<figure class="diagram"'), 8)   # fadd16, fadd32, fmul16, fmul32: both sides
        # bit 15 is fixed to 1 before and the field L after
        self.assertRegex(entry, r'data-hi="15" data-lo="15" title="fixed_15[^"]*"><span class="label">1</span>')
        self.assertIn('data-hi="15" data-lo="15" title="L: bits 15, bool"><span class="label">L</span>', entry)
        self.assertIn('(old <a href="xml/agx-g13.xml#L', entry)
        r = subprocess.run([ISAGEN, "diff", "--format", "html", "--all-versions", "xml/tgsi.xml@HEAD", "xml/tgsi.xml"],
                           cwd=ROOT, capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)

    @unittest.skipUnless(CHROMIUM, "needs chromium (make installs it)")
    def test_in_a_browser(self):
        r = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
                            "--dump-dom", "file://" + self.path], capture_output=True, text=True, timeout=300)
        self.assertEqual([x for x in r.stderr.splitlines() if ":CONSOLE" in x], [])
        self.assertIn('<body data-selftest="ok"', r.stdout)


if __name__ == "__main__":
    unittest.main()
