/* The result model: the most severe result wins, and a run's result and status follow; stored
 * strings that do not fit are counted, never cut silently. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "core/lib/json.h"
#include "core/lib/msglist.h"
#include "core/lib/strbuf.h"
#include "core/report/report.h"
#include "core/report/report_common.h"
#include "core/run/result.h"
#include "core/run/run.h"
#include "tests/host/support_host.h"

static void test_order_and_names(void **state)
{
    enum result r;
    (void)state;
    assert_int_equal(result_worst(RESULT_SUCCESS, RESULT_SKIP), RESULT_SKIP);
    assert_int_equal(result_worst(RESULT_ERROR, RESULT_SKIP), RESULT_ERROR);
    assert_int_equal(result_worst(RESULT_ERROR, RESULT_FAILURE), RESULT_FAILURE);
    assert_int_equal(result_worst(RESULT_FAILURE, RESULT_SUCCESS), RESULT_FAILURE);
    assert_string_equal(result_name(RESULT_SKIP), "SKIP");
    assert_string_equal(result_line_prefix(RESULT_FAILURE), "FAIL");
    assert_string_equal(result_line_prefix(RESULT_SUCCESS), "PASS");
    assert_true(result_parse("ERROR", &r) && r == RESULT_ERROR);
    assert_false(result_parse("error", &r));
    assert_false(result_parse("PASS", &r));
}

static struct run *new_run(uint32_t ncpus)
{
    struct run *r = calloc(1, sizeof(*r));
    r->topo.count = ncpus;
    r->topo.cpus = calloc(ncpus, sizeof(struct cpu_info));
    for (uint32_t i = 0; i < ncpus; i++) {
        r->topo.cpus[i].index = i;
        r->topo.cpus[i].state = CPU_OK;
    }
    r->experiment_count = 2;
    r->experiments = calloc(2, sizeof(struct experiment_record));
    r->experiments[0].ran = r->experiments[1].ran = true;
    return r;
}

static void free_run(struct run *r)
{
    free(r->topo.cpus);
    free(r->experiments);
    free(r);
}

static void test_run_conclude(void **state)
{
    struct run *r = new_run(4);
    (void)state;
    run_conclude(r);
    assert_int_equal(r->result, RESULT_SUCCESS);
    assert_false(r->partial);

    r->experiments[1].status = RESULT_SKIP;
    run_conclude(r);
    assert_int_equal(r->result, RESULT_SKIP);

    /* an experiment not selected does not count */
    r->experiments[0].ran = false;
    r->experiments[0].status = RESULT_FAILURE;
    run_conclude(r);
    assert_int_equal(r->result, RESULT_SKIP);

    /* a CPU that stopped answering: ERROR (environment) and partial */
    r->topo.cpus[2].state = CPU_HUNG;
    run_conclude(r);
    assert_int_equal(r->result, RESULT_ERROR);
    assert_true(r->partial);

    /* a stale read outranks it */
    r->experiments[0].ran = true;
    run_conclude(r);
    assert_int_equal(r->result, RESULT_FAILURE);

    /* excluded and disabled CPUs are not problems */
    r->topo.cpus[2].state = CPU_EXCLUDED;
    r->topo.cpus[3].state = CPU_DISABLED;
    r->experiments[0].status = RESULT_SUCCESS;
    r->experiments[1].status = RESULT_SUCCESS;
    run_conclude(r);
    assert_int_equal(r->result, RESULT_SUCCESS);
    assert_false(r->partial);

    /* an error message alone makes the run ERROR */
    msg_add(&r->errors, "report", "writing failed: %s", "EFI_VOLUME_FULL");
    run_conclude(r);
    assert_int_equal(r->result, RESULT_ERROR);
    free_run(r);
}

static void test_report_basename_is_unique_per_counter(void **state)
{
    struct run *r = new_run(1);
    char a[96], b[96];
    (void)state;
    r->fw.start_time = (struct rtc_time){ 2026, 11, 29, 22, 3, 1, true };
    r->cpu.vendor_id = VENDOR_AMD;
    r->cpu.family = 0x19;
    r->cpu.model = 0x01;
    r->run_counter = 7;
    run_report_basename(r, a, sizeof(a));
    assert_string_equal(a, "20261129-220301-amd-f19m01-0007");
    r->run_counter = 8;
    run_report_basename(r, b, sizeof(b));
    assert_string_not_equal(a, b);
    r->fw.start_time.valid = false; /* no clock: still a usable name */
    run_report_basename(r, a, sizeof(a));
    assert_string_equal(a, "nodate-amd-f19m01-0008");
    free_run(r);
}

/*
 * Issue 31: a string the report stores is never cut without a word: notes fit the longest
 * the run writes (RECORD_NOTE_LEN), and one that does not is counted (the runner puts the
 * count in run.warnings), as are messages longer than MSG_TEXT (written with the messages).
 */
static void test_stored_strings_cut_are_counted(void **state)
{
    static struct experiment_record rec;
    static char text[RECORD_NOTE_LEN + 1];
    static struct msg_list msgs;
    struct strbuf sb;
    char out[4096];
    struct json_writer w;
    (void)state;
    memset(text, 'x', sizeof(text) - 1);
    text[RECORD_NOTE_LEN - 1] = 0; /* just fits */
    record_note(&rec, "%s", text);
    assert_int_equal(rec.strings_cut, 0);
    assert_string_equal(rec.notes[0], text);
    text[RECORD_NOTE_LEN - 1] = 'x';
    record_note(&rec, "%s", text); /* one more */
    record_set_status(&rec, RESULT_ERROR, "%s", text);
    assert_int_equal(rec.strings_cut, 2);
    msg_add(&msgs, "here", "%s", text);
    msg_add(&msgs, "here", "short");
    assert_int_equal(msgs.cut, 1);
    sb_init_fixed(&sb, out, sizeof(out));
    jw_init(&w, &sb);
    jw_object_begin(&w);
    report_write_msgs(&w, "warnings", &msgs);
    jw_object_end(&w);
    assert_non_null(strstr(out, "1 messages were longer than 199 characters and were cut"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_and_names),
        cmocka_unit_test(test_run_conclude),
        cmocka_unit_test(test_report_basename_is_unique_per_counter),
        cmocka_unit_test(test_stored_strings_cut_are_counted),
    };
    host_init();
    return cmocka_run_group_tests_name("result", tests, NULL, NULL);
}
