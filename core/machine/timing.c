#include "core/machine/timing.h"
#include "asm/cpu.h"
#include "core/lib/stats.h"

/* 1 GHz until calibrated: deadlines stay finite even if calibration fails. */
static uint64_t tsc_hz = 1000000000ull;

void timing_set_tsc_hz(uint64_t hz)
{
    if (hz)
        tsc_hz = hz;
}

uint64_t timing_tsc_hz(void) { return tsc_hz; }
uint64_t ms_to_ticks(uint64_t ms) { return ms * (tsc_hz / 1000); }
uint64_t us_to_ticks(uint64_t us) { return us * (tsc_hz / 1000000); }
uint64_t ticks_to_ms(uint64_t ticks) { return ticks / (tsc_hz / 1000); }

uint64_t timing_measure_overhead(void)
{
    uint64_t diffs[256];
    uint32_t i;
    for (i = 0; i < 256; i++) {
        uint64_t a = tsc_open();
        uint64_t b = tsc_close();
        diffs[i] = b - a;
    }
    sort_u64(diffs, 256);
    return percentile_sorted(diffs, 256, 500);
}
