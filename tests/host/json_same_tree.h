/*
 * Test helper: two jansson documents are the same tree. json_equal, and also
 * the member order and integer vs real, which show and html print. Used to
 * hold the fast JSON path (reports/tool/model/json_fast.c) to jansson's reading
 * (tests/host/test_report_json_fast.c, tests/fuzz/fuzz_report.c).
 */
#ifndef TLBSCOPE_TESTS_JSON_SAME_TREE_H
#define TLBSCOPE_TESTS_JSON_SAME_TREE_H

#include <jansson.h>
#include <string.h>

static inline int json_same_tree(const json_t *a, const json_t *b)
{
    if (json_typeof(a) != json_typeof(b))
        return 0;
    if (json_is_object(a)) {
        void *ia = json_object_iter((json_t *)a), *ib = json_object_iter((json_t *)b);
        for (; ia && ib; ia = json_object_iter_next((json_t *)a, ia),
                         ib = json_object_iter_next((json_t *)b, ib))
            if (strcmp(json_object_iter_key(ia), json_object_iter_key(ib)) != 0 ||
                !json_same_tree(json_object_iter_value(ia), json_object_iter_value(ib)))
                return 0;
        return !ia && !ib;
    }
    if (json_is_array(a)) {
        size_t i;
        if (json_array_size(a) != json_array_size(b))
            return 0;
        for (i = 0; i < json_array_size(a); i++)
            if (!json_same_tree(json_array_get(a, i), json_array_get(b, i)))
                return 0;
        return 1;
    }
    return json_equal((json_t *)a, (json_t *)b);
}

#endif
