/*
 * The tool's own AP bring-up (issue 25): INIT-SIPI-SIPI from the BSP to
 * every AP of the CPU table whose check-in is open, through a real-mode
 * trampoline below 1 MiB that switches to long mode on the tool's page
 * tables. The fallback when the firmware's MP services are absent, fail or
 * leave APs unaccounted for (mp=auto), or the only way (mp=own).
 */
#ifndef TLBSCOPE_EFI_AP_BOOT_H
#define TLBSCOPE_EFI_AP_BOOT_H

#include "core/run/run.h"
#include "core/machine/takeover.h"

/*
 * At firmware TPL, after the tool's page tables exist (`cr3`): reserves
 * the trampoline page at a fixed address below 1 MiB (AllocatePages with
 * AllocateAddress) and one stack per AP to start, and prepares the page.
 * False, with the reason in run->errors, when it cannot.
 */
bool ap_boot_prepare(struct run *r, struct takeover *t, uint64_t cr3);
/*
 * BSP, in the tool's state: INIT to every AP to start, 10 ms, STARTUP,
 * 200 us, STARTUP (SDM vol. 3A, 9.4.4.1), then waits until `deadline` for
 * their check-ins. APs that do not arrive are marked absent and named.
 * Returns how many APs are checked in, in all.
 */
uint32_t ap_boot_start(struct run *r, struct takeover *t, uint64_t window_ms);
/*
 * BSP, in the tool's state, after the release: INIT to every AP the tool
 * started, which leaves it waiting for a SIPI that never comes, executing
 * nothing of the image.
 */
void ap_boot_park(struct run *r, struct takeover *t);

#endif
