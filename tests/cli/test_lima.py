"""isa on the Lima corpora: --batch text identical to Mesa 22.3.6 for every
entry, --json fields, MBS files, --offsets, bad input."""
import json
import os
import struct
import tempfile
import unittest

from .common import corpus, isa


def batch(spec, entries):
    code, out, err = isa("dis", "--isa", spec, "--batch", "-", stdin="\n".join(e["hex"] for e in entries) + "\n")
    return code, [json.loads(x) for x in out.splitlines()]


def strip_final_newline(text):
    return text[:-1] if text.endswith("\n") else text


class Corpus(unittest.TestCase):
    def check_corpus(self, spec, name):
        entries = corpus(name)
        code, results = batch(spec, entries)
        self.assertEqual(code, 0)
        self.assertEqual(len(results), len(entries))
        for e, r in zip(entries, results):
            self.assertTrue(r["ok"], f"{e.get('id', e['hex'])}: {r['error']}")
            self.assertEqual(strip_final_newline(r["text"]), e["text"], e["hex"])

    def test_pp_prints_like_mesa(self):
        self.check_corpus("lima-pp", "lima-pp")

    def test_gp_prints_like_mesa(self):
        self.check_corpus("lima-gp", "lima-gp")

    def test_json_fields(self):
        for spec in ("lima-pp", "lima-gp"):
            for e in corpus(spec)[:200]:
                if e.get("program"):
                    continue
                code, out, _ = isa("dis", "--isa", spec, "--json", "--hex", e["hex"])
                obj = json.loads(out.splitlines()[0])
                self.assertEqual(obj["fields"], e["fields"], e["hex"])
                self.assertEqual(obj["size"], len(e["hex"]) // 2)

    def test_excluded_combiner_ops_are_reported(self):
        for e in corpus("lima-pp-excluded")[:20]:
            code, out, _ = isa("check", "--isa", "lima-pp", "--hex", e["hex"])
            self.assertEqual(code, 1)
            self.assertIn("[combine-op-unknown]", out)
            _, text, _ = isa("dis", "--isa", "lima-pp", "--hex", e["hex"])
            self.assertRegex(text, r"op1[0-5]")


MBS_PP = struct.pack("<23I", 0x3153424d, 0x54, 0x41524643, 0x4c, 5, 0x41545346, 8, 1, 1, 0x53494446, 4, 0,
                     0x55554246, 8, 0x100, 0, 0x4e494244, 0x14, 0x00021025, 0x00000e4c, 0x03c007cf, 0x03c003c0,
                     0x000003c0)


class Files(unittest.TestCase):
    def test_mbs_file(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "clear.mbs")
            with open(path, "wb") as f:
                f.write(MBS_PP)
            code, out, err = isa("dis", "--isa", "lima-pp", path)
            self.assertEqual((code, err), (0, ""))
            self.assertEqual(out, "mov.v1 $0 ^const0, const0 1.000000 1.000000 1.000000 1.000000, stop\n")
            code, out, _ = isa("check", "--isa", "lima-pp", path)
            self.assertEqual((code, out), (0, ""))
            with open(path, "wb") as f:
                f.write(MBS_PP[:60])
            code, out, err = isa("dis", "--isa", "lima-pp", path)
            self.assertEqual(code, 1)
            self.assertIn("damaged MBS container: truncated input", err)
        # the magic alone, or cut inside the size after it: damaged too,
        # never decoded as instructions
        for cut in (4, 5, 7):
            code, out, err = isa("dis", "--isa", "lima-pp", "--hex", MBS_PP[:cut].hex())
            self.assertEqual((code, out), (1, ""), cut)
            self.assertIn("damaged MBS container: truncated input", err)

    def test_offsets(self):
        prog = "250402000c000000cf07e001000000b0f5050000" + "e6050000203c00f100000000001000394e0e0000cf070000"
        code, out, _ = isa("dis", "--isa", "lima-pp", "--offsets", "--hex", prog)
        self.assertEqual(out.splitlines(), ["@     0: mov.v0 $0 ^const0.xxxx , const0 1.000000 0.000000 0.000000 -1.677734, stop",
                                            "@     5: load.v $1 0.xy, texld 0, mov.v0 $0 ^texture , sync, stop"])

    def test_bad_input(self):
        cases = [
            ("lima-pp", "250402000c000000cf07e001", "truncated input: Const needs 64 bits at bit 75, 21 available"),
            ("lima-pp", "220402000c000000cf07e001000000b0f5050000", "size mismatch: Instruction: declared size is smaller than the content"),
            ("lima-gp", "63d44aadb502804380ff4701308d0a", "truncated input: Instruction needs 128 bits"),
        ]
        for spec, hx, msg in cases:
            code, _, err = isa("dis", "--isa", spec, "--hex", hx)
            self.assertEqual(code, 1, err)
            self.assertIn(msg, err)


if __name__ == "__main__":
    unittest.main()
