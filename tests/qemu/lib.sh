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
