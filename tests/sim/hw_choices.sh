#!/usr/bin/env bash
# How the tool drives the hardware, on the modelled machine (issue 10, items
# 7 and 8; the decisions are core/run/hw_policy.c, unit-tested in
# tests/host/test_hw_policy.c): what the report records for each CPU vendor,
# and emulate=invpcid on a CPU with PCID but no INVPCID (as many VMs show
# it), which used to end in an unhandled #UD and now runs, labelled emulated,
# with zero stale reads on the strict TLB model.
source "$(dirname "$0")/lib.sh"

# APIC mode and ICR fence, by vendor: Linux fences x2APIC ICR writes on all but AMD and Hygon
sim intel "$SIM" --cpu xeon-8180 --cpus 2 --seed 5 profile=quick experiments=ipi_roundtrip
check "xeon-8180: clean" clean
check "xeon-8180: apic=auto -> x2apic with the reason, MFENCE;LFENCE before the ICR write" \
    test "$(jqr '[.method.apic_mode, .method.icr_fence, (.method.apic_mode_reason | startswith("apic=auto: CPUID.01H:ECX[21] = 1"))] | map(tostring) | join("|")')" = "x2apic|mfence;lfence|true"
sim amd "$SIM" --cpu epyc-9654 --cpus 2 --seed 5 profile=quick experiments=ipi_roundtrip
check "epyc-9654: apic=auto -> x2apic, no fence (AMD)" \
    test "$(jqr '[.method.apic_mode, .method.icr_fence] | join("|")')" = "x2apic|none"
check "epyc-9654: clean without the fence (the modelled AMD APIC serialises x2APIC WRMSRs)" clean
sim xapic "$SIM" --cpu xeon-8180 --cpus 2 --seed 5 profile=quick experiments=ipi_roundtrip apic=xapic
check "xeon-8180 apic=xapic: xapic, no fence (an MMIO store), the override named" \
    test "$(jqr '[.method.apic_mode, .method.icr_fence, .method.apic_mode_reason] | join("|")')" = "xapic|none|apic=xapic (firmware: x2apic)"
check "xeon-8180 apic=xapic: clean (x2APIC -> disabled -> xAPIC and back, every CPU handed back)" clean

# emulate=invpcid with PCID but no INVPCID: the full flush stays Linux's CR3 write and the
# INVPCID single-context variant (its own points) is emulated, with CR4.PCIDE on
args=(--cpu epyc-7763 --cpus 4 --seed 9 --no-invpcid profile=quick run_budget_s=0 experiments=shootdown_seq_vs_conc)
sim no-invpcid-emulated "$SIM" "${args[@]}" emulate=invpcid
check "PCID without INVPCID, emulate=invpcid: clean (exit 0, zero stale reads, validates)" clean
check "PCID without INVPCID, emulate=invpcid: CPUID change recorded, PCIDE on, INVPCID variant emulated" \
    test "$(jqr '[.simulation.cpuid_override, .cpu.features.pcid, .cpu.features.invpcid, .method.pcid_enabled, .method.full_flush, .method.full_flush_variant, .method.full_flush_emulated] | map(tostring) | join("|")')" = \
        "07.0.ebx[10] = 0 (--no-invpcid)|true|false|true|cr3_reload|invpcid_single_context|true"
check "PCID without INVPCID, emulate=invpcid: the experiment SUCCESS, labelled emulated" \
    test "$(exp_status shootdown_seq_vs_conc)/$(exp_field shootdown_seq_vs_conc .emulated)" = SUCCESS/true
check "PCID without INVPCID, emulate=invpcid: the exact shape" \
    shape_ok "$REPORT" cpus=4 profile=quick experiments=shootdown_seq_vs_conc emulate=invpcid
sim no-invpcid "$SIM" "${args[@]}"
check "PCID without INVPCID, no emulation: CR3 reload, not emulated, clean" \
    eval 'clean && [ "$(jqr "[.method.full_flush, .method.full_flush_emulated] | map(tostring) | join(\"|\")")" = "cr3_reload|false" ]'
