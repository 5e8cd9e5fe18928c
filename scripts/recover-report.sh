#!/usr/bin/env bash
# Rebuilds a JSON report that tlbscope printed on the console because it could
# not save it (read-only or full stick). Lines between TLBSCOPE-JSON-BEGIN and
# -END carry the JSON: "J:" starts a line, "J+" continues the previous one.
# The END line's byte count and POSIX cksum must match, or nothing is written.
# Usage: scripts/recover-report.sh SERIAL_LOG OUTDIR   (prints the file written)
set -euo pipefail
usage() {
    cat <<'EOF'
usage: recover-report.sh SERIAL_LOG OUTDIR

Rebuilds a tlbscope JSON report from a console capture (a serial log, or a BMC
serial-over-LAN session saved to a file, e.g. `ipmitool ... sol activate | tee
sol.log`). tlbscope prints the whole report on the console between
TLBSCOPE-JSON-BEGIN and TLBSCOPE-JSON-END lines when it cannot save it on the
stick, and always with console_json=on. The last complete dump in SERIAL_LOG
is written to OUTDIR/<run id>.json (never over an existing file) and its path
printed; its byte count and POSIX cksum must match the END line, or nothing
is written; a dump whose name is not a report name (core/run/run.c:
DATE-TIME-VENDOR-MODEL-COUNTER[-TAG], letters, digits and '-') is refused.
Then check it: tlbscope-report validate OUTDIR/<run id>.json

Exit status: 0 written, 1 no complete dump or a damaged one, 2 bad usage.
EOF
}
case "${1:-}" in
    -h | --help) usage; exit 0 ;;
esac
if [ $# -ne 2 ]; then
    if [ $# = 0 ]; then usage; else usage >&2; fi
    exit 2
fi
log=$1
outdir=$2
[ -r "$log" ] || { echo "recover-report.sh: cannot read $log" >&2; exit 1; }
mkdir -p "$outdir"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
# the last complete dump wins
name=$(sed -e 's/\r//g' "$log" | awk '/^TLBSCOPE-JSON-BEGIN /{n=$2} /^TLBSCOPE-JSON-END /{done=n} END{print done}')
[ -n "$name" ] || { echo "recover-report.sh: no complete dump in $log" >&2; exit 1; }
# The name comes from the log, which anything on the console could have printed: only a
# plain report name (core/run/run.c run_report_basename(), the pattern in
# reports/collector/nginx.conf.in) becomes a file name, never "../x" or "a/b".
name_re='^([0-9]{8}-[0-9]{6}|nodate)-[a-z0-9]{1,16}-[a-z0-9]{1,16}-[0-9]{4}(-[0-9a-f]{8})?$'
if ! [[ $name =~ $name_re ]]; then
    printf 'recover-report.sh: the dump is named %q, which is not a report name; nothing written\n' \
        "$name" | head -c 300 >&2
    exit 1
fi
sed -e 's/\x1b\[[0-9;=?]*[A-Za-z]//g' -e 's/\r//g' "$log" | awk -v want="$name" '
    /^TLBSCOPE-JSON-BEGIN /{ inside = ($2 == want); started = 0; body = ""; next }
    inside && /^TLBSCOPE-JSON-END /{ printf "%s\n", body > "/dev/stderr"; print $0; inside = 0; next }
    inside && /^J:/ { body = body (started ? "\n" : "") substr($0, 3); started = 1; next }
    inside && /^J\+/ { body = body substr($0, 3); next }
' 2>"$tmp" >"$tmp.end" || true
end=$(tail -n 1 "$tmp.end"); rm -f "$tmp.end"
want_bytes=$(echo "$end" | sed -n 's/.*bytes=\([0-9]*\).*/\1/p')
want_sum=$(echo "$end" | sed -n 's/.*cksum=\([0-9]*\).*/\1/p')
got_bytes=$(wc -c < "$tmp")
got_sum=$(cksum < "$tmp" | awk '{print $1}')
if [ "$want_bytes" != "$got_bytes" ] || [ "$want_sum" != "$got_sum" ]; then
    echo "recover-report.sh: dump $name is damaged (bytes $got_bytes/$want_bytes, cksum $got_sum/$want_sum)" >&2
    exit 1
fi
dest="$outdir/$name.json"
[ -e "$dest" ] && dest="$outdir/$name-recovered-$(date +%s).json"
cp "$tmp" "$dest"
echo "$dest"
