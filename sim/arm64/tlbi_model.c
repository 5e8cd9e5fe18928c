/* The strict aarch64 TLB model: see tlbi_model.h for the rules and where they come from. */
#include "sim/arm64/tlbi_model_int.h"

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
    cfg->early_per_65536 = 49152;    /* three CPUs in four see a TLBI before its DSB */
}

bool a64m_init(struct a64_model *m, const struct a64m_config *cfg, uint32_t ncpus,
               uint32_t pages, uint32_t frames, uint64_t va_base)
{
    uint32_t i;
    memset(m, 0, sizeof(*m));
    if (ncpus == 0 || ncpus > A64M_MAX_CPUS || pages == 0 || pages > A64M_MAX_PAGES || frames == 0)
        return false;
    m->cfg = *cfg;
    m->el = 1;
    m->ncpus = ncpus;
    m->pages = pages;
    m->frames = frames;
    m->blocks = (pages + A64M_L3_ENTRIES - 1) / A64M_L3_ENTRIES;
    m->slots = pages + m->blocks + A64M_SPARE_TABLES * A64M_L3_ENTRIES;
    m->va_base = va_base;
    m->next_due = A64M_AT_DSB;
    pthread_mutex_init(&m->lock, NULL);
    m->table = calloc(m->slots, sizeof(*m->table));
    m->tags = calloc(frames, sizeof(*m->tags));
    if (!m->table || !m->tags)
        return false;
    for (i = 0; i < frames; i++)
        m->tags[i] = a64m_tag(i);
    for (i = 0; i < m->blocks; i++) /* block b through the region's table b */
        *a64m_l2_ptr(m, i) = a64m_table_desc(i);
    for (i = 0; i < ncpus; i++) {
        struct a64m_cpu *c = &m->cpu[i];
        c->tlb = calloc((size_t)pages * A64M_WAYS, sizeof(*c->tlb));
        c->tlb_asid = calloc((size_t)pages * A64M_WAYS, sizeof(*c->tlb_asid));
        c->tlb_filled = calloc((size_t)pages * A64M_WAYS, sizeof(*c->tlb_filled));
        c->unconfirmed = calloc((size_t)pages * A64M_WAYS, sizeof(*c->unconfirmed));
        c->unconfirmed_by = calloc((size_t)pages * A64M_WAYS, sizeof(*c->unconfirmed_by));
        c->walk = calloc(m->blocks, sizeof(*c->walk));
        if (!c->tlb || !c->tlb_asid || !c->tlb_filled || !c->unconfirmed || !c->unconfirmed_by || !c->walk)
            return false;
        c->next_due = A64M_AT_DSB;
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
        free(m->cpu[i].unconfirmed);
        free(m->cpu[i].unconfirmed_by);
        free(m->cpu[i].walk);
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
        a64m_violation(m, c, "address 0x%llx outside the test region", (unsigned long long)va);
        return false;
    }
    *page = (uint32_t)(off >> A64M_PAGE_SHIFT);
    return true;
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
    if (!a64m_chance(c, m->cfg.spec_per_65536))
        return;
    if (c->nrecent && (a64m_rng_next(&c->rng) & 1))
        page = c->recent[a64m_rng_next(&c->rng) % c->nrecent];
    else
        page = (uint32_t)(a64m_rng_next(&c->rng) % m->pages);
    a64m_walk(m, c, page);
    c->n.spec_walks++;
}

/*
 * The issuer's DSB on CPU j: the invalidations of `issuer` pending there
 * whose scope this DSB completes (`scopes`, bit per enum a64m_scope) take
 * effect if they have not yet and leave the list; the others stay pending,
 * in order.
 */
static void complete(struct a64_model *m, uint32_t j, uint32_t issuer, unsigned scopes)
{
    struct a64m_cpu *c = &m->cpu[j];
    uint32_t k = 0;
    for (uint32_t i = 0; i < c->npend; i++) {
        struct a64m_pend *p = &c->pend[i];
        if (p->issuer == issuer && (scopes & (1u << p->scope))) {
            if (!p->done)
                a64m_take_effect(m, j, p);
            a64m_confirm(m, c, p);
        } else {
            c->pend[k++] = *p;
        }
    }
    c->npend = k;
    a64m_effects_rescan(m, j);
}

/* Stores made visible to every walk, oldest first (a later store to a page wins). */
static void drain_stores(struct a64_model *m, struct a64m_cpu *c)
{
    for (uint32_t k = 0; k < c->nsb; k++)
        m->table[c->sb[k].page] = c->sb[k].value;
    c->nsb = 0;
}

/* `p` pending on CPU `on` (issued by p->issuer), until the issuer's DSB of its scope; it takes
 * effect there at a moment of its own */
static void queue(struct a64_model *m, uint32_t on, struct a64m_pend p)
{
    struct a64m_cpu *c = &m->cpu[on];
    if (c->npend == c->pend_cap) {
        uint32_t cap = c->pend_cap ? 2 * c->pend_cap : 64;
        struct a64m_pend *grown = cap <= A64M_MAX_PEND ? realloc(c->pend, cap * sizeof(*grown)) : NULL;
        if (!grown) {
            a64m_violation(m, p.issuer, "more than %u invalidations pending on CPU %u", c->pend_cap, on);
            return;
        }
        c->pend = grown;
        c->pend_cap = cap;
    }
    p.due = a64m_draw_due(m, &m->cpu[p.issuer]);
    c->pend[c->npend++] = p;
    a64m_effect_queued(m, on, p.due);
}

/* pending on the issuer only (a local TLBI) or on every CPU (a broadcast one) */
static void post(struct a64_model *m, const struct a64m_pend *p)
{
    if (p->scope == A64M_LOCAL)
        queue(m, p->issuer, *p);
    else
        for (uint32_t j = 0; j < m->ncpus; j++)
            queue(m, j, *p);
    /* the ring keeps the last A64M_RECENT: for a range, its last pages */
    if (p->what == A64M_BY_VA)
        for (uint32_t page = p->count > A64M_RECENT ? p->first + p->count - A64M_RECENT : p->first;
             page < p->first + p->count; page++)
            a64m_note_recent(&m->cpu[p->issuer], page);
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


/* The pages [first, first + count) of the region that `va` and `count` name, or a model error. */
static bool pages_of(struct a64_model *m, uint32_t c, uint64_t va, uint64_t count, uint32_t *first)
{
    uint32_t last;
    if (!page_of(m, c, va, first))
        return false;
    if (count > m->pages || !page_of(m, c, va + ((count - 1) << A64M_PAGE_SHIFT), &last)) {
        a64m_violation(m, c, "a range of %llu pages from 0x%llx past the test region",
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
                           .asid = OPND_ASID(operand), .levels = A64M_LEVELS_ALL, .count = 1 };
    uint64_t pages;
    switch (op) {
    case TLBI_VALE1IS:
        /* the leaf form: leaf entries only, never the walk cache's (below) */
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
        p.levels = (uint8_t)a64m_ttl_levels(OPND_VA_TTL(operand));
        break;
    case TLBI_RVAE1IS:
    case TLBI_RVALE1IS:
        c->n.tlbi_range++;
        if (OPND_RANGE_TG(operand) != 1) {
            a64m_violation(m, ci, "TLBI R%sE1IS with TG %u (the tool's granule is 4 KiB, TG 0b01)",
                      op == TLBI_RVALE1IS ? "VAL" : "VA", OPND_RANGE_TG(operand));
            return;
        }
        pages = (uint64_t)(OPND_RANGE_NUM(operand) + 1) << (5 * OPND_RANGE_SCALE(operand) + 1);
        if (!pages_of(m, ci, OPND_RANGE_BASE(operand) << A64M_PAGE_SHIFT, pages, &p.first))
            return;
        p.count = (uint32_t)pages;
        p.levels = (uint8_t)a64m_range_ttl_levels(OPND_RANGE_TTL(operand));
        break;
    case TLBI_VMALLE1IS:
        c->n.tlbi_all++;
        p.what = A64M_ALL;
        break;
    case TLBI_ASIDE1IS:
        c->n.tlbi_asid++;
        if (operand & ((1ull << 48) - 1)) {
            a64m_violation(m, ci, "TLBI ASIDE1IS operand 0x%llx sets RES0 bits [47:0]",
                      (unsigned long long)operand);
            return;
        }
        p.what = A64M_BY_ASID;
        break;
    case TLBI_IPAS2E1IS:
    case TLBI_VMALLE1IS_VMID:
        a64m_s2_tlbi(m, ci, op, operand); /* nothing of what the model holds goes */
        return;
    default:
        a64m_violation(m, ci, "TLBI operation %d unknown to the model", (int)op);
        return;
    }
    if (op == TLBI_VALE1IS || op == TLBI_RVALE1IS) /* last level: what the walk cache holds stays */
        p.levels &= (uint8_t)~A64M_LEVEL_WALK;
    if (!p.levels) { /* a TTL naming entries the model never holds: none need go */
        c->n.tlbi_ttl_elsewhere++;
        return;
    }
    post(m, &p);
}

/* ---- the instructions ---- */

/* Each is a model step: under the lock, the invalidations due by it take effect first. */
static void enter(struct a64_model *m)
{
    pthread_mutex_lock(&m->lock);
    a64m_step(m);
    a64m_run_due(m);
}

/* A read by CPU ci; a translation fault is a model error unless `faulted` takes it (the
 * harness's recoverable abort, a64m_read_recoverable). */
static uint64_t read_va(struct a64_model *m, uint32_t ci, uint64_t va, bool *faulted)
{
    struct a64m_cpu *c = &m->cpu[ci];
    uint32_t page;
    uint64_t d, value = 0;
    enter(m);
    speculate(m, ci);
    c->n.reads++;
    if (page_of(m, ci, va, &page)) {
        int s = a64m_usable(c, page);
        d = s >= 0 ? c->tlb[s] : 0;
        if (d)
            c->n.hits++;
        else {
            d = a64m_walk(m, c, page);
            c->n.walks++;
        }
        if ((d & A64M_PTE_VALID) != A64M_PTE_VALID || a64m_frame(d) >= m->frames) {
            c->n.faults++;
            if (faulted && (d & A64M_PTE_VALID) != A64M_PTE_VALID)
                *faulted = true;
            else
                a64m_violation(m, ci, "translation fault at 0x%llx (descriptor 0x%llx)",
                          (unsigned long long)va, (unsigned long long)d);
        } else
            value = m->tags[a64m_frame(d)];
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
    uint32_t slot, page;
    char why[sizeof(m->violation[0])];
    enter(m);
    c->n.pte_stores++;
    if (at < base || (at - base) % sizeof(uint64_t) || (at - base) / sizeof(uint64_t) >= m->slots) {
        a64m_violation(m, ci, "descriptor store outside the test region's tables");
        pthread_mutex_unlock(&m->lock);
        return;
    }
    slot = (uint32_t)((at - base) / sizeof(uint64_t));
    /* the others may have walked the old translation just before (worst case: they did) */
    for (uint32_t j = 0; j < m->ncpus; j++) {
        if (j != ci && a64m_chance(c, m->cfg.pte_fill_per_65536) &&
            a64m_slot_page(m, slot, a64m_rng_next(&c->rng), &page)) {
            a64m_walk(m, &m->cpu[j], page);
            c->n.pte_fills++;
        }
    }
    /* then break-before-make (tlbi_model_bbm.c), against what they may hold now */
    if (a64m_bbm_breach(m, ci, slot, value, why, sizeof(why)))
        a64m_violation(m, ci, "%s", why);
    if (c->nsb == A64M_STORE_BUFFER)
        drain_stores(m, c); /* a store completes on its own eventually */
    c->sb[c->nsb].page = slot;
    c->sb[c->nsb].value = value;
    c->nsb++;
    speculate(m, ci);
    pthread_mutex_unlock(&m->lock);
}

void a64m_tlbi(struct a64_model *m, uint32_t ci, enum tlbi_op op, uint64_t operand)
{
    enter(m);
    tlbi(m, ci, op, operand);
    a64m_run_due(m); /* what takes effect at its issue */
    speculate(m, ci);
    pthread_mutex_unlock(&m->lock);
}

void a64m_set_asid(struct a64_model *m, uint32_t ci, uint16_t asid)
{
    enter(m);
    m->cpu[ci].asid = asid;
    pthread_mutex_unlock(&m->lock);
}

/* What a DSB completes: DSB ISH the IS and local TLBIs, then the stores; DSB OSH the OS ones
 * too; DSB ISHST the stores; DSB NSH the local TLBIs. */
#define DSB_STORES 1u
#define DSB_BROADCAST 2u
#define DSB_LOCAL 4u
#define DSB_OUTER 8u

static void dsb(struct a64_model *m, uint32_t ci, uint64_t *count, unsigned what)
{
    struct a64m_cpu *c = &m->cpu[ci];
    enter(m);
    (*count)++;
    /* speculation before the barrier: a walk of the old table, dropped by what completes */
    speculate(m, ci);
    if (what & DSB_BROADCAST) {
        /* the issuer's broadcast TLBIs complete on every CPU (and its local ones here) */
        unsigned scopes = 1u << A64M_INNER | 1u << A64M_LOCAL | ((what & DSB_OUTER) ? 1u << A64M_OUTER : 0);
        for (uint32_t j = 0; j < m->ncpus; j++)
            complete(m, j, ci, scopes);
        a64m_s2_dsb(m, ci);
    } else if (what & DSB_LOCAL)
        complete(m, ci, ci, 1u << A64M_LOCAL);
    /* after them: a TLBI the stores were not ordered before may have taken effect first */
    if (what & DSB_STORES)
        drain_stores(m, c);
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
    enter(m);
    m->cpu[ci].n.isb++;
    a64m_s2_isb(m, ci);
    speculate(m, ci);
    pthread_mutex_unlock(&m->lock);
}

void a64m_tick(struct a64_model *m, uint32_t ci)
{
    enter(m);
    speculate(m, ci);
    pthread_mutex_unlock(&m->lock);
}

/* ---- inspection ---- */

uint64_t a64m_entry(struct a64_model *m, uint32_t ci, uint32_t page)
{
    uint64_t d = 0;
    int s;
    pthread_mutex_lock(&m->lock);
    if (page < m->pages && (s = a64m_usable(&m->cpu[ci], page)) >= 0)
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
