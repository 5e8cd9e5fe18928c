/*
 * The tool's own APIC driver (arch/x86/apic.c) and takeover (core/machine/takeover.c)
 * on the modelled local APIC (sim/lapic.h): the mode transitions the SDM
 * allows and those that fault, the takeover and hand-back in every pair of
 * firmware and tool modes, highest-priority-first delivery, the ICR fence
 * (once per send, whatever the number of destinations) and the unordered
 * x2APIC ICR write the model flags where the fence is missing, and the
 * xAPIC ICR's delivery status. Mutants icr_fence_missing,
 * lapic_lowest_first, x2apic_to_xapic_direct and leave_keeps_tool_idt are
 * killed here (tests/sim/mutants.sh).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "asm/apic.h"
#include "asm/cpu.h"
#include "asm/trap.h"
#include "core/lib/atomic.h"
#include "core/machine/ipi.h"
#include "core/machine/timing.h"
#include "tests/host/support_sim.h"

#define XAPIC_PAGE 0xfee00000ull

/* Exactly one violation since the last look, naming `needle`; the list is emptied. */
static void expect_violation(struct sim_machine *m, const char *needle)
{
    if (m->model.violations != 1 || !strstr(m->model.violation[0], needle))
        fail_msg("expected one violation with \"%s\", got %u: %s", needle, m->model.violations,
                 m->model.violations ? m->model.violation[0] : "");
    m->model.violations = 0;
}

static void expect_none(struct sim_machine *m)
{
    if (m->model.violations)
        fail_msg("unexpected violation: %s", m->model.violation[0]);
}

static void test_mode_transitions_follow_the_sdm(void **state)
{
    static struct sim_machine mach;
    struct tlbm_config cfg;
    struct sim_lapic_config with_x2 = { true, false, false }, without_x2 = { false, false, false };
    uint64_t base;
    (void)state;
    host_init();
    tlbm_config_defaults(&cfg);
    assert_true(sim_machine_init(&mach, 2, &cfg, 1, 2));
    sim_machine_set_apic(&mach, &with_x2, 1);
    sim_bind(&mach, 0, NULL);

    base = rdmsr(MSR_IA32_APIC_BASE);
    assert_int_equal(base, XAPIC_PAGE | APIC_BASE_ENABLE | APIC_BASE_BSP);
    apic_use_mode(APIC_MODE_XAPIC, base & ~0xfffull);
    assert_int_equal(apic_hw_mode(), APIC_MODE_XAPIC);
    assert_int_equal(apic_id(), 0);
    apic_write(APIC_REG_TPR, 0x20);
    assert_int_equal(apic_read(APIC_REG_TPR), 0x20);

    /* xAPIC -> x2APIC: a direct write of EXTD; the registers stay */
    wrmsr(MSR_IA32_APIC_BASE, base | APIC_BASE_EXTD);
    expect_none(&mach);
    apic_use_mode(APIC_MODE_X2APIC, 0);
    assert_int_equal(apic_hw_mode(), APIC_MODE_X2APIC);
    assert_int_equal(apic_read(APIC_REG_TPR), 0x20);
    /* x2APIC -> xAPIC directly: #GP, the mode stays */
    wrmsr(MSR_IA32_APIC_BASE, base);
    expect_violation(&mach, "must pass through disabled");
    assert_int_equal(apic_hw_mode(), APIC_MODE_X2APIC);
    /* through disabled: legal, and disabling resets the APIC */
    wrmsr(MSR_IA32_APIC_BASE, base & ~APIC_BASE_ENABLE);
    wrmsr(MSR_IA32_APIC_BASE, base);
    expect_none(&mach);
    apic_use_mode(APIC_MODE_XAPIC, 0);
    assert_int_equal(apic_read(APIC_REG_TPR), 0);
    assert_int_equal(apic_read(APIC_REG_SVR), 0xff);
    assert_int_equal(apic_read(APIC_REG_LVT_TIMER), APIC_LVT_MASKED);
    /* disabled -> x2APIC directly: #GP */
    wrmsr(MSR_IA32_APIC_BASE, base & ~APIC_BASE_ENABLE);
    wrmsr(MSR_IA32_APIC_BASE, base | APIC_BASE_EXTD);
    expect_violation(&mach, "must pass through xAPIC");
    wrmsr(MSR_IA32_APIC_BASE, base);
    expect_none(&mach);

    /* what faults in x2APIC mode */
    wrmsr(MSR_IA32_APIC_BASE, base | APIC_BASE_EXTD);
    apic_use_mode(APIC_MODE_X2APIC, 0);
    apic_write(APIC_REG_LVT_LINT0, 0x700 | (1u << 12)); /* the read-only delivery status */
    expect_violation(&mach, "#GP: WRMSR 0x835");
    apic_write(APIC_REG_LVT_LINT0, 0x700);
    expect_none(&mach);
    (void)rdmsr(0x831); /* no ICR high half: the ICR is one 64-bit MSR */
    expect_violation(&mach, "#GP: read of x2APIC MSR 0x831");
    apic_write(APIC_REG_EOI, 1);
    expect_violation(&mach, "#GP: WRMSR 0x80b");
    (void)rdmsr(0x80b);
    expect_violation(&mach, "write-only");
    (void)mmio_read32((volatile uint32_t *)(uintptr_t)(XAPIC_PAGE + APIC_REG_ID));
    expect_violation(&mach, "not decoded");
    /* an xAPIC register through an MSR while in xAPIC mode */
    wrmsr(MSR_IA32_APIC_BASE, base & ~APIC_BASE_ENABLE);
    wrmsr(MSR_IA32_APIC_BASE, base);
    (void)rdmsr(0x808);
    expect_violation(&mach, "in xAPIC mode");

    /* EXTD on a CPU without x2APIC */
    sim_machine_set_apic(&mach, &without_x2, 1);
    wrmsr(MSR_IA32_APIC_BASE, base | APIC_BASE_EXTD);
    expect_violation(&mach, "without x2APIC");
    sim_unbind();
    sim_machine_free(&mach);
}

/* Every CPU in the tool's state: its APIC, IDT, GDT, GS base, CR3, and the 8259 masks. */
static void check_taken_over(struct sim *m, enum apic_mode mode)
{
    uint32_t i;
    for (i = 0; i < m->ncpus; i++) {
        const struct sim_lapic *l = &m->mach.lapic[i];
        const struct sim_cpu_regs *r = &m->mach.regs[i];
        uint64_t base = __atomic_load_n(&l->base, __ATOMIC_ACQUIRE);
        assert_int_equal((base & APIC_BASE_EXTD) != 0, mode == APIC_MODE_X2APIC);
        assert_true(base & APIC_BASE_ENABLE);
        assert_int_equal(l->tpr, TOOL_TPR);
        assert_int_equal(l->svr & 0x1ff, APIC_SVR_ENABLE | 0xff);
        assert_true(l->lvt[4] & APIC_LVT_MASKED);                          /* LINT0 */
        assert_int_equal((l->lvt[5] & APIC_LVT_MASKED) != 0, i != 0);      /* LINT1: APs only */
        assert_int_equal(r->cs, TOOL_CS);
        assert_int_equal(r->ss, TOOL_DS);
        assert_true(r->idtr.base != (uint64_t)(uintptr_t)m->mach.firmware_idt);
        assert_int_equal(r->idtr.limit, 256 * 16 - 1);
        assert_int_equal(r->gs_base, (uint64_t)(uintptr_t)&m->smp.cpu[i]->arch);
        assert_int_equal(m->mach.model.cpu[i]->cr3 & ~CR3_PCID_MASK, m->env.cr3);
    }
    assert_int_equal(m->mach.pic_mask[0], 0xff);
    assert_int_equal(m->mach.pic_mask[1], 0xff);
}

static int64_t answer(struct percpu *self, void *arg)
{
    (void)arg;
    return (int64_t)self->index + 100;
}

static void test_takeover_and_hand_back_in_every_mode_pair(void **state)
{
    static struct sim m;
    struct tlbm_config cfg;
    unsigned pair;
    (void)state;
    tlbm_config_defaults(&cfg);
    for (pair = 0; pair < 4; pair++) {
        struct sim_lapic_config apic = { true, pair & 1, false };
        enum apic_mode mode = pair & 2 ? APIC_MODE_X2APIC : APIC_MODE_XAPIC;
        uint32_t i;
        int64_t result = 0;
        sim_init_apic(&m, 3, 2000, &cfg, &apic, mode, mode == APIC_MODE_X2APIC);
        expect_none(&m.mach);
        for (i = 1; i < 3; i++)
            sim_start(&m, i);
        check_taken_over(&m, mode);
        for (i = 1; i < 3; i++) { /* the mailbox and its wake-up IPIs work */
            assert_int_equal(smp_call(&m.smp, i, CMD_GENERIC, answer, NULL, &result), WAIT_OK);
            assert_int_equal(result, (int64_t)i + 100);
        }
        /* every CPU back in the firmware's state, nothing pending: sim_check_handback */
        assert_int_equal(sim_shutdown(&m), 0);
        for (i = 0; i < 3; i++) {
            assert_int_equal(m.mach.lapic[i].base, m.mach.lapic[i].fw_base);
            assert_int_equal(m.mach.regs[i].idtr.base, (uint64_t)(uintptr_t)m.mach.firmware_idt);
            assert_int_equal(m.mach.regs[i].gs_base, 0);
        }
    }
}

/* ---- delivery order ---- */

static uint8_t seen[8];
static unsigned nseen;

static void record(struct trap_frame *f)
{
    if (nseen < 8)
        seen[nseen++] = (uint8_t)f->vector;
}

static void test_highest_priority_vector_first(void **state)
{
    static struct sim m;
    (void)state;
    sim_init(&m, 1, 2000);
    trap_set_irq_handler(0xf9, record);
    trap_set_irq_handler(0xfa, record);
    trap_set_irq_handler(0xfb, record);
    trap_set_irq_handler(0x50, record);
    nseen = 0;
    irq_disable();
    assert_true(apic_send_ipi(0, 0xf9));
    assert_true(apic_send_ipi(0, 0xfb));
    assert_true(apic_send_ipi(0, 0x50)); /* class 5: below the tool's TPR */
    assert_true(apic_send_ipi(0, 0xfa));
    assert_true(apic_vectors_pending(0xf9));
    irq_enable(); /* the highest first, each EOId by trap_dispatch before the next */
    assert_int_equal(nseen, 3);
    assert_int_equal(seen[0], 0xfb);
    assert_int_equal(seen[1], 0xfa);
    assert_int_equal(seen[2], 0xf9);
    /* TPR 0xe0 holds class 5 back until it is lowered */
    assert_true(apic_vectors_pending(0x50));
    apic_write(APIC_REG_TPR, 0);
    cpu_relax();
    assert_int_equal(nseen, 4);
    assert_int_equal(seen[3], 0x50);
    apic_write(APIC_REG_TPR, TOOL_TPR);
    assert_false(apic_vectors_pending(0x10));
    assert_int_equal(m.mach.lapic[0].eois, 4);
    assert_int_equal(sim_shutdown(&m), 0);
}

/* ---- ordering of the ICR write after the stores before it ---- */

static volatile uint64_t request;

static void test_one_fence_per_mask(void **state)
{
    static struct sim m;
    static const uint32_t cpus[3] = { 1, 2, 3 };
    const struct sim_lapic *bsp;
    uint64_t fences, writes;
    uint32_t i;
    (void)state;
    sim_init(&m, 4, 2000); /* Intel-like APICs, x2APIC, the fence on */
    for (i = 1; i < 4; i++)
        sim_start(&m, i);
    bsp = &m.mach.lapic[0];
    fences = bsp->fences;
    writes = bsp->icr_writes;
    store_relaxed(&request, 1); /* the request the targets will read */
    ipi_send_each(&m.smp, cpus, 3, VEC_WAKE);
    assert_int_equal(bsp->fences - fences, 1);
    assert_int_equal(bsp->icr_writes - writes, 3);
    store_relaxed(&request, 2);
    assert_true(apic_send_ipi_mask(cpus, 3, m.smp.apic_id, 2, VEC_WAKE)); /* all but CPU 2 */
    assert_int_equal(bsp->fences - fences, 2);
    assert_int_equal(bsp->icr_writes - writes, 5);
    store_relaxed(&request, 3);
    assert_true(apic_send_ipi(1, VEC_WAKE)); /* one destination: still one fence */
    assert_int_equal(bsp->fences - fences, 3);
    assert_int_equal(bsp->icr_writes - writes, 6);
    expect_none(&m.mach); /* every ICR write was ordered after the stores */
    assert_int_equal(sim_shutdown(&m), 0);
}

/*
 * x2APIC cluster mode (issue 21): targets in two clusters of 16 APIC IDs,
 * one logical ICR write per cluster, and exactly the targets' IRRs set
 * (mutant cluster_ipis_physical sends the same destinations as physical
 * IDs: no CPU has them).
 */
static void test_cluster_ipis_reach_their_targets_only(void **state)
{
    static struct sim m;
    static const uint32_t targets[4] = { 3, 5, 17, 18 }; /* clusters 0 and 1 */
    const struct sim_lapic *bsp;
    uint64_t writes, fences;
    uint32_t i, v = VEC_WAKE;
    (void)state;
    sim_init(&m, 20, 2000);
    bsp = &m.mach.lapic[0];
    writes = bsp->icr_writes;
    fences = bsp->fences;
    assert_int_equal(apic_cluster_writes(targets, 4, m.smp.apic_id, UINT32_MAX), 2);
    assert_int_equal(apic_cluster_writes(targets, 4, m.smp.apic_id, 17), 2);
    assert_int_equal(apic_cluster_writes(targets, 2, m.smp.apic_id, UINT32_MAX), 1);
    assert_true(apic_send_ipi_cluster(targets, 4, m.smp.apic_id, UINT32_MAX, (uint8_t)v));
    assert_int_equal(bsp->icr_writes - writes, 2);
    assert_int_equal(bsp->fences - fences, 1);
    expect_none(&m.mach);
    for (i = 0; i < 20; i++) {
        bool want = i == 3 || i == 5 || i == 17 || i == 18;
        uint32_t *irr = (uint32_t *)&m.mach.lapic[i].irr[v / 32];
        if (((*irr >> (v % 32)) & 1) != want)
            fail_msg("CPU %u: vector 0x%x %s", i, v, want ? "not delivered" : "delivered");
        *irr &= ~(1u << (v % 32)); /* the APs never run: nothing may stay pending */
    }
    assert_int_equal(apic_x2_logical_dest(17), 0x10002u);
    assert_int_equal(sim_shutdown(&m), 0);
}

static uint64_t pte_word; /* a page-table entry no walk reaches */

static void send_after_a_store(struct sim *m, const struct sim_lapic_config *apic,
                               enum apic_mode mode, bool fence)
{
    struct tlbm_config cfg;
    tlbm_config_defaults(&cfg);
    sim_init_apic(m, 2, 2000, &cfg, apic, mode, fence);
    sim_start(m, 1);
    store_relaxed(&request, 4);
    assert_true(apic_send_ipi(1, VEC_WAKE));
}

static void test_unordered_x2apic_icr_write_is_flagged(void **state)
{
    static struct sim m;
    const struct sim_lapic_config intel = { true, false, false }, amd = { true, false, true };
    (void)state;
    /* Intel, x2APIC, no fence: the WRMSR may pass the store */
    send_after_a_store(&m, &intel, APIC_MODE_X2APIC, false);
    expect_violation(&m.mach, "CPU 0: x2APIC ICR write (WRMSR 0x830 = 0x1000040f0) not ordered");
    /* nothing pending after a full barrier: nothing to order */
    store_relaxed(&request, 5);
    full_barrier();
    assert_true(apic_send_ipi(1, VEC_WAKE));
    expect_none(&m.mach);
    /* a PTE store (the remap before a shootdown's IPIs) is pending like any other store */
    pte_store(&pte_word, 0x5000 | 1, 0x7e0000000000ull);
    assert_true(apic_send_ipi(1, VEC_WAKE));
    expect_violation(&m.mach, "CPU 0: x2APIC ICR write (WRMSR 0x830 = 0x1000040f0) not ordered");
    apic_set_icr_fence(true); /* for the release's posts */
    assert_int_equal(sim_shutdown(&m), 0);
    /* AMD serialises x2APIC WRMSRs; xAPIC's ICR is an uncached store: no fence needed */
    send_after_a_store(&m, &amd, APIC_MODE_X2APIC, false);
    assert_int_equal(sim_shutdown(&m), 0);
    send_after_a_store(&m, &intel, APIC_MODE_XAPIC, false);
    assert_int_equal(sim_shutdown(&m), 0);
}

/* An xAPIC ICR written again before the last IPI left is lost; apic_send_ipi waits. */
static void test_xapic_send_waits_for_delivery_status(void **state)
{
    static struct sim m;
    struct tlbm_config cfg;
    const struct sim_lapic_config intel = { true, false, false };
    uint32_t i, lost = 0;
    (void)state;
    tlbm_config_defaults(&cfg);
    sim_init_apic(&m, 2, 2000, &cfg, &intel, APIC_MODE_XAPIC, false);
    sim_start(&m, 1);
    for (i = 0; i < 50; i++)
        assert_true(apic_send_ipi(1, VEC_WAKE));
    expect_none(&m.mach);
    apic_write(APIC_REG_ICR_HI, 1u << 24);
    for (i = 0; i < 50; i++) { /* no wait for the delivery status */
        uint32_t before = m.mach.model.violations;
        apic_write(APIC_REG_ICR_LO, APIC_ICR_LEVEL_ASSERT | VEC_WAKE);
        lost += m.mach.model.violations - before;
    }
    assert_true(lost > 0);
    assert_non_null(strstr(m.mach.model.violation[0], "still being sent"));
    m.mach.model.violations = 0;
    assert_int_equal(sim_shutdown(&m), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mode_transitions_follow_the_sdm),
        cmocka_unit_test(test_takeover_and_hand_back_in_every_mode_pair),
        cmocka_unit_test(test_highest_priority_vector_first),
        cmocka_unit_test(test_one_fence_per_mask),
        cmocka_unit_test(test_cluster_ipis_reach_their_targets_only),
        cmocka_unit_test(test_unordered_x2apic_icr_write_is_flagged),
        cmocka_unit_test(test_xapic_send_waits_for_delivery_status),
    };
    return cmocka_run_group_tests_name("APIC driver and takeover on the modelled local APIC", tests,
                                       NULL, NULL);
}
