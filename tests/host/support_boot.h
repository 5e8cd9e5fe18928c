/* The bootstrap's workspace as a cmocka group fixture (tests of core/run/bootstrap.h and its users). */
#ifndef TLBSCOPE_TESTS_SUPPORT_BOOT_H
#define TLBSCOPE_TESTS_SUPPORT_BOOT_H

#include "core/run/bootstrap.h"

extern struct boot_work support_boot_work; /* 4096 pairs a column */
int support_boot_setup(void **state);
int support_boot_teardown(void **state);

#endif
