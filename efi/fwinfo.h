/* Firmware facts: vendor, revisions, Secure Boot, the clock, SMBIOS and ACPI. */
#ifndef TLBSCOPE_EFI_FWINFO_H
#define TLBSCOPE_EFI_FWINFO_H

#include "core/firmware/firmware_info.h"
#include "core/lib/msglist.h"

void fwinfo_collect(struct firmware_info *fw, struct msg_list *warnings);
/* Wall-clock time now, from the RTC (false when GetTime fails). */
bool fwinfo_time(struct rtc_time *t);

#endif
