/* The exception level the app runs at, and the names of MIDR implementers. */
#include "asm/cpu.h"
#include "asm/tlbi.h"

unsigned arch_el;
bool tlbi_el2;

/* MIDR_EL1.Implementer codes (Arm ARM, MIDR_EL1 "Implementer" field) */
const char *arm64_implementer_name(unsigned implementer)
{
    switch (implementer) {
    case 0x41: return "Arm";
    case 0x42: return "Broadcom";
    case 0x43: return "Cavium";
    case 0x46: return "Fujitsu";
    case 0x48: return "HiSilicon";
    case 0x4e: return "NVIDIA";
    case 0x50: return "Applied Micro";
    case 0x51: return "Qualcomm";
    case 0x61: return "Apple";
    case 0xc0: return "Ampere";
    default: return 0; /* 0x00 ("reserved for software use": QEMU's -cpu max) and unknown */
    }
}
