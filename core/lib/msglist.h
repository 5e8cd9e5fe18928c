/* A bounded list of messages (errors, warnings) that ends up in the report. */
#ifndef TLBSCOPE_CORE_MSGLIST_H
#define TLBSCOPE_CORE_MSGLIST_H

#include <stdarg.h>
#include <stdint.h>

#define MSG_MAX 64
#define MSG_TEXT 200
#define MSG_WHERE 48

struct msg {
    char where[MSG_WHERE]; /* "tlbscope.cfg:3", "cpu 5", "ipi_roundtrip" */
    char text[MSG_TEXT];
};

struct msg_list {
    struct msg items[MSG_MAX];
    uint32_t count;
    uint32_t dropped; /* messages that did not fit; the count is reported */
    uint32_t cut;     /* messages longer than MSG_TEXT: cut (a bug); the count is reported */
};

void msg_add(struct msg_list *l, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void msg_vadd(struct msg_list *l, const char *where, const char *fmt, va_list ap);

#endif
