/* Locates SMBIOS and ACPI through the UEFI configuration table and decodes them
 * with the parsers in core/ (which host tests run on recorded server tables). */
#ifndef TLBSCOPE_EFI_FWTABLES_H
#define TLBSCOPE_EFI_FWTABLES_H

#include "core/firmware/firmware_info.h"
#include "core/lib/msglist.h"

/* Fills fw->smbios, fw->acpi and fw->numa (allocated; NULL without a SRAT). */
void fwtables_collect(struct firmware_info *fw, struct msg_list *warnings);
/* Frees fw->numa (optional: the pool goes away with the application anyway). */
void fwtables_release(struct firmware_info *fw);

#endif
