"""Every spec file of this repository's history still loads and diffs
against today's: `isagen diff FILE@REV FILE` across language changes
(gen/isagenlib/upgrade.py reads older syntax as today's)."""
import os
import subprocess
import tempfile
import time
import unittest

from gen.isagenlib import cli, diff, upgrade

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def git(*args):
    return subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True)


def history():
    """[(commit, path, blob)] of every xml/*.xml at every commit that touched xml/."""
    out = []
    for commit in git("log", "--format=%H", "--", "xml/").stdout.split():
        for line in git("ls-tree", commit, "xml/").stdout.splitlines():
            meta, path = line.split("\t", 1)
            if path.endswith(".xml") and not path.endswith(".rng"):
                out.append((commit, path, meta.split()[2]))
    return out


class History(unittest.TestCase):
    def setUp(self):
        if git("rev-parse", "--is-inside-work-tree").stdout.strip() != "true":
            self.skipTest("not a git checkout: no history to walk")
        if git("rev-parse", "--is-shallow-repository").stdout.strip() == "true":
            self.skipTest("a shallow clone: the history is not here")

    def test_every_spec_of_every_revision_loads_and_diffs_against_today(self):
        start = time.time()
        seen, walked = set(), 0
        today = {}
        with tempfile.TemporaryDirectory() as tmp:
            for commit, path, blob in history():
                if blob in seen or not os.path.exists(os.path.join(ROOT, path)):
                    continue
                seen.add(blob)
                local = os.path.join(tmp, blob + ".xml")
                with open(local, "wb") as f:
                    f.write(subprocess.run(["git", "-C", ROOT, "cat-file", "blob", blob], capture_output=True,
                                           check=True).stdout)
                new_versions = cli.version_names(os.path.join(ROOT, path))
                for v in cli.version_names(local):
                    with self.subTest(file=f"{path}@{commit[:7]}", version=v):
                        old = cli.load_spec(local, display_path=f"{path}@{commit[:7]}", version=v)
                        nv = v if v in new_versions else None
                        if (path, nv) not in today:
                            today[(path, nv)] = cli.load_spec(os.path.join(ROOT, path), display_path=path, version=nv)
                        diff.diff(old, today[(path, nv)])
                        walked += 1
        self.assertGreater(walked, 10, "the history holds more spec files than that")
        self.assertLess(time.time() - start, 60)

    def test_the_command_takes_a_revision_from_before_the_last_language_change(self):
        # 12b14ec (tgsi) wrote its declared-register table as an array state with var=/next=
        if git("cat-file", "-e", "12b14ec^{commit}").returncode:
            self.skipTest("commit 12b14ec is not in this history")
        r = subprocess.run([os.path.join(ROOT, "gen", "isagen"), "diff", "xml/tgsi.xml@12b14ec", "xml/tgsi.xml",
                            "--format", "json"], cwd=ROOT, capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('"where": "stream state declared <set> 1"', r.stdout)


class Upgrade(unittest.TestCase):
    """Language 1 -> 2: an array state's next= became one <set> per element."""
    OLD = """<?xml version="1.0"?>
<isa name="u">
  <stream unit="S">
    <state name="hits" count="3" var="f" next="f == a ? $hits[f] + f : $hits[f]"><doc>per a</doc></state>
  </stream>
  <struct name="S" bits="8"><field name="a" bits="0..7" type="uint"/><display>{$hits[a]}</display></struct>
</isa>
"""
    NEW = """<?xml version="1.0"?>
<isa name="u" language="2">
  <stream unit="S">
    <state name="hits" count="3"><doc>per a</doc>
      <set index="0" value="0 == a ? $hits[0] + 0 : $hits[0]"/>
      <set index="1" value="1 == a ? $hits[1] + 1 : $hits[1]"/>
      <set index="2" value="2 == a ? $hits[2] + 2 : $hits[2]"/>
    </state>
  </stream>
  <struct name="S" bits="8"><field name="a" bits="0..7" type="uint"/><display>{$hits[a]}</display></struct>
</isa>
"""

    def load(self, text, d, name):
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write(text)
        return cli.load_spec(path, display_path=name)

    def test_a_language_1_file_means_what_its_language_2_rewrite_says(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(diff.diff(self.load(self.OLD, d, "old.xml"), self.load(self.NEW, d, "new.xml")), [])
            # and marking it language 1 changes nothing
            marked = self.OLD.replace('<isa name="u">', '<isa name="u" language="1">')
            self.assertEqual(diff.diff(self.load(marked, d, "m.xml"), self.load(self.NEW, d, "new.xml")), [])

    def test_replacing_a_name_leaves_members_calls_and_enums_alone(self):
        self.assertEqual(upgrade.replace_name("f + a.f + f(1) + f::X + $v[f] + ff", "f", "3"),
                         "3 + a.f + f(1) + f::X + $v[3] + ff")


if __name__ == "__main__":
    unittest.main()
