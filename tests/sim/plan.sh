#!/usr/bin/env bash
# Planned runs (run_budget_s, core/run/plan.h) on the strict TLB model: a budget
# far below what the default profile needs makes every experiment plan; the
# report must say what each was cut to, measure exactly what the plan says,
# and stay valid. Every profile is planned (quick included), each share
# within budget_s; run_budget_s=0 is not planned. A CPU that answers late is
# kept under a hypervisor, and lost on hardware without abandoning points.
source "$(dirname "$0")/lib.sh"
SEED=${TLBSCOPE_SIM_SEED:-4242}

# the default profile (1000 samples) wants minutes here: 12 s must cut it
sim plan-tight "$SIM" --cpu epyc-7763 --cpus 8 --seed "$SEED" run_budget_s=12
check "run_budget_s=12: a report that validates" validates
check "run_budget_s=12: recorded in run.config" test "$(jqr .run.config.run_budget_s)" = 12
# fixed work: the control (16 rounds) and ipi_target_state (one target, whatever the CPU
# count); shootdown_contention is time-boxed instead (below)
check "every experiment but the fixed-work ones and the time-boxed contention has a plan" \
    test "$(jqr '[.experiments[] | select((.plan == null) != (.id == "stale_detector_control" or .id == "ipi_target_state" or .id == "shootdown_contention")) | .id] | join(",")')" = ""
check "the shootdown grid was cut (fewer samples than configured)" \
    test "$(exp_field shootdown_seq_vs_conc '.plan.samples < .plan.samples_configured and (.plan.reduced | index("samples") != null)')" = true
# (and flush_ceiling the points its share had room for beyond the plan: points_added, issue 32)
check "a plan that fits measured every planned point, and every sample unless it was re-planned" \
    test "$(jqr '[.experiments[] | select(.plan.measured == true) | select((.results | length) != .plan.points_planned + (.plan.points_added // 0) or (.plan.replans == 0 and (.plan.points_added // 0) == 0 and .plan.samples_achieved != .plan.samples_planned)) | .id] | join(",")')" = ""
check "each planned point has the planned samples, or what re-planning gave it (samples_min..samples_max)" \
    test "$(jqr '[.experiments[] | select(.plan.measured == true) | . as $e | .results[] | select(.metrics.latency.n > $e.plan.samples_max or .metrics.latency.n < $e.plan.samples_min or ($e.plan.replans == 0 and .metrics.latency.n != $e.plan.samples)) | $e.id] | unique | join(",")')" = ""
# (the grid's points: issue 21's placement and cluster-mode points are one page beside it)
# (issue 32: its columns are page counts, each with every flush measured at it, or Linux's alone)
check "shootdown_seq_vs_conc: the target counts and page counts measured are the plan's rows and columns" \
    test "$(exp_field shootdown_seq_vs_conc '(.plan.measured | not) or ([.results[] | select(.params.placement == null and .params.ipi_mode == null)] as $g | [([$g[].params.targets] | unique | length) == .plan.rows, ([$g[].params.pages] | unique | length) == .plan.cols] | all)')" = true
check "shootdown_seq_vs_conc: the ceiling, and cr3_reload above it, at every target count measured" sc_keeps_linux_flush
check "a measured plan is SUCCESS (a note when over its share), one not measured is ERROR saying why" \
    test "$(jqr '[.experiments[] | select(.plan != null) | select((.plan.measured and (.status != "SUCCESS" or (.plan.fits == false and ([.notes[] | startswith("plan over its share even at the floor: ")] | any | not)))) or ((.plan.measured | not) and (.status != "ERROR" or (.reason | startswith("plan: over its share even at the floor") | not)))) | .id] | join(",")')" = ""
check "a reduced experiment says so in a note, and the text summary lists it" \
    sh -c "[ \"\$(jq -r '[.experiments[] | select(.plan.fits == true and (.plan.reduced | length) > 0) | select([.notes[] | startswith(\"plan reduced: \")] | any | not) | .id] | join(\",\")' '$REPORT')\" = '' ] && grep -q '^Planned to fit run_budget_s=12' '${REPORT%.json}.txt'"

# every profile is planned (issue 20): quick with 30 s of measuring, each share within 3/4 of
# budget_s; on 4 modelled CPUs its experiments fit as configured
sim plan-quick "$SIM" --cpu epyc-7763 --cpus 4 --seed "$SEED" profile=quick experiments=ipi_broadcast,shootdown_lazy
check "profile=quick: planned, run_budget_s 30, every share within 3/4 of budget_s=60" \
    test "$(jqr '[.run.config.run_budget_s, ([.experiments[] | .plan != null and .plan.share_ms <= 45000] | unique)] | tostring')" = '[30,[true]]'
check "profile=quick on 4 modelled CPUs: as configured (nothing reduced), SUCCESS" \
    test "$(jqr '[.experiments[] | [.status, (.plan.reduced | length)]] | unique | tostring')" = '[["SUCCESS",0]]'
# a budget_s below the share: the share keeps within it, nothing is aborted
sim plan-budget "$SIM" --cpu epyc-7763 --cpus 4 --seed "$SEED" budget_s=8 experiments=shootdown_seq_vs_conc
check "budget_s=8 (share of run_budget_s=60 would be 60 s): share 6 s at most, SUCCESS, not aborted" \
    test "$(exp_field shootdown_seq_vs_conc '[(.plan.share_ms <= 6000), .status, .partial] | map(tostring) | join("|")')" = "true|SUCCESS|false"
# run_budget_s=0: no planning, every experiment as configured (the tests' exact shapes)
sim plan-off "$SIM" --cpu epyc-7763 --cpus 4 --seed "$SEED" samples=20 warmup=2 run_budget_s=0 experiments=ipi_broadcast
check "run_budget_s=0: no plan, the configured samples" \
    test "$(jqr '[([.experiments[].plan] | unique), ([.experiments[].results[].metrics.latency.n] | unique)] | tostring')" = '[[null],[20]]'

# A CPU that answers late (inject=late:3: its first 3 answers 1.5 timeouts late). Under a
# hypervisor (the qemu-tcg profile) it is kept, its lateness recorded, and every experiment
# measures its whole grid; on hardware (epyc-7763) it is lost as before, and
# shootdown_contention still measures its remaining points with the CPUs left.
LATE=(--cpus 4 --seed "$SEED" profile=quick run_budget_s=0 samples=10 warmup=1 inject=late:3 timeout_ms=1000
      experiments=ipi_roundtrip,shootdown_seq_vs_conc,shootdown_contention)
sim late-vm "$SIM" --cpu qemu-tcg "${LATE[@]}"
check "late CPU under a hypervisor: clean, CPU 3 ok with its 3 late answers recorded" \
    eval 'clean && [ "$(jqr ".topology.cpus[3] | [.state, .late_answers, (.late_max_ms > 0)] | tostring")" = "[\"ok\",3,true]" ]'
check "late CPU under a hypervisor: a note names it, and the console" \
    eval '[ "$(jqr "[.experiments[].notes[] | select(test(\"^CPU 3 answered [0-9]+ requests? late\"))] | length")" -ge 1 ] && grep -aq "^NOTE: .*CPU 3 answered" "$LOG"'
check "late CPU under a hypervisor: every experiment SUCCESS over its whole grid (exact shape)" \
    shape_ok "$REPORT" cpus=4 pcid=0 invpcid=0 invlpgb=0 profile=quick samples=10 warmup=1 \
    experiments=ipi_roundtrip,shootdown_seq_vs_conc,shootdown_contention
sim late-hw "$SIM" --cpu epyc-7763 "${LATE[@]/experiments=*/experiments=shootdown_contention}"
check "late CPU on hardware: lost (slow), named, the run ERROR" \
    test "$RC/$(jqr '.topology.cpus[3].state')" = 1/slow
check "late CPU on hardware: shootdown_contention went on with the 3 CPUs left (points with cpus=3)" \
    test "$(exp_field shootdown_contention '[.partial, ([.results[] | select(.params.cpus == 3)] | length > 0)] | map(tostring) | join("|")')" = "true|true"

# A CPU that hangs (inject=hang:2) under a hypervisor: named once, never waited on again
# (tests/sim/lib.sh, HANG_VM); the other pairs measured
sim hang-vm "$SIM" "${HANG_VM[@]}"
echo "# hang-vm: ipi_roundtrip took $(exp_field ipi_roundtrip .duration_ms 2>/dev/null) ms (timeout_ms=1500)"
check "hung CPU under a hypervisor: named hung, the run partial, ipi_roundtrip under 5 timeouts" \
    hang_cost_bounded
check "hung CPU under a hypervisor: the 6 pairs without CPU 2 measured, its note says what it missed" \
    eval '[ "$(exp_field ipi_roundtrip "[(.results | length), .status] | join(\"|\")")" = "6|ERROR" ] && [[ "$(jqr ".topology.cpus[2].note")" == *"no answer"* ]]'

# shootdown_contention's time box: with 1 s for the run, the columns stop before their
# largest m (a note for each) and the run is SUCCESS; the mutant contention_unboxed,
# which ignores the box, measures the whole grid (tests/sim/mutants.sh). samples=20000
# (2000 a point): the whole grid takes about 5 s on a quiet 2-core host, so the box must
# cut it however fast the host (at 100 a point it fitted in 0.24 s)
sim contention-box "$SIM" --cpu epyc-7763 --cpus 8 --seed "$SEED" run_budget_s=1 samples=20000 \
    experiments=shootdown_contention
check "run_budget_s=1: shootdown_contention SUCCESS, time-boxed (a note per stopped column, fewer points than the grid of 56)" \
    test "$(exp_field shootdown_contention '[.status, ([.notes[] | select(startswith("time box: "))] | length > 1), ((.results | length) < 56)] | map(tostring) | join("|")')" = "SUCCESS|true|true"
