#!/usr/bin/env bash
# tlbscope-report and the recommendations section (schema version 2): show
# prints it (wrapped at 80 columns, issue 20), compare puts it side by side
# with a version 1 report, and validate refuses a section that lies:
# evidence pointing at no point or at an experiment the report lacks,
# "hardware" in a simulated run, a confidence without evidence, the section
# missing from a version 2 report, an interval upside down. A version 2
# report from before issue 20 (no intervals, no variant order, p99 of 10
# samples) still loads, and show names what it lacks instead of guessing.
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

# joined INDENT: each wrapped entry on one line again (continuation lines start with INDENT spaces)
joined() {
    awk -v ind="$1" 'BEGIN { pad = sprintf("%*s", ind, "") }
        index($0, pad) == 1 && substr($0, ind + 1, 1) != " " { sub(/^ +/, ""); line = line " " $0; next }
        { if (started) print line; line = $0; started = 1 }
        END { if (started) print line }'
}

# show: the block, each of the five entries, the label
"$TOOL" show "$BASE" >"$out/show.raw" 2>&1
joined 19 <"$out/show.raw" >"$out/show.out"
check "show: the recommendations fit 80 columns" \
    eval '! sed -n "/^What this machine suggests/,/^\$/p" "$out/show.raw" | grep -q ".\{81\}"'
check "show: 'What this machine suggests' with the simulated note" \
    grep -q "^What this machine suggests \[simulated on the strict TLB model" "$out/show.raw"
check "show: five entries, each labelled" \
    test "$(grep -cE '^  (flush_ceiling|invlpgb_vs_ipi|shootdown_order|lazy_skip|pti_user_flush) .*\[simulated: does not describe hardware\]$' "$out/show.out")" = 5
check "show: entries without their experiment say why" \
    grep -qE '^  invlpgb_vs_ipi +not enough evidence \(invlpgb_range was not run\)' "$out/show.out"
check "show: a version 1 report has no block" eval '! "$TOOL" show "$V1" | grep -q "What this machine suggests"'

# compare: side by side, one line per report, the version 1 report says it has none
# (sides named A and B: the checks read them by letter)
"$TOOL" compare A="$BASE" B="$V1" >"$out/compare.raw" 2>&1
joined 7 <"$out/compare.raw" >"$out/compare.out"
check "compare: the side-by-side block" grep -q "^Recommendations, side by side:" "$out/compare.out"
check "compare: each id once, with an A and a B line" \
    test "$(sed -n '/^Recommendations, side by side:/,$p' "$out/compare.out" | grep -cE '^    [AB]: ')" = 10
check "compare: B is version 1" \
    test "$(grep -c '^    B: not in this report (schema version 1: no recommendations)' "$out/compare.out")" = 5
"$TOOL" compare --csv A="$BASE" B="$V1" >"$out/compare.csv" 2>&1
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
refused interval-upside-down '.recommendations.entries[2].interval.low = (.recommendations.entries[2].interval.high + 1)' \
    'recommendations.entries\[2\].interval.low: .* is above high'
refused interval-of-what '.recommendations.entries[0].interval.of = "luck"' \
    'recommendations.entries\[0\].interval.of'

# a version 2 report from before issue 20: no interval, no variant order, no ran_first, and a
# p99 and p90 in every metric whatever its n (here 10 samples: the maximum)
jq '.recommendations.entries[] |= del(.interval) | .method |= del(.variant_order, .order_seed)
    | .run.config |= del(.order_seed)
    | .experiments[] |= ((.results, .summary) |= map(del(.values.ran_first)
        | .metrics |= map_values(.p90 = (.p90 // .max) | .p99 = (.p99 // .max))))' "$BASE" >"$out/old.json"
check "an older version 2 report (no intervals, no variant order) validates" "$TOOL" validate "$out/old.json"
"$TOOL" show "$out/old.json" >"$out/old-show.raw" 2>&1
joined 19 <"$out/old-show.raw" >"$out/old-show.out"
check "show names the missing variant order instead of guessing one" \
    grep -q "^Order     variant order and its seed not recorded" "$out/old-show.out"
check "show says each recommended entry's interval was not recorded" \
    test "$(grep -c "interval not recorded: the report predates them" "$out/old-show.out")" = \
         "$(jq '[.recommendations.entries[] | select(.status == "recommended")] | length' "$out/old.json")"
check "show prints no p99 from the old report's 10-sample points (n<100 instead)" \
    eval 'grep -A3 "^  pages=1 flush=invlpg" "$out/old-show.out" | grep -qE "n<100 +n<100 +-"'
"$TOOL" compare A="$out/old.json" B="$BASE" >"$out/old-compare.out" 2>&1
check "compare lists the variant order: not recorded (-) in the old report, random in the new" \
    grep -qE "^ *variant order +- +random_per_iteration" "$out/old-compare.out"
# and a version 1 report without the section is still read
check "validate: a version 1 report without recommendations is valid" eval '"$TOOL" validate "$V1" >/dev/null 2>&1'
echo "1..$n"
