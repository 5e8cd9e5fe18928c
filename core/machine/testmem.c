#include "core/machine/testmem.h"
#include "asm/cpu.h"
#include "core/lib/atomic.h"
#include "core/lib/mem.h"
#include "core/mutant.h"

/* Accessed and dirty preset: the CPU then never writes these PTEs itself
 * while we rewrite them (it sets A/D with locked updates). */
#define TEST_PTE_FLAGS (PTE_P | PTE_RW | PTE_A | PTE_D)

static uint64_t make_signature(uint64_t generation, uint32_t page, uint32_t bank)
{
    return SIGNATURE_MAGIC | (generation << 16) | ((uint64_t)bank << 15) | page;
}

static volatile uint64_t *frame_word(uint64_t base, uint32_t index, uint64_t size)
{
    return (volatile uint64_t *)(uintptr_t)(base + (uint64_t)index * size);
}

/* Parts of 4 KiB of a 2 MiB page: each has its own signature (testmem.h). */
#define PARTS_2M ((uint32_t)(PAGE_2M / PAGE_4K))

/*
 * Part k of a 2 MiB page: the page's signature with k in bits 2..10 of the
 * page field, free there because a 2 MiB page number is below 4. A stale
 * part, or a translation to the wrong part, shows as a different word.
 */
_Static_assert(TEST_2M_PAGES <= 4, "2 MiB page numbers must leave bits 2..10 for the part");
static uint64_t part_signature(uint64_t page_signature, uint32_t k)
{
    return page_signature | ((uint64_t)k << 2);
}

static void write_parts(uint64_t bank_base, uint32_t page, uint64_t page_signature)
{
    uint64_t base = bank_base + (uint64_t)page * PAGE_2M;
    uint32_t k;
    for (k = 0; k < PARTS_2M; k++)
        *frame_word(base, k, PAGE_4K) = part_signature(page_signature, k);
}

/* The frame of the pool that page i of the scattered form maps (testmem.h). */
static uint32_t scattered_frame(uint32_t i)
{
    if (MUTANT(ws_frames_contiguous)) /* test-only: adjacent frames, as the contiguous form */
        return i % TEST_WS_POOL_FRAMES;
    return (uint32_t)((uint64_t)i * TEST_WS_SCATTER_STRIDE % TEST_WS_POOL_FRAMES);
}

/* The working-set pages (testmem.h); without memory for them flush_ceiling is SKIP. */
static void ws_init(struct testmem *tm, struct pt_ctx *pt, testmem_alloc_fn alloc, void *ctx)
{
    uint32_t i;
    void *frames = alloc(ctx, (uint64_t)TEST_WS_FRAMES * PAGE_4K, PAGE_4K);
    if (!frames)
        return;
    tm->ws_frame = (uint64_t)(uintptr_t)frames;
    for (i = 0; i < TEST_WS_PAGES; i++)
        if (!pt_map(pt, TEST_WS_VA_BASE + (uint64_t)i * PAGE_4K,
                    tm->ws_frame + (uint64_t)(i % TEST_WS_FRAMES) * PAGE_4K, PAGE_4K,
                    TEST_PTE_FLAGS, false))
            return;
    tm->has_ws = true;
    /* the scattered form: its own frames, 16 MiB; without them that form is not measured */
    frames = alloc(ctx, (uint64_t)TEST_WS_POOL_FRAMES * PAGE_4K, PAGE_4K);
    if (!frames)
        return;
    tm->ws_pool = (uint64_t)(uintptr_t)frames;
    for (i = 0; i < TEST_WS_PAGES; i++)
        if (!pt_map(pt, TEST_WS_SCATTER_VA_BASE + (uint64_t)i * PAGE_4K,
                    tm->ws_pool + (uint64_t)scattered_frame(i) * PAGE_4K, PAGE_4K,
                    TEST_PTE_FLAGS, false))
            return;
    /*
     * The lines testmem_ws_chill() flushes: one of 8 PTEs per 8 pages (the VAs
     * are contiguous from a 1 GiB boundary), and the one line of each level
     * above, which covers the whole range (8 page tables: 8 PDEs of a line).
     */
    for (i = 0; i < TEST_WS_PAGES; i += 8) {
        uint64_t *e[5];
        uint32_t n = pt_walk_entries(pt, TEST_WS_SCATTER_VA_BASE + (uint64_t)i * PAGE_4K, e, 5);
        if (!n)
            return;
        tm->ws_pte_lines[i / 8] = (uint64_t)(uintptr_t)e[n - 1] & ~63ull;
        if (i == 0)
            for (tm->ws_nupper = 0; tm->ws_nupper + 1 < n; tm->ws_nupper++)
                tm->ws_upper_lines[tm->ws_nupper] = (uint64_t)(uintptr_t)e[tm->ws_nupper] & ~63ull;
    }
    tm->has_ws_scattered = true;
}

bool testmem_init(struct testmem *tm, struct pt_ctx *pt, testmem_alloc_fn alloc, void *ctx)
{
    uint32_t i;
    uint64_t size = 0;
    void *banks, *big;
    mem_zero(tm, sizeof(*tm));
    tm->pt = pt;
    tm->leaf_flags = TEST_PTE_FLAGS;
    banks = alloc(ctx, 2ull * TEST_PAGES * PAGE_4K, PAGE_4K);
    if (!banks)
        return false;
    tm->frame[0] = (uint64_t)(uintptr_t)banks;
    tm->frame[1] = tm->frame[0] + (uint64_t)TEST_PAGES * PAGE_4K;
    for (i = 0; i < TEST_PAGES; i++) {
        tm->expected[i] = make_signature(0, i, 0);
        *frame_word(tm->frame[0], i, PAGE_4K) = tm->expected[i];
        *frame_word(tm->frame[1], i, PAGE_4K) = make_signature(0, i, 1);
        if (!pt_map(pt, testmem_va(i), tm->frame[0] + (uint64_t)i * PAGE_4K, PAGE_4K,
                    TEST_PTE_FLAGS, false))
            return false;
    }
    tm->pte = pt_leaf(pt, testmem_va(0), &size);
    tm->pde = pt_entry(pt, testmem_va(0), 2);
    if (!tm->pte || size != PAGE_4K || !tm->pde)
        return false;
    /* the pool of the table replacement: one free page-table page */
    tm->spare_table = pt->alloc_table(pt->alloc_ctx);
    if (!tm->spare_table)
        return false;
    pt->tables++;

    big = alloc(ctx, 2ull * TEST_2M_PAGES * PAGE_2M, PAGE_2M);
    if (big) {
        tm->big_frame[0] = (uint64_t)(uintptr_t)big;
        tm->big_frame[1] = tm->big_frame[0] + (uint64_t)TEST_2M_PAGES * PAGE_2M;
        for (i = 0; i < TEST_2M_PAGES; i++) {
            tm->big_expected[i] = make_signature(0, i, 0);
            write_parts(tm->big_frame[0], i, tm->big_expected[i]);
            write_parts(tm->big_frame[1], i, make_signature(0, i, 1));
            if (!pt_map(pt, testmem_va_2m(i), tm->big_frame[0] + (uint64_t)i * PAGE_2M, PAGE_2M,
                        TEST_PTE_FLAGS, true))
                return false;
        }
        tm->pde_2m = pt_leaf(pt, testmem_va_2m(0), &size);
        tm->has_2m = tm->pde_2m && size == PAGE_2M;
    }
    ws_init(tm, pt, alloc, ctx);
    return true;
}

/* The line page i reads: distinct for every page of a form, spread over the cache's sets. */
static uint64_t ws_line(enum ws_form form, uint32_t i)
{
    return (uint64_t)(form == WS_SCATTERED ? i % 64 : i / TEST_WS_FRAMES % 64) * 64;
}

uint64_t testmem_ws_va(enum ws_form form, uint32_t i)
{
    uint64_t base = form == WS_SCATTERED ? TEST_WS_SCATTER_VA_BASE : TEST_WS_VA_BASE;
    return base + (uint64_t)i * PAGE_4K + ws_line(form, i);
}

uint64_t testmem_ws_pa(const struct testmem *tm, enum ws_form form, uint32_t i)
{
    uint64_t frame = form == WS_SCATTERED
                         ? tm->ws_pool + (uint64_t)scattered_frame(i) * PAGE_4K
                         : tm->ws_frame + (uint64_t)(i % TEST_WS_FRAMES) * PAGE_4K;
    return frame + ws_line(form, i);
}

static bool has_form(const struct testmem *tm, enum ws_form form)
{
    return form == WS_SCATTERED ? tm->has_ws_scattered : tm->has_ws;
}

uint64_t testmem_touch_ws_form(const struct testmem *tm, enum ws_form form, uint32_t count)
{
    uint64_t sum = 0;
    uint32_t i;
    if (!has_form(tm, form))
        return 0;
    for (i = 0; i < count && i < TEST_WS_PAGES; i++)
        sum += tlb_read64(testmem_ws_va(form, i));
    return sum;
}

uint64_t testmem_touch_ws(const struct testmem *tm, uint32_t count)
{
    return testmem_touch_ws_form(tm, WS_CONTIGUOUS, count);
}

void testmem_ws_chill(const struct testmem *tm, enum ws_form form, uint32_t count)
{
    uint32_t i;
    if (form != WS_SCATTERED || !tm->has_ws_scattered)
        return;
    for (i = 0; i < count && i < TEST_WS_PAGES; i += 8)
        clflush((const volatile void *)(uintptr_t)tm->ws_pte_lines[i / 8]);
    for (i = 0; i < tm->ws_nupper; i++)
        clflush((const volatile void *)(uintptr_t)tm->ws_upper_lines[i]);
    mfence(); /* the flushes are done before the refill's walks */
}

static void flip_range(struct testmem *tm, uint32_t first, uint32_t count, uint64_t generation)
{
    uint32_t i;
    for (i = first; i < first + count && i < TEST_PAGES; i++) {
        uint32_t bank = tm->bank_of[i] ^ 1u;
        uint64_t sig = make_signature(generation, i, bank);
        *frame_word(tm->frame[bank], i, PAGE_4K) = sig;
        store_relaxed(&tm->expected[i], sig);
        /* the PTE store comes after the data it exposes (x86 keeps store order) */
        pte_store(&tm->pte[i], (tm->frame[bank] + (uint64_t)i * PAGE_4K) | tm->leaf_flags,
                  testmem_va(i));
        tm->bank_of[i] = (uint8_t)bank;
    }
}

void testmem_flip(struct testmem *tm, uint32_t first, uint32_t count)
{
    flip_range(tm, first, count, ++tm->generation);
}

void testmem_flip_owned(struct testmem *tm, uint32_t first, uint32_t count, uint64_t generation)
{
    flip_range(tm, first, count, generation);
}

void testmem_flip_2m(struct testmem *tm, uint32_t first, uint32_t count)
{
    uint32_t i;
    tm->generation++;
    for (i = first; i < first + count && i < TEST_2M_PAGES; i++) {
        uint32_t bank = tm->big_bank_of[i] ^ 1u;
        uint64_t sig = make_signature(tm->generation, i, bank);
        write_parts(tm->big_frame[bank], i, sig);
        store_relaxed(&tm->big_expected[i], sig);
        pte_store(&tm->pde_2m[i],
                  (tm->big_frame[bank] + (uint64_t)i * PAGE_2M) | tm->leaf_flags | PTE_PS,
                  testmem_va_2m(i));
        tm->big_bank_of[i] = (uint8_t)bank;
    }
}

void testmem_replace_table(struct testmem *tm, uint32_t first, uint32_t count)
{
    uint64_t *fresh = tm->spare_table, *old = tm->pte;
    uint32_t i;
    if (!fresh)
        return;
    tm->generation++;
    /* not linked yet, but a CPU holding a stale paging-structure entry may read it */
    for (i = 0; i < TEST_PAGES; i++)
        store_relaxed(&fresh[i], load_relaxed(&old[i]));
    for (i = first; i < first + count && i < TEST_PAGES; i++) {
        uint32_t bank = tm->bank_of[i] ^ 1u;
        uint64_t sig = make_signature(tm->generation, i, bank);
        *frame_word(tm->frame[bank], i, PAGE_4K) = sig;
        store_relaxed(&tm->expected[i], sig);
        store_relaxed(&fresh[i], (tm->frame[bank] + (uint64_t)i * PAGE_4K) | tm->leaf_flags);
        tm->bank_of[i] = (uint8_t)bank;
    }
    /* one store links the new table and unlinks the old (after everything it exposes) */
    pte_store(tm->pde, (*tm->pde & ~PTE_ADDR_MASK) | (uint64_t)(uintptr_t)fresh,
              testmem_va(first));
    tm->pte = fresh;
    tm->retired_table = old;
    tm->spare_table = NULL;
}

void testmem_free_table(struct testmem *tm)
{
    if (!tm->retired_table)
        return;
    tm->spare_table = tm->retired_table;
    tm->retired_table = NULL;
}

void testmem_set_global(struct testmem *tm, bool global)
{
    uint32_t i;
    tm->leaf_flags = TEST_PTE_FLAGS | (global ? PTE_G : 0);
    for (i = 0; i < TEST_PAGES; i++)
        pte_store(&tm->pte[i], (tm->pte[i] & ~PTE_G) | (global ? PTE_G : 0), testmem_va(i));
    for (i = 0; tm->has_2m && i < TEST_2M_PAGES; i++)
        pte_store(&tm->pde_2m[i], (tm->pde_2m[i] & ~PTE_G) | (global ? PTE_G : 0),
                  testmem_va_2m(i));
    for (i = 0; tm->has_ws && i < 2 * TEST_WS_PAGES; i++) {
        uint64_t va = i < TEST_WS_PAGES ? TEST_WS_VA_BASE + (uint64_t)i * PAGE_4K
                                        : TEST_WS_SCATTER_VA_BASE +
                                              (uint64_t)(i - TEST_WS_PAGES) * PAGE_4K;
        uint64_t size = 0, *pte = pt_leaf(tm->pt, va, &size);
        if (pte)
            pte_store(pte, (*pte & ~PTE_G) | (global ? PTE_G : 0), va);
    }
}

void testmem_touch(const struct testmem *tm, uint32_t first, uint32_t count)
{
    uint32_t i;
    (void)tm;
    for (i = first; i < first + count && i < TEST_PAGES; i++)
        (void)tlb_read64(testmem_va(i));
}

static uint32_t check(const volatile uint64_t *expected, uint64_t (*va_of)(uint32_t),
                      uint32_t first, uint32_t count, uint32_t limit, struct stale_hit *hit)
{
    uint32_t i, stale = 0;
    for (i = first; i < first + count && i < limit; i++) {
        uint64_t want = load_acquire(&expected[i]);
        uint64_t seen = tlb_read64(va_of(i));
        if (seen != want) {
            if (stale == 0 && hit) {
                hit->va = va_of(i);
                hit->expected = want;
                hit->seen = seen;
            }
            stale++;
        }
    }
    return stale;
}

uint32_t testmem_check(const struct testmem *tm, uint32_t first, uint32_t count,
                       struct stale_hit *hit)
{
    return check(tm->expected, testmem_va, first, count, TEST_PAGES, hit);
}

uint32_t testmem_check_2m(const struct testmem *tm, uint32_t first, uint32_t count,
                          struct stale_hit *hit)
{
    uint32_t i, k, stale = 0, parts = MUTANT(verify_2m_first_word) ? 1 : PARTS_2M;
    for (i = first; i < first + count && i < TEST_2M_PAGES; i++) {
        uint64_t want = load_acquire(&tm->big_expected[i]);
        for (k = 0; k < parts; k++) {
            uint64_t va = testmem_va_2m(i) + (uint64_t)k * PAGE_4K;
            uint64_t seen = tlb_read64(va);
            if (seen == part_signature(want, k))
                continue;
            if (stale == 0 && hit) {
                hit->va = va;
                hit->expected = part_signature(want, k);
                hit->seen = seen;
            }
            stale++;
            break; /* the page is stale: one count, its first stale part named */
        }
    }
    return stale;
}
