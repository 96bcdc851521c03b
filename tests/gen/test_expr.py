"""The expression language: precedence, C semantics without undefined
behaviour, error positions, and agreement between the Python evaluator
and the C the generator emits (compiled and run here)."""
import os
import random
import subprocess
import tempfile
import unittest

from gen.isagenlib import expr as X
from gen.isagenlib import refs as R
from gen.isagenlib.cgen import cexpr

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


def ev(text, env=None):
    node = X.parse(text)
    X.check(node, EnvScope(env or {}))
    return X.evaluate(node, env or {})


class EnvScope(X.Scope):
    """Names are int64 locals of a test program: bound like template loop
    variables (i_NAME in C)."""

    def __init__(self, env):
        self.env = env

    def resolve(self, node):
        name = node.text()
        if name not in self.env:
            raise X.ExprError(node.pos, f"unknown name '{name}'")
        return R.LoopValue(name)


def to_c(node):
    return cexpr.to_c(node, cexpr.Env(names=None))


class Semantics(unittest.TestCase):
    def test_precedence_follows_c(self):
        self.assertEqual(ev("1 + 2 * 3"), 7)
        self.assertEqual(ev("(1 + 2) * 3"), 9)
        self.assertEqual(ev("1 << 4 | 1"), 17)
        self.assertEqual(ev("6 & 3 == 3"), 0)  # == binds tighter than &
        self.assertEqual(ev("1 || 0 && 0"), 1)
        self.assertEqual(ev("0 ? 1 : 2 ? 3 : 4"), 3)
        self.assertEqual(ev("-2 * -3"), 6)
        self.assertEqual(ev("!0 + ~0"), 0)

    def test_no_undefined_behaviour(self):
        self.assertEqual(ev("7 / 0"), 0)
        self.assertEqual(ev("7 % 0"), 0)
        self.assertEqual(ev("-7 / 2"), -3)
        self.assertEqual(ev("-7 % 2"), -1)
        self.assertEqual(ev("0x7fffffffffffffff + 1"), -(1 << 63))
        self.assertEqual(ev("1 << 64"), 0)
        self.assertEqual(ev("-8 >> 70"), -1)

    def test_functions(self):
        self.assertEqual(ev("bit(0x10, 4)"), 1)
        self.assertEqual(ev("bits(0xabcd, 4, 8)"), 0xBC)
        self.assertEqual(ev("sext(0x1ff, 9)"), -1)
        self.assertEqual(ev("popcount(0xff)"), 8)
        self.assertEqual(ev("min(3, -4) + max(3, -4)"), -1)
        self.assertEqual(ev("abs(-5)"), 5)
        self.assertEqual(ev("half(0x3c00) * 2"), 2.0)
        self.assertEqual(ev("abs(half(0xbc00))"), 1.0)  # floating: fabs
        self.assertEqual(to_c(X.parse("abs(1)")), "isa_x_abs(INT64_C(1))")
        self.assertEqual(ev("a * 2", {"a": 21}), 42)

    def test_literals(self):
        self.assertEqual(ev("0x3_9001"), 0x39001)
        self.assertEqual(ev("0b1010"), 10)


class Errors(unittest.TestCase):
    def check_error(self, text, pos, message):
        with self.assertRaises(X.ExprError) as cm:
            node = X.parse(text)
            X.check(node, EnvScope({"a": 1}))
        self.assertEqual((cm.exception.pos, cm.exception.message), (pos, message))

    def test_positions_and_messages(self):
        self.check_error("1 +", 3, "expected a value, found end of expression")
        self.check_error("a b", 2, "unexpected 'b' after expression")
        self.check_error("(a", 2, "expected ')', found end of expression")
        self.check_error("a # 1", 2, "unexpected character '#'")
        self.check_error("zz + 1", 0, "unknown name 'zz'")
        self.check_error("foo(1)", 0, "unknown function 'foo'")
        self.check_error("bit(1)", 0, "bit() takes 2 arguments, not 1")
        self.check_error("half(a) & 1", 8, "'&' needs integer operands")
        self.check_error("$nope", 0, "unknown context variable '$nope'")
        self.check_error("Foo::BAR", 0, "unknown enum 'Foo'")


class AgreesWithC(unittest.TestCase):
    """Random expressions, evaluated in Python and by the emitted C."""

    OPS = ["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "==", "!=", "<", "<=", ">", ">=", "&&", "||"]
    FUNCS = [("bit", 2), ("bits", 3), ("popcount", 1), ("sext", 2), ("min", 2), ("max", 2), ("abs", 1)]

    def random_expr(self, rng, depth):
        if depth == 0 or rng.random() < 0.25:
            choice = rng.random()
            if choice < 0.3:
                return rng.choice(["a", "b", "c"])
            return str(rng.choice([0, 1, 2, 3, 7, 31, 32, 63, 64, 65, 255, 0x7fffffffffffffff,
                                   rng.randrange(0, 1 << 63), rng.randrange(0, 100)]))
        r = rng.random()
        if r < 0.6:
            return f"({self.random_expr(rng, depth - 1)} {rng.choice(self.OPS)} {self.random_expr(rng, depth - 1)})"
        if r < 0.75:
            return f"{rng.choice(['-', '!', '~'])}({self.random_expr(rng, depth - 1)})"
        if r < 0.85:
            return f"({self.random_expr(rng, depth - 1)} ? {self.random_expr(rng, depth - 1)} : {self.random_expr(rng, depth - 1)})"
        fn, n = rng.choice(self.FUNCS)
        return f"{fn}({', '.join(self.random_expr(rng, depth - 1) for _ in range(n))})"

    def test_random_expressions(self):
        rng = random.Random(2024)
        env = {"a": -5, "b": 1 << 40, "c": 77}
        exprs = []
        while len(exprs) < 400:
            text = self.random_expr(rng, 4)
            node = X.parse(text)
            X.check(node, EnvScope(env))
            exprs.append((text, to_c(node), X.evaluate(node, env)))
        core = os.path.abspath(os.path.join(ROOT, "runtime", "include"))
        prog = ["#include <stdio.h>", "#include \"isagen/core.h\"", "int main(void) {",
                "   int64_t i_a = -5, i_b = INT64_C(1) << 40, i_c = 77;"]
        for _, c, _ in exprs:
            prog.append(f"   printf(\"%lld\\n\", (long long)({c}));")
        prog += ["   (void)i_a; (void)i_b; (void)i_c;", "   return 0;", "}"]
        with tempfile.TemporaryDirectory() as d:
            src, exe = os.path.join(d, "e.c"), os.path.join(d, "e")
            with open(src, "w") as f:
                f.write("\n".join(prog) + "\n")
            cc = os.environ.get("CC", "gcc")
            subprocess.run([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-Wno-unused-value",
                            "-fsanitize=undefined", "-fno-sanitize-recover=all",
                            "-I", core, "-o", exe, src, "-lm"], check=True)
            out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout.split()
        for (text, _, want), got in zip(exprs, out):
            self.assertEqual(int(got), want, text)


if __name__ == "__main__":
    unittest.main()
