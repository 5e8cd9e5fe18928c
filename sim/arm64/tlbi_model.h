/*
 * A strict model of what aarch64 TLBs guarantee for the test region, and
 * nothing more: the host side of the aarch64 TLBI primitives
 * (arch/arm64/include/asm/tlbi.h, asm/barrier.h under TLBSCOPE_HOST), so the
 * real protocols of core/exp/arm64/ run on host threads that play the CPUs
 * (sim/arm64/harness.h), as sim/tlb_model.h does for x86.
 *
 * The region: `pages` 4 KiB pages from a virtual base (never dereferenced),
 * one level of translation table (one descriptor per page: frame << 12 | 0b11,
 * A64_PTE_VALID), and frames each holding one tag, the value test_read
 * returns. Per CPU a TLB that can hold every page of the region: an entry,
 * once filled, stays until an invalidation that is complete on that CPU
 * drops it (Arm ARM, "Translation Lookaside Buffers": a TLB may hold an
 * entry indefinitely; eviction is never guaranteed, so the model never
 * evicts).
 *
 * By the letter of the Arm ARM (DDI 0487, D8 "The AArch64 Virtual Memory
 * System Architecture": "TLB maintenance", "Ordering and completion of TLB
 * maintenance instructions"; B2 "Memory barriers"), and the worst way where
 * it leaves a choice. Every TLBI arrives as an operation and its 64-bit
 * operand (a64m_tlbi, from asm/tlbi.h's tlbi_issue), decoded bit by bit as
 * hardware does (C5.5, the operand layouts; the model has its own decoder,
 * never asm/tlbi.h's encoders):
 *   by VA (VAE1IS, VALE1IS, VAE1, VAE1OS): VA[55:12] from bits [43:0]
 *     (VA[63:56] are copies of VA[55]: zero for the TTBR0 addresses of the
 *     region), ASID from [63:48], TTL from [47:44]. It matches a page's
 *     entry when the entry is global (nG = 0) or non-global and filled under
 *     that ASID: a VAE1IS with ASID 0 leaves ASID 0x2a's non-global entries.
 *     TTL [3:2] is the granule (0b00: no hint at all), [1:0] the level: a
 *     TTL other than 0b00xx or 0b0111 (level 3 of the 4 KiB granule, the
 *     only entries the model holds) says the entry is elsewhere: the TLBI is
 *     not required to invalidate it, and the model leaves it. VALE1IS (leaf
 *     only) drops what VAE1IS drops: the model holds leaf entries alone.
 *     VALE1IS with the operand zero (XZR: Linux's repeat-TLBI dummy) names
 *     no entry of the region: counted, not an error.
 *   range (RVAE1IS, RVALE1IS): BaseADDR [36:0] = VA[48:12] (VA[63:49] zero: the region
 *     lies in the TTBR0 half), TTL [38:37] (0 or 0b11 =
 *     level 3 match, else the entries stay), NUM [43:39], SCALE [45:44], TG
 *     [47:46], ASID [63:48]: (NUM + 1) << (5 * SCALE + 1) pages. TG must be
 *     0b01 (4 KiB, the tool's granule): any other is a model error.
 *   ASIDE1IS: ASID [63:48]; bits [47:0] are RES0 and a set one a model error.
 *   An address outside the region is a model error (the protocols name only
 *   the test region; for a range, any page of it).
 * Then:
 *   TLBI VAE1IS (tlbi_va_is)   by CPU i: pending on every CPU (i included);
 *                              complete on all of them only when i executes
 *                              DSB ISH. Until then a CPU keeps its entry
 *                              (the model applies it at the DSB, not before).
 *                              Another CPU's DSB does not complete it.
 *   TLBI VAE1 (tlbi_va_local)  pending on CPU i only (the others never see
 *                              it); complete at i's DSB NSH or DSB ISH.
 *   TLBI RVAE1IS (tlbi_range_is)  as VAE1IS for each page of the range.
 *   TLBI VMALLE1IS (tlbi_all_is)  as VAE1IS for every page, any ASID.
 *   TLBI VAE1OS (tlbi_va_os)   as VAE1IS, but complete only at the issuer's
 *                              DSB OSH: a DSB completes the TLBIs of its own
 *                              shareability domain or a smaller one, and the
 *                              outer domain is the larger (the model's CPUs
 *                              all sit in both; DSB ISH leaves an OS TLBI
 *                              pending).
 *   TLBI ASIDE1IS (tlbi_asid_is)  pending on every CPU like VAE1IS; at the
 *                              issuer's DSB ISH it drops, on each CPU, the
 *                              entries that are non-global (descriptor bit
 *                              nG, A64M_PTE_NG) and were filled under that
 *                              ASID; global entries stay (they match every
 *                              ASID only for lookups and by-VA invalidation,
 *                              never for ASID invalidation).
 *   DSB ISHST (dsb_ishst)      makes i's earlier descriptor stores visible to
 *                              every translation table walk; it completes no
 *                              TLBI (it waits for stores only).
 *   DSB ISH                    both: i's stores visible, i's inner-shareable
 *                              and local TLBIs complete (not its OS ones).
 *   DSB OSH                    as DSB ISH, and i's OS TLBIs complete.
 *   DSB NSH                    i's local TLBIs complete; its stores stay
 *                              invisible to walks ("Ordering of memory
 *                              accesses from translation table walks": a
 *                              walk is only guaranteed to observe a store
 *                              after a DSB of the store's shareability;
 *                              before it not even the storing CPU's walks
 *                              see it, and the model's do not).
 *   ISB                        counted; the model has no pipeline.
 * A descriptor store (pte_store) is buffered on the storing CPU until its
 * next DSB ISH or ISHST (or, when the buffer is full, drained as the store
 * would complete on its own). A miss walks the visible table.
 *
 * Break-before-make (Arm ARM, "Using break-before-make when updating
 * translation table entries"): a descriptor store that changes a valid
 * descriptor into another valid one with a different output address, or
 * flips nG on a valid one, is a model error whenever the old descriptor is
 * valid (some CPU may hold its entry: the conservative reading). The old
 * descriptor is the storing CPU's last store to it, else the visible table.
 * The way that passes: the descriptor invalid, the TLBI complete, then the
 * new one (Linux's ptep_clear_flush() then set_pte_at()). A read that finds
 * no usable entry and an invalid descriptor is a translation fault: a model
 * error, except when the harness asks for it as the recoverable abort of
 * stale_detector_control's reads (a64m_read_recoverable, asm/abort.h).
 *
 * Stale entries are made likely, not only possible: at a descriptor store
 * every other CPU may first walk the old translation (hardware may have
 * walked it speculatively at any time before), and at every model event
 * (each primitive, each read, each wait iteration through a64m_tick) the
 * CPU may walk a page speculatively: half the time one it invalidated
 * lately or has an invalidation pending for, else a random page of the
 * region. Speculation walks the visible table, so it refills the old
 * translation exactly when a protocol invalidates before its stores are
 * visible.
 *
 * ASIDs: each CPU translates under one ASID (0 unless a64m_set_asid); an
 * entry filled from a non-global descriptor is tagged with it and hits only
 * under it. A TLB holds A64M_WAYS entries a page, so a CPU that switches
 * between two ASIDs (KPTI's kernel and user ASID) keeps both translations of
 * a page, each until an invalidation that matches its ASID; a third ASID's
 * fill replaces an entry of another ASID, the one not used for longest.
 * Not modelled: timing, VMIDs, block
 * mappings, intermediate walk caches, the instruction side.
 */
#ifndef TLBSCOPE_SIM_ARM64_TLBI_MODEL_H
#define TLBSCOPE_SIM_ARM64_TLBI_MODEL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "asm/tlbi.h" /* enum tlbi_op: what tlbi_issue hands the model */

#define A64M_MAX_CPUS 64
#define A64M_MAX_PAGES 4096u
#define A64M_PAGE_SHIFT 12
#define A64M_PTE_VALID 3ull     /* a level-3 page descriptor: bits [1:0] = 0b11 */
#define A64M_PTE_NG (1ull << 11) /* nG: the entry belongs to the ASID it was filled under */
#define A64M_MAX_PEND 65536u    /* invalidations pending on one CPU (more: a model error) */
#define A64M_STORE_BUFFER 1024u /* descriptor stores a CPU holds before they drain */
#define A64M_RECENT 16u         /* pages a CPU invalidated last, which speculation prefers */
#define A64M_MAX_VIOLATIONS 8
#define A64M_WAYS 2u            /* entries a page per CPU: one per ASID, for two ASIDs */

struct a64m_config {
    uint64_t seed;
    uint32_t spec_per_65536;     /* chance of a speculative walk at each model event */
    uint32_t pte_fill_per_65536; /* chance, per other CPU, that it walked the old translation
                                  * just before a descriptor store */
};

struct a64m_counts {
    uint64_t reads, hits, walks, spec_walks, pte_stores, pte_fills, faults;
    uint64_t tlbi_is, tlbi_local, tlbi_range, tlbi_all, tlbi_os, tlbi_asid;
    uint64_t tlbi_ttl_elsewhere; /* by-VA or range TLBIs whose TTL named another level */
    uint64_t tlbi_dummy;         /* TLBI VALE1IS, XZR: Linux's repeat-TLBI workaround */
    uint64_t dsb_ish, dsb_ishst, dsb_nsh, dsb_osh, isb;
    uint64_t dropped;            /* entries an invalidation dropped when it completed here */
};

struct a64m_store {
    uint32_t page;
    uint64_t value;
};

/* One invalidation pending on a CPU, as decoded from its operand. */
enum a64m_scope { A64M_LOCAL, A64M_INNER, A64M_OUTER };
enum a64m_what { A64M_BY_VA, A64M_ALL, A64M_BY_ASID };
struct a64m_pend {
    uint32_t issuer;
    uint8_t scope;               /* enum a64m_scope: which DSB of the issuer completes it */
    uint8_t what;                /* enum a64m_what */
    uint16_t asid;               /* by VA: entries global or of this ASID; by ASID: its own */
    uint32_t first, count;       /* by VA: the pages */
};

struct a64m_cpu {
    uint64_t *tlb;               /* per page x A64M_WAYS: the descriptor cached, 0 = no entry */
    uint16_t *tlb_asid;          /* the same: the ASID a non-global entry was filled under */
    uint64_t *tlb_filled;        /* the same: when it was filled (fill_clock): the older is the worse */
    uint64_t fill_clock;
    uint16_t asid;               /* the ASID this CPU translates under */
    struct a64m_pend *pend;      /* invalidations pending here, oldest first */
    uint32_t npend, pend_cap;
    struct a64m_store sb[A64M_STORE_BUFFER];
    uint32_t nsb;
    uint32_t recent[A64M_RECENT];
    uint32_t nrecent, recent_next;
    uint64_t rng;
    struct a64m_counts n;
};

struct a64_model {
    struct a64m_config cfg;
    pthread_mutex_t lock;        /* one lock: a DSB ISH reaches every CPU's TLB */
    uint32_t ncpus, pages, frames;
    uint64_t va_base;
    uint64_t *table;             /* the descriptors walks see (stores made visible) */
    uint64_t *tags;              /* per frame: what a read of it returns */
    struct a64m_cpu cpu[A64M_MAX_CPUS];
    uint32_t violations;
    char violation[A64M_MAX_VIOLATIONS][160];
};

void a64m_config_defaults(struct a64m_config *cfg);
/* `frames` frames, tag of frame f = a64m_tag(f); every page unmapped until stored. */
bool a64m_init(struct a64_model *m, const struct a64m_config *cfg, uint32_t ncpus,
               uint32_t pages, uint32_t frames, uint64_t va_base);
void a64m_free(struct a64_model *m);
static inline uint64_t a64m_tag(uint32_t frame) { return 0x7a6500000000ull | frame; }
static inline uint64_t a64m_pte(uint32_t frame)
{
    return ((uint64_t)frame << A64M_PAGE_SHIFT) | A64M_PTE_VALID;
}
/* The descriptor of page `page` (what pte_store is given). */
static inline volatile uint64_t *a64m_pte_ptr(struct a64_model *m, uint32_t page)
{
    return &m->table[page];
}
static inline uint64_t a64m_va(const struct a64_model *m, uint32_t page)
{
    return m->va_base + ((uint64_t)page << A64M_PAGE_SHIFT);
}
/* Before any CPU runs: the descriptor of `page`, visible at once, no TLB filled. */
void a64m_map_initial(struct a64_model *m, uint32_t page, uint32_t frame);

/* ---- what CPU c executes (sim/arm64/host_tlbi.c calls these for the bound CPU) ----
 * A descriptor store that breaks break-before-make is a model error (see above); a read
 * that finds neither an entry nor a valid descriptor is a translation fault, a model error
 * except through a64m_read_recoverable. */
uint64_t a64m_read(struct a64_model *m, uint32_t c, uint64_t va);
/* The same, but a translation fault (an invalid descriptor and no entry) is no model error:
 * *faulted says it happened and 0 is returned (the harness delivers it as asm/abort.h's
 * recoverable abort). */
uint64_t a64m_read_recoverable(struct a64_model *m, uint32_t c, uint64_t va, bool *faulted);
void a64m_pte_store(struct a64_model *m, uint32_t c, volatile uint64_t *pte, uint64_t value);
/* TLBI `op` with its operand (decoded as above), executed by CPU c */
void a64m_tlbi(struct a64_model *m, uint32_t c, enum tlbi_op op, uint64_t operand);
void a64m_dsb_osh(struct a64_model *m, uint32_t c);
/* CPU c translates under `asid` from now on (TTBR0_EL1.ASID) */
void a64m_set_asid(struct a64_model *m, uint32_t c, uint16_t asid);
void a64m_dsb_ish(struct a64_model *m, uint32_t c);
void a64m_dsb_ishst(struct a64_model *m, uint32_t c);
void a64m_dsb_nsh(struct a64_model *m, uint32_t c);
void a64m_isb(struct a64_model *m, uint32_t c);
/* Anything else the CPU does (a wait iteration): speculation may happen. */
void a64m_tick(struct a64_model *m, uint32_t c);

/* ---- inspection, for tests ---- */
/* The descriptor CPU c holds for page under its current ASID (0: none). */
uint64_t a64m_entry(struct a64_model *m, uint32_t c, uint32_t page);
/* Invalidations pending on CPU c (one per TLBI that reached it and is not complete). */
uint32_t a64m_pending(struct a64_model *m, uint32_t c);
void a64m_sum_counts(struct a64_model *m, struct a64m_counts *out);

/* ---- between the model's files ---- */
/* tlbi_model_bbm.c: true when CPU ci's store of `value` to page's descriptor breaks
 * break-before-make (the reason in `why`); m->lock held */
bool a64m_bbm_breach(const struct a64_model *m, uint32_t ci, uint32_t page, uint64_t value, char *why,
                     size_t cap);

/* ---- the CPU the calling thread plays (host_tlbi.c) ---- */
void a64m_bind(struct a64_model *m, uint32_t cpu);
void a64m_unbind(void);

#endif
