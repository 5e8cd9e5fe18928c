/*
 * The strict aarch64 model's stage-2 rules at EL2 (sim/arm64/tlbi_model_s2.c), one instruction
 * at a time on one thread: KVM's __kvm_tlb_flush_vmid_ipa (IPAS2E1IS per IPA, DSB ISH,
 * VMALLE1IS, DSB ISH, ISB) under a loaded VMID is no model error, and each breach the
 * stage2_kvm method relies on the model catching is one: a stage-2 TLBI at EL1 or with
 * VMID 0 in VTTBR_EL2, an IPA outside the frames, VMALLE1IS before a DSB ISH completed the
 * IPAS2E1IS, an ISB ending the sequence without VMALLE1IS or before its DSB ISH, and a
 * VTTBR_EL2 write at EL1. Also asm/tlbi.h's IPAS2E1IS operand: IPA[47:12] in [35:0], TTL in
 * [47:44]. tests/sim/arm64_app.sh's EL2 run holds the app's own sequence to these rules.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "asm/stage2.h"
#include "asm/tlbi.h"
#include "sim/arm64/tlbi_model.h"

#define BASE 0x40000000ull
#define FRAMES 16u

static struct a64_model m;

/* a 2-CPU model at `el`, CPU 0 holding VTTBR_EL2 with `vmid` (none at EL1) */
static void model_at(unsigned el, uint16_t vmid)
{
    struct a64m_config cfg;
    uint64_t vtcr, vttbr;
    a64m_config_defaults(&cfg);
    assert_true(a64m_init(&m, &cfg, 2, 8, FRAMES, BASE));
    a64m_set_el(&m, el);
    if (el == 2)
        a64m_s2_switch(&m, 0, stage2_vtcr(5), stage2_vttbr(0x1000, vmid), &vtcr, &vttbr);
}

/* the model errors so far contain `what` (the first one of them) */
static void refused(const char *what)
{
    assert_true(m.violations > 0);
    if (!strstr(m.violation[0], what))
        fail_msg("model error \"%s\" does not say \"%s\"", m.violation[0], what);
}

/* KVM's sequence for pages [0, n) on CPU 0; `dsb_between`, `vmall`: the steps a mutant drops */
static void kvm_sequence(uint32_t n, bool dsb_between, bool vmall)
{
    uint32_t i;
    a64m_dsb_ishst(&m, 0);
    for (i = 0; i < n; i++)
        a64m_tlbi(&m, 0, TLBI_IPAS2E1IS, tlbi_ipa_operand((uint64_t)i << 12, TLBI_TTL_4K_L3));
    if (dsb_between)
        a64m_dsb_ish(&m, 0);
    if (vmall)
        a64m_tlbi(&m, 0, TLBI_VMALLE1IS_VMID, 0);
    a64m_dsb_ish(&m, 0);
    a64m_isb(&m, 0);
}

static void test_ipa_operand(void **state)
{
    (void)state;
    assert_int_equal(tlbi_ipa_operand(0x123456789000ull, TLBI_TTL_4K_L3), (7ull << 44) | 0x123456789ull);
    assert_int_equal(tlbi_ipa_operand(0x5000, TLBI_TTL_NONE), 5);
    /* VMID [55:48], the table's address [47:12]; VTCR: T0SZ 25, SL0 1, PS, RES1 bit 31 */
    assert_int_equal(stage2_vttbr(0x81234000ull, 1), (1ull << 48) | 0x81234000ull);
    assert_int_equal(stage2_vtcr(2) & 0x3f, 25);
    assert_int_equal((stage2_vtcr(2) >> 6) & 3, 1);
    assert_int_equal((stage2_vtcr(6) >> 16) & 7, 5);
    assert_true(stage2_vtcr(0) & (1ull << 31));
}

static void test_kvm_sequence_passes(void **state)
{
    struct a64m_counts n;
    uint64_t vtcr, vttbr;
    (void)state;
    model_at(2, 1);
    kvm_sequence(8, true, true);
    kvm_sequence(1, true, true);
    a64m_s2_switch(&m, 0, 0, 0, &vtcr, &vttbr); /* the firmware's back */
    assert_int_equal(m.violations, 0);
    assert_int_equal(vttbr >> 48, 1);
    a64m_sum_counts(&m, &n);
    assert_int_equal(n.tlbi_ipas2, 9);
    assert_int_equal(n.tlbi_vmall_vmid, 2);
    a64m_free(&m);
}

/* KVM's sequence with a step left out or in the wrong context: each a model error */
static void test_sequence_breaches_refused(void **state)
{
    static const struct {
        unsigned el;
        uint16_t vmid;
        bool dsb_between, vmall;
        const char *what;
    } cases[] = {
        { 1, 0, true, true, "at EL1: a guest kernel cannot issue stage-2 TLBIs" },
        { 2, 0, true, true, "VMID 0, the tool's VMID not loaded" },
        { 2, 1, false, true, "VMALLE1IS before a DSB ISH completed the IPAS2E1IS" },
        { 2, 1, true, false, "no TLBI VMALLE1IS after its IPAS2E1IS" },
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        model_at(cases[i].el, cases[i].vmid);
        kvm_sequence(4, cases[i].dsb_between, cases[i].vmall);
        refused(cases[i].what);
        a64m_free(&m);
    }
}

/* the rest: a VTTBR_EL2 write at EL1, a CPU that never loaded the VMID, an IPA past the frames,
 * VMALLE1IS ended by the ISB before its DSB ISH */
static void test_context_refused(void **state)
{
    uint64_t vtcr, vttbr;
    (void)state;
    model_at(1, 0);
    a64m_s2_switch(&m, 0, 1, 1, &vtcr, &vttbr);
    refused("written at EL1");
    a64m_free(&m);
    model_at(2, 1);
    a64m_tlbi(&m, 1, TLBI_VMALLE1IS_VMID, 0);
    refused("VMID 0");
    a64m_free(&m);
    model_at(2, 1);
    a64m_tlbi(&m, 0, TLBI_IPAS2E1IS, tlbi_ipa_operand((uint64_t)FRAMES << 12, TLBI_TTL_NONE));
    refused("outside the region's frames");
    a64m_free(&m);
    model_at(2, 1);
    a64m_tlbi(&m, 0, TLBI_IPAS2E1IS, tlbi_ipa_operand(0, TLBI_TTL_NONE));
    a64m_dsb_ish(&m, 0);
    a64m_tlbi(&m, 0, TLBI_VMALLE1IS_VMID, 0);
    a64m_isb(&m, 0);
    refused("VMALLE1IS not completed by a DSB ISH");
    a64m_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ipa_operand),
        cmocka_unit_test(test_kvm_sequence_passes),
        cmocka_unit_test(test_sequence_breaches_refused),
        cmocka_unit_test(test_context_refused),
    };
    return cmocka_run_group_tests_name("aarch64 model: stage 2 at EL2", tests, NULL, NULL);
}
