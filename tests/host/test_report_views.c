/*
 * tlbscope-report show and html, and the pieces they print with (tables,
 * JSON paths, wrapping). Checks what a reader relies on: the IPI matrix and
 * class summary, hypervisor/emulation/simulation warnings, 100-column text, an HTML
 * page without scripts or network references, with escaped report text.
 * Run from the repository root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/tool/html/html.h"
#include "reports/tool/validate/jpath.h"
#include "reports/tool/model/load.h"
#include "reports/tool/model/model.h"
#include "reports/tool/show/show.h"
#include "reports/tool/views/svg.h"
#include "reports/tool/views/table.h"
#include "reports/tool/model/units.h"
#include "tests/host/report_fixture.h"


static struct m_report *model_of_doc(json_t *root, const char *label)
{
    struct m_report *m = model_build(root, "fixture.json");
    assert_non_null(m);
    snprintf(m->label, sizeof(m->label), "%s", label);
    return m;
}

static size_t count_of(const char *hay, const char *needle)
{
    size_t n = 0;
    for (hay = strstr(hay, needle); hay; hay = strstr(hay + 1, needle))
        n++;
    return n;
}

/*
 * Issue 31, item 5: a chart one can read. Twelve series, each name longer than a legend
 * line: every name whole in the legend (wrapped, never "..." or "(N more)"), a marker per
 * point, the direction by the y label, a long title wrapped with nothing dropped, and the
 * chart taller than the default to hold the legend. The palette's 12 colours differ.
 */
static void test_chart_readable(void **state)
{
    enum { SERIES = 12, POINTS = 3 };
    struct svg_series se[SERIES];
    double xy[SERIES][2][POINTS];
    struct svg_chart c;
    char *buf = NULL, name[64];
    size_t len = 0, i, k;
    FILE *f = open_memstream(&buf, &len);
    (void)state;
    assert_non_null(f);
    memset(se, 0, sizeof(se));
    for (i = 0; i < SERIES; i++) {
        for (k = 0; k < POINTS; k++) {
            xy[i][0][k] = (double)(1u << k);
            xy[i][1][k] = 200.0 + 20.0 * (double)i + (double)k; /* a linear axis */
        }
        se[i].x = xy[i][0];
        se[i].y = xy[i][1];
        se[i].n = POINTS;
        se[i].color = svg_palette(i);
        se[i].marker = svg_marker(i);
        snprintf(se[i].name, sizeof(se[i].name), "report-number-%02zu conc (sim.^) seventh-word",
                 i);
        for (k = 0; k < i; k++)
            assert_string_not_equal(svg_palette(i), svg_palette(k));
    }
    memset(&c, 0, sizeof(c));
    c.title = "shootdown_seq_vs_conc: p50 latency by targets, pages=512 flush=invpcid_single "
              "ipi_mode=x2apic_cluster placement=cross_package";
    c.x_label = "targets";
    c.y_label = "p50 latency (ns)";
    c.series = se;
    c.nseries = SERIES;
    c.note = "colour and marker: report; dash: mode";
    svg_line_chart(f, &c);
    fclose(f);
    for (i = 0; i < SERIES; i++) {
        snprintf(name, sizeof(name), ">report-number-%02zu conc<", i);
        assert_non_null(strstr(buf, name));
    }
    /* 24 characters a legend line: the rest on the next */
    assert_int_equal(count_of(buf, ">(sim.^) seventh-word<"), SERIES);
    assert_null(strstr(buf, "...<"));
    assert_null(strstr(buf, "more)<"));
    /* a marker per point: circles, squares and paths, each with its title */
    assert_int_equal(count_of(buf, "<circle ") + count_of(buf, "<rect class=\"mark\"") +
                         count_of(buf, "<path class=\"mark\""),
                     SERIES * POINTS + SERIES /* the legend's */);
    assert_non_null(strstr(buf, "p50 latency (ns), lower is better<"));
    assert_non_null(strstr(buf, "placement=cross_package</tspan>"));
    assert_non_null(strstr(buf, "<title>shootdown_seq_vs_conc: p50 latency by targets, pages=512 "
                                "flush=invpcid_single ipi_mode=x2apic_cluster "
                                "placement=cross_package</title>"));
    assert_null(strstr(buf, "height=\"380\""));
    free(buf);
}

static char *show_text(const struct m_report *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    show_wide = true; /* the content, with ticks; tool_cli.sh checks the 80-column default */
    show_report(r, f);
    fclose(f);
    return buf;
}

static char *html_text(struct m_report *const *r, size_t n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_true(html_render(f, r, n));
    fclose(f);
    return buf;
}

static size_t count(const char *text, const char *needle)
{
    size_t n = 0;
    const char *p = text;
    while ((p = strstr(p, needle))) {
        n++;
        p += strlen(needle);
    }
    return n;
}

static void assert_width(const char *text, size_t max)
{
    const char *p = text;
    while (*p) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n > max)
            fail_msg("line of %zu columns: %.*s", n, (int)n, p);
        if (!end)
            break;
        p = end + 1;
    }
}

static void test_show_hardware_report(void **state)
{
    struct m_report *r = model_of_doc(fixture_document("synthetic-epyc7763-2s-hw.json"), "A");
    char *text = show_text(r);
    (void)state;
    assert_non_null(strstr(text, "Machine   Supermicro AS -2124US-TNRP\n"));
    assert_non_null(strstr(text, "BIOS      American Megatrends Inc. 2.6a 04/19/2023\n"));
    assert_non_null(strstr(text, "CPU       AMD EPYC 7763 64-Core Processor, AuthenticAMD family "
                                 "0x19 model 0x1 stepping 1\n"));
    assert_non_null(strstr(text, "invlpgb=yes(max 8 pages)"));
    assert_null(strstr(text, "WARNING"));
    /* 16 CPUs: the full matrix, rows in topology order, then the class summary in ns (ticks) */
    assert_non_null(strstr(text, "init \\ target"));
    assert_non_null(strstr(text, "  128 (1/0/0) "));
    assert_non_null(strstr(text, "smt_sibling       16"));
    assert_non_null(strstr(text, "cross_package    128"));
    /* seq vs conc with its ratio, one table per page count */
    assert_non_null(strstr(text, "seq vs conc"));
    assert_non_null(strstr(text, "conc/seq"));
    assert_int_equal(count(text, "\n  pages="), 7);
    /* the last line is the verdict (core/run/verdict.h), as the app prints it */
    assert_non_null(strstr(text, "\nRun complete, result SUCCESS\nCOMPLETE: 7 measured\n"));
    assert_width(text, 100);
    free(text);
    model_free(r);
}

static void test_show_virtualised_report(void **state)
{
    struct m_report *r = model_of_doc(fixture_document("qemu-tcg-smp2-all.json"), "A");
    char *text = show_text(r);
    (void)state;
    assert_non_null(strstr(text, "WARNING   virtualised: hypervisor \"TCGTCGTCGTCG\""));
    assert_non_null(strstr(text, "WARNING   emulated: invlpgb_range ran emulated instructions"));
    assert_non_null(strstr(text, "== invlpgb_range: Broadcast invalidation with INVLPGB vs IPI "
                                 "shootdown [EMULATED]"));
    /* a SKIP shows its whole reason, wrapped, with the CPUID evidence */
    assert_non_null(strstr(text, "  reason: no PCID: CPUID.1:ECX[17]=0 (1.ecx=0xf6f8320b)"));
    assert_non_null(strstr(text, "(7.0.ebx=0x219c43a9)"));
    /* SKIP, because one experiment did not apply: a complete run, and the verdict says so,
     * labelled as its emulated INVLPGB is everywhere (the id does not fit 80 columns) */
    assert_non_null(strstr(text, "\nRun complete, result SKIP\nCOMPLETE: 6 measured, 1 not "
                                 "applicable to this machine [EMULATED]\n"));
    assert_width(text, 100);
    free(text);
    model_free(r);
}

static void test_show_simulated_report(void **state)
{
    json_t *root = fixture_document("sim/sim-epyc7763-smp8.json");
    struct m_report *r = model_of_doc(json_deep_copy(root), "A");
    char *text = show_text(r);
    (void)state;
    assert_non_null(strstr(text, "Machine   none: simulated by tlbscope-sim, profile epyc-7763 "
                                 "(AMD EPYC 7763 64-Core Processor)\n"));
    assert_non_null(strstr(text, "WARNING   simulated by tlbscope-sim: timings are the model's, "
                                 "not hardware's\n          model \"tlbscope strict TLB model\" "
                                 "v1, profile epyc-7763, seed 12345\n"));
    assert_null(strstr(text, "errata")); /* none modelled */
    /* no hypervisor: the virtualised warning must not stand in for it */
    assert_null(strstr(text, "virtualised"));
    /* every experiment: its table row and its section heading */
    assert_non_null(strstr(text, "ipi_roundtrip            SUCCESS      56       0      0  "
                                 "[SIMULATED]\n"));
    assert_int_equal(count(text, "SUCCESS") - count(text, "result SUCCESS"), 7 * 2);
    assert_int_equal(count(text, "[SIMULATED]"), 7 * 2 + 1); /* and the verdict line */
    assert_non_null(strstr(text, "== ipi_roundtrip: IPI round trip per initiator/target pair (send "
                                 "to acknowledgement) [SIMULATED]\n"));
    assert_width(text, 100);
    free(text);
    model_free(r);

    /* errata are named, on a line of their own */
    json_object_set_new(json_object_get(root, "simulation"), "errata",
                        json_pack("[s,s]", "invlpg_ignores_global", "tlbsync_early"));
    r = model_of_doc(root, "A");
    text = show_text(r);
    assert_non_null(strstr(text, "seed 12345\n          errata modelled: invlpg_ignores_global, "
                                 "tlbsync_early (the model misbehaves on purpose)\n"));
    free(text);
    model_free(r);
}

/*
 * Whether the tool ran with PCID, and why: the report's reason, wrapped; a
 * report written before method.pcid_reason says only on or off, and that the
 * reason was not recorded. A simulated report's modelled microcode is named.
 */
static void test_show_pcid_and_microcode(void **state)
{
    json_t *root = fixture_document("sim/sim-epyc7763-smp8.json");
    struct m_report *r = model_of_doc(json_deep_copy(root), "A");
    char *text = show_text(r);
    (void)state;
    assert_non_null(strstr(text, "\nPCID      on (why: not recorded; the report predates "
                                 "method.pcid_reason)\n"));
    assert_null(strstr(text, "modelled microcode"));
    free(text);
    model_free(r);
    json_object_set_new(json_object_get(root, "method"), "pcid_enabled", json_false());
    json_object_set_new(json_object_get(root, "method"), "pcid_reason",
                        json_string("off: erratum invlpg_global_pcid (Intel ADL063/RPL042: INVLPG "
                                    "with CR4.PCIDE = 1 may keep global translations) on CPU "
                                    "06-97-02, Alder Lake (ALDERLAKE), microcode 0x12 (fixed from "
                                    "0x2e): measured without PCID, as Linux does"));
    json_object_set_new(json_object_get(root, "simulation"), "microcode", json_string("0x12"));
    json_object_set_new(json_object_get(root, "simulation"), "microcode_source",
                        json_string("--microcode"));
    r = model_of_doc(root, "A");
    text = show_text(r);
    assert_non_null(strstr(text, "\nPCID      off: erratum invlpg_global_pcid (Intel "));
    assert_non_null(strstr(text, "\n          modelled microcode 0x12, from --microcode\n"));
    assert_width(text, 100);
    free(text);
    model_free(r);
}

static void test_show_large_ipi_uses_classes(void **state)
{
    json_t *root = fixture_document("synthetic-epyc7763-2s-hw.json");
    json_t *results = json_object_get(json_array_get(json_object_get(root, "experiments"), 0),
                                      "results");
    json_t *proto = json_array_get(results, 0);
    struct m_report *r;
    char *text;
    int t;
    (void)state;
    for (t = 16; t < 20; t++) { /* four more targets: 20 CPUs take part */
        json_t *p = json_deep_copy(proto);
        json_object_set_new(json_object_get(p, "params"), "target", json_integer(t));
        json_array_append_new(results, p);
    }
    r = model_of_doc(root, "A");
    text = show_text(r);
    assert_non_null(strstr(text, "20 CPUs took part: matrix omitted"));
    assert_null(strstr(text, "init \\ target"));
    assert_non_null(strstr(text, "by topology class"));
    free(text);
    model_free(r);
}

static void test_html_is_self_contained(void **state)
{
    struct m_report *r[2] = { model_of_doc(fixture_document("qemu-tcg-smp4-all.json"), "A"),
                              model_of_doc(fixture_document("synthetic-epyc7763-2s-hw.json"), "B") };
    char *page = html_text(r, 2);
    (void)state;
    assert_true(strncmp(page, "<!DOCTYPE html>", 15) == 0);
    assert_non_null(strstr(page, "</html>\n"));
    assert_null(strstr(page, "<script"));
    assert_null(strstr(page, "http:"));
    assert_null(strstr(page, "https:"));
    assert_null(strstr(page, "src="));
    assert_null(strstr(page, "@import"));
    /* two heatmaps, a class chart, charts for the other experiments */
    assert_int_equal(count(page, "<svg class=\"heatmap\""), 2);
    assert_true(count(page, "<svg class=\"chart\"") >= 10);
    assert_true(count(page, "<rect") >= 16 * 16 + 4 * 4);
    assert_true(count(page, "<polyline") >= 20);
    assert_non_null(strstr(page, "VIRTUALISED: TCGTCGTCGTCG"));
    assert_non_null(strstr(page, "<span class=\"badge emu\">EMULATED</span>"));
    assert_non_null(strstr(page, "Hardware and virtualised/emulated reports are shown together"));
    assert_non_null(strstr(page, "A conc (virt.*)"));
    free(page);
    model_free(r[0]);
    model_free(r[1]);
}

static void test_html_simulated_reports(void **state)
{
    struct m_report *r[2] = { model_of_doc(fixture_document("sim/sim-epyc7763-smp8.json"), "A"),
                              model_of_doc(fixture_document("sim/sim-epyc7763-smp8-seed2.json"), "B") };
    char *page = html_text(r, 2);
    (void)state;
    assert_non_null(strstr(page, "<title>tlbscope: 2 reports (SIMULATED)</title>"));
    assert_non_null(strstr(page, "2 reports (SIMULATED)</h1>"));
    assert_non_null(strstr(page, "<div class=\"simulated\"><span class=\"badge sim\">SIMULATED"
                                 "</span> <strong>Simulated reports: the timings are the model's, "
                                 "not any hardware's.</strong>"));
    assert_non_null(strstr(page, "<li>report A: tlbscope-sim, model &quot;tlbscope strict TLB "
                                 "model&quot; v1, profile epyc-7763, seed 12345</li>"));
    /* machine table: flagged, never the hardware badge */
    assert_non_null(strstr(page, "<span class=\"badge sim\">SIMULATED: profile epyc-7763, seed "
                                 "12345</span>"));
    assert_non_null(strstr(page, "<td>none (simulated)</td>"));
    assert_null(strstr(page, "badge hw"));
    /* per experiment: overview and status badges, chart legends, heatmap titles, data cells */
    assert_true(count(page, "<span class=\"badge sim\">SIMULATED</span>") >= 2 * 7 * 2);
    assert_non_null(strstr(page, "A conc (sim.^)"));
    assert_non_null(strstr(page, "IPI round trip p50, report B (sim.^)"));
    assert_non_null(strstr(page, "^ simulated"));
    assert_true(count(page, "^</td>") > 50);
    free(page);
    model_free(r[0]);
    model_free(r[1]);
}

static void test_html_escapes_report_text(void **state)
{
    json_t *root = fixture_document("qemu-tcg-smp2-all.json");
    struct m_report *r;
    char *page;
    (void)state;
    json_object_set_new(json_object_get(root, "cpu"), "brand",
                        json_string("<script>alert(1)</script> & \"x\""));
    json_object_set_new(json_array_get(json_object_get(root, "experiments"), 1), "title",
                        json_string("</h2><img src=x>"));
    r = model_of_doc(root, "A");
    page = html_text(&r, 1);
    assert_null(strstr(page, "<script"));
    assert_null(strstr(page, "<img"));
    assert_non_null(strstr(page, "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;"));
    assert_non_null(strstr(page, "&lt;/h2&gt;&lt;img src=x&gt;"));
    free(page);
    model_free(r);
}

static void test_html_of_empty_report(void **state)
{
    struct m_report *r = model_of_doc(fixture_document("qemu-tcg-smp2-foundation.json"), "A");
    char *page = html_text(&r, 1);
    (void)state;
    assert_non_null(strstr(page, "No experiments in these reports."));
    assert_non_null(strstr(page, "<h2 id=\"machines\">Machines</h2>"));
    free(page);
    model_free(r);
}

/* model_experiment: the first of an id in report order (compare and html rely on it), log time. */
static void test_experiment_lookup_by_id(void **state)
{
    json_t *root = fixture_document("qemu-tcg-smp4-all.json");
    json_t *list = json_object_get(root, "experiments"), *dup;
    struct m_report *r;
    size_t i, n;
    (void)state;
    n = json_array_size(list);
    assert_true(n >= 3);
    /* a second ipi_broadcast at the end, and one experiment without an id */
    dup = json_deep_copy(json_array_get(list, 0));
    assert_int_equal(json_object_set_new(dup, "title", json_string("second")), 0);
    assert_int_equal(json_array_append_new(list, dup), 0);
    assert_int_equal(json_object_del(json_array_get(list, 1), "id"), 0);
    r = model_of_doc(root, "A");
    assert_int_equal(r->nexperiments, n + 1);
    for (i = 0; i < r->nexperiments; i++) {
        const struct m_experiment *e = &r->experiments[i];
        if (i == 1 || i == n)
            continue; /* no id; the duplicate */
        assert_ptr_equal(model_experiment(r, e->id), e);
    }
    assert_null(r->experiments[1].id);
    assert_ptr_equal(model_experiment(r, r->experiments[n].id), &r->experiments[0]);
    assert_null(model_experiment(r, "no_such_experiment"));
    assert_null(model_experiment(r, ""));
    assert_null(model_experiment(r, NULL));
    model_free(r);
}

static void test_table_formats(void **state)
{
    struct table *t = table_new(3);
    char *buf = NULL;
    size_t len = 0, row;
    FILE *f;
    (void)state;
    table_header(t, 0, "name", false);
    table_header(t, 1, "p50", true);
    table_header(t, 2, "note", false);
    row = table_add_row(t);
    table_set(t, row, 0, "a|b");
    table_set(t, row, 1, "%d", 12345);
    table_set(t, row, 2, "say \"hi\", then go");
    row = table_add_row(t);
    table_set(t, row, 0, "longer name");
    table_set(t, row, 1, "7");
    f = open_memstream(&buf, &len);
    table_print(t, f, TABLE_TEXT, "> ");
    table_print(t, f, TABLE_CSV, "");
    table_print(t, f, TABLE_MARKDOWN, "");
    fclose(f);
    assert_string_equal(buf,
                        "> name           p50  note\n"
                        "> a|b          12345  say \"hi\", then go\n"
                        "> longer name      7  \n"
                        "name,p50,note\r\n"
                        "a|b,12345,\"say \"\"hi\"\", then go\"\r\n"
                        "longer name,7,\r\n"
                        "| name | p50 | note |\n"
                        "| --- | --: | --- |\n"
                        "| a\\|b | 12345 | say \"hi\", then go |\n"
                        "| longer name | 7 |  |\n");
    free(buf);
    table_free(t);
}

static void test_json_paths(void **state)
{
    struct jpath p;
    char buf[128];
    size_t m;
    (void)state;
    jpath_init(&p);
    jpath_push_key(&p, "experiments");
    m = jpath_push_index(&p, 2);
    jpath_push_key(&p, "results");
    jpath_push_index(&p, 5);
    assert_string_equal(p.buf, "experiments[2].results[5]");
    assert_string_equal(jpath_child(&p, "p50", buf, sizeof(buf)), "experiments[2].results[5].p50");
    jpath_pop(&p, m);
    assert_string_equal(p.buf, "experiments");
    jpath_init(&p);
    jpath_push_key(&p, "cpu");
    assert_string_equal(jpath_child(&p, "1.eax", buf, sizeof(buf)), "cpu[\"1.eax\"]");
    assert_string_equal(jpath_child(&p, "a\"b", buf, sizeof(buf)), "cpu[\"a?b\"]");
}

static void test_wrapping(void **state)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    (void)state;
    units_print_wrapped(f, "  reason: ", "          ",
                        "one two three four five six seven eight nine ten", 30);
    units_print_wrapped(f, "x ", "  ", "averyveryveryverylongwordthatcannotbreak", 20);
    fclose(f);
    assert_string_equal(buf, "  reason: one two three four\n"
                             "          five six seven eight\n"
                             "          nine ten\n"
                             "x averyveryveryveryl\n"
                             "  ongwordthatcannotb\n"
                             "  reak\n");
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_show_hardware_report),
        cmocka_unit_test(test_show_virtualised_report),
        cmocka_unit_test(test_show_simulated_report),
        cmocka_unit_test(test_show_pcid_and_microcode),
        cmocka_unit_test(test_show_large_ipi_uses_classes),
        cmocka_unit_test(test_html_is_self_contained),
        cmocka_unit_test(test_html_simulated_reports),
        cmocka_unit_test(test_html_escapes_report_text),
        cmocka_unit_test(test_html_of_empty_report),
        cmocka_unit_test(test_experiment_lookup_by_id),
        cmocka_unit_test(test_table_formats),
        cmocka_unit_test(test_json_paths),
        cmocka_unit_test(test_wrapping),
        cmocka_unit_test(test_chart_readable),
    };
    return cmocka_run_group_tests_name("report_views", tests, NULL, NULL);
}
