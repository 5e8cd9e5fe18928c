#!/usr/bin/env bash
# The tool's own protocol, step by step (method.protocol_steps, core/exp/protocol_steps.h), on
# the modelled machine: ipi_roundtrip's BSP -> CPU 1 pings and shootdown_seq_vs_conc's 1-page
# concurrent shootdown to one target, each step's p50 and mean on the clock it names; the
# derived rest is the round trip less the ICR write and the handler, sample by sample (so the
# means add up), and the pairs' round trips carry no clock read of the handler's.
source "$(dirname "$0")/lib.sh"

sim protocol-steps "$SIM" --cpu qemu-tcg --cpus 2 --seed "${TLBSCOPE_SIM_SEED:-23}" profile=quick \
    run_budget_s=0 samples=100 experiments=ipi_roundtrip,shootdown_seq_vs_conc
check "2 CPUs, ipi_roundtrip + shootdown_seq_vs_conc: clean" clean
check "method.protocol_steps.ipi: 0 -> 1, 100 samples, the 8 steps in order, each on its clock" \
    test "$(jqr '.method.protocol_steps.ipi | [.initiator, .target, .samples, ([.steps[] | .step + ":" + .clock] | join(","))] | map(tostring) | join("|")')" = \
        "0|1|100|roundtrip:initiator,icr_write:initiator,handler:target,delivery_entry_ack:derived,eoi_write:initiator,wait_exit:initiator,timestamps:initiator,settle:initiator"
# means add up where no sample's rest was clamped at 0 (integer division: within 2 ticks)
check "ipi: the means add up (roundtrip = icr_write + handler + delivery_entry_ack), every p50 > 0" \
    test "$(jqr '.method.protocol_steps.ipi.steps | (map({(.step): .mean_ticks}) | add) as $m
        | (($m.roundtrip - $m.icr_write - $m.handler - $m.delivery_entry_ack) | fabs) <= 2 and (map(.p50_ticks > 0) | all)')" = true
check "ipi: p50_ns from the TSC rate" \
    test "$(jqr '(.cpu.tsc_hz // .cpu.tsc.hz) as $hz | .method.protocol_steps.ipi.steps | map(.p50_ns == ((.p50_ticks * 1000000000 / $hz) | floor)) | all')" = true
check "method.protocol_steps.shootdown: the 1-page conc point to one target, its 4 parts" \
    test "$(jqr '.method.protocol_steps.shootdown | [.samples, ([.steps[].step] | join(","))] | map(tostring) | join("|")')" = \
        "100|shootdown,shootdown_send,shootdown_handler,shootdown_delivery_entry_ack"
check "shootdown: its latency p50 is the point's (conc, 1 page, 1 target)" \
    test "$(jqr '[.method.protocol_steps.shootdown.steps[0].p50_ticks] == [.experiments[] | select(.id == "shootdown_seq_vs_conc") | .results[] | select(.params.mode == "conc" and .params.pages == 1 and .params.targets == 1 and .params.flush == "invlpg" and .params.placement == null) | .metrics.latency.p50][0:1]')" = true
check "the text summary shows the steps" \
    grep -q "^Protocol  IPI 0->1, p50 of 100" "${REPORT%.json}.txt"

echo "1..$n_test"
