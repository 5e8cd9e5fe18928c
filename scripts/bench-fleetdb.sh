#!/usr/bin/env bash
# make bench: the fleet database's import at scale. Imports 100, then 1,000
# generated reports (tests/checks/fleet_gen.py: the synthetic QEMU SMP 2 report,
# 50 machines) into a fresh SQLite file and a fresh temporary PostgreSQL server
# (scripts/pg-temp.sh), and prints the time per report at each size: linear
# time means the two are about equal (the ratio near 1; an importer that
# rescans what it holds grows with the database). Figures only, no pass/fail:
# performance targets live here, never in make test.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
TOOL=build/tlbscope-report
out=build/bench-fleetdb
rm -rf "$out" && mkdir -p "$out"
[ -x "$TOOL" ] || make --no-print-directory tool >/dev/null || exit 1
python3 tests/checks/fleet_gen.py tests/fixtures/reports/qemu-tcg-smp2-all.json "$out/gen" 1000 50
mkdir -p "$out/gen100" && cp "$out"/gen/gen-0000[0-9][0-9].json "$out/gen100/"

# import_time DB DIR: seconds of wall time
import_time() {
    local t0 t1
    t0=$(date +%s.%N)
    "$TOOL" import --db "$1" "$2" >"$out/import.log" 2>&1 || { echo "import failed: $out/import.log" >&2; echo nan; return; }
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}
report() { # ENGINE T100 T1000
    awk -v e="$1" -v a="$2" -v b="$3" 'BEGIN {
        printf "fleet import (%s): 100 reports %.2f s (%.1f ms/report), 1,000 reports %.2f s (%.1f ms/report), per-report ratio 1000/100 %.2f\n",
               e, a, 1000 * a / 100, b, 1000 * b / 1000, (b / 1000) / (a / 100) }'
}
echo "fleet import: the synthetic QEMU SMP 2 report ($(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg))"
t100=$(import_time "$out/s100.db" "$out/gen100")
t1000=$(import_time "$out/s1000.db" "$out/gen")
report sqlite "$t100" "$t1000"

source scripts/pg-temp.sh
trap 'pg_temp_stop' EXIT
trap 'pg_temp_stop; exit 143' TERM INT HUP
pg_dir=$(mktemp -d /tmp/tlbscope-bench-pg.XXXXXX) && chmod 755 "$pg_dir"
if pg_temp_start "$pg_dir"; then
    t100=$(import_time "$PG_TEMP_URI" "$out/gen100")
    pg_temp_stop
    pg_temp_start "$pg_dir" && t1000=$(import_time "$PG_TEMP_URI" "$out/gen") && report postgresql "$t100" "$t1000"
    pg_temp_stop
else
    echo "fleet import (postgresql): skipped: $PG_TEMP_WHY"
fi
rm -rf "$pg_dir"
