#include "core/machine/shootdown.h"
#include "asm/apic.h"
#include "asm/cpu.h"
#include "asm/tlb.h"
#include "asm/trap.h"
#include "core/lib/atomic.h"
#include "core/machine/ipi.h"
#include "core/mutant.h"
#include "core/machine/timing.h"

/* The protocol the IPI handlers serve; one experiment at a time uses it. */
static struct shootdown *active;

/*
 * Every CPU's request/ack slots outlive an experiment, so generations must
 * never repeat within a run: an ack left from an earlier experiment that
 * happened to equal a new request's generation would pass for its answer.
 * Each experiment's counters start above everything used before.
 */
static uint64_t generation_floor;
/*
 * The acknowledgement tickets (struct flush_slot ack_ticket): one counter for
 * every shootdown, never reset, so a ticket from an earlier shootdown (or an
 * earlier struct shootdown) is never taken for one of this round's.
 */
static struct {
    volatile uint64_t next;
} __attribute__((aligned(CACHE_LINE))) ack_tickets;

bool shootdown_init(struct shootdown *sd, struct smp *s, struct testmem *tm, uint32_t ceiling)
{
    mem_zero(sd, sizeof(*sd));
    sd->smp = s;
    sd->tm = tm;
    sd->ceiling = ceiling;
    sd->mm.tlb_gen = generation_floor;
    sd->verify.gen = generation_floor;
    sd->sent = mem_alloc(s->count * sizeof(uint32_t));
    sd->verify_cpus = mem_alloc(s->count * sizeof(uint32_t));
    sd->ack_ticket = mem_alloc(s->count * sizeof(uint64_t));
    sd->ack_handler = mem_alloc(s->count * sizeof(uint64_t));
    if (!sd->sent || !sd->verify_cpus || !sd->ack_ticket || !sd->ack_handler)
        return false;
    active = sd;
    return true;
}

void shootdown_release(struct shootdown *sd)
{
    uint64_t used = MAX(load_acquire(&sd->mm.tlb_gen), load_acquire(&sd->verify.gen));
    if (used > generation_floor)
        generation_floor = used;
    if (active == sd)
        active = NULL;
    mem_free(sd->sent);
    mem_free(sd->verify_cpus);
    mem_free(sd->ack_ticket);
    mem_free(sd->ack_handler);
    sd->sent = NULL;
    sd->verify_cpus = NULL;
    sd->ack_ticket = sd->ack_handler = NULL;
}

/* ---- flushing on the calling CPU ---- */

static uint64_t current_pcid(void) { return read_cr3() & CR3_PCID_MASK; }

/*
 * Everything, global entries included, in every PCID: Linux
 * __native_tlb_flush_global(), INVPCID type 2 or else a CR4.PGE toggle (a
 * CR3 write keeps global entries).
 */
static void flush_global(struct shootdown *sd)
{
    if (sd->flush_global_invpcid) {
        invpcid(INVPCID_ALL_INCLUDING_GLOBAL, 0, 0);
    } else if (!MUTANT(pge_toggle_removed)) {
        uint64_t cr4 = read_cr4();
        write_cr4(cr4 ^ CR4_PGE);
        write_cr4(cr4);
    }
}

/*
 * A full flush of the current PCID (global entries too for kernel pages).
 * Linux flush_tlb_local(): a CR3 write, and under PTI the user PCID only
 * marked (invalidate_user_asid()): it is flushed by the next return to
 * user. The named variant full_uses_invpcid: INVPCID single-context on the
 * current PCID and, under PTI, at once on the user PCID.
 */
static void flush_full(struct shootdown *sd, struct percpu *pc)
{
    if (MUTANT(full_flush_noop))
        return;
    if (sd->global_pages)
        flush_global(sd); /* do_flush_tlb_all() of flush_tlb_kernel_range() */
    else if (sd->full_uses_invpcid)
        invpcid(INVPCID_SINGLE_CONTEXT, current_pcid(), 0);
    else
        flush_local_all();
    if (MUTANT(no_user_flush) || sd->pti == PTI_OFF)
        return;
    if (sd->full_uses_invpcid)
        invpcid(INVPCID_SINGLE_CONTEXT, sd->user_pcid, 0);
    else
        pc->user_flush_pending = 1; /* invalidate_user_asid() */
}

/* Linux flush_tlb_one_user() per page (stride 4 KiB or 2 MiB): the double invalidation under PTI. */
static void flush_pages(struct shootdown *sd, struct percpu *pc, const struct flush_request *req)
{
    uint64_t stride = req->stride_2m ? PAGE_2M : PAGE_4K;
    uint32_t i;
    if (MUTANT(target_skips_invlpg) && pc->index == 1 && req->initiator != 1)
        return;
    for (i = 0; i < req->pages; i++) {
        uint64_t va = req->start + (uint64_t)i * stride;
        invlpg((const volatile void *)(uintptr_t)va);
        if (sd->pti == PTI_INVPCID && !MUTANT(no_user_flush) &&
            !(MUTANT(pti_2m_user_invpcid_skipped) && req->stride_2m))
            invpcid(INVPCID_ADDRESS, sd->user_pcid, va);
    }
    if (sd->pti == PTI_DEFERRED && req->pages && !MUTANT(no_user_flush))
        pc->user_flush_pending = 1;
}

/* flush_tlb_func(): the same code runs on the initiator and on every target. */
static void flush_tlb_func(struct shootdown *sd, struct percpu *pc, const struct flush_request *req)
{
    uint64_t local = pc->local_tlb_gen, mm_gen;
    /* several mms only with concurrent initiators in disjoint groups (shootdown_multi.c) */
    struct mm_generation *mm = req->mm ? req->mm : &sd->mm;
    if (pc->index != req->initiator && load_acquire(&pc->tlbs.is_lazy)) {
        /*
         * Only a freed_tables request reaches a lazy CPU: Linux switches it to
         * init_mm, which drops the user translations; it is current afterwards.
         */
        flush_full(sd, pc);
        pc->local_tlb_gen = load_acquire(&mm->tlb_gen);
        return;
    }
    if (req->new_tlb_gen <= local)
        return; /* an earlier full flush already covered this request */
    /* read the mm generation late, as Linux does: it may have moved on */
    mm_gen = load_acquire(&mm->tlb_gen);
    if (local == mm_gen)
        return;
    if (!req->full && req->new_tlb_gen == local + 1 && req->new_tlb_gen == mm_gen)
        flush_pages(sd, pc, req);
    else
        flush_full(sd, pc);
    pc->local_tlb_gen = mm_gen;
}

void shootdown_flush_func(struct shootdown *sd, struct percpu *pc, const struct flush_request *req)
{
    flush_tlb_func(sd, pc, req);
}

/* ---- verification ---- */

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

/* ---- IPI handlers ---- */

static void flush_handler(struct trap_frame *f)
{
    struct percpu *pc = this_percpu();
    struct shootdown *sd = active;
    uint64_t t0 = tsc_open(), gen;
    (void)f;
    if (!sd)
        return;
    store_relaxed(&pc->flush.entry_tsc, t0); /* its own line: no extra line moves */
    gen = load_acquire(&pc->flush.request_gen);
    smp_injected_delay(pc);
    if (MUTANT(ack_before_flush))
        store_release(&pc->flush.ack_gen, gen);
    flush_tlb_func(sd, pc, &sd->req);
    if (MUTANT(refill_before_ack) && sd->touch_pages) { /* test-only: the old order */
        uint64_t t1 = tsc_open();
        pc->touch_sink += testmem_touch_ws_form(sd->tm, sd->touch_form, sd->touch_pages);
        store_relaxed(&pc->flush.refill_ticks, tsc_close() - t1);
        store_release(&pc->flush.refill_gen, gen);
    }
    store_relaxed(&pc->flush.handler_ticks, tsc_close() - t0);
    store_release(&pc->flush.ack_gen, gen);
    /*
     * Its place among the acks, for the breakdown (shootdown_last_acker()):
     * after the ack, so the locked add is not in the initiator's wait (Linux's
     * acknowledgement is the plain store above).
     */
    store_release(&pc->flush.ack_ticket, add_fetch(&ack_tickets.next, 1));
    /*
     * The refill of the working set the flush left: after the ack, as in
     * Linux, where flush_tlb_func() acknowledges and the process refills
     * later, so it is not in the initiator's latency; timed on this CPU's
     * own clock and read by the initiator after the verification.
     */
    if (sd->touch_pages && !MUTANT(refill_before_ack)) {
        uint64_t t1 = tsc_open();
        pc->touch_sink += testmem_touch_ws_form(sd->tm, sd->touch_form, sd->touch_pages);
        store_relaxed(&pc->flush.refill_ticks, tsc_close() - t1);
        store_release(&pc->flush.refill_gen, gen); /* after the ticks: the initiator reads both */
    }
    if (MUTANT(verify_inside_window) && (sd->req.flags & FLUSH_VERIFY)) {
        /* the old way: reading right after the ack, while the initiator still times */
        shootdown_verify_self(sd, pc, sd->req.first_page, sd->req.pages, sd->req.stride_2m);
    }
}

static void verify_handler(struct trap_frame *f)
{
    struct percpu *pc = this_percpu();
    struct shootdown *sd = active;
    uint64_t gen;
    (void)f;
    if (!sd)
        return;
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
 * store buffer (x86-TSO), and the flusher, reading the flag in should_flush(),
 * sees "lazy" ("not running") and skips the IPI while this CPU reads the old
 * generation (no tickle) and keeps its stale TLB. Linux: the flusher bumps
 * tlb_gen with a locked add (a full barrier) before it reads is_lazy, so one
 * of the two sees the other. Xen: the flusher reads is_running, then tickles
 * need_flush; a tickle that lands after this CPU's load waits for the next
 * switch-back (Xen checks the ASID at every VM entry; the tool never overlaps
 * a flush with a switch-back). tests/host/test_lazy_model.c holds the CPU at
 * each load on the model's store buffers (sim/storebuf.h).
 */
static void switch_handler(struct trap_frame *f)
{
    struct percpu *pc = this_percpu();
    struct shootdown *sd = active;
    uint64_t t0, gen;
    (void)f;
    if (!sd)
        return;
    gen = load_acquire(&sd->verify.gen);
    t0 = tsc_open();
    if (sd->lazy == LAZY_XEN_RUNNING) {
        store_relaxed(&pc->tlbs.is_running, 1);
        if (!MUTANT(xen_switch_no_barrier))
            full_barrier();
        if (load_acquire(&pc->tlbs.need_flush) && !MUTANT(xen_no_catchup)) {
            flush_full(sd, pc);
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
            flush_full(sd, pc);
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

void shootdown_install_handlers(void)
{
    trap_set_irq_handler(VEC_FLUSH, flush_handler);
    trap_set_irq_handler(VEC_VERIFY, verify_handler);
    trap_set_irq_handler(VEC_SWITCH, switch_handler);
}

/* ---- initiator ---- */

static bool should_flush(struct shootdown *sd, struct percpu *t, uint32_t flags)
{
    switch (sd->lazy) {
    case LAZY_SKIP:
        /* should_flush_tlb(): lazy CPUs catch up at switch; freed tables cannot wait */
        if ((flags & FLUSH_FREED_TABLES && !MUTANT(freed_tables_skips_lazy)) ||
            MUTANT(lazy_ipi_anyway))
            return true;
        return !load_acquire(&t->tlbs.is_lazy);
    case LAZY_XEN_RUNNING:
        if (!load_acquire(&t->tlbs.is_running)) {
            store_relaxed(&t->tlbs.need_flush, 1); /* hvm_asid_flush_vcpu() */
            return false;
        }
        return true;
    default:
        return true;
    }
}

/* Linux get_flush_tlb_info(): the range, and a full flush above the ceiling (in stride pages). */
void shootdown_set_request(struct flush_request *req, uint32_t initiator, uint32_t first,
                           uint32_t pages, uint32_t flags, uint64_t gen, uint32_t ceiling)
{
    req->stride_2m = (flags & FLUSH_STRIDE_2M) != 0;
    req->start = req->stride_2m ? testmem_va_2m(first) : testmem_va(first);
    req->first_page = first;
    req->pages = pages;
    req->flags = flags;
    req->initiator = initiator;
    req->new_tlb_gen = gen;
    req->full = (flags & FLUSH_ALL) || pages > ceiling;
}

uint64_t shootdown_delivery_ack(const struct shootdown_parts *p)
{
    if (MUTANT(breakdown_keeps_handler))
        return p->wait;
    return p->wait > p->handler ? p->wait - p->handler : 0;
}

uint64_t shootdown_handler_in_wait(const struct shootdown_parts *p)
{
    return p->handler < p->wait ? p->handler : p->wait;
}

uint32_t shootdown_last_acker(const uint64_t *ticket, const uint64_t *handler, uint32_t n)
{
    uint32_t i, last = 0;
    for (i = 1; i < n; i++) {
        if (MUTANT(breakdown_slowest_handler) ? handler[i] > handler[last]
                                              : ticket[i] > ticket[last])
            last = i;
    }
    return last;
}

/*
 * After the closing timestamp: each sent target's ticket of this round (it is
 * taken just after the ack, so it may still be on its way) and handler, the
 * slowest handler, and the last to acknowledge with its handler as the part.
 */
static bool read_acks(struct shootdown *sd, uint64_t first_ticket, uint64_t deadline)
{
    struct smp *s = sd->smp;
    uint32_t i, last;
    sd->max_handler_ticks = 0;
    for (i = 0; i < sd->nsent; i++) {
        struct percpu *t = s->cpu[sd->sent[i]];
        if (!smp_wait_answer(s, sd->sent[i], &t->flush.ack_ticket, ANSWER_GE, first_ticket,
                             deadline)) {
            smp_mark_unanswered(s, sd->sent[i], "flush ack ticket", &t->flush.ack_ticket,
                                first_ticket);
            return false;
        }
        sd->ack_ticket[i] = load_acquire(&t->flush.ack_ticket);
        sd->ack_handler[i] = load_acquire(&t->flush.handler_ticks);
        if (sd->ack_handler[i] > sd->max_handler_ticks)
            sd->max_handler_ticks = sd->ack_handler[i];
    }
    if (!sd->nsent)
        return true;
    last = shootdown_last_acker(sd->ack_ticket, sd->ack_handler, sd->nsent);
    sd->parts.handler = sd->ack_handler[last];
    sd->parts.last_cpu = sd->sent[last];
    return true;
}

uint64_t shootdown_flush(struct shootdown *sd, const uint32_t *targets, uint32_t n,
                         enum flush_order order, uint32_t first, uint32_t pages, uint32_t flags)
{
    struct smp *s = sd->smp;
    struct percpu *self = this_percpu();
    struct flush_request *req = &sd->req;
    uint64_t gen, t0, ts, sent, t1, deadline, first_ticket;
    uint32_t i;
    bool lost = false;

    sd->parts = (struct shootdown_parts){ 0, 0, 0, 0, UINT32_MAX };
    /* halted targets asleep, every time (core/machine/ipi.h): outside the timed window */
    ipi_settle_targets(s, targets, n);
    gen = add_fetch(&sd->mm.tlb_gen, 1); /* inc_mm_tlb_gen(): a full barrier */
    shootdown_set_request(req, self->index, first, pages, flags, gen, sd->ceiling);
    /* every earlier round's tickets are in (read_acks() waited for them) */
    first_ticket = load_acquire(&ack_tickets.next) + 1;
    if (MUTANT(swap_order))
        order = order == ORDER_SEQUENTIAL ? ORDER_CONCURRENT : ORDER_SEQUENTIAL;

    t0 = tsc_open();
    ts = t0;
    if (order == ORDER_SEQUENTIAL) {
        flush_tlb_func(sd, self, req);
        ts = tsc_close();
        sd->parts.local_flush = ts - t0;
    }
    if (MUTANT(remap_after_flush) && order == ORDER_SEQUENTIAL && sd->mutant_late_remap)
        testmem_flip(sd->tm, first, sd->mutant_late_remap);
    sd->nsent = sd->nverify = 0;
    for (i = 0; i < n; i++) {
        struct percpu *t = s->cpu[targets[i]];
        bool interrupt = should_flush(sd, t, flags);
        /* with freed tables no target may keep the old state, lazy or not */
        if (interrupt || (flags & FLUSH_FREED_TABLES))
            sd->verify_cpus[sd->nverify++] = targets[i];
        if (!interrupt)
            continue;
        store_relaxed(&t->flush.request_gen, gen);
        sd->sent[sd->nsent++] = targets[i];
    }
    /* requests first, then the IPIs: smp_call_function_many_cond() queues, then kicks */
    if (sd->cluster_ipis)
        ipi_send_cluster(s, sd->sent, sd->nsent, VEC_FLUSH);
    else
        ipi_send_each(s, sd->sent, sd->nsent, VEC_FLUSH);
    sent = tsc_open();
    sd->parts.send = sent - ts;
    if (order == ORDER_CONCURRENT) {
        flush_tlb_func(sd, self, req);
        sd->parts.local_flush = tsc_close() - sent;
    }
    if (MUTANT(remap_after_flush) && order == ORDER_CONCURRENT && n == 0 &&
        sd->mutant_late_remap)
        testmem_flip(sd->tm, first, sd->mutant_late_remap);
    sd->mutant_late_remap = 0;
    deadline = t0 + s->timeout_ticks;
    for (i = 0; i < sd->nsent; i++) {
        struct percpu *t = s->cpu[sd->sent[i]];
        if (!smp_wait_answer(s, sd->sent[i], &t->flush.ack_gen, ANSWER_EQ, gen, deadline)) {
            smp_mark_unanswered(s, sd->sent[i], "flush IPI", &t->flush.ack_gen, gen);
            lost = true;
        }
    }
    t1 = tsc_close(); /* the closing timestamp of the shootdown */
    sd->close_tsc = t1;
    sd->max_handler_ticks = 0;
    /* a deadline of its own: the acks may have used a late grace (smp_wait_answer) */
    if (!lost)
        lost = !read_acks(sd, first_ticket, t1 + s->timeout_ticks);
    sd->parts.wait = t1 - sent;
    return lost ? 0 : t1 - t0;
}

static bool ipi_and_wait(struct shootdown *sd, const uint32_t *cpus, uint32_t n, uint8_t vector,
                         volatile uint64_t *(*slot)(struct percpu *), const char *what);
static volatile uint64_t *verify_slot(struct percpu *pc);

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

void shootdown_flush_local(struct shootdown *sd, uint32_t first, uint32_t pages)
{
    struct percpu *self = this_percpu();
    struct flush_request *req = &sd->req;
    shootdown_set_request(req, self->index, first, pages, 0, add_fetch(&sd->mm.tlb_gen, 1),
                          sd->ceiling);
    flush_tlb_func(sd, self, req);
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

/*
 * Runs on every CPU: a flush of every context the experiments use and the
 * current generation. Every PCID, not only the current one: a user-PCID
 * entry left from an earlier point would be loaded, without a flush, by the
 * next return to user (SWITCH_TO_USER_CR3 sets NOFLUSH when nothing is
 * pending), and read as stale.
 */
static int64_t sync_cpu(struct percpu *pc, void *arg)
{
    struct shootdown *sd = arg;
    if (sd->global_pages) {
        flush_global(sd);
    } else if (sd->pcid_enabled) {
        write_cr3(sd->cr3_root | sd->user_pcid);
        write_cr3(sd->cr3_root | sd->kernel_pcid);
    } else {
        flush_local_all();
    }
    pc->local_tlb_gen = load_acquire(&sd->mm.tlb_gen);
    pc->user_flush_pending = 0;
    store_relaxed(&pc->tlbs.is_lazy, 0);
    store_relaxed(&pc->tlbs.is_running, 1);
    store_relaxed(&pc->tlbs.need_flush, 0);
    return 0;
}

bool shootdown_sync_all(struct shootdown *sd)
{
    struct smp *s = sd->smp;
    uint32_t i;
    bool ok = true;
    sync_cpu(this_percpu(), sd);
    for (i = 0; i < s->count; i++)
        if (i != this_percpu()->index && smp_usable(s, i))
            smp_post(s, i, CMD_GENERIC, sync_cpu, sd);
    for (i = 0; i < s->count; i++)
        if (i != this_percpu()->index && smp_usable(s, i))
            ok &= smp_wait(s, i, tsc_now() + s->timeout_ticks) == WAIT_OK;
    return ok;
}
