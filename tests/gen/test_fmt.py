"""isagen fmt: every spec is in the canonical layout, and the layout never
changes what a spec means."""
import glob
import os
import re
import shutil
import subprocess
import tempfile
import unittest

from gen.isagenlib import cli, diff as D, fmt
from gen.isagenlib import template as T

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ISAGEN = os.path.join(ROOT, "gen", "isagen")
SPECS = sorted(glob.glob(os.path.join(ROOT, "xml", "*.xml")))
TOYS = sorted(glob.glob(os.path.join(ROOT, "tests", "specs", "*.xml")))


class Canonical(unittest.TestCase):
    def test_every_spec_is_in_canonical_form(self):
        r = subprocess.run([ISAGEN, "fmt", "--check"] + SPECS + TOYS, cwd=ROOT, capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_no_line_is_longer_than_160(self):
        for path in SPECS:
            with open(path, encoding="utf-8") as f:
                for n, line in enumerate(f, 1):
                    self.assertLessEqual(len(line.rstrip("\n")), fmt.WIDTH, f"{os.path.relpath(path, ROOT)}:{n}")

    def test_few_priorities(self):
        """Order says which alternative wins; priority= only where it cannot."""
        count = 0
        for path in SPECS:
            with open(path, encoding="utf-8") as f:
                count += len(re.findall(r"\bpriority=", f.read()))
        self.assertLess(count, 10)

    def test_check_names_a_file_out_of_form(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.xml")
            with open(path, "w") as f:
                f.write('<isa name="t"   language="3"><stream unit="S"/>'
                        '<struct bits="8" name="S"><field type="uint" name="a" bits="0..7"/></struct></isa>\n')
            r = subprocess.run([ISAGEN, "fmt", "--check", path], capture_output=True, text=True)
            self.assertEqual(r.returncode, 1)
            self.assertIn("not in canonical form", r.stderr)
            subprocess.run([ISAGEN, "fmt", path], check=True)
            with open(path) as f:
                self.assertEqual(f.read(), '<isa name="t" language="3">\n  <stream unit="S"/>\n'
                                           '  <struct name="S" bits="8"><field name="a" bits="0..7" type="uint"/></struct>\n'
                                           '</isa>\n')
            self.assertEqual(subprocess.run([ISAGEN, "fmt", "--check", path]).returncode, 0)


class MeaningKept(unittest.TestCase):
    """The formatter works on text; the model is the judge.  Each spec is
    first written in an ugly layout (every template and expression on one
    line, attributes in reverse order), then formatted: the model must be
    the original's, and formatting again must change nothing."""

    def test_formatting_keeps_every_model(self):
        for path in SPECS + TOYS:
            with self.subTest(spec=os.path.relpath(path, ROOT)), tempfile.TemporaryDirectory() as d:
                ugly = os.path.join(d, os.path.basename(path))
                shutil.copy(path, ugly)
                with open(ugly, encoding="utf-8") as f:
                    text = f.read()
                # templates on one line: a line break and its indentation print nothing
                text = re.sub(r"(<display[^>]*>)(.*?)(</display>)",
                              lambda m: m.group(1) + re.sub(r"\n[ \t]*", "", m.group(2)) + m.group(3), text, flags=re.S)
                with open(ugly, "w", encoding="utf-8") as f:
                    f.write(text)
                subprocess.run([ISAGEN, "fmt", ugly], check=True)
                with open(ugly, encoding="utf-8") as f:
                    once = f.read()
                subprocess.run([ISAGEN, "fmt", ugly], check=True)
                with open(ugly, encoding="utf-8") as f:
                    self.assertEqual(f.read(), once, "formatting twice changes nothing")
                for v in cli.version_names(path):
                    a, b = cli.load_spec(path, version=v), cli.load_spec(ugly, version=v)
                    self.assertEqual([str(c.text) for c in D.diff(a, b)], [], f"version {v}")


class TemplateLines(unittest.TestCase):
    def test_breaks_only_between_directives_away_from_spaces(self):
        text = "op {list \", \"}" + "".join(f"{{item}}{{Src(a{i}, t{i})}}" for i in range(12)) + "{end} {if x}.sat{end}"
        lines = fmt.template_lines(text, 4, width=60)
        self.assertGreater(len(lines), 1)
        for ln in lines:
            self.assertTrue(ln.startswith("    "))
            self.assertFalse(ln.endswith(" "), ln)
        # as element text: a line break before the first line and after the last
        self.assertEqual(T.text_of(T.parse("\n" + "\n".join(lines) + "\n  ")), T.text_of(T.parse(text)))


if __name__ == "__main__":
    unittest.main()
