/* Time conversions and the timer-overhead measurement recorded in the report. */
#ifndef TLBSCOPE_CORE_TIMING_H
#define TLBSCOPE_CORE_TIMING_H

#include <stdint.h>

/* TSC frequency used by deadline computations (set once, early). */
void timing_set_tsc_hz(uint64_t hz);
uint64_t timing_tsc_hz(void);
uint64_t ms_to_ticks(uint64_t ms);
uint64_t us_to_ticks(uint64_t us);
uint64_t ticks_to_ms(uint64_t ticks);
/* Median of back-to-back tsc_open(), tsc_close() pairs: what timing a window costs. */
uint64_t timing_measure_overhead(void);

#endif
