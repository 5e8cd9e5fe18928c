#!/usr/bin/env bash
# Randomised configurations on the strict TLB model: every CPU profile, odd
# and even sample and warm-up counts, ceilings from 1 to the maximum, every
# cpus= shape (one CPU, the BSP alone, ranges, lists), INVLPGB maximum counts
# 1 to 8, PTI on and off, global pages, an AP as the initiator, spinning and
# halting targets, xAPIC and x2APIC, QEMU's emulation path; the model's own choices: each
# profile's TLB geometry from its CPUID or another given (--tlb: 2-way, and
# a number of sets that is no power of two; not smaller, or the negative
# control's one primed page is evicted before it is read), 2 MiB pages never,
# sometimes or always splintered (--splinter); a firmware running with CR4.LA57
# (5-level paging) on the profiles with LA57, the Alder Lake with microcode
# before and after the fix of its INVLPG/global erratum. Each run must end clean: exit 0,
# zero stale reads, no errors, a report that validates, and the exact shape
# tests/qemu/shape.jq derives for what it was asked (every experiment's
# status, full parameter grid, metric sample counts, verification counts,
# emulated INVLPGB/TLBSYNC counts): the formulas, checked on 12 shapes (200 in make test-full).
#   TLBSCOPE_SIM_SEED=N   reproduce a run (the seed is printed first and on failures)
#   TLBSCOPE_SIM_CONFIGS=N  how many (make test: 12, about 55 s on 2 cores; make test-full:
#   200). A new seed each run, so CI covers other shapes every time.
source "$(dirname "$0")/lib.sh"

SEED=${TLBSCOPE_SIM_SEED:-$(( $(date +%s) % 100000 ))}
COUNT=${TLBSCOPE_SIM_CONFIGS:-$([ -n "${TLBSCOPE_TEST_FULL:-}" ] && echo 200 || echo 12)}
RANDOM=$SEED
echo "# seed $SEED (TLBSCOPE_SIM_SEED=$SEED reproduces these $COUNT configurations)"

profiles=(epyc-7763 epyc-9654 epyc-7742 epyc-7551p xeon-8180 xeon-6330 i9-12900k qemu-tcg)
# pick WORD...: one of them at random, in $PICK (not echoed: a $(...) subshell
# would draw from its own, reseeded RANDOM, and the seed would reproduce nothing)
pick() { local a=("$@"); PICK=${a[RANDOM % ${#a[@]}]}; }
has_invlpgb() { [ "$1" = epyc-7763 ] || [ "$1" = epyc-9654 ]; }
has_la57() { [ "$1" = epyc-9654 ] || [ "$1" = xeon-6330 ] || [ "$1" = qemu-tcg ]; }

# usable SHAPE CPUS: how many CPUs take part under cpus=SHAPE ("all", "0,2-3"):
# those listed that exist, and the BSP always
usable() {
    local shape=$1 n=$2 part a b c
    local -A on=([0]=1)
    if [ "$shape" = all ]; then echo "$n"; return; fi
    IFS=, read -ra parts <<<"$shape"
    for part in "${parts[@]}"; do
        a=${part%-*} b=${part#*-}
        for ((c = a; c <= b; c++)); do ((c < n)) && on[$c]=1; done
    done
    echo "${#on[@]}"
}

# takes_part CPU SHAPE CPUS: the CPU exists and cpus=SHAPE lists it
takes_part() {
    local c=$1 shape=$2 n=$3 part
    ((c < n)) || return 1
    [ "$shape" = all ] && return 0
    IFS=, read -ra parts <<<"$shape"
    for part in "${parts[@]}"; do ((c >= ${part%-*} && c <= ${part#*-})) && return 0; done
    return 1
}

bad=0 shaped=0
for ((i = 0; i < COUNT; i++)); do
    # every profile first, then at random
    if ((i < ${#profiles[@]})); then profile=${profiles[i]}; else pick "${profiles[@]}"; profile=$PICK; fi
    pick 1 2 3 4 4 5 8; cpus=$PICK
    args=(--cpu "$profile" --cpus "$cpus" --seed "$((RANDOM * 32768 + RANDOM))")
    keys=(profile=quick run_budget_s=0 "samples=$((10 + RANDOM % 8))" "warmup=$((RANDOM % 5))")
    pick 1 2 7 8 32 33 34 63 64 511 512 513 4096 $((1 + RANDOM % 4096)); keys+=("ceiling=$PICK")
    pick on off; keys+=("pti=$PICK")
    pick auto spin halt; keys+=("target_wait=$PICK")
    # the APIC mode: the modelled APIC flags an unordered ICR write and a bad hand-back
    pick auto auto xapic x2apic; [ "$PICK" != auto ] && keys+=("apic=$PICK")
    pick all all 0 0-1 0,2 0,2-3 1-3 0-7; shape=$PICK
    [ "$shape" != all ] && keys+=("cpus=$shape")
    ((RANDOM % 5 == 0)) && keys+=(global_pages=on)
    ((cpus > 1 && RANDOM % 4 == 0)) && keys+=(initiator=1)
    has_invlpgb "$profile" && args+=(--invlpgb-max "$((1 + RANDOM % 8))")
    # the model: the profile's TLB geometry or another; splintering of 2 MiB pages
    pick profile profile profile 512x2 96x12; [ "$PICK" != profile ] && args+=(--tlb "$PICK")
    pick 0 16384 65536; args+=(--splinter "$PICK")
    # firmware that hands over with CR4.LA57: 5-level tables, 57-bit canonical addresses
    has_la57 "$profile" && ((RANDOM % 2)) && args+=(--la57)
    # the Alder Lake's microcode: as recorded (0x12, the INVLPG/global erratum: PCID off) or fixed
    pcid_erratum=0
    if [ "$profile" = i9-12900k ]; then
        pick 0x12 0x2d 0x2e 0x37; args+=(--microcode "$PICK")
        ((PICK < 0x2e)) && pcid_erratum=1
    fi
    [ "$profile" = qemu-tcg ] && ((RANDOM % 2)) && keys+=(emulate=invlpgb,invpcid)
    # what the shape check is told: the keys it derives counts from
    want=("cpus=$cpus" "usable=$(usable "$shape" "$cpus")" "pcid_erratum=$pcid_erratum")
    for k in "${keys[@]}"; do
        case $k in
        profile=*|samples=*|warmup=*|ceiling=*|emulate=*) want+=("$k") ;;
        # an initiator left out by cpus= is replaced by the BSP (with a warning)
        initiator=1) takes_part 1 "$shape" "$cpus" && want+=("$k") ;;
        pti=on) want+=(pti=1) ;;
        global_pages=on) want+=(global_pages=1) ;;
        cpus=*) want+=("cpu_list=${k#cpus=}") ;;
        esac
    done
    sim "config-$i" "$SIM" "${args[@]}" "${keys[@]}"
    what="config $i: ${args[*]} ${keys[*]}"
    unexplained=$( [ -s "$REPORT" ] && jqr '[.experiments[] | select(.status != "SUCCESS" and (.status != "SKIP" or .reason == null)) | .id] | join(",")')
    # the paging depth is the firmware's: 5 levels under --la57
    levels=4; [[ " ${args[*]} " == *" --la57 "* ]] && levels=5
    [ -s "$REPORT" ] && [ "$(jqr .method.paging_levels)" != "$levels" ] && unexplained+=" paging_levels $(jqr .method.paging_levels), want $levels"
    if clean && [ -z "$unexplained" ]; then
        ok "$what"
    else
        bad=$((bad + 1))
        not_ok "$what: exit $RC, stale $( [ -s "$REPORT" ] && stale_total), not SUCCESS/SKIP: ${unexplained:-none} (seed $SEED; rerun: build/tlbscope-sim ${args[*]} ${keys[*]}; log $LOG)"
        grep -aE '^(FAIL|ERROR)|model' "$LOG" | head -n 3 | sed 's/^/# /'
    fi
    if [ -s "$REPORT" ] && problems=$(shape_ok "$REPORT" "${want[@]}"); then
        shaped=$((shaped + 1))
        ok "config $i: exact shape (${want[*]})"
    else
        bad=$((bad + 1))
        # the first problem on the not-ok line itself: the suite's summary shows that line only
        not_ok "config $i: not the shape of ${want[*]}: $(head -n 1 <<<"$problems" | cut -c1-300) (seed $SEED; rerun: build/tlbscope-sim ${args[*]} ${keys[*]})"
        sed -n '2,5s/^/# /p' <<<"$problems"
    fi
done
echo "# SUMMARY: $COUNT randomised configurations (seed $SEED), $((COUNT - bad)) clean, $shaped with the exact shape"
[ "$bad" = 0 ]
