/*
 * The fixture reports of the tlbscope-report unit tests (tests/fixtures/reports,
 * read relative to the repository root, where tests/run-all.sh runs them).
 * Include after <cmocka.h>.
 */
#ifndef TLBSCOPE_TESTS_REPORT_FIXTURE_H
#define TLBSCOPE_TESTS_REPORT_FIXTURE_H

#include <stdio.h>

#include "reports/tool/model/load.h"

#define FIXTURES "tests/fixtures/reports/"

/* The parsed fixture `name`; fails the test when it cannot be loaded. */
static inline json_t *fixture_document(const char *name)
{
    struct load_result r;
    char path[256];
    snprintf(path, sizeof(path), FIXTURES "%s", name);
    load_file(path, &r);
    if (r.status != LOAD_OK)
        fail_msg("%s: %s", path, r.message);
    return r.root;
}

#endif
