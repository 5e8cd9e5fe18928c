/*
 * The strict aarch64 model's TLBs (tlbi_model.h): the seeded randomness,
 * each CPU's entries, what a walk fills and what an invalidation drops where
 * it takes effect. Every function runs with m->lock held.
 */
#include "sim/arm64/tlbi_model_int.h"

uint64_t a64m_rng_next(uint64_t *s) /* xorshift64* */
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545f4914f6cdd1dull;
}

bool a64m_chance(struct a64m_cpu *c, uint32_t per_65536)
{
    return (a64m_rng_next(&c->rng) & 0xffff) < per_65536;
}

void a64m_note_recent(struct a64m_cpu *c, uint32_t page)
{
    c->recent[c->recent_next] = page;
    c->recent_next = (c->recent_next + 1) % A64M_RECENT;
    if (c->nrecent < A64M_RECENT)
        c->nrecent++;
}

/*
 * A walk: what the visible tables hold for page (tlbi_model_walk.c: through
 * the walk cache, a block's page marked as such). It fills only a page this
 * CPU holds no usable entry for: a TLB may keep an old entry beside a new
 * one and use either (the worst: the old one), so a walk never replaces an
 * entry this CPU can use; an invalid descriptor fills nothing. A non-global
 * entry of another ASID is not usable here; it stays beside the new one
 * while the page has a free way (KPTI's two ASIDs), else the one filled
 * longest ago makes room.
 */
#define SLOT(page, way) ((page) * A64M_WAYS + (way))

/* The slot of page's entry usable under this CPU's ASID (of two, the older: the worst), or -1. */
int a64m_usable(const struct a64m_cpu *c, uint32_t page)
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

uint64_t a64m_walk(struct a64_model *m, struct a64m_cpu *c, uint32_t page)
{
    uint64_t d = a64m_walk_leaf(m, c, page);
    if (a64m_usable(c, page) < 0 && (d & A64M_PTE_VALID) == A64M_PTE_VALID) {
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

/* The tag of an invalidation in unconfirmed_by: its issuer and its scope (what DSB completes it). */
static uint32_t pend_tag(const struct a64m_pend *p) { return p->issuer << 2 | p->scope; }

/*
 * An entry dropped where p takes effect: until p's issuer's DSB completes it, nothing the
 * issuer can observe says it took effect ("Ordering and completion of TLB maintenance
 * instructions": only the DSB guarantees it), so break-before-make counts the entry as held
 * (a64m_bbm_breach) until a64m_confirm.
 */
static void drop(struct a64m_cpu *c, uint32_t slot, const struct a64m_pend *p)
{
    if (c->tlb[slot]) {
        if (!c->unconfirmed[slot])
            c->nunconfirmed++;
        c->unconfirmed[slot] = c->tlb[slot];
        c->unconfirmed_by[slot] = (uint32_t)c->tlb_asid[slot] << 16 | pend_tag(p);
        c->tlb[slot] = 0;
        c->n.dropped++;
    }
}

void a64m_confirm(struct a64_model *m, struct a64m_cpu *c, const struct a64m_pend *p)
{
    uint32_t first = p->what == A64M_BY_VA ? p->first : 0, count = p->what == A64M_BY_VA ? p->count : m->pages;
    for (uint32_t s = SLOT(first, 0); c->nunconfirmed && s < SLOT(first + count, 0); s++)
        if (c->unconfirmed[s] && (c->unconfirmed_by[s] & 0xffffu) == pend_tag(p)) {
            c->unconfirmed[s] = 0;
            c->nunconfirmed--;
        }
}

/* A by-VA invalidation of `asid` matches an entry global, or non-global and filled under it. */
static bool va_matches(const struct a64m_cpu *c, uint32_t slot, uint16_t asid)
{
    return !(c->tlb[slot] & A64M_PTE_NG) || c->tlb_asid[slot] == asid;
}

/* the level of an entry's leaf: a page's, or a block's (A64M_TLB_BLOCK) */
static unsigned entry_level(uint64_t d) { return d & A64M_TLB_BLOCK ? A64M_LEVEL_2 : A64M_LEVEL_3; }

/* One invalidation, taking effect on CPU c now: drop what it matches. */
void a64m_apply(struct a64_model *m, struct a64m_cpu *c, const struct a64m_pend *p)
{
    a64m_drop_walks(m, c, p);
    switch (p->what) {
    case A64M_BY_VA:
        for (uint32_t s = SLOT(p->first, 0); s < SLOT(p->first + p->count, 0); s++)
            if (va_matches(c, s, p->asid) && (p->levels & entry_level(c->tlb[s])))
                drop(c, s, p);
        break;
    case A64M_ALL:
        for (uint32_t s = 0; s < SLOT(m->pages, 0); s++)
            drop(c, s, p);
        break;
    case A64M_BY_ASID: /* its non-global entries only: global ones stay */
        for (uint32_t s = 0; s < SLOT(m->pages, 0); s++)
            if ((c->tlb[s] & A64M_PTE_NG) && c->tlb_asid[s] == p->asid)
                drop(c, s, p);
        break;
    }
}
