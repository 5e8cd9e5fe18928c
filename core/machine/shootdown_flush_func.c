/*
 * The flush itself, on the calling CPU: Linux's flush_tlb_func() and the
 * flushes it chooses between (INVLPG per page, the double invalidation under
 * PTI, a full flush of the PCID, a global flush). The same code runs on the
 * initiator, in every target's flush handler, in the concurrent initiators
 * of core/machine/shootdown_multi.c and in a lazy CPU's catch-up; it is apart
 * from the protocol around it (core/machine/shootdown.c: requests, IPIs,
 * acknowledgements) because it is what each CPU does to its own TLB and
 * depends on nothing else of the protocol: this file calls no other
 * shootdown file.
 */
#include "core/machine/shootdown.h"
#include "asm/cpu.h"
#include "asm/tlb.h"
#include "core/lib/atomic.h"
#include "core/mutant.h"

static uint64_t current_pcid(void) { return read_cr3() & CR3_PCID_MASK; }

/*
 * Everything, global entries included, in every PCID: Linux
 * __native_tlb_flush_global(), INVPCID type 2 or else a CR4.PGE toggle (a
 * CR3 write keeps global entries).
 */
void shootdown_flush_global(struct shootdown *sd)
{
    if (sd->flush_global_invpcid) {
        invpcid(INVPCID_ALL_INCLUDING_GLOBAL, 0, 0);
    } else if (!MUTANT(pge_toggle_removed)) {
        uint64_t cr4 = read_cr4();
        write_cr4(cr4 ^ CR4_PGE);
        write_cr4(cr4);
    }
}

/*
 * A full flush of the current PCID (global entries too for kernel pages).
 * Linux flush_tlb_local(): a CR3 write, and under PTI the user PCID only
 * marked (invalidate_user_asid()): it is flushed by the next return to
 * user. The named variant full_uses_invpcid: INVPCID single-context on the
 * current PCID and, under PTI, at once on the user PCID.
 */
void shootdown_flush_full(struct shootdown *sd, struct percpu *pc)
{
    if (MUTANT(full_flush_noop))
        return;
    if (sd->global_pages)
        shootdown_flush_global(sd); /* do_flush_tlb_all() of flush_tlb_kernel_range() */
    else if (sd->full_uses_invpcid)
        invpcid(INVPCID_SINGLE_CONTEXT, current_pcid(), 0);
    else
        flush_local_all();
    if (MUTANT(no_user_flush) || sd->pti == PTI_OFF)
        return;
    if (sd->full_uses_invpcid)
        invpcid(INVPCID_SINGLE_CONTEXT, sd->user_pcid, 0);
    else
        pc->user_flush_pending = 1; /* invalidate_user_asid() */
}

/* Linux flush_tlb_one_user() per page (stride 4 KiB or 2 MiB): the double invalidation under PTI. */
static void flush_pages(struct shootdown *sd, struct percpu *pc, const struct flush_request *req)
{
    uint64_t stride = req->stride_2m ? PAGE_2M : PAGE_4K;
    uint32_t i;
    if (MUTANT(target_skips_invlpg) && pc->index == 1 && req->initiator != 1)
        return;
    for (i = 0; i < req->pages; i++) {
        uint64_t va = req->start + (uint64_t)i * stride;
        invlpg((const volatile void *)(uintptr_t)va);
        if (sd->pti == PTI_INVPCID && !MUTANT(no_user_flush) &&
            !(MUTANT(pti_2m_user_invpcid_skipped) && req->stride_2m))
            invpcid(INVPCID_ADDRESS, sd->user_pcid, va);
    }
    if (sd->pti == PTI_DEFERRED && req->pages && !MUTANT(no_user_flush))
        pc->user_flush_pending = 1;
}

/* flush_tlb_func(): the same code runs on the initiator and on every target. */
static void flush_tlb_func(struct shootdown *sd, struct percpu *pc, const struct flush_request *req)
{
    uint64_t local = pc->local_tlb_gen, mm_gen;
    /* several mms only with concurrent initiators in disjoint groups (shootdown_multi.c) */
    struct mm_generation *mm = req->mm ? req->mm : &sd->mm;
    if (pc->index != req->initiator && load_acquire(&pc->tlbs.is_lazy)) {
        /*
         * Only a freed_tables request reaches a lazy CPU: Linux switches it to
         * init_mm, which drops the user translations; it is current afterwards.
         */
        shootdown_flush_full(sd, pc);
        pc->local_tlb_gen = load_acquire(&mm->tlb_gen);
        return;
    }
    if (req->new_tlb_gen <= local)
        return; /* an earlier full flush already covered this request */
    /* read the mm generation late, as Linux does: it may have moved on */
    mm_gen = load_acquire(&mm->tlb_gen);
    if (local == mm_gen)
        return;
    if (!req->full && req->new_tlb_gen == local + 1 && req->new_tlb_gen == mm_gen)
        flush_pages(sd, pc, req);
    else
        shootdown_flush_full(sd, pc);
    pc->local_tlb_gen = mm_gen;
}

void shootdown_flush_func(struct shootdown *sd, struct percpu *pc, const struct flush_request *req)
{
    flush_tlb_func(sd, pc, req);
}
