#include "efi/config_file.h"

#include "efi/console.h"

#include "core/lib/cmdline.h"
#include "core/lib/mem.h"
#include "core/lib/strbuf.h"

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

bool config_from_boot_server(struct netboot *nb, const char *args_text, struct config *cfg,
                             struct net_info *net, struct msg_list *errors,
                             struct msg_list *warnings)
{
    static struct config pins;
    char *data = NULL, why[200];
    size_t len = 0;
    bool pinned;
    bool found = false;
    if (nb->info.boot == BOOT_DISK)
        return false;
    pinned = config_pin_read(args_text, &pins);
    if (netboot_fetch_config(nb, CONFIG_FILE_MAX, &data, &len, why, sizeof(why))) {
        if (config_pin_accept(&pins, data, len, net->config_sha256, errors)) {
            found = true;
            net->config_source = nb->info.boot == BOOT_HTTP ? CFG_SRC_HTTP : CFG_SRC_TFTP;
            con_printf("Config: tlbscope.cfg from the boot server (%s), %s\n",
                       config_source_name(net->config_source),
                       pinned ? "its SHA-256 as config_sha256= pins it"
                              : "unauthenticated (config_sha256= pins it)");
            config_parse(cfg, data, len, CONFIG_SOURCE_BOOT_SERVER, warnings);
        }
        mem_free(data);
    } else if (why[0]) {
        msg_add(pinned ? errors : warnings, "tlbscope.cfg", "not read from the boot "
                "server: %s; defaults and load options used", why);
    } else if (pinned) {
        msg_add(errors, "tlbscope.cfg", "config_sha256= pins the boot server's file, but "
                "the server has none; defaults and load options used");
    } else {
        con_printf("Config: no tlbscope.cfg on the boot server; defaults and load options\n");
    }
    return found;
}

bool config_read_sources(EFI_HANDLE image, struct volume *v, struct netboot *nb, struct config *cfg,
                         char *args, size_t args_cap, struct net_info *net,
                         struct msg_list *errors, struct msg_list *warnings)
{
    char *data = NULL;
    size_t len = 0;
    bool found = false;
    config_defaults(cfg);
    *net = nb->info;
    config_load_options(image, args, args_cap);
    if (!v->root && config_from_boot_server(nb, args, cfg, net, errors, warnings))
        found = true;
    if (config_file_read(v, &data, &len, warnings)) {
        found = true;
        net->config_source = CFG_SRC_VOLUME;
        config_parse(cfg, data, len, CONFIG_SOURCE_STICK, warnings);
        mem_free(data);
    }
    if (args[0])
        config_parse(cfg, args, str_len(args), CONFIG_SOURCE_LOAD_OPTIONS, warnings);
    /* the pin is for the boot server's file: in that file, or on a stick boot, it checks nothing */
    if (config_key_origin(cfg, "config_sha256") != CFG_ORIGIN_NONE &&
        (v->root || config_key_origin(cfg, "config_sha256") == CFG_ORIGIN_BOOT_SERVER))
        msg_add(warnings, "config_sha256", "pins only the boot server's tlbscope.cfg, from "
                "the load options of a network boot: here it checks nothing");
    return found;
}
