/*
 * What every aarch64 experiment shares: its record in the run (begin, points,
 * notes, end), the CPUs it may use, and the test region's operations with
 * the verifier (every CPU reads each remapped page's tag).
 */
#ifndef TLBSCOPE_CORE_EXP_ARM64_A64_EXP_H
#define TLBSCOPE_CORE_EXP_ARM64_A64_EXP_H

#include "core/run/run_arm64.h"

/* Before an experiment measures (experiments.c, for the loop): its record's points reserved
 * (else ERROR), its verification applicable when it verifies. */
void a64_exp_begin(struct arm64_run *run, struct experiment_record *e, bool verifies);
/* status SUCCESS unless set before; FAILURE when the verifier saw stale reads (not for the control) */
void a64_exp_end(struct arm64_run *run, struct experiment_record *e, uint64_t t0);
/* NULL when the experiment's points are full (the caller stops, partial) */
struct result_point *a64_point_add(struct experiment_record *e);
/* the point's "latency" metric from n samples (sorted in place) */
void a64_latency(struct result_point *p, uint64_t *samples, uint32_t n);

/* usable CPUs other than the BSP, in index order; returns how many */
unsigned a64_others(unsigned *out);
/* A target's side of the IPI experiments, with IRQs masked: acknowledge SGIs
 * (polling the GIC) until arg0 SGI_PINGs came, or none comes and the BSP set
 * arg[3]; answer(pc, n) after the n-th (from 1). result1 = 1 once polling,
 * result0 = other SGIs seen (the SGI_CMD that delivered the command, when
 * still pending). */
void a64_serve_pings(struct percpu *pc, void (*answer)(struct percpu *pc, uint64_t ping));
/* target counts k of an experiment over `others` CPUs: 1, about half, and
 * all (distinct, at most 3); returns how many */
unsigned a64_target_counts(unsigned others, unsigned *out);
uint64_t a64_timeout_ticks(const struct arm64_run *run);

/* The test region: every page back to pool 0, invalidated everywhere. */
void region_reset(void);
/* PTEs of pages [first, first+n) to pool, then DSB ISHST (the walkers see them
 * before any later invalidation: Arm ARM, "Ordering and completion of TLB
 * maintenance instructions") */
void region_remap(unsigned first, unsigned n, unsigned pool);
/* the BSP and cpus[0..k) read pages [first, first+n), so their TLBs hold
 * the translations; false when a CPU did not answer (then lost) */
bool region_warm(struct arm64_run *run, const unsigned *cpus, unsigned k, unsigned first, unsigned n);
/* the verifier: the BSP and every usable CPU read pages [first, first+n) and
 * compare each tag with pool's; checks and stale reads go to e->verification.
 * Returns the stale reads seen. */
uint64_t region_verify(struct arm64_run *run, struct experiment_record *e, unsigned first, unsigned n, unsigned pool);
/* the same, by the BSP and cpus[0..k) only: a shootdown that reached just those (ipi_local
 * to k targets) promises nothing for the others, which may hold the old translation (a
 * speculative walk may have filled it at any time: Arm ARM, "Translation Lookaside
 * Buffers"); x86's verifier reads the CPUs interrupted likewise (core/machine/shootdown.h) */
uint64_t region_verify_cpus(struct arm64_run *run, struct experiment_record *e, unsigned first, unsigned n,
                            unsigned pool, const unsigned *cpus, unsigned k);
/* a target's side of a remote read (arg0 first page, arg1 count, arg2 pool) */
void a64_fn_read(struct percpu *pc);

#endif
