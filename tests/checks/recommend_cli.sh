#!/usr/bin/env bash
# tlbscope-report and the recommendations section (schema version 2): show
# prints it, compare puts it side by side with a version 1 report, and
# validate refuses a section that lies: evidence pointing at no point or at
# an experiment the report lacks, "hardware" in a simulated run, a
# confidence without evidence, the section missing from a version 2 report.
# The base report comes from tlbscope-sim (a quick run, a few seconds); each
# defect is planted in a copy with jq. Prints TAP lines for tests/run-all.sh.
cd "$(dirname "$0")/../.." || exit 1
TOOL=build/tlbscope-report
SIM=build/tlbscope-sim
V1=tests/fixtures/reports/sim/sim-epyc7763-smp8.json
out=build/test-runs/recommend-cli
rm -rf "$out" && mkdir -p "$out"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
check() { # description, command...
    local d=$1; shift
    if "$@"; then ok "$d"; else not_ok "$d"; fi
}
[ -x "$TOOL" ] && [ -x "$SIM" ] || make --no-print-directory tool sim >"$out/build.log" 2>&1 ||
    { echo "not ok 1 - build the tool and the simulator (see $out/build.log)"; exit 1; }

"$SIM" --cpu epyc-7763 --cpus 4 --seed 5 --out "$out/run" profile=quick samples=10 warmup=1 \
    experiments=flush_ceiling,shootdown_seq_vs_conc,shootdown_lazy >"$out/sim.log" 2>&1
BASE=$(sed -n 's/^Report saved: //p' "$out/sim.log" | head -n1)
check "the base report exists and validates" "$TOOL" validate "$BASE"

# show: the block, each of the five entries, the label
"$TOOL" show "$BASE" >"$out/show.out" 2>&1
check "show: 'What this machine suggests' with the simulated note" \
    grep -q "^What this machine suggests \[simulated on the strict TLB model" "$out/show.out"
check "show: five entries, each labelled" \
    test "$(grep -cE '^  (flush_ceiling|invlpgb_vs_ipi|shootdown_order|lazy_skip|pti_user_flush) .*\[simulated: does not describe hardware\]$' "$out/show.out")" = 5
check "show: entries without their experiment say why" \
    grep -qE '^  invlpgb_vs_ipi +not enough evidence \(invlpgb_range was not run\)' "$out/show.out"
check "show: a version 1 report has no block" eval '! "$TOOL" show "$V1" | grep -q "What this machine suggests"'

# compare: side by side, one line per report, the version 1 report says it has none
"$TOOL" compare "$BASE" "$V1" >"$out/compare.out" 2>&1
check "compare: the side-by-side block" grep -q "^Recommendations, side by side:" "$out/compare.out"
check "compare: each id once, with an A and a B line" \
    test "$(sed -n '/^Recommendations, side by side:/,$p' "$out/compare.out" | grep -cE '^    [AB]: ')" = 10
check "compare: B is version 1" \
    test "$(grep -c '^    B: not in this report (schema version 1: no recommendations)' "$out/compare.out")" = 5
"$TOOL" compare --csv "$BASE" "$V1" >"$out/compare.csv" 2>&1
check "compare --csv stays a table (no recommendations block)" \
    eval '! grep -q "side by side" "$out/compare.csv"'

# validate: planted defects, each refused for the reason planted
# refused NAME FILTER PATTERN
refused() {
    local name=$1 filter=$2 pattern=$3 rc
    jq "$filter" "$BASE" >"$out/$name.json"
    "$TOOL" validate "$out/$name.json" >"$out/$name.out" 2>&1
    rc=$?
    if [ $rc = 1 ] && grep -q -- "$pattern" "$out/$name.out"; then
        ok "validate refuses $name: $(grep -m1 -o -- "$pattern" "$out/$name.out")"
    else
        not_ok "validate refuses $name (exit $rc; see $out/$name.out)"
    fi
}
refused evidence-past-the-end '.recommendations.entries[0].evidence.points += [100000]' \
    'recommendations.entries\[0\].evidence.points: points\[[0-9]*\] does not point at a result of flush_ceiling'
refused evidence-unknown-experiment '.recommendations.entries[0].evidence.experiment = "no_such"' \
    '"no_such" is not an experiment of this report'
refused hardware-in-simulation '.recommendations.entries[1].environment = "hardware" | .recommendations.entries[1].describes_hardware = true' \
    'recommendations.entries\[1\].environment: "hardware" in a simulated or virtualised run'
refused describes-hardware-lie '.recommendations.entries[2].describes_hardware = true' \
    'describes_hardware: true for environment "simulated"'
refused confidence-without-evidence '.recommendations.entries[1].confidence = "high"' \
    'confidence: not null in an entry without enough evidence'
refused section-missing 'del(.recommendations)' \
    'recommendations: missing (required from schema_version 2)'
refused bad-status '.recommendations.entries[0].status = "maybe"' 'recommendations.entries\[0\].status'
# and a version 1 report without the section is still read
check "validate: a version 1 report without recommendations is valid" eval '"$TOOL" validate "$V1" >/dev/null 2>&1'
echo "1..$n"
