/*
 * How the tool drives the hardware, decided from what the CPU reports and
 * what the user asked for: pure functions, so that the host tests check each
 * decision (tests/host/test_hw_policy.c) and the machine (efi/session.c) and
 * the model (sim/session.c) decide the same way.
 */
#ifndef TLBSCOPE_CORE_HW_POLICY_H
#define TLBSCOPE_CORE_HW_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "asm/apic.h"
#include "asm/cpuid.h"
#include "core/run/config.h"

struct apic_choice {
    enum apic_mode mode;
    bool request_refused;  /* apic=xapic|x2apic could not be honoured: warn with `why` */
    char why[160];         /* the reason, for method.apic_mode_reason */
};

/*
 * apic=auto follows Linux (arch/x86/kernel/apic/apic.c, check_x2apic and
 * try_to_enable_x2apic): x2APIC whenever CPUID.01H:ECX[21] says the CPU has
 * it, whatever mode the firmware left; otherwise the firmware's mode.
 * apic=x2apic needs the CPUID bit; apic=xapic needs every APIC ID <= 254
 * (xAPIC's 8-bit destination, 255 being broadcast). A refused request keeps
 * the firmware's mode.
 */
void hw_choose_apic_mode(enum apic_request req, bool cpu_x2apic, bool fw_x2apic,
                         uint32_t max_apic_id, struct apic_choice *out);

/*
 * What an emulator named by emulator= cannot do, applied to the choice above.
 * Bochs 2.7 ignores writes to IA32_APIC_BASE once its global enable is clear
 * (tried here), and x2APIC -> xAPIC must pass through "disabled" (SDM vol.
 * 3A, 11.12.5): the hand-back to an xAPIC firmware, which the BSP does before
 * every console print (takeover_bsp_leave), would leave the APIC disabled, the
 * firmware's timer silent and the run hung. So under emulator=bochs with an
 * xAPIC firmware the tool stays in xAPIC: apic=auto says why, apic=x2apic is
 * refused. Anything else is left as chosen.
 */
void hw_apic_for_emulator(enum emulator emu, enum apic_request req, bool fw_x2apic,
                          struct apic_choice *c);

/*
 * Whether an x2APIC ICR write needs MFENCE;LFENCE before it. Linux's
 * weak_wrmsr_fence() fences on every CPU with X86_FEATURE_APIC_MSRS_FENCE,
 * which identify_cpu() sets for all and init_amd()/init_hygon() clear: AMD
 * and Hygon serialise the x2APIC MSR writes; Intel, Zhaoxin, Centaur and
 * anything unknown may let WRMSR pass earlier stores. xAPIC's MMIO store to
 * the ICR is ordered like any other store: no fence.
 */
bool hw_icr_fence_needed(enum cpu_vendor vendor, enum apic_mode mode);

/* INVPCID may be used only when CPUID claims it AND the probe ran it (PROBE_OK). */
bool hw_invpcid_usable(bool cpuid_invpcid, uint32_t probe);

enum invpcid_source { INVPCID_NONE = 0, INVPCID_HARDWARE, INVPCID_EMULATED };

/*
 * Where INVPCID comes from: the CPU when CPUID claims it and the probe ran
 * it; else the test-only emulation (core/machine/emulate.c) when emulate=invpcid
 * asked for it, which also covers CPUs with PCID but no INVPCID (common in
 * VMs: the emulation switches CR3 to the PCID named); else nowhere.
 */
enum invpcid_source hw_invpcid_source(bool cpuid_invpcid, uint32_t probe, bool emulate_requested);

#endif
