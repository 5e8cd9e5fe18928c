#!/usr/bin/env bash
# Writes the tlbscope image to a USB stick: `make usb DEV=/dev/sdX [YES=1]`, or from
# the release archive, where `make dist` ships this script as write-stick.sh beside
# tlbscope.img: `./write-stick.sh /dev/sdX`.
#
#   scripts/usb-write.sh DEV IMAGE        (YES=1 in the environment: no question)
#   write-stick.sh DEV [IMAGE]            (IMAGE: the tlbscope.img beside the script)
#
# Before it writes anything it refuses, naming the reason, when
#   - DEV is not given, does not exist, or is not a block device;
#   - DEV is a partition (/dev/sdb1) rather than the whole disk (/dev/sdb);
#   - DEV holds the running system: a disk under /, /boot, /boot/efi, /efi, /usr
#     or /var, directly or through device-mapper/LVM/RAID;
#   - DEV, one of its partitions or a device built on them is mounted or is swap;
#   - DEV is neither removable (sysfs "removable" = 1) nor attached over USB;
#   - the image does not fit.
# Then it shows the device (vendor, model, size) and asks for "yes" on the
# terminal, unless YES=1. It writes with dd (conv=fsync), reads the image's
# length back and compares it.
#
# Test-only override (tests/checks/usb.sh; never needed on a real machine):
# TLBSCOPE_USB_TEST_ROOT=DIR reads DIR/sys instead of /sys, DIR/proc/mounts and
# DIR/proc/swaps instead of /proc's, and accepts a plain file as DEV, named by its
# base name in DIR/sys/class/block (DIR/dev/sdz -> DIR/sys/class/block/sdz).
# Exit status: 0 written, 1 refused or failed, 2 usage.
set -uo pipefail

me=$(basename "$0")
die() { echo "$me: refusing: $*" >&2; exit 1; }
dev=${1:-} image=${2:-}
# from the release archive: the image is the one beside the script
[ -z "$image" ] && [ -f "$(dirname "$0")/tlbscope.img" ] && image=$(dirname "$0")/tlbscope.img
root=${TLBSCOPE_USB_TEST_ROOT:-}
sys=${root:+$root}/sys
mounts=${root:-}/proc/mounts
swaps=${root:-}/proc/swaps
[ -n "$root" ] && echo "$me: TEST MODE: devices from $root (TLBSCOPE_USB_TEST_ROOT)"

if [ -z "$dev" ]; then
    echo "$me: no device: make usb DEV=/dev/sdX, or from the release: ./write-stick.sh /dev/sdX" >&2
    echo "$me: (the whole stick, not a partition; lsblk -d -o NAME,SIZE,TRAN,MODEL lists the disks)" >&2
    exit 2
fi
[ -n "$image" ] && [ -s "$image" ] || { echo "$me: no image ${image:-given} (make image; in the release, tlbscope.img beside this script)" >&2; exit 2; }

# ---- the device ----
[ -e "$dev" ] || die "$dev does not exist (plug the stick in; lsblk lists the disks)"
if [ -n "$root" ]; then
    [ -f "$dev" ] || [ -b "$dev" ] || die "$dev is not a block device"
else
    [ -b "$dev" ] || die "$dev is not a block device"
fi
real=$(readlink -f "$dev")
name=$(basename "$real")
blk=$sys/class/block/$name
[ -d "$blk" ] || die "$dev ($name) is not in $sys/class/block: not a disk this script knows"
[ -e "$blk/partition" ] &&
    die "$dev is a partition: give the whole disk ($(basename "$(dirname "$(readlink -f "$blk")")")), the image has its own partition table"

# devices built on NAME (its partitions, device-mapper/RAID holders), NAME itself first
stack_of() {
    local n=$1 d p h
    echo "$n"
    d=$(readlink -f "$sys/class/block/$n")
    for p in "$d"/*/partition; do
        [ -e "$p" ] && stack_of "$(basename "$(dirname "$p")")"
    done
    for h in "$d"/holders/*; do
        [ -e "$h" ] || [ -L "$h" ] && stack_of "$(basename "$h")"
    done
}
# the whole disks under NAME (through partitions and device-mapper/RAID slaves)
disks_of() {
    local n=$1 d s any=0
    [ -n "$n" ] && [ -e "$sys/class/block/$n" ] || return 0
    d=$(readlink -f "$sys/class/block/$n")
    if [ -e "$d/partition" ]; then
        basename "$(dirname "$d")"
        return
    fi
    for s in "$d"/slaves/*; do
        [ -e "$s" ] || [ -L "$s" ] || continue
        disks_of "$(basename "$s")"
        any=1
    done
    [ $any = 1 ] || echo "$n"
}
# /proc/mounts encodes blanks in paths as octal escapes; the source of a mount
# point's line, as a block device name (/dev/mapper/x resolves to dm-N)
source_name() { # SOURCE -> kernel name, or nothing for a non-device source
    local s=$1
    case "$s" in /dev/*) ;; *) return 0 ;; esac
    if [ -n "$root" ]; then basename "$s"; else basename "$(readlink -f "$s")"; fi
}
mount_sources() { awk -v mp="$1" '$2 == mp { print $1 }' "$mounts" 2>/dev/null; }

# 1. the disk the running system is on
system_disks=()
for mp in / /boot /boot/efi /efi /usr /var; do
    for src in $(mount_sources "$mp"); do
        for d in $(disks_of "$(source_name "$src")"); do system_disks+=("$d:$mp"); done
    done
    # also by device number, for sources /proc/mounts names vaguely (/dev/root)
    if [ -z "$root" ] && majmin=$(mountpoint -d "$mp" 2>/dev/null) && [ -e "/sys/dev/block/$majmin" ]; then
        for d in $(disks_of "$(basename "$(readlink -f "/sys/dev/block/$majmin")")"); do system_disks+=("$d:$mp"); done
    fi
done
for sd in "${system_disks[@]}"; do
    [ "${sd%%:*}" = "$name" ] &&
        die "$dev is the disk the running system is on (it holds ${sd#*:}); writing it would destroy this system"
done

# 2. mounted or swap: the disk, its partitions, anything built on them
stack=$(stack_of "$name" | sort -u)
while read -r src mp _; do
    s=$(source_name "$src")
    [ -n "$s" ] && grep -qxF -- "$s" <<<"$stack" &&
        die "$dev is in use: $src is mounted on $(printf '%b' "$mp") (unmount it first: udisksctl unmount -b $src, or umount)"
done <"$mounts"
while read -r src _; do
    s=$(source_name "$src")
    [ -n "$s" ] && grep -qxF -- "$s" <<<"$stack" && die "$dev is in use: $src is active swap"
done < <(tail -n +2 "$swaps" 2>/dev/null)

# 3. removable or on USB
removable=$(cat "$blk/removable" 2>/dev/null || echo 0)
on_usb=0
case "$(readlink -f "$blk")" in */usb[0-9]*) on_usb=1 ;; esac
[ "$removable" = 1 ] || [ $on_usb = 1 ] ||
    die "$dev is not removable and not attached over USB (sysfs removable=$removable): it looks like an internal disk"

# 4. size
sectors=$(cat "$blk/size" 2>/dev/null || echo 0)
dev_bytes=$((sectors * 512))
img_bytes=$(stat -c %s "$image")
[ "$dev_bytes" -ge "$img_bytes" ] ||
    die "$dev holds $dev_bytes bytes, the image needs $img_bytes"

# ---- confirmation ----
vendor=$(tr -s ' ' <"$blk/device/vendor" 2>/dev/null | sed 's/ *$//')
model=$(tr -s ' ' <"$blk/device/model" 2>/dev/null | sed 's/ *$//')
what="$dev: ${vendor:+$vendor }${model:-unknown model}, $((dev_bytes / 1000000)) MB$([ $on_usb = 1 ] && echo ", USB")$([ "$removable" = 1 ] && echo ", removable")"
echo "$me: $what"
echo "$me: writing $image ($img_bytes bytes) replaces everything on it."
if [ "${YES:-}" != 1 ]; then
    printf 'Type yes to write %s: ' "$dev"
    answer=""
    if [ -n "$root" ] || ! { : </dev/tty; } 2>/dev/null; then
        read -r answer || true
    else
        read -r answer </dev/tty || true
    fi
    [ "$answer" = yes ] || { echo; echo "$me: not written (answer was '${answer}', not 'yes')"; exit 1; }
fi

# ---- write, read back ----
SUDO=""
if [ ! -w "$dev" ]; then
    [ "$(id -u)" = 0 ] || ! command -v sudo >/dev/null || SUDO=sudo
    [ -n "$SUDO" ] || die "cannot write $dev (not root, no sudo)"
    echo "$me: $dev needs root: using sudo"
fi
status=progress; [ -t 2 ] || status=none
$SUDO dd if="$image" of="$dev" bs=4M conv=fsync,notrunc status=$status || die "dd failed"
sync
if $SUDO cmp -n "$img_bytes" "$image" "$dev" >/dev/null; then
    echo "$me: wrote and read back $img_bytes bytes: $dev is a tlbscope stick (boot it in UEFI mode)"
else
    echo "$me: ERROR: what was read back from $dev differs from $image" >&2
    exit 1
fi
