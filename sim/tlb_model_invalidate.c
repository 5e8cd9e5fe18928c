/*
 * The instructions that invalidate translations on the model (sim/tlb_model.h):
 * CR3, CR4 and EFER writes, INVLPG, INVPCID, INVLPGB (issued here, landing
 * through sim/tlb_model_events.c), TLBSYNC, and the IPIs noted in the log.
 * Each drops exactly what the architecture says it must, and no more.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "asm/cpu.h"
#include "asm/paging.h"
#include "sim/tlb_model_parts.h"

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
    tm_begin(m, c, TLBM_EV_CR3, value, 0, 0);
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
        tm_drop_matching(m, c, non_global, NULL);
        tm_psc_drop(c, NULL, NULL);
        c->n.full_flushes++;
    } else if (!(value & CR3_NOFLUSH)) {
        struct pcid_arg a = { (uint32_t)(value & CR3_PCID_MASK) };
        tm_drop_matching(m, c, non_global_of_pcid, &a);
        tm_psc_drop_pcid(c, a.pcid);
        c->n.full_flushes++;
    }
    tm_end(m, c);
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
    tm_event(m, c);
    c->efer = value;
    pthread_mutex_unlock(&c->lock);
}

void tlbm_write_cr4(struct tlb_model *m, uint32_t ci, uint64_t value)
{
    struct tlbm_cpu *c = m->cpu[ci];
    uint64_t old = c->cr4;
    tm_begin(m, c, TLBM_EV_CR4, value, 0, 0);
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
        tm_drop_matching(m, c, any_entry, NULL);
        tm_psc_drop(c, NULL, NULL);
        c->n.full_flushes++;
    }
    tm_end(m, c);
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
    if (!tm_covers(e, a->va))
        return false;
    return e->global ? a->globals_too : e->pcid == a->pcid;
}

static bool address_in_pcid(const struct tlbm_entry *e, const void *arg)
{
    const struct addr_arg *a = arg;
    return !e->global && e->pcid == a->pcid && tm_covers(e, a->va);
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
    tm_begin(m, c, TLBM_EV_INVLPG, va, 0, 0);
    a.va = va;
    a.pcid = tm_current_pcid(c);
    a.globals_too = !((m->cfg.errata & TLBM_ERR_INVLPG_IGNORES_GLOBAL) && (c->cr4 & CR4_PCIDE));
    tm_drop_matching(m, c, invlpg_hits, &a);
    if (!tm_psc_drop_all_without_tce(m, c))
        tm_psc_drop_address(c, a.pcid, va);
    if (tm_canonical_for(c, va))
        tm_note_recent(c, va);
    if (c->n.invlpg < sizeof(c->invlpg_log) / sizeof(c->invlpg_log[0]))
        c->invlpg_log[c->n.invlpg] = va;
    c->n.invlpg++;
    tm_end(m, c);
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
    else if (type == 0 && !tm_canonical_for(c, addr))
        fault = "#GP: INVPCID type 0 with a non-canonical address";
    if (fault) {
        tlbm_violation(m, ci, "%s (type %llu, PCID 0x%llx, address 0x%llx)", fault,
                       (unsigned long long)type, (unsigned long long)pcid,
                       (unsigned long long)addr);
        return;
    }
    tm_begin(m, c, TLBM_EV_INVPCID, type, pcid, addr);
    c->n.invpcid++;
    switch (type) {
    case 0: {
        struct addr_arg a = { addr, (uint32_t)pcid, false };
        tm_drop_matching(m, c, address_in_pcid, &a);
        if (!tm_psc_drop_all_without_tce(m, c))
            tm_psc_drop_address(c, (uint32_t)pcid, addr);
        tm_note_recent(c, addr);
        break;
    }
    case 1: {
        struct pcid_arg a = { (uint32_t)pcid };
        tm_drop_matching(m, c, non_global_of_pcid, &a);
        tm_psc_drop_pcid(c, a.pcid);
        c->n.full_flushes++;
        break;
    }
    case 2:
        tm_drop_matching(m, c, any_entry, NULL);
        tm_psc_drop(c, NULL, NULL);
        c->n.full_flushes++;
        break;
    default:
        /* paging-structure entries are never global: type 3 drops them all */
        tm_drop_matching(m, c, non_global, NULL);
        tm_psc_drop(c, NULL, NULL);
        c->n.full_flushes++;
        break;
    }
    tm_end(m, c);
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
    if ((rax & 1) && !tm_canonical_for(c, rax & ~0xfffull)) {
        tlbm_violation(m, ci, "#GP: INVLPGB with a non-canonical address (rAX 0x%llx)",
                       (unsigned long long)rax);
        return;
    }
    tm_begin(m, c, TLBM_EV_INVLPGB, rax, ecx, edx);
    c->n.invlpgb++;
    if (m->cfg.spec_after)
        tm_speculate(m, c);
    /*
     * tm_end(), the delays drawn first: the issuer's stream is guarded by its
     * own lock (a TLBSYNC elsewhere landing INVLPGBs on this CPU draws from
     * it in tm_drop_matching()), not by the targets' locks taken below.
     */
    for (i = 0; i < m->ncpus; i++)
        delay[i] = tm_random_below(&c->rng, m->cfg.invlpgb_max_delay + 1);
    pthread_mutex_unlock(&c->lock);
    /* broadcast: every CPU, the issuer too, gets it at a moment of its own */
    for (i = 0; i < m->ncpus; i++) {
        struct tlbm_cpu *t = m->cpu[i];
        struct tlbm_pending p = { ci, 0, rax, ecx, edx };
        pthread_mutex_lock(&t->lock);
        p.due = t->events + 1 + delay[i];
        if (t->queued == TLBM_QUEUE) {
            /* a full queue drains its oldest entry: hardware has finite buffers */
            tm_apply_invlpgb(m, t, &t->queue[0]);
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
    tm_begin(m, c, TLBM_EV_TLBSYNC, 0, 0, 0);
    c->n.tlbsync++;
    pthread_mutex_unlock(&c->lock);
    /* complete this CPU's INVLPGBs everywhere before returning (APM vol. 3, TLBSYNC) */
    for (i = 0; i < m->ncpus && !(m->cfg.errata & TLBM_ERR_TLBSYNC_EARLY); i++) {
        struct tlbm_cpu *t = m->cpu[i];
        pthread_mutex_lock(&t->lock);
        tm_land_pending(m, t, ci, true);
        pthread_mutex_unlock(&t->lock);
    }
    pthread_mutex_lock(&c->lock);
    tm_end(m, c);
}

void tlbm_note_ipi(struct tlb_model *m, uint32_t ci, uint32_t dest, uint8_t vector)
{
    struct tlbm_cpu *c = m->cpu[ci];
    tm_begin(m, c, TLBM_EV_IPI, dest, vector, 0);
    tm_end(m, c);
}
