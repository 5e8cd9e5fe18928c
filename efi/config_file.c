#include "efi/config_file.h"

#include "core/lib/cmdline.h"

void config_load_options(EFI_HANDLE image, char *out, size_t cap)
{
    EFI_LOADED_IMAGE *loaded = NULL;
    out[0] = 0;
    if (EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, image, &LoadedImageProtocol,
                                    (void **)&loaded)) ||
        !loaded->LoadOptions || loaded->LoadOptionsSize < 2 || (loaded->LoadOptionsSize & 1))
        return;
    cmdline_from_ucs2(loaded->LoadOptions, loaded->LoadOptionsSize / 2, out, cap);
}

bool config_file_read(struct volume *v, char **data, size_t *len, struct msg_list *warnings)
{
    EFI_STATUS st;
    *data = NULL;
    *len = 0;
    if (!v->root)
        return false;
    st = volume_read(v, CONFIG_FILE, CONFIG_FILE_MAX, data, len);
    if (!EFI_ERROR(st))
        return true;
    *data = NULL;
    if (st == EFI_BAD_BUFFER_SIZE)
        msg_add(warnings, "tlbscope.cfg", "file larger than %u bytes; ignored", CONFIG_FILE_MAX);
    else if (st != EFI_NOT_FOUND)
        msg_add(warnings, "tlbscope.cfg", "cannot read: %s; defaults used", efi_status_name(st));
    return false;
}
