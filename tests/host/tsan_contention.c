/*
 * tests/host/test_contention_model.c under ThreadSanitizer: every access
 * another CPU makes to a per-initiator request slot, a request or the
 * per-CPU generations must be ordered by the protocol's acquire/release
 * pairs (core/machine/shootdown_multi.h, "Memory ordering").
 */
#include "tests/host/test_contention_model.c"
