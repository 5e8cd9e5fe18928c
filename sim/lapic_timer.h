/* The modelled local APIC's timer (sim/lapic_timer.c), for sim/lapic.c. */
#ifndef TLBSCOPE_SIM_LAPIC_TIMER_H
#define TLBSCOPE_SIM_LAPIC_TIMER_H

#include <stdint.h>

#include "sim/lapic.h"

/* A write of the initial count: `count` ticks of the divided clock from now (0: stopped). */
void lapic_timer_start(struct sim_lapic *l, uint32_t count);
/* The current count register: what is left, in ticks of the divided clock. */
uint32_t lapic_timer_current(const struct sim_lapic *l);
/* Ran out: its vector to the IRR (unless masked), rearmed when periodic. */
void lapic_timer_tick(struct sim_lapic *l);

#endif
