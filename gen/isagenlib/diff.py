"""`isagen diff`: what changed between two specs, by meaning.

Both sides have gone through the whole front end (schema, versions, build,
check), so this compares models, not XML text: an element that moved in
the file, a reworded expression with the same tokens or a changed line
number is no change.  Each change is classified:

  breaking    some bit pattern decodes differently (another encoding,
              other field values) or a value that packed no longer packs
  compatible  meaning where there was none: encodings in bit patterns that
              decoded as nothing, fields in reserved bits, enum values
  cosmetic    the bits mean the same; names, printed text or validator
              rules differ
  doc         documentation and provenance only

Renames are detected, not reported as a removal and an addition: an
encoding whose bit patterns overlap exactly one new encoding's is that
encoding renamed (several: split, merged); a field at the same bits under
another name is that field renamed; an enum value with the same number is
that value renamed.

What is compared is driven by the model's declared fields: difftable.py
classifies every field of every model class, and the generic walk below
compares what it marks as values, expressions and child lists; the Differ's
methods named there (By) do the semantic comparisons (layouts, regions,
renames).  A stream state, option or let that how units decode depends on
(the stop rule, lengths, presence and counts, derived fields read it) makes
a change to it breaking; otherwise it only prints or checks: cosmetic.
"""

import re
from contextlib import contextmanager
from dataclasses import dataclass, fields
from typing import Optional

from . import cubes as C
from . import expr as X
from . import template as T
from . import refs as R
from .difftable import RELEVANCE, TABLE, Children, Doc, Expr, Value
from .model import Choice, Field, Sequence, Struct, Use

CLASSES = ("breaking", "compatible", "cosmetic", "doc")


@dataclass
class Change:
    cls: str     # one of CLASSES
    kind: str    # what happened: "encoding-added", "field-moved", ...
    where: str   # the element: "fadd32", "fadd32.Dx", "enum Opcode"
    text: str    # one sentence for a reviewer
    old: Optional[str] = None
    new: Optional[str] = None
    old_at: Optional[str] = None   # "file:line" of the element in the old spec
    new_at: Optional[str] = None   # and in the new one
    group: Optional[str] = None    # the cause it is reported under (diffgroup.py)
    item: Optional[str] = None     # for a list of like changes: what this one is about ("kill (bits 46)")
    how: Optional[str] = None      # and what happened to it ("added in bits which were reserved")
    cause: Optional["Change"] = None   # the change this one follows from (reported under it)

    def as_dict(self):
        return {"class": self.cls, "kind": self.kind, "where": self.where, "text": self.text,
                "old": self.old, "new": self.new, "old_at": self.old_at, "new_at": self.new_at}


def shown_text(parts):
    """A template as it prints: its canonical text, whatever its layout in the XML."""
    return None if parts is None else T.text_of(parts)


def norm(text):
    """Expression or template text, spacing normalised."""
    return re.sub(r"\s+", " ", text or "").strip()


def bits_text(pieces, count=1, stride=0):
    txt = " ".join(f"{lo}" if w == 1 else f"{lo}..{lo + w - 1}" for lo, w in pieces)
    if count > 1:
        txt += f" (x{count}, stride {stride})"
    return txt


def plural(n, word):
    return f"{n} {word}" + ("" if n == 1 else "s")


TOKEN = re.compile(r"\{[^{}]*\}|[^{}]+")


def text_change(old, new):
    """What changed between two templates, token by token ({...} is one
    token), whole: 'mov → mov_imm; + {item}0b{kill:01b}'."""
    import difflib
    a, b = TOKEN.findall(old), TOKEN.findall(new)
    hunks = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        x, y = "".join(a[i1:i2]), "".join(b[j1:j2])
        if x != x.strip() or y != y.strip():   # where spaces changed, show them
            x, y = f'"{x}"', f'"{y}"'
        if op == "replace":
            hunks.append(f"{x} → {y}")
        elif op == "delete":
            hunks.append(f"- {x}")
        elif op == "insert":
            hunks.append(f"+ {y}")
    return "; ".join(hunks)


PLACEHOLDER = re.compile(r"^(u|q|i|unk|unknown|todo|reserved|pad|padding)_?\d*$", re.I)


def similar_names(a, b):
    """Whether b is plausibly a's new name (KILP -> KILL, u2 -> g), not
    another thing at the same place (SUB -> TEX_LZ, Centroid -> Atomic)."""
    import difflib
    if PLACEHOLDER.match(a):
        return True
    return difflib.SequenceMatcher(None, a.lower(), b.lower()).ratio() >= 0.6


def type_kind(t):
    """A field type's family, for retyping: values that read the same."""
    if t.kind in ("uint", "enum", "bool"):
        return "unsigned"
    return t.kind + (f"/{t.frac}" if t.kind in ("fixed", "sfixed") else "")


def type_text(t):
    return t.name + (f" (frac {t.frac})" if t.kind in ("fixed", "sfixed") else "")


def canon(x):
    """A value as compared: expressions in canonical form, texts spaced alike."""
    if isinstance(x, X.Node):
        return X.text_of(x)
    if isinstance(x, str):
        return norm(x)
    return x


def line_of(obj):
    """'file:line' of a model object, None when it has no position."""
    loc = getattr(obj, "loc", None)
    return f"{loc.file}:{loc.line}" if loc is not None and loc.line else None


def scope_name(owner):
    """How a let's owner is named in reports."""
    if owner is None:
        return ""
    if hasattr(owner, "params"):  # an operand
        return f"operand {owner.name}"
    inner = getattr(owner, "owner", None)
    return f"{inner.name}.{owner.name}" if inner is not None and hasattr(inner, "variants") else owner.name


def decoding_reads(spec):
    """The lets, states and options how units decode or encode depends on:
    what the stop rule, lengths, presence conditions, counts, sizes and
    derived fields read, directly or through one another."""
    st = spec.stream
    roots = []
    if st is not None:
        roots += [st.stop] + [d.value for d in st.derives]
    for t in spec.types:
        if isinstance(t, Struct):
            roots.append(t.length)
        elif isinstance(t, Sequence):
            roots += [x for it in t.items for x in (it.present, it.count)] + [t.size] + [d.value for d in t.derives]
    out, todo = set(), [r for r in roots if r is not None]
    while todo:
        for n in X.walk(todo.pop()):
            ref = getattr(n, "ref", None)
            if isinstance(ref, R.LetValue):
                key = ("let", scope_name(ref.let.owner), ref.let.name)
                more = [ref.let.value]
            elif isinstance(ref, R.StateValue):
                s = ref.state
                key = ("state", s.name)
                more = [s.next] + [x for e in s.sets for x in (e.index, e.value, e.when)]
            elif isinstance(ref, R.OptionValue):
                key, more = ("option", ref.option.name), []
            else:
                continue
            if key not in out:
                out.add(key)
                todo += [m for m in more if m is not None]
    return out


class Sets:
    """Disjoint sets of names (union-find), for grouping related changes."""

    def __init__(self):
        self.parent = {}

    def find(self, x):
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            x = self.parent[x]
        return x

    def union(self, x, y):
        a, b = sorted((self.find(x), self.find(y)))
        self.parent[b] = a

    def members(self, x):
        root = self.find(x)
        return [k for k in list(self.parent) if self.find(k) == root]


class Differ:
    def __init__(self, old, new):
        self.old, self.new = old, new
        self.changes = []
        self.renamed_types = {}   # old type name -> new type name
        self.done_types = set()   # old type names already compared
        self.decoding = decoding_reads(old) | decoding_reads(new)
        self.here = [(None, None)]  # the elements being compared, innermost last: where a change points
        self.heads = {}             # group key -> headline, for the causes the Differ names (diffgroup.py)
        self.encoding_group = {}    # new struct name -> the group of its encoding's bit-pattern changes
        self.grew_only = set()      # new struct names whose encoding only gained patterns that decoded as nothing
        self.field_renames = {}     # where (a struct or variant) -> {old field name: (new name, its change)}
        self.renames_of = {}        # new encoding name -> ({old name: new name}, the change)
        self.added_fields = {}      # where -> {new field name: the change that added it}

    @contextmanager
    def at(self, a, b):
        """Changes added inside point at a (old) and b (new)."""
        self.here.append((a, b))
        try:
            yield
        finally:
            self.here.pop()

    # ------------------------------------------------------------- the generic walk

    def relevance(self, subject):
        """The class of a change to what `subject` ("state", name) computes."""
        return "breaking" if subject in self.decoding else "cosmetic"

    def walk(self, a, b, where, what, subject=None):
        """Compare two model objects of one class field by field, as
        difftable says; By fields are left to the caller."""
        with self.at(a, b):
            self.walk_fields(a, b, where, what, subject)

    def walk_fields(self, a, b, where, what, subject):
        table = TABLE[type(a).__name__]
        for f in fields(a):
            rule = table[f.name]
            x, y = getattr(a, f.name), getattr(b, f.name)
            if isinstance(rule, Doc):
                if f.name == "doc" and norm(x) != norm(y):
                    self.add("doc", "doc-changed", where, f"the documentation of {what} changed", norm(x), norm(y),
                             group=f"doc {where}")
                elif f.name == "src" and sorted(x or []) != sorted(y or []):
                    self.add("doc", "source-changed", where, f"the sources of {what} changed", " ".join(x), " ".join(y),
                             group=f"doc {where}")
            elif isinstance(rule, (Value, Expr)):
                if canon(x) != canon(y):
                    cls = self.relevance(subject) if rule.cls == RELEVANCE else rule.cls
                    self.add(cls, rule.kind, where, f"{what}: {rule.what} changed", canon(x), canon(y))
            elif isinstance(rule, Children):
                self.children(x, y, rule, where, what, subject)

    def children(self, xs, ys, rule, where, what, subject):
        """Two lists of model objects: pairs compared, the rest added or
        removed; several changes to one list are one fact."""
        first = len(self.changes)
        self.child_lists(xs, ys, rule, where, what, subject)
        mine = self.changes[first:]
        if len(mine) > 1 and rule.by_position:
            key = f"children {where} {rule.what}"
            count = lambda word: sum(1 for c in mine if c.text.endswith(word))
            parts = [f"{n} {word}" for n, word in ((len(xs), "before"), (len(ys), "now")) if n]
            self.heads[key] = (f"{rule.kind}", where, f"the {rule.what} list of {what} changed ({', '.join(parts)}; "
                               f"{count(' removed')} removed, {count(' added')} added, "
                               f"{len(mine) - count(' removed') - count(' added')} changes to the rest)")
            for c in mine:
                c.group = c.group or key

    def child_lists(self, xs, ys, rule, where, what, subject):
        if rule.by_position:
            pairs = list(zip(xs, ys))
            gone, came = xs[len(ys):], ys[len(xs):]
            name = lambda c, i: f"{rule.what} {i + 1}"
        else:
            key = lambda c: getattr(c, rule.key)
            bx, by = {key(c): c for c in xs}, {key(c): c for c in ys}
            pairs = [(bx[k], by[k]) for k in bx if k in by]
            gone, came = [c for c in xs if key(c) not in by], [c for c in ys if key(c) not in bx]
            name = lambda c, i: f"{rule.what} {key(c)}"
        sub = lambda c: subject if rule.by_position else (rule.what, getattr(c, rule.key))
        for i, (a, b) in enumerate(pairs):
            n = name(a, i)
            self.walk(a, b, f"{where} {n}".strip(), f"{what} {n}" if rule.by_position else n, sub(a))
        for i, c in enumerate(gone):
            n = name(c, len(pairs) + i)
            cls = self.relevance(sub(c)) if rule.removed == RELEVANCE else rule.removed
            self.add(cls, rule.kind.replace("changed", "removed") if rule.kind.endswith("-changed") else rule.kind,
                     f"{where} {n}".strip(), f"{n} of {what} removed" if what else f"{n} removed", at=(c, None))
        for i, c in enumerate(came):
            n = name(c, len(pairs) + len(gone) + i)
            cls = self.relevance(sub(c)) if rule.added == RELEVANCE else rule.added
            self.add(cls, rule.kind.replace("changed", "added") if rule.kind.endswith("-changed") else rule.kind,
                     f"{where} {n}".strip(), f"{n} of {what} added" if what else f"{n} added", at=(None, c))

    def add(self, cls, kind, where, text, old=None, new=None, at=None, group=None, item=None, how=None):
        """A change; `at` is the (old, new) pair of model objects it is
        about when finer than the element being compared (either may be
        None: an element added or removed points at its parent there)."""
        a, b = at or (None, None)
        pa, pb = self.here[-1]
        self.changes.append(Change(cls, kind, where, text, None if old is None else str(old),
                                   None if new is None else str(new), line_of(a if a is not None else pa),
                                   line_of(b if b is not None else pb), group, item, how))

    def doc(self, where, what, a, b):
        with self.at(a, b):
            self.doc_fields(where, what, a, b)

    def doc_fields(self, where, what, a, b):
        group = f"doc {where}"  # an element's text and sources are one fact
        if norm(getattr(a, "doc", "")) != norm(getattr(b, "doc", "")):
            self.add("doc", "doc-changed", where, f"the documentation of {what} changed",
                     norm(a.doc), norm(b.doc), group=group)
        if sorted(getattr(a, "src", []) or []) != sorted(getattr(b, "src", []) or []):
            self.add("doc", "source-changed", where, f"the sources of {what} changed",
                     " ".join(a.src), " ".join(b.src), group=group)

    # ------------------------------------------------------------- the spec

    def run(self):
        o, n = self.old, self.new
        self.walk(o, n, "spec", "the spec")
        self.stream(o.stream, n.stream)
        self.enums()
        self.types()
        self.operands(o.operands, n.operands, "")
        self.containers()
        order = {c: i for i, c in enumerate(CLASSES)}
        self.changes.sort(key=lambda c: (order[c.cls], c.where, c.kind, c.text))
        return self.changes

    def stream(self, a, b):
        if a is None or b is None:
            if (a is None) != (b is None):
                self.add("breaking", "stream-changed", "stream", "the spec's <stream> was added or removed")
            return
        if a.unit_name != b.unit_name and self.renamed_types.get(a.unit_name) != b.unit_name:
            self.add("breaking", "stream-changed", "stream", "the stream's unit changed: a program splits "
                     "into units differently", a.unit_name, b.unit_name)
        self.walk(a, b, "stream", "the stream")
        with self.at(a, b):
            self.derives(a.derives, b.derives, "stream", "the program encoder")

    def derives(self, xs, ys, where, who):
        da = {d.field: norm(d.value_text) for d in xs}
        db = {d.field: norm(d.value_text) for d in ys}
        for k in sorted(set(da) | set(db)):
            if da.get(k) != db.get(k):
                how = (f"{who} now computes {k} (it kept the value given)" if k not in da else
                       f"{who} no longer computes {k} (it keeps the value given)" if k not in db else
                       f"what {who} computes for {k} changed")
                self.add("breaking", "derive-changed", f"{where}.{k}", how, da.get(k), db.get(k))

    def prefer(self, s, t, where):
        """A <prefer> changes which bytes isa as writes for a text, not what
        any bytes decode or print as."""
        a = canon(s.prefer.value) if s.prefer is not None else None
        b = canon(t.prefer.value) if t.prefer is not None else None
        if a != b:
            how = ("isa as now ranks" if a is None else "isa as no longer ranks" if b is None else
                   "how isa as ranks") + f" the encodings of {where} that print the same text"
            self.add("compatible", "prefer-changed", where, how + (" changed" if a and b else ""), a, b)

    def fills(self, s, t, where):
        """A <fill> changes which bytes isa as writes where the text leaves
        bits open, not what any bytes decode or print as."""
        def key(fl):
            return (fl.field, canon(fl.when) if fl.when is not None else None, canon(fl.value))
        a = [key(fl) for fl in s.fills]
        b = [key(fl) for fl in t.fills]
        if a != b:
            show = lambda fs: "; ".join(f"{f}{' when ' + w if w else ''} = {v}" for f, w, v in fs) or None
            how = (f"isa as now fills bits of {where} its text leaves open" if not a else
                   f"isa as no longer fills bits of {where} its text leaves open" if not b else
                   f"what isa as writes into the bits of {where} its text leaves open changed")
            self.add("compatible", "fill-changed", where, how, show(a), show(b))

    def containers(self):
        a = {c.name: (c.magic, c.layout, c.chunks) for c in self.old.containers}
        b = {c.name: (c.magic, c.layout, c.chunks) for c in self.new.containers}
        for name in sorted(set(a) | set(b)):
            if a.get(name) != b.get(name):
                cls = "compatible" if name not in a else "breaking"
                self.add(cls, "container-changed", f"container {name}", f"container {name} was "
                         + ("added" if name not in a else "removed" if name not in b else "changed"))
        docs = {c.name: c for c in self.old.containers}
        for c in self.new.containers:
            if c.name in docs:
                self.doc(f"container {c.name}", f"container {c.name}", docs[c.name], c)

    # ------------------------------------------------------------- enums

    def enums(self):
        a = {e.name: e for e in self.old.enums}
        b = {e.name: e for e in self.new.enums}
        gone = [e for e in self.old.enums if e.name not in b]
        came = [e for e in self.new.enums if e.name not in a]
        pairs = [(a[k], b[k]) for k in a if k in b]
        for e in list(gone):
            # the same numbers, mostly the same names: renamed
            for f in came:
                va = {v.value: v.name for v in e.values}
                vb = {v.value: v.name for v in f.values}
                same = sum(1 for k in va if vb.get(k) == va[k])
                if set(va) == set(vb) and same * 2 >= len(va):
                    self.add("cosmetic", "enum-renamed", f"enum {e.name}", f"enum {e.name} renamed to {f.name}",
                             e.name, f.name)
                    pairs.append((e, f))
                    gone.remove(e)
                    came.remove(f)
                    break
        for e in gone:
            self.add("cosmetic", "enum-removed", f"enum {e.name}", f"enum {e.name} removed (fields that used it "
                     "are listed apart)", at=(e, None))
        for e in came:
            self.add("compatible", "enum-added", f"enum {e.name}", f"enum {e.name} added", at=(None, e),
                     item=f"enum {e.name}", how="added")
        for e, f in pairs:
            self.enum_pair(e, f)

    def enum_pair(self, e, f):
        with self.at(e, f):
            self.enum_values(e, f)

    def enum_values(self, e, f):
        where = f"enum {f.name}"
        if e.width != f.width:
            self.add("breaking", "enum-resized", where, f"enum {f.name} is {f.width} bits wide, was {e.width}",
                     e.width, f.width)
        self.doc(where, f"enum {f.name}", e, f)
        a = {v.name: v for v in e.values}
        b = {v.name: v for v in f.values}
        gone = [v for v in e.values if v.name not in b]
        came = [v for v in f.values if v.name not in a]
        for v in list(gone):
            w = next((x for x in came if x.value == v.value), None)
            if w is None:
                continue
            gone.remove(v)
            came.remove(w)
            if similar_names(v.name, w.name):
                self.add("cosmetic", "value-renamed", f"{f.name}.{w.name}",
                         f"{f.name} value {v.value}: {v.name} renamed to {w.name}", v.name, w.name, at=(v, w))
                self.value_pair(e, f, v, w)
            else:
                self.add("breaking", "value-replaced", f"{f.name}.{w.name}",
                         f"{f.name} value {v.value} is {w.name} now, was {v.name}: another meaning", v.name, w.name,
                         at=(v, w), item=f"{v.value} ({v.name} → {w.name})", how="given to other meanings")
        for v in gone:
            self.add("breaking", "value-removed", f"{f.name}.{v.name}",
                     f"{f.name} value {v.name} ({v.value}) removed: the number has no name any more", v.value,
                     at=(v, None), item=f"{v.name} ({v.value})", how="removed: the numbers have no name any more")
        for v in came:
            self.add("compatible", "value-added", f"{f.name}.{v.name}", f"{f.name} value {v.name} ({v.value}) added",
                     None, v.value, at=(None, v), item=f"{v.name} ({v.value})", how="added")
        for name in a:
            if name in b:
                self.value_pair(e, f, a[name], b[name])
        pa = {p.name: (p.default, p.unnamed) for p in e.properties}
        pb = {p.name: (p.default, p.unnamed) for p in f.properties}
        for name in sorted(set(pa) | set(pb)):
            if pa.get(name) != pb.get(name):
                self.add("cosmetic", "property-changed", f"{where} property {name}",
                         f"enum {f.name}'s property {name} was " + ("added" if name not in pa else
                                                                     "removed" if name not in pb else "changed"))

    def value_pair(self, e, f, v, w):
        """One value in enum e (old) and f (new)."""
        with self.at(v, w):
            self.value_fields(e, f, v, w)

    def value_fields(self, e, f, v, w):
        where = f"{f.name}.{w.name}"
        if v.value != w.value:
            self.add("breaking", "value-moved", where, f"{f.name} value {w.name} moved from {v.value} to {w.value}",
                     v.value, w.value, item=f"{w.name} ({v.value} → {w.value})", how="moved to other numbers")
        shown = lambda x: x.display if x.display != x.name else None
        if shown(v) != shown(w):
            self.add("cosmetic", "value-display-changed", where, f"{f.name} value {w.name} prints as "
                     f"'{w.display}', was '{v.display}'", v.display, w.display)
        for p in sorted({p.name for p in e.properties} | {p.name for p in f.properties}):
            # (a property added or removed is one change of the enum: a
            # value is compared with its default, and only one that sets
            # another value is a change of its own)
            pe, pf = e.property_named(p) or f.property_named(p), f.property_named(p) or e.property_named(p)
            x = v.props.get(p, pe.default)
            y = w.props.get(p, pf.default)
            if x != y:
                self.add("cosmetic", "value-property-changed", where, f"{f.name} value {w.name}: {p} is {y}, was {x}",
                         x, y)
        self.doc(where, f"{f.name} value {w.name}", v, w)

    # ------------------------------------------------------------- types

    def types(self):
        a = {t.name: t for t in self.old.types}
        b = {t.name: t for t in self.new.types}
        # choices first: their alternatives' renames pair up structs
        for t in self.old.types:
            if isinstance(t, Choice) and isinstance(b.get(t.name), Choice):
                self.choice(t, b[t.name])
        alt_names = {x.name for t in list(a.values()) + list(b.values()) if isinstance(t, Choice) for x in t.alts}
        for t in self.old.types:
            if t.name in self.done_types:
                continue
            u = b.get(t.name)
            if u is None:
                if t.name not in alt_names and t.name not in self.renamed_types:
                    self.add("cosmetic", "type-removed", t.name, f"{t.kind} {t.name} removed (what used it is "
                             "listed apart)", at=(t, None))
                continue
            self.type_pair(t, u, t.name)
        for t in self.new.types:
            if t.name not in a and t.name not in alt_names and t.name not in self.renamed_types.values():
                self.add("compatible", "type-added", t.name, f"{t.kind} {t.name} added", at=(None, t),
                         item=f"{t.kind} {t.name}", how="added")

    def type_pair(self, t, u, where):
        with self.at(t, u):
            self.type_fields(t, u, where)

    def type_fields(self, t, u, where):
        self.done_types.add(t.name)
        if type(t) is not type(u):
            self.add("breaking", "type-changed", where, f"{where} is a {u.kind} now, was a {t.kind}", t.kind, u.kind)
            return
        self.doc(where, f"{t.kind} {where}", t, u)
        if isinstance(t, Struct):
            self.struct(t, u, where)
        elif isinstance(t, Sequence):
            self.sequence(t, u, where)
        elif isinstance(t, Choice) and where not in self.done_types:
            self.choice(t, u)

    def same_type(self, a, b):
        """Field or item types that name the same thing (renames followed)."""
        if a.kind != b.kind:
            return False
        if a.aggregate:
            return self.renamed_types.get(a.name, a.name) == b.name
        return a.name == b.name and a.frac == b.frac

    # ------------------------------------------------------------- choices

    def choice(self, ch, dh):
        with self.at(ch, dh):
            self.choice_alts(ch, dh)

    def choice_alts(self, ch, dh):
        self.done_types.add(ch.name)
        self.doc(ch.name, f"choice {ch.name}", ch, dh)
        self.rules(ch.rules, dh.rules, ch.name)
        self.lets(ch.lets, dh.lets, ch.name)
        old = {a.name: a for a in ch.alts}
        new = {a.name: a for a in dh.alts}
        ro = C.regions([(a.name, a.priority, a.patterns) for a in ch.alts if not a.first])
        rn = C.regions([(a.name, a.priority, a.patterns) for a in dh.alts if not a.first])
        pair = {k: k for k in old if k in new}
        gone = [a for a in ch.alts if a.name not in new]
        came = [a for a in dh.alts if a.name not in old]
        # renames, splits and merges: unmatched encodings whose bit patterns overlap
        pat = lambda a: a.patterns or getattr(a, "shadowed_patterns", [])
        links = {(x.name, y.name) for x in gone for y in came if C.overlap(pat(x), pat(y))}
        for x in gone:
            ys = [y for y in came if (x.name, y.name) in links]
            if len(ys) == 1 and sum(1 for g in gone if (g.name, ys[0].name) in links) == 1:
                y = ys[0]
                pair[x.name] = y.name
                self.renamed_types[x.name] = y.name
                self.add("cosmetic", "encoding-renamed", f"{dh.name}.{y.name}", f"encoding {x.name} renamed to "
                         f"{y.name}", x.name, y.name, at=(x, y))
                self.renames_of[y.name] = ({x.name: y.name}, self.changes[-1])
        # encodings that trade bit patterns are one fact: one group per connected set of them
        node = lambda old_name=None, new_name=None: (new_name or pair.get(old_name)
                                                     or f"{old_name} (old)")
        sets = Sets()
        key = lambda n: f"patterns {dh.name} {sets.find(n)}"
        grouped = []  # (change, node)
        for x in gone:
            ys = [y for y in came if (x.name, y.name) in links]
            if len(ys) > 1:
                self.add("breaking", "encoding-split", f"{dh.name}.{x.name}", f"encoding {x.name} split into "
                         + ", ".join(y.name for y in ys), x.name, " ".join(y.name for y in ys), at=(x, None))
                grouped.append((self.changes[-1], node(x.name)))
                for y in ys:
                    sets.union(node(x.name), y.name)
        for y in came:
            xs = [x for x in gone if (x.name, y.name) in links]
            if len(xs) > 1 and not any(len([z for z in came if (x.name, z.name) in links]) > 1 for x in xs):
                self.add("breaking", "encoding-merged", f"{dh.name}.{y.name}", "encodings "
                         + ", ".join(x.name for x in xs) + f" merged into {y.name}", at=(None, y))
                grouped.append((self.changes[-1], y.name))
                for x in xs:
                    sets.union(node(x.name), y.name)
        paired_new = set(pair.values())
        split = {x.name for x in gone if sum(1 for y in came if (x.name, y.name) in links) > 1}
        merged_into = {y.name for y in came if sum(1 for x in gone if (x.name, y.name) in links) > 1}
        old_any = [c for cs in ro.values() for c in cs]
        for x in gone:
            if x.name not in pair and x.name not in split and not any((x.name, y.name) in links for y in came):
                self.add("breaking", "encoding-removed", f"{dh.name}.{x.name}", f"encoding {x.name} removed: "
                         "its bit patterns decode as nothing", x.name, at=(x, None))
        takers = {}  # old encoding -> the new encodings that took some of its patterns
        for y in came:
            if y.name in paired_new or y.name in merged_into or any((x.name, y.name) in links for x in gone):
                continue
            if C.overlap(rn[y.name], old_any):
                takes = sorted(k for k, cs in ro.items() if C.overlap(rn[y.name], cs))
                self.add("breaking", "encoding-added", f"{dh.name}.{y.name}", f"encoding {y.name} added, taking bit "
                         f"patterns that decoded as {', '.join(takes)} (e.g. "
                         f"{C.describe(C.intersection(rn[y.name], ro[takes[0]])[0])})", None, y.name, at=(None, y))
                grouped.append((self.changes[-1], y.name))
                for k in takes:
                    sets.union(y.name, node(k))
                    takers.setdefault(k, []).append(y.name)
            else:
                self.add("compatible", "encoding-added", f"{dh.name}.{y.name}", f"encoding {y.name} added in bit "
                         "patterns that decoded as nothing", None, y.name, at=(None, y), item=y.name,
                         how="added in bit patterns that decoded as nothing")
        # the bit patterns each surviving encoding decodes
        for xo, yn in sorted(pair.items()):
            a, b = old[xo], new[yn]
            if a.first != b.first:
                self.add("breaking", "encoding-position-changed", f"{dh.name}.{yn}", f"encoding {yn} is "
                         + ("now" if b.first else "no longer") + " the first unit of every program", at=(a, b))
            elif not a.first:
                trades = self.region(dh.name, xo, yn, ro, rn, pair, a, b)
                if trades is not None:
                    grouped.append((self.changes[-1], yn))
                    for k in trades:
                        sets.union(yn, k)
        for c, n in grouped:
            c.group = key(n)
        for a in dh.alts:
            if a.type.target is not None:
                self.encoding_group[a.type.target.name] = key(a.name)
        for loser, ys in takers.items():
            # one encoding losing patterns to new ones only: it was split
            members = sets.members(node(loser))
            if len(ys) > 1 and all(m in ys or m == node(loser) for m in members):
                self.heads[key(node(loser))] = ("encoding-split", f"{dh.name}.{pair.get(loser, loser)}",
                                                f"encoding {pair.get(loser, loser)} split: {len(ys)} "
                                                f"new encodings take some of its bit patterns: {', '.join(sorted(ys))}")
        for xo, yn in sorted(pair.items()):
            a, b = old[xo], new[yn]
            self.doc(f"{dh.name}.{yn}", f"alternative {yn}", a, b)
            ta, tb = a.type.target, b.type.target
            if ta is not None and tb is not None and ta.name not in self.done_types:
                self.type_pair(ta, tb, yn)

    def region(self, choice, xo, yn, ro, rn, pair, a, b):
        """Which bit patterns encoding xo (yn now) decodes, before and
        after: None when the same, else the encodings (new names; old ones
        marked) it took patterns from or gave them to.  Patterns gained
        that decoded as nothing are compatible; any other move breaks."""
        before, after = ro.get(xo, []), rn.get(yn, [])
        target = b.type.target.name if b.type.target is not None else yn
        if C.same(before, after):
            self.grew_only.add(target)
            return None
        gained, lost = C.subtract(after, before), C.subtract(before, after)
        back = {v: k for k, v in pair.items()}
        parts, trades = [], []
        froms = []
        if gained:
            froms = sorted(k for k, cs in ro.items() if k != xo and C.overlap(gained, cs))
            trades += [pair.get(k) or f"{k} (old)" for k in froms]
            parts.append("now also decodes bit patterns that " + (f"decoded as {', '.join(froms)}" if froms
                                                                  else "decoded as nothing")
                         + f" (e.g. {C.describe(gained[0])})")
        if lost:
            tos = sorted(back.get(k, k) if back.get(k, k) == k else k for k, cs in rn.items()
                         if k != yn and C.overlap(lost, cs))
            trades += tos
            parts.append("no longer decodes bit patterns that " + (f"now decode as {', '.join(tos)}" if tos
                                                                   else "now decode as nothing")
                         + f" (e.g. {C.describe(lost[0])})")
        grew_only = not lost and not froms
        if grew_only:
            self.grew_only.add(target)
        self.add("compatible" if grew_only else "breaking", "encoding-patterns-changed", f"{choice}.{yn}",
                 f"encoding {yn} " + "; ".join(parts), at=(a, b))
        return trades

    # ------------------------------------------------------------- structs

    def struct(self, s, t, where):
        group = self.encoding_group.get(t.name)
        grew = t.name in self.grew_only
        length = lambda x: (norm(x.length_text), x.min_length, x.length_flag)
        if s.bits != t.bits and length(s) == length(t):
            self.add("breaking", "size-changed", where, f"{where} is {t.bits} bits, was {s.bits}", s.bits, t.bits)
        if length(s) != length(t):
            la = s.length_flag or norm(s.length_text) or "fixed"
            lb = t.length_flag or norm(t.length_text) or "fixed"
            kept = grew and self.flag_keeps_length(s, t)
            self.add("compatible" if kept else "breaking", "length-changed", where, f"{where}'s length: "
                     f"{self.length_desc(t)}, was {self.length_desc(s)}"
                     + (f" (its flag is set in every old {where})" if kept else ""), la, lb, group=group)
        if s.overlay != t.overlay:
            self.add("breaking", "overlay-changed", where, f"{where}'s variants are "
                     + ("views now" if t.overlay else "no longer views"))
        self.members(s.members, t.members, where, where, s.bits, t.bits,
                     [m for v in s.variants for m in v.members], [m for v in t.variants for m in v.members],
                     group, grew)
        self.variants(s, t, where)
        self.shown(s.displays, t.displays, where)
        self.rules(s.rules, t.rules, where)
        self.lets(s.lets, t.lets, where)
        self.operands(s.operands, t.operands, where)
        self.prefer(s, t, where)
        self.fills(s, t, where)

    def flag_keeps_length(self, s, t):
        """Whether a length flag new in t gives every old s its old length:
        s was always t.bits long and had the flag's bits fixed to non-zero."""
        if s.length_flag or s.length_text or not t.length_flag or s.bits != t.bits:
            return False
        flag = next((f for f in t.members if isinstance(f, Field) and f.name == t.length_flag), None)
        if flag is None:
            return False
        fixed = self.fixed_bits([m for m in s.members if isinstance(m, Field)])
        pos = self.positions(flag)
        return all(p in fixed for p in pos) and any(fixed[p] for p in pos)

    @staticmethod
    def length_desc(s):
        if s.length_flag:
            return f"{s.min_length} or {s.bits} bits by its flag {s.length_flag}"
        if s.length_text:
            return f"{norm(s.length_text)} bits (at least {s.min_length})"
        return f"always {s.bits} bits"

    UNKNOWN = ("reserved", "mbz", "mbo")   # roles that give bits no meaning
    ROLE_TEXT = {"reserved": "reserved", "mbz": "must be zero", "mbo": "must be one", "fixed": "fixed"}

    @classmethod
    def unknown_mask(cls, members, bits):
        """Bits no member but reserved (or must-be) bits gives a meaning to
        (fixed bits have one: they identify the encoding); bits past `bits`
        count as unknown too, so whatever a longer layout puts there is new."""
        covered = 0
        for f in members:
            if isinstance(f, Field) and f.role not in cls.UNKNOWN:
                covered |= f.bit_set()
        return ~covered & ~((1 << bits) - 1) | (((1 << bits) - 1) & ~covered)

    def fixed_bits(self, fields):
        """{position: value} of every fixed bit."""
        return {p: (f.value >> k) & 1 for f in fields if f.role == "fixed" for k, p in enumerate(self.positions(f))}

    def was_text(self, g, old_fields, bits_a):
        """What the bits of new member g were: 'reserved', 'fixed', 'must be
        zero', 'past the old end', or the old fields they belonged to."""
        bits = g.bit_set()
        said = []
        for f in old_fields:
            if f.bit_set() & bits:
                what = self.ROLE_TEXT.get(f.role) or f"in field {f.name}"
                if what not in said:
                    said.append(what)
        if bits >> bits_a:
            said.append("past the old end")
        return " and ".join(said) or "unused"

    def members(self, ma, mb, where, owner_name, bits_a, bits_b, around_a=(), around_b=(), group=None, grew=False):
        """Fields (and uses) of a struct or of one of its variants; around_*
        are the other members that give bits a meaning (a variant's for the
        common members, the common ones for a variant).  `group` is the
        cause the encoding's bit-pattern changes are reported under, and
        `grew` says the encoding only gained patterns that decoded as
        nothing (so freeing its fixed bits is compatible)."""
        fa = [m for m in ma if isinstance(m, Field)]
        fb = [m for m in mb if isinstance(m, Field)]
        unknown_a = self.unknown_mask(list(ma) + list(around_a), bits_a)
        unknown_b = self.unknown_mask(list(mb) + list(around_b), bits_b)
        # anonymous fixed bits are compared as a pattern: they identify the encoding
        xa = self.fixed_bits([f for f in fa if f.anonymous])
        xb = self.fixed_bits([f for f in fb if f.anonymous])
        old_fixed = self.fixed_bits(fa)
        if xa != xb:
            added = {p: v for p, v in xb.items() if p not in xa}
            removed = {p: v for p, v in xa.items() if p not in xb}
            changed = {p for p in xa if p in xb and xa[p] != xb[p]}
            bits = []
            if added:
                bits.append(f"bits {self.fixed_text(added)} now fixed")
            if removed:
                bits.append(f"bits {self.fixed_text(removed)} no longer fixed")
            if changed:
                bits.append(f"bits {self.fixed_text({p: xb[p] for p in changed})} fixed to other values")
            freed_only = grew and not added and not changed
            self.add("compatible" if freed_only else "breaking", "fixed-bits-changed", where,
                     f"{owner_name}'s encoding: " + "; ".join(bits), self.fixed_text(xa), self.fixed_text(xb),
                     group=group)
        named = lambda fs: {f.name: f for f in fs if not f.anonymous}
        na, nb = named(fa), named(fb)
        gone = [f for f in fa if not f.anonymous and f.name not in nb]
        came = [f for f in fb if not f.anonymous and f.name not in na]
        carved = []  # (change, bits it concerns, short text): fields re-cut over the same bits
        freed = []   # (change, bits): reserved bits that shrank
        gained = []  # (change, bits): fields now in formerly reserved bits
        renames = self.field_renames.setdefault(where, {})
        # a field at the same bits (or the same low bits, widened) under a similar name is renamed
        same_place = (lambda f, g: g.pieces == f.pieces and g.count == f.count and g.role == f.role,
                      lambda f, g: (g.count == f.count and g.role == f.role and g.width > f.width
                                    and self.positions(g)[:len(self.positions(f))] == self.positions(f)
                                    and similar_names(f.name, g.name)))
        for test in same_place:
            for f in list(gone):
                g = next((g for g in came if test(f, g)), None)
                if g is None:
                    continue
                gone.remove(f)
                came.remove(g)
                if similar_names(f.name, g.name):
                    self.add("cosmetic", "field-renamed", f"{where}.{g.name}", f"field {f.name} of {owner_name} "
                             f"renamed to {g.name}", f.name, g.name, at=(f, g))
                    renames[f.name] = (g.name, self.changes[-1])
                    self.field_pair(f, g, where, owner_name, unknown_a, carved, freed, gained)
                else:
                    self.add("breaking", "field-replaced", f"{where}.{g.name}", f"field {f.name} of {owner_name} "
                             f"(bits {bits_text(f.pieces, f.count, f.stride)}) is {g.name} now: another meaning",
                             f.name, g.name, at=(f, g))
                    carved.append((self.changes[-1], f.bit_set(), f"{f.name} ({bits_text(f.pieces)}) is {g.name}"))
        for f in gone:
            if f.role in self.UNKNOWN:
                continue  # only a name goes; what the bits mean now is said where it changed
            fate = "its bits are reserved now" if f.bit_set() & ~unknown_b == 0 else "its bits mean something else now"
            self.add("breaking", "field-removed", f"{where}.{f.name}", f"{f.role} {f.name} of {owner_name} "
                     f"(bits {bits_text(f.pieces, f.count, f.stride)}) removed: {fate}", bits_text(f.pieces), None,
                     at=(f, None), item=f"{f.name} ({bits_text(f.pieces, f.count, f.stride)})",
                     how="removed, " + ("their bits reserved now" if "reserved" in fate else
                                        "their bits meaning something else now"))
            carved.append((self.changes[-1], f.bit_set(), f"{f.name} ({bits_text(f.pieces)}) removed"))
        for g in came:
            if g.role in self.UNKNOWN:
                continue
            bits = bits_text(g.pieces, g.count, g.stride)
            was = self.was_text(g, fa, bits_a)
            if g.bit_set() & ~unknown_a == 0:
                self.add("compatible", "field-added", f"{where}.{g.name}", f"{g.role} {g.name} of {owner_name} "
                         f"added in bits {bits}, which were {was}", None, bits, at=(None, g), item=f"{g.name} ({bits})",
                         how=f"added in bits which were {was}")
                self.added_fields.setdefault(where, {})[g.name] = self.changes[-1]
                gained.append((self.changes[-1], g.bit_set()))
            elif grew and all(p in old_fixed or (unknown_a >> p) & 1 for p in self.positions(g)):
                # the encoding's fixed bits freed: every old unit has the value they were fixed to
                value = sum(old_fixed.get(p, 0) << k for k, p in enumerate(self.positions(g)))
                self.add("compatible", "field-added", f"{where}.{g.name}", f"{g.role} {g.name} of {owner_name} "
                         f"added in bits {bits}, which were {was} (to {value} in every old {owner_name})", None, bits,
                         at=(None, g), group=group)
            else:
                self.add("breaking", "field-added", f"{where}.{g.name}", f"{g.role} {g.name} of {owner_name} added "
                         f"in bits {bits}, which were {was}", None, bits, at=(None, g))
                carved.append((self.changes[-1], g.bit_set(), f"{g.name} ({bits_text(g.pieces)}) added"))
        for name, f in na.items():
            if name in nb:
                self.field_pair(f, nb[name], where, owner_name, unknown_a, carved, freed, gained)
        self.recarved(carved, where, owner_name)
        for r, bits in freed:   # reserved bits that shrank for a new field are part of that fact
            r.cause = next((c for c, b in gained if b & bits), None)
        ua = {u.name: u for u in ma if isinstance(u, Use)}
        ub = {u.name: u for u in mb if isinstance(u, Use)}
        for name in sorted(set(ua) | set(ub)):
            x, y = ua.get(name), ub.get(name)
            if x is None or y is None or (x.operand_name, norm(x.args_text)) != (y.operand_name, norm(y.args_text)):
                self.add("cosmetic", "use-changed", f"{where}.{name}", f"operand {name} of {owner_name} "
                         + ("added" if x is None else "removed" if y is None else "applies another rule"),
                         None if x is None else f"{x.operand_name}({x.args_text})",
                         None if y is None else f"{y.operand_name}({y.args_text})", at=(x, y))

    def recarved(self, carved, where, owner_name):
        """Fields removed, added or resized over overlapping bits are one
        fact: those bits are cut into fields another way."""
        sets = Sets()
        for i, (_, bits, _) in enumerate(carved):
            sets.find(i)
            for j in range(i):
                if carved[j][1] & bits:
                    sets.union(i, j)
        for root in sorted({sets.find(i) for i in range(len(carved))}):
            part = [carved[i] for i in range(len(carved)) if sets.find(i) == root]
            if len(part) < 2:
                continue
            bits = 0
            for _, b, _ in part:
                bits |= b
            pieces, p = [], 0
            while bits >> p:
                if (bits >> p) & 1:
                    w = 0
                    while (bits >> (p + w)) & 1:
                        w += 1
                    pieces.append((p, w))
                    p += w
                else:
                    p += 1
            key = f"bits {where} {pieces[0][0]}"
            self.heads[key] = ("fields-recut", where, f"bits {bits_text(pieces)} of {owner_name} are cut into fields another "
                               "way: " + "; ".join(short for _, _, short in part))
            for c, _, _ in part:
                c.group = key

    @staticmethod
    def positions(f):
        out = []
        for i in range(f.count):
            for lo, w in f.element_pieces(i):
                out.extend(range(lo, lo + w))
        return out

    @staticmethod
    def fixed_text(bits):
        """{pos: value} as '8 = 1, 16..19 = 0x0'."""
        if not bits:
            return "none"
        mask = value = 0
        for p, v in bits.items():
            mask |= 1 << p
            value |= v << p
        return C.describe((mask, value))

    def field_pair(self, f, g, where, owner_name, unknown_a, carved, freed, gained):
        with self.at(f, g):
            self.field_fields(f, g, where, owner_name, unknown_a, carved, freed, gained)

    def field_fields(self, f, g, where, owner_name, unknown_a, carved, freed, gained):
        """One field in both; a change of its bits joins `carved`, reserved
        bits given up join `freed`, a field grown into reserved bits `gained`."""
        path = f"{where}.{g.name}"
        what = f"field {g.name} of {owner_name}"
        if f.role != g.role:
            if f.role in self.UNKNOWN and g.role == "field":
                self.add("compatible", "field-defined", path, f"{what}: its bits, which were {self.ROLE_TEXT[f.role]}, "
                         "are a field now")
            elif g.role in self.UNKNOWN:
                self.add("breaking", "field-reserved", path, f"{what} is reserved bits now")
            else:
                self.add("breaking", "field-role-changed", path, f"{what} is a {g.role} now, was a {f.role}",
                         f.role, g.role)
        if f.pieces != g.pieces or f.count != g.count or f.stride != g.stride:
            old_bits, new_bits = f.bit_set(), g.bit_set()
            if f.role in self.UNKNOWN and g.role in self.UNKNOWN:
                # what took or gave the bits is said where it happened
                shrank = new_bits & ~old_bits == 0
                self.add("compatible" if shrank else "cosmetic", "reserved-changed", path, f"reserved {g.name} of "
                         f"{owner_name} is bits {bits_text(g.pieces, g.count, g.stride)} now, was "
                         f"{bits_text(f.pieces, f.count, f.stride)}", bits_text(f.pieces, f.count, f.stride),
                         bits_text(g.pieces, g.count, g.stride))
                if shrank:
                    freed.append((self.changes[-1], old_bits & ~new_bits))
            elif f.width == g.width and f.count == g.count:
                self.add("breaking", "field-moved", path, f"{what} moved from bits "
                         f"{bits_text(f.pieces, f.count, f.stride)} to {bits_text(g.pieces, g.count, g.stride)}; every "
                         f"{owner_name} with {g.name} != 0 now decodes differently",
                         bits_text(f.pieces, f.count, f.stride), bits_text(g.pieces, g.count, g.stride))
                carved.append((self.changes[-1], old_bits | new_bits, f"{g.name} {bits_text(f.pieces)} → "
                               f"{bits_text(g.pieces)}"))
            elif (g.width > f.width and f.count == g.count and self.positions(g)[:f.width] == self.positions(f)
                  and (new_bits & ~old_bits) & ~unknown_a == 0):
                self.add("compatible", "field-widened", path, f"{what} widened from {f.width} to {g.width} bits "
                         f"({bits_text(g.pieces, g.count, g.stride)}) into bits that were reserved",
                         bits_text(f.pieces), bits_text(g.pieces))
                gained.append((self.changes[-1], new_bits & ~old_bits))
            else:
                self.add("breaking", "field-resized", path, f"{what} is {plural(g.width, 'bit')} at "
                         f"{bits_text(g.pieces, g.count, g.stride)}, was {plural(f.width, 'bit')} at "
                         f"{bits_text(f.pieces, f.count, f.stride)}", bits_text(f.pieces, f.count, f.stride),
                         bits_text(g.pieces, g.count, g.stride))
                carved.append((self.changes[-1], old_bits | new_bits, f"{g.name} {bits_text(f.pieces)} → "
                               f"{bits_text(g.pieces)}"))
        if not self.same_type(f.type, g.type):
            cls = "cosmetic" if type_kind(f.type) == type_kind(g.type) and not f.type.aggregate else "breaking"
            how = "the same values, printed differently" if cls == "cosmetic" else "its values read differently"
            self.add(cls, "field-retyped", path, f"{what} is {type_text(g.type)} now, was {type_text(f.type)}: {how}",
                     type_text(f.type), type_text(g.type))
        if f.role == "fixed" and f.value != g.value:
            self.add("breaking", "fixed-value-changed", path, f"{what} is fixed to {g.value:#x} now, was {f.value:#x}",
                     f.value, g.value)
        for attr, label in (("default", "default"), ("expect", "expected value"), ("format", "format"),
                            ("severity", "finding severity"), ("expect_severity", "expected-value severity")):
            x, y = getattr(f, attr), getattr(g, attr)
            if attr == "format" and f.type.name != g.type.name:
                continue  # the type says it (hex)
            if x != y:
                self.add("cosmetic", f"field-{attr.replace('_', '-')}-changed", path, f"{what}: {label} {y}, was {x}",
                         x, y)
        self.doc(path, what, f, g)

    # ------------------------------------------------------------- variants

    def variants(self, s, t, where):
        a = {v.name: v for v in s.variants}
        b = {v.name: v for v in t.variants}
        ra = C.regions([(v.name, v.priority if not v.fallback else -(1 << 62), v.patterns) for v in s.variants]) \
            if s.variants else {}
        rb = C.regions([(v.name, v.priority if not v.fallback else -(1 << 62), v.patterns) for v in t.variants]) \
            if t.variants else {}
        for v in s.variants:
            if v.name not in b:
                self.add("breaking", "variant-removed", f"{where}.{v.name}", f"variant {v.name} of {where} removed",
                         at=(v, None))
        for v in t.variants:
            if v.name not in a:
                cls = "breaking" if C.overlap(rb[v.name], [c for cs in ra.values() for c in cs]) else "compatible"
                self.add(cls, "variant-added", f"{where}.{v.name}", f"variant {v.name} of {where} added", at=(None, v))
        for name, v in a.items():
            w = b.get(name)
            if w is None:
                continue
            with self.at(v, w):
                self.variant_pair(v, w, ra, rb, where)

    def variant_pair(self, v, w, ra, rb, where):
        name, s, t = v.name, v.owner, w.owner
        vwhere = f"{where}.{name}"
        grew, group = True, None   # (a variant that only gains patterns that chose nothing is compatible)
        if not C.same(ra[name], rb[name]):
            gained, lost = C.subtract(rb[name], ra[name]), C.subtract(ra[name], rb[name])
            took = any(k != name and C.overlap(gained, cs) for k, cs in ra.items())
            grew, group = not lost and not took, f"patterns {vwhere}"
            self.add("compatible" if grew else "breaking", "variant-patterns-changed", vwhere,
                     f"variant {name} of {where} is chosen by other bit patterns"
                     + (f" (now also e.g. {C.describe(gained[0])})" if gained else "")
                     + (f" (no longer e.g. {C.describe(lost[0])})" if lost else ""), group=group)
        if v.path_named != w.path_named:
            self.add("breaking", "variant-paths-changed", vwhere, f"variant {name} of {where}: its fields' "
                     "paths changed")
        self.members(v.members, w.members, vwhere, f"{where} ({name})", s.bits, t.bits, s.members, t.members,
                     group, grew)
        self.shown(v.displays, w.displays, vwhere)
        self.rules(v.rules, w.rules, vwhere)
        self.lets(v.lets, w.lets, vwhere)
        self.operands(v.operands, w.operands, vwhere)
        self.doc(vwhere, f"variant {name} of {where}", v, w)

    # ------------------------------------------------------------- sequences

    def sequence(self, s, t, where):
        if (s.align, norm(s.size_text)) != (t.align, norm(t.size_text)):
            self.add("breaking", "sequence-layout-changed", where, f"{where}'s size or alignment changed",
                     norm(s.size_text), norm(t.size_text))
        a = {i.name: i for i in s.items}
        b = {i.name: i for i in t.items}
        if [i.name for i in s.items if i.name in b] != [i.name for i in t.items if i.name in a]:
            self.add("breaking", "items-reordered", where, f"the items of {where} come in another order")
        for i in s.items:
            if i.name not in b:
                self.add("breaking", "item-removed", f"{where}.{i.name}", f"item {i.name} of {where} removed",
                         at=(i, None), item=i.name, how="removed")
        for i in t.items:
            if i.name not in a:
                self.add("breaking", "item-added", f"{where}.{i.name}", f"item {i.name} of {where} added",
                         at=(None, i), item=i.name, how="added")
        for name, i in a.items():
            j = b.get(name)
            if j is None:
                continue
            path = f"{where}.{name}"
            if not self.same_type(i.type, j.type):
                self.add("breaking", "item-retyped", path, f"item {name} of {where} is a {j.type.name} now, was a "
                         f"{i.type.name}", i.type.name, j.type.name)
            for attr in ("present_text", "count_text"):
                if norm(getattr(i, attr)) != norm(getattr(j, attr)):
                    self.add("breaking", "item-condition-changed", path, f"item {name} of {where}: when it is there "
                             "or how many changed", norm(getattr(i, attr)), norm(getattr(j, attr)))
            if i.max != j.max:
                self.add("breaking", "item-limits-changed", path, f"item {name} of {where}: its maximum count "
                         "changed")
            self.doc(path, f"item {name} of {where}", i, j)
        self.derives(s.derives, t.derives, where, f"the encoder of {where}")
        self.shown(s.displays, t.displays, where)
        self.rules(s.rules, t.rules, where)
        self.lets(s.lets, t.lets, where)
        self.operands(s.operands, t.operands, where)
        self.prefer(s, t, where)
        self.fills(s, t, where)

    # ------------------------------------------------------------- text and rules

    def renamed_in(self, where):
        """The renames a display of `where` follows: its fields' (and its
        struct's) and its encoding's, as ({old: new}, {old: change})."""
        names, causes = {}, {}
        scopes = [where] + ([where.split(".")[0]] if "." in where else [])
        for scope in scopes:
            for old, (new, change) in self.field_renames.get(scope, {}).items():
                names[old], causes[old] = new, change
        if where.split(".")[0] in self.renames_of:
            (old, new), = self.renames_of[where.split(".")[0]][0].items()
            names[old], causes[old] = new, self.renames_of[where.split(".")[0]][1]
        return names, causes

    @staticmethod
    def follow(text, names):
        """A template with renamed names replaced (field references inside
        braces, the encoding's name in literal text)."""
        if not names:
            return text
        word = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
                          + r")(?![A-Za-z0-9_])")
        return "".join(word.sub(lambda m: names[m.group(1)], tok) for tok in TOKEN.findall(text))

    def shows_new_fields(self, old, new, where):
        """The change that added a field, when the only change from display
        `old` to `new` is text inserted that shows fields added in reserved
        bits of `where` (the first of them); else None."""
        import difflib
        added = self.added_fields.get(where, {})
        a, b = TOKEN.findall(old), TOKEN.findall(new)
        names = []
        for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
            if op == "equal":
                continue
            if op != "insert":
                return None
            refs = re.findall(r"\{([A-Za-z_]\w*)", "".join(b[j1:j2]))
            if not refs or any(r not in added for r in refs if r not in ("item", "end", "list", "if", "else")):
                return None
            names += [r for r in refs if r in added]
        return added[names[0]] if names else None

    def shown(self, da, db, where):
        """Displays, matched by their condition.  A display whose only
        change is a renamed name is reported with that rename."""
        a = [(norm(d.when_text), shown_text(d.parts), d) for d in da]
        b = [(norm(d.when_text), shown_text(d.parts), d) for d in db]
        if [x[:2] for x in a] == [y[:2] for y in b]:
            return
        ta, tb = {w: (x, d) for w, x, d in a}, {w: (y, d) for w, y, d in b}
        names, causes = self.renamed_in(where)
        cond = lambda w: f" when {w}" if w else " by default"
        for when, x, d in a:
            if when not in tb:
                self.add("cosmetic", "display-removed", where, f"{where} no longer has a display{cond(when)}: {x}",
                         x, None, at=(d, None))
                continue
            y, e = tb[when]
            if y == x:
                continue
            used = [n for n in names if self.follow(x, {n: names[n]}) != x]
            fields_only = {n: v for n, v in names.items() if causes[n].kind == "field-renamed"}
            if self.follow(x, names) == y and used:
                cause = causes[used[0]]
                cause.group = cause.group or f"rename {cause.where}"
                self.add("cosmetic", "display-changed", where, f"{where} prints differently{cond(when)}, following "
                         f"the rename: {text_change(x, y)}", x, y, at=(d, e), group=cause.group)
            else:
                followed = self.follow(x, fields_only)
                besides = [n for n in used if n in fields_only]
                shows = self.shows_new_fields(followed, y, where)
                if shows is not None:
                    shows.group = shows.group or f"added {shows.where}"
                self.add("cosmetic", "display-changed", where, f"{where} prints differently{cond(when)}"
                         + (", showing the new field" if shows is not None else "")
                         + f": {text_change(followed, y)}" + (" (besides the renamed "
                                                                   f"{', '.join(besides)})" if besides else ""), x, y,
                         at=(d, e), group=None if shows is None else shows.group)
        for when, y, e in b:
            if when not in ta:
                self.add("cosmetic", "display-added", where, f"{where} has a new display{cond(when)}: {y}",
                         None, y, at=(None, e))
        if [w for w, _, _ in a if w in tb] != [w for w, _, _ in b if w in ta]:
            self.add("cosmetic", "displays-reordered", where, f"{where}'s displays are tried in another order")

    def rules(self, ra, rb, where):
        key = lambda r: (norm(r.check_text), norm(r.when_text), r.severity, r.field, shown_text(r.message))
        a = {r.name: r for r in ra}
        b = {r.name: r for r in rb}
        for name in sorted(set(a) | set(b)):
            x, y = a.get(name), b.get(name)
            if x is None:
                self.add("cosmetic", "rule-added", f"{where} rule {name}", f"validator rule {name} of {where} added",
                         None, norm(y.check_text), at=(None, y), item=name, how="added")
            elif y is None:
                self.add("cosmetic", "rule-removed", f"{where} rule {name}", f"validator rule {name} of {where} "
                         "removed", norm(x.check_text), at=(x, None), item=name, how="removed")
            elif key(x) != key(y):
                self.add("cosmetic", "rule-changed", f"{where} rule {name}", f"validator rule {name} of {where} "
                         "changed", norm(x.check_text), norm(y.check_text), at=(x, y))
            else:
                self.doc(f"{where} rule {name}", f"rule {name}", x, y)

    def lets(self, la, lb, where):
        a = {lt.name: lt for lt in la}
        b = {lt.name: lt for lt in lb}
        for name in sorted(set(a) | set(b)):
            x, y = a.get(name), b.get(name)
            cx, cy = (canon(x.value) if x else None), (canon(y.value) if y else None)
            key = ("let", scope_name((x or y).owner), name)
            if cx != cy:
                # a let added or removed changes nothing itself: what reads it changed, and says so
                cls = self.relevance(key) if x is not None and y is not None else "cosmetic"
                self.add(cls, "let-changed", f"{where}.{name}", f"<let> {name} of {where} "
                         + ("added" if x is None else "removed" if y is None else "changed"),
                         None if x is None else norm(x.value_text), None if y is None else norm(y.value_text), at=(x, y))
            elif x is not None and y is not None:
                self.doc(f"{where}.{name}", f"<let> {name} of {where}", x, y)

    def operands(self, oa, ob, where):
        a = {o.name: o for o in oa}
        b = {o.name: o for o in ob}
        scope = f" of {where}" if where else ""
        for name in sorted(set(a) | set(b)):
            x, y = a.get(name), b.get(name)
            path = f"{where}.{name}" if where else f"operand {name}"
            if x is None or y is None:
                self.add("cosmetic", "operand-added" if x is None else "operand-removed", path,
                         f"operand rule {name}{scope} " + ("added" if x is None else "removed"), at=(x, y),
                         item=name, how="added" if x is None else "removed")
                continue
            with self.at(x, y):
                self.operand_pair(x, y, path, scope)

    def operand_pair(self, x, y, path, scope):
        name = x.name
        cases = lambda o: [(norm(c.when_text), shown_text(c.display), c.undefined, shown_text(c.message))
                           for c in o.cases]
        if x.param_types != y.param_types:
            self.add("cosmetic", "operand-changed", path, f"operand rule {name}{scope}: its struct parameters "
                     "changed", x.param_types, y.param_types)
        self.lets(x.lets, y.lets, path)
        self.rules(x.rules, y.rules, path)
        for i, (c, d) in enumerate(zip(x.cases, y.cases)):
            self.doc(f"{path} case {i + 1}", f"case {i + 1} of operand {name}", c, d)
        if x.params != y.params or cases(x) != cases(y):
            detail = ""
            if x.params == y.params and len(x.cases) == len(y.cases):
                diffs = [text_change(c[1], d[1]) for c, d in zip(cases(x), cases(y)) if c[1] != d[1]]
                if diffs:
                    detail = ": " + "; ".join(diffs)
            self.add("cosmetic", "operand-changed", path, f"operand rule {name}{scope} changed{detail}",
                     " | ".join(c[1] for c in cases(x)), " | ".join(c[1] for c in cases(y)))
        self.doc(path, f"operand {name}", x, y)


def diff(old, new):
    """The changes from spec model `old` to `new`, sorted by class."""
    return Differ(old, new).run()


def report(old, new):
    """The changes from `old` to `new`, and the entries a report shows them
    in (diffgroup.py): (changes, entries)."""
    from . import diffgroup
    d = Differ(old, new)
    changes = d.run()
    return changes, diffgroup.entries(changes, d.heads, new)
