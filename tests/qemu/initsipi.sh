#!/usr/bin/env bash
# The tool's own INIT-SIPI bring-up (issue 25): when MP services are absent
# (inject=no_mp), fail (inject=mp_fail) or leave APs out (inject=mp_partial:N),
# and under mp=own, every CPU is started from the MADT by INIT-SIPI-SIPI,
# taken over, and measured as with MP services (the exact shape of the
# report, tests/qemu/shape.jq); the report says how each CPU came up, the
# summary names the fallback, and the run ends in a power-off (exit=shutdown)
# since those CPUs cannot go back to the firmware. An AP that never answers
# (an injected skip of its SIPI) is named and the run goes on.
source "$(dirname "$0")/lib.sh"

SMALL="experiments=ipi_roundtrip,shootdown_seq_vs_conc,stale_detector_control"
TINY="experiments=ipi_roundtrip,stale_detector_control"

# check_own_run NAME NCPU BRING_UP... -- key=value...: a healthy run whose APs came up as
# listed (one word per CPU from 1: init_sipi or mp_services; the BSP is "bsp")
check_own_run() {
    local name=$1 ncpu=$2 want got; shift 2
    local words=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do words+=("$1"); shift; done
    shift
    want=$(printf '%s\n' bsp "${words[@]}" | paste -sd, -)
    check_clean_run "$name" "$ncpu" || return
    got=$(jqr '[.topology.cpus[].bring_up] | join(",")')
    check "$name: how each CPU came up (cpus[].bring_up)" test "$got" = "$want"
    local own; own=$(printf '%s\n' "${words[@]}" | grep -c '^init_sipi$')
    check "$name: topology.init_sipi: $own of $own APs arrived, the machine powers off" \
        test "$(jqr '.topology.init_sipi | "\(.requested)/\(.arrived)/\(.reached_64bit)/\(.exit)"')" = "$own/$own/$own/shutdown"
    check "$name: the trampoline page lies below 1 MiB" \
        eval '(( $(jqr .topology.init_sipi.trampoline) < 0x100000 ))'
    check "$name: the summary names the own bring-up" \
        grep -aq "APs started by the tool's own INIT-SIPI" "${REPORT%.json}.txt"
    check "$name: the APs are parked, not handed back" log_has '^CPUs: the .* APs sent INIT-SIPI are parked (INIT)'
    check_shape "$name" "$REPORT" "cpus=$ncpu" pcid=0 invpcid=0 invlpgb=0 "$@"
}

rep() { local n=$1 w=$2 out=(); for ((i = 0; i < n; i++)); do out+=("$w"); done; echo "${out[@]}"; }

# no_mp in x2APIC mode (apic=auto under QEMU 10), mp_fail in xAPIC mode: both ICR paths
# (xAPIC: INIT assert then de-assert, each after the delivery-status bit clears)
for kind in no_mp mp_fail; do
    mode=$([ $kind = mp_fail ] && echo xapic || echo auto)
    SMP=4 ARGS="profile=quick run_budget_s=0 samples=40 $SMALL inject=$kind apic=$mode" boot "initsipi-$kind-smp4"
    # shellcheck disable=SC2046
    check_own_run "$kind smp=4" 4 $(rep 3 init_sipi) -- profile=quick samples=40 "$SMALL"
    [ -s "$REPORT" ] || continue
    check "$kind smp=4: the reason names the firmware's failure" \
        eval '[[ "$(jqr .topology.init_sipi.reason)" == *"inject=$kind"* ]]'
    [ $mode = xapic ] && check "$kind smp=4: the APs started and measured in xAPIC mode" \
        test "$(jqr .method.apic_mode)" = xapic
done

# an AP the firmware leaves out, and an AP that never answers its SIPI: CPU 1 comes up
# through MP services, CPUs 2 and 3 leave the MP procedure at once (mp_partial:2); the tool
# starts CPU 3 by INIT-SIPI and skips CPU 2's (inject=absent:2), which is named, the run on.
# exit=shell: CPU 3 cannot be handed back, so the tool resets instead (QEMU -no-reboot exits)
SMP=4 CFG_TEXT="exit=shell profile=quick $TINY inject=mp_partial:2,absent:2" boot "initsipi-partial-absent"
check "partial+absent: finished, RESULT ERROR (a CPU missing)" \
    eval 'log_has "^TLBSCOPE DONE" && [ "$(result_word)" = ERROR ]'
check "partial+absent: report saved" test -s "$REPORT"
if [ -s "$REPORT" ]; then
    check "partial+absent: report validates" validates
    check "partial+absent: bsp, mp_services, (never started), init_sipi" \
        test "$(jqr '[.topology.cpus[] | "\(.bring_up):\(.state)"] | join(",")')" = "bsp:ok,mp_services:ok,null:absent,init_sipi:ok"
    check "partial+absent: CPU 2 named: it did not answer INIT-SIPI" \
        eval '[[ "$(jqr ".topology.cpus[2].note")" == *"did not answer INIT-SIPI"* ]]'
    check "partial+absent: the reason counts what MP services did not deliver" \
        eval '[[ "$(jqr .topology.init_sipi.reason)" == "2 APs did not check in through MP services"* ]]'
    check "partial+absent: the run went on without CPU 2 (ipi_roundtrip measured)" \
        test "$(exp_status ipi_roundtrip)" = SUCCESS
    check "partial+absent: the MP services AP was handed back, the own one parked" \
        eval 'released && log_has "^CPUs: the 2 APs sent INIT-SIPI are parked"'
    check "partial+absent: exit=shell, yet the machine resets, and the report says so" \
        eval 'log_has "resetting the machine instead of returning to the shell" &&
              [ "$(jqr .topology.init_sipi.exit)/$(jqr .run.config.exit)" = reset/shell ]'
fi

# mp=own with APIC-ID gaps: 3 cores in a 2-bit core field, IDs 6, 7, 14, 15 unused
SMP="12,sockets=2,cores=3,threads=2" ARGS="profile=quick run_budget_s=0 samples=40 $TINY mp=own" boot "initsipi-own-gaps"
# shellcheck disable=SC2046
check_own_run "mp=own 2x3x2" 12 $(rep 11 init_sipi) -- profile=quick samples=40 "$TINY"
if [ -s "$REPORT" ]; then
    check "mp=own 2x3x2: APIC IDs with gaps, as the MADT lists them" \
        test "$(jqr '[.topology.cpus[].apic_id] | map(tostring) | join(",")')" = "0,1,2,3,4,5,8,9,10,11,12,13"
    check "mp=own 2x3x2: no MP services, mode recorded" \
        test "$(jqr '"\(.topology.mp_services)/\(.topology.mp_mode)/\(.run.config.mp)"')" = "false/own/own"
fi

if have_qemu10; then
    BIGARGS="samples=16 warmup=2 ipi_pairs=64"
    for kind in no_mp mp_fail; do
        SMP=64 CPU=max,+x2apic MEM=1024 TIMEOUT=600 \
            ARGS="profile=quick run_budget_s=0 apic=x2apic $BIGARGS $TINY inject=$kind" boot "initsipi-$kind-64-x2apic"
        # shellcheck disable=SC2046
        check_own_run "$kind 64 CPUs x2APIC" 64 $(rep 63 init_sipi) -- profile=quick $BIGARGS "$TINY"
    done
    # the only boot above 255 APIC IDs: OVMF hands over x2APIC, the APs answer INIT-SIPI in it
    SMP=288 CPU=max,+x2apic MEM=2048 TIMEOUT=600 \
        QEMU_EXTRA="-device intel-iommu,intremap=on,eim=on -machine kernel-irqchip=split" \
        ARGS="profile=quick run_budget_s=0 samples=20 warmup=2 ipi_pairs=48 experiments=ipi_roundtrip mp=own" boot "initsipi-own-288"
    # shellcheck disable=SC2046
    check_own_run "mp=own 288 CPUs x2APIC" 288 $(rep 287 init_sipi) -- profile=quick samples=20 warmup=2 ipi_pairs=48 experiments=ipi_roundtrip
    [ -s "$REPORT" ] && check "mp=own 288: APIC IDs above 255 started" \
        test "$(jqr '[.topology.cpus[] | select(.apic_id > 255 and .bring_up == "init_sipi")] | length')" -gt 0
else
    skip "INIT-SIPI with 64 and 288 CPUs in x2APIC mode" "QEMU $(qemu_major) < 10 has no x2APIC under TCG"
fi
