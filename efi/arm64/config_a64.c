/* The aarch64 app's configuration: see config_a64.h. */
#include "efi/arm64/config_a64.h"

#include "core/exp/arm64/a64_config.h"
#include "core/lib/cmdline.h"
#include "core/lib/msglist.h"
#include "efi/arm64/volume.h"

#define CONFIG_PATH "\\tlbscope\\tlbscope.cfg"
#define CONFIG_MAX (64 * 1024)

static char file_buf[CONFIG_MAX];

/* 9.1 EFI_LOADED_IMAGE_PROTOCOL_GUID */
static const efi_guid loaded_image_guid = { 0x5b1b31a1, 0x9562, 0x11d2, { 0x8e, 0x3f, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b } };

/* the load options' key=value text (core/lib/cmdline.h), "" without */
static void load_options(efi_boot_services *bs, efi_handle image, char *out, size_t cap)
{
    efi_loaded_image *li = 0;
    out[0] = 0;
    if (EFI_ERROR(bs->handle_protocol(image, &loaded_image_guid, (void **)&li)) || !li || !li->load_options ||
        li->load_options_size < 2 || (li->load_options_size & 1))
        return;
    cmdline_from_ucs2(li->load_options, li->load_options_size / 2, out, cap);
}

void a64_config_load(efi_boot_services *bs, efi_handle image, struct arm64_run *run)
{
    size_t len = 0;
    if (vol_open(bs, image) && (len = vol_read(CONFIG_PATH, file_buf, sizeof(file_buf))) > 0) {
        run->config_file = true;
        if (len + 1 >= sizeof(file_buf))
            msg_add(&run->warnings, "tlbscope.cfg", "file of %u bytes or more: only its first %u read",
                    (unsigned)sizeof(file_buf) - 1, (unsigned)sizeof(file_buf) - 1);
    }
    load_options(bs, image, run->args, sizeof(run->args));
    a64_config_apply(run, run->config_file ? file_buf : 0, len);
}
