/*
 * The shootdown protocol every experiment shares, written the way Linux runs
 * it (arch/x86/mm/tlb.c, ../shared/reference/tlb-mechanics.md A.1-A.7):
 *
 *  - the initiator bumps the mm's TLB generation (inc_mm_tlb_gen), fills one
 *    flush request in its own cache line, writes each chosen target's request
 *    slot, then sends one IPI per target; the targets read the request, flush,
 *    and acknowledge in their own line (the CSD lock of
 *    smp_call_function_many_cond);
 *  - sequential order flushes locally before the IPIs (before 5.13),
 *    concurrent order after sending them (since 5.13, commit 4ce94eabac16);
 *  - the handler is flush_tlb_func(): skip when the CPU's generation already
 *    covers the request, INVLPG per page when it is exactly one behind and
 *    the range is within the ceiling, a full flush otherwise;
 *  - lazy CPUs are skipped (should_flush_tlb()) unless page tables were
 *    freed, and catch up when they switch back by comparing generations;
 *    the Xen variant skips CPUs not marked running and makes them flush on
 *    their next schedule;
 *  - with PTI each page is invalidated again in the user PCID (INVPCID), or
 *    the user PCID is marked and flushed at the next return to user;
 *  - a full flush is Linux's flush_tlb_local(): a CR3 write, the user PCID
 *    marked for the return to user (invalidate_user_asid()); INVPCID
 *    single-context (user PCID at once) is the named variant
 *    full_uses_invpcid, measured as its own point where the CPU has it.
 *
 * Verification: the request's pages were remapped to frames with fresh
 * signatures before the shootdown; every CPU reads them through its TLB
 * once the initiator has taken its closing timestamp (the targets, on a
 * verification IPI sent after it): the reads are outside the timed window
 * and cannot slow the targets still being waited for. The targets read are
 * those that must hold no old translation now: the ones interrupted, and
 * with freed page tables every target, lazy ones included, which Linux must
 * interrupt then (a lazy CPU left out would walk the freed table). A stale
 * signature is recorded with CPU, VA, expected and seen value.
 */
#ifndef TLBSCOPE_CORE_SHOOTDOWN_H
#define TLBSCOPE_CORE_SHOOTDOWN_H

#include "core/machine/smp.h"
#include "core/machine/testmem.h"

enum flush_order { ORDER_SEQUENTIAL = 0, ORDER_CONCURRENT };
enum lazy_policy { LAZY_IPI_ALL = 0, LAZY_SKIP, LAZY_XEN_RUNNING };
enum pti_mode { PTI_OFF = 0, PTI_INVPCID, PTI_DEFERRED };

#define FLUSH_FREED_TABLES (1u << 0) /* page tables were freed: lazy CPUs must flush now */
#define FLUSH_VERIFY (1u << 1)       /* verified by shootdown_wait_verified(), after the closing timestamp */
#define FLUSH_STRIDE_2M (1u << 2)    /* the range is of the 2 MiB test pages (stride_shift 21) */
#define FLUSH_ALL (1u << 3)          /* a full flush whatever the size (Linux TLB_FLUSH_ALL) */
#define FLUSH_RETURN_TO_USER (1u << 4) /* with FLUSH_VERIFY: targets first return to user, timed */

struct mm_generation;

struct flush_request {
    uint64_t start;         /* first virtual address */
    uint32_t pages;         /* of the stride: 4 KiB, or 2 MiB with FLUSH_STRIDE_2M */
    uint32_t first_page;    /* test-region index of `start` (in its bank of 4 KiB or 2 MiB pages) */
    uint32_t flags;
    uint32_t initiator;
    uint64_t new_tlb_gen;
    uint8_t full;           /* pages > ceiling, or FLUSH_ALL: one full flush instead of INVLPGs */
    uint8_t stride_2m;
    struct mm_generation *mm; /* the request's mm; NULL: the shootdown's own (sd->mm) */
} __attribute__((aligned(CACHE_LINE)));

struct mm_generation {
    volatile uint64_t tlb_gen; /* Linux mm->context.tlb_gen */
} __attribute__((aligned(CACHE_LINE)));

struct verify_request {
    volatile uint64_t gen;
    uint32_t first, count;
    uint8_t large;           /* the 2 MiB pages */
    uint8_t return_to_user;  /* return to user first, timed (FLUSH_RETURN_TO_USER) */
} __attribute__((aligned(CACHE_LINE)));

/*
 * One shootdown's parts (shootdown_flush()), each on one CPU's clock: the
 * initiator's send (request slots and ICR writes), its local flush (before
 * the send in sequential order, after it in concurrent order) and its wait
 * from the last ICR write to the last acknowledgement seen; the handler of
 * the target that acknowledged last (the one whose ack ends the wait, on
 * that target's clock: entry to acknowledgement), which need not be the
 * slowest handler when k > 1. Seq: latency = local_flush + send + wait;
 * conc: latency = send + wait, the local flush inside the wait.
 */
struct shootdown_parts {
    uint64_t send, local_flush, wait, handler;
    uint32_t last_cpu; /* the target that acknowledged last (UINT32_MAX: none was sent one) */
};
/*
 * What no single clock can split: delivery (from the last ICR write to the
 * handler's entry, the wake-up of a halted target included) plus the
 * acknowledgement's way back, derived as wait - handler of the last target
 * to acknowledge (never below 0). In concurrent order a local flush that
 * outlasts delivery, handler and acknowledgement is in it too.
 * shootdown_handler_in_wait() is the handler's part of the wait (the
 * handler, at most the wait): the two add up to the wait exactly.
 */
uint64_t shootdown_delivery_ack(const struct shootdown_parts *p);
uint64_t shootdown_handler_in_wait(const struct shootdown_parts *p);
/*
 * Of the n targets sent an IPI, the index of the one that acknowledged last:
 * the highest ticket (struct flush_slot ack_ticket, taken from one counter
 * just after each ack, so acks closer together than a locked add may be
 * ordered either way). handler[] is each one's handler time (unused here;
 * the test-only mutant breakdown_slowest_handler picks its largest).
 */
uint32_t shootdown_last_acker(const uint64_t *ticket, const uint64_t *handler, uint32_t n);

struct shootdown {
    struct flush_request req;  /* written by the initiator only */
    struct mm_generation mm;
    struct verify_request verify;
    struct smp *smp;
    struct testmem *tm;
    uint32_t ceiling;
    bool full_uses_invpcid;    /* INVPCID single-context instead of a CR3 reload */
    bool cluster_ipis;         /* x2APIC cluster mode: logical IPIs per cluster (issue 21) */
    bool flush_global_invpcid; /* a global flush is INVPCID type 2 (else a CR4.PGE toggle) */
    bool global_pages;         /* test pages are global (kernel mappings): full flushes are global */
    bool pcid_enabled;         /* kernel and user PCIDs exist: synchronising flushes both */
    enum lazy_policy lazy;
    enum pti_mode pti;
    uint64_t cr3_root;         /* for the PCID switches of the PTI variants */
    uint32_t kernel_pcid, user_pcid;
    uint32_t *sent;            /* scratch: targets that got an IPI this round */
    uint32_t nsent;
    uint64_t *ack_ticket, *ack_handler; /* scratch: per sent target, its ticket and handler */
    uint32_t *verify_cpus;     /* scratch: targets that must hold no old translation now */
    uint32_t nverify;
    uint64_t max_handler_ticks;/* slowest target's handler in the last round */
    uint64_t max_return_ticks; /* slowest target's return to user (FLUSH_RETURN_TO_USER) */
    uint64_t max_refill_ticks; /* slowest target's working-set refill (touch_pages) */
    uint64_t close_tsc;        /* the initiator's closing timestamp of the last round */
    struct shootdown_parts parts; /* of the last round */
    uint32_t touch_pages;      /* targets read this many working-set pages after flushing and
                                * acknowledging, timed on their own clock (flush_ceiling: the
                                * refill, which no Linux initiator waits for) */
    enum ws_form touch_form;   /* of which form of the working set (targets also touch it at
                                * verification: in their TLBs again before the next sample) */
    uint32_t user_ws_pages;    /* the user working set every return to user touches after
                                * the flushed pages (pti_double_invalidation: what the
                                * deferred flush really costs is its refill) */
    uint32_t mutant_late_remap;/* MUTANT(remap_after_flush) only: pages the initiator remaps
                                * after its own flush */
};

/* Allocates scratch and makes the protocol active for the IPI handlers. */
bool shootdown_init(struct shootdown *sd, struct smp *s, struct testmem *tm, uint32_t ceiling);
void shootdown_release(struct shootdown *sd);
void shootdown_install_handlers(void);
/*
 * Brings every usable CPU to the same generation with a full flush (so the
 * next request is a clean "one behind") and clears lazy/running flags and
 * verification counters. Call at the start of each parameter point.
 */
bool shootdown_sync_all(struct shootdown *sd);

/*
 * One shootdown of test pages [first, first + pages) to `targets`, in the
 * given order (of the 2 MiB pages with FLUSH_STRIDE_2M; FLUSH_ALL makes it
 * a full flush on every CPU). The caller has already remapped the pages
 * (testmem_flip).
 * Returns the ticks from just after the PTE change to the last
 * acknowledgement on the initiator's clock, or 0 when a target did not
 * answer (it is then marked and the caller drops it).
 */
uint64_t shootdown_flush(struct shootdown *sd, const uint32_t *targets, uint32_t n,
                         enum flush_order order, uint32_t first, uint32_t pages, uint32_t flags);
/*
 * Waits for the FLUSH_VERIFY results of the last round's targets (the
 * initiator verifies itself first); false if one is lost. With
 * FLUSH_RETURN_TO_USER, max_return_ticks is the slowest target's return;
 * with touch_pages, max_refill_ticks the slowest target's refill.
 */
bool shootdown_wait_verified(struct shootdown *sd);
/* The initiator's own flush_tlb_func(), as used for local-only measurements. */
void shootdown_flush_local(struct shootdown *sd, uint32_t first, uint32_t pages);

/*
 * Every CPU of `cpus` and the caller returns to user once, untimed, reading
 * no test page: the user working set is then in the user PCID before a
 * point's first sample (each timed return leaves it there for the next).
 * False if a CPU is lost.
 */
bool shootdown_prime_user(struct shootdown *sd, const uint32_t *cpus, uint32_t n);
/* Asks `cpus` (and the caller) to read pages and report stale ones; false if one is lost. */
bool shootdown_verify_cpus(struct shootdown *sd, const uint32_t *cpus, uint32_t n, uint32_t first,
                           uint32_t count, bool large);
/* Lazy CPUs switch back: catch up, verify, go lazy again. Returns the slowest catch-up in ticks. */
bool shootdown_switch_back(struct shootdown *sd, const uint32_t *cpus, uint32_t n,
                           uint64_t *max_catchup_ticks);
/* Marks CPUs lazy (Linux) or not running (Xen). */
void shootdown_set_lazy(struct shootdown *sd, const uint32_t *cpus, uint32_t n, bool lazy);

/*
 * flush_tlb_func() on the calling CPU for `req` (of req->mm): the handler's
 * work, shared with the concurrent-initiator protocol (core/machine/shootdown_multi.c).
 * The caller keeps interrupts off: pc->local_tlb_gen is also the handler's.
 */
void shootdown_flush_func(struct shootdown *sd, struct percpu *pc, const struct flush_request *req);
/*
 * The flushes flush_tlb_func() chooses between, on the calling CPU, also used
 * outside it: a full flush of the current PCID (Linux flush_tlb_local(), the
 * user PCID marked or, with full_uses_invpcid, flushed at once; a global flush
 * with global_pages), by a lazy CPU's catch-up; and everything, global entries
 * included (__native_tlb_flush_global()), by the synchronising flush.
 */
void shootdown_flush_full(struct shootdown *sd, struct percpu *pc);
void shootdown_flush_global(struct shootdown *sd);
/* Linux get_flush_tlb_info(): fills `req` for pages [first, first + pages) at generation `gen`. */
void shootdown_set_request(struct flush_request *req, uint32_t initiator, uint32_t first,
                           uint32_t pages, uint32_t flags, uint64_t gen, uint32_t ceiling);

/*
 * The return to user space of the calling CPU (Linux SWITCH_TO_USER_CR3 and
 * the first user accesses): under PTI load the user PCID, without NOFLUSH if
 * its flush is pending (the deferred flush happens here), read one word of
 * each page (refilling what was invalidated), then of each of the
 * user_ws_pages working-set pages (refilling what a deferred flush threw
 * away), and come back to the kernel PCID with NOFLUSH; without PTI only
 * the reads. Returns its ticks.
 */
uint64_t shootdown_return_to_user(struct shootdown *sd, struct percpu *pc, uint32_t first,
                                  uint32_t count);
/* Reads the test pages on the calling CPU (kernel PCID, and user PCID under PTI). */
void shootdown_verify_self(struct shootdown *sd, struct percpu *pc, uint32_t first, uint32_t count,
                           bool large);
/*
 * A target's side of a verification round (VEC_VERIFY) and of a lazy CPU's
 * switch-back (VEC_SWITCH): what their IPI handlers do for the active
 * protocol, answering in pc->flush.verify_gen or switch_gen.
 */
void shootdown_verify_target(struct shootdown *sd, struct percpu *pc);
void shootdown_switch_target(struct shootdown *sd, struct percpu *pc);

#endif
