#!/usr/bin/env bash
# Static check: no unbounded wait in efi/, core/, arch/ (issue 6).
#
# Every loop whose body spins or sleeps (cpu_relax, pause, hlt, sti;hlt,
# cpu_halt_until_irq) must show its bound in the loop's code: a deadline
# (deadline_passed, *deadline*, a wait_u64_* helper), a budget check, or a
# counter limit (tries/spins/attempt compared with a constant). Comments are
# not code: a comment that says "deadline" or "budget" bounds nothing. A loop
# around a spinning loop waits as long as it runs, so it needs a bound of its
# own, or must be a counted for loop (init; i < n; i++), even when the inner
# loop is bounded: an unbounded retry of a bounded wait never ends either. A
# call of a bounded wait helper (wait_u64_*) is such an inner wait.
# The few loops that are proven to end for another reason carry a marker
# comment
#     /* spin-ok: <why it ends> */
# on the loop line or the line above. Prints one TAP line per file and the
# offending loops.
cd "$(dirname "$0")/../.." || exit 1

# scan FILE: prints "FILE:LINE: ..." for each spinning loop without a visible bound
scan() {
    awk -v file="$1" '
    function strip(s) { gsub(/"([^"\\]|\\.)*"/, "\"\"", s); return s }
    # the code of a line without its comments (block comments may span lines)
    function uncomment(s,    out, i, j) {
        out = ""
        while (s != "") {
            if (incomment) {
                j = index(s, "*/")
                if (!j) return out
                s = substr(s, j + 2); incomment = 0; continue
            }
            i = index(s, "/*"); j = index(s, "//")
            if (!i && !j) { out = out s; break }
            if (j && (!i || j < i)) { out = out substr(s, 1, j - 1); break }
            out = out substr(s, 1, i - 1) " "; s = substr(s, i + 2); incomment = 1
        }
        return out
    }
    BEGIN { depth = 0; top = 0; prev = ""; incomment = 0 }
    {
        code = uncomment($0)
        line = strip(code)
        is_loop = (line ~ /(^|[^a-zA-Z_])(for|while) *\(/ || line ~ /(^|[^a-zA-Z_])do *\{?$/) && line !~ /^[ \t]*\}? *while *\(.*\) *;/
        spin = (line ~ /cpu_relax\(|cpu_halt_until_irq\(|->Stall/ || code ~ /"[^"]*(pause|hlt)[^"]*"/)
        # the marker is a comment: read it in the raw text
        own = (line ~ /deadline|budget|timeout_ms|timeout_ticks|tries *<|spins *<|attempt *<|i *< *[0-9A-Z]/) || ($0 ~ /spin-ok:/) || (prev ~ /spin-ok:/)
        # a bounded wait helper bounds the spinning around it, but is a wait itself
        helper = (line ~ /wait_u64_[a-z]+ *\(/)
        bound = own || helper
        # for (init; x < n; x++): runs a counted number of times
        counted = (line ~ /(^|[^a-zA-Z_])for *\([^;]*;[^;]*[a-zA-Z_][a-zA-Z_0-9]* *(<|<=|!=) *[^;]+;[^)]*(\+\+|\+=)/)
        if (is_loop) {
            top++; ls[top] = NR; lspin[top] = spin; lbound[top] = bound; ldepth[top] = depth
            lcounted[top] = counted; linner[top] = helper; lown[top] = own
            single[top] = (line !~ /\{/)
        } else if (top > 0) {
            if (spin) lspin[top] = 1
            if (bound) lbound[top] = 1
            if (own) lown[top] = 1
            if (helper) linner[top] = 1
        }
        # a closing do-while condition belongs to the loop it ends
        if (line ~ /^[ \t]*\} *while *\(/ && top > 0 && bound) lbound[top] = 1
        if (line ~ /^[ \t]*\} *while *\(/ && top > 0 && own) lown[top] = 1
        o = gsub(/\{/, "{", line); c = gsub(/\}/, "}", line)
        depth += o - c
        while (top > 0 && ((single[top] && NR > ls[top] && line ~ /;/ && depth <= ldepth[top]) || (!single[top] && depth <= ldepth[top] && NR > ls[top]) || (single[top] && NR == ls[top] && line ~ /;[ \t]*$/ && o == 0))) {
            if (lspin[top] && !lbound[top])
                printf "%s:%d: loop waits without a visible bound\n", file, ls[top]
            else if (linner[top] && !lown[top] && !lcounted[top])
                printf "%s:%d: loop repeats a wait without a bound of its own\n", file, ls[top]
            # the enclosing loop waits as long as this one does: it needs its own bound
            if ((lspin[top] || linner[top]) && top > 1) linner[top - 1] = 1
            top--
        }
        prev = $0
    }' "$1"
}

# The checker is checked first: on a fixture with known loops it must flag
# exactly the unbounded ones: lines 3, 5, 7 and 19 of the fixture; 27 and 31,
# whose only "deadline" and "budget" are in comments; 36, 40 and 51, unbounded
# loops around bounded waits (a loop, a counted loop, a wait_u64_* call),
# while the counted and the deadline-bounded outer loops at 44 and 47 pass.
fixture=tests/checks/fixtures/spin_loops.c
want="3 5 7 19 27 31 36 40 51 "
got=$(scan "$fixture" | sed 's/.*:\([0-9]*\): .*/\1/' | tr '\n' ' ')
if [ "$got" = "$want" ]; then
    echo "ok 1 - the checker flags exactly the unbounded loops of its fixture"
else
    echo "not ok 1 - the checker flagged lines '$got' of $fixture, expected '$want'"
    scan "$fixture" | sed 's/^/# /'
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
