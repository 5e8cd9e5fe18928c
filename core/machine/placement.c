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

uint32_t placement_pick(const struct cpu_table *t, placement_usable_fn usable, const void *ctx,
                        uint32_t initiator, uint32_t placement, uint32_t k, uint32_t *out)
{
    uint32_t i, m, seen = 0, n = 0;
    bool spread = placement == PLACE_SPREAD;
    if (MUTANT(placement_ignored))
        spread = true, placement = PLACE_SPREAD; /* the lowest CPU numbers, whatever the class */
    m = placement_size(t, usable, ctx, initiator, placement);
    if (k > m)
        k = m;
    /*
     * A class: its first k CPUs. Spread: the n-th target is the
     * ((2n + 1) * m / 2k)-th CPU, the middle of the n-th of k equal runs, so
     * that 2 targets already fall in both halves of the numbering.
     */
    if (!spread || MUTANT(placement_ignored))
        m = k;
    for (i = 0; i < t->count && n < k; i++) {
        if (!in_placement(t, initiator, placement, i) || !usable(ctx, i))
            continue;
        if ((uint64_t)(2 * n + 1) * m / (2 * k) == seen)
            out[n++] = i;
        seen++;
    }
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
