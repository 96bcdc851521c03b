"""Turn the JSON Lines corpora into C data for the Criterion tests.

    corpus2c.py --specs "SPEC..." -o OUT.c CORPUS.jsonl...

Writes OUT.c and OUT.h: per corpus NAME.jsonl, corpus_NAME[] (its entries:
id, hex bytes, flags and flat "fields" object, name -> integer, so the C
tests need no JSON parser) and corpus_NAME_count; and the table corpora[]
of every corpus with the spec it is for (its records' "isa" key, see
tests/corpora.py) and the deviations its quirks file allows.  This only
transcodes the reference data; it computes nothing.  A corpus whose key
names none of the specs is an error: a corpus must be for a spec.
"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "gen"))
sys.path.insert(0, HERE)
from isagenlib.cgen.names import c_string as c_str  # noqa: E402  (one C string escaper for all generated C)
import corpora  # noqa: E402

# which records a deviation applies to: the flags below
RECORDS = {"none_operand": "CORPUS_NONE_OPERAND", "fixed_quirk": "CORPUS_FIXED_QUIRK"}


def ident(path):
    return "corpus_" + re.sub(r"[^A-Za-z0-9_]", "_", os.path.basename(path)[:-len(".jsonl")])


def entries_c(path, out):
    """The entries of one corpus as C, appended to `out`; their number."""
    import json
    name = ident(path)
    entries = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
    config = corpora.config(path)
    fixed = {q for q, c in config.get("quirks", {}).items() if c["choice"] == "fix"}
    gaps = corpora.asm_gaps(path)
    for i, e in enumerate(entries):
        fields = e.get("fields") or {}
        if isinstance(fields, dict) and fields:
            out.append(f"static const struct corpus_field {name}_f{i}[] = {{")
            for k, v in fields.items():
                out.append(f"   {{{c_str(k)}, {int(v)}LL}},")
            out.append("};")
    out.append(f"const struct corpus_entry {name}[] = {{")
    for i, e in enumerate(entries):
        fields = e.get("fields") or {}
        n = len(fields) if isinstance(fields, dict) else 0
        flags = []
        if e.get("reserved_set"):
            flags.append("CORPUS_RESERVED_SET")
        if e.get("enum_unnamed"):
            flags.append("CORPUS_ENUM_UNNAMED")
        if e.get("kind") == "stream":
            flags.append("CORPUS_LISTING")
        if e.get("none_operand"):
            flags.append("CORPUS_NONE_OPERAND")
        if fixed & set(e.get("quirks") or ()):
            flags.append("CORPUS_FIXED_QUIRK")
        if config.get("trailing_newlines") == "removed":
            flags.append("CORPUS_TRIMMED")
        # spec options the entry names, as "name=value,name=value"
        options = ",".join(f"{k}={e[k]}" for k in config.get("option_keys", ()) if k in e)
        options = c_str(options) if options else "0"
        fl = " | ".join(flags) or "0"
        eid = e.get("id", str(i))
        fp = f"{name}_f{i}" if n else "0"
        text = c_str(e["text"]) if isinstance(e.get("text"), str) else "0"
        # unknown bits the fields leave out, as a hex number
        rem = c_str(format(e["rem"], "x")) if isinstance(e.get("rem"), int) else "0"
        # an encoding another one always shadows: decoded by name, and what it decodes as
        as_alt = c_str(re.sub(r"[^A-Za-z0-9_]", "_", e["desc"])) if e.get("first_match") else "0"
        decodes_as = c_str(re.sub(r"[^A-Za-z0-9_]", "_", e["first_match"])) if e.get("first_match") else "0"
        # per None operand, in order: a texture's U field, or "-" for another kind
        none_u = "0"
        if e.get("none_operand") and "fields" in e:
            lines = e["text"].split("\n")
            fl_ = e["fields"] if isinstance(e["fields"], list) else [e["fields"]]
            tokens = []
            for line, f in zip(lines, fl_):
                mnem = re.sub(r"^[0-9a-f]+: ", "", line).split(" ")[0]
                tokens += [str(f["U"]) if mnem.startswith("texture_") else "-"] * line.count(", None")
            none_u = c_str(",".join(tokens))
        out.append(f"   {{{c_str(eid)}, {c_str(e['hex'])}, {fp}, {n}, {c_str(e.get('type', ''))}, {text}, {fl}, "
                   f"{rem}, {as_alt}, {decodes_as}, {none_u}, {options}, {c_str(gaps[i + 1]) if i + 1 in gaps else '0'}}},")
    out.append("};")
    out.append(f"const unsigned {name}_count = {len(entries)};")
    return len(entries)


def deviations_c(path, out):
    """The deviations the quirks file allows this corpus, as a C array; its name or 0."""
    devs = corpora.config(path).get("deviations", []) if not path.endswith("-excluded.jsonl") else []
    if not devs:
        return "0", 0
    name = ident(path) + "_deviations"
    out.append(f"static const struct corpus_deviation {name}[] = {{")
    for d in devs:
        if d["records"] not in RECORDS or d["compare"] not in ("expected", "both"):
            raise ValueError(f"{corpora.config_path(path)}: a deviation needs records in {sorted(RECORDS)} "
                             "and compare 'expected' or 'both'")
        out.append(f"   {{{RECORDS[d['records']]}, {c_str(d['transform'])}, {1 if d['compare'] == 'both' else 0}, "
                   f"{c_str(d['reason'])}}},")
    out.append("};")
    return name, len(devs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--specs", required=True, help="the spec names built (isagen specs)")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    specs = a.specs.split()
    files = sorted(a.files)
    body, table = [], []
    for path in files:
        key = corpora.corpus_key(path)
        spec = corpora.spec_for_key(key, specs)
        if spec is None:
            sys.exit(f"{path}: its records are for \"{key}\", which no spec is (specs: {', '.join(specs)})")
        entries_c(path, body)
        dev, ndev = deviations_c(path, body)
        table.append(f"   {{{c_str(spec)}, {c_str(os.path.basename(path))}, {ident(path)}, &{ident(path)}_count, "
                     f"{dev}, {ndev}}},")
    header = os.path.splitext(a.output)[0] + ".h"
    with open(a.output, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join([f"/* Generated by tests/corpus2c.py from tests/corpus/; do not edit. */",
                           '#include "corpus.h"', ""] + body + [
            "", "const struct corpus corpora[] = {"] + table + ["};",
            f"const unsigned n_corpora = {len(files)};"]) + "\n")
    with open(header, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(["/* Generated by tests/corpus2c.py; do not edit. */",
                           "#ifndef TEST_CORPORA_H", "#define TEST_CORPORA_H", ""]
                          + [f"extern const struct corpus_entry {ident(p)}[];\nextern const unsigned {ident(p)}_count;"
                             for p in files]
                          + ["", "#endif"]) + "\n")


if __name__ == "__main__":
    main()
