/*
 * The experiment runner: a table of experiments, each with a supported()
 * predicate (after kvm-unit-tests' x86/vmexit.c table), run one after the
 * other with a time budget, a recovery point for exceptions on the BSP, and
 * progress lines.
 *
 * The BSP measures in the tool's state (see core/machine/takeover.h) at
 * TPL_HIGH_LEVEL; to print it must go back to the firmware's state. The
 * hooks do both transitions; runner_progress() uses them at most once per
 * second, between samples.
 */
#ifndef TLBSCOPE_CORE_RUNNER_H
#define TLBSCOPE_CORE_RUNNER_H

#include "core/run/exp_loop.h"
#include "core/run/plan.h"
#include "core/run/record.h"
#include "core/run/run.h"
#include "core/machine/smp.h"

struct runner;
struct testmem;

struct runner_hooks {
    void (*enter_tool)(void *ctx);   /* raise TPL, load the tool's state on the BSP */
    void (*leave_tool)(void *ctx);   /* the reverse */
    void (*print)(void *ctx, const char *text); /* firmware state only */
    void *ctx;
};

struct experiment {
    const char *id;
    const char *title;
    const char *x_axis;
    const char *series;
    /* false: SKIP with `reason` (CPUID evidence, CPU count...). May set *emulated. */
    bool (*supported)(struct runner *r, char *reason, size_t cap, bool *emulated);
    /* Allocations and other firmware-state work; returns false on failure (ERROR). */
    bool (*prepare)(struct runner *r, struct experiment_record *rec, void **state);
    /* The measurement, in the tool's state. Sets the record's status. */
    void (*run)(struct runner *r, struct experiment_record *rec, void *state);
    void (*cleanup)(struct runner *r, void *state);
    bool initiator_configurable; /* initiator= names its initiator (else it is the BSP) */
    /*
     * Runs just before this experiment when both are selected (the report keeps the table's
     * order): ipi_target_state before shootdown_lazy, whose lazy CPUs idle in the deepest
     * MWAIT state it verified (issue 32). NULL: in table order.
     */
    const char *runs_before;
};

struct runner {
    struct run *run;
    struct smp *smp;
    struct testmem *mem;          /* test region (NULL until page tables exist) */
    struct runner_hooks hooks;
    bool in_tool;
    bool emulated;                /* current experiment runs emulated instructions */
    uint64_t budget_deadline;
    bool budget_exceeded;
    uint64_t last_progress;
    const struct experiment *current;
    struct experiment_record *rec;
    /* planning (core/run/runner_plan.c): what is left of run_budget_s, the plan in force */
    uint64_t plan_left_ticks, plan_share_ticks, plan_started;
    uint32_t plan_weights_left, plan_weights_total;
    uint32_t plan_samples, plan_warmup; /* 0: none, the configuration's values */
    struct plan_track plan_track;       /* the plan followed while it runs */
    struct exp_loop *loop;              /* the loop running the experiments (runner_run_all) */
};

extern const struct experiment *const experiment_table[];
extern const uint32_t experiment_count;

void runner_init(struct runner *r, struct run *run, struct smp *smp, const struct runner_hooks *h);
/*
 * The BSP in the tool's state (its IDT, GS, interrupts off) and back: an experiment's
 * run() is called in it; a prepare() that probes (asm/probe.h: an MSR that may #GP)
 * enters it around the probes alone, since prepare() allocates, which the firmware
 * allows only outside it. A probe outside it would take its fault through the
 * firmware's IDT (Bochs #GPs MSR 0xE2: the run hung); the model flags it.
 */
void runner_enter_tool(struct runner *r);
void runner_leave_tool(struct runner *r);
/* Runs every selected experiment and fills run->experiments. */
void runner_run_all(struct runner *r);

/* ---- for experiments ---- */
/* Prints a progress bar now and then (leaves and re-enters the tool's state). */
void runner_progress(struct runner *r, uint64_t done, uint64_t total);
/* False once the experiment's time budget is spent (the record becomes ERROR). */
bool runner_budget_ok(struct runner *r);
/* CPUs usable now, in topology order from `first`: SMT sibling, same L3, ... (enum topo_class). */
uint32_t runner_targets_in_topology_order(struct runner *r, uint32_t first, uint32_t *out,
                                          uint32_t cap);
/* core/machine/placement.h on the CPUs usable now: how many a placement has, and k of them. */
uint32_t runner_placement_size(struct runner *r, uint32_t initiator, uint32_t placement);
/*
 * Whether the placement points are worth measuring from `initiator`: its
 * usable CPUs fall in 2 classes or more. Else false, and a note says the
 * grid's nearest-first points are every placement there is.
 */
bool runner_placements_differ(struct runner *r, struct experiment_record *rec, uint32_t initiator);
uint32_t runner_placement_pick(struct runner *r, uint32_t initiator, uint32_t placement,
                               uint32_t k, uint32_t *out);
uint32_t runner_usable_count(struct runner *r);
/* The CPU the current experiment initiates from: cfg.initiator where it takes it, else the BSP. */
uint32_t runner_initiator(const struct runner *r);
/*
 * Shared supported() conditions: false, with the reason written, when fewer
 * than `min` CPUs are usable (naming why, e.g. no MP services), or when the
 * test region (page tables) could not be set up.
 */
bool runner_need_cpus(struct runner *r, uint32_t min, char *reason, size_t cap);
bool runner_need_test_region(struct runner *r, char *reason, size_t cap);
/* False under global_pages=on, for experiments that measure user mappings (PCIDs, lazy mm). */
bool runner_need_user_mappings(struct runner *r, char *reason, size_t cap);
/* Samples per point and warm-up: the plan's (core/run/runner_plan.h), else the configuration's. */
uint32_t runner_samples(const struct runner *r);
uint32_t runner_warmup(const struct runner *r);
/* 1, 2, 4, ... up to max, always ending with max itself. */
uint32_t runner_power_series(uint32_t max, uint32_t *out, uint32_t cap);

#endif
