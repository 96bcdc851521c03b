"""Seed inputs for `make fuzz`: every program of a spec's corpora, once per
fuzzer mode (first byte 0: decode a program; 1: overwrite fields and pack).
A corpus is the spec's when its records' "isa" is the spec's name, or that
name and a version (agx-g13-2021); any version of a spec takes them all.

    seeds.py SPEC CORPUS_DIR OUT_DIR
"""
import glob
import json
import os
import sys


def corpus_isa(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                return json.loads(line).get("isa") or ""
    return ""


def main():
    spec, corpus_dir, out = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    base = spec.split("@")[0]
    files = [path for path in sorted(glob.glob(os.path.join(corpus_dir, "*.jsonl")))
             if corpus_isa(path) in (base,) or corpus_isa(path).startswith(base + "-")]
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
