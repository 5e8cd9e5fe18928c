/* tlbi_broadcast_vs_ipi's stage2_kvm method: see stage2_tlbi.h. */
#include "core/exp/arm64/stage2_tlbi.h"

#include "asm/barrier.h"
#include "asm/paging.h"
#include "asm/percpu.h"
#include "asm/smp.h"
#include "asm/stage2.h"
#include "asm/tlbi.h"
#include "core/exp/arm64/a64_exp.h"
#include "core/exp/arm64/experiments.h"
#include "core/mutant.h"

/* what each CPU held before (the firmware's), indexed by CPU; loaded[] says which to restore */
static struct stage2_regs saved[MAX_CPUS];
static bool loaded[MAX_CPUS];
/* the firmware runs EL2 as a VHE host (E2H and TGE): stage2_kvm left out (asm/stage2.h) */
static bool host_in_el20;

/* a CPU's switch: arg0 VTCR_EL2, arg1 VTTBR_EL2; result0/1 what they held */
static void fn_switch(struct percpu *pc)
{
    struct stage2_regs old;
    stage2_switch(pc->arg[0], pc->arg[1], &old);
    pc->result[0] = old.vtcr;
    pc->result[1] = old.vttbr;
}

/* every other usable CPU switched to (vtcr, vttbr), or to its own saved[] with `restore` */
static bool switch_others(struct arm64_run *run, bool restore, uint64_t vtcr, uint64_t vttbr)
{
    unsigned others[MAX_CPUS], n = a64_others(others), i;
    bool ok = true;
    for (i = 0; i < n; i++) {
        unsigned c = others[i];
        if (restore && !loaded[c])
            continue;
        smp_post(c, fn_switch, restore ? saved[c].vtcr : vtcr, restore ? saved[c].vttbr : vttbr, 0);
        if (smp_wait(c, a64_timeout_ticks(run)) != 0) {
            a64_cpu_lost(run, c, "tlbi_broadcast_vs_ipi stage2_kvm");
            ok = false;
            continue;
        }
        if (!restore) {
            saved[c].vtcr = percpu[c].result[0];
            saved[c].vttbr = percpu[c].result[1];
        }
        loaded[c] = !restore;
    }
    return ok;
}

bool stage2_kvm_enter(struct arm64_run *run, struct experiment_record *e)
{
    uint64_t vtcr = stage2_vtcr((unsigned)(run->cpu.mmfr0 & 0xf));
    uint64_t vttbr = stage2_vttbr(stage2_root_pa(), STAGE2_KVM_VMID);
    host_in_el20 = stage2_host_in_el20();
    if (host_in_el20)
        return false;
    stage2_switch(vtcr, vttbr, &saved[0]);
    loaded[0] = true;
    run->stage2_vmid = STAGE2_KVM_VMID;
    run->stage2_vttbr_found = saved[0].vttbr;
    if (switch_others(run, false, vtcr, vttbr))
        return true;
    e->partial = true;
    stage2_kvm_leave(run, e);
    return false;
}

void stage2_kvm_leave(struct arm64_run *run, struct experiment_record *e)
{
    struct stage2_regs mine;
    run->stage2_restored = switch_others(run, true, 0, 0);
    if (!run->stage2_restored)
        e->partial = true;
    if (loaded[0])
        stage2_switch(saved[0].vtcr, saved[0].vttbr, &mine);
    loaded[0] = false;
}

void stage2_kvm_flush(uint32_t pages, bool ttl)
{
    uint32_t i;
    dsb_ishst(); /* enter_vmid_context(): the stage-2 descriptor stores before the TLBIs */
    for (i = 0; i < pages; i++)
        tlbi_ipa_s2_is(frame_pa(0, i), ttl ? TLBI_TTL_4K_L3 : TLBI_TTL_NONE);
    /* complete at stage 2 first: a walk on another CPU could otherwise refill a combined
     * stage 1+2 entry from the old stage 2 after the stage-1 invalidation */
    if (!MUTANT(a64_s2_no_dsb_before_vmall))
        dsb_ish();
    /* combined entries are tagged by VA, not IPA: only all of the VMID's stage 1 drops them */
    if (!MUTANT(a64_s2_vmall_dropped))
        tlbi_vmid_all_is();
    dsb_ish();
    isb();
}

void stage2_kvm_note(const struct arm64_run *run, struct experiment_record *e, bool measured, bool ttl)
{
    if (!measured && run->el != 2) {
        record_note(e, "stage2_kvm: not measured at EL%u: a guest kernel cannot issue stage-2 TLBIs (IPAS2E1IS is "
                       "EL2's), the hypervisor above it does", run->el);
        return;
    }
    if (!measured && host_in_el20) {
        record_note(e, "stage2_kvm: not measured: HCR_EL2 has E2H and TGE set (the firmware runs EL2 as a VHE "
                       "host), where TLBI VMALLE1IS acts on the EL2&0 regime, not on a VMID; KVM clears TGE first "
                       "(__tlb_switch_to_guest), the tool does not change HCR_EL2");
        return;
    }
    if (!measured) {
        record_note(e, "stage2_kvm: not measured: a CPU did not take the tool's VMID (see run.errors)");
        return;
    }
    record_note(e, "stage2_kvm: KVM's __kvm_tlb_flush_vmid_ipa for the pages' IPAs under VMID %u: DSB ISHST, TLBI "
                   "IPAS2E1IS per page%s, DSB ISH, TLBI VMALLE1IS, DSB ISH, ISB; at the largest target count only "
                   "(every other CPU, in WFI)", STAGE2_KVM_VMID,
                ttl ? " with the level-3 TTL hint (FEAT_TTL)" : " without a TTL hint (no FEAT_TTL)");
    record_note(e, "stage2_kvm: not verified: HCR_EL2.VM stayed 0 and no guest ran under the tool's stage 2 (an "
                   "empty table, %u-bit IPAs, VTTBR_EL2 VMID %u on every CPU, the firmware's VTCR_EL2 and VTTBR_EL2 "
                   "back after), so no stage-2 entry was filled and nothing is read back: the row times the "
                   "broadcast invalidation sequence (method.stage2)", STAGE2_IPA_BITS, STAGE2_KVM_VMID);
    /* the IPAs are the test pages' physical addresses: RAM above the stage's input range gives
     * IPAs no entry of it could hold (the TLBIs are the same instructions, timed the same) */
    if (frame_pa(0, 0) >> STAGE2_IPA_BITS)
        record_note(e, "stage2_kvm: the pages' IPAs (0x%llx...) lie above the %u-bit stage-2 input range: the "
                       "TLBIs name addresses no entry of it could hold", (unsigned long long)frame_pa(0, 0),
                    STAGE2_IPA_BITS);
}
