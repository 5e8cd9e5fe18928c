/*
 * Secondary CPU entry (PSCI CPU_ON target) and our exception vectors.
 *
 * PSCI 1.1, CPU_ON and its entry-state rules: the CPU arrives at the entry
 * point at the EL of the caller, MMU off, data cache off, all of DAIF
 * masked, x0 = context_id (our CPU index). With the MMU off every data
 * access is Device-nGnRnE and instruction fetches are Non-cacheable unless
 * SCTLR.I is set (Arm ARM, "The effects of disabling a stage of address
 * translation"), which is why the BSP cleans this code and boot_params to
 * the Point of Coherency before CPU_ON. Nothing is written to memory here
 * before the MMU is on: such stores would bypass the caches and could later
 * be overwritten by stale dirty lines.
 */
#include "asm/smp.h"

    .text
    .balign 4096
    .globl entry_text_start
entry_text_start:

    .globl secondary_entry
secondary_entry:
    adrp    x1, boot_params
    add     x1, x1, :lo12:boot_params
    mrs     x2, CurrentEL
    cmp     x2, #(2 << 2)
    b.eq    1f

    /* EL1: the BSP's translation regime, then TLB invalidate (TLB contents
     * are not guaranteed invalid out of reset: Arm ARM, "TLB maintenance
     * requirements" / reset behaviour of TLBs), then turn on MMU and caches. */
    ldr     x3, [x1, #BP_MAIR]
    msr     mair_el1, x3
    ldr     x3, [x1, #BP_TCR]
    msr     tcr_el1, x3
    ldr     x3, [x1, #BP_TTBR0]
    msr     ttbr0_el1, x3
    ldr     x3, [x1, #BP_TTBR1]     /* its ASID where TCR_EL1.A1 is set; EPD1: never walked */
    msr     ttbr1_el1, x3
    ldr     x3, [x1, #BP_CPTR]
    msr     cpacr_el1, x3
    ldr     x3, [x1, #BP_VBAR]
    msr     vbar_el1, x3
    isb
    tlbi    vmalle1
    dsb     nsh
    isb
    ldr     x3, [x1, #BP_SCTLR]
    msr     sctlr_el1, x3
    isb                             /* the MMU is on from the next instruction */
    b       2f

1:  /* EL2 (virtualization=on): same, with the EL2 registers. HCR_EL2 first:
     * its E2H/TGE bits change how the EL2 registers below are interpreted. */
    ldr     x3, [x1, #BP_HCR]
    msr     hcr_el2, x3
    /* the virtual count equals the physical one, as on the BSP (asm/timer.h
     * counter_clear_voffset): no firmware offset in ticks() */
    msr     cntvoff_el2, xzr
    isb
    ldr     x3, [x1, #BP_MAIR]
    msr     mair_el2, x3
    ldr     x3, [x1, #BP_TCR]
    msr     tcr_el2, x3
    ldr     x3, [x1, #BP_TTBR0]
    msr     ttbr0_el2, x3
    ldr     x3, [x1, #BP_CPTR]
    msr     cptr_el2, x3
    ldr     x3, [x1, #BP_VBAR]
    msr     vbar_el2, x3
    isb
    tlbi    alle2
    dsb     nsh
    isb
    ldr     x3, [x1, #BP_SCTLR]
    msr     sctlr_el2, x3
    isb

2:  /* MMU and caches on: per-CPU stack and data from the tables indexed by
     * the context id, then C. Stacks are 16-byte aligned (AAPCS64). */
    add     x2, x1, #BP_STACK
    ldr     x3, [x2, x0, lsl #3]
    mov     sp, x3
    mov     x2, #BP_PERCPU          /* past add's 12-bit immediate at 512 CPUs */
    add     x2, x1, x2
    ldr     x4, [x2, x0, lsl #3]
    ldr     x3, [x1, #BP_ENTRY]
    mov     x0, x4
    mov     x29, #0                 /* end of the frame-pointer chain */
    mov     x30, #0
    blr     x3
3:  wfi                             /* secondary_main does not return */
    b       3b

/*
 * Exception vectors (Arm ARM, "Exception vectors"): 16 entries of
 * 0x80 bytes, table aligned to 2 KiB: current EL with SP0 (0-3), current EL
 * with SP_ELx (4-7), lower EL AArch64 (8-11) and AArch32 (12-15), each sync,
 * IRQ, FIQ, SError. Our CPUs run at the current EL on SP_ELx (PSCI CPU_ON
 * enters EL1h/EL2h), so entry 5 is their IRQ: it goes to irq_entry (asm/irq.h
 * says where IRQs are unmasked). Every other entry records its number and
 * goes to vector_common: a translation fault inside an abort window
 * (asm/abort.h) is stepped over, anything else is printed and parks the CPU:
 * a fault is a bug to report, not to recover from.
 */
    .balign 2048
    .globl exception_vectors
exception_vectors:
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
    .balign 128
    .if \n == 5
    b       irq_entry
    .else
    sub     sp, sp, #16
    stp     x0, x1, [sp]
    mov     x0, #\n
    b       vector_common
    .endif
    .endr

/*
 * IRQ entry: what the C handler may clobber under AAPCS64, the caller-saved
 * x0-x18 and the link register x30 (x29 rides along in the pair), goes on the
 * interrupted code's stack; x19-x28 are the callee's to keep. Linux's
 * kernel_entry saves every register into pt_regs because its handlers may
 * schedule or inspect them; ours only counts and returns. ELR_ELx and
 * SPSR_ELx stay as the exception left them: exception entry masks IRQs
 * (PSTATE.I) so nothing nests, and a fault in the handler parks the CPU. The
 * frame is 192 bytes with the top 24 unused, which keeps the 16 bytes below
 * the interrupted SP untouched (the Windows ARM64 ABI reserves them, and
 * this is its target) and SP 16-byte aligned. ERET restores PSTATE, IRQ mask
 * and flags included, from SPSR_ELx and returns to ELR_ELx.
 */
    .macro irq_frame pair, one             /* stp/str to save, ldp/ldr to restore */
    \pair   x0, x1, [sp, #0]
    \pair   x2, x3, [sp, #16]
    \pair   x4, x5, [sp, #32]
    \pair   x6, x7, [sp, #48]
    \pair   x8, x9, [sp, #64]
    \pair   x10, x11, [sp, #80]
    \pair   x12, x13, [sp, #96]
    \pair   x14, x15, [sp, #112]
    \pair   x16, x17, [sp, #128]
    \pair   x18, x29, [sp, #144]
    \one    x30, [sp, #160]
    .endm

irq_entry:
    sub     sp, sp, #192
    irq_frame stp, str
    bl      irq_handle
    irq_frame ldp, ldr
    add     sp, sp, #192
    eret

/*
 * Every exception but the IRQ: x0 holds the vector number, the interrupted x0 and x1 are
 * at [sp]. What fault_recoverable (C) may clobber goes on the stack as in irq_entry, the
 * vector number with it. A fault it recovers (a translation fault inside an abort window,
 * asm/abort.h) returns past the faulting load (ELR_ELx + 4: one A64 instruction) with
 * every register as it was; any other goes to fault_report, which parks the CPU.
 */
    .macro fault_regs el                    /* x1 = ESR, x2 = FAR, x3 = ELR of \el */
    mrs     x1, esr_\el
    mrs     x2, far_\el
    mrs     x3, elr_\el
    .endm

vector_common:
    sub     sp, sp, #176
    irq_frame stp, str                      /* x0-x18, x29, x30: x0 the vector number */
    mrs     x4, CurrentEL
    cmp     x4, #(2 << 2)
    b.eq    1f
    fault_regs el1
    b       2f
1:  fault_regs el2
2:  bl      fault_recoverable
    cbz     x0, 4f
    mrs     x4, CurrentEL
    cmp     x4, #(2 << 2)
    b.eq    3f
    mrs     x1, elr_el1
    add     x1, x1, #4
    msr     elr_el1, x1
    b       5f
3:  mrs     x1, elr_el2
    add     x1, x1, #4
    msr     elr_el2, x1
5:  irq_frame ldp, ldr
    add     sp, sp, #176
    ldp     x0, x1, [sp]
    add     sp, sp, #16
    eret
4:  ldr     x0, [sp, #0]                    /* the vector number */
    mrs     x4, CurrentEL
    cmp     x4, #(2 << 2)
    b.eq    6f
    fault_regs el1
    b       7f
6:  fault_regs el2
7:  bl      fault_report                    /* does not return */
8:  wfi
    b       8b

    .balign 64
    .globl entry_text_end
entry_text_end:
