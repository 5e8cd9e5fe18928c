/*
 * memset/memcpy/memmove: clang emits calls to them for struct copies and
 * zeroing even in freestanding code, and the aarch64 image links no C
 * library (the x86 build gets them from gnu-efi's libefi). The stores go
 * through a volatile pointer so that the compiler cannot turn these very
 * loops back into calls to themselves.
 */
#include <stddef.h>

void *memset(void *d, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
void *memmove(void *d, const void *s, size_t n);

void *memset(void *d, int c, size_t n)
{
    volatile unsigned char *p = d;
    while (n--)
        *p++ = (unsigned char)c;
    return d;
}

void *memcpy(void *d, const void *s, size_t n)
{
    volatile unsigned char *p = d;
    const unsigned char *q = s;
    while (n--)
        *p++ = *q++;
    return d;
}

void *memmove(void *d, const void *s, size_t n)
{
    volatile unsigned char *p = d;
    const unsigned char *q = s;
    if ((const unsigned char *)p < q) {
        while (n--)
            *p++ = *q++;
    } else {
        while (n--)
            p[n] = q[n];
    }
    return d;
}
