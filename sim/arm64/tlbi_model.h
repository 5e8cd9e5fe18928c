/*
 * A strict model of what aarch64 TLBs guarantee for the test region, and
 * nothing more: the host side of the aarch64 TLBI primitives
 * (arch/arm64/include/asm/tlbi.h, asm/barrier.h under TLBSCOPE_HOST), so the
 * real protocols of core/exp/arm64/ run on host threads that play the CPUs
 * (sim/arm64/harness.h), as sim/tlb_model.h does for x86.
 *
 * The region: `pages` 4 KiB pages from a virtual base (never dereferenced;
 * the model counts its 2 MiB blocks from the base), two levels of translation
 * table and frames each holding one tag, the value test_read returns. Level 2:
 * one descriptor per 512 pages (a64m_l2_ptr): a table descriptor (bits [1:0]
 * 0b11, the model's number of a level-3 table in [47:12]; at init block b
 * points at table b, the region's own), a block (0b01: 512 pages from the
 * frame in [47:12]) or invalid. Level 3: one descriptor per page
 * (a64m_pte_ptr: frame << 12 | 0b11, A64M_PTE_VALID), in the region's tables,
 * or in one of A64M_SPARE_TABLES spare tables (a64m_table_ptr) a level-2
 * store may link in instead. Per CPU a TLB that can hold every page of the
 * region, and a walk cache of level-2 table descriptors: an entry, once
 * filled, stays until an invalidation that is complete on that CPU drops it
 * (Arm ARM, "Translation Lookaside Buffers": a TLB may hold an entry
 * indefinitely; eviction is never guaranteed, so the model never evicts).
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
 *     TTL (FEAT_TTL) is the granule in [3:2] and the level of the leaf in
 *     [1:0]: 0b00xx says nothing (every level goes, the walk cache too);
 *     0b0111 (4 KiB, level 3) names page entries and 0b0110 (level 2) block
 *     entries, and only those go: the walk cache's entries, and a leaf of the
 *     other level, stay (a hint is about the leaf; Linux passes none when it
 *     frees a table). Any other TTL (level 1 or 0, another granule) names
 *     entries the model does not hold: the TLBI is not required to invalidate
 *     anything here, and the model leaves every entry (counted,
 *     tlbi_ttl_elsewhere). VALE1IS (last level) drops leaf entries only, of
 *     the levels its TTL names: never the walk cache's. VALE1IS with the
 *     operand zero (XZR: Linux's repeat-TLBI dummy) names no entry of the
 *     region: counted, not an error.
 *   range (RVAE1IS, RVALE1IS): BaseADDR [36:0] = VA[48:12] (VA[63:49] zero:
 *     the region lies in the TTBR0 half), TTL [38:37] (the level alone, the
 *     granule is TG's: 0 none, 0b11 level 3, 0b10 level 2, as above), NUM
 *     [43:39], SCALE [45:44], TG [47:46], ASID [63:48]: (NUM + 1) << (5 *
 *     SCALE + 1) pages; RVALE1IS leaf entries only, as VALE1IS. TG must be
 *     0b01 (4 KiB, the tool's granule): any other is a model error.
 *   ASIDE1IS: ASID [63:48]; bits [47:0] are RES0 and a set one a model error.
 *   An address outside the region is a model error (the protocols name only
 *   the test region; for a range, any page of it).
 * Then:
 *   TLBI VAE1IS (tlbi_va_is)   by CPU i: reaches every CPU (i included) and
 *                              takes effect on each at its own moment, drawn
 *                              at issue from the seeded randomness: with
 *                              chance early_per_65536 at one of the next
 *                              A64M_EFFECT_WINDOW model steps (every
 *                              primitive of any CPU is a step; the step of
 *                              the issue itself included), else at i's
 *                              completing DSB ISH, which is the latest: the
 *                              TLBI is complete on all of them only then.
 *                              Until it takes effect a CPU keeps its entry;
 *                              once it has, walks may refill it. Another
 *                              CPU's DSB does not complete it.
 *   TLBI VAE1 (tlbi_va_local)  reaches CPU i only (the others never see
 *                              it), takes effect there as VAE1IS does;
 *                              complete at i's DSB NSH or DSB ISH.
 *   TLBI RVAE1IS (tlbi_range_is)  as VAE1IS for each page of the range.
 *   TLBI VMALLE1IS (tlbi_all_is)  as VAE1IS for every page, any ASID, every
 *                              level (the walk caches too).
 *   TLBI VAE1OS (tlbi_va_os)   as VAE1IS, but complete only at the issuer's
 *                              DSB OSH: a DSB completes the TLBIs of its own
 *                              shareability domain or a smaller one, and the
 *                              outer domain is the larger (the model's CPUs
 *                              all sit in both; DSB ISH leaves an OS TLBI
 *                              pending).
 *   TLBI ASIDE1IS (tlbi_asid_is)  reaches every CPU like VAE1IS; where it
 *                              takes effect it drops the entries that are
 *                              non-global (descriptor bit nG, A64M_PTE_NG)
 *                              and were filled under that ASID, and the whole
 *                              walk cache (whose entries carry no ASID, so
 *                              any may be that ASID's); global entries stay
 *                              (they match every ASID only for lookups and
 *                              by-VA invalidation, never for ASID
 *                              invalidation).
 *   DSB ISHST (dsb_ishst)      makes i's earlier descriptor stores visible to
 *                              every translation table walk; it completes no
 *                              TLBI (it waits for stores only).
 *   DSB ISH                    both: i's inner-shareable and local TLBIs
 *                              complete (not its OS ones), then i's stores
 *                              visible: a TLBI is ordered after a store only
 *                              by a DSB between them, so one that had not
 *                              taken effect may take it before its DSB's
 *                              stores land.
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
 * would complete on its own). A miss walks the visible tables: level 2
 * through the walk cache (a hit skips the level-2 descriptor in memory), then
 * the level-3 descriptor, or the block's page.
 *
 * Break-before-make (Arm ARM, "Using break-before-make when updating
 * translation table entries"; tlbi_model_bbm.c): invalid, DSB, TLBI, DSB
 * (the TLBI complete), then the new descriptor. A store of level 3 or level 2
 * is a model error when it turns a valid descriptor into another valid one
 * with a different output address, nG or (level 2) type, with no invalid one
 * between (the old one: the storing CPU's last store to it, else the visible
 * table); or when it makes a valid descriptor while some CPU may hold a
 * conflicting entry of a page it translates: one in its TLB whose output
 * address, nG or leaf level differs from the new leaf, one a TLBI dropped
 * before its issuer's DSB completed it ("invalid, TLBI, make" is a breach
 * whatever the model drew), or (level 2) another table descriptor in a walk
 * cache; an entry counts when global, or non-global under an ASID some CPU
 * translates under. The way that passes: Linux's ptep_clear_flush() then
 * set_pte_at(). A read that finds
 * no usable entry and an invalid descriptor is a translation fault: a model
 * error, except when the harness asks for it as the recoverable abort of
 * stale_detector_control's reads (a64m_read_recoverable, asm/abort.h).
 *
 * Stale entries are made likely, not only possible: at a descriptor store
 * every other CPU may first walk the old translation (hardware may have
 * walked it speculatively at any time before); where a TLBI takes effect,
 * that CPU may walk each page it covers whose store its issuer still buffers
 * (the store was not made visible before the TLBI: "store, TLBI, DSB ISH" or
 * "TLBI, store"), and the page joins the CPU's recent ones; and at every
 * model event (each primitive, each read, each wait iteration through
 * a64m_tick) the CPU may walk a page speculatively: half the time one it
 * invalidated lately or has an invalidation pending for, else a random page
 * of the region. Speculation walks the visible table, so it refills the old
 * translation exactly when an invalidation takes effect before its stores
 * are visible.
 *
 * ASIDs: each CPU translates under one ASID (0 unless a64m_set_asid); an
 * entry filled from a non-global descriptor is tagged with it and hits only
 * under it. A TLB holds A64M_WAYS entries a page, so a CPU that switches
 * between two ASIDs (KPTI's kernel and user ASID) keeps both translations of
 * a page, each until an invalidation that matches its ASID; a third ASID's
 * fill replaces an entry of another ASID, the one not used for longest.
 * A block fills each page's entry on its own (hardware may split a block
 * into smaller entries), marked A64M_TLB_BLOCK as a level-2 leaf.
 * Not modelled: timing, VMIDs (but the stage-2 sequence's rules, below), level 0 and 1 (the region's level-2 entries
 * are the top the model walks), the instruction side.
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
#define A64M_L3_ENTRIES 512u    /* descriptors in a level-3 table: one level-2 entry's pages */
#define A64M_SPARE_TABLES 2u    /* level-3 tables besides the region's own, for a level-2 store to link */
#define A64M_DESC_TYPE 3ull     /* a level-2 descriptor's bits [1:0]: */
#define A64M_DESC_TABLE 3ull    /*   0b11 a table (the model's table number in [47:12]) */
#define A64M_DESC_BLOCK 1ull    /*   0b01 a block (512 pages from the frame in [47:12]) */
#define A64M_TLB_BLOCK (1ull << 58) /* on a TLB entry filled from a block (a bit hardware ignores) */
#define A64M_EFFECT_WINDOW 8u   /* an early TLBI takes effect within this many model steps of its issue */

struct a64m_config {
    uint64_t seed;
    uint32_t spec_per_65536;     /* chance of a speculative walk at each model event */
    uint32_t pte_fill_per_65536; /* chance, per other CPU, that it walked the old translation
                                  * just before a descriptor store; per page a TLBI covers whose
                                  * store its issuer still buffers, that the CPU walked it where
                                  * the TLBI took effect */
    uint32_t early_per_65536;    /* chance, per CPU a TLBI reaches, that it takes effect there
                                  * before its issuer's DSB (else at that DSB) */
};

struct a64m_counts {
    uint64_t reads, hits, walks, spec_walks, pte_stores, pte_fills, faults;
    uint64_t tlbi_is, tlbi_local, tlbi_range, tlbi_all, tlbi_os, tlbi_asid;
    uint64_t tlbi_ttl_elsewhere; /* by-VA or range TLBIs whose TTL named entries the model has not */
    uint64_t tlbi_dummy;         /* TLBI VALE1IS, XZR: Linux's repeat-TLBI workaround */
    uint64_t early;              /* TLBIs that took effect on a CPU before their issuer's DSB */
    uint64_t unordered_fills;    /* walks, where a TLBI took effect, through a store still buffered */
    uint64_t dsb_ish, dsb_ishst, dsb_nsh, dsb_osh, isb;
    uint64_t dropped;            /* entries an invalidation dropped when it completed here */
    uint64_t tlbi_ipas2, tlbi_vmall_vmid; /* stage 2 (tlbi_model_s2.c): IPAS2E1IS, VMALLE1IS at EL2 */
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
    uint8_t levels;              /* by VA: what its TTL names (A64M_LEVEL_*) */
    uint8_t done;                /* it has taken effect here (it stays listed until its DSB) */
    uint32_t first, count;       /* by VA: the pages */
    uint64_t due;                /* the model step it takes effect here; A64M_AT_DSB: at its DSB */
};
#define A64M_LEVEL_WALK 1u       /* the walk cache's level-2 table descriptors */
#define A64M_LEVEL_2 2u          /* level-2 leaves: entries filled from a block */
#define A64M_LEVEL_3 4u          /* level-3 leaves: page entries */
#define A64M_LEVELS_ALL 7u
#define A64M_AT_DSB UINT64_MAX

/* A CPU's stage-2 context and where its KVM-style invalidation stands (tlbi_model_s2.c) */
struct a64m_s2 {
    uint64_t vtcr, vttbr;        /* 0 until the tool loads its own: the firmware's */
    bool ipa_open;               /* IPAS2E1IS issued, no DSB ISH since */
    bool ipa_done;               /* IPAS2E1IS complete, no VMALLE1IS since */
    bool vmall_open;             /* VMALLE1IS issued, no DSB ISH since */
};

struct a64m_cpu {
    uint64_t *tlb;               /* per page x A64M_WAYS: the descriptor cached, 0 = no entry */
    uint16_t *tlb_asid;          /* the same: the ASID a non-global entry was filled under */
    uint64_t *tlb_filled;        /* the same: when it was filled (fill_clock): the older is the worse */
    uint64_t *unconfirmed;       /* the same: an entry an invalidation dropped before its issuer's DSB
                                  * (to the architecture it may still be held: break-before-make) */
    uint32_t *unconfirmed_by;    /* the same: the entry's ASID << 16 | the invalidation's issuer << 2 | scope */
    uint32_t nunconfirmed;
    uint64_t fill_clock;
    uint16_t asid;               /* the ASID this CPU translates under */
    uint64_t *walk;              /* per level-2 entry: the table descriptor the walk cache holds, 0 = none */
    struct a64m_pend *pend;      /* invalidations pending here, oldest first */
    uint32_t npend, pend_cap;
    uint32_t early_from;         /* pend[] before it: taken effect, or due at their DSB */
    uint64_t next_due;           /* the earliest step a pending invalidation takes effect here */
    struct a64m_store sb[A64M_STORE_BUFFER];
    uint32_t nsb;
    uint32_t recent[A64M_RECENT];
    uint32_t nrecent, recent_next;
    uint64_t rng;
    struct a64m_counts n;
    struct a64m_s2 s2;
};

struct a64_model {
    struct a64m_config cfg;
    pthread_mutex_t lock;        /* one lock: a DSB ISH reaches every CPU's TLB */
    uint32_t ncpus, pages, frames;
    uint32_t blocks;             /* level-2 entries: pages / 512, rounded up */
    uint32_t slots;              /* descriptors in table[]: the pages', the level-2 ones, the spare tables' */
    uint64_t va_base;
    uint64_t *table;             /* the descriptors walks see (stores made visible): level 3 of
                                  * page p at [p], level 2 of block b at [pages + b], spare table s
                                  * from [pages + blocks + 512 s] */
    uint64_t step;               /* model steps so far: every primitive of any CPU is one */
    uint64_t next_due;           /* the earliest step an invalidation takes effect on some CPU */
    uint64_t *tags;              /* per frame: what a read of it returns */
    struct a64m_cpu cpu[A64M_MAX_CPUS];
    unsigned el;                 /* the EL the CPUs run at: 1, or 2 (a64m_set_el) */
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
/* The level-2 descriptor of the region's block b (its pages [512 b, 512 b + 512)). */
static inline volatile uint64_t *a64m_l2_ptr(struct a64_model *m, uint32_t block)
{
    return &m->table[m->pages + block];
}
/* Entry e of level-3 table `table` (the region's b < blocks, then the spare ones); NULL: none. */
volatile uint64_t *a64m_table_ptr(struct a64_model *m, uint32_t table, uint32_t e);
static inline uint64_t a64m_table_desc(uint32_t table)
{
    return ((uint64_t)table << A64M_PAGE_SHIFT) | A64M_DESC_TABLE;
}
static inline uint64_t a64m_block_desc(uint32_t frame)
{
    return ((uint64_t)frame << A64M_PAGE_SHIFT) | A64M_DESC_BLOCK;
}
/* The frame (or table number) a descriptor or TLB entry names: bits [47:12]. */
static inline uint64_t a64m_frame(uint64_t d) { return (d >> A64M_PAGE_SHIFT) & 0xfffffffffull; }
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

/* ---- stage 2 at EL2 (tlbi_model_s2.c) ----
 * The model holds the EL2 regime's stage-1 entries of the region only: no guest runs, so no
 * stage-2 or combined entry of any VMID is ever filled, and TLBI IPAS2E1IS and VMALLE1IS at
 * EL2 drop nothing it holds. What it checks is the sequence KVM's __kvm_tlb_flush_vmid_ipa
 * relies on, each breach a model error: either TLBI issued at EL1 (no stage 2 there) or with
 * VTTBR_EL2's VMID 0 (the tool's not loaded: it would act on a host's or the firmware's
 * VMID); an IPA outside the region's frames or RES0 bits set; VMALLE1IS while an IPAS2E1IS of
 * the CPU is not yet complete by a DSB ISH (a walk on another CPU could refill a combined
 * entry from the old stage 2 after the stage-1 invalidation); an ISB, or a change of
 * VTTBR_EL2, that ends the sequence with IPAS2E1IS never followed by VMALLE1IS (combined
 * entries stay) or with VMALLE1IS not completed by a DSB ISH. */
void a64m_set_el(struct a64_model *m, unsigned el);
/* CPU c's VTCR_EL2 and VTTBR_EL2 (what they held before in *vtcr_old, *vttbr_old) */
void a64m_s2_switch(struct a64_model *m, uint32_t c, uint64_t vtcr, uint64_t vttbr, uint64_t *vtcr_old,
                    uint64_t *vttbr_old);

/* ---- inspection, for tests ---- */
/* The descriptor CPU c holds for page under its current ASID (0: none). */
uint64_t a64m_entry(struct a64_model *m, uint32_t c, uint32_t page);
/* Invalidations pending on CPU c (one per TLBI that reached it and is not complete). */
uint32_t a64m_pending(struct a64_model *m, uint32_t c);
void a64m_sum_counts(struct a64_model *m, struct a64m_counts *out);

/* ---- between the model's files ---- */
/* tlbi_model_bbm.c: true when CPU ci's store of `value` to table[slot] (a page's descriptor
 * or a level-2 one) breaks break-before-make (the reason in `why`); m->lock held */
bool a64m_bbm_breach(const struct a64_model *m, uint32_t ci, uint32_t slot, uint64_t value, char *why,
                     size_t cap);

/* ---- the CPU the calling thread plays (host_tlbi.c) ---- */
void a64m_bind(struct a64_model *m, uint32_t cpu);
void a64m_unbind(void);

#endif
