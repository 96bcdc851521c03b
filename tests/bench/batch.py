"""make bench, whole process: `isa dis --batch` over each corpus, repeated
to about 50,000 programs, best of three runs, as microseconds per program,
beside the process's start-up (a run over one program).  Given the C
benchmark as well, it runs its "SPEC dis, in process" cases (the same
programs decoded and printed in process, without hex or JSON) and prints
their time per program and the ratio of the two.

   batch.py ISA CORPUS-DIR [BENCH]
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


def in_process(bench):
    """µs per program of the benchmark's "SPEC dis, in process" cases"""
    out = subprocess.run([bench, "dis, in process"], capture_output=True, text=True, check=True).stdout
    times = {}
    for line in out.splitlines():
        words = line.split()
        if len(words) >= 6 and words[1:4] == ["dis,", "in", "process"]:
            times[words[0]] = float(words[5]) / 1000
    return times


def main(isa, corpus_dir, bench=None):
    inproc = in_process(bench) if bench else {}
    print(f"{'isa dis --batch':26} {'programs':>9} {'µs each':>9} {'start-up ms':>12}"
          + (f" {'in process µs':>14} {'ratio':>6}" if inproc else ""))
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
            each = (whole - startup) / n * 1e6
            line = f"{spec:26} {n:9d} {each:9.2f} {startup * 1e3:12.1f}"
            if spec in inproc:
                line += f" {inproc[spec]:14.2f} {each / inproc[spec]:6.2f}"
            print(line)


if __name__ == "__main__":
    main(*sys.argv[1:4])
