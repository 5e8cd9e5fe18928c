/*
 * tlbscope-report: the schema check. Valid fixtures pass; each defect is
 * reported at its JSON path with what is wrong; unknown keys are accepted.
 * Defects are made by editing a valid report in memory, so each test shows
 * exactly the one change it checks. Run from the repository root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "reports/tool/validate/diag.h"
#include "reports/tool/model/jget.h"
#include "reports/tool/model/load.h"
#include "reports/tool/validate/validate.h"
#include "core/run/bootstrap.h"
#include "tests/host/report_fixture.h"


/* Validates and checks that a message at `path` contains `needle`. */
static void expect_error(json_t *root, const char *path, const char *needle)
{
    struct diag_list d;
    size_t i;
    diag_init(&d);
    validate_report(root, &d);
    if (!diag_has(&d, path, needle)) {
        for (i = 0; i < d.count; i++)
            print_message("  got: %s: %s\n", d.items[i].path, d.items[i].text);
        diag_free(&d);
        fail_msg("no message at %s containing \"%s\"", path, needle);
    }
    assert_true(d.errors > 0);
    diag_free(&d);
}

static size_t errors_of(json_t *root)
{
    struct diag_list d;
    size_t n;
    diag_init(&d);
    n = validate_report(root, &d);
    diag_free(&d);
    return n;
}

static json_t *at(json_t *root, const char *dotted) { return (json_t *)jget_path(root, dotted); }

static json_t *result_point(json_t *root, size_t exp, size_t point)
{
    json_t *e = json_array_get(json_object_get(root, "experiments"), exp);
    return json_array_get(json_object_get(e, "results"), point);
}

static void test_fixtures_are_valid(void **state)
{
    static const char *const files[] = { "qemu-tcg-smp2-foundation.json", "qemu-tcg-smp4-ipi.json",
                                         "qemu-tcg-smp2-all.json", "qemu-tcg-smp4-all.json",
                                         "synthetic-epyc7763-2s-hw.json",
                                         "sim/sim-epyc7763-smp8.json",
                                         "sim/sim-epyc7763-smp8-seed2.json",
                                         "arm64/qemu-aarch64-smp4.json",
                                         "v3/sim-epyc7763-smp4-keep-samples.json" };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        json_t *root = fixture_document(files[i]);
        struct diag_list d;
        diag_init(&d);
        if (validate_report(root, &d))
            fail_msg("%s: %s: %s", files[i], d.items[0].path, d.items[0].text);
        diag_free(&d);
        json_decref(root);
    }
}

static void test_missing_keys(void **state)
{
    json_t *root = fixture_document("qemu-tcg-smp2-all.json");
    json_t *lat = json_object_get(json_object_get(result_point(root, 0, 0), "metrics"), "latency");
    (void)state;
    json_object_del(at(root, "cpu"), "tsc_hz");
    json_object_del(lat, "p50");
    json_object_del(at(root, "run.config"), "samples");
    expect_error(root, "cpu.tsc_hz", "missing required key");
    expect_error(root, "experiments[0].results[0].metrics.latency.p50", "missing required key");
    expect_error(root, "run.config.samples", "missing required key");
    json_object_del(root, "experiments");
    expect_error(root, "experiments", "missing required key");
    json_decref(root);
}

static void test_wrong_types(void **state)
{
    json_t *root = fixture_document("qemu-tcg-smp2-all.json");
    json_t *exp1 = json_array_get(json_object_get(root, "experiments"), 1);
    (void)state;
    json_object_set_new(at(root, "cpu"), "tsc_hz", json_string("2596224000"));
    json_object_set_new(at(root, "topology"), "cpu_count", json_real(2.0));
    json_object_set_new(exp1, "emulated", json_string("no"));
    json_object_set_new(json_object_get(result_point(root, 0, 1), "params"), "target",
                        json_pack("[i]", 0));
    json_object_set_new(at(root, "cpu.cpuid"), "1.eax", json_integer(0x663));
    json_object_set_new(at(root, "cpu"), "signature", json_string("663"));
    expect_error(root, "cpu.tsc_hz", "expected an integer, found a string");
    expect_error(root, "topology.cpu_count", "expected an integer, found a real number");
    expect_error(root, "experiments[1].emulated", "expected a boolean, found a string");
    expect_error(root, "experiments[0].results[1].params.target", "number or a string");
    expect_error(root, "cpu.cpuid[\"1.eax\"]", "expected a string");
    expect_error(root, "cpu.signature", "not a 64-bit hex identifier");
    json_decref(root);
}

static void test_nulls_where_not_allowed(void **state)
{
    json_t *root = fixture_document("qemu-tcg-smp2-all.json");
    json_t *pti = json_array_get(json_object_get(root, "experiments"), 4);
    (void)state;
    json_object_set_new(at(root, "run"), "id", json_null());
    json_object_set_new(pti, "reason", json_null()); /* a SKIP must say why */
    expect_error(root, "run.id", "is null, expected a string");
    expect_error(root, "experiments[4].reason", "SKIP needs a reason");
    json_decref(root);
}

static void test_statistics_order(void **state)
{
    json_t *root = fixture_document("qemu-tcg-smp2-all.json");
    json_t *lat = json_object_get(json_object_get(result_point(root, 2, 0), "metrics"), "latency");
    long long min = json_integer_value(json_object_get(lat, "min"));
    long long max = json_integer_value(json_object_get(lat, "max"));
    (void)state;
    json_object_set_new(lat, "p50", json_integer(min - 1));
    expect_error(root, "experiments[2].results[0].metrics.latency.p50", "below min");
    json_decref(root);

    root = fixture_document("qemu-tcg-smp2-all.json");
    lat = json_object_get(json_object_get(result_point(root, 2, 0), "metrics"), "latency");
    json_object_set_new(lat, "p99", json_integer(max + 1));
    expect_error(root, "experiments[2].results[0].metrics.latency.p99", "above max");
    json_object_set_new(lat, "p99", json_integer(min));
    expect_error(root, "experiments[2].results[0].metrics.latency.p99", "below p90");
    json_object_set_new(lat, "p99", json_integer(-5));
    expect_error(root, "experiments[2].results[0].metrics.latency.p99", "negative");
    json_decref(root);

    root = fixture_document("qemu-tcg-smp2-all.json");
    lat = json_object_get(json_object_get(result_point(root, 2, 0), "metrics"), "latency");
    json_object_set_new(lat, "n", json_integer(0));
    expect_error(root, "experiments[2].results[0].metrics.latency.min", "but n is 0");
    json_decref(root);

    /* issue 20: p90 and p99 may be absent (too few samples); those present are still ordered */
    root = fixture_document("qemu-tcg-smp2-all.json");
    lat = json_object_get(json_object_get(result_point(root, 2, 0), "metrics"), "latency");
    json_object_del(lat, "p99");
    json_object_del(lat, "p90");
    assert_int_equal(errors_of(root), 0);
    json_object_set_new(lat, "p50", json_integer(max));
    json_object_set_new(lat, "p99", json_integer(min));
    expect_error(root, "experiments[2].results[0].metrics.latency.p99", "below p50");
    json_object_set_new(lat, "p99", json_string("maximum"));
    expect_error(root, "experiments[2].results[0].metrics.latency.p99", "expected an integer");
    json_decref(root);
}

/*
 * Schema 3 (issue 31): every x86 metric with p50 carries p50_ci95, null only
 * below BOOT_MEDIAN_MIN_N samples, else an interval around p50 within
 * min..max; samples (keep_samples=on) are the metric's; method.bootstrap.
 * The fixture is a tlbscope-sim report with keep_samples=on.
 */
static void test_p50_intervals(void **state)
{
    const char *fixture = "v3/sim-epyc7763-smp4-keep-samples.json";
    const char *lat_path = "experiments[1].results[0].metrics.latency";
    char path[128];
    json_t *root = fixture_document(fixture), *lat, *ci;
    long long p50, min, max;
    (void)state;
    assert_int_equal(errors_of(root), 0);
    lat = json_object_get(json_object_get(result_point(root, 1, 0), "metrics"), "latency");
    ci = json_object_get(lat, "p50_ci95");
    p50 = json_integer_value(json_object_get(lat, "p50"));
    min = json_integer_value(json_object_get(lat, "min"));
    max = json_integer_value(json_object_get(lat, "max"));
    snprintf(path, sizeof(path), "%s.p50_ci95", lat_path);
    json_object_set_new(ci, "low", json_integer(p50 + 1));
    expect_error(root, path, "does not contain p50");
    json_object_set_new(ci, "low", json_integer(min - 1));
    json_object_set_new(ci, "high", json_integer(max));
    expect_error(root, path, "outside min..max");
    json_object_set_new(lat, "p50_ci95", json_null());
    expect_error(root, path, "null, but n is");
    json_object_del(lat, "p50_ci95");
    expect_error(root, path, "missing (required from schema_version 3");
    json_decref(root);

    /* too few samples for an interval: null, and an interval is wrong */
    root = fixture_document(fixture);
    lat = json_object_get(json_object_get(result_point(root, 1, 0), "metrics"), "latency");
    json_object_del(lat, "samples");
    json_object_set_new(lat, "n", json_integer(BOOT_MEDIAN_MIN_N - 1));
    snprintf(path, sizeof(path), "%s.p50_ci95", lat_path);
    expect_error(root, path, "below 6 no interval has 95% confidence");
    json_object_set_new(lat, "p50_ci95", json_null());
    assert_int_equal(errors_of(root), 0);
    json_decref(root);

    /* the samples are the metric's */
    root = fixture_document(fixture);
    lat = json_object_get(json_object_get(result_point(root, 1, 0), "metrics"), "latency");
    snprintf(path, sizeof(path), "%s.samples", lat_path);
    json_array_append_new(json_object_get(lat, "samples"), json_integer(p50)); /* n + 1 */
    expect_error(root, path, "samples, but n is");
    json_array_remove(json_object_get(lat, "samples"), 0);
    json_array_set_new(json_object_get(lat, "samples"), 0, json_integer(max + 1));
    expect_error(root, path, "are not the metric's");
    json_decref(root);

    /* method.bootstrap from version 3; before it, neither is required */
    root = fixture_document(fixture);
    json_object_del(at(root, "method"), "bootstrap");
    expect_error(root, "method.bootstrap", "missing");
    json_object_set_new(root, "schema_version", json_integer(2));
    lat = json_object_get(json_object_get(result_point(root, 1, 0), "metrics"), "latency");
    json_object_del(lat, "p50_ci95");
    assert_int_equal(errors_of(root), 0);
    json_decref(root);
}

static void test_vocabulary(void **state)
{
    json_t *root = fixture_document("qemu-tcg-smp2-all.json");
    json_t *cpu1 = json_array_get(at(root, "topology.cpus"), 1);
    (void)state;
    json_object_set_new(json_array_get(json_object_get(root, "experiments"), 1), "status",
                        json_string("PASSED"));
    json_object_set_new(cpu1, "state", json_string("sleeping"));
    json_object_set_new(at(root, "cpu"), "tsc_source", json_string("guess"));
    expect_error(root, "experiments[1].status", "unknown status word \"PASSED\"");
    expect_error(root, "topology.cpus[1].state", "unknown state word \"sleeping\"");
    expect_error(root, "cpu.tsc_source", "unknown tsc_source word");
    json_decref(root);
}

/* issue 35: an entry's unit is one of the app's words, or null: the atlas and the views print
 * it beside the value, so markup there would reach their pages */
static void test_recommendation_unit_vocabulary(void **state)
{
    json_t *root = fixture_document("bochs/bochs-skylake-x-smp2.json");
    json_t *entries = at(root, "recommendations.entries");
    (void)state;
    assert_true(json_array_size(entries) >= 2);
    assert_int_equal(errors_of(root), 0);
    json_object_set_new(json_array_get(entries, 0), "unit", json_null());
    json_object_set_new(json_array_get(entries, 1), "unit", json_string("ticks/page"));
    assert_int_equal(errors_of(root), 0);
    json_object_set_new(json_array_get(entries, 1), "unit",
                        json_string("pages<script>alert(1)</script>"));
    expect_error(root, "recommendations.entries[1].unit",
                 "unknown unit word \"pages<script>alert(1)</script>\" (expected pages, "
                 "percent, ticks or ticks/page)");
    json_decref(root);
}

static void test_topology_invariants(void **state)
{
    json_t *root = fixture_document("qemu-tcg-smp4-all.json");
    json_t *cpus = at(root, "topology.cpus");
    (void)state;
    json_object_set_new(at(root, "topology"), "cpu_count", json_integer(3));
    expect_error(root, "topology.cpu_count", "3, but cpus has 4 entries");
    json_object_set_new(at(root, "topology"), "cpu_count", json_integer(4));
    json_object_set_new(json_array_get(cpus, 2), "apic_id", json_integer(1));
    expect_error(root, "topology.cpus", "APIC ID 1 appears more than once");
    json_object_set_new(json_array_get(cpus, 2), "apic_id", json_integer(2));
    json_object_set_new(json_array_get(cpus, 3), "index", json_integer(7));
    expect_error(root, "topology.cpus[3].index", "dense");
    json_object_set_new(json_array_get(cpus, 3), "index", json_integer(3));
    json_object_set_new(json_array_get(cpus, 3), "state", json_string("hung"));
    /* a hung CPU needs a note, lowers cpus_ok, and makes the run partial and an ERROR */
    expect_error(root, "topology.cpus[3].note", "missing required key");
    expect_error(root, "topology.cpus_ok", "4, but 3 entries");
    expect_error(root, "run.status", "dropped out");
    expect_error(root, "result", "dropped out");
    json_decref(root);
}

/*
 * aarch64 (issue 27, contract A): its own sections, x86's invariants where they apply,
 * and an x86 report read as aarch64 fails rather than passing by accident.
 */
static void test_aarch64_report(void **state)
{
    json_t *root = fixture_document("arm64/qemu-aarch64-smp4.json");
    json_t *cpus = at(root, "topology.cpus"), *x86;
    json_t *e1 = json_array_get(json_object_get(root, "experiments"), 1);
    json_t *ctl = json_array_get(json_object_get(root, "experiments"), 5);
    char path[80];
    size_t n;
    (void)state;
    assert_int_equal(errors_of(root), 0);
    json_object_set_new(json_array_get(cpus, 3), "state", json_string("faulted"));
    expect_error(root, "topology.cpus[3].note", "missing required key");
    expect_error(root, "topology.cpus_ok", "4, but 3 entries");
    expect_error(root, "result", "dropped out");
    json_object_set_new(json_array_get(cpus, 3), "state", json_string("ok"));
    json_object_set_new(json_array_get(cpus, 3), "bring_up", json_string("bsp"));
    expect_error(root, "topology.cpus[3].bring_up", "\"bsp\" on a CPU that is not the BSP");
    json_object_set_new(json_array_get(cpus, 3), "bring_up", json_string("psci"));
    json_object_set_new(at(root, "method"), "tlbi_el", json_string("el2"));
    expect_error(root, "method.tlbi_el", "runs at EL1");
    json_object_set_new(at(root, "method"), "tlbi_el", json_string("el1"));
    json_object_set_new(e1, "emulated", json_false());
    expect_error(root, "experiments[1].emulated", "a report with a hypervisor");
    json_object_set_new(e1, "emulated", json_true());
    /* flush_ceiling's points name its mode (not x86's) and have its three metrics */
    e1 = json_deep_copy(e1);
    json_object_set_new(e1, "id", json_string("flush_ceiling"));
    json_object_set_new(json_array_get(json_object_get(e1, "results"), 0), "params",
                        json_pack("{s:s, s:i}", "mode", "invlpg", "pages", 1));
    json_array_append_new(json_object_get(root, "experiments"), e1);
    n = json_array_size(json_object_get(root, "experiments")) - 1;
    snprintf(path, sizeof(path), "experiments[%zu].results[0].params.mode", n);
    expect_error(root, path, "invlpg");
    snprintf(path, sizeof(path), "experiments[%zu].results[1].metrics.with_refill", n);
    expect_error(root, path, "missing required key");
    json_array_remove(json_object_get(root, "experiments"), n);
    /* the control's stale reads are its SUCCESS; anywhere else they are a FAILURE */
    assert_int_equal(errors_of(root), 0);
    json_object_set_new(ctl, "id", json_string("tlbi_concurrent"));
    expect_error(root, "experiments[5].status", "a stale read is a FAILURE");
    json_decref(root);
    /* an x86 report labelled aarch64: its x86 sections do not pass as aarch64's */
    x86 = fixture_document("qemu-tcg-smp4-all.json");
    assert_int_equal(errors_of(x86), 0);
    json_object_set_new(x86, "architecture", json_string("x86_64"));
    assert_int_equal(errors_of(x86), 0);
    json_object_set_new(x86, "architecture", json_string("aarch64"));
    expect_error(x86, "cpu.midr", "missing required key");
    expect_error(x86, "experiments[0].unit", "\"tsc_ticks\" is not the unit of an aarch64");
    json_object_set_new(x86, "architecture", json_string("arm"));
    expect_error(x86, "architecture", "expected x86_64 or aarch64");
    assert_int_equal(errors_of(x86), 1);
    json_decref(x86);
}

static void test_result_is_most_severe(void **state)
{
    json_t *root = fixture_document("qemu-tcg-smp2-all.json"); /* result SKIP: pti was skipped */
    (void)state;
    json_object_set_new(root, "result", json_string("SUCCESS"));
    expect_error(root, "result", "less severe than experiments[4].status SKIP");
    json_object_set_new(root, "result", json_string("SKIP"));
    json_array_append_new(at(root, "run.errors"),
                          json_pack("{s:s,s:s}", "where", "cpu 1", "message", "timeout"));
    expect_error(root, "result", "run.errors is not empty");
    json_decref(root);
}

static void test_unknown_keys_are_accepted(void **state)
{
    json_t *root = fixture_document("qemu-tcg-smp2-all.json");
    json_t *e0 = json_array_get(json_object_get(root, "experiments"), 0);
    (void)state;
    json_object_set_new(root, "future_section", json_pack("{s:i}", "x", 1));
    json_object_set_new(at(root, "cpu"), "microarchitecture", json_string("zen3"));
    json_object_set_new(e0, "histogram", json_pack("[i,i,i]", 1, 2, 3));
    json_object_set_new(at(root, "cpu.cpuid"), "1f.0.eax", json_string("0x1"));
    assert_int_equal(errors_of(root), 0);
    /* an unknown key must still hold the right kind of value where the schema says so */
    json_object_set_new(at(root, "cpu.cpuid"), "1f.0.ebx", json_string("zen"));
    expect_error(root, "cpu.cpuid[\"1f.0.ebx\"]", "not a 64-bit hex identifier");
    json_decref(root);
}

static void test_stale_reads_checked(void **state)
{
    json_t *root = fixture_document("qemu-tcg-smp2-all.json");
    json_t *ctl = json_array_get(json_object_get(root, "experiments"), 6);
    json_t *v = json_object_get(ctl, "verification");
    json_t *s0 = json_array_get(json_object_get(v, "stale"), 0);
    (void)state;
    assert_string_equal(json_string_value(json_object_get(ctl, "id")), "stale_detector_control");
    json_object_set_new(s0, "cpu", json_integer(9));
    expect_error(root, "experiments[6].verification.stale[0].cpu", "not a CPU of this report");
    json_object_set_new(s0, "cpu", json_integer(1));
    json_object_set_new(v, "stale_reads", json_integer(0));
    expect_error(root, "experiments[6].verification.stale", "lists 1 reads, but stale_reads is 0");
    json_decref(root);
}

static void test_duplicate_experiment_id(void **state)
{
    json_t *root = fixture_document("qemu-tcg-smp2-all.json");
    json_t *list = json_object_get(root, "experiments");
    (void)state;
    json_object_set_new(json_array_get(list, 3), "id", json_string("ipi_roundtrip"));
    expect_error(root, "experiments[3].id", "already names experiments[0]");
    json_decref(root);
}

static void test_many_problems_are_capped(void **state)
{
    json_t *root = fixture_document("synthetic-epyc7763-2s-hw.json");
    json_t *cpus = at(root, "topology.cpus");
    struct diag_list d;
    size_t i;
    (void)state;
    for (i = 0; i < json_array_size(cpus); i++)
        json_object_set_new(json_array_get(cpus, i), "package", json_string("zero"));
    diag_init(&d);
    assert_true(validate_report(root, &d) >= json_array_size(cpus));
    assert_int_equal(d.count, DIAG_MAX_KEPT);
    assert_true(d.dropped > 0);
    assert_true(diag_has(&d, "topology.cpus[0].package", "expected an integer"));
    diag_free(&d);
    json_decref(root);
}

/* A simulated report names its model; without one, or with a wrong type, each field is named. */
static void test_simulation_required_when_simulated(void **state)
{
    json_t *root = fixture_document("sim/sim-epyc7763-smp8.json");
    json_t *sim = at(root, "simulation");
    (void)state;
    assert_true(json_is_object(sim));
    assert_int_equal(errors_of(root), 0);
    json_object_set_new(root, "simulation", json_null());
    expect_error(root, "simulation", "is null, but simulated is true");
    json_object_del(root, "simulation");
    expect_error(root, "simulation", "missing, but simulated is true");
    json_object_set_new(root, "simulation", json_string("epyc-7763"));
    expect_error(root, "simulation", "expected an object, found a string");
    json_decref(root);

    root = fixture_document("sim/sim-epyc7763-smp8.json");
    sim = at(root, "simulation");
    json_object_del(sim, "model");
    json_object_set_new(sim, "model_version", json_real(1.5));
    json_object_del(sim, "profile");
    json_object_set_new(sim, "seed", json_string("12345"));
    json_object_set_new(sim, "errata", json_pack("[s,i]", "tlbsync_early", 7));
    json_object_set_new(sim, "tlb_ways", json_integer(0));
    json_object_set_new(sim, "profile_cpu", json_integer(7763));
    expect_error(root, "simulation.model", "missing required key");
    expect_error(root, "simulation.model_version", "expected an integer, found a real number");
    expect_error(root, "simulation.profile", "missing required key");
    expect_error(root, "simulation.seed", "expected an integer, found a string");
    expect_error(root, "simulation.errata[1]", "expected a string, found an integer");
    expect_error(root, "simulation.tlb_ways", "0 is out of range");
    expect_error(root, "simulation.profile_cpu", "expected a string or null");
    json_object_set_new(sim, "errata", json_string("none"));
    expect_error(root, "simulation.errata", "expected an array, found a string");
    json_object_set_new(sim, "seed", json_integer(-1));
    expect_error(root, "simulation.seed", "-1 is negative");
    json_decref(root);

    root = fixture_document("sim/sim-epyc7763-smp8.json");
    json_object_set_new(root, "simulated", json_string("yes"));
    expect_error(root, "simulated", "expected a boolean, found a string");
    json_object_set_new(root, "simulated", json_null());
    expect_error(root, "simulated", "is null, expected a boolean");
    json_decref(root);
}

/*
 * method.pcid_reason and method.pcid_erratum (the INVLPG/global erratum):
 * optional, so the fixtures written before them still pass; when present,
 * their parts must agree with each other and with method.pcid_enabled.
 * simulation.microcode, microcode_source and la57 the same way; la57 needs
 * 5-level tables.
 */
static void test_pcid_erratum_and_microcode(void **state)
{
    json_t *root = fixture_document("sim/sim-epyc7763-smp8.json"), *m, *e;
    (void)state;
    m = at(root, "method");
    assert_null(json_object_get(m, "pcid_reason")); /* an older report: still valid */
    assert_int_equal(errors_of(root), 0);
    e = json_pack("{s:s, s:s, s:s, s:s, s:s, s:b, s:s}", "id", "invlpg_global_pcid", "cpu",
                  "06-97-02", "model_name", "Alder Lake (ALDERLAKE)", "microcode", "0x12",
                  "fixed_microcode", "0x2e", "affected", 1, "source", "Linux");
    json_object_set_new(m, "pcid_erratum", e);
    json_object_set_new(m, "pcid_reason", json_string("off: erratum invlpg_global_pcid ..."));
    json_object_set_new(m, "pcid_enabled", json_false());
    json_object_del(m, "kernel_pcid");
    json_object_del(m, "user_pcid");
    assert_int_equal(errors_of(root), 0);
    json_object_set_new(m, "pcid_enabled", json_true());
    json_object_set_new(m, "kernel_pcid", json_string("0x1"));
    json_object_set_new(m, "user_pcid", json_string("0x801"));
    expect_error(root, "method.pcid_enabled", "true on a CPU with erratum invlpg_global_pcid");
    json_object_set_new(e, "affected", json_false());
    expect_error(root, "method.pcid_erratum.affected", "false, but the microcode 0x12 is below");
    json_object_set_new(e, "microcode", json_string("0x2e"));
    assert_int_equal(errors_of(root), 0);
    json_object_set_new(e, "microcode", json_null()); /* unknown counts as below the fix */
    expect_error(root, "method.pcid_erratum.affected", "the microcode (unknown) is below");
    json_object_set_new(e, "microcode", json_string("0x2e"));
    json_object_set_new(e, "id", json_string("other"));
    expect_error(root, "method.pcid_erratum.id", "expected \"invlpg_global_pcid\"");
    json_object_set_new(e, "id", json_string("invlpg_global_pcid"));
    json_object_set_new(m, "pcid_reason", json_integer(1));
    expect_error(root, "method.pcid_reason", "expected a string or null");
    json_object_set_new(m, "pcid_reason", json_null());
    json_object_set_new(m, "pcid_erratum", json_null());
    assert_int_equal(errors_of(root), 0);

    e = at(root, "simulation");
    json_object_set_new(e, "microcode", json_string("0xa00111d"));
    json_object_set_new(e, "microcode_source", json_string("--microcode"));
    json_object_set_new(e, "la57", json_false());
    assert_int_equal(errors_of(root), 0);
    json_object_set_new(e, "la57", json_true());
    expect_error(root, "simulation.la57", "method.paging_levels is 4, not 5");
    json_object_set_new(m, "paging_levels", json_integer(5));
    assert_int_equal(errors_of(root), 0);
    json_object_set_new(e, "microcode", json_integer(0x12));
    expect_error(root, "simulation.microcode", "expected a string");
    json_decref(root);
}

/* The simulator's timebase and its run-time keys: valid where they belong, and only there. */
static void test_simulator_keys(void **state)
{
    json_t *root = fixture_document("sim/sim-epyc7763-smp8.json"), *boot;
    (void)state;
    json_object_set_new(at(root, "cpu"), "tsc_source", json_string("host_clock"));
    json_object_set_new(at(root, "simulation"), "cpuid_override",
                        json_string("80000008.edx[15:0] = 4 (--invlpgb-max 5)"));
    json_object_set_new(at(root, "method"), "test_mappings", json_string("global"));
    json_object_set_new(at(root, "run.config"), "global_pages", json_true());
    json_object_set_new(at(root, "run.config"), "pti", json_false());
    assert_int_equal(errors_of(root), 0);
    json_object_set_new(at(root, "simulation"), "cpuid_override", json_integer(4));
    expect_error(root, "simulation.cpuid_override", "expected a string or null");
    json_object_set_new(at(root, "method"), "test_mappings", json_string("kernel"));
    expect_error(root, "method.test_mappings", "kernel");
    json_object_set_new(at(root, "run.config"), "pti", json_string("on"));
    expect_error(root, "run.config.pti", "expected a boolean, found a string");
    json_decref(root);
    boot = fixture_document("qemu-tcg-smp2-all.json");
    json_object_set_new(at(boot, "cpu"), "tsc_source", json_string("host_clock"));
    expect_error(boot, "cpu.tsc_source", "is not simulated");
    json_decref(boot);
}

static void test_simulation_only_when_simulated(void **state)
{
    json_t *root = fixture_document("qemu-tcg-smp2-all.json"); /* written before the keys existed */
    json_t *sim = json_pack("{s:s,s:i,s:s,s:i,s:[]}", "model", "tlbscope strict TLB model",
                            "model_version", 1, "profile", "epyc-7763", "seed", 1, "errata");
    (void)state;
    assert_null(json_object_get(root, "simulated"));
    assert_int_equal(errors_of(root), 0);
    /* what the writer puts in a report from a boot */
    json_object_set_new(root, "simulated", json_false());
    json_object_set_new(root, "simulation", json_null());
    assert_int_equal(errors_of(root), 0);
    json_object_set(root, "simulation", sim);
    expect_error(root, "simulation", "is an object, but simulated is false");
    json_object_del(root, "simulated");
    expect_error(root, "simulation", "is an object, but simulated is absent");
    json_object_set_new(root, "simulation", json_integer(1));
    expect_error(root, "simulation", "expected an object or null, found an integer");
    /* true with the object: valid; other keys in it are the writer's to add */
    json_object_set_new(root, "simulated", json_true());
    json_object_set_new(sim, "host_threads", json_integer(8));
    json_object_set(root, "simulation", sim);
    assert_int_equal(errors_of(root), 0);
    json_decref(sim);
    json_decref(root);
}

static void test_broken_fixture_files(void **state)
{
    static const struct {
        const char *file, *path, *needle;
    } cases[] = {
        { "missing-keys.json", "topology.cpus[1].state", "missing required key" },
        { "wrong-types.json", "cpu.tsc_hz", "expected an integer" },
        { "p50-below-min.json", "experiments[0].results[1].metrics.latency.p50", "below min" },
        { "p99-above-max.json", "experiments[2].results[0].metrics.latency.p99", "above max" },
        { "cpu-count-mismatch.json", "topology.cpu_count", "but cpus has 2 entries" },
        { "unknown-status.json", "experiments[1].status", "unknown status word" },
        { "simulated-without-simulation.json", "simulation", "is null, but simulated is true" },
        { "simulation-seed-not-integer.json", "simulation.seed", "expected an integer" },
    };
    size_t i;
    char name[128];
    (void)state;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        snprintf(name, sizeof(name), "broken/%s", cases[i].file);
        json_t *root = fixture_document(name);
        expect_error(root, cases[i].path, cases[i].needle);
        json_decref(root);
    }
}

/*
 * An empty list of experiments: an error when experiments= selected some and
 * run.errors does not say why nothing ran (core/run/runner.c records that error);
 * a warning only for the earliest reports ("all", before experiments existed).
 */
static void test_empty_experiment_list(void **state)
{
    json_t *root = fixture_document("qemu-tcg-smp2-all.json");
    struct diag_list d;
    (void)state;
    json_array_clear(json_object_get(root, "experiments"));
    json_object_set_new(root, "result", json_string("SUCCESS"));
    json_object_set_new(at(root, "run"), "status", json_string("complete"));
    json_object_set_new(at(root, "run.config"), "experiments", json_pack("[s]", "shootdown_lazy"));
    expect_error(root, "experiments", "is empty, but run.config.experiments selects 1");
    /* the runner's error explains it, and makes the run an ERROR: valid */
    json_array_append_new(at(root, "run.errors"),
                          json_pack("{s:s, s:s}", "where", "experiments", "message",
                                    "experiments= names none of the 7 experiments: nothing was measured"));
    json_object_set_new(root, "result", json_string("ERROR"));
    assert_int_equal(errors_of(root), 0);
    /* "all" with nothing recorded: the pre-experiment reports, valid with a warning */
    json_array_clear(at(root, "run.errors"));
    json_object_set_new(root, "result", json_string("SUCCESS"));
    json_array_clear(at(root, "run.config.experiments"));
    diag_init(&d);
    assert_int_equal(validate_report(root, &d), 0);
    assert_true(diag_has(&d, "experiments", "is empty: the run measured nothing"));
    diag_free(&d);
    json_decref(root);
}

/* experiments[].plan (run_budget_s): a plan that contradicts itself or its status. */
/* ipi_target_state's residency evidence (issue 21): one of four verdicts, never without a reason */
static void test_residency_verdicts(void **state)
{
    json_t *root = fixture_document("qemu-tcg-smp2-all.json");
    json_t *params = json_object_get(result_point(root, 0, 0), "params");
    (void)state;
    json_object_set_new(params, "residency", json_string("unverified"));
    json_object_set_new(params, "residency_reason",
                        json_string("MSR 0x3fd (core C6 residency) not readable: exception 13"));
    assert_int_equal(errors_of(root), 0);
    json_object_set_new(params, "residency", json_string("partly_reached")); /* issue 32 */
    assert_int_equal(errors_of(root), 0);
    json_object_set_new(params, "residency", json_string("probably"));
    expect_error(root, "experiments[0].results[0].params.residency",
                 "expected reached, partly_reached, demoted");
    json_object_set_new(params, "residency", json_string("reached"));
    json_object_del(params, "residency_reason");
    expect_error(root, "experiments[0].results[0].params.residency_reason", "needs its reason");
    json_decref(root);
}

/* ipi_target_state's ring3_loop point: labelled, its CPL 3 count never above its pings */
static void test_ring3_point(void **state)
{
    json_t *root = fixture_document("qemu-tcg-smp2-all.json");
    json_t *p = result_point(root, 0, 0), *params = json_object_get(p, "params");
    json_t *values = json_pack("{s:i,s:i}", "interrupted_cpl3", 12, "pings", 12);
    (void)state;
    json_object_set_new(params, "state", json_string("ring3_loop"));
    json_object_set_new(params, "target_context", json_string("ring3_loop"));
    json_object_set_new(p, "values", values);
    assert_int_equal(errors_of(root), 0);
    json_object_set_new(values, "interrupted_cpl3", json_integer(13));
    expect_error(root, "experiments[0].results[0].values", "interrupted_cpl3 <= pings");
    json_object_set_new(values, "interrupted_cpl3", json_integer(12));
    json_object_set_new(params, "target_context", json_string("ring0"));
    expect_error(root, "experiments[0].results[0].params.target_context", "ring3_loop");
    json_object_del(params, "target_context");
    expect_error(root, "experiments[0].results[0].params.target_context", "says target_context");
    json_decref(root);
}

static void test_plan_checks(void **state)
{
    json_t *root = fixture_document("qemu-tcg-smp2-all.json");
    json_t *e = json_array_get(json_object_get(root, "experiments"), 0);
    json_t *plan = json_pack("{s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:s,s:i,s:i,s:n,s:i,s:i,s:i,s:i,"
                             "s:i,s:[s],s:b,s:b,s:s}",
                             "pilot_ms", 300, "samples_min", 150, "samples_max", 200, "replans", 1, "share_ms", 9000, "estimate_ms", 8000, "full_estimate_ms", 90000,
                             "floor", 50, "samples_configured", 1000, "samples", 200, "warmup",
                             20, "rows_name", "pairs", "rows_configured", 1, "rows", 1,
                             "cols_name", "cols_configured", 2, "cols", 2, "points_planned", 2,
                             "samples_planned", 400, "samples_achieved", 400, "reduced",
                             "samples", "fits", 1, "measured", 1, "reason", "reduced: samples 1000 -> 200");
    (void)state;
    assert_non_null(plan);
    json_object_set(e, "plan", plan);
    assert_int_equal(errors_of(root), 0);
    json_object_set_new(e, "plan", json_null()); /* not planned */
    assert_int_equal(errors_of(root), 0);
    json_object_set_new(e, "plan", plan);
    json_object_set_new(plan, "samples", json_integer(1200));
    expect_error(root, "experiments[0].plan.samples", "more than samples_configured");
    json_object_set_new(plan, "samples", json_integer(20));
    expect_error(root, "experiments[0].plan.samples", "below the floor");
    json_object_set_new(plan, "samples", json_integer(200));
    json_object_set_new(plan, "samples_min", json_integer(201));
    expect_error(root, "experiments[0].plan.samples_min", "more than samples");
    json_object_set_new(plan, "samples_min", json_integer(150));
    json_object_set_new(plan, "samples_max", json_integer(1001));
    expect_error(root, "experiments[0].plan.samples_max", "more than samples_configured");
    json_object_set_new(plan, "samples_max", json_integer(200));
    json_object_set_new(plan, "samples_achieved", json_integer(401));
    expect_error(root, "experiments[0].plan.samples_achieved", "more than points_planned x samples_max");
    json_object_set_new(plan, "samples_achieved", json_integer(400));
    json_object_set_new(plan, "measured", json_false());
    expect_error(root, "experiments[0].plan.measured", "plan fits its share");
    json_object_set_new(plan, "fits", json_false());
    expect_error(root, "experiments[0].plan.measured", "not ERROR");
    json_object_set_new(plan, "measured", json_true());
    assert_int_equal(errors_of(root), 0); /* over its share, measured at the floor: valid */
    json_object_set_new(plan, "fits", json_true());
    json_array_append_new(json_object_get(plan, "reduced"), json_string("pages"));
    expect_error(root, "experiments[0].plan.reduced", "not one of samples, rows, cols");
    json_decref(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixtures_are_valid),
        cmocka_unit_test(test_missing_keys),
        cmocka_unit_test(test_wrong_types),
        cmocka_unit_test(test_nulls_where_not_allowed),
        cmocka_unit_test(test_statistics_order),
        cmocka_unit_test(test_p50_intervals),
        cmocka_unit_test(test_vocabulary),
        cmocka_unit_test(test_recommendation_unit_vocabulary),
        cmocka_unit_test(test_topology_invariants),
        cmocka_unit_test(test_result_is_most_severe),
        cmocka_unit_test(test_aarch64_report),
        cmocka_unit_test(test_unknown_keys_are_accepted),
        cmocka_unit_test(test_stale_reads_checked),
        cmocka_unit_test(test_duplicate_experiment_id),
        cmocka_unit_test(test_many_problems_are_capped),
        cmocka_unit_test(test_simulation_required_when_simulated),
        cmocka_unit_test(test_simulation_only_when_simulated),
        cmocka_unit_test(test_simulator_keys),
        cmocka_unit_test(test_pcid_erratum_and_microcode),
        cmocka_unit_test(test_broken_fixture_files),
        cmocka_unit_test(test_empty_experiment_list),
        cmocka_unit_test(test_plan_checks),
        cmocka_unit_test(test_residency_verdicts),
        cmocka_unit_test(test_ring3_point),
    };
    return cmocka_run_group_tests_name("report_validate", tests, NULL, NULL);
}
