/*
 * Low-level entry points: the 256 IDT stubs, the common trap path,
 * segment reloading, setjmp, and probes for instructions that may fault.
 * The code is position independent (the UEFI image is relocated at load).
 */
#include "asm/insn_sites.h"
#include "asm/percpu.h"

    .text

/*
 * One 16-byte stub per vector. Exceptions that push an error code (SDM vol.
 * 3A, table 6-1: 8, 10-14, 17, 21, 29, 30) get none pushed by the stub so
 * the frame layout is the same for all vectors.
 */
    .globl trap_stubs
    .p2align 4
trap_stubs:
    .set vec, 0
    .rept 256
    .p2align 4
    .if (vec == 8) || ((vec >= 10) && (vec <= 14)) || (vec == 17) || (vec == 21) || (vec == 29) || (vec == 30)
    .else
    pushq $0
    .endif
    pushq $vec
    jmp trap_common
    .set vec, vec + 1
    .endr

trap_common:
    pushq %rax
    pushq %rbx
    pushq %rcx
    pushq %rdx
    pushq %rsi
    pushq %rdi
    pushq %rbp
    pushq %r8
    pushq %r9
    pushq %r10
    pushq %r11
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    cld                         /* the SysV ABI expects DF clear on calls */
    movq %rsp, %rdi             /* struct trap_frame * */
    movq %rsp, %rbx             /* callee-saved: the frame survives the call */
    andq $-16, %rsp             /* the ABI wants a 16-byte aligned stack at the call */
    call trap_dispatch
    movq %rbx, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %r11
    popq %r10
    popq %r9
    popq %r8
    popq %rbp
    popq %rdi
    popq %rsi
    popq %rdx
    popq %rcx
    popq %rbx
    popq %rax
    addq $16, %rsp              /* vector and error code */
    iretq

/* void gdt_switch(const struct desc_ptr *gdtr, uint64_t cs, uint64_t ds) */
    .globl gdt_switch
gdt_switch:
    lgdt (%rdi)
    pushq %rsi
    leaq 1f(%rip), %rax
    pushq %rax
    lretq                       /* far return reloads CS from the new GDT */
1:  movw %dx, %ds
    movw %dx, %es
    movw %dx, %ss
    ret

/*
 * Probes. Each arms the per-CPU probe slot with the address of the probed
 * instruction and of the instruction after it; if the instruction faults,
 * trap_dispatch records vector + 1 in the slot and resumes after it.
 * Return value: 0 when it executed, else vector + 1.
 */
.macro PROBE_ARM insn_label, fixup_label
    leaq \insn_label(%rip), %rax
    movq %rax, %gs:PERCPU_OFF_PROBE_RIP
    leaq \fixup_label(%rip), %rax
    movq %rax, %gs:PERCPU_OFF_PROBE_FIXUP
    movl $0, %gs:PERCPU_OFF_PROBE_VECTOR
.endm
.macro PROBE_DONE
    movq $0, %gs:PERCPU_OFF_PROBE_RIP
    movl %gs:PERCPU_OFF_PROBE_VECTOR, %eax
    ret
.endm

/* uint32_t arch_probe_invpcid(uint64_t type, const void *descriptor) */
    .globl arch_probe_invpcid
arch_probe_invpcid:
    PROBE_ARM 1f, 2f
1:  invpcid (%rsi), %rdi
    INSN_SITE INSN_KIND_INVPCID, 1b, "(%rsi)|%rdi"
2:  PROBE_DONE

/* uint32_t arch_probe_invlpgb(uint64_t rax, uint32_t ecx, uint32_t edx) */
    .globl arch_probe_invlpgb
arch_probe_invlpgb:

    movq %rdi, %r8
    movl %esi, %ecx
    movl %edx, %r9d
    PROBE_ARM 1f, 2f
    movq %r8, %rax
    movl %r9d, %edx
1:  .byte 0x0f, 0x01, 0xfe      /* INVLPGB (binutils may predate the mnemonic) */
    INSN_SITE INSN_KIND_INVLPGB, 1b
2:
    PROBE_DONE

/* uint32_t arch_probe_tlbsync(void) */
    .globl arch_probe_tlbsync
arch_probe_tlbsync:
    PROBE_ARM 1f, 2f
1:  .byte 0x0f, 0x01, 0xff      /* TLBSYNC */
    INSN_SITE INSN_KIND_TLBSYNC, 1b
2:  PROBE_DONE

/* uint32_t arch_probe_rdmsr(uint32_t msr, uint64_t *value) */
    .globl arch_probe_rdmsr
arch_probe_rdmsr:
    movq %rsi, %r8
    movl %edi, %ecx
    PROBE_ARM 1f, 2f
    xorl %edx, %edx
    xorl %eax, %eax
1:  rdmsr
    INSN_SITE INSN_KIND_RDMSR, 1b
    shlq $32, %rdx
    orq %rax, %rdx
    movq %rdx, (%r8)
2:  PROBE_DONE

/* uint32_t arch_probe_wrmsr(uint32_t msr, uint64_t value) */
    .globl arch_probe_wrmsr
arch_probe_wrmsr:
    movq %rsi, %r8
    movl %edi, %ecx
    PROBE_ARM 1f, 2f
    movl %r8d, %eax
    shrq $32, %r8
    movl %r8d, %edx
1:  wrmsr
    INSN_SITE INSN_KIND_WRMSR, 1b
2:  PROBE_DONE


    .section .note.GNU-stack, "", @progbits
