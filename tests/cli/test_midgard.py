"""isa on Midgard: --batch text identical to Mesa 22.3.6's for every corpus
record, each printed for the GPU the record names (--gpu), with the quirks
we fix (tests/corpus/midgard.quirks.json) set aside; --json units; isa
check per GPU; the quirk table of docs/specs/midgard.md against the file
the tests read."""
import collections
import json
import os
import re
import unittest

from .common import CORPUS, ROOT, corpus, isa

with open(os.path.join(CORPUS, "midgard.quirks.json"), encoding="utf-8") as _f:
    QUIRKS = json.load(_f)
FIXED = {q for q, c in QUIRKS["quirks"].items() if c["choice"] == "fix"}


def constants_set_aside(text):
    """Constant operands (#v, <v, ...>, not the << of a shift) become #K: what
    a fixed quirk changes (as test_corpus.c's constant_operands)."""
    return re.sub(r"#[^,\n]*|<(?!<)[^<>\n]*>", "#K", text.replace("<<", "\0")).replace("\0", "<<")


def batch(entries, gpu):
    code, out, err = isa("dis", "--isa", "midgard", "--gpu", gpu, "--batch", "-",
                         stdin="".join(e["hex"] + "\n" for e in entries))
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


class Midgard(unittest.TestCase):
    def test_every_program_prints_like_mesa_for_its_gpu(self):
        entries = corpus("midgard")
        by_gpu = collections.defaultdict(list)
        for e in entries:
            by_gpu[e["gpu"]].append(e)
        self.assertEqual(len(by_gpu), 8)
        exact = set_aside = 0
        for gpu, group in by_gpu.items():
            for e, r in zip(group, batch(group, gpu)):
                self.assertTrue(r["ok"], f"{e['hex']}: {r['error']}")
                ours = r["text"].rstrip("\n")  # the corpus drops every trailing newline
                if FIXED & set(e["quirks"]):
                    self.assertEqual(constants_set_aside(ours), constants_set_aside(e["text"]), e["hex"])
                    set_aside += 1
                else:
                    self.assertEqual(ours, e["text"], f"{gpu} {e['hex']}")
                    exact += 1
        self.assertEqual(exact + set_aside, 1500)
        self.assertLess(set_aside, 70)

    def test_the_gpu_changes_texture_register_names(self):
        h2 = "12144b23a03ce4000000110001000100"  # H2 of the fact sheet
        code, t720, _ = isa("dis", "--isa", "midgard", "--gpu", "t720", "--hex", h2)
        self.assertEqual(code, 0)
        code, t860, _ = isa("dis", "--isa", "midgard", "--hex", h2)
        self.assertEqual(code, 0)
        self.assertIn("AL0.i32", t720)
        self.assertIn("R1.xyxx.32", t720)
        self.assertIn("TA0.i32", t860, "t860 is the default")
        self.assertIn("AT1.xyxx.32", t860)
        code, _, err = isa("dis", "--isa", "midgard", "--gpu", "t999", "--hex", h2)
        self.assertEqual(code, 2)
        self.assertIn("--gpu t999", err)

    def test_json_units_name_the_bundle_kind_and_fields(self):
        # D1 (fact sheet): an ALU bundle with constants, then one without
        e = corpus("midgard")[1]
        code, out, err = isa("dis", "--isa", "midgard", "--gpu", "t760", "--json", "--hex", e["hex"])
        self.assertEqual(code, 0, err)
        units = [json.loads(line) for line in out.splitlines()]
        self.assertEqual([u["name"] for u in units], ["Alu", "Alu"])
        self.assertEqual([u["size"] for u in units], [32, 16], "bytes")
        f = units[0]["fields"]
        self.assertEqual((f["ctrl.size"], f["ctrl.vadd"], f["ctrl.cbr"], f["vadd.op"]), (1, 1, 1, 0x10))
        self.assertEqual(f["consts.w[0]"], 0x3FA66666)
        self.assertTrue(units[0]["text"].startswith("FADD.f32 R0.clamp_0_1, <1.3, 0.2, 0.8, 1>, U0.zzzz.neg\n"))

    def test_check_knows_each_gpus_quirks(self):
        # C2 was compiled for the T860: its writeout tags fault on a T760
        c2 = corpus("midgard")[11]["hex"]
        code, out, _ = isa("check", "--isa", "midgard", "--gpu", "t860", "--hex", c2)
        self.assertEqual((code, out), (0, ""))
        code, out, _ = isa("check", "--isa", "midgard", "--gpu", "t760", "--hex", c2)
        self.assertEqual(code, 1)
        self.assertEqual(out.count("[writeout-tag]"), 2, out)

    def test_bad_input(self):
        code, _, err = isa("dis", "--isa", "midgard", "--hex", "0b000200" + "00" * 12)  # alu/16 in one quadword
        self.assertEqual(code, 1)
        self.assertIn("truncated", err)
        code, out, _ = isa("dis", "--isa", "midgard", "--hex", "00" * 16)
        self.assertEqual(code, 0)
        self.assertTrue(out.startswith("\t/* XXX: invalid next tag */\nUnknown word type 0:\n"), out)

    def test_the_docs_quirk_table_is_the_one_the_tests_read(self):
        with open(os.path.join(ROOT, "docs", "specs", "midgard.md"), encoding="utf-8") as f:
            rows = dict(re.findall(r"^\| (Q\d+) \| (fix|reproduce) \|", f.read(), re.M))
        self.assertEqual(rows, {q: c["choice"] for q, c in QUIRKS["quirks"].items()})


if __name__ == "__main__":
    unittest.main()
