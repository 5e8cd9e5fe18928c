#include "core/method.h"
#include "arch/x86/probe.h"
#include "arch/x86/trap.h"
#include "core/hw_policy.h"
#include "core/strbuf.h"

void method_choose_pcids(struct run *r)
{
    if (!r->cpu.pcid)
        return;
    r->method.pcid_enabled = true;
    r->method.kernel_pcid = 1;
    r->method.user_pcid = 1 | 0x800;
}

void method_apply_probes(struct run *r, uint32_t invpcid, uint32_t invlpgb, uint32_t tlbsync)
{
    /*
     * Linux's flush_tlb_local() is a CR3 write whatever the CPU has: that is
     * the full flush measured. INVPCID single-context is the named variant,
     * measured as its own points where the CPU has it (or emulate=invpcid).
     */
    r->method.full_flush = "cr3_reload";
    /* from the probe, not CPUID alone: CPUID can claim INVPCID a hypervisor does not run */
    r->method.invpcid_probe_ok = hw_invpcid_usable(r->cpu.invpcid, invpcid);
    if (r->cpu.invpcid && invpcid != PROBE_OK)
        msg_add(&r->warnings, "probe", "CPUID reports INVPCID but it raised %s%s",
                exception_name(invpcid - 1),
                (r->cfg.emulate & EMULATE_INVPCID) ? ": emulated (emulate=invpcid)" : "");
    switch (hw_invpcid_source(r->cpu.invpcid, invpcid, (r->cfg.emulate & EMULATE_INVPCID) != 0)) {
    case INVPCID_HARDWARE:
        r->method.full_flush_variant = "invpcid_single_context";
        break;
    case INVPCID_EMULATED:
        r->method.full_flush_variant = "invpcid_single_context";
        r->method.full_flush_emulated = true;
        break;
    default:
        break;
    }
    if (r->cpu.invlpgb) {
        uint32_t v = invlpgb != PROBE_OK ? invlpgb : tlbsync;
        r->method.invlpgb_probe_ok = v == PROBE_OK;
        if (v != PROBE_OK)
            fmt_into(r->method.invlpgb_probe_note, sizeof(r->method.invlpgb_probe_note), "%s",
                     exception_name(v - 1));
    }
}

uint64_t method_answer_timeout_ms(const struct run *r)
{
    if (config_is_set(&r->cfg, "timeout_ms"))
        return r->cfg.timeout_ms;
    /* host threads playing CPUs wait for the host's scheduler, on 2 cores for 8 CPUs */
    if (r->sim.simulated)
        return (uint64_t)r->cfg.timeout_ms * 10;
    if (r->cpu.hypervisor)
        return (uint64_t)r->cfg.timeout_ms * 5;
    return r->cfg.timeout_ms;
}
