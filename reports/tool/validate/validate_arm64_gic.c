/*
 * An aarch64 rule of Version 3 (reports/SCHEMA.md): the GIC's security and the tool's SGI
 * numbers in `method` (the SGIs must be below 8: 8-15 are the secure firmware's on Arm
 * servers, and a non-secure write to them is ignored). Optional: reports before it have
 * neither.
 */
#include <stdlib.h>

#include "reports/tool/model/jget.h"
#include "reports/tool/validate/validate_sections.h"

#define SGI_FIRST_SECURE 8 /* arch/arm64/include/asm/gic.h: the host tool does not include it */

static const char *const security_sources[] = { "GICD_CTLR.DS", "GICD_TYPER.SecurityExtn", NULL };

static void validate_sgis(struct vctx *c, const json_t *m)
{
    static const char *const keys[] = { "cmd", "ping" };
    size_t mark, i;
    long long n[2] = { -1, -1 };
    const json_t *s = vc_enter(c, m, "sgis", VF_OPTIONAL, &mark);
    if (!s)
        return;
    for (i = 0; i < 2; i++)
        if (vc_int(c, s, keys[i], 0, 15, 0, &n[i]) && n[i] >= SGI_FIRST_SECURE)
            vc_error(c, keys[i], "SGI %lld: SGIs 8-15 are the secure firmware's on Arm servers (a "
                     "non-secure write to one is ignored)", n[i]);
    if (n[0] >= 0 && n[0] == n[1])
        vc_error(c, "ping", "%lld, the same SGI as cmd", n[1]);
    vc_leave(c, mark);
}

/* disabled is what the named register's bit says: GICv3 GICD_CTLR.DS [6] set, GICv2
 * GICD_TYPER.SecurityExtn [10] clear */
static void validate_security(struct vctx *c, const json_t *m, long long gic)
{
    size_t mark;
    bool disabled;
    const json_t *s = vc_enter(c, m, "gic_security", VF_OPTIONAL, &mark);
    int from;
    if (!s)
        return;
    from = vc_word(c, s, "from", security_sources, 0);
    if (vc_bool(c, s, "disabled", 0, &disabled) && from >= 0 && vc_hex(c, s, "register", 0)) {
        unsigned long long reg = strtoull(jget_string(s, "register"), NULL, 16);
        bool want = from == 0 ? (reg >> 6 & 1) != 0 : (reg >> 10 & 1) == 0;
        if (want != disabled)
            vc_error(c, "disabled", "%s, but %s in register %s says %s", disabled ? "true" : "false",
                     security_sources[from], jget_string(s, "register"), want ? "true" : "false");
    }
    if (from >= 0 && gic >= 2 && (from == 0) != (gic == 3))
        vc_error(c, "from", "\"%s\", but gic_version is %lld", security_sources[from], gic);
    vc_leave(c, mark);
}

void validate_arm64_gic(struct vctx *c, const json_t *method, long long gic)
{
    validate_sgis(c, method);
    validate_security(c, method, gic);
}
