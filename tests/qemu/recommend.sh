#!/usr/bin/env bash
# flush_ceiling and the recommendations under QEMU TCG (issue 11): a quick
# SMP 4 run of every experiment with the exact shape (tests/qemu/shape.jq:
# flush_ceiling's grid, verification reads, p* recomputed from its points);
# the recommendations present, every entry labelled virtualised and not
# describing hardware, evidence pointing at existing points of the right
# experiment, and the entries whose experiment SKIPs under TCG (INVLPGB,
# PTI: no PCID) saying "not enough evidence" with the CPUID reason.
source "$(dirname "$0")/lib.sh"

SMP=4 ARGS="profile=quick run_budget_s=0" boot "recommend-smp4"
check_healthy_run "recommend" 4 profile=quick
if [ -s "$REPORT" ]; then
    check "the run and every entry are labelled virtualised, none describes hardware" \
        test "$(jqr '[.recommendations.environment] + [.recommendations.entries[] | .environment, (.describes_hardware | tostring)] | unique | join(",")')" = "false,virtualised"
    check "five entries, in the schema's order" \
        test "$(jqr '[.recommendations.entries[].id] | join(",")')" = "flush_ceiling,invlpgb_vs_ipi,shootdown_order,lazy_skip,pti_user_flush"
    check "every evidence point exists in its experiment" \
        test "$(jqr '. as $r | [.recommendations.entries[] | .evidence as $e | select($e.experiment != null)
                     | ($r.experiments[] | select(.id == $e.experiment) | .results | length) as $n
                     | $e.points[] | . >= 0 and . < $n] | all')" = true
    # issue 20: the local and shootdown curves of one working set (contiguous), and the cold one
    check "flush_ceiling cites invlpg and full_cr3 points of one working set: local and shootdown curves, and the cold local one" \
        test "$(jqr '. as $r | ($r.experiments[] | select(.id == "flush_ceiling") | .results) as $pts
                     | [.recommendations.entries[0].evidence.points[] | $pts[.].params | [.kind, .mode, (.working_set | tostring), .working_set_form]]
                     | unique | map(join(":")) | join(",")')" = \
        "local:full_cr3:512:contiguous,local:full_cr3:512:scattered_cold,local:invlpg:512:contiguous,local:invlpg:512:scattered_cold,shootdown:full_cr3:512:contiguous,shootdown:invlpg:512:contiguous"
    check "INVLPGB and PTI: not enough evidence, with the experiment's SKIP reason" \
        test "$(jqr '[.recommendations.entries[] | select(.id == "invlpgb_vs_ipi" or .id == "pti_user_flush")
                     | [.status, (.confidence == null), (.why | test("skipped: no (INVLPGB|PCID)"))] | map(tostring) | join(":")] | join(",")')" = \
        "not_enough_evidence:true:true,not_enough_evidence:true:true"
    check "the text summary's block says virtualised" \
        grep -q "^What this machine suggests \[virtualised: " "${REPORT%.json}.txt"
    check "show prints it (flush_ceiling's entry wrapped under its id, labelled)" \
        eval '"$TOOL" show "$REPORT" | sed -n "/^  flush_ceiling /,/^  [a-z]/p" | tr -s " \n" " " | grep -q "\[virtualised: does not describe hardware\]"'
    check "flush_ceiling's p* and shootdown_order's saving each with a 95% paired-bootstrap interval" \
        test "$(jqr '[.recommendations.entries[0, 2] | .interval | [.of, .level_percent, .method] | map(tostring) | join(":")] | join(",")')" = \
        "p_star:95:paired_bootstrap,saving:95:paired_bootstrap"
    check "the text summary states them, within 80 columns" \
        eval 'sed -n "/^What this machine suggests/,/^\$/p" "${REPORT%.json}.txt" | tr "\n" " " | grep -q "95% interval" &&
              ! sed -n "/^What this machine suggests/,/^\$/p" "${REPORT%.json}.txt" | grep -q ".\{81\}"'
    check "no p99 from fewer than 100 samples, no p90 from fewer than 10" \
        test "$(jqr '[.experiments[] | (.results, .summary)[] | .metrics[]
                      | select((.p99 != null and .n < 100) or (.p90 != null and .n < 10))] | length')" = 0
    check "the variant order's seed in the report and the text summary" \
        eval '[ "$(jqr .method.variant_order)" = random_per_iteration ] &&
              grep -q "^Order     variants in random order per iteration, order_seed=$(jqr .method.order_seed)$" "${REPORT%.json}.txt"'
fi
echo "1..$n_test"
