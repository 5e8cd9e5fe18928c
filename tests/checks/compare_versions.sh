#!/usr/bin/env bash
# Comparison across tool versions and vendors (issue 23): reports of every
# schema version align their points (a parameter an older report lacks takes
# its documented default, and compare says which), a pair with nothing in
# common is a warning naming the parameter (exit 4 under --strict or
# --fail-if-slower), an unknown
# --experiment is exit 2, every output of every sample fits 80 columns, a
# dozen reports get the long layout with a per-experiment base, and
# compare --json / show --json pass jq checks of reports/SCHEMA.md's
# (sides named A, B, C with NAME=FILE where a check reads them by letter)
# description. The newer reports: a fresh tlbscope-sim run (simulated,
# compared with the simulated sample), and the Bochs fixture (schema 2, the
# `flush` parameter) against every QEMU sample. tests/qemu/shootdown.sh
# compares a fresh QEMU report with every sample. Prints TAP lines for
# tests/run-all.sh.
cd "$(dirname "$0")/../.." || exit 1
TOOL=build/tlbscope-report
SIM=build/tlbscope-sim
out=build/test-runs/compare-versions
rm -rf "$out" && mkdir -p "$out"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
check() { # description, command... (its stdout dropped: jq -e prints its result)
    local d=$1; shift
    if "$@" >/dev/null; then ok "$d"; else not_ok "$d"; fi
}
# run NAME ARGS...: the tool's stdout, stderr and exit status into $out/NAME.{out,err,rc}
run() {
    local name=$1; shift
    "$TOOL" "$@" >"$out/$name.out" 2>"$out/$name.err"
    echo $? >"$out/$name.rc"
}
rc() { cat "$out/$1.rc"; }
max_width() { awk '{ if (length > m) m = length } END { print m + 0 }' "$@"; }

SAMPLES=(tests/fixtures/reports/schema1/qemu-*.json)
SIMSAMPLE=tests/fixtures/reports/schema1/sim/sim-epyc7763-smp8.json
BOCHS=tests/fixtures/reports/bochs/bochs-skylake-x-smp2.json
S4=tests/fixtures/reports/schema1/qemu-tcg-smp4-max.json

# ---- every schema version loads: the samples are version 1, the Bochs fixture version 2 ----
check "the samples are schema version 1 and the Bochs fixture version 2 (both versions tested)" \
    test "$(jq -s '[.[].schema_version] | unique' -c "${SAMPLES[@]}" "$SIMSAMPLE")/$(jq .schema_version "$BOCHS")" = "[1]/2"
run validate validate "${SAMPLES[@]}" "$SIMSAMPLE" "$BOCHS"
check "every sample and the version 2 fixture validate" test "$(rc validate)" = 0

# ---- item 1: a newer report against every QEMU sample: the points align ----
for s in "${SAMPLES[@]}"; do
    b=$(basename "$s" .json)
    run "v-$b" compare --json A="$s" B="$BOCHS"
    run "t-$b" compare A="$s" B="$BOCHS"
    check "$b vs a version 2 report: exit 0, no pair without a common point" sh -c \
        "[ $(rc "v-$b") = 0 ] && jq -e '.verdict.disjoint_pairs == 0 and .verdict.exit_status == 0' $out/v-$b.out >/dev/null"
    # every experiment both measured has compared rows (a cell with a ratio)
    check "$b vs a version 2 report: every experiment both measured has ratios" \
        jq -e '[.experiments[] | select([.rows[].cells[].side] + [.unmatched[].cells[].side] | unique | length == 2)
                | [.rows[].cells[] | select(.ratio != null)] | length > 0] | all' "$out/v-$b.out"
    check "$b vs a version 2 report: the text fits 80 columns" test "$(max_width "$out/t-$b.out" "$out/t-$b.err")" -le 80
done
check "the issue's pair: shootdown_seq_vs_conc of smp4 and a report with flush align on 36 rows" \
    jq -e '.experiments[] | select(.id == "shootdown_seq_vs_conc") | (.rows | length) == 36 and
           .defaulted == [{"side": "A", "param": "flush", "taken_as": "invlpg up to the ceiling, above it method.full_flush"}]' \
    "$out/v-qemu-tcg-smp4-max.out"
check "the text says which parameter was defaulted" sh -c \
    "tr '\n' ' ' < $out/t-qemu-tcg-smp4-max.out | tr -s ' ' | grep -q 'defaulted: A predates flush (taken as invlpg up to the ceiling, above it method.full_flush); its points are matched with that default'"
run issue1 compare --experiment shootdown_seq_vs_conc --fail-if-slower 1000 A="$S4" B="$BOCHS"
check "compare --experiment shootdown_seq_vs_conc with --fail-if-slower: exit 0, 36 points compared" sh -c \
    "[ $(rc issue1) = 0 ] && ! grep -q 'only in A (54 points' $out/issue1.out && grep -q '^  => B is [0-9.]*x faster than A over 36 points' $out/issue1.out"

# ---- item 1: a fresh simulated report against the simulated sample (version 1) ----
"$SIM" --out "$out/fresh" --cpu epyc-7763 --cpus 4 --seed 23 profile=quick samples=10 warmup=1 \
    run_budget_s=0 >"$out/fresh.log" 2>&1
FRESH=$(sed -n 's/^Report saved: //p' "$out/fresh.log" | head -n1)
check "tlbscope-sim wrote a fresh (simulated) report" test -s "$FRESH"
check "the app's text summary (the EFI console's, the same code) fits 80 columns" \
    test "$(max_width "${FRESH%.json}.txt")" -le 80
run fresh-json compare --json A="$SIMSAMPLE" B="$FRESH"
run fresh-text compare A="$SIMSAMPLE" B="$FRESH"
check "fresh vs the version 1 simulated sample: every experiment both measured has ratios but PTI" \
    jq -e '[.experiments[] | select(.id != "pti_double_invalidation") | select([.rows[].cells[].side] + [.unmatched[].cells[].side] | unique | length == 2)
            | [.rows[].cells[] | select(.ratio != null)] | length > 0] | all and length >= 4' "$out/fresh-json.out"
check "fresh vs the sample: flush, path, pti, working_set, cpus and targets_doing defaulted, and said" sh -c \
    "jq -e '[.experiments[].defaulted[] | .param] | sort == [\"cpus\", \"flush\", \"path\", \"pti\", \"targets_doing\", \"working_set\"]' $out/fresh-json.out >/dev/null &&
     [ \$(grep -c '^  defaulted: A predates ' $out/fresh-text.out) = 4 ]"
check "fresh vs the sample: PTI has no point in common (working_set 0 vs 512): a warning naming the parameter and both values, the reason, exit 0" sh -c \
    "[ $(rc fresh-text) = 0 ] && grep -q '^tlbscope-report: warning: pti_double_invalidation: A and B have no point in common .*; working_set 0 vs 512 (A vs B); A predates working_set (taken as 0 (no user working set)), so its points were measured differently' $out/fresh-text.err"
run fresh-strict compare --strict A="$SIMSAMPLE" B="$FRESH"
check "the same under --strict: exit 4, an error" sh -c \
    "[ $(rc fresh-strict) = 4 ] && grep -q '^tlbscope-report: error: pti_double_invalidation: A and B have no point in common' $out/fresh-strict.err"
check "fresh vs the sample: the text (and its errors) fit 80 columns" \
    test "$(max_width "$out/fresh-text.out")" -le 80

# ---- item 1: nothing in common is an error, --fail-if-slower or not ----
jq '(.experiments[] | select(.id == "shootdown_seq_vs_conc") | .results[].params.pages, .summary[].params.pages) |= . + 1000' \
    "$S4" >"$out/disjoint.json"
run disjoint compare --experiment shootdown_seq_vs_conc --fail-if-slower 10 A="$S4" B="$out/disjoint.json"
check "a pair with no common point: exit 4 under --fail-if-slower, the experiment named" sh -c \
    "[ $(rc disjoint) = 4 ] && grep -q '^tlbscope-report: error: shootdown_seq_vs_conc: A and B have no point in common' $out/disjoint.err && grep -q '1 pair of sides share an experiment but no point of it' $out/disjoint.err"
run disjoint-json compare --json --experiment shootdown_seq_vs_conc A="$S4" B="$out/disjoint.json"
check "compare --json of it without --strict or a gate: exit 0, the verdict counts the pair" sh -c \
    "[ $(rc disjoint-json) = 0 ] && jq -e '.verdict == {\"disjoint_pairs\": 1, \"compared_points\": 0, \"slower_points\": null, \"exit_status\": 0, \"mixed\": false}' $out/disjoint-json.out >/dev/null"
run disjoint-json-strict compare --json --strict --experiment shootdown_seq_vs_conc A="$S4" B="$out/disjoint.json"
check "compare --json --strict of it: exit 4, the verdict says so, the parameter named (pages)" sh -c \
    "[ $(rc disjoint-json-strict) = 4 ] && jq -e '.verdict == {\"disjoint_pairs\": 1, \"compared_points\": 0, \"slower_points\": null, \"exit_status\": 4, \"mixed\": false}' $out/disjoint-json-strict.out >/dev/null &&
     grep -q '; pages 1, 2, 4 and 6 more vs 1001, 1002, 1004 and 6 more (A vs B)' $out/disjoint-json-strict.err"

# ---- item 2: an unknown --experiment id ----
run unknown compare --experiment shootdown_seq_vs_cnoc "$S4" "$BOCHS"
check "an unknown --experiment: exit 2, nothing on stdout, the id meant suggested, the ids the reports have listed" sh -c \
    "[ $(rc unknown) = 2 ] && [ ! -s $out/unknown.out ] && grep -q '^tlbscope-report: compare: --experiment shootdown_seq_vs_cnoc: no report given has this experiment (did you mean shootdown_seq_vs_conc?); they have: ipi_roundtrip .* shootdown_seq_vs_conc' $out/unknown.err"

# ---- item 5: 80 columns everywhere; a dozen reports in the long layout ----
widest=0
for f in "${SAMPLES[@]}" "$SIMSAMPLE" "$BOCHS" "$FRESH"; do
    "$TOOL" show "$f" >"$out/show.txt" 2>&1
    w=$(max_width "$out/show.txt"); [ "$w" -gt "$widest" ] && widest=$w
done
check "show fits 80 columns on every sample, the version 2 fixture and the fresh report (widest $widest)" \
    test "$widest" -le 80
MANY=("${SAMPLES[@]}" "$BOCHS" tests/fixtures/reports/qemu-tcg-smp2-all.json tests/fixtures/reports/qemu-tcg-smp4-all.json
      tests/fixtures/reports/synthetic-epyc7763-2s-hw.json tests/fixtures/reports/qemu-tcg-smp4-ipi.json
      tests/fixtures/reports/identity/dell-r820-run1.json tests/fixtures/reports/identity/supermicro-x10dai.json)
# named A, B, C, ... (NAME=FILE): the checks below read the sides by letter
NAMED=(); i=0
for f in "${MANY[@]}"; do NAMED+=("$(printf "\\$(printf %o $((65 + i)))")=$f"); i=$((i + 1)); done
run many compare "${NAMED[@]}"
check "compare of ${#MANY[@]} reports, a 1-CPU one first: exit 0, within 80 columns" sh -c \
    "[ $(rc many) = 0 ] && [ $(max_width "$out/many.out" "$out/many.err") -le 80 ]"
check "compare of ${#MANY[@]} reports: the long layout, one row per point and side, said so" sh -c \
    "grep -q '^  long layout: a row per point and side (${#MANY[@]} sides do not fit; --wide)' $out/many.out && grep -q '^  unicast_each  *1  C  .* [0-9.]*? [-+][0-9]*%\$' $out/many.out"
check "compare of ${#MANY[@]} reports: per experiment the first side that measured it is the base" sh -c \
    "grep -q '^  base: B, the first side that measured ipi_broadcast (A has no point of it)' $out/many.out && grep -q '^  unicast_each  *1  B  .* base\$' $out/many.out"
run many-wide compare --wide "${NAMED[@]}"
check "--wide puts them side by side (wider than 80)" test "$(max_width "$out/many-wide.out")" -gt 80

# ---- item 4: units, percentages, headline ----
run units compare --experiment ipi_broadcast A="$S4" B=tests/fixtures/reports/schema1/qemu-tcg-smp8-max.json
check "times scaled (us, ms), each ratio with its percentage, a headline per pair" sh -c \
    "grep -qE '^  unicast_each  +1  +7.02 us\*  +11.6 us\*  +1.65\? \+65%\$' $out/units.out &&
     grep -q '^  => B is 1.16x slower than A over 4 points' $out/units.out"

# ---- item 7: compare --json and show --json (reports/SCHEMA.md) ----
run cj compare --json A="$S4" B=tests/fixtures/reports/schema1/qemu-tcg-smp8-max.json C="$BOCHS"
check "compare --json: format, version, unit, sides, experiments with rows, cells and headlines" \
    jq -e '.format == "tlbscope-report compare" and .format_version == 2 and .unit == "ns" and
           (.sides | map(.label)) == ["A", "B", "C"] and (.sides[0] | has("cpu") and has("microcode") and has("cpu_count") and has("files")) and
           ([.experiments[] | .id, .base, (.rows | type), (.unmatched | type), (.headlines | type), (.defaulted | type)] | all(. != null)) and
           ([.experiments[].rows[] | .matched_by as $m | ($m == "value" or $m == "role" or $m == "class") and (.cells | length) >= 2] | all) and
           ([.experiments[].rows[].cells[] | (.p50 | type) == "number" and (.side | test("^[A-C]$"))] | all) and
           ([.experiments[].headlines[] | (.side + " is ") as $p | .points > 0 and (.text | startswith($p))] | all) and
           .verdict.exit_status == 0' "$out/cj.out"
check "compare --json: no serial number or UUID anywhere" sh -c \
    "! grep -qiE 'serial|uuid' $out/cj.out"
run sj show --json "$S4"
check "show --json: the summary with every experiment's status" \
    jq -e '.format == "tlbscope-report show" and .format_version == 1 and .machine.cpu_count == 4 and
           .machine.virtualised == true and .machine.schema_version == 1 and
           (.experiments | length) == 7 and (.experiments[0] | .id == "ipi_roundtrip" and .status == "SUCCESS" and .points == 12)' \
    "$out/sj.out"
# and what show prints of a report of this build: status_detail, the summary rows (in ns
# too), the recommendations and the verdict line it ends with
run sj3 show --json reports/samples/qemu-tcg-smp4-max.json
check "show --json of a schema 3 sample: each experiment's summary rows (p50 also in ns), the recommendations and show's last line" \
    jq -e --arg last "$("$TOOL" show reports/samples/qemu-tcg-smp4-max.json | tail -n 1)" '
        (.experiments | all(has("status_detail") and (.summary | type) == "array")) and
        ([.experiments[] | select(.id == "ipi_roundtrip") | .summary[].metrics.latency
          | .p50_ns > 0 and .p50_ns < .p50] | length > 0 and all) and
        (.recommendations.entries | length) >= 5 and (.verdict[0:20] as $v | $last | startswith($v))' \
    "$out/sj3.out"

# ---- item 6: show's TSC line ----
check "show prints a known TSC rate once and never 'frequency unknown' after it" sh -c \
    "$TOOL show $S4 | grep -c '^TSC ' | grep -qx 1 && ! $TOOL show $S4 | grep -q 'frequency unknown'"

# ---- item 9: one schema version everywhere ----
v=$(sed -n 's/^#define TOOL_SCHEMA_VERSION \([0-9]*\)$/\1/p' reports/tool/model/vocab.h)
check "schema version $v in --version, --help, validate's help, SCHEMA.md's title and the README" sh -c \
    "$TOOL --version | grep -q 'reads report schema versions 1 to $v)' &&
     $TOOL --help | grep -q '(schema version $v, and every earlier' &&
     $TOOL help validate | grep -q 'its schema version (1 to $v)' &&
     head -n1 reports/SCHEMA.md | grep -qx '# tlbscope report format, schema version $v' &&
     grep -q '(schema version $v; .tlbscope-report. reads every earlier version too)' README.md &&
     grep -q 'REPORT_SCHEMA_VERSION $v$' core/report/report_common.h"

# ---- items 3 and 6: the html page ----
run page html -o "$out/page.html" A="$S4" B="$BOCHS"
check "html: 'Measured differently' lists each real difference once, as 'name: A x, B y', never '(an object)'" sh -c \
    "[ $(rc page) = 0 ] && grep -q '^<li>samples: A 1000, B 100</li>\$' $out/page.html && grep -q '^<li>PCID: A no, B yes</li>\$' $out/page.html &&
     ! grep -q 'an object' $out/page.html && ! grep -q '<li>CPU' $out/page.html &&
     [ \$(sed -n '/Measured differently/,/<\\/div>/p' $out/page.html | grep '^<li>' | sort | uniq -d | wc -l) = 0 ]"
check "html: heatmap labels on dark cells are white by class (the page's CSS wins over fill)" sh -c \
    "grep -q 'svg text.cell.on-dark{fill:#ffffff}' $out/page.html && grep -q '<text class=\"cell on-dark\"' $out/page.html"
check "html: every heatmap is wide enough for its caption (7.5 px a character)" sh -c \
    "grep -A2 '<svg class=\"heatmap\"' $out/page.html | awk -F'\"' '/<svg class=\"heatmap\"/ { w = \$4 } /class=\"ctitle\"/ { sub(/.*\">/, \"\"); sub(/<.*/, \"\"); if (16 + length(\$0) * 7.5 > w + 0.5) bad = 1 } END { exit bad }'"

# ---- item 6: flush_ceiling's p* and its band, one line per curve ----
jq '(.experiments[] | select(.id == "flush_ceiling") | .summary[0].values) |= (.band_low = 1 | .band_high = 1)' \
    "$FRESH" >"$out/band.json"
"$TOOL" show "$out/band.json" >"$out/band.out" 2>&1
check "show: flush_ceiling's first curve says p* lies outside its band and where the confidence comes from" sh -c \
    "sed -n '/^  crossovers (p\*/,/^  [a-z]/p' $out/band.out | tr '\n' ' ' | tr -s ' ' |
     grep -q 'local, working set 64 contiguous, vs full_cr3: p\* [0-9]* (95% interval [0-9]* to [0-9]*), confidence [a-z]*; p25-p75 band 1 to 1 (p\* outside it: the band is where the two curves. p25-p75 ranges overlap, the confidence comes from p\*.s interval)'"

# ---- item 3: a clock far from nominal is warned, once per report ----
# (a valid report: compare refuses one that fails validation, exit 1)
jq '.experiments[1].conditions.clock |= (.aperf_mperf = true | .cpuid6_ecx = "0x1" | .cpus = 4 |
      .effective_over_tsc_permille = {"min": 690, "weighted": 700, "max": 710} | .effective_mhz = 1817 |
      del(.roles))' "$FRESH" >"$out/slowclock.json"
run slowclock compare A="$FRESH" B="$out/slowclock.json"
check "compare: B's clock at 70% of nominal is warned once, naming the experiment" sh -c \
    "[ \$(grep -c '^warning: B: ipi_broadcast: effective clock 70% of the TSC.s (APERF/MPERF): far' $out/slowclock.out) = 1 ] &&
     ! grep -q '^warning: A: ' $out/slowclock.out"
