/* The aarch64 experiments' shared record keeping and test-region operations: see a64_exp.h. */
#include "core/exp/arm64/a64_exp.h"
#include "core/exp/arm64/a64_verify.h"
#include "core/exp/arm64/experiments.h"

#include <stdarg.h>

#include "asm/abort.h"
#include "asm/barrier.h"
#include "asm/gic.h"
#include "asm/paging.h"
#include "asm/smp.h"
#include "asm/timer.h"
#include "asm/tlbi.h"
#include "core/lib/mem.h"
#include "core/lib/strbuf.h"
#include "core/mutant.h"

/* What the verifier saw wrong in the current experiment beyond stale reads (a64_exp_begin
 * clears it, a64_exp_end reports it): reads of neither frame, and recovered faults. */
static struct {
    uint64_t conflicts, faults;
    unsigned cpu;
    uint64_t va, seen;
} misreads;

void a64_exp_begin(struct arm64_run *run, struct experiment_record *e, bool verifies)
{
    (void)run;
    e->verification.applicable = verifies;
    misreads.conflicts = misreads.faults = 0;
    /* before any measurement: the points' room is reserved, as x86's runner does */
    if (!point_list_reserve(&e->results, A64_MAX_POINTS) || !point_list_reserve(&e->summary, A64_MAX_SUMMARY))
        record_set_status(e, RESULT_ERROR, "no memory for the experiment's points");
}

void a64_exp_end(struct arm64_run *run, struct experiment_record *e, uint64_t t0)
{
    (void)run;
    e->duration_ms = ticks_to_ms(ticks() - t0);
    /* neither frame: counted apart from stale reads, and a FAILURE wherever it happens */
    if (misreads.conflicts) {
        record_note(e, "%llu reads saw neither the old frame nor the new (a TLB conflict or an amalgamated entry), "
                    "the first on CPU %u at 0x%llx: 0x%llx",
                    (unsigned long long)misreads.conflicts, misreads.cpu, (unsigned long long)misreads.va,
                    (unsigned long long)misreads.seen);
        if (e->status != RESULT_FAILURE)
            record_set_status(e, RESULT_FAILURE, "%llu reads of neither frame: break-before-make did not hold",
                              (unsigned long long)misreads.conflicts);
    }
    if (e->verification.stale_reads && str_cmp(e->id, "stale_detector_control") != 0 &&
        e->status != RESULT_FAILURE)
        record_set_status(e, RESULT_FAILURE,
                          "%llu stale reads after a shootdown that completed: a CPU kept a translation",
                          (unsigned long long)e->verification.stale_reads);
    if (e->partial && e->status == RESULT_SUCCESS)
        record_set_status(e, RESULT_ERROR, "incomplete: a CPU stopped answering (see topology) or the points ran out");
}

struct result_point *a64_point_add(struct experiment_record *e)
{
    struct result_point *p = point_list_add(&e->results);
    if (!p)
        e->partial = true;
    return p;
}

void a64_latency(struct result_point *p, uint64_t *samples, uint32_t n)
{
    struct stats st;
    stats_from_array(samples, n, &st);
    point_metric(p, "latency", &st);
}

unsigned a64_others(unsigned *out)
{
    unsigned c, k = 0;
    for (c = 1; c < ncpus; c++)
        if (percpu_usable(c))
            out[k++] = c;
    return k;
}

bool a64_sgi_reachable(unsigned c)
{
    return c == 0 || (percpu_usable(c) && (percpu[c].gic_ok || MUTANT(a64_sgi_unreachable_targeted)));
}

unsigned a64_sgi_others(struct experiment_record *e, unsigned *out)
{
    unsigned c, k = 0, unreached = 0;
    for (c = 1; c < ncpus; c++)
        if (a64_sgi_reachable(c))
            out[k++] = c;
        else if (e && percpu_usable(c)) {
            record_note(e, "cpu %u (MPIDR 0x%llx): not a target, SGIs do not reach it (run.errors says why)", c,
                        (unsigned long long)percpu[c].mpidr);
            unreached++;
        }
    if (unreached && e->status == RESULT_SUCCESS) /* the others measured; the experiment is not whole */
        record_set_status(e, RESULT_ERROR, "incomplete: %u CPUs that SGIs do not reach are in none of its points",
                          unreached);
    return k;
}

void a64_serve_pings(struct percpu *pc, void (*answer)(struct percpu *pc, uint64_t ping))
{
    uint64_t foreign = 0, i;
    __atomic_store_n(&pc->result[1], 1, __ATOMIC_RELEASE); /* ready */
    for (i = 0; i < pc->arg[0];) {
        uint32_t irq = gic_ack();
        if (irq >= 1020) {
            if (__atomic_load_n(&pc->arg[3], __ATOMIC_ACQUIRE)) /* the BSP gave up */
                break;
            continue;
        }
        gic_eoi(irq);
        if (irq != SGI_PING) {
            foreign++;
            continue;
        }
        answer(pc, ++i);
    }
    pc->result[0] = foreign;
}

unsigned a64_target_counts(unsigned others, unsigned *out)
{
    unsigned m = 0;
    if (others >= 1)
        out[m++] = 1;
    if (others / 2 > 1 && others / 2 < others)
        out[m++] = others / 2;
    if (others > 1)
        out[m++] = others;
    return m;
}

uint64_t a64_timeout_ticks(const struct arm64_run *run)
{
    return tick_freq() / 1000 * run->timeout_ms;
}

/*
 * Break-before-make (Arm ARM, "Using break-before-make when updating translation table
 * entries"): a live descriptor is never rewritten with another output address or nG, or a
 * CPU may hold both translations (a TLB conflict abort, or an entry amalgamated from the
 * two). Linux's way, ptep_clear_flush() then set_pte_at(): the descriptor invalid, the
 * invalidation complete everywhere, then the new descriptor.
 */

/* the break: pages [first, first+n) invalid, DSB ISHST: every walk sees them so before any
 * later TLBI (ptep_get_and_clear(), then the dsb(ishst) flush_tlb_page() starts with) */
void region_unmap(unsigned first, unsigned n)
{
    unsigned i;
    for (i = first; i < first + n; i++)
        region_clear_pte(i);
    /* the invalid descriptors visible to every walker before the TLBIs that follow: one that
     * takes effect first would let a walk refill the old descriptor (the mutant leaves that
     * to the TLBIs' own DSB) */
    if (!MUTANT(a64_remap_no_dsb_ishst))
        dsb_ishst();
}

/* the make: the new descriptors, DSB ISHST and ISB: walks, this CPU's next loads
 * included, see them (set_pte_at()) */
static void region_map(unsigned first, unsigned n, unsigned pool)
{
    unsigned i;
    for (i = first; i < first + n; i++)
        region_set_pte(i, pool);
    dsb_ishst();
    isb();
}

void region_reset(void)
{
    region_unmap(0, REGION_PAGES);
    tlbi_all_is();
    dsb_ish();
    isb();
    region_map(0, REGION_PAGES, 0);
}

void region_set_ng(bool ng)
{
    if (MUTANT(a64_ng_flip_without_break)) { /* from pool A as it is, the flip written over it */
        region_reset();
        rgn.ng = ng ? PTE_NG : 0;
        region_map(0, REGION_PAGES, 0);
    }
    rgn.ng = ng ? PTE_NG : 0;
    region_reset();
}

uint64_t region_remap(unsigned first, unsigned n, unsigned pool, region_flush_fn *flush, void *ctx)
{
    uint64_t t;
    if (MUTANT(a64_remap_without_break)) { /* as before: the new descriptors over the live ones */
        region_map(first, n, pool);
        return flush(ctx);
    }
    if (MUTANT(a64_make_before_tlbi)) { /* the break, then the make before the TLBIs complete */
        region_unmap(first, n);
        region_map(first, n, pool);
        return flush(ctx);
    }
    if (MUTANT(a64_tlbi_before_store)) { /* the TLBIs first, the descriptors stored after them */
        t = flush(ctx);
        region_unmap(first, n);
        region_map(first, n, pool);
        return t;
    }
    region_unmap(first, n);
    t = flush(ctx);
    region_map(first, n, pool);
    return t;
}

/* this CPU reads pages [first, first+n) through its TLB; expected: pool's tags, or none
 * (VERIFY_UNMAPPED | old pool: descriptors invalid, the old pool's tags are stale) */
#define VERIFY_UNMAPPED 0x100u
static void read_pages(unsigned first, unsigned n, unsigned pool, struct a64_reads *r)
{
    unsigned i, old = (pool & VERIFY_UNMAPPED) ? (pool & 1) : !pool;
    *r = (struct a64_reads){ 0 };
    for (i = first; i < first + n; i++) {
        uint64_t v = test_read((const volatile uint64_t *)region_page_va(i));
        uint64_t want = (pool & VERIFY_UNMAPPED) ? TEST_READ_FAULTED : frame_tag(pool, i);
        a64_reads_add(r, i, v, want, frame_tag(old, i));
    }
}

void a64_fn_read(struct percpu *pc)
{
    struct a64_reads r;
    bool window = pc->arg[2] & VERIFY_UNMAPPED;
    if (window)
        abort_window_open();
    read_pages((unsigned)pc->arg[0], (unsigned)pc->arg[1], (unsigned)pc->arg[2], &r);
    if (window)
        abort_window_close();
    a64_reads_pack(&r, pc->result);
}

bool region_warm(struct arm64_run *run, const unsigned *cpus, unsigned k, unsigned first, unsigned n)
{
    unsigned i;
    struct a64_reads r;
    bool ok = true;
    for (i = 0; i < k; i++)
        smp_post(cpus[i], a64_fn_read, first, n, 0);
    read_pages(first, n, 0, &r);
    for (i = 0; i < k; i++)
        if (smp_wait(cpus[i], a64_timeout_ticks(run)) != 0) {
            a64_cpu_lost(run, cpus[i], "warming the test pages");
            ok = false;
        }
    return ok;
}

/* One CPU's wrong reads: stale ones to the record (the first with its VA and values), the
 * others to misreads. */
static void tally(struct experiment_record *e, unsigned cpu, const struct a64_reads *r, unsigned pool)
{
    uint64_t want;
    if (r->stale) {
        want = (pool & VERIFY_UNMAPPED) ? 0 : frame_tag(pool, r->stale_at); /* 0: no translation */
        record_stale(e, cpu, region_page_va(r->stale_at), want, r->stale_seen); /* counts one */
        e->verification.stale_reads += r->stale - 1;
    }
    if (r->conflicts && !misreads.conflicts) {
        misreads.cpu = cpu;
        misreads.va = region_page_va(r->conflict_at);
        misreads.seen = r->conflict_seen;
    }
    misreads.conflicts += r->conflicts;
    misreads.faults += r->faults;
}

static uint64_t verify(struct arm64_run *run, struct experiment_record *e, unsigned first, unsigned n,
                       unsigned pool, const unsigned *cpus, unsigned k)
{
    unsigned i;
    struct a64_reads r;
    uint64_t before = e->verification.stale_reads;
    for (i = 0; i < k; i++)
        smp_post(cpus[i], a64_fn_read, first, n, pool);
    if (pool & VERIFY_UNMAPPED)
        abort_window_open();
    read_pages(first, n, pool, &r);
    if (pool & VERIFY_UNMAPPED)
        abort_window_close();
    e->verification.checks += n;
    tally(e, 0, &r, pool);
    for (i = 0; i < k; i++) {
        struct percpu *pc = &percpu[cpus[i]];
        if (smp_wait(cpus[i], a64_timeout_ticks(run)) != 0) {
            a64_cpu_lost(run, cpus[i], "verifying the test pages");
            e->partial = true;
            continue;
        }
        e->verification.checks += n;
        a64_reads_unpack(&r, pc->result);
        tally(e, cpus[i], &r, pool);
    }
    return e->verification.stale_reads - before;
}

uint64_t region_verify(struct arm64_run *run, struct experiment_record *e, unsigned first, unsigned n, unsigned pool)
{
    unsigned cpus[MAX_CPUS], k = a64_others(cpus);
    return verify(run, e, first, n, pool, cpus, k);
}

uint64_t region_verify_cpus(struct arm64_run *run, struct experiment_record *e, unsigned first, unsigned n,
                            unsigned pool, const unsigned *cpus, unsigned k)
{
    return verify(run, e, first, n, pool, cpus, k);
}

uint64_t region_verify_unmapped(struct arm64_run *run, struct experiment_record *e, unsigned first, unsigned n,
                                unsigned old_pool)
{
    unsigned cpus[MAX_CPUS], k = a64_others(cpus);
    return verify(run, e, first, n, VERIFY_UNMAPPED | (old_pool & 1), cpus, k);
}

void a64_misreads(uint64_t *conflicts, uint64_t *faults)
{
    *conflicts = misreads.conflicts;
    *faults = misreads.faults;
}
