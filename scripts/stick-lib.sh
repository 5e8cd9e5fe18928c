# The stick image's part of a boot, shared by scripts/qemu-run.sh and
# scripts/bochs-run.sh (sourced, not run): the per-run copy of the image and
# its tlbscope.cfg before the boot; afterwards the new reports read off the
# copy with mtools (or rebuilt from the serial log) and the verdict from the
# serial console, the 0/1/2 contract both scripts exit with.
# The caller sets IMAGE, RUNDIR, OUTDIR, stick (the copy), log (the raw
# serial log) and, for the configuration, CFG_TEXT or ARGS.

part="@@1M"   # scripts/mkimage.sh puts the FAT partition at 1 MiB
export MTOOLS_SKIP_CHECK=1

# stick_copy FRESH(0/1): a fresh copy of IMAGE when asked, absent or older
stick_copy() {
    if [ "$1" = 1 ] || [ ! -f "$stick" ] || [ "$IMAGE" -nt "$stick" ]; then
        cp "$IMAGE" "$stick"
    fi
}

# stick_config WRITER [LINE]: RUNDIR/tlbscope.cfg, from CFG_TEXT or else
# exit=shutdown and ARGS, then LINE if given, copied onto the stick
stick_config() {
    local cfg_file="$RUNDIR/tlbscope.cfg"
    if [ -n "${CFG_TEXT+set}" ]; then
        printf '%s\n' "$CFG_TEXT" > "$cfg_file"
    else
        printf '# written by %s for this run\nexit=shutdown\n%s\n' "$1" "$(echo "$ARGS" | tr ' ' '\n')" > "$cfg_file"
    fi
    [ -n "${2:-}" ] && printf '%s\n' "$2" >> "$cfg_file"
    mcopy -o -i "$stick$part" "$cfg_file" ::/tlbscope/tlbscope.cfg
}

stick_list_reports() {
    mdir -b -i "$stick$part" ::/tlbscope/reports 2>/dev/null | sed 's|.*/||' | grep -E '\.(json|txt)$' | sort
}

# stick_collect BEFORE NAME: copies the reports that are not in BEFORE (a
# stick_list_reports taken before the boot) to OUTDIR, else rebuilds the JSON
# from the serial log; latest.json/.txt, RUNDIR/report.path and
# report.source (stick, serial or empty) say what came back. Sets clean (the
# serial log without escape sequences), latest_json and report_source.
stick_collect() {
    local before=$1 name=$2 new f txt recovered
    clean="$RUNDIR/serial.txt"
    sed -e 's/\x1b\[[0-9;=?]*[A-Za-z]//g' -e 's/\r//g' "$log" > "$clean" 2>/dev/null || : > "$clean"
    new=$(comm -13 <(echo "$before") <(stick_list_reports) | grep -v '^$' || true)
    latest_json="" report_source=""
    for f in $new; do
        mcopy -o -i "$stick$part" "::/tlbscope/reports/$f" "$OUTDIR/$f" && {
            case "$f" in *.json) latest_json="$OUTDIR/$f"; report_source=stick ;; esac
        }
    done
    if [ -z "$latest_json" ] && grep -q '^TLBSCOPE-JSON-BEGIN' "$clean"; then
        if recovered=$("$here/scripts/recover-report.sh" "$clean" "$OUTDIR"); then
            latest_json=$(echo "$recovered" | tail -n 1)
            report_source=serial
            echo "$name: report recovered from the serial log: $latest_json"
        fi
    fi
    if [ -n "$latest_json" ]; then
        cp "$latest_json" "$OUTDIR/latest.json"
        txt="${latest_json%.json}.txt"
        if [ -f "$txt" ]; then cp "$txt" "$OUTDIR/latest.txt"; else rm -f "$OUTDIR/latest.txt"; fi
    fi
    echo "$latest_json" > "$RUNDIR/report.path"
    echo "$report_source" > "$RUNDIR/report.source"
}

# serial_verdict: from the clean serial log, result (the last RESULT line's
# first word: COMPLETE, ERROR or FAILURE, from "RESULT: COMPLETE: 9 measured,
# ..."; SUCCESS or SKIP from a tool before issue 23) and rc: 0 COMPLETE
# (SUCCESS, SKIP), 1 ERROR or FAILURE, 2 no "TLBSCOPE DONE" (then why starts
# with that; the caller adds its own cause)
serial_verdict() {
    result=$(grep -a '^RESULT: ' "$clean" | tail -n 1 | awk '{print $2}' | tr -d ':\r')
    why=""
    if ! grep -aq '^TLBSCOPE DONE' "$clean"; then
        rc=2
        why="no 'TLBSCOPE DONE' line"
    elif [ "$result" = COMPLETE ] || [ "$result" = SUCCESS ] || [ "$result" = SKIP ]; then
        rc=0
    else
        rc=1
    fi
}

# firmware_spinning LOG: true once EDK II's exception handler has printed its dump
# ("!!!! X64 Exception Type - ...") at least 5 s ago: it spins forever after it, so the
# caller stops the emulator instead of waiting out its TIMEOUT (a sample's Bochs run once
# waited 2 hours on one). Keeps when it first saw the dump in fw_exception_at.
firmware_spinning() {
    if [ -z "${fw_exception_at:-}" ] && grep -aq '^!!!! X64 Exception Type' "$1" 2>/dev/null; then
        fw_exception_at=$(date +%s)
    fi
    [ -n "${fw_exception_at:-}" ] && [ $(( $(date +%s) - fw_exception_at )) -ge 5 ]
}
