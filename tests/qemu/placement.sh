#!/usr/bin/env bash
# Issue 21: topology classes, placement and x2APIC cluster mode on a machine
# that has them: 2 sockets x 2 cores x 2 threads, one NUMA node per socket
# (the SRAT QEMU builds), -cpu max in x2APIC mode (QEMU 10 TCG). Checks, on
# top of the exact shape (tests/qemu/shape.jq) of a healthy run:
#   - every class the shape has appears in topology.classes and in
#     ipi_roundtrip's summary: SMT sibling, the other core of the package
#     (same_l3 where CPUID enumerates the L3, else same_package) and the
#     other socket in the other node (cross_node); the class of every pair
#     (pair_classes) agrees with the CPUs' package/core/l3/numa_node (the
#     validator recomputes every letter);
#   - placement points per class for shootdown_seq_vs_conc,
#     shootdown_contention and invlpgb_range (emulated INVLPGB), each
#     placement's targets of its class only;
#   - x2APIC cluster-mode IPIs work: ipi_broadcast's cluster points, each
#     with one logical ICR write per cluster, and the shootdowns' cluster
#     points verified like every other (no stale read);
#   - the report says which IPI mode Linux would pick here, and why;
#   - a second boot, one socket of 2 cores x 2 threads split into 2 NUMA
#     nodes (what SNC2 / NPS2 look like in the SRAT): the other core is
#     same_package_other_node, in the pair counts, ipi_roundtrip's summary
#     and its placement's targets (issue 32).
# Two boots (about 60-90 s and 30-60 s on a loaded 2-core host).
source "$(dirname "$0")/lib.sh"

if ! have_qemu10; then
    skip "issue 21 shape" "QEMU $(qemu_major) < 10 has no x2APIC under TCG"
    exit 0
fi
EXPS=ipi_roundtrip,ipi_broadcast,shootdown_seq_vs_conc,shootdown_contention,invlpgb_range
WANT=(profile=quick samples=10 warmup=1 "experiments=$EXPS" emulate=invlpgb)
SMP="8,sockets=2,cores=2,threads=2" NUMA=2 CPU=max,+x2apic MEM=1024 TIMEOUT=400 \
    ARGS="profile=quick run_budget_s=0 apic=x2apic samples=10 warmup=1 experiments=$EXPS emulate=invlpgb budget_s=300" \
    boot "placement-2s-2c-2t-numa2"
check_healthy_run "2x2x2, 2 nodes" 8 "${WANT[@]}"
[ -s "$REPORT" ] || exit 0

# the classes of the other core in the package: same_l3 when CPUID enumerates the L3
near=$(jqr 'if .topology.l3_source == "none" then "same_package" else "same_l3" end')
check "classes: smt_sibling, $near and cross_node, each with its pairs (8 CPUs: 8, 16, 32)" \
    test "$(jqr '.topology.classes | to_entries | map(select(.value > 0)) | from_entries | tojson')" = \
    "$(jq -nc --arg n "$near" '{smt_sibling: 8} + {($n): 16} + {cross_node: 32}')"
check "classes: 2 NUMA nodes, one per socket" \
    test "$(jqr '[.topology.cpus[] | [.package, .numa_node]] | unique | tojson')" = '[[0,0],[1,1]]'
check "classes: pair_classes has 8 rows of 8 letters, CPU 0 -> 1 an SMT sibling, -> 4 another node" \
    test "$(jqr '.topology.pair_classes | [length, (map(length) | unique), (.[0][1:2]), (.[0][4:5])] | tojson')" = '[8,[8],"s","x"]'
check "ipi_roundtrip: a summary per class" \
    test "$(exp_field ipi_roundtrip '[.summary[].params.class] | sort | join(",")')" = \
    "$(printf '%s\n' cross_node "$near" smt_sibling | sort | paste -sd,)"

# placements: every class the BSP has, and spread, in each of the three experiments
for e in shootdown_seq_vs_conc shootdown_contention invlpgb_range; do
    check "$e: placement points for smt_sibling, $near, cross_node and spread" \
        test "$(exp_field "$e" '[.results[].params.placement // empty] | unique | join(",")')" = \
        "$(printf '%s\n' cross_node "$near" smt_sibling spread | sort | paste -sd,)"
done
check "shootdown_seq_vs_conc: notes for the classes this machine lacks" \
    test "$(exp_field shootdown_seq_vs_conc '[.notes[] | select(test("^placement [a-z_0-9]+ skipped")) | capture("placement (?<c>[a-z_0-9]+) skipped").c] | sort | join(",")')" = \
    "$(printf '%s\n' cross_package same_node same_package_other_node "$( [ "$near" = same_l3 ] && echo same_package || echo same_l3)" | sort | paste -sd,)"
check "shootdown_seq_vs_conc: each class placement's targets (its notes) are of that class in pair_classes" \
    test "$(jq -r -f "$here/tests/qemu/placement_targets.jq" "$REPORT")" = true
check "invlpgb_range: a crossover summary nearest first (all 8 CPUs) and per placement (cpus_max: 1 + the class's CPUs)" \
    test "$(exp_field invlpgb_range '[.summary[] | [.params.placement, .values.cpus_max]] | sort | tojson')" = \
    "$(jq -nc --arg n "$near" '[["cross_node", 5], [$n, 3], ["nearest_first", 8], ["smt_sibling", 2], ["spread", 4]] | sort')"

# x2APIC cluster mode: the CPUs' APIC IDs are 0-7, one cluster: one logical write reaches them all
check "x2APIC mode, cluster points in ipi_broadcast, one logical ICR write each" \
    test "$(jqr .method.apic_mode)/$(exp_field ipi_broadcast '[.results[] | select(.params.mode == "cluster") | .values.icr_writes] | unique | tojson')" = 'x2apic/[1]'
check "shootdown_seq_vs_conc: cluster-mode points at 1, 2, 4, 7 targets, both orders, verified" \
    test "$(exp_field shootdown_seq_vs_conc '[.results[] | select(.params.ipi_mode == "x2apic_cluster") | .params.targets] | unique | tojson')/$(exp_field shootdown_seq_vs_conc .verification.stale_reads)" = '[1,2,4,7]/0'
check "Linux's IPI mode here is stated with its reason (no DMAR: x2APIC off, physflat)" \
    test "$(jqr '.method.linux_ipi_mode | [.mode, (.reason | length > 20), .measured] | tojson')" = '["physflat",true,true]'

# issue 32: sub-NUMA nodes: one package, a node per core (CPUs 0-1 and 2-3)
EXPS2=ipi_roundtrip,shootdown_seq_vs_conc
SMP="4,sockets=1,cores=2,threads=2" NUMA=2 CPU=max,+x2apic MEM=1024 TIMEOUT=300 \
    ARGS="profile=quick run_budget_s=0 apic=x2apic samples=10 warmup=1 experiments=$EXPS2 budget_s=200" \
    boot "placement-1s-2c-2t-numa2"
check_healthy_run "1 socket, 2 nodes" 4 profile=quick samples=10 warmup=1 "experiments=$EXPS2"
[ -s "$REPORT" ] || exit 0
check "sub-NUMA: one package, two nodes (a core each)" \
    test "$(jqr '[.topology.cpus[] | [.package, .numa_node]] | unique | tojson')" = '[[0,0],[0,1]]'
check "sub-NUMA: the other node's core is same_package_other_node (4 CPUs: 4 SMT pairs, 8 others)" \
    test "$(jqr '.topology.classes | to_entries | map(select(.value > 0)) | from_entries | tojson')" = \
    '{"smt_sibling":4,"same_package_other_node":8}'
check "sub-NUMA: ipi_roundtrip summarises it as a class" \
    test "$(exp_field ipi_roundtrip '[.summary[].params.class] | join(",")')" = smt_sibling,same_package_other_node
check "sub-NUMA: its placement takes CPUs 2 and 3, of that class in pair_classes" \
    test "$(jq -r -f "$here/tests/qemu/placement_targets.jq" "$REPORT")/$(exp_field shootdown_seq_vs_conc '[.notes[] | select(startswith("placement same_package_other_node: targets 2,3 of CPU 0"))] | length')" = true/1
