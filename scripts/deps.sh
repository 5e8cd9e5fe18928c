#!/usr/bin/env bash
# Installs the Debian packages a tlbscope target needs, once; quiet when all are there.
#   scripts/deps.sh build|run|net|test|html|aarch64   (net: run + the collector and virt-fw-vars;
#   aarch64: what make ARCH=aarch64 builds and boots with; `test` includes it)
#   scripts/deps.sh source-uri SUITE   (for tests/checks/deps_sources.sh)
# On Debian bookworm, QEMU comes from bookworm-backports (QEMU 10: x2APIC under
# TCG); if that cannot be had, Debian's QEMU 7.2 is used and the tests that need
# QEMU 10 skip with a message. The backports source is added with the URI of
# the machine's own bookworm source: no mirror's host name is written here, so
# a machine behind its own mirror or proxy keeps using it.
# TLBSCOPE_APT_ETC (default /etc/apt) is where the APT sources are read and
# written, TLBSCOPE_OS_RELEASE (default /etc/os-release) names the release;
# tests point them at sample files.
set -euo pipefail

apt_etc=${TLBSCOPE_APT_ETC:-/etc/apt}
os_release=${TLBSCOPE_OS_RELEASE:-/etc/os-release}

# source_uri SUITE: prints the URI of the first enabled "deb" source carrying
# exactly SUITE (so "bookworm" does not match "bookworm-security", which
# usually lives on another host), looking in the deb822 files
# (sources.list.d/debian.sources first, then the other *.sources) and then in
# the one-line files (sources.list, sources.list.d/*.list). Returns 1 if none.
source_uri() {
    local suite=$1 f uri deb822=() oneline=()
    [ -f "$apt_etc/sources.list.d/debian.sources" ] && deb822+=("$apt_etc/sources.list.d/debian.sources")
    for f in "$apt_etc"/sources.list.d/*.sources; do
        [ -f "$f" ] && [ "$f" != "$apt_etc/sources.list.d/debian.sources" ] && deb822+=("$f")
    done
    for f in "$apt_etc/sources.list" "$apt_etc"/sources.list.d/*.list; do
        [ -f "$f" ] && oneline+=("$f")
    done
    if [ ${#deb822[@]} -gt 0 ]; then
        # stanzas end at a blank line or a file's end; "#" lines are comments;
        # a line starting with a blank continues the field above it
        uri=$(awk -v suite="$suite" '
            function reset() { types = uris = suites = last = ""; enabled = "yes" }
            function stanza(  n, u, i) {
                if (index(" " types " ", " deb ") && enabled != "no" &&
                    index(" " suites " ", " " suite " ")) {
                    n = split(uris, u, " ")
                    for (i = 1; i <= n; i++)
                        if (u[i] !~ /^cdrom:/) { print u[i]; found = 1; exit }
                }
                reset()
            }
            function norm(v) { gsub(/[ \t]+/, " ", v); sub(/^ /, "", v); sub(/ $/, "", v); return v }
            BEGIN { reset() }
            FNR == 1 && NR > 1 { stanza() }
            /^#/ { next }
            /^[ \t]*$/ { stanza(); next }
            /^[ \t]/ {
                if (last == "types") types = types " " norm($0)
                else if (last == "uris") uris = uris " " norm($0)
                else if (last == "suites") suites = suites " " norm($0)
                next
            }
            index($0, ":") {
                last = tolower(substr($0, 1, index($0, ":") - 1))
                v = norm(substr($0, index($0, ":") + 1))
                if (last == "types") types = v
                else if (last == "uris") uris = v
                else if (last == "suites") suites = v
                else if (last == "enabled") enabled = tolower(v)
            }
            END { if (!found) stanza() }' "${deb822[@]}")
        [ -n "$uri" ] && { echo "$uri"; return 0; }
    fi
    if [ ${#oneline[@]} -gt 0 ]; then
        # deb [options] URI SUITE COMPONENTS...
        uri=$(awk -v suite="$suite" '
            { sub(/#.*/, "") }
            $1 == "deb" {
                line = $0
                sub(/^[ \t]*deb[ \t]+/, "", line)
                if (line ~ /^\[/ && !sub(/^\[[^]]*\][ \t]*/, "", line)) next
                split(line, w, /[ \t]+/)
                if (w[2] == suite && w[1] !~ /^cdrom:/) { print w[1]; exit }
            }' "${oneline[@]}")
        [ -n "$uri" ] && { echo "$uri"; return 0; }
    fi
    return 1
}

if [ "${1:-}" = source-uri ]; then
    [ $# = 2 ] || { echo "usage: deps.sh source-uri SUITE" >&2; exit 2; }
    source_uri "$2"
    exit
fi

group=${1:-build}
# libsqlite3-dev, libpq-dev: tlbscope-report's fleet database (import, atlas, query)
build_pkgs=(gcc make binutils gnu-efi mtools dosfstools libjansson-dev git libsqlite3-dev libpq-dev)
run_pkgs=(ovmf qemu-system-x86)
# Bochs 2.7 runs the PCID/INVPCID cases (tests/bochs): QEMU's TCG has neither
# postgresql: tests/checks/fleetdb.sh starts a throw-away server (scripts/pg-temp.sh)
# groff-base renders tlbscope-report's generated man page (tests/checks/dist.sh)
# network boot (make run NETBOOT=..., tests/qemu/netboot.sh): nginx-light is the report
# collector (WebDAV PUT, reports/collector/); virt-fw-vars (python3-virt-firmware, from
# bookworm-backports) sets the UEFI HTTP boot URI in the variable store
net_pkgs=(nginx-light python3-virt-firmware)
test_pkgs=(libcmocka-dev clang libclang-rt-dev jq sbsigntool openssl zip unzip
           bochs bochs-term bochsbios vgabios postgresql groff-base "${net_pkgs[@]}")
html_pkgs=(chromium)
# the aarch64 app (issue 27, make ARCH=aarch64): clang's Windows/ARM64 target and
# lld-link build it, mtools makes its image, qemu-system-arm (with the same
# bookworm-backports version as qemu-system-x86: both depend on one
# qemu-system-common) and AAVMF (qemu-efi-aarch64) boot it
aarch64_pkgs=(make clang lld mtools qemu-system-arm qemu-efi-aarch64)

case "$group" in
    build) want=("${build_pkgs[@]}") ;;
    run) want=("${build_pkgs[@]}" "${run_pkgs[@]}") ;;
    net) want=("${build_pkgs[@]}" "${run_pkgs[@]}" "${net_pkgs[@]}") ;;
    test) want=("${build_pkgs[@]}" "${run_pkgs[@]}" "${test_pkgs[@]}" "${aarch64_pkgs[@]}") ;;
    html) want=("${html_pkgs[@]}") ;;
    aarch64) want=("${aarch64_pkgs[@]}") ;;
    *) echo "deps.sh: unknown group '$group' (build, run, net, test, html, aarch64)" >&2; exit 2 ;;
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

# shellcheck source=/dev/null
codename=$(. "$os_release" 2>/dev/null && echo "${VERSION_CODENAME:-}")
backports=()
# what bookworm has only in backports (virt-fw-vars) or too old (QEMU 7.2)
want_bp=()
for p in qemu-system-x86 qemu-system-arm python3-virt-firmware; do
    [[ " ${missing[*]} " == *" $p "* ]] && want_bp+=("$p")
done
if [ ${#want_bp[@]} -gt 0 ] && [ "$codename" = bookworm ]; then
    if source_uri bookworm-backports >/dev/null; then
        backports=("${want_bp[@]}")
    elif mirror=$(source_uri bookworm); then
        echo "deps.sh: adding bookworm-backports from $mirror (where bookworm comes from) for ${want_bp[*]}"
        echo "deb $mirror bookworm-backports main" |
            $SUDO tee "$apt_etc/sources.list.d/tlbscope-backports.list" >/dev/null
        backports=("${want_bp[@]}")
    else
        echo "deps.sh: no APT source for bookworm in $apt_etc/sources.list or" \
             "$apt_etc/sources.list.d/ to take a mirror from, so no bookworm-backports;" \
             "using Debian's QEMU (tests needing QEMU 10 will skip)"
    fi
fi

$SUDO apt-get update -qq >/dev/null 2>&1 || $SUDO apt-get update -qq
rest=()
for p in "${missing[@]}"; do [[ " ${backports[*]:-} " == *" $p "* ]] || rest+=("$p"); done
if [ ${#backports[@]} -gt 0 ]; then
    if ! $SUDO apt-get install -y -qq -t bookworm-backports "${backports[@]}" >/dev/null; then
        # bookworm itself has no python3-virt-firmware: only QEMU falls back
        for q in qemu-system-x86 qemu-system-arm; do
            if [[ " ${backports[*]} " == *" $q "* ]]; then
                echo "deps.sh: QEMU from bookworm-backports failed ($q); using Debian's QEMU (tests needing QEMU 10 will skip)"
                rest+=("$q")
            fi
        done
        [[ " ${backports[*]} " == *" python3-virt-firmware "* ]] &&
            echo "deps.sh: python3-virt-firmware from bookworm-backports failed (the HTTP boot test will skip)"
    fi
elif [[ " ${missing[*]} " == *" python3-virt-firmware "* ]]; then
    # no backports to take it from: the HTTP boot test skips without it
    if [ "$codename" = bookworm ]; then
        kept=()
        for p in "${rest[@]}"; do [ "$p" = python3-virt-firmware ] || kept+=("$p"); done
        rest=("${kept[@]}")
    fi
fi
if [ ${#rest[@]} -gt 0 ]; then
    $SUDO apt-get install -y -qq "${rest[@]}" >/dev/null
fi
echo "deps.sh: done"
