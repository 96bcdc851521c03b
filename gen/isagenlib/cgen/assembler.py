"""The assembler's tables: display templates run backwards.

A display says how fields become text; the assembler needs the relation
the other way.  This module turns the templates a unit prints with into a
table of *goals* that one matcher in the runtime (runtime/src/asm.c) walks
with backtracking, and compiles every expression a goal names into C:

    goal     what it matches or assumes
    LIT      literal text (template whitespace: any run of blanks)
    NUM      a number as the substitution prints it; then expr == number (c 1:
             the expression reads $offset, so a label may stand for the number)
    ENUM     a name of the enum (or the number of an unnamed value); expr == value
    SEQ      its kids one after the other
    ALT      one of its kids (SEQs), tried in order: {if} branches, operand
             cases, <display when=...>s, choice alternatives
    CHECK    the branch's condition holds (truth 1) or not (0); c 1: a rule's
             (under RULE), which is checked but never solved
    EQ       expr a == expr b (a condition `x == y`, a parameter's argument)
    CALL     an operand: a new frame of parameters, linked to the caller's
             argument expressions by EQs, then its cases (an ALT)
    NEST     a struct field or item printed with its own display: goal a in a
             frame whose fields are at `offset` in the caller's (plus, for
             element P[b - 1] of a repeated item, that many times c bytes)
    SCOPE    a choice's alternative: select it, and read fields in it (b: 1
             when it is the program's first unit, chosen by its place; 2
             when the choice has such an alternative and this is another)
    LIST     {list}: items, each printed with its separator or not at all
    ITEM     a {list} item with a condition: kids[0] (goals that hold when
             the condition does), then the separator and goal a; or kids[1]
             (when it does not) and nothing printed
    END      the unit's text is over
    REAL     a floating-point number; expr a, printed as b says, gives its very text
             (c: F32_BITS when a is the bits of a binary32, | FIXED's width << 8 | precision)
    UNDEF    the path goes through an undefined operand case: a unit read so is
             taken only when no defined reading prints the text
    FOR      {for}: the body once per value of the loop variable (a slot
             after the parameters); when the text gives the bound, as many
             times as the text has bodies
    OPT      {optional}: goal a, or in a lax reading nothing (the check then
             passes over what the printer prints there)
    LAX      goal a in a lax reading only: the condition false, then an
             {if}'s body written where the printer leaves it out (COLOR[0],
             .xyzw), or (b 1) a run of attributes in another order than
             printed; the check passes over the text it reads
    RULE     goal a: the struct's own rules of severity error as equations,
             on the first reading of a unit of one line (asm.c reads it
             again without them when they refuted every reading)

Nothing here solves anything: the matcher records each goal's equation and
uses what the generator provides per expression -- its C value, the
variables it reads, and for each variable a C *proposal* that inverts the
expression (identity, +, -, *, shifts, xor, sign extension...).  A proposal
is only a guess: the matcher assigns it, evaluates the expression forward
and keeps it only if the expression then gives the wanted value.  When no
proposal applies, the matcher searches a small domain (docs/design.md).
What nothing can invert is reported (`unsupported`), with its location, so
`isagen lint --asm` can say which template cannot be assembled.
"""

import copy
import itertools
import re
from dataclasses import dataclass, field as dc_field

from .. import expr as X
from .. import refs as R
from .. import template as T
from ..model import Choice, Sequence, Struct, max_bits
from . import cexpr as E
from .cexpr import Env
from .cwriter import Block, expr_lines
from .names import Names, count_member, has_member
from .printer import display_chains
from .sequence import SequenceCode

RULE_READS = 3  # the most variables a rule the assembler checks may read (rule_goals)

# goal kinds: the numbers of enum isa_asm_goal_kind in runtime/include/isagen/asm.h
KINDS = ("LIT", "NUM", "ENUM", "SEQ", "ALT", "CHECK", "EQ", "CALL", "SCOPE", "LIST", "END", "FOR", "REAL", "UNDEF",
         "ITEM", "NEST", "OPT", "LAX", "RULE")
KIND = {k: i + 1 for i, k in enumerate(KINDS)}

# number formats: enum isa_asm_num
NUM_FORMATS = ("DEC", "UDEC", "HEX", "HEX_0X", "OCT", "BIN", "BIN_0B")
NUM = {k: i for i, k in enumerate(NUM_FORMATS)}
# real formats: enum isa_asm_real
REAL_FORMATS = ("REPR", "G", "FIXED", "HALF_F", "HALF_G")
REALS = {k: i for i, k in enumerate(REAL_FORMATS)}
F32_BITS = 1 << 16  # REAL's c: expr a is the bits of a binary32 (ISA_ASM_F32_BITS)
F64_BITS = 1 << 17  # ... of a binary64 (ISA_ASM_F64_BITS)
SCALED = 1 << 18    # ... the value is integer expr kids[0] times constant kids[1] (ISA_ASM_SCALED)
NEGATED = 1 << 19   # ... negated (ISA_ASM_NEGATED)
ABS = 1 << 20       # ... under abs(): either sign (ISA_ASM_ABS)
MAX_PARAMS = 16  # ISA_ASM_MAX_PARAMS: an operand's parameters and loop variables
SEARCH_BITS = 12  # asm.c's SEARCH_BITS: the most unknown bits a waiting equation is searched over
MAX_ANY_ORDER = 4  # the longest run of attributes read in any order (4! orders)


@dataclass
class Goal:
    kind: str
    a: int = 0          # expr, kid goal, enum, alt index... (per kind)
    b: int = 0
    c: int = 0
    kids: list = dc_field(default_factory=list)
    text: str = ""
    offset: str = "0"   # SCOPE: C offsetof of the alternative in the unit; NEST: of the nested struct
    c_expr: str = None  # NEST: C of c (an element's size)
    length: int = None  # NEST: len, the item's most elements (else len is the text's)


@dataclass
class Var:
    """A field the text can set: a scalar member of the struct a display
    is about (or of a struct, item or overlay view in it)."""
    scope: object       # Struct or Sequence
    field: object       # the model Field, or None (an item's presence flag)
    c_member: str       # member designator: "acc0_src0", "x[2]", "u.imm.dest", "has_varying", "dst[0].reg.File"
    width: int
    signed: bool
    index: tuple = (-1, 1, 0, -1)  # (slot, k, c, e): element k * P[slot] + c of a repeated item, or
                                   # element exprs[e] of an array field (c_member names element 0);
                                   # slot and e -1: not an element
    stride: str = "0"   # C size of one element of that item or array
    count: int = 0      # its most elements
    most: int = 0       # > 0: the largest value it may take (a repeated item's count: its max)
    base: int = -1      # a field of the struct parameter in P[base] (a pointer), or -1: of the frame's struct
    item: str = None    # a presence flag: its item's C member (known as it stands once the item is absent)


@dataclass
class Expr:
    scope: object        # Struct whose fields `v` points at, or None
    operand: object      # Operand whose parameters are in P[], or None
    loops: tuple         # ((loop variable, slot in P[]),...) of the {for}s around it
    node: object
    reads: list          # [("var", var index) | ("param", k)]
    proposals: list      # per read: C text of its value from `want` (and `alt`), or None
    free: list           # per read: the bits its guess cannot know (Loss.free)
    separable: bool = False  # a concatenation: every read's guess needs `want` only
    address: bool = False    # a struct argument: its address (node: the struct value)


class Unsupported(Exception):
    """What the assembler cannot read, and where (a Loc, or None)."""
    def __init__(self, where, message, loc=None):
        super().__init__(message)
        self.where, self.message, self.loc = where, message, loc


class AsmTables:
    """The goal table of one spec's unit type, and what its goals name."""

    def __init__(self, names):
        self.names = names
        self.spec = names.spec
        self.goals = [Goal("END")]   # goal 0: the unit's end, shared
        self.exprs, self.expr_keys = [], {}
        self.vars, self.var_keys = [], {}
        self.enums, self.enum_keys = [], {}
        self.unsupported = []        # (Loc or None, message): what tables leave out
        self.warnings = []           # (Loc or None, message): values the matcher may fail to find
        self.base_loc = None         # where the template being walked starts
        self.loops = ()              # the {for}s being walked: ((name, slot),...)
        self.root = None
        self.prefix = None
        self.struct_goals = {}       # id(struct): its display's goal (nested structs print the same way)
        self.rebased = {}            # (id(let), access): the let's value read there (let_value)
        self.reads_last = False      # a display reads $last
        self.overlays = []           # (C member path in the unit, Struct): overlay instances to merge
        self.place = -1              # the expression a label's number is (the prefix's), or -1: no labels
        self.listing_only = 0        # walking what only a listing prints ({if $listing}, a case when $listing)
        self.length_alts = []        # (ALT goal, expression of the length flag): a struct's short or long form
        unit = self.spec.stream.unit if self.spec.stream is not None else None
        self.unit_type, self.unit_kind = unit, getattr(unit, "kind", None)
        if unit is not None:
            self.overlays = overlay_paths(unit)
        self.chained = [c for c in (chained_field(d) for d in self.spec.stream.derives if reads_next(d.value))
                        if c is not None] if unit is not None else []
        self.max_bytes = (most_bits(unit) + 7) // 8 if unit is not None else 0
        self.dump = isinstance(unit, Struct) and not any(d for _, d in display_chains(unit))
        try:
            stream = self.spec.stream
            # <derive>d fields are the program encoder's to set: a unit's
            # check prints what it encodes, so text that says otherwise fails
            # <state>s are known while a unit is read: what the units before
            # it leave (asm.c walks them with a cursor)
            if self.dump:
                self.root = 0   # read through the reflection tables (asm.c: read_dump)
            else:
                self.root = self.unit_goal(unit)
                self.unlong_alts()
            if self.spec.stream.prefix and not self.dump:
                with self.walking(self.spec.stream.prefix_loc):
                    self.prefix = self.seq(self.template(self.spec.stream.prefix, None, None))
                # what a label stands for: the number the prefix prints for
                # the unit it labels (one number of $offset alone)
                in_prefix = set(self.kids_of(self.prefix))
                nums = [k for k in in_prefix if self.goals[k].kind == "NUM"]
                targets = any(g.kind == "NUM" and g.c for k, g in enumerate(self.goals) if k not in in_prefix)
                if targets and len(nums) == 1 and self.goals[nums[0]].c and not self.exprs[self.goals[nums[0]].a].reads:
                    self.place = self.goals[nums[0]].a
                for k in nums:
                    self.goals[k].c = 0  # the prefix is a unit's own place, never a label
        except Unsupported as u:
            self.unsupported.append((u.loc, u.message))
            self.root = None
        # whether a unit's text may span lines (if not, a unit that reaches
        # a line's end cannot be read further)
        self.multiline = any(g.kind == "LIT" and "\n" in g.text for g in self.goals)
        # units are whole lines: the separator ends a line, or the display does
        sep = self.spec.stream.separator if self.spec.stream is not None else "\n"
        self.line_units = sep.endswith("\n") or (sep == "" and self.multiline)
        self.empty_lines = self.root is not None and self.always_empty_line(self.root)

    def always_empty_line(self, root):
        """Whether every text goal `root` matches has an empty line (Midgard's
        bundles end with one): then an empty line in a text is a unit's end,
        and a line break of a template never reads across one.  A walk of
        the goals with what may hold after each: (at a line's start, an
        empty line printed so far); loops and lists may run any number of
        times, so more may hold than does: the answer errs toward no."""
        memo = {}

        def text(s, st):
            start, empty = st
            for ch in s:
                if ch == "\n":
                    empty |= start
                    start = True
                elif ch not in " \t":
                    start = False
            return (start, empty)

        def loop(body, states, sep=None):
            # body any number of times (after the separator, but the first)
            states = set(states)
            while True:
                more = set(states)
                for st in states:
                    more |= flow(body, st)
                    if sep is not None:
                        more |= flow(body, text(sep, st))
                if more == states:
                    return states
                states = more

        def flow(k, st):
            if (k, st) in memo:
                return memo[(k, st)]
            memo[(k, st)] = {st}  # (a goal reached again through itself: as if it printed nothing)
            g = self.goals[k]
            if g.kind == "LIT":
                out = {text(g.text, st)}
            elif g.kind in ("NUM", "ENUM", "REAL"):
                out = {(False, st[1])}
            elif g.kind == "SEQ":
                out = {st}
                for kid in g.kids:
                    out = set().union(*(flow(kid, s) for s in out))
            elif g.kind == "ALT":
                out = set().union(*(flow(kid, st) for kid in g.kids))
            elif g.kind in ("CALL", "NEST"):
                out = flow(g.a, st)
            elif g.kind == "FOR":
                out = loop(g.a, {st})
            elif g.kind == "LIST":
                out = {st}
                for kid in g.kids:
                    out = loop(kid, out, g.text)
            elif g.kind in ("ITEM", "OPT", "LAX"):
                out = {st} | flow(g.a, st)
            else:
                out = {st}
            memo[(k, st)] = out
            return out

        return all(empty for _, empty in flow(root, (True, False)))

    def init_lines(self, t, lv, depth=0):
        """C statements setting object `lv` (a C lvalue) of type t to what
        a unit starts as before its text is read: zeros, the XML defaults
        (the types' own inits), and for a field with no default, the value
        it is expected to hold (expect=); an overlay's views get their
        defaults here too (its init leaves them zero)."""
        n = self.names
        if isinstance(t, Sequence):
            out = [f"memset(&{lv}, 0, sizeof {lv});"]
            for it in t.items:
                target = it.type.target
                if not isinstance(target, (Struct, Sequence)):
                    continue
                if it.count is None:
                    out += self.init_lines(target, f"{lv}.{it.name}", depth)
                elif it.max:
                    i = f"i{depth}"
                    inner = self.init_lines(target, f"{lv}.{it.name}[{i}]", depth + 1)
                    out += [f"for (unsigned {i} = 0; {i} < {it.max}u; {i}++) {{"] + ["   " + x for x in inner] + ["}"]
            return out
        if not isinstance(t, Struct):
            return []
        out = [f"{n.fn(t, 'init')}(&{lv});"]
        groups = [(lv, t.fields, False)] + [(f"{lv}.u.{v.name}", v.fields, True)
                                            for v in (t.variants if t.overlay else ())]
        for where, fields, view in groups:
            for f in fields:
                value = f.default if view and f.default is not None else None if f.default is not None else f.expect
                if f.role == "field" and f.count == 1 and value:
                    out.append(f"{where}.{f.name} = {E.c_int(value)};")
        return out

    def unit_init_lines(self):
        """The asm init of a unit (a choice: zeros; its alternative is
        set up when chosen: select_lines)."""
        U = self.names.sname(self.unit_type)
        if isinstance(self.unit_type, (Struct, Sequence)):
            return [f"{U} *u = ({U} *)unit;"] + self.init_lines(self.unit_type, "(*u)")
        return [f"memset(unit, 0, sizeof({U}));"]

    def select_cases(self):
        """(alternative index, C statements) setting up each alternative of
        a choice unit once chosen (after its set_variant)."""
        if not isinstance(self.unit_type, Choice):
            return []
        out = []
        for a in self.unit_type.alts:
            lines = self.init_lines(a.type.target, f"u->u.{a.name}")
            if len(lines) > 1 or isinstance(a.type.target, Sequence):
                out.append((a.index, lines))
        return out

    def prefer_types(self):
        """The types whose <prefer> ranks the unit's encodings: the unit's
        own, or (a choice) its alternatives'."""
        t = self.unit_type
        if isinstance(t, Choice):
            return [a.type.target for a in t.alts if getattr(a.type.target, "prefer", None) is not None]
        return [t] if getattr(t, "prefer", None) is not None else []

    def prefer_body(self, t):
        """Body of a type's preference function: its <prefer>'s value."""
        body = Block()
        body.line("(void)ctx;")
        body.stmt("return ", E.Cast("int64_t", E.compile(t.prefer.value, Env(self.names))))
        return body

    def prefer_dispatch(self):
        """Lines of the unit's preference between two readings: their
        type's <prefer> compared; readings of two alternatives of a choice
        are not compared (each alternative's value means its own)."""
        U, n = self.names.sname(self.unit_type), self.names
        P = n.prefix
        if not isinstance(self.unit_type, Choice):
            t = self.unit_type.name
            return [f"int64_t x = {P}_asm_prefer_{t}((const {U} *)a, ctx), y = {P}_asm_prefer_{t}((const {U} *)b, ctx);",
                    "return (x > y) - (x < y);"]
        out = [f"const {U} *u = (const {U} *)a, *w = (const {U} *)b;",
               "if (u->variant != w->variant)", "   return 0;", "switch (u->variant) {"]
        for al in self.unit_type.alts:
            t = al.type.target
            if getattr(t, "prefer", None) is not None:
                out.append(f"case {al.index}: {{")
                out.append(f"   int64_t x = {P}_asm_prefer_{t.name}(&u->u.{al.name}, ctx), "
                           f"y = {P}_asm_prefer_{t.name}(&w->u.{al.name}, ctx);")
                out.append("   return (x > y) - (x < y);")
                out.append("}")
        out += ["default:", "   return 0;", "}"]
        return out

    @property
    def ok(self):
        """Tables for the whole unit: a spec whose templates the assembler
        reads only in part gets none (isagen lint --asm says what is left)."""
        return self.root is not None and not self.unsupported

    def fail(self, node, message):
        """An Unsupported for `node` (a template part or an expression node
        of the template being walked, or a model object)."""
        loc = getattr(node, "loc", None)
        if loc is None and self.base_loc is not None:
            pos = getattr(node, "pos", None)
            loc = self.base_loc.shifted(pos) if isinstance(pos, int) else self.base_loc
        return Unsupported(node, message, loc)

    def walking(self, loc):
        """Context: templates at `loc` are walked (restored after)."""
        tables = self

        class Walk:
            def __enter__(self):
                self.outer, tables.base_loc = tables.base_loc, loc

            def __exit__(self, *exc):
                tables.base_loc = self.outer
        return Walk()

    # ---- goals

    def add(self, g):
        self.goals.append(g)
        return len(self.goals) - 1

    def head(self, k, seen=None):
        """The LIT goal goal k's text starts with, or 0 (for error messages:
        what a skipped branch expected)."""
        seen = seen if seen is not None else set()
        if k in seen:
            return 0
        seen.add(k)
        g = self.goals[k]
        if g.kind == "LIT":
            return k
        if g.kind == "SEQ":
            for kid in g.kids:
                if self.goals[kid].kind not in ("CHECK", "EQ", "SCOPE", "UNDEF"):
                    return self.head(kid, seen)
        return 0

    def first_char(self, k, seen=None):
        """The character goal k's text must start with (blanks aside), or
        None when it can start with anything or nothing; the matcher skips
        an {if} branch, operand case or alternative whose first character
        is not the text's."""
        seen = seen if seen is not None else set()
        if k in seen:
            return None
        seen.add(k)
        g = self.goals[k]
        if g.kind == "LIT":
            t = g.text.lstrip(" \t\n")
            return t[0] if t and len(t.encode("utf-8")) == len(t) and t[0] not in "#;" else None
        if g.kind == "SEQ":
            for kid in g.kids:
                kg = self.goals[kid]
                if kg.kind in ("CHECK", "EQ", "SCOPE", "UNDEF"):
                    continue
                return self.first_char(kid, seen)
            return None
        if g.kind == "ALT":
            firsts = {self.first_char(kid, set(seen)) for kid in g.kids}
            return firsts.pop() if len(firsts) == 1 else None
        return None

    def in_listing(self, cond, walk):
        """walk(), noting that what it reads is printed only in a listing
        when cond reads $listing (AGX's absolute branch targets): labels
        are not read in listings, so no label stands there."""
        listing = cond is not None and reads_context(cond, "listing")
        self.listing_only += listing
        try:
            return walk()
        finally:
            self.listing_only -= listing

    def kids_of(self, k):
        """Goal k and the goals under it."""
        out, todo = [], [k]
        while todo:
            g = todo.pop()
            out.append(g)
            todo.extend(self.goals[g].kids if self.goals[g].kind in ("SEQ", "ALT") else [])
        return out

    def seq(self, kids):
        kids = [k for k in kids if k is not None]
        if len(kids) == 1 and self.goals[kids[0]].kind == "SEQ":
            return kids[0]
        return self.add(Goal("SEQ", kids=kids))

    def alt(self, branches):
        return self.add(Goal("ALT", kids=[self.seq(b) for b in branches]))

    def unlong_alts(self):
        """A length flag's long form is tried for every reading (ALT b 0)
        when an expression of the displays reads the flag: the short form
        may then print otherwise.  When none does, the short form's reading
        is the long one's too wherever a field needs the long form (the
        encoder sets the flag then), so the long form is tried only where
        a listing's next offset asks for those bytes (b 1): a reading's
        closing search ran twice on every AGX instruction that needs it."""
        for k, e0 in self.length_alts:
            flag = self.exprs[e0].reads[0]
            if any(flag in e.reads for i, e in enumerate(self.exprs) if i != e0):
                self.goals[k].b = 0

    def unit_goal(self, t):
        if isinstance(t, Choice):
            # an alternative the assembler cannot read is left out (and
            # reported); the others still assemble
            branches = []
            has_first = any(a.first for a in t.alts)
            for a in t.alts:
                if a.shadowed:
                    continue
                st = a.type.target
                try:
                    if not isinstance(st, (Struct, Sequence)):
                        raise self.fail(a, f"alternative {st.name} is a {st.kind}: the assembler does not read those")
                    body = self.struct_goal(st)
                except Unsupported as u:
                    self.unsupported.append((u.loc, f"{st.name}: {u.message}"))
                    continue
                off = f"offsetof({self.names.sname(t)}, u.{a.name})"
                place = 1 if a.first else 2 if has_first else 0
                branches.append([self.add(Goal("SCOPE", a=a.index, b=place, c=min_bytes(st), offset=off)),
                                 self.alt_whens(a, st), body, 0])
            if not branches:
                raise self.fail(t, f"no alternative of {t.name} can be assembled")
            return self.alt(branches)
        if isinstance(t, (Struct, Sequence)):
            return self.seq([self.add(Goal("SCOPE", a=0, c=min_bytes(t))), self.struct_goal(t), 0])
        raise self.fail(t, f"the unit {t.name} is a {t.kind}: the assembler does not read those yet")

    def alt_whens(self, a, st):
        """A goal that holds when a field of alternative a's own struct
        matches its <when>s (Midgard's texture tags 2, 3, 4 in a plain
        field), or None when its whens have no such matches (fixed fields,
        which the alternative's init sets, need none)."""
        whens = []
        for w in a.whens:
            goals = []
            for m in w:
                f = next((x for x in getattr(st, "fields", ()) if x.name == m.field_path), None)
                if f is None or len(f.pieces) != 1 or f.type.kind not in ("uint", "enum"):
                    return None
                lo, width = f.pieces[0]
                full = (1 << width) - 1
                if m.mask & ~(full << lo):
                    return None
                mask, value = (m.mask >> lo) & full, (m.value >> lo) & full
                node = X.Path([f.name], 0)
                node.ref = R.FieldValue(R.Access(R.SELF, (R.Member(f),)), f)
                if mask == full:
                    goals.append(self.add(Goal("EQ", a=self.expr(node, st, None), b=-1, c=value)))
                else:
                    test = X.Binary("==", X.Binary("&", node, X.Num(mask, 0), 0), X.Num(value, 0), 0)
                    goals.append(self.add(Goal("CHECK", a=self.expr(test, st, None), b=1)))
            if not goals:
                return None
            whens.append(goals)
        return self.alt(whens) if whens else None

    def struct_goal(self, s):
        """The goal of struct (or sequence) s's display; an overlay
        struct's views are read as the fields they are (asm.c merges them)."""
        if id(s) not in self.struct_goals:
            self.struct_goals[id(s)] = self.display_goal(s)
        return self.struct_goals[id(s)]

    def display_goal(self, s):
        chains = display_chains(s)
        if len(chains) > 1 or (isinstance(s, Struct) and s.variants and not s.overlay):
            raise self.fail(s, f"struct {s.name} has variants: the assembler does not read those yet")
        displays = chains[0][1]
        if not displays:
            raise self.fail(s, f"struct {s.name} has no display")
        branches, before = [], []
        for d in displays:
            with self.walking(d.text_loc):
                body = self.template(d.parts, s, None)
            if d.when is None:
                branches.append(before + body)
                break
            with self.walking(d.when_loc):
                branches.append(before + self.assume(d.when, True, s, None) + body)
                before = before + self.assume(d.when, False, s, None)
        g = self.presence_goals(s) + self.derive_goals(s) + self.rule_goals(s)
        g.append(self.alt(branches) if len(branches) > 1 else self.seq(branches[0]))
        lf = getattr(s, "length_flag_field", None)
        if lf is not None:
            # the short form when it holds the text, else the long one (the
            # encoder's own rule); b 1: the long one only where a listing's
            # next offset asks for it, unless an expression reads the flag
            # (see unlong_alts)
            e0 = self.const_expr(s, lf)
            k = self.add(Goal("ALT", b=1, kids=[self.seq([self.add(Goal("EQ", a=e0, b=-1, c=v))]) for v in (0, 1)]))
            self.length_alts.append((k, e0))
            g.append(k)
        return self.seq(g)

    def presence_goals(self, s):
        """An equation per optional or repeated item of a sequence: its
        has_/n_ member equals the expression that says it (a display may
        read either; the encoder writes the field from the member, or checks
        it).  Not for present="bit(F, n)": the encoder sets that bit, and an
        equation would search F's other bits."""
        if not isinstance(s, Sequence):
            return []
        out = []
        for it in s.items:
            node = it.present if it.present is not None else it.count
            if node is None or SequenceCode.bit_presence(it):
                continue
            flag = X.Call("count" if it.present is None else "present", [X.Path([it.name], 0)], 0)
            flag.ref = R.ItemPresent(it, count=it.present is None)
            with self.walking(it.present_loc if it.present is not None else it.count_loc):
                out.append(self.add(Goal("EQ", a=self.expr(flag, s, None), b=self.expr(node, s, None))))
        return out

    def derive_goals(self, s):
        """An equation per <derive> of a sequence whose items each take a
        fixed number of bits: the field equals its value, $size being the
        bits of the items present (what the encoder lays out, alignment
        included).  Without it the field is searched like any other, and a
        value the encoder then replaces is found wrong only by printing the
        unit: Midgard's tag size, which a display reads against the
        previous bundle's next tag, took 25,000 printed encodings to rule
        out one size.  A sequence with an item of varying size gets none
        (the encoder still derives the field; the check prints it)."""
        if not isinstance(s, Sequence) or not s.derives:
            return []
        size = items_size(s)
        if size is None:
            return []
        out = []
        for d in s.derives:
            if d.target is None or d.value is None:
                continue
            with self.walking(d.value_loc):
                value = self.expr(with_size(d.value, size), s, None)
                out.append(self.add(Goal("EQ", a=self.expr(d.target, s, None), b=value)))
        return out

    def rule_goals(self, s):
        """The struct's own rules of severity error, each one equation
        `!when || check` (a CHECK goal, c 1) under goal RULE, which asm.c
        takes on the first reading of a unit of one line (not of several:
        there the longer text ranks first, and a reading the rules hold for
        may end a line early), and leaves out when it reads the unit again
        because a rule refuted every reading the first found.
        A rule's equation only refutes: it is checked once what it reads is
        known, and at the unit's end with what is still unknown as it
        stands, but never guessed from, probed or searched for.  A reading
        the rules hold for ranks above one the validators find an error in,
        so the first reading keeps what a reading without them would rank
        first, and a path they refute ends where it is refuted: TGSI's
        operand counts, which only the opcode says (TEX's three operands
        read as 1+2, 0+3, 2+1 and 3+0 of them, each to its end; a third of
        TGSI's time).  Only rules of at most RULE_READS variables: an
        equation is worked each time a field it reads is set, and Lima PP's
        rules over `reads` (every register field of an instruction) cost
        its real programs a fifth more than they cut.  A rule about the
        program ($last, $program_size) is left to the validators, as is
        one the assembler cannot read."""
        goals = []
        for r in getattr(s, "rules", ()):
            if r.severity != "error" or r.check is None:
                continue
            node = r.check
            if r.when is not None:
                node = X.Binary("||", X.Unary("!", r.when, r.when.pos), r.check, r.check.pos)
            if reads_context(node, "last"):
                continue
            n_warnings = len(self.warnings)
            try:
                with self.walking(r.check_loc):
                    reads = []
                    self.reads_of(node, s, None, reads)
                    if len(reads) <= RULE_READS:  # (else no expression of it is made)
                        goals.append(self.add(Goal("CHECK", a=self.expr(node, s, None), b=1, c=1)))
            except Unsupported:
                # (what it added is unreferenced: no goal names it)
                del self.warnings[n_warnings:]
        return [self.add(Goal("RULE", a=self.seq(goals)))] if goals else []

    # ---- templates

    def template(self, parts, scope, operand):
        out, attrs = [], []  # attrs: (part, its goal's index in out) of a run of attributes
        for p in parts or ():
            if attribute_of(p) is None or (attrs and attribute_of(p) != attribute_of(attrs[-1][0])):
                self.any_order(out, attrs)
                attrs = []
            if isinstance(p, T.Text):
                if p.text:
                    out.append(self.add(Goal("LIT", text=p.text)))
            elif isinstance(p, T.Subst):
                out.append(self.subst(p, scope, operand))
            elif isinstance(p, T.If):
                branches, before = [], []
                for cond, body in p.branches:
                    branches.append(before + self.assume(cond, True, scope, operand) +
                                    self.in_listing(cond, lambda: self.template(body, scope, operand)))
                    before = before + self.assume(cond, False, scope, operand)
                branches.append(before + self.template(p.otherwise or [], scope, operand))
                if self.explicit_default(p):
                    (cond, body), = p.branches
                    lax = self.seq(self.assume(cond, False, scope, operand) + self.template(body, scope, operand))
                    branches.append([self.add(Goal("LAX", a=lax))])
                out.append(self.alt(branches))
                if attribute_of(p) is not None:
                    attrs.append((p, len(out) - 1))
            elif isinstance(p, T.Optional):
                out.append(self.add(Goal("OPT", a=self.seq(self.template(p.body, scope, operand)))))
                if attribute_of(p) is not None:
                    attrs.append((p, len(out) - 1))
            elif isinstance(p, T.List):
                items = []
                for cond, body in p.items:
                    printed = self.seq(self.template(body, scope, operand))
                    if cond is None:
                        items.append(printed)
                        continue
                    on = self.seq(self.assume(cond, True, scope, operand))
                    off = self.seq(self.assume(cond, False, scope, operand))
                    items.append(self.add(Goal("ITEM", a=printed, kids=[on, off])))
                out.append(self.add(Goal("LIST", text=p.sep, kids=items)))
            elif isinstance(p, T.Pad):
                out.extend(self.template(p.body, scope, operand))
            elif isinstance(p, T.For):
                slot = (len(operand.params) if operand is not None else 0) + len(self.loops)
                if slot >= MAX_PARAMS:
                    raise self.fail(p, "too many parameters and loop variables")
                bounds = [self.expr(p.lo, scope, operand), self.expr(p.hi, scope, operand)]
                outer = self.loops
                self.loops = outer + ((p.var, slot),)
                try:
                    body = self.seq(self.template(p.body, scope, operand))
                finally:
                    self.loops = outer
                out.append(self.add(Goal("FOR", a=body, b=slot, kids=bounds)))
            else:
                raise self.fail(p, f"{type(p).__name__.lower()} directives are not assembled yet")
        self.any_order(out, attrs)
        return out

    def any_order(self, out, attrs):
        """A run of attributes (parts of out, one after the other, that may
        each be absent and that start with the same separator: `, WR`,
        `, RAW`, `, {image.Format}`) is read in any order in a lax
        reading: their goals in out become one ALT of the printed order
        and, as LAX (b 1), each other order.  Runs of at most
        MAX_ANY_ORDER, so the orders stay few."""
        if not 2 <= len(attrs) <= MAX_ANY_ORDER:
            return
        at = [k for _, k in attrs]
        goals = [out[k] for k in at]
        orders = [self.add(Goal("LAX", a=self.seq(list(order)), b=1))
                  for order in itertools.permutations(goals) if list(order) != goals]
        out[at[0]:at[-1] + 1] = [self.add(Goal("ALT", kids=[self.seq(goals)] + orders))]

    def subst(self, p, scope, operand):
        g = self.subst_goal(p, scope, operand)
        goal = self.goals[g]
        if goal.kind == "REAL" and goal.c & SCALED:
            self.searchable(goal.kids[0], p.node)  # the integer, which the number gives
        elif goal.kind in ("NUM", "ENUM", "REAL"):
            self.searchable(goal.a, p.node)
        if goal.kind == "NUM" and reads_context(p.node, "offset") and not self.listing_only:
            goal.c = 1  # a branch target derived from the unit's place: a label may stand for it
        return g

    def searchable(self, k, node):
        """Warn when the value printed by expression k can be neither
        guessed nor searched: no read has a guess, and its fields hold more
        bits than the matcher searches (floating-point text has no guess)."""
        e = self.exprs[k]
        if any(x is not None for x in e.proposals) and not isinstance(node, X.Call):
            return
        if any(r[0] == "param" for r in e.reads):
            return  # parameters take their arguments' guesses
        # (a field's bits the value does not depend on are not searched)
        bits = sum(bin(mask).count("1") if mask else self.vars[r[1]].width
                   for r, mask in zip(e.reads, self.read_masks(e)))
        if bits > SEARCH_BITS and not any(x is not None for x in e.proposals):
            self.warnings.append((self.fail(node, "").loc,
                                  f"no guess for this value, and its {bits} bits are more than the "
                                  f"{SEARCH_BITS} the assembler searches: text may not assemble"))

    def subst_goal(self, p, scope, operand):
        node = p.node
        ref = getattr(node, "ref", None)
        if node.type == "agg":
            if isinstance(ref, R.OperandCall):
                return self.call(ref.operand, ref.args, scope, operand, node)
            if isinstance(ref, R.AggValue) and isinstance(ref.target, (Struct, Sequence)) and scope is not None:
                path, (slot, k, c, at), stride, count = self.member_path(ref.access, node, scope)
                if (k, c, at) != (1, 0, -1):
                    raise self.fail(node, "printing an element of a repeated item at other than a {for} variable")
                body = self.struct_goal(ref.target)
                return self.add(Goal("NEST", a=body, b=slot + 1, c_expr=f"(int64_t){stride}", length=count,
                                     offset=f"offsetof({self.names.sname(scope)}, {path})"))
            raise self.fail(node, "printing a <use>, a choice or a struct parameter is not assembled yet")
        field = R.field_of(ref) if isinstance(node, X.Path) else None
        real = self.real(p, node, field, scope, operand)
        if real is not None:
            return real
        e = self.expr(node, scope, operand)
        if p.fmt_enum is not None:
            return self.add(Goal("ENUM", a=e, b=self.enum_index(p.fmt_enum)))
        fmt = p.fmt
        if fmt is None:
            if field is not None and field.enum is not None:
                return self.add(Goal("ENUM", a=e, b=self.enum_index(field.enum)))
            if field is not None and field.type.kind in ("float16", "fixed", "sfixed"):
                raise self.fail(node, f"a {field.type.kind} field printed as a number is not assembled yet")
            if field is not None and field.format == "hex":
                return self.add(Goal("NUM", a=e, b=NUM["HEX_0X"]))
            if field is not None and field.format == "bin":
                return self.add(Goal("NUM", a=e, b=NUM["BIN_0B"]))
            return self.add(Goal("NUM", a=e, b=NUM["DEC"]))
        conv = fmt[-1]
        if not re.fullmatch(r"0?[0-9]*", fmt[:-1]):
            raise self.fail(node, f"the format :{fmt} is not assembled yet (only widths and zero padding)")
        if conv in "di":
            return self.add(Goal("NUM", a=e, b=NUM["DEC"]))
        if conv in "uxXob":
            return self.add(Goal("NUM", a=e, b=NUM[{"u": "UDEC", "x": "HEX", "X": "HEX", "o": "OCT", "b": "BIN"}[conv]]))
        raise self.fail(node, f"the format :{fmt} is not assembled yet")

    def real(self, p, node, field, scope, operand):
        """A REAL goal for a substitution printing a floating-point value
        (as printer.format_calls prints it), else None."""
        fmt = p.fmt
        half = field is not None and field.type.kind == "float16"
        if field is not None and field.type.kind in ("fixed", "sfixed"):
            raise self.fail(node, "fixed-point values are not assembled yet")
        if fmt is None:
            if node.type == "float":
                return self.add(Goal("REAL", a=self.expr(node, scope, operand), b=REALS["G"]))
            if half:
                return self.add(Goal("REAL", a=self.expr(node, scope, operand), b=REALS["HALF_G"]))
            return None
        if p.fmt_enum is not None or fmt[-1] not in "rfFeEgG":
            return None
        if isinstance(node, X.Call) and node.fn in ("f32", "f64"):
            # the binary32 or binary64 bits themselves: the matcher's guess
            # is the float nearest the number (F32_BITS, F64_BITS in c)
            bits = self.expr(node.args[0], scope, operand)
            flag = F32_BITS if node.fn == "f32" else F64_BITS
            if fmt in ("r", "g"):
                return self.add(Goal("REAL", a=bits, b=REALS["REPR" if fmt == "r" else "G"], c=flag))
            fixed = re.fullmatch(r"([1-9]\d?)?(?:\.(\d{1,2}))?f", fmt)
            if fixed:
                width, prec = int(fixed.group(1) or 0), int(fixed.group(2) or 6)
                return self.add(Goal("REAL", a=bits, b=REALS["FIXED"], c=flag | width << 8 | prec))
        if fmt == "r":
            return self.add(Goal("REAL", a=self.expr(node, scope, operand), b=REALS["REPR"]))
        conv, spec = fmt[-1], fmt[:-1]
        scaled = self.scaled(node)
        fixed = re.fullmatch(r"([1-9]\d?)?(?:\.(\d{1,2}))?", spec)
        if scaled is not None and conv in "fg" and (fixed if conv == "f" else not spec):
            # fixed point: an integer times a constant (Midgard's LOD bias, bias_int + bias/256)
            whole, k, sign = scaled
            width, prec = (int(fixed.group(1) or 0), int(fixed.group(2) or 6)) if conv == "f" else (0, 0)
            return self.add(Goal("REAL", a=self.expr(node, scope, operand), b=REALS["FIXED" if conv == "f" else "G"],
                                 c=width << 8 | prec | SCALED | sign,
                                 kids=[self.expr(whole, scope, operand), self.expr(k, scope, operand)]))
        if conv in "fg" and not spec and isinstance(node, X.Call) and node.fn == "half":
            # the half's bits: the matcher's guess is the half nearest the number
            return self.add(Goal("REAL", a=self.expr(node.args[0], scope, operand),
                                 b=REALS["HALF_F" if conv == "f" else "HALF_G"]))
        if conv == "f" and not spec and node.type != "float" and half:
            return self.add(Goal("REAL", a=self.expr(node, scope, operand), b=REALS["HALF_F"]))
        if half and node.type != "float":
            raise self.fail(node, f"a half printed as :{fmt} is not assembled yet")
        fixed = re.fullmatch(r"([1-9]\d?)?(?:\.(\d{1,2}))?", spec)
        if conv == "g" and not spec:
            return self.add(Goal("REAL", a=self.expr(node, scope, operand), b=REALS["G"]))
        if conv == "f" and fixed:
            width, prec = int(fixed.group(1) or 0), int(fixed.group(2) or 6)
            return self.add(Goal("REAL", a=self.expr(node, scope, operand), b=REALS["FIXED"], c=width << 8 | prec))
        raise self.fail(node, f"the format :{fmt} is not assembled yet")

    def scaled(self, node):
        """(integer expression, constant float, sign flags: NEGATED, ABS)
        when node is one times the other, negated or under abs() or not;
        else None."""
        sign = 0
        if isinstance(node, X.Call) and node.fn == "abs":
            node, sign = node.args[0], ABS
        elif isinstance(node, X.Unary) and node.op == "-":
            node, sign = node.arg, NEGATED
        while isinstance(node, X.Path) and isinstance(node.ref, R.LetValue) and node.ref.on is None and \
                node.ref.let.value is not None:
            node = node.ref.let.value
        if not (isinstance(node, X.Binary) and node.op == "*"):
            return None
        for a, b in ((node.a, node.b), (node.b, node.a)):
            if a.type == "int" and b.type == "float" and not self.reads_anything(b):
                return a, b, sign
        return None

    def explicit_default(self, p):
        """Whether {if} p's body may be written though its condition is
        false (a lax reading): a lone branch whose body prints or tests a
        value (`[{semantic.Index:d}]`, `.{reg.SwizzleX}...`), so that the
        text there says what the fields are.  A body of literal text only
        (`_SAT`) says nothing of them and is never read so."""
        if p.otherwise is not None or len(p.branches) != 1:
            return False
        return any(self.reads_anything(node) for node in T.walk_exprs(p.branches[0][1]))

    def reads_anything(self, node):
        """Whether node reads a field, parameter, loop variable or state."""
        if isinstance(node, (X.Path, X.Var)):
            ref = node.ref
            if isinstance(ref, R.LetValue) and ref.let.value is not None:
                return self.reads_anything(ref.let.value)
            return not isinstance(ref, (R.FixedValue,))
        if isinstance(node, X.Call) and node.fn in ("present", "count"):
            return True
        return any(self.reads_anything(k) for k in children(node))

    def call(self, o, args, scope, operand, where):
        if len(o.params) > MAX_PARAMS:
            raise self.fail(where, f"operand {o.name} has more than {MAX_PARAMS} parameters")
        arg_exprs = [self.address(a, scope, operand) if p in o.param_types else self.expr(a, scope, operand)
                     for p, a in zip(o.params, args)]
        callee_scope = o.owner
        if o.owner is not None and o.owner is not scope:
            raise self.fail(where, f"operand {o.name} is called from another struct")
        outer, self.loops = self.loops, ()
        try:
            return self.call_cases(o, callee_scope, arg_exprs)
        finally:
            self.loops = outer

    def call_cases(self, o, callee_scope, arg_exprs):
        branches, before = [], []
        for c in o.cases:
            with self.walking(c.display_loc):
                body = self.in_listing(c.when, lambda: self.template(c.display, callee_scope, o))
            if c.when is None:
                branches.append((c.undefined, ([self.add(Goal("UNDEF"))] if c.undefined else []) + body + before))
                break
            undef = [self.add(Goal("UNDEF"))] if c.undefined else []
            with self.walking(c.when_loc):
                branches.append((c.undefined, self.assume(c.when, True, callee_scope, o) + undef + body + before))
                before = before + self.assume(c.when, False, callee_scope, o)
        # Each branch states the earlier cases' conditions false itself, so
        # their order is free: the defined cases are tried first.  (It
        # states them after its text, its own condition before: most
        # branches end at a character of the text, and AGX's sources, of
        # fourteen cases, made near a hundred equations per operand before
        # reading one; Lima GP 28% fewer instructions.  {if} chains keep
        # them first: moved there, they cut 3% more and errors named less
        # precisely what was wrong.)  A reading
        # through an undefined case ranks below every defined one, and the
        # search stops at the first defined reading that prints the text
        # exactly in the fewest bytes; tried in the printer's order, AGX's
        # register sources (undefined cases ahead of defined ones) made
        # every undefined reading first, each closed by a search.
        body = self.alt([b for undefined, b in sorted(branches, key=lambda ub: ub[0])])
        return self.add(Goal("CALL", a=body, b=len(o.params), kids=arg_exprs))

    # ---- conditions: split into equations where that tells the matcher a value

    def assume(self, node, truth, scope, operand):
        """Goals that hold exactly when `node` has the truth value `truth`."""
        ref = getattr(node, "ref", None)
        if isinstance(ref, R.LetValue) and ref.let.value is not None:
            return self.assume(self.let_value(ref, node), truth, scope, operand)
        if isinstance(node, X.Unary) and node.op == "!":
            return self.assume(node.arg, not truth, scope, operand)
        if isinstance(node, X.Binary):
            if node.op == "&&" and truth or node.op == "||" and not truth:
                return self.assume(node.a, truth, scope, operand) + self.assume(node.b, truth, scope, operand)
            if node.op == "==" and truth or node.op == "!=" and not truth:
                return [self.add(Goal("EQ", a=self.expr(node.a, scope, operand), b=self.expr(node.b, scope, operand)))]
        if isinstance(node, X.Path) and isinstance(ref, R.FieldValue) and ref.prop is None and \
                ref.field.type.kind == "bool":
            return [self.add(Goal("EQ", a=self.expr(node, scope, operand), b=-1, c=1 if truth else 0))]
        return [self.add(Goal("CHECK", a=self.expr(node, scope, operand), b=1 if truth else 0))]

    # ---- expressions

    def enum_index(self, e):
        if id(e) not in self.enum_keys:
            self.enum_keys[id(e)] = len(self.enums)
            self.enums.append(e)
        return self.enum_keys[id(e)]

    def var_for(self, scope, f, member, index=(-1, 1, 0, -1), stride="0", count=0, width=1, most=0, base=-1,
                item=None):
        """The variable of member `member` of scope (f: its field; None: an
        item's presence flag or count, `width` bits); of element P[slot]
        of a repeated item when index says so."""
        key = (id(scope), member, index, base)
        if key not in self.var_keys:
            width = sum(w for _, w in f.pieces) if f is not None else width
            self.var_keys[key] = len(self.vars)
            self.vars.append(Var(scope, f, member, width, f is not None and f.type.kind == "sint", index, stride, count,
                                 most, base, item))
        return self.var_keys[key]

    def member_path(self, acc, node, scope, frame_scope=None, operand=None):
        """(C member designator, index, stride, count) of an access of the
        scope's own fields: members, items, constant elements, an overlay's
        views; an element of a repeated item indexed by a {for} variable
        (the designator then names element 0; index: (the variable's place
        in P[], k, c, -1), stride: C size of an element); or an element of
        an array field at an index computed in the reading frame
        (frame_scope, operand): index (-1, 1, 0, the index's expr)."""
        if acc.root != R.SELF and acc.root.kind != "param":
            raise self.fail(node, "a field of another unit")
        path, slot, stride, count, at = "", -1, "0", 0, -1
        for s in acc.steps:
            if isinstance(s, R.Element) and not s.constant:
                if slot >= 0 or at >= 0:
                    raise self.fail(node, "a field reached through two run-time indexes")
                at = self.expr(s.index, frame_scope, operand)
                count = s.count
                stride = f"sizeof(((const {self.names.sname(scope)} *)0)->{path}[0])"
                path += "[0]"
                continue
            if isinstance(s, R.ItemElement):
                count = s.item.max
                if not 0 < (count or 0) < 65536:
                    raise self.fail(node, "an element of a repeated item whose max is not 1..65535")
                loop = self.affine(s.index) if slot < 0 else None
                if loop is None:
                    raise self.fail(node, "an element of a repeated item indexed by other than a {for} "
                                          "variable, times and plus a number")
                slot, scale, add = loop
                stride = f"sizeof(((const {self.names.sname(scope)} *)0)->{path + ('.' if path else '') + s.item.name}[0])"
                path += ("." if path else "") + f"{s.item.name}[0]"
                continue
            if isinstance(s, R.Member):
                path += ("." if path else "") + s.field.name
            elif isinstance(s, R.ItemOf):
                path += ("." if path else "") + s.item.name
            elif isinstance(s, R.Element) and s.constant:
                path += f"[{s.index.value}]"
            elif isinstance(s, R.InVariant) and getattr(s.variant.owner, "overlay", False):
                path += ("." if path else "") + f"u.{s.variant.name}"
            else:
                raise self.fail(node, "a field reached through a variant, an alternative or a run-time index")
        return path, (slot, scale, add, -1) if slot >= 0 else (-1, 1, 0, at), stride, count

    def affine(self, node):
        """(slot of the {for} variable, k, c) of an index k * i + c, or None."""
        if isinstance(node, X.Path) and isinstance(node.ref, R.LoopValue) and node.ref.name in dict(self.loops):
            return dict(self.loops)[node.ref.name], 1, 0
        if isinstance(node, X.Binary) and node.op == "+":
            for a, b in ((node.a, node.b), (node.b, node.a)):
                inner, c = self.affine(a), constant(b)
                if inner is not None and c is not None and 0 <= inner[2] + c < 256:
                    return inner[0], inner[1], inner[2] + c
            return None
        if isinstance(node, X.Binary) and node.op == "*":
            for a, b in ((node.a, node.b), (node.b, node.a)):
                inner, k = self.affine(a), constant(b)
                if inner is not None and k is not None and 0 < k * inner[1] < 256 and 0 <= k * inner[2] < 256:
                    return inner[0], inner[1] * k, inner[2] * k
            return None
        return None

    def const_expr(self, scope, f):
        """An expression reading field f of scope (made up: the length flag)."""
        node = X.Path([f.name], 0)
        node.ref = R.FieldValue(R.Access(R.SELF, (R.Member(f),)), f)
        return self.expr(node, scope, None)

    def reads_of(self, node, scope, operand, out):
        """The variables node reads, in order of first use."""
        if isinstance(node, (X.Path, X.Var)):
            ref = node.ref
            if isinstance(ref, R.FieldValue):
                acc = ref.access
                if acc.root in (R.PREV, R.NEXT):
                    return
                base, target = -1, scope
                if acc.root.kind == "param":
                    if operand is None or acc.root.param not in operand.param_types:
                        raise self.fail(node, "a field of a parameter that is not a struct")
                    # a field of a struct parameter: at the address the parameter holds
                    target = self.spec.type_named(operand.param_types[acc.root.param])
                    base = operand.params.index(acc.root.param)
                elif scope is None:
                    raise self.fail(node, "a field read outside a struct")
                path, index, stride, count = self.member_path(acc, node, target, scope, operand)
                k = ("var", self.var_for(target, ref.field, path, index, stride, count, base=base))
            elif isinstance(ref, R.ParamValue):
                k = ("param", operand.params.index(ref.name))
            elif isinstance(ref, R.LoopValue):
                k = ("param", dict(self.loops)[ref.name])
            elif isinstance(ref, R.LetValue):
                self.reads_of(self.let_value(ref, node), scope, operand, out)
                return
            elif isinstance(ref, (R.FixedValue, R.OptionValue)):
                return
            elif isinstance(ref, R.ContextValue):
                # known while a unit is matched: its place; not its size,
                # whether it is the last, or the program's size
                if ref.name == "last":
                    self.reads_last = True  # asm.c reads a unit both ways when it may be the last
                    return
                if ref.name not in ("offset", "index", "listing"):
                    raise self.fail(node, f"${ref.name} is not assembled yet (known only once the program is)")
                return
            elif isinstance(ref, R.StateValue):
                if getattr(node, "index", None) is not None:
                    self.reads_of(node.index, scope, operand, out)
                return
            else:
                raise self.fail(node, f"{type(ref).__name__} values are not assembled yet")
            if k not in out:
                out.append(k)
            return
        if isinstance(node, X.Call) and node.fn in ("present", "count"):
            ref = node.ref
            if not isinstance(ref, R.ItemPresent):
                raise self.fail(node, "present() of a choice's alternative is not assembled yet")
            it = ref.item
            if it.present is None and it.count is None:
                return  # always there
            if it.count is not None and not ref.count:
                raise self.fail(node, "present() of a repeated item is not assembled yet")
            if ref.count and not 0 < (it.max or 0) < 65536:
                raise self.fail(node, f"count() of an item whose max is not 1..65535")
            if ref.count:
                k = ("var", self.var_for(scope, None, count_member(it), width=it.max.bit_length(), most=it.max))
            else:
                k = ("var", self.var_for(scope, None, has_member(it), item=it.name))
            if k not in out:
                out.append(k)
            return
        for kid in children(node):
            self.reads_of(kid, scope, operand, out)

    def let_value(self, ref, node):
        """The value of let `ref`: its expression, or, for a let of a nested
        struct or a struct parameter (`w.is_noop`), its expression with the
        fields it reads taken there, as if written `w.op == 3 && ...`
        (kept: expressions are known by their nodes' ids)."""
        if ref.on is None:
            return ref.let.value
        key = (id(ref.let), ref.on)
        if key not in self.rebased:
            self.rebased[key] = self.rebase(ref.let.value, ref.on, node)
        return self.rebased[key]

    def rebase(self, node, on, where):
        """A copy of expression node with the fields of its own struct read
        through access `on` instead."""
        node = copy.copy(node)
        ref = getattr(node, "ref", None)
        if isinstance(ref, R.FieldValue) and ref.access.root == R.SELF:
            if any(isinstance(s, (R.Element, R.ItemElement)) and not getattr(s, "constant", False)
                   for s in ref.access.steps):
                raise self.fail(where, "a let of a nested struct that indexes at run time")
            node.ref = R.FieldValue(R.Access(on.root, on.steps + ref.access.steps), ref.field, ref.prop, ref.type)
        elif isinstance(ref, R.LetValue):
            inner = on if ref.on is None else \
                R.Access(on.root, on.steps + ref.on.steps) if ref.on.root == R.SELF else ref.on
            node.ref = R.LetValue(ref.let, inner)
        elif isinstance(ref, (R.ItemPresent, R.AltPresent, R.AggValue, R.OperandCall)):
            raise self.fail(where, "a let of a nested struct that reads its items or alternatives")
        if isinstance(node, X.Unary):
            node.arg = self.rebase(node.arg, on, where)
        elif isinstance(node, X.Binary):
            node.a, node.b = self.rebase(node.a, on, where), self.rebase(node.b, on, where)
        elif isinstance(node, X.Cond):
            node.c, node.a, node.b = (self.rebase(k, on, where) for k in (node.c, node.a, node.b))
        elif isinstance(node, X.Call):
            node.args = [self.rebase(k, on, where) for k in node.args]
        elif isinstance(node, X.Var) and node.index is not None:
            node.index = self.rebase(node.index, on, where)
        return node

    def expr(self, node, scope, operand):
        key = (id(node), id(scope), id(operand), self.loops)
        if key in self.expr_keys:
            return self.expr_keys[key]
        reads = []
        self.reads_of(node, scope, operand, reads)
        env = Env(self.names, "v", True, None, False)
        proposals, free = [], []
        proposals = self.scattered(node, scope, operand, reads)
        if proposals is not None:
            self.expr_keys[key] = len(self.exprs)
            self.exprs.append(Expr(scope, operand, self.loops, node, reads, proposals, [0] * len(reads), True))
            return self.expr_keys[key]
        proposals = []
        for r in reads:
            loss = Loss()
            try:
                proposals.append(propose(node, r, self, scope, operand, E.Atom("want"), env, loss))
            except Unsupported:
                proposals.append(None)
            free.append(loss.free)
        self.expr_keys[key] = len(self.exprs)
        self.exprs.append(Expr(scope, operand, self.loops, node, reads, proposals, free))
        return self.expr_keys[key]

    def scattered(self, node, scope, operand, reads):
        """The guesses of every read of node at once, when node places the
        fields' bits side by side or scattered, each bit once (`a | b << 32`,
        Midgard's immediate `r << 11 | (s & 3) << 9 | (s & 4) << 6 | s >> 6`):
        each field is its bits of the value, gathered.  None otherwise, or
        when that is one field as it is, or shifted (propose does those)."""
        parts = self.bit_pieces(node, scope, operand)
        if parts is None or len(parts) < 2 and len(reads) < 2:
            return None
        spans = sorted((dst, dst + w) for _, _, w, dst in parts)
        if any(spans[i][1] > spans[i + 1][0] for i in range(len(spans) - 1)):
            return None  # two bits in one place: not a concatenation
        top = spans[-1][1]
        proposals = []
        for read in reads:
            mine = sorted((lo, w, dst) for r, lo, w, dst in parts if r == read)
            width = self.vars[read[1]].width if read[0] == "var" else None
            covered = 0
            for lo, w, _ in mine:
                if lo != covered:
                    return None
                covered += w
            if not mine or covered != width:
                return None  # bits of the field the value does not show: a search finds them
            if self.vars[read[1]].signed and (len(mine) != 1 or mine[0][2] + mine[0][1] != top):
                return None  # a signed field below another: its sign is not the value's
            guess = None
            for lo, w, dst in mine:
                piece = E.Call("isa_x_bits", [E.Atom("want"), E.Atom(str(dst)), E.Atom(str(w))])
                if lo:
                    piece = E.Call("isa_x_shl", [piece, E.Atom(str(lo))])
                guess = piece if guess is None else E.Infix("|", guess, piece)
            if self.vars[read[1]].signed:
                guess = E.Call("isa_x_sext", [guess, E.Atom(str(width))])
            proposals.append(guess)
        return proposals

    def bit_pieces(self, node, scope, operand):
        """[(read, lo, width, dst)]: node's value is bits lo..lo+width-1 of
        each read placed at bit dst, ORed (constant shifts and masks of
        fields); None when it is not."""
        if isinstance(node, X.Path) and isinstance(node.ref, R.LetValue) and node.ref.let.value is not None:
            return self.bit_pieces(self.let_value(node.ref, node), scope, operand)
        if isinstance(node, X.Binary) and node.op == "|":
            a, b = self.bit_pieces(node.a, scope, operand), self.bit_pieces(node.b, scope, operand)
            return None if a is None or b is None else a + b
        if isinstance(node, X.Binary) and node.op in ("<<", ">>", "&"):
            k = constant(node.b) if node.op != "&" or constant(node.a) is None else constant(node.a)
            inner = node.b if node.op == "&" and constant(node.b) is None else node.a
            parts = self.bit_pieces(inner, scope, operand) if k is not None else None
            if parts is None or k < 0 or node.op != "&" and k >= 64:
                return None
            out = []
            for read, lo, w, dst in parts:
                if node.op == "<<":
                    out.append((read, lo, w, dst + k))
                elif node.op == ">>":
                    cut = max(k - dst, 0)  # bits shifted out: gone from the value
                    if w > cut:
                        out.append((read, lo + cut, w - cut, dst + cut - k))
                else:
                    # the runs of the mask's set bits that meet the piece
                    bit = dst
                    while bit < dst + w:
                        if not (k >> bit) & 1:
                            bit += 1
                            continue
                        end = bit
                        while end < dst + w and (k >> end) & 1:
                            end += 1
                        out.append((read, lo + bit - dst, end - bit, bit))
                        bit = end
            return out if all(dst + w <= 64 for _, _, w, dst in out) else None
        f = R.field_of(getattr(node, "ref", None)) if isinstance(node, X.Path) else None
        if f is None or f.type.kind not in ("uint", "bool", "enum", "sint") or f.width > 64:
            return None
        reads = []
        self.reads_of(node, scope, operand, reads)
        return [(reads[0], 0, f.width, 0)] if len(reads) == 1 else None

    def address(self, node, scope, operand):
        """An expression whose value is the address of the struct `node`
        names (a struct parameter's argument: the callee reads its fields
        there)."""
        key = ("address", id(node), id(scope), id(operand), self.loops)
        if key not in self.expr_keys:
            ref = node.ref
            if not isinstance(ref, R.AggValue):
                raise self.fail(node, "a struct argument that is not a struct field, item or parameter")
            reads = []
            acc = ref.access
            if acc.root.kind == "param":
                reads.append(("param", operand.params.index(acc.root.param)))
            elif acc.root != R.SELF:
                raise self.fail(node, "a struct argument of another unit")
            for s in acc.steps:
                if isinstance(s, (R.ItemElement, R.Element)) and not getattr(s, "constant", False):
                    self.reads_of(s.index, scope, operand, reads)
            self.expr_keys[key] = len(self.exprs)
            self.exprs.append(Expr(scope, operand, self.loops, node, reads, [None] * len(reads), [0] * len(reads),
                                   False, True))
        return self.expr_keys[key]

    # ---- C text for the template

    def expr_c(self, e):
        """The lines of `return VALUE;` of expression e's value function."""
        env = Env(self.names, "v", True, None, False)
        if e.address:
            return [f"return (int64_t)(intptr_t){E.agg_address(e.node.ref, env)};"]
        return expr_lines(E.compile(e.node, env), "return ", ";")

    @staticmethod
    def proposal_c(tree, read):
        """The lines of `case READ: return GUESS;` of a guess."""
        return expr_lines(tree, f"case {read}: return ", ";")

    @staticmethod
    def identity(e):
        """Whether expression e is its one variable's value, a field as it
        is (asm.c refines a guess through an equation `F == f(F)`)."""
        node = e.node
        return len(e.reads) == 1 and e.reads[0][0] == "var" and isinstance(node, X.Path) and \
            isinstance(node.ref, R.FieldValue) and node.ref.prop is None

    def passes(self, e):
        """Whether expression e's value is its one read's as it is: an
        unsigned field or a parameter (an operand's argument passed on).
        asm.c carries the bits of a parameter its callee's equation reads
        (`(v & 15) >= 4`) through such an argument to the field behind."""
        node = e.node
        if len(e.reads) == 1 and isinstance(node, (X.Path, X.Var)) and \
                isinstance(node.ref, (R.ParamValue, R.LoopValue)):
            return True
        return self.identity(e) and not self.vars[e.reads[0][1]].signed

    def read_masks(self, e):
        """Per read of expression e: the bits of its field, or of its
        parameter's value, that can change e's value (a field read through
        `s & 3`, `bit(s, 2)`, `bits(s, 3, 3)` matters in its bits 0..5
        only: a search tries those), or 0 when all may.  A signed field's
        value repeats its sign bit above it: a bit demanded there is its
        sign bit (`so >> 9` of an 18-bit offset reads its bits 9..17)."""
        out, outer = {}, self.loops
        self.loops = e.loops  # (the {for} variables as where e was made)
        try:
            if not e.address:
                self.demanded(e.node, e.scope, e.operand, ALL_BITS, out)
        finally:
            self.loops = outer
        masks = []
        for r in e.reads:
            v = self.vars[r[1]] if r[0] == "var" else None
            full = (1 << v.width) - 1 if v is not None and v.width < 64 else ALL_BITS
            m = out.get(r, ALL_BITS)
            if v is not None and v.signed and v.width < 64:
                sign = 1 << (v.width - 1)
                m = (m & (sign - 1)) | (sign if m & ~(sign - 1) else 0)
            m &= full
            masks.append(0 if m in (0, full) else m)
        return masks

    def demanded(self, node, scope, operand, d, out):
        """Add to out, per read of node, the bits of it that can change
        bits d of node's value (all of them where that is not plain)."""
        def every(n):
            reads = []
            self.reads_of(n, scope, operand, reads)
            for r in reads:
                out[r] = ALL_BITS

        if isinstance(node, (X.Path, X.Var)):
            ref = node.ref
            if isinstance(ref, R.LetValue):
                return self.demanded(self.let_value(ref, node), scope, operand, d, out)
            reads = []
            self.reads_of(node, scope, operand, reads)
            plain = isinstance(ref, (R.ParamValue, R.LoopValue)) or \
                (isinstance(node, X.Path) and isinstance(ref, R.FieldValue) and ref.prop is None)
            if plain and len(reads) == 1:
                out[reads[0]] = out.get(reads[0], 0) | d
            else:
                every(node)
            return
        if isinstance(node, X.Binary):
            k = constant(node.b)
            if node.op == "&" and (k is not None or constant(node.a) is not None):
                kept, other = (k, node.a) if k is not None else (constant(node.a), node.b)
                return self.demanded(other, scope, operand, d & kept if kept >= 0 else d, out)
            if node.op == ">>" and k is not None and 0 <= k < 64:
                return self.demanded(node.a, scope, operand, (d << k) & ALL_BITS, out)
            if node.op == "<<" and k is not None and 0 <= k < 64:
                return self.demanded(node.a, scope, operand, d >> k, out)
            if node.op in ("|", "^"):
                self.demanded(node.a, scope, operand, d, out)
                return self.demanded(node.b, scope, operand, d, out)
        if isinstance(node, X.Call) and node.fn in ("bit", "bits"):
            lo = constant(node.args[1])
            w = 1 if node.fn == "bit" else constant(node.args[2])
            if lo is not None and w is not None and 0 <= lo < 64 and 0 < w <= 64:
                return self.demanded(node.args[0], scope, operand, ((d & ((1 << w) - 1)) << lo) & ALL_BITS, out)
        if isinstance(node, X.Call) and node.fn in ("half", "f32"):
            # the float of the operand's low 16 (32) bits, any of which may
            # change it (AGX's float immediates: half(... (v & 7) << 7) reads
            # 4 of v's 8 bits)
            return self.demanded(node.args[0], scope, operand, 0xFFFF if node.fn == "half" else 0xFFFFFFFF, out)
        if isinstance(node, X.Call) and node.fn == "sext":
            # bits 0..k-1 of the operand, the top one repeated above them
            k = constant(node.args[1])
            if k is not None and 0 < k < 64:
                sign = 1 << (k - 1)
                return self.demanded(node.args[0], scope, operand,
                                     (d & (sign - 1)) | (sign if d & ~(sign - 1) else 0), out)
        if isinstance(node, X.Binary) and node.op in ("==", "!=", "<", ">", "<=", ">=", "&&", "||"):
            # a truth value: of all the bits of its operands' values, no more
            self.demanded(node.a, scope, operand, ALL_BITS, out)
            return self.demanded(node.b, scope, operand, ALL_BITS, out)
        if isinstance(node, X.Unary) and node.op == "!":
            return self.demanded(node.arg, scope, operand, ALL_BITS, out)
        if isinstance(node, X.Binary) and node.op in ("+", "-", "*"):
            # a sum's or product's low bits come from its operands' low bits
            low = (1 << d.bit_length()) - 1
            self.demanded(node.a, scope, operand, low, out)
            return self.demanded(node.b, scope, operand, low, out)
        if isinstance(node, X.Unary) and node.op in ("~", "-"):
            return self.demanded(node.arg, scope, operand, d if node.op == "~" else (1 << d.bit_length()) - 1, out)
        if isinstance(node, X.Cond):
            self.demanded(node.c, scope, operand, ALL_BITS, out)
            self.demanded(node.a, scope, operand, d, out)
            return self.demanded(node.b, scope, operand, d, out)
        every(node)

    def value_bits(self, node):
        """The unsigned bits node's value always fits, or None: a parameter
        whose argument is `handle & 0xFF` takes one of 256 values whatever
        the 16 bits behind it, and the matcher searches those 256.  At most
        63: a value that reaches bit 63 may be negative (and `>>` of it is
        arithmetic)."""
        n = self.unsigned_bits(node)
        return n if n is not None and n <= 63 else None

    def unsigned_bits(self, node):
        if isinstance(node, X.Path) and isinstance(node.ref, R.LetValue) and node.ref.let.value is not None:
            return self.value_bits(self.let_value(node.ref, node))
        k = constant(node)
        if k is not None:
            return k.bit_length() if 0 <= k < 1 << 63 else None
        if isinstance(node, X.Unary) and node.op == "!":
            return 1
        if isinstance(node, X.Binary):
            if node.op in ("==", "!=", "<", ">", "<=", ">=", "&&", "||"):
                return 1
            a, b = self.value_bits(node.a), self.value_bits(node.b)
            if node.op == "&":
                known = [x for x in (a, b) if x is not None]
                return min(known) if known else None
            if node.op in ("|", "^") and a is not None and b is not None:
                return max(a, b)
            shift = constant(node.b)
            if node.op == ">>" and a is not None and shift is not None and shift >= 0:
                return max(a - shift, 0)
            if node.op == "<<" and a is not None and shift is not None and 0 <= shift and a + shift <= 63:
                return a + shift
            return None
        if isinstance(node, X.Call) and node.fn == "bit":
            return 1
        if isinstance(node, X.Call) and node.fn == "bits":
            w = constant(node.args[2])
            return w if w is not None and 0 < w <= 63 else None
        f = R.field_of(getattr(node, "ref", None)) if isinstance(node, X.Path) else None
        return f.width if f is not None and f.type.kind in ("uint", "bool", "enum") and f.width <= 63 else None

    def scope_type(self, e):
        return self.names.sname(e.scope) if e.scope is not None else None

    def param_decls(self, e):
        """C declarations of the locals of P[]: the operand's parameters (a
        struct parameter: the pointer P[] holds), then the loop variables."""
        out = []
        for i, p in enumerate(e.operand.params if e.operand is not None else ()):
            if p in e.operand.param_types:
                t = self.names.sname(self.spec.type_named(e.operand.param_types[p]))
                out.append((Names.param(p), f"const {t} *{Names.param(p)} = (const {t} *)(intptr_t)P[{i}];"))
            else:
                out.append((Names.param(p), f"const int64_t {Names.param(p)} = P[{i}];"))
        k = len(out)
        return out + [(Names.loop_var(name), f"const int64_t {Names.loop_var(name)} = P[{k + i}];")
                      for i, (name, _) in enumerate(e.loops)]


def attribute_of(p):
    """The separator template part p starts with when it is an attribute
    (an {if} of one branch and no else, or an {optional}, whose text starts
    with punctuation: `, WR`), else None."""
    if isinstance(p, T.If) and p.otherwise is None and len(p.branches) == 1:
        body = p.branches[0][1]
    elif isinstance(p, T.Optional):
        body = p.body
    else:
        return None
    first = body[0] if body else None
    if not isinstance(first, T.Text):
        return None
    sep = re.match(r"[^\w\s]*", first.text).group(0)
    return sep or None


def min_bytes(s):
    """The fewest bytes struct s takes: with its length flag clear, or its
    min-length when its length is computed (a sequence: its first item's)."""
    if isinstance(s, Sequence):
        first = s.items[0].type.target if s.items else None
        return min_bytes(first) if isinstance(first, Struct) and s.items[0].present is None else 0
    bits = s.min_length if s.min_length is not None else s.bits
    return (bits + 7) // 8


def items_size(seq):
    """The bits sequence seq's items take, as an expression of their
    presence flags and counts (present(item), count(item)), aligned as the
    encoder aligns them; None when an item's own size varies."""
    total = None
    for it in seq.items:
        t = it.type.target
        if not isinstance(t, Struct) or t.length is not None or t.min_length is not None:
            return None
        term = X.Num(t.bits, 0)
        if it.present is not None or it.count is not None:
            flag = X.Call("count" if it.present is None else "present", [X.Path([it.name], 0)], 0)
            flag.ref = R.ItemPresent(it, count=it.present is None)
            term = X.Binary("*", flag, term, 0)
        total = term if total is None else X.Binary("+", total, term, 0)
    if total is None:
        return None
    if seq.align > 1:
        total = X.Binary("*", X.Binary("/", X.Binary("+", total, X.Num(seq.align - 1, 0), 0),
                                        X.Num(seq.align, 0), 0), X.Num(seq.align, 0), 0)
    return total


def with_size(node, size):
    """A copy of expression node, $size replaced by expression `size`."""
    if isinstance(node, X.Var) and node.name == "size" and node.index is None and node.prop is None:
        return size
    out = copy.copy(node)
    for name, kid in vars(node).items():
        if isinstance(kid, X.Node):
            setattr(out, name, with_size(kid, size))
        elif isinstance(kid, list):
            setattr(out, name, [with_size(k, size) if isinstance(k, X.Node) else k for k in kid])
    return out


def most_bits(t):
    """The most bits a unit of type t the assembler writes can take (a
    sequence: all its items, repeated ones as often as they may be), or 0
    when that is unbounded."""
    if isinstance(t, Sequence):
        total = 0
        for it in t.items:
            n = 1 if it.count is None else (it.max or 0)
            bits = most_bits(it.type.target)
            if not n or not bits:
                return 0
            total += n * bits
        return -(-total // t.align) * t.align if t.align else total
    if isinstance(t, Choice):
        sizes = [most_bits(a.type.target) for a in t.alts]
        return 0 if not sizes or 0 in sizes else max(sizes)
    return max_bits(t)


def overlay_paths(t, path="", seen=(), alt=0):
    """The overlay structs in unit type t, as (C member path, Struct, alt):
    what the matcher merges before it encodes (their views share bits);
    alt > 0: only when the unit is the choice's alternative alt."""
    if isinstance(t, Struct) and t.overlay:
        return [(path, t, alt)]
    out = []
    if isinstance(t, Choice) and not path:
        for a in t.alts:
            out += overlay_paths(a.type.target, f"u.{a.name}", seen, a.index)
    if isinstance(t, Sequence) and id(t) not in seen:
        for it in t.items:
            if it.count is None and isinstance(it.type.target, (Struct, Sequence)):
                out += overlay_paths(it.type.target, (path + "." if path else "") + it.name, seen + (id(t),), alt)
    return out


def reads_next(node):
    """Whether node reads the next unit ($next.x)."""
    ref = getattr(node, "ref", None)
    if isinstance(ref, R.LetValue):
        if ref.on is not None and ref.on.root == R.NEXT:
            return True
        return ref.let.value is not None and reads_next(ref.let.value)
    if isinstance(ref, (R.FieldValue, R.AggValue)) and ref.access.root == R.NEXT:
        return True
    return any(reads_next(k) for k in children(node))


def chained_field(d):
    """(alternative index or 0, C member path in the unit, Field) of the
    field <derive> d sets, when it is a scalar reached through members,
    items and one alternative; else None."""
    ref = getattr(d.target, "ref", None)
    if not isinstance(ref, R.FieldValue) or ref.access.root != R.SELF or ref.field.count > 1:
        return None
    alt, path = 0, []
    for s in ref.access.steps:
        if isinstance(s, R.AltOf) and not path:
            alt = s.alt.index
            path.append(f"u.{s.alt.name}")
        elif isinstance(s, R.ItemOf) and s.item.count is None:
            path.append(s.item.name)
        elif isinstance(s, R.Member):
            path.append(s.field.name)
        else:
            return None
    return (alt, ".".join(path), ref.field) if len(ref.field.pieces) == 1 else None


def reads_context(node, name):
    """Whether node reads $name (through lets too)."""
    ref = getattr(node, "ref", None)
    if isinstance(ref, R.ContextValue):
        return ref.name == name
    if isinstance(ref, R.LetValue) and ref.let.value is not None:
        return reads_context(ref.let.value, name)
    return any(reads_context(k, name) for k in children(node))


def children(node):
    if isinstance(node, X.Unary):
        return [node.arg]
    if isinstance(node, X.Binary):
        return [node.a, node.b]
    if isinstance(node, X.Cond):
        return [node.c, node.a, node.b]
    if isinstance(node, X.Call):
        return list(node.args)
    if isinstance(node, X.Var) and node.index is not None:
        return [node.index]
    return []


def mentions(node, read, tables, scope, operand):
    out = []
    tables.reads_of(node, scope, operand, out)
    return read in out


LOSSY = 255  # a guess that can be off in many bits: the matcher tries it once, then searches
ALL_BITS = (1 << 64) - 1


class Loss:
    """Bits a guess cannot know: `free` low bits a right shift dropped
    (the matcher tries each value of them, passed as `alt`), or LOSSY."""
    def __init__(self):
        self.free = 0

    def add(self, bits):
        self.free = bits if self.free == 0 and 0 < bits <= 8 else LOSSY


def constant(node):
    try:
        v = X.evaluate(node, {})
        return v if isinstance(v, int) else None
    except (X.NotConstant, TypeError, KeyError, ZeroDivisionError):
        return None


def propose(node, read, tables, scope, operand, want, env, loss):
    """C tree of the value of variable `read` that makes `node` equal `want`
    (a guess the matcher checks), when read occurs in node once, through
    operators that can be undone; `loss` learns what the guess cannot know."""
    ref = getattr(node, "ref", None)
    again = lambda n, w: propose(n, read, tables, scope, operand, w, env, loss)  # noqa: E731
    if isinstance(node, (X.Path, X.Var)):
        if isinstance(ref, R.LetValue):
            return again(tables.let_value(ref, node), want)
        if isinstance(ref, R.FieldValue) and ref.prop is None or isinstance(ref, (R.ParamValue, R.LoopValue)):
            out = []
            tables.reads_of(node, scope, operand, out)
            if out == [read]:
                return want
        raise Unsupported(node, "not invertible")
    if isinstance(node, X.Call) and node.fn in ("present", "count"):
        out = []
        tables.reads_of(node, scope, operand, out)
        if out == [read]:
            return want  # an item's has_/n_ member
        raise Unsupported(node, "not invertible")
    kids = children(node)
    holders = [k for k in kids if mentions(k, read, tables, scope, operand)]
    if len(holders) != 1:
        raise Unsupported(node, "not invertible")
    h = holders[0]
    c = lambda n: E.compile(n, env)  # noqa: E731
    if isinstance(node, X.Unary):
        if node.op == "-":
            return again(h, E.Call("isa_x_neg", [want]))
        if node.op == "~":
            return again(h, E.Prefix("~", want))
    if isinstance(node, X.Binary):
        a_holds = h is node.a
        other = node.b if a_holds else node.a
        op = node.op
        if op == "+":
            return again(h, E.Call("isa_x_sub", [want, c(other)]))
        if op == "-":
            return again(h, E.Call("isa_x_add", [want, c(other)]) if a_holds else E.Call("isa_x_sub", [c(other), want]))
        if op == "^":
            return again(h, E.Infix("^", want, c(other)))
        if op == "*":
            return again(h, E.Call("isa_x_div", [want, c(other)]))
        if op == "/" and a_holds:
            # a division by 2^k drops k bits, toward zero: the dividend is
            # want * 2^k plus (or, below zero, minus) each value of them
            k = constant(other)
            if k is not None and 0 < k <= 256 and k & (k - 1) == 0:
                loss.add(k.bit_length() - 1)
                rest = E.Cond(E.Infix("<", want, E.Atom("0")), E.Prefix("-", E.Atom("alt")), E.Atom("alt"))
                return again(h, E.Call("isa_x_add", [E.Call("isa_x_mul", [want, c(other)]), rest]))
        if op == "<<" and a_holds:
            return again(h, E.Call("isa_x_shr", [want, c(other)]))
        if op == ">>" and a_holds:
            k = constant(other)
            loss.add(k if k is not None else LOSSY)
            if loss.free != LOSSY:
                return again(h, E.Infix("|", E.Call("isa_x_shl", [want, c(other)]), E.Atom("alt")))
            return again(h, E.Call("isa_x_shl", [want, c(other)]))
        # the bits the other side hides read as 0 in the guess: a first
        # try before the matcher searches
        if op == "|":
            loss.add(LOSSY)
            return again(h, E.Infix("&", want, E.Prefix("~", c(other))))
        if op == "&":
            loss.add(LOSSY)
            return again(h, want)
    if isinstance(node, X.Call) and h is node.args[0]:
        if node.fn == "sext":
            # the bits above the width may be anything (a guess, then the
            # search) -- unless the field has no bits above it.  A
            # parameter takes the value below the width: one wider than
            # that would be another field's, which the operand's caller says.
            k = constant(node.args[1])
            ref = getattr(h, "ref", None) if isinstance(h, X.Path) else None
            f = R.field_of(ref)
            exact = k is not None and (isinstance(ref, R.ParamValue) or
                                       f is not None and sum(w for _, w in f.pieces) <= k)
            if not exact:
                loss.add(LOSSY)
            return again(h, E.Call("isa_x_bits", [want, E.Atom("0"), c(node.args[1])]))
        if node.fn == "bits":
            loss.add(LOSSY)
            return again(h, E.Call("isa_x_shl", [want, c(node.args[1])]))
    raise Unsupported(node, "not invertible")
