#!/usr/bin/env python3
"""Writes sim/profile_data.c: the CPUID leaves tlbscope reads and the
microcode revision (MSR 0x8B), taken from logical CPU #0 of the real dumps in
../shared/data/cpuid (InstLatx64, see that folder's README for source and
credit), plus QEMU TCG's `-cpu max` as recorded in
reports/samples/qemu-tcg-smp4-max.json.

Run from the repository root: python3 sim/gen_profiles.py > sim/profile_data.c
tests/host/test_sim_profiles.c checks the output against the dumps.
"""
import json
import re
import sys

DUMPS = "../shared/data/cpuid/"
# The leaves arch/x86/cpuid.c reads (sub-leaf 0 where it matters); 0x5, MONITOR/MWAIT,
# gives ipi_target_state its MWAIT hints on the model.
# 0x2, 0x18 and 0x80000005/6 also give tlbscope-sim its TLB geometry (sim/profiles.c).
LEAVES = {0x0, 0x1, 0x2, 0x5, 0x7, 0xB, 0x15, 0x16,
          0x80000000, 0x80000001, 0x80000002, 0x80000003, 0x80000004,
          0x80000005, 0x80000006, 0x80000007, 0x80000008}
# Leaves read at every sub-leaf: 0x18, the TLBs (arch/x86/tlb_info.c).
SUBLEAF_LEAVES = {0x18}

# name, dump file, SMT threads per core, what it is
PROFILES = [
    ("epyc-7763", "amd-epyc7763.txt", 1, "AMD EPYC 7763 (Zen 3 Milan): PCID, INVPCID, INVLPGB"),
    ("epyc-9654", "amd-epyc9654.txt", 2, "AMD EPYC 9654 (Zen 4 Genoa): PCID, INVPCID, INVLPGB, LA57"),
    ("epyc-7742", "amd-epyc7742.txt", 2, "AMD EPYC 7742 (Zen 2 Rome): no PCID (as recorded), no INVPCID, no INVLPGB"),
    ("epyc-7551p", "amd-epyc7551p.txt", 2, "AMD EPYC 7551P (Zen 1 Naples): no PCID, no INVLPGB"),
    ("xeon-8180", "intel-xeon8180.txt", 2, "Intel Xeon Platinum 8180 (Skylake-SP): PCID, INVPCID"),
    ("xeon-6330", "intel-xeon6330.txt", 2, "Intel Xeon Gold 6330 (Ice Lake-SP): PCID, INVPCID"),
    ("i9-12900k", "intel-i9-12900k.txt", 2,
     "Intel Core i9-12900K (Alder Lake): PCID, INVPCID; INVLPG/global erratum before microcode 0x2e"),
]

# The CPUs of the profiles that have Intel's INVLPG/global erratum (ADL063/RPL042:
# INVLPG with CR4.PCIDE = 1 may leave global translations), with the first
# microcode revision that fixes it: Linux's invlpg_miss_ids[] (arch/x86/mm/init.c,
# "x86/mm: Don't disable PCID when INVLPG has been fixed by microcode"). The model
# misbehaves so on such a profile while its microcode is older.
INVLPG_GLOBAL_FIXED = {"i9-12900k": 0x2E}

LINE = re.compile(r"^CPUID ([0-9A-Fa-f]{8}): ([0-9A-Fa-f]{8})-([0-9A-Fa-f]{8})-"
                  r"([0-9A-Fa-f]{8})-([0-9A-Fa-f]{8})(.*)$")
HEADER = re.compile(r"^(------\[ .*Logical CPU #\d+ \]------|CPU#\d+ AffMask)")


def cpu0_records(path):
    records, sections = [], 0
    with open(path, encoding="latin-1") as f:
        for raw in f:
            line = raw.rstrip("\r\n").rstrip()
            if HEADER.match(line):
                sections += 1
                if sections > 1:
                    break
                continue
            m = LINE.match(line)
            if not m:
                continue
            leaf = int(m.group(1), 16)
            sub = re.search(r"\[SL ([0-9A-Fa-f]+)\]", m.group(6))
            subleaf = int(sub.group(1), 16) if sub else 0
            if (leaf in LEAVES and subleaf == 0) or leaf in SUBLEAF_LEAVES:
                regs = [int(m.group(i), 16) for i in range(2, 6)]
                if (leaf, subleaf) not in [(r[0], r[1]) for r in records]:
                    records.append((leaf, subleaf, regs))
    return records


MSR_8B = re.compile(r"^MSR 0000008B: ([0-9A-Fa-f]{4})-([0-9A-Fa-f]{4})-([0-9A-Fa-f]{4})-([0-9A-Fa-f]{4})")


def cpu0_microcode(path, records):
    """The microcode revision the dump recorded for logical CPU #0 (the first MSR
    section; MSR 0x8B, IA32_BIOS_SIGN_ID): Intel keeps it in the high half, AMD's
    PATCH_LEVEL in the low half. None when the dump has no MSR section."""
    intel = any(leaf == 0 and regs[1] == 0x756E6547 for leaf, _, regs in records)
    with open(path, encoding="latin-1") as f:
        for raw in f:
            m = MSR_8B.match(raw.strip())
            if m:
                v = int("".join(m.groups()), 16)
                return (v >> 32) if intel else (v & 0xFFFFFFFF)
    return None


def words(text):
    b = text.encode("ascii").ljust(16, b"\0")
    return [int.from_bytes(b[i:i + 4], "little") for i in range(0, 16, 4)]


def tcg_records():
    r = json.load(open("reports/samples/qemu-tcg-smp4-max.json"))
    c = r["cpu"]["cpuid"]
    h = lambda k: int(c[k], 16)
    vendor = words(r["cpu"]["vendor"])
    brand = r["cpu"]["brand"].encode("ascii").ljust(48, b"\0")
    bw = [int.from_bytes(brand[i:i + 4], "little") for i in range(0, 48, 4)]
    hv = words(r["cpu"]["hypervisor"])
    return [
        (0x0, 0, [h("max_basic_leaf"), vendor[0], vendor[2], vendor[1]]),
        (0x1, 0, [h("1.eax"), 0, h("1.ecx"), h("1.edx")]),
        (0x7, 0, [0, h("7.0.ebx"), h("7.0.ecx"), h("7.0.edx")]),
        (0x40000000, 0, [0x40000001, hv[0], hv[1], hv[2]]),
        (0x80000000, 0, [h("max_extended_leaf"), 0, 0, 0]),
        (0x80000001, 0, [0, 0, 0, 1 << 26]),
        (0x80000002, 0, bw[0:4]),
        (0x80000003, 0, bw[4:8]),
        (0x80000004, 0, bw[8:12]),
        (0x80000007, 0, [0, 0, 0, h("80000007.edx")]),
        (0x80000008, 0, [0x3028, h("80000008.ebx"), 0, h("80000008.edx")]),
    ]


def emit(out):
    out.write("/* Generated by sim/gen_profiles.py; do not edit. CPUID leaves of logical CPU #0 from\n"
              " * ../shared/data/cpuid (InstLatx64/InstLatx64 dumps, credited in that folder's README)\n"
              " * and QEMU TCG `-cpu max` from reports/samples/qemu-tcg-smp4-max.json. */\n")
    out.write('#include "sim/profiles.h"\n\n')
    table = []
    for name, dump, smt, what in PROFILES:
        recs = cpu0_records(DUMPS + dump)
        table.append((name, "cpuid/" + dump, smt, what, recs, cpu0_microcode(DUMPS + dump, recs)))
    # QEMU's TCG has no microcode revision to read (the sample report says null)
    table.append(("qemu-tcg", "reports/samples/qemu-tcg-smp4-max.json", 1,
                  "QEMU 10 TCG -cpu max (what tlbscope sees under CI): no PCID, INVPCID, INVLPGB",
                  tcg_records(), None))
    for name, src, smt, what, recs, ucode in table:
        ident = name.replace("-", "_")
        out.write(f"static const struct cpuid_leaf {ident}[] = {{\n")
        for leaf, sub, regs in recs:
            out.write(f"    {{ 0x{leaf:08x}, {sub}, {{ " +
                      ", ".join(f"0x{v:08x}" for v in regs) + " } },\n")
        out.write("};\n\n")
    out.write("const struct sim_profile sim_profiles[] = {\n")
    for name, src, smt, what, recs, ucode in table:
        ident = name.replace("-", "_")
        known = "true" if ucode is not None else "false"
        fixed = INVLPG_GLOBAL_FIXED.get(name, 0)
        out.write(f'    {{ "{name}", "{what}", "{src}", {smt}, {ident},\n'
                  f"      sizeof({ident}) / sizeof({ident}[0]), {known}, 0x{ucode or 0:x}, 0x{fixed:x} }},\n")
    out.write("};\n")
    out.write("const unsigned sim_profile_count = sizeof(sim_profiles) / sizeof(sim_profiles[0]);\n")


if __name__ == "__main__":
    emit(sys.stdout)
