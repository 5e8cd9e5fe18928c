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
/* status SUCCESS unless set before; FAILURE when the verifier saw stale reads (not for the control)
 * or reads of neither frame (any experiment) */
void a64_exp_end(struct arm64_run *run, struct experiment_record *e, uint64_t t0);
/* NULL when the experiment's points are full (the caller stops, partial) */
struct result_point *a64_point_add(struct experiment_record *e);
/* the point's "latency" metric from n samples (sorted in place) */
void a64_latency(struct result_point *p, uint64_t *samples, uint32_t n);

/* usable CPUs other than the BSP, in index order; returns how many */
unsigned a64_others(unsigned *out);
/* CPU c may be an IPI experiment's target or initiator: usable, and SGIs reach it (gic_ok;
 * not one a64_gic_check_secondaries named, e.g. an Aff0 above 15 without the range selector) */
bool a64_sgi_reachable(unsigned c);
/* a64_others' CPUs that SGIs reach; every usable one they do not is named in e's notes and
 * makes e partial */
unsigned a64_sgi_others(struct experiment_record *e, unsigned *out);
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

/*
 * The test region, changed only by break-before-make (Arm ARM, "Using break-before-make
 * when updating translation table entries"; Linux: ptep_clear_flush() then set_pte_at(),
 * whose pgattr_change_is_safe() refuses a live change of output address or nG).
 */
/* Every page back to pool 0: all descriptors invalid, DSB ISHST, TLBI VMALLE1IS (ALLE2IS at
 * EL2), DSB ISH, ISB, then the new descriptors, DSB ISHST, ISB. */
void region_reset(void);
/* The pages non-global (nG, under the current ASID) or global from now on: region_reset with
 * the new nG, so the flip of a live descriptor goes through invalid + TLBI + DSB too. */
void region_set_ng(bool ng);
/* The break alone: descriptors of [first, first+n) invalid, then DSB ISHST (every walk
 * sees them before any later TLBI). stale_detector_control stops here. */
void region_unmap(unsigned first, unsigned n);
/* The experiment's timed shootdown between break and make: its ticks, 0 when a CPU was lost. */
typedef uint64_t region_flush_fn(void *ctx);
/*
 * Pages [first, first+n) to pool by break-before-make, as Linux's ptep_clear_flush() and
 * set_pte_at(): region_unmap (ptep_get_and_clear() and the dsb(ishst) flush_tlb_page() and
 * __flush_tlb_range() begin with), then flush(ctx), the shootdown the experiment times,
 * then the new descriptors, DSB ISHST, ISB. Returns what flush returned. The window is the
 * TLBIs to the DSB ISH's completion (and ISB): the invalid store and its DSB ISHST are
 * outside it, before, and the new store after it, as ptep_get_and_clear() and set_pte_at()
 * are outside flush_tlb_page(); so is that DSB ISHST, which Linux counts inside
 * flush_tlb_page(): here it has drained the store before the window opens
 * (tlbi_broadcast_vs_ipi's broadcast_linux, Linux's own sequence, issues it
 * again inside its window, with nothing left to drain).
 */
uint64_t region_remap(unsigned first, unsigned n, unsigned pool, region_flush_fn *flush, void *ctx);
/* the BSP and cpus[0..k) read pages [first, first+n), so their TLBs hold
 * the translations; false when a CPU did not answer (then lost) */
bool region_warm(struct arm64_run *run, const unsigned *cpus, unsigned k, unsigned first, unsigned n);
/* the verifier: the BSP and every usable CPU read pages [first, first+n) and
 * compare each tag with pool's; checks and stale reads (the other pool's tag) go to
 * e->verification, reads of neither frame (a64_verify.h) to a64_misreads.
 * Returns the stale reads seen. */
uint64_t region_verify(struct arm64_run *run, struct experiment_record *e, unsigned first, unsigned n, unsigned pool);
/* the same, by the BSP and cpus[0..k) only: a shootdown that reached just those (ipi_local
 * to k targets) promises nothing for the others, which may hold the old translation (a
 * speculative walk may have filled it at any time: Arm ARM, "Translation Lookaside
 * Buffers"); x86's verifier reads the CPUs interrupted likewise (core/machine/shootdown.h) */
uint64_t region_verify_cpus(struct arm64_run *run, struct experiment_record *e, unsigned first, unsigned n,
                            unsigned pool, const unsigned *cpus, unsigned k);
/* stale_detector_control's verifier: the descriptors invalid and no TLBI, each CPU reads
 * inside an abort window (asm/abort.h): old_pool's tag is a stale read, a translation fault
 * the right answer, anything else a conflict. Returns the stale reads seen. */
uint64_t region_verify_unmapped(struct arm64_run *run, struct experiment_record *e, unsigned first, unsigned n,
                                unsigned old_pool);
/* the current experiment's reads of neither frame (conflicts: a FAILURE, noted by
 * a64_exp_end) and the translation faults its CPUs recovered from */
void a64_misreads(uint64_t *conflicts, uint64_t *faults);
/* a target's side of a remote read (arg0 first page, arg1 count, arg2 pool or the
 * unmapped verifier's code) */
void a64_fn_read(struct percpu *pc);

#endif
