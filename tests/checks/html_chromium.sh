#!/usr/bin/env bash
# tlbscope-report html in a real browser: renders the page for two fixture
# reports of different shapes (QEMU SMP 4, synthetic 2-socket EPYC) in
# headless Chromium, then checks the DOM after load (SVG charts, heatmap
# cells, lines) and that the screenshot is not blank. A blank page and a
# near-blank page are rendered too, as controls: they must fail the same
# screenshot check, or the check proves nothing. Chromium comes from
# scripts/deps.sh html (Debian `chromium`); without it every check SKIPs.
# Issue 31, item 5: the pages of 2 and 12 simulated samples (and 30, without the browser)
# open with their conclusions (a headline per experiment, the run verdicts, the
# recommendations) and have no empty chart; tests/checks/html_facts.py reads page and DOM,
# and the screenshots of their tops stay under build/test-runs/html-chromium/ for a person.
# Prints TAP lines for tests/run-all.sh.
cd "$(dirname "$0")/../.." || exit 1
TOOL=build/tlbscope-report
FIX=tests/fixtures/reports
out=build/test-runs/html-chromium
rm -rf "$out" && mkdir -p "$out"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
check() { local d=$1; shift; if "$@"; then ok "$d"; else not_ok "$d"; fi; }
browser_checks=(dom-svg dom-heatmap dom-lines screenshot-not-blank blank-control three-facets three-scale three-lines three-heatmaps three-bars three-screenshot)
for k in 2 12; do
    browser_checks+=("conclude-$k-top" "conclude-$k-charts" "conclude-$k-screenshot")
done
browser_checks+=(heatgrid-12-rendered pooled-60-rendered)

skip_browser_checks() {
    for c in "${browser_checks[@]}"; do skip "$c" "$1"; done
    exit 0
}

if [ ! -x "$TOOL" ]; then
    make --no-print-directory tool >"$out/build.log" 2>&1 || { echo "not ok 1 - build tlbscope-report (see $out/build.log)"; exit 1; }
fi
page=$out/two-reports.html
"$TOOL" html -o "$page" "$FIX/qemu-tcg-smp4-all.json" "$FIX/synthetic-epyc7763-2s-hw.json" 2>"$out/tool.err"
check "page-written: tlbscope-report html wrote the page" test -s "$page"

# ---- issue 31, item 5: pages that conclude, at 2, 12 and 30 reports ----
# simulated samples (html refuses a mix): the two CPUs of the issue's trial, and the 8 model
# profiles with 4 repeated runs. tests/checks/html_facts.py reads the page, then the DOM.
SIMS=reports/samples/sim
conclude_2=("$SIMS/sim-epyc7763-smp8.json" "$SIMS/sim-xeon8180-smp8.json")
conclude_12=("$SIMS"/sim-*.json "$SIMS"/runs/sim-smp4-run[12].json "$SIMS"/runs/sim-smp8-run[12].json)
"$TOOL" html -o "$out/conclude-2.html" "${conclude_2[@]}" 2>>"$out/tool.err"
"$TOOL" html -o "$out/conclude-12.html" "${conclude_12[@]}" 2>>"$out/tool.err"
python3 tests/checks/html_facts.py "$out/conclude-2.html" "${conclude_2[0]}" >"$out/conclude-2.facts"
sed 's/^/# page of 2: /' "$out/conclude-2.facts"
pfact() { grep -q -- "$2" "$out/conclude-$1.facts"; }
check "conclude-2-page: the flush-ceiling curves in ns from the report's TSC rate, as labelled (8 invlpg points of A)" \
    pfact 2 "^ceiling_ns points 8 matched 8 wrong 0$"
# more than compare's 26: 30 reports (the 14 simulated samples twice, and two more), each named
conclude_30=("$SIMS"/sim-*.json "$SIMS"/runs/*.json "$SIMS"/sim-*.json "$SIMS"/runs/*.json "$SIMS"/sim-epyc7763-smp8.json "$SIMS"/sim-xeon8180-smp8.json)
"$TOOL" html -o "$out/conclude-30.html" "${conclude_30[@]}" 2>>"$out/tool.err"
python3 tests/checks/html_facts.py "$out/conclude-30.html" >"$out/conclude-30.facts"
check "conclude-30-page: 30 reports on one page: 30 verdicts, the headline grid, no empty chart, no legend cut, 12 colours" \
    sh -c "grep -q '^verdicts 30 complete 30$' $out/conclude-30.facts && grep -q '^headline_grid 10$' $out/conclude-30.facts &&
           grep -Eq '^charts [0-9]+ empty 0 unmarked 0 ' $out/conclude-30.facts && grep -q '^legends_cut 0$' $out/conclude-30.facts &&
           grep -q '^series_colours 12$' $out/conclude-30.facts"
# the heatmaps of a section in a grid, a few a row, each titled with its report's name
python3 tests/checks/html_facts.py "$out/conclude-12.html" >"$out/conclude-12.facts"
check "heatgrid-page: the heatmaps of 2 and of 12 reports (2 and 8: the runs have none) each in the section's grid, titled with its report's name" \
    sh -c "grep -q '^heatmaps 2 in_grid 2 titled 2$' $out/conclude-2.facts && grep -q '^heatmaps 8 in_grid 8 titled 8$' $out/conclude-12.facts"
# past 48 reports a column per CPU model: 60 copies of the 8 model samples (their times scaled
# by 1 + 0.02 k in the k-th round, so that a model's median is not its first report's)
mkdir -p "$out/pooled-60"
python3 tests/checks/html_pooled.py make "$out/pooled-60" 60 "$SIMS"/sim-*.json
"$TOOL" html -o "$out/pooled-60.html" "$out"/pooled-60/r*.json 2>>"$out/tool.err"
pooled_rc=$?
python3 tests/checks/html_pooled.py check "$out/pooled-60.html" "$out"/pooled-60/r*.json >"$out/pooled-60.facts"
python3 tests/checks/html_facts.py "$out/pooled-60.html" >>"$out/pooled-60.facts"
sed 's/^/# page of 60: /' "$out/pooled-60.facts"
check "pooled-60-page: 60 reports of 8 CPU models render (exit 0), a column per model, the page saying how many reports each pools; ipi_broadcast's lines are each model's medians; no empty chart" \
    sh -c "[ $pooled_rc = 0 ] && grep -q '^pooled 8 60$' $out/pooled-60.facts && grep -Eq '^median [1-9][0-9]* 0$' $out/pooled-60.facts &&
           grep -q '^verdicts 8 complete 8$' $out/pooled-60.facts && grep -Eq '^charts [0-9]+ empty 0 unmarked 0 ' $out/pooled-60.facts &&
           grep -q '^series_colours 8$' $out/pooled-60.facts"
check "conclude-2-page: one headline per experiment, the run verdicts and the recommendations before any chart" \
    sh -c "grep -q '^conclusions_first True$' $out/conclude-2.facts && grep -q '^experiments 10 with_headline 10 headline_rows 10$' $out/conclude-2.facts &&
           grep -q '^verdicts 2 complete 2$' $out/conclude-2.facts && grep -q '^recommendations recommendations$' $out/conclude-2.facts"

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
    timeout 600 scripts/deps.sh html >"$out/deps.log" 2>&1
    browser=$(command -v chromium || command -v chromium-browser || true)
    why=$(tail -n1 "$out/deps.log" 2>/dev/null)
    [ -n "$browser" ] || skip_browser_checks "Chromium is not installed and scripts/deps.sh html could not install it${why:+ ($why)}"
fi

# chromium FLAG... URL: headless, offline, its own throw-away profile, bounded time
chromium_run() {
    timeout 60 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$(mktemp -d "$out/profile.XXXXXX")" --window-size=1400,3000 "$@" 2>>"$out/chromium.log"
}
screenshot() { # html png
    chromium_run --screenshot="$2" "file://$PWD/$1" >/dev/null && [ -s "$2" ]
}
size() { stat -c %s "$1" 2>/dev/null || echo 0; }


if ! chromium_run --dump-dom "file://$PWD/$page" >"$out/dom.html" || [ ! -s "$out/dom.html" ]; then
    # a browser that cannot start here (no display libraries, sandbox) is an environment problem
    skip_browser_checks "Chromium did not render (see $out/chromium.log)"
fi
count() { grep -o -- "$1" "$out/dom.html" | wc -l; }
svgs=$(count '<svg'); rects=$(count '<rect'); lines=$(count '<polyline'); heat=$(count 'class="heatmap"')
echo "# DOM after load: $svgs <svg>, $rects <rect>, $lines <polyline>, $heat heatmaps"
# 7 experiments: 2 heatmaps + class chart, and at least one chart for each other one with points
check "dom-svg: at least 12 SVG charts in the rendered DOM ($svgs)" test "$svgs" -ge 12
check "dom-heatmap: two IPI heatmaps with all their cells (16x16 + 4x4 <= $rects rects)" \
    test "$heat" = 2 -a "$rects" -ge $((16 * 16 + 4 * 4))
check "dom-lines: chart series drawn as polylines ($lines)" test "$lines" -ge 20

# screenshots: a blank page compresses to almost nothing, a page of charts does not
printf '<!DOCTYPE html><html><body></body></html>\n' >"$out/blank.html"
printf '<!DOCTYPE html><html><body><p>tlbscope</p></body></html>\n' >"$out/near-blank.html"
if screenshot "$page" "$out/page.png" && screenshot "$out/blank.html" "$out/blank.png" &&
   screenshot "$out/near-blank.html" "$out/near-blank.png"; then
    p=$(size "$out/page.png"); b=$(size "$out/blank.png"); nb=$(size "$out/near-blank.png")
    echo "# screenshot sizes: page $p, blank $b, near-blank $nb bytes"
    # not blank: several times the PNG of an almost empty page of the same size
    not_blank() { [ "$1" -gt $((4 * nb)) ] && [ "$1" -gt $((4 * b)) ]; }
    check "screenshot-not-blank: the page's PNG ($p bytes) is far above a near-blank one ($nb)" not_blank "$p"
    controls_rejected() { ! not_blank "$b" && ! not_blank "$nb"; }
    check "blank-control: the same check rejects the blank and near-blank pages" controls_rejected
else
    not_ok "screenshot-not-blank: Chromium took no screenshot (see $out/chromium.log)"
    not_ok "blank-control: no screenshots to compare"
fi

# ---- issue 13, finding 11: a compare page of three reports (QEMU samples SMP 4, SMP 8, Skylake) ----
S=tests/fixtures/reports/schema1 # the shipped samples before make samples remade them: the counts below are theirs
page3=$out/three-reports.html
"$TOOL" html -o "$page3" "$S/qemu-tcg-smp4-max.json" "$S/qemu-tcg-smp8-max.json" "$S/qemu-tcg-smp4-skylake.json" 2>>"$out/tool.err"
if chromium_run --dump-dom "file://$PWD/$page3" >"$out/dom3.html" && [ -s "$out/dom3.html" ]; then
    # facts FILE: one line per property of the rendered DOM (Python's HTML-free regex view)
    python3 - "$out/dom3.html" >"$out/dom3.facts" <<'PY'
import re, sys
dom = open(sys.argv[1]).read()
svgs = re.findall(r'<svg class="chart[^"]*".*?</svg>', dom, re.S)
seq = [x for x in svgs if "<title>shootdown_seq_vs_conc: p50 latency by targets" in x]
pages = sorted({int(m) for x in seq for m in re.findall(r"<title>shootdown_seq_vs_conc: p50 latency by targets, pages=(\d+)", x)})
print("seq_pages", pages)
ticks = {tuple(re.findall(r'<text class="tick" x="\d+" y="[\d.]+" text-anchor="end">([^<]*)<', x)) for x in seq}
print("seq_scales", len(ticks))
# a series is one polyline: as many polylines as legend lines in each chart
broken = sum(1 for x in svgs if "polyline" in x and len(re.findall(r"<polyline", x)) > len(re.findall(r"<line x1=\"\d+\" y1=\"\d+\" x2=\"\d+\" y2=\"\d+\" stroke=\"#", x)))
print("broken_charts", broken)
heat = re.findall(r'<svg class="heatmap".*?</svg>', dom, re.S)
print("heatmaps", len(heat), "shared", sum("linear colour scale, shared" in h or "log colour scale, shared" in h for h in heat),
      "cells_with_values", sum(len(re.findall(r'<text class="cell[ "]', h)) for h in heat))
bars = [x for x in svgs if 'class="chart bars"' in x]
print("bars", len(bars), "whiskers", sum(len(re.findall(r'class="whisker"', b)) for b in bars),
      "legend_note", sum("colour: report" in x for x in svgs), "dash_note", sum("dash: mode" in x for x in svgs))
PY
    cat "$out/dom3.facts" | sed 's/^/# /'
    fact() { grep -q -- "$1" "$out/dom3.facts"; }
    check "three-facets: shootdown_seq_vs_conc shows every facet, pages 4, 32 and 64 included" \
        fact "^seq_pages \[1, 2, 4, 8, 16, 32, 33, 64, 512\]"
    check "three-scale: one y scale for all nine shootdown_seq_vs_conc charts" fact "^seq_scales 1$"
    check "three-lines: no line broken where only another report has a point; colour per report, dash per mode" \
        sh -c "grep -q '^broken_charts 0$' $out/dom3.facts && grep -q 'dash_note [1-9]' $out/dom3.facts"
    check "three-heatmaps: three heatmaps on one shared colour scale, values in the cells (<= 8 CPUs)" \
        fact "^heatmaps 3 shared 3 cells_with_values $((12 + 56 + 12))$"
    check "three-bars: the class chart is bars with p50-p99 whiskers (3 reports x 1 class)" fact "^bars 1 whiskers 3 "
    if screenshot "$page3" "$out/three.png"; then
        p3=$(size "$out/three.png"); nb=$(size "$out/near-blank.png")
        echo "# three-report screenshot: $p3 bytes (near-blank $nb)"
        check "three-screenshot: the three-report page renders, far above a near-blank page" test "$p3" -gt $((4 * nb))
    else
        not_ok "three-screenshot: Chromium took no screenshot"
    fi
else
    for c in three-facets three-scale three-lines three-heatmaps three-bars three-screenshot; do
        not_ok "$c: Chromium did not render the three-report page"
    done
fi

# ---- the heatmaps of 12 reports in Chromium: side by side, none cut ----
# (tests/checks/html_boxes.py: a copy of the page with a script of the test's that writes
# each heatmap's box into the DOM; the page itself allows no script)
python3 tests/checks/html_boxes.py instrument "$out/conclude-12.html" "$out/heatgrid-12.html"
if chromium_run --dump-dom "file://$PWD/$out/heatgrid-12.html" >"$out/heatgrid-12.dom.html" &&
   [ -s "$out/heatgrid-12.dom.html" ]; then
    python3 tests/checks/html_boxes.py read "$out/heatgrid-12.dom.html" >"$out/heatgrid-12.facts"
    sed 's/^/# heatmaps of 12, rendered: /' "$out/heatgrid-12.facts"
    check "heatgrid-12-rendered: 8 heatmaps in rows of 2 or more (a grid, not one column), none cut or squeezed, each titled" \
        sh -c "grep -Eq '^heatmaps 8 rows [1-4] widest_row [2-8]$' $out/heatgrid-12.facts && grep -q '^cut 0$' $out/heatgrid-12.facts"
else
    not_ok "heatgrid-12-rendered: Chromium did not render the page of 12 reports"
fi

# ---- the page of 60 reports pooled per CPU model, rendered (kept as pooled-60.png) ----
if chromium_run --dump-dom "file://$PWD/$out/pooled-60.html" >"$out/pooled-60.dom.html" &&
   [ -s "$out/pooled-60.dom.html" ] && screenshot "$out/pooled-60.html" "$out/pooled-60.png"; then
    python3 tests/checks/html_facts.py "$out/pooled-60.dom.html" >"$out/pooled-60.dom.facts"
    p=$(size "$out/pooled-60.png"); nb=$(size "$out/near-blank.png")
    check "pooled-60-rendered: the page of 60 reports renders ($p bytes, near-blank $nb): 8 columns' colours, no empty chart, no legend cut" \
        sh -c "[ $p -gt $((4 * nb)) ] && grep -q '^series_colours 8$' $out/pooled-60.dom.facts &&
               grep -Eq '^charts [0-9]+ empty 0 ' $out/pooled-60.dom.facts && grep -q '^legends_cut 0$' $out/pooled-60.dom.facts"
else
    not_ok "pooled-60-rendered: Chromium did not render the page of 60 reports"
fi

# ---- issue 31, item 5: the concluding pages of 2 and 12 reports, rendered ----
# (written above; a person looks at conclude-2.png and conclude-12.png: the top of each page)
for k in 2 12; do
    pg=$out/conclude-$k.html
    if chromium_run --dump-dom "file://$PWD/$pg" >"$out/conclude-$k.dom.html" && [ -s "$out/conclude-$k.dom.html" ]; then
        python3 tests/checks/html_facts.py "$out/conclude-$k.dom.html" >"$out/conclude-$k.dom.facts"
        sed "s/^/# DOM of $k: /" "$out/conclude-$k.dom.facts"
        f=$out/conclude-$k.dom.facts
        check "conclude-$k-top: headlines of all 10 experiments (past 3 reports a grid of them first), $k COMPLETE verdicts (no SKIP badge) and the recommendations, before any chart" \
            sh -c "grep -q '^conclusions_first True$' $f && grep -q '^experiments 10 with_headline 10 ' $f &&
                   grep -q '^verdicts $k complete $k$' $f && grep -q '^machine_skip_badges 0$' $f && grep -q '^recommendations recommendations$' $f &&
                   { [ $k = 2 ] || grep -q '^headline_grid 10$' $f; }"
        check "conclude-$k-charts: no empty chart; every chart has markers, ticks, its direction, ns; no legend cut; $k series colours" \
            sh -c "grep -Eq '^charts [0-9]+ empty 0 unmarked 0 no_ticks 0 undirected 0 in_ticks 0$' $f && grep -q '^legends_cut 0$' $f &&
                   grep -q '^series_colours $k$' $f"
    else
        not_ok "conclude-$k-top: Chromium did not render the page of $k reports"
        not_ok "conclude-$k-charts: Chromium did not render the page of $k reports"
    fi
    if screenshot "$pg" "$out/conclude-$k.png"; then
        p=$(size "$out/conclude-$k.png"); nb=$(size "$out/near-blank.png")
        check "conclude-$k-screenshot: the page of $k reports renders ($p bytes, near-blank $nb), kept as $out/conclude-$k.png" \
            test "$p" -gt $((4 * nb))
    else
        not_ok "conclude-$k-screenshot: Chromium took no screenshot"
    fi
done
