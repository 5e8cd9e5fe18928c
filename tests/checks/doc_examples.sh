#!/usr/bin/env bash
# Issue 31, item 8: every command example in README.md and docs/*.md is what the current
# tool prints (scripts/doc-examples.py): each block under an "<!-- example: CMD -->"
# marker is CMD's output now, and every tlbscope-report / tlbscope-sim line in the other
# blocks names a command, options and keys the tool has. After a change to what the tool
# prints, `scripts/doc-examples.py --write` rewrites the blocks (then read the diff).
# The check is shown to bite: a copy of the README with one line of a generated block
# changed, and one naming an option the tool does not have, both fail it.
source "$(dirname "$0")/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
scripts/doc-examples.py --check >"$T/out" 2>&1; rc=$?
check "README.md and docs/*.md: every example block is what its command prints today, every command line is the tool's (scripts/doc-examples.py --write to update)" \
    test "$rc" = 0
[ "$rc" = 0 ] || sed 's/^/# /' "$T/out" | head -n 40
markers=$(cat README.md docs/*.md | grep -c '^<!-- example: ')
check "at least 6 generated example blocks ($markers), the README's among them" \
    eval '[ "$markers" -ge 6 ] && grep -q "^<!-- example: " README.md'
# the bite: a drifted block, and an option that does not exist
awk 'done != 1 && prev ~ /^<!-- example: / && /^```/ { print; getline; print $0 " (drifted)"; done = 1; next }
     { prev = $0; print }' README.md >"$T/README.md"
cp README.md "$T/orig.md"
check "a generated block that no longer matches its command fails the check (exit 1, a diff naming the line)" \
    eval '! cmp -s "$T/README.md" "$T/orig.md" &&
          out=$(scripts/doc-examples.py --check "$T/README.md" 2>&1); [ $? = 1 ] && grep -q "(drifted)" <<<"$out"'
printf '```\nbuild/tlbscope-report compare --no-such-option a.json b.json\nbuild/tlbscope-sim --cpu epyc-7763 no_such_key=1\n```\n' >"$T/bad.md"
check "a command line with an option or key the tool does not have fails the check, naming both" \
    eval 'out=$(scripts/doc-examples.py --check "$T/bad.md" 2>&1); [ $? = 1 ] &&
          grep -q -- "--no-such-option" <<<"$out" && grep -q "no_such_key=" <<<"$out"'
echo "1..$n"
