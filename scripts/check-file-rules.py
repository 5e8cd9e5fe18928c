#!/usr/bin/env python3
"""Checks two structural rules over the C sources of core/ arch/ efi/ sim/ reports/tool/.

Usage: check-file-rules.py [--root DIR]

1. No .c or .h file over 600 lines: a file that grows past it is split by job.
2. No two .c files that call each other: when A calls a function defined in B,
   B calls nothing defined in A. (Longer rounds are not looked for.)

A function is "defined in" a file when a line at the left margin names it, not
static, followed by its body; a call is the name followed by "(" anywhere in
another file's code (comments and strings removed). Two files that both define
the same function are alternative implementations of one interface (the
machine's and the model's, one per architecture), never linked together: their
pairs are allowed only when listed in ALTERNATIVES below, with the reason.

Prints each breach as FILE: ... and exits 1. The last line is a summary.
"""
import os
import re
import subprocess
import sys

LIMIT = 600
ROOTS = ["core", "arch", "efi", "sim", "reports/tool"]

# Pairs of files that "call each other" only because both implement one interface;
# one of them is linked into a given binary, or one stands in for the other's assembly.
ALTERNATIVES = {
    ("arch/x86/fault.c", "sim/hostcpu.c"):
        "arch_raise_exception: the machine's (a real fault) and the model's",
    ("arch/x86/microcode.c", "sim/hostcpu.c"):
        "arch_read_microcode and the MSR/CPUID wrappers: the machine's and the model's",
    ("arch/x86/power.c", "sim/hostpower.c"):
        "asm/power.h: the machine's and the model's",
    ("arch/x86/trap.c", "sim/hostcpu.c"):
        "sim/hostcpu.c stands in for the assembly trap.c calls (cpu_stop, the GS base) and, "
        "as the CPU does, hands an emulated #UD to trap.c",
    ("efi/arm64/main.c", "efi/main.c"): "efi_main: one per architecture",
    ("efi/arm64/efi_lib.c", "efi/timebase.c"): "efi/clock.h's clock_ms: each app's clock",
    ("efi/arm64/efi_lib.c", "efi/platform.c"):
        "efi/random.h's arch_random64 and arch_cycles: each app's generator and counter",
    ("reports/tool/cli/main.c", "sim/main.c"): "main: one per program",
    ("reports/tool/fleet/fdb_nopg.c", "reports/tool/fleet/fdb_pg.c"):
        "fdb_pg_open: with PostgreSQL and the stand-in without it",
    ("sim/arm64/host_tlbi.c", "sim/hostcpu.c"): "pte_store: the aarch64 model's and the x86 model's",
    ("arch/arm64/mailbox.c", "core/machine/smp.c"):
        "the aarch64 mailbox's stand-ins for core/machine/smp.c's (one is linked per architecture)",
    ("arch/arm64/gic.c", "sim/arm64/host_gic.c"): "asm/gic.h: the machine's GIC and the model's",
    ("arch/arm64/irq.c", "sim/arm64/host_gic.c"):
        "the model's WFI takes a pending SGI through the app's irq_handle, as the IRQ vector "
        "(entry.S) does on the machine; the handler acknowledges and ends it at the model's GIC",
    ("arch/arm64/paging.c", "sim/arm64/host_arch.c"): "asm/paging.h: the machine's tables and the model's region",
    ("arch/arm64/psci.c", "sim/arm64/host_psci.c"): "asm/psci.h's psci_call: the machine's conduit and the model's PSCI",
    ("arch/arm64/smp.c", "sim/arm64/host_psci.c"):
        "asm/smp.h's cpu_park_masked: a parked CPU's WFI on the machine, its thread's end on the model",
    ("arch/arm64/gic_pm.c", "sim/arm64/host_psci.c"):
        "asm/gic.h's hand-back halves: the machine's GIC given back, the model's recorded for its CPU_OFF",
    ("arch/arm64/stage2.c", "sim/arm64/host_tlbi.c"):
        "asm/stage2.h: the machine's VTCR_EL2/VTTBR_EL2 and the model's",
    ("arch/arm64/exception.c", "sim/arm64/host_tlbi.c"):
        "asm/abort.h: the machine's abort window (our vectors) and the model's",
    ("reports/tool/cli/main.c", "sim/arm64/app.c"): "main: one per program",
    ("sim/arm64/app.c", "sim/main.c"): "main: one per program (tlbscope-sim execs tlbscope-sim-a64)",
    ("core/exp/arm64/a64_exp.c", "core/exp/arm64/experiments.c"):
        "the aarch64 experiments and their harness: reworked with the aarch64 port",
}

DEF = re.compile(r"^[A-Za-z_][\w \*]*?\b([A-Za-z_]\w*)\s*\(")
# what looks like a call or a definition and is neither: the compiler's own words
NOT_FUNCTIONS = {"__attribute__", "__asm__", "asm", "sizeof", "_Alignof", "_Alignas",
                 "_Static_assert", "__typeof__", "typeof", "if", "for", "while", "switch",
                 "return", "_Generic", "__builtin_expect", "defined"}
CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


def code_only(src):
    """The source with comments and string/char literals blanked (line count kept)."""
    src = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), src, flags=re.S)
    src = re.sub(r"//[^\n]*", "", src)
    src = re.sub(r'"(\\.|[^"\\\n])*"', '""', src)
    src = re.sub(r"'(\\.|[^'\\\n])'", "''", src)
    return src


def defined_functions(code):
    lines = code.split("\n")
    out = set()
    for i, line in enumerate(lines):
        m = DEF.match(line)
        if not m or line.startswith(("static", "typedef", "#", "extern", "return", "else")):
            continue
        rest = "\n".join(lines[i:i + 8])
        brace, semi = rest.find("{"), rest.find(";")
        if brace >= 0 and (semi < 0 or brace < semi) and m.group(1) not in NOT_FUNCTIONS:
            out.add(m.group(1))
    return out


def main():
    root = "."
    args = sys.argv[1:]
    while args:
        a = args.pop(0)
        if a == "--root" and args:
            root = args.pop(0)
        else:
            sys.exit(__doc__)
    files = []
    for r in ROOTS:
        for d, _, names in os.walk(os.path.join(root, r)):
            for n in names:
                if n.endswith((".c", ".h")):
                    files.append(os.path.relpath(os.path.join(d, n), root))
    files.sort()
    bad = 0
    code = {}
    for f in files:
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        n = text.count("\n")
        if n > LIMIT:
            bad += 1
            print(f"{f}: {n} lines, over {LIMIT}: split it by job")
        if f.endswith(".c"):
            code[f] = code_only(text)
    defs = {}
    for f, c in code.items():
        for name in defined_functions(c):
            defs.setdefault(name, set()).add(f)
    calls = {}
    for f, c in code.items():
        for name in set(CALL.findall(c)):
            for g in defs.get(name, ()):
                if g != f:
                    calls.setdefault(f, {}).setdefault(g, set()).add(name)
    pairs = 0
    for a in sorted(calls):
        for b in sorted(calls[a]):
            if a >= b or a not in calls.get(b, {}):
                continue
            if (a, b) in ALTERNATIVES:
                continue
            pairs += 1
            print(f"{a}: calls {', '.join(sorted(calls[a][b]))} in {b}, which calls "
                  f"{', '.join(sorted(calls[b][a]))} back: give the pair one direction")
    for pair in sorted(ALTERNATIVES):
        if pair[1] not in calls.get(pair[0], {}) or pair[0] not in calls.get(pair[1], {}):
            print(f"# note: {pair[0]} and {pair[1]} no longer call each other; drop them from ALTERNATIVES")
    bad += pairs
    print(f"# {len(files)} files, {len(code)} .c files: {bad} breach(es)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
