#!/usr/bin/env bash
# scripts/deps.sh takes the mirror for bookworm-backports from the machine's
# own APT sources (no host name is written in the code). Its parser runs here
# on sample sources (deb822 and one-line) in a scratch /etc/apt, through
# `deps.sh source-uri SUITE` with TLBSCOPE_APT_ETC pointing at it; nothing is
# installed and apt-get never runs. Prints TAP lines for tests/run-all.sh.
cd "$(dirname "$0")/../.." || exit 1
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
check() { # description, command...
    local d=$1; shift
    if "$@"; then ok "$d"; else not_ok "$d"; fi
}
# Outside build/: the Makefile includes every "*.d" under build/, and these
# scratch trees hold sources.list.d directories.
base=$(mktemp -d "${TMPDIR:-/tmp}/tlbscope-deps-sources.XXXXXX") || exit 1
trap 'rm -rf "$base"' EXIT

# etc NAME: a fresh, empty scratch /etc/apt (NAMEs are unique); prints its path
etc() {
    local d=$base/$1
    mkdir -p "$d/sources.list.d"
    echo "$d"
}
# expect NAME DIR SUITE WANT: deps.sh finds WANT for SUITE (WANT "" = finds none, exit 1)
expect() {
    local got rc
    got=$(TLBSCOPE_APT_ETC=$2 scripts/deps.sh source-uri "$3" 2>&1); rc=$?
    if [ -z "$4" ]; then
        check "$1: no source for $3 (exit 1, no output)" test "$rc/$got" = "1/"
    else
        check "$1: $3 -> $4" test "$rc/$got" = "0/$4"
    fi
}

# This machine's /etc/apt/sources.list.d/debian.sources as Debian's images ship
# it (a comment inside the stanza; the security suite on another URI), alone:
# the URI must be the one the old script wrote by hand.
d=$(etc debian-image)
cat >"$d/sources.list.d/debian.sources" <<'EOF'
Types: deb
# http://snapshot.debian.org/archive/debian/20250520T000000Z
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
# http://snapshot.debian.org/archive/debian-security/20250520T000000Z
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
expect "debian.sources alone" "$d" bookworm http://deb.debian.org/debian
expect "debian.sources alone" "$d" bookworm-security http://deb.debian.org/debian-security
expect "debian.sources alone" "$d" bookworm-backports ""
# Where the old script ran, it left tlbscope-backports.list: the machine's real
# debian.sources, copied alone, must give the URI written there.
old=/etc/apt/sources.list.d/tlbscope-backports.list
if [ -f /etc/apt/sources.list.d/debian.sources ] && grep -qs '^deb .* bookworm-backports' "$old"; then
    d=$(etc this-machine)
    cp /etc/apt/sources.list.d/debian.sources "$d/sources.list.d/"
    expect "this machine's debian.sources alone" "$d" bookworm "$(awk '$1 == "deb" { print $2; exit }' "$old")"
else
    ok "this machine's debian.sources gives the URI of $old # SKIP no such pair here"
fi

# a local mirror, several URIs, continuation lines, a disabled stanza, deb-src
# only, a suite that only starts with the codename, upper-case field names:
# the first URI of the first enabled deb stanza with exactly that suite
d=$(etc deb822-variants)
cat >"$d/sources.list.d/debian.sources" <<'EOF'
Types: deb
URIs: http://security.example.invalid/debian-security
Suites: bookworm-security

Types: deb-src
URIs: http://src.example.invalid/debian
Suites: bookworm

Enabled: no
Types: deb
URIs: http://disabled.example.invalid/debian
Suites: bookworm

TYPES: deb deb-src
URIS: http://mirror.example.invalid/debian
  http://second.example.invalid/debian
SUITES: bookworm-updates
# a comment with a colon: apt drops it, the field goes on
  bookworm
Components: main contrib
Signed-By:
 -----BEGIN PGP PUBLIC KEY BLOCK-----
 .
 mDMEZ
 -----END PGP PUBLIC KEY BLOCK-----
EOF
expect "deb822 variants" "$d" bookworm http://mirror.example.invalid/debian
expect "deb822 variants: a stanza without the suite" "$d" trixie ""

# apt's mirror method (Debian cloud images) is passed through as written
d=$(etc mirror-method)
printf 'Types: deb\nURIs: mirror+file:///etc/apt/mirrors/debian.list\nSuites: bookworm bookworm-updates bookworm-backports\nComponents: main\n' \
    >"$d/sources.list.d/debian.sources"
expect "mirror+file URI" "$d" bookworm mirror+file:///etc/apt/mirrors/debian.list
expect "backports already there (deb822)" "$d" bookworm-backports mirror+file:///etc/apt/mirrors/debian.list

# another .sources file, no debian.sources, stanza ending at the file's end
d=$(etc other-sources-file)
printf 'Types: deb\nURIs: https://apt.example.invalid/debian/\nSuites: bookworm' >"$d/sources.list.d/local.sources"
expect "other .sources file, no final newline" "$d" bookworm https://apt.example.invalid/debian/

# each file ends a stanza: a disabled one at the end of debian.sources (no
# final newline) does not disable the first one of the next file
d=$(etc file-ends-stanza)
printf 'Types: deb\nURIs: http://off.example.invalid/debian\nSuites: bookworm\nEnabled: no' >"$d/sources.list.d/debian.sources"
printf 'Types: deb\nURIs: http://on.example.invalid/debian\nSuites: bookworm\n' >"$d/sources.list.d/z.sources"
expect "a file's end ends its stanza" "$d" bookworm http://on.example.invalid/debian

# classic one-line sources: comments, options in brackets, deb-src, cdrom
d=$(etc one-line)
cat >"$d/sources.list" <<'EOF'
# deb http://commented.example.invalid/debian bookworm main
deb cdrom:[Debian GNU/Linux 12.5.0 _Bookworm_ - Official amd64 DVD]/ bookworm contrib main
deb-src http://src.example.invalid/debian bookworm main
deb http://security.example.invalid/debian-security bookworm-security main
deb [arch=amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://one.example.invalid/debian bookworm main  # trailing comment
EOF
echo 'deb http://two.example.invalid/debian bookworm-backports main' >"$d/sources.list.d/backports.list"
echo 'deb http://ignored.example.invalid/debian bookworm main' >"$d/sources.list.d/old.list.disabled"
expect "one-line sources.list" "$d" bookworm http://one.example.invalid/debian
expect "one-line sources.list.d/*.list" "$d" bookworm-backports http://two.example.invalid/debian

# deb822 is preferred; one-line files are read when it has no such suite
d=$(etc both)
printf 'Types: deb\nURIs: http://deb822.example.invalid/debian\nSuites: bookworm\n' >"$d/sources.list.d/debian.sources"
echo 'deb http://oneline.example.invalid/debian bookworm main' >"$d/sources.list"
echo 'deb http://oneline.example.invalid/debian bookworm-backports main' >"$d/sources.list.d/x.list"
expect "deb822 before one-line" "$d" bookworm http://deb822.example.invalid/debian
expect "one-line when deb822 lacks the suite" "$d" bookworm-backports http://oneline.example.invalid/debian

# nothing usable: the installer must say so and fall back (checked below)
expect "no sources at all" "$(etc empty)" bookworm ""
d=$(etc only-other-suites)
printf 'Types: deb\nURIs: http://deb.example.invalid/debian\nSuites: trixie trixie-updates\n' >"$d/sources.list.d/debian.sources"
expect "only other releases" "$d" bookworm ""

# The whole installer on a pretend bookworm machine where nothing is
# installed: dpkg-query, apt-get and id are stubs on PATH (apt-get only logs
# its arguments; nothing is installed or fetched).
stubs=$base/stubs
mkdir -p "$stubs"
printf '#!/bin/sh\nexit 1\n' >"$stubs/dpkg-query"                          # nothing installed
printf '#!/bin/sh\necho "apt-get $*" >>"$APT_LOG"\n[ "$APT_FAIL_T" = 1 ] && [ "$3 $4 $5" = "-qq -t bookworm-backports" ] && exit 100\nexit 0\n' \
    >"$stubs/apt-get"
printf '#!/bin/sh\necho 0\n' >"$stubs/id"                                  # root: no sudo
chmod +x "$stubs"/*
echo 'VERSION_CODENAME=bookworm' >"$base/os-release"
# install NAME DIR: runs `deps.sh run` against DIR; sets OUT, RC, APT (the apt-get calls)
install() {
    APT_LOG=$base/$1.apt
    : >"$APT_LOG"
    OUT=$(PATH=$stubs:$PATH APT_LOG=$APT_LOG APT_FAIL_T=${APT_FAIL_T:-0} TLBSCOPE_APT_ETC=$2 \
          TLBSCOPE_OS_RELEASE=$base/os-release scripts/deps.sh run 2>&1)
    RC=$?
    APT=$(cat "$APT_LOG")
    echo "$OUT" | sed 's/^/# /'
}
backports_list() { cat "$1/sources.list.d/tlbscope-backports.list" 2>/dev/null; }
apt_installed_with_t() { grep -q -- '^apt-get install -y -qq -t bookworm-backports qemu-system-x86$' <<<"$APT"; }
apt_installed_plain_qemu() { grep -q -- '^apt-get install -y -qq [^-].* qemu-system-x86' <<<"$APT"; }

d=$(etc install-debian-sources)
cp "$base/debian-image/sources.list.d/debian.sources" "$d/sources.list.d/"
install adds "$d"
check "install: exit 0" test "$RC" = 0
check "install: says where backports come from" grep -q "adding bookworm-backports from http://deb.debian.org/debian" <<<"$OUT"
check "install: writes the backports source with that URI" \
    test "$(backports_list "$d")" = "deb http://deb.debian.org/debian bookworm-backports main"
check "install: QEMU from bookworm-backports" apt_installed_with_t

d=$(etc install-has-backports)
printf 'Types: deb\nURIs: http://mine.example.invalid/debian\nSuites: bookworm bookworm-backports\n' >"$d/sources.list.d/debian.sources"
install has-backports "$d"
check "backports already listed: nothing written, QEMU from it" \
    eval 'test -z "$(backports_list "$d")" && apt_installed_with_t'

d=$(etc install-no-source)
install no-source "$d"
check "no bookworm source: exit 0" test "$RC" = 0
check "no bookworm source: a clear message" grep -q "no APT source for bookworm in .* using Debian's QEMU" <<<"$OUT"
check "no bookworm source: nothing written, Debian's QEMU installed" \
    eval 'test ! -e "$d/sources.list.d/tlbscope-backports.list" && ! apt_installed_with_t && apt_installed_plain_qemu'

d=$(etc install-backports-fail)
cp "$base/debian-image/sources.list.d/debian.sources" "$d/sources.list.d/"
APT_FAIL_T=1 install backports-fail "$d"
check "backports install fails: falls back to Debian's QEMU, says so" \
    eval 'grep -q "QEMU from bookworm-backports failed" <<<"$OUT" && apt_installed_plain_qemu && test "$RC" = 0'

# the script itself: no mirror host name written in it
check "deps.sh writes no mirror host name" \
    bash -c '! grep -nE "(deb|security|ftp|archive)\.(debian|ubuntu)\.(org|com)" scripts/deps.sh'
check "deps.sh source-uri without a suite is a usage error (exit 2)" \
    bash -c 'scripts/deps.sh source-uri >/dev/null 2>&1; test $? = 2'
