/*
 * A recoverable data abort, for stale_detector_control's reads (core/exp/arm64/stale_control.c).
 *
 * The control makes the test pages' descriptors invalid and issues no TLBI: a CPU that
 * still holds the old entry reads the old frame (a stale read), one that holds none walks
 * the invalid descriptor and takes a translation fault. Between abort_window_open() and
 * abort_window_close() on a CPU, a translation fault of a load from the test region
 * (ESR_ELx.EC 0x25, a data abort at the current EL; DFSC 0b0001xx) is counted on the CPU
 * and the handler steps over the load (ELR_ELx + 4), which then returns TEST_READ_FAULTED
 * (test_read loads into a register that holds the marker: asm/tlbi.h). Anything else, or a
 * fault outside the window or the region, still parks the CPU (arch/arm64/exception.c).
 * The BSP runs on the firmware's vectors: for the window it takes the secondaries' (VBAR_ELx)
 * with DAIF masked (no interrupt, SError or debug exception reaches our vectors meanwhile),
 * and gets the firmware's back on closing.
 * On the host model (sim/arm64/host_tlbi.c) the model's translation fault is delivered the
 * same way inside the window, and is a model error outside it.
 */
#ifndef TLBSCOPE_ARM64_ABORT_H
#define TLBSCOPE_ARM64_ABORT_H

#include <stdint.h>

/* what test_read returns for a load that faulted inside the window: no frame's tag */
#define TEST_READ_FAULTED 0xfa017fa017fa0170ull

void abort_window_open(void);
/* closes this CPU's window; returns the translation faults it took inside */
uint32_t abort_window_close(void);

#endif
