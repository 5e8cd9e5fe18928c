/*
 * The shootdown protocol's timed round and its lifetime: the initiator's
 * request, the IPIs and the wait for every acknowledgement (shootdown_flush()),
 * the IPI handlers (VEC_FLUSH here; VEC_VERIFY and VEC_SWITCH hand the target's
 * work to core/machine/shootdown_verify.c), the acknowledgement tickets of the
 * breakdown, and the synchronising flush at each point's start. The flush each
 * CPU does is core/machine/shootdown_flush_func.c; what follows the closing
 * timestamp (verification, return to user, switch-back) is
 * core/machine/shootdown_verify.c. Both are called from here and call nothing
 * here (core/machine/shootdown.h says how the protocol follows Linux).
 */
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
    shootdown_flush_func(sd, pc, &sd->req);
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
    (void)f;
    if (!sd)
        return;
    shootdown_verify_target(sd, pc);
}

/* A lazy CPU's switch-back (core/machine/shootdown_verify.c says how and why each barrier). */
static void switch_handler(struct trap_frame *f)
{
    struct percpu *pc = this_percpu();
    struct shootdown *sd = active;
    (void)f;
    if (!sd)
        return;
    shootdown_switch_target(sd, pc);
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
        shootdown_flush_func(sd, self, req);
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
        shootdown_flush_func(sd, self, req);
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

void shootdown_flush_local(struct shootdown *sd, uint32_t first, uint32_t pages)
{
    struct percpu *self = this_percpu();
    struct flush_request *req = &sd->req;
    shootdown_set_request(req, self->index, first, pages, 0, add_fetch(&sd->mm.tlb_gen, 1),
                          sd->ceiling);
    shootdown_flush_func(sd, self, req);
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
        shootdown_flush_global(sd);
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
            ok &= smp_wait_leaf(s, i, tsc_now() + s->timeout_ticks) == WAIT_OK; /* local flush */
    return ok;
}
