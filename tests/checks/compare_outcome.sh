#!/usr/bin/env bash
# What compare concludes when there is little or nothing to compare (issue 31,
# items 1 and 2): a pair of sides sharing an experiment but no point of it is
# a warning naming the parameter and both values, and the rest is compared
# (exit 0); --strict and a gate (--fail-if-slower) make it exit 4; a gate
# never passes on nothing (no shared experiment: exit 4); a file compared
# with itself, or with an identical copy, is said to be so; sides are named
# (NAME=FILE, else a short CPU name) in text, JSON, CSV and HTML, and
# --baseline keeps the operands' order (item 4). (show, compare
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
S4=tests/fixtures/reports/schema1/qemu-tcg-smp4-max.json # schema 1: no interval, the old shape

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
    "[ $(rc shifted) = 0 ] && grep -q '^tlbscope-report: warning: shootdown_seq_vs_conc: QEMU-TCG and QEMU-TCG_2 have no point in common .*; pages 1, 2, 4 and 6 more vs 1001, 1002, 1004 and 6 more (QEMU-TCG vs QEMU-TCG_2)' $out/shifted.err &&
     grep -q 'the rest is compared (--strict: exit status 4)' $out/shifted.err"
run shifted-strict compare --strict --experiment shootdown_seq_vs_conc "$S4" "$out/shifted.json"
check "the same under --strict: exit 4, an error" sh -c \
    "[ $(rc shifted-strict) = 4 ] && grep -q '^tlbscope-report: error: shootdown_seq_vs_conc: QEMU-TCG and QEMU-TCG_2 have no point in common' $out/shifted-strict.err"
run shifted-gate compare --fail-if-slower 10 --experiment shootdown_seq_vs_conc "$S4" "$out/shifted.json"
check "the same under --fail-if-slower: exit 4" test "$(rc shifted-gate)" = 4
# the rest of the comparison still runs: ipi_broadcast compared beside the disjoint section
run shifted-all compare "$S4" "$out/shifted.json"
check "without --experiment the other experiments are compared (exit 0, a headline)" sh -c \
    "[ $(rc shifted-all) = 0 ] && grep -q '^  => QEMU-TCG_2 is .* than QEMU-TCG over [0-9]* points' $out/shifted-all.out"

# a file with itself, a file with an identical copy
run self compare "$S4" "$S4"
check "a file compared with itself: said so" sh -c \
    "[ $(rc self) = 0 ] && grep -q '^tlbscope-report: note: QEMU-TCG and QEMU-TCG_2 are the same file: every ratio' $out/self.err"
cp "$S4" "$out/copy.json"
run copy compare "$S4" "$out/copy.json"
check "a file compared with an identical copy: said so" sh -c \
    "[ $(rc copy) = 0 ] && grep -q '^tlbscope-report: note: QEMU-TCG and QEMU-TCG_2 are identical reports: every ratio' $out/copy.err"
run other compare "$S4" "$out/shifted.json"
check "two different reports: no such note" sh -c "! grep -q 'note: .* are ' $out/other.err"

# ---- names, not letters (item 4) ----
S8=tests/fixtures/reports/schema1/qemu-tcg-smp8-max.json
run named compare --experiment ipi_broadcast SMP4="$S4" SMP8="$S8"
check "NAME=FILE names a side in the text: header, columns, headline" sh -c \
    "[ $(rc named) = 0 ] && grep -q '^  SMP4  ' $out/named.out && grep -q '^  => SMP8 is [0-9.]*x [a-z]* than SMP4 over' $out/named.out"
run named-json compare --json --experiment ipi_broadcast SMP4="$S4" SMP8="$S8"
check "... in compare --json: sides, cells and headlines" \
    jq -e '(.sides | map(.label)) == ["SMP4", "SMP8"] and ([.experiments[].rows[].cells[].side] | unique) == ["SMP4", "SMP8"] and
           .experiments[0].headlines[0].side == "SMP8"' "$out/named-json.out"
run named-csv compare --csv --experiment ipi_broadcast SMP4="$S4" SMP8="$S8"
check "... in the tidy CSV" sh -c "grep -q ',SMP8,' $out/named-csv.out && ! grep -q ',B,' $out/named-csv.out"
run named-html html -o "$out/named.html" SMP4="$S4" SMP8="$S8"
check "... in the html page" sh -c "[ $(rc named-html) = 0 ] && grep -q '<th>SMP8</th>' $out/named.html"
run badname compare '<b>=x.json' "$S4"
check "a name with other characters than letters, digits, . _ + -: exit 2, said" sh -c \
    "[ $(rc badname) = 2 ] && grep -q 'a side.s name (before .=.) is 1 to 15 letters' $out/badname.err"
run defaults compare --json --experiment ipi_broadcast "$S4" "$S8" tests/fixtures/reports/synthetic-epyc7763-2s-hw.json
check "without names: short CPU names, made unique (QEMU-TCG, QEMU-TCG_2, EPYC-7763)" \
    jq -e '(.sides | map(.label)) == ["QEMU-TCG", "QEMU-TCG_2", "EPYC-7763"]' "$out/defaults.out"
run baseline compare --json --experiment ipi_broadcast --baseline "$S8" "$S4" "$S8"
check "--baseline keeps the operands' order and divides by that side" \
    jq -e '(.sides | map(.label)) == ["QEMU-TCG", "QEMU-TCG_2"] and .experiments[0].base == "QEMU-TCG_2" and
           ([.experiments[0].rows[].cells[] | select(.side == "QEMU-TCG_2") | .ratio] | all(. == null)) and
           ([.experiments[0].rows[].cells[] | select(.side == "QEMU-TCG") | .ratio] | any(. != null))' "$out/baseline.out"
echo "1..$n"
