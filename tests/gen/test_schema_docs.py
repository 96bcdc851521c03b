"""The schema, the reference and the builder agree: every element and
attribute xml/isagen.rng allows is documented in docs/xml-reference.md and
read by the front end when a spec uses it."""
import glob
import os
import re
import tempfile
import unittest

from lxml import etree

from gen.isagenlib import cli, xmlload

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
REFERENCE = os.path.join(ROOT, "docs", "xml-reference.md")


def schema():
    """{element: {attribute names}} the schema allows (open attribute sets left out)."""
    explainer = xmlload.SchemaExplainer(etree.parse(xmlload.DEFAULT_SCHEMA))
    return {name: {a for a in info["attrs"] if a != "*"} for name, info in explainer.elements.items()}


READS = set()
COMMON = ("src", "versions")  # the attributes every element may carry (a.src in the schema)


class Watched(etree.ElementBase):
    """An element that remembers which of its attributes were read."""

    def get(self, key, default=None):
        READS.add((self.tag, key))
        return super().get(key, default)

    @property
    def attrib(self):
        for key in super().attrib:
            READS.add((self.tag, key))
        return super().attrib


# Attributes no shipped or toy spec uses: a spec that uses them.
EXTRAS = """<?xml version="1.0"?>
<isa name="extras" language="3" title="t">
  <source id="s1" url="https://example.org">a source</source>
  <versions><version name="a"/><version name="b" default="true"/></versions>
  <container name="c" magic="ABCD" layout="iff-le32"><chunk id="WXYZ" skip="4"/></container>
  <enum name="E" width="2"><property name="p" default="1" unnamed="2"/><value name="X" value="0" p="3"/></enum>
  <stream unit="Seq" count="1" skip-zero="8" skip-unit="8" resync="8" failed="?" pad-end="false" separator=" " prefix="{$offset}:">
    <option name="o" type="E" default="X"/>
    <state name="n" init="1" next="$n + 1"/>
  </stream>
  <struct name="S" bits="16" min-length="8" length="8 + 8 * f" overlay="false">
    <field name="f" bits="0" type="uint" default="0" expect="0" expect-severity="warning" format="hex"/>
    <field name="g" bits="1..4" type="fixed" frac="2"/>
    <field name="h" bits="5" type="bool"/>
    <mbz bits="6" severity="warning"/>
    <mbo bits="7"/>
    <field name="k" bits="8..9" type="uint" count="2"/>
    <reserved bits="12..15"/>
    <rule name="r" check="1" when="1" severity="info" field="f" message="m"/>
  </struct>
  <struct name="T" bits="8" min-length="8">
    <field name="a" bits="0..6" type="uint"/>
    <fixed bits="7" value="1" shared="false"/>
    <variant name="v1" priority="1" path="named"><when><match bits="0..3" value="0b00x1"/></when></variant>
    <variant name="v2" fallback="true"/>
  </struct>
  <sequence name="Seq" align="8" size="(8 + 8) * 1">
    <item name="s" type="S"/>
    <item name="t" type="T" count="0" max="1" padding="true"/>
    <derive field="s.f" value="0"/>
  </sequence>
  <choice name="C"><alt type="T" priority="1"/><alt type="S" shadowed="true"><when><match bits="7" value="1"/></when></alt></choice>
  <format name="G" bits="8"><field name="z" bits="0..7" type="uint"/></format>
  <format name="F" extends="G" src="s1"/>
  <struct name="U" extends="F"/>
  <choice name="D" ordered="true" mnemonic-column="4"><alt type="U"/></choice>
</isa>
"""


class SchemaDocsBuilder(unittest.TestCase):
    maxDiff = None
    @classmethod
    def setUpClass(cls):
        READS.clear()
        files = glob.glob(os.path.join(ROOT, "xml", "*.xml")) + glob.glob(os.path.join(ROOT, "tests", "specs", "*.xml"))
        with tempfile.TemporaryDirectory() as d:
            extras = os.path.join(d, "extras.xml")
            with open(extras, "w") as f:
                f.write(EXTRAS)
            for path in files + [extras]:
                for v in cli.version_names(path):
                    cli.load_spec(path, version=v, element_class=Watched)
        cls.reads = set(READS)

    def test_every_attribute_is_read_by_the_front_end(self):
        unread = sorted(f"<{e} {a}=>" for e, attrs in schema().items() for a in attrs if (e, a) not in self.reads)
        self.assertEqual(unread, [], "attributes the schema allows but no stage reads")

    def test_every_element_and_attribute_is_documented(self):
        """An element is documented where the reference shows it as `<name>`;
        its attributes as `name` or `name=` (in backticks or an example) in a
        section that shows the element."""
        with open(REFERENCE, encoding="utf-8") as f:
            text = f.read()
        sections = re.split(r"\n(?=#{2,3} )", text)
        missing = []
        # every element may carry src= and versions=: the conventions say so once
        for a in COMMON:
            if not re.search(rf"\*\*Every element\*\* may carry[^*]*`{a}=", text):
                missing.append(f"every element's {a}=")
        for element, attrs in sorted(schema().items()):
            attrs = attrs - set(COMMON)
            shown = [s for s in sections if f"<{element}>" in s or f"<{element} " in s]
            if not shown:
                missing.append(f"<{element}>")
                continue
            for a in sorted(attrs):
                if not any(re.search(rf"`{re.escape(a)}`|`{re.escape(a)}=|[\s<]{re.escape(a)}=\"", s) for s in shown):
                    missing.append(f"<{element} {a}=>")
        self.assertEqual(missing, [], "in xml/isagen.rng but not in docs/xml-reference.md")


if __name__ == "__main__":
    unittest.main()
