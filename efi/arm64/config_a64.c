/* The aarch64 app's configuration: see config_a64.h. */
#include "efi/arm64/config_a64.h"

#include "core/exp/arm64/a64_config.h"
#include "core/lib/mem.h"
#include "efi/config_file.h"

void a64_config_load(EFI_HANDLE image, struct volume *vol, struct arm64_run *run)
{
    char *file = 0;
    size_t len = 0;
    run->config_file = config_file_read(vol, &file, &len, &run->warnings);
    config_load_options(image, run->args, sizeof(run->args));
    a64_config_apply(run, file, len);
    mem_free(file);
}
