"""make bench: how isagen lint scales (issue: lint must stay linear).

   lint_scale.py ISAGEN

Writes, in a scratch directory, a spec with an enum of 100,000 values and
one with a choice of 10,000 encodings (each fixing 14 bits), and prints the
time `isagen lint` takes on each, fastest of three, beside the time it
takes on a tenth of each: a ratio near 10 is linear, near 100 quadratic."""
import os
import subprocess
import sys
import tempfile
import time


def enum_spec(n):
    vals = "\n".join(f'    <value name="V{i}" value="{i}"/>' for i in range(n))
    width = max(1, (n - 1).bit_length())
    return (f'<?xml version="1.0"?>\n<isa name="t">\n  <enum name="E" width="{width}">\n{vals}\n  </enum>\n'
            f'  <stream unit="S"/>\n  <struct name="S" bits="32">\n    <field name="a" bits="0..{width - 1}" type="E"/>\n'
            f'    <reserved bits="{width}..31"/>\n  </struct>\n</isa>\n')


def choice_spec(n):
    structs = "\n".join(f'  <struct name="S{i}" bits="32">\n    <fixed bits="0..13" value="{i}"/>\n'
                        f'    <field name="a" bits="14..31" type="uint"/>\n    <display>op{i} {{a}}</display>\n'
                        f'  </struct>' for i in range(n))
    alts = "\n".join(f'    <alt type="S{i}"/>' for i in range(n))
    return f'<?xml version="1.0"?>\n<isa name="t">\n  <stream unit="C"/>\n{structs}\n  <choice name="C">\n{alts}\n  </choice>\n</isa>\n'


def seconds(isagen, path):
    best = None
    for _ in range(3):
        t = time.perf_counter()
        subprocess.run([isagen, "lint", "-q", path], check=True)
        best = min(best or 1e9, time.perf_counter() - t)
    return best


def main(isagen):
    print(f"{'isagen lint on':36} {'tenth':>8} {'whole':>8} {'ratio':>6}")
    with tempfile.TemporaryDirectory() as d:
        for label, make, n in (("an enum of 100,000 values", enum_spec, 100000),
                               ("a choice of 10,000 encodings", choice_spec, 10000)):
            times = []
            for size in (n // 10, n):
                path = os.path.join(d, f"{make.__name__}-{size}.xml")
                with open(path, "w") as f:
                    f.write(make(size))
                times.append(seconds(isagen, path))
            print(f"{label:36} {times[0]:7.2f}s {times[1]:7.2f}s {times[1] / times[0]:6.1f}")


if __name__ == "__main__":
    main(sys.argv[1])
