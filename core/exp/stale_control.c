/*
 * stale_detector_control: the negative control for every verifier.
 *
 * Method. Every CPU loads the translation of one test page (it reads it),
 * then the initiator remaps the page to a frame with a new signature and
 * invalidates nothing. Every CPU reads the page again: a CPU still holding
 * the old translation returns the old signature. Then every CPU does a
 * full flush and reads once more: now all must see the new signature.
 * Repeated `rounds` times. The CPUs are those cpus= selects (parameter
 * `cpus`); the BSP alone is enough to show the verifier can see stale
 * entries, so it needs one.
 *
 * Verdict. SUCCESS when at least one CPU read the old signature (the
 * verifier can see stale entries here) and none did after the flush. When no
 * CPU ever reads the old signature, the zero stale reads reported by the
 * other experiments prove nothing on this machine: the result is SKIP with
 * that reason, never a pass. A stale read after the full flush is FAILURE.
 * (Seen under QEMU TCG: its software TLB keeps the old translation until
 * INVLPG or a CR3 write, like hardware.)
 */
#include "asm/cpu.h"
#include "core/lib/atomic.h"
#include "core/exp/common.h"
#include "core/run/experiments.h"
#include "core/lib/strbuf.h"
#include "core/machine/timing.h"

#define ROUNDS 16

struct ctl_state {
    struct shootdown sd;
    struct target_set ts;
};

static bool ctl_supported(struct runner *r, char *reason, size_t cap, bool *emulated)
{
    (void)emulated;
    return runner_need_test_region(r, reason, cap);
}

static bool ctl_prepare(struct runner *r, struct experiment_record *rec, void **state)
{
    struct ctl_state *st = mem_zalloc(sizeof(*st));
    if (!st)
        return false;
    *state = st;
    if (!exp_shootdown_setup(r, &st->sd) || !target_set_init(&st->ts, r->smp->count))
        return false;
    return point_list_reserve(&rec->results, 1);
}

/* Per-CPU stale counts since the last reset; returns how many CPUs saw stale data. */
static uint32_t cpus_with_stale(struct smp *s, uint64_t *total, uint32_t *first_cpu)
{
    uint32_t i, n = 0;
    for (i = 0; i < s->count; i++) {
        struct percpu *pc = s->cpu[i];
        if (!pc || !smp_usable(s, i))
            continue;
        if (pc->verify_stale) {
            if (n == 0)
                *first_cpu = i;
            n++;
            *total += pc->verify_stale;
        }
        pc->verify_stale = 0;
        pc->verify_checks = 0;
    }
    return n;
}

static void ctl_run(struct runner *r, struct experiment_record *rec, void *state)
{
    struct ctl_state *st = state;
    struct shootdown *sd = &st->sd;
    uint32_t round, i, n, cpus_stale_max = 0, first_cpu = 0, checked;
    uint64_t stale_total = 0, after_flush_stale = 0;
    struct result_point *pt;
    n = target_set_all_others(r, &st->ts);
    checked = n + 1;
    if (!shootdown_sync_all(sd)) {
        rec->partial = true;
        record_escalate(rec, RESULT_ERROR, "a CPU did not answer the setup flush");
        return;
    }
    target_set_start(r, &st->ts);
    for (round = 0; round < ROUNDS && runner_budget_ok(r); round++) {
        uint32_t seen;
        uint64_t dummy = 0;
        /* 1: everyone caches the current translation */
        if (!shootdown_verify_cpus(sd, st->ts.cpus, n, 0, 1, false))
            break;
        cpus_with_stale(r->smp, &dummy, &first_cpu);
        /* 2: remap with no invalidation at all, then look */
        testmem_flip(sd->tm, 0, 1);
        if (!shootdown_verify_cpus(sd, st->ts.cpus, n, 0, 1, false))
            break;
        seen = cpus_with_stale(r->smp, &stale_total, &first_cpu);
        if (seen > cpus_stale_max)
            cpus_stale_max = seen;
        /* 3: a full flush everywhere; now nobody may see the old frame */
        target_set_stop(r, &st->ts);
        if (!shootdown_sync_all(sd))
            break;
        target_set_start(r, &st->ts);
        if (!shootdown_verify_cpus(sd, st->ts.cpus, n, 0, 1, false))
            break;
        for (i = 0; i < r->smp->count; i++) {
            struct percpu *pc = r->smp->cpu[i];
            if (!pc || !smp_usable(r->smp, i))
                continue;
            rec->verification.checks += pc->verify_checks;
            if (pc->verify_stale) {
                record_stale(rec, i, pc->stale_va, pc->stale_expected, pc->stale_seen);
                rec->verification.stale_reads += pc->verify_stale - 1;
                after_flush_stale += pc->verify_stale;
            }
            pc->verify_stale = pc->verify_checks = 0;
        }
    }
    target_set_stop(r, &st->ts);
    rec->verification.applicable = true;
    if (round < ROUNDS) {
        rec->partial = true;
        record_escalate(rec, RESULT_ERROR, "a CPU stopped answering after %u of %u rounds", round,
                        ROUNDS);
    }
    pt = point_list_add(&rec->results);
    if (pt) {
        point_param_num(pt, "rounds", round);
        point_param_num(pt, "cpus", checked);
        point_value(pt, "cpus_reading_stale_max", (int64_t)cpus_stale_max * 1000);
        point_value(pt, "stale_reads_without_invalidation", (int64_t)stale_total * 1000);
    }
    if (after_flush_stale) {
        record_escalate(rec, RESULT_FAILURE,
                        "%llu stale reads remained after a full flush on every CPU",
                        (unsigned long long)after_flush_stale);
    } else if (cpus_stale_max == 0 && round > 0) {
        record_escalate(rec, RESULT_SKIP,
                        "no CPU read the old signature after a remap without invalidation "
                        "(%u rounds, %u CPUs): the verifier cannot observe stale TLB entries on "
                        "this machine, so zero stale reads elsewhere prove nothing",
                        round, checked);
        msg_add(&r->run->warnings, "stale_detector_control",
                "the stale-TLB verifier is blind on this machine; verification counts are not "
                "evidence");
    } else if (rec->status == RESULT_SUCCESS) {
        record_note(rec, "up to %u of %u CPUs read the old signature without invalidation (%llu "
                         "stale reads in %u rounds): the verifier sees stale entries here",
                    cpus_stale_max, checked, (unsigned long long)stale_total, round);
    }
}

static void ctl_cleanup(struct runner *r, void *state)
{
    struct ctl_state *st = state;
    (void)r;
    if (!st)
        return;
    exp_teardown(&st->sd, &st->ts);
    mem_free(st);
}

const struct experiment exp_stale_control = {
    .id = "stale_detector_control",
    .title = "Negative control: a remap without invalidation must be visible as stale",
    .x_axis = "rounds",
    .series = NULL,
    .supported = ctl_supported,
    .prepare = ctl_prepare,
    .run = ctl_run,
    .cleanup = ctl_cleanup,
};
