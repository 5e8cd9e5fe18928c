/*
 * Everything after the initiator's closing timestamp: the reads that verify a
 * round (on the calling CPU, kernel and user PCID), the return to user and its
 * refill, a lazy CPU's switch-back with its catch-up flush, and the rounds that
 * ask targets to do these (VEC_VERIFY, VEC_SWITCH) and wait for their answers.
 * Apart from core/machine/shootdown.c (the timed flush round: request, IPIs,
 * acknowledgements) because none of it is timed as the shootdown: it runs
 * outside the window, so the reads cannot slow the targets still being waited
 * for. The handlers in shootdown.c find the active protocol and call the
 * targets' side here; this file calls only the flush itself
 * (core/machine/shootdown_flush_func.c), never back into shootdown.c.
 */
#include "core/machine/shootdown.h"
#include "asm/apic.h"
#include "asm/cpu.h"
#include "core/lib/atomic.h"
#include "core/machine/ipi.h"
#include "core/mutant.h"
#include "core/machine/timing.h"

/* Counts one verification pass; the first stale read since collection is kept. */
static void count_checks(struct percpu *pc, uint32_t count, uint32_t stale,
                         const struct stale_hit *hit)
{
    pc->verify_checks += count;
    if (stale && !pc->verify_stale) {
        pc->stale_va = hit->va;
        pc->stale_expected = hit->expected;
        pc->stale_seen = hit->seen;
    }
    pc->verify_stale += stale;
}

uint64_t shootdown_return_to_user(struct shootdown *sd, struct percpu *pc, uint32_t first,
                                  uint32_t count)
{
    uint64_t t0 = tsc_open();
    uint32_t ws = MUTANT(pti_ws_untouched) ? 0 : sd->user_ws_pages;
    if (sd->pti != PTI_OFF) {
        uint64_t flush = pc->user_flush_pending ? 0 : CR3_NOFLUSH;
        write_cr3(sd->cr3_root | sd->user_pcid | flush);
        pc->user_flush_pending = 0;
        testmem_touch(sd->tm, first, count);
        pc->touch_sink += testmem_touch_ws(sd->tm, ws);
        write_cr3(sd->cr3_root | sd->kernel_pcid | CR3_NOFLUSH);
    } else {
        testmem_touch(sd->tm, first, count);
        pc->touch_sink += testmem_touch_ws(sd->tm, ws);
    }
    return tsc_close() - t0;
}

void shootdown_verify_self(struct shootdown *sd, struct percpu *pc, uint32_t first, uint32_t count,
                           bool large)
{
    struct stale_hit hit;
    uint32_t stale;
    stale = large ? testmem_check_2m(sd->tm, first, count, &hit)
                  : testmem_check(sd->tm, first, count, &hit);
    if (MUTANT(blind_aps) && pc->index != 0)
        stale = 0;
    count_checks(pc, count, stale, &hit);
    if (sd->pti != PTI_OFF) {
        /*
         * Read the pages as user code: in the user PCID, 4 KiB and 2 MiB pages
         * alike (issue 32 item 18: the 2 MiB forms' user-PCID flush was never
         * read). A deferred flush not yet done by a timed return to user is
         * done here (SWITCH_TO_USER_CR3 without NOFLUSH); otherwise the switch
         * keeps the PCID's entries.
         */
        uint64_t flush = pc->user_flush_pending ? 0 : CR3_NOFLUSH;
        write_cr3(sd->cr3_root | sd->user_pcid | flush);
        stale = large ? testmem_check_2m(sd->tm, first, count, &hit)
                      : testmem_check(sd->tm, first, count, &hit);
        write_cr3(sd->cr3_root | sd->kernel_pcid | CR3_NOFLUSH);
        pc->user_flush_pending = 0;
        count_checks(pc, count, stale, &hit);
    }
}

/* A target's side of VEC_VERIFY: return to user if asked, read the pages, refill, answer. */
void shootdown_verify_target(struct shootdown *sd, struct percpu *pc)
{
    uint64_t gen;
    gen = load_acquire(&sd->verify.gen);
    smp_injected_delay(pc);
    if (sd->verify.return_to_user)
        store_relaxed(&pc->flush.return_ticks,
                      shootdown_return_to_user(sd, pc, sd->verify.first, sd->verify.count));
    shootdown_verify_self(sd, pc, sd->verify.first, sd->verify.count, sd->verify.large);
    if (sd->touch_pages) /* the next sample's start: the working set in the TLB */
        pc->touch_sink += testmem_touch_ws_form(sd->tm, sd->touch_form, sd->touch_pages);
    store_release(&pc->flush.verify_gen, gen);
}

/*
 * A lazy CPU switches back to the mm (switch_mm_irqs_off() with prev == next):
 * is_lazy clears, a full barrier pairs with inc_mm_tlb_gen() in the flusher,
 * and a CPU whose generation is behind flushes everything. The Xen variant
 * flushes when its ASID was tickled while it was not running.
 *
 * Each barrier (MFENCE) keeps this CPU's store of its flag ahead of its load
 * of the flusher's word; without it the load may pass the store still in the
 * store buffer (x86-TSO), and the flusher, reading the flag in should_flush()
 * (core/machine/shootdown.c), sees "lazy" ("not running") and skips the IPI
 * while this CPU reads the old generation (no tickle) and keeps its stale TLB.
 * Linux: the flusher bumps tlb_gen with a locked add (a full barrier) before
 * it reads is_lazy, so one of the two sees the other. Xen: the flusher reads
 * is_running, then tickles need_flush; a tickle that lands after this CPU's
 * load waits for the next switch-back (Xen checks the ASID at every VM entry;
 * the tool never overlaps a flush with a switch-back).
 * tests/host/test_lazy_model.c holds the CPU at each load on the model's store
 * buffers (sim/storebuf.h).
 */
void shootdown_switch_target(struct shootdown *sd, struct percpu *pc)
{
    uint64_t t0, gen;
    gen = load_acquire(&sd->verify.gen);
    t0 = tsc_open();
    if (sd->lazy == LAZY_XEN_RUNNING) {
        store_relaxed(&pc->tlbs.is_running, 1);
        if (!MUTANT(xen_switch_no_barrier))
            full_barrier();
        if (load_acquire(&pc->tlbs.need_flush) && !MUTANT(xen_no_catchup)) {
            shootdown_flush_full(sd, pc);
            store_relaxed(&pc->tlbs.need_flush, 0);
        }
        pc->local_tlb_gen = load_acquire(&sd->mm.tlb_gen);
    } else {
        uint64_t mm_gen;
        store_relaxed(&pc->tlbs.is_lazy, 0);
        if (!MUTANT(lazy_switch_no_barrier))
            full_barrier();
        mm_gen = load_acquire(&sd->mm.tlb_gen);
        if (pc->local_tlb_gen != mm_gen) {
            shootdown_flush_full(sd, pc);
            pc->local_tlb_gen = mm_gen;
        }
    }
    store_relaxed(&pc->flush.catchup_ticks, tsc_close() - t0);
    shootdown_verify_self(sd, pc, sd->verify.first, sd->verify.count, false);
    /* back to lazy (or descheduled) for the next sample */
    if (sd->lazy == LAZY_XEN_RUNNING)
        store_release(&pc->tlbs.is_running, 0);
    else
        store_release(&pc->tlbs.is_lazy, 1);
    store_release(&pc->flush.switch_gen, gen);
}

static bool ipi_and_wait(struct shootdown *sd, const uint32_t *cpus, uint32_t n, uint8_t vector,
                         volatile uint64_t *(*slot)(struct percpu *), const char *what)
{
    struct smp *s = sd->smp;
    uint64_t gen = sd->verify.gen, deadline;
    uint32_t i;
    bool ok = true;
    apic_send_ipi_mask(cpus, n, s->apic_id, this_percpu()->index, vector);
    deadline = tsc_now() + s->timeout_ticks;
    for (i = 0; i < n; i++) {
        volatile uint64_t *p;
        if (cpus[i] == this_percpu()->index)
            continue;
        p = slot(s->cpu[cpus[i]]);
        if (!smp_wait_answer(s, cpus[i], p, ANSWER_EQ, gen, deadline)) {
            smp_mark_unanswered(s, cpus[i], what, p, gen);
            ok = false;
        }
    }
    return ok;
}

static volatile uint64_t *verify_slot(struct percpu *pc) { return &pc->flush.verify_gen; }
static volatile uint64_t *switch_slot(struct percpu *pc) { return &pc->flush.switch_gen; }

/*
 * The verification phase of a FLUSH_VERIFY round, after the initiator's
 * closing timestamp: the initiator reads the pages, then asks the targets it
 * interrupted (VEC_VERIFY; with freed tables every target, lazy ones too) to
 * return to user if asked, and to read them.
 * A separate IPI, not a wait inside the flush handler: a target that waited
 * there would spin through the initiator's timed window (under a hypervisor
 * it would take the host CPU from the vCPUs still flushing).
 */
bool shootdown_wait_verified(struct shootdown *sd)
{
    struct smp *s = sd->smp;
    bool ok;
    uint32_t i;
    shootdown_verify_self(sd, this_percpu(), sd->req.first_page, sd->req.pages,
                          sd->req.stride_2m);
    sd->verify.first = sd->req.first_page;
    sd->verify.count = MUTANT(verify_first_page_only) && sd->req.pages ? 1 : sd->req.pages;
    sd->verify.large = sd->req.stride_2m;
    sd->verify.return_to_user = (sd->req.flags & FLUSH_RETURN_TO_USER) != 0;
    store_release(&sd->verify.gen, sd->verify.gen + 1);
    ok = ipi_and_wait(sd, sd->verify_cpus, sd->nverify, VEC_VERIFY, verify_slot,
                      "verification IPI");
    sd->max_return_ticks = sd->max_refill_ticks = 0;
    for (i = 0; i < sd->nverify && ok; i++) {
        uint64_t t = load_acquire(&s->cpu[sd->verify_cpus[i]]->flush.return_ticks);
        uint64_t f = load_acquire(&s->cpu[sd->verify_cpus[i]]->flush.refill_ticks);
        if (t > sd->max_return_ticks)
            sd->max_return_ticks = t;
        if (f > sd->max_refill_ticks)
            sd->max_refill_ticks = f;
    }
    return ok;
}

bool shootdown_prime_user(struct shootdown *sd, const uint32_t *cpus, uint32_t n)
{
    sd->verify.first = 0;
    sd->verify.count = 0;
    sd->verify.large = false;
    sd->verify.return_to_user = true;
    store_release(&sd->verify.gen, sd->verify.gen + 1);
    (void)shootdown_return_to_user(sd, this_percpu(), 0, 0);
    return ipi_and_wait(sd, cpus, n, VEC_VERIFY, verify_slot, "verification IPI");
}

bool shootdown_verify_cpus(struct shootdown *sd, const uint32_t *cpus, uint32_t n, uint32_t first,
                           uint32_t count, bool large)
{
    sd->verify.first = first;
    sd->verify.count = count;
    sd->verify.large = large;
    sd->verify.return_to_user = false;
    store_release(&sd->verify.gen, sd->verify.gen + 1);
    shootdown_verify_self(sd, this_percpu(), first, count, large);
    return ipi_and_wait(sd, cpus, n, VEC_VERIFY, verify_slot, "verification IPI");
}

bool shootdown_switch_back(struct shootdown *sd, const uint32_t *cpus, uint32_t n,
                           uint64_t *max_catchup)
{
    uint32_t i;
    bool ok;
    sd->verify.first = sd->req.first_page;
    sd->verify.count = sd->req.pages;
    sd->verify.large = false;
    sd->verify.return_to_user = false;
    store_release(&sd->verify.gen, sd->verify.gen + 1);
    ok = ipi_and_wait(sd, cpus, n, VEC_SWITCH, switch_slot, "switch-back IPI");
    *max_catchup = 0;
    for (i = 0; i < n && ok; i++) {
        uint64_t c = load_acquire(&sd->smp->cpu[cpus[i]]->flush.catchup_ticks);
        if (c > *max_catchup)
            *max_catchup = c;
    }
    return ok;
}

void shootdown_set_lazy(struct shootdown *sd, const uint32_t *cpus, uint32_t n, bool lazy)
{
    uint32_t i;
    for (i = 0; i < n; i++) {
        struct percpu *pc = sd->smp->cpu[cpus[i]];
        if (sd->lazy == LAZY_XEN_RUNNING)
            store_release(&pc->tlbs.is_running, lazy ? 0 : 1);
        else
            store_release(&pc->tlbs.is_lazy, lazy ? 1 : 0);
    }
}
