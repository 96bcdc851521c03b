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
    return build_specs([old, new], NAMES, tmp)


def build_specs(specs, names, tmp):
    """A throw-away `isa` with these specs compiled in (each loaded under
    its name in `names`)."""
    gen = os.path.join(tmp, "gen")
    os.makedirs(gen, exist_ok=True)
    cli = os.path.join(cgen.RUNTIME_DIR, "cli")
    sources = cgen.write_sources(specs, gen, names) + cgen.runtime_sources() + \
        sorted(os.path.join(cli, n) for n in os.listdir(cli) if n.endswith(".c"))
    exe = os.path.join(tmp, "isa")
    cc = os.environ.get("CC", "cc")
    r = subprocess.run([cc, "-std=c11", "-O0", "-w", "-I", os.path.join(cgen.RUNTIME_DIR, "include"), "-I", gen, "-o", exe]
                       + sources + ["-lm", "-ldl"], capture_output=True, text=True)
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


def differences(a, b, renames=None):
    """What differs between one program's results on both sides; units
    whose encoding was only renamed (`renames`: old name -> new) are the
    same encoding."""
    renames = renames or {}
    what = []
    if a["ok"] != b["ok"]:
        what.append("decodes" if b["ok"] else "no longer decodes")
    ua, ub = a.get("units") or [], b.get("units") or []
    layout = lambda us, names: [(u["offset"], u["size"], names.get(u["name"], u["name"])) for u in us]
    if layout(ua, renames) != layout(ub, {}):
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


def first_difference(a, b):
    """The first line where two printed programs differ, (old, new)."""
    la, lb = a.split("\n"), b.split("\n")
    for x, y in zip(la, lb):
        if x != y:
            return x, y
    return (la[len(lb)] if len(la) > len(lb) else ""), (lb[len(la)] if len(lb) > len(la) else "")


def pattern(entry):
    """What kind of change an entry shows, the same for every entry changed
    alike: the first differing line's mnemonic before and after ('mov ->
    mov_imm'), with what differs; or the fields the printer does not show."""
    a, b = entry["old"], entry["new"]
    what = ", ".join(entry["what"])
    if a["text"] == b["text"] and a["error"] == b["error"]:
        return f"prints the same; unprinted fields differ: {', '.join(entry['fields'])}"
    x, y = first_difference(a["text"] or "", b["text"] or "")
    word = lambda line, err: ("(error)" if err and not line else line if line.startswith("<")
                              else (line.split() or ["(nothing)"])[0])
    m, n = word(x, a["error"]), word(y, b["error"])
    return f"{m} -> {n} ({what})" if m != n else f"{m} ({what})"


def differing_fields(a, b, renames=None):
    """The fields whose values differ between the two sides' units, as
    ENCODING.FIELD (the encoding by its new name)."""
    out = []
    for x, y in zip(a.get("units") or [], b.get("units") or []):
        fx, fy = x["fields"] or {}, y["fields"] or {}
        out += [f"{y['name']}.{k}" for k in sorted(set(fx) | set(fy)) if fx.get(k) != fy.get(k)]
    return sorted(set(out))


def compare(old_reload, new_reload, paths, tmp, renames=None, meaning_changed=()):
    """The corpus report: how many programs, those that changed, and the
    patterns they changed in (with a count and examples each).  A unit
    whose fields differ only in name is printed differently, unless the
    model diff says such a field means something else now
    (`meaning_changed`: 'ENCODING.FIELD' in the new names)."""
    programs = read_programs(paths)
    exe = build(old_reload(NAMES[0]), new_reload(NAMES[1]), tmp)
    before, after = decode_all(exe, NAMES[0], programs), decode_all(exe, NAMES[1], programs)
    changed = []
    for (pid, hexs), a, b in zip(programs, before, after):
        what = differences(a, b, renames)
        if "fields" in what and "decoding" not in what and set(differing_fields(a, b, renames)) & set(meaning_changed):
            what.insert(what.index("fields"), "decoding")
        if what:
            breaking = any(w in ("decodes", "no longer decodes", "encodings", "decoding") for w in what)
            changed.append({"id": pid, "hex": hexs, "class": "breaking" if breaking else "cosmetic", "what": what,
                            "old": {"text": a["text"].rstrip("\n"), "error": a["error"]},
                            "new": {"text": b["text"].rstrip("\n"), "error": b["error"]},
                            "fields": differing_fields(a, b, renames)})
    patterns = {}
    for e in changed:
        key = (e["class"], pattern(e))
        patterns.setdefault(key, []).append(e)
    order = sorted(patterns.items(), key=lambda kv: (kv[0][0] != "breaking", -len(kv[1]), kv[0][1]))
    return {"programs": len(programs), "changed": changed,
            "patterns": [{"class": cls, "pattern": p, "count": len(es),
                          "examples": [example(e) for e in es[:EXAMPLES]]} for (cls, p), es in order]}


EXAMPLES = 3


def example(e):
    if e["old"]["text"] == e["new"]["text"]:
        return {"id": e["id"], "old": e["old"]["text"].split("\n")[0], "new": ", ".join(e["fields"])}
    x, y = first_difference(e["old"]["text"] or e["old"]["error"] or "", e["new"]["text"] or e["new"]["error"] or "")
    return {"id": e["id"], "old": x, "new": y}
