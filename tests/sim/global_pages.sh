#!/usr/bin/env bash
# Global test pages (global_pages=on: kernel mappings, G set) on every CPU profile, in a
# fixed shape (issue 32 item 21): their full flush is Linux's __native_tlb_flush_global(),
# INVPCID type 2 where INVPCID works, else a CR4.PGE toggle (epyc-7742, epyc-7551p and
# qemu-tcg have no INVPCID; --no-invpcid takes it from a profile that has it). A CR3 write
# keeps global entries, so a global flush that loses its toggle leaves every page above the
# ceiling stale; the randomised configurations (tests/sim/configs.sh) reach this path only
# when they happen to draw global_pages=on on such a profile.
source "$(dirname "$0")/lib.sh"

args=(--cpus 4 --seed 21 profile=quick run_budget_s=0 samples=10 warmup=1 global_pages=on
      experiments=shootdown_seq_vs_conc)
for profile in epyc-7763 epyc-9654 epyc-7742 epyc-7551p xeon-8180 xeon-6330 i9-12900k qemu-tcg; do
    sim "global-$profile" "$SIM" --cpu "$profile" "${args[@]}"
    # the Alder Lake as recorded (microcode 0x12): PCID off for the INVLPG/global erratum
    erratum=0; [ "$profile" = i9-12900k ] && erratum=1
    check "$profile global_pages=on: clean, global mappings recorded, the exact shape" \
        eval 'clean && [ "$(jqr .method.test_mappings)" = global ] &&
              shape_ok "$REPORT" cpus=4 usable=4 pcid_erratum=$erratum profile=quick samples=10 warmup=1 global_pages=1 experiments=shootdown_seq_vs_conc >/dev/null'
done
# a CPU with PCID but no INVPCID: the toggle drops every PCID's global entries too
sim global-no-invpcid "$SIM" --cpu xeon-8180 --no-invpcid "${args[@]}"
check "xeon-8180 --no-invpcid global_pages=on: clean (the CR4.PGE toggle with PCIDs)" clean

echo "1..$n_test"
