"""Command line: `isagen lint FILE...`, `isagen generate FILE -o DIR` and
`isagen diff OLD NEW`."""

import argparse
import os
import subprocess
import sys
import tempfile

from . import build, check, formats, versions, xmlload
from .version import version as isagen_version
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
        versions.check_copies(doc, diags)
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
    formats.expand(doc, diags)
    diags.stop_if_errors()
    spec = build.build(doc, diags)
    if vs is not None:
        spec.version, spec.versions = version, list(vs.names)
    if diags.errors:
        # a build error stops the checks of what it touches (names may not
        # resolve), but the rest of the spec is checked all the same:
        # independent errors, all at once
        check.check_part(spec, diags, checkable(doc, diags))
    diags.stop_if_errors()
    check.check_spec(spec, diags)
    diags.stop_if_errors()
    spec.warnings = [d for d in diags.items if d.severity == "warning"]
    return spec


def checkable(doc, diags):
    """A predicate: whether a model object (by its loc) lies in a top-level
    element of the file (a struct, an enum...) that can be checked after
    the errors so far.  Not if an error points into it (or into a format it
    extends), nor if it names such an element, directly or through others:
    any word of its attributes or text that is the element's name counts,
    a conservative reading.  An element that reads a $state, an $option,
    $prev or $next also needs the <stream> that declares them."""
    import bisect
    import re
    from .resolve import CONTEXT_VARS
    # placed by (line, col): two elements may share a line
    tops = sorted((((loc.line, loc.col), el) for el in [*doc.root, *doc.formats] if isinstance(el.tag, str)
                   for loc in [doc.loc(el)]), key=lambda t: t[0])
    starts = [at for at, _ in tops]
    named_by = {}  # a word -> the elements it occurs in
    for i, (_, el) in enumerate(tops):
        text = " ".join(v for e in el.iter() if isinstance(e.tag, str)
                        for v in [*e.attrib.values(), e.text or "", e.tail or ""])
        words = set(re.findall(r"\$?[A-Za-z_][A-Za-z0-9_]*", text))
        words.update(doc.families.get(el.get("name"), ()) if el.tag == "struct" else ())
        if any(w.startswith("$") and w[1:] not in CONTEXT_VARS and w != "$name" for w in words):
            words.add("$")  # a $state, $option, $prev or $next
        for w in words:
            named_by.setdefault(w, []).append(i)
    broken = {bisect.bisect_right(starts, (d.loc.line, d.loc.col)) - 1 for d in diags.errors} - {-1}
    todo = list(broken)
    while todo:  # each element once: linear in the file
        el = tops[todo.pop()][1]
        for i in named_by.get("$" if el.tag == "stream" else el.get("name"), ()):
            if i not in broken:
                broken.add(i)
                todo.append(i)
    return lambda obj: bisect.bisect_right(starts, (obj.loc.line, obj.loc.col)) - 1 not in broken


def display_name(path):
    """Paths in diagnostics and reports: as the user wrote them, so that a
    message names the file they gave.  (Generated C names its spec file by
    basename only, so that it never depends on where the checkout lives.)"""
    return path


def version_names(path, schema=None):
    """The versions a spec file declares ([None] when it has none, or when
    the file does not read: load_spec then says why)."""
    return versions.peek(path)[1] or [None]


def spec_builds(paths, schema=None):
    """[(path, version)] of every build of these files, in the order specs
    are listed: files sorted, each file's default version first, then its
    other versions oldest first.  (path, None) for a file without versions."""
    out = []
    for path in sorted(paths):
        _, names, default = versions.peek(path)
        out += [(path, default)] + [(path, v) for v in names if v != default] if names else [(path, None)]
    return out


def cmd_specs(args):
    """The spec names the files build (NAME and NAME@VERSION), one per line,
    or as make variables with --make."""
    names = []
    for path, v in spec_builds(args.files, args.schema):
        name, vs, default = versions.peek(path)
        if name is None:
            print(f"{path}: cannot read it (isagen lint says why)", file=sys.stderr)
            return 1
        names.append(name if v is None or v == default else f"{name}@{v}")
    if args.make:
        from .cgen import c_prefix
        print("# generated by isagen specs; the specs of " + " ".join(sorted(args.files)))
        print("SPECS := " + " ".join(names))
        print("SPEC_PREFIXES := " + " ".join(c_prefix(n) for n in names))
    else:
        print("\n".join(names))
    return 0


def asm_problems(spec):
    """What the assembler cannot read in spec's templates, as diagnostics
    (isagen lint --asm): each names the template and the expression."""
    from .cgen.assembler import AsmTables
    from .cgen.names import Names
    tables = AsmTables(Names(spec))
    out = []
    for loc, message in tables.unsupported:
        where = str(loc) if loc is not None else display_name(spec.file)
        out.append(f"{where}: error: cannot be assembled: {message}")
    if tables.ok:
        for loc, message in tables.warnings:
            where = str(loc) if loc is not None else display_name(spec.file)
            out.append(f"{where}: warning: {message}")
    return out


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
                if args.asm:
                    for d in asm_problems(specs[-1]):
                        found.setdefault(d, []).append(v)
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


def load_builds(files, schema, all_versions, version):
    """The specs to generate: each file as of `version` (or its default),
    or every version of each with all_versions; None, with the problems
    printed, when one does not load.  Each spec's file is its name alone:
    generated files are the same from any working directory, and name no
    path of the machine they were made on."""
    todo = spec_builds(files, schema) if all_versions else [(p, version) for p in files]
    specs, failed = [], False
    for path, v in todo:
        try:
            specs.append(load_spec(path, schema, display_name(path), v))
        except SpecError as e:
            failed = True
            for d in e.diagnostics:
                print(d, file=sys.stderr)
    if failed:
        return None
    for spec, (path, _) in zip(specs, todo):
        spec.file = os.path.basename(path)
    return specs


def cmd_generate(args):
    """One process for any number of specs: the schema is read and the
    templates compiled once (all nine builds of xml/ take under a second)."""
    from . import cgen
    if args.version is not None and (len(args.files) != 1 or args.all_versions):
        print("isagen generate: --version takes one FILE (use --all-versions for several)", file=sys.stderr)
        return 2
    if args.prefix is not None:
        problem = cgen.names.prefix_problem(args.prefix)
        if problem is None and (len(args.files) != 1 or args.all_versions):
            problem = "--prefix names one spec's C: give one FILE, without --all-versions"
        if problem:
            print(f"isagen generate: {problem}", file=sys.stderr)
            return 2
    specs = load_builds(args.files, args.schema, args.all_versions, args.version)
    if specs is None:
        return 1
    problem = output_problem(args.output)
    if problem:
        print(f"isagen generate: {problem}", file=sys.stderr)
        return 1
    generator = cgen.Generator()
    for spec in specs:
        files = generator.generate(spec, args.prefix)
        if args.single_header:
            files = cgen.single_header(spec.name, files)
        for name, text in files.items():
            write_if_changed(os.path.join(args.output, name), text)
    if args.registry and args.single_header:
        print("isagen generate: --registry lists compiled specs; a single header has none to list", file=sys.stderr)
        return 2
    if args.registry:
        problem = output_problem(os.path.dirname(args.registry) or ".", "--registry")
        if problem:
            print(f"isagen generate: {problem}", file=sys.stderr)
            return 1
        write_if_changed(args.registry, cgen.registry([s.name for s in specs],
                                                      prefixes=[args.prefix] if args.prefix else None))
    return 0


def output_problem(path, option="-o"):
    """None when `path` is (or could be made) a directory to write into;
    else what is wrong, as a message naming the option and the path as
    given."""
    try:
        os.makedirs(path, exist_ok=True)
    except FileExistsError:
        return f"{option} {path}: a file is there, not a directory"
    except OSError as e:
        return f"{option} {path}: cannot make the directory: {e.strerror}"
    if not os.access(path, os.W_OK):
        return f"{option} {path}: cannot write there: permission denied"
    return None


def cmd_build(args):
    """A spec library for isa --load (speclib.py)."""
    from . import speclib
    specs = load_builds(args.files, args.schema, args.all_versions, None)
    if specs is None:
        return 1
    try:
        speclib.build(specs, args.output)
    except speclib.BuildError as e:
        print(f"isagen build: {e}", file=sys.stderr)
        return 1
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
    function load(version, name) that loads the same file again in another
    version (None: the side's) or under another name (for --corpus), giving
    (spec, how to call it)."""
    path, rev, side_version = parse_side(arg)
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

    def load(version=None, name=None):
        spec = load_spec(local, schema, shown, version or side_version, name)
        return spec, shown + (f":{spec.version}" if spec.version else "")
    spec, named = load()
    return spec, named, load


def cmd_diff(args):
    from . import diff, diffreport
    reports, found = [], []
    with tempfile.TemporaryDirectory() as tmp:
        try:
            old, old_name, old_load = load_side(args.old, args.schema, tmp)
            new, new_name, new_load = load_side(args.new, args.schema, tmp)
            sides = [(old, old_name, new, new_name, None)]
            if args.all_versions:
                if args.format == "html":
                    print("isagen diff: --format html is one page for one version: name it (FILE:VERSION)",
                          file=sys.stderr)
                    return 2
                if parse_side(args.old)[2] or parse_side(args.new)[2]:
                    print("isagen diff: --all-versions compares every version: name none on the sides",
                          file=sys.stderr)
                    return 2
                names = [v for v in new.versions if v in old.versions]
                sides = [old_load(v) + new_load(v) + (v,) for v in names] or sides
        except SpecError as e:
            for d in e.diagnostics:
                print(d, file=sys.stderr)
            return 2
        for old, old_name, new, new_name, version in sides:
            changes, entries = diff.report(old, new)
            corpus = None
            if args.corpus:
                from . import diffcorpus
                try:
                    renames = {c.old: c.new for c in changes if c.kind == "encoding-renamed"}
                    meaning = {c.where for c in changes if c.cls == "breaking" and c.kind.startswith("field-")}
                    corpus = diffcorpus.compare(lambda name: old_load(version, name)[0],
                                                lambda name: new_load(version, name)[0], args.corpus, tmp, renames,
                                                meaning)
                except diffcorpus.CorpusError as e:
                    print(f"isagen diff: {e}", file=sys.stderr)
                    return 2
            if args.no_locations:
                for c in changes:
                    c.old_at = c.new_at = None
                for e in entries:
                    e.old_at = e.new_at = None
            extra = (old, new) if args.format == "html" else ()
            reports.append(diffreport.FORMATS[args.format](old_name, new_name, entries, changes, corpus,
                                                           args.link_base, *extra))
            found += [c.cls for c in changes] + [e["class"] for e in (corpus or {}).get("changed", [])]
    if args.format == "json" and args.all_versions:
        sys.stdout.write("[\n" + ",\n".join(r.rstrip("\n") for r in reports) + "\n]\n")
    else:
        sys.stdout.write("\n".join(reports))
    if args.fail_on and diffreport.fails(found, args.fail_on):
        return 1
    return 0


def load_versions(path, schema=None, display_path=None):
    """{version: spec} of every version of a file, oldest first ({None: spec}
    for a file without versions).  Raises SpecError."""
    first = load_spec(path, schema, display_path)
    return {v: first if v in (None, first.version) else load_spec(path, schema, display_path, v)
            for v in first.versions or [None]}


def cmd_git_diff(args):
    """Git's external diff driver (docs/diff.md#git): PATH OLD-FILE OLD-HEX
    OLD-MODE NEW-FILE NEW-HEX NEW-MODE, a side that does not exist being
    /dev/null.  Prints the semantic diff of every version both sides have;
    a side that does not load is said, not fatal (git stops at a driver
    that fails)."""
    from . import diff, diffreport
    if len(args.args) < 7:
        print("isagen git-diff: git passes PATH OLD-FILE OLD-HEX OLD-MODE NEW-FILE NEW-HEX NEW-MODE; set it as "
              "diff.isagen.command (docs/diff.md#git)", file=sys.stderr)
        return 2
    path, old_file, old_hex, new_file = args.args[0], args.args[1], args.args[2], args.args[4]
    short = lambda h: h[:12] if h.strip("0.") else "worktree"
    sys.stdout.write(f"isagen diff a/{path} b/{path}\n")
    if old_file == "/dev/null" or new_file == "/dev/null":
        sys.stdout.write(f"{path}: spec file {'added' if old_file == '/dev/null' else 'removed'}\n")
        return 0
    try:
        old = load_versions(old_file, args.schema, f"{path}@{short(old_hex)}")
        new = load_versions(new_file, args.schema, path)
        both = [v for v in new if v in old] or [None]
        for version in both:
            # (a file that gained or lost <versions> compares its default ones)
            a = old.get(version) or next(iter(old.values()))
            b = new.get(version) or next(iter(new.values()))
            changes, entries = diff.report(a, b)
            suffix = f":{version}" if version else ""
            sys.stdout.write(diffreport.text(f"{path}@{short(old_hex)}{suffix}", f"{path}{suffix}", entries, changes))
    except SpecError as e:
        sys.stdout.write(f"{path}: no semantic diff, a side does not load:\n")
        for d in e.diagnostics:
            sys.stdout.write(f"  {d}\n")
    return 0


def cmd_doc(args):
    """One HTML page per version of each spec file (docs/cli.md#isagen-doc)."""
    from . import diff, diffcorpus, diffgroup, htmldoc, space
    os.makedirs(args.output, exist_ok=True)
    status = 0
    for path in args.files:
        stem = os.path.splitext(os.path.basename(path))[0]
        try:
            specs = load_versions(path, args.schema)
            names = list(specs)
            default = versions.peek(path)[2]
        except SpecError as e:
            for d in e.diagnostics:
                print(d, file=sys.stderr)
            status = 1
            continue
        for i, v in enumerate(names):
            spec = specs[v]
            changes = []
            if i > 0:   # what this version adds, removes or changes from the one before
                _, entries = diff.report(specs[names[i - 1]], spec)
                choices = {t.name for t in spec.types if t.kind == "choice"}
                changes.append((names[i - 1], [(e.text, diffgroup.element_path(e.where, choices)[0])
                                               for e in entries]))
            evidence, corpus_name = None, None
            if args.corpus:
                from . import evidence as ev
                try:
                    with tempfile.TemporaryDirectory() as tmp:
                        evidence = ev.collect(lambda name: load_spec(path, args.schema, version=v, name=name),
                                              args.corpus, tmp)
                except diffcorpus.CorpusError as e:
                    print(f"isagen doc: {e}", file=sys.stderr)
                    return 2
                corpus_name = ", ".join(display_name(c) for c in args.corpus)
            counts = None if evidence is None else {k: x["count"] for k, x in evidence.items()}
            spaces = space.analyse(spec, counts)
            page = htmldoc.build_page(spec, spec.document.families, stem, default, changes,
                                      spaces, evidence, corpus_name)
            out = os.path.join(args.output, htmldoc.page_file(stem, v, default))
            write_if_changed(out, htmldoc.render("reference.html.mako", page=page))
            print(out)
    return status


def cmd_space(args):
    """Which bit patterns decode as what, and which as nothing."""
    import json
    from . import space
    try:
        spec = load_spec(args.file, args.schema, version=args.version)
    except SpecError as e:
        for d in e.diagnostics:
            print(d, file=sys.stderr)
        return 2
    counts = None
    if args.corpus:
        from . import diffcorpus, evidence
        try:
            with tempfile.TemporaryDirectory() as tmp:
                seen = evidence.collect(lambda name: load_spec(args.file, args.schema, version=args.version,
                                                               name=name), args.corpus, tmp)
        except diffcorpus.CorpusError as e:
            print(f"isagen space: {e}", file=sys.stderr)
            return 2
        counts = {k: v["count"] for k, v in seen.items()}
    sets = space.analyse(spec, counts)
    name = spec.name
    if args.format == "json":
        sys.stdout.write(json.dumps(space.as_json(name, sets), indent=1) + "\n")
    else:
        sys.stdout.write(space.text(name, sets))
    return 0


def cmd_fmt(args):
    """Canonical layout; the file must read (lint says why when not)."""
    from . import fmt
    from lxml import etree
    status = 0
    schema = args.schema or fmt.default_schema()
    for path in args.files:
        try:
            with open(path, encoding="utf-8") as f:
                old = f.read()
            new = fmt.format_file(path, schema)
        except (OSError, UnicodeDecodeError, etree.XMLSyntaxError) as e:
            print(f"{display_name(path)}: cannot format it: {e}", file=sys.stderr)
            status = 1
            continue
        if args.stdout:
            sys.stdout.write(new)
        elif args.check:
            if new != old:
                print(f"{display_name(path)}: not in canonical form (run gen/isagen fmt {display_name(path)})",
                      file=sys.stderr)
                status = 1
        elif new != old:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
    return status


def main(argv=None):
    p = argparse.ArgumentParser(prog="isagen", description="XML ISA descriptions -> C pack/unpack/print/validate.")
    p.add_argument("--schema", help="RelaxNG schema (default: xml/isagen.rng beside the generator)")
    p.add_argument("--version", action="version", version=f"isagen {isagen_version()}")
    sub = p.add_subparsers(dest="command", required=True)
    lint = sub.add_parser("lint", help="check spec files; print file:line:col errors")
    lint.add_argument("files", nargs="+")
    lint.add_argument("-q", "--quiet", action="store_true", help="print only problems")
    lint.add_argument("--asm", action="store_true",
                      help="also report what the text assembler cannot read (isa as), as errors")
    lint.set_defaults(func=cmd_lint)
    gen = sub.add_parser("generate", help="write <spec>.h and <spec>.c")
    gen.add_argument("files", nargs="+", metavar="FILE")
    gen.add_argument("-o", "--output", required=True, help="output directory")
    gen.add_argument("--version", help="the spec as of this version (default: the spec's default version)")
    gen.add_argument("--all-versions", action="store_true", help="every version of each FILE, each its own spec")
    gen.add_argument("--registry", metavar="FILE", help="also write the C table of the specs generated (isagen_specs.c)")
    gen.add_argument("--single-header", action="store_true",
                     help="one NAME.h per spec, with the runtime: printers and validators need nothing but libc "
                          "(define NAME_IMPLEMENTATION in one C file)")
    gen.add_argument("--prefix", metavar="NAME", help="start every C name (and NAME.h, NAME.c) with NAME instead of "
                                                      "the spec's name: two builds of a spec in one program")
    gen.set_defaults(func=cmd_generate)
    specs = sub.add_parser("specs", help="list the specs (and versions) the files build")
    specs.add_argument("files", nargs="+", metavar="FILE")
    specs.add_argument("--make", action="store_true", help="as make variables SPECS and SPEC_PREFIXES")
    specs.set_defaults(func=cmd_specs)
    bld = sub.add_parser("build", help="compile specs into a shared library for isa --load")
    bld.add_argument("files", nargs="+", metavar="FILE")
    bld.add_argument("-o", "--output", required=True, help="the library to write (LIB.so)")
    bld.add_argument("--all-versions", action="store_true", help="every version of each FILE, each its own spec")
    bld.set_defaults(func=cmd_build)
    reg = sub.add_parser("registry", help="write the C table of compiled-in specs")
    reg.add_argument("names", nargs="*", help="spec names")
    reg.add_argument("-o", "--output", required=True)
    reg.set_defaults(func=cmd_registry)
    fm = sub.add_parser("fmt", help="rewrite spec files in the canonical layout (docs/xml-reference.md#style)")
    fm.add_argument("files", nargs="+", metavar="FILE")
    fm.add_argument("--check", action="store_true", help="change nothing; exit 1 naming each file not in canonical form")
    fm.add_argument("--stdout", action="store_true", help="print the canonical text instead of rewriting the files")
    fm.set_defaults(func=cmd_fmt)
    dif = sub.add_parser("diff", help="what changed between two specs, by meaning",
                         description="OLD and NEW are FILE or FILE@REV (the file at a git revision), "
                                     "each optionally with :VERSION (e.g. xml/agx-g13.xml:2021).")
    dif.add_argument("old")
    dif.add_argument("new")
    dif.add_argument("--format", choices=("text", "markdown", "json", "html"), default="text")
    dif.add_argument("--fail-on", choices=("breaking", "compatible", "cosmetic", "doc"),
                     help="exit 1 if a change of this class or a worse one is found")
    dif.add_argument("--link-base", metavar="URL",
                     help="Markdown links to FILE@REV sides go to URL/PATH#LINE, {rev} in URL replaced by the "
                          "revision (e.g. https://github.com/OWNER/REPO/blob/{rev}); files as they are get links "
                          "relative to the repository")
    dif.add_argument("--all-versions", action="store_true",
                     help="compare every version both sides declare, one report each (a JSON array with --format json)")
    dif.add_argument("--no-locations", action="store_true",
                     help="leave out file:line (for reports kept as expected outputs, stable across edits)")
    dif.add_argument("--corpus", action="append", default=[],
                     help="a JSON Lines corpus (its records' hex) or a raw binary program: list the entries "
                          "that decode or print differently (repeatable; builds both versions with cc)")
    dif.set_defaults(func=cmd_diff)
    dc = sub.add_parser("doc", help="the spec as an HTML reference manual: one page per version (docs/cli.md)")
    dc.add_argument("files", nargs="+", metavar="FILE")
    dc.add_argument("-o", "--output", required=True, metavar="DIR")
    dc.add_argument("--corpus", action="append", default=[],
                    help="a corpus (JSON Lines with hex, or a raw program): say per encoding how many units "
                         "exercise it and with which field values (repeatable; builds the spec with cc)")
    dc.set_defaults(func=cmd_doc)
    sp = sub.add_parser("space", help="which bit patterns decode as what, and which as nothing (docs/cli.md)")
    sp.add_argument("file", metavar="FILE")
    sp.add_argument("--version", help="one of the file's versions (default: its default one)")
    sp.add_argument("--format", choices=("text", "json"), default="text")
    sp.add_argument("--corpus", action="append", default=[],
                    help="a corpus (JSON Lines with hex, or a raw program): also list the encodings no unit of it "
                         "decodes as (repeatable; builds the spec with cc)")
    sp.set_defaults(func=cmd_space)
    gd = sub.add_parser("git-diff", help="git's external diff driver: the semantic diff in `git diff` "
                                         "(docs/diff.md#git)")
    gd.add_argument("args", nargs="+", metavar="ARG",
                    help="what git passes: PATH OLD-FILE OLD-HEX OLD-MODE NEW-FILE NEW-HEX NEW-MODE [...]")
    gd.set_defaults(func=cmd_git_diff)
    args = p.parse_args(argv)
    try:
        return args.func(args)
    except OSError as e:  # a file isagen writes (or reads outside a spec's load): a message, not a traceback
        where = f"{e.filename}: " if e.filename else ""
        print(f"isagen {args.command}: {where}{e.strerror or e}", file=sys.stderr)
        return 1
