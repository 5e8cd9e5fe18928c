#include "core/machine/amd_boot.h"
#include "asm/cpu.h"
#include "asm/power.h"
#include "asm/probe.h"
#include "core/machine/smp.h"
#include "core/mutant.h"

enum lfence_source amd_boot_lfence_source(const struct cpu_features *f)
{
    if (f->vendor_id != VENDOR_AMD && f->vendor_id != VENDOR_HYGON)
        return LFENCE_ARCHITECTURAL;
    return f->lfence_always_serializing ? LFENCE_CPUID : LFENCE_DE_CFG;
}

const char *lfence_source_name(enum lfence_source s)
{
    static const char *const names[] = { "architectural", "cpuid_8000_0021", "de_cfg" };
    return names[s];
}

/*
 * Through the #GP probe, as Linux's msr_set_bit() uses the safe accessors: a
 * hypervisor may enumerate TCE and still refuse the bit.
 */
static void tce_enter(const struct cpu_features *f, struct percpu *pc, struct amd_boot_saved *s,
                      bool bsp)
{
    uint64_t v;
    if (!f->tce)
        return; /* a reserved bit there */
    if (power_read_msr(MSR_EFER, &v) != PROBE_OK)
        return;
    s->efer = v;
    pc->tce_found = (v & EFER_TCE) != 0;
    if (!pc->tce_found && !(MUTANT(tce_bsp_only) && !bsp) &&
        power_write_msr(MSR_EFER, v | EFER_TCE) == PROBE_OK)
        s->efer_written = true;
    pc->tce_used = power_read_msr(MSR_EFER, &v) == PROBE_OK && (v & EFER_TCE) != 0;
}

static void lfence_enter(const struct cpu_features *f, struct percpu *pc,
                         struct amd_boot_saved *s, bool bsp)
{
    uint64_t v;
    if (amd_boot_lfence_source(f) != LFENCE_DE_CFG) {
        pc->lfence_found = pc->lfence_used = true;
        return;
    }
    if (power_read_msr(MSR_AMD_DE_CFG, &v) != PROBE_OK)
        return; /* no such MSR here (a hypervisor's): neither found nor used */
    s->de_cfg = v;
    pc->lfence_found = (v & DE_CFG_LFENCE_SERIALIZE) != 0;
    if (!pc->lfence_found && !(MUTANT(lfence_bsp_only) && !bsp) &&
        power_write_msr(MSR_AMD_DE_CFG, v | DE_CFG_LFENCE_SERIALIZE) == PROBE_OK)
        s->de_cfg_written = true;
    pc->lfence_used = power_read_msr(MSR_AMD_DE_CFG, &v) == PROBE_OK &&
                      (v & DE_CFG_LFENCE_SERIALIZE) != 0;
}

void amd_boot_enter(const struct cpu_features *f, struct percpu *pc, struct amd_boot_saved *s,
                    bool bsp)
{
    pc->tce_found = pc->tce_used = pc->lfence_found = pc->lfence_used = false;
    s->efer_written = s->de_cfg_written = false;
    if (!f)
        return;
    tce_enter(f, pc, s, bsp);
    lfence_enter(f, pc, s, bsp);
}

void amd_boot_leave(struct amd_boot_saved *s)
{
    if (s->de_cfg_written)
        (void)power_write_msr(MSR_AMD_DE_CFG, s->de_cfg);
    if (s->efer_written && !MUTANT(tce_not_restored))
        (void)power_write_msr(MSR_EFER, s->efer);
    s->efer_written = s->de_cfg_written = false;
}
