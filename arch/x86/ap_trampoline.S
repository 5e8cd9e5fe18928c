/*
 * The AP start-up trampoline of the tool's own INIT-SIPI bring-up
 * (efi/ap_boot.c; layout and patching: arch/x86/include/asm/trampoline.h).
 *
 * A STARTUP IPI starts the AP in real mode at CS:IP = VV00:0000, VV being
 * the SIPI vector, i.e. at the first byte of this page once it is copied to
 * physical address VV000 below 1 MiB (SDM vol. 3A, 9.4.4.1). Everything the
 * 16-bit code reads is addressed through DS = CS as an offset within the
 * page, so the page works wherever it is copied; the few absolute values
 * (the GDT base, the far jump's 32-bit target) are patched by
 * trampoline_build() from the page's physical address.
 *
 * Real mode -> long mode in one step (SDM vol. 3A, 9.8.5: IA-32e mode is
 * entered by enabling paging with CR4.PAE and EFER.LME set; CR0.PE may be
 * set by the same MOV): CR4 (PAE and the BSP's other bits), CR3 (the tool's
 * own page tables, whose root lies below 4 GiB because a 32-bit MOV loads
 * it), EFER (LME, and NXE/SCE as on the BSP), CR0 (PE|PG as on the BSP,
 * which also clears the CD/NW bits INIT left set), then the far jump that
 * loads the 64-bit code selector of the trampoline's GDT. The 64-bit code
 * takes a stack slot with one atomic increment (APs started together share
 * the page), and calls the tool's C entry, which loads the tool's own GDT
 * and IDT (core/machine/takeover.c). Interrupts stay off throughout.
 *
 * Assembled for the UEFI image and for the host (tests/host/test_trampoline.c
 * checks the layout); it contains no relocation: only differences of labels.
 */
#define MSR_EFER 0xc0000080

    .section .rodata.ap_trampoline, "a"
    .p2align 4
    .globl ap_tramp_start, ap_tramp_end, ap_tramp_params, ap_tramp_load_cr3
    .globl ap_tramp_far_jump, ap_tramp_long64, ap_tramp_gdt, ap_tramp_gdt_ptr
    .code16
ap_tramp_start:
    cli
    cld
    movw %cs, %ax
    movw %ax, %ds
    lgdtl (ap_tramp_gdt_ptr - ap_tramp_start)
    movl (ap_tramp_params + 4 - ap_tramp_start), %eax   /* params.cr4 */
    movl %eax, %cr4
ap_tramp_load_cr3:
    movl (ap_tramp_params + 0 - ap_tramp_start), %eax   /* params.cr3 */
    movl %eax, %cr3
    movl $MSR_EFER, %ecx
    movl (ap_tramp_params + 8 - ap_tramp_start), %eax   /* params.efer */
    xorl %edx, %edx
    wrmsr
    movl (ap_tramp_params + 12 - ap_tramp_start), %eax  /* params.cr0 */
    movl %eax, %cr0
ap_tramp_far_jump:
    /* ljmpl $0x08, $target: 32-bit offset patched to the physical address of ap_tramp_long64 */
    .byte 0x66, 0xea
    .long 0
    .word 0x08

    .code64
ap_tramp_long64:
    movl $0x10, %eax
    movl %eax, %ds
    movl %eax, %es
    movl %eax, %ss
    /* stack slot: the n-th AP to get here uses the n-th stack (params.next_slot) */
    movl $1, %eax
    lock xaddl %eax, (.Lparams + 48)(%rip)
    incq %rax
    imulq (.Lparams + 32)(%rip), %rax             /* params.stack_size */
    addq (.Lparams + 24)(%rip), %rax              /* params.stack_base */
    movq %rax, %rsp
    lock incl (.Lparams + 52)(%rip)               /* params.arrived */
    movq (.Lparams + 40)(%rip), %rdi              /* params.arg */
    movq (.Lparams + 16)(%rip), %rax              /* params.entry */
    xorl %ebp, %ebp
    call *%rax
1:  cli                                                 /* the entry never returns */
    hlt
    jmp 1b

    .p2align 3
ap_tramp_gdt:
    .quad 0                                             /* null */
    .quad 0x00209a0000000000                            /* 0x08: 64-bit code, P, DPL 0, L */
    .quad 0x0000920000000000                            /* 0x10: data, P, writable */
ap_tramp_gdt_ptr:
    .word 3 * 8 - 1
    .long 0                                             /* patched: physical address of the GDT */
    .p2align 3
ap_tramp_params:
.Lparams:
    .fill 56, 1, 0                                      /* struct trampoline_params */
ap_tramp_end:

    .section .note.GNU-stack, "", @progbits
