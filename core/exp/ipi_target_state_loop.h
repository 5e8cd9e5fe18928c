/*
 * ipi_target_state's two sides share these: the experiment on the BSP
 * (core/exp/ipi_target_state.c: the states, the pings and their round trips,
 * the points) and what runs on the target and its SMT siblings while they are
 * in a state (core/exp/ipi_target_state_loop.c: the loops, the ping handler,
 * the target's own lost time and residency readings). The lines are written by
 * one side and read by the other, each in its own cache line.
 */
#ifndef TLBSCOPE_CORE_EXP_IPI_TARGET_STATE_LOOP_H
#define TLBSCOPE_CORE_EXP_IPI_TARGET_STATE_LOOP_H

#include "asm/ring3.h"
#include "asm/trap.h"
#include "core/exp/target_states.h"
#include "core/machine/residency.h"
#include "core/machine/smp.h"

/* Written by the target only (its handler and its loop); read by the BSP. */
struct ts_line {
    volatile uint64_t handled;     /* pings taken */
    volatile uint64_t handler_tsc; /* target TSC at the last handler entry */
    volatile uint64_t armed;       /* == handled once the loop is back in its state */
    volatile uint64_t nlost;       /* lost-time records written */
    volatile uint64_t cpl3;        /* pings whose interrupted CS had RPL 3 (the trap frame's) */
} __attribute__((aligned(CACHE_LINE)));

struct ts_ctl {
    struct ts_line line;
    volatile uint32_t stop __attribute__((aligned(CACHE_LINE)));
    const struct ts_def *def;
    uint64_t window_ticks, deadline;
    uint64_t *lost;
    uint32_t cap;
    struct residency_reading before, after; /* the target's own, around its loop */
    uint64_t settled; /* initiator's TSC: the target back in its state to each ping, summed */
    struct ring3_exit r3; /* how ring3_loop's CPL 3 loop ended */
    bool r3_ok;
    bool try_residency; /* set by prepare: Intel, where the residency MSRs are documented */
};

/* The target's SMT siblings in the same state: their own lines (one each), unmeasured. */
struct ts_sibling {
    volatile uint64_t woken;                 /* monitored by an MWAIT sibling; never written */
    volatile uint32_t stop __attribute__((aligned(CACHE_LINE)));
    const struct ts_def *def;
    uint64_t deadline;
} __attribute__((aligned(CACHE_LINE)));

/*
 * VEC_STATE_PING's handler: counts the ping in the line of the control block
 * ts_ping_serve() named, on the target it named only (other CPUs and no block:
 * nothing). ts_ping_stop() leaves the handler nothing to serve.
 */
void ts_ping_handler(struct trap_frame *f);
void ts_ping_serve(struct ts_ctl *c, uint32_t target);
void ts_ping_stop(void);

/*
 * Posted to the target (arg: its struct ts_ctl): runs c->def's state until
 * c->stop, the run's abort or c->deadline, recording its lost time per ping
 * (core/exp/target_lost.h) and, around its samples, its residency counters.
 */
int64_t ts_target_loop(struct percpu *self, void *arg);
/* Posted to each SMT sibling (arg: its struct ts_sibling): the target's state, unmeasured. */
int64_t ts_sibling_loop(struct percpu *self, void *arg);

#endif
