/*
 * TLB invalidation instructions (encodings and semantics in
 * ../shared/reference/tlb-mechanics.md, section B).
 *
 * INVLPGB and TLBSYNC are emitted as bytes: binutils older than 2.36 lacks
 * the mnemonics. When the CPU lacks an instruction these raise #UD, which the
 * test-only emulation (core/machine/emulate.c) may handle; otherwise it is fatal, so
 * callers check CPUID (or probe, arch/x86/include/asm/probe.h) first.
 */
#ifndef TLBSCOPE_ARCH_X86_TLB_H
#define TLBSCOPE_ARCH_X86_TLB_H

#include <stdint.h>

#include "asm/cpu.h"
#include "core/mutant.h"

/* INVPCID types (SDM vol. 2A, INVPCID) */
#define INVPCID_ADDRESS 0
#define INVPCID_SINGLE_CONTEXT 1
#define INVPCID_ALL_INCLUDING_GLOBAL 2
#define INVPCID_ALL_NON_GLOBAL 3

struct invpcid_descriptor {
    uint64_t pcid; /* bits 11:0; 63:12 must be zero */
    uint64_t address;
};

/*
 * CR3 rewrite: flushes the current PCID's non-global entries (Linux
 * flush_tlb_local()). Built from the CR3 wrappers alone, so the host build
 * compiles this very body with the strict model behind them (issue 32 item
 * 20: the host had its own copy, and a mistake here went unseen).
 */
static inline void flush_local_all(void)
{
    write_cr3((read_cr3() & ~CR3_NOFLUSH) | (MUTANT(flush_local_noflush) ? CR3_NOFLUSH : 0));
}

#ifdef TLBSCOPE_HOST
void invpcid(uint64_t type, uint64_t pcid, uint64_t address);
void invlpgb_raw(uint64_t rax, uint32_t ecx, uint32_t edx);
void tlbsync(void);
#else
static inline void invpcid(uint64_t type, uint64_t pcid, uint64_t address)
{
    struct invpcid_descriptor d = { pcid, address };
    __asm__ volatile __inline__(INSN_AT "invpcid %0, %1" INSN_RECORD(INSN_KIND_INVPCID, "%0|%1")::"m"(d),
                     "r"(type)
                     : "memory");
}

static inline void invlpgb_raw(uint64_t rax, uint32_t ecx, uint32_t edx)
{
    __asm__ volatile __inline__(INSN_AT ".byte 0x0f, 0x01, 0xfe" INSN_RECORD(INSN_KIND_INVLPGB, "")::"a"(rax),
                     "c"(ecx), "d"(edx)
                     : "memory");
}

/* Waits for the INVLPGBs this CPU issued; must run on the CPU that issued them. */
static inline void tlbsync(void)
{
    __asm__ volatile __inline__(INSN_AT ".byte 0x0f, 0x01, 0xff" INSN_RECORD(INSN_KIND_TLBSYNC, "")::
                         : "memory");
}
#endif

#endif
