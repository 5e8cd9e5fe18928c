#!/usr/bin/env python3
"""Checks the privileged instructions of a built tlbscope binary against the
records its wrappers left (arch/x86/include/asm/insn_sites.h): used by
tests/checks/insn_encoding.sh.

  insn_sites.py RECORDS_ELF [BINARY]

RECORDS_ELF is the linked ELF that holds the section .tlbscope_insn
(build/tlbscope.so); BINARY is what is disassembled (build/tlbscope.efi, the
PE that ships; default RECORDS_ELF). When they differ, their .text must be
byte for byte the same at the same address, so the records describe BINARY.

Every INVPCID, INVLPG, INVLPGB, TLBSYNC, WRMSR, RDMSR and MOV to or from a
control register in .text (found by its opcode bytes, whatever objdump calls
it) must have a record, and every record must point at the start of the
instruction it names:
  INVPCID   66 [REX] 0F 38 82 /r with a memory operand: the descriptor, and
            the type in the register the wrapper's template named;
  INVLPG    [REX] 0F 01 /7 with a memory operand, the one recorded;
  INVLPGB   0F 01 FE, TLBSYNC 0F 01 FF, WRMSR 0F 30, RDMSR 0F 32: exactly these
            bytes (a prefix would change an implicit operand: 67 makes
            INVLPGB take EAX instead of RAX);
  MOV CRn   [REX] 0F 22 /r (to) or 0F 20 /r (from), n the recorded kind's
            (REX.R would make it CR8 + n), the general register recorded.
Prints one line per site ("site ADDR FUNCTION KIND OPERANDS"), then
"problem: ..." lines; exits 1 when there is any problem, 2 when the input
cannot be read.
"""
import re
import struct
import subprocess
import sys

KINDS = {1: "invpcid", 2: "invlpg", 3: "invlpgb", 4: "tlbsync", 5: "wrmsr", 6: "rdmsr",
         7: "mov_to_cr3", 8: "mov_from_cr3", 9: "mov_to_cr4", 10: "mov_from_cr4",
         11: "mov_from_cr0", 12: "mov_from_cr2"}
LEGACY_PREFIXES = {0x26, 0x2E, 0x36, 0x3E, 0x64, 0x65, 0x66, 0x67, 0xF0, 0xF2, 0xF3}


def elf_section(path, name):
    """The bytes of section `name` of an ELF64 file, and .text's address and bytes."""
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        raise ValueError(f"{path}: not an ELF64 file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    sections = []
    for i in range(shnum):
        off = shoff + i * shentsize
        sh_name, sh_type, _, sh_addr, sh_offset, sh_size = struct.unpack_from("<IIQQQQ", data, off)
        sections.append((sh_name, sh_type, sh_addr, sh_offset, sh_size))
    strtab = sections[shstrndx]
    def name_of(s):
        start = strtab[3] + s[0]
        return data[start:data.index(b"\0", start)].decode()
    found = {name_of(s): s for s in sections}
    if name not in found:
        raise ValueError(f"{path}: no section {name}")
    s = found[name]
    return data[s[3]:s[3] + s[4]]


def parse_records(blob):
    recs, i = [], 0
    while i < len(blob):
        addr, kind = struct.unpack_from("<QB", blob, i)
        end = blob.index(b"\0", i + 9)
        recs.append((addr, kind, blob[i + 9:end].decode()))
        i = end + 1
    return recs


def text_of(path):
    """(address, bytes) of .text, from objdump (works for the PE and the ELF)."""
    out = subprocess.run(["objdump", "-h", path], capture_output=True, text=True, check=True).stdout
    m = re.search(r"^\s*\d+\s+\.text\s+([0-9a-f]+)\s+([0-9a-f]+)", out, re.M)
    raw = subprocess.run(["objcopy", "-O", "binary", "-j", ".text", path, "/dev/stdout"],
                         capture_output=True, check=True).stdout
    return int(m.group(2), 16), raw


INSN = re.compile(r"^\s*([0-9a-f]+):\t([0-9a-f ]+?)\s*(?:\t(.*))?$")
FUNC = re.compile(r"^([0-9a-f]+) <(.+)>:$")


def disassemble(path):
    out = subprocess.run(["objdump", "-d", "-w", "--insn-width=16", "-j", ".text", path],
                         capture_output=True, text=True, check=True).stdout
    func, insns = "?", []
    for line in out.splitlines():
        m = FUNC.match(line)
        if m:
            func = m.group(2)
            continue
        m = INSN.match(line)
        if m:
            text = (m.group(3) or "").split("#")[0].strip()
            insns.append((int(m.group(1), 16), [int(b, 16) for b in m.group(2).split()], text, func))
    return insns


def classify(code):
    """(kind name or None, prefixes, REX, modrm) of an instruction's bytes."""
    i, prefixes, rex = 0, [], 0
    while i < len(code) and code[i] in LEGACY_PREFIXES:
        prefixes.append(code[i])
        i += 1
    if i < len(code) and 0x40 <= code[i] <= 0x4F:
        rex = code[i]
        i += 1
    op = code[i:]
    if len(op) < 2 or op[0] != 0x0F:
        return None, prefixes, rex, None
    if op[1] == 0x38 and len(op) >= 4 and op[2] == 0x82:
        return "invpcid", prefixes, rex, op[3]
    if op[1] == 0x01 and len(op) >= 3:
        if op[2] == 0xFE:
            return "invlpgb", prefixes, rex, None
        if op[2] == 0xFF:
            return "tlbsync", prefixes, rex, None
        if (op[2] >> 3) & 7 == 7 and op[2] >> 6 != 3:
            return "invlpg", prefixes, rex, op[2]
        return None, prefixes, rex, None
    if op[1] == 0x30:
        return "wrmsr", prefixes, rex, None
    if op[1] == 0x32:
        return "rdmsr", prefixes, rex, None
    if op[1] in (0x20, 0x22) and len(op) >= 3:
        cr = ((op[2] >> 3) & 7) + (8 if rex & 4 else 0)
        return ("mov_to_cr" if op[1] == 0x22 else "mov_from_cr") + str(cr), prefixes, rex, op[2]
    return None, prefixes, rex, None


MEM = re.compile(r"^(?P<disp>[^(]*)\((?P<base>%\w+)?(?:,(?P<idx>%\w+)(?:,(?P<sc>\d))?)?\)$")


def same_memory(recorded, shown):
    """A memory operand as the compiler wrote it vs as objdump shows it."""
    a, b = MEM.match(recorded.strip()), MEM.match(shown.strip())
    if not a or not b:
        return False
    if (a["base"], a["idx"], a["sc"] or "1") != (b["base"], b["idx"], b["sc"] or "1"):
        return False
    def number(d):
        d = d.strip()
        if d in ("", "+", "-"):
            return 0
        try:
            return int(d, 0)
        except ValueError:
            return None  # symbolic: the base register alone is compared
    x, y = number(a["disp"]), number(b["disp"])
    return x is None or y is None or x == y


def check_operands(kind, recorded, text):
    """None when objdump's operands are the recorded ones, else what differs."""
    parts = text.split(None, 1)
    shown = parts[1].replace(" ", "") if len(parts) > 1 else ""
    if kind in ("invlpgb", "tlbsync", "wrmsr", "rdmsr"):
        return None if shown == "" and recorded == "" else f"operands '{shown}', expected none"
    if kind == "invpcid":
        mem, _, reg = recorded.partition("|")
        got_mem, _, got_reg = shown.rpartition(",")
        if not got_mem.endswith(")"):
            return f"'{shown}': the descriptor must be in memory"
        if got_reg != reg or not same_memory(mem, got_mem):
            return f"'{shown}', the wrapper's operands are descriptor {mem}, type {reg}"
        return None
    if kind == "invlpg":
        return None if same_memory(recorded, shown) else f"'{shown}', the wrapper's is {recorded}"
    src, _, dst = shown.partition(",")
    reg = src if kind.startswith("mov_to") else dst
    return None if reg == recorded else f"'{shown}', the wrapper's register is {recorded}"


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    records_elf, binary = argv[1], argv[2] if len(argv) == 3 else argv[1]
    problems = []
    try:
        recs = parse_records(elf_section(records_elf, ".tlbscope_insn"))
        insns = disassemble(binary)
        if binary != records_elf and text_of(binary) != text_of(records_elf):
            problems.append(f".text of {binary} is not the .text of {records_elf}: the records "
                            "do not describe it")
    except (OSError, ValueError, subprocess.CalledProcessError) as e:
        print(f"problem: cannot read the input: {e}")
        return 2
    at = {a: (code, text, func) for a, code, text, func in insns}
    recorded = {}
    for addr, kind, ops in recs:
        name = KINDS.get(kind)
        if name is None:
            problems.append(f"record at 0x{addr:x}: unknown kind {kind}")
            continue
        if addr in recorded:
            problems.append(f"0x{addr:x}: recorded twice")
        recorded[addr] = (name, ops)
    counts = {}
    for addr, code, text, func in insns:
        found = classify(code)[0]
        if found is None:
            continue
        counts[found] = counts.get(found, 0) + 1
        if addr not in recorded:
            problems.append(f"0x{addr:x} in {func}: {found} ('{text}') without a record: "
                            "emitted outside the wrappers of arch/x86/include/asm/cpu.h, tlb.h and entry.S")
    for addr, (name, ops) in sorted(recorded.items()):
        if addr not in at:
            problems.append(f"record 0x{addr:x} ({name}): no instruction starts there")
            continue
        code, text, func = at[addr]
        where = f"0x{addr:x} in {func}"
        found, prefixes, rex, _ = classify(code)
        print(f"site 0x{addr:x} {func} {name} {ops or '-'}")
        if found != name:
            problems.append(f"{where}: recorded {name}, the bytes are {found or 'something else'} "
                            f"({' '.join(f'{b:02x}' for b in code)}: '{text}')")
        elif name == "invpcid" and prefixes != [0x66]:
            problems.append(f"{where}: invpcid needs exactly the 66 prefix, has "
                            f"{' '.join(f'{p:02x}' for p in prefixes) or 'none'}")
        elif name != "invpcid" and prefixes:
            problems.append(f"{where}: {name} with prefix {' '.join(f'{p:02x}' for p in prefixes)}"
                            " (it changes an operand)")
        elif rex and name in ("invlpgb", "tlbsync", "wrmsr", "rdmsr"):
            problems.append(f"{where}: {name} with REX prefix {rex:02x}")
        else:
            why = check_operands(name, ops, text)
            if why:
                problems.append(f"{where}: {name} {why}")
    print("counts " + " ".join(f"{k}={counts.get(k, 0)}" for k in KINDS.values()) +
          f" records={len(recs)}")
    for p in problems:
        print(f"problem: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
