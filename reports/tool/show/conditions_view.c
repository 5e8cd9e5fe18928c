#include "reports/tool/show/conditions_view.h"

#include <math.h>
#include <string.h>

#include "reports/tool/model/jget.h"
#include "reports/tool/show/show.h"
#include "reports/tool/model/units.h"

#define S(x) ((x) ? (x) : "?")

const json_t *conditions_experiment(const struct m_report *r, const char *id)
{
    const struct m_experiment *e = model_experiment(r, id);
    return e ? e->json : NULL;
}

/* The SMI part: what counted them, on how many CPUs, or why nothing did. */
static void smi_text(const json_t *smi, char *buf, size_t cap)
{
    const json_t *hic = jget_object(smi, "hiccup");
    const char *src = jget_string(smi, "source");
    bool pmc = src && strcmp(src, "pmc_ls_smi_rx") == 0;
    char cpus[48];
    if (src && (pmc || strcmp(src, "msr_0x34") == 0)) {
        if (json_object_get(smi, "cpus"))
            snprintf(cpus, sizeof(cpus), "on %lld CPUs", jget_int(smi, "cpus", -1));
        else
            snprintf(cpus, sizeof(cpus), "CPUs counted not recorded"); /* before per-CPU counts */
        snprintf(buf, cap, "SMIs %lld (%s, %s)", jget_int(smi, "count", -1),
                 pmc ? "PMC LsSmiRx" : "MSR 0x34", cpus);
    } else if (hic) {
        snprintf(buf, cap, "SMIs not countable (%s); hiccup detector only, after the experiment: "
                           "%lld gaps > %lld ns in %lld us",
                 S(jget_string(smi, "absent_reason")), jget_int(hic, "gaps", -1),
                 jget_int(hic, "threshold_ns", -1), jget_int(hic, "window_us", -1));
    } else {
        snprintf(buf, cap, "SMIs not measured (%s)", S(jget_string(smi, "absent_reason")));
    }
}

/* The clock part: the weighted figure and the roles, or what an older report has instead. */
static void clock_text(const json_t *clk, char *buf, size_t cap)
{
    const json_t *roles = jget_object(clk, "roles");
    const json_t *eff = jget_object(clk, "effective_over_tsc_permille");
    char init[40], targets[40];
    if (!jget_bool(clk, "aperf_mperf", false)) {
        snprintf(buf, cap, "no APERF/MPERF (CPUID 6 ECX %s)", S(jget_string(clk, "cpuid6_ecx")));
        return;
    }
    if (!json_object_get(eff, "weighted")) {
        /* older reports: the mean of per-CPU ratios, no roles */
        snprintf(buf, cap, "clock %lld MHz effective (mean of per-CPU ratios; weighted clock "
                           "and roles not recorded; TSC %lld MHz)",
                 jget_int(clk, "effective_mhz", -1), jget_int(clk, "tsc_mhz", -1));
        return;
    }
    snprintf(init, sizeof(init), "-");
    snprintf(targets, sizeof(targets), "-");
    if (jget_int(jget_object(roles, "initiator"), "effective_mhz", -1) >= 0)
        snprintf(init, sizeof(init), "%lld MHz",
                 jget_int(jget_object(roles, "initiator"), "effective_mhz", -1));
    if (jget_int(jget_object(roles, "targets"), "effective_mhz", -1) >= 0)
        snprintf(targets, sizeof(targets), "%lld MHz",
                 jget_int(jget_object(roles, "targets"), "effective_mhz", -1));
    snprintf(buf, cap, "clock %lld MHz effective (weighted by time awake; initiator %s, targets "
                       "%s; TSC %lld MHz)",
             jget_int(clk, "effective_mhz", -1), init, targets, jget_int(clk, "tsc_mhz", -1));
}

const char *conditions_text(const json_t *cond, char *buf, size_t cap)
{
    const json_t *smi = jget_object(cond, "smi"), *clk = jget_object(cond, "clock");
    char smi_txt[360], clk_txt[200];
    if (!cond || !json_is_object(cond)) {
        snprintf(buf, cap, "not recorded");
        return buf;
    }
    smi_text(smi, smi_txt, sizeof(smi_txt));
    clock_text(clk, clk_txt, sizeof(clk_txt));
    snprintf(buf, cap, "%s; %s; boost %s; SMT %s; targets %s", smi_txt, clk_txt,
             S(jget_string(clk, "boost")), S(jget_string(cond, "smt")),
             S(jget_string(cond, "target_wait")));
    return buf;
}

void conditions_show(const struct m_report *r, const struct m_experiment *e, FILE *out)
{
    /* the experiment's own object: a search by id per experiment made show quadratic */
    const json_t *cond = json_object_get(e->json, "conditions");
    char buf[800];
    if (!cond || (r->aarch64 && json_is_null(cond)))
        return; /* before conditions were recorded; aarch64 records none (contract A) */
    units_print_wrapped(out, "  conditions: ", "              ", conditions_text(cond, buf, sizeof(buf)),
                        SHOW_WIDTH);
}

/* One line per warning, no prefix (html's list), instead of "warning: " wrapped at 80. */
static bool one_line_each;

static void warn(FILE *out, size_t *count, const struct m_report *a, const struct m_report *b,
                 const char *what, const char *fmt_a, const char *fmt_b)
{
    char line[512];
    (*count)++;
    if (!out)
        return; /* counting only */
    snprintf(line, sizeof(line), "conditions differ (%s vs %s): %s: %s vs %s", a->label, b->label,
             what, S(fmt_a), S(fmt_b));
    if (one_line_each) /* what differs and each side's value, once */
        fprintf(out, "%s: %s %s, %s %s\n", what, a->label, S(fmt_a), b->label, S(fmt_b));
    else
        units_print_wrapped(out, "warning: ", "         ", line, 80);
}

static bool differ(const char *x, const char *y) { return x && y && strcmp(x, y) != 0; }

/* x86's halted target (hlt) and aarch64's (wfi_irq: WFI, then the SGI through the IRQ
 * vector) are one wait on two architectures: each target sleeps and takes the IPI
 * through its interrupt entry, so their round trips answer the same question */
static bool waits_differ(const char *x, const char *y)
{
    bool hx = x && (strcmp(x, "hlt") == 0 || strcmp(x, "wfi_irq") == 0);
    bool hy = y && (strcmp(y, "hlt") == 0 || strcmp(y, "wfi_irq") == 0);
    return differ(x, y) && !(hx && hy);
}

/* The experiment's SMI count when a counter was read, else -1. */
static long long smi_count(const json_t *cond)
{
    const json_t *smi = jget_object(cond, "smi");
    const char *src = jget_string(smi, "source");
    return src && (strcmp(src, "msr_0x34") == 0 || strcmp(src, "pmc_ls_smi_rx") == 0)
               ? jget_int(smi, "count", -1) : -1;
}

static void count_text(long long smis, char *buf, size_t cap)
{
    if (smis < 0)
        snprintf(buf, cap, "no counter");
    else
        snprintf(buf, cap, "%lld SMIs", smis);
}

static void compare_pair(const struct m_report *a, const struct m_report *b, FILE *out,
                         size_t *count)
{
    const json_t *list = jget_array(a->root, "experiments");
    const char *wa = jget_path(a->root, "method.target_wait")
                         ? json_string_value(jget_path(a->root, "method.target_wait")) : NULL;
    const char *wb = jget_path(b->root, "method.target_wait")
                         ? json_string_value(jget_path(b->root, "method.target_wait")) : NULL;
    char x[64], y[64], what[160];
    size_t i;
    if (differ(a->apic_mode, b->apic_mode))
        warn(out, count, a, b, "APIC mode (IPI delivery differs)", a->apic_mode, b->apic_mode);
    if (differ(a->full_flush, b->full_flush))
        warn(out, count, a, b, "full-flush method", a->full_flush, b->full_flush);
    if (waits_differ(wa, wb))
        warn(out, count, a, b, "target_wait (targets spin vs halt: wake-ups are in one)", wa, wb);
    for (i = 0; i < json_array_size(list); i++) {
        const json_t *ea = json_array_get(list, i);
        const char *id = jget_string(ea, "id");
        const json_t *ca = jget_object(ea, "conditions");
        const json_t *cb = jget_object(conditions_experiment(b, id), "conditions");
        long long ma, mb, sa, sb;
        if (!ca || !cb)
            continue;
        ma = jget_int(jget_object(ca, "clock"), "effective_mhz", -1);
        mb = jget_int(jget_object(cb, "clock"), "effective_mhz", -1);
        if (ma > 0 && mb > 0 && fabs((double)mb - (double)ma) > CONDITIONS_FREQ_TOLERANCE * (double)ma) {
            snprintf(what, sizeof(what), "%s: effective clock (APERF/MPERF) more than %.0f%% apart",
                     id, CONDITIONS_FREQ_TOLERANCE * 100);
            snprintf(x, sizeof(x), "%lld MHz", ma);
            snprintf(y, sizeof(y), "%lld MHz", mb);
            warn(out, count, a, b, what, x, y);
        }
        sa = smi_count(ca);
        sb = smi_count(cb);
        if ((sa > 0) != (sb > 0)) {
            snprintf(what, sizeof(what), "%s: SMIs during one of them", id);
            count_text(sa, x, sizeof(x));
            count_text(sb, y, sizeof(y));
            warn(out, count, a, b, what, x, y);
        }
        if (!differ(wa, wb) && differ(jget_string(ca, "target_wait"), jget_string(cb, "target_wait"))) {
            snprintf(what, sizeof(what), "%s: target_wait", id);
            warn(out, count, a, b, what, jget_string(ca, "target_wait"),
                 jget_string(cb, "target_wait"));
        }
    }
}

size_t conditions_compare_lines(struct m_report *const *reports, size_t n, FILE *out)
{
    size_t count;
    one_line_each = true;
    count = conditions_compare_warnings(reports, n, out);
    one_line_each = false;
    return count;
}

/*
 * One report's clock far from nominal (APERF/MPERF over the TSC outside
 * 1 +- CONDITIONS_FREQ_TOLERANCE) in any experiment: its latencies scale
 * with the clock, whatever the other sides did. Warned once per report, at
 * the experiment furthest off.
 */
static void clock_off_nominal(const struct m_report *r, FILE *out, size_t *count)
{
    const json_t *list = jget_array(r->root, "experiments"), *e;
    const char *worst_id = NULL;
    double worst = 1000; /* nominal: the clock the TSC ticks at */
    char line[300];
    size_t i;
    json_array_foreach(list, i, e) {
        const json_t *clk = jget_object(jget_object(e, "conditions"), "clock");
        double pm = jget_number(jget_object(clk, "effective_over_tsc_permille"), "weighted", NAN);
        if (!jget_bool(clk, "aperf_mperf", false) || !isfinite(pm) || !(pm > 0))
            continue;
        if (fabs(pm - 1000) > fabs(worst - 1000)) {
            worst = pm;
            worst_id = jget_string(e, "id");
        }
    }
    if (!worst_id || fabs(worst - 1000) <= CONDITIONS_FREQ_TOLERANCE * 1000)
        return;
    (*count)++;
    if (!out)
        return;
    snprintf(line, sizeof(line), "%s: %s: effective clock %.0f%% of the TSC's (APERF/MPERF): "
             "far from nominal, its latencies scale with the clock", r->label, worst_id,
             worst / 10);
    if (one_line_each)
        fprintf(out, "%s\n", line);
    else
        units_print_wrapped(out, "warning: ", "         ", line, 80);
}

size_t conditions_compare_warnings(struct m_report *const *reports, size_t n, FILE *out)
{
    size_t i, count = 0;
    for (i = 1; i < n; i++)
        compare_pair(reports[0], reports[i], out, &count);
    for (i = 0; i < n; i++)
        clock_off_nominal(reports[i], out, &count);
    return count;
}
