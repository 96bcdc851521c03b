"""isagen's version, read from where the C side declares it
(ISAGEN_VERSION in runtime/include/isagen/isagen.h), so that the
generator, the library, its soname and isagen.pc cannot disagree."""
import os
import re

ISAGEN_H = os.path.join(os.path.dirname(__file__), "..", "..", "runtime", "include", "isagen", "isagen.h")


def version():
    with open(ISAGEN_H, encoding="utf-8") as f:
        m = re.search(r'^#define ISAGEN_VERSION "([^"]+)"$', f.read(), re.M)
    if not m:
        raise RuntimeError(f"{ISAGEN_H}: no ISAGEN_VERSION")
    return m.group(1)
