"""The generator's contract, fuzzed (docs/design.md, "What lint guarantees"):
any spec file either gets file:line:col errors from `isagen lint` (exit 1,
no traceback, bounded time and memory), or generates C that compiles
warning-free under the project's flags and whose decoders, printers,
validators and encoders run clean under ASan and UBSan.

   spec_fuzz.py --out DIR [--seed S] [--mutants N] [--builds M] [--inputs K] SPEC.xml...

Each mutant is one of the SPEC files with one to three random changes: an
attribute given a number at an edge (0, -1, 2^k +- 1, huge), another bit
list, a name of something else in the file (duplicates, cycles), an
expression or template with a token inserted, replaced or dropped, an
element deleted or duplicated, or the bytes truncated or flipped.  Every
mutant is linted; the first M that lint clean are generated, compiled with
the harness of make fuzz (tests/fuzz/fuzz_spec.c) and run on K random
inputs.  A broken contract saves the mutant in DIR/failures/ and the run
exits 1.  Deterministic for a seed.
"""
import argparse
import os
import random
import re
import resource
import shutil
import subprocess
import sys

from lxml import etree

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "gen"))
from isagenlib import cgen  # noqa: E402  (the runtime's sources, as isagen build compiles them)

ISAGEN = os.path.join(ROOT, "gen", "isagen")
DIAG = re.compile(r"^.+:\d+:\d+: (error|warning): .+$")
CFLAGS = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-O1", "-g",
          "-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-DISA_OUT_CHECK_RUNS"]

EDGE_NUMBERS = ["0", "1", "-1", "2", "7", "8", "31", "32", "33", "63", "64", "65", "255", "256", "65535", "65536",
                "65537", "4294967295", "4294967296", "9223372036854775807", "18446744073709551615",
                "18446744073709551616", "1000000000000", "0x7f", "0b101", "1_000"]
TOKENS = ["0", "1", "-1", "+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "~", "!", "==", "!=", "<", ">",
          "&&", "||", "?", ":", "(", ")", "[", "]", ",", ".", "$offset", "$prev", "$index", "bit", "bits",
          "sext", "present", "18446744073709551616", "{", "}", "{if x}", "{end}", "{else}", "{list \", \"}", "{item}"]
EXPRESSION_ATTRS = ("when", "check", "value", "length", "display", "args", "stop", "next", "size", "present",
                    "count", "index", "message")


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


def names_in(root):
    return sorted({el.get("name") for el in root.iter() if isinstance(el.tag, str) and el.get("name")})


def mutate_tree(rng, root):
    """One change to the tree (in place); what it was, in a few words."""
    elements = [el for el in root.iter() if isinstance(el.tag, str)]
    el = rng.choice(elements)
    kind = rng.choice(["number", "number", "bits", "name", "expr", "expr", "delete", "duplicate", "text"])
    attrs = list(el.attrib)
    if kind == "number" and attrs:
        a = rng.choice(attrs)
        el.set(a, rng.choice(EDGE_NUMBERS))
        return f"{el.tag} {a}={el.get(a)}"
    if kind == "bits":
        hi = rng.choice([7, 15, 31, 63, 64, 127, 700, 70000])
        lo = rng.randint(0, hi)
        el.set("bits", f"{lo}..{rng.randint(lo, hi)}" if rng.random() < 0.7 else str(lo))
        return f"{el.tag} bits={el.get('bits')}"
    if kind == "name" and attrs:
        a = rng.choice([x for x in attrs if x in ("name", "type", "unit", "operand", "enum", "extends")] or attrs)
        el.set(a, rng.choice(names_in(root) or ["x"]))
        return f"{el.tag} {a}={el.get(a)}"
    if kind == "expr":
        targets = [(a, el.get(a)) for a in attrs if a in EXPRESSION_ATTRS]
        if el.text and el.text.strip():
            targets.append((None, el.text))
        if targets:
            a, text = rng.choice(targets)
            parts = re.findall(r"\{[^{}]*\}|[A-Za-z_$][A-Za-z0-9_.]*|\d+|\S", text) or [""]
            i = rng.randrange(len(parts))
            op = rng.choice(["insert", "replace", "drop"])
            if op == "insert":
                parts.insert(i, rng.choice(TOKENS))
            elif op == "replace":
                parts[i] = rng.choice(TOKENS)
            else:
                del parts[i]
            new = " ".join(parts)
            if a is None:
                el.text = new
            else:
                el.set(a, new)
            return f"{el.tag} {a or 'text'}: {op}"
    if kind == "delete" and el is not root:
        el.getparent().remove(el)
        return f"deleted a <{el.tag}>"
    if kind == "duplicate" and el is not root:
        el.addnext(etree.fromstring(etree.tostring(el)))
        return f"duplicated a <{el.tag}>"
    if kind == "text":
        el.text = (el.text or "") + rng.choice(["x", "&amp;", "\t", "{", "}", "\\q"])
        return f"<{el.tag}> text"
    return "nothing"


def mutant(rng, path):
    """(bytes, description) of one mutant of the spec file at path."""
    with open(path, "rb") as f:
        data = f.read()
    if rng.random() < 0.08:  # the bytes themselves: malformed XML
        b = bytearray(data)
        if rng.random() < 0.5:
            return bytes(b[:rng.randrange(len(b))]), "truncated"
        i = rng.randrange(len(b))
        b[i] = rng.randrange(256)
        return bytes(b), f"byte {i} changed"
    root = etree.fromstring(data)
    what = [mutate_tree(rng, root) for _ in range(rng.randint(1, 3))]
    return etree.tostring(root, xml_declaration=True, encoding="utf-8"), "; ".join(what)


def run(cmd, timeout, limited=True):
    """The command's result, None past the timeout; `limited`: in at most
    4 GiB of address space (not for ASan, which maps terabytes of shadow)."""
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              preexec_fn=limit_memory if limited else None)
    except subprocess.TimeoutExpired:
        return None


class Fuzz:
    def __init__(self, out, inputs):
        self.out, self.inputs = out, inputs
        self.failures = 0
        self.tally = {}

    def fail(self, name, data, why):
        os.makedirs(os.path.join(self.out, "failures"), exist_ok=True)
        with open(os.path.join(self.out, "failures", name), "wb") as f:
            f.write(data)
        print(f"spec_fuzz: {name}: {why}", file=sys.stderr)
        self.failures += 1

    def count(self, what):
        self.tally[what] = self.tally.get(what, 0) + 1

    def lint(self, name, path, data):
        r = run([ISAGEN, "lint", "-q", path], 60)
        if r is None:
            return self.fail(name, data, "lint took over 60 s")
        if "Traceback" in r.stderr or r.returncode not in (0, 1):
            return self.fail(name, data, f"lint exit {r.returncode}:\n{r.stderr[-3000:]}")
        if r.returncode == 1:
            bad = [ln for ln in r.stderr.splitlines() if ln.strip() and not DIAG.match(ln)]
            if bad or not r.stderr.strip():
                return self.fail(name, data, f"lint failed without a file:line:col error: {bad or 'no message'}")
            self.count("refused by lint")
            return False
        self.count("lint clean")
        return True

    def build(self, name, path, data):
        gen = os.path.join(self.out, "build")
        shutil.rmtree(gen, ignore_errors=True)
        os.makedirs(gen)
        r = run([ISAGEN, "generate", path, "-o", gen, "--registry", os.path.join(gen, "isagen_specs.c")], 120)
        if r is None or r.returncode:
            return self.fail(name, data, f"lint clean, but generate failed:\n{r.stderr[-3000:] if r else 'timeout'}")
        specs = run([ISAGEN, "specs", path], 60).stdout.split()
        exe = os.path.join(gen, "fuzz")
        sources = sorted(os.path.join(gen, f) for f in os.listdir(gen) if f.endswith(".c"))
        r = run(["gcc", *CFLAGS, f"-DFUZZ_SPEC=\"{specs[0]}\"", "-I", os.path.join(cgen.RUNTIME_DIR, "include"),
                 "-I", gen, "-o", exe, os.path.join(ROOT, "tests", "fuzz", "fuzz_spec.c"),
                 os.path.join(ROOT, "tests", "fuzz", "run_inputs.c"), *cgen.runtime_sources(), *sources, "-lm"], 300)
        if r is None or r.returncode:
            return self.fail(name, data, f"lint clean, but its C does not compile with -Werror:\n"
                                         f"{r.stderr[-3000:] if r else 'timeout'}")
        r = run([exe, str(self.inputs), "1"], 120, limited=False)
        if r is None or r.returncode:
            return self.fail(name, data, f"its C fails on random input:\n{(r.stderr if r else 'timeout')[-3000:]}")
        self.count("built and run")


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mutants", type=int, default=100)
    ap.add_argument("--builds", type=int, default=10)
    ap.add_argument("--inputs", type=int, default=2000)
    ap.add_argument("specs", nargs="+")
    a = ap.parse_args(argv)
    rng = random.Random(a.seed)
    os.makedirs(a.out, exist_ok=True)
    fz = Fuzz(a.out, a.inputs)
    builds = 0
    for i in range(a.mutants):
        src = rng.choice(a.specs)
        data, what = mutant(rng, src)
        name = f"{i:04d}-{os.path.basename(src)}"
        path = os.path.join(a.out, "mutant.xml")
        with open(path, "wb") as f:
            f.write(data)
        if fz.lint(name, path, data) and builds < a.builds:
            builds += 1
            fz.build(name, path, data)
    print("spec_fuzz: %d mutants (seed %d): %s; %d contract failures" % (
        a.mutants, a.seed, ", ".join(f"{v} {k}" for k, v in sorted(fz.tally.items())), fz.failures))
    return 1 if fz.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
