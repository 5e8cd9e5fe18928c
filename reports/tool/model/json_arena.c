#include "reports/tool/model/json_arena.h"

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/*
 * Chunks of 8 MiB: a 38 MB report takes about fifty. Larger requests get their
 * own. Each chunk is prefaulted in one call: the document of a 100 K-point
 * report is 400 MB, and a page fault per 4 KiB page cost 0.05 s more. Huge
 * pages (MADV_HUGEPAGE) were faster on a warm machine but 0.4 s slower after
 * another process had used the memory (the kernel compacts it first).
 */
#define ARENA_CHUNK (8u << 20)
#define ARENA_ALIGN 8u /* jansson's structs hold pointers, sizes, long long and double */

struct chunk {
    struct chunk *next; /* every chunk stays reachable: leak checkers see memory in use */
    size_t size, used;
    _Alignas(ARENA_ALIGN) unsigned char data[];
};

static struct chunk *chunks;
static bool installed;

/* A chunk of ARENA_CHUNK bytes in all, or (own_size) one whose data is `size` bytes. */
static struct chunk *new_chunk(size_t size, bool own_size)
{
    struct chunk *c = malloc(own_size ? sizeof(*c) + size : ARENA_CHUNK);
    if (!c)
        return NULL;
    if (!own_size) {
        size = ARENA_CHUNK - sizeof(*c);
#ifdef MADV_POPULATE_WRITE
        /* the pages in one call, not one fault each (Linux 5.14+; else refused). madvise
           wants a page-aligned start: the chunk's pages from its first whole one */
        long page = sysconf(_SC_PAGESIZE);
        if (page > 0) {
            uintptr_t mask = (uintptr_t)page - 1;
            uintptr_t from = ((uintptr_t)c + mask) & ~mask;
            uintptr_t to = ((uintptr_t)c + ARENA_CHUNK) & ~mask;
            if (to > from)
                (void)madvise((void *)from, to - from, MADV_POPULATE_WRITE);
        }
#endif
    }
    c->size = size;
    c->used = 0;
    return c;
}

static void *arena_malloc(size_t size)
{
    struct chunk *c;
    size = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    if (size == 0 || size > SIZE_MAX - sizeof(*c))
        return NULL;
    if (size > ARENA_CHUNK / 4) { /* a big array: its own chunk, behind the current one */
        if (!(c = new_chunk(size, true)))
            return NULL;
        c->used = size;
        if (chunks) {
            c->next = chunks->next;
            chunks->next = c;
        } else {
            c->next = NULL;
            chunks = c;
        }
        return c->data;
    }
    if (!chunks || chunks->size - chunks->used < size) {
        if (!(c = new_chunk(0, false)))
            return NULL;
        c->next = chunks;
        chunks = c;
    }
    c = chunks;
    c->used += size;
    return c->data + c->used - size;
}

static void arena_free(void *p)
{
    (void)p; /* returned at exit */
}

void json_arena_install(void)
{
    json_set_alloc_funcs(arena_malloc, arena_free);
    installed = true;
}

bool json_arena_installed(void) { return installed; }

void json_arena_reset(void)
{
    while (chunks) {
        struct chunk *next = chunks->next;
        free(chunks);
        chunks = next;
    }
}
