/*
 * The experiment loop both apps run: which experiments experiments= selects
 * (an unknown id is a warning naming the nearest one, a selection naming
 * none an error), their order (the table's, but an experiment whose findings
 * another uses runs just before it), one record per table entry, the SKIP of
 * one that is not supported here with its reason, the rules every finished
 * record obeys, and the console's RUN / PASS / SKIP / ERROR / FAIL lines.
 *
 * What one experiment's measurement needs differs by architecture, and is
 * the app's hook (`measure`): x86's runner (core/run/runner.c) enters the
 * tool's state with a recovery point, plans from a pilot and tracks the
 * conditions; aarch64's (core/exp/arm64/experiments.c) masks the firmware's
 * interrupts and paces its points. The loop calls it for each experiment
 * that is selected and supported, in order, and writes nothing else of the
 * record: the hook ends with exp_loop_conclude().
 */
#ifndef TLBSCOPE_CORE_RUN_EXP_LOOP_H
#define TLBSCOPE_CORE_RUN_EXP_LOOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/lib/msglist.h"
#include "core/run/config.h"
#include "core/run/record.h"

/* What the loop and the report know of an experiment before it runs. */
struct exp_desc {
    const char *id;
    const char *title;
    const char *x_axis;
    const char *series;
    /*
     * Runs just before this experiment when both are selected (the report keeps the table's
     * order): x86's ipi_target_state before shootdown_lazy, whose lazy CPUs idle in the
     * deepest MWAIT state it verified. NULL: in table order.
     */
    const char *runs_before;
};

struct exp_loop {
    const struct exp_desc *descs;     /* the table, in the report's order */
    uint32_t count;
    struct experiment_record *records; /* count of them, one per table entry */
    const struct config *cfg;          /* experiments=, emulator= */
    struct msg_list *warnings, *errors;
    const char *arch;                  /* "x86_64", "aarch64": an unknown id is not one of its */
    bool simulated;                    /* the run is the model's: every line says so */
    /* false: SKIP with `reason` (the evidence); may set *emulated. NULL: always supported. */
    bool (*supported)(void *ctx, uint32_t index, char *reason, size_t cap, bool *emulated);
    /* The measurement of a supported experiment, its record's status included. */
    void (*measure)(void *ctx, uint32_t index, struct experiment_record *rec, bool emulated);
    void (*print)(void *ctx, const char *text);
    void *ctx;
    /* while the loop runs: the experiments to measure (selected, supported) not yet finished,
     * the current included: the shares of a run budget split what is left among them */
    uint32_t left;
};

/* Each record's id, title and axes from the table (run->experiments' shape on x86). */
void exp_loop_init_records(struct exp_loop *l);
/*
 * experiments=: a warning per unknown id (with the nearest known; one configuration may serve
 * both architectures, so it names this one), an error when none is known.
 */
void exp_loop_check_selection(struct exp_loop *l);
/* Whether experiment `index` is selected (every one without experiments=). */
bool exp_loop_selected(const struct exp_loop *l, uint32_t index);
/* How many experiments will run: selected, and supported. */
uint32_t exp_loop_count_to_run(const struct exp_loop *l);
/* Runs every selected experiment once, in order (see above). */
void exp_loop_run(struct exp_loop *l);

/* For the hooks: "RUN:  id: title [SIMULATED] [EMULATED]", once the experiment starts measuring. */
void exp_loop_print_start(struct exp_loop *l, const struct experiment_record *rec, bool emulated);
/*
 * The rules every measured record obeys, after its measurement: never SUCCESS with no point
 * (an experiment that can measure nothing says SKIP), never SUCCESS past its time budget
 * (budget_s; partial), and with `usable` CPUs named in the first case.
 */
void exp_loop_conclude(struct experiment_record *rec, uint32_t usable, bool budget_exceeded,
                       uint32_t budget_s);

/*
 * The seed of the variant order and of the bootstrap intervals (core/run/bootstrap.h):
 * order_seed= when given, else the model's seed in tlbscope-sim (a rerun with --seed repeats
 * it), else the clock at start on a machine.
 */
uint64_t exp_loop_order_seed(const struct config *cfg, bool simulated, uint64_t sim_seed,
                             uint64_t start_ticks);

#endif
