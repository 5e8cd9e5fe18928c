#!/usr/bin/env bash
# Shootdown experiments (issue 4) with 2 and 4 CPUs: all ten present, each
# with the exact shape tests/qemu/shape.jq derives from the experiments' code:
# seq/conc, lazy and the negative control SUCCESS over their full parameter
# grids, with exactly as many verification reads as samples, warm-up, targets
# and pages make and zero stale; the control seeing every CPU read stale in
# every round; PTI and INVLPGB SKIP with CPUID evidence. emulate=invlpgb,invpcid
# runs the INVLPGB path emulated, labelled as such, and the emulator's own
# counts of INVLPGB and TLBSYNC prove that each invlpgb point ran INVLPGB.
# (tests/checks/shape_check.sh and tests/sim/mutants.sh show that these checks
# fail on the bugs the earlier, looser ones let through.)
source "$(dirname "$0")/lib.sh"

for smp in 2 4; do
    SMP=$smp ARGS="profile=quick run_budget_s=0" boot "shootdown-smp$smp"
    check_healthy_run "smp=$smp" "$smp" profile=quick
    [ -s "$REPORT" ] || continue
    check "smp=$smp: PTI and INVLPGB SKIP with the CPUID evidence" features_absent_with_evidence "$REPORT"
    check "smp=$smp: nothing claims to be emulated" \
        test "$(jqr '[.experiments[].emulated] | any')" = false
    [ "$smp" = 4 ] && FRESH4=$REPORT
done

# issue 23: this fresh report against every shipped sample (schema version 1, no `flush`
# parameter): compare aligns the points of every experiment both measured, exit 0, 80 columns
if [ -s "${FRESH4:-}" ]; then
    check "fresh smp=4: the text summary fits 80 columns (the UEFI console is 80x25)" \
        test "$(awk '{ if (length > m) m = length } END { print m + 0 }' "${FRESH4%.json}.txt")" -le 80
    for s in "$here"/reports/samples/qemu-*.json; do
        b=$(basename "$s" .json)
        "$TOOL" compare --json "$s" "$FRESH4" >"$RUN/compare-$b.json" 2>"$RUN/compare-$b.err"
        cmp_rc=$?
        "$TOOL" compare "$s" "$FRESH4" >"$RUN/compare-$b.txt" 2>&1
        check "fresh smp=4 vs sample $b: exit 0, every experiment both measured compared, 80 columns" \
            eval '[ $cmp_rc = 0 ] && jq -e "[.experiments[] | select([.rows[].cells[].side] + [.unmatched[].cells[].side]
                      | unique | length == 2) | [.rows[].cells[] | select(.ratio != null)] | length > 0] | all" \
                      "$RUN/compare-$b.json" >/dev/null &&
                  [ "$(awk "{ if (length > m) m = length } END { print m + 0 }" "$RUN/compare-$b.txt")" -le 80 ]'
    done
fi

SMP=4 ARGS="profile=quick run_budget_s=0 emulate=invlpgb,invpcid" boot "shootdown-emulated"
# the shape includes invlpgb_range SUCCESS, emulated, and its INVLPGB/TLBSYNC counts per point
check_healthy_run "emulated" 4 profile=quick emulate=invlpgb,invpcid
if [ -s "$REPORT" ]; then
    check "emulated: printed as [EMULATED] on the console" log_has '^PASS: invlpgb_range \[EMULATED\]'
    check "emulated: full flushes via emulated INVPCID are labelled too" \
        test "$(jqr .method.full_flush_emulated)/$(exp_field shootdown_seq_vs_conc .emulated)" = true/true
    check "emulated: PTI still SKIP (CR4.PCIDE cannot be emulated)" test "$(exp_status pti_double_invalidation)" = SKIP
fi
