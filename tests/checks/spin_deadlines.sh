#!/usr/bin/env bash
# Static check: no unbounded wait in efi/, core/, arch/ (issue 6).
#
# Every loop whose body spins or sleeps (cpu_relax, pause, hlt, sti;hlt,
# cpu_halt_until_irq) must show its bound in the loop itself: a deadline
# (deadline_passed, *deadline*, a wait_u64_* helper), a budget check, or a
# counter limit (tries/spins/attempt compared with a constant). The few
# loops that are proven to end for another reason carry a marker comment
#     /* spin-ok: <why it ends> */
# on the loop line or the line above. Prints one TAP line per file and the
# offending loops.
cd "$(dirname "$0")/../.." || exit 1

# scan FILE: prints "FILE:LINE: ..." for each spinning loop without a visible bound
scan() {
    awk -v file="$1" '
    function strip(s) { gsub(/"([^"\\]|\\.)*"/, "\"\"", s); return s }
    BEGIN { depth = 0; top = 0; prev = "" }
    {
        line = strip($0)
        is_loop = (line ~ /(^|[^a-zA-Z_])(for|while) *\(/ || line ~ /(^|[^a-zA-Z_])do *\{?$/) && line !~ /^[ \t]*\}? *while *\(.*\) *;/
        spin = (line ~ /cpu_relax\(|cpu_halt_until_irq\(|->Stall/ || $0 ~ /"[^"]*(pause|hlt)[^"]*"/)
        bound = (line ~ /deadline|wait_u64_|budget|timeout_ms|timeout_ticks|tries *<|spins *<|attempt *<|i *< *[0-9A-Z]|spin-ok:/) || (prev ~ /spin-ok:/)
        if (is_loop) {
            top++; ls[top] = NR; lspin[top] = spin; lbound[top] = bound; ldepth[top] = depth
            single[top] = (line !~ /\{/)
        } else if (top > 0) {
            if (spin) lspin[top] = 1
            if (bound) lbound[top] = 1
        }
        # a closing do-while condition belongs to the loop it ends
        if (line ~ /^[ \t]*\} *while *\(/ && top > 0 && bound) lbound[top] = 1
        o = gsub(/\{/, "{", line); c = gsub(/\}/, "}", line)
        depth += o - c
        while (top > 0 && ((single[top] && NR > ls[top] && line ~ /;/ && depth <= ldepth[top]) || (!single[top] && depth <= ldepth[top] && NR > ls[top]) || (single[top] && NR == ls[top] && line ~ /;[ \t]*$/ && o == 0))) {
            if (lspin[top] && !lbound[top]) printf "%s:%d: loop waits without a visible bound\n", file, ls[top]
            # a bounded inner loop bounds nothing outside it, but its spin is accounted for
            top--
        }
        prev = $0
    }' "$1"
}

# The checker is checked first: on a fixture with known loops it must flag
# exactly the unbounded ones (lines 3, 5, 7 and 19 of the fixture).
fixture=tests/checks/fixtures/spin_loops.c
got=$(scan "$fixture" | sed 's/.*:\([0-9]*\): .*/\1/' | tr '\n' ' ')
if [ "$got" = "3 5 7 19 " ]; then
    echo "ok 1 - the checker flags exactly the unbounded loops of its fixture"
else
    echo "not ok 1 - the checker flagged lines '$got' of $fixture, expected '3 5 7 19 '"
    exit 1
fi

n=1
bad_total=0
for f in $(git ls-files 'efi/*.c' 'core/*.c' 'arch/*.c' 'arch/*.h' 'core/*.h' 'efi/*.h' 2>/dev/null); do
    n=$((n + 1))
    out=$(scan "$f")
    if [ -n "$out" ]; then
        echo "not ok $n - $f"
        echo "$out" | sed 's/^/# /'
        bad_total=$((bad_total + 1))
    else
        echo "ok $n - $f: every spinning loop has a deadline or a spin-ok reason"
    fi
done
[ "$bad_total" = 0 ]
