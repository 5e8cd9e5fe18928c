/*
 * A strict model of what x86 TLBs guarantee, and nothing more.
 *
 * tlbscope's real code (experiments, runner, shootdown protocol) runs on host
 * threads that play the CPUs (sim/machine.h); every privileged instruction
 * it executes lands here (sim/hostcpu.c), and so does every store it makes
 * to a live page-table entry (pte_store(), arch/x86/include/asm/paging.h). The model
 * keeps what hardware may keep and drops only what an architectural
 * invalidation is guaranteed to drop, so a protocol that works on it works
 * on any CPU that follows the rules, and a shortcut that happens to work on
 * QEMU's TCG fails here.
 *
 * Paging is 4-level, or 5-level when the firmware handed over with
 * CR4.LA57 (tlbm_config.la57): walks and canonical checks follow CR4.LA57.
 *
 * Per CPU a set-associative TLB (sets x ways, any number of sets, seeded
 * random replacement; tlbscope-sim takes the geometry of the profile's
 * second-level TLB from CPUID). An entry holds PCID, virtual page, size
 * (4 KiB, 2 MiB, 1 GiB), global bit and physical page; entries of different
 * PCIDs for one address coexist, and a global entry for it sits beside them
 * (a fill replaces only an entry with the same tag). A 2 MiB translation may
 * be cached as a 4 KiB entry for the part that was accessed ("splintered",
 * SDM vol. 3A 4.10.2.3), at the configured rate; an invalidation of any
 * address of that 2 MiB page drops every such part.
 *
 * Per CPU also paging-structure caches (SDM vol. 3A 4.10.3; AMD's page
 * walk cache): PML5E (with LA57), PML4E, PDPTE and PDE entries, one array of
 * TLBM_PSC_ENTRIES, each the address of the next table for the region of
 * linear addresses it translates, tagged with the PCID it was filled under.
 * A walk starts from the deepest entry present for its address (the one
 * that skips the most of memory) and fills an entry for every non-leaf
 * entry it reads from memory; an entry stays however the table in memory
 * changes, until an invalidation drops it.
 *
 * Entries come only from walks of the page tables CR3 points to (P, PS and
 * G honoured; G only with CR4.PGE), on a miss or speculatively: before and
 * after every instruction a CPU may walk a page and cache it, as hardware
 * prefetches do: a random page of the registered speculation ranges or,
 * half the time, one of the addresses this CPU invalidated last (its
 * operands, what a full flush dropped, what an INVLPGB landing here
 * covered). At a PTE store the storing CPU may first walk the address whose
 * entry changes, so it holds the translation the store replaces: a remap
 * after the last invalidation leaves a stale entry even for one page.
 *
 * Invalidation, by the letter of Intel SDM vol. 3A 4.10.4 and AMD APM vol. 3
 * (where the two differ, the weaker guarantee):
 *   INVLPG va        TLB entries of the current PCID for va, and global
 *                    entries for va whatever their PCID; paging-structure
 *                    entries of the current PCID for the regions holding va
 *                    (Intel drops all of the PCID's; AMD with EFER.TCE only
 *                    these; AMD with TCE clear every one of every PCID, which
 *                    the model does on a CPU with TCE whose EFER.TCE is clear:
 *                    INVLPG, INVPCID and a landing INVLPGB alike);
 *   MOV CR3          PCIDE=0: every non-global entry and every paging-
 *                    structure entry. PCIDE=1: the non-global and paging-
 *                    structure entries of the new PCID, unless bit 63
 *                    (no-flush) is set;
 *   CR4.PGE change,  everything, global and paging-structure entries
 *   PCIDE 1->0       included; setting PCIDE needs CR3[11:0] = 0 (#GP);
 *                    CR4.LA57 cannot change (in long mode a MOV to CR4
 *                    that would change it #GPs);
 *   INVPCID 0..3     one address in one PCID (non-global; its paging-
 *                    structure entries for the address) / one PCID
 *                    (non-global and paging-structure) / all / all but
 *                    global (paging-structure entries of every PCID);
 *   INVLPGB          rAX/ECX/EDX as the APM defines them (VA, PCID, ASID,
 *                    include-global, count ECX[15:0] up to CPUID
 *                    8000_0008 EDX[15:0], 2 MiB stride ECX[31]); without
 *                    final-only (rAX[4]) also the paging-structure entries
 *                    of the PCID for the regions the addresses fall in (or
 *                    all of them without a VA), with final-only none; it
 *                    takes effect on each CPU (the issuer included) at a
 *                    random later model event, and is complete everywhere
 *                    only when the issuing CPU's TLBSYNC returns.
 * What a CPU would fault on (#GP, #UD, #PF) is recorded as a violation
 * naming the CPU and the instruction: the simulator reports it as an error.
 *
 * Not modelled: timing, caches, accessed/dirty updates, ASIDs other than
 * the host's (0), separate first-level TLBs, 1 GiB pages splintered, and
 * errata other than the switches below.
 */
#ifndef TLBSCOPE_SIM_TLB_MODEL_H
#define TLBSCOPE_SIM_TLB_MODEL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#define TLBM_MAX_CPUS 64
#define TLBM_MODEL_NAME "tlbscope strict TLB model"
#define TLBM_MODEL_VERSION 2 /* 2: paging-structure caches, splintering, fills after acting */

/*
 * Errata, off by default; each makes a correct protocol read stale data, so
 * the negative tests can show the verifier catches it.
 */
#define TLBM_ERR_INVLPG_IGNORES_GLOBAL (1u << 0) /* PCIDE=1: INVLPG keeps global entries
                                                  * (Alder/Raptor Lake; Linux turns PCID off
                                                  * there: "x86/mm: Avoid incomplete Global
                                                  * INVLPG flushes", 2024) */
#define TLBM_ERR_INVLPGB_IGNORES_COUNT (1u << 1) /* only the first page of a range */
#define TLBM_ERR_TLBSYNC_EARLY (1u << 2)         /* returns before remote completion */
#define TLBM_ERRATA_ALL 7u

struct tlbm_features {
    bool pge, pcid, invpcid, invlpgb, la57;
    bool tce; /* CPUID 8000_0001 ECX[17]: EFER.TCE may be set (AMD) */
    uint32_t invlpgb_max_extra; /* CPUID 8000_0008 EDX[15:0] */
};

struct tlbm_config {
    uint32_t sets, ways;       /* any number of each, at least 1 */
    uint64_t seed;
    uint32_t errata;           /* TLBM_ERR_* */
    uint32_t spec_per_65536;   /* chance of a speculative fill before, and after, each instruction */
    bool spec_after;           /* speculate after an instruction acts too (on by default) */
    uint32_t pte_spec_per_65536; /* chance that a PTE store first walks the address it changes */
    uint32_t splinter_per_65536; /* chance that a 2 MiB translation is cached as a 4 KiB part */
    uint32_t invlpgb_max_delay;/* model events of the target CPU before a pending INVLPGB lands */
    uint32_t invlpg_latency_ns;/* wall time an INVLPG takes before it acts (0: none); widens
                                * the window in which an early acknowledgement is visible */
    bool la57;                 /* the firmware hands over with CR4.LA57 (needs feat.la57):
                                * 5-level walks, 57-bit canonical addresses */
    struct tlbm_features feat;
};

/* Zen 3's second-level TLB (2048 entries, 256 sets x 8 ways); tlbscope-sim takes the profile's. */
void tlbm_config_defaults(struct tlbm_config *cfg);
const char *tlbm_erratum_name(uint32_t bit);
/* Parses "invlpg_ignores_global" etc. into a TLBM_ERR_* bit; 0 when unknown. */
uint32_t tlbm_erratum_from_name(const char *name);

enum tlbm_page { TLBM_4K = 0, TLBM_2M, TLBM_1G };

struct tlbm_entry {
    uint64_t va;   /* page base */
    uint64_t pa;   /* frame base */
    uint16_t pcid;
    uint8_t size;  /* enum tlbm_page: the span a lookup matches */
    uint8_t span;  /* the page the paging structures map: size, or TLBM_2M for a splintered part */
    uint8_t global;
    uint8_t valid;
};

/* A paging-structure-cache entry: for the region at `va` (its level's size), the next table. */
struct tlbm_psc_entry {
    uint64_t va;
    uint64_t table;
    uint16_t pcid;
    uint8_t level; /* 2 PDE, 3 PDPTE, 4 PML4E, 5 PML5E */
    uint8_t valid;
};

/*
 * Per CPU, every level together: more than the non-leaf entries tlbscope's
 * tables give one address space (identity map, test region, working set),
 * so the model keeps them until an invalidation drops them.
 */
#define TLBM_PSC_ENTRIES 64u
/* The addresses a CPU invalidated last, which its speculative walks prefer. */
#define TLBM_RECENT 16u

/* What the ordering tests look at: one line per architectural event of one CPU. */
enum tlbm_event_kind {
    TLBM_EV_INVLPG = 1, /* a = va */
    TLBM_EV_CR3,        /* a = value written (bit 63 as given) */
    TLBM_EV_CR4,        /* a = new value */
    TLBM_EV_INVPCID,    /* a = type, b = pcid, c = address */
    TLBM_EV_INVLPGB,    /* a = rax, b = ecx, c = edx */
    TLBM_EV_TLBSYNC,
    TLBM_EV_IPI,        /* a = destination (UINT32_MAX: all but self), b = vector */
    TLBM_EV_PTE,        /* a = va whose entry is stored, b = value */
};

struct tlbm_event {
    uint64_t seq;       /* global order across CPUs */
    uint32_t kind;
    uint64_t a, b, c;
};

#define TLBM_LOG_EVENTS 8192u
#define TLBM_QUEUE 4096u

struct tlbm_pending {
    uint32_t issuer;
    uint64_t due;       /* the target's event count at which it lands */
    uint64_t rax;
    uint32_t ecx, edx;
};

struct tlbm_counts {
    uint64_t invlpg, full_flushes, invpcid, invlpgb, tlbsync, misses, spec_fills, reads;
    uint64_t pte_stores, pte_fills; /* PTE stores, and those that first walked their address */
    uint64_t splinters;             /* 2 MiB translations cached as a 4 KiB part */
    uint64_t psc_walks;             /* walks that started from a paging-structure entry */
    uint64_t psc_flush_all;         /* INVLPG/INVLPGB/INVPCID that emptied the whole page-walk
                                     * cache: on a CPU with TCE, run with EFER.TCE clear */
};

struct tlbm_cpu {
    pthread_mutex_t lock;      /* the TLB and the queue: TLBSYNC and INVLPGB reach across CPUs */
    uint32_t index;
    uint64_t cr3, cr4;         /* written by the owning thread only */
    uint64_t efer;             /* likewise: the model acts on TCE (bit 15) alone */
    struct tlbm_entry *tlb;    /* sets * ways */
    struct tlbm_psc_entry psc[TLBM_PSC_ENTRIES];
    uint64_t recent[TLBM_RECENT]; /* recently invalidated addresses (page bases) */
    uint32_t nrecent, recent_next;
    uint64_t rng;
    uint64_t events;           /* model events of this CPU (its clock for pending INVLPGBs) */
    struct tlbm_pending queue[TLBM_QUEUE];
    uint32_t queued;
    struct tlbm_counts n;
    uint64_t invlpg_log[64];   /* the first INVLPG addresses since the counts were cleared */
    struct tlbm_event log[TLBM_LOG_EVENTS];
    uint32_t logged;           /* total since cleared; the ring keeps the last TLBM_LOG_EVENTS */
};

struct tlbm_range {
    uint64_t va;
    uint32_t pages;
    uint64_t page_size;
};

#define TLBM_MAX_RANGES 8
#define TLBM_MAX_VIOLATIONS 8

struct tlb_model {
    struct tlbm_config cfg;
    uint32_t ncpus;
    struct tlbm_cpu *cpu[TLBM_MAX_CPUS];
    struct tlbm_range spec[TLBM_MAX_RANGES];
    uint32_t nspec;
    uint64_t seq;              /* global event sequence */
    pthread_mutex_t vlock;
    uint32_t violations;
    char violation[TLBM_MAX_VIOLATIONS][200];
};

bool tlbm_init(struct tlb_model *m, const struct tlbm_config *cfg, uint32_t ncpus);
void tlbm_free(struct tlb_model *m);
/* Pages that speculative walks may pick (the test region). */
void tlbm_add_spec_range(struct tlb_model *m, uint64_t va, uint32_t pages, uint64_t page_size);

/* ---- the instructions, executed by CPU `c` (the calling thread owns it) ---- */
/* A load of 8 bytes through the TLB; false (and a #PF violation) when unmapped. */
bool tlbm_read64(struct tlb_model *m, uint32_t c, uint64_t va, uint64_t *value);
void tlbm_write_cr3(struct tlb_model *m, uint32_t c, uint64_t value);
uint64_t tlbm_read_cr3(struct tlb_model *m, uint32_t c);
/* EFER: the firmware hands over LME, LMA, NXE and SCE set, TCE clear (TLBM_EFER_FIRMWARE);
 * any other bit written, or TCE on a CPU without it, is a #GP violation */
#define TLBM_EFER_FIRMWARE 0xd01ull
uint64_t tlbm_read_efer(struct tlb_model *m, uint32_t c);
void tlbm_write_efer(struct tlb_model *m, uint32_t c, uint64_t value);
void tlbm_write_cr4(struct tlb_model *m, uint32_t c, uint64_t value);
void tlbm_invlpg(struct tlb_model *m, uint32_t c, uint64_t va);
void tlbm_invpcid(struct tlb_model *m, uint32_t c, uint64_t type, uint64_t pcid, uint64_t addr);
void tlbm_invlpgb(struct tlb_model *m, uint32_t c, uint64_t rax, uint32_t ecx, uint32_t edx);
void tlbm_tlbsync(struct tlb_model *m, uint32_t c);
/*
 * A store to a live paging-structure entry (pte_store() on the host): `va` is
 * an address whose translation the entry takes part in. A model event: the
 * CPU may first walk va, then the entry is stored (release), then it may
 * speculate again.
 */
void tlbm_pte_store(struct tlb_model *m, uint32_t c, uint64_t *entry, uint64_t value, uint64_t va);
/* Anything else the CPU does (a spin iteration): pending INVLPGBs and speculation may happen. */
void tlbm_tick(struct tlb_model *m, uint32_t c);
void tlbm_note_ipi(struct tlb_model *m, uint32_t c, uint32_t dest, uint8_t vector);

/* ---- inspection, for tests ---- */
/* Records a fault the CPU would take (printf-style). */
void tlbm_violation(struct tlb_model *m, uint32_t c, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* True when CPU c holds a translation of va usable now (current PCID or global). */
bool tlbm_holds(struct tlb_model *m, uint32_t c, uint64_t va, uint64_t *pa);
/* Entries of CPU c tagged with pcid (global ones counted apart) that map va. */
uint32_t tlbm_count_entries(struct tlb_model *m, uint32_t c, uint64_t va, int pcid);
/* Of those, the 4 KiB parts of a 2 MiB translation (pcid < 0: global ones). */
uint32_t tlbm_count_splinters(struct tlb_model *m, uint32_t c, uint64_t va, int pcid);
/* CPU c's paging-structure entry of `level` for va under pcid: the table it names, or 0. */
uint64_t tlbm_psc_table(struct tlb_model *m, uint32_t c, uint64_t va, unsigned level, uint32_t pcid);
/* Paging-structure entries CPU c holds, of any level and PCID. */
uint32_t tlbm_psc_count(struct tlb_model *m, uint32_t c);
void tlbm_clear_counts(struct tlb_model *m, uint32_t c);
uint32_t tlbm_pending(struct tlb_model *m, uint32_t c);
/* Copies CPU c's logged events (oldest first) into out; returns how many. */
uint32_t tlbm_events(struct tlb_model *m, uint32_t c, struct tlbm_event *out, uint32_t cap);

#endif
