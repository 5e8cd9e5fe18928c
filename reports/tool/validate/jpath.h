/*
 * A JSON path being walked, as users read it in messages:
 *   experiments[2].results[5].metrics.latency.p50     cpu.cpuid["1.eax"]
 * Keys that are not plain identifiers are quoted in brackets.
 * Push returns a mark; pop back to it when leaving the member.
 */
#ifndef TLBSCOPE_REPORT_JPATH_H
#define TLBSCOPE_REPORT_JPATH_H

#include <stddef.h>

#define JPATH_CAP 256

struct jpath {
    char buf[JPATH_CAP];
    size_t len;
};

void jpath_init(struct jpath *p);
size_t jpath_push_key(struct jpath *p, const char *key);
size_t jpath_push_index(struct jpath *p, size_t index);
void jpath_pop(struct jpath *p, size_t mark);
/* The path of member `key` below the current one, in `buf` (for one message). */
const char *jpath_child(const struct jpath *p, const char *key, char *buf, size_t cap);

#endif
