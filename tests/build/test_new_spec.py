"""Adding a spec is adding its file: a toy spec copied into a scratch copy
of the checkout as xml/toy-new.xml, with a corpus tests/corpus/toy-new.jsonl,
is built into the library and `isa`, and the generic corpus test runs over
its records -- with no other edit anywhere.

The corpus texts below are derived by hand from the display templates of
tests/specs/toy-varlen.xml (the spec copied in), not printed by isagen:
    Nop      bits 0..7 = 0, bit 8 must be one        00 01        "nop"
    Flow     bits 0..7 = 1; 8..15 = 0xff: discard    01 ff        "discard"
             else jump {target} (type hex)           01 10        "jump 0x10"
    Add      0..6 = 0x0e, D 7..12 = 1, A 13..20 = 5, At 21..22 = 1 (register),
             B 23..30 = 7, Bt 31 = 0 (immediate):  0x03a0a08e -> 8e a0 a0 03
             "add r{D}, {a}, {b}"                   -> "add r1, r5, #7"
"""
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

from tests.build.common import OUT, ROOT, make, make_env

RECORDS = [
    {"isa": "toy-new", "id": "nop", "hex": "0001", "text": "nop"},
    {"isa": "toy-new", "id": "discard", "hex": "01ff", "text": "discard"},
    {"isa": "toy-new", "id": "jump", "hex": "0110", "text": "jump 0x10"},
    {"isa": "toy-new", "id": "add", "hex": "8ea0a003", "text": "add r1, r5, #7"},
    {"isa": "toy-new", "id": "program", "hex": "00010110", "text": "nop\njump 0x10"},
]


def tracked_files():
    r = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], capture_output=True)
    if r.returncode == 0:
        return [f for f in r.stdout.decode().split("\0") if f]
    out = []
    for base, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in (".git", "out") and os.path.join(base, d) != OUT]
        out += [os.path.relpath(os.path.join(base, f), ROOT) for f in files]
    return out


class NewSpec(unittest.TestCase):
    def test_a_spec_file_and_a_corpus_are_all_it_takes(self):
        with tempfile.TemporaryDirectory() as scratch:
            for rel in tracked_files():
                src = os.path.join(ROOT, rel)
                if os.path.isfile(src):
                    os.makedirs(os.path.join(scratch, os.path.dirname(rel)), exist_ok=True)
                    shutil.copy2(src, os.path.join(scratch, rel))
            # the build so far (times kept), so that only what the new spec adds is built
            os.makedirs(os.path.join(scratch, "out"), exist_ok=True)
            for sub in ("specs.mk", "gen", "obj", "lib", "bin", "tests"):
                src, dst = os.path.join(OUT, sub), os.path.join(scratch, "out", sub)
                if os.path.isdir(src):
                    shutil.copytree(src, dst, copy_function=shutil.copy2)
                elif os.path.exists(src):
                    shutil.copy2(src, dst)
            with open(os.path.join(ROOT, "tests", "specs", "toy-varlen.xml"), encoding="utf-8") as f:
                text = f.read()
            self.assertIn('<isa name="toy-varlen"', text)
            with open(os.path.join(scratch, "xml", "toy-new.xml"), "w", encoding="utf-8") as f:
                f.write(text.replace('<isa name="toy-varlen"', '<isa name="toy-new"', 1))
            with open(os.path.join(scratch, "tests", "corpus", "toy-new.jsonl"), "w", encoding="utf-8") as f:
                f.write("".join(json.dumps(r) + "\n" for r in RECORDS))

            r = make("-j2", "out/bin/isa", "out/tests/unit-tests", directory=scratch)
            self.assertEqual(r.returncode, 0, r.stdout[-3000:] + r.stderr[-3000:])
            isa = os.path.join(scratch, "out", "bin", "isa")
            listed = subprocess.run([isa, "list"], capture_output=True, text=True).stdout
            self.assertIn("toy-new ", listed)
            for rec in RECORDS:
                got = subprocess.run([isa, "dis", "--isa", "toy-new", "--hex", rec["hex"]], capture_output=True,
                                     text=True)
                self.assertEqual((got.returncode, got.stdout.rstrip("\n")), (0, rec["text"]), rec["id"])
            # the generic corpus test knows the new corpus, for the new spec, and passes on it
            with open(os.path.join(scratch, "out", "tests", "gen", "corpora.c"), encoding="utf-8") as f:
                self.assertIn('{"toy-new", "toy-new.jsonl", corpus_toy_new, &corpus_toy_new_count', f.read())
            r = subprocess.run([os.path.join(scratch, "out", "tests", "unit-tests"), "--filter", "corpus/*"],
                               cwd=scratch, capture_output=True, text=True,
                               env=dict(make_env(), ISAGEN_CORPUS_DIR=os.path.join(scratch, "tests", "corpus")))
            self.assertEqual(r.returncode, 0, r.stdout[-3000:] + r.stderr[-3000:])
            m = re.search(r"Tested: (\d+) \| Passing: (\d+) \| Failing: 0", r.stdout + r.stderr)
            self.assertTrue(m and m.group(1) == m.group(2) and int(m.group(1)) >= 1, r.stdout + r.stderr)


if __name__ == "__main__":
    unittest.main()
