/*
 * The pages the aarch64 app takes from the firmware (its page tables and frame pools,
 * arch/arm64/paging.c pt_build), each allocation remembered so the hand-back gives every
 * one back (efi/arm64/main.c hand_back).
 */
#ifndef TLBSCOPE_EFI_ARM64_PAGES_H
#define TLBSCOPE_EFI_ARM64_PAGES_H

#include <stdbool.h>
#include <stdint.h>

/* n zeroed, identity-mapped pages (EfiLoaderData), 0 when there are none */
uint64_t pages_alloc(uint64_t n);
/* every allocation freed, or kept (keep: a CPU still on may walk them; or FreePages failed),
 * counted in pages; none remembered afterwards */
void pages_give_back(bool keep, uint32_t *freed, uint32_t *kept);

#endif
