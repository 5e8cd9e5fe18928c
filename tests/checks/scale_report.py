#!/usr/bin/env python3
"""A copy of a report with every time scaled by F (stats, samples, p50_ci95), for the compare
tests (tests/checks/compare_verdicts.sh, tests/sim/mutants.sh); with W, each p50_ci95 set to
p50 +- W (a fraction), clipped to [min, max]. Usage: scale_report.py SRC F DEST [W]"""
import json, sys
src, f, dest = sys.argv[1], float(sys.argv[2]), sys.argv[3]
width = float(sys.argv[4]) if len(sys.argv) > 4 else None  # the interval's half width, a fraction of p50
d = json.load(open(src))
for e in d["experiments"]:
    for p in e.get("results", []) + e.get("summary", []):
        for m in p.get("metrics", {}).values():
            for k in ("min", "p50", "p90", "p99", "max", "mean"):
                if k in m and m[k] is not None:
                    m[k] = int(m[k] * f)
            if isinstance(m.get("samples"), list):
                m["samples"] = [int(x * f) for x in m["samples"]]
            ci = m.get("p50_ci95")
            if ci:
                if width is None:
                    ci["low"], ci["high"] = int(ci["low"] * f), int(ci["high"] * f)
                else:
                    ci["low"], ci["high"] = max(m["min"], int(m["p50"] * (1 - width))), min(m["max"], int(m["p50"] * (1 + width)))
json.dump(d, open(dest, "w"))
