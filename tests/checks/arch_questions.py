#!/usr/bin/env python3
"""compare of an x86_64 and an aarch64 report, by question (reports/tool/compare/arch_questions.c).

Computes from the reports themselves what `compare --json` must say: each question's rows are
the points both sides have on Linux's path (x86: shootdown_seq_vs_conc's concurrent order with
INVLPG or the CR3 write, no placement or x2APIC-cluster points; shootdown_contention's mode all,
method ipi, latency; flush_ceiling's shootdowns over a 512-page contiguous working set; aarch64:
tlbi_broadcast_vs_ipi's broadcast TLBI, tlbi_concurrent, flush_ceiling's per_page/range and
full_asid/full_all),
each cell the point's latency p50 in ns at that side's own rate (tsc_hz, counter_hz).

  arch_questions.py rows TOOL X86 ARM             ipi_roundtrip, shootdown, contention compared
  arch_questions.py ceiling-missing TOOL X86 ARM  flush_ceiling only on x86_64, with the reason
  arch_questions.py craft ARM OUT                 ARM with a flush_ceiling experiment, as OUT
  arch_questions.py ceiling TOOL X86 ARM          flush_ceiling compared (ARM from craft)
  arch_questions.py pti TOOL X86 ARM              pti_double_invalidation compared (x86's concurrent
                                                  shootdown, no_pti/invlpg_invpcid against
                                                  aarch64's no_kpti/kpti), both reports with it
Exit 0 when it holds, 1 with the first difference on stderr.
"""
import copy
import json
import subprocess
import sys


class Fail(Exception):
    pass


def load(path):
    with open(path) as f:
        return json.load(f)


def experiment(report, eid):
    for e in report.get("experiments", []):
        if e.get("id") == eid:
            return e
    return None


def p50(point):
    return ((point.get("metrics") or {}).get("latency") or {}).get("p50")


def points(report, eid, keep):
    e = experiment(report, eid)
    return [p for p in (e or {}).get("results") or [] if keep(p["params"]) and p50(p) is not None]


def rate(report):
    cpu = report["cpu"]
    return cpu.get("counter_hz") or cpu.get("tsc_hz")


def compare_json(tool, a, b):
    out = subprocess.run([tool, "compare", "--json", "A=" + a, "B=" + b], capture_output=True,
                         text=True, check=False)
    if out.returncode != 0:
        raise Fail("compare --json exited %d: %s" % (out.returncode, out.stderr[-400:]))
    return json.loads(out.stdout)


def question(doc, qid):
    for q in doc["architectures"]["questions"]:
        if q["question"] == qid:
            return q
    raise Fail("no question %s in architectures.questions" % qid)


def close(got, want, what):
    if got is None or abs(got - want) > 1e-6 * abs(want):
        raise Fail("%s: %r ns, expected %r ns" % (what, got, want))


def cell(row, side):
    for c in row["cells"]:
        if c["side"] == side:
            return c
    raise Fail("row %s has no cell of %s" % (row["params"], side))


def check_rows(q, keys, x86, arm, xpts, apts, how):
    """Rows = the aligned values both sides have; each cell its point's p50 at its own rate."""
    def key(p):
        return tuple(p["params"][k] for k in keys)
    xs, ars = {}, {}
    for p in xpts:
        xs.setdefault(key(p), []).append(p)
    for p in apts:
        ars.setdefault(key(p), []).append(p)
    want = sorted(set(xs) & set(ars))
    got = [tuple(r["params"][k] for k in keys) for r in q["rows"]]
    if not q["compared"] or got != want:
        raise Fail("%s: rows %s, expected %s" % (q["question"], got, want))
    for r in q["rows"]:
        k = tuple(r["params"][kk] for kk in keys)
        (xp, ap) = how(xs[k], ars[k])
        a, b = cell(r, "A"), cell(r, "B")
        close(a["p50"], p50(xp) * 1e9 / rate(x86), "%s %s A" % (q["question"], k))
        close(b["p50"], p50(ap) * 1e9 / rate(arm), "%s %s B" % (q["question"], k))
        if not a["mechanism"] or not b["mechanism"] or a["mechanism"] == b["mechanism"]:
            raise Fail("%s %s: mechanisms %r and %r" % (q["question"], k, a["mechanism"],
                                                          b["mechanism"]))
        if abs(b["ratio"] - b["p50"] / a["p50"]) > 1e-6 * b["ratio"]:
            raise Fail("%s %s: ratio %r" % (q["question"], k, b["ratio"]))


def only(pts, _other):
    if len(pts) != 1:
        raise Fail("%d points where one was expected: %s" % (len(pts), [p["params"] for p in pts]))
    return pts[0]


def nearest(key):
    """The pair whose `key` values lie closest (ties: the larger), as compare matches them."""
    def pick(xs, ars):
        best = None
        for x in xs:
            for a in ars:
                d = abs(x["params"][key] - a["params"][key])
                score = (d, -max(x["params"][key], a["params"][key]))
                if best is None or score < best[0]:
                    best = (score, x, a)
        return best[1], best[2]
    return pick


def x86_shootdown(p):
    return (p.get("mode") == "conc" and p.get("flush") in ("invlpg", "cr3_reload")
            and "placement" not in p and "ipi_mode" not in p)


def x86_contention(p):
    return (p.get("mode") == "all" and p.get("method") == "ipi" and p.get("measure") == "latency"
            and "placement" not in p)


def x86_ceiling(p):
    return (p.get("kind") == "shootdown" and p.get("working_set_form") == "contiguous"
            and p.get("working_set") == 512)


def canon_flush(pts, key, words):
    out = []
    for p in pts:
        if p["params"].get(key) in words:
            q = copy.deepcopy(p)
            q["params"]["flush"] = words[p["params"][key]]
            out.append(q)
    return out


def cmd_rows(tool, xpath, apath):
    x86, arm = load(xpath), load(apath)
    doc = compare_json(tool, xpath, apath)
    compared = [q["question"] for q in doc["architectures"]["questions"] if q["compared"]]
    for qid in ("ipi_roundtrip", "shootdown", "contention"):
        if qid not in compared:
            raise Fail("%s not compared (compared: %s)" % (qid, compared))
    # ipi_roundtrip: the all-pairs cell of its own section, both sides
    sec = [e for e in doc["experiments"] if e["id"] == "ipi_roundtrip"][0]["rows"][0]["cells"]
    q = question(doc, "ipi_roundtrip")
    for i, side in enumerate("AB"):
        close(cell(q["rows"][0], side)["p50"], sec[i]["p50"], "ipi_roundtrip " + side)
    if q["sides"]["A"]["mechanism"] == q["sides"]["B"]["mechanism"]:
        raise Fail("ipi_roundtrip: one mechanism named for both sides")
    sides = question(doc, "shootdown")["sides"]
    if (sides["A"]["experiment"], sides["B"]["experiment"]) != ("shootdown_seq_vs_conc",
                                                                "tlbi_broadcast_vs_ipi"):
        raise Fail("shootdown's experiments: %s" % sides)
    check_rows(question(doc, "shootdown"), ("targets", "pages"), x86, arm,
               points(x86, "shootdown_seq_vs_conc", x86_shootdown),
               points(arm, "tlbi_broadcast_vs_ipi", arm_shootdown(arm)),
               lambda xs, ars: (only(xs, ars), only(ars, xs)))
    check_rows(question(doc, "contention"), ("initiators",), x86, arm,
               points(x86, "shootdown_contention", x86_contention),
               points(arm, "tlbi_concurrent", lambda p: True), nearest("pages"))


def arm_shootdown(arm):
    """aarch64's side of the shootdown question: Linux's own sequence with the targets idle
    (broadcast_linux), or plain VAE1IS in a report from before it"""
    exps = [e for e in arm["experiments"] if e["id"] == "tlbi_broadcast_vs_ipi"]
    linux = any(r["params"].get("method") == "broadcast_linux" for e in exps for r in e.get("results", []))
    if linux:
        return lambda p: p.get("method") == "broadcast_linux"
    return lambda p: p.get("method") == "broadcast"


def cmd_ceiling_missing(tool, xpath, apath):
    doc = compare_json(tool, xpath, apath)
    q = question(doc, "flush_ceiling")
    want = "only on A (x86_64): B (aarch64) has no flush_ceiling experiment"
    if q["compared"] or q["rows"] or not (q["reason"] or "").startswith(want):
        raise Fail("flush_ceiling: compared %s, reason %r" % (q["compared"], q["reason"]))
    if "flush_ceiling" not in doc["architectures"]["only_in"]["A"]:
        raise Fail("flush_ceiling not listed only in A")


def cmd_craft(apath, out):
    arm = load(apath)
    template = experiment(arm, "tlbi_range")  # a whole experiment object of this report's version
    with_ci = "p50_ci95" in template["results"][0]["metrics"]["latency"]
    results = []
    for mode, base in (("range", 900), ("full_asid", 25000)):
        for pages in (1, 16, 33, 64, 512):
            v = base * pages if mode == "range" else base + 3 * pages
            metrics = {}
            for name, add in (("latency", 0), ("initiator_refill", 40000), ("with_refill", 40000)):
                w = v if name == "latency" else (add if name == "initiator_refill" else v + add)
                metrics[name] = {"n": 32, "min": w - 10, "p50": w, "p90": w + 10, "p99": w + 20,
                                 "max": w + 30, "mean": w + 1}
                if with_ci:
                    metrics[name]["p50_ci95"] = {"low": w - 5, "high": w + 5}
            results.append({"params": {"mode": mode, "pages": pages, "targets": 3},
                            "metrics": metrics})
    exp = copy.deepcopy(template)
    exp.update({"id": "flush_ceiling", "title": "Per-page TLBI or one ASIDE1IS, the refill counted",
                "axes": {"x": "pages", "series": "mode"}, "results": results, "summary": []})
    had = [e for e in arm["experiments"] if e["id"] == "flush_ceiling"]
    arm["experiments"] = [e for e in arm["experiments"] if e["id"] != "flush_ceiling"] + [exp]
    verdict = arm["verdict"]
    if had:  # replaced, not added: the counts stand
        with open(out, "w") as f:
            json.dump(arm, f)
        return
    verdict["line"] = verdict["line"].replace("%d measured" % verdict["measured"],
                                              "%d measured" % (verdict["measured"] + 1))
    verdict["measured"] += 1
    with open(out, "w") as f:
        json.dump(arm, f)


def cmd_ceiling(tool, xpath, apath):
    x86, arm = load(xpath), load(apath)
    doc = compare_json(tool, xpath, apath)
    q = question(doc, "flush_ceiling")
    if (q["sides"]["B"]["experiment"], q["sides"]["B"]["answers"]) != ("flush_ceiling", True):
        raise Fail("flush_ceiling: B's side %s" % q["sides"]["B"])
    check_rows(q, ("flush", "pages"), x86, arm,
               canon_flush(points(x86, "flush_ceiling", x86_ceiling), "mode",
                           {"invlpg": "per_page", "full_cr3": "full"}),
               canon_flush(points(arm, "flush_ceiling", lambda p: True), "mode",
                           {"per_page": "per_page", "range": "per_page", "full_asid": "full",
                            "full_all": "full"}),
               nearest("targets"))
    if "flush_ceiling" in doc["architectures"]["only_in"]["A"]:
        raise Fail("flush_ceiling compared, yet listed only in A")


def cmd_pti(tool, xpath, apath):
    x86, arm = load(xpath), load(apath)
    doc = compare_json(tool, xpath, apath)
    q = question(doc, "pti_double_invalidation")
    sides = (q["sides"]["A"]["experiment"], q["sides"]["B"]["experiment"])
    if sides != ("pti_double_invalidation", "pti_double_invalidation"):
        raise Fail("pti_double_invalidation's experiments: %s" % (sides,))
    # x86's deferred user flush has no aarch64 counterpart: its rows are one-sided, left out
    check_rows(q, ("invalidation", "pages"), x86, arm,
               canon_variant(points(x86, "pti_double_invalidation",
                                    lambda p: p.get("kind") == "shootdown_conc"),
                             {"no_pti": "kernel", "invlpg_invpcid": "kernel_user",
                              "invlpg_deferred": "kernel_user_deferred"}),
               canon_variant(points(arm, "pti_double_invalidation", lambda p: True),
                             {"no_kpti": "kernel", "kpti": "kernel_user"}),
               lambda xs, ars: (only(xs, ars), only(ars, xs)))
    for side in "AB":
        if "pti_double_invalidation" in doc["architectures"]["only_in"][side]:
            raise Fail("pti_double_invalidation compared, yet listed only in " + side)


def canon_variant(pts, words):
    out = []
    for p in pts:
        if p["params"].get("variant") in words:
            q = copy.deepcopy(p)
            q["params"]["invalidation"] = words[p["params"]["variant"]]
            out.append(q)
    return out


def main(argv):
    try:
        if argv[1] == "rows":
            cmd_rows(*argv[2:5])
        elif argv[1] == "ceiling-missing":
            cmd_ceiling_missing(*argv[2:5])
        elif argv[1] == "craft":
            cmd_craft(*argv[2:4])
        elif argv[1] == "ceiling":
            cmd_ceiling(*argv[2:5])
        elif argv[1] == "pti":
            cmd_pti(*argv[2:5])
        else:
            raise Fail("unknown command " + argv[1])
    except Fail as e:
        print("arch_questions.py %s: %s" % (argv[1], e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
