#include "core/exp/common.h"
#include "asm/cpu.h"
#include "asm/fault.h"
#include "core/lib/atomic.h"
#include "core/run/verify_collect.h"
#include "core/mutant.h"
#include "core/lib/splitmix.h"
#include "core/run/runner_plan.h"
#include "core/run/method.h"
#include "core/lib/strbuf.h"
#include "core/machine/timing.h"

uint32_t exp_page_counts(uint32_t ceiling, uint32_t *out, uint32_t cap)
{
    static const uint32_t base[] = { 1, 2, 4, 8, 16, 32, 64, 512 };
    uint32_t n = 0, i, j;
    for (i = 0; i < sizeof(base) / sizeof(base[0]) && n < cap; i++)
        out[n++] = base[i];
    if (ceiling <= 512 && n < cap)
        out[n++] = ceiling; /* the last count still flushed page by page */
    /* sort, drop duplicates */
    for (i = 1; i < n; i++)
        for (j = i; j > 0 && out[j - 1] > out[j]; j--) {
            uint32_t t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    for (i = 0, j = 0; i < n; i++)
        if (j == 0 || out[j - 1] != out[i])
            out[j++] = out[i];
    return j;
}

bool target_set_init(struct target_set *t, uint32_t capacity)
{
    mem_zero(t, sizeof(*t));
    t->cpus = mem_alloc((capacity ? capacity : 1) * sizeof(uint32_t));
    t->spin.stop = &t->stop;
    t->lazy_spin.stop = &t->stop;
    t->lazy_spin.mode = SPIN_IDLE;
    return t->cpus != NULL;
}

void target_set_release(struct target_set *t)
{
    mem_free(t->cpus);
    t->cpus = NULL;
}

void target_set_start(struct runner *r, struct target_set *t)
{
    struct percpu *self = this_percpu();
    uint32_t lazy = t->nlazy < t->n ? t->nlazy : t->n;
    t->spin.deadline = tsc_now() + ms_to_ticks((uint64_t)r->run->cfg.budget_s * 1000);
    t->lazy_spin.deadline = t->spin.deadline;
    ipi_start_spinners(r->smp, t->cpus, t->n - lazy, &t->spin);
    ipi_start_spinners(r->smp, t->cpus + (t->n - lazy), lazy, &t->lazy_spin);
    if (self->index == 0 && self->inject_kind == INJECT_FAULT && t->n) {
        /* test-only (inject=fault:0:V): the BSP faults while targets spin on this experiment */
        uint64_t deadline = tsc_now() + r->smp->timeout_ticks;
        uint32_t i;
        for (i = 0; i < t->n; i++) {
            struct percpu *pc = r->smp->cpu[t->cpus[i]];
            if (t->cpus[i] != 0 && smp_usable(r->smp, t->cpus[i]))
                wait_u64_eq(&pc->ack.started_seq, pc->mb.seq, deadline);
        }
        self->inject_kind = INJECT_NONE;
        arch_raise_exception(self->inject_vector);
    }
}

void target_set_stop(struct runner *r, struct target_set *t)
{
    uint32_t lazy = t->nlazy < t->n ? t->nlazy : t->n;
    ipi_stop_spinners(r->smp, t->cpus, t->n - lazy, &t->spin);
    ipi_stop_spinners(r->smp, t->cpus + (t->n - lazy), lazy, &t->lazy_spin);
}

uint32_t target_set_all_others(struct runner *r, struct target_set *t)
{
    uint32_t i;
    t->n = 0;
    for (i = 1; i < r->smp->count; i++)
        if (smp_usable(r->smp, i))
            t->cpus[t->n++] = i;
    return t->n;
}

bool exp_baseline(struct shootdown *sd, const uint32_t *cpus, uint32_t n, uint32_t flags,
                  uint64_t *buf, uint32_t count, struct stats *out)
{
    uint32_t i;
    for (i = 0; i < count; i++) {
        uint64_t t = shootdown_flush(sd, cpus, n, ORDER_CONCURRENT, 0, 0, flags);
        if (!t)
            return false;
        buf[i] = t;
    }
    stats_from_array(buf, count, out);
    return true;
}

uint32_t exp_baseline_count(const struct runner *r)
{
    uint32_t n = runner_samples(r) / 4;
    return n ? n : 1;
}

bool exp_shootdown_setup(struct runner *r, struct shootdown *sd)
{
    const struct method_info *m = &r->run->method;
    if (!r->mem || !shootdown_init(sd, r->smp, r->mem, r->run->cfg.ceiling))
        return false;
    sd->full_uses_invpcid = false; /* Linux's CR3 write; exp_full_flushes() names the variant */
    sd->flush_global_invpcid = m->invpcid_probe_ok;
    sd->global_pages = r->run->cfg.global_pages;
    sd->pcid_enabled = m->pcid_enabled;
    sd->cr3_root = r->run->method.cr3_root;
    sd->kernel_pcid = m->kernel_pcid;
    sd->user_pcid = m->user_pcid;
    return true;
}

bool exp_linux_ipis(struct runner *r, struct experiment_record *rec, struct shootdown *sd)
{
    sd->cluster_ipis = method_linux_cluster_ipis(r->run);
    if (sd->cluster_ipis)
        record_note(rec, "flush IPIs in x2APIC cluster mode, as Linux on this machine "
                         "(method.linux_ipi_mode): one logical ICR write per cluster of the "
                         "targets sorted by APIC ID; the points say ipi_mode x2apic_cluster");
    return sd->cluster_ipis;
}

uint32_t exp_full_flushes(const struct runner *r, const char **out)
{
    uint32_t n = 0;
    out[n++] = "cr3_reload";
    if (r->run->method.full_flush_variant)
        out[n++] = r->run->method.full_flush_variant;
    return n;
}

void exp_variant_order(const struct runner *r, uint64_t salt, uint32_t iteration, uint32_t k,
                       uint32_t *out)
{
    struct splitmix g;
    uint32_t i;
    for (i = 0; i < k; i++)
        out[i] = i;
    if (MUTANT(order_fixed)) /* test-only: the same order in every iteration */
        return;
    splitmix_seed(&g, r->run->method.order_seed, salt * 0x100000001b3ull + iteration);
    for (i = k; i > 1; i--) { /* Fisher-Yates */
        uint32_t j = splitmix_below(&g, i), t = out[i - 1];
        out[i - 1] = out[j];
        out[j] = t;
    }
}

void exp_value_ran_first(struct result_point *p, uint32_t iterations)
{
    point_value(p, "ran_first", (int64_t)iterations * 1000);
}

void exp_teardown(struct shootdown *sd, struct target_set *ts)
{
    shootdown_release(sd);
    target_set_release(ts);
}

void exp_finish_verification(struct runner *r, struct shootdown *sd, struct experiment_record *rec)
{
    const struct stale_read *s;
    (void)r;
    shootdown_collect(sd, rec);
    rec->verification.applicable = true;
    if (!rec->verification.stale_reads)
        return;
    s = &rec->verification.first[0];
    record_escalate(rec, RESULT_FAILURE,
                    "%llu stale reads after shootdowns that were acknowledged; first: CPU %u read "
                    "0x%llx at VA 0x%llx, expected 0x%llx",
                    (unsigned long long)rec->verification.stale_reads, s->cpu,
                    (unsigned long long)s->seen, (unsigned long long)s->va,
                    (unsigned long long)s->expected);
}

void exp_note_lost(struct experiment_record *rec, uint32_t planned, const char *what)
{
    if (!rec->partial)
        return;
    record_escalate(rec, RESULT_ERROR,
                    "a CPU stopped answering; %u of %u %s measured with the CPUs left",
                    rec->results.count, planned, what);
}

bool exp_pilot_all_others(struct runner *r, struct shootdown *sd, struct target_set *ts,
                          uint32_t pages, uint32_t iterations,
                          bool (*body)(struct runner *r, void *ctx), void *ctx, uint64_t *ticks)
{
    uint64_t t0 = tsc_open();
    bool ok;
    target_set_all_others(r, ts);
    if (!shootdown_sync_all(sd))
        return false;
    runner_pilot_begin(r, iterations);
    target_set_start(r, ts);
    ok = shootdown_verify_cpus(sd, ts->cpus, ts->n, 0, pages, false) && body(r, ctx);
    target_set_stop(r, ts);
    runner_pilot_end(r);
    *ticks = tsc_close() - t0;
    return ok;
}
