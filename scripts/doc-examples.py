#!/usr/bin/env python3
"""Keeps the command examples in README.md and docs/*.md what the tool prints today.

Usage: scripts/doc-examples.py [--check | --write] [FILE.md ...]

Two kinds of example, both checked (tests/checks/doc_examples.sh, in make test):

1. Output blocks. A marker line

       <!-- example: COMMAND -->

   right before a fenced block (```) says where the block comes from: COMMAND is run by
   bash in the repository's root (build/tlbscope-report, build/tlbscope-sim, the shipped
   samples under reports/samples/) and its standard output, trailing blanks cut, is the
   block. A pipe into `abridge` keeps a readable excerpt:

       abridge 'FROM[,COUNT]'...   for each argument in turn, the COUNT lines (default
                              12) from the next line that contains FROM, with "..."
                              where lines were left out; COUNT may be /UNTIL/: up to
                              the first line from there on that contains UNTIL.

   --write rewrites every block from its command; --check (the default) rewrites
   nothing and fails, with a diff, where a block differs from what its command prints.

2. Command lines. In every fenced block without a marker, a line that starts with
   `build/tlbscope-report CMD` or `tlbscope-report CMD` names a command and options that
   `tlbscope-report help CMD` must list: an example never shows an option the tool
   no longer has. A line that starts with `build/tlbscope-sim` likewise: its --options
   in `tlbscope-sim --help`, its key=value keys in `tlbscope-sim --help-keys`.

Exit status: 0 all examples current, 1 a block or a command line drifted, 2 usage or a
command that failed.
"""
import difflib
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, "build", "tlbscope-report")
MARKER = re.compile(r"^<!-- example: (.*) -->\s*$")
FENCE = re.compile(r"^```")
TOOL_LINE = re.compile(r"^\s*(?:\$ )?(?:build/|bin/)?tlbscope-report\s+([a-z]+)(.*)$")
SIM = os.path.join(ROOT, "build", "tlbscope-sim")
SIM_LINE = re.compile(r"^\s*(?:\$ )?(?:build/)?tlbscope-sim\s(.*)$")

# `abridge` as a bash function, defined before each command (awk: no Python start-up
# per block, and the command stays a plain shell pipeline a reader can run by hand).
ABRIDGE = r'''
abridge() {
    local IFS=$'\034'
    awk -v spec="$*" '
    BEGIN { n = split(spec, parts, /\034/)
            for (i = 1; i <= n; i++) { m = split(parts[i], f, ","); from[i] = f[1]
                                       until[i] = ""; count[i] = (m > 1 ? f[2] + 0 : 12)
                                       if (m > 1 && f[2] ~ /^\/.*\/$/)
                                           until[i] = substr(f[2], 2, length(f[2]) - 2) } }
    { line[NR] = $0 }
    END { last = 0
          for (i = 1; i <= n; i++) {
              start = 0
              for (j = last + 1; j <= NR; j++) if (index(line[j], from[i])) { start = j; break }
              if (!start) { print "abridge: no line contains \"" from[i] "\"" > "/dev/stderr"; exit 3 }
              if (start > last + 1) print "..."
              stop = start + count[i] - 1
              if (until[i] != "") { stop = 0
                  for (j = start + 1; j <= NR; j++) if (index(line[j], until[i])) { stop = j; break }
                  if (!stop) { print "abridge: no line after \"" from[i] "\" contains \"" until[i] "\"" > "/dev/stderr"; exit 3 } }
              if (stop > NR) stop = NR
              for (j = start; j <= stop; j++) print line[j]
              last = stop }
          if (last < NR) print "..." }'
}
'''


def run_example(command, where):
    proc = subprocess.run(["bash", "-o", "pipefail", "-c", ABRIDGE + command], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        sys.stderr.write(f"{where}: the example's command failed (exit {proc.returncode}): "
                         f"{command}\n{proc.stderr}")
        raise SystemExit(2)
    return [line.rstrip() for line in proc.stdout.rstrip("\n").split("\n")]


_help_cache = {}


def tool_help(cmd):
    if cmd not in _help_cache:
        proc = subprocess.run([TOOL, "help", cmd], capture_output=True, text=True, timeout=30)
        _help_cache[cmd] = proc.stdout + proc.stderr if proc.returncode == 0 else None
    return _help_cache[cmd]


def sim_help(flag):
    key = "sim " + flag
    if key not in _help_cache:
        proc = subprocess.run([SIM, flag], capture_output=True, text=True, timeout=30)
        _help_cache[key] = proc.stdout + proc.stderr
    return _help_cache[key]


def check_sim_line(text, where):
    m = SIM_LINE.match(text)
    if not m:
        return []
    rest = m.group(1).split("#")[0]
    problems = []
    for opt in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", rest):
        if not re.search(r"(?<![\w-])" + re.escape(opt) + r"(?![\w-])", sim_help("--help")):
            problems.append(f"{where}: `tlbscope-sim {opt}`: not an option (tlbscope-sim --help)")
    for key in re.findall(r"(?<![\w-])([a-z][a-z0-9_]*)=", rest):
        if not re.search(r"^  " + re.escape(key) + r" ", sim_help("--help-keys"), re.M):
            problems.append(f"{where}: `{key}=`: not a configuration key (tlbscope-sim --help-keys)")
    return problems


def check_tool_line(text, where):
    """The command and each --option of one example line exist in the tool's help."""
    m = TOOL_LINE.match(text)
    if not m:
        return []
    cmd, rest = m.group(1), m.group(2).split("#")[0]
    helptext = tool_help(cmd)
    if helptext is None:
        return [f"{where}: `tlbscope-report {cmd}`: no such command (tlbscope-report help {cmd} fails)"]
    problems = []
    for opt in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", rest):
        if not re.search(r"(?<![\w-])" + re.escape(opt) + r"(?![\w-])", helptext):
            problems.append(f"{where}: `tlbscope-report {cmd} {opt}`: not an option of {cmd} "
                            f"(tlbscope-report help {cmd})")
    return problems


def process(path, write):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out, problems, i = [], [], 0
    rel = os.path.relpath(path, ROOT)
    while i < len(lines):
        line = lines[i]
        m = MARKER.match(line)
        if m and i + 1 < len(lines) and FENCE.match(lines[i + 1]):
            end = i + 2
            while end < len(lines) and not FENCE.match(lines[end]):
                end += 1
            if end >= len(lines):
                sys.stderr.write(f"{rel}:{i + 2}: the example's block is not closed\n")
                raise SystemExit(2)
            old = lines[i + 2:end]
            new = run_example(m.group(1), f"{rel}:{i + 1}")
            if old != new:
                diff = difflib.unified_diff(old, new, f"{rel}:{i + 3} (in the file)",
                                            f"{rel}:{i + 3} (what `{m.group(1)}` prints)",
                                            lineterm="", n=1)
                problems.append("\n".join(diff))
            out += [line, lines[i + 1]] + (new if write else old) + [lines[end]]
            i = end + 1
            continue
        if FENCE.match(line):
            end = i + 1
            while end < len(lines) and not FENCE.match(lines[end]):
                problems += check_tool_line(lines[end], f"{rel}:{end + 1}")
                problems += check_sim_line(lines[end], f"{rel}:{end + 1}")
                end += 1
            out += lines[i:end + 1]
            i = end + 1
            continue
        out.append(line)
        i += 1
    if write and out != lines:
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(out))
    return problems


def main(argv):
    write = False
    files = []
    for a in argv:
        if a == "--write":
            write = True
        elif a == "--check":
            write = False
        elif a.startswith("-"):
            sys.stderr.write(f"doc-examples.py: unknown option {a}\n{__doc__}")
            return 2
        else:
            files.append(os.path.abspath(a))
    if not files:
        files = [os.path.join(ROOT, "README.md")] + sorted(
            os.path.join(ROOT, "docs", f) for f in os.listdir(os.path.join(ROOT, "docs"))
            if f.endswith(".md"))
    if not os.access(TOOL, os.X_OK):
        sys.stderr.write("doc-examples.py: build/tlbscope-report is missing (make tool)\n")
        return 2
    problems = []
    for path in files:
        problems += process(path, write)
    if write:
        # only command lines are left to report: the blocks were just rewritten
        problems = [p for p in problems if not p.startswith("---")]
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
