/*
 * run.config_source and run.network (issue 24): where the configuration came
 * from, how the machine booted, its addresses (or their tokens: redaction
 * itself is checked by validate_redaction.c) and the upload's URL. Both are
 * absent from reports older than network boot.
 */
#include <string.h>

#include "reports/tool/validate/validate_sections.h"

static const char *const config_sources[] = { "none", "boot_volume", "tftp", "http", NULL };
static const char *const boot_kinds[] = { "disk", "pxe_tftp", "http", NULL };

void validate_network(struct vctx *c, const json_t *run)
{
    size_t mark;
    const json_t *net;
    const char *source = vc_word(c, run, "config_source", config_sources, VF_OPTIONAL) >= 0
                             ? json_string_value(json_object_get(run, "config_source"))
                             : NULL;
    const char *boot;
    if (!(net = vc_enter(c, run, "network", VF_OPTIONAL, &mark)))
        return;
    boot = vc_word(c, net, "boot", boot_kinds, 0) >= 0
               ? json_string_value(json_object_get(net, "boot"))
               : NULL;
    vc_string(c, net, "boot_url", VF_NULLABLE);
    vc_string(c, net, "mac", VF_NULLABLE);
    vc_string(c, net, "ip", VF_NULLABLE);
    vc_string(c, net, "upload_url", VF_NULLABLE);
    /* a configuration read over the network came from the server the machine booted from */
    if (source && boot && (!strcmp(source, "tftp") || !strcmp(source, "http")) &&
        strcmp(boot, strcmp(source, "tftp") ? "http" : "pxe_tftp") != 0)
        vc_error(c, "boot", "is \"%s\", but run.config_source is \"%s\": the configuration comes "
                            "from the boot server", boot, source);
    vc_leave(c, mark);
}
