# Shared helpers for the QEMU integration tests (sourced, not run).
# Each test boots build/tlbscope.img through scripts/qemu-run.sh in its own
# run directory and prints TAP lines that tests/run-all.sh counts.

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$here" || exit 1
TOOL=$here/build/tlbscope-report
n_test=0

ok() { n_test=$((n_test + 1)); echo "ok $n_test - $*"; }
not_ok() { n_test=$((n_test + 1)); echo "not ok $n_test - $*"; }
skip() { n_test=$((n_test + 1)); echo "ok $n_test - $1 # SKIP $2"; }
check() { # description, command...
    local d=$1; shift
    if "$@"; then ok "$d"; else not_ok "$d"; fi
}

qemu_major() { "${QEMU:-qemu-system-x86_64}" --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p' | head -n1; }
have_qemu10() { [ "$(qemu_major)" -ge 10 ] 2>/dev/null; }

# boot NAME [qemu-run options]; env SMP CPU MEM ARGS ... as for qemu-run.sh.
# Sets RUN (run dir), LOG (clean serial text), REPORT (json path or ""), RC.
boot() {
    local name=$1; shift
    RUN=$here/build/test-runs/$name
    rm -rf "$RUN"; mkdir -p "$RUN"
    RUNDIR=$RUN OUTDIR=$RUN/reports TIMEOUT=${TIMEOUT:-300} "$here/scripts/qemu-run.sh" --fresh --quiet "$@" >"$RUN/run.out" 2>&1
    RC=$?
    LOG=$RUN/serial.txt
    REPORT=$(cat "$RUN/report.path" 2>/dev/null)
    echo "# $name: exit $RC, report ${REPORT:-none}, $(grep -a '^RESULT:' "$LOG" | tail -n1)"
}

jqr() { jq -r "$1" "$REPORT"; }
log_has() { grep -aq -- "$1" "$LOG"; }

# ---- report checks (jq over $REPORT) ----
exp_status() { jq -r --arg id "$1" '.experiments[] | select(.id == $id) | .status' "$REPORT"; }
exp_field() { jq -r --arg id "$1" ".experiments[] | select(.id == \$id) | $2" "$REPORT"; }
all_cpus_ok() { [ "$(jqr '[.topology.cpus[] | select(.state != "ok")] | length')" = 0 ]; }
cpus_ok_count() { jqr '.topology.cpus_ok'; }
# On failure the validator's complaint goes to stderr, which run-all.sh keeps in the
# test's log: a CI failure must say what was wrong with the report.
validates() { "$TOOL" validate "$REPORT" >/dev/null 2>"$RUN/validate.err" || { sed "s/^/# validate: /" "$RUN/validate.err" >&2; return 1; }; }
released() { log_has '^CPUs: released, firmware state restored'; }

# The last RESULT line on the console: "RESULT: " and the run's verdict (core/run/verdict.h),
# "COMPLETE: 9 measured, 2 not applicable to this machine"; result_word: its first word,
# COMPLETE, ERROR or FAILURE.
result_line() { grep -a '^RESULT: ' "$LOG" | tail -n1 | sed 's/^RESULT: //; s/\r$//'; }
result_word() { result_line | awk '{print $1}' | tr -d ':'; }
result_line_matches() { # the RESULT line says COMPLETE, and what the report's verdict says
    [ "$(result_word)" = COMPLETE ] && [ "$(result_line)" = "$(jqr .verdict.line)" ] &&
        [ "$(jqr .verdict.word)" = COMPLETE ]
}

# text_layout LABELS: the report's .txt (beside $REPORT) in the summary's layout
# (core/report/summary_text.h), both architectures': the title line, then exactly the
# header labels LABELS in that order (the first word of each unindented line up to the
# first blank one), the experiment table with one row per experiment of the JSON (its id
# and status, in the JSON's order), a heading for each experiment with points ("ID: title"
# or "ID [EMULATED]: title"), and the JSON's verdict line as the last line.
text_layout() {
    local txt=${REPORT%.json}.txt
    [ -s "$txt" ] || { echo "# text_layout: no $txt" >&2; return 1; }
    local title labels rows want_rows last id missing=
    title=$(head -n1 "$txt")
    labels=$(sed -n '2,/^$/p' "$txt" | grep -o '^[A-Za-z]\+' | tr '\n' ' ' | sed 's/ $//')
    rows=$(awk '/^Experiment +Status +Points +Checks +Stale +Reason/ { t = 1; next }
                t && /^$/ { exit } t && /^[^ ]/ { print $1 "|" $2 }' "$txt")
    want_rows=$(jq -r '.experiments[] | "\(.id)|\(.status)"' "$REPORT")
    last=$(tail -n1 "$txt" | tr -d '\r')
    for id in $(jq -r '.experiments[] | select(.results | length > 0) | .id' "$REPORT"); do
        grep -Eq "^$id( \[[A-Z]+\])*: " "$txt" || missing="$missing $id"
    done
    [[ "$title" == "tlbscope "*" ("*")  run $(jqr .run.id)" ]] &&
        [ "$labels" = "$1" ] && [ -n "$rows" ] && [ "$rows" = "$want_rows" ] && [ -z "$missing" ] &&
        [ "$last" = "$(jqr .verdict.line)" ] && return 0
    printf '# text_layout: title "%s"; labels "%s" (want "%s"); rows %s (want %s); no heading:%s; last "%s"\n' \
        "$title" "$labels" "$1" "$(echo $rows)" "$(echo $want_rows)" "${missing:- none}" "$last" >&2
    return 1
}

# The checks every healthy run must pass; $1 names the run in the TAP lines,
# $2 its CPU count; the rest (key=value) say what it was asked for, for the
# exact shape of its report (check_shape below): profile=quick, samples=40,
# experiments=a,b, emulate=invlpgb,invpcid ...
# Every profile is planned (issue 20), so a run whose exact shape is checked
# boots with run_budget_s=0: the whole grid as configured, whatever the host's
# load does to a plan (tests/sim/plan.sh checks the planned quick profile).
check_healthy_run() {
    local name=$1 ncpu=$2; shift 2
    check_clean_run "$name" "$ncpu" || return
    if [ "$ncpu" -gt 1 ]; then
        check "$name: every AP released to the firmware" released
    fi
    # TCG has no PCID, INVPCID or INVLPGB (boot_smp.sh checks the CPUID evidence)
    check_shape "$name" "$REPORT" "cpus=$ncpu" pcid=0 invpcid=0 invlpgb=0 "$@"
}

# check_clean_run NAME NCPU: the sentinel, a SUCCESS/SKIP result, a valid report with NCPU
# CPUs all ok, no errors, zero stale reads. False when there is no report.
check_clean_run() {
    local name=$1 ncpu=$2
    check "$name: sentinel printed" log_has '^TLBSCOPE DONE'
    check "$name: RESULT line printed (COMPLETE)" eval '[ "$(result_word)" = COMPLETE ]'
    check "$name: report saved and extracted" test -s "$REPORT"
    [ -s "$REPORT" ] || return 1
    check "$name: report validates" validates
    check "$name: the RESULT line is the report's verdict ($(jqr .verdict.line))" result_line_matches
    check "$name: $ncpu CPUs in the report, all ok" \
        test "$(jqr .topology.cpu_count)/$(cpus_ok_count)" = "$ncpu/$ncpu"
    check "$name: run complete, no errors" \
        test "$(jqr .run.status)/$(jqr '.run.errors | length')" = "complete/0"
    check "$name: zero stale reads in every experiment" \
        test "$(jqr '[.experiments[].verification.stale_reads] | add // 0')" = 0
    return 0
}

# ---- the exact shape of a report (tests/qemu/shape.jq says what and why) ----
# shape_results REPORT key=value...: one line per check, "ok<TAB>what" or
# "not ok<TAB>what: got ..., want ...". Keys: cpus (required), usable,
# profile, samples, warmup, ceiling, ipi_pairs, experiments, emulate, pcid,
# invpcid, invlpgb, pti, has_2m. Fails when the report cannot be read.
shape_results() {
    local report=$1 want; shift
    want=$(jq -nc '[$ARGS.positional[] | capture("^(?<k>[a-z_0-9]+)=(?<v>.*)$") | {(.k): .v}] | add // {}' \
        --args "$@") || return 2
    jq -r --argjson want "$want" -L "$here/tests/qemu" \
        'include "shape"; shape($want) | "\(if .ok then "ok" else "not ok" end)\t\(.what)"' "$report"
}
# check_shape NAME REPORT key=value...: those checks as TAP lines, named NAME.
check_shape() {
    local name=$1 report=$2 st what n=0 out; shift 2
    out=$(shape_results "$report" "$@" 2>&1) || out+=$'\n'"not ok"$'\t'"tests/qemu/shape.jq could not read $report"
    while IFS=$'\t' read -r st what; do
        [ -n "$st" ] || continue
        n=$((n + 1))
        if [ "$st" = ok ]; then ok "$name: $what"; else not_ok "$name: $what"; fi
    done <<<"$out"
    [ "$n" -gt 0 ] || not_ok "$name: no shape checks ran on $report"
}
# shape_ok REPORT key=value...: true when the report has exactly that shape
# (prints the failed checks as "# shape: ..." lines).
shape_ok() {
    local out
    out=$(shape_results "$@" 2>&1) || { echo "# shape: unreadable: $out" | head -n 3; return 1; }
    [ -n "$out" ] || return 1
    grep '^not ok' <<<"$out" | sed 's/^not ok\t/# shape: /'
    ! grep -q '^not ok' <<<"$out"
}

# features_absent_with_evidence REPORT: under QEMU TCG (-cpu max) PCID, INVPCID
# and INVLPGB do not exist, and the report must say so with proof: each
# verdict false, the CPUID register it was read from present with its bit
# clear (1.ecx[17], 7.0.ebx[10], 80000008.ebx[3]), and the SKIPs of the
# experiments needing them quoting those registers' values. A "false" without
# its register, or a register contradicting its verdict, is a report nobody
# can check, so each fails. Lives here (sourcing this file boots nothing) so
# that tests/checks/evidence_check.sh can prove it fails on doctored reports.
# Prints a "# evidence: ..." line for every problem found; returns 1 if any.
features_absent_with_evidence() {
    local report=$1 problems=() f=() spec feat reg bit name val i
    local -A cpuid
    # one jq call for every field (it is run on many doctored copies); one line each
    mapfile -t f < <(jq -r '
        def line: tostring | gsub("[\n\r]"; " ");
        def exp($id): [.experiments[]? | select(.id == $id)][0] // {};
        (.cpu.features | .pcid, .invpcid, .invlpgb | line),
        (.cpu.cpuid | .["1.ecx"], .["7.0.ebx"], .["80000008.ebx"] | line),
        (exp("pti_double_invalidation"), exp("invlpgb_range") | (.status // "absent"), (.reason // "") | line)
        ' "$report" 2>/dev/null)
    if [ ${#f[@]} != 10 ]; then
        echo "# evidence: $report is not readable JSON, or not shaped like a report"
        return 1
    fi
    cpuid=([1.ecx]=${f[3]} [7.0.ebx]=${f[4]} [80000008.ebx]=${f[5]})
    # feature:register:bit:name -- the bit that would say "present"
    i=0
    for spec in pcid:1.ecx:17:PCID invpcid:7.0.ebx:10:INVPCID invlpgb:80000008.ebx:3:INVLPGB; do
        IFS=: read -r feat reg bit name <<<"$spec"
        [ "${f[i]}" = false ] || problems+=("cpu.features.$feat is ${f[i]}, want false (TCG has no $name)")
        i=$((i + 1))
        val=${cpuid[$reg]}
        # checked to be a hex string before bash arithmetic sees it: a report is data, not code
        if ! is_hex32 "$val"; then
            problems+=("cpu.cpuid[\"$reg\"] is $val: no evidence for $feat=false")
        elif (( (val >> bit) & 1 )); then
            problems+=("cpu.cpuid[\"$reg\"] = $val has bit $bit ($name) set, contradicting $feat=false")
        fi
    done
    # experiment:status:reason:label:register -- the SKIP reason must quote "LABEL = 0x<register>"
    skip_quotes pti_double_invalidation "${f[6]}" "${f[7]}" ECX 1.ecx "${cpuid[1.ecx]}"
    skip_quotes pti_double_invalidation "${f[6]}" "${f[7]}" EBX 7.0.ebx "${cpuid[7.0.ebx]}"
    skip_quotes invlpgb_range "${f[8]}" "${f[9]}" EBX 80000008.ebx "${cpuid[80000008.ebx]}"
    [ ${#problems[@]} = 0 ] && return 0
    printf '# evidence: %s\n' "${problems[@]}"
    return 1
}
is_hex32() { [[ $1 =~ ^0x[0-9a-fA-F]{1,8}$ ]]; }

# skip_quotes EXPERIMENT STATUS REASON LABEL REGISTER VALUE (for the function
# above, adds to its problems): the experiment is SKIP and its reason quotes
# "LABEL = 0x..." equal to the register's VALUE, compared as numbers (the
# reason prints 0x00000204 where cpu.cpuid has 0x204).
skip_quotes() {
    local id=$1 status=$2 reason=$3 label=$4 reg=$5 want=$6 quoted
    if [ "$status" != SKIP ]; then
        problems+=("$id is $status, want SKIP with the CPUID evidence")
        return
    fi
    quoted=$(grep -oE "$label = 0x[0-9a-fA-F]{1,8}" <<<"$reason" | head -n1)
    quoted=${quoted#"$label = "}
    if [ -z "$quoted" ]; then
        problems+=("$id's reason does not quote '$label = 0x...': $reason")
    elif ! is_hex32 "$want" || (( quoted != want )); then
        problems+=("$id's reason quotes $label = $quoted, but cpu.cpuid[\"$reg\"] is $want")
    fi
}

# ---- Secure Boot (secureboot.sh for x86, secureboot_aarch64.sh) ----
# sb_store: the variable store the test uses, TLBSCOPE_SB_STORE=enrolled|snakeoil or by
# default the first the caller's can_enrolled and can_snakeoil allow; prints it, nothing
# when it cannot be set up here; fails on another word.
sb_store() {
    case "${TLBSCOPE_SB_STORE:-auto}" in
        auto) if can_enrolled; then echo enrolled; elif can_snakeoil; then echo snakeoil; fi ;;
        enrolled) if can_enrolled; then echo enrolled; fi ;;
        snakeoil) if can_snakeoil; then echo snakeoil; fi ;;
        *) return 1 ;;
    esac
}
# sb_skip_missing WHAT: where the caller's missing[] names anything, one SKIP line saying
# all of it, and the test ends there
sb_skip_missing() {
    [ ${#missing[@]} -gt 0 ] || return 0
    skip "$1" "cannot be set up here: missing $(printf '%s; ' "${missing[@]}" | sed 's/; $//')"
    exit 0
}
# sb_tamper SIGNED OFFSET OUT CERT: OUT is SIGNED with the byte at OFFSET (the first of
# .sbat, the 's' of "sbat,1": were the binary run, it would run as before) changed after
# signing; checks that one byte differs and that sbverify refuses OUT against CERT
sb_tamper() {
    cp "$1" "$3"
    [ -n "$2" ] && printf 'S' | dd of="$3" bs=1 seek="$2" conv=notrunc status=none
    check "tampered copy: exactly one byte differs from the signed binary (.sbat at ${2:-?})" \
        test "$(cmp -l "$1" "$3" 2>/dev/null | wc -l)" = 1
    check "sbverify: the tampered copy does not verify" bash -c "! sbverify --cert '$4' '$3' >/dev/null 2>&1"
}
# sb_check_signed_report: the signed boot's report ($REPORT) says Secure Boot "enabled", this
# build's $VERSION and $COMMIT, a complete run, and validates
sb_check_signed_report() {
    if [ ! -s "$REPORT" ]; then
        not_ok "signed: no report (see the console log in $RUN)"
        return
    fi
    check "signed: report firmware.secure_boot is \"enabled\"" \
        test "$(jq -r .firmware.secure_boot "$REPORT")" = enabled
    check "signed: report generator.version/commit = $VERSION/$COMMIT (VERSION file, this build)" \
        test "$(jq -r '.generator.version + "/" + .generator.commit' "$REPORT")" = "$VERSION/$COMMIT"
    check "signed: run complete with the quick profile's settings" test "$(jq -r .run.status "$REPORT")" = complete
    [ -x "$TOOL" ] && check "signed: report validates" "$TOOL" validate "$REPORT"
}
