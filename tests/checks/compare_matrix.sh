#!/usr/bin/env bash
# Vendor against vendor (issue 31, item 1): fresh 2-CPU quick reports of every
# model profile of tlbscope-sim, compared pairwise (all 28 pairs of the 8), each
# exit 0 with at least one compared point (a ratio) in every experiment both
# measured; and a fresh QEMU report (the newest one tests/qemu/ left under
# build/test-runs, else the newest shipped sample standing in for it) against
# every shipped sample, the same requirement. A sample at an older schema that
# fails it is named in the TAP line. Prints TAP lines for tests/run-all.sh.
cd "$(dirname "$0")/../.." || exit 1
TOOL=build/tlbscope-report
SIM=build/tlbscope-sim
out=build/test-runs/compare-matrix
rm -rf "$out" && mkdir -p "$out"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }

# every experiment that two sides both measured has a row with a ratio
EVERY_SHARED='[.experiments[] | select([.rows[].cells[].side] + [.unmatched[].cells[].side] | unique | length >= 2)
               | [.rows[].cells[] | select(.ratio != null)] | length > 0] | all'

# compare_pair NAME A B: exit 0 and EVERY_SHARED, else the failing experiments printed
compare_pair() {
    local name=$1 a=$2 b=$3 rc
    "$TOOL" compare --json "$a" "$b" >"$out/$name.json" 2>"$out/$name.err"
    rc=$?
    if [ "$rc" = 0 ] && jq -e "$EVERY_SHARED" "$out/$name.json" >/dev/null; then
        return 0
    fi
    echo "# $name: exit $rc; experiments without a compared point:" \
        "$(jq -r '[.experiments[] | select([.rows[].cells[] | select(.ratio != null)] | length == 0) | .id] | join(" ")' \
            "$out/$name.json" 2>/dev/null)"
    sed 's/^/#   /' "$out/$name.err" | head -n 5
    return 1
}

# ---- the eight model profiles, 2 CPUs, quick (about 2 s each) ----
mapfile -t PROFILES < <("$SIM" --cpu list | awk '{ print $1 }')
declare -A REP=()
for p in "${PROFILES[@]}"; do
    nice "$SIM" --cpu "$p" --cpus 2 --seed 31 --out "$out/sim-$p" profile=quick samples=10 warmup=1 \
        run_budget_s=0 >"$out/sim-$p.log" 2>&1
    REP[$p]=$(sed -n 's/^Report saved: //p' "$out/sim-$p.log" | head -n1)
done
made=0
for p in "${PROFILES[@]}"; do [ -s "${REP[$p]}" ] && made=$((made + 1)); done
if [ "${#PROFILES[@]}" = 8 ] && [ "$made" = 8 ]; then
    ok "tlbscope-sim wrote a 2-CPU quick report of each of the 8 model profiles"
else
    not_ok "tlbscope-sim wrote $made reports of ${#PROFILES[@]} profiles (8 expected; see $out/sim-*.log)"
fi
pairs=0 bad=()
for ((i = 0; i < ${#PROFILES[@]}; i++)); do
    for ((j = i + 1; j < ${#PROFILES[@]}; j++)); do
        a=${PROFILES[$i]} b=${PROFILES[$j]}
        pairs=$((pairs + 1))
        compare_pair "$a-vs-$b" "${REP[$a]}" "${REP[$b]}" || bad+=("$a/$b")
    done
done
if [ "$pairs" = 28 ] && [ "${#bad[@]}" = 0 ]; then
    ok "all 28 pairs of model profiles compare: exit 0, a compared point in every shared experiment"
else
    not_ok "model profile pairs that do not compare (of $pairs): ${bad[*]}"
fi
# the issue's own case: the target CPU (1 on one machine, 2 on the other) is a role
"$SIM" --cpu epyc-7763 --cpus 4 --seed 31 --out "$out/epyc4" profile=quick samples=10 warmup=1 \
    run_budget_s=0 >"$out/epyc4.log" 2>&1
"$SIM" --cpu xeon-8180 --cpus 4 --seed 31 --out "$out/xeon4" profile=quick samples=10 warmup=1 \
    run_budget_s=0 >"$out/xeon4.log" 2>&1
E4=$(sed -n 's/^Report saved: //p' "$out/epyc4.log" | head -n1)
X4=$(sed -n 's/^Report saved: //p' "$out/xeon4.log" | head -n1)
if compare_pair epyc4-vs-xeon4 "$E4" "$X4" &&
   [ "$(jq '[.experiments[] | select(.id == "ipi_target_state") | .rows[].cells[] | select(.ratio != null)] | length' \
        "$out/epyc4-vs-xeon4.json")" -ge 5 ]; then
    ok "4-CPU EPYC 7763 vs Xeon 8180: exit 0, ipi_target_state matched by state (target CPU 1 vs 2)"
else
    not_ok "4-CPU EPYC 7763 vs Xeon 8180: ipi_target_state not compared by state"
fi
"$TOOL" compare "$E4" "$X4" >"$out/epyc4-vs-xeon4.txt" 2>&1
if tr '\n' ' ' <"$out/epyc4-vs-xeon4.txt" | tr -s ' ' |
   grep -q 'role: target names a CPU, matched as a role: the one each report used (.*: CPU 1; .*: CPU 2)'; then
    ok "the text says the target was matched as a role, with each side's CPU"
else
    not_ok "the text does not say that the target was matched as a role"
fi

# ---- a fresh QEMU report against every shipped sample ----
FRESH=
for f in $(ls -t build/test-runs/*/report.path 2>/dev/null); do
    r=$(cat "$f")
    if [ -s "$r" ] && jq -e '(.architecture // "x86_64") == "x86_64" and (.simulation == null) and
            .cpu.hypervisor != null' "$r" >/dev/null 2>&1 && "$TOOL" validate "$r" >/dev/null 2>&1; then
        FRESH=$r
        break
    fi
done
SAMPLES=(reports/samples/qemu-*.json)
what="a fresh QEMU report ($FRESH)"
if [ -z "$FRESH" ]; then # no QEMU test ran in this tree: the newest sample stands in
    FRESH=$(ls -t "${SAMPLES[@]}" | head -n1)
    what="the newest sample standing in for a fresh QEMU report ($(basename "$FRESH"))"
fi
cp "$FRESH" "$out/fresh-qemu.json" # another file: a sample is not compared with itself
for s in "${SAMPLES[@]}"; do
    b=$(basename "$s" .json)
    v=$(jq .schema_version "$s")
    if compare_pair "qemu-vs-$b" "$s" "$out/fresh-qemu.json"; then
        ok "$what vs sample $b (schema $v): exit 0, a compared point in every shared experiment"
    else
        not_ok "$what vs sample $b (schema $v): not every shared experiment compared"
    fi
done
echo "1..$n"
