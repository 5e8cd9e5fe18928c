/*
 * Freestanding memory and string helpers.
 *
 * core/ and arch/ are linked into a UEFI image without a C library, and into
 * host test programs with one. These helpers keep both builds identical; the
 * allocator is supplied by the platform (UEFI pool or host malloc) because
 * core/ must not know which one it runs on.
 */
#ifndef TLBSCOPE_CORE_MEM_H
#define TLBSCOPE_CORE_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CACHE_LINE 64
#define ALIGN_UP(x, a) (((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

void mem_copy(void *dst, const void *src, size_t n);
void mem_fill(void *dst, int byte, size_t n);
void mem_zero(void *dst, size_t n);
int mem_cmp(const void *a, const void *b, size_t n);

size_t str_len(const char *s);
size_t str_nlen(const char *s, size_t max);
int str_cmp(const char *a, const char *b);
bool str_eq(const char *a, const char *b);
bool str_has_prefix(const char *s, const char *prefix);
/* Copies at most cap-1 bytes and always terminates (cap > 0). */
void str_copy(char *dst, size_t cap, const char *src);

/* Platform allocator. Must be installed before any allocation. */
struct mem_ops {
    void *(*alloc)(size_t size);
    void (*free)(void *ptr);
};
void mem_set_ops(const struct mem_ops *ops);
void *mem_alloc(size_t size);
void *mem_zalloc(size_t size);
void mem_free(void *ptr);
/* Allocation aligned to `align` (a power of two); free with mem_free_aligned. */
void *mem_alloc_aligned(size_t size, size_t align);
void mem_free_aligned(void *ptr);

#endif
