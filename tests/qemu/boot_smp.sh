#!/usr/bin/env bash
# Foundation: the app boots under OVMF with 1, 2 and 4 CPUs, prints its result
# contract, saves a report that validates, and counts the CPUs it was given.
source "$(dirname "$0")/lib.sh"

for smp in 1 2 4; do
    SMP=$smp ARGS="profile=quick" boot "boot-smp$smp"
    check "smp=$smp: app printed the TLBSCOPE DONE sentinel" log_has '^TLBSCOPE DONE'
    check "smp=$smp: RESULT line present" log_has '^RESULT: \(SUCCESS\|SKIP\|ERROR\|FAILURE\)$'
    check "smp=$smp: exit status 0 (SUCCESS or SKIP)" test "$RC" = 0
    check "smp=$smp: report extracted from the stick" test -s "$REPORT"
    if [ -s "$REPORT" ]; then
        check "smp=$smp: tlbscope-report validate accepts it" "$TOOL" validate "$REPORT"
        check "smp=$smp: topology.cpu_count == $smp" test "$(jqr .topology.cpu_count)" = "$smp"
        check "smp=$smp: hypervisor recorded (TCG)" test "$(jqr .cpu.hypervisor)" = TCGTCGTCGTCG
        check "smp=$smp: .txt summary saved next to the JSON" test -s "${REPORT%.json}.txt"
    fi
done
