"""make bench, whole process: `isa dis --batch` over each corpus, repeated
to about 50,000 programs, best of three runs, as microseconds per program,
beside the process's start-up (a run over one program).  Given the C
benchmark as well, it runs its "in process" cases and sets two figures
beside each spec's:
  - "SPEC batch, in process": the same lines answered in memory by the CLI's
    own batch_answer (hex in, JSON out).  The ratio to it is what the
    process adds: reading the lines and writing the answers.
  - "SPEC dis, in process": the same programs decoded and printed, without
    hex or JSON.  The ratio to it is what a line of --batch costs over the
    disassembly itself (the hex, the JSON escaping and the process).

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
    """{(spec, "dis" or "batch"): µs per program} of the benchmark's
    "SPEC dis, in process" and "SPEC batch, in process" cases"""
    out = subprocess.run([bench, ", in process"], capture_output=True, text=True, check=True).stdout
    times = {}
    for line in out.splitlines():
        words = line.split()
        if len(words) >= 6 and words[1] in ("dis,", "batch,") and words[2:4] == ["in", "process"]:
            times[(words[0], words[1].rstrip(","))] = float(words[5]) / 1000
    return times


def main(isa, corpus_dir, bench=None):
    inproc = in_process(bench) if bench else {}
    print(f"{'isa dis --batch':16} {'programs':>9} {'µs each':>9} {'start-up ms':>12}"
          + (f" {'batch in process':>17} {'ratio':>6} {'dis in process':>15} {'ratio':>6}" if inproc else ""))
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
            line = f"{spec:16} {n:9d} {each:9.2f} {startup * 1e3:12.1f}"
            for kind, width in (("batch", 17), ("dis", 15)):
                if (spec, kind) in inproc:
                    t = inproc[(spec, kind)]
                    line += f" {t:{width}.2f} {each / t:6.2f}"
            print(line)


if __name__ == "__main__":
    main(*sys.argv[1:4])
