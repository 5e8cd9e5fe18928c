#!/usr/bin/env python3
"""Issue 35, item 7: text from a report in the CSV and Markdown that tlbscope-report writes.

  hostile_text.py csv TOOL WORK       compare --csv and query --format csv: a cell a spreadsheet
                                      would run as a formula (= + - @, tab, CR first) starts
                                      with a single quote; numbers (-3.5, +2, 1e-3) and the
                                      tool's "-" stay as they are
  hostile_text.py markdown TOOL WORK  compare --markdown: a report's < > & are entities (no
                                      <img>, <script> a renderer would pass through), a | in
                                      a table cell is escaped, the table keeps its columns

Used by tests/checks/tool_cli.sh and, with a mutant's build, tests/sim/mutants.sh. Prints
what is wrong and exits 1, or exits 0.
"""
import csv
import io
import json
import os
import subprocess
import sys

QEMU2 = "tests/fixtures/reports/qemu-tcg-smp2-all.json"
QEMU4 = "tests/fixtures/reports/qemu-tcg-smp4-all.json"
HW = "tests/fixtures/reports/synthetic-epyc7763-2s-hw.json"
FORMULA = '=HYPERLINK("http://evil.example/","click")'


def tool(argv):
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    return r.returncode, r.stdout.decode("utf-8", "replace")


def evil_report(work, changes):
    with open(QEMU2) as f:
        d = json.load(f)
    changes(d)
    path = os.path.join(work, "hostile.json")
    with open(path, "w") as f:
        json.dump(d, f)
    return path


def fail(msg):
    print(msg)
    return 1


def check_csv(exe, work):
    def changes(d):
        d["cpu"]["brand"] = FORMULA
    rc, text = tool([exe, "compare", "--csv", evil_report(work, changes), QEMU4])
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    cpus = {r["cpu"] for r in rows if r["report"] == "A"}
    if rc != 0 or cpus != {"'" + FORMULA}:
        return fail("compare --csv: the CPU cell is %s (exit %d), not the formula quoted" %
                    (sorted(cpus), rc))
    if not any(r["machine_id"] == "-" for r in rows):
        return fail("compare --csv: the tool's '-' (no machine ID) was changed")
    db = os.path.join(work, "hostile.db")
    if os.path.exists(db):
        os.remove(db)
    rc, _ = tool([exe, "import", "--db", db, QEMU4])
    if rc != 0:
        return fail("import of %s into %s failed (exit %d)" % (QEMU4, db, rc))
    cells = {"eq": "=1+2", "plus": "+A1", "minus": "-2+3", "at": "@SUM(A1)",
             "tab": "\tx", "cr": "\rx", "neg": "-3.5", "pos": "+2", "exp": "1e-3",
             "none": "-", "text": "a=b"}
    want = {k: ("'" + v if k in ("eq", "plus", "minus", "at", "tab", "cr") else v)
            for k, v in cells.items()}
    sql = "SELECT " + ", ".join("'%s' AS %s" % (v, k) for k, v in cells.items()) + \
        ", -3.5 AS num, 2 AS int"
    rc, text = tool([exe, "query", "--db", db, "--format", "csv", sql])
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    want.update({"num": "-3.5", "int": "2"})
    if rc != 0 or len(rows) != 1 or rows[0] != want:
        return fail("query --format csv: %s (exit %d), expected %s" %
                    (rows[0] if rows else text[:200], rc, want))
    return 0


def check_markdown(exe, work):
    def changes(d):
        d["cpu"]["brand"] = "<img src=x onerror=alert(1)>"
        d["experiments"][0]["title"] = "<script>alert(2)</script> a|b & c"
    # the sides named A and B (NAME=FILE): the machine row is read by its name below; a name
    # taken from the CPU string keeps only letters, digits and . _ + - (cli/side_names.c)
    rc, text = tool([exe, "compare", "--markdown", "A=" + evil_report(work, changes), "B=" + HW])
    if rc != 0:
        return fail("compare --markdown: exit %d" % rc)
    for raw in ("<img", "<script", "</script"):
        if raw in text:
            return fail("compare --markdown: a raw %s from the report" % raw)
    for esc in ("&lt;img src=x onerror=alert(1)&gt;", "&lt;script&gt;alert(2)&lt;/script&gt;",
                "a|b &amp; c"):
        if esc not in text:
            return fail("compare --markdown: %r not in the output" % esc)
    rows = [l for l in text.splitlines() if l.startswith("| A |")]
    if not rows or "&lt;img" not in rows[0]:
        return fail("compare --markdown: no machine row with the CPU escaped")
    if "> **WARNING:**" not in text:
        return fail("compare --markdown: the WARNING block quotes lost their >")
    return 0


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("csv", "markdown"):
        print(__doc__)
        return 2
    os.makedirs(sys.argv[3], exist_ok=True)
    return (check_csv if sys.argv[1] == "csv" else check_markdown)(sys.argv[2], sys.argv[3])


if __name__ == "__main__":
    sys.exit(main())
