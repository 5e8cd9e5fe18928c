#!/usr/bin/env bash
# scripts/recover-report.sh names the file it writes after the dump's name in
# the serial log, which anything printing on the console controls: only a
# plain report name (core/run/run.c run_report_basename()) may become a file
# name. Serial logs made here (a whole, checksummed dump under each name);
# no QEMU. Prints TAP lines for tests/run-all.sh.
source "$(dirname "$0")/lib.sh"
base=$(mktemp -d "${TMPDIR:-/tmp}/tlbscope-recover.XXXXXX") || exit 1
trap 'rm -rf "$base"' EXIT

# serial_log NAME FILE: a console capture holding a whole dump of a small JSON under NAME
serial_log() {
    local body=$'{ "schema": "tlbscope-report",\n  "x": 1 }\n'   # the app's JSON ends in a newline
    {
        echo "tlbscope 1.0 booting"
        printf 'TLBSCOPE-JSON-BEGIN %s\r\n' "$1"
        printf '%s' "$body" | sed 's/^/J:/'
        echo
        printf 'TLBSCOPE-JSON-END bytes=%s cksum=%s\n' "$(printf '%s' "$body" | wc -c)" \
            "$(printf '%s' "$body" | cksum | awk '{print $1}')"
    } >"$2"
}

# a real name: written under it, inside the folder
good=20261201-101500-amd-f19m01-0042-0a1b2c3d
serial_log "$good" "$base/good.log"
out=$(scripts/recover-report.sh "$base/good.log" "$base/out" 2>&1)
check "a report name is written inside the folder ($good.json)" \
    test "$out" = "$base/out/$good.json" -a -s "$base/out/$good.json"
serial_log nodate-other-f06m55-0001 "$base/nodate.log"
check "a name without date or tag (nodate-other-f06m55-0001) is a report name" \
    eval 'scripts/recover-report.sh "$base/nodate.log" "$base/out" >/dev/null'

# names that climb out, name a path, or are no report's: refused, nothing written anywhere
mkdir -p "$base/deep/out"
for bad in ../escaped ../../escaped a/b /tmp/abs ..  . '20261201-101500-amd-f19m01-0042/../../x' \
           '20261201-101500-amd-f19m01-0042.json' '$(touch pwned)' "$(printf 'x\033[2Jy')"; do
    serial_log "$bad" "$base/bad.log"
    before=$(find "$base" /tmp/escaped /tmp/abs* 2>/dev/null | sort)
    msg=$(cd "$base/deep" && "$OLDPWD/scripts/recover-report.sh" "$base/bad.log" out 2>&1)
    rc=$?
    after=$(find "$base" /tmp/escaped /tmp/abs* 2>/dev/null | sort)
    check "dump named $(printf '%q' "$bad"): refused (exit 1), nothing written" \
        test "$rc/$([ "$before" = "$after" ] && echo same)" = "1/same"
    check "dump named $(printf '%q' "$bad"): the message says why, with no raw control bytes" \
        eval '[[ "$msg" == *"not a report name"* ]] && ! [[ "$msg" == *$'"'"'\033'"'"'* ]]'
done
[ -e "$base/escaped" ] || [ -e "$base/deep/escaped" ] && not_ok "a file escaped the folder"
exit 0
