/*
 * A loaded report as the views (show, compare, html) use it: the machine's
 * identity, its CPUs and the experiments with their points, in C structures.
 *
 * Built tolerantly: a member that is missing or of the wrong type reads as
 * absent (NULL string, NaN number), so the views can run even on a report
 * that failed validation. Strings point into the jansson document, which the
 * model owns.
 */
#ifndef TLBSCOPE_REPORT_MODEL_H
#define TLBSCOPE_REPORT_MODEL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* A TSC rate outside this range is not a real one (tsc_hz=1 made 18,226 ticks 5 hours). */
#define TSC_HZ_PLAUSIBLE_MIN 100000000LL    /* 100 MHz */
#define TSC_HZ_PLAUSIBLE_MAX 10000000000LL  /* 10 GHz */

struct m_stats {
    bool present;
    /* TSC ticks; p90 NaN below 10 samples and p99 below 100, whatever the file holds (the
     * maximum is all nearest rank gives there: core/lib/stats.h) */
    double n, min, p50, p90, p99, max, mean;
    /* p50_ci95 (schema 3): the 95% interval of p50 from the point's own samples; NaN when
     * absent (older reports, fewer than 6 samples) */
    double p50_lo, p50_hi;
};

struct m_param {
    const char *key;
    const char *str; /* string value, or NULL for a number */
    double num;
};

struct m_metric {
    const char *name;
    struct m_stats st;
};

struct m_value {
    const char *key;
    double v;
};

struct m_point {
    struct m_param *params;
    size_t nparams;
    struct m_metric *metrics;
    size_t nmetrics;
    struct m_value *values;
    size_t nvalues;
    const json_t *class_mix; /* the targets' classes (issue 32), borrowed from the report; or NULL */
};

struct m_points {
    struct m_point *items;
    size_t count;
};

struct m_experiment {
    const char *id, *title, *status, *reason;
    const char *x_axis, *series; /* parameter names, or NULL */
    bool emulated, partial;
    double duration_ms;
    bool verif_applicable;
    double checks, stale_reads;
    const json_t *notes; /* array of strings, or NULL */
    const json_t *json;  /* the experiment's object, for sections the model does not copy */
    struct m_points results, summary;
    /* parameters this (older) report lacked, given their documented default for compare
     * (param_defaults.h); static strings */
#define M_MAX_DEFAULTED 4
    const char *defaulted[M_MAX_DEFAULTED];
    size_t ndefaulted;
    /* a parameter naming a CPU that compare matched as a role (cpu_roles.h): its key (NULL:
     * none), whether its values became ranks, and the CPUs this report named ("1, 3") */
    const char *cpu_role;
    bool cpu_role_ranked;
    char cpu_role_cpus[40];
};

struct m_cpu {
    long long index, apic_id, package, core, thread, numa_node; /* -1 when unknown */
    bool bsp;
    const char *state, *note;
};

/*
 * What tlbscope-sim says about the model that produced a simulated report
 * (the top-level "simulation" object). Its timings are the model's.
 */
struct m_simulation {
    const char *model, *profile, *profile_cpu; /* NULL when absent */
    long long model_version, seed, tlb_sets, tlb_ways; /* -1 when absent */
    const json_t *errata; /* array of strings, or NULL */
};

struct m_report {
    char *path;
    char label[24]; /* the side's name ("EPYC-7763", "A"), "#2" after a later run's: the caller's */
    json_t *root;

    const char *run_id, *result, *run_status, *start_time, *gen_version, *gen_commit;
    double duration_ms;
    const json_t *errors, *warnings; /* arrays of {where, message}, or NULL */

    /* firmware */
    const char *fw_vendor, *fw_revision, *uefi_version, *secure_boot;
    const char *bios_vendor, *bios_version, *bios_date;
    const char *sys_manufacturer, *sys_product, *board_product;

    /*
     * "x86_64" or "aarch64" (reports/SCHEMA.md "architecture"; a report written
     * before issue 27 has no key and is x86_64), or what an unknown file says.
     * On aarch64, tsc_hz holds cpu.counter_hz (CNTVCT_EL0's rate, the unit of
     * its counter_ticks) so that every view's ns conversion stays one function.
     */
    const char *architecture;
    bool aarch64;
    const char *midr, *implementer, *implementer_name, *psci_conduit, *ipi_method, *tlbi_el;
    const char *hypervisor_source;
    long long exception_level, gic_version;

    /* cpu */
    const char *vendor, *brand, *signature, *microcode, *hypervisor, *tsc_source;
    long long family, model, stepping;
    bool microcode_uniform;
    double tsc_hz; /* 0 when unknown */
    const json_t *features; /* object of flags, or NULL */

    /* topology */
    long long cpu_count, cpus_ok;
    const char *mp_note;
    struct m_cpu *cpus;
    size_t ncpus;

    /* method */
    const char *apic_mode, *page_flush, *full_flush, *profile;
    bool pcid_enabled;
    long long flush_ceiling, samples;

    struct m_experiment *experiments;
    size_t nexperiments;
    /* the experiments that have an id, sorted by it (ties: report order): model_experiment */
    const struct m_experiment **by_id;
    size_t nby_id;

    struct m_simulation sim; /* meaningful when `simulated` */

    /*
     * What identifies the machine (reports/SCHEMA.md, "Identifying fields"):
     * `show` prints it; compare and html only group reports by it and never
     * print it. In a redacted report these are tokens.
     */
    const char *serial, *uuid;   /* firmware.smbios.system.*, NULL when absent, null or "" */
    char *machine_key;           /* the identifying values joined; NULL when there are none */
    bool redacted;               /* a "redaction" record says so */
    bool redaction_keyed;        /* its tokens are keyed (HMAC), not random */
    const char *redaction_by;    /* who redacted it, or NULL */

    bool virtualised; /* cpu.hypervisor is a string */
    bool emulated;    /* some experiment has emulated == true, or machine_emulated */
    /*
     * run.config.emulator: the emulator the harness named, which CPUID does not
     * show (Bochs has no hypervisor bit). NULL when not a string; recorded says
     * whether the key is there at all (reports before it existed lack it).
     */
    const char *emulator;
    bool emulator_recorded;
    bool machine_emulated; /* recorded and not "none": every experiment counts as emulated */
    bool simulated;   /* written by tlbscope-sim: no hardware took part */
};

/* Takes ownership of `root` (also on failure). Returns NULL only when out of memory. */
struct m_report *model_build(json_t *root, const char *path);
void model_free(struct m_report *r);

/* The first experiment (in report order) with this id, or NULL; O(log n). */
const struct m_experiment *model_experiment(const struct m_report *r, const char *id);
const struct m_param *model_param(const struct m_point *p, const char *key);
/* A string parameter (NULL when absent or a number), a numeric one (NaN), a value (NaN). */
const char *model_param_string(const struct m_point *p, const char *key);
double model_param_number(const struct m_point *p, const char *key);
double model_value(const struct m_point *p, const char *key);
const struct m_metric *model_metric(const struct m_point *p, const char *name);
/* `latency` when the point has it, else its first metric, else NULL. */
const struct m_metric *model_primary_metric(const struct m_point *p);
const struct m_cpu *model_cpu(const struct m_report *r, long long index);
/* Some point of the list has a metric (a control experiment may record only values). */
bool model_points_have_metrics(const struct m_points *l);
/* Removes parameter `key` from every point of the list (compare's alignment: a CPU number
 * turned role, evidence that is not a coordinate). */
void model_points_drop_param(struct m_points *l, const char *key);
/* Orders two parameter values: numbers numerically before strings, absent first. */
int model_param_cmp(const struct m_param *a, const struct m_param *b);
/* "12" or "conc": a parameter value as text. */
const char *model_param_text(const struct m_param *p, char *buf, size_t cap);
/* Ticks to nanoseconds, or NaN when the TSC frequency is unknown. */
double model_ticks_to_ns(const struct m_report *r, double ticks);
/* "Vendor Product" from SMBIOS, else "unknown machine"; "none: simulated ..." when simulated;
 * "emulator NAME: ..." before either on an emulated machine. */
const char *model_machine_name(const struct m_report *r, char *buf, size_t cap);
/* SMBIOS BIOS version and date, else the UEFI vendor and revision. */
const char *model_bios_text(const struct m_report *r, char *buf, size_t cap);
/* 'model "NAME" vN, profile P, seed S': what made a simulated report's numbers. */
const char *model_simulation_text(const struct m_report *r, char *buf, size_t cap);
/* The errata the model was told to show, "a, b", or "" for none. */
const char *model_errata_text(const struct m_report *r, char *buf, size_t cap);

#endif
