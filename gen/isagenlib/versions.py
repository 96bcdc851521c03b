"""Spec versions.

A spec may list its versions, oldest first:

    <versions>
      <version name="mesa-7.10"/>
      <version name="mesa-22.3.6" default="true"/>
    </versions>

and any element may carry `versions="A..B"` (both ends inclusive; `A..` from
A on, `..B` up to B, `A` only A): it exists in those versions only.  Where
only an attribute changed, an `<override attr="bits" value="1024"
versions="v4"/>` child gives the element's attribute another value in
those versions.  The spec
as of version V is the document with every element outside its range
removed; everything after this step (build, check, generate) sees one
version and knows nothing of the others.  So one file holds each fact once,
and a fact that changed is two elements with adjacent ranges.

The default version (the one marked, else the newest) keeps the spec's name;
another version V is generated as spec `NAME@V` (C prefix `NAME_V`), so
several versions link into one program.
"""

import re

ATTR = "versions"


class Versions:
    def __init__(self, names, default, locs):
        self.names = names            # oldest first
        self.default = default
        self.locs = locs              # name -> Loc of its <version>

    def index(self, name):
        return self.names.index(name)


def declared(doc, diags):
    """The <versions> of a document (None when it has none)."""
    vs = doc.root.find("versions")
    if vs is None:
        return None
    names, locs, default = [], {}, None
    for v in vs.findall("version"):
        name = v.get("name")
        if name in locs:
            diags.error(doc.attr_loc(v, "name"), f"duplicate version '{name}'")
            continue
        names.append(name)
        locs[name] = doc.loc(v)
        if v.get("default") == "true":
            if default is not None:
                diags.error(doc.attr_loc(v, "default"), f"versions '{default}' and '{name}' are both the default")
            default = name
    if not names:
        return None
    return Versions(names, default or names[-1], locs)


def parse_range(text):
    """'A..B' -> ('A', 'B'); 'A..' -> ('A', None); '..B' -> (None, 'B'); 'A' -> ('A', 'A')."""
    if ".." in text:
        lo, hi = text.split("..", 1)
        return (lo or None, hi or None)
    return (text, text)


def check_ranges(doc, versions, diags):
    """Every versions= names declared versions, in order."""
    for el in doc.root.iter():
        if not isinstance(el.tag, str) or el.get(ATTR) is None:
            continue
        if el.tag in ("isa", "versions", "version"):
            diags.error(doc.attr_loc(el, ATTR), f"<{el.tag}> cannot be limited to versions")
            continue
        if versions is None:
            diags.error(doc.attr_loc(el, ATTR), "versions= needs a <versions> list in the spec")
            continue
        lo, hi = parse_range(el.get(ATTR))
        bad = [n for n in (lo, hi) if n is not None and n not in versions.names]
        if bad:
            diags.error(doc.attr_loc(el, ATTR), f"unknown version '{bad[0]}' (versions: {', '.join(versions.names)})")
            continue
        if lo is None and hi is None:
            diags.error(doc.attr_loc(el, ATTR), "an empty range: write A..B, A.., ..B or A")
        elif lo is not None and hi is not None and versions.index(lo) > versions.index(hi):
            diags.error(doc.attr_loc(el, ATTR), f"version range {lo}..{hi} runs backwards")


def in_range(el, versions, version):
    text = el.get(ATTR)
    if text is None:
        return True
    lo, hi = parse_range(text)
    i = versions.index(version)
    return (lo is None or versions.index(lo) <= i) and (hi is None or i <= versions.index(hi))


def select(doc, versions, version):
    """Remove from doc every element that does not exist in `version`, then
    let each remaining <override> set its attribute."""
    doomed = [el for el in doc.root.iter() if isinstance(el.tag, str) and not in_range(el, versions, version)]
    for el in doomed:
        parent = el.getparent()
        if parent is not None:
            parent.remove(el)
    for ov in list(doc.root.iter("override")):
        parent = ov.getparent()
        parent.set(ov.get("attr"), ov.get("value"))
        doc.overridden[(parent, ov.get("attr"))] = ov
        parent.remove(ov)


def check_overrides(doc, versions, diags):
    """Two overrides of one attribute may not both apply in a version."""
    seen = {}
    for ov in doc.root.iter("override"):
        key = (ov.getparent(), ov.get("attr"))
        for other in seen.get(key, []):
            both = [v for v in versions.names if in_range(ov, versions, v) and in_range(other, versions, v)]
            if both:
                diags.error(doc.attr_loc(ov, ATTR), f"two <override>s of '{ov.get('attr')}' apply in version "
                                                    f"{both[0]} (the other is on line {doc.loc(other).line})")
        seen.setdefault(key, []).append(ov)


def spec_name(name, versions, version):
    """The spec name as generated for `version`."""
    if versions is None or version is None or version == versions.default:
        return name
    return f"{name}@{version}"


def c_identifier_part(text):
    return re.sub(r"[^A-Za-z0-9_]", "_", text)


def peek(path):
    """(spec name, [versions oldest first], default version) of a spec
    file, read without checking it (load_spec checks it); (None, [], None)
    when it cannot be read."""
    from lxml import etree
    try:
        root = etree.parse(path, etree.XMLParser(resolve_entities=False, no_network=True)).getroot()
    except (OSError, etree.XMLSyntaxError):
        return None, [], None
    names, default = [], None
    vs = root.find("versions")
    for v in (vs.findall("version") if vs is not None else ()):
        if v.get("name") and v.get("name") not in names:
            names.append(v.get("name"))
            if v.get("default") == "true" and default is None:
                default = v.get("name")
    return root.get("name"), names, (default or names[-1]) if names else None


def _canonical(el):
    """An element as text, its own versions= left out: what two copies of
    one element for different versions have in common."""
    if not isinstance(el.tag, str):
        return ""
    attrs = sorted((k, v) for k, v in el.attrib.items() if k != ATTR)
    return f"<{el.tag} {attrs}>{' '.join((el.text or '').split())}{''.join(_canonical(c) for c in el)}</{el.tag}>"


def check_copies(doc, diags):
    """Warn where one element is written once per version although most of
    its children are the same: a fact that did not change should be
    written once (versions= on the children that differ, <override> for an
    attribute)."""
    for parent in doc.root.iter():
        if not isinstance(parent.tag, str):
            continue
        seen = {}
        for el in parent:
            if not isinstance(el.tag, str) or el.get("name") is None or el.get(ATTR) is None or not len(el):
                continue
            key = (el.tag, el.get("name"))
            for other in seen.get(key, []):
                a = [_canonical(c) for c in other if isinstance(c.tag, str)]
                b = [_canonical(c) for c in el if isinstance(c.tag, str)]
                shared = sum(min(a.count(k), b.count(k)) for k in set(a))
                if len(a) >= 2 and 2 * shared > max(len(a), len(b)):
                    diags.warning(doc.loc(el), f"<{el.tag}> '{el.get('name')}' is written again for versions "
                                               f"{el.get(ATTR)}, but {shared} of its {len(b)} children are those of "
                                               f"the one on line {doc.loc(other).line}: write it once, with versions= "
                                               f"on the children that differ")
            seen.setdefault(key, []).append(el)
