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
check "show prints the recommendations (flush_ceiling's entry wrapped under its id, labelled)" \
    eval '"$TOOL" show "$A" | sed -n "/^  flush_ceiling /,/^  [a-z]/p" | tr -s " \n" " " | grep -q "\[simulated: does not describe hardware\]"'
# compare with a version 1 sample: side by side, the old report says it has none (sides
# named A and B)
out=$("$TOOL" compare A="$A" B=tests/fixtures/reports/schema1/sim/sim-epyc7763-smp8.json 2>&1)
check "compare puts each recommendation side by side" \
    eval 'grep -q "^Recommendations, side by side:" <<<"$out" && [ "$(grep -c "^    B: not in this report (schema version 1" <<<"$out")" = 5 ]'
# html: the curves of every working set, p* of each summary marked, Linux's 33 drawn (the
# p* marks of the curves' section: the recommendations at the top quote p* too)
page=$here/build/test-runs/sim/flush-ceiling.html
check "html draws the flush-ceiling curves with p* and Linux's 33, per working set and form" eval '
    "$TOOL" html -o "$page" A="$A" &&
    [ "$(grep -c "A: local, working set [0-9]* pages, contiguous" "$page")" = 2 ] &&
    [ "$(grep -c "A: local, working set 512 pages, scattered frames, cold page tables" "$page")" = 1 ] &&
    [ "$(grep -c ">Linux 33</text>" "$page")" = 3 ] &&
    [ "$(sed -n "/<section id=\"flush-ceiling\">/,/<\/section>/p" "$page" | grep -o "p\* = [0-9]*" | sort | tr "\n" " ")" = "$(jq -r "[.experiments[] | select(.id == \"flush_ceiling\") | .summary[] | select(.params.kind == \"local\" and .params.full == \"full_cr3\") | .values.p_star // empty | \"p* = \(.)\"] | sort | .[]" "$A" | tr "\n" " ")" ] &&
    grep -q "SIMULATED: these curves do not describe hardware" "$page"'
# issue 20: shootdown points split the initiator's latency from the targets' refill; the
# recommendation rests on the local and the shootdown curves (contiguous form), and names the
# cold form's local p*
# issue 32: shootdown points carry the initiator's refill too, the work summed over CPUs and the
# critical path on the initiator's clock, each at least its latency and its own refill (per
# sample, so their minima); the initiator's refill grows with its working set (mutant
# fc_initiator_no_refill)
check "shootdown points: target_refill, initiator_refill, work, critical_path (each >= latency + initiator_refill), local points none" \
    test "$(jq -r '[.experiments[] | select(.id == "flush_ceiling") | .results[] | .metrics as $m
                    | [.params.kind, ([$m.target_refill, $m.initiator_refill, $m.work, $m.critical_path] | map(. != null)),
                       ($m.work == null or ($m.work.min >= $m.latency.min + $m.initiator_refill.min
                                            and $m.critical_path.min >= $m.latency.min + $m.initiator_refill.min))]]
                   | unique | map(flatten | map(tostring) | join(":")) | join(",")' "$A")" = \
        "local:false:false:false:false:true,shootdown:true:true:true:true:true"
check "the initiator refills: initiator_refill at working set 512 over twice that at 64" \
    eval 'REPORT=$A fc_initiator_refills'
check "flush_ceiling's evidence: local and shootdown curves of one working set, and the cold local one" \
    test "$(jq -r '(.experiments[] | select(.id == "flush_ceiling") | .results) as $pts
                   | [.recommendations.entries[0].evidence.points[] | $pts[.].params
                      | [.kind, .working_set_form, .working_set]] | unique | map(map(tostring) | join(":")) | join(",")' "$A")" = \
        "local:contiguous:512,local:scattered_cold:512,shootdown:contiguous:512"
# (in its verdict, or where the quick grid leaves every p* unsure, issue 32, in its why)
check "the recommendation names every curve it weighed" \
    eval 'jq -r ".recommendations.entries[0] | .verdict + .why" "$A" | grep -q "local .*; 1 target .*; 3 targets .*; scattered frames, cold page tables: local p\* = "'
# an older report (no working_set_form, no flush_ceiling_refill): html and compare name
# what it lacks, never a value for it
OLD=$here/build/test-runs/sim/flush-ceiling-older.json
jq 'del(.method.flush_ceiling_refill, .method.flush_ceiling_metric) | (.experiments[] | select(.id == "flush_ceiling") | .results[], .summary[])
    |= (del(.params.working_set_form) | del(.metrics.target_refill, .metrics.initiator_refill, .metrics.work, .metrics.critical_path)
        | del(.values.work_p25, .values.work_p75, .values.pages_measured, .values.p_star_critical))
    | (.experiments[] | select(.id == "flush_ceiling") | .results) |= unique_by(.params | [.kind, .targets, .working_set, .pages, .mode])
    | (.experiments[] | select(.id == "flush_ceiling") | .summary) |= unique_by(.params | [.kind, .targets, .working_set, .full])
    | .recommendations.entries[0].evidence.points = []' "$A" >"$OLD"
check "an older flush_ceiling report validates" "$TOOL" validate "$OLD"
check "html of it and a new one: the older curves say their form is not recorded" eval '
    "$TOOL" html -o "$page" A="$A" B="$OLD" &&
    [ "$(grep -c "B: local, working set [0-9]* pages, working-set form not recorded" "$page")" = 2 ]'
check "compare names the refill method the older report lacks" eval '
    "$TOOL" compare "$A" "$OLD" | grep -qE "^  flush ceiling refill +after_ack +- *$"'
check "show names the fields the older report lacks, and not on a new one" eval '
    "$TOOL" show "$OLD" | grep -q "^  not recorded in this report: parameter working_set_form" &&
    "$TOOL" show "$OLD" | grep -q "^  not recorded in this report: metric target_refill" &&
    ! "$TOOL" show "$A" | grep -q "not recorded in this report"'
S8=tests/fixtures/reports/schema1/sim/sim-epyc7763-smp8.json
check "show of a sample from before issue 20: INVLPGB's path and PTI's working set not recorded" eval '
    "$TOOL" show "$S8" | grep -q "^  not recorded in this report: parameter path (which INVLPGB path" &&
    "$TOOL" show "$S8" | grep -q "^  not recorded in this report: parameter working_set (the user working set"'
echo "1..$n_test"
