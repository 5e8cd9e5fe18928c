/*
 * topology's classes (issue 21): each CPU's `l3`, the per-class pair
 * counts and `pair_classes`, checked against the rule of core/machine/cpu_table.c
 * recomputed from the CPU entries (package, core, l3, numa_node), so a
 * report whose letters disagree with its own CPU table is invalid. All
 * absent before issue 21. Another node of the same package (SNC, NPS2/4:
 * letter 'o', same_package_other_node) is a class from issue 32 on; a
 * report that names no such class (pair_class_codes without 'o', classes
 * without the count) was classified by the rule before it, which kept
 * such pairs in same_l3 / same_package.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "reports/tool/validate/validate_sections.h"
#include "reports/tool/model/vocab.h"

/* The class letters, nearest first, in the order of vocab_topo_classes. */
static const char class_codes[] = "-slponxc";
/* the letter of same_package_other_node, absent from reports before issue 32 */
#define OTHER_NODE_CODE 'o'

struct cpu_place {
    long long package, core, l3, node; /* -1: null */
};

static long long num_or(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_integer(v) ? json_integer_value(v) : -1;
}

static char class_of(const struct cpu_place *a, const struct cpu_place *b, size_t i, size_t j,
                     bool other_node_class)
{
    if (i == j)
        return '-';
    if (a->package != b->package) {
        if (a->node < 0 || b->node < 0)
            return 'c';
        return a->node == b->node ? 'n' : 'x';
    }
    if (a->core == b->core)
        return 's';
    if (other_node_class && a->node >= 0 && b->node >= 0 && a->node != b->node)
        return OTHER_NODE_CODE;
    return a->l3 >= 0 && b->l3 >= 0 && a->l3 == b->l3 ? 'l' : 'p';
}

/* Whether the report names the class of another node in the same package (issue 32 on). */
static bool names_other_node_class(const json_t *topo)
{
    char key[2] = { OTHER_NODE_CODE, 0 };
    return json_object_get(json_object_get(topo, "pair_class_codes"), key) ||
           json_object_get(json_object_get(topo, "classes"), "same_package_other_node");
}

static void check_codes(struct vctx *c, const json_t *topo, bool other_node_class)
{
    const json_t *codes = vc_member(c, topo, "pair_class_codes", VT_OBJECT, VF_OPTIONAL);
    size_t k;
    for (k = 0; codes && class_codes[k]; k++) {
        char key[2] = { class_codes[k], 0 };
        const json_t *v = json_object_get(codes, key);
        if (class_codes[k] == OTHER_NODE_CODE && !other_node_class)
            continue;
        if (!json_is_string(v) || strcmp(json_string_value(v), vocab_topo_classes[k]) != 0)
            vc_error(c, "pair_class_codes", "\"%s\" must name %s", key, vocab_topo_classes[k]);
    }
}

void validate_class_mix(struct vctx *c, const json_t *p)
{
    const json_t *params = json_object_get(p, "params"), *v;
    const json_t *targets = json_object_get(params, "targets");
    const json_t *cpus = json_object_get(params, "cpus");
    const char *key;
    long long sum = 0, want = -1;
    size_t mark;
    const json_t *mix = vc_enter(c, p, "class_mix", VF_OPTIONAL, &mark);
    if (!mix)
        return;
    json_object_foreach((json_t *)mix, key, v) {
        int k = vocab_index(vocab_topo_classes, key);
        if (k <= 0)
            vc_error(c, key, "not a topology class of a target (smt_sibling ... cross_package)");
        if (!json_is_integer(v) || json_integer_value(v) < 1)
            vc_error(c, key, "expected a count of 1 or more (classes without targets are left out)");
        else
            sum += json_integer_value(v);
    }
    if (json_is_integer(targets))
        want = json_integer_value(targets);
    else if (json_is_integer(cpus))
        want = json_integer_value(cpus) - 1;
    if (want >= 0 && sum != want)
        vc_error(c, NULL, "its classes count %lld CPUs, but the point has %lld targets", sum,
                 want);
    vc_leave(c, mark);
}

void validate_linux_ipi_mode(struct vctx *c, const json_t *method)
{
    size_t mark;
    const json_t *l = vc_enter(c, method, "linux_ipi_mode", VF_OPTIONAL, &mark);
    if (!l)
        return;
    vc_word(c, l, "mode", vocab_linux_ipi_modes, 0);
    vc_string(c, l, "reason", 0);
    vc_bool(c, l, "measured", 0, NULL);
    vc_leave(c, mark);
}

void validate_topology_classes(struct vctx *c, const json_t *topo, const json_t *cpus)
{
    size_t n = json_array_size(cpus), i, j, k;
    long long per_class[sizeof(class_codes)] = { 0 }, v;
    struct cpu_place *pl;
    const json_t *classes, *pairs;
    bool other_node_class = names_other_node_class(topo);
    vc_word(c, topo, "l3_source", vocab_l3_sources, VF_OPTIONAL);
    check_codes(c, topo, other_node_class);
    pl = calloc(n ? n : 1, sizeof(*pl));
    if (!pl)
        return;
    for (i = 0; i < n; i++) {
        const json_t *e = json_array_get(cpus, i);
        pl[i].package = num_or(e, "package");
        pl[i].core = num_or(e, "core");
        pl[i].l3 = num_or(e, "l3");
        pl[i].node = num_or(e, "numa_node");
    }
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            per_class[strchr(class_codes, class_of(&pl[i], &pl[j], i, j, other_node_class)) -
                      class_codes]++;
    classes = vc_member(c, topo, "classes", VT_OBJECT, VF_OPTIONAL);
    for (k = 1; classes && class_codes[k]; k++) {
        const char *name = vocab_topo_classes[k];
        if (class_codes[k] == OTHER_NODE_CODE && !other_node_class)
            continue;
        if (vc_int(c, classes, name, 0, LLONG_MAX, 0, &v) && v != per_class[k])
            vc_error(c, "classes", "%s: %lld pairs, but the CPU table has %lld", name, v,
                     per_class[k]);
    }
    pairs = vc_member(c, topo, "pair_classes", VT_ARRAY, VF_OPTIONAL | VF_NULLABLE);
    if (pairs && json_array_size(pairs) != n)
        vc_error(c, "pair_classes", "%zu rows for %zu CPUs", json_array_size(pairs), n);
    for (i = 0; pairs && i < n && i < json_array_size(pairs); i++) {
        const char *row = json_string_value(json_array_get(pairs, i));
        if (!row || strlen(row) != n) {
            vc_error(c, "pair_classes", "row %zu: expected a string of %zu class letters", i, n);
            break;
        }
        for (j = 0; j < n; j++) {
            char want = class_of(&pl[i], &pl[j], i, j, other_node_class);
            if (row[j] != want) {
                vc_error(c, "pair_classes", "CPU %zu -> CPU %zu is '%c', but their package, "
                         "core, l3 and numa_node make it '%c'", i, j, row[j], want);
                i = n;
                break;
            }
        }
    }
    free(pl);
}
