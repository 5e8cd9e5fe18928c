#include "asm/paging.h"

#include <stddef.h>

#define ENTRIES 512

static unsigned index_at(uint64_t va, unsigned level)
{
    /* level 1 = PT (bits 20:12), 2 = PD, 3 = PDPT, 4 = PML4, 5 = PML5 */
    return (unsigned)((va >> (12 + 9 * (level - 1))) & 0x1ff);
}

static uint64_t size_at(unsigned level) { return 1ull << (12 + 9 * (level - 1)); }

static uint64_t *table_of(uint64_t entry) { return (uint64_t *)(uintptr_t)(entry & PTE_ADDR_MASK); }

static uint64_t *new_table(struct pt_ctx *pt)
{
    uint64_t *t = pt->alloc_table(pt->alloc_ctx);
    if (!t) {
        pt->out_of_memory = true;
        return NULL;
    }
    pt->tables++;
    return t;
}

bool pt_init(struct pt_ctx *pt, unsigned levels, bool allow_1g, void *(*alloc)(void *), void *ctx)
{
    pt->levels = levels == 5 ? 5 : 4;
    pt->allow_1g = allow_1g;
    pt->alloc_table = alloc;
    pt->alloc_ctx = ctx;
    pt->tables = 0;
    pt->leaves_4k = pt->leaves_2m = pt->leaves_1g = 0;
    pt->out_of_memory = false;
    pt->root = new_table(pt);
    return pt->root != NULL;
}

/*
 * Non-leaf entries get P|RW (and US so user-accessible leaves stay
 * possible); access rights are decided at the leaf. Caching bits are left
 * clear in non-leaf entries: they only govern the table reads themselves.
 */
#define TABLE_FLAGS (PTE_P | PTE_RW | PTE_US)

/*
 * Replaces a large-page entry at `level` (one that va goes through) by a
 * table of equivalent smaller pages, filled before it is linked.
 */
static bool split(struct pt_ctx *pt, uint64_t *entry, unsigned level, uint64_t va)
{
    uint64_t *t = new_table(pt);
    uint64_t base = *entry & PTE_ADDR_MASK & ~(size_at(level) - 1);
    uint64_t flags = *entry & PTE_LEAF_FLAGS;
    unsigned i;
    if (!t)
        return false;
    for (i = 0; i < ENTRIES; i++)
        t[i] = (base + i * size_at(level - 1)) | flags | (level - 1 > 1 ? PTE_PS : 0);
    pt_store(entry, (uint64_t)(uintptr_t)t | TABLE_FLAGS, va);
    return true;
}

/* Installs one leaf of size_at(level) for va -> pa. */
static bool map_one(struct pt_ctx *pt, uint64_t va, uint64_t pa, unsigned leaf_level, uint64_t flags)
{
    uint64_t *table = pt->root;
    unsigned level;
    for (level = pt->levels; level > leaf_level; level--) {
        uint64_t *e = &table[index_at(va, level)];
        if (!(*e & PTE_P)) {
            uint64_t *t = new_table(pt);
            if (!t)
                return false;
            pt_store(e, (uint64_t)(uintptr_t)t | TABLE_FLAGS, va);
        } else if (*e & PTE_PS) {
            if (!split(pt, e, level, va))
                return false;
        }
        table = table_of(*e);
    }
    pt_store(&table[index_at(va, leaf_level)], pa | flags | PTE_P | (leaf_level > 1 ? PTE_PS : 0), va);
    if (leaf_level == 1)
        pt->leaves_4k++;
    else if (leaf_level == 2)
        pt->leaves_2m++;
    else
        pt->leaves_1g++;
    return true;
}

/* True when a table (not a leaf) already sits where a large page would go. */
static bool table_in_the_way(const struct pt_ctx *pt, uint64_t va, unsigned leaf_level)
{
    const uint64_t *table = pt->root;
    unsigned level;
    for (level = pt->levels; level >= leaf_level; level--) {
        uint64_t e = table[index_at(va, level)];
        if (!(e & PTE_P))
            return false;
        if (e & PTE_PS)
            return false;
        if (level == leaf_level)
            return true;
        table = table_of(e);
    }
    return false;
}

uint64_t pt_reach(const struct pt_ctx *pt) { return 1ull << (12 + 9 * pt->levels - 1); }

bool pt_map(struct pt_ctx *pt, uint64_t va, uint64_t pa, uint64_t size, uint64_t flags,
            bool allow_large)
{
    uint64_t end;
    flags &= PTE_LEAF_FLAGS;
    va &= ~(PAGE_4K - 1);
    pa &= ~(PAGE_4K - 1);
    end = va + ((size + PAGE_4K - 1) & ~(PAGE_4K - 1));
    if (end < va || end > pt_reach(pt))
        return false;
    while (va < end) {
        unsigned leaf = 1;
        uint64_t left = end - va;
        if (allow_large) {
            if (pt->allow_1g && !(va & (PAGE_1G - 1)) && !(pa & (PAGE_1G - 1)) && left >= PAGE_1G &&
                !table_in_the_way(pt, va, 3))
                leaf = 3;
            else if (!(va & (PAGE_2M - 1)) && !(pa & (PAGE_2M - 1)) && left >= PAGE_2M &&
                     !table_in_the_way(pt, va, 2))
                leaf = 2;
        }
        if (!map_one(pt, va, pa, leaf, flags))
            return false;
        va += size_at(leaf);
        pa += size_at(leaf);
    }
    return true;
}

uint32_t pt_walk_entries(const struct pt_ctx *pt, uint64_t va, uint64_t **out, uint32_t cap)
{
    uint64_t *table = pt->root;
    unsigned level;
    uint32_t n = 0;
    for (level = pt->levels; level >= 1 && n < cap; level--) {
        uint64_t *e = &table[index_at(va, level)];
        if (!(*e & PTE_P))
            return 0;
        out[n++] = e;
        if (level == 1 || (*e & PTE_PS))
            return n;
        table = table_of(*e);
    }
    return 0;
}

uint64_t *pt_leaf(const struct pt_ctx *pt, uint64_t va, uint64_t *page_size)
{
    uint64_t *e[5];
    uint32_t n = pt_walk_entries(pt, va, e, 5);
    if (!n)
        return NULL;
    if (page_size)
        *page_size = size_at(pt->levels + 1 - n);
    return e[n - 1];
}

uint64_t *pt_entry(const struct pt_ctx *pt, uint64_t va, unsigned level)
{
    uint64_t *table = pt->root;
    unsigned l;
    if (level < 1 || level > pt->levels)
        return NULL;
    for (l = pt->levels; l > level; l--) {
        uint64_t e = table[index_at(va, l)];
        if (!(e & PTE_P) || (e & PTE_PS))
            return NULL;
        table = table_of(e);
    }
    return &table[index_at(va, level)];
}

bool pt_translate(const struct pt_ctx *pt, uint64_t va, uint64_t *pa)
{
    uint64_t size = 0;
    uint64_t *e = pt_leaf(pt, va, &size);
    if (!e)
        return false;
    *pa = (*e & PTE_ADDR_MASK & ~(size - 1)) | (va & (size - 1));
    return true;
}
