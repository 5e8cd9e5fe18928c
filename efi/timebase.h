/* TSC frequency: from CPUID 0x15 when it is exact, else calibrated. */
#ifndef TLBSCOPE_EFI_TIMEBASE_H
#define TLBSCOPE_EFI_TIMEBASE_H

#include "core/run/run.h"

void timebase_init(struct run *r);

#endif
