/*
 * The recovery point of arch/x86/include/asm/percpu.h: System V x86-64, position
 * independent, the same in the UEFI image and on the host (sim/).
 */
    .text

/* int arch_setjmp(struct arch_jmpbuf *jb): 0 now, 1 when trap.c resumes here */
    .globl arch_setjmp
arch_setjmp:
    movq %rbx, 0(%rdi)
    movq %rbp, 8(%rdi)
    movq %r12, 16(%rdi)
    movq %r13, 24(%rdi)
    movq %r14, 32(%rdi)
    movq %r15, 40(%rdi)
    leaq 8(%rsp), %rax          /* the caller's stack after our return */
    movq %rax, 48(%rdi)
    movq (%rsp), %rax           /* our return address */
    movq %rax, 56(%rdi)
    xorl %eax, %eax
    ret

    .section .note.GNU-stack, "", @progbits
