"""Which encodings a corpus exercises, and with which field values: the
evidence `isagen doc --corpus` and `isagen space --corpus` show.

The spec is generated and compiled into a throw-away `isa` (as `isagen
diff --corpus` does, diffcorpus.py), every program decodes through `isa dis
--batch --json`, and each unit counts for the encoding it decoded as.
"""

from . import diffcorpus

NAME = "evidence"
MAX_VALUES = 16     # distinct values listed per field, then "…"


def collect(spec_loader, paths, tmp):
    """{encoding name: {"count": units, "fields": {field: [values seen]}}};
    spec_loader(name) loads the spec under C name `name`."""
    programs = diffcorpus.read_programs(paths)
    exe = diffcorpus.build_specs([spec_loader(NAME)], [NAME], tmp)
    out = {}
    for result in diffcorpus.decode_all(exe, NAME, programs):
        for unit in result.get("units") or []:
            seen = out.setdefault(unit["name"], {"count": 0, "fields": {}})
            seen["count"] += 1
            for field, value in (unit.get("fields") or {}).items():
                values = seen["fields"].setdefault(field, [])
                if value not in values and len(values) <= MAX_VALUES:
                    values.append(value)
    for seen in out.values():
        for field, values in seen["fields"].items():
            more = len(values) > MAX_VALUES
            values = sorted(values[:MAX_VALUES], key=lambda v: (str(type(v)), v))
            seen["fields"][field] = values + (["…"] if more else [])
    return out
