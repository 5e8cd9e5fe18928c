#!/usr/bin/env bash
# Builds the release archive: `make dist` calls it.
#
#   scripts/dist.sh OUTDIR NAME VERSION COMMIT IMAGE [CERT]
#
# OUTDIR/NAME.tar.gz holds one folder NAME/ with what a technician needs without
# the source tree:
#   QUICKSTART.md           the steps, from checksums to the verdict (release/QUICKSTART.md)
#   TROUBLESHOOTING.md      run times, a frozen screen, serial-over-LAN capture, what to
#                           bring back, redaction (release/TROUBLESHOOTING.md)
#   README.md               the project's README
#   docs/                   the topic files it links to (docs/*.md, docs/layers.txt)
#   USB.md                  how to write, boot and read back (release/USB.md)
#   tlbscope.img            the image (`make image`, or `make image SIGNED=1`)
#   write-stick.sh          the guarded stick writer (scripts/usb-write.sh, `make usb`'s
#                           checks), writing the tlbscope.img beside it
#   recover-report.sh       rebuilds a report from a console capture (no arguments: usage)
#   stick/                  the files on the image's FAT partition, read back from it
#   BUILDINFO               version, commit, build host, signature
#   host-tool/              tlbscope-report's source (the files tool.mk builds it from,
#                           $TLBSCOPE_TOOL_SRCS, and the headers they include) with a
#                           Makefile of its own (make install; PG=1 for PostgreSQL), VERSION,
#                           the report schema
#   bin/tlbscope-report     a static x86-64 Linux build of it, made from host-tool/, with the
#                           fleet database on SQLite files (import, atlas, query) where
#                           libsqlite3.a is there (BUILDINFO says which; left out, and
#                           BUILDINFO says so, without libjansson.a)
#   share/man/man1/tlbscope-report.1, share/bash-completion/completions/tlbscope-report
#                           its man page and bash completion, from its --help ($TOOL_MAN,
#                           $TOOL_COMPLETION, which make dist builds)
#   keys/                   with CERT (a signed image): the certificate to enrol in db
#   SHA256SUMS              every other file's SHA-256
# OUTDIR/NAME.zip holds stick/'s tree alone, to unzip onto a FAT32 stick, and
# OUTDIR/SHA256SUMS the checksums of both archives. Entries are sorted, owned by
# 0:0 and dated at the commit (SOURCE_DATE_EPOCH overrides).
set -euo pipefail

[ $# -ge 5 ] || { echo "usage: dist.sh OUTDIR NAME VERSION COMMIT IMAGE [CERT]" >&2; exit 2; }
outdir=$1 name=$2 version=$3 commit=$4 image=$5 cert=${6:-}
here=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "dist.sh: $*" >&2; exit 1; }
for c in tar gzip zip sha256sum mcopy; do
    command -v $c >/dev/null || die "$c not found (Debian: apt-get install tar gzip zip coreutils mtools; scripts/deps.sh test installs them)"
done
[ -s "$image" ] || die "no image $image (make image)"
export MTOOLS_SKIP_CHECK=1 LC_ALL=C
epoch=${SOURCE_DATE_EPOCH:-$(git -C "$here" log -1 --format=%ct 2>/dev/null || date +%s)}

mkdir -p "$outdir"
stage=$outdir/$name
rm -rf "$stage" "$outdir/$name.tar.gz" "$outdir/$name.zip"
mkdir -p "$stage/stick" "$stage/host-tool/reports" "$stage/bin"

# the image, and its files read back from it (so the tree is what the stick holds)
cp "$image" "$stage/tlbscope.img"
mcopy -s -m -i "$stage/tlbscope.img@@1M" ::/EFI ::/startup.nsh ::/tlbscope "$stage/stick/"
[ -f "$stage/stick/EFI/BOOT/BOOTX64.EFI" ] && [ -f "$stage/stick/tlbscope/tlbscope.cfg" ] ||
    die "$image has no \\EFI\\BOOT\\BOOTX64.EFI or \\tlbscope\\tlbscope.cfg"
mkdir -p "$stage/stick/tlbscope/reports"
# the aarch64 app beside it (issue 27; TLBSCOPE_A64_EFI, make dist builds it): the same stick
# then boots on an ARM server too, which looks for \EFI\BOOT\BOOTAA64.EFI
a64_info=
if [ -n "${TLBSCOPE_A64_EFI:-}" ]; then
    [ -s "$TLBSCOPE_A64_EFI" ] || die "no aarch64 app $TLBSCOPE_A64_EFI (make ARCH=aarch64)"
    cp "$TLBSCOPE_A64_EFI" "$stage/stick/EFI/BOOT/BOOTAA64.EFI"
    a64_info="BOOTAA64.EFI unsigned, aarch64, $(clang --version 2>/dev/null | head -n1)"
fi

# the host tool: the sources tool.mk builds it from (TLBSCOPE_TOOL_SRCS, from make) and
# every header they include, by the compiler's own account; a Makefile of its own
srcs=${TLBSCOPE_TOOL_SRCS:-$(cd "$here" && ls reports/tool/*/*.c)}
# -MG: a system header this host lacks (libpq-fe.h without libpq-dev) is no error; only the
# tree's own headers are copied
# shellcheck disable=SC2086
hdrs=$(cd "$here" && ${HOST_CC:-gcc} -std=c11 -D_DEFAULT_SOURCE -I. -Ireports/tool -MM -MG $srcs |
       tr ' \\' '\n\n' | grep -E '^[^/].*\.h$' | sort -u |
       while read -r h; do if [ -f "$h" ]; then echo "$h"; fi; done) || die "cannot list the host tool's headers"
for f in $srcs $hdrs; do
    mkdir -p "$stage/host-tool/$(dirname "$f")"
    cp "$here/$f" "$stage/host-tool/$f"
done
cp "$here/reports/SCHEMA.md" "$stage/host-tool/reports/"
cp "$here/release/host-tool.mk" "$stage/host-tool/Makefile"
cp "$here/release/gen-man.sh" "$here/release/gen-completion.sh" "$stage/host-tool/"
# --version of a build from this folder: the release's version and commit
echo "$version $commit" >"$stage/host-tool/VERSION"
# the technician's tools, at the top: the guarded stick writer and the report recovery
cp "$here/scripts/usb-write.sh" "$stage/write-stick.sh"
cp "$here/scripts/recover-report.sh" "$stage/recover-report.sh"
chmod 755 "$stage/write-stick.sh" "$stage/recover-report.sh"
# the man page and bash completion, generated from the tool's --help at build time
[ -s "${TOOL_MAN:-}" ] && [ -s "${TOOL_COMPLETION:-}" ] ||
    die "no man page or bash completion (TOOL_MAN, TOOL_COMPLETION: make dist builds them)"
mkdir -p "$stage/share/man/man1" "$stage/share/bash-completion/completions"
cp "$TOOL_MAN" "$stage/share/man/man1/tlbscope-report.1"
cp "$TOOL_COMPLETION" "$stage/share/bash-completion/completions/tlbscope-report"
# the lab's report collector for upload= (nginx with WebDAV PUT; docs/netboot.md)
mkdir -p "$stage/host-tool/collector"
cp "$here/reports/collector/nginx.conf.in" "$stage/host-tool/collector/"
# the static build, from that copy of the source: proves it complete
scratch=$outdir/.host-tool-build
rm -rf "$scratch" && cp -r "$stage/host-tool" "$scratch"
static="no static build: $(uname -m) $(uname -s), libjansson.a or a static libc missing"
if make -s -C "$scratch" static CFLAGS=-O2 >"$outdir/host-tool-build.log" 2>&1; then
    cp "$scratch/tlbscope-report-static" "$stage/bin/tlbscope-report"
    strip "$stage/bin/tlbscope-report" 2>/dev/null || true
    static="bin/tlbscope-report: static $(uname -m) Linux build of host-tool/"
    if "$stage/bin/tlbscope-report" help import 2>&1 | grep -q 'not in this build'; then
        static="$static, without the fleet database (no libsqlite3.a)"
    else
        static="$static, with the fleet database on SQLite files (PostgreSQL: build host-tool/ with PG=1)"
    fi
else
    rmdir "$stage/bin"
    echo "dist.sh: WARNING: $static (see $outdir/host-tool-build.log); the archive has the source only" >&2
fi
rm -rf "$scratch"

# Secure Boot: what the binary is, and what to do about it
sb=$outdir/.secure-boot.md
if [ -n "$cert" ]; then
    [ -s "$cert" ] || die "no certificate $cert"
    mkdir -p "$stage/keys"
    certname=tlbscope-db
    subject=$(openssl x509 -in "$cert" -noout -subject | sed 's/^subject= *//')
    test_key=0
    grep -q 'TEST KEY' <<<"$subject" && test_key=1 certname=TEST-KEY-tlbscope-db
    openssl x509 -in "$cert" -out "$stage/keys/$certname.crt"
    openssl x509 -in "$cert" -outform DER -out "$stage/keys/$certname.cer"
    fpr=$(openssl x509 -in "$cert" -noout -fingerprint -sha256 | sed 's/.*=//')
    signature="signed: $subject, certificate SHA-256 $fpr (keys/$certname.crt, .cer)"
    [ $test_key = 1 ] && signature="$signature; a TEST KEY generated by make sign, for lab trials only"
    cat >"$sb" <<EOF
**Secure Boot.** \`BOOTX64.EFI\` is signed by \`$subject\`. A machine with Secure Boot on
runs it once that certificate is in its db: in the firmware setup's Secure Boot key
management, "enroll db" (or "append to db") from \`keys/$certname.cer\` on a FAT stick, or
from Linux with efitools, \`efi-updatevar -a -c keys/$certname.crt db\` while the firmware is
in setup mode. Without it the firmware refuses to start the tool ("Access Denied",
"Security Violation") and nothing is written.$([ $test_key = 1 ] && printf '%s' " This certificate is a TEST KEY whose private key was never
kept secret: enrol it only on a lab machine you are prepared to reset.")
EOF
else
    signature="unsigned"
    cat >"$sb" <<'EOF'
**Secure Boot.** This `BOOTX64.EFI` is not signed: with Secure Boot on, the firmware
refuses it ("Access Denied", "Security Violation") and nothing runs. Turn Secure Boot off
in the firmware setup for the run (the report records the state it found), or sign it with
a key the machine trusts: from the source tree, `make sign KEY=db.key CERT=db.crt` then
`make dist SIGNED=1 KEY=db.key CERT=db.crt`, and enrol `db.crt` in the machine's db (the
docs/usb.md's Secure Boot section says how, also through shim and MOK).
EOF
fi

for doc in USB QUICKSTART TROUBLESHOOTING; do
    sed -e "s/@VERSION@/$version/g" -e "s/@COMMIT@/$commit/g" -e "/@SECURE_BOOT@/{r $sb" -e "d}" \
        "$here/release/$doc.md" >"$stage/$doc.md"
done
rm -f "$sb"
cp "$here/README.md" "$stage/README.md"
# the topic files the README links to, at the same relative paths
mkdir -p "$stage/docs"
cp "$here"/docs/*.md "$here"/docs/*.txt "$stage/docs/"
dirty=""
case "$commit" in *-dirty) dirty=" (uncommitted changes: a development build, not a release)" ;; esac
{
    echo "tlbscope $version"
    echo "commit $commit$dirty"
    echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(. /etc/os-release 2>/dev/null && echo "${PRETTY_NAME:-}")"
    echo "gnu-efi $(dpkg-query -W -f='${Version}' gnu-efi 2>/dev/null || echo unknown)"
    echo "BOOTX64.EFI $signature"
    [ -n "$a64_info" ] && echo "$a64_info"
    echo "$static"
} >"$stage/BUILDINFO"

# checksums of everything in the folder, then the archives
(cd "$stage" && find . -type f ! -name SHA256SUMS | sed 's|^\./||' | sort | xargs -d '\n' sha256sum >SHA256SUMS)
find "$stage" -exec touch -h -d "@$epoch" {} +
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -C "$outdir" -cf - "$name" |
    gzip -9n >"$outdir/$name.tar.gz"
(cd "$stage/stick" && zip -X -q -r "../../$name.zip" EFI startup.nsh tlbscope)
(cd "$outdir" && sha256sum "$name.tar.gz" "$name.zip" >SHA256SUMS)
rm -rf "$stage"
echo "dist.sh: $outdir/$name.tar.gz ($(du -k "$outdir/$name.tar.gz" | cut -f1) KiB), $outdir/$name.zip, $outdir/SHA256SUMS; BOOTX64.EFI $signature"
