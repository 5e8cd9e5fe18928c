#!/usr/bin/env bash
# Reliability (issue 6): a read-only stick, a full stick, and two runs in one
# boot from startup.nsh. Nothing is lost: the report is on the stick or, when
# it cannot be, on the serial console, from which qemu-run.sh recovers it.
source "$(dirname "$0")/lib.sh"

check_recovered() {
    local name=$1 why=$2
    check "$name: finished" log_has '^TLBSCOPE DONE'
    check "$name: the console says the report could not be saved" \
        log_has '^ERROR: the report could not be saved on the boot volume'
    check "$name: the whole JSON is on the serial log between markers" \
        eval 'grep -aq "^TLBSCOPE-JSON-BEGIN" "$LOG" && grep -aq "^TLBSCOPE-JSON-END bytes=[0-9]* cksum=[0-9]*" "$LOG"'
    check "$name: qemu-run.sh recovered it (length and cksum match)" test -s "$REPORT"
    [ -s "$REPORT" ] || return
    check "$name: the recovered report validates" validates
    check "$name: it records why ($why)" eval '[[ "$(jqr ".run.errors[0].message")" == *"$why"* ]]'
}

SMP=2 ARGS="profile=quick experiments=ipi_roundtrip" boot "storage-readonly" --readonly
check_recovered "read-only stick" EFI_WRITE_PROTECTED

SMP=2 ARGS="profile=quick experiments=ipi_roundtrip" boot "storage-full" --full
check_recovered "full stick" EFI_VOLUME_FULL
check "full stick: no truncated report left behind, nor a partial file (issue 35)" \
    test -z "$(mdir -b -i "$RUN/stick.img@@1M" ::/tlbscope/reports 2>/dev/null | grep -E '\.(json|txt)(\.partial)?$')"

nsh=$here/build/test-runs/twice.nsh
mkdir -p "$(dirname "$nsh")"
printf '@echo -off\nfs0:\n\\tlbscope\\tlbscope.efi\n\\tlbscope\\tlbscope.efi\necho SHELL-STILL-WORKS\nreset -s\n' >"$nsh"
SMP=2 STARTUP_NSH=$nsh CFG_TEXT="exit=shell
profile=quick
experiments=ipi_roundtrip,stale_detector_control" boot "storage-twice" --shell
check "twice: two complete runs in one boot" test "$(grep -ac '^TLBSCOPE DONE' "$LOG")" = 2
n_reports=$(ls "$RUN/reports/"2*.json 2>/dev/null | wc -l)
check "twice: two reports on the stick" test "$n_reports" = 2
check "twice: distinct names even within one second (run counter)" \
    test "$(ls "$RUN/reports/"2*.json | sed 's/.*-\([0-9]*\)\.json/\1/' | sort -u | wc -l)" = 2
for f in "$RUN/reports/"2*.json; do
    check "twice: $(basename "$f") validates" "$TOOL" validate "$f"
done
check "twice: the shell still works after both runs" log_has '^SHELL-STILL-WORKS'
check "twice: firmware state restored both times" test "$(grep -ac '^CPUs: released, firmware state restored' "$LOG")" = 2
