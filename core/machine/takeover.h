/*
 * Taking the CPUs over from the firmware and giving them back.
 *
 * While the tool owns a CPU it runs on the tool's GDT, IDT and page tables,
 * with its per-CPU block in IA32_GS_BASE, its APIC in the mode the tool
 * chose (TPR raised so only the tool's vectors get through, LVT timer and
 * LINT0 masked, LINT1 too on the APs), and, on the BSP, the legacy PIC
 * masked, and an NMI handler that counts NMIs (arch/x86/trap.c): no firmware
 * interrupt can run a firmware handler against the tool's state. Everything
 * is saved per CPU on entry and restored on exit, in reverse order. EFER.TCE
 * and DE_CFG[1] are set on every CPU where Linux's init_amd() sets them, and
 * given back as found (core/machine/amd_boot.h).
 *
 * On the host the same code runs on the modelled machine (sim/machine.h):
 * CR3/CR4 on the strict TLB model, the APIC on the modelled local APIC,
 * GDT/IDT and segment registers, GS base and the 8259 masks on the modelled
 * CPU, which checks at the end that each CPU is back in the firmware's state.
 */
#ifndef TLBSCOPE_CORE_TAKEOVER_H
#define TLBSCOPE_CORE_TAKEOVER_H

#include "asm/apic.h"
#include "asm/desc.h"
#include "core/machine/amd_boot.h"
#include "core/machine/smp.h"

struct tool_env {
    uint64_t cr3;          /* root of the tool's page tables (PCID 0) */
    bool pcide;            /* run with CR4.PCIDE and the kernel PCID loaded */
    uint32_t kernel_pcid;
    enum apic_mode apic_mode;
    uint64_t xapic_base;   /* physical base from IA32_APIC_BASE */
};

struct cpu_fw_env {
    struct seg_state seg;
    uint64_t cr3, cr4, gs_base, rflags;
    struct amd_boot_saved amd; /* EFER and DE_CFG as found (core/machine/amd_boot.h) */
    struct apic_saved apic;
    uint8_t pic_mask_master, pic_mask_slave;
    bool entered;
};

struct takeover {
    struct smp *smp;
    const struct cpu_features *features; /* for the microcode read on each CPU */
    struct tool_env env;
    struct cpu_fw_env *fw;   /* one per CPU, by dense index */
    uint32_t expected_aps;   /* enabled APs the firmware was asked to start */
    uint32_t mp_partial;     /* inject=mp_partial:N: the last N APs leave the MP procedure at once */
    volatile uint32_t mp_closed; /* set before the own INIT-SIPI: MP services latecomers leave */
};

bool takeover_init(struct takeover *t, struct smp *s, const struct tool_env *env,
                   const struct cpu_features *features);
/*
 * PCID for the tool's state from now on. Only while no CPU is in the tool's
 * state and before the APs start (efi/session.c decides it after a first
 * BSP entry has read the microcode revision).
 */
void takeover_set_pcid(struct takeover *t, bool pcide, uint32_t kernel_pcid);
/* BSP: enter or leave the tool's state (raise/restore TPL around these in efi/). */
void takeover_bsp_enter(struct takeover *t);
void takeover_bsp_leave(struct takeover *t);
/* AP procedure body, run by every AP that MP services starts. */
void takeover_ap_main(struct takeover *t);
/*
 * C entry of an AP the tool started by INIT-SIPI (arch/x86/ap_trampoline.S,
 * efi/ap_boot.c), on the tool's page tables and a stack of its own. Never
 * returns: released, it acknowledges and parks (cli; hlt) for good.
 */
void takeover_ap_main_own(struct takeover *t) __attribute__((noreturn));
/* BSP: waits for check-ins until `deadline`; late CPUs become absent. Returns how many checked in. */
uint32_t takeover_wait_checkins(struct takeover *t, uint64_t deadline, uint64_t window_ms);
/* BSP: asks every checked-in AP to restore the firmware's state and return.
 * Returns the number that did not acknowledge by `deadline`. */
uint32_t takeover_release(struct takeover *t, uint64_t deadline);

#endif
