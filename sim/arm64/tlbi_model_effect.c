/*
 * When a TLBI takes effect on each CPU it reaches (tlbi_model.h): at a moment
 * of its own per CPU, drawn at issue from the seeded randomness, between the
 * issue and the issuer's completing DSB. The Arm ARM orders a TLBI after a
 * descriptor store only by a DSB between them; so where one takes effect
 * before its store is visible ("store, TLBI, DSB ISH", or "TLBI, store"), a
 * walk there finds the old descriptor and the entry it fills outlives the
 * DSB. The model walks those pages there (chance pte_fill_per_65536 each),
 * and speculation comes back to them.
 */
#include "sim/arm64/tlbi_model_int.h"

uint64_t a64m_draw_due(struct a64_model *m, struct a64m_cpu *issuer)
{
    if (!a64m_chance(issuer, m->cfg.early_per_65536))
        return A64M_AT_DSB;
    return m->step + a64m_rng_next(&issuer->rng) % A64M_EFFECT_WINDOW;
}

static bool covers(const struct a64m_pend *p, uint32_t page)
{
    return p->what != A64M_BY_VA || (page >= p->first && page - p->first < p->count);
}

void a64m_take_effect(struct a64_model *m, uint32_t on, struct a64m_pend *p)
{
    struct a64m_cpu *c = &m->cpu[on];
    const struct a64m_cpu *is = &m->cpu[p->issuer];
    a64m_apply(m, c, p);
    p->done = 1;
    if (p->what == A64M_BY_VA) /* speculation here prefers them from now on (a range: its last) */
        for (uint32_t page = p->count > A64M_RECENT ? p->first + p->count - A64M_RECENT : p->first;
             page < p->first + p->count; page++)
            a64m_note_recent(c, page);
    /* the issuer's stores not yet visible: a walk here finds what they replace */
    for (uint32_t k = 0; k < is->nsb; k++) {
        uint32_t page;
        if (!a64m_slot_page(m, is->sb[k].page, a64m_rng_next(&c->rng), &page) || !covers(p, page) ||
            !a64m_chance(c, m->cfg.pte_fill_per_65536))
            continue;
        a64m_walk(m, c, page);
        c->n.unordered_fills++;
    }
}

/* on's earliest due step, from early_from on (which skips what is done or due at its DSB) */
static uint64_t next_due(struct a64m_cpu *c)
{
    uint64_t next = A64M_AT_DSB;
    while (c->early_from < c->npend &&
           (c->pend[c->early_from].done || c->pend[c->early_from].due == A64M_AT_DSB))
        c->early_from++;
    for (uint32_t i = c->early_from; i < c->npend; i++)
        if (!c->pend[i].done && c->pend[i].due < next)
            next = c->pend[i].due;
    return next;
}

void a64m_run_due(struct a64_model *m)
{
    uint64_t next = A64M_AT_DSB;
    if (m->step < m->next_due)
        return;
    for (uint32_t j = 0; j < m->ncpus; j++) {
        struct a64m_cpu *c = &m->cpu[j];
        if (c->next_due <= m->step) {
            for (uint32_t i = c->early_from; i < c->npend; i++)
                if (!c->pend[i].done && c->pend[i].due <= m->step) {
                    a64m_take_effect(m, j, &c->pend[i]);
                    c->n.early++;
                }
            c->next_due = next_due(c);
        }
        if (c->next_due < next)
            next = c->next_due;
    }
    m->next_due = next;
}

void a64m_effect_queued(struct a64_model *m, uint32_t on, uint64_t due)
{
    if (due < m->cpu[on].next_due)
        m->cpu[on].next_due = due;
    if (due < m->next_due)
        m->next_due = due;
}

void a64m_effects_rescan(struct a64_model *m, uint32_t on)
{
    struct a64m_cpu *c = &m->cpu[on];
    c->early_from = 0;
    c->next_due = next_due(c);
    if (c->next_due < m->next_due)
        m->next_due = c->next_due;
}
