/*
 * emulate=invpcid on a CPU with PCID but no INVPCID (common in VMs), on the
 * strict TLB model: the #UD is emulated with CR3 switches to the PCID named
 * (core/machine/emulate.c), and a stale translation in a PCID other than the
 * current one must be gone afterwards. Each case first shows, with the same
 * steps minus the INVPCID, that the read would be stale: the check can fail.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "asm/cpu.h"
#include "asm/tlb.h"
#include "core/run/config.h"
#include "core/machine/emulate.h"
#include "tests/host/support_sim.h"

#define KERNEL_PCID 1u
#define USER_PCID (1u | 0x800u) /* core/run/method.c: Linux's numbering */

static struct sim m;

static void start(void)
{
    struct tlbm_config cfg;
    tlbm_config_defaults(&cfg);
    cfg.seed = 11;
    cfg.spec_per_65536 = 0;       /* no speculative fills: only the reads below fill */
    cfg.feat.pcid = true;        /* PCID without INVPCID */
    cfg.feat.invpcid = false;
    sim_init_model(&m, 1, 1000, &cfg);
    emulate_install(&m.smp, EMULATE_INVPCID);
}

static uint64_t root(void) { return read_cr3() & ~CR3_PCID_MASK & ~CR3_NOFLUSH; }

/* Caches page 0 in the user PCID, back to the kernel PCID, then remaps it: the user PCID is stale. */
static void stale_in_user_pcid(void)
{
    write_cr3(root() | USER_PCID | CR3_NOFLUSH);
    (void)tlb_read64(testmem_va(0));
    write_cr3(root() | KERNEL_PCID | CR3_NOFLUSH);
    testmem_flip(&m.tm, 0, 1);
}

/* Stale reads of page 0 seen from the user PCID; back in the kernel PCID after. */
static uint32_t stale_seen_in_user_pcid(void)
{
    uint32_t n;
    write_cr3(root() | USER_PCID | CR3_NOFLUSH);
    n = testmem_check(&m.tm, 0, 1, NULL);
    write_cr3(root() | KERNEL_PCID | CR3_NOFLUSH);
    return n;
}

static void run_case(uint64_t type)
{
    start();
    assert_int_equal(read_cr3() & CR3_PCID_MASK, KERNEL_PCID);
    stale_in_user_pcid();
    assert_int_equal(stale_seen_in_user_pcid(), 1); /* the control: stale without INVPCID */
    stale_in_user_pcid();
    invpcid(type, USER_PCID, testmem_va(0));
    assert_int_equal(emulate_counts()->invpcid, 1);
    assert_int_equal(emulate_counts()->rejected, 0);
    assert_int_equal(read_cr3() & CR3_PCID_MASK, KERNEL_PCID); /* back where it was */
    assert_int_equal(stale_seen_in_user_pcid(), 0);
    assert_int_equal(m.mach.model.violations, 0);
    assert_int_equal(sim_shutdown(&m), 0); /* no violation, every CPU handed back */
}

static void test_address_in_other_pcid(void **state) { (void)state; run_case(INVPCID_ADDRESS); }
static void test_single_context_other_pcid(void **state) { (void)state; run_case(INVPCID_SINGLE_CONTEXT); }
static void test_all_contexts(void **state) { (void)state; run_case(INVPCID_ALL_NON_GLOBAL); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_address_in_other_pcid),
        cmocka_unit_test(test_single_context_other_pcid),
        cmocka_unit_test(test_all_contexts),
    };
    return cmocka_run_group_tests_name("emulate_model", tests, NULL, NULL);
}
