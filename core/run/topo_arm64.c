/* The topology class of two aarch64 CPUs from their MPIDRs: see topo_arm64.h. */
#include "core/run/topo_arm64.h"

#include "core/mutant.h"

#define AFF0 0xffull
#define AFF1 (0xffull << 8)
#define AFF2 (0xffull << 16)
#define AFF3 (0xffull << 32)

const char *a64_class_name(enum a64_class c)
{
    static const char *const names[] = { "self", "smt_sibling", "same_cluster", "same_package",
                                         "same_package_other_node", "cross_package" };
    return (unsigned)c < A64_CLASS_COUNT ? names[c] : "unknown";
}

void a64_place_from_mpidr(uint64_t mpidr, bool mt, struct a64_place *out)
{
    /* the fields above each level: MT = 1 shifts the levels up by one */
    uint64_t a = mpidr & (AFF3 | AFF2 | AFF1 | AFF0);
    out->cpu = a;
    out->node = -1;
    out->has_cluster = true;
    if (mt && !MUTANT(a64_mpidr_mt_ignored)) {
        out->core = a & (AFF3 | AFF2 | AFF1);
        out->cluster = a & (AFF3 | AFF2);
        out->package = a & AFF3;
    } else {
        out->core = a;
        out->cluster = a & (AFF3 | AFF2 | AFF1);
        out->package = a & (AFF3 | AFF2);
    }
}

enum a64_class a64_place_class(const struct a64_place *a, const struct a64_place *b)
{
    if (a->cpu == b->cpu)
        return A64_CLASS_SELF;
    if (a->core == b->core)
        return A64_CLASS_SMT_SIBLING;
    /* before the cluster, as x86 puts it before same_l3: the SRAT knows the die's quadrants,
     * which the affinity levels and the PPTT may not (Altra's monolithic vs quadrant modes) */
    if (a->package == b->package && a->node >= 0 && b->node >= 0 && a->node != b->node &&
        !MUTANT(a64_srat_nodes_ignored))
        return A64_CLASS_SAME_PACKAGE_OTHER_NODE;
    if (a->has_cluster && b->has_cluster && a->cluster == b->cluster)
        return A64_CLASS_SAME_CLUSTER;
    if (a->package == b->package)
        return A64_CLASS_SAME_PACKAGE;
    return A64_CLASS_CROSS_PACKAGE;
}

enum a64_class a64_mpidr_class(uint64_t a, uint64_t b, bool mt)
{
    struct a64_place pa, pb;
    a64_place_from_mpidr(a, mt, &pa);
    a64_place_from_mpidr(b, mt, &pb);
    return a64_place_class(&pa, &pb);
}

/* the class of pair k of the n x n grid (k = i * n + j), or SELF when it is no pair */
static enum a64_class grid_class(const struct a64_place *place, const unsigned *cpus, unsigned n, unsigned bsp,
                                 unsigned k)
{
    unsigned from = cpus[k / n], to = cpus[k % n];
    if (from == to || to == bsp)
        return A64_CLASS_SELF;
    if (MUTANT(a64_pairs_bsp_only) && from != bsp)
        return A64_CLASS_SELF; /* the BSP initiates every pair, as before */
    return a64_place_class(&place[from], &place[to]);
}

unsigned a64_choose_pairs(const struct a64_place *place, const unsigned *cpus, unsigned n, unsigned bsp,
                          unsigned limit, struct a64_pair *out, unsigned *all)
{
    unsigned in_class[A64_CLASS_COUNT] = { 0 }, classes = 0, total = 0, chosen = 0, k, c;
    for (k = 0; k < n * n; k++)
        in_class[grid_class(place, cpus, n, bsp, k)]++;
    for (c = A64_CLASS_FIRST; c < A64_CLASS_COUNT; c++) {
        total += in_class[c];
        classes += in_class[c] != 0;
    }
    *all = total;
    for (c = A64_CLASS_FIRST; c < A64_CLASS_COUNT; c++) {
        /* of the class's m pairs take `quota`: pair s when s * quota / m steps up */
        unsigned m = in_class[c], quota = total <= limit ? m : limit / classes, s = 0;
        if (!m)
            continue;
        if (quota == 0)
            quota = 1;
        if (MUTANT(a64_pairs_sampled_in_order) && total > limit)
            quota = m; /* every pair of the class, until the limit: the far classes get none */
        for (k = 0; k < n * n; k++) {
            if (grid_class(place, cpus, n, bsp, k) != (enum a64_class)c)
                continue;
            if ((uint64_t)s * quota / m != ((uint64_t)s + 1) * quota / m &&
                chosen < limit + A64_CLASS_COUNT && !(MUTANT(a64_pairs_sampled_in_order) && chosen >= limit)) {
                out[chosen].initiator = (uint16_t)cpus[k / n];
                out[chosen].target = (uint16_t)cpus[k % n];
                out[chosen].cls = (uint8_t)c;
                chosen++;
            }
            s++;
        }
    }
    return chosen;
}
