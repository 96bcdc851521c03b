"""make bench BASELINE=REV: this tree's bench against a baseline revision's.

Both `bench` binaries run alternately, ROUNDS times each (so a busy machine
slows both alike), each printing its own medians per case; this script takes
the fastest of those per case and side (other work on the machine only ever
slows a run down, and on a shared machine it comes and goes over seconds)
and prints the generated code's ns per item before and after, and their
ratio (after / before: below 1.00 is faster).  Cases are matched by name;
a case only one side has is shown alone.

   compare.py BASELINE-BENCH NEW-BENCH [ROUNDS] [-- BENCH-ARGS...]
"""
import re
import subprocess
import sys

ROW = re.compile(r"^(\S.*?)\s{2,}(\S+)\s+([\d.]+)\s+(?:[\d.]+|-)\s+(?:[\d.]+|-)$")


def run(exe, args):
    """{case: (unit, ns per item of the generated code)} of one bench run."""
    out = subprocess.run([exe, *args], capture_output=True, text=True, check=True).stdout
    table = {}
    for line in out.splitlines():
        m = ROW.match(line)
        if m and m.group(1) != "case":
            table[m.group(1).strip()] = (m.group(2), float(m.group(3)))
    return table


def main(argv):
    args = argv[argv.index("--") + 1:] if "--" in argv else []
    argv = argv[:argv.index("--")] if "--" in argv else argv
    base, new = argv[1], argv[2]
    rounds = int(argv[3]) if len(argv) > 3 else 3
    before, after, units, order = {}, {}, {}, []
    for _ in range(rounds):
        for exe, into in ((base, before), (new, after)):
            for case, (unit, ns) in run(exe, args).items():
                into.setdefault(case, []).append(ns)
                units[case] = unit
                if case not in order:
                    order.append(case)
    print(f"{'case':26} {'ns per':10} {'baseline':>10} {'this tree':>10} {'ratio':>7}")
    for case in order:
        b = min(before[case]) if case in before else None
        a = min(after[case]) if case in after else None
        cell = lambda v: f"{v:10.1f}" if v is not None else f"{'-':>10}"
        ratio = f"{a / b:7.2f}" if a is not None and b else f"{'-':>7}"
        print(f"{case:26} {units[case]:10} {cell(b)} {cell(a)} {ratio}")
    print(f"(fastest of {rounds} alternating runs of each; ratio = this tree / baseline)")


if __name__ == "__main__":
    main(sys.argv)
