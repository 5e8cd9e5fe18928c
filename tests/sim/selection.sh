#!/usr/bin/env bash
# cpus= on every experiment (issue 10, item 6), on the strict TLB model with a
# CPU that has everything (EPYC 7763: PCID, INVPCID, INVLPGB):
#   - cpus=0 (the BSP alone): every experiment that needs another CPU is SKIP
#     with the reason; the stale control and PTI's local points run on the
#     BSP alone (PTI notes what it left out); nothing says "out of memory",
#     nothing is SUCCESS with zero points;
#   - cpus=0,2 on 4 CPUs: no experiment uses CPU 1 or 3: every point naming
#     its CPUs names 2, every pair and target set lies within {0, 2}, and
#     the verification reads of every experiment are those of 2 CPUs.
source "$(dirname "$0")/lib.sh"

SEED=${TLBSCOPE_SIM_SEED:-4242}
BASE=(--cpu epyc-7763 --cpus 4 --seed "$SEED" profile=quick run_budget_s=0 samples=10 warmup=1)

sim "cpus-bsp-alone" "$SIM" "${BASE[@]}" cpus=0
check "cpus=0: exit 0, a report" test "$RC/$([ -s "$REPORT" ] && echo y)" = 0/y
for id in ipi_roundtrip ipi_broadcast shootdown_seq_vs_conc shootdown_lazy invlpgb_range; do
    check "cpus=0: $id SKIP, needs 2 CPUs, 3 left out by cpus=" \
        test "$(exp_status $id)/$(exp_field $id .reason)" = \
        "SKIP/needs at least 2 CPUs; 1 usable (3 left out by cpus=)"
done
check "cpus=0: stale_detector_control SUCCESS on the BSP alone" \
    test "$(exp_status stale_detector_control)/$(exp_field stale_detector_control '.results[0].params.cpus')" = SUCCESS/1
check "cpus=0: pti_double_invalidation SUCCESS, only local points, each on 1 CPU" \
    test "$(exp_status pti_double_invalidation)/$(exp_field pti_double_invalidation '[.results[].params | "\(.kind)/\(.cpus)"] | unique | join(",")')" = SUCCESS/local/1
check "cpus=0: pti_double_invalidation notes the shootdown kinds it could not measure" \
    test "$(exp_field pti_double_invalidation '[.notes[] | select(startswith("shootdown_seq and shootdown_conc not measured"))] | length')" = 1
check "cpus=0: no SUCCESS without points, no 'out of memory' anywhere" \
    test "$(jqr '[.experiments[] | select(.status == "SUCCESS" and (.results | length) == 0)] | length')/$(grep -ac 'out of memory' "$LOG")" = 0/0

sim "cpus-0-2" "$SIM" "${BASE[@]}" cpus=0,2
check "cpus=0,2: clean, every experiment SUCCESS" \
    eval 'clean && [ "$(jqr "[.experiments[].status] | unique | join(\",\")")" = SUCCESS ]'
check "cpus=0,2: CPUs 1 and 3 excluded in the topology" \
    test "$(jqr '[.topology.cpus[] | select(.state == "excluded") | .index] | join(",")')" = 1,3
check "cpus=0,2: every point that names its CPUs names 2 (control, PTI, INVLPGB)" \
    test "$(jqr '[.experiments[] | select(.id == "stale_detector_control" or .id == "pti_double_invalidation" or .id == "invlpgb_range") | .results[].params | select(.kind != "local") | .cpus] | unique | join(",")')" = 2
check "cpus=0,2: ipi_roundtrip pairs within {0,2}" \
    test "$(exp_field ipi_roundtrip '[.results[].params | "\(.initiator)>\(.target)"] | join(",")')" = "0>2,2>0"
check "cpus=0,2: shootdowns and lazy sets of 1 target" \
    test "$(exp_field shootdown_seq_vs_conc '[.results[].params.targets] | unique | join(",")')/$(exp_field shootdown_lazy '[.results[].params.targets] | unique | join(",")')" = 1/1
check "cpus=0,2: the stale control read on 2 CPUs (16 rounds x 2)" \
    test "$(exp_field stale_detector_control .verification.checks)" = 32
