#!/usr/bin/env bash
# Secure Boot, enforcing, under QEMU + OVMF's Secure Boot build (q35 with SMM,
# the variable flash reachable from SMM only: scripts/qemu-run.sh SECURE_BOOT=1).
# Three boots:
#   1. the image carrying the signed binary (make sign, make image SIGNED=1)
#      boots, runs profile=quick, and its report says firmware.secure_boot
#      "enabled" (SecureBoot=1; the firmware sets it only in user mode, SetupMode=0);
#   2. the unsigned image is refused: the firmware's "Access Denied" for the
#      stick's boot option is on the console, the tool never prints its banner,
#      no report appears on the stick;
#   3. the signed binary with one byte changed after signing (in its .sbat
#      section, so that were it run it would run normally) is refused the same way.
# The variable store trusts the key the binary is signed with:
#   enrolled  (virt-fw-vars from python3-virt-firmware, preferred): a copy of the
#             empty OVMF_VARS_4M.fd with the test certificate `make sign`
#             generates (build/keys/TEST-KEY-*) as PK, KEK and db, Secure Boot on;
#             firmware OVMF_CODE_4M.secboot.fd; signed by plain `make sign`;
#   snakeoil  (Debian's ovmf package alone): OVMF_CODE_4M.snakeoil.fd with
#             OVMF_VARS_4M.snakeoil.fd, whose PK, KEK and db hold Debian's
#             snakeoil certificate; signed by `make sign KEY=... CERT=...
#             KEY_PASS=snakeoil` with the key shipped beside it.
# TLBSCOPE_SB_STORE=enrolled|snakeoil chooses; by default the first that can be
# set up here. If neither can (no sbsigntool, no Secure Boot OVMF build), the
# step SKIPs and says what is missing. Prints TAP lines for tests/run-all.sh.
. "$(dirname "$0")/lib.sh" # ok, check, skip; sb_store, sb_skip_missing, sb_tamper
out=$here/build/test-runs/secureboot
rm -rf "$out" && mkdir -p "$out"
export MTOOLS_SKIP_CHECK=1
QEMU=${QEMU:-qemu-system-x86_64}
OVMF_DIR=${TLBSCOPE_OVMF_DIR:-/usr/share/OVMF}
SNAKEOIL_KEY=${TLBSCOPE_SNAKEOIL_KEY:-/usr/share/ovmf/PkKek-1-snakeoil.key}
SNAKEOIL_CERT=${SNAKEOIL_KEY%.key}.pem
# the owner GUID of the enrolled certificate (any fixed GUID: it names who added it)
OWNER=3c9d5b7a-2f4e-4b61-9a0d-74626c73636f
SIGNED_EFI=$out/tlbscope-signed.efi
SIGNED_IMG=$out/tlbscope-signed.img
# the boot manager's refusal of the stick's boot option (then it tries the
# others, gives up and waits for a key: nothing more to see)
REFUSAL='failed to load Boot[0-9A-F]+ "[^"]*USB[^"]*".*: (Access Denied|Security Violation)'
REFUSED_END="$REFUSAL|No bootable option or device was found|Press any key to enter the Boot Manager"

# ---- what this machine can do ----
missing=()
command -v "$QEMU" >/dev/null || missing+=("$QEMU (qemu-system-x86)")
command -v sbsign >/dev/null && command -v sbverify >/dev/null || missing+=("sbsign/sbverify (sbsigntool)")
command -v jq >/dev/null || missing+=("jq")
can_enrolled() {
    command -v virt-fw-vars >/dev/null && [ -f "$OVMF_DIR/OVMF_CODE_4M.secboot.fd" ] &&
        [ -f "$OVMF_DIR/OVMF_VARS_4M.fd" ]
}
can_snakeoil() {
    [ -f "$OVMF_DIR/OVMF_CODE_4M.snakeoil.fd" ] && [ -f "$OVMF_DIR/OVMF_VARS_4M.snakeoil.fd" ] &&
        [ -r "$SNAKEOIL_KEY" ] && [ -r "$SNAKEOIL_CERT" ]
}
store=$(sb_store) || { not_ok "TLBSCOPE_SB_STORE=$TLBSCOPE_SB_STORE: want enrolled or snakeoil"; exit 1; }
[ -n "$store" ] || missing+=("a variable store with a key to sign with: virt-fw-vars (python3-virt-firmware, bookworm-backports on Debian 12) with $OVMF_DIR/OVMF_CODE_4M.secboot.fd and OVMF_VARS_4M.fd, or Debian ovmf's snakeoil pair ($OVMF_DIR/OVMF_*_4M.snakeoil.fd, $SNAKEOIL_KEY)")
sb_skip_missing "Secure Boot: signed image boots, unsigned and tampered images refused"
echo "# variable store: $store"

# ---- signing ----
if ! make --no-print-directory efi image >"$out/build.log" 2>&1; then
    not_ok "make efi image (see $out/build.log)"
    exit 1
fi
VERSION=$(cat VERSION)
read -r _ COMMIT <build/commit.stamp
quietly() { "$@" >/dev/null 2>&1; }
# a user's own key (KEY=, CERT=): Debian's snakeoil key, which is passphrase-protected
if [ -r "$SNAKEOIL_KEY" ] && [ -r "$SNAKEOIL_CERT" ]; then
    user_efi=$out/tlbscope-userkey.efi
    user_args=(SIGNED_EFI="$user_efi" SIGNED_IMG="$SIGNED_IMG" KEY="$SNAKEOIL_KEY" CERT="$SNAKEOIL_CERT")
    setsid -w make --no-print-directory sign "${user_args[@]}" </dev/null >"$out/sign-nopass.log" 2>&1
    check "make sign KEY=<passphrase-protected> without KEY_PASS or a terminal: refused, names KEY_PASS" \
        bash -c "grep -q 'KEY_PASS' '$out/sign-nopass.log' && [ ! -e '$user_efi' ]"
    make --no-print-directory sign "${user_args[@]}" KEY_PASS=snakeoil >"$out/sign-userkey.log" 2>&1
    check "make sign KEY=... CERT=... KEY_PASS=...: signed, sbverify OK against CERT" \
        bash -c "grep -q 'sbverify: .* is signed by .*SnakeOil' '$out/sign-userkey.log' &&
                 sbverify --cert '$SNAKEOIL_CERT' '$user_efi' >/dev/null 2>&1"
fi
if [ "$store" = enrolled ]; then
    CERT=build/keys/TEST-KEY-tlbscope-db.crt
    sign_args=(SIGNED_EFI="$SIGNED_EFI" SIGNED_IMG="$SIGNED_IMG")
    make --no-print-directory sign "${sign_args[@]}" >"$out/sign.log" 2>&1
    check "make sign (no KEY): signed with the generated test key, sbverify OK" \
        grep -q "sbverify: .* is signed by .*TEST KEY" "$out/sign.log"
    check "the test key is named as one: build/keys/TEST-KEY-*, subject 'tlbscope TEST KEY ...', a README" \
        bash -c "openssl x509 -in $CERT -noout -subject | grep -q 'TEST KEY' && [ -f build/keys/README-TEST-KEY.txt ]"
else
    CERT=$SNAKEOIL_CERT SIGNED_EFI=$user_efi
    sign_args=("${user_args[@]}" KEY_PASS=snakeoil)
fi
[ -s "$SIGNED_EFI" ] || { not_ok "no signed binary (see $out/sign.log)"; exit 1; }
check "sbverify: the signed binary verifies against $CERT" quietly sbverify --cert "$CERT" "$SIGNED_EFI"
check "sbverify: the unsigned build/tlbscope.efi does not" bash -c "! sbverify --cert '$CERT' build/tlbscope.efi >/dev/null 2>&1"

make --no-print-directory image SIGNED=1 "${sign_args[@]}" >"$out/image.log" 2>&1
mcopy -o -i "$SIGNED_IMG@@1M" ::/EFI/BOOT/BOOTX64.EFI "$out/from-image.efi" 2>/dev/null
check "make image SIGNED=1: the image's \\EFI\\BOOT\\BOOTX64.EFI is the signed binary" \
    cmp -s "$out/from-image.efi" "$SIGNED_EFI"

# one byte changed after signing: the first byte of the .sbat section ('s' of "sbat,1")
tampered_efi=$out/tlbscope-tampered.efi
sbat_off=$(objdump -h "$SIGNED_EFI" 2>/dev/null | awk '$2 == ".sbat" { print $6 }')
sb_tamper "$SIGNED_EFI" "${sbat_off:+$((16#$sbat_off))}" "$tampered_efi" "$CERT"
cp "$SIGNED_IMG" "$out/tlbscope-tampered.img"
mcopy -o -i "$out/tlbscope-tampered.img@@1M" "$tampered_efi" ::/EFI/BOOT/BOOTX64.EFI

# ---- the variable store ----
if [ "$store" = enrolled ]; then
    code=$OVMF_DIR/OVMF_CODE_4M.secboot.fd
    vars=$out/OVMF_VARS_enrolled.fd
    virt-fw-vars -i "$OVMF_DIR/OVMF_VARS_4M.fd" -o "$vars" --set-pk "$OWNER" "$CERT" \
        --add-kek "$OWNER" "$CERT" --add-db "$OWNER" "$CERT" --secure-boot >"$out/vars.log" 2>&1
    virt-fw-vars -i "$vars" --print >"$out/vars.txt" 2>&1
    check "variable store: the test certificate is PK, KEK and db, SecureBootEnable on (virt-fw-vars)" \
        bash -c "grep -q '^PK ' '$out/vars.txt' && grep -q '^KEK ' '$out/vars.txt' && grep -q '^db ' '$out/vars.txt' &&
                 grep -q 'SecureBootEnable *: bool: ON' '$out/vars.txt'"
else
    code=$OVMF_DIR/OVMF_CODE_4M.snakeoil.fd
    vars=$OVMF_DIR/OVMF_VARS_4M.snakeoil.fd
fi

# sb_boot NAME IMAGE [STOP_ON]: boots IMAGE under enforcing Secure Boot (SMP=2,
# profile=quick); sets RUN, LOG (clean console), REPORT (json or ""), RC
sb_boot() {
    RUN=$out/$1
    mkdir -p "$RUN"
    local t0; t0=$(date +%s)
    IMAGE=$2 RUNDIR=$RUN OUTDIR=$RUN/reports SECURE_BOOT=1 OVMF_CODE=$code OVMF_VARS=$vars \
        STOP_ON=${3:-} SMP=2 ARGS=profile=quick TIMEOUT=${TIMEOUT:-240} \
        scripts/qemu-run.sh --fresh --quiet >"$RUN/run.out" 2>&1
    RC=$?
    LOG=$RUN/serial.txt
    REPORT=$(cat "$RUN/report.path" 2>/dev/null)
    echo "# $1: exit $RC in $(( $(date +%s) - t0 ))s, report ${REPORT:-none}, $(grep -a '^RESULT:' "$LOG" | tail -n1)"
}
log_has() { grep -aqE -- "$1" "$LOG"; }
stick_reports() { mdir -b -i "$RUN/stick.img@@1M" ::/tlbscope/reports 2>/dev/null | grep -cE '\.(json|txt)$'; }
refused() { log_has "$REFUSAL"; }

# 1. signed
sb_boot signed "$SIGNED_IMG"
check "signed: boots under enforcing Secure Boot, runs, exit 0 (RESULT COMPLETE)" test "$RC" = 0
check "signed: the console says 'Secure Boot enabled'" log_has '^Firmware .*Secure Boot enabled'
check "signed: the banner prints version $VERSION and commit $COMMIT" \
    log_has "^tlbscope $VERSION \\(commit $COMMIT\\)"
sb_check_signed_report

# 2. unsigned, 3. tampered: refused before the tool runs
for c in unsigned:build/tlbscope.img tampered:$out/tlbscope-tampered.img; do
    name=${c%%:*} img=${c#*:}
    sb_boot "$name" "$img" "$REFUSED_END"
    check "$name: the firmware refuses the stick's boot option (console: failed to load ... Access Denied)" refused
    check "$name: the tool never ran (no banner, no TLBSCOPE DONE)" \
        bash -c "! grep -aqE '^tlbscope [0-9]|^TLBSCOPE DONE' '$LOG'"
    check "$name: no report (none collected, none on the stick)" \
        test "${REPORT:-none}/$(stick_reports)" = none/0
done
