"""What each field of the model means to a reviewer of a spec change.

`isagen diff` walks two resolved models side by side (diff.py).  This table
says, for every declared field of every model class, how a difference in
it is reported: compared here with a class, left to one of the Differ's
semantic comparisons (renames, bit-pattern regions, layouts), or not
compared at all, with the reason.  A field added to model.py without an
entry here fails tests/gen/test_diff.py, so the diff cannot drift from the
language again.

Rules:
  Ignore(why)            not compared: where it was written, links between
                         objects, facts derived from compared ones
  Doc()                  documentation and provenance (class doc)
  Value(cls, kind, what) compared as a value; `cls` a class, or a method
                         name of the Differ that computes it from the pair
  Expr(cls, kind, what)  an expression or template, compared in canonical
                         form (spacing and redundant parentheses aside)
  Children(cls_added, cls_removed, kind)
                         a list of named (or, with by_position, ordered)
                         model objects: pairs are compared field by field
                         by this table, the others are added or removed
  By(handler)            compared by the Differ's method `handler`, which
                         knows the field's meaning (renames, regions...)
"""

from dataclasses import dataclass, field as dc_field


@dataclass(frozen=True)
class Ignore:
    why: str


@dataclass(frozen=True)
class Doc:
    pass


@dataclass(frozen=True)
class Value:
    cls: str
    kind: str
    what: str


@dataclass(frozen=True)
class Expr:
    cls: str
    kind: str
    what: str


@dataclass(frozen=True)
class Children:
    added: str
    removed: str
    kind: str             # "<kind>-added", "<kind>-removed", and what pairs report
    what: str             # how one child is called: "state", "option"...
    by_position: bool = False
    key: str = "name"


@dataclass(frozen=True)
class By:
    handler: str


LOC = Ignore("a source position")
ELEMENT = Ignore("the XML element, for source positions")
LINK = Ignore("a link to another model object, compared where that object is")
KEY = Ignore("what pairs the objects up (renames are found where they are compared)")
PARSED = Ignore("the text it was parsed from is compared")

# The class of a change to what a stream state, option or let computes:
# breaking when how units decode or encode depends on it, else cosmetic
# (it only changes printed text or findings).  Differ.relevance computes it.
RELEVANCE = "relevance"

TABLE = {
    "Spec": {
        "name": Ignore("the spec compared; a version's name follows the version"),
        "title": Value("doc", "title-changed", "title"),
        "file": Ignore("the file it was read from"),
        "reads_prev": Ignore("derived from the expressions, which are compared"),
        "doc": Doc(), "src": Doc(), "loc": LOC,
        "sources": Children("doc", "doc", "source", "source", key="id"),
        "enums": By("enums"),
        "types": By("types"),
        "operands": By("operands"),
        "containers": By("containers"),
        "stream": By("stream"),
        "version": Ignore("the version compared: the report names it"),
        "versions": Ignore("the file's other versions: each side is one version"),
        "document": Ignore("the loaded XML"),
        "warnings": Ignore("lint findings"),
    },
    "Source": {"id": KEY, "url": Value("doc", "source-changed", "url"), "text": Value("doc", "source-changed", "text"),
               "loc": LOC},
    "Property": {"name": KEY, "default": By("enum_pair"), "unnamed": By("enum_pair"), "doc": Doc(), "loc": LOC,
                 "src": Doc()},
    "EnumValue": {"name": By("enum_pair"), "value": By("enum_pair"), "display": By("value_pair"), "doc": Doc(),
                  "src": Doc(), "loc": LOC, "props": By("value_pair")},
    "Enum": {"name": By("enums"), "width": By("enum_pair"), "values": By("enum_pair"), "doc": Doc(), "src": Doc(),
             "loc": LOC, "properties": By("enum_pair")},
    "TypeRef": {"name": By("same_type"), "kind": By("same_type"), "enum": LINK, "target": LINK,
                "frac": By("same_type")},
    "Field": {
        "role": By("field_pair"), "name": By("members"), "pieces": By("field_pair"), "type": By("field_pair"),
        "count": By("field_pair"), "default": By("field_pair"),
        "expect": By("field_pair"), "expect_severity": By("field_pair"), "format": By("field_pair"),
        "value": By("field_pair"), "shared": Value("breaking", "fixed-shared-changed", "whether its fixed bits are a field's"),
        "severity": By("field_pair"), "anonymous": By("members"), "doc": Doc(), "src": Doc(), "loc": LOC,
        "element": ELEMENT, "owner": LINK,
        "shared_bits": Ignore("derived from shared and the layout"),
        "is_length_flag": Ignore("derived from the struct's length-flag"),
    },
    "Use": {"name": KEY, "operand_name": By("members"), "args_text": By("members"), "loc": LOC, "args_loc": LOC,
            "doc": Doc(), "src": Doc(), "args": PARSED, "operand": LINK, "owner": LINK},
    "Let": {"name": KEY, "value_text": PARSED, "loc": LOC, "value_loc": LOC, "doc": Doc(), "src": Doc(),
            "value": Expr(RELEVANCE, "let-changed", "value"), "owner": LINK,
            "checked": Ignore("bookkeeping of name resolution"), "broken": Ignore("bookkeeping of name resolution")},
    "Match": {"field_path": By("region"), "pieces": By("region"), "value_text": By("region"),
              "loc": LOC, "mask": By("region"), "value": By("region"), "src": Doc()},
    "Rule": {"name": KEY, "check_text": By("rules"), "when_text": By("rules"), "severity": By("rules"),
             "field": By("rules"), "message_text": By("rules"), "loc": LOC, "check_loc": LOC, "when_loc": LOC,
             "message_loc": LOC, "doc": Doc(), "src": Doc(), "element": ELEMENT, "check": PARSED, "when": PARSED,
             "message": PARSED},
    "Display": {"text": By("shown"), "when_text": By("shown"), "loc": LOC, "text_loc": LOC, "when_loc": LOC,
                "src": Doc(), "parts": PARSED, "when": PARSED},
    "Variant": {
        "name": KEY, "priority": By("variants"), "fallback": By("variants"), "path_named": By("variants"),
        "whens": By("variants"), "members": By("members"), "rules": By("rules"),
        "displays": By("shown"), "doc": Doc(), "src": Doc(), "loc": LOC, "element": ELEMENT,
        "explicit_priority": Ignore("a priority is compared by what it selects"),
        "index": Ignore("its place in the struct"), "lets": By("lets"), "operands": By("operands"),
        "owner": LINK, "patterns": By("variants"),
    },
    "Struct": {
        "name": KEY, "bits": By("struct"), "length_text": By("struct"), "min_length": By("struct"),
        "members": By("members"), "variants": By("variants"), "rules": By("rules"), "displays": By("shown"),
        "doc": Doc(), "src": Doc(), "loc": LOC, "element": ELEMENT, "overlay": By("struct"), "lets": By("lets"),
        "operands": By("operands"), "length_flag": By("struct"), "length": PARSED, "length_loc": LOC,
        "length_flag_field": Ignore("derived from length_flag"), "prefer": By("prefer"), "fills": By("fills"),
    },
    "Fill": {"field": By("fills"), "value_text": By("fills"), "when_text": By("fills"), "loc": LOC, "field_loc": LOC,
             "value_loc": LOC, "when_loc": LOC, "doc": Doc(), "src": Doc(), "value": PARSED, "when": PARSED,
             "target": Ignore("derived from field")},
    "Prefer": {"value_text": By("prefer"), "loc": LOC, "value_loc": LOC, "doc": Doc(), "src": Doc(), "value": PARSED},
    "Item": {"name": KEY, "type": By("sequence"), "present_text": By("sequence"), "count_text": By("sequence"),
             "max": By("sequence"), "doc": Doc(), "src": Doc(), "loc": LOC,
             "element": ELEMENT, "padding": Value("breaking", "item-padding-changed", "whether it is padding"),
             "present": PARSED, "count": PARSED, "present_loc": LOC, "count_loc": LOC, "owner": LINK},
    "Derive": {"field": KEY, "value_text": By("derives"), "loc": LOC, "field_loc": LOC, "value_loc": LOC,
               "doc": Doc(), "src": Doc(), "value": PARSED, "target": Ignore("derived from field")},
    "Sequence": {"name": KEY, "align": By("sequence"), "size_text": By("sequence"), "items": By("sequence"),
                 "derives": By("derives"), "rules": By("rules"), "displays": By("shown"), "doc": Doc(),
                 "src": Doc(), "loc": LOC, "lets": By("lets"), "operands": By("operands"), "size": PARSED,
                 "size_loc": LOC, "prefer": By("prefer"), "fills": By("fills")},
    "Alt": {"type": By("choice"), "priority": By("region"), "whens": By("region"), "loc": LOC, "doc": Doc(),
            "src": Doc(), "element": ELEMENT, "index": Ignore("its place in the choice"),
            "explicit_priority": Ignore("a priority is compared by what it selects"), "first": By("choice"),
            "shadowed": By("region"), "patterns": By("region")},
    "Choice": {"name": KEY, "alts": By("choice"), "doc": Doc(), "src": Doc(), "loc": LOC, "lets": By("lets"),
               "rules": By("rules"),
               "ordered": Ignore("compared by what it selects: the priorities it gives the alternatives"),
               "mnemonic_column": Ignore("compared by what it prints: the displays it pads")},
    "Case": {"when_text": By("operands"), "display_text": By("operands"), "undefined": By("operands"),
             "message_text": By("operands"), "loc": LOC, "when_loc": LOC, "display_loc": LOC,
             "message_loc": LOC, "doc": Doc(), "src": Doc(), "when": PARSED, "display": PARSED, "message": PARSED},
    "Operand": {"name": KEY, "params": By("operands"), "cases": By("operands"), "doc": Doc(), "src": Doc(),
                "loc": LOC, "param_types": Value("cosmetic", "operand-changed", "its struct parameters"),
                "param_locs": LOC, "lets": By("lets"), "rules": By("rules"), "owner": LINK,
                "used": Ignore("derived: what uses it is compared where it is")},
    "StateSet": {"index_text": PARSED, "value_text": PARSED, "when_text": PARSED, "loc": LOC, "index_loc": LOC,
                 "value_loc": LOC, "when_loc": LOC, "index": Expr(RELEVANCE, "state-changed", "index"),
                 "value": Expr(RELEVANCE, "state-changed", "value"), "when": Expr(RELEVANCE, "state-changed", "when")},
    "State": {"name": KEY, "init": Value(RELEVANCE, "state-changed", "initial value"), "next_text": PARSED,
              "loc": LOC, "next_loc": LOC, "doc": Doc(), "src": Doc(), "count": Value(RELEVANCE, "state-changed", "count"),
              "sets": Children(RELEVANCE, RELEVANCE, "state-changed", "<set>", by_position=True),
              "next": Expr(RELEVANCE, "state-changed", "next value"),
              "index": Ignore("derived: where its values are in the state array")},
    "Option": {"name": KEY, "type_name": Value(RELEVANCE, "option-changed", "type"),
               "default_text": Value(RELEVANCE, "option-changed", "default"), "loc": LOC, "doc": Doc(), "src": Doc(),
               "index": Ignore("its place among the options"), "enum": LINK,
               "default": Ignore("derived from default_text")},
    "Stream": {
        "unit_name": By("stream"), "count": Value("breaking", "stream-changed", "count"),
        "stop_text": PARSED, "stop": Expr("breaking", "stream-changed", "stop rule"),
        "loc": LOC, "stop_loc": LOC, "src": Doc(),
        "prefix_text": Value("cosmetic", "stream-printing-changed", "listing prefix"), "prefix_loc": LOC,
        "prefix": PARSED,
        "separator": Value("cosmetic", "stream-printing-changed", "separator"),
        "derives": By("derives"),
        "states": Children(RELEVANCE, RELEVANCE, "state-changed", "state"),
        "options": Children(RELEVANCE, RELEVANCE, "option-changed", "option"),
        "skip_zero": Value("breaking", "stream-changed", "skip-zero"),
        "skip_unit": Value("breaking", "stream-changed", "skip-unit"),
        "resync": Value("breaking", "stream-changed", "resync"),
        "failed": Value("cosmetic", "stream-printing-changed", "failed text"),
        "pad_end": Value("breaking", "stream-changed", "pad-end"),
        "after_stop": Value("breaking", "stream-changed", "after-stop bytes"),
        "unit": LINK,
    },
    "Container": {"name": KEY, "magic": By("containers"), "layout": By("containers"), "chunks": By("containers"),
                  "doc": Doc(), "loc": LOC, "src": Doc()},
}

RULES = (Ignore, Doc, Value, Expr, Children, By)
__all__ = ["TABLE", "RULES", "RELEVANCE", "Ignore", "Doc", "Value", "Expr", "Children", "By", "dc_field"]
