"""isa as: text to bytes with a spec's assembler, its output forms, --batch,
its errors and exit codes.

The bytes an assembler writes are compared with a corpus entry's only where
the text fixes every bit of them (each such case says why); elsewhere the
text does not show every bit, and the test is that isa dis prints the bytes
as the very text that was assembled; or the test is the reference encoder's
own bytes, where the spec says how it chooses what the text does not show
(Midgard's real programs: field defaults and <prefer>)."""
import json
import os
import re
import subprocess
import tempfile
import unittest

from .common import ISA, ROOT, corpus, isa

# AGX instructions whose text fixes every bit (reviewed field by field with
# isa dis --json; the reserved bits are zero, as the XML defaults them):
AGX_EXACT = [
    # mov_imm, 16-bit value: Dt (no .cache), D = 1 (r0h) fits the 4-byte form's
    # 6 bits, so the short form; imm16 = 0x133d
    ("mov_imm          r0h, 4925", "62023d13"),
    # r56h.cache is D = 113: past 6 bits, so only the 6-byte form (L = 1,
    # Dx = 1) holds it; imm16 = 0x88ab
    ("mov_imm          r56h.cache, 34987", "e2e2ab880010"),
    # a 32-bit value: only the 8-byte form holds imm32 = 0xac5b00b9; r3 is a
    # 32-bit register (Dt = 2), 0b1 the kill bit
    ("mov_imm          r3, 2891645113, 0b1", "628db9005bac0040"),
]

# the long (6-byte, L = 1) form of mov_imm r0h, 4925: decodes and prints as the
# short form does, so only a listing's next offset asks for it
AGX_LONG_R0H = "62823d130000"


def run(*args, stdin=b""):
    """Run isa with bytes in and out: (exit status, stdout bytes, stderr text)."""
    r = subprocess.run([ISA] + list(args), input=stdin, capture_output=True, cwd=ROOT)
    return r.returncode, r.stdout, r.stderr.decode()


def dis(spec, hexstr, *more):
    code, out, err = isa("dis", "--isa", spec, *more, "--hex", hexstr)
    assert code == 0, err
    return out


def error_lines(err):
    """(file, line, col, message) of each FILE:LINE:COL: error: line of stderr."""
    found = []
    for line in err.splitlines():
        m = re.fullmatch(r"(.+):(\d+):(\d+): error: (.+)", line)
        if not m:
            raise AssertionError(f"not FILE:LINE:COL: error: ...: {line!r}")
        found.append((m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)))
    return found


class Scratch(unittest.TestCase):
    def setUp(self):
        self._dir = tempfile.TemporaryDirectory()
        self.dir = self._dir.name

    def tearDown(self):
        self._dir.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        return path


class LimaGp(Scratch):
    def setUp(self):
        super().setUp()
        self.entries = corpus("lima-gp")
        # a four-instruction program as isa dis prints it (^N and NNN: depend on the index)
        self.program_hex = "".join(e["hex"] for e in self.entries[:4])
        self.program = dis("lima-gp", self.program_hex)

    def test_file_gives_bytes_that_print_the_text_again(self):
        for e in self.entries[::97]:
            with self.subTest(hex=e["hex"]):
                path = self.write("one.s", e["text"] + "\n")
                code, out, err = run("as", "--isa", "lima-gp", path)
                self.assertEqual((code, err), (0, ""))
                # a Lima GP instruction is 128 bits, whatever its text
                self.assertEqual(len(out), len(bytes.fromhex(e["hex"])))
                self.assertEqual(dis("lima-gp", out.hex()), e["text"] + "\n")

    def test_a_one_source_adder_operation_keeps_its_second_source_0(self):
        # a real program (real-lima-gp.jsonl): floor prints one source;
        # Mesa's codegen leaves the other 0, where an unused adder's are
        # 21 (the field default).  lima-gp.xml's <fill>s say so, and the
        # program comes out as Mesa's very bytes.
        e = next(x for x in corpus("real-lima-gp")
                 if x["source"] == "generated_tests/spec/glsl-1.10/execution/built-in-functions/vs-fract-vec4:vs")
        self.assertIn("floor.a0", e["text"])
        code, out, err = run("as", "--isa", "lima-gp", "--hex", "-", stdin=(e["text"] + "\n").encode())
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out.decode().strip(), e["hex"])

    def test_a_program_assembles_unit_by_unit(self):
        path = self.write("prog.s", self.program)
        code, out, err = run("as", "--isa", "lima-gp", path)
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(len(out), 4 * 16)
        self.assertEqual(dis("lima-gp", out.hex()), self.program)
        # instruction 1's text at index 0: its ^N name results of the
        # instructions before it, which index 0 has not
        second = "".join(self.program.splitlines(keepends=True)[2:4])
        self.assertTrue(second.startswith("001:\tmov.a1 ^7 "), second)
        code, out, err = run("as", "--isa", "lima-gp", "-", stdin=second.replace("001:", "000:").encode())
        self.assertEqual((code, out), (1, b""), err)
        self.assertEqual(error_lines(err)[0][1], 1)  # (and its later line: test_one_error_per_bad_line)

    def test_hex_output_stdin_and_output_file(self):
        path = self.write("prog.s", self.program)
        code, binary, _ = run("as", "--isa", "lima-gp", path)
        self.assertEqual(code, 0)
        code, out, err = run("as", "--isa", "lima-gp", "--hex", path)
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out.decode(), binary.hex() + "\n")
        self.assertRegex(out.decode(), r"^[0-9a-f]{128}\n$")
        # - is standard input
        code, out, err = run("as", "--isa", "lima-gp", "-", stdin=self.program.encode())
        self.assertEqual((code, err, out), (0, "", binary))
        # -o OUT, --output=OUT: the file gets the bytes, standard output nothing
        for opt in (["-o", os.path.join(self.dir, "a.bin")], ["--output=" + os.path.join(self.dir, "b.bin")]):
            with self.subTest(opt=opt):
                target = opt[-1].split("=", 1)[-1]
                code, out, err = run("as", "--isa", "lima-gp", path, *opt)
                self.assertEqual((code, out, err), (0, b"", ""))
                with open(target, "rb") as f:
                    self.assertEqual(f.read(), binary)
        # --hex with -o: the hex text goes into the file
        target = os.path.join(self.dir, "c.hex")
        code, out, _ = run("as", "--isa", "lima-gp", "--hex", "-o", target, path)
        self.assertEqual((code, out), (0, b""))
        with open(target, encoding="ascii") as f:
            self.assertEqual(f.read(), binary.hex() + "\n")

    def test_an_error_leaves_no_output_file(self):
        path = self.write("bad.s", "000:\tmov.a1 ^1 t[0].q\n")
        target = os.path.join(self.dir, "out.bin")
        code, out, err = run("as", "--isa", "lima-gp", path, "-o", target)
        self.assertEqual((code, out), (1, b""))
        self.assertFalse(os.path.exists(target))
        # the column is the byte of 'q' (the tab counts one)
        found = error_lines(err)
        self.assertEqual([f[:3] for f in found], [(path, 1, 21)])
        self.assertRegex(found[0][3], r"^expected .*'w'.*; found 'q'$")

    def test_comment_lines_and_blank_lines_are_accepted(self):
        lines = self.program.splitlines(keepends=True)
        # a comment or a blank line inside instruction 0 (between its lines), and before it
        text = "# Lima GP\n\n" + lines[0] + "   ; the complex unit:\n\n" + "".join(lines[1:])
        code, out, err = run("as", "--isa", "lima-gp", "-", stdin=text.encode())
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(dis("lima-gp", out.hex()), self.program)

    def test_comments_and_blanks_keep_the_bytes(self):
        # Where the text is not exactly what isa dis prints, the encoding whose
        # blanks are nearest the text's is taken, not one that prints an extra
        # empty line ("\n\t": complex_src 0 with complex_op nop).
        code, want, _ = run("as", "--isa", "lima-gp", "-", stdin=b"000:\tmov.a1 ^1 t[0].z\n")
        self.assertEqual(code, 0)
        for text in ("000:\tmov.a1 ^1 t[0].z  # trailing comment\n", "000:  mov.a1   ^1\tt[0].z\n",
                     "000:\tmov.a1 ^1 t[0].z\n; a comment line after it\n"):
            with self.subTest(text=text):
                code, out, err = run("as", "--isa", "lima-gp", "-", stdin=text.encode())
                self.assertEqual((code, err), (0, ""))
                self.assertEqual(out, want)

    def bad_last_lines(self):
        """The program with the last line of instructions 1 and 3 wrong (0 and 2
        right); the file, and the columns of the wrong characters."""
        lines = self.program.splitlines(keepends=True)
        bad = list(lines)
        bad[3] = bad[3].replace("a0.w", "a0.q")        # 1's second line
        bad[11] = bad[11].replace("t[2].y", "t[2].v")  # 3's last line
        return self.write("bad.s", "".join(bad)), lines[3].index("a0.w") + 4, lines[11].index("t[2].y") + 6

    def test_several_errors_on_separate_instructions(self):
        path, _, _ = self.bad_last_lines()
        code, out, err = run("as", "--isa", "lima-gp", path)
        self.assertEqual((code, out), (1, b""))
        self.assertEqual([f[:2] for f in error_lines(err)], [(path, 4), (path, 12)])

    def test_an_error_in_a_later_line_of_an_instruction_points_at_it(self):
        # The instruction's first line alone is an instruction too (its later
        # lines may be left out); the error is still the 'q' it read to, not
        # "expected a number" where the next instruction would start.
        path, col1, col3 = self.bad_last_lines()
        code, _, err = run("as", "--isa", "lima-gp", path)
        self.assertEqual(code, 1)
        found = error_lines(err)
        self.assertEqual([f[:3] for f in found], [(path, 4, col1), (path, 12, col3)])
        self.assertTrue(found[0][3].endswith("found 'q'"), found[0])

    def test_one_error_per_bad_line(self):
        # After an error, the failed instruction's continuation lines are not
        # read as instructions of their own, and the index moves on past it.
        lines = self.program.splitlines(keepends=True)
        bad = list(lines)
        bad[0] = bad[0].replace("a0.w a0.w", "a0.w a0.q")
        bad[4] = bad[4].replace("^12", "%12")
        path = self.write("bad.s", "".join(bad))
        code, _, err = run("as", "--isa", "lima-gp", path)
        self.assertEqual(code, 1)
        self.assertEqual([f[1] for f in error_lines(err)], [1, 5])

    def test_a_wrong_index_is_reported_on_its_line(self):
        # An instruction whose NNN: is not its index (the number reads, but
        # contradicts the index) is reported on its own line, with the index.
        path = self.write("idx.s", "\n\n000:\tmov.a1 ^1 t[0].z\n002:\tmov.a1 ^7 t[0].z\n")
        code, _, err = run("as", "--isa", "lima-gp", path)
        self.assertEqual(code, 1)
        found = error_lines(err)
        self.assertEqual([f[1:3] for f in found], [(4, 1)])
        self.assertTrue(found[0][3].startswith("expected 1 here"), found[0])


class Agx(Scratch):
    def test_text_that_fixes_every_bit_gives_the_corpus_bytes(self):
        entries = {e["text"]: e["hex"] for e in corpus("agx")}
        for text, hexstr in AGX_EXACT:
            with self.subTest(text=text):
                self.assertEqual(entries.get(text), hexstr, "the reviewed entry is in the corpus")
                code, out, err = run("as", "--isa", "agx-g13", "--hex", "-", stdin=(text + "\n").encode())
                self.assertEqual((code, err), (0, ""))
                self.assertEqual(out.decode(), hexstr + "\n")

    def test_a_listing_assembles_back_to_its_bytes(self):
        # the exact units and a long form a listing's next offset asks for
        hexstr = AGX_EXACT[0][1] + AGX_LONG_R0H + "".join(h for _, h in AGX_EXACT[1:]) + AGX_EXACT[0][1]
        listing = dis("agx-g13", hexstr, "--offsets")
        self.assertTrue(listing.startswith("0: mov_imm") and "\n4: mov_imm          r0h, 4925\na: " in listing,
                        listing)
        path = self.write("listing.s", listing)
        code, out, err = run("as", "--isa", "agx-g13", "--hex", path)
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out.decode(), hexstr + "\n")
        # without the offsets, the shortest form of each: 2 bytes fewer
        code, out, err = run("as", "--isa", "agx-g13", "--hex", "-", stdin=dis("agx-g13", hexstr).encode())
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out.decode(), hexstr.replace(AGX_LONG_R0H, AGX_EXACT[0][1]) + "\n")

    def test_real_programs_end_with_the_compilers_eight_traps(self):
        # Mesa 22.3.6's listings (real-agx.jsonl) assemble to its very
        # bytes: the long forms their offsets say, then after the final
        # stop the eight traps its compiler writes (the stream's
        # after-stop), which no listing shows
        picks = [("tests/fast_color_clear/all-colors:fs", "preamble"),
                 ("tests/spec/arb_cull_distance/basic-cull-1:fs", "main")]
        entries = corpus("real-agx")
        for source, function in picks:
            e = next(x for x in entries if x["source"] == source and x["function"] == function)
            with self.subTest(source=source):
                self.assertTrue(e["text"].rstrip().endswith("stop"), e["text"])
                self.assertTrue(e["hex"].endswith("8800" + "0800" * 8), e["hex"])
                code, out, err = run("as", "--isa", "agx-g13", "--hex", "-", stdin=(e["text"] + "\n").encode())
                self.assertEqual((code, err), (0, ""))
                self.assertEqual(out.decode().strip(), e["hex"])
        # a text that does not end with stop gets nothing after it
        code, out, err = run("as", "--isa", "agx-g13", "--hex", "-", stdin=b"mov_imm r0h, 4925\n")
        self.assertEqual((code, err, out.decode()), (0, "", "62023d13\n"))

    def test_a_listing_with_skipped_zero_words_keeps_them(self):
        # isa dis skips the zero words between two instructions (where 32
        # zero bits start); assembled, the gap is zeros again
        hexstr = AGX_EXACT[0][1] + "00000000" + "0000" + AGX_EXACT[0][1]
        listing = dis("agx-g13", hexstr, "--offsets")
        self.assertEqual(listing.splitlines()[1][:3], "a: ", listing)
        code, out, err = run("as", "--isa", "agx-g13", "--hex", "-", stdin=listing.encode())
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out.decode(), hexstr + "\n")
        # an odd gap is no unit's length, nor zero words isa dis skips: the offset is wrong
        code, out, err = run("as", "--isa", "agx-g13", "--hex", "-",
                             stdin=listing.replace("a: ", "5: ").encode())
        self.assertEqual(code, 1)
        self.assertIn("expected this unit's offset prefix", err)

    def test_a_listing_keeps_the_lengths_its_offsets_say(self):
        # dfdx r19, r6l.abs, 6-byte form in the corpus where 4 bytes would do;
        # bits its text does not show differ, so the listing is what must agree
        dfdx = next(e["hex"] for e in corpus("agx") if e["text"] == "dfdx             r19, r6l.abs")
        self.assertEqual(len(dfdx), 12)
        hexstr = dfdx + AGX_EXACT[0][1]
        listing = dis("agx-g13", hexstr, "--offsets")
        self.assertEqual(listing.splitlines()[1][:3], "6: ")
        code, out, err = run("as", "--isa", "agx-g13", "-", stdin=listing.encode())
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(len(out), 10)
        self.assertEqual(dis("agx-g13", out.hex(), "--offsets"), listing)

    def test_listing_offsets_that_are_wrong_or_missing(self):
        for second in ("5: mov_imm          r0h, 4925\n", "mov_imm          r0h, 4925\n"):
            with self.subTest(second=second):
                code, out, err = run("as", "--isa", "agx-g13", "-",
                                     stdin=("0: mov_imm          r0h, 4925\n" + second).encode())
                self.assertEqual((code, out), (1, b""))
                found = error_lines(err)
                self.assertEqual([f[:3] for f in found], [("<stdin>", 2, 1)])
                self.assertIn("offset prefix", found[0][3])
                self.assertIn("byte 4", found[0][3])

    def test_comments_blanks_and_crlf_keep_the_bytes(self):
        clean = "".join(t + "\n" for t, _ in AGX_EXACT)
        code, want, _ = run("as", "--isa", "agx-g13", "-", stdin=clean.encode())
        self.assertEqual(code, 0)
        self.assertEqual(want.hex(), "".join(h for _, h in AGX_EXACT))
        noisy = ("# AGX\n\n   ; indented comment\n"
                 "  mov_imm   r0h ,4925   # trailing\n"
                 "\tmov_imm r56h.cache,\t34987;trailing\r\n"
                 "\n\n"
                 "mov_imm r3, 2891645113, 0b1 \n"
                 "# the end\n")
        code, out, err = run("as", "--isa", "agx-g13", "-", stdin=noisy.encode())
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out, want)

    def test_several_errors_one_per_bad_line(self):
        text = ("mov_imm          r0h, 4925\n"
                "mov_imm          r0q, 4925\n"
                "mov_imm          r1l, 7\n"
                "frobnicate r1\n"
                "mov_imm          r3l, 5\n"
                "  mov_imm r4l,\n")
        path = self.write("bad.s", text)
        code, out, err = run("as", "--isa", "agx-g13", path)
        self.assertEqual((code, out), (1, b""))
        found = error_lines(err)
        # the 'q'; the unknown mnemonic; the end of the line, where the value is missing
        self.assertEqual([f[:3] for f in found], [(path, 2, 20), (path, 4, 1), (path, 6, 15)])
        self.assertTrue(found[0][3].startswith("expected ") and found[0][3].endswith("found 'q, 4925'"), found[0])
        # the names nearest the text, and how many others there are
        self.assertTrue(found[1][3].startswith("expected 'f") and "(or one of " in found[1][3], found[1])
        self.assertTrue(found[1][3].endswith("found 'frobnicate r1'"), found[1])
        self.assertEqual(found[2][3], "expected a number; found the end of the line")

    def test_a_value_too_wide_for_its_field_is_an_error_on_its_line(self):
        for value in ("65536", "99999999"):
            with self.subTest(value=value):
                text = "mov_imm          r0h, 1\nmov_imm          r2l, %s\nmov_imm          r0h, 2\n" % value
                code, out, err = run("as", "--isa", "agx-g13", "-", stdin=text.encode())
                self.assertEqual((code, out), (1, b""))
                found = error_lines(err)
                self.assertEqual([f[1] for f in found], [2])
                # somewhere in the value, not before it
                self.assertGreaterEqual(found[0][2], len("mov_imm          r2l, ") + 1)


class Batch(Scratch):
    def answers(self, spec, lines, *where):
        stdin = "".join(line + "\n" for line in lines).encode()
        code, out, err = run("as", "--isa", spec, "--batch", *(where or ("-",)), stdin=stdin)
        objs = [json.loads(line) for line in out.decode().splitlines()]
        for o in objs:
            self.assertEqual(list(o), ["text", "hex", "ok", "error"])
        return code, objs, err

    def test_one_json_object_per_line(self):
        entries = corpus("lima-gp")
        good = entries[1]["text"]  # two lines: \n and \t escaped in the JSON string
        lines = [
            json.dumps(good),
            json.dumps("000:\tmov.a1 ^1 t[0].q"),
            "not json",
            '"\\u0030\\u0030\\u0030:\\tmov.a1 ^1 t[0].z"',  # 000: as \u escapes
            json.dumps(good) + "  ",
        ]
        code, objs, err = self.answers("lima-gp", lines)
        self.assertEqual(code, 1, "a bad line makes the exit status 1")
        self.assertEqual(err, "")
        self.assertEqual(len(objs), 5)
        # a good line: the bytes `isa as --hex` gives for the same text
        _, want, _ = run("as", "--isa", "lima-gp", "--hex", "-", stdin=good.encode())
        self.assertEqual(objs[0], {"text": good, "hex": want.decode().strip(), "ok": True, "error": None})
        self.assertEqual(dis("lima-gp", objs[0]["hex"]), good + "\n")
        # a bad text: LINE:COL: and the message, no bytes
        self.assertEqual({k: v for k, v in objs[1].items() if k != "error"},
                         {"text": "000:\tmov.a1 ^1 t[0].q", "hex": "", "ok": False})
        self.assertRegex(objs[1]["error"], r"^1:21: expected .*'w'.*; found 'q'$")
        # not a JSON string: the line as it came
        self.assertEqual(objs[2], {"text": "not json", "hex": "", "ok": False, "error": "not a JSON string"})
        self.assertEqual(objs[3]["text"], "000:\tmov.a1 ^1 t[0].z")
        self.assertTrue(objs[3]["ok"], objs[3])
        self.assertEqual(dis("lima-gp", objs[3]["hex"]), "000:\tmov.a1 ^1 t[0].z\n")
        self.assertEqual(objs[4], objs[0], "blanks after the JSON string")

    def test_all_good_exits_0_and_a_file_reads_as_stdin_does(self):
        texts = [e["text"] for e in corpus("lima-gp")[:200:40]]
        lines = [json.dumps(t) for t in texts]
        code, objs, err = self.answers("lima-gp", lines)
        self.assertEqual((code, err), (0, ""))
        self.assertEqual([o["text"] for o in objs], texts)
        self.assertTrue(all(o["ok"] and o["error"] is None for o in objs), objs)
        printed = [dis("lima-gp", o["hex"]) for o in objs]
        self.assertEqual(printed, [t + "\n" for t in texts])
        path = self.write("batch.jsonl", "".join(line + "\r\n" for line in lines))
        code, again, err = self.answers("lima-gp", [], path)
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(again, objs)

    def test_agx_lines(self):
        lines = [json.dumps(t) for t, _ in AGX_EXACT] + [json.dumps("mov_imm r0h, 4925\nmov_imm r0h, 4925")]
        code, objs, err = self.answers("agx-g13", lines)
        self.assertEqual((code, err), (0, ""))
        self.assertEqual([o["hex"] for o in objs], [h for _, h in AGX_EXACT] + ["62023d1362023d13"])

    def test_empty_input_and_missing_file(self):
        code, out, err = run("as", "--isa", "lima-gp", "--batch", "-", stdin=b"")
        self.assertEqual((code, out), (1, b""))
        self.assertIn("empty input", err)
        code, out, err = run("as", "--isa", "lima-gp", "--batch", os.path.join(self.dir, "nope.jsonl"))
        self.assertEqual((code, out), (2, b""))
        self.assertIn("cannot open", err)


class LimaPp(Scratch):
    def test_the_published_vectors_assemble_to_their_bytes(self):
        # TV-PP-1..4: programs written by the blob and by Mesa (their notes
        # say which); every bit the text does not show is one the XML's
        # defaults and expect= values give as those encoders wrote it
        vectors = [e for e in corpus("lima-pp") if (e.get("note") or "").startswith("TV-PP-")]
        self.assertEqual(len(vectors), 4)
        for e in vectors:
            with self.subTest(note=e["note"][:8]):
                code, out, err = run("as", "--isa", "lima-pp", "--hex", "-", stdin=(e["text"] + "\n").encode())
                self.assertEqual((code, err), (0, ""))
                self.assertEqual(out.decode(), e["hex"] + "\n")

    def test_a_contradiction_the_closing_search_finds_is_no_range_error_at_the_end(self):
        # a corpus unit with random edits: every number in it fits, but
        # closing its equations leads to 99 in a 6-bit field; that is not a
        # value of the text, and the end of the text is no place for it:
        # the error is that no encoding prints the text
        text = ("load.v $14.xz cube(^const0.wzyy), texld 7, gt.s0 $3.y ^const1.z $1.y, eq.sat.v1 $3.xz "
                "^texture.zwzw $1.xzzw, dFdx.s1 $4.z ^s0 $24.x, rcp.pos.s2 $5.z  $5.z , store.t 5289.xy ^uniform, "
                "branch.lt ^texture.y $4.w -10, sync")
        code, out, err = run("as", "--isa", "lima-pp", "-", stdin=text.encode())
        self.assertEqual((code, out), (1, b""))
        (where, line, col, message), = error_lines(err)
        self.assertEqual((line, col), (1, 1))
        self.assertTrue(message.startswith("no encoding prints this text: ") and message.endswith("(read to column 219)"),
                        message)

    def test_a_real_listing_assembles_with_its_control_words(self):
        # a Mesa-compiled program as isa dis --offsets prints it: the
        # instructions' sizes, next_count and prefetch are the program
        # encoder's (<derive>s); the bytes print as the listing again
        entry = next(e for e in corpus("real-lima-pp") if len(e["text"].splitlines()) >= 8)
        path = self.write("prog.s", entry["text"] + "\n")
        code, out, err = run("as", "--isa", "lima-pp", path)
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(dis("lima-pp", out.hex(), "--offsets"), entry["text"] + "\n")
        ref = bytes.fromhex(entry["hex"])
        self.assertEqual(len(out), len(ref))
        words = lambda b: [int.from_bytes(b[i:i + 4], "little") for i in range(0, len(b), 4)]  # noqa: E731
        got, want, at = words(out), words(ref), 0
        while at < len(want):  # each instruction's control word: count, next_count, prefetch
            self.assertEqual(got[at] & 0x03f8001f, want[at] & 0x03f8001f, f"control word at word {at}")
            at += want[at] & 31

    def test_labels_stand_for_branch_targets(self):
        # a label is the word offset the listing prefix prints for its line;
        # "done" is used before its line (a second pass reads it)
        program = ("top:\n"
                   "mov.v1 $0 ^const0, const0 1.000000 0.000000 0.000000 0.000000\n"
                   "loop: mov.s1 $0.y ^const0.x, const0 0.000000 0.000000 0.000000 0.000000\n"
                   "branch.eq $0.z ^const0.x loop, const0 0.000000 0.000000 0.000000 0.000000\n"
                   "branch done\n"
                   "branch top\n"
                   "done:\n"
                   "mov.v1 $0 ^const0, const0 1.000000 1.000000 1.000000 1.000000, stop\n")
        code, out, err = run("as", "--isa", "lima-pp", "-", stdin=program.encode())
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(dis("lima-pp", out.hex(), "--offsets"),
                         "@     0: mov.v1 $0 ^const0, const0 1.000000 0.000000 0.000000 0.000000\n"
                         "@     5: mov.s1 $0.y ^const0.x, const0 0.000000 0.000000 0.000000 0.000000\n"
                         "@     9: branch.eq $0.z ^const0.x 5, const0 0.000000 0.000000 0.000000 0.000000\n"
                         "@    15: branch 23\n"
                         "@    19: branch 0\n"
                         "@    23: mov.v1 $0 ^const0, const0 1.000000 1.000000 1.000000 1.000000, stop\n")

    def test_a_branch_prefetches_the_instruction_it_jumps_to(self):
        # the branch slot's next_count, which no listing prints, is the size
        # of the instruction at the target (the stream's <derive> reading
        # $at[...]): the labels program above has the instructions at words
        # 0, 5, 9, 15, 19 and 23, of 5, 4, 6, 4, 4 and 5 words
        program = ("top: mov.v1 $0 ^const0, const0 1.000000 0.000000 0.000000 0.000000\n"
                   "loop: mov.s1 $0.y ^const0.x, const0 0.000000 0.000000 0.000000 0.000000\n"
                   "branch.eq $0.z ^const0.x loop, const0 0.000000 0.000000 0.000000 0.000000\n"
                   "branch done\n"
                   "branch top\n"
                   "done: mov.v1 $0 ^const0, const0 1.000000 1.000000 1.000000 1.000000, stop\n")
        code, out, err = run("as", "--isa", "lima-pp", "--hex", "-", stdin=program.encode())
        self.assertEqual((code, err), (0, ""))
        units = [json.loads(line) for line in dis("lima-pp", out.decode().strip(), "--json").splitlines()]
        self.assertEqual([u["fields"].get("branch.branch.next_count") for u in units if "branch.branch.target" in u["fields"]],
                         [4, 5, 5])
        # and a real program with branches is Mesa's very bytes
        e = next(x for x in corpus("real-lima-pp-program") if x["source"] == "tests/shaders/ssa/fs-swap-problem:fs")
        code, out, err = run("as", "--isa", "lima-pp", "--hex", "-", stdin=(e["text"] + "\n").encode())
        self.assertEqual((code, err, out.decode().strip()), (0, "", e["hex"]))

    def test_unknown_and_twice_defined_labels_are_errors(self):
        code, out, err = run("as", "--isa", "lima-pp", "-", stdin=b"loop:\nbranch nowhere\nloop:\nbranch loop\n")
        self.assertEqual((code, out), (1, b""))
        found = error_lines(err)
        self.assertEqual([(line, col) for _, line, col, _ in found], [(2, 8), (3, 1)])
        self.assertIn("a label defined somewhere", found[0][3])
        self.assertIn("found 'nowhere'", found[0][3])
        self.assertIn("label 'loop' is defined twice", found[1][3])
        # a label must label a unit, and a name is at most 64 characters
        for text, message in (("branch L\nL:\n", "label 'L' labels no unit"),
                              ("a" * 65 + ":\nbranch 0\n", "a label's name is at most 64 characters")):
            with self.subTest(text=text):
                code, out, err = run("as", "--isa", "lima-pp", "-", stdin=text.encode())
                self.assertEqual((code, out), (1, b""))
                self.assertIn(message, err)

    def test_an_error_in_one_unit_names_what_could_follow(self):
        code, out, err = run("as", "--isa", "lima-pp", "-",
                             stdin=b"load.v $1 0.xy, texld 0, mov.v0 $0 ^textur , sync\n")
        self.assertEqual((code, out), (1, b""))
        (where, line, col, message), = error_lines(err)
        self.assertEqual((line, col), (1, 36))
        self.assertIn("'^texture'", message)
        self.assertIn("found '^textur , sync'", message)


class Tgsi(Scratch):
    def setUp(self):
        super().setUp()
        # a fragment shader with properties, declarations, immediates and
        # nested IFs, as tgsi_dump printed it from tokens Mesa made
        self.entry = next(e for e in corpus("tgsi") if e["text"].startswith(
            "FRAG\nPROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\nDCL IN[0], GENERIC[0], PERSPECTIVE\n"))
        self.assertIn("  0: TEX TEMP[0], IN[0].xyyy, SAMP[0], 2D", self.entry["text"])

    def test_a_program_assembles_to_mesas_tokens(self):
        # every token the text does not show is what Mesa wrote: the header
        # sizes and each token count come from the program encoder, the
        # operand counts from the opcode (the spec's dst-count and src-count
        # rules), the texture token's return type from its XML default, and
        # each immediate is the binary32 nearest its four printed decimals
        code, out, err = run("as", "--isa", "tgsi", "--hex", "-", stdin=(self.entry["text"] + "\n").encode())
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out.decode(), self.entry["hex"] + "\n")

    def test_text_whose_every_encoding_breaks_a_rule_still_assembles(self):
        # TEX takes one destination and two sources: no split of two
        # operands holds the dst-count and src-count rules, so the first
        # reading (the rules as constraints) finds nothing, and a second,
        # without them, takes the text as written; isa check names the rule
        text = "FRAG\nDCL IN[0]\nDCL TEMP[0]\n  0: TEX TEMP[0], IN[0]\n  1: END\n"
        code, out, err = run("as", "--isa", "tgsi", "--hex", "-", stdin=text.encode())
        self.assertEqual((code, err), (0, ""))
        hexstr = out.decode().strip()
        self.assertEqual(dis("tgsi", hexstr), text)
        code, out, err = run("check", "--isa", "tgsi", "--hex", hexstr)
        self.assertEqual(code, 1)
        self.assertRegex(out.decode() + err, r"error: insn\.Num(Dst|Src)Regs: TEX takes .*\[(dst|src)-count\]")

    def test_instruction_numbers_are_checked(self):
        # "  N:" is the <state> $insn: what the instructions before say
        lines = self.entry["text"].splitlines()
        at = next(i for i, ln in enumerate(lines) if ln.startswith("  1: "))
        lines[at] = lines[at].replace("  1: ", "  5: ")
        code, out, err = run("as", "--isa", "tgsi", "-", stdin=("\n".join(lines) + "\n").encode())
        self.assertEqual((code, out), (1, b""))
        (where, line, col, message), = error_lines(err)
        self.assertEqual((line, col), (at + 1, 3))
        self.assertIn("expected 1 here", message)

    def test_a_misspelled_opcode_names_the_nearest_opcodes_once_each(self):
        # the opcode enum's names are noted as one entry while the text is
        # read (one per run of names the text does not have) and named one
        # by one in the message: the 246 alternatives there are the 244
        # opcode names of mesa-22.3.6, UNK (an opcode number without one)
        # and "a name" (a number); MOV and MOD share "MO" with the text,
        # and then the names sharing "M" in the enum's order
        text = "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0], COLOR\n  0: MOX OUT[0], IN[0]\n  1: END\n"
        code, out, err = run("as", "--isa", "tgsi", "-", stdin=text.encode())
        self.assertEqual((code, out), (1, b""))
        (where, line, col, message), = error_lines(err)
        self.assertEqual((line, col), (4, 6))
        self.assertEqual(message, "expected 'MOV', 'MOD', 'MEMBAR', 'MUL', 'MIN', 'MAX' (or one of 240 others); "
                                  "found 'MOX OUT[0], IN[0]'")

    def test_a_long_list_of_alternatives_is_never_cut_off(self):
        # six property names of 15 to 27 characters, then the count of the
        # others and what the text has, to the end of its word: the message
        # is composed to fit (it was cut off in 'found' at 200 characters)
        text = "FRAG\nPROPERTY FS_COORD_ORIGN UPPER_LEFT\n"
        code, out, err = run("as", "--isa", "tgsi", "-", stdin=text.encode())
        self.assertEqual((code, out), (1, b""))
        (where, line, col, message), = error_lines(err)
        self.assertEqual((line, col), (2, 10))
        self.assertEqual(message, "expected 'FS_COORD_ORIGIN', 'FS_COORD_PIXEL_CENTER', 'FS_COLOR0_WRITES_ALL_CBUFS', "
                                  "'FS_BLEND_EQUATION_ADVANCED', 'FS_EARLY_DEPTH_STENCIL', 'FS_POST_DEPTH_COVERAGE' "
                                  "(or one of 24 others); found 'FS_COORD_ORIGN UPPER_LEFT'")

    def test_what_isa_dis_prints_assembles_back(self):
        # an ENDIF with no IF before it: Mesa's indent goes below 0 and the
        # indent loop prints nothing (any bound up to its start); a binary64
        # immediate of 1e60, which %10.8f prints in 70 characters
        for hexstr in ("020300000400000002b0060002e0040002500700",
                       "020600000400000051000c0044f3c2e4e4e9634c000000000000f03f02500700"):
            with self.subTest(hex=hexstr):
                code, out, err = run("as", "--isa", "tgsi", "--hex", "-", stdin=dis("tgsi", hexstr).encode())
                self.assertEqual((code, err), (0, ""))
                self.assertEqual(out.decode(), hexstr + "\n")

    def test_more_values_than_an_item_holds_is_an_error(self):
        # an immediate holds 4 data tokens, a property 8 values (the items' max)
        for text, line in (("FRAG\nIMM[0] FLT32 {    1.0000,     0.0000,     0.0000,    -1.0000,     0.0000}\n", 2),
                           ("GEOM\nPROPERTY GS_MAX_OUTPUT_VERTICES 1, 2, 3, 4, 5, 6, 7, 8, 9\n", 2)):
            with self.subTest(text=text):
                code, out, err = run("as", "--isa", "tgsi", "-", stdin=text.encode())
                self.assertEqual((code, out), (1, b""))
                self.assertEqual([found[1] for found in error_lines(err)], [line])

    def test_each_bad_line_is_reported_after_a_failed_instruction(self):
        # the failed instruction leaves $insn one short: the later lines'
        # numbers are taken as they are, and only their own faults reported
        text = ("FRAG\nDCL TEMP[0]\n  0: MOV TEMP[0], BOGUS[0]\n  1: MOV TEMP[0], TEMP[0]\n"
                "  2: MOV TEMP[0], TEMP[0].qqqq\n  3: FOO TEMP[0]\n  4: END\n")
        code, out, err = run("as", "--isa", "tgsi", "-", stdin=text.encode())
        self.assertEqual((code, out), (1, b""))
        found = error_lines(err)
        self.assertEqual([(line, col) for _, line, col, _ in found], [(3, 19), (5, 27), (6, 6)])
        self.assertIn("'x', 'y', 'z', 'w'", found[1][3])
        self.assertIn("found 'FOO TEMP[0]'", found[2][3])

    def test_every_source_assembles_to_mesas_tokens_but_the_listed(self):
        # the corpus's `source` is the text Mesa's tgsi_text_translate read to
        # make the tokens: laxer than tgsi_dump's (no instruction numbers,
        # IMM without its index, either case, full-precision and 0x
        # immediates, COLOR[0], .xyzw, attributes in another order).  Each
        # must assemble to the very tokens, but those listed with the reason
        # they cannot, which must still fail (the list only shrinks)
        # (ISAGEN_ASM_EVERY=N, the ASan run: every Nth record)
        every = int(os.environ.get("ISAGEN_ASM_EVERY", "1"))
        entries = corpus("tgsi")
        with open(os.path.join(ROOT, "tests", "corpus", "tgsi.source-gaps.json"), encoding="utf-8") as f:
            gaps = json.load(f)["gaps"]
        picked = [k for k in range(1, len(entries) + 1) if k % every == 0 or every == 1]
        gaps = {k: v for k, v in gaps.items() if int(k) in picked}
        entries = [(k, entries[k - 1]) for k in picked]
        code, out, err = isa("as", "--isa", "tgsi", "--batch", "-",
                             stdin="".join(json.dumps(e["source"]) + "\n" for _, e in entries))
        self.assertIn(code, (0, 1), err)
        results = [json.loads(line) for line in out.splitlines()]
        self.assertEqual(len(results), len(entries))
        exact = 0
        for (k, e), r in zip(entries, results):
            same = r["ok"] and r["hex"] == e["hex"]
            exact += same
            if str(k) in gaps:
                self.assertFalse(same, f"record {k} now assembles to Mesa's tokens: take it off tgsi.source-gaps.json")
            else:
                self.assertTrue(same, f"record {k} ({e['note']}): {r['error'] or 'other tokens: ' + r['hex']}")
        self.assertEqual(exact, len(entries) - len(gaps))
        if every == 1:
            self.assertGreaterEqual(exact, 345)

    def test_the_header_comes_first_and_only_first(self):
        code, out, err = run("as", "--isa", "tgsi", "-", stdin=b"DCL TEMP[0]\n")
        self.assertEqual((code, out), (1, b""))
        self.assertEqual(error_lines(err)[0][1:3], (1, 1))
        code, out, err = run("as", "--isa", "tgsi", "-", stdin=b"FRAG\nFRAG\n")
        self.assertEqual((code, out), (1, b""))
        self.assertEqual(error_lines(err)[0][1:3], (2, 1))


class Midgard(Scratch):
    def vector(self, name):
        return next(e for e in corpus("midgard") if (e.get("note") or "").startswith(f"Fact sheet midgard.md Appendix A, vector {name}:"))

    def test_fact_sheet_vectors_assemble_to_their_bytes(self):
        # D1 (an ALU bundle with constants, then a writeout) and the texture
        # vectors: hand-encoded from the fact sheet's tables, not by isagen;
        # their text shows every bit, the next tags and sizes come from the
        # program encoder, and the texture LOD bias is read as fixed point;
        # after them the zero quadword Mesa's compiler writes after a
        # program's last bundle (the stream's after-stop), which the fact
        # sheet's vectors leave out
        for name in ("D1", "H1", "H2", "H3", "H6"):
            e = self.vector(name)
            with self.subTest(vector=name):
                code, out, err = run("as", "--isa", "midgard", "--gpu", e["gpu"], "--hex", "-", stdin=(e["text"] + "\n").encode())
                self.assertEqual((code, err), (0, ""))
                self.assertEqual(out.decode(), e["hex"] + "00" * 16 + "\n")

    def test_next_tags_chain_through_a_forward_branch(self):
        # "break" after a bundle that branched forward: its next tag says
        # BREAK, and the printer goes on; each other bundle's next tag is
        # the next bundle's tag, which the assembler reads the next bundle
        # with (the states of Mesa's printer come from it)
        entry = next(e for e in corpus("midgard") if e["text"].startswith("FADD.f32 R0.clamp_0_1, U0.zzzz.neg, <1.3, 0.2"))
        self.assertIn("\nbreak\n", entry["text"])
        code, out, err = run("as", "--isa", "midgard", "--gpu", entry["gpu"], "--hex", "-", stdin=(entry["text"] + "\n").encode())
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(dis("midgard", out.decode().strip(), "--gpu", entry["gpu"]).rstrip("\n"), entry["text"])

    def test_a_load_store_bundle_keeps_break_after_a_forward_branch(self):
        # Mesa's printer goes on past a BREAK tag once an ALU bundle has
        # branched forward, and prints "break" there; the program encoder
        # keeps such a BREAK where the stream's state $fwd says so (it gave
        # its derives no states before, and rewrote the tag as the next
        # bundle's, so no program printed this).  After a backward branch
        # the listing ends at that BREAK: text after it is an error.
        text = ("FMOV.f32 R0, TMP0.xxxx, R0\nbr.uncond {} -> ldst\nbreak\n\nLD_TILEBUFFER.f16 R1.xy~~\nbreak\n\n"
                "FMOV.f32 R1, TMP0.xxxx, R1\n")
        code, out, err = run("as", "--isa", "midgard", "--hex", "-", stdin=text.format("+1").encode())
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(dis("midgard", out.decode().strip()).rstrip("\n"), text.format("+1").rstrip("\n"))
        fields = [json.loads(line)["fields"] for line in dis("midgard", out.decode().strip(), "--json").splitlines()]
        self.assertEqual([f.get("next_tag", f.get("ctrl.next_tag")) for f in fields], [1, 1, 1])
        code, out, err = run("as", "--isa", "midgard", "--hex", "-", stdin=text.format("-1").encode())
        self.assertEqual((code, out), (1, b""))
        self.assertEqual([(line, col) for _, line, col, _ in error_lines(err)], [(3, 1), (6, 1)])

    def test_a_field_printed_in_two_parts_takes_both(self):
        # a varying load prints its 18-bit signed offset twice, as so >> 9
        # (+ 0x8) and as sext(so & 0x1FF, 9) (- 0xA8): each guess knows
        # only its own bits, a search of all 18 is too large, so the field
        # takes each guess in its own bits (midgard.jsonl record 164)
        text = "LD_VARY.f32 R4.yzyy, 0.z + 0x8, 0.w - 0xA8\n"
        code, out, err = run("as", "--isa", "midgard", "--gpu", "t880", "--hex", "-", stdin=text.encode())
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(dis("midgard", out.decode().strip(), "--gpu", "t880").rstrip("\n"), text.rstrip("\n"))
        word = json.loads(dis("midgard", out.decode().strip(), "--json").splitlines()[0])["fields"]
        self.assertEqual(word["w1.signed_offset"], 8 << 9 | 0x158)

    def test_a_bundle_of_unknown_tag_is_chained_as_every_other(self):
        # Mesa prints a quadword of tag 0, 1, 6 or 7 raw, its next tag in
        # bits 4..7 (0x87: tag 7, next tag 8, an ALU bundle of one
        # quadword); the program encoder chains it as it chains the other
        # bundles, so a text showing another next tag (Mesa's TAG ERROR
        # comment: ldst where an ALU bundle follows) is no program's
        text = ("Unknown word type 7:\n0x000000{}, 0x00000000, 0x00000000, 0x00000000 \n\n\n{}"
                "FMOV.f32 R0, TMP0.xxxx, R0\n")
        chained = text.format("87", "")
        code, out, err = run("as", "--isa", "midgard", "--hex", "-", stdin=chained.encode())
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(dis("midgard", out.decode().strip()).rstrip("\n"), chained.rstrip("\n"))
        wrong = text.format("57", "\t/* XXX: TAG ERROR sequence, got alu/4 expexted ldst */\n")
        code, out, err = run("as", "--isa", "midgard", "--hex", "-", stdin=wrong.encode())
        self.assertEqual((code, out), (1, b""))
        (where, line, col, message), = error_lines(err)
        self.assertEqual((line, col), (2, 1))
        self.assertTrue(message.startswith("the program as encoded prints '0x00000087, "), message)

    def test_lanes_past_15_printed_side_by_side_are_read_one_by_one(self):
        # an 8-bit source's swizzle names lanes 0..15 by letter and the
        # others by number, with nothing between them: .22233031 is lanes
        # 22, 23, 30 and 31 (read as one number, it fits no lane); ten
        # such lanes are 20 digits, more than an int64 holds
        for text in ("alu_op_03.f8 AT0.efij.clamp_0_inf, U9.22233031.abs.widen, #13816\n",
                     "CSEL.scalar.i8 R6/* do0 */ .xyzwghklmn.keeplo, U9.22231617222324252829.replicate, #46743\n"):
            with self.subTest(text=text):
                code, out, err = run("as", "--isa", "midgard", "--hex", "-", stdin=text.encode())
                self.assertEqual((code, err), (0, ""))
                self.assertEqual(dis("midgard", out.decode().strip()).rstrip("\n"), text.rstrip("\n"))

    def test_no_encoding_says_how_far_a_bundle_of_several_lines_was_read(self):
        # a bundle of one instruction and a comment no program prints after
        # it: its error is at the bundle's start, and says where the reading
        # got to, on another line than the bundle's first (the column alone
        # said 'column 1')
        text = "FMOV.f32 R0, TMP0.xxxx, R0\n/* XXX: shader ended with tag alu/4 */\n"
        for more, where in (("", "the end of the text"), ("\nFMOV.f32 R0, TMP0.xxxx, R0\n", "line 3, column 1")):
            with self.subTest(where=where):
                code, out, err = run("as", "--isa", "midgard", "-", stdin=(text + more).encode())
                self.assertEqual((code, out), (1, b""))
                (_, line, col, message), = error_lines(err)
                self.assertEqual((line, col), (1, 1))
                self.assertEqual(message, "no encoding prints this text: its values contradict each other or the "
                                          f"fields they go into (read to {where})")

    def test_an_empty_line_is_a_bundle_break(self):
        two = "FMUL.f32 R0, R0, R1.xxxx\n\nFRCP.f32 R0.w, R0.w, #0\n"
        one = "FMUL.f32 R0, R0, R1.xxxx\nFRCP.f32 R0.w, R0.w, #0\n"
        # the first bundle's tag: ALU of one quadword (then another
        # bundle), or of two (both units in it); 32 bytes either way, then
        # the zero quadword after the last bundle (after-stop)
        for text, tag in ((two, 0x8), (one, 0x9)):
            with self.subTest(text=text):
                code, out, err = run("as", "--isa", "midgard", "-", stdin=text.encode())
                self.assertEqual((code, err), (0, ""))
                self.assertEqual((len(out), out[0] & 15, out[32:]), (48, tag, bytes(16)))
                self.assertEqual(dis("midgard", out.hex()).rstrip("\n"), text.rstrip("\n"))

    def test_an_extra_empty_line_is_a_bundle_with_no_instructions(self):
        # Mesa prints an ALU bundle with no units as an empty line alone
        # (the corpus has 35 such programs): one more empty line after a
        # bundle's own is such a bundle, 16 bytes with no unit bit set (then
        # the zero quadword after the last bundle)
        text = "FRCP.f32 R0.w, R0.w, #0\n\n\nFMUL.f32 R0.xyz, R0.xyz, R0.www\n"
        code, out, err = run("as", "--isa", "midgard", "-", stdin=text.encode())
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(len(out), 64)
        self.assertEqual(int.from_bytes(out[16:20], "little") >> 8, 0, "no unit bit (nor any other) in the middle bundle")
        self.assertEqual(dis("midgard", out.hex()).rstrip("\n"), text.rstrip("\n"))

    def test_empty_lines_beside_comments_are_layout(self):
        # a header comment with an empty line after it; a comment line
        # between two bundles with empty lines around it; a comment line
        # inside a bundle
        cases = [("# header\n\nFRCP.f32 R0.w, R0.w, #0\n", "FRCP.f32 R0.w, R0.w, #0"),
                 ("FRCP.f32 R0.w, R0.w, #0\n\n# next bundle\n\nFMUL.f32 R0.xyz, R0.xyz, R0.www\n",
                  "FRCP.f32 R0.w, R0.w, #0\n\nFMUL.f32 R0.xyz, R0.xyz, R0.www"),
                 ("FRCP.f32 R0.w, R0.w, #0\n# same bundle\nFMUL.f32 R0.xyz, R0.xyz, R0.www\n",
                  "FRCP.f32 R0.w, R0.w, #0\nFMUL.f32 R0.xyz, R0.xyz, R0.www")]
        for text, printed in cases:
            with self.subTest(text=text):
                code, out, err = run("as", "--isa", "midgard", "-", stdin=text.encode())
                self.assertEqual((code, err), (0, ""))
                self.assertEqual(dis("midgard", out.hex()).rstrip("\n"), printed)

    def test_a_lod_under_abs_takes_the_sign_that_fits(self):
        # "lod = 128" is -32768/256: +32768 does not fit bias_int:bias
        hexstr = "12a90ac3603de402b045008005000000"
        text = dis("midgard", hexstr, "--gpu", "t720")
        self.assertIn("lod = 128.000000", text)
        code, out, err = run("as", "--isa", "midgard", "--gpu", "t720", "--hex", "-", stdin=text.encode())
        self.assertEqual((code, err, out.decode()), (0, "", hexstr + "00" * 16 + "\n"))

    def test_bundles_the_search_once_gave_up_on_read_back(self):
        # each needed a step of the matcher's own (not of midgard.xml), and
        # failed before it (too many ways, or no encoding found):
        cases = [
            # a constant vector of eight 16-bit lanes: an operand case that
            # sets a parameter its argument cannot take (a 64-bit lane) is
            # refused at once, not after 3^8 readings of the lanes
            "AVG.round.i16 R0, <1, 2, 3, 4, 5, 5, 5, 5>, R1\nuconstants 0x20001, 0x40003, 0x5, 0x0",
            # a scalar immediate: 16 bits of two fields, one scattered
            "CMP.any.eq.i32 AT0.x, TMP1.y, #1",
            # a texture register select: the low byte of a 16-bit field
            "TEX_FETCHunk.2d TA1.x.f32, texture5, fsampler[AT1.x.16], AT1.wxyz.32, lod = 0, ",
            # a bundle followed by another after an empty line: no reading
            # of the first runs on across the empty line into the second
            "MOV.i32 R31.w, TMP0.w, R1.x\nFCSEL.scalar.f32 R1.y, R0.y, R0.z.abs\n\n"
            "MOV.i32 TMP0.x, TMP0.x, #1048576000\nFCMP.lt.i32 R31.w, R1.y.abs, #0.25\n"
            "CSEL.scalar.i32 R1.z, #1065353216, TMP0.x\nuconstants 0x3F800000, 0x5D5E0B6B, 0x3E800000, 0x0",
            # two scalar constants: a lane that no component selects is
            # refused at once (can_hold), not after every other field's
            # values (16 million steps)
            "AVG.round.i32 R3.w, U1.z, #3220176896\nFCEIL.f32 R1.w.clamp_m1_1, R5.z, #0\n"
            "uconstants 0x0, 0xBFF00000, 0x0, 0xBFF00000",
            # a real program (real-midgard.jsonl): `#0` tried as a 64-bit
            # constant, rm == 3, where the scalar's argument bit(s2, 2) ? 2 : 1
            # cannot be 3 (a parameter's link, one bit of an 11-bit field)
            "LD_VARY.f32 R0.xyz~, 0.x, 0.x\n\nADD.i32 R1.w, PC_SP.x, #0\nMOV.i32 R0.w, TMP0.x, #1053609165\n"
            "MOV.i32 R0.xyz, TMP0.xxx, R0.xyz\nbrx.reserved.write.always +0 -> alu/8\n"
            "uconstants 0x3ECCCCCD, 0x0, 0x0, 0x0\nbreak\n\nMOV.i32 R0, TMP0.xxxx, R0\nADD.i32 R1.w, PC_SP.x, #0\n"
            "brx.reserved.write.always -2 -> alu/8",
            # all-zero constants: every search ends in a can_hold that
            # fails (its tries count as steps: a minute before they did)
            "SUB.i32 TMP0.x, #0, R0.z\nCMP.lt.i32 R31.w, R0.x, #0\nCSEL.scalar.i32 R0.x, TMP0.x, R0.z\n"
            "MUL.i32 R0.y, R0.y, #10\nuconstants 0x0, 0x0, 0x0, 0x0",
        ]
        for text in cases:
            with self.subTest(text=text):
                code, out, err = run("as", "--isa", "midgard", "--hex", "-", stdin=(text + "\n").encode())
                self.assertEqual((code, err), (0, ""))
                self.assertEqual(dis("midgard", out.decode().strip()).rstrip("\n"), text)

    def test_the_encoding_mesas_compiler_writes(self):
        # real programs Mesa 22.3.6 compiled (real-midgard.jsonl): their
        # text leaves open which units hold the instructions, which word of
        # a load/store bundle holds one operation alone, and an integer
        # result's output modifier; midgard.xml says what Mesa writes
        # (<prefer>s, outmod's default), and these programs come out as
        # Mesa's very bytes, the 16 zero bytes Mesa puts after the last
        # bundle included (the stream's after-stop)
        picks = [
            # two stores in one load/store bundle
            ("t720", "tests/spec/arb_tessellation_shader/execution/gs-primitiveid-instanced:vs"),
            # a one-lane MOV in SMUL (Mesa's first choice), keeplo, then a
            # store alone in the bundle's first word
            ("t720", "tests/spec/arb_tessellation_shader/execution/tcs-input-read-nonconst-interface:vs"),
            # writeout bundles: the vec4 move in VMUL, the return address in
            # VADD, though SMUL and LUT could hold them
            ("t720", "tests/spec/glsl-1.10/execution/glsl-fs-neg:fs"),
            ("t860", "tests/spec/glsl-1.10/execution/algebraic/glsl-algebraic-mul-mul-1:fs"),
            # swizzle lanes the mask does not print (VectorAlu's <fill>s):
            # FMUL R0.xyz, R0.xyz, R0.www writes lane w of each source as
            # its lane z, the nearest printed lane before it
            ("t720", "tests/fast_color_clear/all-colors:vs"),
            ("t720", "tests/spec/arb_separate_shader_objects/linker/pervertex-position-vs-out-gs:vs"),
            # a varying load's interpolation bits (LdstWord's signed_offset
            # fill: 0x50 for LD_VARY.f32)
            ("t720", "tests/spec/glsl-1.10/execution/glsl-vs-mat-mul-2:fs"),
            # LD_VARY.f32 AT0.~xy~: the lanes the mask does not write hold
            # the identity moved up to the first written one (swizzle 0x90)
            ("t860", "tests/spec/arb_shader_texture_lod/execution/glsl-fs-texturelod-01:fs"),
            # CMP.lt prints alike from ilt and ult: the signed one (<prefer>)
            ("t860", "generated_tests/spec/glsl-1.10/execution/built-in-functions/fs-op-lt-int-int:fs"),
            # MOV.i32 AL1.xy, TMP0.xx, <0, 1072693248>: a move of constants
            # keeps its unprinted lanes 0 (the Alu sequence's <fill>s)
            ("t860", "tests/spec/arb_tessellation_shader/execution/dvec2-vs-tcs-tes:vs"),
            # a result a later unit reads through TMP0 (FMOV, CMP.eq), and
            # the condition of a CSEL (FCMP.le R31.w), are written in the
            # first stage, VMUL or SADD (the <prefer>'s first term)
            ("t720", "tests/spec/glsl-1.30/execution/fs-large-local-array:fs"),
            ("t860", "tests/spec/glsl-1.10/execution/vec4-vector-indexing/glsl-fs-vec4-indexing-5:fs"),
            # MOV.i32 AL0.yzw, TMP0.xxx, R0.yzw: a move of y, z and w repeats
            # w's lane in x (VectorAlu's last src2 <fill>)
            ("t860", "tests/spec/glsl-1.50/execution/gs-instance-id:vs"),
        ]
        entries = corpus("real-midgard")
        for gpu, source in picks:
            e = next(x for x in entries if x["gpu"] == gpu and x["source"] == source)
            with self.subTest(source=source):
                code, out, err = run("as", "--isa", "midgard", "--gpu", gpu, "--hex", "-", stdin=(e["text"] + "\n").encode())
                self.assertEqual((code, err), (0, ""))
                self.assertEqual(out.decode().strip(), e["hex"])

    def test_units_in_the_order_mesas_scheduler_fills_them(self):
        # a vec3 FMUL alone may sit in VMUL or LUT: Mesa fills LUT before
        # VMUL; a one-lane FADD in SADD or VADD: VADD, though it takes
        # more bytes; a one-lane ADD in SMUL, and of two, the first in VADD
        # (LUT runs no ADD)
        cases = [
            ("FMUL.f32 R0.xyz, R0.xyz, R0.www", {"lut"}),
            ("FADD.f32 R0.x, R0.x, U1.z", {"vadd"}),
            ("ADD.i32 R0.x, U0.x, R0.x", {"smul"}),
            ("ADD.i32 R0.x, U0.x, R0.x\nADD.i32 R0.y, U0.x, R0.y", {"vadd", "smul"}),
            # but a result passed on through TMP0, or a CSEL's condition, is
            # written in the first stage (VMUL, SADD) for the second to read
            ("XOR.i32 TMP0.x, R0.x, R0.y\nXOR.i32 R0.x, TMP0.x, R1.z", {"sadd", "smul"}),
            ("MOV.i32 R31.w, TMP0.w, R0.x\nFCSEL.scalar.f32 R1.w, R0.w, R0.y.abs", {"sadd", "smul"}),
            # as is a register the second stage reads, lanes the first writes:
            # the FMUL reads R1.yzx the MOV writes; in the other pair it reads
            # R1.w, which the MOV leaves, and the scheduler's order stands
            ("MOV.i32 R1.xyz, TMP0.xxx, R0.zxy\nFMUL.f32 R2.xyz, R1.yzx, R0.www", {"vmul", "lut"}),
            ("MOV.i32 R1.xyz, TMP0.xxx, R0.zxy\nFMUL.f32 R2.w, R1.w, R0.w", {"vadd", "smul"}),
        ]
        for text, units in cases:
            with self.subTest(text=text):
                code, out, err = run("as", "--isa", "midgard", "--hex", "-", stdin=(text + "\n").encode())
                self.assertEqual((code, err), (0, ""))
                fields = json.loads(dis("midgard", out.decode().strip(), "--json"))["fields"]
                used = {u for u in ("vmul", "sadd", "vadd", "smul", "lut") if fields["ctrl." + u]}
                self.assertEqual(used, units)
                self.assertEqual(dis("midgard", out.decode().strip()).rstrip("\n"), text)

    def test_a_program_the_preferred_units_cannot_make_is_read_without_them(self):
        # real-midgard.jsonl: Mesa put an instruction in a scalar unit here
        # where the scheduler's order says a vector one; that longer bundle
        # would move the target of an earlier forward branch, whose text
        # shows the tag it finds there, so the program is read again
        # without <prefer>
        e = next(x for x in corpus("real-midgard") if x["gpu"] == "t720" and x["source"] ==
                 "tests/spec/glsl-1.10/execution/vs-loop-simple-unroll-induction-variable-inside-if-branch:vs")
        code, out, err = run("as", "--isa", "midgard", "--gpu", "t720", "--hex", "-", stdin=(e["text"] + "\n").encode())
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(dis("midgard", out.decode().strip(), "--gpu", "t720").rstrip("\n"), e["text"])

    def test_text_the_program_encoder_cannot_write_is_an_error(self):
        # the last bundle always says BREAK: a listing that shows another
        # next tag at the end (Mesa's comment) has no program that prints it
        text = "FMOV.f32 R0, TMP0.xxxx, R0\n\n/* XXX: shader ended with tag alu/4 */\n"
        code, out, err = run("as", "--isa", "midgard", "-", stdin=text.encode())
        self.assertEqual((code, out), (1, b""))
        (where, line, col, message), = error_lines(err)
        # (at the first line the program as encoded prints otherwise: the
        # comment's line, read as an empty bundle's, which says BREAK)
        self.assertEqual((line, col), (3, 1))
        self.assertEqual(message, "the program as encoded prints an empty line here (the encoder derives a unit's "
                                  "fields from the unit after it, or from its being the last, and no reading of the "
                                  "text encodes so)")


class Usage(Scratch):
    def test_a_missing_input_file_exits_1(self):
        missing = os.path.join(self.dir, "missing.s")
        code, out, err = run("as", "--isa", "lima-gp", missing)
        self.assertEqual((code, out), (1, b""))
        self.assertIn(f"cannot open {missing}", err)

    def test_usage_errors_exit_2(self):
        path = self.write("a.s", "000:\tmov.a1 ^1 t[0].z\n")
        cases = [
            (("as", "--isa", "lima-gp"), "no input: give a FILE or -"),
            (("as", path), "as needs --isa NAME"),
            (("as", "--isa", "nope", path), "unknown spec 'nope'"),
            (("as", "--isa", "lima-gp", "--json", path), "--json do not apply"),
            (("as", "--isa", "lima-gp", "--input", "hex", path), "--input"),
            (("as", "--isa", "lima-gp", "--start", "4", path), "--start"),
            (("as", "--isa", "lima-gp", path, "-o"), "-o needs a value"),
            (("as", "--isa", "lima-gp", path, path), "more than one input file"),
            (("as", "--isa", "lima-gp", "--batch", "-", path), "drop FILE, -o and --hex"),
            (("as", "--isa", "lima-gp", "--batch", "-", "--hex"), "drop FILE, -o and --hex"),
            (("as", "--isa", "lima-gp", "--batch", "-", "-o", path), "drop FILE, -o and --hex"),
            (("as", "--isa", "lima-gp", "--frob", path), "unknown option '--frob'"),
        ]
        for args, msg in cases:
            with self.subTest(args=args):
                code, out, err = run(*args, stdin=b'"x"\n')
                self.assertEqual((code, out), (2, b""), err)
                self.assertIn(msg, err)
                self.assertIn("isa: run 'isa --help' for usage", err)

    def test_help(self):
        for args in (("help", "as"), ("as", "--help")):
            with self.subTest(args=args):
                code, out, err = isa(*args)
                self.assertEqual((code, err), (0, ""))
                self.assertTrue(out.startswith("usage: isa as --isa NAME"), out)
                for word in ("-o OUT", "--hex", "--batch FILE|-", "FILE:LINE:COL: error: MESSAGE"):
                    self.assertIn(word, out)
        code, out, _ = isa("--help")
        self.assertEqual(code, 0)
        self.assertIn("as", out.split())

    def test_an_unwritable_output_exits_1(self):
        # as for any output that cannot be written (docs/cli.md, exit status)
        path = self.write("a.s", "000:\tmov.a1 ^1 t[0].z\n")
        code, out, err = run("as", "--isa", "lima-gp", path, "-o", os.path.join(self.dir, "no", "such", "dir"))
        self.assertEqual((code, out), (1, b""))
        self.assertIn("cannot write", err)


if __name__ == "__main__":
    unittest.main()
