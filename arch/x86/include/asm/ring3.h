/*
 * A loop at CPL 3: what a Linux CPU interrupted in user mode pays for the
 * privilege change on interrupt entry (IDT gate from CPL 3: the stack switch
 * to TSS.RSP0; the IRETQ back to CPL 3), beside the tool's ring-0 targets.
 * No entry mitigation is added (no CR3 switch, SWAPGS, VERW, IBRS/IBPB).
 *
 * What it installs: user code and data descriptors (DPL 3, 64-bit) in the
 * tool's GDT, one 64-bit TSS (RSP0 = a stack of its own; one CPU at a time
 * runs the loop), a DPL 3 gate at RING3_EXIT_VECTOR (the loop's way back),
 * and two user pages (code, data/stack; U/S=1) at a VA the caller gives
 * (core/exp/target_states.c: past the test region) in the tool's own page tables. The handlers the loop's interrupts run are the tool's
 * ring-0 code: nothing the kernel runs or touches lies on a user page, so
 * CR4.SMEP/SMAP set by the firmware change nothing. The GDT, IDT, CS/DS/ES/SS
 * and the page tables go back to the firmware's at hand-back with the rest
 * (desc.c, takeover.c), FS/GS bases too; not restored on the CPU that ran the
 * loop: TR (left on the tool's TSS; ring3_exit.fw_tr says what it was, and
 * the experiment notes a firmware one) and the FS/GS selectors (the tool's
 * data selector, loaded to keep the bases across IRETQ).
 *
 * The host model runs each CPU as a host thread: no privilege level to
 * enter, so ring3_supported() says why and nothing is installed.
 */
#ifndef TLBSCOPE_ARCH_X86_RING3_H
#define TLBSCOPE_ARCH_X86_RING3_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "asm/paging.h"

#define RING3_EXIT_VECTOR 0xe8 /* INT from CPL 3: the loop is done (DPL 3 gate) */
#define USER_CS 0x1b           /* GDT entry 3, RPL 3 */
#define USER_DS 0x23           /* GDT entry 4, RPL 3 */
#define TOOL_TSS 0x28          /* GDT entries 5-6 */

/* The loop's data page (kernel view through the identity map; user view at va + 4 KiB). */
struct ring3_shared {
    volatile uint64_t entered;  /* written 1 by the loop at CPL 3 */
    volatile uint64_t stop;     /* the loop returns to CPL 0 once non-zero */
    volatile uint64_t deadline; /* ... or once its TSC passes this */
    volatile uint64_t spins;    /* loop iterations */
};

/* How one ring3_run() ended. */
struct ring3_exit {
    uint32_t vector;  /* RING3_EXIT_VECTOR, or the exception the loop took */
    uint64_t rip;     /* where, at CPL 3 */
    uint16_t cs;      /* the interrupted CS (RPL 3 unless the mutant) */
    uint16_t fw_tr;   /* the CPU's TR before the loop's LTR (0: none loaded) */
};

/* False with the reason where no CPL 3 loop can run (the host model). */
bool ring3_supported(char *why, size_t cap);
/*
 * Installs the descriptors, TSS and user pages (pt = the tool's tables; the
 * pages at va and va + 4 KiB, unmapped before; mapped once per run).
 */
bool ring3_prepare(struct pt_ctx *pt, uint64_t va, char *why, size_t cap);
struct ring3_shared *ring3_shared(void);
/*
 * On the calling CPU (CPL 0, tool GDT loaded): loads the TSS and runs the
 * loop at CPL 3 with interrupts enabled until stop or the deadline; returns
 * with interrupts disabled, FS/GS bases as before. False: the loop faulted
 * (vector and rip in *out).
 */
bool ring3_run(uint64_t deadline, struct ring3_exit *out);

#endif
