"""The expression language used in rules, presence conditions, lengths,
operand cases and display templates.

It is deliberately small and C-like, so a reader of the XML needs no manual
beyond docs/xml-reference.md, and it is checked here so that no unchecked
text reaches the C compiler (no C code lives in the XML):

    literals   12  0x1f  0b101  (underscores allowed: 0x3_9001)
    names      field paths relative to the element:  Count  ctrl.fields
               src[2].File  (a non-constant index reads 0 when out of range)
    enums      EnumName::VALUE
    context    $offset (byte offset of the unit in its program), $index
               (unit number), $size (unit size in bits), loop variables of
               templates
    operators  ?:  ||  &&  |  ^  &  == !=  < <= > >=  << >>  + -  * / %
               unary - ! ~   (C precedence; comparisons give 0 or 1)
    functions  bit(x, n)  bits(x, lo, width)  popcount(x)  sext(x, width)
               min(a, b)  max(a, b)  abs(x)  align(x, n)  half(x)
               named(field)  present(item)  count(item)

Integers are 64-bit two's complement with no undefined behaviour: x/0 and
x%0 are 0, shifts by 64 or more give 0, overflow wraps.  half(x) turns a
binary16 bit pattern into a floating value; floating values allow only
arithmetic and comparisons.
"""

import re
import struct

MASK64 = (1 << 64) - 1


class ExprError(Exception):
    """An error at offset `pos` of an expression.  `cascade` marks an error
    already reported where it starts (a broken <let> seen from a use of it),
    so that users of the let stay quiet."""
    def __init__(self, pos, message, cascade=False, cycle=None, head=None):
        super().__init__(message)
        self.pos = pos
        self.message = message
        self.cascade = cascade
        self.cycle = cycle  # the names of a <let> cycle, reported once
        self.head = head    # the <let> where that cycle is reported


# ---------------------------------------------------------------- lexer

_TOKEN_RE = re.compile(r"""
    (?P<ws>\s+)
  | (?P<num>0x[0-9a-fA-F][0-9a-fA-F_]*|0b[01][01_]*|[0-9][0-9_]*)
  | (?P<var>\$[A-Za-z_][A-Za-z0-9_]*)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>::|\|\||&&|==|!=|<=|>=|<<|>>|\.\.|[-+*/%<>&|^~!?:().,\[\]])
""", re.VERBOSE)


class Token:
    __slots__ = ("kind", "text", "pos")

    def __init__(self, kind, text, pos):
        self.kind, self.text, self.pos = kind, text, pos

    def __repr__(self):
        return f"Token({self.kind},{self.text!r},{self.pos})"


def parse_int(text):
    t = text.replace("_", "")
    neg = t.startswith("-")
    if neg:
        t = t[1:]
    if t.startswith(("0x", "0X")):
        v = int(t[2:], 16)
    elif t.startswith(("0b", "0B")):
        v = int(t[2:], 2)
    else:
        v = int(t, 10)
    return -v if neg else v


def tokenize(text):
    pos, out = 0, []
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        if not m:
            raise ExprError(pos, f"unexpected character '{text[pos]}'")
        kind = m.lastgroup
        if kind != "ws":
            out.append(Token(kind, m.group(), pos))
        pos = m.end()
    out.append(Token("end", "", len(text)))
    return out


# ---------------------------------------------------------------- AST

class Node:
    pos = 0
    type = "int"  # "int" or "float", set by check()
    depth = 1     # levels of the tree below and including this node


class Num(Node):
    def __init__(self, value, pos):
        self.value, self.pos = value, pos


class Path(Node):
    """a.b[i].c -- segments are str (member) or Node (index)."""

    def __init__(self, segments, pos):
        self.segments, self.pos = segments, pos
        self.ref = None  # set by check(): what the scope resolved it to

    def text(self):
        out = ""
        for s in self.segments:
            if isinstance(s, str):
                out += ("." if out else "") + s
            else:
                out += f"[{s.value}]" if isinstance(s, Num) else "[...]"
        return out


class EnumConst(Node):
    def __init__(self, enum, name, pos):
        self.enum, self.name, self.pos = enum, name, pos
        self.value = None


class Var(Node):
    """$name, $name[index] for an element of an array <state>, or
    $name.prop for a property of an enum-typed <option>."""
    def __init__(self, name, pos, index=None, prop=None):
        self.name, self.pos, self.index, self.prop = name, pos, index, prop
        self.ref = None


class Unary(Node):
    def __init__(self, op, arg, pos):
        self.op, self.arg, self.pos = op, arg, pos


class Binary(Node):
    def __init__(self, op, a, b, pos):
        self.op, self.a, self.b, self.pos = op, a, b, pos


class Cond(Node):
    def __init__(self, c, a, b, pos):
        self.c, self.a, self.b, self.pos = c, a, b, pos


class Call(Node):
    def __init__(self, fn, args, pos):
        self.fn, self.args, self.pos = fn, args, pos
        self.ref = None


# ---------------------------------------------------------------- parser

_BINARY_LEVELS = [
    ["||"], ["&&"], ["|"], ["^"], ["&"], ["==", "!="], ["<", "<=", ">", ">="],
    ["<<", ">>"], ["+", "-"], ["*", "/", "%"],
]


_LEVEL = {op: level for level, ops in enumerate(_BINARY_LEVELS) for op in ops}


# The walks over an expression (checks, evaluation, C) recurse on its
# tree, so its size and depth are bounded: the longest expression of the
# shipped specs has 144 tokens, the deepest a depth of 13.
MAX_TOKENS = 1000
MAX_DEPTH = 64


class Parser:
    def __init__(self, text):
        self.text = text
        self.toks = tokenize(text)
        self.i = 0
        self.nest = 0  # expr() and unary() calls open now: the parser's own recursion
        if len(self.toks) > MAX_TOKENS + 1:  # and the end token
            raise ExprError(self.toks[MAX_TOKENS].pos,
                            f"expression too long: {len(self.toks) - 1} tokens, isagen takes at most {MAX_TOKENS}")

    @staticmethod
    def made(node, *kids):
        """node, with its depth from its children's; too deep an error."""
        node.depth = 1 + max((k.depth for k in kids if isinstance(k, Node)), default=0)
        if node.depth > MAX_DEPTH:
            raise ExprError(node.pos, f"expression nested too deeply: isagen takes at most {MAX_DEPTH} levels")
        return node

    def peek(self, k=0):
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def take(self):
        t = self.toks[self.i]
        self.i += 1
        return t

    def expect(self, text):
        t = self.peek()
        if t.text != text:
            got = "end of expression" if t.kind == "end" else f"'{t.text}'"
            raise ExprError(t.pos, f"expected '{text}', found {got}")
        return self.take()

    def parse(self):
        node = self.expr()
        t = self.peek()
        if t.kind != "end":
            raise ExprError(t.pos, f"unexpected '{t.text}' after expression")
        return node

    def enter(self):
        self.nest += 1
        if self.nest > MAX_DEPTH:
            raise ExprError(self.peek().pos, f"expression nested too deeply: isagen takes at most {MAX_DEPTH} levels")

    def expr(self):
        self.enter()
        node = self.conditional()
        self.nest -= 1
        return node

    def conditional(self):
        c = self.binary()
        if self.peek().text == "?":
            q = self.take()
            a = self.expr()
            self.expect(":")
            b = self.expr()
            return self.made(Cond(c, a, b, q.pos), c, a, b)
        return c

    def binary(self, min_level=0):
        """Precedence climbing over _BINARY_LEVELS (left-associative)."""
        node = self.unary()
        while True:
            t = self.peek()
            level = _LEVEL.get(t.text) if t.kind == "op" else None
            if level is None or level < min_level:
                return node
            self.take()
            b = self.binary(level + 1)
            node = self.made(Binary(t.text, node, b, t.pos), node, b)

    def unary(self):
        t = self.peek()
        if t.kind == "op" and t.text in ("-", "!", "~"):
            self.take()
            self.enter()
            arg = self.unary()
            self.nest -= 1
            return self.made(Unary(t.text, arg, t.pos), arg)
        return self.postfix()

    def path_segments(self, segs):
        """The rest of a path after its first name: `.name` and `[expr]`
        segments, appended to segs."""
        while True:
            if self.peek().text == "." and self.peek(1).kind == "ident":
                self.take()
                segs.append(self.take().text)
            elif self.peek().text == "[":
                self.take()
                segs.append(self.expr())
                self.expect("]")
            else:
                return segs

    def postfix(self):
        t = self.peek()
        if t.kind == "num":
            self.take()
            v = parse_int(t.text)
            if v > MASK64:
                raise ExprError(t.pos, f"number {t.text} does not fit in 64 bits")
            return Num(v, t.pos)
        if t.kind == "var":
            self.take()
            if t.text in ("$prev", "$next"):
                # $prev.field, $next.field: the neighbouring units of the program
                segs = self.path_segments([t.text])
                if len(segs) == 1:
                    raise ExprError(t.pos, f"{t.text} needs a field: {t.text}.NAME")
                return Path(segs, t.pos)
            if t.text == "$at":
                # $at[offset].field: the unit of the program at that byte offset
                if self.peek().text != "[":
                    raise ExprError(t.pos, "$at needs a byte offset and a field: $at[OFFSET].NAME")
                segs = self.path_segments([t.text])
                if len(segs) < 3 or not isinstance(segs[2], str):
                    raise ExprError(t.pos, "$at[OFFSET] is a unit; name one of its fields: $at[OFFSET].NAME")
                return Path(segs, t.pos)
            if self.peek().text == "[":
                self.take()
                index = self.expr()
                self.expect("]")
                return Var(t.text[1:], t.pos, index)
            if self.peek().text == "." and self.peek(1).kind == "ident":
                # $option.property: a property of an enum-typed option's value
                self.take()
                return Var(t.text[1:], t.pos, prop=self.take().text)
            return Var(t.text[1:], t.pos)
        if t.text == "(":
            self.take()
            node = self.expr()
            self.expect(")")
            return node
        if t.kind == "ident":
            self.take()
            if self.peek().text == "::":
                self.take()
                v = self.peek()
                if v.kind != "ident":
                    raise ExprError(v.pos, "expected an enum value name after '::'")
                self.take()
                return EnumConst(t.text, v.text, t.pos)
            if self.peek().text == "(":
                self.take()
                args = []
                if self.peek().text != ")":
                    args.append(self.expr())
                    while self.peek().text == ",":
                        self.take()
                        args.append(self.expr())
                self.expect(")")
                return self.made(Call(t.text, args, t.pos), *args)
            return Path(self.path_segments([t.text]), t.pos)
        got = "end of expression" if t.kind == "end" else f"'{t.text}'"
        raise ExprError(t.pos, f"expected a value, found {got}")


def parse(text):
    return Parser(text).parse()


def parse_list(text):
    """Comma-separated expressions (operand arguments)."""
    p = Parser(text)
    out = [p.expr()]
    while p.peek().text == ",":
        p.take()
        out.append(p.expr())
    t = p.peek()
    if t.kind != "end":
        raise ExprError(t.pos, f"unexpected '{t.text}' in argument list")
    return out


# ---------------------------------------------------------------- checking

# name -> (arity, result type); named/present/count are resolved by the scope
FUNCTIONS = {
    "bit": (2, "int"),
    "bits": (3, "int"),
    "popcount": (1, "int"),
    "sext": (2, "int"),
    "min": (2, "int"),
    "max": (2, "int"),
    "abs": (1, "int"),
    "bitmask": (2, "int"),
    "half": (1, "float"),
    "f32": (1, "float"),
    "f64": (1, "float"),
    "named": (1, "int"),
    "present": (1, "int"),
    "count": (1, "int"),
}


class Scope:
    """What names mean where an expression appears (resolve.py supplies the
    real ones).  Each method returns a binding from refs.py or raises
    ExprError."""

    def resolve(self, path_node):
        raise ExprError(path_node.pos, f"unknown name '{path_node.text()}'")

    def resolve_var(self, var_node):
        raise ExprError(var_node.pos, f"unknown context variable '${var_node.name}'")

    def resolve_enum(self, node):
        raise ExprError(node.pos, f"unknown enum '{node.enum}'")

    def resolve_item(self, call_node, which):
        raise ExprError(call_node.pos, f"{which}() needs the name of a sequence item")

    def resolve_call(self, node):
        return None


def check(node, scope, allow_agg=False):
    """Bind every name of `node` (node.ref) and compute its type; raises
    ExprError.  With allow_agg the whole expression may be a struct or an
    operand (to print it).  Every expression is checked once, in the scope
    it is written in; its bindings are then what every back-end reads."""
    from . import refs as R
    if isinstance(node, Num):
        node.type = "int"
    elif isinstance(node, Path):
        for s in node.segments:
            if isinstance(s, Node):
                check(s, scope)
                if s.type != "int":
                    raise ExprError(s.pos, "an index must be an integer")
        node.ref = scope.resolve(node)
        node.type = node.ref.type
        if node.type == "agg" and not allow_agg:
            what = "an operand" if isinstance(node.ref, R.UseValue) else "a struct or item"
            raise ExprError(node.pos, f"'{node.text()}' is {what}: it can be printed, not computed with")
    elif isinstance(node, Var):
        if node.index is not None:
            check(node.index, scope)
            if node.index.type != "int":
                raise ExprError(node.index.pos, "an index must be an integer")
        node.ref = scope.resolve_var(node)
        node.type = node.ref.type
    elif isinstance(node, EnumConst):
        node.value = scope.resolve_enum(node)
        node.type = "int"
    elif isinstance(node, Unary):
        check(node.arg, scope)
        if node.arg.type == "float" and node.op != "-":
            raise ExprError(node.pos, f"'{node.op}' needs an integer operand")
        node.type = node.arg.type if node.op == "-" else "int"
    elif isinstance(node, Binary):
        check(node.a, scope)
        check(node.b, scope)
        floaty = "float" in (node.a.type, node.b.type)
        if floaty and node.op not in ("+", "-", "*", "/", "==", "!=", "<", "<=", ">", ">=", "&&", "||"):
            raise ExprError(node.pos, f"'{node.op}' needs integer operands")
        if node.op in ("+", "-", "*", "/"):
            node.type = "float" if floaty else "int"
        else:
            node.type = "int"
    elif isinstance(node, Cond):
        check(node.c, scope)
        check(node.a, scope)
        check(node.b, scope)
        node.type = "float" if "float" in (node.a.type, node.b.type) else "int"
    elif isinstance(node, Call):
        if node.fn not in FUNCTIONS:
            # an operand printed with arguments: {VecSrc(a, b)} in templates
            node.ref = scope.resolve_call(node)
            if node.ref is None:
                raise ExprError(node.pos, f"unknown function '{node.fn}'")
            if not allow_agg:
                raise ExprError(node.pos, f"operand '{node.fn}' can be printed, not computed with")
            op = node.ref.operand
            for pname, a in zip(op.params, node.args):
                want = op.param_types.get(pname)
                if want is None:
                    check(a, scope)
                    if a.type != "int":
                        raise ExprError(a.pos, f"arguments of operand '{node.fn}' must be integers")
                    continue
                check(a, scope, allow_agg=True)
                ref = a.ref if isinstance(a, Path) else None
                if not isinstance(ref, R.AggValue) or ref.target.name != want or ref.access.guarded:
                    from .model import Struct
                    if not isinstance(scope.spec.type_named(want), Struct):
                        raise ExprError(a.pos, f"parameter '{pname}' has no struct type", cascade=True)
                    raise ExprError(a.pos, f"parameter '{pname}' of operand '{node.fn}' takes a {want}")
            node.type = "agg"
            return node
        arity, rtype = FUNCTIONS[node.fn]
        if len(node.args) != arity:
            raise ExprError(node.pos, f"{node.fn}() takes {arity} argument{'s' if arity != 1 else ''}, not {len(node.args)}")
        if node.fn in ("present", "count"):
            arg = node.args[0]
            if not (isinstance(arg, Path) and len(arg.segments) == 1):
                raise ExprError(arg.pos, f"{node.fn}() needs the name of a sequence item")
            node.ref = scope.resolve_item(node, node.fn)
        elif node.fn == "named":
            arg = node.args[0]
            if not isinstance(arg, Path):
                raise ExprError(arg.pos, "named() needs an enum-typed field")
            check(arg, scope)
            field = R.field_of(arg.ref)
            if field is None or field.enum is None:
                raise ExprError(arg.pos, f"named() needs an enum-typed field; '{arg.text()}' is not one")
        elif node.fn == "abs":
            # |x| of an integer, or of a floating value (fabs: a NaN loses its sign, as in C)
            check(node.args[0], scope)
            rtype = node.args[0].type
        else:
            for a in node.args:
                check(a, scope)
                if a.type != "int":
                    raise ExprError(a.pos, f"{node.fn}() needs integer arguments")
        node.type = rtype
    return node


def walk(node):
    """Every node of an expression, parents before children."""
    yield node
    if isinstance(node, Path):
        for s in node.segments:
            if isinstance(s, Node):
                yield from walk(s)
    elif isinstance(node, Var):
        if node.index is not None:
            yield from walk(node.index)
    elif isinstance(node, Unary):
        yield from walk(node.arg)
    elif isinstance(node, Binary):
        yield from walk(node.a)
        yield from walk(node.b)
    elif isinstance(node, Cond):
        yield from walk(node.c)
        yield from walk(node.a)
        yield from walk(node.b)
    elif isinstance(node, Call):
        for a in node.args:
            yield from walk(a)


def text_of(node):
    """Canonical source text of an expression (fully parenthesised where
    precedence matters): the same for `a+b` and `a + b`."""
    if isinstance(node, Num):
        return str(node.value)
    if isinstance(node, Path):
        out = ""
        for s in node.segments:
            out += (("." if out else "") + s) if isinstance(s, str) else f"[{text_of(s)}]"
        return out
    if isinstance(node, Var):
        out = "$" + node.name
        if node.index is not None:
            out += f"[{text_of(node.index)}]"
        if node.prop is not None:
            out += "." + node.prop
        return out
    if isinstance(node, EnumConst):
        return f"{node.enum}::{node.name}"
    if isinstance(node, Unary):
        return f"{node.op}{text_of(node.arg)}"
    if isinstance(node, Binary):
        return f"({text_of(node.a)} {node.op} {text_of(node.b)})"
    if isinstance(node, Cond):
        return f"({text_of(node.c)} ? {text_of(node.a)} : {text_of(node.b)})"
    if isinstance(node, Call):
        return f"{node.fn}({', '.join(text_of(a) for a in node.args)})"
    raise TypeError(node)


# ---------------------------------------------------------------- Python evaluation

class NotConstant(Exception):
    pass


def _wrap(v):
    v &= MASK64
    return v - (1 << 64) if v >> 63 else v


def _c_div(a, b):
    if b == 0:
        return 0
    q = abs(a) // abs(b)
    return _wrap(q if (a < 0) == (b < 0) else -q)


def _c_mod(a, b):
    if b == 0 or b == -1:
        return 0
    return _wrap(a - _c_div(a, b) * b)


def evaluate(node, env=None):
    """Evaluate with C semantics.  env maps path text / $var / item
    functions to values; a missing name raises NotConstant."""
    env = env or {}
    if isinstance(node, Num):
        return _wrap(node.value)
    if isinstance(node, Path):
        key = node.text()
        if key not in env:
            raise NotConstant(key)
        return env[key]
    if isinstance(node, Var):
        key = "$" + node.name
        if key not in env:
            raise NotConstant(key)
        return env[key]
    if isinstance(node, EnumConst):
        if node.value is None:
            raise NotConstant(node.enum)
        return node.value
    if isinstance(node, Unary):
        a = evaluate(node.arg, env)
        if node.op == "-":
            return -a if isinstance(a, float) else _wrap(-a)
        if node.op == "!":
            return int(not a)
        return _wrap(~a)
    if isinstance(node, Binary):
        a = evaluate(node.a, env)
        if node.op == "&&":
            return int(bool(a) and bool(evaluate(node.b, env)))
        if node.op == "||":
            return int(bool(a) or bool(evaluate(node.b, env)))
        b = evaluate(node.b, env)
        op = node.op
        if isinstance(a, float) or isinstance(b, float):
            a, b = float(a), float(b)
            if op in ("==", "!=", "<", "<=", ">", ">="):
                return int({"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op])
            if op == "/":
                return a / b if b else (float("nan") if a == 0 else float("inf") * (1 if a > 0 else -1))
            return {"+": a + b, "-": a - b, "*": a * b}[op]
        if op == "+":
            return _wrap(a + b)
        if op == "-":
            return _wrap(a - b)
        if op == "*":
            return _wrap(a * b)
        if op == "/":
            return _c_div(a, b)
        if op == "%":
            return _c_mod(a, b)
        if op == "<<":
            return 0 if b < 0 or b > 63 else _wrap(a << b)
        if op == ">>":
            if b < 0 or b > 63:
                return -1 if a < 0 else 0
            return a >> b
        if op == "&":
            return _wrap(a & b)
        if op == "|":
            return _wrap(a | b)
        if op == "^":
            return _wrap(a ^ b)
        return int({"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op])
    if isinstance(node, Cond):
        return evaluate(node.a, env) if evaluate(node.c, env) else evaluate(node.b, env)
    if isinstance(node, Call):
        fn = node.fn
        if fn in ("present", "count", "named"):
            key = f"{fn}({node.args[0].text()})"
            if key not in env:
                raise NotConstant(key)
            return env[key]
        args = [evaluate(a, env) for a in node.args]
        if fn == "bit":
            return 0 if args[1] < 0 or args[1] > 63 else (args[0] >> args[1]) & 1
        if fn == "bits":
            x, lo, w = args
            if lo < 0 or lo > 63 or w <= 0:
                return 0
            return _wrap(((x & MASK64) >> lo) & ((1 << min(w, 64)) - 1))
        if fn == "popcount":
            return bin(args[0] & MASK64).count("1")
        if fn == "sext":
            x, w = args
            if w <= 0 or w >= 64:
                return x
            x &= (1 << w) - 1
            return x - (1 << w) if x >> (w - 1) else x
        if fn == "min":
            return min(args)
        if fn == "max":
            return max(args)
        if fn == "abs":
            return abs(args[0]) if isinstance(args[0], float) else _wrap(abs(args[0]))
        if fn == "bitmask":
            lo, hi = max(args[0], 0), min(args[1], 63)
            return 0 if lo > hi else _wrap(((1 << (hi + 1)) - 1) & ~((1 << lo) - 1))
        if fn == "half":
            return half_to_float(args[0])
        if fn == "f32":
            return struct.unpack("<f", struct.pack("<I", args[0] & 0xFFFFFFFF))[0]
        if fn == "f64":
            return struct.unpack("<d", struct.pack("<Q", args[0] & 0xFFFFFFFFFFFFFFFF))[0]
    raise TypeError(node)


def half_to_float(h):
    h &= 0xFFFF
    sign = -1.0 if h & 0x8000 else 1.0
    e = (h >> 10) & 0x1F
    f = h & 0x3FF
    if e == 0:
        return sign * f * 2.0 ** -24
    if e == 31:
        return sign * (float("nan") if f else float("inf"))
    return sign * (f | 0x400) * 2.0 ** (e - 25)
