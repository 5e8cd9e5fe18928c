#!/usr/bin/env bash
# Mutation tests on the strict TLB model: every deliberate defect of
# core/mutant.h, built into its own tlbscope-sim and protocol tests
# (make mutants), must be caught; so must every erratum switch of the model.
# A mutant counts as killed only when its killer also passes on the correct
# build: a test that fails on everything proves nothing.
# Some defects leave no stale read at all (a verifier that reads less, lazy
# CPUs interrupted anyway, a grid cut short, INVLPGB points that ran IPIs, a
# verifier blind on the APs): the exact report shape the QEMU tests check
# (tests/qemu/shape.jq) must catch them, on a report shaped like QEMU's
# emulated SMP 4 run, where the checks the QEMU tests made before issue 15
# (legacy_checks below) still pass.
source "$(dirname "$0")/lib.sh"

SEED=${TLBSCOPE_SIM_SEED:-4242}
BASE=(--cpus 4 --seed "$SEED" profile=quick run_budget_s=0 samples=10 warmup=1)
MUT=$here/build/mutants
mutants=0 killed=0 errata=0 caught=0

# every mutant of sim/sim.mk, with its tlbscope-sim and protocol tests
need_build=false
all_mutants=$(sed -n '/^MUTANTS :=/,/[^\\]$/p' sim/sim.mk | sed 's/^MUTANTS :=//; s/\\//g')
declare -A dead=()
tool_mutants=$(sed -n 's/^TOOL_MUTANTS := //p' reports/tool/tool.mk)
# issue 27's tool mutant is listed only in reports/tool/tool.mk (sim/ is not its folder)
for m in $tool_mutants; do
    [[ " $all_mutants " == *" $m "* ]] || all_mutants="$all_mutants $m"
done
for m in $all_mutants; do
    if [[ " $tool_mutants " == *" $m "* ]]; then # tlbscope-report's: one tool binary
        [ -x "$MUT/$m/tlbscope-report" ] || need_build=true
        continue
    fi
    for b in tlbscope-sim test_shootdown_model test_lazy_model test_class_pool test_contention_model; do
        [ -x "$MUT/$m/$b" ] || need_build=true
    done
done
# issue 24's mutants: test_upload only (sim/sim.mk NET_MUTANTS)
net_mutants=$(sed -n 's/^NET_MUTANTS :=//p' sim/sim.mk)
for m in $net_mutants; do [ -x "$MUT/$m/test_upload" ] || need_build=true; done
all_mutants="$all_mutants $net_mutants"
# issue 31's mutants: their unit tests only (sim/sim.mk RECORD_MUTANTS)
record_mutants=$(sed -n 's/^RECORD_MUTANTS :=//p' sim/sim.mk)
[ -x "$MUT/median_boot_biased/test_median_interval" ] || need_build=true
for m in p50_ci_of_p90 samples_kept_sorted; do [ -x "$MUT/$m/test_record_samples" ] || need_build=true; done
all_mutants="$all_mutants $record_mutants"
# issue 35's mutants: one unit test each (sim/sim.mk SEC_MUTANTS, SEC_MUTANT_TEST_<name>)
sec_mutants=$(sed -n '/^SEC_MUTANTS :=/,/[^\\]$/p' sim/sim.mk | sed 's/^SEC_MUTANTS :=//; s/\\//g')
sec_test() { sed -n "s/^SEC_MUTANT_TEST_$1 := //p" sim/sim.mk; }
for m in $sec_mutants; do [ -x "$MUT/$m/$(sec_test "$m")" ] || need_build=true; done
all_mutants="$all_mutants $sec_mutants"
# issue 35's tool mutants: a tlbscope-report each (sim/sim.mk SEC_TOOL_MUTANTS)
sec_tool_mutants=$(sed -n 's/^SEC_TOOL_MUTANTS :=//p' sim/sim.mk)
for m in $sec_tool_mutants; do [ -x "$MUT/$m/tlbscope-report" ] || need_build=true; done
all_mutants="$all_mutants $sec_tool_mutants"
# issue 32's unit-only mutants: their unit test only (sim/sim.mk PLAN_MUTANTS)
plan_mutants=$(sed -n '/^PLAN_MUTANTS :=/,/[^\\]$/p' sim/sim.mk | sed 's/^PLAN_MUTANTS :=//; s/\\//g')
for m in $plan_mutants; do compgen -G "$MUT/$m/test_*" >/dev/null || need_build=true; done
all_mutants="$all_mutants $plan_mutants"
# issue 32 part C's unit-only mutants: one unit test each (sim/sim.mk NUM_MUTANTS, NUM_MUTANT_TEST_<name>)
num_mutants=$(sed -n '/^NUM_MUTANTS :=/,/[^\\]$/p' sim/sim.mk | sed 's/^NUM_MUTANTS :=//; s/\\//g')
num_test() { sed -n "s/^NUM_MUTANT_TEST_$1 := //p" sim/sim.mk; }
for m in $num_mutants; do [ -x "$MUT/$m/$(num_test "$m")" ] || need_build=true; done
all_mutants="$all_mutants $num_mutants"
# issue 27's aarch64 mutants: test_arm64_model only (sim/arm64/arm64.mk ARM_MUTANTS)
arm_mutants=$(sed -n '/^ARM_MUTANTS :=/,/[^\\]$/p' sim/arm64/arm64.mk | sed 's/^ARM_MUTANTS :=//; s/\\//g')
for m in $arm_mutants; do [ -x "$MUT/$m/test_arm64_model" ] || need_build=true; done
all_mutants="$all_mutants $arm_mutants"
# aarch64's topology classes and ipi_roundtrip's pairs: test_topo_arm64 only
# (sim/arm64/arm64.mk TOPO_A64_MUTANTS)
topo_a64_mutants=$(sed -n 's/^TOPO_A64_MUTANTS :=//p' sim/arm64/arm64.mk)
for m in $topo_a64_mutants; do [ -x "$MUT/$m/test_topo_arm64" ] || need_build=true; done
all_mutants="$all_mutants $topo_a64_mutants"
# the aarch64 verifier's reading of a read: test_a64_verify only (sim/arm64/arm64.mk A64_VERIFY_MUTANTS)
a64_verify_mutants=$(sed -n 's/^A64_VERIFY_MUTANTS :=//p' sim/arm64/arm64.mk)
for m in $a64_verify_mutants; do [ -x "$MUT/$m/test_a64_verify" ] || need_build=true; done
all_mutants="$all_mutants $a64_verify_mutants"
# a CPU's GICv3 redistributor over every GICR range: test_gic_redist only
# (sim/arm64/arm64.mk GICR_MUTANTS)
gicr_mutants=$(sed -n 's/^GICR_MUTANTS :=//p' sim/arm64/arm64.mk)
for m in $gicr_mutants; do [ -x "$MUT/$m/test_gic_redist" ] || need_build=true; done
all_mutants="$all_mutants $gicr_mutants"
# tlbscope-sim --arch aarch64's mutants, and the app's IRQ handler's: their driver only
# (sim/arm64/arm64.mk A64SIM_MUTANTS)
a64sim_mutants=$(sed -n '/^A64SIM_MUTANTS :=/,/[^\\]$/p' sim/arm64/arm64.mk | sed 's/^A64SIM_MUTANTS :=//; s/\\//g')
for m in $a64sim_mutants; do [ -x "$MUT/$m/tlbscope-sim-a64" ] || need_build=true; done
all_mutants="$all_mutants $a64sim_mutants"
if $need_build; then
    make --no-print-directory mutants >"$here/build/test-runs/mutants-build.log" 2>&1 ||
        { not_ok "build the mutants (make mutants)"; exit 1; }
fi

# The killers, each first on the correct build (it must pass there).
declare -A killer_args=(
    [pti]="--cpu epyc-7763 experiments=pti_double_invalidation"
    [invlpgb]="--cpu epyc-7763 experiments=invlpgb_range"
    [seq_conc]="--cpu epyc-7763 experiments=shootdown_seq_vs_conc"
    # the Alder Lake profile with the microcode its dump recorded (0x12, before the fix of
    # the INVLPG/global erratum, which the model then shows): the tool must run without PCID
    [kernel]="--cpu i9-12900k global_pages=on experiments=shootdown_seq_vs_conc"
    # the same CPU with fixed microcode: the tool runs with PCID, the model has no erratum
    [kernel_fixed]="--cpu i9-12900k --microcode 0x2e global_pages=on experiments=shootdown_seq_vs_conc"
    [lazy]="--cpu epyc-7763 experiments=shootdown_lazy"
    [emulated]="--cpu qemu-tcg emulate=invlpgb,invpcid experiments=invlpgb_range"
    # issue 32 item 7: emulated INVLPGB on a CPU with PCID, under PTI (a user-PCID pass)
    [emulated_pti]="--cpu xeon-8180 pti=on emulate=invlpgb experiments=invlpgb_range"
    # issue 32 item 18: under PTI every form is verified in the user PCID, 2 MiB pages too
    [invlpgb_pti]="--cpu epyc-7763 pti=on experiments=invlpgb_range"
    # issue 32 item 21: global pages on a CPU without INVPCID: the global flush is a CR4.PGE
    # toggle (tests/sim/global_pages.sh runs every profile in this shape)
    [global_toggle]="--cpu epyc-7742 global_pages=on experiments=shootdown_seq_vs_conc"
    [ceiling]="--cpu epyc-7763 experiments=flush_ceiling"
    # a firmware that hands over with CR4.LA57 (5-level paging)
    [la57]="--cpu epyc-9654 --la57 experiments=shootdown_seq_vs_conc"
)
# flush_ceiling's exact shape on a run with BASE's samples and warm-up
fc_quick_shape() {
    shape_ok "$REPORT" cpus=4 profile=quick samples=10 warmup=1 experiments=flush_ceiling >/dev/null
}
for k in pti invlpgb invlpgb_pti global_toggle seq_conc kernel kernel_fixed lazy emulated emulated_pti ceiling la57; do
    # shellcheck disable=SC2086
    sim "control-$k" "$SIM" "${BASE[@]}" ${killer_args[$k]}
    check "control $k (${killer_args[$k]}): correct build is clean" clean
    # issue 32: flush_ceiling's exact shape (at least 2 warm-up iterations) and the
    # initiator's own refill (kill_check fc_warmup_unfloored, fc_initiator_no_refill below)
    [ "$k" = ceiling ] && check "control ceiling: the exact shape of flush_ceiling, and the initiator refills" \
        eval 'fc_quick_shape && fc_initiator_refills'
done
out=$(CMOCKA_MESSAGE_OUTPUT=TAP "$here/build/host/tests/test_shootdown_model" 2>&1)
check "control: the protocol test passes on the correct build" \
    test "$(grep -c '^ok ' <<<"$out")/$(grep -c '^not ok ' <<<"$out")" = "10/0"
out=$(CMOCKA_MESSAGE_OUTPUT=TAP "$here/build/host/tests/test_class_pool" 2>&1)
check "control: the class-pooling test passes on the correct build" \
    test "$(grep -c '^ok ' <<<"$out")/$(grep -c '^not ok ' <<<"$out")" = "2/0"
out=$(CMOCKA_MESSAGE_OUTPUT=TAP "$here/build/host/tests/test_lazy_model" 2>&1)
check "control: the lazy-path test passes on the correct build" \
    test "$(grep -c '^ok ' <<<"$out")/$(grep -c '^not ok ' <<<"$out")" = "7/0"
out=$(CMOCKA_MESSAGE_OUTPUT=TAP "$here/build/host/tests/test_contention_model" 2>&1)
check "control: the concurrent-initiator test passes on the correct build" \
    test "$(grep -c '^ok ' <<<"$out")/$(grep -c '^not ok ' <<<"$out")" = "5/0"

# The QEMU-shaped run: tlbscope-sim with QEMU's CPU (no PCID, no INVLPGB) and
# its emulation of INVLPGB and INVPCID, 4 CPUs: the report shootdown.sh checks.
QEMU_LIKE=(--cpu qemu-tcg --cpus 4 --seed "$SEED" profile=quick run_budget_s=0 samples=10 warmup=1 emulate=invlpgb,invpcid)
QEMU_SHAPE=(cpus=4 pcid=0 invpcid=0 invlpgb=0 profile=quick samples=10 warmup=1 emulate=invlpgb,invpcid)
# legacy_checks: what tests/qemu/shootdown.sh asserted on this run before
# issue 15 (verification "> 0", four policies present, the control stale on
# at least one CPU, six method/form pairs), on $REPORT
legacy_checks() {
    [ "$(stale_total)" = 0 ] &&
        [ "$(exp_status shootdown_seq_vs_conc)/$(exp_status shootdown_lazy)/$(exp_status stale_detector_control)" = SUCCESS/SUCCESS/SUCCESS ] &&
        [ "$(exp_field shootdown_seq_vs_conc '[.results[].params.pages] | unique | length')/$(exp_field shootdown_seq_vs_conc '[.results[].params.mode] | unique | join(",")')" = 9/conc,seq ] &&
        [ "$(exp_field shootdown_seq_vs_conc .verification.checks)" -gt 0 ] &&
        [ "$(exp_field shootdown_lazy '[.results[].params.variant] | unique | length')" = 4 ] &&
        [ "$(exp_field stale_detector_control '.results[0].values.cpus_reading_stale_max')" != 0 ] &&
        [ "$(exp_status invlpgb_range)/$(exp_field invlpgb_range .emulated)" = SUCCESS/true ] &&
        [ "$(exp_field invlpgb_range '[.results[] | .params.method + "/" + .params.form] | unique | length')" = 6 ] &&
        [ "$(exp_field invlpgb_range .verification.stale_reads)/$(exp_field invlpgb_range '.verification.checks > 0')" = 0/true ]
}
sim "control-qemu-like" "$SIM" "${QEMU_LIKE[@]}"
check "control qemu-like (${QEMU_LIKE[*]}): clean, the earlier checks pass" eval 'clean && legacy_checks'
check "control qemu-like: the exact shape of QEMU's emulated SMP 4 run" shape_ok "$REPORT" "${QEMU_SHAPE[@]}"

# kill_sim MUTANT KILLER EXPERIMENT WHAT: the mutant's report is FAILURE with a stale read named.
kill_sim() {
    local m=$1 k=$2 id=$3 what=$4
    mutants=$((mutants + 1))
    # shellcheck disable=SC2086
    sim "mutant-$m" "$MUT/$m/tlbscope-sim" "${BASE[@]}" ${killer_args[$k]}
    if failed_with_stale "$id"; then
        killed=$((killed + 1)); dead[$m]=1
        ok "mutant $m ($what): $id FAILURE, first stale read on CPU $(exp_field "$id" '.verification.stale[0].cpu') at $(exp_field "$id" '.verification.stale[0].va')"
    else
        not_ok "mutant $m ($what): not caught by $id (exit $RC; see $LOG)"
    fi
}

# kill_shape MUTANT WHAT: the mutant's QEMU-shaped report passes the earlier
# checks (no stale read, every label right) but not its exact shape.
kill_shape() {
    local m=$1 what=$2 problems
    mutants=$((mutants + 1))
    sim "mutant-$m" "$MUT/$m/tlbscope-sim" "${QEMU_LIKE[@]}"
    if ! clean || ! legacy_checks; then
        not_ok "mutant $m ($what): expected a clean run that the earlier checks pass (exit $RC; see $LOG)"
    elif problems=$(shape_ok "$REPORT" "${QEMU_SHAPE[@]}"); then
        not_ok "mutant $m ($what): the exact shape did not catch it"
    else
        killed=$((killed + 1)); dead[$m]=1
        ok "mutant $m ($what): the earlier checks pass, the exact shape fails: $(head -n 1 <<<"$problems" | sed 's/^# shape: //')"
        sed -n '2,3p' <<<"$problems"
    fi
}

# kill_unit MUTANT TEST WHAT [BINARY]: the mutant's build of a protocol test
# (test_shootdown_model unless named) fails that test.
kill_unit() {
    local m=$1 t=$2 what=$3 bin=${4:-test_shootdown_model} out
    mutants=$((mutants + 1))
    out=$(CMOCKA_MESSAGE_OUTPUT=TAP timeout 300 "$MUT/$m/$bin" 2>&1)
    if grep -q "^not ok .* - $t\$" <<<"$out"; then
        killed=$((killed + 1)); dead[$m]=1
        ok "mutant $m ($what): $t fails"
    else
        not_ok "mutant $m ($what): $t did not fail"
        sed 's/^/# /' <<<"$out" | tail -n 5
    fi
}

kill_unit swap_order test_orders_are_what_they_claim "seq and conc orders swapped"
kill_unit ack_before_flush test_targets_are_flushed_when_the_initiator_returns \
    "a target acknowledges before it flushes"
kill_unit unequal_class_pool test_every_pair_contributes_equally \
    "ipi_roundtrip's class pools fill from the first pairs" test_class_pool
kill_unit verify_inside_window test_targets_verify_after_the_window_closes \
    "targets verify right after acknowledging, inside the initiator's timed window"
kill_unit breakdown_keeps_handler test_breakdown_parts_account_for_the_latency \
    "a shootdown's delivery + acknowledgement still holds the target's handler"
kill_sim no_user_flush pti pti_double_invalidation "the user-PCID flush dropped"
kill_unit pti_ws_untouched test_return_to_user_refills_the_user_working_set \
    "PTI: the return to user refills no user working set (the deferred flush under-costed)"
kill_unit refill_before_ack test_targets_refill_after_acknowledging \
    "flush_ceiling: targets refill before acknowledging (the refill inside the initiator's latency)"
kill_unit ws_frames_contiguous test_working_set_forms_map_as_described \
    "flush_ceiling: the scattered working set on adjacent frames"
kill_sim invlpgb_truncate invlpgb invlpgb_range "INVLPGB chunks truncated"
kill_sim skip_tlbsync invlpgb invlpgb_range "TLBSYNC skipped"
kill_sim target_skips_invlpg seq_conc shootdown_seq_vs_conc "one target skips its INVLPG"
if failed_with_stale shootdown_seq_vs_conc; then
    check "mutant target_skips_invlpg: the stale read is on CPU 1, the target that skipped" \
        test "$(exp_field shootdown_seq_vs_conc '.verification.stale[0].cpu')" = 1
fi
kill_sim full_flush_noop seq_conc shootdown_seq_vs_conc "a full flush that flushes nothing"
# Xen's catch-up dropped: a descheduled vCPU keeps the old translation
kill_unit xen_no_catchup test_xen_not_running_flushes_when_scheduled \
    "Xen: no flush when a descheduled vCPU runs again" test_lazy_model
kill_sim xen_no_catchup lazy shootdown_lazy "Xen: no flush when a descheduled vCPU runs again"
kill_unit lazy_ipi_anyway test_linux_lazy_catches_up_once "lazy CPUs never skipped" test_lazy_model
# control_unit MUTANT BINARY WHAT [OK]: a unit test that kills MUTANT is built for it (make
# mutants lists it) and passes on the correct build (with OK given: exactly OK tests pass)
control_unit() {
    local m=$1 bin=$2 what=$3 want=${4:-} out
    # make's rules name build/mutants/... relative to the tree, not by its absolute path
    [ -x "$MUT/$m/$bin" ] ||
        make --no-print-directory -C "$here" "build/mutants/$m/$bin" >>"$here/build/test-runs/mutants-build.log" 2>&1
    out=$(CMOCKA_MESSAGE_OUTPUT=TAP "$here/build/host/tests/$bin" 2>&1)
    if [ -n "$want" ]; then
        check "control: $what passes on the correct build" \
            test "$(grep -c '^ok ' <<<"$out")/$(grep -c '^not ok ' <<<"$out")" = "$want/0"
    else
        check "control: $what passes on the correct build" test "$(grep -c '^not ok ' <<<"$out")" = 0
    fi
}
# the planner ignores run_budget_s: a reduced plan no longer fits its share
control_unit plan_ignores_budget test_plan "the planning test"
kill_unit plan_ignores_budget test_a_reduced_plan_fits_its_share "the plan ignores the budget" test_plan
# issue 20: quick and full unplanned again (288 CPUs under QEMU: quick overran budget_s, ERROR)
control_unit profiles_unplanned test_plan "the planning test"
kill_unit profiles_unplanned test_every_profile_plans_within_budget_s \
    "quick and full measured as configured, not planned" test_plan
# flush_ceiling's thinning by the stride alone: 33 lost at stride 2, 32 and 33 at stride 4
control_unit plan_thin_stride_only test_plan "the planning test"
kill_unit plan_thin_stride_only test_thinning_keeps_the_ceiling_dense \
    "page counts thinned by the stride alone, the ceiling's too" test_plan
# invlpgb_vs_ipi: a CPU count where IPIs won, below one where INVLPGB won, must end the answer
control_unit cpus_from_any_win test_crossover "the crossover and recommendation test"
kill_unit cpus_from_any_win test_recommend_invlpgb_cpus_from \
    "invlpgb_vs_ipi: the smallest CPU count that won once, though IPIs won above it" test_crossover
# the APIC driver and the takeover on the modelled local APIC (sim/lapic.h, issue 22)
for m in icr_fence_missing lapic_lowest_first x2apic_to_xapic_direct leave_keeps_tool_idt; do
    [ -x "$MUT/$m/test_apic_model" ] ||
        make --no-print-directory -C "$here" "build/mutants/$m/test_apic_model" >>"$here/build/test-runs/mutants-build.log" 2>&1
done
out=$(CMOCKA_MESSAGE_OUTPUT=TAP "$here/build/host/tests/test_apic_model" 2>&1)
check "control: the APIC and takeover test passes on the correct build" \
    test "$(grep -c '^ok ' <<<"$out")/$(grep -c '^not ok ' <<<"$out")" = "7/0"
kill_unit icr_fence_missing test_one_fence_per_mask \
    "no MFENCE;LFENCE before an x2APIC ICR write" test_apic_model
kill_unit lapic_lowest_first test_highest_priority_vector_first \
    "the modelled APIC delivers its lowest pending vector first" test_apic_model
kill_unit x2apic_to_xapic_direct test_takeover_and_hand_back_in_every_mode_pair \
    "x2APIC -> xAPIC without passing through disabled" test_apic_model
kill_unit leave_keeps_tool_idt test_takeover_and_hand_back_in_every_mode_pair \
    "a CPU handed back with the tool's GDT and IDT loaded" test_apic_model
# the missing fence on a whole run: an Intel profile in x2APIC mode, the model names the ICR write
fence_args=(--cpu xeon-8180 apic=x2apic experiments=shootdown_seq_vs_conc)
sim "control-x2apic-fence" "$SIM" "${BASE[@]}" "${fence_args[@]}"
check "control x2apic (${fence_args[*]}): clean, MFENCE;LFENCE recorded" \
    eval 'clean && [ "$(jqr .method.icr_fence)" = "mfence;lfence" ]'
mutants=$((mutants + 1))
# timeout_ms=300: the model stops the CPU whose ICR write was unordered and the others then
# never answer; each is waited for in turn (10 x timeout_ms for a verification IPI: 30 s at
# the default 1000 ms, 3 s here), and the predicate reads only the model's error
sim "mutant-icr_fence_missing" "$MUT/icr_fence_missing/tlbscope-sim" "${BASE[@]}" "${fence_args[@]}" timeout_ms=300
if [ "$RC" = 1 ] && [ "$(jqr .result)" = ERROR ] && validates &&
    jqr '.run.errors[] | select(.where == "model") | .message' |
    grep -q '^CPU [0-9]*: x2APIC ICR write (WRMSR 0x830 = 0x[0-9a-f]*) not ordered after earlier stores'; then
    killed=$((killed + 1)); dead[icr_fence_missing]=1
    ok "mutant icr_fence_missing (no fence before an x2APIC ICR write): ERROR, $(jqr '.run.errors[0].message' | cut -c1-60)..."
else
    not_ok "mutant icr_fence_missing: the run did not name the unordered ICR write (exit $RC; see $LOG)"
fi
# ipi_target_state: a ping taken after a pass's last clock read, charged to that quiet pass
control_unit late_ping_charged test_target_lost "the target lost-time test"
kill_unit late_ping_charged test_ping_after_the_last_read_goes_to_the_next_pass \
    "ipi_target_state: a ping after the pass's last clock read counted as that quiet pass (about 0)" \
    test_target_lost
# ipi_target_state's proof of a state (issue 21): residency bookkeeping and settle times
control_unit residency_demoted_as_reached test_residency "the residency bookkeeping test"
kill_unit residency_demoted_as_reached test_state_demoted \
    "a shallower residency counter's growth taken as the state reached" test_residency
kill_unit settle_fixed test_settle_from_the_model_table \
    "every state settles 10 us, whatever intel_idle's table says" test_residency
# issue 32 item 11: reached needs 0.8 of the expected time; a delta past the elapsed time is no proof
kill_unit residency_any_growth_reached test_short_growth_is_partly_reached \
    "any growth of the state's residency counter taken as the state reached" test_residency
kill_unit residency_beyond_elapsed test_delta_beyond_elapsed_is_unverified \
    "a residency counter that grew more than the elapsed time accepted as proof" test_residency
# issue 32 item 17: contention rounds open only once the halted bystanders are asleep
kill_unit contention_unsettled test_halted_bystanders_are_asleep_when_a_round_opens \
    "shootdown_contention opens its rounds with halted targets still awake" test_contention_model
# issue 32 item 12: three steady windows of 100 ms a point unless the plan's share cannot hold them
kill_unit contention_window_as_before test_steady_windows \
    "shootdown_contention's steady window one per point, 10-250 ms from the plan" test_contention_plan
# issue 32 item 13: lazy, contention and invlpgb_range send IPIs as Linux would on the machine
kill_unit cluster_only_seq_conc test_shootdowns_send_ipis_as_linux \
    "shootdown_lazy, _contention, invlpgb_range send physical IPIs where Linux uses cluster mode" \
    test_linux_apic
# issue 32 item 14: spread round-robin over (node, package, L3), not even over the numbering
kill_unit spread_by_numbering test_spread_round_robin_over_domains \
    "spread evenly over the firmware's CPU numbering (one package where it alternates)" \
    test_placement
kill_unit class_mix_wrong_cpu test_class_mix_counted_from_the_initiator \
    "a point's class mix counted from its first target, not the initiator" test_placement
kill_unit snc_class_folded test_h8dgu_dies_are_nodes_of_one_package \
    "another node of the same package (a real SRAT's dies) read as same_package" test_numa_classes
# what the aarch64 app runs on: a KVM guest (its vendor hypervisor UID) is not QEMU's TCG
kill_unit platform_uid_ignored test_kvm_uid_is_virtualised \
    "aarch64: the vendor hypervisor UID ignored, a KVM guest labelled emulated" test_platform_kind
# the target's sibling left in HLT, or counters that never count: the model's C6 is not reached
for m in sibling_left_idle residency_unmodelled; do
    mutants=$((mutants + 1))
    sim "mutant-$m" "$MUT/$m/tlbscope-sim" "${IDLE_ARGS[@]}"
    if clean && [ "$(idle_c6_residency)" = not_reached ]; then
        killed=$((killed + 1)); dead[$m]=1
        ok "mutant $m: ipi_target_state's mwait_20 (core C6) not_reached on xeon-8180: $(idle_c6_reason | cut -c1-60)"
    else
        not_ok "mutant $m: mwait_20 not caught (exit $RC, residency $(idle_c6_residency); see $LOG)"
    fi
done
# MSR 0xE2 probed in ipi_target_state's prepare, in the firmware's state (on Bochs the #GP
# reached the firmware's handler and the run hung): the model names the probe
mutants=$((mutants + 1))
sim "mutant-probe_outside_tool" "$MUT/probe_outside_tool/tlbscope-sim" --cpu xeon-8180 --cpus 2 \
    --seed "$SEED" profile=quick experiments=ipi_target_state
if [ "$RC" = 1 ] && jqr '.run.errors[] | select(.where == "model") | .message' |
    grep -q "^CPU 0: a read of MSR 0xe2 probed outside the tool's state"; then
    killed=$((killed + 1)); dead[probe_outside_tool]=1
    ok "mutant probe_outside_tool (an MSR probed in the firmware's state): ERROR, the model names MSR 0xe2"
else
    not_ok "mutant probe_outside_tool: the run did not name the probe (exit $RC; see $LOG)"
fi
# the conditions' bookkeeping on recorded MSR values (issue 20, item 9)
control_unit smi_bsp_only test_conditions "the conditions bookkeeping test"
kill_unit smi_bsp_only test_smis_counted_on_every_cpu \
    "conditions: one CPU's SMI count stands for every CPU's" test_conditions
control_unit clock_mean_of_ratios test_conditions "the conditions bookkeeping test"
# issue 21: the topology classes of a 2-socket x 2-L3 x SMT machine, and placements of one class
control_unit l3_class_ignored test_placement "the classes and placement test"
kill_unit l3_class_ignored test_classes_of_two_sockets_two_l3s_smt \
    "topology classes: same-L3 pairs read as same_package" test_placement
control_unit node_class_ignored test_placement "the classes and placement test"
kill_unit node_class_ignored test_classes_of_two_sockets_two_l3s_smt \
    "topology classes: a cross-package pair is never same_node" test_placement
control_unit placement_ignored test_placement "the classes and placement test"
kill_unit placement_ignored test_each_placement_picks_its_class \
    "placements take the lowest-numbered CPUs, whatever the class" test_placement
# issue 21: the IPI mode Linux would pick; cluster-mode IPIs reach their targets through logical IDs
control_unit linux_apic_ignores_fadt test_linux_apic "the Linux IPI mode test"
kill_unit linux_apic_ignores_fadt test_fadt_physical_flag_forces_x2apic_phys \
    "Linux's x2APIC mode: the FADT's physical-mode flag ignored" test_linux_apic
control_unit cluster_ipis_physical test_apic_model "the APIC model test"
kill_unit cluster_ipis_physical test_cluster_ipis_reach_their_targets_only \
    "cluster-mode IPIs sent with physical destinations" test_apic_model
kill_unit clock_mean_of_ratios test_clock_weighted_by_time_awake \
    "conditions: the effective clock is the mean of per-CPU ratios" test_conditions
# issue 20: shootdown_order pairs seq and conc of the same flush method; a loss at one page
# does not hide INVLPGB's wins above it; the bootstrap resamples the pairs together
control_unit order_ignores_flush test_crossover "the crossover and recommendation test" 16
control_unit invlpgb_verdict_first_page test_crossover "the crossover and recommendation test"
kill_unit order_ignores_flush test_recommend_order_pairs_by_flush \
    "shootdown_order: seq of one flush method compared with conc of the other" test_crossover
kill_unit invlpgb_verdict_first_page test_recommend_invlpgb_loses_one_page_only \
    "invlpgb_vs_ipi: a loss at one page ends every win (\"IPIs were faster at every page count\")" test_crossover
control_unit bootstrap_unpaired test_bootstrap "the bootstrap and variant-order test" 7
kill_unit bootstrap_unpaired test_pairs_that_always_differ_a_little \
    "the bootstrap resamples seq and conc (a and b) apart: the pairing lost" test_bootstrap
# issue 31: every metric's own 95% interval of its p50, and keep_samples=on
control_unit median_boot_biased test_median_interval "the points' own interval test" 2
kill_unit median_boot_biased test_replicates_are_literal_resamples \
    "boot_median's halving sends one draw more to the lower half: not a resample's median" \
    test_median_interval
control_unit p50_ci_of_p90 test_record_samples "the metrics' interval and samples test" 3
kill_unit p50_ci_of_p90 test_every_metric_gets_its_interval \
    "a metric's p50_ci95 drawn around its 90th percentile" test_record_samples
kill_unit samples_kept_sorted test_kept_samples_in_the_order_measured \
    "keep_samples=on writes each metric's samples sorted, not in the order measured" \
    test_record_samples
# QEMU's emulated INVLPGB on the strict model: TCG's whole-TLB flushes hid this one
kill_sim emulate_2m_as_4k emulated invlpgb_range "emulated INVLPGB flushes 2 MiB pages at 4 KiB stride"
# issue 32 item 6: INVLPGB's operands are Linux's (__invlpgb() sets ASID valid on every one)
control_unit invlpgb_asid_invalid test_invlpgb "the INVLPGB encoding test"
kill_unit invlpgb_asid_invalid test_encode_range \
    "a range INVLPGB without the ASID valid bit Linux's __invlpgb() sets" test_invlpgb
# issue 32 item 19 (in part): a PTE store is pending for the x2APIC ICR ordering check
kill_unit pte_store_unordered test_unordered_x2apic_icr_write_is_flagged \
    "the model never counts a PTE store as pending before an unfenced ICR write" test_apic_model
# the switch-back's full barriers, on the model's store buffers (sim/storebuf.h): the lazy
# CPU held where its load passed its flag's store, a shootdown skips it meanwhile
kill_unit lazy_switch_no_barrier test_linux_switch_back_orders_is_lazy_before_tlb_gen \
    "no MFENCE between is_lazy = 0 and the load of tlb_gen at switch-back" test_lazy_model
kill_unit xen_switch_no_barrier test_xen_switch_back_orders_is_running_before_need_flush \
    "no MFENCE between is_running = 1 and the load of need_flush at switch-back" test_lazy_model
# issue 32 item 5: EFER.TCE on every CPU while the tool runs, EFER given back as found
# (the control is tests/sim/amd.sh's epyc-7763 run: clean, TCE used on all 4 CPUs)
tce_args=(--cpu epyc-7763 --cpus 4 --seed "$SEED" profile=quick run_budget_s=0 experiments=pti_double_invalidation)
mutants=$((mutants + 1))
sim "mutant-tce_bsp_only" "$MUT/tce_bsp_only/tlbscope-sim" "${tce_args[@]}"
if [ -s "$REPORT" ] && validates &&
    [ "$(jqr '.method.efer_tce | [.supported, .used, .cpus_used] | map(tostring) | join("|")')" = "true|false|1" ] &&
    [ "$(jqr '[.run.warnings[] | select(.where == "efer_tce")] | length')" = 1 ]; then
    killed=$((killed + 1)); dead[tce_bsp_only]=1
    ok "mutant tce_bsp_only (EFER.TCE set on the BSP alone): method.efer_tce used false, 1 of 4 CPUs, warned"
else
    not_ok "mutant tce_bsp_only: method.efer_tce did not show it (exit $RC; see $LOG)"
fi
mutants=$((mutants + 1))
sim "mutant-tce_not_restored" "$MUT/tce_not_restored/tlbscope-sim" "${tce_args[@]}"
if [ "$RC" = 1 ] && [ "$(jqr .result)" = ERROR ] &&
    jqr '.run.errors[] | select(.where == "model") | .message' | grep -q '^CPU [0-9]*: handed back with EFER 0x8d01'; then
    killed=$((killed + 1)); dead[tce_not_restored]=1
    ok "mutant tce_not_restored (EFER handed back with the tool's TCE): ERROR, the model names the CPU"
else
    not_ok "mutant tce_not_restored: the hand-back check did not name EFER (exit $RC; see $LOG)"
fi
# issue 32 item 8: DE_CFG[1] (LFENCE dispatch-serialising) on every CPU, as Linux sets it
mutants=$((mutants + 1))
sim "mutant-lfence_bsp_only" "$MUT/lfence_bsp_only/tlbscope-sim" "${tce_args[@]}"
if [ -s "$REPORT" ] && validates &&
    [ "$(jqr '.method.lfence | [.source, .used, .cpus_used] | map(tostring) | join("|")')" = "de_cfg|false|1" ] &&
    [ "$(jqr '[.run.warnings[] | select(.where == "lfence")] | length')" = 1 ]; then
    killed=$((killed + 1)); dead[lfence_bsp_only]=1
    ok "mutant lfence_bsp_only (DE_CFG[1] set on the BSP alone): method.lfence used false, 1 of 4 CPUs, warned"
else
    not_ok "mutant lfence_bsp_only: method.lfence did not show it (exit $RC; see $LOG)"
fi
kill_sim pti_2m_user_invpcid_skipped invlpgb_pti invlpgb_range \
    "PTI: the IPI shootdown of 2 MiB pages skips the user PCID's INVPCID"
kill_sim invlpgb_2m_user_pass_skipped invlpgb_pti invlpgb_range \
    "PTI: the 2 MiB form's user-PCID INVLPGB skipped"
kill_sim pge_toggle_removed global_toggle shootdown_seq_vs_conc \
    "global flush without INVPCID: the CR4.PGE toggle removed (a CR3 write keeps global entries)"
# issue 32 item 20: the host build compiles asm/tlb.h's own flush_local_all() (no host copy)
kill_sim flush_local_noflush seq_conc shootdown_seq_vs_conc \
    "asm/tlb.h flush_local_all() writes CR3 with the no-flush bit"
kill_sim emulate_ignores_pcid emulated_pti invlpgb_range \
    "emulated INVLPGB applied in the current PCID: the user-PCID pass under PTI lost"
# invlpgb_range's bystander row: its windows without the INVLPGB loop leave the page unflushed
kill_sim bystander_without_loop invlpgb invlpgb_range \
    "invlpgb_range: bystander windows measured without the initiator's INVLPGB loop"
# no stale read anywhere: only the exact shape sees these (findings 2 to 5 of issue 15)
kill_shape verify_first_page_only "targets verify only the first page: fewer verification reads"
kill_shape lazy_ipi_anyway "lazy CPUs interrupted anyway: more verification reads"
kill_shape crossover_off_by_one "flush_ceiling: p* one page count early"
kill_shape lazy_cpus_spin "shootdown_lazy: lazy CPUs spin instead of idling: lazy_idled 0"
# PCID kept on an Alder Lake whose microcode predates the INVLPG/global fix: the CPU's
# erratum turns the tool's own choice into stale reads of global pages
kill_sim pcid_kept_on_affected kernel shootdown_seq_vs_conc \
    "PCID on although the microcode has the INVLPG/global erratum"
check "mutant pcid_kept_on_affected: tlbscope-report validate names the contradiction" \
    eval '"$TOOL" validate "$REPORT" 2>&1 | grep -q "method.pcid_enabled: true on a CPU with erratum invlpg_global_pcid"'
# 4-level tables under a firmware running with CR4.LA57: the 5-level walk finds nothing
mutants=$((mutants + 1))
sim "mutant-la57_four_levels" "$MUT/la57_four_levels/tlbscope-sim" "${BASE[@]}" ${killer_args[la57]}
if failed_with_stale shootdown_seq_vs_conc &&
    jqr '.run.errors[].message' | grep -q '^CPU [0-9]*: #PF: read of 0x7e' &&
    "$TOOL" validate "$REPORT" 2>&1 | grep -q "simulation.la57: true .* method.paging_levels is 4"; then
    killed=$((killed + 1)); dead[la57_four_levels]=1
    ok "mutant la57_four_levels (4-level tables under CR4.LA57): FAILURE, the model's #PF named, validate names paging_levels 4"
else
    not_ok "mutant la57_four_levels: not caught (exit $RC; see $LOG)"
fi
# a recommendation citing a point that does not exist: tlbscope-report validate refuses it
mutants=$((mutants + 1))
sim "mutant-evidence_nowhere" "$MUT/evidence_nowhere/tlbscope-sim" "${QEMU_LIKE[@]}"
if [ "$RC" = 0 ] && [ -s "$REPORT" ] && ! validates &&
    "$TOOL" validate "$REPORT" 2>&1 | grep -q "recommendations.entries\[0\].evidence.points: .*does not point at a result of flush_ceiling"; then
    killed=$((killed + 1)); dead[evidence_nowhere]=1
    ok "mutant evidence_nowhere (evidence past the last point): tlbscope-report validate names it"
else
    not_ok "mutant evidence_nowhere: the report validated (exit $RC; see $LOG)"
fi
kill_shape grid_truncated "seq/conc only targets=1, lazy only lazy=0"
kill_shape invlpgb_as_ipi "invlpgb points ran the IPI path: no emulated INVLPGB"
kill_shape invlpgb_chunked_main "INVLPGB's Linux path chunked above the ceiling: 8 and 64 emulated INVLPGBs, not one"
kill_shape blind_aps "the verifier blind on every AP: the control stale on the BSP alone"
# the strict model's holes (issue 22): a remap after the initiator's last flush is stale
# only if the model can fill between the two (fills after an instruction and at PTE stores)
kill_sim remap_after_flush seq_conc shootdown_seq_vs_conc \
    "the initiator remaps after its own flush (sequential order)"
kill_sim remap_after_flush ceiling flush_ceiling \
    "the initiator remaps after its own full flush (flush_ceiling, local)"
# a lazy CPU left out when page tables are freed keeps a walk into the freed table
kill_unit freed_tables_skips_lazy test_no_cpu_keeps_a_walk_into_the_freed_table \
    "freed_tables: lazy CPUs skipped all the same" test_lazy_model
kill_sim freed_tables_skips_lazy lazy shootdown_lazy "freed_tables: lazy CPUs skipped all the same"
# a stale 4 KiB part of a splintered 2 MiB page, invisible to a read of part 0
kill_unit verify_2m_first_word test_2m_pages_are_verified_in_every_part \
    "a 2 MiB page verified by its first word only"
# issue 20: percentiles only from enough samples; each iteration's variant order drawn anew
kill_shape percentile_from_few "p90/p99 written from 10 samples (the maximum)"
kill_shape order_fixed "seq before conc (INVLPG before full flush, INVLPGB before IPI) in every iteration"
# concurrent initiators (issue 12)
kill_unit shared_request_slot test_initiators_to_all_others_never_read_stale \
    "concurrent initiators share one request slot per target" test_contention_model
# issue 20: no check inside any initiator's timed window (by the order of reads and events)
kill_unit contention_verify_in_window test_no_check_inside_any_window \
    "a target reads a concurrent shootdown's pages right after acking it" test_contention_model
kill_unit contention_check_in_invlpgb_window test_invlpgb_checks_after_every_window \
    "INVLPGB initiators check before the others' windows close" test_contention_model
# the time box of shootdown_contention ignored: 1 s for the run, and the whole grid is measured
# (its 56 points; the placement columns of issue 21 come beside it)
mutants=$((mutants + 1))
sim "mutant-contention_unboxed" "$MUT/contention_unboxed/tlbscope-sim" --cpu epyc-7763 --cpus 8 \
    --seed 5 run_budget_s=1 samples=20000 experiments=shootdown_contention
if [ "$RC" = 0 ] && [ "$(exp_field shootdown_contention '[.notes[] | select(startswith("time box: "))] | length')" = 0 ] &&
    [ "$(exp_field shootdown_contention '[.results[] | select(.params.placement == null)] | length')" = 56 ]; then
    killed=$((killed + 1)); dead[contention_unboxed]=1
    ok "mutant contention_unboxed (the time box ignored): the whole grid, no time-box note (tests/sim/plan.sh fails on it)"
else
    not_ok "mutant contention_unboxed: the run was boxed or failed (exit $RC; see $LOG)"
fi
# a hung CPU waited on again: the run still names it (partial), but ipi_roundtrip takes
# 6 timeouts or more, past hang_cost_bounded's 5 (tests/sim/plan.sh passes it)
mutants=$((mutants + 1))
sim "mutant-hang_waited_again" "$MUT/hang_waited_again/tlbscope-sim" "${HANG_VM[@]}"
if [ -s "$REPORT" ] && [ "$(jqr '.topology.cpus[2].state')" = hung ] && ! hang_cost_bounded; then
    killed=$((killed + 1)); dead[hang_waited_again]=1
    ok "mutant hang_waited_again (a hung target's spinner stopped before it is named): ipi_roundtrip $(exp_field ipi_roundtrip .duration_ms) ms, over 5 timeouts"
else
    not_ok "mutant hang_waited_again: CPU 2 not hung, or within the bound (exit $RC; see $LOG)"
fi
# issue 32. kill_check MUTANT WHAT PREDICATE ARGS...: the mutant's run (tlbscope-sim ARGS) is
# clean, but PREDICATE (tests/sim/lib.sh), which the correct build passes on the same run
# (tests/sim/plan_cuts.sh, the ceiling control above), fails on it.
# KILL_TRIES=3 for a predicate on timings of the time-sliced model (its CPUs share the host's
# cores): on a loaded host the mutant's own noise can, once in a while, look like the effect
# the predicate asks for. Up to that many runs, each with its own seed (SEED, SEED+1, ...);
# killed when one of them fails the predicate (the control runs the correct build once, and
# must pass).
kill_check() {
    local m=$1 what=$2 pred=$3 tries=${KILL_TRIES:-1} try
    shift 3
    mutants=$((mutants + 1))
    for ((try = 1; try <= tries; try++)); do
        if [ "$tries" = 1 ]; then
            sim "mutant-$m" "$MUT/$m/tlbscope-sim" "$@"
        else
            sim "mutant-$m" "$MUT/$m/tlbscope-sim" "$@" --seed $((SEED + try - 1))
        fi
        if clean && ! "$pred"; then
            killed=$((killed + 1)); dead[$m]=1
            ok "mutant $m ($what): $pred fails$([ "$tries" = 1 ] || echo " (run $try of at most $tries)")"
            return
        fi
    done
    not_ok "mutant $m ($what): $pred passes$([ "$tries" = 1 ] || echo " in $tries runs"), or a run was not clean (exit $RC; see $LOG)"
}
kill_check lazy_hlt_over_mwait "shootdown_lazy's lazy CPUs left in HLT though ipi_target_state verified C6" \
    lazy_in_deepest_mwait "${IDLE_LAZY_ARGS[@]}"
# shellcheck disable=SC2086
kill_check fc_warmup_unfloored "flush_ceiling: a twentieth of warmup=1, no warm-up at all" \
    fc_quick_shape "${BASE[@]}" ${killer_args[ceiling]}
# shellcheck disable=SC2086
KILL_TRIES=3 kill_check fc_initiator_no_refill "flush_ceiling: the initiator's own refill left out" \
    fc_initiator_refills "${BASE[@]}" ${killer_args[ceiling]}
kill_check plan_drops_linux_flush "seq/conc's plan keeps INVPCID's variant above the ceiling, not Linux's CR3 write" \
    sc_keeps_linux_flush --cpu epyc-7763 --cpus 4 --seed "$SEED" --tlb 4096x16 run_budget_s=1 \
    experiments=shootdown_seq_vs_conc
kill_check fc_refine_off "flush_ceiling: nothing measured around a coarse crossing" \
    fc_refined --cpu epyc-7763 --cpus 4 --seed "$SEED" run_budget_s=3 experiments=flush_ceiling
# invlpgb_range's busy_ws IPI point: target_lost is every target's loss summed (control: amd.sh)
kill_check target_lost_first_only "invlpgb_range: target_lost of one IPI target, not all of them" \
    ib_target_lost_summed "${BASE[@]}" --cpu epyc-7763 experiments=invlpgb_range
# invlpgb_vs_ipi reads the nearest-first sweep, and says so
control_unit rec_cpus_from_spread test_crossover "the crossover and recommendation test"
kill_unit rec_cpus_from_spread test_recommend_invlpgb_reads_nearest_first \
    "invlpgb_vs_ipi: cpus_from read from spread's points, labelled nearest_first" test_crossover
# aarch64's pacing (core/exp/arm64/a64_pace.h): every point at the floor, the share unused
control_unit plan_pace_floor_only test_plan "the planning test"
kill_unit plan_pace_floor_only test_paced_points_use_their_share \
    "aarch64 pacing: every point at the floor, whatever the share" test_plan
control_unit plan_one_column test_plan "the planning test"
kill_unit plan_one_column test_thinning_keeps_the_ceiling_dense \
    "the last resort one page count, where no crossover can be found" test_plan
control_unit crossover_span_confidence test_ceiling "issue 32's flush-ceiling test"
kill_unit crossover_span_confidence test_a_coarse_grid_is_not_confident \
    "p*'s confidence from the measured counts its interval spans" test_ceiling
kill_unit rec_ceiling_point test_ceiling_range_where_the_grid_is_coarse \
    "the ceiling one number though nothing was measured between it and p*" test_ceiling
kill_unit breakdown_slowest_handler test_the_last_acknowledger_handler_is_subtracted \
    "seq/conc's delivery+ack subtracts the slowest handler, not the last acknowledger's"
# kill_validate MUTANT WHAT PATTERN: the mutant's QEMU-shaped run ends normally, without a
# stale read, but tlbscope-report validate rejects its report with PATTERN (and so does the
# exact shape, whose precondition, a valid report, it then fails)
kill_validate() {
    local m=$1 what=$2 pattern=$3 msgs
    mutants=$((mutants + 1))
    sim "mutant-$m" "$MUT/$m/tlbscope-sim" "${QEMU_LIKE[@]}"
    msgs=$("$TOOL" validate "$REPORT" 2>&1)
    if [ "$RC" = 0 ] && [ "$(stale_total)" = 0 ] && grep -q -- "$pattern" <<<"$msgs"; then
        killed=$((killed + 1)); dead[$m]=1
        ok "mutant $m ($what): validate rejects it: $(grep -m1 -- "$pattern" <<<"$msgs" | sed 's/^.*json: //')"
    else
        not_ok "mutant $m ($what): validate did not reject it (exit $RC; see $LOG)"
    fi
}
kill_validate conditions_unrecorded "no experiment records its conditions" \
    'conditions: is null, but the experiment measured'
kill_validate class_mix_lazy_awake_only "shootdown_lazy's class mix leaves out the lazy CPUs" \
    'class_mix: its classes count [0-9]* CPUs, but the point has'
# emulator=bochs not recorded: a Bochs report (no hypervisor bit) would read as hardware everywhere
control_unit emulator_unrecorded test_emulator "the emulator-label test" 2
kill_unit emulator_unrecorded test_report_records_the_emulator \
    "run.config.emulator written none under emulator=bochs: the report reads as hardware" test_emulator
# issue 23: the run's verdict, the line a technician reads (core/run/verdict.h)
control_unit verdict_line_drops_na test_verdict "the verdict test" 6
for m in verdict_inconclusive_as_na verdict_error_complete; do
    [ -x "$MUT/$m/test_verdict" ] ||
        make --no-print-directory -C "$here" "build/mutants/$m/test_verdict" >>"$here/build/test-runs/mutants-build.log" 2>&1
done
kill_unit verdict_inconclusive_as_na test_skip_after_measuring_is_inconclusive \
    "a blind verifier's SKIP counted as not applicable: the run reads as fully usable" test_verdict
kill_unit verdict_error_complete test_error_is_not_complete \
    "an ERROR run (a CPU hung) called COMPLETE" test_verdict
kill_unit verdict_line_drops_na test_not_applicable_is_complete \
    "the verdict line leaves out what did not apply" test_verdict
# issue 25: the INIT-SIPI trampoline's absolute fields, and the CPUs the own bring-up starts
control_unit tramp_far_jump_off test_trampoline "the trampoline layout test" 5
control_unit tramp_cr3_truncated test_trampoline "the trampoline layout test" 5
kill_unit tramp_far_jump_off test_far_jump_reaches_the_64bit_code \
    "the trampoline's far jump targets an offset, not the 64-bit code's address" test_trampoline
kill_unit tramp_cr3_truncated test_root_above_4g_is_refused \
    "a page-table root above 4 GiB truncated by the 32-bit CR3 load" test_trampoline
control_unit madt_takes_disabled test_own_bringup "the own bring-up test" 5
control_unit reopen_checked_in test_own_bringup "the own bring-up test" 5
control_unit init_sipi_back_to_shell test_own_bringup "the own bring-up test" 5
kill_unit madt_takes_disabled test_only_enabled_entries_are_started \
    "disabled MADT entries started by the own bring-up" test_own_bringup
kill_unit reopen_checked_in test_only_absent_aps_are_started_again \
    "a CPU that checked in through MP services and hung is sent INIT-SIPI" test_own_bringup
kill_unit init_sipi_back_to_shell test_init_sipi_runs_never_return_to_the_shell \
    "a run with CPUs started by INIT-SIPI returns to the firmware shell" test_own_bringup
# upload=URL (issue 24): the retry policy and the redaction of the network addresses
control_unit upload_retry_client_errors test_upload "the upload test" 10
kill_unit upload_retry_client_errors test_only_transient_answers_are_retried \
    "a 4xx answer retried like a 503" test_upload
kill_unit upload_backoff_flat test_backoff_doubles_up_to_its_cap \
    "the wait between attempts never grows" test_upload
kill_unit upload_past_deadline test_no_attempt_past_the_deadline \
    "attempts go on past the overall deadline" test_upload
kill_unit upload_name_per_attempt test_every_attempt_writes_one_name \
    "each retry writes another name: a second copy on the server" test_upload
kill_unit network_unredacted test_network_addresses_redacted \
    "redact=on leaves the MAC, IP and boot URL in the report" test_upload
kill_unit conflict_taken_as_done test_a_taken_name_is_read_back \
    "upload: a 409 (the collector holds the name) counted as done, unread" test_upload
# issue 35: hostile input, the upload window, the stick's files
control_unit http_length_lenient test_http_length "the Content-Length test" 4
kill_unit http_length_lenient test_empty_or_signed_is_invalid \
    "Content-Length: an empty or negative value read as 0" test_http_length
kill_unit http_length_lenient test_one_header_only \
    "Content-Length: repeated headers add up" test_http_length
control_unit secret_line_echoed test_config_secret "the mistyped-key test" 4
kill_unit secret_line_echoed test_every_form_in_the_file \
    "a mistyped redact_key's line quoted in the warnings" test_config_secret
kill_unit secret_line_echoed test_every_form_on_the_command_line \
    "a mistyped redact_key's value left in run.args" test_config_secret
kill_unit secret_key_kept test_every_form_in_the_file \
    "a key with a blank: its first part used as the key" test_config_secret
control_unit pin_mismatch_used test_config_pin "the config_sha256 test" 3
kill_unit pin_mismatch_used test_pinned_file_used_only_when_it_matches \
    "config_sha256=: a boot server's file that differs is used all the same" test_config_pin
control_unit free_text_unredacted test_redact_text "the free-text redaction test" 3
kill_unit free_text_unredacted test_free_text_gets_the_tokens \
    "redact=on: warnings, notes and run.args quote the boot server and collector" test_redact_text
control_unit report_written_in_place test_stick_files "the stick-file test" 4
kill_unit report_written_in_place test_power_loss_never_truncates_a_report \
    "a report written under its final name: a power loss leaves it truncated" test_stick_files
# the aarch64 protocols on the strict aarch64 model (issue 27): a broadcast without its
# DSB ISH, or with TLBI VAE1 for VAE1IS, leaves the old entries on the other CPUs
control_unit arm_dsb_missing test_arm64_model "the aarch64 model test" 43
kill_unit arm_dsb_missing test_broadcast_has_no_stale_reads \
    "aarch64: the broadcast initiator skips its DSB ISH" test_arm64_model
kill_unit arm_local_not_broadcast test_broadcast_has_no_stale_reads \
    "aarch64: the broadcast method issues TLBI VAE1, not VAE1IS" test_arm64_model
# the TLBI operand encodings of asm/tlbi.h, decoded by the model as hardware does
kill_unit arm_range_num_off_by_one test_range_flush_covers_exactly_its_pages \
    "aarch64: RVAE1IS's NUM one more than the range (the page after it dropped)" test_arm64_model
kill_unit arm_asid_bit32 test_asid_flush_keeps_other_asids_entries \
    "aarch64: the TLBI operand's ASID at bit 32, not [63:48]" test_arm64_model
kill_unit arm_vae1_not_is test_broadcast_flush_reaches_every_cpu \
    "aarch64: tlbi_va_is issues the local TLBI VAE1" test_arm64_model
# flush_ceiling's full flushes: VMALLE1IS without its DSB ISH leaves the other CPUs' entries,
# an ASIDE1IS of ASID 0 the current ASID's
kill_unit arm_flush_all_dsb_missing test_full_has_no_stale_reads \
    "aarch64: tlbi_flush_all's VMALLE1IS without its DSB ISH" test_arm64_model
kill_unit arm_asid_flush_wrong_asid test_asid_flush_keeps_other_asids_entries \
    "aarch64: tlbi_flush_asid invalidates ASID 0, not the caller's" test_arm64_model
# Linux's unmap sequence (linux_tlbi.c): the repeat-TLBI dummy left out on a CPU of the list;
# the leaf TLBI's TTL naming level 2, so the level-3 entries may stay
kill_unit arm_repeat_tlbi_skipped test_linux_repeat_tlbi_by_midr \
    "aarch64: Linux's TLBI VALE1IS, XZR + DSB ISH left out on Neoverse N1/V1/V2" test_arm64_model
kill_unit arm_linux_ttl_wrong_level test_linux_flush_paths \
    "aarch64: Linux's VALE1IS with the TTL hint of level 2, not 3" test_arm64_model
# pti_double_invalidation (KPTI): the second TLBI of a page names the kernel ASID again, so
# the user ASID's entries stay; ID_AA64MMFR2_EL1.E0PD read from the wrong field
kill_unit arm_user_tlbi_kernel_asid test_kpti_flush_drops_both_asids \
    "aarch64: KPTI's second TLBI names the kernel ASID, not ASID | 1" test_arm64_model
kill_unit arm_e0pd_wrong_field test_e0pd_decoded_from_mmfr2 \
    "aarch64: E0PD read from ID_AA64MMFR2_EL1 [3:0] (CnP), not [63:60]" test_arm64_model

# tlbscope-sim --arch aarch64 (sim/arm64/app.c): tests/sim/arm64_app.sh on one profile, first
# with the correct driver (every check passes), then with the mutant's (some check fails)
# The control (the correct driver on the profile) runs once per profile, not once per mutant:
# it is the same binary, profile and seed each time, and its run costs as much as a mutant's.
declare -A a64_control=()
kill_a64sim() { # MUTANT PROFILE WHAT
    local m=$1 p=$2 what=$3 out
    mutants=$((mutants + 1))
    if [ -z "${a64_control[$p]:-}" ]; then
        out=$(A64_PROFILES=$p bash tests/sim/arm64_app.sh 2>&1)
        if grep -q '^not ok' <<<"$out"; then a64_control[$p]=fails; else a64_control[$p]=passes; fi
    fi
    if [ "${a64_control[$p]}" = fails ]; then
        not_ok "control: tests/sim/arm64_app.sh passes on $p with the correct driver (mutant $m not judged)"
        return
    fi
    out=$(TLBSCOPE_STOP_AT_FAIL=1 A64SIM=$MUT/$m/tlbscope-sim-a64 A64_PROFILES=$p bash tests/sim/arm64_app.sh 2>&1)
    if grep -q '^not ok' <<<"$out"; then
        killed=$((killed + 1)); dead[$m]=1
        ok "mutant $m ($what): $(grep -m1 '^not ok' <<<"$out" | sed 's/^not ok [0-9]* - //')"
    else
        not_ok "mutant $m ($what): tests/sim/arm64_app.sh passes on $p"
    fi
}
kill_a64sim a64sim_profile_tlb_ignored cortex-a72 "the model's CPU has range TLBI whatever ISAR0.TLB says"
kill_a64sim a64sim_wfi_skips_handler neoverse-n1 "the model's WFI never takes the SGI through irq_handle"
# the app's IRQ handler (arch/arm64/irq.c), which the model's WFI enters (tests/qemu/aarch64.sh
# kills these under QEMU as well, with TLBSCOPE_TEST_FULL=1)
kill_a64sim arm_irq_ping_wrong_id neoverse-n1 "the IRQ handler counts SGI_CMD as the ping"
kill_a64sim arm_irq_no_eoi neoverse-n1 "the IRQ handler never ends the SGI"
# pti_double_invalidation verifies kpti's samples under the kernel ASID only: the user ASID's
# entries, the point of the second TLBI, go unread (the exact count of reads fails)
kill_a64sim a64_kpti_user_unverified neoverse-n1 "pti_double_invalidation verifies under the kernel ASID only"
# ipi_roundtrip's pairs (core/run/topo_arm64.c): the BSP initiating alone, as before
kill_a64sim a64_pairs_bsp_only neoverse-n1 "ipi_roundtrip's pairs: only the BSP initiates"
# the hand-back: secondaries that never call CPU_OFF (PSCI still has them ON: the second
# run's CPU_ON is refused); CPU_ON called without the PSCI version and features checked (a
# PSCI 0.1 taken as one that can start CPUs; tests/sim/arm64_app.sh's --psci runs fail it too)
kill_a64sim a64_cpu_off_skipped neoverse-n1 "the secondaries never call PSCI CPU_OFF at the end"
# the secondaries' TCR (asm/secondary_tcr.h): the BSP's handed on with EPD1 clear, so a
# secondary walks TTBR1's tables (QEMU's AAVMF sets EPD1 itself: only this test sees it)
control_unit a64_secondary_ttbr1_walks test_secondary_tcr_arm64 "the secondaries' TCR test" 2
kill_unit a64_secondary_ttbr1_walks test_el1_secondaries_never_walk_ttbr1 \
    "the secondaries get the BSP's TCR with EPD1 clear (they walk TTBR1)" test_secondary_tcr_arm64
# tlbi_concurrent past 64 CPUs (concurrent_plan.h): 8 pages per initiator whatever the CPU
# count, so 128 initiators remap past the test region's one level-3 table (the model stops at
# 64 CPUs: only this test reaches Altra's and Grace's counts)
control_unit a64_concurrent_pages_unbounded test_concurrent_plan_arm64 "tlbi_concurrent's plan test" 1
kill_unit a64_concurrent_pages_unbounded test_every_point_fits_the_region \
    "tlbi_concurrent: 8 pages per initiator past 64 CPUs (beyond the test region)" test_concurrent_plan_arm64
control_unit psci_features_unchecked test_psci_arm64 "the PSCI check test" 5
kill_unit psci_features_unchecked test_psci_0_1_refused \
    "CPU_ON without PSCI_VERSION >= 0.2 and PSCI_FEATURES checked" test_psci_arm64
# break-before-make (core/exp/arm64/a64_exp.c): a remap's new descriptor written over the live
# one, and the nG flip written over live descriptors, are the strict model's errors (run.errors)
kill_a64sim a64_remap_without_break neoverse-n1 "region_remap writes the new descriptor over the live one"
kill_a64sim a64_ng_flip_without_break neoverse-n1 "region_set_ng flips nG on live descriptors"
# the make before the break's TLBIs complete: the TLBIs after it clear the entries (no stale
# read), but the model refuses the make while CPUs still hold the old entry
kill_a64sim a64_make_before_tlbi neoverse-n1 "region_remap stores the new descriptors before the timed TLBIs"
# the verifier (core/exp/arm64/a64_verify.c): a read of neither frame counted as a stale read
control_unit a64_conflict_as_stale test_a64_verify "the aarch64 verifier's reading test" 3
kill_unit a64_conflict_as_stale test_a_read_of_neither_frame_is_a_conflict \
    "the aarch64 verifier counts a read of neither frame as a stale read" test_a64_verify
# the MPIDR classes and the sampling of pairs, on the shapes machines report
control_unit a64_mpidr_mt_ignored test_topo_arm64 "the aarch64 topology-class test" 9
kill_unit a64_mpidr_mt_ignored test_altra_pairs_and_sockets \
    "aarch64 classes read as MPIDR_EL1.MT = 0: an Altra pair splits into two clusters" test_topo_arm64
kill_unit a64_srat_nodes_ignored test_srat_nodes_split_a_package \
    "aarch64 classes without the SRAT's nodes: Altra's quadrants read as one package" test_topo_arm64
kill_unit a64_pairs_sampled_in_order test_sample_gives_each_class_its_share \
    "ipi_roundtrip over its pair limit: the first pairs taken, the far classes none" test_topo_arm64
# the text summary's experiment table (core/report/summary_text.c), which both architectures
# print: tests/sim/arm64_app.sh wants a row per experiment of the JSON, shootdown_lazy's SKIP too
kill_a64sim table_skips_skip_rows neoverse-n1 "the summary's experiment table leaves SKIP experiments out"
# the tool's SGIs on Arm servers (asm/gic.h, arch/arm64/gic_sgi.c): SGI_PING back at 9, which
# the model's secure firmware keeps (its GIC ignores the setup and refuses the SGI), and the
# readback that names a write that did not stick skipped (--gic-secure-sgis 0xff03: every
# secondary then recorded as having dropped out instead of one GIC error)
kill_a64sim arm_sgi_ping_secure neoverse-n1 "SGI_PING = 9, in the secure firmware's SGIs 8-15"
kill_a64sim arm_sgi_readback_ignored neoverse-n1 "gic_cpu_init takes a write to its SGIs that did not stick"
# the order of the experiments' stores and TLBIs, and the ASID of their by-VA TLBIs: a TLBI
# takes effect anywhere from its issue to its DSB, so one issued before its stores are visible
# lets walks refill the old descriptors; a by-VA TLBI of ASID 0 leaves the kernel ASID's nG
# entries (the model's CPUs translate under 0x2a)
kill_a64sim a64_remap_no_dsb_ishst neoverse-n1 "the break's invalid descriptors without their DSB ISHST before the TLBIs"
kill_a64sim a64_tlbi_before_store neoverse-n1 "region_remap issues the TLBIs before the break's stores"
kill_a64sim a64_kpti_asid_zero neoverse-n1 "pti_double_invalidation's by-VA TLBIs name ASID 0, not the kernel's"
# cpu.features from the ID registers (arch/arm64/cpu.c): BBM read from TTL's bits, so V1's
# documented level 2 comes out 0 (the profile's expected features, and validate's decoding)
kill_a64sim arm_bbm_wrong_field neoverse-v1 "cpu.features.bbm read from ID_AA64MMFR2_EL1 [51:48] (TTL)"
# tlbi_broadcast_vs_ipi at a coarse counter (core/exp/arm64/a64_reps.c): a sample of R flushes
# reported as one flush's latency, R times too long against mean_per_op
kill_a64sim a64_reps_not_divided neoverse-v2 "a sample of R back-to-back flushes keeps the total, not total / R"
# R per sample for flush_ceiling and the Linux methods at the coarse counter: a window that
# times one flush and still divides by R (its latency R times too short); the model's count of
# full_asid's TLBI ASIDE1IS, and of the repeat-TLBI dummies Linux's sequence ends with, falls
# short of R x samples (tests/sim/arm64_app.sh)
kill_a64sim fc_reps_one_timed neoverse-n1 "flush_ceiling times one flush a sample, divided by R"
kill_a64sim a64_linux_reps_one_timed neoverse-n1 "broadcast_linux, its busy form and batch_linux time one flush a sample, divided by R"
# tlbi_broadcast_vs_ipi's stage2_kvm at EL2 (core/exp/arm64/stage2_tlbi.c): the model refuses
# VMALLE1IS before a DSB ISH completed the IPAS2E1ISs, a sequence without VMALLE1IS (combined
# stage 1+2 entries stay), and stage-2 TLBIs under VMID 0 (arm64_app.sh's EL2 run: no run error)
kill_a64sim a64_s2_no_dsb_before_vmall neoverse-v2 "stage2_kvm: no DSB ISH between the IPAS2E1ISs and VMALLE1IS"
kill_a64sim a64_s2_vmall_dropped neoverse-v2 "stage2_kvm: VMALLE1IS left out after the IPAS2E1ISs"
kill_a64sim a64_s2_vmid_unloaded neoverse-v2 "stage2_kvm: VTTBR_EL2 loaded without the tool's VMID"
# a server's MADT with the BSP late (core/run/bringup_arm64.c): the CPUs listed before it keep
# their MADT place as slot, slot 0 is overwritten, one slot never filled (its CPU_ON refused)
kill_a64sim a64_bsp_late_slot neoverse-n1 "a CPU the MADT lists before the BSP keeps its MADT place as slot"
# SGIs to Aff0 above 15 (--aff0-cores 32 on the model): the range selector check skipped, so
# SGIs go out with an RS the GIC cannot take and are lost (the model refuses them, the CPUs
# named hung); ICC_CTLR_EL1.RSS ignored (the gicd-only run: the same); the IPI experiments
# targeting the CPUs the check named unreachable
kill_a64sim a64_rss_unchecked neoverse-n1 "SGIs to Aff0 > 15 without the range selector: the check skipped"
kill_a64sim a64_rss_icc_ignored neoverse-n1 "the range selector check ignores ICC_CTLR_EL1.RSS"
kill_a64sim a64_sgi_unreachable_targeted neoverse-n1 "the IPI experiments target CPUs SGIs do not reach"
# the redistributor search over every MADT GICR range (arch/arm64/gic_redist.c)
control_unit a64_gicr_first_range_only test_gic_redist "the GICv3 redistributor test" 5
kill_unit a64_gicr_first_range_only test_every_range_searched \
    "the redistributor search stops at the first GICR range: socket 1's CPUs have none" test_gic_redist

# tlbscope-report's mutants (issue 23): kill_tool MUTANT WHAT CHECK: CHECK (a function of
# the tool binary) passes with build/tlbscope-report and fails with the mutant's. Sides are
# named A, B, C (NAME=FILE) where a check reads them by letter.
kill_tool() {
    local m=$1 what=$2 fn=$3
    mutants=$((mutants + 1))
    if ! "$fn" "$TOOL"; then
        not_ok "control: $fn passes with the correct tlbscope-report"
    elif "$fn" "$MUT/$m/tlbscope-report"; then
        not_ok "mutant $m ($what): $fn still passes"
    else
        killed=$((killed + 1)); dead[$m]=1
        ok "mutant $m ($what): $fn fails"
    fi
}
S1=tests/fixtures/reports/schema1/qemu-tcg-smp1-max.json S4=tests/fixtures/reports/schema1/qemu-tcg-smp4-max.json
S8=tests/fixtures/reports/schema1/qemu-tcg-smp8-max.json BOCHS2=tests/fixtures/reports/bochs/bochs-skylake-x-smp2.json
# a 1-CPU report first: ipi_broadcast's base is the next side, and its ratios exist
base_is_first_measured() {
    "$1" compare --json A="$S1" B="$S4" C="$S8" 2>/dev/null | jq -e '.experiments[] | select(.id ==
        "ipi_broadcast") | .base == "B" and ([.rows[].cells[] | select(.ratio != null)] | length) > 0' >/dev/null
}
# a schema-1 sample and a report with the flush parameter share their points, flush defaulted
older_points_align() {
    "$1" compare --json --experiment shootdown_seq_vs_conc A="$S4" B="$BOCHS2" 2>/dev/null | jq -e '
        .verdict.exit_status == 0 and (.experiments[0].rows | length) > 0 and
        .experiments[0].defaulted == [{"side": "A", "param": "flush",
            "taken_as": "invlpg up to the ceiling, above it method.full_flush"}]' >/dev/null
}
# a TSC rate that is known is never followed by "frequency unknown"
tsc_said_once() { ! "$1" show "$S4" | grep -q 'frequency unknown'; }
# A 4-CPU report against itself and an 8-CPU one: B's geometric mean over as many points as
# without the third side (its "all other CPUs" rows repeat value rows A and B share)
role_rows_counted_once() {
    local two three
    cp "$S4" "$here/build/test-runs/mutants-s4-copy.json"
    two=$("$1" compare --json --experiment ipi_broadcast A="$S4" B="$here/build/test-runs/mutants-s4-copy.json" 2>/dev/null |
        jq '.experiments[0].headlines[0].points')
    three=$("$1" compare --json --experiment ipi_broadcast A="$S4" B="$here/build/test-runs/mutants-s4-copy.json" C="$S8" 2>/dev/null |
        jq '.experiments[0].headlines[] | select(.side == "B") | .points')
    [ -n "$two" ] && [ "$two" = "$three" ]
}
kill_tool base_always_first "compare: the base stays side A where A has no point" base_is_first_measured
kill_tool no_param_defaults "compare: no defaults for parameters older reports lack" older_points_align
kill_tool show_tsc_else "show: 'TSC frequency unknown' after a known rate" tsc_said_once
kill_tool role_rows_doubled "compare: role rows repeating value rows count twice" role_rows_counted_once
# issue 31: a parameter naming a CPU is a role. A fresh 4-CPU report against a copy whose
# ipi_target_state target is CPU 2, not 1: the states still meet (ratio 1), never "nothing"
ROLE_DIR=$here/build/test-runs/mutants-roles
target_is_a_role() {
    local a b
    if [ ! -s "$ROLE_DIR/a.json" ]; then
        rm -rf "$ROLE_DIR" && mkdir -p "$ROLE_DIR"
        "$SIM" --cpu epyc-7763 --cpus 4 --seed 31 --out "$ROLE_DIR/run" profile=quick samples=10 \
            warmup=1 run_budget_s=0 >"$ROLE_DIR/sim.log" 2>&1
        a=$(sed -n 's/^Report saved: //p' "$ROLE_DIR/sim.log" | head -n1)
        cp "$a" "$ROLE_DIR/a.json" 2>/dev/null || return 1
        jq '(.experiments[] | select(.id == "ipi_target_state") | .results[].params.target) |= . + 1' \
            "$ROLE_DIR/a.json" >"$ROLE_DIR/b.json"
    fi
    "$1" compare --json --experiment ipi_target_state "$ROLE_DIR/a.json" "$ROLE_DIR/b.json" \
        2>/dev/null | jq -e '[.experiments[0].rows[].cells[] | select(.ratio != null)] | length >= 5' >/dev/null
}
# a gate never passes on nothing: two reports sharing no experiment, --fail-if-slower: exit 4
gate_fails_on_nothing() {
    mkdir -p "$ROLE_DIR"
    jq '.experiments |= map(select(.id == "ipi_broadcast"))' "$S4" >"$ROLE_DIR/bcast.json"
    jq '.experiments |= map(select(.id == "ipi_roundtrip"))' "$S4" >"$ROLE_DIR/rtrip.json"
    "$1" compare --fail-if-slower 10 "$ROLE_DIR/bcast.json" "$ROLE_DIR/rtrip.json" >/dev/null 2>&1
    [ $? = 4 ]
}
# show of a report that fails validation: exit 1, nothing shown
invalid_report_refused() {
    local out
    out=$("$1" show "$here/tests/fixtures/reports/broken/p50-below-min.json" 2>/dev/null)
    [ $? = 1 ] && [ -z "$out" ]
}
kill_tool cpu_role_by_number "compare: ipi_target_state's target matched by CPU number" target_is_a_role
kill_tool gate_passes_on_nothing "compare --fail-if-slower passes with nothing compared" \
    gate_fails_on_nothing
kill_tool invalid_report_shown "show goes on with a report that fails validation" \
    invalid_report_refused
# a ratio of 1.02 with tight intervals (p50 +-0.1%) is inside the 3% dead band: no difference
band_holds() {
    local v3=$here/tests/fixtures/reports/v3/sim-epyc7763-smp4-keep-samples.json
    mkdir -p "$ROLE_DIR"
    python3 "$here/tests/checks/scale_report.py" "$v3" 1.00 "$ROLE_DIR/band-a.json" 0.001
    python3 "$here/tests/checks/scale_report.py" "$v3" 1.02 "$ROLE_DIR/band-b.json" 0.001
    "$1" compare --json A="$ROLE_DIR/band-a.json" B="$ROLE_DIR/band-b.json" 2>/dev/null | jq -e '
        [.experiments[].rows[].cells[] | select(.side == "B") | .verdict] | length > 0 and
        all(. == "no difference")' >/dev/null
}
kill_tool verdict_without_band "compare: a verdict ignores the dead band" band_holds
# compare never cuts a value: 2 to 8 samples, text, --wide and Markdown, every value whole
# and no "..." (tests/checks/compare_whole_values.sh)
values_whole() { TOOL=$1 bash "$here/tests/checks/compare_whole_values.sh" | grep -q '^ok 1 '; }
kill_tool compare_value_cut "compare: the long layout cuts a parameter value" values_whole
# issue 27: x86 against aarch64 compares only ipi_roundtrip and stale_detector_control; the
# rest (shootdown_lazy, which both have, included) is listed per side
ARM4=tests/fixtures/reports/arm64/qemu-aarch64-smp4.json
arch_lists_unshared() {
    "$1" compare --json A="$S4" B="$ARM4" 2>/dev/null | jq -e '
        .architectures.compared == ["ipi_roundtrip", "stale_detector_control"] and
        (.architectures.only_in.A | index("shootdown_lazy")) != null and
        (.architectures.only_in.B | index("shootdown_lazy")) != null' >/dev/null
}
kill_tool arch_unshared_compared "compare: x86 and aarch64 experiments paired by id alone" \
    arch_lists_unshared
# x86 against aarch64 by question (reports/tool/compare/arch_questions.c): every cell is the
# point on Linux's path, in ns at its own side's rate, as computed from the reports
questions_from_reports() {
    python3 tests/checks/arch_questions.py rows "$1" reports/samples/qemu-tcg-smp4-max.json \
        "$ARM4" 2>/dev/null
}
kill_tool arch_question_filter_dropped "compare by question: a side takes any point, not Linux's path" \
    questions_from_reports
kill_tool arch_question_other_rate "compare by question: ticks turned to ns at another side's rate" \
    questions_from_reports
# aarch64 Secure Boot: the aarch64 firmware.secure_boot holds one of x86's words
arm_secure_boot_word_checked() {
    local f=$here/build/test-runs/mutants-arm-sb.json
    mkdir -p "$(dirname "$f")"
    jq '.firmware.secure_boot = "on"' "$ARM4" >"$f" && ! "$1" validate "$f" >/dev/null 2>&1 &&
        jq '.firmware.secure_boot = "enabled"' "$ARM4" >"$f" && "$1" validate "$f" >/dev/null 2>&1
}
kill_tool arm_secure_boot_unchecked "validate: an aarch64 firmware.secure_boot of any word passes" \
    arm_secure_boot_word_checked
# issue 35: a hostile database's unit on the atlas (tests/checks/markup_sweep.sh's database
# sweep), a formula in CSV and HTML in Markdown (tests/checks/tool_cli.sh: hostile_text.py)
atlas_escapes_the_database() {
    python3 tests/checks/markup_sweep.py --tool "$1" --work "$here/build/test-runs/mutants-sweep" \
        --only-db "$BOCHS2" >/dev/null 2>&1
}
csv_formulas_quoted() { python3 tests/checks/hostile_text.py csv "$1" "$here/build/test-runs/mutants-csv" >/dev/null; }
markdown_html_escaped() { python3 tests/checks/hostile_text.py markdown "$1" "$here/build/test-runs/mutants-md" >/dev/null; }
kill_tool atlas_unit_unescaped "atlas: a headline's unit from the database written unescaped" \
    atlas_escapes_the_database
kill_tool csv_formula_kept "CSV: a cell that starts with = written as it is" csv_formulas_quoted
kill_tool markdown_html_kept "compare --markdown: a report's <img> passed through" markdown_html_escaped
# issue 31, item 5: the html page of the issue's two CPUs opens with a headline per experiment,
# and its flush-ceiling curves are in ns as labelled (tests/checks/html_facts.py, also run by
# tests/checks/html_chromium.sh)
HTML_PAIR=("$here/reports/samples/sim/sim-epyc7763-smp8.json" "$here/reports/samples/sim/sim-xeon8180-smp8.json")
html_facts() { # TOOL FACT-PATTERN
    mkdir -p "$here/build/test-runs/mutants-html"
    "$1" html -o "$here/build/test-runs/mutants-html/page.html" "${HTML_PAIR[@]}" 2>/dev/null &&
        python3 "$here/tests/checks/html_facts.py" "$here/build/test-runs/mutants-html/page.html" \
            "${HTML_PAIR[0]}" | grep -- "$2" >/dev/null
}
html_headlines_first() { html_facts "$1" "^experiments 10 with_headline 10 headline_rows 10$"; }
html_ceiling_ns() { html_facts "$1" "^ceiling_ns points 8 matched 8 wrong 0$"; }
kill_tool html_headlines_dropped "html: no headline per experiment at the top" html_headlines_first
kill_tool html_ceiling_in_ticks "html: flush-ceiling curves in TSC ticks, labelled ns" html_ceiling_ns
# the pair's two heatmaps in their section's grid, each titled with its report's name (in
# Chromium: side by side, tests/checks/html_chromium.sh)
html_heatmaps_in_grid() { html_facts "$1" "^heatmaps 2 in_grid 2 titled 2$"; }
kill_tool html_heatmaps_in_column "html: heatmaps one a row, not in a grid" html_heatmaps_in_grid
# past 48 reports a column per CPU model: 60 copies of the 8 model samples, scaled round by
# round; ipi_broadcast's line of a model is its reports' median (tests/checks/html_pooled.py)
POOL_DIR=$here/build/test-runs/mutants-pooled
pooled_medians() {
    if [ ! -s "$POOL_DIR/r59.json" ]; then
        mkdir -p "$POOL_DIR"
        python3 "$here/tests/checks/html_pooled.py" make "$POOL_DIR" 60 "$here"/reports/samples/sim/sim-*.json
    fi
    "$1" html -o "$POOL_DIR/page.html" "$POOL_DIR"/r*.json 2>/dev/null &&
        python3 "$here/tests/checks/html_pooled.py" check "$POOL_DIR/page.html" "$POOL_DIR"/r*.json |
        grep -Eq '^median [1-9][0-9]* 0$'
}
kill_tool html_pool_first_report "html: a CPU model's pooled line is its first report's" pooled_medians

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
# forced on where the microcode claims the fix (the tool then runs with PCID): caught
catch_erratum invlpg_ignores_global kernel_fixed shootdown_seq_vs_conc
catch_erratum invlpgb_ignores_count invlpgb invlpgb_range
catch_erratum tlbsync_early invlpgb invlpgb_range
# The Alder Lake erratum needs CR4.PCIDE: on a CPU without PCID it changes nothing.
sim "erratum-invlpg-global-no-pcid" "$SIM" "${BASE[@]}" --erratum invlpg_ignores_global \
    --cpu epyc-7551p global_pages=on experiments=shootdown_seq_vs_conc
check "erratum invlpg_ignores_global without PCID (epyc-7551p): clean, as on that CPU" clean

alive=()
for m in $all_mutants; do [ -n "${dead[$m]:-}" ] || alive+=("$m"); done
check "every mutant of sim/sim.mk is killed by something${alive:+ (alive: ${alive[*]})}" test ${#alive[@]} = 0
echo "# SUMMARY: $(wc -w <<<"$all_mutants") mutants, ${#dead[@]} killed ($killed of $mutants killers succeeded); $errata erratum switches, $caught caught"
[ "$killed" = "$mutants" ] && [ "$caught" = "$errata" ] && [ ${#alive[@]} = 0 ]
