#include "efi/args.h"

#include "efi/config_file.h"

void args_load(struct run *r, EFI_HANDLE image, struct volume *v, struct netboot *nb)
{
    r->cfg_file_found = config_read_sources(image, v, nb, &r->cfg, r->args_text,
                                            sizeof(r->args_text), &r->net, &r->errors,
                                            &r->warnings);
    config_finalize(&r->cfg);
    config_take_errors(&r->cfg, &r->errors); /* a refused redact_key */
}
