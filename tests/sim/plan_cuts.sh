#!/usr/bin/env bash
# Issue 32, part A, on the strict TLB model: when a budget cuts the plan, Linux's answer stays.
#  - shootdown_seq_vs_conc, planned into 1 s with a large TLB: the INVPCID variant goes first, page counts are
#    thinned, not (pages, flush) columns: the ceiling and, above it, the CR3 write (both
#    orders) stay at every target count measured (mutant plan_drops_linux_flush);
#  - flush_ceiling, planned into 3 s on 4 CPUs (the default profile's share there): every
#    curve has its p* or says "not measured: needs run_budget_s=N or profile=full", never
#    "no crossing"; the status says "SUCCESS (reduced: ...)" in the JSON, the text summary
#    and show; what the share has left refines the kept curve around its crossing (mutant
#    fc_refine_off).
source "$(dirname "$0")/lib.sh"
SEED=${TLBSCOPE_SIM_SEED:-4242}

# A 4096x16 TLB makes every flush (and the model's walk of it) dear enough that the
# plan must cut more than samples on any host: with the profile's own TLB, a quiet host
# fits the whole grid into 2 s at 275 samples a point and nothing else is cut.
SC_ARGS=(--cpu epyc-7763 --cpus 4 --seed "$SEED" --tlb 4096x16 run_budget_s=1
         experiments=shootdown_seq_vs_conc)
sim cut-seq-conc "$SIM" "${SC_ARGS[@]}"
check "seq/conc in 1 s: clean, SUCCESS, the variant left out first" \
    eval 'clean && [ "$(exp_field shootdown_seq_vs_conc "[.status, (.plan.reduced | index(\"variants\") != null)] | map(tostring) | join(\"|\")")" = "SUCCESS|true" ]'
check "seq/conc in 1 s: 33 and, above it, cr3_reload (seq and conc) at every target count measured" \
    sc_keeps_linux_flush
check "seq/conc in 1 s: no invpcid_single_context point, every kept page count's columns measured (plan.cols page counts)" \
    test "$(exp_field shootdown_seq_vs_conc '[.results[] | select(.params.placement == null and .params.ipi_mode == null)] as $g
        | [([$g[] | select(.params.flush == "invpcid_single_context")] | length), (([$g[].params.pages] | unique | length) == .plan.cols)] | map(tostring) | join("|")')" = "0|true"
check "seq/conc in 1 s: the status says what was cut (status_detail, text summary, show)" eval '
    detail=$(exp_field shootdown_seq_vs_conc .status_detail) &&
    [[ "$detail" == "reduced: "*"without invpcid_single_context" ]] &&
    tr -s " \n" " " <"${REPORT%.json}.txt" | grep -qF " SUCCESS ($detail)" &&
    "$TOOL" show "$REPORT" | tr -s " \n" " " | grep -qF "shootdown_seq_vs_conc: SUCCESS ($detail)"'

sim cut-ceiling "$SIM" --cpu epyc-7763 --cpus 4 --seed "$SEED" run_budget_s=3 experiments=flush_ceiling
check "flush_ceiling in 3 s: clean, SUCCESS, reduced to 3 of 22 page counts" \
    eval 'clean && [ "$(exp_field flush_ceiling .status)" = SUCCESS ] &&
          [[ "$(exp_field flush_ceiling .status_detail)" == "reduced: 3 of 22 page counts, "* ]]'
check "flush_ceiling in 3 s: every curve has 3 page counts or more and its p* (or no crossing), or fewer and needs_run_budget_s without a p*" \
    test "$(exp_field flush_ceiling '[.summary[] | .values | if .pages_measured >= 3 then .needs_run_budget_s == null
        else .p_star == null and .p_star_low == null and .needs_run_budget_s > 0 end] | all')" = true
check "flush_ceiling in 3 s: the curve kept first (local, 512, contiguous) measured, with page counts added around its crossing" \
    fc_refined
page=$(mktemp)
"$TOOL" show "$REPORT" >"$page"
# (and "or profile=full" where its 1800 s would do)
check "show: the curves left out say \"not measured: needs run_budget_s=N\", and no curve says \"no crossing\" unless measured" eval '
    n=$(exp_field flush_ceiling "[.summary[] | select(.values.pages_measured < 3)] | length") &&
    [ "$n" -gt 0 ] && [ "$(tr -s " \n" " " <"$page" | grep -o "not measured: needs run_budget_s=[0-9]*" | wc -l)" = "$n" ] &&
    [ "$(grep -c "no crossing" "$page")" = "$(exp_field flush_ceiling "[.summary[] | select(.values.pages_measured >= 3 and .values.p_star == null)] | length")" ]'
check "text summary: the status line and the knob under the crossovers" eval '
    grep -q "^    SUCCESS (reduced: 3 of 22 page counts, " "${REPORT%.json}.txt" &&
    grep -Eq "^  not measured: needs run_budget_s=[0-9]+( or profile=full)?$" "${REPORT%.json}.txt"'
rm -f "$page"
echo "1..$n_test"
