#!/usr/bin/env bash
# A report from Bochs looks like hardware: no hypervisor, a real Intel brand
# string. Only run.config.emulator, which the harness passes as emulator=bochs
# and the report records, marks it; tlbscope-report must then flag it in
# every output and warn when it meets hardware, as it does for a virtualised
# report, and must not guess when the key is absent. On a real Bochs report
# (tests/fixtures/reports/bochs/, from scripts/bochs-run.sh), copies of it
# without the key or with it set otherwise, and the synthetic hardware
# fixture. Runs without Bochs. Prints TAP lines for tests/run-all.sh.
cd "$(dirname "$0")/../.." || exit 1
TOOL=build/tlbscope-report
BOCHS=tests/fixtures/reports/bochs/bochs-skylake-x-smp2.json
HW=tests/fixtures/reports/synthetic-epyc7763-2s-hw.json
out=build/test-runs/emulator-label
rm -rf "$out" && mkdir -p "$out"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
check() { # description, command...
    local d=$1; shift
    if "$@"; then ok "$d"; else not_ok "$d"; fi
}
has() { grep -q -- "$2" "$out/$1.out"; }
run() { # name, tool arguments...: stdout and stderr in $out/name.out, status in $out/name.rc
    local name=$1; shift
    "$TOOL" "$@" >"$out/$name.out" 2>&1
    echo $? >"$out/$name.rc"
}
rc() { cat "$out/$1.rc"; }

# the same run without the key, as a writer from before it wrote it (its
# recommendations then said hardware): nothing left to tell it from a machine
jq 'del(.run.config.emulator) | .recommendations.environment = "hardware" |
    .recommendations.entries[] |= (.environment = "hardware" | .describes_hardware = true)' \
    "$BOCHS" >"$out/nokey.json"
jq '.run.config.emulator = "none"' "$out/nokey.json" >"$out/none.json"
jq '.run.config.emulator = "qemu"' "$BOCHS" >"$out/qemu-word.json"
jq '.recommendations.entries[0].environment = "hardware" | .recommendations.entries[0].describes_hardware = true' \
    "$BOCHS" >"$out/hw-rec.json"

check "the Bochs report: no hypervisor, a real brand, run.config.emulator bochs" \
    test "$(jq -r '"\(.cpu.hypervisor)/\(.cpu.brand)/\(.run.config.emulator)"' "$BOCHS")" = \
    "null/Intel(R) Core(TM) i7-7800X CPU @ 3.50GHz/bochs"
run v-bochs validate "$BOCHS"
check "validate: the Bochs report is valid" test "$(rc v-bochs)" = 0
run v-none validate "$out/nokey.json" "$out/none.json"
check "validate: without the key, or emulator none, a hardware report is valid" test "$(rc v-none)" = 0
run v-word validate "$out/qemu-word.json"
check "validate: an emulator this tool does not know is an error" \
    eval '[ "$(rc v-word)" = 1 ] && has v-word "run.config.emulator: .*none.*bochs"'
run v-hwrec validate "$out/hw-rec.json"
check "validate: a hardware recommendation on an emulated machine is an error" \
    eval '[ "$(rc v-hwrec)" = 1 ] && has v-hwrec "entries\[0\].environment: \"hardware\" in an emulated machine.s run (run.config.emulator)"'

run s-bochs show "$BOCHS"
check "show: one emulated-machine warning naming bochs, no per-experiment one" \
    eval 'has s-bochs "^WARNING   emulated machine: emulator bochs (run.config.emulator)" &&
          ! has s-bochs "^WARNING   emulated: "'
check "show: the machine is named emulator bochs" has s-bochs '^Machine   emulator bochs: unknown machine (no SMBIOS)'
check "show: every experiment row tagged [EMULATED]" \
    test "$(grep -cE '^(stale_detector_control|shootdown_seq_vs_conc|pti_double_invalidation|invlpgb_range) .*\[EMULATED\]' "$out/s-bochs.out")" = 4
run s-nokey show "$out/nokey.json"
check "show without the key: 'not recorded', and no emulated warning (nothing guessed)" \
    eval 'has s-nokey "^Emulator  not recorded" && ! has s-nokey "EMULATED" && ! has s-nokey "emulated machine"'
run s-none show "$out/none.json"
check "show with emulator none: neither a warning nor 'not recorded'" \
    eval '! has s-none "^Emulator" && ! has s-none "emulated machine"'
run s-hw show "$HW"
check "show of a report from before the key says it is not recorded" has s-hw '^Emulator  not recorded'

# (sides named A and B where a check reads them by letter)
run c-mix compare A="$BOCHS" B="$HW"
check "compare with hardware: exit 0, [EMULATED: bochs], the mixing warning" \
    eval '[ "$(rc c-mix)" = 0 ] && has c-mix "\[EMULATED: bochs\]" &&
          has c-mix "hardware report(s) B compared with virtualised or emulated report(s) A"'
check "compare: the emulator row, bochs against - (not recorded)" \
    grep -qE '^  emulator +bochs +- *$' "$out/c-mix.out"
check "compare: the Bochs report's cells are marked ~" grep -qE '[0-9]~' "$out/c-mix.out"
run c-nokey compare A="$out/nokey.json" B="$HW"
check "compare without the key: no mixing warning, no ~ (it reads as hardware)" \
    eval '[ "$(rc c-nokey)" = 0 ] && ! has c-nokey "compared with virtualised or emulated" && ! grep -qE "[0-9]~" "$out/c-nokey.out"'
"$TOOL" compare --csv A="$BOCHS" B="$HW" >"$out/c-csv.csv" 2>"$out/c-csv.err"
tr -d '\r' <"$out/c-csv.csv" | awk -F, 'NR > 1 && $1 == "A"' >"$out/c-csv.a"
check "compare --csv: every row of the Bochs report flagged emulated, the warning on stderr" \
    eval '[ -s "$out/c-csv.a" ] && ! grep -qv ",emulated\$" "$out/c-csv.a" &&
          grep -q "hardware and virtualised/emulated reports are compared" "$out/c-csv.err"'
run h-mix html -o "$out/mix.html" "$BOCHS" "$HW"
check "html: the EMULATED: bochs badge and the emulator in the warning and machine table" \
    eval '[ "$(rc h-mix)" = 0 ] && grep -q "badge emu\">EMULATED: bochs" "$out/mix.html" &&
          grep -q "ran on an emulator (bochs, run.config.emulator)" "$out/mix.html" &&
          grep -q "none (emulator bochs)" "$out/mix.html"'
