#!/usr/bin/env bash
# make bench, second part: the tool's own overhead (issue 10). For SMP=2 and
# SMP=4 (BENCH_SMPS), three launches (RUNS) of each target wait:
#   hlt   ipi_roundtrip + shootdown_seq_vs_conc, target_wait=halt
#   spin  ipi_roundtrip, target_wait=spin
# and prints, as the median of the launches:
#   ipi p50      median over the measured pairs of each pair's latency p50
#   1-page p50   shootdown_seq_vs_conc, mode=conc, pages=1, every other CPU a target
# in TSC ticks, with the APIC mode and ICR fence the runs used; then, from the
# hlt launches, each step of the tool's own protocol (method.protocol_steps:
# the IPI round trip and the 1-page shootdown, p50 per step, median of the
# launches), so a floor above the kernel's shows where the extra goes. A launch that
# does not finish, or a number missing from its report, prints "-" and makes
# the script exit 1, so a broken path shows as well as a slow one.
# Environment: IMAGE (default build/tlbscope.img), BENCH_SMPS ("2 4"), RUNS (3),
# SAMPLES (300), BENCH_ARGS (extra tlbscope keys, e.g. apic=xapic), CPU (max).
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
BENCH_SMPS=${BENCH_SMPS:-2 4}
RUNS=${RUNS:-3}
SAMPLES=${SAMPLES:-300}
BENCH_ARGS=${BENCH_ARGS:-}
out=build/bench-overhead
rm -rf "$out"; mkdir -p "$out"
failed=0

median() { printf '%s\n' "$@" | grep -v '^-$' | sort -g | awk '{a[NR]=$1} END{ if (NR) print a[int((NR+1)/2)]; else print "-" }'; }

# launch SMP WAIT N: one boot; prints the report path (empty if none)
launch() {
    local smp=$1 wait=$2 n=$3 dir exps=ipi_roundtrip
    [ "$wait" = halt ] && exps=ipi_roundtrip,shootdown_seq_vs_conc
    dir=$out/smp$smp-$wait-$n
    SMP=$smp RUNDIR=$dir OUTDIR=$dir/reports TIMEOUT=600 \
        ARGS="profile=quick samples=$SAMPLES experiments=$exps target_wait=$wait $BENCH_ARGS" \
        scripts/qemu-run.sh --fresh --quiet >/dev/null 2>&1
    cat "$dir/report.path" 2>/dev/null
}

ipi_p50() { # report: median of the pairs' p50
    jq -r '[.experiments[] | select(.id == "ipi_roundtrip") | .results[].metrics.latency.p50] | sort
           | if length == 0 then "-" else .[(length - 1) / 2 | floor] end' "$1" 2>/dev/null || echo -
}
shootdown_p50() { # report smp
    jq -r --argjson k "$(($2 - 1))" '[.experiments[] | select(.id == "shootdown_seq_vs_conc") | .results[]
           | select(.params.mode == "conc" and .params.pages == 1 and .params.targets == $k)
           | .metrics.latency.p50] | if length == 0 then "-" else .[0] end' "$1" 2>/dev/null || echo -
}

steps() { # report: "part/step p50" lines of method.protocol_steps
    jq -r '.method.protocol_steps // {} | to_entries[] | .key as $p | .value.steps[] | "\($p)/\(.step)(\(.clock)) \(.p50_ticks)"' "$1" 2>/dev/null
}
declare -A step_vals=()
step_order=()
rows=()
for smp in $BENCH_SMPS; do
    hlt=() spin=() sd=() mode=- fence=-
    for i in $(seq 1 "$RUNS"); do
        r=$(launch "$smp" halt "$i")
        if [ -n "$r" ] && [ -s "$r" ]; then
            hlt+=("$(ipi_p50 "$r")"); sd+=("$(shootdown_p50 "$r" "$smp")")
            mode=$(jq -r '.method.apic_mode' "$r"); fence=$(jq -r '.method.icr_fence' "$r")
            while read -r name v; do
                [ -n "$name" ] || continue
                key="SMP=$smp $name"
                [ -n "${step_vals[$key]+x}" ] || step_order+=("$key")
                step_vals[$key]="${step_vals[$key]:-} $v"
            done < <(steps "$r")
        else
            hlt+=(-); sd+=(-)
        fi
        r=$(launch "$smp" spin "$i")
        if [ -n "$r" ] && [ -s "$r" ]; then spin+=("$(ipi_p50 "$r")"); else spin+=(-); fi
        echo "SMP=$smp launch $i: ipi hlt ${hlt[-1]}, ipi spin ${spin[-1]}, 1-page shootdown ${sd[-1]}"
    done
    for v in "${hlt[@]}" "${spin[@]}" "${sd[@]}"; do [ "$v" = - ] && failed=1; done
    rows+=("$(printf '%-5s %-7s %-14s %14s %14s %16s' "$smp" "$mode" "$fence" \
        "$(median "${hlt[@]}")" "$(median "${spin[@]}")" "$(median "${sd[@]}")")")
done
echo
echo "tool overhead, TSC ticks, median of $RUNS launches (QEMU ${ACCEL:-tcg} q35 -cpu ${CPU:-max}, profile=quick samples=$SAMPLES${BENCH_ARGS:+ $BENCH_ARGS}):"
printf '%-5s %-7s %-14s %14s %14s %16s\n' SMP APIC "ICR fence" "ipi p50 hlt" "ipi p50 spin" "1-page sd p50"
printf '%s\n' "${rows[@]}"
echo
echo "the tool's protocol step by step (method.protocol_steps, hlt launches), p50 in TSC ticks, median of the launches:"
for key in "${step_order[@]}"; do
    # shellcheck disable=SC2086
    printf '  %-58s %10s\n' "$key" "$(median ${step_vals[$key]})"
done
[ ${#step_order[@]} -gt 0 ] || { echo "  none: no report had method.protocol_steps"; failed=1; }
exit $failed
