/*
 * The tool's own multiprocessor protocol, once the firmware has handed over
 * the APs: one per-CPU block per CPU, a mailbox in it, a command loop on
 * every AP, and deadlines on every wait.
 *
 * Per-CPU block layout: each group of fields that another CPU reads or
 * writes sits on its own 64-byte cache line, so a measurement of an IPI or a
 * shootdown does not also measure false sharing (the point of Linux's
 * cpu_tlbstate / cpu_tlbstate_shared split).
 *
 *   mailbox      written by the BSP (command sequence, function, argument)
 *   ack          written by the CPU (acknowledged sequence, result, heartbeat)
 *   ping         IPI round trips: the CPU's handler bumps its own counter here
 *   flush        shootdown request/ack slot of this CPU as a target
 *   tlb_shared   is_lazy / is_running, read by initiators (should_flush_tlb())
 *   idle         whether a halted waiter is asleep, read by initiators before an IPI
 *   private      everything only the CPU itself touches
 */
#ifndef TLBSCOPE_CORE_SMP_H
#define TLBSCOPE_CORE_SMP_H

#include <stdbool.h>
#include <stdint.h>

#include "asm/percpu.h"
#include "core/machine/inject.h"
#include "core/machine/cpu_table.h"
#include "core/lib/mem.h"

/* IPI vectors: all in priority class 15, above the TPR the tool sets. */
#define VEC_WAKE 0xf0      /* wakes a halted CPU; the handler does nothing */
#define VEC_PING 0xf1      /* IPI round trip */
#define VEC_FLUSH 0xf2     /* shootdown request */
#define VEC_EMU_FLUSH 0xf3 /* emulated INVLPGB broadcast (test-only mode) */
#define VEC_VERIFY 0xf4    /* read the test pages and report stale signatures */
#define VEC_SWITCH 0xf5    /* a lazy CPU "switches back" to the mm and catches up */
#define VEC_MULTI_FLUSH 0xf6 /* a request from one of several concurrent initiators */
#define VEC_STATE_PING 0xf7  /* ipi_target_state: a ping whose handler timestamps its arrival */
#define VEC_RELEASE 0xf8     /* the wake-up sent with CMD_RELEASE: taken before the AP leaves */
/* TPR while the tool owns a CPU: blocks vectors 0x00-0xef, i.e. every
 * firmware interrupt source routed through the APIC, leaving ours. */
#define TOOL_TPR 0xe0

struct percpu;
struct smp;
typedef int64_t (*cpu_fn)(struct percpu *self, void *arg);

/* Command ids, for diagnostics ("last command" of a CPU that stopped). */
enum command_id {
    CMD_NONE = 0,
    CMD_RELEASE,
    CMD_PING,
    CMD_PROBE,
    CMD_SPIN_TARGET,
    CMD_IPI_INITIATE,
    CMD_TOUCH,
    CMD_VERIFY,
    CMD_LAZY,
    CMD_CATCHUP,
    CMD_CONTROL,
    CMD_GENERIC,
};
const char *command_name(uint32_t id);

struct mailbox {
    volatile uint64_t seq; /* written last, with release: publishes fn/arg */
    cpu_fn fn;
    void *arg;
    uint32_t command;
    uint32_t experiment; /* index of the experiment that posted it, +1 */
} __attribute__((aligned(CACHE_LINE)));

struct mailbox_ack {
    volatile uint64_t ack_seq;     /* == mailbox.seq when the command finished */
    volatile uint64_t started_seq; /* the command being executed */
    volatile int64_t result;
    volatile uint64_t heartbeat;   /* TSC of the CPU's last loop iteration */
} __attribute__((aligned(CACHE_LINE)));

struct ping_slot {
    volatile uint64_t count;       /* the target's IPI handler increments it */
    volatile uint64_t timed;       /* the protocol steps' pings: the handler times its body */
    volatile uint64_t body_ticks;  /* then: its own clock, C handler entry to the ack store */
} __attribute__((aligned(CACHE_LINE)));

/* The target's request/ack slot (one per target, in the target's line). */
struct flush_slot {
    volatile uint64_t request_gen;  /* written by the initiator before the IPI */
    volatile uint64_t ack_gen;      /* written by the target when flushed */
    volatile uint64_t handler_ticks;/* target's own clock: handler entry to ack */
    volatile uint64_t entry_tsc;    /* target's own clock at the handler's entry (a busy
                                     * target's lost time: core/exp/target_lost.h) */
    volatile uint64_t ack_ticket;   /* the place of its ack among all acks (taken just after
                                     * it: which target acked last, shootdown_last_acker()) */
    volatile uint64_t verify_gen;   /* VEC_VERIFY request the target answered (own counter) */
    volatile uint64_t switch_gen;   /* lazy catch-up done */
    volatile uint64_t catchup_ticks;/* target's own clock: the catch-up */
    volatile uint64_t emu_ack;      /* emulated INVLPGB request done */
    volatile uint64_t return_ticks; /* own clock: FLUSH_RETURN_TO_USER's return to user */
    volatile uint64_t refill_ticks; /* own clock: the working-set refill after the ack */
    volatile uint64_t refill_gen;   /* the request whose refill is done (flush_ceiling's
                                     * critical path ends when the initiator sees it) */
} __attribute__((aligned(CACHE_LINE)));

/* Written by the CPU itself (its wait loop and interrupt entry), read by initiators. */
struct idle_slot {
    volatile uint64_t parked;      /* 1: in "sti; hlt" since its last interrupt (core/machine/ipi.h) */
    volatile uint64_t idles;       /* 1: halts as an idle CPU whatever target_wait says (SPIN_IDLE) */
    volatile uint64_t idle_sleeps; /* halts taken as such an idle CPU (shootdown_lazy's proof) */
} __attribute__((aligned(CACHE_LINE)));

/*
 * Late answers of this CPU under a hypervisor (smp_wait_answer()): written by
 * the CPUs that waited for it, with atomics; `noted` and `run_max_ticks` by
 * the BSP alone, between experiments.
 */
struct late_answers {
    volatile uint64_t graces;      /* graces begun for this CPU */
    volatile uint64_t answers;     /* answered within one */
    volatile uint64_t max_ticks;   /* most ticks past a deadline, since the BSP last noted */
    uint64_t noted;                /* answers already in an experiment's note */
    uint64_t run_max_ticks;
} __attribute__((aligned(CACHE_LINE)));

struct tlb_shared {
    volatile uint8_t is_lazy;      /* Linux cpu_tlbstate_shared.is_lazy */
    volatile uint8_t is_running;   /* Xen v->is_running */
    volatile uint8_t need_flush;   /* Xen: ASID tickled while not running */
} __attribute__((aligned(CACHE_LINE)));

struct fault_record {
    volatile uint32_t valid;
    uint32_t vector;
    uint64_t error_code, rip, cr2;
    uint32_t command;
    uint64_t regs[CPU_FAULT_REGS]; /* as in struct cpu_fault */
};

struct percpu {
    struct arch_percpu arch; /* first: %gs:0 points here */
    uint32_t index;
    uint32_t apic_id;
    struct smp *smp;

    struct mailbox mb;
    struct mailbox_ack ack;
    struct ping_slot ping;
    struct flush_slot flush;
    struct tlb_shared tlbs;
    struct late_answers late;
    struct idle_slot idle;

    /* ---- private to the CPU (plus the BSP after the CPU stopped) ---- */
    uint64_t local_tlb_gen __attribute__((aligned(CACHE_LINE)));
    uint64_t user_flush_pending; /* PTI deferred user-PCID flush */
    uint64_t touch_sink;         /* what working-set touches read: keeps the reads live */
    volatile uint32_t checkin;   /* enum checkin_state */
    /* what it missed a deadline on: answered late if *missed_watch reaches missed_want */
    const volatile uint64_t *missed_watch;
    uint64_t missed_want;
    struct fault_record fault;
    uint32_t inject_kind;        /* enum inject_kind for this CPU */
    uint32_t inject_late_left;   /* inject=late: answers still to give late */
    uint32_t inject_vector;
    uint64_t verify_checks, verify_stale;
    uint64_t stale_va, stale_expected, stale_seen; /* the first stale read since collected */
    volatile uint32_t release_kick_taken; /* its VEC_RELEASE handler ran */
    uint32_t microcode;          /* revision read at check-in */
    bool microcode_valid;
    /* EFER.TCE and LFENCE's dispatch serialisation (core/machine/amd_boot.h), read at
     * entry: as the firmware left them, and as the tool's measurements run (read back) */
    bool tce_found, tce_used, lfence_found, lfence_used;
    void *scratch;               /* per-experiment per-CPU data */
};

enum checkin_state { CHECKIN_WAITING = 0, CHECKIN_DONE, CHECKIN_CLOSED };

struct smp {
    /*
     * Waiting CPUs halt instead of spinning: targets between IPIs and the BSP
     * between answers. Chosen under a hypervisor, where spinning vCPUs starve
     * the one that has work (seen under QEMU TCG on 2 host cores: a 4-CPU
     * IPI broadcast went from 3.5 us to 7 ms at p50). Reported as
     * method.target_wait.
     */
    bool halt_waits;
    /*
     * How long an idle target (SPIN_IDLE) sleeps before it is sent a timed
     * IPI (ipi_settle_targets()): 0 is IPI_SETTLE_US; shootdown_lazy sets
     * the target residency of the MWAIT state its lazy CPUs idle in.
     */
    uint32_t idle_settle_us;
    uint32_t count;              /* CPUs in the table (enabled or not) */
    struct percpu **cpu;         /* by dense index; NULL for disabled CPUs */
    uint32_t *apic_id;           /* by dense index: the destinations of apic_send_ipi_mask() */
    struct cpu_table *topo;
    uint64_t timeout_ticks;      /* one answer from one CPU */
    uint64_t late_grace_ticks;   /* under a hypervisor: the grace after a missed deadline; 0: none */
    uint64_t run_deadline;       /* an AP gives itself back after this TSC */
    volatile uint32_t releasing; /* set once: everyone goes home */
    volatile uint32_t aborting;  /* smp_abort_commands(): running commands stop early */
    volatile uint32_t unknown_checkins; /* APs whose APIC ID is not in the table */
    uint32_t current_experiment; /* +1, for mailbox bookkeeping */
    void (*ap_enter_env)(struct percpu *pc); /* loads the tool's state on an AP */
    void (*ap_leave_env)(struct percpu *pc); /* restores the firmware's */
};

enum wait_status { WAIT_OK = 0, WAIT_TIMEOUT, WAIT_FAULTED };

/*
 * Allocates per-CPU blocks for every CPU of the table that is not disabled,
 * and hands each CPU the test-only fault injected into it (none in a real run).
 */
bool smp_init(struct smp *s, struct cpu_table *topo, const struct injection *inject,
              uint32_t inject_count, uint64_t timeout_ticks);
void smp_release_memory(struct smp *s);
struct percpu *smp_cpu(struct smp *s, uint32_t index);
/* True when the CPU took part so far (checked in, never hung or faulted). */
bool smp_usable(struct smp *s, uint32_t index);

/* ---- BSP side ---- */
/* Posts a command and wakes the CPU. */
void smp_post(struct smp *s, uint32_t index, uint32_t command, cpu_fn fn, void *arg);
/* Waits for the last posted command to finish; marks the CPU on failure. */
enum wait_status smp_wait(struct smp *s, uint32_t index, uint64_t deadline);
/*
 * Like smp_wait, for a command that waits on no other CPU (a spinning
 * target, a local flush): its late grace is one CPU's, not the longer one
 * smp_wait gives a command that may itself wait out another CPU's grace.
 * A hung CPU met at such a wait costs timeout + grace, not timeout + 2
 * graces + timeout (under QEMU, timeout_ms=5000: 15 s instead of 30 s).
 */
enum wait_status smp_wait_leaf(struct smp *s, uint32_t index, uint64_t deadline);
/*
 * Like smp_wait, but the deadline (one timeout) slides forward whenever
 * *progress changes: a long command that keeps reporting progress is not hung.
 */
enum wait_status smp_wait_progress(struct smp *s, uint32_t index,
                                   const volatile uint64_t *progress);
/* smp_post + smp_wait with the standard timeout; returns the command's result via *result. */
enum wait_status smp_call(struct smp *s, uint32_t index, uint32_t command, cpu_fn fn, void *arg,
                          int64_t *result);
/* Marks a CPU out of the run after a missed deadline or a fault (BSP only). */
void smp_mark_lost(struct smp *s, uint32_t index, enum wait_status why, uint32_t command);
/*
 * Marks a CPU that did not answer an IPI-level request in time: hung for
 * now; at release it is reported slow instead if *watch reached want by then.
 * `what` names the request ("flush IPI", "ping IPI").
 */
void smp_mark_unanswered(struct smp *s, uint32_t index, const char *what,
                         const volatile uint64_t *watch, uint64_t want);
/* Wakes a CPU that may be halted (after writing something it polls). */
void smp_kick(struct smp *s, uint32_t index);
/*
 * "sti; hlt" as a waiter, from interrupts off: parked, so initiators count
 * the CPU asleep until its next interrupt's entry clears the flag
 * (arch_unpark(), before the handler acknowledges anything). Returns with
 * interrupts on. core/machine/ipi.h, ipi_settle_targets().
 */
void smp_halt_parked(struct percpu *pc);
/*
 * smp_halt_parked() in MWAIT with `hint` (EAX) instead of HLT: the caller
 * has armed MONITOR and checked its condition with interrupts off; returns
 * with interrupts on.
 */
void smp_mwait_parked(struct percpu *pc, uint32_t hint);

/* ---- AP side ---- */
/* The block of the CPU with this APIC ID (a linear search, once per CPU); NULL if unknown. */
struct percpu *smp_find_by_apic_id(struct smp *s, uint32_t apic_id);
/* Claims the block; false when the BSP already closed check-in for it. */
bool smp_checkin(struct percpu *pc);
/*
 * The AP's command loop. Returns the sequence number of CMD_RELEASE, which
 * the caller acknowledges after restoring firmware state, or 0 when the run
 * deadline passed without a release.
 */
uint64_t smp_ap_loop(struct percpu *pc);
/*
 * After CMD_RELEASE, before the AP gives itself back: waits (interrupts on,
 * one timeout at most) for the wake-up that came with it. An AP that saw the
 * command without halting would otherwise leave while that IPI is still on
 * its way, and it would reach the firmware's IDT, whose handler never EOIs
 * it (arch/x86/include/asm/apic.h). Seen on the modelled APIC (sim/lapic.h): APs handed
 * back with VEC_WAKE pending.
 */
void smp_ap_await_release_kick(struct percpu *pc);
/*
 * Test-only late answers, called where a CPU answers: inject=slow waits two
 * timeouts every time; inject=late 1.5 timeouts for its first
 * SMP_INJECTED_LATE answers (within the grace of smp_wait_answer() under a
 * hypervisor, past the deadline everywhere), then none. Others: nothing.
 */
#define SMP_INJECTED_LATE 3
void smp_injected_delay(struct percpu *pc);
/* Records an exception on the calling CPU; returns true if it could resume at its recovery point. */
struct trap_frame;
bool smp_record_fault(struct trap_frame *f);

/* ---- ownership of the APs (core/machine/smp_lifecycle.c) ---- */
/*
 * Waits for check-ins until `deadline`; late CPUs become absent. Returns how
 * many checked in (in all: earlier passes' included). CPUs that checked in
 * for the first time are recorded as brought up `how`.
 */
uint32_t smp_wait_checkins(struct smp *s, uint32_t expected_aps, uint64_t deadline,
                           uint64_t window_ms, enum cpu_bring_up how);
/*
 * Opens check-in again for the CPUs the last pass counted absent (state ok
 * again, note cleared), before the tool starts them another way (its own
 * INIT-SIPI after MP services). Returns how many.
 */
uint32_t smp_reopen_absent(struct smp *s);
/*
 * Asks every checked-in AP to leave (CMD_RELEASE); returns how many did not
 * acknowledge by `deadline`. CPUs that missed a deadline but answered since
 * are reported slow, not hung.
 */
uint32_t smp_release_aps(struct smp *s, uint64_t deadline);
/*
 * After the BSP lost an experiment (an exception, a spent budget): tells
 * every AP to drop the command it is running (spinning as a target, an
 * initiator's loop) and waits for each to come back to its command loop;
 * CPUs that do not are marked. *busy: how many were running one. Returns
 * how many were lost (they may still read the experiment's state).
 */
uint32_t smp_abort_commands(struct smp *s, uint32_t *busy);

/*
 * Waiting for another CPU's answer: until *p compares with `v` as `test`
 * says, or `deadline`. Under a hypervisor a vCPU can be descheduled for
 * longer than any deadline (QEMU TCG, 288 vCPUs on a loaded 2-core host: 23
 * CPUs missed the 5 s deadline in one quick run, and each answered later).
 * There (s->late_grace_ticks set, SMP_LATE_GRACE timeouts) a CPU that
 * misses the deadline gets that much more, at most SMP_LATE_MAX times in a
 * run: an answer within it counts, the CPU stays in the run, and its
 * lateness is recorded (struct late_answers; the experiment's note and
 * topology.cpus[].late_answers). On hardware, and past those limits, a miss
 * is a miss: the caller marks the CPU (smp_mark_unanswered) as before.
 * Any CPU may call it.
 */
#define SMP_LATE_GRACE 2
#define SMP_LATE_MAX 8
enum answer_test { ANSWER_EQ, ANSWER_NE, ANSWER_GE };
bool smp_wait_answer(struct smp *s, uint32_t cpu, const volatile uint64_t *p, enum answer_test test,
                     uint64_t v, uint64_t deadline);
/*
 * BSP, between experiments: how many late answers CPU `cpu` gave since the
 * last call, and in *max_ticks the most any of them was past its deadline.
 */
uint64_t smp_take_late(struct smp *s, uint32_t cpu, uint64_t *max_ticks);

/* Spin helpers with deadlines (every wait in the tool goes through one of these). */
bool wait_u64_eq(const volatile uint64_t *p, uint64_t want, uint64_t deadline);
bool wait_u64_ne(const volatile uint64_t *p, uint64_t old, uint64_t deadline);
/* For counters that only grow: true once *p >= want. */
bool wait_u64_ge(const volatile uint64_t *p, uint64_t want, uint64_t deadline);
bool deadline_passed(uint64_t deadline);

#endif
