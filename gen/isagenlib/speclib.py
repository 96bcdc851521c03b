"""`isagen build`: specs compiled into a shared library that `isa --load`
adds to the specs compiled into isa (docs/cli.md#your-own-spec).

The library holds the generated C of each spec, their registry with the
entry point `isagen_plugin_specs`, and its own copy of the runtime, built
from the runtime sources beside the generator (installed with it under
share/isagen) and hidden: the entry point is the one symbol it exports."""
import os
import subprocess
import tempfile

from . import cgen


class BuildError(Exception):
    pass


def build(specs, output, cc=None):
    """Compile the loaded `specs` into the shared library `output`."""
    cc = cc or os.environ.get("CC") or "cc"
    with tempfile.TemporaryDirectory() as d:
        sources = cgen.write_sources(specs, d, plugin=True) + cgen.runtime_sources()
        cmd = [cc, "-std=c11", "-O2", "-shared", "-fPIC", "-fvisibility=hidden",
               "-I", os.path.join(cgen.RUNTIME_DIR, "include"), "-I", d, "-o", output] + sources + ["-lm"]
        try:
            r = subprocess.run(cmd, capture_output=True, text=True)
        except OSError as e:
            raise BuildError(f"cannot run the C compiler '{cc}': {e.strerror}")
        if r.returncode:
            raise BuildError(f"{cc} failed:\n{r.stderr.strip()[:3000]}")
