/* The aarch64 shootdown mechanisms: see tlbi_flush.h. */
#include "core/exp/arm64/tlbi_flush.h"
#include "asm/barrier.h"
#include "asm/tlbi.h"
#include "core/mutant.h"

void tlbi_flush_broadcast(uint64_t va, uint32_t pages)
{
    uint32_t i;
    for (i = 0; i < pages; i++) {
        uint64_t page = va + ((uint64_t)i << TLBI_PAGE_SHIFT);
        if (MUTANT(arm_local_not_broadcast))
            tlbi_va_local(page);
        else
            tlbi_va_is(page);
    }
    /* the invalidations are complete on the other CPUs only once this DSB completes */
    if (!MUTANT(arm_dsb_missing))
        dsb_ish();
    isb();
}

void tlbi_flush_range(uint64_t va, uint32_t pages)
{
    tlbi_range_is(va, pages);
    dsb_ish();
    isb();
}

void tlbi_flush_broadcast_os(uint64_t va, uint32_t pages)
{
    uint32_t i;
    for (i = 0; i < pages; i++)
        tlbi_va_os(va + ((uint64_t)i << TLBI_PAGE_SHIFT));
    /* an outer-shareable TLBI completes at a DSB of the outer shareable domain */
    dsb_osh();
    isb();
}

void tlbi_flush_broadcast_asid(uint64_t va, uint32_t pages, uint16_t asid, bool user)
{
    uint32_t i;
    /* the mutant's second TLBI names the kernel ASID again: the user ASID's entries stay */
    uint16_t user_asid = MUTANT(arm_user_tlbi_kernel_asid) ? asid : tlbi_user_asid(asid);
    for (i = 0; i < pages; i++) {
        uint64_t page = va + ((uint64_t)i << TLBI_PAGE_SHIFT);
        tlbi_va_is_asid(page, asid);
        if (user)
            tlbi_va_is_asid(page, user_asid);
    }
    /* one DSB ISH completes both ASIDs' invalidations everywhere, as Linux's single dsb(ish) */
    dsb_ish();
    isb();
}

void tlbi_flush_asid(uint16_t asid)
{
    /* the mutant flushes ASID 0 (the by-VA operands' ASID) whatever the caller's is */
    tlbi_asid_is(MUTANT(arm_asid_flush_wrong_asid) ? 0 : asid);
    dsb_ish();
    isb();
}

void tlbi_flush_all(void)
{
    tlbi_all_is();
    /* as for a by-VA TLBI: the other CPUs drop their entries only by this DSB's completion */
    if (!MUTANT(arm_flush_all_dsb_missing))
        dsb_ish();
    isb();
}

void tlbi_flush_local(uint64_t va, uint32_t pages)
{
    uint32_t i;
    for (i = 0; i < pages; i++)
        tlbi_va_local(va + ((uint64_t)i << TLBI_PAGE_SHIFT));
    /* local invalidations only need to complete on this CPU before it acknowledges */
    dsb_nsh();
    isb();
}
