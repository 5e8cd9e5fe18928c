#!/usr/bin/env bash
# A firmware that hands over with CR4.LA57 (5-level paging), on the model
# (issue 22): the tool cannot change the paging mode in long mode, so its
# tables must be 5-level (core/run/method.c method_paging_levels, which
# efi/memmap.c and sim/session.c both use). Every experiment on the profiles
# with LA57, the model walking 5 levels and checking 57-bit canonical
# addresses: clean, the exact shape, method.paging_levels 5, the report
# saying the firmware ran with LA57. Four-level tables under LA57 are mutant
# la57_four_levels (tests/sim/mutants.sh); the model's own 5-level semantics
# are tests/host/test_tlb_model.c.
source "$(dirname "$0")/lib.sh"

SEED=${TLBSCOPE_SIM_SEED:-5757}
for profile in epyc-9654 xeon-6330; do
    sim "la57-$profile" "$SIM" --cpu "$profile" --cpus 4 --seed "$SEED" --la57 profile=quick \
        run_budget_s=0 samples=20 warmup=2
    check "$profile --la57: clean (exit 0, zero stale reads, no errors, validates)" clean
    check "$profile --la57: 5-level tables, the firmware's LA57 recorded" \
        test "$(jqr '[.method.paging_levels, .simulation.la57, .cpu.features.la57] | map(tostring) | join("|")')" = "5|true|true"
    check "$profile --la57: every experiment SUCCESS or SKIP with a reason" \
        test "$(jqr '[.experiments[] | select(.status != "SUCCESS" and (.status != "SKIP" or .reason == null))] | length')" = 0
    check "$profile --la57: the exact shape" shape_ok "$REPORT" cpus=4 profile=quick samples=20 warmup=2
    check "$profile --la57: the text summary says so" \
        grep -q '^          firmware with CR4.LA57 (5-level paging)$' "${REPORT%.json}.txt"
done
# without --la57 the same profile keeps 4 levels
sim "no-la57" "$SIM" --cpu epyc-9654 --cpus 2 --seed "$SEED" profile=quick experiments=stale_detector_control
check "epyc-9654 without --la57: 4-level tables, simulation.la57 false" \
    eval 'clean && [ "$(jqr "[.method.paging_levels, .simulation.la57] | map(tostring) | join(\"|\")")" = "4|false" ]'
echo "# SUMMARY: every experiment under a firmware with CR4.LA57 on epyc-9654 and xeon-6330"
