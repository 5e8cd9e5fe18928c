/*
 * The conditions' bookkeeping (core/run/conditions_sum.c) on recorded MSR
 * values: SMIs per CPU and in total (every CPU counted, not one standing
 * for all), the PMC's 48-bit wrap, every way a count goes missing with its
 * evidence (#GP on the write, a select an emulator dropped, no free
 * counter, a hypervisor), and the effective clock per role weighted by the
 * time each CPU was awake, where a CPU awake for a few microseconds at a
 * high ratio no longer moves the figure. The PMC's MSR layout too.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "asm/pmc.h"
#include "core/run/conditions.h"

#define N 4

static struct cond_cpu_sample before[N], after[N];
static uint64_t per_cpu[N];

static void reset(struct exp_conditions *c, enum smi_method m)
{
    uint32_t i;
    memset(c, 0, sizeof(*c));
    memset(before, 0, sizeof(before));
    memset(after, 0, sizeof(after));
    c->smi_method = m;
    c->smi_per_cpu = per_cpu;
    c->pmc_ext_core = true;
    c->tsc_mhz = 2000;
    for (i = 0; i < N; i++) {
        before[i].taken = after[i].taken = true;
        before[i].pmc_index = 5;
    }
}

static void test_smis_counted_on_every_cpu(void **state)
{
    struct exp_conditions c;
    (void)state;
    reset(&c, SMI_METHOD_PMC);
    /* an SMI reaches every CPU: one each on CPUs 0, 1, 3; two on CPU 2; CPU 0 from 0x7 */
    before[0].smi = 7;
    after[0].smi = 8;
    after[1].smi = 1;
    after[2].smi = 2;
    after[3].smi = 1;
    conditions_summarise(&c, before, after, N);
    assert_true(c.smi_counter);
    assert_int_equal(c.smi_cpus, 4);
    assert_int_equal(c.smi_total, 5);
    assert_int_equal(per_cpu[0], 1);
    assert_int_equal(per_cpu[2], 2);
    assert_int_equal(c.pmc_ctl, 0xc001020a);
    assert_int_equal(c.pmc_ctr, 0xc001020b);
    assert_string_equal(c.smi_absent, "");
}

static void test_pmc_wraps_at_48_bits_and_skips_cpus_not_sampled(void **state)
{
    struct exp_conditions c;
    (void)state;
    reset(&c, SMI_METHOD_PMC);
    before[1].smi = AMD_PMC_MASK; /* one SMI wraps it to 0 */
    after[1].smi = 0;
    before[2].taken = false;      /* not sampled (a cpus= selection): neither counted nor a failure */
    conditions_summarise(&c, before, after, N);
    assert_true(c.smi_counter);
    assert_int_equal(c.smi_cpus, 3);
    assert_int_equal(c.smi_total, 1);
    assert_int_equal(per_cpu[1], 1);
    assert_true(per_cpu[2] == SMI_NOT_COUNTED);
}

static void test_write_fault_is_not_countable_with_evidence(void **state)
{
    struct exp_conditions c;
    (void)state;
    reset(&c, SMI_METHOD_PMC);
    before[2].smi_failure = SMI_WRITE_FAULT;
    before[2].smi_fault = 14; /* #GP + 1 */
    before[2].smi_msr = 0xc001020b;
    after[2].smi_failure = SMI_NOT_TRIED;
    conditions_summarise(&c, before, after, N);
    assert_false(c.smi_counter);
    assert_int_equal(c.smi_fault, 14);
    assert_non_null(strstr(c.smi_absent, "LsSmiRx"));
    assert_non_null(strstr(c.smi_absent, "CPU 2: WRMSR 0xc001020b took exception 13"));
}

static void test_dropped_select_and_busy_counters(void **state)
{
    struct exp_conditions c;
    (void)state;
    reset(&c, SMI_METHOD_PMC);
    /* what an emulator that takes the write and keeps nothing looks like */
    before[0].smi_failure = SMI_SELECT_LOST;
    before[0].smi_msr = 0xc001020a;
    before[0].pmc_select = amd_pmc_select(AMD_EVENT_LS_SMI_RX);
    before[0].pmc_select_read = 0;
    conditions_summarise(&c, before, after, N);
    assert_false(c.smi_counter);
    assert_int_equal(c.smi_fault, 0);
    assert_non_null(strstr(c.smi_absent, "CPU 0: PerfEvtSel5 (MSR 0xc001020a) read back 0x0 "
                                         "after 0x43002b was written"));
    reset(&c, SMI_METHOD_PMC);
    before[3].smi_failure = SMI_NO_FREE_COUNTER;
    conditions_summarise(&c, before, after, N);
    assert_false(c.smi_counter);
    assert_non_null(strstr(c.smi_absent, "CPU 3: all 6 counters were enabled already"));
}

static void test_hypervisor_count_not_trusted(void **state)
{
    struct exp_conditions c;
    (void)state;
    reset(&c, SMI_METHOD_PMC);
    c.smi_blocked = "not trusted under a hypervisor";
    after[0].smi = 3;
    conditions_summarise(&c, before, after, N);
    assert_false(c.smi_counter);
    assert_non_null(strstr(c.smi_absent, "not trusted under a hypervisor; tried anyway: counted 3 on 4 "
                                         "CPUs"));
}

static void test_msr34_per_cpu_and_no_method(void **state)
{
    struct exp_conditions c;
    (void)state;
    reset(&c, SMI_METHOD_MSR34);
    before[3].smi = 40;
    after[3].smi = 42;
    conditions_summarise(&c, before, after, N);
    assert_true(c.smi_counter);
    assert_int_equal(c.smi_total, 2);
    assert_int_equal(per_cpu[3], 2);
    assert_int_equal(c.pmc_ctl, 0);
    reset(&c, SMI_METHOD_NONE);
    strcpy(c.smi_absent, "no SMI counter known for vendor X");
    conditions_summarise(&c, before, after, N);
    assert_false(c.smi_counter);
    assert_string_equal(c.smi_absent, "no SMI counter known for vendor X");
}

/* CPU i awake `awake` MPERF ticks at `permille` of the TSC rate. */
static void awake(uint32_t i, uint64_t mperf, uint64_t permille)
{
    before[i].mperf = 1000;
    before[i].aperf = 5000;
    after[i].mperf = 1000 + mperf;
    after[i].aperf = 5000 + mperf * permille / 1000;
}

static void test_clock_weighted_by_time_awake(void **state)
{
    struct exp_conditions c;
    (void)state;
    reset(&c, SMI_METHOD_NONE);
    c.leaf6_ecx = 1;
    c.initiator = 0;
    awake(0, 200000000, 1000); /* the initiator: 100 ms at the TSC rate */
    awake(1, 200000000, 900);  /* a target that worked: 0.9 */
    awake(2, 10000, 3000);     /* woke for 5 us at a 3x burst */
    awake(3, 0, 0);            /* never left its C-state */
    conditions_summarise(&c, before, after, N);
    assert_true(c.aperfmperf);
    assert_int_equal(c.ncpus, 3);
    /* the mean of ratios would say 1633; the sums say 950 */
    assert_int_equal(c.eff_permille_all, 950);
    assert_int_equal(c.eff_permille_min, 900);
    assert_int_equal(c.eff_permille_max, 3000);
    assert_int_equal(c.role[COND_ROLE_INITIATOR].cpus, 1);
    assert_int_equal(cond_permille(c.role[COND_ROLE_INITIATOR].aperf,
                                   c.role[COND_ROLE_INITIATOR].mperf), 1000);
    assert_int_equal(c.role[COND_ROLE_TARGETS].cpus, 3);
    assert_int_equal(cond_permille(c.role[COND_ROLE_TARGETS].aperf,
                                   c.role[COND_ROLE_TARGETS].mperf), 900);
}

static void test_clock_fault_and_absence(void **state)
{
    struct exp_conditions c;
    (void)state;
    reset(&c, SMI_METHOD_NONE);
    conditions_summarise(&c, before, after, N); /* CPUID 6 ECX[0] = 0: nothing read */
    assert_false(c.aperfmperf);
    reset(&c, SMI_METHOD_NONE);
    c.leaf6_ecx = 1;
    awake(0, 1000, 1000);
    after[1].fault = 14;
    conditions_summarise(&c, before, after, N);
    assert_false(c.aperfmperf);
    assert_int_equal(c.aperf_fault, 14);
}

static void test_pmc_layout(void **state)
{
    struct amd_pmc p;
    (void)state;
    p = amd_pmc_msrs(false, 3);
    assert_int_equal(p.ctl, 0xc0010003);
    assert_int_equal(p.ctr, 0xc0010007);
    p = amd_pmc_msrs(true, 0);
    assert_int_equal(p.ctl, 0xc0010200);
    assert_int_equal(p.ctr, 0xc0010201);
    assert_int_equal(amd_pmc_counters(false), 4);
    /* event 0x2b, Usr, Os, En: bits 16, 17, 22 */
    assert_int_equal(amd_pmc_select(AMD_EVENT_LS_SMI_RX), 0x43002b);
    assert_int_equal(amd_pmc_select(0x1c0), 0x1004300c0ull);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_smis_counted_on_every_cpu),
        cmocka_unit_test(test_pmc_wraps_at_48_bits_and_skips_cpus_not_sampled),
        cmocka_unit_test(test_write_fault_is_not_countable_with_evidence),
        cmocka_unit_test(test_dropped_select_and_busy_counters),
        cmocka_unit_test(test_hypervisor_count_not_trusted),
        cmocka_unit_test(test_msr34_per_cpu_and_no_method),
        cmocka_unit_test(test_clock_weighted_by_time_awake),
        cmocka_unit_test(test_clock_fault_and_absence),
        cmocka_unit_test(test_pmc_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
