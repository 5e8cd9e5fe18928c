#!/usr/bin/env bash
# Network boot and upload (issue 24), at SMP=2 with one small experiment:
#   - PXE/TFTP boot: tlbscope.cfg from the TFTP server, the reports uploaded to
#     the local nginx collector (reports/collector/); the copy on the server
#     validates and is byte for byte the one on the serial console;
#   - UEFI HTTP boot (boot URI set with virt-fw-vars): the same, under
#     redact=on: the MAC, IP and boot URL are tokens;
#   - a stick boot with the collector stopped: the run ends, its report is on
#     the stick and the console, and says the upload failed;
#   - a stick boot while the collector answers 503 (its maintenance switch,
#     lifted after two refused PUTs): a retry succeeds and the server holds
#     one copy;
#   - issue 35: the report is on the stick and the console before the network
#     is touched, and the upload's outcome goes to NAME.upload beside it; a
#     collector that accepts and never answers, and the power cut (QEMU
#     killed) while the upload waits to retry: the stick has the whole report,
#     and NAME.upload says state=started; the HTTP boot's load options pin the
#     boot server's tlbscope.cfg (config_sha256=).
# The collector is nginx on a free loopback port (QEMU's user network takes
# the guest's 10.0.2.2 there), started and stopped here.
source "$(dirname "$0")/lib.sh"

ARGS_SMALL="profile=quick experiments=ipi_roundtrip run_budget_s=0"
if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
    skip "network boot and upload" "nginx is not installed (scripts/deps.sh test)"
    exit 0
fi
collector=""
trap '[ -n "$collector" ] && scripts/collector.sh stop "$collector"' EXIT

# start_collector NAME: a fresh collector; sets collector (its directory) and port
start_collector() {
    collector=$here/build/test-runs/collector-$1
    rm -rf "$collector"
    port=$(scripts/collector.sh start "$collector") || { not_ok "$1: the collector did not start"; return 1; }
}
server_json() { ls "$collector"/www/reports/*.json 2>/dev/null; }
count_on_server() { ls "$collector"/www/reports/ 2>/dev/null | grep -c "\.$1\$"; }
# the JSON on the console (TLBSCOPE-JSON-BEGIN/END), rebuilt by recover-report.sh
console_json() { rm -rf "$RUN/console"; scripts/recover-report.sh "$LOG" "$RUN/console" 2>/dev/null; }
# on_stick FILE: a file of the run's stick, \tlbscope\reports\FILE, on stdout (mtools)
on_stick() { MTOOLS_SKIP_CHECK=1 mtype -i "$RUN/stick.img@@1M" "::/tlbscope/reports/$1" 2>/dev/null; }
stick_names() { MTOOLS_SKIP_CHECK=1 mdir -b -i "$RUN/stick.img@@1M" ::/tlbscope/reports 2>/dev/null | sed 's|.*/||'; }
# outcome_has KEY=VALUE: the upload's outcome file beside the stick's report says so
outcome_has() { on_stick "$(basename "$REPORT" .json).upload" | grep -qx -- "$1"; }

# check_uploaded NAME: the server holds one report, it validates and equals the console's
check_uploaded() {
    local name=$1 on_server from_console
    check "$name: sentinel printed, RESULT COMPLETE" eval 'log_has "^TLBSCOPE DONE" && [ "$(result_word)" = COMPLETE ]'
    check "$name: the console says the upload succeeded" \
        log_has '^Upload    succeeded: \(http://10.0.2.2:\|redacted:hmac:\)'
    check "$name: one JSON and one text report on the server" \
        test "$(count_on_server json)/$(count_on_server txt)" = 1/1
    on_server=$(server_json | head -n 1)
    [ -n "$on_server" ] || return
    check "$name: the uploaded report validates" "$TOOL" validate "$on_server"
    from_console=$(console_json)
    check "$name: it is byte for byte the report on the serial console" \
        cmp -s "$on_server" "$from_console"
    check "$name: the report's name on the server is its run id" \
        test "$(basename "$on_server" .json)" = "$(jq -r .run.id "$on_server")"
    REPORT=$on_server
}

# ---- PXE/TFTP boot ----
if start_collector tftp; then
    SMP=2 NETBOOT=tftp COLLECTOR_DIR=$collector COLLECTOR_PORT=$port \
        ARGS="$ARGS_SMALL upload=http://10.0.2.2:$port/reports" boot netboot-tftp
    check_uploaded "tftp boot"
    if [ -s "$REPORT" ]; then
        check "tftp boot: configuration from the TFTP server" \
            test "$(jqr '.run.config_source')/$(jqr '.run.config.profile')" = "tftp/quick"
        check "tftp boot: boot pxe_tftp from tftp://10.0.2.2/BOOTX64.EFI, with MAC and IP" \
            test "$(jqr '.run.network | "\(.boot) \(.boot_url) \(.mac != null) \(.ip)"')" = \
                 "pxe_tftp tftp://10.0.2.2/BOOTX64.EFI true 10.0.2.15"
        check "tftp boot: no error for the missing boot volume" test "$(jqr '.run.errors | length')" = 0
        tftp_report=$RUN/uploaded.json
        cp "$REPORT" "$tftp_report"
    fi
    scripts/collector.sh stop "$collector"
fi

# ---- UEFI HTTP boot, redacted ----
if ! command -v virt-fw-vars >/dev/null; then
    skip "http boot" "virt-fw-vars is not installed (python3-virt-firmware, scripts/deps.sh test)"
elif start_collector http; then
    # the boot server's file is qemu-run.sh's: the same text, so its SHA-256 is known here
    http_cfg=$(printf '# written by scripts/qemu-run.sh for this run\nexit=shutdown\n%s\n' \
        "$(echo "$ARGS_SMALL upload=http://10.0.2.2:$port/reports redact=on redact_key=lab-key" | tr ' ' '\n')")
    pin=$(printf '%s\n' "$http_cfg" | sha256sum | cut -c1-64)
    SMP=2 NETBOOT=http COLLECTOR_DIR=$collector COLLECTOR_PORT=$port LOAD_OPTIONS="config_sha256=$pin" \
        ARGS="$ARGS_SMALL upload=http://10.0.2.2:$port/reports redact=on redact_key=lab-key" \
        boot netboot-http
    check "http boot: the pinned file as qemu-run.sh wrote it" cmp -s "$RUN/tlbscope.cfg" <(printf '%s\n' "$http_cfg")
    check_uploaded "http boot"
    if [ -s "$REPORT" ]; then
        check "http boot: configuration from the HTTP server" test "$(jqr '.run.config_source')" = http
        check "http boot: MAC, IP and boot URL are keyed tokens (redact=on)" \
            test "$(jqr '[.run.network | .mac, .ip, .boot_url | test("^redacted:hmac:[0-9a-f]{16}$")] | all')" = true
        check "http boot: the redaction record lists them, and the upload URL (issue 35)" \
            test "$(jqr '[.redaction.fields[] | select(startswith("run.network."))] | length')/$(jqr '.redaction.fields | index("run.config.upload") != null')" = 4/true
        check "http boot: no address anywhere in the JSON (the collector's neither)" \
            eval '! grep -qE "10\.0\.2\.15|10\.0\.2\.2|52:54:00|tlbscope\.cfg|BOOTX64" "$REPORT"'
        check "http boot: the load options' config_sha256= pinned the boot server's file" \
            test "$(jqr '"\(.run.config.config_sha256) \(.run.network.config_sha256) \(.run.errors | length)"')" = "$pin $pin 0"
        check "http boot: run.config_origins: the pin from the load options, the rest from the server" \
            test "$(jqr '.run.config_origins | "\(.config_sha256) \(.upload) \(.redact_key)"')" = \
                 "load_options boot_server boot_server"
        check "http boot: the text summary hides the boot URL" \
            grep -q '^Boot      http from (redacted); configuration from http' "${REPORT%.json}.txt"
        # the same NIC and lease under QEMU: tlbscope-report redact --key gives the app's tokens
        if [ -s "${tftp_report:-}" ] &&
           "$TOOL" redact -o "$RUN/tftp-redacted.json" --key lab-key "$tftp_report" >/dev/null; then
            check "tlbscope-report redact: the TFTP boot's MAC and IP get the app's tokens (one key)" \
                test "$(jq -c '.run.network | [.mac, .ip]' "$RUN/tftp-redacted.json")" = \
                     "$(jq -c '.run.network | [.mac, .ip]' "$REPORT")"
        fi
    fi
    # a boot server's file that is not the pinned one is not used: an error, defaults and
    # the load options (TLBSCOPE_TEST_FULL: one boot more)
    if [ -n "${TLBSCOPE_TEST_FULL:-}" ]; then
        rm -f "$collector"/www/reports/*
        SMP=2 NETBOOT=http COLLECTOR_DIR=$collector COLLECTOR_PORT=$port \
            LOAD_OPTIONS="config_sha256=$(printf '%064d' 0) $ARGS_SMALL exit=shutdown" \
            ARGS="$ARGS_SMALL upload=http://10.0.2.2:$port/reports redact=on redact_key=lab-key" \
            boot netboot-http-mispinned
        check "http boot, another pin: the file is not used, the run says so (ERROR)" \
            eval '[ "$(result_word)" = ERROR ] && [ "$(jqr .run.config_source)" = none ] &&
                  [ "$(jqr .run.network.config_sha256)" = "$pin" ] &&
                  [[ "$(jqr ".run.errors[0].message")" == *"config_sha256= in the load options says 0000000000000000..."* ]]'
        check "http boot, another pin: nothing from the file (no upload= taken from it)" \
            test "$(count_on_server json)/$(jqr .run.config.upload)" = 0/null
    fi
    scripts/collector.sh stop "$collector"
fi

# ---- the collector stopped: a stick boot that cannot upload ----
if start_collector stopped; then
    scripts/collector.sh stop "$collector"   # the port is known and nothing listens on it
    SMP=2 NET=1 ARGS="$ARGS_SMALL upload=http://10.0.2.2:$port/reports upload_attempts=2 upload_deadline_s=20" \
        boot netboot-stopped
    check "server stopped: sentinel printed" log_has '^TLBSCOPE DONE'
    check "server stopped: the console says the upload failed" log_has '^Upload    FAILED: http://10.0.2.2:'
    check "server stopped: two attempts, then given up" \
        test "$(grep -ac '^Upload: PUT .*json: ' "$LOG")" = 2
    check "server stopped: the report is on the stick" test "$(cat "$RUN/report.source")" = stick
    if [ -s "$REPORT" ]; then
        check "server stopped: it validates" validates
        # issue 35: written before the network was touched, the report says where it goes
        check "server stopped: the text on the stick says where the upload goes, and where its outcome" \
            grep -q '^          how that went: the console, and the .upload file beside it' "${REPORT%.json}.txt"
        check "server stopped: the outcome file beside it says failed, after 2 attempts" \
            eval 'outcome_has state=failed && outcome_has attempts=2'
        check "server stopped: the outcome file names the bytes sent: the stick's" \
            outcome_has "json_sha256=$(sha256sum < "$REPORT" | cut -c1-64)"
        check "server stopped: the console holds the same report (recover-report.sh)" \
            cmp -s "$REPORT" "$(console_json)"
        check "server stopped: the console says the NIC got its address from DHCP" \
            log_has "^Upload: the NIC's address is 10.0.2.15"
        check "server stopped: no partial file left on the stick" \
            eval '! stick_names | grep -q "\.partial$"'
    fi
fi

# ---- 503 for the first attempts ----
if start_collector busy; then
    touch "$collector/maintenance"
    # lift the maintenance switch once two PUTs were refused (bounded: 120 s)
    ( for _ in $(seq 1200); do
          [ "$(grep -c '"PUT /reports/.* 503 ' "$collector/access.log" 2>/dev/null)" -ge 2 ] && break
          sleep 0.1
      done
      rm -f "$collector/maintenance" ) &
    lifter=$!
    SMP=2 NET=1 ARGS="$ARGS_SMALL upload=http://10.0.2.2:$port/reports" boot netboot-503
    kill "$lifter" 2>/dev/null; wait "$lifter" 2>/dev/null
    check "503: sentinel printed, RESULT COMPLETE" eval 'log_has "^TLBSCOPE DONE" && [ "$(result_word)" = COMPLETE ]'
    # the switch is lifted from here, so a loaded host may let a third PUT meet it too
    ok_attempt=$(grep -a 'json: HTTP 201 (attempt [0-9]*)' "$LOG" | sed 's/.*(attempt \([0-9]*\)).*/\1/' | head -n 1)
    check "503: refused attempts retried with growing waits, then one succeeded (attempt ${ok_attempt:-none})" \
        eval 'log_has "json: HTTP status 503 (attempt 1); again in 1000 ms" &&
              log_has "json: HTTP status 503 (attempt 2); again in 2000 ms" && [ "${ok_attempt:-0}" -ge 3 ]'
    check "503: the server holds one copy of each report" \
        test "$(count_on_server json)/$(count_on_server txt)" = 1/1
    if [ -n "$(server_json)" ] && [ -s "$REPORT" ]; then
        check "503: the server's copy is the stick's" cmp -s "$(server_json)" "$REPORT"
        check "503: the outcome beside the stick's copy says succeeded, at that attempt" \
            eval 'outcome_has state=succeeded && outcome_has attempts=${ok_attempt:-none} &&
                  outcome_has http_status=201'
        check "503: the console says succeeded, at that attempt" \
            log_has "^Upload    succeeded: .*(HTTP 201, attempt ${ok_attempt:-none} of at most 5)"
    fi
    scripts/collector.sh stop "$collector"
fi

# ---- issue 35: a collector that never answers, and the power cut during the retries ----
# A TCP listener that accepts and never answers stands for a hung collector (or a firmware
# network stack that hangs): the first PUT times out (15 s), and once the app prints that it
# will try again, QEMU is killed: the power goes. The stick must hold the whole report.
hang_dir=$here/build/test-runs/collector-hung
rm -rf "$hang_dir"; mkdir -p "$hang_dir"
python3 -c '
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
print(s.getsockname()[1], flush=True)
held = []
s.settimeout(1)
end = time.time() + 600                 # bounded, whatever happens to the test
while time.time() < end:
    try:
        c, _ = s.accept()
    except socket.timeout:
        continue
    held.append(c)                      # never read from, never answered
    open(sys.argv[1], "a").write("accepted\n")
' "$hang_dir/accepted" >"$hang_dir/port" &
hung=$!
for _ in $(seq 50); do [ -s "$hang_dir/port" ] && break; sleep 0.1; done
hport=$(head -n 1 "$hang_dir/port")
SMP=2 NET=1 STOP_ON='^Upload: PUT .*json: .*again in [0-9]+ ms' \
    ARGS="$ARGS_SMALL upload=http://10.0.2.2:$hport/reports upload_attempts=20 upload_deadline_s=3600" \
    boot netboot-hung
kill "$hung" 2>/dev/null; wait "$hung" 2>/dev/null
check "hung collector: it took the connection and never answered" test -s "$hang_dir/accepted"
check "hung collector: the power went while the upload waited to retry (no TLBSCOPE DONE)" \
    eval 'log_has "again in [0-9]* ms" && ! log_has "^TLBSCOPE DONE"'
check "hung collector: the report is on the stick all the same" test "$(cat "$RUN/report.source")" = stick
if [ -s "$REPORT" ]; then
    check "hung collector: it validates" validates
    check "hung collector: it is the report on the console (printed before the upload)" \
        cmp -s "$REPORT" "$(console_json)"
    check "hung collector: the outcome file says the upload had started, for these bytes" \
        eval 'outcome_has state=started && outcome_has "json_sha256=$(sha256sum < "$REPORT" | cut -c1-64)"'
    check "hung collector: the .txt is there too, and no partial file" \
        eval 'test -s "${REPORT%.json}.txt" && ! stick_names | grep -q "\.partial$"'
fi
collector=""
