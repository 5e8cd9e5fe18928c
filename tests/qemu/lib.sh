# Shared helpers for the QEMU integration tests (sourced, not run).
# Each test boots build/tlbscope.img through scripts/qemu-run.sh in its own
# run directory and prints TAP lines that tests/run-all.sh counts.

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$here" || exit 1
TOOL=$here/build/tlbscope-report
n_test=0

ok() { n_test=$((n_test + 1)); echo "ok $n_test - $*"; }
not_ok() { n_test=$((n_test + 1)); echo "not ok $n_test - $*"; }
skip() { n_test=$((n_test + 1)); echo "ok $n_test - $1 # SKIP $2"; }
check() { # description, command...
    local d=$1; shift
    if "$@"; then ok "$d"; else not_ok "$d"; fi
}

qemu_major() { "${QEMU:-qemu-system-x86_64}" --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p' | head -n1; }
have_qemu10() { [ "$(qemu_major)" -ge 10 ] 2>/dev/null; }

# boot NAME [qemu-run options]; env SMP CPU MEM ARGS ... as for qemu-run.sh.
# Sets RUN (run dir), LOG (clean serial text), REPORT (json path or ""), RC.
boot() {
    local name=$1; shift
    RUN=$here/build/test-runs/$name
    rm -rf "$RUN"; mkdir -p "$RUN"
    RUNDIR=$RUN OUTDIR=$RUN/reports TIMEOUT=${TIMEOUT:-300} "$here/scripts/qemu-run.sh" --fresh --quiet "$@" >"$RUN/run.out" 2>&1
    RC=$?
    LOG=$RUN/serial.txt
    REPORT=$(cat "$RUN/report.path" 2>/dev/null)
    echo "# $name: exit $RC, report ${REPORT:-none}, $(grep -a '^RESULT:' "$LOG" | tail -n1)"
}

jqr() { jq -r "$1" "$REPORT"; }
log_has() { grep -aq -- "$1" "$LOG"; }

# ---- report checks (jq over $REPORT) ----
exp_status() { jq -r --arg id "$1" '.experiments[] | select(.id == $id) | .status' "$REPORT"; }
exp_field() { jq -r --arg id "$1" ".experiments[] | select(.id == \$id) | $2" "$REPORT"; }
all_cpus_ok() { [ "$(jqr '[.topology.cpus[] | select(.state != "ok")] | length')" = 0 ]; }
cpus_ok_count() { jqr '.topology.cpus_ok'; }
validates() { "$TOOL" validate "$REPORT" >/dev/null 2>&1; }
released() { log_has '^CPUs: released, firmware state restored'; }

# The checks every healthy run must pass; $1 names the run in the TAP lines.
check_healthy_run() {
    local name=$1 ncpu=$2
    check "$name: sentinel and RESULT line" log_has '^TLBSCOPE DONE'
    check "$name: report saved and extracted" test -s "$REPORT"
    [ -s "$REPORT" ] || return
    check "$name: report validates" validates
    check "$name: $ncpu CPUs in the report, all ok" \
        test "$(jqr .topology.cpu_count)/$(cpus_ok_count)" = "$ncpu/$ncpu"
    check "$name: run complete, no errors" \
        test "$(jqr .run.status)/$(jqr '.run.errors | length')" = "complete/0"
    check "$name: zero stale reads in every experiment" \
        test "$(jqr '[.experiments[].verification.stale_reads] | add // 0')" = 0
    if [ "$ncpu" -gt 1 ]; then
        check "$name: every AP released to the firmware" released
    fi
}

# Every experiment either measured (SUCCESS) or says why not (SKIP + reason).
experiments_complete_or_skipped() {
    [ "$(jqr '[.experiments[] | select(.status != "SUCCESS" and (.status != "SKIP" or .reason == null))] | length')" = 0 ]
}
