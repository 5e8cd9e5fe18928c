#!/usr/bin/env bash
# `make dist`: the release archive holds what a user needs and nothing is
# wrong in it. Builds it (build/dist/), unpacks it in a scratch folder and
# checks names (the VERSION file, -dirty for a modified tree), contents against
# the image and the sources, SHA256SUMS (and that a changed byte fails them),
# the .zip against the stick tree, the .sbat line, USB.md, BUILDINFO, that the
# host tool builds from its source alone and the static one runs; then
# `make dist SIGNED=1` with the test key carries a binary that verifies
# against the certificate it ships. Prints TAP lines for tests/run-all.sh.
cd "$(dirname "$0")/../.." || exit 1
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
check() { # description, command...
    local d=$1; shift
    if "$@"; then ok "$d"; else not_ok "$d"; fi
}
quietly() { "$@" >/dev/null 2>&1; }
export MTOOLS_SKIP_CHECK=1 LC_ALL=C
# outside build/ (the Makefile includes every *.d under build/)
T=$(mktemp -d "${TMPDIR:-/tmp}/tlbscope-dist.XXXXXX") || exit 1
trap '[ -n "${KEEP_T:-}" ] || rm -rf "$T"' EXIT

if ! make --no-print-directory dist >"$T/dist.log" 2>&1; then
    not_ok "make dist (log: $(tail -n 5 "$T/dist.log" | tr '\n' ' '))"
    exit 1
fi
ok "make dist"
VERSION=$(cat VERSION)
eval "$(make -s --no-print-directory version | sed -n 's/^commit /COMMIT=/p; s/^release /NAME=/p')"
want=tlbscope-$VERSION
case "$COMMIT" in *-dirty) want=$want-dirty ;; esac
check "release name $NAME: tlbscope-<VERSION file>, -dirty exactly when the tree is ($COMMIT)" test "$NAME" = "$want"
D=build/dist
check "build/dist has $NAME.tar.gz, $NAME.zip and SHA256SUMS" \
    test -s "$D/$NAME.tar.gz" -a -s "$D/$NAME.zip" -a -s "$D/SHA256SUMS"
check "build/dist/SHA256SUMS lists both archives and they match" \
    bash -c "cd $D && [ \$(wc -l <SHA256SUMS) = 2 ] && sha256sum --quiet -c SHA256SUMS"

tar -xzf "$D/$NAME.tar.gz" -C "$T"
R=$T/$NAME
missing=()
for f in tlbscope.img stick/EFI/BOOT/BOOTX64.EFI stick/startup.nsh stick/tlbscope/tlbscope.cfg \
         USB.md BUILDINFO SHA256SUMS host-tool/Makefile host-tool/reports/tool/main.c \
         host-tool/reports/SCHEMA.md host-tool/recover-report.sh host-tool/collector/nginx.conf.in; do
    [ -s "$R/$f" ] || missing+=("$f")
done
[ -d "$R/stick/tlbscope/reports" ] || missing+=(stick/tlbscope/reports/)
check "the archive is one folder $NAME/ with the image, the stick tree, USB.md, BUILDINFO, SHA256SUMS, the host tool's source${missing:+ (missing: ${missing[*]})}" \
    test ${#missing[@]} = 0
check "every entry is owned by 0/0, nothing outside $NAME/" \
    bash -c "[ -z \"\$(tar -tzvf '$D/$NAME.tar.gz' | awk '\$2 != \"0/0\"')\" ] &&
             [ -z \"\$(tar -tzf '$D/$NAME.tar.gz' | grep -v '^$NAME/')\" ]"

# checksums
check "SHA256SUMS: every file in the folder verifies" bash -c "cd '$R' && sha256sum --quiet -c SHA256SUMS"
check "SHA256SUMS lists every file but itself" \
    bash -c "cd '$R' && diff <(find . -type f ! -name SHA256SUMS | sed 's|^\./||' | sort) <(sed 's/^[0-9a-f]*  //' SHA256SUMS | sort)"
cp -a "$R" "$T/tampered"
printf 'X' | dd of="$T/tampered/stick/EFI/BOOT/BOOTX64.EFI" bs=1 seek=4096 conv=notrunc status=none
(cd "$T/tampered" && sha256sum -c SHA256SUMS >"$T/tampered.out" 2>&1; echo $? >"$T/tampered.rc")
check "a byte changed in BOOTX64.EFI: sha256sum -c fails and names it, alone" \
    bash -c "[ \$(cat '$T/tampered.rc') != 0 ] && grep -qx 'stick/EFI/BOOT/BOOTX64.EFI: FAILED' '$T/tampered.out' &&
             [ \$(grep -vc ': OK\$' '$T/tampered.out') = 2 ]"

# the stick tree is the image's, the image is this build's
mcopy -i "$R/tlbscope.img@@1M" ::/EFI/BOOT/BOOTX64.EFI "$T/img-boot.efi"
check "stick/EFI/BOOT/BOOTX64.EFI = the image's = build/tlbscope.efi (unsigned)" \
    bash -c "cmp -s '$R/stick/EFI/BOOT/BOOTX64.EFI' '$T/img-boot.efi' && cmp -s '$T/img-boot.efi' build/tlbscope.efi"
check "stick/startup.nsh = startup.nsh, stick/tlbscope/tlbscope.cfg = efi/tlbscope.cfg (the default)" \
    bash -c "cmp -s '$R/stick/startup.nsh' startup.nsh && cmp -s '$R/stick/tlbscope/tlbscope.cfg' efi/tlbscope.cfg"
mkdir -p "$T/zip"
unzip -q "$D/$NAME.zip" -d "$T/zip"
check "the .zip is the stick tree exactly (files, bytes, the empty tlbscope/reports/)" \
    diff -r "$T/zip" "$R/stick"

# one version: the .sbat section names it, with no placeholder URL
objcopy -O binary -j .sbat "$R/stick/EFI/BOOT/BOOTX64.EFI" "$T/sbat.bin" 2>/dev/null
check "the .sbat section: 'tlbscope,1,tlbscope,tlbscope,$VERSION,tlbscope', no example.invalid" \
    bash -c "tr -d '\\0' <'$T/sbat.bin' | sed -n 2p | grep -qx 'tlbscope,1,tlbscope,tlbscope,$VERSION,tlbscope' &&
             ! grep -q example.invalid '$T/sbat.bin' efi/sbat.csv"
check "the version is written once: VERSION; the Makefile and efi/sbat.csv take it from there" \
    bash -c "! grep -qE '^VERSION *:?= *[0-9]' Makefile && grep -q '@VERSION@' efi/sbat.csv"

# the documents
check "USB.md: version, dd and imagers, copying the tree to FAT32, booting, Secure Boot, reports, recovery; no @PLACEHOLDER@" \
    bash -c "f='$R/USB.md'; grep -q 'tlbscope $VERSION' \$f && grep -q 'sudo dd if=tlbscope.img of=/dev/sdX' \$f &&
             grep -q 'balenaEtcher' \$f && grep -q 'FAT32' \$f && grep -q 'tlbscope-$VERSION.zip\\|$NAME.zip' \$f &&
             grep -q 'boot menu' \$f && grep -q 'Secure Boot' \$f && grep -q 'tlbscope.reports' \$f &&
             grep -q 'recover-report.sh' \$f && ! grep -q '@[A-Z_]*@' \$f"
check "BUILDINFO: version, commit, unsigned" \
    bash -c "grep -qx 'tlbscope $VERSION' '$R/BUILDINFO' && grep -q '^commit $COMMIT' '$R/BUILDINFO' &&
             grep -qx 'BOOTX64.EFI unsigned' '$R/BUILDINFO'"

# the host tool: builds from the archive alone; the static one runs anywhere
sample=$(ls reports/samples/*.json | head -n 1)
if make -s -C "$R/host-tool" CFLAGS=-O0 >"$T/host-tool.log" 2>&1; then
    check "host-tool/ builds on its own (make -C host-tool) and validates $sample" \
        quietly "$R/host-tool/tlbscope-report" validate "$sample"
else
    not_ok "host-tool/ does not build on its own: $(grep -m1 error "$T/host-tool.log")"
fi
if [ -x "$R/bin/tlbscope-report" ]; then
    check "bin/tlbscope-report is statically linked and validates $sample" \
        bash -c "! ldd '$R/bin/tlbscope-report' >/dev/null 2>&1 && '$R/bin/tlbscope-report' validate '$sample' >/dev/null"
else
    skip "bin/tlbscope-report" "no static build here: $(sed -n 's/^no static build: //p' "$R/BUILDINFO")"
fi

# signed: with the test key, the release carries the signed binary and the certificate
if command -v sbsign >/dev/null && command -v sbverify >/dev/null; then
    if make --no-print-directory dist SIGNED=1 DIST_DIR="$T/signed" >"$T/dist-signed.log" 2>&1; then
        S=$T/signed-x
        mkdir -p "$S"
        tar -xzf "$T/signed/$NAME.tar.gz" -C "$S"
        S=$S/$NAME
        check "make dist SIGNED=1: BOOTX64.EFI verifies against keys/TEST-KEY-tlbscope-db.crt in the archive; the image carries it" \
            bash -c "sbverify --cert '$S/keys/TEST-KEY-tlbscope-db.crt' '$S/stick/EFI/BOOT/BOOTX64.EFI' >/dev/null 2>&1 &&
                     cmp -s '$S/stick/EFI/BOOT/BOOTX64.EFI' build/tlbscope-signed.efi && [ -s '$S/keys/TEST-KEY-tlbscope-db.cer' ]"
        check "make dist SIGNED=1: BUILDINFO and USB.md say it is signed with a TEST KEY and how to enrol it" \
            bash -c "grep -q '^BOOTX64.EFI signed: .*TEST KEY' '$S/BUILDINFO' && grep -q 'TEST KEY' '$S/USB.md' &&
                     grep -q 'keys/TEST-KEY-tlbscope-db.cer' '$S/USB.md' && (cd '$S' && sha256sum --quiet -c SHA256SUMS)"
    else
        not_ok "make dist SIGNED=1 (log: $(tail -n 3 "$T/dist-signed.log" | tr '\n' ' '))"
    fi
else
    skip "make dist SIGNED=1" "sbsign/sbverify not installed (Debian: apt-get install sbsigntool)"
fi
