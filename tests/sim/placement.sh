#!/usr/bin/env bash
# Issue 21 on the strict TLB model: a machine of 2 sockets x 2 L3s x 2 cores
# x 2 SMT threads (tlbscope-sim --shape 2x2x2x2: 16 CPUs, APIC IDs 0-15, one
# x2APIC cluster) on the EPYC 9654 profile (INVLPGB, x2APIC):
#   - one NUMA node per socket: the classes and their pair counts (each CPU
#     has 1 SMT sibling, 2 CPUs in its L3, 4 in the other L3 of its socket, 8
#     in the other socket and node), ipi_roundtrip's summary per class, the
#     exact shape of every experiment (tests/qemu/shape.jq: placement points
#     per class, cluster-mode points, their verification counts), zero stale
#     reads, and each class placement's targets of its class (the CPUs its
#     note names, looked up in pair_classes);
#   - both sockets in one node (--numa 1): the other socket is same_node,
#     and its placement's targets are;
#   - sub-NUMA nodes (--shape 2x1x4x2 --numa 4: Intel SNC2, one L3 per
#     package spanning both its nodes): the other node of the same package
#     is same_package_other_node, not same_l3, in the pair counts,
#     ipi_roundtrip's summary and its placement's targets;
#   - the pair classes agree with the CPU table (tlbscope-report validate
#     recomputes every letter).
source "$(dirname "$0")/lib.sh"
source "$here/tests/qemu/lib.sh" >/dev/null # shape_ok (boots nothing)

SEED=${TLBSCOPE_SIM_SEED:-2121}
# the classes the machine has, with their ordered pairs; ipi_roundtrip's summary classes
nonzero_classes() { jqr '.topology.classes | to_entries | map(select(.value > 0)) | from_entries | tojson'; }
roundtrip_classes() { exp_field ipi_roundtrip '[.summary[].params.class] | join(",")'; }
EXPS=ipi_roundtrip,ipi_broadcast,shootdown_seq_vs_conc,shootdown_contention,invlpgb_range
BASE=(--cpu epyc-9654 --cpus 16 --shape 2x2x2x2 --seed "$SEED" profile=quick run_budget_s=0
      samples=10 warmup=1 "experiments=$EXPS")
WANT=(cpus=16 profile=quick samples=10 warmup=1 "experiments=$EXPS")

sim "placement-2x2x2x2" "$SIM" "${BASE[@]}"
check "2 nodes: clean run, the report validates (every pair class recomputed)" clean
if [ -s "$REPORT" ]; then
    check "2 nodes: the exact shape (placements per class, cluster-mode points)" shape_ok "$REPORT" "${WANT[@]}"
    check "2 nodes: classes and their ordered pairs: 16 SMT, 32 same L3, 64 same package, 128 cross node" \
        test "$(jqr '.topology | [.l3_source, (.classes | [.smt_sibling, .same_l3, .same_package, .same_node, .cross_node, .cross_package])] | tojson')" = \
        '["simulated",[16,32,64,0,128,0]]'
    check "2 nodes: ipi_roundtrip summarises every class the machine has" \
        test "$(roundtrip_classes)" = smt_sibling,same_l3,same_package,cross_node
    check "2 nodes: each class placement's targets are of that class (pair_classes)" \
        test "$(jq -r -f "$here/tests/qemu/placement_targets.jq" "$REPORT")" = true
    check "2 nodes: spread's targets span both sockets" \
        test "$(exp_field shootdown_seq_vs_conc '.notes[] | select(startswith("placement spread: targets")) | capture("targets (?<t>[0-9,]+) ").t | split(",") | map(tonumber / 8 | floor) | unique | length')" = 2
    check "2 nodes: cluster-mode IPIs: ipi_broadcast and the shootdowns, one logical write for APIC IDs 0-15" \
        test "$(jqr '[.experiments[] | .results[] | select(.params.mode == "cluster" or .params.ipi_mode) | .values.icr_writes] | unique | tojson')" = '[1]'
    check "2 nodes: INVLPGB's crossover nearest first (every CPU) and per placement (cpus_max: 1 + the class's CPUs)" \
        test "$(exp_field invlpgb_range '[.summary[] | [.params.placement, .values.cpus_max]] | tojson')" = \
        '[["nearest_first",16],["smt_sibling",2],["same_l3",3],["same_package",5],["cross_node",9],["spread",8]]'
fi

sim "placement-2x2x2x2-one-node" "$SIM" "${BASE[@]/experiments=$EXPS/experiments=shootdown_seq_vs_conc}" --numa 1
check "1 node: clean run" clean
if [ -s "$REPORT" ]; then
    check "1 node: the other socket is same_node" \
        test "$(jqr '.topology.classes | [.same_node, .cross_node, .cross_package] | tojson')" = '[128,0,0]'
    check "1 node: the exact shape" shape_ok "$REPORT" cpus=16 profile=quick samples=10 warmup=1 experiments=shootdown_seq_vs_conc
    check "1 node: each class placement's targets are of that class, same_node's among them" \
        test "$(jq -r -f "$here/tests/qemu/placement_targets.jq" "$REPORT")/$(exp_field shootdown_seq_vs_conc '[.notes[] | select(startswith("placement same_node: targets 8,9,10,11,12,13,14,15 of CPU 0"))] | length')" = true/1
fi

sim "placement-snc2" "$SIM" --cpu xeon-8180 --cpus 16 --shape 2x1x4x2 --numa 4 --seed "$SEED" \
    profile=quick run_budget_s=0 samples=10 warmup=1 experiments=ipi_roundtrip,shootdown_seq_vs_conc
check "SNC2: clean run, the report validates (every pair class recomputed)" clean
if [ -s "$REPORT" ]; then
    check "SNC2: the exact shape" shape_ok "$REPORT" cpus=16 profile=quick samples=10 warmup=1 \
        experiments=ipi_roundtrip,shootdown_seq_vs_conc
    check "SNC2: 16 SMT, 32 same L3 (its own node), 64 other node of the package, 128 cross node" \
        test "$(nonzero_classes)" = '{"smt_sibling":16,"same_l3":32,"same_package_other_node":64,"cross_node":128}'
    check "SNC2: ipi_roundtrip summarises the other node of the package as a class" \
        test "$(roundtrip_classes)" = smt_sibling,same_l3,same_package_other_node,cross_node
    check "SNC2: the placement same_package_other_node takes CPUs 4-7, of that class" \
        test "$(jq -r -f "$here/tests/qemu/placement_targets.jq" "$REPORT")/$(exp_field shootdown_seq_vs_conc '[.notes[] | select(startswith("placement same_package_other_node: targets 4,5,6,7 of CPU 0"))] | length')" = true/1
fi
