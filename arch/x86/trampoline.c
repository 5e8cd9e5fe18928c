#include "asm/trampoline.h"
#include "core/lib/mem.h"
#include "core/mutant.h"

_Static_assert(offsetof(struct trampoline_params, cr4) == 4, "ap_trampoline.S reads params+4");
_Static_assert(offsetof(struct trampoline_params, efer) == 8, "ap_trampoline.S reads params+8");
_Static_assert(offsetof(struct trampoline_params, cr0) == 12, "ap_trampoline.S reads params+12");
_Static_assert(offsetof(struct trampoline_params, entry) == 16, "ap_trampoline.S reads params+16");
_Static_assert(offsetof(struct trampoline_params, stack_base) == 24, "params+24");
_Static_assert(offsetof(struct trampoline_params, stack_size) == 32, "params+32");
_Static_assert(offsetof(struct trampoline_params, arg) == 40, "params+40");
_Static_assert(offsetof(struct trampoline_params, next_slot) == 48, "params+48");
_Static_assert(offsetof(struct trampoline_params, arrived) == 52, "params+52");
_Static_assert(sizeof(struct trampoline_params) == 56, "ap_trampoline.S reserves 56 bytes");

size_t trampoline_size(void) { return TRAMP_OFF(ap_tramp_end); }

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

struct trampoline_params *trampoline_build(uint8_t *page, uint64_t phys, uint64_t cr3,
                                           const struct trampoline_params *params,
                                           const char **why)
{
    struct trampoline_params *p;
    uint32_t target;
    if ((phys & 0xfff) || phys >= TRAMPOLINE_MAX_PHYS || phys == 0) {
        *why = "the trampoline page must be 4 KiB aligned, above 0 and below 1 MiB";
        return NULL;
    }
    /* the real-mode code loads CR3 with a 32-bit MOV: a higher root would be truncated */
    if ((cr3 >> 32) && !MUTANT(tramp_cr3_truncated)) {
        *why = "the root of the tool's page tables lies at or above 4 GiB";
        return NULL;
    }
    mem_copy(page, ap_tramp_start, trampoline_size());
    /* ljmpl's 32-bit offset: the 64-bit code's physical address (66 EA off32 sel16) */
    target = (uint32_t)phys + (uint32_t)TRAMP_OFF(ap_tramp_long64);
    if (MUTANT(tramp_far_jump_off))
        target = (uint32_t)TRAMP_OFF(ap_tramp_long64); /* an offset, not an address */
    put32(page + TRAMP_OFF(ap_tramp_far_jump) + 2, target);
    /* lgdtl's 32-bit base, after the 16-bit limit */
    put32(page + TRAMP_OFF(ap_tramp_gdt_ptr) + 2, (uint32_t)phys + (uint32_t)TRAMP_OFF(ap_tramp_gdt));
    p = (struct trampoline_params *)(void *)(page + TRAMP_OFF(ap_tramp_params));
    *p = *params;
    p->cr3 = (uint32_t)cr3;
    p->next_slot = 0;
    p->arrived = 0;
    *why = NULL;
    return p;
}
