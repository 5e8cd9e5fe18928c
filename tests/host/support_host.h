/*
 * Host test support: the allocator, and the modelled CPUs of sim/ that stand
 * in for the privileged instructions (sim/hostcpu.c, sim/tlb_model.h).
 */
#ifndef TLBSCOPE_TESTS_SUPPORT_HOST_H
#define TLBSCOPE_TESTS_SUPPORT_HOST_H

#include "sim/hostmem.h"
#include "sim/machine.h"

#endif
