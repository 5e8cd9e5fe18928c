#!/usr/bin/env bash
# aarch64 (issue 27): the aarch64 app (build/aarch64/tlbscope.img) boots under
# qemu-system-aarch64 -M virt,gic-version=3 -cpu max with AAVMF (TCG) at -smp 1,
# 2, 4 and 8 (EL1) and at -smp 2 with virtualization=on (firmware and app at
# EL2), and with a GICv2 (gic-version=2: SGIs through GICD_SGIR, GICC_IAR) at
# -smp 2 and 4. ipi_roundtrip must take one IRQ on the target per round trip
# (method.target_wait wfi_irq, values.irq_entries == latency.n, or one more: the command's
# own SGI_CMD arriving after the target saw the command). ipi_broadcast
# must measure unicast, target_list and all_but_self SGIs (SKIP at -smp 1). tlbi_broadcast_vs_ipi has its outer-shareable method
# (broadcast_os, VAE1OS + DSB OSH: -cpu max has FEAT_TLBIOS) and tlbi_range its
# by-ASID one (asid, ASIDE1IS on non-global pages; EL1 only); flush_ceiling times range
# TLBIs against one full flush (ASIDE1IS at EL1, ALLE2IS at EL2) at 1..512 pages, alone
# and with the refill, every page verified on every CPU, its summary naming Linux's
# switch to flush_tlb_mm; pti_double_invalidation times one TLBI VAE1IS a page against
# KPTI's two (kernel and user ASID, each verified on every CPU) at EL1 and is SKIP at EL2
# (no ASIDs); tlbi_broadcast_vs_ipi's stage2_kvm (KVM's stage-2 invalidation under a VMID of
# the tool's) has its points and method.stage2 at EL2 and is absent, with its note, at EL1;
# and once more on a Cortex-A72 (no range TLBI). Each run must end
# with its report on the image, every CPU ok, the TLBI
# experiments SUCCESS with zero stale reads after every shootdown, the control
# (a remap without invalidation) seeing stale reads, every experiment
# labelled emulated, the report in contract A's shape (aarch64_contract.jq), and its
# .txt in x86's layout (the header labels, the experiment table, the verdict last).
# Twice in one boot (a UEFI Shell startup.nsh, exit=shell, then reset -s), every CPU ok both
# times: the first run hands every secondary back with PSCI CPU_OFF (method.handback).
# At 64 CPUs (GICv3), tlbi_broadcast_vs_ipi alone: every CPU ok, every method to all 63 others,
# zero stale reads. TLBSCOPE_TEST_FULL=1 adds a 128-CPU boot (every CPU ok; QEMU's virt
# has two GICR ranges, the second unmapped by AAVMF), a build whose CPU 2 is never started (it must be
# `absent` and the run partial), one whose CPU 3 faults (our vector must name
# ESR, FAR and ELR in the report), the mutant arm_local_not_broadcast built
# into the app (QEMU's vCPUs keep their entries: the verifier must catch it), and
# the IRQ handler's mutants arm_irq_ping_wrong_id and arm_irq_no_eoi (the round
# trip must end ERROR within its deadline, not hang), and the hand-back's a64_cpu_off_skipped
# twice in one boot (the second run gets ALREADY_ON for every secondary).
source "$(dirname "$0")/lib.sh"

if ! command -v qemu-system-aarch64 >/dev/null || [ ! -f /usr/share/AAVMF/AAVMF_CODE.fd ] ||
    ! command -v clang >/dev/null || ! command -v lld-link >/dev/null; then
    skip "aarch64 boots" "qemu-system-aarch64, AAVMF, clang or lld missing (scripts/deps.sh aarch64)"
    exit 0
fi

# build/aarch64/tlbscope.img, or with extra flags into another build folder
build_image() { # build-folder [extra cflags]
    make -s ARCH=aarch64 BUILD="$1" A64_EXTRA_CFLAGS="${2:-}" image >"$here/build/aarch64-make.log" 2>&1
}
check "aarch64 app and image build" build_image build

# boot_a64 NAME IMAGE SMP [VIRT [GIC]]: sets REPORT, LOG, RC (and RUN)
boot_a64() {
    local name=$1 img=$2 smp=$3 virt=${4:-0} gic=${5:-3}
    RUN=$here/build/test-runs/aarch64-$name
    rm -rf "$RUN"; mkdir -p "$RUN"
    # A64_ARGS: the run's keys, as `make run ARCH=aarch64 ARGS=...` passes them (latest.* in RUN);
    # unset: 10 samples a point (the fewest samples= takes), unplanned (the pacing of the profiles' samples has its own boot)
    NUMA=${NUMA:-0} STARTUP_NSH=${STARTUP_NSH:-} NETBOOT=${NETBOOT:-} NET=${NET:-0} READONLY=${READONLY:-0} CPU=${A64_CPU:-max} SMP=$smp VIRT=$virt GIC=$gic TIMEOUT=${TIMEOUT:-150} OUT=$RUN/reports LOG=$RUN/console.log \
        ARGS="${A64_ARGS-samples=10 run_budget_s=0}" LATEST=$RUN "$here/scripts/qemu-run-aarch64.sh" "$img" >"$RUN/run.out" 2>&1
    RC=$?
    LOG=$RUN/console.log
    REPORT=$(ls "$RUN"/reports/*.json 2>/dev/null | head -n1)
    echo "# $name: exit $RC, report ${REPORT:-none}, $(grep -a '^RESULT:' "$LOG" | tail -n1 | tr -d '\r')"
}

tlbi_ok() { # experiment id: SUCCESS, verified, zero stale reads
    [ "$(exp_status "$1")" = SUCCESS ] && [ "$(exp_field "$1" .verification.stale_reads)" = 0 ] &&
        [ "$(exp_field "$1" .verification.checks)" -gt 0 ]
}

validator() {
    local out
    # make test builds the tool before this step: a missing tool is a failure, not a skip
    if [ -x "$TOOL" ] && out=$("$TOOL" validate "$REPORT" 2>&1); then
        ok "$1: tlbscope-report validate accepts it"
    else
        not_ok "$1: tlbscope-report validate: ${out:-build/tlbscope-report not built}"
        echo "$out" | head -5 | sed 's/^/# validate: /'
    fi
}

check_run() { # name smp el [gic]
    local name=$1 smp=$2 el=$3 gic=${4:-3}
    check "$name: QEMU exits after PSCI SYSTEM_OFF" test "$RC" = 0
    check "$name: report saved on the image" test -s "$REPORT"
    [ -s "$REPORT" ] || return
    local bad
    bad=$(jq -r -f "$here/tests/qemu/aarch64_contract.jq" "$REPORT" 2>&1)
    check "$name: report in contract A's shape${bad:+ ($(echo $bad | head -c 200))}" test -z "$bad"
    check "$name: architecture aarch64, run complete" \
        test "$(jqr '[.architecture, .run.status] | join(",")')" = aarch64,complete
    check "$name: $smp CPUs, every one ok" \
        test "$(jqr '[.topology.cpu_count, .topology.cpus_ok] | join(",")')" = "$smp,$smp"
    check "$name: EL$el, TLBI forms $( [ "$el" = 2 ] && echo el2 || echo el1)" \
        test "$(jqr '[.cpu.exception_level, .method.tlbi_el] | join(",")')" = "$el,el$el"
    check "$name: GICv$gic, IPIs as gicv${gic}_sgi" \
        test "$(jqr '[.method.gic_version, .method.ipi] | join(",")')" = "$gic,gicv${gic}_sgi"
    # QEMU's virt GIC without secure=on has one security state: GICv3 GICD_CTLR.DS reads 1,
    # a GICv2 has no Security Extensions; the tool's SGIs 0 and 1 took their setup (read back)
    check "$name: SGIs 0 and 1, one security state ($( [ "$gic" = 2 ] && echo GICD_TYPER.SecurityExtn || echo GICD_CTLR.DS))" \
        test "$(jqr '[.method.sgis.cmd, .method.sgis.ping, .method.gic_security.disabled, .method.gic_security.from] | map(tostring) | join(",")')" = \
        "0,1,true,$( [ "$gic" = 2 ] && echo GICD_TYPER.SecurityExtn || echo GICD_CTLR.DS)"
    check "$name: QEMU named (emulated), every experiment emulated" \
        test "$(jqr '[.cpu.hypervisor, ([.experiments[].emulated] | all)] | join(",")')" = QEMU,true
    check "$name: the control sees stale reads" \
        test "$(exp_status stale_detector_control),$(( $(exp_field stale_detector_control .verification.stale_reads) > 0 ))" = SUCCESS,1
    # its cold pages (no entry under QEMU after the flush) fault on every CPU, the BSP too, and
    # each is recovered (asm/abort.h): 16 a CPU at least (a warm page whose entry QEMU dropped
    # faults too: a TLB may drop an entry at any time); every read either stale or a fault,
    # nothing read of neither frame
    check "$name: the control's cold pages take the recoverable abort on all $smp CPUs" \
        test "$(exp_field stale_detector_control '.results[0] | [.values.faults >= .params.cold_pages * '"$smp"',
            .values.stale_reads + .values.faults == .values.checks, .values.conflicts] | map(tostring) | join(",")')" = true,true,0
    check "$name: tlbi_range SUCCESS, zero stale reads" tlbi_ok tlbi_range
    # by ASID (ASIDE1IS on non-global pages) at EL1; the EL2 regime has no ASIDs
    check "$name: tlbi_range methods per_page, range$( [ "$el" = 1 ] && echo ', asid')" \
        test "$(exp_field tlbi_range '[.results[].params.method] | unique | join(",")')" = \
        "$( [ "$el" = 1 ] && echo asid,per_page,range || echo per_page,range)"
    # flush_ceiling: per-page (range: -cpu max has FEAT_TLBIRANGE) against the full flush
    # (ASIDE1IS at EL1, ALLE2IS at EL2), each point verified on every CPU, at 1..512 pages,
    # metrics the flush, the refill and both; its summary names Linux's switch (2^21 + 1
    # pages with range TLBI: above MAX_TLBI_RANGE_PAGES)
    check "$name: flush_ceiling SUCCESS, zero stale reads" tlbi_ok flush_ceiling
    check "$name: flush_ceiling range vs $( [ "$el" = 1 ] && echo full_asid || echo full_all), 10 page counts, 3 metrics a point" \
        test "$(exp_field flush_ceiling '[([.results[].params.mode] | unique | join("+")), ([.results[].params.pages] | unique | length),
            ([.results[].metrics | keys | join("+")] | unique | join(" ")), (.results | length)] | map(tostring) | join(",")')" = \
        "$( [ "$el" = 1 ] && echo full_asid || echo full_all)+range,10,initiator_refill+latency+with_refill,20"
    # every sample's p remapped pages read back by every CPU: cpus x samples x 2 modes x (1 + 2 + .. + 512)
    check "$name: flush_ceiling verified every page of every sample on all $smp CPUs" \
        test "$(exp_field flush_ceiling ".verification.checks > 0 and .verification.checks == .results[0].metrics.latency.n * 2 * 1023 * $smp")" = true
    check "$name: flush_ceiling summary: Linux's ceiling 2097153, p* of 10 page counts with a confidence" \
        test "$(exp_field flush_ceiling '.summary[] | [.values.linux_ceiling, .values.pages_measured, (.params.confidence | IN("low", "medium", "high"))] | map(tostring) | join(",")')" = \
        "2097153,10,true"
    # the recommendation read from it (core/run/recommend_arm64.c), as x86's are from theirs:
    # its value the summary's p* (null without one), its interval p*'s, its evidence the points,
    # recommended only at medium or high confidence, labelled virtualised under QEMU
    check "$name: the flush_ceiling recommendation is the summary's p*, its interval and confidence" \
        test "$(jqr '(.experiments[] | select(.id == "flush_ceiling")) as $e | ($e.summary[0]) as $s |
            (.recommendations.entries[] | select(.id == "flush_ceiling")) as $r |
            [$r.value == $s.values.p_star,
             ($s.values.p_star == null or $s.values.p_star_low == null or
              ($r.interval.low == $s.values.p_star_low and $r.interval.high == $s.values.p_star_high)),
             ($r.evidence.points | length) == ($e.results | length),
             ($r.status == "recommended") == ($s.values.p_star != null and ($s.params.confidence | IN("medium", "high"))),
             $r.environment == "virtualised"] | all')" = true
    # KPTI's double invalidation (EL1: the kernel's and the user's ASID, every CPU verified under
    # both; EL2's regime has no ASIDs): 1, 8, 64, 512 pages, one TLBI a page or two
    if [ "$el" = 1 ]; then
        check "$name: pti_double_invalidation SUCCESS, zero stale reads, no_kpti and kpti at 4 page counts" \
            eval 'tlbi_ok pti_double_invalidation && [ "$(exp_field pti_double_invalidation "[.results[].params | \"\\(.variant):\\(.pages)\"] | unique | length")" = 8 ]'
    else
        check "$name: pti_double_invalidation SKIP at EL2 (no ASIDs)" test "$(exp_status pti_double_invalidation)" = SKIP
    fi
    if [ "$smp" -gt 1 ]; then
        check "$name: tlbi_broadcast_vs_ipi SUCCESS, zero stale reads" tlbi_ok tlbi_broadcast_vs_ipi
        check "$name: tlbi_concurrent SUCCESS, zero stale reads" tlbi_ok tlbi_concurrent
        # every ordered pair but those to the BSP ((smp - 1)^2), every CPU initiating (at smp 2
        # the BSP's one pair), and a summary per class over every pair; the classes from QEMU's
        # PPTT (virt builds one: its cores directly under one socket, no cluster level, so
        # same_package; from MPIDR they would read same_cluster: Aff0 the CPU, MT = 0), the
        # same in the points, the summary and topology.classes
        check "$name: ipi_roundtrip measured every ordered pair, secondaries initiating, classes from QEMU's PPTT" \
            test "$(jqr '(.experiments[] | select(.id == "ipi_roundtrip")) as $e | [$e.status, ($e.results | length),
                ([$e.results[].params.initiator] | unique | length), .topology.class_source,
                ([$e.results[].params.class] | unique | join("+")), ([$e.summary[].params.class] | join("+")),
                ([.topology.classes | to_entries[] | select(.value > 0) | .key] | join("+")), ([$e.summary[].values.pairs] | add)] |
                map(tostring) | join(",")')" = \
            "SUCCESS,$(((smp - 1) * (smp - 1))),$( [ "$smp" = 2 ] && echo 1 || echo "$smp"),pptt,same_package,same_package,same_package,$(((smp - 1) * (smp - 1)))"
        # one SGI taken through the target's IRQ vector per round trip, as x86's interrupt entry:
        # the handler's count of IRQ exceptions equals the samples (a polled or lost ping is not one)
        check "$name: ipi_roundtrip with IRQ entry (wfi_irq): one IRQ per round trip on every target" \
            test "$(jqr .method.target_wait),$(exp_field ipi_roundtrip '[.results[] | (.values.irq_entries - .metrics.latency.n | . == 0 or . == 1) and .metrics.latency.n > 0] | all')" = wfi_irq,true
        # ipi_broadcast: unicast and target_list at each k (1, about half, N-1), all_but_self at
        # k = N-1; QEMU's virt CPUs share Aff1 0, so target_list takes one write like all_but_self
        check "$name: ipi_broadcast SUCCESS, every mode measured, all_but_self at $((smp - 1)) targets" \
            test "$(exp_field ipi_broadcast '[.status, ([.results[].params.mode] | unique | join("+")),
                ([.results[] | select(.params.mode == "all_but_self") | .params.targets] | map(tostring) | join("+"))] | join(",")')" = \
            "SUCCESS,all_but_self+target_list+unicast,$((smp - 1))"
        check "$name: ipi_broadcast SGI writes: k for unicast, one for target_list and all_but_self" \
            test "$(exp_field ipi_broadcast '[.results[] | .values.sgi_writes == (if .params.mode == "unicast" then .params.targets else 1 end)] | all')" = true
        # -cpu max has FEAT_TLBIOS: the outer-shareable form is the third method
        check "$name: broadcast, ipi_local, broadcast_linux (idle and busy targets), batch_linux and broadcast_os at 1..512 pages$( [ "$el" = 2 ] && echo ", and stage2_kvm")" \
            test "$(jqr '.cpu.features.tlbi_os'),$(exp_field tlbi_broadcast_vs_ipi '[.results[].params | "\(.method):\(.pages)"] | unique | length')" = true,$( [ "$el" = 2 ] && echo 28 || echo 24)
        # stage2_kvm (KVM's __kvm_tlb_flush_vmid_ipa under the tool's VMID 1): at EL2 a point per
        # page count (every other CPU a target) and method.stage2, unverified, the firmware's
        # VTCR_EL2 and VTTBR_EL2 restored; at EL1 neither, and the note why
        if [ "$el" = 2 ]; then
            check "$name: stage2_kvm at 1, 8, 64, 512 pages to $((smp - 1)) targets; method.stage2 VMID 1, not verified, restored" \
                test "$(exp_field tlbi_broadcast_vs_ipi '[.results[] | select(.params.method == "stage2_kvm") | "\(.params.pages):\(.params.targets):\(.metrics.latency.n > 0)"] | join(",")')|$(jqr '[.method.stage2 | .vmid, .linux, .verified, .restored] | map(tostring) | join(",")')" = \
                "1:$((smp - 1)):true,8:$((smp - 1)):true,64:$((smp - 1)):true,512:$((smp - 1)):true|1,__kvm_tlb_flush_vmid_ipa,false,true"
        else
            check "$name: no stage2_kvm at EL1 (no method.stage2), the note why" \
                test "$(exp_field tlbi_broadcast_vs_ipi '[([.results[] | select(.params.method == "stage2_kvm")] | length), ([.notes[] | select(test("^stage2_kvm: not measured at EL1"))] | length)] | map(tostring) | join(",")'),$(jqr '.method.stage2')" = "0,1,null"
        fi
    else
        check "$name: one CPU: the multi-CPU experiments SKIP" \
            test "$(exp_status tlbi_broadcast_vs_ipi),$(exp_status tlbi_concurrent),$(exp_status ipi_roundtrip),$(exp_status ipi_broadcast)" = SKIP,SKIP,SKIP,SKIP
    fi
    # what it runs on: QEMU's TCG names itself in the firmware's tables and no hypervisor answers
    # for itself (core/run/platform_kind.c): emulated, so every timing is labelled so
    check "$name: cpu.platform emulated (QEMU named, no SMCCC 1.1 hypervisor UID), the verdict [EMULATED]" \
        test "$(jqr '[.cpu.platform.kind, .cpu.platform.hypervisor, (.cpu.platform.evidence | test("QEMU"))] | map(tostring) | join(",")')" = emulated,QEMU,true
    check "$name: x86's shootdown_lazy and invlpgb_range SKIP with the reason (not applicable on aarch64)" \
        test "$(exp_status shootdown_lazy),$(exp_status invlpgb_range),$(exp_field invlpgb_range '.reason | startswith("not applicable on aarch64")')" = SKIP,SKIP,true
    check "$name: verdict COMPLETE, [EMULATED]" log_has '^RESULT: COMPLETE: .*\[EMULATED\]'
    check "$name: the .txt in x86's layout: Machine ... NOTE, a table row per experiment, the verdict last" \
        text_layout "Machine Firmware CPU Features Counter CPUs Order NOTE"
    validator "$name"
}

IMG=$here/build/aarch64/tlbscope.img
for smp in 1 2 4 8; do
    boot_a64 "smp$smp" "$IMG" "$smp"
    check_run "smp $smp" "$smp" 1
    [ "$smp" = 4 ] && SMP4_REPORT=$REPORT
done

# the real report through the host tool: show reads it, and compared with an x86 report
# only the experiments both architectures have are compared, the rest listed per side
X86=$here/tests/fixtures/reports/qemu-tcg-smp4-all.json
if [ -s "${SMP4_REPORT:-}" ] && [ -x "$TOOL" ]; then
    out=$("$TOOL" show "$SMP4_REPORT" 2>&1)
    check "show prints the aarch64 report (MIDR, tlbi_broadcast_vs_ipi)" \
        grep -q 'tlbi_broadcast_vs_ipi' <<<"$out"
    out=$("$TOOL" compare "$X86" "$SMP4_REPORT" 2>&1)
    check "compare x86 vs aarch64: ipi_roundtrip compared" grep -q 'ipi_roundtrip' <<<"$out"
    # by question (reports/tool/compare/arch_questions.c): this fresh report against the x86
    # QEMU sample (make samples: the x86 app's own run) answers ipi_roundtrip, the shootdown,
    # flush_ceiling and contention, each with rows on both sides
    check "compare x86 vs aarch64: ipi_roundtrip, shootdown, flush_ceiling and contention compared by question" \
        test "$("$TOOL" compare --json "$here/reports/samples/qemu-tcg-smp4-max.json" "$SMP4_REPORT" 2>/dev/null | jq -r '[.architectures.questions[] |
            select(.compared and (.rows | length) > 0) | .question] | sort | join(",")')" = \
        contention,flush_ceiling,ipi_roundtrip,shootdown
    # pti_double_invalidation needs an x86 report with PCID (QEMU's TCG has none): the Bochs
    # sample's concurrent shootdowns against this report's one and two TLBIs a page
    check "compare x86 (Bochs, PCID) vs aarch64: pti_double_invalidation compared by question" \
        test "$("$TOOL" compare --json "$here/reports/samples/bochs-skylake-x-smp2.json" "$SMP4_REPORT" 2>/dev/null | jq -r '[.architectures.questions[] |
            select(.compared and (.rows | length) > 0) | .question] | map(select(. == "pti_double_invalidation")) | join(",")')" = \
        pti_double_invalidation
    check "compare x86 vs aarch64: tlbi_range only in the aarch64 report" \
        grep -qE 'only in [^ ]+ \(aarch64\):.*tlbi_range' <<<"$(tr '\n' ' ' <<<"$out")"
    check "compare x86 vs aarch64: shootdown_seq_vs_conc only in the x86 report" \
        grep -qE 'only in [^ ]+ \(x86_64\):.*shootdown_seq_vs_conc' <<<"$(tr '\n' ' ' <<<"$out")"
else
    not_ok "the smp 4 report and build/tlbscope-report for show and compare"
fi
boot_a64 "el2-smp2" "$IMG" 2 1
check_run "EL2 smp 2" 2 2
[ -s "$REPORT" ] && check "EL2: PSCI through SMC" test "$(jqr .method.psci_conduit)" = smc

# GICv2 for older boards: the MADT's GICD entry says version 2, the app sends
# SGIs through GICD_SGIR and its CPUs poll GICC_IAR (at most 8 CPUs)
for smp in 2 4; do
    boot_a64 "gicv2-smp$smp" "$IMG" "$smp" 0 2
    check_run "GICv2 smp $smp" "$smp" 1 2
done

# configuration: `make run ARCH=aarch64 ARGS=...` writes the keys into the image's
# \tlbscope\tlbscope.cfg (scripts/qemu-run-aarch64.sh), parsed by the x86 app's parser; the
# keys the aarch64 app honours take effect, the others and the typos are named in warnings
A64_ARGS="profile=quick samples=12 experiments=ipi_roundtrip,tlbi_range,ipi_target_state exit=shutdown timeout_ms=2000 apic=x2apic sampels=3" \
    boot_a64 "config-smp2" "$IMG" 2
check "config: report saved, QEMU off (exit=shutdown)" test "$RC" = 0 -a -s "$REPORT"
check "config: ARGS reached the image's tlbscope.cfg, read from the boot volume" \
    test "$(jqr '[.run.config_file, .run.config_source] | map(tostring) | join(",")')" = true,boot_volume
check "config: the report also as latest.json and latest.txt, as make run leaves them" \
    eval 'cmp -s "$REPORT" "$RUN/latest.json" && cmp -s "${REPORT%.json}.txt" "$RUN/latest.txt"'
check "config: profile quick, 12 samples, timeout 2000 ms, exit shutdown" \
    test "$(jqr '.run.config | [.profile, .samples, .timeout_ms, .exit] | map(tostring) | join(",")')" = quick,12,2000,shutdown
check "config: the experiments as given (x86's meaning), only the two aarch64 ones ran" \
    test "$(jqr '[.run.config.experiments, [.experiments[].id]] | map(join("+")) | join(",")')" = \
    "ipi_roundtrip+tlbi_range+ipi_target_state,ipi_roundtrip+tlbi_range"
check "config: each key given from the stick's file (run.config_origins), x86's keys in run.config" \
    test "$(jqr '[.run.config_origins.samples, .run.config_origins.apic, .run.config.apic] | join(",")')" = stick,stick,x2apic
check "config: 12 samples per tlbi_range point, verified, zero stale reads" \
    test "$(exp_field tlbi_range '[.results[0].metrics.latency.n, .verification.stale_reads] | map(tostring) | join(",")')" = 12,0
check "config: x86's apic, the typo and an id no aarch64 experiment has named in warnings" \
    test "$(jqr '[.run.warnings[].message | test("apic.*no effect on aarch64|sampels.*did you mean .samples|no experiment .ipi_target_state. on aarch64")] | map(select(.)) | length')" = 3
[ -s "$REPORT" ] && validator "config"

# Two runs in one boot, as a lab's UEFI Shell script may start the app: AAVMF's shell runs a
# startup.nsh that starts it twice (exit=shell: back to the script) and then `reset -s`. The
# first run turns every secondary off with PSCI CPU_OFF and gives the GIC, TTBR0, VBAR and
# its pages back, so the second run's CPU_ON starts each CPU again (without the hand-back the
# second run got ALREADY_ON for every secondary: "1 of 4 CPUs", ERROR). twice_boot NAME IMAGE:
# the two reports in TWICE
twice_boot() {
    local nsh=$here/build/test-runs/aarch64-twice.nsh
    printf '@echo -off\r\nfs0:\r\n\\tlbscope\\tlbscope.efi\r\n\\tlbscope\\tlbscope.efi\r\necho TLBSCOPE-TWICE-DONE\r\nreset -s\r\n' >"$nsh"
    STARTUP_NSH=$nsh A64_ARGS="exit=shell samples=10 run_budget_s=0 experiments=ipi_roundtrip" boot_a64 "$1" "$2" 4
    TWICE=$(ls "$RUN"/reports/*.json 2>/dev/null)
}
# handback_of: each of the TWICE reports' verdict, CPUs ok and hand-back, a line each
handback_of() {
    # shellcheck disable=SC2086 # two file names
    jq -r '[.verdict.word, .topology.cpus_ok, .method.handback.cpus_off, (.method.handback.cpus_not_off | length),
        .method.handback.gic_distributor_restored, .method.handback.ttbr0_restored, .method.handback.vbar_restored,
        .method.handback.pages_kept] | map(tostring) | join("|")' $TWICE | paste -sd,
}
# handback_short: each report's verdict, CPUs ok, CPUs turned off and left on
handback_short() {
    # shellcheck disable=SC2086 # two file names
    jq -r '[.verdict.word, .topology.cpus_ok, .method.handback.cpus_off, (.method.handback.cpus_not_off | length)]
        | map(tostring) | join(":")' $TWICE | paste -sd,
}
twice_boot "twice-smp4" "$IMG"
check "two runs in one boot (startup.nsh): both ran, QEMU ended by the script's reset -s, two reports" \
    eval '[ "$RC" = 0 ] && [ "$(grep -c . <<<"$TWICE")" = 2 ] && log_has "^TLBSCOPE-TWICE-DONE"'
check "two runs in one boot: every CPU ok both times, the 3 secondaries off after each, the GIC, TTBR0 and VBAR given back, no page kept" \
    test "$(handback_of)" = "COMPLETE|4|3|0|true|true|true|0,COMPLETE|4|3|0|true|true|true|0"
for REPORT in $TWICE; do validator "two runs in one boot"; done

# a read-only stick: the same UEFI glue as x86's (efi/report_out.c) names the failed write in
# the run's errors and prints the whole report on the console, which scripts/recover-report.sh
# rebuilds byte for byte (its length and cksum checked) into a report validate accepts
READONLY=1 A64_ARGS="experiments=ipi_roundtrip samples=10 run_budget_s=0" boot_a64 "readonly-smp2" "$IMG" 2
check "read-only stick: no report file, the JSON on the console, RESULT ERROR" \
    eval '[ -z "$REPORT" ] && log_has "^TLBSCOPE-JSON-END bytes=" && log_has "^RESULT: ERROR"'
REPORT=$("$here/scripts/recover-report.sh" "$LOG" "$RUN/recovered" 2>/dev/null)
named=$([ -s "$REPORT" ] && jqr '[.run.errors[].message | test("EFI_WRITE_PROTECTED")] | any')
check "read-only stick: recover-report.sh rebuilds it; its errors name EFI_WRITE_PROTECTED" test "$named" = true
[ -s "$REPORT" ] && validator "read-only stick"

# upload=URL with x86's code (efi/upload.c, efi/http_client.c through the firmware's HTTP
# protocol, built against the aarch64 app's UEFI definitions): after the report is on the
# stick, the same bytes PUT to the local nginx collector over QEMU's user network, the name
# tagged with 8 random hex digits as on x86, the outcome file beside the stick's copy; then
# with no collector listening: the upload fails within its attempts and the stick keeps it
if command -v nginx >/dev/null || [ -x /usr/sbin/nginx ]; then
    collector=$here/build/test-runs/aarch64-collector
    rm -rf "$collector"
    if port=$("$here/scripts/collector.sh" start "$collector"); then
        NET=1 A64_ARGS="experiments=ipi_roundtrip samples=10 run_budget_s=0 upload=http://10.0.2.2:$port/reports" \
            boot_a64 "upload-smp2" "$IMG" 2
        "$here/scripts/collector.sh" stop "$collector"
        name=$(basename "${REPORT:-none}" .json)
        check "upload: the report's name ends in 8 random hex digits; upload=URL in run.config" \
            eval '[[ "$name" =~ -[0-9]{4}-[0-9a-f]{8}$ ]] && [ "$(jqr .run.config.upload)" = "http://10.0.2.2:$port/reports" ]'
        check "upload: the collector has the stick's very bytes, JSON and text" \
            eval 'cmp -s "$REPORT" "$collector/www/reports/$name.json" && cmp -s "${REPORT%.json}.txt" "$collector/www/reports/$name.txt"'
        outcome=${REPORT%.json}.upload
        check "upload: the outcome beside the stick's copy: succeeded, the JSON's SHA-256" \
            eval 'grep -qx state=succeeded "$outcome" && grep -qx "json_sha256=$(sha256sum "$REPORT" | cut -c1-64)" "$outcome"'
        check "upload: the console says so (HTTP 201), then TLBSCOPE DONE" \
            eval 'log_has "^Upload    succeeded: .*HTTP 201" && log_has "^TLBSCOPE DONE"'
        [ -s "$REPORT" ] && validator "upload"
        # the collector is stopped: nothing listens on its port any more; redact=on (x86's
        # code, core/report/report_redact.c): the collector's URL is a token everywhere
        NET=1 A64_ARGS="experiments=ipi_roundtrip samples=10 run_budget_s=0 upload=http://10.0.2.2:$port/reports upload_attempts=2 upload_deadline_s=10 redact=on" \
            boot_a64 "upload-refused-smp2" "$IMG" 2
        check "upload refused: FAILED after its attempts, the report still on the stick, its outcome failed" \
            eval 'log_has "^Upload    FAILED: " && [ -s "$REPORT" ] && grep -qx state=failed "${REPORT%.json}.upload"'
        check "redact=on: the upload URL a random token in run.network and run.config, both listed in the redaction record" \
            test "$(jqr '[.redaction.fields == ["run.network.upload_url", "run.config.upload"], (.run.config.upload | startswith("redacted:random:")),
                (.run.network.upload_url | startswith("redacted:random:"))] | all')" = true
        check "redact=on: the collector's address nowhere in the JSON, the .txt or the console" \
            eval '! grep -aq "10\.0\.2\.2" "$REPORT" "${REPORT%.json}.txt" "$LOG"'
        # UEFI HTTP boot from the collector (x86's efi/netboot.c): tlbscope.cfg from beside the
        # binary, the report on the console only, uploaded, under redact=on every address a token
        if port=$("$here/scripts/collector.sh" start "$collector"); then
            NETBOOT=http BOOT_URL=http://10.0.2.2:$port BOOT_DIR=$collector/www \
                A64_ARGS="experiments=ipi_roundtrip samples=10 run_budget_s=0 redact=on upload=http://10.0.2.2:$port/reports" \
                boot_a64 "httpboot-smp2" "$IMG" 2
            "$here/scripts/collector.sh" stop "$collector"
            check "HTTP boot: run.network boot http, tlbscope.cfg from the boot server (http)" \
                test "$(jqr '[.run.network.boot, .run.config_source, .run.config_file] | map(tostring) | join(",")')" = http,http,true
            check "HTTP boot: the console's copy is the collector's, byte for byte" \
                eval 'cmp -s "$REPORT" "$collector/www/reports/$(basename "$REPORT")"'
            check "HTTP boot, redact=on: MAC, IP, boot and upload URLs are tokens; no 10.0.2.x anywhere in the report" \
                eval '[ "$(jqr "[.run.network.mac, .run.network.ip, .run.network.boot_url, .run.network.upload_url] | map(startswith(\"redacted:\")) | all")" = true ] && ! grep -q "10\.0\.2\." "$REPORT"'
            [ -s "$REPORT" ] && validator "HTTP boot"
        fi
    else
        not_ok "upload: the collector did not start (scripts/collector.sh)"
    fi
else
    skip "aarch64 upload" "nginx is not installed (scripts/deps.sh test)"
fi

# PXE/TFTP boot (x86's efi/netboot.c, built against the aarch64 app's UEFI definitions): no
# stick; tlbscope.cfg from QEMU's TFTP server beside the binary; the report on the console
NETBOOT=tftp A64_ARGS="experiments=ipi_roundtrip samples=10 run_budget_s=0" boot_a64 "tftpboot-smp2" "$IMG" 2
check "TFTP boot: run.network boot pxe_tftp with its boot URL, MAC and IP; tlbscope.cfg by TFTP, its SHA-256 kept" \
    test "$([ -s "$REPORT" ] && jqr '.run | [.network.boot, .network.boot_url, (.network.mac | test("^52:54:00")), .network.ip, .config_source,
        (.network.config_sha256 | length)] | map(tostring) | join(",")')" = "pxe_tftp,tftp://10.0.2.2/BOOTAA64.EFI,true,10.0.2.15,tftp,64"
check "TFTP boot: the run took the server's keys (one experiment, 10 samples), COMPLETE" \
    eval '[ "$(exp_field ipi_roundtrip ".results[0].metrics.latency.n")" = 10 ] && log_has "^RESULT: COMPLETE"'
[ -s "$REPORT" ] && validator "TFTP boot"

# the profiles' samples paced to run_budget_s (core/exp/arm64/a64_pace.h): 1000 configured, a
# 12 s budget over three experiments (tlbi_broadcast_vs_ipi's 24 points at -smp 2 need about 6 s
# at the floor under TCG); every point takes at least the floor (50), cheap ones more,
# the record says so in its plan, and the run keeps to its budget (the floor's overrun aside)
A64_ARGS="samples=1000 run_budget_s=12 experiments=ipi_roundtrip,tlbi_broadcast_vs_ipi,tlbi_range" \
    boot_a64 "paced-smp2" "$IMG" 2
paced() { # experiment: planned, 50 <= n <= 1000 on every point, some point above the floor
    exp_field "$1" '[.plan.samples_configured, .plan.samples_min >= 50, .plan.samples_max > 50,
        ([.results[].metrics.latency.n] | (min >= 50 and max <= 1000)),
        ([.results[].metrics.latency.p50_ci95] | all(. != null)),
        .plan.samples_achieved == ([.results[].metrics.latency.n] | add)] | map(tostring) | join(",")'
}
for x in tlbi_broadcast_vs_ipi tlbi_range; do
    check "paced: $x's points take 50 to 1000 samples, each with its interval, the plan says so" \
        test "$(paced $x)" = 1000,true,true,true,true,true
done
check "paced: the experiments keep to about their 12 s (share + the floor's overrun < 20 s)" \
    test "$(jqr '[.experiments[].duration_ms] | add < 20000')" = true
# ipi_roundtrip tells its target the count before the point: the pilot's floor, then what the
# share buys; every ping one IRQ entry
check "paced: ipi_roundtrip planned, 50 to 1000 round trips, one IRQ entry each" \
    test "$(exp_field ipi_roundtrip '[.plan.samples_configured, (.results[] | .metrics.latency.n >= 50 and
        .metrics.latency.n <= 1000 and (.values.irq_entries - .metrics.latency.n | . == 0 or . == 1))] | map(tostring) | join(",")')" = 1000,true
[ -s "$REPORT" ] && validator "paced"

# a CPU without FEAT_TLBIRANGE (Cortex-A72, Armv8.0): flush_ceiling's single-page path is one
# VAE1IS per page, and Linux switches to flush_tlb_mm from MAX_DVM_OPS = 512 pages
A64_CPU=cortex-a72 A64_ARGS="experiments=flush_ceiling samples=10 run_budget_s=0" boot_a64 "a72-smp2" "$IMG" 2
check "Cortex-A72: no FEAT_TLBIRANGE; flush_ceiling SUCCESS, zero stale reads" \
    eval '[ "$(jqr .cpu.features.tlbi_range)" = false ] && tlbi_ok flush_ceiling'
check "Cortex-A72: flush_ceiling per_page vs full_asid, 20 points; Linux's ceiling 512" \
    test "$(exp_field flush_ceiling '[([.results[].params.mode] | unique | join("+")), (.results | length),
        ([.summary[].values.linux_ceiling] | map(tostring) | join("+"))] | map(tostring) | join(",")')" = "full_asid+per_page,20,512"
[ -s "$REPORT" ] && validator "Cortex-A72"

# two NUMA nodes in the one socket (NUMA=2: QEMU's SRAT gives CPUs 0-1 node 0, 2-3 node 1; its
# PPTT puts all four cores directly under the socket): ipi_roundtrip's classes from the PPTT
# and the SRAT, the pairs across the nodes their own class (core/run/topo_arm64.c)
NUMA=2 A64_ARGS="experiments=ipi_roundtrip samples=10 run_budget_s=0" boot_a64 "numa2-smp4" "$IMG" 4
check "two NUMA nodes: classes from pptt+srat, 4 pairs same_package, 8 same_package_other_node" \
    test "$(jqr '[.topology.class_source, .topology.classes.same_package, .topology.classes.same_package_other_node]
        | map(tostring) | join(",")')" = "pptt+srat,4,8"
check "two NUMA nodes: ipi_roundtrip's pairs 0->1 within node 0, 0->2 across the nodes" \
    test "$(exp_field ipi_roundtrip '[.status, (.results[] | select(.params.initiator == 0) | "\(.params.target):\(.params.class)")]
        | join(",")')" = "SUCCESS,1:same_package,2:same_package_other_node,3:same_package_other_node"
[ -s "$REPORT" ] && validator "two NUMA nodes"

# big machines on QEMU's GICv3: per-CPU state and stacks from the firmware (efi/arm64/main.c
# percpu_alloc), each CPU's redistributor found in the MADT's GICR ranges; timeout_ms 20 s: TCG
# runs every vCPU on a few host cores, and at 1 s a descheduled vCPU was taken for a hung CPU
# (3 of 64, measured). QEMU's virt holds 123 redistributors in its first range and puts the
# rest in a second at 256 GiB, which AAVMF's page tables leave unmapped (the app maps it in its
# own, arch/arm64/paging.c; before, its first GICR_TYPER read there faulted).
# big_boot CPUS RANGES EXPERIMENTS: RANGES, method.gicr_ranges as redistributors:mapped_by;
# tlbi_broadcast_vs_ipi verifies every CPU's reads after every shootdown, ipi_broadcast (where
# asked) reaches all the others by each SGI mode
big_boot() {
    local n=$1 ranges=$2 exps=$3
    TIMEOUT=1200 A64_ARGS="experiments=$exps samples=10 run_budget_s=0 timeout_ms=20000" \
        boot_a64 "smp$n" "$IMG" "$n"
    check "$n CPUs, GICv3: every CPU ok, the run COMPLETE, the broadcast TLBI verified clean" \
        eval '[ -s "$REPORT" ] && [ "$(jqr "[.topology.cpu_count, .topology.cpus_ok, .verdict.word] | map(tostring) | join(\",\")")" = '"$n,$n"',COMPLETE ] &&
              tlbi_ok tlbi_broadcast_vs_ipi'
    check "$n CPUs: every method's shootdown targets all $((n - 1)) others (EL1, -cpu max: six methods)" \
        test "$(exp_field tlbi_broadcast_vs_ipi "[.results[] | select(.params.targets == $((n - 1))) | .params.method] | unique | join(\",\")")" = \
        "batch_linux,broadcast,broadcast_linux,broadcast_linux_busy,broadcast_os,ipi_local"
    check "$n CPUs: the GICR ranges used, redistributors:whose tables map it $ranges" \
        test "$(jqr '[.method.gicr_ranges[] | "\(.redistributors):\(.mapped_by)"] | join(",")')" = "$ranges"
    if [[ ,$exps, == *,ipi_broadcast,* ]]; then
        check "$n CPUs: ipi_broadcast reaches all $((n - 1)) others, all_but_self too" \
            test "$(exp_field ipi_broadcast "[.results[] | select(.params.targets == $((n - 1))) | .params.mode] | sort | join(\",\")")" = \
            "all_but_self,target_list,unicast"
    fi
    if [[ ,$exps, == *,tlbi_concurrent,* ]]; then
        # every CPU initiating at once, each on its own pages within the one level-3 table
        # (concurrent_plan.h: 512 / CPUs a piece past 64)
        local per=$((512 / n > 8 ? 8 : 512 / n))
        check "$n CPUs: tlbi_concurrent up to all $n initiating, $per pages each, zero stale reads" \
            test "$(exp_field tlbi_concurrent "[.status, .verification.stale_reads, ([.results[].params.initiators] | max),
                ([.results[].params.pages] | unique | map(tostring) | join(\"+\"))] | map(tostring) | join(\",\")")" = "SUCCESS,0,$n,$per"
    fi
    [ -s "$REPORT" ] && validator "$n CPUs"
}
# a Graviton-sized machine, every CPU shot down and verified (about 70 s on 2 quiet host cores)
big_boot 64 64:firmware tlbi_broadcast_vs_ipi

if [ "${TLBSCOPE_TEST_FULL:-0}" = 1 ]; then
    # QEMU's only shape with two GICR ranges (boot 20 s, run 273 s measured), and past 64
    # CPUs tlbi_concurrent's initiators take 4 pages each (concurrent_plan.h)
    big_boot 128 123:firmware,5:tlbscope ipi_broadcast,tlbi_broadcast_vs_ipi,tlbi_concurrent
    if build_image build/a64-skip -DSKIP_CPU=2; then
        boot_a64 "skip-cpu2" "$here/build/a64-skip/aarch64/tlbscope.img" 4
        check "CPU 2 never started: absent, named, the run partial and ERROR" \
            test "$(jqr '[.topology.cpus[2].state, .run.status, .verdict.word] | join(",")')" = absent,partial,ERROR
        check "CPU 2 never started: the others still shoot down, zero stale reads" tlbi_ok tlbi_broadcast_vs_ipi
        check "CPU 2 never started: ipi_broadcast to the 2 others, all_but_self left out with a note" \
            test "$(exp_field ipi_broadcast '[.status, ([.results[].params.targets] | max),
                ([.results[] | select(.params.mode == "all_but_self")] | length),
                ([.notes[] | select(test("all_but_self: not measured"))] | length)] | map(tostring) | join(",")')" = SUCCESS,2,0,1
    else
        not_ok "the SKIP_CPU=2 build"
    fi
    if build_image build/a64-fault -DFAULT_CPU=3; then
        boot_a64 "fault-cpu3" "$here/build/a64-fault/aarch64/tlbscope.img" 4
        # ESR bits [31:26] EC 0x25 (data abort, same EL) put 0x94..0x97 in the top byte
        check "CPU 3 faults: faulted, run partial, ESR a data abort (EC 0x25), FAR the address read" \
            test "$(jqr '.topology.cpus[3] as $c | [$c.state, .run.status, ($c.fault.esr | test("^0x9[4-7][0-9a-f]{6}$")), $c.fault.far] | map(tostring) | join(",")')" = faulted,partial,true,0x7f0000000000
        check "CPU 3 faults: the other CPUs still verified, zero stale reads" tlbi_ok tlbi_broadcast_vs_ipi
    else
        not_ok "the FAULT_CPU=3 build"
    fi
    # mutant 96 arm_local_not_broadcast: the broadcast method invalidates only the initiator
    if build_image build/a64-m96 -DTLBSCOPE_MUTANT=96; then
        boot_a64 "mutant96" "$here/build/a64-m96/aarch64/tlbscope.img" 2
        check "mutant arm_local_not_broadcast killed: tlbi_broadcast_vs_ipi FAILURE with stale reads" \
            test "$(exp_status tlbi_broadcast_vs_ipi),$(( $(exp_field tlbi_broadcast_vs_ipi .verification.stale_reads) > 0 ))" = FAILURE,1
    else
        not_ok "the mutant 96 build"
    fi
    # mutants 186 arm_irq_ping_wrong_id (the handler bumps the ping counter for SGI_CMD) and
    # 187 arm_irq_no_eoi (no EOI: the SGI stays active, the next ping is never signalled):
    # ipi_roundtrip ends ERROR within its deadline (timeout_ms per ping), the target named hung
    for spec in 186:arm_irq_ping_wrong_id:0 187:arm_irq_no_eoi:1; do
        IFS=: read -r id mutant answered <<<"$spec"
        if build_image "build/a64-m$id" "-DTLBSCOPE_MUTANT=$id"; then
            A64_ARGS="experiments=ipi_roundtrip timeout_ms=500" \
                boot_a64 "mutant$id" "$here/build/a64-m$id/aarch64/tlbscope.img" 2
            # the count the target was told: the pace's first point takes the floor (50)
            check "mutant $mutant killed: ipi_roundtrip ERROR, $answered of the round trips, CPU 1 hung" \
                test "$(exp_status ipi_roundtrip),$(exp_field ipi_roundtrip \
                    "[.notes[] | select(test(\"^cpu 1: $answered of [0-9]+ round trips\"))] | length"),$(jqr '.topology.cpus[1].state')" = ERROR,1,hung
        else
            not_ok "the mutant $id build"
        fi
    done
    # mutant 117 a64_cpu_off_skipped: the secondaries never call CPU_OFF, so PSCI still has
    # them ON; the first run names them, the second gets ALREADY_ON for every one
    if build_image build/a64-m117 -DTLBSCOPE_MUTANT=117; then
        twice_boot "mutant117" "$here/build/a64-m117/aarch64/tlbscope.img"
        check "mutant a64_cpu_off_skipped killed: 3 CPUs left on after the first run, the second runs on the BSP alone (ALREADY_ON)" \
            eval '[ "$(handback_short)" = "ERROR:4:0:3,ERROR:1:0:3" ] &&
                  [ "$(jq -r "[.topology.cpus[1:][].note | select(test(\"ALREADY_ON\"))] | length" $(tail -n1 <<<"$TWICE"))" = 3 ]'
    else
        not_ok "the mutant 117 build"
    fi
else
    skip "128 CPUs, absent CPU, faulting CPU and mutants 96, 117, 186, 187 under QEMU" "TLBSCOPE_TEST_FULL=1 (make test-full)"
fi
