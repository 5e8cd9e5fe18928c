#!/usr/bin/env bash
# The folders' include directions (issue 26): scripts/check-layers.py over the tree against
# docs/layers.txt, then the same checker on scratch trees holding one deliberate mistake each
# (an include against the direction, product code including the model or the tests, the model
# including the UEFI glue, an architecture header by path, an include into no folder, a source
# file in no folder, rules that go round in a circle), which it must name. Also: no .c file directly in
# core/ or reports/tool/ (every file sits in its role's folder), and the files' own rules
# (scripts/check-file-rules.py: no .c/.h over 600 lines, no two .c files that call each
# other), also on a scratch tree with one of each. Prints TAP lines.
cd "$(dirname "$0")/../.." || exit 1
work=build/test-runs/layers
rm -rf "$work" && mkdir -p "$work"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }

if out=$(python3 scripts/check-layers.py 2>&1); then
    ok "the tree follows docs/layers.txt ($(tail -1 <<<"$out" | sed 's/^# //'))"
else
    not_ok "the tree breaks docs/layers.txt:"
    sed 's/^/# /' <<<"$out" | head -20
fi

# the files' own rules: none over 600 lines, no two that call each other (scripts/check-file-rules.py)
if out=$(python3 scripts/check-file-rules.py 2>&1); then
    ok "no file over 600 lines, no two files that call each other ($(tail -1 <<<"$out" | sed 's/^# //'))"
else
    not_ok "the files break their own rules:"
    sed 's/^/# /' <<<"$out" | head -30
fi
# and the checker names each kind of breach in a scratch tree that has one
fr=$work/file_rules
mkdir -p "$fr/sim"
printf 'int a_one(void) { return 1; }\nint b_one(void);\nint a_two(void) { return b_one(); }\n' >"$fr/sim/a.c"
printf 'int a_one(void);\nint b_one(void) { return a_one(); }\n' >"$fr/sim/b.c"
seq 601 | sed 's|^|// line |' >"$fr/sim/long.h"
out=$(python3 scripts/check-file-rules.py --root "$fr" 2>&1); rc=$?
if [ $rc != 0 ] && grep -q 'sim/a.c: calls b_one in sim/b.c, which calls a_one back' <<<"$out" &&
   grep -q 'sim/long.h: 601 lines, over 600' <<<"$out"; then
    ok "file rules: a scratch pair that calls each other and a 601-line header are named"
else
    not_ok "file rules: exit $rc, got: $(head -3 <<<"$out")"
fi
rm "$fr/sim/long.h"
printf 'int a_one(void) { return 1; }\n' >"$fr/sim/a.c"
if python3 scripts/check-file-rules.py --root "$fr" >/dev/null 2>&1; then ok "file rules: one direction passes"
else not_ok "file rules: a pair calling one way fails"; fi

loose=$(git ls-files 'core/*.c' 'reports/tool/*.c' | awk -F/ '($1 == "core" && NF == 2) || ($1 == "reports" && NF == 3)')
if [ -z "$loose" ]; then ok "no .c file directly in core/ or reports/tool/"; else not_ok "loose .c files: $loose"; fi

# scratch NAME FILE LINE: a copy of docs/layers.txt and of core/lib/strbuf.c and
# core/run/config.h, with LINE appended to FILE (relative to the scratch root)
scratch() {
    local d=$work/$1
    mkdir -p "$d/docs" "$d/core/lib" "$d/core/run" "$d/$(dirname "$2")"
    cp docs/layers.txt "$d/docs/"
    cp core/lib/strbuf.c "$d/core/lib/"
    cp core/run/config.h "$d/core/run/"
    echo "$3" >>"$d/$2"
    echo "$d"
}
# expect_named NAME WANT FILE LINE: the checker fails on the scratch tree and its message has WANT
expect_named() {
    local d out rc
    d=$(scratch "$1" "$3" "$4")
    out=$(python3 scripts/check-layers.py --root "$d" 2>&1); rc=$?
    if [ $rc != 0 ] && grep -qF -- "$2" <<<"$out"; then
        ok "$1: named ($(head -1 <<<"$out"))"
    else
        not_ok "$1: exit $rc, wanted a message with '$2', got: $(head -3 <<<"$out")"
    fi
}
expect_named upward_include 'core/lib -> core/run' core/lib/strbuf.c '#include "core/run/config.h"'
expect_named arch_by_path 'use "asm/cpu.h"' core/run/config.h '#include "arch/x86/include/asm/cpu.h"'
expect_named into_no_folder 'lies in no folder' core/lib/strbuf.c '#include "tools/helper.h"'
# the host side answers to the rules too: the product never includes the model or the tests,
# the model never the UEFI glue it stands in for, and a source file needs a folder with a rule
expect_named core_includes_sim 'core/lib -> sim' core/lib/strbuf.c '#include "sim/machine.h"'
expect_named core_includes_tests 'core/run -> tests/host' core/run/config.h '#include "tests/host/support_sim.h"'
expect_named sim_includes_efi 'sim -> efi' sim/model.c '#include "efi/session.h"'
expect_named source_in_no_folder 'tools/gen.c: a source file in no folder' tools/gen.c 'int gen;'
expect_named rules_in_a_circle 'go round in a circle' docs/layers.txt $'core/x: core/y\ncore/y: core/lib core/x'
expect_named rule_without_folder 'has no rule of its own' docs/layers.txt 'core/new: core/elsewhere'
# and the unchanged scratch copy passes: the failures above come from the one line added
d=$(scratch clean docs/layers.txt '')
if python3 scripts/check-layers.py --root "$d" >/dev/null 2>&1; then ok "the scratch tree without a mistake passes"
else not_ok "the scratch tree without a mistake fails"; fi
echo "1..$n"
