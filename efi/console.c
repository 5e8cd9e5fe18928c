#include "efi/console.h"
#include "efi/efi_util.h"

#include "core/lib/strbuf.h"

/* ConOut wants UCS-2 and CR LF; convert in chunks to keep the stack small. */
void con_writen(const char *text, size_t n)
{
    CHAR16 chunk[160];
    size_t used = 0, i;
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)text[i];
        if (used + 3 >= (sizeof(chunk) / sizeof(chunk[0]))) {
            chunk[used] = 0;
            uefi_call_wrapper(ST->ConOut->OutputString, 2, ST->ConOut, chunk);
            used = 0;
        }
        if (c == '\n')
            chunk[used++] = '\r';
        chunk[used++] = (c >= 0x20 && c < 0x7f) || c == '\n' || c == '\t' ? c : '?';
    }
    if (used) {
        chunk[used] = 0;
        uefi_call_wrapper(ST->ConOut->OutputString, 2, ST->ConOut, chunk);
    }
}

void con_write(const char *text)
{
    size_t n = 0;
    while (text[n])
        n++;
    con_writen(text, n);
}

void con_vprintf(const char *fmt, va_list ap)
{
    char buf[512];
    struct strbuf sb;
    sb_init_fixed(&sb, buf, sizeof(buf));
    sb_vprintf(&sb, fmt, ap);
    con_writen(buf, sb.len);
}

void con_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    con_vprintf(fmt, ap);
    va_end(ap);
}
