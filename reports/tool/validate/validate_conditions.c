/*
 * experiments[].conditions (core/run/conditions.h, reports/SCHEMA.md): the
 * conditions each measurement was taken under. Reports written before they
 * existed have no key at all (accepted); a present key must be an object
 * wherever the experiment measured, and every absent counter must carry its
 * evidence instead of a number.
 */
#include <limits.h>
#include <string.h>

#include "reports/tool/model/jget.h"
#include "reports/tool/validate/validate_sections.h"
#include "reports/tool/model/vocab.h"

static const char *const smi_sources[] = { "msr_0x34", "pmc_ls_smi_rx", "hiccup_detector", "none",
                                           NULL };
static const char *const smi_methods[] = { "msr_0x34", "pmc_ls_smi_rx", NULL };
static const char *const boost_words[] = { "enabled", "disabled", "unknown", NULL };
static const char *const smt_words[] = { "active", "off", NULL };
static const char *const wait_words[] = { "spin", "hlt", NULL };

/* per_cpu (a count or null per CPU index) sums to `count` over `cpus` CPUs. */
static void validate_smi_per_cpu(struct vctx *c, const json_t *smi, long long count)
{
    const json_t *arr = vc_member(c, smi, "per_cpu", VT_ARRAY, VF_NULLABLE), *v;
    long long sum = 0, counted = 0, cpus = -1;
    size_t i;
    if (!arr)
        return;
    json_array_foreach(arr, i, v) {
        if (json_is_null(v))
            continue;
        if (!json_is_integer(v) || json_integer_value(v) < 0) {
            vc_error(c, "per_cpu", "[%zu] is not a count", i);
            return;
        }
        sum += json_integer_value(v);
        counted++;
    }
    if (c->cpu_count >= 0 && (long long)json_array_size(arr) > c->cpu_count)
        vc_error(c, "per_cpu", "has %zu entries for %lld CPUs", json_array_size(arr),
                 c->cpu_count);
    if (sum != count)
        vc_error(c, "count", "%lld is not the sum of per_cpu (%lld)", count, sum);
    if (vc_int(c, smi, "cpus", 1, LLONG_MAX, 0, &cpus) && cpus != counted)
        vc_error(c, "cpus", "%lld, but per_cpu counts %lld CPUs", cpus, counted);
}

/* A counted source: the per-CPU counts (this version), or BSP before/after (older reports). */
static void validate_smi_count(struct vctx *c, const json_t *smi, long long count)
{
    long long before = 0, after = 0;
    if (json_object_get(smi, "per_cpu")) {
        if (json_is_null(json_object_get(smi, "per_cpu")))
            vc_error(c, "per_cpu", "is null, but the SMIs were counted");
        validate_smi_per_cpu(c, smi, count);
    } else if (vc_int(c, smi, "before", 0, LLONG_MAX, 0, &before) &&
               vc_int(c, smi, "after", 0, LLONG_MAX, 0, &after) && after - before != count) {
        vc_error(c, "count", "%lld is not after - before (%lld)", count, after - before);
    }
}

static void validate_smi(struct vctx *c, const json_t *cond)
{
    size_t mark, m2;
    const json_t *smi = vc_enter(c, cond, "smi", 0, &mark), *h, *pmc;
    long long count = 0;
    int src, method;
    if (!smi)
        return;
    src = vc_word(c, smi, "source", smi_sources, 0);
    method = vc_word(c, smi, "method", smi_methods, VF_NULLABLE | VF_OPTIONAL);
    vc_int(c, smi, "count", 0, LLONG_MAX, VF_NULLABLE, &count);
    vc_string(c, smi, "absent_reason", VF_NULLABLE);
    vc_int(c, smi, "probe_exception", 0, 31, VF_NULLABLE, NULL);
    if (src == 0 || src == 1) {
        if (json_object_get(smi, "method") && method != src)
            vc_error(c, "method", "is not the source that counted (%s)", smi_sources[src]);
        validate_smi_count(c, smi, count);
    } else {
        if (!json_is_null(json_object_get(smi, "count")))
            vc_error(c, "count", "is a number, but source is not an SMI counter: a count "
                                 "nobody read");
        if (!jget_string(smi, "absent_reason"))
            vc_error(c, "absent_reason", "is missing: an absent SMI counter needs its evidence");
    }
    if ((pmc = vc_member(c, smi, "pmc", VT_OBJECT, VF_NULLABLE | VF_OPTIONAL)) &&
        vc_enter(c, smi, "pmc", 0, &m2)) {
        vc_hex(c, pmc, "select_msr", 0);
        vc_hex(c, pmc, "counter_msr", 0);
        vc_hex(c, pmc, "event", 0);
        vc_leave(c, m2);
    }
    if ((h = vc_member(c, smi, "hiccup", VT_OBJECT, VF_NULLABLE)) &&
        vc_enter(c, smi, "hiccup", 0, &m2)) {
        vc_int(c, h, "cpu", 0, LLONG_MAX, 0, NULL);
        vc_int(c, h, "window_us", 1, LLONG_MAX, 0, NULL);
        vc_int(c, h, "threshold_ns", 1, LLONG_MAX, 0, NULL);
        vc_int(c, h, "gaps", 0, LLONG_MAX, 0, NULL);
        vc_int(c, h, "max_gap_ns", 0, LLONG_MAX, 0, NULL);
        vc_leave(c, m2);
    }
    if (src == 2 && !h)
        vc_error(c, "hiccup", "is null, but source says the hiccup detector ran");
    vc_leave(c, mark);
}

/* One role's summed deltas: effective_mhz null exactly when nothing was awake. */
static void validate_role(struct vctx *c, const json_t *roles, const char *name)
{
    size_t mark;
    const json_t *r = vc_enter(c, roles, name, 0, &mark);
    long long mperf = 0;
    if (!r)
        return;
    vc_int(c, r, "cpus", 0, LLONG_MAX, 0, NULL);
    vc_int(c, r, "aperf_delta", 0, LLONG_MAX, 0, NULL);
    vc_int(c, r, "mperf_delta", 0, LLONG_MAX, 0, &mperf);
    vc_int(c, r, "effective_mhz", 0, LLONG_MAX, VF_NULLABLE, NULL);
    if (mperf > 0 && json_is_null(json_object_get(r, "effective_mhz")))
        vc_error(c, "effective_mhz", "is null, but mperf_delta is %lld", mperf);
    vc_leave(c, mark);
}

/* {min, weighted, max} (this version) or {min, mean, max} (older reports): min <= x <= max. */
static void validate_permille(struct vctx *c, const json_t *clk)
{
    size_t mark;
    const json_t *eff = vc_enter(c, clk, "effective_over_tsc_permille", 0, &mark);
    static const char *const middles[] = { "weighted", "mean" };
    long long lo = 0, hi = 0, mid = 0;
    size_t i, found = 0;
    if (!eff)
        return;
    if (vc_int(c, eff, "min", 0, LLONG_MAX, 0, &lo) && vc_int(c, eff, "max", 0, LLONG_MAX, 0, &hi)) {
        for (i = 0; i < 2; i++) {
            if (!json_object_get(eff, middles[i]))
                continue;
            found++;
            if (vc_int(c, eff, middles[i], 0, LLONG_MAX, 0, &mid) && (lo > mid || mid > hi))
                vc_error(c, middles[i], "%lld is not between min %lld and max %lld", mid, lo,
                         hi);
        }
        if (!found)
            vc_error(c, "weighted", "is missing (and no older mean either)");
    }
    vc_leave(c, mark);
}

static void validate_clock(struct vctx *c, const json_t *cond)
{
    size_t mark, m2;
    const json_t *clk = vc_enter(c, cond, "clock", 0, &mark), *eff, *roles;
    bool have = false;
    if (!clk)
        return;
    vc_bool(c, clk, "aperf_mperf", 0, &have);
    vc_hex(c, clk, "cpuid6_eax", 0);
    vc_hex(c, clk, "cpuid6_ecx", 0);
    vc_int(c, clk, "probe_exception", 0, 31, VF_NULLABLE, NULL);
    vc_int(c, clk, "cpus", 0, LLONG_MAX, 0, NULL);
    vc_int(c, clk, "tsc_mhz", 0, LLONG_MAX, 0, NULL);
    vc_int(c, clk, "effective_mhz", 0, LLONG_MAX, VF_NULLABLE, NULL);
    vc_word(c, clk, "boost", boost_words, 0);
    vc_string(c, clk, "boost_evidence", 0);
    eff = vc_member(c, clk, "effective_over_tsc_permille", VT_OBJECT, VF_NULLABLE);
    if (have != (eff != NULL))
        vc_error(c, "effective_over_tsc_permille", "is %s, but aperf_mperf is %s",
                 eff ? "present" : "null", have ? "true" : "false");
    if (eff)
        validate_permille(c, clk);
    /* roles: absent in older reports; null exactly without APERF/MPERF */
    if (json_object_get(clk, "roles")) {
        roles = vc_member(c, clk, "roles", VT_OBJECT, VF_NULLABLE);
        if (have != (roles != NULL))
            vc_error(c, "roles", "is %s, but aperf_mperf is %s", roles ? "present" : "null",
                     have ? "true" : "false");
        if (roles && vc_enter(c, clk, "roles", 0, &m2)) {
            validate_role(c, roles, "initiator");
            validate_role(c, roles, "targets");
            vc_leave(c, m2);
        }
    }
    vc_leave(c, mark);
}

void validate_conditions(struct vctx *c, const json_t *e, int status)
{
    const json_t *cond = json_object_get(e, "conditions");
    size_t mark;
    if (!cond)
        return; /* a report from before conditions were recorded */
    if (json_is_null(cond)) {
        if (status >= 0 && strcmp(vocab_results[status], "SKIP") != 0)
            vc_error(c, "conditions", "is null, but the experiment measured (%s): every "
                                      "measurement records its conditions",
                     jget_string(e, "status") ? jget_string(e, "status") : "?");
        return;
    }
    if (!vc_enter(c, e, "conditions", 0, &mark))
        return;
    validate_smi(c, cond);
    validate_clock(c, cond);
    vc_word(c, cond, "smt", smt_words, 0);
    vc_int(c, cond, "smt_cores", 0, LLONG_MAX, 0, NULL);
    vc_word(c, cond, "target_wait", wait_words, VF_NULLABLE);
    vc_leave(c, mark);
}
