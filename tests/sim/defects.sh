#!/usr/bin/env bash
# The defects the strict TLB model exposed on the paths only real servers
# reach, each with the run that showed it (these failed before their fixes;
# the commit messages give the numbers):
#  1. PTI: user-PCID entries survived shootdown_sync_all (odd sample counts)
#  2. invlpgb_range, 2 MiB form, IPI side: 4 KiB addresses flushed at ceiling >= 512
#  3. INVLPGB ranges cut at 80 operations (512 pages, 5 per INVLPGB)
#  4. a BSP fault inside an experiment left its targets polling freed state
#  5. the seq/conc order: tests/host/test_shootdown_model.c, tests/sim/mutants.sh
#  6. boot_smp.sh's evidence check: tests/checks/evidence_check.sh
source "$(dirname "$0")/lib.sh"

SEED=${TLBSCOPE_SIM_SEED:-77}
EPYC=(--cpu epyc-7763 --cpus 4 --seed "$SEED" profile=quick)

for s in "samples=11 warmup=0" "samples=13 warmup=2" "samples=999 warmup=0"; do
    # shellcheck disable=SC2086
    sim "pti-${s// /-}" "$SIM" "${EPYC[@]}" $s experiments=pti_double_invalidation
    check "defect 1 ($s): pti_double_invalidation SUCCESS with zero stale reads" \
        eval 'clean && [ "$(exp_status pti_double_invalidation)" = SUCCESS ]'
    check "defect 1 ($s): every variant measured (INVPCID and deferred user flush)" \
        test "$(exp_field pti_double_invalidation '[.results[].params.variant] | unique | join(",")')" = \
        "invlpg_deferred,invlpg_invpcid,no_pti"
done

for c in 512 4096; do
    sim "invlpgb-ceiling-$c" "$SIM" "${EPYC[@]}" samples=10 "ceiling=$c" experiments=invlpgb_range
    check "defect 2 (ceiling=$c): invlpgb_range SUCCESS with zero stale reads" \
        eval 'clean && [ "$(exp_status invlpgb_range)" = SUCCESS ]'
    check "defect 2 (ceiling=$c): the 2 MiB form was measured both ways" \
        test "$(exp_field invlpgb_range '[.results[] | select(.params.form == "stride_2m")] | length')" = 6
done

for max in 5 3 1; do
    sim "invlpgb-max-$max" "$SIM" "${EPYC[@]}" samples=10 ceiling=4096 --invlpgb-max "$max" \
        experiments=invlpgb_range
    check "defect 3 (--invlpgb-max $max, 512 pages): invlpgb_range SUCCESS with zero stale reads" \
        eval 'clean && [ "$(exp_status invlpgb_range)" = SUCCESS ]'
    check "defect 3 (--invlpgb-max $max): the report says the count was changed, and the maximum" \
        test "$(jqr 'if .simulation.cpuid_override != null then .cpu.features.invlpgb_max_pages else "none" end')" = "$max"
done

# Under AddressSanitizer: without the fix the spinning targets read the experiment's
# freed state (a silent use after free in a plain build, where reused memory let
# them leave by chance; on OVMF its 0xAF fill of freed pool did the same).
ASAN_SIM=$here/build/asan/tlbscope-sim
[ -x "$ASAN_SIM" ] || make --no-print-directory sim-asan >/dev/null 2>&1
export ASAN_OPTIONS=detect_leaks=0:exitcode=86
for v in 13 6; do
    start=$(date +%s)
    sim "bsp-fault-$v" "$ASAN_SIM" "${EPYC[@]}" samples=10 "inject=fault:0:$v"
    took=$(( $(date +%s) - start ))
    check "defect 4 (BSP #$v): no memory error (AddressSanitizer)" \
        eval '! grep -q "ERROR: AddressSanitizer" "$LOG"'
    check "defect 4 (BSP #$v): its 3 busy targets were stopped before its cleanup" \
        test "$(exp_field stale_detector_control '.notes | join(";")')" = \
        "3 CPUs were still running its commands: stopped before its cleanup"
    check "defect 4 (BSP #$v): the run ends with ERROR (exit 1) and a report that validates" \
        eval '[ "$RC" = 1 ] && [ "$(jqr .result)" = ERROR ] && validates'
    check "defect 4 (BSP #$v): the experiment it hit is ERROR naming the BSP's exception" \
        eval '[[ "$(exp_field stale_detector_control .reason)" == "the BSP took exception $v "* ]]'
    check "defect 4 (BSP #$v): its targets were stopped: every CPU still ok, none hung or slow" \
        test "$(jqr '[.topology.cpus[] | select(.state != "ok")] | length')" = 0
    check "defect 4 (BSP #$v): the experiments after it ran clean" \
        test "$(jqr '[.experiments[] | select(.id != "stale_detector_control") | .status] | unique | join(",")')" = SUCCESS
    check "defect 4 (BSP #$v): every AP released, no error but the injected one" \
        eval 'grep -q "^CPUs: released" "$LOG" && [ "$(jqr ".run.errors | length")" = 0 ]'
    check "defect 4 (BSP #$v): no wait ran to a deadline ($took s)" test "$took" -lt 30
done
