/*
 * tlbscope-report: the arena jansson allocates from in show, compare and html
 * (reports/tool/model/json_arena.c). Its blocks are aligned for jansson's structs,
 * never overlap, big ones included, and documents built on it read the same
 * as before it was installed. Run from the repository root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reports/tool/model/json_arena.h"
#include "reports/tool/model/load.h"
#include "tests/host/json_same_tree.h"

static void test_documents_read_the_same_on_the_arena(void **state)
{
    static const char *const files[] = { "tests/fixtures/reports/qemu-tcg-smp4-all.json",
                                         "reports/samples/qemu-tcg-smp8-max.json" };
    json_t *before[2];
    struct load_result r;
    size_t i;
    (void)state;
    for (i = 0; i < 2; i++) { /* malloc'd: read before the arena exists */
        load_file(files[i], &r);
        assert_int_equal(r.status, LOAD_OK);
        before[i] = r.root;
    }
    assert_false(json_arena_installed());
    json_arena_install();
    assert_true(json_arena_installed());
    for (i = 0; i < 2; i++) {
        load_file(files[i], &r);
        assert_int_equal(r.status, LOAD_OK);
        assert_true(json_same_tree(r.root, before[i]));
        /* changed in place, as sanitize does: the old value's bytes stay behind */
        assert_int_equal(json_object_set_new(r.root, "schema", json_string("x")), 0);
        assert_string_equal(json_string_value(json_object_get(r.root, "schema")), "x");
        load_release(&r);
    }
    /* jansson now frees with the arena's free: the malloc'd documents stay (a leak, no crash) */
    json_decref(before[0]);
    json_decref(before[1]);
}

/* Many small strings and one array of a million values: each intact, none overlapping. */
static void test_blocks_are_aligned_and_apart(void **state)
{
    json_t *a = json_array(), *s;
    char text[40];
    size_t i;
    (void)state;
    assert_true(json_arena_installed()); /* the test before installed it */
    assert_non_null(a);
    for (i = 0; i < 1000000; i++) {
        snprintf(text, sizeof(text), "value %zu", i);
        s = i % 2 ? json_string(text) : json_integer((json_int_t)i);
        assert_non_null(s);
        assert_int_equal((uintptr_t)s % 8, 0);
        assert_int_equal(json_array_append_new(a, s), 0);
    }
    for (i = 0; i < 1000000; i++) {
        json_t *v = json_array_get(a, i);
        if (i % 2) {
            snprintf(text, sizeof(text), "value %zu", i);
            assert_string_equal(json_string_value(v), text);
        } else {
            assert_int_equal(json_integer_value(v), (json_int_t)i);
        }
    }
    json_decref(a); /* frees nothing: the arena's until exit */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_documents_read_the_same_on_the_arena),
        cmocka_unit_test(test_blocks_are_aligned_and_apart),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
