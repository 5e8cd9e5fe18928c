#!/usr/bin/env bash
# Boots the tlbscope stick image under QEMU + OVMF and collects the reports.
#
# Environment (all optional):
#   SMP=4 CPU=max MEM=512 ARGS='k=v ...' QEMU=qemu-system-x86_64 QEMU_EXTRA='...'
#   (SMP may be a full -smp value, e.g. SMP=12,sockets=2,cores=3,threads=2)
#   NUMA=2               split memory and CPUs into that many NUMA nodes
#   TIMEOUT=900          hard limit for QEMU, seconds
#   IMAGE=build/tlbscope.img   the image `make image` built
#   RUNDIR=build/run     per-run files: stick.img, OVMF_VARS.fd, serial.log
#   OUTDIR=reports/runs  where new reports are copied (and latest.json/.txt)
#   CFG_TEXT=...         tlbscope.cfg for this run (default: exit=shutdown + ARGS)
#   ACCEL=tcg            QEMU accelerator
#   SECURE_BOOT=1        the machine a Secure Boot OVMF build needs: q35 with SMM and the
#                        variable flash accessible to SMM only; give that firmware in
#                        OVMF_CODE (e.g. /usr/share/OVMF/OVMF_CODE_4M.secboot.fd) and a
#                        variable store with keys enrolled in OVMF_VARS (copied per run)
#   STOP_ON='regex'      stop QEMU as soon as the serial console matches this extended
#                        regex (a run that cannot finish, e.g. a boot the firmware refuses)
#   NETBOOT=tftp|http    boot BOOTX64.EFI over the network instead of from the stick (no
#                        stick attached): PXE/TFTP from QEMU's user network (tftp=), or
#                        UEFI HTTP boot from the collector (boot URI set in the
#                        variable store with virt-fw-vars); tlbscope.cfg lies next to
#                        the binary. Without COLLECTOR_PORT a collector is started for
#                        the run (scripts/collector.sh) and upload= points at it.
#   NET=1                a NIC on QEMU's user network next to the stick (stick boot
#                        that uploads)
#   COLLECTOR_DIR=dir COLLECTOR_PORT=port   a collector the caller started (tests)
#   LOAD_OPTIONS='k=v ...'  NETBOOT=http: the boot entry's optional data, which the firmware
#                        hands the app as its load options (e.g. config_sha256=...)
#   MONITOR_ON='regex' MONITOR_CMD='nmi' MONITOR_DELAY=3
#                        once the serial console matches the regex, wait MONITOR_DELAY
#                        seconds and send MONITOR_CMD to the QEMU monitor, once (tests:
#                        an NMI while the tool owns the CPUs)
# Options:
#   --interactive  serial console on the terminal (also logged)
#   --fresh        start from a fresh copy of IMAGE (reports on the stick are dropped)
#   --readonly     attach the stick read-only
#   --shell        boot the UEFI shell instead of BOOTX64.EFI (startup.nsh runs the tool;
#                  STARTUP_NSH=file replaces the stick's startup.nsh)
#   --full         fill the stick's free space first (a full stick)
#   --quiet        no summary at the end
# Exit status: 0 COMPLETE (the RESULT line's verdict; result SUCCESS or SKIP), 1 ERROR or
# FAILURE, 2 no "TLBSCOPE DONE" (timeout or crash).
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
SMP=${SMP:-4}; CPU=${CPU:-max}; MEM=${MEM:-512}; ARGS=${ARGS:-}; NUMA=${NUMA:-}
QEMU=${QEMU:-qemu-system-x86_64}; QEMU_EXTRA=${QEMU_EXTRA:-}; TIMEOUT=${TIMEOUT:-900}
IMAGE=${IMAGE:-$here/build/tlbscope.img}; RUNDIR=${RUNDIR:-$here/build/run}
OUTDIR=${OUTDIR:-$here/reports/runs}; ACCEL=${ACCEL:-tcg}
OVMF_CODE=${OVMF_CODE:-/usr/share/OVMF/OVMF_CODE_4M.fd}
OVMF_VARS=${OVMF_VARS:-/usr/share/OVMF/OVMF_VARS_4M.fd}
SECURE_BOOT=${SECURE_BOOT:-}; STOP_ON=${STOP_ON:-}
MONITOR_ON=${MONITOR_ON:-}; MONITOR_CMD=${MONITOR_CMD:-}; MONITOR_DELAY=${MONITOR_DELAY:-3}
NETBOOT=${NETBOOT:-}; NET=${NET:-}; COLLECTOR_DIR=${COLLECTOR_DIR:-}; COLLECTOR_PORT=${COLLECTOR_PORT:-}
case "$NETBOOT" in ""|tftp|http) ;; *) echo "qemu-run.sh: NETBOOT=$NETBOOT: expected tftp or http" >&2; exit 2 ;; esac
interactive=0 fresh=0 readonly=0 shell=0 quiet=0 full=0
for a in "$@"; do
    case "$a" in
        --interactive) interactive=1 ;;
        --fresh) fresh=1 ;;
        --readonly) readonly=1 ;;
        --shell) shell=1 ;;
        --quiet) quiet=1 ;;
        --full) full=1 ;;
        *) echo "qemu-run.sh: unknown option $a" >&2; exit 2 ;;
    esac
done

mkdir -p "$RUNDIR" "$OUTDIR"
stick="$RUNDIR/stick.img"
log="$RUNDIR/serial.log"
. "$here/scripts/stick-lib.sh"

[ -f "$IMAGE" ] || { echo "qemu-run.sh: no image $IMAGE (make image)" >&2; exit 2; }
stick_copy $fresh
if [ $shell = 1 ]; then
    # no removable-media boot file: OVMF falls through to its built-in shell,
    # which runs \startup.nsh (it starts the tool as \tlbscope\tlbscope.efi)
    mcopy -o -i "$stick$part" ::/EFI/BOOT/BOOTX64.EFI "$RUNDIR/tlbscope.efi" 2>/dev/null || true
    mdel -i "$stick$part" ::/EFI/BOOT/BOOTX64.EFI 2>/dev/null || true
    mcopy -o -i "$stick$part" "$RUNDIR/tlbscope.efi" ::/tlbscope/tlbscope.efi 2>/dev/null || true
    [ -n "${STARTUP_NSH:-}" ] && mcopy -o -i "$stick$part" "$STARTUP_NSH" ::/startup.nsh
fi
own_collector=0 upload_line=""
if [ -n "$NETBOOT" ] && [ -z "$COLLECTOR_PORT" ]; then
    # `make run NETBOOT=...`: a collector of the run's own, which the report is uploaded to
    COLLECTOR_DIR=$RUNDIR/collector
    rm -rf "$COLLECTOR_DIR"
    COLLECTOR_PORT=$("$here/scripts/collector.sh" start "$COLLECTOR_DIR") || exit 2
    own_collector=1
    [[ " $ARGS ${CFG_TEXT:-} " == *upload=* ]] || upload_line="upload=http://10.0.2.2:$COLLECTOR_PORT/reports"
    trap '"$here/scripts/collector.sh" stop "$COLLECTOR_DIR"' EXIT
fi
# the configuration goes onto the image file even for --readonly: only QEMU's view is read-only
stick_config scripts/qemu-run.sh "$upload_line"
if [ $full = 1 ]; then
    # "64 807 936 bytes free": mtools groups the digits with spaces
    free=$(mdir -i "$stick$part" :: 2>/dev/null | grep 'bytes free' | sed 's/bytes free.*//' | tr -dc '0-9')
    if [ -n "$free" ] && [ "$free" -gt 0 ]; then
        head -c "$free" /dev/zero > "$RUNDIR/filler.bin"
        mcopy -o -i "$stick$part" "$RUNDIR/filler.bin" ::/filler.bin 2>/dev/null
        rm -f "$RUNDIR/filler.bin"
    fi
fi
before=$(stick_list_reports)

cp "$OVMF_VARS" "$RUNDIR/OVMF_VARS.fd"
ro=""; [ $readonly = 1 ] && ro=",readonly=on"
# the boot device: the stick, or a NIC on QEMU's user network (10.0.2.2 is this host);
# romfile= leaves the NIC to OVMF's own virtio-net driver and PXE/HTTP boot client
storage=(-drive "if=none,id=stick,format=raw,file=$stick$ro"
         -device qemu-xhci,id=xhci -device "usb-storage,bus=xhci.0,drive=stick,removable=on")
nic=(-nic none)
case "$NETBOOT" in
tftp)
    netdir=$RUNDIR/netboot
    rm -rf "$netdir"; mkdir -p "$netdir"
    mcopy -o -i "$stick$part" ::/EFI/BOOT/BOOTX64.EFI "$netdir/BOOTX64.EFI" || exit 2
    cp "$RUNDIR/tlbscope.cfg" "$netdir/tlbscope.cfg"
    storage=()
    nic=(-netdev "user,id=n0,tftp=$netdir,bootfile=BOOTX64.EFI" -device virtio-net-pci,netdev=n0,romfile=) ;;
http)
    command -v virt-fw-vars >/dev/null || { echo "qemu-run.sh: NETBOOT=http needs virt-fw-vars (python3-virt-firmware)" >&2; exit 2; }
    mcopy -o -i "$stick$part" ::/EFI/BOOT/BOOTX64.EFI "$COLLECTOR_DIR/www/BOOTX64.EFI" || exit 2
    cp "$RUNDIR/tlbscope.cfg" "$COLLECTOR_DIR/www/tlbscope.cfg"
    virt-fw-vars --input "$OVMF_VARS" --output "$RUNDIR/OVMF_VARS.fd" \
        --set-boot-uri "http://10.0.2.2:$COLLECTOR_PORT/BOOTX64.EFI" >"$RUNDIR/virt-fw-vars.log" 2>&1 ||
        { echo "qemu-run.sh: virt-fw-vars failed (see $RUNDIR/virt-fw-vars.log)" >&2; exit 2; }
    if [ -n "${LOAD_OPTIONS:-}" ]; then
        # the same boot entry (virt-fw-vars' Boot0099, BootNext) with optional data, which
        # virt-fw-vars cannot give it: through the library it is built on, with its Python
        vfv_python=$(sed -n '1s/^#! *//p' "$(command -v virt-fw-vars)")
        ${vfv_python:-python3} - "$RUNDIR/OVMF_VARS.fd" "http://10.0.2.2:$COLLECTOR_PORT/BOOTX64.EFI" \
            "$LOAD_OPTIONS" >>"$RUNDIR/virt-fw-vars.log" 2>&1 <<'EOF' ||
import sys
from virt.firmware.efi import devpath, ucs16
from virt.firmware.varstore import autodetect
store = autodetect.open_varstore(sys.argv[1])
varlist = store.get_varlist()
varlist.set_boot_entry(0x99, 'netboot BOOTX64.EFI', devpath.DevicePath.uri(sys.argv[2]),
                       bytes(ucs16.from_string(sys.argv[3])))
varlist.set_boot_next(0x99)
store.write_varstore(sys.argv[1], varlist)
EOF
            { echo "qemu-run.sh: LOAD_OPTIONS could not be set (see $RUNDIR/virt-fw-vars.log)" >&2; exit 2; }
    fi
    storage=()
    nic=(-netdev user,id=n0 -device virtio-net-pci,netdev=n0,romfile=) ;;
*)
    if [ -n "$NET" ] && [ "$NET" != 0 ]; then
        # the stick first: without a boot order OVMF would try PXE on the NIC before it
        storage[${#storage[@]}-1]+=",bootindex=0"
        nic=(-netdev user,id=n0 -device virtio-net-pci,netdev=n0,romfile=)
    fi ;;
esac
if [ $interactive = 1 ]; then
    serial=(-chardev "stdio,id=ser0,logfile=$log,signal=on" -serial chardev:ser0)
else
    serial=(-chardev "file,id=ser0,path=$log" -serial chardev:ser0)
fi
rm -f "$log" "$OUTDIR/latest.json" "$OUTDIR/latest.txt" "$RUNDIR/registers.txt"
# a monitor on loopback: when a run outlives its limit, every CPU's registers
# are saved before QEMU is stopped, so a hang can be located
monitor_port=$(( 20000 + (RANDOM % 20000) ))
numa=()
if [ -n "$NUMA" ] && [ "$NUMA" -gt 1 ]; then
    ncpu=${SMP%%,*}
    per_mem=$((MEM / NUMA)); per_cpu=$((ncpu / NUMA))
    for ((n = 0; n < NUMA; n++)); do
        first=$((n * per_cpu)); last=$(( n == NUMA - 1 ? ncpu - 1 : first + per_cpu - 1 ))
        numa+=(-object "memory-backend-ram,id=numa$n,size=${per_mem}M"
               -numa "node,nodeid=$n,cpus=$first-$last,memdev=numa$n")
    done
    MEM=$((per_mem * NUMA))
fi
machine=q35 secure=()
if [ -n "$SECURE_BOOT" ] && [ "$SECURE_BOOT" != 0 ]; then
    machine=q35,smm=on
    secure=(-global "driver=cfi.pflash01,property=secure,value=on")
fi
# shellcheck disable=SC2086
cmd=("$QEMU" -machine "$machine" "${secure[@]}" -accel "$ACCEL" -m "$MEM" -smp "$SMP" -cpu "$CPU"
     -drive "if=pflash,format=raw,unit=0,readonly=on,file=$OVMF_CODE"
     -drive "if=pflash,format=raw,unit=1,file=$RUNDIR/OVMF_VARS.fd"
     "${storage[@]}" -display none -vga none "${nic[@]}" -no-reboot
     -monitor "tcp:127.0.0.1:$monitor_port,server,nowait"
     "${numa[@]}" "${serial[@]}" $QEMU_EXTRA)
echo "${cmd[*]}" > "$RUNDIR/qemu.cmd"
start=$(date +%s)
"${cmd[@]}" 2> >(tee "$RUNDIR/qemu.err" >&2) &
qemu_pid=$!
qemu_rc="" stopped=0 monitor_sent=0
while kill -0 "$qemu_pid" 2>/dev/null; do
    if [ -n "$MONITOR_ON" ] && [ $monitor_sent = 0 ] && grep -aqE -- "$MONITOR_ON" "$log" 2>/dev/null; then
        monitor_sent=1
        sleep "$MONITOR_DELAY"
        if exec 4<>"/dev/tcp/127.0.0.1/$monitor_port" 2>/dev/null; then
            printf '%s\n' "$MONITOR_CMD" >&4
            sleep 1
            exec 4>&-
            echo "qemu-run.sh: sent '$MONITOR_CMD' to the monitor" >> "$RUNDIR/monitor.log"
        fi
    fi
    if [ -n "$STOP_ON" ] && grep -aqE -- "$STOP_ON" "$log" 2>/dev/null; then
        sleep 1   # let the line that matched be followed by what the firmware says next
        kill "$qemu_pid" 2>/dev/null
        stopped=1
        break
    fi
    if firmware_spinning "$log"; then # (stick-lib.sh)
        echo "qemu-run.sh: the firmware's exception handler took an exception (the dump is in $log); stopped" >&2
        kill "$qemu_pid" 2>/dev/null; sleep 2; kill -9 "$qemu_pid" 2>/dev/null
        qemu_rc=125
        break
    fi
    if [ $(( $(date +%s) - start )) -ge "$TIMEOUT" ]; then
        if exec 3<>"/dev/tcp/127.0.0.1/$monitor_port" 2>/dev/null; then
            printf 'info registers -a\ninfo lapic\n' >&3
            sleep 2
            timeout 3 cat <&3 > "$RUNDIR/registers.txt" 2>/dev/null
            exec 3>&-
            echo "qemu-run.sh: limit of ${TIMEOUT}s reached; CPU registers saved in $RUNDIR/registers.txt" >&2
        fi
        kill "$qemu_pid" 2>/dev/null
        sleep 5
        kill -9 "$qemu_pid" 2>/dev/null
        qemu_rc=124
        break
    fi
    # a fifth of a second: the checks above are a few greps, and a run that ends waits for
    # this poll (make test boots QEMU about 80 times; at 1 s they waited 40 s in all)
    sleep 0.2
done
wait "$qemu_pid" 2>/dev/null
rc_wait=$?
[ -n "$qemu_rc" ] || qemu_rc=$rc_wait
elapsed=$(( $(date +%s) - start ))

# collect new reports from the stick, else recover them from the serial log
stick_collect "$before" qemu-run.sh
if [ $own_collector = 1 ]; then
    mkdir -p "$OUTDIR/uploaded"
    cp "$COLLECTOR_DIR"/www/reports/* "$OUTDIR/uploaded/" 2>/dev/null &&
        echo "qemu-run.sh: uploaded to the collector: $(ls "$COLLECTOR_DIR/www/reports" | tr '\n' ' ')(copied to $OUTDIR/uploaded)"
fi

serial_verdict
if [ ! -s "$clean" ]; then
    echo "qemu-run.sh: QEMU printed nothing on the serial port (exit $qemu_rc):" >&2
    grep -v "TCG doesn't support" "$RUNDIR/qemu.err" | head -5 >&2
fi
if [ $rc = 2 ]; then
    [ "$qemu_rc" = 124 ] && why="$why: QEMU killed after ${TIMEOUT}s"
    [ "$qemu_rc" = 125 ] && why="$why: stopped after the firmware's exception dump"
    [ $stopped = 1 ] && why="$why: stopped, the console matched STOP_ON"
fi
if [ $quiet = 0 ]; then
    echo
    if [ $interactive = 0 ] && [ -f "$OUTDIR/latest.txt" ] && [ -n "$latest_json" ]; then cat "$OUTDIR/latest.txt"; fi
    echo "qemu-run.sh: ${elapsed}s, SMP=$SMP CPU=$CPU, result ${result:-none}, exit $rc${why:+ ($why)}"
    [ -n "$latest_json" ] && echo "qemu-run.sh: report $latest_json (also $OUTDIR/latest.json)"
    echo "qemu-run.sh: serial log $log"
fi
exit $rc
