/*
 * The generic timer's virtual count (Arm ARM, "The Generic Timer in AArch64
 * state"): the clock of every aarch64 measurement (unit "counter_ticks").
 * CNTVCT_EL0 is readable at EL0..EL2 without traps in our setups and counts at
 * CNTFRQ_EL0 Hz, which firmware or the machine set (QEMU 10.0, -M virt -cpu
 * max: 1 GHz; real parts commonly 24-100 MHz, so one tick may be 10-40 ns).
 */
#ifndef TLBSCOPE_ARM64_TIMER_H
#define TLBSCOPE_ARM64_TIMER_H

#include <stdint.h>

#include "asm/sysreg.h"

#ifdef TLBSCOPE_HOST
/* the host build (sim/arm64/): the host's monotonic clock in ns, tick_freq() 1 GHz;
 * what it measures is host time, never an aarch64 counter (sim/arm64/host_arch.c) */
uint64_t ticks(void);
uint64_t tick_freq(void);
#else
/* The ISB keeps the counter read from being performed early, i.e. before
 * the instructions we want to time (Arm ARM: reads of CNTVCT_EL0 can occur
 * speculatively and out of order). */
static inline uint64_t ticks(void)
{
    __asm__ volatile("isb" ::: "memory");
    return read_sysreg(CNTVCT_EL0);
}

static inline uint64_t tick_freq(void)
{
    return read_sysreg(CNTFRQ_EL0);
}

/* EL2 only: CNTVOFF_EL2 := 0, so this CPU's CNTVCT_EL0 equals its CNTPCT_EL0 (as Linux's
 * init_el2 does: an offset left by firmware would shift the virtual count). Returns the
 * offset found. The secondaries clear theirs in entry.S. */
static inline uint64_t counter_clear_voffset(void)
{
    uint64_t found = read_sysreg(CNTVOFF_EL2);
    write_sysreg(CNTVOFF_EL2, 0);
    __asm__ volatile("isb" ::: "memory");
    return found;
}
#endif

/* split so that nothing overflows 64 bits (no 128-bit division: there is no
 * compiler runtime in this freestanding image) */
static inline uint64_t ticks_to_us(uint64_t t)
{
    uint64_t f = tick_freq();
    return f ? t / f * 1000000u + t % f * 1000000u / f : 0;
}

static inline uint64_t ticks_to_ms(uint64_t t)
{
    return ticks_to_us(t) / 1000u;
}

#endif
