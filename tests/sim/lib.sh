# Shared helpers for the tests on the strict TLB model (sourced, not run).
# Each runs build/tlbscope-sim (or a mutant's build of it) in its own
# directory and prints TAP lines that tests/run-all.sh counts.

# the exact report shape (shape_results, check_shape, shape_ok) is shared with
# the QEMU tests: a simulated report has the same shape as QEMU's
source "$(dirname "${BASH_SOURCE[0]}")/../qemu/lib.sh"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$here" || exit 1
SIM=$here/build/tlbscope-sim
TOOL=$here/build/tlbscope-report
n_test=0

ok() { n_test=$((n_test + 1)); echo "ok $n_test - $*"; }
# TLBSCOPE_STOP_AT_FAIL=1: the script ends at its first failure (tests/sim/mutants.sh, which
# runs a whole script on a mutant and needs only to know that some check fails)
not_ok() {
    n_test=$((n_test + 1)); echo "not ok $n_test - $*"
    [ -z "${TLBSCOPE_STOP_AT_FAIL:-}" ] || exit 1
}
skip() { n_test=$((n_test + 1)); echo "ok $n_test - $1 # SKIP $2"; }
check() { # description, command...
    local d=$1; shift
    if "$@"; then ok "$d"; else not_ok "$d"; fi
}

# sim NAME BINARY ARGS...: one run into build/test-runs/sim/NAME.
# Sets RUN (its directory), LOG (console), REPORT (JSON path or ""), RC.
sim() {
    local name=$1 bin=$2; shift 2
    RUN=$here/build/test-runs/sim/$name
    rm -rf "$RUN"; mkdir -p "$RUN"
    LOG=$RUN/console.txt
    timeout "${SIM_TIMEOUT:-300}" "$bin" --out "$RUN/reports" "$@" >"$LOG" 2>&1
    RC=$?
    REPORT=$(sed -n 's/^Report saved: //p' "$LOG" | head -n1)
    [ -n "$REPORT" ] && [ "${REPORT#/}" = "$REPORT" ] && REPORT=$here/$REPORT
    echo "# $name: exit $RC, $(grep -a '^RESULT:' "$LOG" | tail -n1)"
}

jqr() { jq -r "$1" "$REPORT"; }
exp_status() { jq -r --arg id "$1" '.experiments[] | select(.id == $id) | .status' "$REPORT"; }
exp_field() { jq -r --arg id "$1" ".experiments[] | select(.id == \$id) | $2" "$REPORT"; }
validates() { "$TOOL" validate "$REPORT" >/dev/null 2>&1; }
stale_total() { jqr '[.experiments[].verification.stale_reads] | add // 0'; }

# failed_with_stale EXPERIMENT: the run ended 1, the experiment is FAILURE, and its
# first stale read names a CPU and a test-region address (and what was seen).
failed_with_stale() {
    local id=$1
    [ "$RC" = 1 ] && [ -s "$REPORT" ] && [ "$(exp_status "$id")" = FAILURE ] &&
        [ "$(exp_field "$id" '.verification.stale_reads')" -gt 0 ] &&
        [ "$(exp_field "$id" '.verification.stale[0].cpu | type')" = number ] &&
        [[ "$(exp_field "$id" '.verification.stale[0].va')" == 0x7e* ]] &&
        [ "$(exp_field "$id" '.verification.stale[0].seen')" != \
          "$(exp_field "$id" '.verification.stale[0].expected')" ] &&
        grep -aq "^FAIL: $id \[SIMULATED\].*first: CPU [0-9]* read 0x[0-9a-f]* at VA 0x7e" "$LOG"
}

# clean: exit 0, nothing stale anywhere, no errors, the report validates.
clean() {
    [ "$RC" = 0 ] && [ -s "$REPORT" ] && [ "$(stale_total)" = 0 ] &&
        [ "$(jqr '.run.errors | length')" = 0 ] && validates
}

# A hung CPU (inject=hang:2) under a hypervisor costs ipi_roundtrip one timeout and its
# grace (2 timeouts): 3 timeouts and the healthy pairs' work. Waiting on it again
# (stopping its spinner first: mutant hang_waited_again) costs 3 more; before the fix,
# 10 (50.9 s under QEMU, timeout_ms=5000). The bound, 5 timeouts, leaves 2 for the
# healthy pairs on a loaded host; a wait that runs to its deadline is never shorter.
HANG_VM=(--cpu qemu-tcg --cpus 4 --seed 7 profile=quick run_budget_s=0 samples=10 warmup=1
         inject=hang:2 timeout_ms=1500 experiments=ipi_roundtrip)
hang_cost_bounded() {
    [ "$(jqr '[.topology.cpus[2].state, .run.status] | join("|")')" = "hung|partial" ] &&
        [ "$(exp_field ipi_roundtrip '.duration_ms')" -lt $((5 * 1500)) ]
}

# ipi_target_state's idle-state run on the model (tests/sim/idle_states.sh and
# tests/sim/mutants.sh): Xeon 8180, SMT 2, the target CPU 2 and its sibling CPU 3.
IDLE_ARGS=(--cpu xeon-8180 --cpus 4 --seed "${TLBSCOPE_SIM_SEED:-2121}" experiments=ipi_target_state
           profile=quick run_budget_s=0 samples=100)
# issue 32: ipi_target_state runs first and shootdown_lazy's lazy CPUs idle in the deepest
# MWAIT state it verified (mwait_20, core C6, on the Xeon 8180), said in method.lazy_idle and
# a note (tests/qemu/shape.jq); mutant lazy_hlt_over_mwait leaves them in HLT
IDLE_LAZY_ARGS=(--cpu xeon-8180 --cpus 4 --seed "${TLBSCOPE_SIM_SEED:-2121}"
                experiments=ipi_target_state,shootdown_lazy profile=quick run_budget_s=0 samples=10)
lazy_in_deepest_mwait() {
    [ "$(jqr '.method.lazy_idle | "\(.state) \(.hint) \(.settle_us)"')" = "mwait_20 32 600" ] &&
        shape_ok "$REPORT" cpus=4 profile=quick samples=10 experiments=ipi_target_state,shootdown_lazy >/dev/null
}
# point STATE FIELD: a field of ipi_target_state's point of that state
point() { exp_field ipi_target_state ".results[] | select(.params.state == \"$1\") | $2"; }
idle_c6_residency() { point mwait_20 .params.residency; }
idle_c6_reason() { point mwait_20 .params.residency_reason; }

# Issue 32 (tests/sim/plan_cuts.sh, tests/sim/mutants.sh), on $REPORT:
# shootdown_seq_vs_conc's cut grid keeps the ceiling (33) at every target count it measured,
# and above it Linux's full flush (cr3_reload), both orders, at every page count it measured
sc_keeps_linux_flush() {
    [ "$(exp_field shootdown_seq_vs_conc '[.results[] | select(.params.placement == null and .params.ipi_mode == null)] as $g
        | ([$g[].params.targets] | unique) as $ks | ([$g[].params.pages] | unique) as $ps
        | ([$ks[] as $k | [$g[] | select(.params.targets == $k) | .params.pages] | index(33) != null] | all)
          and ([$ks[] as $k | $ps[] | select(. > 33) as $p
                | [$g[] | select(.params.targets == $k and .params.pages == $p and .params.flush == "cr3_reload")
                   | .params.mode] | sort == ["conc", "seq"]] | all)')" = true ]
}
# flush_ceiling measured page counts beyond its plan on the curve the plan kept first (local,
# working set 512, contiguous), around its crossing
fc_refined() {
    [ "$(exp_field flush_ceiling '[.results[] | select(.params.targets == 0 and .params.working_set == 512
        and .params.working_set_form == "contiguous" and .values.added != null)] | length > 0')" = true ]
}
# flush_ceiling's initiator refills its working set after a shootdown: initiator_refill at
# working set 512, summed over (targets, pages, mode), is more than twice that at 64 (one
# point at 512 pages can be 1.6 times: the model's CPUs share 2 host cores; without the
# refill both are the few ticks between the last ack and the next clock read)
fc_initiator_refills() {
    [ "$(exp_field flush_ceiling '[.results[] | select(.params.kind == "shootdown" and .params.working_set_form == "contiguous")]
        | group_by([.params.targets, .params.pages, .params.mode])
        | map(select(length > 1) | [(map(select(.params.working_set == 64))[0].metrics.initiator_refill.p50),
                                    (map(select(.params.working_set == 512))[0].metrics.initiator_refill.p50)])
        | length > 0 and ([.[][0]] | add) * 2 < ([.[][1]] | add)')" = true ]
}
# invlpgb_range's busy_ws rows: the IPI point's target_lost is every target's loss summed (its
# mean is the per-target mean times the targets, within 1%, and the targets are every other CPU)
ib_target_lost_summed() {
    [ "$(exp_field invlpgb_range '[.results[] | select(.params.targets_doing == "busy_ws" and .params.method == "ipi")]
        | length == 1 and (.[0] | .values.lost_targets == .params.cpus - 1 and .values.lost_targets > 1
            and ((.metrics.target_lost.mean - .values.lost_per_target_mean * .values.lost_targets) | fabs)
                <= 0.01 * .metrics.target_lost.mean + 1)')" = true ]
}
# the bystander row's windows held the initiator's INVLPGB loop: 8 INVLPGB+TLBSYNC each
ib_bystanders_loaded() {
    [ "$(exp_field invlpgb_range '[.results[] | select(.params.targets_doing == "busy_ws" and .params.method == "invlpgb")]
        | length == 1 and .[0].values.invlpgb_per_window == 8 and .[0].metrics.bystander_lost.n > 0')" = true ]
}
