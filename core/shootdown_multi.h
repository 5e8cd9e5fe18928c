/*
 * Several initiators at once: the shootdown protocol of core/shootdown.h
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
 *    release; the target answers in `ack_seq`, then `verified_seq`;
 *  - IPIs of one vector coalesce in the APIC (one IRR bit), so one handler
 *    run may stand for several initiators' IPIs: the handler scans the slots
 *    of every initiator of the point (Linux drains its call_single_queue the
 *    same way). An IPI that arrives while the handler runs sets IRR again
 *    and the handler runs once more after the EOI, so no request is missed:
 *    its slot was written before its IPI was sent.
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
 *     initiator may rewrite it for its next shootdown as soon as every ack
 *     (and verification) is in, which it sees by load_acquire.
 *  3. flush -> ack: store_release(ack_seq) after the INVLPGs/full flush;
 *     the initiator's wait is load_acquire.
 *  4. pc->local_tlb_gen is private to its CPU but written by the handler and
 *     by the CPU's own local flush as an initiator: the local flush runs
 *     with interrupts off, as Linux runs flush_tlb_func() locally.
 *  5. initiators wait with interrupts ON: each is also a target of the
 *     others, and two initiators waiting for each other with interrupts off
 *     would deadlock (Linux smp_call_function_many() waits with interrupts
 *     enabled for the same reason).
 * Sequence numbers are per initiator and never reset within one
 * shootdown_multi (the slots are zeroed at init), so an old ack can never
 * pass for a new one, even when the point's partition changes.
 */
#ifndef TLBSCOPE_CORE_SHOOTDOWN_MULTI_H
#define TLBSCOPE_CORE_SHOOTDOWN_MULTI_H

#include "core/shootdown.h"

#define MI_VERIFY_ONLY (1u << 8) /* no flush: the target only reads the range (after INVLPGB) */

/* Target `t`'s slot for initiator `i` (one cache line each). */
struct mi_slot {
    volatile uint64_t request_seq;  /* initiator: release, after `from` and its request */
    volatile uint64_t ack_seq;      /* target: release, after the flush */
    volatile uint64_t verified_seq; /* target: release, after reading the range */
    volatile uint32_t from;         /* initiator whose request this is */
} __attribute__((aligned(CACHE_LINE)));

struct mi_initiator {
    struct flush_request req;       /* read by targets: written only between rounds */
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
/*
 * Asks the last round's targets to read the range (after INVLPGB+TLBSYNC, or
 * again after a flush) without flushing; they answer in verified_seq.
 */
bool shootdown_multi_request_verify(struct shootdown_multi *m, const uint32_t *targets, uint32_t n,
                                    uint32_t first, uint32_t pages);
/* Waits until every target of the last round has read the range; then reads it itself. */
bool shootdown_multi_wait_verified(struct shootdown_multi *m);

#endif
