#!/usr/bin/env bash
# `make usb DEV=...` (scripts/usb-write.sh) refuses every device it must not
# write, and writes a stick it may. No real device is touched: the script runs
# with its test-only override TLBSCOPE_USB_TEST_ROOT pointing at a scratch tree
# that stands in for /sys, /proc/mounts and /proc/swaps, shaped as the kernel
# lays them out (class/block links into devices/.../block/NAME, partitions as
# subdirectories with a "partition" file, holders/ and slaves/ for LVM), and
# the "devices" are plain files in its dev/. Every refusal is checked to leave
# its device file unchanged. Prints TAP lines for tests/run-all.sh.
cd "$(dirname "$0")/../.." || exit 1
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
check() { # description, command...
    local d=$1; shift
    if "$@"; then ok "$d"; else not_ok "$d"; fi
}
# outside build/ (the Makefile includes every *.d under build/)
T=$(mktemp -d "${TMPDIR:-/tmp}/tlbscope-usb.XXXXXX") || exit 1
trap '[ -n "${KEEP_T:-}" ] || rm -rf "$T"' EXIT
S=$T/sys
mkdir -p "$T/dev" "$T/proc" "$S/class/block" "$S/dev/block"
USB=devices/pci0000:00/0000:00:14.0/usb2
SATA=devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0
NVME=devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0

# disk PATH NAME SIZE_MIB REMOVABLE [VENDOR MODEL]: a whole disk under sys/PATH/block/NAME
disk() {
    local d=$S/$1/block/$2
    mkdir -p "$d/device" "$d/holders" "$d/slaves"
    echo "$4" >"$d/removable"
    echo $(($3 * 2048)) >"$d/size"
    echo "${5:-ATA     }" >"$d/device/vendor"
    echo "${6:-Disk            }" >"$d/device/model"
    ln -s "../../$1/block/$2" "$S/class/block/$2"
    devfile "$2" "$3"
}
# part DISK PART: a partition of DISK
part() {
    local d
    d=$(readlink -f "$S/class/block/$1")/$2
    mkdir -p "$d/holders"
    echo 1 >"$d/partition"
    ln -s "$(realpath --relative-to="$S/class/block" "$d")" "$S/class/block/$2"
    devfile "$2" 1
}
# dm NAME SLAVE...: a device-mapper device (LVM) on SLAVEs
dm() {
    local name=$1 d=$S/devices/virtual/block/$1 s; shift
    mkdir -p "$d/slaves" "$d/holders"
    echo 0 >"$d/removable"
    ln -s "../../devices/virtual/block/$name" "$S/class/block/$name"
    for s in "$@"; do
        ln -s "$(realpath --relative-to="$(readlink -f "$S/class/block/$s")/holders" "$d")" \
            "$(readlink -f "$S/class/block/$s")/holders/$name"
        ln -s "$(realpath --relative-to="$d/slaves" "$(readlink -f "$S/class/block/$s")")" "$d/slaves/$s"
    done
}
# devfile NAME MIB: the "device": a plain file of 0xff bytes
devfile() { head -c $(($2 * 1048576)) /dev/zero | tr '\0' '\377' >"$T/dev/$1"; }

disk "$USB/2-1/2-1:1.0/host6/target6:0:0/6:0:0:0" sdz 8 1 "SanDisk " "Cruzer Blade    "
part sdz sdz1
# the running system booted from a USB disk: / on sdy1 (removable, on USB: only
# the system-disk check can refuse it)
disk "$USB/2-2/2-2:1.0/host7/target7:0:0/7:0:0:0" sdy 8 1 "Kingston" "DataTraveler    "
part sdy sdy1
# a stick with a mounted partition
disk "$USB/2-3/2-3:1.0/host8/target8:0:0/8:0:0:0" sdx 8 1
part sdx sdx1
# a stick whose partition is an LVM volume, mounted
disk "$USB/2-4/2-4:1.0/host9/target9:0:0/9:0:0:0" sdw 8 1
part sdw sdw1
dm dm-1 sdw1
# a stick with active swap on it
disk "$USB/2-5/2-5:1.0/host10/target10:0:0/10:0:0:0" sdv 8 1
part sdv sdv2
# a stick too small for the image
disk "$USB/2-6/2-6:1.0/host11/target11:0:0/11:0:0:0" sdu 1 1
# an internal SATA data disk: not removable, not on USB, not mounted
disk "$SATA/0:0:0:0" sda 8 0
# the system on an internal NVMe disk through LVM: / on dm-0 on nvme0n1p3
disk "$NVME/nvme0n1" nvme0n1 8 0 "" "Samsung SSD 980 "
part nvme0n1 nvme0n1p3
dm dm-0 nvme0n1p3
cat >"$T/proc/mounts" <<'EOF'
sysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0
proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0
/dev/mapper/vg-root / ext4 rw,relatime 0 0
/dev/nvme0n1p3 /boot ext4 rw,relatime 0 0
/dev/sdx1 /media/lab/MY\040STICK vfat rw,nosuid,nodev 0 0
/dev/dm-1 /mnt/data ext4 rw,relatime 0 0
tmpfs /run tmpfs rw,nosuid,nodev 0 0
EOF
# the fake /dev/mapper/vg-root resolves (in test mode by name) to dm-0
sed -i 's|/dev/mapper/vg-root|/dev/dm-0|' "$T/proc/mounts"
cat >"$T/proc/swaps" <<'EOF'
Filename				Type		Size		Used		Priority
/dev/sdv2                               partition	1048572		0		-2
EOF
# a second fake system, booted from the USB disk sdy
mkdir -p "$T/usbboot/proc"
ln -s "$S" "$T/usbboot/sys"
printf '/dev/sdy1 / ext4 rw 0 0\n' >"$T/usbboot/proc/mounts"
printf 'Filename\tType\tSize\tUsed\tPriority\n' >"$T/usbboot/proc/swaps"

img=$T/tlbscope-test.img
head -c 3145728 /dev/urandom >"$img"   # 3 MiB standing in for build/tlbscope.img

sum() { sha256sum "$1" | cut -d' ' -f1; }
# write NAME DEV [ROOT] [STDIN] [YES]: runs the script; keeps output and status
write() {
    local name=$1 dev=$2 root=${3:-$T} input=${4:-} yes=${5:-1}
    printf '%s\n' "$input" | TLBSCOPE_USB_TEST_ROOT=$root YES=$yes \
        scripts/usb-write.sh "$dev" "$img" >"$T/$name.out" 2>&1
    echo $? >"$T/$name.rc"
}
rc() { cat "$T/$1.rc"; }
says() { grep -q -- "$2" "$T/$1.out"; }
# refused NAME DEV WHY [ROOT]: exit 1, the reason given, the device file unchanged
refused() {
    local name=$1 dev=$2 why=$3 root=${4:-$T} before after
    before=$( [ -e "$dev" ] && sum "$dev")
    write "$name" "$dev" "$root"
    after=$( [ -e "$dev" ] && sum "$dev")
    if [ "$(rc "$name")" = 1 ] && says "$name" "refusing: .*$why" && [ "$before" = "$after" ]; then
        ok "refused: $name ($why)"
    else
        not_ok "refused: $name: want exit 1, '$why', device unchanged; got exit $(rc "$name"): $(tr '\n' ' ' <"$T/$name.out")"
    fi
}

write no-dev ""
check "no DEV: usage message, exit 2" bash -c "[ $(rc no-dev) = 2 ] && grep -q 'make usb DEV=' '$T/no-dev.out'"
refused missing "$T/dev/sdq" "does not exist"
refused partition "$T/dev/sdz1" "is a partition: give the whole disk (sdz)"
refused system-disk-usb "$T/dev/sdy" "the disk the running system is on (it holds /)" "$T/usbboot"
refused system-disk-lvm "$T/dev/nvme0n1" "the disk the running system is on (it holds /)"
refused mounted "$T/dev/sdx" "in use: /dev/sdx1 is mounted on /media/lab/MY STICK"
refused mounted-lvm "$T/dev/sdw" "in use: /dev/dm-1 is mounted on /mnt/data"
refused swap "$T/dev/sdv" "in use: /dev/sdv2 is active swap"
refused not-removable "$T/dev/sda" "not removable and not attached over USB"
refused too-small "$T/dev/sdu" "holds 1048576 bytes, the image needs 3145728"
# outside test mode a plain file is never taken for a device
before=$(sum "$T/dev/sdz")
YES=1 scripts/usb-write.sh "$T/dev/sdz" "$img" >"$T/real-mode.out" 2>&1
check "without the test override a plain file is refused: not a block device" \
    bash -c "[ $? = 1 ] && grep -q 'not a block device' '$T/real-mode.out' && [ '$before' = \"\$(sha256sum '$T/dev/sdz' | cut -d' ' -f1)\" ]"

# confirmation
before=$(sum "$T/dev/sdz")
write answer-no "$T/dev/sdz" "$T" "no" 0
check "without YES=1 it asks; answer 'no': not written, exit 1" \
    bash -c "[ $(rc answer-no) = 1 ] && grep -q 'Type yes to write' '$T/answer-no.out' && grep -q 'not written' '$T/answer-no.out'"
check "answer 'no': the stick is unchanged" test "$(sum "$T/dev/sdz")" = "$before"
write answer-eof "$T/dev/sdz" "$T" "" 0
check "without YES=1 and no answer (end of input): not written" \
    bash -c "[ $(rc answer-eof) = 1 ] && [ '$before' = \"\$(sha256sum '$T/dev/sdz' | cut -d' ' -f1)\" ]"
write answer-yes "$T/dev/sdz" "$T" "yes" 0
check "answer 'yes': written, exit 0, read back" \
    bash -c "[ $(rc answer-yes) = 0 ] && grep -q 'wrote and read back 3145728 bytes' '$T/answer-yes.out'"
check "the confirmation names the device: vendor, model, size, USB, removable" \
    says answer-yes "sdz: SanDisk Cruzer Blade, 8 MB, USB, removable"
check "the stick now starts with the image, the rest untouched" \
    bash -c "cmp -s -n 3145728 '$img' '$T/dev/sdz' && [ \$(stat -c %s '$T/dev/sdz') = 8388608 ] &&
             [ \"\$(tail -c 1 '$T/dev/sdz' | od -An -tx1 | tr -d ' ')\" = ff ]"

# through make, YES=1, the image given as USB_IMAGE
devfile sdz 8
TLBSCOPE_USB_TEST_ROOT=$T make --no-print-directory usb DEV="$T/dev/sdz" YES=1 USB_IMAGE="$img" >"$T/make.out" 2>&1
check "make usb DEV=... YES=1: written without a question" \
    bash -c "[ $? = 0 ] && ! grep -q 'Type yes' '$T/make.out' && cmp -s -n 3145728 '$img' '$T/dev/sdz'"
make --no-print-directory usb USB_IMAGE="$img" >"$T/make-nodev.out" 2>&1
check "make usb without DEV: fails, says how to call it" \
    bash -c "[ $? != 0 ] && grep -q 'make usb DEV=/dev/sdX' '$T/make-nodev.out'"
