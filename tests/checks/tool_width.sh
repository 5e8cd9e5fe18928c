#!/usr/bin/env bash
# The host tool at 80 columns (the UEFI console and most serial consoles are 80x25):
# --help, help CMD and the man page fit 80 columns, show and compare too, show --wide 100; on a terminal every stderr line does
# too (a long message is broken between words; redirected, it stays one line, for grep);
# a mistyped experiment id or option is named, with the one that was meant.
source "$(dirname "$0")/lib.sh"
TOOL=build/tlbscope-report
S4=reports/samples/qemu-tcg-smp4-max.json SK=reports/samples/qemu-tcg-smp4-skylake.json
widest() { awk '{ if (length > m) m = length } END { print m + 0 }'; }
cmds=$("$TOOL" --help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit } on && /^  [a-z]/ { print $1 }')
check "--help and help CMD for every command ($(echo $cmds)) fit 80 columns" eval '
    [ "$("$TOOL" --help | widest)" -le 80 ] &&
    for c in $cmds; do [ "$("$TOOL" help "$c" | widest)" -le 80 ] || exit 1; done'
# rendered as man does on an 80-column terminal (groff-base: scripts/deps.sh test)
man_width=$(groff -man -Tascii -P-cbou -rLL=80n build/tlbscope-report.1 2>/dev/null | widest)
check "the man page fits an 80-column terminal (widest line $man_width)" \
    eval '[ "$man_width" -gt 60 ] && [ "$man_width" -le 80 ]'
# show at 80 columns and show --wide at its documented 100, on every shipped sample
over=""
for f in reports/samples/*.json reports/samples/sim/*.json; do
    [ "$("$TOOL" show "$f" | widest)" -le 80 ] || over+=" $(basename "$f")"
    [ "$("$TOOL" show --wide "$f" | widest)" -le 100 ] || over+=" $(basename "$f")(--wide)"
done
check "show fits 80 columns and show --wide 100 on every shipped sample${over:+ (over:$over)}" test -z "$over"
# compare of many reports: the long layout, and where even that is too wide, the parameters
# every row shares on a line above the table
q_w=$("$TOOL" compare reports/samples/qemu-tcg-*.json 2>/dev/null | widest)
m_w=$("$TOOL" compare reports/samples/sim/*.json 2>/dev/null | widest)
check "compare of the 5 QEMU x86 samples ($q_w columns) and of the 8 model samples ($m_w) fits 80 columns" \
    eval '[ "$q_w" -le 80 ] && [ "$m_w" -le 80 ] && [ "$q_w" -gt 60 ] &&
          "$TOOL" compare reports/samples/qemu-tcg-*.json 2>/dev/null | grep -q "^  on every row: "'
# on a terminal (script(1) gives the tool one): the long "no such experiment" message
typo=(compare --experiment ipi_brodcast "$S4" "$SK")
on_tty() { script -qec "$* 2>&1 >/dev/null" /dev/null | tr -d '\r'; }
tty_err=$(on_tty "$TOOL" "${typo[@]}")
file_err=$("$TOOL" "${typo[@]}" 2>&1 >/dev/null)
check "on a terminal a long stderr message is broken between words at 80 columns, continued 2 in" eval '
    [ "$(wc -l <<<"$tty_err")" -ge 3 ] && [ "$(widest <<<"$tty_err")" -le 80 ] &&
    sed -n 2p <<<"$tty_err" | grep -q "^  [a-z]" &&
    [ "$(tr -s " \n" " " <<<"$tty_err")" = "$(tr -s " \n" " " <<<"$file_err")" ]'
check "redirected to a file, the same message stays one line (for grep)" \
    eval '[ "$(wc -l <<<"$file_err")" = 1 ] && [ "$(widest <<<"$file_err")" -gt 80 ]'
check "compare --experiment with a typo: exit 2, the id that was meant suggested" eval '
    "$TOOL" "${typo[@]}" >/dev/null 2>&1; [ $? = 2 ] && grep -q "(did you mean ipi_broadcast?)" <<<"$file_err"'
check "an unknown option is named, with the option that was meant (compare, show, redact)" eval '
    "$TOOL" compare --treshold 5 "$S4" "$SK" 2>&1 | grep -q "compare: unknown option --treshold (did you mean --threshold?)" &&
    "$TOOL" show --jsn "$S4" 2>&1 | grep -q "show: unknown option --jsn (did you mean --json?)" &&
    "$TOOL" redact --key-fil k "$S4" 2>&1 | grep -q "redact: unknown option --key-fil (did you mean --key-file?)" &&
    "$TOOL" validate --bogus "$S4" 2>&1 | grep -q "validate: unknown option --bogus$"'
echo "1..$n"
