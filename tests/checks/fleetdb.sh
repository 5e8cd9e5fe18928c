#!/usr/bin/env bash
# The fleet database (docs/fleet.md): tlbscope-report import into
# SQLite and into a real PostgreSQL server started here (scripts/pg-temp.sh: a
# temporary directory, a free port, always stopped), query and atlas.
#   - every sample report, every fixture (QEMU, synthetic EPYC, real servers,
#     simulated), and a simulated report of every tlbscope-sim CPU profile go in;
#     the broken fixtures are refused one by one, naming the reason, the rest go on;
#   - the same report twice, or re-indented, is one run; a redacted report stays
#     redacted (no serial number or UUID reaches the database or the atlas);
#   - the database holds every point statistic of the reports (counted with jq);
#     simulated runs are filed as simulated;
#   - SQLite and PostgreSQL answer the views' queries alike;
#   - 1,000 generated reports go in (the time per report at scale: make bench);
#   - the atlas has one column per CPU model and environment, environments apart,
#     and renders in Chromium with its charts.
# Then the fleet mutants (core/mutant.h 85-89, sim/sim.mk FLEET_MUTANTS): each
# build of the tool must fail some check that the correct build passes.
# TLBSCOPE_TEST_FULL=1 also imports the 1,000 generated reports into PostgreSQL.
# Prints TAP lines for tests/run-all.sh.
cd "$(dirname "$0")/../.." || exit 1
here=$PWD
TOOL=$here/build/tlbscope-report
SIM=$here/build/tlbscope-sim
out=$here/build/test-runs/fleetdb
rm -rf "$out" && mkdir -p "$out"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
check() { local d=$1; shift; if "$@"; then ok "$d"; else not_ok "$d"; fi; }

if ! make --no-print-directory tool sim fleet-mutants >"$out/build.log" 2>&1; then
    echo "not ok 1 - build tlbscope-report, tlbscope-sim and the fleet mutants (see $out/build.log)"
    exit 1
fi

F=tests/fixtures/reports
VALID=(reports/samples "$F" "$F/identity" "$F/sim" "$F/bochs")

# ---- the simulated report of every CPU profile (2 CPUs, quick: the shape, not the numbers) ----
mkdir -p "$out/sim"
profiles=$("$SIM" --cpu list 2>&1 | awk '/^  [a-z0-9]/ {print $1}')
for p in $profiles; do
    timeout 300 "$SIM" --cpu "$p" --cpus 2 --seed 24 --out "$out/sim/$p" profile=quick \
        run_budget_s=0 samples=10 warmup=1 >"$out/sim/$p.log" 2>&1
done
nprof=$(wc -w <<<"$profiles")
nsim=$(ls "$out"/sim/*/*.json 2>/dev/null | wc -l)
check "tlbscope-sim wrote a report for each of its $nprof CPU profiles ($nsim)" test "$nsim" = "$nprof" -a "$nprof" -ge 8
mkdir -p "$out/sim-all" && cp "$out"/sim/*/*.json "$out/sim-all/" 2>/dev/null

# jq over FILES: how many reports, point metrics, simulated reports they hold
count_files() { ls "$@" 2>/dev/null | wc -l; }
jq_sum() { # FILTER FILE... : the sum of FILTER over the files
    jq -s "map($1) | add" "${@:2}"
}
files_of() { local d; for d in "$@"; do ls "$d"/*.json; done | grep -v '/latest\.json$'; }

# ---- the core checks: they decide whether a mutant is killed (run with $1 = tool) ----
# core DIR TOOL: prints "ok"/"not ok" lines (no numbers) into DIR/core.tap
core() {
    local dir=$1 tool=$2 db=$1/fleet.db files nfiles nsim_files want got
    mkdir -p "$dir"
    {
        mapfile -t files < <(files_of "${VALID[@]}" "$out/sim-all")
        nfiles=${#files[@]}
        "$tool" import --db "$db" "${VALID[@]}" "$out/sim-all" >"$dir/import1.out" 2>"$dir/import1.err"
        rc=$?
        got=$("$tool" query --db "$db" "SELECT COUNT(*) FROM runs" 2>>"$dir/q.err" | tail -n1)
        [ $rc = 0 ] && [ "$got" = "$nfiles" ] && echo "ok import: $nfiles reports, exit 0, $got runs" ||
            echo "not ok import: $nfiles reports, exit $rc, $got runs (see $dir/import1.err)"

        "$tool" import --db "$db" "${VALID[@]}" >"$dir/import2.out" 2>>"$dir/import2.err"
        rc=$?
        jq . "$F/qemu-tcg-smp4-all.json" >"$dir/reindented.json"
        "$tool" import --db "$db" "$dir/reindented.json" >>"$dir/import2.out" 2>>"$dir/import2.err"
        got=$("$tool" query --db "$db" "SELECT COUNT(*) FROM runs" | tail -n1)
        [ $rc = 0 ] && [ "$got" = "$nfiles" ] && grep -q "^already imported .*reindented.json" "$dir/import2.out" &&
            echo "ok again: the same reports, and one re-indented, are the same runs ($got)" ||
            echo "not ok again: exit $rc, $got runs after importing the same reports again (want $nfiles)"

        # the broken fixtures with one new valid report: each refused with its reason, the valid one in
        mkdir -p "$dir/new" && jq '.run.id = "fleet-new-run"' "$F/qemu-tcg-smp2-all.json" >"$dir/new/new.json"
        "$tool" import --db "$db" "$F/broken" "$dir/new/new.json" >"$dir/import3.out" 2>"$dir/import3.err"
        rc=$?
        want=$(count_files "$F"/broken/*.json)
        got=$("$tool" query --db "$db" "SELECT COUNT(*) FROM runs" | tail -n1)
        [ $rc = 1 ] && [ "$(grep -c ': refused: ' "$dir/import3.err")" = "$want" ] &&
            grep -q "p50-below-min.json: refused: not a valid report .*p50 23884 is below min" "$dir/import3.err" &&
            grep -q "^imported .*new.json" "$dir/import3.out" && [ "$got" = $((nfiles + 1)) ] &&
            echo "ok refused: the $want broken reports refused with their reasons (exit 1), the valid one imported" ||
            echo "not ok refused: exit $rc, $(grep -c ': refused: ' "$dir/import3.err") of $want refused, $got runs (want $((nfiles + 1)))"

        want=$(( $(jq_sum '[.experiments[]? | (.results + .summary)[] | .metrics // {} | keys[]] | length' "${files[@]}") +
                 $(jq '[.experiments[]? | (.results + .summary)[] | .metrics // {} | keys[]] | length' "$dir/new/new.json") ))
        got=$("$tool" query --db "$db" "SELECT COUNT(*) FROM point_metrics" | tail -n1)
        [ "$got" = "$want" ] && echo "ok points: every point statistic is in the database ($got, jq counts $want)" ||
            echo "not ok points: $got point statistics in the database, the reports hold $want"

        nsim_files=$(jq -s 'map(select(.simulated == true)) | length' "${files[@]}")
        got=$("$tool" query --db "$db" "SELECT COUNT(*) FROM runs WHERE environment = 'simulated'" | tail -n1)
        [ "$got" = "$nsim_files" ] && echo "ok simulated: the $nsim_files simulated reports are filed as simulated" ||
            echo "not ok simulated: $got runs filed as simulated, $nsim_files reports are"

        "$tool" atlas --db "$db" -o "$dir/atlas.html" 2>"$dir/atlas.err"
        rc=$?
        # per section: its columns; the database's distinct (environment, model) pairs, headline ones included
        python3 - "$dir/atlas.html" >"$dir/atlas.cols" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
for env, body in re.findall(r'<section id="env-([a-z]+)">(.*?)</section>', page, re.S):
    for model in re.findall(r'<th class="model">(.*?)<br>', body):
        print(env + "\t" + model.replace("&amp;", "&").replace("&#39;", "'").replace("&quot;", '"'))
PY
        "$tool" query --db "$db" "SELECT environment, cpu_model FROM runs UNION SELECT h.environment, r.cpu_model FROM headlines h JOIN runs r ON r.run_key = h.run_key ORDER BY 1, 2" |
            tail -n +2 >"$dir/db.cols"
        sort "$dir/atlas.cols" -o "$dir/atlas.cols"; sort "$dir/db.cols" -o "$dir/db.cols"
        [ $rc = 0 ] && [ -s "$dir/db.cols" ] && cmp -s "$dir/atlas.cols" "$dir/db.cols" &&
            grep -q '^simulated	AMD EPYC 7763' "$dir/atlas.cols" && grep -q '^hardware	' "$dir/atlas.cols" &&
            echo "ok atlas: one column per CPU model and environment ($(wc -l <"$dir/atlas.cols")), simulated and hardware apart" ||
            echo "not ok atlas: exit $rc, the atlas's columns differ from the database's models per environment (see $dir/atlas.cols, $dir/db.cols)"
    } >"$dir/core.tap" 2>"$dir/core.err"
}

core "$out/core" "$TOOL"
while IFS= read -r line; do
    case "$line" in
        "ok "*) ok "${line#ok }" ;;
        *) not_ok "${line#not ok }" ;;
    esac
done <"$out/core/core.tap"
DB=$out/core/fleet.db

# ---- redaction: a redacted report stays redacted; the atlas shows no serial number or UUID ----
serial=$(jq -r '.firmware.smbios.system.serial' "$F/identity/dell-r820-run1.json")
uuid=$(jq -r '.firmware.smbios.system.uuid' "$F/identity/dell-r820-run1.json")
mkdir -p "$out/redact"
printf 'fleet test key\n' >"$out/redact/key"
"$TOOL" redact --key-file "$out/redact/key" -o "$out/redact/r820.json" "$F/identity/dell-r820-run1.json" >/dev/null 2>&1
"$TOOL" import --db "$out/redact/fleet.db" "$out/redact/r820.json" >"$out/redact/import.out" 2>&1
leaks=$("$TOOL" query --db "$out/redact/fleet.db" "SELECT COUNT(*) FROM runs r JOIN machines m ON m.machine_id = r.machine_id WHERE r.report_json LIKE '%$serial%' OR m.serial = '$serial' OR m.uuid = '$uuid' OR r.report_json LIKE '%$uuid%'" | tail -n1)
tokens=$("$TOOL" query --db "$out/redact/fleet.db" "SELECT identity_kind, serial FROM machines" | tail -n1)
check "redacted: the redacted report's serial number and UUID reach the database as tokens only ($tokens)" \
    test "$leaks" = 0 -a -n "$serial" -a "${tokens%%	*}" = redacted_keyed -a "$(grep -c 'redacted:hmac:' <<<"$tokens")" = 1
leak=0
for f in "$F"/identity/*.json; do
    for v in $(jq -r '.firmware.smbios.system | .serial, .uuid | select(. != null and . != "")' "$f"); do
        grep -qF -- "$v" "$out/core/atlas.html" && leak=1
    done
done
check "atlas-private: no serial number or UUID of the real servers is on the atlas" test $leak = 0

# ---- the views answer the questions of docs/fleet.md ----
q1=$("$TOOL" query --db "$DB" "SELECT cpu_model, MIN(ns_per_page) AS best FROM v_flush_points WHERE pages > 33 AND environment = 'simulated' GROUP BY cpu_model ORDER BY best" 2>&1)
check "views: v_flush_points ranks the simulated models flushing above 33 pages ($(($(wc -l <<<"$q1") - 1)) models)" \
    test "$(($(wc -l <<<"$q1") - 1))" -ge 4
q2=$("$TOOL" query --db "$DB" "SELECT machine_id, microcode, figure, class, runs FROM v_microcode_history WHERE environment = 'hardware' ORDER BY machine_id, figure, class, first_run" 2>&1)
check "views: v_microcode_history has a row per machine, microcode and figure ($(($(wc -l <<<"$q2") - 1)))" \
    test "$(($(wc -l <<<"$q2") - 1))" -ge 5

# ---- PostgreSQL: the same imports, the same answers ----
source scripts/pg-temp.sh
trap 'pg_temp_stop' EXIT
trap 'pg_temp_stop; exit 143' TERM INT HUP
pg_dir=$(mktemp -d /tmp/tlbscope-fleetdb-pg.XXXXXX)
chmod 755 "$pg_dir"
# ORDER BY: PostgreSQL sorts NULL last, SQLite first (COALESCE where a column may be NULL);
# strings in byte order in both (pg-temp.sh's database has the C collation)
QUERIES=(
    "SELECT environment, COUNT(*) AS runs FROM runs GROUP BY environment ORDER BY 1"
    "SELECT * FROM v_model_headlines ORDER BY cpu_model, environment, figure, class"
    "SELECT cpu_model, environment, experiment, mode, pages, COUNT(*) AS n, MIN(p50) AS lo, MAX(p50) AS hi, SUM(p50_ns) AS ns FROM v_flush_points GROUP BY cpu_model, environment, experiment, mode, pages ORDER BY 1, 2, 3, 4, 5"
    "SELECT machine_id, cpu_model, environment, microcode, figure, class, unit, runs, mean_value, mean_ns FROM v_microcode_history ORDER BY 1, 2, 3, COALESCE(microcode, ''), 5, 6"
    "SELECT cpu_model, recommendation, status, value, unit, confidence FROM v_recommendations ORDER BY cpu_model, run_key, recommendation"
    "SELECT m.identity_kind, COUNT(*) AS n FROM machines m GROUP BY m.identity_kind ORDER BY 1"
    "SELECT experiment, section, metric, COUNT(*) AS points, SUM(n) AS samples, SUM(p50) AS p50s, MAX(p99) AS p99 FROM v_point_metrics GROUP BY experiment, section, metric ORDER BY 1, 2, 3"
    "SELECT COUNT(*) AS n, SUM(num_value) AS total FROM point_params"
    "SELECT COUNT(*) AS n, SUM(value) AS total FROM point_values"
    "SELECT smi_source, smt, target_wait, COUNT(*) AS n FROM conditions GROUP BY smi_source, smt, target_wait ORDER BY 1, 2, 3"
)
same_answers() { # DB_A DB_B NAME
    local i diffs=0
    for i in "${!QUERIES[@]}"; do
        "$TOOL" query --db "$1" "${QUERIES[$i]}" >"$out/$3.a$i" 2>&1
        "$TOOL" query --db "$2" "${QUERIES[$i]}" >"$out/$3.b$i" 2>&1
        cmp -s "$out/$3.a$i" "$out/$3.b$i" || { diffs=$((diffs + 1)); echo "# query $i differs: diff $out/$3.a$i $out/$3.b$i"; }
        [ "$(wc -l <"$out/$3.a$i")" -ge 2 ] || { diffs=$((diffs + 1)); echo "# query $i answered nothing: $out/$3.a$i"; }
    done
    return $diffs
}
if pg_temp_start "$pg_dir"; then
    ok "postgresql: a temporary server on a free port ($PG_TEMP_URI)"
    "$TOOL" import --db "$PG_TEMP_URI" "${VALID[@]}" "$out/sim-all" >"$out/pg-import.out" 2>"$out/pg-import.err"
    rc=$?
    "$TOOL" import --db "$PG_TEMP_URI" "$F/broken" "$out/core/new/new.json" >>"$out/pg-import.out" 2>>"$out/pg-import.err"
    rc2=$?
    "$TOOL" import --db "$PG_TEMP_URI" "$out/core/reindented.json" >>"$out/pg-import.out" 2>>"$out/pg-import.err"
    check "postgresql-import: every report in (exit $rc), the broken ones refused (exit $rc2), the re-indented one already there" \
        sh -c "[ $rc = 0 ] && [ $rc2 = 1 ] && grep -q '^already imported .*reindented.json' '$out/pg-import.out'"
    check "postgresql-same: SQLite and PostgreSQL give the same answers to ${#QUERIES[@]} queries over the views and tables" \
        same_answers "$DB" "$PG_TEMP_URI" same
    "$TOOL" atlas --db "$PG_TEMP_URI" -o "$out/atlas-pg.html" 2>"$out/atlas-pg.err"
    check "postgresql-atlas: the atlas from PostgreSQL is the atlas from SQLite" cmp -s "$out/atlas-pg.html" "$out/core/atlas.html"
else
    not_ok "postgresql: no temporary server: $PG_TEMP_WHY"
fi

# ---- 1,000 generated reports (50 machines) ----
python3 tests/checks/fleet_gen.py "$F/qemu-tcg-smp2-all.json" "$out/gen" 1000 50
t0=$(date +%s.%N)
"$TOOL" import --db "$out/gen.db" "$out/gen" >"$out/gen-import.out" 2>"$out/gen-import.err"
rc=$?
t1=$(date +%s.%N)
got=$("$TOOL" query --db "$out/gen.db" "SELECT COUNT(*), COUNT(DISTINCT machine_id) FROM runs" | tail -n1)
echo "# 1,000 generated reports into SQLite: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s wall (make bench has the time per report)"
check "scale-sqlite: 1,000 generated reports imported, 50 machines (exit $rc; $got)" test "$rc/$got" = "0/1000	50"
if [ "${TLBSCOPE_TEST_FULL:-0}" = 1 ] && [ -n "$PG_TEMP_URI" ]; then
    "$TOOL" import --db "$PG_TEMP_URI" "$out/gen" >"$out/gen-pg.out" 2>&1
    rc=$?
    "$TOOL" import --db "$out/core/fleet.db" "$out/gen" >>"$out/gen-sq.out" 2>&1
    check "scale-postgresql: the 1,000 reports in PostgreSQL too (exit $rc)" test "$rc" = 0
    check "scale-same: SQLite and PostgreSQL agree over 1,000 more reports" same_answers "$out/core/fleet.db" "$PG_TEMP_URI" gen-same
else
    skip "scale-postgresql: the 1,000 reports into PostgreSQL" "TLBSCOPE_TEST_FULL=1 (make test-full)"
fi
pg_temp_stop
rm -rf "$pg_dir"

# ---- the atlas in Chromium ----
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
    timeout 600 scripts/deps.sh html >"$out/deps.log" 2>&1
    browser=$(command -v chromium || command -v chromium-browser || true)
fi
if [ -z "$browser" ]; then
    skip "atlas-chromium: the atlas renders with its charts" "Chromium is not installed (scripts/deps.sh html)"
else
    chromium_run() {
        timeout 60 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
            --disable-background-networking --disable-component-update --disable-sync \
            --user-data-dir="$(mktemp -d "$out/profile.XXXXXX")" --window-size=1400,3000 "$@" 2>>"$out/chromium.log"
    }
    size() { stat -c %s "$1" 2>/dev/null || echo 0; }
    printf '<!DOCTYPE html><html><body><p>tlbscope</p></body></html>\n' >"$out/near-blank.html"
    if chromium_run --dump-dom "file://$out/core/atlas.html" >"$out/atlas-dom.html" && [ -s "$out/atlas-dom.html" ] &&
       chromium_run --screenshot="$out/atlas.png" "file://$out/core/atlas.html" >/dev/null &&
       chromium_run --screenshot="$out/near-blank.png" "file://$out/near-blank.html" >/dev/null; then
        charts=$(grep -o '<svg class="chart range"' "$out/atlas-dom.html" | wc -l)
        dots=$(grep -o '<circle ' "$out/atlas-dom.html" | wc -l)
        sections=$(grep -o '<section id="env-' "$out/atlas-dom.html" | wc -l)
        p=$(size "$out/atlas.png"); nb=$(size "$out/near-blank.png")
        echo "# atlas in Chromium: $sections sections, $charts charts, $dots model dots; screenshot $p bytes (near-blank $nb)"
        check "atlas-chromium: rendered with its sections ($sections), charts ($charts) and a dot per model and figure ($dots); screenshot far above a near-blank page" \
            test "$sections" -ge 3 -a "$charts" -ge 10 -a "$dots" -ge 30 -a "$p" -gt $((4 * nb))
    else
        skip "atlas-chromium: the atlas renders with its charts" "Chromium did not render (see $out/chromium.log)"
    fi
fi

# ---- the fleet mutants: each must fail a core check that the correct build passed ----
mutants=$(sed -n '/^FLEET_MUTANTS :=/,/[^\\]$/p' sim/sim.mk | sed 's/^FLEET_MUTANTS :=//; s/\\//g')
passed=$(sed -n 's/^ok \([a-z-]*\):.*/\1/p' "$out/core/core.tap")
for m in $mutants; do
    core "$out/mutant-$m" "$here/build/mutants/$m/tlbscope-report"
    killer=
    for k in $(sed -n 's/^not ok \([a-z-]*\):.*/\1/p' "$out/mutant-$m/core.tap"); do
        grep -qx -- "$k" <<<"$passed" && { killer=$k; break; }
    done
    check "mutant $m is killed${killer:+ by the check \"$killer\": $(grep -m1 "^not ok $killer:" "$out/mutant-$m/core.tap" | sed "s/^not ok $killer: //")}" \
        test -n "$killer"
done
