/* Verification counts into the record: see core/run/verify_collect.h. */
#include "core/run/verify_collect.h"

void shootdown_collect(struct shootdown *sd, struct experiment_record *rec)
{
    verify_collect(sd->smp, rec);
}

void verify_collect(struct smp *s, struct experiment_record *rec)
{
    uint32_t i;
    for (i = 0; i < s->count; i++) {
        struct percpu *pc = s->cpu[i];
        if (!pc)
            continue;
        rec->verification.checks += pc->verify_checks;
        if (pc->verify_stale) {
            /* record_stale() counts the first; the rest only add to the total */
            uint64_t extra = pc->verify_stale - 1;
            record_stale(rec, i, pc->stale_va, pc->stale_expected, pc->stale_seen);
            rec->verification.stale_reads += extra;
        }
        pc->verify_checks = pc->verify_stale = 0;
    }
}
