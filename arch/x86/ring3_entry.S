/*
 * The CPL 3 loop (a position-independent blob copied onto its user code
 * page) and the IRETQ that enters it (arch/x86/include/asm/ring3.h).
 * Machine build only: the host model has no privilege levels.
 */
#define RING3_EXIT_VECTOR 0xe8
#define USER_CS 0x1b
#define USER_DS 0x23
/* struct ring3_shared */
#define R3_ENTERED 0
#define R3_STOP 8
#define R3_DEADLINE 16
#define R3_SPINS 24

    .text

/* %rdi = the data page's user address. Runs at CPL 3: touches its own page only. */
    .globl ring3_blob_start
    .globl ring3_blob_end
ring3_blob_start:
    movq $1, R3_ENTERED(%rdi)
1:  pause
    incq R3_SPINS(%rdi)
    cmpq $0, R3_STOP(%rdi)
    jne 2f
    rdtsc                        /* the loop's own deadline: every wait has one */
    shlq $32, %rdx
    orq %rdx, %rax
    cmpq R3_DEADLINE(%rdi), %rax
    jb 1b
2:  int $RING3_EXIT_VECTOR       /* back to CPL 0 (ring3_trap) */
    ud2
ring3_blob_end:

/* void ring3_iret(uint64_t rip, uint64_t rsp, uint64_t arg): never returns (ring3_trap longjmps) */
    .globl ring3_iret
ring3_iret:
    pushq $USER_DS               /* SS */
    pushq %rsi                   /* RSP */
    pushq $0x202                 /* RFLAGS: IF */
    pushq $USER_CS
    pushq %rdi                   /* RIP */
    movq %rdx, %rdi
    movl $USER_DS, %eax
    movw %ax, %ds                /* DPL 3 data: IRETQ to CPL 3 would null DPL 0 ones */
    movw %ax, %es
    xorl %eax, %eax
    xorl %edx, %edx
    xorl %esi, %esi
    iretq

    .section .note.GNU-stack, "", @progbits
