#!/usr/bin/env bash
# Randomised configurations on the strict TLB model: every CPU profile, odd
# and even sample and warm-up counts, ceilings from 1 to the maximum, every
# cpus= shape (one CPU, the BSP alone, ranges, lists), INVLPGB maximum counts
# 1 to 8, PTI on and off, global pages, an AP as the initiator, spinning and
# halting targets, QEMU's emulation path. Each run must end clean: exit 0,
# zero stale reads, no errors, every experiment SUCCESS or SKIP with a reason,
# and a report that validates.
#   TLBSCOPE_SIM_SEED=N   reproduce a run (the seed is printed first and on failures)
#   TLBSCOPE_SIM_CONFIGS=N  how many (100: well under a minute on 2 cores)
source "$(dirname "$0")/lib.sh"

SEED=${TLBSCOPE_SIM_SEED:-$(( $(date +%s) % 100000 ))}
COUNT=${TLBSCOPE_SIM_CONFIGS:-100}
RANDOM=$SEED
echo "# seed $SEED (TLBSCOPE_SIM_SEED=$SEED reproduces these $COUNT configurations)"

profiles=(epyc-7763 epyc-9654 epyc-7742 epyc-7551p xeon-8180 xeon-6330 i9-12900k qemu-tcg)
pick() { local a=("$@"); echo "${a[RANDOM % ${#a[@]}]}"; }
has_invlpgb() { [ "$1" = epyc-7763 ] || [ "$1" = epyc-9654 ]; }

bad=0
for ((i = 0; i < COUNT; i++)); do
    # every profile first, then at random
    if ((i < ${#profiles[@]})); then profile=${profiles[i]}; else profile=$(pick "${profiles[@]}"); fi
    cpus=$(pick 1 2 3 4 4 5 8)
    args=(--cpu "$profile" --cpus "$cpus" --seed "$((RANDOM * 32768 + RANDOM))")
    keys=(profile=quick "samples=$((10 + RANDOM % 8))" "warmup=$((RANDOM % 5))"
          "ceiling=$(pick 1 2 7 8 32 33 34 63 64 511 512 513 4096 $((1 + RANDOM % 4096)))"
          "pti=$(pick on off)" "target_wait=$(pick auto spin halt)")
    shape=$(pick all all 0 0-1 0,2 0,2-3 1-3 0-7)
    [ "$shape" != all ] && keys+=("cpus=$shape")
    ((RANDOM % 5 == 0)) && keys+=(global_pages=on)
    ((cpus > 1 && RANDOM % 4 == 0)) && keys+=(initiator=1)
    has_invlpgb "$profile" && args+=(--invlpgb-max "$((1 + RANDOM % 8))")
    [ "$profile" = qemu-tcg ] && ((RANDOM % 2)) && keys+=(emulate=invlpgb,invpcid)
    sim "config-$i" "$SIM" "${args[@]}" "${keys[@]}"
    what="config $i: ${args[*]} ${keys[*]}"
    unexplained=$( [ -s "$REPORT" ] && jqr '[.experiments[] | select(.status != "SUCCESS" and (.status != "SKIP" or .reason == null)) | .id] | join(",")')
    if clean && [ -z "$unexplained" ]; then
        ok "$what"
    else
        bad=$((bad + 1))
        not_ok "$what: exit $RC, stale $( [ -s "$REPORT" ] && stale_total), not SUCCESS/SKIP: ${unexplained:-none} (seed $SEED; rerun: build/tlbscope-sim ${args[*]} ${keys[*]}; log $LOG)"
        grep -aE '^(FAIL|ERROR)|model' "$LOG" | head -n 3 | sed 's/^/# /'
    fi
done
echo "# SUMMARY: $COUNT randomised configurations (seed $SEED), $((COUNT - bad)) clean"
[ "$bad" = 0 ]
