"""The loader reads a file once, with expat, into an lxml tree: that tree is
the one lxml's own parser builds (elements, attribute order, text, tails,
comments), for every spec and must-fail file that is well-formed."""
import glob
import os
import sys
import unittest

from lxml import etree

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "gen"))
from isagenlib import xmlload  # noqa: E402

FILES = sorted(glob.glob(os.path.join(ROOT, "xml", "*.xml")) + glob.glob(os.path.join(ROOT, "tests", "specs", "*.xml"))
               + glob.glob(os.path.join(ROOT, "tests", "xml-errors", "*.xml")))


def shape(el):
    """Everything of an element the generator reads, recursively."""
    if not isinstance(el.tag, str):
        return (type(el).__name__, el.text, el.tail)
    return (el.tag, list(el.attrib.items()), el.text, el.tail, [shape(c) for c in el])


class OneParse(unittest.TestCase):
    def test_the_tree_is_lxmls(self):
        compared = 0
        for path in FILES:
            with open(path, "rb") as f:
                data = f.read()
            try:
                want = etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True,
                                                              remove_comments=False))
            except etree.XMLSyntaxError:
                continue
            try:
                root, positions = xmlload._parse(data)
            except xmlload._Doctype:
                self.assertIn(b"<!DOCTYPE", data)
                continue
            with self.subTest(file=os.path.relpath(path, ROOT)):
                self.assertEqual(shape(root), shape(want))
                self.assertEqual(len(positions), sum(1 for e in root.iter() if isinstance(e.tag, str)))
                # an element's line is where its start tag starts (libxml2 gives where it ends)
                for el, (line, _) in positions.items():
                    self.assertEqual(el.sourceline, line)
            compared += 1
        self.assertGreater(compared, 70)


if __name__ == "__main__":
    unittest.main()
