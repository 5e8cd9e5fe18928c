/*
 * How the tool drives the hardware (core/run/hw_policy.c): the APIC mode (Linux's
 * choice by default, the overrides and when they are refused), the fence
 * before an x2APIC ICR write by vendor, and where INVPCID comes from (the
 * probe, not CPUID alone; the emulation only when asked).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "asm/probe.h"
#include "core/run/hw_policy.h"
#include "core/machine/emulate.h"
#include "core/run/method.h"
#include "core/run/run.h"
#include "tests/host/support_host.h"

static struct apic_choice choose(enum apic_request req, bool cpu_x2, bool fw_x2, uint32_t max_id)
{
    struct apic_choice c;
    memset(&c, 0xa5, sizeof(c));
    hw_choose_apic_mode(req, cpu_x2, fw_x2, max_id, &c);
    return c;
}

static void test_auto_follows_linux(void **state)
{
    struct apic_choice c;
    (void)state;
    /* firmware in xAPIC (OVMF, most BIOSes with < 255 CPUs), CPU has x2APIC: switch */
    c = choose(APIC_REQ_AUTO, true, false, 3);
    assert_int_equal(c.mode, APIC_MODE_X2APIC);
    assert_false(c.request_refused);
    assert_non_null(strstr(c.why, "CPUID.01H:ECX[21] = 1"));
    assert_non_null(strstr(c.why, "firmware: xapic"));
    c = choose(APIC_REQ_AUTO, true, true, 300);
    assert_int_equal(c.mode, APIC_MODE_X2APIC);
    /* no x2APIC: the firmware's xAPIC */
    c = choose(APIC_REQ_AUTO, false, false, 7);
    assert_int_equal(c.mode, APIC_MODE_XAPIC);
    assert_false(c.request_refused);
    assert_non_null(strstr(c.why, "CPUID.01H:ECX[21] = 0"));
    /* the bit cleared by firmware (the EPYC 7763 dumps) while it runs x2APIC: stay there */
    c = choose(APIC_REQ_AUTO, false, true, 7);
    assert_int_equal(c.mode, APIC_MODE_X2APIC);
}

static void test_overrides(void **state)
{
    struct apic_choice c;
    (void)state;
    c = choose(APIC_REQ_XAPIC, true, true, 254);
    assert_int_equal(c.mode, APIC_MODE_XAPIC);
    assert_false(c.request_refused);
    c = choose(APIC_REQ_XAPIC, true, true, 255); /* 255 is xAPIC's broadcast ID */
    assert_int_equal(c.mode, APIC_MODE_X2APIC);
    assert_true(c.request_refused);
    assert_string_equal(c.why, "apic=xapic, but APIC ID 255 does not fit xAPIC's 8 bits: "
                               "staying in x2apic mode");
    c = choose(APIC_REQ_X2APIC, true, false, 3);
    assert_int_equal(c.mode, APIC_MODE_X2APIC);
    assert_false(c.request_refused);
    c = choose(APIC_REQ_X2APIC, false, false, 3);
    assert_int_equal(c.mode, APIC_MODE_XAPIC);
    assert_true(c.request_refused);
    assert_string_equal(c.why, "apic=x2apic, but CPUID.01H:ECX[21] (x2APIC) is 0: staying in "
                               "xapic mode");
}

static struct apic_choice choose_under(enum emulator emu, enum apic_request req, bool fw_x2)
{
    struct apic_choice c = choose(req, true, fw_x2, 3);
    hw_apic_for_emulator(emu, req, fw_x2, &c);
    return c;
}

/*
 * Bochs drops IA32_APIC_BASE writes while its APIC is disabled, so handing an
 * xAPIC firmware its mode back from x2APIC hangs the run: it stays in xAPIC.
 */
static void test_bochs_keeps_xapic(void **state)
{
    struct apic_choice c;
    (void)state;
    c = choose_under(EMULATOR_BOCHS, APIC_REQ_AUTO, false);
    assert_int_equal(c.mode, APIC_MODE_XAPIC);
    assert_false(c.request_refused);
    assert_string_equal(c.why, "apic=auto, emulator=bochs: xapic, the firmware's mode (Bochs "
                               "ignores APIC base writes while disabled: the x2APIC hand-back "
                               "would hang)");
    c = choose_under(EMULATOR_BOCHS, APIC_REQ_X2APIC, false);
    assert_int_equal(c.mode, APIC_MODE_XAPIC);
    assert_true(c.request_refused);
    assert_non_null(strstr(c.why, "apic=x2apic, emulator=bochs"));
    c = choose_under(EMULATOR_BOCHS, APIC_REQ_XAPIC, false);
    assert_int_equal(c.mode, APIC_MODE_XAPIC);
    assert_string_equal(c.why, "apic=xapic (firmware: xapic)");
    /* an x2APIC firmware gets x2APIC back without passing through "disabled" */
    c = choose_under(EMULATOR_BOCHS, APIC_REQ_AUTO, true);
    assert_int_equal(c.mode, APIC_MODE_X2APIC);
    /* on anything else Linux's choice stands */
    c = choose_under(EMULATOR_NONE, APIC_REQ_AUTO, false);
    assert_int_equal(c.mode, APIC_MODE_X2APIC);
    assert_non_null(strstr(c.why, "CPUID.01H:ECX[21] = 1"));
}

static void test_icr_fence_by_vendor(void **state)
{
    (void)state;
    /* Linux: X86_FEATURE_APIC_MSRS_FENCE everywhere, cleared by init_amd() and init_hygon() */
    assert_true(hw_icr_fence_needed(VENDOR_INTEL, APIC_MODE_X2APIC));
    assert_true(hw_icr_fence_needed(VENDOR_OTHER, APIC_MODE_X2APIC)); /* Zhaoxin, Centaur, ... */
    assert_false(hw_icr_fence_needed(VENDOR_AMD, APIC_MODE_X2APIC));
    assert_false(hw_icr_fence_needed(VENDOR_HYGON, APIC_MODE_X2APIC));
    /* xAPIC: an MMIO store, ordered like any store */
    assert_false(hw_icr_fence_needed(VENDOR_INTEL, APIC_MODE_XAPIC));
    assert_false(hw_icr_fence_needed(VENDOR_OTHER, APIC_MODE_XAPIC));
}

static void test_invpcid_from_probe(void **state)
{
    (void)state;
    assert_true(hw_invpcid_usable(true, PROBE_OK));
    assert_false(hw_invpcid_usable(true, PROBE_FAULTED(6))); /* a hypervisor's CPUID lies */
    assert_false(hw_invpcid_usable(false, PROBE_OK));        /* not probed: CPUID says no */
    assert_int_equal(hw_invpcid_source(true, PROBE_OK, false), INVPCID_HARDWARE);
    assert_int_equal(hw_invpcid_source(true, PROBE_OK, true), INVPCID_HARDWARE);
    assert_int_equal(hw_invpcid_source(true, PROBE_FAULTED(6), false), INVPCID_NONE);
    assert_int_equal(hw_invpcid_source(true, PROBE_FAULTED(6), true), INVPCID_EMULATED);
    assert_int_equal(hw_invpcid_source(false, PROBE_OK, true), INVPCID_EMULATED);
    assert_int_equal(hw_invpcid_source(false, PROBE_OK, false), INVPCID_NONE);
}

/* method_apply_probes picks the full flush from those decisions */
static void test_full_flush_from_probe(void **state)
{
    static struct run r;
    (void)state;
    memset(&r, 0, sizeof(r));
    r.cpu.invpcid = true;
    method_apply_probes(&r, PROBE_FAULTED(6), PROBE_OK, PROBE_OK);
    assert_string_equal(r.method.full_flush, "cr3_reload");
    assert_null(r.method.full_flush_variant);
    assert_false(r.method.invpcid_probe_ok);
    assert_int_equal(r.warnings.count, 1);
    memset(&r, 0, sizeof(r));
    r.cpu.invpcid = true;
    r.cfg.emulate = EMULATE_INVPCID;
    method_apply_probes(&r, PROBE_FAULTED(6), PROBE_OK, PROBE_OK);
    /* Linux's CR3 write stays the full flush; INVPCID is the variant, emulated */
    assert_string_equal(r.method.full_flush, "cr3_reload");
    assert_string_equal(r.method.full_flush_variant, "invpcid_single_context");
    assert_true(r.method.full_flush_emulated);
    memset(&r, 0, sizeof(r));
    r.cpu.invpcid = true;
    method_apply_probes(&r, PROBE_OK, PROBE_OK, PROBE_OK);
    assert_true(r.method.invpcid_probe_ok);
    assert_string_equal(r.method.full_flush_variant, "invpcid_single_context");
    assert_false(r.method.full_flush_emulated);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_auto_follows_linux),
        cmocka_unit_test(test_overrides),
        cmocka_unit_test(test_bochs_keeps_xapic),
        cmocka_unit_test(test_icr_fence_by_vendor),
        cmocka_unit_test(test_invpcid_from_probe),
        cmocka_unit_test(test_full_flush_from_probe),
    };
    host_init();
    return cmocka_run_group_tests_name("hw_policy", tests, NULL, NULL);
}
