/*
 * Two aarch64 rules of Version 3 (reports/SCHEMA.md): the GIC's security and the tool's SGI
 * numbers in `method` (the SGIs must be below 8: 8-15 are the secure firmware's on Arm
 * servers, and a non-secure write to them is ignored), and tlbi_broadcast_vs_ipi's
 * `lower_bound` on ipi_local points that interrupt fewer than every other CPU. Both optional:
 * reports before them have neither. And the GICR discovery ranges (`method.gicr_ranges`),
 * optional too.
 */
#include <stdlib.h>
#include <string.h>

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

static const char *const mapped_by[] = { "firmware", "tlbscope", "none", NULL };

/* Version 3 addition: each GICR range with the CPUs whose redistributor it holds, which
 * together are at most the report's CPUs */
static void validate_gicr_ranges(struct vctx *c, const json_t *m)
{
    const json_t *a = vc_member(c, m, "gicr_ranges", VT_ARRAY, VF_OPTIONAL);
    size_t i, mark;
    long long sum = 0, n;
    if (!a)
        return;
    mark = jpath_push_key(&c->path, "gicr_ranges");
    for (i = 0; i < json_array_size(a); i++) {
        const json_t *r = json_array_get(a, i);
        size_t m2 = jpath_push_index(&c->path, i);
        if (!json_is_object(r))
            vc_error(c, NULL, "a GICR range must be an object");
        else {
            vc_hex(c, r, "base", 0);
            vc_hex(c, r, "length", 0);
            vc_word(c, r, "mapped_by", mapped_by, 0);
            if (vc_int(c, r, "redistributors", 0, 1 << 20, 0, &n))
                sum += n;
        }
        jpath_pop(&c->path, m2);
    }
    if (c->cpu_count >= 0 && sum > c->cpu_count)
        vc_error(c, NULL, "%lld redistributors over the ranges, more than the %lld CPUs", sum, c->cpu_count);
    jpath_pop(&c->path, mark);
}

void validate_arm64_gic(struct vctx *c, const json_t *method, long long gic)
{
    validate_sgis(c, method);
    validate_security(c, method, gic);
    validate_gicr_ranges(c, method);
}

/* lower_bound (1) on every ipi_local point below the most targets measured, on no other */
void validate_arm64_lower_bound(struct vctx *c, const json_t *e)
{
    const json_t *results = json_object_get(e, "results");
    size_t m, j;
    double most = 0;
    bool any = false;
    for (j = 0; j < json_array_size(results); j++) {
        const json_t *r = json_array_get(results, j);
        const char *method = jget_string(jget_object(r, "params"), "method");
        if (method && strcmp(method, "ipi_local") == 0 && jget_number(jget_object(r, "params"), "targets", 0) > most)
            most = jget_number(jget_object(r, "params"), "targets", 0);
        any = any || json_object_get(jget_object(r, "values"), "lower_bound");
    }
    if (!any)
        return; /* a report before the label */
    m = jpath_push_key(&c->path, "results");
    for (j = 0; j < json_array_size(results); j++) {
        const json_t *r = json_array_get(results, j), *params = jget_object(r, "params");
        const char *method = jget_string(params, "method");
        bool below = method && strcmp(method, "ipi_local") == 0 && jget_number(params, "targets", 0) < most;
        const json_t *lb = json_object_get(jget_object(r, "values"), "lower_bound");
        size_t m2 = jpath_push_index(&c->path, j), m3 = jpath_push_key(&c->path, "values");
        if (lb && (!json_is_number(lb) || json_number_value(lb) != 1))
            vc_error(c, "lower_bound", "must be 1 where present");
        else if (below && !lb)
            vc_error(c, "lower_bound", "missing: ipi_local to %.0f of %.0f targets is a lower bound",
                     jget_number(params, "targets", 0), most);
        else if (!below && lb)
            vc_error(c, "lower_bound", "on a point that %s", method && strcmp(method, "ipi_local") == 0 ?
                     "interrupts every other CPU" : "is not ipi_local");
        jpath_pop(&c->path, m3);
        jpath_pop(&c->path, m2);
    }
    jpath_pop(&c->path, m);
}
