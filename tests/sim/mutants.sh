#!/usr/bin/env bash
# Mutation tests on the strict TLB model: every deliberate defect of
# core/mutant.h, built into its own tlbscope-sim and protocol test
# (make mutants), must be caught; so must every erratum switch of the model.
# A mutant counts as killed only when its killer also passes on the correct
# build: a test that fails on everything proves nothing.
source "$(dirname "$0")/lib.sh"

SEED=${TLBSCOPE_SIM_SEED:-4242}
BASE=(--cpus 4 --seed "$SEED" profile=quick samples=10 warmup=1)
MUT=$here/build/mutants
mutants=0 killed=0 errata=0 caught=0

if [ ! -x "$MUT/swap_order/tlbscope-sim" ]; then
    make --no-print-directory mutants >"$here/build/test-runs/mutants-build.log" 2>&1 ||
        { not_ok "build the mutants (make mutants)"; exit 1; }
fi

# The killers, each first on the correct build (it must pass there).
declare -A killer_args=(
    [pti]="--cpu epyc-7763 experiments=pti_double_invalidation"
    [invlpgb]="--cpu epyc-7763 experiments=invlpgb_range"
    [seq_conc]="--cpu epyc-7763 experiments=shootdown_seq_vs_conc"
    [kernel]="--cpu i9-12900k global_pages=on experiments=shootdown_seq_vs_conc"
)
for k in pti invlpgb seq_conc kernel; do
    # shellcheck disable=SC2086
    sim "control-$k" "$SIM" "${BASE[@]}" ${killer_args[$k]}
    check "control $k (${killer_args[$k]}): correct build is clean" clean
done
out=$(CMOCKA_MESSAGE_OUTPUT=TAP "$here/build/host/tests/test_shootdown_model" 2>&1)
check "control: the protocol test passes on the correct build" \
    test "$(grep -c '^ok ' <<<"$out")/$(grep -c '^not ok ' <<<"$out")" = "2/0"

# kill_sim MUTANT KILLER EXPERIMENT WHAT: the mutant's report is FAILURE with a stale read named.
kill_sim() {
    local m=$1 k=$2 id=$3 what=$4
    mutants=$((mutants + 1))
    # shellcheck disable=SC2086
    sim "mutant-$m" "$MUT/$m/tlbscope-sim" "${BASE[@]}" ${killer_args[$k]}
    if failed_with_stale "$id"; then
        killed=$((killed + 1))
        ok "mutant $m ($what): $id FAILURE, first stale read on CPU $(exp_field "$id" '.verification.stale[0].cpu') at $(exp_field "$id" '.verification.stale[0].va')"
    else
        not_ok "mutant $m ($what): not caught by $id (exit $RC; see $LOG)"
    fi
}

# kill_unit MUTANT TEST WHAT: the mutant's build of the protocol test fails that test.
kill_unit() {
    local m=$1 t=$2 what=$3 out
    mutants=$((mutants + 1))
    out=$(CMOCKA_MESSAGE_OUTPUT=TAP timeout 300 "$MUT/$m/test_shootdown_model" 2>&1)
    if grep -q "^not ok .* - $t\$" <<<"$out"; then
        killed=$((killed + 1))
        ok "mutant $m ($what): $t fails"
    else
        not_ok "mutant $m ($what): $t did not fail"
        sed 's/^/# /' <<<"$out" | tail -n 5
    fi
}

kill_unit swap_order test_orders_are_what_they_claim "seq and conc orders swapped"
kill_unit ack_before_flush test_targets_are_flushed_when_the_initiator_returns \
    "a target acknowledges before it flushes"
kill_sim no_user_flush pti pti_double_invalidation "the user-PCID flush dropped"
kill_sim invlpgb_truncate invlpgb invlpgb_range "INVLPGB chunks truncated"
kill_sim skip_tlbsync invlpgb invlpgb_range "TLBSYNC skipped"
kill_sim target_skips_invlpg seq_conc shootdown_seq_vs_conc "one target skips its INVLPG"
if failed_with_stale shootdown_seq_vs_conc; then
    check "mutant target_skips_invlpg: the stale read is on CPU 1, the target that skipped" \
        test "$(exp_field shootdown_seq_vs_conc '.verification.stale[0].cpu')" = 1
fi
kill_sim full_flush_noop seq_conc shootdown_seq_vs_conc "a full flush that flushes nothing"

# catch_erratum NAME KILLER EXPERIMENT: the model's switch on, the correct build, FAILURE.
catch_erratum() {
    local e=$1 k=$2 id=$3
    errata=$((errata + 1))
    # shellcheck disable=SC2086
    sim "erratum-$e" "$SIM" "${BASE[@]}" --erratum "$e" ${killer_args[$k]}
    if failed_with_stale "$id"; then
        caught=$((caught + 1))
        ok "erratum $e: $id FAILURE, first stale read on CPU $(exp_field "$id" '.verification.stale[0].cpu') at $(exp_field "$id" '.verification.stale[0].va')"
    else
        not_ok "erratum $e: not seen by $id (exit $RC; see $LOG)"
    fi
    check "erratum $e: the report names it" test "$(jqr '.simulation.errata | join(",")')" = "$e"
}
catch_erratum invlpg_ignores_global kernel shootdown_seq_vs_conc
catch_erratum invlpgb_ignores_count invlpgb invlpgb_range
catch_erratum tlbsync_early invlpgb invlpgb_range
# The Alder Lake erratum needs CR4.PCIDE: on a CPU without PCID it changes nothing.
sim "erratum-invlpg-global-no-pcid" "$SIM" "${BASE[@]}" --erratum invlpg_ignores_global \
    --cpu epyc-7551p global_pages=on experiments=shootdown_seq_vs_conc
check "erratum invlpg_ignores_global without PCID (epyc-7551p): clean, as on that CPU" clean

echo "# SUMMARY: $mutants mutants, $killed killed; $errata erratum switches, $caught caught"
[ "$killed" = "$mutants" ] && [ "$caught" = "$errata" ]
