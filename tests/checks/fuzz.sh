#!/usr/bin/env bash
# Runs every libFuzzer target for a bounded time (30 s in all; 120 s under
# make test-full) and reports
# each as one TAP line: crash-free or the crash it found.
cd "$(dirname "$0")/../.." || exit 1
make --no-print-directory -j"$(nproc 2>/dev/null || echo 2)" fuzz >build/fuzz-build.log 2>&1 || { echo "not ok 1 - fuzz targets build (see build/fuzz-build.log)"; exit 1; }
bins=(build/fuzz/fuzz_*)
[ -x "${bins[0]}" ] || { echo "ok 1 - no fuzz targets # SKIP none built"; exit 0; }
per=$(( $([ -n "${TLBSCOPE_TEST_FULL:-}" ] && echo 120 || echo 30) / ${#bins[@]} ))
n=0
for b in "${bins[@]}"; do
    n=$((n + 1))
    name=$(basename "$b")
    corpus=build/fuzz/corpus-$name
    mkdir -p "$corpus"
    seeds=tests/fuzz/seeds/${name#fuzz_}
    out=$("$b" -max_total_time=$per -timeout=10 -rss_limit_mb=1024 "$corpus" ${seeds:+$( [ -d "$seeds" ] && echo "$seeds")} 2>&1)
    rc=$?
    runs=$(echo "$out" | sed -n 's/^Done \([0-9]*\) runs.*/\1/p' | tail -n1)
    if [ $rc = 0 ]; then
        echo "ok $n - $name: ${runs:-?} runs in ${per}s, no crash"
    else
        echo "not ok $n - $name crashed:"
        echo "$out" | grep -E 'ERROR|SUMMARY|Test unit written' | head -5 | sed 's/^/# /'
    fi
done
