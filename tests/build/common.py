"""What the build tests share: the checkout and its build output, running
a command, and running make from inside a make."""
import os
import subprocess

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.environ.get("ISAGEN_OUT", os.path.join(ROOT, "out"))


def run(cmd, **kw):
    """Run cmd; its CompletedProcess, output as text."""
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def make_env():
    """The environment for a make of the tests' own: without the calling
    make's MAKEFLAGS and jobserver, which would tie the two together."""
    return {k: v for k, v in os.environ.items() if not k.startswith("MAKE")}


def make(*args, directory=ROOT):
    """make -C directory ARGS...; its CompletedProcess."""
    return run(["make", "-C", directory] + list(args), env=make_env())
