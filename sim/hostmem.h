/* The host's memory behind core/lib/mem.h (malloc), for the simulator and the host tests. */
#ifndef TLBSCOPE_SIM_HOSTMEM_H
#define TLBSCOPE_SIM_HOSTMEM_H

#include <stdint.h>

void host_init(void);
/*
 * Allocators for arch/x86/include/asm/paging.h and core/machine/testmem.h: zeroed, aligned heap
 * memory. On the host a pointer is the "physical" address the modelled
 * page tables hold, as identity mapping makes it on the machine.
 */
void *host_alloc_table(void *ctx);
void *host_alloc_frames(void *ctx, uint64_t bytes, uint64_t align);

#endif
