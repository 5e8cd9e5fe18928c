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
#     and renders in Chromium with its charts;
#   - issue 31: the run id import prints is the report's canonical key (fleet_run_key.py)
#     and the one WHERE run = takes; a 10,000-point report read a point at a time, quiet
#     in a pipe, its progress on a terminal; query and atlas read-only, refusing a missing
#     database; one statement; --format tsv|aligned|csv|json alike in both engines;
#     v_recommendations in ns; p50_ci95 stored; schema 1 upgraded; a build without SQLite.
# Then the fleet mutants (core/mutant.h 85-89 and 120-125, sim/sim.mk FLEET_MUTANTS): each
# build of the tool must fail some check that the correct build passes (the quick checks
# of issue 31 first, the core ones for a mutant they miss).
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

if ! make --no-print-directory tool sim fleet-mutants build/host/tlbscope-report-nofleet >"$out/build.log" 2>&1; then
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

# ---- issue 31: a read-only query, one statement, the printed run id, large reports ----
# extra DIR TOOL: prints "ok"/"not ok" lines into DIR/extra.tap (no numbers); the run of the
# correct tool and of each mutant of 120-125 (core/mutant.h) on the same inputs
mkdir -p "$out/big"
python3 tests/checks/fixtures/scale_reports.py --compact "$out/big" 10000 >/dev/null 2>&1
BIG=$out/big/points-10000.json
# import shows progress after 0.2 s: 10,000 points take about that long on a quiet host, so
# the progress checks (a terminal shows it, a pipe does not) import 50,000, about 1 s
mkdir -p "$out/slow"
python3 tests/checks/fixtures/scale_reports.py --compact "$out/slow" 50000 >/dev/null 2>&1
SLOW=$out/slow/points-50000.json
BOCHS=$F/bochs/bochs-skylake-x-smp2.json
# what the checks expect, computed once: the canonical keys, the sum of the large report's p50s
XKEYS=$(python3 tests/checks/fleet_run_key.py "$F/qemu-tcg-smp4-all.json" "$BOCHS" "$BIG" | tr '\n' ' ')
XSUM=$(jq '[.experiments[] | (.results + .summary)[] | .metrics[] | .p50] | add' "$BIG")
extra() {
    local dir=$1 tool=$2 db=$1/fleet.db rc rc2 got want id sum before
    mkdir -p "$dir"
    {
        # the run ids import prints are the ones a WHERE takes, and the run key is the report's
        # canonical JSON (computed by tests/checks/fleet_run_key.py apart from the tool), also
        # for a large report read one point at a time
        "$tool" import --db "$db" "$F/qemu-tcg-smp4-all.json" "$BOCHS" "$BIG" >"$dir/import.out" 2>"$dir/import.err"
        rc=$?
        want=$XKEYS
        got=$(sed -n 's/^imported .* (run \(r[0-9a-f]*\),.*/\1/p' "$dir/import.out" | tr '\n' ' ')
        [ $rc = 0 ] && [ "$got" = "$want" ] && echo "ok key: the run ids import prints are the reports' canonical SHA-256 ($got)" ||
            echo "not ok key: exit $rc, import printed run ids '$got', the reports' canonical keys are '$want'"
        "$tool" import --db "$dir/slow.db" "$SLOW" >/dev/null 2>>"$dir/import.err"
        [ $rc = 0 ] && [ ! -s "$dir/import.err" ] && echo "ok quiet: import into a pipe writes nothing on stderr, a 50,000-point report (1 s) too" ||
            echo "not ok quiet: import wrote on stderr that is no terminal: $(head -c 200 "$dir/import.err" | tr '\r\n' '  ')"
        got=0
        for id in $want; do
            [ "$("$tool" query --db "$db" "SELECT COUNT(*) FROM runs r JOIN v_runs v ON v.run = r.run WHERE r.run = '$id'" 2>>"$dir/q.err" | tail -n1)" = 1 ] && got=$((got + 1))
        done
        [ "$got" = 3 ] && echo "ok runid: WHERE run = 'r...' finds each run import printed, in runs and v_runs (3 of 3)" ||
            echo "not ok runid: WHERE run = the printed id found $got of 3 runs"
        want=$XSUM
        sum=$("$tool" query --db "$db" "SELECT SUM(m.p50), COUNT(*) FROM point_metrics m JOIN runs r ON r.run_key = m.run_key WHERE r.source_name = 'points-10000.json'" | tail -n1)
        [ "${sum%%	*}" = "$want" ] && [ "${sum##*	}" = 30000 ] && echo "ok points-large: the 10,000-point report's 30,000 statistics are in, their p50s summing as in the file ($want)" ||
            echo "not ok points-large: the database holds '$sum' (sum of p50s, count), the file $want over 30000"
        # read-only: a statement that writes fails, the file is unchanged, nothing is created
        before=$(sha256sum <"$db")
        "$tool" query --db "$db" "DELETE FROM point_values" >"$dir/ro.out" 2>"$dir/ro.err"
        rc=$?
        [ $rc = 1 ] && grep -q 'readonly\|read-only' "$dir/ro.err" && [ "$(sha256sum <"$db")" = "$before" ] &&
            [ ! -e "$db-wal" ] && [ ! -e "$db-shm" ] && [ ! -e "$db-journal" ] &&
            echo "ok readonly: query opens the database read-only: DELETE fails (exit 1, $(head -n1 "$dir/ro.err" | cut -c1-60)), the file unchanged, no -wal or -shm beside it" ||
            echo "not ok readonly: DELETE through query: exit $rc, $(head -n1 "$dir/ro.err" | cut -c1-80); file $([ "$(sha256sum <"$db")" = "$before" ] && echo unchanged || echo changed); $(ls "$db"-* 2>/dev/null | tr '\n' ' ')"
        "$tool" query --db "$dir/none.db" "SELECT 1" >/dev/null 2>"$dir/none-q.err"
        rc=$?
        "$tool" atlas --db "$dir/none2.db" -o "$dir/none.html" 2>"$dir/none-a.err"
        rc2=$?
        [ $rc = 1 ] && [ $rc2 = 1 ] && [ ! -e "$dir/none.db" ] && [ ! -e "$dir/none2.db" ] &&
            grep -q 'none.db: no such database$' "$dir/none-q.err" && grep -q 'tlbscope-report import --db FILE REPORTS... creates one' "$dir/none-q.err" && grep -q 'no such database' "$dir/none-a.err" &&
            echo "ok missing: query and atlas refuse a database that is not there (exit 1, 'no such database'), creating none" ||
            echo "not ok missing: query exit $rc: $(head -n1 "$dir/none-q.err"); created: $(ls "$dir"/none*.db 2>/dev/null | tr '\n' ' ')"
        # one statement: a second one is refused and named, before anything runs
        "$tool" query --db "$db" "SELECT COUNT(*) FROM runs; DELETE FROM runs" >"$dir/two.out" 2>"$dir/two.err"
        rc=$?
        got=$("$tool" query --db "$db" "SELECT ';' AS semicolon, COUNT(*) AS runs FROM runs; -- the end" 2>&1 | tail -n1)
        [ $rc = 2 ] && [ ! -s "$dir/two.out" ] && grep -qx 'tlbscope-report: query: one statement only; after it comes' "$dir/two.err" &&
            grep -qx '  DELETE FROM runs' "$dir/two.err" &&
            [ "$got" = ";	3" ] &&
            echo "ok one-statement: a second statement is refused, named (exit 2); a ';' in a string and a trailing comment are not one" ||
            echo "not ok one-statement: exit $rc, stdout '$(head -c 80 "$dir/two.out")', stderr '$(head -n1 "$dir/two.err")'; the quoted ';' query gave '$got'"
    } >"$dir/extra.tap" 2>"$dir/extra.err"
}
extra "$out/extra" "$TOOL"

core "$out/core" "$TOOL"
tap_lines() { # FILE: its ok / not ok lines as numbered TAP
    while IFS= read -r line; do
        case "$line" in
            "ok "*) ok "${line#ok }" ;;
            *) not_ok "${line#not ok }" ;;
        esac
    done <"$1"
}
tap_lines "$out/core/core.tap"
tap_lines "$out/extra/extra.tap"
DB=$out/core/fleet.db
XDB=$out/extra/fleet.db

# ---- query's formats: the same rows as tab-separated text, aligned, CSV and JSON ----
FQ="SELECT run, cpu_model, environment, cpu_count, tsc_hz, microcode FROM v_runs"
XIDS=$(printf "'%s'," $XKEYS | sed 's/,$//')
FQ="$FQ WHERE run IN ($XIDS) ORDER BY run"
"$TOOL" query --db "$XDB" "$FQ" >"$out/fmt.tsv" 2>&1
"$TOOL" query --db "$XDB" --format json "$FQ" >"$out/fmt.json" 2>&1
"$TOOL" query --db "$XDB" --format csv "$FQ" >"$out/fmt.csv" 2>&1
"$TOOL" query --db "$XDB" --format=aligned "$FQ" >"$out/fmt.aligned" 2>&1
python3 - "$out/fmt.tsv" "$out/fmt.json" "$out/fmt.csv" "$out/fmt.aligned" >"$out/fmt.why" 2>&1 <<'PY'
import csv, json, sys
tsv = [l.split("\t") for l in open(sys.argv[1]).read().splitlines()]
rows = json.load(open(sys.argv[2]))
head, body = tsv[0], tsv[1:]
want = [dict(zip(head, r)) for r in body]
def as_text(v):
    return "" if v is None else str(v)
assert len(rows) == len(body) == 3, "rows: json %d, tsv %d" % (len(rows), len(body))
assert [{k: as_text(v) for k, v in r.items()} for r in rows] == want, "json differs from tsv"
assert all(isinstance(r["cpu_count"], int) and isinstance(r["tsc_hz"], (int, float)) for r in rows), "numbers are not JSON numbers"
assert all(isinstance(r["run"], str) and r["run"].startswith("r") for r in rows), "strings"
assert list(csv.reader(open(sys.argv[3], newline=""))) == tsv, "csv differs from tsv"
al = open(sys.argv[4]).read().splitlines()
assert al[0].split(" | ")[0].strip() == "run" and set(al[1]) <= set("-+"), "aligned header"
assert al[-1] == "(3 rows)" and len(al) == 6, "aligned rows"
assert al[2].split(" | ")[3].strip() == body[0][3] and al[2].split(" | ")[3].startswith(" "), "a number right-aligned"
print("same rows in tsv, json (typed), csv and aligned")
PY
check "formats: --format json (numbers as numbers, NULL null), csv and aligned give the rows tab-separated text gives ($(tail -n1 "$out/fmt.why"))" \
    grep -q '^same rows' "$out/fmt.why"
"$TOOL" query --db "$XDB" --format yaml "SELECT 1" >/dev/null 2>"$out/fmt-bad.err"
rc=$?
check "formats: an unknown --format is bad usage (exit 2) and says which ones exist" \
    bash -c "[ $rc = 2 ] && grep -q 'expected tsv, aligned, csv or json' '$out/fmt-bad.err'"

# ---- v_recommendations in ns, like the other views ----
rq=$("$TOOL" query --db "$DB" "SELECT COUNT(*), SUM(CASE WHEN ABS(c.value_ns - c.value * 1000000000.0 / r.tsc_hz) < 0.001 THEN 1 ELSE 0 END), SUM(CASE WHEN c.unit_ns IN ('ns', 'ns/page') THEN 1 ELSE 0 END) FROM v_recommendations c JOIN runs r ON r.run = c.run WHERE c.unit IN ('ticks', 'ticks/page') AND c.value IS NOT NULL" | tail -n1)
rq2=$("$TOOL" query --db "$DB" "SELECT COUNT(*) FROM v_recommendations WHERE interval_unit IN ('ticks', 'ticks/page') AND interval_low IS NOT NULL AND interval_low_ns IS NULL" | tail -n1)
check "v_recommendations: a recommendation in ticks or ticks per page has value_ns at its run's TSC rate, and unit_ns (rows, right, unit: $rq); intervals too" \
    bash -c "set -- $rq; [ \"\$1\" -ge 1 ] && [ \"\$2\" = \"\$1\" ] && [ \"\$3\" = \"\$1\" ] && [ '$rq2' = 0 ]"

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

# ---- import's progress: on a terminal only (script(1) gives it one) ----
if command -v script >/dev/null; then
    script -qec "'$TOOL' import --db '$out/tty.db' '$SLOW'" /dev/null >"$out/tty.out" 2>&1
    check "progress: on a terminal, import of a 50,000-point report shows how far it has got, then erases it ($(grep -ao 'importing points-50000.json: [a-z]* *[0-9]*%' "$out/tty.out" | tail -n1))" \
        bash -c "grep -aq 'importing points-50000.json: [a-z]* *[0-9]*% of 50000 points' '$out/tty.out' &&
                 grep -aq \$'\\r\\033\\[Kimported ' '$out/tty.out'"
else
    skip "progress: on a terminal" "no script(1) (util-linux)"
fi

# ---- a point that does not parse: the message is the parser's over the whole file ----
mkdir -p "$out/badpoint"
sed 's/"p50":31397,"p90"/"p50":31397,,"p90"/' "$BIG" >"$out/badpoint/bad-point.json"
"$TOOL" import --db "$out/badpoint/fleet.db" "$out/badpoint/bad-point.json" >/dev/null 2>"$out/badpoint/import.err"
rc=$?
"$TOOL" validate "$out/badpoint/bad-point.json" >/dev/null 2>"$out/badpoint/validate.err"
sed -n 's/^tlbscope-report: [^:]*: //p' "$out/badpoint/validate.err" | head -n1 >"$out/badpoint/want"
sed -n 's/^tlbscope-report: [^:]*: refused: //p' "$out/badpoint/import.err" >"$out/badpoint/got"
check "bad-point: a syntax error inside a point is refused with validate's message for the whole file ($(cat "$out/badpoint/want"))" \
    bash -c "[ $rc = 1 ] && grep -q '^not JSON: line 1 column [0-9]' '$out/badpoint/want' && cmp -s '$out/badpoint/want' '$out/badpoint/got'"

# ---- schema 3's p50 interval of each metric: stored beside it ----
mkdir -p "$out/ci"
jq '(.experiments[] | (.results, .summary)[] | .metrics // {} | .[]) |= (. + {p50_ci95: {low: (.p50 - 1), high: (.p50 + 2)}})' \
    "$F/qemu-tcg-smp2-all.json" >"$out/ci/ci.json"
"$TOOL" import --db "$out/ci/fleet.db" "$out/ci/ci.json" >/dev/null 2>"$out/ci/import.err"
want=$(jq '[.experiments[] | (.results + .summary)[] | .metrics // {} | .[]] | length' "$out/ci/ci.json")
got=$("$TOOL" query --db "$out/ci/fleet.db" "SELECT COUNT(*) FROM point_metrics WHERE p50_ci95_low = p50 - 1 AND p50_ci95_high = p50 + 2" | tail -n1)
check "p50-interval: each metric's p50_ci95 {low, high} is stored beside it ($got of $want)" test "$got" = "$want" -a "$want" -gt 0

# ---- a database of fleet schema 1: query and atlas say how to upgrade it, import does ----
mkdir -p "$out/v1"
cp "$XDB" "$out/v1/fleet.db"
sqlite3 "$out/v1/fleet.db" "DROP VIEW v_microcode_history; DROP VIEW v_flush_points; DROP VIEW v_point_metrics;
    DROP VIEW v_model_headlines; DROP VIEW v_headlines; DROP VIEW v_recommendations; DROP VIEW v_runs;
    DROP INDEX runs_by_run; ALTER TABLE runs DROP COLUMN run;
    ALTER TABLE point_metrics DROP COLUMN p50_ci95_low; ALTER TABLE point_metrics DROP COLUMN p50_ci95_high;
    ALTER TABLE recommendations DROP COLUMN interval_of; ALTER TABLE recommendations DROP COLUMN interval_unit;
    UPDATE fleet_meta SET value = '1' WHERE key = 'schema_version'" 2>"$out/v1/downgrade.err"
"$TOOL" query --db "$out/v1/fleet.db" "SELECT 1" >/dev/null 2>"$out/v1/query.err"
rc=$?
"$TOOL" import --db "$out/v1/fleet.db" "$BOCHS" >"$out/v1/import.out" 2>&1
rc2=$?
want=$(echo $XKEYS | cut -d' ' -f2)
got=$("$TOOL" query --db "$out/v1/fleet.db" "SELECT COUNT(*), MAX(CASE WHEN source_name LIKE 'bochs%' THEN run END), (SELECT value FROM fleet_meta WHERE key = 'schema_version') FROM runs WHERE run IS NOT NULL" 2>&1 | tail -n1)
check "upgrade: a fleet schema 1 database is refused by query (exit 1, says import upgrades it); import upgrades it in place ($got)" \
    bash -c "[ ! -s '$out/v1/downgrade.err' ] && [ $rc = 1 ] && grep -q 'schema version 1; this tool reads version 2:' '$out/v1/query.err' && grep -q 'upgrades it' '$out/v1/query.err' &&
             [ $rc2 = 0 ] && grep -q '^already imported' '$out/v1/import.out' && [ '$got' = '3	$want	2' ]"

# ---- a build without SQLite says so ----
"$here/build/host/tlbscope-report-nofleet" import --db x.db "$BOCHS" >/dev/null 2>"$out/nofleet.err"
rc=$?
check "no-sqlite: a build without SQLite answers 'import: not in this build' and what to do (exit 2)" \
    bash -c "[ $rc = 2 ] && grep -q '^tlbscope-report: import: not in this build' '$out/nofleet.err' &&
             grep -q 'libsqlite3-dev' '$out/nofleet.err' && [ ! -e x.db ]"

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
    # read-only, one statement, the same formats and run ids (the large report too)
    runs=$("$TOOL" query --db "$PG_TEMP_URI" "SELECT COUNT(*) FROM runs" | tail -n1)
    "$TOOL" query --db "$PG_TEMP_URI" "DELETE FROM point_values" >/dev/null 2>"$out/pg-ro.err"
    rc=$?
    "$TOOL" query --db "$PG_TEMP_URI" "SELECT COUNT(*) FROM runs; DELETE FROM runs" >/dev/null 2>"$out/pg-two.err"
    rc2=$?
    check "postgresql-readonly: DELETE fails in query's read-only transaction (exit $rc), a second statement is refused (exit $rc2); nothing changed" \
        bash -c "[ $rc = 1 ] && grep -q 'read-only transaction' '$out/pg-ro.err' && [ $rc2 = 2 ] &&
                 [ \"\$('$TOOL' query --db '$PG_TEMP_URI' 'SELECT COUNT(*) FROM runs' | tail -n1)\" = '$runs' ] &&
                 [ \"\$('$TOOL' query --db '$PG_TEMP_URI' 'SELECT COUNT(*) FROM point_values' | tail -n1)\" != 0 ]"
    "$TOOL" import --db "$PG_TEMP_URI" "$F/qemu-tcg-smp4-all.json" "$BOCHS" "$BIG" >"$out/pg-extra.out" 2>&1
    fmt_same=0
    for f in tsv json csv aligned; do
        "$TOOL" query --db "$PG_TEMP_URI" --format $f "$FQ" >"$out/pg-fmt.$f" 2>&1
        cmp -s "$out/pg-fmt.$f" "$out/fmt.$f" || fmt_same=1
    done
    check "postgresql-formats: every format of the same query is byte for byte SQLite's; the printed run ids find the runs" \
        test $fmt_same = 0 -a "$(grep -c '^r[0-9a-f]\{16\}	' "$out/pg-fmt.tsv")" = 3
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

# ---- the fleet mutants: each must fail a check that the correct build passed ----
# the quick checks of issue 31 (extra) first; the core checks for a mutant they miss
mutants=$(sed -n '/^FLEET_MUTANTS :=/,/[^\\]$/p' sim/sim.mk | sed 's/^FLEET_MUTANTS :=//; s/\\//g')
killer_of() { # REFERENCE.tap MUTANT.tap: the first check the mutant failed that the reference passed
    local k
    for k in $(sed -n 's/^not ok \([a-z-]*\):.*/\1/p' "$2"); do
        grep -qx -- "$k" <(sed -n 's/^ok \([a-z-]*\):.*/\1/p' "$1") && { echo "$k"; return; }
    done
}
for m in $mutants; do
    extra "$out/mutant-$m/extra" "$here/build/mutants/$m/tlbscope-report"
    tap=$out/mutant-$m/extra/extra.tap
    killer=$(killer_of "$out/extra/extra.tap" "$tap")
    if [ -z "$killer" ]; then
        core "$out/mutant-$m/core" "$here/build/mutants/$m/tlbscope-report"
        tap=$out/mutant-$m/core/core.tap
        killer=$(killer_of "$out/core/core.tap" "$tap")
    fi
    check "mutant $m is killed${killer:+ by the check \"$killer\": $(grep -m1 "^not ok $killer:" "$tap" | sed "s/^not ok $killer: //")}" \
        test -n "$killer"
done
