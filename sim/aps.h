/*
 * The modelled machine's APs running the tool's own AP entry: each thread
 * is a CPU in the firmware's state that runs core/machine/takeover.c
 * takeover_ap_main() (what MP services starts on the machine): it finds its
 * block by its APIC ID, takes the CPU over, checks in, serves its mailbox
 * (smp_ap_loop) and gives the CPU back when released.
 */
#ifndef TLBSCOPE_SIM_APS_H
#define TLBSCOPE_SIM_APS_H

#include "core/machine/takeover.h"
#include "sim/machine.h"

/* Starts CPU i's thread; it checks in by itself (false when no thread could be made). */
bool sim_start_ap(struct sim_machine *m, struct takeover *t, uint32_t i);
/* Host TSC ticks per second, measured against CLOCK_MONOTONIC over ~20 ms. */
uint64_t sim_calibrate_tsc(void);

#endif
