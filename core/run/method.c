#include "core/run/method.h"
#include "core/machine/amd_boot.h"
#include "core/machine/emulate.h"
#include "asm/cpu.h"
#include "asm/probe.h"
#include "asm/trap.h"
#include "asm/features.h"
#include "core/run/hw_policy.h"
#include "core/machine/linux_apic.h"
#include "core/lib/mem.h"
#include "core/mutant.h"
#include "core/machine/smp.h"
#include "core/lib/strbuf.h"

bool method_pcid_needs_microcode(const struct run *r)
{
    return arch_has_feature(&r->cpu, ARCH_FEAT_PCID) &&
           errata_invlpg_global_fixed(r->cpu.vendor_id, r->cpu.family, r->cpu.model) != 0;
}

void method_choose_pcids(struct run *r, bool microcode_known, uint32_t microcode)
{
    struct method_info *m = &r->method;
    const struct invlpg_global_check *e = &m->pcid_erratum;
    char ucode[48];
    errata_check_invlpg_global(&r->cpu, microcode_known, microcode, &m->pcid_erratum);
    if (microcode_known)
        fmt_into(ucode, sizeof(ucode), "0x%x", microcode);
    else
        fmt_into(ucode, sizeof(ucode), "unknown (MSR 0x8B not readable)");
    if (!arch_has_feature(&r->cpu, ARCH_FEAT_PCID)) {
        fmt_into(m->pcid_reason, sizeof(m->pcid_reason),
                 "off: no PCID (CPUID.01H:ECX[17] = 0, ECX = 0x%08x)", r->cpu.evidence.leaf1_ecx);
        return;
    }
    /*
     * Linux's setup_pcid(): with the erratum, an INVLPG of a kernel (global)
     * mapping would leave the old translation behind, and the tool would
     * report the CPU's stale read as a finding when it chose PCID itself.
     * Without PCID, INVLPG drops global entries on these CPUs as on others.
     */
    if (e->affected && !MUTANT(pcid_kept_on_affected)) {
        fmt_into(m->pcid_reason, sizeof(m->pcid_reason),
                 "off: erratum " ERRATUM_INVLPG_GLOBAL " (Intel ADL063/RPL042: INVLPG with "
                 "CR4.PCIDE = 1 may keep global translations) on CPU %s, %s, microcode %s "
                 "(fixed from 0x%x): measured without PCID, as Linux does",
                 e->cpu, e->model_name, ucode, e->fixed_microcode);
        return;
    }
    m->pcid_enabled = true;
    m->kernel_pcid = 1;
    m->user_pcid = 1 | 0x800;
    if (e->listed)
        fmt_into(m->pcid_reason, sizeof(m->pcid_reason),
                 "on: CPU %s, %s, microcode %s has the fix for erratum " ERRATUM_INVLPG_GLOBAL
                 " (fixed from 0x%x)", e->cpu, e->model_name, ucode, e->fixed_microcode);
    else
        fmt_into(m->pcid_reason, sizeof(m->pcid_reason),
                 "on: CPUID.01H:ECX[17] = 1; kernel PCID 0x1, user 0x801 (Linux's numbering)");
}

void method_collect_microcode(struct run *r, const struct smp *smp)
{
    const struct invlpg_global_check *e = &r->method.pcid_erratum;
    uint32_t i, first = 0;
    bool have = false;
    r->microcode_uniform = true;
    for (i = 0; i < smp->count; i++) {
        const struct percpu *pc = smp->cpu[i];
        if (!pc || !pc->microcode_valid || r->topo.cpus[i].state == CPU_ABSENT)
            continue;
        r->topo.cpus[i].microcode = pc->microcode;
        r->topo.cpus[i].microcode_valid = true;
        if (have && pc->microcode != first)
            r->microcode_uniform = false;
        first = have ? first : pc->microcode;
        have = true;
        /* PCID was chosen from the BSP's revision, as Linux does: say so if an AP lags */
        if (r->method.pcid_enabled && e->listed && pc->microcode < e->fixed_microcode)
            msg_add(&r->warnings, "microcode",
                    "CPU %u runs microcode 0x%x, below 0x%x, the first with the fix for erratum "
                    ERRATUM_INVLPG_GLOBAL ", but PCID is on (chosen from CPU 0's revision): a "
                    "stale read of a global page on it may be the erratum",
                    i, pc->microcode, e->fixed_microcode);
    }
    if (!r->microcode_uniform)
        msg_add(&r->warnings, "microcode", "CPUs run different microcode revisions");
}

void method_collect_cpu_settings(struct run *r, const struct smp *smp)
{
    struct efer_tce_info *t = &r->method.efer_tce;
    struct lfence_info *l = &r->method.lfence;
    uint32_t i;
    mem_zero(t, sizeof(*t));
    mem_zero(l, sizeof(*l));
    t->supported = r->cpu.tce;
    l->source = lfence_source_name(amd_boot_lfence_source(&r->cpu));
    for (i = 0; i < smp->count; i++) {
        const struct percpu *pc = smp->cpu[i];
        if (!pc || r->topo.cpus[i].state == CPU_ABSENT)
            continue;
        t->cpus++;
        t->cpus_found += pc->tce_found;
        t->cpus_used += pc->tce_used;
        l->cpus++;
        l->cpus_found += pc->lfence_found;
        l->cpus_used += pc->lfence_used;
    }
    l->found = l->cpus && l->cpus_found == l->cpus;
    l->used = l->cpus && l->cpus_used == l->cpus;
    /* a guest's DE_CFG is whatever its hypervisor shows (QEMU's TCG reads 0 and ignores the
     * write): the host decides; method.lfence records it all the same */
    if (!l->used && !r->cpu.hypervisor)
        msg_add(&r->warnings, "lfence",
                "LFENCE dispatch-serialising on %u of %u CPUs (DE_CFG[1], MSR C001_1029, "
                "could not be set on the others): their timestamps may be taken before "
                "earlier instructions complete", l->cpus_used, l->cpus);
    t->found = t->supported && t->cpus && t->cpus_found == t->cpus;
    t->used = t->supported && t->cpus && t->cpus_used == t->cpus;
    if (t->supported && !t->used)
        msg_add(&r->warnings, "efer_tce",
                "EFER.TCE set on %u of %u CPUs (Linux sets it on every CPU): INVLPG and INVLPGB "
                "on the others also empty the page-walk cache", t->cpus_used, t->cpus);
}

unsigned method_paging_levels(uint64_t firmware_cr4)
{
    /*
     * CR4.LA57 cannot change in long mode (SDM vol. 3A, 4.1.1: MOV to CR4
     * that would change it #GPs): the tool's tables must have the depth of
     * the firmware's paging mode, 5 levels when it runs with LA57.
     */
    if ((firmware_cr4 & CR4_LA57) && !MUTANT(la57_four_levels))
        return 5;
    return 4;
}

void method_apply_probes(struct run *r, uint32_t invpcid, uint32_t invlpgb, uint32_t tlbsync)
{
    /*
     * Linux's flush_tlb_local() is a CR3 write whatever the CPU has: that is
     * the full flush measured. INVPCID single-context is the named variant,
     * measured as its own points where the CPU has it (or emulate=invpcid).
     */
    r->method.full_flush = "cr3_reload";
    bool has_invpcid = arch_has_feature(&r->cpu, ARCH_FEAT_INVPCID);
    /* from the probe, not CPUID alone: CPUID can claim INVPCID a hypervisor does not run */
    r->method.invpcid_probe_ok = hw_invpcid_usable(has_invpcid, invpcid);
    if (has_invpcid && invpcid != PROBE_OK)
        msg_add(&r->warnings, "probe", "CPUID reports INVPCID but it raised %s%s",
                exception_name(invpcid - 1),
                (r->cfg.emulate & EMULATE_INVPCID) ? ": emulated (emulate=invpcid)" : "");
    switch (hw_invpcid_source(has_invpcid, invpcid, (r->cfg.emulate & EMULATE_INVPCID) != 0)) {
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
    if (arch_has_feature(&r->cpu, ARCH_FEAT_INVLPGB)) {
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

const char *method_linux_ipi_mode(const struct run *r, char *reason, size_t cap)
{
    const struct acpi_info *a = &r->fw.acpi;
    struct linux_apic_inputs in;
    mem_zero(&in, sizeof(in));
    in.cpu_x2apic = r->cpu.x2apic;
    in.firmware_x2apic = r->firmware_x2apic;
    in.hypervisor_kvm = str_eq(r->cpu.hypervisor_vendor, "KVMKVMKVM");
    in.has_fadt = a->has_fadt;
    in.fadt_revision = a->fadt_revision;
    in.fadt_flags = a->fadt_flags;
    in.has_dmar = a->has_dmar;
    in.has_ivrs = a->has_ivrs;
    in.dmar_flags = a->dmar_flags;
    in.cpus = r->topo.count;
    return linux_apic_mode(&in, reason, cap);
}

bool method_linux_cluster_ipis(const struct run *r)
{
    char reason[200];
    return str_eq(method_linux_ipi_mode(r, reason, sizeof(reason)), "x2apic_cluster") &&
           str_eq(r->method.apic_mode, "x2apic") && !MUTANT(cluster_only_seq_conc);
}
