/*
 * The INVLPG/global erratum of Alder and Raptor Lake (core/machine/cpu_errata.c) and
 * what the tool does about it (core/run/method.c): which CPUs and microcode
 * revisions it applies to (Linux's invlpg_miss_ids[], every stepping, the
 * first fixed revision excluded), on the recorded i9-12900K dump as on
 * made-up signatures; PCID off with a reason naming the erratum, the CPU
 * and the revision where it applies, on where the microcode has the fix or
 * the CPU is not listed; and the depth of the page tables under CR4.LA57.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "asm/cpu.h"
#include "core/machine/cpu_errata.h"
#include "core/run/method.h"
#include "core/run/run.h"
#include "tests/host/support_cpuid_dump.h"
#include "tests/host/support_host.h"

static struct cpu_features cpu(enum cpu_vendor v, uint32_t family, uint32_t model,
                               uint32_t stepping)
{
    struct cpu_features f;
    memset(&f, 0, sizeof(f));
    f.vendor_id = v;
    f.family = family;
    f.model = model;
    f.stepping = stepping;
    f.pcid = true;
    return f;
}

static struct invlpg_global_check check(const struct cpu_features *f, bool known, uint32_t ucode)
{
    struct invlpg_global_check c;
    memset(&c, 0xa5, sizeof(c));
    errata_check_invlpg_global(f, known, ucode, &c);
    return c;
}

/* Linux's table: each model, one revision below its fix (affected) and the fix itself (not) */
static void test_each_listed_model_at_its_fix(void **state)
{
    static const struct {
        uint32_t model, fixed;
    } table[] = { { 0x97, 0x2e }, { 0x9a, 0x42c }, { 0xbe, 0x11 },
                  { 0xb7, 0x118 }, { 0xba, 0x4117 }, { 0xbf, 0x2e } };
    size_t i;
    uint32_t stepping;
    (void)state;
    for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        for (stepping = 0; stepping < 16; stepping += 5) { /* Linux matches every stepping */
            struct cpu_features f = cpu(VENDOR_INTEL, 6, table[i].model, stepping);
            struct invlpg_global_check c = check(&f, true, table[i].fixed - 1);
            assert_true(c.listed);
            assert_true(c.affected);
            assert_int_equal(c.fixed_microcode, table[i].fixed);
            assert_non_null(c.model_name);
            c = check(&f, true, table[i].fixed);
            assert_true(c.listed);
            assert_false(c.affected);
            c = check(&f, true, table[i].fixed + 0x100);
            assert_false(c.affected);
            /* a revision nobody could read counts as old, as Linux's 0 would */
            c = check(&f, false, 0);
            assert_true(c.affected);
            assert_false(c.microcode_known);
            assert_int_equal(errata_invlpg_global_fixed(VENDOR_INTEL, 6, table[i].model),
                             table[i].fixed);
        }
    }
}

static void test_other_cpus_are_not_listed(void **state)
{
    /* Meteor Lake, Sapphire Rapids, Ice Lake-SP, Skylake-SP; family 6 model 0x97 of another vendor */
    static const uint32_t models[] = { 0xaa, 0xac, 0x8f, 0x6a, 0x55 };
    size_t i;
    struct cpu_features f;
    struct invlpg_global_check c;
    (void)state;
    for (i = 0; i < sizeof(models) / sizeof(models[0]); i++) {
        f = cpu(VENDOR_INTEL, 6, models[i], 0);
        c = check(&f, true, 0x1);
        assert_false(c.listed);
        assert_false(c.affected);
    }
    f = cpu(VENDOR_AMD, 6, 0x97, 2);
    assert_false(check(&f, true, 0x1).listed);
    f = cpu(VENDOR_INTEL, 0x19, 0x97, 2);
    assert_false(check(&f, false, 0).affected);
    assert_int_equal(errata_invlpg_global_fixed(VENDOR_AMD, 6, 0x97), 0);
}

/* The recorded Alder Lake: CPUID 0x90672 is family 6 model 0x97 stepping 2, microcode 0x12 */
static void test_the_recorded_i9_12900k(void **state)
{
    struct cpuid_dump d;
    struct cpu_features f;
    struct invlpg_global_check c;
    (void)state;
    LOAD_DUMP(&d, "intel-i9-12900k.txt");
    cpuid_decode(cpuid_dump_fn, (void *)cpuid_dump_cpu(&d, 0), &f);
    c = check(&f, true, 0x12); /* MSR 0000008B: 0000-0012-0000-0000 in the dump */
    assert_true(c.listed);
    assert_true(c.affected);
    assert_string_equal(c.cpu, "06-97-02");
    assert_string_equal(c.model_name, "Alder Lake (ALDERLAKE)");
    assert_int_equal(c.fixed_microcode, 0x2e);
    cpuid_dump_free(&d);
    LOAD_DUMP(&d, "intel-xeon8180.txt");
    cpuid_decode(cpuid_dump_fn, (void *)cpuid_dump_cpu(&d, 0), &f);
    assert_false(check(&f, true, 0x2000011).listed);
    cpuid_dump_free(&d);
}

static void run_with(struct run *r, const struct cpu_features *f, bool known, uint32_t ucode)
{
    memset(r, 0, sizeof(*r));
    r->cpu = *f;
    method_choose_pcids(r, known, ucode);
}

static void test_pcid_off_on_old_microcode(void **state)
{
    static struct run r;
    struct cpu_features f = cpu(VENDOR_INTEL, 6, 0x97, 2);
    (void)state;
    memset(&r, 0, sizeof(r));
    r.cpu = f;
    assert_true(method_pcid_needs_microcode(&r));
    run_with(&r, &f, true, 0x12);
    assert_false(r.method.pcid_enabled);
    assert_true(r.method.pcid_erratum.affected);
    assert_non_null(strstr(r.method.pcid_reason, "off: erratum invlpg_global_pcid"));
    assert_non_null(strstr(r.method.pcid_reason, "CPU 06-97-02"));
    assert_non_null(strstr(r.method.pcid_reason, "microcode 0x12"));
    assert_non_null(strstr(r.method.pcid_reason, "fixed from 0x2e"));
    run_with(&r, &f, false, 0);
    assert_false(r.method.pcid_enabled);
    assert_non_null(strstr(r.method.pcid_reason, "microcode unknown"));
    /* the fix itself: PCID on, Linux's numbering */
    run_with(&r, &f, true, 0x2e);
    assert_true(r.method.pcid_enabled);
    assert_int_equal(r.method.kernel_pcid, 1);
    assert_int_equal(r.method.user_pcid, 0x801);
    assert_false(r.method.pcid_erratum.affected);
    assert_non_null(strstr(r.method.pcid_reason, "microcode 0x2e has the fix"));
}

static void test_pcid_elsewhere(void **state)
{
    static struct run r;
    struct cpu_features f = cpu(VENDOR_INTEL, 6, 0x55, 4); /* Skylake-SP */
    (void)state;
    memset(&r, 0, sizeof(r));
    r.cpu = f;
    assert_false(method_pcid_needs_microcode(&r));
    run_with(&r, &f, false, 0);
    assert_true(r.method.pcid_enabled);
    assert_false(r.method.pcid_erratum.listed);
    assert_string_equal(r.method.pcid_reason,
                        "on: CPUID.01H:ECX[17] = 1; kernel PCID 0x1, user 0x801 (Linux's numbering)");
    /* an affected model without PCID: nothing to turn off, the CPUID evidence says why */
    f = cpu(VENDOR_INTEL, 6, 0x97, 2);
    f.pcid = false;
    f.evidence.leaf1_ecx = 0x7ff8fbff;
    memset(&r, 0, sizeof(r));
    r.cpu = f;
    assert_false(method_pcid_needs_microcode(&r));
    run_with(&r, &f, true, 0x12);
    assert_false(r.method.pcid_enabled);
    assert_string_equal(r.method.pcid_reason, "off: no PCID (CPUID.01H:ECX[17] = 0, ECX = 0x7ff8fbff)");
}

/* The tool's tables take the depth of the firmware's paging mode */
static void test_paging_levels_follow_cr4_la57(void **state)
{
    (void)state;
    assert_int_equal(method_paging_levels(0x668), 4); /* OVMF's CR4 */
    assert_int_equal(method_paging_levels(0x668 | CR4_LA57), 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_listed_model_at_its_fix),
        cmocka_unit_test(test_other_cpus_are_not_listed),
        cmocka_unit_test(test_the_recorded_i9_12900k),
        cmocka_unit_test(test_pcid_off_on_old_microcode),
        cmocka_unit_test(test_pcid_elsewhere),
        cmocka_unit_test(test_paging_levels_follow_cr4_la57),
    };
    host_init();
    return cmocka_run_group_tests_name("cpu_errata", tests, NULL, NULL);
}
