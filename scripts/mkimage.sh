#!/usr/bin/env bash
# Builds a bootable USB-stick image without root or loop devices:
#   MBR with one EFI System partition (type 0xEF) at 1 MiB, FAT32 made with
#   mkfs.fat --offset, files copied in with mtools.
# Usage: scripts/mkimage.sh OUT.img TLBSCOPE.efi SIZE_MIB CFG   (make image: 64 MiB and
#        build/tlbscope.cfg, generated from the key table in core/run/config_keys.c)
set -euo pipefail

out=$1
efi=$2
size_mib=${3:-64}
cfg=${4:?"no tlbscope.cfg given (make image writes build/tlbscope.cfg from core/run/config_keys.c)"}
here=$(cd "$(dirname "$0")/.." && pwd)

part_start=2048                                  # sectors: 1 MiB alignment
total=$((size_mib * 2048))
part_sectors=$((total - part_start))

# little-endian 32-bit value as raw bytes
le32() { printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $(($1 & 255)) $((($1 >> 8) & 255)) $((($1 >> 16) & 255)) $((($1 >> 24) & 255)))"; }

tmp="$out.tmp"
rm -f "$tmp"
dd if=/dev/zero of="$tmp" bs=1M count="$size_mib" status=none
# partition entry 1 at byte 446: not active, CHS unused (LBA only), type 0xEF
{ printf '\x00\xfe\xff\xff\xef\xfe\xff\xff'; le32 $part_start; le32 $part_sectors; } |
    dd of="$tmp" bs=1 seek=446 conv=notrunc status=none
printf '\x55\xaa' | dd of="$tmp" bs=1 seek=510 conv=notrunc status=none

fat=32
[ "$size_mib" -lt 40 ] && fat=16   # FAT32 needs 65525 clusters; small test images use FAT16
mkfs.fat -F "$fat" -n TLBSCOPE --offset "$part_start" "$tmp" $((part_sectors / 2)) >/dev/null

img="$tmp@@$((part_start * 512))"
export MTOOLS_SKIP_CHECK=1
mmd -i "$img" ::/EFI ::/EFI/BOOT ::/tlbscope ::/tlbscope/reports
mcopy -i "$img" "$efi" ::/EFI/BOOT/BOOTX64.EFI
mcopy -i "$img" "$here/startup.nsh" ::/startup.nsh
mcopy -i "$img" "$cfg" ::/tlbscope/tlbscope.cfg
mv "$tmp" "$out"
echo "image $out: MBR + FAT$fat ESP, \\EFI\\BOOT\\BOOTX64.EFI, \\startup.nsh, \\tlbscope\\tlbscope.cfg"
