#include "core/lib/mem.h"

static const struct mem_ops *installed_ops;

void mem_copy(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    while (n--)
        *d++ = *s++;
}

void mem_fill(void *dst, int byte, size_t n)
{
    unsigned char *d = dst;
    while (n--)
        *d++ = (unsigned char)byte;
}

void mem_zero(void *dst, size_t n) { mem_fill(dst, 0, n); }

int mem_cmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    for (; n; n--, x++, y++)
        if (*x != *y)
            return *x < *y ? -1 : 1;
    return 0;
}

size_t str_len(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

size_t str_nlen(const char *s, size_t max)
{
    size_t n = 0;
    while (n < max && s[n])
        n++;
    return n;
}

int str_cmp(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return (unsigned char)*a - (unsigned char)*b;
}

bool str_eq(const char *a, const char *b) { return str_cmp(a, b) == 0; }

bool str_has_prefix(const char *s, const char *prefix)
{
    while (*prefix)
        if (*s++ != *prefix++)
            return false;
    return true;
}

void str_copy(char *dst, size_t cap, const char *src)
{
    size_t i = 0;
    if (!cap)
        return;
    for (; i + 1 < cap && src[i]; i++)
        dst[i] = src[i];
    dst[i] = 0;
}

void mem_set_ops(const struct mem_ops *ops) { installed_ops = ops; }

void *mem_alloc(size_t size)
{
    if (!installed_ops || !size)
        return NULL;
    return installed_ops->alloc(size);
}

void *mem_zalloc(size_t size)
{
    void *p = mem_alloc(size);
    if (p)
        mem_zero(p, size);
    return p;
}

void mem_free(void *ptr)
{
    if (ptr && installed_ops)
        installed_ops->free(ptr);
}

/*
 * The UEFI pool only guarantees 8-byte alignment, but per-CPU lines must sit
 * on their own 64-byte cache line: over-allocate and keep the original
 * pointer just below the aligned block.
 */
void *mem_alloc_aligned(size_t size, size_t align)
{
    unsigned char *raw = mem_alloc(size + align + sizeof(void *));
    uintptr_t aligned;
    if (!raw)
        return NULL;
    aligned = ALIGN_UP((uintptr_t)raw + sizeof(void *), (uintptr_t)align);
    ((void **)aligned)[-1] = raw;
    mem_zero((void *)aligned, size);
    return (void *)aligned;
}

void mem_free_aligned(void *ptr)
{
    if (ptr)
        mem_free(((void **)ptr)[-1]);
}
