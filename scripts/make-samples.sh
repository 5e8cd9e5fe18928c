#!/usr/bin/env bash
# make samples: regenerates reports/samples from real runs of this build, at the
# current schema version (issue 31), so that the shipped samples always read as
# what the tool writes today.
#
# Usage: scripts/make-samples.sh [--out DIR] [--list] [NAME...]
#   no NAME     every sample of the list below (QEMU boots take minutes each: about
#               an hour in all on a 2-core host)
#   NAME...     only those (e.g. qemu-tcg-smp4-max sim-xeon8180-smp8)
#   --out DIR   write there instead of reports/samples (a trial; the README is
#               then left alone)
#   --list      print the list and exit
#   --index     make nothing: rewrite the README's list (and drop unlisted emulator and
#               model samples) from what reports/samples holds, e.g. after one sample
#               was remade by NAME; every listed sample must be there at the current
#               schema version
#
# Each sample is a real run: QEMU x86 (TCG, OVMF) at SMP 1, 4 and 8 (2 sockets,
# SMT, 2 NUMA nodes), QEMU aarch64 (virt, GICv3, AAVMF), Bochs with PCID and
# INVPCID, and tlbscope-sim on each of its 8 CPU profiles. Each report must
# validate and carry the schema version this build writes
# (core/report/report_common.h), else the script fails and keeps the old file.
# With every sample made (no NAME, no --out) the README's list of samples is
# rewritten from this one, between its "samples:begin" and "samples:end" lines,
# and emulator and model samples this list does not name are removed: what is
# shipped of them is exactly what was made (a machine's own sample is left for a
# person). tests/checks/samples_schema.sh checks the result.
#
# Needs: make all image (the Makefile's samples target builds them), and for
# the aarch64 and Bochs samples what scripts/deps.sh aarch64 / bochs install;
# a sample whose emulator is missing fails the script (nothing is skipped
# quietly).
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
TOOL=$here/build/tlbscope-report
SIM=$here/build/tlbscope-sim
SCHEMA=$(sed -n 's/^#define REPORT_SCHEMA_VERSION \([0-9]*\).*/\1/p' core/report/report_common.h)
SEED=2026 # tlbscope-sim's seed: a rerun of the same build makes the same model choices

# NAME|KIND|SETTINGS|WHAT: KIND qemu (SETTINGS: environment of scripts/qemu-run.sh),
# aarch64 (of scripts/qemu-run-aarch64.sh), bochs (of scripts/bochs-run.sh), sim
# (tlbscope-sim's arguments), simrun (the same, JSON only, in sim/runs/). A NAME under
# sim/ lies in its own folder: compare refuses to mix simulated and other reports.
SAMPLES=(
    "qemu-tcg-smp1-max|qemu|SMP=1|1 CPU, \`-cpu max\` (AuthenticAMD): multi-CPU experiments SKIP with reasons; default profile"
    "qemu-tcg-smp4-max|qemu|SMP=4|4 CPUs, \`-cpu max\`; default profile (\`make run SMP=4\`)"
    "qemu-tcg-smp4-skylake|qemu|SMP=4 CPU=Skylake-Server|4 CPUs, \`-cpu Skylake-Server\` (GenuineIntel decoding); default profile"
    "qemu-tcg-smp4-max-emulated|qemu|SMP=4 ARGS='profile=quick emulate=invlpgb,invpcid'|4 CPUs, \`emulate=invlpgb,invpcid\`: \`invlpgb_range\` runs **emulated**; quick profile"
    "qemu-tcg-smp8-max|qemu|SMP=8,sockets=2,cores=2,threads=2 NUMA=2 MEM=1024|8 CPUs in 2 sockets of 2 cores with SMT 2, 2 NUMA nodes, \`-cpu max\`; default profile"
    "qemu-aarch64-smp4|aarch64|SMP=4 GIC=3|aarch64: \`-M virt,gic-version=3 -cpu max\`, 4 CPUs, AAVMF (the aarch64 app, contract A)"
    "bochs-skylake-x-smp2|bochs|SMP=2 CPU=corei7_skylake_x ARGS='profile=quick'|Bochs 2.7, \`corei7_skylake_x\` (PCID, INVPCID executed), 2 CPUs; quick profile"
    "sim/sim-epyc7763-smp8|sim|--cpu epyc-7763 --cpus 8|model, AMD EPYC 7763 (PCID, INVPCID, INVLPGB), 8 CPUs; default profile"
    "sim/sim-epyc9654-smp8|sim|--cpu epyc-9654 --cpus 8|model, AMD EPYC 9654 (PCID, INVPCID, INVLPGB, LA57), 8 CPUs; default profile"
    "sim/sim-epyc7742-smp8|sim|--cpu epyc-7742 --cpus 8|model, AMD EPYC 7742 (no PCID as recorded), 8 CPUs; default profile"
    "sim/sim-epyc7551p-smp8|sim|--cpu epyc-7551p --cpus 8|model, AMD EPYC 7551P (no PCID, no INVLPGB), 8 CPUs; default profile"
    "sim/sim-xeon8180-smp8|sim|--cpu xeon-8180 --cpus 8|model, Intel Xeon Platinum 8180 (PCID, INVPCID), 8 CPUs; default profile"
    "sim/sim-xeon6330-smp8|sim|--cpu xeon-6330 --cpus 8|model, Intel Xeon Gold 6330 (PCID, INVPCID), 8 CPUs; default profile"
    "sim/sim-i912900k-smp8|sim|--cpu i9-12900k --cpus 8|model, Intel Core i9-12900K (INVLPG/global erratum at its recorded microcode: no PCID), 8 CPUs; default profile"
    "sim/sim-qemutcg-smp8|sim|--cpu qemu-tcg --cpus 8|model, QEMU TCG \`-cpu max\` as CI sees it, 8 CPUs; default profile"
    "sim/aarch64/sim-neoverse-n1-smp8|sim|--arch aarch64 --cpu neoverse-n1 --cpus 8|aarch64 model, Arm Neoverse N1 (Graviton2, Altra: no range TLBI), 8 CPUs; default profile"
    "sim/aarch64/sim-neoverse-v2-smp8|sim|--arch aarch64 --cpu neoverse-v2 --cpus 8|aarch64 model, Arm Neoverse V2 (Grace, Graviton4: range TLBI), 8 CPUs; default profile"
)
# the pooling runs (compare --group): three seeds each of 4 and 8 CPUs
for c in 4 8; do
    for s in 1 2 3; do
        SAMPLES+=("sim/runs/sim-smp$c-run$s|simrun|--cpu epyc-7763 --cpus $c --seed $s profile=quick experiments=ipi_broadcast,shootdown_lazy|model, pooling run $s of 3 at $c CPUs (quick profile, 2 experiments)")
    done
done

out=$here/reports/samples
list=0 index_only=0
names=()
while [ $# -gt 0 ]; do
    case $1 in
        --out) out=$(realpath -m "$2"); shift 2 ;;
        --list) list=1; shift ;;
        --index) index_only=1; shift ;;
        -*) echo "make-samples.sh: unknown option $1" >&2; exit 2 ;;
        *) names+=("$1"); shift ;;
    esac
done
if [ $list = 1 ]; then
    for e in "${SAMPLES[@]}"; do IFS='|' read -r n k s w <<<"$e"; printf '%-30s %-8s %s\n' "$n" "$k" "$s"; done
    exit 0
fi
all=0
[ ${#names[@]} = 0 ] && all=1
for n in "${names[@]}"; do
    printf '%s\n' "${SAMPLES[@]}" | grep -q "^$n|" || { echo "make-samples.sh: no sample $n (--list)" >&2; exit 2; }
done
[ -n "$SCHEMA" ] || { echo "make-samples.sh: no REPORT_SCHEMA_VERSION in core/report/report_common.h" >&2; exit 2; }
for b in "$TOOL" "$SIM" build/tlbscope.img; do
    [ -e "$b" ] || { echo "make-samples.sh: $b missing: make all image" >&2; exit 2; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=()

# take NAME JSON [TXT]: validated, at the current schema, into $out
take() {
    local name=$1 json=$2 txt=${3:-} v msgs
    if [ ! -s "$json" ]; then
        echo "  $name: the run wrote no report"; return 1
    fi
    v=$(jq -r .schema_version "$json" 2>/dev/null)
    if [ "$v" != "$SCHEMA" ]; then
        echo "  $name: schema_version $v, not $SCHEMA"; return 1
    fi
    if ! msgs=$("$TOOL" validate "$json" 2>&1); then
        echo "  $name: does not validate:"; sed 's/^/    /' <<<"$msgs" | head -5; return 1
    fi
    mkdir -p "$(dirname "$out/$name")"
    cp "$json" "$out/$name.json"
    [ -n "$txt" ] && cp "$txt" "$out/$name.txt"
    echo "  $name: $(jq -r '.verdict.line // .result' "$json")"
}

make_one() { # NAME KIND SETTINGS
    local name=$1 kind=$2 settings=$3 dir=$work/$(echo "$1" | tr / _) rc
    local -a kv=()
    [ "$kind" = sim ] || [ "$kind" = simrun ] || eval "kv=($settings)" # VAR=value words, quotes kept
    mkdir -p "$dir"
    echo "$name ($kind: $settings)"
    case $kind in
        qemu)
            env "${kv[@]}" RUNDIR="$dir/run" OUTDIR="$dir/out" TIMEOUT=3600 \
                scripts/qemu-run.sh --fresh --quiet >"$dir/log" 2>&1
            take "$name" "$dir/out/latest.json" "$dir/out/latest.txt" ;;
        bochs)
            env "${kv[@]}" RUNDIR="$dir/run" OUTDIR="$dir/out" TIMEOUT=7200 \
                scripts/bochs-run.sh --fresh --quiet >"$dir/log" 2>&1
            take "$name" "$dir/out/latest.json" "$dir/out/latest.txt" ;;
        aarch64)
            make -s ARCH=aarch64 image >"$dir/make.log" 2>&1 ||
                { echo "  $name: make ARCH=aarch64 image failed"; failed+=("$name"); return 1; }
            env "${kv[@]}" OUT="$dir/out" LOG="$dir/console.log" TIMEOUT=1800 \
                scripts/qemu-run-aarch64.sh build/aarch64/tlbscope.img >"$dir/log" 2>&1
            take "$name" "$(ls "$dir"/out/*.json 2>/dev/null | head -n1)" "$(ls "$dir"/out/*.txt 2>/dev/null | head -n1)" ;;
        sim|simrun)
            # shellcheck disable=SC2086
            case " $settings " in *" --seed "*) ;; *) settings="$settings --seed $SEED" ;; esac
            "$SIM" $settings --out "$dir/out" >"$dir/log" 2>&1
            if [ $kind = sim ]; then
                take "$name" "$(ls "$dir"/out/*.json 2>/dev/null | head -n1)" "$(ls "$dir"/out/*.txt 2>/dev/null | head -n1)"
            else
                take "$name" "$(ls "$dir"/out/*.json 2>/dev/null | head -n1)"
            fi ;;
    esac
    rc=$?
    [ $rc = 0 ] || { failed+=("$name"); cp "$dir/log" "$out.$(echo "$name" | tr / _).log" 2>/dev/null; }
    return $rc
}

mkdir -p "$out"
for e in "${SAMPLES[@]}"; do
    IFS='|' read -r name kind settings what <<<"$e"
    if [ $index_only = 1 ]; then
        v=$(jq -r .schema_version "$out/$name.json" 2>/dev/null)
        [ "$v" = "$SCHEMA" ] || { echo "  $name: not in $out at schema version $SCHEMA ($v)"; failed+=("$name"); }
        continue
    fi
    if [ $all = 0 ] && ! printf '%s\n' "${names[@]}" | grep -qx "$name"; then continue; fi
    make_one "$name" "$kind" "$settings"
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "make-samples.sh: ${#failed[@]} failed: ${failed[*]} (logs beside $out)" >&2
    exit 1
fi

# Every sample made into reports/samples: drop what the list does not name, rewrite the README's list.
if [ $all = 1 ] && [ "$out" = "$here/reports/samples" ]; then
    keep=$(for e in "${SAMPLES[@]}"; do IFS='|' read -r n k s w <<<"$e"; echo "$out/$n.json"; echo "$out/$n.txt"; done)
    # only what this script makes (emulators, the model): a machine's own sample stays, and
    # tests/checks/samples_schema.sh says when it needs measuring again
    find "$out" \( -name 'qemu-*' -o -name 'bochs-*' -o -path "$out/sim/*" \) \
        \( -name '*.json' -o -name '*.txt' \) | while read -r f; do
        grep -qxF "$f" <<<"$keep" || { echo "removed $f (not in the list)"; rm -f "$f"; }
    done
    qemu=$(qemu-system-x86_64 --version | head -n1 | sed 's/^QEMU emulator version //')
    table=$(mktemp)
    {
        echo "<!-- samples:begin (scripts/make-samples.sh writes this list) -->"
        echo "Made by \`make samples\` on $(date -u +%Y-%m-%d) from commit $(git rev-parse --short=12 HEAD), schema version"
        echo "$SCHEMA; QEMU $qemu (TCG) with OVMF/AAVMF, not hardware timings; the \`sim/\` ones on the"
        echo "strict TLB model (\`tlbscope-sim\`, seed $SEED), their timings the host's."
        echo
        echo "| file | what | verdict |"
        echo "|---|---|---|"
        for e in "${SAMPLES[@]}"; do
            IFS='|' read -r n k s w <<<"$e"
            echo "| \`$n\` | $w | $(jq -r '.verdict.line // .result' "$out/$n.json" | sed 's/|/\\|/g') |"
        done
        echo "<!-- samples:end -->"
    } >"$table"
    awk -v t="$table" '/^<!-- samples:begin/ { while ((getline l < t) > 0) print l; skip = 1; next }
                       /^<!-- samples:end/ { skip = 0; next } !skip' "$out/README.md" >"$work/README.md" &&
        cp "$work/README.md" "$out/README.md"
    rm -f "$table"
fi
echo "make-samples.sh: done ($out)"
