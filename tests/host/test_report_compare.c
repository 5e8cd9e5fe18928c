/*
 * tlbscope-report compare: points of reports with different shapes are
 * aligned by their parameters (a point only one report has keeps its row,
 * with "-" for the others), ratios are against the first report, and
 * virtualised, emulated or simulated numbers are marked; simulated reports
 * are compared only with each other. Run from the repository root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/tool/cli/commands.h"
#include "reports/tool/compare/compare.h"
#include "reports/tool/compare/compare_arch.h"
#include "reports/tool/compare/compare_roles.h"
#include "reports/tool/model/load.h"
#include "reports/tool/model/model.h"
#include "tests/host/report_fixture.h"

#define SIM FIXTURES "sim/sim-epyc7763-smp8.json"
#define SIM2 FIXTURES "sim/sim-epyc7763-smp8-seed2.json"

static struct m_report *model_of(const char *name, const char *label)
{
    struct load_result r;
    struct m_report *m;
    char path[256];
    snprintf(path, sizeof(path), FIXTURES "%s", name);
    load_file(path, &r);
    if (r.status != LOAD_OK)
        fail_msg("%s: %s", path, r.message);
    m = model_build(r.root, path);
    assert_non_null(m);
    snprintf(m->label, sizeof(m->label), "%s", label);
    return m;
}

static const struct cmp_section *section(const struct cmp_model *m, const char *id)
{
    size_t i;
    for (i = 0; i < m->nsections; i++)
        if (strcmp(m->sections[i].id, id) == 0)
            return &m->sections[i];
    fail_msg("no section %s", id);
    return NULL;
}

/* The row whose parameter `key` has the numeric value `num` and `skey` the string `sval`. */
static const struct cmp_row *row_of(const struct cmp_section *s, const char *key, double num,
                                    const char *skey, const char *sval)
{
    size_t i, j, kx = s->keys.n, ks = s->keys.n;
    for (j = 0; j < s->keys.n; j++) {
        if (strcmp(s->keys.keys[j], key) == 0)
            kx = j;
        if (skey && strcmp(s->keys.keys[j], skey) == 0)
            ks = j;
    }
    assert_true(kx < s->keys.n);
    for (i = 0; i < s->nrows; i++) {
        const struct m_param *x = s->rows[i].vals[kx];
        const struct m_param *sv = skey ? s->rows[i].vals[ks] : NULL;
        if (x && !x->str && x->num == num && (!skey || (sv && sv->str && !strcmp(sv->str, sval))))
            return &s->rows[i];
    }
    return NULL;
}

static char *render(const struct cmp_model *m, enum table_format fmt)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    compare_print(m, f, fmt);
    fclose(f);
    return buf;
}

/* The first output line containing every one of the needles (NULL-terminated). */
static const char *line_with(const char *text, const char *a, const char *b, char *out, size_t cap)
{
    const char *p = text;
    while (p && *p) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        snprintf(out, cap, "%.*s", (int)n, p);
        if (strstr(out, a) && (!b || strstr(out, b)))
            return out;
        p = end ? end + 1 : NULL;
    }
    return NULL;
}

/*
 * Finding 2: the ratio's range over runs decides the verdict; one run leaves
 * it unknown unless each p50 has its 95% interval (issue 31), and a ratio
 * inside the dead band is no difference.
 */
static void test_verdict_from_range(void **state)
{
    struct cmp_cell cells[2];
    struct cmp_row row = { NULL, NULL, cells, false, false, false, 0, 0 };
    double lo, hi;
    (void)state;
    memset(cells, 0, sizeof(cells));
    cells[0] = (struct cmp_cell){ true, 100, 200, false, false, false, 2, 100, 110, 0, NAN, NAN };
    cells[1] = (struct cmp_cell){ true, 160, 300, false, false, false, 2, 150, 170, 0, NAN, NAN };
    assert_true(compare_ratio_range(&row, 1, &lo, &hi));
    assert_int_equal(compare_ratio_interval(&row, 1, &lo, &hi), CMP_IV_RUNS);
    assert_true(fabs(lo - 150.0 / 110) < 1e-12 && fabs(hi - 170.0 / 100) < 1e-12);
    assert_int_equal(compare_verdict(&row, 1), CMP_SLOWER);
    cells[1].p50_lo = 95; /* the runs overlap: noise */
    assert_int_equal(compare_verdict(&row, 1), CMP_NO_DIFFERENCE);
    assert_string_equal(compare_verdict_text(CMP_NO_DIFFERENCE), "no difference");
    cells[1] = (struct cmp_cell){ true, 60, 90, false, false, false, 3, 55, 65, 0, NAN, NAN };
    assert_int_equal(compare_verdict(&row, 1), CMP_FASTER);
    cells[0].runs = 1; /* one run on a side, without p50_ci95: no interval */
    assert_false(compare_ratio_range(&row, 1, &lo, &hi));
    assert_int_equal(compare_verdict(&row, 1), CMP_SPREAD_UNKNOWN);
    assert_string_equal(compare_verdict_text(CMP_SPREAD_UNKNOWN), "spread unknown");
    /* one run each with its p50's 95% interval: the ratio's interval is low/high to high/low */
    cells[0] = (struct cmp_cell){ true, 100, 200, false, false, false, 1, 100, 100, 0, 98, 103 };
    cells[1] = (struct cmp_cell){ true, 150, 300, false, false, false, 1, 150, 150, 0, 140, 155 };
    assert_int_equal(compare_ratio_interval(&row, 1, &lo, &hi), CMP_IV_CI95);
    assert_true(fabs(lo - 140.0 / 103) < 1e-12 && fabs(hi - 155.0 / 98) < 1e-12);
    assert_int_equal(compare_verdict(&row, 1), CMP_SLOWER);
    cells[1].ci_lo = 99; /* the interval holds 1 */
    assert_int_equal(compare_verdict(&row, 1), CMP_NO_DIFFERENCE);
    /* 1.02 with tight intervals: significant, but inside a 3% dead band */
    cells[1] = (struct cmp_cell){ true, 102, 200, false, false, false, 1, 102, 102, 0, 101.9, 102.1 };
    cells[0].ci_lo = 99.9;
    cells[0].ci_hi = 100.1;
    row.band = 0.03;
    assert_int_equal(compare_verdict(&row, 1), CMP_NO_DIFFERENCE);
    row.band = 0.01;
    assert_int_equal(compare_verdict(&row, 1), CMP_SLOWER);
    cells[1].present = false;
    assert_int_equal(compare_verdict(&row, 1), CMP_NO_RATIO);
}

/* The first row matched by role, or NULL. */
static const struct cmp_row *role_row(const struct cmp_section *s)
{
    size_t j;
    for (j = 0; j < s->nrows; j++)
        if (s->rows[j].by_role)
            return &s->rows[j];
    return NULL;
}

/*
 * Finding 3: a 2-CPU and a 4-CPU run meet at "all other CPUs"; the points
 * only one has are listed under the table, not shown as rows of dashes.
 */
static void test_shapes_align_by_role(void **state)
{
    struct m_report *r[2] = { model_of("qemu-tcg-smp2-all.json", "A"),
                              model_of("qemu-tcg-smp4-all.json", "B") };
    struct cmp_model m;
    const struct cmp_section *s;
    const struct cmp_row *both, *only_b;
    char *text, line[400];
    (void)state;
    assert_true(compare_build(r, 2, &m));
    s = section(&m, "ipi_broadcast");
    both = row_of(s, "targets", 1, "mode", "unicast_each");
    only_b = row_of(s, "targets", 3, "mode", "unicast_each");
    assert_non_null(both);
    assert_non_null(only_b);
    assert_true(both->cells[0].present && both->cells[1].present);
    assert_false(only_b->cells[0].present);
    assert_true(only_b->cells[1].present);
    /* B's shorthand point has a row although A never measured shorthand */
    assert_non_null(row_of(s, "targets", 3, "mode", "shorthand"));
    assert_true(fabs(compare_ratio(both, 1) - both->cells[1].p50 / both->cells[0].p50) < 1e-12);
    assert_true(isnan(compare_ratio(only_b, 1)));

    assert_false(both->unmatched);
    assert_true(only_b->unmatched);
    /* targets=1 on 2 CPUs and targets=3 on 4 CPUs: both "all other CPUs" */
    assert_non_null(role_row(s));
    assert_ptr_equal(role_row(s)->vals[1], &compare_role_all_targets);
    assert_true(role_row(s)->cells[0].present && role_row(s)->cells[1].present);
    assert_true(isfinite(compare_ratio(role_row(s), 1)));

    text = render(&m, TABLE_TEXT);
    assert_non_null(line_with(text, "unicast_each  all other CPUs", "*", line, sizeof(line)));
    /* no row of dashes: B's extra points are a list */
    assert_null(line_with(text, "unicast_each               2", NULL, line, sizeof(line)));
    assert_non_null(line_with(text, "only in B (", "mode=shorthand targets=3", line,
                              sizeof(line)));
    assert_non_null(strstr(text, "no such point"));
    free(text);
    compare_free(&m);
    model_free(r[0]);
    model_free(r[1]);
}

static void test_ipi_grouped_by_class(void **state)
{
    struct m_report *r[2] = { model_of("synthetic-epyc7763-2s-hw.json", "A"),
                              model_of("qemu-tcg-smp4-all.json", "B") };
    struct cmp_model m;
    const struct cmp_section *s;
    (void)state;
    assert_true(compare_build(r, 2, &m));
    s = section(&m, "ipi_roundtrip");
    assert_true(s->by_class);
    assert_int_equal(s->nrows, 3);
    assert_string_equal(s->rows[0].cls, "smt_sibling");
    assert_string_equal(s->rows[1].cls, "same_package");
    assert_string_equal(s->rows[2].cls, "cross_package");
    assert_true(s->rows[0].cells[0].present);
    assert_false(s->rows[0].cells[1].present); /* QEMU has no SMT siblings */
    assert_true(s->rows[1].cells[1].present);
    /* nearer CPUs answer faster on the (synthetic) EPYC */
    assert_true(s->rows[0].cells[0].p50 < s->rows[1].cells[0].p50);
    assert_true(s->rows[1].cells[0].p50 < s->rows[2].cells[0].p50);
    compare_free(&m);
    model_free(r[0]);
    model_free(r[1]);
}

/*
 * x86 against aarch64 (issue 27): only the shared experiments get sections, ipi_roundtrip
 * as one pooled row of ns on both sides (2.596 GHz TSC ticks, 1 GHz counter ticks); the
 * rest, shootdown_lazy and ipi_broadcast of both included, is listed per side. aarch64
 * against itself compares everything.
 */
static void test_across_architectures(void **state)
{
    struct m_report *r[2] = { model_of("qemu-tcg-smp4-all.json", "A"),
                              model_of("arm64/qemu-aarch64-smp4.json", "B") };
    struct m_report *arm[2] = { model_of("arm64/qemu-aarch64-smp4.json", "A"),
                                model_of("arm64/qemu-aarch64-smp4.json", "B") };
    struct cmp_model m;
    const struct cmp_section *s;
    const char *ids[16];
    size_t n;
    (void)state;
    assert_string_equal(r[0]->architecture, "x86_64"); /* the file has no key */
    assert_true(r[1]->aarch64);
    assert_true(r[1]->tsc_hz == 1e9); /* cpu.counter_hz */
    assert_true(compare_build(r, 2, &m));
    assert_true(m.cross_arch && m.in_ns);
    assert_int_equal(m.nsections, 2);
    assert_string_equal(m.sections[0].id, "ipi_roundtrip");
    assert_string_equal(m.sections[1].id, "stale_detector_control");
    s = &m.sections[0];
    assert_int_equal(s->nrows, 1);
    assert_string_equal(s->rows[0].cls, "all_pairs");
    assert_true(s->rows[0].cells[0].present && s->rows[0].cells[1].present);
    /* aarch64's ~55 us round trip is 55000 ticks at 1 GHz, in ns as they are */
    assert_true(s->rows[0].cells[1].p50 > 40000 && s->rows[0].cells[1].p50 < 70000);
    n = compare_arch_only(&m, 0, ids, 16);
    assert_int_equal(n, 5);
    assert_string_equal(ids[2], "shootdown_lazy");
    n = compare_arch_only(&m, 1, ids, 16);
    assert_int_equal(n, 5);
    assert_string_equal(ids[0], "tlbi_broadcast_vs_ipi");
    assert_string_equal(ids[3], "shootdown_lazy");
    /* both sides have an ipi_broadcast, but x86's APIC modes are not the GIC's SGI modes */
    assert_string_equal(ids[4], "ipi_broadcast");
    compare_free(&m);
    assert_true(compare_build(arm, 2, &m));
    assert_false(m.cross_arch);
    assert_int_equal(m.nsections, 7);
    assert_int_equal(compare_arch_only(&m, 1, ids, 16), 0);
    compare_free(&m);
    model_free(r[0]);
    model_free(r[1]);
    model_free(arm[0]);
    model_free(arm[1]);
}

static void test_hardware_and_virtualised_flagged(void **state)
{
    struct m_report *r[2] = { model_of("synthetic-epyc7763-2s-hw.json", "A"),
                              model_of("qemu-tcg-smp2-all.json", "B") };
    struct cmp_model m;
    char *text, line[400];
    const struct cmp_section *s;
    (void)state;
    assert_true(compare_build(r, 2, &m));
    assert_true(m.mixed);
    assert_true(m.in_ns);
    s = section(&m, "invlpgb_range");
    assert_non_null(role_row(s)); /* cpus=16 and cpus=2: both "all CPUs" */
    assert_true(role_row(s)->cells[1].virtualised);
    assert_true(role_row(s)->cells[1].emulated);
    assert_false(role_row(s)->cells[0].virtualised);
    assert_string_equal(compare_flags(&role_row(s)->cells[1]), "virtualised+emulated");
    text = render(&m, TABLE_TEXT);
    assert_non_null(strstr(text, "[VIRTUALISED: TCGTCGTCGTCG] [EMULATED]"));
    assert_non_null(strstr(text, "WARNING: hardware report(s) A compared with virtualised or "));
    /* the emulated INVLPGB cells of B carry both marks */
    assert_non_null(line_with(text, "  invlpgb  ", "*~", line, sizeof(line)));
    /* PTI ran on A but was skipped by B, with the CPUID evidence as reason */
    assert_non_null(strstr(text, "B: SKIP: no PCID: CPUID.1:ECX[17]=0"));
    free(text);
    compare_free(&m);
    model_free(r[0]);
    model_free(r[1]);
}

static void test_two_virtualised_reports_are_not_mixed(void **state)
{
    struct m_report *r[2] = { model_of("qemu-tcg-smp2-all.json", "A"),
                              model_of("qemu-tcg-smp4-ipi.json", "B") };
    struct cmp_model m;
    char *text;
    (void)state;
    assert_true(compare_build(r, 2, &m));
    assert_false(m.mixed);
    text = render(&m, TABLE_TEXT);
    assert_null(strstr(text, "WARNING: hardware"));
    /* experiments only A ran still get a section, saying B lacks them */
    assert_non_null(strstr(text, "== shootdown_lazy"));
    assert_non_null(strstr(text, "B: not in this report"));
    free(text);
    compare_free(&m);
    model_free(r[0]);
    model_free(r[1]);
}

static size_t count_fields(const char *line)
{
    size_t n = 1;
    bool quoted = false;
    for (; *line && *line != '\r' && *line != '\n'; line++) {
        if (*line == '"')
            quoted = !quoted;
        else if (*line == ',' && !quoted)
            n++;
    }
    return n;
}

static void test_csv_shape(void **state)
{
    struct m_report *r[3] = { model_of("qemu-tcg-smp2-all.json", "A"),
                              model_of("qemu-tcg-smp4-all.json", "B"),
                              model_of("synthetic-epyc7763-2s-hw.json", "C") };
    struct cmp_model m;
    char *text, *p, line[600];
    size_t lines = 0, fields;
    (void)state;
    assert_true(compare_build(r, 3, &m));
    text = render(&m, TABLE_CSV);
    assert_true(strncmp(text, "experiment,point,unit,A_p50,A_p99,A_flags,B_p50,B_p99,B_flags,"
                              "B_over_A_p50,C_p50,C_p99,C_flags,C_over_A_p50\r\n", 87) == 0);
    fields = count_fields(text);
    assert_int_equal(fields, 14);
    for (p = text; *p; p = strchr(p, '\n') + 1) {
        assert_int_equal(count_fields(p), fields);
        lines++;
        if (!strchr(p, '\n'))
            break;
    }
    assert_true(lines > 100);
    /* a point only B has: A's and C's cells are empty, B's are numbers, unit ns */
    assert_non_null(line_with(text, "shootdown_seq_vs_conc,pages=1 mode=seq targets=3,ns,,,,",
                              NULL, line, sizeof(line)));
    assert_non_null(strstr(line, ",virtualised,"));
    free(text);
    compare_free(&m);
    model_free(r[0]);
    model_free(r[1]);
    model_free(r[2]);
}

static void test_markdown_shape(void **state)
{
    struct m_report *r[2] = { model_of("qemu-tcg-smp2-all.json", "A"),
                              model_of("synthetic-epyc7763-2s-hw.json", "B") };
    struct cmp_model m;
    char *text, line[400];
    static const char head[] = "# tlbscope comparison\n\n|  | file | machine | CPU |";
    (void)state;
    assert_true(compare_build(r, 2, &m));
    text = render(&m, TABLE_MARKDOWN);
    assert_true(strncmp(text, head, sizeof(head) - 1) == 0);
    assert_non_null(strstr(text, "> **WARNING:** hardware report(s) B"));
    assert_non_null(strstr(text, "\n## ipi_roundtrip: "));
    assert_non_null(line_with(text, "| class | A p50 | A p99 | B p50 | B p99 | B/A |", NULL, line,
                              sizeof(line)));
    assert_non_null(strstr(text, "| --- | --: | --: | --: | --: | --: |"));
    free(text);
    compare_free(&m);
    model_free(r[0]);
    model_free(r[1]);
}

static void test_ticks_when_a_frequency_is_unknown(void **state)
{
    struct m_report *r[2] = { model_of("qemu-tcg-smp2-all.json", "A"),
                              model_of("qemu-tcg-smp4-all.json", "B") };
    struct cmp_model m;
    const struct cmp_row *row;
    char *text;
    (void)state;
    r[1]->tsc_hz = 0; /* as a report with tsc_hz 0 loads */
    assert_true(compare_build(r, 2, &m));
    assert_false(m.in_ns);
    row = row_of(section(&m, "ipi_broadcast"), "targets", 1, "mode", "unicast_each");
    /* raw ticks, exactly as in the report */
    assert_true(row->cells[1].p50 ==
                model_primary_metric(&model_experiment(r[1], "ipi_broadcast")->results.items[0])
                    ->st.p50);
    text = render(&m, TABLE_TEXT);
    assert_non_null(strstr(text, "in TSC ticks: a rate is missing"));
    free(text);
    compare_free(&m);
    model_free(r[0]);
    model_free(r[1]);
}

static void test_summary_values(void **state)
{
    struct m_report *r[2] = { model_of("synthetic-epyc7763-2s-hw.json", "A"),
                              model_of("qemu-tcg-smp2-all.json", "B") };
    struct cmp_model m;
    const struct cmp_section *s;
    size_t i, found = 0;
    char *text, line[400];
    (void)state;
    assert_true(compare_build(r, 2, &m));
    /* seq vs conc: one row per (targets, pages, ratio); targets=15 only on A */
    s = section(&m, "shootdown_seq_vs_conc");
    for (i = 0; i < s->nvrows; i++) {
        const struct cmp_value_row *v = &s->vrows[i];
        if (strcmp(v->key, "conc_over_seq_p50") != 0)
            continue;
        found++;
        assert_false(isnan(v->v[0]));
        assert_true(v->v[0] > 0 && v->v[0] < 2);
    }
    assert_int_equal(found, 5 * 7); /* A: 5 target counts x 7 page counts */
    /* a control experiment records values, no times: no latency rows, a row per value */
    s = section(&m, "stale_detector_control");
    assert_int_equal(s->nrows, 0);
    assert_int_equal(s->nvrows, 4); /* 2 values x (cpus=2 on B, cpus=16 on A) */
    text = render(&m, TABLE_TEXT);
    assert_non_null(line_with(text, "16  stale_reads_without_invalidation", NULL, line,
                              sizeof(line)));
    assert_non_null(strstr(line, "  120   -")); /* A's count; B has no point with 16 CPUs */
    assert_non_null(line_with(text, " 2  stale_reads_without_invalidation", NULL, line,
                              sizeof(line)));
    assert_non_null(strstr(line, "  -  8*")); /* B is virtualised */
    free(text);
    compare_free(&m);
    model_free(r[0]);
    model_free(r[1]);
}

static struct m_report *model_of_doc(json_t *root)
{
    struct m_report *m = model_build(root, "doc.json");
    assert_non_null(m);
    return m;
}

/* No hypervisor, no emulation: only the simulation keys keep it from reading as hardware. */
static void test_simulated_is_never_hardware(void **state)
{
    struct m_report *sim = model_of("sim/sim-epyc7763-smp8.json", "A");
    struct m_report *hw = model_of("synthetic-epyc7763-2s-hw.json", "B");
    struct m_report *r;
    json_t *root;
    (void)state;
    assert_null(sim->hypervisor);
    assert_false(sim->virtualised);
    assert_false(sim->emulated);
    assert_true(sim->simulated);
    assert_false(compare_is_hardware(sim));
    assert_string_equal(sim->sim.model, "tlbscope strict TLB model");
    assert_string_equal(sim->sim.profile, "epyc-7763");
    assert_int_equal(sim->sim.seed, 12345);
    assert_int_equal(sim->sim.model_version, 1);
    assert_int_equal(sim->sim.tlb_ways, 8);
    assert_int_equal(json_array_size(sim->sim.errata), 0);
    /* reports written before the keys existed are not simulated */
    assert_false(hw->simulated);
    assert_true(compare_is_hardware(hw));
    /* a boot's report as the writer now writes it */
    root = fixture_document("synthetic-epyc7763-2s-hw.json");
    json_object_set_new(root, "simulated", json_false());
    json_object_set_new(root, "simulation", json_null());
    r = model_of_doc(root);
    assert_false(r->simulated);
    assert_true(compare_is_hardware(r));
    model_free(r);
    /* an invalid report with a simulation object but simulated false: simulated, to be safe */
    root = fixture_document("synthetic-epyc7763-2s-hw.json");
    json_object_set_new(root, "simulated", json_false());
    json_object_set_new(root, "simulation", json_pack("{s:s}", "profile", "epyc-7763"));
    r = model_of_doc(root);
    assert_true(r->simulated);
    assert_false(compare_is_hardware(r));
    model_free(r);
    model_free(sim);
    model_free(hw);
}

static void test_flags_words(void **state)
{
    struct cmp_cell c;
    (void)state;
    memset(&c, 0, sizeof(c));
    assert_string_equal(compare_flags(&c), "");
    c.simulated = true;
    assert_string_equal(compare_flags(&c), "simulated");
    c.emulated = true;
    assert_string_equal(compare_flags(&c), "simulated+emulated");
    c.simulated = false;
    c.virtualised = true;
    assert_string_equal(compare_flags(&c), "virtualised+emulated");
}

static void test_mixes_simulated(void **state)
{
    struct m_report *r[3] = { model_of("sim/sim-epyc7763-smp8.json", "A"),
                              model_of("sim/sim-epyc7763-smp8-seed2.json", "B"),
                              model_of("qemu-tcg-smp2-all.json", "C") };
    (void)state;
    assert_false(compare_mixes_simulated(r, 2));     /* simulated only */
    assert_true(compare_mixes_simulated(r, 3));      /* plus a QEMU report */
    assert_true(compare_mixes_simulated(r + 1, 2));  /* one of each */
    assert_false(compare_mixes_simulated(r + 2, 1)); /* no simulated report */
    model_free(r[0]);
    model_free(r[1]);
    model_free(r[2]);
}

/* cmd_compare / cmd_html on the given paths: exit status, standard output and error. */
static int run_command(bool html, char *const *paths, size_t n, enum table_format fmt,
                       char **out_text, char **err_text)
{
    size_t lo = 0, le = 0;
    FILE *out = open_memstream(out_text, &lo), *err = open_memstream(err_text, &le);
    int rc;
    assert_non_null(out);
    assert_non_null(err);
    rc = html ? cmd_html(paths, n, "-", out, err) : cmd_compare(paths, n, fmt, out, err);
    fclose(out);
    fclose(err);
    return rc;
}

static void test_simulated_with_others_refused(void **state)
{
    static const enum table_format formats[] = { TABLE_TEXT, TABLE_CSV, TABLE_MARKDOWN };
    char *mixed[] = { FIXTURES "synthetic-epyc7763-2s-hw.json", SIM };
    char *dir_mix[] = { FIXTURES, FIXTURES "sim" };
    char *out, *err;
    size_t i;
    (void)state;
    for (i = 0; i < 3; i++) {
        assert_int_equal(run_command(false, mixed, 2, formats[i], &out, &err), EXIT_USAGE);
        assert_string_equal(out, ""); /* nothing half-compared */
        assert_non_null(strstr(err, "tlbscope-report: " SIM ": simulated report (tlbscope-sim): "
                                    "simulated timings are the model's and can only be compared "
                                    "with other simulated reports\n"));
        assert_non_null(strstr(err, "(1 simulated, 1 not); nothing compared"));
        /* the hardware report is not the one blamed */
        assert_null(strstr(err, "synthetic-epyc7763-2s-hw.json: simulated"));
        free(out);
        free(err);
    }
    /* directories: the five reports of the fixture directory and the two simulated ones */
    assert_int_equal(run_command(false, dir_mix, 2, TABLE_TEXT, &out, &err), EXIT_USAGE);
    assert_non_null(strstr(err, SIM ": simulated report"));
    assert_non_null(strstr(err, SIM2 ": simulated report"));
    assert_non_null(strstr(err, "(2 simulated, 5 not)"));
    free(out);
    free(err);
    /* html charts them on shared axes: refused the same way, and no page */
    assert_int_equal(run_command(true, mixed, 2, TABLE_TEXT, &out, &err), EXIT_USAGE);
    assert_string_equal(out, "");
    assert_non_null(strstr(err, SIM ": simulated report (tlbscope-sim)"));
    assert_non_null(strstr(err, "nothing written"));
    free(out);
    free(err);
}

static void test_two_simulated_reports(void **state)
{
    struct m_report *r[2] = { model_of("sim/sim-epyc7763-smp8.json", "A"),
                              model_of("sim/sim-epyc7763-smp8-seed2.json", "B") };
    char *paths[] = { SIM, SIM2 };
    struct cmp_model m;
    const struct cmp_section *s;
    const struct cmp_row *row;
    char *text, *err, line[400];
    (void)state;
    assert_true(compare_build(r, 2, &m));
    assert_false(m.mixed); /* none is hardware: nothing to warn about mixing */
    s = section(&m, "ipi_broadcast");
    row = row_of(s, "targets", 1, "mode", "unicast_each");
    assert_non_null(row);
    assert_true(row->cells[0].simulated && row->cells[1].simulated);
    assert_false(row->cells[0].virtualised || row->cells[0].emulated);
    assert_string_equal(compare_flags(&row->cells[1]), "simulated");
    /* different seeds, different numbers */
    assert_true(row->cells[0].p50 != row->cells[1].p50);

    text = render(&m, TABLE_TEXT);
    assert_null(strstr(text, "WARNING: hardware"));
    assert_non_null(strstr(text, "  A  " SIM "\n"));
    assert_non_null(strstr(text, "     [SIMULATED: profile epyc-7763, seed 12345]\n"));
    assert_non_null(strstr(text, "  B  " SIM2 "\n"));
    assert_non_null(strstr(text, "     [SIMULATED: profile epyc-7763, seed 2]\n"));
    assert_non_null(strstr(text, "     machine  simulated by tlbscope-sim, model \"tlbscope strict "
                                 "TLB model\" v1,\n              profile epyc-7763, seed 12345\n"));
    assert_non_null(strstr(text, "SIMULATED: every report is simulated by tlbscope-sim"));
    assert_non_null(strstr(text, "^ simulated\n        (tlbscope-sim's model)"));
    /* every time cell is marked ^ and every ratio ? (neither report is hardware) */
    assert_non_null(line_with(text, "unicast_each        1", NULL, line, sizeof(line)));
    {
        size_t carets = 0;
        const char *p;
        for (p = line; *p; p++)
            carets += *p == '^';
        assert_int_equal(carets, 4);
    }
    assert_non_null(strstr(line, "?"));
    assert_null(strchr(line, '*'));
    assert_null(strchr(line, '~'));
    /* a derived value is marked too */
    assert_non_null(line_with(text, "stale_reads_without_invalidation", NULL, line, sizeof(line)));
    assert_non_null(strstr(line, "56^"));
    free(text);

    text = render(&m, TABLE_CSV);
    assert_non_null(line_with(text, "ipi_broadcast,mode=unicast_each targets=1,ns,", NULL, line,
                              sizeof(line)));
    assert_int_equal(count_fields(line), 10);
    assert_non_null(strstr(line, ",simulated,"));
    assert_null(strstr(text, ",,,\r")); /* cells present in both, flags never empty here */
    free(text);

    text = render(&m, TABLE_MARKDOWN);
    assert_non_null(
        strstr(text, "| none (simulated) | [SIMULATED: profile epyc-7763, seed 12345] |"));
    assert_non_null(strstr(text, "> **SIMULATED:** every report is simulated by tlbscope-sim"));
    assert_non_null(strstr(text, "^ simulated"));
    assert_non_null(line_with(text, "| unicast_each | 1 | ", NULL, line, sizeof(line)));
    assert_non_null(strchr(line, '^'));
    free(text);
    compare_free(&m);

    /* and through the command: accepted */
    assert_int_equal(run_command(false, paths, 2, TABLE_TEXT, &text, &err), EXIT_VALID);
    assert_string_equal(err, "");
    assert_non_null(strstr(text, "[SIMULATED: profile epyc-7763, seed 2]"));
    free(text);
    free(err);
    model_free(r[0]);
    model_free(r[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shapes_align_by_role),
        cmocka_unit_test(test_verdict_from_range),
        cmocka_unit_test(test_ipi_grouped_by_class),
        cmocka_unit_test(test_across_architectures),
        cmocka_unit_test(test_hardware_and_virtualised_flagged),
        cmocka_unit_test(test_two_virtualised_reports_are_not_mixed),
        cmocka_unit_test(test_csv_shape),
        cmocka_unit_test(test_markdown_shape),
        cmocka_unit_test(test_ticks_when_a_frequency_is_unknown),
        cmocka_unit_test(test_summary_values),
        cmocka_unit_test(test_simulated_is_never_hardware),
        cmocka_unit_test(test_flags_words),
        cmocka_unit_test(test_mixes_simulated),
        cmocka_unit_test(test_simulated_with_others_refused),
        cmocka_unit_test(test_two_simulated_reports),
    };
    return cmocka_run_group_tests_name("report_compare", tests, NULL, NULL);
}
