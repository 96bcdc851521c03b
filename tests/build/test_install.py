"""make install into a scratch DESTDIR, used the way another project uses
it: a program built outside the tree with `pkg-config --cflags --libs
isagen` (shared, with the library found by its soname) and against
libisagen.a, the installed isa and isagen run from where they were
installed (isagen generating C for a spec that is not in xml/, which then
compiles and runs against the installed library, and building it into a
library the installed isa loads), and make uninstall
removing every file install wrote.

The expected texts are not isagen's output pasted back: nv-sph's is what
`isa dis` prints for the same bytes (the two must agree), and the toy
instruction's is derived by hand from tests/specs/toy-varlen.xml's display
template (see tests/build/test_new_spec.py).
"""
import os
import re
import shutil
import tempfile
import unittest

from tests.build.common import ROOT, make, make_env, run

PREFIX = "/opt/isagen-test"
K1 = "61040200" + "00" * 12 + "00f00f00" + "00" * 60   # Mesa's vertex shader header

USER_PROGRAM = r"""
#include <stdio.h>
#include <string.h>

#include <isagen/isagen.h>
#include <isagen/nv_sph.h>

/* argv[1]: hex bytes of an SPH; prints it as isa dis does */
int main(int argc, char **argv)
{
   uint8_t bytes[128];
   size_t n = 0;
   char text[4096];
   struct nv_sph_Header h;
   struct isa_error err;
   struct isa_ctx ctx;
   struct isa_out out;
   if (argc != 2 || strcmp(isa_version(), ISAGEN_VERSION) != 0)
      return 2;
   for (const char *p = argv[1]; p[0] && p[1] && n < sizeof bytes; p += 2) {
      unsigned b;
      sscanf(p, "%2x", &b);
      bytes[n++] = (uint8_t)b;
   }
   if (nv_sph_Header_unpack(bytes, n, &h, &err) != ISA_OK)
      return 1;
   memset(&ctx, 0, sizeof ctx);
   ctx.size = n * 8;
   isa_out_buffer(&out, text, sizeof text);
   nv_sph_Header_print(&h, &out, &ctx);
   printf("%s\n", text);
   return 0;
}
"""

TOY_PROGRAM = r"""
#include <stdio.h>

#include <isagen/isagen.h>
#include "toy_varlen.h"

int main(void)
{
   static const uint8_t add[] = {0x8e, 0xa0, 0xa0, 0x03};
   struct toy_varlen_Instr in;
   struct isa_error err;
   struct isa_ctx ctx = {0};
   char text[256];
   struct isa_out out;
   if (toy_varlen_Instr_unpack(add, sizeof add, &in, &err) != ISA_OK)
      return 1;
   ctx.size = 32;
   isa_out_buffer(&out, text, sizeof text);
   toy_varlen_Instr_print(&in, &out, &ctx);
   printf("%s\n", text);
   return 0;
}
"""


class Install(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp()
        cls.dest = os.path.join(cls.scratch, "dest")
        cls.env = make_env()
        r = make("install", "DESTDIR=" + cls.dest, "PREFIX=" + PREFIX)
        assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
        cls.root = cls.dest + PREFIX
        cls.pc_env = dict(cls.env, PKG_CONFIG_PATH=os.path.join(cls.root, "lib", "pkgconfig"),
                          PKG_CONFIG_SYSROOT_DIR=cls.dest)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch)

    def pkg_config(self, *args):
        r = run(["pkg-config"] + list(args) + ["isagen"], env=self.pc_env)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout.split()

    def test_the_files_and_the_soname(self):
        for rel in ("bin/isa", "bin/isagen", "lib/libisagen.a", "lib/libisagen.so", "lib/pkgconfig/isagen.pc",
                    "include/isagen/isagen.h", "include/isagen/core.h", "include/isagen/nv_sph.h",
                    "include/isagen/agx_g13.h", "share/isagen/xml/isagen.rng"):
            self.assertTrue(os.path.exists(os.path.join(self.root, rel)), rel)
        version = run(["pkg-config", "--modversion", "isagen"], env=self.pc_env).stdout.strip()
        self.assertRegex(version, r"^\d+\.\d+\.\d+$")
        lib = os.path.join(self.root, "lib")
        self.assertEqual(os.readlink(os.path.join(lib, "libisagen.so")), "libisagen.so." + version.split(".")[0])
        dyn = run(["readelf", "-d", os.path.join(lib, "libisagen.so." + version)]).stdout
        self.assertIn("Library soname: [libisagen.so.%s]" % version.split(".")[0], dyn)

    def test_every_exported_symbol_is_declared_in_an_installed_header(self):
        syms = run(["nm", "-D", "--defined-only", os.path.join(self.root, "lib", "libisagen.so")]).stdout.split("\n")
        names = {line.split()[-1] for line in syms if line.strip()}
        self.assertIn("isa_version", names)
        headers = ""
        inc = os.path.join(self.root, "include", "isagen")
        for h in os.listdir(inc):
            with open(os.path.join(inc, h), encoding="utf-8") as f:
                headers += f.read()
        declared = set(re.findall(r"\b[A-Za-z_][A-Za-z0-9_]*\b", headers))
        self.assertEqual(sorted(names - declared), [], "exported but in no installed header")

    def test_a_program_outside_the_tree_builds_with_pkg_config(self):
        want = run([os.path.join(self.root, "bin", "isa"), "dis", "--isa", "nv-sph", "--hex", K1]).stdout
        self.assertIn("SphType=VTG", want)
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "user.c")
            with open(src, "w") as f:
                f.write(USER_PROGRAM)
            shared, static = os.path.join(d, "user-shared"), os.path.join(d, "user-static")
            r = run(["cc", "-std=c11", "-Wall", "-Werror", "-o", shared, src] + self.pkg_config("--cflags", "--libs"))
            self.assertEqual(r.returncode, 0, r.stderr)
            lib = os.path.join(self.root, "lib")
            r = run(["cc", "-std=c11", "-Wall", "-Werror", "-o", static, src] + self.pkg_config("--cflags")
                    + [os.path.join(lib, "libisagen.a")] + self.pkg_config("--libs-only-other", "--static")
                    + ["-lm"])
            self.assertEqual(r.returncode, 0, r.stderr)
            needed = run(["readelf", "-d", shared]).stdout
            self.assertRegex(needed, r"Shared library: \[libisagen\.so\.\d+\]")
            for exe, env in ((shared, dict(os.environ, LD_LIBRARY_PATH=lib)), (static, None)):
                r = run([exe, K1], env=env)
                self.assertEqual((r.returncode, r.stdout), (0, want), exe)

    def test_the_installed_isagen_generates_a_spec_of_ones_own(self):
        isagen = os.path.join(self.root, "bin", "isagen")
        with tempfile.TemporaryDirectory() as d:
            spec = os.path.join(d, "toy-varlen.xml")
            shutil.copy(os.path.join(ROOT, "tests", "specs", "toy-varlen.xml"), spec)
            # run from elsewhere, with nothing of this checkout on the paths
            env = {k: v for k, v in self.env.items() if k != "PYTHONPATH"}
            r = run([isagen, "--version"], env=env, cwd="/")
            self.assertRegex(r.stdout, r"^isagen \d+\.\d+\.\d+\n$")
            r = run([isagen, "lint", spec], env=env, cwd=d)
            self.assertEqual(r.returncode, 0, r.stderr)
            r = run([isagen, "generate", spec, "-o", d], env=env, cwd=d)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(os.path.join(d, "toy.c"), "w") as f:
                f.write(TOY_PROGRAM)
            exe = os.path.join(d, "toy")
            r = run(["cc", "-std=c11", "-Wall", "-Werror", "-I", d, "-o", exe, os.path.join(d, "toy.c"),
                     os.path.join(d, "toy_varlen.c")] + self.pkg_config("--cflags")
                    + [os.path.join(self.root, "lib", "libisagen.a"), "-lm"])
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(run([exe]).stdout, "add r1, r5, #7\n")
            # and as a library the installed isa loads (from the runtime sources installed with isagen)
            lib = os.path.join(d, "toy.so")
            r = run([isagen, "build", spec, "-o", lib], env=env, cwd="/")
            self.assertEqual(r.returncode, 0, r.stderr)
            r = run([os.path.join(self.root, "bin", "isa"), "dis", "--load", lib, "--isa", "toy-varlen",
                     "--hex", "8ea0a003"])
            self.assertEqual((r.returncode, r.stdout), (0, "add r1, r5, #7\n"))

    def test_two_builds_of_one_spec_link_into_one_program(self):
        # the spec's own prefix and one given with --prefix: no name of one
        # is a name of the other, so both link together and agree
        isagen = os.path.join(self.root, "bin", "isagen")
        spec = os.path.join(ROOT, "tests", "specs", "toy-varlen.xml")
        program = TOY_PROGRAM.replace("int main(void)", "static int main_of_toy(void)") + \
            TOY_PROGRAM.replace("toy_varlen", "other_toy").replace("int main(void)", "static int main_of_other(void)") + \
            "int main(void) { return main_of_toy() | main_of_other(); }\n"
        with tempfile.TemporaryDirectory() as d:
            for extra in ([], ["--prefix", "other_toy"]):
                r = run([isagen, "generate", spec, "-o", d] + extra)
                self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(sorted(os.listdir(d)), ["other_toy.c", "other_toy.h", "toy_varlen.c", "toy_varlen.h"])
            with open(os.path.join(d, "other_toy.h")) as f:
                self.assertNotIn("toy_varlen", f.read())
            with open(os.path.join(d, "both.c"), "w") as f:
                f.write(program)
            exe = os.path.join(d, "both")
            r = run(["cc", "-std=c11", "-Wall", "-Werror", "-I", d, "-o", exe, os.path.join(d, "both.c"),
                     os.path.join(d, "toy_varlen.c"), os.path.join(d, "other_toy.c")] + self.pkg_config("--cflags")
                    + [os.path.join(self.root, "lib", "libisagen.a"), "-lm"])
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(run([exe]).stdout, "add r1, r5, #7\n" * 2)
            # the same program as C++ (the way to keep builds apart there too)
            objs = []
            for c in ("toy_varlen.c", "other_toy.c"):
                objs.append(os.path.join(d, c + ".o"))
                r = run(["cc", "-std=c11", "-c", "-I", d, "-o", objs[-1], os.path.join(d, c)]
                        + self.pkg_config("--cflags"))
                self.assertEqual(r.returncode, 0, r.stderr)
            r = run(["g++", "-std=c++17", "-Wall", "-Werror", "-x", "c++", "-I", d, "-o", exe + "++",
                     os.path.join(d, "both.c"), "-x", "none"] + objs + self.pkg_config("--cflags")
                    + [os.path.join(self.root, "lib", "libisagen.a"), "-lm"])
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(run([exe + "++"]).stdout, "add r1, r5, #7\n" * 2)

    def test_uninstall_removes_every_file(self):
        dest = os.path.join(self.scratch, "again")
        r = make("install", "DESTDIR=" + dest, "PREFIX=" + PREFIX)
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        r = make("uninstall", "DESTDIR=" + dest, "PREFIX=" + PREFIX)
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        left = [os.path.join(b, f) for b, _, files in os.walk(dest) for f in files]
        self.assertEqual(left, [])


if __name__ == "__main__":
    unittest.main()
