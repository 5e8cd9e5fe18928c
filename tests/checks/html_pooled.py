#!/usr/bin/env python3
"""More reports than html has columns (48): the page pools them per CPU model.

Usage: html_pooled.py make OUTDIR N SAMPLE.json...   N copies of the samples, round robin, the
                                                     k-th round's times scaled by 1 + 0.02 k
       html_pooled.py check PAGE REPORT.json...      facts of the page of those copies

"make" writes OUTDIR/rNN.json: copies of the samples (one CPU model each) whose p50s differ
from round to round, so that a model's median is not its first report's value. "check" prints:
  pooled MODELS REPORTS     the page's note: "K reports of <brand> pooled as NAME", summed
  median CHECKED WRONG      ipi_broadcast's chart markers of every pooled model against the
                            median (compare's: the lower middle) of its reports' p50s in ns
tests/checks/html_chromium.sh and tests/sim/mutants.sh read them with grep.
"""
import glob
import html
import json
import re
import sys

UNITS = {"": 1.0, "k": 1e3, "M": 1e6, "G": 1e9}


def make(outdir, n, samples):
    for i in range(n):
        d = json.load(open(samples[i % len(samples)]))
        f = 1 + 0.02 * (i // len(samples))
        for e in d["experiments"]:
            for p in e.get("results", []) + e.get("summary", []):
                for m in (p.get("metrics") or {}).values():
                    for k in ("min", "p50", "p90", "p99", "max", "mean"):
                        if m.get(k) is not None:
                            m[k] = int(m[k] * f)
                    ci = m.get("p50_ci95")
                    if ci:
                        ci["low"], ci["high"] = int(ci["low"] * f), int(ci["high"] * f)
        json.dump(d, open(f"{outdir}/r{i:02d}.json", "w"))


def check(page_path, reports):
    page = html.unescape(open(page_path, encoding="utf-8").read())
    note = re.search(r'<div class="pooled">(.*?)</div>', page, re.S)
    pools = re.findall(r"(\d+) reports? of ([^;<]+?) (?:pooled )?as <strong>([^<]+)</strong>",
                       note.group(1)) if note else []
    print("pooled", len(pools), sum(int(k) for k, _, _ in pools))
    by_brand = {}
    for path in reports:
        d = json.load(open(path))
        by_brand.setdefault(d["cpu"].get("brand"), []).append(d)
    checked = wrong = 0
    for count, brand, name in pools:
        runs = by_brand.get(brand, [])
        if int(count) < 2 or len(runs) != int(count):
            continue
        for (mode, x, shown, unit) in re.findall(
                r"<title>" + re.escape(name) + r" (\w+) \([^)]*\): (\d+) → ([\d.]+)([kMG]?)</title>", page):
            p50s = []
            for d in runs:
                hz = d["cpu"]["tsc_hz"]
                exp = [e for e in d["experiments"] if e["id"] == "ipi_broadcast"][0]
                for p in exp["results"]:
                    q = p["params"]
                    if q.get("mode") == mode and str(q.get("targets")) == x:
                        p50s.append(p["metrics"]["latency"]["p50"] * 1e9 / hz)
            if len(p50s) != len(runs):
                continue
            want = sorted(p50s)[(len(p50s) - 1) // 2]
            got = float(shown) * UNITS[unit]
            checked += 1
            wrong += abs(got - want) > 0.01 * want
    print("median", checked, wrong)


if __name__ == "__main__":
    if len(sys.argv) > 4 and sys.argv[1] == "make":
        make(sys.argv[2], int(sys.argv[3]), sys.argv[4:])
    elif len(sys.argv) > 3 and sys.argv[1] == "check":
        check(sys.argv[2], sys.argv[3:])
    else:
        sys.exit(__doc__)
