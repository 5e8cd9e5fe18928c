/*
 * The strict TLB model (sim/tlb_model.h) itself: its configuration and
 * errata names, the per-CPU random streams, the event log, the TLB array
 * (lookup, fill, the addresses invalidated last, dropping by a filter), the
 * paging-structure caches and the page walk, and what tests ask of it.
 * The model's events and INVLPGB's delayed arrival: sim/tlb_model_events.c;
 * the invalidating instructions: sim/tlb_model_invalidate.c.
 */
#include "sim/tlb_model.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "asm/cpu.h"
#include "asm/paging.h"
#include "sim/tlb_model_parts.h"

static const char *const erratum_names[] = { "invlpg_ignores_global", "invlpgb_ignores_count",
                                             "tlbsync_early" };

void tlbm_config_defaults(struct tlbm_config *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    /* 2048 entries: Zen 3's L2 DTLB (CPUID 8000_0006 EBX: 2048 entries, 8-way) */
    cfg->sets = 256;
    cfg->ways = 8;
    cfg->seed = 1;
    /* one speculative walk every ~64 events: often enough to refill what a
     * protocol assumes nobody touched, rare enough to keep misses visible */
    cfg->spec_per_65536 = 1024;
    cfg->spec_after = true;
    /* a quarter of PTE stores first cache the translation they replace: a
     * remap after the last flush shows within a few samples of one page */
    cfg->pte_spec_per_65536 = 16384;
    /* a quarter of 2 MiB fills cached as the 4 KiB part accessed */
    cfg->splinter_per_65536 = 16384;
    /* a pending INVLPGB lands after up to 20000 events of its target (a
     * spinning CPU makes ~1 per microsecond here): long after a verifier
     * that did not wait for TLBSYNC has looked */
    cfg->invlpgb_max_delay = 20000;
    cfg->feat.pge = true;
}

const char *tlbm_erratum_name(uint32_t bit)
{
    uint32_t i;
    for (i = 0; i < sizeof(erratum_names) / sizeof(erratum_names[0]); i++)
        if (bit == (1u << i))
            return erratum_names[i];
    return "unknown";
}

uint32_t tlbm_erratum_from_name(const char *name)
{
    uint32_t i;
    for (i = 0; i < sizeof(erratum_names) / sizeof(erratum_names[0]); i++)
        if (strcmp(name, erratum_names[i]) == 0)
            return 1u << i;
    return 0;
}

/* ---- randomness: splitmix64, one stream per CPU from the model seed ---- */

static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t tm_random_below(uint64_t *state, uint64_t n) { return n ? next_random(state) % n : 0; }

bool tlbm_init(struct tlb_model *m, const struct tlbm_config *cfg, uint32_t ncpus)
{
    uint32_t i;
    memset(m, 0, sizeof(*m));
    if (ncpus == 0 || ncpus > TLBM_MAX_CPUS || cfg->sets == 0 || cfg->ways == 0 ||
        (cfg->la57 && !cfg->feat.la57))
        return false;
    m->cfg = *cfg;
    m->ncpus = ncpus;
    pthread_mutex_init(&m->vlock, NULL);
    for (i = 0; i < ncpus; i++) {
        struct tlbm_cpu *c = calloc(1, sizeof(*c));
        if (!c)
            return false;
        c->tlb = calloc((size_t)cfg->sets * cfg->ways, sizeof(*c->tlb));
        if (!c->tlb) {
            free(c);
            return false;
        }
        pthread_mutex_init(&c->lock, NULL);
        c->index = i;
        c->rng = cfg->seed ^ ((uint64_t)(i + 1) * 0xd1b54a32d192ed03ull);
        /* the firmware's state at entry (QEMU's OVMF: CR4 = 0x668, PGE on; LA57 where a
         * firmware enables it, on every CPU alike) */
        c->cr4 = (cfg->feat.pge ? CR4_PGE : 0) | (cfg->la57 ? CR4_LA57 : 0);
        c->efer = TLBM_EFER_FIRMWARE;
        m->cpu[i] = c;
    }
    return true;
}

void tlbm_free(struct tlb_model *m)
{
    uint32_t i;
    for (i = 0; i < m->ncpus; i++) {
        if (!m->cpu[i])
            continue;
        pthread_mutex_destroy(&m->cpu[i]->lock);
        free(m->cpu[i]->tlb);
        free(m->cpu[i]);
        m->cpu[i] = NULL;
    }
    pthread_mutex_destroy(&m->vlock);
    m->ncpus = 0;
}

void tlbm_add_spec_range(struct tlb_model *m, uint64_t va, uint32_t pages, uint64_t page_size)
{
    if (m->nspec < TLBM_MAX_RANGES)
        m->spec[m->nspec++] = (struct tlbm_range){ va, pages, page_size };
}

void tlbm_violation(struct tlb_model *m, uint32_t c, const char *fmt, ...)
{
    char text[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&m->vlock);
    if (m->violations < TLBM_MAX_VIOLATIONS)
        snprintf(m->violation[m->violations], sizeof(m->violation[0]), "CPU %u: %s", c, text);
    m->violations++;
    pthread_mutex_unlock(&m->vlock);
}

/* ---- event log ---- */

void tm_log_event(struct tlb_model *m, struct tlbm_cpu *c, uint32_t kind, uint64_t a,
                  uint64_t b, uint64_t cc)
{
    struct tlbm_event *e = &c->log[c->logged % TLBM_LOG_EVENTS];
    e->seq = __atomic_add_fetch(&m->seq, 1, __ATOMIC_SEQ_CST);
    e->kind = kind;
    e->a = a;
    e->b = b;
    e->c = cc;
    __atomic_store_n(&c->logged, c->logged + 1, __ATOMIC_RELEASE);
}

uint32_t tlbm_events(struct tlb_model *m, uint32_t ci, struct tlbm_event *out, uint32_t cap)
{
    struct tlbm_cpu *c = m->cpu[ci];
    uint32_t total = __atomic_load_n(&c->logged, __ATOMIC_ACQUIRE);
    uint32_t first = total > TLBM_LOG_EVENTS ? total - TLBM_LOG_EVENTS : 0, n = 0, i;
    for (i = first; i < total && n < cap; i++)
        out[n++] = c->log[i % TLBM_LOG_EVENTS];
    return n;
}

void tlbm_clear_counts(struct tlb_model *m, uint32_t ci)
{
    struct tlbm_cpu *c = m->cpu[ci];
    pthread_mutex_lock(&c->lock);
    memset(&c->n, 0, sizeof(c->n));
    __atomic_store_n(&c->logged, 0, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&c->lock);
}

/* ---- the TLB array ---- */


uint32_t tm_current_pcid(const struct tlbm_cpu *c)
{
    return (c->cr4 & CR4_PCIDE) ? (uint32_t)(c->cr3 & CR3_PCID_MASK) : 0;
}

static struct tlbm_entry *set_of(struct tlb_model *m, struct tlbm_cpu *c, uint64_t va,
                                 enum tlbm_page size)
{
    uint64_t set = (va >> page_shift[size]) % m->cfg.sets;
    return &c->tlb[set * m->cfg.ways];
}

/* What a lookup matches: the entry's own span (a splintered part: its 4 KiB). */
static bool contains(const struct tlbm_entry *e, uint64_t va)
{
    return va >= e->va && va - e->va < page_bytes[e->size];
}

/* What an invalidation by address matches: the whole page the entry came from. */
uint64_t tm_span_base(const struct tlbm_entry *e) { return e->va & ~(page_bytes[e->span] - 1); }

bool tm_covers(const struct tlbm_entry *e, uint64_t va)
{
    uint64_t base = tm_span_base(e);
    return va >= base && va - base < page_bytes[e->span];
}

/* The entry this CPU would use for va now, or NULL. Caller holds the lock. */
struct tlbm_entry *tm_lookup(struct tlb_model *m, struct tlbm_cpu *c, uint64_t va)
{
    uint32_t pcid = tm_current_pcid(c), w;
    int size;
    for (size = TLBM_4K; size <= TLBM_1G; size++) {
        struct tlbm_entry *set = set_of(m, c, va, (enum tlbm_page)size);
        for (w = 0; w < m->cfg.ways; w++) {
            struct tlbm_entry *e = &set[w];
            if (e->valid && e->size == size && contains(e, va) && (e->global || e->pcid == pcid))
                return e;
        }
    }
    return NULL;
}

/*
 * Same tag: a global entry is replaced by a global fill only, a non-global
 * one by a fill of its PCID only. Another PCID's entry for the address, or
 * a global one beside a PCID's, is a different translation that hardware
 * may go on holding.
 */
static bool same_tag(const struct tlbm_entry *e, const struct tlbm_entry *n)
{
    if (e->size != n->size || e->va != n->va)
        return false;
    return n->global ? e->global : !e->global && e->pcid == n->pcid;
}

/* Replaces the entry with the same tag, else an invalid way, else a random one. */
void tm_insert(struct tlb_model *m, struct tlbm_cpu *c, const struct tlbm_entry *n)
{
    struct tlbm_entry *set = set_of(m, c, n->va, (enum tlbm_page)n->size);
    uint32_t w, victim = m->cfg.ways;
    for (w = 0; w < m->cfg.ways; w++) {
        struct tlbm_entry *e = &set[w];
        if (e->valid && same_tag(e, n)) {
            victim = w;
            break;
        }
        if (!e->valid && victim == m->cfg.ways)
            victim = w;
    }
    if (victim == m->cfg.ways)
        victim = (uint32_t)tm_random_below(&c->rng, m->cfg.ways);
    set[victim] = *n;
    set[victim].valid = 1;
}

/* ---- what speculation prefers: the addresses this CPU invalidated last ---- */

void tm_note_recent(struct tlbm_cpu *c, uint64_t va)
{
    c->recent[c->recent_next] = va & ~(PAGE_4K - 1);
    c->recent_next = (c->recent_next + 1) % TLBM_RECENT;
    if (c->nrecent < TLBM_RECENT)
        c->nrecent++;
}

/* At most this many of the entries one invalidation drops become "recent" (a fair sample). */
#define RECENT_PER_DROP 4u

/* Drops every entry `match` accepts. Caller holds the lock. */
uint32_t tm_drop_matching(struct tlb_model *m, struct tlbm_cpu *c, entry_filter match,
                          const void *arg)
{
    uint64_t i, total = (uint64_t)m->cfg.sets * m->cfg.ways, sample[RECENT_PER_DROP];
    uint32_t dropped = 0, k;
    for (i = 0; i < total; i++) {
        if (c->tlb[i].valid && match(&c->tlb[i], arg)) {
            /* reservoir sampling: each dropped entry equally likely to be kept */
            uint64_t slot =
                dropped < RECENT_PER_DROP ? dropped : tm_random_below(&c->rng, dropped + 1);
            if (slot < RECENT_PER_DROP)
                sample[slot] = c->tlb[i].va;
            c->tlb[i].valid = 0;
            dropped++;
        }
    }
    for (k = 0; k < dropped && k < RECENT_PER_DROP; k++)
        tm_note_recent(c, sample[k]);
    return dropped;
}

/* ---- the paging-structure caches ---- */

/* Bytes of linear address one entry of `level` translates (level 1 = PTE). */
static uint64_t level_bytes(unsigned level) { return 1ull << (12 + 9 * (level - 1)); }

static bool psc_covers(const struct tlbm_psc_entry *p, uint64_t va)
{
    return va >= p->va && va - p->va < level_bytes(p->level);
}

static const struct tlbm_psc_entry *psc_find(const struct tlbm_cpu *c, uint64_t va,
                                             unsigned level, uint32_t pcid)
{
    uint32_t i;
    for (i = 0; i < TLBM_PSC_ENTRIES; i++) {
        const struct tlbm_psc_entry *p = &c->psc[i];
        if (p->valid && p->level == level && p->pcid == pcid && psc_covers(p, va))
            return p;
    }
    return NULL;
}

static void psc_insert(struct tlbm_cpu *c, uint64_t va, unsigned level, uint64_t table,
                       uint32_t pcid)
{
    uint64_t base = va & ~(level_bytes(level) - 1);
    uint32_t i, victim = TLBM_PSC_ENTRIES;
    for (i = 0; i < TLBM_PSC_ENTRIES; i++) {
        struct tlbm_psc_entry *p = &c->psc[i];
        if (p->valid && p->level == level && p->pcid == pcid && p->va == base) {
            victim = i;
            break;
        }
        if (!p->valid && victim == TLBM_PSC_ENTRIES)
            victim = i;
    }
    if (victim == TLBM_PSC_ENTRIES)
        victim = (uint32_t)tm_random_below(&c->rng, TLBM_PSC_ENTRIES);
    c->psc[victim] = (struct tlbm_psc_entry){ base, table, (uint16_t)pcid, (uint8_t)level, 1 };
}

void tm_psc_drop(struct tlbm_cpu *c, psc_filter match, const void *arg)
{
    uint32_t i;
    for (i = 0; i < TLBM_PSC_ENTRIES; i++)
        if (c->psc[i].valid && (!match || match(&c->psc[i], arg)))
            c->psc[i].valid = 0;
}


/* Does the address list va + i * stride, i < count, hit [base, base + size)? */
bool tm_list_hits(uint64_t base, uint64_t size, uint64_t va, uint64_t stride, uint64_t count)
{
    uint64_t first = 0, addr;
    if (base > va)
        first = (base - va + stride - 1) / stride;
    if (first >= count)
        return false;
    addr = va + first * stride;
    return addr >= base && addr - base < size;
}

bool tm_psc_hits(const struct tlbm_psc_entry *p, const void *arg)
{
    const struct psc_arg *a = arg;
    if (!a->any_pcid && p->pcid != a->pcid)
        return false;
    return !a->by_address || tm_list_hits(p->va, level_bytes(p->level), a->va, a->stride, a->count);
}

/* The PCID's entries for the regions that hold va (INVLPG, INVPCID type 0). */
void tm_psc_drop_address(struct tlbm_cpu *c, uint32_t pcid, uint64_t va)
{
    struct psc_arg a = { pcid, false, true, va, PAGE_4K, 1 };
    tm_psc_drop(c, tm_psc_hits, &a);
}

void tm_psc_drop_pcid(struct tlbm_cpu *c, uint32_t pcid)
{
    struct psc_arg a = { pcid, false, false, 0, 0, 0 };
    tm_psc_drop(c, tm_psc_hits, &a);
}

/*
 * AMD without the translation cache extension (EFER.TCE clear on a CPU that
 * has it): INVLPG, INVLPGB and INVPCID drop every upper-level entry cached,
 * whatever address or PCID it is for (APM vol. 2, 3.1.7). True when it did.
 */
bool tm_psc_drop_all_without_tce(struct tlb_model *m, struct tlbm_cpu *c)
{
    if (!m->cfg.feat.tce || (c->efer & EFER_TCE))
        return false;
    tm_psc_drop(c, NULL, NULL);
    c->n.psc_flush_all++;
    return true;
}

/* ---- the page walk ---- */

static uint64_t load_entry(const uint64_t *table, unsigned index)
{
    /* another CPU may be rewriting this entry (the initiator's remap) */
    return __atomic_load_n(&table[index], __ATOMIC_ACQUIRE);
}

/*
 * Walks va: from the deepest paging-structure entry this CPU holds for it
 * (SDM vol. 3A 4.10.3.2: one that skips the most of memory), else from CR3;
 * caches every non-leaf entry it reads from memory. False when not present.
 */
bool tm_walk(struct tlb_model *m, struct tlbm_cpu *c, uint64_t va, struct tlbm_entry *out)
{
    const uint64_t *table = (const uint64_t *)(uintptr_t)(c->cr3 & PTE_ADDR_MASK);
    unsigned levels = (c->cr4 & CR4_LA57) ? 5 : 4, level = levels, l;
    uint32_t pcid = tm_current_pcid(c);
    if (!table)
        return false;
    for (l = 2; l <= levels; l++) {
        const struct tlbm_psc_entry *p = psc_find(c, va, l, pcid);
        if (p) {
            table = (const uint64_t *)(uintptr_t)p->table;
            level = l - 1;
            c->n.psc_walks++;
            break;
        }
    }
    for (; level >= 1; level--) {
        unsigned shift = 12 + 9 * (level - 1);
        uint64_t e = load_entry(table, (unsigned)((va >> shift) & 0x1ff));
        if (!(e & PTE_P))
            return false;
        if (level == 1 || ((level == 2 || level == 3) && (e & PTE_PS))) {
            enum tlbm_page size = level == 1 ? TLBM_4K : level == 2 ? TLBM_2M : TLBM_1G;
            uint64_t frame = e & PTE_ADDR_MASK & ~(page_bytes[size] - 1);
            out->span = (uint8_t)size;
            if (size == TLBM_2M && m->cfg.splinter_per_65536 &&
                tm_random_below(&c->rng, 65536) < m->cfg.splinter_per_65536) {
                /* SDM vol. 3A 4.10.2.3: the part accessed, as its own 4 KiB entry */
                frame += (va & (PAGE_2M - 1)) & ~(PAGE_4K - 1);
                size = TLBM_4K;
                c->n.splinters++;
            }
            out->size = (uint8_t)size;
            out->va = va & ~(page_bytes[size] - 1);
            out->pa = frame;
            /* G counts only with CR4.PGE (SDM vol. 3A, 4.10.2.4) */
            out->global = (e & PTE_G) && (c->cr4 & CR4_PGE) ? 1 : 0;
            out->pcid = (uint16_t)pcid;
            out->valid = 1;
            return true;
        }
        if (level >= 2)
            psc_insert(c, va, level, e & PTE_ADDR_MASK, pcid);
        table = (const uint64_t *)(uintptr_t)(e & PTE_ADDR_MASK);
    }
    return false;
}

bool tlbm_holds(struct tlb_model *m, uint32_t ci, uint64_t va, uint64_t *pa)
{
    struct tlbm_cpu *c = m->cpu[ci];
    struct tlbm_entry *e;
    pthread_mutex_lock(&c->lock);
    e = tm_lookup(m, c, va);
    if (e && pa)
        *pa = e->pa + (va - e->va);
    pthread_mutex_unlock(&c->lock);
    return e != NULL;
}

/* Entries of CPU c with pcid's tag (pcid < 0: global) that map va, or splintered parts of its page. */
static uint32_t count_tagged(struct tlb_model *m, uint32_t ci, uint64_t va, int pcid, bool parts)
{
    struct tlbm_cpu *c = m->cpu[ci];
    uint64_t i, total = (uint64_t)m->cfg.sets * m->cfg.ways;
    uint32_t n = 0;
    pthread_mutex_lock(&c->lock);
    for (i = 0; i < total; i++) {
        const struct tlbm_entry *e = &c->tlb[i];
        bool where = parts ? e->span != e->size && tm_covers(e, va) : contains(e, va);
        if (e->valid && where && (pcid < 0 ? e->global : (!e->global && e->pcid == pcid)))
            n++;
    }
    pthread_mutex_unlock(&c->lock);
    return n;
}

uint32_t tlbm_count_entries(struct tlb_model *m, uint32_t ci, uint64_t va, int pcid)
{
    return count_tagged(m, ci, va, pcid, false);
}

uint32_t tlbm_count_splinters(struct tlb_model *m, uint32_t ci, uint64_t va, int pcid)
{
    return count_tagged(m, ci, va, pcid, true);
}

uint64_t tlbm_psc_table(struct tlb_model *m, uint32_t ci, uint64_t va, unsigned level, uint32_t pcid)
{
    struct tlbm_cpu *c = m->cpu[ci];
    const struct tlbm_psc_entry *p;
    uint64_t table;
    pthread_mutex_lock(&c->lock);
    p = psc_find(c, va, level, pcid);
    table = p ? p->table : 0;
    pthread_mutex_unlock(&c->lock);
    return table;
}

uint32_t tlbm_psc_count(struct tlb_model *m, uint32_t ci)
{
    struct tlbm_cpu *c = m->cpu[ci];
    uint32_t i, n = 0;
    pthread_mutex_lock(&c->lock);
    for (i = 0; i < TLBM_PSC_ENTRIES; i++)
        n += c->psc[i].valid;
    pthread_mutex_unlock(&c->lock);
    return n;
}

uint32_t tlbm_pending(struct tlb_model *m, uint32_t ci)
{
    struct tlbm_cpu *c = m->cpu[ci];
    uint32_t n;
    pthread_mutex_lock(&c->lock);
    n = c->queued;
    pthread_mutex_unlock(&c->lock);
    return n;
}
