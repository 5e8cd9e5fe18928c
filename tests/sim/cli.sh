#!/usr/bin/env bash
# tlbscope-sim on the command line: the run docs/sim.md shows (8 modelled
# EPYC 7763 CPUs), its report marked simulated and accepted by
# tlbscope-report, and clear errors for what it cannot do.
source "$(dirname "$0")/lib.sh"
out=$here/build/test-runs/sim/cli
rm -rf "$out"; mkdir -p "$out"
# run NAME ARGS...: stdout, stderr and status of one call
run() { local name=$1; shift; "$SIM" "$@" >"$out/$name.out" 2>"$out/$name.err"; echo $? >"$out/$name.rc"; }
rc() { cat "$out/$1.rc"; }

# The run of the issue: pti and INVLPGB, which TCG never reaches, SUCCESS on the model.
# (profile=quick keeps CI short; the full default profile takes a few minutes here.
# run_budget_s=0: quick's grid and samples as written, not planned from the host's speed:
# on a loaded host the planner thinned flush_ceiling until a point kept no samples, and the
# checks below of every interval then failed for the load, not for the tool.)
sim readme "$SIM" --cpu epyc-7763 --cpus 8 --seed 2026 profile=quick run_budget_s=0
check "epyc-7763, 8 CPUs: exit 0, clean, report validates" clean
check "epyc-7763, 8 CPUs: pti_double_invalidation and invlpgb_range SUCCESS, zero stale reads" \
    test "$(jqr '[.experiments[] | select(.id == "pti_double_invalidation" or .id == "invlpgb_range") | "\(.status)/\(.verification.stale_reads)"] | join(" ")')" = "SUCCESS/0 SUCCESS/0"
# invlpgb_vs_ipi (issue 11): the CPU sweep (2 and 4 of 8 CPUs at 1 and 8 pages) is cited,
# and cpus_from is recomputed here from the cited points: the smallest CPU count from which
# INVLPGB's median beats the IPIs' at one page at every larger count measured (null if none)
check "epyc-7763, 8 CPUs: invlpgb_vs_ipi cites the CPU sweep (2, 4 and 8 CPUs at one page)" \
    test "$(jqr '. as $r | ($r.experiments[] | select(.id == "invlpgb_range") | .results) as $pts
                 | [.recommendations.entries[1].evidence.points[] | $pts[.].params | select(.pages == 1) | .cpus]
                 | unique | map(tostring) | join(",")')" = "2,4,8"
check "epyc-7763, 8 CPUs: invlpgb_vs_ipi's cpus_from is what its points say" \
    test "$(jqr '. as $r | .recommendations.entries[1] as $e
                 | ($r.experiments[] | select(.id == "invlpgb_range") | .results) as $pts
                 | [$e.evidence.points[] | $pts[.] | select(.params.pages == 1)]
                 | group_by(.params.cpus) | map({c: .[0].params.cpus,
                     w: ((map(select(.params.method == "invlpgb"))[0].metrics.latency.p50) <
                         (map(select(.params.method == "ipi"))[0].metrics.latency.p50))})
                 | sort_by(-.c) | reduce .[] as $x ({from: null, done: false};
                     if .done then . elif $x.w then .from = $x.c else .done = true end)
                 | (.from == $e.cpus_from) or ($e.status != "recommended" and $e.cpus_from == null)')" = true
# issue 20, done when: every crossover with its interval, no percentile from too few samples,
# the variant order's seed in the report (the run of docs/sim.md and docs/sample-output.md: 8 modelled EPYC 7763 CPUs)
check "epyc-7763, 8 CPUs: p*, the CPU count and the saving each with a 95% paired-bootstrap interval" \
    test "$(jqr '[.recommendations.entries[0, 1, 2] | select(.status == "recommended" or .interval != null)
                  | .interval.of] | join(",")')" = "p_star,cpus_from,saving"
check "epyc-7763, 8 CPUs: the text summary states each interval" \
    test "$(sed -n '/^What this machine suggests/,/^\$/p' "${REPORT%.json}.txt" | tr '\n' ' ' | grep -o '95% interval' | wc -l)" -ge 3
check "epyc-7763, 8 CPUs: flush_ceiling's p* in every summary with its interval (or none measured)" \
    test "$(exp_field flush_ceiling '[.summary[] | .values | (.p_star == null) or (.p_star_low != null)] | all')" = true
check "epyc-7763, 8 CPUs: no p99 from fewer than 100 samples, no p90 from fewer than 10" \
    test "$(jqr '[.experiments[] | (.results, .summary)[] | .metrics[]
                  | select((.p99 != null and .n < 100) or (.p90 != null and .n < 10))] | length')" = 0
check "epyc-7763, 8 CPUs: the variant order and its seed in the report, from --seed" \
    test "$(jqr '[.method.variant_order, (.method.order_seed | type)] | join(",")')" = "random_per_iteration,number"
check "show: the sweep's facets list only their own page counts (no row of dashes alone)" \
    eval '"$TOOL" show "$REPORT" | grep -A4 "^  form=pages cpus=2 pti=off" | grep -qE "^ +8 " &&
          ! "$TOOL" show "$REPORT" | grep -qE "^ +[0-9]+( +-)+ *\$"'
check "epyc-7763, 8 CPUs: PCID, INVPCID, INVLPGB (8 pages) as the real CPU's CPUID says" \
    test "$(jqr '[.cpu.features.pcid, .cpu.features.invpcid, .cpu.features.invlpgb, .cpu.features.invlpgb_max_pages] | map(tostring) | join(",")')" = "true,true,true,8"
check "epyc-7763, 8 CPUs: marked simulated, with model, profile and seed" \
    test "$(jqr '[.simulated, .simulation.model, .simulation.profile, .simulation.seed] | map(tostring) | join("|")')" = "true|tlbscope strict TLB model|epyc-7763|2026"
check "epyc-7763, 8 CPUs: model version 2, the TLB Zen 3's CPUID reports (256 sets x 8 ways)" \
    test "$(jqr '[.simulation.model_version, .simulation.tlb_sets, .simulation.tlb_ways, .simulation.tlb_source] | map(tostring) | join("|")')" = "2|256|8|cpuid_80000006h"
check "epyc-7763, 8 CPUs: 8 CPUs, all ok, the host's clock as timebase" \
    test "$(jqr '[.topology.cpu_count, .topology.cpus_ok, .cpu.tsc_source] | map(tostring) | join(",")')" = "8,8,host_clock"
check "every result line on the console says [SIMULATED]" \
    test "$(grep -acE '^(PASS|SKIP|FAIL|ERROR): [a-z_]+ \[SIMULATED\]' "$LOG")" = 10
check "the text report is saved next to the JSON and says SIMULATED" \
    grep -q '^SIMULATED tlbscope-sim on the tlbscope strict TLB model' "${REPORT%.json}.txt"
check "tlbscope-report show warns that it is simulated" \
    sh -c "'$TOOL' show '$REPORT' | grep -q '^WARNING   simulated by tlbscope-sim'"
for i in 1 2; do
    "$SIM" --cpus 2 --seed 1 --out "$out/twice" profile=quick experiments=stale_detector_control >/dev/null 2>&1
done
check "two runs into one directory: four files, the second never over the first" \
    test "$(ls "$out/twice" | wc -l)" = 4

# Profiles: an unknown name lists them; --cpu list too.
run unknown --cpu epyc-9999
check "--cpu epyc-9999: exit 2, says so, lists every profile" \
    sh -c "[ $(rc unknown) = 2 ] && grep -q \"unknown CPU profile 'epyc-9999'; the profiles are:\" $out/unknown.err &&
           [ \$(grep -cE '^  (epyc-7763|epyc-9654|epyc-7742|epyc-7551p|xeon-8180|xeon-6330|i9-12900k|qemu-tcg) ' $out/unknown.err) = 8 ]"
run list --cpu list
check "--cpu list: exit 0 and the 8 profiles on stdout" \
    sh -c "[ $(rc list) = 0 ] && [ \$(grep -c '^  ' $out/list.out) = 8 ]"
run help --help
check "--help: exit 0 with the usage and the exit statuses" \
    sh -c "[ $(rc help) = 0 ] && grep -q '^usage: tlbscope-sim' $out/help.out && grep -q '^Exit status: 0 SUCCESS or SKIP, 1 ERROR or FAILURE, 2 no report' $out/help.out"
run keys --help-keys
check "--help-keys lists the tool's configuration keys (global_pages, pti among them)" \
    sh -c "[ $(rc keys) = 0 ] && grep -q '^  *samples' $out/keys.out && grep -q 'global_pages' $out/keys.out && grep -q '^  *pti' $out/keys.out"

# Bad input: a clear error naming what was wrong, and no run.
bad() { # name, expected stderr text, args...
    local name=$1 want=$2; shift 2
    run "$name" "$@"
    check "$* : exit 2, '$want'" sh -c "[ $(rc "$name") = 2 ] && grep -qF -- \"$want\" $out/$name.err && [ ! -s $out/$name.out ]"
}
bad cpus0 "--cpus wants 1 to 64, not '0'" --cpus 0
bad cpus65 "--cpus wants 1 to 64, not '65'" --cpus 65
bad tlb "--tlb wants SETSxWAYS, sets 1 to 65536, ways 1 to 64, not '0x4'" --tlb 0x4
bad tlbways "--tlb wants SETSxWAYS, sets 1 to 65536, ways 1 to 64, not '8x65'" --tlb 8x65
bad splinter "--splinter wants 0 to 65536, not '65537'" --splinter 65537
bad erratum "unknown erratum 'bogus'" --erratum bogus
bad max "--invlpgb-max wants 1 to 65536, not '0'" --invlpgb-max 0
bad arg "unknown argument 'frobnicate'" frobnicate
bad noval "--seed needs a value" --seed
run nomax --cpu xeon-8180 --invlpgb-max 4 --out "$out/nomax"
check "--invlpgb-max on a profile without INVLPGB: exit 2, says why" \
    sh -c "[ $(rc nomax) = 2 ] && grep -q 'profile xeon-8180 has no INVLPGB' $out/nomax.err"
bad microcode "--microcode wants a revision, 0 to 0xffffffff, not '0x100000000'" --microcode 0x100000000
run nola57 --cpu i9-12900k --la57 --out "$out/nola57"
check "--la57 on a profile without LA57: exit 2, says why with the CPUID register" \
    sh -c "[ $(rc nola57) = 2 ] && grep -q 'profile i9-12900k has no LA57 (CPUID.(07H,0):ECX\[16\] = 0, ECX = 0x98c027ac)' $out/nola57.err"

# A bad configuration key is reported as the tool reports it, and the run goes on.
sim badkey "$SIM" --cpus 2 --seed 3 profile=quick samples=5 expriments=x experiments=stale_detector_control
check "samples=5 and a misspelt key: warnings naming them, run still clean" \
    eval 'clean && grep -q "^WARNING: command line:1: bad value .5. for key .samples. (expected an integer 10..1000000); default used" "$LOG" &&
          grep -q "^WARNING: command line:1: unknown key .expriments. (did you mean .experiments.?); ignored" "$LOG" &&
          [ "$(jqr ".run.warnings | length")" = 2 ]'

# A geometry given on the command line, with a number of sets that is no power of two.
sim tlb "$SIM" --cpus 2 --seed 5 --cpu xeon-6330 --tlb 3x4 profile=quick experiments=shootdown_seq_vs_conc
check "--tlb 3x4 on xeon-6330: clean, and the report says 3 x 4 from the command line" \
    eval 'clean && [ "$(jqr "[.simulation.tlb_sets, .simulation.tlb_ways, .simulation.tlb_source] | map(tostring) | join(\"|\")")" = "3|4|--tlb" ] &&
          grep -q "TLB 3 sets x 4 ways (--tlb)" "$LOG"'

# One CPU, and the QEMU profile: the multi-CPU and PCID experiments SKIP with their reasons.
sim one "$SIM" --cpus 1 --seed 4 --cpu qemu-tcg profile=quick
check "qemu-tcg, 1 CPU: exit 0; ipi_roundtrip SKIP 'needs at least 2 CPUs'; pti SKIP quoting CPUID" \
    eval 'clean && [[ "$(exp_field ipi_roundtrip .reason)" == "needs at least 2 CPUs"* ]] &&
          [[ "$(exp_field pti_double_invalidation .reason)" == "no PCID: CPUID.01H:ECX[17] = 0 (ECX = 0x"* ]]'
check "qemu-tcg profile: the hypervisor of TCG recorded, as QEMU shows it" \
    test "$(jqr .cpu.hypervisor)" = TCGTCGTCGTCG
