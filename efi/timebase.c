#include "efi/timebase.h"
#include "efi/clock.h"
#include "efi/efi_util.h"

#include "asm/cpu.h"
#include "core/lib/stats.h"
#include "core/machine/timing.h"

#define PM_TIMER_HZ 3579545ull /* ACPI 6.5, 4.8.3.3: the PM timer runs at 3.579545 MHz */

/*
 * Counts TSC ticks across about 20 ms of the ACPI PM timer. The timer is 24
 * or 32 bits wide; 20 ms is 71590 timer ticks, far from either wrap.
 */
static uint64_t calibrate_pm_timer(uint16_t port, bool wide)
{
    uint32_t mask = wide ? 0xffffffffu : 0xffffffu;
    uint32_t target = (uint32_t)(PM_TIMER_HZ / 50);
    uint32_t start = inl(port) & mask, now;
    uint64_t t0 = rdtsc_raw(), t1;
    uint32_t spins = 0;
    do {
        now = inl(port) & mask;
        /* 200M reads take seconds; a dead timer must not hang calibration */
        if (++spins > 200000000u)
            return 0;
    } while (((now - start) & mask) < target);
    t1 = rdtsc_raw();
    return (t1 - t0) * PM_TIMER_HZ / ((now - start) & mask);
}

static uint64_t calibrate_stall(void)
{
    uint64_t t0 = rdtsc_raw();
    uefi_call_wrapper(BS->Stall, 1, 20000);
    return (rdtsc_raw() - t0) * 50;
}

static uint64_t median3(uint64_t (*fn)(uint16_t, bool), uint16_t port, bool wide)
{
    uint64_t v[3];
    int i;
    for (i = 0; i < 3; i++)
        v[i] = fn(port, wide);
    sort_u64(v, 3);
    return v[1];
}

static uint64_t stall_adapter(uint16_t port, bool wide)
{
    (void)port;
    (void)wide;
    return calibrate_stall();
}

void timebase_init(struct run *r)
{
    const struct cpuid_evidence *ev = &r->cpu.evidence;
    uint64_t hz = 0;
    /* CPUID 15h: TSC = crystal (ECX) * EBX / EAX; exact only when all three are given. */
    if (ev->leaf15_eax && ev->leaf15_ebx && ev->leaf15_ecx && !r->cpu.hypervisor) {
        hz = (uint64_t)ev->leaf15_ecx * ev->leaf15_ebx / ev->leaf15_eax;
        r->tsc_source = TSC_SRC_CPUID_15H;
    }
    if (!hz && r->fw.acpi.pm_timer_port) {
        hz = median3(calibrate_pm_timer, (uint16_t)r->fw.acpi.pm_timer_port,
                     r->fw.acpi.pm_timer_32bit);
        if (hz)
            r->tsc_source = TSC_SRC_PM_TIMER;
    }
    if (!hz) {
        hz = median3(stall_adapter, 0, false);
        r->tsc_source = TSC_SRC_FIRMWARE_STALL;
    }
    r->tsc_hz = hz;
    timing_set_tsc_hz(hz);
    r->method.timer_overhead_ticks = timing_measure_overhead();
}

/* efi/clock.h for x86: the TSC, calibrated by timebase_init() before anything waits on it */
uint64_t clock_ms(void)
{
    return ticks_to_ms(tsc_now());
}
