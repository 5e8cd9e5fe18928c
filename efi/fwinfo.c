#include "efi/fwinfo.h"
#include "efi/efi_util.h"
#include "efi/fwtables.h"
#include "efi/secure_boot.h"

#include "core/lib/mem.h"

bool fwinfo_time(struct rtc_time *t)
{
    EFI_TIME now;
    mem_zero(t, sizeof(*t));
    if (EFI_ERROR(uefi_call_wrapper(RT->GetTime, 2, &now, NULL)))
        return false;
    t->year = now.Year;
    t->month = now.Month;
    t->day = now.Day;
    t->hour = now.Hour;
    t->minute = now.Minute;
    t->second = now.Second;
    t->valid = true;
    return true;
}

void fwinfo_collect(struct firmware_info *fw, struct msg_list *warnings)
{
    mem_zero(fw, sizeof(*fw));
    if (ST->FirmwareVendor)
        ucs2_to_ascii(fw->vendor, sizeof(fw->vendor), ST->FirmwareVendor, FW_STR);
    fw->revision = ST->FirmwareRevision;
    fw->uefi_revision = ST->Hdr.Revision;
    fw->secure_boot = efi_secure_boot_state();
    if (!fwinfo_time(&fw->start_time))
        msg_add(warnings, "firmware", "GetTime failed: the report has no start time");
    fw->rtc_plausible = rtc_looks_plausible(&fw->start_time);
    fwtables_collect(fw, warnings);
}
