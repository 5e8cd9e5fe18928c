#include "core/machine/placement.h"
#include "core/mutant.h"
#include "core/lib/strbuf.h"

const char *placement_name(uint32_t placement)
{
    return placement == PLACE_SPREAD ? "spread" : topo_class_name((enum topo_class)placement);
}

static bool in_placement(const struct cpu_table *t, uint32_t initiator, uint32_t placement,
                         uint32_t cpu)
{
    if (cpu == initiator)
        return false;
    return placement == PLACE_SPREAD ||
           cpu_topo_class(&t->cpus[initiator], &t->cpus[cpu]) == (enum topo_class)placement;
}

uint32_t placement_size(const struct cpu_table *t, placement_usable_fn usable, const void *ctx,
                        uint32_t initiator, uint32_t placement)
{
    uint32_t i, n = 0;
    if (initiator >= t->count)
        return 0;
    for (i = 0; i < t->count; i++)
        n += in_placement(t, initiator, placement, i) && usable(ctx, i);
    return n;
}

uint32_t placement_classes(const struct cpu_table *t, placement_usable_fn usable, const void *ctx,
                           uint32_t initiator)
{
    uint32_t p, n = 0;
    for (p = TOPO_FIRST_CLASS; p < TOPO_CLASS_COUNT; p++)
        n += placement_size(t, usable, ctx, initiator, p) > 0;
    return n;
}

/* A (NUMA node, package, L3) domain of spread's candidates. */
struct rr_domain {
    uint32_t first; /* the domain's first CPU (index order), its identity */
    uint32_t order; /* sort key: L3 rank in its package, package rank in its node, node rank */
    uint32_t taken; /* CPUs picked from it */
};

static bool same_domain(const struct cpu_info *a, const struct cpu_info *b)
{
    return a->numa_node == b->numa_node && a->package == b->package &&
           (!a->l3_known || !b->l3_known || a->l3 == b->l3);
}

/*
 * Each domain's order: (its L3's rank among its package's, its package's
 * rank among its node's, its node's rank), each by first appearance, so
 * that consecutive domains differ at the highest level first.
 */
static void order_domains(const struct cpu_table *t, struct rr_domain *d, uint32_t nd)
{
    uint32_t i, j, k;
    for (i = 0; i < nd; i++) {
        const struct cpu_info *c = &t->cpus[d[i].first];
        uint32_t l3r = 0, pkr = 0, nor = 0;
        for (j = 0; j < i; j++) {
            const struct cpu_info *o = &t->cpus[d[j].first];
            bool first_pkg = true, first_node = true;
            for (k = 0; k < j; k++) {
                const struct cpu_info *e = &t->cpus[d[k].first];
                first_pkg &= !(e->numa_node == o->numa_node && e->package == o->package);
                first_node &= e->numa_node != o->numa_node;
            }
            l3r += o->numa_node == c->numa_node && o->package == c->package;
            pkr += o->numa_node == c->numa_node && o->package != c->package && first_pkg;
            nor += o->numa_node != c->numa_node && first_node;
        }
        d[i].order = l3r << 20 | pkr << 10 | nor;
    }
}

/*
 * Spread (see placement.h): up to k candidates, round-robin over their
 * domains (found in index order); 0 when there are more than
 * SPREAD_MAX_DOMAINS of them (the caller spreads over the numbering then).
 */
#define SPREAD_MAX_DOMAINS 128
static uint32_t pick_spread(const struct cpu_table *t, placement_usable_fn usable,
                            const void *ctx, uint32_t initiator, uint32_t k, uint32_t *out)
{
    struct rr_domain d[SPREAD_MAX_DOMAINS];
    uint32_t nd = 0, i, j, n = 0, round, best;
    for (i = 0; i < t->count; i++) {
        bool known = false;
        if (!in_placement(t, initiator, PLACE_SPREAD, i) || !usable(ctx, i))
            continue;
        for (j = 0; j < nd && !known; j++)
            known = same_domain(&t->cpus[d[j].first], &t->cpus[i]);
        if (known)
            continue;
        if (nd == SPREAD_MAX_DOMAINS)
            return 0; /* the caller falls back to the numbering */
        d[nd].first = i;
        d[nd++].taken = 0;
    }
    order_domains(t, d, nd);
    for (round = 0; n < k && round < t->count; round++) {
        uint32_t done = 0;
        /* this round: every domain once, in `order` */
        for (; done < nd && n < k; done++) {
            uint32_t seen = 0;
            best = UINT32_MAX;
            for (j = 0; j < nd; j++)
                if (d[j].taken == round && (best == UINT32_MAX || d[j].order < d[best].order))
                    best = j;
            if (best == UINT32_MAX)
                break;
            d[best].taken++;
            /* the domain's round-th candidate CPU */
            for (i = 0; i < t->count; i++) {
                if (!in_placement(t, initiator, PLACE_SPREAD, i) || !usable(ctx, i) ||
                    !same_domain(&t->cpus[d[best].first], &t->cpus[i]))
                    continue;
                if (seen++ == round) {
                    out[n++] = i;
                    break;
                }
            }
        }
    }
    /* index order, as every placement's pick */
    for (i = 1; i < n; i++)
        for (j = i; j > 0 && out[j - 1] > out[j]; j--) {
            uint32_t x = out[j];
            out[j] = out[j - 1];
            out[j - 1] = x;
        }
    return n;
}

uint32_t placement_pick(const struct cpu_table *t, placement_usable_fn usable, const void *ctx,
                        uint32_t initiator, uint32_t placement, uint32_t k, uint32_t *out)
{
    uint32_t i, m, n = 0;
    if (MUTANT(placement_ignored))
        placement = PLACE_SPREAD; /* the lowest CPU numbers, whatever the class */
    m = placement_size(t, usable, ctx, initiator, placement);
    if (k > m)
        k = m;
    if (placement == PLACE_SPREAD && !MUTANT(placement_ignored) && !MUTANT(spread_by_numbering) &&
        (n = pick_spread(t, usable, ctx, initiator, k, out)) > 0)
        return n;
    if (placement == PLACE_SPREAD && !MUTANT(placement_ignored)) {
        /* evenly over the CPU numbering, the middle of each of k equal runs (before issue 32) */
        uint32_t seen = 0;
        for (i = 0; i < t->count && n < k; i++) {
            if (!in_placement(t, initiator, placement, i) || !usable(ctx, i))
                continue;
            if ((uint64_t)(2 * n + 1) * m / (2 * k) == seen)
                out[n++] = i;
            seen++;
        }
        return n;
    }
    /* a class (or the mutant placement_ignored): its first k CPUs in index order */
    for (i = 0; i < t->count && n < k; i++)
        if (in_placement(t, initiator, placement, i) && usable(ctx, i))
            out[n++] = i;
    return n;
}

void placement_list(char *buf, size_t cap, const uint32_t *cpus, uint32_t n)
{
    struct strbuf sb;
    uint32_t i;
    sb_init_fixed(&sb, buf, cap);
    for (i = 0; i < n && i < 16; i++)
        sb_printf(&sb, "%s%u", i ? "," : "", cpus[i]);
    if (n > 16)
        sb_printf(&sb, ",... (%u CPUs)", n);
}

void placement_count(const struct cpu_table *t, uint32_t initiator, const uint32_t *cpus,
                     uint32_t n, uint32_t count[TOPO_CLASS_COUNT])
{
    uint32_t i, from = MUTANT(class_mix_wrong_cpu) && n ? cpus[0] : initiator;
    for (i = 0; i < TOPO_CLASS_COUNT; i++)
        count[i] = 0;
    for (i = 0; i < n; i++)
        if (cpus[i] < t->count && from < t->count)
            count[cpu_topo_class(&t->cpus[from], &t->cpus[cpus[i]])]++;
}

void placement_mix(char *buf, size_t cap, const struct cpu_table *t, uint32_t initiator,
                   const uint32_t *cpus, uint32_t n)
{
    uint32_t count[TOPO_CLASS_COUNT], c;
    struct strbuf sb;
    bool first = true;
    sb_init_fixed(&sb, buf, cap);
    placement_count(t, initiator, cpus, n, count);
    for (c = TOPO_FIRST_CLASS; c < TOPO_CLASS_COUNT; c++) {
        if (!count[c])
            continue;
        sb_printf(&sb, "%s%s %u", first ? "" : ", ", topo_class_name((enum topo_class)c), count[c]);
        first = false;
    }
}
