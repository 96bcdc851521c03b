"""The console examples of README.md, docs/cli.md and docs/diff.md are run and must print
what the documents say they print, so the two-minute tour stays true.

A block is a ```console fence (README) or a ``` fence whose first line is a
`$ isa` command (docs/cli.md).  Each `$ ` line is run with bash in the
repository, in one shell per block (so `H=...` carries over), with `isa` and
`out/bin/isa` meaning the binary under test; the lines up to the next `$ `
are its expected output (stdout and stderr, as a terminal shows them).
Lines containing `...` are abbreviations and are compared up to the dots;
commands that write files (`-o DIR`) are not run.  README.md's C example is
compiled and run too (CExample)."""
import os
import re
import subprocess
import tempfile
import unittest

from .common import ISA, ROOT

DOCS = ["README.md", os.path.join("docs", "cli.md"), os.path.join("docs", "diff.md")]


def blocks(path):
    """[(line number, [(command, [expected lines])])] of the runnable fences."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        lines = f.read().split("\n")
    out, i = [], 0
    while i < len(lines):
        m = re.match(r"^```(\w*)$", lines[i])
        if not m:
            i += 1
            continue
        start, body = i + 1, []
        i += 1
        while i < len(lines) and lines[i] != "```":
            body.append(lines[i])
            i += 1
        i += 1
        if not body or not (m.group(1) == "console" or body[0].startswith("$ isa ")):
            continue
        cmds = []
        for line in body:
            if line.startswith("$ "):
                cmds.append((line[2:], []))
            elif cmds:
                cmds[-1][1].append(line)
        out.append((start, cmds))
    return out


class ConsoleExamples(unittest.TestCase):
    def run_block(self, path, start, cmds):
        with tempfile.TemporaryDirectory() as bindir:
            os.symlink(ISA, os.path.join(bindir, "isa"))
            marker = "@@isagen-doc-test@@"
            script = []
            for cmd, _ in cmds:
                if " -o " in cmd:
                    script.append(f"echo {marker}")
                    continue
                cmd = cmd.replace("out/bin/isa", "isa")
                script.append(f"{{ {cmd.split(' # ')[0]} ; }} 2>&1; echo {marker}")
            env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
            r = subprocess.run(["bash", "-c", "\n".join(script)], cwd=ROOT, env=env,
                               capture_output=True, text=True)
        outputs = r.stdout.split(marker + "\n")
        for (cmd, expected), got in zip(cmds, outputs):
            if " -o " in cmd:
                continue
            # a final newline ends the last line; output without one (head -c) is still a line
            got_lines = got[:-1].split("\n") if got.endswith("\n") else (got.split("\n") if got else [])
            self.assertEqual(len(got_lines), len(expected), f"{path}:{start}: {cmd}\n{got}")
            for want, have in zip(expected, got_lines):
                if "..." in want:
                    self.assertTrue(have.startswith(want.split("...")[0]), f"{path}:{start}: {cmd}\n{have}")
                else:
                    self.assertEqual(have, want, f"{path}:{start}: {cmd}")

    def test_examples(self):
        n = 0
        for path in DOCS:
            for start, cmds in blocks(path):
                with self.subTest(doc=path, line=start):
                    self.run_block(path, start, cmds)
                n += len(cmds)
        self.assertGreater(n, 5)  # the documents do have examples


class CExample(unittest.TestCase):
    """README.md's C example, compiled against the generated header alone
    and run on Mesa's vertex header K1 (a VTG header, 80 bytes): it must
    do what its comments say -- the switch to the pixel view packs cleanly
    but for the version, which does not fit its 5 bits."""

    def test_the_readme_c_example_does_what_it_says(self):
        with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
            block = re.search(r"^```c\n(.*?)^```", f.read(), re.S | re.M).group(1)
        lines = block.split("\n")
        program = "\n".join([l for l in lines if l.startswith("#include")] + [
            "#include <stdio.h>",
            "int main(void)",
            "{",
            "   uint8_t bytes[80] = {0x61, 0x04, 0x02, 0x00}, out[80];",
            "   size_t len = sizeof bytes;",
            "   bytes[17] = 0xf0;",
            "   bytes[18] = 0x0f;",
        ] + [l for l in lines if not l.startswith("#include")] + [
            '   printf("%d %s %d\\n", err.status == ISA_ERR_RANGE, err.field, h.variant == NV_SPH_HEADER_PS);',
            "   return 0;",
            "}"])
        with tempfile.TemporaryDirectory() as d:
            src, exe = os.path.join(d, "example.c"), os.path.join(d, "example")
            with open(src, "w") as f:
                f.write(program)
            r = subprocess.run(["cc", "-std=c11", "-Wall", "-Werror", "-I", os.path.join(ROOT, "out", "gen"),
                                "-o", exe, src], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr + program)
            r = subprocess.run([exe], capture_output=True, text=True)
        self.assertEqual(r.stdout, "1 CommonWord0.Version 1\n")


if __name__ == "__main__":
    unittest.main()
