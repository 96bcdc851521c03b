"""isa on TGSI: --batch text identical to Mesa 22.3.6's tgsi_dump for every
corpus program, --json, --offsets, isa check's exit status, bad input."""
import json
import struct
import unittest

from .common import corpus, isa

# tgsi.md section 7, vector A, with the instruction NrTokens erratum applied
VEC_A = [0x00000b02, 0x00000004, 0x006f2040, 0x00000000, 0x00000003, 0x00000001, 0x002f3030,
         0x00000000, 0x00000001, 0x00a01022, 0x000000f3, 0x39000002, 0x00075002]


def hexwords(words):
    return struct.pack(f"<{len(words)}I", *words).hex()


class Tgsi(unittest.TestCase):
    def test_every_corpus_program_prints_like_tgsi_dump(self):
        entries = corpus("tgsi")
        code, out, err = isa("dis", "--isa", "tgsi", "--batch", "-", stdin="\n".join(e["hex"] for e in entries) + "\n")
        self.assertEqual(code, 0, err)
        results = [json.loads(line) for line in out.splitlines()]
        self.assertEqual(len(results), len(entries))
        for e, r in zip(entries, results):
            self.assertTrue(r["ok"], f"{e['note']}: {r['error']}")
            self.assertEqual(r["text"].rstrip("\n"), e["text"], e["note"])

    def test_json_names_items_and_fields(self):
        code, out, _ = isa("dis", "--isa", "tgsi", "--json", "--hex", hexwords(VEC_A))
        self.assertEqual(code, 0)
        units = [json.loads(line) for line in out.splitlines()]
        self.assertEqual([u["name"] for u in units], ["Header", "Declaration", "Declaration", "Instruction", "Instruction"])
        self.assertEqual([u["offset"] for u in units], [0, 8, 24, 36, 48])
        self.assertEqual(units[0]["fields"]["Processor"], 4)
        self.assertEqual(units[1]["fields"]["semantic.Name"], 1)
        self.assertEqual(units[3]["fields"]["insn.Opcode"], 1)
        self.assertEqual(units[3]["fields"]["dst[0].reg.File"], 3)
        self.assertEqual(units[3]["text"], "  0: MOV OUT[0], IN[0]")

    def test_offsets_are_token_indices(self):
        code, out, _ = isa("dis", "--isa", "tgsi", "--offsets", "--hex", hexwords(VEC_A))
        self.assertEqual(code, 0)
        self.assertEqual([line[:6] for line in out.splitlines()], ["   0: ", "   2: ", "   6: ", "   9: ", "  12: "])

    def test_check_exit_status(self):
        code, out, _ = isa("check", "--isa", "tgsi", "--hex", hexwords(VEC_A))
        self.assertEqual((code, out), (0, ""))
        bad = list(VEC_A)
        bad[11] = 0x390000c2  # IN[3]: not declared
        code, out, _ = isa("check", "--isa", "tgsi", "--hex", hexwords(bad))
        self.assertEqual(code, 1)
        self.assertIn("error: src[0].reg.Index: IN[3] is read before any declaration covers it [declared]", out)

    def test_bad_input(self):
        code, _, err = isa("dis", "--isa", "tgsi", "--hex", hexwords(VEC_A)[:-6])
        self.assertEqual(code, 1)
        self.assertIn("truncated", err)
        code, _, err = isa("dis", "--isa", "tgsi", "--hex", hexwords([0x00000102, 4, 0x0000000f]))
        self.assertEqual(code, 1)
        self.assertIn("no alternative matches", err)


if __name__ == "__main__":
    unittest.main()
