"""Stage 4 of the pipeline: the C back-end.

It walks the resolved model (after check) and writes C; it never resolves
a name again.  One module per job:

    names       every C name: types, members, functions, constants, locals
    cexpr       resolved expressions to C expression trees
    cwriter     blocks of statements, <let> locals, line width, initialisers
    layout      member types; moving a field's bits in and out (pack/unpack)
    selection   decision trees and pattern tables (which variant, which alternative)
    sequence    decoding and encoding sequences of items
    printer     display templates to output calls; operands' case and print
    validator   findings: reserved bits, rules, undefined operand cases
    reflection  the type and spec tables the runtime walks
    stream      the program walk: stop, state steps, derives, listing prefix

Mako templates in gen/templates lay the files out; they are named after what
they emit (spec.h.mako -> <prefix>.h, struct.h.mako -> a struct's part of
it, printers.c.mako -> the printers of <prefix>.c, ...).  Output depends
only on the XML: no dates, no absolute paths, sets iterated in sorted or
document order, so regenerating is byte-identical.
"""

import glob
import os

from .. import version
from .names import Names, c_prefix, c_string

HERE = os.path.dirname(os.path.abspath(__file__))
TEMPLATE_DIR = os.path.join(HERE, "..", "..", "templates")
CORE_H, RUNTIME_DIR = version.CORE_H, version.RUNTIME_DIR


def template_lookup():
    """The Mako templates of gen/templates (C, and the HTML pages too)."""
    from mako.lookup import TemplateLookup
    return TemplateLookup(directories=[TEMPLATE_DIR], strict_undefined=True, input_encoding="utf-8")


class Gen:
    """What the templates see as `g`: the spec's C names and the code of
    each job."""

    def __init__(self, spec, lookup, prefix=None):
        from .fill import Fills
        from .layout import Layout, block_comment_lines, comment, doc_comment
        from .printer import Printer
        from .reflection import Reflection
        from .sequence import SequenceCode
        from .stream import StreamCode
        from .validator import Validator
        from . import cexpr, cwriter, printer, selection
        self.spec = spec
        self.lookup = lookup
        self.names = Names(spec, prefix)
        self.prefix, self.PREFIX = self.names.prefix, self.names.PREFIX
        self.layout = Layout(self.names)
        self.printer = Printer(self.names, self.layout)
        self.validator = Validator(self.names, self.layout)
        self.fill = Fills(self.names, self.layout)
        self.reflection = Reflection(self.names)
        self.seq = SequenceCode(self.names, self.layout)
        self.stream = StreamCode(self.names, self.layout) if spec.stream is not None else None
        self.select = selection
        self.operand = printer
        self.cwriter = cwriter
        self.c_string = c_string
        self.c_int = cexpr.c_int
        self.comment = comment
        self.doc_comment = doc_comment
        self.doc_lines = block_comment_lines
        with open(CORE_H, encoding="utf-8") as f:
            self.core_h = f.read().rstrip("\n")
        self.isagen_version, self.isagen_version_number = version.version(), version.version_number()
        self._asm = None

    @property
    def asm(self):
        """The assembler's tables (assembler.py), built on first use."""
        if self._asm is None:
            from .assembler import AsmTables
            self._asm = AsmTables(self.names)
        return self._asm

    def render(self, name):
        text = self.lookup.get_template(name).render(g=self, spec=self.spec, n=self.names)
        lines = [ln.rstrip() for ln in text.split("\n")]
        while lines and not lines[-1]:
            lines.pop()
        # collapse runs of blank lines left by template control flow
        out = []
        for ln in lines:
            if ln == "" and out and out[-1] == "":
                continue
            out.append(ln)
        return "\n".join(out) + "\n"

    # ---- order and selection of what to emit

    def types_in_order(self):
        """Types with their dependencies first (C needs complete types)."""
        from ..model import held_types
        done, out = set(), []

        def visit(t):
            if t.name in done:
                return
            done.add(t.name)
            for d in held_types(t):
                visit(d)
            out.append(t)

        for t in self.spec.types:
            visit(t)
        return out

    @staticmethod
    def wrap_items(items, width=100, sep=","):
        """Initialiser items, each followed by `sep`, joined by spaces into
        lines of about `width`."""
        lines, cur = [], ""
        for it in items:
            piece = it + sep
            if cur and len(cur) + 1 + len(piece) > width:
                lines.append(cur)
                cur = piece
            else:
                cur = f"{cur} {piece}" if cur else piece
        if cur:
            lines.append(cur)
        return lines

    @staticmethod
    def enum_name_table(e):
        """How an enum's printer finds a value's name: a dict with "kind"
        "padded" (every name shorter than 8 or 16 bytes: one fixed-width
        copy) or "rows" (a row as wide as the longest name, one string
        literal each), or None for an enum too sparse for a table (its
        printer is a switch).
        A table covers values 0..N-1 with few holes; "names" and "lens"
        per value (length 255: no name, printed as a number)."""
        if not e.values or min(v.value for v in e.values) < 0:
            return None
        n = max(v.value for v in e.values) + 1
        longest = max(len(v.display.encode("utf-8")) for v in e.values)
        if n > 4096 or n > 2 * len(e.values) + 8 or longest > 254:
            return None
        names, lens = [""] * n, [255] * n
        for v in e.values:
            names[v.value], lens[v.value] = v.display, len(v.display.encode("utf-8"))
        if n <= 256 and longest <= 15:
            return {"kind": "padded", "width": 8 if longest < 8 else 16, "names": names, "lens": lens}
        # one row per value: a string literal each (ISO C caps one literal at 4095 bytes)
        return {"kind": "rows", "width": longest + 1, "names": names, "lens": lens}

    @staticmethod
    def enum_name_bits(e):
        """The bitset of named values (64 per word) for enums whose values
        all lie in 0..4095, else None."""
        vals = [v.value for v in e.values]
        if not vals or min(vals) < 0 or max(vals) >= 4096:
            return None
        words = [0] * (max(vals) // 64 + 1)
        for k in vals:
            words[k // 64] |= 1 << (k % 64)
        return words

    @staticmethod
    def enum_put_most(e):
        """The most an enum's put function writes into a run (its padded
        width or longest name, or a number's), or None when a name is too
        long for a run (ISA_OUT_RUN): then it has no put."""
        from .printer import INT_MAX_BYTES, RUN_MAX
        table = Gen.enum_name_table(e)
        longest = max((len(v.display.encode("utf-8")) for v in e.values), default=0)
        width = table["width"] if table and table["kind"] == "padded" else longest
        most = max(width, INT_MAX_BYTES)
        return most if most <= RUN_MAX else None

    @property
    def run_max(self):
        """printer.RUN_MAX: the generated .c asserts ISA_OUT_RUN is no less."""
        from .printer import RUN_MAX
        return RUN_MAX

    def operands(self):
        """The operands to emit: those something prints or checks."""
        return [o for o in self.spec.all_operands() if o.used]

    # ---- writing functions

    def function(self, signature, body, static=False):
        """Lines of a C function: `signature` is (return type and name, [params])."""
        from .cexpr import Env
        from .cwriter import function
        return function(self.signature(*signature, static=static), body, Env(self.names))

    @staticmethod
    def signature(head, params, static=False, end=""):
        """`head(params)` broken after commas when long, continuation lines
        aligned on the opening parenthesis."""
        from .cwriter import WIDTH
        head = ("static " if static else "") + head
        one = f"{head}({', '.join(params)}){end}"
        if len(one) <= WIDTH:
            return [one]
        pad = " " * (len(head) + 1)
        lines, cur = [], f"{head}("
        for i, p in enumerate(params):
            piece = p + (", " if i < len(params) - 1 else ")" + end)
            if len(cur) + len(piece.rstrip()) > WIDTH and cur.strip() not in (f"{head}(",):
                lines.append(cur.rstrip())
                cur = pad
            cur += piece
        lines.append(cur)
        return lines


class Generator:
    """Renders specs to C; the templates are compiled once per generator."""

    def __init__(self):
        self.lookup = template_lookup()

    def generate(self, spec, prefix=None):
        """{file name: text} of a checked spec's C; its C names start with
        `prefix` (default: the spec's name, '-' and '@' as '_')."""
        g = Gen(spec, self.lookup, prefix)
        return {f"{g.prefix}.h": g.render("spec.h.mako"), f"{g.prefix}.c": g.render("spec.c.mako")}


def generate(spec):
    """{file name: text} of a checked spec's C."""
    return Generator().generate(spec)


def single_header(spec_name, files):
    """The single-file form of a spec's {NAME.h, NAME.c} (single.h.mako):
    {NAME.h: text}, holding the runtime's API and, for the includer that
    asks, the runtime's code and the spec's."""
    (hname, header), (_, source) = sorted(files.items(), key=lambda kv: not kv[0].endswith(".h"))
    prefix = hname[:-2]
    own_includes = {'#include "isagen/isagen.h"', '#include "isagen/asm.h"', f'#include "{hname}"', '#include "core.h"'}

    def without_own_includes(text):
        return "\n".join(ln for ln in text.rstrip("\n").split("\n") if ln.strip() not in own_includes)

    api = []
    for name in ("isagen.h", "asm.h"):   # the runtime's API, and the assembler's
        with open(os.path.join(RUNTIME_DIR, "include", "isagen", name), encoding="utf-8") as f:
            api.append(without_own_includes(f.read()))
    api = "\n\n".join(api)
    runtime = []
    for path in runtime_sources():
        with open(path, encoding="utf-8") as f:
            runtime.append((f"runtime/src/{os.path.basename(path)}", without_own_includes(f.read())))
    tpl = template_lookup().get_template("single.h.mako")
    text = tpl.render(header=header.rstrip("\n"), api=api, runtime=runtime, source=without_own_includes(source),
                      PREFIX=prefix.upper(), spec_name=spec_name)
    return {hname: text.rstrip("\n") + "\n"}


def write_sources(specs, directory, names=None, plugin=False):
    """Every spec's generated C, and their registry (the specs under
    `names`, default their own; with plugin, a spec library's), written
    into `directory`; returns the paths of the .c files."""
    sources = []
    generator = Generator()
    for spec in specs:
        for name, text in generator.generate(spec).items():
            with open(os.path.join(directory, name), "w", encoding="utf-8") as f:
                f.write(text)
            if name.endswith(".c"):
                sources.append(os.path.join(directory, name))
    sources.append(os.path.join(directory, "isagen_specs.c"))
    with open(sources[-1], "w", encoding="utf-8") as f:
        f.write(registry(names or [s.name for s in specs], plugin=plugin))
    return sources


def runtime_sources():
    """The runtime library's C files"""
    return sorted(glob.glob(os.path.join(RUNTIME_DIR, "src", "*.c")))


def registry(names, plugin=False, prefixes=None):
    """isagen_specs.c: the table of specs compiled into the library (with
    plugin, also the entry point of a spec library for isa --load); the
    specs' C prefixes are `prefixes`, or those their names give."""
    tpl = template_lookup().get_template("registry.c.mako")
    return tpl.render(prefixes=prefixes or [c_prefix(n) for n in names], isagen_version=version.version(),
                      plugin=plugin).rstrip("\n") + "\n"
