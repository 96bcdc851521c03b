"""Command line: `isagen lint FILE...` and `isagen generate FILE -o DIR`."""

import argparse
import os
import sys

from . import build, check, xmlload
from .diag import Diagnostics, SpecError


def load_spec(path, schema=None, display_path=None):
    """The whole front end: load, build, check.  Raises SpecError."""
    diags = Diagnostics()
    doc = xmlload.load(path, diags, schema, display_path)
    diags.stop_if_errors()
    spec = build.build(doc, diags)
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


def cmd_lint(args):
    status = 0
    for path in args.files:
        try:
            spec = load_spec(path, args.schema, display_name(path))
            for w in spec.warnings:
                print(w, file=sys.stderr)
            if not args.quiet:
                print(f"{display_name(path)}: ok ({spec.name}: {len(spec.types)} types, {len(spec.enums)} enums)")
        except SpecError as e:
            for d in e.diagnostics:
                print(d, file=sys.stderr)
            status = 1
    return status


def cmd_generate(args):
    from . import codegen
    try:
        spec = load_spec(args.file, args.schema, display_name(args.file))
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
    gen.set_defaults(func=cmd_generate)
    reg = sub.add_parser("registry", help="write the C table of compiled-in specs")
    reg.add_argument("names", nargs="*", help="spec names")
    reg.add_argument("-o", "--output", required=True)
    reg.set_defaults(func=cmd_registry)
    args = p.parse_args(argv)
    return args.func(args)
