/*
 * The SMI counter on the calling CPU, started before an experiment and
 * stopped after it (core/run/conditions.h). Every access goes through the #GP
 * probe; the first that fails is recorded with its MSR and exception, and
 * the CPU then counts nothing. The PMC is left as it was found: its select
 * and count are saved before, restored after.
 */
#include "asm/pmc.h"
#include "asm/power.h"
#include "asm/probe.h"
#include "core/run/conditions.h"
#include "core/run/conditions_smi.h"

static bool smi_access(struct cond_cpu_sample *s, uint32_t fault, uint32_t msr,
                       enum smi_failure kind)
{
    if (fault == PROBE_OK)
        return true;
    s->smi_failure = kind;
    s->smi_fault = fault;
    s->smi_msr = msr;
    return false;
}

/*
 * A free counter, highest first (firmware and other tools start from 0): one
 * whose select has En clear. Its select and count are saved in `s`.
 */
static bool pmc_choose(struct cond_cpu_sample *s, bool ext_core, struct amd_pmc *out)
{
    uint32_t i = amd_pmc_counters(ext_core);
    while (i-- > 0) {
        struct amd_pmc p = amd_pmc_msrs(ext_core, i);
        uint64_t ctl;
        if (!smi_access(s, power_read_msr(p.ctl, &ctl), p.ctl, SMI_READ_FAULT))
            return false;
        if (ctl & AMD_EVTSEL_EN)
            continue;
        if (!smi_access(s, power_read_msr(p.ctr, &s->pmc_saved_ctr), p.ctr, SMI_READ_FAULT))
            return false;
        s->pmc_index = i;
        s->pmc_saved_ctl = ctl;
        *out = p;
        return true;
    }
    s->smi_failure = SMI_NO_FREE_COUNTER;
    return false;
}

static void pmc_start(struct cond_cpu_sample *s, bool ext_core)
{
    struct amd_pmc p;
    if (!pmc_choose(s, ext_core, &p))
        return;
    s->pmc_select = amd_pmc_select(AMD_EVENT_LS_SMI_RX);
    /* zero the count while the counter is still disabled, then enable it */
    if (!smi_access(s, power_write_msr(p.ctr, 0), p.ctr, SMI_WRITE_FAULT) ||
        !smi_access(s, power_write_msr(p.ctl, s->pmc_select), p.ctl, SMI_WRITE_FAULT)) {
        power_write_msr(p.ctr, s->pmc_saved_ctr);
        return;
    }
    /* an emulator may take the write and drop it: the select must read back */
    if (!smi_access(s, power_read_msr(p.ctl, &s->pmc_select_read), p.ctl, SMI_READ_FAULT) ||
        s->pmc_select_read != s->pmc_select) {
        if (s->smi_failure == SMI_COUNTED) {
            s->smi_failure = SMI_SELECT_LOST;
            s->smi_msr = p.ctl;
        }
        power_write_msr(p.ctl, s->pmc_saved_ctl);
        power_write_msr(p.ctr, s->pmc_saved_ctr);
        return;
    }
    smi_access(s, power_read_msr(p.ctr, &s->smi), p.ctr, SMI_READ_FAULT);
}

void smi_counter_start(enum smi_method m, bool ext_core, struct cond_cpu_sample *s)
{
    s->smi = 0;
    s->smi_failure = SMI_COUNTED;
    if (m == SMI_METHOD_MSR34)
        smi_access(s, power_read_msr(MSR_SMI_COUNT, &s->smi), MSR_SMI_COUNT, SMI_READ_FAULT);
    else if (m == SMI_METHOD_PMC)
        pmc_start(s, ext_core);
    else
        s->smi_failure = SMI_NOT_TRIED;
}

void smi_counter_stop(enum smi_method m, bool ext_core, const struct cond_cpu_sample *start,
                      struct cond_cpu_sample *s)
{
    struct amd_pmc p;
    s->smi = 0;
    s->smi_failure = SMI_COUNTED;
    if (start->smi_failure != SMI_COUNTED) {
        s->smi_failure = SMI_NOT_TRIED;
        return;
    }
    if (m == SMI_METHOD_MSR34) {
        smi_access(s, power_read_msr(MSR_SMI_COUNT, &s->smi), MSR_SMI_COUNT, SMI_READ_FAULT);
        return;
    }
    p = amd_pmc_msrs(ext_core, start->pmc_index);
    smi_access(s, power_read_msr(p.ctr, &s->smi), p.ctr, SMI_READ_FAULT);
    /* disabled first (its own select as found), then the count it had */
    power_write_msr(p.ctl, start->pmc_saved_ctl);
    power_write_msr(p.ctr, start->pmc_saved_ctr);
}
