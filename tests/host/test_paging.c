/* Page-table construction: large pages where possible, splits, translation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "asm/paging.h"
#include "tests/host/support_host.h"

static unsigned tables_allocated;

static void *alloc_table(void *ctx)
{
    void *p = NULL;
    (void)ctx;
    if (posix_memalign(&p, 4096, 4096))
        return NULL;
    memset(p, 0, 4096);
    tables_allocated++;
    return p;
}

static void *no_memory(void *ctx)
{
    (void)ctx;
    return NULL;
}

static void expect_translation(const struct pt_ctx *pt, uint64_t va, uint64_t pa)
{
    uint64_t got = 0;
    assert_true(pt_translate(pt, va, &got));
    assert_true(got == pa);
}

static void test_identity_map_uses_large_pages(void **state)
{
    struct pt_ctx pt;
    uint64_t size = 0;
    (void)state;
    assert_true(pt_init(&pt, 4, true, alloc_table, NULL));
    /* 1 MiB .. 3 GiB + 12 KiB: 4K edges, 2M until 1G alignment, 1G pages, 4K tail */
    assert_true(pt_map(&pt, 0x100000, 0x100000, 3 * PAGE_1G + 0x3000 - 0x100000, PTE_RW | PTE_G, true));
    assert_int_equal(pt.leaves_1g, 2);                 /* [1G, 3G) */
    assert_int_equal(pt.leaves_2m, 511);               /* [2M, 1G) */
    assert_int_equal(pt.leaves_4k, 256 + 3);           /* [1M, 2M) and the tail */
    expect_translation(&pt, 0x100123, 0x100123);
    expect_translation(&pt, PAGE_1G + 0x12345678, PAGE_1G + 0x12345678);
    assert_non_null(pt_leaf(&pt, 0x40000000, &size));
    assert_true(size == PAGE_1G);
    assert_non_null(pt_leaf(&pt, 0x400000, &size));
    assert_true(size == PAGE_2M);
    assert_null(pt_leaf(&pt, 0x1000, NULL));           /* below 1 MiB: not mapped */
    assert_null(pt_leaf(&pt, 3 * PAGE_1G + 0x3000, NULL));
}

/* The entries a walk reads (flush_ceiling flushes their lines for cold page walks). */
static void test_walk_entries_root_to_leaf(void **state)
{
    struct pt_ctx pt;
    uint64_t *e[5], size = 0;
    (void)state;
    assert_true(pt_init(&pt, 4, true, alloc_table, NULL));
    assert_true(pt_map(&pt, 0x7e00c0000000ull, 0x200000, PAGE_4K, PTE_RW, false));
    assert_true(pt_map(&pt, 0x40000000, 0x40000000, PAGE_1G, PTE_RW, true));
    assert_int_equal(pt_walk_entries(&pt, 0x7e00c0000000ull, e, 5), 4);
    assert_ptr_equal(e[0], &pt.root[(0x7e00c0000000ull >> 39) & 511]);
    assert_ptr_equal(e[3], pt_leaf(&pt, 0x7e00c0000000ull, &size));
    assert_true(size == PAGE_4K);
    assert_true((*e[3] & PTE_ADDR_MASK) == 0x200000);
    /* a 1 GiB page ends the walk at its PDPTE; an unmapped address gives none */
    assert_int_equal(pt_walk_entries(&pt, 0x40001000, e, 5), 2);
    assert_true(*e[1] & PTE_PS);
    assert_int_equal(pt_walk_entries(&pt, 0x1000, e, 5), 0);
    assert_int_equal(pt_walk_entries(&pt, 0x7e00c0000000ull, e, 2), 0); /* no room for it all */
}

static void test_large_page_is_split_for_a_smaller_mapping(void **state)
{
    struct pt_ctx pt;
    uint64_t size = 0, *e;
    (void)state;
    assert_true(pt_init(&pt, 4, false, alloc_table, NULL));
    assert_true(pt_map(&pt, 0, 0, 4 * PAGE_2M, PTE_RW, true));
    assert_int_equal(pt.leaves_2m, 4);
    /* an uncached 4 KiB page inside the second 2 MiB page (as the APIC page would be) */
    assert_true(pt_map(&pt, PAGE_2M + 0x5000, PAGE_2M + 0x5000, PAGE_4K, PTE_RW | PTE_PCD, false));
    e = pt_leaf(&pt, PAGE_2M + 0x5000, &size);
    assert_non_null(e);
    assert_true(size == PAGE_4K);
    assert_true(*e & PTE_PCD);
    /* the rest of the split page keeps its mapping and its attributes */
    e = pt_leaf(&pt, PAGE_2M + 0x6000, &size);
    assert_true(size == PAGE_4K);
    assert_false(*e & PTE_PCD);
    expect_translation(&pt, PAGE_2M + 0x1ff123, PAGE_2M + 0x1ff123);
    /* the neighbours stay large */
    assert_non_null(pt_leaf(&pt, 2 * PAGE_2M, &size));
    assert_true(size == PAGE_2M);
}

static void test_misaligned_physical_address_uses_small_pages(void **state)
{
    struct pt_ctx pt;
    (void)state;
    assert_true(pt_init(&pt, 4, true, alloc_table, NULL));
    /* VA aligned to 2 MiB but PA only to 4 KiB: no large page may be used */
    assert_true(pt_map(&pt, 0x7e0000000000ull, 0x12345000, PAGE_2M, PTE_RW, true));
    assert_int_equal(pt.leaves_2m, 0);
    assert_int_equal(pt.leaves_4k, 512);
    expect_translation(&pt, 0x7e0000000000ull + 0x1234, 0x12345000 + 0x1234);
}

static void test_five_level_tables(void **state)
{
    struct pt_ctx pt;
    unsigned before;
    (void)state;
    tables_allocated = 0;
    assert_true(pt_init(&pt, 5, false, alloc_table, NULL));
    before = tables_allocated;
    assert_true(pt_map(&pt, 0x00ff000000000000ull, 0x200000, PAGE_4K, PTE_RW, false));
    /* PML4, PDPT, PD and PT under the PML5 root */
    assert_int_equal(tables_allocated - before, 4);
    expect_translation(&pt, 0x00ff000000000abcull, 0x200abc);
}

/*
 * An address the depth cannot translate is refused: with 4 levels 2^47 would
 * take PML4 slot 256 (the high half's) and 2^48 slot 0, replacing the mapping
 * of address 0. Firmware that runs with CR4.LA57 may hand over memory there.
 */
static void test_beyond_reach_is_refused(void **state)
{
    struct pt_ctx pt;
    const uint64_t high = 1ull << 47;
    (void)state;
    assert_true(pt_init(&pt, 4, false, alloc_table, NULL));
    assert_true(pt_reach(&pt) == high);
    assert_true(pt_map(&pt, 0, 0x200000, PAGE_4K, PTE_RW, false));
    assert_false(pt_map(&pt, high, 0x400000, PAGE_4K, PTE_RW, false));
    assert_false(pt_map(&pt, 1ull << 48, 0x400000, PAGE_4K, PTE_RW, false));
    assert_false(pt_map(&pt, high - PAGE_4K, high - PAGE_4K, 2 * PAGE_4K, PTE_RW, false));
    assert_false(pt_map(&pt, ~0ull & ~(PAGE_4K - 1), 0, 2 * PAGE_4K, PTE_RW, false)); /* wraps */
    expect_translation(&pt, 0x123, 0x200123);
    assert_true(pt_map(&pt, high - PAGE_4K, 0x600000, PAGE_4K, PTE_RW, false));
    assert_true(pt_init(&pt, 5, false, alloc_table, NULL));
    assert_true(pt_reach(&pt) == 1ull << 56);
    assert_true(pt_map(&pt, 0, 0x200000, PAGE_4K, PTE_RW, false));
    assert_true(pt_map(&pt, high, 0x400000, PAGE_4K, PTE_RW, false));
    expect_translation(&pt, 0x123, 0x200123);
    expect_translation(&pt, high + 0x123, 0x400123);
    assert_false(pt_map(&pt, 1ull << 56, 0, PAGE_4K, PTE_RW, false));
}

static void test_out_of_memory_is_reported(void **state)
{
    struct pt_ctx pt;
    (void)state;
    assert_false(pt_init(&pt, 4, false, no_memory, NULL));
    assert_true(pt.out_of_memory);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_identity_map_uses_large_pages),
        cmocka_unit_test(test_walk_entries_root_to_leaf),
        cmocka_unit_test(test_large_page_is_split_for_a_smaller_mapping),
        cmocka_unit_test(test_misaligned_physical_address_uses_small_pages),
        cmocka_unit_test(test_five_level_tables),
        cmocka_unit_test(test_beyond_reach_is_refused),
        cmocka_unit_test(test_out_of_memory_is_reported),
    };
    host_init();
    return cmocka_run_group_tests_name("paging", tests, NULL, NULL);
}
