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
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
logdir=build/test-logs
mkdir -p "$logdir"
passed=0 failed=0 skipped=0
failures=()
start_all=$(date +%s)

# CPU seconds (user + system) of every finished child so far, from bash's `times`: a step's
# CPU time over its wall time says how much of the 2 cores it kept busy
# (called in this shell: in a pipe or $(...) it would count a fork's children, none)
times_file=$logdir/.times
child_cpu_s() { # sets cpu_s
    times >"$times_file"
    cpu_s=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); t += a[1] * 60 + a[2] } printf "%d", t }' "$times_file")
}

run_step() { # name, command...
    local name=$1; shift
    if [ -n "${TESTS:-}" ] && [[ "$name" != *$TESTS* ]]; then return; fi
    local log="$logdir/$(echo "$name" | tr '/ ' '__').log"
    local t0=$(date +%s) c0 c1
    child_cpu_s; c0=$cpu_s
    "$@" >"$log" 2>&1
    local rc=$?
    child_cpu_s; c1=$cpu_s
    local ok notok skip
    ok=$(grep -cE '^ok ' "$log")
    notok=$(grep -cE '^not ok ' "$log")
    skip=$(grep -cE '^(not )?ok .*# (SKIP|skip)' "$log")
    # cmocka 1.1 prints a skipped test as "not ok N # SKIP": a skip, not a failure
    notok=$((notok - $(grep -cE '^not ok .*# (SKIP|skip)' "$log")))
    if [ "$ok" = 0 ] && [ "$notok" = 0 ]; then
        notok=1
        echo "not ok - $name produced no results (exit $rc)" >>"$log"
    elif [ $rc != 0 ] && [ "$notok" = 0 ]; then
        notok=1
        echo "not ok - $name exited with status $rc" >>"$log"
    fi
    passed=$((passed + ok)); failed=$((failed + notok)); skipped=$((skipped + skip))
    local dt=$(( $(date +%s) - t0 ))
    if [ "$notok" != 0 ]; then
        printf '%-44s FAIL (%d ok, %d failed, %ds)  log: %s\n' "$name" "$ok" "$notok" "$dt" "$log"
        # the failures, with the validator's complaint where a report did not validate
        grep -E '^not ok |^# validate: ' "$log" | head -8 | sed 's/^/    /'
        failures+=("$name")
    else
        printf '%-44s ok   (%d passed%s, %ds, cpu %ds)\n' "$name" "$ok" "$([ "$skip" != 0 ] && echo ", $skip skipped")" "$dt" "$((c1 - c0))"
        grep -E '^(not )?ok .*# (SKIP|skip)' "$log" | head -3 | sed 's/^/    /'
    fi
    # a step's own count of what it ran (model configurations, mutants)
    sed -n 's/^# SUMMARY: /    /p' "$log"
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
    steps=(tests/checks/layers.sh tests/checks/spin_deadlines.sh tests/checks/insn_encoding.sh
           tests/checks/samples_schema.sh tests/checks/doc_examples.sh tests/quick/*.sh)
else
    steps=(tests/checks/*.sh tests/sim/*.sh tests/qemu/*.sh tests/bochs/*.sh)
fi
for t in "${steps[@]}"; do
    [ "$(basename "$t")" = lib.sh ] && continue
    [ -f "$t" ] || continue
    run_step "${t#tests/}" bash "$t"
done

total=$(( $(date +%s) - start_all ))
echo
[ ${#failures[@]} -gt 0 ] && echo "failed steps: ${failures[*]}"
echo "test time ${total}s, ${skipped} skipped"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
