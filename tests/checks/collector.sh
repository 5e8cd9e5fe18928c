#!/usr/bin/env bash
# The report collector (reports/collector/nginx.conf.in) as a lab runs it,
# with a real nginx (scripts/collector.sh) and curl, no QEMU (issue 35):
#   - it takes a report under a name the app writes, once: a second PUT to
#     that name is refused (409) whatever its body, and the stored file stays;
#     a GET gives it back (how the app tells its own retry from another file);
#   - it refuses any other name (403), climbing out or into a folder, and
#     makes no folder; a body over its limit (413); more PUTs than its rate
#     (429); anyone outside its allow-list (403); a template left unfilled
#     does not start;
#   - the names of every sample and fixture report, with an upload's tag, are
#     taken, and scripts/recover-report.sh takes the same pattern.
# Prints TAP lines for tests/run-all.sh.
source "$(dirname "$0")/lib.sh"
if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
    ok "collector # SKIP nginx is not installed (scripts/deps.sh test)"
    exit 0
fi
base=$(mktemp -d "${TMPDIR:-/tmp}/tlbscope-collector.XXXXXX") || exit 1
dir=""
trap '[ -n "$dir" ] && scripts/collector.sh stop "$dir"; rm -rf "$base"' EXIT

start() { # start NAME [geo lines]: a fresh collector; sets dir and port
    dir=$base/$1
    port=$(COLLECTOR_ALLOW=${2:-} scripts/collector.sh start "$dir") || { not_ok "$1: the collector did not start"; return 1; }
}
stop() { scripts/collector.sh stop "$dir"; dir=""; }
# put PATH FILE: the HTTP status of a PUT of FILE's bytes to PATH
put() { curl -s -o /dev/null -w '%{http_code}' -X PUT --data-binary "@$2" "http://127.0.0.1:$port$1"; }
get() { curl -s -o "$2" -w '%{http_code}' "http://127.0.0.1:$port$1"; }
stored() { find "$dir/www" -mindepth 1 | sed "s|^$dir/www/||" | sort | tr '\n' ' '; }

name=20261201-150619-amd-f19m01-0000-0badc0de
head -c 3000 reports/samples/qemu-tcg-smp1-max.json >"$base/report"
cp "$base/report" "$base/other" && echo ' ' >>"$base/other"

if start main; then
    check "a report's name: stored (201)" test "$(put "/reports/$name.json" "$base/report")" = 201
    check "a report's summary (.txt) too (201)" test "$(put "/reports/$name.txt" "$base/report")" = 201
    check "the same name and the same bytes again: refused (409), nothing rewritten" \
        test "$(put "/reports/$name.json" "$base/report")" = 409
    check "the same name, another body: refused (409)" test "$(put "/reports/$name.json" "$base/other")" = 409
    check "the stored report is the first one, read back with GET (200), as the app checks a 409" \
        eval 'test "$(get "/reports/$name.json" "$base/got")" = 200 && cmp -s "$base/got" "$base/report"'
    before=$(stored)
    for bad in /reports/evil.json /reports/$name.JSON /reports/$name.json.php \
               /reports/sub/$name.json /reports/..%2f$name.json /reports/../$name.json \
               /$name.json /reports/ /BOOTX64.EFI /reports/nodate-x-y-1-0badc0de.json \
               "/reports/$name.json;x" "/reports/${name}0.json"; do
        code=$(put "$bad" "$base/report")
        check "PUT $bad: refused ($code)" eval '[ "$code" = 403 ] || [ "$code" = 400 ] || [ "$code" = 404 ]'
    done
    check "nothing stored by them, no folder made" test "$(stored)" = "$before"
    # the limit: 4 MiB; a report of 1 MB (a 288-CPU run is under 1.5 MB) is taken
    head -c $((4 * 1024 * 1024 + 1)) /dev/zero >"$base/huge"
    head -c $((1024 * 1024)) /dev/zero >"$base/large"
    check "a body over 4 MiB: refused (413), not stored" \
        eval 'test "$(put /reports/${name%0badc0de}0badc0d1.json "$base/huge")" = 413 &&
              ! test -e "$dir/www/reports/${name%0badc0de}0badc0d1.json"'
    check "a 1 MB report: stored (201)" test "$(put "/reports/${name%0badc0de}0badc0d2.json" "$base/large")" = 201
    # every name the app has written (samples, fixtures; the aarch64 app's too), with a tag
    codes=""
    i=0
    for id in $(jq -r '.run.id // empty' reports/samples/*.json tests/fixtures/reports/*.json \
                    tests/fixtures/reports/*/*.json 2>/dev/null | sort -u) nodate-other-f06m55-0001; do
        i=$((i + 1))
        codes+="$(put "/reports/$id-$(printf '%08x' $((0xa0000000 + i))).json" "$base/report") "
    done
    check "the run ids of every sample and fixture, tagged: all taken ($i)" \
        test "$(tr ' ' '\n' <<<"$codes" | grep -v '^$' | sort -u | tr '\n' ' ')" = "201 "
    check "scripts/recover-report.sh takes the same names (the pattern, but for the optional tag)" \
        test "$(sed -n 's/^name_re=.\^\(.*\)(-\[0-9a-f\]{8})?\$.$/\1/p' scripts/recover-report.sh)" = \
             "$(sed -n 's|.*location ~ "^/reports/\(.*\)-\[0-9a-f\]{8}\\\.(?:json\|txt)\$" {|\1|p' reports/collector/nginx.conf.in | sed 's/(?:/(/g')"
    # the rate: a burst of 20 and 30 a minute for one machine
    codes=""
    for i in $(seq 30); do
        codes+="$(put "/reports/${name%0badc0de}$(printf 'b%07x' "$i").txt" "$base/report") "
    done
    check "30 PUTs at once from one machine: throttled past the burst (429)" \
        eval '[[ "$codes" == *429* ]] && [[ "$codes" == 201* ]]'
    stop
fi

# the allow-list: a machine it does not list gets nothing
if start outsider "127.0.0.2 1;"; then
    check "outside the allow-list: a PUT refused (403)" test "$(put "/reports/$name.json" "$base/report")" = 403
    check "outside the allow-list: a GET refused (403)" test "$(get /reports/ "$base/got")" = 403
    check "outside the allow-list: nothing stored" test "$(stored)" = "reports "
    stop
fi
# the template as shipped, with the allow-list not filled in: nginx refuses to start
mkdir -p "$base/unfilled/tmp"
sed -e "s|@DIR@|$base/unfilled|g" -e "s|@LISTEN@|127.0.0.1:9|g" -e "s|@USER@||g" \
    reports/collector/nginx.conf.in >"$base/unfilled/nginx.conf"
check "the template with @ALLOW@ left unfilled: nginx will not run it" \
    eval '! PATH=$PATH:/usr/sbin nginx -t -p "$base/unfilled" -c "$base/unfilled/nginx.conf" -e "$base/unfilled/error.log" >/dev/null 2>&1'
exit 0
