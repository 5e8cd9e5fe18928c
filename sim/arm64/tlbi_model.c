/* The strict aarch64 TLB model: see tlbi_model.h for the rules and where they come from. */
#include "sim/arm64/tlbi_model.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void a64m_config_defaults(struct a64m_config *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->seed = 1;
    cfg->spec_per_65536 = 16384;     /* a speculative walk at one event in four */
    cfg->pte_fill_per_65536 = 49152; /* three CPUs in four hold the old translation */
}

static uint64_t rng_next(uint64_t *s) /* xorshift64* */
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545f4914f6cdd1dull;
}

static bool chance(struct a64m_cpu *c, uint32_t per_65536)
{
    return (rng_next(&c->rng) & 0xffff) < per_65536;
}

static void violation(struct a64_model *m, uint32_t c, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void violation(struct a64_model *m, uint32_t c, const char *fmt, ...)
{
    va_list ap;
    if (m->violations < A64M_MAX_VIOLATIONS) {
        char *out = m->violation[m->violations];
        int n = snprintf(out, sizeof(m->violation[0]), "CPU %u: ", c);
        va_start(ap, fmt);
        vsnprintf(out + n, sizeof(m->violation[0]) - (size_t)n, fmt, ap);
        va_end(ap);
    }
    m->violations++;
}

bool a64m_init(struct a64_model *m, const struct a64m_config *cfg, uint32_t ncpus,
               uint32_t pages, uint32_t frames, uint64_t va_base)
{
    uint32_t i;
    memset(m, 0, sizeof(*m));
    if (ncpus == 0 || ncpus > A64M_MAX_CPUS || pages == 0 || pages > A64M_MAX_PAGES || frames == 0)
        return false;
    m->cfg = *cfg;
    m->ncpus = ncpus;
    m->pages = pages;
    m->frames = frames;
    m->va_base = va_base;
    pthread_mutex_init(&m->lock, NULL);
    m->table = calloc(pages, sizeof(*m->table));
    m->tags = calloc(frames, sizeof(*m->tags));
    if (!m->table || !m->tags)
        return false;
    for (i = 0; i < frames; i++)
        m->tags[i] = a64m_tag(i);
    for (i = 0; i < ncpus; i++) {
        struct a64m_cpu *c = &m->cpu[i];
        c->tlb = calloc(pages, sizeof(*c->tlb));
        c->pend_is = calloc(pages, sizeof(*c->pend_is));
        c->pend_local = calloc(pages, sizeof(*c->pend_local));
        c->pend_os = calloc(pages, sizeof(*c->pend_os));
        c->tlb_asid = calloc(pages, sizeof(*c->tlb_asid));
        if (!c->tlb || !c->pend_is || !c->pend_local || !c->pend_os || !c->tlb_asid)
            return false;
        c->rng = (cfg->seed + 1) * 0x9e3779b97f4a7c15ull ^ (i + 1) * 0xbf58476d1ce4e5b9ull;
        if (!c->rng)
            c->rng = 1;
    }
    return true;
}

void a64m_free(struct a64_model *m)
{
    for (uint32_t i = 0; i < m->ncpus; i++) {
        free(m->cpu[i].tlb);
        free(m->cpu[i].pend_is);
        free(m->cpu[i].pend_local);
        free(m->cpu[i].pend_os);
        free(m->cpu[i].tlb_asid);
    }
    free(m->table);
    free(m->tags);
    pthread_mutex_destroy(&m->lock);
    memset(m, 0, sizeof(*m));
}

void a64m_map_initial(struct a64_model *m, uint32_t page, uint32_t frame)
{
    m->table[page] = a64m_pte(frame);
}

/* ---- internals, with m->lock held ---- */

static bool page_of(struct a64_model *m, uint32_t c, uint64_t va, uint32_t *page)
{
    uint64_t off = va - m->va_base;
    if (va < m->va_base || (off >> A64M_PAGE_SHIFT) >= m->pages) {
        violation(m, c, "address 0x%llx outside the test region", (unsigned long long)va);
        return false;
    }
    *page = (uint32_t)(off >> A64M_PAGE_SHIFT);
    return true;
}

static void note_recent(struct a64m_cpu *c, uint32_t page)
{
    c->recent[c->recent_next] = page;
    c->recent_next = (c->recent_next + 1) % A64M_RECENT;
    if (c->nrecent < A64M_RECENT)
        c->nrecent++;
}

/*
 * A walk: what the visible table holds for page. It fills only a page this
 * CPU holds no entry for: a TLB may keep an old entry beside a new one and
 * use either (the worst: the old one), so a walk never replaces an entry
 * this CPU can use; an invalid descriptor fills nothing. A non-global entry
 * of another ASID is not usable here: the walk's entry takes its place (one
 * entry per page is all the harness needs: its CPUs never switch ASID
 * within a run).
 */
static bool usable(const struct a64m_cpu *c, uint32_t page)
{
    uint64_t d = c->tlb[page];
    return d && (!(d & A64M_PTE_NG) || c->tlb_asid[page] == c->asid);
}

static uint64_t walk(struct a64_model *m, struct a64m_cpu *c, uint32_t page)
{
    uint64_t d = m->table[page];
    if (!usable(c, page) && (d & A64M_PTE_VALID) == A64M_PTE_VALID) {
        c->tlb[page] = d;
        c->tlb_asid[page] = c->asid;
    }
    return d;
}

/*
 * A speculative walk, as hardware may do at any time: half the time a page
 * this CPU invalidated lately (pending invalidations are recent too), so an
 * entry comes back where a protocol has just worked to remove it.
 */
static void speculate(struct a64_model *m, uint32_t ci)
{
    struct a64m_cpu *c = &m->cpu[ci];
    uint32_t page;
    if (!chance(c, m->cfg.spec_per_65536))
        return;
    if (c->nrecent && (rng_next(&c->rng) & 1))
        page = c->recent[rng_next(&c->rng) % c->nrecent];
    else
        page = (uint32_t)(rng_next(&c->rng) % m->pages);
    walk(m, c, page);
    c->n.spec_walks++;
}

static void drop(struct a64m_cpu *c, uint32_t page)
{
    if (c->tlb[page]) {
        c->tlb[page] = 0;
        c->n.dropped++;
    }
}

/* On CPU c, the ASID invalidations `issuer` made complete: its non-global
 * entries of those ASIDs go, global ones stay. */
static void complete_asid(struct a64_model *m, struct a64m_cpu *c, uint32_t issuer)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < c->npend_asid; i++) {
        if (c->pend_asid[i].issuer != issuer) {
            c->pend_asid[k++] = c->pend_asid[i];
            continue;
        }
        for (uint32_t p = 0; p < m->pages; p++)
            if ((c->tlb[p] & A64M_PTE_NG) && c->tlb_asid[p] == c->pend_asid[i].asid)
                drop(c, p);
    }
    c->npend_asid = k;
}

/*
 * The issuer's DSB: its broadcast invalidations complete on every CPU, the
 * inner-shareable ones at DSB ISH or OSH, the outer-shareable ones
 * (`outer`) at DSB OSH only.
 */
static void complete_broadcast(struct a64_model *m, uint32_t issuer, bool outer)
{
    uint64_t bit = 1ull << issuer;
    for (uint32_t j = 0; j < m->ncpus; j++) {
        struct a64m_cpu *c = &m->cpu[j];
        bool all = c->pend_all & bit;
        c->pend_all &= ~bit;
        for (uint32_t p = 0; p < m->pages; p++) {
            if (all || (c->pend_is[p] & bit) || (outer && (c->pend_os[p] & bit)))
                drop(c, p);
            c->pend_is[p] &= ~bit;
            if (outer)
                c->pend_os[p] &= ~bit;
        }
        complete_asid(m, c, issuer);
    }
}

static void complete_local(struct a64_model *m, uint32_t ci)
{
    struct a64m_cpu *c = &m->cpu[ci];
    for (uint32_t p = 0; p < m->pages; p++) {
        if (c->pend_local[p]) {
            drop(c, p);
            c->pend_local[p] = 0;
        }
    }
}

/* Stores made visible to every walk, oldest first (a later store to a page wins). */
static void drain_stores(struct a64_model *m, struct a64m_cpu *c)
{
    for (uint32_t k = 0; k < c->nsb; k++)
        m->table[c->sb[k].page] = c->sb[k].value;
    c->nsb = 0;
}

static void queue_is(struct a64_model *m, uint32_t issuer, uint32_t page)
{
    for (uint32_t j = 0; j < m->ncpus; j++)
        m->cpu[j].pend_is[page] |= 1ull << issuer;
    note_recent(&m->cpu[issuer], page);
}

/* ---- the instructions ---- */

uint64_t a64m_read(struct a64_model *m, uint32_t ci, uint64_t va)
{
    struct a64m_cpu *c = &m->cpu[ci];
    uint32_t page;
    uint64_t d, value = 0;
    pthread_mutex_lock(&m->lock);
    speculate(m, ci);
    c->n.reads++;
    if (page_of(m, ci, va, &page)) {
        d = usable(c, page) ? c->tlb[page] : 0;
        if (d)
            c->n.hits++;
        else {
            d = walk(m, c, page);
            c->n.walks++;
        }
        if ((d & A64M_PTE_VALID) != A64M_PTE_VALID || (d >> A64M_PAGE_SHIFT) >= m->frames) {
            /* a translation fault: the harness counts it as a wrong read */
            c->n.faults++;
            violation(m, ci, "translation fault at 0x%llx (descriptor 0x%llx)",
                      (unsigned long long)va, (unsigned long long)d);
        } else
            value = m->tags[d >> A64M_PAGE_SHIFT];
    }
    speculate(m, ci);
    pthread_mutex_unlock(&m->lock);
    return value;
}

void a64m_pte_store(struct a64_model *m, uint32_t ci, volatile uint64_t *pte, uint64_t value)
{
    struct a64m_cpu *c = &m->cpu[ci];
    uintptr_t at = (uintptr_t)pte, base = (uintptr_t)m->table;
    uint32_t page;
    pthread_mutex_lock(&m->lock);
    c->n.pte_stores++;
    if (at < base || (at - base) % sizeof(uint64_t) || (at - base) / sizeof(uint64_t) >= m->pages) {
        violation(m, ci, "descriptor store outside the test region's table");
        pthread_mutex_unlock(&m->lock);
        return;
    }
    page = (uint32_t)((at - base) / sizeof(uint64_t));
    /* the others may have walked the old translation just before (worst case: they did) */
    for (uint32_t j = 0; j < m->ncpus; j++) {
        if (j != ci && chance(c, m->cfg.pte_fill_per_65536)) {
            walk(m, &m->cpu[j], page);
            c->n.pte_fills++;
        }
    }
    if (c->nsb == A64M_STORE_BUFFER)
        drain_stores(m, c); /* a store completes on its own eventually */
    c->sb[c->nsb].page = page;
    c->sb[c->nsb].value = value;
    c->nsb++;
    speculate(m, ci);
    pthread_mutex_unlock(&m->lock);
}

void a64m_tlbi_va_is(struct a64_model *m, uint32_t ci, uint64_t va)
{
    uint32_t page;
    pthread_mutex_lock(&m->lock);
    m->cpu[ci].n.tlbi_is++;
    if (page_of(m, ci, va, &page))
        queue_is(m, ci, page);
    speculate(m, ci);
    pthread_mutex_unlock(&m->lock);
}

void a64m_tlbi_va_local(struct a64_model *m, uint32_t ci, uint64_t va)
{
    struct a64m_cpu *c = &m->cpu[ci];
    uint32_t page;
    pthread_mutex_lock(&m->lock);
    c->n.tlbi_local++;
    if (page_of(m, ci, va, &page)) {
        c->pend_local[page] = 1;
        note_recent(c, page);
    }
    speculate(m, ci);
    pthread_mutex_unlock(&m->lock);
}

void a64m_tlbi_range_is(struct a64_model *m, uint32_t ci, uint64_t va, uint32_t pages)
{
    uint32_t first, last;
    pthread_mutex_lock(&m->lock);
    m->cpu[ci].n.tlbi_range++;
    if (pages && page_of(m, ci, va, &first) &&
        page_of(m, ci, va + ((uint64_t)(pages - 1) << A64M_PAGE_SHIFT), &last)) {
        for (uint32_t p = first; p <= last; p++)
            queue_is(m, ci, p);
    }
    speculate(m, ci);
    pthread_mutex_unlock(&m->lock);
}

void a64m_tlbi_all_is(struct a64_model *m, uint32_t ci)
{
    pthread_mutex_lock(&m->lock);
    m->cpu[ci].n.tlbi_all++;
    for (uint32_t j = 0; j < m->ncpus; j++)
        m->cpu[j].pend_all |= 1ull << ci;
    speculate(m, ci);
    pthread_mutex_unlock(&m->lock);
}

void a64m_tlbi_va_os(struct a64_model *m, uint32_t ci, uint64_t va)
{
    uint32_t page;
    pthread_mutex_lock(&m->lock);
    m->cpu[ci].n.tlbi_os++;
    if (page_of(m, ci, va, &page)) {
        for (uint32_t j = 0; j < m->ncpus; j++)
            m->cpu[j].pend_os[page] |= 1ull << ci;
        note_recent(&m->cpu[ci], page);
    }
    speculate(m, ci);
    pthread_mutex_unlock(&m->lock);
}

void a64m_tlbi_asid_is(struct a64_model *m, uint32_t ci, uint16_t asid)
{
    pthread_mutex_lock(&m->lock);
    m->cpu[ci].n.tlbi_asid++;
    for (uint32_t j = 0; j < m->ncpus; j++) {
        struct a64m_cpu *c = &m->cpu[j];
        if (c->npend_asid == A64M_MAX_PEND_ASID) {
            violation(m, ci, "more than %u ASID invalidations pending on CPU %u", A64M_MAX_PEND_ASID, j);
            continue;
        }
        c->pend_asid[c->npend_asid].issuer = ci;
        c->pend_asid[c->npend_asid].asid = asid;
        c->npend_asid++;
    }
    speculate(m, ci);
    pthread_mutex_unlock(&m->lock);
}

void a64m_set_asid(struct a64_model *m, uint32_t ci, uint16_t asid)
{
    pthread_mutex_lock(&m->lock);
    m->cpu[ci].asid = asid;
    pthread_mutex_unlock(&m->lock);
}

/* What a DSB completes: DSB ISH the stores, the IS and local TLBIs; DSB OSH the OS ones too;
 * DSB ISHST the stores; DSB NSH the local TLBIs. */
#define DSB_STORES 1u
#define DSB_BROADCAST 2u
#define DSB_LOCAL 4u
#define DSB_OUTER 8u

static void dsb(struct a64_model *m, uint32_t ci, uint64_t *count, unsigned what)
{
    struct a64m_cpu *c = &m->cpu[ci];
    pthread_mutex_lock(&m->lock);
    (*count)++;
    /* speculation before the barrier: a walk of the old table, dropped by what completes */
    speculate(m, ci);
    if (what & DSB_STORES)
        drain_stores(m, c);
    if (what & DSB_BROADCAST)
        complete_broadcast(m, ci, (what & DSB_OUTER) != 0);
    if (what & DSB_LOCAL)
        complete_local(m, ci);
    speculate(m, ci);
    pthread_mutex_unlock(&m->lock);
}

void a64m_dsb_ish(struct a64_model *m, uint32_t ci)
{
    dsb(m, ci, &m->cpu[ci].n.dsb_ish, DSB_STORES | DSB_BROADCAST | DSB_LOCAL);
}

void a64m_dsb_ishst(struct a64_model *m, uint32_t ci) { dsb(m, ci, &m->cpu[ci].n.dsb_ishst, DSB_STORES); }

void a64m_dsb_nsh(struct a64_model *m, uint32_t ci) { dsb(m, ci, &m->cpu[ci].n.dsb_nsh, DSB_LOCAL); }

void a64m_dsb_osh(struct a64_model *m, uint32_t ci)
{
    dsb(m, ci, &m->cpu[ci].n.dsb_osh, DSB_STORES | DSB_BROADCAST | DSB_LOCAL | DSB_OUTER);
}

void a64m_isb(struct a64_model *m, uint32_t ci)
{
    pthread_mutex_lock(&m->lock);
    m->cpu[ci].n.isb++;
    speculate(m, ci);
    pthread_mutex_unlock(&m->lock);
}

void a64m_tick(struct a64_model *m, uint32_t ci)
{
    pthread_mutex_lock(&m->lock);
    speculate(m, ci);
    pthread_mutex_unlock(&m->lock);
}

/* ---- inspection ---- */

uint64_t a64m_entry(struct a64_model *m, uint32_t ci, uint32_t page)
{
    uint64_t d;
    pthread_mutex_lock(&m->lock);
    d = page < m->pages && usable(&m->cpu[ci], page) ? m->cpu[ci].tlb[page] : 0;
    pthread_mutex_unlock(&m->lock);
    return d;
}

uint32_t a64m_pending(struct a64_model *m, uint32_t ci)
{
    struct a64m_cpu *c = &m->cpu[ci];
    uint32_t n;
    pthread_mutex_lock(&m->lock);
    n = (uint32_t)__builtin_popcountll(c->pend_all) + c->npend_asid;
    for (uint32_t p = 0; p < m->pages; p++)
        n += (uint32_t)__builtin_popcountll(c->pend_is[p]) + (uint32_t)__builtin_popcountll(c->pend_os[p]) +
             c->pend_local[p];
    pthread_mutex_unlock(&m->lock);
    return n;
}

void a64m_sum_counts(struct a64_model *m, struct a64m_counts *out)
{
    memset(out, 0, sizeof(*out));
    pthread_mutex_lock(&m->lock);
    for (uint32_t i = 0; i < m->ncpus; i++) {
        const uint64_t *src = (const uint64_t *)&m->cpu[i].n;
        uint64_t *dst = (uint64_t *)out;
        for (size_t k = 0; k < sizeof(*out) / sizeof(uint64_t); k++)
            dst[k] += src[k];
    }
    pthread_mutex_unlock(&m->lock);
}
