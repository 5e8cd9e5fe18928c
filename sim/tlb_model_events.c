/*
 * What happens around each modelled instruction (sim/tlb_model.h): an
 * INVLPGB travelling to the other CPUs and landing when due, the walks a CPU
 * may make speculatively before and after every instruction, the begin and
 * end of an instruction in the event log, the clock tick, stores to live
 * page-table entries and loads through the TLB.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "asm/cpu.h"
#include "asm/paging.h"
#include "sim/tlb_model_parts.h"

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
        return tm_list_hits(tm_span_base(e), page_bytes[e->span], op->rax & ~0xfffull,
                            invlpgb_stride(op), invlpgb_count(op));
    return true;
}

void tm_apply_invlpgb(struct tlb_model *m, struct tlbm_cpu *c, const struct tlbm_pending *p)
{
    struct invlpgb_match op = { p->rax, p->ecx, p->edx,
                                (m->cfg.errata & TLBM_ERR_INVLPGB_IGNORES_COUNT) != 0 };
    bool va_valid = p->rax & 1, final_only = p->rax & 0x10, asid_valid = p->rax & 4;
    tm_drop_matching(m, c, invlpgb_hits, &op);
    if (va_valid)
        tm_note_recent(c, p->rax & ~0xfffull);
    /* APM: without final-only the page-walk cache entries go as well */
    if (!final_only && !(asid_valid && (p->edx & 0xffff) != 0) &&
        !tm_psc_drop_all_without_tce(m, c)) {
        struct psc_arg a = { (p->edx >> 16) & 0xfff, !(p->rax & 2), va_valid,
                             p->rax & ~0xfffull, invlpgb_stride(&op), invlpgb_count(&op) };
        tm_psc_drop(c, tm_psc_hits, &a);
    }
}

/* Lands pending INVLPGBs that are due (or all from `issuer`, for TLBSYNC). Caller holds the lock. */
void tm_land_pending(struct tlb_model *m, struct tlbm_cpu *c, uint32_t issuer, bool all_of_issuer)
{
    uint32_t i, kept = 0;
    for (i = 0; i < c->queued; i++) {
        struct tlbm_pending *p = &c->queue[i];
        if ((all_of_issuer && p->issuer == issuer) || p->due <= c->events)
            tm_apply_invlpgb(m, c, p);
        else
            c->queue[kept++] = *p;
    }
    c->queued = kept;
}

/* ---- model events ---- */

/*
 * Bits 63:47 (63:56 with LA57) all equal, or the access is #GP before any
 * tm_walk (SDM vol. 1, 3.3.7.1). The walk indexes only bits 47:12 (56:12), so
 * without this a non-canonical load would alias a mapped page.
 */
bool tm_canonical_for(const struct tlbm_cpu *c, uint64_t va)
{
    unsigned unused = (c->cr4 & CR4_LA57) ? 7 : 16;
    return ((int64_t)(va << unused) >> unused) == (int64_t)va;
}

/* A speculative walk of va: cached unless held already or not mapped (no fault). */
static bool speculative_fill(struct tlb_model *m, struct tlbm_cpu *c, uint64_t va)
{
    struct tlbm_entry e;
    /* a present translation is not walked again */
    if (!tm_canonical_for(c, va) || tm_lookup(m, c, va) || !tm_walk(m, c, va, &e))
        return false;
    tm_insert(m, c, &e);
    c->n.spec_fills++;
    return true;
}

void tm_speculate(struct tlb_model *m, struct tlbm_cpu *c)
{
    uint64_t va;
    /* no draw at all when off: a test without speculation keeps its random stream */
    if (!m->cfg.spec_per_65536 || tm_random_below(&c->rng, 65536) >= m->cfg.spec_per_65536)
        return;
    if (c->nrecent && (!m->nspec || tm_random_below(&c->rng, 2) == 0)) {
        va = c->recent[tm_random_below(&c->rng, c->nrecent)];
    } else if (m->nspec) {
        const struct tlbm_range *r = &m->spec[tm_random_below(&c->rng, m->nspec)];
        va = r->va + tm_random_below(&c->rng, r->pages) * r->page_size;
        /* any 4 KiB part of a large page: a splintered fill is of the part touched */
        va += tm_random_below(&c->rng, r->page_size / PAGE_4K) * PAGE_4K;
    } else {
        return;
    }
    speculative_fill(m, c, va);
}

/* Every instruction the model sees is an event: time passes for this CPU. Lock held. */
void tm_event(struct tlb_model *m, struct tlbm_cpu *c)
{
    c->events++;
    if (c->queued)
        tm_land_pending(m, c, 0, false);
    tm_speculate(m, c);
}

/* An instruction starts: time passes for its CPU and the log records it. Returns holding the lock. */
void tm_begin(struct tlb_model *m, struct tlbm_cpu *c, uint32_t kind, uint64_t a, uint64_t b,
              uint64_t cc)
{
    pthread_mutex_lock(&c->lock);
    tm_event(m, c);
    tm_log_event(m, c, kind, a, b, cc);
}

/* The instruction has acted: the CPU may speculate again before the next one. Releases the lock. */
void tm_end(struct tlb_model *m, struct tlbm_cpu *c)
{
    if (m->cfg.spec_after)
        tm_speculate(m, c);
    pthread_mutex_unlock(&c->lock);
}

void tlbm_tick(struct tlb_model *m, uint32_t ci)
{
    struct tlbm_cpu *c = m->cpu[ci];
    pthread_mutex_lock(&c->lock);
    tm_event(m, c);
    pthread_mutex_unlock(&c->lock);
}

void tlbm_pte_store(struct tlb_model *m, uint32_t ci, uint64_t *entry, uint64_t value, uint64_t va)
{
    struct tlbm_cpu *c = m->cpu[ci];
    tm_begin(m, c, TLBM_EV_PTE, va, value, 0);
    c->n.pte_stores++;
    /* the translation the store is about to replace, cached just before it */
    if (m->cfg.pte_spec_per_65536 && tm_random_below(&c->rng, 65536) < m->cfg.pte_spec_per_65536 &&
        speculative_fill(m, c, va))
        c->n.pte_fills++;
    tm_note_recent(c, va);
    __atomic_store_n(entry, value, __ATOMIC_RELEASE);
    tm_end(m, c);
}

bool tlbm_read64(struct tlb_model *m, uint32_t ci, uint64_t va, uint64_t *value)
{
    struct tlbm_cpu *c = m->cpu[ci];
    struct tlbm_entry *e, fresh;
    uint64_t pa;
    pthread_mutex_lock(&c->lock);
    tm_event(m, c);
    c->n.reads++;
    if (!tm_canonical_for(c, va)) {
        pthread_mutex_unlock(&c->lock);
        tlbm_violation(m, ci, "#GP: read of non-canonical address 0x%llx", (unsigned long long)va);
        *value = 0;
        return false;
    }
    e = tm_lookup(m, c, va);
    if (!e) {
        if (!tm_walk(m, c, va, &fresh)) {
            pthread_mutex_unlock(&c->lock);
            tlbm_violation(m, ci, "#PF: read of 0x%llx, not mapped by CR3 0x%llx",
                           (unsigned long long)va, (unsigned long long)c->cr3);
            *value = 0;
            return false;
        }
        tm_insert(m, c, &fresh);
        c->n.misses++;
        e = &fresh;
    }
    pa = e->pa + (va - e->va);
    tm_end(m, c);
    /* the frame may be rewritten by the initiator at the same time */
    *value = __atomic_load_n((const uint64_t *)(uintptr_t)pa, __ATOMIC_ACQUIRE);
    return true;
}
