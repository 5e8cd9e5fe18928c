#include "reports/tool/html/html.h"
#include "reports/tool/views/conditions.h"
#include "reports/tool/show/conditions_view.h"
#include "reports/tool/html/html_ceiling.h"
#include "reports/tool/html/html_contention.h"
#include "reports/tool/html/html_conclusions.h"

#include <math.h>
#include <string.h>

#include "reports/tool/views/page.h"
#include "reports/tool/views/svg.h"
#include "reports/tool/model/units.h"

#define S(x) ((x) ? (x) : "?")

static const char css[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;"
    "margin:0 auto;max-width:1340px;padding:16px 24px;color:#1d1d1f;background:#fff;"
    "line-height:1.4}\n"
    "h1{font-size:1.6em;margin:.2em 0}h2{font-size:1.25em;margin-top:2em;border-bottom:2px "
    "solid #d0d7de;padding-bottom:4px}h3{font-size:1.05em}\n"
    "table{border-collapse:collapse;margin:8px 0;font-size:.9em}th,td{border:1px solid "
    "#d0d7de;padding:3px 8px;text-align:left;vertical-align:top}th{background:#f3f5f7}\n"
    "td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}\n"
    ".badge{display:inline-block;border-radius:4px;padding:0 6px;font-size:.8em;font-weight:600;"
    "margin-right:4px}\n"
    ".hw{background:#dafbe1;color:#116329}.virt{background:#fff1c2;color:#7d4e00}"
    ".emu{background:#f3e8ff;color:#6b21a8}.sim{background:#dbeafe;color:#1e3a8a}\n"
    ".SUCCESS{background:#dafbe1;color:#116329}.SKIP{background:#eaeef2;color:#424a53}"
    ".ERROR{background:#ffebe9;color:#a40e26}.FAILURE{background:#a40e26;color:#fff}\n"
    ".verdict{font-weight:600;border-radius:4px;padding:0 6px}"
    ".verdict.COMPLETE{background:#dafbe1;color:#116329}.verdict.ERROR{background:#ffebe9;"
    "color:#a40e26}.verdict.FAILURE{background:#a40e26;color:#fff}\n"
    ".faster{background:#dafbe1;color:#116329}.slower{background:#ffebe9;color:#a40e26}"
    ".same{background:#eaeef2;color:#424a53}.unknown{background:#fff8c5;color:#7d4e00}\n"
    "#conclusions{border:2px solid #d0d7de;border-radius:8px;padding:4px 16px;margin:12px 0}"
    "#conclusions h2{margin-top:.6em}table.headlines td,table.recommendations td{max-width:"
    "60em}\n"
    ".pooled{border-left:6px solid #0969da;background:#ddf4ff;padding:8px 12px;margin:12px 0}\n"
    ".warn{border-left:6px solid #d4a72c;background:#fff8c5;padding:8px 12px;margin:12px 0}\n"
    ".simulated{border-left:6px solid #1e3a8a;background:#dbeafe;padding:8px 12px;margin:12px 0}\n"
    ".muted{color:#57606a;font-size:.9em}\n"
    "figure{display:inline-block;margin:8px 16px 8px 0;vertical-align:top}\n"
    ".heatgrid{display:grid;grid-template-columns:repeat(auto-fit,minmax(400px,1fr));"
    "gap:8px 16px;align-items:start;margin:8px 0}.heatgrid figure{display:block;margin:0;"
    "min-width:0}.heatgrid svg{display:block;box-sizing:border-box;max-width:100%;height:auto}"
    ".heat-title{font-weight:600;margin:0 0 2px}\n"
    "svg{background:#fff;border:1px solid #e5e7eb;border-radius:6px}\n"
    "svg text{font-family:inherit;fill:#1d1d1f}svg .tick{font-size:11px;fill:#424a53}"
    "svg .alabel{font-size:12px}svg .ctitle{font-size:13px;font-weight:600}"
    "svg .legend{font-size:11px}svg text.cell{font-size:10px}"
    "svg text.cell.on-dark{fill:#ffffff}svg text.cell.on-light{fill:#000000}\n"
    "svg .grid{stroke:#e5e7eb;stroke-width:1}svg .axis{stroke:#57606a;stroke-width:1}"
    "svg .series{fill:none;stroke-width:2.2}\n"
    "details{margin:6px 0}summary{cursor:pointer;color:#0969da}\n";

static void badges(FILE *out, const struct m_report *r)
{
    if (r->virtualised) {
        fputs("<span class=\"badge virt\">VIRTUALISED: ", out);
        svg_text(out, r->hypervisor);
        fputs("</span>", out);
    }
    if (r->simulated) {
        fputs("<span class=\"badge sim\">SIMULATED: profile ", out);
        svg_text(out, S(r->sim.profile));
        if (r->sim.seed >= 0)
            fprintf(out, ", seed %lld", r->sim.seed);
        fputs("</span>", out);
    }
    if (r->machine_emulated) {
        fputs("<span class=\"badge emu\">EMULATED: ", out);
        svg_text(out, S(r->emulator));
        fputs("</span>", out);
    } else if (r->emulated) {
        fputs("<span class=\"badge emu\">EMULATED</span>", out);
    }
    if (compare_is_hardware(r))
        fputs("<span class=\"badge hw\">hardware</span>", out);
}

static void cell(FILE *out, const char *text)
{
    fputs("<td>", out);
    svg_text(out, text ? text : "");
    fputs("</td>", out);
}

static void machine_table(FILE *out, const struct cmp_model *m)
{
    char buf[200];
    size_t i;
    fputs("<h2 id=\"machines\">Machines</h2>\n<table class=\"machines\">\n<thead><tr><th></th>"
          "<th>Report</th><th>Machine</th><th>ID</th><th>CPU</th><th>Microcode</th>"
          "<th>BIOS / firmware</th>"
          "<th class=\"num\">CPUs</th><th class=\"num\">TSC MHz</th><th>Hypervisor</th>"
          "<th>Run verdict</th><th>Flags</th></tr></thead>\n<tbody>\n", out);
    for (i = 0; i < m->nreports; i++) {
        const struct m_report *r = m->reports[i];
        fprintf(out, "<tr><th>%s</th>", r->label);
        fputs("<td>", out);
        svg_text(out, r->path);
        fputs("<br><span class=\"muted\">run ", out);
        svg_text(out, S(r->run_id));
        fputs(", ", out);
        svg_text(out, S(r->start_time));
        fputs("</span></td>", out);
        cell(out, model_machine_name(r, buf, sizeof(buf)));
        compare_machine_label(m, i, buf, sizeof(buf));
        if (r->redacted)
            snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " (redacted)");
        cell(out, buf);
        if (r->aarch64) /* no CPUID: the MIDR; the counter's rate sits in the TSC column */
            snprintf(buf, sizeof(buf), "aarch64 MIDR %s (implementer %s), EL%lld", S(r->midr),
                     r->implementer_name ? r->implementer_name : S(r->implementer),
                     r->exception_level);
        else
            snprintf(buf, sizeof(buf), "%s (%s, family 0x%llx model 0x%llx stepping %lld)",
                     r->brand ? r->brand : "no brand string", S(r->vendor), r->family,
                     r->model, r->stepping);
        cell(out, buf);
        snprintf(buf, sizeof(buf), "%s%s",
                 r->aarch64 ? "-" : r->microcode ? r->microcode : "unknown",
                 r->microcode_uniform ? "" : " (not uniform)");
        cell(out, buf);
        cell(out, model_bios_text(r, buf, sizeof(buf)));
        fprintf(out, "<td class=\"num\">%lld of %lld ok</td>", r->cpus_ok, r->cpu_count);
        if (r->tsc_hz > 0)
            fprintf(out, "<td class=\"num\">%.1f</td>", r->tsc_hz / 1e6);
        else
            fputs("<td class=\"num\">unknown</td>", out);
        if (r->machine_emulated && !r->hypervisor)
            snprintf(buf, sizeof(buf), "none (emulator %s)", S(r->emulator));
        cell(out, r->hypervisor         ? r->hypervisor
                  : r->simulated        ? "none (simulated)"
                  : r->machine_emulated ? buf
                                        : "none");
        /* the run's verdict as the app prints it: a complete run is never a grey SKIP */
        {
            const char *v = html_verdict_text(r, buf, sizeof(buf));
            fprintf(out, "<td><span class=\"verdict %s\">",
                    !v ? "ERROR" : strncmp(v, "COMPLETE", 8) == 0 ? "COMPLETE"
                                 : strncmp(v, "FAILURE", 7) == 0  ? "FAILURE"
                                                                  : "ERROR");
            svg_text(out, v ? v : "no verdict");
            fputs("</span><br><span class=\"muted\">result ", out);
            svg_text(out, S(r->result));
            fputs("</span></td><td>", out);
        }
        badges(out, r);
        fputs("</td></tr>\n", out);
    }
    fputs("</tbody></table>\n<p class=\"muted\">ID: reports with the same ID come from one "
          "machine (the same serial number and UUID, or the same tokens after "
          "<code>tlbscope-report redact</code> with one key); - when a report records neither. "
          "Serial numbers and UUIDs are not shown.</p>\n", out);
}

/*
 * Simulated reports get their own banner above everything: with no
 * hypervisor to point at, the page must say plainly whose numbers these are.
 */
static void simulated_banner(FILE *out, const struct cmp_model *m)
{
    char buf[240];
    size_t i;
    bool any = false;
    for (i = 0; i < m->nreports; i++)
        any |= m->reports[i]->simulated;
    if (!any)
        return;
    fputs("<div class=\"simulated\"><span class=\"badge sim\">SIMULATED</span> "
          "<strong>Simulated reports: the timings are the model's, not any hardware's.</strong> "
          "They come from tlbscope-sim, which runs the tlbscope experiments on a modelled "
          "machine, and compare only with other simulated reports.<ul>\n", out);
    for (i = 0; i < m->nreports; i++) {
        const struct m_report *r = m->reports[i];
        if (!r->simulated)
            continue;
        fprintf(out, "<li>report %s: tlbscope-sim, ", r->label);
        svg_text(out, model_simulation_text(r, buf, sizeof(buf)));
        if (model_errata_text(r, buf, sizeof(buf))[0]) {
            fputs("; errata modelled: ", out);
            svg_text(out, buf);
        }
        fputs("</li>\n", out);
    }
    fputs("</ul></div>\n", out);
}

static void warnings(FILE *out, const struct cmp_model *m)
{
    size_t i;
    bool any = false;
    for (i = 0; i < m->nreports; i++)
        any |= !compare_is_hardware(m->reports[i]);
    if (!any)
        return;
    fputs("<div class=\"warn\"><strong>Not hardware timings:</strong> ", out);
    for (i = 0; i < m->nreports; i++) {
        const struct m_report *r = m->reports[i];
        if (compare_is_hardware(r))
            continue;
        fprintf(out, "report %s ", r->label);
        if (r->virtualised) {
            fputs("ran under a hypervisor (", out);
            svg_text(out, r->hypervisor);
            fputs(")", out);
        }
        if (r->simulated) /* the banner above names the model */
            fprintf(out, "%swas simulated by tlbscope-sim", r->virtualised ? " and " : "");
        fprintf(out, "%s", (r->virtualised || r->simulated) && r->emulated ? " and " : "");
        if (r->machine_emulated) {
            fputs("ran on an emulator (", out);
            svg_text(out, S(r->emulator));
            fputs(", run.config.emulator)", out);
        } else if (r->emulated) {
            fputs("has experiments with emulated instructions", out);
        }
        fputs(". ", out);
    }
    if (m->mixed)
        fputs("<strong>Hardware and virtualised/emulated reports are shown together: compare "
              "their shapes, not their numbers.</strong>", out);
    fputs(" Their chart legends and table cells are marked (* virtualised, ~ emulated, "
          "^ simulated).</div>\n", out);
}

/*
 * How each report was measured (conditions.h), the rows that differ marked,
 * and a warning per difference that changes the numbers: before any chart.
 */
static void conditions_section(FILE *out, const struct cmp_model *m)
{
    struct cond_table c;
    struct table *t;
    char *text = NULL;
    size_t len = 0;
    FILE *mem;
    if (!conditions_build(m->reports, m->nreports, &c))
        return;
    fputs("<h2 id=\"conditions\">Conditions</h2>\n", out);
    if ((mem = open_memstream(&text, &len))) {
        /* each real difference once: the conditions recorded by every report that differ,
         * then the per-experiment ones (clock, SMIs, APIC mode, full flush, target_wait) */
        size_t nwarn = conditions_difference_lines(&c, m->reports, m->nreports, mem);
        nwarn += conditions_compare_lines(m->reports, m->nreports, mem);
        if (nwarn) {
            char *line, *save = NULL;
            fclose(mem);
            mem = NULL;
            fputs("<div class=\"warn\"><strong>Measured differently:</strong><ul>\n", out);
            for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
                fputs("<li>", out);
                svg_text(out, line);
                fputs("</li>\n", out);
            }
            fputs("</ul></div>\n", out);
        }
        if (mem)
            fclose(mem);
        free(text);
    }
    t = conditions_table(&c, m->reports, m->nreports);
    table_print(t, out, TABLE_HTML, "");
    table_free(t);
    conditions_free(&c);
}

static void overview(FILE *out, const struct cmp_model *m)
{
    size_t i, k;
    char a[32];
    if (!m->nsections) {
        fputs("<p>No experiments in these reports.</p>\n", out);
        return;
    }
    fputs("<h2 id=\"overview\">Experiments</h2>\n<table>\n<thead><tr><th>Experiment</th>", out);
    for (i = 0; i < m->nreports; i++)
        fprintf(out, "<th>%s</th>", m->reports[i]->label);
    fputs("</tr></thead>\n<tbody>\n", out);
    for (k = 0; k < m->nsections; k++) {
        const struct cmp_section *s = &m->sections[k];
        fprintf(out, "<tr><td><a href=\"#exp%zu\">", k);
        svg_text(out, s->id);
        fputs("</a></td>", out);
        for (i = 0; i < m->nreports; i++) {
            const struct m_experiment *e = s->exp[i];
            if (!e) {
                fputs("<td class=\"muted\">not run</td>", out);
                continue;
            }
            fputs("<td><span class=\"badge ", out);
            svg_text(out, S(e->status));
            fputs("\">", out);
            svg_text(out, S(e->status));
            fprintf(out, "</span>%s%s%s %zu points, %s stale</td>",
                    m->reports[i]->simulated ? "<span class=\"badge sim\">SIMULATED</span>" : "",
                    e->emulated ? "<span class=\"badge emu\">EMULATED</span>" : "",
                    e->partial ? " partial," : "", e->results.count,
                    units_number(e->stale_reads, a, sizeof(a)));
        }
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table>\n", out);
}

/*
 * Past HTML_MAX_REPORTS reports the columns are CPU models (sides_pool_models): said at the
 * top, with how many reports each pools, and what is pooled and what is a model's first
 * report only.
 */
static void pooled_note(FILE *out, const struct cmp_model *m)
{
    size_t i;
    if (!m->pooled)
        return;
    fprintf(out, "<div class=\"pooled\"><strong>%zu reports of %zu CPU models:</strong> past "
            "%d reports the page has a column per CPU model, as the atlas does. ", m->nall,
            m->nreports, HTML_MAX_REPORTS);
    for (i = 0; i < m->nreports; i++) {
        size_t runs = compare_side_runs(m, i);
        fputs(i ? "; " : "", out);
        if (runs > 1)
            fprintf(out, "%zu reports of ", runs);
        else
            fputs("1 report of ", out);
        svg_text(out, m->reports[i]->brand ? m->reports[i]->brand : "an unnamed CPU");
        fputs(runs > 1 ? " pooled as <strong>" : " as <strong>", out);
        svg_text(out, m->reports[i]->label);
        fputs("</strong>", out);
    }
    fputs(". A pooled point is the median of its reports' p50s, its interval their range "
          "(compare's pooled sides); the heatmaps, the flush-ceiling curves and the machine and "
          "conditions tables show each model's first report.</div>\n", out);
}

bool html_render(FILE *out, struct m_report *const *reports, size_t n)
{
    size_t *side = calloc(n ? n : 1, sizeof(*side)), i;
    bool ok;
    if (!side)
        return false;
    for (i = 0; i < n; i++)
        side[i] = i;
    ok = html_render_sides(out, reports, side, n, n);
    free(side);
    return ok;
}

bool html_render_sides(FILE *out, struct m_report *const *all, const size_t *side_of, size_t n,
                       size_t nsides)
{
    struct cmp_model m;
    size_t i, simulated = 0;
    bool ok = compare_build_pooled(all, side_of, n, nsides, NULL, &m);
    const char *tag;
    for (i = 0; i < n; i++)
        simulated += all[i]->simulated;
    /* in the title too: a page is shared by its title, without the banner */
    tag = !simulated ? "" : simulated == n ? " (SIMULATED)" : " (some SIMULATED)";
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n" PAGE_CSP_META
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", out);
    fprintf(out, "tlbscope: %zu report%s%s", n, n == 1 ? "" : "s", tag);
    fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", css);
    fprintf(out, "<h1>tlbscope: TLB shootdown costs, %zu report%s%s</h1>\n", n, n == 1 ? "" : "s",
            tag);
    fprintf(out, "<p class=\"muted\">Times are %s; each point is the p50 (median) of its "
            "samples unless marked p99. Generated by tlbscope-report from ",
            m.in_ns ? "in ns, converted from TSC ticks with each report's TSC frequency"
                    : "in TSC ticks (a report lacks its TSC frequency)");
    for (i = 0; i < n; i++) {
        fputs(i ? ", " : "", out);
        svg_text(out, all[i]->path);
    }
    fputs(".</p>\n", out);
    pooled_note(out, &m);
    simulated_banner(out, &m);
    html_conclusions(out, &m);
    warnings(out, &m);
    machine_table(out, &m);
    conditions_section(out, &m);
    overview(out, &m);
    html_ceiling(out, m.reports, m.nreports);
    for (i = 0; i < m.nsections; i++) {
        fprintf(out, "<section id=\"exp%zu\">\n", i);
        html_experiment(out, &m, &m.sections[i]);
        html_contention_extras(out, &m, &m.sections[i]);
        fputs("</section>\n", out);
    }
    fputs("</body>\n</html>\n", out);
    compare_free(&m);
    return ok;
}
