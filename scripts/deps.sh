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
# Another process holding the package manager's lock (unattended-upgrades, for
# minutes after a cloud machine boots) is waited for, saying so, for at most
# TLBSCOPE_APT_LOCK_TIMEOUT seconds (default 900), asking again every
# TLBSCOPE_APT_LOCK_POLL seconds (default 5).
set -euo pipefail

apt_etc=${TLBSCOPE_APT_ETC:-/etc/apt}
os_release=${TLBSCOPE_OS_RELEASE:-/etc/os-release}
lock_timeout=${TLBSCOPE_APT_LOCK_TIMEOUT:-900}
lock_poll=${TLBSCOPE_APT_LOCK_POLL:-5}

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

# apt_run ARGS...: $SUDO apt-get ARGS (its output kept back, its messages shown). While
# another process holds the package manager's lock apt-get fails at once (exit 100,
# "Could not get lock ..."): then it is run again every lock_poll seconds, with a line
# saying so every 30 s, until lock_timeout seconds have passed. Any other failure ends
# it at once.
apt_run() {
    local err rc start=$SECONDS said=-30 holder
    while :; do
        rc=0
        err=$($SUDO env LC_ALL=C DEBIAN_FRONTEND=noninteractive apt-get "$@" 2>&1 >/dev/null) || rc=$?
        if [ $rc = 0 ]; then
            [ -z "$err" ] || printf '%s\n' "$err" >&2
            [ $said -lt 0 ] || echo "deps.sh: the lock was free after $((SECONDS - start)) s; apt-get $1 done"
            return 0
        fi
        if ! grep -qE 'Could not get lock|Unable to (acquire|lock)' <<<"$err"; then
            printf '%s\n' "$err" >&2
            return $rc
        fi
        # "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 1234 (unattended-upgr)"
        holder=$(grep -oE 'held by process [0-9]+( \([^)]*\))?' <<<"$err" | head -n 1)
        if [ $((SECONDS - start)) -ge "$lock_timeout" ]; then
            printf '%s\n' "$err" >&2
            echo "deps.sh: the package manager's lock is still taken${holder:+ (${holder})} after" \
                 "$lock_timeout s; nothing installed. Try again once it is done" \
                 "(TLBSCOPE_APT_LOCK_TIMEOUT=SECONDS waits longer)." >&2
            return $rc
        fi
        if [ $((SECONDS - said)) -ge 30 ]; then
            echo "deps.sh: waiting for the package manager's lock${holder:+, ${holder}}" \
                 "(apt-get $1; at most $((lock_timeout - (SECONDS - start))) s more)"
            said=$SECONDS
        fi
        sleep "$lock_poll"
    done
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

apt_run update -qq
rest=()
for p in "${missing[@]}"; do [[ " ${backports[*]:-} " == *" $p "* ]] || rest+=("$p"); done
if [ ${#backports[@]} -gt 0 ]; then
    if ! apt_run install -y -qq -t bookworm-backports "${backports[@]}"; then
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
    apt_run install -y -qq "${rest[@]}"
fi
echo "deps.sh: done"
