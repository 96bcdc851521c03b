"""The isa command: usage, input handling, output formats, exit codes."""
import json
import os
import re
import select
import subprocess
import sys
import tempfile
import unittest

from .common import ISA, ROOT, corpus, isa

K1 = "61040200" + "00" * 12 + "00f00f00" + "00" * 60


class Usage(unittest.TestCase):
    def test_help_and_list(self):
        code, out, _ = isa("--help")
        self.assertEqual(code, 0)
        for word in ("list", "dis", "check", "help [COMMAND]", "COMMAND --help", "--version"):
            self.assertIn(word, out)
        code, out, _ = isa("list")
        self.assertEqual(code, 0)
        self.assertRegex(out, r"(?m)^nv-sph\s+NVIDIA Shader Program Header")

    def test_version_is_the_generators(self):
        code, out, _ = isa("--version")
        self.assertEqual(code, 0)
        m = re.fullmatch(r"isa \(isagen\) (\d+\.\d+\.\d+)\n", out)
        self.assertTrue(m, out)
        gen = subprocess.run([os.path.join(ROOT, "gen", "isagen"), "--version"], capture_output=True, text=True)
        self.assertEqual(gen.stdout, "isagen %s\n" % m.group(1))

    def test_usage_errors_exit_2(self):
        cases = [
            ((), "missing command"),
            (("frobnicate",), "unknown command 'frobnicate'"),
            (("dis", "--hex", "00"), "dis needs --isa NAME"),
            (("dis", "--isa", "nope", "--hex", "00"), "unknown spec 'nope' (see 'isa list')"),
            (("dis", "--isa", "nv-sph"), "no input"),
            (("dis", "--isa", "nv-sph", "--hex", "00", "file.bin"), "give either --hex or a FILE"),
            (("dis", "--isa", "nv-sph", "--frob"), "unknown option '--frob'"),
            (("dis", "--isa", "nv-sph", "--gpu", "t720", "--hex", "00"),
             "unknown option '--gpu' (spec nv-sph has no options)"),
            # an option of the spec: which option, and why
            (("dis", "--isa", "midgard", "--hex", "00", "--gpu"),
             "--gpu needs a value: one of t600, t620, t720, t760, t820, t830, t860 or t880"),
            (("dis", "--isa", "midgard", "--gpu", "--hex", "00"), "--gpu needs a value: one of t600,"),
            (("dis", "--isa", "midgard", "--gpu", "t999", "--hex", "00"),
             "--gpu t999: not a value of --gpu, which is one of t600,"),
            (("dis", "--isa", "midgard", "--frob", "x", "--hex", "00"),
             "unknown option '--frob' (spec midgard has other options; see 'isa list')"),
            (("dis", "--isa"), "--isa needs a value"),
            (("check", "--isa", "nv-sph", "--batch", "-"), "--batch only applies to dis"),
            (("list", "x"), "list takes no arguments"),
        ]
        for args, msg in cases:
            with self.subTest(args=args):
                code, out, err = isa(*args)
                self.assertEqual(code, 2)
                self.assertIn(msg, err)
                self.assertEqual(out, "")


class BadInput(unittest.TestCase):
    def test_bad_input_exits_1_with_a_message(self):
        cases = [
            (("--hex", "610"), "odd number of hex digits (3): each byte needs two"),
            (("--hex", "61zz"), "invalid hex character 'z' at position 3"),
            (("--hex", ""), "empty input: nothing to decode"),
            (("--hex", "6104"), "offset 0x0: truncated input: Header needs 640 bits at bit 0, 16 available"),
            (("--hex", "00" * 80), "offset 0x0: no encoding matches: Header: no variant matches (at bit 0)"),
            (("/nonexistent/x.bin",), "cannot open /nonexistent/x.bin"),
        ]
        for args, msg in cases:
            for cmd in ("dis", "check"):
                with self.subTest(cmd=cmd, args=args):
                    code, out, err = isa(cmd, "--isa", "nv-sph", *args)
                    self.assertEqual(code, 1, err)
                    self.assertIn(msg if cmd == "dis" or "nothing" not in msg else "empty input", err)

    def test_garbage_never_crashes(self):
        import random
        rng = random.Random(5)
        for n in list(range(0, 100)) + [160, 1000]:
            data = bytes(rng.getrandbits(8) for _ in range(n))
            for cmd in ("dis", "check"):
                code, _, err = isa(cmd, "--isa", "nv-sph", "-", stdin=data)
                self.assertIn(code, (0, 1), f"{cmd} {n} bytes: {err}")
                self.assertNotIn("Sanitizer", err)


class Output(unittest.TestCase):
    def test_plain_text(self):
        code, out, err = isa("dis", "--isa", "nv-sph", "--hex", K1)
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out, "CommonWord0: SphType=VTG Version=3 ShaderType=VERTEX SassVersion=1\n"
                              "CommonWord4: StoreReqStart=255\n")

    def test_file_and_stdin_read_bytes_in_memory_order(self):
        data = bytes.fromhex(K1)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "k1.bin")
            with open(path, "wb") as f:
                f.write(data + b"\x00\x11")
            code, out_file, err = isa("dis", "--isa", "nv-sph", path)
            self.assertEqual(code, 0)
            self.assertIn("2 trailing bytes", err)
        code, out_stdin, _ = isa("dis", "--isa", "nv-sph", "-", stdin=data)
        _, out_hex, _ = isa("dis", "--isa", "nv-sph", "--hex", " ".join(K1[i:i + 8] for i in range(0, 160, 8)))
        self.assertEqual(out_file, out_stdin)
        self.assertEqual(out_file, out_hex)

    def test_offsets(self):
        code, out, _ = isa("dis", "--isa", "nv-sph", "--offsets", "--hex", K1)
        self.assertTrue(out.startswith("0: CommonWord0: "), out)

    def test_json_has_offset_size_name_fields_text(self):
        for e in corpus("nv-sph"):
            code, out, err = isa("dis", "--isa", "nv-sph", "--json", "--hex", e["hex"])
            self.assertEqual(code, 0, err)
            lines = out.splitlines()
            self.assertEqual(len(lines), 1)
            obj = json.loads(lines[0])
            self.assertEqual(obj["offset"], 0)
            self.assertEqual(obj["size"], 80)
            self.assertEqual(obj["name"], e["type"])
            self.assertEqual(obj["fields"], e["fields"], e["id"])
            _, text, _ = isa("dis", "--isa", "nv-sph", "--hex", e["hex"])
            self.assertEqual(obj["text"] + "\n", text)

    def test_batch(self):
        entries = corpus("nv-sph")
        lines = [e["hex"] for e in entries] + ["abc", "", "6104"]
        code, out, err = isa("dis", "--isa", "nv-sph", "--batch", "-", stdin="\n".join(lines) + "\n")
        self.assertEqual(code, 1, "a bad line makes the exit status 1")
        results = [json.loads(x) for x in out.splitlines()]
        self.assertEqual(len(results), len(lines))
        for e, r in zip(entries, results):
            self.assertEqual(r["hex"], e["hex"])
            self.assertTrue(r["ok"])
            self.assertIsNone(r["error"])
        for e, r in list(zip(entries, results))[:25]:
            _, text, _ = isa("dis", "--isa", "nv-sph", "--hex", e["hex"])
            self.assertEqual(r["text"], text, "batch text is exactly what dis prints")
        bad = results[-3:]
        self.assertEqual([r["ok"] for r in bad], [False, False, False])
        self.assertIn("odd number of hex digits", bad[0]["error"])
        self.assertIn("empty input", bad[1]["error"])
        self.assertIn("truncated input", bad[2]["error"])
        self.assertEqual(bad[2]["text"], "")

    def test_batch_echoes_every_line_as_valid_json(self):
        # hex with tabs and carriage returns inside, which the echo escapes;
        # a line that is not hex, with a quote and a control character
        k1 = corpus("nv-sph")[0]["hex"]
        spaced = " ".join(k1[i:i + 8] for i in range(0, len(k1), 8))
        lines = [k1, spaced, k1[:8] + "\t" + k1[8:], k1[:8] + "\r" + k1[8:], 'x"\x01y']
        code, out, err = isa("dis", "--isa", "nv-sph", "--batch", "-", stdin="\n".join(lines) + "\n")
        self.assertEqual(code, 1, err)
        results = [json.loads(x) for x in out.splitlines()]
        self.assertEqual([r["hex"] for r in results], lines)
        self.assertEqual([r["ok"] for r in results], [True, True, True, True, False])
        self.assertEqual(len({r["text"] for r in results[:4]}), 1, "whitespace between bytes changes nothing")
        self.assertIn("invalid hex character", results[4]["error"])

    def test_batch_hex_digits_of_every_kind_anywhere(self):
        # every place of a Lima GP instruction's 32 digits (read sixteen,
        # eight and two at a time) holds in turn each digit in both cases,
        # and characters just outside the digits' ranges: a line parses
        # exactly when all its characters are digits, to the bytes it gives
        # with a space between pairs (read a pair at a time; any 128 bits
        # decode as Lima GP)
        k1 = corpus("lima-gp")[0]["hex"]
        self.assertEqual(len(k1), 32)
        # (':' just past '9' is a separator between groups, tested below)
        good, bad = "0123456789abcdefABCDEF", "/@G`g\x7f\x80\u0130"
        lines, want = [], []
        for at in range(32):
            for c in good + bad:
                line = k1[:at] + c + k1[at + 1:]
                lines += [line, " ".join(line[k:k + 2] for k in range(0, len(line), 2))]
                want.append((at, c))
        code, out, err = isa("dis", "--isa", "lima-gp", "--batch", "-", stdin="\n".join(lines) + "\n")
        results = [json.loads(x) for x in out.splitlines()]
        self.assertEqual(len(results), len(lines), err)
        for (at, c), run, pairs in zip(want, results[0::2], results[1::2]):
            if c in good:
                self.assertTrue(run["ok"], (at, c, run["error"]))
                self.assertEqual(run["text"], pairs["text"], (at, c))
            else:
                self.assertFalse(run["ok"], (at, c))
                self.assertIn("invalid hex character", run["error"])
                self.assertIn("at position %d" % (at + 1), run["error"], (at, c))

    def test_batch_answers_each_line_as_it_arrives(self):
        # a program driving isa through pipes gets each answer before it
        # sends the next line (the answers are flushed whenever isa would
        # wait for input)
        k1 = corpus("nv-sph")[0]["hex"]
        proc = subprocess.Popen([ISA, "dis", "--isa", "nv-sph", "--batch", "-"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True, cwd=ROOT)
        try:
            for line in (k1, "zz", k1):
                proc.stdin.write(line + "\n")
                proc.stdin.flush()
                ready, _, _ = select.select([proc.stdout], [], [], 20)
                self.assertTrue(ready, "no answer to %r while isa waits for the next line" % line)
                self.assertEqual(json.loads(proc.stdout.readline())["hex"], line)
            proc.stdin.close()
            self.assertEqual(proc.stdout.read(), "")
            self.assertEqual(proc.wait(timeout=20), 1)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            proc.stdout.close()
            if not proc.stdin.closed:
                proc.stdin.close()

    def test_batch_lines_of_any_length_and_a_last_one_without_newline(self):
        # a line longer than the reader's first 64 KiB block, between two
        # short ones, the last without its newline
        k1 = corpus("nv-sph")[0]["hex"]
        long_line = k1 + " " * 200000
        code, out, err = isa("dis", "--isa", "nv-sph", "--batch", "-", stdin=k1 + "\n" + long_line + "\n" + k1)
        self.assertEqual(code, 0, err)
        results = [json.loads(x) for x in out.splitlines()]
        self.assertEqual([r["hex"] for r in results], [k1, long_line, k1])
        self.assertEqual(len({r["text"] for r in results}), 1)

    def test_batch_of_a_directory_is_an_error(self):
        code, out, err = isa("dis", "--isa", "nv-sph", "--batch", ROOT)
        self.assertEqual(code, 2)
        self.assertIn("cannot read " + ROOT, err)

    def test_output_that_cannot_be_written_is_an_error(self):
        # as coreutils do: exit 1 with the reason, for every command and
        # however the output is made (a stream, findings, batch answers, help)
        cases = [("dis", "--isa", "agx-g13", "--hex", "62023d132a05c431"),
                 ("dis", "--isa", "agx-g13", "--json", "--hex", "62023d132a05c431"),
                 ("check", "--isa", "lima-gp", "--hex", "ff" * 16),
                 ("dis", "--isa", "agx-g13", "--batch", "-"),
                 ("list",), ("--version",), ("help", "dis")]
        for args in cases:
            with self.subTest(args=args), open("/dev/full", "w") as full:
                r = subprocess.run([ISA] + list(args), input="6202\n", stdout=full, stderr=subprocess.PIPE,
                                   text=True)
                self.assertEqual(r.returncode, 1, r.stderr)
                self.assertIn("isa: cannot write the output: No space left on device", r.stderr)

    def test_batch_of_nothing_is_an_error(self):
        for stdin in ("", b""):
            code, out, err = isa("dis", "--isa", "nv-sph", "--batch", "-", stdin=stdin)
            self.assertEqual((code, out), (1, ""))
            self.assertIn("-: empty input, no lines to disassemble", err)

    def test_batch_json_is_valid_whatever_the_bytes(self):
        # bytes that are not UTF-8 (and some that are) in lines that are not
        # hex: the echo is still UTF-8 JSON, the bad bytes as U+FFFD
        stdin = b"62\xff02\n\xfe\xfd\n\xc3\xa9\n\xed\xa0\x80\n6202\n"
        r = subprocess.run([ISA, "dis", "--isa", "agx-g13", "--batch", "-"], input=stdin, capture_output=True)
        answers = [json.loads(line.decode("utf-8", errors="strict")) for line in r.stdout.splitlines()]
        self.assertEqual([a["hex"] for a in answers],
                         ["62\ufffd02", "\ufffd\ufffd", "\u00e9", "\ufffd\ufffd\ufffd", "6202"])


class Habits(unittest.TestCase):
    """What objdump and llvm-objdump users expect: help per command, hints,
    raw bytes, a window of the input and a base address, hex text from files."""
    AGX = "62023d132a05c431"   # two 4-byte AGX instructions (README)

    def test_help_per_command(self):
        for args, words in ((("dis", "--help"), ("--show-bytes", "--start", "--base", "--input", "--batch")),
                            (("help", "dis"), ("--show-bytes",)),
                            (("check", "--help"), ("--strict", "--start", "--base")),
                            (("list", "--help"), ("usage: isa list",))):
            code, out, _ = isa(*args)
            self.assertEqual(code, 0, args)
            for w in words:
                self.assertIn(w, out, args)
        self.assertNotIn("--strict", isa("dis", "--help")[1])
        self.assertEqual(isa("help", "nothing")[0], 2)

    def test_a_misspelt_spec_gets_a_hint(self):
        for name, hint in (("lima-p", "did you mean 'lima-pp'?"), ("nvsph", "did you mean 'nv-sph'?"),
                           ("agx", "did you mean 'agx-g13' or 'agx-g13@2021'?")):
            code, _, err = isa("dis", "--isa", name, "--hex", "00")
            self.assertEqual(code, 2)
            self.assertIn("unknown spec '%s' (%s" % (name, hint), err)
        self.assertIn("unknown spec 'zzzz' (see 'isa list')", isa("dis", "--isa", "zzzz", "--hex", "00")[2])

    def test_show_bytes_puts_each_units_bytes_before_its_text(self):
        _, plain, _ = isa("dis", "--isa", "agx-g13", "--offsets", "--hex", self.AGX)
        code, out, _ = isa("dis", "--isa", "agx-g13", "--offsets", "--show-bytes", "--hex", self.AGX)
        self.assertEqual(code, 0)
        for line, text, at in zip(out.splitlines(), plain.splitlines(), (0, 4)):
            prefix, rest = text.split(": ", 1)
            raw = " ".join(self.AGX[2 * k:2 * k + 2] for k in range(at, at + 4))
            self.assertEqual(line, "%s: %-23s  %s" % (prefix, raw, rest))

    def test_json_objects_carry_their_bytes(self):
        code, out, _ = isa("dis", "--isa", "agx-g13", "--json", "--hex", self.AGX)
        self.assertEqual(code, 0)
        for obj in map(json.loads, out.splitlines()):
            self.assertEqual(obj["hex"], self.AGX[2 * obj["offset"]:2 * (obj["offset"] + obj["size"])])
        code, _, err = isa("dis", "--isa", "agx-g13", "--json", "--offsets", "--hex", self.AGX)
        self.assertEqual(code, 2, "--json --offsets is refused, not half done")
        self.assertIn("--offsets is for text", err)

    def test_start_stop_and_base(self):
        _, second, _ = isa("dis", "--isa", "agx-g13", "--hex", self.AGX[8:])
        code, out, _ = isa("dis", "--isa", "agx-g13", "--offsets", "--start", "4", "--base", "0x1000",
                           "--hex", self.AGX)
        self.assertEqual((code, out), (0, "1004: " + second))
        _, first, _ = isa("dis", "--isa", "agx-g13", "--hex", self.AGX[:8])
        self.assertEqual(isa("dis", "--isa", "agx-g13", "--stop", "4", "--hex", self.AGX)[1], first)
        code, _, err = isa("dis", "--isa", "agx-g13", "--start", "9", "--hex", self.AGX)
        self.assertEqual(code, 1)
        self.assertIn("outside the program's 8 bytes", err)
        self.assertEqual(isa("dis", "--isa", "agx-g13", "--start", "four", "--hex", self.AGX)[0], 2)
        k = corpus("nv-sph")[0]["hex"]
        _, plain, _ = isa("check", "--isa", "nv-sph", "--hex", "610802000000000c00000004000000c000f00f00" + k[40:])
        _, based, _ = isa("check", "--isa", "nv-sph", "--base", "0x100",
                          "--hex", "610802000000000c00000004000000c000f00f00" + k[40:])
        self.assertTrue(plain.startswith("0x0000: warning"), plain)
        self.assertEqual(based, plain.replace("0x0000:", "0x0100:"))

    def test_hex_text_from_files_and_stdin(self):
        _, want, _ = isa("dis", "--isa", "agx-g13", "--hex", self.AGX)
        text = "0x62023d13, 0x2a05c431\n"
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "prog.hex")
            with open(path, "w") as f:
                f.write(text)
            self.assertEqual(isa("dis", "--isa", "agx-g13", "--input", "hex", path)[:2], (0, want))
        self.assertEqual(isa("dis", "--isa", "agx-g13", "--input", "hex", "-", stdin=text)[:2], (0, want))
        self.assertEqual(isa("dis", "--isa", "agx-g13", "--hex", "62:02:3d:13 2a,05,c4,31")[:2], (0, want))
        # the same text read as binary decodes as something else, with a hint
        code, _, err = isa("dis", "--isa", "agx-g13", "-", stdin=self.AGX)
        self.assertIn("looks like hex text; it is read as binary unless --input hex", err)
        # a byte's digits stay together; 0x only starts a group
        for bad in ("62 02 3 d13", "62020x3d13"):
            code, _, err = isa("dis", "--isa", "agx-g13", "--hex", bad)
            self.assertEqual(code, 1, bad)
            self.assertIn("hex", err)

    def test_memory_stays_flat_however_long_the_file(self):
        # 64 MiB of zeros (4 Mi Lima GP instructions) through dis and check
        # use about what one instruction does: a file is mapped, read in
        # order and let go behind the decoder; a pipe past 8 MiB goes to a
        # temporary file that is mapped the same way
        probe = ("import resource, subprocess, sys\n"
                 "pipe = sys.argv[1] == 'pipe'\n"
                 "args = sys.argv[2:-1] + (['-'] if pipe else sys.argv[-1:])\n"
                 "cat = subprocess.Popen(['cat', sys.argv[-1]], stdout=subprocess.PIPE) if pipe else None\n"
                 "subprocess.run(args, stdin=cat.stdout if pipe else None, stdout=subprocess.DEVNULL, check=True)\n"
                 "if cat: cat.stdout.close(); cat.wait()\n"
                 "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")

        # (under ASan, freed blocks stay resident in its quarantine: the
        # buffers a pipe filled before it went to a file, 1 + 2 + 4 + 8 MiB,
        # put a 64 MiB pipe 2 to 4 MiB over the bound on some machines;
        # what is measured here is the program's memory, not ASan's)
        env = dict(os.environ)
        if "ASAN_OPTIONS" in env:
            env["ASAN_OPTIONS"] += ":quarantine_size_mb=0"

        def peak_kib(*args, via="file"):
            r = subprocess.run([sys.executable, "-c", probe, via, ISA] + list(args), capture_output=True, text=True,
                               env=env)
            self.assertEqual(r.returncode, 0, r.stderr)
            return int(r.stdout)

        with tempfile.TemporaryDirectory() as d:
            small, big = os.path.join(d, "small.bin"), os.path.join(d, "big.bin")
            for path, size in ((small, 16), (big, 64 << 20)):
                with open(path, "wb") as f:
                    f.truncate(size)
            for cmd in ("dis", "check"):
                base, peak = peak_kib(cmd, "--isa", "lima-gp", small), peak_kib(cmd, "--isa", "lima-gp", big)
                self.assertLess(peak - base, 24 << 10, "%s: %d KiB for one instruction, %d KiB for 64 MiB"
                                % (cmd, base, peak))
                peak = peak_kib(cmd, "--isa", "lima-gp", big, via="pipe")
                self.assertLess(peak - base, 24 << 10, "%s: %d KiB for one instruction, %d KiB for 64 MiB piped"
                                % (cmd, base, peak))
            # and what comes through a pipe is all there, in order: the same
            # listing as from the file
            def listing_sha256(shell):
                return subprocess.run(["sh", "-c", shell + " | sha256sum", "sh", big, ISA], capture_output=True,
                                      text=True, check=True).stdout
            self.assertEqual(listing_sha256('cat "$1" | "$2" dis --isa lima-gp --offsets -'),
                             listing_sha256('"$2" dis --isa lima-gp --offsets "$1"'))

    def test_an_elf_files_section_by_name(self):
        # the README's two AGX instructions as the .text of an ELF file of
        # each class and byte order (objcopy, from binutils, which gcc needs)
        _, want, _ = isa("dis", "--isa", "agx-g13", "--hex", self.AGX)
        with tempfile.TemporaryDirectory() as d:
            raw = os.path.join(d, "code.bin")
            with open(raw, "wb") as f:
                f.write(bytes.fromhex(self.AGX))
            for target in ("elf64-x86-64", "elf32-big"):
                elf = os.path.join(d, target)
                subprocess.run(["objcopy", "-I", "binary", "-O", target, "--rename-section", ".data=.text", raw, elf],
                               check=True)
                self.assertEqual(isa("dis", "--isa", "agx-g13", "--section", ".text", elf)[:2], (0, want), target)
                code, out, err = isa("dis", "--isa", "agx-g13", elf)
                self.assertEqual((code, out), (1, ""))
                self.assertIn("name the section to decode with --section (sections with bytes: .text", err)
                code, _, err = isa("dis", "--isa", "agx-g13", "--section", ".nope", elf)
                self.assertIn("no ELF section .nope", err)
                with open(elf, "rb") as f:
                    head = f.read(40)
                with open(os.path.join(d, "cut"), "wb") as f:
                    f.write(head)
                code, _, err = isa("dis", "--isa", "agx-g13", "--section", ".text", os.path.join(d, "cut"))
                self.assertEqual(code, 1)
                self.assertIn("ELF", err)
            code, _, err = isa("dis", "--isa", "agx-g13", "--section", ".text", raw)
            self.assertEqual(code, 1)
            self.assertIn("is not an ELF file", err)


class Check(unittest.TestCase):
    def test_exit_status_follows_severity(self):
        k2b = next(e for e in corpus("nv-sph") if e["id"] == "K2b")
        code, out, _ = isa("check", "--isa", "nv-sph", "--hex", k2b["hex"])
        self.assertEqual(code, 0, "warnings alone pass")
        self.assertEqual(out, "0x0000: warning: CommonWord3.Reserved: reserved bits are set (0xc) [reserved]\n")
        code, _, _ = isa("check", "--isa", "nv-sph", "--strict", "--hex", k2b["hex"])
        self.assertEqual(code, 1, "--strict counts warnings")
        code, out, _ = isa("check", "--isa", "nv-sph", "--hex", K1)
        self.assertEqual((code, out), (0, ""))
        bad = bytearray.fromhex(K1)
        bad[1] |= 0x14  # ShaderType 5 (PIXEL) in a VTG header
        code, out, _ = isa("check", "--isa", "nv-sph", "--hex", bad.hex())
        self.assertEqual(code, 1)
        self.assertIn("error: CommonWord0.SphType: PIXEL shaders use the PS layout (SphType 2), but SphType is VTG "
                      "[sph-type-matches-shader-type]", out)

    def test_json_findings(self):
        k2c = next(e for e in corpus("nv-sph") if e["id"] == "K2c")
        code, out, _ = isa("check", "--isa", "nv-sph", "--json", "--hex", k2c["hex"])
        found = [json.loads(x) for x in out.splitlines()]
        self.assertEqual(sorted((f["field"], f["rule"], f["severity"]) for f in found),
                         [("CommonWord3.Reserved", "reserved", "warning"), ("CommonWord4.Reserved", "reserved", "warning")])

    def test_sph_version_4_reserves_bits_26_and_27(self):
        # word 0: SphType 1, Version 4, VERTEX, SassVersion 1, bits 26 and 27
        # (DoesLoadOrStore and DoesFp64 in version 3); word 4: StoreReqStart 255
        words = [1 | 4 << 5 | 1 << 10 | 1 << 17 | 1 << 26 | 1 << 27, 0, 0, 0, 255 << 12] + [0] * 27
        v4 = b"".join(w.to_bytes(4, "little") for w in words).hex()
        code, out, _ = isa("check", "--isa", "nv-sph@v4", "--hex", v4)
        self.assertEqual((code, out), (0, "0x0000: warning: CommonWord0.ReservedCommonB: reserved bits are set (0x3) "
                                          "[reserved]\n"))
        code, out, err = isa("check", "--isa", "nv-sph@v4", "--hex", v4[:160])
        self.assertEqual(code, 1)
        self.assertIn("truncated input: Header needs 1024 bits at bit 0, 640 available", out + err)


if __name__ == "__main__":
    unittest.main()
