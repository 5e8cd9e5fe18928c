#!/usr/bin/env bash
# Secure Boot for the aarch64 app: tests/qemu/secureboot.sh's three boots under
# qemu-system-aarch64 -M virt and AAVMF, enforcing. Debian's qemu-efi-aarch64 ships one
# firmware build with Secure Boot (AAVMF_CODE.fd; .ms.fd and .snakeoil.fd are links to it):
# on virt the variables live in the second pflash, with no SMM, and the store decides.
#   host (always, with sbsigntool): make sign ARCH=aarch64 signs build/aarch64/BOOTAA64.EFI
#      with the test key x86's `make sign` uses and sbverify accepts it (lld-link's PE as it
#      is); the unsigned binary does not verify; the .sbat section holds build/sbat.csv
#      (efi/sbat.csv, the version filled in), as x86's does; make image ARCH=aarch64
#      SIGNED=1 carries the signed binary; a copy with one byte of .sbat changed does not
#      verify.
#   1. the signed image boots, runs profile=quick, its console says "Secure Boot enabled"
#      and its report firmware.secure_boot "enabled" (and validates);
#   2. the unsigned image is refused: "failed to load Boot... "UEFI Misc Device" ...: Access
#      Denied" on the console, no banner, no report on the stick;
#   3. the tampered signed binary is refused the same way.
# The variable store trusts the key the binary is signed with:
#   enrolled  (virt-fw-vars, python3-virt-firmware, preferred): AAVMF_VARS.ms.fd (the empty
#             AAVMF_VARS.fd is all zeros until the firmware's first boot formats it, so
#             virt-fw-vars cannot read it) with its PK, KEK and db deleted and the test
#             certificate (build/keys/TEST-KEY-*) set as PK, KEK and db, Secure Boot on;
#   snakeoil  (qemu-efi-aarch64 alone): AAVMF_VARS.snakeoil.fd, whose PK, KEK and db hold
#             Debian's snakeoil certificate; signed by `make sign ARCH=aarch64 KEY=...
#             CERT=... KEY_PASS=snakeoil` with the key shipped in /usr/share/qemu-efi-aarch64.
# TLBSCOPE_SB_STORE=enrolled|snakeoil chooses; by default the first that can be set up. If
# neither can, the boots SKIP saying what is missing, and the host checks still run.
# Prints TAP lines for tests/run-all.sh.
. "$(dirname "$0")/lib.sh" # ok, check, skip; sb_store, sb_skip_missing, sb_tamper
out=$here/build/test-runs/secureboot-aarch64
rm -rf "$out" && mkdir -p "$out"
export MTOOLS_SKIP_CHECK=1
AAVMF_DIR=${TLBSCOPE_AAVMF_DIR:-/usr/share/AAVMF}
SNAKEOIL_KEY=${TLBSCOPE_A64_SNAKEOIL_KEY:-/usr/share/qemu-efi-aarch64/PkKek-1-snakeoil.key}
SNAKEOIL_CERT=${SNAKEOIL_KEY%.key}.pem
OWNER=3c9d5b7a-2f4e-4b61-9a0d-74626c73636f # the enrolled certificate's owner (any fixed GUID)
A64=build/aarch64
SIGNED_EFI=$out/BOOTAA64-signed.efi
SIGNED_IMG=$out/tlbscope-signed.img
# the boot manager's refusal of the stick's boot option (virtio-blk: "UEFI Misc Device");
# then it tries the shell (unsigned: refused too), gives up and waits for a key
REFUSAL='failed to load Boot[0-9A-F]+ "UEFI Misc Device" from [^ ]*: (Access Denied|Security Violation)'
REFUSED_END='No bootable option or device was found|Press any key to enter the Boot Manager'

# ---- the host checks: signing, sbverify, .sbat ----
missing=()
command -v sbsign >/dev/null && command -v sbverify >/dev/null || missing+=("sbsign/sbverify (sbsigntool)")
command -v jq >/dev/null || missing+=("jq")
command -v mcopy >/dev/null || missing+=("mcopy (mtools)")
sb_skip_missing "aarch64 Secure Boot: signing, sbverify, .sbat and the boots"
if ! make --no-print-directory ARCH=aarch64 efi image >"$out/build.log" 2>&1; then
    not_ok "make ARCH=aarch64 efi image (see $out/build.log)"
    exit 1
fi
VERSION=$(cat VERSION)
read -r _ COMMIT <build/commit.stamp
quietly() { "$@" >/dev/null 2>&1; }
# section FILE NAME: "file-offset size" of a PE section (size: its VirtualSize, the bytes
# the loader maps, without the file alignment's padding)
section() {
    python3 - "$1" "$2" <<'EOF'
import struct, sys
d = open(sys.argv[1], "rb").read()
pe = struct.unpack_from("<I", d, 0x3c)[0]
count, opt = struct.unpack_from("<HH", d, pe + 6)[0], struct.unpack_from("<H", d, pe + 20)[0]
for i in range(count):
    s = pe + 24 + opt + 40 * i
    if d[s:s + 8].rstrip(b"\0").decode() == sys.argv[2]:
        vsize, _, _, raw = struct.unpack_from("<IIII", d, s + 8)
        print(raw, vsize)
EOF
}

CERT=build/keys/TEST-KEY-tlbscope-db.crt
make --no-print-directory ARCH=aarch64 sign SIGNED_EFI="$SIGNED_EFI" >"$out/sign.log" 2>&1
check "make sign ARCH=aarch64 (no KEY): signed with x86's test key (build/keys), sbverify OK" \
    grep -q "sbverify: .* is signed by .*TEST KEY" "$out/sign.log"
[ -s "$SIGNED_EFI" ] || { not_ok "no signed binary (see $out/sign.log)"; exit 1; }
check "sbverify: the signed BOOTAA64 verifies against $CERT" quietly sbverify --cert "$CERT" "$SIGNED_EFI"
check "sbverify: the unsigned $A64/BOOTAA64.EFI does not" \
    bash -c "! sbverify --cert '$CERT' '$A64/BOOTAA64.EFI' >/dev/null 2>&1"

read -r sbat_off sbat_size < <(section "$A64/BOOTAA64.EFI" .sbat)
if [ -n "${sbat_off:-}" ]; then
    dd if="$A64/BOOTAA64.EFI" of="$out/sbat.bin" bs=1 skip="$sbat_off" count="$sbat_size" status=none
    { cat build/sbat.csv; printf '\0'; } >"$out/sbat.want"
    check ".sbat: build/sbat.csv as x86's (then a NUL), line 2 'tlbscope,1,tlbscope,tlbscope,$VERSION,tlbscope'" \
        bash -c "cmp -s '$out/sbat.bin' '$out/sbat.want' && sed -n 2p build/sbat.csv | grep -qx 'tlbscope,1,tlbscope,tlbscope,$VERSION,tlbscope'"
else
    not_ok ".sbat: no .sbat section in $A64/BOOTAA64.EFI"
fi

make --no-print-directory ARCH=aarch64 image SIGNED=1 SIGNED_EFI="$SIGNED_EFI" SIGNED_IMG="$SIGNED_IMG" \
    >"$out/image.log" 2>&1
mcopy -o -i "$SIGNED_IMG" ::/EFI/BOOT/BOOTAA64.EFI "$out/from-image.efi" 2>/dev/null
check "make image ARCH=aarch64 SIGNED=1: the image's \\EFI\\BOOT\\BOOTAA64.EFI is the signed binary" \
    cmp -s "$out/from-image.efi" "$SIGNED_EFI"

# one byte changed after signing: the first byte of .sbat
tampered_efi=$out/BOOTAA64-tampered.efi
read -r off _ < <(section "$SIGNED_EFI" .sbat)
sb_tamper "$SIGNED_EFI" "${off:-}" "$tampered_efi" "$CERT"
cp "$SIGNED_IMG" "$out/tlbscope-tampered.img"
mcopy -o -i "$out/tlbscope-tampered.img" "$tampered_efi" ::/EFI/BOOT/BOOTAA64.EFI

# ---- the variable store ----
missing=()
command -v qemu-system-aarch64 >/dev/null || missing+=("qemu-system-aarch64 (qemu-system-arm)")
[ -f "$AAVMF_DIR/AAVMF_CODE.fd" ] || missing+=("$AAVMF_DIR/AAVMF_CODE.fd (qemu-efi-aarch64)")
can_enrolled() { command -v virt-fw-vars >/dev/null && [ -f "$AAVMF_DIR/AAVMF_VARS.ms.fd" ]; }
can_snakeoil() { [ -f "$AAVMF_DIR/AAVMF_VARS.snakeoil.fd" ] && [ -r "$SNAKEOIL_KEY" ] && [ -r "$SNAKEOIL_CERT" ]; }
store=$(sb_store) || { not_ok "TLBSCOPE_SB_STORE=$TLBSCOPE_SB_STORE: want enrolled or snakeoil"; exit 1; }
[ -n "$store" ] || missing+=("a variable store with a key to sign with: virt-fw-vars (python3-virt-firmware) with $AAVMF_DIR/AAVMF_VARS.ms.fd, or qemu-efi-aarch64's snakeoil store ($AAVMF_DIR/AAVMF_VARS.snakeoil.fd, $SNAKEOIL_KEY)")
sb_skip_missing "aarch64 Secure Boot boots: signed image boots, unsigned and tampered images refused"
echo "# variable store: $store"
if [ "$store" = enrolled ]; then
    vars=$out/AAVMF_VARS_enrolled.fd
    virt-fw-vars -i "$AAVMF_DIR/AAVMF_VARS.ms.fd" -o "$vars" -d PK -d KEK -d db \
        --set-pk "$OWNER" "$CERT" --add-kek "$OWNER" "$CERT" --add-db "$OWNER" "$CERT" \
        --secure-boot >"$out/vars.log" 2>&1
    virt-fw-vars -i "$vars" --print >"$out/vars.txt" 2>&1
    # one certificate each (the .ms store's Microsoft ones deleted): the DER size of ours
    # plus the EFI_SIGNATURE_LIST and EFI_SIGNATURE_DATA headers (28 + 16 bytes)
    len=$(( $(stat -c %s build/keys/TEST-KEY-tlbscope-db.cer) + 44 ))
    check "variable store: the test certificate alone is PK, KEK and db, SecureBootEnable on (virt-fw-vars)" \
        bash -c "grep -qE '^PK +: blob: $len bytes' '$out/vars.txt' && grep -qE '^KEK +: blob: $len bytes' '$out/vars.txt' &&
                 grep -qE '^db +: blob: $len bytes' '$out/vars.txt' && grep -q 'SecureBootEnable *: bool: ON' '$out/vars.txt'"
else
    vars=$AAVMF_DIR/AAVMF_VARS.snakeoil.fd
    CERT=$SNAKEOIL_CERT
    make --no-print-directory ARCH=aarch64 sign SIGNED_EFI="$SIGNED_EFI" KEY="$SNAKEOIL_KEY" \
        CERT="$SNAKEOIL_CERT" KEY_PASS=snakeoil >"$out/sign-snakeoil.log" 2>&1
    make --no-print-directory ARCH=aarch64 image SIGNED=1 SIGNED_EFI="$SIGNED_EFI" SIGNED_IMG="$SIGNED_IMG" \
        KEY="$SNAKEOIL_KEY" CERT="$SNAKEOIL_CERT" KEY_PASS=snakeoil >>"$out/sign-snakeoil.log" 2>&1
    check "make sign ARCH=aarch64 KEY=snakeoil CERT=... KEY_PASS=snakeoil: sbverify OK against it" \
        quietly sbverify --cert "$CERT" "$SIGNED_EFI"
    sb_tamper "$SIGNED_EFI" "$off" "$tampered_efi" "$CERT"
    cp "$SIGNED_IMG" "$out/tlbscope-tampered.img"
    mcopy -o -i "$out/tlbscope-tampered.img" "$tampered_efi" ::/EFI/BOOT/BOOTAA64.EFI
fi

# sb_boot NAME IMAGE [STOP_ON]: boots IMAGE under enforcing Secure Boot (SMP=2,
# profile=quick); sets RUN, LOG (console), REPORT (json or ""), RC
sb_boot() {
    RUN=$out/$1
    mkdir -p "$RUN"
    local t0; t0=$(date +%s)
    AAVMF_VARS=$vars OUT=$RUN/reports LOG=$RUN/console.log STOP_ON=${3:-} SMP=2 \
        ARGS=profile=quick TIMEOUT=${TIMEOUT:-240} scripts/qemu-run-aarch64.sh "$2" >"$RUN/run.out" 2>&1
    RC=$?
    LOG=$RUN/console.log
    REPORT=$(ls "$RUN"/reports/*.json 2>/dev/null | head -n1)
    echo "# $1: exit $RC in $(( $(date +%s) - t0 ))s, report ${REPORT:-none}, $(grep -a '^RESULT:' "$LOG" | tail -n1)"
}
console_has() { tr -d '\r' <"$LOG" | grep -aqE -- "$1"; }

# 1. signed
sb_boot signed "$SIGNED_IMG"
check "signed: boots under enforcing Secure Boot, runs, PSCI SYSTEM_OFF (exit 0)" test "$RC" = 0
check "signed: the summary's Firmware line says Secure Boot enabled" console_has '^Firmware +.*Secure Boot enabled'
check "signed: the banner prints version $VERSION and commit $COMMIT" \
    console_has "^tlbscope $VERSION \\($COMMIT\\) for aarch64"
sb_check_signed_report

# 2. unsigned, 3. tampered: refused before the app runs
for c in unsigned:$A64/tlbscope.img tampered:$out/tlbscope-tampered.img; do
    name=${c%%:*} img=${c#*:}
    sb_boot "$name" "$img" "$REFUSED_END"
    check "$name: the firmware refuses the stick's boot option (console: failed to load ... Access Denied)" \
        console_has "$REFUSAL"
    check "$name: the app never ran (no banner, no TLBSCOPE DONE)" \
        bash -c "! tr -d '\\r' <'$LOG' | grep -aqE '^tlbscope [0-9]|^TLBSCOPE DONE'"
    check "$name: no report on the stick" test -z "$REPORT"
done
