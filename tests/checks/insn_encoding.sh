#!/usr/bin/env bash
# The privileged instructions of the built EFI binary, which no host test can
# run: every INVPCID, INVLPG, INVLPGB, TLBSYNC, WRMSR, RDMSR and MOV to or from
# CR0/CR2/CR3/CR4 in build/tlbscope.efi (the PE that ships; its .text is the
# linked ELF's, build/tlbscope.so, which keeps the records) is checked against
# the record its wrapper left (arch/x86/include/asm/insn_sites.h): opcode bytes, no prefix
# that changes an implicit operand, the control register's number, the
# operand registers the wrapper's template named; and every such instruction
# must have a record, so a copy emitted outside the wrappers is caught
# (tests/checks/insn_sites.py does the checking). Then the check must fail,
# naming the function, on wrong encodings: copies of the real binary with a
# byte changed at a site, and a small object of deliberately wrong sites
# (tests/checks/fixtures/insn_wrong.S) built with the same record macro.
# Last, aarch64: the TLBI form each flush of the app's tlbi_flush.c executes.
here=$(cd "$(dirname "$0")/../.." && pwd)
cd "$here" || exit 1
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
CHECK=tests/checks/insn_sites.py
SO=build/tlbscope.so EFI=build/tlbscope.efi
work=build/test-runs/insn
rm -rf "$work"; mkdir -p "$work"

if [ ! -s "$SO" ] || [ ! -s "$EFI" ]; then
    not_ok "build/tlbscope.so and build/tlbscope.efi exist (make efi)"
    exit 1
fi

# ---- the shipped binary ----
python3 "$CHECK" "$SO" "$EFI" >"$work/real.txt" 2>&1
rc=$?
if [ $rc = 0 ]; then
    ok "build/tlbscope.efi: every site matches its record, no site without one ($(grep -c '^site ' "$work/real.txt") sites)"
else
    not_ok "build/tlbscope.efi: the sites do not match their records (exit $rc)"
    grep '^problem' "$work/real.txt" | head -n 8 | sed 's/^/# /'
fi
counts=$(sed -n 's/^counts //p' "$work/real.txt")
echo "# $counts"
# by function: what each one executes (kind x count)
awk '$1 == "site" { k[$3 " " $4]++ } END { for (x in k) print "#   " x " x" k[x] }' "$work/real.txt" | sort
count() { sed -n "s/.*\b$1=\([0-9]*\).*/\1/p" <<<"$counts"; }
# a check that finds nothing proves nothing: each wrapper the tool uses is there
missing=""
for k in invpcid invlpg invlpgb tlbsync wrmsr rdmsr mov_to_cr3 mov_from_cr3 mov_to_cr4 mov_from_cr4; do
    [ "$(count "$k")" -gt 0 ] 2>/dev/null || missing+=" $k"
done
if [ -z "$missing" ]; then ok "every kind of site is present in the binary"; else not_ok "no site of:$missing"; fi
total=0
for k in invpcid invlpg invlpgb tlbsync wrmsr rdmsr mov_to_cr3 mov_from_cr3 mov_to_cr4 mov_from_cr4 mov_from_cr0 mov_from_cr2; do
    total=$((total + $(count "$k")))
done
if [ "$total" = "$(count records)" ]; then
    ok "the sites in the binary ($total) are exactly the wrappers' records"
else
    not_ok "sites in the binary: $total, records: $(count records)"
fi

# ---- the implicit operands: the registers the wrappers load, as the SDM and APM define them ----
# constraints KIND FILE: the operand list of the asm statement recording KIND
constraints() { tr '\n' ' ' <"$2" | grep -o "INSN_RECORD(INSN_KIND_$1, \"\")[^;]*;" | tr -s ' '; }
implicit_ok=true
for want in 'WRMSR arch/x86/include/asm/cpu.h "c"(msr), "a"((uint32_t)value), "d"((uint32_t)(value >> 32))' \
            'RDMSR arch/x86/include/asm/cpu.h : "=a"(lo), "=d"(hi) : "c"(msr)' \
            'INVLPGB arch/x86/include/asm/tlb.h "a"(rax), "c"(ecx), "d"(edx)'; do
    read -r kind file regs <<<"$want"
    if ! constraints "$kind" "$file" | grep -qF -- "$regs"; then
        implicit_ok=false
        echo "# $kind in $file: operands $(constraints "$kind" "$file"), want $regs"
    fi
done
if $implicit_ok; then
    ok "WRMSR takes ECX and EDX:EAX, RDMSR ECX into EDX:EAX, INVLPGB rAX, ECX, EDX (the wrappers' constraints)"
else
    not_ok "the wrappers' implicit operands are not the instructions' registers"
fi

# ---- doctored copies: bytes changed at a site, in both the ELF and the PE ----
# poke FILE ADDR HEX...: overwrite the bytes at .text address ADDR of FILE
poke() {
    python3 - "$@" <<'PY'
import re, subprocess, sys
path, addr = sys.argv[1], int(sys.argv[2], 16)
h = subprocess.run(["objdump", "-h", path], capture_output=True, text=True, check=True).stdout
vma, fileoff = (int(x, 16) for x in re.search(r"\.text\s+\w+\s+(\w+)\s+\w+\s+(\w+)", h).groups())
with open(path, "r+b") as f:
    f.seek(addr - vma + fileoff)
    f.write(bytes(int(b, 16) for b in sys.argv[3:]))
PY
}
# doctor NAME ADDR HEX...: copies of both binaries with those bytes at ADDR
doctor() {
    local name=$1; shift
    cp "$SO" "$work/$name.so" && cp "$EFI" "$work/$name.efi" &&
        poke "$work/$name.so" "$@" && poke "$work/$name.efi" "$@"
}
# site KIND FUNCTION-REGEX: the address of the first such site
site() { awk -v k="$1" -v f="$2" '$1 == "site" && $4 == k && $3 ~ f { print $2; exit }' "$work/real.txt"; }
# bytes_at ADDR: the instruction's bytes there, as hex words
bytes_at() {
    objdump -d -w --insn-width=16 "$EFI" |
        awk -v a="${1#0x}:" '$1 == a { for (i = 2; i <= NF && $i ~ /^[0-9a-f][0-9a-f]$/; i++) printf "%s ", $i; exit }'
}
# index_of BYTE HEX...: the position of the first BYTE among the others
index_of() { local want=$1 i=0 b; shift; for b in "$@"; do [ "$b" = "$want" ] && break; i=$((i + 1)); done; echo $i; }
addr_plus() { printf '0x%x' $(( $1 + $2 )); }
# expect NAME WHAT PATTERN: the check fails on the doctored copy with a problem matching PATTERN
expect() {
    local name=$1 what=$2 pattern=$3 out
    out=$(python3 "$CHECK" "$work/$name.so" "$work/$name.efi" 2>&1)
    if [ $? = 1 ] && grep -q "^problem: .*$pattern" <<<"$out"; then
        ok "doctored ($what): caught: $(grep -m1 "^problem: .*$pattern" <<<"$out" | sed 's/^problem: //')"
    else
        not_ok "doctored ($what): not caught"
        grep '^problem' <<<"$out" | head -n 3 | sed 's/^/# /'
    fi
}
# invlpgb_raw's 0F 01 FE made 0F 01 FD (RDPRU)
a=$(site invlpgb '^[^a]')
doctor invlpgb-fd "$(addr_plus "$a" 2)" fd &&
    expect invlpgb-fd "INVLPGB at $a (0F 01 FE) made 0F 01 FD" "recorded invlpgb, the bytes are something else"
# INVPCID's 82 made 81 (INVVPID); then its type register changed in ModRM.reg. The site: the
# shootdown's own flushes (core/machine/shootdown_flush_func.c); no copy made (no such site,
# the function renamed) is a failure, not a case left out
a=$(site invpcid '^shootdown_flush')
read -ra b <<<"$(bytes_at "$a")"
i=$(index_of 82 "${b[@]}"); m=0x${b[i + 1]}
doctor invpcid-81 "$(addr_plus "$a" "$i")" 81 &&
    expect invpcid-81 "INVPCID at $a made INVVPID" "recorded invpcid, the bytes are something else" ||
    not_ok "doctored (INVPCID made INVVPID): no copy made: no invpcid site in a shootdown_flush* function?"
doctor invpcid-reg "$(addr_plus "$a" $((i + 1)))" "$(printf '%02x' $((m ^ 0x08)))" &&
    expect invpcid-reg "INVPCID at $a with another type register" "invpcid '.*', the wrapper's operands are" ||
    not_ok "doctored (INVPCID's type register): no copy made: no invpcid site in a shootdown_flush* function?"
# write_cr4's MOV to CR4 made MOV to CR0 (ModRM.reg 4 -> 0)
a=$(site mov_to_cr4 .)
read -ra b <<<"$(bytes_at "$a")"
i=$(index_of 22 "${b[@]}"); m=0x${b[i + 1]}
doctor cr4-cr0 "$(addr_plus "$a" $((i + 1)))" "$(printf '%02x' $((m & ~0x38)))" &&
    expect cr4-cr0 "MOV to CR4 at $a made MOV to CR0" "recorded mov_to_cr4, the bytes are mov_to_cr0"
# an unrecorded WRMSR: a two-byte register move elsewhere made 0F 30, as a copy
# written outside the wrappers would be
a=$(objdump -d -w --insn-width=16 "$EFI" |
    awk '$2 == "89" && $3 ~ /^[cdef][0-9a-f]$/ && $4 !~ /^[0-9a-f][0-9a-f]$/ { sub(":", "", $1); print "0x" $1; exit }')
doctor stray-wrmsr "$a" 0f 30 &&
    expect stray-wrmsr "a WRMSR at $a outside the wrappers" "wrmsr .* without a record"
# the PE changed and the ELF not: the records would describe another binary
a=$(site wrmsr .)
cp "$SO" "$work/text-pe.so" && cp "$EFI" "$work/text-pe.efi" && poke "$work/text-pe.efi" "$(addr_plus "$a" 1)" 90 &&
    expect text-pe "the PE's .text changed, not the ELF's" "is not the .text of"

# ---- a small object of wrong sites, built with the same record macro ----
if gcc -c -I. -Iarch/x86/include tests/checks/fixtures/insn_wrong.S -o "$work/wrong.o" &&
    ld -shared -o "$work/wrong.so" "$work/wrong.o"; then
    out=$(python3 "$CHECK" "$work/wrong.so" 2>&1)
    rc=$?
    for f in invlpgb_with_address_size_prefix tlbsync_encoded_as_invlpgb cr4_written_as_cr0 \
             invpcid_type_register invpcid_encoded_as_invvpid unrecorded_wrmsr; do
        line=$(grep -m1 "^problem: 0x[0-9a-f]* in $f:" <<<"$out")
        if [ $rc = 1 ] && [ -n "$line" ]; then ok "insn_wrong.S: $f caught: ${line#problem: }"
        else not_ok "insn_wrong.S: $f not caught"; fi
    done
    if ! grep -q "^problem: .* in right:" <<<"$out"; then ok "insn_wrong.S: the right sites pass"
    else not_ok "insn_wrong.S: a right site was flagged"; fi
else
    not_ok "assemble and link tests/checks/fixtures/insn_wrong.S"
fi

# ---- aarch64: the TLBI each flush of core/exp/arm64/tlbi_flush.c executes ----
# The host model (tests/host/test_arm64_model) runs the operands asm/tlbi.h builds; the
# instruction each enum tlbi_op becomes is tlbi_issue's inline asm, which only the app has:
# checked here in the app's object (an EL1 and an EL2 form per op, nothing else).
A64O=build/aarch64/obj/core/exp/arm64/tlbi_flush.o
# a64_forms OBJ FUNCTION: the TLB maintenance forms FUNCTION executes (operand register
# dropped, commas too), sorted, joined by |
a64_forms() {
    llvm-objdump -d --no-show-raw-insn "$1" | awk -v f="<$2>:" '
        /^[0-9a-f]+ </ { on = ($2 == f); next }
        on && ($2 == "tlbi" || $2 == "sys") {
            n = ($NF ~ /^x[0-9]+$/) ? NF - 1 : NF; form = $2
            for (i = 3; i <= n; i++) form = form " " $i
            gsub(",", "", form); print form }' | sort -u | paste -sd'|'
}
a64_want=("tlbi_flush_broadcast=tlbi vae1is|tlbi vae2is"
          "tlbi_flush_local=tlbi vae1|tlbi vae2"
          "tlbi_flush_broadcast_os=sys #0 c8 c1 #1|sys #4 c8 c1 #1"
          "tlbi_flush_range=sys #0 c8 c2 #1|sys #4 c8 c2 #1|tlbi vae1is|tlbi vae2is"
          "tlbi_flush_broadcast_asid=tlbi vae1is|tlbi vae2is"
          "tlbi_flush_asid=tlbi aside1is"
          "tlbi_flush_all=tlbi alle2is|tlbi vmalle1is")
# Linux's unmap sequence (linux_tlbi.c): VALE1IS (its dummy too, operand 0 in a register, as XZR), RVALE1IS, ASIDE1IS and
# the EL2 forms, nothing else
A64L=build/aarch64/obj/core/exp/arm64/linux_tlbi.o
a64_linux_want="sys #0 c8 c2 #5|sys #4 c8 c2 #5|tlbi alle2is|tlbi aside1is|tlbi vale1is|tlbi vale2is|tlbi vmalle1is"
if [ ! -s "$A64L" ] || ! command -v llvm-objdump >/dev/null; then
    ok "aarch64: the TLBI forms of linux_tlbi.c # SKIP no $A64L (make ARCH=aarch64) or no llvm-objdump"
else
    got=$(a64_forms "$A64L" linux_tlbi_flush)
    if [ "$got" = "$a64_linux_want" ]; then ok "aarch64: Linux's sequence (linux_tlbi_flush) executes VALE1IS, RVALE1IS, ASIDE1IS, the XZR dummy and the EL2 forms"
    else not_ok "aarch64: linux_tlbi_flush's TLBI forms: [$got], want [$a64_linux_want]"; fi
fi
if [ ! -s "$A64O" ] || ! command -v llvm-objdump >/dev/null; then
    ok "aarch64: the TLBI forms of tlbi_flush.c # SKIP no $A64O (make ARCH=aarch64) or no llvm-objdump"
else
    bad=""
    for w in "${a64_want[@]}"; do
        got=$(a64_forms "$A64O" "${w%%=*}")
        [ "$got" = "${w#*=}" ] || bad+=" ${w%%=*}: [$got], want [${w#*=}];"
    done
    if [ -z "$bad" ]; then ok "aarch64: each flush of tlbi_flush.c executes its TLBI forms (VAE1IS, VAE1, VAE1OS, RVAE1IS, ASIDE1IS, VMALLE1IS and the EL2 ones)"
    else not_ok "aarch64: TLBI forms:$bad"; fi
    # the check must see a wrong form: mutant 182 (arm_vae1_not_is) issues TLBI VAE1 for VAE1IS
    cmd=$(make --no-print-directory -s -n -B ARCH=aarch64 "$A64O" 2>/dev/null | grep -- "-c core/exp/arm64/tlbi_flush.c")
    if [ -n "$cmd" ] && eval "${cmd% -o *} -DTLBSCOPE_MUTANT=182 -o $work/a64-m182.o" &&
        got=$(a64_forms "$work/a64-m182.o" tlbi_flush_broadcast) && [ "$got" = "tlbi vae1|tlbi vae2" ]; then
        ok "aarch64: a broadcast flush issuing TLBI VAE1 (mutant arm_vae1_not_is) is seen: [$got]"
    else
        not_ok "aarch64: the mutant arm_vae1_not_is's tlbi_flush_broadcast not told apart (${got:-no object})"
    fi
fi
echo "# SUMMARY: $total instruction sites in build/tlbscope.efi checked against their records"
