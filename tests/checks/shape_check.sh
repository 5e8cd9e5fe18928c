#!/usr/bin/env bash
# The exact report shape that every QEMU test checks (check_shape in
# tests/qemu/lib.sh, tests/qemu/shape.jq) must be able to fail, and must be
# right. Without QEMU:
#  1. its formulas reproduce the sample reports in reports/samples, made by QEMU
#     runs of this build (`make samples`; the SMP 8 one's plan cut its samples,
#     which the formulas do not follow), and the schema 1 samples of earlier
#     builds (tests/fixtures/reports/schema1, the simulated one among them);
#  2. on a report shaped like QEMU's emulated SMP 4 run (tlbscope-sim with
#     QEMU's CPU and emulation) it passes, and it fails on copies doctored
#     one defect at a time, each a finding of issue 15 that the QEMU tests'
#     earlier checks let through: an empty list of experiments, a negative
#     control stale on one CPU only, a grid cut to targets=1 or lazy=0,
#     verification counts off by one, INVLPGB points without emulated
#     INVLPGBs, a SKIP where the feature exists, sampled IPI pairs dropped or
#     their note missing.
# (tests/sim/mutants.sh shows the same on mutants of the code.)
# Prints TAP lines for tests/run-all.sh.
source "$(dirname "$0")/../qemu/lib.sh" # cds to the repository root; boots nothing
SIM=$here/build/tlbscope-sim
out=build/test-runs/shape-check
rm -rf "$out" && mkdir -p "$out"

# ---- 1. the formulas against the samples ----
# sample FILE EXPECTED-FAILURES key=value...: exactly those checks fail (a
# regular expression, or "" for none)
sample() {
    local f=$1 expect=$2 failed; shift 2
    failed=$(shape_results "$f" "$@" | sed -n 's/^not ok\t//p')
    if [ -z "$expect" ]; then
        check "$(basename "$f"): every check of its shape passes ($(shape_results "$f" "$@" | grep -c '^ok') checks)" \
            test -z "$failed"
    else
        check "$(basename "$f"): every check passes but what it predates" \
            eval '[ -n "$failed" ] && ! grep -qv -- "$expect" <<<"$failed"'
    fi
    [ -n "$failed" ] && sed 's/^/# /' <<<"$failed" | head -n 3
}
TCG=(pcid=0 invpcid=0 invlpgb=0)
N=reports/samples
sample $N/qemu-tcg-smp1-max.json "" cpus=1 "${TCG[@]}" profile=default
sample $N/qemu-tcg-smp4-max.json "" cpus=4 "${TCG[@]}" profile=default
sample $N/qemu-tcg-smp4-skylake.json "" cpus=4 "${TCG[@]}" profile=default
sample $N/qemu-tcg-smp4-max-emulated.json "" cpus=4 "${TCG[@]}" profile=quick emulate=invlpgb,invpcid
S=tests/fixtures/reports/schema1
# The schema 1 samples predate issue 12: they hold the first seven experiments (named
# here, so the shape expects exactly those) and no conditions, and issue 20
# (the checks each may fail; every other check must pass).
OLD7=experiments=ipi_roundtrip,ipi_broadcast,stale_detector_control,shootdown_seq_vs_conc,shootdown_lazy,pti_double_invalidation,invlpgb_range
# ... and issue 20: no ICR-write metric in ipi_roundtrip, no breakdown of the shootdown points
NOCOND="^conditions recorded on every experiment that measured\|^ipi_roundtrip: latency, send and baseline\|^shootdown_seq_vs_conc: every point's breakdown"
sample $S/qemu-tcg-smp1-max.json "$NOCOND" cpus=1 "${TCG[@]}" profile=default $OLD7
sample $S/qemu-tcg-smp4-max.json "$NOCOND" cpus=4 "${TCG[@]}" profile=default $OLD7
sample $S/qemu-tcg-smp4-skylake.json "$NOCOND" cpus=4 "${TCG[@]}" profile=default $OLD7
sample $S/qemu-tcg-smp8-max.json "$NOCOND" cpus=8 "${TCG[@]}" profile=quick $OLD7
# recorded before the per-point emulated counts existed; its note's totals must still match
# (and before invlpgb_range's CPU sweep: invlpgb_sweep=0)
sample $S/qemu-tcg-smp4-max-emulated.json "^invlpgb_range: emulated INVLPGB and TLBSYNC of each point\|$NOCOND" \
    cpus=4 "${TCG[@]}" profile=quick emulate=invlpgb,invpcid invlpgb_sweep=0 $OLD7
sample $S/sim/sim-epyc7763-smp8.json "$NOCOND" cpus=8 profile=default pcid=1 invpcid=1 invlpgb=1 \
    invlpgb_sweep=0 $OLD7

# ---- 2. doctored copies of a fresh QEMU-shaped report ----
"$SIM" --cpu qemu-tcg --cpus 4 --seed 15 --out "$out/good" profile=quick run_budget_s=0 samples=10 warmup=1 \
    emulate=invlpgb,invpcid >"$out/good.log" 2>&1
GOOD=$(ls "$out"/good/*.json 2>/dev/null | head -n1)
WANT=(cpus=4 "${TCG[@]}" profile=quick samples=10 warmup=1 emulate=invlpgb,invpcid)
check "the QEMU-shaped report exists and validates" eval '[ -s "$GOOD" ] && "$TOOL" validate "$GOOD" >/dev/null'
check "it has exactly the shape of QEMU's emulated SMP 4 run" shape_ok "$GOOD" "${WANT[@]}"

# doctor NAME JQ-FILTER: a copy of BASE edited by jq; prints its path
BASE=$GOOD
doctor() {
    jq "$2" "$BASE" >"$out/$1.json" || echo "# jq failed making $1" >&2
    echo "$out/$1.json"
}
# expect_fail WHAT FILE PATTERN [shape args]: the shape fails, and names the defect
expect_fail() {
    local what=$1 f=$2 pattern=$3 o rc; shift 3
    o=$(shape_ok "$f" "${@:-${WANT[@]}}"); rc=$?
    check "$what: the shape fails" test "$rc" != 0
    check "$what: it says so ($pattern)" grep -q -- "$pattern" <<<"$o"
}
# the earlier checks of tests/qemu/lib.sh and shootdown.sh, which these copies pass
old_stale_sum() { jq -r '[.experiments[].verification.stale_reads] | add // 0' "$1"; }
x() { printf '(.experiments[] | select(.id == "%s"))' "$1"; } # an experiment, as a jq path

f=$(doctor no-experiments '.experiments = []')
check "(7) no experiments: the earlier 'zero stale reads' check passed it" test "$(old_stale_sum "$f")" = 0
expect_fail "(7) no experiments" "$f" "experiments recorded, in table order: got \[\]"

f=$(doctor control-one-cpu "$(x stale_detector_control).results[0].values.cpus_reading_stale_max = 1")
check "(3) control stale on 1 of 4 CPUs: the earlier '!= 0' check passed it" \
    test "$(jq -r "$(x stale_detector_control).results[0].values.cpus_reading_stale_max" "$f")" != 0
expect_fail "(3) control stale on 1 of 4 CPUs" "$f" "every CPU stale in every round: got \[\[16,4,1,64\]\]"
expect_fail "(3) control without its point" "$(doctor control-no-point "$(x stale_detector_control).results = []")" \
    "every CPU stale in every round: got \[\]"
expect_fail "(3) control with 15 rounds" \
    "$(doctor control-15 "$(x stale_detector_control).results[0].params.rounds = 15")" "got \[\[15,4,4,64\]\]"
expect_fail "(3) control stale in some rounds only" \
    "$(doctor control-some "$(x stale_detector_control).results[0].values.stale_reads_without_invalidation = 60")" \
    "got \[\[16,4,4,60\]\]"

f=$(doctor seqconc-targets-1 "$(x shootdown_seq_vs_conc).results |= map(select(.params.targets == 1))")
check "(4) seq/conc with targets=1 only: the earlier check (9 page counts, both orders) passed it" \
    test "$(jq -r "[$(x shootdown_seq_vs_conc).results[].params.pages] | unique | length" "$f")" = 9
# (issue 21: 66 grid points and, in x2APIC mode, 6 cluster-mode points; 2 of them at 1 target)
expect_fail "(4) seq/conc with targets=1 only" "$f" "24 points, want 72; missing"
f=$(doctor lazy-0 "$(x shootdown_lazy).results |= map(select(.params.lazy == 0))")
check "(4) lazy=0 only: the earlier check (four policies) passed it" \
    test "$(jq -r "[$(x shootdown_lazy).results[].params.variant] | unique | length" "$f")" = 4
expect_fail "(4) lazy=0 only" "$f" "4 points, want 16; missing"
expect_fail "(4) a point twice" \
    "$(doctor lazy-twice "$(x shootdown_lazy).results += [$(x shootdown_lazy).results[0]]")" "some twice"

expect_fail "(2) seq/conc one verification read short" \
    "$(doctor seqconc-checks "$(x shootdown_seq_vs_conc).verification.checks -= 1")" \
    "shootdown_seq_vs_conc: verification checks (exact)"
expect_fail "(2) lazy: 3 reads too many (lazy CPUs interrupted)" \
    "$(doctor lazy-checks "$(x shootdown_lazy).verification.checks += 3")" "shootdown_lazy: verification checks (exact)"
expect_fail "(2) invlpgb: one read short" \
    "$(doctor ib-checks "$(x invlpgb_range).verification.checks -= 1")" "invlpgb_range: verification checks (exact)"
expect_fail "(2) a point with 99 samples" \
    "$(doctor lazy-n "$(x shootdown_lazy).results[3].metrics.latency.n = 99")" \
    "shootdown_lazy: latency, catchup, baseline sample counts: got \[\[10,99\]"

f=$(doctor ib-no-invlpgb "$(x invlpgb_range).results |= map(if .params.method == \"invlpgb\" then .values.emulated_invlpgb = 0 else . end)")
check "(5) INVLPGB points without INVLPGBs: the earlier checks (SUCCESS, emulated, 6 method/form pairs) passed it" \
    test "$(jq -r "$(x invlpgb_range) | \"\(.status)/\(.emulated)/\([.results[] | .params.method + .params.form] | unique | length)\"" "$f")" = SUCCESS/true/6
expect_fail "(5) INVLPGB points without INVLPGBs" "$f" "invlpgb_range: emulated INVLPGB and TLBSYNC of each point"
expect_fail "(5) an IPI point that issued an INVLPGB" \
    "$(doctor ib-ipi-invlpgb "$(x invlpgb_range).results[1].values.emulated_invlpgb = 1")" \
    "extra \[\[\"ipi\",\"pages\",1,4,\"linux\",null,1,0\]\]"
expect_fail "(5) no TLBSYNC" \
    "$(doctor ib-no-tlbsync "$(x invlpgb_range).results[0].values.emulated_tlbsync = 0")" \
    "missing \[\[\"invlpgb\",\"pages\",1,4,\"linux\",null,11,13\]\]"
# issue 20: above the ceiling Linux's path is one whole-PCID INVLPGB per sample, not 8 chunks
expect_fail "(issue 20) Linux's INVLPGB path chunked at 64 pages" \
    "$(doctor ib-linux-chunked "$(x invlpgb_range).results |= map(if .params.method == \"invlpgb\" and .params.path == \"linux\" and .params.pages == 64 and .params.form == \"pages\" then .values.emulated_invlpgb *= 8 else . end)")" \
    "missing \[\[\"invlpgb\",\"pages\",64,4,\"linux\",null,11,13\]\]"
expect_fail "(5) the note's totals" \
    "$(doctor ib-note "$(x invlpgb_range).notes |= map(sub(\"^emulated: [0-9]+\"; \"emulated: 1\"))")" \
    "invlpgb_range: the note's totals"
expect_fail "(5) invlpgb_range not emulated" \
    "$(doctor ib-native "$(x invlpgb_range).emulated = false")" "invlpgb_range: status, emulated, partial"

expect_fail "(8) the control SKIP" \
    "$(doctor control-skip "$(x stale_detector_control) |= (.status = \"SKIP\" | .reason = \"blind\")")" \
    "stale_detector_control: status, emulated, partial: got \[\"SKIP\""
expect_fail "(8) seq/conc SKIP" \
    "$(doctor seqconc-skip "$(x shootdown_seq_vs_conc) |= (.status = \"SKIP\" | .reason = \"x\")")" \
    "shootdown_seq_vs_conc: status"
expect_fail "(8) PTI SUCCESS on a CPU without PCID" \
    "$(doctor pti-success "$(x pti_double_invalidation) |= (.status = \"SUCCESS\" | .reason = null)")" \
    "pti_double_invalidation: SKIP, reason matching"
expect_fail "(8) the report claims 3 CPUs" "$(doctor three '.topology.cpu_count = 3')" "topology: CPUs"
expect_fail "(8) samples not as asked" "$(doctor samples '.run.config.samples = 11')" "run.config samples"

# ---- sampled IPI pairs (takeover.sh's 288 CPUs; here 16 CPUs, ipi_pairs=12) ----
"$SIM" --cpus 16 --seed 15 --out "$out/pairs" profile=quick run_budget_s=0 samples=10 warmup=1 ipi_pairs=12 \
    experiments=ipi_roundtrip,ipi_broadcast >"$out/pairs.log" 2>&1
BASE=$(ls "$out"/pairs/*.json 2>/dev/null | head -n1)
PAIRS=(cpus=16 profile=quick samples=10 warmup=1 ipi_pairs=12 experiments=ipi_roundtrip,ipi_broadcast)
check "16 CPUs, ipi_pairs=12: the pairs sampled per class, with the note" shape_ok "$BASE" "${PAIRS[@]}"
f=$(doctor pairs-none "$(x ipi_roundtrip).results = []")
check "(10) no pairs at all: the earlier 'length <= 51' check passed it" \
    test "$(jq "$(x ipi_roundtrip).results | length" "$f")" -le 51
expect_fail "(10) no pairs at all" "$f" "pairs sampled per class" "${PAIRS[@]}"
expect_fail "(10) without the note" "$(doctor pairs-no-note "$(x ipi_roundtrip).notes = []")" \
    "the note says how pairs were sampled" "${PAIRS[@]}"
expect_fail "(10) a pair twice" \
    "$(doctor pairs-twice "$(x ipi_roundtrip).results[1] = $(x ipi_roundtrip).results[0]")" "distinct pairs" "${PAIRS[@]}"
expect_fail "(10) the shorthand missing" \
    "$(doctor no-shorthand "$(x ipi_broadcast).results |= map(select(.params.mode != \"shorthand\"))")" \
    "ipi_broadcast: unicast to k" "${PAIRS[@]}"

check "not JSON: the shape fails" eval '! shape_ok <(printf "{\"x\": ") cpus=4 >/dev/null'
