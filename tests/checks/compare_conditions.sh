#!/usr/bin/env bash
# The conditions of each measurement in tlbscope-report (issue 12): a pair of
# reports made from one fixture (tests/fixtures/reports/qemu-tcg-smp4-all.json)
# that differ in exactly the conditions that change the numbers: effective
# clock 10% apart, SMIs during one, targets spinning vs halting, xAPIC vs
# x2APIC, CR3 reload vs INVPCID full flushes. `compare` must warn about each,
# and about nothing when a report is compared with itself; `show` and `html`
# display the conditions; `validate` accepts both and rejects conditions that
# were not recorded, or a count without its counter. Prints TAP lines for
# tests/run-all.sh.
cd "$(dirname "$0")/../.." || exit 1
TOOL=build/tlbscope-report
BASE=tests/fixtures/reports/qemu-tcg-smp4-all.json
out=build/test-runs/compare-conditions
rm -rf "$out" && mkdir -p "$out"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
check() { # description, command...
    local d=$1; shift
    if "$@"; then ok "$d"; else not_ok "$d"; fi
}

# conditions MHZ PERMILLE SMI_BEFORE SMI_AFTER WAIT: one experiment's conditions object, as
# tlbscope writes it since issue 20 (SMIs per CPU, the clock weighted and per role)
conditions() {
    jq -nc --argjson mhz "$1" --argjson pm "$2" --argjson b "$3" --argjson a "$4" --arg wait "$5" '{
        smi: {source: "msr_0x34", method: "msr_0x34", count: ($a - $b), cpus: 4,
              per_cpu: [($a - $b), 0, 0, 0], pmc: null, absent_reason: null,
              probe_exception: null, hiccup: null},
        clock: {aperf_mperf: true, cpuid6_eax: "0x77", cpuid6_ecx: "0x9", probe_exception: null,
                cpus: 4, tsc_mhz: 2450, effective_over_tsc_permille: {min: ($pm - 10), weighted: $pm, max: ($pm + 10)},
                effective_mhz: $mhz,
                roles: {initiator: {cpus: 1, cpu: 0, aperf_delta: ($pm * 1000), mperf_delta: 1000000, effective_mhz: $mhz},
                        targets: {cpus: 3, aperf_delta: 0, mperf_delta: 0, effective_mhz: null}},
                boost: "enabled", boost_evidence: "MSR 0x1a0 = 0x850089 (bit 38)"},
        smt: "off", smt_cores: 0, target_wait: $wait}'
}
# old_conditions MHZ PERMILLE SMI_BEFORE SMI_AFTER WAIT: the same as reports before issue 20
# wrote it (the BSP's MSR 0x34 before and after, the mean of per-CPU ratios, no roles)
old_conditions() {
    jq -nc --argjson mhz "$1" --argjson pm "$2" --argjson b "$3" --argjson a "$4" --arg wait "$5" '{
        smi: {source: "msr_0x34", before: $b, after: $a, count: ($a - $b), absent_reason: null,
              probe_exception: null, hiccup: null},
        clock: {aperf_mperf: true, cpuid6_eax: "0x77", cpuid6_ecx: "0x9", probe_exception: null,
                cpus: 4, tsc_mhz: 2450, effective_over_tsc_permille: {min: ($pm - 10), mean: $pm, max: ($pm + 10)},
                effective_mhz: $mhz, boost: "enabled", boost_evidence: "MSR 0x1a0 = 0x850089 (bit 38)"},
        smt: "off", smt_cores: 0, target_wait: $wait}'
}
# make_report OUT CONDITIONS METHOD_JQ: the fixture with those conditions on every measured experiment
make_report() {
    jq --argjson c "$2" "(.experiments[] | select(.status != \"SKIP\")) |= . + {conditions: \$c} | $3" \
        "$BASE" >"$1"
}
A=$out/a.json
B=$out/b.json
make_report "$A" "$(conditions 2499 1020 10 10 hlt)" '.'
make_report "$B" "$(conditions 2750 1122 10 13 spin)" \
    '.method.target_wait = "spin" | .method.apic_mode = "x2apic" | .method.full_flush = "invpcid_single_context"'

check "validate accepts both reports of the pair" eval '"$TOOL" validate "$A" "$B" >/dev/null 2>&1'

"$TOOL" compare "$A" "$B" >"$out/ab.out" 2>"$out/ab.err"
rc=$?
# warnings are wrapped at 100 columns: join each with its continuation lines
awk '/^warning: /{ if (w) print w; w = $0; next } /^         [^ ]/ && w { sub(/^ +/, " "); w = w $0; next } { if (w) print w; w = ""; print }
     END { if (w) print w }' "$out/ab.out" >"$out/ab.joined"
check "compare A B succeeds (exit $rc)" test "$rc" = 0
for want in "effective clock (APERF/MPERF) more than 5% apart: 2499 MHz vs 2750 MHz" \
            "SMIs during one of them: 0 SMIs vs 3 SMIs" \
            "target_wait (targets spin vs halt: wake-ups are in one): hlt vs spin" \
            "APIC mode (IPI delivery differs): xapic vs x2apic" \
            "full-flush method: cr3_reload vs invpcid_single_context"; do
    check "compare warns: $want" grep -qF "$want" "$out/ab.joined"
done
check "compare: one clock and one SMI warning per measured experiment (6 each)" \
    test "$(grep -c 'more than 5% apart' "$out/ab.joined")/$(grep -c 'SMIs during one' "$out/ab.joined")" = 6/6
check "compare: the warnings fit in 100 columns" test "$(awk '{ print length }' "$out/ab.out" | sort -n | tail -n 1)" -le 100
"$TOOL" compare --markdown "$A" "$B" >"$out/md.out" 2>&1
check "compare --markdown: title first, the warnings in their own section after the tables" \
    eval 'head -n 1 "$out/md.out" | grep -qx "# tlbscope comparison" && grep -q "^## Conditions that differ" "$out/md.out"'
check "compare: the warnings come before the tables" \
    test "$(grep -n '^warning: conditions differ' "$out/ab.out" | tail -n 1 | cut -d: -f1)" -lt \
         "$(grep -n '^Reports (' "$out/ab.out" | head -n 1 | cut -d: -f1)"

"$TOOL" compare "$A" "$A" >"$out/aa.out" 2>&1
check "compare A A: no condition warnings" test "$(grep -c '^warning: conditions differ' "$out/aa.out")" = 0
# 4% apart is within the tolerance; a report without conditions is not warned about
make_report "$out/c.json" "$(conditions 2595 1059 10 10 hlt)" '.'
"$TOOL" compare "$A" "$out/c.json" >"$out/ac.out" 2>&1
check "compare: a 4% clock difference is not warned about" \
    test "$(grep -c '^warning: conditions differ' "$out/ac.out")" = 0
"$TOOL" compare "$A" "$BASE" >"$out/old.out" 2>&1
check "compare with a report from before conditions: no condition warnings" \
    test "$(grep -c '^warning: conditions differ' "$out/old.out")" = 0
"$TOOL" compare --csv "$A" "$B" >"$out/csv.out" 2>"$out/csv.err"
check "compare --csv: the warnings go to stderr, the CSV stays clean" \
    eval '[ "$(grep -c "^warning: conditions differ" "$out/csv.err")" -gt 0 ] && ! grep -q "^warning" "$out/csv.out"'

# show_joined REPORT OUT: tlbscope-report show, each conditions line (wrapped at 100 columns)
# joined with its continuation lines
show_joined() {
    "$TOOL" show "$1" 2>&1 | awk '/^  conditions: /{ if (w) print w; w = $0; next }
        /^              [^ ]/ && w { sub(/^ +/, " "); w = w $0; next } { if (w) print w; w = ""; print }
        END { if (w) print w }' >"$2"
}
show_joined "$B" "$out/show.joined"
check "show prints every measured experiment's conditions: SMIs counted on every CPU, the clock per role" \
    test "$(grep -c '^  conditions: SMIs 3 (MSR 0x34, on 4 CPUs); clock 2750 MHz effective (weighted by time awake; initiator 2750 MHz, targets -; TSC 2450 MHz)' "$out/show.joined")" = 6

"$TOOL" html -o "$out/ab.html" "$A" "$B" >"$out/html.out" 2>&1
check "html lists each report's conditions, by the side's name (QEMU-TCG_2)" \
    test "$(grep -c '<li>QEMU-TCG_2: SMIs 3 (MSR 0x34, on 4 CPUs); clock 2750 MHz' "$out/ab.html")" = 6

# a report from before issue 20: it loads; show names what it lacks instead of guessing it
make_report "$out/old.json" "$(old_conditions 2750 1122 10 13 spin)" '.'
check "validate accepts conditions written before issue 20 (BSP before/after, mean of ratios)" \
    eval '"$TOOL" validate "$out/old.json" >/dev/null 2>&1'
show_joined "$out/old.json" "$out/show-old.joined"
check "show of an older report names the fields it does not have" \
    test "$(grep -c '^  conditions: SMIs 3 (MSR 0x34, CPUs counted not recorded); clock 2750 MHz effective (mean of per-CPU ratios; weighted clock and roles not recorded' "$out/show-old.joined")" = 6
"$TOOL" compare "$out/old.json" "$B" >"$out/oldnew.out" 2>&1
check "compare of an older and a newer report: no SMI or clock warning when they agree" \
    test "$(grep -c 'SMIs during one\|more than 5% apart' "$out/oldnew.out")" = 0

# validate: conditions that were not recorded, a count without its counter, sums that do not add up
# rejects WHAT JQ PATTERN: A changed by JQ, and validate's complaint that must match PATTERN
rejects() {
    jq "$2" "$A" >"$out/rejected.json"
    "$TOOL" validate "$out/rejected.json" >"$out/rejected.out" 2>&1
    check "validate rejects $1" grep -q -- "$3" "$out/rejected.out"
}
rejects "a measured experiment whose conditions are null" '.experiments[0].conditions = null' \
    'experiments\[0\].conditions: is null, but the experiment measured'
rejects "an SMI count with no counter behind it" '.experiments[0].conditions.smi.source = "hiccup_detector"' \
    'conditions.smi.count: is a number, but source is not an SMI counter'
rejects "a total that is not the sum of the per-CPU counts" '.experiments[0].conditions.smi.per_cpu = [1, 0, 0, 0]' \
    'conditions.smi.count: 0 is not the sum of per_cpu (1)'
rejects "a weighted clock outside the per-CPU min and max" \
    '.experiments[0].conditions.clock.effective_over_tsc_permille.weighted = 2000' \
    'effective_over_tsc_permille.weighted: 2000 is not between min 1010 and max 1030'
echo "1..$n"
