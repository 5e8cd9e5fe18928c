#!/usr/bin/env bash
# Reports carry the architecture (issue 27): tlbscope-report validates an
# aarch64 report of contract A (tests/fixtures/reports/arm64/, written by
# generate.py) and names the path of each defect of broken/aarch64-*.json;
# x86 reports with and without the key still validate; show prints the
# aarch64 machine within 80 columns; compare of x86 against aarch64 gives a
# section to ipi_roundtrip and stale_detector_control, in ns, compares by
# question (arch_questions.py: ipi_roundtrip, shootdown, contention with each
# side's mechanism and its cells in ns at its own rate; flush_ceiling only on
# x86_64 until an aarch64 report has it, then compared too; pti_double_invalidation
# of a model x86 report against a fresh tlbscope-sim --arch aarch64 one) and lists the rest
# per side (text and --json; ipi_broadcast too: x86's APIC modes and
# aarch64's SGI modes are different mechanisms under one id); aarch64 against aarch64 compares everything;
# html renders both. The mutant arch_unshared_compared (core/mutant.h 97)
# must fail the cross-architecture check, arch_question_filter_dropped (184)
# and arch_question_other_rate (185) the question check (also in tests/sim/mutants.sh).
# Prints TAP lines for tests/run-all.sh.
cd "$(dirname "$0")/../.." || exit 1
TOOL=${TOOL:-build/tlbscope-report}
MUTANT=build/mutants/arch_unshared_compared/tlbscope-report
out=build/test-runs/arch-compare
rm -rf "$out" && mkdir -p "$out"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
check() { # description, command...
    local d=$1; shift
    if "$@" >/dev/null 2>&1; then ok "$d"; else not_ok "$d"; fi
}
max_width() { awk '{ if (length > m) m = length } END { print m + 0 }' "$@"; }
ARM=tests/fixtures/reports/arm64/qemu-aarch64-smp4.json
X86=reports/samples/qemu-tcg-smp4-max.json
BROKEN=tests/fixtures/reports/broken

# ---- validate ----
check "validate: the aarch64 fixture of contract A passes" "$TOOL" validate "$ARM"
check "validate: an x86 report without architecture passes (x86_64)" "$TOOL" validate "$X86"
jq '{architecture: "x86_64"} + .' "$X86" >"$out/x86-with-key.json"
check "validate: an x86 report with architecture x86_64 passes" "$TOOL" validate "$out/x86-with-key.json"
jq '.architecture = "aarch64"' "$X86" >"$out/x86-as-arm.json"
if ! "$TOOL" validate "$out/x86-as-arm.json" >/dev/null 2>&1; then
    ok "validate: an x86 report labelled aarch64 fails (its sections are x86's)"
else
    not_ok "validate: an x86 report labelled aarch64 passed"
fi
# each broken variant: the path (and words) its error must name
declare -A want=(
    [unknown-architecture]='architecture: unknown architecture word "riscv64"'
    [cpu-count-mismatch]='topology.cpu_count: 3, but cpus has 4 entries'
    [two-bsps]='topology.cpus: 2 CPUs are marked bsp, expected exactly one'
    [index-not-dense]='topology.cpus[2].index: 5 at position 2'
    [unit-tsc]='experiments[1].unit: "tsc_ticks" is not the unit of an aarch64 report'
    [unknown-experiment]='experiments[2].id: "ipi_target_state" is not an aarch64 experiment'
    [stale-success]='experiments[1].status: SUCCESS, but verification.stale_reads is 3'
    [result-too-mild]='result: SKIP is less severe than experiments[3].status ERROR'
    [skip-without-reason]='experiments[4].reason: is null, but status SKIP needs a reason'
    [counter-hz-missing]='cpu.counter_hz: missing required key'
    [gic-mismatch]='method.ipi: "gicv3_sgi", but gic_version is 2'
    [unknown-method]='experiments[2].results[1].params.method: unknown method word "rvae1os"'
)
for k in "${!want[@]}"; do
    f=$BROKEN/aarch64-$k.json
    "$TOOL" validate "$f" >"$out/$k.out" 2>"$out/$k.err"
    rc=$?
    if [ "$rc" != 0 ] && grep -qF -- "${want[$k]}" "$out/$k.err"; then
        ok "validate: aarch64-$k.json fails naming ${want[$k]%%:*}"
    else
        not_ok "validate: aarch64-$k.json (exit $rc) does not say: ${want[$k]}"
    fi
done
# the second round's methods: broadcast_os (VAE1OS) and asid (ASIDE1IS) pass
jq '(.experiments[1].results[0].params.method) = "broadcast_os" | (.experiments[2].results[0].params.method) = "asid"' \
    "$ARM" >"$out/methods.json"
check "validate: the methods broadcast_os and asid pass" "$TOOL" validate "$out/methods.json"
# ipi_broadcast (third round): the GIC's SGI modes; x86's words are not aarch64's
check "validate: ipi_broadcast's modes unicast, target_list and all_but_self pass" \
    test "$(jq -c '[.experiments[] | select(.id == "ipi_broadcast") | .results[].params.mode] | unique' "$ARM")" = \
    '["all_but_self","target_list","unicast"]'
jq '(.experiments[] | select(.id == "ipi_broadcast") | .results[2].params.mode) = "shorthand_all"' "$ARM" >"$out/sgi-mode.json"
check "validate: an x86 mode word in aarch64's ipi_broadcast fails naming the path" \
    grep -qF 'experiments[6].results[2].params.mode: unknown mode word "shorthand_all"' \
    <<<"$("$TOOL" validate "$out/sgi-mode.json" 2>&1)"
# a GICv2 board (issue 27, second round): its SGIs are gicv2_sgi, at most 8 CPUs
jq '.method += {ipi: "gicv2_sgi", gic_version: 2}' "$ARM" >"$out/gicv2.json"
check "validate: a GICv2 report (gicv2_sgi, gic_version 2) passes" "$TOOL" validate "$out/gicv2.json"
check "show: GICv2 and its IPI word" grep -q 'GICv2, IPIs as gicv2_sgi' <<<"$("$TOOL" show "$out/gicv2.json" 2>&1)"
jq '.method += {ipi: "gicv2_sgi", gic_version: 2} | .topology.cpus_ok = 9' "$ARM" >"$out/gicv2-9.json"
check "validate: a GICv2 report with 9 CPUs ok fails naming method.gic_version" \
    grep -q 'method.gic_version: 2, but 9 CPUs are ok' <<<"$("$TOOL" validate "$out/gicv2-9.json" 2>&1)"
# the IRQ entry on the target (method.target_wait wfi_irq; poll_iar, the fixture's, was the
# polled target before it): values.irq_entries, at least one IRQ per round trip
jq '.method.target_wait = "wfi_irq" | (.experiments[0].results[] |= (.values.irq_entries = .metrics.latency.n))' \
    "$ARM" >"$out/irq.json"
check "validate: target_wait wfi_irq, one IRQ entry per round trip, passes" "$TOOL" validate "$out/irq.json"
check "show: the target's wait named (wfi_irq)" grep -q 'targets wfi_irq;' <<<"$("$TOOL" show "$out/irq.json" 2>&1)"
jq '.experiments[0].results[1].values.irq_entries = 3' "$out/irq.json" >"$out/irq-few.json"
check "validate: fewer IRQ entries than round trips fails naming the path" \
    grep -qE 'experiments\[0\]\.results\[1\]\.values\.irq_entries: 3, but latency\.n is [0-9]+' \
    <<<"$("$TOOL" validate "$out/irq-few.json" 2>&1)"
# x86's halted targets (hlt) and aarch64's (wfi_irq) are the same wait: no warning across them
"$TOOL" compare "$X86" "$out/irq.json" >"$out/hlt-wfi.txt" 2>&1
check "compare: x86 hlt against aarch64 wfi_irq compares ipi_roundtrip, no target_wait warning" \
    bash -c "grep -q '^Architectures: ' '$out/hlt-wfi.txt' && ! grep -q 'target_wait (targets spin' '$out/hlt-wfi.txt'"
jq '.method.target_wait = "spin"' "$X86" >"$out/x86-spin.json"
check "compare: x86 spin against aarch64 wfi_irq warns (a spinning target is not woken)" \
    grep -q 'target_wait (targets spin vs halt: wake-ups are in one): spin vs wfi_irq' \
    <<<"$("$TOOL" compare "$out/x86-spin.json" "$out/irq.json" 2>&1 | tr '\n' ' ' | tr -s ' ')"
jq '.method.target_wait = "spin"' "$ARM" >"$out/wait-spin.json"
check "validate: an x86 target_wait word in an aarch64 report fails" \
    grep -qF 'method.target_wait: unknown target_wait word "spin"' <<<"$("$TOOL" validate "$out/wait-spin.json" 2>&1)"
# firmware.secure_boot (Version 3, optional: the fixture predates it): x86's words only
jq '.firmware.secure_boot = "enabled"' "$ARM" >"$out/sb-enabled.json"
check "validate: an aarch64 firmware.secure_boot \"enabled\" passes" "$TOOL" validate "$out/sb-enabled.json"
jq '.firmware.secure_boot = "on"' "$ARM" >"$out/sb-on.json"
check "validate: an aarch64 firmware.secure_boot \"on\" fails, naming the path and the words" \
    grep -qF 'firmware.secure_boot: unknown secure_boot word "on"' <<<"$("$TOOL" validate "$out/sb-on.json" 2>&1)"
# cpu.features decoded from cpu.id_regs: a feature the register does not have is refused
jq '.cpu.features.ttl = true | .cpu.features.bbm = 2 | .cpu.id_regs.ID_AA64MMFR2_EL1 = "0x1000000000001011"' "$ARM" >"$out/feat-ttl.json"
check "validate: cpu.features.ttl and bbm against ID_AA64MMFR2_EL1 [51:48] and [55:52], each disagreement named" \
    test "$("$TOOL" validate "$out/feat-ttl.json" 2>&1 | grep -cE 'cpu\.features\.(ttl: true, but ID_AA64MMFR2_EL1 \[51:48\] is 0|bbm: 2, but ID_AA64MMFR2_EL1 \[55:52\] is 0)')" = 2
# reps_per_sample and mean_per_op (Version 3, optional: the fixture predates them): R a power of
# two up to 64, 1 on ipi_local, and the latency's mean within rounding of mean_per_op (each
# sample the total over R): a sample that kept R flushes' total, or timed one, disagrees
TBV='(.experiments[] | select(.id == "tlbi_broadcast_vs_ipi") | .results)'
jq "$TBV |= map(.values.reps_per_sample = 1 | .values.mean_per_op = .metrics.latency.mean)" "$ARM" >"$out/reps.json"
check "validate: reps_per_sample 1 and mean_per_op the latency's mean on every tlbi_broadcast_vs_ipi point passes" \
    "$TOOL" validate "$out/reps.json"
jq "$TBV[0].values.reps_per_sample = 3 | $TBV[1].values.reps_per_sample = 64 |
    $TBV[1].values.mean_per_op = ($TBV[1].metrics.latency.mean / 64)" "$out/reps.json" >"$out/reps-bad.json"
check "validate: R = 3, and a latency 64 times mean_per_op, each named" \
    test "$("$TOOL" validate "$out/reps-bad.json" 2>&1 | grep -cE 'results\[0\]\.values\.reps_per_sample: must be a power of two|results\[1\]\.values\.mean_per_op: [0-9.]+, but metrics\.latency\.mean is')" = 2
# the broken variants differ from the good file in one defect each: only the unknown
# architecture stops the validator before the sections (they would be read wrongly)
check "validate: an unknown architecture is the only error named" \
    test "$(grep -c "$BROKEN" "$out/unknown-architecture.err")" = 2

# ---- show ----
"$TOOL" show "$ARM" >"$out/show.txt" 2>&1
check "show: the aarch64 report exits 0" test $? = 0
check "show: MIDR, implementer, EL, GIC, PSCI conduit and counter rate" \
    grep -qE 'MIDR 0xf0510: implementer 0x0 \(unnamed\)' "$out/show.txt"
check "show: EL1 and the TLBI forms" grep -q 'EL1, TLBI VAE1 forms' "$out/show.txt"
check "show: GICv3 and PSCI over hvc" grep -q 'GICv3, IPIs as gicv3_sgi, targets poll_iar; PSCI 1.1 over hvc' "$out/show.txt"
check "show: the counter's rate" grep -q '^Counter   1000.000 MHz (cntfrq_el0)' "$out/show.txt"
check "show: the tables in time units from counter_hz" grep -qE '^ +all_pairs \(median\) +12 +[0-9.]+ us' "$out/show.txt"
check "show: no x86 line (CPUID family, microcode, TSC)" \
    bash -c "! grep -qE '^(Microcode|TSC )|family 0x' '$out/show.txt'"
check "show: ipi_broadcast's table, targets by SGI mode" \
    grep -qE '^ +targets +all_but_self +target_list +unicast$' "$out/show.txt"
check "show: within 80 columns" test "$(max_width "$out/show.txt")" -le 80

# ---- compare x86 against aarch64 ----
"$TOOL" compare A="$X86" B="$ARM" >"$out/cross.txt" 2>&1
check "compare x86/aarch64: exit 0" test $? = 0
check "compare x86/aarch64: the architectures line" grep -q '^Architectures: A x86_64, B aarch64' "$out/cross.txt"
check "compare x86/aarch64: only in A lists x86's experiments that answer no shared question" \
    grep -qE '^only in A \(x86_64\): ipi_broadcast, shootdown_lazy, pti_double_invalidation,' "$out/cross.txt"
check "compare x86/aarch64: only in B lists aarch64's experiments that answer no shared question" \
    grep -qE '^only in B \(aarch64\): tlbi_range, shootdown_lazy, ipi_broadcast$' "$out/cross.txt"
check "compare x86/aarch64: ipi_roundtrip compared over all pairs" grep -qE '^  all_pairs +[0-9.]+ us' "$out/cross.txt"
check "compare x86/aarch64: no section for a one-sided experiment" \
    bash -c "! grep -qE '^== (tlbi_range|invlpgb_range|shootdown_lazy):' '$out/cross.txt'"
check "compare x86/aarch64: within 80 columns" test "$(max_width "$out/cross.txt")" -le 80
"$TOOL" compare --json A="$X86" B="$ARM" >"$out/cross.json" 2>/dev/null
cross_ok() { # the cross-architecture contract on compare --json of tool $1
    "$1" compare --json A="$X86" B="$ARM" 2>/dev/null | jq -e '
        .unit == "ns" and .architectures.mixed and
        .architectures.sides == {"A": "x86_64", "B": "aarch64"} and
        .architectures.compared == ["ipi_roundtrip", "stale_detector_control"] and
        ([.experiments[].id] == .architectures.compared) and
        (.architectures.only_in.A | index("shootdown_lazy")) != null and
        (.architectures.only_in.B | index("shootdown_lazy")) != null and
        (.architectures.only_in.B | index("tlbi_range")) != null and
        (.architectures.only_in.A | index("ipi_broadcast")) != null and
        (.architectures.only_in.B | index("ipi_broadcast")) != null and
        ([.experiments[] | select(.id == "ipi_roundtrip") | .rows[].params.class] == ["all_pairs"])'
}
check "compare --json x86/aarch64: compared, only_in, ns, all_pairs" cross_ok "$TOOL"
# the ratio is of ns: x86 ticks at 2.596 GHz against aarch64 ticks at 1 GHz
check "compare --json x86/aarch64: ipi_roundtrip's cells in ns of each side's rate" jq -e '
    [.experiments[] | select(.id == "ipi_roundtrip") | .rows[0].cells[] | .p50] |
    (.[0] > 1000 and .[0] < 100000 and .[1] > 40000 and .[1] < 70000)' "$out/cross.json"
# by question: the rows, mechanisms and ns the reports themselves give (arch_questions.py)
QPY=tests/checks/arch_questions.py
check "compare x86/aarch64 by question: ipi_roundtrip, shootdown, contention, cells in ns at each side's rate" \
    python3 "$QPY" rows "$TOOL" "$X86" "$ARM"
check "compare x86/aarch64 by question: flush_ceiling only on x86_64, aarch64's lack named" \
    python3 "$QPY" ceiling-missing "$TOOL" "$X86" "$ARM"
python3 "$QPY" craft "$ARM" "$out/arm-ceiling.json"
check "compare x86/aarch64 by question: an aarch64 report with flush_ceiling validates" \
    "$TOOL" validate "$out/arm-ceiling.json"
check "compare x86/aarch64 by question: an aarch64 flush_ceiling is compared, page by page and full" \
    python3 "$QPY" ceiling "$TOOL" "$X86" "$out/arm-ceiling.json"
# the same against the aarch64 sample (a fresh run's report, schema 3)
ARMS=reports/samples/qemu-aarch64-smp4.json
check "compare x86/aarch64 sample by question: the rows the two samples give" \
    python3 "$QPY" rows "$TOOL" "$X86" "$ARMS"
check "compare x86/aarch64 sample by question: the sample's own flush_ceiling compared" \
    python3 "$QPY" ceiling "$TOOL" "$X86" "$ARMS"
# pti_double_invalidation: x86's PTI (PCID: the model's Xeon 8180 sample; QEMU has no PCID)
# against KPTI's two TLBIs a page from the aarch64 app on the strict model (both simulated)
SIM=${SIM:-build/tlbscope-sim}
"$SIM" --arch aarch64 --cpu neoverse-n1 --cpus 4 --seed 27 samples=10 run_budget_s=0 \
    experiments=pti_double_invalidation --out "$out/sim-a64" >"$out/sim-a64.log" 2>&1
ARMPTI=$(ls "$out"/sim-a64/*.json 2>/dev/null | head -n 1)
check "compare x86/aarch64 by question: pti_double_invalidation, no_pti/invlpg_invpcid against no_kpti/kpti, cells in ns" \
    python3 "$QPY" pti "$TOOL" reports/samples/sim/sim-xeon8180-smp8.json "${ARMPTI:-missing}"
# the shootdown question's aarch64 side: Linux's own sequence (broadcast_linux) in a fresh
# report, with method.linux_tlbi among its details; the plain VAE1IS rows of a report from
# before it (the fixture) still answer
"$SIM" --arch aarch64 --cpu neoverse-n1 --cpus 4 --seed 27 samples=10 run_budget_s=0 \
    experiments=tlbi_broadcast_vs_ipi --out "$out/sim-a64-sd" >"$out/sim-a64-sd.log" 2>&1
ARMSD=$(ls "$out"/sim-a64-sd/*.json 2>/dev/null | head -n 1)
check "compare x86/aarch64 by question: shootdown on broadcast_linux (fresh) or broadcast (older), linux_tlbi named" bash -c "
    '$TOOL' compare --json A='$X86' B='${ARMSD:-missing}' 2>/dev/null |
        jq -e '.architectures.questions[] | select(.question == \"shootdown\") | .sides.B |
               .answers and .filter.method == \"broadcast_linux\" and (.details | test(\"linux_tlbi=kpti[+]repeat\"))' >/dev/null &&
    '$TOOL' compare --json A='$X86' B='$ARM' 2>/dev/null |
        jq -e '.architectures.questions[] | select(.question == \"shootdown\") | .sides.B |
               .answers and .filter.method == \"broadcast\"' >/dev/null"
# INVLPGB named as Linux 6.15+'s path only where the x86 report measured invlpgb_range
check "compare x86/aarch64 by question: INVLPGB for Linux 6.15+ only where invlpgb_range was measured" bash -c "
    '$TOOL' compare --json A=reports/samples/qemu-tcg-smp4-max-emulated.json B='$ARMS' 2>/dev/null |
        jq -e '.architectures.questions[] | select(.question == \"shootdown\") |
               (.sides.A.linux_instead | test(\"INVLPGB\")) and .sides.B.linux_instead == null' >/dev/null &&
    '$TOOL' compare --json A='$X86' B='$ARMS' 2>/dev/null |
        jq -e '.architectures.questions[] | select(.question == \"shootdown\") |
               .sides.A.linux_instead == null' >/dev/null"
check "compare x86/aarch64 by question: each side's mechanism in the shootdown rows" \
    grep -qE '^ +1 +1 +IPIs invlpg +[0-9.]+ us\* +TLBI VAE1IS +[0-9.]+ us\*~ ' "$out/cross.txt"
check "compare x86/aarch64 by question: what Linux does on each architecture" bash -c "
    grep -q '^  Linux on x86_64: native_flush_tlb_multi' '$out/cross.txt' &&
    grep -q '^  Linux on aarch64: tlb_flush -> __flush_tlb_range: broadcast TLBI' '$out/cross.txt'"
check "compare x86/aarch64 by question: flush_ceiling not compared, the reason in the text" \
    grep -q '^  not compared: only on A (x86_64): B (aarch64) has no flush_ceiling' "$out/cross.txt"
"$TOOL" compare --markdown A="$X86" B="$ARM" >"$out/cross.md" 2>&1
check "compare --markdown x86/aarch64: the questions as sections with tables" bash -c "
    grep -q '^### shootdown: ' '$out/cross.md' && grep -q '^| targets | pages | A how |' '$out/cross.md'"
# a side without its tick rate: ticks of two clocks are not compared at all
jq 'del(.cpu.counter_hz)' "$ARM" >"$out/arm-no-hz.json"
check "compare x86/aarch64 without counter_hz: nothing compared, everything listed" bash -c "
    '$TOOL' compare --json '$X86' '$out/arm-no-hz.json' 2>/dev/null | jq -e '
        .architectures.compared == [] and .architectures.questions == [] and
        (.architectures.only_in.B | length) == 7'"

# ---- compare aarch64 against aarch64 ----
cp "$ARM" "$out/arm-copy.json"
"$TOOL" compare --json "$ARM" "$out/arm-copy.json" >"$out/arm-arm.json" 2>/dev/null
check "compare aarch64/aarch64: every experiment compared, none listed per side" jq -e '
    (.architectures.mixed | not) and
    ([.experiments[].id] == ["ipi_roundtrip", "tlbi_broadcast_vs_ipi", "tlbi_range",
                             "tlbi_concurrent", "shootdown_lazy", "stale_detector_control",
                             "ipi_broadcast"]) and
    .architectures.only_in == {"A": [], "B": []}' "$out/arm-arm.json"
check "compare aarch64/aarch64: a file against its copy has ratio 1 everywhere" jq -e '
    [.experiments[].rows[].cells[1].ratio | select(. != null)] | length > 0 and all(. == 1)' \
    "$out/arm-arm.json"
"$TOOL" compare "$ARM" "$out/arm-copy.json" >"$out/arm-arm.txt" 2>&1
check "compare aarch64/aarch64: no architectures line, within 80 columns" bash -c "
    ! grep -q '^Architectures:' '$out/arm-arm.txt' && test \$(awk '{ if (length > m) m = length } END { print m + 0 }' '$out/arm-arm.txt') -le 80"

# ---- html ----
check "html: an aarch64 report renders" "$TOOL" html -o "$out/arm.html" "$ARM"
check "html: the machine table names the MIDR, not an x86 family" bash -c "
    grep -q 'aarch64 MIDR 0xf0510 (implementer 0x0), EL1' '$out/arm.html' &&
    ! grep -q 'family 0xffffffffffffffff' '$out/arm.html'"
check "html: x86 with aarch64 renders" "$TOOL" html -o "$out/mix.html" "$X86" "$ARM"

# ---- the mutants of the questions: any point taken, or the other side's rate ----
for mut in arch_question_filter_dropped arch_question_other_rate; do
    bin=build/mutants/$mut/tlbscope-report
    if [ ! -x "$bin" ]; then
        ok "mutant $mut # SKIP not built (make tool-mutants)"
    elif python3 "$QPY" rows "$bin" "$X86" "$ARM" 2>/dev/null; then
        not_ok "mutant $mut: the question check still passes"
    else
        ok "mutant $mut: the question check fails"
    fi
done

# ---- the mutant: experiments paired by id alone ----
if [ -x "$MUTANT" ]; then
    if cross_ok "$MUTANT" >/dev/null 2>&1; then
        not_ok "mutant arch_unshared_compared: the cross-architecture check still passes"
    else
        ok "mutant arch_unshared_compared: the cross-architecture check fails"
    fi
else
    ok "mutant arch_unshared_compared # SKIP not built (make tool-mutants)"
fi
