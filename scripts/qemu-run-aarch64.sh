#!/usr/bin/env bash
# Boots an aarch64 tlbscope image under qemu-system-aarch64 -M virt,gic-version=3 (or 2)
# -cpu max with AAVMF (TCG), on a copy of the image, and copies the reports the
# run wrote out of it.
# Usage: scripts/qemu-run-aarch64.sh IMAGE
# Environment: CPU (the -cpu model, max), SMP (4), MEM (512), NUMA (N: N nodes in the socket, CPUs and
# memory split evenly, an SRAT), GIC (3; 2: a GICv2, at most 8 CPUs), VIRT=1 (virtualization=on: firmware and app
# at EL2), TIMEOUT (seconds, 300), OUT (folder for the reports,
# reports/runs/aarch64), LOG (console log, OUT/console.log), ARGS ('k=v ...': the run's
# \tlbscope\tlbscope.cfg on the image copy, exit=shutdown then a key per line, as
# scripts/qemu-run.sh writes it for x86; CFG_TEXT: the whole file instead), LATEST (a folder that also gets the run's
# report as latest.json and latest.txt, as `make run` leaves them for x86), NET=1 (a virtio
# NIC on QEMU's user network: the host is 10.0.2.2, for upload=), READONLY=1 (QEMU
# sees the stick read-only, as scripts/qemu-run.sh --readonly: the app then prints the whole
# report on the console for scripts/recover-report.sh), AAVMF_CODE and AAVMF_VARS (the
# firmware and the variable store copied per run: /usr/share/AAVMF/AAVMF_CODE.fd and
# AAVMF_VARS.fd; tests/qemu/secureboot_aarch64.sh gives a store with keys enrolled), STOP_ON
# ('regex': stop QEMU as soon as the console matches this extended regex, as
# scripts/qemu-run.sh's STOP_ON: a boot that cannot finish, e.g. one the firmware refuses),
# STARTUP_NSH (a UEFI Shell script: the image copy boots AAVMF's shell, which runs it, and the
# app lies at \tlbscope\tlbscope.efi; end it with `reset -s` so QEMU exits).
# Exit status: QEMU's (0 after the app's PSCI SYSTEM_OFF, 124 on the timeout), 4 when
# STOP_ON stopped it, or 3 when the run wrote no report.
set -uo pipefail
img=$1
smp=${SMP:-4}
mem=${MEM:-512}
out=${OUT:-reports/runs/aarch64}
aavmf=/usr/share/AAVMF
code=${AAVMF_CODE:-$aavmf/AAVMF_CODE.fd}
mkdir -p "$out"
log=${LOG:-$out/console.log}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$img" "$work/disk.img"
cp "${AAVMF_VARS:-$aavmf/AAVMF_VARS.fd}" "$work/vars.fd"
export MTOOLS_SKIP_CHECK=1
# NETBOOT=tftp: no stick; AAVMF boots BOOTAA64.EFI by PXE from QEMU's own TFTP server, which
# also serves the run's tlbscope.cfg beside it. NETBOOT=http: UEFI HTTP boot from BOOT_URL (a
# folder: BOOTAA64.EFI and the tlbscope.cfg are copied to BOOT_DIR, the folder it serves), set
# as the boot URI with virt-fw-vars. Either way the report comes back on the console only.
netboot=${NETBOOT:-}
case "$netboot" in ""|tftp|http) ;; *) echo "qemu-run-aarch64.sh: NETBOOT=$netboot: expected tftp or http" >&2; exit 2 ;; esac

# the run's tlbscope.cfg: exit=shutdown unless ARGS gives exit= (QEMU ends when the app is done;
# the app's default, as on x86, is back to the firmware) and ARGS a key per line, or CFG_TEXT
if [ -n "${CFG_TEXT+set}" ]; then
    printf '%s\n' "$CFG_TEXT"
else
    echo "# written by scripts/qemu-run-aarch64.sh for this run"
    [[ " ${ARGS:-} " == *" exit="* ]] || echo exit=shutdown
    [ -n "${ARGS:-}" ] && tr -s ' ' '\n' <<<"$ARGS"
fi >"$work/tlbscope.cfg"
mcopy -o -i "$work/disk.img" "$work/tlbscope.cfg" ::/tlbscope/tlbscope.cfg ||
    { echo "qemu-run-aarch64.sh: tlbscope.cfg could not be written onto the image copy" >&2; exit 2; }
# STARTUP_NSH=file: no removable-media boot file on the image copy, so AAVMF's boot manager
# falls through to its UEFI Shell, which runs \startup.nsh from the stick (the file given);
# the app is then \tlbscope\tlbscope.efi, for the script to start (as scripts/qemu-run.sh
# --shell does on x86)
if [ -n "${STARTUP_NSH:-}" ]; then
    { mcopy -o -i "$work/disk.img" ::/EFI/BOOT/BOOTAA64.EFI "$work/tlbscope.efi" &&
        mdel -i "$work/disk.img" ::/EFI/BOOT/BOOTAA64.EFI &&
        mcopy -o -i "$work/disk.img" "$work/tlbscope.efi" ::/tlbscope/tlbscope.efi &&
        mcopy -o -i "$work/disk.img" "$STARTUP_NSH" ::/startup.nsh; } ||
        { echo "qemu-run-aarch64.sh: the image copy could not be set up for STARTUP_NSH" >&2; exit 2; }
fi
storage=(-drive "if=none,id=esp,format=raw,file=$work/disk.img$([ "${READONLY:-0}" = 1 ] && echo ,readonly=on)"
         -device virtio-blk-pci,drive=esp)
nic=(-nic none)
[ "${NET:-0}" = 1 ] && nic=(-nic user,model=virtio-net-pci)
case "$netboot" in
tftp)
    mkdir -p "$work/tftp"
    mcopy -o -i "$work/disk.img" ::/EFI/BOOT/BOOTAA64.EFI "$work/tftp/BOOTAA64.EFI" || exit 2
    cp "$work/tlbscope.cfg" "$work/tftp/tlbscope.cfg"
    storage=()
    nic=(-netdev "user,id=n0,tftp=$work/tftp,bootfile=BOOTAA64.EFI" -device virtio-net-pci,netdev=n0,romfile=) ;;
http)
    [ -n "${BOOT_URL:-}" ] && [ -d "${BOOT_DIR:-}" ] || { echo "qemu-run-aarch64.sh: NETBOOT=http needs BOOT_URL and BOOT_DIR" >&2; exit 2; }
    command -v virt-fw-vars >/dev/null || { echo "qemu-run-aarch64.sh: NETBOOT=http needs virt-fw-vars (python3-virt-firmware)" >&2; exit 2; }
    mcopy -o -i "$work/disk.img" ::/EFI/BOOT/BOOTAA64.EFI "$BOOT_DIR/BOOTAA64.EFI" || exit 2
    cp "$work/tlbscope.cfg" "$BOOT_DIR/tlbscope.cfg"
    # the boot URI as the next boot (BootNext), so AAVMF goes straight to its HTTP boot client
    # (without it, PXE over IPv4 and IPv6 first: a minute of timeouts). The empty
    # AAVMF_VARS.fd is all zeros, which virt-fw-vars cannot read; the .ms store is formatted,
    # and without its PK (setup mode) Secure Boot checks nothing
    virt-fw-vars -i "$aavmf/AAVMF_VARS.ms.fd" -o "$work/vars.fd" -d PK -d KEK -d db \
        --set-boot-uri "$BOOT_URL/BOOTAA64.EFI" >"$work/virt-fw-vars.log" 2>&1 ||
        { echo "qemu-run-aarch64.sh: virt-fw-vars failed:" >&2; cat "$work/virt-fw-vars.log" >&2; exit 2; }
    storage=()
    nic=(-netdev user,id=n0 -device virtio-net-pci,netdev=n0,romfile=) ;;
esac
machine=virt,gic-version=${GIC:-3}
[ "${VIRT:-0}" = 1 ] && machine=$machine,virtualization=on
# NUMA=N: the CPUs and the memory split evenly over N nodes of the one socket (QEMU then
# writes an ACPI SRAT with a GICC Affinity entry per CPU: Altra's quadrants in small)
numa=()
for ((node = 0; node < ${NUMA:-0}; node++)); do
    numa+=(-object "memory-backend-ram,id=mem$node,size=$((mem / NUMA))M"
        -numa "node,nodeid=$node,cpus=$((node * smp / NUMA))-$(((node + 1) * smp / NUMA - 1)),memdev=mem$node")
done
# -boot menu=on,splash-time=0: QEMU then tells the firmware (fw_cfg etc/boot-menu-wait) to wait
# 0 ms for a key before booting; without it AAVMF waits its default 5 s, idle, on every boot
# (measured: 6.8 s wall, 1.3 s CPU for a whole run at -smp 2; 1.1-1.6 s with it)
timeout "${TIMEOUT:-300}" qemu-system-aarch64 -M "$machine" -cpu "${CPU:-max}" -smp "$smp" -m "$mem" \
    -nographic "${nic[@]}" ${numa[@]+"${numa[@]}"} -no-reboot -boot menu=on,splash-time=0 \
    -drive if=pflash,format=raw,readonly=on,file="$code" \
    -drive if=pflash,format=raw,file="$work/vars.fd" \
    "${storage[@]}" \
    </dev/null >"$log" 2>&1 &
qemu=$!
stopped=0
# STOP_ON: the console is polled twice a second; the run's timeout still bounds the wait
while [ -n "${STOP_ON:-}" ] && kill -0 "$qemu" 2>/dev/null; do
    if grep -aqE -- "$STOP_ON" "$log" 2>/dev/null; then
        sleep 1 # what the firmware says next, after the line that matched
        kill "$qemu" 2>/dev/null
        stopped=1
        break
    fi
    sleep 0.5
done
wait "$qemu"
rc=$?
[ "$stopped" = 1 ] && rc=4
n=0
txt= json=
for f in $(mdir -i "$work/disk.img" -b ::/tlbscope/reports 2>/dev/null); do
    mcopy -n -o -i "$work/disk.img" "$f" "$out/" && n=$((n + 1))
    case $f in
    *.txt) txt=$out/$(basename "$f") ;;
    *.json) json=$out/$(basename "$f") ;;
    esac
done
# a network boot has no stick: the report is the one on the console (scripts/recover-report.sh)
if [ -n "$netboot" ] && json=$("$(dirname "$0")/recover-report.sh" "$log" "$out" 2>/dev/null); then
    n=1
fi
if [ -n "${LATEST:-}" ]; then
    mkdir -p "$LATEST"
    rm -f "$LATEST/latest.json" "$LATEST/latest.txt"
    [ -n "$json" ] && cp "$json" "$LATEST/latest.json"
    [ -n "$txt" ] && cp "$txt" "$LATEST/latest.txt"
fi
# the run's own summary (it ends with the verdict line), for whoever started it
[ -n "${SHOW:-}" ] && [ -n "$txt" ] && cat "$txt"
echo "qemu-system-aarch64 -smp $smp gic-version=${GIC:-3}$([ "${VIRT:-0}" = 1 ] && echo ' virtualization=on'): rc $rc$([ "$stopped" = 1 ] && echo ' (stopped: the console matched STOP_ON)'), $n report file(s) in $out/ (console: $log)"
[ -n "${LATEST:-}" ] && [ -n "$json" ] && echo "qemu-run-aarch64.sh: report $json (also $LATEST/latest.json)"
[ "$rc" = 0 ] && [ "$n" = 0 ] && rc=3
exit "$rc"
