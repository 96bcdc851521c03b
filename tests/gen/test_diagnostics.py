"""Every file in tests/xml-errors/ must fail to lint with exactly the
diagnostics its `<!-- expect: LINE:COL: error: MESSAGE -->` comments give
(in QEMU decodetree's tests/decode/err_* spirit: one file per mistake).
Files named asm-*.xml are linted with --asm: what the assembler cannot read."""
import glob
import os
import re
import subprocess
import unittest

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
ISAGEN = os.path.join(ROOT, "gen", "isagen")
ERRORS = sorted(glob.glob(os.path.join(ROOT, "tests", "xml-errors", "*.xml")))


def expectations(path):
    with open(path, encoding="utf-8", errors="replace") as f:  # a file may hold bytes that are not UTF-8 on purpose
        text = f.read()
    return [m.group(1).strip() for m in re.finditer(r"<!-- expect: (.*?) -->", text)]


class MalformedSpecs(unittest.TestCase):
    def test_there_are_cases(self):
        self.assertGreaterEqual(len(ERRORS), 20)

    def test_each_file_fails_with_its_exact_diagnostics(self):
        for path in ERRORS:
            rel = os.path.relpath(path, ROOT)
            with self.subTest(file=rel):
                want = [f"{rel}:{e}" for e in expectations(path)]
                self.assertTrue(want, f"{rel} has no expect comment")
                asm = ["--asm"] if os.path.basename(rel).startswith("asm-") else []
                r = subprocess.run([ISAGEN, "lint", "-q"] + asm + [rel], cwd=ROOT, capture_output=True, text=True)
                self.assertEqual(r.returncode, 1, f"{rel}: lint must fail\n{r.stderr}")
                got = [ln for ln in r.stderr.splitlines() if ln.strip()]
                self.assertEqual(got, want)


if __name__ == "__main__":
    unittest.main()
