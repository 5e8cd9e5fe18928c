#include "efi/args.h"

#include "efi/config_file.h"
#include "efi/console.h"

#include "core/lib/mem.h"
#include "core/lib/strbuf.h"

/* No file system to read: tlbscope.cfg next to the binary on the boot server. */
static void config_from_server(struct run *r, struct netboot *nb)
{
    static struct config pins;
    char *data = NULL, why[200];
    size_t len = 0;
    bool pinned;
    if (nb->info.boot == BOOT_DISK)
        return;
    pinned = config_pin_read(r->args_text, &pins);
    if (netboot_fetch_config(nb, CONFIG_FILE_MAX, &data, &len, why, sizeof(why))) {
        if (config_pin_accept(&pins, data, len, r->net.config_sha256, &r->errors)) {
            r->cfg_file_found = true;
            r->net.config_source = nb->info.boot == BOOT_HTTP ? CFG_SRC_HTTP : CFG_SRC_TFTP;
            con_printf("Config: tlbscope.cfg from the boot server (%s), %s\n",
                       config_source_name(r->net.config_source),
                       pinned ? "its SHA-256 as config_sha256= pins it"
                              : "unauthenticated (config_sha256= pins it)");
            config_parse(&r->cfg, data, len, CONFIG_SOURCE_BOOT_SERVER, &r->warnings);
        }
        mem_free(data);
    } else if (why[0]) {
        msg_add(pinned ? &r->errors : &r->warnings, "tlbscope.cfg", "not read from the boot "
                "server: %s; defaults and load options used", why);
    } else if (pinned) {
        msg_add(&r->errors, "tlbscope.cfg", "config_sha256= pins the boot server's file, but "
                "the server has none; defaults and load options used");
    } else {
        con_printf("Config: no tlbscope.cfg on the boot server; defaults and load options\n");
    }
}

void args_load(struct run *r, EFI_HANDLE image, struct volume *v, struct netboot *nb)
{
    char *data = NULL;
    size_t len = 0;
    config_defaults(&r->cfg);
    r->net = nb->info;
    config_load_options(image, r->args_text, sizeof(r->args_text));
    if (!v->root)
        config_from_server(r, nb);
    if (config_file_read(v, &data, &len, &r->warnings)) {
        r->cfg_file_found = true;
        r->net.config_source = CFG_SRC_VOLUME;
        config_parse(&r->cfg, data, len, CONFIG_SOURCE_STICK, &r->warnings);
        mem_free(data);
    }
    if (r->args_text[0])
        config_parse(&r->cfg, r->args_text, str_len(r->args_text), CONFIG_SOURCE_LOAD_OPTIONS,
                     &r->warnings);
    config_finalize(&r->cfg);
    config_take_errors(&r->cfg, &r->errors); /* a refused redact_key */
    /* the pin is for the boot server's file: in that file, or on a stick boot, it checks nothing */
    if (config_key_origin(&r->cfg, "config_sha256") != CFG_ORIGIN_NONE &&
        (v->root || config_key_origin(&r->cfg, "config_sha256") == CFG_ORIGIN_BOOT_SERVER))
        msg_add(&r->warnings, "config_sha256", "pins only the boot server's tlbscope.cfg, from "
                "the load options of a network boot: here it checks nothing");
}
