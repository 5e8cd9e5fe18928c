/*
 * Resuming at a recovery point on the host: what iretq into a frame that
 * arch/x86/trap.c trap_resume_at_recovery() rewrote does on the machine.
 * arch_setjmp (arch/x86/setjmp.S) returns again, with 1.
 */
    .text

/* void sim_jump(const struct arch_jmpbuf *jb): never returns */
    .globl sim_jump
    .type sim_jump, @function
sim_jump:
    movq 0(%rdi), %rbx
    movq 8(%rdi), %rbp
    movq 16(%rdi), %r12
    movq 24(%rdi), %r13
    movq 32(%rdi), %r14
    movq 40(%rdi), %r15
    movq 48(%rdi), %rsp
    movl $1, %eax
    jmpq *56(%rdi)
    .size sim_jump, . - sim_jump

    .section .note.GNU-stack, "", @progbits
