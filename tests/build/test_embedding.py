"""docs/embedding.md's recipes, run as a project of one's own would run
them: isagen installed under a scratch prefix (on PATH and
PKG_CONFIG_PATH), and for each of Make, CMake and Meson an empty directory
holding the document's build file, its main.c and a spec as my-isa.xml
(tests/specs/toy-varlen.xml), built and run.  The expected text is the
toy's display template applied by hand (tests/build/test_new_spec.py):
8e a0 a0 03 is "add r1, r5, #7".  A build tool missing from the machine
skips its recipe (make installs cmake and meson on Debian)."""
import os
import re
import shutil
import tempfile
import unittest

from tests.build.common import ROOT, make, make_env, run

DOC = os.path.join(ROOT, "docs", "embedding.md")


def fences():
    """{language: text} of the document's fenced blocks"""
    with open(DOC, encoding="utf-8") as f:
        return {m.group(1): m.group(2) for m in re.finditer(r"^```(\w+)\n(.*?)^```", f.read(), re.S | re.M)}


class Recipes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.prefix = os.path.join(cls.tmp, "prefix")
        r = make("install", "PREFIX=" + cls.prefix)
        assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
        env = make_env()
        lib = os.path.join(cls.prefix, "lib")
        cls.env = dict(env, PATH=os.path.join(cls.prefix, "bin") + os.pathsep + env.get("PATH", ""),
                       PKG_CONFIG_PATH=os.path.join(lib, "pkgconfig"), LD_LIBRARY_PATH=lib)
        cls.blocks = fences()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def project(self, build_file, language):
        d = tempfile.mkdtemp(dir=self.tmp)
        with open(os.path.join(d, build_file), "w") as f:
            f.write(self.blocks[language])
        with open(os.path.join(d, "main.c"), "w") as f:
            f.write(self.blocks["c"])
        shutil.copy(os.path.join(ROOT, "tests", "specs", "toy-varlen.xml"), os.path.join(d, "my-isa.xml"))
        return d

    def build(self, d, *cmds):
        for cmd in cmds:
            r = run(cmd, cwd=d, env=self.env)
            self.assertEqual(r.returncode, 0, " ".join(cmd) + "\n" + r.stdout[-3000:] + r.stderr[-3000:])

    def check(self, exe):
        r = run([exe], env=self.env)
        self.assertEqual((r.returncode, r.stdout), (0, "add r1, r5, #7\n"))

    def test_the_document_has_every_recipe(self):
        self.assertEqual(sorted(self.blocks), ["c", "cmake", "make", "meson"])

    def test_make(self):
        d = self.project("Makefile", "make")
        os.makedirs(os.path.join(d, "gen"))
        self.build(d, ["make"])
        self.check(os.path.join(d, "app"))
        # the spec changes: make regenerates and rebuilds; nothing changes: nothing is done
        os.utime(os.path.join(d, "my-isa.xml"))
        self.assertIn("isagen generate", run(["make"], cwd=d, env=self.env).stdout)
        self.assertIn("is up to date", run(["make"], cwd=d, env=self.env).stdout)

    def test_cmake(self):
        if not shutil.which("cmake"):
            self.skipTest("no cmake")
        d = self.project("CMakeLists.txt", "cmake")
        self.build(d, ["cmake", "-S", ".", "-B", "build"], ["cmake", "--build", "build"])
        self.check(os.path.join(d, "build", "app"))

    def test_meson(self):
        if not shutil.which("meson") or not shutil.which("ninja"):
            self.skipTest("no meson or ninja")
        d = self.project("meson.build", "meson")
        self.build(d, ["meson", "setup", "build"], ["meson", "compile", "-C", "build"])
        self.check(os.path.join(d, "build", "app"))


if __name__ == "__main__":
    unittest.main()
