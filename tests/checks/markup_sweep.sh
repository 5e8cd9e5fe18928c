#!/usr/bin/env bash
# Issue 35: markup in a report never reaches a page unescaped. tests/checks/markup_sweep.py
# appends a distinct marker ("q-inj-N'a-inj-N|p-inj-N<x-inj-N>) to every string of each
# report below, every path (jq's paths(strings)), and runs html, compare --markdown and
# import + atlas on them: no marker may appear as markup (a raw <x-inj-, a raw quote in
# the pages, a bare | in a Markdown table row), and most paths must render (the validator
# may refuse a marked value: a word of a vocabulary, a unit; that is safe and counted).
# The reports: a shipped sample, a tlbscope-sim report made here (epyc-7763, 2 CPUs,
# profile=quick) and a fixture with recommendations (Bochs). Then the fleet database: each
# text column the atlas reads marked in turn (a database is as untrusted as a report).
# Last, where Chromium is installed (scripts/deps.sh html; without it this SKIPs): the pages'
# Content-Security-Policy stops an inline script that a missed escape would let in, on an
# html and an atlas page, and the same pages without the policy run it (the control).
# About 30 s on 2 cores. Prints TAP lines for tests/run-all.sh.
source "$(dirname "$0")/lib.sh"
TOOL=build/tlbscope-report
SIM=build/tlbscope-sim
out=build/test-runs/markup-sweep
rm -rf "$out" && mkdir -p "$out"

if ! make --no-print-directory tool sim >"$out/build.log" 2>&1; then
    not_ok "build tlbscope-report and tlbscope-sim (see $out/build.log)"
    exit 1
fi
timeout 300 "$SIM" --cpu epyc-7763 --cpus 2 --seed 35 --out "$out/sim" profile=quick \
    run_budget_s=0 samples=10 warmup=1 >"$out/sim.log" 2>&1
sim_report=$(ls "$out"/sim/*.json 2>/dev/null | grep -v '/latest\.json$' | head -n1)
check "tlbscope-sim wrote a report to sweep (see $out/sim.log)" test -n "$sim_report"

reports=(reports/samples/qemu-tcg-smp4-max-emulated.json ${sim_report:+"$sim_report"}
         tests/fixtures/reports/bochs/bochs-skylake-x-smp2.json)
python3 tests/checks/markup_sweep.py --tool "$TOOL" --work "$out/work" --db-sweep -v \
    "${reports[@]}" >"$out/sweep.tap" 2>"$out/sweep.err"
rc=$?
# number the sweep's lines; its verbose lines (each unescaped path) stay comments
while IFS= read -r line; do
    case $line in
    "ok "*) ok "${line#ok }" ;;
    "not ok "*) not_ok "${line#not ok }" ;;
    *) echo "$line" ;;
    esac
done <"$out/sweep.tap"
check "the sweep ran to its end and passed (exit $rc; see $out/sweep.err)" test "$rc" = 0

# ---- the Content-Security-Policy in a browser ----
browser=$(command -v chromium || command -v chromium-browser || true)
pages=("$out/page.html" "$out/atlas.html")
"$TOOL" html -o "$out/page.html" tests/fixtures/reports/bochs/bochs-skylake-x-smp2.json 2>/dev/null
"$TOOL" import --db "$out/csp.db" tests/fixtures/reports/bochs/bochs-skylake-x-smp2.json >/dev/null 2>&1
"$TOOL" atlas --db "$out/csp.db" -o "$out/atlas.html" 2>/dev/null
if [ -z "$browser" ]; then
    skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
    skip "csp: an injected inline script does not run on html's and atlas's pages" "Chromium is not installed (scripts/deps.sh html)"
    exit 0
fi
# ran PAGE: whether the script injected before </body> ran (it marks <body>), by Chromium's DOM
ran() {
    timeout 60 "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$(mktemp -d "$out/profile.XXXXXX")" --dump-dom "file://$PWD/$1" \
        2>>"$out/chromium.log" | grep -q 'data-injected="ran"'
}
blocked=0 control=0
for p in "${pages[@]}"; do
    script="<script>document.body.setAttribute('data-injected','ran')</script>"
    sed "s|</body>|$script</body>|" "$p" >"${p%.html}-injected.html"
    grep -v 'http-equiv="Content-Security-Policy"' "${p%.html}-injected.html" >"${p%.html}-nopolicy.html"
    grep -q 'http-equiv="Content-Security-Policy"' "$p" && ! ran "${p%.html}-injected.html" && blocked=$((blocked + 1))
    ran "${p%.html}-nopolicy.html" && control=$((control + 1))
done
check "csp: an inline script injected into html's and atlas's pages does not run ($blocked of 2 blocked)" test "$blocked" = 2
check "csp: control: without the policy the same script runs on both pages ($control of 2)" test "$control" = 2
