#include "asm/power.h"
#include "asm/cpu.h"
#include "asm/probe.h"

#ifndef TLBSCOPE_HOST
uint32_t power_read_msr(uint32_t msr, uint64_t *value)
{
    *value = 0;
    return arch_probe_rdmsr(msr, value);
}

uint32_t power_write_msr(uint32_t msr, uint64_t value)
{
    return arch_probe_wrmsr(msr, value);
}

void power_monitor(const volatile void *addr)
{
    __asm__ volatile("monitor" ::"a"(addr), "c"(0u), "d"(0u) : "memory");
}

/* STI's one-instruction shadow covers MWAIT, as it covers HLT: no wake-up is lost in between. */
void power_mwait_until_irq(uint32_t hint)
{
    __asm__ volatile("sti; mwait" ::"a"(hint), "c"(0u) : "memory");
}

void power_io_cstate_enter(uint16_t port) { (void)inb(port); }
#endif
