"""isagen's version, read from where the C side declares it
(ISAGEN_VERSION and ISAGEN_VERSION_NUMBER in runtime/include/isagen/core.h),
so that the generator, the generated headers, the library, its soname and
isagen.pc cannot disagree."""
import os
import re

# The hand-written runtime beside the generator (in this tree, or under
# share/isagen when installed): the generator embeds core.h, and compiles
# the runtime's sources for isagen build and isagen diff --corpus.
RUNTIME_DIR = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "runtime"))
CORE_H = os.path.join(RUNTIME_DIR, "include", "isagen", "core.h")


def _read():
    with open(CORE_H, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r'^#define ISAGEN_VERSION "(\d+)\.(\d+)\.(\d+)"$', text, re.M)
    n = re.search(r'^#define ISAGEN_VERSION_NUMBER (\d+)$', text, re.M)
    if not m or not n:
        raise RuntimeError(f"{CORE_H}: no ISAGEN_VERSION / ISAGEN_VERSION_NUMBER")
    major, minor, patch = (int(x) for x in m.groups())
    if int(n.group(1)) != major * 10000 + minor * 100 + patch:
        raise RuntimeError(f"{CORE_H}: ISAGEN_VERSION_NUMBER does not match ISAGEN_VERSION")
    return f"{major}.{minor}.{patch}", int(n.group(1))


def version():
    """'MAJOR.MINOR.PATCH'"""
    return _read()[0]


def version_number():
    """MAJOR * 10000 + MINOR * 100 + PATCH, as #if can compare it"""
    return _read()[1]
