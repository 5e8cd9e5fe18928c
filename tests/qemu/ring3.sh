#!/usr/bin/env bash
# ipi_target_state's ring3_loop under QEMU TCG, SMP 2: the target's PAUSE loop
# runs at CPL 3 (user descriptors, a TSS with RSP0, U/S pages, a DPL 3 exit
# gate: arch/x86/ring3.c), so every ping pays the interrupt's privilege change.
# The evidence, not the figure: the handler records each ping's interrupted CS
# RPL from the trap frame, and every one must be 3. The point sits beside the
# ring-0 states in the report's shape (tests/qemu/shape.jq) and in the text
# summary (ring3_loop - pause). With TLBSCOPE_TEST_FULL=1, a build of mutant
# 178 (ring3_loop_at_cpl0: the loop at CPL 0, still labelled ring 3) must be
# caught by that evidence: the experiment ERROR, no ping at CPL 3.
source "$(dirname "$0")/lib.sh"

EXPS=ipi_target_state
SMP=2 ARGS="profile=quick run_budget_s=0 experiments=$EXPS" boot ring3-smp2
check_healthy_run "ring3" 2 profile=quick experiments=$EXPS
if [ -s "$REPORT" ]; then
    check "ring3: ring3_loop measured, labelled, every ping (12 with warm-up) interrupting CPL 3" \
        test "$(exp_field ipi_target_state '[.results[] | select(.params.state == "ring3_loop") | [.params.target_context, .values.interrupted_cpl3, .values.pings, (.metrics.roundtrip.n > 0)]] | tojson')" = '[["ring3_loop",12,12,true]]'
    check "ring3: the note says what the row pays and leaves out" \
        test "$(exp_field ipi_target_state '[.notes[] | select(startswith("ring3_loop: the pause loop at CPL 3") and test("no entry mitigation"))] | length')" = 1
    check "ring3: the text summary gives ring3_loop minus pause, with the CPL 3 evidence" \
        eval 'grep -aA1 "^  ring3_loop - pause (p50s): -\?[0-9]* ns, " "$LOG" | tr "\n" " " | grep -Eq "CPL +3 +at +12 +of +12 +pings"'
fi

if [ "${TLBSCOPE_TEST_FULL:-0}" = 1 ]; then
    # mutant 178 ring3_loop_at_cpl0: killed by the interrupted CS's RPL
    if nice make -s BUILD=build/x86-m178 X86_EXTRA_CFLAGS=-DTLBSCOPE_MUTANT=178 image >"$here/build/x86-m178.log" 2>&1; then
        IMAGE=$here/build/x86-m178/tlbscope.img SMP=2 ARGS="profile=quick run_budget_s=0 experiments=$EXPS" boot ring3-m178
        check "mutant ring3_loop_at_cpl0 killed: ipi_target_state ERROR, 0 of 12 pings at CPL 3" \
            test "$(exp_status ipi_target_state)|$(exp_field ipi_target_state '[.results[] | select(.params.state == "ring3_loop") | .values.interrupted_cpl3] | tojson')|$(exp_field ipi_target_state '.reason // ""' | grep -c 'found the target at CPL 3')" = 'ERROR|[0]|1'
    else
        not_ok "the mutant 178 build"
    fi
else
    skip "mutant 178 (ring3_loop at CPL 0) under QEMU" "TLBSCOPE_TEST_FULL=1 (make test-full)"
fi
echo "1..$n_test"
