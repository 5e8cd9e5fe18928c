#!/usr/bin/env bash
# compare's verdicts from one run per side (issue 31, item 3): each ratio's
# interval comes from the two p50s' 95% intervals (p50_ci95, schema 3), a
# verdict is "slower"/"faster" only when the interval is on one side of 1 and
# the ratio is past the dead band (--threshold, 3%), else "no difference";
# without intervals (older reports) "spread unknown", and "beyond noise" is
# never printed; each headline names its interval; a closing summary table
# (experiment x side, geometric mean and verdict); --where KEY=VALUE filters
# the points. The reports are the schema 3 fixture and copies of it scaled
# with tests/checks/scale_report.py. Prints TAP lines for tests/run-all.sh.
cd "$(dirname "$0")/../.." || exit 1
TOOL=build/tlbscope-report
out=build/test-runs/compare-verdicts
rm -rf "$out" && mkdir -p "$out"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
check() { local d=$1; shift; if "$@" >/dev/null; then ok "$d"; else not_ok "$d"; fi; }
run() { local name=$1; shift; "$TOOL" "$@" >"$out/$name.out" 2>"$out/$name.err"; echo $? >"$out/$name.rc"; }
rc() { cat "$out/$1.rc"; }
V3=tests/fixtures/reports/v3/sim-epyc7763-smp4-keep-samples.json
S4=tests/fixtures/reports/schema1/qemu-tcg-smp4-max.json # schema 1: no interval, the old shape
S8=tests/fixtures/reports/schema1/qemu-tcg-smp8-max.json
scale() { python3 tests/checks/scale_report.py "$@"; }

# tight intervals (p50 +-0.1%): 1.5x is slower everywhere, 1.02x is inside the dead band
scale "$V3" 1.00 "$out/base.json" 0.001
scale "$V3" 1.50 "$out/slow.json" 0.001
scale "$V3" 1.02 "$out/near.json" 0.001
scale "$V3" 1.10 "$out/wide.json" # the fixture's own intervals, scaled: wide at 12 samples
check "the scaled copies validate" "$TOOL" validate "$out/base.json" "$out/slow.json" "$out/near.json" "$out/wide.json"
run slow compare --json BASE="$out/base.json" SLOW="$out/slow.json"
check "1.5x with tight intervals: every row slower, its interval from the p50s' 95% intervals" \
    jq -e '[.experiments[].rows[].cells[] | select(.side == "SLOW")] | length > 0 and
           all(.verdict == "slower" and .interval == "interval from the p50s'"'"' 95% intervals" and .range[0] > 1)' "$out/slow.out"
check "... and each headline names its interval and says slower" \
    jq -e '[.experiments[].headlines[]] | length == 2 and all(.verdict == "slower" and
           (.text | test("interval from the p50s. 95% intervals \\[1.[45][0-9], 1.5[0-9]\\]")))' "$out/slow.out"
run slow-text compare BASE="$out/base.json" SLOW="$out/slow.json"
check "the text: a verdict column, the headline with its interval, the summary table" sh -c \
    "grep -qE '^ +(unicast_each|shorthand) .* slower\$' $out/slow-text.out &&
     tr '\\n' ' ' < $out/slow-text.out | tr -s ' ' | grep -q '=> SLOW is 1.50x slower than BASE over [0-9]* points, interval from the p50s. 95% intervals \\[1.[45][0-9], 1.5[0-9]\\]; 0 faster, [0-9]* slower, 0 no difference (dead band 3%)' &&
     grep -q '^Summary: per experiment the geometric mean of the p50 ratios to BASE' $out/slow-text.out &&
     grep -qE '^  ipi_broadcast +1.50 slower\$' $out/slow-text.out && grep -qE '^  shootdown_lazy +1.50 slower\$' $out/slow-text.out"
run near compare --json BASE="$out/base.json" NEAR="$out/near.json"
check "1.02x with tight intervals: inside the 3% dead band, no difference" \
    jq -e '[.experiments[].rows[].cells[] | select(.side == "NEAR") | .verdict] | length > 0 and all(. == "no difference")' "$out/near.out"
run near-1 compare --json --threshold 1 BASE="$out/base.json" NEAR="$out/near.json"
check "the same with --threshold 1: slower" \
    jq -e '.threshold_percent == 1 and ([.experiments[].rows[].cells[] | select(.side == "NEAR") | .verdict] | all(. == "slower"))' "$out/near-1.out"
run wide compare --json BASE="$out/base.json" WIDE="$out/wide.json"
check "1.10x with the run's own wide intervals: a row whose interval holds 1 is no difference, never slower" \
    jq -e '[.experiments[].rows[].cells[] | select(.side == "WIDE") | select(.range[0] < 1 and .range[1] > 1)]
           | length > 0 and all(.verdict == "no difference")' "$out/wide.out"
run bad-threshold compare --threshold many "$S4" "$S8"
check "--threshold without a percentage: exit 2" test "$(rc bad-threshold)" = 2

# older reports have no p50_ci95: spread unknown, never a verdict, never "beyond noise"
run old compare --fail-if-slower 1 A="$S4" B="$S8"
run old-json compare --json A="$S4" B="$S8"
check "schema 1 reports: every ratio's verdict is spread unknown" \
    jq -e '[.experiments[].rows[].cells[] | select(.side == "B") | select(.ratio != null) | .verdict] | length > 0 and all(. == "spread unknown")' "$out/old-json.out"
check "\"beyond noise\" is printed nowhere (text, stderr, JSON)" sh -c \
    "! grep -qi 'beyond noise' $out/old.out $out/old.err $out/old-json.out $out/slow-text.out"
check "the summary says spread unknown for them" grep -qE '^  ipi_broadcast +1.16 spread unknown$' "$out/old.out"
run old-md compare --markdown A="$S4" B="$S8"
check "--markdown closes with the summary table" sh -c \
    "grep -q '^## Summary\$' $out/old-md.out && grep -q '^| ipi_broadcast | 1.16 spread unknown |\$' $out/old-md.out"

# --where KEY=VALUE
run where compare --json --where mode=shorthand BASE="$out/base.json" SLOW="$out/slow.json"
check "--where mode=shorthand: only ipi_broadcast (shootdown_lazy has no mode), every row shorthand" \
    jq -e '[.experiments[].id] == ["ipi_broadcast"] and (.where == ["mode=shorthand"]) and
           ([.experiments[].rows[].params.mode] | length > 0 and all(. == "shorthand"))' "$out/where.out"
run where-pages compare --json --where pages=1 A="$S4" B="$S8"
check "--where pages=1 on the samples: only experiments with pages, every row at 1 page" \
    jq -e '([.experiments[].id] | index("ipi_broadcast") == null and index("shootdown_seq_vs_conc") != null) and
           ([.experiments[].rows[].params.pages] | length > 0 and all(. == 1))' "$out/where-pages.out"
run where-two compare --json --where pages=1 --where mode=seq A="$S4" B="$S8"
check "two --where clauses: both hold" \
    jq -e '[.experiments[].rows[].params | .pages == 1 and .mode == "seq"] | length > 0 and all' "$out/where-two.out"
run where-csv compare --csv --where mode=shorthand BASE="$out/base.json" SLOW="$out/slow.json"
check "--where in the tidy CSV: only the points whose recorded mode is shorthand" \
    python3 -c 'import csv,sys
rows=list(csv.DictReader(open(sys.argv[1], newline="")))
sys.exit(0 if rows and all(r["mode"] == "shorthand" and r["experiment"] == "ipi_broadcast" for r in rows) else 1)' "$out/where-csv.out"
run where-bad compare --where pages "$S4" "$S8"
check "--where without =VALUE: exit 2" test "$(rc where-bad)" = 2
echo "1..$n"
