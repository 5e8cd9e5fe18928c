/*
 * The modelled machine's APs running the tool's own AP protocol: each thread
 * enters the tool's paging state (as core/takeover.c does on the machine),
 * checks in, serves its mailbox (smp_ap_loop) and leaves when released.
 */
#ifndef TLBSCOPE_SIM_APS_H
#define TLBSCOPE_SIM_APS_H

#include "core/smp.h"
#include "sim/machine.h"

/* Starts CPU i's thread; it checks in by itself (false when no thread could be made). */
bool sim_start_ap(struct sim_machine *m, struct smp *s, uint32_t i);
/* Host TSC ticks per second, measured against CLOCK_MONOTONIC over ~20 ms. */
uint64_t sim_calibrate_tsc(void);

#endif
