#!/usr/bin/env bash
# Shootdown experiments (issue 4) with 2 and 4 CPUs: all five present,
# seq/conc, lazy and the negative control SUCCESS with zero stale reads,
# PTI and INVLPGB SKIP with CPUID evidence; emulate=invlpgb,invpcid runs the
# INVLPGB path emulated, labelled as such.
source "$(dirname "$0")/lib.sh"

for smp in 2 4; do
    SMP=$smp ARGS="profile=quick" boot "shootdown-smp$smp"
    check_healthy_run "smp=$smp" "$smp"
    [ -s "$REPORT" ] || continue
    for id in shootdown_seq_vs_conc shootdown_lazy stale_detector_control; do
        check "smp=$smp: $id SUCCESS" test "$(exp_status $id)" = SUCCESS
    done
    check "smp=$smp: seq/conc covers pages 1..512 and both orders" \
        test "$(exp_field shootdown_seq_vs_conc '[.results[].params.pages] | unique | length')/$(exp_field shootdown_seq_vs_conc '[.results[].params.mode] | unique | join(",")')" = "9/conc,seq"
    check "smp=$smp: seq/conc verified every sample" \
        test "$(exp_field shootdown_seq_vs_conc .verification.checks)" -gt 0
    check "smp=$smp: lazy has all four policies" \
        test "$(exp_field shootdown_lazy '[.results[].params.variant] | unique | length')" = 4
    check "smp=$smp: the control saw stale entries (verifier not blind)" \
        test "$(exp_field stale_detector_control '.results[0].values.cpus_reading_stale_max')" != 0
    check "smp=$smp: PTI SKIP citing CPUID.01H:ECX[17]" \
        eval '[[ "$(exp_status pti_double_invalidation)" == SKIP && "$(exp_field pti_double_invalidation .reason)" == *"CPUID.01H:ECX[17]"* ]]'
    check "smp=$smp: INVLPGB SKIP citing CPUID 8000_0008 EBX[3]" \
        eval '[[ "$(exp_status invlpgb_range)" == SKIP && "$(exp_field invlpgb_range .reason)" == *"8000_0008 EBX[3]"* ]]'
    check "smp=$smp: nothing claims to be emulated" \
        test "$(jqr '[.experiments[].emulated] | any')" = false
done

SMP=4 ARGS="profile=quick emulate=invlpgb,invpcid" boot "shootdown-emulated"
check_healthy_run "emulated" 4
if [ -s "$REPORT" ]; then
    check "emulated: invlpgb_range ran, emulated, SUCCESS" \
        test "$(exp_status invlpgb_range)/$(exp_field invlpgb_range .emulated)" = SUCCESS/true
    check "emulated: INVLPGB and IPI points for all three forms" \
        test "$(exp_field invlpgb_range '[.results[] | .params.method + "/" + .params.form] | unique | length')" = 6
    check "emulated: zero stale reads over the emulated broadcast" \
        test "$(exp_field invlpgb_range .verification.stale_reads)/$(exp_field invlpgb_range '.verification.checks > 0')" = 0/true
    check "emulated: printed as [EMULATED] on the console" log_has '^PASS: invlpgb_range \[EMULATED\]'
    check "emulated: full flushes via emulated INVPCID are labelled too" \
        test "$(jqr .method.full_flush_emulated)/$(exp_field shootdown_seq_vs_conc .emulated)" = true/true
    check "emulated: PTI still SKIP (CR4.PCIDE cannot be emulated)" test "$(exp_status pti_double_invalidation)" = SKIP
fi
