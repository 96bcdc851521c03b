"""isa check on every SPH corpus entry against an independent oracle of
the seed's rules (written here from the seed's prose and sph.md, not from
xml/nv-sph.xml): the findings must be exactly what the oracle expects, so
check is silent on every entry that obeys the rules and reports every
entry with reserved bits set."""
import json
import unittest

from .common import corpus, isa

GEOMETRY, PIXEL, TESS_INIT = 4, 5, 2
# reserved rows: (layout, field) -> severity; "warning" where drivers are known to use the bits
RESERVED = {
    ("*", "CommonWord0.Reserved"): "warning",
    ("*", "CommonWord3.Reserved"): "warning",
    ("*", "CommonWord4.Reserved"): "warning",
    ("*", "ImapSystemValuesA.Reserved0"): "error",
    ("*", "ImapSystemValuesA.Reserved1"): "error",
    ("*", "ImapSystemValuesC.Reserved"): "error",
    ("*", "ImapReserved"): "warning",
    ("VTG", "OmapSystemValuesA.Reserved0"): "error",
    ("VTG", "OmapSystemValuesA.Reserved1"): "error",
    ("VTG", "OmapSystemValuesC.OmapSystemValuesReserved17"): "error",
    ("*", "OmapReserved"): "warning",
}


def oracle(e):
    f, layout = e["fields"], e["type"]
    out = set()

    def add(rule, field, sev):
        out.add((rule, field, sev))

    st, sph = f["CommonWord0.ShaderType"], f["CommonWord0.SphType"]
    if st not in (1, 2, 3, 4, 5):
        add("shader-type-known", "CommonWord0.ShaderType", "error")
    elif (sph == 2) != (st == PIXEL):
        add("sph-type-matches-shader-type", "CommonWord0.SphType", "error")
    if f["CommonWord0.Version"] != 3:
        add("version", "CommonWord0.Version", "warning")
    crs = f["CommonWord3.ShaderLocalMemoryCrsSize"]
    if crs % 512:
        add("crs-size-multiple-of-512", "CommonWord3.ShaderLocalMemoryCrsSize", "error")
    if crs > 1 << 20:
        add("crs-size-at-most-1mib", "CommonWord3.ShaderLocalMemoryCrsSize", "error")
    topo, maxv = f["CommonWord3.OutputTopology"], f["CommonWord4.MaxOutputVertexCount"]
    if st == GEOMETRY:
        if topo not in (1, 6, 7):
            add("output-topology-geometry", "CommonWord3.OutputTopology", "error")
        if not 1 <= maxv <= 1024:
            add("max-output-vertex-count-range", "CommonWord4.MaxOutputVertexCount", "error")
    else:
        if topo:
            add("output-topology-geometry-only", "CommonWord3.OutputTopology", "warning")
        if maxv:
            add("max-output-vertex-count-geometry-only", "CommonWord4.MaxOutputVertexCount", "warning")
        if f["CommonWord0.StreamOutMask"]:
            add("stream-out-mask-geometry-only", "CommonWord0.StreamOutMask", "warning")
    if st in (GEOMETRY, PIXEL) and (f["CommonWord4.StoreReqStart"] or f["CommonWord4.StoreReqEnd"]):
        add("store-req-ignored", "CommonWord4.StoreReqStart", "warning")
    ppac = f["CommonWord1.PerPatchAttributeCount"]
    if st != TESS_INIT and ppac:
        add("per-patch-count-tessellation-init-only", "CommonWord1.PerPatchAttributeCount", "warning")
    if st not in (TESS_INIT, GEOMETRY) and f["CommonWord2.ThreadsPerInputPrimitive"]:
        add("threads-per-input-primitive-unused", "CommonWord2.ThreadsPerInputPrimitive", "warning")
    if f["CommonWord3.Reserved"] and f["CommonWord3.Reserved"] != ppac & 15:
        add("per-patch-copy-low", "CommonWord3.Reserved", "warning")
    if f["CommonWord4.Reserved"] and f["CommonWord4.Reserved"] != ppac >> 4:
        add("per-patch-copy-high", "CommonWord4.Reserved", "warning")
    if f["CommonWord0.Reserved"] & 7:
        add("reserved-common-a-unused", "CommonWord0.Reserved", "error")
    if layout == "VTG" and (f["CommonWord0.MrtEnable"] or f["CommonWord0.KillsPixels"]):
        add("pixel-only-fields", "CommonWord0", "warning")
    if layout == "PS" and f["OmapReserved"] >> 2:
        add("reserved-omap-unused", "OmapReserved", "error")
    for (where, name), sev in RESERVED.items():
        if where in ("*", layout) and f.get(name):
            add("reserved", name, sev)
    return out


class SphRules(unittest.TestCase):
    def test_findings_match_the_oracle_on_every_entry(self):
        entries = corpus("nv-sph")
        silent = reserved_reported = 0
        for e in entries:
            code, out, err = isa("check", "--isa", "nv-sph", "--json", "--hex", e["hex"])
            got = {(x["rule"], x["field"], x["severity"]) for x in map(json.loads, out.splitlines())}
            want = oracle(e)
            self.assertEqual(got, want, e["id"])
            self.assertEqual(code, 1 if any(s == "error" for _, _, s in want) else 0, e["id"])
            if e["reserved_set"]:
                self.assertTrue(any(r == "reserved" for r, _, _ in got), f"{e['id']}: reserved bits not reported")
                reserved_reported += 1
            if not want:
                silent += 1
        self.assertGreater(silent, 15, "the driver vectors at least are clean")
        self.assertEqual(reserved_reported, sum(1 for e in entries if e["reserved_set"]))

    def test_known_answer_vectors(self):
        for e in corpus("nv-sph"):
            if e["source"] != "known-answer":
                continue
            _, out, _ = isa("check", "--isa", "nv-sph", "--hex", e["hex"])
            if e["id"] in ("K2b", "K2c"):
                self.assertIn("[reserved]", out)
                self.assertNotIn("error", out)
            else:
                self.assertEqual(out, "", e["id"])


if __name__ == "__main__":
    unittest.main()
