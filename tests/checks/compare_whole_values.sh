#!/usr/bin/env bash
# compare never cuts a value: of 2, 3, 5 and 8 shipped samples, as text (80 columns, and
# --wide) and as Markdown, every line fits its width (text: 80; --wide and Markdown have
# none) and every string a report stores that compare prints (parameter values, the CPU,
# the APIC mode and PCID reasons) appears whole: each parameter value as a word of its own
# (a value with blanks: each of its words), each reason whole in Markdown and each of its
# words in the text, where it wraps in a column; and no "..." that
# the reports do not hold themselves. TOOL=... checks another build (tests/sim/mutants.sh).
source "$(dirname "$0")/lib.sh"
TOOL=${TOOL:-build/tlbscope-report}
out=build/test-runs/compare-whole-values
rm -rf "$out" && mkdir -p "$out"
SIM=(reports/samples/sim/*.json)
sets=(
    "pair:reports/samples/qemu-tcg-smp4-max.json reports/samples/qemu-tcg-smp4-skylake.json"
    "three:${SIM[0]} ${SIM[1]} ${SIM[7]}"
    "five:${SIM[*]:0:5}"
    "qemu5:$(echo reports/samples/qemu-tcg-*.json) reports/samples/bochs-skylake-x-smp2.json"
    "eight:${SIM[*]}"
)
for s in "${sets[@]}"; do
    name=${s%%:*} files=${s#*:}
    for mode in text wide markdown; do
        opt=()
        [ "$mode" = wide ] && opt=(--wide)
        [ "$mode" = markdown ] && opt=(--markdown)
        # shellcheck disable=SC2086
        "$TOOL" compare "${opt[@]}" $files >"$out/$name-$mode.out" 2>"$out/$name-$mode.err"
        echo "$?" >"$out/$name-$mode.rc"
    done
    echo "$files" >"$out/$name.files"
    # the values compare's rows hold, whole (JSON cuts nothing): what the text must show
    # shellcheck disable=SC2086
    "$TOOL" compare --json $files 2>/dev/null |
        jq -r '.experiments[].rows[].params | .[]? | strings' | sort -u >"$out/$name.values"
done
# one line per problem: "SET MODE: ..."; none is a pass
python3 - "$out" "${sets[@]%%:*}" >"$out/problems.txt" <<'EOF'
import json, re, sys
out, names = sys.argv[1], sys.argv[2:]
def prose_of(report):
    cpu, method = report.get("cpu") or {}, report.get("method") or {}
    return {v for v in (cpu.get("brand"), method.get("apic_mode_reason"),
                        method.get("pcid_reason")) if isinstance(v, str) and v}
for name in names:
    files = open(f"{out}/{name}.files").read().split()
    reports = [json.load(open(f)) for f in files]
    raw = "".join(open(f).read() for f in files)
    vals = set(open(f"{out}/{name}.values").read().splitlines())
    prose = set().union(*(prose_of(r) for r in reports))
    if not vals:
        print(f"{name}: compare --json has no parameter value to look for")
    for mode in ("text", "wide", "markdown"):
        where = f"{name} {mode}"
        rc = open(f"{out}/{name}-{mode}.rc").read().strip()
        text = open(f"{out}/{name}-{mode}.out").read()
        if rc != "0":
            print(f"{where}: exit status {rc}")
            continue
        lines = text.splitlines()
        if mode == "text":
            wide = [l for l in lines if len(l) > 80]
            if wide:
                print(f"{where}: {len(wide)} lines over 80 columns, the first: {wide[0]!r}")
        if "..." in text and "..." not in raw:
            print(f"{where}: '...' on line {text[:text.index('...')].count(chr(10)) + 1}")
        words = set(re.split(r"[\s|,;()=]+", text))
        for v in sorted(vals):
            for w in v.split():
                if w not in words:
                    print(f"{where}: parameter value {v!r}: {w!r} is not a word of the output")
        # prose: in Markdown whole, in text (a table column or a wrapped line) every word whole
        flat, tokens = " ".join(text.split()), {t.rstrip(",;") for t in text.split()}
        for p in sorted(prose):
            if mode == "markdown":
                want = " ".join(p.split())
                want = want.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                if want not in flat:
                    print(f"{where}: {p!r} not whole in the output")
                continue
            for w in p.split():
                if w.rstrip(",;") not in tokens:
                    print(f"{where}: {p!r}: {w!r} is not a word of the output")
EOF
problems=$(wc -l <"$out/problems.txt")
first=$(head -n1 "$out/problems.txt")
check "compare of 2, 3, 5 and 8 samples (text, --wide, --markdown): every line fits, every value whole ($problems problems${first:+, the first: $first})" \
    test "$problems" = 0
check "the long layout's last resort names a point's parameters on a line of their own, whole" \
    grep -q '^  pages=1 flush=invlpg placement=- ipi_mode=- mode=conc targets=1$' "$out/five-text.out"
check "a condition's long value wraps in its column, whole (the CPU brand of the pair)" sh -c \
    "grep -A1 '^  CPU .*Intel Xeon Processor *\$' $out/pair-text.out | grep -q '^  *(Skylake) *\$'"
echo "1..$n"
