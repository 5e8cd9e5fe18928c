/*
 * The run's verdict (core/run/verdict.h): COMPLETE for SUCCESS and SKIP alike,
 * ERROR and FAILURE apart, and the counts and line a technician reads. The
 * host tool computes the same line from a report (reports/tool/views/verdict_view.c);
 * tests/checks/tool_cli.sh checks that side. Mutants 64-66 die here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "core/lib/msglist.h"
#include "core/run/run.h"
#include "core/run/verdict.h"
#include "tests/host/support_host.h"

static const char *const ids[] = { "ipi_roundtrip", "stale_detector_control", "invlpgb_range",
                                   "pti_double_invalidation" };

static struct run *new_run(void)
{
    struct run *r = calloc(1, sizeof(*r));
    uint32_t i;
    r->topo.count = 4;
    r->topo.cpus = calloc(4, sizeof(struct cpu_info));
    for (i = 0; i < 4; i++)
        r->topo.cpus[i].state = CPU_OK;
    r->experiment_count = 4;
    r->experiments = calloc(4, sizeof(struct experiment_record));
    for (i = 0; i < 4; i++) {
        r->experiments[i].ran = true;
        r->experiments[i].id = ids[i];
        r->experiments[i].results.count = 3; /* measured points; 0 for what did not apply */
    }
    return r;
}

static void free_run(struct run *r)
{
    free(r->topo.cpus);
    free(r->experiments);
    free(r);
}

/* run_conclude, then the verdict line at `width` columns */
static const char *line_of(struct run *r, unsigned width, struct verdict *v)
{
    static char line[256];
    run_conclude(r);
    run_verdict(r, v);
    verdict_line(v, width, line, sizeof(line));
    return line;
}

/* SKIP because two experiments do not apply (QEMU, Intel): COMPLETE, and which */
static void test_not_applicable_is_complete(void **state)
{
    struct run *r = new_run();
    struct verdict v;
    (void)state;
    assert_string_equal(line_of(r, 80, &v), "COMPLETE: 4 measured");
    r->experiments[2].status = r->experiments[3].status = RESULT_SKIP;
    r->experiments[2].results.count = r->experiments[3].results.count = 0;
    assert_string_equal(line_of(r, 120, &v), "COMPLETE: 2 measured, 2 not applicable to this "
                                             "machine (invlpgb_range, pti_double_invalidation)");
    assert_int_equal(r->result, RESULT_SKIP);
    assert_int_equal(v.word, VERDICT_COMPLETE);
    assert_int_equal(v.not_applicable, 2);
    /* at 80 columns the ids go (the experiment table names them) */
    assert_string_equal(line_of(r, 80, &v), "COMPLETE: 2 measured, 2 not applicable to this machine");
    /* nothing applied (one CPU): still complete, and it says 0 measured */
    r->experiments[0].status = r->experiments[1].status = RESULT_SKIP;
    r->experiments[0].results.count = r->experiments[1].results.count = 0;
    assert_string_equal(line_of(r, 80, &v), "COMPLETE: 0 measured, 4 not applicable to this machine");
    free_run(r);
}

/* stale_detector_control SKIPs after measuring when the verifier is blind: inconclusive */
static void test_skip_after_measuring_is_inconclusive(void **state)
{
    struct run *r = new_run();
    struct verdict v;
    (void)state;
    r->experiments[1].status = RESULT_SKIP;
    r->experiments[2].status = RESULT_SKIP;
    r->experiments[2].results.count = 0;
    assert_string_equal(line_of(r, 120, &v), "COMPLETE: 2 measured, 1 not applicable to this "
                                             "machine (invlpgb_range), 1 inconclusive");
    assert_int_equal(v.inconclusive, 1);
    assert_int_equal(v.not_applicable, 1);
    free_run(r);
}

/* a hung CPU or an error message: ERROR, never COMPLETE, even when every experiment passed */
static void test_error_is_not_complete(void **state)
{
    struct run *r = new_run();
    struct verdict v;
    (void)state;
    r->topo.cpus[3].state = CPU_HUNG;
    assert_string_equal(line_of(r, 80, &v), "ERROR (incomplete): 4 measured, 1 CPU dropped out");
    assert_int_equal(v.word, VERDICT_ERROR);
    r->topo.cpus[3].state = CPU_OK;
    r->experiments[0].status = RESULT_ERROR;
    r->experiments[3].status = RESULT_SKIP;
    r->experiments[3].results.count = 0;
    msg_add(&r->errors, "report", "writing failed: %s", "EFI_VOLUME_FULL");
    assert_string_equal(line_of(r, 80, &v),
                        "ERROR (incomplete): 2 measured, 1 not applicable, 1 in error, 1 run error");
    free_run(r);
}

/* a stale read: FAILURE, and it leads with what failed */
static void test_failure_leads_with_the_finding(void **state)
{
    struct run *r = new_run();
    struct verdict v;
    (void)state;
    r->experiments[0].status = RESULT_FAILURE;
    r->experiments[1].status = RESULT_ERROR;
    assert_string_equal(line_of(r, 80, &v), "FAILURE (a finding): 1 failed, 2 measured, 1 in error");
    assert_int_equal(v.word, VERDICT_FAILURE);
    free_run(r);
}

/* a model's or an emulator's run says so on its verdict line too, as on every other line */
static void test_simulated_and_emulated_are_labelled(void **state)
{
    struct run *r = new_run();
    struct verdict v;
    (void)state;
    r->sim.simulated = true;
    assert_string_equal(line_of(r, 80, &v), "COMPLETE: 4 measured [SIMULATED]");
    r->sim.simulated = false;
    r->experiments[2].emulated = true;
    assert_string_equal(line_of(r, 80, &v), "COMPLETE: 4 measured [EMULATED]");
    r->experiments[2].emulated = false;
    r->cfg.emulator = EMULATOR_BOCHS;
    assert_string_equal(line_of(r, 80, &v), "COMPLETE: 4 measured [EMULATED]");
    free_run(r);
}

static void test_words_and_bounds(void **state)
{
    struct verdict v;
    enum verdict_word w;
    char small[12];
    (void)state;
    assert_true(verdict_word_parse("COMPLETE", &w) && w == VERDICT_COMPLETE);
    assert_true(verdict_word_parse("FAILURE", &w) && w == VERDICT_FAILURE);
    assert_false(verdict_word_parse("SKIP", &w));
    assert_false(verdict_word_parse("COMPLETED", &w));
    verdict_init(&v);
    verdict_count(&v, RESULT_SUCCESS, true, "a");
    verdict_conclude(&v, RESULT_SUCCESS);
    /* a short buffer: cut, terminated, and the length it needed */
    assert_int_equal(verdict_line(&v, 80, small, sizeof(small)), strlen("COMPLETE: 1 measured"));
    assert_string_equal(small, "COMPLETE: 1");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_not_applicable_is_complete),
        cmocka_unit_test(test_skip_after_measuring_is_inconclusive),
        cmocka_unit_test(test_error_is_not_complete),
        cmocka_unit_test(test_failure_leads_with_the_finding),
        cmocka_unit_test(test_simulated_and_emulated_are_labelled),
        cmocka_unit_test(test_words_and_bounds),
    };
    host_init();
    return cmocka_run_group_tests_name("verdict", tests, NULL, NULL);
}
