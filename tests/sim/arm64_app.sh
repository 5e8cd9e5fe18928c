#!/usr/bin/env bash
# tlbscope-sim --arch aarch64: the aarch64 app's experiments (core/exp/arm64/) on the
# strict aarch64 model (sim/arm64/), every profile at 4 CPUs, samples=10 run_budget_s=0.
# Each run must be COMPLETE with zero stale reads on every verified experiment, the
# control must see stale reads, the profile's ID_AA64ISAR0_EL1.TLB must decide the
# methods (no FEAT_TLBIRANGE: tlbi_range SKIP with the register as evidence and
# flush_ceiling per_page; with it: tlbi_range measured, flush_ceiling range), every
# target of ipi_roundtrip must have taken each ping through the IRQ handler, and the
# report must validate, labelled simulated. A64SIM (the binary) and A64_PROFILES (the
# profiles) may be given: tests/sim/mutants.sh runs this on its mutants' drivers.
source "$(dirname "$0")/lib.sh"

A64SIM=${A64SIM:-$SIM}
SEED=${TLBSCOPE_SIM_SEED:-6464}
PROFILES=${A64_PROFILES:-neoverse-n1 neoverse-v1 neoverse-v2 cortex-a72}
# what each profile's ID_AA64ISAR0_EL1.TLB [59:56] says (sim/arm64/profiles.c): 0 or 2
declare -A tlb=([neoverse-n1]=0 [neoverse-v1]=2 [neoverse-v2]=2 [cortex-a72]=0)

# the experiments that verify, all SUCCESS with zero stale reads
verified_clean() {
    test "$(jqr '[.experiments[] | select(.verification.applicable and .id != "stale_detector_control")
        | select(.status != "SUCCESS" or .verification.stale_reads != 0 or .verification.checks == 0)] | length')" = 0
}
# fc_modes: flush_ceiling's single-page mode words
fc_modes() { jqr '[.experiments[] | select(.id == "flush_ceiling") | .results[].params.mode] | unique | join(",")'; }

for profile in $PROFILES; do
    a=()
    [ "$A64SIM" = "$SIM" ] && a=(--arch aarch64) # through tlbscope-sim's dispatch
    sim "a64-$profile" "$A64SIM" "${a[@]}" --cpu "$profile" --cpus 4 --seed "$SEED" samples=10 run_budget_s=0
    check "$profile: exit 0, COMPLETE, labelled simulated" \
        eval '[ "$RC" = 0 ] && [ -s "$REPORT" ] && [ "$(jqr .verdict.word)" = COMPLETE ] &&
              [ "$(jqr "[.architecture, .simulated, .simulation.profile, .recommendations.environment] | map(tostring) | join(\"|\")")" = "aarch64|true|$profile|simulated" ] &&
              grep -aq "^RESULT: COMPLETE.*\[SIMULATED\]" "$LOG"'
    check "$profile: the report validates" validates
    check "$profile: no run error (the model refused nothing)" test "$(jqr '.run.errors | length')" = 0
    check "$profile: every verified experiment SUCCESS with zero stale reads" verified_clean
    check "$profile: the control sees stale reads" \
        test "$(exp_field stale_detector_control '[.status, (.verification.stale_reads > 0)] | map(tostring) | join("|")')" = "SUCCESS|true"
    check "$profile: simulated, the model and profile named, the verdict [SIMULATED] (host time, as x86's model runs)" \
        test "$(jqr '[.simulated, .simulation.profile, (.verdict.line | endswith("[SIMULATED]"))] | map(tostring) | join("|")')" = "true|$profile|true"
    check "$profile: ipi_roundtrip, 3 targets, each of their 10 pings through the IRQ handler (irq_entries = samples)" \
        test "$(exp_field ipi_roundtrip '[.status, (.results | length), ([.results[] | [.values.irq_entries, .metrics.latency.n]] | unique | map(map(tostring) | join("/")) | join(","))] | map(tostring) | join("|")')" = "SUCCESS|3|10/10"
    if [ "${tlb[$profile]}" = 0 ]; then
        check "$profile: no FEAT_TLBIRANGE: tlbi_range SKIP with the ISAR0 evidence" \
            eval '[ "$(exp_status tlbi_range)" = SKIP ] && [[ "$(exp_field tlbi_range .reason)" == *"ID_AA64ISAR0_EL1.TLB [59:56] = 0"* ]]'
        check "$profile: flush_ceiling's single-page path is per_page" test "$(fc_modes)" = "full_asid,per_page"
        check "$profile: no broadcast_os (no FEAT_TLBIOS)" \
            test "$(exp_field tlbi_broadcast_vs_ipi '[.results[].params.method] | unique | join(",")')" = "broadcast,ipi_local"
    else
        check "$profile: FEAT_TLBIRANGE: tlbi_range measured (per_page, range, asid)" \
            test "$(exp_field tlbi_range '[.status, ([.results[].params.method] | unique | join(","))] | join("|")')" = "SUCCESS|asid,per_page,range"
        check "$profile: flush_ceiling's single-page path is range" test "$(fc_modes)" = "full_asid,range"
        check "$profile: broadcast_os measured (FEAT_TLBIOS)" \
            test "$(exp_field tlbi_broadcast_vs_ipi '[.results[].params.method] | unique | join(",")')" = "broadcast,broadcast_os,ipi_local"
    fi
done
# the app's MAX_CPUS on 2 host cores: idle and polling CPUs must leave the cores to the busy
# ones, or waits run into their deadlines (the run took 6 minutes and lost a CPU once)
if [ -z "${A64_PROFILES:-}" ]; then
    SIM_TIMEOUT=120 sim "a64-16cpus" "$A64SIM" --arch aarch64 --cpu neoverse-v2 --cpus 16 --seed "$SEED" \
        samples=10 run_budget_s=0
    check "neoverse-v2 at 16 CPUs: COMPLETE, every CPU ok, zero stale reads, valid, within 2 minutes" \
        eval '[ "$RC" = 0 ] && [ "$(jqr "[.verdict.word, .topology.cpus_ok] | map(tostring) | join(\"|\")")" = "COMPLETE|16" ] &&
              verified_clean && validates'
fi
echo "# SUMMARY: the aarch64 app on the strict aarch64 model: $PROFILES"
