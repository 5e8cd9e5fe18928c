#include "sim/hostmem.h"

#include <stdlib.h>
#include <string.h>

#include "asm/paging.h"
#include "core/lib/mem.h"

static void *host_alloc(size_t n) { return malloc(n); }
static void host_free(void *p) { free(p); }
static const struct mem_ops host_ops = { host_alloc, host_free };

void host_init(void) { mem_set_ops(&host_ops); }

void *host_alloc_frames(void *ctx, uint64_t bytes, uint64_t align)
{
    void *p = NULL;
    (void)ctx;
    if (posix_memalign(&p, align, bytes))
        return NULL;
    memset(p, 0, bytes);
    return p;
}

void *host_alloc_table(void *ctx) { return host_alloc_frames(ctx, PAGE_4K, PAGE_4K); }
