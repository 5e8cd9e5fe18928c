/*
 * Our own stage-1 tables for a test region, next to the firmware's identity
 * map (Arm ARM, "The AArch64 Virtual Memory System Architecture", 4 KiB
 * granule).
 *
 * The firmware's top-level table is copied into a new page; the path from
 * the top to a free slot (a VA range the firmware maps nothing in) is cloned
 * table by table, and the region's own level-3 table hangs there. Every other
 * firmware table is shared, not copied, so the identity map (our code, data,
 * MMIO, firmware) stays exactly as it was. Installing the new TTBR0 is safe
 * without break-before-make because every translation that exists in both
 * trees is identical.
 *
 * Each of the two frame pools ("A" = 0, "B" = 1) holds REGION_PAGES frames
 * whose first word is a tag naming pool and page: a read through the region
 * tells which frame the CPU's translation points at.
 */
#ifndef TLBSCOPE_ARM64_PAGING_H
#define TLBSCOPE_ARM64_PAGING_H

#include <stdint.h>

#define PAGE_SHIFT 12
#define REGION_PAGES 512 /* one level-3 table: 2 MiB of VA */

#define TTBR_CNP 1ull /* TTBR_ELx.CnP [0] (FEAT_TTCNP): pt_build clears it in the tool's TTBR0 */

struct region {
    uint64_t va;           /* start of the test region */
    volatile uint64_t *l3; /* its level-3 table (identity mapped) */
    uint64_t attrs;        /* leaf attributes borrowed from the firmware's RAM mapping */
    uint64_t ng;           /* PTE_NG while an experiment wants non-global test pages, else 0 */
    uint64_t frames[2];    /* two pools of REGION_PAGES frames */
    uint64_t ttbr0;        /* value to install: our top table + firmware's ASID/CnP bits */
    uint64_t fw_ttbr0;
    unsigned start_level, va_bits, slot_level;
    /* pt_build's MMIO ranges, bit i for mmio[i]: the firmware's tables map it, or (the firmware
     * maps none of it) the tool's tables do, identity mapped as device memory */
    uint32_t mmio_fw, mmio_tool;
};

/* device memory that must be reachable through the tool's tables (a GICv3's redistributor
 * ranges: QEMU's virt puts its second one at 256 GiB, which AAVMF maps nothing of) */
struct pt_mmio {
    uint64_t base, len;
};
#define PT_MMIO_MAX 32

extern struct region rgn;

/* BSP: alloc_pages(n) returns n zeroed, identity-mapped pages (0: none). Each of the n
 * (<= PT_MMIO_MAX) mmio ranges the firmware does not map is mapped in the tool's tables in 2 MiB
 * blocks, with the attributes of the firmware's own mapping of `device_like` (an MMIO address
 * it maps: the GIC distributor), before the test region's slot is chosen (rgn.mmio_fw,
 * rgn.mmio_tool say which). 0 on success; -1 granule not 4 KiB, -2 no memory, -3 pool
 * unmapped, -4 no free VA slot */
int pt_build(uint64_t (*alloc_pages)(uint64_t n), uint64_t device_like, const struct pt_mmio *mmio, unsigned n);
void pt_install_local(uint64_t ttbr0);
uint64_t frame_pa(unsigned pool, unsigned i);
uint64_t frame_tag(unsigned pool, unsigned i);
#define PTE_NG (1ull << 11) /* nG: the entry is tagged with the current ASID */

/* EL1: the ASID this CPU translates under (TTBR0_EL1 or, with TCR_EL1.A1,
 * TTBR1_EL1, bits [63:48]; 8 bits unless TCR_EL1.AS); -1 at EL2 (its regime
 * has no ASIDs without HCR_EL2.E2H) */
int pt_current_asid(void);
/* EL1: this CPU translates under `asid` from now on (the ASID field of the TTBR
 * pt_current_asid reads, then ISB); the tables stay. KPTI's switch between the kernel's
 * and the user's ASID, without its switch of tables. */
void pt_set_asid(uint16_t asid);
/* PTE i -> frame (pool, i) through pte_store(); no barrier, no TLBI. Over a valid
 * descriptor only by break-before-make (core/exp/arm64/a64_exp.h region_remap) */
void region_set_pte(unsigned i, unsigned pool);
/* PTE i invalid (0) through pte_store(): the "break"; no barrier, no TLBI */
void region_clear_pte(unsigned i);
static inline uint64_t region_page_va(unsigned i)
{
    return rgn.va + ((uint64_t)i << PAGE_SHIFT);
}

#endif
