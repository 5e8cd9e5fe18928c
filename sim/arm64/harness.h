/*
 * The aarch64 shootdown protocols (core/exp/arm64/tlbi_flush.c, the real
 * code, its TLBI operands built by asm/tlbi.h's shared encoders and decoded by
 * the model) on the strict model (tlbi_model.h): host threads play the CPUs and
 * run them in the shapes of the app's experiments (contract A of issue 27),
 * and every CPU then verifies every remapped page, as the x86 verifier
 * does: a read whose tag is not the new frame's is a stale read.
 *
 * One run = `rounds` rounds over the same region. Before the first round
 * every CPU reads every page, so each TLB holds every translation (later
 * rounds start from the previous round's verification, which does the
 * same). A round:
 *   broadcast   CPU 0 remaps the pages (pte_store each, dsb_ishst), runs
 *               tlbi_flush_broadcast, then tells the others to verify;
 *   ipi_local   CPU 0 remaps, posts the range to every other CPU's mailbox
 *               (its own cache line), runs tlbi_flush_local itself, and
 *               waits for every ack with a deadline; each target runs
 *               tlbi_flush_local on the request, then acks; then everyone
 *               verifies;
 *   range       as broadcast with tlbi_flush_range;
 *   concurrent  CPUs 0..m-1 each remap their own slice of the pages and run
 *               tlbi_flush_broadcast on it, all at once; then everyone
 *               verifies every page;
 *   control     CPU 0 makes the descriptors invalid and issues no TLBI
 *               (the break alone): the CPUs read inside an abort window
 *               (asm/abort.h); one holding the old entry reads stale, one
 *               without takes a recovered translation fault (`faults`); the
 *               model must show stale reads (the verifier works).
 *   broadcast_os   as broadcast with tlbi_flush_broadcast_os (VAE1OS, DSB OSH);
 *   os_dsb_ish     control: VAE1OS per page completed with DSB ISH only (the
 *                  inner domain's barrier): the model must show stale reads;
 *   asid        the pages mapped non-global, every CPU under ASID A64H_ASID_VALUE;
 *               CPU 0 remaps and runs tlbi_flush_asid (ASIDE1IS, DSB ISH);
 *   asid_global control: the same on global mappings, which an ASID
 *               invalidation leaves alone: the model must show stale reads;
 *   full        the pages global; CPU 0 remaps and runs tlbi_flush_all
 *               (VMALLE1IS, DSB ISH): flush_ceiling's full flush at EL2;
 *   no_ishst    control: CPU 0 stores the descriptors and runs
 *               tlbi_flush_broadcast with no DSB ISHST between ("store,
 *               TLBI, DSB ISH"): the model must show stale reads;
 *   tlbi_first  control: CPU 0 issues the VAE1IS of every page first, then
 *               stores the descriptors, DSB ISHST, DSB ISH, ISB ("TLBI, then
 *               store"): the model must show stale reads.
 * Every wait has a deadline (timeout_ms from the start of the run): a run
 * that passes it stops, counts it in `timeouts` and returns.
 */
#ifndef TLBSCOPE_SIM_ARM64_HARNESS_H
#define TLBSCOPE_SIM_ARM64_HARNESS_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/arm64/tlbi_model.h"

enum a64h_shape { A64H_BROADCAST, A64H_IPI_LOCAL, A64H_RANGE, A64H_CONCURRENT, A64H_CONTROL,
                  A64H_BROADCAST_OS, A64H_OS_DSB_ISH, A64H_ASID, A64H_ASID_GLOBAL, A64H_FULL,
                  A64H_NO_ISHST, A64H_TLBI_FIRST, A64H_SHAPES };

#define A64H_ASID_VALUE 0x2a /* the ASID the asid shapes' CPUs translate under */

struct a64h_params {
    enum a64h_shape shape;
    uint32_t cpus;        /* 2 .. A64M_MAX_CPUS */
    uint32_t pages;       /* 1 .. A64M_MAX_PAGES */
    uint32_t initiators;  /* concurrent: m (clamped to cpus and pages); else 1 */
    uint32_t rounds;
    uint32_t timeout_ms;
    uint32_t silent_target; /* ipi_local: this CPU (> 0) never answers (0: every CPU does) */
    struct a64m_config model;
};

struct a64h_result {
    uint64_t checks, stale_reads;
    uint64_t faults;       /* the control's reads that found no entry (recovered, not stale) */
    uint32_t timeouts;     /* waits that passed their deadline */
    uint32_t violations;   /* what the model recorded (faults, addresses outside the region) */
    char first_violation[160];
    /* the first stale read */
    uint32_t stale_cpu;
    uint64_t stale_va, stale_expected, stale_seen;
    struct a64m_counts counts;
};

const char *a64h_shape_name(enum a64h_shape s);
void a64h_params_defaults(struct a64h_params *p, enum a64h_shape shape, uint32_t cpus,
                          uint32_t pages, uint64_t seed);
/* False only when the run could not be set up (bad parameters, no memory, no threads). */
bool a64h_run(const struct a64h_params *p, struct a64h_result *r);

#endif
