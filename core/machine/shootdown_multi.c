#include "core/machine/shootdown_multi.h"
#include "asm/cpu.h"
#include "asm/invlpgb.h"
#include "asm/tlb.h"
#include "asm/trap.h"
#include "core/lib/atomic.h"
#include "core/machine/ipi.h"
#include "core/mutant.h"
#include "core/machine/timing.h"

/*
 * The protocol the VEC_MULTI_FLUSH handler serves; one experiment at a time
 * uses it. An IPI can arrive late (its IRR bit set again while the handler
 * already answered the request), even after the experiment ended: the
 * handler counts itself in `handlers_running` before it reads the pointer,
 * and release clears the pointer, then waits for that count to drain before
 * the memory goes (found by ThreadSanitizer: a late handler on an idle AP
 * read the protocol while the BSP freed it).
 */
static struct shootdown_multi *volatile active_multi;
static volatile uint64_t handlers_running;

/*
 * The slot of initiator `i` in a target's row. The mutant gives every
 * initiator the same slot, the defect this layout exists to avoid: two
 * initiators overwrite each other's request and one of them waits for an ack
 * that never comes, or takes another's ack for its own.
 */
static uint32_t lane(uint32_t initiator)
{
    return MUTANT(shared_request_slot) ? 0 : initiator;
}

static struct mi_slot *slot_of(struct shootdown_multi *m, uint32_t target, uint32_t initiator)
{
    return &m->slots[(size_t)target * m->ncpus + lane(initiator)];
}

/* Target side: every initiator of the point whose request this CPU has not answered yet. */
static void multi_handler(struct trap_frame *f)
{
    struct percpu *pc = this_percpu();
    struct shootdown_multi *m;
    uint32_t k, n;
    (void)f;
    add_fetch(&handlers_running, 1); /* seq_cst: ordered before the pointer's load */
    m = load_acquire(&active_multi);
    if (!m) {
        add_fetch(&handlers_running, (uint64_t)-1);
        return;
    }
    n = load_acquire(&m->nactive);
    for (k = 0; k < n; k++) {
        struct mi_slot *slot = slot_of(m, pc->index, m->active[k]);
        uint64_t seq = load_acquire(&slot->request_seq);
        struct flush_request req;
        if (seq == slot->ack_seq) /* our own field: nobody else writes it */
            continue;
        /* a copy: the initiator rewrites its request once every ack is in */
        req = m->init[load_relaxed(&slot->from)].req;
        smp_injected_delay(pc);
        if (req.flags & MI_CHECK) {
            /* a check round: every window of the round has closed */
            shootdown_verify_self(m->sd, pc, req.first_page, req.pages, req.stride_2m);
            store_release(&slot->ack_seq, seq);
            continue;
        }
        shootdown_flush_func(m->sd, pc, &req);
        store_release(&slot->ack_seq, seq);
        /*
         * The mutant reads the pages here, as this handler did before issue
         * 20: then the initiators it answers after this one wait for reads
         * that are not theirs.
         */
        if (MUTANT(contention_verify_in_window))
            shootdown_verify_self(m->sd, pc, req.first_page, req.pages, req.stride_2m);
    }
    add_fetch(&handlers_running, (uint64_t)-1);
}

bool shootdown_multi_init(struct shootdown_multi *m, struct shootdown *sd)
{
    uint32_t n = sd->smp->count, i;
    mem_zero(m, sizeof(*m));
    m->sd = sd;
    m->ncpus = n;
    m->slots = mem_alloc_aligned((size_t)n * n * sizeof(struct mi_slot), CACHE_LINE);
    m->init = mem_alloc_aligned((size_t)n * sizeof(struct mi_initiator), CACHE_LINE);
    m->mms = mem_alloc_aligned((size_t)n * sizeof(struct mm_generation), CACHE_LINE);
    m->active = mem_alloc((size_t)n * sizeof(uint32_t));
    if (!m->slots || !m->init || !m->mms || !m->active)
        return false;
    mem_zero(m->slots, (size_t)n * n * sizeof(struct mi_slot));
    mem_zero(m->init, (size_t)n * sizeof(struct mi_initiator));
    mem_zero(m->mms, (size_t)n * sizeof(struct mm_generation));
    for (i = 0; i < n; i++) {
        m->init[i].sent = mem_alloc((size_t)n * sizeof(uint32_t));
        if (!m->init[i].sent)
            return false;
        m->init[i].lost_cpu = UINT32_MAX;
    }
    trap_set_irq_handler(VEC_MULTI_FLUSH, multi_handler);
    store_release(&active_multi, m);
    return true;
}

void shootdown_multi_release(struct shootdown_multi *m)
{
    uint32_t i;
    uint64_t deadline = tsc_now() + m->sd->smp->timeout_ticks;
    if (load_acquire(&active_multi) == m) {
        __atomic_store_n(&active_multi, NULL, __ATOMIC_SEQ_CST);
        /* a handler that saw the pointer is still counted: wait for it (bounded) */
        while (load_acquire(&handlers_running) && !deadline_passed(deadline))
            cpu_relax();
    }
    for (i = 0; m->init && i < m->ncpus; i++)
        mem_free(m->init[i].sent);
    mem_free_aligned(m->slots);
    mem_free_aligned(m->init);
    mem_free_aligned(m->mms);
    mem_free(m->active);
    m->slots = NULL;
    m->init = NULL;
    m->mms = NULL;
    m->active = NULL;
}

bool shootdown_multi_begin_point(struct shootdown_multi *m, const uint32_t *initiators,
                                 uint32_t ninit, bool separate_mms)
{
    uint64_t base = m->sd->mm.tlb_gen;
    uint32_t i;
    /*
     * Every group's mm starts at the shared generation, which sync_all gives
     * every CPU: each CPU is then current for whichever mm it flushes in.
     */
    for (i = 0; i < m->ncpus; i++)
        m->mms[i].tlb_gen = base;
    for (i = 0; i < ninit; i++) {
        m->active[i] = initiators[i];
        m->init[initiators[i]].lost_cpu = UINT32_MAX;
    }
    m->own_mm = separate_mms;
    /* published to every CPU of the point by the smp_post() that starts it (a release) */
    store_release(&m->nactive, ninit);
    return shootdown_sync_all(m->sd);
}

void shootdown_multi_end_point(struct shootdown_multi *m)
{
    uint64_t top = m->sd->mm.tlb_gen;
    uint32_t i;
    for (i = 0; i < m->ncpus; i++)
        if (m->mms[i].tlb_gen > top)
            top = m->mms[i].tlb_gen;
    m->sd->mm.tlb_gen = top; /* shootdown_release() keeps later generations above it */
    store_release(&m->nactive, 0);
}

void shootdown_multi_flip(struct shootdown_multi *m, uint32_t first, uint32_t pages)
{
    struct mi_initiator *me = &m->init[this_percpu()->index];
    testmem_flip_owned(m->sd->tm, first, pages, ++me->signature_gen);
}

/* Publishes the caller's request in each target's slot for it, then sends the IPIs. */
static void post_request(struct shootdown_multi *m, struct mi_initiator *me, uint32_t self,
                         const uint32_t *targets, uint32_t n)
{
    struct smp *s = m->sd->smp;
    uint32_t i;
    me->seq++;
    me->nsent = 0;
    for (i = 0; i < n; i++) {
        struct mi_slot *slot;
        if (targets[i] == self)
            continue;
        slot = slot_of(m, targets[i], self);
        store_relaxed(&slot->from, self);
        store_release(&slot->request_seq, me->seq); /* publishes me->req and `from` */
        me->sent[me->nsent++] = targets[i];
    }
    /* as Linux sends them on the machine (issue 32): cluster mode where it uses it */
    if (m->sd->cluster_ipis)
        ipi_send_cluster(s, me->sent, me->nsent, VEC_MULTI_FLUSH);
    else
        ipi_send_each(s, me->sent, me->nsent, VEC_MULTI_FLUSH);
}

/* Waits for the ack of every target sent to; records the first that does not answer. */
static bool wait_targets(struct shootdown_multi *m, struct mi_initiator *me, uint32_t self,
                         uint64_t deadline)
{
    uint32_t i;
    for (i = 0; i < me->nsent; i++) {
        struct mi_slot *slot = slot_of(m, me->sent[i], self);
        if (!smp_wait_answer(m->sd->smp, me->sent[i], &slot->ack_seq, ANSWER_EQ, me->seq,
                             deadline)) {
            me->lost_cpu = me->sent[i];
            me->lost_what = me->req.flags & MI_CHECK ? "check of a concurrent shootdown"
                                                     : "concurrent flush IPI";
            return false;
        }
    }
    return true;
}

uint64_t shootdown_multi_flush(struct shootdown_multi *m, const uint32_t *targets, uint32_t n,
                               uint32_t first, uint32_t pages)
{
    struct percpu *self = this_percpu();
    struct mi_initiator *me = &m->init[self->index];
    struct mm_generation *mm = m->own_mm ? &m->mms[self->index] : &m->sd->mm;
    uint64_t gen, t0, t1;

    gen = add_fetch(&mm->tlb_gen, 1); /* inc_mm_tlb_gen(): a full barrier after the remap */
    shootdown_set_request(&me->req, self->index, first, pages, 0, gen, m->sd->ceiling);
    me->req.mm = mm;
    t0 = tsc_open();
    post_request(m, me, self->index, targets, n);
    /* concurrent order (Linux >= 5.13): the local flush after the IPIs, interrupts off */
    irq_disable();
    shootdown_flush_func(m->sd, self, &me->req);
    irq_enable();
    if (!wait_targets(m, me, self->index, t0 + m->sd->smp->timeout_ticks))
        return 0;
    t1 = tsc_close();
    return t1 - t0;
}

/* ---- rounds ---- */

void mi_point_init(struct mi_point *pt, enum mi_method method, uint32_t ninit,
                   uint32_t max_chunk, uint64_t barrier_ticks)
{
    store_relaxed(&pt->arrived, 0);
    store_relaxed(&pt->failed, 0);
    pt->method = method;
    pt->ninit = ninit;
    pt->max_chunk = max_chunk;
    pt->barrier_ticks = barrier_ticks;
    pt->bystanders = NULL;
    pt->nbystanders = 0;
    pt->settler = 0;
}

void mi_point_settle(struct mi_point *pt, const uint32_t *cpus, uint32_t n, uint32_t settler)
{
    pt->bystanders = cpus;
    pt->nbystanders = n;
    pt->settler = settler;
}

bool mi_barrier(struct mi_part *p)
{
    struct mi_point *pt = p->pt;
    struct smp *s = this_percpu()->smp;
    uint64_t want = (p->phases + 1) * pt->ninit, deadline = tsc_now() + pt->barrier_ticks;
    add_fetch(&pt->arrived, 1);
    p->phases++;
    while (load_acquire(&pt->arrived) < want) {
        if (load_acquire(&pt->failed) || load_acquire(&s->aborting))
            return false;
        if (deadline_passed(deadline)) {
            if (load_acquire(&pt->arrived) >= want)
                break;
            store_release(&pt->failed, 1);
            return false;
        }
        cpu_relax();
    }
    return !load_acquire(&pt->failed);
}

bool mi_round_open(struct shootdown_multi *m, struct mi_part *p)
{
    struct mi_point *pt = p->pt;
    struct percpu *self = this_percpu();
    shootdown_multi_flip(m, p->first, p->pages);
    if (!pt->nbystanders || MUTANT(contention_unsettled))
        return mi_barrier(p);
    if (!mi_barrier(p))
        return false;
    /* a target that does not park in time is named by the round's own wait */
    if (self->index == pt->settler)
        (void)ipi_settle_targets(self->smp, pt->bystanders, pt->nbystanders);
    return mi_barrier(p);
}

/* The INVLPGB path: the range in chunks, then one TLBSYNC, all on this CPU. */
static uint64_t invlpgb_shoot(struct shootdown_multi *m, struct mi_part *p)
{
    struct invlpgb_range range;
    struct invlpgb_op op;
    uint64_t t0 = tsc_open();
    invlpgb_range_init(&range, testmem_va(p->first), p->pages, false, p->pt->max_chunk,
                       (uint16_t)m->sd->kernel_pcid, m->sd->pcid_enabled);
    while (invlpgb_range_next(&range, &op))
        invlpgb_raw(op.rax, op.ecx, op.edx);
    tlbsync();
    return tsc_close() - t0;
}

uint64_t mi_round_shoot(struct shootdown_multi *m, struct mi_part *p)
{
    uint64_t t;
    if (p->pt->method == MI_INVLPGB) {
        t = invlpgb_shoot(m, p);
        /*
         * The mutant checks right after its own TLBSYNC, as this experiment
         * did before issue 20: its check IPIs land in the INVLPGB windows of
         * the initiators still running theirs.
         */
        if (MUTANT(contention_check_in_invlpgb_window) && !mi_round_check(m, p))
            t = 0;
    } else {
        t = shootdown_multi_flush(m, p->targets, p->ntargets, p->first, p->pages);
    }
    if (!t)
        store_release(&p->pt->failed, 1);
    return t;
}

bool mi_round_close(struct mi_part *p) { return mi_barrier(p); }

bool mi_round_check(struct shootdown_multi *m, struct mi_part *p)
{
    struct percpu *self = this_percpu();
    struct mi_initiator *me = &m->init[self->index];
    bool ok;
    shootdown_set_request(&me->req, self->index, p->first, p->pages, MI_CHECK, 0, m->sd->ceiling);
    post_request(m, me, self->index, p->targets, p->ntargets);
    ok = wait_targets(m, me, self->index, tsc_now() + m->sd->smp->timeout_ticks);
    /* interrupts off: the handler counts its reads in the same per-CPU counters */
    irq_disable();
    shootdown_verify_self(m->sd, self, p->first, p->pages, false);
    irq_enable();
    if (!ok)
        store_release(&p->pt->failed, 1);
    return ok;
}

uint64_t mi_steady_shoot(struct shootdown_multi *m, struct mi_part *p, uint64_t *remap_ticks)
{
    uint64_t t0 = tsc_now();
    shootdown_multi_flip(m, p->first, p->pages);
    *remap_ticks += tsc_now() - t0;
    return mi_round_shoot(m, p);
}
