#!/usr/bin/env bash
# Installs the Debian packages a tlbscope target needs, once; quiet when all are there.
#   scripts/deps.sh build|run|test|html
# On Debian bookworm, QEMU comes from bookworm-backports (QEMU 10: x2APIC under
# TCG); if that cannot be had, Debian's QEMU 7.2 is used and the tests that need
# QEMU 10 skip with a message.
set -euo pipefail

group=${1:-build}
build_pkgs=(gcc make binutils gnu-efi mtools dosfstools libjansson-dev git)
run_pkgs=(ovmf qemu-system-x86)
test_pkgs=(libcmocka-dev clang libclang-rt-dev jq)
html_pkgs=(chromium)

case "$group" in
    build) want=("${build_pkgs[@]}") ;;
    run) want=("${build_pkgs[@]}" "${run_pkgs[@]}") ;;
    test) want=("${build_pkgs[@]}" "${run_pkgs[@]}" "${test_pkgs[@]}") ;;
    html) want=("${html_pkgs[@]}") ;;
    *) echo "deps.sh: unknown group '$group' (build, run, test, html)" >&2; exit 2 ;;
esac

missing=()
for p in "${want[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null; then
    echo "deps.sh: missing packages (${missing[*]}) and no apt-get; install them by hand" >&2
    exit 1
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { echo "deps.sh: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
echo "deps.sh: installing ${missing[*]}"

codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
backports=()
if [[ " ${missing[*]} " == *" qemu-system-x86 "* && "$codename" == bookworm ]]; then
    if ! grep -rqs "bookworm-backports" /etc/apt/sources.list /etc/apt/sources.list.d/; then
        echo "deps.sh: adding Debian bookworm-backports for QEMU 10"
        echo "deb http://deb.debian.org/debian bookworm-backports main" |
            $SUDO tee /etc/apt/sources.list.d/tlbscope-backports.list >/dev/null
    fi
    backports=(qemu-system-x86)
fi

$SUDO apt-get update -qq >/dev/null 2>&1 || $SUDO apt-get update -qq
rest=()
for p in "${missing[@]}"; do [[ " ${backports[*]:-} " == *" $p "* ]] || rest+=("$p"); done
if [ ${#backports[@]} -gt 0 ]; then
    if ! $SUDO apt-get install -y -qq -t bookworm-backports "${backports[@]}" >/dev/null; then
        echo "deps.sh: QEMU from bookworm-backports failed; using Debian's QEMU (tests needing QEMU 10 will skip)"
        rest+=("${backports[@]}")
    fi
fi
if [ ${#rest[@]} -gt 0 ]; then
    $SUDO apt-get install -y -qq "${rest[@]}" >/dev/null
fi
echo "deps.sh: done"
