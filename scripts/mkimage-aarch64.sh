#!/usr/bin/env bash
# The aarch64 boot image: an 8 MiB FAT16 "superfloppy" (no partition table)
# carrying \EFI\BOOT\BOOTAA64.EFI, which UEFI finds on removable media without
# a boot entry, and an empty \tlbscope\reports\ for the reports.
# Usage: scripts/mkimage-aarch64.sh OUT.img BOOTAA64.EFI
# FAT16 on purpose: `mformat -F` (FAT32) on 8 MiB fails ("Too few clusters for
# 32 bit fat"), the ESP stays empty and AAVMF waits in its shell; every mtools
# error therefore stops the script.
set -euo pipefail
out=$1
efi=$2
tmp="$out.tmp"
rm -f "$tmp"
dd if=/dev/zero of="$tmp" bs=1M count=8 status=none
export MTOOLS_SKIP_CHECK=1
mformat -i "$tmp" -h 16 -t 32 -s 32 -v TLBSCOPE ::
mmd -i "$tmp" ::/EFI ::/EFI/BOOT ::/tlbscope ::/tlbscope/reports
mcopy -i "$tmp" "$efi" ::/EFI/BOOT/BOOTAA64.EFI
mv "$tmp" "$out"
echo "image $out: FAT16, \\EFI\\BOOT\\BOOTAA64.EFI"
