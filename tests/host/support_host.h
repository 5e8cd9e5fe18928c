/* Host test support: allocator, fake CPU state behind the privileged instructions. */
#ifndef TLBSCOPE_TESTS_SUPPORT_HOST_H
#define TLBSCOPE_TESTS_SUPPORT_HOST_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/x86/cpu.h"

#define FAKE_MAX_INVLPG 4096
#define FAKE_MSRS 0x1000
#define FAKE_TLB_ENTRIES 1024

/* One cached translation of the simulated TLB. */
struct fake_tlb_entry {
    uint64_t va_page, pa_page;
    bool valid;
};

struct fake_cpu {
    struct fake_tlb_entry tlb[FAKE_TLB_ENTRIES]; /* direct-mapped by page number */
    uint64_t tlb_misses;
    uint32_t index;
    uint64_t cr3, cr4;
    uint32_t invlpg_count;
    uint64_t invlpg_log[FAKE_MAX_INVLPG];
    uint32_t full_flushes;
    uint64_t msr[FAKE_MSRS];
    /* called from cpu_relax() with "interrupts" on: delivers pending fake IPIs */
    void (*poll)(struct fake_cpu *self);
    void *ctx;
};

void host_init(void);

/*
 * The simulated TLB: tlb_read64() translates through the page tables
 * registered here and caches the translation per fake CPU until invlpg,
 * invpcid or a CR3 write drops it, like a real TLB. A protocol that forgets
 * an invalidation reads the old frame.
 */
struct pt_ctx;
void fake_tlb_use_tables(const struct pt_ctx *pt);

/* Fake IPIs: apic_send_ipi() calls the sink (UINT32_MAX = all but self). */
typedef void (*fake_ipi_sink)(uint32_t dest_apic_id, uint8_t vector);
void fake_set_ipi_sink(fake_ipi_sink sink);
/* Runs the handler registered for `vector` on the calling thread. */
void fake_deliver_irq(uint8_t vector);
void fake_cpu_bind(struct fake_cpu *c);
struct fake_cpu *fake_cpu_current(void);

#endif
