/* Enumerates CPUs through EFI_MP_SERVICES_PROTOCOL and starts the tool's AP entry. */
#ifndef TLBSCOPE_EFI_MP_H
#define TLBSCOPE_EFI_MP_H

#include "core/run.h"

/*
 * Fills run->topo from MP services (BSP first). Without the protocol the
 * table holds the BSP alone and run->mp_note says why.
 */
void mp_enumerate(struct run *r);

#endif
