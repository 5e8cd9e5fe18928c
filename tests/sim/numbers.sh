#!/usr/bin/env bash
# Issue 32, part C on the strict model: numbers that add up and say what they are.
#  - item 9: every shootdown_seq_vs_conc point's breakdown is means that add up
#    to its mean latency (seq: send, local flush, handler, delivery+ack; conc:
#    the same but the local flush, which runs inside its wait), within rounding;
#    the handler is the last acknowledger's: never above the slowest handler,
#    and the point names which target that was (one of its targets) and how
#    often; `tlbscope-report show` prints the means.
source "$(dirname "$0")/lib.sh"

sim numbers-sc "$SIM" --cpu epyc-7763 --cpus 4 --seed 5 run_budget_s=0 samples=30 warmup=1 \
    experiments=shootdown_seq_vs_conc
check "seq/conc on the model: clean, the exact shape (its breakdown check sums the means)" \
    eval 'clean && shape_ok "$REPORT" cpus=4 samples=30 warmup=1 experiments=shootdown_seq_vs_conc'
# per point: |sum of parts - mean latency| in ticks, the largest
worst=$(jqr '[.experiments[0].results[] | (.values.send_mean + .values.last_handler_mean
              + .values.delivery_ack_mean + (if .params.mode == "seq" then .values.local_flush_mean else 0 end)
              - .metrics.latency.mean) | fabs] | max')
check "the means add up to the mean latency within rounding (worst $worst ticks)" \
    eval 'jq -en --argjson w "$worst" "\$w <= 1.01" >/dev/null'
check "the handler subtracted is at most the slowest handler's mean, on every point" \
    test "$(jqr '[.experiments[0].results[] | .values.last_handler_mean <= .metrics.remote_handler.mean + 1] | all')" = true
# the grid's targets are the nearest first: CPUs 1..k of the initiator 0 (placement points aside)
check "last_ack_cpu is one of the point's targets, last_ack_share in (0, 1]" \
    test "$(jqr '[.experiments[0].results[] | select(.params.placement == null and .params.ipi_mode == null)
                 | .values.last_ack_cpu >= 1 and .values.last_ack_cpu <= .params.targets
                   and .values.last_ack_share > 0 and .values.last_ack_share <= 1] | all')" = true
check "with one target that target acked last every time" \
    test "$(jqr '[.experiments[0].results[] | select(.params.targets == 1) | .values.last_ack_share == 1] | all')" = true
check "tlbscope-report show prints the means, saying they add up" \
    eval '"$TOOL" show "$REPORT" | grep -q "mean of each part (they add up to the mean latency"'
