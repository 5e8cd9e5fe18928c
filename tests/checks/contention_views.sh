#!/usr/bin/env bash
# shootdown_contention in tlbscope-report after issue 20: a report of the
# strict model (QEMU's CPU, emulated INVLPGB, 4 CPUs) has a latency and a
# steady point per (mode, method, pages, m); `show` pivots the latency points
# and prints the rates of both in their own table, `html` charts the steady
# rate and draws no empty latency chart for the steady points. A copy made
# to look like a report before issue 20 (no `measure`, no steady points, one
# rate that included a check of every shootdown, no method.contention_checks)
# still validates and shows, and both commands say what it lacks: the steady
# state not recorded, its rate measured with checks in the window. Prints TAP
# lines for tests/run-all.sh.
source "$(dirname "$0")/../qemu/lib.sh" # cds to the repository root; boots nothing
SIM=$here/build/tlbscope-sim
out=build/test-runs/contention-views
rm -rf "$out" && mkdir -p "$out"

"$SIM" --cpu qemu-tcg --cpus 4 --seed 20 --out "$out/run" profile=quick run_budget_s=0 samples=10 \
    warmup=1 emulate=invlpgb experiments=shootdown_contention >"$out/sim.log" 2>&1
NEW=$(ls "$out"/run/*.json 2>/dev/null | head -n1)
check "the simulated report exists and validates" eval '[ -s "$NEW" ] && "$TOOL" validate "$NEW" >/dev/null'
[ -s "$NEW" ] || { echo "1..$n_test"; exit 0; }

"$TOOL" show "$NEW" >"$out/new.show" 2>&1
check "show: the rates table with steady and steady without the remaps per method, for each mode and page count" \
    eval '[ "$(grep -c "initiators  ipi steady  ipi no remap  invlpgb steady  invlpgb no remap" "$out/new.show")" = 4 ] &&
          grep -q "in the steady state (each in a loop," "$out/new.show"'
check "show: the latency pivot holds the latency points only (no facet of steady points)" \
    eval 'grep -q "measure=latency" "$out/new.show" && ! grep -q "measure=steady" "$out/new.show"'
"$TOOL" html -o "$out/new.html" "$NEW" >/dev/null 2>&1
check "html: a steady-state chart per mode and page count, and no latency chart of steady points" \
    eval '[ "$(grep -o "shootdowns per second by concurrent initiators m, [a-z]*, [0-9]* pages*" "$out/new.html" | sort -u | wc -l)" = 4 ] &&
          grep -q "ipi steady" "$out/new.html" && ! grep -q "measure=steady" "$out/new.html"'

# the same report as issue 12 wrote it
OLD=$out/old.json
jq '(.experiments[] | select(.id == "shootdown_contention")) |= (
        .results |= [.[] | select(.params.measure == "latency")
                     | del(.params.measure)
                     | .values = ({shootdowns_per_s: (.values.round_shootdowns_per_s
                                                      // (1000000000 / .metrics.latency.p50 | floor))}
                                  + (if .values.emulated_invlpgb then {emulated_invlpgb: .values.emulated_invlpgb} else {} end))]
        | .notes |= [.[] | select(test("^checks outside|^steady window") | not)])
    | del(.method.contention_checks) | del(.run.config.contention_window_ms)' "$NEW" >"$OLD"
check "a report before issue 20 (no measure, no steady points) still validates" \
    eval '"$TOOL" validate "$OLD" >/dev/null'
"$TOOL" show "$OLD" >"$out/old.show" 2>&1
check "show of it: its rate named as measured with a check inside the window, the steady state not recorded" \
    eval 'grep -q "each shootdown checked inside the" "$out/old.show" &&
          grep -q "window (an older report); the steady state: not recorded" "$out/old.show" &&
          [ "$(grep -cE "^    initiators +ipi +invlpgb$" "$out/old.show")" = 4 ]'
"$TOOL" html -o "$out/old.html" "$OLD" >/dev/null 2>&1
check "html of it: its rate charted, labelled as taken with checks in the window" \
    grep -q "checks in the window: an older report" "$out/old.html"
echo "1..$n_test"
