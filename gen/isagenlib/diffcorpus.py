"""`isagen diff --corpus`: decode a corpus under both specs and list what
changed.

Both specs are generated (under the names diff-old and diff-new, so they
link into one program), compiled with the runtime and the `isa` command
into a throw-away binary, and each program of the corpus goes through
`isa dis --batch --json` once per side.  An entry is listed when the two
disagree: it decodes under one side only, its units are other encodings or
sizes, a field both sides have holds another value (decoding), fields are
named differently (fields), or only the printed text differs (text).  The
first three are breaking, the others cosmetic.

A corpus is a JSON Lines file (each record's "hex", named by its "id", or
FILE:LINE), or any other file, read as one raw binary program.
"""

import json
import os
import subprocess

from . import cgen

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
RUNTIME = os.path.join(ROOT, "runtime")
NAMES = ("diff-old", "diff-new")


class CorpusError(Exception):
    pass


def read_programs(paths):
    """[(id, hex)] of every program the corpus files hold."""
    out = []
    for path in paths:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise CorpusError(f"{path}: {e.strerror}")
        if path.endswith(".jsonl"):
            for n, line in enumerate(data.decode("utf-8").splitlines(), 1):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                    out.append((str(rec.get("id") or f"{os.path.basename(path)}:{n}"), rec["hex"]))
                except (ValueError, KeyError, TypeError):
                    raise CorpusError(f"{path}:{n}: not a corpus record with a \"hex\" string")
        else:
            out.append((os.path.basename(path), data.hex()))
    return out


def build(old, new, tmp):
    """A throw-away `isa` with both specs compiled in."""
    gen = os.path.join(tmp, "gen")
    os.makedirs(gen, exist_ok=True)
    for spec in (old, new):
        for name, text in cgen.generate(spec).items():
            with open(os.path.join(gen, name), "w", encoding="utf-8") as f:
                f.write(text)
    with open(os.path.join(gen, "isagen_specs.c"), "w", encoding="utf-8") as f:
        f.write(cgen.registry(NAMES))
    sources = sorted(os.path.join(d, n) for d in (os.path.join(RUNTIME, "src"), os.path.join(RUNTIME, "cli"), gen)
                     for n in os.listdir(d) if n.endswith(".c"))
    exe = os.path.join(tmp, "isa")
    cc = os.environ.get("CC", "cc")
    r = subprocess.run([cc, "-std=c11", "-O0", "-w", "-I", os.path.join(RUNTIME, "include"), "-I", gen, "-o", exe]
                       + sources + ["-lm"], capture_output=True, text=True)
    if r.returncode:
        raise CorpusError(f"cannot build the decoders ({cc}):\n{r.stderr.strip()[:2000]}")
    return exe


def decode_all(exe, name, programs):
    r = subprocess.run([exe, "dis", "--isa", name, "--json", "--batch", "-"], capture_output=True, text=True,
                       input="".join(h + "\n" for _, h in programs))
    lines = r.stdout.splitlines()
    if len(lines) != len(programs):
        raise CorpusError(f"decoding with {name} failed: {r.stderr.strip()[:500]}")
    return [json.loads(x) for x in lines]


def differences(a, b):
    """What differs between one program's results on both sides."""
    what = []
    if a["ok"] != b["ok"]:
        what.append("decodes" if b["ok"] else "no longer decodes")
    ua, ub = a.get("units") or [], b.get("units") or []
    shape = lambda us: [(u["offset"], u["size"], u["name"]) for u in us]
    if shape(ua) != shape(ub):
        what.append("encodings")
    else:
        for x, y in zip(ua, ub):
            fx, fy = x["fields"] or {}, y["fields"] or {}
            if any(fx[k] != fy[k] for k in fx if k in fy):
                what.append("decoding")
                break
        for x, y in zip(ua, ub):
            if set(x["fields"] or {}) != set(y["fields"] or {}):
                what.append("fields")
                break
    if a["text"] != b["text"]:
        what.append("text")
    return what


def compare(old_reload, new_reload, paths, tmp):
    """The corpus report: how many programs, and those that changed."""
    programs = read_programs(paths)
    exe = build(old_reload(NAMES[0]), new_reload(NAMES[1]), tmp)
    before, after = decode_all(exe, NAMES[0], programs), decode_all(exe, NAMES[1], programs)
    changed = []
    for (pid, hexs), a, b in zip(programs, before, after):
        what = differences(a, b)
        if what:
            breaking = any(w in ("decodes", "no longer decodes", "encodings", "decoding") for w in what)
            changed.append({"id": pid, "hex": hexs, "class": "breaking" if breaking else "cosmetic", "what": what,
                            "old": {"text": a["text"].rstrip("\n"), "error": a["error"]},
                            "new": {"text": b["text"].rstrip("\n"), "error": b["error"]}})
    return {"programs": len(programs), "changed": changed}
