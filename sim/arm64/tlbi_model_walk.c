/*
 * The strict aarch64 model's walk through level 2 (tlbi_model.h): the
 * region's level-2 descriptors, the walk cache that keeps their table
 * descriptors, blocks, and the spare level-3 tables a level-2 store may link
 * in. What a TLBI's TTL names decides which of these it drops: a hint of
 * level 3 leaves the walk cache, so a table replaced or freed under a
 * last-level-only invalidation is still walked.
 */
#include "sim/arm64/tlbi_model_int.h"

#include <string.h>

int64_t a64m_l3_slot(const struct a64_model *m, uint64_t t, uint32_t e)
{
    if (e >= A64M_L3_ENTRIES)
        return -1;
    if (t < m->blocks) /* the region's own: table b holds pages [512 b, 512 b + 512) */
        return t * A64M_L3_ENTRIES + e < m->pages ? (int64_t)(t * A64M_L3_ENTRIES + e) : -1;
    if (t < m->blocks + A64M_SPARE_TABLES)
        return (int64_t)(m->pages + m->blocks + (t - m->blocks) * A64M_L3_ENTRIES + e);
    return -1;
}

volatile uint64_t *a64m_table_ptr(struct a64_model *m, uint32_t table, uint32_t e)
{
    int64_t s = a64m_l3_slot(m, table, e);
    return s < 0 ? NULL : &m->table[s];
}

uint64_t a64m_walk_leaf(struct a64_model *m, struct a64m_cpu *c, uint32_t page)
{
    uint32_t b = page / A64M_L3_ENTRIES, e = page % A64M_L3_ENTRIES;
    uint64_t l2 = c->walk[b];
    int64_t s;
    if (!l2) {
        l2 = m->table[m->pages + b];
        /* the walk cache keeps a table descriptor: later walks skip level 2 in memory */
        if ((l2 & A64M_DESC_TYPE) == A64M_DESC_TABLE)
            c->walk[b] = l2;
    }
    switch (l2 & A64M_DESC_TYPE) {
    case A64M_DESC_TABLE:
        s = a64m_l3_slot(m, a64m_frame(l2), e);
        return s < 0 ? 0 : m->table[s];
    case A64M_DESC_BLOCK: /* this page's part of the block, as a level-2 leaf */
        return a64m_pte((uint32_t)(a64m_frame(l2) + e)) | (l2 & A64M_PTE_NG) | A64M_TLB_BLOCK;
    default:
        return 0;
    }
}

void a64m_drop_walks(struct a64_model *m, struct a64m_cpu *c, const struct a64m_pend *p)
{
    if (!(p->levels & A64M_LEVEL_WALK))
        return;
    if (p->what == A64M_BY_VA) {
        for (uint32_t b = p->first / A64M_L3_ENTRIES; b <= (p->first + p->count - 1) / A64M_L3_ENTRIES; b++)
            c->walk[b] = 0;
    } else {
        /* VMALLE1IS all of it; ASIDE1IS too, as its entries carry no ASID */
        memset(c->walk, 0, m->blocks * sizeof(*c->walk));
    }
}

/* by VA: [3:2] the granule (0b00: no hint, 0b01: 4 KiB), [1:0] the leaf's level */
unsigned a64m_ttl_levels(unsigned ttl)
{
    if ((ttl >> 2) == 0)
        return A64M_LEVELS_ALL;
    if ((ttl >> 2) != 1)
        return 0; /* 16 or 64 KiB: not the region's granule */
    return (ttl & 3) == 3 ? A64M_LEVEL_3 : (ttl & 3) == 2 ? A64M_LEVEL_2 : 0;
}

/* range: the level alone (TG gives the granule, checked by the caller) */
unsigned a64m_range_ttl_levels(unsigned ttl)
{
    return ttl == 0 ? A64M_LEVELS_ALL : ttl == 3 ? A64M_LEVEL_3 : ttl == 2 ? A64M_LEVEL_2 : 0;
}

bool a64m_slot_page(const struct a64_model *m, uint32_t slot, uint64_t rnd, uint32_t *page)
{
    if (slot < m->pages) {
        *page = slot;
        return true;
    }
    if (slot < m->pages + m->blocks) { /* a level-2 descriptor: one page of its block */
        uint32_t first = (slot - m->pages) * A64M_L3_ENTRIES, n = m->pages - first;
        *page = first + (uint32_t)(rnd % (n < A64M_L3_ENTRIES ? n : A64M_L3_ENTRIES));
        return true;
    }
    return false; /* a spare table's: linked in or not, the model does not look it up */
}
