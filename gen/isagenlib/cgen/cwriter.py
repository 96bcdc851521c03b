"""Writing C: statement blocks, <let> locals, line width, initialisers.

A generated function body is built as a tree of `Block`s.  Statements that
hold expressions record the <let>s they use; `place_lets` then declares
each let once, as a `const` local at the top of the innermost block that
encloses all its uses (its own lets first), so every let is computed once
per function and a debugger shows it by name.  A `barrier` block keeps its
lets to itself: a sequence decoder's item, where the object changes
between one item and the next.

Long expressions are broken over lines at calls, operators and `?:`, so
that no line outside string literals grows past WIDTH.
"""

from . import cexpr as E

WIDTH = 110     # where an expression is broken over lines
INDENT = "   "


# ---------------------------------------------------------------- expression layout


def expr_lines(e, lead="", trail="", width=WIDTH):
    """Lines of `lead + e + trail`, broken where the one-line form is too
    long; continuation lines are indented relative to the first.  Inside
    parentheses already (`if (`, `switch (`), an operator's own are left out."""
    if isinstance(e, E.Infix) and lead.endswith("(") and trail.startswith(")"):
        inner = E.flat(e)[1:-1]
        if len(lead + inner + trail) <= width:
            return [lead + inner + trail]
        return expr_lines(e.a, lead, "", width) + \
            [INDENT + ln for ln in expr_lines(e.b, e.op + " ", trail, width - len(INDENT))]
    text = lead + E.flat(e) + trail
    if len(text) <= width:
        return [text]
    sub = INDENT
    if isinstance(e, E.Call) and e.args:
        out = [lead + e.fn + "("]
        for i, a in enumerate(e.args):
            last = i == len(e.args) - 1
            out += [sub + ln for ln in expr_lines(a, "", ")" + trail if last else ",", width - len(sub))]
        return out
    if isinstance(e, E.Cond):
        out = expr_lines(e.c, lead + "(", "", width)
        out += [sub + ln for ln in expr_lines(e.a, "? ", "", width - len(sub))]
        out += [sub + ln for ln in expr_lines(e.b, ": ", ")" + trail, width - len(sub))]
        return out
    if isinstance(e, E.Infix):
        out = expr_lines(e.a, lead + "(", "", width)
        out += [sub + ln for ln in expr_lines(e.b, e.op + " ", ")" + trail, width - len(sub))]
        return out
    if isinstance(e, (E.Cast, E.Prefix)) and not isinstance(e.x, E.Atom):
        head = f"({e.type})" if isinstance(e, E.Cast) else "(" + e.op
        tail = "" if isinstance(e, E.Cast) else ")"
        return expr_lines(e.x, lead + head, tail + trail, width)
    return [text]


# ---------------------------------------------------------------- blocks


class Block:
    """Statements of a C block, nested blocks, and the lets they use."""

    def __init__(self, head=None, tail="}", barrier=False):
        self.head = [head] if isinstance(head, str) else head  # the lines opening it ("if (x) {"); None: none
        self.tail = tail
        self.barrier = barrier
        self.prelude = []       # lines before everything, let declarations included
        self.items = []         # str (a line) or Block
        self.uses = []          # lets its own statements use
        self.decls = []         # let declarations placed here (lines)
        # a switch's body holds case labels: what it needs is declared before it
        self.decl_ok = not (self.head and self.head[0].lstrip().startswith("switch"))

    def line(self, text):
        self.items.append(text)

    def lines(self, texts):
        self.items.extend(texts)

    def stmt(self, lead, e, trail=";"):
        """A statement holding the C expression tree e."""
        for let in E.lets_in(e):
            if let not in self.uses:
                self.uses.append(let)
        self.items.extend(expr_lines(e, lead, trail))

    def sub(self, head, tail="}", barrier=False):
        b = Block(head, tail, barrier)
        self.items.append(b)
        return b

    def branch(self, keyword, cond, tail="}"):
        """A sub-block opened by `keyword (cond) {`: if, } else if, while...
        The condition's lets are this block's (it is evaluated here)."""
        head = expr_lines(cond, f"{keyword} (", ") {")
        for let in E.lets_in(cond):
            if let not in self.uses:
                self.uses.append(let)
        return self.sub(head, tail)

    def empty(self):
        return not any(isinstance(i, str) or not i.empty() for i in self.items) and not self.decls

    def render(self, indent=""):
        out = []
        inner = indent if self.head is None else indent + INDENT
        if self.head is not None:
            out += [indent + h for h in self.head]
        out += [inner + d for d in self.prelude + self.decls]
        for i in self.items:
            if isinstance(i, Block):
                out += i.render(inner)
            else:
                out.append(inner + i if i else "")
        if self.head is not None and self.tail is not None:
            out.append(indent + self.tail)
        return out


def place_lets(root, env):
    """Declare every let the blocks under `root` use, once, at the top of
    the innermost block enclosing its uses (never above a barrier)."""
    parent, blocks = {}, [root]

    def index(b):
        for i in b.items:
            if isinstance(i, Block):
                parent[i] = b
                blocks.append(i)
                index(i)
    index(root)

    def chain(b):
        out = [b]
        while out[-1] in parent and not out[-1].barrier:
            out.append(parent[out[-1]])
        return out

    # every let used, directly or by another let's value, and what each uses
    trees, deps, todo = {}, {}, [let for b in blocks for let in b.uses]
    while todo:
        let = todo.pop()
        if let in trees:
            continue
        trees[let] = E.compile(let.value, env)
        deps[let] = E.lets_in(trees[let])
        todo += deps[let]
    # place a let after every let that uses it is placed (the graph has no cycle)
    users = {let: [a for a in trees if let in deps[a]] for let in trees}
    placed, sites = {}, {let: [b for b in blocks if let in b.uses] for let in trees}
    pending = list(trees)
    while pending:
        let = next(x for x in pending if all(u in placed for u in users[x]))
        pending.remove(let)
        where = []
        groups = {}
        for b in sites[let] + [w for u in users[let] for w in placed[u]]:
            c = chain(b)
            groups.setdefault(c[-1], []).append(c)
        for chains in groups.values():
            common = [x for x in chains[0] if all(x in c for c in chains[1:])]
            site = common[0]
            while not site.decl_ok:
                site = parent[site]
            if site not in where:
                where.append(site)
        placed[let] = where
        for b in where:
            decl = Block()
            kind = "double" if let.value.type == "float" else "int64_t"
            decl.stmt(f"const {kind} {E.Names.let_local(let)} = ", trees[let])
            b.decls.append((let, decl))
    # in each block, a let's declaration after those of the lets it uses
    for b in blocks:
        ordered, pending = [], list(b.decls)
        while pending:
            k = next(i for i, (let, _) in enumerate(pending)
                     if not any(other in deps[let] for other, _ in pending if other is not let))
            ordered.append(pending.pop(k))
        b.decls = [ln for _, decl in ordered for ln in decl.render()]


def function(head, body, env):
    """Lines of a C function: `head` (its signature line or lines), then
    the body block with its lets placed."""
    place_lets(body, env)
    return head + ["{"] + body.render(INDENT) + ["}"]


# ---------------------------------------------------------------- initialisers


def designated(fields, indent="   "):
    """A C99 designated initialiser: {.name = value, ...}, one member per
    line when it does not fit on one.  `fields`: [(member, C text)]."""
    one = "{" + ", ".join(f".{k} = {v}" for k, v in fields) + "}"
    if len(one) + len(indent) <= WIDTH:
        return [one]
    return ["{"] + [f"{indent}.{k} = {v}," for k, v in fields] + ["}"]


def wrapped_list(items, indent="   ", width=WIDTH, sep=","):
    """Items separated by `sep` (and a space) over as many lines as it takes."""
    lines, cur = [], ""
    for k, it in enumerate(items):
        piece = it + (sep if k < len(items) - 1 else "")
        if cur and len(indent) + len(cur) + 1 + len(piece) > width:
            lines.append(indent + cur)
            cur = piece
        else:
            cur = f"{cur} {piece}" if cur else piece
    if cur:
        lines.append(indent + cur)
    return lines


def table(decl, entries):
    """`decl = { entry, entry, };`, each entry the lines of an initialiser."""
    out = [decl + " = {"]
    for e in entries:
        out += ["   " + ln for ln in e[:-1]] + ["   " + e[-1] + ","]
    return out + ["};"]


def byte_array(decl, values):
    return [decl + " = {"] + wrapped_list(values) + ["};"]
