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

# - item 12: shootdown_contention's steady points run 3 windows (100 ms unless the key or the
#   budget says otherwise): the median rate with its spread and the rate without the remaps
#   (never below it); latency points carry no round rate; compare warns when two reports'
#   windows differ; a run with more modelled CPUs than host cores says so in run.warnings.
CT=(--cpu epyc-7763 --cpus 4 --seed 7 profile=quick run_budget_s=0 samples=10 warmup=1
    experiments=shootdown_contention)
sim numbers-ct20 "$SIM" "${CT[@]}" contention_window_ms=20
A=$REPORT
check "contention: clean, the exact shape (3 windows' checks, spread around the median)" \
    eval 'clean && shape_ok "$A" cpus=4 profile=quick samples=10 warmup=1 experiments=shootdown_contention'
check "contention: every steady point 3 windows of about 20 ms, min <= median <= max <= ... , no remap >= median" \
    test "$(jqr '[.experiments[0].results[] | select(.params.measure == "steady") | .values
                 | .windows == 3 and .window_ms >= 20 and .window_ms < 40
                   and .shootdowns_per_s_min <= .shootdowns_per_s and .shootdowns_per_s <= .shootdowns_per_s_max
                   and .shootdowns_per_s_no_remap >= .shootdowns_per_s] | all')" = true
check "contention: no round rate on the latency points (1/window at m = 1 is no throughput)" \
    test "$(jqr '[.experiments[0].results[] | .values.round_shootdowns_per_s] | map(select(. != null)) | length')" = 0
check "contention: the note names the window and how many a point" \
    test "$(jqr '[.experiments[0].notes[] | select(. == "steady window 20 ms x 3 per point (contention_window_ms)")] | length')" = 1
cores=$(getconf _NPROCESSORS_ONLN)
if [ "$cores" -lt 4 ]; then
    check "4 modelled CPUs on $cores host cores: run.warnings says the host time-slices them" \
        test "$(jqr '[.run.warnings[] | select(.where == "sim" and (.message | test("^4 modelled CPUs, [0-9]+ host cores: concurrent timings are time-sliced$")))] | length')" = 1
else
    check "4 modelled CPUs on $cores host cores: no oversubscription warning" \
        test "$(jqr '[.run.warnings[] | select(.where == "sim")] | length')" = 0
fi
sim numbers-ct20b "$SIM" "${CT[@]}" contention_window_ms=20 --seed 8
B=$REPORT
sim numbers-ct50 "$SIM" "${CT[@]}" contention_window_ms=50
C=$REPORT
check "compare: the same windows, no window warning" \
    eval '! "$TOOL" compare "$A" "$B" 2>&1 | grep -q "steady windows differ"'
check "compare: windows of 20 and 50 ms, a warning naming both" \
    eval '"$TOOL" compare "$A" "$C" 2>&1 | tr -s " \n" " " | grep -Eq "WARNING: shootdown_contention.s steady windows differ: [^ ]+ 2[0-9] ms, [^ ]+ [5-9][0-9] ms"'

# - item 13: where Linux would send IPIs in x2APIC cluster mode (--iommu: interrupt remapping,
#   x2APIC on xeon-8180), shootdown_lazy, shootdown_contention and invlpgb_range send theirs so:
#   a note each, `ipi_mode` x2apic_cluster on every point that sends flush IPIs; without the
#   remapping (Linux: physflat) none.
CL=(--cpu xeon-8180 --cpus 4 --seed 3 profile=quick run_budget_s=0 samples=20 warmup=1
    emulate=invlpgb contention_window_ms=10 experiments=shootdown_lazy,shootdown_contention,invlpgb_range)
sim numbers-cluster "$SIM" "${CL[@]}" --iommu
check "--iommu on xeon-8180: Linux's mode is x2apic_cluster; clean, the exact shape" \
    eval '[ "$(jqr .method.linux_ipi_mode.mode)" = x2apic_cluster ] && clean &&
          shape_ok "$REPORT" cpus=4 profile=quick samples=20 warmup=1 emulate=invlpgb experiments=shootdown_lazy,shootdown_contention,invlpgb_range'
check "cluster mode: every lazy point, every ipi point of contention and invlpgb_range says ipi_mode x2apic_cluster, the others none" \
    test "$(jqr '[.experiments[] | .id as $id | .results[]
                  | ((.params.ipi_mode == "x2apic_cluster") == ($id == "shootdown_lazy" or .params.method == "ipi"))] | all')" = true
check "cluster mode: each of the three experiments notes it" \
    test "$(jqr '[.experiments[] | [.notes[] | select(startswith("flush IPIs in x2APIC cluster mode, as Linux"))] | length] | join(",")')" = "1,1,1"
sim numbers-phys "$SIM" "${CL[@]}"
check "without interrupt remapping (Linux: physflat): clean, no point in cluster mode" \
    eval 'clean && [ "$(jqr .method.linux_ipi_mode.mode)" = physflat ] &&
          [ "$(jqr "[.experiments[].results[] | select(.params.ipi_mode)] | length")" = 0 ]'
