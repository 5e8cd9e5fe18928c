/*
 * Each modelled CPU's store buffer (x86-TSO), behind core/lib/atomic.h's
 * store_relaxed/store_release and load_acquire/load_relaxed in the host
 * build, so a missing full barrier between a store and a later load of
 * another address shows on the model as it would on hardware.
 *
 * A store of the tool's shared data by a thread that plays a CPU reaches
 * memory at once (so the CPU's own later reads, plain ones included, see it:
 * store-to-load forwarding), but it stays pending in the CPU's FIFO of
 * SB_DEPTH entries, with the bytes it replaced: while it is pending, a
 * load_acquire/load_relaxed by any other thread reads those old bytes. So a
 * CPU's load may pass its own earlier stores to other addresses, and nothing
 * else: stores become visible in program order (the FIFO), loads are not
 * reordered with loads (each reads memory once, in program order), and every
 * CPU sees the same order of the stores to one address.
 *
 * A CPU's pending stores all become visible (drain) at:
 *   - full_barrier() (MFENCE) and weak_wrmsr_fence() (MFENCE;LFENCE);
 *   - a locked read-modify-write: fetch_add, add_fetch, cas;
 *   - a serialising instruction the model sees (SDM vol. 3A 10.3: the
 *     privileged list and CPUID, IRET): MOV to CR3/CR4, INVLPG, WRMSR but
 *     the x2APIC ICR and SELF IPI writes on Intel (sim/lapic.h: on AMD and
 *     Hygon those serialise too), LGDT, LIDT, CPUID, the iretq at the end of
 *     an interrupt or exception; I/O instructions (IN/OUT) and uncached
 *     accesses (the xAPIC page), which the SDM orders after earlier stores;
 *     INVPCID, INVLPGB and TLBSYNC are not on the list and drain nothing;
 *   - HLT and MWAIT (cpu_halt_until_irq): not serialising, but a core asleep
 *     commits its buffer, and a store held across a sleep of unbounded
 *     length would hold up the CPUs that wait for it;
 *   - a PTE store (pte_store): the TLB model takes it at once, so the stores
 *     before it drain first, which keeps the store order; a later load may
 *     not pass a PTE store (the model is stricter there than hardware);
 *   - a store or a locked RMW by another CPU to the same bytes: that CPU's
 *     store is ordered after it in memory (its older entries drain too);
 *   - when the buffer is full, the oldest entry; and after SB_HOLD_EVENTS of
 *     the CPU's own events (its shared loads and stores, each cpu_relax())
 *     the entries that old, and after SB_HOLD_NS of wall time, judged by the
 *     reader: no wait on another CPU's store waits forever.
 * The interrupt delivery itself is not serialising (SDM) and drains nothing.
 *
 * Not buffered: plain C stores (only the atomics of atomic.h are the tool's
 * shared data), stores of a thread that plays no CPU, and everything under
 * ThreadSanitizer (the buffer's own lock would give TSan edges the protocol
 * does not have, hiding its races).
 *
 * The race a missing fence opens is narrow in time: the protocol tests
 * widen it where they know it is (a hook runs on the CPU at each load that
 * passes one of its pending stores, and may hold the CPU there: its pending
 * stores then stay pending however long the hold).
 */
#ifndef TLBSCOPE_SIM_STOREBUF_H
#define TLBSCOPE_SIM_STOREBUF_H

#include <stdbool.h>
#include <stdint.h>

#define SB_DEPTH 16         /* entries per CPU (a core's store buffer holds 50-70 stores) */
#define SB_HOLD_EVENTS 64   /* the CPU's own events before a store must be visible */
#define SB_HOLD_NS 20000ull /* wall time before a reader sees a store whatever the CPU does */

/*
 * What core/lib/atomic.h calls (declared there too, where the build has the buffers):
 * a shared store of `size` bytes from *v; a shared load's value *v, read from memory,
 * with the old bytes of other CPUs' pending stores; a locked RMW's start and end.
 */
extern _Thread_local uint32_t sim_sb_self;
extern uint64_t sim_sb_live;
void sim_sb_store(volatile void *p, const void *v, uint32_t size);
void sim_sb_filter(const volatile void *p, void *v, uint32_t size);
void sim_sb_rmw_begin(const volatile void *p, uint32_t size);
void sim_sb_rmw_end(void);

/* The calling thread plays CPU `cpu` (UINT32_MAX: none); its old buffer drains first. */
void sim_sb_bind(uint32_t cpu);
/* After the machine's threads are joined: every CPU's buffer drains (the memory may go). */
void sim_sb_reset(void);
/* The calling CPU's pending stores become visible (a fence, a serialising instruction). */
void sim_sb_drain(void);
/* One event of the calling CPU (cpu_relax): stores older than SB_HOLD_EVENTS drain. */
void sim_sb_event(void);

/*
 * Called on CPU `cpu` when one of its shared loads (of `addr`) passed a
 * store still pending in its buffer; while it runs the CPU's pending stores
 * stay pending. NULL: none (the default).
 */
typedef void (*sim_sb_hook)(uint32_t cpu, const volatile void *addr);
void sim_sb_set_reorder_hook(sim_sb_hook hook);
/* The wall-clock hold (0: SB_HOLD_NS): tests that hold a CPU on purpose make it long. */
void sim_sb_set_hold_ns(uint64_t ns);
/* True when CPU `cpu` has a store to `addr` that other CPUs do not see yet (tests). */
bool sim_sb_pending(uint32_t cpu, const volatile void *addr);

/* What the buffer did, over all CPUs since the process started (tests). */
struct sim_sb_counts {
    uint64_t stores;   /* stores buffered */
    uint64_t passed;   /* shared loads of a CPU that passed one of its pending stores */
    uint64_t hidden;   /* shared loads that read the old value of another CPU's pending store */
};
void sim_sb_counts(struct sim_sb_counts *out);

#endif
