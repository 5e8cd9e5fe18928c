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

# Item 5: EFER.TCE where CPUID 8000_0001 ECX[17] enumerates it, set on every CPU as Linux's
# init_amd() does, given back as found (the model checks each CPU's EFER at the hand-back,
# and faults a TCE write on a CPU without it).
tce_args=(--cpus 4 --seed 13 profile=quick run_budget_s=0 experiments=pti_double_invalidation)
sim tce-epyc "$SIM" --cpu epyc-7763 "${tce_args[@]}"
check "epyc-7763: clean, EFER handed back as found on every CPU" clean
check "epyc-7763: method.efer_tce supported, found clear, set and used on all 4 CPUs" \
    test "$(jqr '.method.efer_tce | [.supported, .found, .used, .cpus, .cpus_found, .cpus_used] | map(tostring) | join("|")')" = \
        "true|false|true|4|0|4"
check "epyc-7763: no efer_tce warning" test "$(jqr '[.run.warnings[] | select(.where == "efer_tce")] | length')" = 0
# Item 8: LFENCE dispatch-serialising through DE_CFG[1] (the modelled firmware leaves it clear),
# set on every CPU as Linux does, DE_CFG given back as found (checked at the hand-back)
check "epyc-7763: method.lfence from DE_CFG, found clear, set and used on all 4 CPUs, no warning" \
    test "$(jqr '[(.method.lfence | .source, .found, .used, .cpus_found, .cpus_used), ([.run.warnings[] | select(.where == "lfence")] | length)] | map(tostring) | join("|")')" = \
        "de_cfg|false|true|0|4|0"
sim tce-xeon "$SIM" --cpu xeon-8180 "${tce_args[@]}"
check "xeon-8180: clean (EFER never written: TCE is reserved there)" clean
check "xeon-8180: timestamps open lfence;rdtsc;lfence and close rdtscp;lfence" \
    test "$(jqr .method.timestamp)" = "lfence;rdtsc;lfence..rdtscp;lfence"
check "xeon-8180: LFENCE serialising by the architecture (DE_CFG never touched: a #GP there)" \
    test "$(jqr '.method.lfence | [.source, .used, .cpus_used] | map(tostring) | join("|")')" = "architectural|true|4"
check "xeon-8180: method.efer_tce not supported, not used" \
    test "$(jqr '.method.efer_tce | [.supported, .found, .used, .cpus_used] | map(tostring) | join("|")')" = "false|false|false|0"

# Item 18 (part D): under PTI every form is verified in the user PCID too, 2 MiB pages
# included; the exact shape counts both PCIDs' reads (the mutants of tests/sim/mutants.sh that
# skip the 2 MiB user-PCID INVPCID or INVLPGB are caught by these reads)
sim pti-2m "$SIM" --cpu epyc-7763 --cpus 4 --seed 17 profile=quick run_budget_s=0 pti=on experiments=invlpgb_range
check "epyc-7763 pti=on invlpgb_range: clean" clean
check "epyc-7763 pti=on invlpgb_range: the exact shape, both PCIDs read for every form" \
    shape_ok "$REPORT" cpus=4 profile=quick pti=1 experiments=invlpgb_range

# INVLPGB against IPIs beyond the initiator's wait: the busy_ws rows (every other CPU in a
# user-mode-like loop) give the IPI targets' lost time summed over the targets, and the time
# INVLPGB's bystanders lose while the initiator loops INVLPGB+TLBSYNC; the crossover per
# placement has the nearest-first sweep's row beside spread's, and the recommendation names
# the one it reads (2 sockets x 2 L3s x 2 cores, no SMT: 8 CPUs)
ib_args=(--cpu epyc-9654 --cpus 8 --shape 2x2x2x1 --seed 19 profile=quick run_budget_s=0
         samples=20 experiments=invlpgb_range)
sim ib-busy "$SIM" "${ib_args[@]}"
check "epyc-9654 invlpgb_range 8 CPUs: clean" clean
check "epyc-9654 invlpgb_range: the exact shape, busy_ws rows and the nearest-first summary included" \
    shape_ok "$REPORT" cpus=8 profile=quick samples=20 experiments=invlpgb_range
check "epyc-9654: the IPI point's target_lost sums every target's loss (7 targets)" ib_target_lost_summed
check "epyc-9654: the bystander row's windows held 8 INVLPGB+TLBSYNC each" ib_bystanders_loaded
check "epyc-9654: busy IPI targets lose time (target_lost p50 > 0)" \
    test "$(exp_field invlpgb_range '[.results[] | select(.params.targets_doing == "busy_ws" and .params.method == "ipi") | .metrics.target_lost.p50 > 0] | all')" = true
check "epyc-9654: crossover rows for nearest_first and spread, nearest_first up to all 8 CPUs" \
    test "$(exp_field invlpgb_range '[.summary[] | select(.params.placement == "nearest_first" or .params.placement == "spread") | .params.placement + ":" + (.values.cpus_max | tostring)] | sort | join(",")')" = "nearest_first:8,spread:4"
check "epyc-9654: invlpgb_vs_ipi reads nearest_first (cpus_from_placement, why), its cpus_from the summary's" \
    test "$(jq -r --argjson s "$(exp_field invlpgb_range '[.summary[] | select(.params.placement == "nearest_first")][0].values.cpus_from // null')" \
        '.recommendations.entries[] | select(.id == "invlpgb_vs_ipi")
         | [.cpus_from_placement, (.why | test("read from the nearest-first sweep")), (.cpus_from == null or .cpus_from == $s)] | map(tostring) | join("|")' "$REPORT")" = "nearest_first|true|true"

echo "1..$n_test"
