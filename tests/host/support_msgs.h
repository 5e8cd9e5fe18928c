/* Host test support: looking for a message in a struct msg_list (core/lib/msglist.h). */
#ifndef TLBSCOPE_TESTS_SUPPORT_MSGS_H
#define TLBSCOPE_TESTS_SUPPORT_MSGS_H

#include <stdbool.h>

#include "core/lib/msglist.h"

/* The first message whose text contains `needle` and, unless `where` is NULL, whose
 * location is exactly `where`; NULL when there is none. */
const struct msg *msgs_find(const struct msg_list *l, const char *where, const char *needle);
bool msgs_contain(const struct msg_list *l, const char *needle);
/* Prints every message as a TAP comment ("#   [where] text"), to explain a failure. */
void msgs_print(const struct msg_list *l);

#endif
