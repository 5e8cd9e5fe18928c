/*
 * Page-table construction (4- or 5-level long-mode paging, SDM vol. 3A, 4.5).
 *
 * Pure data-structure code: tables come from a caller-supplied allocator and
 * are addressed by pointer, which is the physical address on the machine
 * (the tool runs identity-mapped) and ordinary heap memory in host tests.
 * Entries a CPU may already walk are written with pte_store() (below).
 */
#ifndef TLBSCOPE_ARCH_X86_PAGING_H
#define TLBSCOPE_ARCH_X86_PAGING_H

#include <stdbool.h>
#include <stdint.h>

#define PTE_P (1ull << 0)
#define PTE_RW (1ull << 1)
#define PTE_US (1ull << 2)
#define PTE_PWT (1ull << 3)
#define PTE_PCD (1ull << 4)
#define PTE_A (1ull << 5)
#define PTE_D (1ull << 6)
#define PTE_PS (1ull << 7) /* large page in a PDE or PDPTE */
#define PTE_G (1ull << 8)
#define PTE_ADDR_MASK 0x000ffffffffff000ull
/* attribute bits a leaf may carry and a split must preserve */
#define PTE_LEAF_FLAGS (PTE_P | PTE_RW | PTE_US | PTE_PWT | PTE_PCD | PTE_G)

#define PAGE_4K (1ull << 12)
#define PAGE_2M (1ull << 21)
#define PAGE_1G (1ull << 30)

struct pt_ctx {
    unsigned levels;          /* 4, or 5 with CR4.LA57 */
    uint64_t *root;
    void *(*alloc_table)(void *alloc_ctx); /* a zeroed, 4 KiB-aligned page or NULL */
    void *alloc_ctx;
    bool allow_1g;            /* CPUID 80000001:EDX[26] */
    uint32_t tables;          /* tables allocated, root included */
    uint32_t leaves_4k, leaves_2m, leaves_1g;
    bool out_of_memory;
};

bool pt_init(struct pt_ctx *pt, unsigned levels, bool allow_1g, void *(*alloc)(void *), void *ctx);
/*
 * The end of the lower canonical half the tables translate: 2^47 (128 TiB)
 * with 4 levels, 2^56 (64 PiB) with 5. An identity mapping above it is not
 * canonical: its entries would be the high half's (with 4 levels 2^47 takes
 * PML4 slot 256, that of 0xffff800000000000) or, from twice the reach, a
 * lower address's (2^48 takes slot 0, address 0's), overwriting theirs.
 */
uint64_t pt_reach(const struct pt_ctx *pt);
/*
 * Maps [va, va + size) to [pa, pa + size) with the given leaf flags (PTE_P is
 * implied). With allow_large, 2 MiB and 1 GiB pages are used wherever both
 * addresses are aligned and the range covers the whole page; an existing
 * large page in the way is split so its other parts keep their mapping.
 * False, with nothing mapped, for a range that ends beyond pt_reach().
 */
bool pt_map(struct pt_ctx *pt, uint64_t va, uint64_t pa, uint64_t size, uint64_t flags,
            bool allow_large);
/*
 * A store to a paging-structure entry that CPUs may be walking (a remap, a
 * table linked or unlinked): `va` is an address whose translation goes
 * through the entry. On the machine a release store, so the data the entry
 * exposes is written first (x86 keeps store order), and `va` is unused: the
 * same instruction as a plain store_release. In the host build
 * (TLBSCOPE_HOST) the strict TLB model makes it an event of the calling CPU,
 * which may cache va's translation just before the store (sim/hostcpu.c).
 */
#ifdef TLBSCOPE_HOST
void pte_store(uint64_t *entry, uint64_t value, uint64_t va);
#else
static inline void pte_store(uint64_t *entry, uint64_t value, uint64_t va)
{
    (void)va;
    __atomic_store_n(entry, value, __ATOMIC_RELEASE);
}
#endif
/*
 * The stores of pt_map() itself: plain on the machine, where the tables are
 * built before any CPU uses them (the code the tool always had), and the
 * same model event as pte_store() on the host, where a test may map into
 * tables its CPUs already walk.
 */
#ifdef TLBSCOPE_HOST
#define pt_store(entry, value, va) pte_store((entry), (value), (va))
#else
#define pt_store(entry, value, va) ((void)(va), *(entry) = (value))
#endif

/*
 * The entries a walk of va reads, root first, leaf (PTE, or a PS=1
 * PDE/PDPTE) last, into out[cap]: how many, or 0 when va is not mapped.
 */
uint32_t pt_walk_entries(const struct pt_ctx *pt, uint64_t va, uint64_t **out, uint32_t cap);
/* The entry that maps va (PTE, or a PS=1 PDE/PDPTE) and its page size, or NULL. */
uint64_t *pt_leaf(const struct pt_ctx *pt, uint64_t va, uint64_t *page_size);
/*
 * The entry at `level` (2 = PDE, 3 = PDPTE, ...) on va's walk, or NULL when
 * a level above it is not present or maps a large page.
 */
uint64_t *pt_entry(const struct pt_ctx *pt, uint64_t va, unsigned level);
/* Physical address va maps to; false when unmapped. */
bool pt_translate(const struct pt_ctx *pt, uint64_t va, uint64_t *pa);

#endif
