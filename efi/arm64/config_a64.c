/* The aarch64 app's configuration: see config_a64.h. */
#include "efi/arm64/config_a64.h"

#include "core/exp/arm64/a64_config.h"
#include "efi/config_file.h"

void a64_config_load(EFI_HANDLE image, struct volume *vol, struct netboot *nb, struct arm64_run *run)
{
    run->config_file = config_read_sources(image, vol, nb, &run->cfg, run->args, sizeof(run->args), &run->net,
                                           &run->errors, &run->warnings);
    a64_config_finish(run);
}
