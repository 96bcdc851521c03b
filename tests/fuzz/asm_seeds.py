"""Seed inputs for the assembler's fuzz target (tests/fuzz/fuzz_asm.c): for
every spec with an assembler, texts it reads, and the same texts with a
random edit each, for the mutator to start from.

A seed is one byte, which picks the spec (its index among the specs with an
assembler, in the order of their names, as the target numbers them; the
byte's high bits ask for room for nine diagnostics, and some seeds for a
small output buffer), then the text.  The texts:
  - records of the spec's corpora (tests/corpora.py says which; those of
    its other versions too, after its own), spread evenly over them: their "text", or isa dis's text of their "hex" when
    they have none;
  - programs of a few records one after another, as isa dis prints them,
    and as isa dis --offsets prints them (a listing);
  - each of those with one random edit (a character dropped, doubled or
    changed, a digit changed, blanks or a comment put in, a line dropped,
    doubled or swapped with the next), from a fixed random seed, so the
    seeds are the same on every run.

    asm_seeds.py ISA CORPUS_DIR OUT_DIR "SPECS..." [PER_SPEC]
"""
import glob
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import corpora  # noqa: E402

DIAGS = 0x30  # the first byte's bits 4-5: room for nine diagnostics
SMALL = 0x40  # bit 6: a 16-byte output buffer
MAX_SEED = 1024


def has_assembler(isa, spec):
    r = subprocess.run([isa, "as", "--isa", spec, "--batch", "-"], input='""\n', capture_output=True, text=True)
    return "has no assembler" not in r.stderr


def records(corpus_dir, spec, specs):
    """The records of the spec's corpora: its own first, then its other
    versions' (as tests/fuzz/seeds.py takes them)."""
    own, others = [], []
    for path in sorted(glob.glob(os.path.join(corpus_dir, "*.jsonl"))):
        target = corpora.spec_for_key(corpora.corpus_key(path), specs)
        if target is None or target.split("@")[0] != spec.split("@")[0]:
            continue
        out = own if target == spec else others
        with open(path, encoding="utf-8") as f:
            out += [json.loads(line) for line in f if line.strip()]
    return own + others


def dis(isa, spec, hexes, *more):
    """isa dis's text of each program (one JSON line each through --batch; a
    program that does not decode gives None)."""
    r = subprocess.run([isa, "dis", "--isa", spec, *more, "--batch", "-"], input="".join(h + "\n" for h in hexes),
                       capture_output=True, text=True)
    answers = [json.loads(line) for line in r.stdout.splitlines()]
    return [a["text"] if a["ok"] else None for a in answers]


def edit(rng, text):
    """text with one random edit."""
    if not text:
        return "#"
    i = rng.randrange(len(text))
    lines = text.split("\n")
    k = rng.randrange(len(lines))
    how = rng.randrange(9)
    if how == 0:
        return text[:i] + text[i + 1:]
    if how == 1:
        return text[:i] + text[i] + text[i:]
    if how == 2:
        return text[:i] + rng.choice("0123456789abcdefxrhl.,:_^$[]-+ \t\n#;") + text[i + 1:]
    if how == 3:
        digits = [j for j, c in enumerate(text) if c.isdigit()]
        if digits:
            j = rng.choice(digits)
            return text[:j] + str(rng.randrange(10)) * rng.randrange(1, 4) + text[j + 1:]
        return text + "0"
    if how == 4:
        return text[:i] + rng.choice(["  ", "\t", "\n", " \n\n ", "\r\n"]) + text[i:]
    if how == 5:
        lines[k] += rng.choice(["  # comment", " ; note", "#", ";;"])
        return "\n".join(lines)
    if how == 6:
        del lines[k]
        return "\n".join(lines)
    if how == 7:
        lines.insert(k, lines[k])
        return "\n".join(lines)
    if k + 1 < len(lines):
        lines[k], lines[k + 1] = lines[k + 1], lines[k]
    return "\n".join(lines)


def main():
    isa, corpus_dir, out, specs = sys.argv[1:5]
    per_spec = int(sys.argv[5]) if len(sys.argv) > 5 else 40
    specs = specs.split()
    os.makedirs(out, exist_ok=True)
    rng = random.Random(20261126)
    with_asm = sorted(s for s in specs if has_assembler(isa, s))
    n = 0
    for index, spec in enumerate(with_asm):
        recs = records(corpus_dir, spec, specs)
        if not recs:
            print(f"asm seeds: {spec}: no corpus")
            continue
        step = max(1, len(recs) // per_spec)
        chosen = recs[::step][:per_spec]
        texts = [r.get("text") for r in chosen]
        missing = [i for i, t in enumerate(texts) if t is None]
        for i, t in zip(missing, dis(isa, spec, [chosen[i]["hex"] for i in missing])):
            texts[i] = t
        # programs of four records (of one unit each, where the corpus says)
        singles = [r["hex"] for r in recs if r.get("kind", "insn") == "insn"]
        groups = ["".join(singles[j:j + 4]) for j in range(0, min(len(singles), 16 * step), 4 * step)][:4]
        texts += dis(isa, spec, groups) + dis(isa, spec, groups, "--offsets")
        # the matcher takes its time over each unit: short texts, so that a run gets past its seeds
        texts = [t for t in texts if t is not None and len(t.encode()) <= MAX_SEED]
        texts += [edit(rng, t) for t in texts]
        for k, t in enumerate(texts):
            first = index | DIAGS | (SMALL if k % 7 == 3 else 0)
            with open(os.path.join(out, f"seed-{spec.replace('@', '_')}-{k:04d}"), "wb") as f:
                f.write(bytes([first]) + t.encode())
            n += 1
    print(f"asm seeds: {n} texts for {', '.join(with_asm)}")


if __name__ == "__main__":
    main()
