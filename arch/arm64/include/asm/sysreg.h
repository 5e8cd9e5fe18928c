/*
 * aarch64 system-register access and the exception level the app runs at.
 *
 * The UEFI application runs at EL1 when QEMU's virt machine has no EL2
 * (default), and at EL2 with `virtualization=on` (AAVMF then runs at EL2 and
 * so do we, in the EL2 translation regime the firmware set up; many servers
 * too). Code that touches EL-specific registers uses the EL1 or EL2 form
 * according to arch_el, which efi_main sets from CurrentEL before anything
 * else, and before it starts any CPU.
 */
#ifndef TLBSCOPE_ARM64_SYSREG_H
#define TLBSCOPE_ARM64_SYSREG_H

#include <stdint.h>

#define read_sysreg(r) ({ uint64_t v__; __asm__ volatile("mrs %0, " #r : "=r"(v__)); v__; })
#define write_sysreg(r, v) __asm__ volatile("msr " #r ", %0" ::"r"((uint64_t)(v)) : "memory")

/* Barriers beyond asm/barrier.h's (Arm ARM, "Memory barriers"). */
#define dsb_sy() __asm__ volatile("dsb sy" ::: "memory")
#define cpu_relax() __asm__ volatile("yield" ::: "memory")

extern unsigned arch_el; /* 1 or 2: the EL the app (and every CPU it starts) runs at */

static inline unsigned cur_el(void)
{
    return (unsigned)((read_sysreg(CurrentEL) >> 2) & 3);
}

/* EL-dependent registers: one accessor each, so callers stay EL-agnostic. */
#define EL_READ(r) (arch_el == 2 ? read_sysreg(r##_EL2) : read_sysreg(r##_EL1))
#define EL_WRITE(r, v)                  \
    do {                                \
        if (arch_el == 2)               \
            write_sysreg(r##_EL2, v);   \
        else                            \
            write_sysreg(r##_EL1, v);   \
    } while (0)

/* MPIDR_EL1 affinity fields Aff3 [39:32], Aff2 [23:16], Aff1 [15:8], Aff0 [7:0]
 * (Arm ARM, MPIDR_EL1); the other bits (U, MT) are not part of the id. */
#define MPIDR_AFF_MASK 0xff00ffffffull

static inline uint64_t this_mpidr(void)
{
    return read_sysreg(MPIDR_EL1) & MPIDR_AFF_MASK;
}

/*
 * Clean [p, p+len) to the Point of Coherency. Used for anything a CPU reads
 * with its MMU and data cache off (the secondary entry stub and the data it
 * loads): those reads are non-cacheable and go straight to memory, so dirty
 * lines still sitting in the BSP's cache would be invisible to them (Arm ARM,
 * "Data cache maintenance instructions"; PSCI 1.1, CPU_ON: the entry point
 * is reached with MMU and caches off).
 */
static inline void dcache_clean_poc(const void *p, uint64_t len)
{
    /* CTR_EL0.DminLine [19:16]: log2 of the smallest D-cache line in words */
    uint64_t line = 4ull << ((read_sysreg(CTR_EL0) >> 16) & 0xf);
    uint64_t a = (uint64_t)p & ~(line - 1);
    for (; a < (uint64_t)p + len; a += line)
        __asm__ volatile("dc cvac, %0" ::"r"(a) : "memory");
    /* DSB SY: completes the cleans (system-wide, because the reader is an
     * observer outside the inner-shareable cacheable domain until its MMU
     * is on) before the PSCI call that starts that reader. */
    dsb_sy();
}

#endif
