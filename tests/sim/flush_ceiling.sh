#!/usr/bin/env bash
# flush_ceiling and the recommendations on the strict TLB model: every
# shootdown verified with zero stale reads, the exact shape (tests/qemu/shape.jq),
# recommendations labelled simulated with evidence that points at existing
# points; and tlbscope-report show/compare print them.
source "$(dirname "$0")/lib.sh"

for cpu in epyc-7763 i9-12900k; do
    sim "flush-ceiling-$cpu" "$SIM" --cpu "$cpu" --cpus 4 --seed 7 profile=quick run_budget_s=0 experiments=flush_ceiling
    check "$cpu: clean (exit 0, no stale read, validates)" clean
    check "$cpu: flush_ceiling SUCCESS with verification reads and 0 stale" \
        test "$(exp_field flush_ceiling '[.status, .verification.checks > 0, .verification.stale_reads] | @csv')" = '"SUCCESS",true,0'
    check "$cpu: the exact shape of flush_ceiling" shape_ok "$REPORT" cpus=4 profile=quick experiments=flush_ceiling
    check "$cpu: five recommendations, every one simulated and not describing hardware" \
        test "$(jqr '[.recommendations.entries[] | select(.environment == "simulated" and .describes_hardware == false)] | length')" = 5
    check "$cpu: flush_ceiling's evidence points at existing flush_ceiling points" \
        test "$(jqr '(.experiments[] | select(.id == "flush_ceiling") | .results | length) as $n
                     | .recommendations.entries[0] | [.evidence.experiment, (.evidence.points | length > 0), ([.evidence.points[] | . < $n] | all)] | @csv')" = '"flush_ceiling",true,true'
    check "$cpu: entries without their experiment say not enough evidence and why" \
        test "$(jqr '[.recommendations.entries[1:][] | select(.status == "not_enough_evidence" and .confidence == null and (.why | test("was not run")))] | length')" = 4
    check "$cpu: the text summary has the block, labelled" \
        grep -q "^What this machine suggests \[simulated" "${REPORT%.json}.txt"
done
A=$REPORT
check "show prints the recommendations" eval '"$TOOL" show "$A" | grep -q "^  flush_ceiling    .*\[simulated: does not describe hardware\]"'
# compare with a version 1 sample: side by side, the old report says it has none
out=$("$TOOL" compare "$A" reports/samples/sim/sim-epyc7763-smp8.json 2>&1)
check "compare puts each recommendation side by side" \
    eval 'grep -q "^Recommendations, side by side:" <<<"$out" && [ "$(grep -c "^    B: not in this report (schema version 1" <<<"$out")" = 5 ]'
# html: the curves of every working set, p* of each summary marked, Linux's 33 drawn
page=$here/build/test-runs/sim/flush-ceiling.html
check "html draws the flush-ceiling curves with p* and Linux's 33" eval '
    "$TOOL" html -o "$page" "$A" &&
    [ "$(grep -c "A: local, working set" "$page")" = 2 ] &&
    [ "$(grep -c ">Linux 33</text>" "$page")" = 2 ] &&
    [ "$(grep -o "p\* = [0-9]*" "$page" | sort | tr "\n" " ")" = "$(jq -r "[.experiments[] | select(.id == \"flush_ceiling\") | .summary[] | select(.params.kind == \"local\" and .params.full == \"full_cr3\") | .values.p_star // empty | \"p* = \(.)\"] | sort | .[]" "$A" | tr "\n" " ")" ] &&
    grep -q "SIMULATED: these curves do not describe hardware" "$page"'
echo "1..$n_test"
