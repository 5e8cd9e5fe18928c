#include "core/run/runner.h"
#include "asm/cpu.h"
#include "asm/percpu.h"
#include "asm/trap.h"
#include "core/lib/atomic.h"
#include "core/machine/placement.h"
#include "core/run/runner_plan.h"
#include "core/run/record_samples.h"
#include "core/run/bootstrap.h"
#include "core/lib/strbuf.h"
#include "core/machine/timing.h"

void runner_init(struct runner *r, struct run *run, struct smp *smp, const struct runner_hooks *h)
{
    mem_zero(r, sizeof(*r));
    r->run = run;
    r->smp = smp;
    r->hooks = *h;
}

static void print(struct runner *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void print(struct runner *r, const char *fmt, ...)
{
    char buf[512];
    struct strbuf sb;
    va_list ap;
    sb_init_fixed(&sb, buf, sizeof(buf));
    va_start(ap, fmt);
    sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    r->hooks.print(r->hooks.ctx, buf);
}

void runner_enter_tool(struct runner *r)
{
    if (!r->in_tool) {
        r->hooks.enter_tool(r->hooks.ctx);
        r->in_tool = true;
    }
}

void runner_leave_tool(struct runner *r)
{
    if (r->in_tool) {
        r->hooks.leave_tool(r->hooks.ctx);
        r->in_tool = false;
    }
}

static void enter_tool(struct runner *r) { runner_enter_tool(r); }
static void leave_tool(struct runner *r) { runner_leave_tool(r); }

void runner_progress(struct runner *r, uint64_t done, uint64_t total)
{
    uint64_t now = tsc_now();
    char bar[41];
    uint32_t i, filled;
    runner_plan_follow(r, done); /* the plan, against the time spent so far */
    if (!r->run->cfg.progress || total == 0 || now - r->last_progress < ms_to_ticks(1000))
        return;
    r->last_progress = now;
    filled = (uint32_t)(done * 40 / total);
    for (i = 0; i < 40; i++)
        bar[i] = i < filled ? '#' : '.';
    bar[40] = 0;
    leave_tool(r);
    print(r, "  %-26s [%s] %3llu%%\n", r->current->id, bar,
          (unsigned long long)(done * 100 / total));
    enter_tool(r);
}

bool runner_budget_ok(struct runner *r)
{
    if (r->budget_exceeded)
        return false;
    if (deadline_passed(r->budget_deadline)) {
        r->budget_exceeded = true;
        return false;
    }
    return true;
}

uint32_t runner_usable_count(struct runner *r)
{
    uint32_t i, n = 0;
    for (i = 0; i < r->smp->count; i++)
        n += smp_usable(r->smp, i);
    return n;
}

uint32_t runner_initiator(const struct runner *r)
{
    return r->current && r->current->initiator_configurable ? r->run->cfg.initiator : 0;
}

bool runner_need_cpus(struct runner *r, uint32_t min, char *reason, size_t cap)
{
    uint32_t n = runner_usable_count(r);
    uint32_t left_out = cpu_table_count_state(r->smp->topo, CPU_EXCLUDED);
    if (n >= min)
        return true;
    if (left_out)
        fmt_into(reason, cap, "needs at least %u CPUs; %u usable (%u left out by cpus=)", min, n,
                 left_out);
    else
        fmt_into(reason, cap, "needs at least %u CPUs; %u usable%s%s", min, n,
                 r->run->mp_note[0] ? ": " : "", r->run->mp_note);
    return false;
}

bool runner_need_test_region(struct runner *r, char *reason, size_t cap)
{
    if (r->mem)
        return true;
    fmt_into(reason, cap, "the test region could not be set up (see the run's errors)");
    return false;
}

bool runner_need_user_mappings(struct runner *r, char *reason, size_t cap)
{
    if (!r->run->cfg.global_pages)
        return true;
    fmt_into(reason, cap, "global_pages=on: the test pages are kernel (global) mappings; this "
                          "experiment measures user mappings");
    return false;
}

uint32_t runner_targets_in_topology_order(struct runner *r, uint32_t first, uint32_t *out,
                                          uint32_t cap)
{
    const struct cpu_table *t = r->smp->topo;
    uint32_t n = 0, i;
    enum topo_class cls;
    for (cls = TOPO_FIRST_CLASS; cls < TOPO_CLASS_COUNT; cls++) {
        for (i = 0; i < r->smp->count && n < cap; i++) {
            if (i == first || !smp_usable(r->smp, i))
                continue; /* cpus= left-outs are not usable: exclude_unselected() */
            if (cpu_topo_class(&t->cpus[first], &t->cpus[i]) == cls)
                out[n++] = i;
        }
    }
    return n;
}

static bool usable_now(const void *ctx, uint32_t cpu)
{
    return smp_usable((struct smp *)ctx, cpu); /* cpus= left-outs are not usable either */
}

uint32_t runner_placement_size(struct runner *r, uint32_t initiator, uint32_t placement)
{
    return placement_size(r->smp->topo, usable_now, r->smp, initiator, placement);
}

bool runner_placements_differ(struct runner *r, struct experiment_record *rec, uint32_t initiator)
{
    uint32_t n = placement_classes(r->smp->topo, usable_now, r->smp, initiator), c;
    if (n >= 2)
        return true;
    for (c = TOPO_FIRST_CLASS; n == 1 && c < TOPO_CLASS_COUNT; c++)
        if (placement_size(r->smp->topo, usable_now, r->smp, initiator, c))
            break;
    record_note(rec, "placements not measured: every other CPU is %s from CPU %u, so the "
                     "nearest-first points are every placement there is",
                n ? topo_class_name((enum topo_class)c) : "out of the run", initiator);
    return false;
}

uint32_t runner_placement_pick(struct runner *r, uint32_t initiator, uint32_t placement,
                               uint32_t k, uint32_t *out)
{
    return placement_pick(r->smp->topo, usable_now, r->smp, initiator, placement, k, out);
}

uint32_t runner_samples(const struct runner *r)
{
    return r->plan_samples ? r->plan_samples : r->run->cfg.samples;
}

uint32_t runner_warmup(const struct runner *r)
{
    return r->plan_samples ? r->plan_warmup : r->run->cfg.warmup;
}

uint32_t runner_power_series(uint32_t max, uint32_t *out, uint32_t cap)
{
    return plan_power_series(max, out, cap);
}

/*
 * Late answers kept during the experiment (core/machine/smp.h, smp_wait_answer()):
 * a note per CPU, so the numbers they delayed are not read as the machine's.
 */
static void note_late_answers(struct runner *r, struct experiment_record *rec)
{
    uint32_t i;
    for (i = 1; i < r->smp->count; i++) {
        uint64_t max, n = smp_take_late(r->smp, i, &max);
        if (!n)
            continue;
        record_note(rec, "CPU %u answered %llu request%s late, at most %llu ms past the %llu ms "
                         "deadline (a vCPU the hypervisor did not run); kept in the run",
                    i, (unsigned long long)n, n == 1 ? "" : "s",
                    (unsigned long long)ticks_to_ms(max),
                    (unsigned long long)ticks_to_ms(r->smp->timeout_ticks));
        print(r, "NOTE: %s: CPU %u answered %llu request%s late (at most %llu ms past the "
                 "deadline); kept\n",
              rec->id, i, (unsigned long long)n, n == 1 ? "" : "s",
              (unsigned long long)ticks_to_ms(max));
    }
}

/*
 * The loop's measurement of one supported experiment (core/run/exp_loop.h):
 * x86's part of it, from prepare() to cleanup().
 */
static void measure(void *ctx, uint32_t index, struct experiment_record *rec, bool emulated)
{
    struct runner *r = ctx;
    const struct experiment *e = experiment_table[index];
    void *state = NULL;
    uint64_t t0;
    struct percpu *bsp = r->smp->cpu[0];
    volatile bool keep_state = false; /* set after a recovery (arch_setjmp) */

    rec->emulated = emulated;
    r->emulated = emulated;
    r->current = e;
    r->rec = rec;
    if (e->prepare && !e->prepare(r, rec, &state)) {
        if (rec->status == RESULT_SUCCESS)
            record_set_status(rec, RESULT_ERROR, "could not prepare (out of memory)");
        if (e->cleanup)
            e->cleanup(r, state);
        return;
    }
    runner_plan_start(r, e->id);
    record_samples_begin(r->run, rec); /* each metric's interval (and samples) from here on */
    conditions_prepare(r, rec); /* without memory: no per-CPU clock readings, the rest still */
    exp_loop_print_start(r->loop, rec, emulated);
    t0 = tsc_now();
    r->budget_deadline = t0 + ms_to_ticks((uint64_t)r->run->cfg.budget_s * 1000);
    r->budget_exceeded = false;
    r->last_progress = t0;
    r->smp->current_experiment = index + 1;
    enter_tool(r);
    conditions_begin(r, rec, runner_initiator(r));
    /* an exception on the BSP inside the experiment comes back here */
    if (arch_setjmp(&bsp->arch.recover) == 0) {
        store_relaxed(&bsp->arch.recover_armed, 1);
        e->run(r, rec, state);
    } else {
        uint32_t busy, lost;
        record_escalate(rec, RESULT_ERROR,
                        "the BSP took exception %u (%s) at RIP 0x%llx, error code 0x%llx; "
                        "experiment abandoned",
                        bsp->fault.vector, exception_name(bsp->fault.vector),
                        (unsigned long long)bsp->fault.rip,
                        (unsigned long long)bsp->fault.error_code);
        rec->partial = true;
        store_relaxed(&bsp->fault.valid, 0);
        /*
         * The experiment's targets are still spinning on its state (and an
         * initiator AP may be mid-loop): stop them before cleanup frees it.
         */
        lost = smp_abort_commands(r->smp, &busy);
        if (busy)
            record_note(rec, "%u CPUs were still running its commands: stopped before its cleanup",
                        busy);
        if (lost) {
            /* a CPU that did not stop may still read the state: keep it (a leak, not a use) */
            record_note(rec, "%u CPUs did not stop: its state is not freed", lost);
            keep_state = true;
        }
    }
    store_relaxed(&bsp->arch.recover_armed, 0);
    conditions_end(r, rec);
    leave_tool(r);
    record_samples_end(r->run, rec);
    note_late_answers(r, rec);
    r->smp->current_experiment = 0;
    rec->duration_ms = ticks_to_ms(tsc_now() - t0);
    runner_plan_end(r, e->id, tsc_now() - t0, rec);
    exp_loop_conclude(rec, runner_usable_count(r), r->budget_exceeded, r->run->cfg.budget_s);
    if (e->cleanup && !keep_state)
        e->cleanup(r, state);
    conditions_release(rec);
    r->emulated = false;
}

/*
 * cpus= leaves CPUs out of every experiment: they were taken over like the
 * others (and are released with them) but sit idle, marked excluded, so no
 * experiment can pick them as targets. The BSP always takes part.
 */
static void exclude_unselected(struct runner *r)
{
    struct smp *s = r->smp;
    uint32_t i;
    for (i = 1; i < s->count; i++)
        if (smp_usable(s, i) && !cpu_list_contains(&r->run->cfg.cpus, i))
            cpu_mark(&s->topo->cpus[i], CPU_EXCLUDED, "left out by cpus=");
}

/* The planning weights of the experiments that will run (selected and supported). */
static uint32_t weights_to_run(struct runner *r)
{
    uint32_t i, sum = 0;
    for (i = 0; i < experiment_count; i++) {
        const struct experiment *e = experiment_table[i];
        char reason[RECORD_REASON_LEN];
        bool emulated = false;
        if (config_experiment_selected(&r->run->cfg, e->id) &&
            (!e->supported || e->supported(r, reason, sizeof(reason), &emulated)))
            sum += runner_plan_weight(e->id);
    }
    return sum;
}

static bool loop_supported(void *ctx, uint32_t index, char *reason, size_t cap, bool *emulated)
{
    const struct experiment *e = experiment_table[index];
    return !e->supported || e->supported(ctx, reason, cap, emulated);
}

static void loop_print(void *ctx, const char *text)
{
    struct runner *r = ctx;
    r->hooks.print(r->hooks.ctx, text);
}

void runner_run_all(struct runner *r)
{
    uint32_t i;
    struct run *run = r->run;
    struct exp_desc *descs = mem_zalloc(experiment_count * sizeof(*descs));
    struct exp_loop loop = {
        .descs = descs, .count = experiment_count, .cfg = &run->cfg, .arch = "x86_64",
        .warnings = &run->warnings, .errors = &run->errors, .simulated = run->sim.simulated,
        .supported = loop_supported, .measure = measure, .print = loop_print, .ctx = r,
    };
    run->method.order_seed = exp_loop_order_seed(&run->cfg, run->sim.simulated, run->sim.seed,
                                                 run->start_tsc);
    run->method.order_seed_set = true;
    print(r, "Variant order: random per iteration, order_seed=%llu\n",
          (unsigned long long)run->method.order_seed);
    exclude_unselected(r);
    run->experiments = mem_zalloc(experiment_count * sizeof(*run->experiments));
    if (!run->experiments || !descs) {
        msg_add(&run->errors, "runner", "out of memory for the experiment records");
        mem_free(descs);
        return;
    }
    for (i = 0; i < experiment_count; i++) {
        const struct experiment *e = experiment_table[i];
        descs[i] = (struct exp_desc){ e->id, e->title, e->x_axis, e->series, e->runs_before };
    }
    loop.records = run->experiments;
    exp_loop_check_selection(&loop);
    runner_plan_start_run(r, weights_to_run(r));
    run->experiment_count = experiment_count;
    exp_loop_init_records(&loop);
    r->loop = &loop;
    exp_loop_run(&loop);
    r->loop = NULL;
    mem_free(descs);
}
