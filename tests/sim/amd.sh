#!/usr/bin/env bash
# AMD as Linux 6.15+ runs it (issue 32, part B), on the modelled machine; and the
# test-only emulation of INVLPGB on a CPU with PCID (item 7).
source "$(dirname "$0")/lib.sh"

# Item 7: emulated INVLPGB under PTI on a CPU with PCID. Each flush is an INVLPGB for the
# kernel PCID and one for the user PCID; the emulation used to apply both in the PCID the CPU
# was running in (the kernel's), so every user-PCID entry stayed: stale reads by the
# hundred thousand on the strict model, although the same run with pti=off is clean.
emu_args=(--cpu xeon-8180 --cpus 4 --seed 11 profile=quick run_budget_s=0 emulate=invlpgb
          experiments=invlpgb_range)
sim emulated-pti-on "$SIM" "${emu_args[@]}" pti=on
check "xeon-8180 emulate=invlpgb pti=on: clean (exit 0, zero stale reads, validates)" clean
check "xeon-8180 emulate=invlpgb pti=on: PCID on, the experiment SUCCESS, labelled emulated" \
    test "$(jqr .method.pcid_enabled)/$(exp_status invlpgb_range)/$(exp_field invlpgb_range .emulated)" = true/SUCCESS/true
check "xeon-8180 emulate=invlpgb pti=on: every point names pti on" \
    test "$(exp_field invlpgb_range '[.results[] | select(.params.method == "invlpgb") | .params.pti] | unique | join(",")')" = on
sim emulated-pti-off "$SIM" "${emu_args[@]}" pti=off
check "xeon-8180 emulate=invlpgb pti=off: clean" clean

echo "1..$n_test"
