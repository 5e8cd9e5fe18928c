/*
 * experiments[].conditions (core/conditions.h, reports/SCHEMA.md): the
 * conditions each measurement was taken under. Reports written before they
 * existed have no key at all (accepted); a present key must be an object
 * wherever the experiment measured, and every absent counter must carry its
 * evidence instead of a number.
 */
#include <limits.h>
#include <string.h>

#include "reports/tool/jget.h"
#include "reports/tool/validate_sections.h"
#include "reports/tool/vocab.h"

static const char *const smi_sources[] = { "msr_0x34", "hiccup_detector", "none", NULL };
static const char *const boost_words[] = { "enabled", "disabled", "unknown", NULL };
static const char *const smt_words[] = { "active", "off", NULL };
static const char *const wait_words[] = { "spin", "hlt", NULL };

static void validate_smi(struct vctx *c, const json_t *cond)
{
    size_t mark, m2;
    const json_t *smi = vc_enter(c, cond, "smi", 0, &mark), *h;
    long long before = 0, after = 0, count = 0;
    int src;
    if (!smi)
        return;
    src = vc_word(c, smi, "source", smi_sources, 0);
    vc_int(c, smi, "count", 0, LLONG_MAX, VF_NULLABLE, &count);
    vc_string(c, smi, "absent_reason", VF_NULLABLE);
    vc_int(c, smi, "probe_exception", 0, 31, VF_NULLABLE, NULL);
    if (src == 0) {
        if (vc_int(c, smi, "before", 0, LLONG_MAX, 0, &before) &&
            vc_int(c, smi, "after", 0, LLONG_MAX, 0, &after) && after - before != count)
            vc_error(c, "count", "%lld is not after - before (%lld)", count, after - before);
    } else {
        if (!json_is_null(json_object_get(smi, "count")))
            vc_error(c, "count", "is a number, but source is not the SMI counter: a count "
                                 "nobody read");
        if (!jget_string(smi, "absent_reason"))
            vc_error(c, "absent_reason", "is missing: an absent SMI counter needs its evidence");
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
    if (src == 1 && !h)
        vc_error(c, "hiccup", "is null, but source says the hiccup detector ran");
    vc_leave(c, mark);
}

static void validate_clock(struct vctx *c, const json_t *cond)
{
    size_t mark, m2;
    const json_t *clk = vc_enter(c, cond, "clock", 0, &mark), *eff;
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
    if (eff && vc_enter(c, clk, "effective_over_tsc_permille", 0, &m2)) {
        long long lo = 0, mid = 0, hi = 0;
        if (vc_int(c, eff, "min", 0, LLONG_MAX, 0, &lo) &&
            vc_int(c, eff, "mean", 0, LLONG_MAX, 0, &mid) &&
            vc_int(c, eff, "max", 0, LLONG_MAX, 0, &hi) && (lo > mid || mid > hi))
            vc_error(c, "mean", "%lld is not between min %lld and max %lld", mid, lo, hi);
        vc_leave(c, m2);
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
