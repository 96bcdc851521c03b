"""Command line: `isagen lint FILE...` and `isagen generate FILE -o DIR`."""

import argparse
import os
import sys

from . import build, check, versions, xmlload
from .diag import Diagnostics, Loc, SpecError


def load_spec(path, schema=None, display_path=None, version=None):
    """The whole front end: load, select the version, build, check.
    Raises SpecError."""
    diags = Diagnostics()
    doc = xmlload.load(path, diags, schema, display_path)
    diags.stop_if_errors()
    vs = versions.declared(doc, diags)
    versions.check_ranges(doc, vs, diags)
    if vs is not None:
        versions.check_overrides(doc, vs, diags)
    diags.stop_if_errors()
    if vs is not None:
        if version is None:
            version = vs.default
        elif version not in vs.names:
            diags.error(Loc(doc.display_path, 0, 0), f"no version '{version}' (versions: {', '.join(vs.names)})")
            diags.stop_if_errors()
        versions.select(doc, vs, version)
        # named before build derives every C name from it
        doc.root.set("name", versions.spec_name(doc.root.get("name"), vs, version))
    elif version is not None:
        diags.error(Loc(doc.display_path, 0, 0), f"--version {version}: the spec declares no <versions>")
        diags.stop_if_errors()
    spec = build.build(doc, diags)
    if vs is not None:
        spec.version, spec.versions = version, list(vs.names)
    diags.stop_if_errors()
    check.check_spec(spec, diags)
    diags.stop_if_errors()
    spec.warnings = [d for d in diags.items if d.severity == "warning"]
    return spec


def display_name(path):
    """Paths in diagnostics and generated files: relative when possible, so
    output never depends on where the checkout lives."""
    rel = os.path.relpath(path)
    return rel if not rel.startswith("..") else os.path.basename(path)


def version_names(path, schema=None):
    """The versions a spec file declares ([None] when it has none, or when
    the file does not load: load_spec then says why)."""
    diags = Diagnostics()
    doc = xmlload.load(path, diags, schema, path)
    vs = versions.declared(doc, diags) if doc is not None and not diags.errors else None
    return vs.names if vs is not None else [None]


def cmd_lint(args):
    """Every version of every file: a problem found in only some versions
    names them."""
    status = 0
    for path in args.files:
        names = version_names(path, args.schema)
        found, specs = {}, []
        for v in names:
            try:
                specs.append(load_spec(path, args.schema, display_name(path), v))
                for w in specs[-1].warnings:
                    found.setdefault(str(w), []).append(v)
            except SpecError as e:
                for d in e.diagnostics:
                    found.setdefault(str(d), []).append(v)
        for text, where in found.items():
            if len(names) > 1 and len(where) < len(names):
                text += f" (in version {', '.join(where)})"
            print(text, file=sys.stderr)
        if any(": error: " in t for t in found):
            status = 1
        elif not args.quiet:
            spec = specs[-1]
            more = f", {len(names)} versions" if len(names) > 1 else ""
            print(f"{display_name(path)}: ok ({spec.name.split('@')[0]}: {len(spec.types)} types, {len(spec.enums)} enums{more})")
    return status


def cmd_generate(args):
    from . import codegen
    try:
        spec = load_spec(args.file, args.schema, display_name(args.file), args.version)
    except SpecError as e:
        for d in e.diagnostics:
            print(d, file=sys.stderr)
        return 1
    os.makedirs(args.output, exist_ok=True)
    for name, text in codegen.generate(spec).items():
        path = os.path.join(args.output, name)
        # Only rewrite changed files, so make does not rebuild needlessly.
        old = None
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                old = f.read()
        if old != text:
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
    return 0


def cmd_registry(args):
    from . import codegen
    text = codegen.registry(args.names)
    os.makedirs(os.path.dirname(args.output) or ".", exist_ok=True)
    old = open(args.output, encoding="utf-8").read() if os.path.exists(args.output) else None
    if old != text:
        with open(args.output, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(prog="isagen", description="XML ISA descriptions -> C pack/unpack/print/validate.")
    p.add_argument("--schema", help="RelaxNG schema (default: xml/isagen.rng beside the generator)")
    sub = p.add_subparsers(dest="command", required=True)
    lint = sub.add_parser("lint", help="check spec files; print file:line:col errors")
    lint.add_argument("files", nargs="+")
    lint.add_argument("-q", "--quiet", action="store_true", help="print only problems")
    lint.set_defaults(func=cmd_lint)
    gen = sub.add_parser("generate", help="write <spec>.h and <spec>.c")
    gen.add_argument("file")
    gen.add_argument("-o", "--output", required=True, help="output directory")
    gen.add_argument("--version", help="the spec as of this version (default: the spec's default version)")
    gen.set_defaults(func=cmd_generate)
    reg = sub.add_parser("registry", help="write the C table of compiled-in specs")
    reg.add_argument("names", nargs="*", help="spec names")
    reg.add_argument("-o", "--output", required=True)
    reg.set_defaults(func=cmd_registry)
    args = p.parse_args(argv)
    return args.func(args)
