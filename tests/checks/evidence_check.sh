#!/usr/bin/env bash
# The feature-evidence check of tests/qemu/boot_smp.sh
# (features_absent_with_evidence in tests/qemu/lib.sh) must be able to fail.
# Its first version passed both a report claiming PCID and one with no CPUID
# evidence at all, and nothing noticed because every QEMU run is good. So it
# runs here, without QEMU, on a real TCG report and on copies doctored one
# defect at a time; each doctored copy must fail, and for the reason planted.
# Prints TAP lines for tests/run-all.sh.
source "$(dirname "$0")/../qemu/lib.sh" # cds to the repository root; boots nothing

# A real `-cpu max` TCG report with the current SKIP wording (the fixture
# tests/fixtures/reports/qemu-tcg-smp2-all.json has older wording and runs
# invlpgb_range emulated, so it is not a plain TCG run).
GOOD=reports/samples/qemu-tcg-smp4-max.json
out=build/test-runs/evidence-check
rm -rf "$out" && mkdir -p "$out"

# doctor NAME JQ-FILTER: a copy of GOOD edited by jq; prints its path
doctor() {
    jq "$2" "$GOOD" >"$out/$1.json" || echo "# jq failed making $1" >&2
    echo "$out/$1.json"
}
# expect_pass NAME FILE / expect_fail NAME FILE PATTERN: the check's verdict,
# and for a failure, that its "# evidence:" output names the planted defect
expect_pass() {
    local o
    o=$(features_absent_with_evidence "$2")
    check "$1: passes" test $? = 0
    [ -n "$o" ] && echo "$o"
}
expect_fail() {
    local o rc
    o=$(features_absent_with_evidence "$2"); rc=$?
    echo "$o"
    check "$1: fails" test $rc != 0
    check "$1: the failure names it ($3)" grep -q -- "$3" <<<"$o"
}

# the reason of pti_double_invalidation, rewritten to quote a new ECX value
pti_ecx='(.experiments[] | select(.id == "pti_double_invalidation") | .reason) |= sub("ECX = 0x[0-9a-f]+"; "ECX = 0xf6fa320b")'

check "the good report exists and carries the three registers" \
    test "$(jq -r '[.cpu.cpuid["1.ecx", "7.0.ebx", "80000008.ebx"] | strings] | length' "$GOOD")" = 3
expect_pass "(a) real TCG report $GOOD" "$GOOD"

# (b) a feature wrongly reported present (the register still says absent)
expect_fail "(b) pcid true" "$(doctor pcid-true '.cpu.features.pcid = true')" "cpu.features.pcid is true"
expect_fail "(b) invpcid true" "$(doctor invpcid-true '.cpu.features.invpcid = true')" "cpu.features.invpcid is true"
expect_fail "(b) invlpgb true" "$(doctor invlpgb-true '.cpu.features.invlpgb = true')" "cpu.features.invlpgb is true"

# (c) verdicts false with the evidence gone: the case the old check let through
expect_fail "(c) cpu.cpuid removed" "$(doctor cpuid-gone 'del(.cpu.cpuid)')" 'cpu.cpuid\["1.ecx"\] is null'
expect_fail "(c) 1.ecx null" "$(doctor ecx-null '.cpu.cpuid["1.ecx"] = null')" 'cpu.cpuid\["1.ecx"\] is null'
expect_fail "(c) 7.0.ebx removed" "$(doctor ebx7-gone 'del(.cpu.cpuid["7.0.ebx"])')" 'cpu.cpuid\["7.0.ebx"\] is null'
expect_fail "(c) 80000008.ebx not hex" "$(doctor ext8-junk '.cpu.cpuid["80000008.ebx"] = "$(reboot)"')" \
    'cpu.cpuid\["80000008.ebx"\] is \$(reboot)'

# (d) a register contradicting its verdict; the SKIP reason is made to quote
# the new value so that the bit is the only defect
expect_fail "(d) 1.ecx bit 17 set, pcid false" \
    "$(doctor ecx-bit17 ".cpu.cpuid[\"1.ecx\"] = \"0xf6fa320b\" | $pti_ecx")" "bit 17 (PCID) set"
expect_fail "(d) 7.0.ebx bit 10 set, invpcid false" \
    "$(doctor ebx7-bit10 '.cpu.cpuid["7.0.ebx"] = "0x219c47a9" | (.experiments[] | select(.id == "pti_double_invalidation") | .reason) |= sub("EBX = 0x[0-9a-f]+"; "EBX = 0x219c47a9")')" \
    "bit 10 (INVPCID) set"
expect_fail "(d) 80000008.ebx bit 3 set, invlpgb false" \
    "$(doctor ext8-bit3 '.cpu.cpuid["80000008.ebx"] = "0x20c" | (.experiments[] | select(.id == "invlpgb_range") | .reason) |= sub("EBX = 0x[0-9a-f]+"; "EBX = 0x0000020c")')" \
    "bit 3 (INVLPGB) set"

# the SKIP reasons must quote the registers, with the report's values
expect_fail "reason without the ECX value" \
    "$(doctor pti-no-ecx '(.experiments[] | select(.id == "pti_double_invalidation") | .reason) = "no PCID"')" \
    "does not quote 'ECX = 0x...'"
expect_fail "reason quoting another EBX" \
    "$(doctor ib-other-ebx '(.experiments[] | select(.id == "invlpgb_range") | .reason) |= sub("EBX = 0x[0-9a-f]+"; "EBX = 0x00000004")')" \
    "quotes EBX = 0x00000004"
expect_fail "invlpgb_range not SKIP" \
    "$(doctor ib-success '(.experiments[] | select(.id == "invlpgb_range") | .status) = "SUCCESS"')" \
    "invlpgb_range is SUCCESS, want SKIP"
expect_fail "not JSON" "$(printf '{"cpu": ' >"$out/truncated.json"; echo "$out/truncated.json")" "not readable JSON"
