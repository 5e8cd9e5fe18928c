#!/usr/bin/env bash
# tlbscope-sim --arch aarch64: the aarch64 app's experiments (core/exp/arm64/) on the
# strict aarch64 model (sim/arm64/), every profile at 4 CPUs, samples=10 run_budget_s=0.
# Each run must be COMPLETE with zero stale reads on every verified experiment and no model
# error (break-before-make included), the control must see stale reads and recovered faults, the profile's ID_AA64ISAR0_EL1.TLB must decide the
# methods (no FEAT_TLBIRANGE: tlbi_range SKIP with the register as evidence and
# flush_ceiling per_page; with it: tlbi_range measured, flush_ceiling range), ipi_roundtrip
# must measure every ordered pair, secondaries initiating, each labelled with the class of
# the profile's MPIDRs, every target taking each ping through the IRQ handler,
# pti_double_invalidation must time one TLBI a page against KPTI's two (the user ASID's
# entries verified on every CPU: exactly samples x pages x CPUs x 3 reads) and name the
# path Linux takes from the profile's ID_AA64MMFR2_EL1.E0PD (kpti on N1, V1, A72; not on V2),
# and the report must validate, labelled simulated, its .txt in x86's layout; each run must
# end with every secondary turned off (method.handback), two runs on one machine (--runs 2)
# must both have every CPU, and a PSCI that lacks what the bring-up needs (--psci) must leave
# the BSP alone with the reason; at a coarse counter (--counter-hz 100000) the flushes shorter
# than 20 ticks must be timed R a sample (the broadcast, Linux, tlbi_range, KPTI and
# flush_ceiling points), each sample the total over R, the model's counts of the Linux
# methods' and full_asid's flushes exactly R x samples plus the trials; and each profile's
# samples must be x86's. A64SIM (the binary) and A64_PROFILES (the
# profiles) may be given: tests/sim/mutants.sh runs this on its mutants' drivers.
source "$(dirname "$0")/lib.sh"

A64SIM=${A64SIM:-$SIM}
SEED=${TLBSCOPE_SIM_SEED:-6464}
PROFILES=${A64_PROFILES:-neoverse-n1 neoverse-v1 neoverse-v2 cortex-a72}
# what each profile's ID_AA64ISAR0_EL1.TLB [59:56] says (sim/arm64/profiles.c): 0 or 2
A64_ARCH=()
[ "$A64SIM" = "$SIM" ] && A64_ARCH=(--arch aarch64) # through tlbscope-sim's dispatch
declare -A tlb=([neoverse-n1]=0 [neoverse-v1]=2 [neoverse-v2]=2 [cortex-a72]=0)
# ID_AA64MMFR2_EL1.E0PD [63:60]: only V2 (Armv9.0) has FEAT_E0PD, so Linux runs KPTI on the others
declare -A e0pd=([neoverse-n1]=false [neoverse-v1]=false [neoverse-v2]=true [cortex-a72]=false)
# the other fields cpu.features decodes, from each profile's documented registers
# (sim/arm64/profiles.c): cnp ttl bbm ntlbpa vhe. MMFR2.CnP [3:0] on every Neoverse; TTL
# [51:48] only on V2 (a Graviton3's V1 reads 0); BBM [55:52] level 2 on V1 and V2, 0 on the
# Armv8.2 and 8.0 cores; MMFR1.VH [11:8] on all but the Armv8.0 A72; nTLBPA [51:48] on none
declare -A mmfeat=([neoverse-n1]="true|false|0|false|true" [neoverse-v1]="true|false|2|false|true"
                   [neoverse-v2]="true|true|2|false|true" [cortex-a72]="false|false|0|false|false")
# ipi_roundtrip's classes at 4 CPUs, from the profile's MPIDR shape (sim/arm64/profiles.c):
# Altra's pairs of cores (neoverse-n1), one cluster for the others
declare -A classes=([neoverse-n1]=same_cluster,same_package [neoverse-v1]=same_cluster
                    [neoverse-v2]=same_cluster [cortex-a72]=same_cluster)

# the experiments that verify, all SUCCESS with zero stale reads
verified_clean() {
    test "$(jqr '[.experiments[] | select(.verification.applicable and .id != "stale_detector_control")
        | select(.status != "SUCCESS" or .verification.stale_reads != 0 or .verification.checks == 0)] | length')" = 0
}
# fc_modes: flush_ceiling's single-page mode words
fc_modes() { jqr '[.experiments[] | select(.id == "flush_ceiling") | .results[].params.mode] | unique | join(",")'; }

for profile in $PROFILES; do
    a=("${A64_ARCH[@]}")
    sim "a64-$profile" "$A64SIM" "${a[@]}" --cpu "$profile" --cpus 4 --seed "$SEED" samples=10 run_budget_s=0
    check "$profile: exit 0, COMPLETE, labelled simulated" \
        eval '[ "$RC" = 0 ] && [ -s "$REPORT" ] && [ "$(jqr .verdict.word)" = COMPLETE ] &&
              [ "$(jqr "[.architecture, .simulated, .simulation.profile, .recommendations.environment] | map(tostring) | join(\"|\")")" = "aarch64|true|$profile|simulated" ] &&
              grep -aq "^RESULT: COMPLETE.*\[SIMULATED\]" "$LOG"'
    check "$profile: the report validates" validates
    check "$profile: the .txt in x86's layout: the header labels, a table row per experiment (SKIP too), the verdict last" \
        text_layout "SIMULATED Firmware CPU Features Counter CPUs Order"
    check "$profile: no run error (the model refused nothing)" test "$(jqr '.run.errors | length')" = 0
    check "$profile: hand-back: the 3 secondaries off by PSCI CPU_OFF (AFFINITY_INFO OFF), none left on" \
        test "$(jqr '[.method.handback.cpus_off, (.method.handback.cpus_not_off | length), .method.handback.gic_unsettled] | map(tostring) | join("|")')" = "3|0|0"
    check "$profile: core/run's loop printed a result line per experiment, in the table's order, as x86's runner does" \
        test "$(grep -aoE '^(PASS|SKIP|ERROR|FAIL): [a-z_0-9]+' "$LOG" | cut -d' ' -f2 | paste -sd,)" = \
        "$(jqr '[.experiments[].id] | join(",")')"
    check "$profile: every verified experiment SUCCESS with zero stale reads" verified_clean
    check "$profile: the SGIs 0 and 1 (below the secure firmware's 8-15) and the model's two security states (GICD_CTLR.DS 0) in method" \
        test "$(jqr '[.method.sgis.cmd, .method.sgis.ping, .method.gic_security.disabled, .method.gic_security.from] | map(tostring) | join("|")')" = "0|1|false|GICD_CTLR.DS"
    check "$profile: ipi_local to 1 of 3 other CPUs labelled lower_bound (and the note), to all 3 not" \
        test "$(exp_field tlbi_broadcast_vs_ipi '[([.results[] | select(.params.method == "ipi_local") | "\(.params.targets):\(.values.lower_bound)"] | unique | join(",")),
            ([.notes[] | select(test("is a lower bound, not a full protocol"))] | length)] | map(tostring) | join("|")')" = "1:1,3:null|1"
    # the control unmaps without a TLBI: stale reads where entries stayed, the recoverable
    # translation fault on its cold pages (no entry; a model error outside the abort window),
    # no read of neither frame
    check "$profile: the control sees stale reads, recovered faults, no read of neither frame" \
        test "$(exp_field stale_detector_control '[.status, (.verification.stale_reads > 0), (.results[0].values.faults > 0),
            .results[0].values.conflicts] | map(tostring) | join("|")')" = "SUCCESS|true|true|0"
    check "$profile: simulated, the model and profile named, the verdict [SIMULATED] (host time, as x86's model runs)" \
        test "$(jqr '[.simulated, .simulation.profile, (.verdict.line | endswith("[SIMULATED]"))] | map(tostring) | join("|")')" = "true|$profile|true"
    # irq_entries: one per ping, and at most one more: the command's own SGI_CMD, sent just after
    # the mailbox store, may reach a target that already saw the command and drained its SGIs
    check "$profile: ipi_roundtrip, 9 ordered pairs (every CPU initiates, the BSP is never a target), each of their 10 pings through the IRQ handler (irq_entries = samples, or one more)" \
        test "$(exp_field ipi_roundtrip '[.status, (.results | length), ([.results[] | [(if .values.irq_entries == .metrics.latency.n + 1 then .metrics.latency.n else .values.irq_entries end), .metrics.latency.n]] | unique | map(map(tostring) | join("/")) | join(",")),
            ([.results[].params.initiator] | unique | map(tostring) | join(",")), ([.results[].params.target] | unique | map(tostring) | join(","))] | map(tostring) | join("|")')" = "SUCCESS|9|10/10|0,1,2,3|1,2,3"
    check "$profile: ipi_roundtrip's classes from the profile's MPIDRs (${classes[$profile]}), a summary per class over all 9 pairs" \
        test "$(jqr '(.experiments[] | select(.id == "ipi_roundtrip")) as $e | [.topology.class_source,
            ([$e.results[].params.class] | unique | join(",")), ([$e.summary[].params.class] | sort | join(",")),
            ([$e.summary[].values.pairs] | add)] | map(tostring) | join("|")')" = "mpidr|${classes[$profile]}|${classes[$profile]}|9"
    # KPTI's double invalidation: no_kpti and kpti at 1, 8, 64, 512 pages on 4 CPUs; every
    # sample's pages read back by every CPU under the kernel ASID, kpti's under the user's too:
    # 10 samples x (1 + 8 + 64 + 512) pages x 4 CPUs x (1 + 2)
    check "$profile: pti_double_invalidation: no_kpti and kpti at 1..512 pages, both ASIDs verified (70200 reads)" \
        test "$(exp_field pti_double_invalidation '[.status, ([.results[] | "\(.params.variant):\(.params.pages):\(.params.cpus)"] | unique | join(" ")),
            .verification.checks, .verification.stale_reads] | map(tostring) | join("|")')" = \
        "SUCCESS|kpti:1:4 kpti:512:4 kpti:64:4 kpti:8:4 no_kpti:1:4 no_kpti:512:4 no_kpti:64:4 no_kpti:8:4|70200|0"
    # broadcast_linux: Linux's unmap on the profile's CPU: the repeat-TLBI dummy on N1, V1 and V2
    # (arm64_repeat_tlbi_list), not on A72; range TLBI where ISAR0.TLB = 2; KPTI without E0PD;
    # flush_tlb_mm (ASIDE1IS) at 512 pages without range TLBI; every sample verified clean
    want_words="$([ "${tlb[$profile]}" = 2 ] && echo range+)$([ "${e0pd[$profile]}" = true ] || echo kpti+)$([ "$profile" = cortex-a72 ] || echo repeat+)"
    check "$profile: broadcast_linux: method.linux_tlbi ${want_words%+} (ttl aside), the model saw the dummies iff repeat" \
        eval '[ "$(jqr ".method.linux_tlbi | sub(\"^ttl[+]\"; \"\")")" = "${want_words%+}" ] &&
              dummies=$(grep -ao "[0-9]* repeat-TLBI dummies" "$LOG" | cut -d" " -f1) &&
              if [ "$profile" = cortex-a72 ]; then [ "$dummies" = 0 ]; else [ "$dummies" -gt 0 ]; fi'
    check "$profile: broadcast_linux_busy (the targets in a load/store loop through the window) at every point broadcast_linux has them idle" \
        test "$(exp_field tlbi_broadcast_vs_ipi '[.results[] | select(.params.method | startswith("broadcast_linux")) | "\(.params.method):\(.params.targets):\(.params.pages)"] |
            [map(select(startswith("broadcast_linux_busy:")) | sub("^[a-z_]*:"; "")), map(select(startswith("broadcast_linux:")) | sub("^[a-z_]*:"; ""))] | (.[0] == .[1] and (.[0] | length) > 0)')" = true
    check "$profile at EL1: no stage2_kvm point nor method.stage2, a note says why (a guest kernel cannot issue stage-2 TLBIs)" \
        test "$(exp_field tlbi_broadcast_vs_ipi '[([.results[] | select(.params.method == "stage2_kvm")] | length),
            ([.notes[] | select(test("^stage2_kvm: not measured at EL1: a guest kernel cannot issue stage-2 TLBIs"))] | length)] | map(tostring) | join("|")')|$(jqr '.method.stage2')" = "0|1|null"
    want_linux=$([ "${e0pd[$profile]}" = true ] && echo no_kpti || echo kpti)
    check "$profile: cpu.features cnp|ttl|bbm|ntlbpa|vhe = ${mmfeat[$profile]}, MMFR1 and MMFR2 in id_regs, the .txt's Features line" \
        eval '[ "$(jqr "[.cpu.features | .cnp, .ttl, .bbm, .ntlbpa, .vhe] | map(tostring) | join(\"|\")")" = "${mmfeat[$profile]}" ] &&
              [ "$(jqr "[.cpu.id_regs | .ID_AA64MMFR1_EL1, .ID_AA64MMFR2_EL1 | test(\"^0x[0-9a-f]+$\")] | all")" = true ] &&
              grep -aqE "^Features .* bbm=$(jqr .cpu.features.bbm) " "${REPORT%.json}.txt"'
    check "$profile: E0PD ${e0pd[$profile]}: Linux's path $want_linux in cpu.features and every summary row" \
        test "$(jqr "[.cpu.features.e0pd, ([.experiments[] | select(.id == \"pti_double_invalidation\") | .summary[] |
            \"\\(.params.pages):\\(.params.linux):\\(.values | has(\"extra\") and has(\"ratio\"))\"] | join(\" \"))] | map(tostring) | join(\"|\")")" = \
        "${e0pd[$profile]}|1:$want_linux:true 8:$want_linux:true 64:$want_linux:true 512:$want_linux:true"
    if [ "${tlb[$profile]}" = 0 ]; then
        check "$profile: no FEAT_TLBIRANGE: tlbi_range SKIP with the ISAR0 evidence" \
            eval '[ "$(exp_status tlbi_range)" = SKIP ] && [[ "$(exp_field tlbi_range .reason)" == *"ID_AA64ISAR0_EL1.TLB [59:56] = 0"* ]]'
        check "$profile: flush_ceiling's single-page path is per_page" test "$(fc_modes)" = "full_asid,per_page"
        check "$profile: broadcast_linux, no broadcast_os (no FEAT_TLBIOS)" \
            test "$(exp_field tlbi_broadcast_vs_ipi '[.results[].params.method] | unique | join(",")')" = "batch_linux,broadcast,broadcast_linux,broadcast_linux_busy,ipi_local"
    else
        check "$profile: FEAT_TLBIRANGE: tlbi_range measured (per_page, range, asid)" \
            test "$(exp_field tlbi_range '[.status, ([.results[].params.method] | unique | join(","))] | join("|")')" = "SUCCESS|asid,per_page,range"
        check "$profile: flush_ceiling's single-page path is range" test "$(fc_modes)" = "full_asid,range"
        check "$profile: broadcast_linux and broadcast_os measured (FEAT_TLBIOS)" \
            test "$(exp_field tlbi_broadcast_vs_ipi '[.results[].params.method] | unique | join(",")')" = "batch_linux,broadcast,broadcast_linux,broadcast_linux_busy,broadcast_os,ipi_local"
    fi
done
# Firmware that keeps the tool's SGIs 0 and 1 Secure (the model ignores the non-secure world's
# writes to them, as a GIC with two security states does; by default it keeps 8-15, TF-A's):
# the GIC setup fails with one run error naming the register and what it read back, the IPI
# experiments ERROR on it, and the secondaries take commands without SGIs (none recorded as
# having stopped answering; the TLBI experiment still measured and verified)
sim "a64-secure-sgis" "$A64SIM" --arch aarch64 --cpu neoverse-n1 --cpus 4 --seed "$SEED" --gic-secure-sgis 0xff03 \
    samples=10 run_budget_s=0 experiments=ipi_roundtrip,tlbi_broadcast_vs_ipi
check "secure SGIs 0 and 1: one run error naming GICR_IGROUPR0 and its value, ipi_roundtrip ERROR, every CPU ok, the TLBIs verified" \
    test "$(jqr '[([.run.errors[] | select(.where == "gic" and (.message | test("GICR_IGROUPR0 read 0x000000fc, SGIs 0 and 1")))] | length),
        (.run.errors | length), .topology.cpus_ok, ([.topology.cpus[] | select(.state != "ok")] | length),
        ([.experiments[] | "\(.id)=\(.status)"] | join(",")), ([.experiments[].verification.stale_reads] | add)] | map(tostring) | join("|")')" = \
    "1|1|4|0|ipi_roundtrip=ERROR,tlbi_broadcast_vs_ipi=SUCCESS|0"
check "secure SGIs 0 and 1: the report validates" validates
# A coarse counter, as real servers' 25-100 MHz are for a TLBI (here 100 kHz, 10 us ticks, so
# the model's flushes take a fraction of one): tick_ns in method and the .txt, the broadcast
# methods, tlbi_range's (where the profile has range TLBI) and pti_double_invalidation's timing R flushes a sample where
# one spans under 20 ticks, each sample total / R, so the latency's mean stays within rounding
# of mean_per_op (the total's mean over R)
first=${PROFILES%% *}
sim "a64-coarse-$first" "$A64SIM" --arch aarch64 --cpu "$first" --cpus 2 --seed "$SEED" --counter-hz 100000 \
    samples=10 run_budget_s=0 experiments=tlbi_broadcast_vs_ipi,tlbi_range,pti_double_invalidation
check "$first at 100 kHz: valid, tick_ns 10000 in method and the .txt's Counter line" \
    eval '[ "$RC" = 0 ] && validates && [ "$(jqr .method.tick_ns)" = 10000 ] &&
          grep -aq "^Counter   0.100 MHz (cntfrq_el0), one tick 10000.000 ns" "${REPORT%.json}.txt"'
check "$first at 100 kHz: reps_per_sample on every point, R > 1 on some broadcast and some broadcast_linux point and 1 for ipi_local" \
    test "$(exp_field tlbi_broadcast_vs_ipi '[([.results[] | select(.values.reps_per_sample == null)] | length),
        ([.results[] | select(.params.method == "broadcast" and .values.reps_per_sample > 1)] | length > 0),
        ([.results[] | select(.params.method == "broadcast_linux" and .values.reps_per_sample > 1)] | length > 0),
        ([.results[] | select(.params.method == "ipi_local") | .values.reps_per_sample] | unique)] | map(tostring) | join("|")')" = "0|true|true|[1]"
# trials: a point's R came from a64_reps_choose's trials of 1, 2, .. R flushes (up to R / 2
# when R is the cap, 64), so the model executed R x samples + trials of its flushes
trials='(if .values.reps_per_sample < 64 then 2 * .values.reps_per_sample - 1 else .values.reps_per_sample - 1 end)'
# the Linux methods' flushes, counted by the model: on a CPU of the repeat-TLBI list each of
# broadcast_linux, broadcast_linux_busy and batch_linux ends with one dummy, and nothing else
# issues one, so the dummies are R x samples + trials summed over their points (a window
# that timed one flush and divided by R has too few)
if [ "$first" != cortex-a72 ]; then
    want=$(exp_field tlbi_broadcast_vs_ipi "[.results[] | select(.params.method | test(\"_linux\")) | .values.reps_per_sample * .metrics.latency.n + $trials] | add")
    check "$first at 100 kHz: the model's repeat-TLBI dummies ($want) are the Linux methods' R flushes a sample, summed" \
        test "$(grep -ao "[0-9]* repeat-TLBI dummies" "$LOG" | cut -d" " -f1)" = "$want"
else
    skip "$first at 100 kHz: the Linux methods' R flushes counted by their repeat dummies" "no repeat-TLBI workaround on $first"
fi
check "$first at 100 kHz: every point's latency mean within rounding of mean_per_op (samples are total / R), tlbi_range's and pti_double_invalidation's too" \
    test "$(jqr '[.experiments[] | select(.id == "tlbi_broadcast_vs_ipi" or .id == "tlbi_range" or .id == "pti_double_invalidation") | .results[] | select(.values.reps_per_sample == null or ((.metrics.latency.mean - ([.values.mean_per_op, 1] | max)) | fabs > 1.5))
        | "\(.params.method):\(.params.pages) R=\(.values.reps_per_sample) mean=\(.metrics.latency.mean) per_op=\(.values.mean_per_op)"] | join(" ")')" = ""
# flush_ceiling at the same counter: R flushes a sample for latency (each mode and page count
# its own R, R > 1 on some of both modes), the refill once after them; the latency's mean within
# rounding of mean_per_op; and the model's TLBI ASIDE1IS count, full_asid's alone in this run,
# R x samples + trials summed over its points (one flush timed and divided by R has too few)
sim "a64-coarse-fc-$first" "$A64SIM" --arch aarch64 --cpu "$first" --cpus 2 --seed "$SEED" --counter-hz 100000 \
    samples=10 run_budget_s=0 experiments=flush_ceiling
check "$first at 100 kHz: flush_ceiling valid, reps_per_sample and mean_per_op on every point, R > 1 on some of each mode" \
    test "$([ "$RC" = 0 ] && validates && exp_field flush_ceiling '[([.results[] | select(.values.reps_per_sample == null or .values.mean_per_op == null)] | length),
        ([.results[] | select(.values.reps_per_sample > 1) | .params.mode] | unique | length)] | map(tostring) | join("|")')" = "0|2"
check "$first at 100 kHz: flush_ceiling's latency mean within rounding of mean_per_op, with_refill = latency + initiator_refill (means, to their rounding)" \
    test "$(exp_field flush_ceiling '[.results[] | select(((.metrics.latency.mean - ([.values.mean_per_op, 1] | max)) | fabs > 1.5)
        or ((.metrics.with_refill.mean - .metrics.latency.mean - .metrics.initiator_refill.mean) | fabs > 1))
        | "\(.params.mode):\(.params.pages) R=\(.values.reps_per_sample) mean=\(.metrics.latency.mean) per_op=\(.values.mean_per_op)"] | join(" ")')" = ""
want=$(exp_field flush_ceiling "[.results[] | select(.params.mode == \"full_asid\") | .values.reps_per_sample * .metrics.latency.n + $trials] | add")
check "$first at 100 kHz: the model's TLBI ASIDE1IS ($want) are full_asid's R flushes a sample, summed" \
    test "$(grep -ao "[0-9]* ASID; DSB" "$LOG" | cut -d" " -f1)" = "$want"
# At EL2 (non-VHE, as under QEMU's virtualization=on): tlbi_broadcast_vs_ipi's stage2_kvm, KVM's
# __kvm_tlb_flush_vmid_ipa under the tool's VMID 1 (core/exp/arm64/stage2_tlbi.c): a point per
# page count with every other CPU a target, method.stage2 unverified, and no run error: the model
# refuses a stage-2 TLBI with no VMID in VTTBR_EL2, VMALLE1IS before a DSB ISH completed the
# IPAS2E1ISs, and a sequence ended (ISB) without VMALLE1IS or its DSB ISH, and the run ends in
# an error where a CPU keeps the tool's VTTBR_EL2. The model counted the sequence's TLBIs.
sim "a64-el2-$first" "$A64SIM" "${A64_ARCH[@]}" --cpu "$first" --cpus 4 --el 2 --seed "$SEED" \
    samples=10 run_budget_s=0 experiments=tlbi_broadcast_vs_ipi
want_ttl=$(jqr '.cpu.features.ttl')
check "$first at EL2: COMPLETE, valid, no run error (the model's stage-2 rules kept, every VTTBR_EL2 the firmware's at the end)" \
    eval '[ "$RC" = 0 ] && [ "$(jqr "[.verdict.word, (.run.errors | length), .method.exception_level, .method.tlbi_el] | map(tostring) | join(\"|\")")" = "COMPLETE|0|2|el2" ] && validates'
check "$first at EL2: stage2_kvm at 1, 8, 64, 512 pages, 3 targets, 10 samples each, reps_per_sample on each" \
    test "$(exp_field tlbi_broadcast_vs_ipi '[.results[] | select(.params.method == "stage2_kvm") | "\(.params.pages):\(.params.targets):\(.metrics.latency.n):\(.values.reps_per_sample >= 1)"] | join(",")')" = \
    "1:3:10:true,8:3:10:true,64:3:10:true,512:3:10:true"
check "$first at EL2: method.stage2 VMID 1, __kvm_tlb_flush_vmid_ipa, not verified, restored; the notes name the TTL hint iff FEAT_TTL ($want_ttl)" \
    test "$(jqr '[.method.stage2 | .vmid, .linux, .verified, .restored] | map(tostring) | join("|")')|$(exp_field tlbi_broadcast_vs_ipi \
        '[.notes[] | select(test("^stage2_kvm: KVM.s __kvm_tlb_flush_vmid_ipa")) | test("with the level-3 TTL hint")] | map(tostring) | join(",")')" = \
    "1|__kvm_tlb_flush_vmid_ipa|false|true|$want_ttl"
check "$first at EL2: the model counted the IPAS2E1ISs (at least 10 x 585) and the VMALLE1ISs at EL2 (at least 40)" \
    eval 's2=$(grep -ao "stage 2: [0-9]* IPAS2E1IS, [0-9]* VMALLE1IS" "$LOG") && set -- $s2 && [ "$3" -ge 5850 ] && [ "$5" -ge 40 ]'
# A server's MADT may list the BSP late (the boot core of socket 1, or in the middle): slot 0
# is the BSP wherever it sits, the CPUs listed before it move up one (core/run/bringup_arm64.c;
# the model starts each slot by MPIDR, as PSCI CPU_ON does). 20 CPUs, the BSP the 18th: every
# CPU ok, the BSP named with its own MPIDR and UID, ipi_broadcast reaching all 19 others
# (all_but_self too, which needs every MADT CPU started). Two experiments: a fraction of a second.
sim "a64-bsp-late" "$A64SIM" "${A64_ARCH[@]}" --cpu neoverse-n1 --cpus 20 --bsp 18 --seed "$SEED" \
    samples=10 run_budget_s=0 experiments=ipi_broadcast,ipi_roundtrip
want_bsp=$(grep -ao "the BSP the MADT's 18. (MPIDR 0x[0-9a-f]*)" "$LOG" | grep -o "0x[0-9a-f]*")
check "BSP 18th of 20 in the MADT: COMPLETE, 20 CPUs ok, the BSP row its MPIDR ($want_bsp) and UID 17, all 19 others measured" \
    test "$(jqr '[.verdict.word, .topology.cpus_ok, .topology.cpu_count, ([.topology.cpus[] | select(.bsp) | "\(.mpidr)/\(.uid)/\(.bring_up)"] | join(",")),
        ([.topology.cpus[].mpidr] | unique | length),
        ([.experiments[] | select(.id == "ipi_broadcast") | .results[] | select(.params.targets == 19) | .params.mode] | sort | join(","))] | map(tostring) | join("|")')" = \
    "COMPLETE|20|20|$want_bsp/17/bsp|20|all_but_self,target_list,unicast"
check "BSP 18th of 20: the report validates" validates
# Aff0 above 15 (--aff0-cores 32: MPIDR.MT 0, the core in Aff0, 32 cores a cluster, as Neoverse
# servers number theirs): ICC_SGI1R_EL1's TargetList names 16 Aff0 values and RS which 16, so
# SGIs reach CPUs 16-19 only with the range selector in the distributor (GICD_TYPER.RSS) and
# the CPU interfaces (ICC_CTLR_EL1.RSS). The model loses, as a refusal, an SGI to Aff0 > 15
# without both. With both: every CPU reached, target_list's 19 targets in 2 writes (RS 0, 1)
rss_run() { # SIDES (--gic-rss)
    sim "a64-rss-$1" "$A64SIM" "${A64_ARCH[@]}" --cpu neoverse-v2 --cpus 20 --aff0-cores 32 --gic-rss "$1" \
        --seed "$SEED" samples=10 run_budget_s=0 experiments=ipi_broadcast,ipi_roundtrip,tlbi_broadcast_vs_ipi
}
rss_run both
check "Aff0 0-19 with the range selector: COMPLETE, 20 CPUs ok, ipi_broadcast to all 19 (target_list in 2 writes), round trips to CPUs 16-19, nothing refused" \
    test "$(jqr '[.verdict.word, .topology.cpus_ok, (.run.errors | length),
        ([.experiments[] | select(.id == "ipi_broadcast") | .results[] | select(.params.targets == 19) | "\(.params.mode)=\(.values.sgi_writes)"] | sort | join(",")),
        ([.experiments[] | select(.id == "ipi_roundtrip") | .results[] | select(.params.target >= 16)] | length > 0)] | map(tostring) | join("|")')" = \
    "COMPLETE|20|0|all_but_self=1,target_list=2,unicast=19|true"
# Without it on one side (gicd: the CPU interfaces lack it; icc: the distributor does): CPUs
# 16-19 named unreachable (run.errors, their rows), the run partial, the IPI experiments ERROR
# with the other 15 measured, the TLBIs verified on all 20 (ipi_local's note: 4 of its targets
# poll for the command), no SGI sent where it cannot arrive
for side in gicd icc; do
    rss_run "$side"
    check "Aff0 0-19, range selector only in $side: CPUs 16-19 unreachable (run.errors, rows), run partial, IPIs to the other 15 only (ERROR), TLBIs verified on 20, nothing refused" \
        test "$(jqr '[.verdict.word, .run.status, .topology.cpus_ok,
            ([.run.errors[] | select(.where == "gic" and (.message | test("^cpu 1[6-9] .MPIDR 0x1[0-3].: unreachable by SGI, Aff0 1[6-9] > 15")))] | length),
            ([.run.errors[] | select(.where == "simulation")] | length),
            ([.topology.cpus[] | select((.note // "") | test("^unreachable by SGI"))] | length),
            ([.experiments[] | "\(.id)=\(.status)"] | join(",")),
            ([.experiments[] | select(.id == "ipi_broadcast") | .results[].params.targets] | max),
            ([.experiments[] | select(.id == "ipi_roundtrip") | .results[] | select(.params.target >= 16 or .params.initiator >= 16)] | length),
            ([.experiments[] | select(.id == "tlbi_broadcast_vs_ipi") | .verification.stale_reads] | add),
            ([.experiments[] | select(.id == "tlbi_broadcast_vs_ipi") | .results[].params.targets] | max),
            ([.experiments[] | select(.id == "tlbi_broadcast_vs_ipi") | .notes[] | select(test("^ipi_local: 4 of the 19 other CPUs take the command without an SGI"))] | length)] | map(tostring) | join("|")')" = \
        "ERROR|partial|20|4|0|4|ipi_roundtrip=ERROR,ipi_broadcast=ERROR,tlbi_broadcast_vs_ipi=SUCCESS|15|0|0|19|1"
    check "Aff0 0-19, range selector only in $side: the report validates" validates
done
# the app's MAX_CPUS on 2 host cores: idle and polling CPUs must leave the cores to the busy
# ones, or waits run into their deadlines (the run took 6 minutes and lost a CPU once)
if [ -z "${A64_PROFILES:-}" ]; then
    SIM_TIMEOUT=120 sim "a64-16cpus" "$A64SIM" --arch aarch64 --cpu neoverse-v2 --cpus 16 --seed "$SEED" \
        samples=10 run_budget_s=0
    check "neoverse-v2 at 16 CPUs: COMPLETE, every CPU ok, zero stale reads, valid, within 2 minutes" \
        eval '[ "$RC" = 0 ] && [ "$(jqr "[.verdict.word, .topology.cpus_ok] | map(tostring) | join(\"|\")")" = "COMPLETE|16" ] &&
              verified_clean && validates'
    # 225 ordered pairs over ipi_roundtrip's 120: each class of the model's two packages its share
    check "neoverse-v2 at 16 CPUs: ipi_roundtrip samples 120 of 225 pairs, 60 same_cluster and 60 cross_package" \
        test "$(exp_field ipi_roundtrip '[.status, (.results | length), ([.summary[] | "\(.params.class)=\(.values.pairs)"] | join(","))] | map(tostring) | join("|")')" = \
        "SUCCESS|120|same_cluster=60,cross_package=60"
    # a Graviton-sized machine (64 CPUs, the model's most), every experiment: make test-full
    # only (TLBSCOPE_TEST_FULL=1), minutes on 2 host cores
    if [ "${TLBSCOPE_TEST_FULL:-0}" = 1 ]; then
        SIM_TIMEOUT=900 sim "a64-64cpus" "$A64SIM" --arch aarch64 --cpu neoverse-n1 --cpus 64 --seed "$SEED" \
            samples=10 run_budget_s=0
        check "neoverse-n1 at 64 CPUs: COMPLETE, every CPU ok, zero stale reads, valid" \
            eval '[ "$RC" = 0 ] && [ "$(jqr "[.verdict.word, .topology.cpus_ok, .topology.cpu_count] | map(tostring) | join(\"|\")")" = "COMPLETE|64|64" ] &&
                  verified_clean && validates'
    else
        skip "neoverse-n1 at 64 CPUs" "TLBSCOPE_TEST_FULL=1 (make test-full)"
    fi
    # experiments= through the loop both apps run (core/run/exp_loop.c): a typo named with the
    # nearest id and this architecture, an x86 id named as not aarch64's, only the rest runs
    sim "a64-selection" "$A64SIM" --arch aarch64 --cpu neoverse-n1 --cpus 2 --seed "$SEED" \
        samples=10 run_budget_s=0 experiments=flush_ceilin,shootdown_seq_vs_conc,ipi_broadcast
    check "experiments= with a typo and an x86 id: warnings naming them, only ipi_broadcast ran (RUN and PASS lines)" \
        eval '[ "$(jqr "[([.run.warnings[].message | select(test(\"no experiment .flush_ceilin. on aarch64 .did you mean flush_ceiling|no experiment .shootdown_seq_vs_conc. on aarch64\"))] | length), ([.experiments[].id] | join(\",\"))] | map(tostring) | join(\"|\")")" = "2|ipi_broadcast" ] &&
              grep -aq "^RUN:  ipi_broadcast: " "$LOG" && grep -aq "^PASS: ipi_broadcast \[SIMULATED\]" "$LOG" &&
              ! grep -aqE "^(RUN|PASS|SKIP):  ?(ipi_roundtrip|shootdown_lazy)" "$LOG"'
    sim "a64-selection-none" "$A64SIM" --arch aarch64 --cpu neoverse-n1 --cpus 2 --seed "$SEED" experiments=ipi_target_state
    check "experiments= naming no aarch64 experiment: nothing measured, the run ERROR with the reason, exit 1" \
        test "$(jqr '[.verdict.word, (.experiments | length), ([.run.errors[].message | select(test("names none of the 10 experiments"))] | length)] | map(tostring) | join("|")')|$RC" = "ERROR|0|1|1"
    # "default to the x86 sample counts": each profile's samples are x86's (one config_finalize
    # for both apps: an x86 model run's run.config beside the aarch64 one's),
    # and a point takes them (quick, unplanned: 100); warm-up: the configuration's, but the
    # aarch64 experiments take none (docs/aarch64.md), so only its value is compared
    for prof in quick default full; do
        sim "a64-profile-$prof-x86" "$SIM" --cpu epyc-7763 --cpus 2 --seed "$SEED" profile=$prof experiments=tlbi_range
        x86=$(jqr '[.run.config | .samples, .warmup] | map(tostring) | join("|")')
        sim "a64-profile-$prof" "$A64SIM" --arch aarch64 --cpu neoverse-n1 --cpus 2 --seed "$SEED" profile=$prof \
            experiments=ipi_broadcast run_budget_s=0
        check "profile=$prof: aarch64's samples|warmup are x86's ($x86); every ipi_broadcast point took the samples" \
            test "$(jqr '[.run.config | .samples, .warmup] | map(tostring) | join("|")')|$(jqr '[.experiments[].results[].metrics.latency.n] | unique | map(tostring) | join(",")')" = \
            "$x86|$(cut -d'|' -f1 <<<"$x86")"
    done
    # ipi_pairs= as on x86: 9 ordered pairs at 4 CPUs (the BSP never a target), 5 taken
    sim "a64-ipi-pairs" "$A64SIM" --arch aarch64 --cpu neoverse-n1 --cpus 4 --seed "$SEED" \
        samples=10 run_budget_s=0 experiments=ipi_roundtrip ipi_pairs=5
    check "ipi_pairs=5 at 4 CPUs: at most 5 of the 9 ordered pairs (each class its share), the note names ipi_pairs=5" \
        test "$(exp_field ipi_roundtrip '[.status, ((.results | length) | . >= 1 and . <= 5), ([.notes[] | select(test("9 ordered pairs exceed 5 .ipi_pairs=5"))] | length)] | map(tostring) | join("|")')" = \
        "SUCCESS|true|1"
fi
# The hand-back, as a UEFI shell script that runs the app twice finds it: the second run's
# CPU_ON must find every secondary OFF (the model refuses, as a model error, a CPU_ON of a CPU
# PSCI still has ON, which is what a run that never calls CPU_OFF leaves)
first=${PROFILES%% *}
sim "a64-twice" "$A64SIM" --arch aarch64 --cpu "$first" --cpus 4 --seed "$SEED" --runs 2 \
    samples=10 run_budget_s=0 experiments=ipi_roundtrip
reports=$(sed -n 's/^Report saved: //p' "$LOG")
check "two runs on one machine: both COMPLETE, every CPU ok both times, 3 secondaries off after each, no model error" \
    eval '[ "$RC" = 0 ] && [ "$(wc -l <<<"$reports")" = 2 ] &&
          [ "$(cd "$here" && jq -r "[.verdict.word, .topology.cpus_ok, .method.handback.cpus_off, (.run.errors | length)] | map(tostring) | join(\"|\")" $reports | paste -sd,)" = "COMPLETE|4|3|0,COMPLETE|4|3|0" ]'
# the check before any CPU_ON: a PSCI 0.1 and a PSCI 1.0 without CPU_ON leave the BSP alone,
# the reason in run.errors and the CPUs' notes, and no function the PSCI lacks is called
# (the model refuses such a call as a model error)
for spec in 0.1 1.0,-cpu_on 1.1,-affinity_info; do
    sim "a64-psci-$spec" "$A64SIM" --arch aarch64 --cpu "$first" --cpus 4 --seed "$SEED" --psci "$spec" \
        samples=10 run_budget_s=0 experiments=ipi_roundtrip
    check "PSCI $spec: the BSP alone with the reason, CPU_ON never called, no model error, the report valid" \
        eval '[ "$(jqr "[.verdict.word, .topology.cpus_ok, ([.run.errors[] | select(.where == \"psci\" and (.message | test(\"only the BSP runs\")))] | length),
                ([.run.errors[] | select(.where == \"simulation\")] | length), ([.topology.cpus[1:][] | select(.state == \"absent\" and (.note | startswith(\"not started: \")))] | length)] | map(tostring) | join(\"|\")")" = "ERROR|1|1|0|3" ] && validates'
done
echo "# SUMMARY: the aarch64 app on the strict aarch64 model: $PROFILES"
