/*
 * The AP start-up trampoline (arch/x86/ap_trampoline.S): what it reads, and
 * how a copy of it is prepared for one physical page below 1 MiB.
 *
 * trampoline_build() is the one place that knows the trampoline's absolute
 * fields: the 32-bit base of its GDT and the target of its far jump, both
 * physical addresses inside the page, plus the parameter block. The host
 * test tests/host/test_trampoline.c checks the result byte by byte.
 */
#ifndef TLBSCOPE_ARCH_X86_TRAMPOLINE_H
#define TLBSCOPE_ARCH_X86_TRAMPOLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Read by the AP; offsets fixed by ap_trampoline.S (its params + N operands). */
struct trampoline_params {
    uint32_t cr3;        /* +0  root of the tool's page tables (below 4 GiB: a 32-bit MOV) */
    uint32_t cr4;        /* +4  loaded before paging: PAE and the BSP's bits */
    uint32_t efer;       /* +8  low half of IA32_EFER: LME, and NXE/SCE as on the BSP */
    uint32_t cr0;        /* +12 PE|PG as on the BSP */
    uint64_t entry;      /* +16 C entry, void entry(void *arg), never returns */
    uint64_t stack_base; /* +24 AP n (0-based, in arrival order) gets the stack ending at */
    uint64_t stack_size; /* +32 stack_base + (n + 1) * stack_size */
    uint64_t arg;        /* +40 */
    volatile uint32_t next_slot; /* +48 stack slots taken (atomic increment) */
    volatile uint32_t arrived;   /* +52 APs that reached 64-bit code */
};

/* Selector of the trampoline's 64-bit code segment (the same as the tool's GDT, TOOL_CS). */
#define TRAMPOLINE_CODE64_SEL 0x08
/* The page must lie below 1 MiB and be 4 KiB aligned: the SIPI vector is its page number. */
#define TRAMPOLINE_MAX_PHYS 0x100000u

/* The trampoline's image, and offsets of its labels from its start. */
extern const uint8_t ap_tramp_start[], ap_tramp_end[], ap_tramp_params[], ap_tramp_load_cr3[];
extern const uint8_t ap_tramp_far_jump[], ap_tramp_long64[], ap_tramp_gdt[], ap_tramp_gdt_ptr[];
#define TRAMP_OFF(label) ((size_t)((label) - ap_tramp_start))

size_t trampoline_size(void);
/*
 * Copies the trampoline into `page` (its bytes as they will lie at physical
 * address `phys`), patches its absolute fields for `phys` and fills in the
 * parameter block. False, with `*why` set, when `phys` or `params->cr3`
 * cannot work (not page-aligned below 1 MiB; a root at or above 4 GiB).
 * Returns the block inside the page (the BSP reads `arrived` there).
 */
struct trampoline_params *trampoline_build(uint8_t *page, uint64_t phys, uint64_t cr3,
                                           const struct trampoline_params *params,
                                           const char **why);
/* The STARTUP IPI's vector for a trampoline at `phys`: its page number. */
static inline uint8_t trampoline_sipi_vector(uint64_t phys) { return (uint8_t)(phys >> 12); }

#endif
