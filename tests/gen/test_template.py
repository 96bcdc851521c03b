"""Display templates: text, escapes, directives, format splitting, errors."""
import unittest

from gen.isagenlib import template as T
from gen.isagenlib import expr as X


def kinds(parts):
    return [type(p).__name__ for p in parts]


class Parsing(unittest.TestCase):
    def test_text_and_escapes(self):
        parts = T.parse("a\\tb\\n{{x}}\\\\")
        self.assertEqual(kinds(parts), ["Text"])
        self.assertEqual(parts[0].text, "a\tb\n{x}\\")

    def test_substitution_and_formats(self):
        parts = T.parse("mov {dest}{mask:04b} {idx:6d} {op:Opcode} {a ? b : c} {E::V:x}")
        subs = [p for p in parts if isinstance(p, T.Subst)]
        self.assertEqual([s.fmt for s in subs], [None, "04b", "6d", "Opcode", None, "x"])
        self.assertIsInstance(subs[4].node, X.Cond)
        self.assertIsInstance(subs[5].node, X.EnumConst)

    def test_a_conditional_in_parentheses_keeps_its_format(self):
        parts = T.parse("{(a ? b : c):Comp} {(x + (y ? 1 : 2)):02X} {a ? (b ? 1 : 2) : 3}")
        subs = [p for p in parts if isinstance(p, T.Subst)]
        self.assertEqual([s.fmt for s in subs], ["Comp", "02X", None])
        self.assertIsInstance(subs[2].node, X.Cond)

    def test_conditionals_and_loops(self):
        parts = T.parse("{if a}A{elif b}B{else}C{end}{for i in 0..n}[{i}]{end}")
        self.assertEqual(kinds(parts), ["If", "For"])
        self.assertEqual(len(parts[0].branches), 2)
        self.assertEqual(parts[0].otherwise[0].text, "C")
        self.assertEqual(parts[1].var, "i")

    def test_optional_parts(self):
        # printed as the body; text_of keeps the block; spliced is what prints
        parts = T.parse("IMM{optional}[{$imm:d}]{end} {t}")
        self.assertEqual(kinds(parts), ["Text", "Optional", "Text", "Subst"])
        self.assertEqual(kinds(parts[1].body), ["Text", "Subst", "Text"])
        self.assertEqual(T.text_of(parts), "IMM{optional}[{$imm:d}]{end} {t}")
        self.assertEqual(kinds(T.spliced(parts)), ["Text", "Text", "Subst", "Text", "Text", "Subst"])
        with self.assertRaises(T.TemplateError):
            T.parse("{optional}x")

    def test_lists(self):
        parts = T.parse('{list ", "}{item a}A{item b}B{end}{list "\\"x"}{item 1}C{end}')
        self.assertEqual(kinds(parts), ["List", "List"])
        self.assertEqual(parts[0].sep, ", ")
        self.assertEqual([b[0].text for _, b in parts[0].items], ["A", "B"])
        self.assertEqual(parts[1].sep, '"x')

    def test_items_that_print_nothing_and_padding(self):
        parts = T.parse('{pad 16}{op}{if sat}.sat{end}{end} {list ", "}{item}{a}{item b}{b}{end}{x:r}', legacy_pad=True)
        self.assertEqual(kinds(parts), ["Pad", "Text", "List", "Subst"])
        self.assertIsInstance(parts[0].width, X.Num)
        self.assertEqual(kinds(parts[0].body), ["Subst", "If"])
        self.assertIsNone(parts[2].items[0][0], "an {item} without a condition")
        self.assertIsNotNone(parts[2].items[1][0])
        self.assertEqual(parts[3].fmt, "r")

    def test_lines_and_their_indentation_are_dropped(self):
        parts = T.parse("\n    {if a}\n      x {b}\n\t\t{# a comment}\n    {end}y\n  ")
        self.assertEqual(kinds(parts), ["If", "Text"])
        body = parts[0].branches[0][1]
        self.assertEqual([p.text for p in body if isinstance(p, T.Text)], ["x "])
        self.assertEqual(body[1].node.pos, 21, "positions stay offsets into the raw text")
        self.assertEqual(parts[1].text, "y")

    def test_positions_point_into_the_template(self):
        parts = T.parse("xx {foo + 1}")
        self.assertEqual(parts[1].node.a.pos, 4)  # foo
        self.assertEqual(parts[1].node.pos, 8)  # the operator

    def test_errors(self):
        cases = [
            ("{if a}x", 0, "{if} without {end}"),
            ("x}", 1, "'}' without '{' (write '}}' for a literal brace)"),
            ("{a", 0, "'{' without a closing '}'"),
            ("a\tb", 1, "raw tab in a template (write \\t)"),
            ("a\n\tb\tc", 4, "raw tab in a template (write \\t)"),
            ("\\q", 0, "unknown escape '\\q' (use \\n, \\t or \\\\)"),
            ("{else}", 0, "{else} without a matching {if}"),
            ("{end}", 0, "{end} without {if}, {for}, {list}, {optional} or {pad}"),
            ('{list ","}x{item a}y{end}', 11, "text between {list} and its first {item}"),
            ("{item a}", 0, "{item} outside a {list}"),
            ('{list "sep"}{end}', 0, "{list} without {item}"),
            ("{}", 0, "empty '{}' (write '{{' for a literal brace)"),
            ("{a:%d}", 3, "bad format '%d'"),
            ("ab {1 +}", 7, "expected a value, found end of expression"),
            ("{for i 0..3}{end}", 0, "expected {for NAME in LO..HI}"),
            ("{pad 16}x{end}", 0, "{pad} is not in the language since version 3: give the choice a mnemonic-column"),
        ]
        for text, pos, msg in cases:
            with self.subTest(text=text):
                with self.assertRaises(T.TemplateError) as cm:
                    T.parse(text)
                self.assertEqual((cm.exception.pos, cm.exception.message), (pos, msg))

    def test_pad_in_files_of_language_2(self):
        for text, pos, msg in [("{pad 16}stop", 0, "{pad} without {end}"),
                               ("{pad +}x{end}", 5, "expected a value, found '+'")]:
            with self.subTest(text=text):
                with self.assertRaises(T.TemplateError) as cm:
                    T.parse(text, legacy_pad=True)
                self.assertEqual((cm.exception.pos, cm.exception.message), (pos, msg))

    def test_mnemonic_column_pads_the_first_word(self):
        parts = T.pad_first_word(T.parse("fadd{if S}.sat{end} {a}, {b}"), 16)
        self.assertEqual(T.text_of(parts), "{pad 16}fadd{if S}.sat{end}{end} {a}, {b}")
        self.assertIsNone(T.pad_first_word(T.parse("stop"), 16))


if __name__ == "__main__":
    unittest.main()
