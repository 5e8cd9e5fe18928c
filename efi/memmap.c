#include "efi/memmap.h"
#include "efi/efi_util.h"
#include "efi/platform.h"

#include "asm/cpu.h"
#include "core/lib/mem.h"
#include "core/run/method.h"

#define TABLE_CHUNK_PAGES 64

struct table_pool {
    uint8_t *next;
    uint32_t left;
};

/*
 * Page-table pages come from 256 KiB chunks of firmware pages, zeroed,
 * below 4 GiB where the firmware has room: an AP started by the tool's own
 * INIT-SIPI loads the root with a 32-bit MOV to CR3 from real mode
 * (arch/x86/ap_trampoline.S).
 */
static void *alloc_table(void *ctx)
{
    struct table_pool *pool = ctx;
    void *p;
    if (!pool->left) {
        pool->next = platform_alloc_pages_below(TABLE_CHUNK_PAGES, 1ull << 32);
        if (!pool->next)
            pool->next = platform_alloc_pages(TABLE_CHUNK_PAGES);
        if (!pool->next)
            return NULL;
        pool->left = TABLE_CHUNK_PAGES;
    }
    p = pool->next;
    mem_zero(p, PAGE_4K);
    pool->next += PAGE_4K;
    pool->left--;
    return p;
}

/* Frames for the test region, aligned as asked (over-allocate, then align). */
static void *alloc_frames(void *ctx, uint64_t bytes, uint64_t align)
{
    uint8_t *raw;
    (void)ctx;
    raw = platform_alloc_pages((size_t)((bytes + align) / PAGE_4K));
    if (!raw)
        return NULL;
    return (void *)(((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1));
}

struct range {
    uint64_t base, size;
    bool uncached;
};

/* RAM types are write-back; MMIO, reserved and unknown types are mapped uncached. */
static bool is_ram(UINT32 type)
{
    switch (type) {
    case EfiLoaderCode:
    case EfiLoaderData:
    case EfiBootServicesCode:
    case EfiBootServicesData:
    case EfiRuntimeServicesCode:
    case EfiRuntimeServicesData:
    case EfiConventionalMemory:
    case EfiACPIReclaimMemory:
    case EfiACPIMemoryNVS:
    case 14: /* EfiPersistentMemory (UEFI 2.5), absent from gnu-efi 3.0 headers */
        return true;
    default:
        return false;
    }
}

static EFI_MEMORY_DESCRIPTOR *get_memory_map(UINTN *count, UINTN *desc_size)
{
    UINTN size = 0, key = 0;
    UINT32 version = 0;
    EFI_MEMORY_DESCRIPTOR *map = NULL;
    EFI_STATUS st;
    int attempt;
    for (attempt = 0; attempt < 4; attempt++) {
        st = uefi_call_wrapper(BS->GetMemoryMap, 5, &size, map, &key, desc_size, &version);
        if (st == EFI_SUCCESS) {
            *count = size / *desc_size;
            return map;
        }
        if (st != EFI_BUFFER_TOO_SMALL)
            break;
        mem_free(map);
        /* our own allocation can add descriptors: leave room */
        size += 8 * sizeof(EFI_MEMORY_DESCRIPTOR) + 8 * 64;
        map = mem_alloc(size);
        if (!map)
            return NULL;
    }
    mem_free(map);
    return NULL;
}

/* Sorts by base (insertion sort: a memory map has tens to hundreds of entries) and merges. */
static uint32_t merge_ranges(struct range *r, uint32_t n)
{
    uint32_t i, j, out = 0;
    for (i = 1; i < n; i++) {
        struct range key = r[i];
        for (j = i; j > 0 && r[j - 1].base > key.base; j--)
            r[j] = r[j - 1];
        r[j] = key;
    }
    for (i = 0; i < n; i++) {
        if (out && r[out - 1].uncached == r[i].uncached &&
            r[out - 1].base + r[out - 1].size >= r[i].base) {
            uint64_t end = r[i].base + r[i].size;
            if (end > r[out - 1].base + r[out - 1].size)
                r[out - 1].size = end - r[out - 1].base;
        } else {
            r[out++] = r[i];
        }
    }
    return out;
}

bool memmap_build_tables(struct run *r, struct tool_tables *t, uint64_t xapic_base)
{
    static struct table_pool pool;
    UINTN count = 0, desc_size = 0, i;
    EFI_MEMORY_DESCRIPTOR *map;
    struct range *ranges;
    uint32_t n = 0, k;
    unsigned levels = method_paging_levels(read_cr4());

    mem_zero(&pool, sizeof(pool));
    mem_zero(t, sizeof(*t));
    if (!pt_init(&t->pt, levels, r->cpu.pdpe1gb, alloc_table, &pool)) {
        msg_add(&r->errors, "paging", "out of memory for page tables");
        return false;
    }
    if (!testmem_init(&t->mem, &t->pt, alloc_frames, NULL)) {
        msg_add(&r->errors, "paging", "could not set up the test region (out of memory)");
        return false;
    }
    /*
     * Allocations made after this snapshot (page tables, sample buffers)
     * come out of ConventionalMemory that the snapshot already maps as RAM.
     */
    map = get_memory_map(&count, &desc_size);
    if (!map) {
        msg_add(&r->errors, "paging", "GetMemoryMap failed");
        return false;
    }
    ranges = mem_alloc((count + 1) * sizeof(*ranges));
    if (!ranges) {
        mem_free(map);
        msg_add(&r->errors, "paging", "out of memory");
        return false;
    }
    for (i = 0; i < count; i++) {
        const EFI_MEMORY_DESCRIPTOR *d =
            (const EFI_MEMORY_DESCRIPTOR *)((const uint8_t *)map + i * desc_size);
        if (!d->NumberOfPages)
            continue;
        ranges[n].base = d->PhysicalStart;
        ranges[n].size = d->NumberOfPages * PAGE_4K;
        ranges[n].uncached = !is_ram(d->Type);
        n++;
    }
    mem_free(map);
    n = merge_ranges(ranges, n);
    for (k = 0; k < n; k++) {
        uint64_t flags = PTE_RW | PTE_G | (ranges[k].uncached ? PTE_PCD | PTE_PWT : 0);
        uint64_t reach = pt_reach(&t->pt);
        /*
         * Identity-mapped, so a physical address is a virtual one: what lies
         * beyond the lower half this paging mode translates stays unmapped
         * (the firmware itself cannot have mapped it; the tool never uses it).
         */
        if (ranges[k].base + ranges[k].size > reach) {
            msg_add(&r->warnings, "paging", "memory map range 0x%llx-0x%llx lies beyond what "
                    "%u-level paging translates (0x%llx): left unmapped from there",
                    (unsigned long long)ranges[k].base,
                    (unsigned long long)(ranges[k].base + ranges[k].size - 1), levels,
                    (unsigned long long)reach);
            if (ranges[k].base >= reach)
                continue;
            ranges[k].size = reach - ranges[k].base;
        }
        if (!pt_map(&t->pt, ranges[k].base, ranges[k].base, ranges[k].size, flags, true)) {
            mem_free(ranges);
            msg_add(&r->errors, "paging", "out of memory while building the identity map");
            return false;
        }
        t->mapped_bytes += ranges[k].size;
    }
    t->ranges = n;
    mem_free(ranges);
    /* the xAPIC registers (absent from most memory maps) */
    if (xapic_base &&
        !pt_map(&t->pt, xapic_base, xapic_base, PAGE_4K, PTE_RW | PTE_G | PTE_PCD | PTE_PWT, false)) {
        msg_add(&r->errors, "paging", "out of memory mapping the local APIC");
        return false;
    }
    r->method.paging_levels = levels;
    r->method.test_pages = TEST_PAGES;
    return true;
}
