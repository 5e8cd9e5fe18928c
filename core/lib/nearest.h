/*
 * "Did you mean ...?": the known name nearest a mistyped one, for every place that
 * refuses a name (the app's experiments=, tlbscope-report's --experiment). Freestanding.
 */
#ifndef TLBSCOPE_CORE_NEAREST_H
#define TLBSCOPE_CORE_NEAREST_H

#include <stddef.h>

/* Names longer than this are compared by their first NEAREST_MAX_LEN characters. */
#define NEAREST_MAX_LEN 63

/*
 * The edit distance (insertions, deletions, substitutions and swaps of two adjacent
 * characters, each 1: the optimal string alignment distance) between a and b.
 */
unsigned edit_distance(const char *a, const char *b);

/*
 * The name of names[0..count) nearest typo, or NULL when none is near enough to be
 * what was meant: at most 2 edits, and at most a third of typo's length (so "ipi"
 * suggests nothing among 20-character ids). Ties go to the first name listed.
 */
const char *nearest_name(const char *typo, const char *const *names, size_t count);

#endif
