/*
 * The report's files on the stick (core/run/report_files.c, issue 35): the
 * names chosen, and that a power loss after any operation, or in the middle
 * of a write, never leaves a truncated file under a report's name: either
 * the earlier state, or a complete file, or a file named .partial. The
 * volume here is a table of files that stops answering (power off) at a
 * chosen operation; a write cut there leaves half its bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/run/report_files.h"
#include "tests/host/support_host.h"

#define FILES 16
#define FAILED 5u /* any error */

struct fake {
    char path[FILES][REPORT_PATH_MAX];
    char data[FILES][256];
    size_t len[FILES];
    bool used[FILES];
    int ops, cut_at; /* the operation at which the power goes (-1: never) */
    bool off;
};

static int find(struct fake *f, const char *path)
{
    int i;
    for (i = 0; i < FILES; i++)
        if (f->used[i] && !strcmp(f->path[i], path))
            return i;
    return -1;
}

static void put(struct fake *f, const char *path, const void *data, size_t len)
{
    int i = find(f, path);
    for (int k = 0; i < 0 && k < FILES; k++)
        if (!f->used[k])
            i = k;
    assert_true(i >= 0);
    f->used[i] = true;
    snprintf(f->path[i], sizeof(f->path[i]), "%s", path);
    memcpy(f->data[i], data, len);
    f->len[i] = len;
}

/* true when this operation is the one the power goes at (or after) */
static bool power_goes(struct fake *f)
{
    if (f->off || f->ops++ == f->cut_at)
        f->off = true;
    return f->off;
}

static bool fx_exists(void *ctx, const char *path)
{
    struct fake *f = ctx;
    return find(f, path) >= 0; /* reading is free: no cut here */
}

static uint64_t fx_write_new(void *ctx, const char *path, const void *data, size_t len)
{
    struct fake *f = ctx;
    if (find(f, path) >= 0)
        return FAILED;
    if (power_goes(f)) {
        if (!f->off || f->ops - 1 == f->cut_at)
            put(f, path, data, len / 2); /* cut in the middle of the write */
        return FAILED;
    }
    put(f, path, data, len);
    return 0;
}

static uint64_t fx_rename(void *ctx, const char *path, const char *leaf)
{
    struct fake *f = ctx;
    char to[REPORT_PATH_MAX];
    const char *slash = strrchr(path, '\\');
    int i = find(f, path);
    snprintf(to, sizeof(to), "%.*s\\%s", (int)(slash - path), path, leaf);
    if (power_goes(f) || i < 0 || find(f, to) >= 0)
        return FAILED;
    snprintf(f->path[i], sizeof(f->path[i]), "%s", to);
    return 0;
}

static uint64_t fx_remove(void *ctx, const char *path)
{
    struct fake *f = ctx;
    int i = find(f, path);
    if (power_goes(f) || i < 0)
        return FAILED;
    f->used[i] = false;
    return 0;
}

static struct report_fs fs_of(struct fake *f)
{
    struct report_fs fs = { f, fx_exists, fx_write_new, fx_rename, fx_remove };
    return fs;
}

#define FINAL REPORT_DIR "\\20261203-091500-intel-f06m3e-0007.json"
#define BODY "{ \"schema\": \"tlbscope-report\", \"a long enough body\": true }\n"
#define OLD "state=started\n"

/* Whatever the moment the power goes, the final name holds nothing or a whole file. */
static void check_every_cut(bool replace)
{
    int cut;
    for (cut = 0; cut < 8; cut++) {
        struct fake f;
        struct report_fs fs = fs_of(&f);
        int i;
        memset(&f, 0, sizeof(f));
        f.cut_at = cut;
        if (replace)
            put(&f, FINAL, OLD, strlen(OLD));
        report_file_commit(&fs, FINAL, BODY, strlen(BODY), replace);
        i = find(&f, FINAL);
        if (i >= 0) {
            bool whole_new = f.len[i] == strlen(BODY) && !memcmp(f.data[i], BODY, f.len[i]);
            bool whole_old = replace && f.len[i] == strlen(OLD) && !memcmp(f.data[i], OLD, f.len[i]);
            if (!whole_new && !whole_old)
                fail_msg("power lost at operation %d: %zu bytes under the report's name", cut,
                         f.len[i]);
        } else {
            /* gone: then its new contents wait, whole, under the partial name (replace),
             * or nothing at all was there before (a new report) */
            int p = find(&f, FINAL REPORT_PARTIAL_EXT);
            assert_true(!replace || (p >= 0 && f.len[p] == strlen(BODY)));
        }
        for (i = 0; i < FILES; i++) /* nothing but the name and its partial */
            if (f.used[i] && strcmp(f.path[i], FINAL) && strcmp(f.path[i], FINAL REPORT_PARTIAL_EXT))
                fail_msg("power lost at operation %d: a stray file %s", cut, f.path[i]);
    }
}

static void test_power_loss_never_truncates_a_report(void **state)
{
    (void)state;
    check_every_cut(false);
}

static void test_power_loss_while_replacing_the_outcome(void **state)
{
    (void)state;
    check_every_cut(true);
}

static void test_without_a_cut_only_the_final_name_is_left(void **state)
{
    struct fake f;
    struct report_fs fs = fs_of(&f);
    (void)state;
    memset(&f, 0, sizeof(f));
    f.cut_at = -1;
    put(&f, FINAL REPORT_PARTIAL_EXT, "stale", 5); /* an earlier run's leftover of this name */
    assert_int_equal(report_file_commit(&fs, FINAL, BODY, strlen(BODY), false), 0);
    assert_true(find(&f, FINAL) >= 0);
    assert_int_equal(find(&f, FINAL REPORT_PARTIAL_EXT), -1);
    /* a file of that name already there: not overwritten */
    assert_int_not_equal(report_file_commit(&fs, FINAL, "x", 1, false), 0);
    assert_int_equal(f.len[find(&f, FINAL)], strlen(BODY));
}

static void test_names(void **state)
{
    struct fake f;
    struct report_fs fs = fs_of(&f);
    char base[96], path[REPORT_PATH_MAX];
    unsigned i;
    (void)state;
    memset(&f, 0, sizeof(f));
    f.cut_at = -1;
    assert_true(report_file_pick(&fs, "B", base, sizeof(base)));
    assert_string_equal(base, "B");
    put(&f, REPORT_DIR "\\B.json", "x", 1);
    put(&f, REPORT_DIR "\\B-1.txt" REPORT_PARTIAL_EXT, "x", 1); /* a cut run's leftover */
    put(&f, REPORT_DIR "\\B-2" REPORT_OUTCOME_EXT, "x", 1);
    assert_true(report_file_pick(&fs, "B", base, sizeof(base)));
    assert_string_equal(base, "B-3");
    assert_true(report_file_path("B", 3, ".json", path, sizeof(path)));
    assert_string_equal(path, "\\tlbscope\\reports\\B-3.json");
    assert_false(report_file_path("B", 3, ".json", path, 20));
    /* every name taken: none */
    memset(&f, 0, sizeof(f));
    f.cut_at = -1;
    for (i = 0; i < REPORT_NAME_TRIES && i < FILES; i++) {
        report_file_path("C", i, ".txt", path, sizeof(path));
        put(&f, path, "x", 1);
    }
    assert_true(report_file_pick(&fs, "C", base, sizeof(base)));
    assert_string_equal(base, "C-16");
    /* what counts as a report in the folder: not a partial file, not the outcome */
    assert_true(report_file_is_report("B.json"));
    assert_true(report_file_is_report("B-1.txt"));
    assert_false(report_file_is_report("B.json" REPORT_PARTIAL_EXT));
    assert_false(report_file_is_report("B" REPORT_OUTCOME_EXT));
    assert_false(report_file_is_report(".json"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_power_loss_never_truncates_a_report),
        cmocka_unit_test(test_power_loss_while_replacing_the_outcome),
        cmocka_unit_test(test_without_a_cut_only_the_final_name_is_left),
        cmocka_unit_test(test_names),
    };
    host_init();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
