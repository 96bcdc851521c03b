"""Which spec a reference corpus is for, and how to read it.

A corpus is tests/corpus/NAME.jsonl; its records say which instruction set
they are for in "isa".  Key K names spec S when K is S, or, for a version
spec BASE@V, when K is BASE-V (the corpora write agx-g13-2021 for
agx-g13@2021).  Beside it, NAME.quirks.json says how to read it: option
keys, trimmed texts, the reference printer's quirks we fix, and the
deviations the tests allow, each with its reason.  NAME-excluded.jsonl and
NAME-program.jsonl are read with NAME's, and real-NAME.jsonl (programs a
compiler made) with its own if it has one, else with NAME's.  Used by
tests/corpus2c.py, tests/fuzz/seeds.py and tests/cli/test_real.py: nothing
else knows which corpus goes with which spec.
"""
import json
import os
import re


def corpus_key(path):
    """The "isa" key of a corpus file's records (they share one)."""
    keys = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                keys.add(json.loads(line).get("isa") or "")
    if len(keys) != 1:
        raise ValueError(f"{path}: the records name {len(keys)} instruction sets ({', '.join(sorted(keys))}), not one")
    return keys.pop()


def spec_for_key(key, specs):
    """The spec (of `specs`) a corpus key names, or None."""
    for s in specs:
        base, _, version = s.partition("@")
        if key == s or (version and key == f"{base}-{version}"):
            return s
    return None


def config_path(path):
    """The quirks file that goes with a corpus file (it may not exist): a
    real-NAME corpus (programs a compiler made, README-real.md) has its own,
    or is read as NAME is, since the same printer made its text."""
    d, base = os.path.split(path)
    base = re.sub(r"(-program)?(-excluded)?\.jsonl$", ".quirks.json", base)
    if base.startswith("real-") and not os.path.exists(os.path.join(d, base)):
        base = base[len("real-"):]
    return os.path.join(d, base)


def asm_gaps(path):
    """The records of a corpus the assembler does not read back yet, as
    {record number (1-based line): reason}, from NAME.asm-gaps.json (a
    list kept by hand: tests/unit/test_asm.c fails when a listed record
    does assemble)."""
    p = re.sub(r"\.jsonl$", ".asm-gaps.json", path)
    if not os.path.exists(p):
        return {}
    with open(p, encoding="utf-8") as f:
        doc = json.load(f)
    return {int(k): v for k, v in doc["gaps"].items()}


def config(path):
    p = config_path(path)
    if not os.path.exists(p):
        return {}
    with open(p, encoding="utf-8") as f:
        return json.load(f)
