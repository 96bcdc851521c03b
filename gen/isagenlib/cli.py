"""Command line: `isagen lint FILE...`, `isagen generate FILE -o DIR` and
`isagen diff OLD NEW`."""

import argparse
import os
import subprocess
import sys
import tempfile

from . import build, check, versions, xmlload
from .diag import Diagnostics, Loc, SpecError


def load_spec(path, schema=None, display_path=None, version=None, name=None, element_class=None):
    """The whole front end: load, select the version, build, check.
    `name` replaces the spec's name (and so its C prefix).  Raises
    SpecError."""
    diags = Diagnostics()
    doc = xmlload.load(path, diags, schema, display_path, element_class)
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
    if name is not None:
        doc.root.set("name", name)
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


def write_if_changed(path, text):
    """Only rewrite changed files, so make does not rebuild needlessly."""
    old = None
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            old = f.read()
    if old != text:
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)


def cmd_generate(args):
    """One process for any number of specs: the schema is read and the
    templates compiled once (all nine builds of xml/ take under a second)."""
    from . import cgen
    if args.version is not None and (len(args.files) != 1 or args.all_versions):
        print("isagen generate: --version takes one FILE (use --all-versions for several)", file=sys.stderr)
        return 2
    todo = [(path, v) for path in args.files
            for v in (version_names(path, args.schema) if args.all_versions else [args.version])]
    specs, failed = [], False
    for path, v in todo:
        try:
            specs.append(load_spec(path, args.schema, display_name(path), v))
        except SpecError as e:
            failed = True
            for d in e.diagnostics:
                print(d, file=sys.stderr)
    if failed:
        return 1
    os.makedirs(args.output, exist_ok=True)
    generator = cgen.Generator()
    for spec in specs:
        for name, text in generator.generate(spec).items():
            write_if_changed(os.path.join(args.output, name), text)
    if args.registry:
        os.makedirs(os.path.dirname(args.registry) or ".", exist_ok=True)
        write_if_changed(args.registry, cgen.registry([s.name for s in specs]))
    return 0


def cmd_registry(args):
    from . import cgen
    os.makedirs(os.path.dirname(args.output) or ".", exist_ok=True)
    write_if_changed(args.output, cgen.registry(args.names))
    return 0


def parse_side(arg):
    """A side of `isagen diff`: FILE, FILE@REV (the file at a git revision),
    either with :VERSION.  Returns (path, rev, version)."""
    version = None
    head, sep, tail = arg.rpartition(":")
    if sep and "/" not in tail and tail:
        arg, version = head, tail
    rev = None
    slash = arg.rfind("/")
    at = arg.rfind("@")
    if at > slash:
        arg, rev = arg[:at], arg[at + 1:]
    return arg, rev, version


def load_side(arg, schema, tmpdir):
    """The spec a diff side names, how to call it in the report, and a
    function that loads it again under another name (for --corpus)."""
    path, rev, version = parse_side(arg)
    shown = path + (f"@{rev}" if rev else "")
    local = path
    if rev:
        where = os.path.dirname(os.path.abspath(path)) or "."
        top = subprocess.run(["git", "-C", where, "rev-parse", "--show-toplevel"], capture_output=True, text=True)
        if top.returncode:
            raise SpecError([f"{arg}: not in a git checkout ({top.stderr.strip()})"])
        rel = os.path.relpath(os.path.abspath(path), top.stdout.strip())
        blob = subprocess.run(["git", "-C", top.stdout.strip(), "show", f"{rev}:{rel}"], capture_output=True)
        if blob.returncode:
            raise SpecError([f"{arg}: {blob.stderr.decode(errors='replace').strip()}"])
        local = os.path.join(tmpdir, f"{len(os.listdir(tmpdir))}-{os.path.basename(path)}")
        with open(local, "wb") as f:
            f.write(blob.stdout)
    else:
        shown = display_name(path)
    reload = lambda name=None: load_spec(local, schema, shown, version, name)
    spec = reload()
    if spec.version:
        shown += f":{spec.version}"
    return spec, shown, reload


def cmd_diff(args):
    from . import diff, diffreport
    with tempfile.TemporaryDirectory() as tmp:
        try:
            old, old_name, old_reload = load_side(args.old, args.schema, tmp)
            new, new_name, new_reload = load_side(args.new, args.schema, tmp)
        except SpecError as e:
            for d in e.diagnostics:
                print(d, file=sys.stderr)
            return 2
        changes = diff.diff(old, new)
        corpus = None
        if args.corpus:
            from . import diffcorpus
            try:
                corpus = diffcorpus.compare(old_reload, new_reload, args.corpus, tmp)
            except diffcorpus.CorpusError as e:
                print(f"isagen diff: {e}", file=sys.stderr)
                return 2
    sys.stdout.write(diffreport.FORMATS[args.format](old_name, new_name, changes, corpus))
    if args.fail_on:
        found = [c.cls for c in changes] + [e["class"] for e in (corpus or {}).get("changed", [])]
        if diffreport.fails(found, args.fail_on):
            return 1
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
    gen.add_argument("files", nargs="+", metavar="FILE")
    gen.add_argument("-o", "--output", required=True, help="output directory")
    gen.add_argument("--version", help="the spec as of this version (default: the spec's default version)")
    gen.add_argument("--all-versions", action="store_true", help="every version of each FILE, each its own spec")
    gen.add_argument("--registry", metavar="FILE", help="also write the C table of the specs generated (isagen_specs.c)")
    gen.set_defaults(func=cmd_generate)
    reg = sub.add_parser("registry", help="write the C table of compiled-in specs")
    reg.add_argument("names", nargs="*", help="spec names")
    reg.add_argument("-o", "--output", required=True)
    reg.set_defaults(func=cmd_registry)
    dif = sub.add_parser("diff", help="what changed between two specs, by meaning",
                         description="OLD and NEW are FILE or FILE@REV (the file at a git revision), "
                                     "each optionally with :VERSION (e.g. xml/agx-g13.xml:2021).")
    dif.add_argument("old")
    dif.add_argument("new")
    dif.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    dif.add_argument("--fail-on", choices=("breaking", "compatible", "cosmetic", "doc"),
                     help="exit 1 if a change of this class or a worse one is found")
    dif.add_argument("--corpus", action="append", default=[],
                     help="a JSON Lines corpus (its records' hex) or a raw binary program: list the entries "
                          "that decode or print differently (repeatable; builds both versions with cc)")
    dif.set_defaults(func=cmd_diff)
    args = p.parse_args(argv)
    return args.func(args)
