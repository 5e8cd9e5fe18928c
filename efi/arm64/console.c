/* ConOut output, formatted by core/lib/strbuf.c: see console.h. */
#include "efi/arm64/console.h"

#include <stdarg.h>

#include "core/lib/strbuf.h"

static efi_text_out *con;

void con_init(efi_text_out *con_out)
{
    con = con_out;
}

/* ASCII to UCS-2, "\n" to "\r\n", in pieces of a fixed buffer */
void con_puts(const char *s)
{
    char16 w[258];
    unsigned j = 0;
    if (!con)
        return;
    for (; *s; s++) {
        if (*s == '\n')
            w[j++] = '\r';
        w[j++] = (unsigned char)*s;
        if (j >= 256) {
            w[j] = 0;
            con->output_string(con, w);
            j = 0;
        }
    }
    w[j] = 0;
    if (j)
        con->output_string(con, w);
}

void kprintf(const char *fmt, ...)
{
    char buf[512];
    struct strbuf sb;
    va_list ap;
    sb_init_fixed(&sb, buf, sizeof(buf));
    va_start(ap, fmt);
    sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    con_puts(buf);
}
