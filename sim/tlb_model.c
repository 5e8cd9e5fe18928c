#include "sim/tlb_model.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "asm/cpu.h"
#include "asm/paging.h"

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

static uint64_t random_below(uint64_t *state, uint64_t n) { return n ? next_random(state) % n : 0; }

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

static void log_event(struct tlb_model *m, struct tlbm_cpu *c, uint32_t kind, uint64_t a,
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

static const uint64_t page_bytes[] = { PAGE_4K, PAGE_2M, PAGE_1G };
static const unsigned page_shift[] = { 12, 21, 30 };

static uint32_t current_pcid(const struct tlbm_cpu *c)
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
static uint64_t span_base(const struct tlbm_entry *e) { return e->va & ~(page_bytes[e->span] - 1); }

static bool covers(const struct tlbm_entry *e, uint64_t va)
{
    uint64_t base = span_base(e);
    return va >= base && va - base < page_bytes[e->span];
}

/* The entry this CPU would use for va now, or NULL. Caller holds the lock. */
static struct tlbm_entry *lookup(struct tlb_model *m, struct tlbm_cpu *c, uint64_t va)
{
    uint32_t pcid = current_pcid(c), w;
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
static void insert(struct tlb_model *m, struct tlbm_cpu *c, const struct tlbm_entry *n)
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
        victim = (uint32_t)random_below(&c->rng, m->cfg.ways);
    set[victim] = *n;
    set[victim].valid = 1;
}

/* ---- what speculation prefers: the addresses this CPU invalidated last ---- */

static void note_recent(struct tlbm_cpu *c, uint64_t va)
{
    c->recent[c->recent_next] = va & ~(PAGE_4K - 1);
    c->recent_next = (c->recent_next + 1) % TLBM_RECENT;
    if (c->nrecent < TLBM_RECENT)
        c->nrecent++;
}

/* At most this many of the entries one invalidation drops become "recent" (a fair sample). */
#define RECENT_PER_DROP 4u

/* Drops every entry `match` accepts. Caller holds the lock. */
typedef bool (*entry_filter)(const struct tlbm_entry *e, const void *arg);
static uint32_t drop_matching(struct tlb_model *m, struct tlbm_cpu *c, entry_filter match,
                              const void *arg)
{
    uint64_t i, total = (uint64_t)m->cfg.sets * m->cfg.ways, sample[RECENT_PER_DROP];
    uint32_t dropped = 0, k;
    for (i = 0; i < total; i++) {
        if (c->tlb[i].valid && match(&c->tlb[i], arg)) {
            /* reservoir sampling: each dropped entry equally likely to be kept */
            uint64_t slot = dropped < RECENT_PER_DROP ? dropped : random_below(&c->rng, dropped + 1);
            if (slot < RECENT_PER_DROP)
                sample[slot] = c->tlb[i].va;
            c->tlb[i].valid = 0;
            dropped++;
        }
    }
    for (k = 0; k < dropped && k < RECENT_PER_DROP; k++)
        note_recent(c, sample[k]);
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
        victim = (uint32_t)random_below(&c->rng, TLBM_PSC_ENTRIES);
    c->psc[victim] = (struct tlbm_psc_entry){ base, table, (uint16_t)pcid, (uint8_t)level, 1 };
}

typedef bool (*psc_filter)(const struct tlbm_psc_entry *p, const void *arg);
static void psc_drop(struct tlbm_cpu *c, psc_filter match, const void *arg)
{
    uint32_t i;
    for (i = 0; i < TLBM_PSC_ENTRIES; i++)
        if (c->psc[i].valid && (!match || match(&c->psc[i], arg)))
            c->psc[i].valid = 0;
}

struct psc_arg {
    uint32_t pcid;
    bool any_pcid;
    bool by_address;
    uint64_t va, stride, count; /* the addresses va + i * stride, i < count */
};

/* Does the address list va + i * stride, i < count, hit [base, base + size)? */
static bool list_hits(uint64_t base, uint64_t size, uint64_t va, uint64_t stride, uint64_t count)
{
    uint64_t first = 0, addr;
    if (base > va)
        first = (base - va + stride - 1) / stride;
    if (first >= count)
        return false;
    addr = va + first * stride;
    return addr >= base && addr - base < size;
}

static bool psc_hits(const struct tlbm_psc_entry *p, const void *arg)
{
    const struct psc_arg *a = arg;
    if (!a->any_pcid && p->pcid != a->pcid)
        return false;
    return !a->by_address || list_hits(p->va, level_bytes(p->level), a->va, a->stride, a->count);
}

/* The PCID's entries for the regions that hold va (INVLPG, INVPCID type 0). */
static void psc_drop_address(struct tlbm_cpu *c, uint32_t pcid, uint64_t va)
{
    struct psc_arg a = { pcid, false, true, va, PAGE_4K, 1 };
    psc_drop(c, psc_hits, &a);
}

static void psc_drop_pcid(struct tlbm_cpu *c, uint32_t pcid)
{
    struct psc_arg a = { pcid, false, false, 0, 0, 0 };
    psc_drop(c, psc_hits, &a);
}

/*
 * AMD without the translation cache extension (EFER.TCE clear on a CPU that
 * has it): INVLPG, INVLPGB and INVPCID drop every upper-level entry cached,
 * whatever address or PCID it is for (APM vol. 2, 3.1.7). True when it did.
 */
static bool psc_drop_all_without_tce(struct tlb_model *m, struct tlbm_cpu *c)
{
    if (!m->cfg.feat.tce || (c->efer & EFER_TCE))
        return false;
    psc_drop(c, NULL, NULL);
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
static bool walk(struct tlb_model *m, struct tlbm_cpu *c, uint64_t va, struct tlbm_entry *out)
{
    const uint64_t *table = (const uint64_t *)(uintptr_t)(c->cr3 & PTE_ADDR_MASK);
    unsigned levels = (c->cr4 & CR4_LA57) ? 5 : 4, level = levels, l;
    uint32_t pcid = current_pcid(c);
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
                random_below(&c->rng, 65536) < m->cfg.splinter_per_65536) {
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

/* ---- INVLPGB: the operation and its delayed arrival ---- */

struct invlpgb_match {
    uint64_t rax;
    uint32_t ecx, edx;
    bool ignore_count;
};

static uint64_t invlpgb_count(const struct invlpgb_match *op)
{
    return op->ignore_count ? 1 : (uint64_t)(op->ecx & 0xffff) + 1;
}

static uint64_t invlpgb_stride(const struct invlpgb_match *op)
{
    return (op->ecx >> 31) ? PAGE_2M : PAGE_4K;
}

static bool invlpgb_hits(const struct tlbm_entry *e, const void *arg)
{
    const struct invlpgb_match *op = arg;
    bool va_valid = op->rax & 1, pcid_valid = op->rax & 2, asid_valid = op->rax & 4;
    bool include_global = op->rax & 8;
    uint32_t pcid = (op->edx >> 16) & 0xfff, asid = op->edx & 0xffff;
    /* the host's own translations are ASID 0; another ASID is a guest's */
    if (asid_valid && asid != 0)
        return false;
    if (e->global) {
        if (!include_global)
            return false;
    } else if (pcid_valid && e->pcid != pcid) {
        return false;
    }
    if (va_valid)
        return list_hits(span_base(e), page_bytes[e->span], op->rax & ~0xfffull,
                         invlpgb_stride(op), invlpgb_count(op));
    return true;
}

static void apply_invlpgb(struct tlb_model *m, struct tlbm_cpu *c, const struct tlbm_pending *p)
{
    struct invlpgb_match op = { p->rax, p->ecx, p->edx,
                                (m->cfg.errata & TLBM_ERR_INVLPGB_IGNORES_COUNT) != 0 };
    bool va_valid = p->rax & 1, final_only = p->rax & 0x10, asid_valid = p->rax & 4;
    drop_matching(m, c, invlpgb_hits, &op);
    if (va_valid)
        note_recent(c, p->rax & ~0xfffull);
    /* APM: without final-only the page-walk cache entries go as well */
    if (!final_only && !(asid_valid && (p->edx & 0xffff) != 0) &&
        !psc_drop_all_without_tce(m, c)) {
        struct psc_arg a = { (p->edx >> 16) & 0xfff, !(p->rax & 2), va_valid,
                             p->rax & ~0xfffull, invlpgb_stride(&op), invlpgb_count(&op) };
        psc_drop(c, psc_hits, &a);
    }
}

/* Lands pending INVLPGBs that are due (or all from `issuer`, for TLBSYNC). Caller holds the lock. */
static void land_pending(struct tlb_model *m, struct tlbm_cpu *c, uint32_t issuer, bool all_of_issuer)
{
    uint32_t i, kept = 0;
    for (i = 0; i < c->queued; i++) {
        struct tlbm_pending *p = &c->queue[i];
        if ((all_of_issuer && p->issuer == issuer) || p->due <= c->events)
            apply_invlpgb(m, c, p);
        else
            c->queue[kept++] = *p;
    }
    c->queued = kept;
}

/* ---- model events ---- */

/*
 * Bits 63:47 (63:56 with LA57) all equal, or the access is #GP before any
 * walk (SDM vol. 1, 3.3.7.1). The walk indexes only bits 47:12 (56:12), so
 * without this a non-canonical load would alias a mapped page.
 */
static bool canonical_for(const struct tlbm_cpu *c, uint64_t va)
{
    unsigned unused = (c->cr4 & CR4_LA57) ? 7 : 16;
    return ((int64_t)(va << unused) >> unused) == (int64_t)va;
}

/* A speculative walk of va: cached unless held already or not mapped (no fault). */
static bool speculative_fill(struct tlb_model *m, struct tlbm_cpu *c, uint64_t va)
{
    struct tlbm_entry e;
    /* a present translation is not walked again */
    if (!canonical_for(c, va) || lookup(m, c, va) || !walk(m, c, va, &e))
        return false;
    insert(m, c, &e);
    c->n.spec_fills++;
    return true;
}

static void speculate(struct tlb_model *m, struct tlbm_cpu *c)
{
    uint64_t va;
    /* no draw at all when off: a test without speculation keeps its random stream */
    if (!m->cfg.spec_per_65536 || random_below(&c->rng, 65536) >= m->cfg.spec_per_65536)
        return;
    if (c->nrecent && (!m->nspec || random_below(&c->rng, 2) == 0)) {
        va = c->recent[random_below(&c->rng, c->nrecent)];
    } else if (m->nspec) {
        const struct tlbm_range *r = &m->spec[random_below(&c->rng, m->nspec)];
        va = r->va + random_below(&c->rng, r->pages) * r->page_size;
        /* any 4 KiB part of a large page: a splintered fill is of the part touched */
        va += random_below(&c->rng, r->page_size / PAGE_4K) * PAGE_4K;
    } else {
        return;
    }
    speculative_fill(m, c, va);
}

/* Every instruction the model sees is an event: time passes for this CPU. Lock held. */
static void event(struct tlb_model *m, struct tlbm_cpu *c)
{
    c->events++;
    if (c->queued)
        land_pending(m, c, 0, false);
    speculate(m, c);
}

/* An instruction starts: time passes for its CPU and the log records it. Returns holding the lock. */
static void begin(struct tlb_model *m, struct tlbm_cpu *c, uint32_t kind, uint64_t a, uint64_t b,
                  uint64_t cc)
{
    pthread_mutex_lock(&c->lock);
    event(m, c);
    log_event(m, c, kind, a, b, cc);
}

/* The instruction has acted: the CPU may speculate again before the next one. Releases the lock. */
static void end(struct tlb_model *m, struct tlbm_cpu *c)
{
    if (m->cfg.spec_after)
        speculate(m, c);
    pthread_mutex_unlock(&c->lock);
}

void tlbm_tick(struct tlb_model *m, uint32_t ci)
{
    struct tlbm_cpu *c = m->cpu[ci];
    pthread_mutex_lock(&c->lock);
    event(m, c);
    pthread_mutex_unlock(&c->lock);
}

void tlbm_pte_store(struct tlb_model *m, uint32_t ci, uint64_t *entry, uint64_t value, uint64_t va)
{
    struct tlbm_cpu *c = m->cpu[ci];
    begin(m, c, TLBM_EV_PTE, va, value, 0);
    c->n.pte_stores++;
    /* the translation the store is about to replace, cached just before it */
    if (m->cfg.pte_spec_per_65536 && random_below(&c->rng, 65536) < m->cfg.pte_spec_per_65536 &&
        speculative_fill(m, c, va))
        c->n.pte_fills++;
    note_recent(c, va);
    __atomic_store_n(entry, value, __ATOMIC_RELEASE);
    end(m, c);
}

bool tlbm_read64(struct tlb_model *m, uint32_t ci, uint64_t va, uint64_t *value)
{
    struct tlbm_cpu *c = m->cpu[ci];
    struct tlbm_entry *e, fresh;
    uint64_t pa;
    pthread_mutex_lock(&c->lock);
    event(m, c);
    c->n.reads++;
    if (!canonical_for(c, va)) {
        pthread_mutex_unlock(&c->lock);
        tlbm_violation(m, ci, "#GP: read of non-canonical address 0x%llx", (unsigned long long)va);
        *value = 0;
        return false;
    }
    e = lookup(m, c, va);
    if (!e) {
        if (!walk(m, c, va, &fresh)) {
            pthread_mutex_unlock(&c->lock);
            tlbm_violation(m, ci, "#PF: read of 0x%llx, not mapped by CR3 0x%llx",
                           (unsigned long long)va, (unsigned long long)c->cr3);
            *value = 0;
            return false;
        }
        insert(m, c, &fresh);
        c->n.misses++;
        e = &fresh;
    }
    pa = e->pa + (va - e->va);
    end(m, c);
    /* the frame may be rewritten by the initiator at the same time */
    *value = __atomic_load_n((const uint64_t *)(uintptr_t)pa, __ATOMIC_ACQUIRE);
    return true;
}

struct pcid_arg {
    uint32_t pcid;
};

static bool non_global(const struct tlbm_entry *e, const void *arg)
{
    (void)arg;
    return !e->global;
}

static bool non_global_of_pcid(const struct tlbm_entry *e, const void *arg)
{
    return !e->global && e->pcid == ((const struct pcid_arg *)arg)->pcid;
}

static bool any_entry(const struct tlbm_entry *e, const void *arg)
{
    (void)e;
    (void)arg;
    return true;
}

void tlbm_write_cr3(struct tlb_model *m, uint32_t ci, uint64_t value)
{
    struct tlbm_cpu *c = m->cpu[ci];
    bool pcide = (c->cr4 & CR4_PCIDE) != 0;
    begin(m, c, TLBM_EV_CR3, value, 0, 0);
    if (!pcide && (value & CR3_NOFLUSH)) {
        pthread_mutex_unlock(&c->lock);
        /* bit 63 is reserved without PCIDE (SDM vol. 3A, 4.10.4.1) */
        tlbm_violation(m, ci, "#GP: MOV to CR3 with bit 63 set while CR4.PCIDE = 0 (0x%llx)",
                       (unsigned long long)value);
        return;
    }
    c->cr3 = value & ~CR3_NOFLUSH;
    if (!pcide) {
        /* PCID 000H is the only one: its paging-structure entries are all of them */
        drop_matching(m, c, non_global, NULL);
        psc_drop(c, NULL, NULL);
        c->n.full_flushes++;
    } else if (!(value & CR3_NOFLUSH)) {
        struct pcid_arg a = { (uint32_t)(value & CR3_PCID_MASK) };
        drop_matching(m, c, non_global_of_pcid, &a);
        psc_drop_pcid(c, a.pcid);
        c->n.full_flushes++;
    }
    end(m, c);
}

uint64_t tlbm_read_cr3(struct tlb_model *m, uint32_t ci) { return m->cpu[ci]->cr3; }

uint64_t tlbm_read_efer(struct tlb_model *m, uint32_t ci) { return m->cpu[ci]->efer; }

void tlbm_write_efer(struct tlb_model *m, uint32_t ci, uint64_t value)
{
    struct tlbm_cpu *c = m->cpu[ci];
    if ((value & EFER_TCE) && !m->cfg.feat.tce) {
        tlbm_violation(m, ci, "#GP: WRMSR EFER setting TCE (bit 15) on a CPU without it "
                              "(CPUID 8000_0001 ECX[17] = 0), EFER 0x%llx",
                       (unsigned long long)value);
        return;
    }
    if ((value ^ c->efer) & ~EFER_TCE) {
        tlbm_violation(m, ci, "WRMSR EFER 0x%llx -> 0x%llx: bits other than TCE are not modelled",
                       (unsigned long long)c->efer, (unsigned long long)value);
        return;
    }
    pthread_mutex_lock(&c->lock);
    event(m, c);
    c->efer = value;
    pthread_mutex_unlock(&c->lock);
}

void tlbm_write_cr4(struct tlb_model *m, uint32_t ci, uint64_t value)
{
    struct tlbm_cpu *c = m->cpu[ci];
    uint64_t old = c->cr4;
    begin(m, c, TLBM_EV_CR4, value, 0, 0);
    if ((value & CR4_PCIDE) && !(old & CR4_PCIDE)) {
        const char *why = !m->cfg.feat.pcid         ? "the CPU has no PCID (CPUID.01H:ECX[17] = 0)"
                          : (c->cr3 & CR3_PCID_MASK) ? "CR3[11:0] is not 0"
                                                     : NULL;
        if (why) {
            pthread_mutex_unlock(&c->lock);
            tlbm_violation(m, ci, "#GP: setting CR4.PCIDE while %s", why);
            return;
        }
    }
    if ((value ^ old) & CR4_LA57) {
        pthread_mutex_unlock(&c->lock);
        /* the paging mode is fixed in long mode (SDM vol. 3A, 4.1.1 and MOV to CR4) */
        tlbm_violation(m, ci, "#GP: MOV to CR4 changing CR4.LA57 in long mode (0x%llx -> 0x%llx)",
                       (unsigned long long)old, (unsigned long long)value);
        return;
    }
    if ((value & CR4_PGE) && !m->cfg.feat.pge) {
        pthread_mutex_unlock(&c->lock);
        tlbm_violation(m, ci, "#GP: setting CR4.PGE on a CPU without PGE");
        return;
    }
    c->cr4 = value;
    /* a PGE change, or PCIDE going off, drops everything (SDM vol. 3A, 4.10.4.1) */
    if (((old ^ value) & CR4_PGE) || ((old & CR4_PCIDE) && !(value & CR4_PCIDE))) {
        drop_matching(m, c, any_entry, NULL);
        psc_drop(c, NULL, NULL);
        c->n.full_flushes++;
    }
    end(m, c);
}

struct addr_arg {
    uint64_t va;
    uint32_t pcid;
    bool globals_too;
};

/* By address: every entry of the page holding va, each splintered part of a 2 MiB page included. */
static bool invlpg_hits(const struct tlbm_entry *e, const void *arg)
{
    const struct addr_arg *a = arg;
    if (!covers(e, a->va))
        return false;
    return e->global ? a->globals_too : e->pcid == a->pcid;
}

static bool address_in_pcid(const struct tlbm_entry *e, const void *arg)
{
    const struct addr_arg *a = arg;
    return !e->global && e->pcid == a->pcid && covers(e, a->va);
}

/* The instruction's own time, spent before it acts (the old entry is still usable meanwhile). */
static void spend_latency(uint32_t ns)
{
    struct timespec t0, t;
    if (!ns)
        return;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do
        clock_gettime(CLOCK_MONOTONIC, &t);
    while ((uint64_t)(t.tv_sec - t0.tv_sec) * 1000000000ull + (uint64_t)t.tv_nsec -
               (uint64_t)t0.tv_nsec < ns);
}

void tlbm_invlpg(struct tlb_model *m, uint32_t ci, uint64_t va)
{
    struct tlbm_cpu *c = m->cpu[ci];
    struct addr_arg a;
    spend_latency(m->cfg.invlpg_latency_ns);
    begin(m, c, TLBM_EV_INVLPG, va, 0, 0);
    a.va = va;
    a.pcid = current_pcid(c);
    a.globals_too = !((m->cfg.errata & TLBM_ERR_INVLPG_IGNORES_GLOBAL) && (c->cr4 & CR4_PCIDE));
    drop_matching(m, c, invlpg_hits, &a);
    if (!psc_drop_all_without_tce(m, c))
        psc_drop_address(c, a.pcid, va);
    if (canonical_for(c, va))
        note_recent(c, va);
    if (c->n.invlpg < sizeof(c->invlpg_log) / sizeof(c->invlpg_log[0]))
        c->invlpg_log[c->n.invlpg] = va;
    c->n.invlpg++;
    end(m, c);
}

void tlbm_invpcid(struct tlb_model *m, uint32_t ci, uint64_t type, uint64_t pcid, uint64_t addr)
{
    struct tlbm_cpu *c = m->cpu[ci];
    bool pcide = (c->cr4 & CR4_PCIDE) != 0;
    const char *fault = NULL;
    if (!m->cfg.feat.invpcid)
        fault = "#UD: INVPCID on a CPU without it (CPUID.(07H,0):EBX[10] = 0)";
    else if (type > 3)
        fault = "#GP: INVPCID type above 3";
    else if (pcid > 0xfff)
        fault = "#GP: INVPCID descriptor bits 63:12 not zero";
    else if (type <= 1 && pcid != 0 && !pcide)
        fault = "#GP: INVPCID type 0/1 with a PCID other than 0 while CR4.PCIDE = 0";
    else if (type == 0 && !canonical_for(c, addr))
        fault = "#GP: INVPCID type 0 with a non-canonical address";
    if (fault) {
        tlbm_violation(m, ci, "%s (type %llu, PCID 0x%llx, address 0x%llx)", fault,
                       (unsigned long long)type, (unsigned long long)pcid,
                       (unsigned long long)addr);
        return;
    }
    begin(m, c, TLBM_EV_INVPCID, type, pcid, addr);
    c->n.invpcid++;
    switch (type) {
    case 0: {
        struct addr_arg a = { addr, (uint32_t)pcid, false };
        drop_matching(m, c, address_in_pcid, &a);
        if (!psc_drop_all_without_tce(m, c))
            psc_drop_address(c, (uint32_t)pcid, addr);
        note_recent(c, addr);
        break;
    }
    case 1: {
        struct pcid_arg a = { (uint32_t)pcid };
        drop_matching(m, c, non_global_of_pcid, &a);
        psc_drop_pcid(c, a.pcid);
        c->n.full_flushes++;
        break;
    }
    case 2:
        drop_matching(m, c, any_entry, NULL);
        psc_drop(c, NULL, NULL);
        c->n.full_flushes++;
        break;
    default:
        /* paging-structure entries are never global: type 3 drops them all */
        drop_matching(m, c, non_global, NULL);
        psc_drop(c, NULL, NULL);
        c->n.full_flushes++;
        break;
    }
    end(m, c);
}

void tlbm_invlpgb(struct tlb_model *m, uint32_t ci, uint64_t rax, uint32_t ecx, uint32_t edx)
{
    struct tlbm_cpu *c = m->cpu[ci];
    uint32_t extra = ecx & 0xffff, i;
    uint64_t delay[TLBM_MAX_CPUS];
    if (!m->cfg.feat.invlpgb) {
        tlbm_violation(m, ci, "#UD: INVLPGB on a CPU without it (CPUID 8000_0008 EBX[3] = 0)");
        return;
    }
    if ((rax & 1) && extra > m->cfg.feat.invlpgb_max_extra) {
        /* the APM bounds the count by CPUID; Linux clamps rather than find out */
        tlbm_violation(m, ci,
                       "INVLPGB with %u extra pages, above CPUID 8000_0008 EDX[15:0] = %u "
                       "(rAX 0x%llx)",
                       extra, m->cfg.feat.invlpgb_max_extra, (unsigned long long)rax);
        return;
    }
    if ((rax & 1) && !canonical_for(c, rax & ~0xfffull)) {
        tlbm_violation(m, ci, "#GP: INVLPGB with a non-canonical address (rAX 0x%llx)",
                       (unsigned long long)rax);
        return;
    }
    begin(m, c, TLBM_EV_INVLPGB, rax, ecx, edx);
    c->n.invlpgb++;
    if (m->cfg.spec_after)
        speculate(m, c);
    /*
     * end(), the delays drawn first: the issuer's stream is guarded by its
     * own lock (a TLBSYNC elsewhere landing INVLPGBs on this CPU draws from
     * it in drop_matching()), not by the targets' locks taken below.
     */
    for (i = 0; i < m->ncpus; i++)
        delay[i] = random_below(&c->rng, m->cfg.invlpgb_max_delay + 1);
    pthread_mutex_unlock(&c->lock);
    /* broadcast: every CPU, the issuer too, gets it at a moment of its own */
    for (i = 0; i < m->ncpus; i++) {
        struct tlbm_cpu *t = m->cpu[i];
        struct tlbm_pending p = { ci, 0, rax, ecx, edx };
        pthread_mutex_lock(&t->lock);
        p.due = t->events + 1 + delay[i];
        if (t->queued == TLBM_QUEUE) {
            /* a full queue drains its oldest entry: hardware has finite buffers */
            apply_invlpgb(m, t, &t->queue[0]);
            memmove(&t->queue[0], &t->queue[1], (TLBM_QUEUE - 1) * sizeof(t->queue[0]));
            t->queued--;
        }
        t->queue[t->queued++] = p;
        pthread_mutex_unlock(&t->lock);
    }
}

void tlbm_tlbsync(struct tlb_model *m, uint32_t ci)
{
    struct tlbm_cpu *c = m->cpu[ci];
    uint32_t i;
    if (!m->cfg.feat.invlpgb) {
        tlbm_violation(m, ci, "#UD: TLBSYNC on a CPU without INVLPGB (CPUID 8000_0008 EBX[3] = 0)");
        return;
    }
    begin(m, c, TLBM_EV_TLBSYNC, 0, 0, 0);
    c->n.tlbsync++;
    pthread_mutex_unlock(&c->lock);
    /* complete this CPU's INVLPGBs everywhere before returning (APM vol. 3, TLBSYNC) */
    for (i = 0; i < m->ncpus && !(m->cfg.errata & TLBM_ERR_TLBSYNC_EARLY); i++) {
        struct tlbm_cpu *t = m->cpu[i];
        pthread_mutex_lock(&t->lock);
        land_pending(m, t, ci, true);
        pthread_mutex_unlock(&t->lock);
    }
    pthread_mutex_lock(&c->lock);
    end(m, c);
}

void tlbm_note_ipi(struct tlb_model *m, uint32_t ci, uint32_t dest, uint8_t vector)
{
    struct tlbm_cpu *c = m->cpu[ci];
    begin(m, c, TLBM_EV_IPI, dest, vector, 0);
    end(m, c);
}

bool tlbm_holds(struct tlb_model *m, uint32_t ci, uint64_t va, uint64_t *pa)
{
    struct tlbm_cpu *c = m->cpu[ci];
    struct tlbm_entry *e;
    pthread_mutex_lock(&c->lock);
    e = lookup(m, c, va);
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
        bool where = parts ? e->span != e->size && covers(e, va) : contains(e, va);
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
