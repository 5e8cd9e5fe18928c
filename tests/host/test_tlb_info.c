/*
 * The second-level TLB size (arch/x86/tlb_info.c) decoded from the recorded
 * CPUID dumps of ../shared/data/cpuid, and from made-up leaves for the
 * corners no dump has (fully associative sub-leaf, leaf 2 bit 31, no leaf).
 *
 * Expected sizes: AMD 8000_0006 EBX[27:16] read by hand from each dump
 * (Zen 1 1536, Zen 2/3 2048, Zen 4 3072, the published L2 DTLB sizes);
 * Skylake-SP leaf 2 descriptor 0xC3 (1536); Ice Lake, Sapphire Rapids and
 * Alder Lake P-core leaf 0x18: two level-2 unified sub-leaves of 8 ways x
 * 128 sets holding 4 KiB pages, 2048 in all.
 * Expected associativity: AMD 8000_0006 EBX[31:28], read by hand (Zen 1: 5,
 * 6-way; Zen 2, 3 and 4: 6, 8-way); 0xC3's 6 ways; the two 0x18 sub-leaves'
 * 8 + 8 ways.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "asm/cpuid.h"
#include "asm/tlb_info.h"
#include "tests/host/support_cpuid_dump.h"
#include "tests/host/support_host.h"

static const struct {
    const char *file;
    uint32_t entries, ways;
    const char *source;
} expected[] = {
    { "amd-epyc7551p.txt", 1536, 6, "cpuid_80000006h" },
    { "amd-epyc7742.txt", 2048, 8, "cpuid_80000006h" },
    { "amd-epyc7763.txt", 2048, 8, "cpuid_80000006h" },
    { "amd-epyc7763-smt-x2apic.txt", 2048, 8, "cpuid_80000006h" },
    { "amd-epyc9654.txt", 3072, 8, "cpuid_80000006h" },
    { "intel-xeon8180.txt", 1536, 6, "cpuid_02h" },
    { "intel-xeon6130.txt", 1536, 6, "cpuid_02h" },
    { "intel-xeon6330.txt", 2048, 16, "cpuid_18h" },
    { "intel-xeonw9-3475x.txt", 2048, 16, "cpuid_18h" },
    { "intel-i9-12900k.txt", 2048, 16, "cpuid_18h" },
};

static void test_dumps(void **state)
{
    size_t i;
    (void)state;
    for (i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
        struct cpuid_dump d;
        struct cpu_features f;
        LOAD_DUMP(&d, expected[i].file);
        cpuid_decode(cpuid_dump_fn, (void *)cpuid_dump_cpu(&d, 0), &f);
        print_message("# %s: %u entries from %s\n", expected[i].file, f.l2_tlb.entries_4k,
                      f.l2_tlb.source);
        assert_int_equal(f.l2_tlb.entries_4k, expected[i].entries);
        assert_int_equal(f.l2_tlb.ways_4k, expected[i].ways);
        assert_string_equal(f.l2_tlb.source, expected[i].source);
        cpuid_dump_free(&d);
    }
}

/* Made-up leaves: ctx points at the answers. */
struct fake {
    uint32_t leaf2[4];
    uint32_t l18[4][4]; /* sub-leaves 0..3 */
    uint32_t ext6_ebx;
};

static void fake_fn(void *ctx, uint32_t leaf, uint32_t sub, uint32_t regs[4])
{
    const struct fake *f = ctx;
    memset(regs, 0, 16);
    if (leaf == 2)
        memcpy(regs, f->leaf2, 16);
    else if (leaf == 0x18 && sub < 4)
        memcpy(regs, f->l18[sub], 16);
    else if (leaf == 0x80000006u)
        regs[1] = f->ext6_ebx;
}

static void test_made_up_leaves(void **state)
{
    struct fake f;
    struct l2_tlb_info t;
    (void)state;
    memset(&f, 0, sizeof(f));
    /* leaf 2: bit 31 makes EBX's 0xC1 invalid; EDX's 0xCA counts */
    f.leaf2[0] = 0x00000001;
    f.leaf2[1] = 0x800000C1;
    f.leaf2[3] = 0x0000CA00;
    cpuid_decode_l2_tlb(fake_fn, &f, VENDOR_INTEL, 0x20, 0x80000008u, &t);
    assert_int_equal(t.entries_4k, 512);
    assert_int_equal(t.ways_4k, 4);
    assert_string_equal(t.source, "cpuid_02h");
    /* leaf 2 with 0xFE only: leaf 0x18, a fully associative level-2 data TLB of 32 ways, a
     * level-2 instruction TLB (ignored) and a level-1 data TLB (ignored) */
    memset(&f, 0, sizeof(f));
    f.leaf2[0] = 0x00FE0001;
    f.l18[0][0] = 3;
    f.l18[1][1] = 0x00200001; f.l18[1][2] = 1; f.l18[1][3] = (1u << 8) | (2u << 5) | 1;
    f.l18[2][1] = 0x00080001; f.l18[2][2] = 128; f.l18[2][3] = (2u << 5) | 2;
    f.l18[3][1] = 0x00040001; f.l18[3][2] = 16; f.l18[3][3] = (1u << 5) | 1;
    cpuid_decode_l2_tlb(fake_fn, &f, VENDOR_INTEL, 0x20, 0x80000008u, &t);
    assert_int_equal(t.entries_4k, 32);
    assert_int_equal(t.ways_4k, 32); /* fully associative: one set of them all */
    assert_string_equal(t.source, "cpuid_18h");
    /* the same leaves on a CPU whose maximum basic leaf is below 0x18: nothing */
    cpuid_decode_l2_tlb(fake_fn, &f, VENDOR_INTEL, 0x16, 0x80000008u, &t);
    assert_int_equal(t.entries_4k, 0);
    assert_string_equal(t.source, "none");
    /* AMD without 8000_0006, and a vendor the decoder does not know */
    f.ext6_ebx = 0x68004200;
    cpuid_decode_l2_tlb(fake_fn, &f, VENDOR_AMD, 0x10, 0x80000005u, &t);
    assert_int_equal(t.entries_4k, 0);
    cpuid_decode_l2_tlb(fake_fn, &f, VENDOR_AMD, 0x10, 0x80000008u, &t);
    assert_int_equal(t.entries_4k, 2048);
    assert_int_equal(t.ways_4k, 8);
    assert_int_equal(t.evidence[0], 0x68004200);
    /* AMD fully associative (0xF): one set of all the entries; a reserved code: unknown */
    f.ext6_ebx = 0xF0400000;
    cpuid_decode_l2_tlb(fake_fn, &f, VENDOR_AMD, 0x10, 0x80000008u, &t);
    assert_int_equal(t.entries_4k, 64);
    assert_int_equal(t.ways_4k, 64);
    f.ext6_ebx = 0x70400000;
    cpuid_decode_l2_tlb(fake_fn, &f, VENDOR_AMD, 0x10, 0x80000008u, &t);
    assert_int_equal(t.ways_4k, 0);
    cpuid_decode_l2_tlb(fake_fn, &f, VENDOR_OTHER, 0x10, 0x80000008u, &t);
    assert_string_equal(t.source, "none");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dumps),
        cmocka_unit_test(test_made_up_leaves),
    };
    host_init();
    return cmocka_run_group_tests_name("tlb_info", tests, NULL, NULL);
}
