/* Enumerates CPUs through EFI_MP_SERVICES_PROTOCOL and starts the tool's AP entry. */
#ifndef TLBSCOPE_EFI_MP_H
#define TLBSCOPE_EFI_MP_H

#include "core/run/run.h"

/*
 * Fills run->topo from MP services (BSP first). Without the protocol the
 * table holds the BSP alone and run->mp_note says why.
 */
void mp_enumerate(struct run *r);

struct takeover;
/*
 * Starts takeover_ap_main() on every enabled AP, non-blocking (StartupAllAPs
 * with a wait event and no firmware timeout: the firmware would reset APs
 * that outlive it). Returns false, with run->mp_note set, when it could not.
 */
bool mp_start_aps(struct run *r, struct takeover *t);
/* Polls the wait event until every AP returned from the procedure or timeout_ms passed. */
bool mp_wait_aps_returned(uint64_t timeout_ms);

#endif
