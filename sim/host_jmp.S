/*
 * Resuming at a recovery point on the host: what iretq into a frame that
 * arch/x86/trap.c trap_resume_at_recovery() rewrote does on the machine.
 * arch_setjmp (arch/x86/setjmp.S) returns again, with the frame's RAX (1).
 * Offsets: struct trap_frame (arch/x86/include/asm/trap.h).
 */
    .text

/* void sim_iret(const struct trap_frame *f): never returns */
    .globl sim_iret
    .type sim_iret, @function
sim_iret:
    movq 104(%rdi), %rbx
    movq 64(%rdi), %rbp
    movq 24(%rdi), %r12
    movq 16(%rdi), %r13
    movq 8(%rdi), %r14
    movq 0(%rdi), %r15
    movq 112(%rdi), %rax
    movq 136(%rdi), %rcx
    movq 160(%rdi), %rsp
    jmpq *%rcx
    .size sim_iret, . - sim_iret

    .section .note.GNU-stack, "", @progbits
