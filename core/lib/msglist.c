#include "core/lib/msglist.h"
#include "core/lib/mem.h"
#include "core/lib/strbuf.h"

void msg_vadd(struct msg_list *l, const char *where, const char *fmt, va_list ap)
{
    struct msg *m;
    struct strbuf sb;
    if (l->count >= MSG_MAX) {
        l->dropped++;
        return;
    }
    m = &l->items[l->count++];
    str_copy(m->where, sizeof(m->where), where ? where : "");
    sb_init_fixed(&sb, m->text, sizeof(m->text));
    sb_vprintf(&sb, fmt, ap);
    l->cut += sb.truncated;
}

void msg_add(struct msg_list *l, const char *where, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    msg_vadd(l, where, fmt, ap);
    va_end(ap);
}
