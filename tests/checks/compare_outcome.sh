#!/usr/bin/env bash
# What compare concludes when there is little or nothing to compare (issue 31,
# items 1 and 2): a pair of sides sharing an experiment but no point of it is
# a warning naming the parameter and both values, and the rest is compared
# (exit 0); --strict and a gate (--fail-if-slower) make it exit 4; a gate
# never passes on nothing (no shared experiment: exit 4); a file compared
# with itself, or with an identical copy, is said to be so. (show, compare
# and html on an invalid report: tests/checks/tool_cli.sh.) Prints TAP lines.
cd "$(dirname "$0")/../.." || exit 1
TOOL=build/tlbscope-report
out=build/test-runs/compare-outcome
rm -rf "$out" && mkdir -p "$out"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
check() { local d=$1; shift; if "$@" >/dev/null; then ok "$d"; else not_ok "$d"; fi; }
run() { local name=$1; shift; "$TOOL" "$@" >"$out/$name.out" 2>"$out/$name.err"; echo $? >"$out/$name.rc"; }
rc() { cat "$out/$1.rc"; }
S4=reports/samples/qemu-tcg-smp4-max.json

# two reports of one machine that share no experiment: A has ipi_broadcast only, B ipi_roundtrip
jq '.experiments |= map(select(.id == "ipi_broadcast"))' "$S4" >"$out/only-broadcast.json"
jq '.experiments |= map(select(.id == "ipi_roundtrip"))' "$S4" >"$out/only-roundtrip.json"
run none compare "$out/only-broadcast.json" "$out/only-roundtrip.json"
check "no shared experiment, no gate: exit 0, a warning that nothing was compared" sh -c \
    "[ $(rc none) = 0 ] && grep -q '^tlbscope-report: warning: nothing compared: the reports share no experiment\$' $out/none.err"
run none-gate compare --fail-if-slower 10 "$out/only-broadcast.json" "$out/only-roundtrip.json"
check "no shared experiment under --fail-if-slower: exit 4, the gate does not pass on nothing" sh -c \
    "[ $(rc none-gate) = 4 ] && grep -q '^tlbscope-report: error: nothing compared: the reports share no experiment (--fail-if-slower never passes on nothing: exit status 4)' $out/none-gate.err"
run none-json compare --json --fail-if-slower 10 "$out/only-broadcast.json" "$out/only-roundtrip.json"
check "compare --json of it: exit 4 in the verdict too" sh -c \
    "[ $(rc none-json) = 4 ] && jq -e '.verdict.exit_status == 4' $out/none-json.out"

# a shared experiment, no shared point: the page counts of one shifted by 1000
jq '(.experiments[] | select(.id == "shootdown_seq_vs_conc") | .results[].params.pages, .summary[].params.pages) |= . + 1000' \
    "$S4" >"$out/shifted.json"
run shifted compare --experiment shootdown_seq_vs_conc "$S4" "$out/shifted.json"
check "no shared point: a warning naming the parameter and both sides' values, exit 0" sh -c \
    "[ $(rc shifted) = 0 ] && grep -q '^tlbscope-report: warning: shootdown_seq_vs_conc: A and B have no point in common .*; pages 1, 2, 4, ... vs 1001, 1002, 1004, ... (A vs B)' $out/shifted.err &&
     grep -q 'the rest is compared (--strict: exit status 4)' $out/shifted.err"
run shifted-strict compare --strict --experiment shootdown_seq_vs_conc "$S4" "$out/shifted.json"
check "the same under --strict: exit 4, an error" sh -c \
    "[ $(rc shifted-strict) = 4 ] && grep -q '^tlbscope-report: error: shootdown_seq_vs_conc: A and B have no point in common' $out/shifted-strict.err"
run shifted-gate compare --fail-if-slower 10 --experiment shootdown_seq_vs_conc "$S4" "$out/shifted.json"
check "the same under --fail-if-slower: exit 4" test "$(rc shifted-gate)" = 4
# the rest of the comparison still runs: ipi_broadcast compared beside the disjoint section
run shifted-all compare "$S4" "$out/shifted.json"
check "without --experiment the other experiments are compared (exit 0, a headline)" sh -c \
    "[ $(rc shifted-all) = 0 ] && grep -q '^  => B is .* than A over [0-9]* points' $out/shifted-all.out"

# a file with itself, a file with an identical copy
run self compare "$S4" "$S4"
check "a file compared with itself: said so" sh -c \
    "[ $(rc self) = 0 ] && grep -q '^tlbscope-report: note: A and B are the same file: every ratio' $out/self.err"
cp "$S4" "$out/copy.json"
run copy compare "$S4" "$out/copy.json"
check "a file compared with an identical copy: said so" sh -c \
    "[ $(rc copy) = 0 ] && grep -q '^tlbscope-report: note: A and B are identical reports: every ratio' $out/copy.err"
run other compare "$S4" "$out/shifted.json"
check "two different reports: no such note" sh -c "! grep -q 'note: A and B are' $out/other.err"
echo "1..$n"
