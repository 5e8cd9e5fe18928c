/*
 * Host test support: the recorded real-machine data in ../shared/data
 * (relative to the repository root, where tests/run-all.sh runs).
 */
#ifndef TLBSCOPE_TESTS_SUPPORT_DATA_H
#define TLBSCOPE_TESTS_SUPPORT_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Finds `rel` (e.g. "acpi/dell-r820-srat.bin") under the shared data folder:
 * $TLBSCOPE_SHARED_DATA if set, else ../shared/data from the working
 * directory, else from the repository that holds the test binary.
 */
bool shared_data_path(const char *rel, char *out, size_t cap);
/* The whole file, malloc'd (free it), or NULL when it is missing. */
uint8_t *shared_data_load(const char *rel, size_t *len);

/* In a cmocka test: load the file into `buf`/`len`, or skip the test with a message. */
#define LOAD_SHARED_OR_SKIP(buf, len, rel)                                                     \
    do {                                                                                       \
        (buf) = shared_data_load((rel), &(len));                                               \
        if (!(buf)) {                                                                          \
            print_message("# shared data %s not found (../shared/data missing?); skipped\n",   \
                          (rel));                                                              \
            skip();                                                                            \
        }                                                                                      \
    } while (0)

#endif
