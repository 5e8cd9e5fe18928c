#include "reports/tool/json_arena.h"

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

/*
 * Chunks of 8 MiB: a 38 MB report takes about fifty. Larger requests get their
 * own. Each is aligned to 2 MiB and asks for transparent huge pages: the
 * document of a 100 K-point report is 400 MB, and 4 KiB page faults on it
 * cost 0.3 s of system time.
 */
#define ARENA_CHUNK (8u << 20)
#define ARENA_HUGE_PAGE (2u << 20)
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
    struct chunk *c;
    if (own_size) {
        c = malloc(sizeof(*c) + size);
    } else {
        c = aligned_alloc(ARENA_HUGE_PAGE, ARENA_CHUNK);
        size = ARENA_CHUNK - sizeof(*c);
        if (c) {
            (void)madvise(c, ARENA_CHUNK, MADV_HUGEPAGE); /* a hint: fine if refused */
#ifdef MADV_POPULATE_WRITE
            /* the pages in one call, not one fault each (Linux 5.14+; else refused) */
            (void)madvise(c, ARENA_CHUNK, MADV_POPULATE_WRITE);
#endif
        }
    }
    if (!c)
        return NULL;
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
