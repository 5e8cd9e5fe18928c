#include "efi/args.h"

#include "efi/config_file.h"
#include "efi/console.h"

#include "core/lib/mem.h"
#include "core/lib/strbuf.h"

void args_load(struct run *r, EFI_HANDLE image, struct volume *v, struct netboot *nb)
{
    char *data = NULL;
    size_t len = 0;
    config_defaults(&r->cfg);
    r->net = nb->info;
    config_load_options(image, r->args_text, sizeof(r->args_text));
    if (!v->root && config_from_boot_server(nb, r->args_text, &r->cfg, &r->net, &r->errors,
                                            &r->warnings))
        r->cfg_file_found = true;
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
