/*
 * The strict aarch64 model's break-before-make rule (tlbi_model.h; Arm ARM, "Using
 * break-before-make when updating translation table entries"). The architecture's sequence:
 * the descriptor invalid, DSB, the TLBI of the VA (broadcast), DSB (the TLBI complete
 * everywhere), and only then the new valid descriptor. Anything shorter lets a CPU hold the
 * old translation and the new one at once: a TLB conflict abort, or an entry amalgamated
 * from the two (Linux's pgattr_change_is_safe() refuses such changes; ptep_clear_flush()
 * then set_pte_at(), and for a pmd, pmd_clear() and a flush before a new table or block).
 * Two checks at each descriptor store, either one a model error:
 *   1. a valid descriptor rewritten as another valid one with a different output address,
 *      nG flipped (a level-3 page), or another type or output (level 2: table to block,
 *      block to table, another table) with no invalid one between. The old one is what the
 *      storing CPU last wrote there (its store buffer, newest first), else the visible
 *      table.
 *   2. the make while some CPU may still hold a conflicting entry: a valid store, and for a
 *      page it translates, some CPU's TLB holds an entry whose output address, nG or leaf
 *      level (a block's entry against a page, or the reverse: "changing the block size"
 *      needs the break too) differs from the new leaf; or an entry an invalidation dropped
 *      that its issuer's DSB has not yet completed (tlbi_model_tlb.c's unconfirmed: the
 *      architecture guarantees the TLBI's effect only at that DSB, so "invalid, TLBI, make"
 *      is a breach whatever the model drew); or, for a level-2 store, a CPU's walk cache
 *      holds another table descriptor for the block (a walk through the old table beside
 *      the new leaf). An entry counts when the new leaf could meet it: a global one (it
 *      matches every ASID), or a non-global one filled under an ASID some CPU translates
 *      under now (TTBR0_EL1.ASID: the new leaf, global or filled there, sits beside it); an
 *      ASID no CPU uses is reached only by switching to it, and an ASID's reuse is an
 *      invalidation of its own (Linux's rollover flush).
 * Its own file: tlbi_model.c asks it at each descriptor store, after the other CPUs' walks
 * of the old translation "just before" the store.
 */
#include "sim/arm64/tlbi_model_int.h"

#include <stdio.h>

#define A64M_OA_MASK 0x0000fffffffff000ull /* the output address, [47:12] */

/* what CPU c would see at table[slot]: its own last store there, else the visible table */
static uint64_t seen_by(const struct a64_model *m, const struct a64m_cpu *c, uint32_t slot)
{
    for (uint32_t k = c->nsb; k-- > 0;)
        if (c->sb[k].page == slot)
            return c->sb[k].value;
    return m->table[slot];
}

static bool l2_valid(uint64_t d) { return (d & 1) != 0; } /* 0b01 block, 0b11 table */

/* check 1: valid to valid with no invalid between */
static bool no_break(const struct a64_model *m, uint32_t slot, uint64_t old, uint64_t value, char *why,
                     size_t cap)
{
    const char *what;
    if (slot < m->pages) {
        if ((old & A64M_PTE_VALID) != A64M_PTE_VALID || (value & A64M_PTE_VALID) != A64M_PTE_VALID)
            return false;
        if ((old & A64M_OA_MASK) != (value & A64M_OA_MASK))
            what = "another output address";
        else if ((old ^ value) & A64M_PTE_NG)
            what = "nG flipped";
        else
            return false;
        snprintf(why, cap, "break-before-make: page %u's valid descriptor 0x%llx rewritten as 0x%llx (%s) "
                 "without an invalid one between", slot, (unsigned long long)old, (unsigned long long)value, what);
        return true;
    }
    if (!l2_valid(old) || !l2_valid(value) || !((old ^ value) & (A64M_OA_MASK | A64M_DESC_TYPE | A64M_PTE_NG)))
        return false;
    snprintf(why, cap, "break-before-make: block %u's valid level-2 descriptor 0x%llx rewritten as 0x%llx "
             "without an invalid one between", slot - m->pages, (unsigned long long)old, (unsigned long long)value);
    return true;
}

/* an entry the new leaf could meet: global, or non-global of an ASID some CPU translates under */
static bool reachable(const struct a64_model *m, uint64_t e, uint16_t asid)
{
    if (!(e & A64M_PTE_NG))
        return true;
    for (uint32_t j = 0; j < m->ncpus; j++)
        if (m->cpu[j].asid == asid)
            return true;
    return false;
}

/* check 2 for one page: an entry some CPU may hold that differs from the new leaf */
static bool held_conflict(const struct a64_model *m, uint32_t page, uint64_t leaf, char *why, size_t cap)
{
    const uint64_t differ = A64M_OA_MASK | A64M_PTE_NG | A64M_TLB_BLOCK;
    for (uint32_t j = 0; j < m->ncpus; j++) {
        const struct a64m_cpu *c = &m->cpu[j];
        for (uint32_t s = page * A64M_WAYS; s < (page + 1) * A64M_WAYS; s++) {
            bool in_tlb = c->tlb[s] && ((c->tlb[s] ^ leaf) & differ) && reachable(m, c->tlb[s], c->tlb_asid[s]);
            if (!in_tlb && !(c->unconfirmed[s] && ((c->unconfirmed[s] ^ leaf) & differ) &&
                             reachable(m, c->unconfirmed[s], (uint16_t)(c->unconfirmed_by[s] >> 16))))
                continue;
            snprintf(why, cap, "break-before-make: page %u made 0x%llx while CPU %u may hold 0x%llx (%s)", page,
                     (unsigned long long)leaf, j, (unsigned long long)(in_tlb ? c->tlb[s] : c->unconfirmed[s]),
                     in_tlb ? "in its TLB" : "its TLBI not complete by a DSB");
            return true;
        }
    }
    return false;
}

/* the leaf page e of block b gets from level-2 descriptor l2 as c sees the tables, 0: none */
static uint64_t leaf_through(const struct a64_model *m, const struct a64m_cpu *c, uint64_t l2, uint32_t e)
{
    int64_t s;
    if ((l2 & A64M_DESC_TYPE) == A64M_DESC_BLOCK)
        return a64m_pte((uint32_t)(a64m_frame(l2) + e)) | (l2 & A64M_PTE_NG) | A64M_TLB_BLOCK;
    if ((l2 & A64M_DESC_TYPE) != A64M_DESC_TABLE)
        return 0;
    s = a64m_l3_slot(m, a64m_frame(l2), e);
    return s < 0 ? 0 : seen_by(m, c, (uint32_t)s);
}

bool a64m_bbm_breach(const struct a64_model *m, uint32_t ci, uint32_t slot, uint64_t value, char *why,
                     size_t cap)
{
    const struct a64m_cpu *c = &m->cpu[ci];
    uint32_t b, page;
    if (slot >= m->pages + m->blocks) /* a spare table's: the level-2 store that links it is checked */
        return false;
    if (no_break(m, slot, seen_by(m, c, slot), value, why, cap))
        return true;
    if (slot < m->pages) {
        b = slot / A64M_L3_ENTRIES;
        /* a page of the region's own table, linked in as this CPU sees level 2: else it translates nothing */
        if ((value & A64M_PTE_VALID) != A64M_PTE_VALID || seen_by(m, c, m->pages + b) != a64m_table_desc(b))
            return false;
        return held_conflict(m, slot, value, why, cap);
    }
    if (!l2_valid(value))
        return false;
    b = slot - m->pages;
    for (uint32_t j = 0; j < m->ncpus; j++)
        if (m->cpu[j].walk[b] && m->cpu[j].walk[b] != value) {
            snprintf(why, cap, "break-before-make: block %u's level-2 descriptor 0x%llx made while CPU %u's walk "
                     "cache holds 0x%llx", b, (unsigned long long)value, j, (unsigned long long)m->cpu[j].walk[b]);
            return true;
        }
    for (page = b * A64M_L3_ENTRIES; page < m->pages && page < (b + 1) * A64M_L3_ENTRIES; page++) {
        uint64_t leaf = leaf_through(m, c, value, page - b * A64M_L3_ENTRIES);
        if ((leaf & A64M_PTE_VALID) == A64M_PTE_VALID && held_conflict(m, page, leaf, why, cap))
            return true;
    }
    return false;
}
