#!/usr/bin/env bash
# tlbscope-report on the command line: exit codes, messages, directory
# arguments and the shape of --csv/--markdown output, on the fixture reports
# (tests/fixtures/reports; the simulated ones in its sim/, since compare
# refuses a set that mixes simulated and other reports). Prints TAP lines
# for tests/run-all.sh.
cd "$(dirname "$0")/../.." || exit 1
TOOL=build/tlbscope-report
FIX=tests/fixtures/reports
QEMU2=$FIX/qemu-tcg-smp2-all.json
QEMU4=$FIX/qemu-tcg-smp4-all.json
HW=$FIX/synthetic-epyc7763-2s-hw.json
SIMDIR=$FIX/sim
SIM=$SIMDIR/sim-epyc7763-smp8.json
SIM2=$SIMDIR/sim-epyc7763-smp8-seed2.json
SIM_SAYS="simulated timings are the model's and can only be compared with other simulated reports"
out=build/test-runs/tool-cli
rm -rf "$out" && mkdir -p "$out"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
check() { # description, command...
    local d=$1; shift
    if "$@"; then ok "$d"; else not_ok "$d"; fi
}
# run NAME ARGS...: runs the tool, keeps stdout, stderr and the exit status
run() {
    local name=$1; shift
    "$TOOL" "$@" >"$out/$name.out" 2>"$out/$name.err"
    echo $? >"$out/$name.rc"
}
rc() { cat "$out/$1.rc"; }
has() { grep -q -- "$2" "$out/$1"; }          # file, pattern
lines() { grep -c -- "$2" "$out/$1"; }         # file, pattern
max_width() { awk '{ if (length > m) m = length } END { print m + 0 }' "$out/$1"; }

if [ ! -x "$TOOL" ]; then
    make --no-print-directory tool >"$out/build.log" 2>&1 || { echo "not ok 1 - build tlbscope-report (see $out/build.log)"; exit 1; }
fi

run help --help
check "--help exits 0 and lists the commands" test "$(rc help)" = 0
check "--help names validate, show, compare, html, redact" \
    sh -c "grep -q 'validate FILE' $out/help.out && grep -q 'show \[--wide\] \[--json\] FILE' $out/help.out && grep -q 'compare \[--csv|--markdown|--json\]' $out/help.out && grep -q 'html -o OUT.html' $out/help.out && grep -q 'redact \[-o OUT.json\] \[--key KEY|--key-file FILE\] FILE' $out/help.out"
run noargs
check "no command: exit 2 with usage on stderr" sh -c "[ $(rc noargs) = 2 ] && grep -q '^usage: tlbscope-report' $out/noargs.err"
run badcmd frobnicate
check "unknown command: exit 2, error prefixed tlbscope-report:" \
    sh -c "[ $(rc badcmd) = 2 ] && grep -q \"^tlbscope-report: unknown command 'frobnicate'\" $out/badcmd.err"
for c in validate show compare html redact; do
    run "help-$c" "$c" --help
    check "$c --help exits 0 with its usage" sh -c "[ $(rc help-$c) = 0 ] && grep -q '^usage: tlbscope-report $c' $out/help-$c.out"
done

# validate
run v-good validate "$QEMU2"
check "validate a good report: exit 0, 'OK FILE'" sh -c "[ $(rc v-good) = 0 ] && [ \"\$(cat $out/v-good.out)\" = 'OK $QEMU2' ]"
run v-dir validate "$FIX"
check "validate a directory: every *.json in it, exit 0" sh -c "[ $(rc v-dir) = 0 ] && [ $(lines v-dir.out '^OK ') = $(ls $FIX/*.json | wc -l) ]"
run v-broken validate "$FIX/broken"
check "validate the broken fixtures: exit 1" test "$(rc v-broken)" = 1
check "validate the broken fixtures: no file is OK" test "$(lines v-broken.out '^OK ')" = 0
check "validate the broken fixtures: every file named on stderr" sh -c \
    "for f in $FIX/broken/*.json; do grep -q \"^tlbscope-report: \$f: \" $out/v-broken.err || exit 1; done"
check "newer schema: the specific message" has v-broken.err \
    "broken/newer-schema-v4.json: schema_version 4 is newer than this tool understands (3); update tlbscope-report"
check "truncated: says truncated, with line and column" has v-broken.err "broken/truncated.json: truncated JSON: input ends at line [0-9]* column"
check "not JSON: jansson's line and column" has v-broken.err "broken/not-json.json: not JSON: line 1 column"
check "p50 < min: the JSON path of the value" has v-broken.err \
    "broken/p50-below-min.json: experiments\[0\].results\[1\].metrics.latency.p50: p50 [0-9]* is below min"
check "cpu_count != len(cpus)" has v-broken.err "broken/cpu-count-mismatch.json: topology.cpu_count: 3, but cpus has 2 entries"
check "wrong schema name" has v-broken.err "broken/wrong-schema.json: not a tlbscope report: schema is"
run v-mixed validate "$QEMU2" "$FIX/broken/empty.json" "$HW"
check "good and bad files together: exit 1, OK for each good one" \
    sh -c "[ $(rc v-mixed) = 1 ] && [ $(lines v-mixed.out '^OK ') = 2 ] && grep -q 'empty.json: empty file' $out/v-mixed.err"
run v-missing validate "$FIX/no-such.json"
check "a missing file: exit 1, cannot read" sh -c "[ $(rc v-missing) = 1 ] && grep -q 'no-such.json: cannot read' $out/v-missing.err"
run v-none validate
check "validate without files: exit 2" test "$(rc v-none)" = 2

# show
run s-hw show "$HW"
check "show: exit 0, ends with the verdict (COMPLETE: 7 measured)" sh -c "[ $(rc s-hw) = 0 ] && tail -n1 $out/s-hw.out | grep -qx 'COMPLETE: 7 measured'"
check "show: the IPI matrix of 16 CPUs, wider than 80 columns, says --wide prints it" has s-hw.out '^  matrix of 16 CPUs omitted: wider than 80 columns (show --wide prints it)'
check "show: fits in 80 columns" test "$(max_width s-hw.out)" -le 80
run s-hw-wide show --wide "$HW"
check "show --wide: the IPI matrix for 16 CPUs, within 100 columns" sh -c \
    "grep -qF 'init \\ target' $out/s-hw-wide.out && [ $(max_width s-hw-wide.out) -le 100 ]"
run s-qemu show "$QEMU2"
check "show: hypervisor and emulation warnings" sh -c "grep -q '^WARNING   virtualised: hypervisor \"TCGTCGTCGTCG\"' $out/s-qemu.out && grep -q '^WARNING   emulated: invlpgb_range' $out/s-qemu.out"
# issue 23: a SKIP because one experiment does not apply (every QEMU run) is a complete run;
# its emulated INVLPGB marks the verdict as every other line (the ids do not fit 80 columns)
check "show: a SKIP run ends COMPLETE, with what did not apply, labelled [EMULATED]" sh -c "tail -n2 $out/s-qemu.out | tr '\n' '|' |
    grep -qx 'Run complete, result SKIP|COMPLETE: 6 measured, 1 not applicable to this machine \[EMULATED\]|'"
run s-sim show "$SIM"
check "show: a simulated report's verdict says [SIMULATED]" sh -c "tail -n1 $out/s-sim.out | grep -qx 'COMPLETE: 7 measured \[SIMULATED\]'"
# the verdict a report carries (core/run/verdict.h) is recomputed by validate: the right one passes,
# an ERROR called COMPLETE and a count off by one are named
with_verdict() { # FILE WORD MEASURED
    jq --arg w "$2" --argjson m "$3" '.verdict = {word: $w, measured: $m, not_applicable: 1,
        inconclusive: 0, in_error: 0, failed: 0, cpus_dropped: 0, run_errors: 0,
        line: "COMPLETE: 6 measured, 1 not applicable to this machine [EMULATED]"}' "$QEMU2" >"$out/$1"
}
with_verdict verdict-ok.json COMPLETE 6
with_verdict verdict-word.json ERROR 6
with_verdict verdict-count.json COMPLETE 7
jq '.result = "ERROR" | .run.errors = [{where: "report", message: "x"}]' "$out/verdict-ok.json" >"$out/verdict-error.json"
run v-verdict validate "$out/verdict-ok.json"
check "validate: a report's verdict that matches its experiments passes" test "$(rc v-verdict)" = 0
run v-verdict-word validate "$out/verdict-word.json"
check "validate: verdict.word ERROR on a SKIP run is named" \
    sh -c "[ $(rc v-verdict-word) = 1 ] && grep -q 'verdict.word: ERROR, but result SKIP makes it COMPLETE' $out/v-verdict-word.err"
run v-verdict-count validate "$out/verdict-count.json"
check "validate: verdict.measured off by one is named, and the line with it" \
    sh -c "[ $(rc v-verdict-count) = 1 ] && grep -q 'verdict.measured: 7, but the report' $out/v-verdict-count.err"
run v-verdict-error validate "$out/verdict-error.json"
check "validate: a run turned ERROR keeps no COMPLETE verdict" \
    sh -c "[ $(rc v-verdict-error) = 1 ] && grep -q 'verdict.word: COMPLETE, but result ERROR makes it ERROR' $out/v-verdict-error.err &&
           grep -q 'verdict.line: .*ERROR (incomplete): 6 measured, 1 not applicable, 1 run error \[EMULATED\]' $out/v-verdict-error.err"
run s-two show "$QEMU2" "$HW"
check "show with two files: exit 2" test "$(rc s-two)" = 2
run s-bad show "$FIX/broken/garbage-missing.json"
check "show of a missing file: exit 1" test "$(rc s-bad)" = 1
run s-invalid show "$FIX/broken/p50-below-min.json"
check "show of a schema-invalid report: exit 1, nothing shown, the first problem named" \
    sh -c "[ $(rc s-invalid) = 1 ] && [ ! -s $out/s-invalid.out ] && grep -q '^tlbscope-report: .*p50-below-min.json: not a valid report (1 error, first: experiments' $out/s-invalid.err"
run c-invalid compare "$HW" "$FIX/broken/p50-below-min.json"
check "compare with a schema-invalid report: exit 1, nothing compared" \
    sh -c "[ $(rc c-invalid) = 1 ] && [ ! -s $out/c-invalid.out ] && grep -q 'p50-below-min.json: not a valid report' $out/c-invalid.err"
run h-invalid html -o "$out/invalid.html" "$HW" "$FIX/broken/p50-below-min.json"
check "html with a schema-invalid report: exit 1, no page" \
    sh -c "[ $(rc h-invalid) = 1 ] && [ ! -e $out/invalid.html ] && grep -q 'p50-below-min.json: not a valid report' $out/h-invalid.err"

# compare (sides named A, B, C with NAME=FILE where a check reads them by letter;
# the default names: tests/checks/compare_outcome.sh)
run c-text compare A="$HW" B="$QEMU2"
check "compare: exit 0" test "$(rc c-text)" = 0
check "compare: header flags the virtualised report" has c-text.out '^     \[VIRTUALISED: TCGTCGTCGTCG\] \[EMULATED\]'
check "compare: warns when hardware meets virtualised" has c-text.out '^WARNING: hardware report(s) A compared with virtualised'
check "compare: virtualised cells are marked" has c-text.out ' [0-9.]* [nmu]*s\*~ '
check "compare: fits in 80 columns for two reports" test "$(max_width c-text.out)" -le 80
run c-shapes compare A="$QEMU2" B="$QEMU4"
check "compare different shapes (finding 3): no row of dashes, B's extra points listed" sh -c \
    "! grep -q '^  unicast_each  *[0-9]  *-  *-' $out/c-shapes.out && tr '\n' ' ' < $out/c-shapes.out | grep -q '  only in B (2 points, not compared by value or role): mode=shorthand targets=3; *mode=unicast_each  *targets=2 '"
check "compare different shapes (finding 3): 2 and 4 CPUs meet at 'all other CPUs' and 'all lazy'" sh -c \
    "grep -q '^  unicast_each  all other CPUs  *[0-9.]* [nmu]*s\*  *[0-9.]* [nmu]*s\*  *[0-9.]*? +[0-9]*%\$' $out/c-shapes.out && grep -q 'all lazy' $out/c-shapes.out"
run c-csv compare --csv A="$QEMU2" B="$QEMU4" C="$HW"
CSV_HEAD='report,side,run_id,file,machine,machine_id,cpu,cpu_count,experiment,status,set,initiator,target,class,mode,targets,lazy,pages,variant,method,form,kind,rounds,cpus,flush,pti,other_params,metric,unit,n,min,p50,p90,p99,max,ratio_to_baseline,value,flags'
check "compare --csv (finding 10): the tidy header, fixed whatever the number of reports" sh -c \
    "head -n1 $out/c-csv.out | tr -d '\r' | grep -qx '$CSV_HEAD'"
# csvcol FILE: "fields-per-row set; distinct values of column NAME" via Python's csv reader
csvcol() { python3 -c 'import csv,sys
rows=list(csv.DictReader(open(sys.argv[1], newline="")))
print(sorted({len(r) for r in rows}), sorted({r[sys.argv[2]] for r in rows if all(r[k]==v for k,v in (a.split("=") for a in sys.argv[3:]))}))' "$@"; }
check "compare --csv (finding 10): every row has 38 fields; units ns or value" \
    test "$(csvcol $out/c-csv.out unit)" = "[38] ['ns', 'value']"
check "compare --csv (finding 10): ipi_roundtrip has a row per pair (targets 0-3 of the 4-CPU run)" \
    test "$(csvcol $out/c-csv.out target experiment=ipi_roundtrip set=result report=B metric=latency)" = "[38] ['0', '1', '2', '3']"
check "compare --csv (finding 10): ratio_to_baseline is 1 for the baseline's own rows" \
    test "$(csvcol $out/c-csv.out ratio_to_baseline report=A set=result metric=latency)" = "[38] ['1.0000']"
check "compare --csv: the mixed warning goes to stderr" has c-csv.err 'warning: hardware and virtualised/emulated reports'
run c-md compare --markdown A="$QEMU2" B="$HW"
check "compare --markdown: title, machine table, pipe tables" sh -c \
    "head -n1 $out/c-md.out | grep -qx '# tlbscope comparison' && grep -q '^| A | ' $out/c-md.out && grep -q '^| --- | --: |' $out/c-md.out && grep -q '^## shootdown_seq_vs_conc: ' $out/c-md.out"
run c-dir compare "$FIX"
check "compare a directory: its 5 reports named by their CPU, made unique" sh -c "[ $(rc c-dir) = 0 ] && grep -q '^  QEMU-TCG_4  ' $out/c-dir.out && grep -q '^  EPYC-7763  ' $out/c-dir.out && ! grep -q '^  QEMU-TCG_5  ' $out/c-dir.out"
run c-one compare "$QEMU2"
check "compare with one report: exit 2" test "$(rc c-one)" = 2
run c-both compare --csv --markdown "$QEMU2" "$HW"
check "compare --csv --markdown: exit 2" test "$(rc c-both)" = 2
run c-broken compare "$QEMU2" "$FIX/broken/truncated.json"
check "compare with a truncated report: exit 1, says which" sh -c "[ $(rc c-broken) = 1 ] && grep -q 'truncated.json: truncated JSON' $out/c-broken.err"

# ---- issue 13: comparing like engineers compare benchmark results ----
# scaled SRC FACTOR DEST [KEY=VALUE...]: a copy of SRC with every latency statistic
# times FACTOR (a "run" of the same machine and configuration), method fields set
scaled() {
    python3 - "$@" <<'PY'
import json, sys
src, f, dest = sys.argv[1], float(sys.argv[2]), sys.argv[3]
d = json.load(open(src))
for e in d["experiments"]:
    for p in e.get("results", []) + e.get("summary", []):
        for m in p.get("metrics", {}).values():
            for k in ("min", "p50", "p90", "p99", "max", "mean"):
                if k in m:
                    m[k] = int(m[k] * f)
for kv in sys.argv[4:]:
    k, v = kv.split("=", 1)
    o = d
    *path, last = k.split(".")
    for q in path:
        o = o[int(q)] if isinstance(o, list) else o[q]
    o[last] = json.loads(v)
json.dump(d, open(dest, "w"))
PY
}
S4=tests/fixtures/reports/schema1/qemu-tcg-smp4-max.json
S8=tests/fixtures/reports/schema1/qemu-tcg-smp8-max.json
run f1 compare A="$S4" B="$S8"
check "finding 1: compare opens with a conditions table marking samples and profile" sh -c \
    "[ $(rc f1) = 0 ] && grep -q '^Conditions' $out/f1.out && grep -q '^  samples  *1000  *100  *numbers' $out/f1.out && grep -q '^  profile  *default  *quick  *numbers' $out/f1.out && tr '\\n' ' ' < $out/f1.out | grep -q 'the same in every report: tool version 0.1.0, tool commit .* APIC mode xapic, .*target_wait hlt, .*TSC source'"
check "finding 1: a warning per difference that changes numbers, none for equal rows" sh -c \
    "grep -q '^WARNING: samples differs (A 1000, B 100)' $out/f1.out && grep -q '^WARNING: profile differs' $out/f1.out && ! grep -q '^WARNING: APIC mode' $out/f1.out"
run f1-md compare --markdown A="$S4" B="$S8"
check "finding 1: --markdown has the conditions table and warnings too" sh -c \
    "grep -q '^## Conditions' $out/f1-md.out && grep -q '^| samples | 1000 | 100 | DIFFERS (numbers) |' $out/f1-md.out && grep -q '^> \*\*WARNING:\*\* samples differs' $out/f1-md.out"
run f1-html html -o "$out/f1.html" A="$S4" B="$S8"
check "finding 1: the html page has the conditions table and the warnings, before the charts" sh -c \
    "grep -q '<h2 id=\"conditions\">Conditions</h2>' $out/f1.html && grep -q '<li>samples: A 1000, B 100</li>' $out/f1.html && [ \$(grep -n 'id=\"conditions\"' $out/f1.html | cut -d: -f1) -lt \$(grep -n '<svg' $out/f1.html | head -n1 | cut -d: -f1) ]"
# (a valid report: show, compare and html refuse one that fails validation, exit 1)
BOCHS=$FIX/bochs/bochs-skylake-x-smp2.json
scaled "$BOCHS" 1.00 "$out/cond.json" method.apic_mode='"x2apic"' 'experiments.0.conditions.smi_count=3'
run f1-new compare A="$BOCHS" B="$out/cond.json"
check "finding 1: fields other reports lack read as '-' (per-experiment conditions)" sh -c \
    "grep -q '^  condition smi_count  *-  *3 *\$' $out/f1-new.out && grep -q '^Note: not recorded by every report (older tool versions, or unknown to' $out/f1-new.out && grep -q '^warning: conditions differ (A vs B): APIC mode (IPI delivery differs): xapic vs' $out/f1-new.out"

# finding 2: pooled runs, spread and verdict
scaled "$QEMU4" 1.00 "$out/a1.json"; scaled "$QEMU4" 1.04 "$out/a2.json"
scaled "$QEMU4" 0.97 "$out/n1.json"; scaled "$QEMU4" 1.03 "$out/n2.json"
scaled "$QEMU4" 1.60 "$out/s1.json"; scaled "$QEMU4" 1.70 "$out/s2.json"
run f2-one compare "$out/a1.json" "$out/s1.json"
check "finding 2: one run per side says the spread is unknown" sh -c \
    "[ $(rc f2-one) = 0 ] && grep -q '^Noise: spread unknown: one run per side' $out/f2-one.out && grep -q 'spread unknown: no interval on a side, so no verdict' $out/f2-one.out"
run f2-pool compare "A=$out/a1.json,$out/a2.json" "B=$out/n1.json,$out/n2.json" "C=$out/s1.json,$out/s2.json"
check "finding 2: pooled sides are named with their runs" sh -c \
    "[ $(rc f2-pool) = 0 ] && tr '\\n' ' ' < $out/f2-pool.out | grep -q '  A pools 2 runs: $out/a1.json *$out/a2.json' && grep -q '^  C pools 2 runs: ' $out/f2-pool.out"
check "finding 2: a range and a verdict per ratio: no difference within noise, 1.6x slower" sh -c \
    "grep -q '^  unicast_each  *1  B .* no difference\$' $out/f2-pool.out && grep -q '^  unicast_each  *1  C .* 1.54-1.70  slower\$' $out/f2-pool.out"
check "finding 2: per-experiment summary: geometric mean with its range, named, and verdict counts" sh -c \
    "tr '\\n' ' ' < $out/f2-pool.out | tr -s ' ' | grep -q ' => C is 1.6[0-9]x slower than A over [0-9]* points, range over the runs \[1.5[0-9], 1.7[0-9]\]; 0 faster, [0-9]* slower, 0 no difference (dead band 3%)'"
mkdir -p "$out/grp" && cp "$out/a1.json" "$out/a2.json" "$out/grp/" && scaled "$QEMU2" 1.0 "$out/grp/z1.json" && scaled "$QEMU2" 1.1 "$out/grp/z2.json"
run f2-group compare --group "$out/grp"
check "finding 2: --group pools the reports of one machine and configuration" sh -c \
    "[ $(rc f2-group) = 0 ] && tr '\\n' ' ' < $out/f2-group.out | grep -q '  QEMU-TCG pools 2 runs: $out/grp/a1.json *$out/grp/a2.json' && tr '\\n' ' ' < $out/f2-group.out | grep -q '  QEMU-TCG_2 pools 2 runs: $out/grp/z1.json *$out/grp/z2.json'"

# control: --fail-if-slower, --baseline, --experiment, --sort, --only-differences
run f-fail compare --fail-if-slower 10 "A=$out/a1.json,$out/a2.json" "B=$out/s1.json,$out/s2.json"
check "--fail-if-slower 10: 1.6x slower over the whole range exits 3 and names the points" sh -c \
    "[ $(rc f-fail) = 3 ] && grep -q '^tlbscope-report: slower: B vs A: ipi_broadcast mode=unicast_each targets=1: p50 ratio 1.6' $out/f-fail.err && grep -q 'points slower than the baseline by more than 10%\$' $out/f-fail.err"
run f-pass compare --fail-if-slower 10 "A=$out/a1.json,$out/a2.json" "B=$out/n1.json,$out/n2.json"
check "--fail-if-slower 10: runs within noise exit 0" test "$(rc f-pass)" = 0
run f-pass70 compare "A=$out/a1.json,$out/a2.json" "B=$out/s1.json,$out/s2.json" --fail-if-slower 70
check "--fail-if-slower 70 (after the operands): 1.6x is within the allowance, exit 0" test "$(rc f-pass70)" = 0
run f-failbad compare --fail-if-slower ten "$QEMU2" "$QEMU4"
check "--fail-if-slower without a number: exit 2" test "$(rc f-failbad)" = 2
run f4-dir compare tests/fixtures/reports/schema1
check "finding 4: a directory says which report is the baseline and how to choose" sh -c \
    "tr '\\n' ' ' < $out/f4-dir.out | tr -s ' ' | grep -q 'Baseline: QEMU-TCG (tests/fixtures/reports/schema1/qemu-tcg-smp1-max.json); ratios .*(choose with --baseline FILE)' && tr '\\n' ' ' < $out/f4-dir.out | tr -s ' ' | grep -q ' base: QEMU-TCG_2, the first side that measured ipi_broadcast (QEMU-TCG has no point of it)'"
run f4-base compare tests/fixtures/reports/schema1 --baseline "$S4"
check "finding 4: --baseline FILE: the ratios divide by it, the columns keep the operands' order" sh -c \
    "[ $(rc f4-base) = 0 ] && grep -m1 '^  [^ ]*  tests/fixtures/reports/schema1/' $out/f4-base.out | grep -q '^  QEMU-TCG  tests/fixtures/reports/schema1/qemu-tcg-smp1-max.json\$' && grep -q '^  QEMU-TCG_3  $S4\$' $out/f4-base.out && grep -q '^Baseline: QEMU-TCG_3 ($S4)' $out/f4-base.out && grep -q '^  same_package  QEMU-TCG_3 .* base\$' $out/f4-base.out && grep -q '^  same_package  QEMU-TCG_4 .* [0-9]\.[0-9]*? ' $out/f4-base.out"
run f-exp compare --experiment ipi_broadcast --experiment shootdown_lazy "$QEMU2" "$QEMU4"
check "--experiment (repeatable): only those sections" sh -c \
    "[ \$(grep -c '^== ' $out/f-exp.out) = 2 ] && grep -q '^== ipi_broadcast' $out/f-exp.out && grep -q '^== shootdown_lazy' $out/f-exp.out"
run f-sort compare --sort ratio --experiment shootdown_seq_vs_conc A="$out/a1.json" B="$out/s1.json" C="$out/n1.json"
check "--sort ratio: rows by their largest ratio, largest first" sh -c \
    "awk '/^== shootdown_seq_vs_conc/{s=1} s && /^ +[0-9]+ +(seq|conc) /{print \$NF}' $out/f-sort.out | tr -d '?' | sort -c -r -g"
run f-only compare --only-differences "$out/a1.json" "$out/a2.json"
check "--only-differences: a 4% change (no spread known) shows no rows" sh -c \
    "[ $(rc f-only) = 0 ] && ! grep -q '^  unicast_each  ' $out/f-only.out"

# finding 6: control characters from a report never reach the terminal
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['cpu']['brand']='Evil\x1b[2J\x1b]0;pwned\x07CPU\nforged line\u009b'; d['experiments'][0]['reason']='r\x1bx'; json.dump(d, open(sys.argv[2],'w'))" "$QEMU2" "$out/evil.json"
run f6-show show "$out/evil.json"
run f6-text compare "$out/evil.json" "$QEMU4"
run f6-md compare --markdown "$out/evil.json" "$QEMU4"
run f6-csv compare --csv "$out/evil.json" "$QEMU4"
run f6-html html -o - "$out/evil.json"
check "finding 6: ESC, BEL, C1 and newlines in report strings are escaped in show, compare, CSV, Markdown, html" sh -c \
    "! grep -q \"\$(printf '\033')\" $out/f6-*.out && ! grep -q \"\$(printf '\007')\" $out/f6-*.out && ! grep -q '^forged line' $out/f6-*.out && grep -q 'Evil.x1b\[2J.x1b\]0;pwned.x07CPU.x0aforged line.u009b' $out/f6-show.out && grep -q 'Evil.x1b' $out/f6-text.out"

# issue 35: a report's text in CSV and Markdown (tests/checks/hostile_text.py says how)
check "issue 35: CSV: a cell that starts = + - @, tab or CR gets a leading quote; -3.5, +2 and '-' stay (compare --csv, query --format csv)" \
    python3 tests/checks/hostile_text.py csv "$TOOL" "$out/hostile-csv"
check "issue 35: compare --markdown: a report's <img>, <script>, & as entities, | escaped in a cell" \
    python3 tests/checks/hostile_text.py markdown "$TOOL" "$out/hostile-md"

# finding 8: arguments
run f8-csv compare "$QEMU2" "$QEMU4" --csv
check "finding 8: --csv after the operands" sh -c "[ $(rc f8-csv) = 0 ] && head -n1 $out/f8-csv.out | grep -q '^report,side,'"
run f8-o html "$QEMU4" -o "$out/late-o.html"
check "finding 8: html -o after the operands" sh -c "[ $(rc f8-o) = 0 ] && [ -s $out/late-o.html ]"
mkdir -p "$out/many" && for i in $(seq -w 1 30); do cp "$QEMU2" "$out/many/r$i.json"; done
run f8-many compare "$out/many"
check "finding 8: 30 reports is bad usage: exit 2, says how to pool" sh -c \
    "[ $(rc f8-many) = 2 ] && grep -q '30 reports (or pooled sides) given; at most 26' $out/f8-many.err"
run f8-many-group compare --group "$out/many" "$QEMU4"
check "finding 8: ... and pooled with --group they compare (exit 0)" test "$(rc f8-many-group)" = 0
run f8-help help compare
check "finding 8: 'help compare' prints compare's help" sh -c "[ $(rc f8-help) = 0 ] && head -n1 $out/f8-help.out | grep -q '^usage: tlbscope-report compare'"
run f8-version --version
check "finding 8: --version" sh -c "[ $(rc f8-version) = 0 ] && grep -q \"^tlbscope-report $(cat VERSION) (commit \" $out/f8-version.out"
rm -f "$out/fifo.json" && mkfifo "$out/fifo.json"
timeout 10 "$TOOL" validate "$out/fifo.json" >"$out/f8-fifo.out" 2>"$out/f8-fifo.err"; echo $? >"$out/f8-fifo.rc"
check "finding 8: a FIFO is refused at once (exit 1), not waited on" sh -c \
    "[ $(rc f8-fifo) = 1 ] && grep -q 'fifo.json: not a regular file' $out/f8-fifo.err"
mkdir -p "$out/onebad" && cp "$QEMU2" "$QEMU4" "$out/onebad/" && cp "$FIX/broken/truncated.json" "$out/onebad/"
run f8-onebad compare "$out/onebad"
run f8-onebad-html html -o "$out/onebad.html" "$out/onebad"
check "finding 8: one bad file in a directory is reported and skipped (compare and html)" sh -c \
    "[ $(rc f8-onebad) = 0 ] && [ $(rc f8-onebad-html) = 0 ] && grep -q 'truncated.json: skipped (not a readable report)' $out/f8-onebad.err && grep -q '^  QEMU-TCG_2  $out/onebad/qemu-tcg-smp4-all.json' $out/f8-onebad.out"
run f8-named compare "$QEMU2" "$FIX/broken/truncated.json"
check "finding 8: a bad file named on the command line still fails (exit 1)" test "$(rc f8-named)" = 1

# finding 7: implausible TSC rates, n=0, conc/seq ratio, 2^63-1
scaled "$QEMU2" 1 "$out/tsc1.json" cpu.tsc_hz=1
run f7-tsc-v validate "$out/tsc1.json"
run f7-tsc-s show "$out/tsc1.json"
check "finding 7: tsc_hz=1 is warned by validate and show" sh -c \
    "grep -q 'cpu.tsc_hz: 1 Hz is not a plausible TSC rate (100 MHz to 10 GHz)' $out/f7-tsc-v.err && grep -q '^WARNING: a TSC rate of 1 Hz is not plausible' $out/f7-tsc-s.out"
scaled "$QEMU2" 1 "$out/tsc20g.json" cpu.tsc_hz=20000000000
run f7-tsc-hi validate "$out/tsc20g.json"
check "finding 7: 20 GHz is warned too, 2.6 GHz is not" sh -c \
    "grep -q 'not a plausible TSC rate' $out/f7-tsc-hi.err && ! grep -q 'plausible' $out/v-good.err"
scaled "$QEMU2" 1 "$out/tsc0.json" cpu.tsc_hz=0
run f7-tsc-0 show "$out/tsc0.json"
check "show: 'frequency unknown' exactly when tsc_hz is 0, not beside a known rate" sh -c \
    "grep -q '^TSC       frequency unknown' $out/f7-tsc-0.out && ! grep -q 'frequency unknown' $out/s-qemu.out && grep -q '^TSC       2596' $out/s-qemu.out"
python3 - "$QEMU2" "$out/n0.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
e = [x for x in d["experiments"] if x["id"] == "ipi_broadcast"][0]
e["results"][0]["metrics"]["latency"] = {"n": 0, "min": 0, "p50": 0, "p90": 0, "p99": 0, "max": 0, "mean": 0}
json.dump(d, open(sys.argv[2], "w"))
PY
run f7-n0 show "$out/n0.json"
check "finding 7: n=0 shows 'no samples', not '0.0 (0)'" sh -c \
    "grep -q '^ *1 .*no samples' $out/f7-n0.out && ! grep -q '0\.0 (0)' $out/f7-n0.out"
python3 - "$QEMU2" "$out/ratio.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
e = [x for x in d["experiments"] if x["id"] == "shootdown_seq_vs_conc"][0]
e["summary"][0]["values"]["conc_over_seq_p50"] = 5.0
json.dump(d, open(sys.argv[2], "w"))
PY
run f7-ratio-v validate "$out/ratio.json"
run f7-ratio-s show "$out/ratio.json"
check "finding 7: validate cross-checks conc_over_seq_p50 against the two p50s" sh -c \
    "[ $(rc f7-ratio-v) = 1 ] && grep -q 'summary\[0\].values.conc_over_seq_p50: 5, but the conc point.s p50 over the seq point.s is' $out/f7-ratio-v.err"
check "finding 7: show refuses the report whose stored conc/seq disagrees with its p50s (exit 1)" sh -c \
    "[ $(rc f7-ratio-s) = 1 ] && ! grep -q ' 5\.00 ' $out/f7-ratio-s.out && grep -q 'not a valid report' $out/f7-ratio-s.err"
python3 - "$QEMU2" "$out/max.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
e = [x for x in d["experiments"] if x["id"] == "ipi_broadcast"][0]
m = e["results"][0]["metrics"]["latency"]
for k in ("p50", "p90", "p99", "max"):
    m[k] = 9223372036854775807
d["cpu"]["tsc_hz"] = 0
json.dump(d, open(sys.argv[2], "w"))
PY
run f7-max show "$out/max.json"
check "finding 7: 2^63-1 ticks print as 9,223,372,036,854,775,807 (not ...808)" sh -c \
    "grep -q '9,223,372,036,854,775,807' $out/f7-max.out && ! grep -q '808' $out/f7-max.out"
run f9-derived compare --experiment shootdown_seq_vs_conc "$S4" "$S8"
check "finding 9: derived ratios in one format (1.007*, 1.004*: never 1*), the legend says what ? means" sh -c \
    "grep -q '  conc_over_seq_p50  *1.007\*  *1.004\*' $out/f9-derived.out && ! grep -q ' 1\* ' $out/f9-derived.out && tr '\\n' ' ' < $out/f9-derived.out | grep -q 'a ratio followed by ? *divides a marked (not *hardware) value' && ! grep -q 'ratio using one' $out/f9-derived.out"
run f9-units show --wide "$S4"
check "finding 9: show scales units and separates thousands: '518 us (1,345,760)', '11.8 us (30,524)'" sh -c \
    "grep -q '11.8 us (30,524)  *518 us (1,345,760)' $out/f9-units.out"

# finding 11 (without a browser): a report lacking a middle point keeps one unbroken line
python3 - "$QEMU4" "$out/gap.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
e = [x for x in d["experiments"] if x["id"] == "ipi_broadcast"][0]
e["results"] = [p for p in e["results"] if not (p["params"].get("mode") == "unicast_each" and p["params"].get("targets") == 2)]
json.dump(d, open(sys.argv[2], "w"))
PY
run f11-gap html -o "$out/gap.html" "$QEMU4" "$out/gap.json"
check "finding 11: a series missing a middle point is one polyline, not two (ipi_broadcast chart)" sh -c \
    "[ $(rc f11-gap) = 0 ] && python3 -c 'import re,sys; d=open(sys.argv[1]).read(); c=[x for x in re.findall(r\"<svg class=.chart.*?</svg>\", d, re.S) if \"<title>ipi_broadcast\" in x][0]; n=len(re.findall(\"<polyline\", c)); sys.exit(0 if n == 4 else 1)' $out/gap.html"

# html
run h-page html -o "$out/page.html" "$QEMU4" "$HW"
check "html: exit 0, page written" sh -c "[ $(rc h-page) = 0 ] && [ -s $out/page.html ]"
check "html: inline SVG charts, no script, no network reference" sh -c \
    "grep -q '<svg class=\"chart\"' $out/page.html && ! grep -qi '<script' $out/page.html && ! grep -qiE 'https?:' $out/page.html"
run h-noout html "$QEMU4"
check "html without -o: exit 2" test "$(rc h-noout)" = 2
run h-bad html -o "$out/nope.html" "$FIX/broken/empty.json"
check "html of an empty file: exit 1, no page" sh -c "[ $(rc h-bad) = 1 ] && [ ! -e $out/nope.html ]"

# simulated reports (tlbscope-sim): valid, flagged everywhere, compared only with each other
run v-sim validate "$SIMDIR"
check "validate the simulated reports: exit 0, both OK" sh -c "[ $(rc v-sim) = 0 ] && [ $(lines v-sim.out '^OK ') = 2 ] && [ ! -s $out/v-sim.err ]"
check "validate: simulated true with simulation null, the field named" has v-broken.err \
    "broken/simulated-without-simulation.json: simulation: is null, but simulated is true"
check "validate: simulation.seed of the wrong type, the field named" has v-broken.err \
    "broken/simulation-seed-not-integer.json: simulation.seed: expected an integer, found a string"
run s-sim show "$SIM"
check "show simulated: the warning, then model, profile and seed" sh -c \
    "grep -A1 \"^WARNING   simulated by tlbscope-sim: timings are the model's, not hardware's\$\" $out/s-sim.out | tail -n1 | grep -qx '          model \"tlbscope strict TLB model\" v1, profile epyc-7763, seed 12345'"
check "show simulated: every experiment row and heading marked [SIMULATED]" sh -c \
    "[ \$(grep -c '^[a-z_]*  *SUCCESS .*\[SIMULATED\]\$' $out/s-sim.out) = 7 ] && tr '\\n' ' ' < $out/s-sim.out | grep -q '== ipi_roundtrip: [^=]* \[SIMULATED\]  *SUCCESS'"
check "show simulated: no hypervisor warning stands in for it, 100 columns" sh -c \
    "! grep -q 'virtualised' $out/s-sim.out && [ $(max_width s-sim.out) -le 100 ]"
sed 's/"errata": \[\]/"errata": ["invlpg_ignores_global", "tlbsync_early"]/' "$SIM" >"$out/sim-errata.json"
run s-errata show "$out/sim-errata.json"
check "show simulated with errata: they are named" has s-errata.out \
    '^          errata modelled: invlpg_ignores_global, tlbsync_early'
run c-sim-hw compare "$HW" "$SIM"
check "compare simulated with hardware: exit 2, nothing on stdout" sh -c "[ $(rc c-sim-hw) = 2 ] && [ ! -s $out/c-sim-hw.out ]"
check "compare simulated with hardware: names the simulated file and why" has c-sim-hw.err \
    "^tlbscope-report: $SIM: simulated report (tlbscope-sim): $SIM_SAYS\$"
check "compare simulated with hardware: the hardware file is not blamed" sh -c "! grep -q '$HW: simulated' $out/c-sim-hw.err"
run c-sim-csv compare --csv "$QEMU2" "$SIM"
run c-sim-md compare --markdown "$SIM" "$QEMU4"
check "compare --csv/--markdown simulated with QEMU: exit 2, the file named, no output" sh -c \
    "[ $(rc c-sim-csv) = 2 ] && [ $(rc c-sim-md) = 2 ] && [ ! -s $out/c-sim-csv.out ] && [ ! -s $out/c-sim-md.out ] && grep -q '$SIM: simulated report' $out/c-sim-csv.err && grep -q '$SIM: simulated report' $out/c-sim-md.err"
run c-sim-dirs compare "$FIX" "$SIMDIR"
check "compare both fixture directories: exit 2, both simulated files named" sh -c \
    "[ $(rc c-sim-dirs) = 2 ] && grep -q '^tlbscope-report: $SIM: simulated report' $out/c-sim-dirs.err && grep -q '^tlbscope-report: $SIM2: simulated report' $out/c-sim-dirs.err && grep -q '(2 simulated, 5 not); nothing compared' $out/c-sim-dirs.err"
run c-sim compare A="$SIM2" B="$SIM" # the directory's order, named A and B
check "compare simulated with simulated: exit 0, headers flagged" sh -c \
    "[ $(rc c-sim) = 0 ] && grep -A5 '^  A  $SIM2\$' $out/c-sim.out | grep -q '^     \[SIMULATED: profile epyc-7763, seed 2\]\$' && grep -A5 '^  B  $SIM\$' $out/c-sim.out | grep -q '^     \[SIMULATED: profile epyc-7763, seed 12345\]\$'"
check "compare simulated: note and legend, no hardware warning" sh -c \
    "grep -q '^SIMULATED: every report is simulated by tlbscope-sim' $out/c-sim.out && grep -q '\^ simulated' $out/c-sim.out && ! grep -q '^WARNING' $out/c-sim.out"
check "compare simulated: cells marked ^, ratios ?, no other mark" has c-sim.out \
    '^  unicast_each        1  [0-9.]* [nmu]*s^  *[0-9.]* [nmu]*s^  *[0-9.]* [nmu]*s^  *[0-9.]* [nmu]*s^  *[0-9.]*? [-+][0-9]*%$'
run c-sim-csv2 compare --csv "$SIM" "$SIM2"
check "compare --csv simulated: every row's flags say simulated" \
    test "$(rc c-sim-csv2)/$(csvcol $out/c-sim-csv2.out flags)" = "0/[38] ['simulated']"
run c-sim-md2 compare --markdown "$SIM" "$SIM2"
check "compare --markdown simulated: machine table and cells marked" sh -c \
    "[ $(rc c-sim-md2) = 0 ] && grep -q '| none (simulated) | \[SIMULATED: profile epyc-7763, seed 12345\] |' $out/c-sim-md2.out && grep -q '^> \*\*SIMULATED:\*\*' $out/c-sim-md2.out && grep -q '^| unicast_each | 1 | [0-9.]* [nmu]*s^ |' $out/c-sim-md2.out"
run h-sim html -o "$out/sim.html" A="$SIM2" B="$SIM"
check "html of simulated reports: banner, badges, legends and cells marked" sh -c \
    "[ $(rc h-sim) = 0 ] && grep -q '(SIMULATED)</h1>' $out/sim.html && grep -q '<div class=\"simulated\">' $out/sim.html && grep -q 'badge sim\">SIMULATED: profile epyc-7763, seed 12345<' $out/sim.html && grep -q 'A conc (sim.^)' $out/sim.html && grep -q '[0-9]^</td>' $out/sim.html && ! grep -q 'badge hw' $out/sim.html"
run h-sim-hw html -o "$out/sim-hw.html" "$SIM" "$HW"
check "html of simulated with hardware: exit 2, the file named, no page" sh -c \
    "[ $(rc h-sim-hw) = 2 ] && [ ! -e $out/sim-hw.html ] && grep -q '^tlbscope-report: $SIM: simulated report' $out/h-sim-hw.err"

# redact: a copy without the serial number and UUID (identity/: real servers' SMBIOS decodes,
# invented serial numbers and UUIDs); the other outputs never print them
IDN=$FIX/identity
DELL1=$IDN/dell-r820-run1.json
DELL2=$IDN/dell-r820-run2.json
X10=$IDN/supermicro-x10dai.json
KEY=lab-key-2026
# every identifying value of the fixtures, one a line (the schema's identifying fields)
grep -ho '"serial": "[^"]*"\|"uuid": "[^"]*"' "$IDN"/*.json "$FIX"/*.json | sed 's/^"[a-z]*": "\(.*\)"$/\1/' |
    grep -v '^$' | sort -u >"$out/identifying.txt"
check "the fixtures hold 8 distinct serial numbers and UUIDs to look for" test "$(wc -l <"$out/identifying.txt")" = 8
none_of_them() { # file: no identifying value of any fixture in it
    ! grep -qF -f "$out/identifying.txt" "$1"
}
run r-none redact
check "redact without FILE: exit 2 with its usage" sh -c "[ $(rc r-none) = 2 ] && grep -q 'redact: no FILE given' $out/r-none.err && grep -q '^usage: tlbscope-report redact' $out/r-none.err"
run r-opt redact --frobnicate "$DELL1"
check "redact with an unknown option: exit 2" sh -c "[ $(rc r-opt) = 2 ] && grep -q 'redact: unknown option' $out/r-opt.err"
run r-keys redact --key a --key-file b "$DELL1"
check "redact with --key and --key-file: exit 2" sh -c "[ $(rc r-keys) = 2 ] && grep -q 'give one --key or --key-file' $out/r-keys.err"
run r-keyless redact "$DELL1" --key
check "redact --key without a key: exit 2" sh -c "[ $(rc r-keyless) = 2 ] && grep -q -- '--key needs a KEY' $out/r-keyless.err"
run r-keyempty redact --key= "$DELL1"
check "redact --key= (empty): exit 2" sh -c "[ $(rc r-keyempty) = 2 ] && grep -q -- '--key is empty' $out/r-keyempty.err"
run r-two redact "$DELL1" "$DELL2"
check "redact with two files: exit 2" sh -c "[ $(rc r-two) = 2 ] && grep -q 'give exactly one FILE' $out/r-two.err"
run r-missing redact -o "$out/never.json" "$FIX/no-such.json"
check "redact a missing file: exit 1, cannot read, nothing written" sh -c "[ $(rc r-missing) = 1 ] && grep -q 'no-such.json: cannot read' $out/r-missing.err && [ ! -e $out/never.json ]"
run r-trunc redact -o "$out/never.json" "$FIX/broken/truncated.json"
check "redact a truncated report: exit 1, says so" sh -c "[ $(rc r-trunc) = 1 ] && grep -q 'truncated.json: truncated JSON' $out/r-trunc.err && [ ! -e $out/never.json ]"
cp "$DELL1" "$out/dell1.json"
run r-default redact --key "$KEY" "$out/dell1.json"
check "redact: exit 0, IN.redacted.json next to IN, the fields named" sh -c "[ $(rc r-default) = 0 ] && [ -s $out/dell1.redacted.json ] && grep -qx '$out/dell1.json -> $out/dell1.redacted.json: keyed tokens in firmware.smbios.system.serial, firmware.smbios.system.uuid' $out/r-default.out"
check "redact: no serial number or UUID of any fixture left in the copy" none_of_them "$out/dell1.redacted.json"
check "redact: tokens and the record in their place" sh -c "grep -q '\"serial\": \"redacted:hmac:873da28e8cbae243\"' $out/dell1.redacted.json && grep -q '^  \"redaction\": { \"redacted\": true, \"keyed\": true, \"by\": \"tlbscope-report\", \"fields\": \[ \"firmware.smbios.system.serial\", \"firmware.smbios.system.uuid\" \] },\$' $out/dell1.redacted.json"
check "redact: only the two values and the record line differ from the input" sh -c "[ \$(diff $out/dell1.json $out/dell1.redacted.json | grep -c '^[<>]') = 3 ]"
run r-valid validate "$out/dell1.redacted.json"
check "the redacted report validates" test "$(rc r-valid)" = 0
cksum "$out/dell1.redacted.json" >"$out/r-before.sum"
run r-exists redact --key other "$out/dell1.json"
check "redact never overwrites its output: exit 1, file unchanged" sh -c "[ $(rc r-exists) = 1 ] && grep -q 'dell1.redacted.json: exists; not overwritten' $out/r-exists.err && cksum $out/dell1.redacted.json | cmp -s - $out/r-before.sum"
run r-input redact --key "$KEY" -o "$out/dell1.json" "$out/dell1.json"
check "redact never overwrites its input: exit 1, input unchanged" sh -c "[ $(rc r-input) = 1 ] && grep -q 'is the input report; redact never overwrites it' $out/r-input.err && cmp -s $out/dell1.json $DELL1"
run r-again redact --key another-key -o "$out/again.json" "$out/dell1.redacted.json"
check "redacting a redacted report changes no byte" sh -c "[ $(rc r-again) = 0 ] && cmp -s $out/again.json $out/dell1.redacted.json && grep -q 'already redacted (keyed tokens); copied unchanged' $out/r-again.out"
printf '%s\n' "$KEY" >"$out/lab.key"
run r-keyfile redact --key-file "$out/lab.key" -o "$out/keyfile.json" "$out/dell1.json"
check "--key-file (a line) gives what --key gives" sh -c "[ $(rc r-keyfile) = 0 ] && cmp -s $out/keyfile.json $out/dell1.redacted.json"
run r-nokey redact --key-file "$out/no-such.key" -o "$out/never.json" "$DELL1"
check "an unreadable key file: exit 1, named, nothing written" sh -c "[ $(rc r-nokey) = 1 ] && grep -q 'no-such.key: cannot read the key file' $out/r-nokey.err && [ ! -e $out/never.json ]"
: >"$out/empty.key"
run r-emptykeyfile redact --key-file="$out/empty.key" -o "$out/never.json" "$DELL1"
check "an empty key file: exit 1" sh -c "[ $(rc r-emptykeyfile) = 1 ] && grep -q 'empty.key: the key file is empty' $out/r-emptykeyfile.err && [ ! -e $out/never.json ]"
run r-stdout redact --key "$KEY" -o - "$DELL2"
cp "$out/r-stdout.out" "$out/dell2.redacted.json"
run r-stdout-valid validate "$out/dell2.redacted.json"
check "redact -o -: the copy on stdout, the summary on stderr" sh -c "[ $(rc r-stdout) = 0 ] && [ $(rc r-stdout-valid) = 0 ] && grep -q -- '-> standard output: keyed tokens' $out/r-stdout.err"
check "one machine, one key: the same tokens in both runs" sh -c "[ \"\$(grep -o 'redacted:hmac:[0-9a-f]*' $out/dell1.redacted.json)\" = \"\$(grep -o 'redacted:hmac:[0-9a-f]*' $out/dell2.redacted.json)\" ]"
run r-rand1 redact -o "$out/rand1.json" "$DELL1"
run r-rand2 redact -o "$out/rand2.json" "$DELL1"
check "without a key: random tokens, different in every file, and a hint" sh -c "[ $(rc r-rand1) = 0 ] && grep -q '\"serial\": \"redacted:random:' $out/rand1.json && ! cmp -s $out/rand1.json $out/rand2.json && grep -q 'give --key or --key-file' $out/r-rand1.out && ! grep -qF -f $out/identifying.txt $out/rand1.json"
run r-x10 redact --key "$KEY" -o "$out/x10.redacted.json" "$X10"
run r-cmp compare A="$out/dell1.redacted.json" B="$out/x10.redacted.json" C="$out/dell2.redacted.json"
check "compare groups redacted reports by token" sh -c "[ $(rc r-cmp) = 0 ] && grep -q '^Same machine: A, C (same serial number and UUID, or tokens)\$' $out/r-cmp.out"
run r-cmp-md compare --markdown A="$out/dell1.redacted.json" B="$out/x10.redacted.json" C="$out/dell2.redacted.json"
check "compare --markdown: a machine column, M1 twice" test "$(grep -c '^| [AC] | .* | M1 | ' "$out/r-cmp-md.out")" = 2
run r-show show "$DELL1"
check "show prints the serial number and UUID, with the hint" sh -c "grep -q '^Identity  serial 7QZ4VK2, UUID 4c4c4544-0051-5a10-8034-b7c04f564b32' $out/r-show.out && tr '\\n' ' ' < $out/r-show.out | grep -q 'tlbscope-report redact. writes a copy without  *them'"
# every other output of every fixture with identifiers, full and redacted
for set in full redacted; do
    if [ $set = full ]; then args=("$FIX" "$IDN"); else args=("$out/dell1.redacted.json" "$out/x10.redacted.json" "$out/dell2.redacted.json" "$HW"); fi
    run "o-$set-text" compare "${args[@]}"
    run "o-$set-md" compare --markdown "${args[@]}"
    run "o-$set-csv" compare --csv "${args[@]}"
    run "o-$set-html" html -o "$out/o-$set.html" "${args[@]}"
    check "compare (text, --markdown, --csv) and html of $set reports: no serial number or UUID" sh -c \
        "[ $(rc o-$set-text) = 0 ] && [ $(rc o-$set-md) = 0 ] && [ $(rc o-$set-csv) = 0 ] && [ $(rc o-$set-html) = 0 ] && ! grep -qF -f $out/identifying.txt $out/o-$set-text.out $out/o-$set-md.out $out/o-$set-csv.out $out/o-$set.html"
done
