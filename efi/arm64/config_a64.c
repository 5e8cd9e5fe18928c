/* The aarch64 app's configuration: see config_a64.h. */
#include "efi/arm64/config_a64.h"

#include "core/exp/arm64/a64_config.h"
#include "core/lib/mem.h"
#include "core/lib/strbuf.h"
#include "efi/config_file.h"

void a64_config_load(EFI_HANDLE image, struct volume *vol, struct netboot *nb, struct arm64_run *run)
{
    char *file = 0;
    size_t len = 0;
    config_defaults(&run->cfg);
    run->net = nb->info;
    config_load_options(image, run->args, sizeof(run->args));
    /* x86's order (efi/args.c): the boot server's file on a network boot, else the stick's */
    if (!vol->root && config_from_boot_server(nb, run->args, &run->cfg, &run->net, &run->errors, &run->warnings))
        run->config_file = true;
    if (config_file_read(vol, &file, &len, &run->warnings)) {
        run->config_file = true;
        run->net.config_source = CFG_SRC_VOLUME;
        config_parse(&run->cfg, file, len, CONFIG_SOURCE_STICK, &run->warnings);
        mem_free(file);
    }
    if (run->args[0])
        config_parse(&run->cfg, run->args, str_len(run->args), CONFIG_SOURCE_LOAD_OPTIONS, &run->warnings);
    a64_config_finish(run);
    if (config_key_origin(&run->cfg, "config_sha256") != CFG_ORIGIN_NONE &&
        (vol->root || config_key_origin(&run->cfg, "config_sha256") == CFG_ORIGIN_BOOT_SERVER))
        msg_add(&run->warnings, "config_sha256", "pins only the boot server's tlbscope.cfg, from the load "
                "options of a network boot: here it checks nothing");
}
