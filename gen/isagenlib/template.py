"""Display templates: how a unit, a variant or an operand prints.

A template is text with directives in braces, compiled to straight C (no
run-time interpretation):

    {EXPR}              the value; enum-typed fields print their display
                        name (the number when the value is unnamed), struct
                        fields and operands print their own display
    {EXPR:FMT}          FMT is a printf conversion without '%' (d i u x X o
                        f F e E g G c, with flags/width/precision, e.g. 03d,
                        08x, .2f), or b for binary digits (04b), or the name
                        of an enum to print the value under that enum's names,
                        or r: a floating value as Python's repr() writes it
                        (the shortest text that reads back: 1.0, 0.015625)
    {if EXPR} ... {elif EXPR} ... {else} ... {end}
    {for NAME in LO..HI} ... {end}     NAME runs from LO up to HI-1
    {list "SEP"}{item EXPR}...{item EXPR}...{end}
                        the items whose EXPR holds, SEP between them; an
                        {item} without EXPR is there when it prints text
    {NAME(ARGS)}        operand NAME printed with these arguments
    {optional} ... {end}
                        printed as if it were not there; the assembler's
                        lax reading also reads the text without it (the
                        instruction number a dump prints before each
                        instruction, a suffix a hand-written program leaves
                        out): what only it shows then takes its default
    {# TEXT}            a comment: prints nothing
    {{  }}  \\n  \\t  \\\\          literal braces, newline, tab, backslash

A template may span lines: a raw newline and the spaces and tabs after it
are dropped, as a template engine's trim does, so the XML can be indented
freely and no indentation reaches the output.  A template that prints a
line break says \\n; any other raw tab is an error.
"""

import re

from . import expr as X


class TemplateError(Exception):
    def __init__(self, pos, message):
        super().__init__(message)
        self.pos = pos
        self.message = message


class Text:
    def __init__(self, text):
        self.text = text


class Subst:
    def __init__(self, node, fmt, pos, fmt_pos):
        self.node, self.fmt, self.pos, self.fmt_pos = node, fmt, pos, fmt_pos
        self.fmt_enum = None  # set by check() when FMT names an enum


class If:
    def __init__(self, branches, otherwise):
        self.branches = branches  # [(expr node, parts)]
        self.otherwise = otherwise  # parts or None


class For:
    def __init__(self, var, lo, hi, body, pos):
        self.var, self.lo, self.hi, self.body, self.pos = var, lo, hi, body, pos


class List:
    def __init__(self, sep, items, pos):
        self.sep, self.items, self.pos = sep, items, pos  # items: [(cond or None, parts)]


class Pad:
    def __init__(self, width, body, pos):
        self.width, self.body, self.pos = width, body, pos


class Optional:
    """{optional}...{end}: printed as its body; text read laxly may leave it out."""

    def __init__(self, body, pos):
        self.body, self.pos = body, pos


def spliced(parts):
    """parts with each {optional}'s body in its place (what a printer
    prints: an {optional} is there in print)."""
    if not any(isinstance(p, Optional) for p in parts or ()):
        return parts
    out = []
    for p in parts:
        out.extend(spliced(p.body) if isinstance(p, Optional) else [p])
    return out


MAX_FORMAT_WIDTH = 64
_PRINTF_RE = re.compile(r"[-+ 0#]*[0-9]*(\.[0-9]+)?[diuxXofFeEgGc]")
_BIN_RE = re.compile(r"0?[0-9]*b")
_FOR_RE = re.compile(r"for\s+([A-Za-z_][A-Za-z0-9_]*)\s+in\s+(.*)$", re.S)
_LIST_RE = re.compile(r'list\s+"((?:[^"\\]|\\.)*)"$', re.S)


def _unescape(s, pos):
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\":
            nxt = s[i + 1:i + 2]
            if nxt not in ("n", "t", "\\", '"'):
                raise TemplateError(pos, f"unknown escape '\\{nxt}' in a list separator")
            out.append({"n": "\n", "t": "\t", "\\": "\\", '"': '"'}[nxt])
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


def _split_format(body):
    """Split 'EXPR:FMT' at the first ':' that is not part of '::' or of a
    ?: conditional.  Returns (expr_text, fmt or None, fmt offset)."""
    depth, pending_q, i = 0, 0, 0
    while i < len(body):
        c = body[i]
        if body.startswith("::", i):
            i += 2
            continue
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "?" and depth == 0:
            pending_q += 1
        elif c == ":" and depth == 0:
            if pending_q:
                pending_q -= 1
            else:
                return body[:i], body[i + 1:], i + 1
        i += 1
    return body, None, 0


def _stray_tab(text):
    """Offset of a tab that is not part of a line's indentation, or None."""
    for m in re.finditer("\t", text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        if line_start == 0 or text[line_start:m.start()].strip(" \t"):
            return m.start()
    return None


MAX_NEST = 32  # {if}, {for}, {list} and {pad} inside one another


def parse(text, legacy_pad=False):
    """Parse a template into a list of parts; positions are offsets in text.
    legacy_pad: read {pad N}...{end}, which files of language 2 and older
    wrote where a choice now has a mnemonic-column."""
    tab = _stray_tab(text)
    if tab is not None:
        raise TemplateError(tab, "raw tab in a template (write \\t)")
    stack = [("root", [], None)]  # (kind, parts, data)
    pos = 0
    buf = []

    def flush():
        if buf:
            stack[-1][1].append(Text("".join(buf)))
            buf.clear()

    while pos < len(text):
        if len(stack) > MAX_NEST + 1:  # the walks over a template recurse on its blocks
            raise TemplateError(stack[-1][2]["pos"], f"blocks nested too deeply: isagen takes at most {MAX_NEST} levels")
        c = text[pos]
        if c == "\\":
            nxt = text[pos + 1:pos + 2]
            if nxt == "n":
                buf.append("\n")
            elif nxt == "t":
                buf.append("\t")
            elif nxt == "\\":
                buf.append("\\")
            else:
                raise TemplateError(pos, f"unknown escape '\\{nxt}' (use \\n, \\t or \\\\)")
            pos += 2
            continue
        if c == "}":
            if text[pos + 1:pos + 2] == "}":
                buf.append("}")
                pos += 2
                continue
            raise TemplateError(pos, "'}' without '{' (write '}}' for a literal brace)")
        if c == "\n":  # a line break of the XML and its indentation
            pos += 1
            while pos < len(text) and text[pos] in " \t":
                pos += 1
            continue
        if c != "{":
            buf.append(c)
            pos += 1
            continue
        if text[pos + 1:pos + 2] == "{":
            buf.append("{")
            pos += 2
            continue
        end = text.find("}", pos)
        if end < 0:
            raise TemplateError(pos, "'{' without a closing '}'")
        body = text[pos + 1:end]
        start = pos + 1
        flush()
        stripped = body.strip()
        lead = len(body) - len(body.lstrip())
        base = start  # where the expression being parsed starts in `text`
        try:
            if stripped.startswith("#"):
                pass  # a comment
            elif stripped.startswith("if ") or stripped.startswith("if("):
                base = start + lead + 2
                node = X.parse(stripped[2:])
                _shift(node, start + lead + 2)
                stack.append(("if", [], {"branches": [], "cond": node, "else": None, "pos": pos}))
            elif stripped.startswith("elif ") or stripped.startswith("elif("):
                top = stack[-1]
                if top[0] != "if" or top[2]["else"] is not None:
                    raise TemplateError(pos, "{elif} without a matching {if}")
                top[2]["branches"].append((top[2]["cond"], list(top[1])))
                top[1].clear()
                base = start + lead + 4
                node = X.parse(stripped[4:])
                _shift(node, start + lead + 4)
                top[2]["cond"] = node
            elif stripped == "else":
                top = stack[-1]
                if top[0] != "if" or top[2]["else"] is not None:
                    raise TemplateError(pos, "{else} without a matching {if}")
                top[2]["branches"].append((top[2]["cond"], list(top[1])))
                top[1].clear()
                top[2]["else"] = True
            elif stripped.startswith("list ") or stripped == "list":
                m = _LIST_RE.match(stripped)
                if not m:
                    raise TemplateError(pos, 'expected {list "SEPARATOR"}')
                stack.append(("list", [], {"sep": _unescape(m.group(1), pos), "items": [], "cond": None, "started": False,
                                           "pos": pos}))
            elif stripped.startswith("item ") or stripped.startswith("item(") or stripped == "item":
                top = stack[-1]
                if top[0] != "list":
                    raise TemplateError(pos, "{item} outside a {list}")
                if top[2]["started"]:
                    top[2]["items"].append((top[2]["cond"], list(top[1])))
                elif any(not (isinstance(p, Text) and not p.text) for p in top[1]):
                    raise TemplateError(pos, "text between {list} and its first {item}")
                top[1].clear()
                top[2]["started"] = True
                if stripped == "item":
                    top[2]["cond"] = None  # there when it prints something
                else:
                    base = start + lead + 4
                    node = X.parse(stripped[4:])
                    _shift(node, start + lead + 4)
                    top[2]["cond"] = node
            elif (stripped.startswith("pad ") or stripped.startswith("pad(")) and not legacy_pad:
                raise TemplateError(pos, "{pad} is not in the language since version 3: give the choice a "
                                         "mnemonic-column")
            elif stripped.startswith("pad ") or stripped.startswith("pad("):
                base = start + lead + 3
                node = X.parse(stripped[3:])
                _shift(node, start + lead + 3)
                stack.append(("pad", [], {"width": node, "pos": pos}))
            elif stripped == "optional":
                stack.append(("optional", [], {"pos": pos}))
            elif stripped == "end":
                if len(stack) == 1:
                    raise TemplateError(pos, "{end} without {if}, {for}, {list}, {optional} or {pad}")
                kind, parts, data = stack.pop()
                if kind == "optional":
                    stack[-1][1].append(Optional(parts, data["pos"]))
                    pos = end + 1
                    continue
                if kind == "pad":
                    stack[-1][1].append(Pad(data["width"], parts, data["pos"]))
                    pos = end + 1
                    continue
                if kind == "list":
                    if not data["started"]:
                        raise TemplateError(data["pos"], "{list} without {item}")
                    data["items"].append((data["cond"], parts))
                    stack[-1][1].append(List(data["sep"], data["items"], data["pos"]))
                    pos = end + 1
                    continue
                if kind == "if":
                    if data["else"] is None:
                        data["branches"].append((data["cond"], parts))
                        node = If(data["branches"], None)
                    else:
                        node = If(data["branches"], parts)
                else:
                    node = For(data["var"], data["lo"], data["hi"], parts, data["pos"])
                stack[-1][1].append(node)
            elif stripped.startswith("for ") or stripped == "for":
                m = _FOR_RE.match(stripped)
                if not m:
                    raise TemplateError(pos, "expected {for NAME in LO..HI}")
                rng = m.group(2)
                rng_off = start + lead + m.start(2)
                base = rng_off
                p = X.Parser(rng)
                lo = p.expr()
                p.expect("..")
                hi = p.expr()
                if p.peek().kind != "end":
                    raise X.ExprError(p.peek().pos, f"unexpected '{p.peek().text}' in {{for}}")
                _shift(lo, rng_off)
                _shift(hi, rng_off)
                stack.append(("for", [], {"var": m.group(1), "lo": lo, "hi": hi, "pos": pos}))
            else:
                etext, fmt, fmt_off = _split_format(body)
                if not etext.strip():
                    raise TemplateError(pos, "empty '{}' (write '{{' for a literal brace)")
                node = X.parse(etext)
                _shift(node, start)
                if fmt is not None:
                    fmt = fmt.strip()
                    if not (_PRINTF_RE.fullmatch(fmt) or _BIN_RE.fullmatch(fmt) or fmt == "r"
                            or re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", fmt)):
                        raise TemplateError(start + fmt_off, f"bad format '{fmt}'")
                    # the runtime's formatters write at most 64 columns or
                    # digits (isa_out_num_w, isa_out_bin): no wider text
                    numbers = fmt.lstrip("-+ 0#") if _PRINTF_RE.fullmatch(fmt) or _BIN_RE.fullmatch(fmt) else ""
                    for n in re.findall(r"\d+", numbers):
                        if int(n) > MAX_FORMAT_WIDTH:
                            raise TemplateError(start + fmt_off, f"format '{fmt}': widths and precisions go up "
                                                                 f"to {MAX_FORMAT_WIDTH}")
                stack[-1][1].append(Subst(node, fmt, start, start + fmt_off))
        except X.ExprError as e:
            raise TemplateError(base + e.pos, e.message) from None
        pos = end + 1
    flush()
    if len(stack) != 1:
        kind = stack[-1][0]
        raise TemplateError(stack[-1][2]["pos"], f"{{{kind}}} without {{end}}")
    return stack[0][1]


def _shift(node, offset):
    """Make expression positions relative to the whole template."""
    seen = set()

    def walk(n):
        if id(n) in seen:
            return
        seen.add(id(n))
        n.pos += offset
        for attr in ("arg", "a", "b", "c"):
            sub = getattr(n, attr, None)
            if isinstance(sub, X.Node):
                walk(sub)
        for sub in getattr(n, "args", []) or []:
            walk(sub)
        for s in getattr(n, "segments", []) or []:
            if isinstance(s, X.Node):
                walk(s)
    walk(node)


class Visitor:
    """A walk over a parsed template, with one hook per directive.

    Every back-end that reads templates -- the checker, the C printer, the
    C validator's walk, an assembler -- subclasses this and overrides the
    hooks it needs; the defaults visit the bodies and return nothing.
    `visit` returns the list of what the hooks return, one per part."""

    def visit(self, parts, *args):
        return [self.part(p, *args) for p in parts or ()]

    def part(self, p, *args):
        if isinstance(p, Text):
            return self.text(p, *args)
        if isinstance(p, Subst):
            return self.subst(p, *args)
        if isinstance(p, If):
            return self.if_(p, *args)
        if isinstance(p, For):
            return self.for_(p, *args)
        if isinstance(p, List):
            return self.list_(p, *args)
        if isinstance(p, Pad):
            return self.pad(p, *args)
        if isinstance(p, Optional):
            return self.optional(p, *args)
        raise TypeError(p)

    def text(self, p, *args):
        return None

    def subst(self, p, *args):
        return None

    def if_(self, p, *args):
        for _, body in p.branches:
            self.visit(body, *args)
        self.visit(p.otherwise, *args)

    def for_(self, p, *args):
        self.visit(p.body, *args)

    def list_(self, p, *args):
        for _, body in p.items:
            self.visit(body, *args)

    def pad(self, p, *args):
        self.visit(p.body, *args)

    def optional(self, p, *args):
        self.visit(p.body, *args)


class _Exprs(Visitor):
    def __init__(self):
        self.found = []

    def subst(self, p):
        self.found.append(p.node)

    def if_(self, p):
        for cond, body in p.branches:
            self.found.append(cond)
            self.visit(body)
        self.visit(p.otherwise)

    def for_(self, p):
        self.found += [p.lo, p.hi]
        self.visit(p.body)

    def list_(self, p):
        for cond, body in p.items:
            if cond is not None:
                self.found.append(cond)
            self.visit(body)

    def pad(self, p):
        self.found.append(p.width)
        self.visit(p.body)


def walk_exprs(parts):
    """Every expression node of a parsed template, in order."""
    v = _Exprs()
    v.visit(parts)
    return v.found


def _escape(text):
    return (text.replace("\\", "\\\\").replace("{", "{{").replace("}", "}}")
            .replace("\n", "\\n").replace("\t", "\\t"))


def text_of(parts):
    """Canonical one-line text of a parsed template: the same for every way
    of writing it (line breaks, indentation, comments, spacing inside
    expressions), so two templates compare by what they print."""
    out = []
    for p in parts or ():
        if isinstance(p, Text):
            out.append(_escape(p.text))
        elif isinstance(p, Subst):
            fmt = f":{p.fmt}" if p.fmt is not None else ""
            out.append(f"{{{X.text_of(p.node)}{fmt}}}")
        elif isinstance(p, If):
            for i, (cond, body) in enumerate(p.branches):
                out.append(f"{{{'if' if i == 0 else 'elif'} {X.text_of(cond)}}}{text_of(body)}")
            if p.otherwise is not None:
                out.append("{else}" + text_of(p.otherwise))
            out.append("{end}")
        elif isinstance(p, For):
            out.append(f"{{for {p.var} in {X.text_of(p.lo)}..{X.text_of(p.hi)}}}{text_of(p.body)}{{end}}")
        elif isinstance(p, List):
            sep = p.sep.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
            out.append(f'{{list "{sep}"}}')
            for cond, body in p.items:
                out.append(("{item}" if cond is None else f"{{item {X.text_of(cond)}}}") + text_of(body))
            out.append("{end}")
        elif isinstance(p, Pad):
            out.append(f"{{pad {X.text_of(p.width)}}}{text_of(p.body)}{{end}}")
        elif isinstance(p, Optional):
            out.append(f"{{optional}}{text_of(p.body)}{{end}}")
        else:
            raise TypeError(p)
    return "".join(out)


def pad_first_word(parts, width):
    """A mnemonic column: the text up to the first space outside any
    directive, padded with spaces to `width` characters.  Returns the new
    parts, or None when the template has no such space."""
    for i, p in enumerate(parts):
        if isinstance(p, Text) and " " in p.text:
            cut = p.text.index(" ")
            head = parts[:i] + ([Text(p.text[:cut])] if cut else [])
            return [Pad(X.Num(width, 0), head, 0), Text(p.text[cut:])] + parts[i + 1:]
    return None


def name_constant(parts, name):
    """{$name} in a struct's display: the struct's name, as text (how a
    format's display prints each member's mnemonic)."""
    out = []
    for p in parts:
        if isinstance(p, Subst) and isinstance(p.node, X.Var) and p.node.name == "name" and p.fmt is None \
                and p.node.index is None and p.node.prop is None:
            out.append(Text(name))
        elif isinstance(p, If):
            out.append(If([(c, name_constant(b, name)) for c, b in p.branches],
                          None if p.otherwise is None else name_constant(p.otherwise, name)))
        elif isinstance(p, For):
            out.append(For(p.var, p.lo, p.hi, name_constant(p.body, name), p.pos))
        elif isinstance(p, List):
            out.append(List(p.sep, [(c, name_constant(b, name)) for c, b in p.items], p.pos))
        elif isinstance(p, Optional):
            out.append(Optional(name_constant(p.body, name), p.pos))
        else:
            out.append(p)
    return out
