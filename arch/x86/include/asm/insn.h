/*
 * Decoder for the few instructions the test-only emulation handles after a
 * #UD: INVLPGB (0F 01 FE), TLBSYNC (0F 01 FF) and INVPCID (66 [REX] 0F 38 82
 * /r with a memory operand). Pure, tested on the host.
 */
#ifndef TLBSCOPE_ARCH_X86_INSN_H
#define TLBSCOPE_ARCH_X86_INSN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum insn_kind { INSN_UNKNOWN = 0, INSN_INVLPGB, INSN_TLBSYNC, INSN_INVPCID };

#define INSN_REG_NONE (-1)
#define INSN_REG_RIP 16

/* General registers in encoding order: rax rcx rdx rbx rsp rbp rsi rdi r8-r15. */
struct insn_decoded {
    enum insn_kind kind;
    uint32_t length;
    int reg;         /* INVPCID: register holding the type */
    int base, index; /* memory operand; INSN_REG_NONE when absent, INSN_REG_RIP */
    uint32_t scale;
    int64_t disp;
};

bool insn_decode(const uint8_t *bytes, size_t avail, struct insn_decoded *out);
/* Effective address of the memory operand; regs[] in encoding order. */
uint64_t insn_effective_address(const struct insn_decoded *d, const uint64_t regs[16],
                                uint64_t rip);

#endif
