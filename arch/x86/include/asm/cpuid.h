/*
 * CPUID decoding into the facts tlbscope depends on.
 *
 * The decoder reads CPUID through a callback so the same code runs on the
 * live CPU and, in host tests, on recorded dumps of real servers
 * (../shared/data/cpuid). Bit positions are cited next to each field.
 */
#ifndef TLBSCOPE_ARCH_X86_CPUID_H
#define TLBSCOPE_ARCH_X86_CPUID_H

#include <stdbool.h>
#include <stdint.h>

enum cpu_vendor { VENDOR_OTHER = 0, VENDOR_INTEL, VENDOR_AMD, VENDOR_HYGON };

/* regs[] = EAX, EBX, ECX, EDX for (leaf, subleaf); zeros for absent leaves. */
typedef void (*cpuid_fn)(void *ctx, uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);

struct cpuid_evidence {
    /* The raw registers that every feature verdict in the report rests on. */
    uint32_t leaf1_eax, leaf1_ebx, leaf1_ecx, leaf1_edx;
    uint32_t leaf7_ebx, leaf7_ecx, leaf7_edx;
    uint32_t ext1_ecx, ext1_edx;
    uint32_t ext7_edx;
    uint32_t ext8_eax, ext8_ebx, ext8_edx;
    uint32_t ext21_eax; /* AMD 8000_0021: extended feature identifiers 2 */
    uint32_t leaf15_eax, leaf15_ebx, leaf15_ecx;
    uint32_t leaf16_eax;
    /* power management (core/run/conditions.c, ipi_target_state); zeros when the leaf is absent */
    uint32_t leaf5_eax, leaf5_ebx, leaf5_ecx, leaf5_edx; /* MONITOR/MWAIT */
    uint32_t leaf6_eax, leaf6_ecx;                       /* thermal and power: turbo, APERF/MPERF */
};

/* The second-level TLB for 4 KiB pages (arch/x86/include/asm/tlb_info.h says how it is decoded). */
struct l2_tlb_info {
    uint32_t entries_4k;   /* 0: not reported */
    uint32_t ways_4k;      /* associativity of those entries (entries when fully associative;
                            * the sum over Intel's STLB sub-leaves); 0: not reported */
    const char *source;    /* "cpuid_18h", "cpuid_02h", "cpuid_80000006h", or "none" */
    uint32_t evidence[4];  /* leaf 2 EAX..EDX; leaf 0x18 EBX, ECX, EDX of the last STLB
                            * sub-leaf; or 8000_0006 EBX */
};

struct cpu_features {
    enum cpu_vendor vendor_id;
    char vendor[13];
    char brand[49];
    uint32_t max_basic_leaf;
    uint32_t max_ext_leaf;
    uint32_t signature; /* CPUID.1:EAX */
    uint32_t family, model, stepping; /* display values */

    bool apic;          /* 1:EDX[9] */
    bool x2apic;        /* 1:ECX[21] (firmware may clear it: see the 7763 dumps) */
    bool pcid;          /* 1:ECX[17] */
    bool invpcid;       /* 7.0:EBX[10] */
    bool la57;          /* 7.0:ECX[16] */
    bool hybrid;        /* 7.0:EDX[15] */
    bool pge;           /* 1:EDX[13] */
    bool pdpe1gb;       /* 80000001:EDX[26] */
    bool rdtscp;        /* 80000001:EDX[27] */
    bool tce;           /* 80000001:ECX[17]: EFER.TCE (AMD translation cache extension) */
    bool lfence_always_serializing; /* 80000021:EAX[2] (AMD): no DE_CFG[1] needed */
    bool tsc_deadline;  /* 1:ECX[24] */
    bool invariant_tsc; /* 80000007:EDX[8] */
    bool invlpgb;       /* 80000008:EBX[3] */
    uint32_t invlpgb_max_pages; /* 80000008:EDX[15:0] + 1 when invlpgb, else 0 */
    bool hypervisor;    /* 1:ECX[31] */
    bool monitor;       /* 1:ECX[3]: MONITOR/MWAIT */
    bool aperfmperf;    /* 6:ECX[0] */
    char hypervisor_vendor[13]; /* 40000000:EBX,ECX,EDX; "" when absent */
    uint32_t phys_addr_bits;    /* 80000008:EAX[7:0]; 36 when the leaf is absent */
    uint32_t virt_addr_bits;    /* 80000008:EAX[15:8]; 48 when absent */
    uint32_t initial_apic_id8;  /* 1:EBX[31:24] (wraps above 255) */
    bool has_x2apic_id_leaf;    /* leaf 0xB (or 0x1F) enumerates an x2APIC ID */
    uint32_t x2apic_id;         /* 0B.0:EDX */

    struct l2_tlb_info l2_tlb;

    struct cpuid_evidence evidence;
};

void cpuid_decode(cpuid_fn fn, void *ctx, struct cpu_features *out);
/* Reads the CPU this code runs on (EFI builds; also usable on an x86 host). */
void cpuid_live(void *ctx, uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);
const char *cpu_vendor_short(enum cpu_vendor v); /* "intel", "amd", "hygon", "other" */

#endif
