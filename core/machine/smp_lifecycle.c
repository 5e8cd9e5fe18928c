/*
 * The start and the end of the tool's ownership of the APs, as protocol:
 * closing check-in at a deadline, and releasing every AP that checked in.
 * What each CPU does to its own registers on the way in and out is
 * platform work (core/machine/takeover.c on the machine, sim/ on the host).
 */
#include "asm/cpu.h"
#include "core/lib/atomic.h"
#include "core/mutant.h"
#include "core/machine/smp.h"
#include "core/lib/strbuf.h"
#include "core/machine/timing.h"

uint32_t smp_wait_checkins(struct smp *s, uint32_t expected_aps, uint64_t deadline,
                           uint64_t window_ms, enum cpu_bring_up how)
{
    uint32_t i, arrived;
    for (;;) {
        arrived = 0;
        for (i = 1; i < s->count; i++)
            if (s->cpu[i] && load_acquire(&s->cpu[i]->checkin) == CHECKIN_DONE)
                arrived++;
        if (arrived == expected_aps || deadline_passed(deadline))
            break;
        cpu_relax();
    }
    for (i = 1; i < s->count; i++) {
        struct percpu *pc = s->cpu[i];
        uint32_t expected = CHECKIN_WAITING;
        if (pc && cas(&pc->checkin, &expected, CHECKIN_CLOSED)) {
            if (how == BRING_UP_INIT_SIPI)
                cpu_mark(&s->topo->cpus[i], CPU_ABSENT,
                         "listed enabled in the MADT but did not answer INIT-SIPI-SIPI within "
                         "%llu ms", (unsigned long long)window_ms);
            else
                cpu_mark(&s->topo->cpus[i], CPU_ABSENT,
                         "enabled by firmware but did not check in within %llu ms of "
                         "StartupAllAPs", (unsigned long long)window_ms);
        }
    }
    arrived = 0;
    for (i = 1; i < s->count; i++) {
        if (s->cpu[i] && load_acquire(&s->cpu[i]->checkin) == CHECKIN_DONE) {
            arrived++;
            if (s->topo->cpus[i].bring_up == BRING_UP_NONE)
                s->topo->cpus[i].bring_up = how;
        }
    }
    return arrived;
}

uint32_t smp_reopen_absent(struct smp *s)
{
    uint32_t i, reopened = 0;
    for (i = 1; i < s->count; i++) {
        struct percpu *pc = s->cpu[i];
        struct cpu_info *c = &s->topo->cpus[i];
        /* never one that checked in: it runs the tool's code (hung or not), INIT would kill it */
        if (!pc || !(MUTANT(reopen_checked_in) ? c->state != CPU_OK
                                               : (c->state == CPU_ABSENT &&
                                                  load_acquire(&pc->checkin) == CHECKIN_CLOSED)))
            continue;
        c->state = CPU_OK;
        c->note[0] = 0;
        store_release(&pc->checkin, CHECKIN_WAITING);
        reopened++;
    }
    return reopened;
}

/* A CPU that missed a deadline but has answered since then was slow, not hung. */
static void reclassify_slow(struct smp *s)
{
    uint32_t i;
    for (i = 1; i < s->count; i++) {
        struct percpu *pc = s->cpu[i];
        struct cpu_info *c = &s->topo->cpus[i];
        if (pc && c->state == CPU_HUNG && pc->missed_watch &&
            load_acquire(pc->missed_watch) >= pc->missed_want) {
            c->state = CPU_SLOW;
            str_copy(c->note + str_nlen(c->note, sizeof(c->note)),
                     sizeof(c->note) - str_nlen(c->note, sizeof(c->note)),
                     "; it answered later (slow, not hung)");
        }
    }
}

/* The late answers each CPU gave and was kept for (smp_wait_answer()), for the report. */
static void record_late(struct smp *s)
{
    uint32_t i;
    for (i = 1; i < s->count; i++) {
        struct percpu *pc = s->cpu[i];
        uint64_t max;
        if (!pc)
            continue;
        (void)smp_take_late(s, i, &max);
        s->topo->cpus[i].late_answers = (uint32_t)load_acquire(&pc->late.answers);
        s->topo->cpus[i].late_max_ms = ticks_to_ms(pc->late.run_max_ticks);
    }
}

uint32_t smp_release_aps(struct smp *s, uint64_t deadline)
{
    uint32_t i, missing = 0;
    reclassify_slow(s);
    record_late(s);
    store_release(&s->releasing, 1);
    for (i = 1; i < s->count; i++)
        if (s->cpu[i] && load_acquire(&s->cpu[i]->checkin) == CHECKIN_DONE)
            smp_post(s, i, CMD_RELEASE, NULL, NULL);
    for (i = 1; i < s->count; i++) {
        struct percpu *pc = s->cpu[i];
        if (!pc || load_acquire(&pc->checkin) != CHECKIN_DONE)
            continue;
        if (!wait_u64_eq(&pc->ack.ack_seq, pc->mb.seq, deadline)) {
            missing++;
            cpu_mark(&s->topo->cpus[i], CPU_HUNG, "did not return to the firmware when released");
        }
    }
    return missing;
}

uint32_t smp_abort_commands(struct smp *s, uint32_t *busy)
{
    uint32_t i, lost = 0;
    uint64_t deadline;
    *busy = 0;
    for (i = 1; i < s->count; i++)
        if (smp_usable(s, i) && load_acquire(&s->cpu[i]->ack.ack_seq) != s->cpu[i]->mb.seq)
            (*busy)++;
    store_release(&s->aborting, 1);
    for (i = 1; i < s->count; i++)
        if (smp_usable(s, i))
            smp_kick(s, i); /* a halted spinner needs a wake-up to see the flag */
    /*
     * An initiator AP may be waiting, one timeout, for an acknowledgement
     * from the BSP, which takes no IPIs now; give it that and one more.
     */
    deadline = tsc_now() + 3 * s->timeout_ticks;
    for (i = 1; i < s->count; i++) {
        struct percpu *pc = s->cpu[i];
        if (!smp_usable(s, i) || load_acquire(&pc->ack.ack_seq) == pc->mb.seq)
            continue;
        if (smp_wait(s, i, deadline) != WAIT_OK)
            lost++;
    }
    store_release(&s->aborting, 0);
    return lost;
}
