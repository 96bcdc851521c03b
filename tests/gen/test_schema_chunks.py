"""Schema validation of long runs of siblings a chunk at a time
(xmlload.CHUNK): what it finds, where, and that the file is read as it is."""
import os
import subprocess
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ISAGEN = os.path.join(ROOT, "gen", "isagen")


def spec(n, bad=None, comment_every=0):
    """An enum of n values (value `bad` missing its value= attribute)."""
    lines = []
    for i in range(n):
        attr = "vlue" if i == bad else "value"
        lines.append(f'    <value name="V{i}" {attr}="{i}"/>')
        if comment_every and i % comment_every == 0:
            lines.append(f"    <!-- {i} -->")
    return ('<?xml version="1.0"?>\n<isa name="t">\n  <enum name="E" width="12">\n' + "\n".join(lines) +
            '\n  </enum>\n  <stream unit="S"/>\n  <struct name="S" bits="32">\n'
            '    <field name="a" bits="0..11" type="E"/>\n    <reserved bits="12..31"/>\n  </struct>\n</isa>\n')


class Chunks(unittest.TestCase):
    def lint(self, text, *extra):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.xml")
            with open(path, "w") as f:
                f.write(text)
            return subprocess.run([ISAGEN, *extra, "lint", "-q", path], capture_output=True, text=True), path

    def test_a_long_valid_run_is_valid(self):
        r, _ = self.lint(spec(1000, comment_every=97))
        self.assertEqual((r.returncode, r.stderr), (0, ""))

    def test_a_bad_element_in_any_chunk_is_found_at_its_line(self):
        for bad in (0, 255, 256, 700, 999):
            r, path = self.lint(spec(1000, bad))
            self.assertEqual(r.returncode, 1, bad)
            self.assertEqual(r.stderr, f"{path}:{4 + bad}:5: error: <value> needs attribute 'value'\n")

    def test_the_run_is_read_in_its_order_after_validation(self):
        # the generated enum names every value in order: nothing was moved
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.xml")
            with open(path, "w") as f:
                f.write(spec(600, comment_every=50))
            subprocess.run([ISAGEN, "generate", path, "-o", d], check=True)
            with open(os.path.join(d, "t.h")) as f:
                text = f.read()
            positions = [text.index(f"T_E_V{i} = {i},") for i in range(600)]
            self.assertEqual(positions, sorted(positions))


if __name__ == "__main__":
    unittest.main()
