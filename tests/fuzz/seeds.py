"""Seed inputs for `make fuzz`: every program of a spec's corpora, once per
fuzzer mode (first byte 0: decode a program; 1: overwrite fields and pack).
A corpus is for the spec its records' "isa" names (tests/corpora.py); any
version of a spec takes the corpora of all its versions.

    seeds.py SPEC CORPUS_DIR OUT_DIR "SPECS..."
"""
import glob
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import corpora  # noqa: E402


def main():
    spec, corpus_dir, out, specs = sys.argv[1:5]
    os.makedirs(out, exist_ok=True)
    base = spec.split("@")[0]
    files = []
    for path in sorted(glob.glob(os.path.join(corpus_dir, "*.jsonl"))):
        target = corpora.spec_for_key(corpora.corpus_key(path), specs.split())
        if target is not None and target.split("@")[0] == base:
            files.append(path)
    n = 0
    for path in files:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                data = bytes.fromhex(json.loads(line)["hex"])
                for mode in (0, 1):
                    with open(os.path.join(out, f"seed-{mode}-{n:05d}"), "wb") as o:
                        o.write(bytes([mode]) + data)
                n += 1
    print(f"seeds: {n} programs for {spec} from {len(files)} corpus file(s)")


if __name__ == "__main__":
    main()
