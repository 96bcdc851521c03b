"""Helpers shared by the generator's tests."""
import os
import tempfile

from gen.isagenlib import cli


def load_text(text, name="t.xml"):
    """The spec model of XML `text`, loaded as the file `name` (so that
    diagnostics and locations name it, not a temporary directory)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write(text)
        return cli.load_spec(path, display_path=name)


def asm_tables(text):
    """The assembler's tables (cgen/assembler.py AsmTables) of XML `text`."""
    from gen.isagenlib.cgen.assembler import AsmTables
    from gen.isagenlib.cgen.names import Names
    r = load_text(text)
    return AsmTables(Names(r[0] if isinstance(r, tuple) else r))
