/*
 * ipi_target_state's states: what the target does while it is pinged, and
 * for the idle ones what the machine says about them (core/machine/idle_states.h:
 * settle time; the residency counter that can prove the state). The list
 * is built once per run from CPUID, MSRs and the FADT; the experiment
 * (core/exp/ipi_target_state.c) measures it.
 */
#ifndef TLBSCOPE_CORE_EXP_TARGET_STATES_H
#define TLBSCOPE_CORE_EXP_TARGET_STATES_H

#include <stdbool.h>
#include <stdint.h>

#include "core/machine/idle_states.h"
#include "core/machine/residency.h"
#include "core/run/runner.h"

#define TS_MAX_STATES 20

/* TS_RING3: the pause loop at CPL 3 (asm/ring3.h): its interrupts pay the privilege change */
enum ts_kind { TS_PAUSE = 0, TS_BUSY, TS_HLT, TS_MWAIT, TS_IOPORT, TS_IRQOFF, TS_RING3 };

struct ts_def {
    enum ts_kind kind;
    uint32_t hint;      /* MWAIT EAX */
    uint32_t window_us; /* irqoff */
    uint16_t port;      /* ioport: CStateBaseAddr + n */
    struct idle_settle settle;
    uint32_t core_cstate;   /* the core state its residency counter proves; 0: none */
    char why_none[200];     /* why there is no counter when core_cstate is 0 */
    char reason[RESIDENCY_REASON_LEN]; /* the residency verdict's reason, kept for the report */
    char name[24];
};

struct ts_states {
    struct ts_def *defs; /* static storage: the report keeps pointers to names and reasons */
    uint32_t n, cap;
};

/* HLT, MWAIT and the I/O-port entry: a sleep until an interrupt. */
bool ts_kind_is_idle(enum ts_kind kind);

/* Appends a state (NULL when the list is full), with the default settle time. */
struct ts_def *ts_states_add(struct ts_states *st, enum ts_kind kind, uint32_t hint,
                             uint32_t window_us, const char *name);
/*
 * The MWAIT states: C1 wherever MONITOR exists, deeper hints as CPUID leaf 5
 * enumerates them, each with its settle time and counter from the model's
 * table; notes with the CPUID evidence, the table and MSR 0xE2.
 */
void ts_states_add_mwait(struct runner *r, struct experiment_record *rec, struct ts_states *st);
/* ring3_loop where a CPL 3 loop can run (not the host model: a note says why). */
void ts_states_add_ring3(struct runner *r, struct experiment_record *rec, struct ts_states *st);
/*
 * ring3_loop's evidence on its point: every ping (warm-up included) found
 * the interrupted CS at RPL 3 (cpl3 == pings), and the loop came back by
 * its INT (ran_ok); else the experiment is ERROR: no ring-3 figure.
 */
struct ring3_exit;
void ts_ring3_evidence(struct experiment_record *rec, struct result_point *pt, uint64_t cpl3,
                       uint32_t pings, const struct ring3_exit *x, bool ran_ok);
/* AMD's I/O-port C-states (CStateBaseAddr + 0..2), where documented and set; else a note. */
void ts_states_add_ioport(struct runner *r, struct experiment_record *rec, struct ts_states *st);

#endif
