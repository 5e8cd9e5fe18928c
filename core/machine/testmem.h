/*
 * The test region: virtual pages whose PTEs the experiments rewrite, and
 * the frames they point to.
 *
 * 512 4 KiB pages at TEST_VA_BASE (one page table, so the PTEs are an array)
 * each map either a frame of bank 0 or the same-numbered frame of bank 1.
 * A remap ("flip") writes a fresh signature into the frame a page is about
 * to map, then rewrites the PTE to it; the frame it leaves keeps the old
 * signature. A CPU that reads the page through a stale TLB entry therefore
 * sees the old signature: that is the verifier. TEST_2M_PAGES large pages at
 * TEST_2M_VA_BASE do the same with 2 MiB frames for the INVLPGB stride form;
 * each of their 512 parts of 4 KiB has a signature of its own (the page's,
 * with the part's number in it), and the verifier reads every part: a CPU
 * may cache a 2 MiB page as separate 4 KiB entries (SDM vol. 3A 4.10.2.3),
 * and a stale one for part 300 is invisible to a read of part 0.
 *
 * The test pages' page table can also be replaced as a whole
 * (testmem_replace_table): a copy with the remapped entries is linked in
 * its place by one store to the PDE, and the old table, unlinked, is freed
 * once the caller's shootdown is done (testmem_free_table) and reused by the
 * next replacement. That is Linux's freed_tables case: a CPU that still holds
 * a paging-structure-cache entry for the old table walks memory that no
 * longer belongs to the page tables.
 *
 * Every store to a live entry goes through pte_store() (arch/x86/include/asm/paging.h),
 * which the strict TLB model sees.
 *
 * The mappings are non-global, like user mappings in Linux: a CR3 reload
 * flushes them. With global_pages=on they are global instead, like kernel
 * mappings without PTI: only INVLPG, INVPCID type 2 or a CR4.PGE toggle drop
 * them. The identity map of the rest of memory is global.
 */
#ifndef TLBSCOPE_CORE_TESTMEM_H
#define TLBSCOPE_CORE_TESTMEM_H

#include <stdbool.h>
#include <stdint.h>

#include "asm/paging.h"

#define TEST_VA_BASE 0x00007e0000000000ull /* PML4 slot 252, far from any RAM */
#define TEST_PAGES 512u
#define TEST_2M_VA_BASE (TEST_VA_BASE + PAGE_1G)
#define TEST_2M_PAGES 4u
#define SIGNATURE_MAGIC 0x7e5c000000000000ull
/*
 * The working set flush_ceiling touches after a flush: up to TEST_WS_PAGES
 * 4 KiB pages (more than any L2 TLB of the dumps: Zen 4's 3072 is the
 * largest) at their own VAs, mapped like the test pages (non-global unless
 * global_pages=on) onto TEST_WS_FRAMES frames. Page i reads the cache line
 * (i / TEST_WS_FRAMES) of frame (i % TEST_WS_FRAMES): every page a distinct
 * line, 256 KiB of lines in all, so a touch after a flush costs the TLB
 * refill and a cache hit, not a DRAM miss that would drown the difference.
 */
#define TEST_WS_VA_BASE (TEST_VA_BASE + 2 * PAGE_1G)
#define TEST_WS_PAGES 4096u
#define TEST_WS_FRAMES 256u
/*
 * The same working set in a second form, the other bound of the refill
 * cost (flush_ceiling's scattered_cold): TEST_WS_PAGES pages at their own
 * VAs, each on its own frame of a pool of TEST_WS_POOL_FRAMES (16 MiB),
 * page i on frame (i x TEST_WS_SCATTER_STRIDE) mod TEST_WS_POOL_FRAMES:
 * consecutive pages lie 4 MiB apart, never on adjacent frames, so no PTE
 * coalescing (Zen merges the entries of consecutive pages on consecutive
 * frames) can merge them; page i reads cache line (i mod 64) of its frame.
 * Before each refill of it testmem_ws_chill() flushes the lines holding its
 * page-table entries out of every cache: the refill walks cold page tables.
 * The contiguous form above is the lower bound: adjacent frames, cached
 * page tables, and a frame pool small enough that its data stays cached.
 */
#define TEST_WS_SCATTER_VA_BASE (TEST_VA_BASE + 3 * PAGE_1G)
#define TEST_WS_POOL_FRAMES 4096u
#define TEST_WS_SCATTER_STRIDE 1031u /* prime, so coprime to 4096: a permutation of the pool */
enum ws_form { WS_CONTIGUOUS = 0, WS_SCATTERED };

struct testmem {
    struct pt_ctx *pt;
    uint64_t *pte;             /* TEST_PAGES consecutive PTEs: the page table linked now */
    uint64_t *pde;             /* the PDE that links it */
    uint64_t *spare_table;     /* a free page-table page (NULL while one is retired) */
    uint64_t *retired_table;   /* unlinked by the last replacement, not yet freed */
    uint64_t frame[2];         /* physical base of bank 0 and bank 1 (TEST_PAGES frames each) */
    uint8_t bank_of[TEST_PAGES];
    volatile uint64_t expected[TEST_PAGES]; /* signature each page must show now */
    uint64_t *pde_2m;          /* TEST_2M_PAGES consecutive PDEs */
    uint64_t big_frame[2];     /* 2 MiB-aligned bases of 2 banks of TEST_2M_PAGES frames */
    uint8_t big_bank_of[TEST_2M_PAGES];
    volatile uint64_t big_expected[TEST_2M_PAGES];
    uint64_t generation;
    bool has_2m;
    bool has_ws;               /* the working-set pages are mapped */
    uint64_t ws_frame;         /* physical base of the TEST_WS_FRAMES working-set frames */
    bool has_ws_scattered;     /* the scattered form is mapped too */
    uint64_t ws_pool;          /* physical base of its TEST_WS_POOL_FRAMES frames */
    /* the lines of its page-table entries: PTEs of pages 8i .. 8i+7, then the levels above */
    uint64_t ws_pte_lines[TEST_WS_PAGES / 8];
    uint64_t ws_upper_lines[4];
    uint32_t ws_nupper;
    uint64_t leaf_flags;       /* PTE flags of every test mapping (PTE_G with global pages) */
};

/* Memory for frames, supplied by the platform: `bytes` at `align`, identity-mapped. */
typedef void *(*testmem_alloc_fn)(void *ctx, uint64_t bytes, uint64_t align);

/* Maps the region into `pt` and writes initial signatures. */
bool testmem_init(struct testmem *tm, struct pt_ctx *pt, testmem_alloc_fn alloc, void *ctx);
static inline uint64_t testmem_va(uint32_t page) { return TEST_VA_BASE + (uint64_t)page * PAGE_4K; }
static inline uint64_t testmem_va_2m(uint32_t page) { return TEST_2M_VA_BASE + (uint64_t)page * PAGE_2M; }
/* The frame a 4 KiB test page maps now (tests compare it with what a TLB holds). */
static inline uint64_t testmem_frame(const struct testmem *tm, uint32_t page)
{
    return tm->frame[tm->bank_of[page]] + (uint64_t)page * PAGE_4K;
}

/*
 * Remaps pages [first, first + count) to the other bank with fresh
 * signatures. No invalidation: that is the caller's shootdown. Run by one
 * CPU at a time (the initiator).
 */
void testmem_flip(struct testmem *tm, uint32_t first, uint32_t count);
/*
 * The same for one of several CPUs that remap disjoint ranges at once
 * (concurrent initiators): the signature carries the caller's own counter,
 * so the shared tm->generation is not touched. Signatures stay distinct from
 * the frame left behind because the bank is part of them.
 */
void testmem_flip_owned(struct testmem *tm, uint32_t first, uint32_t count, uint64_t generation);
/*
 * Makes every test mapping global (or not). Before any CPU caches them: the
 * caller runs it once, before the APs start.
 */
void testmem_set_global(struct testmem *tm, bool global);
void testmem_flip_2m(struct testmem *tm, uint32_t first, uint32_t count);
/*
 * The remap of testmem_flip, made by replacing the test pages' page table:
 * a free table page gets a copy of the live entries with pages [first,
 * first + count) on the other bank, then one PDE store links it. The old
 * table is retired: still memory the caller must not reuse, until its
 * shootdown (with FLUSH_FREED_TABLES) is complete and testmem_free_table()
 * returns it to the pool. No-op when a table is still retired.
 */
void testmem_replace_table(struct testmem *tm, uint32_t first, uint32_t count);
/* Frees the retired table: the next replacement overwrites it. */
void testmem_free_table(struct testmem *tm);

struct stale_hit {
    uint64_t va, expected, seen;
};
/* Reads one word of every page of the range through the TLB (as user code would touch them). */
void testmem_touch(const struct testmem *tm, uint32_t first, uint32_t count);
/* Reads every page of the range through the TLB; returns how many showed a stale signature. */
uint32_t testmem_check(const struct testmem *tm, uint32_t first, uint32_t count,
                       struct stale_hit *first_hit);
/* Reads one word of each of working-set pages [0, count): the refills a flush leaves. */
uint64_t testmem_touch_ws(const struct testmem *tm, uint32_t count);
/* The same for either form of the working set. */
uint64_t testmem_touch_ws_form(const struct testmem *tm, enum ws_form form, uint32_t count);
/* The virtual address page i of a form reads, and the physical address behind it. */
uint64_t testmem_ws_va(enum ws_form form, uint32_t i);
uint64_t testmem_ws_pa(const struct testmem *tm, enum ws_form form, uint32_t i);
/*
 * Before a cold refill of pages [0, count) of the scattered form: flushes
 * the lines holding their page-table entries (every level) out of every
 * CPU's caches (CLFLUSH, then a fence), so the page walks of the refill
 * that follows go to memory; the pages' data stay cached. The page tables
 * are shared, so one CPU's flush makes them cold for every CPU. Nothing for
 * the contiguous form.
 */
void testmem_ws_chill(const struct testmem *tm, enum ws_form form, uint32_t count);
/*
 * The same for 2 MiB pages: a word of each of a page's 512 parts of 4 KiB
 * (a page counts as stale once, the first stale part named).
 */
uint32_t testmem_check_2m(const struct testmem *tm, uint32_t first, uint32_t count,
                          struct stale_hit *first_hit);

#endif
