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
        c->tlb = calloc((size_t)pages * A64M_WAYS, sizeof(*c->tlb));
        c->tlb_asid = calloc((size_t)pages * A64M_WAYS, sizeof(*c->tlb_asid));
        c->tlb_filled = calloc((size_t)pages * A64M_WAYS, sizeof(*c->tlb_filled));
        if (!c->tlb || !c->tlb_asid || !c->tlb_filled)
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
        free(m->cpu[i].tlb_asid);
        free(m->cpu[i].tlb_filled);
        free(m->cpu[i].pend);
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
 * CPU holds no usable entry for: a TLB may keep an old entry beside a new
 * one and use either (the worst: the old one), so a walk never replaces an
 * entry this CPU can use; an invalid descriptor fills nothing. A non-global
 * entry of another ASID is not usable here; it stays beside the new one
 * while the page has a free way (KPTI's two ASIDs), else the one filled
 * longest ago makes room.
 */
#define SLOT(page, way) ((page) * A64M_WAYS + (way))

/* The slot of page's entry usable under this CPU's ASID (of two, the older: the worst), or -1. */
static int usable(const struct a64m_cpu *c, uint32_t page)
{
    int found = -1;
    for (uint32_t w = 0; w < A64M_WAYS; w++) {
        uint32_t s = SLOT(page, w);
        uint64_t d = c->tlb[s];
        if (d && (!(d & A64M_PTE_NG) || c->tlb_asid[s] == c->asid) &&
            (found < 0 || c->tlb_filled[s] < c->tlb_filled[found]))
            found = (int)s;
    }
    return found;
}

static uint64_t walk(struct a64_model *m, struct a64m_cpu *c, uint32_t page)
{
    uint64_t d = m->table[page];
    if (usable(c, page) < 0 && (d & A64M_PTE_VALID) == A64M_PTE_VALID) {
        uint32_t s = SLOT(page, 0);
        for (uint32_t w = 0; w < A64M_WAYS && c->tlb[s]; w++)
            if (!c->tlb[SLOT(page, w)] || c->tlb_filled[SLOT(page, w)] < c->tlb_filled[s])
                s = SLOT(page, w);
        c->tlb[s] = d;
        c->tlb_asid[s] = c->asid;
        c->tlb_filled[s] = ++c->fill_clock;
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

static void drop(struct a64m_cpu *c, uint32_t slot)
{
    if (c->tlb[slot]) {
        c->tlb[slot] = 0;
        c->n.dropped++;
    }
}

/* A by-VA invalidation of `asid` matches an entry global, or non-global and filled under it. */
static bool va_matches(const struct a64m_cpu *c, uint32_t slot, uint16_t asid)
{
    return !(c->tlb[slot] & A64M_PTE_NG) || c->tlb_asid[slot] == asid;
}

/* One pending invalidation, complete on CPU c now: drop what it matches. */
static void apply(struct a64_model *m, struct a64m_cpu *c, const struct a64m_pend *p)
{
    switch (p->what) {
    case A64M_BY_VA:
        for (uint32_t s = SLOT(p->first, 0); s < SLOT(p->first + p->count, 0); s++)
            if (va_matches(c, s, p->asid))
                drop(c, s);
        break;
    case A64M_ALL:
        for (uint32_t s = 0; s < SLOT(m->pages, 0); s++)
            drop(c, s);
        break;
    case A64M_BY_ASID: /* its non-global entries only: global ones stay */
        for (uint32_t s = 0; s < SLOT(m->pages, 0); s++)
            if ((c->tlb[s] & A64M_PTE_NG) && c->tlb_asid[s] == p->asid)
                drop(c, s);
        break;
    }
}

/*
 * The issuer's DSB on CPU c: the invalidations of `issuer` pending here whose
 * scope this DSB completes (`scopes`, bit per enum a64m_scope) take effect
 * and leave the list; the others stay pending, in order.
 */
static void complete(struct a64_model *m, struct a64m_cpu *c, uint32_t issuer, unsigned scopes)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < c->npend; i++) {
        const struct a64m_pend *p = &c->pend[i];
        if (p->issuer == issuer && (scopes & (1u << p->scope)))
            apply(m, c, p);
        else
            c->pend[k++] = *p;
    }
    c->npend = k;
}

/* Stores made visible to every walk, oldest first (a later store to a page wins). */
static void drain_stores(struct a64_model *m, struct a64m_cpu *c)
{
    for (uint32_t k = 0; k < c->nsb; k++)
        m->table[c->sb[k].page] = c->sb[k].value;
    c->nsb = 0;
}

/* `p` pending on CPU `on` (issued by p->issuer), until the issuer's DSB of its scope. */
static void queue(struct a64_model *m, uint32_t on, const struct a64m_pend *p)
{
    struct a64m_cpu *c = &m->cpu[on];
    if (c->npend == c->pend_cap) {
        uint32_t cap = c->pend_cap ? 2 * c->pend_cap : 64;
        struct a64m_pend *grown = cap <= A64M_MAX_PEND ? realloc(c->pend, cap * sizeof(*grown)) : NULL;
        if (!grown) {
            violation(m, p->issuer, "more than %u invalidations pending on CPU %u", c->pend_cap, on);
            return;
        }
        c->pend = grown;
        c->pend_cap = cap;
    }
    c->pend[c->npend++] = *p;
}

/* pending on the issuer only (a local TLBI) or on every CPU (a broadcast one) */
static void post(struct a64_model *m, const struct a64m_pend *p)
{
    if (p->scope == A64M_LOCAL)
        queue(m, p->issuer, p);
    else
        for (uint32_t j = 0; j < m->ncpus; j++)
            queue(m, j, p);
    /* the ring keeps the last A64M_RECENT: for a range, its last pages */
    if (p->what == A64M_BY_VA)
        for (uint32_t page = p->count > A64M_RECENT ? p->first + p->count - A64M_RECENT : p->first;
             page < p->first + p->count; page++)
            note_recent(&m->cpu[p->issuer], page);
}

/*
 * The operand fields (Arm ARM C5.5), decoded here from the architecture's
 * layouts on their own, never with asm/tlbi.h's encoders: a field both sides
 * placed wrongly in the same way would pass.
 */
#define OPND_ASID(x) ((uint16_t)((x) >> 48))             /* [63:48], every form */
#define OPND_VA_TTL(x) ((unsigned)((x) >> 44) & 0xfu)   /* by VA: [47:44] */
#define OPND_VA_PAGE(x) ((x) & ((1ull << 44) - 1))       /* by VA: VA[55:12] in [43:0] */
#define OPND_RANGE_TG(x) ((unsigned)((x) >> 46) & 3u)    /* range: [47:46], 0b01 = 4 KiB */
#define OPND_RANGE_SCALE(x) ((unsigned)((x) >> 44) & 3u) /* range: [45:44] */
#define OPND_RANGE_NUM(x) ((unsigned)((x) >> 39) & 31u)  /* range: [43:39] */
#define OPND_RANGE_TTL(x) ((unsigned)((x) >> 37) & 3u)   /* range: [38:37] */
#define OPND_RANGE_BASE(x) ((x) & ((1ull << 37) - 1))    /* range: VA[48:12] in [36:0] */

/* by VA: VA[55:12] from the field, VA[63:56] copies of VA[55] (TTBR1 addresses are all ones) */
static uint64_t decode_va(uint64_t operand)
{
    uint64_t va = OPND_VA_PAGE(operand) << A64M_PAGE_SHIFT;
    if (va & (1ull << 55))
        va |= 0xffull << 56;
    return va;
}

/*
 * TTL, by VA [47:44]: [3:2] the granule (0b00: no hint, [1:0] ignored; 0b01 4 KiB), [1:0] the
 * level; a range's [38:37] is the level alone (0: none), its granule TG's. Only no hint or
 * "4 KiB granule, level 3" (by VA 0b0111, range 0b11) names the model's entries (level-3
 * pages of the 4 KiB granule); any other value names entries the model does not hold, and
 * the TLBI need not touch a level-3 one: false, the entry stays.
 */
static bool ttl_reaches_level3(unsigned ttl, bool range)
{
    if (range)
        return ttl == 0 || ttl == 3;
    return (ttl >> 2) == 0 || ttl == ((1u << 2) | 3u);
}

/* The pages [first, first + count) of the region that `va` and `count` name, or a model error. */
static bool pages_of(struct a64_model *m, uint32_t c, uint64_t va, uint64_t count, uint32_t *first)
{
    uint32_t last;
    if (!page_of(m, c, va, first))
        return false;
    if (count > m->pages || !page_of(m, c, va + ((count - 1) << A64M_PAGE_SHIFT), &last)) {
        violation(m, c, "a range of %llu pages from 0x%llx past the test region",
                  (unsigned long long)count, (unsigned long long)va);
        return false;
    }
    return true;
}

/* With m->lock held: TLBI `op` by CPU ci, its operand decoded into what becomes pending. */
static void tlbi(struct a64_model *m, uint32_t ci, enum tlbi_op op, uint64_t operand)
{
    struct a64m_cpu *c = &m->cpu[ci];
    struct a64m_pend p = { .issuer = ci, .scope = A64M_INNER, .what = A64M_BY_VA,
                           .asid = OPND_ASID(operand), .count = 1 };
    uint64_t pages;
    unsigned ttl = 0; /* the level hint of a by-VA or range operand; 0: none */
    bool range = false;
    switch (op) {
    case TLBI_VALE1IS:
        /* the leaf form: the model holds leaf entries only, so it drops what VAE1IS drops */
        if (operand == 0) { /* XZR: Linux's repeat-TLBI dummy, naming nothing of the region */
            c->n.tlbi_dummy++;
            return;
        }
        /* fall through */
    case TLBI_VAE1IS:
    case TLBI_VAE1:
    case TLBI_VAE1OS:
        if (op == TLBI_VAE1IS || op == TLBI_VALE1IS)
            c->n.tlbi_is++;
        else if (op == TLBI_VAE1)
            c->n.tlbi_local++;
        else
            c->n.tlbi_os++;
        p.scope = op == TLBI_VAE1 ? A64M_LOCAL : op == TLBI_VAE1OS ? A64M_OUTER : A64M_INNER;
        if (!page_of(m, ci, decode_va(operand), &p.first))
            return;
        ttl = OPND_VA_TTL(operand);
        break;
    case TLBI_RVAE1IS:
    case TLBI_RVALE1IS:
        c->n.tlbi_range++;
        range = true;
        if (OPND_RANGE_TG(operand) != 1) {
            violation(m, ci, "TLBI R%sE1IS with TG %u (the tool's granule is 4 KiB, TG 0b01)",
                      op == TLBI_RVALE1IS ? "VAL" : "VA", OPND_RANGE_TG(operand));
            return;
        }
        pages = (uint64_t)(OPND_RANGE_NUM(operand) + 1) << (5 * OPND_RANGE_SCALE(operand) + 1);
        if (!pages_of(m, ci, OPND_RANGE_BASE(operand) << A64M_PAGE_SHIFT, pages, &p.first))
            return;
        p.count = (uint32_t)pages;
        ttl = OPND_RANGE_TTL(operand);
        break;
    case TLBI_VMALLE1IS:
        c->n.tlbi_all++;
        p.what = A64M_ALL;
        break;
    case TLBI_ASIDE1IS:
        c->n.tlbi_asid++;
        if (operand & ((1ull << 48) - 1)) {
            violation(m, ci, "TLBI ASIDE1IS operand 0x%llx sets RES0 bits [47:0]",
                      (unsigned long long)operand);
            return;
        }
        p.what = A64M_BY_ASID;
        break;
    default:
        violation(m, ci, "TLBI operation %d unknown to the model", (int)op);
        return;
    }
    if (!ttl_reaches_level3(ttl, range)) {
        c->n.tlbi_ttl_elsewhere++;
        return;
    }
    post(m, &p);
}

/* ---- the instructions ---- */

/* A read by CPU ci; a translation fault is a model error unless `faulted` takes it (the
 * harness's recoverable abort, a64m_read_recoverable). */
static uint64_t read_va(struct a64_model *m, uint32_t ci, uint64_t va, bool *faulted)
{
    struct a64m_cpu *c = &m->cpu[ci];
    uint32_t page;
    uint64_t d, value = 0;
    pthread_mutex_lock(&m->lock);
    speculate(m, ci);
    c->n.reads++;
    if (page_of(m, ci, va, &page)) {
        int s = usable(c, page);
        d = s >= 0 ? c->tlb[s] : 0;
        if (d)
            c->n.hits++;
        else {
            d = walk(m, c, page);
            c->n.walks++;
        }
        if ((d & A64M_PTE_VALID) != A64M_PTE_VALID || (d >> A64M_PAGE_SHIFT) >= m->frames) {
            c->n.faults++;
            if (faulted && (d & A64M_PTE_VALID) != A64M_PTE_VALID)
                *faulted = true;
            else
                violation(m, ci, "translation fault at 0x%llx (descriptor 0x%llx)",
                          (unsigned long long)va, (unsigned long long)d);
        } else
            value = m->tags[d >> A64M_PAGE_SHIFT];
    }
    speculate(m, ci);
    pthread_mutex_unlock(&m->lock);
    return value;
}

uint64_t a64m_read(struct a64_model *m, uint32_t ci, uint64_t va)
{
    /* a translation fault here: the harness counts it as a wrong read */
    return read_va(m, ci, va, NULL);
}

uint64_t a64m_read_recoverable(struct a64_model *m, uint32_t ci, uint64_t va, bool *faulted)
{
    *faulted = false;
    return read_va(m, ci, va, faulted);
}

void a64m_pte_store(struct a64_model *m, uint32_t ci, volatile uint64_t *pte, uint64_t value)
{
    struct a64m_cpu *c = &m->cpu[ci];
    uintptr_t at = (uintptr_t)pte, base = (uintptr_t)m->table;
    uint32_t page;
    char why[sizeof(m->violation[0])];
    pthread_mutex_lock(&m->lock);
    c->n.pte_stores++;
    if (at < base || (at - base) % sizeof(uint64_t) || (at - base) / sizeof(uint64_t) >= m->pages) {
        violation(m, ci, "descriptor store outside the test region's table");
        pthread_mutex_unlock(&m->lock);
        return;
    }
    page = (uint32_t)((at - base) / sizeof(uint64_t));
    if (a64m_bbm_breach(m, ci, page, value, why, sizeof(why))) /* tlbi_model_bbm.c */
        violation(m, ci, "%s", why);
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

void a64m_tlbi(struct a64_model *m, uint32_t ci, enum tlbi_op op, uint64_t operand)
{
    pthread_mutex_lock(&m->lock);
    tlbi(m, ci, op, operand);
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
    if (what & DSB_BROADCAST) {
        /* the issuer's broadcast TLBIs complete on every CPU (and its local ones here) */
        unsigned scopes = 1u << A64M_INNER | 1u << A64M_LOCAL | ((what & DSB_OUTER) ? 1u << A64M_OUTER : 0);
        for (uint32_t j = 0; j < m->ncpus; j++)
            complete(m, &m->cpu[j], ci, scopes);
    } else if (what & DSB_LOCAL)
        complete(m, c, ci, 1u << A64M_LOCAL);
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
    uint64_t d = 0;
    int s;
    pthread_mutex_lock(&m->lock);
    if (page < m->pages && (s = usable(&m->cpu[ci], page)) >= 0)
        d = m->cpu[ci].tlb[s];
    pthread_mutex_unlock(&m->lock);
    return d;
}

uint32_t a64m_pending(struct a64_model *m, uint32_t ci)
{
    uint32_t n;
    pthread_mutex_lock(&m->lock);
    n = m->cpu[ci].npend;
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
