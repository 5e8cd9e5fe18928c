#!/usr/bin/env python3
"""Checks every quoted #include against the allowed directions in docs/layers.txt.

Usage: check-layers.py [--root DIR] [--rules FILE]

For each folder named in the rules, every .c/.h/.S file in it (not in a deeper
folder that has its own rule) may include only headers of its own folder, of the
folders its rule lists, "asm/..." (the architecture interface) when the rule lists
`asm`, and core/mutant.h. Anything else is printed as
    FILE:LINE: includes "PATH" (FOLDER -> TARGET), not allowed by docs/layers.txt
and the exit status is 1. Bad rules (a line without a colon, a folder named twice,
a rule naming a folder that has no rule, rules that go round in a circle)
exit with status 1 and a message naming the line or the circle.
A file in a checked folder that includes arch/<name>/ by path is always an error:
code outside arch/ reaches the architecture only through "asm/...".
Every .c/.h/.S file of the tree (git ls-files where DIR is a checkout, else every
file below DIR outside build/ and hidden folders) must lie in a folder that has a
rule; one that does not is printed as
    FILE: a source file in no folder of docs/layers.txt: place its folder there
and the exit status is 1.
"""
import os
import re
import subprocess
import sys

ALWAYS_ALLOWED = {"core/mutant.h"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def load_rules(path):
    rules = {}
    with open(path, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            if ":" not in line:
                sys.exit(f"{path}:{lineno}: expected 'FOLDER: ALLOWED...', got {raw.strip()!r}")
            folder, allowed = line.split(":", 1)
            folder = folder.strip().rstrip("/")
            if folder in rules:
                sys.exit(f"{path}:{lineno}: folder {folder} has two rules")
            rules[folder] = (set(allowed.split()), lineno)
    for folder, (allowed, lineno) in rules.items():
        for a in allowed:
            if a != "asm" and a not in rules:
                sys.exit(f"{path}:{lineno}: {folder} may include {a}, which has no rule of its own")
    rules = {k: v[0] for k, v in rules.items()}
    # the directions must form no cycle: one way only, whatever the files do today
    state = {}

    def visit(folder, path):
        state[folder] = "open"
        for a in sorted(rules[folder]):
            if a == "asm":
                continue
            if state.get(a) == "open":
                sys.exit(f"{path_of_rules}: the rules go round in a circle: {' -> '.join(path + [a])}")
            if a not in state:
                visit(a, path + [a])
        state[folder] = "done"

    path_of_rules = path
    for folder in sorted(rules):
        if folder not in state:
            visit(folder, [folder])
    return rules


def owner(path, folders):
    """The longest folder in the rules that holds path, or None."""
    best = None
    for f in folders:
        if path.startswith(f + "/") and (best is None or len(f) > len(best)):
            best = f
    return best


SOURCE_SUFFIXES = (".c", ".h", ".S")


def source_files(root):
    """Every C or assembly source of the tree, relative to root."""
    if os.path.exists(os.path.join(root, ".git")):
        out = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others",
                              "--exclude-standard", "--", "*.c", "*.h", "*.S"],
                             check=True, capture_output=True).stdout.decode()
        return sorted(f for f in out.split("\0") if f)
    found = []
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and
                   not (d == "build" and os.path.samefile(dirpath, root))]
        found += [os.path.relpath(os.path.join(dirpath, n), root)
                  for n in files if n.endswith(SOURCE_SUFFIXES)]
    return sorted(found)


def main():
    root, rules_path = ".", None
    args = sys.argv[1:]
    while args:
        a = args.pop(0)
        if a == "--root" and args:
            root = args.pop(0)
        elif a == "--rules" and args:
            rules_path = args.pop(0)
        else:
            sys.exit(__doc__)
    rules = load_rules(rules_path or os.path.join(root, "docs/layers.txt"))
    folders = list(rules)
    errors = checked = 0
    for folder in sorted(folders):
        top = os.path.join(root, folder)
        for dirpath, _dirs, files in os.walk(top):
            for name in sorted(files):
                if not name.endswith(SOURCE_SUFFIXES):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, name), root)
                if owner(rel, folders) != folder:
                    continue  # a deeper folder with its own rule
                checked += 1
                with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
                    for lineno, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        inc = m.group(1)
                        if inc in ALWAYS_ALLOWED:
                            continue
                        if inc.startswith("asm/"):
                            target = "asm"
                        elif inc.startswith("arch/") and not folder.startswith("arch/"):
                            print(f'{rel}:{lineno}: includes "{inc}" by path: use "asm/{inc.split("/")[-1]}" '
                                  "(the architecture interface, docs/layers.txt)")
                            errors += 1
                            continue
                        else:
                            target = owner(inc, folders)
                        if target is None:
                            print(f'{rel}:{lineno}: includes "{inc}", which lies in no folder of docs/layers.txt')
                            errors += 1
                        elif target != folder and target not in rules[folder]:
                            print(f'{rel}:{lineno}: includes "{inc}" ({folder} -> {target}), '
                                  "not allowed by docs/layers.txt")
                            errors += 1
    placeless = 0
    for rel in source_files(root):
        if owner(rel, folders) is None and rel not in ALWAYS_ALLOWED:
            print(f"{rel}: a source file in no folder of docs/layers.txt: place its folder there")
            placeless += 1
    print(f"# {checked} files in {len(folders)} folders checked, {errors} includes against the rules, "
          f"{placeless} files in no folder")
    return 1 if errors or placeless else 0


if __name__ == "__main__":
    sys.exit(main())
