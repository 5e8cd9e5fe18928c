#!/usr/bin/env bash
# Runs every test and ends with one line: "N passed, N failed".
#   host unit tests (cmocka, TAP output), ThreadSanitizer builds of the
#   protocol tests, then every tests/checks/*.sh, tests/sim/*.sh (the strict
#   TLB model: randomised configurations, mutants, defects), tests/qemu/*.sh
#   and tests/bochs/*.sh (Bochs: the PCID instructions executed).
# Each step prints TAP lines ("ok ..." / "not ok ..."); a step that dies
# without any counts as one failure. TLBSCOPE_TEST_FULL=1 widens the QEMU
# matrix; TLBSCOPE_CHECK=1 runs make check's few steps (below); TESTS=pattern runs only
# the steps whose name matches.
#
# tests/checks/ and tests/bochs/ test the host tool and the build on fixed inputs, keep about
# one core busy each, and assert nothing about wall time (the scale check compares CPU times;
# Bochs's guest clock counts instructions): they run one at a time beside the QEMU boots, which
# keep about one core busy too (make check runs its few checks two at a time, TEST_JOBS). The
# model runs on the host's clock and keeps both cores busy; its checks read what it measured
# (shapes, deadlines, a CPU slow or hung): its steps run alone, after the boots.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
logdir=build/test-logs
mkdir -p "$logdir"
passed=0 failed=0 skipped=0
failures=()
start_all=$(date +%s)

step_log() { echo "$logdir/$(echo "$1" | tr '/ ' '__').log"; }
wanted() { [ -z "${TESTS:-}" ] || [[ "$1" == *$TESTS* ]]; }

# One step's command, in a subshell of its own: its exit status, wall seconds and CPU seconds
# (user + system of what it ran, from bash's `times`, which in this subshell counts only the
# step) go beside its log for step_account.
step_exec() { # log, command...
    local log=$1; shift
    local t0
    t0=$(date +%s)
    "$@" >"$log" 2>&1
    local rc=$?
    times >"$log.times"
    echo "$rc $(( $(date +%s) - t0 ))" >"$log.rc"
}

# Counts one finished step and prints its line (a step's CPU time over its wall time says how
# much of the machine's cores it kept busy).
step_account() { # name, log
    local name=$1 log=$2
    local rc dt cpu ok notok skip
    read -r rc dt <"$log.rc" || { rc=1; dt=0; }
    cpu=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); t += a[1] * 60 + a[2] } printf "%d", t }' "$log.times" 2>/dev/null)
    rm -f "$log.rc" "$log.times"
    ok=$(grep -cE '^ok ' "$log")
    notok=$(grep -cE '^not ok ' "$log")
    skip=$(grep -cE '^(not )?ok .*# (SKIP|skip)' "$log")
    # cmocka 1.1 prints a skipped test as "not ok N # SKIP": a skip, not a failure
    notok=$((notok - $(grep -cE '^not ok .*# (SKIP|skip)' "$log")))
    if [ "$ok" = 0 ] && [ "$notok" = 0 ]; then
        notok=1
        echo "not ok - $name produced no results (exit $rc)" >>"$log"
    elif [ "$rc" != 0 ] && [ "$notok" = 0 ]; then
        notok=1
        echo "not ok - $name exited with status $rc" >>"$log"
    fi
    passed=$((passed + ok)); failed=$((failed + notok)); skipped=$((skipped + skip))
    if [ "$notok" != 0 ]; then
        printf '%-44s FAIL (%d ok, %d failed, %ds, cpu %ss)  log: %s\n' "$name" "$ok" "$notok" "$dt" "${cpu:-?}" "$log"
        # the failures, with the validator's complaint where a report did not validate
        grep -E '^not ok |^# validate: ' "$log" | head -8 | sed 's/^/    /'
        failures+=("$name")
    else
        printf '%-44s ok   (%d passed%s, %ds, cpu %ss)\n' "$name" "$ok" "$([ "$skip" != 0 ] && echo ", $skip skipped")" "$dt" "${cpu:-?}"
        grep -E '^(not )?ok .*# (SKIP|skip)' "$log" | head -3 | sed 's/^/    /'
    fi
    # a step's own count of what it ran (model configurations, mutants)
    sed -n 's/^# SUMMARY: /    /p' "$log"
}

run_step() { # name, command...
    local name=$1; shift
    wanted "$name" || return 0
    local log
    log=$(step_log "$name")
    ( step_exec "$log" "$@" )
    step_account "$name" "$log"
}

# step_names SCRIPTS...: the steps' names (tests/ left off), one a line, lib.sh and the steps
# TESTS leaves out not among them
step_names() {
    local t
    for t; do
        [ "$(basename "$t")" = lib.sh ] && continue
        [ -f "$t" ] || continue
        wanted "${t#tests/}" && echo "${t#tests/}"
    done
    return 0
}

# Scripts run TEST_JOBS at a time; their lines are printed in the order given, once all have
# finished (each line says what its step cost).
run_scripts_together() { # scripts...
    local jobs=${TEST_JOBS:-2} name names=()
    mapfile -t names < <(step_names "$@")
    for name in ${names[@]+"${names[@]}"}; do
        while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
        ( step_exec "$(step_log "$name")" bash "tests/$name" ) &
    done
    wait
    for name in ${names[@]+"${names[@]}"}; do
        step_account "$name" "$(step_log "$name")"
    done
}

# run_scripts_beside SCRIPTS...: one at a time in the background, while the caller runs other
# steps; wait_beside waits for them and prints their lines, in the order given. They run at
# nice 10: the foreground's QEMU vCPUs come first (a vCPU kept off its core past timeout_ms
# would be taken for a hung CPU), the checks take what is left; none of them times itself.
beside_names=()
beside_pid=
run_scripts_beside() { # scripts...
    local name
    mapfile -t beside_names < <(step_names "$@")
    (
        for name in ${beside_names[@]+"${beside_names[@]}"}; do
            ( step_exec "$(step_log "$name")" nice -n 10 bash "tests/$name" )
        done
    ) &
    beside_pid=$!
}

wait_beside() {
    local name
    [ -n "$beside_pid" ] && wait "$beside_pid"
    beside_pid=
    for name in ${beside_names[@]+"${beside_names[@]}"}; do
        step_account "$name" "$(step_log "$name")"
    done
}

run_scripts_alone() { # scripts...
    local t
    for t; do
        [ "$(basename "$t")" = lib.sh ] && continue
        [ -f "$t" ] || continue
        run_step "${t#tests/}" bash "$t"
    done
}

export CMOCKA_MESSAGE_OUTPUT=TAP
for t in build/host/tests/test_* build/host/tests/tsan_*; do
    [ -x "$t" ] || continue
    run_step "host/$(basename "$t")" "$t"
done
# make check (TLBSCOPE_CHECK=1): the edit loop's few minutes: the host tests above, the
# static checks that need no boot, and tests/quick/ (a few model shapes, one QEMU boot per
# architecture); make test runs everything below instead, tests/quick/ excepted (its runs
# are a subset of tests/sim/ and tests/qemu/).
if [ -n "${TLBSCOPE_CHECK:-}" ]; then
    run_scripts_together tests/checks/layers.sh tests/checks/spin_deadlines.sh tests/checks/insn_encoding.sh \
        tests/checks/samples_schema.sh tests/checks/doc_examples.sh
    run_scripts_alone tests/quick/*.sh
else
    # Two lanes: the QEMU boots one at a time, and beside them the checks and Bochs one at a
    # time. A QEMU step keeps about one core busy (CPU time 1.1x its wall time, measured over
    # the whole suite on 2 cores), a check or Bochs about one too, and neither asserts
    # anything about wall time (Bochs's guest clock counts instructions). The Secure Boot
    # boots run after the lane: they sign build/tlbscope-signed.efi, as checks/dist.sh's
    # `make dist SIGNED=1` does. The model's steps then run alone: they keep both cores busy.
    run_scripts_beside tests/checks/fuzz.sh tests/checks/markup_sweep.sh tests/checks/fleetdb.sh \
        tests/bochs/*.sh $(ls tests/checks/*.sh | grep -vE '/(fuzz|markup_sweep|fleetdb)\.sh$')
    run_scripts_alone $(ls tests/qemu/*.sh | grep -vE '/secureboot[a-z0-9_]*\.sh$')
    wait_beside
    run_scripts_alone tests/qemu/secureboot*.sh tests/sim/*.sh
fi

total=$(( $(date +%s) - start_all ))
echo
[ ${#failures[@]} -gt 0 ] && echo "failed steps: ${failures[*]}"
echo "test time ${total}s, ${skipped} skipped"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
