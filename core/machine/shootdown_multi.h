/*
 * Several initiators at once: the shootdown protocol of core/machine/shootdown.h
 * when m CPUs flush concurrently (Linux: threads of one process unmapping at
 * the same time, will-it-scale tlb_flush2_threads; or separate processes).
 *
 * Why a second entry point and not shootdown_flush(): that one has one
 * request (sd->req) and one request/ack slot per target, which two
 * initiators would overwrite under each other. Here:
 *
 *  - each initiator fills its own request (struct mi_initiator, its own
 *    cache lines, written only by it; Linux: the flush_tlb_info on the
 *    initiator's stack that the CSD points to);
 *  - each target has one slot PER INITIATOR (struct mi_slot, one cache line
 *    per (target, initiator) pair; Linux: one call_single_data per CPU pair
 *    in cfd_data). The initiator writes `from` and then `request_seq` with
 *    release; the target answers in `ack_seq`;
 *  - IPIs of one vector coalesce in the APIC (one IRR bit), so one handler
 *    run may stand for several initiators' IPIs: the handler scans the slots
 *    of every initiator of the point (Linux drains its call_single_queue the
 *    same way). An IPI that arrives while the handler runs sets IRR again
 *    and the handler runs once more after the EOI, so no request is missed:
 *    its slot was written before its IPI was sent.
 *
 * Verification never runs inside anyone's timed window (issue 20). A flush
 * request is flushed and acknowledged, nothing else: a target that verified
 * initiator k's pages before acknowledging initiator k+1 in the same handler
 * run put k's reads into k+1's latency. A point runs in rounds (struct
 * mi_point): each initiator remaps its pages and waits at the opening
 * barrier, runs its timed shootdown, waits at the closing barrier until
 * every initiator's window has closed, and only then verifies: a check
 * request (MI_CHECK) makes its targets read its pages, then it reads them
 * itself. The next round opens once every initiator's checks are done, so
 * no check and no check IPI can fall into any window, IPI or INVLPGB. The
 * steady-state loop (mi_steady_shoot) has no checks at all; its last state
 * is checked once the loop has stopped everywhere.
 *
 * Memory ordering, pair by pair:
 *  1. PTE change -> generation: the caller remaps its pages, then
 *     add_fetch(&mm->tlb_gen) (a full barrier, Linux inc_mm_tlb_gen()).
 *     A target that reads a newer generation with acquire also sees every
 *     remap before it (the RMWs on tlb_gen form one release sequence), so a
 *     full flush that covers someone else's request is correct.
 *  2. request -> slot: the initiator writes its request (plain stores), then
 *     store_release(slot->request_seq); the target's load_acquire of it makes
 *     the request visible. The target copies the request before acking: the
 *     initiator may rewrite it for its next request as soon as every ack is
 *     in, which it sees by load_acquire.
 *  3. flush -> ack: store_release(ack_seq) after the INVLPGs/full flush;
 *     for a check request, after the reads (their counts are the target's
 *     own, collected by the BSP once the point has ended); the initiator's
 *     wait is load_acquire.
 *  4. pc->local_tlb_gen and the per-CPU check counters are private to their
 *     CPU but written by the handler and by the CPU itself as an initiator:
 *     its own flush and its own reads run with interrupts off, as Linux runs
 *     flush_tlb_func() locally.
 *  5. initiators wait with interrupts ON (for acks and at the barriers):
 *     each is also a target of the others, and two initiators waiting for
 *     each other with interrupts off would deadlock (Linux
 *     smp_call_function_many() waits with interrupts enabled for the same
 *     reason).
 *  6. barrier: each arrival is add_fetch(&pt->arrived) (seq_cst, a full
 *     barrier after everything the initiator did in the phase: its window
 *     closed, its checks answered); a waiter passes on load_acquire of a
 *     count that includes every arrival of the phase, so whatever any
 *     initiator did before arriving happens before what anyone does after
 *     passing (the RMWs form one release sequence).
 * Sequence numbers are per initiator and never reset within one
 * shootdown_multi (the slots are zeroed at init), so an old ack can never
 * pass for a new one, even when the point's partition changes.
 */
#ifndef TLBSCOPE_CORE_SHOOTDOWN_MULTI_H
#define TLBSCOPE_CORE_SHOOTDOWN_MULTI_H

#include "core/machine/shootdown.h"

#define MI_CHECK (1u << 8) /* no flush: the target reads the range, then acknowledges */

/* Target `t`'s slot for initiator `i` (one cache line each). */
struct mi_slot {
    volatile uint64_t request_seq;  /* initiator: release, after `from` and its request */
    volatile uint64_t ack_seq;      /* target: release, after the flush (or the reads) */
    volatile uint32_t from;         /* initiator whose request this is */
} __attribute__((aligned(CACHE_LINE)));

struct mi_initiator {
    struct flush_request req;       /* read by targets: written only between requests */
    uint64_t seq __attribute__((aligned(CACHE_LINE))); /* private from here on */
    uint64_t signature_gen;         /* testmem_flip_owned() counter */
    uint32_t *sent;
    uint32_t nsent;
    uint32_t lost_cpu;              /* a target that did not answer (UINT32_MAX: none) */
    const char *lost_what;
} __attribute__((aligned(CACHE_LINE)));

struct shootdown_multi {
    struct shootdown *sd;           /* test region, ceiling, full-flush method, lazy flags */
    uint32_t ncpus;
    struct mi_slot *slots;          /* ncpus * ncpus, [target * ncpus + initiator] */
    struct mi_initiator *init;      /* by CPU index */
    struct mm_generation *mms;      /* by CPU index of the group's initiator */
    uint32_t *active;               /* initiators of the current point (the handler scans them) */
    volatile uint32_t nactive;
    bool own_mm;                    /* disjoint groups: each initiator's group has its own mm */
};

bool shootdown_multi_init(struct shootdown_multi *m, struct shootdown *sd);
void shootdown_multi_release(struct shootdown_multi *m);

/*
 * Before a point (no shootdown in flight): the initiators that will run, and
 * whether each has its own mm (disjoint groups, like separate processes) or
 * all share sd->mm (threads of one process). Brings every CPU to its mm's
 * generation with a full flush (shootdown_sync_all). False if a CPU is lost.
 */
bool shootdown_multi_begin_point(struct shootdown_multi *m, const uint32_t *initiators,
                                 uint32_t ninit, bool own_mm);
/* After a point: the generations used stay above everything later (shootdown_release). */
void shootdown_multi_end_point(struct shootdown_multi *m);

/*
 * One shootdown by the calling CPU (an initiator of the point) of test pages
 * [first, first + pages) to `targets`, in concurrent order (IPIs, then the
 * local flush). The caller remapped them with shootdown_multi_flip(). Call
 * with interrupts enabled. Returns the initiator-clock ticks from the PTE
 * change to the last ack, or 0 when a target did not answer (recorded in
 * the initiator's lost_cpu for the BSP to mark).
 */
uint64_t shootdown_multi_flush(struct shootdown_multi *m, const uint32_t *targets, uint32_t n,
                               uint32_t first, uint32_t pages);
/* Remaps the caller's own pages with its own signature counter. */
void shootdown_multi_flip(struct shootdown_multi *m, uint32_t first, uint32_t pages);

/* ---- rounds: what every initiator of a point runs (core/exp/shootdown_contention.c) ---- */
enum mi_method { MI_IPI = 0, MI_INVLPGB };

/* Shared by the initiators of one point. */
struct mi_point {
    volatile uint64_t arrived;      /* barrier arrivals over every phase (its own line) */
    volatile uint32_t failed __attribute__((aligned(CACHE_LINE))); /* set once: all stop */
    enum mi_method method;
    uint32_t ninit;
    uint32_t max_chunk;             /* INVLPGB: pages per instruction */
    uint64_t barrier_ticks;         /* the longest a barrier waits (a slow round, late CPUs) */
    const uint32_t *bystanders;     /* CPUs that only take IPIs: settled before each round */
    uint32_t nbystanders;
    uint32_t settler;               /* the initiator (CPU index) that settles them */
} __attribute__((aligned(CACHE_LINE)));

/* One initiator's part of a point; written by that initiator only. */
struct mi_part {
    struct mi_point *pt;
    const uint32_t *targets;
    uint32_t ntargets, first, pages;
    uint64_t phases;                /* barriers passed */
};

/* Sets up a point's shared part: every field, the barrier at zero, no bystanders. */
void mi_point_init(struct mi_point *pt, enum mi_method method, uint32_t ninit,
                   uint32_t max_chunk, uint64_t barrier_ticks);
/*
 * The point's CPUs that only take IPIs (`cpus`, kept by the caller): halted
 * ones (s->halt_waits, or idling as SPIN_IDLE) are settled asleep before
 * every round's opening barrier by initiator `settler` (ipi_settle_targets()),
 * as shootdown_flush() does before each shootdown: else a round finds them
 * still awake from the last round's check and measures no wake-up (issue 32).
 */
void mi_point_settle(struct mi_point *pt, const uint32_t *cpus, uint32_t n, uint32_t settler);
/*
 * The barrier: arrives, then waits (interrupts on) until every initiator of
 * the point has arrived at this phase. False when the point failed, the run
 * is aborting, or the others did not come in pt->barrier_ticks (then the
 * point fails for all).
 */
bool mi_barrier(struct mi_part *p);
/*
 * A round, in this order. Opening: remaps the caller's pages, then the
 * barrier; with bystanders, a first barrier (every check of the last round
 * done, no IPI on its way to them), the settler settles them while the
 * others wait at the second.
 */
bool mi_round_open(struct shootdown_multi *m, struct mi_part *p);
/*
 * The timed shootdown: IPIs (shootdown_multi_flush) or INVLPGB per chunk
 * and one TLBSYNC. Ticks on the caller's TSC; 0 when a target did not
 * answer (the point is then failed for every initiator).
 */
uint64_t mi_round_shoot(struct shootdown_multi *m, struct mi_part *p);
/* Closing: the barrier; when it returns, every initiator's window of the round has closed. */
bool mi_round_close(struct mi_part *p);
/*
 * The check of the round: the caller's targets read its pages (a check
 * request, MI_CHECK), then the caller reads them (interrupts off). Every
 * read goes into the per-CPU counts (shootdown_collect()).
 */
bool mi_round_check(struct shootdown_multi *m, struct mi_part *p);
/*
 * Steady state: remap and shoot, nothing else (no barrier, no check); adds
 * the remap's ticks (the caller's TSC) to *remap_ticks, so that the rate
 * can be given without it (issue 32: the steady loop timed the remap, the
 * rounds did not).
 */
uint64_t mi_steady_shoot(struct shootdown_multi *m, struct mi_part *p, uint64_t *remap_ticks);

#endif
