"""make bench, whole process: `isa dis --batch` over each corpus, repeated
to about 50,000 programs, best of three runs, as microseconds per program,
beside the process's start-up (a run over one program).  The C benchmark
prints the in-process decode+print time of the same corpora, to compare.

   batch.py ISA CORPUS-DIR
"""
import json
import os
import subprocess
import sys
import tempfile
import time

CORPORA = [("lima-gp", "lima-gp.jsonl"), ("lima-pp", "lima-pp.jsonl"), ("tgsi", "tgsi.jsonl"),
           ("agx-g13", "agx.jsonl"), ("midgard", "midgard.jsonl")]


def best_time(cmd, runs=3):
    best = None
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        took = time.perf_counter() - start
        best = took if best is None else min(best, took)
    return best


def main(isa, corpus_dir):
    print(f"{'isa dis --batch':26} {'programs':>9} {'µs each':>9} {'start-up ms':>12}")
    with tempfile.TemporaryDirectory() as d:
        for spec, name in CORPORA:
            with open(os.path.join(corpus_dir, name)) as f:
                hexes = [json.loads(line)["hex"] for line in f if line.strip()]
            times = max(1, 50000 // len(hexes))
            path, one = os.path.join(d, spec + ".txt"), os.path.join(d, spec + ".one")
            with open(path, "w") as f:
                f.write("\n".join(hexes * times) + "\n")
            with open(one, "w") as f:
                f.write(hexes[0] + "\n")
            startup = best_time([isa, "dis", "--isa", spec, "--batch", one])
            whole = best_time([isa, "dis", "--isa", spec, "--batch", path])
            n = len(hexes) * times
            print(f"{spec:26} {n:9d} {(whole - startup) / n * 1e6:9.2f} {startup * 1e3:12.1f}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
