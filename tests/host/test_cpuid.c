/*
 * cpuid_decode() on ten real CPUID dumps (../shared/data/cpuid), checked
 * against the expected-values table of that folder's README.
 *
 * Data: InstLatx64/InstLatx64 ("Copy of instlatx64.atw.hu", recorded with
 * InstLatx64's/AIDA64's CPUID dumper; the repository has no licence file,
 * so it is used as third-party reference data, credited here). The tests
 * skip when the shared data folder is missing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "asm/cpuid.h"
#include "tests/host/support_cpuid_dump.h"
#include "tests/host/support_host.h"

struct expect {
    const char *file;
    enum cpu_vendor vendor;
    uint32_t leaf1_eax, family, model, stepping;
    bool x2apic, pcid, invpcid, la57, invlpgb;
    uint32_t ext8_ebx, ext8_edx, invlpgb_max;
    bool invariant_tsc, hybrid;
    const char *brand;
    uint32_t max_basic, max_ext;
    uint32_t phys_bits, virt_bits;
    bool has_x2apic_leaf;
};

static const struct expect expected[] = {
    { "amd-epyc7763.txt", VENDOR_AMD, 0x00a00f11, 0x19, 0x01, 1, false, true, true, false, true,
      0x91bef75f, 0x00010007, 8, true, false, "AMD EPYC 7763 64-Core Processor", 0x10, 0x80000023,
      48, 48, true },
    { "amd-epyc7763-smt-x2apic.txt", VENDOR_AMD, 0x00a00f11, 0x19, 0x01, 1, true, true, true,
      false, true, 0x91bef75f, 0x00010007, 8, true, false, "AMD EPYC 7763 64-Core Processor", 0x10,
      0x80000023, 48, 48, true },
    { "amd-epyc9654.txt", VENDOR_AMD, 0x00a10f11, 0x19, 0x11, 1, true, true, true, true, true,
      0x79bef25f, 0x00010007, 8, true, false, "AMD EPYC 9654 96-Core Processor", 0x10, 0x80000028,
      52, 57, true },
    { "amd-epyc7742.txt", VENDOR_AMD, 0x00830f10, 0x17, 0x31, 0, true, false, false, false, false,
      0x018ef757, 0x00010000, 0, true, false, "AMD EPYC 7742 64-Core Processor", 0x10, 0x80000020,
      48, 48, true },
    { "amd-epyc7551p.txt", VENDOR_AMD, 0x00800f12, 0x17, 0x01, 2, false, false, false, false,
      false, 0x00000007, 0x00000000, 0, true, false, "AMD EPYC 7551P 32-Core Processor", 0xd,
      0x8000001f, 48, 48, false },
    { "intel-xeon8180.txt", VENDOR_INTEL, 0x00050654, 0x6, 0x55, 4, true, true, true, false, false,
      0x00000000, 0x00000000, 0, true, false, "Intel(R) Xeon(R) Platinum 8180 CPU @ 2.50GHz", 0x16,
      0x80000008, 46, 48, true },
    { "intel-xeon6130.txt", VENDOR_INTEL, 0x00050654, 0x6, 0x55, 4, true, true, true, false, false,
      0x00000000, 0x00000000, 0, true, false, "Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz", 0x16,
      0x80000008, 46, 48, true },
    { "intel-xeon6330.txt", VENDOR_INTEL, 0x000606a6, 0x6, 0x6a, 6, true, true, true, true, false,
      0x00000200, 0x00000000, 0, true, false, "Intel(R) Xeon(R) Gold 6330 CPU @ 2.00GHz", 0x1b,
      0x80000008, 46, 57, true },
    { "intel-xeonw9-3475x.txt", VENDOR_INTEL, 0x000806f8, 0x6, 0x8f, 8, true, true, true, true,
      false, 0x00000200, 0x00000000, 0, true, false, "Intel(R) Xeon(R) w9-3475X", 0x20, 0x80000008,
      46, 57, true },
    { "intel-i9-12900k.txt", VENDOR_INTEL, 0x00090672, 0x6, 0x97, 2, true, true, true, false, false,
      0x00000000, 0x00000000, 0, true, true, "12th Gen Intel(R) Core(TM) i9-12900K", 0x20,
      0x80000008, 46, 48, true },
};

static void check_cpu0(const struct expect *e)
{
    struct cpuid_dump d;
    struct cpu_features f;
    const struct cpuid_section *cpu0;
    LOAD_DUMP(&d, e->file);
    cpu0 = cpuid_dump_cpu(&d, 0);
    assert_non_null(cpu0);
    cpuid_decode(cpuid_dump_fn, (void *)cpu0, &f);
    assert_int_equal(f.vendor_id, e->vendor);
    assert_string_equal(f.vendor, e->vendor == VENDOR_AMD ? "AuthenticAMD" : "GenuineIntel");
    assert_int_equal(f.signature, e->leaf1_eax);
    assert_int_equal(f.family, e->family);
    assert_int_equal(f.model, e->model);
    assert_int_equal(f.stepping, e->stepping);
    assert_int_equal(f.x2apic, e->x2apic);
    assert_int_equal(f.pcid, e->pcid);
    assert_int_equal(f.invpcid, e->invpcid);
    assert_int_equal(f.la57, e->la57);
    assert_int_equal(f.invlpgb, e->invlpgb);
    assert_int_equal(f.evidence.ext8_ebx, e->ext8_ebx);
    assert_int_equal(f.evidence.ext8_edx, e->ext8_edx);
    assert_int_equal(f.invlpgb_max_pages, e->invlpgb_max);
    assert_int_equal(f.invariant_tsc, e->invariant_tsc);
    assert_int_equal(f.hybrid, e->hybrid);
    assert_string_equal(f.brand, e->brand);
    assert_int_equal(f.max_basic_leaf, e->max_basic);
    assert_int_equal(f.max_ext_leaf, e->max_ext);
    assert_int_equal(f.phys_addr_bits, e->phys_bits);
    assert_int_equal(f.virt_addr_bits, e->virt_bits);
    assert_int_equal(f.has_x2apic_id_leaf, e->has_x2apic_leaf);
    /* recorded on bare metal: no hypervisor bit, no hypervisor vendor */
    assert_false(f.hypervisor);
    assert_string_equal(f.hypervisor_vendor, "");
    /* every one of these has a local APIC, global pages, 1 GiB pages and RDTSCP */
    assert_true(f.apic && f.pge && f.pdpe1gb && f.rdtscp);
    assert_int_equal(f.initial_apic_id8, 0);
    assert_int_equal(f.x2apic_id, 0);
    /* the raw evidence is what the report prints */
    assert_int_equal(f.evidence.leaf1_eax, e->leaf1_eax);
    cpuid_dump_free(&d);
}

static void test_epyc7763(void **state) { (void)state; check_cpu0(&expected[0]); }
static void test_epyc7763_smt_x2apic(void **state) { (void)state; check_cpu0(&expected[1]); }
static void test_epyc9654(void **state) { (void)state; check_cpu0(&expected[2]); }
static void test_epyc7742(void **state) { (void)state; check_cpu0(&expected[3]); }
static void test_epyc7551p(void **state) { (void)state; check_cpu0(&expected[4]); }
static void test_xeon8180(void **state) { (void)state; check_cpu0(&expected[5]); }
static void test_xeon6130(void **state) { (void)state; check_cpu0(&expected[6]); }
static void test_xeon6330(void **state) { (void)state; check_cpu0(&expected[7]); }
static void test_xeonw9(void **state) { (void)state; check_cpu0(&expected[8]); }
static void test_i9_12900k(void **state) { (void)state; check_cpu0(&expected[9]); }

/* The same EPYC 7763 reports CPUID.1:ECX[21] = 0 or 1 depending on the BIOS x2APIC setting. */
static void test_x2apic_bit_depends_on_firmware(void **state)
{
    struct cpuid_dump a, b;
    struct cpu_features fa, fb;
    (void)state;
    LOAD_DUMP(&a, "amd-epyc7763.txt");
    if (!cpuid_dump_load("amd-epyc7763-smt-x2apic.txt", &b)) {
        cpuid_dump_free(&a);
        SHARED_DATA_MISSING("cpuid/%s", "amd-epyc7763-smt-x2apic.txt");
    }
    cpuid_decode(cpuid_dump_fn, (void *)cpuid_dump_cpu(&a, 0), &fa);
    cpuid_decode(cpuid_dump_fn, (void *)cpuid_dump_cpu(&b, 0), &fb);
    assert_int_equal(fa.signature, fb.signature);
    assert_int_equal(fa.evidence.leaf1_ecx, 0x7eda320b);
    assert_int_equal(fb.evidence.leaf1_ecx, 0x7efa320b);
    assert_false(fa.x2apic);
    assert_true(fb.x2apic);
    /* leaf 0Bh still enumerates an x2APIC ID with the bit clear */
    assert_true(fa.has_x2apic_id_leaf);
    cpuid_dump_free(&a);
    cpuid_dump_free(&b);
}

struct first_of_package1 {
    const char *file;
    uint32_t cpu, apic8, x2apic;
};

/* The README's "first CPU of the second package" per dump. */
static const struct first_of_package1 second_package[] = {
    { "amd-epyc7763.txt", 64, 64, 64 },
    { "amd-epyc7763-smt-x2apic.txt", 128, 128, 128 },
    { "amd-epyc7742.txt", 128, 128, 128 },
    { "amd-epyc9654.txt", 192, 0, 256 }, /* the 8-bit ID wraps; the x2APIC ID does not */
    { "intel-xeon8180.txt", 56, 64, 64 },
    { "intel-xeon6330.txt", 56, 128, 128 },
};

static void test_apic_ids_of_second_package(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(second_package) / sizeof(second_package[0]); i++) {
        const struct first_of_package1 *p = &second_package[i];
        struct cpuid_dump d;
        struct cpu_features f0, f;
        const struct cpuid_section *s;
        LOAD_DUMP(&d, p->file);
        s = cpuid_dump_cpu(&d, p->cpu);
        if (!s)
            fail_msg("%s: no section for CPU #%u", p->file, p->cpu);
        cpuid_decode(cpuid_dump_fn, (void *)cpuid_dump_cpu(&d, 0), &f0);
        cpuid_decode(cpuid_dump_fn, (void *)s, &f);
        assert_int_equal(f.initial_apic_id8, p->apic8);
        assert_true(f.has_x2apic_id_leaf);
        assert_int_equal(f.x2apic_id, p->x2apic);
        /* the same part in the other socket: same features */
        assert_int_equal(f.signature, f0.signature);
        assert_string_equal(f.brand, f0.brand);
        assert_int_equal(f.invlpgb, f0.invlpgb);
        cpuid_dump_free(&d);
    }
}

/* CPU #1 of each dump: its own IDs, the same features as CPU #0 */
static void test_cpu1_ids(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
        struct cpuid_dump d;
        struct cpu_features f;
        const struct cpuid_section *s;
        LOAD_DUMP(&d, expected[i].file);
        s = cpuid_dump_cpu(&d, 1);
        assert_non_null(s);
        cpuid_decode(cpuid_dump_fn, (void *)s, &f);
        assert_int_equal(f.signature, expected[i].leaf1_eax);
        assert_int_equal(f.pcid, expected[i].pcid);
        assert_int_equal(f.x2apic, expected[i].x2apic);
        /* CPU #1 has APIC ID 1 on all ten (an SMT sibling, or the next core without SMT) */
        assert_int_equal(f.initial_apic_id8, 1);
        if (f.has_x2apic_id_leaf)
            assert_int_equal(f.x2apic_id, 1);
        cpuid_dump_free(&d);
    }
}

/* The dump parser itself: header styles, missing [SL] markers, trailing spaces. */
static void test_dump_parser(void **state)
{
    static const char text[] =
        "------[ Versions ]------\n"
        "CPUID 00000000: 00000001-00000002-00000003-00000004\n" /* outside a CPU section */
        "------[ Logical CPU #0 ]------\n"
        "\n"
        "allcpu: Package 0 / Core 3 / Thread 1: Valid\n"
        "CPUID 00000000: 0000000B-756E6547-6C65746E-49656E69 [GenuineIntel]\n"
        "CPUID 00000007: 00000000-D39FFFFB-00000008-00000000\n"
        "CPUID 0000000B: 00000001-00000002-00000100-00000000 [SL 00]\n"
        "CPUID 0000000B: 00000006-00000038-00000201-00000000 [SL 01]\n"
        "CPUID 00000001: 00050654-00400800-7FFEFBFF-BFEBFBFF \n"
        "------[ MSR Registers / Logical CPU #0 ]------\n"
        "CPUID 00000001: FFFFFFFF-FFFFFFFF-FFFFFFFF-FFFFFFFF\n"
        "CPU#001 AffMask: 0x0000000000000002 \n"
        "CPUID 00000001: 00050654-01400800-7FFEFBFF-BFEBFBFF \n"
        "------[ All CPUs ]------\n"
        "CPU   0: APICID    0 / Package 0 / Core  0 / Thread 0: Valid\n"
        "CPU  57: APICID  65 / Package 1 / Core  0 / Thread 1: Valid, Virtual\n";
    struct cpuid_dump d;
    const struct cpuid_section *s;
    uint32_t r[4];
    (void)state;
    assert_true(cpuid_dump_parse(text, &d));
    assert_int_equal(d.nsections, 2);
    s = cpuid_dump_cpu(&d, 0);
    assert_non_null(s);
    assert_true(s->has_allcpu);
    assert_int_equal(s->core, 3);
    assert_int_equal(s->thread, 1);
    assert_int_equal(s->count, 5);
    cpuid_dump_fn((void *)s, 1, 0, r);
    assert_int_equal(r[0], 0x00050654);
    assert_int_equal(r[3], 0xbfebfbff);
    cpuid_dump_fn((void *)s, 1, 7, r); /* leaf 1 ignores the sub-leaf */
    assert_int_equal(r[0], 0x00050654);
    cpuid_dump_fn((void *)s, 7, 0, r); /* leaf 7 without [SL 00] is sub-leaf 0 */
    assert_int_equal(r[1], 0xd39ffffb);
    cpuid_dump_fn((void *)s, 7, 1, r); /* ... and its sub-leaf 1 is absent */
    assert_int_equal(r[1], 0);
    cpuid_dump_fn((void *)s, 0xb, 1, r);
    assert_int_equal(r[0], 6);
    cpuid_dump_fn((void *)s, 0xb, 2, r);
    assert_int_equal(r[2], 0);
    cpuid_dump_fn((void *)s, 0x80000000u, 0, r);
    assert_int_equal(r[0], 0);
    s = cpuid_dump_cpu(&d, 1);
    assert_non_null(s);
    cpuid_dump_fn((void *)s, 1, 0, r);
    assert_int_equal(r[1], 0x01400800);
    assert_null(cpuid_dump_cpu(&d, 2));
    assert_int_equal(d.nsummary, 2);
    assert_int_equal(d.summary[1].cpu, 57);
    assert_int_equal(d.summary[1].apic_id, 65);
    assert_int_equal(d.summary[1].package, 1);
    assert_int_equal(d.summary[1].thread, 1);
    cpuid_dump_free(&d);
    assert_false(cpuid_dump_parse("CPUID 00000000: 1-2-3-4\n", &d)); /* no CPU section */
}

/* A CPU without the extended leaves: defaults, no brand, no x2APIC ID leaf. */
static void fake_minimal(void *ctx, uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
    (void)ctx;
    (void)subleaf;
    memset(regs, 0, 16);
    if (leaf == 0) {
        regs[0] = 1;
        memcpy(&regs[1], "Genu", 4);
        memcpy(&regs[3], "ineI", 4);
        memcpy(&regs[2], "ntel", 4);
    } else if (leaf == 1) {
        regs[0] = 0x00000f29; /* family 0xF: extended family 0 added, model ext<<4 | base */
        regs[2] = 1u << 31;   /* hypervisor */
        regs[3] = 1u << 9;
    } else if (leaf == 0x40000000u) {
        memcpy(&regs[1], "TCGT", 4);
        memcpy(&regs[2], "CGTC", 4);
        memcpy(&regs[3], "GTCG", 4);
    } else if (leaf == 0x80000000u) {
        regs[0] = 0x00000001; /* no extended leaves: not of the 8000xxxx form */
    }
}

static void test_minimal_and_hypervisor(void **state)
{
    struct cpu_features f;
    (void)state;
    cpuid_decode(fake_minimal, NULL, &f);
    assert_int_equal(f.vendor_id, VENDOR_INTEL);
    assert_int_equal(f.family, 0xf);
    assert_int_equal(f.model, 2);
    assert_int_equal(f.stepping, 9);
    assert_int_equal(f.max_ext_leaf, 0);
    assert_string_equal(f.brand, "");
    assert_int_equal(f.phys_addr_bits, 36);
    assert_int_equal(f.virt_addr_bits, 48);
    assert_false(f.has_x2apic_id_leaf);
    assert_true(f.hypervisor);
    assert_string_equal(f.hypervisor_vendor, "TCGTCGTCGTCG");
    assert_string_equal(cpu_vendor_short(f.vendor_id), "intel");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_epyc7763),
        cmocka_unit_test(test_epyc7763_smt_x2apic),
        cmocka_unit_test(test_epyc9654),
        cmocka_unit_test(test_epyc7742),
        cmocka_unit_test(test_epyc7551p),
        cmocka_unit_test(test_xeon8180),
        cmocka_unit_test(test_xeon6130),
        cmocka_unit_test(test_xeon6330),
        cmocka_unit_test(test_xeonw9),
        cmocka_unit_test(test_i9_12900k),
        cmocka_unit_test(test_x2apic_bit_depends_on_firmware),
        cmocka_unit_test(test_apic_ids_of_second_package),
        cmocka_unit_test(test_cpu1_ids),
        cmocka_unit_test(test_dump_parser),
        cmocka_unit_test(test_minimal_and_hypervisor),
    };
    host_init();
    return cmocka_run_group_tests_name("cpuid", tests, NULL, NULL);
}
