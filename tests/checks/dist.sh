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
JOBS=$(nproc 2>/dev/null || echo 2) # the release and host-tool builds below, one job a core
# outside build/ (the Makefile includes every *.d under build/)
T=$(mktemp -d "${TMPDIR:-/tmp}/tlbscope-dist.XXXXXX") || exit 1
trap '[ -n "${KEEP_T:-}" ] || rm -rf "$T"' EXIT

if ! make --no-print-directory -j"$JOBS" dist >"$T/dist.log" 2>&1; then
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
         USB.md QUICKSTART.md TROUBLESHOOTING.md README.md docs/experiments.md write-stick.sh recover-report.sh \
         BUILDINFO SHA256SUMS host-tool/Makefile host-tool/VERSION host-tool/reports/tool/cli/main.c \
         host-tool/reports/SCHEMA.md share/man/man1/tlbscope-report.1 \
         share/bash-completion/completions/tlbscope-report host-tool/collector/nginx.conf.in; do
    [ -s "$R/$f" ] || missing+=("$f")
done
[ -d "$R/stick/tlbscope/reports" ] || missing+=(stick/tlbscope/reports/)
check "the archive is one folder $NAME/ with the image, the stick tree, the documents, the stick writer, recover-report.sh, BUILDINFO, SHA256SUMS, the host tool's source, man page and completion${missing:+ (missing: ${missing[*]})}" \
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
check "stick/startup.nsh = startup.nsh, stick/tlbscope/tlbscope.cfg = build/tlbscope.cfg (from core/run/config_keys.c)" \
    bash -c "cmp -s '$R/stick/startup.nsh' startup.nsh && cmp -s '$R/stick/tlbscope/tlbscope.cfg' build/tlbscope.cfg"
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
             grep -q 'recover-report.sh' \$f && grep -q 'write-stick.sh /dev/sdX' \$f && ! grep -q '@[A-Z_]*@' \$f"
check "QUICKSTART.md and TROUBLESHOOTING.md: version filled in, no @PLACEHOLDER@; README.md is the tree's" \
    bash -c "grep -q 'tlbscope $VERSION' '$R/QUICKSTART.md' && grep -q 'tlbscope $VERSION' '$R/TROUBLESHOOTING.md' &&
             ! grep -q '@[A-Z_0-9]*@' '$R/QUICKSTART.md' '$R/TROUBLESHOOTING.md' && cmp -s '$R/README.md' README.md"
# the topic files README.md links to travel with it, at the same relative paths
docs_links=$(grep -oE '\]\(docs/[A-Za-z0-9_.-]+\)' README.md | sed 's/^](//; s/)$//' | sort -u)
docs_bad=()
for f in docs/*.md docs/*.txt $docs_links; do cmp -s "$R/$f" "$f" || docs_bad+=("$f"); done
check "docs/: every docs/*.md and docs/*.txt of the tree, and every docs/ file README.md links to, is in the archive as in the tree${docs_bad:+ (missing or different: ${docs_bad[*]})}" \
    test ${#docs_bad[@]} = 0
# every file the quick start tells the technician to run or open is in the archive
quick_paths=$(grep -oE '(\./|bin/|share/|host-tool/)[A-Za-z0-9_./-]*[A-Za-z0-9_]' "$R/QUICKSTART.md" | sort -u)
quick_missing=()
for p in $quick_paths; do [ -e "$R/$p" ] || quick_missing+=("$p"); done
check "every path QUICKSTART.md names is in the archive ($(echo $quick_paths))${quick_missing:+ (missing: ${quick_missing[*]})}" \
    test ${#quick_missing[@]} = 0
check "stick/EFI/BOOT/BOOTAA64.EFI is build/aarch64/BOOTAA64.EFI, named in BUILDINFO (issue 27)" \
    bash -c "cmp -s '$R/stick/EFI/BOOT/BOOTAA64.EFI' build/aarch64/BOOTAA64.EFI && grep -q '^BOOTAA64.EFI unsigned, aarch64' '$R/BUILDINFO'"
check "BUILDINFO: version, commit, unsigned" \
    bash -c "grep -qx 'tlbscope $VERSION' '$R/BUILDINFO' && grep -q '^commit $COMMIT' '$R/BUILDINFO' &&
             grep -qx 'BOOTX64.EFI unsigned' '$R/BUILDINFO'"

# the host tool: builds from the archive alone; the static one runs anywhere
sample=$(ls reports/samples/*.json | head -n 1)
if make -s -j"$JOBS" -C "$R/host-tool" CFLAGS=-O0 >"$T/host-tool.log" 2>&1; then
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

# ---- the technician's steps (QUICKSTART.md), from an empty folder, without the tree ----
# The archive unpacked into a fresh directory; every command runs there, with a bare
# environment (no repository path, no make variables), as a technician would run it.
E=$T/technician
mkdir -p "$E/home" && tar -xzf "$D/$NAME.tar.gz" -C "$E"
H=$E/$NAME
in_release() { (cd "$H" && env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$E/home" LC_ALL=C "$@"); }
check "step 1: sha256sum -c SHA256SUMS in the unpacked folder" quietly in_release sha256sum -c SHA256SUMS
if [ -x "$H/bin/tlbscope-report" ]; then
    TR=bin/tlbscope-report
else
    # no static build on this host: the one built from host-tool/ above stands in
    make -s -j"$JOBS" -C "$H/host-tool" CFLAGS=-O0 >/dev/null 2>&1 && TR=host-tool/tlbscope-report
fi
check "step 1: $TR --version prints the release version and commit ($VERSION, $COMMIT)" \
    bash -c "cd '$H' && $TR --version | grep -q '^tlbscope-report $VERSION (commit $COMMIT;'"
in_release ./write-stick.sh >"$E/ws-usage.out" 2>&1; ws_rc=$?
check "step 2: ./write-stick.sh without a device: exit 2, says how to call it" \
    bash -c "[ $ws_rc = 2 ] && grep -q 'write-stick.sh /dev/sdX' '$E/ws-usage.out'"
# a fake stick (tests/checks/usb.sh has every refusal): sysfs shaped as the kernel lays it
# out, the "device" a plain file; a USB stick sdz with partition sdz1
F=$E/fake
USBP=devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host6/target6:0:0/6:0:0:0/block/sdz
mkdir -p "$F/dev" "$F/proc" "$F/sys/class/block" "$F/sys/$USBP/device" "$F/sys/$USBP/sdz1"
echo 1 >"$F/sys/$USBP/removable"; echo 131072 >"$F/sys/$USBP/size"; echo 1 >"$F/sys/$USBP/sdz1/partition"
echo "SanDisk " >"$F/sys/$USBP/device/vendor"; echo "Cruzer Blade    " >"$F/sys/$USBP/device/model"
ln -s "../../$USBP" "$F/sys/class/block/sdz"; ln -s "../../$USBP/sdz1" "$F/sys/class/block/sdz1"
: >"$F/proc/mounts"; printf 'Filename Type Size Used Priority\n' >"$F/proc/swaps"
head -c $((64 * 1048576)) /dev/zero >"$F/dev/sdz"; : >"$F/dev/sdz1"
in_release env TLBSCOPE_USB_TEST_ROOT="$F" ./write-stick.sh "$F/dev/sdz1" >"$E/ws-part.out" 2>&1; ws_rc=$?
check "step 2: ./write-stick.sh refuses a partition (exit 1, names the whole disk)" \
    bash -c "[ $ws_rc = 1 ] && grep -q 'is a partition: give the whole disk (sdz)' '$E/ws-part.out'"
in_release env YES=1 TLBSCOPE_USB_TEST_ROOT="$F" ./write-stick.sh "$F/dev/sdz" >"$E/ws.out" 2>&1; ws_rc=$?
check "step 2: ./write-stick.sh /dev/sdX writes the tlbscope.img beside it and reads it back" \
    bash -c "[ $ws_rc = 0 ] && grep -q 'wrote and read back' '$E/ws.out' &&
             cmp -s -n \$(stat -c %s '$H/tlbscope.img') '$H/tlbscope.img' '$F/dev/sdz'"
# (tests/host/test_config_file.c checks it names every key of core/run/config_keys.c's table)
cfg=$H/stick/tlbscope/tlbscope.cfg
check "step 3: the stick's tlbscope.cfg lists every key commented out, each with a default and help" \
    bash -c "keys=\$(grep -c '^# [a-z0-9_]*: ' '$cfg'); [ \$keys -ge 20 ] &&
             [ \$(grep -cE '(; |^#   )default ' '$cfg') = \$keys ] && [ \$(grep -c '^#     ' '$cfg') -ge \$keys ] &&
             ! grep -v '^#' '$cfg' | grep -q ."
# step 4 after a run whose report did not reach the stick: a serial-over-LAN capture (CR
# line ends, escape sequences) holding the console dump of a shipped sample report
sample_json=$(ls "$PWD"/reports/samples/*.json | tail -n 1)
mkdir -p "$E/reports"
{
    printf '\033[2J\033[1;1HBdsDxe: starting Boot0001\r\n'
    printf 'TLBSCOPE-JSON-BEGIN %s\r\n' 20261202-095559-amd-f19m01-0001
    awk '{ line = $0; printf "J:%s\r\n", substr(line, 1, 70); for (i = 71; i <= length(line); i += 70) printf "J+%s\r\n", substr(line, i, 70) }' "$sample_json"
    printf 'TLBSCOPE-JSON-END bytes=%s cksum=%s\r\n' "$(wc -c <"$sample_json")" "$(cksum <"$sample_json" | awk '{print $1}')"
    printf 'RESULT: COMPLETE: 5 measured\r\nTLBSCOPE DONE\r\n'
} >"$E/sol.log"
in_release ./recover-report.sh >"$E/rr-usage.out" 2>&1; rr_rc=$?
check "step 4: ./recover-report.sh without arguments prints its usage (exit 2)" \
    bash -c "[ $rr_rc = 2 ] && grep -q '^usage: recover-report.sh SERIAL_LOG OUTDIR' '$E/rr-usage.out'"
check "step 4: ./recover-report.sh sol.log reports/ rebuilds the report byte for byte" \
    bash -c "cd '$H' && out=\$(./recover-report.sh '$E/sol.log' '$E/reports') && cmp -s \"\$out\" '$sample_json'"
check "step 4: $TR validate reports/ and show: it ends with the run's verdict" \
    bash -c "cd '$H' && $TR validate '$E/reports/' >/dev/null &&
             $TR show '$E/reports/20261202-095559-amd-f19m01-0001.json' | tail -n 1 | grep -qE '^(COMPLETE|ERROR \\(incomplete\\)|FAILURE \\(a finding\\)): '"
check "step 4: $TR redact writes a copy with tokens" \
    bash -c "cd '$H' && $TR redact '$E/reports/20261202-095559-amd-f19m01-0001.json' >/dev/null 2>&1 &&
             jq -e '.redaction' '$E/reports/20261202-095559-amd-f19m01-0001.redacted.json' >/dev/null"
# the fleet database in the release's binary (issue 31): import, query and atlas on a SQLite
# file, from the unpacked folder alone; a build without SQLite must say so and what to do
if (cd "$H" && $TR help import) | grep -q 'not in this build'; then
    (cd "$H" && $TR import --db "$E/fleet.db" "$E/reports/20261202-095559-amd-f19m01-0001.json") >"$E/fleet.out" 2>&1
    check "fleet: $TR was built without SQLite: import answers 'not in this build' with what to do (BUILDINFO: $(sed -n 's/^bin\/tlbscope-report: //p' "$H/BUILDINFO"))" \
        bash -c "grep -q 'import: not in this build' '$E/fleet.out' && grep -q libsqlite3-dev '$E/fleet.out' && [ '$TR' != bin/tlbscope-report ]"
else
    check "fleet: $TR imports a sample into a SQLite file, queries it (the run id import printed) and draws the atlas; BUILDINFO says so" \
        bash -c "cd '$H' && $TR import --db '$E/fleet.db' '$E/reports/20261202-095559-amd-f19m01-0001.json' >'$E/fleet.out' &&
                 id=\$(sed -n 's/^imported .* (run \\(r[0-9a-f]*\\),.*/\\1/p' '$E/fleet.out') && [ -n \"\$id\" ] &&
                 [ \"\$($TR query --db '$E/fleet.db' \"SELECT COUNT(*) FROM v_runs WHERE run = '\$id'\" | tail -n1)\" = 1 ] &&
                 $TR atlas --db '$E/fleet.db' -o '$E/atlas.html' && grep -q '<section id=.env-' '$E/atlas.html' &&
                 { [ '$TR' != bin/tlbscope-report ] || grep -q '^bin/tlbscope-report: .*with the fleet database on SQLite' BUILDINFO; }"
fi
# the manual and the completion, from the tool's help: every command and option of it
# (groff renders it as man would, in plain ASCII: groff-base, in scripts/deps.sh test)
man_text=$(groff -man -Tascii -P-cbou -rLL=100n "$H/share/man/man1/tlbscope-report.1" 2>/dev/null)
check "share/man/man1/tlbscope-report.1: groff -man renders it without a warning" \
    bash -c "[ -n '$(head -c 1 <<<"$man_text")' ] && [ -z \"\$(groff -man -Tascii -ww -z '$H/share/man/man1/tlbscope-report.1' 2>&1)\" ]"
commands=$(cd "$H" && $TR --help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit } on && /^  [a-z]/ { print $1 }')
lost=()
for c in $commands; do
    for o in $(cd "$H" && $TR help "$c" | grep -oE '(^|[][ |(])--?[a-zA-Z][a-zA-Z0-9-]*' | sed 's/^[][ |(]//' | sort -u); do
        grep -qF -- "$o" <<<"$man_text" || lost+=("man:$c:$o")
        reply=$(cd "$H" && bash -c 'source share/bash-completion/completions/tlbscope-report
            COMP_WORDS=(tlbscope-report "$1" "$2"); COMP_CWORD=2; _tlbscope_report; echo "${COMPREPLY[@]}"' _ "$c" "$o")
        grep -qw -- "$o" <<<"$reply" || lost+=("completion:$c:$o")
    done
    grep -q "^   $c\$" <<<"$man_text" || lost+=("man:$c")
done
check "man page and bash completion: every command ($(echo $commands)) and every option of its help${lost:+ (missing: ${lost[*]})}" \
    test -n "$commands" -a ${#lost[@]} = 0
reply=$(cd "$H" && bash -c 'source share/bash-completion/completions/tlbscope-report
    COMP_WORDS=(tlbscope-report com); COMP_CWORD=1; _tlbscope_report; echo "${COMPREPLY[@]}"')
check "bash completion: 'tlbscope-report com<TAB>' gives compare" test "$reply" = compare
# (in the first unpacked copy, whose host-tool/ is built already: only the install runs)
if make -s -j"$JOBS" -C "$R/host-tool" install PREFIX="$E/prefix" CFLAGS=-O0 >"$E/install.log" 2>&1; then
    check "make -C host-tool install: the tool (with the release's --version), man page and completion" \
        bash -c "'$E/prefix/bin/tlbscope-report' --version | grep -q '^tlbscope-report $VERSION (commit $COMMIT;' &&
                 cmp -s '$E/prefix/share/man/man1/tlbscope-report.1' '$H/share/man/man1/tlbscope-report.1' &&
                 cmp -s '$E/prefix/share/bash-completion/completions/tlbscope-report' '$H/share/bash-completion/completions/tlbscope-report'"
else
    not_ok "make -C host-tool install: $(tail -n 2 "$E/install.log" | tr '\n' ' ')"
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
