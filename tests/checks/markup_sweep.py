#!/usr/bin/env python3
"""Markup appended to every string of a report must never reach a page unescaped (issue 35).

For each report given, every string leaf (each path of jq's paths(strings), none left out) gets
its own marker appended:  "q-inj-N'a-inj-N|p-inj-N<x-inj-N>  (N distinct per path). Then:

  1. Each single-path variant is checked with `tlbscope-report validate` (one process over a
     folder of them): the validator may refuse a marked value (a word of a vocabulary, a hex
     number, a unit); such a path counts as refused, and is safe (all of them together are
     given to the commands once: what they write while refusing is checked as well).
  2. The accepted paths are rendered in batches, every marker of a batch in one report: a
     field (its value in every element of an array) is never in a batch with a field beside
     it or above it, so that a marked value that steers what is drawn (an experiment's id, an
     entry's status) hides no value of its own batch. Each batch goes to `html`, `compare --markdown` (the report against a copy)
     and `import` into a new SQLite database then `atlas`. A batch the tool refuses as a whole
     (two marked values that contradict each other) is split in two until each part renders
     or is one path, refused.
  3. In every output (what a refused run wrote too): a raw "<x-inj-" is a tag the page would parse; in the HTML pages a raw
     quote before "q-inj-"/"a-inj-" could close an attribute; in Markdown a bare "|" before
     "p-inj-" on a table row splits a cell. Any of them fails the path.

Then, in one more batch, every parameter's name (each key of every "params" object) gets its
own marker: the names reach facets and table headers too.

Then the fleet database itself (--db-sweep): a database of these reports, and in turn each
text column of the tables the atlas reads gets a marker appended to every row (the same
marker for a column name in every table, so that joins still hold): a database written by
an older tool, or by hand, is as untrusted as a report.

Prints TAP lines ("ok ..."/"not ok ...", unnumbered: the caller numbers them) and, with -v,
each unescaped path. Exit status 0 when every check passed.
"""
import argparse
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys

MARK = "\"q-inj-{n}'a-inj-{n}|p-inj-{n}<x-inj-{n}>"
RAW_TAG = re.compile(r"<x-inj-(\d+)")
ESCAPED_TAG = re.compile(r"&lt;x-inj-(\d+)")
RAW_QUOTE = re.compile(r"[\"'][qa]-inj-(\d+)")
RAW_PIPE = re.compile(r"(?<!\\)\|p-inj-(\d+)")


def string_paths(v, p=()):
    """Every path to a string leaf, in document order (jq's paths(strings))."""
    if isinstance(v, str):
        yield p
    elif isinstance(v, dict):
        for k, x in v.items():
            yield from string_paths(x, p + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from string_paths(x, p + (i,))


def get(doc, path):
    for k in path:
        doc = doc[k]
    return doc


def put(doc, path, value):
    get(doc, path[:-1])[path[-1]] = value


def dump(doc, file):
    with open(file, "w") as f:
        json.dump(doc, f, separators=(",", ":"))


def marked(doc, ids, paths):
    """A copy of doc with the marker of each id in ids appended to its path."""
    copy = json.loads(json.dumps(doc))
    for n in ids:
        put(copy, paths[n], get(copy, paths[n]) + MARK.format(n=n))
    return copy


def run(cmd, out_file=None):
    """(exit status, stdout text); stdout goes to out_file when given."""
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    text = r.stdout.decode("utf-8", "replace")
    if out_file:
        with open(out_file, "w") as f:
            f.write(text)
    return r.returncode, text


def read(file):
    try:
        with open(file, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def leaks(text, html):
    """The marker ids the text shows unescaped (and how many it shows escaped)."""
    bad = set(int(x) for x in RAW_TAG.findall(text))
    if html:
        bad |= set(int(x) for x in RAW_QUOTE.findall(text))
    else:
        for line in text.splitlines():
            if line.startswith("|"):
                bad |= set(int(x) for x in RAW_PIPE.findall(line))
    return bad, len(set(ESCAPED_TAG.findall(text)))


class Sweep:
    def __init__(self, tool, work, atlas):
        self.tool, self.work, self.atlas = tool, work, atlas
        self.renders = 0

    def render(self, doc, tag):
        """Render doc with each command: (whether the tool took it, {command: what it wrote}).
        A refusal may still have written something: that is checked too."""
        self.renders += 1
        base = os.path.join(self.work, tag)
        report, copy = base + ".json", base + "-copy.json"
        dump(doc, report)
        shutil.copyfile(report, copy)
        for f in (base + ".html", base + "-atlas.html", base + ".db"):
            if os.path.exists(f):
                os.remove(f)
        out = {}
        rc, _ = run([self.tool, "html", "-o", base + ".html", report])
        out["html"] = read(base + ".html")
        taken = rc == 0
        # exit 3/4 (slower, disjoint) still print the comparison; 1 and 2 refuse it
        rc, out["compare --markdown"] = run([self.tool, "compare", "--markdown", report, copy])
        taken = taken and rc not in (1, 2)
        if self.atlas:
            rc, _ = run([self.tool, "import", "--db", base + ".db", report])
            taken = taken and rc == 0
            if rc == 0:
                rc, _ = run([self.tool, "atlas", "--db", base + ".db", "-o", base + "-atlas.html"])
                taken = taken and rc == 0
            out["atlas"] = read(base + "-atlas.html")
        return taken, out

    def batch(self, doc, paths, ids, tag, found):
        """Render ids in one report, split on refusal; fills found[command] and returns
        (ids rendered, ids refused)."""
        if not ids:
            return [], []
        taken, outs = self.render(marked(doc, ids, paths), tag)
        for cmd, text in outs.items():
            bad, shown = leaks(text, cmd != "compare --markdown")
            found[cmd][0].update(bad & set(ids))
            found[cmd][1] += shown if taken else 0
        if taken:
            return ids, []
        if len(ids) == 1:
            return [], ids
        half = len(ids) // 2
        a = self.batch(doc, paths, ids[:half], tag + "a", found)
        b = self.batch(doc, paths, ids[half:], tag + "b", found)
        return a[0] + b[0], a[1] + b[1]


def validated(tool, work, doc, paths):
    """The ids whose single-path variant `validate` accepts."""
    folder = os.path.join(work, "single")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for n, p in enumerate(paths):
        value = get(doc, p)
        put(doc, p, value + MARK.format(n=n))
        dump(doc, os.path.join(folder, "%06d.json" % n))
        put(doc, p, value)
    _, text = run([tool, "validate", folder])
    ok = set()
    for line in text.splitlines():
        m = re.match(r"OK .*/(\d+)\.json$", line)
        if m:
            ok.add(int(m.group(1)))
    shutil.rmtree(folder, ignore_errors=True)
    return ok


def pattern(path):
    """The path with its array indices left out: one field of every element."""
    return tuple("[]" if isinstance(k, int) else k for k in path)


def steers(a, b):
    """Whether a marked value of field a could change whether field b is drawn at all: a
    field steers what sits beside it and under it (an experiment's id, an entry's status)."""
    pa, pb = a[:-1], b[:-1]
    n = min(len(pa), len(pb))
    return pa[:n] == pb[:n]


def groups(paths, ids):
    """Batches of fields (every element's value of a field together) in which no field steers
    another: a marked id or status hides no value of its own batch."""
    fields = {}
    for n in ids:
        fields.setdefault(pattern(paths[n]), []).append(n)
    batches = []
    for f in fields:
        for b in batches:
            if not any(steers(f, g) for g in b):
                b.append(f)
                break
        else:
            batches.append([f])
    return [sorted(n for f in b for n in fields[f]) for b in batches]


def show(paths, ids, limit=6):
    names = [".".join(str(k) if isinstance(k, str) else "[%d]" % k for k in paths[n])
             for n in sorted(ids)[:limit]]
    return ", ".join(names) + (" ..." if len(ids) > limit else "")


def sweep_report(tool, work, file, atlas, verbose):
    """TAP lines for one report; True when clean."""
    with open(file) as f:
        doc = json.load(f)
    paths = list(string_paths(doc))
    accepted = validated(tool, work, doc, paths)
    s = Sweep(tool, work, atlas)
    cmds = ["html", "compare --markdown"] + (["atlas"] if atlas else [])
    found = {c: [set(), 0] for c in cmds}
    rendered, refused = [], []
    for k, ids in enumerate(groups(paths, sorted(accepted))):
        r, x = s.batch(doc, paths, ids, "b%d-" % k, found)
        rendered += r
        refused += x
    # the paths validate refused, all in one report: the commands must refuse it too, and
    # write nothing unescaped on the way (one render: a refusal is quick)
    rejected = sorted(set(range(len(paths))) - accepted)
    if rejected:
        _, outs = s.render(marked(doc, rejected, paths), "rejected")
        for cmd, text in outs.items():
            found[cmd][0].update(leaks(text, cmd != "compare --markdown")[0])
    # the parameters' names are the report's too (facets, table headers): one more batch,
    # every name of every params object marked (ids after the paths')
    keyed = json.loads(json.dumps(doc))
    names = {}

    def rename(v):
        if isinstance(v, dict):
            for k in list(v):
                rename(v[k])
                if k == "params" and isinstance(v[k], dict):
                    v[k] = {p + MARK.format(n=len(paths) + names.setdefault(p, len(names))): x
                            for p, x in v[k].items()}
        elif isinstance(v, list):
            for x in v:
                rename(x)
    rename(keyed)
    key_taken, key_outs = s.render(keyed, "params") if names else (False, {})
    for cmd, text in key_outs.items():
        bad, shown = leaks(text, cmd != "compare --markdown")
        found[cmd][0].update(bad)
        found[cmd][1] += shown
    paths = paths + [("params", "{%s}" % p) for p in names]
    name = os.path.basename(file)
    good = True
    nref = len(paths) - len(names) - len(rendered)
    # most paths must render: a tool that refused everything would pass the rest vacuously
    enough = len(rendered) * 2 >= len(paths) - len(names)
    print("%s %s: %d string paths, %d rendered, %d refused by the tool (safe: %d by validate, "
          "%d only together); %d parameter names%s; %d renders" %
          ("ok" if enough else "not ok", name, len(paths) - len(names), len(rendered), nref,
           len(paths) - len(names) - len(accepted), len(refused), len(names),
           "" if key_taken or not names else " (refused)", s.renders))
    good &= enough
    for c in cmds:
        bad, shown = found[c]
        if bad:
            print("not ok %s: %s shows %d marker%s unescaped: %s" %
                  (name, c, len(bad), "" if len(bad) == 1 else "s", show(paths, bad)))
            if verbose:
                for n in sorted(bad):
                    print("#   %s: %s" % (c, show(paths, [n])))
        elif shown == 0:
            print("not ok %s: %s shows no marker at all (escaped or not): the sweep proves "
                  "nothing there" % (name, c))
        else:
            print("ok %s: %s: every marker escaped (%d shown escaped)" % (name, c, shown))
        good &= not bad and shown > 0
    return good


def sweep_db(tool, work, files):
    """TAP lines for the database sweep: each text column the atlas reads, in turn."""
    base = os.path.join(work, "fleet.db")
    if os.path.exists(base):
        os.remove(base)
    rc, _ = run([tool, "import", "--db", base] + files)
    if rc != 0:
        print("not ok database sweep: import of %s failed (exit %d)" % (" ".join(files), rc))
        return False
    con = sqlite3.connect(base)
    columns = {}
    for table in ("runs", "headlines", "cpu_models", "machines"):
        for _, col, ctype, *_ in con.execute("PRAGMA table_info(%s)" % table):
            if ctype.upper() == "TEXT":
                columns.setdefault(col, []).append(table)
    con.close()
    bad, shown = [], 0
    for n, (col, tables) in enumerate(sorted(columns.items())):
        db = os.path.join(work, "col.db")
        shutil.copyfile(base, db)
        con = sqlite3.connect(db)
        for t in tables:
            con.execute('UPDATE %s SET "%s" = "%s" || ? WHERE "%s" IS NOT NULL' % (t, col, col, col),
                        (MARK.format(n=n),))
        con.commit()
        con.close()
        page = os.path.join(work, "col-atlas.html")
        rc, _ = run([tool, "atlas", "--db", db, "-o", page])
        text = read(page)
        leaked, seen = leaks(text, True)
        shown += seen
        if rc != 0 or leaked:
            bad.append("%s (%s)" % (col, "exit %d" % rc if rc else "unescaped"))
    ok = not bad and shown > 0
    print("%s database sweep: %d text columns of runs, headlines, cpu_models and machines in "
          "turn: %s (%d shown escaped)" % ("ok" if ok else "not ok", len(columns),
                                           "atlas escapes every one" if not bad else
                                           "unescaped or refused: " + ", ".join(bad), shown))
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--work", required=True, help="a folder for the variants (emptied)")
    ap.add_argument("--no-atlas", action="store_true", help="html and compare only")
    ap.add_argument("--db-sweep", action="store_true", help="also the database's text columns")
    ap.add_argument("--only-db", action="store_true", help="the database sweep alone")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("reports", nargs="+")
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    good = True
    if not a.only_db:
        for f in a.reports:
            good &= sweep_report(a.tool, a.work, f, not a.no_atlas, a.verbose)
    if a.db_sweep or a.only_db:
        good &= sweep_db(a.tool, a.work, a.reports)
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
