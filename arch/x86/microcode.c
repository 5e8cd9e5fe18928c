#include "asm/microcode.h"
#include "asm/cpu.h"
#include "asm/probe.h"

#ifndef TLBSCOPE_HOST
bool arch_read_microcode(const struct cpu_features *f, uint32_t *revision)
{
    uint64_t v = 0;
    uint32_t regs[4];
    if (f->vendor_id == VENDOR_INTEL && f->family >= 6) {
        wrmsr(MSR_IA32_BIOS_SIGN_ID, 0);
        cpuid_raw(1, 0, regs);
        if (arch_probe_rdmsr(MSR_IA32_BIOS_SIGN_ID, &v) != PROBE_OK)
            return false;
        *revision = (uint32_t)(v >> 32);
        return true;
    }
    if ((f->vendor_id == VENDOR_AMD || f->vendor_id == VENDOR_HYGON) && f->family >= 0x10) {
        if (arch_probe_rdmsr(MSR_IA32_BIOS_SIGN_ID, &v) != PROBE_OK)
            return false;
        *revision = (uint32_t)v;
        return true;
    }
    return false;
}
#endif
