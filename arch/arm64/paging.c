/* The test region's page tables: see asm/paging.h. */
#include "asm/paging.h"
#include "asm/barrier.h"
#include "asm/sysreg.h"
#include "asm/tlbi.h"

struct region rgn;

/* descriptor bits (Arm ARM, VMSAv8-64 "Translation table descriptor
 * formats") */
#define DESC_VALID 1ull
#define DESC_BLOCK 1ull /* a block (levels 1-2): VALID with bit 1 clear */
#define DESC_TABLE 3ull /* table (levels 0-2) or page (level 3) */
#define DESC_TYPE_MASK 3ull
#define DESC_OA_MASK 0x0000fffffffff000ull /* OA/next-level address [47:12] */
#define DESC_AF (1ull << 10)
#define DESC_CONTIG (1ull << 52)
#define ENTRIES 512

static uint64_t (*alloc_pages)(uint64_t n);
#define BLOCK_2M (1ull << 21)

static unsigned level_shift(unsigned level)
{
    return 12 + 9 * (3 - level);
}

/* VA bits [level_shift+8 : level_shift] index a table of that level */
static unsigned va_index(uint64_t va, unsigned level)
{
    return (unsigned)((va >> level_shift(level)) & (ENTRIES - 1));
}

/* walk the firmware tables: the leaf descriptor for va, 0 if unmapped */
static uint64_t walk(uint64_t top, uint64_t va, unsigned *leaf_level)
{
    uint64_t *t = (uint64_t *)top;
    for (unsigned l = rgn.start_level; l <= 3; l++) {
        uint64_t d = t[va_index(va, l)];
        if (!(d & DESC_VALID))
            return 0;
        if (l == 3 || (d & DESC_TYPE_MASK) != DESC_TABLE) {
            *leaf_level = l;
            return d;
        }
        t = (uint64_t *)(d & DESC_OA_MASK);
    }
    return 0;
}

/*
 * In the (already private) table t at level l covering VA from base, find a
 * free entry for a 2 MiB-or-larger slot; if there is none, clone the
 * highest next-level table and look there. Returns the slot's VA and sets
 * *slot to the entry to fill, or 0.
 */
static uint64_t find_slot(uint64_t *t, unsigned l, uint64_t base, unsigned nent, uint64_t **slot, unsigned *slot_level)
{
    if (l > 2)
        return 0;
    for (int i = (int)nent - 1; i >= 0; i--)
        if (!(t[i] & DESC_VALID) && base + ((uint64_t)i << level_shift(l)) != 0) {
            *slot = &t[i];
            *slot_level = l;
            return base + ((uint64_t)i << level_shift(l));
        }
    for (int i = (int)nent - 1; i >= 0; i--) {
        if ((t[i] & DESC_TYPE_MASK) != DESC_TABLE || l == 2)
            continue;
        uint64_t copy = alloc_pages(1);
        if (!copy)
            return 0;
        uint64_t *child = (uint64_t *)(t[i] & DESC_OA_MASK);
        for (unsigned j = 0; j < ENTRIES; j++)
            ((uint64_t *)copy)[j] = child[j];
        t[i] = (t[i] & ~DESC_OA_MASK) | copy;
        uint64_t va = find_slot((uint64_t *)copy, l + 1, base + ((uint64_t)i << level_shift(l)), ENTRIES, slot,
                                slot_level);
        if (va)
            return va;
    }
    return 0;
}

/* the table entry t[i] points to, made the tool's to write: a firmware table (shared until now)
 * copied, an empty entry given a new zeroed table. 0 for a block, or when no page is left.
 * `owned` lists the tables already the tool's (the top, and those this made). */
static uint64_t owned[2 * PT_MMIO_MAX + 1];
static unsigned nowned;

static uint64_t *own_child(uint64_t *t, unsigned i)
{
    uint64_t d = t[i], copy;
    unsigned j;
    if ((d & DESC_VALID) && (d & DESC_TYPE_MASK) != DESC_TABLE)
        return 0;
    for (j = 0; (d & DESC_VALID) && j < nowned; j++)
        if (owned[j] == (d & DESC_OA_MASK))
            return (uint64_t *)owned[j];
    if (nowned == sizeof(owned) / sizeof(owned[0]) || !(copy = alloc_pages(1)))
        return 0;
    for (j = 0; (d & DESC_VALID) && j < ENTRIES; j++)
        ((uint64_t *)copy)[j] = ((uint64_t *)(d & DESC_OA_MASK))[j];
    owned[nowned++] = copy;
    t[i] = ((d & DESC_VALID) ? d & ~DESC_OA_MASK : DESC_TABLE) | copy;
    return (uint64_t *)copy;
}

/* [base, base+len) identity mapped in the tool's tree under `top`, in 2 MiB blocks with the
 * leaf attributes `attrs`; only where the firmware maps nothing (a level-2 entry of its own is
 * left as it is). False when a part cannot be mapped. */
static bool map_mmio(uint64_t top, uint64_t base, uint64_t len, uint64_t attrs)
{
    uint64_t a;
    unsigned lvl, l;
    if (rgn.start_level > 2 || base + len > (1ull << rgn.va_bits))
        return false;
    for (a = base & ~(BLOCK_2M - 1); a < base + len; a += BLOCK_2M) {
        uint64_t *t = (uint64_t *)top;
        if (walk(top, a < base ? base : a, &lvl))
            continue; /* mapped (by the firmware or an earlier range) */
        for (l = rgn.start_level; t && l < 2; l++)
            t = own_child(t, va_index(a, l));
        if (!t || (t[va_index(a, 2)] & DESC_VALID))
            return false; /* a block above, or some pages of this 2 MiB mapped and not these */
        t[va_index(a, 2)] = a | attrs | DESC_BLOCK;
    }
    return true;
}

int pt_build(uint64_t (*alloc)(uint64_t n), uint64_t device_like, const struct pt_mmio *mmio, unsigned nmmio)
{
    alloc_pages = alloc;
    uint64_t tcr = EL_READ(TCR);
    /* TCR_ELx.T0SZ [5:0], TG0 [15:14] (0b00 = 4 KiB) sit at the same place in
     * TCR_EL1 and TCR_EL2 (Arm ARM, TCR_EL1 / TCR_EL2). */
    unsigned t0sz = (unsigned)(tcr & 0x3f);
    if (((tcr >> 14) & 3) != 0) {
            return -1;
    }
    rgn.va_bits = 64 - t0sz;
    /* the walk starts at the level whose table resolves the top VA bits:
     * 4 levels of 9 bits above the 12-bit page offset (Arm ARM, VMSAv8-64
     * "Translation table walk": initial lookup level for a given T0SZ) */
    rgn.start_level = 4 - (rgn.va_bits - 12 + 8) / 9;
    unsigned top_entries = 1u << (rgn.va_bits - level_shift(rgn.start_level));
    rgn.fw_ttbr0 = EL_READ(TTBR0);
    uint64_t fw_top = rgn.fw_ttbr0 & DESC_OA_MASK;
    unsigned lvl, m;
    rgn.mmio_fw = rgn.mmio_tool = 0;
    nowned = 0;
    if (nmmio > PT_MMIO_MAX)
        nmmio = PT_MMIO_MAX;
    for (m = 0; m < nmmio; m++)
        if (walk(fw_top, mmio[m].base, &lvl))
            rgn.mmio_fw |= 1u << m;

    rgn.frames[0] = alloc_pages(REGION_PAGES);
    rgn.frames[1] = alloc_pages(REGION_PAGES);
    uint64_t top = alloc_pages(1), l3 = alloc_pages(1);
    if (!rgn.frames[0] || !rgn.frames[1] || !top || !l3)
        return -2;
    for (unsigned p = 0; p < 2; p++)
        for (unsigned i = 0; i < REGION_PAGES; i++)
            *(volatile uint64_t *)frame_pa(p, i) = frame_tag(p, i);

    /* leaf attributes: whatever the firmware uses for the RAM we got from
     * AllocatePages (MAIR index of Normal WB, shareability, AP, XN, nG), with
     * the descriptor type, address and Contiguous hint replaced */
    uint64_t d = walk(fw_top, rgn.frames[0], &lvl);
    if (!d)
        return -3;
    /* global (nG clear): the by-VA TLBIs name ASID 0, which global entries match */
    rgn.attrs = (d & ~(DESC_OA_MASK | DESC_TYPE_MASK | DESC_CONTIG | PTE_NG)) | DESC_AF;

    for (unsigned i = 0; i < top_entries; i++)
        ((uint64_t *)top)[i] = ((uint64_t *)fw_top)[i];
    owned[nowned++] = top;
    /* the MMIO first, so the region's slot is never one of them */
    d = walk(fw_top, device_like, &lvl);
    for (m = 0; d && m < nmmio; m++)
        if (!(rgn.mmio_fw & (1u << m)) &&
            map_mmio(top, mmio[m].base, mmio[m].len, (d & ~(DESC_OA_MASK | DESC_TYPE_MASK | DESC_CONTIG)) | DESC_AF))
            rgn.mmio_tool |= 1u << m;
    uint64_t *slot;
    unsigned slot_level;
    rgn.va = find_slot((uint64_t *)top, rgn.start_level, 0, top_entries, &slot, &slot_level);
    if (!rgn.va)
        return -4;
    /* chain from the slot's level down to our level-3 table */
    uint64_t next = l3;
    for (unsigned l = 2; l > slot_level; l--) {
        uint64_t t = alloc_pages(1);
        if (!t)
            return -2;
        ((uint64_t *)t)[va_index(rgn.va, l)] = next | DESC_TABLE;
        next = t;
    }
    *slot = next | DESC_TABLE;
    rgn.l3 = (volatile uint64_t *)l3;
    for (unsigned i = 0; i < REGION_PAGES; i++)
        region_set_pte(i, 0);
    rgn.slot_level = slot_level;
    /* keep the firmware's ASID [63:48], clear CnP [0]: with it set, CPUs whose TTBRs name the
     * same tables may share TLB entries (FEAT_TTCNP), and a local TLBI on one CPU could then
     * drop another's (the control's stale reads, the IPI method's per-CPU flushes) */
    rgn.ttbr0 = (rgn.fw_ttbr0 & ~(DESC_OA_MASK | TTBR_CNP)) | top;
    /* Table walks are cacheable and inner shareable (TCR.IRGN0/ORGN0/SH0 as
     * set by firmware), so a DSB ISHST is all the new tables need before
     * any PE may walk them. */
    dsb_ishst();
    return 0;
}

void pt_install_local(uint64_t ttbr0)
{
    EL_WRITE(TTBR0, ttbr0);
    isb();
    /* drop whatever this CPU cached under the old tables (local: the other
     * CPUs install theirs themselves) */
    if (arch_el == 2)
        __asm__ volatile("tlbi alle2" ::: "memory");
    else
        __asm__ volatile("tlbi vmalle1" ::: "memory");
    dsb_nsh();
    isb();
}

int pt_current_asid(void)
{
    uint64_t tcr, ttbr;
    if (arch_el != 1)
        return -1;
    tcr = read_sysreg(TCR_EL1);
    /* TCR_EL1.A1 [22]: TTBR1's ASID is the current one; AS [36]: 16-bit ASIDs */
    ttbr = (tcr & (1ull << 22)) ? read_sysreg(TTBR1_EL1) : read_sysreg(TTBR0_EL1);
    return (int)((ttbr >> 48) & ((tcr & (1ull << 36)) ? 0xffff : 0xff));
}

void pt_set_asid(uint16_t asid)
{
    uint64_t field = (uint64_t)asid << 48, mask = 0xffffull << 48;
    /* TCR_EL1.A1 [22]: the ASID is TTBR1's */
    if (read_sysreg(TCR_EL1) & (1ull << 22))
        write_sysreg(TTBR1_EL1, (read_sysreg(TTBR1_EL1) & ~mask) | field);
    else
        write_sysreg(TTBR0_EL1, (read_sysreg(TTBR0_EL1) & ~mask) | field);
    /* later translations use the new ASID only after the context synchronization */
    isb();
}

uint64_t frame_pa(unsigned pool, unsigned i)
{
    return rgn.frames[pool] + ((uint64_t)i << PAGE_SHIFT);
}

uint64_t frame_tag(unsigned pool, unsigned i)
{
    return (pool ? 0xB0B0000000000000ull : 0xA0A0000000000000ull) | i;
}

void region_set_pte(unsigned i, unsigned pool)
{
    pte_store(&rgn.l3[i], frame_pa(pool, i) | rgn.attrs | rgn.ng | DESC_TABLE);
}

void region_clear_pte(unsigned i)
{
    pte_store(&rgn.l3[i], 0);
}
