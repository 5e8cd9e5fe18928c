#!/usr/bin/env bash
# make check: the strict TLB model on a few fixed shapes (the edit loop's share of
# tests/sim/*.sh): an AMD and an Intel profile at 4 CPUs, the quick profile (10 samples), every
# experiment; each run must be clean (exit 0, zero stale reads, no errors, a report
# that validates) and have exactly the shape its configuration asks for
# (tests/qemu/shape.jq, as the QEMU tests check it).
source "$(dirname "$0")/../sim/lib.sh"

for cpu in epyc-7763 xeon-8180; do
    sim "quick-$cpu" "$SIM" --cpu "$cpu" --cpus 4 --seed 7 profile=quick run_budget_s=0 samples=10 warmup=1
    check "$cpu, 4 CPUs, quick: clean (exit 0, no stale read, no error, validates)" clean
    [ -s "$REPORT" ] || continue
    pcid=$(jqr 'if .cpu.features.pcid then 1 else 0 end')
    invpcid=$(jqr 'if .cpu.features.invpcid then 1 else 0 end')
    invlpgb=$(jqr 'if .cpu.features.invlpgb then 1 else 0 end')
    check_shape "$cpu" "$REPORT" cpus=4 profile=quick samples=10 warmup=1 pcid="$pcid" invpcid="$invpcid" invlpgb="$invlpgb"
done

# the aarch64 app on the strict aarch64 model (tlbscope-sim --arch aarch64, tests/sim/arm64_app.sh
# runs every profile): one profile with FEAT_TLBIRANGE, 4 CPUs, 10 samples a point
sim "quick-neoverse-v2" "$SIM" --arch aarch64 --cpu neoverse-v2 --cpus 4 --seed 7 samples=10 run_budget_s=0
check "aarch64 neoverse-v2, 4 CPUs: COMPLETE, zero stale reads after every shootdown, validates" \
    eval '[ "$RC" = 0 ] && [ "$(jqr .verdict.word)" = COMPLETE ] &&
          [ "$(jqr "[.experiments[] | select(.verification.applicable and .id != \"stale_detector_control\") |
                     .verification.stale_reads] | add")" = 0 ] && "$TOOL" validate "$REPORT" >/dev/null'
