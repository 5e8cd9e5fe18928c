/*
 * Host test support: the recorded real-machine data in ../shared/data
 * (relative to the repository root, where tests/run-all.sh runs).
 */
#ifndef TLBSCOPE_TESTS_SUPPORT_DATA_H
#define TLBSCOPE_TESTS_SUPPORT_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Finds `rel` (e.g. "acpi/dell-r820-srat.bin") under the shared data folder:
 * $TLBSCOPE_SHARED_DATA if set, else ../shared/data from the working
 * directory, else from the repository that holds the test binary.
 */
bool shared_data_path(const char *rel, char *out, size_t cap);
/* The whole file, malloc'd (free it), or NULL when it is missing. */
uint8_t *shared_data_load(const char *rel, size_t *len);

/*
 * Whether a test may skip for want of its data: only when the developer asks
 * for it with TLBSCOPE_ALLOW_MISSING_DATA=1 (a partial checkout). Otherwise
 * missing data is a failure: CI and `make test` always have ../shared/data,
 * and a run that skipped a quarter of the host tests must not look green.
 */
bool shared_data_may_skip(void);

/* In a cmocka test: the data named by the printf-style arguments is missing. */
#define SHARED_DATA_MISSING(...)                                                               \
    do {                                                                                       \
        char what_[256];                                                                       \
        snprintf(what_, sizeof(what_), __VA_ARGS__);                                           \
        if (shared_data_may_skip()) {                                                          \
            print_message("# shared data %s not found; skipped "                               \
                          "(TLBSCOPE_ALLOW_MISSING_DATA=1)\n", what_);                         \
            skip();                                                                            \
        }                                                                                      \
        fail_msg("shared data %s not found (is ../shared/data there? set "                     \
                 "TLBSCOPE_SHARED_DATA=DIR, or TLBSCOPE_ALLOW_MISSING_DATA=1 to skip)", what_); \
    } while (0)

/* In a cmocka test: load the file into `buf`/`len`, or SHARED_DATA_MISSING. */
#define LOAD_SHARED_DATA(buf, len, rel)                                                        \
    do {                                                                                       \
        (buf) = shared_data_load((rel), &(len));                                               \
        if (!(buf))                                                                            \
            SHARED_DATA_MISSING("%s", (rel));                                                  \
    } while (0)

#endif
