#!/usr/bin/env python3
"""What a tlbscope-report html page concludes and charts, one fact a line (issue 31, item 5).

Usage: html_facts.py PAGE [REPORT.json]

PAGE is the page as written or as Chromium's --dump-dom gives it back (closing
tags and quoting may differ: the patterns allow both). With REPORT.json (the
page's first report), the first flush-ceiling chart's invlpg points are checked
against the report's own p50 ticks and TSC rate: the chart is in ns when its
label says so. tests/checks/html_chromium.sh and tests/sim/mutants.sh read the
facts with grep.
"""
import json
import re
import sys

UNITS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def main():
    page = open(sys.argv[1], encoding="utf-8").read()
    first_svg = page.find("<svg")
    concl = page.find('id="conclusions"')
    print("conclusions_first", concl >= 0 and (first_svg < 0 or concl < first_svg))
    sections = len(re.findall(r'<section id="exp\d+"', page))
    head = re.search(r'<table class="headlines">(.*?)</table>', page, re.S)
    rows = re.findall(r'<tr class="headline"><td><a href="#exp(\d+)"', head.group(1)) if head else []
    print("experiments", sections, "with_headline", len(set(rows)), "headline_rows", len(rows))
    grid = re.search(r'<table class="headline-grid">(.*?)</table>', page, re.S)
    print("headline_grid", len(re.findall(r"<tr><td><a href=", grid.group(1))) if grid else 0)
    verd = re.search(r'<ul class="verdicts">(.*?)</ul>', page, re.S)
    words = re.findall(r'<span class="verdict (\w+)">(\w+)', verd.group(1)) if verd else []
    print("verdicts", len(words), "complete", sum(1 for c, w in words if c == w == "COMPLETE"))
    machines = re.search(r'<h2 id="machines">.*?</table>', page, re.S)
    print("machine_skip_badges", len(re.findall(r'badge SKIP', machines.group(0))) if machines else -1)
    print("recommendations", "recommendations" if '<table class="recommendations">' in page else "none")
    charts = re.findall(r'<svg class="chart[^"]*".*?</svg>', page, re.S)
    empty = sum(1 for c in charts if "no measured points" in c)
    unmarked = sum(1 for c in charts
                   if not re.search(r'<circle |<rect class="mark"|<path class="mark"|<rect class="bar"', c))
    no_ticks = sum(1 for c in charts if len(re.findall(r'class="tick"', c)) < 2)
    undirected = sum(1 for c in charts if "is better" not in c)
    in_ticks = sum(1 for c in charts if "TSC ticks" in c)
    print("charts", len(charts), "empty", empty, "unmarked", unmarked, "no_ticks", no_ticks,
          "undirected", undirected, "in_ticks", in_ticks)
    # a series (polyline) per legend line in each line chart: every report in the legend
    cut = sum(1 for c in charts if "more)</text>" in c or re.search(r'[^.]\.\.\.</t', c))
    print("legends_cut", cut)
    # heatmaps: each in a grid of its section (a few a row), titled with its report's name
    heat = len(re.findall(r'<svg class="heatmap"', page))
    grids = re.findall(r'<div class="heatgrid">(.*?)</div>', page, re.S)
    in_grid = sum(len(re.findall(r'<svg class="heatmap"', g)) for g in grids)
    titled = sum(len(re.findall(r'<figure class="heat"><figcaption class="heat-title">[^<]+</figcaption>\s*'
                                r'<svg class="heatmap"', g)) for g in grids)
    print("heatmaps", heat, "in_grid", in_grid, "titled", titled)
    colours = set()
    for c in charts:
        colours |= set(re.findall(r'<polyline class="series" stroke="(#[0-9a-f]{6})"', c))
    print("series_colours", len(colours))
    if len(sys.argv) > 2:
        ceiling_fact(page, sys.argv[2])


def ceiling_fact(page, report_path):
    """The first ceiling chart's invlpg points against the report's p50 ticks / TSC rate."""
    rep = json.load(open(report_path))
    hz = rep.get("cpu", {}).get("tsc_hz")
    if not hz:
        hz = find_key(rep, "tsc_hz")
    chart = re.search(r'<svg class="chart ceiling".*?</svg>', page, re.S)
    if not chart or not hz:
        print("ceiling_ns none")
        return
    m = re.search(r'local, working set (\d+) pages, (contiguous|[^<]*?)<', chart.group(0))
    w = int(m.group(1))
    exp = [e for e in rep["experiments"] if e.get("id") == "flush_ceiling"][0]
    want = {}
    for p in exp.get("results", []):
        q = p.get("params", {})
        if q.get("kind") == "local" and q.get("working_set") == w and q.get("mode") == "invlpg" \
                and q.get("working_set_form", "contiguous") == "contiguous":
            want[q["pages"]] = p["metrics"]["latency"]["p50"] * 1e9 / hz
    got = {int(a): float(v) * UNITS[u] for a, v, u in
           re.findall(r'<title>invlpg, (\d+) pages: ([\d.]+) (ns|us|ms|s)</title>', chart.group(0))}
    bad = [k for k in got if k in want and abs(got[k] - want[k]) > 0.02 * want[k] + 1]
    print("ceiling_ns", "points", len(got), "matched", sum(1 for k in got if k in want), "wrong", len(bad))


def find_key(o, key):
    if isinstance(o, dict):
        for k, v in o.items():
            if k == key and isinstance(v, (int, float)):
                return v
            r = find_key(v, key)
            if r:
                return r
    elif isinstance(o, list):
        for v in o[:50]:
            r = find_key(v, key)
            if r:
                return r
    return None


main()
