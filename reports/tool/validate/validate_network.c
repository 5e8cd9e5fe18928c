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
static const char *const config_origins[] = { "stick", "boot_server", "load_options", "other",
                                              NULL };

/* A SHA-256 as the app writes it: 64 lower-case hex digits, or null. */
static void sha256_hex(struct vctx *c, const json_t *obj, const char *key)
{
    const char *s = vc_string(c, obj, key, VF_OPTIONAL | VF_NULLABLE);
    if (s && (strlen(s) != 64 || strspn(s, "0123456789abcdef") != 64))
        vc_error(c, key, "\"%.70s\" is not a SHA-256 (64 lower-case hex digits)", s);
}

/*
 * run.config_origins (issue 35): which source set each key given explicitly; every
 * key it names is one run.config has. Absent from earlier reports.
 */
static void validate_origins(struct vctx *c, const json_t *run)
{
    const json_t *o = vc_member(c, run, "config_origins", VT_OBJECT, VF_OPTIONAL);
    const json_t *cfg = json_object_get(run, "config");
    const char *key;
    json_t *v;
    size_t mark;
    if (!o)
        return;
    mark = jpath_push_key(&c->path, "config_origins");
    json_object_foreach((json_t *)o, key, v) {
        vc_word(c, o, key, config_origins, 0);
        if (json_is_object(cfg) && !json_object_get(cfg, key))
            vc_error(c, key, "names no key of run.config");
    }
    jpath_pop(&c->path, mark);
}

/* run.config.config_sha256, the pin (issue 35): checked here, beside what it pins. */
static void validate_pin(struct vctx *c, const json_t *run)
{
    size_t mark;
    const json_t *cfg = json_is_object(json_object_get(run, "config"))
                            ? vc_enter(c, run, "config", 0, &mark)
                            : NULL;
    if (!cfg)
        return;
    sha256_hex(c, cfg, "config_sha256");
    vc_leave(c, mark);
}

void validate_network(struct vctx *c, const json_t *run)
{
    size_t mark;
    const json_t *net;
    const char *source = vc_word(c, run, "config_source", config_sources, VF_OPTIONAL) >= 0
                             ? json_string_value(json_object_get(run, "config_source"))
                             : NULL;
    const char *boot;
    validate_origins(c, run);
    validate_pin(c, run);
    if (!(net = vc_enter(c, run, "network", VF_OPTIONAL, &mark)))
        return;
    boot = vc_word(c, net, "boot", boot_kinds, 0) >= 0
               ? json_string_value(json_object_get(net, "boot"))
               : NULL;
    vc_string(c, net, "boot_url", VF_NULLABLE);
    vc_string(c, net, "mac", VF_NULLABLE);
    vc_string(c, net, "ip", VF_NULLABLE);
    vc_string(c, net, "upload_url", VF_NULLABLE);
    sha256_hex(c, net, "config_sha256");
    /* a configuration read over the network came from the server the machine booted from */
    if (source && boot && (!strcmp(source, "tftp") || !strcmp(source, "http")) &&
        strcmp(boot, strcmp(source, "tftp") ? "http" : "pxe_tftp") != 0)
        vc_error(c, "boot", "is \"%s\", but run.config_source is \"%s\": the configuration comes "
                            "from the boot server", boot, source);
    vc_leave(c, mark);
}
