"""Running the isa binary (ISA=path, set by make) and reading corpora."""
import json
import os
import subprocess

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ISA = os.path.abspath(os.environ.get("ISA", os.path.join(ROOT, "out", "bin", "isa")))
CORPUS = os.path.join(ROOT, "tests", "corpus")


def isa(*args, stdin=None):
    """Run isa; returns (exit status, stdout, stderr)."""
    r = subprocess.run([ISA] + list(args), input=stdin, capture_output=True,
                       text=not isinstance(stdin, bytes), cwd=ROOT)
    out, err = r.stdout, r.stderr
    if isinstance(out, bytes):
        out, err = out.decode(), err.decode()
    return r.returncode, out, err


def corpus(name):
    with open(os.path.join(CORPUS, name + ".jsonl"), encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]
