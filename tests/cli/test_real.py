"""`isa check` on the real programs Mesa's compilers made
(tests/corpus/real-*.jsonl, README-real.md): a validator that objects to
what a real compiler writes is wrong, so every record must check clean,
but for those marked driver_unsupported (code for features no driver
exposes, which a validator may rightly object to) and the findings listed
in KNOWN_FINDINGS below, each with its reason."""
import collections
import glob
import json
import os
import subprocess
import unittest

from tests import corpora

from .common import CORPUS, ISA, isa

# (spec, rule, field): (how many today, why).  A count that grows or a new
# kind of finding fails the test; one that shrinks too, so the list stays true.
KNOWN_FINDINGS = {
}



class RealPrograms(unittest.TestCase):
    def test_real_programs_check_clean(self):
        found = collections.Counter()
        where = {}
        checked = 0
        specs = [line.split()[0] for line in isa("list")[1].splitlines() if line[:1] not in ("", " ")]
        for path in sorted(glob.glob(os.path.join(CORPUS, "real-*.jsonl"))):
            if os.path.basename(path) == "real-lima-pp.jsonl":
                continue  # the programs of real-lima-pp-program.jsonl again, as listings
            spec = corpora.spec_for_key(corpora.corpus_key(path), specs)  # which spec a corpus is for
            self.assertIsNotNone(spec, path)
            with open(path, encoding="utf-8") as f:
                records = [json.loads(line) for line in f if line.strip()]
            for r in records:
                if r.get("driver_unsupported"):
                    continue
                opts = ["--gpu", r["gpu"]] if r.get("gpu") else []
                p = subprocess.run([ISA, "check", "--isa", spec, *opts, "--json", "--hex", r["hex"]],
                                   capture_output=True, text=True)
                self.assertIn(p.returncode, (0, 1), p.stderr)
                checked += 1
                for line in p.stdout.splitlines():
                    finding = json.loads(line)
                    key = (spec, finding["rule"], finding["field"])
                    found[key] += 1
                    where.setdefault(key, f"{r.get('source')} at {finding['offset']:#x}: {finding['message']}")
        self.assertGreater(checked, 1000)
        for key, n in found.items():
            self.assertIn(key, KNOWN_FINDINGS, f"a finding on real compiler output: {key}, {n} times "
                                               f"(first: {where[key]})")
            self.assertEqual(n, KNOWN_FINDINGS[key][0], f"{key}: {n} findings, the list says "
                                                        f"{KNOWN_FINDINGS[key][0]}: update it (and its reason)")
        for key in KNOWN_FINDINGS:
            self.assertIn(key, found, f"{key} is listed but no longer found: take it off the list")


if __name__ == "__main__":
    unittest.main()
