"""Seed inputs for `make fuzz`: every program of a spec's corpora, once per
fuzzer mode (first byte 0: decode a program; 1: overwrite fields and pack).

    seeds.py SPEC CORPUS_DIR OUT_DIR
"""
import glob
import json
import os
import sys


def main():
    spec, corpus_dir, out = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    files = sorted(glob.glob(os.path.join(corpus_dir, f"{spec}.jsonl")) +
                   glob.glob(os.path.join(corpus_dir, f"{spec}-*.jsonl")))
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
