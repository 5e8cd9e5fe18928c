#!/usr/bin/env bash
# Boots the tlbscope stick image under Bochs 2.7 + OVMF and collects the reports.
# Bochs executes PCID, CR4.PCIDE, MOV CR3 with the no-flush bit and INVPCID with
# their #GP checks (QEMU's TCG has none of them), on real SMP paths. Its TLB has
# no PCID tags, so a run proves the instructions execute, not that an
# invalidation is sufficient: the strict model (tlbscope-sim) proves that.
#
# Environment (all optional):
#   SMP=2                CPUs (Bochs's cpu: count=)
#   CPU=corei7_skylake_x a Bochs CPU model (`bochs -help cpu`); with PCID, INVPCID and
#                        x2APIC: corei7_haswell_4770, broadwell_ult, corei7_skylake_x,
#                        corei3_cnl, corei7_icelake_u, tigerlake. bx_generic takes its
#                        features from BOCHS_CPUID (default: PCID without INVPCID)
#   BOCHS_CPUID='...'    the cpuid: line for bx_generic
#   MEM=512 ARGS='k=v ...' TIMEOUT=300 (hard limit, seconds) IPS=50000000
#   IMAGE=build/tlbscope.img   RUNDIR=build/bochs-run   OUTDIR=reports/runs
#   CFG_TEXT=...         tlbscope.cfg for this run (default: exit=shutdown + ARGS)
#   BOCHS=bochs OVMF_FD=/usr/share/ovmf/OVMF.fd VGABIOS=/usr/share/vgabios/vgabios.bin
#   EMULATOR_KEY=bochs   the emulator= key added to the configuration; EMULATOR_KEY=
#                        (empty) leaves it out, to show what CPUID alone says
# Options: --fresh (a fresh copy of IMAGE), --quiet (no summary at the end)
# Exit status as scripts/qemu-run.sh: 0 COMPLETE (SUCCESS or SKIP), 1 ERROR or FAILURE,
# 2 no "TLBSCOPE DONE" (timeout, crash, or Bochs could not start).
#
# Bochs 2.7 as found on Debian bookworm (platform notes, and docs/sim.md, "Bochs"):
#  - it has no fw_cfg, so OVMF publishes no ACPI or SMBIOS tables: the report
#    says both are absent, the CPUs come from MP services and CPUID;
#  - Debian's 4 MiB OVMF does not fit its ROM space: the 2 MiB OVMF.fd does;
#  - OVMF sees no disk on its xHCI or EHCI USB stick ("map: No mapping
#    found"), so the stick image goes in as an ATA disk (the same bytes);
#  - its reports look like hardware (no hypervisor bit, a real Intel brand
#    string): emulator=bochs, which the report records, is what marks them,
#    and it also keeps the APIC in xAPIC (Bochs ignores APIC base writes while
#    disabled, so the x2APIC -> xAPIC hand-back hangs; core/run/hw_policy.h);
#  - its debugger is compiled in and stops before the first instruction: the
#    -rc file continues; there is no "nogui": the rfb display, not waiting
#    for a client;
#  - with ignore_bad_msrs=1 (the usual setting) an MSR it lacks reads 0
#    instead of faulting, which would put invented SMI counts and boost bits
#    in the report: 0 here, with the two MSRs OVMF and the tool need defined;
#  - it exits 1 on the tool's soft power-off (an ACPI "panic"): the serial
#    log's sentinel says how the run went, not Bochs's status.
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
SMP=${SMP:-2}; CPU=${CPU:-corei7_skylake_x}; MEM=${MEM:-512}; ARGS=${ARGS:-}
TIMEOUT=${TIMEOUT:-300}; IPS=${IPS:-50000000}; BOCHS=${BOCHS:-bochs}
IMAGE=${IMAGE:-$here/build/tlbscope.img}; RUNDIR=${RUNDIR:-$here/build/bochs-run}
OUTDIR=${OUTDIR:-$here/reports/runs}
OVMF_FD=${OVMF_FD:-/usr/share/ovmf/OVMF.fd}
VGABIOS=${VGABIOS:-/usr/share/vgabios/vgabios.bin}
BOCHS_CPUID=${BOCHS_CPUID:-level=6, family=6, model=0x1a, stepping=5, x86_64=1, mmx=1, sep=1, simd=sse4_2, apic=x2apic, pcid=1, 1g_pages=1, xsave=1}
EMULATOR_KEY=${EMULATOR_KEY-bochs}
fresh=0 quiet=0
for a in "$@"; do
    case "$a" in
        --fresh) fresh=1 ;;
        --quiet) quiet=1 ;;
        *) echo "bochs-run.sh: unknown option $a" >&2; exit 2 ;;
    esac
done

mkdir -p "$RUNDIR" "$OUTDIR"
stick="$RUNDIR/stick.img"
log="$RUNDIR/serial.log"
. "$here/scripts/stick-lib.sh"

[ -f "$IMAGE" ] || { echo "bochs-run.sh: no image $IMAGE (make image)" >&2; exit 2; }
for f in "$OVMF_FD" "$VGABIOS"; do
    [ -f "$f" ] || { echo "bochs-run.sh: no $f (apt-get install ovmf vgabios)" >&2; exit 2; }
done
command -v "$BOCHS" >/dev/null || { echo "bochs-run.sh: no $BOCHS (apt-get install bochs bochs-term bochsbios)" >&2; exit 2; }
# a killed Bochs leaves its image lock behind, and the next one refuses the disk
rm -f "$stick.lock"
stick_copy $fresh
# the harness knows it started an emulator; the tool cannot tell from CPUID
stick_config scripts/bochs-run.sh "${EMULATOR_KEY:+emulator=$EMULATOR_KEY}"
before=$(stick_list_reports)

cpuid_line=""
[ "$CPU" = bx_generic ] && cpuid_line="cpuid: $BOCHS_CPUID"
# Bochs answers an MSR it lacks with a #GP only under ignore_bad_msrs=0; with 1
# it reads 0, and the report would record an SMI counter (MSR 0x34), a boost
# bit (0x1a0) and APERF/MPERF readings that do not exist. OVMF needs
# IA32_PLATFORM_ID and the tool reads the microcode revision unprobed (both
# exist on every Intel CPU): those two are defined, reading 0, the rest fault.
cat > "$RUNDIR/msrs.def" <<EOF
# ADDRESS TYPE RESET_HI RESET_LO RSRVD_HI RSRVD_LO IGNRD_HI IGNRD_LO (Bochs msrs= format)
# IA32_PLATFORM_ID, which OVMF reads
0x017 0 00000000 00000000 00000000 00000000 00000000 00000000
# IA32_BIOS_SIGN_ID, the microcode revision: Bochs has none, so 0
0x08b 0 00000000 00000000 00000000 00000000 00000000 00000000
EOF
cat > "$RUNDIR/bochsrc" <<EOF
# written by scripts/bochs-run.sh for this run
memory: guest=$MEM, host=$MEM
romimage: file="$OVMF_FD"
vgaromimage: file="$VGABIOS"
cpu: model=$CPU, count=$SMP, ips=$IPS, ignore_bad_msrs=0, msrs="$RUNDIR/msrs.def", reset_on_triple_fault=0
$cpuid_line
pci: enabled=1, chipset=i440fx
ata0-master: type=disk, mode=flat, path="$stick"
boot: disk
com1: enabled=1, mode=file, dev="$log"
display_library: rfb, options="timeout=0"
log: "$RUNDIR/bochs.log"
panic: action=fatal
error: action=report
info: action=ignore
debug: action=ignore
EOF
echo c > "$RUNDIR/debugger.rc"
rm -f "$log" "$OUTDIR/latest.json" "$OUTDIR/latest.txt"
cmd=("$BOCHS" -q -f "$RUNDIR/bochsrc" -rc "$RUNDIR/debugger.rc")
echo "${cmd[*]}" > "$RUNDIR/bochs.cmd"
start=$(date +%s)
"${cmd[@]}" </dev/null >"$RUNDIR/bochs.out" 2>&1 &
bochs_pid=$!
bochs_rc="" done_at=""
while kill -0 "$bochs_pid" 2>/dev/null; do
    now=$(date +%s)
    # the power-off follows the sentinel; a Bochs that lingers is stopped
    if [ -z "$done_at" ] && grep -aq '^TLBSCOPE DONE' "$log" 2>/dev/null; then
        done_at=$now
    fi
    if [ -n "$done_at" ] && [ $((now - done_at)) -ge 30 ]; then
        kill "$bochs_pid" 2>/dev/null
        break
    fi
    if firmware_spinning "$log"; then # (stick-lib.sh)
        echo "bochs-run.sh: the firmware's exception handler took an exception (the dump is in $log); stopped" >&2
        kill "$bochs_pid" 2>/dev/null; sleep 2; kill -9 "$bochs_pid" 2>/dev/null
        bochs_rc=125
        break
    fi
    if [ $((now - start)) -ge "$TIMEOUT" ]; then
        echo "bochs-run.sh: limit of ${TIMEOUT}s reached; Bochs stopped" >&2
        kill "$bochs_pid" 2>/dev/null
        sleep 5
        kill -9 "$bochs_pid" 2>/dev/null
        bochs_rc=124
        break
    fi
    sleep 1
done
wait "$bochs_pid" 2>/dev/null
rc_wait=$?
[ -n "$bochs_rc" ] || bochs_rc=$rc_wait
elapsed=$(( $(date +%s) - start ))
rm -f "$stick.lock"

# collect new reports from the stick (mtools reads Bochs's disk image as it
# left it), else recover them from the serial log
stick_collect "$before" bochs-run.sh

serial_verdict
if [ ! -s "$clean" ]; then
    echo "bochs-run.sh: Bochs printed nothing on the serial port (exit $bochs_rc):" >&2
    grep -aE 'PANIC|ERROR|>>' "$RUNDIR/bochs.log" "$RUNDIR/bochs.out" 2>/dev/null | head -5 >&2
fi
[ $rc = 2 ] && [ "$bochs_rc" = 124 ] && why="$why: Bochs killed after ${TIMEOUT}s"
[ $rc = 2 ] && [ "$bochs_rc" = 125 ] && why="$why: stopped after the firmware's exception dump"
if [ $quiet = 0 ]; then
    echo
    if [ -f "$OUTDIR/latest.txt" ] && [ -n "$latest_json" ]; then cat "$OUTDIR/latest.txt"; fi
    echo "bochs-run.sh: ${elapsed}s, SMP=$SMP CPU=$CPU, result ${result:-none}, exit $rc${why:+ ($why)} (Bochs exited $bochs_rc)"
    [ -n "$latest_json" ] && echo "bochs-run.sh: report $latest_json (also $OUTDIR/latest.json)"
    echo "bochs-run.sh: serial log $log"
fi
exit $rc
