#!/usr/bin/env bash
# The Intel INVLPG/global erratum (ADL063/RPL042: INVLPG with CR4.PCIDE = 1
# may keep global translations) on the modelled Alder Lake (issue 22). The
# i9-12900k profile runs the microcode its dump recorded (0x12), below 0x2e,
# the first revision with the fix, so the model shows the erratum; the tool
# must recognise the CPU and the revision (core/machine/cpu_errata.c, Linux's
# invlpg_miss_ids[]) and run without PCID, as Linux does, saying why. With
# fixed microcode (--microcode 0x2e) the model has no erratum and the tool
# runs with PCID. Every experiment, with and without global pages, both
# microcodes: clean, the exact shape, PTI SKIP with the erratum as its reason
# where PCID is off; and the issue's own command (the default profile, global
# pages) never FAILURE. The decision's unit tests: tests/host/test_cpu_errata.c;
# PCID kept on old microcode is mutant pcid_kept_on_affected (tests/sim/mutants.sh).
source "$(dirname "$0")/lib.sh"

SEED=${TLBSCOPE_SIM_SEED:-2207}
BASE=(--cpu i9-12900k --cpus 4 --seed "$SEED" profile=quick run_budget_s=0 samples=20 warmup=2)
SHAPE=(cpus=4 profile=quick samples=20 warmup=2)

# pcid_says ON REASON_RE: method.pcid_enabled and the reason the report gives
pcid_says() {
    [ "$(jqr .method.pcid_enabled)" = "$1" ] && jqr .method.pcid_reason | grep -Eq "$2"
}

for ucode in 0x12 0x2e; do
    for global in off on; do
        args=("${BASE[@]}" global_pages=$global)
        [ "$ucode" = 0x2e ] && args=(--microcode 0x2e "${args[@]}")
        name="ucode-$ucode-global-$global"
        sim "$name" "$SIM" "${args[@]}"
        what="i9-12900k microcode $ucode, global_pages=$global"
        check "$what: clean (exit 0, zero stale reads, no errors, validates)" clean
        check "$what: every experiment SUCCESS or SKIP with a reason" \
            test "$(jqr '[.experiments[] | select(.status != "SUCCESS" and (.status != "SKIP" or .reason == null))] | length')" = 0
        check "$what: the modelled microcode is recorded" \
            test "$(jqr '[.simulation.microcode, .cpu.microcode.revision, (.topology.cpus | map(.microcode) | unique | join(","))] | join("|")')" = "$ucode|$ucode|$ucode"
        g=0; [ "$global" = on ] && g=1
        if [ "$ucode" = 0x12 ]; then
            check "$what: the model shows the CPU's erratum (its microcode predates the fix)" \
                test "$(jqr '.simulation.errata | join(",")')" = invlpg_ignores_global
            check "$what: PCID off, the reason names the erratum, the CPU and the microcode" \
                pcid_says false '^off: erratum invlpg_global_pcid \(Intel ADL063/RPL042: .*\) on CPU 06-97-02, Alder Lake \(ALDERLAKE\), microcode 0x12 \(fixed from 0x2e\): measured without PCID, as Linux does$'
            check "$what: method.pcid_erratum: the evidence" \
                test "$(jqr '.method.pcid_erratum | [.id, .cpu, .microcode, .fixed_microcode, .affected] | map(tostring) | join("|")')" = "invlpg_global_pcid|06-97-02|0x12|0x2e|true"
            check "$what: pti_double_invalidation SKIP, for the erratum" \
                test "$(exp_status pti_double_invalidation)/$(exp_field pti_double_invalidation '.reason | startswith("PCID off: erratum invlpg_global_pcid")')" = SKIP/true
            check "$what: the text summary prints the decision" \
                grep -q '^PCID      off: erratum invlpg_global_pcid' "${REPORT%.json}.txt"
            check "$what: tlbscope-report show prints it" \
                eval '"$TOOL" show "$REPORT" | grep -q "^PCID      off: erratum invlpg_global_pcid"'
            check "$what: the exact shape (PTI skipped for the erratum)" \
                shape_ok "$REPORT" "${SHAPE[@]}" global_pages=$g pcid_erratum=1
            # the shape is told what to expect: told PCID was on, it must fail
            check "$what: the exact shape fails when told PCID was on" \
                eval '! shape_ok "$REPORT" "${SHAPE[@]}" global_pages=$g pcid_erratum=0 >/dev/null'
        else
            check "$what: no erratum modelled" test "$(jqr '.simulation.errata | length')" = 0
            check "$what: PCID on, the reason says the microcode has the fix" \
                pcid_says true '^on: CPU 06-97-02, Alder Lake \(ALDERLAKE\), microcode 0x2e has the fix for erratum invlpg_global_pcid'
            check "$what: method.pcid_erratum: listed, not affected" \
                test "$(jqr '.method.pcid_erratum | [.microcode, .affected] | map(tostring) | join("|")')" = "0x2e|false"
            [ "$global" = off ] &&
                check "$what: pti_double_invalidation measured (PCID on)" \
                    test "$(exp_status pti_double_invalidation)" = SUCCESS
            check "$what: the exact shape" shape_ok "$REPORT" "${SHAPE[@]}" global_pages=$g pcid_erratum=0
            check "$what: the exact shape fails when told PCID was off" \
                eval '! shape_ok "$REPORT" "${SHAPE[@]}" global_pages=$g pcid_erratum=1 >/dev/null'
        fi
    done
done

# The boundary, on the one experiment that needs PCID: 0x2d is the last revision without the fix
sim ucode-0x2d "$SIM" "${BASE[@]}" --microcode 0x2d experiments=pti_double_invalidation
check "microcode 0x2d (one below the fix): PCID off, the model shows the erratum, PTI SKIP" \
    eval 'clean && pcid_says false "microcode 0x2d \(fixed from 0x2e\)" && [ "$(jqr ".simulation.errata | join(\",\")")/$(exp_status pti_double_invalidation)" = invlpg_ignores_global/SKIP ]'

# What the tool's choice protects against: the erratum forced on with PCID in use (microcode
# that claims the fix) gives the stale reads of global pages the issue saw
sim forced "$SIM" "${BASE[@]}" --microcode 0x2e --erratum invlpg_ignores_global global_pages=on \
    experiments=shootdown_seq_vs_conc
check "erratum forced on where the tool uses PCID: FAILURE with stale reads of global pages" \
    failed_with_stale shootdown_seq_vs_conc

# The issue's command: the default profile, 4 CPUs, global pages; SUCCESS or SKIP, never FAILURE
sim issue "$SIM" --cpu i9-12900k --cpus 4 --seed "$SEED" global_pages=on
check "tlbscope-sim --cpu i9-12900k --cpus 4 global_pages=on: $(jqr .result), exit 0, zero stale reads" \
    eval 'clean && [[ "$(jqr .result)" =~ ^(SUCCESS|SKIP)$ ]]'
check "tlbscope-sim --cpu i9-12900k --cpus 4 global_pages=on: the report names the erratum and what the tool did" \
    pcid_says false 'erratum invlpg_global_pcid .* measured without PCID'
echo "# SUMMARY: i9-12900k with microcode 0x12 (erratum) and 0x2e (fixed), global pages off and on; the issue's command: $(jqr .result), $(stale_total) stale reads"
