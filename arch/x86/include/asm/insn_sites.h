/*
 * Records of the privileged instructions the EFI build emits.
 *
 * The wrappers of arch/x86/include/asm/cpu.h and tlb.h (and the probes of entry.S) are
 * the only places meant to emit INVPCID, INVLPG, INVLPGB, TLBSYNC, WRMSR,
 * RDMSR and MOV to or from a control register. None of them can run in a
 * host test, so each also records, in the section .tlbscope_insn (not
 * loaded: objcopy leaves it out of the .efi), where the instruction is,
 * which one it is meant to be, and its operands as the compiler filled them
 * in. tests/checks/insn_encoding.sh disassembles the built binary and checks
 * every site against its record (opcode, no prefix that changes an implicit
 * operand, the control register's number, the operand registers), and that
 * no such instruction exists without a record: an inlined copy written
 * outside the wrappers is caught even when its encoding is valid.
 *
 * A record: the instruction's address (8 bytes), its kind (1 byte), its
 * operands as a NUL-terminated string ("" for implicit ones).
 */
#ifndef TLBSCOPE_ARCH_X86_INSN_SITES_H
#define TLBSCOPE_ARCH_X86_INSN_SITES_H

#define INSN_KIND_INVPCID 1      /* 66 0F 38 82 /r: type in a register, descriptor in memory */
#define INSN_KIND_INVLPG 2       /* 0F 01 /7: the address in memory */
#define INSN_KIND_INVLPGB 3      /* 0F 01 FE: rAX, ECX, EDX implicit */
#define INSN_KIND_TLBSYNC 4      /* 0F 01 FF */
#define INSN_KIND_WRMSR 5        /* 0F 30: ECX, EDX:EAX implicit */
#define INSN_KIND_RDMSR 6        /* 0F 32: ECX in, EDX:EAX out */
#define INSN_KIND_MOV_TO_CR3 7   /* 0F 22 /r, reg field 3 */
#define INSN_KIND_MOV_FROM_CR3 8 /* 0F 20 /r, reg field 3 */
#define INSN_KIND_MOV_TO_CR4 9   /* 0F 22 /r, reg field 4 */
#define INSN_KIND_MOV_FROM_CR4 10
#define INSN_KIND_MOV_FROM_CR0 11
#define INSN_KIND_MOV_FROM_CR2 12

#ifdef __ASSEMBLER__
/* After the instruction at `label`: its record (entry.S). */
.macro INSN_SITE kind, label, operands=""
    .pushsection .tlbscope_insn, "", @progbits
    .quad \label
    .byte \kind
    .asciz "\operands"
    .popsection
.endm
#else
#define INSN_STR_(x) #x
#define INSN_STR(x) INSN_STR_(x)
/*
 * In an asm template: INSN_AT the instruction, then INSN_RECORD(kind, "%0|%1")
 * naming its operands in the template's own syntax, so the record holds what
 * the compiler chose. Label 771 is local to each expansion of the template.
 */
#define INSN_AT "771:\n\t"
#define INSN_RECORD(kind, operands)                                                            \
    "\n\t.pushsection .tlbscope_insn, \"\", @progbits\n\t.quad 771b\n\t.byte " INSN_STR(kind)  \
    "\n\t.asciz \"" operands "\"\n\t.popsection"
#endif

#endif
