/*
 * The tool's own INIT-SIPI bring-up (issue 25), its host-side parts:
 *   - the CPU table from a synthetic MADT: the BSP first, enabled xAPIC and
 *     x2APIC entries (IDs above 255 included) in table order, each APIC ID
 *     once, disabled and online-capable entries never started;
 *   - which APs a second pass starts after MP services (only those that
 *     never checked in), and how each is recorded (bring_up, the note);
 *   - how such a run ends (never back in the shell).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "core/firmware/acpi.h"
#include "core/machine/cpu_table.h"
#include "core/lib/mem.h"
#include "core/lib/msglist.h"
#include "core/lib/atomic.h"
#include "core/run/run.h"
#include "core/machine/smp.h"
#include "tests/host/support_host.h"

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

struct madt {
    uint8_t b[512];
    uint32_t len;
};

static void begin(struct madt *m, uint8_t rev)
{
    memset(m, 0, sizeof(*m));
    memcpy(m->b, "APIC", 4);
    m->b[8] = rev;
    memcpy(m->b + 10, "TLBSCP", 6);
    put32(m->b + 36, 0xfee00000u);
    m->len = 44;
}

/* Processor Local APIC (type 0, 8 bytes) */
static void lapic(struct madt *m, uint8_t uid, uint8_t id, uint32_t flags)
{
    uint8_t *e = m->b + m->len;
    e[0] = 0;
    e[1] = 8;
    e[2] = uid;
    e[3] = id;
    put32(e + 4, flags);
    m->len += 8;
}

/* Processor Local x2APIC (type 9, 16 bytes) */
static void x2apic(struct madt *m, uint32_t id, uint32_t flags, uint32_t uid)
{
    uint8_t *e = m->b + m->len;
    e[0] = 9;
    e[1] = 16;
    put32(e + 4, id);
    put32(e + 8, flags);
    put32(e + 12, uid);
    m->len += 16;
}

static void finish(struct madt *m)
{
    uint8_t sum = 0;
    put32(m->b + 4, m->len);
    m->b[9] = 0;
    for (uint32_t i = 0; i < m->len; i++)
        sum = (uint8_t)(sum + m->b[i]);
    m->b[9] = (uint8_t)(0 - sum);
}

static void machine(struct madt *m)
{
    begin(m, 5);
    lapic(m, 0, 0, 1);
    lapic(m, 1, 2, 1);
    lapic(m, 2, 4, 0);         /* disabled: an empty socket */
    lapic(m, 3, 6, 2);         /* online-capable: may be hot-added later */
    x2apic(m, 0x100, 1, 4);    /* APIC ID above 255 */
    x2apic(m, 2, 1, 1);        /* the same CPU listed twice (LAPIC and x2APIC) */
    x2apic(m, 0x102, 1, 5);
    finish(m);
}

static void test_only_enabled_entries_are_started(void **state)
{
    struct madt m;
    struct cpu_table t;
    struct msg_list msgs;
    uint32_t n;
    (void)state;
    memset(&msgs, 0, sizeof(msgs));
    machine(&m);
    n = cpu_table_from_madt(&t, m.b, m.len, 2, 64, &msgs);
    /* the BSP (APIC ID 2, not the table's first entry) first, then 0, 0x100, 0x102 */
    assert_int_equal(n, 4);
    assert_int_equal(t.count, 4);
    assert_int_equal(t.cpus[0].apic_id, 2);
    assert_true(t.cpus[0].bsp);
    assert_int_equal(t.cpus[1].apic_id, 0);
    assert_int_equal(t.cpus[2].apic_id, 0x100);
    assert_int_equal(t.cpus[3].apic_id, 0x102);
    for (uint32_t i = 0; i < n; i++) {
        assert_int_equal(t.cpus[i].index, i);
        assert_int_equal(t.cpus[i].state, CPU_OK);
        assert_int_equal(t.cpus[i].numa_node, -1);
        assert_int_equal(t.cpus[i].bsp, i == 0);
    }
    mem_free(t.cpus);
}

static void test_cap_drops_and_says_so(void **state)
{
    struct madt m;
    struct cpu_table t;
    struct msg_list msgs;
    (void)state;
    memset(&msgs, 0, sizeof(msgs));
    machine(&m);
    assert_int_equal(cpu_table_from_madt(&t, m.b, m.len, 0, 2, &msgs), 2);
    assert_int_equal(t.cpus[1].apic_id, 2);
    assert_true(msgs.count >= 1);
    mem_free(t.cpus);
}

static void test_names(void **state)
{
    (void)state;
    assert_null(cpu_bring_up_name(BRING_UP_NONE));
    assert_string_equal(cpu_bring_up_name(BRING_UP_BSP), "bsp");
    assert_string_equal(cpu_bring_up_name(BRING_UP_MP_SERVICES), "mp_services");
    assert_string_equal(cpu_bring_up_name(BRING_UP_INIT_SIPI), "init_sipi");
}

static void five_cpus(struct cpu_table *t, struct cpu_info *c)
{
    memset(c, 0, 5 * sizeof(*c));
    for (uint32_t i = 0; i < 5; i++) {
        c[i].index = i;
        c[i].apic_id = i * 2;
        c[i].numa_node = -1;
    }
    c[0].bsp = true;
    c[0].bring_up = BRING_UP_BSP;
    c[3].state = CPU_DISABLED;
    t->count = 5;
    t->cpus = c;
}

/*
 * MP services deliver CPU 1 (which hangs later), not CPUs 2 and 4; CPU 3 is
 * disabled. The second pass starts 2 and 4 only; 4 arrives, 2 is named.
 */
static void test_only_absent_aps_are_started_again(void **state)
{
    struct cpu_info c[5];
    struct cpu_table t;
    struct smp s;
    (void)state;
    five_cpus(&t, c);
    assert_true(smp_init(&s, &t, NULL, 0, 1000));
    assert_null(s.cpu[3]);
    assert_true(smp_checkin(s.cpu[1]));
    assert_int_equal(smp_wait_checkins(&s, 3, 0, 5000, BRING_UP_MP_SERVICES), 1);
    assert_int_equal(c[1].bring_up, BRING_UP_MP_SERVICES);
    assert_int_equal(c[2].state, CPU_ABSENT);
    assert_int_equal(c[4].state, CPU_ABSENT);
    assert_non_null(strstr(c[2].note, "StartupAllAPs"));
    cpu_mark(&c[1], CPU_HUNG, "no answer");

    assert_int_equal(smp_reopen_absent(&s), 2);
    assert_int_equal(load_acquire(&s.cpu[1]->checkin), CHECKIN_DONE);
    assert_int_equal(c[1].state, CPU_HUNG);
    assert_int_equal(c[2].state, CPU_OK);
    assert_int_equal(c[2].note[0], 0);
    assert_int_equal(load_acquire(&s.cpu[2]->checkin), CHECKIN_WAITING);
    assert_int_equal(load_acquire(&s.cpu[4]->checkin), CHECKIN_WAITING);

    assert_true(smp_checkin(s.cpu[4]));
    assert_int_equal(smp_wait_checkins(&s, 3, 0, 7000, BRING_UP_INIT_SIPI), 2);
    assert_int_equal(c[0].bring_up, BRING_UP_BSP);
    assert_int_equal(c[1].bring_up, BRING_UP_MP_SERVICES);
    assert_int_equal(c[2].bring_up, BRING_UP_NONE);
    assert_int_equal(c[2].state, CPU_ABSENT);
    assert_non_null(strstr(c[2].note, "did not answer INIT-SIPI-SIPI within 7000 ms"));
    assert_int_equal(c[4].bring_up, BRING_UP_INIT_SIPI);
    assert_int_equal(c[4].state, CPU_OK);
    /* nothing left to start */
    assert_int_equal(smp_reopen_absent(&s), 1); /* CPU 2 again, were there a third pass */
    smp_release_memory(&s);
}

static void test_init_sipi_runs_never_return_to_the_shell(void **state)
{
    static struct run r;
    (void)state;
    memset(&r, 0, sizeof(r));
    r.cfg.exit_mode = EXIT_SHELL;
    assert_int_equal(run_exit_mode(&r), EXIT_SHELL);
    r.init_sipi.used = true; /* chosen, but no AP was sent anything: the shell is safe */
    assert_int_equal(run_exit_mode(&r), EXIT_SHELL);
    r.init_sipi.requested = 3;
    assert_int_equal(run_exit_mode(&r), EXIT_RESET);
    r.cfg.exit_mode = EXIT_RESET;
    assert_int_equal(run_exit_mode(&r), EXIT_RESET);
    r.cfg.exit_mode = EXIT_SHUTDOWN;
    assert_int_equal(run_exit_mode(&r), EXIT_SHUTDOWN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_only_enabled_entries_are_started),
        cmocka_unit_test(test_cap_drops_and_says_so),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_only_absent_aps_are_started_again),
        cmocka_unit_test(test_init_sipi_runs_never_return_to_the_shell),
    };
    host_init();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
